#!/usr/bin/env bash
# Benchmark: `gpuwise explain --json FILE` on a generated 100 MB training
# log with a few real errors buried in it.
#
#   bench/explain_large.sh [--record] [--runs N] [SIZE_MB]    (defaults: 5 runs, 100 MB)
#
# Runs, side by side in one session, this tree's build/gpuwise, any earlier
# builds named in EXPLAIN_BENCH_BEFORE ("LABEL=BUILD_DIR ...", e.g. the
# commit the last recorded figures came from, built elsewhere) and two
# floors that read the same file (`wc -l`: reading it; `grep -c -E` with
# the three errors: one regular expression over every line), N times each,
# interleaved so that drift and other jobs on the host hit every command
# alike, after one warm-up run each (page cache warm). Wall time, CPU time
# (user + system) and peak RSS of each process (/usr/bin/time's %M). Every gpuwise build
# must find the three errors, or the run fails. With --record the table is
# written into docs/benchmarks.md between <!-- explain:begin --> and
# <!-- explain:end --> (bench/benchdoc.py).
set -euo pipefail
cd "$(dirname "$0")/.."
RECORD=0
RUNS=5
while [ $# -gt 0 ]; do
	case "$1" in
	--record) RECORD=1; shift ;;
	--runs) RUNS=$2; shift 2 ;;
	*) break ;;
	esac
done
MB=${1:-100}
G=${GPUWISE_BUILD:-build}/gpuwise
LOG=$(mktemp /tmp/gw-explain-bench.XXXXXX)
trap 'rm -f "$LOG"' EXIT

python3 - "$LOG" "$MB" <<'PY'
import random, sys
path, mb = sys.argv[1], int(sys.argv[2])
random.seed(1)
noise = [
    "Epoch {e}: {p}%|#####     | {i}/4068 [12:01<6:35:30,  6.01s/it, loss={l:.4f}, lr=4.8e-05]",
    "[INFO|trainer.py:2128] step {i} grad_norm={l:.3f} max memory allocated 5.21 GiB on cuda:0",
    "2024-03-11 10:02:{e:02d}.551241: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1418] Created device GPU:0 with 9965 MB memory",
    "node01:1234:1301 [0] NCCL INFO Channel {e:02d}/02 :    0   1",
    "  File \"/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py\", line {i}, in _call_impl",
]
errors = [
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.22 GiB. GPU 0 has a total capacity of 15.69 GiB",
    "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE) ran for 600060 milliseconds",
    "RuntimeError: CUDA error: device-side assert triggered",
]
target = mb * 1000 * 1000
with open(path, "w") as f:
    written, n = 0, 0
    while written < target:
        if n % 250000 == 1000:
            line = errors[(n // 250000) % len(errors)]
        else:
            line = random.choice(noise).format(e=n % 60, p=n % 100, i=n % 4068, l=random.random())
        f.write(line + "\n")
        written += len(line) + 1
        n += 1
PY

# Warm the page cache so the figure is the program's, not the disk's.
cat "$LOG" >/dev/null

python3 - "$LOG" "$MB" "$RUNS" "$RECORD" "$G" "${EXPLAIN_BENCH_BEFORE:-}" <<'PY'
import datetime, json, os, platform, statistics, subprocess, sys, time

log, mb, runs, record, gw, before = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1", \
    sys.argv[5], sys.argv[6]
repo = os.getcwd()
WANT = ["cuda-out-of-memory", "nccl-timeout", "device-side-assert"]

def git(*args):
    try:
        return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""

head = git("rev-parse", "--short=8", "HEAD") or "unknown"
dirty = bool(git("status", "--porcelain", "--untracked-files=no", "--", "lib", "cli", "include", "data", "Makefile"))
commands = [("gpuwise explain --json (%s%s)" % (head, ", with uncommitted changes" if dirty else ""),
             [gw, "explain", "--json", log], True)]
for item in before.split():
    label, _, build = item.partition("=")
    commands.append(("gpuwise explain --json (%s)" % label, [os.path.join(build, "gpuwise"), "explain", "--json", log], True))
commands.append(("wc -l (reading the file)", ["wc", "-l", log], False))
commands.append(("grep -c -E, the three errors (one regex a line)",
                 ["grep", "-c", "-E", "CUDA out of memory|Watchdog caught collective|device-side assert", log], False))

found = {}
for name, argv, is_gw in commands:  # correctness first, outside the timing; doubles as the warm-up
    out = subprocess.run(argv, capture_output=True, text=True)
    if is_gw:
        ids = [m["id"] for m in json.loads(out.stdout)["matches"]]
        if not all(w in ids for w in WANT):
            sys.exit("explain bench: %s did not find %s (found: %s)" % (name, " ".join(WANT), " ".join(ids)))
        found[name] = " ".join(ids)

# Peak RSS as /usr/bin/time reports it (%M, the command's wait4): a child
# forked from this Python process would count the interpreter's pages
# before its exec. Wall time and CPU (user + system, the command's and
# time's own, which is next to nothing) measured here.
RSS = os.path.join(os.path.dirname(log), "gw-explain-bench-rss.%d" % os.getpid())
OUT = os.path.join(os.path.dirname(log), "gw-explain-bench-out.%d" % os.getpid())

def once(argv):
    t0 = time.perf_counter()
    with open(OUT, "w") as out:  # a file, not /dev/null (grep stops at its first match there)
        p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", RSS, *argv], stdout=out, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("explain bench: %s failed" % " ".join(argv))
    with open(RSS) as f:
        rss = int(f.read().split()[-1])
    os.unlink(RSS)
    return wall, ru.ru_utime + ru.ru_stime, rss

load0 = os.getloadavg()
res = {name: [] for name, _, _ in commands}
for r in range(runs):
    order = commands[r % len(commands):] + commands[:r % len(commands)]
    for name, argv, _ in order:
        res[name].append(once(argv))
load1 = os.getloadavg()
os.unlink(OUT)

size = os.path.getsize(log)
sys.path.insert(0, os.path.join(repo, "bench"))
from benchdoc import cpu_model
cpu = cpu_model()
med = lambda xs: statistics.median(xs)
rows = []
for name, _, is_gw in commands:
    w = [x[0] for x in res[name]]
    c = [x[1] for x in res[name]]
    m = [x[2] for x in res[name]]
    rows.append((name, med(w), min(w), max(w), med(c), med(m) / 1024, found.get(name, "")))
    print("%-62s wall median %.3f s (min %.3f, max %.3f), CPU %.3f s, peak RSS %.1f MiB%s" %
          (name, med(w), min(w), max(w), med(c), med(m) / 1024, ("  found: " + found[name]) if is_gw else ""))
print("load average (1, 5, 15 min): %s before, %s after" % (" ".join("%.2f" % x for x in load0),
                                                            " ".join("%.2f" % x for x in load1)))

if record:
    sys.path.insert(0, os.path.join(repo, "bench"))
    import benchdoc
    now = datetime.datetime.now(datetime.timezone.utc)
    lines = [
        "## gpuwise explain on a large log",
        "",
        "`bench/explain_large.sh` generates a %d MB training log (progress bars, NCCL INFO, tracebacks) with "
        "three real errors buried in it and times `gpuwise explain --json FILE` (page cache warm) next to "
        "two floors that read the same file. Target: under 1 s, memory bounded (input streamed in 1 MiB "
        "chunks, lines capped at 64 KiB)." % mb,
        "",
        "Measured %s UTC at commit %s%s, %d runs per command, interleaved, after one warm-up run each; "
        "input %d bytes." % (now.strftime("%Y-%m-%d %H:%M"), head, " (with uncommitted changes)" if dirty else "",
                             runs, size),
        "Host: %s, %d CPUs (nproc), Linux %s, Python %s; load average (1, 5, 15 min) %s before, %s after "
        "(the host is shared with other jobs)." % (cpu, os.cpu_count() or 0, platform.release(),
                                                   platform.python_version(),
                                                   " ".join("%.2f" % x for x in load0),
                                                   " ".join("%.2f" % x for x in load1)),
        "",
        "| command | wall median | min | max | CPU median | peak RSS | found |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, wm, wmin, wmax, cm, rss, ids in rows:
        lines.append("| `%s` | %.2f s | %.2f s | %.2f s | %.2f s | %.1f MiB | %s |" % (name, wm, wmin, wmax, cm, rss, ids))
    lines += ["", "Target: under 1 s: %s in wall time (%.2f s, median, at a load average of %.1f on %d CPUs); "
              "CPU time %.2f s (median)." % ("met" if rows[0][1] < 1.0 else "NOT met", rows[0][1],
                                            (load0[0] + load1[0]) / 2, os.cpu_count() or 0, rows[0][4])]
    print("recorded in", benchdoc.write_section(repo, "explain", "gpuwise explain on a large log", "", "\n".join(lines)))
PY
