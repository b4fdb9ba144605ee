#!/usr/bin/env bash
# Benchmark: what does `import gpuwise; gpuwise.is_available()` cost?
#
#   bench/python_import.sh [RUNS] [MACHINE]      (defaults: 40 runs, h100-8x)
#
# Builds the extension in place (build/python/lib, as the tests do), then
# times, side by side in one session on a fake machine, interleaved so that
# drift hits every row alike, RUNS times each after one warm-up:
#   python -c pass                                   the bare interpreter
#   python -c "import gpuwise"
#   python -c "import gpuwise; gpuwise.is_available()"
#   python -c "import pynvml; pynvml.nvmlInit(); pynvml.nvmlDeviceGetCount()"
#   python -c "import torch; torch.cuda.is_available()"   (where installed)
# Prints a Markdown table (median, p90, over bare) and writes it into
# docs/benchmarks.md between <!-- python:begin --> and <!-- python:end -->.
# Target: import + is_available() at most 5 ms over the bare interpreter.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-40}
MACHINE=${2:-h100-8x}
cd "$REPO"

PY=build/venv/bin/python
[ -x "$PY" ] || PY=python3
make -s -j"$(nproc 2>/dev/null || echo 2)" build/fake/libnvidia-ml.so.1 build/fake/libcuda.so.1 >/dev/null
"$PY" python/setup.py -q build_py --build-lib "$REPO/build/python/lib" \
	build_ext --build-lib "$REPO/build/python/lib" --build-temp "$REPO/build/python/tmp" -j 2 >/dev/null 2>&1 \
	|| { echo "bench: building the extension failed (run: $PY python/setup.py build_ext)" >&2; exit 1; }
# An installed package has its .pyc files; so does this one (PYTHONDONTWRITEBYTECODE may be set).
"$PY" -m compileall -q build/python/lib/gpuwise >/dev/null

exec scripts/with-machine "$MACHINE" -- "$PY" - "$RUNS" "$MACHINE" <<'EOF'
import datetime, os, platform, re, statistics, subprocess, sys, time

runs, machine = int(sys.argv[1]), sys.argv[2]
repo = os.getcwd()
py = sys.executable

def have(mod):
    r = subprocess.run([py, "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec(%r) is None)" % mod])
    return r.returncode == 0

rows = [
    ("bare interpreter", "pass"),
    ("import gpuwise", "import gpuwise"),
    ("import gpuwise; gpuwise.is_available()", "import gpuwise; assert gpuwise.is_available()"),
    ("import pynvml; nvmlInit(); nvmlDeviceGetCount()",
     "import pynvml; pynvml.nvmlInit(); pynvml.nvmlDeviceGetCount()" if have("pynvml") else None),
    ("import torch; torch.cuda.is_available()",
     "import torch; torch.cuda.is_available()" if have("torch") else None),
]
env = dict(os.environ, PYTHONPATH=os.path.join(repo, "build", "python", "lib"))
env.pop("PYTHONSTARTUP", None)

def once(code):
    t0 = time.perf_counter()
    p = subprocess.run([py, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit("bench: %r failed (rc %d): %s" % (code, p.returncode, p.stderr.decode()[-500:]))
    return dt

times = {name: [] for name, code in rows if code}
for name, code in rows:
    if code:
        once(code)
for _ in range(runs):
    for name, code in rows:
        if code:
            times[name].append(once(code))

def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]

bare = statistics.median(times["bare interpreter"])
table = ["| command | median ms | p90 ms | over bare ms |", "|---|---:|---:|---:|"]
for name, code in rows:
    if not code:
        table.append("| `%s` | not installed | | |" % name)
        continue
    med = statistics.median(times[name])
    table.append("| `%s` | %.1f | %.1f | %+.1f |" % (name, med * 1e3, p90(times[name]) * 1e3, (med - bare) * 1e3))

over = statistics.median(times["import gpuwise; gpuwise.is_available()"]) - bare
sys.path.insert(0, os.path.join(repo, "bench"))
from benchdoc import cpu_model
cpu = cpu_model()
gpuwise_version = re.search(r'#define GPUWISE_VERSION "([^"]+)"',
                            open(os.path.join(repo, "include", "gpuwise", "gpuwise.h")).read()).group(1)


def pkg(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:
        return "not installed"
section = "\n".join([
    "Measured %s on fake machine `%s`, %d runs per command, interleaved, after one warm-up run each; "
    "each row is a whole `python -c` process." % (datetime.date.today().isoformat(), machine, runs),
    "Host: %s, %d CPUs, Linux %s, Python %s. gpuwise %s (abi3 extension); nvidia-ml-py %s; torch %s."
    % (cpu, os.cpu_count() or 0, platform.release(), platform.python_version(), gpuwise_version,
       pkg("nvidia-ml-py"), pkg("torch")),
    "",
] + table + [
    "",
    "Target: `import gpuwise; gpuwise.is_available()` at most 5 ms over the bare interpreter: %s (%+.1f ms)."
    % ("met" if over <= 0.005 else "NOT met", over * 1e3),
    "",
    "Reading the table: `is_available()` opens NVML, enumerates the GPUs and reads the PCI tree once; it "
    "never calls `cuInit`, which is where `torch.cuda.is_available()` spends its time on real hardware "
    "(and which would fix `CUDA_VISIBLE_DEVICES` for the whole process). The fake NVML answers instantly, "
    "so on real hardware the gpuwise and pynvml rows both grow by the driver's `nvmlInit` cost.",
])
print(section)

doc = os.path.join(repo, "docs", "benchmarks.md")
begin, end = "<!-- python:begin -->", "<!-- python:end -->"
text = open(doc).read() if os.path.exists(doc) else "# Benchmarks\n"
block = begin + "\n" + section + "\n" + end
if begin in text and end in text:
    text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda m: block, text, flags=re.S)
else:
    text = text.rstrip("\n") + "\n\n## Importing the Python module (`bench/python_import.sh`)\n\n" + block + "\n"
open(doc, "w").write(text)
EOF
