#!/usr/bin/env bash
# gpuwise labels: GPU Feature Discovery's label names with values taken
# from the fake machines (checked against machine.json, not against
# gpuwise), the exact label set GFD writes with its defaults on each
# machine (driver revision as printed, gpu.machine, replicas, no
# mig.strategy under strategy none, gfd.timestamp unless --no-timestamp),
# Kubernetes' label syntax for every name and value, the Node Feature
# Discovery local feature file (--nfd: comments, an expiry directive in the
# future, the same name=value lines), and the manifests of
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
assert [l['nvidia.com/cuda.driver-version.' + k] for k in ('major', 'minor', 'revision')] == drv, l
assert l['nvidia.com/cuda.driver-version.full'] == m['nvml']['driver_version'], l
cv = m['nvml']['cuda_driver_version']
assert l['nvidia.com/cuda.runtime.major'] == str(cv // 1000) and l['nvidia.com/cuda.runtime.minor'] == str(cv % 1000 // 10), l
assert l['nvidia.com/cuda.runtime-version.full'] == '%d.%d' % (cv // 1000, cv % 1000 // 10), l
assert l['nvidia.com/gpu.family'] == 'hopper', l
assert l['nvidia.com/gpu.present'] == 'true', l
assert l['nvidia.com/mig.capable'] == 'true', l
"
unset JSON_MACHINE

# exact LABELS-FILE MACHINE|/PATH [ARGS...]: labels --no-timestamp gives
# exactly the name=value lines of the file, in any order.
exact() {
	local want=$1 m=$2
	shift 2
	run_with "$m" labels --no-timestamp "$@"
	last_cmd="[$m] gpuwise labels --no-timestamp $*"
	assert_eq "$rc" 0 "exits 0"
	assert_eq "$(printf '%s\n' "$out" | sort)" "$(sort "$want")" "GFD's exact labels"
}
# What GFD (k8s-device-plugin internal/lm/) writes on each machine with its
# defaults, worked out by hand from machine.json: every part of the driver
# version as printed (535.104.05: revision 05), CUDA major = v / 1000,
# minor = v % 1000 / 10, memory in MiB, family from the compute capability,
# gpu.machine "unknown" without /sys/class/dmi/id/product_name, no
# mig.strategy under strategy none; gpu.present is gpuwise's own.
gfd_common() { # DRIVER CUDA-MAJOR CUDA-MINOR
	local IFS=.
	set -- $1 $2 $3
	cat <<EOC
nvidia.com/cuda.driver-version.full=$1.$2.$3
nvidia.com/cuda.driver-version.major=$1
nvidia.com/cuda.driver-version.minor=$2
nvidia.com/cuda.driver-version.revision=$3
nvidia.com/cuda.driver.major=$1
nvidia.com/cuda.driver.minor=$2
nvidia.com/cuda.driver.rev=$3
nvidia.com/cuda.runtime-version.full=$4.$5
nvidia.com/cuda.runtime-version.major=$4
nvidia.com/cuda.runtime-version.minor=$5
nvidia.com/cuda.runtime.major=$4
nvidia.com/cuda.runtime.minor=$5
nvidia.com/gpu.machine=unknown
nvidia.com/gpu.present=true
nvidia.com/gpu.sharing-strategy=none
nvidia.com/mps.capable=false
EOC
}
{
	gfd_common 550.54.15 12 4
	cat <<EOC
nvidia.com/gpu.compute.major=9
nvidia.com/gpu.compute.minor=0
nvidia.com/gpu.count=8
nvidia.com/gpu.family=hopper
nvidia.com/gpu.memory=81559
nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3
nvidia.com/gpu.replicas=1
nvidia.com/mig.capable=true
EOC
} >"$TMPD/h100-8x.labels"
exact "$TMPD/h100-8x.labels" h100-8x
{
	gfd_common 535.104.05 12 2
	cat <<EOC
nvidia.com/gpu.compute.major=8
nvidia.com/gpu.compute.minor=0
nvidia.com/gpu.count=2
nvidia.com/gpu.family=ampere
nvidia.com/gpu.memory=40960
nvidia.com/gpu.product=NVIDIA-A100-SXM4-40GB
nvidia.com/gpu.replicas=1
nvidia.com/mig.capable=true
EOC
} >"$TMPD/a100-mig.labels"
exact "$TMPD/a100-mig.labels" a100-mig
{
	gfd_common 535.183.01 12 2
	cat <<EOC
nvidia.com/gpu.compute.major=8
nvidia.com/gpu.compute.minor=6
nvidia.com/gpu.count=1
nvidia.com/gpu.family=ampere
nvidia.com/gpu.memory=6144
nvidia.com/gpu.product=NVIDIA-GeForce-RTX-3060-Laptop-GPU
nvidia.com/gpu.replicas=1
nvidia.com/mig.capable=false
EOC
} >"$TMPD/laptop-3060.labels"
exact "$TMPD/laptop-3060.labels" laptop-3060
{
	gfd_common 470.182.03 11 4
	cat <<EOC
nvidia.com/gpu.compute.major=6
nvidia.com/gpu.compute.minor=1
nvidia.com/gpu.count=1
nvidia.com/gpu.family=pascal
nvidia.com/gpu.memory=11264
nvidia.com/gpu.product=NVIDIA-GeForce-GTX-1080-Ti
nvidia.com/gpu.replicas=1
nvidia.com/mig.capable=false
EOC
} >"$TMPD/gtx1080ti-old-driver.labels"
exact "$TMPD/gtx1080ti-old-driver.labels" gtx1080ti-old-driver
# the AMD GPU is not labelled (GFD sees NVIDIA GPUs only)
{
	gfd_common 550.54.15 12 4
	cat <<EOC
nvidia.com/gpu.compute.major=8
nvidia.com/gpu.compute.minor=6
nvidia.com/gpu.count=1
nvidia.com/gpu.family=ampere
nvidia.com/gpu.memory=24576
nvidia.com/gpu.product=NVIDIA-GeForce-RTX-3090
nvidia.com/gpu.replicas=1
nvidia.com/mig.capable=false
EOC
} >"$TMPD/mixed-nvidia-amd.labels"
exact "$TMPD/mixed-nvidia-amd.labels" mixed-nvidia-amd
# two models: the first one's labels, its count (GFD counts per model)
{
	gfd_common 550.54.15 12 4
	cat <<EOC
nvidia.com/gpu.compute.major=7
nvidia.com/gpu.compute.minor=5
nvidia.com/gpu.count=1
nvidia.com/gpu.family=turing
nvidia.com/gpu.memory=6144
nvidia.com/gpu.product=NVIDIA-GeForce-GTX-1660
nvidia.com/gpu.replicas=1
nvidia.com/mig.capable=false
EOC
} >"$TMPD/mixed-order.labels"
exact "$TMPD/mixed-order.labels" mixed-order
run_on no-driver labels --no-timestamp
assert_eq "$rc" 1 "no-driver: exit 1"
assert_eq "$out" "" "no-driver: no labels"

# Variations on copies of the machines: the DMI product name (trimmed, then
# GFD's sanitise: other characters, a tab too, dropped, spaces as one
# dash), a driver version without a revision (GFD writes the label empty),
# and every A100 in MIG mode (GFD: replicas 0 for MIG-enabled GPUs under
# strategy none).
M=$TMPD/machines
mkdir -p "$M"
cp -a "$MACHINES/h100-8x" "$M/h100-dmi"
mkdir -p "$M/h100-dmi/root/sys/class/dmi/id"
printf '  ProLiant  DL380a\tGen11 (HPE)\n' >"$M/h100-dmi/root/sys/class/dmi/id/product_name"
sed 's|^nvidia.com/gpu.machine=.*|nvidia.com/gpu.machine=ProLiant-DL380aGen11-HPE|' "$TMPD/h100-8x.labels" >"$TMPD/h100-dmi.labels"
exact "$TMPD/h100-dmi.labels" "$M/h100-dmi"
cp -a "$MACHINES/laptop-3060" "$M/two-part"
cp -a "$MACHINES/a100-mig" "$M/all-mig"
"$PY" - "$M" <<'EOP'
import json, sys
def edit(name, f):
    p = "%s/%s/machine.json" % (sys.argv[1], name)
    m = json.load(open(p))
    f(m)
    json.dump(m, open(p, "w"), indent=1)
def two_part(m):
    m["nvml"]["driver_version"] = "555.42"
def all_mig(m):
    for d in m["nvml"]["devices"]:
        d["mig"]["current"] = d["mig"]["pending"] = 1
edit("two-part", two_part)
edit("all-mig", all_mig)
EOP
sed -e 's|^\(nvidia.com/cuda.driver-version.full\)=.*|\1=555.42|' -e 's|^\(nvidia.com/cuda.driver.*major\)=.*|\1=555|' \
	-e 's|^\(nvidia.com/cuda.driver.*minor\)=.*|\1=42|' -e 's|^\(nvidia.com/cuda.driver\(-version\)*.rev[a-z]*\)=.*|\1=|' \
	"$TMPD/laptop-3060.labels" >"$TMPD/two-part.labels"
exact "$TMPD/two-part.labels" "$M/two-part"
sed 's|^nvidia.com/gpu.replicas=.*|nvidia.com/gpu.replicas=0|' "$TMPD/a100-mig.labels" >"$TMPD/all-mig.labels"
exact "$TMPD/all-mig.labels" "$M/all-mig"

# gfd.timestamp: written unless --no-timestamp (as GFD), seconds since 1970
# taken while the command ran.
before=$(date +%s)
run_on h100-8x labels
after=$(date +%s)
assert_eq "$rc" 0 "labels exits 0"
ts=$(printf '%s\n' "$out" | sed -n 's|^nvidia.com/gfd.timestamp=||p')
checks=$((checks + 1))
case $ts in
'' | *[!0-9]*) fail "no numeric nvidia.com/gfd.timestamp: $out" ;;
*) [ "$ts" -ge "$before" ] && [ "$ts" -le "$after" ] || fail "gfd.timestamp $ts not in [$before, $after]" ;;
esac
assert_eq "$(printf '%s\n' "$out" | grep -v '^nvidia.com/gfd.timestamp=' | sort)" "$(sort "$TMPD/h100-8x.labels")" \
	"with the timestamp: the same labels besides"
run_on h100-8x labels --json
assert_json "--json has gfd.timestamp as a string of digits" "
assert d['labels']['nvidia.com/gfd.timestamp'].isdigit(), d
assert 'nvidia.com/mig.strategy' not in d['labels'], d
"

run_on h100-8x labels --no-timestamp
plain=$out
run_on h100-8x labels --nfd --no-timestamp
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
run_on h100-8x labels --nfd
assert_contains "$out" "nvidia.com/gfd.timestamp=" "the NFD file carries gfd.timestamp by default"
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
