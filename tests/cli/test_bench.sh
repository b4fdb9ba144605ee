#!/usr/bin/env bash
# gpuwise bench against the fake libcuda: the figures a fake machine
# declares ("bench" in machine.json) come back within a tolerance, the
# spec column and percent_of_spec come from data/gpu_specs.tsv, GEMMs run
# through the fake cuBLASLt (checked on a small product), NVML's view
# during the run is reported, a down-trained PCIe link or a power cap makes
# a LOW verdict with its cause, --tests selects, bad names exit 2, and no
# CUDA driver is a clear error with exit 1. Numbers on the fake mean nothing
# about real GPUs: only that gpuwise measures and reports what it is given.
. "$(dirname "$0")/lib.sh"

SPEC=$TOP/data/gpu_specs.tsv

# A copy of h100-8x (after IDLE is made: of IDLE) with machine.json edited
# by a Python statement over m (d = m["nvml"]["devices"][0], the GPU bench
# measures by default).
variant() { # name statement
	local dir=$TMPD/$1
	cp -r "${VARIANT_BASE:-$MACHINES/h100-8x}" "$dir"
	"$PY" - "$dir/machine.json" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
d = m["nvml"]["devices"][0]
exec(sys.argv[2])
json.dump(m, open(sys.argv[1], "w"), indent=1)
PY
	echo "$dir"
}

# h100-8x with GPU 0 idle: on h100-8x itself a training run holds it, and
# bench refuses a busy GPU (tested below).
IDLE=$(variant idle 'd["processes"] = {"compute": [], "graphics": []}; d["utilization"] = {"gpu": 0, "memory": 0}')
VARIANT_BASE=$IDLE

# --- the declared figures, the spec table, percent_of_spec ----------------------
last_cmd="bench --json"
run_on "$IDLE" bench --quick --json --tests d2d-copy,h2d-pinned,d2h-pinned,h2d-pageable,launch-latency,gemm-bf16,p2p
assert_eq "$rc" 0 "bench exits 0"
assert_json "figures match machine.json and the spec table" '
import csv
rows = [r for r in csv.reader((l for l in open("'"$SPEC"'") if not l.startswith("#")), delimiter="\t")]
head = rows[0]; h100 = dict(zip(head, [r for r in rows if r[0] == "H100-SXM5-80GB"][0]))
b = json.load(open("'"$MACHINES"'/h100-8x/machine.json"))["nvml"]["devices"][0]["bench"]
assert d["device"]["index"] == 0 and d["device"]["cuda_index"] == 0, d["device"]
assert d["device"]["spec_name"] == "H100-SXM5-80GB", d["device"]
assert d["device"]["spec_pcie"] == {"gen": 5, "width": 16}, d["device"]
res = {r["test"]: r for r in d["results"]}
assert [r["test"] for r in d["results"]] == ["d2d-copy", "h2d-pinned", "d2h-pinned", "h2d-pageable", "gemm-bf16", "launch-latency", "p2p"], list(res)
def near(a, b, tol=0.03): return abs(a - b) <= tol * b
want = {"d2d-copy": b["memory_gbs"] * 1e9, "h2d-pinned": b["h2d_gbs"] * 1e9, "d2h-pinned": b["d2h_gbs"] * 1e9,
        "h2d-pageable": b["h2d_pageable_gbs"] * 1e9, "launch-latency": b["launch_us"] * 1e-6, "p2p": b["p2p_gbs"] * 1e9}
for t, v in want.items():
    r = res[t]
    assert r["status"] == "ok", r
    assert near(r["value"], v), (t, r["value"], v)
    assert r["unit"] == ("s" if t == "launch-latency" else "B/s"), r
spec = {"d2d-copy": float(h100["bandwidth_gbs:u"]) * 1e9, "h2d-pinned": 3.938 * 16 * 1e9}
for t, s in spec.items():
    r = res[t]
    assert abs(r["spec"] - s) < 1e6, (t, r["spec"], s)
    assert abs(r["percent_of_spec"] - 100 * r["value"] / r["spec"]) < 0.06, r
assert res["launch-latency"]["spec"] is None and res["launch-latency"]["percent_of_spec"] is None
assert res["gemm-bf16"]["status"] == "ok" and abs(res["gemm-bf16"]["value"] - b["tflops"]["bf16"] * 1e12) < 0.03 * b["tflops"]["bf16"] * 1e12, res["gemm-bf16"]
assert abs(res["gemm-bf16"]["spec"] - float(h100["bf16_tflops"]) * 1e12) < 1e9, res["gemm-bf16"]
assert res["d2d-copy"]["bytes"] > 0 and "read + written" in res["d2d-copy"]["message"]
dur = res["d2d-copy"]["during"]
assert dur["samples"] >= 3 and dur["sm_mhz_max"] == 1980 and dur["max_sm_mhz"] == 1980, dur
assert dur["pcie"] == {"gen": 5, "width": 16, "max_gen": 5, "max_width": 16}, dur
assert dur["power_limit_w"] == 700.0 and dur["throttle_reasons"] == [], dur
'

# --- human output ----------------------------------------------------------------
run_on "$IDLE" bench --quick --tests d2d-copy,launch-latency
assert_eq "$rc" 0 "human bench exits 0"
assert_contains "$out" "datasheet: H100-SXM5-80GB" "names the spec row"
assert_contains "$out" "d2d-copy        2900 GB/s     3350 GB/s     87 %  ok" "d2d-copy line"
assert_contains "$out" "launch-latency  2.50 us" "latency line"
assert_not_contains "$err" "warning" "no warning when figures are fine"
assert_not_contains "$err" "[1/2]" "no progress when stderr is not a terminal"

# --- a PCIe link trained down under load: LOW with its cause ----------------------
m=$(variant downtrained 'd["pcie"].update(curr_gen=3, curr_width=8); d["bench"].update(h2d_gbs=6.0, d2h_gbs=6.2)')
last_cmd="bench (Gen3 x8 link)"
run_with "$m" bench --quick --json --tests h2d-pinned,d2h-pinned
assert_eq "$rc" 0 "a low figure is a result (exit 0)"
assert_json "LOW with pcie-link-downtrained" '
for r in d["results"]:
    assert r["status"] == "low", r
    assert r["causes"] == ["pcie-link-downtrained"], r
    assert r["during"]["pcie"] == {"gen": 3, "width": 8, "max_gen": 5, "max_width": 16}, r["during"]
    assert r["percent_of_spec"] < 70, r
'
run_with "$m" bench --quick --tests h2d-pinned
assert_contains "$out" "h2d-pinned      6.00 GB/s     63.0 GB/s     10 %  LOW (under 70 %)" "the verdict column says LOW"
assert_contains "$err" "gpuwise: warning: h2d-pinned at 10 % of the datasheet's 63.0 GB/s" "warning on stderr"
assert_contains "$err" "PCIe Gen3 x8 under load; GPU and slot allow Gen5 x16, the GPU itself Gen5 x16" "link named"
assert_contains "$err" "reseat the card" "advice given"

# --- a slot that allows less than the GPU -----------------------------------------
m=$(variant slot 'd["pcie"].update(curr_gen=4, max_gen=4, curr_width=16); d["bench"].update(h2d_gbs=25.0)')
run_with "$m" bench --quick --json --tests h2d-pinned
assert_json "LOW with pcie-slot-limited" '
r = d["results"][0]
assert r["status"] == "low" and r["causes"] == ["pcie-slot-limited"], r
'

# --- power cap and clocks held low ------------------------------------------------
m=$(variant powercap 'd["clocks_event_reasons"] = 4; d["clocks"]["sm"] = 1200; d["bench"]["memory_gbs"] = 1500.0')
run_with "$m" bench --quick --json --tests d2d-copy
assert_json "LOW with power-capped" '
r = d["results"][0]
assert r["status"] == "low" and r["causes"] == ["power-capped"], r
assert r["during"]["throttle_reasons"] == ["sw_power_cap"], r["during"]
assert r["during"]["sm_mhz_min"] == 1200, r["during"]
'
m=$(variant locked 'd["clocks_event_reasons"] = 0; d["clocks"]["sm"] = 900; d["bench"]["memory_gbs"] = 1500.0')
run_with "$m" bench --quick --json --tests d2d-copy
assert_json "LOW with clocks-held-low" '
r = d["results"][0]
assert r["status"] == "low" and r["causes"] == ["clocks-held-low"], r
'

# --- a GPU not in the spec table: figures without a peak -----------------------------
m=$(variant unknown 'd["name"] = "NVIDIA Imaginary 9000"; d["pcie"]["gpu_max_gen"] = 4')
run_with "$m" bench --quick --json --tests d2d-copy,h2d-pinned
assert_json "no spec row: null spec, NVML link for PCIe" '
assert d["device"]["spec_name"] is None, d["device"]
r = {x["test"]: x for x in d["results"]}
assert r["d2d-copy"]["spec"] is None and r["d2d-copy"]["status"] == "ok", r["d2d-copy"]
assert abs(r["h2d-pinned"]["spec"] - 1.969 * 16e9) < 1e6, r["h2d-pinned"]
'

# --- selection and usage errors ----------------------------------------------------
run_on "$IDLE" bench --quick --json --tests launch-latency --tests d2d-copy -i 4
assert_eq "$rc" 0 "-i and repeated --tests"
assert_json "--tests keeps the run order; -i picks the GPU" '
assert [r["test"] for r in d["results"]] == ["d2d-copy", "launch-latency"], d["results"]
assert d["device"]["index"] == 4 and d["device"]["cuda_index"] == 4, d["device"]
'
run_on "$IDLE" bench --tests d2d-copy,nope
assert_eq "$rc" 2 "an unknown test is a usage error"
assert_contains "$err" "no test 'nope'" "names the bad test"
run_on "$IDLE" bench -i 0 -i 1
assert_eq "$rc" 2 "two GPUs is a usage error"
assert_contains "$err" "-i 0,1 names 2 GPUs" "says that two GPUs were named"
run_on "$IDLE" bench -i 4,6
assert_eq "$rc" 2 "a list of GPUs is a usage error"
assert_contains "$err" "gpuwise: bench measures one GPU at a time: -i 4,6 names 2 GPUs; give one" "which says so (not 'give -i once')"
run_on "$IDLE" bench -i 42 --tests launch-latency
assert_eq "$rc" 1 "no such GPU"
assert_contains "$err" "gpuwise: " "says so"

# --- a busy GPU or one in MIG mode is refused (a busy one measured with --force) ----
run_on h100-8x bench --quick --tests launch-latency
assert_eq "$rc" 1 "a GPU another process computes on is refused"
assert_contains "$err" "gpuwise: GPU 0 is busy: 1 other process computes on it" "says why"
assert_contains "$err" "  pid " "names the process"
assert_contains "$err" "--force" "says how to measure anyway"
assert_eq "$out" "" "measures nothing"
# list has no utilisation column: bench names the idle GPUs itself.
assert_not_contains "$err" "list shows utilisation" "no pointer to a column list does not have"
assert_contains "$(printf '%s' "$err" | tr '\n' ' ')" "Idle GPUs: 4, 6, 7 (pick one, e.g. -i 4)" "names the idle GPUs"
run_on h100-8x bench --quick --tests launch-latency -i 5
assert_contains "$(printf '%s' "$err" | tr '\n' ' ')" "Idle GPUs: 4, 6, 7" "-i on a busy GPU: the idle ones named too"
m=$(variant allbusy 'd["utilization"]["gpu"] = 45; m["nvml"]["devices"] = m["nvml"]["devices"][:1]; m["cuda"]["fastest_first_order"] = [0]')
run_with "$m" bench --quick --tests launch-latency
assert_contains "$(printf '%s' "$err" | tr '\n' ' ')" "No NVIDIA GPU is idle now" "no idle GPU: says so"
run_on h100-8x bench --quick --json --tests launch-latency
assert_eq "$rc:$out" "1:" "--json: refused too, no half document"
run_on h100-8x bench --quick --tests launch-latency --force
assert_eq "$rc" 0 "--force measures a busy GPU"
assert_contains "$out" "launch-latency  2.50 us" "and reports it"
m=$(variant utilbusy 'd["utilization"]["gpu"] = 45')
run_with "$m" bench --quick --tests launch-latency
assert_eq "$rc" 1 "45 % utilisation without a listed process is busy"
assert_contains "$err" "gpuwise: GPU 0 is busy: 45 % utilisation" "says how busy"
m=$(variant utilidle 'd["utilization"]["gpu"] = 19')
run_with "$m" bench --quick --tests launch-latency
assert_eq "$rc" 0 "19 % utilisation is not busy"
m=$(variant desktop 'd["processes"]["graphics"] = [{"pid": "$SLEEPER", "used_gpu_memory": 268435456}]')
run_with "$m" bench --quick --tests launch-latency
assert_eq "$rc" 0 "a graphics client (a desktop) does not make the GPU busy"
run_on a100-mig bench --quick --tests launch-latency -i 0
assert_eq "$rc" 1 "a GPU in MIG mode is refused"
assert_contains "$err" "gpuwise: GPU 0 is in MIG mode: CUDA sees its MIG instances, not the GPU" "says why"
assert_contains "$err" "nvidia-smi -i 0 -mig 0" "says how to leave MIG mode"
run_on a100-mig bench --quick --tests launch-latency -i 0 --force
assert_eq "$rc" 1 "--force does not make a MIG GPU a whole GPU"

# --- a GPU bench cannot measure: lost, AMD, hidden from CUDA --------------------------
run_on lost-gpu bench --quick --tests launch-latency -i 2
assert_eq "$rc" 1 "a lost GPU is refused"
assert_contains "$err" "gpuwise: GPU 2 cannot be measured: it is lost: GPU is lost" "says it is lost, as list does"
assert_one_error_line "lost GPU"
run_on mi300x bench --quick --tests launch-latency
assert_eq "$rc" 1 "an AMD machine is refused"
assert_contains "$err" "bench supports NVIDIA GPUs only" "says bench is for NVIDIA GPUs"
assert_not_contains "$err" "no CUDA driver" "not that CUDA is missing"
run_on mixed-nvidia-amd bench --quick --tests launch-latency -i 1
assert_contains "$err" "GPU 1 (AMD Radeon RX 7900 XTX) is not an NVIDIA GPU" "-i naming an AMD GPU: says so"
CUDA_VISIBLE_DEVICES=1 run_on "$IDLE" bench --quick --tests launch-latency -i 4
assert_eq "$rc" 1 "a GPU hidden from CUDA is refused"
assert_contains "$err" 'CUDA cannot use GPU 4: its CUDA index is none (hidden by CUDA_VISIBLE_DEVICES="1")' "says why"

# --- device copies through the copy engine: their own figure ---------------------
m=$(variant copyengine 'd["bench"]["memory_ce_gbs"] = 2500.0')
run_with "$m" bench --quick --json --tests d2d-copy-ce,d2d-copy
last_cmd="bench --tests d2d-copy-ce,d2d-copy (memory_ce_gbs 2500)"
assert_eq "$rc" 0 "copy-engine test exits 0"
assert_json "d2d-copy-ce is cuMemcpyDtoD at its own rate, beside the kernel copy" '
r = {x["test"]: x for x in d["results"]}
assert [x["test"] for x in d["results"]] == ["d2d-copy", "d2d-copy-ce"], d["results"]
assert abs(r["d2d-copy-ce"]["value"] - 2500e9) < 0.03 * 2500e9, r["d2d-copy-ce"]
assert abs(r["d2d-copy"]["value"] - 2900e9) < 0.03 * 2900e9, r["d2d-copy"]
assert r["d2d-copy-ce"]["message"].startswith("copy engine (cuMemcpyDtoDAsync); bytes read + written"), r
assert r["d2d-copy-ce"]["spec"] == r["d2d-copy"]["spec"] == 3350e9, r
'

# --- host buffers on the GPU's local CPUs (sysfs local_cpulist) ------------------
# GPU 0's PCI folder in the machine's root gets a local_cpulist: bench binds
# to those of them this process may use (taskset's mask here) before it
# allocates host buffers, and says which; without the file, or with none of
# them allowed, or garbage, it says why it did not.
cpus_variant() { # name cpulist
	variant "$1" 'import os
os.makedirs(os.path.dirname(sys.argv[1]) + "/root/sys/bus/pci/devices/0000:18:00.0", exist_ok=True)
open(os.path.dirname(sys.argv[1]) + "/root/sys/bus/pci/devices/0000:18:00.0/local_cpulist", "w").write("'"$2"'\n")'
}
first_cpu=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//; s/[-,].*//')
if [ -n "$first_cpu" ]; then
	m=$(cpus_variant numa "$first_cpu,1000-1023")
	run_with "$m" bench --quick --json --tests h2d-pinned
	last_cmd="bench (local_cpulist $first_cpu,1000-1023)"
	assert_eq "$rc" 0 "bench with a local_cpulist exits 0"
	assert_json "bound to the local CPUs it may use" '
assert d["device"]["host_cpus"] == "'"$first_cpu"'", d["device"]
assert d["device"]["host_cpus_note"] is None, d["device"]
'
	run_with "$m" bench --quick --tests h2d-pinned
	assert_contains "$out" "host buffers: on CPUs $first_cpu, the GPU's local CPUs" "human output says where"
fi
m=$(cpus_variant farcpus "1000-1023")
run_with "$m" bench --quick --json --tests h2d-pinned
assert_json "none of the local CPUs allowed: not bound, says why" '
assert d["device"]["host_cpus"] is None, d["device"]
assert d["device"]["host_cpus_note"] == "none of the GPU'"'"'s local CPUs is allowed to this process", d["device"]
'
m=$(cpus_variant badcpus "0-zz")
run_with "$m" bench --quick --json --tests h2d-pinned
assert_json "garbage local_cpulist: not bound, says why" '
assert d["device"]["host_cpus_note"] == "the GPU'"'"'s local_cpulist is unreadable", d["device"]
'
run_on "$IDLE" bench --quick --json --tests h2d-pinned
assert_json "no local_cpulist: says so" '
assert d["device"]["host_cpus"] is None and d["device"]["host_cpus_note"] == "sysfs has no local_cpulist for the GPU", d["device"]
'
run_on "$IDLE" bench --quick --json --tests launch-latency
assert_json "no host buffer test: nothing bound, nothing to say" '
assert d["device"]["host_cpus"] is None and d["device"]["host_cpus_note"] is None, d["device"]
'

# --- no CUDA driver, a CUDA that cannot start ----------------------------------------
m=$(variant nocuda 'm["cuda"] = None')
last_cmd="bench (no libcuda)"
run_with "$m" bench --tests launch-latency
assert_eq "$rc" 1 "no CUDA driver exits 1"
assert_contains "$err" "gpuwise: no CUDA driver: bench needs libcuda.so.1" "clear message"
assert_one_error_line "no CUDA driver"
m=$(variant cudainit 'm["cuda"]["init"] = "SYSTEM_DRIVER_MISMATCH"')
run_with "$m" bench --tests launch-latency
assert_eq "$rc" 1 "cuInit failing exits 1"
assert_contains "$err" "the CUDA driver cannot be used" "says why"

# --- a driver without cuGetProcAddress (CUDA 11.2: the legacy fake build) ---------------
export GPUWISE_CUDA_LIBRARY=$BUILD/fake/cuda-11.2/libcuda.so.1
run_on "$IDLE" bench --tests launch-latency
unset GPUWISE_CUDA_LIBRARY
assert_eq "$rc" 1 "a driver without cuGetProcAddress exits 1"
assert_contains "$err" "has no cuGetProcAddress: bench needs a CUDA 11.3 or newer driver" "says which driver is needed"
assert_one_error_line "old driver"

# --- a single GPU: p2p is skipped, not failed ----------------------------------------
m=$(variant single 'm["nvml"]["devices"] = m["nvml"]["devices"][:1]; m["cuda"]["fastest_first_order"] = [0]')
run_with "$m" bench --quick --json --tests p2p
assert_eq "$rc" 0 "p2p on one GPU exits 0"
assert_json "p2p skipped" '
r = d["results"][0]
assert r["status"] == "skipped" and "two or more GPUs" in r["message"], r
'

# --- out of device memory: the copy tests fail cleanly, exit 1 -------------------------
m=$(variant full 'd["memory"]["used"] = d["memory"]["total"] - d["memory"]["reserved"] - 4096')
run_with "$m" bench --quick --json --tests d2d-copy,launch-latency
assert_eq "$rc" 1 "a failed test exits 1"
assert_json "allocation failure reported per test" '
r = {x["test"]: x for x in d["results"]}
assert r["d2d-copy"]["status"] == "failed" and "CUDA_ERROR_OUT_OF_MEMORY" in r["d2d-copy"]["message"], r
assert r["launch-latency"]["status"] == "ok", r
'

# --- GEMM through cuBLASLt (the fake libcublasLt) --------------------------------------
run_on "$IDLE" bench --quick --json --tests gemm-fp32,gemm-tf32,gemm-fp16,gemm-bf16,gemm-fp8
assert_eq "$rc" 0 "gemm tests exit 0"
assert_json "GEMM TFLOPS match machine.json, spec from the table" '
import csv
rows = [r for r in csv.reader((l for l in open("'"$SPEC"'") if not l.startswith("#")), delimiter="\t")]
h100 = dict(zip(rows[0], [r for r in rows if r[0] == "H100-SXM5-80GB"][0]))
t = json.load(open("'"$MACHINES"'/h100-8x/machine.json"))["nvml"]["devices"][0]["bench"]["tflops"]
for r in d["results"]:
    p = r["test"].split("-")[1]
    assert r["status"] == "ok", r
    assert r["unit"] == "FLOP/s", r
    assert abs(r["value"] - t[p] * 1e12) <= 0.03 * t[p] * 1e12, (r["test"], r["value"], t[p])
    assert abs(r["spec"] - float(h100[p + "_tflops"]) * 1e12) < 1e9, r
    assert abs(r["percent_of_spec"] - 100 * r["value"] / r["spec"]) < 0.06, r
    assert "checked on a 64^3 product" in r["message"], r
    assert r["during"]["samples"] >= 3, r
'
m=$(variant ampere 'd["name"] = "NVIDIA A100-SXM4-80GB"; d["cuda_compute_capability"] = [8, 0]; d["architecture"] = 7')
run_with "$m" bench --quick --json --tests gemm-bf16,gemm-fp8
assert_json "no FP8 before compute capability 8.9" '
r = {x["test"]: x for x in d["results"]}
assert r["gemm-fp8"]["status"] == "skipped" and "compute capability 8.9" in r["gemm-fp8"]["message"], r
assert r["gemm-bf16"]["status"] == "ok" and abs(r["gemm-bf16"]["spec"] - 312e12) < 1e9, r
'
export GPUWISE_CUBLASLT_LIBRARY=$TMPD/no-such-libcublasLt.so.12
run_on "$IDLE" bench --quick --json --tests gemm-bf16,launch-latency
unset GPUWISE_CUBLASLT_LIBRARY
assert_eq "$rc" 0 "no cuBLASLt: skipped, not failed"
assert_json "no cuBLASLt says so" '
r = d["results"][0]
assert r["status"] == "skipped" and "cuBLASLt not found" in r["message"], r
assert d["results"][1]["status"] == "ok"
'

finish
