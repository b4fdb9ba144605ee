/* The memory of the serving engines: llama.cpp (and ollama, which runs
 * it) on a GGUF file, vLLM on a Hugging Face model (docs/advise.md, "GGUF
 * and the serving engines"). Pure arithmetic over the model and options. */
#include <math.h>
#include <string.h>

#include "core/util.h"
#include "core/error.h"
#include "gpuwise/advise.h"
#include "advise/advise_int.h"
#include "advise/gguf_int.h"

#define MIB (1024.0 * 1024.0)

/* Bytes of n cache elements of type t (ggml's Q8_0, Q4_0 blocks of 32). */
static double kv_elem_bytes(gw_kv_type t, double n)
{
	switch (t) {
	case GW_KV_Q8_0: return n * 34.0 / 32.0;
	case GW_KV_Q4_0: return n * 18.0 / 32.0;
	case GW_KV_F32: return n * 4;
	default: return n * 2;
	}
}

static uint64_t meta(const gw_gguf *g, const char *key, uint64_t def)
{
	uint64_t v;

	return gw_gguf_get_u64(g, key, &v) == 0 && v ? v : def;
}

/* llama.cpp (src/llama-model.cpp, load_tensors; src/llama-kv-cache.cpp):
 * -ngl N puts the last N repeating layers on the GPU (i ≥ block_count −
 * N) and, when N exceeds block_count, the output layer too; the token
 * embedding stays in host memory. A model without output.weight reuses
 * the embedding as its output, loaded a second time where the output
 * layer lives. The KV cache of an offloaded layer is on the GPU: -c
 * tokens (every --parallel slot shares them, ctx / parallel each) of
 * head_count_kv × key_length keys and × value_length values, in
 * --cache-type-k/-v; DeepSeek's MLA caches kv_lora_rank + the rotary
 * dimensions per token as the key and no separate value. The compute
 * buffer is what ggml's graph allocator (ggml/src/ggml-alloc.c,
 * ggml_gallocr) reserves for the worst-case graph of one ubatch: a
 * tensor's memory is reused once its last consumer has run, so the
 * buffer holds the largest set of tensors alive at once, not their sum
 * (the logs of bench/data/engine_logs.tsv print these stages to the
 * MiB). Its stages: the output (the final norm and the logits),
 * attention (without -fa the scores, ubatch × heads × ctx, softmax in
 * place; the mask, ubatch × ctx, f16 under -fa: src/llama-graph.cpp
 * build_attn_inp_kq_mask at 00395eb2; four ubatch × embedding tensors: the
 * residual, the normed input, the queries and the attention output) and
 * the MLP (gate and up beside the residual and its input), all f32. */
static double compute_buffer(uint64_t ub, uint64_t ctx, uint64_t vocab, uint64_t heads, uint64_t ff,
			     uint64_t embd, bool output_gpu, bool flash_attn)
{
	double out = output_gpu ? (double)vocab + (double)embd : 0;
	double mask = flash_attn ? (double)ctx / 2 : (double)ctx;   /* f16 under -fa */
	double attn = (flash_attn ? 0 : (double)heads * (double)ctx) + mask + 4.0 * (double)embd;
	double mlp = 2.0 * (double)ff + 2.0 * (double)embd;
	double peak = out > attn ? out : attn;

	if (ub > ctx)
		ub = ctx;
	return 4.0 * (double)ub * (peak > mlp ? peak : mlp);
}

/* llama.cpp's interleaved sliding-window layers (each architecture's
 * load_arch_hparams: src/models/gemma2.cpp read at ggml-org/llama.cpp
 * 82234e08; Gemma 3's, gpt-oss's (llama_model_openai_moe) and Llama 4's
 * loaders as the public code index holds them): the window is
 * {arch}.attention.sliding_window (Gemma 2: 4096 when absent; Llama 4:
 * chunks of 8192), the period {arch}.attention.sliding_window_pattern
 * when it is a number, else the architecture's (Gemma 2 and gpt-oss 2,
 * Gemma 3 6, Llama 4 4); set_swa_pattern(n) makes layer i sliding when
 * n is 0 or i mod n < n - 1. A pattern given per layer (an array) is not
 * read: the architecture's period is used. False: no sliding layers. */
static bool swa_pattern(const gw_gguf *g, uint64_t *window, uint64_t *period)
{
	static const struct { const char *arch; uint64_t period, window; } known[] = {
		{ "gemma2", 2, 4096 }, { "gemma3", 6, 0 }, { "gpt-oss", 2, 0 }, { "llama4", 4, 8192 },
	};
	const char *arch = gw_gguf_architecture(g);
	uint64_t p = 0, w = 0, v;
	bool have_p = false;

	for (size_t i = 0; i < GW_ARRAY_SIZE(known); i++)
		if (!strcmp(arch, known[i].arch))
			p = known[i].period, w = known[i].window, have_p = true;
	if (strcmp(arch, "llama4") && gw_gguf_get_u64(g, "{arch}.attention.sliding_window", &v) == 0)
		w = v;
	if (gw_gguf_get_u64(g, "{arch}.attention.sliding_window_pattern", &v) == 0 &&
	    !gw__gguf_is_array(g, "{arch}.attention.sliding_window_pattern"))
		p = v, have_p = true;
	*window = w;
	*period = p;
	return have_p && w > 0;
}

static bool swa_layer(uint64_t il, uint64_t period)
{
	return period == 0 || il % period < period - 1;
}

/* The SWA cache's cells (src/llama-kv-cache-iswa.cpp, llama_kv_cache_iswa,
 * read at 02c28f53): the window of every slot (llama-server's unified
 * cache) and one ubatch, at most the context, padded to 256. */
static uint64_t swa_cells(uint64_t window, uint64_t parallel, uint64_t ub, uint64_t ctx)
{
	uint64_t n = window * parallel + ub;

	if (n > ctx)
		n = ctx;
	return (n + 255) / 256 * 256;
}

/* llama.cpp's memory of a GGUF model (above). */
int gw_advise_llamacpp(gw_llamacpp_estimate *out, const gw_gguf *g, const gw_llamacpp_options *o)
{
	gw_llamacpp_estimate e;
	uint64_t L, embd, heads, kvh, kl, vl, lora, rope, vocab, ff, ub, start, window, period;
	bool output_gpu, has_output = false;
	double per_layer, compute, embed_bytes = 0;

	if (!out || !g || !o)
		return gw__error_set(GW_EINVAL, "no GGUF or options");
	if (o->version != GW_LLAMACPP_OPTIONS_VERSION)
		return gw__error_set(GW_EINVAL, "unknown gw_llamacpp_options version %u", o->version);
	for (size_t i = 0; i < GW_ARRAY_SIZE(o->reserved); i++)
		if (o->reserved[i])
			return gw__error_set(GW_EINVAL, "gw_llamacpp_options' reserved fields must be 0");
	if (gw_gguf_get_u64(g, "{arch}.block_count", &L) < 0 || !L || L > 65536)
		return gw__error_set(GW_EPARSE, "the GGUF file has no %s.block_count", gw_gguf_architecture(g));
	memset(&e, 0, sizeof(e));
	embd = meta(g, "{arch}.embedding_length", 1);
	heads = meta(g, "{arch}.attention.head_count", 1);
	kvh = meta(g, "{arch}.attention.head_count_kv", heads);
	kl = meta(g, "{arch}.attention.key_length", embd / heads ? embd / heads : 1);
	vl = meta(g, "{arch}.attention.value_length", kl);
	lora = meta(g, "{arch}.attention.kv_lora_rank", 0);
	rope = meta(g, "{arch}.rope.dimension_count", 0);
	vocab = meta(g, "{arch}.vocab_size", meta(g, "tokenizer.ggml.tokens", 32000));
	ff = meta(g, "{arch}.feed_forward_length", 4 * embd);
	ub = o->ubatch ? o->ubatch : 512;
	e.layers = L;
	e.gpu_layers = o->ngl < 0 || (uint64_t)o->ngl >= L ? L : (uint64_t)o->ngl;
	output_gpu = o->ngl < 0 || (uint64_t)o->ngl > L;
	start = L - e.gpu_layers;
	e.ctx = o->ctx ? o->ctx : 4096;
	e.parallel = o->parallel ? o->parallel : 1;
	e.ctx_per_slot = e.ctx / e.parallel;
	for (size_t i = 0; i < gw_gguf_tensor_count(g); i++) {
		const gw_gguf_tensor *t = gw_gguf_tensor_at(g, i);
		bool gpu;
		if (t->layer >= 0)
			gpu = (uint64_t)t->layer >= start && (uint64_t)t->layer < L;
		else if (!strncmp(t->name, "token_embd.", 11))
			gpu = false, embed_bytes += (double)t->bytes * (strstr(t->name, "weight") ? 1 : 0);
		else
			gpu = output_gpu;
		if (!strcmp(t->name, "output.weight"))
			has_output = true;
		if (gpu)
			e.weights_gpu_bytes += t->bytes;
		else
			e.weights_cpu_bytes += t->bytes;
	}
	if (!has_output && output_gpu)   /* tied: the embedding again, as the output */
		e.weights_gpu_bytes += (uint64_t)embed_bytes;
	if (lora)
		per_layer = kv_elem_bytes(o->cache_k, (double)(lora + rope));
	else
		per_layer = kv_elem_bytes(o->cache_k, (double)(kvh * kl)) + kv_elem_bytes(o->cache_v, (double)(kvh * vl));
	e.kv_bytes_per_token = (uint64_t)ceil(per_layer * (double)L);
	if (!lora && swa_pattern(g, &window, &period)) {
		/* sliding layers keep their own cache of swa_cells, in f16 whatever
		 * the cache type (llama.cpp PR #21277, 2026-04) */
		double swa_layer_bytes = kv_elem_bytes(GW_KV_F16, (double)(kvh * kl)) +
					 kv_elem_bytes(GW_KV_F16, (double)(kvh * vl));
		double cells = (double)swa_cells(window, e.parallel, ub < e.ctx ? ub : e.ctx, e.ctx), kv = 0;
		for (uint64_t il = start; il < L; il++)
			kv += swa_layer(il, period) ? swa_layer_bytes * cells : per_layer * (double)e.ctx;
		e.kv_cache_bytes = (uint64_t)ceil(kv);
	} else {
		e.kv_cache_bytes = (uint64_t)ceil(per_layer * (double)e.gpu_layers * (double)e.ctx);
	}
	compute = compute_buffer(ub, e.ctx, vocab, heads, ff, embd, output_gpu, o->flash_attn);
	e.compute_bytes = e.gpu_layers || output_gpu ? (uint64_t)compute : 0;
	e.cuda_context_bytes = (uint64_t)(384 * MIB);
	e.total_gpu_bytes = e.weights_gpu_bytes + e.kv_cache_bytes + e.compute_bytes + e.cuda_context_bytes;
	*out = e;
	return 0;
}

uint64_t gw_advise_llamacpp_max_parallel(const gw_gguf *g, const gw_llamacpp_options *o, uint64_t seq,
					 uint64_t memory_bytes)
{
	gw_llamacpp_options p = *o;
	gw_llamacpp_estimate e;
	uint64_t lo = 0, hi = 1u << 16;

	if (!seq)
		return 0;
	while (lo < hi) {   /* the largest n with n slots of seq tokens fitting */
		uint64_t mid = lo + (hi - lo + 1) / 2;
		p.parallel = mid;
		p.ctx = mid * seq;
		if (gw_advise_llamacpp(&e, g, &p) == 0 && e.total_gpu_bytes <= memory_bytes)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* vLLM (vllm/v1/worker/gpu_worker.py determine_available_memory;
 * vllm/v1/core/kv_cache_utils.py): the budget is gpu_memory_utilization ×
 * the GPU's memory; it less the weights, the activation peak of a
 * profiling forward over max_num_batched_tokens (its profile_run: one
 * batch of that many tokens; 8192 unless given) and the
 * memory outside PyTorch (the CUDA context) is the KV cache, cut into
 * blocks of block_size tokens (16) of every layer's keys and values (MLA:
 * the latent, one tensor). A sequence of seq tokens holds ceil(seq /
 * block_size) blocks. */
int gw_advise_vllm_tokens(gw_vllm_estimate *out, const gw_model *m, const gw_advise_options *o,
			  uint64_t memory_bytes, double utilization, uint64_t block_size, uint64_t seq,
			  uint64_t batched_tokens)
{
	gw_advise_options r;
	gw_advise_estimate e;
	gw_vllm_estimate v;
	double per_token, budget, left;
	int rc;

	if (!out || !m || !o)
		return gw__error_set(GW_EINVAL, "no model or options");
	if (!(utilization > 0 && utilization <= 1))
		return gw__error_set(GW_EINVAL, "gpu_memory_utilization must be above 0 and at most 1");
	if (!memory_bytes || !seq)
		return gw__error_set(GW_EINVAL, "no GPU memory or no sequence length");
	if (m->kind != GW_MODEL_DECODER)
		return gw__error_set(GW_EINVAL, "vLLM serves decoders");
	r = *o;
	r.task = GW_TASK_INFER;
	r.batch = 1;
	r.seq = batched_tokens ? batched_tokens : 8192;
	r.new_tokens = 1;
	if ((rc = gw_advise_estimate_run(&e, m, &r)) < 0)
		return rc;
	memset(&v, 0, sizeof(v));
	v.block_size = block_size ? block_size : 16;
	v.budget_bytes = (uint64_t)(utilization * (double)memory_bytes);
	v.weights_bytes = e.weights_bytes;
	v.activation_bytes = e.activations_bytes + e.workspace_bytes;
	v.non_torch_bytes = e.cuda_context_bytes;
	if (gw__advise_text(m) && m->kv_lora_rank)
		per_token = (double)(m->kv_lora_rank + m->qk_rope_head_dim);
	else
		per_token = 2.0 * (double)(m->num_kv_heads * m->head_dim);
	per_token *= gw__advise_act_bytes(&e.resolved) * (double)m->num_layers;
	v.kv_bytes_per_token = (uint64_t)per_token;
	budget = (double)v.budget_bytes;
	left = budget - (double)v.weights_bytes - (double)v.activation_bytes - (double)v.non_torch_bytes;
	if (left > 0 && per_token > 0) {
		v.blocks = (uint64_t)floor(left / (per_token * (double)v.block_size));
		v.kv_cache_bytes = (uint64_t)((double)v.blocks * per_token * (double)v.block_size);
		v.max_sequences = v.blocks / ((seq + v.block_size - 1) / v.block_size);
	}
	*out = v;
	return 0;
}

int gw_advise_vllm(gw_vllm_estimate *out, const gw_model *m, const gw_advise_options *o, uint64_t memory_bytes,
		   double utilization, uint64_t block_size, uint64_t seq)
{
	return gw_advise_vllm_tokens(out, m, o, memory_bytes, utilization, block_size, seq, 0);
}
