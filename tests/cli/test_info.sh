#!/usr/bin/env bash
# gpuwise info (human and --json) over every fake machine: each value
# machine.json gives must come out converted to SI units, each value it
# leaves out (null) must come out null / N/A — never 0.
. "$(dirname "$0")/lib.sh"

# The NVML fields of machine.json and where info --json puts them:
# (machine path, json path, scale, NVML getters that feed it).
cat >"$TMPD/fields.py" <<'PY'
FIELDS = [
    (("memory", "total"), ("memory", "total_bytes"), 1, ["MemoryInfo"]),
    (("memory", "reserved"), ("memory", "reserved_bytes"), 1, ["MemoryInfo"]),
    (("memory", "used"), ("memory", "used_bytes"), 1, ["MemoryInfo"]),
    (("bar1_memory", "total"), ("bar1_memory", "total_bytes"), 1, ["BAR1"]),
    (("utilization", "gpu"), ("utilization", "gpu_percent"), 1, ["UtilizationRates"]),
    (("utilization", "memory"), ("utilization", "memory_percent"), 1, ["UtilizationRates"]),
    (("encoder_utilization",), ("utilization", "encoder_percent"), 1, ["EncoderUtilization"]),
    (("decoder_utilization",), ("utilization", "decoder_percent"), 1, ["DecoderUtilization"]),
    (("temperature", "gpu"), ("temperature_c",), 1, ["Temperature"]),
    (("temperature", "slowdown"), ("temperature", "slowdown_c"), 1, ["TemperatureThreshold"]),
    (("temperature", "shutdown"), ("temperature", "shutdown_c"), 1, ["TemperatureThreshold"]),
    (("fan_speed",), ("fan_percent",), 1, ["FanSpeed"]),
    (("power", "usage"), ("power", "draw_w"), 1e-3, ["PowerUsage"]),
    (("power", "enforced_limit"), ("power", "limit_w"), 1e-3, ["EnforcedPowerLimit"]),
    (("power", "management_limit"), ("power", "management_limit_w"), 1e-3, ["PowerManagementLimit"]),
    (("power", "total_energy"), ("power", "energy_j"), 1e-3, ["TotalEnergyConsumption"]),
    (("clocks", "sm"), ("clocks", "sm_mhz"), 1, ["ClockInfo"]),
    (("clocks", "mem"), ("clocks", "mem_mhz"), 1, ["ClockInfo"]),
    (("clocks", "graphics"), ("clocks", "graphics_mhz"), 1, ["ClockInfo"]),
    (("max_clocks", "sm"), ("clocks", "max_sm_mhz"), 1, ["MaxClockInfo"]),
    (("max_clocks", "mem"), ("clocks", "max_mem_mhz"), 1, ["MaxClockInfo"]),
    (("pcie", "curr_gen"), ("pcie", "gen"), 1, ["CurrPcieLinkGeneration"]),
    (("pcie", "curr_width"), ("pcie", "width"), 1, ["CurrPcieLinkWidth"]),
    (("pcie", "max_gen"), ("pcie", "max_gen"), 1, ["MaxPcieLinkGeneration"]),
    (("pcie", "max_width"), ("pcie", "max_width"), 1, ["MaxPcieLinkWidth"]),
    (("pcie", "gpu_max_gen"), ("pcie", "gpu_max_gen"), 1, ["GpuMaxPcieLinkGeneration"]),
    (("pcie", "replay_counter"), ("pcie", "replay_counter"), 1, ["PcieReplayCounter"]),
    (("multiprocessor_count",), ("multiprocessor_count",), 1, ["Attributes", "MultiprocessorCount"]),
    (("num_gpu_cores",), ("cuda_cores",), 1, ["NumGpuCores"]),
    (("ecc", "corrected_volatile"), ("ecc", "corrected_volatile"), 1, ["TotalEccErrors"]),
    (("ecc", "uncorrected_volatile"), ("ecc", "uncorrected_volatile"), 1, ["TotalEccErrors"]),
    (("remapped_rows", "correctable"), ("remapped_rows", "correctable"), 1, ["RemappedRows"]),
    (("remapped_rows", "uncorrectable"), ("remapped_rows", "uncorrectable"), 1, ["RemappedRows"]),
]
STRINGS = [("serial", "serial"), ("vbios_version", "vbios_version"), ("board_part_number", "board_part_number")]
THROTTLE = ["gpu_idle", "applications_clocks_setting", "sw_power_cap", "hw_slowdown", "sync_boost",
            "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown", "display_clock_setting"]

def mget(dev, path):
    v = dev
    for p in path:
        if not isinstance(v, dict):
            return None
        v = v.get(p)
    return v

def jget(x, path):
    for p in path:
        x = x[p]
    return x

def touched(dev, getters):
    errs = dev.get("errors") or {}
    return any(g in k for k in errs for g in getters)

def check_device(x, dev):
    bad = []
    for mpath, jpath, scale, getters in FIELDS:
        if touched(dev, getters):
            continue  # an injected error: the backend may fall back or give null
        want = mget(dev, mpath)
        got = jget(x, jpath)
        if want is None:
            if got is not None:
                bad.append("%s: %r, want null (machine.json has none)" % (".".join(jpath), got))
            continue
        cands = want if isinstance(want, list) else [want]
        if got is None or not any(abs(got - c * scale) < 1e-6 for c in cands):
            bad.append("%s: %r, want %r" % (".".join(jpath), got, [c * scale for c in cands]))
    for mkey, jkey in STRINGS:
        if mkey not in dev or touched(dev, [mkey.title().replace("_", "")]):
            continue
        if x[jkey] != dev[mkey]:
            bad.append("%s: %r, want %r" % (jkey, x[jkey], dev[mkey]))
    ps = dev.get("performance_state")
    if not isinstance(ps, list) and x["pstate"] != (None if ps is None else "P%d" % ps):
        bad.append("pstate %r, want %r" % (x["pstate"], ps))
    pm = dev.get("persistence_mode")
    if not isinstance(pm, list) and x["persistence_mode"] != (None if pm is None else bool(pm)):
        bad.append("persistence_mode %r, want %r" % (x["persistence_mode"], pm))
    cm = dev.get("compute_mode")
    names = {0: "default", 1: "exclusive-thread", 2: "prohibited", 3: "exclusive-process"}
    if not isinstance(cm, list) and x["compute_mode"] != (None if cm is None else names[cm]):
        bad.append("compute_mode %r, want %r" % (x["compute_mode"], cm))
    r = dev.get("clocks_event_reasons")
    if not touched(dev, ["ClocksEventReasons", "ThrottleReasons"]) and not isinstance(r, list):
        want = None if r is None else [THROTTLE[b] for b in range(9) if r >> b & 1]
        if x["throttle_reasons"] != want:
            bad.append("throttle_reasons %r, want %r" % (x["throttle_reasons"], want))
    ecc = dev.get("ecc")
    if ecc is None and x["ecc"]["enabled"] is not None:
        bad.append("ecc.enabled %r, want null" % x["ecc"]["enabled"])
    elif ecc and not isinstance(ecc.get("current"), list) and x["ecc"]["enabled"] != bool(ecc.get("current")):
        bad.append("ecc.enabled %r, want %r" % (x["ecc"]["enabled"], ecc.get("current")))
    cc = dev.get("cuda_compute_capability")
    if x["compute_capability"] != (None if cc is None else "%d.%d" % tuple(cc)):
        bad.append("compute_capability %r, want %r" % (x["compute_capability"], cc))
    mig = dev.get("mig")
    if mig is None:
        if x["mig"]["enabled"] not in (None, False) or x["mig"]["devices"]:
            bad.append("mig %r, want none" % x["mig"])
    else:
        on = bool(mig.get("current"))
        if x["mig"]["enabled"] != on:
            bad.append("mig.enabled %r, want %r" % (x["mig"]["enabled"], on))
        want = [g["uuid"] for g in mig.get("devices", [])] if on else []
        got = [g["uuid"] for g in x["mig"]["devices"]]
        if got != want:
            bad.append("mig devices %r, want %r" % (got, want))
        for g, w in zip(x["mig"]["devices"], mig.get("devices", [])):
            for k in ("name", "gpu_instance_id", "compute_instance_id", "multiprocessor_count"):
                if k in w and g[k] != w[k]:
                    bad.append("mig %s %s: %r, want %r" % (w["uuid"], k, g[k], w[k]))
    return bad

def check_processes(x, dev, root, sleeper):
    import os
    procs = dev.get("processes")
    if procs is None:
        return [] if x["processes"] in (None, []) else ["processes %r, want none" % x["processes"]]
    want = {}
    for kind in ("compute", "graphics", "mps"):
        for p in procs.get(kind) or []:
            want.setdefault(str(p["pid"]), p)
    got = {("$SLEEPER" if sleeper and q["pid"] == sleeper else str(q["pid"])): q for q in x["processes"] or []}
    bad = []
    if sorted(got) != sorted(want):
        return ["process pids %s, want %s" % (sorted(got), sorted(want))]
    for pid, q in got.items():
        w = want[pid]
        if not touched(dev, ["RunningProcesses"]) and w.get("used_gpu_memory") is not None \
                and q["used_memory_bytes"] != w["used_gpu_memory"]:
            bad.append("pid %s memory %r, want %r" % (pid, q["used_memory_bytes"], w["used_gpu_memory"]))
        here = pid == "$SLEEPER" or os.path.isdir(os.path.join(root, "proc", pid))
        if q["in_pid_namespace"] != here:
            bad.append("pid %s in_pid_namespace %r, want %r" % (pid, q["in_pid_namespace"], here))
        if here and not q["command"]:
            bad.append("pid %s: no command" % pid)
        if not here and (q["user"] is not None or q["command"] is not None):
            bad.append("pid %s outside the namespace has user/command %r/%r" % (pid, q["user"], q["command"]))
        if pid == "$SLEEPER" and "sleep" not in (q["command"] or ""):
            bad.append("sleeper command %r" % q["command"])
    return bad
PY

for m in $(machines); do
	JSON_MACHINE=$m
	want_rc=$("${PYS[@]}" -c "import sys; sys.path.insert(0, '$TMPD'); import expect; print(expect.load('$MACHINES/$m').exit_code)")

	# The sleeper's pid is only known inside with-machine: record it.
	"$TOP/scripts/with-machine" "$MACHINES/$m" -- sh -c 'echo $GPUWISE_SLEEPER_PID >"$1"; exec "$2" info --json' \
		sh "$TMPD/sleeper" "$GW" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?; out=$(cat "$TMPD/out"); err=$(cat "$TMPD/err"); last_cmd="[$m] gpuwise info --json"
	sleeper=$(cat "$TMPD/sleeper")
	assert_eq "$rc" "$want_rc" "info --json exit status"
	assert_json "info --json matches machine.json" "
import fields
sleeper = int('$sleeper' or 0)
assert d['gpuwise_version'], 'gpuwise_version'
for k in ('version', 'cuda_driver_version', 'nvml_version', 'kernel_module_version'):
    assert k in d['driver'], 'driver.%s missing' % k
if e.nvml_ok:
    n = e.nvml
    assert d['driver']['version'] == n['driver_version'], 'driver.version %r' % d['driver']['version']
    if n.get('cuda_driver_version'):
        assert d['driver']['cuda_driver_version'] == expect.cuda_text(n['cuda_driver_version']), \
            'cuda_driver_version %r' % d['driver']['cuda_driver_version']
    if n.get('nvml_version'):
        assert d['driver']['nvml_version'] == n['nvml_version'], 'nvml_version %r' % d['driver']['nvml_version']
km = expect.read(e.root + '/proc/driver/nvidia/version')
if km:
    assert d['driver']['kernel_module_version'] and d['driver']['kernel_module_version'] in km, \
        'kernel_module_version %r' % d['driver']['kernel_module_version']
devs = d['devices']
bad = []
for g in e.nvidia:
    x = expect.by_bus(devs, g['bus'])
    if x is None:
        bad.append('GPU %s missing' % g['bus']); continue
    if g['lost']:
        if x['health'] != 'lost': bad.append('%s health %r, want lost' % (g['bus'], x['health']))
        for k in ('temperature_c', 'fan_percent', 'processes'):
            if x[k] is not None: bad.append('lost GPU %s: %s = %r, want null' % (g['bus'], k, x[k]))
        continue
    if x['health'] != 'ok': bad.append('%s health %r' % (g['bus'], x['health']))
    if x['uuid'] != g['dev']['uuid']: bad.append('%s uuid %r' % (g['bus'], x['uuid']))
    bad += ['GPU %d %s' % (x['index'], b) for b in fields.check_device(x, g['dev'])]
    bad += ['GPU %d %s' % (x['index'], b) for b in fields.check_processes(x, g['dev'], e.root, sleeper)]
for a in e.amd:
    x = expect.by_bus(devs, a['bus'])
    if x is None:
        bad.append('AMD GPU %s missing' % a['bus']); continue
    if x['vendor'] != 'amd': bad.append('%s vendor %r' % (a['bus'], x['vendor']))
    if x['gfx_target'] not in e.gfx_targets: bad.append('%s gfx_target %r' % (a['bus'], x['gfx_target']))
    if x['compute_capability'] is not None: bad.append('%s compute_capability not null' % a['bus'])
    if x['memory']['total_bytes'] != a['vram']: bad.append('%s memory %r != %r' % (a['bus'], x['memory']['total_bytes'], a['vram']))
    # Processes from /proc/<pid>/fdinfo: the same pids and VRAM, [] when none.
    got = {q['pid']: q['used_memory_bytes'] for q in (x['processes'] or [])}
    if x['processes'] is None or got != a['procs']: bad.append('%s processes %r, want %r' % (a['bus'], got, a['procs']))
for bus in e.unreadable_buses:
    x = expect.by_bus(devs, bus)
    if x is None or x['health'] == 'ok': bad.append('unreadable GPU %s: %r' % (bus, x and x['health']))
assert not bad, '; '.join(bad[:8])
"
	# The human report: same exit status, and never a raw 0 for a value
	# machine.json leaves out (all-not-supported has nothing optional).
	run_on "$m" info
	assert_eq "$rc" "$want_rc" "info exit status"
	if [ "$want_rc" = 0 ]; then
		assert_contains "$out" "Driver Version" "info shows the driver version"
		assert_contains "$out" "GPU 0: " "info has a section per GPU"
		ngpu=$(run_on "$m" list --json; printf '%s' "$out" | "${PYS[@]}" -c 'import json,sys; print(len(json.load(sys.stdin)["devices"]))')
		assert_eq "$(printf '%s\n' "$out" | grep -c '^GPU [0-9]*: ')" "$ngpu" "one section per listed GPU"
	fi
	assert_not_contains "$out" "error (code 0)" "no error with code 0"
	run_on "$m" info -q
	assert_eq "$rc" "$want_rc" "info -q exit status"
	assert_eq "$out$err" "" "info -q prints nothing"
done

# Every optional value unsupported: N/A everywhere, never 0.
run_on all-not-supported info
assert_eq "$rc" 0 "all-not-supported: the GPU is readable"
for key in "GPU Current Temp" "Power Draw" "Fan Speed" "Total" "Performance State" "Persistence Mode" "Compute Capability" "Architecture"; do
	line=$(printf '%s\n' "$out" | grep -m1 "^ *$key *:")
	assert_contains "$line" ": N/A" "all-not-supported: $key is N/A"
done
checks=$((checks + 1))
if printf '%s\n' "$out" | grep -E ': (0 B|0 MHz|0\.00 W|0 %|0 C|0\.000 J)$' >/dev/null; then
	fail "all-not-supported: a 0 printed for an unsupported value: $(printf '%s\n' "$out" | grep -E ': (0 B|0 MHz|0\.00 W|0 %|0 C)$' | head -3)"
fi

# Selecting one GPU: by index, UUID prefix, bus id.
run_on h100-8x info -i 3
assert_eq "$rc" 0 "info -i 3"
assert_eq "$(printf '%s\n' "$out" | grep -c '^GPU [0-9]*: ')" 1 "info -i 3 prints one GPU"
assert_contains "$out" "GPU 3: " "info -i 3 prints GPU 3"
assert_contains "$out" "CUDA Driver Version                  : 12.4" "CUDA driver version as 12.4"
uuid1=$(mjson h100-8x 'm["nvml"]["devices"][1]["uuid"]')
run_on h100-8x info -i "${uuid1:0:12}" --json
assert_eq "$rc" 0 "info -i UUID prefix"
assert_json "info -i UUID prefix selects that GPU" "assert [x['uuid'] for x in d['devices']] == ['$uuid1'], d['devices']"
run_on h100-8x info -i "${uuid1:4:8}" --json
assert_json "info -i UUID without GPU- selects that GPU" "assert [x['uuid'] for x in d['devices']] == ['$uuid1']"
run_on h100-8x info -i 2a:00.0 --json
assert_json "info -i bus id selects that GPU" "assert [x['pci_bus_id'] for x in d['devices']] == ['0000:2a:00.0'], d['devices']"
run_on h100-8x info -i0 --json
assert_json "info -i0 (nvidia-smi style)" "assert [x['index'] for x in d['devices']] == [0]"

# Whatever `list` prints as an identifier works as `info -i` input: every
# row's GPU column and short UUID (all-digit ones included), on every machine.
for m in h100-8x a100-mig mixed-nvidia-amd lost-gpu; do
	run_on "$m" list --no-header
	rows=$(printf '%s\n' "$out" | awk '/^[0-9]/ {print $1 "|" $0}')  # not a wrapped reason's lines
	while IFS='|' read -r id line; do
		[ -n "$id" ] || continue
		short=$(printf '%s\n' "$line" | grep -oE '  [0-9a-f]{8}  ' | tr -d ' ' | head -1)
		want=${id%%:*}
		for sel in "$id" ${short:+"$short"}; do
			run_on "$m" info -i "$sel" --json
			assert_json "[$m] info -i $sel (from list row $id) selects GPU $want" "
assert [x['index'] for x in d['devices']] == [$want], [x['index'] for x in d['devices']]
if ':' in '$id':
    migs = d['devices'][0]['mig']['devices']
    assert len(migs) == 1, 'the selected MIG device only: %s' % migs
    assert migs[0]['uuid'][4:].replace('-', '').startswith('$short'), migs[0]['uuid']"
		done
	done <<<"$rows"
done
# h100-8x GPU 7's UUID starts with 8 digits (33135771): a UUID, not an index.
short7=$(mjson h100-8x 'm["nvml"]["devices"][7]["uuid"][4:12]')
case $short7 in *[!0-9]*) fail "h100-8x GPU 7's UUID no longer starts with digits: $short7" ;; esac
run_on h100-8x info -i "$short7" --json
assert_eq "$rc" 0 "info -i $short7 (all digits, 8 of them) is GPU 7's UUID"
assert_json "info -i $short7 selects GPU 7" "assert [x['index'] for x in d['devices']] == [7]"
# The ambiguity rule (docs/commands/info.md): fewer than 8 digits is an index.
run_on h100-8x info -i "${short7:0:7}" --json
assert_eq "$rc" 1 "info -i ${short7:0:7}: an index, and there is no GPU ${short7:0:7}"
assert_contains "$err" "no GPU with index ${short7:0:7}" "seven digits are an index"
assert_contains "$err" "8 of them" "the message says how to give a digit-only UUID prefix"
run_on h100-8x info -i "GPU-${short7:0:4}" --json
assert_json "GPU- before digits makes them a UUID prefix" "assert [x['index'] for x in d['devices']] == [7]"
# Lists, as nvidia-smi -i 0,1 takes them; repeated -i adds; duplicates once.
run_on h100-8x info -i 0,1 --json
assert_eq "$rc" 0 "info -i 0,1"
assert_json "info -i 0,1 selects GPUs 0 and 1" "assert [x['index'] for x in d['devices']] == [0, 1]"
run_on h100-8x info -i 5 -i "$short7",2a:00.0 --json
assert_json "info -i 5 -i UUID,BUS selects all three in order" "assert [x['index'] for x in d['devices']] == [5, 7, 1]"
run_on h100-8x info -i 3,3 -q
assert_eq "$rc" 0 "info -i 3,3 -q"
run_on h100-8x info -i 3,3 --json
assert_json "a duplicate selects once" "assert [x['index'] for x in d['devices']] == [3]"
run_on h100-8x info -i 0,9
assert_eq "$rc" 1 "info -i 0,9: GPU 9 does not exist"
assert_contains "$err" "no GPU with index 9" "the missing entry is named"
run_on h100-8x info -i 0,
assert_eq "$rc" 2 "info -i '0,': an empty entry is a usage error"
run_on h100-8x info -i -1
assert_eq "$rc" 1 "info -i -1 matches nothing"
# MIG devices: G:M, MIG- UUID prefix, and the short UUID; processes of that instance only.
mig1=$(mjson a100-mig 'm["nvml"]["devices"][0]["mig"]["devices"][1]["uuid"]')
gi1=$(mjson a100-mig 'm["nvml"]["devices"][0]["mig"]["devices"][1]["gpu_instance_id"]')
for sel in 0:1 "${mig1:0:10}" "${mig1:4:8}" "$mig1"; do
	run_on a100-mig info -i "$sel" --json
	assert_eq "$rc" 0 "a100-mig: info -i $sel"
	assert_json "a100-mig: info -i $sel is GPU 0 with MIG device 1 only" "
x, = d['devices']
assert x['index'] == 0
assert [g['uuid'] for g in x['mig']['devices']] == ['$mig1'], x['mig']['devices']
assert all(p['gpu_instance_id'] == $gi1 for p in x['processes']), x['processes']"
done
# The selected MIG device keeps the name list gives it (0:1), not its place
# in the shortened list.
run_on a100-mig info -i 0:1
assert_contains "$out" "MIG Device 0:1" "a100-mig: info -i 0:1 names it 0:1, as list does"
assert_not_contains "$out" "MIG Device 0:0" "a100-mig: info -i 0:1 shows no other MIG device"
run_on a100-mig list
assert_contains "$out" "0:1    MIG 2g.10gb" "a100-mig: list calls it 0:1"
run_on a100-mig info -i 0:7
assert_eq "$rc" 1 "a100-mig: no MIG device 7"
assert_contains "$err" "no MIG device 7" "a100-mig: the message names the MIG device"
run_on a100-mig info -i 1:0
assert_contains "$err" "MIG off" "a100-mig: GPU 1 has MIG off"

# CUDA Index says why there is none: a broken GPU is not "hidden" (wide
# enough that the value does not wrap).
COLUMNS=200 run_on lost-gpu info -i 0000:47:00.0
assert_contains "$out" "CUDA Index                       : none (the GPU is lost: CUDA cannot use it)" "lost-gpu: why no CUDA index"
assert_not_contains "$out" "hidden" "lost-gpu: a lost GPU is not called hidden"
run_on no-driver info
assert_contains "$out" "CUDA Index                       : none (no driver serves the GPU" "no-driver: why no CUDA index"
CUDA_VISIBLE_DEVICES=1 COLUMNS=200 run_on h100-8x info -i 0
assert_contains "$out" "CUDA Index                       : none (hidden by CUDA_VISIBLE_DEVICES=\"1\")" "CUDA_VISIBLE_DEVICES=1: GPU 0 hidden, and by what"
CUDA_VISIBLE_DEVICES=-1 COLUMNS=200 run_on h100-8x info -i 0
assert_contains "$out" "no CUDA device is visible" "CUDA_VISIBLE_DEVICES=-1: CUDA sees nothing, and says why"
# The lost A100 is named like its siblings, with their compute capability.
run_on lost-gpu list --json
assert_json "lost-gpu: the lost GPU named and described like its siblings" '
lost = [x for x in d["devices"] if x["health"] == "lost"]
ok = [x for x in d["devices"] if x["health"] == "ok"]
assert lost and lost[0]["name"] == ok[0]["name"], (lost[0]["name"], ok[0]["name"])
assert lost[0]["compute_capability"] == ok[0]["compute_capability"], lost[0]["compute_capability"]'
# A MIG process shows its GPU and compute instance ids.
run_on a100-mig info -i 0:0
ci=$(mjson a100-mig '[p for p in m["nvml"]["devices"][0]["processes"]["compute"] if p.get("gpu_instance_id") == m["nvml"]["devices"][0]["mig"]["devices"][0]["gpu_instance_id"]][0]["compute_instance_id"]')
assert_eq "$(printf '%s\n' "$out" | sed -n '/^    Processes/,$p' | grep 'Compute Instance Id' | sed 's/.*: //' | sort -u)" "$ci" \
	"a100-mig: MIG process compute instance id"

# Lost GPU: the others are reported, the lost one says so.
run_on lost-gpu info
assert_eq "$rc" 0 "lost-gpu: info exits 0 (three GPUs are fine)"
assert_contains "$out" ": lost" "lost-gpu: health lost shown"
COLUMNS=200 run_on lost-gpu info -i 0000:47:00.0
assert_eq "$rc" 1 "lost-gpu: info on the lost GPU alone exits 1"
assert_contains "$err" "lost" "lost-gpu: the message says lost"
run_on lost-gpu info -q -i 1
assert_eq "$rc" 0 "lost-gpu: info -q -i 1 exits 0"

# MIG devices by name.
run_on a100-mig info -i 0
assert_contains "$out" "MIG Device 0" "a100-mig: MIG devices listed"
assert_contains "$out" "3g.20gb" "a100-mig: MIG profile names"

# Processes whose pid this namespace cannot see: mixed-order without the
# /proc entry of its Xorg (pid 1432), as in a container that sees host pids.
cp -a "$MACHINES/mixed-order" "$TMPD/hidden-pid"
rm -rf "$TMPD/hidden-pid/root/proc/1432"
"$TOP/scripts/with-machine" "$TMPD/hidden-pid" -- "$GW" info -i 0 >"$TMPD/out" 2>&1
out=$(cat "$TMPD/out"); last_cmd="[mixed-order without /proc/1432] gpuwise info -i 0"
assert_contains "$out" "not in this pid namespace" "pid 1432 is not in this pid namespace"
assert_contains "$out" "Process ID                   : 1432" "pid 1432 still listed"

# Throttle reasons by name.
run_on laptop-3060 info --json
reasons=$(mjson laptop-3060 'm["nvml"]["devices"][0].get("clocks_event_reasons")')
if [ "$reasons" != None ] && [ "$reasons" != 0 ]; then
	run_on laptop-3060 info
	assert_contains "$out" "Clocks Event Reasons" "laptop: clock event reasons shown"
	assert_not_contains "$(printf '%s\n' "$out" | grep 'Clocks Event Reasons')" "None" "laptop: reasons named"
fi

# Every throttle bit set (53 of them: JSON numbers are exact up to 2^53):
# each known reason by its title, the unknown bits together, nothing cut
# mid-word (the line was cut at 255 bytes).
mkdir -p "$TMPD/all-reasons"
cp -a "$MACHINES/laptop-3060/root" "$TMPD/all-reasons/root"
"${PYS[@]}" -c 'import json, sys
m = json.load(open(sys.argv[1])); m["nvml"]["devices"][0]["clocks_event_reasons"] = (1 << 53) - 1
json.dump(m, open(sys.argv[2], "w"))' "$MACHINES/laptop-3060/machine.json" "$TMPD/all-reasons/machine.json"
COLUMNS=1000 run_with "$TMPD/all-reasons" info -i 0
last_cmd="[laptop-3060, every throttle bit] gpuwise info -i 0"
line=$(printf '%s\n' "$out" | grep 'Clocks Event Reasons')
assert_contains "$line" ": GPU Idle, Applications Clocks Setting, SW Power Cap," "all throttle bits: the known titles, in bit order"
assert_contains "$line" ", Display Clock Setting, Unknown (0x$(printf '%x' $(( (1 << 53) - 1 - 0x1ff ))))" \
	"all throttle bits: the last title and the unknown bits, whole"

# No GPU readable: exit 1 with the one sentence, JSON still printed.
run_on no-driver info --json
assert_eq "$rc" 1 "no-driver: info --json exits 1"
assert_one_error_line "no-driver: info --json"
assert_json "no-driver: JSON with the error" '
assert d["error"], "error field"
assert all(x["health"] != "ok" for x in d["devices"]), "no device is ok"
'
run_on mi300x info --json
assert_json "mi300x: AMD fields" '
assert len(d["devices"]) == 2, len(d["devices"])
for x in d["devices"]:
    assert x["vendor"] == "amd" and x["gfx_target"] == "gfx942", (x["vendor"], x["gfx_target"])
    assert x["cuda_index"] is None, "AMD GPU without CUDA index"
    assert x["multiprocessor_count"] == 304, "MI300X has 304 CUs: %r" % x["multiprocessor_count"]
'

# Topology and peer access (nvidia-smi topo -m / -p2p): the matrices of the
# selected GPUs, nothing with one GPU or where the driver cannot tell.
run_on h100-8x info -i 0,1,4
assert_contains "$out" "GPU0    X     NODE  SYS" "h100-8x: topology row of GPU 0 (NODE within a socket, SYS across)"
assert_contains "$out" "Peer-to-peer read (nvidia-smi topo -p2p r)" "h100-8x: P2P read matrix"
assert_not_contains "$out" "Peer-to-peer over PCIe" "no PCIe P2P matrix title exists"
run_on h100-8x info -i 0
assert_not_contains "$out" "Topology (nvidia-smi" "one GPU: no topology matrix"
run_on lost-gpu info
assert_not_contains "$out" "Topology (nvidia-smi" "lost-gpu: no topology data, no matrix"
mkdir -p "$TMPD/p2p-error"
cp -r "$MACHINES/h100-8x/." "$TMPD/p2p-error/"
"${PYS[@]}" - "$TMPD/p2p-error/machine.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
d = m["nvml"]["devices"]
d[0]["p2p"]["read"][1] = "CHIPSET_NOT_SUPPORTED"
d[0].setdefault("errors", {})["nvmlDeviceGetTopologyCommonAncestor"] = "UNKNOWN"
json.dump(m, open(sys.argv[1], "w"))
PY
run_with "$TMPD/p2p-error" info -i 0,1 --json
assert_json "p2p-error: peers from the fake, an NVML error is null" '
p = {(e["from"], e["to"]): e for e in d["peers"]}
assert set(p) == {(0, 1), (1, 0)}, sorted(p)
assert p[(0, 1)]["p2p"]["read"] == "chipset_not_supported", p[(0, 1)]
assert p[(0, 1)]["p2p"]["write"] == "ok" and p[(0, 1)]["p2p"]["pci"] is None, p[(0, 1)]
assert p[(0, 1)]["topology"] is None and p[(1, 0)]["topology"] == "NODE", p
'
run_with "$TMPD/p2p-error" info -i 0,1
assert_contains "$out" "GPU0    X     CNS" "p2p-error: CNS in the read matrix"
assert_contains "$out" "GPU0    X     ERR" "p2p-error: ERR where the topology call failed"

finish
