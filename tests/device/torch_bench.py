#!/usr/bin/env python3
"""The peer figures for `gpuwise bench`, measured with PyTorch on the same GPU.

    torch_bench.py [--device N] [--quick]     prints one JSON object

Measures what gpuwise bench measures, the way a PyTorch user would, so the
two can be set side by side in one run (tests/device/bench.sh):

- d2d-copy: `dst.copy_(src)` between two 256 MiB device tensors (32 MiB
  with --quick), bytes read + written (2x the buffer), as gpuwise's d2d-copy
  and bandwidthTest count;
- gemm-fp32 / -tf32 / -fp16 / -bf16: `torch.matmul` of two square n x n
  matrices (n = 8192, 4096 with --quick: gpuwise's sizes), 2 n^3 FLOP per
  product; fp32 with TF32 off, tf32 = fp32 tensors with
  torch.backends.cuda.matmul.allow_tf32 on.

Each figure: one warm-up, then REPEATS timed trials of as many operations as
fill about 20 ms, timed with CUDA events; the median trial is reported (and
the best, since gpuwise reports its best trial). Standard library + torch;
needs no network. Exit 2 when torch or a CUDA GPU is missing.
"""
import argparse
import json
import statistics
import sys

REPEATS = 7


def timed(torch, fn, target_ms=20.0):
	"""(median, best) seconds per call of fn, CUDA events around each trial."""
	fn()
	torch.cuda.synchronize()
	start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
	start.record()
	fn()
	end.record()
	end.synchronize()
	one = max(start.elapsed_time(end), 1e-3)
	calls = max(1, int(target_ms / one))
	per_call = []
	for _ in range(REPEATS):
		start.record()
		for _ in range(calls):
			fn()
		end.record()
		end.synchronize()
		per_call.append(start.elapsed_time(end) / 1e3 / calls)
	return statistics.median(per_call), min(per_call)


def copy_bandwidth(torch, dev, nbytes):
	src = torch.empty(nbytes, dtype=torch.uint8, device=dev).fill_(7)
	dst = torch.empty_like(src)
	med, best = timed(torch, lambda: dst.copy_(src))
	if not torch.equal(src[:4096], dst[:4096]):
		raise RuntimeError("the copy moved the wrong bytes")
	return {"median": 2 * nbytes / med, "best": 2 * nbytes / best, "unit": "B/s", "bytes": 2 * nbytes}


def gemm(torch, dev, dtype_name, n):
	dtype = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[dtype_name]
	torch.backends.cuda.matmul.allow_tf32 = dtype_name == "tf32"
	a = torch.randn(n, n, device=dev, dtype=dtype)
	b = torch.randn(n, n, device=dev, dtype=dtype)
	c = torch.empty(n, n, device=dev, dtype=dtype)
	med, best = timed(torch, lambda: torch.matmul(a, b, out=c))
	flop = 2.0 * n ** 3
	return {"median": flop / med, "best": flop / best, "unit": "FLOP/s", "n": n}


def main():
	ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
	ap.add_argument("--device", type=int, default=0, help="CUDA device index (default 0)")
	ap.add_argument("--quick", action="store_true", help="gpuwise bench --quick's sizes")
	args = ap.parse_args()
	try:
		import torch
	except ImportError as e:
		print("torch_bench: PyTorch is not installed: %s" % e, file=sys.stderr)
		return 2
	if not torch.cuda.is_available():
		print("torch_bench: torch.cuda.is_available() is False", file=sys.stderr)
		return 2
	dev = torch.device("cuda", args.device)
	torch.cuda.set_device(dev)
	out = {"torch_version": torch.__version__, "cuda": torch.version.cuda,
	       "device": {"cuda_index": args.device, "name": torch.cuda.get_device_name(dev)},
	       "repeats": REPEATS, "results": {}}
	res = out["results"]
	res["d2d-copy"] = copy_bandwidth(torch, dev, (32 if args.quick else 256) << 20)
	for name in ("fp32", "tf32", "fp16", "bf16"):
		try:
			res["gemm-" + name] = gemm(torch, dev, name, 4096 if args.quick else 8192)
		except RuntimeError as e:   # out of memory on a small GPU, a dtype it lacks
			res["gemm-" + name] = {"error": str(e).splitlines()[0]}
	torch.backends.cuda.matmul.allow_tf32 = False
	json.dump(out, sys.stdout, indent=1)
	print()
	return 0


if __name__ == "__main__":
	sys.exit(main())
