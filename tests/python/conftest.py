"""Shared helpers for the Python tests: paths, fake machines, with-machine runs."""
import json
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(REPO, os.environ.get("GPUWISE_BUILD", "build"))
GPUWISE = os.path.join(BUILD, "gpuwise")
MACHINES_DIR = os.path.join(REPO, "build", "machines")
WITH_MACHINE = os.path.join(REPO, "scripts", "with-machine")
FAKE_NVML = os.path.join(REPO, "build", "fake", "libnvidia-ml.so.1")
PEER_DUMP = os.path.join(REPO, "tests", "python", "peer_dump.py")


def machine_names():
	if not os.path.isdir(MACHINES_DIR):
		return []
	return sorted(n for n in os.listdir(MACHINES_DIR)
		      if os.path.isfile(os.path.join(MACHINES_DIR, n, "machine.json")))


def load_machine(name):
	with open(os.path.join(MACHINES_DIR, name, "machine.json")) as f:
		return json.load(f)


def nvml_machines():
	"""Machines whose NVML initialises and has at least one device."""
	out = []
	for name in machine_names():
		nv = load_machine(name).get("nvml")
		if isinstance(nv, dict) and nv.get("init", "SUCCESS") == "SUCCESS" and nv.get("devices"):
			out.append(name)
	return out


def fake_library_built():
	"""True when build/fake/libnvidia-ml.so.1 exists and exports nvmlInit_v2."""
	if not os.path.isfile(FAKE_NVML) or os.path.getsize(FAKE_NVML) == 0:
		return False
	try:
		out = subprocess.run(["nm", "-D", "--defined-only", FAKE_NVML],
				     capture_output=True, text=True, timeout=30).stdout
	except OSError:
		return True  # no nm: assume it is fine, the tests will tell
	return "nvmlInit_v2" in out


def with_machine(name, argv, timeout=120, env=None):
	"""Run argv under scripts/with-machine NAME; returns CompletedProcess (text)."""
	return subprocess.run([WITH_MACHINE, name, "--"] + list(argv), capture_output=True,
			      text=True, timeout=timeout, cwd=REPO,
			      env=dict(os.environ, **(env or {})))


def require_fake():
	if not fake_library_built():
		pytest.skip("fake NVML library not built yet (%s)" % FAKE_NVML)
	if not os.access(GPUWISE, os.X_OK):
		pytest.fail("%s missing: the build did not produce the CLI" % GPUWISE)


_dumps = {}


def peer_dump(name):
	"""One with-machine session reading NAME through gpuwise, pynvml, gpustat and nvitop.
	Cached per machine: all peer tests of a machine share one session (same sleeper pid)."""
	if name not in _dumps:
		r = with_machine(name, [sys.executable, PEER_DUMP, GPUWISE], timeout=300)
		if r.returncode != 0:
			pytest.fail("peer_dump on %s failed (rc %s):\n%s" % (name, r.returncode, r.stderr[-3000:]))
		_dumps[name] = json.loads(r.stdout)
	return _dumps[name]
