"""tests/device/bench_compare.py, the judge of the real-GPU bench check, on
`gpuwise bench --json` from the fake H100 and torch figures written here:
it must fail a copy under 90 % of an H100's datasheet, a figure more than
3 % below torch, a failed test, and pass what meets every target."""
import copy
import json
import os
import subprocess
import sys

import pytest

from conftest import GPUWISE, REPO, require_fake, with_machine

COMPARE = os.path.join(REPO, "tests", "device", "bench_compare.py")


@pytest.fixture(scope="module")
def gw_bench():
	require_fake()
	r = with_machine("h100-8x", [GPUWISE, "bench", "--json", "--quick", "-i", "4",
	                             "--tests", "d2d-copy,d2d-copy-ce,gemm-bf16,gemm-fp16,gemm-tf32,launch-latency"])
	assert r.returncode == 0, r.stderr
	return json.loads(r.stdout)


def judge(tmp_path, gw, torch=None):
	paths = [tmp_path / "gw.json"]
	paths[0].write_text(json.dumps(gw))
	if torch is not None:
		paths.append(tmp_path / "torch.json")
		paths[1].write_text(json.dumps(torch))
	r = subprocess.run([sys.executable, COMPARE] + [str(p) for p in paths], capture_output=True, text=True, timeout=60)
	return r.returncode, r.stdout


def torch_like(gw, factor):
	"""Torch figures at gpuwise's value / factor (factor 1.05: gpuwise 5 % faster)."""
	res = {r["test"]: {"best": r["value"] / factor, "median": r["value"] / factor / 1.01, "unit": r["unit"]}
	       for r in gw["results"] if r["test"] != "launch-latency"}
	return {"torch_version": "2.5.1", "cuda": "12.4", "device": {"cuda_index": 0, "name": "NVIDIA H100 80GB HBM3"},
	        "repeats": 7, "results": res}


def with_copy_at(gw, percent, test="d2d-copy", other=None):
	"""d2d-copy (or `test`) at `percent` of the datasheet; the other d2d
	figure at `other` percent (default: 10 points lower)."""
	g = copy.deepcopy(gw)
	for r in g["results"]:
		if r["test"] in ("d2d-copy", "d2d-copy-ce"):
			p = percent if r["test"] == test else (other if other is not None else percent - 10)
			r["value"] = r["spec"] * p / 100
			r["percent_of_spec"] = p
	return g


def test_fake_h100_copy_misses_the_datasheet_target(tmp_path, gw_bench):
	# The fake declares 2900 of 3350 GB/s (87 %) for both: under the 90 % target.
	rc, out = judge(tmp_path, gw_bench)
	assert rc == 1, out
	assert "FAIL: d2d-copy at 86.6 % of the datasheet (target 90 % on H100-SXM5-80GB)" in out


def test_the_better_device_copy_is_held_to_the_targets(tmp_path, gw_bench):
	gw = with_copy_at(gw_bench, 93.0, test="d2d-copy-ce", other=80.0)   # the copy engine does it
	rc, out = judge(tmp_path, gw, torch_like(gw, 0.99))
	assert rc == 0, out
	assert "(the other d2d figure is held to the targets)" in out


def test_meets_every_target(tmp_path, gw_bench):
	gw = with_copy_at(gw_bench, 93.0)
	rc, out = judge(tmp_path, gw, torch_like(gw, 0.99))   # gpuwise 1 % slower than torch
	assert rc == 0, out
	assert "within 3 % of torch" in out and "FAIL" not in out


def test_more_than_3_percent_below_torch_fails(tmp_path, gw_bench):
	gw = with_copy_at(gw_bench, 93.0)
	t = torch_like(gw, 1.0)
	t["results"]["gemm-bf16"]["best"] *= 1.05
	rc, out = judge(tmp_path, gw, t)
	assert rc == 1, out
	assert "FAIL: gemm-bf16 4.8 % below torch (tolerance 3 %)" in out
	assert "FAIL: d2d-copy" not in out


def test_not_an_h100_has_no_datasheet_target(tmp_path, gw_bench):
	gw = with_copy_at(gw_bench, 60.0)
	gw["device"]["spec_name"] = "L4"
	assert judge(tmp_path, gw)[0] == 0


def test_a_failed_test_or_an_implausible_figure_fails(tmp_path, gw_bench):
	gw = with_copy_at(gw_bench, 93.0)
	gw["results"][1]["status"] = "failed"
	gw["results"][1]["message"] = "cublasLtMatmul: CUBLAS_STATUS_EXECUTION_FAILED"
	rc, out = judge(tmp_path, gw)
	assert rc == 1 and "failed: cublasLtMatmul" in out, out
	gw = with_copy_at(gw_bench, 400.0)
	rc, out = judge(tmp_path, gw)
	assert rc == 1 and "implausible" in out, out


def test_unreadable_torch_figures_skip_the_comparison(tmp_path, gw_bench):
	gw = with_copy_at(gw_bench, 93.0)
	(tmp_path / "gw.json").write_text(json.dumps(gw))
	(tmp_path / "torch.json").write_text("{not json")
	r = subprocess.run([sys.executable, COMPARE, str(tmp_path / "gw.json"), str(tmp_path / "torch.json")],
	                   capture_output=True, text=True, timeout=60)
	assert r.returncode == 0 and "comparison skipped" in r.stdout, r.stdout
