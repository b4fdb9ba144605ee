#!/usr/bin/env bash
# The files of deploy/: the Prometheus alerting rules (promtool check rules,
# promtool test rules with deploy/prometheus/alerts_test.yml, and every
# metric they name is one `gpuwise exporter --names native` serves), the
# systemd unit (systemd-analyze verify) and the Kubernetes manifests
# (kubernetes-validate --strict, offline schemas; the ServiceMonitor, a CRD
# it has no schema for, is checked against the Service here). A tool that is
# missing is a SKIP line; scripts/setup installs them all.
. "$(dirname "$0")/lib.sh"

STARTED=()
cleanup() {
	local p
	for p in "${STARTED[@]}"; do kill -TERM "$p" 2>/dev/null; done
	rm -rf "$TMPD"
}
trap cleanup EXIT

# ---- Prometheus rules ---------------------------------------------------
if command -v promtool >/dev/null; then
	checks=$((checks + 1))
	promtool check rules deploy/prometheus/alerts.yml >"$TMPD/out" 2>&1 ||
		fail "promtool check rules: $(tail -5 "$TMPD/out")"
	checks=$((checks + 1))
	promtool test rules deploy/prometheus/alerts_test.yml >"$TMPD/out" 2>&1 ||
		fail "promtool test rules: $(head -30 "$TMPD/out")"
	# A rule that is wrong must fail the unit test (the test is not vacuous).
	sed 's/> 0.95/> 0.99/' deploy/prometheus/alerts.yml >"$TMPD/alerts.yml"
	sed 's/^  - alerts.yml/  - alerts.yml/' deploy/prometheus/alerts_test.yml >"$TMPD/alerts_test.yml"
	checks=$((checks + 1))
	! promtool test rules "$TMPD/alerts_test.yml" >/dev/null 2>&1 ||
		fail "promtool test rules passes with the memory threshold changed"
else
	echo "SKIP: promtool is not installed (scripts/setup installs prometheus)"
fi

# Every gpuwise_* name in the rules is one the exporter serves.
"$TOP/scripts/with-machine" h100-8x -- sh -c 'echo $$ >"$0"; exec "$@"' "$TMPD/pid" \
	"$GW" exporter --listen 127.0.0.1:0 --names native --per-process 2>"$TMPD/exp.err" &
STARTED+=("$!")
for i in $(seq 100); do grep -q 'listening on' "$TMPD/exp.err" 2>/dev/null && break; sleep 0.1; done
STARTED+=("$(cat "$TMPD/pid" 2>/dev/null)")
port=$(sed -n 's/.*listening on http:\/\/[^ ]*:\([0-9][0-9]*\)\/ .*/\1/p' "$TMPD/exp.err")
checks=$((checks + 1))
if [ -n "$port" ] && "$PY" -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/metrics').read().decode())" \
	>"$TMPD/native.prom"; then
	for name in $(grep -o 'gpuwise_[a-z_]*' deploy/prometheus/alerts.yml | sort -u); do
		checks=$((checks + 1))
		grep -q "^$name[{ ]" "$TMPD/native.prom" || fail "alerts.yml uses $name, which the native exporter does not serve"
	done
else
	fail "the exporter did not start: $(cat "$TMPD/exp.err")"
fi

# ---- systemd ------------------------------------------------------------
if command -v systemd-analyze >/dev/null; then
	sed "s#/usr/local/bin/gpuwise#$GW#" deploy/systemd/gpuwise-exporter.service >"$TMPD/gpuwise-exporter.service"
	checks=$((checks + 1))
	systemd-analyze verify --man=no "$TMPD/gpuwise-exporter.service" >"$TMPD/out" 2>&1 ||
		fail "systemd-analyze verify: $(tail -5 "$TMPD/out")"
	for k in DynamicUser=yes ProtectSystem=strict NoNewPrivileges=yes DevicePolicy=closed 'DeviceAllow=char-nvidia-frontend' \
		'ExecStart=/usr/local/bin/gpuwise exporter'; do
		checks=$((checks + 1))
		grep -q "^$k" deploy/systemd/gpuwise-exporter.service || fail "the systemd unit lacks $k"
	done
else
	echo "SKIP: systemd-analyze is not installed"
fi

# ---- Kubernetes ---------------------------------------------------------
# Through the venv's python, not its console script: a venv's scripts carry
# the absolute path of the python that installed them in their #! line,
# which breaks when the venv is shared between checkouts.
VPY=$TOP/build/venv/bin/python
K8S=deploy/kubernetes/gpuwise-exporter.yaml
if [ -x "$VPY" ] && "$VPY" -c 'import kubernetes_validate' 2>/dev/null; then
	checks=$((checks + 1))
	timeout 120 "$VPY" -m kubernetes_validate --strict --quiet "$K8S" >"$TMPD/out" 2>&1 || fail "kubernetes-validate: $(tail -5 "$TMPD/out")"
	sed 's/containerPort: 9400/containerPort: "ninety-four"/' "$K8S" >"$TMPD/broken.yaml"
	checks=$((checks + 1))
	! timeout 120 "$VPY" -m kubernetes_validate --strict --quiet "$TMPD/broken.yaml" >/dev/null 2>&1 ||
		fail "kubernetes-validate accepts a port that is not a number (the check is vacuous)"
else
	echo "SKIP: kubernetes-validate is not installed (scripts/setup installs it into build/venv)"
fi
checks=$((checks + 1))
msg=$("$PY" - "$K8S" <<'PYEOF' 2>&1
import sys
try:
    import yaml
except ImportError:
    print("SKIP"); sys.exit(0)
docs = {d["kind"]: d for d in yaml.safe_load_all(open(sys.argv[1])) if d}
ds, svc, sm = docs["DaemonSet"], docs["Service"], docs["ServiceMonitor"]
pod = ds["spec"]["template"]
c = pod["spec"]["containers"][0]
assert ds["spec"]["selector"]["matchLabels"].items() <= pod["metadata"]["labels"].items()
assert svc["spec"]["selector"].items() <= pod["metadata"]["labels"].items(), "the Service selects no pod"
assert sm["spec"]["selector"]["matchLabels"].items() <= svc["metadata"]["labels"].items(), "the ServiceMonitor selects no Service"
ports = {p["name"] for p in svc["spec"]["ports"]}
assert all(e["port"] in ports for e in sm["spec"]["endpoints"]), "a ServiceMonitor endpoint names no Service port"
assert {p["targetPort"] for p in svc["spec"]["ports"]} <= {p["name"] for p in c["ports"]}
assert sm["metadata"]["namespace"] in sm["spec"]["namespaceSelector"]["matchNames"]
assert c["args"][0] == "exporter" and any(e["name"] == "NODE_NAME" for e in c["env"])
assert c["readinessProbe"]["httpGet"]["path"] == "/health"
if "--kubernetes" in c["args"]:  # the kubelet's PodResources socket, read-only
    vols = {v["name"]: v for v in pod["spec"]["volumes"]}
    m = [m for m in c["volumeMounts"] if m["mountPath"] == "/var/lib/kubelet/pod-resources"]
    assert m and m[0]["readOnly"] is True, "--kubernetes without the pod-resources folder mounted read-only"
    assert vols[m[0]["name"]]["hostPath"]["path"] == "/var/lib/kubelet/pod-resources", vols
assert "NetworkPolicy" in docs, "no NetworkPolicy: anyone in the cluster reaches the status page"
np = docs["NetworkPolicy"]["spec"]
assert np["podSelector"]["matchLabels"].items() <= pod["metadata"]["labels"].items(), "the NetworkPolicy selects no pod"
assert np["policyTypes"] == ["Ingress"] and len(np["ingress"]) == 1 and np["ingress"][0]["from"], np
assert {p["port"] for p in np["ingress"][0]["ports"]} <= {p["name"] for p in c["ports"]}, "the NetworkPolicy opens no exporter port"
PYEOF
)
case $msg in SKIP) echo "SKIP: PyYAML missing, ServiceMonitor not cross-checked" ;; '') ;; *) fail "Kubernetes manifests: $msg" ;; esac

finish
