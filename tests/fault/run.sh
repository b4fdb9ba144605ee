#!/usr/bin/env bash
# Fault injection: fail the Nth allocation, dlopen, dlsym or file read
# (bench: a failed dlsym of cuGetProcAddress is the old-driver path)
# (GPUWISE_FAULT=KIND:N, lib/core/sys.c) and check that gpuwise never
# crashes, never leaks (ASan build) and exits 0 or 1.
# Each command runs once first with GPUWISE_FAULT_COUNT, which counts the
# calls of every kind: the command makes C of them, so N = 1..C fails each
# call once, and each such run's own count must reach N (the failure
# happened: the counting run and the failing runs take the same path up
# to the Nth call).
# The system-call kinds (open, fdread, stat, opendir, readdir, readlink, ...:
# every entry of the call table that these commands reach) are sampled, for
# `info --json` and `doctor --json` (`list` reads a subset of info's files):
# N = 1..8 one by one, then growing by a quarter, and N = C, the last call.
# Every N would cost minutes per machine (doctor makes ~700 readlink calls).
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

# COUNT= the largest count of `kind` in a GPUWISE_FAULT_COUNT file ("KIND
# COUNT" lines, one set per process), 0 when none (no subshell: it runs
# after every injection).
count_of() { # file kind
	local k c
	COUNT=0
	while read -r k c; do
		if [ "$k" = "$2" ] && [ "$c" -gt $COUNT ]; then COUNT=$c; fi
	done <"$1"
}
export -f count_of

# One with-machine session per machine; the loop runs inside it.
inject_all() {
	local m=$1 fail=0 runs=0 COUNT verdict tmp cmd syscalls kind calls n step tried rc got
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/gw-fault.XXXXXX")
	for cmd in "info --json" "list" "doctor --json" "bench --quick --force --tests launch-latency,h2d-pinned"; do
		: >"$tmp/count"
		GPUWISE_FAULT_COUNT=$tmp/count "$GPUWISE_FAULT_BIN" $cmd >/dev/null 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
			echo "fault: $m '$cmd' without faults exited $rc"
			head -30 "$tmp/err"
			fail=1
			continue
		fi
		cp "$tmp/count" "$tmp/calls"
		count_of "$tmp/calls" alloc
		if [ $COUNT = 0 ]; then
			echo "fault: $m '$cmd': no calls counted (GPUWISE_FAULT_COUNT)"
			fail=1
			continue
		fi
		syscalls=$GPUWISE_FAULT_SYSCALLS
		# list reads a subset of info's files; bench's own calls are
		# allocations, dlopen and dlsym (the driver API).
		case $cmd in list | bench*) syscalls= ;; esac
		for kind in $GPUWISE_FAULT_KINDS $syscalls; do
			count_of "$tmp/calls" "$kind"
			calls=$COUNT
			[ "$calls" -gt "$GPUWISE_FAULT_MAX" ] && calls=$GPUWISE_FAULT_MAX
			tried=0 step=1 verdict="no crash"
			for ((n = 1; n <= calls; n += step)); do
				case " $syscalls " in *" $kind "*)
					[ $n -gt 8 ] && step=$((n / 4))
					# the last call too, where the steps pass it
					[ $((n + step)) -gt "$calls" ] && [ $n -lt "$calls" ] && step=$((calls - n)) ;;
				esac
				tried=$((tried + 1))
				: >"$tmp/count"
				GPUWISE_FAULT=$kind:$n GPUWISE_FAULT_COUNT=$tmp/count "$GPUWISE_FAULT_BIN" $cmd >/dev/null 2>"$tmp/err"
				rc=$?
				runs=$((runs + 1))
				if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
					echo "fault: $m '$cmd' $kind:$n exited $rc"
					head -30 "$tmp/err"
					fail=1 verdict=FAILED
					break
				fi
				count_of "$tmp/count" "$kind"
				if [ $COUNT -lt $n ]; then
					echo "fault: $m '$cmd' $kind:$n never reached the call (only $COUNT calls this run)"
					fail=1 verdict=FAILED
					break
				fi
			done
			echo "fault: $m '$cmd' $kind: $tried injections of $calls calls, $verdict"
		done
	done
	rm -rf "$tmp"
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
