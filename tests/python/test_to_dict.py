"""Device.to_dict() is "the fields of `gpuwise info --json`" (issue 8 #15):
on every fake machine of build/machines (tests/machines/make_machines.py), the same keys, nesting, types
and values for every device. Both walk the one metric table
(include/gpuwise/metrics.h), so a metric added there appears in both."""
import json
import os
import subprocess
import sys

import pytest

from test_module import LIB, MACHINES, REPO, WITH_MACHINE, built_module  # noqa: F401  (fixture)

GW = os.path.join(REPO, "build", "gpuwise")

# The 470-branch GTX 1080 Ti has no NVML SM count: the library takes it from
# data/nvidia_gpus.tsv, so the CLI (which could ask libcuda) and Python
# (which never calls cuInit) agree there too; no difference is tolerated.

PROG = r"""
import json, os, subprocess, sys
import gpuwise
cli = subprocess.run([sys.argv[1], "info", "--json"], capture_output=True, text=True)
py = sorted((d.to_dict() for d in gpuwise.devices()), key=lambda x: x["index"])
print(json.dumps({"cli": json.loads(cli.stdout)["devices"], "py": py}))
"""


def machines():
    return sorted(n for n in os.listdir(MACHINES) if os.path.isfile(os.path.join(MACHINES, n, "machine.json")))


def differences(x, y, path, out):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in y:
                out.append((path + (k,), "only in info --json"))
            elif k not in x:
                out.append((path + (k,), "only in to_dict()"))
            else:
                differences(x[k], y[k], path + (k,), out)
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (u, v) in enumerate(zip(x, y)):
            differences(u, v, path + (i,), out)
    elif x != y or isinstance(x, bool) != isinstance(y, bool) or (x is None) != (y is None) \
            or isinstance(x, str) != isinstance(y, str):
        out.append((path, "%r (info --json) != %r (to_dict)" % (x, y)))


@pytest.mark.parametrize("machine", machines())
def test_to_dict_is_info_json(machine):
    env = dict(os.environ, PYTHONPATH=LIB)
    for k in ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "HIP_VISIBLE_DEVICES"):
        env.pop(k, None)
    # One with-machine run for both, so the sleeper pid is the same.
    r = subprocess.run([WITH_MACHINE, os.path.join(MACHINES, machine), "--", sys.executable, "-c", PROG, GW],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    both = json.loads(r.stdout)
    assert [d["index"] for d in both["cli"]] == [d["index"] for d in both["py"]]
    out = []
    differences(both["cli"], both["py"], (), out)
    bad = ["%s: %s" % (".".join(map(str, p)), why) for p, why in out]
    assert not bad, "\n".join(bad[:20])
    assert both["cli"], "no device"
