#!/usr/bin/env bash
# gpuwise labels: GPU Feature Discovery's label names with values taken
# from the fake machines (checked against machine.json, not against
# gpuwise), Kubernetes' label syntax for every name and value, the Node
# Feature Discovery local feature file (--nfd: comments, an expiry
# directive in the future, the same name=value lines), and the manifests of
# deploy/kubernetes/gpuwise-labels.yaml through kubernetes-validate --strict.
. "$(dirname "$0")/lib.sh"

syntax_ok() { # the name=value lines on stdin follow Kubernetes' label rules
	"$PY" -c '
import re, sys
name = re.compile(r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$")
value = re.compile(r"^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$")
for line in sys.stdin.read().splitlines():
    if line.startswith("#"):
        continue
    k, v = line.split("=", 1)
    assert name.match(k) and len(k.split("/")[0]) <= 253, "bad name %r" % k
    assert value.match(v), "bad value %r for %s" % (v, k)
'
}

run_on h100-8x labels
assert_eq "$rc" 0 "labels exits 0"
checks=$((checks + 1))
printf '%s\n' "$out" | syntax_ok || fail "a label breaks Kubernetes' syntax: $out"
JSON_MACHINE=h100-8x
run_on h100-8x labels --json
assert_json "GFD's names with the machine's values" "
l = d['labels']
dev = m['nvml']['devices'][0]
drv = m['nvml']['driver_version'].split('.')
assert l['nvidia.com/gpu.product'] == dev['name'].replace(' ', '-'), l
assert l['nvidia.com/gpu.count'] == str(len(m['nvml']['devices'])), l
assert l['nvidia.com/gpu.memory'] == str(dev['memory']['total'] // 2**20), l
assert l['nvidia.com/gpu.compute.major'] == str(dev['cuda_compute_capability'][0]), l
assert l['nvidia.com/gpu.compute.minor'] == str(dev['cuda_compute_capability'][1]), l
assert [l['nvidia.com/cuda.driver.major'], l['nvidia.com/cuda.driver.minor'], l['nvidia.com/cuda.driver.rev']] == drv, l
cv = m['nvml']['cuda_driver_version']
assert l['nvidia.com/cuda.runtime.major'] == str(cv // 1000) and l['nvidia.com/cuda.runtime.minor'] == str(cv % 1000 // 10), l
assert l['nvidia.com/gpu.family'] == 'hopper', l
assert l['nvidia.com/gpu.present'] == 'true', l
assert l['nvidia.com/mig.capable'] == 'true', l
"
unset JSON_MACHINE
run_on h100-8x labels
plain=$out
run_on h100-8x labels --nfd
assert_eq "$rc" 0 "labels --nfd exits 0"
assert_eq "$(printf '%s\n' "$out" | grep -v '^#')" "$plain" "the NFD file holds the same name=value lines"
checks=$((checks + 1))
printf '%s\n' "$out" | "$PY" -c '
import datetime, re, sys
lines = sys.stdin.read().splitlines()
exp = [l for l in lines if l.startswith("# +expiry-time=")]
assert len(exp) == 1, lines
t = datetime.datetime.strptime(exp[0].split("=", 1)[1], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
assert t > datetime.datetime.now(datetime.timezone.utc), t
' || fail "labels --nfd has no expiry directive in the future: $out"
for m in $(machines); do
	run_on "$m" labels
	[ "$rc" = 0 ] || continue
	checks=$((checks + 1))
	printf '%s\n' "$out" | syntax_ok || fail "[$m] a label breaks Kubernetes' syntax: $out"
done
run_on no-driver labels
assert_eq "$rc" 1 "no NVIDIA GPU: exit 1"
assert_one_error_line "and one line says so"

VPY=$TOP/build/venv/bin/python
if [ -x "$VPY" ] && "$VPY" -c 'import kubernetes_validate' 2>/dev/null; then
	checks=$((checks + 1))
	timeout 120 "$VPY" -m kubernetes_validate --strict --quiet deploy/kubernetes/gpuwise-labels.yaml >"$TMPD/kv" 2>&1 ||
		fail "kubernetes-validate: $(tail -5 "$TMPD/kv")"
else
	echo "SKIP: kubernetes-validate is not installed (scripts/setup installs it into build/venv)"
fi
finish
