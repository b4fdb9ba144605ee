"""Reads one fake machine through every independent client, in one session.

Run under scripts/with-machine (so all readers see the same sleeper pid):

    scripts/with-machine h100-8x -- build/venv/bin/python tests/python/peer_dump.py build/gpuwise

Prints one JSON object: {"gpuwise": <info --json>, "gpuwise_rc", "gpuwise_stderr",
"pynvml": {...}, "gpustat": {...}, "nvitop_api": {...}, "nvitop_once": {...}}.
Each reader catches its own failures so one broken peer does not hide the
others; the tests decide what a failure means.
"""
import json
import os
import subprocess
import sys

VENV_BIN = os.path.dirname(sys.executable)


def run(argv, timeout=60, env=None):
	try:
		p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)
		return {"rc": p.returncode, "stdout": p.stdout, "stderr": p.stderr}
	except (OSError, subprocess.TimeoutExpired) as e:
		return {"rc": None, "stdout": "", "stderr": "%s: %s" % (type(e).__name__, e)}


def read_gpuwise(binary):
	r = run([binary, "info", "--json"])
	try:
		r["json"] = json.loads(r["stdout"])
	except ValueError as e:
		r["json"] = None
		r["parse_error"] = str(e)
	return r


# ---------------------------------------------------------------- pynvml


def read_pynvml():
	try:
		import pynvml as N
	except ImportError as e:
		return {"import_error": str(e)}
	out = {"init": None, "devices": []}

	def q(fn, *args):
		"""Value, or {"error": name} for an NVMLError (NotSupported included)."""
		try:
			v = fn(*args)
		except N.NVMLError as e:
			return {"error": type(e).__name__.replace("NVMLError_", ""), "code": e.value}
		if isinstance(v, bytes):
			v = v.decode()
		return v

	try:
		N.nvmlInit()
	except N.NVMLError as e:
		out["init"] = {"error": type(e).__name__.replace("NVMLError_", ""), "code": e.value}
		return out
	out["init"] = "SUCCESS"
	out["driver_version"] = q(N.nvmlSystemGetDriverVersion)
	out["nvml_version"] = q(N.nvmlSystemGetNVMLVersion)
	out["cuda_driver_version"] = q(N.nvmlSystemGetCudaDriverVersion)
	count = q(N.nvmlDeviceGetCount)
	out["count"] = count
	if not isinstance(count, int):
		return out
	for i in range(count):
		d = {"index": i}
		out["devices"].append(d)
		h = q(N.nvmlDeviceGetHandleByIndex, i)
		if isinstance(h, dict):
			d["handle_error"] = h
			continue
		d["name"] = q(N.nvmlDeviceGetName, h)
		d["uuid"] = q(N.nvmlDeviceGetUUID, h)
		pci = q(N.nvmlDeviceGetPciInfo, h)
		d["pci_bus_id"] = pci if isinstance(pci, dict) else pci.busId.decode() if isinstance(pci.busId, bytes) else pci.busId
		if not isinstance(pci, dict):
			d["pci_device_id"] = pci.pciDeviceId
			d["pci_subsystem_id"] = pci.pciSubSystemId
		m2 = q(N.nvmlDeviceGetMemoryInfo, h, N.nvmlMemory_v2)
		d["memory_v2"] = m2 if isinstance(m2, dict) else {
			"total": m2.total, "reserved": m2.reserved, "free": m2.free, "used": m2.used}
		m1 = q(N.nvmlDeviceGetMemoryInfo, h)
		d["memory_v1"] = m1 if isinstance(m1, dict) else {
			"total": m1.total, "free": m1.free, "used": m1.used}
		u = q(N.nvmlDeviceGetUtilizationRates, h)
		d["utilization"] = u if isinstance(u, dict) else {"gpu": u.gpu, "memory": u.memory}
		d["temperature"] = q(N.nvmlDeviceGetTemperature, h, N.NVML_TEMPERATURE_GPU)
		# Memory temperature exists only as a field value: pynvml reads it
		# through the real nvmlFieldValue_t layout, so this checks the fake's ABI.
		fv = q(N.nvmlDeviceGetFieldValues, h, [N.NVML_FI_DEV_MEMORY_TEMP])
		if isinstance(fv, dict):
			d["temperature_memory"] = fv
		elif fv[0].nvmlReturn != N.NVML_SUCCESS:
			d["temperature_memory"] = {"error": "field", "code": fv[0].nvmlReturn}
		else:
			d["temperature_memory"] = fv[0].value.uiVal if fv[0].valueType == N.NVML_VALUE_TYPE_UNSIGNED_INT \
				else fv[0].value.dVal
		d["fan"] = q(N.nvmlDeviceGetFanSpeed, h)
		d["power_usage"] = q(N.nvmlDeviceGetPowerUsage, h)
		d["enforced_limit"] = q(N.nvmlDeviceGetEnforcedPowerLimit, h)
		d["management_limit"] = q(N.nvmlDeviceGetPowerManagementLimit, h)
		d["energy"] = q(N.nvmlDeviceGetTotalEnergyConsumption, h)
		d["clock_sm"] = q(N.nvmlDeviceGetClockInfo, h, N.NVML_CLOCK_SM)
		d["clock_mem"] = q(N.nvmlDeviceGetClockInfo, h, N.NVML_CLOCK_MEM)
		d["clock_graphics"] = q(N.nvmlDeviceGetClockInfo, h, N.NVML_CLOCK_GRAPHICS)
		d["max_clock_sm"] = q(N.nvmlDeviceGetMaxClockInfo, h, N.NVML_CLOCK_SM)
		d["max_clock_mem"] = q(N.nvmlDeviceGetMaxClockInfo, h, N.NVML_CLOCK_MEM)
		d["pstate"] = q(N.nvmlDeviceGetPerformanceState, h)
		d["pcie_gen"] = q(N.nvmlDeviceGetCurrPcieLinkGeneration, h)
		d["pcie_width"] = q(N.nvmlDeviceGetCurrPcieLinkWidth, h)
		d["pcie_max_gen"] = q(N.nvmlDeviceGetMaxPcieLinkGeneration, h)
		d["pcie_max_width"] = q(N.nvmlDeviceGetMaxPcieLinkWidth, h)
		cc = q(N.nvmlDeviceGetCudaComputeCapability, h)
		d["cc"] = cc if isinstance(cc, dict) else "%d.%d" % tuple(cc)
		mig = q(N.nvmlDeviceGetMigMode, h)
		d["mig_mode"] = mig if isinstance(mig, dict) else list(mig)
		d["mig_devices"] = []
		if isinstance(mig, (list, tuple)) and mig[0] == 1:
			n = q(N.nvmlDeviceGetMaxMigDeviceCount, h)
			for k in range(n if isinstance(n, int) else 0):
				mh = q(N.nvmlDeviceGetMigDeviceHandleByIndex, h, k)
				if isinstance(mh, dict):
					continue
				mm = q(N.nvmlDeviceGetMemoryInfo, mh)
				attrs = q(N.nvmlDeviceGetAttributes, mh)
				d["mig_devices"].append({
					"uuid": q(N.nvmlDeviceGetUUID, mh),
					"name": q(N.nvmlDeviceGetName, mh),
					"gpu_instance_id": q(N.nvmlDeviceGetGpuInstanceId, mh),
					"compute_instance_id": q(N.nvmlDeviceGetComputeInstanceId, mh),
					"memory_total": mm if isinstance(mm, dict) else mm.total,
					"multiprocessor_count": attrs if isinstance(attrs, dict)
					else attrs.multiprocessorCount,
				})
		procs = []
		for kind, fn, fn_v2 in (
				("compute", N.nvmlDeviceGetComputeRunningProcesses,
				 N.nvmlDeviceGetComputeRunningProcesses_v2),
				("graphics", N.nvmlDeviceGetGraphicsRunningProcesses,
				 N.nvmlDeviceGetGraphicsRunningProcesses_v2)):
			try:
				ps = q(fn, h)
			except N.NVMLLibraryMismatchError:
				# No _v3 (drivers before 510.39): use _v2, as gpustat does.
				ps = q(fn_v2, h)
			if isinstance(ps, dict):
				procs = ps
				break
			for p in ps:
				procs.append({"pid": p.pid, "type": kind, "used_memory": p.usedGpuMemory})
		d["processes"] = procs
	try:
		out["peers"] = read_pynvml_peers(N, q, count)
	except Exception as e:  # keep the rest of pynvml's reading
		out["peers"] = {"exception": "%s: %s" % (type(e).__name__, e)}
	return out


def read_pynvml_peers(N, q, count):
	"""Topology level and P2P status (read, write, nvlink, atomics, pci)
	of every ordered pair of NVML devices: {"a,b": {...}}."""
	handles = {}
	for i in range(count):
		h = q(N.nvmlDeviceGetHandleByIndex, i)
		if not isinstance(h, dict):
			handles[i] = h
	# nvml.h's nvmlGpuP2PCapsIndex_t values; pynvml's NVML_P2P_CAPS_INDEX_READ
	# is the tuple (0,) (a stray comma in pynvml.py), so the numbers are written here.
	caps = [("read", 0), ("write", 1), ("nvlink", 2), ("atomics", 3), ("pci", 4)]
	out = {}
	for a, ha in handles.items():
		for b, hb in handles.items():
			if a == b:
				continue
			e = {"topology": q(N.nvmlDeviceGetTopologyCommonAncestor, ha, hb)}
			for name, cap in caps:
				e[name] = q(N.nvmlDeviceGetP2PStatus, ha, hb, cap)
			out["%d,%d" % (a, b)] = e
	return out


# ---------------------------------------------------------------- gpustat, nvitop


def read_gpustat():
	exe = os.path.join(VENV_BIN, "gpustat")
	if not os.path.exists(exe):
		return {"missing": "gpustat not installed in %s" % VENV_BIN}
	r = run([exe, "--json"])
	try:
		r["json"] = json.loads(r["stdout"])
	except ValueError as e:
		r["json"] = None
		r["parse_error"] = str(e)
	return r


def read_nvitop_api():
	try:
		from nvitop import Device
	except ImportError as e:
		return {"import_error": str(e)}
	out = []
	for dev in Device.all():
		out.append({"index": dev.index, "name": dev.name(), "uuid": dev.uuid(),
			    "bus_id": dev.bus_id(), "memory_total": dev.memory_total(),
			    "memory_used": dev.memory_used(),
			    "processes": sorted(int(p) for p in dev.processes().keys())})
	return {"devices": out}


def read_nvitop_once():
	exe = os.path.join(VENV_BIN, "nvitop")
	if not os.path.exists(exe):
		return {"missing": "nvitop not installed in %s" % VENV_BIN}
	env = dict(os.environ, COLUMNS="200", LINES="100", TERM="xterm", NO_COLOR="1")
	return run([exe, "--once"], env=env)


def guarded(fn, *args):
	try:
		return fn(*args)
	except Exception as e:  # a crash of a peer is a result, not a harness error
		return {"exception": "%s: %s" % (type(e).__name__, e)}


def main():
	binary = sys.argv[1] if len(sys.argv) > 1 else "build/gpuwise"
	out = {
		"sleeper_pid": int(os.environ.get("GPUWISE_SLEEPER_PID", "0")),
		"gpuwise": guarded(read_gpuwise, binary),
		"pynvml": guarded(read_pynvml),
		"gpustat": guarded(read_gpustat),
		"nvitop_api": guarded(read_nvitop_api),
		"nvitop_once": guarded(read_nvitop_once),
	}
	json.dump(out, sys.stdout, indent=1, default=str)


if __name__ == "__main__":
	main()
