"""A typed program using gpuwise as the docs show; `mypy --strict` must accept
it (tests/python/test_typing.py). It is type-checked, never run."""
from typing import Dict, List, Optional, Tuple, Union

import gpuwise


class TorchLikeDevice:
    """What torch.device("cuda", 1) looks like to a type checker."""

    @property
    def type(self) -> str:
        return "cuda"

    @property
    def index(self) -> Optional[int]:
        return 1


def report() -> Dict[str, object]:
    ok: bool = gpuwise.is_available()
    n: int = gpuwise.device_count()
    name: str = gpuwise.get_device_name()
    names: List[str] = [gpuwise.get_device_name(d) for d in (0, "cuda:1", "GPU-8a5f0c1e", TorchLikeDevice())]
    cap: Tuple[int, int] = gpuwise.get_device_capability("cuda:0")
    free, total = gpuwise.mem_get_info(0)
    version: Optional[str] = gpuwise.driver_version()
    cuda: str = gpuwise.cuda_driver_version() or "none"
    size: int = gpuwise.parse_size("1.5GiB") + gpuwise.parse_size(4096) + gpuwise.parse_size(2e9)
    devs: List[gpuwise.Device] = gpuwise.devices()
    procs: List[gpuwise.Process] = devs[0].processes() if devs else []
    used: List[Optional[int]] = [p.used_memory for p in procs]
    chosen: List[Union[gpuwise.Device, gpuwise.MigDevice]] = gpuwise.select(
        count=1, min_free_memory="20GiB", max_utilization=30, exclude=[0, "cuda:1", devs[0]], order="memory")
    with gpuwise.monitor(interval=0.1, devices=["cuda:0", 1]) as m:
        pass
    summary: gpuwise.Summary = m.summary()
    samples: List[gpuwise.Sample] = m.samples
    peak: Optional[int] = summary.gpus[0].peak_memory_used if summary.gpus else None
    matches: List[gpuwise.Match] = gpuwise.explain("CUDA out of memory")
    rep: gpuwise.Report = gpuwise.doctor(deep=False, python_envs=["/opt/venv"])
    plan: Dict[str, object] = gpuwise.advise("llama-3-8b", gpu="H100", target_batch=8)
    try:
        gpuwise.get_device_name("nope")
    except gpuwise.DeviceNotFoundError as e:
        code: int = e.code
        message: str = e.message
    return {"ok": ok, "n": n, "name": name, "names": names, "cap": cap, "mem": (free, total),
            "version": version, "cuda": cuda, "size": size, "used": used, "chosen": chosen,
            "samples": len(samples), "plan": plan, "peak": peak, "matches": matches, "ok_report": rep.ok,
            "errors": [c.__name__ for c in (gpuwise.GPUWiseError, gpuwise.InvalidDeviceError)]}


@gpuwise.monitor(report=True)
def train(steps: int) -> float:
    return steps * 0.5


def decorated() -> float:
    return train(3) + 1.0
