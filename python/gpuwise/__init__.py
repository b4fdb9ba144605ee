"""gpuwise — GPU facts, selection and monitoring for Python, without a framework.

The functions named like torch.cuda's (is_available, device_count,
get_device_name, get_device_capability, mem_get_info) answer for the devices
CUDA would give this process, in CUDA's order, computed from NVML and the
environment (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER). gpuwise never calls
cuInit in your process, so gpuwise.select() can still change what your
framework will see. See docs/python.md.
"""

import os as _os
import sys as _sys

from . import _gpuwise as _C
from ._i18n import N_, _
from ._gpuwise import (  # noqa: F401  (re-exported)
    DeviceNotFoundError,
    DriverMismatchError,
    DriverNotLoadedError,
    GPUIOError,
    GPULostError,
    GPUPermissionError,
    GPUWiseError,
    InvalidArgumentError,
    InvalidDeviceError,
    LibraryNotFoundError,
    NoGPUError,
    NoSuitableDeviceError,
    NotSupportedError,
    ParseError,
    VendorError,
)

__version__ = _C.version()

__all__ = [
    "is_available", "device_count", "get_device_name", "get_device_capability",
    "mem_get_info", "driver_version", "cuda_driver_version", "devices", "Device",
    "MigDevice", "Process", "select", "monitor", "Monitor", "refresh", "parse_size",
    "explain", "Match", "install_excepthook", "explanation_text", "doctor", "Report", "Finding",
    "advise",
    "GPUWiseError", "NoGPUError", "DriverNotLoadedError", "DriverMismatchError",
    "LibraryNotFoundError", "GPULostError", "GPUPermissionError", "DeviceNotFoundError",
    "InvalidDeviceError", "InvalidArgumentError", "NotSupportedError", "VendorError",
    "ParseError", "GPUIOError", "NoSuitableDeviceError",
]

_ctx = None
_ctx_infos = None


def _error(cls, message, code=None):
    """Build an exception of a gpuwise class with .code and .message set."""
    exc = cls(message)
    exc.code = _C.EGENERIC if code is None else code
    exc.message = message
    return exc


def _context():
    """The process-wide context, created on first use (NVML and sysfs only)."""
    global _ctx
    ctx = _ctx
    if ctx is None:
        ctx = _C.Context(flags=_C.OPT_NO_CUDA)
        _ctx = ctx
    return ctx


def refresh():
    """Forget what gpuwise enumerated; the next call enumerates the GPUs again."""
    global _ctx, _ctx_infos
    _ctx = None
    _ctx_infos = None


def _infos(ctx):
    """Static facts of every device of ctx (cached for the shared context)."""
    global _ctx_infos
    cached = _ctx_infos
    if cached is not None and cached[0] is ctx:
        return cached[1]
    infos = [ctx.device_info(i) for i in range(ctx.device_count())]
    if ctx is _ctx:
        _ctx_infos = (ctx, infos)
    return infos


# ---- CUDA's view of this process ------------------------------------------

def _cuda_candidates(infos):
    """Devices a CUDA (or ROCm) runtime could enumerate, in its base order."""
    nv = [d for d in infos if d["vendor"] == "nvidia" and d["health"] == "ok"]
    if nv:
        if _os.environ.get("CUDA_DEVICE_ORDER", "").strip() == "PCI_BUS_ID":
            nv.sort(key=lambda d: (d["pci_bus_id"] or "", d["index"]))
        else:
            # FASTEST_FIRST (CUDA's default): compute capability descending,
            # then PCI bus id. Python's sort is stable.
            nv.sort(key=lambda d: (-(d["cc_major"] or 0), -(d["cc_minor"] or 0),
                                   d["pci_bus_id"] or "", d["index"]))
        return nv, "CUDA_VISIBLE_DEVICES"
    amd = [d for d in infos if d["vendor"] == "amd" and d["health"] == "ok"]
    var = "HIP_VISIBLE_DEVICES" if "HIP_VISIBLE_DEVICES" in _os.environ else "CUDA_VISIBLE_DEVICES"
    return amd, var


def _mig_list(ctx, info):
    if not info["mig_capable"]:
        return []
    try:
        return ctx.sample(info["index"])["mig_devices"]
    except GPUWiseError:
        return []


def _match_uuid(token, base, ctx):
    """The (info, mig) a CUDA_VISIBLE_DEVICES UUID entry names, or None."""
    low = token.lower()
    if low.startswith("mig-"):
        hits = [(d, m) for d in base for m in _mig_list(ctx, d)
                if m["uuid"] and m["uuid"].lower().startswith(low)]
    else:
        want = low if low.startswith("gpu-") else "gpu-" + low
        hits = [(d, None) for d in base if d["uuid"] and d["uuid"].lower().startswith(want)]
    return hits[0] if len(hits) == 1 else None


def _cuda_units(ctx):
    """[(info, mig_or_None)] in the order CUDA will number them in this
    process, given the environment as it is now. An entry that names no
    device hides it and every entry after it, as CUDA does."""
    base, var = _cuda_candidates(_infos(ctx))
    spec = _os.environ.get(var)
    if spec is None:
        return [(d, None) for d in base]
    units, seen = [], set()
    for token in spec.split(","):
        token = token.strip()
        if not token:
            break
        if token.lstrip("-").isdigit():
            n = int(token)
            unit = (base[n], None) if 0 <= n < len(base) else None
        else:
            unit = _match_uuid(token, base, ctx)
        if unit is None:
            break
        key = (unit[0]["index"], unit[1]["uuid"] if unit[1] else None)
        if key in seen:
            break
        seen.add(key)
        units.append(unit)
    return units


def _diagnosis(ctx):
    """The exception that says why no device is usable."""
    infos = _infos(ctx)
    backends = {b["name"]: b for b in ctx.backends()}
    nvml = backends.get("nvml")
    nvidia = [d for d in infos if d["vendor"] == "nvidia"]
    if nvml and nvml["state"] == "init-failed" and nvml["error"]:
        return _error(_C.error_class(nvml["error"]), nvml["message"] or _C.error_str(nvml["error"]),
                      nvml["error"])
    nodriver = [d for d in infos if d["health"] == "no-driver"]
    if nodriver:
        d = nodriver[0]
        return _error(DriverNotLoadedError,
                      "%s GPU %s is on the PCI bus but no driver serves it%s" % (
                          d["vendor"], d["pci_bus_id"] or d["index"],
                          ": " + d["health_reason"] if d["health_reason"] else ""), _C.EDRIVER)
    if nvml and nvml["state"] == "library-missing" and nvidia:
        return _error(LibraryNotFoundError, nvml["message"] or "libnvidia-ml.so.1 could not be loaded",
                      _C.ELIBRARY)
    lost = [d for d in infos if d["health"] == "lost"]
    if lost and len(lost) == len(nvidia or lost):
        d = lost[0]
        return _error(GPULostError, "GPU %s (%s) is lost: %s" % (
            d["index"], d["pci_bus_id"], d["health_reason"] or "fell off the bus"), _C.ELOST)
    base, var = _cuda_candidates(infos)
    if base and var in _os.environ:
        return _error(NoGPUError, _("%s=%r hides all %d GPUs from CUDA") % (
            var, _os.environ[var], len(base)), _C.ENOGPU)
    why = "; ".join("%s: %s" % (b["name"], b["message"]) for b in backends.values() if b["message"])
    return _error(NoGPUError, (_("no GPU found (%s)") % why) if why else _(_C.error_str(_C.ENOGPU)), _C.ENOGPU)


# ---- device selectors ---------------------------------------------------------
#
# One resolver for every argument that names devices (get_device_*, mem_get_info,
# select(exclude=), monitor(devices=)). In Python an int, "N", "cuda", "cuda:N"
# and a torch.device are CUDA indices (the devices of this process, in CUDA's
# order); every other string goes to the library's gw_context_select(), the
# resolver of the CLI's `-i`: UUIDs and unique prefixes (8+ characters, digits
# only included), MIG UUIDs, "G:M" as `gpuwise list` prints MIG rows, PCI bus
# ids. A str may list several, comma-separated. Anything that names no device
# raises DeviceNotFoundError (a ValueError) naming the selector.

_SELECTOR_TYPES = N_("an int (CUDA index), 'cuda:N', a UUID, a PCI bus id, a gpuwise.Device or a torch.device")


def _cuda_index_text(token):
    """The CUDA index a string names ('3', 'cuda', 'cuda:3'), or None when it
    is another kind of selector. Fewer than 8 digits: 8 or more are a UUID
    prefix, as in the CLI."""
    t = token.lower()
    if t == "cuda":
        return 0
    if t.startswith("cuda:"):
        t = t[5:]
        if not (t.isascii() and t.isdigit()):
            raise _error(InvalidArgumentError, _("invalid device %r (want 'cuda', 'cuda:N' or 'N')") % token,
                         _C.EINVAL)
        return int(t)
    if t.isascii() and t.isdigit() and len(t) < 8:
        return int(t)
    return None


def _by_cuda_index(ctx, n, label, what):
    units = _cuda_units(ctx)
    if not units:
        raise _diagnosis(ctx)
    if not 0 <= n < len(units):
        raise _error(InvalidDeviceError, _("%sno CUDA device %s: %d visible to this process (0..%d)") % (
            what, label, len(units), len(units) - 1), _C.ENOTFOUND)
    info, mig = units[n]
    return (info, mig["uuid"] if mig else None, n)


def _by_library(ctx, token, what):
    """Targets of one non-index string, resolved by the library as `-i` does."""
    infos = _infos(ctx)
    try:
        picked = ctx.select(token)
    except GPUWiseError as e:
        raise _error(type(e), what + str(e), e.code) from None
    out = []
    for index, mig in picked:
        mig_uuid = None
        if mig is not None:
            migs = ctx.sample(index)["mig_devices"]
            mig_uuid = migs[mig]["uuid"] if mig < len(migs) else None
        out.append((infos[index], mig_uuid, None))
    return out


def _by_device(ctx, dev, what):
    """A Device snapshot, found again in ctx (by index when it is still the
    same GPU, else by UUID or bus id: the snapshot may predate refresh())."""
    infos = _infos(ctx)
    if 0 <= dev.index < len(infos) and (infos[dev.index]["uuid"], infos[dev.index]["pci_bus_id"]) == (
            dev.uuid, dev.pci_bus_id):
        return (infos[dev.index], None, None)
    key = dev.uuid or dev.pci_bus_id
    if not key:
        raise _error(DeviceNotFoundError, _("%sGPU %d of an earlier snapshot is gone") % (what, dev.index),
                     _C.ENOTFOUND)
    return _by_library(ctx, key, what)[0]


def _resolve(ctx, sel, what=""):
    """[(info, mig_uuid or None, cuda_index or None)] that one selector names,
    in order, duplicates dropped. `what` prefixes error messages."""
    if isinstance(sel, bool) or sel is None:
        raise TypeError(_("%sa device must be %s, not %r") % (what, _(_SELECTOR_TYPES), sel))
    if isinstance(sel, Device):
        found = [_by_device(ctx, sel, what)]
    elif isinstance(sel, MigDevice):
        found = [(_by_device(ctx, sel.parent, what)[0], sel.uuid, None)]
    elif isinstance(sel, str):
        found = []
        for token in sel.split(","):
            token = token.strip()
            if not token:
                raise _error(InvalidArgumentError, _("%sempty device selector in %r") % (what, sel), _C.EINVAL)
            n = _cuda_index_text(token)
            found += [_by_cuda_index(ctx, n, repr(token), what)] if n is not None else \
                _by_library(ctx, token, what)
    elif hasattr(type(sel), "__index__"):       # int, numpy integers
        import operator
        n = operator.index(sel)
        found = [_by_cuda_index(ctx, n, str(n), what)]
    elif isinstance(getattr(sel, "type", None), str) and hasattr(sel, "index"):   # a torch.device
        if sel.type not in ("cuda", "hip"):
            raise _error(InvalidArgumentError, _("%s%r is not a GPU") % (what, sel), _C.EINVAL)
        n = sel.index or 0
        found = [_by_cuda_index(ctx, n, repr(sel), what)]
    else:
        raise TypeError(_("%sa device must be %s, not %s") % (what, _(_SELECTOR_TYPES), type(sel).__name__))
    out, seen = [], set()
    for t in found:
        key = (t[0]["index"], t[1])
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


def _resolve_all(ctx, sels, what):
    """Targets of a selector or an iterable of them, duplicates dropped."""
    if isinstance(sels, (str, bytes)) or not hasattr(sels, "__iter__"):
        sels = (sels,)
    out, seen = [], set()
    for sel in sels:
        for t in _resolve(ctx, sel, what):
            if (t[0]["index"], t[1]) not in seen:
                seen.add((t[0]["index"], t[1]))
                out.append(t)
    return out


def _unit(device, ctx=None):
    """Resolve a torch-like device argument to (ctx, cuda_index, info, mig)."""
    ctx = ctx or _context()
    if device is None:
        device = 0
    targets = _resolve(ctx, device)
    if len(targets) != 1:
        raise _error(InvalidArgumentError, _("%r names %d devices; give one") % (device, len(targets)),
                     _C.EINVAL)
    info, mig_uuid, n = targets[0]
    units = _cuda_units(ctx)
    if n is None:
        for k, (uinfo, umig) in enumerate(units):
            if uinfo["index"] == info["index"] and (mig_uuid is None or (umig and umig["uuid"] == mig_uuid)):
                n = k
                break
    if n is None:
        if not units:
            raise _diagnosis(ctx)
        raise _error(InvalidDeviceError, "%r is GPU %d%s, which is not visible to CUDA in this process%s" % (
            device, info["index"], " (MIG device %s)" % mig_uuid if mig_uuid else "",
            " (CUDA_VISIBLE_DEVICES=%r)" % _os.environ["CUDA_VISIBLE_DEVICES"]
            if "CUDA_VISIBLE_DEVICES" in _os.environ else ""), _C.ENOTFOUND)
    info, mig = units[n]
    return ctx, n, info, mig


# ---- torch.cuda-style queries -----------------------------------------------

def device_count():
    """Number of GPUs CUDA would give this process (0 when none; never raises)."""
    try:
        return len(_cuda_units(_context()))
    except GPUWiseError:
        return 0


def is_available():
    """True when at least one GPU is usable by CUDA (or ROCm) in this process.
    Never raises; see gpuwise.devices() or gpuwise.doctor() for why not."""
    return device_count() > 0


def get_device_name(device=None):
    """Name of CUDA device `device` (int, 'cuda:N', Device; None = 0)."""
    ctx, n, info, mig = _unit(device)
    name = (mig or info)["name"]
    if name is None:
        raise _error(NotSupportedError, _("the name of CUDA device %d is unknown") % n, _C.ENOTSUP)
    return name


def _gfx_capability(target):
    # "gfx942" -> (9, 4), "gfx90a" -> (9, 0), "gfx1100" -> (11, 0): ROCm's major/minor
    digits = target[3:] if target and target.startswith("gfx") else ""
    if len(digits) < 3 or not digits[:-2].isdigit() or not digits[-2].isdigit():
        return None
    return int(digits[:-2]), int(digits[-2])


def get_device_capability(device=None):
    """(major, minor) compute capability of CUDA device `device` (AMD: from the gfx target)."""
    ctx, n, info, mig = _unit(device)
    if info["cc_major"] is not None and info["cc_minor"] is not None:
        return (info["cc_major"], info["cc_minor"])
    cap = _gfx_capability(info["gfx_target"])
    if cap is None:
        raise _error(NotSupportedError, _("the compute capability of CUDA device %d is unknown") % n,
                     _C.ENOTSUP)
    return cap


def mem_get_info(device=None):
    """(free, total) memory in bytes of CUDA device `device`, read now."""
    ctx, n, info, mig = _unit(device)
    s = ctx.sample(info["index"])
    if mig is not None:
        for m in s["mig_devices"]:
            if m["uuid"] == mig["uuid"]:
                mig = m
        free, total = mig["memory_free"], mig["memory_total"]
    else:
        free, total = s["memory_free"], info["memory_total"]
    if free is None or total is None:
        raise _error(NotSupportedError, _("the memory of CUDA device %d cannot be read (%s)") % (
            n, s["unavailable"].get("memory_free", "unknown")), _C.ENOTSUP)
    return (free, total)


def _driver_field(key):
    """A fact of the NVIDIA driver. None when this machine has no NVIDIA
    driver to ask (no NVIDIA GPU, and no working NVIDIA driver: an AMD-only or
    GPU-less machine); raises why when one should answer and cannot (an NVIDIA
    GPU without its driver, a driver/library mismatch, NVML missing): a
    version read from a driver that cannot run is not an answer."""
    ctx = _context()
    nvml = {b["name"]: b for b in ctx.backends()}.get("nvml")
    nvidia = any(d["vendor"] == "nvidia" for d in _infos(ctx))
    usable = nvml is not None and nvml["state"] not in ("library-missing", "init-failed")
    if not nvidia and not usable:
        return None
    if nvml and nvml["state"] == "library-missing":
        raise _error(LibraryNotFoundError, "no NVIDIA driver library: %s" % (
            nvml["message"] or "libnvidia-ml.so.1 could not be loaded"), _C.ELIBRARY)
    if nvml and nvml["state"] == "init-failed" and nvml["error"]:
        raise _error(_C.error_class(nvml["error"]), nvml["message"] or _C.error_str(nvml["error"]),
                     nvml["error"])
    drv = ctx.driver()
    if drv[key] is None:
        raise _error(NotSupportedError, "the NVIDIA driver does not report its %s (%s)" % (
            key.replace("_", " "), drv["unavailable"].get(key, "unknown")), _C.ENOTSUP)
    return drv[key]


def driver_version():
    """The NVIDIA user-space driver version, e.g. '550.54.15'; None when this
    machine has no NVIDIA driver to ask (no NVIDIA GPU and none installed, as
    on an AMD-only machine). Raises the reason (DriverNotLoadedError,
    DriverMismatchError, LibraryNotFoundError, ...) when there is an NVIDIA GPU
    or driver but its version cannot be read."""
    return _driver_field("driver_version")


def cuda_driver_version():
    """The highest CUDA version the NVIDIA driver supports, e.g. '12.4'; None
    and errors as driver_version()."""
    v = _driver_field("cuda_driver_version")
    return None if v is None else "%d.%d" % (v // 1000, (v % 1000) // 10)


# ---- devices ------------------------------------------------------------------

class Process:
    """A process using a GPU. used_memory is None when the driver hides it."""

    __slots__ = ("pid", "user", "command", "used_memory", "type", "gpu_instance_id",
                 "compute_instance_id", "pid_resolved")

    def __init__(self, d):
        self.pid = d["pid"]
        self.user = d["user"]
        self.command = d["command"]
        self.used_memory = d["used_memory"]
        self.type = d["type"]
        self.gpu_instance_id = d["gpu_instance_id"]
        self.compute_instance_id = d["compute_instance_id"]
        self.pid_resolved = d["pid_resolved"]

    def to_dict(self):
        """The process as `gpuwise info --json` writes it."""
        here = self.pid_resolved
        return {"pid": self.pid, "type": self.type, "user": self.user if here else None,
                "command": self.command if here else None, "in_pid_namespace": bool(here),
                "used_memory_bytes": self.used_memory, "gpu_instance_id": self.gpu_instance_id,
                "compute_instance_id": self.compute_instance_id}

    def __repr__(self):
        return "Process(pid=%d, user=%r, command=%r, used_memory=%r)" % (
            self.pid, self.user, self.command, self.used_memory)


class MigDevice:
    """A MIG instance of a GPU (what CUDA sees when MIG is on)."""

    __slots__ = ("uuid", "name", "gpu_instance_id", "compute_instance_id",
                 "multiprocessor_count", "memory_total", "memory_used", "memory_free", "parent")

    def __init__(self, d, parent):
        for k in self.__slots__[:-1]:
            setattr(self, k, d[k])
        self.parent = parent

    def to_dict(self):
        return {"uuid": self.uuid, "name": self.name, "gpu_instance_id": self.gpu_instance_id,
                "compute_instance_id": self.compute_instance_id,
                "multiprocessor_count": self.multiprocessor_count,
                "memory": {"total_bytes": self.memory_total, "used_bytes": self.memory_used,
                           "free_bytes": self.memory_free}}

    def __repr__(self):
        return "MigDevice(uuid=%r, name=%r, memory_free=%r)" % (self.uuid, self.name, self.memory_free)


class Device:
    """A snapshot of one GPU: static facts plus a sample read when it was made.
    Unknown values are None; .unavailable maps such fields to why
    ('not-supported', 'error N', 'unread', 'lost')."""

    __slots__ = ("_ctx", "index", "cuda_index", "vendor", "name", "uuid", "pci_bus_id", "serial",
                 "vbios_version", "architecture", "compute_capability", "gfx_target",
                 "multiprocessor_count", "cuda_cores", "memory_total", "memory_used", "memory_free",
                 "memory_reserved", "utilization_gpu", "utilization_memory", "temperature",
                 "power_draw", "power_limit", "energy", "sm_clock", "mem_clock", "max_sm_clock",
                 "max_mem_clock", "pcie_gen", "pcie_width", "pcie_max_gen", "pcie_max_width",
                 "fan_percent", "pstate", "persistence_mode", "compute_mode", "ecc",
                 "throttle_reasons", "mig_enabled", "mig_devices", "health", "health_reason",
                 "unavailable", "_metrics", "_nvml_index", "_backend", "_error")

    def __init__(self, ctx, info, cuda_index):
        self._ctx = ctx
        self.index = info["index"]
        self.cuda_index = cuda_index
        for k in ("vendor", "name", "uuid", "pci_bus_id", "serial", "vbios_version", "architecture",
                  "gfx_target", "multiprocessor_count", "cuda_cores", "memory_total", "max_sm_clock",
                  "max_mem_clock", "pcie_max_gen", "pcie_max_width", "health", "health_reason"):
            setattr(self, k, info[k])
        cc = (info["cc_major"], info["cc_minor"])
        self.compute_capability = cc if None not in cc else None
        self._nvml_index = info["nvml_index"]
        self._backend = info["backend"] or None
        self._error = None
        unavailable = dict(info["unavailable"])
        try:
            s = ctx.sample(self.index)
        except GPUWiseError as e:
            s = None
            if isinstance(e, GPULostError):
                self.health = "lost"
            else:
                self._error = str(e)
            why = "lost" if isinstance(e, GPULostError) else "error: %s" % e
        if s is None:
            s = {}
            for k in _C.SAMPLE_KEYS:       # every SAMPLE row of lib/core/metrics.def
                unavailable[k] = why
        else:
            unavailable.update(s["unavailable"])
        # Every metric of the table, nested as in info --json (static facts
        # only when there is no sample).
        self._metrics = s.get("metrics") or info["metrics"]
        g = s.get
        self.memory_used = g("memory_used")
        self.memory_free = g("memory_free")
        self.memory_reserved = g("memory_reserved")
        self.utilization_gpu = g("gpu_util")
        self.utilization_memory = g("mem_util")
        self.temperature = g("temperature")
        self.power_draw = g("power_draw")
        self.power_limit = g("power_limit")
        self.energy = g("energy")
        self.sm_clock = g("sm_clock")
        self.mem_clock = g("mem_clock")
        self.pcie_gen = g("pcie_gen")
        self.pcie_width = g("pcie_width")
        self.fan_percent = g("fan_percent")
        self.pstate = g("pstate")
        self.persistence_mode = g("persistence_mode")
        self.compute_mode = g("compute_mode")
        self.ecc = {k: g("ecc_" + k) for k in (
            "current", "pending", "corrected_volatile", "uncorrected_volatile",
            "corrected_aggregate", "uncorrected_aggregate")}
        self.throttle_reasons = self._metrics["throttle_reasons"]
        mig = g("mig_current")
        self.mig_enabled = None if mig is None else bool(mig)
        self.mig_devices = [MigDevice(m, self) for m in s.get("mig_devices", ())]
        self.unavailable = unavailable

    def processes(self):
        """The processes using this GPU now (pid, user, command, used_memory);
        [] when none. When they cannot be known it raises why, never [] (that
        would say "none"): GPULostError for a lost GPU, DriverNotLoadedError
        for a GPU no driver serves, NotSupportedError when nothing can list
        them (a GPU gpuwise cannot read, a driver without the calls); for an
        NVIDIA GPU whose driver failed, that failure's class (DriverMismatchError, ...)."""
        try:
            return [Process(p) for p in self._ctx.processes(self.index)]
        except NotSupportedError as e:
            if self.health == "no-driver":
                code = _C.EDRIVER
                nvml = {b["name"]: b for b in self._ctx.backends()}.get("nvml")
                if self.vendor == "nvidia" and nvml and nvml["state"] == "init-failed" and nvml["error"]:
                    code = nvml["error"]    # e.g. a driver/library mismatch, not a missing driver
                raise _error(_C.error_class(code), "the processes on GPU %d (%s, %s) cannot be listed: %s" % (
                    self.index, self.name or self.vendor, self.pci_bus_id,
                    self.health_reason or "no driver serves it"), code) from None
            if self.health == "unsupported":
                raise _error(NotSupportedError, "the processes on GPU %d (%s, %s) cannot be listed: gpuwise "
                             "cannot read %s GPUs" % (self.index, self.name or self.vendor, self.pci_bus_id,
                                                      self.vendor), _C.ENOTSUP) from None
            raise

    def refresh(self):
        """A new snapshot of the same GPU."""
        return Device(self._ctx, self._ctx.device_info(self.index), self.cuda_index)

    def to_dict(self):
        """The fields of `gpuwise info --json` for this device: the same keys,
        nesting and types (SI units, None = unknown), from the same metric
        table (include/gpuwise/metrics.h); processes are read now."""
        d = {"index": self.index,
             # What CUDA calls it: an AMD GPU has no CUDA index (ROCm's is cuda_index).
             "cuda_index": self.cuda_index if self.vendor == "nvidia" else None,
             "nvml_index": self._nvml_index, "vendor": self.vendor, "backend": self._backend}
        import copy
        d.update(copy.deepcopy(self._metrics))
        d["mig"]["devices"] = [m.to_dict() for m in self.mig_devices]
        procs = None
        if self.health == "ok":
            try:
                procs = [p.to_dict() for p in self.processes()]
            except GPUWiseError:
                procs = None  # unknown, not "none"
        d["processes"] = procs
        d["health"] = self.health
        d["health_reason"] = self.health_reason if self.health != "ok" and self.health_reason else None
        d["error"] = self._error
        return d

    def __repr__(self):
        return "Device(index=%d, cuda_index=%r, name=%r, uuid=%r, memory_free=%r)" % (
            self.index, self.cuda_index, self.name, self.uuid, self.memory_free)


def devices():
    """Every GPU gpuwise sees, as Device snapshots: first those CUDA would give
    this process, in CUDA's order (cuda_index 0, 1, ...), then the others
    (hidden by CUDA_VISIBLE_DEVICES, lost, driverless, other vendors) in
    gpuwise order with cuda_index None. An empty list when there is no GPU."""
    ctx = _context()
    infos = _infos(ctx)
    order, cuda_of = [], {}
    for n, (info, _mig) in enumerate(_cuda_units(ctx)):
        if info["index"] not in cuda_of:
            cuda_of[info["index"]] = n
            order.append(info)
    order += [d for d in infos if d["index"] not in cuda_of]
    return [Device(ctx, d, cuda_of.get(d["index"])) for d in order]


# ---- selection ----------------------------------------------------------------

_UNITS = {"": 1, "b": 1, "k": 10**3, "kb": 10**3, "m": 10**6, "mb": 10**6, "g": 10**9, "gb": 10**9,
          "t": 10**12, "tb": 10**12, "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def parse_size(size):
    """Bytes, as an int, from a size: an int (bytes), a float that is a whole
    number of bytes (2e9), or a string '8GiB' (2**30), '8GB' (10**9),
    '512 MiB', '1.5GiB', '100' (units k/M/G/T with B or iB, any case).

    The count of bytes is exact: '1.5GiB' is 1610612736. A fraction of a byte
    left by a unit ('0.3KiB' = 307.2) rounds to the nearest byte (halves up);
    a plain number must be whole (1.5 or '1.5' raise InvalidArgumentError,
    a ValueError), never silently truncated."""
    if isinstance(size, bool):
        raise TypeError(_("a size must be an int or a string like '8GiB', not bool"))
    if isinstance(size, float):
        if not (size >= 0 and size != float("inf")):
            raise _error(InvalidArgumentError, _("invalid size %r") % size, _C.EINVAL)
        if not size.is_integer():
            raise _error(InvalidArgumentError, _("a size of %r bytes is not a whole number of bytes (give an int, "
                           "or a string with a unit such as '1.5GiB')") % size, _C.EINVAL)
        return int(size)
    if hasattr(type(size), "__index__") and not isinstance(size, str):   # int, numpy integers
        import operator
        n = operator.index(size)
        if n < 0:
            raise _error(InvalidArgumentError, _("a size cannot be negative: %d") % n, _C.EINVAL)
        return n
    if not isinstance(size, str):
        raise TypeError(_("a size must be an int or a string like '8GiB', not %s") % type(size).__name__)
    s = size.strip().lower()
    i = 0
    while i < len(s) and s[i] in "0123456789.":
        i += 1
    num, unit = s[:i], s[i:].strip()
    if not num.strip(".") or num.count(".") > 1 or unit not in _UNITS:
        raise _error(InvalidArgumentError, _("invalid size %r (want e.g. 8GiB, 8GB, 512MiB or bytes)") % size,
                     _C.EINVAL)
    from fractions import Fraction
    value = Fraction(num) * _UNITS[unit]     # exact: no float rounding
    if value.denominator != 1 and _UNITS[unit] == 1:
        raise _error(InvalidArgumentError, _("%r is not a whole number of bytes") % size, _C.EINVAL)
    return int(value + Fraction(1, 2)) if value.denominator != 1 else int(value)


def _framework_warning():
    """Why CUDA_VISIBLE_DEVICES may come too late, or None."""
    mods = _sys.modules
    torch = mods.get("torch")
    try:
        if torch is not None and torch.cuda.is_initialized():
            return "torch has already initialised CUDA in this process"
    except Exception:
        pass
    if "jax" in mods:
        try:
            if mods["jax"]._src.xla_bridge._backends:
                return "jax has already initialised its backends in this process"
        except Exception:
            pass
    for name in ("tensorflow", "cupy", "numba.cuda"):
        if name in mods:
            return "%s is already imported and may have initialised CUDA" % name
    return None


def _excluded(cand, targets):
    """Is candidate cand (a GPU or one MIG device of it) among the excluded
    targets? Excluding a GPU excludes its MIG devices too."""
    index, mig = cand["info"]["index"], cand["mig"]
    return any(t[0]["index"] == index and (t[1] is None or (mig is not None and mig["uuid"] == t[1]))
               for t in targets)


def select(count=1, min_free_memory=None, max_utilization=None, exclude=(), order="memory",
           set_env=True):
    """Choose `count` GPUs among those CUDA would give this process and,
    with set_env, export them: CUDA_VISIBLE_DEVICES=<UUIDs> (MIG UUIDs for
    MIG devices) and CUDA_DEVICE_ORDER=PCI_BUS_ID. Returns the chosen
    Device (or MigDevice) objects, best first.

    min_free_memory: bytes or '8GiB'/'8GB'; max_utilization: percent;
    exclude: device selectors (CUDA indices, 'cuda:N', UUIDs or 8+ character
    prefixes, MIG UUIDs, PCI bus ids, Device/MigDevice objects; one that names
    no device raises DeviceNotFoundError); order: 'memory' (least memory in
    use first, then least busy: the rule `gpuwise run` places jobs by),
    'utilization' (least busy first) or 'index'. A request for several
    GPUs gets whole GPUs only (CUDA uses one MIG device per process).
    Unknown free memory fails min_free_memory; unknown utilisation passes
    max_utilization and sorts last. Raises NoSuitableDeviceError saying why
    each GPU was refused, or the reason there is no GPU at all."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(_("count must be an int"))
    if count < 1:
        raise InvalidArgumentError(_("count must be at least 1, not %d") % count)
    if order not in ("memory", "utilization", "index"):
        raise InvalidArgumentError(_("order must be 'memory', 'utilization' or 'index', not %r") % (order,))
    need = None if min_free_memory is None else parse_size(min_free_memory)
    if max_utilization is not None:
        if isinstance(max_utilization, bool) or not isinstance(max_utilization, (int, float)):
            raise TypeError(_("max_utilization must be a number (percent)"))
        if not 0 <= max_utilization <= 100:
            raise InvalidArgumentError(_("max_utilization must be between 0 and 100"))
    ctx = _context()
    units = _cuda_units(ctx)
    if not units:
        raise _diagnosis(ctx)
    excluded = _resolve_all(ctx, exclude, "exclude: ")
    cands, samples, devs = [], {}, {}
    for n, (info, mig) in enumerate(units):
        idx = info["index"]
        if idx not in samples:
            try:
                samples[idx] = ctx.sample(idx)
            except GPUWiseError as e:
                samples[idx] = e
        s = samples[idx]
        if isinstance(s, GPUWiseError):
            cands.append({"info": info, "mig": mig, "cuda_index": n, "refused": str(s)})
            continue
        migs = s["mig_devices"] if s["mig_current"] else []
        if mig is None and migs:
            # a MIG-enabled GPU: its MIG devices are the candidates
            for pos, m in enumerate(migs):
                cands.append({"info": info, "mig": m, "mig_pos": pos, "cuda_index": n, "sample": s})
            continue
        pos = None
        if mig is not None:
            pos = next((k for k, m in enumerate(migs) if m["uuid"] == mig["uuid"]), None)
            mig = migs[pos] if pos is not None else mig
        cands.append({"info": info, "mig": mig, "mig_pos": pos, "cuda_index": n, "sample": s})

    for c in cands:
        if "refused" in c:
            continue
        s, mig = c["sample"], c["mig"]
        c["free"] = mig["memory_free"] if mig is not None else s["memory_free"]
        c["util"] = s["gpu_util"]
        label = (mig or c["info"])["uuid"]
        if _excluded(c, excluded):
            c["refused"] = "excluded"
        elif c["info"]["health"] != "ok":
            c["refused"] = "health %s" % c["info"]["health"]
        elif need is not None and c["free"] is None:
            c["refused"] = "free memory unknown"
        elif need is not None and c["free"] < need:
            c["refused"] = "%.1f GiB free < %.1f GiB asked" % (c["free"] / 2**30, need / 2**30)
        elif max_utilization is not None and c["util"] is not None and c["util"] > max_utilization:
            c["refused"] = "%d%% busy > %s%% allowed" % (c["util"], max_utilization)
        elif not label:
            c["refused"] = "no UUID to export"
        elif count > 1 and mig is not None:
            # CUDA uses one MIG device per process
            c["refused"] = "a MIG device: a job of several GPUs gets whole GPUs only"

    ok = [c for c in cands if "refused" not in c]
    if order == "memory":
        # the rule gpuwise run places jobs by: one implementation, in the library
        ranked = ctx.placement_order([(c["info"]["index"], c["mig_pos"]) for c in ok])
        ok = [ok[k] for k in ranked]
    elif order == "utilization":
        ok.sort(key=lambda c: (c["util"] is None, c["util"] or 0, c["cuda_index"]))
    if len(ok) < count:
        lines = []
        for c in cands:
            who = (c["mig"] or c["info"])
            lines.append("  cuda:%d %s %s: %s" % (c["cuda_index"], who["name"], who["uuid"],
                                                  c.get("refused", "ok")))
        raise _error(NoSuitableDeviceError, "asked for %d GPU%s, %d qualif%s:\n%s" % (
            count, "" if count == 1 else "s", len(ok), "ies" if len(ok) == 1 else "y",
            "\n".join(lines)), _C.ENOTFOUND)
    chosen = ok[:count]
    result = []
    for c in chosen:
        idx = c["info"]["index"]
        if idx not in devs:
            devs[idx] = Device(ctx, c["info"], None)
        if c["mig"] is not None:
            result.append(MigDevice(c["mig"], devs[idx]))
        else:
            result.append(devs[idx])
    if set_env:
        warn = _framework_warning()
        if warn:
            import warnings
            warnings.warn("gpuwise.select(): %s; CUDA_VISIBLE_DEVICES set now may not take effect "
                          "in this process (call select() before the framework touches CUDA)" % warn,
                          RuntimeWarning, stacklevel=2)
        _os.environ["CUDA_VISIBLE_DEVICES"] = ",".join((c["mig"] or c["info"])["uuid"] for c in chosen)
        _os.environ["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"
        for n, d in enumerate(result):
            if isinstance(d, Device):
                d.cuda_index = n
    return result


# ---- monitoring -----------------------------------------------------------------

def monitor(interval=0.1, devices=None, report=False, max_samples=500000):
    """A Monitor: a background C thread sampling utilisation, memory, power and
    temperature. Use it as a context manager or a decorator:

        with gpuwise.monitor() as m:
            train()
        print(m.summary())
    """
    from ._monitor import Monitor
    return Monitor(interval=interval, devices=devices, report=report, max_samples=max_samples)


def __getattr__(name):
    # Monitor and friends live in a submodule loaded on first use, so
    # `import gpuwise` stays cheap.
    if name in ("Monitor", "Summary", "GPUSummary", "Sample"):
        from . import _monitor
        return getattr(_monitor, name)
    raise AttributeError("module 'gpuwise' has no attribute %r" % name)


# ---- diagnosis ------------------------------------------------------------------

# gpuwise's own exceptions name their cause directly (doctor's finding ids).
_CLASS_FINDING = (
    ("DriverMismatchError", "driver-library-mismatch"),
    ("DriverNotLoadedError", "nvidia-driver-not-loaded"),
    ("LibraryNotFoundError", "nvml-library-missing"),
    ("GPULostError", "gpu-lost"),
    ("GPUPermissionError", "device-permission-denied"),
    ("NoGPUError", "no-gpu"),
)


# A match's human texts, in the user's language (the CLI's `explain`
# translates the same four); ids and identifier values stay as they are.
_MATCH_TEXTS = ("title", "cause", "fix", "explanation")


class Match:
    """A known GPU error found by explain(): id, title, cause, fix, explanation,
    source, and where it was seen (line, excerpt, framework)."""

    __slots__ = ("id", "title", "severity", "layer", "cause", "fix", "explanation", "source",
                 "line", "count", "excerpt", "framework")

    def __init__(self, d):
        for k in self.__slots__:
            v = d.get(k)
            setattr(self, k, _(v) if k in _MATCH_TEXTS and v else v)

    def to_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def __str__(self):
        return _("%s: %s\n  cause: %s\n  fix: %s") % (self.id, self.title, self.cause, self.fix)

    def __repr__(self):
        return "Match(id=%r, line=%r, excerpt=%r)" % (self.id, self.line, self.excerpt)


def _exception_text(exc):
    """The messages of an exception and the ones chained to it."""
    parts, seen = [], set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        parts.append("%s: %s" % (type(exc).__name__, exc))
        exc = exc.__cause__ or exc.__context__
    return "\n".join(parts)


def explain(text_or_exception):
    """Find every known GPU error in an error message, a whole log, or an
    exception (with its chained causes). Returns a list of Match, in order of
    first appearance; empty when nothing is recognised."""
    extra = []
    if isinstance(text_or_exception, BaseException):
        for cls_name, fid in _CLASS_FINDING:
            if isinstance(text_or_exception, getattr(_C, cls_name)):
                extra.append(fid)
                break
        data = _exception_text(text_or_exception).encode("utf-8", "surrogateescape")
    elif isinstance(text_or_exception, str):
        data = text_or_exception.encode("utf-8", "surrogateescape")
    elif isinstance(text_or_exception, (bytes, bytearray, memoryview)):
        data = bytes(text_or_exception)
    else:
        raise TypeError(_("explain() takes a str, bytes or an exception, not %s")
                        % type(text_or_exception).__name__)
    matches = [Match(m) for m in _C.explain(data)]
    have = {m.id for m in matches}
    for fid in extra:
        doc = _C.finding(fid)
        if doc is not None and fid not in have:
            doc.update(line=None, count=1, excerpt=None, framework=None)
            matches.insert(0, Match(doc))
    return matches


def _gib(b):
    return "?" if b is None else "%.1f GiB" % (b / 2**30)


def _memory_holders():
    """Lines saying what each process holds on each GPU now."""
    lines = []
    for d in devices():
        if d.health != "ok":
            continue
        lines.append(_("  GPU %s%s %s: %s used of %s, %s free") % (
            d.index, "" if d.cuda_index is None else " (cuda:%d)" % d.cuda_index, d.name,
            _gib(d.memory_used), _gib(d.memory_total), _gib(d.memory_free)))
        try:
            procs = d.processes()
        except GPUWiseError as e:
            lines.append(_("    processes unknown: %s") % e)
            continue
        for p in sorted(procs, key=lambda p: -(p.used_memory or 0)):
            lines.append("    pid %d %s%s: %s%s" % (
                p.pid, p.user or "?", " (%s)" % p.command if p.command else "", _gib(p.used_memory),
                _("  <- this process") if p.pid == _os.getpid() else ""))
    return lines


def explanation_text(exc):
    """The text install_excepthook() prints for exc ('' when exc is not a known GPU error)."""
    matches = explain(exc)
    if not matches:
        return ""
    out = []
    for m in matches:
        out.append("gpuwise: %s [%s]" % (m.title, m.id))
        out.append(_("  cause: %s") % m.cause)
        out.append(_("  fix: %s") % m.fix)
        if m.id == "cuda-out-of-memory":
            try:
                holders = _memory_holders()
            except Exception as e:  # never fail while reporting a failure
                holders = [_("  (could not read GPU memory: %s)") % e]
            if holders:
                out.append(_("  GPU memory now:"))
                out += holders
    out.append(_("  more: gpuwise explain <id>, gpuwise doctor"))
    return "\n".join(out)


_previous_hook = None


def install_excepthook():
    """Print, after the traceback of an uncaught exception that is a known
    GPU error, its cause and fix (for an out-of-memory error: what each
    process holds on each GPU now). Idempotent; returns the previous hook."""
    global _previous_hook
    if getattr(_sys.excepthook, "_gpuwise", False):
        return _previous_hook
    previous = _sys.excepthook

    def hook(etype, value, tb):
        previous(etype, value, tb)
        try:
            text = explanation_text(value)
        except Exception:
            text = ""
        if text:
            _sys.stderr.write(text + "\n")
            _sys.stderr.flush()

    hook._gpuwise = True
    _previous_hook = previous
    _sys.excepthook = hook
    return previous


class Finding:
    """One doctor finding: id (see `gpuwise explain <id>`), severity
    ('error', 'warning', 'info'), layer, title, evidence and fix."""

    __slots__ = ("id", "severity", "layer", "title", "evidence", "fix")

    def __init__(self, d):
        for k in self.__slots__:
            setattr(self, k, d[k])

    def to_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def __str__(self):
        return "%s %s: %s\n  evidence: %s\n  fix: %s" % (
            self.severity, self.id, self.title, self.evidence, self.fix)

    def __repr__(self):
        return "Finding(id=%r, severity=%r, title=%r)" % (self.id, self.severity, self.title)


class Report:
    """What doctor() found: .findings (errors first within each layer),
    .verdict (one line), .errors/.warnings counts, .ok, .deep (what --deep
    saw), .to_dict() (the `gpuwise doctor --json` document)."""

    __slots__ = ("findings", "verdict", "deep", "_json")

    def __init__(self, d):
        self.findings = [Finding(f) for f in d["findings"]]
        self.verdict = d["verdict"]
        self.deep = d["deep"]
        self._json = d["json"]

    @property
    def errors(self):
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self):
        return sum(1 for f in self.findings if f.severity == "warning")

    @property
    def ok(self):
        """True when no finding is an error (doctor's exit status 0)."""
        return self.errors == 0

    def to_dict(self):
        import json
        return json.loads(self._json) if self._json else {
            "findings": [f.to_dict() for f in self.findings]}

    def __str__(self):
        return "\n".join([str(f) for f in self.findings] + [self.verdict])

    def __repr__(self):
        return "Report(errors=%d, warnings=%d, verdict=%r)" % (self.errors, self.warnings, self.verdict)


def doctor(deep=False, python_envs=()):
    """Run every doctor check (driver, CUDA, Python frameworks, live GPUs,
    environment) and return a Report. deep=True also imports each installed
    framework in a subprocess. Needs a library built with doctor's API."""
    if not hasattr(_C, "doctor"):
        raise _error(NotSupportedError, _("this build of gpuwise has no doctor (rebuild from a newer "
                       "checkout, or run `gpuwise doctor`)"), _C.ENOTSUP)
    if isinstance(python_envs, (str, bytes)):
        python_envs = (python_envs,)
    envs = [_os.fsdecode(p) for p in python_envs]
    return Report(_C.doctor(deep=bool(deep), python_envs=envs))


# ---- advise ---------------------------------------------------------------------

_ADVISE_OPTIONS = ("hardware", "task", "batch", "seq", "decoder_seq", "new_tokens", "image", "precision", "weights", "optimizer", "grad_accum",
                   "checkpointing", "lora_rank", "lora_targets", "gpus", "strategy", "offload", "offload_activations", "attention",
                   "loop", "loss", "torch", "bitsandbytes", "transformers", "loss_chunks", "autoawq_fused", "autoawq", "no_zero_init", "init_on_gpu", "lm_head", "params", "layers", "hidden", "heads", "kv_heads", "vocab", "intermediate")
_CONFIG_MAX = 16 << 20


def _advise_model(model, opts):
    """(source, value, name) for the C library from advise()'s model argument."""
    import json as _json
    if model is None:
        if not opts.get("params"):
            raise _error(InvalidArgumentError, _("advise: give a model (a catalogue name, a config.json, a folder "
                           "with one, or a config dict) or params= with layers=, hidden=, heads=, vocab="),
                         _C.EINVAL)
        missing = [k for k in ("layers", "hidden", "heads", "vocab") if not opts.get(k)]
        if missing:
            raise _error(InvalidArgumentError, _("advise: params= needs %s") % ", ".join(k + "=" for k in missing),
                         _C.EINVAL)
        return "shape", "", None
    if opts.get("params") or any(opts.get(k) for k in ("layers", "hidden", "heads", "kv_heads", "vocab",
                                                       "intermediate")):
        raise _error(InvalidArgumentError, _("advise: params= and the shape describe a model of your own: "
                       "give them without a model"), _C.EINVAL)
    if isinstance(model, dict):
        return "config", _json.dumps(model), model.get("_name_or_path") or None
    if not isinstance(model, (str, bytes, _os.PathLike)):
        raise TypeError(_("advise: model must be a name, a path or a config dict, not %s") % type(model).__name__)
    path = _os.fsdecode(model)
    if _os.path.exists(path):
        file = _os.path.join(path, "config.json") if _os.path.isdir(path) else path
        try:
            with open(file, "rb") as f:
                data = f.read(_CONFIG_MAX + 1)
        except OSError as e:
            raise _error(GPUIOError, "cannot read %r: %s" % (file, e.strerror), _C.EIO) from None
        if len(data) > _CONFIG_MAX:
            raise _error(ParseError, "%r is larger than 16 MiB: not a config.json" % file, _C.EPARSE)
        return "config", data.decode("utf-8", "replace"), path
    return "catalogue", path, None


def _advise_targets(gpu, memory):
    """The GPUs to check, as (name, source, memory, cc_major, cc_minor[, in_use])."""
    if memory is not None:
        memory = parse_size(memory)
    if gpu is not None:
        spec = _C.gpu_spec(str(gpu))
        if spec:
            # What CUDA lets a run allocate on it, not the datasheet size (as the command).
            return [(spec["name"], "spec", memory or spec["usable_bytes"], spec["cc_major"], spec["cc_minor"])]
    elif memory:
        return [("--memory", "memory", memory, 0, 0)]
    devs = devices()
    if gpu is not None:
        want = [t.strip() for t in str(gpu).split(",")]
        devs = [d for d in devs if str(d.index) in want or any(
            t and d.uuid and (d.uuid == t or d.uuid.startswith(t) or d.uuid[4:].startswith(t)) for t in want)]
        if not devs:
            raise _error(DeviceNotFoundError, "advise: gpu %r is not a GPU of the spec table nor of this machine"
                         % (gpu,), _C.ENOTFOUND)
    out = []
    for d in devs:
        if d.memory_total and d.health == "ok":
            cc = d.compute_capability or (0, 0)
            # What a run can use: the total less the driver's reserved framebuffer (as the command).
            reserved = d.memory_reserved or 0
            usable = d.memory_total - reserved if reserved < d.memory_total else d.memory_total
            # What other processes hold now: the run "fits_now" in the rest (as the command).
            out.append(("%d: %s" % (d.index, d.name), "local", memory or usable, cc[0], cc[1], d.memory_used or 0))
    return out


def advise(model=None, *, gpu=None, memory=None, target_batch=None, **options):
    """How much GPU memory a run needs, whether it fits, and how to make it fit:
    the same dict as `gpuwise advise --json` (docs/commands/advise.md).

    model: a catalogue name ("llama-2-7b"), a Hugging Face config.json or a
    folder holding one, or a config dict; or None with params=, layers=,
    hidden=, heads=, vocab= (kv_heads=, intermediate= optional). Options as
    the command's, with underscores: task="train"|"lora"|"qlora"|"infer",
    batch=, seq=, decoder_seq= (T5 training: target tokens), new_tokens=,
    image= (vision models: pixels per side), precision=, weights=, optimizer=, grad_accum=,
    checkpointing=, lora_rank=, lora_targets="qv"|"attention"|"all-linear"|"all", gpus=,
    strategy=, offload=, offload_activations=True (with checkpointing=True:
    the checkpointed layers' inputs in CPU memory, as torchtune's
    enable_activation_offloading), attention=, lm_head=True (an encoder with its masked-LM head),
    torch="1.13.1" (the PyTorch release the run uses; torch.__version__ works),
    bitsandbytes="0.43.1" (QLoRA: the bitsandbytes release),
    transformers="4.44.2" (inference: the transformers release; before 4.45
    generate() computes every prompt position's logits),
    loss_chunks=8 (training: the loss casts the logits to fp32 in 8 chunks,
    one at a time, as torchtune's CEWithChunkedOutputLoss),
    autoawq_fused=True (inference with weights="gptq4": AutoAWQ's
    from_quantized(fuse_layers=True), its cache for new_tokens positions,
    its eager attention and the q/k/v copies it makes while fusing),
    autoawq="0.2.7" (with autoawq_fused=True: the AutoAWQ release; from
    0.2.7 its Llama-shaped fused layers call SDPA and keep no scores),
    init_on_gpu=True (the model is built on the GPU, as optimum-benchmark's
    no_weights models: a tied LM head's own weight, freed by tie_weights(),
    stays in the caching allocator's reserve),
    no_zero_init=True (training with strategy="zero3": the model was built
    before TrainingArguments, so without DeepSpeed's zero.Init, and each
    linear weight gathered in forward stays allocated until its backward),
    loss="cross-entropy"|"sum" (training of a decoder: transformers'
    cross-entropy with its fp32 copy of the logits, or `logits.sum()` as
    transformers' SDPA training benchmarks run it),
    loop="trainer"|"plain" (training: whether the loop drops a step's outputs
    before the next forward, as transformers' Trainer, or keeps them, as
    `logits = model(x)` in a hand-written loop; inference: "plain" when the
    script calls model(ids) on the prompt instead of generate(), as AutoAWQ's
    examples/benchmark.py, so every prompt position's logits are computed).
    gpu: a spec-table name ("RTX 4090") or this machine's GPU (index or UUID);
    memory: bytes or a size string ("24GiB"); default: this machine's GPUs.
    hardware=True adds "hardware": the spec table's GPUs ranked for the run.

        >>> r = gpuwise.advise("llama-2-7b", task="lora", batch=4, seq=1024, gpu="RTX 4090")
        >>> r["per_gpu"]["peak_device_bytes"], r["targets"][0]["fits"], r["plan"]["micro_batch"]
    """
    import json as _json
    unknown = sorted(set(options) - set(_ADVISE_OPTIONS))
    if unknown:
        raise TypeError("advise() got unexpected keyword argument(s): " + ", ".join(unknown))
    opts = {k: v for k, v in options.items() if v is not None}
    source, value, name = _advise_model(model, opts)
    targets = _advise_targets(gpu, memory)
    tb = 0 if target_batch is None else target_batch
    if isinstance(tb, bool) or not isinstance(tb, int) or tb < 0:
        raise _error(InvalidArgumentError, "advise: target_batch must be a whole number", _C.EINVAL)
    return _json.loads(_C.advise(source, value, name, opts, targets, tb))
