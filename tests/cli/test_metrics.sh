#!/usr/bin/env bash
# The metric table (lib/core/metrics.def) end to end: NVML's "not available"
# sentinels never show as values, memory temperature comes from NVML's field
# values, an old driver's used_bytes says it includes the reserved memory,
# and docs/metrics.md is what scripts/gen-metrics-doc makes of the table.
. "$(dirname "$0")/lib.sh"

# ---- sentinels and out-of-range percentages: null / N/A, never a value ----
mkdir -p "$TMPD/sentinels"
"${PYS[@]}" -c 'import json, sys
m = json.load(open(sys.argv[1]))
d = m["nvml"]["devices"][0]
d["utilization"] = {"gpu": 4294967295, "memory": 101}
d["encoder_utilization"] = 4294967295
d["temperature"]["gpu"] = 2147483647
d["temperature"]["memory"] = 2147483647
d["fan_speed"] = 4294967295
d["power"]["usage"] = 4294967295
d["pcie"]["replay_counter"] = 4294967295
json.dump(m, open(sys.argv[2], "w"))' "$MACHINES/h100-8x/machine.json" "$TMPD/sentinels/machine.json"
run_with "$TMPD/sentinels" info -i 0 --json
last_cmd="[h100-8x with NVML sentinels] gpuwise info -i 0 --json"
assert_eq "$rc" 0 "sentinels: info --json exit status"
assert_json "sentinels: every one is null" '
x = d["devices"][0]
got = {"gpu_percent": x["utilization"]["gpu_percent"], "memory_percent": x["utilization"]["memory_percent"],
       "encoder_percent": x["utilization"]["encoder_percent"], "temperature_c": x["temperature_c"],
       "gpu_c": x["temperature"]["gpu_c"], "memory_c": x["temperature"]["memory_c"],
       "fan_percent": x["fan_percent"], "draw_w": x["power"]["draw_w"],
       "replay_counter": x["pcie"]["replay_counter"]}
bad = {k: v for k, v in got.items() if v is not None}
assert not bad, bad
assert x["utilization"]["decoder_percent"] is not None, "an ordinary value stays"
'
run_with "$TMPD/sentinels" info -i 0
for key in "GPU" "Memory" "GPU Current Temp" "Memory Current Temp" "Fan Speed" "Power Draw" "Replays"; do
	line=$(printf '%s\n' "$out" | grep -m1 "^ *$key *:")
	assert_contains "$line" ": N/A" "sentinels: $key is N/A"
done
assert_not_contains "$out" "4294967" "sentinels: no 0xFFFFFFFF in the human report"
assert_not_contains "$out" "2147483647" "sentinels: no INT_MAX in the human report"

# ---- memory temperature: NVML_FI_DEV_MEMORY_TEMP -------------------------
run_on h100-8x info -i 0 --json
want=$(mjson h100-8x 'm["nvml"]["devices"][0]["temperature"]["memory"]')
assert_json "h100-8x: temperature.memory_c from the field value" "
got = d['devices'][0]['temperature']['memory_c']
assert got == $want, got
"
run_on h100-8x info -i 0
assert_contains "$(printf '%s\n' "$out" | grep 'Memory Current Temp')" ": $want C" "h100-8x: memory temperature shown"
run_on gtx1080ti-old-driver info --json
assert_json "GTX 1080 Ti (no HBM sensor): memory_c null" "assert d['devices'][0]['temperature']['memory_c'] is None"

# ---- 470 branch: used_bytes includes the reserved memory, and says so ----
assert_json "470 driver: used_includes_reserved true, reserved_bytes null" "
mem = d['devices'][0]['memory']
assert mem['used_includes_reserved'] is True and mem['reserved_bytes'] is None, mem
"
run_on gtx1080ti-old-driver info
assert_contains "$(printf '%s\n' "$out" | grep 'Used Includes Reserved')" ": Yes" "470 driver: the human report says so"
run_on h100-8x info --json
assert_json "v2 driver: used_includes_reserved false" "
assert all(x['memory']['used_includes_reserved'] is False for x in d['devices'])
"
run_on mi300x info --json
assert_json "AMD: used_includes_reserved unknown (null)" "
assert all(x['memory']['used_includes_reserved'] is None for x in d['devices'])
"

# ---- profiling metrics through NVML's GPM (Hopper and newer) ---------------
# The first read of a GPU has nothing to compare with (null); from the
# second on, nvmlGpmMetricsGet over the two samples gives the machine's
# "gpm" values; a metric the GPU lacks, an A100 (no GPM) and a driver
# without the GPM calls say "not supported" plainly (supported false).
mkdir -p "$TMPD/gpm"
"${PYS[@]}" -c 'import json, sys
m = json.load(open(sys.argv[1]))
d = m["nvml"]["devices"]
d[0]["gpm"]["sm_util"] = [10, 20, 30]
del d[2]["gpm"]["nvlink_tx"]
d[3]["errors"] = {"nvmlGpmMetricsGet": "UNKNOWN"}
d[4]["architecture"] = 7   # an Ampere part: no GPM
json.dump(m, open(sys.argv[2], "w"))' "$MACHINES/h100-8x/machine.json" "$TMPD/gpm/machine.json"
run_with "$TMPD/gpm" watch -n 3 -d 0.05 --json --fields sm_active,sm_occupancy,tensor_active,dram_active,fp16_active,fp32_active,fp64_active,graphics_active,prof_pcie_tx,prof_pcie_rx,nvlink_tx,nvlink_rx,gpm_supported
last_cmd="[h100-8x, GPM variants] gpuwise watch -n 3 --json --fields (profiling)"
assert_eq "$rc" 0 "gpm: watch exit status"
out=$(printf '%s\n' "$out" | "${PYS[@]}" -c 'import json, sys; print(json.dumps([json.loads(l) for l in sys.stdin]))')
assert_json "gpm: the machine's values from the second read, per GPU" "
m = json.load(open('$TMPD/gpm/machine.json'))['nvml']['devices']
keys = {'sm_active_percent': 'sm_util', 'sm_occupancy_percent': 'sm_occupancy',
        'tensor_active_percent': 'any_tensor_util', 'dram_active_percent': 'dram_bw_util',
        'fp16_active_percent': 'fp16_util', 'fp32_active_percent': 'fp32_util',
        'fp64_active_percent': 'fp64_util', 'graphics_active_percent': 'graphics_util'}
rates = {'pcie_tx_bytes_per_s': 'pcie_tx', 'pcie_rx_bytes_per_s': 'pcie_rx',
         'nvlink_tx_bytes_per_s': 'nvlink_tx', 'nvlink_rx_bytes_per_s': 'nvlink_rx'}
first, second, third = (s['devices'] for s in d)
assert all(v is None for x in first for k, v in x['profiling'].items() if k != 'supported'), first[0]
assert [x['profiling']['supported'] for x in first] == [True] * 4 + [False] + [True] * 3, first
assert second[0]['profiling']['sm_active_percent'] == 10 and third[0]['profiling']['sm_active_percent'] == 20, \
    (second[0], third[0])
for i in (1, 5, 7):
    p = second[i]['profiling']
    for k, f in keys.items():
        assert p[k] == m[i]['gpm'][f], (i, k, p[k])
    for k, f in rates.items():
        assert p[k] == m[i]['gpm'][f] * 1048576, (i, k, p[k])
assert second[2]['profiling']['nvlink_tx_bytes_per_s'] is None, second[2]
assert second[2]['profiling']['nvlink_rx_bytes_per_s'] == m[2]['gpm']['nvlink_rx'] * 1048576
assert all(v is None for k, v in second[3]['profiling'].items() if k != 'supported'), second[3]
assert all(v is None for k, v in second[4]['profiling'].items() if k != 'supported'), second[4]
"
run_on gtx1080ti-old-driver info --json
assert_json "470 driver (no GPM calls): profiling not supported" "
p = d['devices'][0]['profiling']
assert p['supported'] is False and p['sm_active_percent'] is None, p
"
run_on gtx1080ti-old-driver info
assert_contains "$(printf '%s\n' "$out" | grep -A1 '^ *Profiling')" "Supported                    : No" \
	"470 driver: the human report says GPM is not supported"
run_on mi300x info --json
assert_json "AMD: profiling not supported" "
assert all(x['profiling']['supported'] is False for x in d['devices'])
"

# ---- the generated reference -------------------------------------------------
checks=$((checks + 1))
if ! msg=$("$TOP/scripts/gen-metrics-doc" --check "$GW" 2>&1); then
	fail "docs/metrics.md is not what scripts/gen-metrics-doc writes: $msg"
fi

finish
