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
# The Python extension. CPython itself trips memcheck (small-int cache,
# pymalloc); only reports whose stack reaches gpuwise's code count.
if [ -x build/venv/bin/python ] && [ -d build/python/lib/gpuwise ]; then
	PYTHONPATH=build/python/lib PYTHONMALLOC=malloc scripts/with-machine h100-8x -- \
		valgrind --leak-check=full --show-leak-kinds=definite build/venv/bin/python \
		tests/valgrind/python_smoke.py >/dev/null 2>/tmp/gw-vg.err
	ours=$(awk '/^==[0-9]+== [A-Z]/ { if (blk ~ /_gpuwise|lib\/(core|backend|probe|doctor|explain)\//) n++; blk = "" } { blk = blk $0 "\n" }
		END { if (blk ~ /_gpuwise|lib\/(core|backend|probe|doctor|explain)\//) n++; print n + 0 }' /tmp/gw-vg.err)
	if [ "$ours" != 0 ]; then
		echo "valgrind: python extension: $ours reports in gpuwise code"; grep -B3 -A20 '_gpuwise\|lib/core' /tmp/gw-vg.err | head -60; fail=1
	else
		echo "valgrind: python extension clean"
	fi
else
	echo "valgrind: python extension not built (build/python/lib); skipped"
fi
rm -f /tmp/gw-vg.err
[ $fail = 0 ] && echo "valgrind: clean"
exit $fail
