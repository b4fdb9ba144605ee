"""bench/advise_accuracy.py: the published-measurement corpus stays well formed
(sources, units, the fixed held-out rule) and `gpuwise advise` does not get
worse on its tuned rows than the bound recorded in
bench/data/advise_accuracy_bounds.json."""
import json
import os

import pytest
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(REPO, "bench", "advise_accuracy.py")
sys.path.insert(0, os.path.join(REPO, "bench"))
import advise_accuracy as aa  # noqa: E402


def run(*args):
    return subprocess.run([sys.executable, BENCH, *args], capture_output=True, text=True, timeout=600)


def test_corpus_is_sourced_and_split_by_the_rule():
    rows = aa.read_corpus()
    assert len(rows) >= 40
    ids = [r["id"] for r in rows]
    held = [r for r in rows if not r["set"].startswith("tuned")]
    assert len(held) * 3 >= len(rows), "at least a third held out"
    new = [r for r in rows if r["id"].startswith(aa.ROUND2)]
    assert new and sum(r["set"] == "held-out-2" for r in new) * 3 >= len(new), "round 2 holds out a third of its own"
    r4 = [r for r in rows if r["id"].startswith(aa.ROUND4)]
    assert len(r4) >= 40 and sum(r["set"] == "held-out-4" for r in r4) == (len(r4) + 1) // 2, "round 4: half"
    assert {r["set"] for r in r4} == {"tuned-4", "held-out-4"}
    r6 = [r for r in rows if r["id"].startswith(aa.ROUND6)]
    assert sum(r["set"] == "held-out-6" for r in r6) == (len(r6) + 1) // 2, "round 6: half"
    for r in rows:   # an NVML v1 reading needs the reserve of its GPU
        assert r["measured"] != "nvml-used" or r["gpu"] in aa.DRIVER_RESERVED_MIB, r["id"]
    for r in rows:
        assert r["source"].startswith("https://"), r["id"]
        assert r["measured"] in aa.KINDS and r["unit"] in aa.UNITS, r["id"]
        assert float(r["value"]) > 0 and r["setup"], r["id"]
        assert r["set"] == aa.expected_set(r["id"], ids)
        if not r["id"].startswith((aa.ROUND2, aa.ROUND4, aa.ROUND6)):   # round 1's rule is unchanged
            assert r["set"] == ("held-out" if aa.held_out(r["id"]) else "tuned")


@pytest.mark.parametrize("n,prefix,name,least", [(11, "h11-", "tuned-11", 20),
                                                  (12, "h12-", "tuned-12", 20),
                                                  (13, "h13-", "tuned-13", 20),
                                                  (14, "h14-", "tuned-14", 20),
                                                  (15, "h15-", "tuned-15", 3),
                                                  (17, "h17-", "tuned-17", 30),
                                                  (18, "h18-", "tuned-18", 20),
                                                  (20, "h20-", "tuned-20", 10),
                                                  (22, "h22-", "tuned-22", 3),
                                                  (23, "h23-", "held-out-23", 7)])
def test_held_round_is_sourced_and_held_out_whole(n, prefix, name, least):
    """Rounds 11 to 22 (bench/data/advise_peaks_NN.tsv): every row sourced,
    new ids, one set for the whole file (each held out until its one
    scoring, tuning data since), models gpuwise can
    read; no gpuwise run here. Round 15 is small: its search found few
    sources that state a whole vision or mixture-of-experts set-up."""
    rows = aa.read_round(n)
    assert len(rows) >= least
    old = {r["id"] for r in aa.read_corpus()}
    for r in rows:
        assert r["id"].startswith(prefix) and r["id"] not in old, r["id"]
        assert r["set"] == name and r["source"].startswith("https://"), r["id"]
        assert r["measured"] in aa.KINDS and r["unit"] in aa.UNITS and float(r["value"]) > 0, r["id"]
        assert r["setup"], r["id"]
        if r["model"].endswith(".json"):
            assert os.path.exists(os.path.join(aa.DATA, r["model"])), r["model"]


def test_own_measurements_are_split_by_the_rule():
    """Rounds 7-9 (tests/device/advise_peaks.py on an H200): three rows a
    measured run, each set as the runs file fixed it before measuring."""
    rows = aa.read_device()
    assert len(rows) >= 90
    assert len({r["id"] for r in rows}) == len(rows)
    runs = {r["id"] for r in aa.read_tsv(aa.DEVICE_RUNS)}
    for r in rows:
        run = r["id"].rsplit("/", 1)[0]
        assert run in runs and r["measured"] in ("allocated", "reserved", "device"), r["id"]
        assert float(r["value"]) > 0 and r["unit"] == "B" and r["gpu"] == aa.DEVICE_GPU
        want = {"d-": ("tuned-7", "held-out-7"), "e-": ("held-out-8",), "f-": ("tuned-9", "held-out-9"),
                "g-": ("tuned-10", "held-out-10")}[r["id"][:2]]
        assert r["set"] in want, r["id"]
    for prefix in (aa.ROUND7, aa.ROUND9, aa.ROUND10):
        if not any(i.startswith(prefix) for i in runs):
            continue
        ids = [i for i in runs if i.startswith(prefix)]
        held = {r["id"].rsplit("/", 1)[0] for r in rows if r["id"].startswith(prefix) and r["set"].startswith("held")}
        assert held <= aa.smallest_half(ids, prefix) and len(aa.smallest_half(ids, prefix)) == (len(ids) + 1) // 2


def test_a_row_moved_to_the_other_set_is_refused(tmp_path):
    text = open(aa.CORPUS, encoding="utf-8").read()
    bad = tmp_path / "peaks.tsv"
    first = next(line for line in text.splitlines() if line.startswith("hf-bert-large-b4-fp32\t"))
    flipped = first.rsplit("\t", 1)[0] + "\t" + ("tuned" if first.endswith("held-out") else "held-out")
    bad.write_text(text.replace(first, flipped))
    r = run("--corpus", str(bad))
    assert r.returncode != 0 and "the rule says" in (r.stderr + r.stdout)


def test_tuned_set_within_the_recorded_bound(tmp_path):
    r = run("--check", "--json")
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert not any(k.startswith("held_out") for k in res), "held-out sets are scored only with --final"
    assert res["tuned"]["n"] >= 20 and res["tuned_4"]["n"] >= 20 and res["tuned_7"]["n"] >= 50
    # The check bites: a bound tighter than today's score fails.
    tight = tmp_path / "bounds.json"
    loose = {"tuned_median_abs_pct": 1000, "tuned_p90_abs_pct": 1000, "tuned_within15_min_pct": 0,
             "tuned_4_median_abs_pct": 1000, "tuned_4_p90_abs_pct": 1000, "tuned_4_within15_min_pct": 0}
    tight.write_text(json.dumps(dict(loose, tuned_median_abs_pct=res["tuned"]["median"] / 2)))
    r = run("--check", "--json", "--bounds", str(tight))
    assert r.returncode == 1 and "regressed" in r.stderr
    tight.write_text(json.dumps(dict(loose, tuned_4_within15_min_pct=res["tuned_4"]["within15"] + 1)))
    r = run("--check", "--json", "--bounds", str(tight))
    assert r.returncode == 1 and "tuned_4" in r.stderr


def test_zero_on_one_gpu_keeps_its_strategy():
    """DeepSpeed's ZeRO on one GPU (round 14's Qwen1.5-0.5B rows) still
    keeps fp32 master weights and its gradient bucket: the row's strategy
    goes to advise even with --gpus 1; DDP on one GPU adds nothing."""
    row = next(r for r in aa.read_round(14) if r["gpus"] == "1" and r["strategy"] == "zero3")
    args = aa.advise_args(row)
    assert args[args.index("--strategy") + 1] == "zero3" and "--gpus" not in args
    ddp = dict(row, strategy="ddp")
    assert "--strategy" not in aa.advise_args(ddp)


def test_autoawq_rows_pass_the_benchmark_loop_and_release():
    """Every AutoAWQ fused row ran examples/benchmark.py, whose own prompt
    forward computes every position's logits (--loop plain); PR #656's rows
    ran main at 419a242, AutoAWQ 0.2.7's code (--autoawq 0.2.7); the older
    threads and the README ran earlier code (no --autoawq)."""
    rows = [r for n in aa.WHOLE_ROUNDS for r in aa.read_round(n) if r.get("autoawq", "-") == "fused"]
    assert len(rows) >= 50
    for r in rows:
        args = aa.advise_args(r)
        assert args[args.index("--loop") + 1] == "plain", r["id"]
        if r["source"].endswith("/AutoAWQ/pull/656"):
            assert args[args.index("--autoawq") + 1] == "0.2.7", r["id"]
        else:
            assert "--autoawq" not in args, r["id"]
    other = [r for r in aa.read_round(12) if r["task"] == "infer"]
    assert other and all("--loop" not in aa.advise_args(r) for r in other)


def test_optimum_benchmark_hub_rows_are_built_on_the_gpu():
    """Round 18's transformers rows (random weights: optimum-benchmark's
    no_weights, built under torch.device) pass --init-on-gpu; its timm
    ResNet-50 rows (pretrained weights) and every other round's rows do not."""
    r18 = aa.read_round(18)
    for r in r18:
        want = "random weights" in r["setup"]
        assert ("--init-on-gpu" in aa.advise_args(r)) == want, r["id"]
    assert sum("--init-on-gpu" in aa.advise_args(r) for r in r18) >= 16
    rest = aa.read_corpus() + [r for n in aa.WHOLE_ROUNDS if n != 18 for r in aa.read_round(n)]
    assert not any(aa.built_on_gpu(r) for r in rest)
