#!/usr/bin/env bash
# Hostile files end to end: a machine whose files hold what the fuzzers
# found to hang or confuse a parser must still get an answer, in time, and
# the right one. Each case runs gpuwise under `timeout`, so a parser that
# loops forever fails the test instead of hanging the suite.
. "$(dirname "$0")/lib.sh"

LIMIT=20   # seconds; doctor on a fake machine takes well under one

# doctor_on_copy SCENARIO FILE CONTENT : runs doctor --json on a copy of a
# doctor scenario whose root FILE holds CONTENT (printf format).
doctor_on_copy() {
	local s=$TMPD/copy
	rm -rf "$s"
	cp -a "$SCENARIOS/$1" "$s"
	printf "$3" >"$s/root/$2"
	(
		unset VIRTUAL_ENV CONDA_PREFIX CUDA_HOME CUDA_PATH
		export HOME=/home/u
		timeout "$LIMIT" "$TOP/scripts/with-machine" "$s" -- "$GW" doctor --json
	) >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	out=$(cat "$TMPD/out")
	err=$(cat "$TMPD/err")
	last_cmd="[$1 with $2 = $3] gpuwise doctor --json"
}

# Issue 8 #22: a '\r' (or any blank but space and tab) in the NVRM line of
# /proc/driver/nvidia/version made doctor loop forever.
for blank in '\r' '\v' '\f' '\r\r'; do
	doctor_on_copy healthy-laptop proc/driver/nvidia/version \
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module${blank} 535.183.01  Sun May 12 19:39:15 UTC 2024\r\n"
	assert_ne "$rc" 124 "doctor ends on a version file with '$blank' in the NVRM line"
	assert_eq "$rc" 0 "doctor exits 0 on a version file with '$blank' in the NVRM line"
	assert_json "kernel module version read through '$blank'" '
assert d["summary"]["kernel_module_version"] == "535.183.01", d["summary"]'
done

finish
