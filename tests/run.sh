#!/usr/bin/env bash
# Runs every test suite and ends with one "N passed, N failed" line.
#   tests/run.sh            everything (what `make test` runs)
#   tests/run.sh quick      normal build only: unit, CLI, Python
# Suites:
#   unit     build/tests/test_*           C unit tests, one program each
#   cli      tests/cli/test_*.sh          end-to-end over the fake machines
#   python   tests/python/                pytest (peers pynvml/gpustat/nvitop, module)
#   fuzz     build/fuzz/*-replay          fuzz corpora replayed as tests
#   libfuzzer tests/fuzz/test_libfuzzer_build.sh  every target built as scripts/fuzz builds it
#   asan     all of unit/cli/fuzz again under ASan+UBSan (build/asan)
#   layering tests/lint/layering.sh        include layering; only lib/core calls the OS
#   exports  tests/abi/test_exports.sh     libgpuwise.so exports tests/abi/libgpuwise.symbols only
#   install  tests/install/test_make_install.sh  make install/uninstall into a DESTDIR, pkg-config, man, completion
#            full only: test_python_wheel.sh (sdist + abi3 wheel, fresh venv), test_deb.sh (debian/, lintian, apt-get install),
#            test_minimal_build.sh (the CLI without its optional libraries)
#   fault    GPUWISE_FAULT loop: fail the Nth alloc/dlsym/dlopen/read and sampled system calls
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-full}
JOBS=$(nproc 2>/dev/null || echo 2)
pass=0 fail=0 failed_names=()

record() { # name rc
	if [ "$2" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); failed_names+=("$1"); echo "FAIL: $1"; fi
}

run_unit() { # build dir
	for t in "$1"/tests/test_*; do
		[ -x "$t" ] || continue
		"$t" >/tmp/gw-unit.$$ 2>&1; rc=$?
		[ $rc = 0 ] || cat /tmp/gw-unit.$$
		record "unit:$(basename "$t")${2:+ ($2)}" $rc
	done
	rm -f /tmp/gw-unit.$$
}

run_cli() { # build dir
	for t in tests/cli/test_*.sh; do
		[ -f "$t" ] || continue
		GPUWISE_BUILD="$1" bash "$t" >/tmp/gw-cli.$$ 2>&1; rc=$?
		[ $rc = 0 ] || tail -40 /tmp/gw-cli.$$
		record "cli:$(basename "$t")${2:+ ($2)}" $rc
	done
	rm -f /tmp/gw-cli.$$
}

run_fuzz_replay() { # build dir
	for f in "$1"/fuzz/*-replay; do
		[ -x "$f" ] || continue
		name=$(basename "$f" -replay)
		"$f" tests/fuzz/corpus/"${name#fuzz_}" >/tmp/gw-fz.$$ 2>&1; rc=$?
		[ $rc = 0 ] || tail -20 /tmp/gw-fz.$$
		record "fuzz-replay:$name${2:+ ($2)}" $rc
	done
	rm -f /tmp/gw-fz.$$
}

echo "== build"
make -s -j"$JOBS" all >/dev/null || { echo "build failed"; make all; echo "0 passed, 1 failed"; exit 1; }

echo "== layering"
bash tests/lint/layering.sh; record "lint:layering" $?
echo "== exports"
bash tests/abi/test_exports.sh build; record "abi:exports" $?
echo "== unit"; run_unit build
echo "== cli"; run_cli build
echo "== fuzz corpora"; run_fuzz_replay build
if [ -d tests/python ] && ls tests/python/test_*.py >/dev/null 2>&1; then
	echo "== python"
	if [ -x build/venv/bin/python ] && build/venv/bin/python -c 'import pytest' 2>/dev/null; then
		build/venv/bin/python -m pytest -q tests/python; rc=$?
		[ $rc = 5 ] && rc=0   # no tests collected is not a failure of the suite
		record "python:pytest" $rc
	else
		echo "python: build/venv missing (run scripts/setup)"; record "python:venv" 1
	fi
fi
echo "== install"
bash tests/install/test_make_install.sh build; record "install:make-install" $?
if [ "$MODE" = full ]; then
	bash tests/install/test_python_wheel.sh; record "install:python-wheel" $?
	bash tests/install/test_deb.sh; record "install:deb" $?
	bash tests/install/test_minimal_build.sh; record "install:minimal-build" $?
fi
if [ "$MODE" = full ]; then
	echo "== sanitizers (ASan+UBSan)"
	if make -s -j"$JOBS" SAN=1 BUILD=build/asan all >/dev/null; then
		export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
		run_unit build/asan asan
		run_cli build/asan asan
		run_fuzz_replay build/asan asan
		unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
	else
		record "asan:build" 1
	fi
	if [ -x tests/fault/run.sh ]; then
		echo "== fault injection"
		bash tests/fault/run.sh; record "fault:loop" $?
	fi
	if [ -x tests/fuzz/test_libfuzzer_build.sh ]; then
		echo "== libFuzzer build (scripts/fuzz --build-only)"
		bash tests/fuzz/test_libfuzzer_build.sh; record "fuzz:libfuzzer-build" $?
	fi
	if [ -x tests/valgrind/run.sh ]; then
		echo "== valgrind"
		bash tests/valgrind/run.sh; record "valgrind" $?
	fi
fi

echo
[ ${#failed_names[@]} -gt 0 ] && printf 'failed: %s\n' "${failed_names[@]}"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
