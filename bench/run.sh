#!/usr/bin/env bash
# Benchmark: what does `gpuwise run` cost a job?
#
#   bench/run.sh [RUNS] [MACHINE]        (defaults: 30 runs, h100-8x)
#   GW_BEFORE=/path/to/older/gpuwise bench/run.sh   also measure that build, interleaved
#   GW_BEFORE_NAME=TEXT   what to call it in the table (default: before)
#   GW_LOG_JOBS=N         the second table: after N jobs in the accounting log (default 600; 0: none)
#
# On a fake machine with a private pool folder: the overhead of
# `gpuwise run -- true` over `true` alone (target: <= 5 ms; it includes
# loading gpuwise, opening the GPUs through the fake NVML, the queue and
# lease files, the job's fork/exec, the supervisor's first sample and the
# accounting row), and the lease hand-over latency: one job holds the only
# GPU it asks for, a second waits; from the holder's end to the waiter's
# start, each told by `date` (no interpreter's start-up in the figure).
# Wall time (median, p90) and CPU time (user + system of the whole
# process tree, from getrusage: unlike wall time it does not grow when
# other work shares the CPUs). Writes its section of docs/benchmarks.md
# (bench/benchdoc.py).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-30}
MACHINE=${2:-h100-8x}
cd "$REPO"
make -s -j2 build/gpuwise build/fake/libnvidia-ml.so.1 build/fake/libcuda.so.1 >/dev/null
POOL=$(mktemp -d)
trap 'rm -rf "$POOL"' EXIT
export GPUWISE_POOL_DIR=$POOL/pool GW_BEFORE=${GW_BEFORE:-} GW_BEFORE_NAME=${GW_BEFORE_NAME:-before} GW_LOG_JOBS=${GW_LOG_JOBS:-600}
exec scripts/with-machine "$MACHINE" -- python3 - "$RUNS" "$MACHINE" "$REPO" <<'PY'
import datetime, os, resource, statistics, subprocess, sys, time

runs, machine, repo = int(sys.argv[1]), sys.argv[2], sys.argv[3]
gw = os.path.join(repo, "build/gpuwise")
before = os.environ.get("GW_BEFORE")
before_name = os.environ.get("GW_BEFORE_NAME") or "before"
log_jobs = int(os.environ.get("GW_LOG_JOBS") or 0)


def timed(cmd, env=None):
    """Wall and CPU seconds of one run of cmd (its whole process tree)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


try:
    load0 = os.getloadavg()[0]
except OSError:
    load0 = float("nan")


def p90(xs):
    xs = sorted(xs)
    return xs[max(0, int(len(xs) * 0.9) - 1)]


rows = [("true", ["true"], None), ("gpuwise run -- true", [gw, "run", "--gpu", "0", "--", "true"], None)]
if before:   # its own pool folder: the two builds treat the accounting log differently
    rows.append(("gpuwise run -- true (%s)" % before_name, [before, "run", "--gpu", "0", "--", "true"],
                 dict(os.environ, GPUWISE_POOL_DIR=os.environ["GPUWISE_POOL_DIR"] + "-before")))


def measure(rows):
    """The table's lines and the medians (wall, CPU) per row."""
    for _, cmd, env in rows:    # warm-up: page cache, the accounting log created
        timed(cmd, env)
    res = {name: ([], []) for name, _, _ in rows}
    for _ in range(runs):
        for name, cmd, env in rows:
            w, c = timed(cmd, env)
            res[name][0].append(w)
            res[name][1].append(c)
    med = {name: (statistics.median(w), statistics.median(c)) for name, (w, c) in res.items()}
    lines = ["| command | wall median ms | wall p90 ms | CPU median ms | overhead over `true`: wall / CPU ms |",
             "|---|---|---|---|---|"]
    for name, (w, c) in res.items():
        lines.append("| `%s` | %.1f | %.1f | %.1f | %s |" % (
            name, med[name][0] * 1e3, p90(w) * 1e3, med[name][1] * 1e3,
            "—" if name == "true" else "%.1f / %.1f" % ((med[name][0] - med["true"][0]) * 1e3,
                                                         (med[name][1] - med["true"][1]) * 1e3)))
    print("\n".join(lines))
    return lines, med


lines, med = measure(rows)

# The same once the accounting log holds many jobs (each pool filled by its
# own build: how each treats the log's -wal file is what differs).
log_lines = []
if log_jobs:
    for _, cmd, env in rows[1:]:
        for _ in range(log_jobs):
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    log_lines = measure(rows)[0]

# Hand-over: the holder's last command prints its end time, the waiter's
# command its start time (date +%s.%N: the wall clock, as time.time()).
def handover(gw, env):
    lat = []
    stamp = os.path.join(os.environ["GPUWISE_POOL_DIR"], "..", "t")
    for i in range(max(5, runs // 3)):
        with open(stamp + ".end", "w") as end, open(stamp + ".start", "w") as start:
            holder = subprocess.Popen([gw, "run", "--gpu", "0", "--", "sh", "-c", "sleep 0.3; exec date +%s.%N"],
                                      stdout=end, env=env)
            time.sleep(0.15)
            waiter = subprocess.Popen([gw, "run", "--gpu", "0", "--", "date", "+%s.%N"], stdout=start, env=env)
            holder.wait(); waiter.wait()
        lat.append(float(open(stamp + ".start").read()) - float(open(stamp + ".end").read()))
    return len(lat), "median %.1f ms, p90 %.1f ms" % (statistics.median(lat) * 1e3, p90(lat) * 1e3)


npairs, hand = handover(gw, None)
print("hand-over (holder's end -> waiter's start):", hand)
hand_before = handover(before, rows[2][2])[1] if before else None
if hand_before:
    print("hand-over, before:", hand_before)

try:
    load = os.getloadavg()[0]
except OSError:
    load = float("nan")
over = (med["gpuwise run -- true"][0] - med["true"][0]) * 1e3
over_cpu = (med["gpuwise run -- true"][1] - med["true"][1]) * 1e3
section = "\n".join([
    "Measured %s on fake machine `%s`, %d runs per command, interleaved, after one warm-up run each; "
    "load average %.1f (start) to %.1f (end) on %d CPUs while measuring." % (
        datetime.date.today().isoformat(), machine, runs, load0, load, os.cpu_count() or 0),
    "",
] + lines + ([
    "",
    "The same after %d more jobs in each accounting log:" % log_jobs,
    "",
] + log_lines if log_lines else []) + [
    "",
    "Lease hand-over from one job's end to the next waiter's start (%d pairs): %s%s." % (
        npairs, hand, "; before: " + hand_before if hand_before else ""),
    "",
    "Target: `gpuwise run -- true` at most 5 ms over `true`: %s (wall +%.1f ms, CPU +%.1f ms)." % (
        "met" if over <= 5 else "met in CPU time, not in wall time on this loaded machine" if over_cpu <= 5
        else "not met", over, over_cpu),
])
sys.path.insert(0, os.path.join(repo, "bench"))
from benchdoc import write_section
doc = write_section(repo, "run", "Sharing GPUs: `gpuwise run` overhead (`bench/run.sh`)",
                    "What wrapping a job in `gpuwise run` costs, against the fake NVML: loading gpuwise, opening "
                    "the GPUs, the queue and lease files, starting the job (posix_spawn), the first sample and "
                    "the accounting row. "
                    "Wall time grows with whatever else runs on the machine; CPU time (user + system of the "
                    "whole process tree) does not. The hand-over runs from the moment the holder's last "
                    "command printed the time to the moment the waiter's command did (both `date`): the holder's "
                    "supervisor seeing its job end and releasing the lease, the waiter being woken (inotify; it "
                    "polled every 0.1 s before), its look at the queue, and the start of `date`.", section)
print("\nwrote", os.path.relpath(doc, repo))
PY
