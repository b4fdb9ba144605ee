/* The memory model of `advise`: per-GPU bytes of weights, gradients,
 * optimizer states, activations, KV cache and workspaces for one training
 * or inference step, and the three peaks (allocated, reserved, device).
 * docs/advise.md gives every term with its source; the unit tests check
 * each against a hand calculation. Arithmetic is in double (exact for
 * whole numbers below 2^53), checked against 2^62 before it is returned. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/error.h"
#include "gpuwise/advise.h"
#include "advise/advise_int.h"

#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * MIB)
#define MAX_BATCH (1ull << 20)
#define MAX_SEQ (1ull << 24)
#define MAX_GPUS 65536ull
#define MAX_RANK 65536ull
#define LIMIT_BYTES 4611686018427387904.0   /* 2^62 */

/* ---- the vocabularies -------------------------------------------------------- */

struct vocab {
	const char *kind;
	const char *const *names;   /* index = enum value; NULL-terminated */
	const char *all;
};

static const char *const TASKS[] = { "train", "lora", "qlora", "infer", NULL };
static const char *const PRECISIONS[] = { "auto", "fp32", "tf32", "amp-fp16", "amp-bf16", "fp16", "bf16", NULL };
static const char *const WEIGHTS[] = { "auto", "fp32", "fp16", "bf16", "int8", "nf4", "nf4-dq", "gptq4", NULL };
static const char *const OPTIMIZERS[] = { "adamw", "adam", "sgd", "sgd-momentum", "adafactor", "adamw-8bit",
					  "paged-adamw-8bit", "adamw-fused", "adamw-hf", NULL };
static const char *const STRATEGIES[] = { "ddp", "fsdp", "zero1", "zero2", "zero3", "fsdp-mixed", "tp", "pp", NULL };
static const char *const OFFLOADS[] = { "none", "optimizer", "params", NULL };
static const char *const ATTENTIONS[] = { "auto", "eager", "sdpa", "flash", NULL };
static const char *const LORA_TARGETS[] = { "qv", "attention", "all-linear", "all", NULL };
static const char *const LOOPS[] = { "trainer", "plain", NULL };
static const char *const LOSSES[] = { "cross-entropy", "sum", NULL };

static const struct vocab vocabs[] = {
	{ "task", TASKS, "train lora qlora infer" },
	{ "precision", PRECISIONS, "fp32 tf32 amp-fp16 amp-bf16 fp16 bf16" },
	{ "weights", WEIGHTS, "fp32 fp16 bf16 int8 nf4 nf4-dq gptq4" },
	{ "optimizer", OPTIMIZERS, "adamw adam adamw-fused adamw-hf sgd sgd-momentum adafactor adamw-8bit "
				   "paged-adamw-8bit" },
	{ "strategy", STRATEGIES, "ddp fsdp fsdp-mixed zero1 zero2 zero3 tp pp" },
	{ "offload", OFFLOADS, "none optimizer params" },
	{ "attention", ATTENTIONS, "eager sdpa flash" },
	{ "lora_targets", LORA_TARGETS, "qv attention all-linear all" },
	{ "loop", LOOPS, "trainer plain" },
	{ "loss", LOSSES, "cross-entropy sum" },
};

static const struct vocab *vocab(const char *kind)
{
	for (size_t i = 0; kind && i < GW_ARRAY_SIZE(vocabs); i++)
		if (!strcmp(vocabs[i].kind, kind))
			return &vocabs[i];
	return NULL;
}

int gw_advise_value(const char *kind, const char *name)
{
	const struct vocab *v = vocab(kind);

	for (int i = 0; v && name && v->names[i]; i++)
		if (!strcmp(v->names[i], name))
			return i;
	return -1;
}

const char *gw_advise_name(const char *kind, int value)
{
	const struct vocab *v = vocab(kind);

	for (int i = 0; v && v->names[i]; i++)
		if (i == value)
			return v->names[i];
	return NULL;
}

const char *gw_advise_names(const char *kind)
{
	const struct vocab *v = vocab(kind);

	return v ? v->all : NULL;
}

/* MAJOR.MINOR[.PATCH] at the start of s, as a Python package prints its
 * __version__ ("2.4.0+cu121", "2.6.0a0+git1234", "0.45.0.dev0"): what
 * follows MINOR (or PATCH) is a separator or a letter. *patch is 0 when s
 * has none. false when s does not start so or a part is too large. */
static bool parse_release(const char *s, unsigned long *major, unsigned long *minor, unsigned long *patch)
{
	char *end;

	*patch = 0;
	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*major = strtoul(s, &end, 10);
	if (errno || *end != '.' || !isdigit((unsigned char)end[1]))
		return false;
	*minor = strtoul(end + 1, &end, 10);
	if (!errno && *end == '.' && isdigit((unsigned char)end[1]))
		*patch = strtoul(end + 1, &end, 10);
	if (errno || (*end && *end != '.' && *end != '+' && !isalpha((unsigned char)*end)))
		return false;
	return *major <= 99 && *minor <= 99 && *patch <= 99;
}

/* torch.__version__ → major·100 + minor. */
int gw_advise_torch_version(const char *s, uint32_t *out)
{
	unsigned long major, minor, patch;

	if (!out || !parse_release(s, &major, &minor, &patch))
		return gw__error_set(GW_EINVAL, "a PyTorch version is MAJOR.MINOR, e.g. 2.4 or 1.13.1, not \"%.40s\"",
				     s ? s : "");
	if (major < 1 || major > 9)
		return gw__error_set(GW_EINVAL, "PyTorch %lu.%lu: gpuwise models releases from 1.0 to 9.99", major, minor);
	*out = (uint32_t)(major * 100 + minor);
	return 0;
}

/* bitsandbytes.__version__ → major·10000 + minor·100 + patch. */
int gw_advise_bitsandbytes_version(const char *s, uint32_t *out)
{
	unsigned long major, minor, patch;

	if (!out || !parse_release(s, &major, &minor, &patch))
		return gw__error_set(GW_EINVAL, "a bitsandbytes version is MAJOR.MINOR[.PATCH], e.g. 0.43.1, not \"%.40s\"",
				     s ? s : "");
	if ((major == 0 && minor < 37) || major > 9)
		return gw__error_set(GW_EINVAL, "bitsandbytes %lu.%lu: gpuwise models releases from 0.37 to 9.99",
				     major, minor);
	*out = (uint32_t)(major * 10000 + minor * 100 + patch);
	return 0;
}

/* AutoAWQ's awq.__version__ ("0.2.7", "0.2.7.post3") → major·10000 +
 * minor·100 + patch. */
int gw_advise_autoawq_version(const char *s, uint32_t *out)
{
	unsigned long major, minor, patch;

	if (!out || !parse_release(s, &major, &minor, &patch))
		return gw__error_set(GW_EINVAL, "an AutoAWQ version is MAJOR.MINOR[.PATCH], e.g. 0.2.7, not \"%.40s\"",
				     s ? s : "");
	if ((major == 0 && minor < 1) || major > 9)
		return gw__error_set(GW_EINVAL, "AutoAWQ %lu.%lu: gpuwise models releases from 0.1 to 9.99", major, minor);
	*out = (uint32_t)(major * 10000 + minor * 100 + patch);
	return 0;
}

/* ---- resolving AUTO ------------------------------------------------------------ */

/* r->torch_version names a release before `version` (0: a current one). */
static bool torch_before(const gw_advise_options *r, uint32_t version)
{
	return r->torch_version && r->torch_version < version;
}

/* r->transformers_version names a release before `version` (0: a current one). */
static bool transformers_before(const gw_advise_options *r, uint32_t version)
{
	return r->transformers_version && r->transformers_version < version;
}

/* Whether QLoRA's frozen quantised linear layers keep their input for
 * backward, as a trainable or 16-bit frozen one would not: bitsandbytes'
 * MatMul4Bit did (ctx.tensors = (A, B)) although its backward never read
 * A, until 0.43.2 (bitsandbytes-foundation/bitsandbytes#1270, July 2024:
 * ctx.tensors = (None, B)); MatMul8bitLt still keeps what it needs for 8
 * bits, and GPTQ's kernels are taken to keep it too. A current
 * bitsandbytes (0: not given) keeps nothing of it. */
static bool qlora_keeps_frozen_inputs(const gw_advise_options *r)
{
	if (r->task != GW_TASK_QLORA)
		return false;
	if (r->weights != GW_WEIGHTS_NF4 && r->weights != GW_WEIGHTS_NF4_DQ)
		return true;
	return r->bitsandbytes_version && r->bitsandbytes_version < 4302;
}

/* Frozen linear layers keep nothing of their input (LoRA, and QLoRA with
 * a current bitsandbytes). */
static bool frozen_inputs_dropped(const gw_advise_options *r)
{
	return r->task == GW_TASK_LORA || (r->task == GW_TASK_QLORA && !qlora_keeps_frozen_inputs(r));
}

static bool amp(gw_precision p)
{
	return p == GW_PRECISION_AMP_FP16 || p == GW_PRECISION_AMP_BF16;
}

static bool quantized(gw_weights w)
{
	return w >= GW_WEIGHTS_INT8;
}

static bool lora_task(const gw_advise_options *r)
{
	return r->task == GW_TASK_LORA || r->task == GW_TASK_QLORA;
}

bool gw__advise_fsdp(const gw_advise_options *r)
{
	return r->strategy == GW_STRATEGY_FSDP || r->strategy == GW_STRATEGY_FSDP_MIXED;
}

/* DeepSpeed's ZeRO stage, 0 for DDP and FSDP. */
int gw__advise_zero_stage(const gw_advise_options *r)
{
	if (r->strategy < GW_STRATEGY_ZERO1 || r->strategy > GW_STRATEGY_ZERO3)
		return 0;
	return (int)(r->strategy - GW_STRATEGY_ZERO1) + 1;
}

/* bf16 from compute capability 8.0, fp16 on 7.x; before 7.0 training
 * keeps fp32 (no tensor cores: autocast buys little speed there), but
 * inference loads half weights wherever the GPU has half arithmetic
 * (from 5.3: P100, GeForce 10, as rung_precision() says), as a user
 * passing torch_dtype=float16 on a P100 does; older GPUs keep fp32.
 * Unknown (0.0) is taken as a current GPU. */
static gw_precision precision_for(const gw_advise_options *o)
{
	bool infer = o->task == GW_TASK_INFER;
	bool half = o->cc_major > 5 || (o->cc_major == 5 && o->cc_minor >= 3);

	if (o->cc_major && o->cc_major < 7)
		return infer && half ? GW_PRECISION_FP16 : GW_PRECISION_FP32;
	if (o->cc_major == 7)
		return infer ? GW_PRECISION_FP16 : GW_PRECISION_AMP_FP16;
	return infer ? GW_PRECISION_BF16 : GW_PRECISION_AMP_BF16;
}

/* The storage a precision implies: fp32 for full-precision and autocast
 * training (autocast keeps fp32 weights), the half type otherwise; LoRA
 * loads the frozen base in the half type; QLoRA in NF4 with double quant. */
static gw_weights weights_for(const gw_advise_options *o)
{
	gw_precision p = o->precision;
	bool fp16 = p == GW_PRECISION_AMP_FP16 || p == GW_PRECISION_FP16;

	if (o->task == GW_TASK_QLORA)
		return GW_WEIGHTS_NF4_DQ;
	if (p == GW_PRECISION_FP32 || p == GW_PRECISION_TF32)
		return GW_WEIGHTS_FP32;
	if (o->task == GW_TASK_TRAIN && amp(p))
		return GW_WEIGHTS_FP32;
	return fp16 ? GW_WEIGHTS_FP16 : GW_WEIGHTS_BF16;
}

static uint64_t default_seq(const gw_model *m)
{
	uint64_t want = m->kind == GW_MODEL_DECODER ? 2048 : 512;

	return m->max_positions && m->max_positions < want ? m->max_positions : want;
}

static int bad(const char *what, uint64_t v, uint64_t lo, uint64_t hi)
{
	if (v >= lo && v <= hi)
		return 0;
	return gw__error_set(GW_EINVAL, "%s must be from %llu to %llu (got %llu)", what, (unsigned long long)lo,
			     (unsigned long long)hi, (unsigned long long)v);
}

/* --decoder-seq: the target length of an encoder-decoder model in
 * training (generation's decoder length is --new-tokens); seq when not
 * given. Other models have one sequence. */
static int resolve_decoder_seq(gw_advise_options *r, const gw_model *m)
{
	if (!r->decoder_seq) {
		/* the default is seq, said in the 16 bits when it fits; 0 (the
		 * JSON's null) still means seq for a longer one */
		if (m->kind == GW_MODEL_ENCODER_DECODER && r->task != GW_TASK_INFER && r->seq <= UINT16_MAX)
			r->decoder_seq = (uint16_t)r->seq;
		return 0;
	}
	if (m->kind != GW_MODEL_ENCODER_DECODER)
		return gw__error_set(GW_EINVAL, "--decoder-seq is the target length of an encoder-decoder model "
				     "(T5); %s reads one sequence, --seq", m->name);
	if (r->task == GW_TASK_INFER)
		return gw__error_set(GW_EINVAL, "--decoder-seq applies to training; in generation the decoder's "
				     "tokens are --new-tokens");
	return 0;
}

/* transformers' default attention: SDPA where the model has it. T5, Swin
 * and BLOOM do not (GW__TRAIT_NO_SDPA: BloomAttention computes its ALiBi
 * scores with baddbmm and an fp32 softmax itself, transformers 5.25,
 * models/bloom/modeling_bloom.py), so from_config builds them eager. */
static bool has_sdpa(const gw_model *m)
{
	return m->kind != GW_MODEL_ENCODER_DECODER && m->vision != GW_VISION_SWIN &&
	       !gw__advise_has(m, GW__TRAIT_NO_SDPA);
}

/* vLLM splits a layer's heads over tensor_parallel_size GPUs when the
 * attention heads divide evenly, and the key/value heads either divide
 * too or are copied so that each GPU holds one (vllm/config: "Total number
 * of attention heads must be divisible by tensor parallel size";
 * get_num_kv_heads: max(1, kv_heads // tp)). */
static bool tp_divides(const gw_model *m, uint64_t n)
{
	return m->num_heads % n == 0 && m->num_kv_heads && (m->num_kv_heads % n == 0 || n % m->num_kv_heads == 0);
}

/* Inference over several GPUs splits a decoder (GW_STRATEGY_TP/PP);
 * training shards with FSDP/ZeRO instead. */
static int resolve_split(gw_advise_options *r, const gw_model *m)
{
	bool split = r->strategy == GW_STRATEGY_TP || r->strategy == GW_STRATEGY_PP;

	if (split && r->task != GW_TASK_INFER)
		return gw__error_set(GW_EINVAL, "--strategy %s splits a model for inference (--task infer); training "
				     "shards with fsdp or zero1-3", STRATEGIES[r->strategy]);
	if (split && m->kind != GW_MODEL_DECODER)
		return gw__error_set(GW_EINVAL, "--strategy %s is modelled for decoder models; %s is not one",
				     STRATEGIES[r->strategy], m->name);
	if (r->task != GW_TASK_INFER || m->kind != GW_MODEL_DECODER || r->gpus < 2)
		return 0;
	if (r->strategy == GW_STRATEGY_DDP)
		r->strategy = tp_divides(m, r->gpus) ? GW_STRATEGY_TP : GW_STRATEGY_PP;
	if (r->strategy == GW_STRATEGY_TP && !tp_divides(m, r->gpus))
		return gw__error_set(GW_EINVAL, "--strategy tp over %llu GPUs: %s's %llu attention heads (%llu key/value "
				     "heads) do not divide evenly, which vLLM refuses; use --strategy pp",
				     (unsigned long long)r->gpus, m->name, (unsigned long long)m->num_heads,
				     (unsigned long long)m->num_kv_heads);
	if (r->strategy == GW_STRATEGY_PP && r->gpus > m->num_layers)
		return gw__error_set(GW_EINVAL, "--strategy pp over %llu GPUs: %s has only %llu layers",
				     (unsigned long long)r->gpus, m->name, (unsigned long long)m->num_layers);
	return 0;
}

/* --offload activations is torchtune's OffloadActivations under its
 * recipes' rules: training only, a decoder (its recipes' models), and
 * with activation checkpointing, which the recipes require beside it
 * ("enable_activation_offloading should only be True when
 * enable_activation_checkpointing is True"). */
static int resolve_offload_activations(const gw_advise_options *r, const gw_model *m)
{
	if (!r->offload_activations)
		return 0;
	if (r->offload_activations > 1)
		return gw__error_set(GW_EINVAL, "advise options: offload_activations %u is not 0 or 1",
				     r->offload_activations);
	if (r->task == GW_TASK_INFER)
		return gw__error_set(GW_EINVAL, "--offload activations applies to training: inference keeps no "
				     "activations for backward");
	if (m->kind != GW_MODEL_DECODER)
		return gw__error_set(GW_EINVAL, "--offload activations is modelled for decoders (torchtune's "
				     "recipes); %s is not one", m->name);
	if (!r->checkpointing)
		return gw__error_set(GW_EINVAL, "--offload activations needs --checkpointing: torchtune offloads "
				     "the checkpointed layers' inputs and refuses offloading without checkpointing");
	return 0;
}

/* Whether AutoAWQ's fused attention calls PyTorch's SDPA in its prefill:
 * from 0.2.7 (casper-hansen/AutoAWQ eab1a4a, #549, first released in
 * 0.2.7) LlamaLikeBlock builds QuantAttentionFused with use_sdpa=True
 * (awq/modules/fused/block.py), and the fusers of llama, mistral, qwen2,
 * gemma, starcoder2 and llava use that block (their awq/models files at v0.2.7);
 * 0.2.7.post3 (#656) calls flash-attn there instead, which keeps no
 * scores either. Before 0.2.7, and for the other fused blocks (Mixtral's,
 * Falcon's, MPT's), it computes the scores itself. */
static bool autoawq_sdpa(const gw_model *m, const gw_advise_options *r)
{
	return r->autoawq_fused && r->autoawq_version >= 207 && gw__advise_has(m, GW__TRAIT_AWQ_LLAMA_BLOCK);
}

/* --autoawq-fused is AutoAWQ's from_quantized(fuse_layers=True): 4-bit
 * AWQ weights (gptq4's storage: 4 bits, an fp16 scale and a 4-bit zero
 * per 128-weight group), inference of a decoder, and its fused attention
 * module, which computes its scores itself (eager) whatever
 * attn_implementation says, or from 0.2.7 in Llama-shaped models calls
 * SDPA (autoawq_sdpa). */
static int resolve_autoawq(gw_advise_options *r, const gw_model *m)
{
	if (r->autoawq_version && !r->autoawq_fused)
		return gw__error_set(GW_EINVAL, "--autoawq names the AutoAWQ release of --autoawq-fused");
	if (!r->autoawq_fused)
		return 0;
	if (r->autoawq_fused > 1)
		return gw__error_set(GW_EINVAL, "advise options: autoawq_fused %u is not 0 or 1", r->autoawq_fused);
	if (r->task != GW_TASK_INFER || m->kind != GW_MODEL_DECODER || r->weights != GW_WEIGHTS_GPTQ4 || r->gpus > 1)
		return gw__error_set(GW_EINVAL, "--autoawq-fused is AutoAWQ's fused inference of a decoder's 4-bit "
				     "AWQ weights on one GPU: it needs --task infer, --weights gptq4 and --gpus 1");
	if (r->attention == GW_ATTENTION_SDPA || r->attention == GW_ATTENTION_FLASH)
		return gw__error_set(GW_EINVAL, "--autoawq-fused runs AutoAWQ's own attention whatever "
				     "attn_implementation says (eager; from 0.2.7 an SDPA call in Llama-shaped "
				     "models): --attention %s does not apply",
				     r->attention == GW_ATTENTION_SDPA ? "sdpa" : "flash");
	r->attention = autoawq_sdpa(m, r) ? GW_ATTENTION_SDPA : GW_ATTENTION_EAGER;
	return 0;
}

/* --no-zero-init describes how a ZeRO-3 training script builds its model
 * (gw__advise_zero3_saved_weights): it needs ZeRO-3 and training. */
static int resolve_zero_init(const gw_advise_options *r)
{
	if (!r->no_zero_init)
		return 0;
	if (r->no_zero_init > 1)
		return gw__error_set(GW_EINVAL, "advise options: no_zero_init %u is not 0 or 1", r->no_zero_init);
	if (r->strategy != GW_STRATEGY_ZERO3 || r->task == GW_TASK_INFER)
		return gw__error_set(GW_EINVAL, "--no-zero-init describes DeepSpeed ZeRO-3 training: it needs "
				     "--strategy zero3 and a training task");
	return 0;
}

static int resolve(gw_advise_options *r, const gw_model *m, const gw_advise_options *o)
{
	int rc;

	/* Version 5 is the layout of libgpuwise.so.1 (docs/abi.md); the
	 * reserved fields are 0 until a later version gives them a meaning. */
	if (o->version < 5 || o->version > GW_ADVISE_OPTIONS_VERSION)
		return gw__error_set(GW_EINVAL, "advise options version %u (this library reads 5 to %u)", o->version,
				     GW_ADVISE_OPTIONS_VERSION);
	*r = *o;
	for (size_t i = 0; i < GW_ARRAY_SIZE(r->reserved); i++)
		if (r->reserved[i])
			return gw__error_set(GW_EINVAL, "advise options: reserved fields must be 0");
	if (r->bitsandbytes_version && (r->bitsandbytes_version < 3700 || r->bitsandbytes_version > 99999))
		return gw__error_set(GW_EINVAL, "advise options: bitsandbytes_version %u is not major·10000 + minor·100 + "
				     "patch", r->bitsandbytes_version);
	if (r->loop > GW_LOOP_PLAIN)
		return gw__error_set(GW_EINVAL, "advise options: loop %u is not a gw_training_loop", r->loop);
	if (r->torch_version && (r->torch_version < 100 || r->torch_version > 999))
		return gw__error_set(GW_EINVAL, "advise options: torch_version %u is not major·100 + minor",
				     r->torch_version);
	if (r->loss_chunks > 65536)
		return gw__error_set(GW_EINVAL, "advise options: loss_chunks %u is more than 65,536", r->loss_chunks);
	if (r->loss > GW_LOSS_SUM)
		return gw__error_set(GW_EINVAL, "advise options: loss %u is not a gw_training_loss", r->loss);
	if (r->loss == GW_LOSS_SUM && r->loss_chunks > 1)
		return gw__error_set(GW_EINVAL, "--loss sum takes no cross-entropy, so nothing to chunk: it "
				     "excludes --loss-chunks");
	if (r->transformers_version && (r->transformers_version < 100 || r->transformers_version > 999))
		return gw__error_set(GW_EINVAL, "advise options: transformers_version %u is not major·100 + minor",
				     r->transformers_version);
	if (r->init_on_gpu > 1)
		return gw__error_set(GW_EINVAL, "advise options: init_on_gpu %u is not 0 or 1", r->init_on_gpu);
	if (r->autoawq_version && (r->autoawq_version < 100 || r->autoawq_version > 99999))
		return gw__error_set(GW_EINVAL, "advise options: autoawq_version %u is not major·10000 + minor·100 + "
				     "patch", r->autoawq_version);
	if (m->kind == GW_MODEL_VISION && (rc = gw__advise_vision_resolve(r, m)) < 0)
		return rc;
	if (!r->seq)
		r->seq = default_seq(m);
	if (!r->lora_rank)
		r->lora_rank = 8;
	if ((rc = bad("--batch", r->batch, 1, MAX_BATCH)) || (rc = bad("--seq", r->seq, 1, MAX_SEQ)) ||
	    (rc = bad("--gpus", r->gpus, 1, MAX_GPUS)) || (rc = bad("--grad-accum", r->grad_accum, 1, MAX_BATCH)) ||
	    (rc = bad("--lora-rank", r->lora_rank, 1, MAX_RANK)))
		return rc;
	if ((unsigned)r->task > GW_TASK_INFER || (unsigned)r->precision > GW_PRECISION_BF16 ||
	    (unsigned)r->weights > GW_WEIGHTS_GPTQ4 || (unsigned)r->optimizer > GW_OPTIMIZER_ADAMW_HF ||
	    (unsigned)r->strategy > GW_STRATEGY_PP || (unsigned)r->offload > GW_OFFLOAD_PARAMS ||
	    (unsigned)r->attention > GW_ATTENTION_FLASH || (unsigned)r->lora_targets > GW_LORA_ALL)
		return gw__error_set(GW_EINVAL, "an advise option is out of range");
	if (r->lora_targets != GW_LORA_QV && m->kind == GW_MODEL_VISION)
		return gw__error_set(GW_EINVAL, "--lora-targets %s is modelled for text models; %s takes LoRA on q "
				     "and v", LORA_TARGETS[r->lora_targets], m->name);
	if (r->task == GW_TASK_INFER && m->kind == GW_MODEL_DECODER && r->new_tokens >= r->seq)
		return gw__error_set(GW_EINVAL, "--new-tokens (%llu) must be less than --seq (%llu): the sequence "
				     "holds the prompt and the generated tokens", (unsigned long long)r->new_tokens,
				     (unsigned long long)r->seq);
	if (r->new_tokens > MAX_SEQ)
		return bad("--new-tokens", r->new_tokens, 0, MAX_SEQ);
	if ((rc = resolve_decoder_seq(r, m)) < 0)
		return rc;
	if (r->precision == GW_PRECISION_AUTO)
		r->precision = precision_for(r);
	if (r->weights == GW_WEIGHTS_AUTO)
		r->weights = weights_for(r);
	if (r->task == GW_TASK_TRAIN && quantized(r->weights))
		return gw__error_set(GW_EINVAL, "full training cannot update %s weights; use --task qlora",
				     WEIGHTS[r->weights]);
	if (r->task == GW_TASK_QLORA && !quantized(r->weights))
		return gw__error_set(GW_EINVAL, "--task qlora keeps the base model in 8 or 4 bits (--weights int8, nf4, "
				     "nf4-dq or gptq4), not %s", WEIGHTS[r->weights]);
	if (r->offload != GW_OFFLOAD_NONE &&
	    (r->optimizer == GW_OPTIMIZER_ADAMW_8BIT || r->optimizer == GW_OPTIMIZER_PAGED_ADAMW_8BIT))
		return gw__error_set(GW_EINVAL, "--offload %s runs DeepSpeed's own CPU optimizer; a bitsandbytes 8-bit "
				     "optimizer (%s) keeps its states on the GPU and does not combine with it",
				     OFFLOADS[r->offload], OPTIMIZERS[r->optimizer]);
	if (r->offload == GW_OFFLOAD_PARAMS && r->strategy != GW_STRATEGY_ZERO3 && !gw__advise_fsdp(r))
		return gw__error_set(GW_EINVAL, "--offload params needs --strategy zero3 or fsdp");
	if ((rc = resolve_offload_activations(r, m)) < 0 || (rc = resolve_autoawq(r, m)) < 0 ||
	    (rc = resolve_zero_init(r)) < 0)
		return rc;
	if (r->attention == GW_ATTENTION_SDPA && torch_before(r, 200))
		return gw__error_set(GW_EINVAL, "--attention sdpa needs PyTorch 2.0 or later "
				     "(torch.nn.functional.scaled_dot_product_attention); --torch %u.%u has eager attention",
				     r->torch_version / 100, r->torch_version % 100);
	if ((rc = resolve_split(r, m)) < 0)
		return rc;
	/* Before PyTorch 2.1.1 transformers builds every model eager (its
	 * is_torch_sdpa_available()); timm and LitGPT use SDPA from 2.0. */
	if (r->attention == GW_ATTENTION_AUTO)
		r->attention = has_sdpa(m) && !torch_before(r, 201) ? GW_ATTENTION_SDPA : GW_ATTENTION_EAGER;
	return 0;
}

/* ---- the terms ----------------------------------------------------------------- */

/* Bytes per stored linear weight. NF4: 4 bits plus one fp32 absmax per
 * 64-weight block; double quantisation stores the absmax in 8 bits plus
 * one fp32 constant per 256 blocks (QLoRA, Dettmers et al. 2023, §3).
 * GPTQ 4-bit: an fp16 scale and a 4-bit zero point per 128-weight group. */
double gw__advise_weight_bytes(gw_weights w)
{
	switch (w) {
	case GW_WEIGHTS_FP32: return 4;
	case GW_WEIGHTS_INT8: return 1;
	case GW_WEIGHTS_NF4: return 0.5 + 4.0 / 64;
	case GW_WEIGHTS_NF4_DQ: return 0.5 + 1.0 / 64 + 4.0 / (64 * 256);
	case GW_WEIGHTS_GPTQ4: return 0.5 + 2.5 / 128;
	default: return 2;
	}
}

/* Bytes of one activation element: 4 in fp32/tf32, 2 under autocast or
 * in half precision. */
double gw__advise_act_bytes(const gw_advise_options *r)
{
	return r->precision == GW_PRECISION_FP32 || r->precision == GW_PRECISION_TF32 ? 4 : 2;
}

/* Bytes of a trainable parameter (and its gradient). Adapters of LoRA are
 * fp32 (PEFT creates them so); full training stores in the weights' type. */
static double train_bytes(const gw_advise_options *r)
{
	if (r->task != GW_TASK_TRAIN)
		return 4;
	return r->weights == GW_WEIGHTS_FP32 ? 4 : 2;
}

/* Σ in + out features of the linear maps --lora-targets adapts: a rank-r
 * adapter of an in×out map has r·(in + out) parameters. q and v are the
 * model's own count (m->lora_features: the fused q+k+v projection there
 * for the models that have one); wider targets add, per self-attention
 * block, k and the output projection (only the output projection where
 * q, k and v are one map, GW__TRAIT_FUSED_QKV: GPT-2's c_proj beside
 * c_attn, Falcon's, GPT-NeoX's and BLOOM's dense beside query_key_value,
 * GPTBigCode's c_proj, Phi-3's o_proj beside qkv_proj), per MLP its two or
 * three maps (two where gate and up are one, GW__TRAIT_FUSED_GATE_UP:
 * Phi-3's gate_up_proj), and for "all" the LM head. T5's decoder layers
 * have a second (cross-)attention block. */
double gw__advise_lora_features(const gw_model *m, const gw_advise_options *r)
{
	double h = (double)m->hidden_size, q = (double)(m->num_heads * m->head_dim);
	double kv = (double)(m->num_kv_heads * m->head_dim), i = (double)m->intermediate_size;
	double blocks = (double)(m->num_layers + 2 * m->num_decoder_layers);
	double mlps = (double)(m->num_layers + m->num_decoder_layers);
	double f = (double)m->lora_features;
	unsigned traits = gw__advise_traits(m);
	bool fused_qkv = traits & GW__TRAIT_FUSED_QKV, fused_gate_up = traits & GW__TRAIT_FUSED_GATE_UP;

	if (r->lora_targets == GW_LORA_QV)
		return f;
	f += blocks * (fused_qkv ? q + h : (h + kv) + (q + h));
	if (r->lora_targets == GW_LORA_ATTENTION)
		return f;
	f += mlps * (fused_gate_up ? h + 2 * i : (h + i) * (m->gated_mlp ? 2 : 1)) + mlps * (i + h);
	if (r->lora_targets == GW_LORA_ALL && m->kind != GW_MODEL_ENCODER)
		f += h + (double)m->vocab_size;
	return f;
}

static double trainable(const gw_model *m, const gw_advise_options *r)
{
	switch (r->task) {
	case GW_TASK_TRAIN: return (double)m->params;
	case GW_TASK_LORA:
	case GW_TASK_QLORA: return (double)r->lora_rank * gw__advise_lora_features(m, r);
	default: return 0;
	}
}

static bool shards_params(const gw_advise_options *r)
{
	return r->strategy == GW_STRATEGY_ZERO3 || gw__advise_fsdp(r);
}

/* QLoRA under autocast as the Hugging Face recipe runs it: PEFT's
 * prepare_model_for_kbit_training casts every parameter that is not
 * quantised (embeddings, norms, the LM head) to fp32, and TRL's SFTTrainer
 * calls it for a 4/8-bit model unless FSDP shards it (sharded QLoRA loads
 * the weights on the CPU or meta device and skips it). The embedding's
 * output is then fp32, and so is the residual stream every layer adds to
 * (fp32 + bf16 is fp32): what checkpointing keeps of each layer is fp32
 * (traced on the CPU with bitsandbytes 0.50 and a Mistral-shaped model:
 * 4 bytes a hidden element a layer, 2 without the cast). */
static bool kbit_prepared(const gw_advise_options *r)
{
	return r->task == GW_TASK_QLORA && amp(r->precision) && !(gw__advise_fsdp(r) && r->gpus > 1);
}

/* Autocast's half copies of the fp32 linear weights: the cast cache keeps
 * one per weight until the outermost autocast region exits
 * (torch.autocast.__exit__ calls torch.clear_autocast_cache() when the
 * nesting falls to 0, torch/amp/autocast_mode.py), and each matmul saves
 * it for its input's gradient, so it lives on into backward until that
 * node has run and released its saved tensors. Vision models' convolutions
 * too: conv2d is on autocast's lower-precision list and its weight is such
 * a leaf (aten/src/ATen/autocast_mode.cpp, cached_cast; the convolution's
 * backward keeps the half weight for its input's gradient), and so is the
 * classifier's linear: for ResNet, which has no other linear map, every
 * weight but BatchNorm's (batch_norm is on neither of autocast's lists). */
double gw__advise_autocast_weight_copies(const gw_model *m, const gw_advise_options *r)
{
	double n = (double)m->params_linear;

	if (!amp(r->precision) || r->weights != GW_WEIGHTS_FP32 || r->task == GW_TASK_INFER)
		return 0;
	if (m->kind == GW_MODEL_VISION)
		n += gw__advise_vision_cast_weights(m);
	return 2 * n;
}

/* Weights: the linear maps in their storage type, everything else
 * (embeddings, norms, the LM head) in 16 bits when the linears are
 * quantised, fp32 once prepared for k-bit training; autocast's half copies
 * of fp32 linear weights, which it keeps for the backward pass (of the LM
 * head too, when k-bit preparation made it fp32); LoRA adapters in fp32;
 * ZeRO-3/FSDP shards. */
double gw__advise_weights(const gw_model *m, const gw_advise_options *r)
{
	double lin = (double)m->params_linear, rest = (double)m->params - lin;
	double wb = gw__advise_weight_bytes(r->weights);
	double other = r->weights == GW_WEIGHTS_FP32 || kbit_prepared(r) ? 4 : 2;
	double w = lin * wb + rest * other;

	w += gw__advise_autocast_weight_copies(m, r);
	if (kbit_prepared(r) && m->kind != GW_MODEL_ENCODER && m->kind != GW_MODEL_VISION)
		w += 2 * (double)m->vocab_size * (double)m->hidden_size;
	if (shards_params(r)) {
		w /= (double)r->gpus;
		if (r->offload == GW_OFFLOAD_PARAMS)
			w = 0;
	}
	if (lora_task(r))
		w += 4 * trainable(m, r);
	return w;
}

/* Gradients of the trainable parameters in their type; DDP on several GPUs
 * adds its buckets (a second copy: gradient_as_bucket_view is off by
 * default); ZeRO-2/3 keep 1/N. LoRA under FSDP: PEFT's
 * fsdp_auto_wrap_policy (which transformers' Trainer applies to a PEFT
 * model, as Answer.AI's fsdp_qlora does its own) puts the adapters in
 * units of their own, so frozen weights get no gradient (fsdp). LitGPT
 * wraps each transformer block, frozen and trainable parameters together,
 * as one unit (fsdp-mixed), and then, in PyTorch's FSDP documentation's
 * words, "the gradient memory usage will be higher than expected (namely,
 * equivalent to not freezing those parameters)" (Lightning-AI/litgpt#1417).
 * FSDP itself: see fsdp_gradients(). */
double gw__advise_gradients(const gw_model *m, const gw_advise_options *r)
{
	double g = trainable(m, r) * train_bytes(r);

	if (r->task == GW_TASK_INFER)
		return 0;
	if (lora_task(r) && r->strategy == GW_STRATEGY_FSDP_MIXED && r->gpus > 1)
		g = (double)m->params * (r->weights == GW_WEIGHTS_FP32 ? 4 : 2);
	if (gw__advise_fsdp(r) && r->gpus > 1)
		return gw__advise_fsdp_gradients(m, r, g);
	if (r->strategy == GW_STRATEGY_DDP && r->gpus > 1)
		return 2 * g;
	if (r->strategy == GW_STRATEGY_ZERO2 || shards_params(r))
		return g / (double)r->gpus;
	return g;
}

/* FSDP's gradients of `full` bytes (every unit's flat parameter). When it
 * syncs: 1/N each, plus the unsharded gradient of the unit whose backward
 * just ran, alive until its reduce-scatter has filled the shard (FSDP
 * reduce-scatters per unit in its post-backward hook). When gradients are
 * accumulated over several micro-batches, the training loops skip the sync
 * on all but the last (Lightning's fabric.no_backward_sync, LitGPT's
 * finetune scripts, Accelerate's accumulate() unless sync_each_batch), and
 * FSDP's no_sync() keeps them unsharded: "FSDP will accumulate the full
 * model gradients (instead of gradient shards) until the eventual sync"
 * (PyTorch, FullyShardedDataParallel.no_sync). */
double gw__advise_fsdp_gradients(const gw_model *m, const gw_advise_options *r, double full)
{
	double unit = (double)m->layer_params * (r->weights == GW_WEIGHTS_FP32 ? 4 : 2);

	if (r->grad_accum > 1)
		return full;
	if (r->task == GW_TASK_TRAIN)
		unit = (double)m->layer_params * train_bytes(r);
	else if (r->strategy == GW_STRATEGY_FSDP)   /* a unit holds one layer's adapters only */
		unit = full / (double)(m->num_layers + m->num_decoder_layers);
	return full / (double)r->gpus + unit;
}

/* Optimizer states per trainable parameter: Adam(W) m and v in the
 * parameter's type, or 12 bytes (fp32 master, m, v: the ZeRO paper's K)
 * when DeepSpeed trains pure half weights; SGD none, momentum one; 8-bit
 * Adam two bytes plus an fp32 absmax per 2048-element block and state;
 * Adafactor the factored row and column second moments. ZeRO 1-3/FSDP
 * shard them; offload moves them to the CPU. */
double gw__advise_optimizer(const gw_model *m, const gw_advise_options *r)
{
	double n = trainable(m, r), pb = train_bytes(r), s;
	bool zero = gw__advise_zero_stage(r) > 0;

	if (r->task == GW_TASK_INFER || r->offload != GW_OFFLOAD_NONE)
		return 0;
	switch (r->optimizer) {
	case GW_OPTIMIZER_SGD: s = 0; break;
	case GW_OPTIMIZER_SGD_MOMENTUM: s = n * pb; break;
	case GW_OPTIMIZER_ADAFACTOR:
		s = pb * (r->task == GW_TASK_TRAIN ? (double)m->params_factored : n);
		break;
	case GW_OPTIMIZER_ADAMW_8BIT:
	case GW_OPTIMIZER_PAGED_ADAMW_8BIT: s = n * (2 + 8.0 / 2048); break;
	default: s = n * (zero && pb == 2 ? 12 : 2 * pb); break;
	}
	if (zero || gw__advise_fsdp(r))
		s /= (double)r->gpus;
	return s - gw__advise_paged_states(m, r);
}

/* The part of the optimizer states a paged optimizer keeps outside
 * PyTorch's caching allocator. bitsandbytes' paged optimizers
 * (Optimizer8bit/Optimizer2State with is_paged, bitsandbytes/optim/
 * optimizer.py get_state_buffer, read at 1b7b9bb4) allocate the state of
 * every parameter of at least 1e5 elements with F.get_paged
 * (bitsandbytes/functional.py), which calls cudaMallocManaged
 * (csrc/pythonInterface.cpp cget_managed_ptr) and wraps the pointer with
 * torch.frombuffer: a CPU tensor to PyTorch, unified memory the driver
 * migrates to the GPU as the step reads it. So max_memory_allocated and
 * max_memory_reserved never count it, while the device does (when it
 * fits). bitsandbytes' own benchmark shows it: PagedAdamW and
 * PagedAdamW8bit peak at the same allocated figure (benchmarking/
 * README.md, Qwen3-0.6B on an A100, 5975.0 and 5983.6 MiB), their states
 * "on CPU". Here: the two one-byte states of every trainable parameter;
 * the smaller parameters' states and the block absmax stay on the GPU
 * (under 0.1 % of the states for the models advise reads). */
double gw__advise_paged_states(const gw_model *m, const gw_advise_options *r)
{
	double s;

	if (r->optimizer != GW_OPTIMIZER_PAGED_ADAMW_8BIT || r->task == GW_TASK_INFER ||
	    r->offload != GW_OFFLOAD_NONE)
		return 0;
	s = trainable(m, r) * 2;
	if (gw__advise_zero_stage(r) > 0 || gw__advise_fsdp(r))
		s /= (double)r->gpus;
	return s;
}

/* The largest parameter's bytes in training (an embedding table or a
 * linear weight); a LoRA run's largest adapter is negligible: 0. */
static double largest_parameter(const gw_model *m, const gw_advise_options *r)
{
	double big = (double)m->max_matrix;

	if (r->task != GW_TASK_TRAIN)
		return 0;
	if ((double)m->vocab_size * (double)m->hidden_size > big)
		big = (double)m->vocab_size * (double)m->hidden_size;
	return big * train_bytes(r);
}

/* DeepSpeed's ZeRO-3 step (stage3.py, _prepare_fp32_grad_for_sub_group,
 * deepspeedai/DeepSpeed v0.14.2 and later): for each sub-group of this
 * rank's partitions (sub_group_size, 1e9 elements by default) it
 * flattens the half gradient partitions into a new tensor and casts that
 * to fp32 for the fp32 master's .grad, both alive during the cast (2 + 4
 * bytes an element; an fp32 run's flatten is already fp32: 4). The fp32
 * gradient lives until the sub-group has stepped (_release_sub_group),
 * after backward has freed the activations. */
#define ZERO3_SUB_GROUP 1e9

static double zero3_step_grad(const gw_model *m, const gw_advise_options *r)
{
	double n = trainable(m, r) / (double)r->gpus, half = train_bytes(r) == 2 ? 2 : 0;

	if (n > ZERO3_SUB_GROUP)
		n = ZERO3_SUB_GROUP;
	return n * (half + 4);
}

/* What Adam's step allocates beyond its states, for one step: PyTorch's
 * default multi-tensor Adam/AdamW computes the denominator for every
 * parameter at once into a new list, exp_avg_sq_sqrt =
 * torch._foreach_sqrt(exp_avg_sqs), state-sized (torch/optim/adam.py,
 * _multi_tensor_adam). PyTorch 2.0 added denom =
 * torch._foreach_add(exp_avg_sq_sqrt, eps), a second state-sized list
 * alive beside the first, until 2.1 made it in place (pytorch/pytorch
 * #97712, "Foreach optimizers use higher memory due to intermediates";
 * #104898 and the Adam PR of its stack, July 2023). Before 2.0 the
 * default was the for-loop (_single_tensor_adam; foreach became the
 * default on CUDA with pytorch/pytorch#92306 and #95862 in 2.0): one
 * parameter at a time, (exp_avg_sq.sqrt() / bias_correction2_sqrt), two
 * of the largest parameter's size at once. transformers' own AdamW
 * (adamw-hf) loops too, exp_avg_sq.sqrt().add_(eps): one parameter's
 * worth. Fused kernels none. FSDP steps on its shard; DeepSpeed's ZeRO
 * stages step with FusedAdam. It lives only during optimizer.step(),
 * after backward has freed the activations. */
double gw__advise_optimizer_step(const gw_model *m, const gw_advise_options *r)
{
	double t = trainable(m, r) * train_bytes(r);

	if (r->task == GW_TASK_INFER || r->offload != GW_OFFLOAD_NONE)
		return 0;
	if (gw__advise_zero_stage(r) == 3)
		return zero3_step_grad(m, r);
	if (gw__advise_zero_stage(r))
		return 0;
	switch (r->optimizer) {
	case GW_OPTIMIZER_ADAMW:
	case GW_OPTIMIZER_ADAM:
		if (torch_before(r, 200))
			return 2 * largest_parameter(m, r);
		if (gw__advise_fsdp(r))
			t /= (double)r->gpus;
		return torch_before(r, 201) ? 2 * t : t;
	case GW_OPTIMIZER_ADAMW_HF:
		return largest_parameter(m, r);
	default:
		return 0;
	}
}

/* Whether autocast casts the fp32 input of every linear map anew. Autocast
 * caches the half-precision cast of a tensor only when it is an fp32 leaf
 * that requires grad, i.e. a weight (PyTorch 2.5,
 * aten/src/ATen/autocast_mode.cpp, cached_cast: can_try_cache needs
 * arg.requires_grad() && arg.is_leaf()); an activation is cast again by
 * each op that reads it, and each mm keeps its own cast for the weight's
 * gradient. Under autocast with fp32 weights the residual stream and the
 * norms' outputs are fp32 (layer_norm autocasts to fp32; the Llama and T5
 * RMSNorms multiply by their fp32 weight), so every projection that reads
 * a normed input keeps a half copy of it. Full training only: a frozen
 * projection (LoRA) keeps no input. */
static bool casts_per_projection(const gw_advise_options *r)
{
	return amp(r->precision) && r->task == GW_TASK_TRAIN && r->weights == GW_WEIGHTS_FP32;
}

/* Bytes a norm keeps of its input. Under autocast layer_norm runs in fp32
 * and the residual stream it reads is fp32 (PyTorch's autocast op
 * reference: layer_norm, softmax and log_softmax "autocast to float32");
 * the RMSNorm of the Llama family (GW__TRAIT_RMS_UPCAST: transformers'
 * LlamaRMSNorm, LitGPT's RMSNorm) upcasts its input with .float() and
 * keeps that fp32 copy for backward. T5's (GW__TRAIT_RMS_HALF_INPUT)
 * squares an fp32 copy but multiplies the input itself, keeping both in
 * half precision. Those RMSNorms end in `self.weight * hidden_states`,
 * and the product keeps the normed tensor for the weight's gradient;
 * that tensor is the projections' input (counted there) except under
 * autocast with fp32 weights, where it is fp32 and the projections keep
 * casts of their own (casts_per_projection): 4 bytes more. A LoRA run's
 * frozen norm weight needs no gradient, and then nothing is kept for it.
 * Otherwise the norm keeps its input in the activation type. */
double gw__advise_norm_bytes(const gw_model *m, const gw_advise_options *r)
{
	bool rms = gw__advise_has(m, GW__TRAIT_RMS_UPCAST), t5 = gw__advise_has(m, GW__TRAIT_RMS_HALF_INPUT);
	double e = gw__advise_act_bytes(r);

	if ((rms || t5) && casts_per_projection(r))
		return 4 + 4;
	if (amp(r->precision) || rms)
		return 4;
	if (t5 && e < 4)
		return 4 + e;
	return e;
}

/* The decoder families counted from their config.json without a measured
 * run (GW__TRAIT_SDPA_GQA in model.c's table) run transformers' own SDPA
 * path (integrations/sdpa_attention.py, 5.25): it
 * repeats the key/value heads only when use_gqa_in_sdpa() says no; with no
 * attention mask (a causal, unpadded batch) and head_dim ≤ 256 it passes
 * enable_gqa=True and the grouped heads as they are, and SDPA keeps those
 * (traced on the CPU: Falcon-7B's and StarCoder's single key/value head).
 * Under eager attention repeat_kv of a single head is a view (the expand
 * of a size-1 dimension reshapes without a copy): multi-query models keep
 * that one head there too (traced likewise); grouped heads are copied.
 * The Llama family keeps the repeated width here: its rows were measured
 * so, and its RMSNorm's normalised copy (x·rsqrt, kept for the weight's
 * gradient, traced on Qwen2.5-0.5B) is not counted beside it. */
static bool sdpa_keeps_grouped_kv(const gw_model *m, const gw_advise_options *r)
{
	return gw__advise_has(m, GW__TRAIT_SDPA_GQA) && (r->attention == GW_ATTENTION_SDPA || m->num_kv_heads == 1);
}

/* Width of the keys and of the values that attention keeps for backward.
 * With grouped-query attention, transformers' eager and SDPA paths
 * repeat the key/value heads to the query heads before the product
 * (repeat_kv: expand then reshape, a copy; "the equivalent of
 * torch.repeat_interleave(x, dim=1, repeats=n_rep)"), LitGPT's attention
 * likewise (k.expand(...) then reshape), and the attention op keeps the
 * repeated copies; FlashAttention-2 takes the grouped heads as they are. */
double gw__advise_saved_kv_width(const gw_model *m, const gw_advise_options *r)
{
	if (r->attention == GW_ATTENTION_FLASH || sdpa_keeps_grouped_kv(m, r))
		return (double)(m->num_kv_heads * m->head_dim);
	return (double)(m->num_heads * m->head_dim);
}

/* Fused q, k and v with rotary positions (GW__TRAIT_FUSED_ROTARY, rotary
 * unless alibi): Phi-3's qkv_proj, GPT-NeoX's and Falcon's
 * query_key_value (transformers 5.25,
 * models/phi3/modeling_phi3.py, models/gpt_neox/modeling_gpt_neox.py, both
 * always rotary; models/falcon/modeling_falcon.py, rotary unless alibi).
 * Rotation makes q and k new tensors while v stays a view of the fused
 * output; attention keeps v, so the whole fused output stays: its q and k
 * parts beside the rotated copies, when v reaches attention as it is (not
 * repeated by repeat_kv). Traced on the CPU (Phi-3-mini, Pythia-70M and
 * Falcon-7B shapes, fp32, SDPA): the fused projection's output is alive at
 * the end of the forward pass. FlashAttention is not traced: not counted. */
static double fused_rotary_extra(const gw_model *m, const gw_advise_options *r)
{
	double kv = (double)(m->num_kv_heads * m->head_dim);

	if (!gw__advise_has(m, GW__TRAIT_FUSED_ROTARY) || m->alibi)
		return 0;
	if (r->attention == GW_ATTENTION_FLASH || gw__advise_saved_kv_width(m, r) != kv)
		return 0;
	return gw__advise_act_bytes(r) * ((double)(m->num_heads * m->head_dim) + kv);
}

/* Bytes per token and hidden element that LoRA's adapters add on their
 * input, beyond what the layer keeps anyway. The adapter computes
 * lora_B(lora_A(dropout(x))) (PEFT's LoraLayer, LitGPT's LoRALinear):
 * with dropout on (gpuwise assumes it: LitGPT's lora.py and recipes use
 * 0.05; PEFT's default is 0), lora_A keeps the dropped
 * copy (e bytes) instead of x and dropout its mask (1 byte): one more
 * byte than the plain input. Where QLoRA's frozen layers keep their input
 * (qlora_keeps_frozen_inputs: bitsandbytes before 0.43.2) x itself stays
 * too, so the dropped copy and the mask come on top: e + 1. The adapted q
 * and v share their input. */
double gw__advise_lora_input(const gw_advise_options *r)
{
	if (qlora_keeps_frozen_inputs(r))
		return gw__advise_act_bytes(r) + 1;
	return lora_task(r) ? 1 : 0;
}

/* Bytes per token that adapters on more than q and v add to a layer's
 * attention block, beyond lora_input(): the output projection's input
 * (q wide) keeps its dropped copy and mask, e + 1 bytes an element (a
 * frozen 16-bit projection would keep nothing of it; a bitsandbytes
 * before 0.43.2 keeps the input itself, counted already). k shares the attention input with q
 * and v (LitGPT's fused qkv adapter drops it once; PEFT, with dropout on,
 * once per adapted module: gpuwise counts one copy). */
double gw__advise_lora_attention_extra(const gw_model *m, const gw_advise_options *r)
{
	if (!lora_task(r) || r->lora_targets == GW_LORA_QV)
		return 0;
	return (gw__advise_act_bytes(r) + 1) * (double)(m->num_heads * m->head_dim);
}

/* The same for the MLP under all-linear targets: the MLP's input once per
 * adapted map that reads it (gate and up, or fc: each adapter runs its
 * own dropout) and the down projection's input (I wide). */
double gw__advise_lora_mlp_extra(const gw_model *m, const gw_advise_options *r)
{
	double h = (double)m->hidden_size, i = (double)m->intermediate_size;
	bool two = m->gated_mlp && !gw__advise_has(m, GW__TRAIT_FUSED_GATE_UP);   /* Phi-3's gate_up_proj: one map */

	if (!lora_task(r) || r->lora_targets < GW_LORA_ALL_LINEAR)
		return 0;
	return (gw__advise_act_bytes(r) + 1) * (h * (two ? 2 : 1) + i);
}

/* One transformer layer's saved activations for backward, in bytes, after
 * Korthikanti et al. 2022 (eq. 1: sbh(34 + 5as/h) for 16-bit GPT layers
 * with dropout), generalised: element size e (2 or 4), key/value width of
 * grouped-query attention, gated MLPs (gate, up, their product and the
 * down projection's input: 4·s·b·I), dropout masks (1 byte) only when
 * dropout is on, and the s² terms (softmax output, its dropout mask and
 * dropped copy) replaced by the fp32 log-sum-exp for SDPA/FlashAttention.
 * Under autocast the softmax output is fp32 and the matmul with V keeps
 * its own half-precision cast of the (dropped) probabilities. Norm inputs
 * as norm_bytes() says. With LoRA the inputs of frozen MLP projections
 * are not saved; with QLoRA before bitsandbytes 0.43.2 they are:
 * MatMul4Bit (and MatMul8bitLt) saved their input whenever the input
 * needed a gradient (bitsandbytes/autograd/_functions.py, ctx.tensors =
 * (A, B); qlora_keeps_frozen_inputs).
 *
 * The attention block: sq query tokens, skv tokens whose keys and values
 * they read (the same tokens in self-attention, the encoder's output in
 * cross-attention), each query scoring span keys (all of them, or a
 * Swin window). */
/* Before PyTorch 1.11 softmax's backward took its input too
 * (_softmax_backward_data(grad, result, dim, self)), so autograd kept the
 * scores beside the probabilities: pytorch/pytorch#64000, fixed by #65242
 * (self's dtype saved instead), first released in 1.11. Under autocast
 * softmax runs in fp32, on an fp32 cast of the scores, and that cast is
 * what is kept. Bytes per score. */
static double softmax_input_bytes(const gw_advise_options *r)
{
	if (!torch_before(r, 111))
		return 0;
	return amp(r->precision) ? 4 : gw__advise_act_bytes(r);
}

/* Bytes per score that eager attention's clamp of the masked scores
 * keeps (GW__TRAIT_MASK_CLAMP): OPTAttention of the 4.x releases up to
 * transformers 4.46, the release of huggingface/transformers#33298
 * (add sdpa to OPT), adds the causal mask, then takes `torch.max(
 * attn_weights, torch.tensor(torch.finfo(attn_weights.dtype).min))`
 * before the fp32 softmax; maximum's backward keeps both inputs, so the
 * masked scores (activation type) stay beside the fp32 probabilities and
 * their half cast. Current releases (5.x, the shared
 * eager_attention_forward) have no clamp; the release between that
 * dropped it is not pinned, so only --transformers before 4.47 counts it.
 * Measured: the PR's eager OPT-350m rows (round 13) keep 7.7 to 8.0
 * bytes a score over their SDPA twins in pure fp16, 2 + 4 + 2. */
static double mask_clamp_bytes(const gw_model *m, const gw_advise_options *r)
{
	if (!gw__advise_has(m, GW__TRAIT_MASK_CLAMP) || !transformers_before(r, 447))
		return 0;
	return gw__advise_act_bytes(r);
}

/* Whether eager attention's softmax runs in fp32 in half precision:
 * under autocast (softmax autocasts to fp32), and in pure fp16/bf16 for
 * the families whose eager path upcasts it (GW__TRAIT_SOFTMAX_FP32:
 * `softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)`).
 * Either way autograd keeps the fp32 probabilities (softmax's backward
 * reads its output) and the matmul with V keeps their half-precision
 * cast (or, with dropout on, the dropped copy beside dropout's mask):
 * 4 + d + e bytes a score instead of e + d + d·e. */
static bool softmax_fp32(const gw_model *m, const gw_advise_options *r)
{
	if (amp(r->precision))
		return true;
	return gw__advise_act_bytes(r) < 4 && gw__advise_has(m, GW__TRAIT_SOFTMAX_FP32);
}

/* The half copies of a normed input beyond the one the count keeps, per
 * token and hidden element, in bytes: q, k and v each cast the attention
 * input (one map where they are fused, GW__TRAIT_FUSED_QKV); in
 * cross-attention q reads the decoder's input (its one copy counted) and
 * k and v each cast the encoder output, which is counted once outside the
 * layers, so both are extra, over the source tokens. */
static double autocast_attention_copies(const gw_model *m, const gw_advise_options *r, bool cross)
{
	if (!casts_per_projection(r))
		return 0;
	if (cross)
		return 2 * gw__advise_act_bytes(r);
	return gw__advise_has(m, GW__TRAIT_FUSED_QKV) ? 0 : 2 * gw__advise_act_bytes(r);
}

static double attention_block(const gw_model *m, const gw_advise_options *r, double sq, double skv, double span,
			      bool cross)
{
	double b = (double)r->batch, h = (double)m->hidden_size, e = gw__advise_act_bytes(r);
	double q = (double)(m->num_heads * m->head_dim), kv = gw__advise_saved_kv_width(m, r);
	double n = (double)m->num_heads, d = m->dropout ? 1 : 0, qb = sq * b;
	double att = gw__advise_norm_bytes(m, r) * qb * h + e * qb * (h + q + q) + e * skv * b * (kv + kv) +
		     d * qb * h + gw__advise_lora_input(r) * qb * h + gw__advise_lora_attention_extra(m, r) * qb +
		     fused_rotary_extra(m, r) * qb + autocast_attention_copies(m, r, cross) * (cross ? skv : sq) * b * h;

	if (r->attention != GW_ATTENTION_EAGER)
		return att + 4 * n * qb;
	if (m->no_attention_dropout)   /* dropout elsewhere, not on the probabilities */
		d = 0;
	att += n * span * qb * (softmax_input_bytes(r) + mask_clamp_bytes(m, r));
	if (softmax_fp32(m, r))
		return att + n * span * qb * (4 + d + e);
	return att + n * span * qb * (e + d + d * e);
}

/* Whether the MLP runs "gelu_new": GPT-2's, Phi's and GPT-J's
 * (GW__TRAIT_GELU_NEW: PhiConfig's hidden_act and GPTJConfig's
 * activation_function default to it, and phi-1, phi-1.5, phi-2 and
 * GPT-J-6B's config.json name it; gpuwise does not read the key), and the
 * gated-gelu MLP of T5 v1.1, Flan-T5 and mT5 (GW__TRAIT_GELU_NEW_GATED). */
static bool runs_gelu_new(const gw_model *m)
{
	unsigned traits = gw__advise_traits(m);

	return (traits & GW__TRAIT_GELU_NEW) || ((traits & GW__TRAIT_GELU_NEW_GATED) && m->gated_mlp);
}

/* GPT-2's MLP (activation_function "gelu_new", its default) and the
 * gated-gelu MLP of T5 v1.1, Flan-T5 and mT5 (dense_act_fn "gelu_new") run
 * transformers' NewGELUActivation, the tanh GELU written as tensor
 * operations: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). Backward then
 * keeps three more I-wide tensors than one GELU kernel would: tanh's
 * output, 1 + tanh and 0.5·x (activations.py; the measured H200 runs of
 * round 7 were 17–19 % low without them). Under autocast torch.pow is on
 * the fp32 list, so the tanh branch is fp32 (and in the gated MLP the
 * GELU output the gate multiplies is fp32 too). */
static double gelu_new_extra(const gw_model *m, const gw_advise_options *r)
{
	double i = (double)m->intermediate_size, e = gw__advise_act_bytes(r);

	if (!runs_gelu_new(m))
		return 0;
	if (amp(r->precision))
		return i * (4 + 4 + e + (m->gated_mlp ? 4 - e : 0));
	return 3 * e * i;
}

/* Attention and the MLP side by side on the layer's input x
 * (m->parallel_block), as x + attn(ln(x)) + mlp(ln(x)): PhiDecoderLayer,
 * GPTJBlock and FalconDecoderLayer with parallel_attn and one norm keep
 * the norm's input and output once, for both (the attention block's);
 * GPT-NeoX's use_parallel_residual and Falcon's new architecture give the
 * MLP a LayerNorm of its own over the same x, whose input is then kept
 * once (transformers 5.25, models/{phi,gptj,falcon,gpt_neox}/modeling_*.py).
 * Traced on the CPU (tests/device/trace_activations.py, fp32, SDPA, 2 and
 * 4 layers): phi-2 and GPT-J-6B keep one LayerNorm output, v, the
 * rotated q and k, attention's output, fc1's output, gelu_new's four
 * I-wide tensors and the dropout masks a layer; Pythia-70M one input for
 * its two norms.
 *
 * The MLP block over s tokens. A frozen linear layer needs its weight,
 * not its input, for the input's gradient: under LoRA (q and v only) the
 * MLP's input and the down projection's input are not kept. OPT's MLP is
 * fc1, ReLU, fc2 with nothing between (GW__TRAIT_RELU_MLP; transformers 5.25,
 * models/opt/modeling_opt.py, OPTDecoderLayer; OPTConfig's and every
 * published OPT's activation_function is "relu"): ReLU's backward reads
 * its own output, which is fc2's input, so one I-wide tensor is kept, not
 * fc1's output beside it (traced on the CPU: OPT-350m's layer 16.5 → 12.5
 * h-wide fp32 tensors a token). */
static double mlp_inner_tensors(const gw_model *m)
{
	if (m->gated_mlp)
		return 4;   /* gate, up, their product, the down projection's input */
	return gw__advise_has(m, GW__TRAIT_RELU_MLP) ? 1 : 2;   /* OPT's ReLU output; fc1's output and the act's */
}

static double mlp_block(const gw_model *m, const gw_advise_options *r, double s)
{
	double sb = s * (double)r->batch, h = (double)m->hidden_size, e = gw__advise_act_bytes(r);
	double i = (double)m->intermediate_size, d = m->dropout ? 1 : 0, nb = gw__advise_norm_bytes(m, r), mlp;

	if (frozen_inputs_dropped(r))
		mlp = nb * sb * h + e * sb * i * (m->gated_mlp ? 3 : 1) + d * sb * h;
	else
		mlp = nb * sb * h + e * sb * h + e * sb * i * mlp_inner_tensors(m) + d * sb * h;
	/* T5's MLP drops out the activation before wo (GW__TRAIT_MLP_DROPOUT):
	 * its mask is I wide; the dropped copy takes the place of the
	 * activation's output (or the gated product) as wo's input. */
	if (gw__advise_has(m, GW__TRAIT_MLP_DROPOUT))
		mlp += d * sb * i;
	/* Under autocast gate and up each keep their cast of the MLP's input
	 * (casts_per_projection), and a parallel block's MLP its own cast of
	 * the norm output the attention projections cast too. */
	if (casts_per_projection(r) && m->gated_mlp && !gw__advise_has(m, GW__TRAIT_FUSED_GATE_UP))
		mlp += e * sb * h;
	if (m->parallel_block == 1)   /* the norm's input and output are the attention block's */
		mlp -= nb * sb * h + (frozen_inputs_dropped(r) || casts_per_projection(r) ? 0 : e * sb * h);
	else if (m->parallel_block == 2)   /* the norm's input is */
		mlp -= nb * sb * h;
	return mlp + (gw__advise_lora_mlp_extra(m, r) + gelu_new_extra(m, r)) * sb;
}

double gw__advise_layer_activations_span(const gw_model *m, const gw_advise_options *r, double s, double span)
{
	return attention_block(m, r, s, s, span, false) + mlp_block(m, r, s);
}

/* Every token attends to all s tokens (span s): the layer of a text model. */
double gw__advise_layer_activations(const gw_model *m, const gw_advise_options *r, double s)
{
	return gw__advise_layer_activations_span(m, r, s, s);
}

/* A decoder layer of an encoder-decoder model (T5) over t target tokens:
 * self-attention among them, cross-attention from them to the encoder's
 * s output tokens (keys and values are projections of the encoder
 * output, s tokens wide, and the scores t × s), and the MLP. The encoder
 * output that every layer's k and v projections read is one tensor,
 * counted once outside the layers. With LoRA on q and v the v adapter's
 * input is that encoder output, dropped anew in every layer. */
double gw__advise_decoder_layer_activations(const gw_model *m, const gw_advise_options *r, double t, double s)
{
	double cross = attention_block(m, r, t, s, s, true) + gw__advise_lora_input(r) * s * (double)r->batch *
						       (double)m->hidden_size;

	return attention_block(m, r, t, t, t, false) + cross + mlp_block(m, r, t);
}

/* An encoder's masked-LM head (BertForMaskedLM) over s tokens: its
 * dense's input, GELU's input, the LayerNorm's input and the decoder's
 * input, then the logits and what the loss keeps: CrossEntropyLoss runs
 * in fp32 under autocast (a cast copy and its log-softmax, 4 + 4 bytes),
 * else in the logits' own type (the log-softmax, e bytes; unlike
 * transformers' decoders, BERT does not upcast its logits). */
static double mlm_head_activations(const gw_model *m, const gw_advise_options *r, double s)
{
	double sb = s * (double)r->batch, h = (double)m->hidden_size, e = gw__advise_act_bytes(r);

	return (3 * e + gw__advise_norm_bytes(m, r)) * sb * h + sb * (double)m->vocab_size * (e + (amp(r->precision) ? 8 : e));
}

/* The chunks the loss upcasts the logits in. transformers' loss casts
 * all of them to fp32 at once, and cross-entropy's log-softmax keeps an
 * fp32 output for backward: 4 + 4 bytes a logit while it runs. torchtune's
 * CEWithChunkedOutputLoss (pytorch/torchtune#1390, num_output_chunks = 8)
 * casts one chunk at a time: each chunk's log-softmax is still kept, but
 * only one chunk's cast copy exists at once, 4/N bytes a logit. */
static double loss_chunks(const gw_advise_options *r)
{
	return r->loss_chunks > 1 ? (double)r->loss_chunks : 1;
}

/* What the logits and the loss keep, bytes a logit: the logits in the
 * activations' type, transformers' fp32 copy (none when they are fp32
 * already; one chunk's under --loss-chunks) and cross-entropy's fp32
 * log-softmax. Before transformers 4.46 the Llama family's forward
 * (GW__TRAIT_LOGITS_FLOAT; 4.40's LlamaForCausalLM and Qwen2ForCausalLM
 * among them) rebinds `logits = logits.float()`, which frees the half
 * logits, and then takes `shift_logits = logits[..., :-1, :].contiguous()`,
 * a second fp32 copy, before the log-softmax: 4 + 4 + 4 bytes whatever the
 * type. 4.46 moved the loss to ForCausalLMLoss (loss/loss_utils.py), which
 * keeps the copy until huggingface/transformers#35646 (January 2025)
 * padded the labels instead; that span is not modelled.
 * `loss = out.logits.sum()` (GW_LOSS_SUM; transformers PR #31031's and
 * #33298's SDPA training benchmarks) makes no copy: the bound output
 * keeps the logits, and SumBackward0's gradient is an expand() that the
 * LM head's linear backward reshapes into a contiguous tensor, e bytes a
 * logit more when backward starts: 2e. */
static double loss_bytes_per_logit(const gw_model *m, const gw_advise_options *r, double e)
{
	if (r->loss == GW_LOSS_SUM)
		return 2 * e;
	if (m->kind == GW_MODEL_DECODER && gw__advise_has(m, GW__TRAIT_LOGITS_FLOAT) && transformers_before(r, 446) &&
	    r->loss_chunks <= 1)
		return 12;
	return e + 4 + (e == 4 ? 0 : 4 / loss_chunks(r));
}

/* Outside the layers: the embedding output (and its dropout mask) and
 * the final norm's input of each stack (an encoder-decoder model's
 * encoder over the s source tokens, its decoder over the t target
 * tokens, and the encoder output every decoder layer's k and v read);
 * for models with an LM head the logits of the t tokens, their fp32 copy
 * (transformers upcasts before the loss) and the log-softmax
 * cross-entropy keeps; an adapter on the LM head (--lora-targets all)
 * keeps the dropped copy and mask of the head's input. */
static double outer_activations(const gw_model *m, const gw_advise_options *r, double s, double t)
{
	double b = (double)r->batch, h = (double)m->hidden_size, e = gw__advise_act_bytes(r);
	double tokens = m->kind == GW_MODEL_ENCODER_DECODER ? s + t : s;
	double a = e * tokens * b * h * 2 + (m->dropout ? tokens * b * h : 0);

	if (m->kind == GW_MODEL_ENCODER_DECODER)
		a += e * s * b * h;
	if (m->lm_head)
		a += mlm_head_activations(m, r, s);
	if (m->kind != GW_MODEL_ENCODER) {
		a += t * b * (double)m->vocab_size * loss_bytes_per_logit(m, r, e);
		if (lora_task(r) && r->lora_targets == GW_LORA_ALL)
			a += (e + 1) * t * b * h;
	}
	return a;
}

/* What the previous micro-batch still holds during the next forward pass
 * when the loop keeps its outputs (GW_LOOP_PLAIN: LitGPT's fit() binds
 * `logits = model(...)` and `loss` until the next forward returns; Answer.AI's
 * fsdp_qlora train.py sets both to None "so more memory frees up before the
 * next forward pass"). Backward has freed what autograd saved; what stays
 * is the logits tensor (e bytes each) and what the graph's nodes hold
 * outside their saved variables: bitsandbytes' MatMul4Bit before 0.43.2
 * kept its input as a ctx attribute (ctx.tensors = (A, B), #1270), which
 * PyNode::release_variables does not clear, so every 4-bit layer's input
 * of the last micro-batch stays: per layer and token the attention's and
 * the MLP's input (h each, read by q, k and v or gate and up alike), the
 * output projection's (q wide) and the down projection's (I wide). */
static double previous_step_held(const gw_model *m, const gw_advise_options *r, double s, double t)
{
	double b = (double)r->batch, e = gw__advise_act_bytes(r), h = (double)m->hidden_size;
	double q = (double)(m->num_heads * m->head_dim), i = (double)m->intermediate_size, held = 0;

	if (m->kind != GW_MODEL_ENCODER)
		held += e * t * b * (double)m->vocab_size;
	if (qlora_keeps_frozen_inputs(r) && (r->weights == GW_WEIGHTS_NF4 || r->weights == GW_WEIGHTS_NF4_DQ))
		held += e * b * (2 * h + q + i - (m->parallel_block ? h : 0)) *
			(s * (double)m->num_layers + t * (double)m->num_decoder_layers);
	return held;
}

/* The peak that adds: the previous step's tensors are freed when the new
 * logits are bound, before the loss allocates its fp32 copy and
 * log-softmax (4 + 4 bytes a logit, counted in outer_activations), and
 * with checkpointing before backward recomputes a layer (`recomputed`).
 * So the peak moves to the end of the forward pass only where the held
 * tensors outweigh those; a plain loop without them changes nothing. */
static double previous_step_extra(const gw_model *m, const gw_advise_options *r, double s, double t,
				  double recomputed)
{
	double e = gw__advise_act_bytes(r), after = recomputed, extra;

	if (r->loop != GW_LOOP_PLAIN)
		return 0;
	if (m->kind != GW_MODEL_ENCODER)
		after += t * (double)r->batch * (double)m->vocab_size * (4 + (e == 4 ? 0 : 4));
	extra = previous_step_held(m, r, s, t) - after;
	return extra > 0 ? extra : 0;
}

/* torchtune's activation offloading (--offload activations) with
 * checkpointing: what stays on the GPU of the `layers` checkpointed
 * inputs, `in` bytes in all. torchtune/training/_activation_offloading.py
 * (pytorch/torchtune at 3c1872a), OffloadActivations: a saved-tensors
 * hook over the model's forward (not the output head's, NoOpManager; not
 * the loss, computed outside it) copies every saved tensor of at least
 * min_offload_size (1,024 bytes) to pinned CPU memory on a side stream.
 * Inside a checkpointed layer the checkpoint's own hook saves nothing,
 * so what it offloads is each layer's input (torch.utils.checkpoint's
 * non-reentrant _NoopSaveInputs saves it through the outer hook). The
 * forward stash keeps the last max_fwd_stash_size (5) saved tensors until
 * their copies finish; backward starts with them and drops them at its
 * first node. Backward brings a layer's input back when its recomputation
 * starts, and frees it only once the next node that brings one back has
 * run (the hook on that node deletes the previous node's tensors), so two
 * inputs are on the GPU while a layer is recomputed: the one in use and
 * the one before it. Inputs under 1,024 bytes stay where they are. */
static double offloaded_inputs(const gw_advise_options *r, double in, double layers)
{
	double each = layers > 0 ? in / layers : 0;

	if (!r->offload_activations || each < 1024 || layers <= 2)
		return in;
	return 2 * each;
}

/* Training: every layer's saved activations, or with checkpointing only
 * each layer's input plus one layer recomputed during backward. An
 * encoder-decoder model's decoder layers run over the target's tokens
 * (--decoder-seq), its encoder's over the source's (--seq). */
static double train_activations(const gw_model *m, const gw_advise_options *r)
{
	double s = (double)r->seq, L = (double)m->num_layers, D = (double)m->num_decoder_layers;
	double t = m->kind == GW_MODEL_ENCODER_DECODER && r->decoder_seq ? (double)r->decoder_seq : s;
	double enc = gw__advise_layer_activations(m, r, s), dec = 0, recomputed = 0, a;
	double in = (kbit_prepared(r) ? 4 : gw__advise_act_bytes(r)) * (double)r->batch * (double)m->hidden_size *
		    (s * L + t * D);

	if (m->kind == GW_MODEL_ENCODER_DECODER)
		dec = gw__advise_decoder_layer_activations(m, r, t, s);
	if (r->checkpointing) {
		recomputed = dec > enc ? dec : enc;
		a = offloaded_inputs(r, in, L + D) + recomputed;
	} else {
		a = enc * L + dec * D;
	}
	return a + outer_activations(m, r, s, t) + previous_step_extra(m, r, s, t, recomputed);
}

/* The LM head at the end of generate()'s first forward before
 * transformers 4.45 (--transformers): without num_logits_to_keep
 * (huggingface/transformers#31292, first released in 4.45.0) the forward
 * computes the logits of all p prompt positions, and the Llama family's
 * forward then casts them to fp32 (`logits = logits.float()`, in
 * transformers 4.44's llama, mistral, mixtral, qwen2, qwen2_moe, gemma,
 * gemma2, phi and phi3; GW__TRAIT_LOGITS_FLOAT), the half tensor still
 * referenced while the copy is made. Beside them: the last hidden state
 * and its normed copy. 0 when the release is current or unknown: 4.45
 * and later compute the last position only. A script that calls
 * model(ids) on the prompt itself (GW_LOOP_PLAIN: AutoAWQ's
 * examples/benchmark.py, generate_torch) passes no num_logits_to_keep,
 * so the forward computes every prompt position's logits whatever the
 * release (num_logits_to_keep's default 0 keeps all), cast to fp32 in the
 * Llama family before 4.46 (4.45's LlamaForCausalLM.forward still runs
 * `.float()`, warning "Starting from v4.46, the `logits` model output will
 * have the same type as the model"). */
static double prompt_logits(const gw_model *m, const gw_advise_options *r, double p)
{
	double b = (double)r->batch, e = gw__advise_act_bytes(r), h = (double)m->hidden_size;
	bool plain = r->loop == GW_LOOP_PLAIN;
	double per = e + (gw__advise_has(m, GW__TRAIT_LOGITS_FLOAT) && e < 4 &&
			  transformers_before(r, plain ? 446 : 445) ? 4 : 0);

	if (!plain && !transformers_before(r, 445))
		return 0;
	return 2 * e * p * b * h + p * b * (double)m->vocab_size * per;
}

/* Inference keeps nothing for backward: the peak is inside one layer
 * during the prompt's forward (prefill): the residual stream and its
 * normed copy, plus the larger of attention and the MLP's intermediates;
 * and the last position's logits. Attention holds q, k and v, then its
 * output in the heads' layout and that output made contiguous for the
 * output projection (transformers' attn_output.transpose(1, 2)
 * .contiguous(), BERT's context_layer.permute(...).contiguous()), and in
 * eager mode the fp32 scores and their cast, which stay referenced until
 * the block returns. */
/* AutoAWQ's fused attention (awq/modules/fused/attn.py,
 * QuantAttentionFused.forward, 0.1.6 to 0.2.6, and later releases' blocks
 * other than LlamaLikeBlock, autoawq_sdpa) runs
 * F.softmax(scores.float(), dim=-1).type_as(xq): the half scores, their
 * fp32 copy and the fp32 softmax are alive together, 4 bytes a score more
 * than transformers' softmax(..., dtype=torch.float32). */
static double autoawq_scores_copy(const gw_advise_options *r)
{
	return r->autoawq_fused ? 4 : 0;
}

/* What AutoAWQ 0.2.7's SDPA prefill (autoawq_sdpa) keeps beside q, k, v
 * and the output: torch.repeat_interleave of the keys and the values to
 * every query head where the model groups them (QuantAttentionFused
 * .forward), and the causal mask the fused model builds once a forward
 * (fused_utils.prepare_attention_mask: a 1 × 1 × p × p tensor in the
 * hidden states' type), which SDPA reads as attn_mask, so its
 * memory-efficient kernel runs and no scores are kept. */
static double autoawq_sdpa_extra(const gw_model *m, const gw_advise_options *r, double p)
{
	double e = gw__advise_act_bytes(r), q = (double)(m->num_heads * m->head_dim);
	double repeat = m->num_kv_heads < m->num_heads ? 2 * e * p * (double)r->batch * q : 0;

	return repeat + e * p * p;
}

static double infer_activations(const gw_model *m, const gw_advise_options *r)
{
	double p = (double)(m->kind == GW_MODEL_DECODER ? r->seq - r->new_tokens : r->seq);
	double b = (double)r->batch, e = gw__advise_act_bytes(r), h = (double)m->hidden_size;
	double q = (double)(m->num_heads * m->head_dim), kv = (double)(m->num_kv_heads * m->head_dim);
	double att = e * p * b * (3 * q + 2 * kv), mlp = e * p * b * (double)m->intermediate_size * (m->gated_mlp ? 3 : 2);

	if (r->attention == GW_ATTENTION_EAGER)
		att += (double)m->num_heads * p * p * b * (4 + e + autoawq_scores_copy(r));
	if (autoawq_sdpa(m, r))
		att += autoawq_sdpa_extra(m, r, p);
	/* the logits: of the last position for generation; of every token
	 * for an encoder's LM head (fill-mask) */
	double logits = m->kind != GW_MODEL_ENCODER ? b * (double)m->vocab_size * (e + 4)
			: m->lm_head ? p * b * (double)m->vocab_size * e : 0;
	double head = m->kind == GW_MODEL_DECODER ? prompt_logits(m, r, p) : 0;

	if (m->kind == GW_MODEL_ENCODER_DECODER) {
		/* generate() runs the encoder over the source first, then decodes
		 * one token a step with the cross-attention keys/values of every
		 * layer and the encoder output kept: the two phases do not overlap,
		 * so the peak is the larger of the encoder pass and the KV cache
		 * with the encoder output and one step's logits (measured on an
		 * H200: T5 inference summed them and came out 60-80 % high). The
		 * activations term is what the peak adds to the KV cache. */
		double encoder = 2 * e * p * b * h + (att > mlp ? att : mlp), decoding = e * p * b * h + logits;
		double cache = gw__advise_kv_cache(m, r);

		return encoder - cache > decoding ? encoder - cache : decoding;
	}
	/* Two width-h tensors beside the MLP (the residual and the normed copy).
	 * transformers 5's BertLayer keeps a third (traced), 4.x's two; the
	 * published BERT/BGE rows ran 4.x, and a third put two of them 15 % high. */
	double layer = 2 * e * p * b * h + (att > mlp ? att : mlp) + logits;

	return head > layer ? head : layer;
}

/* Weights w of a whole model as one GPU of a split holds them. TP: every
 * matrix, the embedding and the LM head cut in N (vocab-parallel; the
 * norms, copied, are left out). PP: the fullest GPU's ceil(L/N) layers
 * and one vocab × hidden table (the embedding on the first GPU, the LM
 * head on the last; tied, both on one). */
double gw__advise_split_weights(const gw_model *m, const gw_advise_options *r, double w)
{
	double n = (double)r->gpus, layers = (double)m->num_layers;
	double table = (double)m->vocab_size * (double)m->hidden_size * (r->weights == GW_WEIGHTS_FP32 ? 4 : 2);
	double tables = table * (m->tied_embeddings ? 1 : 2);

	if (r->gpus < 2 || (r->strategy != GW_STRATEGY_TP && r->strategy != GW_STRATEGY_PP))
		return w;
	if (r->strategy == GW_STRATEGY_TP)
		return w / n;
	if (tables > w)
		tables = table = 0;
	return (w - tables) * ceil(layers / n) / layers + table;
}

/* The share of the KV cache one GPU of a split holds: its key/value heads
 * under TP (at least one, copied where N exceeds them), its layers under PP. */
double gw__advise_split_kv_share(const gw_model *m, const gw_advise_options *r)
{
	double n = (double)r->gpus, kv = (double)m->num_kv_heads, layers = (double)m->num_layers;

	if (r->gpus < 2 || !kv)
		return 1;
	if (r->strategy == GW_STRATEGY_TP)
		return (kv / n < 1 ? 1 : kv / n) / kv;
	if (r->strategy == GW_STRATEGY_PP)
		return ceil(layers / n) / layers;
	return 1;
}

/* AutoAWQ's fused attention allocates its cache when the model is loaded
 * (WindowedCache, awq/modules/fused/cache.py: torch.zeros of batch × kv
 * heads × max_seq_len × head dim for the values and the keys, made half)
 * for from_quantized's max_new_tokens positions (the model's
 * max_position_embeddings when not given, awq/models/base.py
 * _load_config) and rolls it when a run goes past them; the batch is
 * from_quantized's batch_size (AWQ_BATCH_SIZE), the run's. */
static double autoawq_cache_positions(const gw_model *m, const gw_advise_options *r)
{
	if (r->new_tokens)
		return (double)r->new_tokens;
	return m->max_positions ? (double)m->max_positions : 2048;
}

/* KV cache: keys and values of every decoder layer for every token, in
 * the activation type, with the key/value heads of GQA/MQA. An
 * encoder-decoder model caches the decoder's own tokens and the encoder
 * output's cross-attention keys and values. */
double gw__advise_kv_cache(const gw_model *m, const gw_advise_options *r)
{
	double k = (double)(m->num_kv_heads * m->head_dim), v = k, per_token, seq = (double)r->seq, tokens;

	if (r->task != GW_TASK_INFER || m->kind == GW_MODEL_ENCODER || m->kind == GW_MODEL_VISION)
		return 0;
	/* MLA in transformers (DeepseekV3Attention) caches the keys and values
	 * it expanded from the latent: every head's nope + rope key, and
	 * v_head_dim values per head (the serving engines cache the latent:
	 * gw_advise_serve). */
	if (gw__advise_text(m) && m->kv_lora_rank)
		v = (double)(m->num_heads * m->v_head_dim);
	per_token = (k + v) * gw__advise_act_bytes(r) * (double)r->batch;
	if (r->autoawq_fused)
		return per_token * (double)m->num_layers * autoawq_cache_positions(m, r);
	if (m->kind == GW_MODEL_ENCODER_DECODER)   /* cross-attention over the input, self over the generated */
		return per_token * (double)m->num_decoder_layers * (double)(r->new_tokens + r->seq);
	/* Sliding-window layers keep the last sliding_window tokens only
	 * (transformers' DynamicSlidingWindowLayer; Gemma 2's HybridCache). */
	tokens = (double)m->num_layers * seq;
	if (gw__advise_text(m) && m->sliding_layers && m->sliding_window < r->seq)
		tokens -= (double)m->sliding_layers * (seq - (double)m->sliding_window);
	return per_token * tokens;
}

double gw__advise_active_params(const gw_model *m)
{
	return gw__advise_text(m) && m->params_active ? (double)m->params_active : (double)m->params;
}

gw_model gw__advise_activation_view(const gw_model *m)
{
	gw_model v = *m;
	double width, dense;

	if (!gw__advise_text(m) || !m->moe_layers || m->moe_layers > m->num_layers)
		return v;
	width = (double)m->experts_per_token * (double)m->expert_intermediate + (double)m->shared_intermediate;
	dense = (double)(m->num_layers - m->moe_layers);
	v.intermediate_size = (uint64_t)ceil((dense * (double)m->intermediate_size + (double)m->moe_layers * width) /
					     (double)m->num_layers);
	if (!v.intermediate_size)
		v.intermediate_size = 1;
	return v;
}

/* DeepSpeed's gradient bucket: with contiguous_gradients (on by default)
 * ZeRO keeps reduce_bucket_size elements (5e8 by default) in the
 * parameters' type on the GPU, whatever the model's size, and backward
 * copies each gradient into it before the reduction: ZeRO-3 allocates it
 * in DeepSpeedZeroOptimizer_Stage3.__init__ for the whole run (stage3.py,
 * __ipg_bucket_flat_buffer), ZeRO-1 and -2 at each backward() until the
 * gradients are reduced (stage_1_and_2.py, ipg_buffer; a second one with
 * overlap_comm, off by default for them), deepspeedai/DeepSpeed v0.14.2.
 * The DeepSpeed configuration advise prints sets no bucket size, so the
 * default holds; a ds_config that sets reduce_bucket_size (or "auto",
 * which transformers fills with hidden_size²) makes it smaller. */
#define ZERO_REDUCE_BUCKET 5e8

static double zero_gradient_bucket(const gw_advise_options *r)
{
	return ZERO_REDUCE_BUCKET * (r->weights == GW_WEIGHTS_FP32 ? 4 : 2);
}

/* Bytes an element of a weight gathered from its shards (ZeRO-3, FSDP):
 * fp32 only when the run is fp32 through and through, else half. */
static double gathered_weight_bytes(const gw_advise_options *r)
{
	return r->weights == GW_WEIGHTS_FP32 && !amp(r->precision) ? 4 : 2;
}

/* cuBLAS's workspace (PyTorch's default CUBLAS_WORKSPACE_CONFIG: 4096 KiB
 * × 2 + 16 KiB × 8, or 4096 KiB × 8 on Hopper) and cuBLASLt's (1 MiB; 4 MiB
 * on compute capability 8.x with ≥ 24 GiB; 32 MiB from 9.0), both through
 * the caching allocator; a dequantised copy of the largest weight for 8/4
 * bit; FSDP/ZeRO-3's gathered layer and the next one prefetched. */
double gw__advise_workspace(const gw_model *m, const gw_advise_options *r)
{
	double w;

	if (r->cc_major >= 9)
		w = 32 * MIB + 32 * MIB;
	else if (r->cc_major == 8 && r->gpu_memory_bytes < 24 * GIB && r->gpu_memory_bytes)
		w = 8 * MIB + 128 * 1024 + 1 * MIB;
	else if (r->cc_major && r->cc_major < 8)
		w = 8 * MIB + 128 * 1024 + 1 * MIB;
	else
		w = 8 * MIB + 128 * 1024 + 4 * MIB;
	if (quantized(r->weights))
		w += gw__advise_act_bytes(r) * (double)m->max_matrix;
	if (shards_params(r) && r->gpus > 1)
		w += 2 * (double)m->layer_params * gathered_weight_bytes(r);
	if (gw__advise_zero_stage(r) && r->task != GW_TASK_INFER)
		w += zero_gradient_bucket(r);
	return w + gw__advise_zero3_saved_weights(m, r);
}

/* ZeRO-3's gathered weights that backward keeps (DeepSpeed v0.14.2,
 * deepspeed/runtime/zero/partition_parameters.py): on several GPUs a
 * module's parameters are all-gathered into a new buffer and each
 * param.data made a view of it (all_gather_coalesced); after the module's
 * forward free_param() sets param.data to an empty tensor, which frees the
 * buffer only if nothing else holds it. F.linear saves weight.t(), a view
 * of that buffer, for the input's gradient, so each linear map's full
 * half weight stays allocated from its forward to its backward.
 * DeepSpeed's remedy, LinearFunctionForZeroStage3 (zero/linear.py: "save
 * variable ids ... allowing for underlying tensor to be garbage
 * collected"), replaces F.linear only when a zero.Init context is entered
 * (patch_init_and_builtins); a model built before DeepSpeed's
 * configuration exists (from_pretrained before TrainingArguments, which
 * makes the HfDeepSpeedConfig that from_pretrained consults) is converted
 * by Init(module=...) in DeepSpeedZeRoOffload without entering it
 * (--no-zero-init; a model built under zero.Init keeps none). So
 * every linear weight (the LM head's too, tied or not) is alive at the
 * end of forward; with checkpointing the layers run forward without
 * saving and only the head's remains. GPT-2's Conv1D (addmm on the weight
 * itself, a leaf, which sees the emptied data) keeps nothing but its
 * head; on one GPU the gathered parameter is a view of the partition
 * itself (NoGatherCoalescedHandle): nothing extra. */
double gw__advise_zero3_saved_weights(const gw_model *m, const gw_advise_options *r)
{
	double n = 0, bytes = gathered_weight_bytes(r);

	if (!r->no_zero_init || gw__advise_zero_stage(r) != 3 || r->gpus < 2 || r->task == GW_TASK_INFER ||
	    quantized(r->weights))
		return 0;
	if (m->kind != GW_MODEL_VISION && (m->kind != GW_MODEL_ENCODER || m->lm_head))
		n = (double)m->vocab_size * (double)m->hidden_size;
	if (!r->checkpointing && !gw__advise_has(m, GW__TRAIT_CONV1D))
		n += (double)m->params_linear;
	return n * bytes;
}

/* ZeRO-3's side streams in the caching allocator's reserve. PyTorch's
 * allocator associates every block with the stream it was allocated on
 * and, once freed, hands it out again on that stream only
 * (c10/cuda/CUDACachingAllocator.cpp, the header: "Once freed, blocks can
 * be re-allocated on the same stream, but not on any other stream";
 * get_free_block matches the stream first), and it returns no segment
 * during a run. ZeRO-3 turns overlap_comm on by default
 * (zero/config.py, overlap_comm_valid: stage == 3) and so allocates on
 * two streams beside the default one (DeepSpeed v0.14.2):
 * - the all-gathers: PartitionedParameterCoordinator.__all_gather_params_
 *   calls all_gather_coalesced, and fetch_sub_module waits on its handle,
 *   under `stream(self.__allgather_stream)`
 *   (partitioned_param_coordinator.py), so the gathered weights (their
 *   flat buffers and all_gather_coalesced's torch.cat, on several GPUs;
 *   on one the parameter is a view of its partition) are that stream's. Its pool peaks at the end of forward,
 *   with the weights F.linear keeps (--no-zero-init) and the live layers,
 *   while the default stream's peaks either there (activations) or at the
 *   step (ZeRO-3's fp32 step gradient), after backward has freed the
 *   kept weights: when the step is the larger, both pools are held at
 *   once, min(kept, step - activations) beyond the allocated peak.
 * - the gradient reduction: __reduce_and_partition_ipg_grads runs
 *   __avg_scatter_grads under `stream(self.reduce_and_partition_stream)`
 *   (stage3.py), whose reduce_scatter_coalesced
 *   (runtime/comm/coalesced_collectives.py) interleaves the bucket's
 *   gradients into one new tensor (torch.cat) before the reduce-scatter:
 *   at most reduce_bucket_size elements (the bucket is reduced before a
 *   gradient would overflow it), or every trainable parameter if fewer,
 *   in the parameters' type, on one GPU too. It is freed after each
 *   reduction and cached for that stream alone.
 * Both add to the reserve, not to the allocated peak. */
static double zero3_stream_pools(const gw_model *m, const gw_advise_options *r, double ac, double step, double held)
{
	double cat = trainable(m, r), gather = 0, fwd = ac + held;

	if (gw__advise_zero_stage(r) != 3 || r->task == GW_TASK_INFER || r->offload != GW_OFFLOAD_NONE)
		return 0;
	if (cat > ZERO_REDUCE_BUCKET)
		cat = ZERO_REDUCE_BUCKET;
	if (r->gpus > 1 && step > ac)
		gather = (step > fwd ? held : step - ac);
	return gather + cat * (r->weights == GW_WEIGHTS_FP32 ? 4 : 2);
}

/* The CUDA context, outside the caching allocator: measured with lazy
 * module loading (PyTorch's default since 1.13): 287,047,680 bytes in
 * pytorch/pytorch#86509, 426 MiB on an Ada GPU with PyTorch 2.10
 * (unslothai/unsloth-zoo#1053). On Hopper (an H200, driver 580, PyTorch
 * 2.11 with CUDA 13.0; tests/device/advise_peaks.py, 2026-12-04) 518 MiB
 * right after the first allocation, then 742-760 MiB once a training
 * step had loaded its cuBLAS/cuDNN kernels and 686-692 MiB after
 * inference: what nvidia-smi shows beside the allocator's reserve. */
static double cuda_context(const gw_advise_options *r)
{
	double lazy;

	if (r->cc_major >= 9)
		lazy = (r->task == GW_TASK_INFER ? 690 : 758) * MIB;
	else
		lazy = r->cc_major && r->cc_major < 8 ? 287047680.0 : 426 * MIB;
	/* Before PyTorch 1.13 (which sets CUDA_MODULE_LOADING=LAZY unless the
	 * user set it, CUDA 11.7 and later) every kernel of the CUDA libraries
	 * was loaded into the context when it was made: 666,632,192 bytes in
	 * the same measurement as above (pytorch/pytorch#86509). */
	if (torch_before(r, 113) && lazy < 666632192.0)
		return 666632192.0;
	return lazy;
}

/* Whether the gradients are gone while the forward pass runs: since
 * PyTorch 2.0 `Optimizer.zero_grad()` and `Module.zero_grad()` set them
 * to None by default (pytorch/pytorch#92731, "[nn] zero_grad()
 * set_to_none default True"; transformers' Trainer has passed
 * set_to_none=True on every release since huggingface/transformers#22136),
 * so backward allocates each gradient anew as it goes. FSDP's sharded
 * gradients too: with use_orig_params, FlatParamHandle._clear_grads_if_needed
 * (torch/distributed/fsdp/_flat_param.py, called from the pre-forward in
 * _runtime_utils.py) sets the flat parameter's .grad to None once every
 * original parameter's is, "targeting optim.zero_grad(set_to_none=True)",
 * and without it the optimizer holds the flat parameters themselves; each
 * unit's post-backward hook then reduce-scatters a new shard. Not while
 * accumulating (the micro-batches after the first find the sums there,
 * FSDP's unsharded under no_sync), under DDP on several GPUs (its buckets
 * stay allocated and the gradients are views of them), under DeepSpeed's
 * ZeRO (its flat gradient partitions stay allocated) or offloading, nor
 * for LoRA (its adapters' gradients are small enough to leave counted);
 * before 2.0 (--torch) zero_grad() filled them with zeros. */
static bool grads_freed_before_forward(const gw_advise_options *r)
{
	return r->task == GW_TASK_TRAIN && (r->gpus == 1 || gw__advise_fsdp(r)) && r->grad_accum <= 1 &&
	       r->offload == GW_OFFLOAD_NONE && !gw__advise_zero_stage(r) && !torch_before(r, 200);
}

/* A tied embedding's second gradient at the end of backward. The tied
 * weight is one leaf used twice, so autograd's engine holds the LM head's
 * gradient in the leaf's input buffer until the embedding's backward,
 * the last node, has run (torch/csrc/autograd/input_buffer.cpp, the sum
 * made in place into the first gradient), and that backward makes a
 * dense vocab × h gradient of its own (aten/src/ATen/native/cuda/
 * EmbeddingBackwardKernel.cu: at::zeros({num_weights, ...})), alive
 * beside every other gradient until the sum is made. An untied
 * embedding's gradient is its .grad (counted). Full training only. */
static double tied_embedding_grad(const gw_model *m, const gw_advise_options *r)
{
	if (r->task != GW_TASK_TRAIN || !m->tied_embeddings || m->kind == GW_MODEL_VISION)
		return 0;
	if (m->kind == GW_MODEL_ENCODER && !m->lm_head)
		return 0;
	return (double)m->vocab_size * (double)m->hidden_size * train_bytes(r);
}

/* The logits a plain loop keeps through backward and the step: `outputs =
 * model(...)` stays bound until the next forward returns (the loop of
 * previous_step_held), and backward frees only what its nodes saved, not
 * the forward's output itself (the loss saves its log-softmax, not the
 * logits), so the step's logits are alive at backward's end. */
static double kept_logits(const gw_model *m, const gw_advise_options *r)
{
	double t = m->kind == GW_MODEL_ENCODER_DECODER && r->decoder_seq ? (double)r->decoder_seq : (double)r->seq;

	if (r->loop != GW_LOOP_PLAIN || m->kind == GW_MODEL_ENCODER || m->kind == GW_MODEL_VISION)
		return 0;
	return gw__advise_act_bytes(r) * t * (double)r->batch * (double)m->vocab_size;
}

/* The allocated peak when the gradients are freed before the forward
 * pass: backward walks the layers from the last, freeing each one's
 * saved activations as it makes its gradients, so the two are never all
 * alive together. What is alive grows at the start of backward (every
 * activation, plus the first gradient, the LM head's vocab × h: the loss
 * reads the head's output) or at its end and through the optimizer's
 * step (every gradient, plus the step's own copies); both are linear in
 * the layers done, so the larger end is the peak. `fixed`: weights,
 * optimizer states, KV cache and workspaces. */
static double overlapped_peak(const gw_model *m, const gw_advise_options *r, double fixed, double gr, double ac,
			      double step)
{
	double head = 0, start, end, copies = gw__advise_autocast_weight_copies(m, r);

	if (m->kind != GW_MODEL_VISION && (m->kind != GW_MODEL_ENCODER || m->lm_head))
		head = (double)m->vocab_size * (double)m->hidden_size * train_bytes(r);
	if (head > gr)
		head = gr;
	/* Autocast's half weight copies are alive at the start of backward
	 * (every node still holds its saved cast) and gone at its end: the
	 * region exited before backward and cleared the cache, and each node
	 * released its copy as it ran. */
	start = ac + head + copies;
	end = gr + (step > tied_embedding_grad(m, r) ? step : tied_embedding_grad(m, r)) + kept_logits(m, r);
	return fixed - copies + (start > end ? start : end);
}

/* What is allocated while AutoAWQ fuses a loaded model (0.1.6 to 0.2.9,
 * LlamaFuser.fuse_transformer and the Mistral, Qwen2, ... fusers; before
 * 0.1.6 fuse_attention likewise): for every layer fuse_qkv
 * (awq/utils/fused_utils.py) concatenates q_proj, k_proj and v_proj's
 * qweight, qzeros and scales into a new WQLinear, whose constructor
 * first registers zero buffers of the same size, and the block built
 * around it allocates its cache (a float32 zeros moved to the GPU, then
 * made half); the model's original layers, and so the separate q, k and
 * v, stay referenced until the loop has built every block and
 * self.model.model is replaced. The peak is then at the last layer: the
 * weights, a second copy of every layer's q, k and v, one layer's zero
 * buffers, every cache and the last one's float32 source. A family whose
 * q, k and v are already one map (Falcon's query_key_value) is wrapped
 * as it is: no copy. The warm-up's cuBLAS workspace comes after. */
static double autoawq_load_peak(const gw_model *m, const gw_advise_options *r, double weights, double kv)
{
	double q = (double)(m->num_heads * m->head_dim), k = (double)(m->num_kv_heads * m->head_dim);
	double layer = (double)m->hidden_size * (q + 2 * k) * gw__advise_weight_bytes(r->weights);
	double n = (double)m->num_layers, cache = kv / n, built, fusing;

	if (gw__advise_has(m, GW__TRAIT_FUSED_QKV))
		layer = 0;
	/* after the last block: every copy and cache, the last cache's float32
	 * source (its values or keys, twice their half size); while the last
	 * layer is fused: the copies before it, its zero buffers and its
	 * concatenation, the caches before it */
	built = n * layer + kv + cache;
	fusing = (n + 1) * layer + kv - cache;
	return weights + (built > fusing ? built : fusing);
}

static uint64_t to_u64(double v)
{
	return (uint64_t)ceil(v);
}

/* A tied LM head's own weight, where the model is built on the GPU
 * (--init-on-gpu): under `with torch.device("cuda")` every module's
 * parameters are allocated there as it is constructed, the output
 * projection too (GPT2LMHeadModel's lm_head, BertForMaskedLM's
 * cls.predictions.decoder, T5's lm_head: nn.Linear(hidden, vocab)), and
 * only post_init()'s tie_weights() replaces that weight by the input
 * embedding (transformers' PreTrainedModel._tie_or_clone_weights), so a
 * vocab × hidden block is allocated and freed; past 10 MiB the caching
 * allocator gives it its own segment rounded to 2 MiB, which it keeps
 * (c10/cuda/CUDACachingAllocator.cpp, no empty_cache). Quantised models
 * are not built this way (optimum-benchmark loads them with a device
 * map), so 8- and 4-bit --weights count nothing. */
static double untied_head_bytes(const gw_model *m, const gw_advise_options *r)
{
	double wb = gw__advise_weight_bytes(r->weights), bytes;

	if (!r->init_on_gpu || !m->tied_embeddings || wb < 2)
		return 0;
	if (m->kind != GW_MODEL_DECODER && m->kind != GW_MODEL_ENCODER_DECODER &&
	    !(m->kind == GW_MODEL_ENCODER && m->lm_head))
		return 0;
	bytes = (double)m->vocab_size * (double)m->hidden_size * wb;
	return bytes > 10 * 1048576.0 ? ceil(bytes / 2097152.0) * 2097152.0 : bytes;
}

/* The reserve after a build on the GPU: the weights' reserve and the freed
 * head's segment, which the run's own blocks may reuse, so the larger of
 * that segment and what the run reserves beyond the weights. */
static double init_on_gpu_reserve(const gw_model *m, const gw_advise_options *r, double reserved, double alloc,
				  double weights)
{
	double head = untied_head_bytes(m, r), run = reserved - (alloc - weights);

	return run + head > reserved ? run + head : reserved;
}

int gw_advise_estimate_run(gw_advise_estimate *out, const gw_model *m, const gw_advise_options *o)
{
	gw_advise_estimate e;
	gw_advise_options r;
	double wt, gr, op, ac, kv, ws, ctx, alloc, reserved, step, states, peak, held, grads, tied;
	int rc;

	if (!out || !m || !o)
		return gw__error_set(GW_EINVAL, "no model or options");
	if (!m->params || !m->hidden_size || !m->num_layers || !m->num_heads || !m->head_dim ||
	    (m->kind == GW_MODEL_VISION && (!m->image_size || !m->patch_size)))
		return gw__error_set(GW_EINVAL, "the model has no shape (gw_model_finish)");
	if ((rc = resolve(&r, m, o)) < 0)
		return rc;
	wt = gw__advise_weights(m, &r);
	gr = gw__advise_gradients(m, &r);
	op = gw__advise_optimizer(m, &r);
	if (m->kind == GW_MODEL_VISION) {
		ac = r.task == GW_TASK_INFER ? gw__advise_vision_infer(m, &r) : gw__advise_vision_train(m, &r);
	} else {
		gw_model act = gw__advise_activation_view(m);
		ac = r.task == GW_TASK_INFER ? infer_activations(&act, &r) : train_activations(&act, &r);
	}
	/* The step's peak comes after backward has freed the activations and
	 * the weights ZeRO-3's saved tensors kept (counted in the workspace). */
	step = gw__advise_optimizer_step(m, &r);
	held = gw__advise_zero3_saved_weights(m, &r);
	states = op;
	if (step > ac + held)
		op += step - ac - held;
	/* What backward's end adds beside every gradient (overlapped_peak:
	 * the tied embedding's second gradient or the step's copies, and the
	 * logits a plain loop keeps), where it outgrows the activations and
	 * the step: its excess counts as gradients, so the sum stays above
	 * the peak. */
	grads = gr;
	if (grads_freed_before_forward(&r)) {
		tied = tied_embedding_grad(m, &r);
		tied = (tied > step ? tied : step) + kept_logits(m, &r);
		if (tied > ac + held && tied > step)
			gr += tied - (step > ac + held ? step : ac + held);
	}
	kv = gw__advise_kv_cache(m, &r) * gw__advise_split_kv_share(m, &r);
	wt = gw__advise_split_weights(m, &r, wt);
	ws = gw__advise_workspace(m, &r);
	ctx = cuda_context(&r);
	alloc = wt + gr + op + ac + kv + ws;
	if (r.autoawq_fused) {   /* the load's peak, where it is higher: its excess is weights */
		double load = autoawq_load_peak(m, &r, wt, kv);
		if (load > alloc) {
			wt += load - alloc;
			alloc = load;
		}
	}
	peak = alloc;
	if (grads_freed_before_forward(&r))
		peak = overlapped_peak(m, &r, wt + states + kv + ws, grads, ac, step);   /* ≤ alloc */
	/* The caching allocator's reserve (lib/advise/allocator.c), from the
	 * sum even where the gradients and the activations are not alive
	 * together (grads_freed_before_forward): on the H200 (PyTorch 2.11,
	 * the tuned rows of rounds 7 and 9) max_memory_reserved stayed at
	 * about the sum plus the slack, the gradients made during backward
	 * taking new segments rather than the activations' freed blocks,
	 * while max_memory_allocated fell below the sum. */
	reserved = gw__advise_reserved(m, &r, alloc, ac, kv, gr);
	reserved += zero3_stream_pools(m, &r, ac, step, held);
	reserved = init_on_gpu_reserve(m, &r, reserved, alloc, wt);
	if (!(alloc + ctx + reserved < LIMIT_BYTES))
		return gw__error_set(GW_EINVAL, "the estimate exceeds 4 EiB: the sizes given are absurd");
	memset(&e, 0, sizeof(e));
	e.weights_bytes = to_u64(wt);
	e.gradients_bytes = to_u64(gr);
	e.optimizer_bytes = to_u64(op);
	e.activations_bytes = to_u64(ac);
	e.kv_cache_bytes = to_u64(kv);
	e.workspace_bytes = to_u64(ws);
	e.cuda_context_bytes = to_u64(ctx);
	e.paged_bytes = to_u64(gw__advise_paged_states(m, &r));
	e.peak_allocated_bytes = e.weights_bytes + e.gradients_bytes + e.optimizer_bytes + e.activations_bytes +
				 e.kv_cache_bytes + e.workspace_bytes;
	if (peak < alloc)   /* the gradients and the activations not alive together */
		e.peak_allocated_bytes -= to_u64(alloc - peak);
	e.peak_reserved_bytes = to_u64(reserved);
	if (e.peak_reserved_bytes < e.peak_allocated_bytes)
		e.peak_reserved_bytes = e.peak_allocated_bytes;
	e.peak_device_bytes = e.peak_reserved_bytes + e.cuda_context_bytes + e.paged_bytes;
	e.trainable_params = to_u64(trainable(m, &r));
	e.resolved = r;
	*out = e;
	return 0;
}

int gw_advise_max_micro_batch(uint64_t *out, const gw_model *m, const gw_advise_options *o, uint64_t memory_bytes)
{
	gw_advise_options t;
	gw_advise_estimate e;
	uint64_t lo = 0, hi = MAX_BATCH;
	int rc;

	if (!out || !o)
		return gw__error_set(GW_EINVAL, "no output or options");
	memset(&e, 0, sizeof(e));
	t = *o;
	t.batch = 1;
	if ((rc = gw_advise_estimate_run(&e, m, &t)) < 0)
		return rc;
	/* Memory grows with the batch: the largest that fits by bisection;
	 * a batch too large to estimate does not fit. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;
		t.batch = mid;
		if (gw_advise_estimate_run(&e, m, &t) == 0 && e.peak_device_bytes <= memory_bytes)
			lo = mid;
		else
			hi = mid - 1;
	}
	*out = lo;
	return 0;
}
