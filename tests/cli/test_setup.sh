#!/usr/bin/env bash
# gpuwise setup: the plan for fake machines and for copies of them made here
# (another /etc/os-release, driver, GPU, a Python environment holding the
# wrong torch): which driver step, which torch build, what is uninstalled
# first, the JSON shape, exit codes; and, when the package index answers,
# that pip resolves a printed command to the versions printed.
. "$(dirname "$0")/lib.sh"

# derive NAME FROM [key=value...]: a copy of machine FROM in $TMPD/NAME.
#   os=ID:VERSION_ID[:ID_LIKE]   writes root/etc/os-release
#   driver=VER cuda=12080        the driver version and the CUDA it reports
#   gpu="NAME" cc=12.0           the first GPU's name and compute capability
derive() {
	local name=$1 from=$2
	shift 2
	cp -r "$MACHINES/$from" "$TMPD/$name"
	"$PY" - "$TMPD/$name" "$@" <<'PY'
import json, os, sys
d = sys.argv[1]
kv = dict(a.split("=", 1) for a in sys.argv[2:])
mj = os.path.join(d, "machine.json")
m = json.load(open(mj))
if "driver" in kv:
    old = m["nvml"]["driver_version"]
    m["nvml"]["driver_version"] = kv["driver"]
    for p in ("proc/driver/nvidia/version", "sys/module/nvidia/version"):
        f = os.path.join(d, "root", p)
        if os.path.exists(f):
            open(f, "w").write(open(f).read().replace(old, kv["driver"]))
if "cuda" in kv:
    m["nvml"]["cuda_driver_version"] = int(kv["cuda"])
    if isinstance(m.get("cuda"), dict):
        m["cuda"]["driver_version"] = int(kv["cuda"])
if "gpu" in kv:
    m["nvml"]["devices"][0]["name"] = kv["gpu"]
if "cc" in kv:
    m["nvml"]["devices"][0]["cuda_compute_capability"] = [int(x) for x in kv["cc"].split(".")]
if "os" in kv:
    parts = kv["os"].split(":")
    os.makedirs(os.path.join(d, "root/etc"), exist_ok=True)
    with open(os.path.join(d, "root/etc/os-release"), "w") as f:
        f.write('ID=%s\nVERSION_ID="%s"\nPRETTY_NAME="%s %s"\n' % (parts[0], parts[1], parts[0].capitalize(), parts[1]))
        if len(parts) > 2:
            f.write('ID_LIKE="%s"\n' % parts[2])
json.dump(m, open(mj, "w"), indent=2)
PY
}

# The step ids of $out (JSON), space-separated.
step_ids() { printf '%s' "$out" | "$PY" -c 'import json,sys; print(" ".join(s["id"] for s in json.load(sys.stdin)["steps"]))'; }
# The commands of one step of $out.
step_cmds() { printf '%s' "$out" | "$PY" -c 'import json,sys; print("\n".join(c for s in json.load(sys.stdin)["steps"] if s["id"] == sys.argv[1] for c in s["commands"]))' "$1"; }

# ---- laptop RTX 3060, driver 535 (CUDA 12.2): the newest torch of a CUDA <= 12.2 build
derive laptop "laptop-3060" os=ubuntu:22.04
run_with "$TMPD/laptop" setup --json
last_cmd="[laptop-3060 ubuntu] setup --json"
assert_eq "$rc" 0 "a plan is made"
assert_eq "$(step_ids)" "no-cuda-toolkit torch verify" "no driver step on a working driver"
assert_eq "$(step_cmds torch)" "python3 -m pip install torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 --index-url https://download.pytorch.org/whl/cu121" "the cu121 trio for driver 535"
assert_json "the JSON document" '
assert d["gpuwise_version"]
assert d["machine"]["os"]["id"] == "ubuntu" and d["machine"]["os"]["version_id"] == "22.04", d["machine"]["os"]
assert d["machine"]["driver"] == "535.183.01" and d["machine"]["driver_cuda"] == "12.2", d["machine"]
assert d["machine"]["gpus"] == [{"name": "NVIDIA GeForce RTX 3060 Laptop GPU", "vendor": "nvidia", "arch": "sm_86"}], d["machine"]["gpus"]
assert d["frameworks"] == ["torch"], d["frameworks"]
assert d["verify"] == ["gpuwise doctor --deep"], d["verify"]
for s in d["steps"]:
    assert set(s) >= {"id", "title", "why", "commands", "needs_root", "done"}, s
    assert isinstance(s["needs_root"], bool) and isinstance(s["done"], bool)
tk = [s for s in d["steps"] if s["id"] == "no-cuda-toolkit"][0]
assert tk["done"] and not tk["commands"] and "12.1" in tk["why"], tk
'
run_with "$TMPD/laptop" setup
assert_eq "$rc" 0 "text plan exits 0"
assert_contains "$out" "Install PyTorch 2.5.1 (cu121 build) with torchvision 0.20.1" "text title"
assert_contains "$out" "torchaudio==2.5.1 --index-url https://download.pytorch.org/whl/cu121" "the command, broken with a backslash"
assert_contains "$out" "gpuwise doctor --deep" "the deep check at the end"
checks=$((checks + 1))
long=$(printf '%s\n' "$out" | awk 'length($0) > 80 && $0 !~ /https?:/' | head -3)
[ -z "$long" ] || fail "text lines over 80 columns: $long"

# ---- GTX 1080 Ti on driver 470 (CUDA 11.4): a CUDA 11 build that still has sm_61
run_on gtx1080ti-old-driver setup --json
assert_eq "$rc" 0 "old driver: a plan is made"
assert_eq "$(step_ids)" "no-cuda-toolkit torch verify" "old driver: no driver step (a CUDA 11 build runs)"
assert_contains "$(step_cmds torch)" "torch==2.7.1 torchvision==0.22.1 torchaudio==2.7.1 --index-url https://download.pytorch.org/whl/cu118" "470 gets cu118"
assert_json "why names the missing Pascal kernels of the newer build" '
w = [s for s in d["steps"] if s["id"] == "torch"][0]["why"]
assert "cu128" in w and "sm_61" in w and "minor-version" in w, w
'

# ---- the same Pascal GPU on driver 570 (CUDA 12.8): cu126, not cu128
derive pascal570 gtx1080ti-old-driver driver=570.133.07 cuda=12080 os=ubuntu:24.04
run_with "$TMPD/pascal570" setup --json
last_cmd="[1080 Ti, driver 570] setup --json"
assert_eq "$rc" 0 "pascal 570: a plan"
assert_contains "$(step_cmds torch)" "torch==2.10.0 torchvision==0.25.0 torchaudio==2.10.0 --index-url https://download.pytorch.org/whl/cu126" "Pascal gets cu126"

# ---- RTX 5090 (sm_120): cu128 or later; on driver 550 the driver is upgraded first (open module)
derive rtx5090 laptop-3060 gpu="NVIDIA GeForce RTX 5090" cc=12.0 driver=590.48.01 cuda=13010 os=ubuntu:24.04
run_with "$TMPD/rtx5090" setup --json
last_cmd="[RTX 5090, driver 590] setup --json"
assert_eq "$(step_ids)" "no-cuda-toolkit torch verify" "5090 on 590: no driver step"
assert_contains "$(step_cmds torch)" "--index-url https://download.pytorch.org/whl/cu130" "5090 on 590: cu130"
derive rtx5090old laptop-3060 gpu="NVIDIA GeForce RTX 5090" cc=12.0 driver=550.54.15 cuda=12040 os=ubuntu:24.04
run_with "$TMPD/rtx5090old" setup --json
last_cmd="[RTX 5090, driver 550] setup --json"
assert_eq "$rc" 0 "5090 on 550: a plan"
assert_eq "$(step_ids)" "nvidia-driver no-cuda-toolkit torch verify" "5090 on 550: the driver first"
assert_contains "$(step_cmds nvidia-driver)" "sudo apt install -y nvidia-driver-580-open" "Blackwell: the open module"
assert_contains "$(step_cmds torch)" "whl/cu130" "planned for the new driver"

# ---- no driver: the distribution's own way, read from /etc/os-release
derive nodrv-ubuntu no-driver os=ubuntu:22.04:debian
run_with "$TMPD/nodrv-ubuntu" setup --json
last_cmd="[no-driver ubuntu] setup --json"
assert_eq "$rc" 0 "no driver: a plan"
assert_eq "$(step_ids)" "nvidia-driver no-cuda-toolkit torch verify" "no driver: the driver step first"
assert_eq "$(step_cmds nvidia-driver)" "sudo apt update
sudo apt install -y nvidia-driver-580-open
sudo reboot" "Ubuntu's driver commands"
assert_json "the driver step needs root, the others do not" '
s = {x["id"]: x for x in d["steps"]}
assert s["nvidia-driver"]["needs_root"] and not s["torch"]["needs_root"], s
assert d["machine"]["driver"] is None, d["machine"]
'
derive nodrv-rocky no-driver os=rocky:9.4:"rhel centos fedora"
run_with "$TMPD/nodrv-rocky" setup --json
last_cmd="[no-driver rocky] setup --json"
assert_contains "$(step_cmds nvidia-driver)" "repos/rhel9/x86_64/cuda-rhel9.repo" "Rocky 9: NVIDIA's rhel9 repository"
assert_contains "$(step_cmds nvidia-driver)" "sudo dnf -y module enable nvidia-driver:580-open" "Rocky 9: the dnf module"
derive nodrv-debian no-driver os=debian:12
run_with "$TMPD/nodrv-debian" setup --json
last_cmd="[no-driver debian 12] setup --json"
assert_contains "$(step_cmds nvidia-driver)" "sudo apt install -y linux-headers-amd64 nvidia-driver firmware-misc-nonfree" "Debian 12: its own packages"
assert_contains "$(step_cmds torch)" "whl/cu121" "Debian 12's driver 535 gets a CUDA <= 12.2 build"
run_on no-driver setup
assert_contains "$out" "gpuwise does not know this distribution" "no os-release: said so"

# ---- the wrong torch in the environment: uninstalled first, with the environment's own pip
derive venv laptop-3060 os=ubuntu:22.04
site=$TMPD/venv/root/opt/venv/lib/python3.12/site-packages
mkdir -p "$site/torch" "$site/torch-2.4.0+cpu.dist-info"
printf "__version__ = '2.4.0+cpu'\ncuda = None\n" >"$site/torch/version.py"
printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0+cpu\n' >"$site/torch-2.4.0+cpu.dist-info/METADATA"
run_with "$TMPD/venv" setup --python-env /opt/venv --json
last_cmd="[laptop + venv with torch 2.4.0+cpu] setup --json"
assert_eq "$rc" 0 "venv: a plan"
assert_eq "$(step_ids)" "no-cuda-toolkit torch-uninstall torch verify" "the CPU build is uninstalled first"
assert_eq "$(step_cmds torch-uninstall)" "/opt/venv/bin/python -m pip uninstall -y torch torchvision torchaudio" "uninstall with the environment's pip"
assert_contains "$(step_cmds torch)" "/opt/venv/bin/python -m pip install torch==2.5.1" "install with the environment's pip"
assert_json "verify names the environment" 'assert d["verify"] == ["gpuwise doctor --deep --python-env /opt/venv"], d["verify"]'

# ---- other frameworks
run_with "$TMPD/laptop" setup tensorflow jax cupy onnxruntime --json
last_cmd="[laptop] setup tensorflow jax cupy onnxruntime --json"
assert_eq "$rc" 0 "four frameworks: a plan"
assert_eq "$(step_cmds tensorflow)" "python3 -m pip install 'tensorflow[and-cuda]==2.20.*'" "TensorFlow with and-cuda"
assert_eq "$(step_cmds jax)" "python3 -m pip install -U 'jax[cuda12]'" "jax[cuda12] on 535"
assert_eq "$(step_cmds cupy)" "python3 -m pip install cupy-cuda12x==14.2.0" "cupy-cuda12x"
assert_eq "$(step_cmds onnxruntime)" "python3 -m pip install onnxruntime-gpu==1.31.1" "onnxruntime-gpu"
run_on gtx1080ti-old-driver setup cupy --json
assert_eq "$(step_cmds cupy)" "python3 -m pip install cupy-cuda11x==13.6.0" "CUDA 11 driver: cupy-cuda11x"
run_on h200-1x setup jax --json
assert_eq "$(step_cmds jax)" "python3 -m pip install -U 'jax[cuda13]'" "driver 580: jax[cuda13]"

# ---- AMD: the ROCm build for the gfx target
run_on mi300x setup --json
assert_eq "$rc" 0 "mi300x: a plan"
assert_contains "$(step_cmds torch)" "--index-url https://download.pytorch.org/whl/rocm" "mi300x: a ROCm build"
run_on mi300x setup tensorflow
assert_eq "$rc" 1 "mi300x tensorflow: no plan"
assert_contains "$out" "no plan for tensorflow on AMD GPUs" "said why"

# ---- an RDNA 2 card none of the ROCm builds lists: its ISA family's target
# with HSA_OVERRIDE_GFX_VERSION (data/amd_gfx.tsv), and a Radeon RX 7900
derive rx6700 mi300x
sed -i 's/^gfx_target_version 90402$/gfx_target_version 100301/' "$TMPD"/rx6700/root/sys/class/kfd/kfd/topology/nodes/*/properties
run_with "$TMPD/rx6700" setup --json
last_cmd="[gfx1031] setup --json"
assert_eq "$rc" 0 "gfx1031: a plan"
assert_contains "$(step_ids)" "torch hsa-override" "gfx1031: the override step after torch"
assert_eq "$(step_cmds hsa-override)" "export HSA_OVERRIDE_GFX_VERSION=10.3.0" "gfx1031: 10.3.0"
derive rx7900 mi300x
sed -i 's/^gfx_target_version 90402$/gfx_target_version 110000/' "$TMPD"/rx7900/root/sys/class/kfd/kfd/topology/nodes/*/properties
run_with "$TMPD/rx7900" setup --json
last_cmd="[gfx1100] setup --json"
assert_not_contains "$(step_ids)" "hsa-override" "gfx1100: no override (the builds have it)"
assert_contains "$(step_cmds torch)" "whl/rocm7.1" "gfx1100: the newest ROCm build"

# ---- the right torch already there: the step is done, nothing uninstalled
derive goodenv laptop-3060 os=ubuntu:22.04
site=$TMPD/goodenv/root/opt/venv/lib/python3.12/site-packages
mkdir -p "$site/torch" "$site/torch-2.5.1+cu121.dist-info"
printf "__version__ = '2.5.1+cu121'\ncuda = '12.1'\n" >"$site/torch/version.py"
printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1+cu121\n' >"$site/torch-2.5.1+cu121.dist-info/METADATA"
run_with "$TMPD/goodenv" setup --python-env /opt/venv --json
last_cmd="[laptop + venv with torch 2.5.1+cu121] setup --json"
assert_eq "$(step_ids)" "no-cuda-toolkit torch verify" "right torch: no uninstall"
mkdir -p "$TMPD/goodenv/root/opt/venv/conda-meta"
run_with "$TMPD/goodenv" setup --python-env /opt/venv --json
assert_json "a conda environment: pip, said why" '
w = [s for s in d["steps"] if s["id"] == "torch"][0]["why"]
assert "conda" in w and "2.5" in w, w'
assert_json "right torch: the step is done" 'assert [s["done"] for s in d["steps"] if s["id"] == "torch"] == [True], d["steps"]'

# ---- no GPU at all, usage errors
mkdir -p "$TMPD/nogpu/root"
printf '{"nvml": null, "cuda": null}\n' >"$TMPD/nogpu/machine.json"
run_with "$TMPD/nogpu" setup
last_cmd="[no GPU] setup"
assert_eq "$rc" 1 "no GPU: exit 1"
assert_contains "$out" "no NVIDIA or AMD GPU" "no GPU: said so"
run_with "$TMPD/nogpu" setup --json
assert_json "no GPU: possible is false" 'assert d["possible"] is False and d["problem"] and d["verify"] == [], d'
run_on laptop-3060 setup caffe
assert_eq "$rc" 2 "unknown framework: usage error"
assert_one_error_line "unknown framework"
run_on laptop-3060 setup --python-env /nonexistent
assert_eq "$rc" 2 "missing environment: usage error"
assert_one_error_line "missing environment"
run_on laptop-3060 setup --help
assert_eq "$rc" 0 "--help"
assert_contains "$out" "--python-env" "--help lists the options"

# ---- the package index: pip resolves a printed command to the printed versions
if "$BUILD/venv/bin/python" -m pip --version >/dev/null 2>&1; then PIPPY=$BUILD/venv/bin/python; else PIPPY=$TOP/build/venv/bin/python; fi
if [ -x "$PIPPY" ] && timeout 20 "$PIPPY" -m pip index versions onnxruntime-gpu >/dev/null 2>&1; then
	# Metadata only (--dry-run --no-deps: pip reads the index's .metadata
	# files, never the wheels): the resolved name and version must be the
	# printed ones ("==2.20.*": any 2.20 release).
	for fw in onnxruntime cupy tensorflow; do
		run_with "$TMPD/laptop" setup "$fw" --json
		cmd=$(step_cmds "$fw")
		pkg=${cmd##* }
		pkg=${pkg//\'/}
		checks=$((checks + 1))
		if timeout 120 "$PIPPY" -m pip install --dry-run --no-deps --ignore-installed --quiet --report "$TMPD/report.json" "$pkg" >"$TMPD/pip.out" 2>&1; then
			if ! msg=$("$PY" - "$TMPD/report.json" "$pkg" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
name, ver = re.match(r"([A-Za-z0-9_.-]+)(?:\[[^]]*\])?==(.*)", sys.argv[2]).groups()
got = [(i["metadata"]["name"].lower(), i["metadata"]["version"]) for i in r["install"]]
ok = len(got) == 1 and got[0][0] == name.lower() and (
    got[0][1].startswith(ver[:-1]) if ver.endswith("*") else got[0][1] == ver)
if not ok:
    print("pip resolves %s to %s" % (sys.argv[2], got))
    sys.exit(1)
PY
			); then
				fail "$msg"
			fi
		else
			fail "pip could not resolve '$pkg': $(tail -2 "$TMPD/pip.out")"
		fi
	done
else
	echo "SKIP: the package index is unreachable (or no build/venv): printed pip commands not resolved"
fi

# ---- --run: the pip steps through the environment's python (a stub here,
# logging its arguments), root steps only printed, then doctor --deep
stub=$TMPD/stubenv
mkdir -p "$stub/bin"
printf '#!/bin/sh\necho "$*" >>"%s/log"\nexit ${STUB_RC:-0}\n' "$stub" >"$stub/bin/python"
chmod +x "$stub/bin/python"
derive runm no-driver os=ubuntu:22.04
mkdir -p "$TMPD/runm/root$stub"
run_with "$TMPD/runm" setup cupy --python-env "$stub" --run
last_cmd="[no-driver ubuntu] setup cupy --run"
assert_eq "$(cat "$stub/log")" "-m pip install cupy-cuda13x==14.2.0" "--run ran the pip step in the environment"
assert_contains "$out" "skipped (Install the NVIDIA driver, 580 branch (open kernel module)): run it yourself:" "--run prints the root step"
assert_contains "$out" "[2/2] gpuwise doctor --deep --python-env $stub" "--run ends with the deep check"
assert_contains "$out" "not ready" "the deep check's verdict (no driver here)"
assert_eq "$rc" 1 "--run exits 1 when the deep check finds an error"
rm -f "$stub/log"
STUB_RC=3 run_with "$TMPD/runm" setup cupy --python-env "$stub" --run
assert_eq "$rc" 1 "--run: a failing pip step exits 1"
assert_contains "$err" "step 'cupy' failed (exit status 3): stopped" "--run says which step failed"
assert_not_contains "$out" "doctor --deep --python-env $stub"$'\n'"Hardware" "--run stops before the deep check"
run_on laptop-3060 setup --run --json
assert_eq "$rc" 2 "--run with --json: usage error"

# ---- docs/commands/setup.md and the README: their examples are what setup
# prints (SETUP_DOC_UPDATE=1 rewrites them). A marker line
#   <!-- setup-example: MACHINE [key=value...] -- ARGS... -->
# is followed by a code block holding `gpuwise ARGS` on MACHINE (a copy made
# by derive; "_" in a value stands for a space).
check_setup_examples() { # FILE MIN: FILE's examples, at least MIN of them
	local doc=$TOP/$1 n=0 marker spec mspec args kv
	while IFS= read -r marker; do
		spec=${marker#<!-- setup-example: }
		spec=${spec% -->}
		mspec=${spec%% -- *}
		args=${spec#* -- }
		n=$((n + 1))
		read -r -a kv <<<"$mspec"
		kv=("${kv[@]//_/ }")
		derive "doc$n" "${kv[@]}"
		# shellcheck disable=SC2086
		COLUMNS=80 run_with "$TMPD/doc$n" $args
		printf '$ gpuwise %s\n%s\n' "$args" "$out" >"$TMPD/example$n"
	done < <(grep '^<!-- setup-example: ' "$doc")
	"$PY" - "$doc" "$TMPD" "${SETUP_DOC_UPDATE:-0}" >"$TMPD/doccheck" <<'PY'
import re, sys
doc, tmp, update = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
text = open(doc).read()
n = [0]
bad = []
def sub(m):
    n[0] += 1
    want = open("%s/example%d" % (tmp, n[0])).read()
    if m.group(2) != want:
        bad.append(m.group(1).strip())
    return m.group(1) + "```\n" + want + "```"
new = re.sub(r"(<!-- setup-example: [^\n]*-->\n)```\n(.*?)```", sub, text, flags=re.S)
if update:
    open(doc, "w").write(new)
elif bad:
    print("out of date: " + "; ".join(bad))
PY
	checks=$((checks + 1))
	[ "$n" -ge "$2" ] || fail "$1: fewer than $2 examples"
	[ ! -s "$TMPD/doccheck" ] || fail "$1 examples: $(cat "$TMPD/doccheck") (SETUP_DOC_UPDATE=1 bash tests/cli/test_setup.sh)"
}
check_setup_examples docs/commands/setup.md 3
check_setup_examples README.md 3

finish
