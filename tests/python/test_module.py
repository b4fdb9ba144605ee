"""Tests of `import gpuwise` (python/): every public function over the fake
machines, error paths, selection and CUDA ordering, monitor accuracy, thread
safety and reference leaks.

The fake vendor libraries are chosen when they are loaded, so every test runs
its own interpreter under scripts/with-machine. The extension is built once
per session into build/python/lib (rebuilt when a source changed) with
`python/setup.py build_py build_ext`; the subprocesses import it from there.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = os.path.join(REPO, "build", "python", "lib")
TMP = os.path.join(REPO, "build", "python", "tmp")
WITH_MACHINE = os.path.join(REPO, "scripts", "with-machine")
MACHINES = os.path.join(REPO, "build", "machines")
OWN_MACHINES = os.path.join(REPO, "tests", "python", "machines")
FAKE_CUDA = os.path.join(REPO, "build", "fake", "libcuda.so.1")
GiB = 2**30


@pytest.fixture(scope="session", autouse=True)
def built_module():
    """Build the extension in place once per session."""
    cmd = [sys.executable, os.path.join(REPO, "python", "setup.py"), "-q",
           "build_py", "--build-lib", LIB,
           "build_ext", "--build-lib", LIB, "--build-temp", TMP, "-j", "2"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        pytest.fail("building the extension failed:\n" + r.stdout[-3000:] + r.stderr[-3000:])
    if not os.path.exists(os.path.join(REPO, "build", "fake", "libnvidia-ml.so.1")):
        pytest.fail("build/fake is missing: run make first")
    return LIB


def machine_path(name):
    own = os.path.join(OWN_MACHINES, name)
    return own if os.path.isdir(own) else os.path.join(MACHINES, name)


def machine_json(name):
    with open(os.path.join(machine_path(name), "machine.json")) as f:
        return json.load(f)


def run_py(machine, code, env=None, expect_rc=0):
    """Run `code` under a fake machine; it sets `out`, returned JSON-decoded.
    Returns (out, stderr)."""
    prog = "import json, os, sys\nimport gpuwise\nout = None\n" + CUDA_VIEW + textwrap.dedent(code) + \
        "\nprint('\\n@@OUT@@' + json.dumps(out))\n"
    e = dict(os.environ)
    for k in ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "HIP_VISIBLE_DEVICES"):
        e.pop(k, None)
    e["PYTHONPATH"] = LIB
    e.update(env or {})
    cmd = [WITH_MACHINE, machine_path(machine), "--", sys.executable, "-c", prog]
    r = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=120)
    assert r.returncode == expect_rc, "rc %d\nstdout:\n%s\nstderr:\n%s" % (r.returncode, r.stdout, r.stderr)
    if expect_rc != 0:
        return None, r.stderr
    assert "@@OUT@@" in r.stdout, r.stdout + r.stderr
    return json.loads(r.stdout.rsplit("@@OUT@@", 1)[1]), r.stderr


# The CUDA view according to the fake libcuda itself (cuInit + cuDeviceGet*),
# used to check that gpuwise computes CUDA's order without calling cuInit.
CUDA_VIEW = """
import ctypes
def cuda_view():
    lib = ctypes.CDLL(%r)
    if lib.cuInit(0) != 0:
        return []
    n = ctypes.c_int(0)
    assert lib.cuDeviceGetCount(ctypes.byref(n)) == 0
    names = []
    for i in range(n.value):
        dev = ctypes.c_int(0)
        assert lib.cuDeviceGet(ctypes.byref(dev), i) == 0
        buf = ctypes.create_string_buffer(256)
        assert lib.cuDeviceGetName(buf, 256, dev) == 0
        names.append(buf.value.decode())
    return names
""" % FAKE_CUDA


# ---- import, packaging --------------------------------------------------------

def test_import_is_lazy_and_versioned():
    out, _ = run_py("h100-8x", """
        maps = open('/proc/self/maps').read()
        before = 'libnvidia-ml' in maps
        gpuwise.is_available()
        after = 'libnvidia-ml' in open('/proc/self/maps').read()
        heavy = [m for m in ('threading', 'json.decoder', 'csv', 'gpuwise._monitor') if m in sys.modules]
        out = [before, after, gpuwise.__version__, gpuwise._gpuwise.__file__]
    """)
    assert out[0] is False, "import gpuwise must not load NVML"
    assert out[1] is True
    header = open(os.path.join(REPO, "include", "gpuwise", "gpuwise.h")).read()
    assert out[2] == re.search(r'#define GPUWISE_VERSION "([^"]+)"', header).group(1)
    assert out[3].endswith(".abi3.so")


def test_public_api_documented():
    out, _ = run_py("h100-8x", """
        missing = [n for n in gpuwise.__all__ if not (getattr(gpuwise, n).__doc__ or '').strip()]
        out = missing
    """)
    assert out == []
    stubs = open(os.path.join(REPO, "python", "gpuwise", "__init__.pyi")).read()
    import ast
    names = {n.name for n in ast.parse(stubs).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    names |= {t.id for n in ast.parse(stubs).body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    # re-exported from _gpuwise.pyi / _monitor.pyi with `import X as X`
    names |= {a.asname for n in ast.parse(stubs).body if isinstance(n, ast.ImportFrom) for a in n.names
              if a.asname == a.name}
    out, _ = run_py("h100-8x", "out = gpuwise.__all__")
    assert sorted(set(out) - names) == [], "names without a stub"
    assert os.path.exists(os.path.join(REPO, "python", "gpuwise", "py.typed"))


# ---- torch.cuda-style queries ---------------------------------------------------

def test_torch_like_queries_h100():
    m = machine_json("h100-8x")["nvml"]
    out, _ = run_py("h100-8x", """
        out = [gpuwise.is_available(), gpuwise.device_count(), gpuwise.get_device_name(),
               gpuwise.get_device_name(3), list(gpuwise.get_device_capability(0)),
               list(gpuwise.mem_get_info(0)), list(gpuwise.mem_get_info('cuda:5')),
               gpuwise.driver_version(), gpuwise.cuda_driver_version()]
    """)
    d0, d5 = m["devices"][0], m["devices"][5]
    assert out[0] is True and out[1] == len(m["devices"])
    assert out[2] == d0["name"] and out[3] == m["devices"][3]["name"]
    assert out[4] == d0["cuda_compute_capability"]
    mem = d0["memory"]
    assert out[5] == [mem["total"] - mem["reserved"] - mem["used"], mem["total"]]
    mem = d5["memory"]
    assert out[6] == [mem["total"] - mem["reserved"] - mem["used"], mem["total"]]
    assert out[7] == m["driver_version"]
    v = m["cuda_driver_version"]
    assert out[8] == "%d.%d" % (v // 1000, v % 1000 // 10)


MIG_A100 = ["MIG-1f2e3d4c-5b6a-5978-8a9b-0c1d2e3f4a5b", "MIG-8a3b1c4d"]


@pytest.mark.parametrize("machine,env", [
    ("mixed-order", {}),
    ("mixed-order", {"CUDA_DEVICE_ORDER": "PCI_BUS_ID"}),
    ("mixed-order", {"CUDA_VISIBLE_DEVICES": "1"}),
    ("mixed-order", {"CUDA_VISIBLE_DEVICES": "1,0"}),
    ("mixed-order", {"CUDA_VISIBLE_DEVICES": "0,7,1"}),          # an invalid entry hides the rest
    ("mixed-order", {"CUDA_VISIBLE_DEVICES": ""}),
    ("mixed-order", {"CUDA_VISIBLE_DEVICES": "GPU-7d2c9e14"}),    # UUID prefix
    ("mixed-order", {"CUDA_VISIBLE_DEVICES": "GPU-e3f1a0b2,GPU-7d2c9e14", "CUDA_DEVICE_ORDER": "PCI_BUS_ID"}),
    ("a100-mig", {}),
    ("a100-mig", {"CUDA_VISIBLE_DEVICES": ",".join(MIG_A100)}),
    ("a100-mig", {"CUDA_VISIBLE_DEVICES": "1," + MIG_A100[0]}),
    ("lost-gpu", {}),
    ("h100-8x", {"CUDA_VISIBLE_DEVICES": "7,3,5"}),
])
def test_cuda_order_matches_libcuda(machine, env):
    """gpuwise's CUDA numbering (computed without cuInit) equals the fake
    libcuda's, which implements FASTEST_FIRST / PCI_BUS_ID / CUDA_VISIBLE_DEVICES."""
    out, _ = run_py(machine, """
        ours = [gpuwise.get_device_name(i) for i in range(gpuwise.device_count())]
        cu = [d.cuda_index for d in gpuwise.devices()]
        out = [ours, cuda_view(), cu]
    """, env=env)
    assert out[0] == out[1]
    cuda = [c for c in out[2] if c is not None]
    assert len(set(cuda)) == len(cuda) and set(cuda) <= set(range(len(out[0])))
    if not machine.startswith("a100-mig"):  # several MIG devices of one GPU share a Device
        assert sorted(cuda) == list(range(len(out[0])))
    # visible devices first, in CUDA order; hidden ones after with None
    assert out[2] == sorted(out[2], key=lambda c: (c is None, c if c is not None else 0))


def test_devices_fields_and_processes():
    m = machine_json("h100-8x")["nvml"]["devices"]
    out, _ = run_py("h100-8x", """
        ds = gpuwise.devices()
        out = {'dicts': [d.to_dict() for d in ds],
               'procs': [[p.to_dict() for p in d.processes()] for d in ds],
               'sleeper': int(os.environ['GPUWISE_SLEEPER_PID']),
               'attrs': [ds[0].power_limit, ds[0].temperature, ds[0].sm_clock, ds[0].throttle_reasons,
                         ds[0].compute_capability, ds[0].unavailable.get('fan_percent')]}
    """)
    dicts = out["dicts"]
    assert len(dicts) == len(m)
    for key in ("index", "cuda_index", "vendor", "name", "uuid", "pci_bus_id", "architecture",
                "compute_capability", "multiprocessor_count", "cuda_cores", "memory", "utilization",
                "temperature_c", "power", "clocks", "pcie", "fan_percent", "pstate",
                "persistence_mode", "compute_mode", "ecc", "throttle_reasons", "mig", "health"):
        assert key in dicts[0], key
    for d, src in zip(dicts, m):
        assert d["uuid"] == src["uuid"] and d["name"] == src["name"]
        assert d["memory"]["total_bytes"] == src["memory"]["total"]
        assert d["memory"]["used_bytes"] == src["memory"]["used"]
        assert d["vendor"] == "nvidia" and d["health"] == "ok"
        assert d["fan_percent"] is None  # SXM: no fan, never 0
    assert dicts[0]["compute_capability"] == "9.0"
    power_limit, temp, sm, reasons, cc, fan_why = out["attrs"]
    assert power_limit == m[0]["power"]["enforced_limit"] / 1000
    assert temp == m[0]["temperature"]["gpu"] and sm == m[0]["clocks"]["sm"]
    assert cc == [9, 0] and fan_why == "not-supported"
    # processes: the machine's pids, "$SLEEPER" resolved to the live sleeper with its command
    for procs, src in zip(out["procs"], m):
        want = sorted(out["sleeper"] if p["pid"] == "$SLEEPER" else p["pid"]
                      for p in src["processes"]["compute"] + src["processes"]["graphics"])
        assert sorted(p["pid"] for p in procs) == sorted(set(want))
    sleeper = [p for procs in out["procs"] for p in procs if p["pid"] == out["sleeper"]]
    assert sleeper and sleeper[0]["command"] and sleeper[0]["command"].startswith("sleep")


def test_flat_sample_has_every_sample_row_of_the_metric_table():
    """The flat sample dict is generated from lib/core/metrics.def: every
    SAMPLE(field) row is a key (the Xid and GPM ones were once missing from a
    hand list), and SAMPLE_KEYS says the same."""
    rows = re.findall(r"^GW_METRIC\(\w+,\s*SAMPLE\((\w+)\)",
                      open(os.path.join(REPO, "lib", "core", "metrics.def")).read(), re.M)
    assert "xid_count" in rows and "sm_active" in rows
    out, _ = run_py("h100-8x", """
        ctx = gpuwise._gpuwise.Context(flags=gpuwise._gpuwise.OPT_NO_CUDA)
        s = ctx.sample(0)
        out = {'keys': list(gpuwise._gpuwise.SAMPLE_KEYS), 'sample': sorted(s),
               'unavailable': sorted(s['unavailable']), 'used': s['memory_used']}
    """)
    assert out["keys"] == rows
    assert set(rows) <= set(out["sample"])
    assert set(out["unavailable"]) <= set(rows)
    assert out["used"] == machine_json("h100-8x")["nvml"]["devices"][0]["memory"]["used"]


def test_lost_gpu_is_listed_last_and_excluded():
    out, _ = run_py("lost-gpu", """
        ds = gpuwise.devices()
        lost = [d for d in ds if d.health == 'lost']
        try:
            gpuwise._context().sample(lost[0].index)
            err = None
        except gpuwise.GPULostError as e:
            err = [e.code, str(e), isinstance(e, gpuwise.GPUWiseError)]
        out = {'count': gpuwise.device_count(), 'cuda': [d.cuda_index for d in ds],
               'lost_cuda': [d.cuda_index for d in lost], 'err': err,
               'lost_mem': lost[0].memory_used, 'why': lost[0].unavailable.get('memory_used')}
    """)
    assert out["count"] == 3
    assert out["lost_cuda"] == [None]
    assert out["cuda"][:3] == [0, 1, 2]
    assert out["err"][0] == -9 and "lost" in out["err"][1].lower() and out["err"][2]
    assert out["lost_mem"] is None and out["why"] == "lost"


def test_amd_only_machine():
    out, _ = run_py("mi300x", """
        try:
            err = gpuwise.driver_version()
        except gpuwise.GPUWiseError as e:
            err = type(e).__name__
        out = [gpuwise.device_count(), gpuwise.get_device_name(0),
               list(gpuwise.get_device_capability(0)), err]
    """)
    assert out[0] == 2 and "MI300X" in out[1]
    assert out[2] == [9, 4]            # gfx942
    assert out[3] is None              # no NVIDIA driver here: driver_version() is None, not an error


# ---- errors ---------------------------------------------------------------------------

@pytest.mark.parametrize("machine,cls,code", [
    ("no-driver", "DriverNotLoadedError", -7),
    ("driver-mismatch", "DriverMismatchError", -8),
])
def test_driver_errors(machine, cls, code):
    out, _ = run_py(machine, """
        res = []
        for f in (gpuwise.driver_version, gpuwise.cuda_driver_version,
                  lambda: gpuwise.get_device_name(0), lambda: gpuwise.mem_get_info(),
                  lambda: gpuwise.select()):
            try:
                f(); res.append(None)
            except gpuwise.GPUWiseError as e:
                res.append([type(e).__name__, e.code, str(e), e.message])
        out = [gpuwise.is_available(), gpuwise.device_count(), res,
               [c.__name__ for c in type(gpuwise.GPUWiseError()).__mro__]]
    """)
    assert out[0] is False and out[1] == 0
    for r in out[2]:
        assert r is not None and r[0] == cls and r[1] == code and r[2] == r[3] and len(r[2]) > 10


def test_exception_hierarchy():
    out, _ = run_py("h100-8x", """
        g = gpuwise
        out = [issubclass(g.InvalidDeviceError, IndexError), issubclass(g.InvalidDeviceError, g.GPUWiseError),
               issubclass(g.InvalidArgumentError, ValueError), issubclass(g.GPUPermissionError, PermissionError),
               issubclass(g.DeviceNotFoundError, LookupError),
               all(issubclass(getattr(g, n), g.GPUWiseError) for n in g.__all__ if n.endswith('Error')),
               g.NoGPUError.__module__, g._gpuwise.error_class(-8).__name__, g._gpuwise.error_class(12345).__name__]
    """)
    assert out[:6] == [True] * 6
    assert out[6] == "gpuwise"
    assert out[7] == "DriverMismatchError" and out[8] == "GPUWiseError"


def test_bad_inputs_never_crash():
    out, _ = run_py("h100-8x", """
        import math
        C = gpuwise._gpuwise
        ctx = C.Context()
        cases = [
            lambda: gpuwise.get_device_name(99), lambda: gpuwise.get_device_name(-1),
            lambda: gpuwise.get_device_name(2**100), lambda: gpuwise.get_device_name(True),
            lambda: gpuwise.get_device_name(1.5), lambda: gpuwise.get_device_name('bogus'),
            lambda: gpuwise.get_device_name(object()), lambda: gpuwise.mem_get_info([]),
            lambda: gpuwise.get_device_capability('cuda:x'),
            lambda: ctx.device_info(2**64), lambda: ctx.device_info(-5), lambda: ctx.device_info(None),
            lambda: ctx.sample('0'), lambda: ctx.sample(10**30), lambda: ctx.processes(-1),
            lambda: ctx.find(''), lambda: ctx.find('GPU-nope'), lambda: ctx.find(None),
            lambda: ctx.find('a\\x00b'),
            lambda: C.Context(root=123), lambda: C.Context(root='/' * 10000),
            lambda: C.Context(flags=-1), lambda: C.Context(nvml_library='/nonexistent/lib.so', flags=2**40),
            lambda: C.Monitor(None), lambda: C.Monitor(['x'] * 100), lambda: C.Monitor([1]),
            lambda: C.Monitor([], float('nan')), lambda: C.Monitor([], 1e9), lambda: C.Monitor([], 0.1, None, 0, 0),
            lambda: gpuwise.select(count=0), lambda: gpuwise.select(count='2'),
            lambda: gpuwise.select(order='random'), lambda: gpuwise.select(min_free_memory='8 parsecs'),
            lambda: gpuwise.select(min_free_memory=-1), lambda: gpuwise.select(max_utilization=300),
            lambda: gpuwise.select(exclude=[3.5]), lambda: gpuwise.select(count=10**20),
            lambda: gpuwise.monitor(interval=0), lambda: gpuwise.monitor(interval='fast'),
            lambda: gpuwise.monitor(devices=[object()]).start(), lambda: gpuwise.monitor(devices=[99]).start(),
            lambda: gpuwise.explain(None), lambda: gpuwise.parse_size(None), lambda: gpuwise.parse_size(math.inf),
        ]
        res = []
        for f in cases:
            try:
                f(); res.append('ok')
            except Exception as e:
                res.append(type(e).__name__)
        ctx.close()
        try:
            ctx.device_count(); closed = 'ok'
        except gpuwise.GPUWiseError:
            closed = 'raised'
        C.Context().close(); C.Context().close()
        out = [res, closed, gpuwise.explain(b'\\xff\\x00 garbage \\xfe'), ctx.close() is None]
    """)
    expected = (["InvalidDeviceError"] * 3 + ["TypeError", "TypeError", "DeviceNotFoundError", "TypeError",
                "TypeError", "InvalidArgumentError"]
                + ["DeviceNotFoundError", "DeviceNotFoundError", "TypeError"]
                + ["TypeError", "DeviceNotFoundError", "DeviceNotFoundError"]
                + ["InvalidArgumentError", "DeviceNotFoundError", "TypeError", "ValueError"]
                + ["TypeError", "InvalidArgumentError", "ok", "ok"]
                + ["TypeError", "InvalidArgumentError", "TypeError"]
                + ["InvalidArgumentError"] * 3
                + ["InvalidArgumentError", "TypeError"] + ["InvalidArgumentError"] * 4
                + ["TypeError", "NoSuitableDeviceError"]
                + ["InvalidArgumentError", "TypeError", "TypeError", "InvalidDeviceError"]
                + ["TypeError", "TypeError", "InvalidArgumentError"])
    res = ["ok" if r == "OverflowError" else r for r in out[0]]  # flags: either is fine
    assert list(enumerate(res)) == list(enumerate(expected))
    assert out[1] == "raised" and out[2] == [] and out[3] is True


# ---- selection ----------------------------------------------------------------------

def _free(dev):
    m = dev["memory"]
    return m["total"] - m["reserved"] - m["used"]


def test_select_most_free_and_exports_uuids():
    m = machine_json("h100-8x")["nvml"]["devices"]
    out, _ = run_py("h100-8x", """
        chosen = gpuwise.select(count=2)
        out = {'uuids': [d.uuid for d in chosen], 'cuda': [d.cuda_index for d in chosen],
               'env': [os.environ['CUDA_VISIBLE_DEVICES'], os.environ['CUDA_DEVICE_ORDER']],
               'count': gpuwise.device_count(), 'names': [gpuwise.get_device_name(i) for i in range(2)],
               'libcuda': cuda_view()}
    """)
    order = sorted(range(len(m)), key=lambda i: (-_free(m[i]), i))
    want = [m[i]["uuid"] for i in order[:2]]
    assert out["uuids"] == want
    assert out["env"] == [",".join(want), "PCI_BUS_ID"]
    assert out["cuda"] == [0, 1] and out["count"] == 2
    # libcuda initialised after select() sees exactly the chosen GPUs, in that order
    assert out["libcuda"] == out["names"] == [m[order[0]]["name"], m[order[1]]["name"]]


def test_select_rules():
    m = machine_json("h100-8x")["nvml"]["devices"]
    out, _ = run_py("h100-8x", """
        res = {}
        res['min'] = [d.index for d in gpuwise.select(count=1, min_free_memory='60GiB', order='index', set_env=False)]
        res['min_all'] = [d.index for d in gpuwise.select(count=3, min_free_memory=%d, set_env=False)]
        res['excl'] = [d.index for d in gpuwise.select(count=2, exclude=[4, %r], set_env=False)]
        res['util'] = [d.index for d in gpuwise.select(count=8, order='utilization', set_env=False)]
        try:
            gpuwise.select(count=4, min_free_memory='80GB', set_env=False)
            res['err'] = None
        except gpuwise.NoSuitableDeviceError as e:
            res['err'] = str(e)
        res['env'] = os.environ.get('CUDA_VISIBLE_DEVICES')
        out = res
    """ % (_free(m[4]), m[6]["uuid"][:12]), env={})
    frees = [_free(d) for d in m]
    assert out["min"] == [min(i for i in range(8) if frees[i] >= 60 * GiB)]
    assert sorted(out["min_all"]) == sorted(i for i in range(8) if frees[i] >= frees[4])[:3]
    ranked = sorted(range(8), key=lambda i: (-frees[i], i))
    assert out["excl"] == [i for i in ranked if i not in (4, 6)][:2]
    utils = [d["utilization"]["gpu"] for d in m]
    assert out["util"] == sorted(range(8), key=lambda i: (utils[i], i))
    assert out["err"] and "asked for 4 GPUs" in out["err"] and "cuda:0" in out["err"]
    assert out["env"] is None  # set_env=False leaves the environment alone


def test_select_respects_existing_visibility_and_max_utilization():
    m = machine_json("h100-8x")["nvml"]["devices"]
    visible = [5, 1, 2]
    utils = {i: m[i]["utilization"]["gpu"] for i in visible}
    limit = min(utils.values())
    out, _ = run_py("h100-8x", """
        a = [d.index for d in gpuwise.select(count=2, order='index', set_env=False)]
        b = [d.index for d in gpuwise.select(count=1, max_utilization=%d, set_env=False)]
        try:
            gpuwise.select(count=1, max_utilization=%d, set_env=False); c = None
        except gpuwise.NoSuitableDeviceError as e:
            c = str(e)
        out = [a, b, c]
    """ % (limit, limit - 1), env={"CUDA_VISIBLE_DEVICES": ",".join(map(str, visible))})
    assert out[0] == visible[:2]  # only what the scheduler gave us, in CUDA order
    ok = [i for i in visible if utils[i] <= limit]
    assert out[1] == sorted(ok, key=lambda i: (-_free(m[i]), visible.index(i)))[:1]
    assert out[2] is not None and out[2].count("busy >") == 3


def test_select_mig_exports_mig_uuid():
    m = machine_json("a100-mig")["nvml"]["devices"]
    migs = m[0]["mig"]["devices"]
    out, _ = run_py("a100-mig", """
        chosen = gpuwise.select(count=1, min_free_memory='15GiB')
        out = [type(chosen[0]).__name__, chosen[0].uuid, os.environ['CUDA_VISIBLE_DEVICES'],
               gpuwise.device_count(), gpuwise.get_device_name(0), cuda_view()]
    """)
    assert out[0] in ("MigDevice", "Device")
    assert out[1] == out[2]
    assert out[3] == 1 and out[5] == [out[4]]
    big = [d for d in migs if d["memory"]["total"] - d["memory"].get("reserved", 0) - d["memory"]["used"] >= 15 * GiB]
    if out[0] == "MigDevice":
        assert out[1].startswith("MIG-") and out[1] in [d["uuid"] for d in big]


def test_select_places_like_gpuwise_run(tmp_path):
    # One rule, in the library: least memory in use, then least busy; a job
    # of several GPUs gets whole GPUs only (CUDA uses one MIG device per process).
    out, _ = run_py("h100-8x", """
        import subprocess
        chosen = [d.uuid for d in gpuwise.select(count=2, set_env=False)]
        env = dict(os.environ, GPUWISE_POOL_DIR=%r)
        ran = subprocess.run([%r, 'run', '--gpus', '2', '--', 'sh', '-c', 'echo $CUDA_VISIBLE_DEVICES'],
                             env=env, capture_output=True, text=True).stdout.strip().split(',')
        out = [chosen, ran]
    """ % (str(tmp_path / "pool"), os.path.join(REPO, "build", "gpuwise")))
    assert out[0] == out[1]
    m = machine_json("h100-8x")["nvml"]["devices"]
    assert all(m[i]["uuid"] not in out[0] for i in range(4))  # never the busy GPUs 0-3
    out, _ = run_py("a100-mig", """
        one = gpuwise.select(count=1, set_env=False)[0].uuid
        try:
            gpuwise.select(count=2, set_env=False); two = None
        except gpuwise.NoSuitableDeviceError as e:
            two = str(e)
        out = [one, two]
    """)
    a = machine_json("a100-mig")["nvml"]["devices"]
    assert out[0] == a[1]["uuid"]  # the idle whole GPU, not MIG 0:0 with 12 GiB in use
    assert out[1] and "whole GPUs only" in out[1]


def test_select_warns_when_framework_initialised_cuda():
    out, _ = run_py("h100-8x", """
        import types, warnings
        torch = types.ModuleType('torch'); torch.cuda = types.SimpleNamespace(is_initialized=lambda: True)
        sys.modules['torch'] = torch
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            gpuwise.select()
        torch.cuda.is_initialized = lambda: False
        with warnings.catch_warnings(record=True) as w2:
            warnings.simplefilter('always')
            gpuwise.refresh(); os.environ.pop('CUDA_VISIBLE_DEVICES')
            gpuwise.select()
        out = [[str(x.message) for x in w], [x.category.__name__ for x in w], len(w2)]
    """)
    assert len(out[0]) == 1 and "torch" in out[0][0] and out[1] == ["RuntimeWarning"]
    assert out[2] == 0


@pytest.mark.parametrize("text,want", [
    ("8GiB", 8 * 2**30), ("8GB", 8 * 10**9), ("512 MiB", 512 * 2**20), ("1.5gib", int(1.5 * 2**30)),
    ("100", 100), (4096, 4096), ("2TB", 2 * 10**12),
])
def test_parse_size(text, want):
    out, _ = run_py("h100-8x", "out = gpuwise.parse_size(%r)" % (text,))
    assert out == want


# ---- monitor -------------------------------------------------------------------------

def _served(seq, k, n):
    """What the fake serves from call k on, n times (last element repeats)."""
    return [seq[min(i, len(seq) - 1)] for i in range(k, k + n)]


def _served_window(seq, got):
    """The served window equal to `got`, or None."""
    for k in range(len(seq)):
        if _served(seq, k, len(got)) == got:
            return k
    return None


def test_monitor_accuracy_against_changing_machine(tmp_path):
    m = machine_json("monitor-ramp")["nvml"]["devices"]
    csv_path = str(tmp_path / "samples.csv")
    out, _ = run_py("monitor-ramp", """
        import time
        with gpuwise.monitor(interval=0.01) as mon:
            time.sleep(0.25)
        s = mon.summary()
        mon.to_csv(%r)
        out = {'samples': [list(x) for x in mon.samples], 'summary': s.to_dict(), 'text': str(s),
               'devices': mon.devices}
    """ % csv_path)
    samples, summ = out["samples"], out["summary"]
    assert [d[1] for d in out["devices"]] == [d["uuid"] for d in m]
    for pos, dev in enumerate(m):
        rows = [r for r in samples if r[1] == pos]
        assert len(rows) >= 10, "a 0.25 s run at 10 ms must give many samples"
        util = [r[4] for r in rows]
        mem = [r[2] for r in rows]
        power = [r[6] for r in rows]
        energy = [r[8] for r in rows]
        # every value the machine served after the context opened, none lost or repeated
        assert _served_window(dev["utilization"]["gpu"], util) is not None, util
        assert _served_window(dev["memory"]["used"], mem) is not None, mem
        assert _served_window([p / 1000 for p in dev["power"]["usage"]], power) is not None
        assert _served_window([e / 1000 for e in dev["power"]["total_energy"]], energy) is not None
        g = summ["gpus"][pos]
        assert g["samples"] == len(rows)
        assert g["peak_memory_used"] == max(mem)
        assert g["memory_total"] == dev["memory"]["total"]
        assert g["utilization_mean"] == pytest.approx(sum(util) / len(util))
        assert g["power_peak_w"] == max(power)
        assert g["energy_j"] == pytest.approx(energy[-1] - energy[0])
        su = sorted(util)
        assert g["utilization_p50"] == pytest.approx((su[(len(su) - 1) // 2] + su[len(su) // 2]) / 2)
        assert su[0] <= g["utilization_p90"] <= su[-1]
        assert g["temperature_max_c"] == max(r[7] for r in rows)
    # the served sequences start with a peak the monitor cannot have missed
    assert summ["gpus"][0]["peak_memory_used"] == max(m[0]["memory"]["used"])
    v0, v1 = summ["gpus"][0]["verdicts"], " ".join(summ["gpus"][1]["verdicts"])
    assert len(v0) == 1 and "busy" in v0[0]
    assert "idle" in v1 and "num_workers" in v1
    assert "nearly full" in v1 and "checkpointing" in v1
    assert "throttled" in v1 and "thermal" in v1
    lines = open(csv_path).read().splitlines()
    assert lines[0].startswith("uuid,index,time,device,memory_used") and len(lines) == len(samples) + 1


def test_monitor_decorator_and_no_gpu():
    out, _ = run_py("no-driver", """
        mon = gpuwise.monitor(interval=0.01)
        @mon
        def work(x):
            return x * 2
        r = work(21)
        s = mon.summary()
        out = [r, work.monitor is mon, s.gpus, s.verdicts, mon.samples, s.duration_s >= 0]
    """)
    assert out[0] == 42 and out[1] is True
    assert out[2] == [] and out[4] == [] and out[5] is True
    assert len(out[3]) == 1 and "no GPU" in out[3][0]


def test_monitor_hidden_by_env_is_empty_not_error():
    out, _ = run_py("h100-8x", """
        with gpuwise.monitor(interval=0.01) as mon:
            pass
        out = [len(mon.devices), mon.summary().verdicts]
    """, env={"CUDA_VISIBLE_DEVICES": ""})
    assert out[0] == 0 and "no GPU" in out[1][0]


def test_monitor_thread_safety():
    """The monitor thread samples while the main thread and other Python
    threads query the shared context."""
    out, _ = run_py("h100-8x", """
        import threading
        errors = []
        def hammer():
            try:
                for _ in range(100):
                    gpuwise.mem_get_info(1); gpuwise.devices()[0].processes()
            except Exception as e:
                errors.append(repr(e))
        with gpuwise.monitor(interval=0.001, devices=[0, 1]) as mon:
            ts = [threading.Thread(target=hammer) for _ in range(3)]
            for t in ts: t.start()
            for _ in range(100):
                gpuwise.device_count(); [d.memory_used for d in gpuwise.devices()]
                live = len(mon.samples)
            for t in ts: t.join()
        out = [errors, len(mon.samples), live, mon.running, mon.devices, str(mon.summary())]
    """)
    assert out[0] == []
    assert out[1] > 0 and out[1] >= out[2]
    assert out[3] is False
    assert len(out[4]) == 2


# ---- leaks ----------------------------------------------------------------------------

def test_no_reference_leaks():
    out, _ = run_py("h100-8x", """
        import gc, tracemalloc
        C = gpuwise._gpuwise
        def cycle():
            gpuwise.is_available(); gpuwise.get_device_name(1); gpuwise.mem_get_info(2)
            ds = gpuwise.devices(); ds[0].processes(); ds[0].to_dict()
            ctx = gpuwise._context(); ctx.backends(); ctx.driver(); ctx.sample(3); ctx.device_info(4)
            try: ctx.find('nope')
            except gpuwise.DeviceNotFoundError: pass
            try: gpuwise.get_device_name(50)
            except gpuwise.InvalidDeviceError: pass
            gpuwise.explain('CUDA error: out of memory')
            gpuwise.select(set_env=False)
            m = C.Monitor(['0'], 0.001); m.start(); m.samples(); m.status(); m.stop()
        for _ in range(50): cycle()
        tracemalloc.start()
        growth = []
        for window in range(3):   # the first window may still fill caches
            gc.collect()
            s1 = tracemalloc.take_snapshot()
            for _ in range(300): cycle()
            gc.collect()
            s2 = tracemalloc.take_snapshot()
            growth.append(sum(st.size_diff for st in s2.compare_to(s1, 'filename')))
        out = min(growth[1:])
    """)
    assert out < 16 * 1024, "python memory grew by %d bytes over 300 cycles" % out


# ---- explain and the excepthook -------------------------------------------------------------

def test_explain_text_and_exceptions():
    out, _ = run_py("h100-8x", """
        log = 'step 1\\nRuntimeError: CUDA error: device-side assert triggered\\n' \\
              'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB\\n'
        try:
            try:
                raise OSError('libcudart.so.12: cannot open shared object file')
            except OSError as e:
                raise RuntimeError('Driver/library version mismatch') from e
        except RuntimeError as e:
            chained = [m.id for m in gpuwise.explain(e)]
        exc = gpuwise._gpuwise.DriverMismatchError('x')
        out = [[(m.id, m.line) for m in gpuwise.explain(log)], chained,
               [m.id for m in gpuwise.explain(exc)], gpuwise.explain('all good'),
               gpuwise.explain(log)[0].to_dict()]
    """)
    assert out[0] == [["device-side-assert", 2], ["cuda-out-of-memory", 3]]
    assert "driver-library-mismatch" in out[1] and "cuda-library-missing" in out[1]
    assert out[2][0] == "driver-library-mismatch"
    assert out[3] == []
    assert out[4]["cause"] and out[4]["fix"] and out[4]["excerpt"]


def test_excepthook_explains_oom_with_process_memory():
    _, err = run_py("h100-8x", """
        gpuwise.install_excepthook(); gpuwise.install_excepthook()
        raise RuntimeError('CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.11 GiB total capacity)')
    """, expect_rc=1)
    assert "Traceback" in err and "RuntimeError: CUDA out of memory" in err
    assert err.count("[cuda-out-of-memory]") == 1
    assert "GPU memory now:" in err and "GPU 0 (cuda:0)" in err
    assert "pid %s" % "" in err
    _, err = run_py("h100-8x", """
        gpuwise.install_excepthook()
        raise KeyError('not a GPU problem')
    """, expect_rc=1)
    assert "KeyError" in err and "gpuwise:" not in err


# ---- doctor (bound when include/gpuwise/doctor.h is in the build) ---------------------------

def test_doctor_report():
    out, _ = run_py("no-driver", """
        if not hasattr(gpuwise._gpuwise, 'doctor'):
            try:
                gpuwise.doctor(); out = 'no-error'
            except gpuwise.NotSupportedError:
                out = 'unbound'
        else:
            r = gpuwise.doctor()
            out = {'ids': [f.id for f in r.findings], 'ok': r.ok, 'errors': r.errors,
                   'verdict': r.verdict, 'json_ids': [f['id'] for f in r.to_dict()['findings']]}
    """)
    if out == "unbound":
        pytest.skip("doctor's public API is not in this build")
    assert out != "no-error"
    assert "nvidia-driver-not-loaded" in out["ids"]
    assert out["ok"] is False and out["errors"] >= 1 and out["verdict"]
    assert out["json_ids"] == out["ids"]


def test_doctor_deep_explains_a_failed_import(tmp_path):
    """doctor(deep=True) on a venv holding PyPI torch 2.5.1's real METADATA
    without its nvidia wheels (pip install --no-deps) and a torch double that
    fails as torch/__init__.py does: the deep entry carries explain's id,
    cause and fix, and the static finding the exact pip line."""
    venv = tmp_path / "nodeps"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "torch").mkdir()
    (site / "torch" / "__init__.py").write_text(
        "import sys\nraise ValueError(f'libcublas.so.*[0-9] not found in the system path {sys.path}')\n")
    (site / "torch" / "version.py").write_text("__version__ = '2.5.1+cu124'\ncuda = '12.4'\nhip = None\n")
    shutil.copytree(os.path.join(REPO, "tests", "fixtures", "dists", "torch-2.5.1-x86_64.dist-info"),
                    site / "torch-2.5.1.dist-info")
    code = ("import json, gpuwise\n"
            "r = gpuwise.doctor(deep=True, python_envs=[%r])\n"
            "print(json.dumps({'deep': r.deep, 'findings': [(f.id, f.fix) for f in r.findings]}))\n" % str(venv))
    env = {k: v for k, v in os.environ.items() if k not in ("GPUWISE_ROOT", "VIRTUAL_ENV", "CONDA_PREFIX")}
    env["PYTHONPATH"] = LIB
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    deep = [x for x in out["deep"] if x["site"].startswith(str(venv) + "/")]
    assert len(deep) == 1 and deep[0]["ok"] is False, out["deep"]
    e = deep[0]["explain"]
    assert e and e["id"] == "framework-cuda-wheels-missing", deep[0]
    assert "not found in the system path" in e["line"] and e["cause"] and e["fix"], e
    fixes = [fix for i, fix in out["findings"] if i == "framework-cuda-wheels-missing"]
    assert fixes and "'nvidia-cublas-cu12==12.4.5.8'" in fixes[0], out["findings"]


def test_pip_install_from_the_repository(tmp_path):
    """The README's command, `pip install ./python`, builds a working module
    (no CUDA toolkit on PATH or in CUDA_HOME), here into a --target folder."""
    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_HOME", "CUDA_PATH")}
    env["PATH"] = ":".join(p for p in env.get("PATH", "").split(":") if "cuda" not in p)
    target = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "--target", str(target), os.path.join(REPO, "python")],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    probe = subprocess.run([WITH_MACHINE, "h100-8x", "--", sys.executable, "-c",
                            "import gpuwise; print(gpuwise.__file__); print(gpuwise.device_count())"],
                           capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, PYTHONPATH=str(target)))
    assert probe.returncode == 0, probe.stderr
    where, count = probe.stdout.split()
    assert where.startswith(str(target)), where
    assert count == "8"


# monitor() with no devices= samples every visible GPU; only those the
# program used are judged: its own PID in NVML's process list, else (no
# GPU lists it) the ones that showed activity. h100-8x: GPUs 4, 6, 7 idle,
# $SLEEPER on GPUs 0 and 5.
MONITOR_USED = """
import time
with gpuwise.monitor(interval=0.01) as mon:
    time.sleep(0.1)
s = mon.summary()
out = {"judged": [g.index for g in s.gpus if g.judged], "by": s.judged_by, "verdicts": s.verdicts,
       "idle4": s.gpus[4].verdicts}
"""


def test_monitor_judges_only_the_gpus_the_program_used():
    out, _ = run_py("h100-8x", MONITOR_USED)
    assert out["by"] == "activity", out
    assert out["judged"] == [0, 1, 2, 3, 5], out
    text = " ".join(out["verdicts"])
    for i in (4, 6, 7):
        assert "GPU %d was idle" % i not in text, out["verdicts"]
    assert out["idle4"] == [], out
    assert "GPU 4, GPU 6, GPU 7 stayed idle: not used by this program" in out["verdicts"][-1], out


def test_monitor_judges_the_gpus_of_its_own_pid():
    out, _ = run_py("h100-8x", "os.getpid = lambda: int(os.environ['GPUWISE_SLEEPER_PID'])\n" + MONITOR_USED)
    assert out["by"] == "process", out
    assert out["judged"] == [0, 5], out
    assert "where this process runs" in out["verdicts"][-1], out


def test_monitor_given_devices_are_all_judged():
    out, _ = run_py("h100-8x", MONITOR_USED.replace("gpuwise.monitor(interval=0.01)",
                                                    "gpuwise.monitor(interval=0.01, devices=[0, 4])").replace(
                                                        "s.gpus[4]", "s.gpus[1]"))
    assert out["by"] == "all" and out["judged"] == [0, 4], out
    assert any("GPU 4 was idle" in v for v in out["idle4"]), out
