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

finish
