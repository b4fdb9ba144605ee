/* Models for `advise`: the catalogue (data/models.tsv), Hugging Face
 * config.json files, and exact parameter counting per architecture.
 *
 * Counting mirrors the modules transformers builds for each model_type, so
 * `sum(p.numel() for p in model.parameters())` is what comes out: embedding
 * and position tables, every linear weight and bias, every norm, the LM
 * head unless it is tied to the embedding (tied weights count once), the
 * pooler of encoders (BertModel). The unit tests hold each catalogue row to
 * its published count. docs/advise.md lists what each family contains. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "core/error.h"
#include "core/jsonp.h"
#include "core/strbuf.h"
#include "gpuwise/advise.h"
#include "advise/advise_int.h"

#define GW_GEN_TABLE_ROWS
#include "models.h"

/* Bounds for every size: generous for any real model, small enough that
 * no product of them overflows 64 bits before the checks below see it. */
#define MAX_VOCAB (1ull << 24)
#define MAX_HIDDEN (1ull << 20)
#define MAX_LAYERS 4096ull
#define MAX_HEADS 65536ull
#define MAX_INTER (1ull << 24)
#define MAX_POSITIONS (1ull << 27)
#define MAX_IMAGE 32768ull   /* pixels per side */
#define MAX_CHANNELS 4096ull

enum family {
	FAM_LLAMA, FAM_GPT2, FAM_BERT, FAM_T5, FAM_VIT, FAM_SWIN, FAM_RESNET,
	FAM_PHI, FAM_FALCON, FAM_GPTJ, FAM_NEOX, FAM_BLOOM, FAM_BIGCODE, FAM_OPT, FAM_STARCODER2,
};

struct model_type {
	const char *name;
	enum family family;
	gw_model_kind kind;
	bool tied;          /* transformers' default for tie_word_embeddings */
	bool qkv_bias;      /* q, k, v projections have biases (Qwen2) */
	unsigned traits;    /* enum gw__advise_trait bits (advise_int.h says why each) */
};

/* Short names for the traits column below. */
#define QKV GW__TRAIT_FUSED_QKV
#define GATE_UP GW__TRAIT_FUSED_GATE_UP
#define ROTARY GW__TRAIT_FUSED_ROTARY
#define SDPA_GQA GW__TRAIT_SDPA_GQA
#define RMS GW__TRAIT_RMS_UPCAST
#define GELU_NEW GW__TRAIT_GELU_NEW
#define GELU_NEW_GATED GW__TRAIT_GELU_NEW_GATED
#define RELU_MLP GW__TRAIT_RELU_MLP
#define NO_SDPA GW__TRAIT_NO_SDPA
#define MLM GW__TRAIT_MLM_HEAD
#define LOGITS_FLOAT GW__TRAIT_LOGITS_FLOAT
#define SM32 GW__TRAIT_SOFTMAX_FP32
#define RMS_HALF GW__TRAIT_RMS_HALF_INPUT
#define MLP_DROP GW__TRAIT_MLP_DROPOUT
#define CLAMP GW__TRAIT_MASK_CLAMP
#define CONV1D GW__TRAIT_CONV1D
#define AWQ_LLAMA GW__TRAIT_AWQ_LLAMA_BLOCK

/* The model_types gpuwise counts. One row each; the reader, the error
 * message and docs/advise.md follow this table. */
static const struct model_type model_types[] = {
	{ "llama", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | LOGITS_FLOAT | SM32 | AWQ_LLAMA },
	{ "mistral", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | LOGITS_FLOAT | SM32 | AWQ_LLAMA },
	{ "qwen2", FAM_LLAMA, GW_MODEL_DECODER, false, true, RMS | LOGITS_FLOAT | SM32 | AWQ_LLAMA },
	{ "gemma", FAM_LLAMA, GW_MODEL_DECODER, true, false, RMS | LOGITS_FLOAT | SM32 | AWQ_LLAMA },
	{ "phi3", FAM_LLAMA, GW_MODEL_DECODER, false, false, QKV | GATE_UP | ROTARY | SDPA_GQA | LOGITS_FLOAT | SM32 },
	/* Llama-shaped decoders with experts, latent attention, q/k norms or
	 * sliding windows (read_text_arch() says which keys each reads). */
	{ "mixtral", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | LOGITS_FLOAT | SM32 },
	{ "qwen2_moe", FAM_LLAMA, GW_MODEL_DECODER, false, true, RMS | LOGITS_FLOAT | SM32 },
	{ "qwen3", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | SM32 },
	{ "qwen3_moe", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | SM32 },
	{ "deepseek_v2", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | SM32 },
	{ "deepseek_v3", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | SM32 },
	{ "gemma2", FAM_LLAMA, GW_MODEL_DECODER, true, false, RMS | LOGITS_FLOAT | SM32 },
	{ "gemma3_text", FAM_LLAMA, GW_MODEL_DECODER, true, false, RMS | SM32 },
	{ "phimoe", FAM_LLAMA, GW_MODEL_DECODER, false, false, SM32 },
	{ "gpt_oss", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS },
	/* Llama-shaped decoders of 2024–2025 (read_biases() and
	 * read_text_arch() say what each adds). The norm of each upcasts its
	 * input to fp32 (OlmoLayerNorm and CohereLayerNorm too: RMS); the
	 * eager softmax of each runs in fp32 (SM32). */
	{ "olmo", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | LOGITS_FLOAT | SM32 },
	{ "olmo2", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | SM32 },
	{ "granite", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | SM32 },
	{ "glm", FAM_LLAMA, GW_MODEL_DECODER, false, false, GATE_UP | RMS | SM32 },
	{ "glm4", FAM_LLAMA, GW_MODEL_DECODER, false, false, GATE_UP | RMS | SM32 },
	{ "cohere", FAM_LLAMA, GW_MODEL_DECODER, true, false, RMS | LOGITS_FLOAT | SM32 },
	{ "cohere2", FAM_LLAMA, GW_MODEL_DECODER, true, false, RMS | SM32 },
	{ "smollm3", FAM_LLAMA, GW_MODEL_DECODER, true, false, RMS | SM32 },
	{ "ernie4_5", FAM_LLAMA, GW_MODEL_DECODER, true, false, RMS | SM32 },
	{ "exaone4", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | SM32 },
	{ "helium", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | SM32 },
	/* InternLM2 is remote code (modeling_internlm2.py beside the weights):
	 * q, k, v in one wqkv, its forward casts the logits to fp32. */
	{ "internlm2", FAM_LLAMA, GW_MODEL_DECODER, false, false, QKV | RMS | LOGITS_FLOAT | SM32 },
	/* MiniCPM is remote code too: Llama's modules (its scale_emb,
	 * scale_depth and dim_model_base scale activations, not parameters),
	 * tied by default. */
	{ "minicpm", FAM_LLAMA, GW_MODEL_DECODER, true, false, RMS | LOGITS_FLOAT | SM32 },
	/* Vision-language models: a text model (text_config) and a vision
	 * tower (vision_config); the row's traits are its text model's
	 * (vlm_types[] names it). */
	{ "llava", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS | SM32 | AWQ_LLAMA },
	{ "gemma3", FAM_LLAMA, GW_MODEL_DECODER, true, false, RMS | SM32 },
	{ "qwen2_vl", FAM_LLAMA, GW_MODEL_DECODER, false, true, RMS | SM32 },
	{ "qwen2_5_vl", FAM_LLAMA, GW_MODEL_DECODER, false, true, RMS | SM32 },
	/* Llama 4: a mixture of experts with a shared expert; its eager
	 * softmax keeps the scores' type (no SM32). */
	{ "llama4_text", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS },
	{ "llama4", FAM_LLAMA, GW_MODEL_DECODER, false, false, RMS },
	{ "gpt2", FAM_GPT2, GW_MODEL_DECODER, true, false, QKV | GELU_NEW | CONV1D },
	{ "phi", FAM_PHI, GW_MODEL_DECODER, false, true, SDPA_GQA | GELU_NEW | LOGITS_FLOAT | SM32 },
	{ "falcon", FAM_FALCON, GW_MODEL_DECODER, true, false, QKV | ROTARY | SDPA_GQA | SM32 },
	{ "gptj", FAM_GPTJ, GW_MODEL_DECODER, false, false, SDPA_GQA | GELU_NEW | SM32 },
	{ "gpt_neox", FAM_NEOX, GW_MODEL_DECODER, false, true, QKV | ROTARY | SDPA_GQA | SM32 },
	{ "bloom", FAM_BLOOM, GW_MODEL_DECODER, true, true, QKV | SDPA_GQA | NO_SDPA | SM32 },
	{ "gpt_bigcode", FAM_BIGCODE, GW_MODEL_DECODER, true, true, QKV | SDPA_GQA | SM32 },
	{ "opt", FAM_OPT, GW_MODEL_DECODER, true, true, SDPA_GQA | RELU_MLP | SM32 | CLAMP },
	{ "starcoder2", FAM_STARCODER2, GW_MODEL_DECODER, true, true, SDPA_GQA | LOGITS_FLOAT | SM32 | AWQ_LLAMA },
	{ "bert", FAM_BERT, GW_MODEL_ENCODER, true, false, MLM },
	{ "roberta", FAM_BERT, GW_MODEL_ENCODER, true, false, MLM },
	{ "t5", FAM_T5, GW_MODEL_ENCODER_DECODER, true, false, GELU_NEW_GATED | RMS_HALF | MLP_DROP },
	{ "mt5", FAM_T5, GW_MODEL_ENCODER_DECODER, false, false, GELU_NEW_GATED | RMS_HALF | MLP_DROP },
	{ "vit", FAM_VIT, GW_MODEL_VISION, false, true, SM32 },
	{ "deit", FAM_VIT, GW_MODEL_VISION, false, true, SM32 },
	{ "swin", FAM_SWIN, GW_MODEL_VISION, false, true, SM32 },
	{ "resnet", FAM_RESNET, GW_MODEL_VISION, false, false, 0 },
};

#undef QKV
#undef RMS_HALF
#undef MLP_DROP
#undef GATE_UP
#undef ROTARY
#undef SDPA_GQA
#undef RMS
#undef GELU_NEW
#undef GELU_NEW_GATED
#undef RELU_MLP
#undef NO_SDPA
#undef MLM
#undef LOGITS_FLOAT
#undef SM32


/* The decoders whose layers differ from Llama's and GPT-2's in which
 * biases, norms and fused projections they build (phi, falcon, gptj,
 * gpt_neox, bloom, gpt_bigcode, opt): one description, filled by
 * read_decoder() from the config the way each modeling file reads it. */
struct decoder {
	uint64_t positions;    /* learned position rows (0: rotary or ALiBi) */
	uint64_t embed_dim;    /* OPT: word_embed_proj_dim (the tables' width); 0: h */
	uint64_t layer_norms;  /* LayerNorms per layer */
	bool fused_qkv;        /* one q+k+v projection (PEFT's LoRA target), else q, k, v */
	bool qk_norm;          /* Phi qk_layernorm: LayerNorm(head_dim) on q and on k */
	bool norm_affine;      /* LayerNorms have weight and bias (OPT can drop both) */
	bool qkv_bias, o_bias, mlp_bias;
	bool head_bias;        /* the LM head has a bias (GPT-J, Phi), tied or not */
	bool embed_norm;       /* BLOOM: word_embeddings_layernorm */
	bool final_norm;
};

/* What the newer Llama-shaped decoders add (read_text_arch()): the
 * experts' biases and gates, q/k norms, norms per layer, attention sinks,
 * MLA's query rank. The sizes themselves are in gw_model's text half. */
struct text_arch {
	bool router_bias, expert_bias;  /* gpt-oss: the router and every expert's maps biased */
	bool shared_gate;               /* Qwen2-MoE: shared_expert_gate, h → 1 */
	enum { QK_NONE, QK_HEAD, QK_ALL } qk_norm;
	/* QK_HEAD: Qwen3, Gemma 3, EXAONE 4: RMSNorm(head_dim) on q and on k;
	 * QK_ALL: OLMo 2 (RMSNorm over all q heads, over all k heads), Cohere
	 * use_qk_norm (a LayerNorm weight per head and feature) */
	bool norm_free;                 /* OLMo: LayerNorms without weight or bias */
	bool sinks;                     /* gpt-oss: one learned sink logit per head */
	bool layer_norm;                /* PhiMoE: LayerNorms (weight and bias), not RMSNorm */
	bool head_bias;                 /* PhiMoE: lm_head_bias */
	uint64_t norms;                 /* norms per layer: 2, Gemma 2/3: 4 */
	uint64_t q_lora_rank;           /* MLA: the query's low-rank width; 0: a full q_proj */
	uint64_t qk_nope_head_dim;      /* MLA: the query/key width without rotary */
	uint64_t vision_params;         /* a VLM's tower and projector, counted by read_vlm() */
};

struct extra {
	enum family family;
	struct text_arch ta;
	bool qkv_bias;
	bool o_bias, mlp_bias;  /* Llama/Gemma attention_bias (o too), Llama mlp_bias */
	struct decoder dec;
	uint64_t type_vocab;   /* BERT token types */
	uint64_t buckets;      /* T5 relative-attention buckets */
	uint64_t classifiers;  /* vision heads: 2 for DeiT with its distillation head */
	bool abs_pos;          /* Swin: use_absolute_embeddings */
};

/* ---- counting ------------------------------------------------------------- */

struct acc {
	uint64_t total, linear, factored, lora, max_matrix;
	uint64_t idle;   /* parameters a token does not run through (the experts not routed to) */
	bool overflow;
};

static uint64_t add(struct acc *a, uint64_t x, uint64_t y)
{
	uint64_t r;

	if (__builtin_add_overflow(x, y, &r))
		a->overflow = true;
	return r;
}

static uint64_t mul(struct acc *a, uint64_t x, uint64_t y)
{
	uint64_t r;

	if (__builtin_mul_overflow(x, y, &r))
		a->overflow = true;
	return r;
}

/* A weight matrix. `linear`: a layer's linear map (quantised by 8/4-bit
 * loaders; embeddings and the LM head stay in 16 bits). */
static void matrix(struct acc *a, uint64_t rows, uint64_t cols, bool linear)
{
	uint64_t n = mul(a, rows, cols);

	a->total = add(a, a->total, n);
	a->factored = add(a, a->factored, add(a, rows, cols));
	if (linear) {
		a->linear = add(a, a->linear, n);
		if (n > a->max_matrix)
			a->max_matrix = n;
	}
}

static void vector(struct acc *a, uint64_t n)
{
	a->total = add(a, a->total, n);
	a->factored = add(a, a->factored, n);
}

/* dst += times × src (one layer repeated). */
static void repeat(struct acc *dst, const struct acc *src, uint64_t times)
{
	dst->total = add(dst, dst->total, mul(dst, src->total, times));
	dst->linear = add(dst, dst->linear, mul(dst, src->linear, times));
	dst->factored = add(dst, dst->factored, mul(dst, src->factored, times));
	dst->lora = add(dst, dst->lora, mul(dst, src->lora, times));
	dst->idle = add(dst, dst->idle, mul(dst, src->idle, times));
	if (src->max_matrix > dst->max_matrix)
		dst->max_matrix = src->max_matrix;
	dst->overflow |= src->overflow;
}

/* Attention projections q, k, v, o (no biases unless asked); LoRA targets
 * q and v, PEFT's default for these models. */
static void attention(struct acc *a, const gw_model *m, bool qkv_bias, bool o_bias)
{
	uint64_t h = m->hidden_size, q = m->num_heads * m->head_dim, kv = m->num_kv_heads * m->head_dim;

	matrix(a, q, h, true);
	matrix(a, kv, h, true);
	matrix(a, kv, h, true);
	matrix(a, h, q, true);
	if (qkv_bias)
		vector(a, q + 2 * kv);
	if (o_bias)
		vector(a, h);
	a->lora += (h + q) + (h + kv);
}

static void mlp(struct acc *a, const gw_model *m, bool bias)
{
	uint64_t h = m->hidden_size, i = m->intermediate_size;

	matrix(a, i, h, true);
	if (m->gated_mlp)
		matrix(a, i, h, true);
	matrix(a, h, i, true);
	if (bias)   /* LlamaMLP with mlp_bias: gate_proj has one too */
		vector(a, i + h + (m->gated_mlp ? i : 0));
}

/* Multi-head latent attention (DeepseekV2Attention, DeepseekV3Attention):
 * q through a rank-q_lora_rank bottleneck with its RMSNorm (or one q_proj
 * when q_lora_rank is null, DeepSeek-V2-Lite), the keys and values
 * compressed to kv_lora_rank (+ the shared rotary key) and normed, then
 * expanded per head to the key's non-rotary part and the value; the output
 * projection from heads × v_head_dim. No biases (attention_bias false in
 * every published config). LoRA's targets: q (or q_b) and kv_b. */
static void attention_mla(struct acc *a, const gw_model *m, const struct text_arch *ta)
{
	uint64_t h = m->hidden_size, heads = m->num_heads, rope = m->qk_rope_head_dim, v = m->v_head_dim;
	uint64_t c = m->kv_lora_rank, qk = ta->qk_nope_head_dim + rope;

	if (ta->q_lora_rank) {
		matrix(a, ta->q_lora_rank, h, true);
		vector(a, ta->q_lora_rank);
		matrix(a, heads * qk, ta->q_lora_rank, true);
		a->lora += ta->q_lora_rank + heads * qk;
	} else {
		matrix(a, heads * qk, h, true);
		a->lora += h + heads * qk;
	}
	matrix(a, c + rope, h, true);
	vector(a, c);
	matrix(a, heads * (ta->qk_nope_head_dim + v), c, true);
	matrix(a, h, heads * v, true);
	a->lora += c + heads * (ta->qk_nope_head_dim + v);
}

/* A mixture-of-experts MLP (MixtralSparseMoeBlock, Qwen2MoeSparseMoeBlock,
 * Qwen3MoeSparseMoeBlock, DeepseekV3MoE, PhimoeSparseMoeBlock, GptOssMLP):
 * the router (experts × h; gpt-oss with a bias), `experts` gated MLPs of
 * expert_intermediate (gpt-oss: biased), and the shared experts as one
 * gated MLP of shared_intermediate (Qwen2-MoE: with its sigmoid gate, h →
 * 1). A token runs through experts_per_token of the routed ones: the rest
 * are idle for it. */
static void experts(struct acc *a, const gw_model *m, const struct text_arch *ta)
{
	struct acc one = { 0 };
	uint64_t h = m->hidden_size, i = m->expert_intermediate, s = m->shared_intermediate;

	matrix(a, m->experts, h, true);
	if (ta->router_bias)
		vector(a, m->experts);
	matrix(&one, i, h, true);
	matrix(&one, i, h, true);
	matrix(&one, h, i, true);
	if (ta->expert_bias)
		vector(&one, 2 * i + h);
	one.idle = one.total;
	repeat(a, &one, m->experts - m->experts_per_token);
	one.idle = 0;
	repeat(a, &one, m->experts_per_token);
	if (s) {
		matrix(a, s, h, true);
		matrix(a, s, h, true);
		matrix(a, h, s, true);
	}
	if (ta->shared_gate)
		matrix(a, 1, h, true);
}

/* Llama, Mistral, Qwen2, Gemma, Phi-3: RMSNorm (weight only) before
 * attention and MLP, gated MLP without biases, a final norm, LM head
 * unless tied. Llama's attention_bias puts biases on q, k, v and o, its
 * mlp_bias on gate, up and down (LlamaAttention, LlamaMLP); Gemma reads
 * attention_bias the same way. Phi-3 fuses q, k, v into qkv_proj and gate,
 * up into gate_up_proj, all without biases (modeling_phi3.py): the same
 * parameters. */
static void count_llama(struct acc *a, struct acc *layer, const gw_model *m, const struct extra *x)
{
	const struct text_arch *ta = &x->ta;
	struct acc moe = { 0 };
	uint64_t norm = ta->norm_free ? 0 : ta->layer_norm ? 2 * m->hidden_size : m->hidden_size;

	matrix(a, m->vocab_size, m->hidden_size, false);
	if (m->kv_lora_rank)
		attention_mla(layer, m, ta);
	else
		attention(layer, m, x->qkv_bias, x->o_bias);
	if (x->dec.fused_qkv) {   /* Phi-3: PEFT adapts the fused qkv_proj, not q_proj and v_proj */
		uint64_t h = m->hidden_size, q = m->num_heads * m->head_dim, kv = m->num_kv_heads * m->head_dim;
		layer->lora += (h + q + 2 * kv) - ((h + q) + (h + kv));
	}
	if (ta->qk_norm == QK_HEAD)
		vector(layer, 2 * m->head_dim);
	else if (ta->qk_norm == QK_ALL)
		vector(layer, (m->num_heads + m->num_kv_heads) * m->head_dim);
	if (ta->sinks)
		vector(layer, m->num_heads);
	vector(layer, (ta->norms ? ta->norms : 2) * norm);
	moe = *layer;   /* attention and norms are the same in both kinds of layer */
	mlp(layer, m, x->mlp_bias);
	repeat(a, layer, m->num_layers - m->moe_layers);
	if (m->moe_layers) {
		experts(&moe, m, ta);
		repeat(a, &moe, m->moe_layers);
		*layer = moe;   /* the largest layer, what FSDP gathers */
	}
	vector(a, norm);
	if (!m->tied_embeddings)
		matrix(a, m->vocab_size, m->hidden_size, false);
	if (ta->head_bias)
		vector(a, m->vocab_size);
}

/* GPT-2: token and learned position tables, LayerNorm (weight and bias)
 * before each block, fused c_attn (3h) with biases, biased MLP, final
 * LayerNorm, head tied. LoRA's default target is c_attn (h in, 3h out). */
static void count_gpt2(struct acc *a, struct acc *layer, const gw_model *m)
{
	uint64_t h = m->hidden_size;

	matrix(a, m->vocab_size, h, false);
	matrix(a, m->max_positions, h, false);
	vector(layer, 2 * h);
	matrix(layer, 3 * h, h, true);
	vector(layer, 3 * h);
	matrix(layer, h, h, true);
	vector(layer, h);
	vector(layer, 2 * h);
	mlp(layer, m, true);
	layer->lora += h + 3 * h;
	repeat(a, layer, m->num_layers);
	vector(a, 2 * h);
	if (!m->tied_embeddings)
		matrix(a, m->vocab_size, h, false);
}

/* Phi, Falcon, GPT-J, GPT-NeoX, BLOOM, GPTBigCode, OPT (their modeling_*.py
 * in transformers): the token table (OPT: word_embed_proj_dim wide, with
 * project_in/project_out to h and back, no biases, when that differs from
 * h), learned positions where the model has them (GPTBigCode n_positions;
 * OPT max_position_embeddings + 2, OPTLearnedPositionalEmbedding's offset),
 * BLOOM's LayerNorm after the embedding; per layer 1 or 2 LayerNorms, the
 * q, k, v projections (fused or not: q + 2·kv features either way, kv =
 * key/value heads × head_dim, 1 head for multi-query Falcon-7B and
 * GPTBigCode), Phi's q/k LayerNorms, the output projection, the MLP (h →
 * I → h), each with the family's biases; the final LayerNorm (OPT-350m has
 * none: do_layer_norm_before false); the LM head unless tied, and its bias
 * (GPT-J, Phi) tied or not. LoRA's default targets (PEFT): the fused
 * query_key_value / c_attn, else q_proj and v_proj. */
static void count_decoder(struct acc *a, struct acc *layer, const gw_model *m, const struct decoder *d)
{
	uint64_t h = m->hidden_size, q = m->num_heads * m->head_dim, kv = m->num_kv_heads * m->head_dim;
	uint64_t e = d->embed_dim ? d->embed_dim : h, norm = d->norm_affine ? 2 * h : 0;

	matrix(a, m->vocab_size, e, false);
	if (d->positions)
		matrix(a, d->positions, h, false);
	if (e != h) {
		matrix(a, h, e, true);
		matrix(a, e, h, true);
	}
	if (d->embed_norm)
		vector(a, 2 * h);
	vector(layer, d->layer_norms * norm);
	if (d->fused_qkv) {
		matrix(layer, q + 2 * kv, h, true);
		layer->lora += h + q + 2 * kv;
	} else {
		matrix(layer, q, h, true);
		matrix(layer, kv, h, true);
		matrix(layer, kv, h, true);
		layer->lora += (h + q) + (h + kv);
	}
	if (d->qkv_bias)
		vector(layer, q + 2 * kv);
	if (d->qk_norm)
		vector(layer, 4 * m->head_dim);
	matrix(layer, h, q, true);
	if (d->o_bias)
		vector(layer, h);
	mlp(layer, m, d->mlp_bias);
	repeat(a, layer, m->num_layers);
	if (d->final_norm)
		vector(a, norm);
	if (!m->tied_embeddings)
		matrix(a, m->vocab_size, e, false);
	if (d->head_bias)
		vector(a, m->vocab_size);
}

/* BERT, RoBERTa (BertModel): word, position and token-type tables and their
 * LayerNorm; per layer biased q, k, v, o, LayerNorm, biased MLP, LayerNorm;
 * the pooler (dense h×h with bias). */
static void count_bert(struct acc *a, struct acc *layer, const gw_model *m, uint64_t type_vocab)
{
	uint64_t h = m->hidden_size;

	matrix(a, m->vocab_size, h, false);
	matrix(a, m->max_positions, h, false);
	if (type_vocab)
		matrix(a, type_vocab, h, false);
	vector(a, 2 * h);
	attention(layer, m, true, true);
	vector(layer, 2 * h);
	mlp(layer, m, true);
	vector(layer, 2 * h);
	repeat(a, layer, m->num_layers);
	matrix(a, h, h, true);
	vector(a, h);
}

/* T5, mT5: one shared embedding; encoder layers (self-attention, MLP, two
 * RMS norms), decoder layers (self- and cross-attention, MLP, three norms);
 * the relative position bias (buckets × heads) in the first layer of each
 * stack; a final norm per stack; LM head unless tied (T5 v1.0 ties it). */
static void count_t5(struct acc *a, struct acc *layer, const gw_model *m, uint64_t buckets)
{
	struct acc dec = { 0 };
	uint64_t d = m->hidden_size;

	matrix(a, m->vocab_size, d, false);
	attention(layer, m, false, false);
	mlp(layer, m, false);
	vector(layer, 2 * d);
	repeat(a, layer, m->num_layers);
	vector(a, mul(a, buckets, m->num_heads) + d);
	attention(&dec, m, false, false);
	attention(&dec, m, false, false);
	mlp(&dec, m, false);
	vector(&dec, 3 * d);
	repeat(a, &dec, m->num_decoder_layers);
	vector(a, mul(a, buckets, m->num_heads) + d);
	if (!m->tied_embeddings)
		matrix(a, m->vocab_size, d, false);
	if (dec.total > layer->total)
		*layer = dec;
}

/* A convolution's weight (out × in × k × k, no bias: every convolution of
 * ResNet is followed by a BatchNorm) and, when bn, that BatchNorm's weight
 * and bias (its running statistics are buffers, not parameters). Adafactor
 * factors a 4-d weight over shape[:-1] and shape[:-2] + shape[-1:]
 * (transformers' Adafactor._get_options/_approx_sq_grad): 2·out·in·k. */
static void conv(struct acc *a, uint64_t out, uint64_t in, uint64_t k, bool bn)
{
	uint64_t n = mul(a, mul(a, out, in), k * k);

	a->total = add(a, a->total, n);
	a->factored = add(a, a->factored, mul(a, 2, mul(a, mul(a, out, in), k)));
	if (bn)
		vector(a, 2 * out);
}

/* The classifier(s) on top of a vision model: Linear(width, labels) with
 * a bias each. Not a "linear" for 8/4-bit loaders (kept like an LM head). */
static void classifier(struct acc *a, uint64_t width, uint64_t labels, uint64_t heads)
{
	for (uint64_t i = 0; labels && i < heads; i++) {
		matrix(a, labels, width, false);
		vector(a, labels);
	}
}

/* ViT, DeiT (…ForImageClassification): the patch embedding (a p×p
 * convolution with bias from the image's channels to h), the class token
 * (DeiT: and the distillation token), learned positions for every patch
 * and those tokens at the config's image size; per layer LayerNorm,
 * q, k, v (biased unless qkv_bias is false), the biased output
 * projection, LayerNorm, the biased GELU MLP; a final LayerNorm; the
 * classifier (DeiT…WithTeacher: a second one for the distillation
 * token). No pooler: the classification models build ViTModel without it. */
static void count_vit(struct acc *a, struct acc *layer, const gw_model *m, const struct extra *x)
{
	uint64_t h = m->hidden_size, side = m->image_size / m->patch_size;

	conv(a, h, m->num_channels, m->patch_size, false);
	vector(a, h);
	vector(a, mul(a, m->extra_tokens, h));
	matrix(a, side * side + m->extra_tokens, h, false);
	vector(layer, 2 * h);
	attention(layer, m, x->qkv_bias, true);
	vector(layer, 2 * h);
	mlp(layer, m, true);
	repeat(a, layer, m->num_layers);
	vector(a, 2 * h);
	classifier(a, h, m->num_labels, x->classifiers);
}

gw_model gw__advise_swin_stage(const gw_model *m, size_t i)
{
	gw_model t = *m;

	t.hidden_size = m->embed_dim << i;
	t.num_heads = t.num_kv_heads = m->stage_heads[i];
	t.head_dim = t.hidden_size / t.num_heads;
	t.intermediate_size = m->intermediate_size << i;
	t.gated_mlp = false;
	return t;
}

/* Swin (SwinForImageClassification): the patch embedding (p×p convolution
 * with bias, then LayerNorm), absolute positions only when
 * use_absolute_embeddings; per block LayerNorm, biased q, k, v, o, the
 * relative position bias table ((2w−1)² × heads; the index is a buffer),
 * LayerNorm, biased MLP; between stages the patch merging (LayerNorm over
 * 4·width, Linear 4·width → 2·width without bias); a final LayerNorm and
 * the classifier. */
static void count_swin(struct acc *a, struct acc *layer, const gw_model *m, const struct extra *x)
{
	uint64_t E = m->embed_dim, side = m->image_size / m->patch_size, w2 = (2 * m->window_size - 1);
	uint64_t F = E << (m->num_stages - 1);

	conv(a, E, m->num_channels, m->patch_size, false);
	vector(a, 3 * E);
	if (x->abs_pos)
		matrix(a, side * side + 1, E, false);
	for (size_t i = 0; i < m->num_stages; i++) {
		gw_model t = gw__advise_swin_stage(m, i);
		struct acc blk = { 0 };
		uint64_t dim = t.hidden_size;

		vector(&blk, 2 * dim);
		attention(&blk, &t, x->qkv_bias, true);
		vector(&blk, mul(&blk, w2 * w2, t.num_heads));
		vector(&blk, 2 * dim);
		mlp(&blk, &t, true);
		repeat(a, &blk, m->stage_depths[i]);
		if (blk.total > layer->total)
			*layer = blk;
		if (i + 1 < m->num_stages) {
			vector(a, 8 * dim);
			matrix(a, 2 * dim, 4 * dim, true);
		}
	}
	vector(a, 2 * F);
	classifier(a, F, m->num_labels, 1);
}

/* ResNet (ResNetForImageClassification, as torchvision's): the stem (7×7
 * convolution, stride 2, BatchNorm; then a max pool); per stage, blocks
 * whose first one changes width (and, after stage 0, halves the side):
 * bottleneck 1×1 to width/4, 3×3, 1×1 to width, or basic 3×3, 3×3, each
 * with BatchNorm; a 1×1 convolution + BatchNorm shortcut where the width or
 * side changes; the classifier on the pooled last width. */
static void count_resnet(struct acc *a, struct acc *layer, const gw_model *m)
{
	uint64_t cin = m->embed_dim;

	conv(a, m->embed_dim, m->num_channels, 7, true);
	for (size_t s = 0; s < m->num_stages; s++) {
		uint64_t w = m->stage_widths[s];
		for (uint64_t j = 0; j < m->stage_depths[s]; j++) {
			struct acc blk = { 0 };
			bool stride = j == 0 && s > 0;
			if (m->bottleneck) {
				conv(&blk, w / 4, cin, 1, true);
				conv(&blk, w / 4, w / 4, 3, true);
				conv(&blk, w, w / 4, 1, true);
			} else {
				conv(&blk, w, cin, 3, true);
				conv(&blk, w, w, 3, true);
			}
			if (cin != w || stride)
				conv(&blk, w, cin, 1, true);
			repeat(a, &blk, 1);
			if (blk.total > layer->total)
				*layer = blk;
			cin = w;
		}
	}
	classifier(a, cin, m->num_labels, 1);
}

/* ---- shapes --------------------------------------------------------------- */


static int check_range(const char *what, uint64_t v, uint64_t lo, uint64_t hi)
{
	if (v < lo || v > hi)
		return gw__error_set(GW_EINVAL, "%s must be from %llu to %llu (got %llu)", what,
				     (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)v);
	return 0;
}

/* head_dim from hidden size and heads (num_heads > 0), when the config
 * does not give it: the heads must split the hidden size evenly. */
static int set_head_dim(gw_model *m)
{
	if (m->hidden_size % m->num_heads)
		return gw__error_set(GW_EINVAL, "hidden size %llu is not a multiple of %llu heads",
				     (unsigned long long)m->hidden_size, (unsigned long long)m->num_heads);
	m->head_dim = m->hidden_size / m->num_heads;
	return 0;
}

/* A vision model's shape: image, patches, stages, widths; the layer fields
 * the memory model reads (hidden size, heads, head_dim, layers) are set
 * from them (Swin and ResNet: the last stage's). */
static int vision_complete(gw_model *m)
{
	int rc;
	uint64_t total = 0;

	if ((rc = check_range("image size", m->image_size, 1, MAX_IMAGE)) ||
	    (rc = check_range("patch size", m->patch_size, 1, m->image_size)) ||
	    (rc = check_range("image channels", m->num_channels, 1, MAX_CHANNELS)) ||
	    (rc = check_range("number of labels", m->num_labels, 0, MAX_VOCAB)))
		return rc;
	if (m->vision == GW_VISION_VIT) {
		if (!m->intermediate_size)
			m->intermediate_size = 4 * m->hidden_size;
		m->num_kv_heads = m->num_heads;
		if ((rc = check_range("hidden size", m->hidden_size, 1, MAX_HIDDEN)) ||
		    (rc = check_range("number of layers", m->num_layers, 1, MAX_LAYERS)) ||
		    (rc = check_range("number of attention heads", m->num_heads, 1, MAX_HEADS)) ||
		    (rc = check_range("intermediate size", m->intermediate_size, 1, MAX_INTER)))
			return rc;
		if ((rc = set_head_dim(m)) < 0)
			return rc;
		return 0;
	}
	if ((rc = check_range("number of stages", m->num_stages, 1, GW_VISION_STAGES_MAX)) ||
	    (rc = check_range("embedding width", m->embed_dim, 1, MAX_HIDDEN)))
		return rc;
	for (size_t i = 0; i < m->num_stages; i++) {
		uint64_t width = m->vision == GW_VISION_SWIN ? m->embed_dim << i : m->stage_widths[i];
		if ((rc = check_range("stage depth", m->stage_depths[i], 1, MAX_LAYERS)) ||
		    (rc = check_range("stage width", width, 1, MAX_HIDDEN)))
			return rc;
		total += m->stage_depths[i];
		if (m->vision == GW_VISION_RESNET) {
			if (m->bottleneck && width % 4)
				return gw__error_set(GW_EINVAL, "a bottleneck stage's width (%llu) must be a multiple of 4",
						     (unsigned long long)width);
			continue;
		}
		if ((rc = check_range("stage heads", m->stage_heads[i], 1, MAX_HEADS)) < 0)
			return rc;
		if (width % m->stage_heads[i])
			return gw__error_set(GW_EINVAL, "stage %zu: width %llu is not a multiple of %llu heads", i + 1,
					     (unsigned long long)width, (unsigned long long)m->stage_heads[i]);
	}
	m->num_layers = total;
	if (m->vision == GW_VISION_SWIN) {
		if ((rc = check_range("window size", m->window_size, 1, MAX_IMAGE)) ||
		    (rc = check_range("intermediate size", m->intermediate_size, 1, MAX_INTER >> (m->num_stages - 1))))
			return rc;
		m->hidden_size = m->embed_dim << (m->num_stages - 1);
		m->num_heads = m->num_kv_heads = m->stage_heads[m->num_stages - 1];
		m->head_dim = m->hidden_size / m->num_heads;
	} else {
		m->hidden_size = m->stage_widths[m->num_stages - 1];
		m->num_heads = m->num_kv_heads = 1;
		m->head_dim = m->hidden_size;
		m->intermediate_size = m->hidden_size;
	}
	return 0;
}

/* Fill the defaults a shape leaves at 0, then check every size. */
static int shape_complete(gw_model *m)
{
	int rc;

	if (m->kind == GW_MODEL_VISION)
		return vision_complete(m);

	if (m->num_heads && !m->head_dim) {
		if ((rc = set_head_dim(m)) < 0)
			return rc;
	}
	if (!m->num_kv_heads)
		m->num_kv_heads = m->num_heads;
	if (!m->intermediate_size)
		m->intermediate_size = 4 * m->hidden_size;
	if (m->kind == GW_MODEL_ENCODER_DECODER && !m->num_decoder_layers)
		m->num_decoder_layers = m->num_layers;
	if ((rc = check_range("vocabulary size", m->vocab_size, 1, MAX_VOCAB)) ||
	    (rc = check_range("hidden size", m->hidden_size, 1, MAX_HIDDEN)) ||
	    (rc = check_range("number of layers", m->num_layers, 1, MAX_LAYERS)) ||
	    (rc = check_range("number of attention heads", m->num_heads, 1, MAX_HEADS)) ||
	    (rc = check_range("number of key/value heads", m->num_kv_heads, 1, m->num_heads)) ||
	    (rc = check_range("head dimension", m->head_dim, 1, MAX_HIDDEN)) ||
	    (rc = check_range("intermediate size", m->intermediate_size, 1, MAX_INTER)) ||
	    (rc = check_range("max positions", m->max_positions, 0, MAX_POSITIONS)) ||
	    (rc = check_range("decoder layers", m->num_decoder_layers, 0, MAX_LAYERS)))
		return rc;
	if (m->num_heads % m->num_kv_heads)
		return gw__error_set(GW_EINVAL, "%llu attention heads are not a multiple of %llu key/value heads",
				     (unsigned long long)m->num_heads, (unsigned long long)m->num_kv_heads);
	if ((unsigned)m->kind > GW_MODEL_ENCODER_DECODER)   /* a vision shape comes from config.json */
		return gw__error_set(GW_EINVAL, "unknown model kind %d", (int)m->kind);
	return 0;
}

static int count(gw_model *m, const struct extra *x)
{
	struct acc a = { 0 }, layer = { 0 };

	switch (x->family) {
	case FAM_LLAMA: count_llama(&a, &layer, m, x); break;
	case FAM_PHI:
	case FAM_FALCON:
	case FAM_GPTJ:
	case FAM_NEOX:
	case FAM_BLOOM:
	case FAM_BIGCODE:
	case FAM_OPT:
	case FAM_STARCODER2: count_decoder(&a, &layer, m, &x->dec); break;
	case FAM_GPT2: count_gpt2(&a, &layer, m); break;
	case FAM_BERT: count_bert(&a, &layer, m, x->type_vocab); break;
	case FAM_T5: count_t5(&a, &layer, m, x->buckets); break;
	case FAM_VIT: count_vit(&a, &layer, m, x); break;
	case FAM_SWIN: count_swin(&a, &layer, m, x); break;
	case FAM_RESNET: count_resnet(&a, &layer, m); break;
	}
	if (a.overflow || layer.overflow)
		return gw__error_set(GW_EINVAL, "the parameter count overflows 64 bits");
	m->params = a.total;
	m->params_linear = a.linear;
	m->params_factored = a.factored;
	m->lora_features = a.lora;
	m->max_matrix = a.max_matrix;
	m->layer_params = layer.total;
	if (m->vision == GW_VISION_NONE && m->kind != GW_MODEL_VISION) {
		m->params_active = m->moe_layers ? m->params - a.idle : 0;
		if (x->ta.vision_params) {
			m->vision_params = x->ta.vision_params;
			if (__builtin_add_overflow(m->params, m->vision_params, &m->params))
				return gw__error_set(GW_EINVAL, "the parameter count overflows 64 bits");
			if (m->params_active)
				m->params_active += x->ta.vision_params;
		}
	}
	return 0;
}

int gw_model_finish(gw_model *m)
{
	struct extra x = { .family = FAM_GPT2, .buckets = 32, .classifiers = 1 };
	uint64_t given;
	int rc;

	if (!m)
		return gw__error_set(GW_EINVAL, "no model");
	given = m->params;
	if ((rc = shape_complete(m)) < 0)
		return rc;
	/* A custom shape is counted as the closest family: decoders like
	 * GPT-2 (or Llama when gated), encoders like BERT, T5 otherwise. */
	if (m->kind == GW_MODEL_DECODER && m->gated_mlp)
		x.family = FAM_LLAMA;
	else if (m->kind == GW_MODEL_ENCODER)
		x.family = FAM_BERT;
	else if (m->kind == GW_MODEL_ENCODER_DECODER)
		x.family = FAM_T5;
	if (!m->model_type[0])
		gw__strlcpy(m->model_type, "custom", sizeof(m->model_type));
	if ((rc = count(m, &x)) < 0)
		return rc;
	if (given)
		m->params = given;
	return 0;
}

/* ---- config.json ------------------------------------------------------------ */

/* The first of keys present and not null; NULL when none is. */
static const gw_jv *field(const gw_jv *root, const char *const *keys, const char **which)
{
	for (; *keys; keys++) {
		const gw_jv *v = gw_jv_get(root, *keys);
		if (v && v->type != GW_JV_NULL) {
			*which = *keys;
			return v;
		}
	}
	return NULL;
}

/* A whole number from the first present key, within [1, max]; def (0 =
 * required, when `required`) when none is present. */
static int get_size(const gw_jv *root, const char *const *keys, uint64_t max, bool required, uint64_t *out)
{
	const char *key = keys[0];
	const gw_jv *v = field(root, keys, &key);
	int64_t i;

	if (!v) {
		if (required)
			return gw__error_set(GW_EPARSE, "config.json has no \"%s\"", keys[0]);
		return 0;
	}
	if (gw_jv_int64(v, &i) < 0 || i < 1 || (uint64_t)i > max)
		return gw__error_set(GW_EPARSE, "config.json line %d: \"%s\" must be a whole number from 1 to %llu",
				     v->line, key, (unsigned long long)max);
	*out = (uint64_t)i;
	return 0;
}

static int get_bool(const gw_jv *root, const char *key, bool *out)
{
	const gw_jv *v = gw_jv_get(root, key);

	if (!v || v->type == GW_JV_NULL)
		return 0;
	if (v->type != GW_JV_BOOL)
		return gw__error_set(GW_EPARSE, "config.json line %d: \"%s\" must be true or false", v->line, key);
	*out = v->u.boolean != 0;
	return 0;
}

/* Dropout is active when any of the model's dropout probabilities is > 0. */
static int get_dropout(const gw_jv *root, bool *out)
{
	static const char *const keys[] = {
		"attn_pdrop", "resid_pdrop", "embd_pdrop", "attention_probs_dropout_prob", "hidden_dropout_prob",
		"dropout_rate", "attention_dropout", "hidden_dropout", "dropout",
	};

	*out = false;
	for (size_t i = 0; i < GW_ARRAY_SIZE(keys); i++) {
		const gw_jv *v = gw_jv_get(root, keys[i]);
		if (!v || v->type == GW_JV_NULL)
			continue;
		if (v->type != GW_JV_NUMBER || !(v->u.num.d >= 0 && v->u.num.d <= 1))
			return gw__error_set(GW_EPARSE, "config.json line %d: \"%s\" must be a probability from 0 to 1",
					     v->line, keys[i]);
		if (v->u.num.d > 0)
			*out = true;
	}
	return 0;
}

/* The probability under key (def when absent), for what get_dropout checked. */
static double get_prob(const gw_jv *root, const char *key, double def)
{
	const gw_jv *v = gw_jv_get(root, key);

	return v && v->type == GW_JV_NUMBER ? v->u.num.d : def;
}

static const struct model_type *find_type(const char *name)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(model_types); i++)
		if (!strcmp(model_types[i].name, name))
			return &model_types[i];
	return NULL;
}

unsigned gw__advise_traits(const gw_model *m)
{
	const struct model_type *t = find_type(m->model_type);

	return t ? t->traits : 0;
}

bool gw__advise_has(const gw_model *m, enum gw__advise_trait t)
{
	return (gw__advise_traits(m) & t) != 0;
}

static int unsupported_type(const char *name)
{
	gw_strbuf list = GW_STRBUF_INIT;
	char shown[64] = "";
	int rc;

	gw__copy_printable(shown, sizeof(shown), name, strlen(name));
	/* Neighbours of counted types whose configs users still have: say
	 * which, and what to do, rather than a bare "unknown". */
	if (!strcmp(name, "RefinedWebModel") || !strcmp(name, "RefinedWeb"))
		return gw__error_set(GW_ENOTSUP, "model_type \"%s\" is a Falcon config.json from before transformers "
				     "4.33; the model's config.json on the Hugging Face Hub now says \"falcon\", which "
				     "gpuwise counts", shown);
	if (!strcmp(name, "phi-msft") || !strcmp(name, "mixformer-sequential"))
		return gw__error_set(GW_ENOTSUP, "model_type \"%s\" is Phi remote code from before transformers 4.37; "
				     "the model's config.json on the Hugging Face Hub now says \"phi\", which gpuwise "
				     "counts", shown);
	if (!strcmp(name, "phi3small"))
		return gw__error_set(GW_ENOTSUP, "model_type \"%s\" is not counted (Phi-3-small's block-sparse "
				     "attention, Phi-3.5-MoE's experts); use --params with --layers/--hidden/--heads/"
				     "--vocab", shown);
	/* Every counted type, however many: a fixed buffer cut the list short. */
	for (size_t i = 0; i < GW_ARRAY_SIZE(model_types); i++)
		gw__sb_addf(&list, "%s%s", i ? ", " : "", model_types[i].name);
	if (list.oom)
		rc = gw__error_set(GW_ENOMEM, "out of memory");
	else
		rc = gw__error_set(GW_ENOTSUP, "unknown model_type \"%s\" (gpuwise counts %s)", shown, gw__sb_str(&list));
	gw__sb_release(&list);
	return rc;
}

static const char *const K_HIDDEN[] = { "hidden_size", "n_embd", "d_model", "n_embed", NULL };   /* n_embed: BLOOM */
static const char *const K_LAYERS[] = { "num_hidden_layers", "n_layer", "num_layers", NULL };
static const char *const K_HEADS[] = { "num_attention_heads", "n_head", "num_heads", NULL };
static const char *const K_KV[] = { "num_key_value_heads", NULL };
static const char *const K_VOCAB[] = { "vocab_size", NULL };
static const char *const K_INTER[] = { "intermediate_size", "n_inner", "d_ff", "ffn_dim", "ffn_hidden_size", NULL };
static const char *const K_HEAD_DIM[] = { "head_dim", "d_kv", NULL };
static const char *const K_POS[] = { "max_position_embeddings", "n_positions", NULL };
static const char *const K_TYPES[] = { "type_vocab_size", NULL };
static const char *const K_DEC[] = { "num_decoder_layers", NULL };
static const char *const K_BUCKETS[] = { "relative_attention_num_buckets", NULL };

/* A list of stage sizes ("depths", "num_heads", "hidden_sizes"): 1 to 8
 * whole numbers from 1 to max. */
static int get_list(const gw_jv *root, const char *key, uint64_t max, uint64_t *out, size_t *n)
{
	const gw_jv *v = gw_jv_get(root, key);
	size_t len = v ? gw_jv_len(v) : 0;
	int64_t x;

	if (!v || v->type == GW_JV_NULL)
		return *n ? 0 : gw__error_set(GW_EPARSE, "config.json has no \"%s\"", key);
	if (v->type != GW_JV_ARRAY || len < 1 || len > GW_VISION_STAGES_MAX)
		return gw__error_set(GW_EPARSE, "config.json line %d: \"%s\" must be a list of 1 to %d numbers", v->line,
				     key, GW_VISION_STAGES_MAX);
	if (*n && len != *n)
		return gw__error_set(GW_EPARSE, "config.json line %d: \"%s\" has %zu stages, not %zu", v->line, key,
				     len, *n);
	for (size_t i = 0; i < len; i++)
		if (gw_jv_int64(gw_jv_at(v, i), &x) < 0 || x < 1 || (uint64_t)x > max)
			return gw__error_set(GW_EPARSE, "config.json line %d: \"%s\" must hold whole numbers from 1 to %llu",
					     v->line, key, (unsigned long long)max);
		else
			out[i] = (uint64_t)x;
	*n = len;
	return 0;
}

/* The classifier's outputs: "num_labels", else the entries of "id2label",
 * else transformers' default of 2. */
static int get_labels(const gw_jv *root, uint64_t *out)
{
	static const char *const K_LABELS[] = { "num_labels", NULL };
	const gw_jv *ids = gw_jv_get(root, "id2label");

	*out = 2;
	if (ids && ids->type != GW_JV_NULL) {
		if (ids->type != GW_JV_OBJECT)
			return gw__error_set(GW_EPARSE, "config.json line %d: \"id2label\" must be an object", ids->line);
		*out = gw_jv_len(ids);
	}
	return get_size(root, K_LABELS, MAX_VOCAB, false, out);
}

/* Whether "architectures" names cls. */
static bool has_architecture(const gw_jv *root, const char *cls)
{
	const gw_jv *v = gw_jv_get(root, "architectures");

	for (size_t i = 0; v && v->type == GW_JV_ARRAY && i < gw_jv_len(v); i++) {
		const char *s = gw_jv_str(gw_jv_at(v, i));
		if (s && !strcmp(s, cls))
			return true;
	}
	return false;
}

static const char *const K_IMAGE[] = { "image_size", NULL };
static const char *const K_PATCH[] = { "patch_size", NULL };
static const char *const K_CHANNELS[] = { "num_channels", NULL };
static const char *const K_EMBED[] = { "embed_dim", "embedding_size", NULL };
static const char *const K_WINDOW[] = { "window_size", NULL };

/* mlp_ratio (Swin): a number from 0 (exclusive) to 64; MLP width
 * int(mlp_ratio × width), as SwinIntermediate builds it. */
static int get_mlp_ratio(const gw_jv *root, gw_model *m)
{
	const gw_jv *v = gw_jv_get(root, "mlp_ratio");
	double r = 4.0;

	if (v && v->type != GW_JV_NULL) {
		if (v->type != GW_JV_NUMBER || !(v->u.num.d > 0 && v->u.num.d <= 64))
			return gw__error_set(GW_EPARSE, "config.json line %d: \"mlp_ratio\" must be a number from 0 to 64",
					     v->line);
		r = v->u.num.d;
	}
	m->intermediate_size = (uint64_t)(r * (double)m->embed_dim);
	return m->intermediate_size ? 0 : gw__error_set(GW_EPARSE, "config.json: \"mlp_ratio\" × \"embed_dim\" is 0");
}

/* ViT, DeiT, Swin, ResNet: transformers' config defaults for what is absent
 * (image 224, 3 channels; ViT patch 16, Swin patch 4 and window 7, ResNet
 * stem 64 wide, bottleneck blocks). */
static int read_vision(const gw_jv *root, const struct model_type *t, gw_model *m, struct extra *x)
{
	const gw_jv *lt = gw_jv_get(root, "layer_type");
	int rc;

	m->kind = GW_MODEL_VISION;
	x->family = t->family;
	x->qkv_bias = t->qkv_bias;
	x->classifiers = 1;
	m->image_size = 224;
	m->num_channels = 3;
	m->patch_size = t->family == FAM_VIT ? 16 : 4;
	if ((rc = get_size(root, K_IMAGE, MAX_IMAGE, false, &m->image_size)) ||
	    (rc = get_size(root, K_PATCH, MAX_IMAGE, false, &m->patch_size)) ||
	    (rc = get_size(root, K_CHANNELS, MAX_CHANNELS, false, &m->num_channels)) ||
	    (rc = get_labels(root, &m->num_labels)) || (rc = get_bool(root, "qkv_bias", &x->qkv_bias)) ||
	    (rc = get_dropout(root, &m->dropout)))
		return rc;
	if (t->family == FAM_VIT) {
		m->vision = GW_VISION_VIT;
		m->extra_tokens = strcmp(t->name, "deit") ? 1 : 2;
		if (has_architecture(root, "DeiTForImageClassificationWithTeacher"))
			x->classifiers = 2;
		return (rc = get_size(root, K_HIDDEN, MAX_HIDDEN, true, &m->hidden_size)) ||
		       (rc = get_size(root, K_LAYERS, MAX_LAYERS, true, &m->num_layers)) ||
		       (rc = get_size(root, K_HEADS, MAX_HEADS, true, &m->num_heads)) ||
		       (rc = get_size(root, K_INTER, MAX_INTER, false, &m->intermediate_size)) ? rc : 0;
	}
	if (t->family == FAM_SWIN) {
		m->vision = GW_VISION_SWIN;
		m->embed_dim = 96;
		m->window_size = 7;
		if ((rc = get_size(root, K_EMBED, MAX_HIDDEN, false, &m->embed_dim)) ||
		    (rc = get_size(root, K_WINDOW, MAX_IMAGE, false, &m->window_size)) ||
		    (rc = get_list(root, "depths", MAX_LAYERS, m->stage_depths, &m->num_stages)) ||
		    (rc = get_list(root, "num_heads", MAX_HEADS, m->stage_heads, &m->num_stages)) ||
		    (rc = get_bool(root, "use_absolute_embeddings", &x->abs_pos)) || (rc = get_mlp_ratio(root, m)))
			return rc;
		if (m->num_stages > 1 && m->embed_dim > (MAX_HIDDEN >> (m->num_stages - 1)))
			return gw__error_set(GW_EPARSE, "config.json: \"embed_dim\" × 2^(stages − 1) is too wide");
		return 0;
	}
	m->vision = GW_VISION_RESNET;
	m->patch_size = 4;   /* the stem: stride-2 convolution, stride-2 max pool */
	m->embed_dim = 64;
	m->bottleneck = true;
	if (lt && lt->type != GW_JV_NULL) {
		const char *s = gw_jv_str(lt);
		if (!s || (strcmp(s, "basic") && strcmp(s, "bottleneck")))
			return gw__error_set(GW_EPARSE, "config.json line %d: \"layer_type\" must be \"basic\" or "
					     "\"bottleneck\"", lt->line);
		m->bottleneck = !strcmp(s, "bottleneck");
	}
	if ((rc = get_size(root, K_EMBED, MAX_HIDDEN, false, &m->embed_dim)) ||
	    (rc = get_list(root, "depths", MAX_LAYERS, m->stage_depths, &m->num_stages)) ||
	    (rc = get_list(root, "hidden_sizes", MAX_HIDDEN, m->stage_widths, &m->num_stages)))
		return rc;
	if (gw_jv_get(root, "downsample_in_first_stage") && ((rc = get_bool(root, "downsample_in_first_stage",
									       &m->tied_embeddings)) < 0 ||
							     m->tied_embeddings))
		return rc < 0 ? rc : gw__error_set(GW_ENOTSUP, "downsample_in_first_stage: true is not supported yet");
	return 0;
}

/* Which families need intermediate_size (or its spelling) and learned
 * position counts in the config: the others have a default the config
 * class fills in (4h, or positions the model does not learn). */
static bool inter_required(enum family f)
{
	return f == FAM_LLAMA || f == FAM_BERT || f == FAM_T5 || f == FAM_PHI || f == FAM_NEOX || f == FAM_STARCODER2;
}

static bool positions_required(enum family f)
{
	return f == FAM_GPT2 || f == FAM_BERT || f == FAM_BIGCODE || f == FAM_OPT;
}

/* The config keys each of these decoders' modeling file reads, with its
 * config class's defaults (configuration_*.py):
 * phi: q, k, v, dense, fc1, fc2 and the LM head biased; one LayerNorm a
 *   layer (attention and MLP in parallel); qk_layernorm; head_dim h/heads.
 * falcon: bias (false) on every linear; new_decoder_architecture (false):
 *   num_kv_heads key/value heads (default: all), else multi_query (true):
 *   one; LayerNorms a layer: 2 unless parallel_attn (true), then
 *   num_ln_in_parallel_attn (2 for the new architecture, else 1);
 *   ffn_hidden_size (4h); tied.
 * gptj: q, k, v, out_proj without biases, fc_in/fc_out and the LM head
 *   with; one LayerNorm a layer; untied.
 * gpt_neox: attention_bias (true) on query_key_value and dense; the MLP
 *   biased; 2 LayerNorms; untied (embed_out).
 * bloom: everything biased; word_embeddings_layernorm; 2 LayerNorms; MLP
 *   4h; tied.
 * gpt_bigcode: multi_query (true); learned positions; biased; 2
 *   LayerNorms; tied.
 * opt: enable_bias (true); layer_norm_elementwise_affine (true);
 *   word_embed_proj_dim (h); the final LayerNorm only when
 *   do_layer_norm_before (true) and not _remove_final_layer_norm; tied.
 * starcoder2: use_bias (true) on q, k, v, o, c_fc, c_proj; 2 LayerNorms;
 *   num_key_value_heads; tied.
 * Head dimensions come from h / heads for all of them. */
static int sliding_layers(const gw_jv *root, const struct model_type *t, gw_model *m);

static int read_decoder(const gw_jv *root, const struct model_type *t, gw_model *m, struct extra *x)
{
	static const char *const K_FALCON_KV[] = { "num_kv_heads", "n_head_kv", NULL };
	static const char *const K_PROJ[] = { "word_embed_proj_dim", NULL };
	struct decoder *d = &x->dec;
	bool bias = false, new_arch = false, mq = true, parallel = true, pre_norm = true, no_final = false;
	uint64_t lns = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	/* The attention probabilities' dropout: attn_pdrop for GPT-J (default
	 * 0) and GPTBigCode (0.1), attention_dropout (0) for the rest
	 * (configuration_*.py). */
	if (x->family == FAM_GPTJ || x->family == FAM_BIGCODE)
		m->no_attention_dropout = get_prob(root, "attn_pdrop", x->family == FAM_BIGCODE ? 0.1 : 0) == 0;
	else
		m->no_attention_dropout = get_prob(root, "attention_dropout", 0) == 0;
	d->norm_affine = d->final_norm = true;
	d->layer_norms = 2;
	d->qkv_bias = d->o_bias = d->mlp_bias = true;
	m->head_dim = 0;
	switch (x->family) {
	case FAM_PHI:
		d->layer_norms = 1;
		d->head_bias = true;
		m->parallel_block = 1;   /* PhiDecoderLayer: x + attn(ln(x)) + mlp(ln(x)) */
		return get_bool(root, "qk_layernorm", &d->qk_norm);
	case FAM_FALCON: {
		static const char *const K_LNS[] = { "num_ln_in_parallel_attn", NULL };
		m->num_kv_heads = 0;
		if ((rc = get_bool(root, "bias", &bias)) || (rc = get_bool(root, "new_decoder_architecture", &new_arch)) ||
		    (rc = get_bool(root, "multi_query", &mq)) || (rc = get_bool(root, "parallel_attn", &parallel)) ||
		    (rc = get_size(root, K_LNS, 2, false, &lns)) || (rc = get_bool(root, "alibi", &m->alibi)) ||
		    (new_arch && (rc = get_size(root, K_FALCON_KV, MAX_HEADS, false, &m->num_kv_heads))))
			return rc;
		if (!new_arch && mq)
			m->num_kv_heads = 1;
		d->fused_qkv = true;
		d->qkv_bias = d->o_bias = d->mlp_bias = bias;
		if (!lns && new_arch)
			lns = 2;
		d->layer_norms = !parallel || lns == 2 ? 2 : 1;
		/* FalconDecoderLayer: the new architecture's ln_attn and ln_mlp
		 * both read the input; else one input_layernorm feeds both when
		 * parallel_attn, or attention then post_attention_layernorm. */
		m->parallel_block = new_arch ? (lns == 2 ? 2 : 1) : parallel ? 1 : 0;
		return 0;
	}
	case FAM_GPTJ:
		d->layer_norms = 1;
		m->parallel_block = 1;   /* GPTJBlock: x + attn(ln_1(x)) + mlp(ln_1(x)) */
		d->qkv_bias = d->o_bias = false;
		d->head_bias = true;
		return 0;
	case FAM_NEOX: {
		bool par = true;   /* GPTNeoXConfig's use_parallel_residual default */
		d->fused_qkv = true;
		if ((rc = get_bool(root, "attention_bias", &d->qkv_bias)) < 0 ||
		    (rc = get_bool(root, "use_parallel_residual", &par)) < 0)
			return rc;
		m->parallel_block = par ? 2 : 0;
		d->o_bias = d->qkv_bias;
		return 0;
	}
	case FAM_BLOOM:
		d->fused_qkv = d->embed_norm = true;
		m->alibi = true;
		m->intermediate_size = 4 * m->hidden_size;   /* BloomMLP: always 4h */
		return 0;
	case FAM_BIGCODE:
		d->fused_qkv = true;
		d->positions = m->max_positions;
		if ((rc = get_bool(root, "multi_query", &mq)) < 0)
			return rc;
		m->num_kv_heads = mq ? 1 : 0;
		return 0;
	case FAM_OPT:
		d->positions = m->max_positions + 2;
		if ((rc = get_bool(root, "enable_bias", &d->qkv_bias)) ||
		    (rc = get_bool(root, "layer_norm_elementwise_affine", &d->norm_affine)) ||
		    (rc = get_bool(root, "do_layer_norm_before", &pre_norm)) ||
		    (rc = get_bool(root, "_remove_final_layer_norm", &no_final)) ||
		    (rc = get_size(root, K_PROJ, MAX_HIDDEN, false, &d->embed_dim)))
			return rc;
		d->o_bias = d->mlp_bias = d->qkv_bias;
		d->final_norm = pre_norm && !no_final;
		return 0;
	case FAM_STARCODER2:
		/* Starcoder2DecoderLayer: LayerNorm, attention (grouped k/v heads),
		 * LayerNorm, c_fc → c_proj; use_bias (true) on all six maps. */
		if ((rc = get_bool(root, "use_bias", &d->qkv_bias)) < 0)
			return rc;
		d->o_bias = d->mlp_bias = d->qkv_bias;
		return sliding_layers(root, t, m);
	default:
		return gw__error_set(GW_EINVAL, "%s is not a decoder family", t->name);
	}
}

/* ---- newer decoders: experts, latent attention, windows ---------------- */

/* attention_bias is read by these as Llama reads it (q, k, v and o):
 * Qwen3, Qwen3-MoE, Gemma 2/3, PhiMoE, gpt-oss (GptOssConfig's default
 * true), OLMo, OLMo 2, Granite, Cohere, Cohere 2, SmolLM3, MiniCPM, Llama 4.
 * Mixtral, Qwen2-MoE and DeepSeek build theirs without. */
static bool text_arch_reads_bias(const char *type)
{
	static const char *const names[] = {
		"qwen3", "qwen3_moe", "gemma2", "gemma3_text", "phimoe", "gpt_oss", "olmo", "olmo2", "granite",
		"cohere", "cohere2", "smollm3", "minicpm", "llama4_text",
	};

	for (size_t i = 0; i < GW_ARRAY_SIZE(names); i++)
		if (!strcmp(type, names[i]))
			return true;
	return false;
}

static bool is_type(const struct model_type *t, const char *a, const char *b)
{
	return !strcmp(t->name, a) || (b && !strcmp(t->name, b));
}

/* A size that may be null or absent (def then), else from 0 to max. */
static int get_size0(const gw_jv *root, const char *key, uint64_t max, uint64_t def, uint64_t *out)
{
	const gw_jv *v = gw_jv_get(root, key);
	int64_t i;

	*out = def;
	if (!v || v->type == GW_JV_NULL)
		return 0;
	if (gw_jv_int64(v, &i) < 0 || i < 0 || (uint64_t)i > max)
		return gw__error_set(GW_EPARSE, "config.json line %d: \"%s\" must be a whole number from 0 to %llu",
				     v->line, key, (unsigned long long)max);
	*out = (uint64_t)i;
	return 0;
}

/* Which layers are MoE layers. Qwen2-MoE, Qwen3-MoE (Qwen*MoeDecoderLayer):
 * layer i has experts unless it is in mlp_only_layers, and when (i + 1)
 * is a multiple of decoder_sparse_step (1). DeepSeek (DeepseekV3
 * DecoderLayer): from first_k_dense_replace (0) on, every moe_layer_freq
 * (1). Llama 4: those in moe_layers, else where (i + 1) is a multiple of
 * interleave_moe_layer_step (1). The others: every layer. */
static int moe_layers(const gw_jv *root, const struct model_type *t, gw_model *m)
{
	uint8_t dense[MAX_LAYERS / 8] = { 0 };
	uint64_t step = 1, first = 0, freq = 1, n = 0;
	const gw_jv *only = gw_jv_get(root, "mlp_only_layers");
	int rc;

	if (is_type(t, "llama4_text", NULL)) {
		/* Llama4TextConfig: moe_layers when listed, else every
		 * interleave_moe_layer_step-th layer (1: all). */
		const gw_jv *list = gw_jv_get(root, "moe_layers");
		if (list && list->type == GW_JV_ARRAY) {
			for (size_t i = 0; i < gw_jv_len(list); i++) {
				int64_t k;
				if (gw_jv_int64(gw_jv_at(list, i), &k) < 0 || k < 0)
					return gw__error_set(GW_EPARSE, "config.json line %d: \"moe_layers\" must hold layer "
							     "numbers", list->line);
				n += (uint64_t)k < m->num_layers;
			}
			m->moe_layers = m->experts ? n : 0;
			return 0;
		}
		if ((rc = get_size0(root, "interleave_moe_layer_step", MAX_LAYERS, 1, &step)) < 0)
			return rc;
	} else if (is_type(t, "qwen2_moe", "qwen3_moe")) {
		if ((rc = get_size0(root, "decoder_sparse_step", MAX_LAYERS, 1, &step)) < 0)
			return rc;
		if (only && only->type != GW_JV_NULL) {
			if (only->type != GW_JV_ARRAY)
				return gw__error_set(GW_EPARSE, "config.json line %d: \"mlp_only_layers\" must be a list",
						     only->line);
			for (size_t i = 0; i < gw_jv_len(only) && i < MAX_LAYERS; i++) {
				int64_t k;
				if (gw_jv_int64(gw_jv_at(only, i), &k) < 0 || k < 0 || (uint64_t)k >= MAX_LAYERS)
					return gw__error_set(GW_EPARSE, "config.json line %d: \"mlp_only_layers\" must "
							     "hold layer numbers", only->line);
				dense[k / 8] |= (uint8_t)(1u << (k % 8));
			}
		}
	} else if (is_type(t, "deepseek_v2", "deepseek_v3")) {
		if ((rc = get_size0(root, "first_k_dense_replace", MAX_LAYERS, 0, &first)) < 0 ||
		    (rc = get_size0(root, "moe_layer_freq", MAX_LAYERS, 1, &freq)) < 0)
			return rc;
	}
	for (uint64_t i = 0; i < m->num_layers; i++) {
		if (dense[i / 8] & (1u << (i % 8)))
			continue;
		if (step && (i + 1) % step == 0 && i >= first && freq && i % freq == 0)
			n++;
	}
	m->moe_layers = m->experts ? n : 0;
	return 0;
}

/* Layers with a sliding window. "layer_types" when the config lists them
 * (transformers' own spelling since 4.53: "sliding_attention"); else each
 * family's rule: Mistral, Mixtral, PhiMoE: every layer when sliding_window
 * is set; Gemma 2: the even layers (Gemma2DecoderLayer's is_sliding);
 * Gemma 3: all but every sliding_window_pattern-th (6); Qwen: from
 * max_window_layers on, only with use_sliding_window; gpt-oss: every
 * other layer, from the first; StarCoder2: every layer; Cohere 2, EXAONE 4
 * (sliding_window 4096 unless null): all but every sliding_window_pattern-th
 * (4; EXAONE's may be a string, "LLLG": L sliding); SmolLM3, with
 * use_sliding_window, the layers without rotary (no_rope_layers 0, else
 * every no_rope_layer_interval-th, 4). */
static int sliding_layers(const gw_jv *root, const struct model_type *t, gw_model *m)
{
	const gw_jv *types = gw_jv_get(root, "layer_types");
	uint64_t pattern = 6, from = 0, n = 0, L = m->num_layers;
	bool use = false;
	int rc;

	if ((rc = get_size0(root, "sliding_window", MAX_POSITIONS, 0, &m->sliding_window)) < 0)
		return rc;
	if (is_type(t, "cohere2", "exaone4") && !gw_jv_get(root, "sliding_window"))
		m->sliding_window = 4096;   /* Cohere2Config, Exaone4Config */
	if (!m->sliding_window)
		return 0;
	if (types && types->type == GW_JV_ARRAY) {
		for (size_t i = 0; i < gw_jv_len(types) && i < L; i++) {
			const char *s = gw_jv_str(gw_jv_at(types, i));
			if (s && !strcmp(s, "sliding_attention"))
				n++;
		}
	} else if (is_type(t, "gemma2", "gpt_oss")) {
		n = (L + 1) / 2;
	} else if (is_type(t, "gemma3_text", NULL)) {
		if ((rc = get_size0(root, "sliding_window_pattern", MAX_LAYERS, 6, &pattern)) < 0)
			return rc;
		n = pattern ? L - L / pattern : L;
	} else if (is_type(t, "cohere2", "exaone4")) {
		const char *p = gw_jv_str(gw_jv_get(root, "sliding_window_pattern"));
		size_t len = p ? strlen(p) : 0;
		if (len) {
			for (uint64_t i = 0; i < L; i++)
				n += p[i % len] == 'L';
		} else {
			if ((rc = get_size0(root, "sliding_window_pattern", MAX_LAYERS, 4, &pattern)) < 0)
				return rc;
			n = pattern ? L - L / pattern : L;
		}
	} else if (is_type(t, "smollm3", NULL)) {
		const gw_jv *nr = gw_jv_get(root, "no_rope_layers");
		if ((rc = get_bool(root, "use_sliding_window", &use)) < 0 ||
		    (rc = get_size0(root, "no_rope_layer_interval", MAX_LAYERS, 4, &pattern)) < 0)
			return rc;
		if (use && nr && nr->type == GW_JV_ARRAY) {
			for (size_t i = 0; i < gw_jv_len(nr) && i < L; i++) {
				int64_t k;
				n += gw_jv_int64(gw_jv_at(nr, i), &k) == 0 && k == 0;
			}
		} else if (use) {
			n = pattern ? L / pattern : 0;
		}
	} else if (!strncmp(t->name, "qwen", 4)) {
		if ((rc = get_bool(root, "use_sliding_window", &use)) < 0 ||
		    (rc = get_size0(root, "max_window_layers", MAX_LAYERS, L, &from)) < 0)
			return rc;
		n = use && from < L ? L - from : 0;
	} else if (is_type(t, "mistral", "mixtral") || is_type(t, "phimoe", "starcoder2")) {
		n = L;
	}
	m->sliding_layers = n;
	if (!n)
		m->sliding_window = 0;
	return 0;
}

/* The experts, MLA and per-layer extras of the Llama-shaped decoders
 * (configuration_<type>.py's keys and defaults; modeling_<type>.py's
 * modules). Experts: Mixtral, PhiMoE, gpt-oss num_local_experts of
 * intermediate_size (gpt-oss: experts_per_token); Qwen2-MoE, Qwen3-MoE
 * num_experts of moe_intermediate_size, Qwen2-MoE's one shared expert of
 * shared_expert_intermediate_size; DeepSeek n_routed_experts and
 * n_shared_experts of moe_intermediate_size. */
static int read_text_arch(const gw_jv *root, const struct model_type *t, gw_model *m, struct extra *x)
{
	static const char *const K_EXPERTS[] = { "num_local_experts", "num_experts", "n_routed_experts", NULL };
	static const char *const K_TOPK[] = { "num_experts_per_tok", "experts_per_token", NULL };
	static const char *const K_MOE_INTER[] = { "moe_intermediate_size", NULL };
	struct text_arch *ta = &x->ta;
	uint64_t shared = 0;
	bool qk = false;
	int rc;

	/* Norms a layer: Gemma 2/3 and GLM-4 (Glm4DecoderLayer) put one before
	 * and one after attention and the MLP; OLMo 2 and EXAONE 4 only after
	 * each (post_attention_layernorm, post_feedforward_layernorm); Cohere's
	 * one input_layernorm feeds attention and the MLP side by side. */
	ta->norms = is_type(t, "gemma2", "gemma3_text") || is_type(t, "glm4", NULL) ? 4 :
		    is_type(t, "cohere", "cohere2") ? 1 : 2;
	if (is_type(t, "cohere", "cohere2"))
		m->parallel_block = 1;   /* CohereDecoderLayer: x + attn(ln(x)) + mlp(ln(x)) */
	ta->norm_free = is_type(t, "olmo", NULL);   /* OlmoLayerNorm: no weight, no bias */
	if (is_type(t, "qwen3", "qwen3_moe") || is_type(t, "gemma3_text", "exaone4"))
		ta->qk_norm = QK_HEAD;
	else if (is_type(t, "olmo2", NULL))
		ta->qk_norm = QK_ALL;
	else if (is_type(t, "cohere", NULL)) {
		if ((rc = get_bool(root, "use_qk_norm", &qk)) < 0)
			return rc;
		ta->qk_norm = qk ? QK_ALL : QK_NONE;
	}
	ta->layer_norm = ta->head_bias = is_type(t, "phimoe", NULL);
	ta->sinks = ta->router_bias = ta->expert_bias = is_type(t, "gpt_oss", NULL);
	if (ta->head_bias && (rc = get_bool(root, "lm_head_bias", &ta->head_bias)) < 0)
		return rc;
	if (is_type(t, "mixtral", "phimoe") || is_type(t, "gpt_oss", "llama4_text") || is_type(t, "qwen2_moe", "qwen3_moe") ||
	    is_type(t, "deepseek_v2", "deepseek_v3")) {
		bool own_width = is_type(t, "qwen2_moe", "qwen3_moe") || is_type(t, "deepseek_v2", "deepseek_v3");
		if ((rc = get_size(root, K_EXPERTS, 1u << 16, true, &m->experts)) ||
		    (rc = get_size(root, K_TOPK, m->experts, true, &m->experts_per_token)))
			return rc;
		m->expert_intermediate = m->intermediate_size;
		if (own_width && (rc = get_size(root, K_MOE_INTER, MAX_INTER, true, &m->expert_intermediate)) < 0)
			return rc;
		if (is_type(t, "qwen2_moe", NULL)) {
			if ((rc = get_size0(root, "shared_expert_intermediate_size", MAX_INTER, 0,
					    &m->shared_intermediate)) < 0)
				return rc;
			m->shared_experts = m->shared_intermediate ? 1 : 0;
			ta->shared_gate = m->shared_experts != 0;
		} else if (is_type(t, "deepseek_v2", "deepseek_v3")) {
			if ((rc = get_size0(root, "n_shared_experts", 1u << 10, 0, &shared)) < 0)
				return rc;
			m->shared_experts = shared;
			m->shared_intermediate = shared * m->expert_intermediate;
		} else if (is_type(t, "llama4_text", NULL)) {
			/* Llama4TextMoe: one shared expert as wide as the routed
			 * ones; the dense layers' MLP is intermediate_size_mlp. */
			m->shared_experts = 1;
			m->shared_intermediate = m->expert_intermediate;
			if ((rc = get_size0(root, "intermediate_size_mlp", MAX_INTER, 16384, &m->intermediate_size)) < 0)
				return rc;
		}
		if (!m->intermediate_size)
			m->intermediate_size = m->expert_intermediate;
		if ((rc = moe_layers(root, t, m)) < 0)
			return rc;
	}
	if (is_type(t, "deepseek_v2", "deepseek_v3")) {
		uint64_t nope = 128;
		if ((rc = get_size0(root, "kv_lora_rank", MAX_HIDDEN, 512, &m->kv_lora_rank)) < 0 ||
		    (rc = get_size0(root, "q_lora_rank", MAX_HIDDEN, 0, &ta->q_lora_rank)) < 0 ||
		    (rc = get_size0(root, "qk_nope_head_dim", MAX_HIDDEN, 128, &nope)) < 0 ||
		    (rc = get_size0(root, "qk_rope_head_dim", MAX_HIDDEN, 64, &m->qk_rope_head_dim)) < 0 ||
		    (rc = get_size0(root, "v_head_dim", MAX_HIDDEN, 128, &m->v_head_dim)) < 0)
			return rc;
		if (!m->kv_lora_rank || !m->v_head_dim || !(nope + m->qk_rope_head_dim))
			return gw__error_set(GW_EPARSE, "config.json: kv_lora_rank, v_head_dim and the q/k head width "
					     "must not be 0");
		ta->qk_nope_head_dim = nope;
		/* What attention computes per head (and what transformers'
		 * cache holds, decompressed): q·k over nope + rope. */
		m->head_dim = nope + m->qk_rope_head_dim;
		m->num_kv_heads = m->num_heads;
	}
	return sliding_layers(root, t, m);
}

/* ---- vision-language models ------------------------------------------- */

enum tower { TOWER_CLIP, TOWER_SIGLIP, TOWER_QWEN2_VL, TOWER_LLAMA4 };

/* The VLM model_types: their text model's type when text_config does not
 * say, and the vision tower. */
static const struct vlm_type {
	const char *name, *text;
	enum tower tower;
} vlm_types[] = {
	{ "llava", "llama", TOWER_CLIP },            /* LlavaForConditionalGeneration */
	{ "gemma3", "gemma3_text", TOWER_SIGLIP },   /* Gemma3ForConditionalGeneration */
	{ "qwen2_vl", "qwen2", TOWER_QWEN2_VL },     /* Qwen2VLForConditionalGeneration */
	{ "qwen2_5_vl", "qwen2", TOWER_QWEN2_VL },
	{ "llama4", "llama4_text", TOWER_LLAMA4 },   /* Llama4ForConditionalGeneration */
};

/* What the text config classes default when a VLM's text_config leaves a
 * size out (LlamaConfig, Gemma3TextConfig). */
static void vlm_text_defaults(const char *type, gw_model *m)
{
	if (!strcmp(type, "llama")) {
		m->vocab_size = 32000, m->hidden_size = 4096, m->intermediate_size = 11008;
		m->num_layers = 32, m->num_heads = 32;
	} else if (!strcmp(type, "gemma3_text")) {
		m->vocab_size = 262208, m->hidden_size = 2304, m->intermediate_size = 9216;
		m->num_layers = 26, m->num_heads = 8, m->num_kv_heads = 4, m->head_dim = 256;
	}
}

/* A ViT-style tower of `layers` blocks, width h, MLP i, everything biased
 * (CLIPEncoderLayer, SiglipEncoderLayer): q, k, v, o, two LayerNorms, fc1,
 * fc2; plus the post LayerNorm. */
static void tower_blocks(struct acc *a, uint64_t layers, uint64_t h, uint64_t i)
{
	struct acc layer = { 0 };

	matrix(&layer, 4 * h, h, false);
	vector(&layer, 4 * h + 4 * h);
	matrix(&layer, i, h, false);
	matrix(&layer, h, i, false);
	vector(&layer, i + h);
	repeat(a, &layer, layers);
	vector(a, 2 * h);
}

/* The vision tower and projector, counted as transformers builds them.
 * CLIP (llava): class embedding, patch convolution without bias, one
 * position per patch and the class token, pre-LayerNorm, blocks, post
 * LayerNorm; LlavaMultiModalProjector: linear vision → text width and
 * text → text, biased. SigLIP (Gemma 3): patch convolution with bias,
 * positions, blocks, post LayerNorm (no head: vision_use_head false);
 * Gemma3MultiModalProjector: a vision × text matrix and an RMSNorm.
 * Qwen2-VL: a 3-D patch convolution (temporal_patch_size × patch²) without
 * bias, `depth` blocks of embed_dim with a fused biased qkv and MLP
 * mlp_ratio × wide, and the merger: LayerNorm, linear (embed_dim ×
 * spatial_merge_size²)² and then to hidden_size, biased. Qwen2.5-VL:
 * RMSNorms and a gated MLP of intermediate_size. */
static int count_tower(const gw_jv *v, enum tower tw, uint64_t text_h, uint64_t *out)
{
	static const char *const K_DEPTH[] = { "depth", "num_hidden_layers", NULL };
	static const char *const K_EMBED_DIM[] = { "embed_dim", NULL };
	static const char *const K_VH[] = { "hidden_size", NULL };
	static const char *const K_VI[] = { "intermediate_size", NULL };
	struct acc a = { 0 };
	uint64_t h = 768, i = 3072, layers = 12, image = 224, patch = 32, ch = 3, side, merge = 2, tp = 2;
	uint64_t ratio = 4, out_h = text_h;
	int rc;

	if (tw == TOWER_QWEN2_VL) {
		h = 1280, layers = 32, patch = 14, i = 0;
		if ((rc = get_size(v, K_EMBED_DIM, MAX_HIDDEN, false, &h)) ||
		    (rc = get_size(v, K_DEPTH, MAX_LAYERS, false, &layers)) ||
		    (rc = get_size(v, K_PATCH, MAX_IMAGE, false, &patch)) ||
		    (rc = get_size0(v, "in_chans", MAX_CHANNELS, 3, &ch)) ||
		    (rc = get_size0(v, "in_channels", MAX_CHANNELS, ch, &ch)) ||
		    (rc = get_size0(v, "spatial_merge_size", 64, 2, &merge)) ||
		    (rc = get_size0(v, "temporal_patch_size", 64, 2, &tp)) ||
		    (rc = get_size0(v, "mlp_ratio", 64, 4, &ratio)) ||
		    (rc = get_size0(v, "intermediate_size", MAX_INTER, 0, &i)) ||
		    (rc = get_size0(v, "out_hidden_size", MAX_HIDDEN, text_h, &out_h)))
			return rc;
		if (!gw_jv_get(v, "embed_dim") && gw_jv_get(v, "hidden_size") &&
		    (rc = get_size(v, K_VH, MAX_HIDDEN, false, &h)) < 0)   /* Qwen2.5-VL calls it hidden_size */
			return rc;
		matrix(&a, h, ch * tp * patch * patch, false);
		{
			struct acc layer = { 0 };
			matrix(&layer, 3 * h, h, false);
			vector(&layer, 3 * h);
			matrix(&layer, h, h, false);
			vector(&layer, h);
			if (i) {   /* Qwen2.5-VL: RMSNorms, gated biased MLP */
				vector(&layer, 2 * h);
				matrix(&layer, i, h, false);
				matrix(&layer, i, h, false);
				matrix(&layer, h, i, false);
				vector(&layer, 2 * i + h);
			} else {
				vector(&layer, 4 * h);
				matrix(&layer, ratio * h, h, false);
				matrix(&layer, h, ratio * h, false);
				vector(&layer, ratio * h + h);
			}
			repeat(&a, &layer, layers);
		}
		vector(&a, i ? h : 2 * h);
		matrix(&a, h * merge * merge, h * merge * merge, false);
		vector(&a, h * merge * merge);
		matrix(&a, out_h, h * merge * merge, false);
		vector(&a, out_h);
	} else if (tw == TOWER_LLAMA4) {
		/* Llama4VisionModel: the unfolded patch linear (no bias), the
		 * class embedding, positions for every patch and the class
		 * token, LayerNorms before and after, biased blocks; the pixel
		 * shuffle MLP (projector_input_dim × intermediate_size, then
		 * projector_output_dim square, no biases); the projector to the
		 * text width (vision_output_dim × h, no bias). */
		uint64_t pin = 4096, pout = 4096, vout = 7680;
		h = 768, i = 5632, layers = 34, image = 448, patch = 14;
		if ((rc = get_size(v, K_VH, MAX_HIDDEN, false, &h)) ||
		    (rc = get_size(v, K_VI, MAX_INTER, false, &i)) ||
		    (rc = get_size(v, K_LAYERS, MAX_LAYERS, false, &layers)) ||
		    (rc = get_size(v, K_IMAGE, MAX_IMAGE, false, &image)) ||
		    (rc = get_size(v, K_PATCH, MAX_IMAGE, false, &patch)) ||
		    (rc = get_size(v, K_CHANNELS, MAX_CHANNELS, false, &ch)) ||
		    (rc = get_size0(v, "projector_input_dim", MAX_HIDDEN, pin, &pin)) ||
		    (rc = get_size0(v, "projector_output_dim", MAX_HIDDEN, pout, &pout)) ||
		    (rc = get_size0(v, "vision_output_dim", MAX_HIDDEN, vout, &vout)))
			return rc;
		side = image / patch;
		matrix(&a, h, ch * patch * patch, false);
		vector(&a, h);
		matrix(&a, side * side + 1, h, false);
		vector(&a, 2 * h);
		tower_blocks(&a, layers, h, i);
		matrix(&a, pin, i, false);
		matrix(&a, pout, pout, false);
		matrix(&a, text_h, vout, false);
	} else {
		if (tw == TOWER_SIGLIP)
			h = 768, i = 3072, image = 224, patch = 16;
		if ((rc = get_size(v, K_VH, MAX_HIDDEN, false, &h)) ||
		    (rc = get_size(v, K_VI, MAX_INTER, false, &i)) ||
		    (rc = get_size(v, K_LAYERS, MAX_LAYERS, false, &layers)) ||
		    (rc = get_size(v, K_IMAGE, MAX_IMAGE, false, &image)) ||
		    (rc = get_size(v, K_PATCH, MAX_IMAGE, false, &patch)) ||
		    (rc = get_size(v, K_CHANNELS, MAX_CHANNELS, false, &ch)))
			return rc;
		side = image / patch;
		matrix(&a, h, ch * patch * patch, false);
		if (tw == TOWER_CLIP) {
			vector(&a, h);                          /* class_embedding */
			matrix(&a, side * side + 1, h, false);  /* positions */
			vector(&a, 2 * h);                      /* pre_layrnorm */
		} else {
			vector(&a, h);                          /* the patch convolution's bias */
			matrix(&a, side * side, h, false);
		}
		tower_blocks(&a, layers, h, i);
		if (tw == TOWER_CLIP) {
			matrix(&a, text_h, h, false);
			matrix(&a, text_h, text_h, false);
			vector(&a, 2 * text_h);
		} else {
			matrix(&a, text_h, h, false);
			vector(&a, h);
		}
	}
	if (a.overflow)
		return gw__error_set(GW_EPARSE, "config.json: the vision tower's parameter count overflows");
	*out = a.total;
	return 0;
}

static const struct vlm_type *find_vlm(const char *name)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(vlm_types); i++)
		if (!strcmp(vlm_types[i].name, name))
			return &vlm_types[i];
	return NULL;
}


/* The biases of the Llama-shaped decoders and the head_dim their config
 * classes default to. LlamaAttention, GemmaAttention and most that copy
 * them give q, k, v and o a bias when attention_bias (text_arch_reads_bias
 * names them); LlamaMLP, GraniteMLP, SmolLM3MLP and HeliumMLP their three
 * maps when mlp_bias. GLM, GLM-4 and Helium bias q, k and v only, never o
 * (GlmConfig, Glm4Config: attention_bias true). ERNIE 4.5's use_bias
 * (false) biases all seven maps; InternLM2's bias (true) wqkv and wo.
 * Mistral, Qwen2, Phi-3, EXAONE 4 build theirs without reading a key
 * (Qwen2: q, k, v biased always, o never).
 * head_dim: 128 when absent for GLM, GLM-4, Helium, ERNIE 4.5 (ERNIE: h /
 * heads when null). */
static int read_biases(const gw_jv *root, const struct model_type *t, gw_model *m, struct extra *x)
{
	const gw_jv *hd = gw_jv_get(root, "head_dim");
	bool bias = false, qkv_only = is_type(t, "glm", "glm4") || is_type(t, "helium", NULL);
	int rc;

	if (!hd && (qkv_only || is_type(t, "ernie4_5", NULL)))
		m->head_dim = 128;
	else if (hd && hd->type == GW_JV_NULL && (qkv_only || is_type(t, "ernie4_5", NULL)))
		m->head_dim = is_type(t, "ernie4_5", NULL) ? 0 : 128;
	if (is_type(t, "ernie4_5", NULL)) {
		if ((rc = get_bool(root, "use_bias", &bias)) < 0)
			return rc;
		x->qkv_bias = x->o_bias = x->mlp_bias = bias;
		return 0;
	}
	if (is_type(t, "internlm2", NULL)) {
		bias = true;   /* InternLM2Config's bias: on wqkv and wo, never the MLP */
		if ((rc = get_bool(root, "bias", &bias)) < 0)
			return rc;
		x->qkv_bias = x->o_bias = bias;
		return 0;
	}
	if (!qkv_only && strcmp(t->name, "llama") && strcmp(t->name, "gemma") && !text_arch_reads_bias(t->name))
		return 0;
	bias = is_type(t, "glm", "glm4");
	if ((rc = get_bool(root, "attention_bias", &bias)) < 0)
		return rc;
	x->qkv_bias |= bias;
	x->o_bias = bias && !qkv_only;
	if ((is_type(t, "llama", "granite") || is_type(t, "smollm3", "helium")) &&
	    (rc = get_bool(root, "mlp_bias", &x->mlp_bias)) < 0)
		return rc;
	return 0;
}

static int read_shape(const gw_jv *root, const struct model_type *t, gw_model *m, struct extra *x)
{
	int rc;
	const gw_jv *ff;
	/* A VLM's text_config may leave out what its config class defaults
	 * (llava-1.5's says only vocab_size and max_position_embeddings):
	 * vlm_text_defaults() has filled those in. */
	bool req = !m->hidden_size;

	if (t->kind == GW_MODEL_VISION)
		return read_vision(root, t, m, x);

	m->kind = t->kind;
	m->tied_embeddings = t->tied;
	x->family = t->family;
	x->qkv_bias = t->qkv_bias;
	x->type_vocab = 2;
	x->buckets = 32;
	if ((rc = get_size(root, K_VOCAB, MAX_VOCAB, req, &m->vocab_size)) ||
	    (rc = get_size(root, K_HIDDEN, MAX_HIDDEN, req, &m->hidden_size)) ||
	    (rc = get_size(root, K_LAYERS, MAX_LAYERS, req, &m->num_layers)) ||
	    (rc = get_size(root, K_HEADS, MAX_HEADS, req, &m->num_heads)) ||
	    (rc = get_size(root, K_KV, MAX_HEADS, false, &m->num_kv_heads)) ||
	    (rc = get_size(root, K_INTER, MAX_INTER, req && inter_required(t->family), &m->intermediate_size)) ||
	    (rc = get_size(root, K_HEAD_DIM, MAX_HIDDEN, false, &m->head_dim)) ||
	    (rc = get_size(root, K_POS, MAX_POSITIONS, positions_required(t->family), &m->max_positions)) ||
	    (rc = get_size(root, K_DEC, MAX_LAYERS, false, &m->num_decoder_layers)) ||
	    (rc = get_size(root, K_BUCKETS, 1u << 16, false, &x->buckets)) ||
	    (rc = get_bool(root, "tie_word_embeddings", &m->tied_embeddings)) ||
	    (rc = get_dropout(root, &m->dropout)))
		return rc;
	if (t->family == FAM_BERT) {
		const gw_jv *tv = gw_jv_get(root, "type_vocab_size");
		int64_t n;
		/* RoBERTa-likes may have 0 token types; absent means BERT's 2. */
		if (tv && tv->type != GW_JV_NULL) {
			if (gw_jv_int64(tv, &n) < 0 || n < 0 || n > 1024)
				return gw__error_set(GW_EPARSE, "config.json line %d: \"%s\" must be a whole number "
						     "from 0 to 1024", tv->line, K_TYPES[0]);
			x->type_vocab = (uint64_t)n;
		}
	}
	if (t->family == FAM_LLAMA && (rc = read_biases(root, t, m, x)) < 0)
		return rc;
	x->dec.fused_qkv = !strcmp(t->name, "phi3") || !strcmp(t->name, "internlm2");   /* qkv_proj, wqkv */
	m->gated_mlp = t->family == FAM_LLAMA;
	if (t->family == FAM_LLAMA && (rc = read_text_arch(root, t, m, x)) < 0)
		return rc;
	if (t->family >= FAM_PHI && (rc = read_decoder(root, t, m, x)) < 0)
		return rc;
	if (t->family == FAM_T5 && (ff = gw_jv_get(root, "feed_forward_proj")) && ff->type != GW_JV_NULL) {
		const char *s = gw_jv_str(ff);
		if (!s)
			return gw__error_set(GW_EPARSE, "config.json line %d: \"feed_forward_proj\" must be a string",
					     ff->line);
		m->gated_mlp = !strncmp(s, "gated-", 6);
	} else if (!strcmp(t->name, "mt5")) {
		m->gated_mlp = true;   /* MT5Config's default is gated-gelu */
	}
	return 0;
}

static int model_from_jv(gw_model *out, const gw_jv *root, const char *name)
{
	const struct model_type *t;
	const struct vlm_type *vlm;
	const gw_jv *text = root;
	const char *type = gw_jv_str(gw_jv_get(root, "model_type"));
	struct extra x;
	gw_model m;
	int rc;

	if (!gw_jv_is(root, GW_JV_OBJECT))
		return gw__error_set(GW_EPARSE, "config.json is not a JSON object");
	if (!type)
		return gw__error_set(GW_EPARSE, "config.json has no \"model_type\" string");
	if (!(t = find_type(type)))
		return unsupported_type(type);
	/* A key a config leaves out keeps its zero (get_bool and friends only
	 * write what is there): use_absolute_embeddings was read
	 * uninitialised (UBSan: a bool of 7) for Swin configs without it. */
	memset(&x, 0, sizeof(x));
	memset(&m, 0, sizeof(m));
	gw__strlcpy(m.model_type, t->name, sizeof(m.model_type));
	gw__strlcpy(m.name, name && *name ? name : t->name, sizeof(m.name));
	if ((vlm = find_vlm(t->name))) {
		/* A vision-language model: the text model from text_config
		 * (Qwen2-VL's first configs: the top level), the tower from
		 * vision_config. */
		const gw_jv *tc = gw_jv_get(root, "text_config");
		const char *tt = NULL;
		if (tc && tc->type == GW_JV_OBJECT) {
			text = tc;
			tt = gw_jv_str(gw_jv_get(tc, "model_type"));
		}
		if (!tt || !strncmp(tt, t->name, strlen(t->name)))   /* "qwen2_vl_text": the outer type's own */
			tt = vlm->text;
		if (!(t = find_type(tt)) || find_vlm(tt))
			return unsupported_type(tt);
		if (text != root)
			vlm_text_defaults(t->name, &m);
	}
	if ((rc = read_shape(text, t, &m, &x)) < 0)
		return rc;
	if (vlm) {
		const gw_jv *vc = gw_jv_get(root, "vision_config");
		if (!vc || vc->type != GW_JV_OBJECT)
			return gw__error_set(GW_EPARSE, "config.json has no \"vision_config\" object");
		if ((rc = count_tower(vc, vlm->tower, m.hidden_size, &x.ta.vision_params)) < 0)
			return rc;
	}
	if ((rc = shape_complete(&m)) < 0)
		return gw__error_set(GW_EPARSE, "config.json: %s", gw_error_last());
	if ((rc = count(&m, &x)) < 0)
		return rc;
	*out = m;
	return 0;
}

int gw_model_from_config(gw_model *out, const char *json, size_t len, const char *name)
{
	gw_jsonp_limits lim = { 16u << 20, 32 };
	gw_jsonp_error err;
	gw_jv *root;
	int rc;

	if (!out || (!json && len))
		return gw__error_set(GW_EINVAL, "no config text");
	if (!(root = gw_jsonp_parse(json ? json : "", len, &lim, &err))) {
		if (strstr(err.msg, "memory"))
			return gw__error_set(GW_ENOMEM, "out of memory reading config.json");
		return gw__error_set(GW_EPARSE, "config.json is not valid JSON: %d:%d: %s", err.line, err.col, err.msg);
	}
	rc = model_from_jv(out, root, name);
	gw_jsonp_free(root);
	return rc;
}

/* ---- the catalogue ----------------------------------------------------------- */

size_t gw_model_catalog_count(void)
{
	return GW_ROWS_MODELS_COUNT;
}

int gw_model_catalog_at(size_t i, gw_model_entry *out)
{
	const gw_row_models *r;

	if (!out)
		return gw__error_set(GW_EINVAL, "no output");
	if (i >= GW_ROWS_MODELS_COUNT)
		return gw__error_set(GW_ENOTFOUND, "no catalogue row %zu", i);
	r = &gw_rows_models[i];
	out->name = r->name;
	out->hf = r->hf;
	out->config = r->config;
	out->source = r->source;
	out->params_published = strtoull(r->params, NULL, 10);
	return 0;
}

int gw_model_use_lm_head(gw_model *m)
{
	if (!m)
		return gw__error_set(GW_EINVAL, "no model");
	if (m->kind != GW_MODEL_ENCODER)
		return gw__error_set(GW_EINVAL, "%s has its LM head already, or none to add: the masked-LM head is "
				     "for BERT and RoBERTa encoders", m->name);
	if (!gw__advise_has(m, GW__TRAIT_MLM_HEAD))
		return gw__error_set(GW_EINVAL, "the masked-LM head is modelled for BERT and RoBERTa; %s is a %s "
				     "encoder", m->name, m->model_type);
	if (m->lm_head)
		return 0;
	/* The head's dense h×h + bias takes the pooler's place and size; its
	 * LayerNorm (2h) and the decoder's bias (V) are new; the decoder's
	 * weight is the word embedding's. */
	m->params += 2 * m->hidden_size + m->vocab_size;
	m->params_published = 0;
	m->lm_head = true;
	return 0;
}

int gw_model_from_catalog(gw_model *out, const char *name)
{
	gw_model_entry e;
	gw_model m;
	char shown[64] = "";
	int rc;

	if (!out || !name)
		return gw__error_set(GW_EINVAL, "no model name");
	for (size_t i = 0; i < GW_ROWS_MODELS_COUNT; i++) {
		gw_model_catalog_at(i, &e);
		if (strcasecmp(e.name, name) && strcasecmp(e.hf, name))
			continue;
		if ((rc = gw_model_from_config(&m, e.config, strlen(e.config), e.name)) < 0)
			return rc;
		m.params_published = e.params_published;
		*out = m;
		return 0;
	}
	gw__copy_printable(shown, sizeof(shown), name, strlen(name));
	return gw__error_set(GW_ENOTFOUND, "no model \"%s\" in the catalogue (gpuwise advise --list-models)", shown);
}
