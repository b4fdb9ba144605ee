#!/usr/bin/env python3
"""Measure the peak GPU memory of real training and inference runs (issue 11).

  python3 tests/device/advise_peaks.py OUT.jsonl [--runs FILE] [--only ID,...]
                                       [--workers N] [--budget SECONDS]

Reads bench/data/advise_device_runs.tsv (what each run is: model, task,
batch, sequence, precision, optimizer, checkpointing, LoRA, attention),
builds each model with Hugging Face transformers from the catalogue's
config.json values (data/models.tsv; random weights, nothing downloaded),
runs it on GPU 0 in a process of its own (a fresh CUDA context and caching
allocator each time) and writes one JSON line per run to OUT.jsonl:

  allocated_bytes   torch.cuda.max_memory_allocated()
  reserved_bytes    torch.cuda.max_memory_reserved()
  device_bytes      the process's own device memory (NVML's per-process
                    used memory at the end, plus any reserve the caching
                    allocator gave back before then); null when NVML cannot
                    tell processes apart
  context_bytes     the same NVML figure right after CUDA started (the
                    context with lazy loading, less the allocator's first
                    segment)

Training is three optimizer steps (the optimizer states appear in the first,
so the peak is reached by the second); inference is one forward pass under
inference_mode, or one generate() call of exactly new_tokens tokens.

Runs go side by side (--workers) while the sum of their "gib" column stays
under the GPU's free memory: each run's figures are its own process's, so
neighbours do not change them. No run is started once --budget seconds have
passed. Needs torch and transformers (peft for LoRA rows, bitsandbytes for
QLoRA rows); a row whose library is missing is written with its error, not
skipped silently.

QLoRA rows (task qlora, weights nf4 or nf4-dq) build the model in bf16 and
replace every linear map of the layers (not the LM head, as transformers'
bitsandbytes loader leaves it) with bitsandbytes' Linear4bit, which
quantises on the GPU; the caching allocator is then emptied, as loading a
quantised checkpoint leaves no bf16 copy behind. Under amp-bf16/amp-fp16
the model goes through PEFT's prepare_model_for_kbit_training (what TRL's
SFTTrainer does for a 4-bit model): the other parameters become fp32.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNS = os.path.join(ROOT, "bench", "data", "advise_device_runs.tsv")
MODELS = os.path.join(ROOT, "data", "models.tsv")
DECODERS = ("llama", "mistral", "qwen2", "gemma", "gpt2")
ENCODERS = ("bert", "roberta")
SEQ2SEQ = ("t5", "mt5")
VISION = ("vit", "deit", "swin", "resnet")
DEV = "cuda"  # --smoke runs every row shrunk on the CPU, to check this script without a GPU
LORA_TARGETS = {  # --lora-targets -> the module names PEFT matches, per family
    "qv": {"llama": ["q_proj", "v_proj"], "gpt2": ["c_attn"], "bert": ["query", "value"], "t5": ["q", "v"]},
    "attention": {"llama": ["q_proj", "k_proj", "v_proj", "o_proj"], "gpt2": ["c_attn", "c_proj"],
                  "bert": ["query", "key", "value", "attention.output.dense"], "t5": ["q", "k", "v", "o"]},
    "all-linear": {"llama": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]},
}


def read_tsv(path):
    rows, header = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if header is None:
                header = cells
            else:
                rows.append(dict(zip(header, cells)))
    return rows


def catalogue_config(name):
    """The config.json values of a catalogue model, or of NAME.json under bench/data/."""
    if name.endswith(".json"):
        with open(os.path.join(ROOT, "bench", "data", name), encoding="utf-8") as f:
            return json.load(f)
    for row in read_tsv(MODELS):
        if row["name"] == name:
            return json.loads(row["config"])
    raise SystemExit("model %s is not in %s" % (name, MODELS))


# ---------------------------------------------------------------- one run (child)

def nvml_process_bytes(pid):
    """This process's device memory on any GPU as NVML reports it, or None."""
    try:
        import pynvml
        pynvml.nvmlInit()
        total = None
        for i in range(pynvml.nvmlDeviceGetCount()):
            h = pynvml.nvmlDeviceGetHandleByIndex(i)
            for p in pynvml.nvmlDeviceGetComputeRunningProcesses(h):
                if p.pid == pid and p.usedGpuMemory is not None:
                    total = (total or 0) + int(p.usedGpuMemory)
        return total
    except Exception:
        return None


def family(model_type):
    if model_type in ("llama", "mistral", "qwen2", "gemma"):
        return "llama"
    if model_type in ENCODERS:
        return "bert"
    if model_type in SEQ2SEQ:
        return "t5"
    return model_type


def build_model(run, cfg, dtype, torch):
    import transformers as tf
    mt = cfg["model_type"]
    if mt in SEQ2SEQ:  # what every published T5 config.json has and the catalogue leaves out
        cfg = dict({"decoder_start_token_id": 0, "pad_token_id": 0, "eos_token_id": 1}, **cfg)
    config = tf.AutoConfig.for_model(**cfg)
    for k, v in cfg.items():  # transformers 5.x's for_model can drop some (T5's tie_word_embeddings)
        if getattr(config, k, None) != v:
            setattr(config, k, v)
    kw = {}
    if mt not in ("resnet",):
        kw["attn_implementation"] = run["attention"]
    if mt in DECODERS:
        cls = tf.AutoModelForCausalLM
        config.use_cache = run["task"] == "infer"
    elif mt in ENCODERS:
        cls = tf.AutoModelForMaskedLM if run["head"] == "lm" else tf.AutoModelForSequenceClassification
    elif mt in SEQ2SEQ:
        cls = tf.AutoModelForSeq2SeqLM
        config.use_cache = run["task"] == "infer"
    elif mt in VISION:
        cls = tf.AutoModelForImageClassification
    else:
        raise ValueError("no model class for model_type %s" % mt)
    with torch.device(DEV):
        try:
            model = cls.from_config(config, dtype=dtype, **kw)
        except TypeError:  # transformers before 4.56 names it torch_dtype
            model = cls.from_config(config, torch_dtype=dtype, **kw)
    if mt in SEQ2SEQ and not config.tie_word_embeddings:
        # 5.x ties the stacks' embeddings to `shared` only when the head is tied; the published
        # untied models (Flan-T5, mT5) still share one embedding between encoder and decoder
        model.encoder.embed_tokens = model.shared
        model.decoder.embed_tokens = model.shared
    return model.to(device=DEV, dtype=dtype)


def make_inputs(run, cfg, torch, dtype):
    mt = cfg["model_type"]
    b, s = int(run["batch"]), int(run["seq"])
    new = int(run["new_tokens"])
    if mt in VISION:
        x = torch.randn(b, cfg.get("num_channels", 3), s, s, device=DEV, dtype=dtype)
        return {"pixel_values": x, "labels": torch.randint(0, cfg.get("num_labels", 1000), (b,), device=DEV)}
    vocab = cfg.get("vocab_size", 32000)
    # a decoder's seq holds the generated tokens; an encoder-decoder's is its input alone
    prompt = s - new if run["task"] == "infer" and mt in DECODERS else s
    ids = torch.randint(5, vocab, (b, prompt), device=DEV)
    inputs = {"input_ids": ids, "attention_mask": torch.ones_like(ids)}
    if run["task"] == "infer":
        return inputs
    if mt in DECODERS:
        inputs["labels"] = ids
    elif mt in SEQ2SEQ:
        t = int(run["decoder_seq"]) if run["decoder_seq"] not in ("-", "0") else s
        inputs["labels"] = torch.randint(5, vocab, (b, t), device=DEV)
    elif run["head"] == "lm":  # masked LM: 15 % of tokens carry a label
        labels = ids.clone()
        labels[torch.rand(labels.shape, device=DEV) > 0.15] = -100
        inputs["labels"] = labels
    else:
        inputs["labels"] = torch.randint(0, 2, (b,), device=DEV)
    return inputs


def make_optimizer(name, params, torch):
    if name == "adamw":
        return torch.optim.AdamW(params, lr=1e-5)
    if name == "adamw-fused":
        return torch.optim.AdamW(params, lr=1e-5, fused=True)
    if name == "adam":
        return torch.optim.Adam(params, lr=1e-5)
    if name == "sgd":
        return torch.optim.SGD(params, lr=1e-3)
    if name == "sgd-momentum":
        return torch.optim.SGD(params, lr=1e-3, momentum=0.9)
    if name == "adafactor":
        from transformers.optimization import Adafactor
        return Adafactor(params, lr=1e-3, relative_step=False, scale_parameter=False, warmup_init=False)
    raise ValueError("optimizer %s is not measured here" % name)


def apply_lora(model, run, cfg):
    from peft import LoraConfig, get_peft_model
    fam = family(cfg["model_type"])
    targets = LORA_TARGETS[run["lora_targets"]][fam]
    r = int(run["lora_rank"])
    return get_peft_model(model, LoraConfig(r=r, lora_alpha=2 * r, lora_dropout=0.05, target_modules=targets))


def quantize_4bit(model, weights, compute_dtype, torch):
    """QLoRA: the layers' nn.Linear maps as bitsandbytes Linear4bit (NF4; nf4-dq
    also quantises the absmax, bitsandbytes' compress_statistics), built from
    the bf16 weights and quantised when moved to the device."""
    import bitsandbytes as bnb
    dq = weights == "nf4-dq"

    def swap(module):
        for name, child in list(module.named_children()):
            if isinstance(child, torch.nn.Linear):
                q = bnb.nn.Linear4bit(child.in_features, child.out_features, bias=child.bias is not None,
                                      compute_dtype=compute_dtype, quant_type="nf4", compress_statistics=dq,
                                      device="meta")
                q.weight = bnb.nn.Params4bit(child.weight.data, requires_grad=False, quant_type="nf4",
                                             compress_statistics=dq)
                if child.bias is not None:
                    q.bias = torch.nn.Parameter(child.bias.data, requires_grad=False)
                setattr(module, name, q.to(DEV))
                del child
            else:
                swap(child)
    body = getattr(model, "model", None) or getattr(model, "transformer", None) or model
    swap(body)
    model.is_loaded_in_4bit = True  # what PEFT's prepare_model_for_kbit_training looks for
    return model


def shrink(run, cfg):
    """--smoke: one layer per stack, one sample, short sequences (the code paths, not the sizes)."""
    for k in ("num_hidden_layers", "n_layer", "num_layers", "num_decoder_layers"):
        if k in cfg:
            cfg[k] = 1
    if "depths" in cfg:
        cfg["depths"] = [1] * len(cfg["depths"])
    for k in ("hidden_size", "intermediate_size", "n_embd", "d_model", "d_ff"):
        if k in cfg and cfg["model_type"] not in VISION:
            cfg[k] = min(cfg[k], 256 if k != "d_ff" and k != "intermediate_size" else 512)
    if "vocab_size" in cfg:
        cfg["vocab_size"] = min(cfg["vocab_size"], 1000)
    if cfg["model_type"] in ("llama", "mistral", "qwen2", "gemma"):
        cfg["num_attention_heads"], cfg["num_key_value_heads"] = 4, 2
        cfg.pop("head_dim", None)
    if cfg["model_type"] in ("gpt2", "bert", "roberta"):
        cfg["n_head" if cfg["model_type"] == "gpt2" else "num_attention_heads"] = 4
    run = dict(run, batch="1")
    if cfg["model_type"] not in VISION:
        new = min(int(run["new_tokens"]), 4)
        run.update(seq=str(32 + new), new_tokens=str(new))
        if run["decoder_seq"] not in ("-", "0"):
            run["decoder_seq"] = "16"
    return run, cfg


def run_one(run):
    import torch
    cuda = DEV == "cuda"
    context = None
    if cuda:
        torch.cuda.init()
        torch.empty(1, device=DEV)
        torch.cuda.synchronize()
        context = nvml_process_bytes(os.getpid())
        if context is not None:
            context -= torch.cuda.memory_reserved()
    cfg = catalogue_config(run["model"])
    if not cuda:
        run, cfg = shrink(run, cfg)
    prec, task = run["precision"], run["task"]
    torch.backends.cuda.matmul.allow_tf32 = prec == "tf32"
    torch.backends.cudnn.allow_tf32 = prec == "tf32"
    half = {"bf16": torch.bfloat16, "fp16": torch.float16}
    weights = run["weights"] if run["weights"] != "-" else prec
    amp = {"amp-bf16": torch.bfloat16, "amp-fp16": torch.float16}.get(prec)
    if task == "qlora":
        dtype = torch.bfloat16
        model = quantize_4bit(build_model(run, cfg, dtype, torch), weights, amp or half.get(prec, dtype), torch)
        if amp is not None:
            from peft import prepare_model_for_kbit_training
            model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=run["checkpointing"] == "1",
                                                    gradient_checkpointing_kwargs={"use_reentrant": False})
        if cuda:
            torch.cuda.empty_cache()
    else:
        dtype = half.get(weights, torch.float32)
        model = build_model(run, cfg, dtype, torch)
    inputs = make_inputs(run, cfg, torch, dtype if cfg["model_type"] in VISION else None)
    reserved_built = reserved_clean = alloc_start = None
    if cuda:
        torch.cuda.synchronize()
        # What building the model left in the caching allocator (random
        # init frees temporaries there); GPUWISE_ADVISE_EMPTY_CACHE=1 gives
        # it back first, as a model loaded from a checkpoint would not have it.
        reserved_built = torch.cuda.memory_reserved()
        if os.environ.get("GPUWISE_ADVISE_EMPTY_CACHE") == "1":
            torch.cuda.empty_cache()
        reserved_clean, alloc_start = torch.cuda.memory_reserved(), torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
    if task == "infer":
        model.eval()
        new = int(run["new_tokens"])
        with torch.inference_mode():
            if new > 0:
                model.generate(**inputs, max_new_tokens=new, min_new_tokens=new, do_sample=False,
                               eos_token_id=None, pad_token_id=0)
            else:
                model(**inputs)
    else:
        if task in ("lora", "qlora"):
            model = apply_lora(model, run, cfg)
        if run["checkpointing"] == "1":
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.train()
        opt = make_optimizer(run["optimizer"], [p for p in model.parameters() if p.requires_grad], torch)
        scaler = torch.amp.GradScaler(DEV, enabled=amp is torch.float16 and cuda)
        for _ in range(3):
            with torch.autocast(DEV, dtype=amp or torch.float32, enabled=amp is not None):
                loss = model(**inputs).loss
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            opt.zero_grad(set_to_none=True)
    params = sum(p.numel() for p in model.parameters())
    if not cuda:
        return {"allocated_bytes": 0, "reserved_bytes": 0, "device_bytes": None, "context_bytes": None,
                "params": params}
    torch.cuda.synchronize()
    peak_alloc, peak_res = torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved()
    now = nvml_process_bytes(os.getpid())
    device = None if now is None else now + (peak_res - torch.cuda.memory_reserved())
    return {"allocated_bytes": peak_alloc, "reserved_bytes": peak_res, "device_bytes": device,
            "context_bytes": context, "params": params, "reserved_after_build_bytes": reserved_built,
            "reserved_at_start_bytes": reserved_clean, "allocated_at_start_bytes": alloc_start}


def child(run_id, runs_path, smoke):
    global DEV
    if smoke:
        DEV = "cpu"
    run = next(r for r in read_tsv(runs_path) if r["id"] == run_id)
    t0 = time.time()
    try:
        result = run_one(run)
        result["ok"] = True
    except Exception as e:  # an OOM or a library gap is a result too
        result = {"ok": False, "error": "%s: %s" % (type(e).__name__, str(e)[:400])}
    result.update(id=run_id, seconds=round(time.time() - t0, 1))
    print("RESULT " + json.dumps(result), flush=True)


# ---------------------------------------------------------------- scheduler (parent)

def environment():
    env = {"python": sys.version.split()[0]}
    for mod in ("torch", "transformers", "peft", "bitsandbytes"):
        try:
            env[mod] = __import__(mod).__version__
        except Exception as e:
            env[mod] = "missing (%s)" % type(e).__name__
    try:
        import torch
        if DEV != "cuda":
            raise RuntimeError("--smoke: on the CPU")
        env["gpu"] = torch.cuda.get_device_name(0)
        env["cuda"] = torch.version.cuda
        free, total = torch.cuda.mem_get_info(0)
        env["free_bytes"], env["total_bytes"] = free, total
    except Exception as e:
        env["gpu"] = "none (%s)" % e
    try:
        import pynvml
        pynvml.nvmlInit()
        env["driver"] = pynvml.nvmlSystemGetDriverVersion()
    except Exception:
        pass
    return env


def schedule(args):
    runs = read_tsv(args.runs)
    if args.only:
        wanted = set(args.only.split(","))
        runs = [r for r in runs if r["id"] in wanted]
    env = environment()
    free_gib = env.get("free_bytes", 0) / 2**30 * 0.92 if not args.smoke else 1e9
    t0 = time.time()
    pending = sorted(runs, key=lambda r: -int(r.get("gib", "1")))  # big ones first, small ones fill gaps
    running = {}  # Popen -> (run, start)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(json.dumps({"environment": env}) + "\n")
        out.flush()
        print("advise_peaks: %d runs on %s, torch %s, transformers %s" %
              (len(runs), env.get("gpu"), env.get("torch"), env.get("transformers")), flush=True)
        while pending or running:
            used = sum(int(r.get("gib", "1")) for r, _ in running.values())
            started = False
            if time.time() - t0 < args.budget:
                for r in list(pending):
                    if len(running) < args.workers and (not running or used + int(r.get("gib", "1")) <= free_gib):
                        p = subprocess.Popen([sys.executable, __file__, "--child", r["id"], "--runs", args.runs]
                                             + (["--smoke"] if args.smoke else []),
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                        running[p] = (r, time.time())
                        pending.remove(r)
                        used += int(r.get("gib", "1"))
                        started = True
            elif pending:
                for r in pending:
                    out.write(json.dumps({"id": r["id"], "ok": False, "error": "not started: budget spent"}) + "\n")
                pending = []
            for p in list(running):
                r, start = running[p]
                if p.poll() is None and time.time() - start > args.run_timeout:
                    p.kill()
                if p.poll() is None:
                    continue
                so, se = p.communicate()
                line = next((l[7:] for l in so.splitlines() if l.startswith("RESULT ")), None)
                res = json.loads(line) if line else {"id": r["id"], "ok": False,
                                                     "error": "exit %s: %s" % (p.returncode, se.strip()[-400:])}
                out.write(json.dumps(res) + "\n")
                out.flush()
                print("  %-40s %s" % (r["id"], ("alloc %.2f GiB, reserved %.2f GiB, %ss" % (
                    res["allocated_bytes"] / 2**30, res["reserved_bytes"] / 2**30, res["seconds"]))
                    if res.get("ok") else "FAILED " + res.get("error", "")[:200]), flush=True)
                del running[p]
            if not started:
                time.sleep(0.2)
    print("advise_peaks: done in %.0f s, results in %s" % (time.time() - t0, args.out), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", help="where the JSON lines go")
    ap.add_argument("--runs", default=RUNS)
    ap.add_argument("--only", help="comma-separated run ids")
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--budget", type=float, default=300, help="start no run after this many seconds")
    ap.add_argument("--run-timeout", type=float, default=180)
    ap.add_argument("--smoke", action="store_true", help="every row shrunk to one layer, on the CPU (checks the script)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args.child, args.runs, args.smoke)
    if args.smoke:
        global DEV
        DEV = "cpu"
    if not args.out:
        ap.error("name the output file")
    schedule(args)


if __name__ == "__main__":
    main()
