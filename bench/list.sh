#!/usr/bin/env bash
# Benchmark: how long does it take to list the GPUs?
#
#   bench/list.sh [RUNS] [MACHINE]        (defaults: 30 runs, h100-8x)
#
# Runs, side by side in one session on a fake machine, `gpuwise list`,
# `gpuwise info --json`, `gpustat --json`, `nvitop --once` and a minimal
# pynvml script (init, count, name + memory per GPU), RUNS times each,
# interleaved so that drift hits every command alike. Prints a Markdown
# table (median, p90, ratio to `gpuwise list`) and writes it into
# docs/benchmarks.md between <!-- list:begin --> and <!-- list:end -->.
# Peers that are not installed are listed as "not installed".
# hyperfine is not used even where installed: one Python timing loop
# (time.perf_counter around subprocess.run) for every command keeps the
# numbers comparable and needs nothing beyond the test venv.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-30}
MACHINE=${2:-h100-8x}
cd "$REPO"

make -s -j"$(nproc 2>/dev/null || echo 2)" build/gpuwise build/fake/libnvidia-ml.so.1 build/fake/libcuda.so.1 >/dev/null
PY=build/venv/bin/python
[ -x "$PY" ] || PY=python3

exec scripts/with-machine "$MACHINE" -- "$PY" - "$RUNS" "$MACHINE" <<'EOF'
import datetime, os, platform, re, statistics, subprocess, sys, time

runs, machine = int(sys.argv[1]), sys.argv[2]
repo = os.getcwd()
venv_bin = os.path.dirname(sys.executable)

PYNVML_MIN = r"""
import pynvml as N
N.nvmlInit()
for i in range(N.nvmlDeviceGetCount()):
    h = N.nvmlDeviceGetHandleByIndex(i)
    m = N.nvmlDeviceGetMemoryInfo(h)
    print(i, N.nvmlDeviceGetName(h), m.used, m.total)
N.nvmlShutdown()
"""

def exe(name):
    p = os.path.join(venv_bin, name)
    return p if os.access(p, os.X_OK) else None

def have_module(m):
    try:
        __import__(m)
        return True
    except ImportError:
        return False

commands = [
    ("gpuwise list", ["build/gpuwise", "list"]),
    ("gpuwise info --json", ["build/gpuwise", "info", "--json"]),
    ("gpustat --json", [exe("gpustat"), "--json"] if exe("gpustat") else None),
    ("nvitop --once", [exe("nvitop"), "--once"] if exe("nvitop") else None),
    ("pynvml (init, count, name + memory)", [sys.executable, "-c", PYNVML_MIN] if have_module("pynvml") else None),
]
env = dict(os.environ, COLUMNS="160", LINES="60", TERM="xterm", NO_COLOR="1")

def once(argv):
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit("bench: %s failed (rc %d): %s" % (" ".join(argv), p.returncode, p.stderr.decode()[-500:]))
    return dt

times = {name: [] for name, argv in commands if argv}
for name, argv in commands:   # warm-up: page cache, .pyc files
    if argv:
        once(argv)
for _ in range(runs):
    for name, argv in commands:
        if argv:
            times[name].append(once(argv))

def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]

base = statistics.median(times["gpuwise list"])
rows = ["| command | median ms | p90 ms | × gpuwise list |", "|---|---:|---:|---:|"]
for name, argv in commands:
    if not argv:
        rows.append("| `%s` | not installed | | |" % name)
        continue
    med = statistics.median(times[name])
    rows.append("| `%s` | %.1f | %.1f | %.1f× |" % (name, med * 1e3, p90(times[name]) * 1e3, med / base))

def version(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=30, env=env)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except Exception:
        return "?"

def pkg(name):
    try:
        from importlib.metadata import version as v
        return v(name)
    except Exception:
        return "not installed"

sys.path.insert(0, os.path.join(repo, "bench"))
from benchdoc import cpu_model
cpu = cpu_model()
ratio_gpustat = (statistics.median(times["gpustat --json"]) / base) if "gpustat --json" in times else None
section = "\n".join([
    "Measured %s on fake machine `%s` (%s), %d runs per command, interleaved, after one warm-up run each."
    % (datetime.date.today().isoformat(), machine, "8 GPUs" if machine == "h100-8x" else "see tests/machines/README.md", runs),
    "Host: %s, %d CPUs (nproc), Linux %s, Python %s. Versions: %s; nvidia-ml-py %s, gpustat %s, nvitop %s."
    % (cpu, os.cpu_count() or 0, platform.release(), platform.python_version(),
       version(["build/gpuwise", "--version"]), pkg("nvidia-ml-py"), pkg("gpustat"), pkg("nvitop")),
    "",
] + rows + [
    "",
    "Target: `gpuwise list` at least 30× faster than `gpustat --json`: %s."
    % ("met (%.0f×)" % ratio_gpustat if ratio_gpustat and ratio_gpustat >= 30 else
       ("NOT met (%.1f×)" % ratio_gpustat if ratio_gpustat else "gpustat not installed")),
    "",
    "Reading the table: gpustat sleeps 0.1 s per GPU to sample per-process CPU use (`gpustat/core.py`), "
    "which is most of its time on 8 GPUs; the pynvml row is the floor for any Python client "
    "(interpreter start, `import pynvml`, NVML init, one query per GPU). The fake NVML answers instantly, "
    "so on real hardware every row grows by the same driver cost (a whole nvidia-smi run is ~17 ms with "
    "persistence mode on; without it GPU initialisation costs 1-3 s per GPU, per NVIDIA's driver-persistence docs).",
])
print(section)

sys.path.insert(0, os.path.join(repo, "bench"))
from benchdoc import write_section
doc = write_section(repo, "list", "Listing GPUs (`bench/list.sh`)",
                    "Wall time of one complete command, process start included, against the fake NVML (so it "
                    "measures the client, not the driver; on real hardware NVML calls add the same cost to every "
                    "client).", section)
print("\nwrote", os.path.relpath(doc, repo))
EOF
