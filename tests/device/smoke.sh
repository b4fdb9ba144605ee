#!/usr/bin/env bash
# The everyday commands on a real NVIDIA GPU, their output saved for docs/hardware:
#
#   tests/device/smoke.sh DIR      (build/gpuwise must exist; run.sh builds it)
#
# doctor (text and JSON), watch, top --once, run, and advise against this
# machine's GPUs; each command's exit status goes into DIR/smoke.txt beside
# its output. Informational: exit 0 unless DIR cannot be written.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
dest=${1:?usage: tests/device/smoke.sh DIR}
mkdir -p "$dest" || exit 2
out=$dest/smoke.txt
: >"$out"
step() {
	printf '\n== %s\n' "$*" >>"$out"
	timeout 120 "$@" >>"$out" 2>&1
	printf '(exit %d)\n' $? >>"$out"
}
step build/gpuwise doctor
step build/gpuwise doctor --json
step build/gpuwise watch -n 3 -d 0.5
step build/gpuwise watch -n 2 -d 0.5 --json
step build/gpuwise top --once
step build/gpuwise run -- nvidia-smi -L
step build/gpuwise advise llama-2-7b --task lora --batch 4 --seq 2048
step build/gpuwise advise llama-3-70b --task infer --seq 8192 --new-tokens 1024 --batch 8 --json
grep -c '^(exit 0)' "$out" | sed 's/^/smoke: commands that exited 0: /'
exit 0
