#!/usr/bin/env bash
# Benchmark: how long does a full environment check take?
#
#   bench/doctor.sh [RUNS]        (default 20 runs)
#
# On the h100-8x fake machine with two Python environments in its root
# (a venv with PyTorch 2.5.1+cu121 and pip CUDA wheels, a conda-style env
# with TensorFlow and CuPy, both as files only), runs side by side in one
# session, interleaved: `gpuwise doctor`, `gpuwise doctor --json`,
# `env-doctor check` (PyPI package env-doctor, pip-installed into
# build/venv when absent) and, where torch is importable,
# `python -m torch.utils.collect_env`. Prints a Markdown table (median,
# p90, ratio to `gpuwise doctor`) and writes it into docs/benchmarks.md
# between <!-- doctor:begin --> and <!-- doctor:end -->. A peer that cannot
# be installed or run is listed with the reason. The fake root has a system
# interpreter (/usr/bin/python3 → python3.11 with its standard library) and
# /usr/bin is on PATH: doctor reads its layout, never runs it. Targets: gpuwise doctor
# under 50 ms and at least 20x faster than env-doctor.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-20}
cd "$REPO"

make -s -j"$(nproc 2>/dev/null || echo 2)" build/gpuwise build/fake/libnvidia-ml.so.1 build/fake/libcuda.so.1 >/dev/null
PY=build/venv/bin/python
[ -x "$PY" ] || PY=python3

# env-doctor: install once into the test venv; say so when it cannot be.
ENVDOC_NOTE=
if ! "$PY" -c 'import importlib.util,sys; sys.exit(importlib.util.find_spec("env_doctor") is None)' 2>/dev/null &&
   [ ! -x "$(dirname "$PY")/env-doctor" ]; then
	if ! "$PY" -m pip install -q env-doctor >/tmp/gw-bench-envdoctor.log 2>&1; then
		ENVDOC_NOTE="could not be installed: $(tail -1 /tmp/gw-bench-envdoctor.log | cut -c1-120)"
	fi
fi

# The machine: h100-8x plus two environments, in a private copy.
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gw-bench-doctor.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cp -a build/machines/h100-8x/. "$WORK/"
R=$WORK/root
SP=$R/venv/lib/python3.11/site-packages
mkdir -p "$SP/torch/lib" "$SP/torch-2.5.1+cu121.dist-info" "$SP/nvidia_cudnn_cu12-9.1.0.70.dist-info" \
	"$SP/nvidia/cudnn/lib" "$SP/nvidia_cuda_runtime_cu12-12.1.105.dist-info" "$SP/nvidia/cuda_runtime/lib" "$R/venv/bin"
printf "__version__ = '2.5.1+cu121'\ndebug = False\ncuda = '12.1'\nhip = None\n" >"$SP/torch/version.py"
: >"$SP/torch/lib/libtorch_cuda.so"; : >"$SP/nvidia/cudnn/lib/libcudnn.so.9"; : >"$SP/nvidia/cuda_runtime/lib/libcudart.so.12"
: >"$R/venv/bin/python3"
mkdir -p "$R/usr/bin" "$R/usr/lib/python3.11" "$R/usr/lib/python3/dist-packages"
: >"$R/usr/bin/python3.11"; : >"$R/usr/lib/python3.11/os.py"
ln -sf python3.11 "$R/usr/bin/python3"
C=$R/opt/conda/envs/tf/lib/python3.10/site-packages
mkdir -p "$C/tensorflow/python/platform" "$C/tensorflow-2.15.0.dist-info" "$C/cupy_cuda12x-13.3.0.dist-info"
echo "build_info = {'cuda_version': '12.2', 'cudnn_version': '8', 'is_cuda_build': True, 'cuda_compute_capabilities': ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']}" \
	>"$C/tensorflow/python/platform/build_info.py"

export ENVDOC_NOTE
exec scripts/with-machine "$WORK" -- env VIRTUAL_ENV=/venv "$PY" - "$RUNS" <<'PYEOF'
import datetime, os, platform, re, shutil, statistics, subprocess, sys, time

runs = int(sys.argv[1])
venv_bin = os.path.dirname(sys.executable)
env = dict(os.environ, NO_COLOR="1", TERM="dumb")
if "/usr/bin" not in env.get("PATH", "").split(":"):
    env["PATH"] = env.get("PATH", "") + ":/usr/bin"
gw = ["build/gpuwise", "doctor", "--python-env", "/opt/conda/envs/tf"]

def envdoctor():
    note = os.environ.get("ENVDOC_NOTE")
    if note:
        return None, note
    exe = os.path.join(venv_bin, "env-doctor")
    argv = [exe, "check"] if os.access(exe, os.X_OK) else [sys.executable, "-m", "env_doctor", "check"]
    try:
        p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, timeout=120)
    except Exception as e:
        return None, "could not run: %s" % e
    if p.returncode not in (0, 1):
        return None, "could not run (rc %d): %s" % (p.returncode, p.stderr.decode(errors="replace").strip()[-120:])
    return argv, None

def collect_env():
    try:
        __import__("torch")
    except Exception:
        return None, "torch not installed in build/venv"
    return [sys.executable, "-m", "torch.utils.collect_env"], None

commands = [("gpuwise doctor", gw, None), ("gpuwise doctor --json", gw + ["--json"], None)]
a, note = envdoctor(); commands.append(("env-doctor check", a, note))
a, note = collect_env(); commands.append(("python -m torch.utils.collect_env", a, note))

def once(argv):
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    dt = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        sys.exit("bench: %s failed (rc %d): %s" % (" ".join(argv), p.returncode, p.stderr.decode()[-500:]))
    return dt

live = [(n, a) for n, a, _ in commands if a]
times = {n: [] for n, _ in live}
for n, a in live:
    once(a)                     # warm-up: page cache, .pyc files
for _ in range(runs):
    for n, a in live:
        times[n].append(once(a))

def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]

base = statistics.median(times["gpuwise doctor"])
rows = ["| command | median | p90 | vs `gpuwise doctor` |", "|---|---:|---:|---:|"]
for n, a, note in commands:
    if not a:
        rows.append("| `%s` | %s | | |" % (n, note))
        continue
    m = statistics.median(times[n])
    rows.append("| `%s` | %.1f ms | %.1f ms | %.1f× |" % (n, m * 1e3, p90(times[n]) * 1e3, m / base))
verdict = []
verdict.append("gpuwise doctor median %.1f ms: %s the 50 ms target" % (base * 1e3, "meets" if base < 0.05 else "MISSES"))
if "env-doctor check" in times:
    r = statistics.median(times["env-doctor check"]) / base
    verdict.append("%.0f× faster than env-doctor: %s the 20× target" % (r, "meets" if r >= 20 else "MISSES"))
text = "\n".join([
    "### gpuwise doctor vs env-doctor and collect_env",
    "",
    "`bench/doctor.sh %d` on %s, %s, Python %s: fake machine h100-8x (8× H100, driver 550.54.15) with two "
    "Python environments (a venv with PyTorch 2.5.1+cu121 and pip CUDA wheels; a conda env with TensorFlow 2.15 "
    "and CuPy), %d interleaved runs after one warm-up each. env-doctor and collect_env look at the real machine "
    "(they know nothing of GPUWISE_ROOT) with the fake NVML on the library path." % (
        runs, datetime.date.today().isoformat(), platform.machine(), platform.python_version(), runs),
    "",
] + rows + ["", "; ".join(verdict) + "."])
print(text)
path = "docs/benchmarks.md"
doc = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
block = "<!-- doctor:begin -->\n" + text + "\n<!-- doctor:end -->"
if "<!-- doctor:begin -->" in doc:
    doc = re.sub(r"<!-- doctor:begin -->.*?<!-- doctor:end -->", lambda _: block, doc, flags=re.S)
else:
    doc = doc.rstrip("\n") + "\n\n" + block + "\n"
open(path, "w").write(doc)
PYEOF
