# Helpers for the end-to-end CLI tests. Source it from tests/cli/test_*.sh:
#   . "$(dirname "$0")/lib.sh"
#   run_on h100x8 list --json     # sets $out, $err, $rc
#   assert_eq "$rc" 0 "list exits 0"
#   finish                        # prints the summary, exits 1 on any failure
# GPUWISE_BUILD (default build) picks the build: build/asan for sanitizers.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
TOP=$PWD
BUILD=${GPUWISE_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
GW=$BUILD/gpuwise
MACHINES=$TOP/tests/machines
PY=${PYTHON:-python3}
failures=0 checks=0
export GW_REPO_TOP=$TOP   # expect.py reads fake/*.map from here
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gw-cli.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT

[ -x "$GW" ] || { echo "FAIL: $GW is not built"; exit 1; }

fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
pass() { :; }

# Keep the real machine out of every test: no vendor library from the
# system, no colour, an empty root unless a test gives one.
unset LC_ALL LC_CTYPE LANG  # no locale named: UTF-8 output (cli/text.c), as most users get
unset GPUWISE_FAKE_MACHINE CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER GPUWISE_NVML_LIBRARY GPUWISE_CUDA_LIBRARY
export NO_COLOR=1
# English texts whatever the developer's language (test_language.sh checks
# the others).
unset LANGUAGE LC_MESSAGES
case ${LC_ALL:-}${LANG:-} in *zh*) export LC_ALL=C.UTF-8 ;; esac
# gpuwise run/ps/report: a private pool folder, never the machine's
# /var/tmp/gpuwise.
export GPUWISE_POOL_DIR=$TMPD/pool
EMPTY_ROOT=$TMPD/empty-root
mkdir -p "$EMPTY_ROOT"

# doctor_scenario DIR [VAR=VALUE...] [-- DOCTOR-ARGS...] : runs gpuwise doctor
# on a scenario folder of tests/doctor (its env file's variables and ARGS,
# its setup script on a private copy since setup changes modes and users),
# with the extra variables; exits with doctor's exit code.
doctor_scenario() {
	local s=$1 vars=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		vars+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	(
		unset VIRTUAL_ENV CONDA_PREFIX CUDA_HOME CUDA_PATH HSA_OVERRIDE_GFX_VERSION NVIDIA_VISIBLE_DEVICES KUBERNETES_SERVICE_HOST
		export HOME=/home/u
		args=()
		while IFS= read -r line; do
			[ -z "$line" ] && continue
			case $line in
			ARGS=*) read -ra args <<<"${line#ARGS=}" ;;
			*) export "${line%%=*}=$(eval "printf '%s' \"${line#*=}\"")" ;;
			esac
		done <"$s/env"
		if [ -f "$s/setup" ]; then
			cp -a "$s" "$TMPD/run.$BASHPID" && s=$TMPD/run.$BASHPID
			ROOT=$s/root bash "$s/setup" || exit 99
		fi
		env "${vars[@]}" "$TOP/scripts/with-machine" "$s" -- "$GW" doctor "${args[@]}" "$@"
		rc=$?
		[ "$s" = "$TMPD/run.$BASHPID" ] && rm -rf "$s"
		exit $rc
	)
}

# run CMD... : runs gpuwise with the current environment; $out $err $rc.
run() {
	"$GW" "$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	out=$(cat "$TMPD/out")
	err=$(cat "$TMPD/err")
	last_cmd="gpuwise $*"
}

# The machines: every folder of tests/machines with a machine.json.
machines() {
	local m
	for m in "$MACHINES"/*/; do
		[ -f "$m/machine.json" ] && basename "$m"
	done
}

# run_on MACHINE ARGS... : runs gpuwise against a fake machine through
# scripts/with-machine (the ◆ variables, a private root, a live sleeper).
run_on() {
	local m=$1
	shift
	run_with "$m" "$@"
	last_cmd="[$m] gpuwise $*"
}

# run_with MACHINE|/PATH ARGS... : the same without setting last_cmd; an
# absolute path is a machine folder of the test's own (a modified copy).
run_with() {
	local m=$1
	shift
	case $m in /*) ;; *) m=$MACHINES/$m ;; esac
	"$TOP/scripts/with-machine" "$m" -- "$GW" "$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	out=$(cat "$TMPD/out")
	err=$(cat "$TMPD/err")
}

# A machine.json query: mjson MACHINE 'python expression over m'.
mjson() {
	"$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$MACHINES/$1/machine.json" "$2"
}

assert_eq() { # actual expected what
	checks=$((checks + 1))
	[ "$1" = "$2" ] || fail "$3: got '$1', want '$2' ($last_cmd)${err:+; stderr: ${err:0:300}}"
}

assert_ne() { # actual unexpected what
	checks=$((checks + 1))
	[ "$1" != "$2" ] || fail "$3: got '$1' ($last_cmd)"
}

assert_contains() { # haystack needle what
	checks=$((checks + 1))
	case $1 in *"$2"*) ;; *) fail "$3: '$2' not in output of $last_cmd: ${1:0:600}" ;; esac
}

assert_not_contains() { # haystack needle what
	checks=$((checks + 1))
	case $1 in *"$2"*) fail "$3: '$2' unexpectedly in output of $last_cmd: ${1:0:600}" ;; esac
}

# Exactly one line of the form "gpuwise: ..." on stderr.
assert_one_error_line() { # what
	checks=$((checks + 1))
	local n
	n=$(printf '%s\n' "$err" | grep -c .)
	[ "$n" = 1 ] && [ "${err#gpuwise: }" != "$err" ] ||
		fail "$1: want one 'gpuwise: ...' line on stderr, got: $err ($last_cmd)"
}

# assert_json WHAT PYTHON-STATEMENTS: $out parsed as d; when $JSON_MACHINE
# is set, m is its machine.json and e its expectations (expect.py below).
# The statements use assert (with a message saying what differs).
assert_json() {
	checks=$((checks + 1))
	local msg
	if ! msg=$(printf '%s' "$out" | "$PY" -c '
import json, sys
sys.path.insert(0, sys.argv[3])
import expect
d = json.loads(sys.stdin.read())
e = expect.load(sys.argv[2]) if sys.argv[2] else None
m = e.machine if e else None
exec(sys.argv[1])
' "$2" "${JSON_MACHINE:+$MACHINES/$JSON_MACHINE}" "$TMPD" 2>&1); then
		fail "$1 ($last_cmd): $(printf '%s' "$msg" | tail -3)"
	fi
}

finish() {
	if [ "$failures" -gt 0 ]; then
		echo "$(basename "$0"): $failures of $checks checks failed"
		exit 1
	fi
	echo "$(basename "$0"): all $checks checks passed"
	exit 0
}

# What a fake machine should look like through gpuwise, computed from its
# machine.json and root/ alone (never from gpuwise's own output).
cat >"$TMPD/expect.py" <<'EOF'
import glob, json, os, re

def first(v):
    """A machine.json number; arrays give successive calls, the first is
    what a one-shot command sees."""
    if isinstance(v, list):
        return v[0] if v else None
    return v

def get(d, *path):
    for p in path:
        if not isinstance(d, dict):
            return None
        d = d.get(p)
    return first(d)

def norm_bus(b):
    dom, rest = b.split(":", 1)
    return "%04x:%s" % (int(dom, 16), rest.lower())

def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None

def amd_processes(root, bus):
    """{pid: VRAM bytes} of the amdgpu clients of GPU bus in root's
    /proc/<pid>/fdinfo/<fd> (one client counted once per pid however many
    fds reach it; VRAM from drm-memory-vram, else drm-resident-vram, else
    amdgpu 5.x's "vram mem"; None when no fd says)."""
    units = {"": 1, "B": 1, "KiB": 1024, "kB": 1024, "MiB": 1 << 20, "GiB": 1 << 30}
    procs = {}
    for path in glob.glob(os.path.join(root, "proc/[0-9]*/fdinfo/[0-9]*")):
        keys = {}
        for line in (read(path) or "").splitlines():
            k, sep, v = line.partition(":")
            if sep:
                keys.setdefault(k, v.strip())
        pdev = keys.get("drm-pdev", keys.get("pdev"))
        driver = keys.get("drm-driver", "amdgpu" if "pdev" in keys or "vram mem" in keys else None)
        if driver != "amdgpu" or not pdev or norm_bus(pdev) != bus:
            continue
        pid = int(path.split("/")[-3])
        client = keys.get("drm-client-id", keys.get("pasid", path))
        vram = None
        for k in ("drm-memory-vram", "drm-resident-vram", "vram mem"):
            if k in keys:
                n, _, u = keys[k].partition(" ")
                vram = int(n) * units[u.strip()]
                break
        procs.setdefault(pid, {})[client] = vram
    return {pid: (None if all(v is None for v in c.values()) else sum(v or 0 for v in c.values()))
            for pid, c in procs.items()}

def cuda_text(v):
    return "%d.%d" % (v // 1000, (v % 1000) // 10)

# A machine with "nvml": {"library_dir": D} runs on the fake built with
# fake/D.map, whose "local:" symbols are missing as on an old driver. What
# gpuwise shows then differs from machine.json only where the missing call
# has no equivalent: v1 memory cannot split reserved from used, and nothing
# else gives the GPU's own max PCIe generation.
def _v1_memory(dev):
    mem = dev.get("memory")
    if isinstance(mem, dict) and mem.get("used") is not None and mem.get("total") is not None:
        used, res = mem["used"], mem.get("reserved") or 0
        if isinstance(used, list) or isinstance(res, list):
            raise ValueError("v1 memory expectation for a sequence is not modelled")
        dev["memory"] = dict(mem, used=used + res, reserved=None)

def _no_gpu_max_gen(dev):
    if isinstance(dev.get("pcie"), dict):
        dev["pcie"] = dict(dev["pcie"], gpu_max_gen=None)

HIDDEN_EFFECT = {
    "nvmlDeviceGetMemoryInfo_v2": _v1_memory,
    "nvmlDeviceGetGpuMaxPcieLinkGeneration": _no_gpu_max_gen,
}
# Missing symbols gpuwise replaces with an older call that gives the same
# value: _v3 processes -> _v2, ClocksEvent -> ClocksThrottle reasons,
# TemperatureV -> Temperature, PciInfoExt -> PciInfo_v3, NumGpuCores ->
# SM count x cores per SM; the detail list is never needed.
HIDDEN_SAME = {
    "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v3",
    "nvmlDeviceGetMPSComputeRunningProcesses_v3", "nvmlDeviceGetRunningProcessDetailList",
    "nvmlDeviceGetNumGpuCores", "nvmlDeviceGetCurrentClocksEventReasons",
    "nvmlDeviceGetSupportedClocksEventReasons", "nvmlDeviceGetTemperatureV",
    "nvmlDeviceGetPciInfoExt",
}

def repo_top(mdir):
    top = os.environ.get("GW_REPO_TOP")
    return top or os.path.abspath(os.path.join(mdir, "..", "..", ".."))

def hidden_symbols(library_dir, top):
    """The symbols fake/<library_dir>.map keeps local (a linker version script)."""
    if not library_dir:
        return set()
    with open(os.path.join(top, "fake", library_dir + ".map")) as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    local = re.search(r"local:(.*?)}", text, re.S)
    return {t.strip() for t in local.group(1).split(";") if t.strip() and t.strip() != "*"} if local else set()

def visible_device(dev, hidden):
    """dev as NVML without the hidden symbols lets gpuwise see it."""
    unknown = hidden - set(HIDDEN_EFFECT) - HIDDEN_SAME
    if unknown:
        raise ValueError("expect.py does not know what gpuwise shows without %s" % sorted(unknown))
    dev = json.loads(json.dumps(dev))
    for sym in sorted(hidden & set(HIDDEN_EFFECT)):
        HIDDEN_EFFECT[sym](dev)
        for g in (dev.get("mig") or {}).get("devices") or []:
            HIDDEN_EFFECT[sym](g)
    return dev

class Expect:
    def __init__(self, mdir):
        self.dir = mdir
        self.machine = m = json.load(open(os.path.join(mdir, "machine.json")))
        self.root = os.path.join(mdir, "root")
        self.nvml = m.get("nvml")
        self.cuda = m.get("cuda")
        n = self.nvml or {}
        self.nvml_ok = self.nvml is not None and n.get("init", "SUCCESS") == "SUCCESS"
        # Symbols the machine's fake library lacks (an old driver).
        self.hidden = hidden_symbols(n.get("library_dir"), repo_top(mdir))
        # NVIDIA devices NVML serves, in NVML order: "dev" as gpuwise can
        # see it through that library, "raw" as machine.json has it.
        self.nvidia = []
        if self.nvml_ok:
            for i, dev in enumerate(n.get("devices", [])):
                errs = dev.get("errors") or {}
                self.nvidia.append({"nvml_index": i, "dev": visible_device(dev, self.hidden), "raw": dev,
                                    "lost": "*" in errs,
                                    "bus": norm_bus(dev["pci"]["bus_id"]), "errors": errs})
        # GPUs on the fake PCI bus (display class 0x03), by bus id.
        self.pci = {}
        for p in sorted(glob.glob(os.path.join(self.root, "sys/bus/pci/devices/*"))):
            cls = read(p + "/class") or ""
            vendor = (read(p + "/vendor") or "").lower()
            if not cls.startswith("0x03") or vendor not in ("0x10de", "0x1002", "0x8086"):
                continue
            drv = os.path.basename(os.readlink(p + "/driver")) if os.path.islink(p + "/driver") else ""
            self.pci[os.path.basename(p).lower()] = {"vendor": vendor, "driver": drv, "path": p}
        # AMD GPUs served by amdgpu.
        self.amd = []
        for bus, p in sorted(self.pci.items()):
            if p["vendor"] == "0x1002" and p["driver"] == "amdgpu":
                vram = read(p["path"] + "/mem_info_vram_total")
                self.amd.append({"bus": bus, "vram": int(vram) if vram else None,
                                 "name": read(p["path"] + "/product_name"),
                                 "procs": amd_processes(self.root, bus)})
        self.gfx_targets = set()
        for node in glob.glob(os.path.join(self.root, "sys/class/kfd/kfd/topology/nodes/*")):
            name = read(node + "/name")
            if name and name.startswith("gfx"):
                self.gfx_targets.add(name)
        # GPUs on the bus that no vendor backend can read. An Intel iGPU
        # is listed from the PCI bus, but gpuwise reads nothing from it:
        # it is "unsupported", never counted as readable.
        self.intel = sorted(b for b, p in self.pci.items() if p["vendor"] == "0x8086")
        served = {d["bus"] for d in self.nvidia if not d["lost"]} | {a["bus"] for a in self.amd}
        self.unreadable_buses = sorted(b for b in self.pci if b not in served)
        self.healthy_nvidia = [d for d in self.nvidia if not d["lost"]]
        self.readable = len(self.healthy_nvidia) + len(self.amd)
        self.exit_code = 0 if self.readable else 1

    def cuda_index(self, nvml_index):
        """CUDA's index of an NVML device under the default FASTEST_FIRST
        order, or None when it cannot be predicted here."""
        c = self.cuda or {}
        if not self.cuda or c.get("init", "SUCCESS") != "SUCCESS" or any(d["lost"] for d in self.nvidia):
            return None
        order = c.get("fastest_first_order")
        if order is None:
            return nvml_index
        return order.index(nvml_index) if nvml_index in order else None

def load(mdir):
    return Expect(mdir)

def by_bus(devices, bus):
    for d in devices:
        if d.get("pci_bus_id") == bus:
            return d
    return None
EOF
