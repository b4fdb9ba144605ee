#!/usr/bin/env python3
"""Compares `gpuwise info --json` with `nvidia-smi -q -x` on a real machine.

    compare.py GPUWISE_JSON NVIDIA_SMI_XML [QUERY_CSV] [--machine-json OUT]

QUERY_CSV is `nvidia-smi --query-gpu=pci.bus_id,compute_cap --format=csv,noheader`
(compute capability is not in the XML). Prints one table row per field
(field, gpuwise, nvidia-smi, verdict) and exits 1 when a field differs beyond
its tolerance, 0 otherwise. Static fields must match exactly; dynamic ones
(temperature, power draw, clocks, memory in use) within a tolerance, because
the two tools read a few hundred milliseconds apart. Fields that are
legitimately volatile (current PCIe generation, which idles down) are shown
as INFO and never fail.

--machine-json writes a draft tests/machines/<name>/machine.json from the
XML, as a starting point for a new fake machine (review it: the XML lacks
SM counts, energy and some ids).
Standard library only; needs no network.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

MiB = 1 << 20


def text(node, path):
	if node is None:
		return None
	el = node.find(path)
	if el is None or el.text is None:
		return None
	t = el.text.strip()
	return None if t in ("N/A", "", "[N/A]", "Not Supported", "[Not Supported]", "Unknown Error") else t


def number(s):
	"""'81559 MiB' -> 81559.0, '700.00 W' -> 700.0, '16x' -> 16.0, 'P0' -> None."""
	if s is None:
		return None
	m = re.match(r"\s*(-?[0-9]+(?:\.[0-9]+)?)", s)
	return float(m.group(1)) if m else None


def first(*vals):
	for v in vals:
		if v is not None:
			return v
	return None


def hex_id(v, upper=False):
	"""A PCI id in one form, 0x233510de (or 0x233510DE), from 0x233510de or 233510DE; None when absent."""
	try:
		return None if v in (None, "", "N/A") else ("0x%08X" if upper else "0x%08x") % int(v, 16)
	except ValueError:
		return v


def clk_of(node, path):
	"""An integer field ("16x" -> 16), or None."""
	v = number(text(node, path))
	return None if v is None else int(v)


def bus(s):
	return s.lower()[-12:] if isinstance(s, str) else None


class Table:
	def __init__(self):
		self.rows = []
		self.failed = 0

	def add(self, gpu, field, gw, smi, verdict):
		self.rows.append((gpu, field, "null" if gw is None else str(gw),
				  "N/A" if smi is None else str(smi), verdict))
		if verdict == "DIFF":
			self.failed += 1

	def exact(self, gpu, field, gw, smi):
		self.add(gpu, field, gw, smi, "OK" if gw == smi else "DIFF")

	def within(self, gpu, field, gw, smi, tol):
		if gw is None or smi is None:
			self.add(gpu, field, gw, smi, "OK" if gw is None and smi is None else "DIFF")
		else:
			self.add(gpu, field, gw, smi, "OK" if abs(gw - smi) <= tol else "DIFF")

	def info(self, gpu, field, gw, smi):
		self.add(gpu, field, gw, smi, "OK" if gw == smi else "INFO")

	def print(self):
		w = [max(len(str(r[i])) for r in self.rows + [("GPU", "field", "gpuwise", "nvidia-smi", "")])
		     for i in range(5)]
		fmt = "%-{}s  %-{}s  %-{}s  %-{}s  %s".format(*w[:4])
		print(fmt % ("GPU", "field", "gpuwise", "nvidia-smi", "verdict"))
		for r in self.rows:
			print(fmt % r)


def compare_gpu(t, g, x, cc):
	tag = str(g.get("index"))
	mem = g.get("memory") or {}
	fb = x.find("fb_memory_usage")
	t.exact(tag, "name", g.get("name"), text(x, "product_name"))
	t.exact(tag, "uuid", g.get("uuid"), text(x, "uuid"))
	t.exact(tag, "pci_bus_id", bus(g.get("pci_bus_id")), bus(text(x, "pci/pci_bus_id")))
	did = text(x, "pci/pci_device_id")
	# as numbers: gpuwise writes 0x233510de, a real nvidia-smi's XML 233510DE
	# (no 0x; -q's text has it), as the 2026-12-04 H200 capture shows
	t.exact(tag, "pci_device_id", hex_id(g.get("pci_device_id")), hex_id(did))
	t.exact(tag, "vbios_version", (g.get("vbios_version") or "").upper() or None,
		(text(x, "vbios_version") or "").upper() or None)
	t.exact(tag, "serial", g.get("serial"), text(x, "serial"))
	t.exact(tag, "minor_number", g.get("minor_number"),
		int(text(x, "minor_number")) if (text(x, "minor_number") or "").isdigit() else None)
	if cc is not None:
		t.exact(tag, "compute_capability", g.get("compute_capability"), cc)

	tot = mem.get("total_bytes")
	t.exact(tag, "memory.total (MiB)", None if tot is None else tot // MiB,
		None if number(text(fb, "total")) is None else int(number(text(fb, "total"))))
	res = mem.get("reserved_bytes")
	if text(fb, "reserved") is not None or res is not None:
		# nvidia-smi derives its MiB figure from rounded ones: NVML's
		# 644,939,776 bytes (615.06 MiB) print as 616 MiB on the 2026-12-04 H200
		t.within(tag, "memory.reserved (MiB)", None if res is None else res // MiB,
			 None if number(text(fb, "reserved")) is None else int(number(text(fb, "reserved"))), 1)
	used = mem.get("used_bytes")
	smi_used = number(text(fb, "used"))
	t.within(tag, "memory.used (MiB)", None if used is None else used // MiB,
		 None if smi_used is None else int(smi_used),
		 max(64, 0.05 * (smi_used or 0)))

	link = x.find("pci/pci_gpu_link_info")
	t.info(tag, "pcie.gen (current)", (g.get("pcie") or {}).get("gen"),
	       None if number(text(link, "pcie_gen/current_link_gen")) is None
	       else int(number(text(link, "pcie_gen/current_link_gen"))))
	t.exact(tag, "pcie.max_gen", (g.get("pcie") or {}).get("max_gen"),
		None if number(text(link, "pcie_gen/max_link_gen")) is None
		else int(number(text(link, "pcie_gen/max_link_gen"))))
	t.exact(tag, "pcie.width (current)", (g.get("pcie") or {}).get("width"),
		None if number(text(link, "link_widths/current_link_width")) is None
		else int(number(text(link, "link_widths/current_link_width"))))
	t.exact(tag, "pcie.max_width", (g.get("pcie") or {}).get("max_width"),
		None if number(text(link, "link_widths/max_link_width")) is None
		else int(number(text(link, "link_widths/max_link_width"))))

	power = g.get("power") or {}
	pr = first(x.find("gpu_power_readings"), x.find("power_readings"))
	limit = number(first(text(pr, "current_power_limit"), text(pr, "enforced_power_limit"),
			     text(pr, "power_limit")))
	t.within(tag, "power.limit_w", power.get("limit_w"), limit, 0.01)
	draw = number(first(text(pr, "power_draw"), text(pr, "average_power_draw"),
			    text(pr, "instant_power_draw")))
	t.within(tag, "power.draw_w", power.get("draw_w"), draw, max(20.0, 0.2 * (draw or 0)))

	temp = number(text(x, "temperature/gpu_temp"))
	t.within(tag, "temperature_c", g.get("temperature_c"), temp, 5)
	fan = number(text(x, "fan_speed"))
	t.within(tag, "fan_percent", g.get("fan_percent"), None if fan is None else int(fan), 10)
	t.exact(tag, "pstate", g.get("pstate"), text(x, "performance_state"))

	clocks = g.get("clocks") or {}
	max_sm = number(text(x, "max_clocks/sm_clock"))
	max_mem = number(text(x, "max_clocks/mem_clock"))
	t.exact(tag, "clocks.max_sm_mhz", clocks.get("max_sm_mhz"), None if max_sm is None else int(max_sm))
	t.exact(tag, "clocks.max_mem_mhz", clocks.get("max_mem_mhz"), None if max_mem is None else int(max_mem))
	sm = number(text(x, "clocks/sm_clock"))
	t.within(tag, "clocks.sm_mhz", clocks.get("sm_mhz"), None if sm is None else int(sm),
		 0.15 * (max_sm or 2000))
	mc = number(text(x, "clocks/mem_clock"))
	t.within(tag, "clocks.mem_mhz", clocks.get("mem_mhz"), None if mc is None else int(mc),
		 0.15 * (max_mem or 2000))

	mig = text(x, "mig_mode/current_mig")
	t.exact(tag, "mig.enabled", (g.get("mig") or {}).get("enabled"),
		None if mig is None else mig == "Enabled")
	pm = text(x, "persistence_mode")
	t.exact(tag, "persistence_mode", g.get("persistence_mode"), None if pm is None else pm == "Enabled")

	smi_procs = {}
	for p in x.findall("processes/process_info"):
		pid = int(text(p, "pid") or -1)
		smi_procs[pid] = number(text(p, "used_memory"))
	gw_procs = {p["pid"]: p.get("used_memory_bytes") for p in (g.get("processes") or [])}
	t.exact(tag, "processes (pids)", sorted(gw_procs), sorted(smi_procs))
	for pid in sorted(set(gw_procs) & set(smi_procs)):
		gm = gw_procs[pid]
		t.within(tag, "process %d memory (MiB)" % pid, None if gm is None else gm // MiB,
			 None if smi_procs[pid] is None else int(smi_procs[pid]), 64)


def draft_machine(root, caps):
	"""A starting point for tests/machines/<name>/machine.json from the XML."""
	devs = []
	for i, x in enumerate(root.findall("gpu")):
		fb = x.find("fb_memory_usage")
		mib = lambda p: None if number(text(fb, p)) is None else int(number(text(fb, p))) * MiB
		pr = first(x.find("gpu_power_readings"), x.find("power_readings"))
		mw = lambda s: None if number(s) is None else int(round(number(s) * 1000))
		bus_id = text(x, "pci/pci_bus_id")
		cc = caps.get(bus(bus_id))
		clk = lambda p: None if number(text(x, p)) is None else int(number(text(x, p)))
		link = x.find("pci/pci_gpu_link_info")
		devs.append({
			"name": text(x, "product_name"), "uuid": text(x, "uuid"), "serial": text(x, "serial"),
			"minor_number": clk("minor_number"), "board_part_number": text(x, "board_part_number"),
			"vbios_version": text(x, "vbios_version"),
			"pci": {"bus_id": bus_id, "domain": int(text(x, "pci/pci_domain") or "0", 16),
				"bus": int(text(x, "pci/pci_bus") or "0", 16),
				"device": int(text(x, "pci/pci_device") or "0", 16),
				# the fake machines' form, 0x233510DE (the real XML drops the 0x)
				"pci_device_id": hex_id(text(x, "pci/pci_device_id"), upper=True),
				"pci_subsystem_id": hex_id(text(x, "pci/pci_sub_system_id"), upper=True)},
			"cuda_compute_capability": [int(c) for c in cc.split(".")] if cc else None,
			"memory": {"total": mib("total"), "reserved": mib("reserved"), "used": mib("used")},
			"temperature": {"gpu": clk("temperature/gpu_temp")},
			"fan_speed": clk("fan_speed"),
			"power": {"usage": mw(first(text(pr, "power_draw"), text(pr, "instant_power_draw"))),
				  "enforced_limit": mw(first(text(pr, "current_power_limit"),
							     text(pr, "enforced_power_limit")))},
			"clocks": {k: clk("clocks/%s_clock" % k) for k in ("graphics", "sm", "mem", "video")},
			"max_clocks": {k: clk("max_clocks/%s_clock" % k) for k in ("graphics", "sm", "mem", "video")},
			"performance_state": clk("performance_state")
			if text(x, "performance_state") is None else int(number(text(x, "performance_state")[1:])),
			"pcie": {"curr_gen": clk("pci/pci_gpu_link_info/pcie_gen/current_link_gen"),
				 "max_gen": clk("pci/pci_gpu_link_info/pcie_gen/max_link_gen"),
				 "curr_width": None if link is None else clk_of(link, "link_widths/current_link_width"),
				 "max_width": None if link is None else clk_of(link, "link_widths/max_link_width")},
			"processes": {"compute": [{"pid": int(text(p, "pid")),
						   "used_gpu_memory": None if number(text(p, "used_memory")) is None
						   else int(number(text(p, "used_memory"))) * MiB}
						  for p in x.findall("processes/process_info")], "graphics": []},
		})
	drv = text(root, "driver_version")
	cuda = text(root, "cuda_version")
	cv = None
	if cuda and re.match(r"^\d+\.\d+$", cuda):
		a, b = cuda.split(".")
		cv = int(a) * 1000 + int(b) * 10
	return {"schema": 1,
		"description": "Draft from a real `nvidia-smi -q -x` (tests/device/compare.py); review before use.",
		"nvml": {"init": "SUCCESS", "driver_version": drv, "nvml_version": None,
			 "cuda_driver_version": cv, "devices": devs},
		"cuda": {"init": "SUCCESS", "driver_version": cv, "fastest_first_order": list(range(len(devs)))}}


def main(argv):
	args = [a for a in argv[1:] if not a.startswith("--")]
	machine_out = None
	if "--machine-json" in argv:
		machine_out = argv[argv.index("--machine-json") + 1]
		args = [a for a in args if a != machine_out]
	if len(args) < 2:
		sys.exit("usage: compare.py GPUWISE_JSON NVIDIA_SMI_XML [QUERY_CSV] [--machine-json OUT]")
	with open(args[0]) as f:
		gw = json.load(f)
	root = ET.parse(args[1]).getroot()
	caps = {}
	if len(args) > 2:
		with open(args[2]) as f:
			for line in f:
				parts = [p.strip() for p in line.split(",")]
				if len(parts) >= 2 and re.match(r"^\d+\.\d+$", parts[1]):
					caps[bus(parts[0])] = parts[1]
	if machine_out:
		with open(machine_out, "w") as f:
			json.dump(draft_machine(root, caps), f, indent=2)
			f.write("\n")

	t = Table()
	drv = gw.get("driver") or {}
	t.exact("-", "driver.version", drv.get("version"), text(root, "driver_version"))
	t.exact("-", "driver.cuda_driver_version", drv.get("cuda_driver_version"), text(root, "cuda_version"))
	gw_by_bus = {bus(d.get("pci_bus_id")): d for d in gw.get("devices", []) if d.get("vendor") == "nvidia"}
	xml_gpus = root.findall("gpu")
	t.exact("-", "NVIDIA GPU count", len(gw_by_bus), len(xml_gpus))
	for x in xml_gpus:
		b = bus(first(text(x, "pci/pci_bus_id"), x.get("id")))
		g = gw_by_bus.get(b)
		if g is None:
			t.add(b, "present in gpuwise", "no", "yes", "DIFF")
			continue
		compare_gpu(t, g, x, caps.get(b))
	t.print()
	print()
	print("%d fields compared, %d differ beyond tolerance" % (len(t.rows), t.failed))
	return 1 if t.failed else 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
