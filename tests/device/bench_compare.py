#!/usr/bin/env python3
"""Sets `gpuwise bench --json` beside PyTorch's figures (torch_bench.py) and
holds it to the targets of the bench issue.

    bench_compare.py GPUWISE_BENCH_JSON [TORCH_JSON]

Checks, each a FAIL row when missed (exit 1):
- plausible: no test failed, every measured value positive, every
  percent_of_spec between 1 and 150;
- on an H100 or H200 (the spec row's name): device-memory copy (the better
  of d2d-copy, gpuwise's kernel, and d2d-copy-ce, the copy engine) at least
  90 % of the datasheet's memory bandwidth;
- with torch's figures: that copy (against torch's copy_) and gemm-bf16 /
  -fp16 / -tf32 within 3 % of torch (gpuwise's best trial against torch's best trial; gemm-fp32 and
  a faster gpuwise are shown, never failed).
A missing or unusable TORCH_JSON skips the comparison and says so.
Standard library only.
"""
import json
import sys

DATASHEET_TARGET = 90.0      # percent of the datasheet, d2d-copy, H100/H200
TORCH_TOLERANCE = 0.03       # gpuwise within 3 % of torch
TORCH_CHECKED = ("gemm-bf16", "gemm-fp16", "gemm-tf32")


def human(v, unit):
	if v is None:
		return "-"
	if unit == "B/s":
		return "%.1f GB/s" % (v / 1e9)
	if unit == "FLOP/s":
		return "%.1f TFLOPS" % (v / 1e12)
	return "%.2f us" % (v * 1e6)


def plausibility(results):
	fails = []
	for r in results:
		v, p = r["value"], r["percent_of_spec"]
		if r["status"] == "failed":
			fails.append("%s failed: %s" % (r["test"], r["message"]))
		if r["status"] in ("ok", "low") and not (v is not None and v > 0):
			fails.append("%s measured no positive value" % r["test"])
		if p is not None and not 1 <= p <= 150:
			fails.append("%s at %.1f %% of spec is implausible" % (r["test"], p))
	return fails


D2D = ("d2d-copy", "d2d-copy-ce")   # gpuwise's kernel and the copy engine: the better one is held to the targets


def compare(gw, torch):
	"""(rows, fails): rows = (test, gpuwise, % of spec, torch best, ratio, verdict).
	Device-memory copy: the better of d2d-copy and d2d-copy-ce is held to the
	datasheet and to torch's copy_ (which may run either way)."""
	results = gw["results"]
	fails = plausibility(results)
	spec = gw["device"].get("spec_name") or ""
	hopper = spec.startswith(("H100", "H200"))
	tres = (torch or {}).get("results", {})
	rows = []
	d2d = [r for r in results if r["test"] in D2D and r["value"]]
	best_d2d = max(d2d, key=lambda r: r["value"]) if d2d else None
	for r in results:
		t, v, unit = r["test"], r["value"], r["unit"]
		pct = r["percent_of_spec"]
		verdict = []
		held = t not in D2D or r is best_d2d     # the d2d figure the targets apply to
		if t in D2D and pct is not None and hopper and held:
			if pct < DATASHEET_TARGET:
				verdict.append("FAIL: %.1f %% of datasheet < %.0f %%" % (pct, DATASHEET_TARGET))
				fails.append("%s at %.1f %% of the datasheet (target %.0f %% on %s)" % (t, pct, DATASHEET_TARGET, spec))
			else:
				verdict.append("datasheet ok")
		peer = tres.get("d2d-copy" if t in D2D else t) or {}
		best = peer.get("best")
		ratio = v / best if v and best else None
		if ratio is not None:
			if (t in TORCH_CHECKED or t in D2D) and held and ratio < 1 - TORCH_TOLERANCE:
				verdict.append("FAIL: %.1f %% below torch" % (100 * (1 - ratio)))
				fails.append("%s %.1f %% below torch (tolerance %.0f %%)" % (t, 100 * (1 - ratio), 100 * TORCH_TOLERANCE))
			elif (t in TORCH_CHECKED or t in D2D) and held:
				verdict.append("within %.0f %% of torch" % (100 * TORCH_TOLERANCE))
		elif peer.get("error"):
			verdict.append("torch: " + peer["error"])
		if t in D2D and not held:
			verdict.append("(the other d2d figure is held to the targets)")
		if r["status"] not in ("ok", "low"):
			verdict.append(r["status"] + (": " + r["message"] if r["message"] else ""))
		rows.append((t, human(v, unit), "%.1f %%" % pct if pct is not None else "-",
		             human(best, unit) if best else "-", "%.3f" % ratio if ratio is not None else "-",
		             "; ".join(verdict) or "-"))
	return rows, fails


def main(argv):
	if len(argv) not in (2, 3):
		print(__doc__, file=sys.stderr)
		return 2
	try:
		gw = json.load(open(argv[1]))
	except (OSError, ValueError) as e:
		print("bench: no gpuwise JSON (%s)" % e)
		return 1
	torch = None
	if len(argv) == 3:
		try:
			torch = json.load(open(argv[2]))
		except (OSError, ValueError) as e:
			print("torch: no figures (%s): comparison skipped" % e)
	dev = gw["device"]
	print("bench on %s (%s), CUDA device %s" % (dev["name"], dev["spec_name"] or "not in the spec table", dev["cuda_index"]))
	if torch:
		print("torch %s (CUDA %s) on %s, best of %s trials" % (torch["torch_version"], torch["cuda"],
		                                                       torch["device"]["name"], torch["repeats"]))
	rows, fails = compare(gw, torch)
	head = ("TEST", "GPUWISE", "% SPEC", "TORCH", "GW/TORCH", "VERDICT")
	width = [max(len(x[i]) for x in rows + [head]) for i in range(5)]
	for row in [head] + rows:
		print("  " + "  ".join(c.ljust(width[i]) for i, c in enumerate(row[:5])) + "  " + row[5])
	for f in fails:
		print("  FAIL: " + f)
	return 1 if fails else 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
