#!/usr/bin/env bash
# Benchmark: what does `gpuwise run` cost a job?
#
#   bench/run.sh [RUNS] [MACHINE]        (defaults: 30 runs, h100-8x)
#
# On a fake machine with a private pool folder: the overhead of
# `gpuwise run -- true` over `true` alone (target: <= 5 ms; it includes
# opening the GPUs through the fake NVML, the queue and lease files, the
# job's fork/exec and the accounting row), and the lease hand-over latency:
# one job holds the only GPU it asks for, a second waits; from the holder's
# end to the waiter's start. Prints medians and p90s (Python timing loop,
# as bench/list.sh).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-30}
MACHINE=${2:-h100-8x}
cd "$REPO"
make -s -j2 build/gpuwise build/fake/libnvidia-ml.so.1 build/fake/libcuda.so.1 >/dev/null
POOL=$(mktemp -d)
trap 'rm -rf "$POOL"' EXIT
export GPUWISE_POOL_DIR=$POOL/pool
exec scripts/with-machine "$MACHINE" -- python3 - "$RUNS" <<'PY'
import os, statistics, subprocess, sys, time

runs = int(sys.argv[1])
gw = os.path.join(os.getcwd(), "build/gpuwise")

def timed(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, check=True)
    return time.perf_counter() - t

def stats(xs):
    xs = sorted(xs)
    return "median %.1f ms, p90 %.1f ms" % (statistics.median(xs) * 1e3, xs[int(len(xs) * 0.9) - 1] * 1e3)

direct, wrapped = [], []
for _ in range(runs):
    direct.append(timed(["true"]))
    wrapped.append(timed([gw, "run", "--gpu", "0", "--", "true"]))
print("true alone:            ", stats(direct))
print("gpuwise run -- true:   ", stats(wrapped))
print("overhead (medians):     %.1f ms" % ((statistics.median(wrapped) - statistics.median(direct)) * 1e3))

# Hand-over: the holder writes its end time, the waiter its start time.
lat = []
stamp = os.path.join(os.environ["GPUWISE_POOL_DIR"], "..", "t")
for i in range(max(5, runs // 3)):
    holder = subprocess.Popen([gw, "run", "--gpu", "0", "--", "python3", "-c",
                               "import time; time.sleep(0.3); print(time.time(), file=open('%s.end', 'w'))" % stamp])
    time.sleep(0.15)
    waiter = subprocess.Popen([gw, "run", "--gpu", "0", "--", "python3", "-c",
                               "import time; print(time.time(), file=open('%s.start', 'w'))" % stamp])
    holder.wait(); waiter.wait()
    lat.append(float(open(stamp + ".start").read()) - float(open(stamp + ".end").read()))
print("hand-over (holder's end -> waiter's start):", stats(lat))
PY
