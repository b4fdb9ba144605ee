#!/usr/bin/env python3
"""Trace what a decoder's training forward pass keeps for backward, on the CPU.

  python3 tests/device/trace_activations.py CONFIG.json [--layers N]
          [--batch B] [--seq S] [--precision fp32|amp-bf16]
          [--attention default|eager|sdpa] [--dump LAYER] [--json]

Builds the model of a Hugging Face config.json with transformers
(AutoConfig.for_model, AutoModelForCausalLM.from_config: random weights,
nothing downloaded) with num_hidden_layers set to --layers, runs one
training forward pass (model.train(), use_cache off,
loss = model(input_ids, labels=input_ids).loss; with --precision amp-bf16
inside torch.autocast("cpu", dtype=torch.bfloat16)) and prints the bytes of
the storages still alive when the forward pass has returned: what autograd
keeps for backward, plus the returned logits and loss.

Every storage an operator creates is recorded (a TorchDispatchMode; a
weakref.finalize on the untyped storage takes it off when it is freed),
with its shape, dtype, the operator and the module that ran it.
Parameters exist before the pass and are not counted; autocast's
half-precision copies of parameters (aten._to_copy of a parameter or a view of one) are
counted apart, as weight_cast_bytes (gpuwise counts them with the
weights, not the activations). Two things the CPU keeps that CUDA does
not are counted apart too: the copy that makes SDPA's output token-major
(cpu_layout_copy_bytes; CUDA's kernels return it so) and dropout masks
beyond one byte an element (cpu_mask_extra_bytes; the CPU's mask has the
input's type, CUDA's native_dropout a bool one). Autocast on the CPU casts
by its own op lists, which differ from CUDA's: amp-bf16 figures are a
guide only.

Run it twice with different --layers (e.g. 2 and 4): the difference
divided by the layer difference is one layer's activations, the rest is
what lies outside the layers (embeddings, final norm, logits, loss).
--dump LAYER lists the live tensors created inside that layer (its index
in the module names, e.g. 1) with their operators; --dump -1 adds those
made outside the layers. peak_forward_bytes is the most that was alive at
once during the pass, everything included. Needs torch and
transformers; runs on the CPU only.
"""
import argparse
import json
import sys
import weakref

LAYER_KEYS = ("num_hidden_layers", "n_layer", "num_layers")


class Live:
    """Live storages created by operators, with where they were made."""

    def __init__(self, torch):
        from torch.utils._python_dispatch import TorchDispatchMode

        live = self

        class Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                out = func(*args, **(kwargs or {}))
                # a parameter's cast (also of a view of it: FalconLinear casts weight.T)
                cast = func is torch.ops.aten._to_copy.default and args and isinstance(
                    args[0], torch.Tensor) and args[0].untyped_storage().data_ptr() in live.params
                # the CPU's SDPA returns its output in the heads' layout, so the
                # .transpose(1, 2).contiguous() after it copies; CUDA's flash and
                # memory-efficient kernels return it token-major and that copy is
                # a view there: counted apart, as cpu_layout_copy_bytes
                layout = func is torch.ops.aten.clone.default and args and isinstance(args[0], torch.Tensor) and \
                    args[0].untyped_storage().data_ptr() in live.sdpa_out
                sdpa = "scaled_dot_product" in str(func)
                # the CPU's dropout draws a mask of the input's type (empty_like,
                # bernoulli_) and keeps it; CUDA's native_dropout keeps a bool
                # mask: counted at 1 byte an element, the rest apart
                if "bernoulli_" in str(func) and args and isinstance(args[0], torch.Tensor):
                    rec = live.info.get(args[0].untyped_storage().data_ptr())
                    if rec:
                        rec["mask"] = args[0].element_size()
                for i, t in enumerate(out if isinstance(out, (tuple, list)) else [out]):
                    live.track(t, str(func), "cast" if cast else "layout" if layout else None)
                    if sdpa and i == 0:
                        live.sdpa_out.add(t.untyped_storage().data_ptr())
                return out

        self.torch = torch
        self.mode = Mode()
        self.info = {}
        self.live = 0
        self.peak = 0
        self.module = ["-"]
        self.sdpa_out = set()
        self.before = set()   # storages that existed before the pass (parameters, buffers, inputs)
        self.params = set()

    def track(self, t, op, kind):
        if not isinstance(t, self.torch.Tensor):
            return
        st = t.untyped_storage()
        key = st.data_ptr()
        n = st.nbytes()
        if n == 0 or key in self.info or key in self.before:
            return
        self.info[key] = dict(bytes=n, shape=list(t.shape), dtype=str(t.dtype).replace("torch.", ""), op=op,
                              module=self.module[-1], kind=kind)
        self.live += n
        self.peak = max(self.peak, self.live)
        weakref.finalize(st, self.free, key)

    def free(self, key):
        self.sdpa_out.discard(key)
        rec = self.info.pop(key, None)
        if rec:
            self.live -= rec["bytes"]

    def hook(self, model):
        """Name each storage after the innermost module running when it was made."""
        def enter(name):
            def pre(mod, args):
                self.module.append(name or "model")
            return pre

        def leave(mod, args, out):
            self.module.pop()

        for name, mod in model.named_modules():
            mod.register_forward_pre_hook(enter(name))
            mod.register_forward_hook(leave)


def layer_of(module):
    """The layer index in a module path (model.layers.3.mlp -> 3), or None."""
    parts = module.split(".")
    for i, p in enumerate(parts[:-1]):
        if p in ("layers", "h", "layer", "blocks") and parts[i + 1].isdigit():
            return int(parts[i + 1])
    return None


def build(cfg, layers, attention, torch):
    import transformers as tf

    cfg = dict(cfg)
    key = next((k for k in LAYER_KEYS if k in cfg), "num_hidden_layers")
    cfg[key] = layers
    config = tf.AutoConfig.for_model(**cfg)
    for k, v in cfg.items():  # as tests/device/advise_peaks.py: for_model can drop some
        if v is not None and getattr(config, k, None) != v:   # a null (Phi's rope_scaling) would drop rope_parameters
            try:
                setattr(config, k, v)
            except Exception:
                pass
    config.use_cache = False
    kw = {} if attention == "default" else {"attn_implementation": attention}
    model = tf.AutoModelForCausalLM.from_config(config, dtype=torch.float32, **kw)
    return model, config


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("config")
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--precision", choices=("fp32", "amp-bf16"), default="fp32")
    ap.add_argument("--attention", choices=("default", "eager", "sdpa"), default="default")
    ap.add_argument("--dump", type=int, default=None, metavar="LAYER")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    import contextlib
    import torch

    torch.manual_seed(0)
    with open(a.config, encoding="utf-8") as f:
        cfg = json.load(f)
    model, config = build(cfg, a.layers, a.attention, torch)
    model.train()
    ids = torch.randint(5, config.vocab_size, (a.batch, a.seq))
    tr = Live(torch)
    tr.hook(model)
    tr.params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    tr.before = tr.params | {t.untyped_storage().data_ptr() for t in list(model.buffers()) + [ids]}
    amp = torch.autocast("cpu", dtype=torch.bfloat16) if a.precision == "amp-bf16" else contextlib.nullcontext()
    with amp, tr.mode:
        out = model(input_ids=ids, labels=ids)
    recs = list(tr.info.values())
    casts = sum(r["bytes"] for r in recs if r["kind"] == "cast")
    layout = sum(r["bytes"] for r in recs if r["kind"] == "layout")
    acts = [dict(r, bytes=r["bytes"] // r.get("mask", 1)) for r in recs if not r["kind"]]
    mask_extra = sum(r["bytes"] - r["bytes"] // r.get("mask", 1) for r in recs if not r["kind"])
    per_layer = {}
    for r in acts:
        li = layer_of(r["module"])
        per_layer[li] = per_layer.get(li, 0) + r["bytes"]
    res = dict(model_type=config.model_type, attn_implementation=config._attn_implementation,
               layers=a.layers, batch=a.batch, seq=a.seq, precision=a.precision,
               activations_bytes=sum(r["bytes"] for r in acts), weight_cast_bytes=casts, cpu_layout_copy_bytes=layout, cpu_mask_extra_bytes=mask_extra,
               logits_bytes=out.logits.untyped_storage().nbytes(),
               outside_layers_bytes=per_layer.get(None, 0),
               layer_bytes={str(k): v for k, v in sorted(per_layer.items(), key=lambda kv: -1 if kv[0] is None else kv[0])
                            if k is not None},
               peak_forward_bytes=tr.peak, loss=float(out.loss.detach()))
    if a.dump is not None:
        res["dump"] = [r for r in acts if layer_of(r["module"]) == a.dump] + \
                      ([r for r in acts if layer_of(r["module"]) is None] if a.dump < 0 else [])
    if a.json:
        print(json.dumps(res))
        return
    for r in res.pop("dump", []):
        print("%12d  %-8s %-22s %-40s %s" % (r["bytes"], r["dtype"], "x".join(map(str, r["shape"])), r["op"],
                                            r["module"]))
    for k, v in res.items():
        print("%s: %s" % (k, v))


if __name__ == "__main__":
    sys.exit(main())
