#!/usr/bin/env bash
# Fault injection: fail the Nth allocation, dlopen, dlsym or file read
# (bench: a failed dlsym of cuGetProcAddress is the old-driver path)
# (GPUWISE_FAULT=KIND:N, lib/core/sys.c) for N = 1, 2, ... and check that
# gpuwise never crashes, never leaks (ASan build) and exits 0 or 1.
# The loop for a kind ends once 40 runs in a row match the fault-free output:
# by then N is past the last call of that kind.
# The system-call kinds (open, fdread, stat, opendir, readdir, readlink, ...:
# every entry of the call table that these commands reach) are sampled, for
# `info --json` and `doctor --json` (`list` reads a subset of info's files):
# N = 1..8 one by one, then growing by a quarter up to GPUWISE_FAULT_MAX
# (about 35 runs per kind and command). Every N would cost minutes per
# machine (doctor makes ~700 readlink calls), and stopping at the first
# run of unchanged outputs would stop early: the first readlinks resolve
# paths without links, harmless to fail.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${GPUWISE_FAULT_BIN:-build/asan/gpuwise}
[ -x "$BIN" ] || BIN=build/gpuwise
MACHINES=${GPUWISE_FAULT_MACHINES:-h100-8x lost-gpu mixed-nvidia-amd a100-mig}
export GPUWISE_FAULT_BIN=$BIN GPUWISE_FAULT_MAX=${GPUWISE_FAULT_MAX:-3000}
# Either list may be set empty to skip it.
export GPUWISE_FAULT_KINDS=${GPUWISE_FAULT_KINDS-alloc dlopen dlsym read}
export GPUWISE_FAULT_SYSCALLS=${GPUWISE_FAULT_SYSCALLS-open fdread fstat lseek stat access opendir readdir readlink realpath}
# intercept_tls_get_addr=0: see ASAN_ENV in tests/run.sh (a sanitizer runtime bug).
export ASAN_OPTIONS=detect_leaks=1:exitcode=86:intercept_tls_get_addr=0 UBSAN_OPTIONS=halt_on_error=1:exitcode=87
fail=0

# One with-machine session per machine; the loop runs inside it.
inject_all() {
	local m=$1 fail=0 runs=0
	for cmd in "info --json" "list" "doctor --json" "bench --quick --force --tests launch-latency,h2d-pinned"; do
		base=$("$GPUWISE_FAULT_BIN" $cmd 2>/dev/null)
		syscalls=$GPUWISE_FAULT_SYSCALLS
		# list reads a subset of info's files; bench's own calls are
		# allocations, dlopen and dlsym (the driver API).
		case $cmd in list | bench*) syscalls= ;; esac
		for kind in $GPUWISE_FAULT_KINDS $syscalls; do
			same=0 step=1 stop=40 tried=0 sampled=0
			case " $syscalls " in *" $kind "*) stop=$((GPUWISE_FAULT_MAX + 1)) sampled=1 ;; esac
			for ((n = 1; n <= GPUWISE_FAULT_MAX && same < stop; n += step)); do
				[ $sampled = 1 ] && [ $n -gt 8 ] && step=$((n / 4))
				tried=$((tried + 1))
				out=$(GPUWISE_FAULT=$kind:$n "$GPUWISE_FAULT_BIN" $cmd 2>/tmp/gw-fault.$$)
				rc=$?
				runs=$((runs + 1))
				if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
					echo "fault: $m '$cmd' $kind:$n exited $rc"
					head -30 /tmp/gw-fault.$$
					fail=1
					break
				fi
				if [ "$out" = "$base" ]; then same=$((same + 1)); else same=0; fi
			done
			echo "fault: $m '$cmd' $kind: $tried injections up to N=$((n - step)), no crash"
		done
	done
	rm -f /tmp/gw-fault.$$
	echo "fault: $m: $runs runs"
	return $fail
}
export -f inject_all

start=$(date +%s)
for m in $MACHINES; do
	[ -d build/machines/$m ] || { echo "fault: machine $m missing"; fail=1; continue; }
	scripts/with-machine "$m" -- bash -c 'inject_all "$0"' "$m" || fail=1
done
echo "fault: done in $(($(date +%s) - start)) s"
exit $fail
