#!/usr/bin/env python3
"""Generates the doctor scenarios: OUT/<name>/ with machine.json,
root/ (a copy of a fake machine, changed as the scenario says),
`env` (KEY=VALUE lines; ARGS= extra doctor arguments), optional `setup`
(bash, run with $ROOT set to the private copy of root/ before doctor runs)
and `expected` (the exact set of finding ids doctor must report).

The build writes them to build/doctor-scenarios/ (`make`; by hand:
`python3 tests/doctor/make_scenarios.py OUT`); nothing of its output is
committed, so the script is the only description of a scenario.
Each scenario says in `about` what it models and which ids it is for;
near-miss scenarios check that an id does NOT fire just short of its
condition."""
import json, os, re, shutil, struct, sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The fake machines as tests/machines/make_machines.py writes them (`make`
# writes them first); GPUWISE_MACHINES names another copy.
MACHINES = os.environ.get("GPUWISE_MACHINES") or os.path.join(HERE, "..", "..", "build", "machines")
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


def putb(root, path, data):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data)


def elf_so(needed=(), runpath=None, rpath=None):
    """A minimal ELF64 little-endian shared object: .dynstr, .dynamic
    (DT_NEEDED, DT_RPATH, DT_RUNPATH) and .shstrtab, what doctor reads of a
    framework's own library."""
    strs = bytearray(b"\0")

    def add(text):
        off = len(strs)
        strs.extend(text.encode() + b"\0")
        return off
    dyn = b"".join(struct.pack("<qQ", 1, add(n)) for n in needed)
    if rpath:
        dyn += struct.pack("<qQ", 15, add(rpath))
    if runpath:
        dyn += struct.pack("<qQ", 29, add(runpath))
    dyn += struct.pack("<qQ", 0, 0)
    shstr = b"\0.dynstr\0.dynamic\0.shstrtab\0"
    a8 = lambda x: (x + 7) & ~7
    o_str = 64
    o_dyn = a8(o_str + len(strs))
    o_shstr = o_dyn + len(dyn)
    o_sh = a8(o_shstr + len(shstr))
    ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8) + struct.pack(
        "<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, o_sh, 0, 64, 56, 0, 64, 4, 3)

    def sh(name, typ, off, size, link=0, entsize=0):
        return struct.pack("<IIQQQQIIQQ", name, typ, 0, 0, off, size, link, 0, 8, entsize)
    body = ehdr + bytes(strs)
    body += bytes(o_dyn - len(body)) + dyn + shstr
    body += bytes(o_sh - len(body))
    return body + sh(0, 0, 0, 0) + sh(1, 3, o_str, len(strs)) + sh(9, 6, o_dyn, len(dyn), 1, 16) + \
        sh(18, 3, o_shstr, len(shstr))


def ld_cache(root, paths):
    """/etc/ld.so.cache as ldconfig writes it since glibc 2.32 (the
    "glibc-ld.so.cache1.1" format alone): one entry per library path."""
    strs = bytearray()
    start = 48 + 24 * len(paths)
    entries = b""
    for p in paths:
        key = start + len(strs)
        strs.extend(os.path.basename(p).encode() + b"\0")
        value = start + len(strs)
        strs.extend(p.encode() + b"\0")
        entries += struct.pack("<iIIIQ", 0x0303, key, value, 0, 0)
    head = b"glibc-ld.so.cache1.1" + struct.pack("<IIB3sI12s", len(paths), len(strs), 2, bytes(3), 0, bytes(12))
    putb(root, "/etc/ld.so.cache", head + entries + bytes(strs))


def cuda_sonames(version, cudnn=None):
    major = version.split(".")[0]
    names = ["libcudart.so.11.0" if major == "11" else "libcudart.so." + major,
             "libcublas.so." + major, "libcublasLt.so." + major]
    if cudnn:
        names.append("libcudnn.so." + cudnn.split(".")[0])
    return names


def tensorflow_213(root):
    mkdir(root, SP + "/tensorflow-2.13.1.dist-info")
    # Without nvidia-* wheels TF 2.13 loads the system's CUDA 11 runtime and
    # cuBLAS (here from the distribution's folder, as its packages install them).
    for n in cuda_sonames("11.8"):
        put(root, "/usr/lib/x86_64-linux-gnu/" + n)
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


def toolkit(version, cudnn=None, libs=False, ldconf=False):
    """libs: its shared libraries in targets/x86_64-linux/lib (lib64 a link
    to it, as the installers make it); ldconf: a /etc/ld.so.conf.d file
    naming lib64, as NVIDIA's packages install one."""
    def f(root):
        pre = "/usr/local/cuda-%s" % version
        put(root, pre + "/version.json", json.dumps({"cuda": {"name": "CUDA SDK", "version": version + ".0"}}))
        put(root, pre + "/bin/nvcc")
        if libs:
            for n in cuda_sonames(version, cudnn):
                put(root, pre + "/targets/x86_64-linux/lib/" + n)
            link(root, "targets/x86_64-linux/lib", pre + "/lib64")
        if ldconf:
            put(root, "/etc/ld.so.conf.d/cuda-%s.conf" % version.replace(".", "-"), pre + "/lib64\n")
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


def sc(name, base, about, expected, env=(), change=None, setup=None, near=()):
    """near: the ids a near-* scenario stays just short of; its `about`
    then starts with "near-miss for: <id>, <id>" (test_doctor.sh checks
    that every DESIGN id has one, and that none of them fires there)."""
    assert name.startswith("near-") == bool(near), name
    assert not set(near) & set(expected), name
    if near:
        about = "near-miss for: %s\n%s" % (", ".join(near), about)
    S[name] = (base, about, list(env), change, expected, setup)


F_NV = ["found-gpus", "found-driver"]
F_PY = ["found-python-framework"]
VENV = ["VIRTUAL_ENV=/venv"]

sc("healthy-laptop", "laptop-3060", "healthy: RTX 3060 laptop, driver 535, PyTorch 2.5.1+cu121 with pip CUDA wheels",
   F_NV + F_PY, VENV, lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None)))
sc("seed-driver470-cu121", "gtx1080ti-old-driver", "seed: driver 470 (CUDA 11.4) with a cu121 wheel",
   F_NV + F_PY + ["driver-too-old-for-framework", "clocks-throttled"], VENV,
   lambda m, r: venv(r, ("2.3.0+cu121", "12.1", None)))
sc("near-driver470-cu118", "gtx1080ti-old-driver", "driver 470 runs cu118 through minor-version compatibility",
   F_NV + F_PY + ["clocks-throttled"], VENV, lambda m, r: venv(r, ("2.3.0+cu118", "11.8", None)),
   near=["driver-too-old-for-framework"])


def pascal_570(m, r):
    set_driver(m, r, "570.133.07", 12080)
    dev(m, 0)["clocks_event_reasons"] = 1
    dev(m, 0)["utilization"] = {"gpu": 0, "memory": 0}
    m["nvml"]["devices"][0]["processes"] = {"compute": [], "graphics": []}
    dev(m, 0)["memory"]["used"] = 104857600   # its process gone: an idle GPU's 100 MiB


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
sc("near-blackwell-cu128", "laptop-3060", "RTX 5090 with a cu128 wheel (has sm_120)",
   F_NV + F_PY, VENV, lambda m, r: (blackwell(m, r), venv(r, ("2.7.0+cu128", "12.8", None))),
   near=["gpu-arch-unsupported-by-framework"])
sc("seed-cvd-1-one-gpu", "laptop-3060", "seed: CUDA_VISIBLE_DEVICES=1 on a one-GPU box",
   F_NV + ["cuda-visible-devices-hides-all", "cuda-visible-devices-invalid"], ["CUDA_VISIBLE_DEVICES=1"])
sc("near-cvd-0-one-gpu", "laptop-3060", "CUDA_VISIBLE_DEVICES=0 on a one-GPU box", F_NV, ["CUDA_VISIBLE_DEVICES=0"],
   near=["cuda-visible-devices-hides-all", "cuda-visible-devices-invalid"])
sc("cvd-invalid-middle", "h100-8x", "CUDA_VISIBLE_DEVICES=0,9,1: 9 is invalid and hides 1, 0 stays visible",
   F_NV + ["cuda-visible-devices-invalid", "gpu-memory-held-by-other-processes"], ["CUDA_VISIBLE_DEVICES=0,9,1"])
sc("seed-cpu-wheel", "laptop-3060", "seed: CPU-only PyTorch wheel on a GPU machine",
   F_NV + F_PY + ["framework-cpu-only-build"], VENV, lambda m, r: venv(r, ("2.3.0+cpu", None, None)))
sc("near-cpu-wheel-no-gpu", None, "CPU-only wheel on a machine without GPU (no-gpu, not cpu-only)",
   F_PY + ["no-gpu"], VENV, lambda m, r: venv(r, ("2.3.0+cpu", None, None)), near=["framework-cpu-only-build"])
sc("seed-rdna2-gfx1031", "mi300x", "seed: RX 6700 XT (gfx1031) with torch 2.4.0+rocm6.1 (no gfx1031); override 10.3.0 would help",
   ["found-gpus", "found-rocm", "rocm-gfx-unsupported"] + F_PY, VENV,
   lambda m, r: (rdna2(m, r), venv(r, ("2.4.0+rocm6.1", None, "6.1.40091-a8dbc0c19"))))
sc("near-rdna2-override", "mi300x", "the same with HSA_OVERRIDE_GFX_VERSION=10.3.0 set",
   ["found-gpus", "found-rocm"] + F_PY, VENV + ["HSA_OVERRIDE_GFX_VERSION=10.3.0"],
   lambda m, r: (rdna2(m, r), venv(r, ("2.4.0+rocm6.1", None, "6.1.40091-a8dbc0c19"))),
   near=["rocm-gfx-unsupported"])
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
   "TF 1.15 build_info.py constants (cuda_version_number '10.0', cuDNN 7) with no cuDNN on the system; "
   "installed as tensorflow-gpu, the obsolete name",
   F_NV + F_PY + ["cudnn-missing", "tensorflow-gpu-obsolete"], VENV, lambda m, r: venv(r, None, [tf1_build_info]))
sc("debian-python3-torch", "laptop-3060",
   "Debian python3-torch 2.6.0 in /usr/lib/python3/dist-packages (CPU-only) on an RTX 3060",
   F_NV + F_PY + ["framework-cpu-only-build"], [], lambda m, r: debian_torch(r))
def debian_torch_cuda(with_libs):
    """Debian python3-torch-cuda: built against the distribution's CUDA 12.4,
    its libtorch_cuda.so names the system's libraries (no RUNPATH)."""
    def f(m, root):
        sp = "/usr/lib/python3/dist-packages"
        mkdir(root, sp + "/torch-2.6.0.egg-info")
        put(root, sp + "/torch/version.py",
            "from typing import Optional\n\n__version__ = '2.6.0'\ndebug = False\n"
            "cuda: Optional[str] = '12.4'\nhip: Optional[str] = None\n")
        putb(root, sp + "/torch/lib/libtorch_cuda.so",
             elf_so(("libc10_cuda.so", "libcudart.so.12", "libcublas.so.12", "libcudnn.so.9", "libc.so.6")))
        if with_libs:
            for n in ("libcudart.so.12", "libcublas.so.12", "libcudnn.so.9"):
                put(root, "/usr/lib/x86_64-linux-gnu/" + n)
    return f


sc("debian-torch-cuda-libs-missing", "laptop-3060",
   "Debian python3-torch-cuda 2.6.0 (CUDA 12.4) without the system CUDA libraries its libtorch_cuda.so needs",
   F_NV + F_PY + ["system-cuda-libraries-not-found"], [], debian_torch_cuda(False))
sc("near-debian-torch-cuda-libs", "laptop-3060",
   "Debian python3-torch-cuda 2.6.0 with libcudart, cuBLAS and cuDNN in /usr/lib/x86_64-linux-gnu (a default folder)",
   F_NV + F_PY + ["found-cuda-toolkit"], [], debian_torch_cuda(True), near=["system-cuda-libraries-not-found"])
sc("rocm-wheel-on-nvidia", "laptop-3060",
   "torch 2.4.0+rocm6.1 (hip '6.1.40091-a8dbc0c19') on an NVIDIA-only machine: it cannot use the GPU",
   F_NV + F_PY + ["framework-cpu-only-build"], VENV,
   lambda m, r: venv(r, ("2.4.0+rocm6.1", None, "6.1.40091-a8dbc0c19")))
sc("amdgpu-not-loaded", "mi300x", "AMD GPU on the bus, amdgpu not loaded, no KFD",
   ["found-gpus", "found-rocm", "amdgpu-not-loaded"], [], amd_unloaded)
sc("near-amd-loaded", "mi300x", "MI300X with amdgpu and KFD", ["found-gpus", "found-rocm"],
   near=["amdgpu-not-loaded"])
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
sc("near-device-order-pci", "mixed-order", "CUDA_DEVICE_ORDER=PCI_BUS_ID", F_NV, ["CUDA_DEVICE_ORDER=PCI_BUS_ID"],
   near=["cuda-device-order-differs"])
sc("memory-held", "h100-8x", "GPUs 1-3 held by alice's training job", F_NV + ["gpu-memory-held-by-other-processes"])
sc("mig", "a100-mig", "MIG on GPU 0, no MIG device selected", F_NV + ["mig-without-device-selection"])


def mig_uuid():
    m = json.load(open(os.path.join(MACHINES, "a100-mig", "machine.json")))
    return m["nvml"]["devices"][0]["mig"]["devices"][0]["uuid"]


sc("near-mig-selected", "a100-mig", "CUDA_VISIBLE_DEVICES names a MIG device", F_NV, ["CUDA_VISIBLE_DEVICES=" + mig_uuid()],
   near=["mig-without-device-selection", "cuda-visible-devices-invalid", "cuda-visible-devices-hides-all"])


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
sc("near-pcie-idle", "laptop-3060", "Gen1 at 3% utilisation (idle power saving)", F_NV,
   near=["pcie-link-degraded"])
sc("throttled", "gtx1080ti-old-driver", "software power cap under load", F_NV + ["clocks-throttled"])
sc("container-without-gpu", None, "docker container without the NVIDIA runtime", ["no-gpu", "container-without-gpu"], [],
   lambda m, r: put(r, "/.dockerenv"))
sc("near-container-with-gpu", "laptop-3060", "docker container with the GPU runtime", F_NV, [],
   lambda m, r: put(r, "/.dockerenv"), near=["container-without-gpu"])
sc("no-gpu", None, "nothing: no GPU, no library", ["no-gpu"])
sc("cudnn-missing", "laptop-3060", "TensorFlow 2.13 (CUDA 11.8, cuDNN 8) with no cuDNN anywhere",
   F_NV + F_PY + ["cudnn-missing"], VENV, lambda m, r: venv(r, None, [tensorflow_213]))
sc("cudnn-version-mismatch", "laptop-3060", "TensorFlow 2.13 built with cuDNN 8 finds only cuDNN 7.6.5",
   F_NV + F_PY + ["found-cuda-toolkit", "cudnn-version-mismatch"], VENV,
   lambda m, r: venv(r, None, [tensorflow_213, toolkit("11.8", "7.6.5")]))
sc("near-cudnn-same-major", "laptop-3060", "cuDNN 8.2.0 for a cuDNN 8 build",
   F_NV + F_PY + ["found-cuda-toolkit"], VENV,
   lambda m, r: venv(r, None, [tensorflow_213, toolkit("11.8", "8.2.0", libs=True, ldconf=True)]),
   near=["cudnn-version-mismatch", "cudnn-missing"])


def old_ld(version):
    def f(r):
        put(r, "/opt/old/lib/libcudnn.so." + version)
    return f


sc("library-path-shadows", "laptop-3060", "LD_LIBRARY_PATH puts cuDNN 8.9.2 ahead of the cuDNN 9.1 wheel",
   F_NV + F_PY + ["library-path-shadows-framework"], VENV + ["LD_LIBRARY_PATH=/opt/old/lib"],
   lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [old_ld("8.9.2")]))
sc("near-library-path-same", "laptop-3060", "LD_LIBRARY_PATH holds the same cuDNN 9.1.0",
   F_NV + F_PY, VENV + ["LD_LIBRARY_PATH=/opt/old/lib"], lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [old_ld("9.1.0")]),
   near=["library-path-shadows-framework"])
sc("toolkit-mismatch", "laptop-3060", "nvcc 11.8 on PATH, torch built with CUDA 12.1",
   F_NV + F_PY + ["found-cuda-toolkit", "toolkit-framework-cuda-mismatch"], VENV + ["PATH=/usr/local/cuda-11.8/bin:$PATH"],
   lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [toolkit("11.8")]))
sc("near-toolkit-same-major", "laptop-3060", "nvcc 12.4 with torch CUDA 12.1",
   F_NV + F_PY + ["found-cuda-toolkit"], VENV + ["PATH=/usr/local/cuda-12.4/bin:$PATH"],
   lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [toolkit("12.4")]),
   near=["toolkit-framework-cuda-mismatch", "toolkit-newer-than-driver"])

# ---- the manual steps of the install guides: toolkit against driver, PATH and loader
sc("toolkit-newer-than-driver", "gtx1080ti-old-driver", "nvcc 12.4 on PATH, driver 470 (CUDA 11.4): what it builds "
   "cannot start", F_NV + ["found-cuda-toolkit", "toolkit-newer-than-driver", "clocks-throttled"],
   ["PATH=/usr/local/cuda-12.4/bin:$PATH"], lambda m, r: (toolkit("12.4")(r), toolkit("11.4")(r)))
sc("near-toolkit-driver-same", "gtx1080ti-old-driver", "nvcc 11.4 on PATH, driver 470 (CUDA 11.4)",
   F_NV + ["found-cuda-toolkit", "clocks-throttled"], ["PATH=/usr/local/cuda-11.4/bin:$PATH"],
   lambda m, r: toolkit("11.4")(r), near=["toolkit-newer-than-driver"])
sc("toolkit-bin-not-on-path", "laptop-3060", "CUDA_HOME=/usr/local/cuda-12.4 and no nvcc on PATH",
   F_NV + ["found-cuda-toolkit", "toolkit-bin-not-on-path"], ["CUDA_HOME=/usr/local/cuda-12.4"],
   lambda m, r: toolkit("12.4")(r))
sc("near-toolkit-bin-on-path", "laptop-3060", "CUDA_HOME=/usr/local/cuda-12.4 with its bin/ on PATH",
   F_NV + ["found-cuda-toolkit"], ["CUDA_HOME=/usr/local/cuda-12.4", "PATH=/usr/local/cuda-12.4/bin:$PATH"],
   lambda m, r: toolkit("12.4")(r), near=["toolkit-bin-not-on-path"])
sc("toolkit-libs-not-on-loader-path", "laptop-3060", "nvcc 12.4 on PATH (runfile install): its lib64 is on neither "
   "LD_LIBRARY_PATH nor /etc/ld.so.conf.d", F_NV + ["found-cuda-toolkit", "toolkit-libs-not-on-loader-path"],
   ["PATH=/usr/local/cuda-12.4/bin:$PATH"], lambda m, r: toolkit("12.4", libs=True)(r))
sc("toolkit-libs-ldconfig-not-run", "laptop-3060", "nvcc 12.4 on PATH, /etc/ld.so.conf.d names its lib64, but "
   "/etc/ld.so.cache was built before (ldconfig not run)",
   F_NV + ["found-cuda-toolkit", "toolkit-libs-not-on-loader-path"], ["PATH=/usr/local/cuda-12.4/bin:$PATH"],
   lambda m, r: (toolkit("12.4", libs=True, ldconf=True)(r), ld_cache(r, ["/usr/lib/x86_64-linux-gnu/libz.so.1"])))
sc("near-toolkit-libs-ldconf", "laptop-3060", "nvcc 12.4 on PATH, lib64 named by /etc/ld.so.conf.d (no cache to read)",
   F_NV + ["found-cuda-toolkit"], ["PATH=/usr/local/cuda-12.4/bin:$PATH"],
   lambda m, r: toolkit("12.4", libs=True, ldconf=True)(r), near=["toolkit-libs-not-on-loader-path"])
sc("near-toolkit-libs-cache", "laptop-3060", "nvcc 12.4 on PATH, /etc/ld.so.cache lists its lib64 through the "
   "/usr/local/cuda-12.4/lib64 link", F_NV + ["found-cuda-toolkit"], ["PATH=/usr/local/cuda-12.4/bin:$PATH"],
   lambda m, r: (toolkit("12.4", libs=True)(r), ld_cache(r, ["/usr/local/cuda-12.4/lib64/libcudart.so.12"])),
   near=["toolkit-libs-not-on-loader-path"])
sc("near-toolkit-libs-ld-library-path", "laptop-3060", "nvcc 12.4 on PATH, LD_LIBRARY_PATH names its "
   "targets/x86_64-linux/lib", F_NV + ["found-cuda-toolkit"],
   ["PATH=/usr/local/cuda-12.4/bin:$PATH", "LD_LIBRARY_PATH=/usr/local/cuda-12.4/targets/x86_64-linux/lib"],
   lambda m, r: toolkit("12.4", libs=True)(r), near=["toolkit-libs-not-on-loader-path"])
sc("multiple-cupy", "laptop-3060", "cupy-cuda11x and cupy-cuda12x side by side",
   F_NV + F_PY + ["multiple-framework-packages"], VENV, lambda m, r: venv(r, None, [two_cupys]))
sc("near-one-cupy", "laptop-3060", "one CuPy wheel", F_NV + F_PY, VENV, lambda m, r: venv(r, None, [one_cupy]),
   near=["multiple-framework-packages"])


# ---- near misses for the ids that had none: each stays just short of its
# condition (docs/doctor.md "Scenarios" maps every id to its scenarios).

def own_jobs(m):
    """h100-8x with GPUs 1-3 held by this user's own job ($SLEEPER is a live
    process of the user running the test), so no GPU is held by others."""
    for i in (1, 2, 3):
        dev(m, i)["processes"]["compute"] = [{"pid": "$SLEEPER", "used_gpu_memory": 75161927680}]


def laptop_uuid():
    m = json.load(open(os.path.join(MACHINES, "laptop-3060", "machine.json")))
    return m["nvml"]["devices"][0]["uuid"]


sc("near-memory-own-process", "h100-8x", "GPUs 0-3 hold 70 GiB each, all of it this user's own job",
   F_NV, [], lambda m, r: own_jobs(m), near=["gpu-memory-held-by-other-processes"])


def half_held(m):
    for i in (1, 2, 3):
        dev(m, i)["processes"]["compute"][0]["used_gpu_memory"] = dev(m, i)["memory"]["total"] // 2


sc("near-memory-others-half", "h100-8x", "alice's job holds exactly half of GPUs 1-3 (the rule needs more than half); "
   "GPU 5: others hold 20 GiB", F_NV, [], lambda m, r: half_held(m), near=["gpu-memory-held-by-other-processes"])


def exclusive_idle(m):
    own_jobs(m)
    dev(m, 4)["compute_mode"] = 3       # exclusive, no process
    dev(m, 7)["compute_mode"] = 3
    dev(m, 6)["compute_mode"] = 2       # prohibited, not exclusive


sc("near-exclusive-idle", "h100-8x", "GPUs 4 and 7 exclusive-process with no process; GPUs 0-3 and 5 "
   "default mode with processes", F_NV, [], lambda m, r: exclusive_idle(m), near=["exclusive-process-busy"])


def ecc_corrected(m):
    own_jobs(m)
    for i in (4, 5):
        dev(m, i)["ecc"]["corrected_volatile"] = 100
        dev(m, i)["ecc"]["corrected_aggregate"] = 4000


sc("near-ecc-corrected", "h100-8x", "GPUs 4 and 5 with corrected ECC errors only (since boot and lifetime)",
   F_NV, [], lambda m, r: ecc_corrected(m), near=["ecc-errors"])


def remap_correctable(m):
    own_jobs(m)
    dev(m, 6)["remapped_rows"]["correctable"] = 3
    dev(m, 7)["remapped_rows"]["uncorrectable"] = 1     # remapped already: nothing waits for a reset


sc("near-remap-done", "h100-8x", "rows remapped on GPUs 6 and 7 (correctable and uncorrectable), none pending, "
   "no failure", F_NV, [], lambda m, r: remap_correctable(m), near=["remapped-rows-pending"])


def benign_reasons(m, r):
    # GPU idle | applications clocks | sync boost | display clocks
    dev(m, 0)["clocks_event_reasons"] = 0x1 | 0x2 | 0x10 | 0x100


sc("near-clocks-benign", "laptop-3060", "clock event reasons 0x113: GPU idle, application clocks, sync boost, "
   "display clocks (no thermal or power slowdown)", F_NV, [], benign_reasons, near=["clocks-throttled"])


def nvrm_no_xid(m, r):
    put(r, "/var/log/kern.log",
        "Mar  3 09:59:58 node kernel: nvidia: loading out-of-tree module taints kernel.\n"
        "Mar  3 09:59:58 node kernel: NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May 12 19:39:15 UTC 2024\n"
        "Mar  3 10:00:01 node kernel: NVRM: GPU at PCI:0000:01:00: GPU-4e7bd3e1-9c2a-6f08-1d35-8b2c0a7e5f19\n"
        "Mar  3 10:00:01 node kernel: NVRM: GPU Board Serial Number: 0\n"
        "Mar  3 10:00:02 node kernel: NVRM: Persistence mode is deprecated and will be removed; Xid-style "
        "reporting unchanged.\n"
        "Mar  3 10:00:03 node kernel: nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms\n")


sc("near-nvrm-no-xid", "laptop-3060", "kern.log full of NVRM driver messages, none an `NVRM: Xid` line",
   F_NV, [], nvrm_no_xid, near=["xid-errors"])


def xid79_ok(m, r):
    put(r, "/var/log/kern.log", "Mar  1 03:12:44 node kernel: NVRM: Xid (PCI:0000:01:00): 79, pid=0, "
        "GPU has fallen off the bus.\n")


sc("near-xid79-gpu-ok", "laptop-3060", "an old Xid 79 in kern.log (xid-errors), but the GPU answers: not lost now",
   F_NV + ["xid-errors"], [], xid79_ok, near=["gpu-lost"])

GROUP_MEMBER_SETUP = PERM_SETUP.replace(":\\nrender:x:%s:\\n' \"$(id -g)\" \"$(id -g)\"",
                                        ":%s\\nrender:x:%s:%s\\n' \"$(id -g)\" \"$user\" \"$(id -g)\" \"$user\"")
assert GROUP_MEMBER_SETUP != PERM_SETUP
GROUP_MEMBER_SETUP = "# Near miss: here the user IS a member of video and render.\n" + GROUP_MEMBER_SETUP
OWNER_SETUP = "# Near miss: owner read-write, and the user is the owner.\n" + PERM_SETUP.replace("chmod 0060", "chmod 0600")

sc("near-device-nodes-group", "laptop-3060", "/dev/nvidia* mode 0660 for a group the user is in",
   F_NV, [], None, GROUP_MEMBER_SETUP.replace("NODES", "/dev/nvidiactl /dev/nvidia0 /dev/nvidia-uvm"),
   near=["device-permission-denied", "device-node-missing"])
sc("near-device-nodes-owner", "laptop-3060", "/dev/nvidia* mode 0600 owned by the user, who is in no GPU group",
   F_NV, [], None, OWNER_SETUP.replace("NODES", "/dev/nvidiactl /dev/nvidia0 /dev/nvidia-uvm"),
   near=["device-permission-denied"])
sc("near-device-uvm-tools-missing", "laptop-3060", "/dev/nvidia-uvm-tools absent (a profiling node CUDA does not need)",
   F_NV, [], lambda m, r: rm(r, "/dev/nvidia-uvm-tools"), near=["device-node-missing"])
sc("near-rocm-render-group", "mi300x", "/dev/kfd and render nodes mode 0660 for render/video, the user is in both",
   ["found-gpus", "found-rocm"], [], None,
   GROUP_MEMBER_SETUP.replace("NODES", "/dev/kfd /dev/dri/renderD128 /dev/dri/renderD129"),
   near=["rocm-permission-denied"])


def nouveau_loaded_nvidia_bound(m, r):
    put(r, "/proc/modules", "nvidia_uvm 1 0 - Live 0x0\nnvidia 2 1 nvidia_uvm, Live 0x0\n"
        "nouveau 0 0 - Live 0x0\n")
    put(r, "/sys/module/nouveau/initstate", "live\n")


sc("near-nouveau-loaded", "laptop-3060", "nouveau module loaded (for another card) but the GPU is bound to nvidia",
   F_NV, [], nouveau_loaded_nvidia_bound, near=["nouveau-bound", "nvidia-driver-not-loaded"])
sc("near-no-module-no-library", "no-driver", "no nvidia module and no libnvidia-ml: the driver is not loaded, "
   "which is nvidia-driver-not-loaded, not a missing library", ["found-gpus", "nvidia-driver-not-loaded"], [],
   lambda m, r: no_nvml(m, r), near=["nvml-library-missing", "nouveau-bound"])


def open_module_same_version(m, r):
    put(r, "/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.183.01  "
        "Release Build  (dvs-builder@U16-I3-B03-4-3)  Sun May 12 19:39:15 UTC 2024\n"
        "GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04) \n")
    rm(r, "/sys/module/nvidia/version")
    put(r, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.183.01")
    link(r, "libnvidia-ml.so.535.183.01", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1")


sc("near-driver-same-version", "laptop-3060", "open-module banner 535.183.01, libnvidia-ml.so.535.183.01, NVML "
   "535.183.01: one version in three formats", F_NV, [], open_module_same_version,
   near=["driver-library-mismatch", "nvml-init-failed"])


def bound_only(m, r):
    rm(r, "/proc/driver/nvidia")
    rm(r, "/sys/module/nvidia")


sc("near-driver-bound-only", "laptop-3060", "no /proc/driver/nvidia or /sys/module/nvidia, but the GPU is bound "
   "to the nvidia driver: the module is in use", F_NV, [], bound_only, near=["nvidia-driver-not-loaded"])


def nvml_init(code):
    def f(m, r):
        m["nvml"]["init"] = code
    return f


sc("nvml-init-failed", "laptop-3060", "nvmlInit returns UNKNOWN with the module, library and nodes in place",
   F_NV + ["nvml-init-failed"], [], nvml_init("UNKNOWN"))
sc("near-nvml-init-permission", "laptop-3060", "nvmlInit returns NO_PERMISSION and the nodes are not readable: "
   "device-permission-denied explains it", F_NV + ["device-permission-denied"], [], nvml_init("NO_PERMISSION"),
   PERM_SETUP.replace("NODES", "/dev/nvidiactl /dev/nvidia0 /dev/nvidia-uvm"), near=["nvml-init-failed"])


def mismatch_code(m, r):
    m["nvml"]["init"] = "LIB_RM_VERSION_MISMATCH"
    put(r, "/sys/module/nvidia/version", "535.161.07\n")
    put(r, "/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.161.07  "
        "Sun May 12 19:39:15 UTC 2024\n")


sc("near-nvml-init-mismatch", "laptop-3060", "nvmlInit returns LIB_RM_VERSION_MISMATCH, module 535.161.07: "
   "driver-library-mismatch explains it", F_NV + ["driver-library-mismatch"], [], mismatch_code,
   near=["nvml-init-failed"])
sc("near-cvd-uuid-prefix", "laptop-3060", "CUDA_VISIBLE_DEVICES names the GPU by a UUID prefix",
   F_NV, ["CUDA_VISIBLE_DEVICES=" + laptop_uuid()[:12]],
   near=["cuda-visible-devices-hides-all", "cuda-visible-devices-invalid"])


def no_pci_sysfs(m, r):
    rm(r, "/sys/bus/pci")


sc("near-no-gpu-backend-only", "laptop-3060", "no PCI sysfs (as in some sandboxes) but NVML answers with one GPU",
   F_NV, [], no_pci_sysfs, near=["no-gpu"])


def tf_with_cudnn_wheel(root):
    tensorflow_213(root)
    mkdir(root, SP + "/nvidia_cudnn_cu11-8.6.0.163.dist-info")
    put(root, SP + "/nvidia/cudnn/lib/libcudnn.so.8")


sc("near-cudnn-pip-wheel", "laptop-3060", "TensorFlow 2.13 (the tensorflow package, not tensorflow-gpu) with the "
   "nvidia-cudnn-cu11 8.6 wheel in its venv, no system cuDNN", F_NV + F_PY, VENV,
   lambda m, r: venv(r, None, [tf_with_cudnn_wheel]),
   near=["cudnn-missing", "cudnn-version-mismatch", "tensorflow-gpu-obsolete"])


def newer_ld(r):
    put(r, "/opt/unrelated/lib/libopenblas.so.0")
    put(r, "/opt/new/lib/libcudnn.so.9.3.0")
    put(r, "/opt/new/lib/libcudart.so.12.4.127")


sc("near-library-path-newer", "laptop-3060", "LD_LIBRARY_PATH: an unrelated folder, then cuDNN 9.3.0 and "
   "cudart 12.4 (newer than the wheels)", F_NV + F_PY, VENV + ["LD_LIBRARY_PATH=/opt/unrelated/lib:/opt/new/lib"],
   lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [newer_ld]), near=["library-path-shadows-framework"])


# ---- CUDA wheels a framework's METADATA requires (framework-cuda-wheels-missing).
# The framework dist-info folders are real ones from PyPI wheels
# (tests/fixtures/dists/README.md says which); cp312 wheels live in a
# python3.12 venv. The nvidia wheels' versions come from the METADATA itself.

DISTS = os.path.join(HERE, "..", "fixtures", "dists")
SP312 = "/venv/lib/python3.12/site-packages"
# nvidia-<name>-cu12 → (its folder under site-packages/nvidia, the library file it ships)
NV_LIBS = {"cuda-nvrtc": ("cuda_nvrtc", "libnvrtc.so.12"), "cuda-runtime": ("cuda_runtime", "libcudart.so.12"),
           "cuda-cupti": ("cuda_cupti", "libcupti.so.12"), "cudnn": ("cudnn", "libcudnn.so.9"),
           "cublas": ("cublas", "libcublas.so.12"), "cufft": ("cufft", "libcufft.so.11"),
           "curand": ("curand", "libcurand.so.10"), "cusolver": ("cusolver", "libcusolver.so.11"),
           "cusparse": ("cusparse", "libcusparse.so.12"), "nccl": ("nccl", "libnccl.so.2"),
           "nvtx": ("nvtx", "libnvToolsExt.so.1"), "nvjitlink": ("nvjitlink", "libnvJitLink.so.12"),
           "cuda-nvcc": ("cuda_nvcc", None)}


def pinned_wheels(fixture):
    """The nvidia-* wheels a real METADATA pins (==) or floors (>=), in its order."""
    out = []
    for line in open(os.path.join(DISTS, fixture, "METADATA"), encoding="utf-8"):
        m = re.match(r"Requires-Dist: (nvidia-[a-z0-9-]+)[^;]*?(==|>=)([0-9.]+)", line)
        if m and m.group(1) not in [n for n, _ in out]:
            out.append((m.group(1), m.group(3)))
    return out


def real_dist(root, fixture, name):
    dest = os.path.join(root, SP312.lstrip("/"), name)
    shutil.copytree(os.path.join(DISTS, fixture), dest)
    put(root, SP312 + "/" + name + "/INSTALLER", "pip\n")


def real_file(root, fixture, path):
    put(root, path, open(os.path.join(DISTS, "files", fixture), encoding="utf-8").read())


def nvidia_wheel(root, dist, version):
    mkdir(root, SP312 + "/%s-%s.dist-info" % (dist.replace("-", "_"), version))
    folder, lib = NV_LIBS[dist[len("nvidia-"):-len("-cu12")]]
    put(root, SP312 + "/nvidia/%s/lib/%s" % (folder, lib or "libnvptxcompiler_static.a"))


def venv312(root):
    put(root, "/venv/bin/python3")
    put(root, "/venv/pyvenv.cfg", "home = /usr/bin\n")


def torch251(arch="x86_64", wheels=True, drop=(), other=None):
    """PyPI torch 2.5.1 (+cu124 on x86_64, CPU on aarch64); its nvidia wheels
    unless dropped (pip install --no-deps drops them all); other: {dist: version}."""
    def f(m, root):
        venv312(root)
        real_dist(root, "torch-2.5.1-%s.dist-info" % arch, "torch-2.5.1.dist-info")
        real_file(root, "torch-2.5.1-%s-version.py" % arch, SP312 + "/torch/version.py")
        if arch == "x86_64":
            put(root, SP312 + "/torch/lib/libtorch_cuda.so")
            put(root, SP312 + "/torch/lib/libtorch_global_deps.so")
        for dist, ver in pinned_wheels("torch-2.5.1-x86_64.dist-info") if wheels else []:
            if dist not in drop:
                nvidia_wheel(root, dist, (other or {}).get(dist, ver))
    return f


def tf218(and_cuda=True, drop=()):
    """PyPI tensorflow 2.18.0 (CUDA 12.5.1, cuDNN 9 build), with the wheels of
    its [and-cuda] extra unless and_cuda is False or they are dropped."""
    def f(m, root):
        venv312(root)
        real_dist(root, "tensorflow-2.18.0.dist-info", "tensorflow-2.18.0.dist-info")
        real_file(root, "tensorflow-2.18.0-build_info.py", SP312 + "/tensorflow/python/platform/build_info.py")
        for dist, ver in pinned_wheels("tensorflow-2.18.0.dist-info") if and_cuda else []:
            if dist not in drop:
                nvidia_wheel(root, dist, ver)
    return f


def jax435(pjrt=True, drop=()):
    """jax[cuda12] 0.4.35: jax, jaxlib, jax-cuda12-plugin (real METADATA) with
    the wheels of its with_cuda extra (at the torch 2.5.1 versions, which meet
    the plugin's floors; those in drop left out) and, unless left out,
    jax-cuda12-pjrt."""
    def f(m, root):
        venv312(root)
        real_dist(root, "jax-0.4.35.dist-info", "jax-0.4.35.dist-info")
        real_file(root, "jax-0.4.35-version.py", SP312 + "/jax/version.py")
        mkdir(root, SP312 + "/jaxlib-0.4.35.dist-info")
        real_dist(root, "jax_cuda12_plugin-0.4.35.dist-info", "jax_cuda12_plugin-0.4.35.dist-info")
        if pjrt:
            mkdir(root, SP312 + "/jax_cuda12_pjrt-0.4.35.dist-info")
        torch_pins = dict(pinned_wheels("torch-2.5.1-x86_64.dist-info"))
        for dist, floor in pinned_wheels("jax_cuda12_plugin-0.4.35.dist-info"):
            if dist not in drop:
                nvidia_wheel(root, dist, torch_pins.get(dist, "12.4.131"))
    return f


def both(*fs):
    def f(m, root):
        for g in fs:
            g(m, root)
    return f


sc("torch-no-deps", "laptop-3060", "PyPI torch 2.5.1+cu124 installed with `pip install --no-deps`: none of the 12 "
   "nvidia-*-cu12 wheels its METADATA pins (import fails: libcublas.so.*[0-9] not found in the system path)",
   F_NV + F_PY + ["framework-cuda-wheels-missing"], VENV, torch251(wheels=False))
sc("torch-wheel-wrong-version", "laptop-3060", "torch 2.5.1 with every wheel but nvidia-nccl-cu12 2.20.5 where it "
   "pins 2.21.5 (a warning)", F_NV + F_PY + ["framework-cuda-wheels-missing"], VENV,
   torch251(other={"nvidia-nccl-cu12": "2.20.5"}))
sc("near-torch-all-wheels", "laptop-3060", "torch 2.5.1 with all 12 nvidia wheels at the versions its METADATA pins",
   F_NV + F_PY, VENV, torch251(), near=["framework-cuda-wheels-missing"])
sc("near-torch-aarch64-markers", "laptop-3060", "torch 2.5.1 aarch64 wheel (a CPU build): its nvidia requirements "
   "are all behind platform_machine == \"x86_64\" and none is installed", F_NV + F_PY + ["framework-cpu-only-build"],
   VENV, torch251(arch="aarch64", wheels=False), near=["framework-cuda-wheels-missing"])
sc("tf-and-cuda-partial", "laptop-3060", "tensorflow[and-cuda] 2.18.0 with nvidia-cublas-cu12 and "
   "nvidia-cuda-nvcc-cu12 gone: the extra was asked for, two of its 12 wheels are missing",
   F_NV + F_PY + ["framework-cuda-wheels-missing"], VENV,
   tf218(drop=("nvidia-cublas-cu12", "nvidia-cuda-nvcc-cu12")))
def tf_framework_so(runpath):
    def f(m, r):
        putb(r, SP312 + "/tensorflow/libtensorflow_framework.so.2", elf_so(("libc.so.6", "libstdc++.so.6"), runpath))
    return f


TF_RUNPATH = "$ORIGIN/../nvidia/cuda_runtime/lib:$ORIGIN/../nvidia/cublas/lib:$ORIGIN/../nvidia/cudnn/lib:$ORIGIN"
sc("near-tf-system-cuda", "laptop-3060", "tensorflow 2.18.0 without [and-cuda] on a system CUDA 12.5 with cuDNN 9.3 "
   "that /etc/ld.so.conf.d registers: no wheel of the extra is installed, so it was not asked for",
   F_NV + F_PY + ["found-cuda-toolkit"], VENV,
   both(tf218(and_cuda=False), lambda m, r: toolkit("12.5", "9.3.0", libs=True, ldconf=True)(r),
        tf_framework_so(TF_RUNPATH)),
   near=["framework-cuda-wheels-missing", "system-cuda-libraries-not-found"])
sc("tf-system-cuda-not-found", "laptop-3060", "tensorflow 2.18.0 without [and-cuda] on a system CUDA 12.5 with cuDNN "
   "9.3 in /usr/local/cuda-12.5/lib64, which no loader path names (TF's RUNPATH points at the absent wheels)",
   F_NV + F_PY + ["found-cuda-toolkit", "system-cuda-libraries-not-found"], VENV,
   both(tf218(and_cuda=False), lambda m, r: toolkit("12.5", "9.3.0", libs=True)(r), tf_framework_so(TF_RUNPATH)))
sc("near-tf-system-cuda-runpath", "laptop-3060", "tensorflow 2.18.0 without [and-cuda]; the CUDA 12.5 libraries are "
   "found through the RUNPATH of its own libtensorflow_framework.so.2",
   F_NV + F_PY + ["found-cuda-toolkit"], VENV,
   both(tf218(and_cuda=False), lambda m, r: toolkit("12.5", "9.3.0", libs=True)(r),
        tf_framework_so("$ORIGIN/../nvidia/cublas/lib:/usr/local/cuda-12.5/lib64")),
   near=["system-cuda-libraries-not-found"])
sc("near-torch-and-tf", "laptop-3060", "torch 2.5.1 with its wheels next to tensorflow 2.18.0 without [and-cuda]: "
   "the nvidia wheels TF's extra names are torch's own requirements, not a sign that and-cuda was asked for",
   F_NV + F_PY, VENV, both(torch251(), tf218(and_cuda=False)), near=["framework-cuda-wheels-missing"])
sc("jax-plugin-no-pjrt", "laptop-3060", "jax[cuda12] 0.4.35 without jax-cuda12-pjrt, which jax-cuda12-plugin requires",
   F_NV + F_PY + ["framework-cuda-wheels-missing"], VENV, jax435(pjrt=False))
sc("jax-plugin-no-nvcc", "laptop-3060", "jax[cuda12] 0.4.35 without nvidia-cuda-nvcc-cu12 (ptxas) and no CUDA "
   "toolkit on the machine to take it from", F_NV + F_PY + ["framework-cuda-wheels-missing"], VENV,
   jax435(drop=("nvidia-cuda-nvcc-cu12",)))
sc("near-jax-plugin-system-ptxas", "laptop-3060", "jax[cuda12] 0.4.35 without nvidia-cuda-nvcc-cu12 on a machine "
   "with CUDA 12.4's nvcc on PATH: XLA takes ptxas from the toolkit (seen on a working H200 machine, JAX 0.11.2)",
   F_NV + F_PY + ["found-cuda-toolkit"], VENV + ["PATH=/usr/local/cuda-12.4/bin:$PATH"],
   both(jax435(drop=("nvidia-cuda-nvcc-cu12",)), lambda m, r: toolkit("12.4")(r)),
   near=["framework-cuda-wheels-missing"])
sc("near-jax-plugin-complete", "laptop-3060", "jax[cuda12] 0.4.35 complete: plugin, pjrt and the with_cuda wheels "
   "at versions above the plugin's floors", F_NV + F_PY, VENV, jax435(), near=["framework-cuda-wheels-missing"])


# ---- the steps people do by hand: torch's companions, tensorflow-gpu,
# ROCm on an OS release it does not support, memory held by no listed process.

def torch_part(dist, ver, cuda=None, pin=None):
    """torchvision/torchaudio VER (with its local tag) in the py3.11 venv: a
    METADATA that pins torch==PIN, a version.py that says `cuda = CUDA`."""
    def f(root):
        d = SP + "/%s-%s.dist-info" % (dist, ver)
        put(root, d + "/METADATA", "Metadata-Version: 2.1\nName: %s\nVersion: %s\n%s\nThe description.\n"
            % (dist, ver, "Requires-Dist: numpy\nRequires-Dist: torch (==%s)\n" % pin if pin else ""))
        put(root, SP + "/%s/version.py" % dist, "__version__ = '%s'\ngit_version = '3ac97aa9'\n%s"
            % (ver, "cuda = '%s'\n" % cuda if cuda else ""))
    return f


TORCH121 = ("2.5.1+cu121", "12.1", None)
sc("torch-companion-release", "laptop-3060", "torch 2.5.1+cu121 reinstalled alone: torchvision 0.19.1+cu121 (pins "
   "torch==2.4.1) and torchaudio 2.5.1+cu121 stay; the fix reinstalls the 2.5.1 trio from the cu121 index",
   F_NV + F_PY + ["torch-companion-mismatch"], VENV,
   lambda m, r: venv(r, TORCH121, [torch_part("torchvision", "0.19.1+cu121", "12.1", "2.4.1"),
                                   torch_part("torchaudio", "2.5.1+cu121", None, "2.5.1")]))
sc("torch-companion-cuda", "laptop-3060", "torch 2.5.1+cu121 with torchvision 0.20.1+cu118 (CUDA 11.8: another "
   "major) and torchaudio 2.5.1+cpu; every release matches", F_NV + F_PY + ["torch-companion-mismatch"], VENV,
   lambda m, r: venv(r, TORCH121, [torch_part("torchvision", "0.20.1+cu118", "11.8", "2.5.1"),
                                   torch_part("torchaudio", "2.5.1+cpu", None, "2.5.1")]))
sc("torch-companion-cuda-minor", "laptop-3060", "torch 2.5.1+cu121 with torchvision 0.20.1+cu124: the same "
   "release and CUDA major, another CUDA minor (a warning)", F_NV + F_PY + ["torch-companion-mismatch"], VENV,
   lambda m, r: venv(r, TORCH121, [torch_part("torchvision", "0.20.1+cu124", "12.4", "2.5.1")]))
sc("near-torch-companions-matched", "laptop-3060", "torch 2.5.1+cu121, torchvision 0.20.1+cu121 (pins 2.5.1) and a "
   "torchaudio 2.5.1 with no local tag, no pin and no CUDA in its version.py (the table's release; its build "
   "is not judged)", F_NV + F_PY, VENV,
   lambda m, r: venv(r, TORCH121, [torch_part("torchvision", "0.20.1+cu121", "12.1", "2.5.1"),
                                   torch_part("torchaudio", "2.5.1")]),
   near=["torch-companion-mismatch"])


def tensorflow_gpu_210(root):
    """pip install tensorflow-gpu==2.10.0: CUDA 11.2 / cuDNN 8 build, cuDNN 8.1 wheel for CUDA 11."""
    mkdir(root, SP + "/tensorflow_gpu-2.10.0.dist-info")
    put(root, SP + "/tensorflow/python/platform/build_info.py",
        "import collections\nbuild_info = collections.OrderedDict([('cuda_version', '11.2'), "
        "('cudnn_version', '8'), ('is_cuda_build', True), ('is_rocm_build', False)])\n")
    mkdir(root, SP + "/nvidia_cudnn_cu11-8.1.0.77.dist-info")
    put(root, SP + "/nvidia/cudnn/lib/libcudnn.so.8")


sc("tensorflow-gpu-installed", "laptop-3060", "tensorflow-gpu 2.10.0, as guide B's `pip install tensorflow-gpu` "
   "left it, with its cuDNN 8.1 wheel and no system CUDA 11 runtime for it to load",
   F_NV + F_PY + ["tensorflow-gpu-obsolete", "system-cuda-libraries-not-found"], VENV,
   lambda m, r: venv(r, None, [tensorflow_gpu_210]))


def os_release(os_id, version_id, pretty, like=None):
    def f(m, r):
        put(r, "/etc/os-release", 'NAME="%s"\nID=%s\n%sVERSION_ID="%s"\nPRETTY_NAME="%s"\n'
            % (pretty.split()[0], os_id, 'ID_LIKE="%s"\n' % like if like else "", version_id, pretty))
    return f


def rocm_release(version):
    def f(m, r):
        put(r, "/opt/rocm/.info/version", version + "\n")
    return f


sc("rocm-os-unsupported", "mi300x", "ROCm 6.2.0 on Ubuntu 20.04 (ROCm 6.2 dropped 20.04; data/rocm_os.tsv)",
   ["found-gpus", "found-rocm", "rocm-os-unsupported"], [], os_release("ubuntu", "20.04", "Ubuntu 20.04.6 LTS"))
sc("rocm-os-rocky-unsupported", "mi300x", "ROCm 6.2.0 on Rocky Linux 9.5, judged as RHEL 9.5 (6.2 lists 9.4 and 9.3)",
   ["found-gpus", "found-rocm", "rocm-os-unsupported"], [],
   os_release("rocky", "9.5", "Rocky Linux 9.5 (Blue Onyx)", "rhel centos fedora"))
sc("near-rocm-os-supported", "mi300x", "ROCm 6.2.0 on Rocky Linux 9.4 (judged as RHEL 9.4, which 6.2 lists)",
   ["found-gpus", "found-rocm"], [], os_release("rocky", "9.4", "Rocky Linux 9.4 (Blue Onyx)", "rhel centos fedora"),
   near=["rocm-os-unsupported"])
sc("near-rocm-os-unknown-release", "mi300x", "ROCm 6.4.1, a release data/rocm_os.tsv does not have, on Ubuntu "
   "20.04: not judged", ["found-gpus", "found-rocm"], [],
   both(os_release("ubuntu", "20.04", "Ubuntu 20.04.6 LTS"), rocm_release("6.4.1")), near=["rocm-os-unsupported"])


def unlisted_memory(used_gib, holder=True):
    """laptop-3060 with no process listed by NVML and USED GiB in use;
    pid 4242 (alice) has /dev/nvidia0 open unless holder is False; pid
    4300 only /dev/nvidiactl (every CUDA process opens it)."""
    def f(m, r):
        d = dev(m, 0)
        d["processes"] = {"compute": [], "graphics": []}
        d["memory"]["used"] = int(used_gib * 1024 ** 3)
        put(r, "/etc/passwd", open(os.path.join(r, "etc/passwd")).read() + "alice:x:1042:1042::/home/alice:/bin/bash\n")
        if holder:
            put(r, "/proc/4242/status", "Name:\tpython\nUid:\t1042\t1042\t1042\t1042\n")
            put(r, "/proc/4242/cmdline", "python\0train.py\0")
            link(r, "/dev/nvidiactl", "/proc/4242/fd/3")
            link(r, "/dev/nvidia0", "/proc/4242/fd/5")
        put(r, "/proc/4300/status", "Name:\tjupyter\nUid:\t1042\t1042\t1042\t1042\n")
        link(r, "/dev/nvidiactl", "/proc/4300/fd/3")
    return f


sc("memory-no-process-holder", "laptop-3060", "5 GiB of the RTX 3060 in use, NVML lists no process; pid 4242 "
   "(alice, python train.py) has /dev/nvidia0 open", F_NV + ["gpu-memory-used-no-process"], [], unlisted_memory(5))
sc("memory-no-process-elsewhere", "laptop-3060", "5 GiB in use, no process listed and none here has /dev/nvidia0 "
   "open: another container's", F_NV + ["gpu-memory-used-no-process"], [], unlisted_memory(5, holder=False))
sc("near-memory-no-process-baseline", "laptop-3060", "0.9 GiB in use with no process listed: within an idle "
   "context's baseline", F_NV, [], unlisted_memory(0.9), near=["gpu-memory-used-no-process"])


# ---- GPUs that are there but that no framework can use: "not ready" always
# comes with an error finding (and exit 1).

def intel_only(m, r):
    """laptop-3060 without its NVIDIA GPU and driver: the Intel iGPU (i915) is left."""
    m["nvml"] = None
    m["cuda"] = None
    rm(r, "/sys/bus/pci/devices/0000:01:00.0")
    rm(r, "/sys/module/nvidia")
    rm(r, "/sys/module/nvidia_uvm")
    rm(r, "/proc/driver/nvidia")
    for n in ("nvidia0", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools"):
        rm(r, "/dev/" + n)
    put(r, "/proc/modules", "i915 4096000 3 - Live 0x0\n")


sc("intel-igpu-only", "laptop-3060", "only an Intel iGPU (i915): no GPU a CUDA or ROCm framework can use",
   ["found-gpus", "no-usable-gpu"], [], intel_only)
sc("near-intel-plus-nvidia", "laptop-3060", "Intel iGPU beside a working RTX 3060 (a hybrid laptop): the NVIDIA "
   "GPU is usable", F_NV, near=["no-usable-gpu"])


def amd_vfio(which):
    def f(m, r):
        for bus in which:
            p = "/sys/bus/pci/devices/" + bus
            put(r, "/sys/bus/pci/drivers/vfio-pci/uevent", "")
            link(r, "../../../../bus/pci/drivers/vfio-pci", p + "/driver")
        # KFD lists only the GPUs amdgpu drives.
        for node, bus in (("1", "0000:0c:00.0"), ("2", "0000:22:00.0")):
            if bus in which:
                rm(r, "/sys/class/kfd/kfd/topology/nodes/" + node)
    return f


sc("amd-vfio", "mi300x", "both MI300X bound to vfio-pci (kept for a VM); amdgpu loaded, /dev/kfd present",
   ["found-gpus", "found-rocm", "gpu-bound-to-other-driver"], [], amd_vfio(["0000:0c:00.0", "0000:22:00.0"]))


def amd_vfio_audio(m, r):
    """The GPU's HDMI audio function (class 0x0403) on vfio-pci: not a GPU."""
    p = "/sys/bus/pci/devices/0000:0c:00.1"
    put(r, p + "/class", "0x040300\n")
    put(r, p + "/vendor", "0x1002\n")
    put(r, p + "/device", "0xab38\n")
    put(r, "/sys/bus/pci/drivers/vfio-pci/uevent", "")
    link(r, "../../../../bus/pci/drivers/vfio-pci", p + "/driver")


sc("near-amd-vfio-audio", "mi300x", "the MI300X's audio function on vfio-pci, both GPUs on amdgpu",
   ["found-gpus", "found-rocm"], [], amd_vfio_audio, near=["gpu-bound-to-other-driver", "no-usable-gpu"])


def nvidia_vfio(m, r):
    """The L4 of the no-driver machine bound to vfio-pci, nvidia never loaded."""
    p = "/sys/bus/pci/devices/0000:41:00.0"
    put(r, "/sys/bus/pci/drivers/vfio-pci/uevent", "")
    link(r, "../../../../bus/pci/drivers/vfio-pci", p + "/driver")


sc("nvidia-vfio", "no-driver", "the L4 bound to vfio-pci for a VM, no nvidia module: the GPU is reserved, not "
   "missing a driver (loading nvidia would not help)", ["found-gpus", "gpu-bound-to-other-driver"], [], nvidia_vfio)


# ---- the distributed stack (issue 12 item 7): NCCL's variables against this
# machine's GPUs and interfaces, and the NCCL the loader would take.

def nics(*names, rdma=()):
    """/sys/class/net entries: lo (virtual) and physical NICs with a device
    folder and its numa_node; rdma: /sys/class/infiniband HCAs."""
    def f(r):
        put(r, "/sys/class/net/lo/operstate", "unknown\n")
        for n in names:
            put(r, "/sys/class/net/%s/device/numa_node" % n, "0\n")
            put(r, "/sys/class/net/%s/speed" % n, "100000\n")
        for h in rdma:
            put(r, "/sys/class/infiniband/%s/node_type" % h, "1: CA\n")
    return f


sc("nccl-transport-disabled", "h100-8x", "8 GPUs and an InfiniBand HCA with NCCL_P2P_DISABLE=1 and "
   "NCCL_IB_DISABLE=1 (copied workarounds: NVLink and RDMA unused)",
   F_NV + ["nccl-transport-disabled", "gpu-memory-held-by-other-processes"], ["NCCL_P2P_DISABLE=1", "NCCL_IB_DISABLE=1"],
   lambda m, r: nics("ens1np0", rdma=("mlx5_0",))(r))
sc("near-nccl-transport-one-gpu", "laptop-3060", "one GPU, no InfiniBand device: NCCL_P2P_DISABLE=1, "
   "NCCL_SHM_DISABLE=1 and NCCL_IB_DISABLE=1 cost nothing here",
   F_NV, ["NCCL_P2P_DISABLE=1", "NCCL_SHM_DISABLE=1", "NCCL_IB_DISABLE=1"], lambda m, r: nics("eno1")(r),
   near=["nccl-transport-disabled"])
sc("near-nccl-transport-zero", "h100-8x", "8 GPUs and an HCA with NCCL_P2P_DISABLE=0, NCCL_SHM_DISABLE=0 and "
   "NCCL_IB_DISABLE=0 (the defaults, written out)",
   F_NV + ["gpu-memory-held-by-other-processes"], ["NCCL_P2P_DISABLE=0", "NCCL_SHM_DISABLE=0", "NCCL_IB_DISABLE=0"],
   lambda m, r: nics("ens1np0", rdma=("mlx5_0",))(r), near=["nccl-transport-disabled"])
sc("nccl-socket-ifname-unknown", "laptop-3060", "NCCL_SOCKET_IFNAME=eth (a prefix) on a machine whose NICs are "
   "eno1 and docker0: no interface matches, NCCL's bootstrap fails",
   F_NV + ["nccl-socket-ifname-unknown"], ["NCCL_SOCKET_IFNAME=eth"], lambda m, r: nics("eno1", "docker0")(r))
sc("nccl-socket-ifname-exact", "laptop-3060", "NCCL_SOCKET_IFNAME==eno (exact): eno1 has the prefix but not the name",
   F_NV + ["nccl-socket-ifname-unknown"], ["NCCL_SOCKET_IFNAME==eno"], lambda m, r: nics("eno1")(r))
sc("near-nccl-socket-ifname", "laptop-3060", "NCCL_SOCKET_IFNAME=^docker,lo (an exclusion list) leaves eno1",
   F_NV, ["NCCL_SOCKET_IFNAME=^docker,lo"], lambda m, r: nics("eno1", "docker0")(r),
   near=["nccl-socket-ifname-unknown"])


def nccl_wheel(version):
    def f(r):
        mkdir(r, SP + "/nvidia_nccl_cu12-%s.dist-info" % version)
        put(r, SP + "/nvidia/nccl/lib/libnccl.so.2")
    return f


def system_nccl(folder, version):
    def f(r):
        put(r, folder + "/libnccl.so.2." + version.split(".", 1)[1])
        link(r, "libnccl.so.2." + version.split(".", 1)[1], folder + "/libnccl.so.2")
    return f


sc("system-nccl-shadows", "laptop-3060", "LD_LIBRARY_PATH puts NCCL 2.18.3 ahead of the NCCL 2.21.5 wheel",
   F_NV + F_PY + ["system-nccl-shadows-framework"], VENV + ["LD_LIBRARY_PATH=/opt/nccl/lib"],
   lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [nccl_wheel("2.21.5"), system_nccl("/opt/nccl/lib", "2.18.3")]))
sc("system-nccl-preload", "laptop-3060", "LD_PRELOAD names /opt/nccl/lib/libnccl.so.2, a link to NCCL 2.18.3, "
   "while LD_LIBRARY_PATH holds a newer 2.23.4: the preloaded one wins",
   F_NV + F_PY + ["system-nccl-shadows-framework"],
   VENV + ["LD_PRELOAD=/opt/nccl/lib/libnccl.so.2", "LD_LIBRARY_PATH=/opt/new/lib"],
   lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [nccl_wheel("2.21.5"), system_nccl("/opt/nccl/lib", "2.18.3"),
                                                         system_nccl("/opt/new/lib", "2.23.4")]))
sc("near-system-nccl-newer", "laptop-3060", "LD_LIBRARY_PATH holds NCCL 2.23.4, newer than the 2.21.5 wheel",
   F_NV + F_PY, VENV + ["LD_LIBRARY_PATH=/opt/nccl/lib"],
   lambda m, r: venv(r, ("2.5.1+cu121", "12.1", None), [nccl_wheel("2.21.5"), system_nccl("/opt/nccl/lib", "2.23.4")]),
   near=["system-nccl-shadows-framework", "library-path-shadows-framework"])



def elf_bytes(needed=(), rodata=b""):
    """A minimal 64-bit little-endian ELF shared object as doctor reads one:
    an ELF header, .dynstr naming the needed libraries, .rodata, .shstrtab
    and the section header table (no code: it is never loaded)."""
    import struct
    dynstr = b"\0" + b"".join(n.encode() + b"\0" for n in needed)
    names = [b"", b".dynstr", b".rodata", b".shstrtab"]
    shstr = b"".join(n + b"\0" for n in names)
    off_dynstr = 64
    off_rodata = off_dynstr + len(dynstr)
    off_shstr = off_rodata + len(rodata)
    shoff = (off_shstr + len(shstr) + 7) & ~7
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    head = ident + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, len(names), 3)
    body = head + dynstr + rodata + shstr
    body += bytes(shoff - len(body))

    def sh(name_off, typ, off, size):
        return struct.pack("<IIQQQQIIQQ", name_off, typ, 0, 0, off, size, 0, 0, 1, 0)
    name_off = [0]
    for n in names[:-1]:
        name_off.append(name_off[-1] + len(n) + 1)
    body += bytes(64)
    body += sh(name_off[1], 3, off_dynstr, len(dynstr))
    body += sh(name_off[2], 1, off_rodata, len(rodata))
    body += sh(name_off[3], 3, off_shstr, len(shstr))
    return body


def put_bytes(root, path, data):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data)


# ---- Horovod: its compiled extensions, read as files (never imported).

HVD = SP + "/horovod"
EXT = ".cpython-311-x86_64-linux-gnu.so"


def horovod(exts):
    """Horovod 0.28.1 with the extensions given as {module: ELF bytes}."""
    def f(r):
        mkdir(r, SP + "/horovod-0.28.1.dist-info")
        put(r, HVD + "/__init__.py", "__version__ = '0.28.1'\n")
        put(r, HVD + "/metadata.json", '{"torch": "2.5.1+cu121", "dummy": "none"\n}\n')
        for module, data in exts.items():
            put(r, HVD + "/%s/__init__.py" % module)
            put_bytes(r, HVD + "/%s/%s%s" % (module, "mpi_lib_v2" if module == "torch" else "mpi_lib", EXT), data)
    return f


NCCL_SHARED = elf_bytes(["libcudart.so.12", "libnccl.so.2", "libmpi.so.40", "libc.so.6"])
NCCL_STATIC = elf_bytes(["libcudart.so.12", "libc.so.6"], b"\0unhandled cuda error\0NCCL version 2.18.3+cuda12.1\0")
MPI_GPU = elf_bytes(["libcudart.so.12", "libmpi.so.40", "libc.so.6"])
CPU_ONLY = elf_bytes(["libmpi.so.40", "libc.so.6"], b"\0Horovod has been shut down.\0")
TORCH = ("2.5.1+cu121", "12.1", None)

sc("horovod-torch-not-built", "laptop-3060", "Horovod with only a TensorFlow extension, next to PyTorch: "
   "import horovod.torch fails", F_NV + F_PY + ["horovod-framework-not-built"], VENV,
   lambda m, r: venv(r, TORCH, [horovod({"tensorflow": NCCL_SHARED})]))
sc("near-horovod-torch-built", "laptop-3060", "Horovod with a PyTorch extension that needs libnccl.so.2, and no "
   "TensorFlow extension (TensorFlow is not installed)", F_NV + F_PY, VENV,
   lambda m, r: venv(r, TORCH, [horovod({"torch": NCCL_SHARED})]),
   near=["horovod-framework-not-built", "horovod-without-nccl"])
sc("horovod-without-nccl", "laptop-3060", "Horovod's PyTorch extension needs libcudart but no libnccl and has no "
   "NCCL banner: GPU tensors go through host memory", F_NV + F_PY + ["horovod-without-nccl"], VENV,
   lambda m, r: venv(r, TORCH, [horovod({"torch": MPI_GPU})]))
sc("horovod-cpu-only", "laptop-3060", "Horovod's PyTorch extension has neither NCCL nor a CUDA runtime: GPU tensors "
   "are refused (error)", F_NV + F_PY + ["horovod-without-nccl"], VENV,
   lambda m, r: venv(r, TORCH, [horovod({"torch": CPU_ONLY})]))
sc("near-horovod-static-nccl", "laptop-3060", "Horovod's PyTorch extension with NCCL linked statically (Horovod's "
   "default): no libnccl needed, but NCCL's version banner is in .rodata", F_NV + F_PY, VENV,
   lambda m, r: venv(r, TORCH, [horovod({"torch": NCCL_STATIC})]), near=["horovod-without-nccl"])
sc("near-horovod-no-gpu-framework", "laptop-3060", "a CPU-only extension next to a CPU-only PyTorch wheel: "
   "nothing to reduce on a GPU", F_NV + F_PY + ["framework-cpu-only-build"], VENV,
   lambda m, r: venv(r, ("2.3.0+cpu", None, None), [horovod({"torch": CPU_ONLY})]), near=["horovod-without-nccl"])


# ---- GPUs and NICs on NUMA nodes.

def numa(gpu_nodes, nic_nodes):
    """h100-8x with the GPUs' PCI numa_node set (in bus order) and NICs
    {name: (node, Mb/s)}."""
    def f(m, r):
        buses = sorted(os.listdir(os.path.join(r, "sys/bus/pci/devices")))
        gpus = [b for b in buses if open(os.path.join(r, "sys/bus/pci/devices", b, "vendor")).read().strip() == "0x10de"]
        for b, node in zip(gpus, gpu_nodes):
            put(r, "/sys/bus/pci/devices/%s/numa_node" % b, "%d\n" % node)
        put(r, "/sys/class/net/lo/operstate", "unknown\n")
        for name, (node, speed) in nic_nodes.items():
            put(r, "/sys/class/net/%s/device/numa_node" % name, "%d\n" % node)
            put(r, "/sys/class/net/%s/speed" % name, "%d\n" % speed)
    return f


sc("gpu-nic-numa-mismatch", "h100-8x", "GPUs 0-3 on NUMA node 0, 4-7 on node 1; the only 400 Gb/s NIC is on node 0 "
   "(the 1 Gb/s management port on node 1 does not count)",
   F_NV + ["gpu-nic-numa-mismatch", "gpu-memory-held-by-other-processes"], [],
   numa([0, 0, 0, 0, 1, 1, 1, 1], {"ibp12s0": (0, 400000), "eno1": (1, 1000)}))
sc("near-gpu-nic-numa", "h100-8x", "GPUs on nodes 0 and 1, a 400 Gb/s NIC on each node",
   F_NV + ["gpu-memory-held-by-other-processes"], [],
   numa([0, 0, 0, 0, 1, 1, 1, 1], {"ibp12s0": (0, 400000), "ibp140s0": (1, 400000)}),
   near=["gpu-nic-numa-mismatch"])


def peers(cross, same="OK", nvlink="NOT_SUPPORTED"):
    """h100-8x as a PCIe box: no NVLink between any pair (nvlink as
    given), peer read and write `same` between GPUs of one socket (0-3,
    4-7) and `cross` between the sockets."""
    def f(m, r):
        for i, d in enumerate(m["nvml"]["devices"]):
            rw = [None if j == i else (same if (i < 4) == (j < 4) else cross) for j in range(8)]
            d["p2p"] = {"read": rw, "write": rw, "nvlink": [None if j == i else nvlink for j in range(8)],
                        "atomics": [None if j == i else "NOT_SUPPORTED" for j in range(8)]}
    return f


sc("gpu-peer-access-unavailable", "h100-8x", "8 PCIe GPUs on two sockets, no NVLink: NVML refuses peer read and "
   "write across the sockets (chipset not supported, SYS); within a socket they are fine",
   F_NV + ["gpu-peer-access-unavailable", "gpu-memory-held-by-other-processes"], [],
   peers("CHIPSET_NOT_SUPPORTED"))
sc("near-peer-access-pcie", "h100-8x", "8 PCIe GPUs, no NVLink and no atomics, but peer read and write OK for "
   "every pair (across the sockets too)",
   F_NV + ["gpu-memory-held-by-other-processes"], [], peers("OK"), near=["gpu-peer-access-unavailable"])
sc("near-peer-access-unknown", "h100-8x", "8 PCIe GPUs whose driver answers UNKNOWN for peer access across the "
   "sockets: not judged",
   F_NV + ["gpu-memory-held-by-other-processes"], [], peers("UNKNOWN"), near=["gpu-peer-access-unavailable"])


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
