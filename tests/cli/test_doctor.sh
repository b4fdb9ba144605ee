#!/usr/bin/env bash
# gpuwise doctor end to end: every scenario of tests/doctor/make_scenarios.py
# (a fake machine, a root tree with Python environments, an environment)
# must fire exactly its expected set of finding ids — near-miss scenarios
# check that an id stays quiet just short of its condition. Then: JSON
# shape, exit codes, usage errors, and the real machine with no fakes.
. "$(dirname "$0")/lib.sh"

# The scenarios are committed as tests/doctor/<name>/ and are the output of
# tests/doctor/make_scenarios.py: regenerate and compare, so they never drift.
SC=$TOP/tests/doctor
"$PY" "$TOP/tests/doctor/make_scenarios.py" "$TMPD/scenarios" >/dev/null || { echo "FAIL: cannot generate scenarios"; exit 1; }
checks=$((checks + 1))
for s in "$TMPD/scenarios"/*/; do
	diff -r --no-dereference "$s" "$SC/$(basename "$s")" >/dev/null 2>&1 ||
		fail "tests/doctor/$(basename "$s") differs from make_scenarios.py's output: run python3 tests/doctor/make_scenarios.py tests/doctor"
done
for s in "$SC"/*/; do
	[ -d "$TMPD/scenarios/$(basename "$s")" ] || fail "tests/doctor/$(basename "$s") is not made by make_scenarios.py"
done

# Coverage (DESIGN "Doctor findings", plus nvml-init-failed,
# multiple-framework-packages and the distributed stack's ids): every id
# fires in some scenario, and some near-* scenario whose `about` starts "near-miss for: <id>[, <id>]" keeps
# it quiet; docs/doctor.md "Scenarios" names each id.
DESIGN_IDS="no-gpu nvidia-driver-not-loaded nouveau-bound nvml-library-missing driver-library-mismatch
device-node-missing device-permission-denied gpu-lost cuda-visible-devices-hides-all cuda-visible-devices-invalid
cuda-device-order-differs framework-cpu-only-build driver-too-old-for-framework gpu-arch-unsupported-by-framework
cudnn-missing cudnn-version-mismatch library-path-shadows-framework toolkit-framework-cuda-mismatch
gpu-memory-held-by-other-processes exclusive-process-busy mig-without-device-selection pcie-link-degraded
clocks-throttled ecc-errors remapped-rows-pending xid-errors amdgpu-not-loaded rocm-permission-denied
rocm-gfx-unsupported container-without-gpu nvml-init-failed multiple-framework-packages
no-usable-gpu gpu-bound-to-other-driver framework-cuda-wheels-missing
nccl-transport-disabled nccl-socket-ifname-unknown system-nccl-shadows-framework
horovod-framework-not-built horovod-without-nccl gpu-nic-numa-mismatch gpu-peer-access-unavailable"
scenarios_section=$(sed -n '/^## Scenarios/,/^## [^S]/p' "$TOP/docs/doctor.md")
for id in $DESIGN_IDS; do
	checks=$((checks + 1))
	grep -qx -- "$id" "$SC"/*/expected || fail "no scenario fires $id"
	near=0
	for s in "$SC"/near-*/; do
		head -1 "$s/about" | sed -n 's/^near-miss for: //p' | tr -d ' ' | tr ',' '\n' | grep -qx -- "$id" || continue
		grep -qx -- "$id" "$s/expected" && fail "$(basename "$s") is a near miss for $id but expects it"
		near=$((near + 1))
	done
	[ "$near" -gt 0 ] || fail "no near-* scenario names $id in its about line"
	printf '%s\n' "$scenarios_section" | grep -q "^| \`$id\` |" || fail "docs/doctor.md Scenarios has no row for $id"
done
for s in "$SC"/near-*/; do
	checks=$((checks + 1))
	head -1 "$s/about" | grep -q '^near-miss for: [a-z]' || fail "$(basename "$s")/about does not start with 'near-miss for: <id>'"
done

ids_of() { # JSON on stdin → sorted unique ids, one per line
	"$PY" -c 'import json,sys; print("\n".join(sorted({f["id"] for f in json.load(sys.stdin)["findings"]})))'
}

run_scenario() { # NAME [extra doctor args] : sets $out $err $rc
	local s=$SC/$1
	shift
	doctor_scenario "$s" -- "$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	out=$(cat "$TMPD/out")
	err=$(cat "$TMPD/err")
	last_cmd="[$(basename "$s")] gpuwise doctor $*"
}

for s in "$SC"/*/; do
	name=$(basename "$s")
	run_scenario "$name" --json
	got=$(printf '%s' "$out" | ids_of 2>/dev/null | tr '\n' ' ')
	want=$(sort -u "$s/expected" | tr '\n' ' ')
	assert_eq "$got" "$want" "$name: fired ids"
	# exit code follows the error findings
	nerr=$(printf '%s' "$out" | "$PY" -c 'import json,sys; print(sum(f["severity"]=="error" for f in json.load(sys.stdin)["findings"]))' 2>/dev/null)
	assert_eq "$rc" "$([ "${nerr:-0}" -gt 0 ] && echo 1 || echo 0)" "$name: exit code"
	# "not ready" always comes with an error finding that says why (exit 1).
	assert_json "$name: a not-ready verdict has an error finding" '
s = d["summary"]
assert not s["verdict"].startswith("not ready") or s["errors"] > 0, s
assert s["ready"] or s["errors"] > 0, s'
done

# No ✓ contradicts an error finding about the same component (the driver of
# a version mismatch, a framework the driver is too old for, GPUs none of
# which can be used).
for s in "$SC"/*/; do
	name=$(basename "$s")
	run_scenario "$name" --json
	printf '%s' "$out" >"$TMPD/sc.json"
	run_scenario "$name"
	printf '%s' "$out" >"$TMPD/sc.txt"
	checks=$((checks + 1))
	msg=$("$PY" - "$TMPD/sc.json" "$TMPD/sc.txt" <<'PY' 2>&1
import json, re, sys
d = json.load(open(sys.argv[1]))
errs = [f for f in d["findings"] if f["severity"] == "error"]
ids = {f["id"] for f in errs}
ticked = [l.strip()[2:] for l in open(sys.argv[2]).read().splitlines() if l.strip().startswith("\u2713 ")]
by_title = {f["title"]: f for f in d["findings"] if f["severity"] == "info"}
DRIVER = {"nvidia-driver-not-loaded", "nouveau-bound", "nvml-library-missing", "driver-library-mismatch",
          "device-node-missing", "device-permission-denied", "nvml-init-failed", "driver-too-old-for-framework"}
bad = []
for t in ticked:
    f = by_title.get(t)
    if not f:
        continue
    i = f["id"]
    if i == "found-driver" and ids & DRIVER:
        bad.append((t, sorted(ids & DRIVER)))
    if i == "found-gpus" and (re.search(r", 0 readable", t) or any(e["layer"] == "hardware" for e in errs)
                              or ids & {"no-usable-gpu", "gpu-bound-to-other-driver"}):
        bad.append((t, sorted(ids)))
    if i == "found-rocm" and ids & {"amdgpu-not-loaded", "rocm-permission-denied"}:
        bad.append((t, sorted(ids)))
    if i == "found-python-framework":
        site = t.rsplit(" in ", 1)[-1]
        hit = [e["id"] for e in errs if site in e["evidence"] or site in e["title"]]
        if hit:
            bad.append((t, hit))
if bad:
    sys.exit("%r" % bad)
PY
) || fail "$name: a ✓ line contradicts an error finding: $msg"
done

# Fixes carry the exact ways out.
run_scenario seed-driver470-cu121 --json
assert_json "driver 470 fix" '
f = [x for x in d["findings"] if x["id"] == "driver-too-old-for-framework"][0]
assert "525.60.13" in f["fix"], f["fix"]
assert "--index-url https://download.pytorch.org/whl/cu118" in f["fix"], f["fix"]
assert "470.182.03" in f["evidence"] or "470.182.03" in f["title"], f
'
run_scenario seed-pascal-cu128 --json
assert_json "pascal fix names cu126" '
f = [x for x in d["findings"] if x["id"] == "gpu-arch-unsupported-by-framework"][0]
assert "whl/cu126" in f["fix"], f["fix"]
assert "sm_61" in f["evidence"], f["evidence"]
'
run_scenario seed-blackwell-cu124 --json
assert_json "blackwell fix names cu128" '
f = [x for x in d["findings"] if x["id"] == "gpu-arch-unsupported-by-framework"][0]
assert "whl/cu128" in f["fix"], f["fix"]
'
run_scenario seed-rdna2-gfx1031 --json
assert_json "gfx1031 override advice" '
f = [x for x in d["findings"] if x["id"] == "rocm-gfx-unsupported"][0]
assert "HSA_OVERRIDE_GFX_VERSION=10.3.0" in f["fix"], f["fix"]
assert "gfx1031" in f["evidence"], f["evidence"]
'
run_scenario gpu-lost --json
assert_json "xid named with advice" '
f = [x for x in d["findings"] if x["id"] == "xid-errors"][0]
assert "79" in f["title"] and "GPU_HAS_FALLEN_OFF_THE_BUS" in f["title"], f["title"]
assert f["fix"], f
'

# JSON shape: the ◆ contract fields, every finding complete.
run_scenario healthy-laptop --json
assert_eq "$rc" 0 "healthy exits 0"
assert_json "json shape" '
assert set(d) >= {"findings", "summary"}, d.keys()
for f in d["findings"]:
    assert set(f) >= {"id", "severity", "layer", "title", "evidence", "fix"}, f
    assert f["severity"] in ("error", "warning", "info"), f
    assert f["layer"] in ("hardware", "driver", "cuda", "python", "live", "environment"), f
    assert f["title"], f
    if f["severity"] != "info":
        assert f["fix"], f
assert all(f["severity"] == "info" for f in d["findings"]), "healthy machine has warnings"
s = d["summary"]
assert s["errors"] == 0 and s["warnings"] == 0, s
assert s["verdict"].startswith("ready: PyTorch 2.5.1+cu121 can use 1× NVIDIA GeForce RTX 3060 Laptop GPU"), s["verdict"]
'

# Human report: layers, marks, verdict last, no colour off a terminal.
run_scenario seed-cpu-wheel
assert_eq "$rc" 1 "cpu wheel exits 1"
assert_contains "$out" "Hardware" "hardware layer"
assert_contains "$out" "Python" "python layer"
assert_contains "$out" "✗" "error mark"
assert_contains "$out" "✓" "info mark"
# (a command too long for the line goes under the label, on its own line)
assert_contains "$out" "fix:" "fix line"
assert_not_contains "$out" $'\033[' "no colour when not a terminal"
assert_eq "$(printf '%s\n' "$out" | tail -1 | cut -c1-10)" "not ready:" "verdict is the last line"

# Usage errors.
run doctor --bogus
assert_eq "$rc" 2 "unknown option exits 2"
assert_contains "$err" "gpuwise: unknown option '--bogus'" "unknown option message"
run doctor --python-env
assert_eq "$rc" 2 "--python-env without a value exits 2"
# A --python-env that is not there is a usage error, never ignored.
run doctor --json --python-env "$TMPD/no/such/dir"
assert_eq "$rc" 2 "--python-env to a missing folder exits 2"
assert_contains "$err" "gpuwise: python environment '$TMPD/no/such/dir' is not a directory" "missing --python-env message"
assert_eq "$out" "" "no report for a missing --python-env"
: >"$TMPD/a-file"
run doctor --python-env "$TMPD/a-file"
assert_eq "$rc" 2 "--python-env to a file exits 2"
run doctor --deep --timeout nope
assert_eq "$rc" 2 "bad --timeout exits 2"
run doctor --help
assert_eq "$rc" 0 "--help exits 0"
assert_contains "$out" "--python-env PREFIX" "help lists --python-env"

# --python-env finds an environment that nothing else points to.
run_scenario near-one-cupy --json --python-env /venv
assert_json "python-env listed" '
assert any(e["site"].startswith("/venv/") for e in d["summary"]["python_envs"]), d["summary"]["python_envs"]
'

# --deep with a python that is not executable under a fake root: nothing
# runs, the static report is unchanged.
run_scenario healthy-laptop --json --deep --timeout 5
assert_eq "$rc" 0 "deep on a fake root exits 0"

# The real machine, no fakes: this container has no GPU, CUDA 13 headers.
(
	unset GPUWISE_ROOT GPUWISE_FAKE_MACHINE GPUWISE_NVML_LIBRARY GPUWISE_CUDA_LIBRARY
	"$GW" doctor --json
) >"$TMPD/out" 2>"$TMPD/err"
rc=$?
out=$(cat "$TMPD/out")
err=$(cat "$TMPD/err")
last_cmd="gpuwise doctor --json (real machine)"
if ! ls /sys/bus/pci/devices/*/class 2>/dev/null | xargs -r cat 2>/dev/null | grep -q '^0x03'; then
	assert_eq "$rc" 1 "real machine without GPU exits 1"
	assert_json "real machine reports no-gpu" 'assert "no-gpu" in {f["id"] for f in d["findings"]}, d["findings"]'
fi
if command -v nvcc >/dev/null 2>&1; then
	nvcc_ver=$(nvcc --version | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p')
	assert_contains "$out" "\"version\": \"$nvcc_ver\"" "toolkit version matches nvcc --version ($nvcc_ver)"
fi
for h in /usr/local/cuda/include/cudnn_version.h /usr/include/cudnn_version.h; do
	[ -f "$h" ] || continue
	v=$(awk '/#define CUDNN_MAJOR /{a=$3} /#define CUDNN_MINOR /{b=$3} /#define CUDNN_PATCHLEVEL /{c=$3} END{print a"."b"."c}' "$h")
	assert_contains "$out" "\"$v\"" "cuDNN $v from $h"
	break
done
for h in /usr/local/cuda/include/nccl.h /usr/include/nccl.h; do
	[ -f "$h" ] || continue
	v=$(awk '/#define NCCL_MAJOR /{a=$3} /#define NCCL_MINOR /{b=$3} /#define NCCL_PATCH /{c=$3} END{print a"."b"."c}' "$h")
	assert_contains "$out" "\"$v\"" "NCCL $v from $h"
	break
done

# Every id doctor can emit has a catalogue entry (gpuwise explain ID) and a
# docs/doctor.md or docs/explain.md section.
for id in $(grep -ho 'gw__doc_add([a-z_]*, "[a-z0-9-]*"' lib/doctor/*.c | sed 's/.*"\(.*\)"/\1/' | sort -u); do
	"$GW" explain "$id" >/dev/null 2>&1 || fail "doctor id $id has no 'gpuwise explain' entry"
	grep -q "\`$id\`" docs/explain.md docs/doctor.md || fail "doctor id $id is not in docs/explain.md or docs/doctor.md"
done

finish
