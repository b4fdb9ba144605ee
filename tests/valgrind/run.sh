#!/usr/bin/env bash
# The normal (non-ASan) build under Valgrind memcheck: no invalid access,
# no leak, on a few fake machines and the real machine.
set -uo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "valgrind: not installed"; exit 1; }
VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect)
fail=0
for m in ${GPUWISE_VALGRIND_MACHINES:-h100-8x lost-gpu mixed-nvidia-amd}; do
	for cmd in "info --json" "list"; do
		scripts/with-machine "$m" -- "${VG[@]}" build/gpuwise $cmd >/dev/null 2>/tmp/gw-vg.err
		rc=$?
		if [ $rc -eq 99 ] || [ $rc -gt 1 ]; then
			echo "valgrind: $m '$cmd' exit $rc"; head -40 /tmp/gw-vg.err; fail=1
		fi
	done
done
# The real machine (no GPU here: exercises the library-missing paths).
"${VG[@]}" build/gpuwise list >/dev/null 2>/tmp/gw-vg.err
[ $? -eq 99 ] && { echo "valgrind: real machine"; head -40 /tmp/gw-vg.err; fail=1; }
rm -f /tmp/gw-vg.err
[ $fail = 0 ] && echo "valgrind: clean"
exit $fail
