#!/usr/bin/env bash
# gpuwise exporter's per-link NVLink series: on h100-8x (18 links per GPU in
# its machine.json) every naming scheme serves the state and the data byte
# counters of each (GPU, link) with a "link" label, the values those of the
# machine (KiB there, bytes here); GPUs without NVLink (laptop-3060, the
# all-not-supported GPU) have no per-link series and the rest is served.
# promtool checks the native scrapes. Every process started here is killed on exit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_exporter.sh"

export NODE_NAME=gw-test-node   # dcgm's hostname label
last_cmd="gpuwise exporter (NVLink links)"

# scrape TAG MACHINE NAMES [ARGS]: one /metrics of an exporter there into $TMPD/TAG.prom.
scrape() {
	start_exporter "$1" "$2" --names "$3" --interval 0.2 "${@:4}" || return 1
	"$PY" - "$PORT" "$TMPD/$1.prom" <<'EOF'
import sys, time, urllib.request
port, out = sys.argv[1], sys.argv[2]
for _ in range(100):
    text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % port, timeout=5).read().decode()
    if "gpuwise_gpu_up{" in text:
        break
    time.sleep(0.1)
open(out, "w").write(text)
EOF
	kill -TERM "$EXP" 2>/dev/null
	# promtool's lint is for the native names: the others copy other
	# exporters' names and labels (camelCase labels, gauges named _total).
	if [ "$3" = native ] && command -v promtool >/dev/null; then
		checks=$((checks + 1))
		promtool check metrics <"$TMPD/$1.prom" >"$TMPD/$1.promtool" 2>&1 ||
			fail "promtool check metrics ($2, --names $3): $(head -20 "$TMPD/$1.promtool")"
	fi
}

# check TAG MACHINE SCHEME-LABEL: the per-link series against the machine.
check() {
	checks=$((checks + 1))
	"$PY" - "$TMPD/$1.prom" "$MACHINES/$2/machine.json" "$3" <<'EOF' || fail "per-link NVLink series of $2 ($3)"
import json, re, sys
prom, machine, idlabel = sys.argv[1], sys.argv[2], sys.argv[3]
devs = json.load(open(machine))["nvml"]["devices"]
text = open(prom).read()
series = {}
for line in text.splitlines():
    m = re.match(r'(gpuwise_nvlink_link_\w+)\{(.*)\} (\S+)$', line)
    if not m:
        continue
    labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
    key = (m.group(1), labels[idlabel], int(labels["link"]))
    assert key not in series, ("duplicate", key)
    series[key] = float(m.group(3))
want = {}
for i, d in enumerate(devs):
    ident = str(i) if idlabel == "gpu" else d["uuid"][4:].lower()
    for l, link in enumerate(d.get("nvlinks") or []):
        want[("gpuwise_nvlink_link_active", ident, l)] = 1.0 if link["state"] == "active" else 0.0
        want[("gpuwise_nvlink_link_transmitted_bytes_total", ident, l)] = link["tx_kib"] * 1024.0
        want[("gpuwise_nvlink_link_received_bytes_total", ident, l)] = link["rx_kib"] * 1024.0
assert series == want, (sorted(set(series) ^ set(want))[:6],
                        [(k, series.get(k), want.get(k)) for k in want if series.get(k) != want[k]][:6])
if want:
    assert "# TYPE gpuwise_nvlink_link_transmitted_bytes_total counter" in text
    assert "# TYPE gpuwise_nvlink_link_received_bytes_total counter" in text
    assert "# TYPE gpuwise_nvlink_link_active gauge" in text
else:
    assert "gpuwise_nvlink_link" not in text, "series without links"
assert "gpuwise_gpu_up{" in text
print("%s: %d per-link series" % (machine.split("/")[-2], len(series)))
EOF
}

scrape h100n h100-8x native --nvlink-links && check h100n h100-8x gpu
scrape h100d h100-8x dcgm --nvlink-links && check h100d h100-8x gpu
scrape h100s h100-8x nvidia-smi --nvlink-links && check h100s h100-8x uuid
checks=$((checks + 1))
grep -q '^gpuwise_nvlink_link_active{gpu="7",UUID="GPU-[^"]*",pci_bus_id="[^"]*",device="nvidia7",modelName="NVIDIA H100 80GB HBM3",hostname="gw-test-node",DCGM_FI_DRIVER_VERSION="550.54.15",link="17"} 0$' "$TMPD/h100d.prom" ||
	fail "dcgm names: GPU 7 link 17 is inactive, with dcgm-exporter's labels and link"
scrape lap laptop-3060 native --nvlink-links && check lap laptop-3060 gpu
scrape ans all-not-supported native --nvlink-links && check ans all-not-supported gpu
scrape ansd all-not-supported dcgm --nvlink-links && check ansd all-not-supported gpu

# Opt-in: without --nvlink-links an HGX node's page keeps its 266 series.
scrape h100off h100-8x dcgm
checks=$((checks + 1))
grep -q '^gpuwise_nvlink_link' "$TMPD/h100off.prom" && fail "per-link series without --nvlink-links"
grep -q '^DCGM_FI_DEV_GPU_UTIL{' "$TMPD/h100off.prom" || fail "no device series without --nvlink-links"
finish
