#!/usr/bin/env bash
# gpuwise list over every fake machine: names, UUIDs, memory, capability or
# gfx target, lost and driverless GPUs, CUDA index, exit codes — checked
# against what each machine's machine.json and root/ say.
. "$(dirname "$0")/lib.sh"

for m in $(machines); do
	JSON_MACHINE=$m
	want_rc=$(JSON_MACHINE=$m out='{}' "${PYS[@]}" -c "import sys; sys.path.insert(0, '$TMPD'); import expect; print(expect.load('$MACHINES/$m').exit_code)")

	run_on "$m" list --json
	assert_eq "$rc" "$want_rc" "list --json exit status"
	assert_json "list --json matches machine.json" '
devs = d["devices"]
assert d["gpuwise_version"], "gpuwise_version"
nv = [x for x in devs if x["vendor"] == "nvidia" and x["health"] == "ok"]
assert [x["uuid"] for x in nv] == [g["dev"]["uuid"] for g in e.healthy_nvidia], \
    "readable NVIDIA GPUs (uuid, in NVML order): %s" % [x["uuid"] for x in nv]
for x, g in zip(nv, e.healthy_nvidia):
    dev = g["dev"]
    assert x["name"] == dev["name"], "name %r != %r" % (x["name"], dev["name"])
    assert x["pci_bus_id"] == g["bus"], "bus id %r != %r" % (x["pci_bus_id"], g["bus"])
    assert x["memory"]["total_bytes"] == expect.get(dev, "memory", "total"), \
        "GPU %d memory total %r != %r" % (x["index"], x["memory"]["total_bytes"], expect.get(dev, "memory", "total"))
    cc = dev.get("cuda_compute_capability")
    assert x["compute_capability"] == ("%d.%d" % tuple(cc) if cc else None), "GPU %d compute capability %r" % (x["index"], x["compute_capability"])
    ci = e.cuda_index(g["nvml_index"])
    if ci is not None:
        assert x["cuda_index"] == ci, "GPU %d cuda_index %r != %r" % (x["index"], x["cuda_index"], ci)
# gpuwise numbers NVIDIA first (NVML order), then AMD.
idx = [x["index"] for x in devs]
assert idx == list(range(len(devs))), "indices %s" % idx
vendors = [x["vendor"] for x in devs if x["vendor"] in ("nvidia", "amd") and x["health"] == "ok"]
assert vendors == sorted(vendors, key=lambda v: v != "nvidia"), "NVIDIA before AMD: %s" % vendors
for g in e.nvidia:
    if g["lost"]:
        x = expect.by_bus(devs, g["bus"])
        assert x is not None, "lost GPU %s is not listed" % g["bus"]
        assert x["health"] == "lost", "GPU %s health %r, want lost" % (g["bus"], x["health"])
        assert x["health_reason"], "lost GPU without a reason"
amd = [x for x in devs if x["vendor"] == "amd"]
assert len(amd) == len(e.amd), "%d AMD GPUs listed, want %d" % (len(amd), len(e.amd))
for a in e.amd:
    x = expect.by_bus(devs, a["bus"])
    assert x is not None, "AMD GPU %s not listed" % a["bus"]
    assert x["health"] == "ok", "AMD GPU %s health %r" % (a["bus"], x["health"])
    assert x["gfx_target"] in e.gfx_targets, "AMD gfx_target %r not in %s" % (x["gfx_target"], e.gfx_targets)
    assert x["compute_capability"] is None, "AMD compute_capability must be null"
    assert x["memory"]["total_bytes"] == a["vram"], "AMD memory %r != %r" % (x["memory"]["total_bytes"], a["vram"])
for bus in e.unreadable_buses:
    x = expect.by_bus(devs, bus)
    assert x is not None, "GPU %s on the bus is not listed" % bus
    assert x["health"] != "ok", "GPU %s cannot be read yet says ok" % bus
    assert x["health_reason"], "GPU %s: no reason given" % bus
assert sum(x["health"] == "ok" for x in devs) == e.readable, "readable count"
assert (d["error"] is None) == (e.readable > 0), "error field: %r" % d["error"]
assert any(b["name"] == "nvml" for b in d["backends"]), "backends lists nvml"
'

	# Wide enough that no name wraps (test_text.sh checks 80 columns).
	COLUMNS=200 run_on "$m" list
	assert_eq "$rc" "$want_rc" "list exit status"
	assert_not_contains "$out" $'\033' "no colour when stdout is not a terminal"
	if [ "$want_rc" = 0 ]; then
		assert_contains "$(printf '%s\n' "$out" | head -1)" "NAME" "header line"
		assert_eq "$err" "" "list writes nothing on stderr when a GPU is readable"
		# Every readable GPU: its line has the name and the short UUID.
		while IFS=$'\t' read -r name short; do
			line=$(printf '%s\n' "$out" | grep -F -- "$short")
			assert_contains "$line" "$name" "line of GPU $short shows its name"
			assert_contains "$line" " ok" "line of GPU $short shows ok"
		done < <("${PYS[@]}" -c "
import sys; sys.path.insert(0, '$TMPD'); import expect
e = expect.load('$MACHINES/$m')
for g in e.healthy_nvidia:
    print(g['dev']['name'] + '\t' + g['dev']['uuid'][4:].replace('-', '')[:8])
")
		lines=$(printf '%s\n' "$out" | grep -c .)
		COLUMNS=200 run_on "$m" list --no-header
		assert_eq "$rc" 0 "list --no-header exit status"
		assert_eq "$(printf '%s\n' "$out" | grep -c .)" "$((lines - 1))" "--no-header drops exactly the header"
		assert_not_contains "$out" "NAME" "--no-header has no titles"
	else
		assert_one_error_line "list on a machine with no readable GPU"
		assert_contains "$err" "gpuwise: no GPU" "the sentence starts with 'no GPU'"
	fi
done

# Machine-specific expectations.
run_on lost-gpu list
assert_eq "$rc" 0 "a lost GPU does not fail list when others are fine"
assert_contains "$out" "lost" "the lost GPU is shown as lost"
assert_eq "$(printf '%s\n' "$out" | grep -c ' ok$')" 3 "the other three GPUs are ok"

run_on mixed-order list
assert_contains "$(printf '%s\n' "$out" | head -1)" "CUDA" "CUDA column shown when CUDA's order differs"
run_on h100-8x list
assert_not_contains "$(printf '%s\n' "$out" | head -1)" "CUDA" "no CUDA column when the orders agree"
assert_eq "$(printf '%s\n' "$out" | grep -c 'NVIDIA H100 80GB HBM3')" 8 "eight H100 lines"
assert_contains "$out" "79.6 GiB" "H100 memory total in GiB"

# CUDA_VISIBLE_DEVICES hides GPUs from CUDA: the column shows it.
CUDA_VISIBLE_DEVICES=1 run_on h100-8x list --no-header
assert_eq "$(printf '%s\n' "$out" | awk '$1 == 1 {print $(NF-1)}')" 0 "CUDA_VISIBLE_DEVICES=1: GPU 1 is CUDA 0"
assert_eq "$(printf '%s\n' "$out" | awk '$1 == 0 {print $(NF-1)}')" - "CUDA_VISIBLE_DEVICES=1: GPU 0 hidden from CUDA"

# CUDA_VISIBLE_DEVICES that hides every GPU (empty, garbage, an index past
# the end, -1): CUDA sees nothing, and list says so: the CUDA column with
# "-" for every GPU, and one warning on stderr naming the variable. The
# exit status stays 0 (the GPUs can be read; docs/commands/list.md).
for cvd in "" garbage 99 -1; do
	CUDA_VISIBLE_DEVICES=$cvd run_on h100-8x list
	last_cmd="CUDA_VISIBLE_DEVICES='$cvd' gpuwise list"
	assert_eq "$rc" 0 "CUDA_VISIBLE_DEVICES='$cvd': the GPUs are readable, exit 0"
	assert_contains "$(printf '%s\n' "$out" | head -1)" "CUDA" "CUDA_VISIBLE_DEVICES='$cvd': CUDA column shown"
	assert_eq "$(printf '%s\n' "$out" | awk 'NR > 1 {print $(NF-1)}' | sort -u)" - "CUDA_VISIBLE_DEVICES='$cvd': CUDA sees no GPU"
	assert_contains "$err" "CUDA sees none of the 8 NVIDIA GPUs" "CUDA_VISIBLE_DEVICES='$cvd': warning on stderr"
	assert_contains "$err" "CUDA_VISIBLE_DEVICES=\"$cvd\"" "CUDA_VISIBLE_DEVICES='$cvd': the warning quotes the variable"
	CUDA_VISIBLE_DEVICES=$cvd run_on h100-8x list --json
	assert_json "CUDA_VISIBLE_DEVICES='$cvd': every cuda_index null" 'assert all(x["cuda_index"] is None for x in d["devices"])'
done
# The first bad entry hides the rest, as CUDA does.
CUDA_VISIBLE_DEVICES=2,99,3 run_on h100-8x list --no-header
assert_eq "$(printf '%s\n' "$out" | awk '{print $1 "=" $(NF-1)}' | tr '\n' ' ')" "0=- 1=- 2=0 3=- 4=- 5=- 6=- 7=- " \
	"CUDA_VISIBLE_DEVICES=2,99,3: GPU 2 is CUDA 0, the rest hidden"
assert_eq "$err" "" "CUDA_VISIBLE_DEVICES=2,99,3: CUDA sees a GPU, no warning"
# Set to the identity order: the column is still shown (CUDA's view is asked for).
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 run_on h100-8x list
assert_contains "$(printf '%s\n' "$out" | head -1)" "CUDA" "CUDA_VISIBLE_DEVICES set: CUDA column shown"
# A MIG device selected: its row has the CUDA index, its parent GPU none
# (CUDA cannot use the whole GPU then).
mig=$(mjson a100-mig 'm["nvml"]["devices"][0]["mig"]["devices"][1]["uuid"]')
CUDA_VISIBLE_DEVICES=$mig run_on a100-mig list --no-header
assert_eq "$(printf '%s\n' "$out" | awk '{print $1 "=" $(NF-1)}' | tr '\n' ' ')" "0=- 0:0=- 0:1=0 0:2=- 1=- " \
	"CUDA_VISIBLE_DEVICES=MIG-...: MIG 0:1 is CUDA 0, GPU 0 is not"
assert_eq "$err" "" "CUDA_VISIBLE_DEVICES=MIG-...: CUDA sees a device, no warning"
CUDA_VISIBLE_DEVICES=$mig run_on a100-mig list --json
assert_json "CUDA_VISIBLE_DEVICES=MIG-...: JSON cuda_index on the MIG device" '
g = d["devices"][0]
assert g["cuda_index"] is None, g["cuda_index"]
assert [m["cuda_index"] for m in g["mig_devices"]] == [None, 0, None], g["mig_devices"]'

# A long health reason wraps under the HEALTH column within 80 columns
# (not a terminal) or $COLUMNS; nothing is cut.
for cols in "" 100; do
	COLUMNS=$cols run_on driver-mismatch list
	last_cmd="COLUMNS=$cols gpuwise list"
	assert_eq "$(printf '%s\n' "$out" | awk -v w="${cols:-80}" '{ if (length($0) > w) print "long" }' | head -1)" "" \
		"driver-mismatch: every line fits in ${cols:-80} columns"
	col=$(printf '%s\n' "$out" | head -1 | awk '{print index($0, "HEALTH")}')
	assert_eq "$(printf '%s\n' "$out" | sed -n '3,$p' | cut -c1-$((col - 1)) | tr -d ' ')" "" \
		"driver-mismatch: continuation lines start under HEALTH"
	flat=$(printf '%s\n' "$out" | sed -n '2,$p' | cut -c"$col"- | tr '\n' ' ' | tr -s ' ')
	assert_contains "$flat" "the NVIDIA kernel module and the user-space driver library have different versions (LIB_RM_VERSION_MISMATCH)" \
		"driver-mismatch: the reason is whole (it was cut at 127 bytes)"
done

run_on mi300x list
assert_contains "$out" "gfx942" "MI300X shows its gfx target"

run_on mixed-nvidia-amd list
assert_contains "$out" "gfx1100" "RX 7900 XTX shows gfx1100"
# Issue 8 #17: named from its PCI device and revision (1002:744c rev c8,
# amdgpu.ids), never "AMD GPU [1002:744c]", and doctor says the same name.
assert_contains "$out" "AMD Radeon RX 7900 XTX " "mixed-nvidia-amd: the RX 7900 XTX is named"
assert_not_contains "$out" "[1002:" "mixed-nvidia-amd: no bare PCI ids as a name"
COLUMNS=200 run_on mixed-nvidia-amd doctor
assert_contains "$out" "1× AMD Radeon RX 7900 XTX at 03:00.0" "mixed-nvidia-amd: doctor names it as list does"
# A GPU bound to vfio-pci (read by the pci backend) is named from the same table.
run_on "$SCENARIOS/amd-vfio" list
assert_contains "$out" "AMD Instinct MI300X" "amd-vfio: the vfio-bound MI300X is named"
# The card's own product_name wins over any table.
mkdir -p "$TMPD/named-amd"
cp -a "$MACHINES/mixed-nvidia-amd/." "$TMPD/named-amd/"
printf 'AMD Radeon PRO Test Board\n' >"$TMPD/named-amd/root/sys/bus/pci/devices/0000:03:00.0/product_name"
run_with "$TMPD/named-amd" list
last_cmd="[named-amd] gpuwise list"
assert_contains "$out" "AMD Radeon PRO Test Board" "named-amd: sysfs product_name wins"
assert_contains "$out" "8.6" "RTX 3090 shows CC 8.6"

run_on no-driver list
assert_eq "$rc" 1 "no-driver: exit 1"
assert_contains "$err" "not loaded" "no-driver: the sentence says the driver is not loaded"
assert_contains "$out" "no-driver" "no-driver: the L4 is listed as no-driver"

run_on driver-mismatch list
assert_eq "$rc" 1 "driver-mismatch: exit 1"
assert_contains "$err" "mismatch" "driver-mismatch: the sentence names the mismatch"
assert_contains "$err" "550.54.15" "driver-mismatch: the sentence gives the kernel module version"
assert_contains "$err" "550.90.07" "driver-mismatch: the sentence gives the library version"

# An Intel iGPU is on the bus with its driver, but gpuwise reads nothing
# from it: "unsupported" with the reason, never "ok", and a machine with only
# that GPU has no readable GPU (exit 1). Built from laptop-3060 without the
# NVIDIA GPU and libraries.
mkdir -p "$TMPD/intel-only"
cp -a "$MACHINES/laptop-3060/root" "$TMPD/intel-only/root"
for f in "$TMPD"/intel-only/root/sys/bus/pci/devices/*; do
	[ "$(cat "$f/vendor")" = 0x10de ] && rm -rf "$f"
done
printf '{"schema": 1, "description": "Intel iGPU only", "nvml": null, "cuda": null}\n' >"$TMPD/intel-only/machine.json"
COLUMNS=200 run_with "$TMPD/intel-only" list
last_cmd="[intel-only] gpuwise list"
assert_eq "$rc" 1 "intel-only: no readable GPU, exit 1"
assert_contains "$out" "unsupported: gpuwise cannot read Intel GPUs (driver i915 bound)" "intel-only: the iGPU is unsupported, with the reason"
assert_not_contains "$out" " ok" "intel-only: nothing is ok"
assert_one_error_line "intel-only: one sentence on stderr"
assert_contains "$err" "GPU 0 (0000:00:02.0) is unsupported" "intel-only: the sentence names the Intel GPU"
run_with "$TMPD/intel-only" list --json
assert_json "intel-only: health unsupported, error set" '
assert [x["health"] for x in d["devices"]] == ["unsupported"], d["devices"]
assert d["devices"][0]["health_reason"], "a reason"
assert d["error"], "the error sentence"'
run_on laptop-3060 list
assert_eq "$rc" 0 "laptop-3060: the RTX 3060 is readable"
assert_contains "$(printf '%s\n' "$out" | grep 'Intel')" "unsupported" "laptop-3060: the iGPU row says unsupported"

# MIG instances are listed under their GPU, as nvidia-smi -L does.
run_on a100-mig list
for row in $(mjson a100-mig "' '.join('%s|%s' % (g['name'].split(' MIG ')[1], g['uuid'][4:12]) for g in m['nvml']['devices'][0]['mig']['devices'])"); do
	profile=${row%%|*} short=${row#*|}
	line=$(printf '%s\n' "$out" | grep "MIG $profile ")
	assert_contains "$line" "$short" "a100-mig: MIG $profile row shows its short UUID"
	assert_contains "$line" "0:" "a100-mig: MIG $profile row is numbered under GPU 0"
done

# A set-gid copy of gpuwise (as root: chgrp to a group not ours; /tmp
# must allow set-gid): the kernel marks it AT_SECURE, and the variables that
# pick a library (GPUWISE_NVML_LIBRARY, GPUWISE_CUDA_LIBRARY) are ignored,
# as the loader ignores LD_LIBRARY_PATH; the normal binary uses them.
if [ "$(id -u)" = 0 ] && getent group nogroup >/dev/null; then
	mkdir -p "$TMPD/sgid"
	cp "$GW" "$TMPD/sgid/gpuwise"
	chgrp nogroup "$TMPD/sgid/gpuwise" && chmod g+s "$TMPD/sgid/gpuwise"
	evil=$TMPD/not-trusted
	for bin in "$GW" "$TMPD/sgid/gpuwise"; do
		GPUWISE_NVML_LIBRARY=$evil/libnvidia-ml.so.1 GPUWISE_CUDA_LIBRARY=$evil/libcuda.so.1 \
			"$bin" list --json >"$TMPD/sgid.out" 2>&1
		case $bin in
		"$GW") assert_contains "$(cat "$TMPD/sgid.out")" "$evil/libnvidia-ml.so.1" "the normal binary loads GPUWISE_NVML_LIBRARY" ;;
		*) assert_not_contains "$(cat "$TMPD/sgid.out")" "$evil" "a set-gid gpuwise ignores GPUWISE_*_LIBRARY" ;;
		esac
	done
else
	echo "note: not root: the set-gid check of GPUWISE_*_LIBRARY is skipped"
fi

finish
