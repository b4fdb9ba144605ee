# Type stubs for gpuwise._monitor (Monitor, Summary, GPUSummary, Sample;
# re-exported by the gpuwise package).
from typing import AbstractSet, Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

from . import _DeviceArg

IDLE_PERCENT: int
IDLE_FRACTION: float
MEMORY_FULL_FRACTION: float
THROTTLE_FRACTION: float

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

def percentile(values: Iterable[float], q: float) -> Optional[float]: ...

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
    judged: bool
    def to_dict(self) -> Dict[str, Any]: ...

class Summary:
    duration_s: float
    interval: float
    gpus: List[GPUSummary]
    verdicts: List[str]
    truncated: bool
    note: Optional[str]
    judged_by: str
    @property
    def verdict(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

def summarize(samples: Sequence[Sample], devices: Sequence[Tuple[int, str, str]], duration: float,
              interval: float, truncated: bool = ..., note: Optional[str] = ...,
              own: Optional[AbstractSet[int]] = ...) -> Summary: ...

_F = TypeVar("_F", bound=Callable[..., Any])

class Monitor:
    interval: float
    report: bool
    max_samples: int
    def __init__(self, interval: float = ..., devices: Optional[Union[_DeviceArg, Sequence[_DeviceArg]]] = ...,
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
    def __exit__(self, *exc: object) -> bool: ...
    def __call__(self, fn: _F) -> _F: ...
