#!/usr/bin/env bash
# Builds every fuzz target with clang -fsanitize=fuzzer exactly as
# scripts/fuzz does (scripts/fuzz --build-only: the Makefile's fuzzer build,
# the flags the corpus replay uses too) and runs each once over its corpus.
# Issue 8 #22: fuzz_machine_json did not compile in the script, so
# `scripts/fuzz` never reached the targets after it. Skips (exit 0, says
# SKIP) when clang or libFuzzer's runtime is missing; scripts/setup installs
# both.
set -uo pipefail
cd "$(dirname "$0")/../.."
probe='int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }'
if ! command -v clang >/dev/null || ! printf '%s\n' "$probe" | clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
	echo "SKIP: clang with libFuzzer is not installed (scripts/setup installs it)"
	exit 0
fi
fails=0
out=$(bash scripts/fuzz --build-only 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || { echo "FAIL: scripts/fuzz --build-only exited $rc"; fails=$((fails + 1)); }
for src in tests/fuzz/fuzz_*.c; do
	t=$(basename "$src" .c)
	[ -x "build/libfuzzer/fuzz/$t" ] || { echo "FAIL: $t was not built with libFuzzer"; fails=$((fails + 1)); continue; }
	grep -q "^fuzz: $t built, corpus replayed" <<<"$out" ||
		{ echo "FAIL: scripts/fuzz did not reach $t"; fails=$((fails + 1)); }
	# The binary is a libFuzzer program (its -help works), not a replay one.
	help=$("build/libfuzzer/fuzz/$t" -help=1 2>&1)
	case $help in *Usage:*) ;; *) false ;; esac ||
		{ echo "FAIL: build/libfuzzer/fuzz/$t is not a libFuzzer binary"; fails=$((fails + 1)); }
done
[ $fails = 0 ] && echo "test_libfuzzer_build: all passed" || echo "test_libfuzzer_build: $fails failed"
[ $fails = 0 ]
