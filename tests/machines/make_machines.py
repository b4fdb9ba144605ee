#!/usr/bin/env python3
"""Writes the fake machines: OUT/<name>/ (machine.json + root/).

This script is the only description of the machines: `make` writes them to
build/machines/ (nothing of its output is committed), so the sysfs/proc/dev
trees stay consistent with the NVML view (same bus ids, same pids, same
versions) by construction. By hand:

    python3 tests/machines/make_machines.py --out DIR            # all machines
    python3 tests/machines/make_machines.py --out DIR h100-8x    # one machine

(OUT defaults to build/machines of this checkout.) A hand-made machine goes
in tests/machines/<name>/ (machine.json, root/), where scripts/with-machine
looks first. Values and their public sources are listed in
tests/machines/README.md and in each machine's "description".
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MiB = 1 << 20
GiB = 1 << 30
SLEEPER = "$SLEEPER"

# ---------------------------------------------------------------- helpers


def nvml_bus_id(bus, domain=0, dev=0):
	return "%08X:%02X:%02X.0" % (domain, bus, dev)


def sysfs_bus_id(bus, domain=0, dev=0):
	return "%04x:%02x:%02x.0" % (domain, bus, dev)


def link_speed(gen):
	return {1: "2.5 GT/s PCIe", 2: "5.0 GT/s PCIe", 3: "8.0 GT/s PCIe",
		4: "16.0 GT/s PCIe", 5: "32.0 GT/s PCIe", 6: "64.0 GT/s PCIe"}[gen]


def nvidia_device(*, name, uuid, serial, minor, part, vbios, bus, dev_id,
		  subsys, arch, cc, sms, cores, mem_total, mem_reserved,
		  mem_used, bar1_total, temp, temp_mem=None, slowdown, shutdown,
		  fan, power, limit, mgmt_limit=None, energy, clocks, max_clocks,
		  pstate, pcie, persistence, display, ecc, remapped, reasons,
		  mig, procs_compute=(), procs_graphics=(), util=(0, 0),
		  enc=0, dec=0, compute_mode=0, errors=None, pci_dev=0):
	"""One entry of nvml.devices in NVML's own units (bytes, mW, mJ, MHz)."""
	d = {
		"name": name, "uuid": uuid, "serial": serial, "minor_number": minor,
		"board_part_number": part, "vbios_version": vbios,
		"pci": {"bus_id": nvml_bus_id(bus, dev=pci_dev), "domain": 0, "bus": bus, "device": pci_dev,
			"pci_device_id": "0x%04X10DE" % dev_id,
			"pci_subsystem_id": "0x%08X" % subsys},
		"architecture": arch, "cuda_compute_capability": list(cc),
		"multiprocessor_count": sms, "num_gpu_cores": cores,
		"memory": {"total": mem_total, "reserved": mem_reserved, "used": mem_used},
		"bar1_memory": {"total": bar1_total, "used": MiB},
		"utilization": {"gpu": util[0], "memory": util[1]},
		"encoder_utilization": enc, "decoder_utilization": dec,
		"temperature": {"gpu": temp, "memory": temp_mem,
				"slowdown": slowdown, "shutdown": shutdown},
		"fan_speed": fan,
		"power": {"usage": power, "enforced_limit": limit,
			  "management_limit": mgmt_limit if mgmt_limit is not None else limit,
			  "total_energy": energy},
		"clocks": dict(zip(("graphics", "sm", "mem", "video"), clocks)),
		"max_clocks": dict(zip(("graphics", "sm", "mem", "video"), max_clocks)),
		"performance_state": pstate,
		"pcie": pcie,
		"persistence_mode": persistence, "compute_mode": compute_mode,
		"display_mode": display,
		"ecc": ecc,
		"remapped_rows": remapped,
		"clocks_event_reasons": reasons,
		"mig": mig,
		"processes": {"compute": [dict(p) for p in procs_compute],
			      "graphics": [dict(p) for p in procs_graphics]},
	}
	if temp_mem is None:
		del d["temperature"]["memory"]
	if errors:
		d["errors"] = errors
	return d


def pcie(curr_gen, curr_width, max_gen, max_width, gpu_max_gen=None, tx=0, rx=0, replay=0):
	return {"curr_gen": curr_gen, "curr_width": curr_width, "max_gen": max_gen,
		"max_width": max_width,
		"gpu_max_gen": gpu_max_gen if gpu_max_gen is not None else max_gen,
		"tx": tx, "rx": rx, "replay_counter": replay}


ECC_ON = {"current": 1, "pending": 1, "corrected_volatile": 0, "uncorrected_volatile": 0,
	  "corrected_aggregate": 0, "uncorrected_aggregate": 0}
REMAP_CLEAN = {"correctable": 0, "uncorrectable": 0, "pending": 0, "failure": 0}
MIG_OFF = {"current": 0, "pending": 0, "max_devices": 0, "devices": []}


def proc(pid, mem, gi=None, ci=None, sm=None, mem_util=None):
	"""A process entry; sm/mem_util are its nvmlDeviceGetProcessUtilization sample."""
	p = {"pid": pid, "used_gpu_memory": mem}
	if gi is not None:
		p["gpu_instance_id"] = gi
		p["compute_instance_id"] = ci
	if sm is not None:
		p["sm_util"] = sm
		p["mem_util"] = mem_util if mem_util is not None else 0
	return p


# ---------------------------------------------------------------- file trees


class Tree:
	"""Collects the files of one machine's root/."""

	def __init__(self):
		self.files = {}     # path -> text
		self.links = {}     # path -> relative target
		self.users = {0: "root"}
		self.procs = {}

	def file(self, path, text=""):
		self.files[path.lstrip("/")] = text

	def link(self, path, target):
		self.links[path.lstrip("/")] = target

	def user(self, uid, name):
		self.users[uid] = name

	def process(self, pid, uid, argv, rss_kb=None, cpu_ticks=None, start_ticks=None):
		"""A /proc/<pid> entry so gpuwise can resolve user and command; with
		rss_kb, cpu_ticks (user, system) and start_ticks (clock ticks after
		boot; with-machine adds the host's btime to /proc/stat) also what
		`gpuwise top` reads of its host side."""
		name = os.path.basename(argv[0])[:15]
		if cpu_ticks is not None:
			# The 52 fields of proc(5): utime 14, stime 15, starttime 22, rss 24 (pages).
			f = ["0"] * 52
			f[0], f[1], f[2], f[3] = str(pid), "(%s)" % name, "S", "1"
			f[13], f[14] = str(cpu_ticks[0]), str(cpu_ticks[1])
			f[21] = str(start_ticks or 0)
			f[23] = str((rss_kb or 0) // 4)
			self.file("/proc/%d/stat" % pid, " ".join(f) + "\n")
		self.file("/proc/%d/cmdline" % pid, "\0".join(argv) + "\0")
		self.file("/proc/%d/comm" % pid, name + "\n")
		self.file("/proc/%d/status" % pid,
			  "Name:\t%s\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t%d\nNgid:\t0\n"
			  "Pid:\t%d\nPPid:\t1\nTracerPid:\t0\nUid:\t%d\t%d\t%d\t%d\n"
			  "Gid:\t%d\t%d\t%d\t%d\n%sThreads:\t%d\n"
			  % (name, pid, pid, uid, uid, uid, uid, uid, uid, uid, uid,
			     "VmRSS:\t%8d kB\n" % rss_kb if rss_kb is not None else "", 12))

	def finish(self):
		self.file("/etc/passwd", "".join(
			"%s:x:%d:%d:%s:%s:%s\n" % (n, u, u, n, "/root" if u == 0 else "/home/" + n,
						   "/bin/bash") for u, n in sorted(self.users.items())))

	def write(self, root):
		if os.path.isdir(root):
			shutil.rmtree(root)
		for path, text in sorted(self.files.items()):
			full = os.path.join(root, path)
			os.makedirs(os.path.dirname(full), exist_ok=True)
			with open(full, "w") as f:
				f.write(text)
		for path, target in sorted(self.links.items()):
			full = os.path.join(root, path)
			os.makedirs(os.path.dirname(full), exist_ok=True)
			os.symlink(target, full)


def pci_function(t, bdf, *, vendor, device, subsys_vendor, subsys_device, klass,
		 revision, cur_gen, cur_width, max_gen, max_width, driver=None,
		 extra=None):
	"""/sys/bus/pci/devices/<bdf>/ as the kernel shows it."""
	base = "/sys/bus/pci/devices/" + bdf
	for name, value in (("vendor", "0x%04x" % vendor), ("device", "0x%04x" % device),
			    ("subsystem_vendor", "0x%04x" % subsys_vendor),
			    ("subsystem_device", "0x%04x" % subsys_device),
			    ("class", "0x%06x" % klass), ("revision", "0x%02x" % revision),
			    ("current_link_speed", link_speed(cur_gen)),
			    ("current_link_width", str(cur_width)),
			    ("max_link_speed", link_speed(max_gen)),
			    ("max_link_width", str(max_width)),
			    ("numa_node", "-1"), ("enable", "1"),
			    ("uevent", "%sPCI_CLASS=%X\nPCI_ID=%04X:%04X\nPCI_SUBSYS_ID=%04X:%04X\n"
			     "PCI_SLOT_NAME=%s\n" % ("DRIVER=%s\n" % driver if driver else "",
						    klass, vendor, device, subsys_vendor,
						    subsys_device, bdf))):
		t.file(base + "/" + name, value + "\n")
	for name, value in (extra or {}).items():
		t.file(base + "/" + name, value)
	if driver:
		# Relative, so it resolves inside GPUWISE_ROOT: devices/<bdf> -> sys/
		t.link(base + "/driver", "../../../../bus/pci/drivers/" + driver)
		t.file("/sys/bus/pci/drivers/%s/uevent" % driver, "")
		t.file("/sys/bus/pci/drivers/%s/bind" % driver, "")


def nvidia_tree(t, devices, driver_version, *, module=True, open_module=False,
		nodes=True, build_date="Tue Mar  5 22:23:56 UTC 2024",
		gcc="gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)"):
	for d in devices:
		bus = d["pci"]["bus"]
		dev_id = int(d["pci"]["pci_device_id"], 16) >> 16
		sub = int(d["pci"]["pci_subsystem_id"], 16)
		pc = d.get("pcie") or {}
		pci_function(t, sysfs_bus_id(bus, dev=d["pci"].get("device", 0)), vendor=0x10DE, device=dev_id,
			     subsys_vendor=sub & 0xFFFF, subsys_device=sub >> 16,
			     # GeForce and workstation boards are VGA controllers,
			     # data-centre boards 3D controllers (class 0x0302).
			     klass=0x030000 if d.get("display_mode") == 1 or "GeForce" in d["name"]
			     else 0x030200,
			     revision=0xa1,
			     cur_gen=pc.get("curr_gen", 3), cur_width=pc.get("curr_width", 16),
			     max_gen=pc.get("max_gen", 3), max_width=pc.get("max_width", 16),
			     driver="nvidia" if module else None)
	if module:
		kind = ("NVIDIA UNIX Open Kernel Module for x86_64  %s  Release Build  "
			"(dvs-builder@U16-I3-B03-4-3)  %s" if open_module else
			"NVIDIA UNIX x86_64 Kernel Module  %s  %s") % (driver_version, build_date)
		t.file("/proc/driver/nvidia/version",
		       "NVRM version: %s\nGCC version:  %s \n" % (kind, gcc))
		t.file("/sys/module/nvidia/version", driver_version + "\n")
		t.file("/sys/module/nvidia/initstate", "live\n")
		t.file("/sys/module/nvidia_uvm/initstate", "live\n")
	if nodes:
		for d in devices:
			t.file("/dev/nvidia%d" % d["minor_number"])
		t.file("/dev/nvidiactl")
		t.file("/dev/nvidia-uvm")
		t.file("/dev/nvidia-uvm-tools")


def amd_gpu(t, *, bdf, card, node, gpu_id, device, subsys_vendor, subsys_device,
	    revision, gfx_target_version, gfx_name, simd_count, simd_per_cu,
	    vram_total, vram_used, gtt_total, vbios, unique_id, busy, mem_busy,
	    link, hwmon, hwmon_index, sclk_levels, mclk_levels, max_engine_clk,
	    location_id, num_xcc=1, product_name=None):
	"""An amdgpu-driven GPU: PCI function, amdgpu sysfs, hwmon, DRM nodes, KFD node."""
	base = "/sys/bus/pci/devices/" + bdf
	extra = {
		"mem_info_vram_total": "%d\n" % vram_total,
		"mem_info_vram_used": "%d\n" % vram_used,
		"mem_info_vis_vram_total": "%d\n" % min(vram_total, 256 * MiB if vram_total < 64 * GiB else vram_total),
		"mem_info_vis_vram_used": "%d\n" % min(vram_used, 256 * MiB),
		"mem_info_gtt_total": "%d\n" % gtt_total,
		"mem_info_gtt_used": "%d\n" % (12 * MiB),
		"gpu_busy_percent": "%d\n" % busy,
		"mem_busy_percent": "%d\n" % mem_busy,
		"vbios_version": vbios + "\n",
		"unique_id": unique_id + "\n",
		"power_dpm_force_performance_level": "auto\n",
		"pp_dpm_sclk": "".join("%d: %dMhz%s\n" % (i, f, " *" if cur else "")
				       for i, (f, cur) in enumerate(sclk_levels)),
		"pp_dpm_mclk": "".join("%d: %dMhz%s\n" % (i, f, " *" if cur else "")
				       for i, (f, cur) in enumerate(mclk_levels)),
	}
	if product_name:
		extra["product_name"] = product_name + "\n"
	pci_function(t, bdf, vendor=0x1002, device=device, subsys_vendor=subsys_vendor,
		     subsys_device=subsys_device,
		     klass=0x038000 if num_xcc > 1 else 0x030000, revision=revision,
		     cur_gen=link[0], cur_width=link[1], max_gen=link[2], max_width=link[3],
		     driver="amdgpu", extra=extra)
	hw = "%s/hwmon/hwmon%d/" % (base, hwmon_index)
	t.file(hw + "name", "amdgpu\n")
	for k, v in hwmon.items():
		t.file(hw + k, "%s\n" % v)
	render = 128 + int(card[4:])
	t.file("%s/drm/%s/dev" % (base, card), "226:%d\n" % int(card[4:]))
	t.file("%s/drm/renderD%d/dev" % (base, render), "226:%d\n" % render)
	t.link("/sys/class/drm/%s/device" % card, "../../../bus/pci/devices/" + bdf)
	t.link("/sys/class/drm/renderD%d/device" % render, "../../../bus/pci/devices/" + bdf)
	t.file("/sys/class/drm/%s/dev" % card, "226:%d\n" % int(card[4:]))
	t.file("/sys/class/drm/renderD%d/dev" % render, "226:%d\n" % render)
	t.file("/dev/dri/" + card)
	t.file("/dev/dri/renderD%d" % render)
	kfd = "/sys/class/kfd/kfd/topology/nodes/%d/" % node
	t.file(kfd + "gpu_id", "%d\n" % gpu_id)
	t.file(kfd + "name", gfx_name + "\n")
	props = [
		("cpu_cores_count", 0), ("simd_count", simd_count), ("mem_banks_count", 1),
		("caches_count", 0), ("io_links_count", 1), ("p2p_links_count", 0),
		("cpu_core_id_base", 0), ("simd_id_base", 2147487744 + node * 16),
		("max_waves_per_simd", 16 if gfx_target_version < 100000 else 16),
		("lds_size_in_kb", 64), ("gds_size_in_kb", 0), ("num_gws", 64),
		("wave_front_size", 64 if gfx_target_version < 100000 else 32),
		("array_count", 4 * num_xcc), ("simd_arrays_per_engine", 1 if num_xcc > 1 else 2),
		("cu_per_simd_array", simd_count // simd_per_cu // (4 * num_xcc)),
		("simd_per_cu", simd_per_cu), ("max_slots_scratch_cu", 32),
		("gfx_target_version", gfx_target_version), ("vendor_id", 4098),
		("device_id", device), ("location_id", location_id), ("domain", 0),
		("drm_render_minor", render), ("hive_id", 0), ("num_sdma_engines", 2),
		("num_sdma_xgmi_engines", 0 if num_xcc == 1 else 14),
		("num_sdma_queues_per_engine", 6 if num_xcc == 1 else 8),
		("num_cp_queues", 8 * num_xcc), ("max_engine_clk_fcompute", max_engine_clk),
		("local_mem_size", 0), ("fw_version", 2150), ("capability", 671588992),
		("debug_prop", 0), ("sdma_fw_version", 21), ("unique_id", int(unique_id, 16)),
		("num_xcc", num_xcc), ("max_engine_clk_ccompute", 3800),
	]
	t.file(kfd + "properties", "".join("%s %d\n" % kv for kv in props))


def kfd_common(t, amdgpu_version, rocm_version=None, cpu_node=True):
	if cpu_node:
		t.file("/sys/class/kfd/kfd/topology/nodes/0/gpu_id", "0\n")
		t.file("/sys/class/kfd/kfd/topology/nodes/0/name", "\n")
		t.file("/sys/class/kfd/kfd/topology/nodes/0/properties",
		       "cpu_cores_count 32\nsimd_count 0\nmem_banks_count 1\ncaches_count 0\n"
		       "io_links_count 1\ncpu_core_id_base 0\nsimd_id_base 0\nvendor_id 0\n"
		       "device_id 0\nlocation_id 0\ndomain 0\ndrm_render_minor 0\n"
		       "gfx_target_version 0\nlocal_mem_size 0\nnum_xcc 0\n")
	t.file("/sys/class/kfd/kfd/topology/system_properties", "platform_oem 0\nplatform_id 0\nplatform_rev 0\n")
	t.file("/sys/class/kfd/kfd/topology/generation_id", "1\n")
	t.file("/sys/module/amdgpu/version", amdgpu_version + "\n")
	t.file("/sys/module/amdgpu/initstate", "live\n")
	t.file("/dev/kfd")
	if rocm_version:
		t.file("/opt/rocm/.info/version", rocm_version + "\n")


# ---------------------------------------------------------------- machines

MACHINES = {}


def machine(fn):
	MACHINES[fn.__name__.replace("_", "-")] = fn
	return fn


H100_CAPTURE = [  # bus, serial, uuid, temp, mem temp, power mW (capture of 2024-11-14)
	(0x18, "1654423001593", "GPU-b42dd28e-ffdd-8720-1df0-98bd8cdc05b1", 30, 36, 100890),
	(0x2A, "1654223054577", "GPU-7c3cadbd-17e5-0913-f69b-c618122ea0cd", 30, 36, 82810),
	(0x3A, "1654423003947", "GPU-2d50cdf6-dd67-9f2e-855e-0d4d6d395a2f", 31, 38, 85980),
	(0x5D, "1654223056472", "GPU-d1838e76-90e6-4408-711d-aeeaa2e1fd14", 29, 37, 85480),
	(0x9A, "1654423003267", "GPU-72be6e5d-3c1b-0d37-98ac-d3ef159f2589", 28, 36, 84940),
	(0xAB, "1654323021387", "GPU-52378fbc-3124-3895-13b6-1dd179563e0f", 30, 38, 85270),
	(0xBA, "1654423003872", "GPU-83a5aebb-b71c-c570-aa83-185e1233fe97", 29, 37, 86050),
	(0xDB, "1654223055370", "GPU-33135771-a848-ece1-b61e-489e221d663c", 29, 36, 75090),
]


def h100_gpm(i, busy, procs):
	"""GPM metrics (modelled, not captured): a training rank keeps the SMs
	and tensor cores busy and talks over NVLink; small processes barely
	show; an idle GPU reads 0. Percentages, and MiB/s for the rates."""
	if busy:
		return {"graphics_util": 97, "sm_util": 83 - i, "sm_occupancy": 41 + i, "any_tensor_util": 47 - i,
			"dram_bw_util": 58, "fp64_util": 0, "fp32_util": 12, "fp16_util": 3,
			"pcie_tx": 12, "pcie_rx": 25, "nvlink_tx": 38000 + 100 * i, "nvlink_rx": 37900 + 100 * i}
	if procs:
		return {"graphics_util": 12, "sm_util": 7, "sm_occupancy": 3, "any_tensor_util": 2,
			"dram_bw_util": 2, "fp64_util": 0, "fp32_util": 1, "fp16_util": 0,
			"pcie_tx": 1, "pcie_rx": 2, "nvlink_tx": 0, "nvlink_rx": 0}
	return {k: 0 for k in ("graphics_util", "sm_util", "sm_occupancy", "any_tensor_util", "dram_bw_util",
			       "fp64_util", "fp32_util", "fp16_util", "pcie_tx", "pcie_rx", "nvlink_tx", "nvlink_rx")}


def h100(i, bus, serial, uuid, temp, temp_mem, power, procs=(), util=(0, 0),
	 busy=False, errors=None):
	used = sum(p["used_gpu_memory"] for p in procs) + MiB
	return nvidia_device(
		name="NVIDIA H100 80GB HBM3", uuid=uuid, serial=serial, minor=i,
		part="692-2G520-0200-000", vbios="96.00.74.00.01", bus=bus,
		dev_id=0x2330, subsys=0x16C110DE, arch=9, cc=(9, 0), sms=132, cores=16896,
		mem_total=81559 * MiB, mem_reserved=454 * MiB, mem_used=used,
		bar1_total=131072 * MiB, temp=temp + (30 if busy else 0),
		temp_mem=temp_mem + (20 if busy else 0), slowdown=87, shutdown=92,
		fan=None, power=power + (500000 if busy else 0), limit=700000,
		energy=51234567890 + i * 1000003,
		clocks=(1980, 1980, 2619, 1545) if busy else (345, 345, 2619, 765),
		max_clocks=(1980, 1980, 2619, 1545), pstate=0,
		pcie=pcie(5, 16, 5, 16, tx=567, rx=559),
		persistence=1, display=1, ecc=ECC_ON, remapped=REMAP_CLEAN,
		reasons=0 if busy else 1, mig=MIG_OFF, procs_compute=procs, util=util,
		errors=errors) | {"bench": H100_BENCH, "gpm": h100_gpm(i, busy, procs)}


# What the fake libcuda's "GPU" delivers to `gpuwise bench`: third-party
# measurements on H100 SXM, published on GitHub in Azure/AI-benchmarking-guide
# (ND_H100_v5 results), te42kyfo/gpu-benches, zzc0721/torch-performance-test-data
# and stas00/ml-engineering (mamf-finder.py):
# BabelStream copy 2.90 TB/s (Azure ND_H100_v5), pinned PCIe Gen5 ~55 GB/s
# each way (nvbandwidth, Azure), back-to-back launches ~2.5 us (gpu-benches),
# GEMM FP32 51.9 / TF32 402 / FP16 760 / BF16 797.5 / FP8 1402.6 TFLOPS
# (zzc0721, stas00). Pageable (26) and NVLink peer copies (350) are
# illustrative figures, not measurements.
H100_BENCH = {"h2d_gbs": 55.0, "d2h_gbs": 55.0, "h2d_pageable_gbs": 26.0, "d2h_pageable_gbs": 26.0,
	      "memory_gbs": 2900.0, "p2p_gbs": 350.0, "launch_us": 2.5,
	      "tflops": {"fp32": 51.9, "tf32": 402.0, "fp16": 760.0, "bf16": 797.5, "fp8": 1402.6}}


def hgx_peers(devices, sockets):
	"""Topology and peer access of an HGX board: sockets[i] is GPU i's CPU
	socket; GPUs of one socket meet at NODE (each sits behind its own PCIe
	switch), GPUs of two sockets at SYS; every pair is NVLink peer-capable
	(read, write, nvlink and atomics OK). P2P over PCIe is left out (null)."""
	n = len(devices)
	for i, d in enumerate(devices):
		d["topology"] = [None if j == i else ("NODE" if sockets[j] == sockets[i] else "SYS") for j in range(n)]
		ok = [None if j == i else "OK" for j in range(n)]
		d["p2p"] = {"read": ok, "write": ok, "nvlink": ok, "atomics": ok}


def h100_nvlinks(i, busy):
	"""The 18 NVLink links of an H100 SXM5 (NVIDIA H100 Tensor Core GPU
	Architecture whitepaper, 2022: 18 fourth-generation NVLink links,
	900 GB/s in all; nvidia-smi nvlink -s lists links 0-17 at 26.562 GB/s
	each). Data counters in KiB since the driver loaded, as NVML's
	NVLINK_THROUGHPUT_DATA_TX/RX give them: the training ranks (busy) have
	moved about 7 TiB per link each way, the others a little. GPU 7's link
	17 is down (inactive, its counters frozen at what it carried before)."""
	links = []
	for link in range(18):
		if busy:
			tx = 7340032000 + 1048576 * link + 65536 * i
			rx = 7340000000 + 1048576 * link + 65536 * i
		else:
			tx = 20480 * (link + 1) + 1024 * i
			rx = 19456 * (link + 1) + 1024 * i
		links.append({"state": "inactive" if (i, link) == (7, 17) else "active", "tx_kib": tx, "rx_kib": rx})
	return links


@machine
def h200_1x():
	"""Every value from the real capture docs/hardware/2026-12-04-h200 (nvidia-smi -q/-x and
	gpuwise info --json on the project's device machine), bench figures from gpuwise bench there."""
	d = nvidia_device(
		name="NVIDIA H200", uuid="GPU-7204284d-c403-ad9c-91fe-2f25f37f8190", serial="1654024198172",
		minor=0, part="692-2G520-0282-000", vbios="96.00.A5.00.1A", bus=0x00, pci_dev=0x06,
		dev_id=0x2335, subsys=0x18BF10DE, arch=9, cc=(9, 0), sms=132, cores=16896,
		mem_total=150754820096, mem_reserved=644939776, mem_used=0,
		bar1_total=262144 * MiB, temp=34, temp_mem=33, slowdown=89, shutdown=95,
		fan=None, power=76574, limit=700000, energy=2456453,
		clocks=(345, 345, 3201, 765), max_clocks=(1980, 1980, 3201, 1545), pstate=0,
		pcie=pcie(5, 16, 5, 16, tx=747, rx=578),
		persistence=1, display=1, ecc=ECC_ON, remapped=REMAP_CLEAN,
		reasons=1, mig=MIG_OFF)
	d["bar1_memory"]["used"] = 5177344
	# gpuwise bench on that H200 (bench-compare.txt): its copy kernel 3816 GB/s, the copy engine
	# 4172 GB/s, pinned 55.4/55.3 GB/s, pageable 9.2 GB/s (host to device; the same assumed back),
	# launch 2.83 us, GEMM as measured; one GPU, so no peer copy.
	d["bench"] = {"h2d_gbs": 55.4, "d2h_gbs": 55.3, "h2d_pageable_gbs": 9.2, "d2h_pageable_gbs": 9.2,
		      "memory_gbs": 3816.1, "memory_ce_gbs": 4172.3, "launch_us": 2.83,
		      "tflops": {"fp32": 51.2, "tf32": 458.1, "fp16": 886.8, "bf16": 889.9, "fp8": 1742.5}}
	m = {
		"schema": 1,
		"description": "1x NVIDIA H200 (SXM, 143771 MiB, 615 MiB reserved), driver 580.159.04 / CUDA 13.0, "
			       "open kernel module, in a Firecracker VM (the GPU at 00:06.0): every value from the real "
			       "capture docs/hardware/2026-12-04-h200 (nvidia-smi -q, -q -x and gpuwise info --json on "
			       "the project's device machine), idle, no processes; bench figures from gpuwise bench there.",
		"nvml": {"init": "SUCCESS", "driver_version": "580.159.04",
			 "nvml_version": "13.580.159.04", "cuda_driver_version": 13000,
			 "devices": [d]},
		"cuda": {"init": "SUCCESS", "driver_version": 13000, "fastest_first_order": [0]},
	}
	t = Tree()
	nvidia_tree(t, [d], "580.159.04", open_module=True)
	return m, t


@machine
def h100_8x():
	pids = [SLEEPER, 2841578, 2841579, 2841580]
	devices = []
	for i, (bus, serial, uuid, temp, tm, pw) in enumerate(H100_CAPTURE):
		procs = ()
		busy = False
		if i < 4:   # a 4-GPU torchrun job, one rank per GPU
			procs = (proc(pids[i], 71680 * MiB, sm=95 - i, mem_util=60),)
			busy = True
		elif i == 5:  # a notebook kernel and a small inference server
			procs = (proc(SLEEPER, 2048 * MiB, sm=3, mem_util=1),
				 proc(3100221, 20480 * MiB, sm=9, mem_util=2))
		devices.append(h100(i, bus, serial, uuid, temp, tm, pw, procs,
				    util=(98, 61) if busy else ((12, 3) if procs else (0, 0)),
				    busy=busy))
		devices[-1]["nvlinks"] = h100_nvlinks(i, busy)
	hgx_peers(devices, [0, 0, 0, 0, 1, 1, 1, 1])
	m = {
		"schema": 1,
		"description": "8x NVIDIA H100 80GB HBM3 (SXM5, HGX board), driver 550.54.15 / CUDA 12.4, open kernel module. "
			       "Names, UUIDs, serials, bus ids 18/2a/3a/5d/9a/ab/ba/db, VBIOS 96.00.74.00.01, "
			       "board part 692-2G520-0200-000, PCI ids 0x233010DE/0x16C110DE, memory 81559 MiB total / "
			       "454 MiB reserved, BAR1 128 GiB, 700 W limit, clocks 345/2619 MHz idle and 1980/2619 max, "
			       "video 765/1545, temperatures and power draws from a public `nvidia-smi -q` capture "
			       "(github.com/thamada/nvidia-smi nvsim/H100SXMx8_smi.py, driver 565.57.01); driver version "
			       "550.54.15 and CUDA 12040 as in go-nvml's dgxh100 mock. GPUs 0-3 run a torchrun job "
			       "(GPU 0 is the harness's live sleeper, 1-3 belong to alice), GPU 5 holds two small processes. "
			       "Topology as on an HGX board (modelled, not captured): GPUs 0-3 on CPU socket 0, 4-7 on "
			       "socket 1 (NODE within a socket, SYS across), every pair NVLink peer-capable. GPM profiling "
			       "metrics (gpm) are modelled too: the training ranks busy, GPU 5 light, the rest idle. "
			       "NVLink (modelled): 18 NVLink4 links per GPU as the H100 SXM5 has (NVIDIA H100 Tensor Core "
			       "GPU Architecture whitepaper), all active but GPU 7's link 17, data counters of about "
			       "7 TiB per link each way on the training ranks.",
		"nvml": {"init": "SUCCESS", "driver_version": "550.54.15",
			 "nvml_version": "12.550.54.15", "cuda_driver_version": 12040,
			 "devices": devices},
		"cuda": {"init": "SUCCESS", "driver_version": 12040,
			 "fastest_first_order": list(range(8))},
	}
	t = Tree()
	nvidia_tree(t, devices, "550.54.15", open_module=True)
	t.user(1001, "alice")
	t.user(1002, "bob")
	for pid in pids[1:]:
		rank = pid - 2841577
		t.process(pid, 1001, ["/home/alice/venv/bin/python", "-u", "train.py",
				      "--config", "configs/llama-70b.yaml", "--local-rank=%d" % rank],
			  rss_kb=(18 + rank) * 1024 * 1024, cpu_ticks=(60000 + rank * 700, 4200),
			  start_ticks=3000)
	t.process(3100221, 1002, ["/usr/bin/python3", "-m", "vllm.entrypoints.openai.api_server",
				  "--model", "meta-llama/Llama-3.1-8B-Instruct"],
		  rss_kb=6 * 1024 * 1024, cpu_ticks=(5400, 610), start_ticks=9000)
	return m, t


@machine
def a100_mig():
	mig_uuids = ["MIG-8a3b1c4d-2e5f-5a6b-9c7d-0e1f2a3b4c5d",
		     "MIG-1f2e3d4c-5b6a-5978-8a9b-0c1d2e3f4a5b",
		     "MIG-c0ffee11-2233-5445-8667-8899aabbccdd"]
	name = "NVIDIA A100-SXM4-40GB"
	migs = [
		{"uuid": mig_uuids[0], "name": name + " MIG 3g.20gb", "gpu_instance_id": 1,
		 "compute_instance_id": 0, "multiprocessor_count": 42,
		 "memory": {"total": 19968 * MiB, "used": 12301 * MiB, "reserved": 0},
		 "bar1_memory": {"total": 32767 * MiB, "used": 2 * MiB},
		 "processes": {"compute": [proc(SLEEPER, 12288 * MiB, 1, 0)], "graphics": []}},
		{"uuid": mig_uuids[1], "name": name + " MIG 2g.10gb", "gpu_instance_id": 5,
		 "compute_instance_id": 0, "multiprocessor_count": 28,
		 "memory": {"total": 9856 * MiB, "used": 13 * MiB, "reserved": 0},
		 "bar1_memory": {"total": 16383 * MiB, "used": 0},
		 "processes": {"compute": [], "graphics": []}},
		{"uuid": mig_uuids[2], "name": name + " MIG 1g.5gb", "gpu_instance_id": 13,
		 "compute_instance_id": 0, "multiprocessor_count": 14,
		 "memory": {"total": 4864 * MiB, "used": 3141 * MiB, "reserved": 0},
		 "bar1_memory": {"total": 8191 * MiB, "used": 1 * MiB},
		 "processes": {"compute": [proc(3021, 3128 * MiB, 13, 0)], "graphics": []}},
	]
	procs = (proc(SLEEPER, 12288 * MiB, 1, 0), proc(3021, 3128 * MiB, 13, 0))
	common = dict(part="692-2G506-0200-003", vbios="92.00.45.00.05", dev_id=0x20B0,
		      subsys=0x134F10DE, arch=7, cc=(8, 0), sms=108, cores=6912,
		      mem_total=40960 * MiB, mem_reserved=415 * MiB, bar1_total=65536 * MiB,
		      slowdown=89, shutdown=92, fan=None, limit=400000,
		      max_clocks=(1410, 1410, 1215, 1290), pstate=0,
		      pcie=pcie(4, 16, 4, 16, tx=1024, rx=2048), persistence=1, display=0,
		      ecc=ECC_ON, remapped=REMAP_CLEAN)
	d0 = nvidia_device(name=name, uuid="GPU-5b3e2a1c-9d8f-4e7a-b6c5-d4e3f2a1b0c9",
			   serial="1563520012345", minor=0, bus=0x07, temp=41, temp_mem=45,
			   mem_used=sum(m["memory"]["used"] for m in migs), power=88000,
			   energy=9123456789, clocks=(1410, 1410, 1215, 1275), reasons=0,
			   mig={"current": 1, "pending": 1, "max_devices": 7, "devices": migs},
			   procs_compute=procs, util=(0, 0), **common)
	# Utilisation is not available per GPU when MIG is on.
	d0["utilization"] = None
	d1 = nvidia_device(name=name, uuid="GPU-0e9d8c7b-6a5f-4e3d-2c1b-0a9f8e7d6c5b",
			   serial="1563520012400", minor=1, bus=0x0F, temp=33, temp_mem=36,
			   mem_used=MiB, power=61000, energy=8123456789,
			   clocks=(210, 210, 1215, 585), reasons=1,
			   mig={"current": 0, "pending": 0, "max_devices": 0, "devices": []},
			   **common)
	m = {
		"schema": 1,
		"description": "2x NVIDIA A100-SXM4-40GB (DGX A100 bus ids 07 and 0f), driver 535.104.05 / CUDA 12.2. "
			       "GPU 0 has MIG on with 3g.20gb (GI 1, 42 SMs, 19968 MiB), 2g.10gb (GI 5, 28 SMs, 9856 MiB) "
			       "and 1g.5gb (GI 13, 14 SMs, 4864 MiB): profile SM counts and sizes from go-nvml "
			       "pkg/nvml/mock/shared/gpus/a100.go; GPU 1 has MIG off. PCI 0x20B010DE/0x134F10DE, 108 SMs, "
			       "CC 8.0, 400 W, max clocks 1410/1215 MHz, video 1290 (NVIDIA A100 datasheet; VBIOS style "
			       "from a public A100 `nvidia-smi -a`, NVIDIA/CUDALibrarySamples#104). Processes carry "
			       "their GPU/compute instance ids.",
		"nvml": {"init": "SUCCESS", "driver_version": "535.104.05",
			 "nvml_version": "12.535.104.05", "cuda_driver_version": 12020,
			 "devices": [d0, d1]},
		"cuda": {"init": "SUCCESS", "driver_version": 12020, "fastest_first_order": [0, 1]},
	}
	t = Tree()
	nvidia_tree(t, [d0, d1], "535.104.05", build_date="Thu Aug 24 16:52:36 UTC 2023",
		    gcc="gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)")
	t.file("/proc/driver/nvidia-caps/mig-minors", "config 1\nmonitor 2\ngpu0/gi1/access 21\n"
	       "gpu0/gi1/ci0/access 22\ngpu0/gi5/access 66\ngpu0/gi5/ci0/access 67\n"
	       "gpu0/gi13/access 156\ngpu0/gi13/ci0/access 157\n")
	t.user(1003, "carol")
	t.process(3021, 1003, ["/opt/conda/bin/python", "serve.py", "--port", "8080"])
	return m, t


@machine
def laptop_3060():
	d = nvidia_device(
		name="NVIDIA GeForce RTX 3060 Laptop GPU", uuid="GPU-4e7bd3e1-9c2a-6f08-1d35-8b2c0a7e5f19",
		serial=None, minor=0, part=None, vbios="94.06.19.00.5E", bus=0x01, dev_id=0x2560,
		subsys=0x16F21043, arch=7, cc=(8, 6), sms=30, cores=3840,
		mem_total=6144 * MiB, mem_reserved=181 * MiB, mem_used=(412 + 3) * MiB,
		bar1_total=8192 * MiB, temp=46, slowdown=102, shutdown=105, fan=None,
		power=11437, limit=80000, mgmt_limit=80000, energy=2345678,
		clocks=(210, 210, 405, 555), max_clocks=(2100, 2100, 7001, 1950), pstate=8,
		pcie=pcie(1, 8, 4, 8), persistence=0, display=1, ecc=None, remapped=None,
		reasons=0x1, mig=None,
		procs_graphics=(proc(1710, 283 * MiB), proc(2054, 129 * MiB)),
		util=(3, 2))
	d["serial"] = None
	d["board_part_number"] = None
	m = {
		"schema": 1,
		"description": "Gaming laptop: NVIDIA GeForce RTX 3060 Laptop GPU (GA106M, 10de:2560, ASUS subsystem "
			       "1043:16f2), driver 535.183.01 / CUDA 12.2, PCIe 4.0 x8 idling at Gen1, no fan sensor, "
			       "80 W enforced limit (up to 115 W with Dynamic Boost), displays attached (Xorg and "
			       "gnome-shell graphics processes), no ECC, no MIG, no serial. 30 SMs / 3840 cores, "
			       "6 GB GDDR6 at 7001 MHz max, boost to 2100 MHz (NVIDIA RTX 30 laptop specs; pci.ids; "
			       "laptop power behaviour from yunusemreyl/omen-space#82 and SimonMacer/AnWave#38).",
		"nvml": {"init": "SUCCESS", "driver_version": "535.183.01",
			 "nvml_version": "12.535.183.01", "cuda_driver_version": 12020,
			 "devices": [d]},
		"cuda": {"init": "SUCCESS", "driver_version": 12020, "fastest_first_order": [0]},
	}
	t = Tree()
	nvidia_tree(t, [d], "535.183.01", build_date="Sun May 12 19:39:15 UTC 2024")
	t.user(1000, "dana")
	t.process(1710, 1000, ["/usr/lib/xorg/Xorg", "vt2", "-displayfd", "3", "-auth",
			       "/run/user/1000/gdm/Xauthority", "-nolisten", "tcp"])
	t.process(2054, 1000, ["/usr/bin/gnome-shell"])
	# The laptop's integrated GPU sits on bus 0 and is not an NVIDIA device.
	pci_function(t, "0000:00:02.0", vendor=0x8086, device=0x9a49, subsys_vendor=0x1043,
		     subsys_device=0x16f2, klass=0x030000, revision=0x01, cur_gen=1,
		     cur_width=1, max_gen=1, max_width=1, driver="i915")
	return m, t


@machine
def gtx1080ti_old_driver():
	d = nvidia_device(
		name="NVIDIA GeForce GTX 1080 Ti", uuid="GPU-de7e8698-487b-d7ec-a77f-1aa89b7f31ef",
		serial=None, minor=0, part="900-1G611-0050-000", vbios="86.02.39.00.01", bus=0x01,
		dev_id=0x1B06, subsys=0x120F10DE, arch=4, cc=(6, 1), sms=28, cores=3584,
		mem_total=11264 * MiB, mem_reserved=86 * MiB, mem_used=(6042 + 2) * MiB,
		bar1_total=256 * MiB, temp=56, slowdown=93, shutdown=96, fan=23,
		power=61000, limit=250000, energy=987654321,
		clocks=(1480, 1480, 5508, 1379), max_clocks=(1911, 1911, 5505, 1620), pstate=2,
		pcie=pcie(3, 16, 3, 16), persistence=1, display=0, ecc=None, remapped=None,
		reasons=0x4, mig=None, procs_compute=(proc(SLEEPER, 6042 * MiB),), util=(87, 41))
	d["serial"] = None
	d["remapped_rows"] = None
	m = {
		"schema": 1,
		"description": "Workstation with an NVIDIA GeForce GTX 1080 Ti (Pascal, 10de:1b06, founders edition "
			       "subsystem 10de:120f) on the old 470.182.03 driver / CUDA 11.4. UUID, VBIOS "
			       "86.02.39.00.01 and part number from a public `nvidia-smi -q` (NVIDIA/nvidia-docker#1034); "
			       "max clocks 1911/5505/1620 MHz from another (NVIDIA/nvidia-docker#957). 250 W limit, "
			       "11 GB GDDR5X, 28 SMs, CC 6.1, fan present. Symbols newer than the driver "
			       "(nvmlDeviceGetMemoryInfo_v2, the _v3 process calls, GpuMaxPcieLinkGeneration, "
			       "CurrentClocksEventReasons, TemperatureV, ...) are not exported: \"library_dir\": "
			       "\"legacy-470\" makes with-machine use build/fake/legacy-470 (fake/legacy-470.map), "
			       "so clients take their dlsym-time fallbacks as on a real 470 driver.",
		"nvml": {"init": "SUCCESS", "library_dir": "legacy-470", "driver_version": "470.182.03",
			 "nvml_version": "11.470.182.03", "cuda_driver_version": 11040,
			 "devices": [d]},
		"cuda": {"init": "SUCCESS", "driver_version": 11040, "fastest_first_order": [0]},
	}
	t = Tree()
	nvidia_tree(t, [d], "470.182.03", build_date="Fri Mar 24 15:25:13 UTC 2023",
		    gcc="gcc version 9.4.0 (Ubuntu 9.4.0-1ubuntu1~20.04.1)")
	return m, t


def rx7900xtx(t, bdf, card, node, bus):
	amd_gpu(t, bdf=bdf, card=card, node=node, gpu_id=51234, device=0x744c,
		subsys_vendor=0x1002, subsys_device=0x0e3b, revision=0xc8,
		gfx_target_version=110000, gfx_name="gfx1100", simd_count=192, simd_per_cu=2,
		vram_total=25753026560, vram_used=1471414272, gtt_total=33442582528,
		vbios="113-D70201-00", unique_id="9e8a21c2f3b1a4d7", busy=4, mem_busy=1,
		link=(4, 16, 4, 16),
		hwmon={"temp1_input": 41000, "temp1_label": "edge", "temp1_crit": 100000,
		       "temp2_input": 48000, "temp2_label": "junction", "temp2_crit": 110000,
		       "temp3_input": 54000, "temp3_label": "mem", "temp3_crit": 108000,
		       "power1_average": 27000000, "power1_cap": 327000000,
		       "power1_cap_max": 402000000, "power1_cap_default": 327000000,
		       "fan1_input": 0, "fan1_max": 3300, "pwm1": 0, "pwm1_max": 255,
		       "pwm1_enable": 2, "freq1_input": 49000000, "freq1_label": "sclk",
		       "freq2_input": 96000000, "freq2_label": "mclk", "in0_input": 12,
		       "in0_label": "vddgfx"},
		hwmon_index=2, sclk_levels=[(500, False), (49, True), (2526, False)],
		mclk_levels=[(96, True), (456, False), (772, False), (1249, False)],
		max_engine_clk=2526, location_id=bus << 8)


def amd_client(t, pid, fd, bdf, client_id, vram_kib, gtt_kib=2048):
	"""One DRM fd of an amdgpu client, as /proc/<pid>/fdinfo/<fd> shows it on
	Linux 6.8 (the keys of Documentation/gpu/drm-usage-stats.rst)."""
	t.file("/proc/%d/fdinfo/%d" % (pid, fd),
	       "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t1062\ndrm-driver:\tamdgpu\n"
	       "drm-client-id:\t%d\ndrm-pdev:\t%s\npasid:\t%d\ndrm-memory-vram:\t%d KiB\n"
	       "drm-memory-gtt:\t%d KiB\ndrm-memory-cpu:\t0 KiB\namd-memory-visible-vram:\t0 KiB\n"
	       "drm-engine-gfx:\t0 ns\ndrm-engine-compute:\t81729330144 ns\n"
	       % (client_id, bdf, 32768 + client_id, vram_kib, gtt_kib))


def plain_fd(t, pid, fd):
	"""A non-DRM fd (a pipe): fdinfo without any drm- key."""
	t.file("/proc/%d/fdinfo/%d" % (pid, fd), "pos:\t0\nflags:\t02000000\nmnt_id:\t15\nino:\t48213\n")


@machine
def mixed_nvidia_amd():
	d = nvidia_device(
		name="NVIDIA GeForce RTX 3090", uuid="GPU-9a1e4c3b-7f26-d580-4b1a-e2c9d07f3a68",
		serial=None, minor=0, part=None, vbios="94.02.42.40.AC", bus=0x0A, dev_id=0x2204,
		subsys=0x38821462, arch=7, cc=(8, 6), sms=82, cores=10496,
		mem_total=24576 * MiB, mem_reserved=311 * MiB, mem_used=(8214 + 2) * MiB,
		bar1_total=256 * MiB, temp=62, slowdown=95, shutdown=98, fan=47,
		power=287000, limit=350000, energy=4567890123,
		clocks=(1845, 1845, 9751, 1635), max_clocks=(2100, 2100, 9751, 1950), pstate=2,
		pcie=pcie(4, 16, 4, 16), persistence=0, display=0, ecc=None, remapped=None,
		reasons=0x0, mig=None, procs_compute=(proc(SLEEPER, 8214 * MiB),), util=(94, 52))
	d["serial"] = None
	d["board_part_number"] = None
	m = {
		"schema": 1,
		"description": "Mixed vendors: an NVIDIA GeForce RTX 3090 (10de:2204, MSI subsystem 1462:3882, bus 0a, "
			       "driver 550.54.15 / CUDA 12.4) through NVML, and an AMD Radeon RX 7900 XTX "
			       "(1002:744c, gfx1100, 96 CUs = simd_count 192, 24 GB, bus 03) through amdgpu sysfs and "
			       "the KFD topology (amdgpu 6.8.5 DKMS, ROCm 6.2.0). The AMD GPU is on the lower bus but "
			       "CUDA and NVML see only the NVIDIA one. AMD values from AMD's RX 7900 XTX specs and the "
			       "KFD/hwmon layout in the Linux amdgpu documentation; gfx_target_version encoding from "
			       "jax hardware_utils.",
		"nvml": {"init": "SUCCESS", "driver_version": "550.54.15",
			 "nvml_version": "12.550.54.15", "cuda_driver_version": 12040,
			 "devices": [d]},
		"cuda": {"init": "SUCCESS", "driver_version": 12040, "fastest_first_order": [0]},
	}
	t = Tree()
	nvidia_tree(t, [d], "550.54.15")
	kfd_common(t, "6.8.5", "6.2.0")
	rx7900xtx(t, "0000:03:00.0", "card0", 1, 0x03)
	# A desktop on the AMD card: gnome-shell holds one client through two fds.
	t.user(1000, "alice")
	t.process(2054, 1000, ["/usr/bin/gnome-shell"])
	plain_fd(t, 2054, 0)
	amd_client(t, 2054, 14, "0000:03:00.0", 3, 412160)
	amd_client(t, 2054, 15, "0000:03:00.0", 3, 412160)
	return m, t


@machine
def mi300x():
	m = {
		"schema": 1,
		"description": "AMD Instinct MI300X server slice: two MI300X OAM (1002:74a1, gfx942, 304 CUs, "
			       "192 GB HBM3, 750 W cap, no fan) on amdgpu 6.8.5 / ROCm 6.2.0, sysfs and KFD only. "
			       "No NVIDIA user-space library is installed (\"nvml\": null, \"cuda\": null: with-machine "
			       "keeps the fake libraries off the library path). rocm-smi style values (750 W, "
			       "131/900 MHz idle) from a public capture (github.com/thamada/nvidia-smi "
			       "package/MI300X_smi.py); CU count and memory from AMD's MI300X data sheet.",
		"nvml": None,
		"cuda": None,
	}
	t = Tree()
	kfd_common(t, "6.8.5", "6.2.0")
	for i, bus in enumerate((0x0c, 0x22)):
		amd_gpu(t, bdf="0000:%02x:00.0" % bus, card="card%d" % i, node=i + 1,
			gpu_id=27312 + i * 4097, device=0x74a1, subsys_vendor=0x1002,
			subsys_device=0x74a1, revision=0x00, gfx_target_version=90402,
			gfx_name="gfx942", simd_count=1216, simd_per_cu=4,
			vram_total=206141652992, vram_used=[297795584, 180388626432][i],
			gtt_total=1082331758592, vbios="113-M3000100-102",
			unique_id=["5ecd1b4e3a6d8f01", "a2917c0d44e1b503"][i],
			busy=[0, 100][i], mem_busy=[0, 37][i], link=(5, 16, 5, 16),
			hwmon={"temp2_input": [41000, 67000][i], "temp2_label": "junction",
			       "temp2_crit": 110000, "temp3_input": [36000, 58000][i],
			       "temp3_label": "mem", "temp3_crit": 95000,
			       "power1_average": [121000000, 612000000][i], "power1_cap": 750000000,
			       "power1_cap_max": 750000000, "power1_cap_default": 750000000,
			       "freq1_input": [131000000, 2100000000][i], "freq1_label": "sclk",
			       "freq2_input": 900000000 if i == 0 else 1300000000, "freq2_label": "mclk"},
			hwmon_index=3 + i,
			sclk_levels=[(500, False), (131 if i == 0 else 2100, True), (2100, False)],
			mclk_levels=[(900, i == 0), (1300, i == 1)],
			max_engine_clk=2100, location_id=bus << 8, num_xcc=8,
			product_name="AMD Instinct MI300X")
	# GPU 1 runs a training job (one client reached through a dup'ed fd, and
	# a second client) and a small profiler; GPU 0 is idle. They hold under
	# half the VRAM (the rest belongs to processes a non-root user cannot
	# see), so doctor's gpu-memory-held-by-other-processes stays quiet here.
	t.user(1001, "bob")
	t.process(7311, 1001, ["/opt/conda/bin/python", "train_llama.py", "--bf16"])
	plain_fd(t, 7311, 0)
	amd_client(t, 7311, 12, "0000:22:00.0", 4, 83886080)
	amd_client(t, 7311, 13, "0000:22:00.0", 4, 83886080)
	amd_client(t, 7311, 17, "0000:22:00.0", 5, 4194304)
	t.process(7402, 1001, ["/opt/rocm/bin/rocprofv3", "--sys-trace"])
	amd_client(t, 7402, 9, "0000:22:00.0", 6, 262144)
	return m, t


@machine
def no_driver():
	m = {
		"schema": 1,
		"description": "An NVIDIA L4 (10de:27b8, subsystem 10de:16ca) on the PCI bus with no kernel driver "
			       "bound: the nvidia module is not loaded (no /proc/driver/nvidia, no /sys/module/nvidia, "
			       "no /dev/nvidia*), but the user-space library is installed, so nvmlInit returns "
			       "DRIVER_NOT_LOADED and cuInit returns NO_DEVICE (what pynvml reports as 'Driver Not "
			       "Loaded', gpustat#110; nvidia-smi 'couldn't communicate with the NVIDIA driver').",
		"nvml": {"init": "DRIVER_NOT_LOADED", "driver_version": "550.54.15",
			 "nvml_version": "12.550.54.15", "cuda_driver_version": 12040, "devices": []},
		"cuda": {"init": "NO_DEVICE", "driver_version": 12040, "fastest_first_order": []},
	}
	t = Tree()
	pci_function(t, "0000:41:00.0", vendor=0x10DE, device=0x27B8, subsys_vendor=0x10DE,
		     subsys_device=0x16CA, klass=0x030200, revision=0xa1, cur_gen=4,
		     cur_width=16, max_gen=4, max_width=16, driver=None)
	# The BMC's VGA controller keeps the console.
	pci_function(t, "0000:03:00.0", vendor=0x1A03, device=0x2000, subsys_vendor=0x1A03,
		     subsys_device=0x2000, klass=0x030000, revision=0x52, cur_gen=1, cur_width=1,
		     max_gen=1, max_width=1, driver="ast")
	return m, t


@machine
def driver_mismatch():
	d = nvidia_device(
		name="NVIDIA RTX A6000", uuid="GPU-3c5e7a91-2b4d-6f80-a1c3-e5f7092b4d6e",
		serial="1322021034567", minor=0, part="900-5G133-2200-000", vbios="94.02.5C.00.02",
		bus=0x21, dev_id=0x2230, subsys=0x145910DE, arch=7, cc=(8, 6), sms=84, cores=10752,
		mem_total=49140 * MiB, mem_reserved=505 * MiB, mem_used=MiB, bar1_total=256 * MiB,
		temp=34, slowdown=98, shutdown=101, fan=30, power=22000, limit=300000,
		energy=123456789, clocks=(210, 210, 405, 555), max_clocks=(2100, 2100, 8001, 1950),
		pstate=8, pcie=pcie(1, 16, 4, 16), persistence=0, display=1,
		ecc={"current": 0, "pending": 0, "corrected_volatile": 0, "uncorrected_volatile": 0,
		     "corrected_aggregate": 0, "uncorrected_aggregate": 0},
		remapped=REMAP_CLEAN, reasons=1, mig=None)
	m = {
		"schema": 1,
		"description": "After an unattended driver upgrade without reboot: the user-space libraries are "
			       "550.90.07 but the loaded kernel module is still 550.54.15, so nvmlInit returns "
			       "LIB_RM_VERSION_MISMATCH ('Failed to initialize NVML: Driver/library version mismatch', "
			       "NVML library version stays readable: tinygrad/open-gpu-kernel-modules#47) and cuInit "
			       "returns SYSTEM_DRIVER_MISMATCH (803). GPU: NVIDIA RTX A6000 (10de:2230, 48 GB, 300 W).",
		"nvml": {"init": "LIB_RM_VERSION_MISMATCH", "driver_version": "550.90.07",
			 "nvml_version": "12.550.90.07", "cuda_driver_version": 12040,
			 "devices": [d]},
		"cuda": {"init": "SYSTEM_DRIVER_MISMATCH", "driver_version": 12040,
			 "fastest_first_order": [0]},
	}
	t = Tree()
	nvidia_tree(t, [d], "550.54.15")
	return m, t


@machine
def lost_gpu():
	uuids = ["GPU-a75cda02-62ce-2c30-9150-555ef08935e2", "GPU-6b0f1e2d-3c4a-5b69-8a7f-0e1d2c3b4a59",
		 "GPU-f19e28d7-c6b5-4a39-8271-605f4e3d2c1b", "GPU-0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d"]
	serials = ["1324621114474", "1324621114475", "1324621114481", "1324621114490"]
	devices = []
	for i, bus in enumerate((0x07, 0x0F, 0x47, 0x4E)):
		procs = (proc(SLEEPER, 30720 * MiB),) if i == 0 else ()
		d = nvidia_device(
			name="NVIDIA A100-SXM4-80GB", uuid=uuids[i], serial=serials[i], minor=i,
			part="692-2G506-0210-002", vbios="92.00.45.00.05", bus=bus, dev_id=0x20B2,
			subsys=0x147F10DE, arch=7, cc=(8, 0), sms=108, cores=6912,
			mem_total=81920 * MiB, mem_reserved=559 * MiB,
			mem_used=(30720 if i == 0 else 0) * MiB + MiB, bar1_total=131072 * MiB,
			temp=35 + i, temp_mem=38 + i, slowdown=89, shutdown=92, fan=None,
			power=65000 + 1000 * i, limit=400000, energy=7000000000 + i,
			clocks=(1410, 1410, 1593, 1275) if procs else (210, 210, 1593, 795),
			max_clocks=(1410, 1410, 1593, 1290), pstate=0, pcie=pcie(4, 16, 4, 16),
			persistence=1, display=0, ecc=ECC_ON, remapped=REMAP_CLEAN,
			reasons=0 if procs else 1, mig=MIG_OFF, procs_compute=procs,
			util=(76, 33) if procs else (0, 0),
			errors={"*": "GPU_IS_LOST"} if i == 2 else None)
		devices.append(d)
	m = {
		"schema": 1,
		"description": "4x NVIDIA A100-SXM4-80GB (10de:20b2, subsystem 10de:147f, 81920 MiB, 400 W), driver "
			       "535.161.08 / CUDA 12.2. GPU 2 (bus 47) has fallen off the bus: every NVML call on it, "
			       "handle lookup included, returns GPU_IS_LOST (nvidia-smi: 'Unable to determine the device "
			       "handle for GPU 0000:47:00.0: GPU is lost', marian-nmt#251). First UUID, serial and VBIOS "
			       "from a public A100-SXM4-80GB `nvidia-smi -a` (NVIDIA/CUDALibrarySamples#104).",
		"nvml": {"init": "SUCCESS", "driver_version": "535.161.08",
			 "nvml_version": "12.535.161.08", "cuda_driver_version": 12020,
			 "devices": devices},
		"cuda": {"init": "SUCCESS", "driver_version": 12020, "fastest_first_order": [0, 1, 2, 3]},
	}
	t = Tree()
	nvidia_tree(t, devices, "535.161.08", build_date="Wed Feb 14 02:31:33 UTC 2024",
		    gcc="gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)")
	t.file("/var/log/kern.log",
	       "Mar 14 03:12:09 node17 kernel: NVRM: GPU at PCI:0000:47:00: GPU-f19e28d7-c6b5-4a39-8271-605f4e3d2c1b\n"
	       "Mar 14 03:12:09 node17 kernel: NVRM: Xid (PCI:0000:47:00): 79, pid='<unknown>', name=<unknown>, "
	       "GPU has fallen off the bus.\n"
	       "Mar 14 03:12:09 node17 kernel: NVRM: GPU 0000:47:00.0: GPU has fallen off the bus.\n")
	return m, t


@machine
def all_not_supported():
	d = {
		"name": "NVIDIA Graphics Device", "uuid": "GPU-00000000-1111-2222-3333-444444444444",
		"minor_number": 0,
		"pci": {"bus_id": nvml_bus_id(0x65), "domain": 0, "bus": 0x65, "device": 0,
			"pci_device_id": "0x2B8510DE", "pci_subsystem_id": "0x00000000"},
		"serial": None, "board_part_number": None, "vbios_version": None,
		"architecture": None, "cuda_compute_capability": None, "multiprocessor_count": None,
		"num_gpu_cores": None, "memory": None, "bar1_memory": None, "utilization": None,
		"encoder_utilization": None, "decoder_utilization": None, "temperature": None,
		"fan_speed": None, "power": None, "clocks": None, "max_clocks": None,
		"performance_state": None, "pcie": None, "persistence_mode": None,
		"compute_mode": None, "display_mode": None, "ecc": None, "remapped_rows": None,
		"clocks_event_reasons": None, "mig": None, "processes": None, "nvlinks": None,
	}
	m = {
		"schema": 1,
		"description": "Worst case for 'unknown is never 0': one NVIDIA device whose every optional getter "
			       "answers NOT_SUPPORTED (null) - only name, UUID, minor number and PCI info are "
			       "readable, as with a GPU too new for the driver's tables (10de:2b85 shown as "
			       "'NVIDIA Graphics Device'). gpustat cannot show it (it treats memory as required).",
		"nvml": {"init": "SUCCESS", "driver_version": "550.54.15",
			 "nvml_version": "12.550.54.15", "cuda_driver_version": 12040, "devices": [d]},
		"cuda": {"init": "SUCCESS", "driver_version": 12040, "fastest_first_order": [0]},
	}
	t = Tree()
	nvidia_tree(t, [d], "550.54.15")
	return m, t


@machine
def mixed_order():
	gtx = nvidia_device(
		name="NVIDIA GeForce GTX 1660", uuid="GPU-7d2c9e14-5a0b-3f86-c1e2-94b8a6d30f57",
		serial=None, minor=0, part=None, vbios="90.16.25.00.4C", bus=0x01, dev_id=0x2184,
		subsys=0x3FC01462, arch=6, cc=(7, 5), sms=22, cores=1408,
		mem_total=6144 * MiB, mem_reserved=157 * MiB, mem_used=(96 + 2) * MiB,
		bar1_total=256 * MiB, temp=38, slowdown=92, shutdown=95, fan=34, power=12000,
		limit=120000, energy=345678901, clocks=(300, 300, 405, 540),
		max_clocks=(2100, 2100, 4001, 1950), pstate=8, pcie=pcie(1, 16, 3, 16),
		persistence=0, display=1, ecc=None, remapped=None, reasons=1, mig=None,
		procs_graphics=(proc(1432, 96 * MiB),), util=(1, 4))
	rtx = nvidia_device(
		name="NVIDIA GeForce RTX 4090", uuid="GPU-e3f1a0b2-8c7d-4e59-b6a1-2d3c4e5f6a7b",
		serial=None, minor=1, part=None, vbios="95.02.3C.40.8E", bus=0x41, dev_id=0x2684,
		subsys=0x16F310DE, arch=8, cc=(8, 9), sms=128, cores=16384,
		mem_total=24564 * MiB, mem_reserved=346 * MiB, mem_used=(18022 + 2) * MiB,
		bar1_total=256 * MiB, temp=58, slowdown=87, shutdown=90, fan=41, power=318000,
		limit=450000, energy=5678901234, clocks=(2625, 2625, 10501, 2160),
		max_clocks=(3105, 3105, 10501, 2415), pstate=2, pcie=pcie(4, 16, 4, 16),
		persistence=0, display=0, ecc=None, remapped=None, reasons=0, mig=None,
		procs_compute=(proc(SLEEPER, 18022 * MiB),), util=(99, 71))
	for d in (gtx, rtx):
		d["serial"] = None
		d["board_part_number"] = None
	m = {
		"schema": 1,
		"description": "CUDA order differs from nvidia-smi order: a GeForce GTX 1660 (TU116, 10de:2184, CC 7.5, "
			       "22 SMs, 6 GB, 120 W) driving the display on bus 01 and a GeForce RTX 4090 (AD102, "
			       "10de:2684, CC 8.9, 128 SMs, 24564 MiB, 450 W) on bus 41, driver 550.54.15 / CUDA 12.4. "
			       "NVML numbers them by bus (1660 = 0, 4090 = 1); CUDA's default FASTEST_FIRST puts the "
			       "4090 first. 4090 values from a public `nvidia-smi -q -x` (netdata/netdata#15755) and "
			       "nvbench#207 (128 SMs); 1660 from NVIDIA's specs.",
		"nvml": {"init": "SUCCESS", "driver_version": "550.54.15",
			 "nvml_version": "12.550.54.15", "cuda_driver_version": 12040,
			 "devices": [gtx, rtx]},
		"cuda": {"init": "SUCCESS", "driver_version": 12040, "fastest_first_order": [1, 0]},
	}
	t = Tree()
	nvidia_tree(t, [gtx, rtx], "550.54.15")
	t.user(1000, "erin")
	t.process(1432, 1000, ["/usr/lib/xorg/Xorg", ":0", "-seat", "seat0", "-auth",
			       "/var/run/lightdm/root/:0", "-nolisten", "tcp", "vt7", "-novtswitch"])
	return m, t


def main(argv):
	out = os.path.join(HERE, "..", "..", "build", "machines")
	args = argv[1:]
	if args[:1] == ["--out"] and len(args) >= 2:
		out, args = args[1], args[2:]
	names = args or sorted(MACHINES)
	for name in names:
		if name not in MACHINES:
			sys.exit("make_machines: no machine %r (known: %s)" % (name, ", ".join(sorted(MACHINES))))
		m, t = MACHINES[name]()
		t.finish()
		folder = os.path.join(out, name)
		os.makedirs(folder, exist_ok=True)
		with open(os.path.join(folder, "machine.json"), "w") as f:
			json.dump(m, f, indent=2)
			f.write("\n")
		t.write(os.path.join(folder, "root"))
		print("wrote", name)


if __name__ == "__main__":
	main(sys.argv)
