#!/usr/bin/env python3
"""Generates the doctor scenarios: OUT/<name>/ with machine.json,
root/ (a copy of a tests/machines machine, changed as the scenario says),
`env` (KEY=VALUE lines; ARGS= extra doctor arguments), optional `setup`
(bash, run with $ROOT set to the private copy of root/ before doctor runs)
and `expected` (the exact set of finding ids doctor must report).

The output is committed as tests/doctor/<name>/ (regenerate with
`python3 tests/doctor/make_scenarios.py tests/doctor` after editing this
file); tests/cli/test_doctor.sh runs the committed folders and fails when
they differ from what this script makes.
Each scenario says in `about` what it models and which ids it is for;
near-miss scenarios check that an id does NOT fire just short of its
condition."""
import json, os, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))
MACHINES = os.path.join(HERE, "..", "machines")
SP = "/venv/lib/python3.11/site-packages"


def put(root, path, text=""):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def mkdir(root, path):
    os.makedirs(os.path.join(root, path.lstrip("/")), exist_ok=True)


def rm(root, path):
    full = os.path.join(root, path.lstrip("/"))
    if os.path.isdir(full) and not os.path.islink(full):
        shutil.rmtree(full)
    elif os.path.lexists(full):
        os.remove(full)


def link(root, target, path):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    if os.path.lexists(full):
        os.remove(full)
    os.symlink(target, full)


def venv(root, torch=None, extra=()):
    put(root, "/venv/bin/python3")
    put(root, "/venv/pyvenv.cfg", "home = /usr/bin\n")
    if torch:
        ver, cuda, hip = torch
        mkdir(root, SP + "/torch-%s.dist-info" % ver)
        put(root, SP + "/torch/version.py",
            "__version__ = '%s'\ndebug = False\ncuda: Optional[str] = %s\nhip: Optional[str] = %s\n"
            % (ver, repr(cuda), repr(hip)))
        if cuda:
            put(root, SP + "/torch/lib/libtorch_cuda.so")
            mkdir(root, SP + "/nvidia_cuda_runtime_cu12-12.1.105.dist-info")
            put(root, SP + "/nvidia/cuda_runtime/lib/libcudart.so.12")
            mkdir(root, SP + "/nvidia_cudnn_cu12-9.1.0.70.dist-info")
            put(root, SP + "/nvidia/cudnn/lib/libcudnn.so.9")
    for e in extra:
        e(root)


def tensorflow_213(root):
    mkdir(root, SP + "/tensorflow-2.13.1.dist-info")
    put(root, SP + "/tensorflow/python/platform/build_info.py",
        "import collections\nbuild_info = collections.OrderedDict([('cpu_compiler', '/usr/bin/gcc'), "
        "('cuda_compute_capabilities', ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), "
        "('cuda_version', '11.8'), ('cudnn_version', '8'), ('is_cuda_build', True), "
        "('is_rocm_build', False), ('is_tensorrt_build', True)])\n")


def two_cupys(root):
    mkdir(root, SP + "/cupy_cuda11x-13.0.0.dist-info")
    mkdir(root, SP + "/cupy_cuda12x-13.3.0.dist-info")


def one_cupy(root):
    mkdir(root, SP + "/cupy_cuda12x-13.3.0.dist-info")


def toolkit(version, cudnn=None):
    def f(root):
        pre = "/usr/local/cuda-%s" % version
        put(root, pre + "/version.json", json.dumps({"cuda": {"name": "CUDA SDK", "version": version + ".0"}}))
        put(root, pre + "/bin/nvcc")
        if cudnn:
            a, b, c = cudnn.split(".")
            put(root, pre + "/include/cudnn_version.h",
                "#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL %s\n" % (a, b, c))
    return f


def set_driver(m, root, version, cuda_int):
    m["nvml"]["driver_version"] = version
    m["nvml"]["nvml_version"] = "12." + version
    m["nvml"]["cuda_driver_version"] = cuda_int
    if m.get("cuda"):
        m["cuda"]["driver_version"] = cuda_int
    banner = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  %s  Tue Mar 11 10:00:00 UTC 2025\n" % version
    put(root, "/proc/driver/nvidia/version", banner)
    put(root, "/sys/module/nvidia/version", version + "\n")


def dev(m, i):
    return m["nvml"]["devices"][i]


def rdna2(m, root):
    """One Radeon RX 6700 XT (gfx1031, 1002:73df) on amdgpu, from the mi300x tree."""
    rm(root, "/sys/bus/pci/devices/0000:22:00.0")
    rm(root, "/sys/class/kfd/kfd/topology/nodes/2")
    rm(root, "/dev/dri/renderD129")
    rm(root, "/dev/dri/card1")
    p = "/sys/bus/pci/devices/0000:0c:00.0"
    put(root, p + "/device", "0x73df\n")
    put(root, p + "/product_name", "AMD Radeon RX 6700 XT\n")
    props = os.path.join(root, "sys/class/kfd/kfd/topology/nodes/1/properties")
    text = open(props).read().replace("gfx_target_version 90402", "gfx_target_version 100301")
    text = text.replace("device_id 29857", "device_id 29663")
    open(props, "w").write(text)
    put(root, "/sys/class/kfd/kfd/topology/nodes/1/name", "gfx1031\n")


def amd_unloaded(m, root):
    rdna2(m, root)
    rm(root, "/sys/bus/pci/devices/0000:0c:00.0/driver")
    rm(root, "/sys/module/amdgpu")
    rm(root, "/sys/class/kfd")
    rm(root, "/dev/kfd")
    put(root, "/proc/modules", "snd_hda_intel 1 0 - Live 0x0\n")


def empty_machine():
    return {"schema": 1, "description": "no GPU at all", "nvml": None, "cuda": None}


NOUVEAU = None


def nouveau(m, root):
    p = "/sys/bus/pci/devices/0000:01:00.0"
    put(root, p + "/class", "0x030000\n")
    put(root, p + "/vendor", "0x10de\n")
    put(root, p + "/device", "0x1b06\n")
    put(root, "/sys/bus/pci/drivers/nouveau/uevent", "")
    link(root, "../../../../bus/pci/drivers/nouveau", p + "/driver")
    put(root, "/sys/module/nouveau/initstate", "live\n")
    put(root, "/proc/modules", "nouveau 2 0 - Live 0x0\n")


PERM_SETUP = """# The modelled user is not in the group owning the device nodes, and the
# nodes are not world-writable (git cannot store modes, so set them here).
user=$(id -un 2>/dev/null || echo user)
printf '%s:x:%s:65533::/home/u:/bin/sh\\n' "$user" "$(id -u)" >"$ROOT/etc/passwd"
printf 'video:x:%s:\\nrender:x:%s:\\n' "$(id -g)" "$(id -g)" >"$ROOT/etc/group"
for n in NODES; do chmod 0060 "$ROOT$n"; done
"""

# name: (base machine or None, about, env lines, change(m, root), expected ids, setup)
S = {}


def sc(name, base, about, expected, env=(), change=None, setup=None):
    S[name] = (base, about, list(env), change, expected, setup)


F_NV = ["found-gpus", "found-driver"]
F_PY = ["found-python-framework"]
VENV = ["VIRTUAL_ENV=/venv"]

sc("healthy-laptop", "laptop-3060", "healthy: RTX 3060 laptop, driver 535, PyTorch 2.5.1+cu121 with pip CUDA wheels",
   F_NV + F_PY, VENV, lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None)))
sc("seed-driver470-cu121", "gtx1080ti-old-driver", "seed: driver 470 (CUDA 11.4) with a cu121 wheel",
   F_NV + F_PY + ["driver-too-old-for-framework", "clocks-throttled"], VENV,
   lambda m, r: venv(r, ("2.3.0+cu121", "12.1", None)))
sc("near-driver470-cu118", "gtx1080ti-old-driver", "near miss: driver 470 runs cu118 through minor-version compatibility",
   F_NV + F_PY + ["clocks-throttled"], VENV, lambda m, r: venv(r, ("2.3.0+cu118", "11.8", None)))


def pascal_570(m, r):
    set_driver(m, r, "570.133.07", 12080)
    dev(m, 0)["clocks_event_reasons"] = 1
    dev(m, 0)["utilization"] = {"gpu": 0, "memory": 0}
    m["nvml"]["devices"][0]["processes"] = {"compute": [], "graphics": []}


sc("seed-pascal-cu128", "gtx1080ti-old-driver", "seed: Pascal GTX 1080 Ti (sm_61) with a cu128 wheel; fix names cu126",
   F_NV + F_PY + ["gpu-arch-unsupported-by-framework"], VENV,
   lambda m, r: (pascal_570(m, r), venv(r, ("2.7.0+cu128", "12.8", None))))


def blackwell(m, r):
    set_driver(m, r, "570.133.07", 12080)
    d = dev(m, 0)
    d["name"] = "NVIDIA GeForce RTX 5090"
    d["cuda_compute_capability"] = [12, 0]
    d["architecture"] = 10
    d["pci"]["pci_device_id"] = "0x2B8510DE"
    put(r, "/sys/bus/pci/devices/0000:01:00.0/device", "0x2b85\n")


sc("seed-blackwell-cu124", "laptop-3060", "seed: Blackwell RTX 5090 (sm_120) with torch 2.4.1+cu124; fix names cu128",
   F_NV + F_PY + ["gpu-arch-unsupported-by-framework"], VENV,
   lambda m, r: (blackwell(m, r), venv(r, ("2.4.1+cu124", "12.4", None))))
sc("near-blackwell-cu128", "laptop-3060", "near miss: RTX 5090 with a cu128 wheel (has sm_120)",
   F_NV + F_PY, VENV, lambda m, r: (blackwell(m, r), venv(r, ("2.7.0+cu128", "12.8", None))))
sc("seed-cvd-1-one-gpu", "laptop-3060", "seed: CUDA_VISIBLE_DEVICES=1 on a one-GPU box",
   F_NV + ["cuda-visible-devices-hides-all", "cuda-visible-devices-invalid"], ["CUDA_VISIBLE_DEVICES=1"])
sc("near-cvd-0-one-gpu", "laptop-3060", "near miss: CUDA_VISIBLE_DEVICES=0 on a one-GPU box", F_NV, ["CUDA_VISIBLE_DEVICES=0"])
sc("cvd-invalid-middle", "h100-8x", "CUDA_VISIBLE_DEVICES=0,9,1: 9 is invalid and hides 1, 0 stays visible",
   F_NV + ["cuda-visible-devices-invalid", "gpu-memory-held-by-other-processes"], ["CUDA_VISIBLE_DEVICES=0,9,1"])
sc("seed-cpu-wheel", "laptop-3060", "seed: CPU-only PyTorch wheel on a GPU machine",
   F_NV + F_PY + ["framework-cpu-only-build"], VENV, lambda m, r: venv(r, ("2.3.0+cpu", None, None)))
sc("near-cpu-wheel-no-gpu", None, "near miss: CPU-only wheel on a machine without GPU (no-gpu, not cpu-only)",
   F_PY + ["no-gpu"], VENV, lambda m, r: venv(r, ("2.3.0+cpu", None, None)))
sc("seed-rdna2-gfx1031", "mi300x", "seed: RX 6700 XT (gfx1031) with torch 2.4.0+rocm6.1 (no gfx1031); override 10.3.0 would help",
   ["found-gpus", "found-rocm", "rocm-gfx-unsupported"] + F_PY, VENV,
   lambda m, r: (rdna2(m, r), venv(r, ("2.4.0+rocm6.1", None, "6.1.40091-a8dbc0c19"))))
sc("near-rdna2-override", "mi300x", "near miss: the same with HSA_OVERRIDE_GFX_VERSION=10.3.0 set",
   ["found-gpus", "found-rocm"] + F_PY, VENV + ["HSA_OVERRIDE_GFX_VERSION=10.3.0"],
   lambda m, r: (rdna2(m, r), venv(r, ("2.4.0+rocm6.1", None, "6.1.40091-a8dbc0c19"))))
# Build records as real installs write them (tests/unit/test_probe_realworld.c).
def conda_torch_212(root):
    """conda-forge pytorch 2.1.2 cuda120 build: no local tag in __version__,
    CUDA libraries in the env's lib/, not in torch/lib."""
    sp = "/opt/conda/lib/python3.11/site-packages"
    put(root, "/opt/conda/bin/python3")
    mkdir(root, sp + "/torch-2.1.2.dist-info")
    put(root, sp + "/torch/version.py",
        "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
        "__version__ = '2.1.2'\ndebug = False\ncuda: Optional[str] = '12.0'\n"
        "git_version = 'Unknown'\nhip: Optional[str] = None\n")
    put(root, sp + "/torch/lib/libtorch_cuda.so")
    put(root, "/opt/conda/lib/libcudart.so.12")


def tf1_build_info(root):
    """TF 1.15 GPU wheel: module constants, CUDA 10.0 / cuDNN 7 from the system."""
    mkdir(root, SP + "/tensorflow_gpu-1.15.5.dist-info")
    put(root, SP + "/tensorflow/python/platform/build_info.py",
        '"""Generates a Python module containing information about the build."""\n'
        "is_rocm_build = False\nis_cuda_build = True\n"
        "cuda_version_number = '10.0'\ncudnn_version_number = '7'\n")


def debian_torch(root):
    """Debian/Ubuntu python3-torch: system dist-packages, CPU-only."""
    sp = "/usr/lib/python3/dist-packages"
    mkdir(root, sp + "/torch-2.6.0.egg-info")
    put(root, sp + "/torch/version.py",
        "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
        "__version__ = '2.6.0'\ndebug = False\ncuda: Optional[str] = None\n"
        "git_version = 'Unknown'\nhip: Optional[str] = None\nxpu: Optional[str] = None\n")


sc("conda-torch-no-local-tag", "gtx1080ti-old-driver",
   "conda-forge torch 2.1.2 (cuda '12.0', no +cuXYZ) on driver 470: the CUDA build is read from `cuda`",
   F_NV + F_PY + ["driver-too-old-for-framework", "clocks-throttled"], ["CONDA_PREFIX=/opt/conda"],
   lambda m, r: conda_torch_212(r))
sc("tf1-build-info", "laptop-3060",
   "TF 1.15 build_info.py constants (cuda_version_number '10.0', cuDNN 7) with no cuDNN on the system",
   F_NV + F_PY + ["cudnn-missing"], VENV, lambda m, r: venv(r, None, [tf1_build_info]))
sc("debian-python3-torch", "laptop-3060",
   "Debian python3-torch 2.6.0 in /usr/lib/python3/dist-packages (CPU-only) on an RTX 3060",
   F_NV + F_PY + ["framework-cpu-only-build"], [], lambda m, r: debian_torch(r))
sc("rocm-wheel-on-nvidia", "laptop-3060",
   "torch 2.4.0+rocm6.1 (hip '6.1.40091-a8dbc0c19') on an NVIDIA-only machine: it cannot use the GPU",
   F_NV + F_PY + ["framework-cpu-only-build"], VENV,
   lambda m, r: venv(r, ("2.4.0+rocm6.1", None, "6.1.40091-a8dbc0c19")))
sc("amdgpu-not-loaded", "mi300x", "AMD GPU on the bus, amdgpu not loaded, no KFD",
   ["found-gpus", "found-rocm", "amdgpu-not-loaded"], [], amd_unloaded)
sc("near-amd-loaded", "mi300x", "near miss: MI300X with amdgpu and KFD", ["found-gpus", "found-rocm"])
sc("rocm-permission-denied", "mi300x", "/dev/kfd and render nodes owned by a group the user is not in",
   ["found-gpus", "found-rocm", "rocm-permission-denied"], [], None,
   PERM_SETUP.replace("NODES", "/dev/kfd /dev/dri/renderD128 /dev/dri/renderD129"))
sc("device-permission-denied", "laptop-3060", "/dev/nvidia* owned by a group the user is not in",
   F_NV + ["device-permission-denied"], [], None,
   PERM_SETUP.replace("NODES", "/dev/nvidiactl /dev/nvidia0 /dev/nvidia-uvm"))
sc("nouveau-bound", None, "GTX 1060 bound to nouveau; no NVIDIA library",
   ["found-gpus", "nouveau-bound", "nvidia-driver-not-loaded"], [], nouveau)
sc("no-driver", "no-driver", "L4 with no driver bound (near miss for nvml-library-missing and nouveau-bound)",
   ["found-gpus", "nvidia-driver-not-loaded"])


def no_nvml(m, r):
    m["nvml"] = None
    m["cuda"] = None


sc("nvml-library-missing", "h100-8x", "module loaded, libnvidia-ml.so.1 absent", F_NV + ["nvml-library-missing"], [], no_nvml)
sc("driver-mismatch", "driver-mismatch", "kernel module 550.54.15, library 550.90.07", F_NV + ["driver-library-mismatch"])
sc("device-node-missing", "laptop-3060", "/dev/nvidia-uvm absent",
   F_NV + ["device-node-missing"], [], lambda m, r: rm(r, "/dev/nvidia-uvm"))
sc("gpu-lost", "lost-gpu", "GPU 2 lost, Xid 79 in kern.log", F_NV + ["gpu-lost", "xid-errors"])


def xid13(m, r):
    put(r, "/var/log/kern.log", "Mar  3 10:00:01 node kernel: NVRM: Xid (PCI:0000:01:00): 13, pid=4242, name=python, "
        "Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0): Out Of Range Address\n")


sc("xid-only", "laptop-3060", "near miss for gpu-lost: an Xid 13 in the log, the GPU is fine", F_NV + ["xid-errors"], [], xid13)
sc("device-order", "mixed-order", "GTX 1660 + RTX 4090: CUDA FASTEST_FIRST differs from nvidia-smi", F_NV + ["cuda-device-order-differs"])
sc("near-device-order-pci", "mixed-order", "near miss: CUDA_DEVICE_ORDER=PCI_BUS_ID", F_NV, ["CUDA_DEVICE_ORDER=PCI_BUS_ID"])
sc("memory-held", "h100-8x", "GPUs 1-3 held by alice's training job", F_NV + ["gpu-memory-held-by-other-processes"])
sc("mig", "a100-mig", "MIG on GPU 0, no MIG device selected", F_NV + ["mig-without-device-selection"])


def mig_uuid():
    m = json.load(open(os.path.join(MACHINES, "a100-mig", "machine.json")))
    return m["nvml"]["devices"][0]["mig"]["devices"][0]["uuid"]


sc("near-mig-selected", "a100-mig", "near miss: CUDA_VISIBLE_DEVICES names a MIG device", F_NV, ["CUDA_VISIBLE_DEVICES=" + mig_uuid()])


def degraded(m, r):
    dev(m, 0)["compute_mode"] = 3
    dev(m, 4)["ecc"]["uncorrected_volatile"] = 2
    dev(m, 4)["ecc"]["uncorrected_aggregate"] = 2
    dev(m, 5)["ecc"]["corrected_volatile"] = 100          # near miss: corrected only
    dev(m, 6)["remapped_rows"]["pending"] = 1
    dev(m, 7)["pcie"]["curr_width"] = 8
    dev(m, 6)["compute_mode"] = 3                         # near miss: exclusive but idle
    dev(m, 6)["pcie"]["curr_gen"] = 1                     # near miss: slow link while idle


sc("h100-degraded", "h100-8x", "GPU 0 exclusive and busy, GPU 4 uncorrected ECC, GPU 6 remap pending, GPU 7 at x8; near misses on 5 and 6",
   F_NV + ["gpu-memory-held-by-other-processes", "exclusive-process-busy", "ecc-errors", "remapped-rows-pending", "pcie-link-degraded"],
   [], degraded)


def slow_under_load(m, r):
    dev(m, 0)["pcie"]["curr_gen"] = 1


sc("pcie-slow-under-load", "gtx1080ti-old-driver", "Gen1 link at 87% utilisation", F_NV + ["clocks-throttled", "pcie-link-degraded"],
   [], slow_under_load)
sc("near-pcie-idle", "laptop-3060", "near miss: Gen1 at 3% utilisation (idle power saving)", F_NV)
sc("throttled", "gtx1080ti-old-driver", "software power cap under load", F_NV + ["clocks-throttled"])
sc("container-without-gpu", None, "docker container without the NVIDIA runtime", ["no-gpu", "container-without-gpu"], [],
   lambda m, r: put(r, "/.dockerenv"))
sc("near-container-with-gpu", "laptop-3060", "near miss: docker container with the GPU runtime", F_NV, [],
   lambda m, r: put(r, "/.dockerenv"))
sc("no-gpu", None, "nothing: no GPU, no library", ["no-gpu"])
sc("cudnn-missing", "laptop-3060", "TensorFlow 2.13 (CUDA 11.8, cuDNN 8) with no cuDNN anywhere",
   F_NV + F_PY + ["cudnn-missing"], VENV, lambda m, r: venv(r, None, [tensorflow_213]))
sc("cudnn-version-mismatch", "laptop-3060", "TensorFlow 2.13 built with cuDNN 8 finds only cuDNN 7.6.5",
   F_NV + F_PY + ["found-cuda-toolkit", "cudnn-version-mismatch"], VENV,
   lambda m, r: venv(r, None, [tensorflow_213, toolkit("11.8", "7.6.5")]))
sc("near-cudnn-same-major", "laptop-3060", "near miss: cuDNN 8.2.0 for a cuDNN 8 build",
   F_NV + F_PY + ["found-cuda-toolkit"], VENV, lambda m, r: venv(r, None, [tensorflow_213, toolkit("11.8", "8.2.0")]))


def old_ld(version):
    def f(r):
        put(r, "/opt/old/lib/libcudnn.so." + version)
    return f


sc("library-path-shadows", "laptop-3060", "LD_LIBRARY_PATH puts cuDNN 8.9.2 ahead of the cuDNN 9.1 wheel",
   F_NV + F_PY + ["library-path-shadows-framework"], VENV + ["LD_LIBRARY_PATH=/opt/old/lib"],
   lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [old_ld("8.9.2")]))
sc("near-library-path-same", "laptop-3060", "near miss: LD_LIBRARY_PATH holds the same cuDNN 9.1.0",
   F_NV + F_PY, VENV + ["LD_LIBRARY_PATH=/opt/old/lib"], lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [old_ld("9.1.0")]))
sc("toolkit-mismatch", "laptop-3060", "nvcc 11.8 on PATH, torch built with CUDA 12.1",
   F_NV + F_PY + ["found-cuda-toolkit", "toolkit-framework-cuda-mismatch"], VENV + ["PATH=/usr/local/cuda-11.8/bin:$PATH"],
   lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [toolkit("11.8")]))
sc("near-toolkit-same-major", "laptop-3060", "near miss: nvcc 12.4 with torch CUDA 12.1",
   F_NV + F_PY + ["found-cuda-toolkit"], VENV + ["PATH=/usr/local/cuda-12.4/bin:$PATH"],
   lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [toolkit("12.4")]))
sc("multiple-cupy", "laptop-3060", "cupy-cuda11x and cupy-cuda12x side by side",
   F_NV + F_PY + ["multiple-framework-packages"], VENV, lambda m, r: venv(r, None, [two_cupys]))
sc("near-one-cupy", "laptop-3060", "near miss: one CuPy wheel", F_NV + F_PY, VENV, lambda m, r: venv(r, None, [one_cupy]))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_scenarios.py OUT")
    dest = sys.argv[1]
    for name, (base, about, env, change, expected, setup) in S.items():
        out = os.path.join(dest, name)
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.makedirs(out)
        root = os.path.join(out, "root")
        if base:
            m = json.load(open(os.path.join(MACHINES, base, "machine.json")))
            src = os.path.join(MACHINES, base, "root")
            if os.path.isdir(src):
                shutil.copytree(src, root, symlinks=True)
        else:
            m = empty_machine()
        os.makedirs(root, exist_ok=True)
        put(root, "/etc/.keep")
        if change:
            change(m, root)
        with open(os.path.join(out, "machine.json"), "w") as f:
            json.dump(m, f, indent=1)
            f.write("\n")
        with open(os.path.join(out, "about"), "w") as f:
            f.write("%s\nbase: %s\n" % (about, base or "(none)"))
        with open(os.path.join(out, "env"), "w") as f:
            f.write("".join(e + "\n" for e in env))
        with open(os.path.join(out, "expected"), "w") as f:
            f.write("".join(i + "\n" for i in sorted(set(expected))))
        if setup:
            with open(os.path.join(out, "setup"), "w") as f:
                f.write(setup)
        fill_empty_dirs(root)
    print("%d scenarios" % len(S))


def fill_empty_dirs(root):
    """git keeps no empty folder: give each one a file, as real trees have
    (a pip dist-info always holds INSTALLER), so a clone runs the same."""
    for d, dirs, files in os.walk(root):
        if dirs or files or os.path.islink(d):
            continue
        name = "INSTALLER" if d.endswith(".dist-info") else ".keep"
        with open(os.path.join(d, name), "w") as f:
            f.write("pip\n" if name == "INSTALLER" else "")


if __name__ == "__main__":
    main()
