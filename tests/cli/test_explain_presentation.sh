#!/usr/bin/env bash
# Presentation must not change what a log says (issue #31): every tuning log
# explain gets right, coloured, prefixed, escaped, boxed or wrapped as real
# pastes are, gives the same ids (tests/cli/test_explain_presentation.py,
# the table in tests/explain/README-presentation.md). Under a sanitizer
# build the library is loaded into Python with the sanitizer runtime first.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${GPUWISE_BUILD:-build}
PY=${PYTHON:-python3}
[ -f "$B/libgpuwise.so" ] || { echo "FAIL: $B/libgpuwise.so is not built"; exit 1; }
pre=()
if nm -D "$B/libgpuwise.so" 2>/dev/null | grep ' U __asan_init' >/dev/null; then
	asan=$(${CC:-cc} -print-file-name=libasan.so)
	[ -f "$asan" ] || { echo "SKIP: no libasan.so to load an ASan build into Python"; exit 0; }
	# Python's own allocations are not ours to judge: no leak check.
	pre=(env LD_PRELOAD="$asan" ASAN_OPTIONS=detect_leaks=0:exitcode=86)
fi
"${pre[@]}" "$PY" -S tests/cli/test_explain_presentation.py
