#!/usr/bin/env bash
# Every way nvmlInit and cuInit can fail, on an otherwise healthy 8-GPU node:
# no crash, one clear sentence, the vendor code named, exit codes per
# docs/contracts.md, and JSON that still parses (list, info --json, doctor --json).
. "$(dirname "$0")/lib.sh"

variant() { # NAME PYTHON-STATEMENT-ON-m → a copy of h100-8x with m changed
	local dir=$TMPD/$1
	mkdir -p "$dir"
	ln -s "$MACHINES/h100-8x/root" "$dir/root"
	"$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); exec(sys.argv[2]); json.dump(m, open(sys.argv[3], "w"))' \
		"$MACHINES/h100-8x/machine.json" "$2" "$dir/machine.json"
	echo "$dir"
}

run_dir() { # DIR ARGS...
	local d=$1
	shift
	"$TOP/scripts/with-machine" "$d" -- "$GW" "$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	out=$(cat "$TMPD/out")
	err=$(cat "$TMPD/err")
	last_cmd="[$(basename "$d")] gpuwise $*"
}

for code in DRIVER_NOT_LOADED LIB_RM_VERSION_MISMATCH NO_PERMISSION UNKNOWN IRQ_ISSUE \
	OPERATING_SYSTEM INSUFFICIENT_POWER LIBRARY_NOT_FOUND RESET_REQUIRED MEMORY; do
	dir=$(variant "nvml-$code" "m['nvml']['init'] = '$code'")
	run_dir "$dir" list
	assert_eq "$rc" 1 "nvmlInit $code: list exits 1 (no GPU readable)"
	assert_one_error_line "nvmlInit $code: one sentence"
	if [ "$code" = LIB_RM_VERSION_MISMATCH ]; then
		assert_contains "$err" "mismatch" "nvmlInit $code: the mismatch is named"
	else
		assert_contains "$err" "$code" "nvmlInit $code: the code is named"
	fi
	run_dir "$dir" info --json
	assert_eq "$rc" 1 "nvmlInit $code: info exits 1"
	assert_json "nvmlInit $code: info --json names the failure" "
b = {x['name']: x for x in d['backends']}
assert b['nvml']['state'] == 'init-failed', b['nvml']
assert '$code' in (b['nvml']['message'] or '') or b['nvml']['vendor_code'] is not None, b['nvml']
assert all(x['health'] != 'ok' for x in d['devices']), [x['health'] for x in d['devices']]
assert len(d['devices']) == 8, len(d['devices'])   # still visible on the PCI bus"
	run_dir "$dir" doctor --json
	assert_eq "$rc" 1 "nvmlInit $code: doctor finds an error"
	assert_json "nvmlInit $code: doctor --json parses and has an error finding" "
assert any(f['severity'] == 'error' for f in d['findings']), [f['id'] for f in d['findings']]"
done

# The mismatch names both versions, as nvidia-smi users expect.
dir=$TMPD/nvml-LIB_RM_VERSION_MISMATCH
run_dir "$dir" doctor --json
assert_json "mismatch: doctor reports driver-library-mismatch" "
assert 'driver-library-mismatch' in [f['id'] for f in d['findings']], [f['id'] for f in d['findings']]"

for code in NO_DEVICE UNKNOWN SYSTEM_DRIVER_MISMATCH NOT_INITIALIZED; do
	dir=$(variant "cuda-$code" "m['cuda']['init'] = '$code'")
	run_dir "$dir" list
	assert_eq "$rc" 0 "cuInit $code: NVML still reads the GPUs"
	run_dir "$dir" info --json
	assert_json "cuInit $code: info --json: no CUDA index, cuda backend failed" "
b = {x['name']: x for x in d['backends']}
assert b['cuda']['state'] == 'init-failed', b['cuda']
assert all(x['cuda_index'] is None for x in d['devices'])
assert all(x['health'] == 'ok' for x in d['devices'])"
done

# A per-device error on every call ('*'): UNKNOWN from the handle is a lost GPU too.
dir=$(variant "handle-unknown" "m['nvml']['devices'][3]['errors'] = {'*': 'UNKNOWN'}")
run_dir "$dir" info --json
assert_eq "$rc" 0 "one GPU UNKNOWN: the others are read"
assert_json "one GPU UNKNOWN: it is lost, the other seven complete" "
h = [x['health'] for x in d['devices']]
assert h.count('lost') == 1 and h.count('ok') == 7, h
assert all(x['memory']['total_bytes'] for x in d['devices'] if x['health'] == 'ok')"

# A malformed machine.json (with-machine would refuse it, so the variables are
# set by hand): the fake refuses init with a message; gpuwise copes.
dir=$TMPD/garbage
mkdir -p "$dir/root"
printf '{"schema": 1, "nvml": {"devices": [ {"name": 42' >"$dir/machine.json"
GPUWISE_FAKE_MACHINE=$dir/machine.json GPUWISE_ROOT=$dir/root LD_LIBRARY_PATH=$TOP/build/fake \
	"$GW" list >"$TMPD/out" 2>"$TMPD/err"
rc=$?
err=$(cat "$TMPD/err")
last_cmd="[garbage machine.json] gpuwise list"
assert_eq "$rc" 1 "garbage machine.json: list exits 1, no crash"
assert_contains "$err" "fake nvml: " "garbage machine.json: the fake says what is wrong"
assert_contains "$err" "gpuwise: " "garbage machine.json: gpuwise explains"

finish
