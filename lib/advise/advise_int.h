/* The terms of the memory model (lib/advise/memory.c), exposed to the unit
 * tests, which check each against a hand calculation. Options must be
 * resolved (no AUTO left): gw_advise_estimate_run() does that. */
#ifndef GPUWISE_ADVISE_INT_H
#define GPUWISE_ADVISE_INT_H

#include <stdbool.h>

#include "gpuwise/advise.h"

/* Per-family traits of the memory model, one bit each, set in the
 * model_types[] table of lib/advise/model.c; memory.c explains each term
 * they change. A model_type not in that table (a shape from --params,
 * "custom") has none. Sources: transformers 5.25, models/<type>/modeling_*.py,
 * unless a line says otherwise. */
enum gw__advise_trait {
	/* q, k and v are one linear map, LoRA's default target: GPT-2's c_attn,
	 * Falcon's, GPT-NeoX's and BLOOM's query_key_value, GPTBigCode's c_attn,
	 * Phi-3's qkv_proj. */
	GW__TRAIT_FUSED_QKV = 1u << 0,
	/* gate and up are one map: Phi-3's gate_up_proj. */
	GW__TRAIT_FUSED_GATE_UP = 1u << 1,
	/* the fused q+k+v output stays alive beside the rotated q and k (rotary
	 * unless alibi): Phi-3's qkv_proj, GPT-NeoX's and Falcon's
	 * query_key_value; traced on the CPU (Phi-3-mini, Pythia-70M, Falcon-7B). */
	GW__TRAIT_FUSED_ROTARY = 1u << 2,
	/* SDPA keeps the grouped key/value heads (integrations/sdpa_attention.py,
	 * use_gqa_in_sdpa): the decoders counted from config.json without a
	 * measured run; traced on Falcon-7B and StarCoder. */
	GW__TRAIT_SDPA_GQA = 1u << 3,
	/* RMSNorm upcasts its input with .float() and keeps that fp32 copy:
	 * transformers' LlamaRMSNorm, LitGPT's RMSNorm. */
	GW__TRAIT_RMS_UPCAST = 1u << 4,
	/* the MLP runs "gelu_new" (NewGELUActivation): GPT-2's
	 * activation_function default, PhiConfig's hidden_act and GPTJConfig's
	 * activation_function defaults (phi-1, phi-1.5, phi-2, GPT-J-6B's
	 * config.json name it; gpuwise does not read the key). */
	GW__TRAIT_GELU_NEW = 1u << 5,
	/* the gated-gelu MLP runs "gelu_new" (dense_act_fn of T5 v1.1, Flan-T5,
	 * mT5); the original T5's ReLU MLP does not. */
	GW__TRAIT_GELU_NEW_GATED = 1u << 6,
	/* the MLP is fc1, ReLU, fc2 with nothing between, so ReLU's output is
	 * the one I-wide tensor kept (OPTDecoderLayer; every published OPT's
	 * activation_function is "relu"). */
	GW__TRAIT_RELU_MLP = 1u << 7,
	/* no SDPA: BloomPreTrainedModel sets no _supports_sdpa, so from_config
	 * builds eager attention. */
	GW__TRAIT_NO_SDPA = 1u << 8,
	/* the masked-LM head gpuwise models (--lm-head): BERT and RoBERTa. */
	GW__TRAIT_MLM_HEAD = 1u << 9,
	/* the causal LM's forward casts its logits to fp32 (`logits =
	 * logits.float()` in transformers 4.44's modeling file; 4.45 kept it
	 * for the loss only): what generate()'s first forward holds before
	 * 4.45 (--transformers). */
	GW__TRAIT_LOGITS_FLOAT = 1u << 10,
	/* eager attention runs its softmax in fp32 whatever the activation
	 * type and casts the probabilities back: `softmax(attn_weights,
	 * dim=-1, dtype=torch.float32).to(query.dtype)` in the eager path of
	 * the Llama-shaped families (not gpt-oss, whose sink softmax keeps the
	 * logits' type), phi, phi3, falcon, gpt_neox, opt, starcoder2, vit, deit
	 * and swin, BloomAttention's own `F.softmax(..., dtype=torch.float32)`,
	 * GPT-J's fp32 query and key, GPTBigCode's upcast_softmax
	 * (attention_softmax_in_fp32, default true); GPT-NeoX of transformers
	 * 4.42 got there through its fp32 rotary cos/sin, which make q and k
	 * fp32. GPT-2, BERT, RoBERTa and T5 (5.25) keep the scores' type. */
	GW__TRAIT_SOFTMAX_FP32 = 1u << 11,
	/* the RMSNorm squares an fp32 copy of its input but multiplies the
	 * input itself by the rsqrt (T5LayerNorm: `variance =
	 * hidden_states.to(torch.float32).pow(2).mean(...)`, then
	 * `hidden_states * torch.rsqrt(...)`), so in half precision it keeps
	 * both: 4 + e bytes. */
	GW__TRAIT_RMS_HALF_INPUT = 1u << 12,
	/* a dropout between the MLP's activation and its output projection,
	 * whose mask is I wide (T5DenseActDense and T5DenseGatedActDense). */
	GW__TRAIT_MLP_DROPOUT = 1u << 13,
	/* eager attention clamps the masked scores from below before the
	 * softmax (OPTAttention of the 4.x releases up to 4.46:
	 * `attn_weights = torch.max(attn_weights,
	 * torch.tensor(torch.finfo(attn_weights.dtype).min))`), and maximum's
	 * backward keeps its input: one more score-sized tensor in the
	 * activation type, with --transformers before 4.47. */
	GW__TRAIT_MASK_CLAMP = 1u << 14,
	/* the layers' maps are transformers' Conv1D (GPT-2): torch.addmm on
	 * the weight itself, which autograd saves as the parameter (a leaf),
	 * not as a transposed view of its storage as F.linear's weight.t(). */
	GW__TRAIT_CONV1D = 1u << 15,
	/* AutoAWQ 0.2.x fuses the model's layers into LlamaLikeBlock
	 * (awq/modules/fused/block.py; the fusers of awq/models/llama.py,
	 * mistral.py, qwen2.py, gemma.py, starcoder2.py, llava.py at v0.2.7). */
	GW__TRAIT_AWQ_LLAMA_BLOCK = 1u << 16,
};

/* Whether m is a text model, whose gw_model text half (experts, MLA,
 * sliding windows) holds data rather than vision stages. */
static inline bool gw__advise_text(const gw_model *m)
{
	return m->vision == GW_VISION_NONE && m->kind != GW_MODEL_VISION;
}
/* The parameters one token runs through: params_active for a mixture of
 * experts, else params (lib/advise/memory.c). */
double gw__advise_active_params(const gw_model *m);
/* The activations' view of a mixture of experts: one MLP per layer as
 * wide as what a token runs through (experts per token × expert width +
 * the shared experts), averaged with the dense layers; m itself when
 * dense (lib/advise/memory.c). */
gw_model gw__advise_activation_view(const gw_model *m);

/* The traits of m's model_type (lib/advise/model.c); 0 when unknown. */
unsigned gw__advise_traits(const gw_model *m);
/* Whether m's model_type has trait t. */
bool gw__advise_has(const gw_model *m, enum gw__advise_trait t);

double gw__advise_weight_bytes(gw_weights w);
double gw__advise_weights(const gw_model *m, const gw_advise_options *r);
double gw__advise_autocast_weight_copies(const gw_model *m, const gw_advise_options *r);
double gw__advise_gradients(const gw_model *m, const gw_advise_options *r);
double gw__advise_fsdp_gradients(const gw_model *m, const gw_advise_options *r, double full);
double gw__advise_optimizer(const gw_model *m, const gw_advise_options *r);
double gw__advise_paged_states(const gw_model *m, const gw_advise_options *r);
double gw__advise_optimizer_step(const gw_model *m, const gw_advise_options *r);
double gw__advise_layer_activations(const gw_model *m, const gw_advise_options *r, double seq);
double gw__advise_layer_activations_span(const gw_model *m, const gw_advise_options *r, double seq, double span);
double gw__advise_decoder_layer_activations(const gw_model *m, const gw_advise_options *r, double t, double s);
double gw__advise_saved_kv_width(const gw_model *m, const gw_advise_options *r);
double gw__advise_lora_input(const gw_advise_options *r);
bool gw__advise_fsdp(const gw_advise_options *r);
int gw__advise_zero_stage(const gw_advise_options *r);
double gw__advise_lora_features(const gw_model *m, const gw_advise_options *r);
double gw__advise_lora_attention_extra(const gw_model *m, const gw_advise_options *r);
double gw__advise_lora_mlp_extra(const gw_model *m, const gw_advise_options *r);
double gw__advise_act_bytes(const gw_advise_options *r);
double gw__advise_norm_bytes(const gw_model *m, const gw_advise_options *r);
/* Vision models (lib/advise/vision.c). */
/* Swin stage i as a transformer layer: width E·2^i, that stage's heads,
 * MLP mlp_ratio × width, no gated MLP (model.c counts, vision.c sizes). */
gw_model gw__advise_swin_stage(const gw_model *m, size_t i);
int gw__advise_vision_resolve(gw_advise_options *r, const gw_model *m);
double gw__advise_vision_train(const gw_model *m, const gw_advise_options *r);
double gw__advise_vision_infer(const gw_model *m, const gw_advise_options *r);
double gw__advise_vision_forward_flops(const gw_model *m, const gw_advise_options *r);
double gw__advise_vision_cast_weights(const gw_model *m);
double gw__advise_kv_cache(const gw_model *m, const gw_advise_options *r);
/* Inference split over GPUs (GW_STRATEGY_TP/PP): one GPU's weights of the
 * whole model's w, and its share of the KV cache. */
double gw__advise_split_weights(const gw_model *m, const gw_advise_options *r, double w);
double gw__advise_split_kv_share(const gw_model *m, const gw_advise_options *r);
double gw__advise_workspace(const gw_model *m, const gw_advise_options *r);
/* ZeRO-3's gathered weights that backward's saved tensors keep alive
 * until their backward (lib/advise/memory.c). */
double gw__advise_zero3_saved_weights(const gw_model *m, const gw_advise_options *r);
/* Cloud ranking over given rows (NULL: data/cloud_instances.tsv), so the
 * tests can rank a priced row (lib/advise/cloud.c, report.c). */
int gw__advise_cloud_from(gw_advise_cloud_rank **out, size_t *count, const gw_cloud_instance *insts, size_t ninsts,
			  const gw_advise_rank *ranks, size_t nranks, uint64_t gpus);
int gw__advise_report_add_hardware_from(gw_advise_report *r, const gw_advise_options *o,
					const gw_cloud_instance *insts, size_t ninsts);

/* PyTorch's CUDA caching allocator replayed over allocations and frees
 * (lib/advise/allocator.c): peaks of the rounded sizes in use and of the
 * segments reserved. A failed growth of its tables sets failed; the
 * calls after it do nothing. */
struct gw__sim_block;
typedef struct gw__alloc_sim {
	struct gw__sim_block *blocks;
	int *free_list;
	size_t nblocks, cap, nfree, reuse;
	uint64_t next_addr, reserved, allocated, peak_reserved, peak_allocated;
	bool failed;
} gw__alloc_sim;
void gw__alloc_sim_init(gw__alloc_sim *s);
void gw__alloc_sim_free(gw__alloc_sim *s);
/* A block for `bytes`: its handle, or -1 when the tables could not grow. */
int gw__alloc_sim_malloc(gw__alloc_sim *s, double bytes);
void gw__alloc_sim_release(gw__alloc_sim *s, int h);
/* As torch.cuda.reset_peak_memory_stats(): the peaks become what is held now. */
void gw__alloc_sim_reset_peaks(gw__alloc_sim *s);
/* The reserved peak of a run allocating alloc bytes at its peak, ac of them
 * activations (lib/advise/allocator.c): ResNet inference replayed
 * through the allocator, else the measured slack. */
double gw__advise_reserved(const gw_model *m, const gw_advise_options *r, double alloc, double ac, double kv,
			   double gr);
/* ResNet inference replayed (lib/advise/vision.c): the activation peak
 * (bytes in use at the peak, less the weights) and the reserve beyond the
 * allocated peak; false when the replay failed. */
bool gw__advise_resnet_infer_replay(const gw_model *m, const gw_advise_options *r, double *peak, double *slack);
/* Encoder inference (BERT, RoBERTa) replayed through the allocator: the
 * reserve beyond the allocated peak; false when the replay failed. ws: the
 * cuBLAS workspaces. */
bool gw__advise_encoder_infer_replay(const gw_model *m, const gw_advise_options *r, double ws, double *slack);

#endif
