#!/usr/bin/env bash
# Benchmark: CPU time per frame of `gpuwise top`.
#
#   bench/top.sh [SECONDS] [DELAY] [MACHINE] [COLSxROWS]   (defaults: 10, 0.1, h100-8x, 80x24)
#
# Runs `gpuwise top -d DELAY` in a real terminal (tmux, its own socket) on a
# fake machine for SECONDS, reads the process's utime + stime from
# /proc/<pid>/stat just before quitting it with q, and prints CPU seconds,
# the frames drawn (one refresh every DELAY: SECONDS / DELAY), CPU per frame
# and the share of one core. Each frame reads every GPU once (all getters),
# every GPU's process list and per-process utilisation, and /proc for each
# process, then redraws the screen.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
SECS=${1:-10}
DELAY=${2:-0.1}
MACHINE=${3:-h100-8x}
SIZE=${4:-80x24}
cd "$REPO"
make -s -j2 build/gpuwise build/fake/libnvidia-ml.so.1 build/fake/libcuda.so.1 >/dev/null
command -v tmux >/dev/null || { echo "bench/top.sh: tmux is needed" >&2; exit 1; }

tmp=$(mktemp -d)
sock=gwbench-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
tmux -L "$sock" -f /dev/null new-session -d -x "${SIZE%x*}" -y "${SIZE#*x}" \
	"scripts/with-machine $MACHINE -- sh -c 'echo \$\$ >$tmp/pid; exec build/gpuwise top -d $DELAY'; sleep 5"
for _ in $(seq 50); do [ -s "$tmp/pid" ] && break; sleep 0.1; done
pid=$(cat "$tmp/pid")
sleep 0.5   # the context is open and the first frame drawn
read -r u0 s0 < <(awk '{print $14, $15}' "/proc/$pid/stat")
t0=$(date +%s.%N)
sleep "$SECS"
read -r u1 s1 < <(awk '{print $14, $15}' "/proc/$pid/stat")
t1=$(date +%s.%N)
tmux -L "$sock" send-keys q
python3 - "$u0" "$s0" "$u1" "$s1" "$t0" "$t1" "$DELAY" "$(getconf CLK_TCK)" "$MACHINE" "$SIZE" <<'PY'
import sys
u0, s0, u1, s1 = map(int, sys.argv[1:5])
t0, t1, delay, hz = float(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7]), int(sys.argv[8])
cpu = (u1 - u0 + s1 - s0) / hz
wall = t1 - t0
frames = wall / delay
print("gpuwise top -d %g on %s (%s): %.2f s CPU (user %.2f, system %.2f) in %.1f s, ~%d frames: "
      "%.2f ms CPU per frame, %.1f %% of one core"
      % (delay, sys.argv[9], sys.argv[10], cpu, (u1 - u0) / hz, (s1 - s0) / hz, wall, frames,
         1000 * cpu / frames, 100 * cpu / wall))
PY
