#!/usr/bin/env bash
# Grafana dashboards against a real Prometheus: the exporter runs on the
# 8x H100 fake machine once per naming scheme, a Prometheus started here on
# loopback scrapes all three, and every PromQL query of
#   - deploy/grafana/gpuwise.json (ours, native names),
#   - Grafana dashboard 12239 (dcgm-exporter names) and
#   - Grafana dashboard 14574 (nvidia_gpu_exporter names)
# runs through Prometheus' HTTP API with the dashboard's own template
# variables resolved the way Grafana resolves them (their own queries too).
# The foreign dashboards' queries are stored, with their source, in
# tests/fixtures/grafana/ (no network here). A per-GPU query must give one
# series per GPU, and for 12239 and 14574 the value the machine holds.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_exporter.sh"

if ! command -v prometheus >/dev/null; then
	echo "SKIP: prometheus is not installed (scripts/setup installs it)"
	finish
fi
export NODE_NAME=gw-dash-node
# The 8x H100 machine with two GPUs held back (clock event reasons), so the
# throttle panels have a 1 to find: GPU 2 power-capped and thermally slowed
# down, GPU 5 power-braked and idle.
M=$TMPD/h100-8x
cp -a "$MACHINES/h100-8x" "$M"
"$PY" - "$M/machine.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["nvml"]["devices"][2]["clocks_event_reasons"] = 0x4 | 0x20
m["nvml"]["devices"][5]["clocks_event_reasons"] = 0x80 | 0x1
json.dump(m, open(sys.argv[1], "w"), indent=1)
EOF
start_exporter dcgm "$M" --interval 0.5 || finish
P_DCGM=$PORT
start_exporter smi "$M" --names nvidia-smi --interval 0.5 || finish
P_SMI=$PORT
start_exporter native "$M" --names native --per-process --interval 0.5 || finish
P_NATIVE=$PORT
PPORT=$(free_port)
cat >"$TMPD/prometheus.yml" <<EOC
global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: dcgm
    static_configs: [{targets: ["127.0.0.1:$P_DCGM"]}]
  - job_name: nvidia_gpu_exporter
    static_configs: [{targets: ["127.0.0.1:$P_SMI"]}]
  - job_name: gpuwise
    static_configs: [{targets: ["127.0.0.1:$P_NATIVE"]}]
EOC
prometheus --config.file="$TMPD/prometheus.yml" --storage.tsdb.path="$TMPD/prom-data" \
	--web.listen-address=127.0.0.1:"$PPORT" >"$TMPD/prometheus.log" 2>&1 &
STARTED+=("$!")

cat >"$TMPD/dashboards.py" <<'EOF'
import json, math, os, re, sys, time, urllib.parse, urllib.request

API = "http://127.0.0.1:%s/api/v1/" % os.environ["PPORT"]
devs = json.load(open(os.environ["MJSON"]))["nvml"]["devices"]
failures = []
def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)

def get(path, **params):
    url = API + path + "?" + urllib.parse.urlencode(params, doseq=True)
    d = json.loads(urllib.request.urlopen(url, timeout=5).read())
    assert d["status"] == "success", d
    return d["data"]

def query(q):
    return get("query", query=q)["result"]

def label_values(text):
    """Grafana's label_values(SELECTOR, LABEL) through the series API."""
    m = re.fullmatch(r"\s*label_values\((.*),\s*(\w+)\s*\)\s*", text)
    assert m, text
    sel, label = m.group(1).strip(), m.group(2)
    return sorted({s[label] for s in get("series", **{"match[]": sel}) if label in s})

# Wait (bounded) until every job has been scraped a few times: rate() and
# increase() need two samples in their window.
deadline, t_first = time.time() + 40, None
while time.time() < deadline:
    try:
        n = {r["metric"]["job"]: float(r["value"][1]) for r in query("sum by (job) (count_over_time(gpuwise_gpu_up[1m]))")}
        if len(n) == 3 and min(n.values()) >= 8 * 5:
            break
    except OSError:
        pass
    time.sleep(0.5)
else:
    fail("Prometheus did not scrape the three exporters 5 times within 40 s")
    sys.exit(1)
RATE = "5s"   # $__rate_interval: Grafana's is at least 4 scrape intervals

def grafana_regex(values):
    """A multi-value variable as Grafana writes it into PromQL: (a|b|c)."""
    esc = [re.sub(r"([\\.^$*+?()\[\]{}|])", r"\\\\\1", v) for v in values]   # \\. in a PromQL string
    return esc[0] if len(esc) == 1 else "(" + "|".join(esc) + ")"

def subst(expr, var):
    for k in sorted(var, key=len, reverse=True):
        expr = expr.replace("${%s}" % k, var[k]).replace("$" + k, var[k])
    return expr

def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)

# ---- deploy/grafana/gpuwise.json ------------------------------------
dash = json.load(open(os.environ["DASH"]))
tv = {v["name"]: v for v in dash["templating"]["list"]}
if tv.get("datasource", {}).get("type") != "datasource" or tv["datasource"].get("query") != "prometheus":
    fail("gpuwise.json: the data source is not a template variable")
ids = [p["id"] for p in dash["panels"]]
if len(ids) != len(set(ids)):
    fail("gpuwise.json: panel ids repeat")
inst = label_values(tv["instance"]["query"]["query"])
if len(inst) != 1:
    fail("gpuwise.json: $instance finds %r, want the one native exporter" % inst)
var = {"instance": grafana_regex(inst), "__rate_interval": RATE}
gpus = label_values(subst(tv["gpu"]["query"]["query"], var))
if gpus != [str(i) for i in range(8)]:
    fail("gpuwise.json: $gpu finds %r" % gpus)
var["gpu"] = grafana_regex(gpus)
ntarget = 0
want_titles = {"GPU utilisation", "Memory used", "GPU temperature", "Power draw", "SM clock", "PCIe throughput",
               "Throttle reasons", "Uncorrected ECC errors (1 h)", "GPU up", "Collection time",
               "Xid errors (1 h) and the last Xid", "SM active", "Tensor, DRAM and FP pipes", "NVLink throughput"}
missing = want_titles - {p["title"] for p in dash["panels"]}
if missing:
    fail("gpuwise.json lacks the panels %s" % sorted(missing))
for p in dash["panels"]:
    if p["type"] == "row":
        continue
    if p.get("datasource", {}).get("uid") != "${datasource}":
        fail("gpuwise.json panel %r: data source %r, not ${datasource}" % (p["title"], p.get("datasource")))
    for t in p["targets"]:
        ntarget += 1
        q = subst(t["expr"], var)
        if "$" in q.replace("$1", ""):
            fail("gpuwise.json %r: a variable left in %s" % (p["title"], q))
            continue
        try:
            res = query(q)
        except Exception as e:
            fail("gpuwise.json %r: %s does not run: %s" % (p["title"], q, e))
            continue
        per_gpu = "gpu=~" in t["expr"] and not re.match(r"\s*(sum|count|avg|max|min) by \(instance\)", t["expr"])
        got = sorted(r["metric"].get("gpu", "") for r in res)
        if per_gpu and "process" in t["expr"]:
            ok = set(got) == {"0", "1", "2", "3", "5"} and len(got) == 6   # the machine's six processes
        elif per_gpu:
            ok = got == [str(i) for i in range(8)]
        else:
            ok = len(res) == 1
        vals = [float(r["value"][1]) for r in res]
        if not ok or not all(math.isfinite(v) for v in vals):
            fail("gpuwise.json %r: %s gives %d series %r (values %r)" % (p["title"], t["expr"], len(res), got, vals[:8]))
print("gpuwise.json: %d panels, %d queries run" % (len(ids), ntarget))

# ---- Grafana 12239 (dcgm-exporter names) ----------------------------
fx = json.load(open(os.path.join(os.environ["FIX"], "dashboard-12239-queries.json")))
v = {x["name"]: x for x in fx["variables"]}
inst = label_values(v["instance"]["query"])
gpus = label_values(v["gpu"]["query"])
if len(inst) != 1 or gpus != [str(i) for i in range(8)]:
    fail("12239: $instance %r, $gpu %r" % (inst, gpus))
var = {"instance": grafana_regex(inst), "gpu": grafana_regex(gpus)}
per = {   # the machine's value of each per-GPU query, by panel
    "GPU Temperature": lambda d: d["temperature"]["gpu"],
    "GPU Power Usage": lambda d: d["power"]["usage"] / 1000,
    "GPU SM Clocks": lambda d: d["clocks"]["sm"] * 1e6,
    "GPU Utilization": lambda d: d["utilization"]["gpu"],
    "GPU Framebuffer Mem Used": lambda d: d["memory"]["used"] / 1048576,
    # DCGM_FI_PROF_* from NVML's GPM (the fake's "gpm" block), a ratio 0-1
    "Tensor Core Utilization": lambda d: d["gpm"]["any_tensor_util"] / 100,
}
total = {
    "GPU Avg. Temp": sum(d["temperature"]["gpu"] for d in devs) / 8,
    "GPU Power Total": sum(d["power"]["usage"] / 1000 for d in devs),
}
# Every panel has data: DCGM_FI_PROF_* come from NVML's GPM API, which the
# fake H100s serve.
gaps_12239 = set()
seen = set()
for q in fx["queries"]:
    title, res = q["panel"], query(subst(q["expr"], var))
    seen.add(title)
    if title in per:
        got = {int(r["metric"]["gpu"]): float(r["value"][1]) for r in res}
        want = {i: float(per[title](d)) for i, d in enumerate(devs)}
        if len(res) != 8 or got.keys() != want.keys() or not all(close(got[i], want[i]) for i in want):
            fail("12239 %r: %s gives %r, the machine holds %r" % (title, q["expr"], got, want))
    elif title in total:
        if len(res) != 1 or not close(float(res[0]["value"][1]), total[title]):
            fail("12239 %r: %s gives %r, want %r" % (title, q["expr"], res, total[title]))
    elif title in gaps_12239:
        if res:
            fail("12239 %r now gives series: check its values and take it off the gap list" % title)
    else:
        fail("12239: no expectation for panel %r (%s)" % (title, q["expr"]))
print("12239: %d queries, %d per GPU checked against the machine; not served: %s"
      % (len(fx["queries"]), len(per), ", ".join(sorted(gaps_12239)) or "none"))
# Every DCGM_FI_PROF_* series gpuwise serves, through Prometheus, against
# the machine's GPM values (dcgm-exporter's units: ratios, bytes/s).
MiB = 1048576
prof = {"DCGM_FI_PROF_GR_ENGINE_ACTIVE": ("graphics_util", 0.01), "DCGM_FI_PROF_SM_ACTIVE": ("sm_util", 0.01),
        "DCGM_FI_PROF_SM_OCCUPANCY": ("sm_occupancy", 0.01), "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": ("any_tensor_util", 0.01),
        "DCGM_FI_PROF_DRAM_ACTIVE": ("dram_bw_util", 0.01), "DCGM_FI_PROF_PIPE_FP64_ACTIVE": ("fp64_util", 0.01),
        "DCGM_FI_PROF_PIPE_FP32_ACTIVE": ("fp32_util", 0.01), "DCGM_FI_PROF_PIPE_FP16_ACTIVE": ("fp16_util", 0.01),
        "DCGM_FI_PROF_PCIE_TX_BYTES": ("pcie_tx", MiB), "DCGM_FI_PROF_PCIE_RX_BYTES": ("pcie_rx", MiB),
        "DCGM_FI_PROF_NVLINK_TX_BYTES": ("nvlink_tx", MiB), "DCGM_FI_PROF_NVLINK_RX_BYTES": ("nvlink_rx", MiB)}
for name, (key, scale) in prof.items():
    got = {int(r["metric"]["gpu"]): float(r["value"][1]) for r in query('%s{job="dcgm"}' % name)}
    want = {i: d["gpm"][key] * scale for i, d in enumerate(devs)}
    if got.keys() != want.keys() or not all(close(got[i], want[i]) for i in want):
        fail("%s: %r, the machine holds %r" % (name, got, want))
print("DCGM_FI_PROF_*: %d series x 8 GPUs checked against the machine" % len(prof))
# The host label: dcgm-exporter names it hostname since its PR #655
# (release 4.6.0-4.8.3; Hostname before). 12239 uses neither, so gpuwise
# serves only the new name.
hosts = label_values("label_values(DCGM_FI_DEV_GPU_TEMP, hostname)")
if hosts != [os.environ["NODE_NAME"]]:
    fail("dcgm names: hostname is %r, want [$NODE_NAME]" % hosts)
if label_values("label_values(DCGM_FI_DEV_GPU_TEMP, Hostname)"):
    fail("dcgm names: the old Hostname label is still served")
if "Hostname" in json.dumps(fx):
    fail("12239 now uses the Hostname label: serve it too (docs/commands/exporter.md)")

# ---- Grafana 14574 (nvidia_gpu_exporter names) ----------------------
fx = json.load(open(os.path.join(os.environ["FIX"], "dashboard-14574-queries.json")))
v = {x["name"]: x for x in fx["variables"]}
jobs = label_values(v["job"]["query"])
if jobs != ["nvidia_gpu_exporter"]:
    fail("14574: $job finds %r (needs nvidia_smi_index)" % jobs)
    jobs = ["nvidia_gpu_exporter"]
var = {"job": jobs[0]}
nodes = label_values(subst(v["node"]["query"], var))
if len(nodes) != 1:
    fail("14574: $node finds %r" % nodes)
var["node"] = nodes[0] if nodes else ""
# $gpu: query_result(...) and a regex that takes the text and the value
# from each result line (Grafana's JavaScript named groups).
inner = re.fullmatch(r"query_result\((.*)\)", subst(v["gpu"]["query"], var)).group(1)
rx = re.compile(v["gpu"]["regex"].strip("/").rsplit("/", 1)[0].replace("(?<", "(?P<"))
choices = {}
for r in query(inner):
    line = "%s{%s} %s" % (r["metric"].get("__name__", ""), ",".join('%s="%s"' % kv for kv in sorted(r["metric"].items()) if kv[0] != "__name__"), r["value"][1])
    text = value = None
    for m in rx.finditer(line):
        text = m.group("text") or text
        value = m.group("value") or value
    choices[value] = text
smi_uuid = lambda d: d["uuid"][4:].lower()
if sorted(choices) != sorted(smi_uuid(d) for d in devs):
    fail("14574: $gpu offers %r" % choices)
if choices.get(smi_uuid(devs[3])) != "NVIDIA H100 80GB HBM3 #3 (%s)" % smi_uuid(devs[3])[:8]:
    fail("14574: $gpu's text for GPU 3 is %r" % choices.get(smi_uuid(devs[3])))

bits = {"gpu_idle": 0x1, "applications_clocks_setting": 0x2, "sw_power_cap": 0x4, "sync_boost": 0x10,
        "sw_thermal_slowdown": 0x20, "hw_thermal_slowdown": 0x40, "hw_power_brake_slowdown": 0x80}
def reason(name):
    return lambda d: float(d["clocks_event_reasons"] & bits[name] != 0)
def reasons_in(expr):
    return [n for n in bits if "_event_reasons_%s{" % n in expr]
per14574 = {
    "ECC Errors (uncorrected)": lambda d: d["ecc"]["uncorrected_aggregate"],
    "P-State": lambda d: d["performance_state"],
    "P-State (history)": lambda d: d["performance_state"],
    "GPU Info": lambda d: 1,
    "Compute Mode": lambda d: d["compute_mode"],
    "GPU Util": lambda d: d["utilization"]["gpu"] / 100,
    "GPU Utilization %": lambda d: d["utilization"]["gpu"] / 100,
    "Power": lambda d: d["power"]["usage"] / d["power"]["enforced_limit"],
    "Power Draw": lambda d: d["power"]["usage"] / 1000,
    "Fan": lambda d: -1 if d["fan_speed"] is None else d["fan_speed"] / 100,   # -1: the panel's "no fan"
    "Temperature": lambda d: d["temperature"]["gpu"],
    "GPU Clock": lambda d: d["clocks"]["graphics"] / d["max_clocks"]["graphics"],
    "Memory Clock": lambda d: d["clocks"]["mem"] / d["max_clocks"]["mem"],
    "Memory Alloc": lambda d: d["memory"]["used"] / d["memory"]["total"],
    "Memory Allocation": lambda d: d["memory"]["used"],
    "Memory Util": lambda d: d["utilization"]["memory"] / 100,
    "Memory Utilization %": lambda d: d["utilization"]["memory"] / 100,
    "Graphics Clock Speed": lambda d: d["clocks"]["graphics"] * 1e6,
    "Video Clock Speed": lambda d: d["clocks"]["video"] * 1e6,
    "SM Clock Speed": lambda d: d["clocks"]["sm"] * 1e6,
    "Memory Clock Speed": lambda d: d["clocks"]["mem"] * 1e6,
    "Throttling": lambda d: sum(reason(n)(d) for n in ("sw_power_cap", "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown")),
    "Energy (trailing 24h)": lambda d: 0.0,   # the fake's energy counter stands still
}
def by_expr(title, expr):
    if title == "Throttle Reasons (history)":
        return reason(reasons_in(expr)[0])
    if title == "PCIe Throughput":
        key = "tx" if "_tx_" in expr else "rx"
        return lambda d: d["pcie"][key] * 1024
    if title == "Power (energy counter vs sampled)":
        return (lambda d: 0.0) if expr.startswith("rate(") else (lambda d: d["power"]["usage"] / 1000)
    if title in ("XID Errors", "XID Errors by Code"):
        return lambda d: len(d.get("xid_events") or [])   # nvidia_smi_xid_errors_total: none on this machine
    return per14574.get(title)
# Panels whose series gpuwise does not serve, and why. The queries still run.
gaps_14574 = {
    "Recovery Action": "nvidia_smi_gpu_recovery_action (nvidia-smi's gpu_recovery_action) is not read",
    "Fan Speed %": "the H100 SXM has no fan (nvidia-smi says [N/A]; nvidia_gpu_exporter serves nothing either)",
    "GPU Processes": "nvidia_smi_compute_app_* per-process series are not served",
    "Process Memory Over Time": "nvidia_smi_compute_app_* per-process series are not served",
    "Process Collection": "nvidia_smi_compute_apps_last_collect_success is not served",
    "Fabric State": "nvidia_smi_fabric_state (NVLink fabric) is not read",
    "Last XID": "nvidia_smi_xid_last_timestamp_seconds is not served (gpuwise keeps the last Xid, not its time)",
    "MIG Memory Used": "no MIG on this machine; nvidia_smi_mig_* are not served",
    "MIG SM Activity": "no MIG on this machine; nvidia_smi_mig_* are not served",
    "MIG Tensor Activity": "no MIG on this machine; nvidia_smi_mig_* are not served",
}
checked = 0
for q in fx["queries"]:
    title = q["panel"]
    for d in devs:
        vv = dict(var, gpu=smi_uuid(d), __rate_interval=RATE)
        res = query(subst(q["expr"], vv))
        if title in gaps_14574:
            continue
        if title == "ECC Uncorrected (detail)":
            got = {r["metric"].get("kind"): float(r["value"][1]) for r in res}
            want = {"aggregate_total": d["ecc"]["uncorrected_aggregate"], "volatile_total": d["ecc"]["uncorrected_volatile"]}
            if got != want:
                fail("14574 %r GPU %s: %r, want %r" % (title, d["uuid"], got, want))
            continue
        f = by_expr(title, q["expr"])
        if f is None:
            fail("14574: no expectation for panel %r (%s)" % (title, q["expr"]))
            break
        want = float(f(d))
        if len(res) != 1 or not close(float(res[0]["value"][1]), want):
            fail("14574 %r GPU %s: %s gives %r, the machine holds %r" % (title, d["uuid"][:12], q["expr"][:120], [r["value"][1] for r in res], want))
        checked += 1
print("14574: %d queries x 8 GPUs, %d checked against the machine; not served:" % (len(fx["queries"]), checked))
for k, why in sorted(gaps_14574.items()):
    print("  %s: %s" % (k, why))
sys.exit(1 if failures else 0)
EOF
checks=$((checks + 1))
out=$(PPORT=$PPORT MJSON=$M/machine.json FIX=$TOP/tests/fixtures/grafana \
	DASH=$TOP/deploy/grafana/gpuwise.json timeout 120 "$PY" "$TMPD/dashboards.py" 2>&1)
prc=$?
printf '%s\n' "$out" | grep -v '^FAIL '
while IFS= read -r line; do
	case $line in "FAIL "*) fail "${line#FAIL }" ;; esac
done <<<"$out"
[ $prc = 0 ] || [ "$failures" -gt 0 ] || fail "the dashboard checks crashed (rc $prc): $(printf '%s' "$out" | tail -5)"
# The dashboards and alerts shipped in deploy/ never name the host label
# dcgm-exporter renamed (Hostname, now hostname).
checks=$((checks + 1))
used=$(grep -rlw Hostname "$TOP/deploy/grafana" "$TOP/deploy/prometheus")
[ -z "$used" ] || fail "deploy/ still uses the old Hostname label: $used"
finish
