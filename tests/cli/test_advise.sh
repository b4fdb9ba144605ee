#!/usr/bin/env bash
# End-to-end tests of `gpuwise advise`: the JSON contract (docs/contracts.md "
# Memory and hardware advice"), the model argument (catalogue, Hub id,
# config.json, a folder, --params), target GPUs (spec table, --memory, this
# machine's GPUs through the fake NVML), the plan, exit codes and hostile
# input.
. "$(dirname "$0")/lib.sh"
export GPUWISE_ROOT=$EMPTY_ROOT
# A run on this machine's GPUs reads the active environment's PyTorch and
# transformers releases: none unless a test makes one.
unset VIRTUAL_ENV CONDA_PREFIX

# ---- the JSON contract --------------------------------------------------
run advise llama-2-7b --task lora --batch 4 --seq 1024 --gpu 'RTX 4090' --json
assert_eq "$rc" 1 "a run that does not fit as given exits 1"
assert_json "contract keys and values" '
assert set(d) >= {"gpuwise_version", "model", "options", "per_gpu", "targets", "plan"}, set(d)
mo = d["model"]
assert mo["name"] == "llama-2-7b" and mo["model_type"] == "llama" and mo["params"] == 6738415616, mo
assert mo["params_published"] == 6738415616 and mo["from"] == "catalogue", mo
o = d["options"]
assert o["task"] == "lora" and o["batch"] == 4 and o["seq"] == 1024 and o["lora_rank"] == 8, o
assert o["precision"] == "amp-bf16" and o["weights"] == "bf16" and o["optimizer"] == "adamw", o
p = d["per_gpu"]
b = p["breakdown"]
assert set(b) == {"weights_bytes", "gradients_bytes", "optimizer_bytes", "activations_bytes",
                  "kv_cache_bytes", "workspace_bytes", "cuda_context_bytes", "paged_bytes"}, b
assert p["peak_allocated_bytes"] == sum(v for k, v in b.items() if k not in ("cuda_context_bytes", "paged_bytes")), p
assert p["peak_reserved_bytes"] >= p["peak_allocated_bytes"], p
assert p["peak_device_bytes"] == p["peak_reserved_bytes"] + b["cuda_context_bytes"] + b["paged_bytes"], p
assert p["trainable_params"] == 4194304, p
assert b["weights_bytes"] == 2 * 6738415616 + 4 * 4194304, b
t = d["targets"]
# What CUDA lets a run allocate on the card (data/gpu_specs.tsv cuda_total_bytes, deviceQuery on
# driver 550.127.05: 24210 MiB), not the datasheet 24 GiB.
assert len(t) == 1 and t[0]["gpu"] == "RTX 4090" and t[0]["memory_bytes"] == 25386352640, t
assert t[0]["compute_capability"] == "8.9" and t[0]["source"] == "spec", t
assert t[0]["fits"] is False and t[0]["max_micro_batch"] >= 1, t
pl = d["plan"]
assert pl["fits"] is True and pl["gpu"] == "RTX 4090", pl
assert pl["micro_batch"] * pl["grad_accum"] >= 4 and pl["peak_device_bytes"] <= 25386352640, pl
assert "per_device_train_batch_size=%d" % pl["micro_batch"] in pl["training_arguments"], pl
'

run advise llama-2-7b --task lora --batch 4 --seq 1024 --gpu 'RTX 4090'
assert_eq "$rc" 1 "human output: same exit"
assert_contains "$out" "6.74B parameters (6738415616, as published)" "the count"
assert_contains "$out" "torch.cuda.max_memory_allocated()" "peak kinds named"
assert_contains "$out" "does not fit" "the verdict"
assert_contains "$out" "Plan for RTX 4090" "a plan"
assert_contains "$out" "TrainingArguments(per_device_train_batch_size=" "a snippet"

# --memory alone; fits → exit 0; more batch → more memory.
run advise gpt2 --batch 4 --seq 512 --memory 80GiB --json
assert_eq "$rc" 0 "fits: exit 0"
assert_json "--memory target" '
t = d["targets"]
assert len(t) == 1 and t[0]["memory_bytes"] == 80 * 2**30 and t[0]["fits"] and t[0]["source"] == "memory", t
assert t[0]["compute_capability"] is None, t
'
small=$(printf '%s' "$out" | "${PYS[@]}" -c 'import json,sys; print(json.load(sys.stdin)["per_gpu"]["peak_device_bytes"])')
run advise gpt2 --batch 8 --seq 512 --memory 80GiB --json
big=$(printf '%s' "$out" | "${PYS[@]}" -c 'import json,sys; print(json.load(sys.stdin)["per_gpu"]["peak_device_bytes"])')
[ "$big" -gt "$small" ] || fail "batch 8 ($big) needs more than batch 4 ($small)"
run advise gpt2 --batch 8 --seq 512 --memory 80GiB --checkpointing --json
ck=$(printf '%s' "$out" | "${PYS[@]}" -c 'import json,sys; print(json.load(sys.stdin)["per_gpu"]["peak_device_bytes"])')
[ "$ck" -lt "$big" ] || fail "checkpointing ($ck) needs less than without ($big)"
checks=$((checks + 2))

# Inference: KV cache with GQA (Llama-3-8B: 8 kv heads × 128 × 2 × 32 layers × 2 bytes = 128 KiB a token).
run advise llama-3-8b --task infer --seq 8192 --new-tokens 512 --gpu H100 --json
assert_eq "$rc" 0 "8B inference fits an H100"
assert_json "KV cache" '
b = d["per_gpu"]["breakdown"]
assert b["kv_cache_bytes"] == 8192 * 131072, b
assert b["gradients_bytes"] == 0 and b["optimizer_bytes"] == 0, b
assert d["options"]["precision"] == "bf16" and d["options"]["new_tokens"] == 512, d["options"]
assert d["plan"]["training_arguments"] is None, d["plan"]
'

# QLoRA: NF4 with double quantisation by default.
run advise mistral-7b-v0.1 --task qlora --seq 512 --gpu T4 --json
assert_json "qlora on a T4" '
assert d["options"]["weights"] == "nf4-dq" and d["options"]["precision"] == "amp-fp16", d["options"]
assert d["targets"][0]["compute_capability"] == "7.5", d["targets"]
'

# ---- the plan ladder ---------------------------------------------------
# gpt2-large: gpt2-xl at --seq 1024 needs about 16.0 GiB even with every rung, more than the
# 16144 MiB CUDA gives a run on the card (it fitted only the datasheet's 16384 MiB).
run advise gpt2-large --seq 1024 --gpu V100-SXM2-16GB --target-batch 64 --json
assert_json "gpt2-large full training on a 16 GB V100: a plan" '
pl = d["plan"]
assert pl["fits"], pl
assert pl["micro_batch"] * pl["grad_accum"] >= 64, pl
assert d["options"]["precision"] == "amp-fp16", d["options"]   # V100: fp16, no bf16
assert pl["steps"] and pl["steps"][0] == "checkpointing", pl
'
run advise llama-2-7b --seq 512 --gpu 'RTX 4090'
assert_contains "$out" "does not fit even with" "a run no rung rescues says so"

# A spec-table GPU offers a run what CUDA can allocate on it, not the datasheet size: a run
# between the two (RTX 4090: 24210.31 MiB usable, 24576 MiB on the datasheet) does not fit,
# on --gpu NAME as in the --hardware ranking; with --memory 24GiB it would.
usable=25386352640
run advise llama-2-7b --task lora --batch 1 --seq 2150 --gpu 'RTX 4090' --json
assert_eq "$rc" 1 "a run above the usable size does not fit"
assert_json "needs more than usable, less than the datasheet: does not fit" "
t = d['targets'][0]
assert $usable < t['peak_device_bytes'] <= 24 * 2**30, t   # the run sits between the two sizes
assert t['memory_bytes'] == $usable and t['fits'] is False, t
"
run advise llama-2-7b --task lora --batch 1 --seq 2150 --gpu 'RTX 4090' --memory 24GiB --json
assert_eq "$rc" 0 "the datasheet size as --memory: fits"
assert_json "--memory overrides the usable size" "
t = d['targets'][0]
assert t['memory_bytes'] == 24 * 2**30 and t['fits'] is True, t
"
run advise llama-2-7b --task lora --batch 1 --seq 2150 --gpu 'RTX 4090' --hardware --json
assert_json "--hardware decides the fit on the usable size too, and reports it" "
h = {x['gpu']: x for x in d['hardware']}
r = h['RTX 4090']
assert r['memory_bytes'] == $usable and r['fits'] is False and r['peak_device_bytes'] > $usable, r
assert h['A100-SXM4-80GB']['memory_bytes'] == 85100068864, h['A100-SXM4-80GB']
assert h['A100-SXM4-40GB']['memory_bytes'] == 40 * 2**30, h['A100-SXM4-40GB']   # no source: the datasheet
"
run advise llama-2-7b --task lora --batch 1 --seq 2150 --gpu 'RTX 4090'
assert_contains "$out" "23.6 GiB" "human output shows the usable size"
# Cloud instances take their GPU's verdict: llama-3-8b decoding needs ~22.8 GiB, more than the
# A10's and L4's usable 22502.81 / 22478.31 MiB though less than their datasheet 24 GiB.
run advise llama-3-8b --task infer --seq 4096 --new-tokens 512 --batch 8 --hardware --json
assert_json "a cloud instance fits on its GPU's usable size" "
c = {x['instance']: x for x in d['cloud']}
for inst, usable in (('g5.xlarge', 23595909120), ('g6.xlarge', 23570219008)):
    x = c[inst]
    assert usable < x['peak_device_bytes'] <= 24 * 2**30 and x['fits'] is False, x
"

# ---- --hardware: the spec table ranked ----------------------------------------
run advise llama-3-8b --task infer --seq 4096 --new-tokens 512 --batch 8 --hardware --json
assert_json "--hardware ranks every spec-table GPU" '
h = d["hardware"]
assert len(h) >= 15 and all(x["source"].startswith("https://") for x in h), h
fits = [x["fits"] for x in h]
assert fits == sorted(fits, reverse=True), fits                     # fitting GPUs first
t = [x["step_seconds"] for x in h if x["fits"]]
assert t == sorted(t), t                                            # fastest first
h200 = [x for x in h if x["gpu"] == "H200-SXM-141GB"][0]
l4 = [x for x in h if x["gpu"] == "L4"][0]
assert h200["fits"] and h200["tokens_per_second"] > l4["tokens_per_second"], (h200, l4)
assert [x for x in h if x["gpu"] == "V100-SXM2-16GB"][0]["precision"] == "fp16"
'
run advise gpt2 --memory 16GiB --json
assert_json "no hardware key without --hardware" 'assert "hardware" not in d'
run advise gpt2 --seq 512 --batch 8 --hardware --memory 16GiB
assert_contains "$out" "Hardware (spec table; times at 40 % of peak FLOPs" "human ranking"
assert_contains "$out" "H100-SXM5-80GB" "lists the table"
run advise gpt2 --memory 16G --json
assert_json "--memory 16G is 16·10^9 bytes, as gpuwise.parse_size" 'assert d["targets"][0]["memory_bytes"] == 16 * 10**9'

# ---- models ----------------------------------------------------------------
run advise --list-models
assert_eq "$rc" 0 "--list-models"
assert_contains "$out" "llama-2-7b" "catalogue listed"
run advise --list-models --json
assert_json "--list-models --json" '
ms = d["models"]
assert len(ms) >= 20 and all(m["source"].startswith("https://") and m["params"] > 0 for m in ms), ms
assert {"gpt2", "bert-base-uncased", "t5-small", "llama-2-7b"} <= {m["name"] for m in ms}
'
run advise meta-llama/Llama-2-7b-hf --memory 80GiB --json
assert_json "a Hub id of the catalogue" 'assert d["model"]["name"] == "llama-2-7b", d["model"]'

mkdir -p "$TMPD/qwen"
cat >"$TMPD/qwen/config.json" <<'EOF'
{"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "vocab_size": 151936, "hidden_size": 896,
 "intermediate_size": 4864, "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2,
 "max_position_embeddings": 32768, "tie_word_embeddings": true, "torch_dtype": "bfloat16"}
EOF
run advise "$TMPD/qwen" --memory 24GiB --json
assert_eq "$rc" 0 "a folder with config.json"
assert_json "config.json counted" '
assert d["model"]["params"] == 494032768 and d["model"]["from"] == "config" and d["model"]["kv_heads"] == 2, d["model"]
'
run advise "$TMPD/qwen/config.json" --memory 24GiB --json
assert_json "the file itself" 'assert d["model"]["params"] == 494032768'

run advise --params 124439808 --layers 12 --hidden 768 --heads 12 --vocab 50257 --memory 16GiB --json
assert_eq "$rc" 0 "--params with a shape"
assert_json "--params" '
assert d["model"]["params"] == 124439808 and d["model"]["from"] == "shape" and d["model"]["model_type"] == "custom", d["model"]
'
run advise --params 7B --layers 32 --hidden 4096 --heads 32 --vocab 32000 --task infer --memory 24GiB --json
assert_json "--params with a suffix" 'assert d["model"]["params"] == 7000000000, d["model"]'

# ---- this machine's GPUs (fake NVML) ------------------------------------------
unset GPUWISE_ROOT
run_on h100-8x advise gpt2 --seq 512 --json
assert_eq "$rc" 0 "gpt2 fits on the fake H100s"
total=$(mjson h100-8x 'm["nvml"]["devices"][0]["memory"]["total"]')
reserved=$(mjson h100-8x 'm["nvml"]["devices"][0]["memory"]["reserved"]')
count=$(mjson h100-8x 'len(m["nvml"]["devices"])')
assert_json "every local GPU is a target, with what a run can use: the total less the driver's reserved part" "
t = d['targets']
assert len(t) == $count, t
assert $reserved > 0
assert all(x['source'] == 'local' and x['memory_bytes'] == $total - $reserved and x['compute_capability'] == '9.0' for x in t), t
assert d['options']['precision'] == 'amp-bf16', d['options']
assert d['per_gpu']['breakdown']['workspace_bytes'] == 64 * 2**20, d['per_gpu']   # Hopper: 32 + 32 MiB
"
# A 470 driver has no nvmlDeviceGetMemoryInfo_v2: the reserved part is unknown, the total is used.
run_on gtx1080ti-old-driver advise gpt2 --seq 512 --json
total=$(mjson gtx1080ti-old-driver 'm["nvml"]["devices"][0]["memory"]["total"]')
assert_json "without NVML v2 the target is the total" "assert d['targets'][0]['memory_bytes'] == $total, d['targets']"
run_on h100-8x advise gpt2 --seq 512 --gpu 3 --json
assert_json "--gpu SEL picks one local GPU" 'assert len(d["targets"]) == 1 and d["targets"][0]["gpu"].startswith("3: "), d["targets"]'
run_on h100-8x advise gpt2 --gpu 42
assert_eq "$rc" 1 "--gpu that matches nothing"
assert_one_error_line "--gpu that matches nothing"

# "fits now": GPUs 0-3 of h100-8x have 70 of 80 GiB held by other processes.
run_on h100-8x advise llama-2-7b --task lora --batch 4 --json
assert_eq "$rc" 0 "a LoRA run of 55 GiB fits the empty H100s"
assert_json "fits_now against the memory other processes hold; the plan on a GPU where it fits now" "
import json
m = json.load(open('$MACHINES/h100-8x/machine.json'))['nvml']['devices']
t = d['targets']
for x, g in zip(t, m):
    free = x['memory_bytes'] - g['memory']['used']
    assert x['fits'] is True and x['in_use_bytes'] == g['memory']['used'], x
    assert x['fits_now'] is (x['peak_device_bytes'] <= free), (x, free)
assert [x['fits_now'] for x in t[:4]] == [False] * 4, t
assert t[4]['fits_now'] is True, t
assert d['plan']['gpu'] == t[4]['gpu'] and d['plan']['fits_now'] is True, d['plan']
"
run_on h100-8x advise llama-2-7b --task lora --batch 4
# (the verdict may wrap under its row: compare with white space squeezed)
assert_contains "$(tr -s ' \n' '  ' <<<"$out")" "0: NVIDIA H100 80GB HBM3 79.2 GiB CC 9.0 fits when empty (needs 54.9 GiB; largest micro-batch 6), not now: other processes hold 70.0 GiB" "the text says both"
assert_contains "$out" "Plan for 4: NVIDIA H100 80GB HBM3" "the plan picks a GPU where it fits now"
run_on h100-8x advise llama-2-7b --task lora --batch 4 --gpu 0 --json
assert_json "one busy GPU: the plan is for it, and says it does not fit now" '
assert d["targets"][0]["fits"] is True and d["targets"][0]["fits_now"] is False, d["targets"]
assert d["plan"]["gpu"].startswith("0: ") and d["plan"]["fits"] is True and d["plan"]["fits_now"] is False, d["plan"]
'
run_on h100-8x advise llama-2-7b --task lora --batch 4 --gpu 0
assert_contains "$out" "Note: not now: other processes hold 70.0 GiB of this GPU" "the plan says so"
run advise llama-2-7b --task lora --batch 4 --gpu 'H100-SXM5-80GB' --json
assert_json "a spec-table GPU has no now" 'assert d["targets"][0]["fits_now"] is None and d["targets"][0]["in_use_bytes"] is None, d["targets"]'

# A plan with less than 5 % of the memory to spare says so (gpt2 at seq 512 needs 3,362,576,384 bytes).
run advise gpt2 --seq 512 --memory 3430000000B --json
assert_json "2 % headroom: low_headroom" '
p = d["plan"]
assert p["fits"] is True and p["fits_now"] is None and p["low_headroom"] is True, p
assert p["headroom_bytes"] == 3430000000 - p["peak_device_bytes"], p
'
run advise gpt2 --seq 512 --memory 3430000000B
assert_contains "$out" "Note: little headroom: 64.3 MiB of 3.2 GiB left (2.0 %, under 5 %)" "the text says so"
run advise gpt2 --seq 512 --memory 3600000000B --json
assert_json "7 % headroom is enough" 'assert d["plan"]["low_headroom"] is False, d["plan"]'
run advise gpt2 --seq 512 --memory 3600000000B
assert_not_contains "$out" "little headroom" "and the text says nothing"

# MIG devices are sized as the instance, not the GPU (a100-mig: GPU 0 in MIG mode).
run_on a100-mig advise llama-3-8b --task qlora --gpu 0:2 --json
assert_eq "$rc" 1 "QLoRA of an 8B model does not fit a 1g.5gb slice"
mig=$(mjson a100-mig 'm["nvml"]["devices"][0]["mig"]["devices"][2]["memory"]["total"]')
assert_json "--gpu G:M: the MIG device's own memory" "
t = d['targets']
assert len(t) == 1 and t[0]['gpu'] == '0:2: NVIDIA A100-SXM4-40GB MIG 1g.5gb', t
assert t[0]['memory_bytes'] == $mig and t[0]['fits'] is False and t[0]['max_micro_batch'] == 0, t
"
run_on a100-mig advise llama-3-8b --task qlora
assert_contains "$(tr -s ' \n' '  ' <<<"$out")" "0:2: NVIDIA A100-SXM4-40GB MIG 1g.5gb 4.8 GiB" "a GPU in MIG mode stands for its MIG devices"
assert_not_contains "$out" "  0: NVIDIA A100-SXM4-40GB" "not for the whole GPU"
assert_contains "$out" "Plan for 1: NVIDIA A100-SXM4-40GB" "the plan on the GPU where it fits now"
export GPUWISE_ROOT=$EMPTY_ROOT

run advise gpt2 --json
assert_eq "$rc" 0 "no GPU here is not a failure"
assert_json "no target" 'assert d["targets"] == [] and d["plan"] is None'
run advise gpt2
assert_contains "$out" "No GPU found here" "says how to check a fit"

# ---- errors -------------------------------------------------------------------------
run advise nosuchmodel
assert_eq "$rc" 1 "unknown model"
assert_one_error_line "unknown model"
assert_contains "$err" "--list-models" "points to the catalogue"
printf '{"model_type": "llama", "vocab_size": ' >"$TMPD/bad.json"
run advise "$TMPD/bad.json"
assert_eq "$rc" 1 "malformed config.json"
assert_one_error_line "malformed config.json"
assert_contains "$err" "not valid JSON" "says why"
printf '{"model_type": "mamba", "vocab_size": 5}' >"$TMPD/mamba.json"
run advise "$TMPD/mamba.json"
assert_eq "$rc" 1 "unknown model_type"
assert_contains "$err" 'unknown model_type "mamba"' "names it"
run advise tests/fixtures/advise-configs/falcon-40b-refinedweb.json
assert_eq "$rc" 1 "a pre-4.33 Falcon config (model_type RefinedWeb)"
assert_one_error_line "a pre-4.33 Falcon config"
assert_contains "$err" 'model_type "RefinedWeb" is a Falcon config.json' "names it"
assert_contains "$err" 'now says "falcon"' "says what the Hub's config says now"
printf '{"model_type": "falcon", "hidden_size": 4544}' >"$TMPD/falcon.json"
run advise "$TMPD/falcon.json"
assert_eq "$rc" 1 "a Falcon config without vocab_size"
assert_contains "$err" 'no "vocab_size"' "names the missing key"

# ---- real config.json files (tests/fixtures/advise-configs/README.md: where
# each file and each published count comes from) ------------------------------
while IFS=$'\t' read -r file params kv; do
	case $file in '#'* | '') continue ;; esac
	for task in train lora infer; do
		run advise "tests/fixtures/advise-configs/$file" --task "$task" --memory 80GiB --json
		case $rc in 0 | 1) ;; *) fail "$file --task $task: exit $rc: $err" ;; esac
		assert_json "$file --task $task: the published count, a sane estimate" "
m, p = d['model'], d['per_gpu']
assert m['params'] == $params and m['from'] == 'config' and m['kv_heads'] == $kv, m
b = p['breakdown']
assert all(v >= 0 for v in b.values()), b
w = b['weights_bytes']
assert 2 * $params * 0.99 <= w <= 6.1 * $params, (w, $params)   # amp: fp32 weights and half copies of the linears
assert p['peak_allocated_bytes'] >= w and p['peak_device_bytes'] < 64 * 4 * $params + 2**36, p
if '$task' == 'infer':
    assert b['kv_cache_bytes'] > 0 and b['gradients_bytes'] == 0 and b['optimizer_bytes'] == 0, b
if '$task' == 'lora':
    assert 0 < p['trainable_params'] < $params / 100, p
if '$task' == 'train':
    assert p['trainable_params'] == $params and b['optimizer_bytes'] >= 8 * $params, (p, b)
"
	done
done <tests/fixtures/advise-configs/expected.tsv
printf '{"model_type": "gpt2", "vocab_size": 50257, "n_embd": 768, "n_layer": 999999, "n_head": 12, "n_positions": 1024}' >"$TMPD/deep.json"
run advise "$TMPD/deep.json"
assert_eq "$rc" 1 "absurd layer count"
assert_contains "$err" "n_layer" "names the field"
head -c 17000000 /dev/zero | tr '\0' ' ' >"$TMPD/huge.json"
run advise "$TMPD/huge.json"
assert_eq "$rc" 1 "a 17 MB file"
assert_contains "$err" "larger than 16 MiB" "bounded read"
head -c 4096 /dev/urandom >"$TMPD/garbage.json"
run advise "$TMPD/garbage.json"
assert_eq "$rc" 1 "binary garbage"
assert_one_error_line "binary garbage"
mkdir -p "$TMPD/empty"
run advise "$TMPD/empty"
assert_eq "$rc" 1 "a folder without config.json"
assert_contains "$err" "config.json" "names the file"

for bad in "--task fly" "--batch 0" "--batch abc" "--batch 1.5" "--precision fp8" "--memory 24XB" "--memory -1" "--decoder-seq 65536" "--torch 1.x" "--torch 0.4" "--bitsandbytes 0.x" "--loop fast" "--transformers 4" "--transformers 4.x" "--loss-chunks 0" "--loss-chunks 65537"; do
	# shellcheck disable=SC2086
	run advise gpt2 $bad
	assert_eq "$rc" 2 "usage error: $bad"
	assert_contains "$err" "gpuwise: option '${bad%% *}'" "usage error names the option: $bad"
done
# A size without a unit is refused, not read as bytes ("--memory 24" was 24 bytes).
for bad in "--memory 24" "--memory 24 --gpu A100-SXM4-40GB" "--memory 1.5"; do
	# shellcheck disable=SC2086
	run advise gpt2 $bad
	assert_eq "$rc" 2 "a size without a unit: $bad"
	assert_contains "$err" "option '--memory' needs a unit" "names the option: $bad"
	assert_contains "$err" "GiB" "names the units: $bad"
done
run advise gpt2 --memory 24B --json
assert_json "24B is bytes, said so" 'assert d["targets"][0]["memory_bytes"] == 24, d["targets"]'
# --params and the shape must agree within 10 %: both counts are named.
run advise --params 1B --layers 32 --hidden 4096 --heads 32 --vocab 32000 --memory 24GiB
assert_eq "$rc" 2 "--params 1B with a 6.7B shape is a usage error"
assert_contains "$err" "--params 1.00B disagrees with the shape" "names the count given"
assert_contains "$err" "6.58B parameters (6575235072)" "and the shape's (embeddings tied: the nearer count)"
run advise --params 6.2B --layers 32 --hidden 4096 --heads 32 --vocab 32000 --memory 24GiB --json
assert_eq "$rc" 1 "--params within 10 % of the shape is taken as given"
assert_json "--params within 10 %" 'assert d["model"]["params"] == 6200000000, d["model"]'
run advise --params 7.5B --layers 32 --hidden 4096 --heads 32 --vocab 32000 --memory 24GiB
assert_eq "$rc" 2 "--params 12 % above the shape"
assert_contains "$err" "6.71B parameters (6706307072)" "the untied count, the nearer one"
run advise --params 7B
assert_eq "$rc" 2 "--params without a shape"
run advise gpt2 --params 7B
assert_eq "$rc" 2 "MODEL and --params"
run advise
assert_eq "$rc" 2 "no model"
run advise gpt2 --new-tokens 5
assert_eq "$rc" 2 "--new-tokens without infer"
run advise gpt2 --lora-targets all
assert_eq "$rc" 2 "--lora-targets without lora"
run advise gpt2 --task lora --lora-targets everything
assert_eq "$rc" 2 "--lora-targets: an unknown value"
assert_contains "$err" "qv attention all-linear all" "lists the values"
run advise vit-base-patch16-224 --task lora --lora-targets all-linear
assert_eq "$rc" 1 "--lora-targets beyond q, v on a vision model"
assert_contains "$err" "text models" "says why"

# ---- --lora-targets: PEFT's trainable count, wider targets need more ----
run advise llama-2-7b --task qlora --lora-targets all-linear --memory 24GiB --json
assert_eq "$rc" 0 "qlora all-linear fits 24 GiB"
cp "$TMPD/out" "$TMPD/all-linear.json"
run advise llama-2-7b --task qlora --memory 24GiB --json
assert_json "all-linear: PEFT's 19,988,480 trainable at r=8, more memory than q, v" '
import json
w = json.load(open("'"$TMPD"'/all-linear.json"))
assert w["options"]["lora_targets"] == "all-linear" and d["options"]["lora_targets"] == "qv", (w["options"], d["options"])
assert w["per_gpu"]["trainable_params"] == 19988480, w["per_gpu"]
assert w["per_gpu"]["peak_allocated_bytes"] > d["per_gpu"]["peak_allocated_bytes"]
assert w["per_gpu"]["breakdown"]["activations_bytes"] > d["per_gpu"]["breakdown"]["activations_bytes"]
'
# ---- FSDP and LoRA: adapters wrapped on their own (fsdp) or with the frozen block (fsdp-mixed)
run advise llama-2-7b --task lora --gpus 2 --strategy fsdp-mixed --memory 80GiB --json
cp "$TMPD/out" "$TMPD/mixed.json"
run advise llama-2-7b --task lora --gpus 2 --strategy fsdp --memory 80GiB --json
assert_json "fsdp-mixed pays the frozen weights' gradients, fsdp the adapters' only" '
import json
x = json.load(open("'"$TMPD"'/mixed.json"))
assert x["options"]["strategy"] == "fsdp-mixed" and d["options"]["strategy"] == "fsdp", x["options"]
assert x["per_gpu"]["breakdown"]["gradients_bytes"] > 6738415616, x["per_gpu"]
assert d["per_gpu"]["breakdown"]["gradients_bytes"] < 4 * 4194304, d["per_gpu"]
assert "fsdp=\"full_shard\"" in x["plan"]["training_arguments"], x["plan"]
'
run advise llama-2-7b --json
assert_json "no LoRA: lora_targets is null" 'assert d["options"]["lora_targets"] is None, d["options"]'
run advise llama-2-7b --task lora --lora-rank 16 --lora-targets attention --memory 24GiB
assert_contains "$out" "lora r=16 attention" "the run line names the targets"

# ---- --lm-head: BERT with its masked-LM head (MLM pre-training, run_mlm.py)
run advise bert-base-uncased --lm-head --batch 8 --seq 512 --memory 80GiB --json
assert_eq "$rc" 0 "bert-base-uncased --lm-head"
cp "$TMPD/out" "$TMPD/mlm.json"
run advise bert-base-uncased --batch 8 --seq 512 --memory 80GiB --json
assert_json "the head's count (BertForMaskedLM: 109,514,298) and its logits over every token" '
import json
x = json.load(open("'"$TMPD"'/mlm.json"))
assert x["model"]["lm_head"] is True and d["model"]["lm_head"] is False, (x["model"], d["model"])
assert x["model"]["params"] == 109514298 and x["model"]["params_published"] is None, x["model"]
b = x["per_gpu"]["breakdown"]["activations_bytes"] - d["per_gpu"]["breakdown"]["activations_bytes"]
assert b > 8 * 512 * 30522 * 2, b
'
# one line wide enough for the phrase (test_text.sh checks the wrapping)
COLUMNS=1000 run advise bert-base-uncased --lm-head --batch 8 --seq 512 --memory 80GiB
assert_contains "$out" "with its masked-LM head" "the model line says so"
run advise gpt2 --lm-head
assert_eq "$rc" 1 "--lm-head on a decoder"
assert_contains "$err" "has its LM head already" "says why"
run advise vit-base-patch16-224 --lm-head
assert_eq "$rc" 1 "--lm-head on a vision model"

# ---- --decoder-seq: T5's target length (summarisation: long source, short target)
run advise t5-base --batch 8 --seq 512 --decoder-seq 128 --memory 40GiB --json
assert_eq "$rc" 0 "t5-base with a 128-token target"
cp "$TMPD/out" "$TMPD/short.json"
run advise t5-base --batch 8 --seq 512 --memory 40GiB --json
assert_json "a 128-token target needs less than a 512-token one (the default: --seq)" '
import json
x = json.load(open("'"$TMPD"'/short.json"))
assert x["options"]["decoder_seq"] == 128 and d["options"]["decoder_seq"] == 512, (x["options"], d["options"])
assert x["per_gpu"]["breakdown"]["activations_bytes"] < d["per_gpu"]["breakdown"]["activations_bytes"]
assert x["per_gpu"]["breakdown"]["weights_bytes"] == d["per_gpu"]["breakdown"]["weights_bytes"]
assert x["targets"][0]["max_micro_batch"] > d["targets"][0]["max_micro_batch"], x["targets"]
'
run advise t5-base --batch 8 --seq 512 --decoder-seq 128 --memory 40GiB
assert_contains "$out" "seq 512 → 128 target tokens" "the run line gives both lengths"
run advise gpt2 --decoder-seq 128
assert_eq "$rc" 1 "--decoder-seq on a decoder-only model"
assert_contains "$err" "encoder-decoder" "says why"
run advise t5-base --task infer --seq 512 --new-tokens 64 --decoder-seq 64
assert_eq "$rc" 1 "--decoder-seq in generation"
assert_contains "$err" "--new-tokens" "points to --new-tokens"
run advise gpt2 --json
assert_json "decoder-only: decoder_seq is null" 'assert d["options"]["decoder_seq"] is None, d["options"]'

# ---- --torch: what an older PyTorch keeps
run advise vit-base-patch16-224 --batch 64 --precision amp-fp16 --attention eager --torch 1.7.1 --gpu "RTX 3090" --json
assert_eq "$rc" 0 "ViT-B under PyTorch 1.7"
cp "$TMPD/out" "$TMPD/old.json"
run advise vit-base-patch16-224 --batch 64 --precision amp-fp16 --attention eager --gpu "RTX 3090" --json
assert_json "PyTorch 1.7 keeps the softmax's fp32 input and loads every kernel into the context" '
import json
x = json.load(open("'"$TMPD"'/old.json"))
assert x["options"]["torch"] == "1.7" and d["options"]["torch"] is None, (x["options"], d["options"])
b, n = x["per_gpu"]["breakdown"], d["per_gpu"]["breakdown"]
assert b["activations_bytes"] - n["activations_bytes"] == 12 * 64 * 12 * 197 * 197 * 4, (b, n)
assert b["cuda_context_bytes"] == 666632192 and n["cuda_context_bytes"] < b["cuda_context_bytes"], (b, n)
'
run advise vit-base-patch16-224 --torch 1.7.1 --gpu "RTX 3090"
assert_contains "$out" ", PyTorch 1.7" "the run line names the release"
assert_contains "$out" "eager attention" "no SDPA before PyTorch 2.0"
# ---- --transformers: before 4.45 generate() computes every prompt position's logits
run advise llama-2-7b --task infer --precision fp16 --batch 2 --seq 4096 --new-tokens 2048 --memory 80GiB --json
cp "$TMPD/out" "$TMPD/tf-now.json"
run advise llama-2-7b --task infer --precision fp16 --batch 2 --seq 4096 --new-tokens 2048 --transformers 4.44.2 --memory 80GiB --json
assert_json "transformers 4.44: the prompt's fp16 logits and their fp32 copy, beside the last hidden state" '
import json
x = json.load(open("'"$TMPD"'/tf-now.json"))
assert d["options"]["transformers"] == "4.44" and x["options"]["transformers"] is None, (d["options"], x["options"])
assert d["per_gpu"]["breakdown"]["activations_bytes"] == 2048 * 2 * (2 * 2 * 4096 + 32000 * 6), d["per_gpu"]
'
run advise llama-2-7b --task infer --transformers 4.38 --memory 80GiB
assert_contains "$out" "transformers 4.38" "the run line names the release"
# ---- --loss-chunks: torchtune's chunked cross-entropy casts one chunk at a time
run advise llama-2-7b --task lora --batch 4 --seq 2048 --memory 80GiB --json
cp "$TMPD/out" "$TMPD/loss-whole.json"
run advise llama-2-7b --task lora --batch 4 --seq 2048 --memory 80GiB --loss-chunks 8 --json
assert_json "8 chunks: one chunk's fp32 copy of the logits instead of all of it" '
import json
x = json.load(open("'"$TMPD"'/loss-whole.json"))
assert d["options"]["loss_chunks"] == 8 and x["options"]["loss_chunks"] == 1, (d["options"], x["options"])
saved = x["per_gpu"]["breakdown"]["activations_bytes"] - d["per_gpu"]["breakdown"]["activations_bytes"]
assert saved == 4 * 2048 * 32000 * 7 // 2, saved
'
run advise llama-2-7b --task lora --loss-chunks 8 --memory 80GiB
assert_contains "$out" "loss in 8 chunks" "the run line says so"
run advise llama-2-7b --task infer --loss-chunks 8 --memory 80GiB
assert_eq "$rc" 2 "--loss-chunks with --task infer"
assert_contains "$err" "--loss-chunks applies to training" "says why"
# ---- --offload activations: torchtune's OffloadActivations with checkpointing
run advise llama-2-7b --task lora --batch 4 --seq 2048 --checkpointing --memory 80GiB --json
cp "$TMPD/out" "$TMPD/act-kept.json"
run advise llama-2-7b --task lora --batch 4 --seq 2048 --checkpointing --offload activations --memory 80GiB --json
assert_json "offloaded: two of the 32 layer inputs stay on the GPU" '
import json
x = json.load(open("'"$TMPD"'/act-kept.json"))
assert d["options"]["offload_activations"] is True and x["options"]["offload_activations"] is False, d["options"]
assert d["options"]["offload"] == "none", d["options"]
assert d["plan"]["offload_activations"] is True, d["plan"]
saved = x["per_gpu"]["breakdown"]["activations_bytes"] - d["per_gpu"]["breakdown"]["activations_bytes"]
assert saved == 30 * 2 * 4 * 2048 * 4096, saved
'
run advise llama-2-7b --task lora --batch 4 --seq 2048 --checkpointing --offload optimizer,activations --memory 80GiB --json
assert_json "optimizer,activations: both" '
assert d["options"]["offload"] == "optimizer" and d["options"]["offload_activations"] is True, d["options"]
'
run advise llama-2-7b --task lora --checkpointing --offload activations --memory 80GiB
assert_contains "$out" "activations offloaded" "the run line says so"
run advise llama-2-7b --task infer --offload activations --memory 80GiB
assert_eq "$rc" 2 "--offload activations with --task infer"
assert_contains "$err" "applies to training" "says why"
run advise llama-2-7b --task lora --offload activations --memory 80GiB
assert_eq "$rc" 2 "--offload activations without --checkpointing"
assert_contains "$err" "needs --checkpointing" "says why"
for bad in "optimizer,params" "activations,activations" "activations,disk" ","; do
	run advise llama-2-7b --task lora --checkpointing --offload "$bad" --memory 80GiB
	assert_eq "$rc" 2 "--offload '$bad'"
	assert_contains "$err" "activations joined by a comma" "lists the values"
done
run advise bert-base-uncased --task train --checkpointing --offload activations --memory 80GiB
assert_eq "$rc" 2 "--offload activations on an encoder"
assert_contains "$err" "modelled for decoders" "says why"
# ---- --bitsandbytes: before 0.43.2 the 4-bit layers keep their input
run advise llama-2-7b --task qlora --weights nf4 --batch 2 --seq 512 --memory 80GiB --json
cp "$TMPD/out" "$TMPD/bnb-now.json"
run advise llama-2-7b --task qlora --weights nf4 --batch 2 --seq 512 --bitsandbytes 0.43.1 --memory 80GiB --json
assert_json "bitsandbytes 0.43.1 keeps each frozen 4-bit layer's input, a current one does not" '
import json
x = json.load(open("'"$TMPD"'/bnb-now.json"))
assert d["options"]["bitsandbytes"] == "0.43.1" and x["options"]["bitsandbytes"] is None, (d["options"], x["options"])
# Llama-2-7B, 1024 tokens, bf16, 32 layers: the attention input (beside the dropped copy of the adapters),
# the MLP input and the input of down_proj (I); that of o_proj is counted for LoRA already (SDPA keeps its output)
grew = d["per_gpu"]["breakdown"]["activations_bytes"] - x["per_gpu"]["breakdown"]["activations_bytes"]
assert grew == 32 * 1024 * 2 * (4096 + 4096 + 11008), grew
'
run advise llama-2-7b --task qlora --bitsandbytes 0.43.1 --memory 80GiB
assert_contains "$out" ", bitsandbytes 0.43.1" "the run line names the release"
assert_contains "$out" "0.43.2 or later needs" "says how much a current bitsandbytes saves"
run advise llama-2-7b --task qlora --memory 80GiB
assert_not_contains "$out" "0.43.2 or later needs" "no note for a current bitsandbytes"
# ---- --loop plain: the last step's graph lives through the next forward
run advise llama-2-7b --task qlora --weights nf4 --batch 2 --seq 512 --bitsandbytes 0.42.0 --loop plain --memory 80GiB --json
assert_json "a plain loop keeps bitsandbytes 0.42's 4-bit inputs of the last micro-batch through the next forward" '
import json
x = json.load(open("'"$TMPD"'/bnb-now.json"))
assert d["options"]["loop"] == "plain" and x["options"]["loop"] == "trainer", (d["options"], x["options"])
'
cp "$TMPD/out" "$TMPD/loop-plain.json"
run advise llama-2-7b --task qlora --weights nf4 --batch 2 --seq 512 --bitsandbytes 0.42.0 --memory 80GiB --json
assert_json "the held tensors: the logits (2 bytes) and a layer 2·(3h + I) a token; the loss adds 8 bytes a logit after them" '
import json
p = json.load(open("'"$TMPD"'/loop-plain.json"))
grew = p["per_gpu"]["breakdown"]["activations_bytes"] - d["per_gpu"]["breakdown"]["activations_bytes"]
assert grew == 1024 * 32000 * 2 + 32 * 1024 * 2 * (3 * 4096 + 11008) - 1024 * 32000 * 8, grew
'
run advise llama-2-7b --task lora --batch 2 --seq 512 --loop plain --memory 80GiB
assert_contains "$out" ", plain loop" "the run line names the loop"
run advise gpt2 --task infer --loop plain --memory 24GiB
assert_eq "$rc" 0 "--loop plain with --task infer: the script's own prompt forward"
assert_contains "$(printf '%s' "$out" | tr -s '\n ' '  ')" ", plain loop" "the run line names it"
run advise llama-2-7b --torch 1.13 --attention sdpa --memory 80GiB
assert_eq "$rc" 1 "SDPA under PyTorch 1.13"
assert_contains "$err" "PyTorch 2.0" "says which release has it"

run advise gpt2 --task infer --seq 100 --new-tokens 100
assert_eq "$rc" 1 "--new-tokens ≥ --seq"
assert_contains "$err" "--new-tokens" "says which"
run advise gpt2 --weights nf4
assert_eq "$rc" 1 "full training of 4-bit weights"
assert_contains "$err" "qlora" "points to qlora"
run advise gpt2 --batch 1048576 --seq 1024
assert_eq "$rc" 0 "the largest batch still gives an answer"
run advise gpt2 --seq 4096
assert_contains "$err" "longer than the 1024 positions" "learned positions warn"

# Vision models: --image sets the positions; --seq is for text, --image for images.
COLUMNS=1000 run advise vit-base-patch16-224 --image 384 --batch 8 --memory 24GiB
assert_eq "$rc" 0 "ViT at 384 px"
assert_contains "$out" "384×384 pixels (577 positions)" "patches + class token"
assert_contains "$out" "86567656, as published" "exact count"
run advise resnet-50 --batch 8 --memory 24GiB --json
assert_contains "$out" '"kind": "vision"' "vision kind"
run advise vit-base-patch16-224 --seq 100
assert_eq "$rc" 2 "--seq on a vision model"
assert_contains "$err" "--image" "points to --image"
run advise gpt2 --image 224
assert_eq "$rc" 2 "--image on a text model"
run advise resnet-50 --task lora
assert_eq "$rc" 1 "LoRA on a CNN"
assert_contains "$err" "LoRA" "says why"
run advise vit-base-patch16-224 --image 8
assert_eq "$rc" 1 "image smaller than a patch"

# --hardware lists the cloud instances with the GPUs' figures, sourced, without invented prices.
run advise gpt2 --seq 512 --batch 8 --memory 16GiB --hardware
assert_contains "$out" "Cloud instances" "cloud section"
assert_contains "$out" "p4d.24xlarge" "an AWS instance"
assert_contains "$out" "a3-highgpu-8g" "a GCP instance"
assert_contains "$out" "Standard_ND96isr_H100_v5" "an Azure instance"
assert_contains "$out" "NVIDIA A10G" "the A10G note"
# The USD/hour column is the table's price ("%.2f") for a priced row and "-" for
# an unpriced one (the rule for a price: tests/unit/test_advise.c).
# {instance: its price_usd_hour cell} of data/cloud_instances.tsv, for the checks below
CLOUD_PRICES='
prices = {}
for line in open("data/cloud_instances.tsv"):
    f = line.rstrip("\n").split("\t")
    if not line.startswith("#") and f[0] != "provider" and len(f) >= 5:
        prices[f[1]] = f[4]
'
n=$(printf '%s\n' "$out" | "${PYS[@]}" -c "$CLOUD_PRICES"'
import sys
want = {k: "-" if v == "-" else "%.2f" % float(v) for k, v in prices.items()}
got, on = {}, False
for line in sys.stdin:
    if line.startswith("Cloud instances"):
        on = True
    elif on and line.startswith("  ") and line.split()[0] in ("aws", "gcp", "azure"):
        got[line.split()[1]] = line.split()[-1]
print(len(got) == len(want), got == want)')
assert_eq "$n" "True True" "every instance listed, its price as the table has it or -"
# A priced row (issue 32 #4; five rows as of 2026-12-06): its price in the text
# with its note's mark, the note under the table, and in the JSON the price and
# the cost per million samples (price / 3600 / samples/s x 1e6), both null
# exactly where the table has "-"; priced rows first among the fitting ones.
assert_contains "$out" "55.04" "p5.48xlarge's price in the text"
n=$(printf '%s\n' "$out" | grep -E '^  aws +p5\.48xlarge ' | awk '{print $4, $NF}')
assert_eq "$n" "H100-SXM5-80GB*1 55.04" "p5.48xlarge: its note's mark and its price"
assert_contains "$out" "*1 price: AWS Price List API" "the AWS price's note under the table"
assert_contains "$out" "*2 price: Azure Retail Prices API" "the Azure price's note under the table"
assert_contains "$out" "*3 NVIDIA A10G" "several notes: each its own mark"
run advise gpt2 --seq 512 --batch 8 --memory 16GiB --hardware --json
n=$(printf '%s' "$out" | "${PYS[@]}" -c "$CLOUD_PRICES"'
import json, sys
want = {k: None if v == "-" else round(float(v), 4) for k, v in prices.items()}
c = json.load(sys.stdin)["cloud"]
got = {x["instance"]: x["price_usd_per_hour"] for x in c}
cost = all((x["usd_per_million_samples"] is None) == (x["price_usd_per_hour"] is None) for x in c)
p5 = [x for x in c if x["instance"] == "p5.48xlarge"][0]
exact = abs(p5["usd_per_million_samples"] - 55.04 / 3600 / p5["samples_per_second"] * 1e6) < 1e-3 * p5["usd_per_million_samples"]
fit = [x["price_usd_per_hour"] is not None for x in c if x["fits"]]
print(got == want, cost, p5["price_usd_per_hour"] == 55.04, exact, fit == sorted(fit, reverse=True), sum(fit) >= 5)')
assert_eq "$n" "True True True True True True" "JSON: each price as the table has it, a cost exactly where priced, priced first"
run advise gpt2 --seq 512 --batch 8 --gpus 16 --strategy ddp --memory 16GiB --hardware --json
assert_eq "$rc" 0 "16 GPUs"
n=$(printf '%s' "$out" | "${PYS[@]}" -c 'import json,sys; d=json.load(sys.stdin); c=d["cloud"]; print(len(c), {x["instance"] for x in c} == {"a2-megagpu-16g"}, all(x["price_usd_per_hour"] is None and x["source"].startswith("https://") for x in c))')
assert_eq "$n" "1 True True" "only instances with 16 GPUs; no price; sourced"

# Chinese text takes the Chinese list separator, not an ASCII comma
# (issue 9 #20): in the run line, and in the steps a plan could not reach.
LANGUAGE=zh_CN COLUMNS=1000 run advise gpt2-large --gpu 'RTX 4090'
assert_contains "$out" "权重 fp32，adamw，" "zh: the run line's settings separated by ，"
assert_not_contains "$out" ", adamw" "zh: no ASCII comma in the run line"
LANGUAGE=zh_CN COLUMNS=1000 run advise llama-2-70b --gpu 'RTX 4090'
assert_contains "$out" "checkpointing，" "zh: the plan's steps separated by ，"

# ---- what a run can use, not the datasheet: a T4 is 15,360 MiB to NVML ----
run advise gpt2 --gpu T4 --hardware --json
assert_json "T4: PyTorch's 15,095 MiB, for the target and its --hardware row" '
assert d["targets"][0]["memory_bytes"] == 15828320256, d["targets"]
h = {x["gpu"]: x for x in d["hardware"]}
assert h["T4"]["memory_bytes"] == 15828320256 and h["T4"]["precision"] == "amp-fp16", h["T4"]
assert h["MI300X"]["fp64_tflops"] == 81.7 and h["RX 5700"]["memory_bytes"] == 8 << 30, h["MI300X"]
assert {"GTX 1660", "RTX 3060 12GB", "TITAN Xp", "TITAN X Pascal", "RX 5700", "MI250X"} <= set(h), sorted(h)
'

# ---- inference over several GPUs splits the model (issue 32) -----------
run advise llama-2-70b --task infer --seq 4096 --new-tokens 512 --json --memory 80GiB
one=$out
run advise llama-2-70b --task infer --seq 4096 --new-tokens 512 --gpus 2 --memory 80GiB --json
assert_eq "$rc" 0 "70B in bf16 fits split over 2 × 80 GiB"
ONE=$one assert_json "tensor parallel: half the weights and KV cache per GPU, not a copy" '
import json, os
a = json.loads(os.environ["ONE"])
assert d["options"]["strategy"] == "tp" and d["plan"]["strategy"] == "tp", d["options"]
wa, wb = a["per_gpu"]["breakdown"], d["per_gpu"]["breakdown"]
assert abs(wb["weights_bytes"] * 2 - wa["weights_bytes"]) <= 2, (wa, wb)
assert wb["kv_cache_bytes"] * 2 == wa["kv_cache_bytes"], (wa, wb)
assert d["plan"]["fits"] and d["plan"]["steps"] == [], d["plan"]
'
run advise llama-2-70b --task infer --seq 4096 --new-tokens 512 --gpus 2 --memory 80GiB
assert_contains "$out" "tensor_parallel_size=2" "the plan names vLLM's setting"
run advise llama-2-70b --task infer --seq 4096 --new-tokens 512 --gpus 3 --memory 80GiB
assert_contains "$out" 'device_map="auto"' "64 heads over 3 GPUs: layers per GPU, accelerate's setting"
assert_contains "$out" "3 GPUs pp" "the run line says pp"
run advise llama-2-70b --task infer --gpus 3 --strategy tp --memory 80GiB
assert_eq "$rc" 1 "tp over 3 GPUs with 64 heads is refused"
assert_contains "$err" "use --strategy pp" "and pp is offered"

# ---- fp16 before 8-bit weights where the GPU has fp16 (Pascal) ----------
run advise llama-2-7b --task infer --seq 2048 --new-tokens 512 --precision fp32 --gpu P100 --json
assert_json "P100: the plan runs fp16 before it quantises" '
p = d["plan"]
assert p["fits"] and p["steps"] == ["precision"], p
assert p["precision"] == "fp16" and p["weights"] == "fp16", p
'
run advise gpt2 --seq 512 --memory 16GiB --hardware
assert_contains "$out" " precision " "each --hardware row says its precision"
n=$(printf '%s\n' "$out" | awk '$1 == "T4" { print $4 } $1 == "P100-PCIE-16GB" { print $4 }' | sort | tr '\n' ' ')
assert_eq "$n" "amp-fp16 fp32 " "T4 autocasts to fp16, P100 as given (fp32 by default before 7.0)"
run advise llama-3-8b --task infer --seq 1024 --new-tokens 128 --memory 16GiB --hardware
assert_contains "$out" " dtype " "inference: the dtype column"
# the dtype is the word after the memory column's unit
n=$(printf '%s\n' "$out" | awk '/^  (P100-PCIE-16GB|GTX 1080|GTX 970) +[0-9]/ {
	for (i = 1; i < NF; i++) if ($i == "GiB") { print $1 $2 ":" $(i + 1); break } }' | sort | tr '\n' ' ')
assert_eq "$n" "GTX1080:fp16 GTX970:fp32 P100-PCIE-16GB16.0:fp16 " \
	"inference loads half weights from CC 5.3 (P100, GeForce 10), fp32 before (Maxwell GTX 970)"
rate_col=$(printf '%s\n' "$out" | awk '/ tokens\/s$/ { print index($0, "tokens/s") + 7 }')
ends=$(printf '%s\n' "$out" | awk -v e="$rate_col" '/^  [A-Z].* (yes|no) / { if (length($0) != e) bad++ } END { print bad + 0 }')
assert_eq "$ends" 0 "every --hardware row ends under the right edge of its tokens/s title"

# ---- the pasted configuration is the plan's (DeepSpeed offload) ----------
# (19 GiB: DeepSpeed's gradient bucket, 5e8 elements, is part of every ZeRO rung)
run advise gpt2-xl --batch 4 --seq 1024 --memory 19GiB --gpu 'RTX 4090' --json
assert_json "offload comes with its DeepSpeed config, without a bitsandbytes optimizer" '
p = d["plan"]
assert p["fits"] and p["offload"] == "optimizer" and p["strategy"] == "zero2", p
assert p["optimizer"] == "adamw" and "8bit-optimizer" not in p["steps"], p
a = p["training_arguments"]
assert "bnb" not in a and "8bit" not in a, a
for k in ("\"stage\": 2", "\"offload_optimizer\": {\"device\": \"cpu\"}", "\"optimizer\": {\"type\": \"AdamW\"",
          "\"train_micro_batch_size_per_gpu\": \"auto\""):
    assert k in a, (k, a)
'
run advise gpt2 --optimizer paged-adamw-8bit --offload optimizer --strategy zero2 --memory 16GiB
assert_eq "$rc" 1 "a bitsandbytes 8-bit optimizer with DeepSpeed offload is refused"
assert_contains "$err" "does not combine" "and says why"
run advise llama-2-70b --task qlora --seq 4096 --gpu T4
assert_contains "$out" "does not fit even with" "70B QLoRA on a T4 does not fit"
assert_not_contains "$out" "LoRA/QLoRA" "a QLoRA user is not told to use QLoRA"
assert_contains "$out" "--lora-rank" "but what else to lower"

# ---- this machine's Python environment: the PyTorch and transformers releases
site=$TMPD/venv/lib/python3.11/site-packages
mkdir -p "$site/torch" "$site/transformers"
printf "__version__ = '1.12.1+cu113'\ndebug = False\ncuda: Optional[str] = '11.3'\n" >"$site/torch/version.py"
printf '__version__ = "4.30.2"\n\nfrom typing import TYPE_CHECKING\n' >"$site/transformers/__init__.py"
VIRTUAL_ENV=$TMPD/venv run_on h100-8x advise llama-2-7b --task infer --seq 4096 --new-tokens 2048 --json
assert_json "an active venv's torch 1.12 and transformers 4.30 are the run's" '
assert d["options"]["torch"] == "1.12" and d["options"]["transformers"] == "4.30", d["options"]
assert d["options"]["attention"] == "eager", d["options"]
'
VIRTUAL_ENV=$TMPD/venv run_on h100-8x advise llama-2-7b --task infer --torch 2.4 --transformers 4.46 --json
assert_json "--torch and --transformers name them instead" '
assert d["options"]["torch"] == "2.4" and d["options"]["transformers"] == "4.46", d["options"]
'
CONDA_PREFIX=$TMPD/venv run_on h100-8x advise llama-2-7b --task infer --json
assert_json "a conda environment too" 'assert d["options"]["torch"] == "1.12", d["options"]'
VIRTUAL_ENV=$TMPD/venv run advise llama-2-7b --task infer --gpu "RTX 4090" --json
assert_json "a spec-table GPU is another machine: nothing read" '
assert d["options"]["torch"] is None and d["options"]["transformers"] is None, d["options"]
'
run_on h100-8x advise llama-2-7b --task infer --json
assert_json "no active environment: current releases" 'assert d["options"]["torch"] is None, d["options"]'

# ---- gradients and activations: not alive together since PyTorch 2.0 -------
run advise gpt2 --batch 8 --seq 1024 --precision fp16 --optimizer sgd --attention eager --torch 1.13 --memory 80GiB --json
cp "$TMPD/out" "$TMPD/zeros.json"
run advise gpt2 --batch 8 --seq 1024 --precision fp16 --optimizer sgd --attention eager --memory 80GiB --json
assert_json "zero_grad() sets None: allocated below the breakdown's sum, reserved the same" '
import json
z = json.load(open("'"$TMPD"'/zeros.json"))["per_gpu"]
p = d["per_gpu"]
b = p["breakdown"]
total = sum(v for k, v in b.items() if k != "cuda_context_bytes")
assert z["peak_allocated_bytes"] == total, (z, total)
assert b["activations_bytes"] > b["gradients_bytes"], b
assert p["peak_allocated_bytes"] == total - b["gradients_bytes"] + 50257 * 768 * 2, (p, total)
assert p["peak_reserved_bytes"] == z["peak_reserved_bytes"], (p, z)
'
run advise gpt2 --batch 8 --seq 1024 --precision fp16 --optimizer sgd --attention eager --memory 80GiB --gpus 2 --strategy fsdp --json
assert_json "FSDP frees its sharded gradients too: the overlap holds on two GPUs" '
p = d["per_gpu"]
b = p["breakdown"]
total = sum(v for k, v in b.items() if k != "cuda_context_bytes")
assert p["peak_allocated_bytes"] == total - b["gradients_bytes"] + 50257 * 768 * 2, (p, total)
'
run advise gpt2 --batch 8 --seq 1024 --precision fp16 --optimizer sgd --attention eager --memory 80GiB --gpus 2 --strategy zero3 --json
assert_json "ZeRO-3 keeps its flat gradient partitions: the sum stands" '
p = d["per_gpu"]
total = sum(v for k, v in p["breakdown"].items() if k != "cuda_context_bytes")
assert p["peak_allocated_bytes"] == total, (p, total)
'
run advise gpt2 --batch 8 --seq 1024 --precision fp16 --optimizer sgd --attention eager --memory 80GiB
assert_contains "$out" "not together" "the text shows what the overlap takes off the sum"
assert_contains "$out" "gradients made as backward frees the activations" "and why"
run advise gpt2 --batch 8 --seq 1024 --precision fp16 --optimizer sgd --attention eager --torch 1.13 --memory 80GiB
assert_not_contains "$out" "not together" "before PyTorch 2.0 the sum stands"

# ---- AutoAWQ's fused layers ---------------------------------------------------
run advise llama-2-7b --task infer --seq 128 --new-tokens 64 --weights gptq4 --precision fp16 --memory 24GiB --json
cp "$TMPD/out" "$TMPD/awq_plain.json"
run advise llama-2-7b --task infer --seq 128 --new-tokens 64 --weights gptq4 --precision fp16 --autoawq-fused --memory 24GiB --json
assert_json "--autoawq-fused: the cache for the new tokens, the load's q/k/v copies in the weights" '
import json
z = json.load(open("'"$TMPD"'/awq_plain.json"))["per_gpu"]
p = d["per_gpu"]
assert d["options"]["autoawq_fused"] is True and d["options"]["attention"] == "eager", d["options"]
assert z["breakdown"]["kv_cache_bytes"] == 2 * p["breakdown"]["kv_cache_bytes"], (z, p)
qkv = 32 * 4096 * 3 * 4096 * (0.5 + 2.5 / 128)
# the load peak has no workspace yet (the first matmul comes after)
assert p["breakdown"]["weights_bytes"] > z["breakdown"]["weights_bytes"] + qkv - z["breakdown"]["workspace_bytes"], (z, p)
total = sum(v for k, v in p["breakdown"].items() if k != "cuda_context_bytes")
assert p["peak_allocated_bytes"] == total, p
'
assert_json "without it: false" 'assert json.load(open("'"$TMPD"'/awq_plain.json"))["options"]["autoawq_fused"] is False'
run advise llama-2-7b --task infer --seq 128 --new-tokens 64 --weights gptq4 --autoawq-fused --memory 24GiB
assert_contains "$out" "AutoAWQ's fused layers" "the run line says so"
for bad in "--task lora" "--task infer --weights nf4" "--task infer --weights gptq4 --gpus 2"; do
	# shellcheck disable=SC2086
	run advise llama-2-7b $bad --autoawq-fused --memory 24GiB
	assert_eq "$rc" 2 "--autoawq-fused with $bad is a usage error"
	assert_contains "$err" "--autoawq-fused applies to --task infer with --weights gptq4 (AutoAWQ's 4-bit AWQ weights) on one GPU" "says why: $bad"
done
run advise llama-2-7b --task infer --weights gptq4 --attention sdpa --autoawq-fused --memory 24GiB
assert_eq "$rc" 1 "--autoawq-fused with --attention sdpa is refused"
assert_contains "$err" "AutoAWQ's own attention" "says why"
# AutoAWQ 0.2.7: Llama-shaped fused layers call SDPA, so a long prefill keeps no scores
run advise llama-3-8b --task infer --seq 8192 --new-tokens 4096 --weights gptq4 --precision fp16 --autoawq-fused --gpu "RTX 4090" --json
cp "$TMPD/out" "$TMPD/awq_old.json"
run advise llama-3-8b --task infer --seq 8192 --new-tokens 4096 --weights gptq4 --precision fp16 --autoawq-fused --autoawq 0.2.7 --gpu "RTX 4090" --json
assert_json "--autoawq 0.2.7: SDPA, no scores" '
import json
z = json.load(open("'"$TMPD"'/awq_old.json"))
assert z["options"]["autoawq"] is None and z["options"]["attention"] == "eager", z["options"]
assert d["options"]["autoawq"] == "0.2.7" and d["options"]["attention"] == "sdpa", d["options"]
scores = 32 * 4096 * 4096 * (4 + 2 + 4)
a, b = z["per_gpu"]["breakdown"]["activations_bytes"], d["per_gpu"]["breakdown"]["activations_bytes"]
assert a - b > scores * 0.9, (a, b)
assert d["per_gpu"]["breakdown"]["kv_cache_bytes"] == z["per_gpu"]["breakdown"]["kv_cache_bytes"]
'
run advise llama-3-8b --task infer --seq 8192 --new-tokens 4096 --weights gptq4 --autoawq-fused --autoawq 0.2.7.post3 --gpu "RTX 4090"
assert_contains "$out" "AutoAWQ 0.2.7" "the run line names the release"
run advise llama-3-8b --task infer --weights gptq4 --autoawq 0.2.7 --gpu "RTX 4090"
assert_eq "$rc" 2 "--autoawq without --autoawq-fused is a usage error"
assert_contains "$err" "--autoawq names the AutoAWQ release of --autoawq-fused" "says why"
run advise llama-3-8b --task infer --weights gptq4 --autoawq-fused --autoawq latest --gpu "RTX 4090"
assert_eq "$rc" 2 "--autoawq latest is a usage error"
assert_contains "$err" "an AutoAWQ version is MAJOR.MINOR[.PATCH]" "says what it takes"

# ---- a model built on the GPU (--init-on-gpu) ------------------------------------
run advise gpt2 --task infer --seq 3 --new-tokens 1 --precision fp32 --attention eager --memory 24GiB --json
cp "$TMPD/out" "$TMPD/loaded.json"
run advise gpt2 --task infer --seq 3 --new-tokens 1 --precision fp32 --attention eager --memory 24GiB --init-on-gpu --json
assert_json "--init-on-gpu: the tied head's own weight stays reserved, allocated unchanged" '
import json, math
z = json.load(open("'"$TMPD"'/loaded.json"))["per_gpu"]
p = d["per_gpu"]
assert d["options"]["init_on_gpu"] is True, d["options"]
head = math.ceil(50257 * 768 * 4 / 2**21) * 2**21
assert p["peak_allocated_bytes"] == z["peak_allocated_bytes"], (z, p)
run = z["peak_reserved_bytes"] - (z["peak_allocated_bytes"] - z["breakdown"]["weights_bytes"])
assert abs(p["peak_reserved_bytes"] - (run + head)) < 2, (z, p)
'
run advise gpt2 --task infer --seq 3 --new-tokens 1 --memory 24GiB --init-on-gpu
assert_contains "$(printf '%s' "$out" | tr -s '\n ' '  ')" ", built on the GPU" "the run line says so"

# ---- a script's own prompt forward (--loop plain in inference) -------------------
run advise llama-3-8b --task infer --seq 8192 --new-tokens 4096 --precision fp16 --attention sdpa --memory 80GiB --json
cp "$TMPD/out" "$TMPD/gen.json"
run advise llama-3-8b --task infer --seq 8192 --new-tokens 4096 --precision fp16 --attention sdpa --loop plain --memory 80GiB --json
assert_json "--loop plain: every prompt position's logits, in fp16 on a current transformers" '
import json
g = json.load(open("'"$TMPD"'/gen.json"))["per_gpu"]["breakdown"]["activations_bytes"]
p = d["per_gpu"]["breakdown"]["activations_bytes"]
assert d["options"]["loop"] == "plain", d["options"]
assert p == 2 * 2 * 4096 * 4096 + 4096 * 128256 * 2 and g < p / 2, (g, p)
'
run advise llama-3-8b --task infer --seq 8192 --new-tokens 4096 --precision fp16 --attention sdpa --loop plain --transformers 4.45 --memory 80GiB --json
assert_json "before 4.46 the Llama family's fp32 copy too" '
p = d["per_gpu"]["breakdown"]["activations_bytes"]
assert p == 2 * 2 * 4096 * 4096 + 4096 * 128256 * 6, p
'

# ---- ZeRO-3 with the model built outside zero.Init -------------------------------
run advise llama-3-8b --batch 1 --seq 1 --precision fp16 --gpus 8 --strategy zero3 --memory 80GiB --json
cp "$TMPD/out" "$TMPD/zinit.json"
run advise llama-3-8b --batch 1 --seq 1 --precision fp16 --gpus 8 --strategy zero3 --no-zero-init --memory 80GiB --json
assert_json "--no-zero-init: every linear weight and the head, gathered in fp16, held until backward" '
import json
z = json.load(open("'"$TMPD"'/zinit.json"))
p = d["per_gpu"]["breakdown"]
held = 2 * (32 * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336) + 128256 * 4096)
assert d["options"]["no_zero_init"] is True and z["options"]["no_zero_init"] is False, d["options"]
assert p["workspace_bytes"] == z["per_gpu"]["breakdown"]["workspace_bytes"] + held, (p, z["per_gpu"])
# the step (after backward) no longer sets the peak: the optimizer term is the states alone
assert p["optimizer_bytes"] == 12 * 8030261248 // 8, p
'
run advise llama-3-8b --batch 1 --seq 1 --precision fp16 --gpus 8 --strategy zero3 --no-zero-init --memory 80GiB
assert_contains "$out" "without zero.Init" "the run line says so"
run advise llama-3-8b --gpus 8 --strategy zero2 --no-zero-init --memory 80GiB
assert_eq "$rc" 1 "--no-zero-init without zero3 is refused"
assert_contains "$err" "needs --strategy zero3" "says why"

# ---- ZeRO-3's side streams in the reserve ----------------------------------------
run advise llama-3-8b --batch 1 --seq 1 --precision fp16 --gpus 8 --strategy zero3 --no-zero-init --memory 80GiB --json
assert_json "ZeRO-3: the all-gather pool at the step and the reduce-scatter copy are reserved, not allocated" '
p = d["per_gpu"]
b = p["breakdown"]
ac, gr = b["activations_bytes"], b["gradients_bytes"]
slack = 0.10 * ac + 0.10 * gr + 2 * 2**20
step = 6 * 1e9                       # the fp32 step gradient of a 1e9-element sub-group
held = 2 * (32 * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336) + 128256 * 4096)
pools = min(held, step - ac) + 5e8 * 2
assert abs(p["peak_reserved_bytes"] - (p["peak_allocated_bytes"] + slack + pools)) < 16, (p, slack, pools)
'
run advise gpt2 --batch 2 --seq 128 --precision fp16 --strategy zero3 --memory 80GiB --json
assert_json "ZeRO-3 on one GPU: no gather pool, the reduce-scatter copy of every gradient (fewer than the bucket)" '
p = d["per_gpu"]
b = p["breakdown"]
slack = 0.10 * (b["activations_bytes"] + b["gradients_bytes"]) + 2 * 2**20
assert abs(p["peak_reserved_bytes"] - (p["peak_allocated_bytes"] + slack + 2 * 124439808)) < 16, p
'
run advise gpt2 --batch 2 --seq 128 --precision fp16 --gpus 2 --strategy zero2 --memory 80GiB --json
assert_json "ZeRO-2 reduces on the default stream: the slack alone" '
p = d["per_gpu"]
b = p["breakdown"]
slack = 0.10 * (b["activations_bytes"] + b["gradients_bytes"]) + 2 * 2**20
assert abs(p["peak_reserved_bytes"] - (p["peak_allocated_bytes"] + slack)) < 16, p
'

# ---- a loss without cross-entropy (--loss sum) ------------------------------------
run advise gpt2 --batch 2 --seq 512 --precision fp16 --optimizer sgd --memory 80GiB --json
cp "$TMPD/out" "$TMPD/ce.json"
run advise gpt2 --batch 2 --seq 512 --precision fp16 --optimizer sgd --loss sum --memory 80GiB --json
assert_json "--loss sum: no fp32 copy or log-softmax, the logits' gradient instead" '
import json
c = json.load(open("'"$TMPD"'/ce.json"))
assert d["options"]["loss"] == "sum" and c["options"]["loss"] == "cross-entropy", (d["options"], c["options"])
a = d["per_gpu"]["breakdown"]["activations_bytes"]
assert c["per_gpu"]["breakdown"]["activations_bytes"] - a == 2 * 512 * 50257 * 6, (a, c["per_gpu"])
'
run advise gpt2 --batch 2 --seq 512 --precision fp16 --optimizer sgd --loss sum --memory 80GiB
assert_contains "$out" "logits.sum()" "the run line says so"
run advise gpt2 --task infer --loss sum --memory 80GiB
assert_eq "$rc" 2 "--loss with inference is refused"
run advise gpt2 --loss sum --loss-chunks 8 --memory 80GiB
assert_eq "$rc" 2 "--loss sum with --loss-chunks is refused"
run advise gpt2 --loss mse --memory 80GiB
assert_eq "$rc" 2 "an unknown --loss is refused"
assert_contains "$err" "cross-entropy sum" "names the choices"

# ---- Adam's step by PyTorch release ------------------------------------------------
run advise gpt2 --batch 1 --seq 16 --precision fp16 --attention eager --memory 80GiB --json
cp "$TMPD/out" "$TMPD/step21.json"
run advise gpt2 --batch 1 --seq 16 --precision fp16 --attention eager --torch 2.0 --memory 80GiB --json
assert_json "PyTorch 2.0's foreach Adam keeps denom beside exp_avg_sq_sqrt: a second state-sized list" '
import json
z = json.load(open("'"$TMPD"'/step21.json"))["per_gpu"]
p = d["per_gpu"]
extra = p["breakdown"]["optimizer_bytes"] - z["breakdown"]["optimizer_bytes"]
assert abs(extra - 2 * d["model"]["params"]) <= 1, (extra, d["model"]["params"])
'

# ---- a tied embedding's second gradient at the end of backward ---------------------
sed 's/"tie_word_embeddings": false/"tie_word_embeddings": true/' bench/data/configs/gpt2-124m-untied.json > "$TMPD/gpt2-tied.json"
run advise bench/data/configs/gpt2-124m-untied.json --batch 1 --seq 16 --precision fp16 --optimizer sgd --memory 80GiB --json
cp "$TMPD/out" "$TMPD/untied.json"
run advise "$TMPD/gpt2-tied.json" --batch 1 --seq 16 --precision fp16 --optimizer sgd --memory 80GiB --json
assert_json "tied: the embedding's dense gradient beside every gradient (V x h more at the end of backward)" '
import json
u = json.load(open("'"$TMPD"'/untied.json"))["per_gpu"]
t = d["per_gpu"]
# tied: one vocab x h matrix fewer in the weights and in the gradients,
# but the dense gradient of the embedding beside them at the end of backward
extra = t["peak_allocated_bytes"] - u["peak_allocated_bytes"]
assert abs(extra + 50257 * 768 * 2) <= 4, extra
'

# ---- a plain loop keeps its logits through backward's end ---------------------------
run advise gpt2 --batch 1 --seq 16 --precision fp16 --optimizer sgd --memory 80GiB --json
cp "$TMPD/out" "$TMPD/trainer.json"
run advise gpt2 --batch 1 --seq 16 --precision fp16 --optimizer sgd --loop plain --memory 80GiB --json
assert_json "--loop plain: outputs stays bound, so its logits are alive beside every gradient" '
import json
t = json.load(open("'"$TMPD"'/trainer.json"))["per_gpu"]
extra = d["per_gpu"]["peak_allocated_bytes"] - t["peak_allocated_bytes"]
assert abs(extra - 16 * 50257 * 2) <= 4, extra
'

# ---- paged optimizer states: managed memory, outside the caching allocator ---------
run advise gpt2 --batch 2 --seq 128 --precision fp32 --optimizer adamw-8bit --memory 80GiB --json
cp "$TMPD/out" "$TMPD/adamw8.json"
run advise gpt2 --batch 2 --seq 128 --precision fp32 --optimizer paged-adamw-8bit --memory 80GiB --json
assert_json "paged-adamw-8bit: the states on the device, not in allocated or reserved" '
import json
a = json.load(open("'"$TMPD"'/adamw8.json"))["per_gpu"]
p = d["per_gpu"]
n = d["model"]["params"]
assert a["breakdown"]["paged_bytes"] == 0 and p["breakdown"]["paged_bytes"] == 2 * n, p["breakdown"]
assert abs(a["peak_allocated_bytes"] - p["peak_allocated_bytes"] - 2 * n) <= 4, (a, p)
assert p["peak_device_bytes"] == p["peak_reserved_bytes"] + p["breakdown"]["cuda_context_bytes"] + 2 * n, p
'
run advise gpt2 --batch 2 --seq 128 --precision fp32 --optimizer paged-adamw-8bit --memory 80GiB
assert_contains "$out" "paged states" "the text breakdown names them"

finish
