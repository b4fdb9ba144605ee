"""Rules every entry point of `import gpuwise` keeps (issue 8, items 13 and 20):

- one device-selector resolver for get_device_*, mem_get_info, select(exclude=)
  and monitor(devices=): whatever gpuwise prints as an identifier is accepted,
  anything that names no device raises a ValueError that names it, and a device
  named twice counts once;
- parse_size never truncates: exact for units, whole bytes for plain numbers;
- None from a call means "this machine has no such thing"; what exists but
  cannot be read raises, its class saying why.

Each test runs its own interpreter under scripts/with-machine (see test_module).
"""
import pytest

from test_module import built_module, machine_json, run_py  # noqa: F401  (fixture, helpers)

GiB = 2**30


def _h100():
    return machine_json("h100-8x")["nvml"]["devices"]


# ---- selectors ------------------------------------------------------------------

def test_every_printed_identifier_selects_the_same_gpu():
    m = _h100()
    uuid7 = m[7]["uuid"]
    assert uuid7[4:12].isdigit(), "the machine must keep a UUID whose first 8 characters are digits"
    sels = [3, "3", "cuda:3", " cuda:3 ", m[3]["uuid"], m[3]["uuid"].upper(), m[3]["uuid"][:12],
            m[3]["uuid"][4:12], m[3]["pci"]["bus_id"], m[3]["pci"]["bus_id"][9:],
            uuid7[4:12], uuid7.replace("-", "")[3:]]
    out, _ = run_py("h100-8x", """
        import types
        class NumpyLike:                       # numpy.int64 and friends: __index__
            def __index__(self): return 3
        sels = %r + [NumpyLike(), types.SimpleNamespace(type='cuda', index=3)]
        res = []
        for s in sels:
            try:
                res.append(gpuwise.get_device_capability(s) and gpuwise._unit(s)[1])
            except Exception as e:
                res.append('%%s: %%s' %% (type(e).__name__, e))
        res.append(gpuwise._unit(gpuwise.devices()[3])[1])
        out = res
    """ % (sels,))
    assert out == [3] * 10 + [7, 7] + [3, 3, 3]


def test_python_indices_are_cuda_indices_and_uuids_name_hardware():
    # mixed-order: NVML/gpuwise index 0 is the GTX 1660, CUDA's device 0 the RTX 4090
    m = machine_json("mixed-order")["nvml"]["devices"]
    out, _ = run_py("mixed-order", """
        out = [gpuwise.get_device_name(0), gpuwise.get_device_name('0'), gpuwise.get_device_name('cuda:0'),
               gpuwise.get_device_name(%r), gpuwise.get_device_name(%r)]
    """ % (m[0]["uuid"], m[0]["pci"]["bus_id"]))
    assert out == [m[1]["name"]] * 3 + [m[0]["name"]] * 2


def test_unknown_selectors_raise_a_value_error_naming_them():
    out, _ = run_py("h100-8x", """
        cases = [lambda: gpuwise.get_device_name('x'), lambda: gpuwise.get_device_name('GPU-ffffffff'),
                 lambda: gpuwise.get_device_name('cuda:99'), lambda: gpuwise.get_device_name('99'),
                 lambda: gpuwise.mem_get_info('0,1'), lambda: gpuwise.get_device_name(''),
                 lambda: gpuwise.select(exclude=[99], set_env=False),
                 lambda: gpuwise.select(exclude=['GPU-ffffffff'], set_env=False),
                 lambda: gpuwise.select(exclude='nope', set_env=False),
                 lambda: gpuwise.select(exclude=[0, 'cuda:42'], set_env=False),
                 lambda: gpuwise.monitor(devices='x').start(),
                 lambda: gpuwise.monitor(devices=['cuda:9']).start(),
                 lambda: gpuwise.monitor(devices=[0, 'GPU-0000dead']).start(),
                 lambda: gpuwise.monitor(devices=[0, 1, 'GPU-']).start()]
        res = []
        for f in cases:
            try:
                f(); res.append(None)
            except ValueError as e:
                res.append([type(e).__name__, str(e)])
            except Exception as e:
                res.append(['not a ValueError', type(e).__name__, str(e)])
        out = [res, os.environ.get('CUDA_VISIBLE_DEVICES')]
    """)
    res, env = out
    named = ["'x'", "GPU-ffffffff", "cuda:99", "99", "'0,1'", "empty", "99", "GPU-ffffffff", "'nope'",
             "cuda:42", "'x'", "cuda:9", "GPU-0000dead", "'GPU-'"]
    for r, word in zip(res, named):
        assert r is not None and r[0] != "not a ValueError", r
        assert word in r[1], (word, r)
    assert [r[0] for r in res] == ["DeviceNotFoundError", "DeviceNotFoundError", "InvalidDeviceError",
                                   "InvalidDeviceError", "InvalidArgumentError", "InvalidArgumentError",
                                   "InvalidDeviceError", "DeviceNotFoundError", "DeviceNotFoundError",
                                   "InvalidDeviceError", "DeviceNotFoundError", "InvalidDeviceError",
                                   "DeviceNotFoundError", "InvalidArgumentError"]
    assert res[6][1].startswith("exclude: ") and res[10][1].startswith("monitor(devices=...): ")
    assert env is None


def test_select_exclude_takes_every_selector():
    m = _h100()
    out, _ = run_py("h100-8x", """
        d = gpuwise.devices()
        out = [x.index for x in gpuwise.select(count=2, order='index', set_env=False,
                                               exclude=['cuda:0', %r, %r, d[3], '4,5', 5])]
    """ % (m[1]["uuid"][4:12], m[2]["pci"]["bus_id"][9:]))
    assert out == [6, 7]


def test_monitor_watches_what_it_is_given_once(tmp_path):
    m = _h100()
    out, _ = run_py("h100-8x", """
        import time
        res = []
        for devs in (['cuda:1'], [0, 0], ['cuda:2', 2, '2', %r, gpuwise.devices()[2]], '3,cuda:1', 'cuda:4'):
            with gpuwise.monitor(interval=0.01, devices=devs) as mon:
                time.sleep(0.05)
            s = mon.summary()
            res.append([[d[0] for d in mon.devices], s.note, sorted({x.device for x in mon.samples}),
                        len(s.gpus)])
        out = res
    """ % (m[2]["uuid"],))
    assert [r[0] for r in out] == [[1], [0], [2], [3, 1], [4]]
    for r in out:
        assert r[1] is None and r[2] == list(range(len(r[0]))) and r[3] == len(r[0])


def test_mig_selectors():
    gpu, other = machine_json("a100-mig")["nvml"]["devices"]
    migs = [d["uuid"] for d in gpu["mig"]["devices"]]
    out, _ = run_py("a100-mig", """
        migs, other_uuid = %r, %r
        res = {}
        # a job of several GPUs never gets MIG devices: the refusal lists
        # each candidate with its reason, the excluded ones as excluded
        for key, excl in (('exclude', [migs[1]]), ('exclude_pos', '0:0')):
            try:
                gpuwise.select(count=3, set_env=False, exclude=excl); res[key] = None
            except gpuwise.NoSuitableDeviceError as e:
                res[key] = str(e)
        res['one'] = gpuwise.select(count=1, set_env=False, exclude=[other_uuid, migs[0], migs[2]])[0].uuid
        with gpuwise.monitor(interval=0.01, devices=[migs[2], '0:1', migs[0][:12]]) as mon:
            pass
        res['monitor'] = [d[0] for d in mon.devices]
        os.environ['CUDA_VISIBLE_DEVICES'] = ','.join([migs[2], migs[0]])
        res['names'] = [gpuwise.get_device_name(migs[0]), gpuwise.get_device_name('0:2'),
                        gpuwise._unit(migs[0][:12])[1]]
        out = res
    """ % (migs, other["uuid"]))
    for key, gone in (("exclude", 1), ("exclude_pos", 0)):
        assert migs[gone] + ": excluded" in out[key], out[key]
        for k in {0, 1, 2} - {gone}:
            assert migs[k] + ": a MIG device: a job of several GPUs gets whole GPUs only" in out[key], out[key]
    assert out["one"] == migs[1]
    assert out["monitor"] == [0]
    assert out["names"] == [gpu["mig"]["devices"][0]["name"], gpu["mig"]["devices"][2]["name"], 1]


# ---- parse_size -----------------------------------------------------------------

@pytest.mark.parametrize("size,want", [
    ("1.5GiB", 1610612736), ("1.5 gib", 1610612736), ("4.35GB", 4350000000), ("0.1GB", 100000000),
    ("0.3KiB", 307), ("0.5KiB", 512), ("1.0001KB", 1000), ("2.5B", "InvalidArgumentError"),
    ("1.5", "InvalidArgumentError"), ("100", 100), (".5MiB", 524288), ("8 GiB", 8 * GiB),
    (1.5, "InvalidArgumentError"), (2e9, 2000000000), (2.0, 2), (-1.0, "InvalidArgumentError"),
    (float("nan"), "InvalidArgumentError"), (float("inf"), "InvalidArgumentError"),
    ("1..5GiB", "InvalidArgumentError"), (".GiB", "InvalidArgumentError"), ("-1GiB", "InvalidArgumentError"),
    (True, "TypeError"), (b"8GiB", "TypeError"), ("NumpyLike()", 7),
])
def test_parse_size_never_truncates(size, want):
    lit = "float(%r)" % str(size) if isinstance(size, float) else size if size == "NumpyLike()" else repr(size)
    out, _ = run_py("h100-8x", """
        class NumpyLike:                       # numpy.int64 and friends: __index__
            def __index__(self): return 7
        try:
            out = [gpuwise.parse_size(%s)]
        except Exception as e:
            out = [type(e).__name__, isinstance(e, ValueError) or isinstance(e, TypeError)]
    """ % lit)
    if isinstance(want, str):
        assert out == [want, True]
    else:
        assert out == [want] and isinstance(out[0], int)


# ---- None means "none here"; what cannot be read raises why ---------------------

def test_driver_version_is_none_without_nvidia_and_raises_why_with_one():
    out, _ = run_py("mi300x", "out = [gpuwise.driver_version(), gpuwise.cuda_driver_version()]")
    assert out == [None, None]
    out, _ = run_py("mixed-nvidia-amd", "out = [gpuwise.driver_version(), gpuwise.cuda_driver_version()]")
    nv = machine_json("mixed-nvidia-amd")["nvml"]
    assert out == [nv["driver_version"], "12.4"]


@pytest.mark.parametrize("machine,cls", [
    ("no-driver", "DriverNotLoadedError"),
    ("driver-mismatch", "DriverMismatchError"),
    ("lost-gpu", "GPULostError"),
])
def test_processes_raise_why_they_cannot_be_listed(machine, cls):
    out, _ = run_py(machine, """
        res = []
        for d in gpuwise.devices():
            try:
                res.append([d.health, len(d.processes())])
            except gpuwise.GPUWiseError as e:
                res.append([d.health, type(e).__name__, str(e), d.pci_bus_id])
        out = res
    """)
    broken = [r for r in out if r[0] != "ok"]
    assert broken, out
    for r in broken:
        assert r[1] == cls, r
        assert "GPU" in r[2] and (r[1] == "GPULostError" or r[3] in r[2]), r
    assert all(len(r) == 2 for r in out if r[0] == "ok")
