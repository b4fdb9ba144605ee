#!/usr/bin/env bash
# gpuwise advise on today's models: mixture of experts, latent attention,
# sliding windows, vision-language configs (tests/fixtures/advise-configs/
# README.md: where each config.json and each published count comes from),
# GGUF files and the serving engines' KV blocks.
set -u
. "$(dirname "$0")/lib.sh"

# ---- published totals within 1 %, active counts within the row's tolerance ------
while IFS=$'\t' read -r file total active tol what; do
	case $file in '#'* | '') continue ;; esac
	run advise "tests/fixtures/advise-configs/$file" --task infer --seq 4096 --memory 80GiB --json
	case $rc in 0 | 1) ;; *) fail "$file: exit $rc: $err" ;; esac
	assert_json "$file: $total parameters ($what), $active active" "
m = d['model']
total, active = float('$total'), '$active'
assert abs(m['params'] - total) <= 0.01 * total, (m['params'], total)
if active == '-':
    assert m['params_active'] is None and m['moe'] is None, m
else:
    a = m['params_active']
    if 'without the input embedding' in '''$what''':
        a -= m['vocab_size'] * m['hidden_size']
    assert abs(a - float(active)) <= float('$tol') * float(active), (a, active)
    assert m['moe']['experts_per_token'] <= m['moe']['experts'], m['moe']
b = d['per_gpu']['breakdown']
assert b['kv_cache_bytes'] > 0 and b['weights_bytes'] >= 2 * m['params'] * 0.99, b
"
done <tests/fixtures/advise-configs/published.tsv

# ---- the KV cache: latent attention expanded, sliding windows --------------------
run advise tests/fixtures/advise-configs/deepseek-v3.json --task infer --seq 4096 --memory 2TiB --json
assert_json "DeepSeek-V3: transformers caches 128 heads × (192 + 128) per token and layer" "
m, b = d['model'], d['per_gpu']['breakdown']
assert m['mla'] == {'kv_lora_rank': 512, 'qk_rope_head_dim': 64, 'v_head_dim': 128}, m['mla']
assert b['kv_cache_bytes'] == 128 * (192 + 128) * 2 * 61 * 4096, b
assert m['moe']['moe_layers'] == 58 and m['moe']['shared_experts'] == 1, m['moe']
"
run advise tests/fixtures/advise-configs/gemma-2-9b.json --task infer --seq 8192 --memory 80GiB --json
assert_json "Gemma 2: 21 of 42 layers cache 4096 tokens, 21 the whole 8192" "
m, b = d['model'], d['per_gpu']['breakdown']
assert m['sliding_window'] == 4096 and m['sliding_layers'] == 21, m
assert b['kv_cache_bytes'] == 2 * 8 * 256 * 2 * (21 * 8192 + 21 * 4096), b
"
run advise tests/fixtures/advise-configs/gpt-oss-20b.json --task infer --seq 1000 --memory 80GiB --json
assert_json "gpt-oss: layer_types alternate, 128-token windows" "
m, b = d['model'], d['per_gpu']['breakdown']
assert m['sliding_window'] == 128 and m['sliding_layers'] == 12, m
assert b['kv_cache_bytes'] == 2 * 8 * 64 * 2 * (12 * 1000 + 12 * 128), b
"
run advise tests/fixtures/advise-configs/mixtral-8x7b.json --task infer --seq 1024
assert_contains "$out" "mixture of experts: 8 experts, 2 per token, 0 shared, in 32 of 32" "the text names the experts"
printf '{"model_type": "qwen3_moe", "vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 4, "num_attention_heads": 4, "num_experts": 8, "num_experts_per_tok": 9, "moe_intermediate_size": 32, "intermediate_size": 128}' >"$TMPD/topk.json"
run advise "$TMPD/topk.json"
assert_eq "$rc" 1 "more experts per token than experts"
assert_contains "$err" "num_experts_per_tok" "names the key"
printf '{"model_type": "qwen3_moe", "vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 4, "num_attention_heads": 4, "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 32, "intermediate_size": 128, "mlp_only_layers": [0, 2], "decoder_sparse_step": 1}' >"$TMPD/mixed.json"
run advise "$TMPD/mixed.json" --json --memory 1GiB
assert_json "mlp_only_layers: 2 of 4 layers dense" "
assert d['model']['moe']['moe_layers'] == 2, d['model']['moe']
"

# ---- GGUF files (written by tests/cli/gguf_writer.py) -----------------------------
PY=python3
total=$($PY tests/cli/gguf_writer.py "$TMPD/tiny.gguf" llama 4 256 4 2 512 1000 12) || fail "gguf_writer"
run advise "$TMPD/tiny.gguf" --memory 1GiB --seq 1024 --json
assert_eq "$rc" 0 "a small GGUF fits in 1 GiB"
assert_json "exact weight bytes from the tensor table, KV cache from the metadata" "
m, l = d['model'], d['llama_cpp']
assert m['from'] == 'gguf' and m['architecture'] == 'llama' and m['gguf_version'] == 3 and m['layers'] == 4, m
assert m['weights_bytes'] == $total, (m['weights_bytes'], $total)
assert set(m['weights_by_type']) == {'F32', 'Q4_K', 'Q6_K'}, m['weights_by_type']
assert l['gpu_layers'] == 4 and l['ctx'] == 4096 and l['cache_type'] == 'f16', l
assert l['kv_cache_bytes'] == 4096 * 4 * 2 * (2 * 64) * 2, l     # ctx x layers x (k+v) x kv_heads*head_dim x 2 bytes
emb = 256 * 1000 // 256 * 144
assert l['weights_cpu_bytes'] == emb and l['weights_gpu_bytes'] == $total - emb, l
assert l['total_gpu_bytes'] == l['weights_gpu_bytes'] + l['kv_cache_bytes'] + l['compute_bytes'] + l['cuda_context_bytes'], l
t = d['targets'][0]
assert t['fits'] and t['max_parallel'] >= 1 and t['seq'] == 1024, t
"
run advise "$TMPD/tiny.gguf" --memory 1GiB --ctx 512 --json
assert_json "compute buffer: the graph allocator's peak stage, not a sum (here attention: 4 heads x 512 scores, the mask)" "
assert d['llama_cpp']['compute_bytes'] == 4 * 512 * (4 * 512 + 512 + 4 * 256), d['llama_cpp']
"
run advise "$TMPD/tiny.gguf" --memory 1GiB --ctx 4096 --json
assert_json "compute buffer without -fa at 4096 tokens: the scores grow with the context" "
assert d['llama_cpp']['compute_bytes'] == 4 * 512 * (4 * 4096 + 4096 + 4 * 256), d['llama_cpp']
"
run advise "$TMPD/tiny.gguf" --memory 1GiB --ctx 4096 --flash-attn --json
assert_json "with -fa at 4096 tokens: no scores, the mask in f16 beside four embedding-wide tensors" "
assert d['llama_cpp']['compute_bytes'] == 4 * 512 * (4096 // 2 + 4 * 256), d['llama_cpp']
"
run advise "$TMPD/tiny.gguf" --memory 1GiB --ctx 256 --flash-attn --json
assert_json "with -fa the scores are gone: the MLP's stage (gate and up beside the residual and its input)" "
assert d['llama_cpp']['compute_bytes'] == 4 * 256 * (2 * 512 + 2 * 256), d['llama_cpp']
"
run advise "$TMPD/tiny.gguf" --memory 1GiB --ctx 8192 --parallel 4 --cache-type q8_0 --ngl 2 --json
assert_json "-ngl 2 of 4: the last two layers and their KV cache on the GPU, q8_0 cache, 4 slots" "
l = d['llama_cpp']
assert l['gpu_layers'] == 2 and l['parallel'] == 4 and l['ctx_per_slot'] == 2048, l
assert l['kv_cache_bytes'] == 8192 * 2 * 2 * (128 * 34 // 32), l
assert l['weights_cpu_bytes'] > l['weights_gpu_bytes'] > 0, l
"
run advise "$TMPD/tiny.gguf" --memory 1GiB --ngl 0 --json
assert_json "-ngl 0: nothing but the CUDA context and no compute buffer on the GPU" "
l = d['llama_cpp']
assert l['gpu_layers'] == 0 and l['weights_gpu_bytes'] == 0 and l['kv_cache_bytes'] == 0 and l['compute_bytes'] == 0, l
"
run advise "$TMPD/tiny.gguf" --memory 400MiB
assert_eq "$rc" 1 "does not fit beside the CUDA context"
assert_contains "$out" "does not fit" "says so"
assert_contains "$out" "GGUF v3, llama" "names the file's version and architecture"
$PY - "$TMPD/tied.gguf" <<'PYEOF' || fail "gguf_writer tied"
import sys; sys.path.insert(0, 'tests/cli'); import gguf_writer as w
w.write(sys.argv[1], layers=2, embd=64, heads=2, kvh=1, ff=64, vocab=512, qtype=8, tied=True)
PYEOF
run advise "$TMPD/tied.gguf" --memory 1GiB --json
assert_json "no output.weight: the embedding is loaded again as the output, on the GPU" "
l = d['llama_cpp']
assert l['weights_gpu_bytes'] == d['model']['weights_bytes'] and l['weights_cpu_bytes'] == 64 * 512 // 32 * 34, l
"
run advise "$TMPD/tied.gguf" --memory 1GiB --ctx 256 --flash-attn --json
assert_json "-fa and a vocabulary wider than the MLP: the output stage, ubatch x (vocab + embd) f32" "
assert d['llama_cpp']['compute_bytes'] == 4 * 256 * (512 + 64), d['llama_cpp']
"
# sliding windows (llama.cpp's iSWA cache): Gemma 2 slides on even layers, its SWA cache holds
# pad256(min(ctx, window x slots + ubatch)) cells, in f16 whatever --cache-type says
$PY - "$TMPD" <<'PYEOF' || fail "gguf_writer swa"
import sys; sys.path.insert(0, 'tests/cli'); import gguf_writer as w
d = sys.argv[1]
w.write(d + '/g2.gguf', arch='gemma2', layers=4, embd=256, heads=4, kvh=2, ff=512, vocab=1000, qtype=8,
        extra={'gemma2.attention.sliding_window': 128}, data=False)
w.write(d + '/g3.gguf', arch='gemma3', layers=12, embd=256, heads=4, kvh=2, ff=512, vocab=1000, qtype=8,
        extra={'gemma3.attention.sliding_window': 128}, data=False)
w.write(d + '/g3p.gguf', arch='gemma3', layers=12, embd=256, heads=4, kvh=2, ff=512, vocab=1000, qtype=8,
        extra={'gemma3.attention.sliding_window': 128, 'gemma3.attention.sliding_window_pattern': 3}, data=False)
w.write(d + '/g3a.gguf', arch='gemma3', layers=12, embd=256, heads=4, kvh=2, ff=512, vocab=1000, qtype=8,
        extra={'gemma3.attention.sliding_window': 128, 'gemma3.attention.sliding_window_pattern': [1] * 12}, data=False)
w.write(d + '/g3n.gguf', arch='gemma3', layers=12, embd=256, heads=4, kvh=2, ff=512, vocab=1000, qtype=8, data=False)
PYEOF
tok=$((2 * 2 * 64 * 2))   # one layer's keys and values, one token, f16
run advise "$TMPD/g2.gguf" --memory 1GiB --json
assert_json "Gemma 2: layers 1 and 3 hold 4096 cells, layers 0 and 2 pad256(128 + 512) = 768" "
assert d['llama_cpp']['kv_cache_bytes'] == $tok * (2 * 4096 + 2 * 768), d['llama_cpp']
"
run advise "$TMPD/g2.gguf" --memory 1GiB --ctx 8192 --parallel 4 --json
assert_json "4 slots: the window of each, 4 x 128 + 512 = 1024 cells" "
assert d['llama_cpp']['kv_cache_bytes'] == $tok * (2 * 8192 + 2 * 1024), d['llama_cpp']
"
run advise "$TMPD/g2.gguf" --memory 1GiB --cache-type q8_0 --json
assert_json "q8_0: the full layers quantised, the sliding ones kept in f16" "
assert d['llama_cpp']['kv_cache_bytes'] == 2 * 4096 * 2 * 128 * 34 // 32 + $tok * 2 * 768, d['llama_cpp']
"
run advise "$TMPD/g2.gguf" --memory 1GiB --ctx 512 --json
assert_json "a context shorter than window + ubatch: the sliding layers hold the context, padded to 256" "
assert d['llama_cpp']['kv_cache_bytes'] == $tok * (2 * 512 + 2 * 512), d['llama_cpp']
"
run advise "$TMPD/g3.gguf" --memory 1GiB --json
assert_json "Gemma 3: five sliding layers in six (10 of 12)" "
assert d['llama_cpp']['kv_cache_bytes'] == $tok * (2 * 4096 + 10 * 768), d['llama_cpp']
"
run advise "$TMPD/g3p.gguf" --memory 1GiB --json
assert_json "sliding_window_pattern 3 overrides the period: 8 of 12 sliding" "
assert d['llama_cpp']['kv_cache_bytes'] == $tok * (4 * 4096 + 8 * 768), d['llama_cpp']
"
run advise "$TMPD/g3a.gguf" --memory 1GiB --json
assert_json "a per-layer pattern (an array) is not read: Gemma 3's period" "
assert d['llama_cpp']['kv_cache_bytes'] == $tok * (2 * 4096 + 10 * 768), d['llama_cpp']
"
run advise "$TMPD/g3n.gguf" --memory 1GiB --json
assert_json "Gemma 3 without a window: every layer holds the context" "
assert d['llama_cpp']['kv_cache_bytes'] == $tok * 12 * 4096, d['llama_cpp']
"
run advise "$TMPD/g2.gguf" --memory 1GiB --ngl 2 --json
assert_json "-ngl 2: layers 2 (sliding) and 3 (full) on the GPU" "
assert d['llama_cpp']['kv_cache_bytes'] == $tok * (4096 + 768), d['llama_cpp']
"
head -c 100 "$TMPD/tiny.gguf" >"$TMPD/cut.gguf"
run advise "$TMPD/cut.gguf"
assert_eq "$rc" 1 "a truncated GGUF file"
assert_contains "$err" "truncated" "says so"
printf 'GGUF\001\000\000\000' >"$TMPD/v1.gguf"
run advise "$TMPD/v1.gguf"
assert_eq "$rc" 1 "GGUF version 1"
assert_contains "$err" "version 1 is not supported" "says which"
run advise "$TMPD/tiny.gguf" --cache-type q5_1
assert_eq "$rc" 2 "an unknown cache type is a usage error"

# ---- vLLM: gpu_memory_utilization -> KV blocks -> sequences ------------------------
run advise tests/fixtures/advise-configs/qwen3-8b.json --task infer --seq 4096 --memory 80GiB --gpu-memory-utilization 0.9
flat=$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')
assert_contains "$flat" "vLLM at gpu_memory_utilization 0.90" "the vLLM line"
assert_contains "$flat" "blocks of 16 tokens (144.0 KiB a token)" "Qwen3-8B: 36 layers x 2 x 8 x 128 x 2 bytes a token"
run advise tests/fixtures/advise-configs/qwen3-8b.json --task infer --memory 80GiB --gpu-memory-utilization 1.5
assert_eq "$rc" 2 "a utilization above 1"
# --max-num-batched-tokens: the profiling forward's tokens; its activation peak grows with them
run advise tests/fixtures/advise-configs/qwen3-8b.json --task infer --seq 4096 --memory 80GiB --gpu-memory-utilization 0.9 --json
cp "$TMPD/out" "$TMPD/vllm-default.json"
run advise tests/fixtures/advise-configs/qwen3-8b.json --task infer --seq 4096 --memory 80GiB --gpu-memory-utilization 0.9 --max-num-batched-tokens 8192 --json
assert_json "8192 is the default" 'import json; assert d["vllm"] == json.load(open("'"$TMPD"'/vllm-default.json"))["vllm"]'
run advise tests/fixtures/advise-configs/qwen3-8b.json --task infer --seq 4096 --memory 80GiB --gpu-memory-utilization 0.9 --max-num-batched-tokens 32768 --json
assert_json "four times the profiled tokens: more activation, fewer blocks" '
import json
v, w = d["vllm"], json.load(open("'"$TMPD"'/vllm-default.json"))["vllm"]
assert v["activation_bytes"] > 3 * w["activation_bytes"] and v["blocks"] < w["blocks"], (v, w)
'
# bench/engine_accuracy.py: the figures llama.cpp and vLLM printed (bench/data/engine_logs.tsv)
# stay within their bounds; v-17122-tokens (vLLM V1 on an L40S) is the one row still out (+23 %)
$PY bench/engine_accuracy.py --gpuwise "$GW" >"$TMPD/engines" 2>&1 || fail "engine_accuracy.py: $(cat "$TMPD/engines")"
bad=$(awk '/ %  (ok|OUT)/ && $1 != "v-17122-tokens" && $NF != "ok"' "$TMPD/engines")
assert_eq "$bad" "" "every engine row but v-17122-tokens within its bound"
assert_contains "$(cat "$TMPD/engines")" "deterministic (KV buffer, weights; +-5 %): 6 of 6 within" "the deterministic rows"
# --json: the same answer as a "vllm" object after the report's keys, which stay as they are
run advise tests/fixtures/advise-configs/qwen3-8b.json --task infer --seq 4096 --memory 80GiB --json
cp "$TMPD/out" "$TMPD/no-vllm.json"
run advise tests/fixtures/advise-configs/qwen3-8b.json --task infer --seq 4096 --memory 80GiB --gpu-memory-utilization 0.9 --json
assert_eq "$rc" 0 "vLLM in JSON"
assert_json "the vllm object: blocks of 16 tokens of 144 KiB, the report's keys unchanged" '
import json
x = json.load(open("'"$TMPD"'/no-vllm.json"))
assert "vllm" not in x and list(d) == list(x) + ["vllm"], (list(d), list(x))
assert {k: d[k] for k in x} == x
v = d["vllm"]
assert v["gpu_memory_utilization"] == 0.9 and v["block_size"] == 16 and v["seq"] == 4096, v
assert v["kv_bytes_per_token"] == 36 * 2 * 8 * 128 * 2, v
assert v["blocks"] == v["kv_cache_bytes"] // (16 * v["kv_bytes_per_token"]), v
assert v["max_sequences"] == v["blocks"] * 16 // 4096 and v["max_sequences"] > 0, v
assert v["budget_bytes"] == int(0.9 * 80 * 2**30), v
'

finish
