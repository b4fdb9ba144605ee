#!/usr/bin/env bash
# Fault injection: fail the Nth allocation, dlopen, dlsym or file read
# (GPUWISE_FAULT=KIND:N, lib/core/sys.c) for N = 1, 2, ... and check that
# gpuwise never crashes, never leaks (ASan build) and exits 0 or 1.
# The loop for a kind ends once 10 runs in a row match the fault-free output:
# by then N is past the last call of that kind.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${GPUWISE_FAULT_BIN:-build/asan/gpuwise}
[ -x "$BIN" ] || BIN=build/gpuwise
MACHINES=${GPUWISE_FAULT_MACHINES:-h100-8x lost-gpu mixed-nvidia-amd a100-mig}
MAX=${GPUWISE_FAULT_MAX:-2000}
export ASAN_OPTIONS=detect_leaks=1:exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=87
fail=0 runs=0

for m in $MACHINES; do
	[ -d tests/machines/$m ] || { echo "fault: machine $m missing"; fail=1; continue; }
	for cmd in "info --json" "list"; do
		base=$(scripts/with-machine "$m" -- "$BIN" $cmd 2>/dev/null)
		for kind in alloc dlopen dlsym read; do
			same=0
			for ((n = 1; n <= MAX && same < 10; n++)); do
				out=$(GPUWISE_FAULT=$kind:$n scripts/with-machine "$m" -- "$BIN" $cmd 2>/tmp/gw-fault.err)
				rc=$?
				runs=$((runs + 1))
				if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
					echo "fault: $m '$cmd' $kind:$n exited $rc"
					head -30 /tmp/gw-fault.err
					fail=1
					break
				fi
				if [ "$out" = "$base" ]; then same=$((same + 1)); else same=0; fi
			done
			echo "fault: $m '$cmd' $kind: $((n - 1)) injections, no crash"
		done
	done
done
rm -f /tmp/gw-fault.err
echo "fault: $runs runs"
exit $fail
