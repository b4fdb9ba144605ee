# Type stubs for the gpuwise package; the C extension's are in _gpuwise.pyi, the
# monitor's in _monitor.pyi. `python -m mypy.stubtest gpuwise` checks them against
# the module (tests/python/test_typing.py).
from typing import Any, Callable, Dict, Iterable, List, Optional, Protocol, Sequence, SupportsIndex, Tuple, Union

from ._gpuwise import (
    DeviceNotFoundError as DeviceNotFoundError,
    DriverMismatchError as DriverMismatchError,
    DriverNotLoadedError as DriverNotLoadedError,
    GPUIOError as GPUIOError,
    GPULostError as GPULostError,
    GPUPermissionError as GPUPermissionError,
    GPUWiseError as GPUWiseError,
    InvalidArgumentError as InvalidArgumentError,
    InvalidDeviceError as InvalidDeviceError,
    LibraryNotFoundError as LibraryNotFoundError,
    NoGPUError as NoGPUError,
    NoSuitableDeviceError as NoSuitableDeviceError,
    NotSupportedError as NotSupportedError,
    ParseError as ParseError,
    VendorError as VendorError,
)
from ._monitor import GPUSummary as GPUSummary, Monitor as Monitor, Sample as Sample, Summary as Summary

__version__: str
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

class _TorchDevice(Protocol):
    """torch.device("cuda", 1) and anything shaped like it."""
    @property
    def type(self) -> str: ...
    @property
    def index(self) -> Optional[int]: ...

# A device selector (docs/python.md): an int or "N" or "cuda:N" (CUDA index), a
# UUID or 8+ character prefix, a MIG UUID, "G:M", a PCI bus id, a Device or
# MigDevice, a torch.device. A str may hold several, comma-separated.
_DeviceArg = Union[SupportsIndex, str, "Device", "MigDevice", _TorchDevice]
# bytes as an int (or a whole float), or "8GiB" / "8GB" / "512 MiB" / "1.5GiB"
_Size = Union[SupportsIndex, float, str]

def is_available() -> bool: ...
def device_count() -> int: ...
def get_device_name(device: Optional[_DeviceArg] = ...) -> str: ...
def get_device_capability(device: Optional[_DeviceArg] = ...) -> Tuple[int, int]: ...
def mem_get_info(device: Optional[_DeviceArg] = ...) -> Tuple[int, int]: ...
def driver_version() -> Optional[str]: ...
def cuda_driver_version() -> Optional[str]: ...
def refresh() -> None: ...
def parse_size(size: _Size) -> int: ...

class Process:
    pid: int
    user: Optional[str]
    command: Optional[str]
    used_memory: Optional[int]
    type: str
    gpu_instance_id: Optional[int]
    compute_instance_id: Optional[int]
    pid_resolved: bool
    def __init__(self, d: Dict[str, Any]) -> None: ...   # made by Device.processes()
    def to_dict(self) -> Dict[str, Any]: ...

class MigDevice:
    uuid: Optional[str]
    name: Optional[str]
    gpu_instance_id: Optional[int]
    compute_instance_id: Optional[int]
    multiprocessor_count: Optional[int]
    memory_total: Optional[int]
    memory_used: Optional[int]
    memory_free: Optional[int]
    parent: "Device"
    def __init__(self, d: Dict[str, Any], parent: "Device") -> None: ...   # made by gpuwise
    def to_dict(self) -> Dict[str, Any]: ...

class Device:
    index: int
    cuda_index: Optional[int]
    vendor: str
    name: Optional[str]
    uuid: Optional[str]
    pci_bus_id: Optional[str]
    serial: Optional[str]
    vbios_version: Optional[str]
    architecture: Optional[str]
    compute_capability: Optional[Tuple[int, int]]
    gfx_target: Optional[str]
    multiprocessor_count: Optional[int]
    cuda_cores: Optional[int]
    memory_total: Optional[int]
    memory_used: Optional[int]
    memory_free: Optional[int]
    memory_reserved: Optional[int]
    utilization_gpu: Optional[int]
    utilization_memory: Optional[int]
    temperature: Optional[float]
    power_draw: Optional[float]
    power_limit: Optional[float]
    energy: Optional[float]
    sm_clock: Optional[int]
    mem_clock: Optional[int]
    max_sm_clock: Optional[int]
    max_mem_clock: Optional[int]
    pcie_gen: Optional[int]
    pcie_width: Optional[int]
    pcie_max_gen: Optional[int]
    pcie_max_width: Optional[int]
    fan_percent: Optional[int]
    pstate: Optional[int]
    persistence_mode: Optional[int]
    compute_mode: Optional[int]
    ecc: Dict[str, Optional[int]]
    throttle_reasons: Optional[List[str]]
    mig_enabled: Optional[bool]
    mig_devices: List[MigDevice]
    health: str
    health_reason: str
    unavailable: Dict[str, str]
    def __init__(self, ctx: Any, info: Dict[str, Any], cuda_index: Optional[int]) -> None: ...  # gpuwise.devices()
    def processes(self) -> List[Process]: ...
    def refresh(self) -> "Device": ...
    def to_dict(self) -> Dict[str, Any]: ...

def devices() -> List[Device]: ...

def select(count: int = ..., min_free_memory: Optional[_Size] = ..., max_utilization: Optional[float] = ...,
           exclude: Union[_DeviceArg, Iterable[_DeviceArg]] = ...,
           order: str = ..., set_env: bool = ...) -> List[Union[Device, MigDevice]]: ...

def monitor(interval: float = ..., devices: Optional[Union[_DeviceArg, Sequence[_DeviceArg]]] = ...,
            report: bool = ..., max_samples: int = ...) -> Monitor: ...

class Match:
    id: str
    title: str
    severity: str
    layer: str
    cause: str
    fix: str
    explanation: str
    source: str
    line: Optional[int]
    count: Optional[int]
    excerpt: Optional[str]
    framework: Optional[str]
    def __init__(self, d: Dict[str, Any]) -> None: ...   # made by explain()
    def to_dict(self) -> Dict[str, Any]: ...

def explain(text_or_exception: Union[str, bytes, BaseException]) -> List[Match]: ...
def explanation_text(exc: Union[str, bytes, BaseException]) -> str: ...
def install_excepthook() -> Callable[..., Any]: ...

class Finding:
    id: str
    severity: str
    layer: str
    title: str
    evidence: str
    fix: str
    def __init__(self, d: Dict[str, Any]) -> None: ...   # made by doctor()
    def to_dict(self) -> Dict[str, Any]: ...

class Report:
    findings: List[Finding]
    verdict: str
    deep: List[Dict[str, Any]]
    def __init__(self, d: Dict[str, Any]) -> None: ...   # made by doctor()
    @property
    def errors(self) -> int: ...
    @property
    def warnings(self) -> int: ...
    @property
    def ok(self) -> bool: ...
    def to_dict(self) -> Dict[str, Any]: ...

def doctor(deep: bool = ..., python_envs: Iterable[str] = ...) -> Report: ...
def advise(model: Union[str, Dict[str, Any], None] = ..., *, gpu: Optional[Union[str, int]] = ...,
           memory: Optional[Union[int, str]] = ..., target_batch: Optional[int] = ...,
           **options: Any) -> Dict[str, Any]: ...
