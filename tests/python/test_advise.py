"""gpuwise.advise(): the same document as `gpuwise advise --json` (one C
report writes both), models from the catalogue, a config.json, a folder, a
dict or a shape; targets from the spec table, a size, or this machine's GPUs
through the fake NVML; errors as gpuwise exceptions."""
import json
import os
import subprocess

from test_module import REPO, built_module, machine_json, run_py  # noqa: F401  (fixture)

GW = os.path.join(REPO, "build", "gpuwise")
WITH_MACHINE = os.path.join(REPO, "scripts", "with-machine")


def cli_json(machine, *args):
    cmd = [WITH_MACHINE, os.path.join(REPO, "build", "machines", machine), "--", GW, "advise", "--json", *args]
    # the command reads an active environment's torch/transformers releases for local GPUs; the module does not
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX")}
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    return json.loads(r.stdout)


def test_same_document_as_the_cli():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("llama-2-7b", task="lora", batch=4, seq=1024, gpu="RTX 4090"),
               gpuwise.advise("gpt2", seq=512),
               gpuwise.advise("llama-3-8b", task="infer", seq=4096, new_tokens=256, gpu="0"),
               gpuwise.advise("gpt2", seq=512, batch=8, memory="16GiB", hardware=True)]
    """)
    assert out[0] == cli_json("h100-8x", "llama-2-7b", "--task", "lora", "--batch", "4", "--seq", "1024",
                              "--gpu", "RTX 4090")
    assert out[1] == cli_json("h100-8x", "gpt2", "--seq", "512")
    assert out[2] == cli_json("h100-8x", "llama-3-8b", "--task", "infer", "--seq", "4096", "--new-tokens", "256",
                              "--gpu", "0")
    assert out[3] == cli_json("h100-8x", "gpt2", "--seq", "512", "--batch", "8", "--memory", "16GiB", "--hardware")
    assert len(out[3]["hardware"]) >= 15
    m = machine_json("h100-8x")["nvml"]["devices"]
    local = out[1]["targets"]
    assert len(local) == len(m) and all(t["source"] == "local" for t in local)
    assert local[0]["memory_bytes"] == m[0]["memory"]["total"] - m[0]["memory"]["reserved"]
    assert local[0]["compute_capability"] == "9.0"
    assert out[0]["model"]["params"] == 6738415616 and out[0]["per_gpu"]["trainable_params"] == 4194304


def test_spec_gpu_offers_what_cuda_can_allocate():
    out, _ = run_py("h100-8x", """
        from gpuwise import _gpuwise as C
        out = [C.gpu_spec("RTX 4090"), C.gpu_spec("A100-SXM4-40GB"),
               gpuwise.advise("llama-2-7b", task="lora", batch=1, seq=2150, gpu="RTX 4090"),
               gpuwise.advise("llama-2-7b", task="lora", batch=1, seq=2150, gpu="RTX 4090", memory="24GiB")]
    """)
    rtx, a100, run, given = out
    # data/gpu_specs.tsv: deviceQuery's total on driver 550.127.05 and nvidia-smi's Reserved 354 MiB.
    assert rtx["memory_bytes"] == 24 * 2**30 and rtx["usable_bytes"] == 25386352640, rtx
    assert rtx["reserved_bytes"] == 354 * 2**20, rtx
    assert a100["usable_bytes"] == a100["memory_bytes"] == 40 * 2**30 and a100["reserved_bytes"] == 0, a100
    t = run["targets"][0]
    assert rtx["usable_bytes"] < t["peak_device_bytes"] <= rtx["memory_bytes"], t   # between the two sizes
    assert t["memory_bytes"] == rtx["usable_bytes"] and t["fits"] is False, t
    assert given["targets"][0]["memory_bytes"] == 24 * 2**30 and given["targets"][0]["fits"] is True
    assert run == cli_json("h100-8x", "llama-2-7b", "--task", "lora", "--batch", "1", "--seq", "2150",
                           "--gpu", "RTX 4090")


def test_lora_targets():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("llama-2-7b", task="qlora", lora_targets="all-linear", memory="24GiB")]
        try:
            gpuwise.advise("llama-2-7b", task="lora", lora_targets="mlp-only", memory="24GiB")
        except gpuwise.InvalidArgumentError as e:
            out.append(str(e))
    """)
    assert out[0] == cli_json("h100-8x", "llama-2-7b", "--task", "qlora", "--lora-targets", "all-linear",
                              "--memory", "24GiB")
    assert out[0]["per_gpu"]["trainable_params"] == 19988480
    assert "qv attention all-linear all" in out[1]


def test_lm_head():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("bert-base-uncased", lm_head=True, batch=8, seq=512, memory="80GiB")]
        try:
            gpuwise.advise("gpt2", lm_head=True, memory="80GiB")
        except gpuwise.InvalidArgumentError as e:
            out.append(str(e))
    """)
    assert out[0] == cli_json("h100-8x", "bert-base-uncased", "--lm-head", "--batch", "8", "--seq", "512",
                              "--memory", "80GiB")
    assert out[0]["model"]["params"] == 109514298 and out[0]["model"]["lm_head"] is True
    assert "LM head" in out[1]


def test_decoder_seq():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("t5-base", batch=8, seq=512, decoder_seq=128, memory="40GiB")]
        try:
            gpuwise.advise("t5-base", decoder_seq=65536, memory="40GiB")
        except gpuwise.InvalidArgumentError as e:
            out.append(str(e))
    """)
    assert out[0] == cli_json("h100-8x", "t5-base", "--batch", "8", "--seq", "512", "--decoder-seq", "128",
                              "--memory", "40GiB")
    assert out[0]["options"]["decoder_seq"] == 128
    assert "65535" in out[1]


def test_transformers_and_loss_chunks():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("llama-2-7b", task="infer", precision="fp16", batch=2, seq=4096, new_tokens=2048,
                              transformers="4.44.2", memory="80GiB"),
               gpuwise.advise("llama-2-7b", task="lora", batch=4, seq=2048, loss_chunks=8, memory="80GiB")]
        for bad in ({"transformers": "4.x"}, {"transformers": 4.44}, {"loss_chunks": 70000}):
            try:
                gpuwise.advise("gpt2", memory="40GiB", **bad)
            except Exception as e:
                out.append([type(e).__name__, str(e)])
    """)
    assert out[0] == cli_json("h100-8x", "llama-2-7b", "--task", "infer", "--precision", "fp16", "--batch", "2",
                              "--seq", "4096", "--new-tokens", "2048", "--transformers", "4.44.2", "--memory", "80GiB")
    assert out[0]["options"]["transformers"] == "4.44"
    assert out[1] == cli_json("h100-8x", "llama-2-7b", "--task", "lora", "--batch", "4", "--seq", "2048",
                              "--loss-chunks", "8", "--memory", "80GiB")
    assert out[1]["options"]["loss_chunks"] == 8
    assert "transformers" in out[2][1] and out[3][0] == "TypeError" and "65536" in out[4][1], out[2:]


def test_autoawq_fused():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("llama-2-7b", task="infer", seq=128, new_tokens=64, weights="gptq4",
                              autoawq_fused=True, memory="24GiB")]
        try:
            gpuwise.advise("llama-2-7b", task="infer", autoawq_fused=True, memory="24GiB")
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    """)
    assert out[0] == cli_json("h100-8x", "llama-2-7b", "--task", "infer", "--seq", "128", "--new-tokens", "64",
                              "--weights", "gptq4", "--autoawq-fused", "--memory", "24GiB")
    assert out[0]["options"]["autoawq_fused"] is True
    assert "gptq4" in out[1][1], out[1]


def test_autoawq_release_and_plain_inference_loop():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("llama-3-8b", task="infer", seq=8192, new_tokens=4096, weights="gptq4",
                              autoawq_fused=True, autoawq="0.2.7", loop="plain", memory="24GiB")]
        try:
            gpuwise.advise("llama-3-8b", task="infer", weights="gptq4", autoawq_fused=True, autoawq="new",
                           memory="24GiB")
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    """)
    assert out[0] == cli_json("h100-8x", "llama-3-8b", "--task", "infer", "--seq", "8192", "--new-tokens", "4096",
                              "--weights", "gptq4", "--autoawq-fused", "--autoawq", "0.2.7", "--loop", "plain",
                              "--memory", "24GiB")
    assert out[0]["options"]["autoawq"] == "0.2.7" and out[0]["options"]["attention"] == "sdpa", out[0]["options"]
    assert out[0]["options"]["loop"] == "plain"
    assert "AutoAWQ version" in out[1][1], out[1]


def test_init_on_gpu():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("gpt2", task="infer", seq=3, new_tokens=1, precision="fp32", init_on_gpu=True,
                              memory="24GiB")]
    """)
    assert out[0] == cli_json("h100-8x", "gpt2", "--task", "infer", "--seq", "3", "--new-tokens", "1",
                              "--precision", "fp32", "--init-on-gpu", "--memory", "24GiB")
    assert out[0]["options"]["init_on_gpu"] is True


def test_offload_activations():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("llama-2-7b", task="lora", batch=4, seq=2048, checkpointing=True,
                              offload="optimizer", offload_activations=True, memory="80GiB")]
        try:
            gpuwise.advise("llama-2-7b", task="lora", offload_activations=True, memory="80GiB")
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    """)
    assert out[0] == cli_json("h100-8x", "llama-2-7b", "--task", "lora", "--batch", "4", "--seq", "2048",
                              "--checkpointing", "--offload", "optimizer,activations", "--memory", "80GiB")
    assert out[0]["options"]["offload_activations"] is True and out[0]["options"]["offload"] == "optimizer"
    assert "--checkpointing" in out[1][1], out[1]

def test_torch_version():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("bert-base-uncased", batch=8, seq=512, attention="eager", torch="1.7.1",
                              memory="40GiB"),
               gpuwise.advise("bert-base-uncased", batch=8, seq=512, attention="eager", memory="40GiB")]
        out.append(gpuwise.advise("llama-2-7b", task="qlora", bitsandbytes="0.42.0", memory="40GiB"))
        for bad in ("1.x", 1.7):
            try:
                gpuwise.advise("gpt2", torch=bad, memory="40GiB")
            except Exception as e:
                out.append([type(e).__name__, str(e)])
    """)
    assert out[0] == cli_json("h100-8x", "bert-base-uncased", "--batch", "8", "--seq", "512", "--attention",
                              "eager", "--torch", "1.7.1", "--memory", "40GiB")
    assert out[0]["options"]["torch"] == "1.7" and out[1]["options"]["torch"] is None
    # 12 layers x 8 x 12 heads x 512^2 scores, kept as the softmax's fp32 input before PyTorch 1.11
    # (the activations: allocated also differs by the gradients, which zero_grad() frees from 2.0 on)
    grew = (out[0]["per_gpu"]["breakdown"]["activations_bytes"] -
            out[1]["per_gpu"]["breakdown"]["activations_bytes"])
    assert grew == 12 * 8 * 12 * 512 * 512 * 4
    assert out[2]["options"]["bitsandbytes"] == "0.42.0"
    assert out[3][0] == "InvalidArgumentError" and "MAJOR.MINOR" in out[3][1]
    assert out[4][0] == "TypeError"



def test_training_loop():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("llama-2-7b", task="qlora", weights="nf4", batch=2, seq=512, bitsandbytes="0.42.0",
                              loop=loop, memory="80GiB") for loop in ("plain", "trainer")]
        for bad in ("fast", 1):
            try:
                gpuwise.advise("gpt2", loop=bad, memory="40GiB")
            except Exception as e:
                out.append([type(e).__name__, str(e)])
    """)
    assert out[0] == cli_json("h100-8x", "llama-2-7b", "--task", "qlora", "--weights", "nf4", "--batch", "2",
                              "--seq", "512", "--bitsandbytes", "0.42.0", "--loop", "plain", "--memory", "80GiB")
    assert out[0]["options"]["loop"] == "plain" and out[1]["options"]["loop"] == "trainer"
    assert out[0]["per_gpu"]["peak_allocated_bytes"] > out[1]["per_gpu"]["peak_allocated_bytes"]
    assert out[2][0] == "InvalidArgumentError" and "trainer plain" in out[2][1]
    assert out[3][0] == "TypeError"

def test_models_and_errors(tmp_path):
    cfg = {"model_type": "qwen2", "vocab_size": 151936, "hidden_size": 896, "intermediate_size": 4864,
           "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2,
           "tie_word_embeddings": True}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    (tmp_path / "bad.json").write_text('{"model_type": "llama", ')
    out, _ = run_py("h100-8x", """
        import gpuwise as g
        d = %r
        out = {"dict": g.advise(%r, memory="24GiB")["model"]["params"],
               "folder": g.advise(d, memory=24 << 30)["model"]["params"],
               "file": g.advise(os.path.join(d, "config.json"), memory="24GiB")["model"]["from"],
               "shape": g.advise(params=7_000_000_000, layers=32, hidden=4096, heads=32, vocab=32000,
                                 task="infer", memory="24GiB")["model"]["params"]}
        errs = []
        for call in (lambda: g.advise("nosuch"), lambda: g.advise(os.path.join(d, "bad.json")),
                     lambda: g.advise({"model_type": "phi3small"}), lambda: g.advise("gpt2", task="fly"),
                     lambda: g.advise("gpt2", batch=0), lambda: g.advise("gpt2", gpu="99"),
                     lambda: g.advise(params=5), lambda: g.advise("gpt2", bogus=1),
                     lambda: g.advise("gpt2", batch="4")):
            try:
                call()
                errs.append(None)
            except Exception as e:
                errs.append(type(e).__name__)
        out["errors"] = errs
    """ % (str(tmp_path), cfg))
    assert out["dict"] == 494032768 and out["folder"] == 494032768 and out["file"] == "config"
    assert out["shape"] == 7000000000
    assert out["errors"] == ["DeviceNotFoundError", "ParseError", "NotSupportedError", "InvalidArgumentError",
                             "InvalidArgumentError", "DeviceNotFoundError", "InvalidArgumentError", "TypeError",
                             "TypeError"]


def test_advise_vision_image():
    """image= sets a vision model's positions; the JSON reports the image and the model's own size."""
    out, _ = run_py("h100-8x", """
        import gpuwise as g
        a = g.advise("vit-base-patch16-224", image=384, batch=4, memory="24GiB")
        b = g.advise("resnet-50", batch=4, memory="24GiB", hardware=True)
        out = {"seq": a["options"]["seq"], "image": a["options"]["image"], "size": a["model"]["image_size"],
               "kind": a["model"]["kind"], "params": b["model"]["params"],
               "ips": b["hardware"][0]["samples_per_second"] > 0 and len(b["cloud"]) >= 30, "text_image": g.advise("gpt2", memory="24GiB")["options"]["image"]}
    """)
    assert out == {"seq": 577, "image": 384, "size": 224, "kind": "vision", "params": 25557032, "ips": True,
                   "text_image": None}


def test_no_zero_init():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("llama-3-8b", batch=1, seq=512, precision="fp16", gpus=8, strategy="zero3",
                              no_zero_init=True, memory="80GiB")]
        try:
            gpuwise.advise("llama-3-8b", no_zero_init=True, memory="80GiB")
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    """)
    assert out[0] == cli_json("h100-8x", "llama-3-8b", "--batch", "1", "--seq", "512", "--precision", "fp16",
                              "--gpus", "8", "--strategy", "zero3", "--no-zero-init", "--memory", "80GiB")
    assert out[0]["options"]["no_zero_init"] is True
    assert "zero3" in out[1][1], out[1]


def test_loss_sum():
    out, _ = run_py("h100-8x", """
        out = [gpuwise.advise("gpt2", batch=2, seq=512, precision="fp16", optimizer="sgd", loss="sum",
                              memory="80GiB")]
        try:
            gpuwise.advise("gpt2", loss="mse", memory="80GiB")
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    """)
    assert out[0] == cli_json("h100-8x", "gpt2", "--batch", "2", "--seq", "512", "--precision", "fp16",
                              "--optimizer", "sgd", "--loss", "sum", "--memory", "80GiB")
    assert out[0]["options"]["loss"] == "sum"
    assert "cross-entropy" in out[1][1], out[1]
