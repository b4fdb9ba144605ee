# Type stubs for gpuwise (the C extension gpuwise._gpuwise plus the Python package).
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

__version__: str

DeviceArg = Union[int, str, "Device", None, Any]   # int, "cuda:N", Device, torch.device or None
Size = Union[int, float, str]                     # bytes, or "8GiB" / "8GB" / "512 MiB"

class GPUWiseError(Exception):
    code: int
    message: str
class NoGPUError(GPUWiseError): ...
class DriverNotLoadedError(GPUWiseError): ...
class DriverMismatchError(GPUWiseError): ...
class LibraryNotFoundError(GPUWiseError): ...
class GPULostError(GPUWiseError): ...
class GPUPermissionError(GPUWiseError, PermissionError): ...
class DeviceNotFoundError(GPUWiseError, LookupError): ...
class InvalidDeviceError(DeviceNotFoundError, IndexError): ...
class InvalidArgumentError(GPUWiseError, ValueError): ...
class NotSupportedError(GPUWiseError): ...
class VendorError(GPUWiseError): ...
class ParseError(GPUWiseError): ...
class GPUIOError(GPUWiseError, OSError): ...
class NoSuitableDeviceError(GPUWiseError): ...

def is_available() -> bool: ...
def device_count() -> int: ...
def get_device_name(device: DeviceArg = ...) -> str: ...
def get_device_capability(device: DeviceArg = ...) -> Tuple[int, int]: ...
def mem_get_info(device: DeviceArg = ...) -> Tuple[int, int]: ...
def driver_version() -> str: ...
def cuda_driver_version() -> str: ...
def refresh() -> None: ...
def parse_size(size: Size) -> int: ...

class Process:
    pid: int
    user: Optional[str]
    command: Optional[str]
    used_memory: Optional[int]
    type: str
    gpu_instance_id: Optional[int]
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
    def processes(self) -> List[Process]: ...
    def refresh(self) -> "Device": ...
    def to_dict(self) -> Dict[str, Any]: ...

def devices() -> List[Device]: ...

def select(count: int = ..., min_free_memory: Optional[Size] = ..., max_utilization: Optional[float] = ...,
           exclude: Union[Iterable[Union[int, str, Device, MigDevice]], int, str, Device, MigDevice] = ...,
           order: str = ..., set_env: bool = ...) -> List[Union[Device, MigDevice]]: ...

class Sample(NamedTuple):
    time: float
    device: int
    memory_used: Optional[int]
    memory_total: Optional[int]
    utilization_gpu: Optional[float]
    utilization_memory: Optional[float]
    power_w: Optional[float]
    temperature_c: Optional[float]
    energy_j: Optional[float]
    sm_clock_mhz: Optional[int]
    throttle_reasons: Optional[int]

class GPUSummary:
    index: int
    uuid: Optional[str]
    name: Optional[str]
    samples: int
    memory_total: Optional[int]
    peak_memory_used: Optional[int]
    mean_memory_used: Optional[float]
    utilization_mean: Optional[float]
    utilization_p50: Optional[float]
    utilization_p90: Optional[float]
    memory_utilization_mean: Optional[float]
    idle_fraction: Optional[float]
    power_mean_w: Optional[float]
    power_peak_w: Optional[float]
    energy_j: Optional[float]
    temperature_max_c: Optional[float]
    throttled_fraction: Optional[float]
    throttle_kind: Optional[str]
    verdicts: List[str]
    def to_dict(self) -> Dict[str, Any]: ...

class Summary:
    duration_s: float
    interval: float
    gpus: List[GPUSummary]
    verdicts: List[str]
    truncated: bool
    note: Optional[str]
    @property
    def verdict(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

_F = TypeVar("_F", bound=Callable[..., Any])

class Monitor:
    interval: float
    report: bool
    max_samples: int
    def __init__(self, interval: float = ..., devices: Optional[Sequence[DeviceArg]] = ...,
                 report: bool = ..., max_samples: int = ...) -> None: ...
    def start(self) -> "Monitor": ...
    def stop(self) -> "Monitor": ...
    @property
    def running(self) -> bool: ...
    @property
    def devices(self) -> List[Tuple[int, str, str]]: ...
    @property
    def samples(self) -> List[Sample]: ...
    def summary(self) -> Summary: ...
    def to_csv(self, path: str) -> str: ...
    def __enter__(self) -> "Monitor": ...
    def __exit__(self, *exc: Any) -> bool: ...
    def __call__(self, fn: _F) -> _F: ...

def monitor(interval: float = ..., devices: Optional[Sequence[DeviceArg]] = ..., report: bool = ...,
            max_samples: int = ...) -> Monitor: ...

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
    def to_dict(self) -> Dict[str, Any]: ...

class Report:
    findings: List[Finding]
    verdict: str
    deep: List[Dict[str, Any]]
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
