#!/usr/bin/env bash
# The CLI builds without its optional libraries (libmicrohttpd/libyaml/libcrypt
# for the exporter, ncursesw for top, SQLite for run's log and report), as on
# a machine that lacks their -dev packages: the H200 device image has none of
# them, and a build that declared helpers it did not use failed -Werror there.
# The commands that need them then say what is missing; the rest work.
#   tests/install/test_minimal_build.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
B=build/minimal
fails=0
check() { # description, command...
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
make -s -j"$(nproc 2>/dev/null || echo 2)" BUILD=$B HAVE_EXPORTER= HAVE_CURSES= HAVE_SQLITE= $B/gpuwise >$B.log 2>&1
check "builds without the optional libraries" test -x $B/gpuwise || { tail -30 $B.log; exit 1; }
check "links none of them" bash -c "! ldd $B/gpuwise | grep -E 'libyaml|libncurses|libsqlite|libmicrohttpd'"
out=$($B/gpuwise exporter 2>&1); rc=$?
check "exporter exits 1 and names what is missing" bash -c "[ $rc = 1 ] && grep -q libmicrohttpd <<<'$out'"
check "explain still works" bash -c "$B/gpuwise explain 'CUDA out of memory. Tried to allocate 2.00 GiB' >/dev/null"
check "advise still works" bash -c "$B/gpuwise advise gpt2 --memory 24GiB >/dev/null"

# The README's order on a fresh machine: `make run` before scripts/setup has
# installed the -dev packages, then `make test`. The same build folder, now
# with the libraries found, must rebuild the CLI (and only what the
# configuration touches: not the library) without a `make clean`.
if pkg-config --exists libmicrohttpd yaml-0.1 2>/dev/null; then
	lib_before=$(stat -c %Y.%s $B/libgpuwise.a)
	sleep 1   # timestamps of a rebuilt archive must differ
	make -s -j"$(nproc 2>/dev/null || echo 2)" BUILD=$B $B/gpuwise >$B.log 2>&1
	check "a plain make after the libraries appear rebuilds the CLI with the exporter" \
		bash -c "out=\$($B/gpuwise exporter --listen 127.0.0.1:-1 2>&1); grep -q 'is not a port' <<<\"\$out\" && ! grep -q 'built without' <<<\"\$out\""
	check "... and leaves the library alone" test "$(stat -c %Y.%s $B/libgpuwise.a)" = "$lib_before"
	again=$(make BUILD=$B $B/gpuwise 2>&1)
	check "a second make rebuilds nothing" bash -c '! grep -q -- " -o " <<<"$1"' _ "$again"
else
	echo "SKIP: libmicrohttpd/libyaml headers absent: the rebuild after set-up is not checked"
fi
[ $fails = 0 ] && echo "test_minimal_build.sh: all checks passed"
exit $((fails > 0))
