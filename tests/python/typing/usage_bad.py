"""Misuse the stubs must reject: each line marked `# E` is an error under
`mypy --strict` (tests/python/test_typing.py checks exactly those lines)."""
import gpuwise


def misuse() -> None:
    gpuwise.driver_version().split(".")  # E: None when there is no NVIDIA driver
    gpuwise.get_device_name(1.5)  # E: a float is no device
    gpuwise.parse_size(b"8GiB")  # E: bytes is no size
    gpuwise.select(exclude=[object()])  # E: not a device selector
    gpuwise.monitor(devices=[None])  # E: not a device selector
    name: int = gpuwise.get_device_name(0)  # E: it is a str
    gpuwise.mem_get_info(device=0, extra=1)  # E: no such parameter
