/* gpuwise — memory advice: how much GPU memory a training or inference run
 * needs, whether it fits, and how to make it fit (docs/advise.md explains
 * every term with its source).
 *
 * A model comes from the catalogue (data/models.tsv), from a Hugging Face
 * config.json, or from a shape the caller fills in; its parameters are
 * counted exactly per architecture:
 *
 *   gw_model m;
 *   if (gw_model_from_catalog(&m, "llama-2-7b") < 0) ... gw_error_last()
 *   gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
 *   o.task = GW_TASK_LORA; o.batch = 4; o.seq = 1024;
 *   gw_advise_estimate e;
 *   if (gw_advise_estimate_run(&e, &m, &o) == 0)
 *       printf("%llu bytes\n", (unsigned long long)e.peak_device_bytes);
 *
 * Everything here is pure arithmetic over the model and the options: no
 * GPU, file or allocation is touched (the caller reads config.json).
 */
#ifndef GPUWISE_ADVISE_H
#define GPUWISE_ADVISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- models ------------------------------------------------------------ */

typedef enum gw_model_kind {
	GW_MODEL_DECODER = 0,          /* GPT-style, causal LM head */
	GW_MODEL_ENCODER = 1,          /* BERT-style, no LM head */
	GW_MODEL_ENCODER_DECODER = 2,  /* T5-style */
	GW_MODEL_VISION = 3            /* image classifier: ViT/DeiT/Swin (patches), ResNet (convolutions) */
} gw_model_kind;

/* How a vision model turns an image into what its layers see. */
typedef enum gw_vision_arch {
	GW_VISION_NONE = 0,   /* a text model */
	GW_VISION_VIT,        /* ViT, DeiT: patches + class (and distillation) token, one width */
	GW_VISION_SWIN,       /* Swin: windowed attention in stages that halve the side and double the width */
	GW_VISION_RESNET      /* ResNet: convolution stages, basic or bottleneck blocks */
} gw_vision_arch;

#define GW_VISION_STAGES_MAX 8

#define GW_MODEL_NAME_MAX 128

typedef struct gw_model {
	char name[GW_MODEL_NAME_MAX];  /* catalogue name, or what the caller gave */
	char model_type[32];           /* Hugging Face model_type ("llama"), or "custom" */
	gw_model_kind kind;
	uint64_t vocab_size;
	uint64_t hidden_size;
	uint64_t num_layers;           /* encoder layers for encoder-decoder models */
	uint64_t num_decoder_layers;   /* encoder-decoder only, else 0 */
	uint64_t num_heads;
	uint64_t num_kv_heads;         /* < num_heads: grouped-query (1: multi-query) */
	uint64_t head_dim;
	uint64_t intermediate_size;    /* MLP width */
	uint64_t max_positions;        /* 0 when positions are not learned or limited */
	bool gated_mlp;                /* SwiGLU/GeGLU: three MLP matrices */
	bool tied_embeddings;          /* LM head shares the input embedding */
	bool dropout;                  /* dropout active in training (masks are stored) */
	/* Encoders: the masked-LM head over every token instead of the pooler
	 * (BertForMaskedLM, RobertaForMaskedLM), set by gw_model_use_lm_head.
	 * In what was padding after dropout on every ABI; 0 from older
	 * callers that cleared the struct. */
	bool lm_head;
	uint64_t params;               /* all parameters, tied ones once */
	uint64_t params_linear;        /* weights of the layers' linear maps (what 8/4-bit stores) */
	uint64_t params_factored;      /* Adafactor state elements: rows+cols per matrix */
	uint64_t lora_features;        /* Σ in+out features of the LoRA targets (q, v) */
	uint64_t max_matrix;           /* elements of the largest linear weight */
	uint64_t layer_params;         /* parameters of the largest layer (FSDP gathers one) */
	uint64_t params_published;     /* catalogue only: the published count, else 0 */
	/* vision models (kind GW_MODEL_VISION); 0 for text models */
	gw_vision_arch vision;
	uint64_t image_size;           /* pixels per side the config was trained at (the --image default) */
	uint64_t patch_size;           /* ViT/DeiT/Swin: pixels per patch side; ResNet: 4 (the stem's stride) */
	uint64_t num_channels;         /* of the input image (3) */
	uint64_t num_labels;           /* classifier outputs (id2label entries) */
	uint64_t extra_tokens;         /* ViT: 1 (class), DeiT: 2 (class, distillation) */
	uint64_t window_size;          /* Swin: tokens per window side */
	uint64_t embed_dim;            /* Swin: stage-0 width; ResNet: the stem's channels */
	size_t num_stages;             /* Swin, ResNet */
	/* The stage arrays of vision models share their bytes with what text
	 * models have beyond the fields above (1.1.0): the struct keeps its
	 * size and every offset (docs/abi.md). Which half holds data follows
	 * `vision`: GW_VISION_NONE, the text half. A shape filled in by hand
	 * and cleared first reads as a dense model with full attention. */
	union {
		struct {
			uint64_t stage_depths[GW_VISION_STAGES_MAX];
			uint64_t stage_heads[GW_VISION_STAGES_MAX];   /* Swin */
			uint64_t stage_widths[GW_VISION_STAGES_MAX];  /* ResNet: each stage's output channels */
		};
		struct {
			/* Mixture of experts: layers with `experts` routed MLPs of
			 * width expert_intermediate, experts_per_token of them run
			 * per token, beside shared_experts that always run (of total
			 * width shared_intermediate); the other num_layers -
			 * moe_layers layers have one MLP of intermediate_size.
			 * params_active: what one token runs through (params less
			 * the experts it does not use); 0 for a dense model. */
			uint64_t experts, experts_per_token, shared_experts;
			uint64_t expert_intermediate, shared_intermediate, moe_layers;
			uint64_t params_active;
			/* Multi-head latent attention (DeepSeek-V2/V3): the
			 * compressed key/value latent of kv_lora_rank plus the
			 * shared rotary key of qk_rope_head_dim, and the value
			 * heads' width; 0 without MLA. */
			uint64_t kv_lora_rank, qk_rope_head_dim, v_head_dim;
			/* Sliding-window attention: sliding_layers of the layers
			 * attend to (and cache) the last sliding_window tokens
			 * only; 0 for none (Mistral: all layers; Gemma 2/3,
			 * gpt-oss: the layer_types that say so). */
			uint64_t sliding_window, sliding_layers;
			/* Vision-language models: the vision tower and projector's
			 * parameters, part of params. */
			uint64_t vision_params;
			uint64_t text_reserved[GW_VISION_STAGES_MAX * 3 - 13];   /* 0 */
		};
	};
	bool bottleneck;               /* ResNet: 1×1-3×3-1×1 blocks (ResNet-50 and up) */
	/* Decoders: how attention and the MLP read the layer's input. 1: side
	 * by side on one LayerNorm's output (Phi, GPT-J, Falcon's parallel_attn
	 * with one norm); 2: side by side, each through its own LayerNorm of
	 * the same input (GPT-NeoX's use_parallel_residual, Falcon's new
	 * architecture with two); 0: one after the other. alibi: positions by
	 * ALiBi (BLOOM, Falcon's alibi), not rotary or learned.
	 * no_attention_dropout: dropout is on but not on the attention
	 * probabilities (OPT's and Phi's attention_dropout 0 beside dropout
	 * 0.1). All three set by gw_model_from_config, in the padding at the
	 * struct's end (after bottleneck: every ABI leaves at least three bytes
	 * there, i386 included, so the size and every other offset stay); 0
	 * from older callers that cleared the struct. */
	uint8_t parallel_block;
	bool alibi;
	bool no_attention_dropout;
} gw_model;

/* A catalogue model by name (case-insensitive). 0, GW_ENOTFOUND, GW_EINVAL. */
int gw_model_from_catalog(gw_model *out, const char *name);

/* The catalogue: rows 0..count-1, in table order. */
typedef struct gw_model_entry {
	const char *name;      /* "llama-2-7b" */
	const char *hf;        /* "meta-llama/Llama-2-7b-hf" */
	const char *config;    /* the config.json values, as JSON */
	const char *source;    /* where the values and the published count come from */
	uint64_t params_published;
} gw_model_entry;
size_t gw_model_catalog_count(void);
int gw_model_catalog_at(size_t i, gw_model_entry *out);   /* 0 or GW_ENOTFOUND */

/* A Hugging Face config.json (len bytes of text). name labels the model
 * (NULL: the model_type). 0, GW_EPARSE (not JSON, or a field of the wrong
 * type or out of range), GW_ENOTSUP (a model_type gpuwise cannot count yet),
 * GW_ENOMEM; the message names the field. */
int gw_model_from_config(gw_model *out, const char *json, size_t len, const char *name);

/* Give an encoder (BERT, RoBERTa) the masked-LM head that pre-training and
 * MLM fine-tuning put on every token, as BertForMaskedLM and
 * RobertaForMaskedLM build it: a dense h×h with bias, GELU and a LayerNorm,
 * then the decoder to the vocabulary, tied to the word embeddings, with
 * its own bias; no pooler. The count becomes the head model's (the
 * published count, which is the base model's, no longer applies). 0, or
 * GW_EINVAL for a model that is not such an encoder (decoders and T5 have
 * their LM head already). */
int gw_model_use_lm_head(gw_model *m);

/* Complete a shape the caller filled in (kind, vocab_size, hidden_size,
 * num_layers, num_heads, and optionally the rest: 0 means "the usual":
 * kv heads = heads, head_dim = hidden/heads, intermediate 4×hidden), count
 * its parameters, and validate it. When m->params is already set (the
 * user knows the count better) it is kept. 0 or GW_EINVAL. */
int gw_model_finish(gw_model *m);

/* ---- the options of a run ------------------------------------------------ */

typedef enum gw_advise_task { GW_TASK_TRAIN, GW_TASK_LORA, GW_TASK_QLORA, GW_TASK_INFER } gw_advise_task;
typedef enum gw_precision {
	GW_PRECISION_AUTO,      /* by compute capability: amp-bf16 from 8.0, amp-fp16 on 7.x, fp32 before */
	GW_PRECISION_FP32, GW_PRECISION_TF32,
	GW_PRECISION_AMP_FP16, GW_PRECISION_AMP_BF16,  /* fp32 weights, autocast */
	GW_PRECISION_FP16, GW_PRECISION_BF16           /* pure half precision */
} gw_precision;
typedef enum gw_weights {
	GW_WEIGHTS_AUTO,        /* from the task and precision */
	GW_WEIGHTS_FP32, GW_WEIGHTS_FP16, GW_WEIGHTS_BF16, GW_WEIGHTS_INT8,
	GW_WEIGHTS_NF4, GW_WEIGHTS_NF4_DQ, GW_WEIGHTS_GPTQ4
} gw_weights;
typedef enum gw_optimizer {
	GW_OPTIMIZER_ADAMW, GW_OPTIMIZER_ADAM, GW_OPTIMIZER_SGD, GW_OPTIMIZER_SGD_MOMENTUM,
	GW_OPTIMIZER_ADAFACTOR, GW_OPTIMIZER_ADAMW_8BIT, GW_OPTIMIZER_PAGED_ADAMW_8BIT,
	/* Adam's implementations differ in what their step allocates: ADAMW
	 * and ADAM are PyTorch's default multi-tensor ("foreach") ones, which
	 * build one state-sized temporary for every parameter at once; FUSED
	 * (fused=True, DeepSpeed's FusedAdam) none; HF (transformers' own
	 * AdamW, optim="adamw_hf") one parameter's at a time. */
	GW_OPTIMIZER_ADAMW_FUSED, GW_OPTIMIZER_ADAMW_HF
} gw_optimizer;
typedef enum gw_strategy {
	GW_STRATEGY_DDP, GW_STRATEGY_FSDP, GW_STRATEGY_ZERO1, GW_STRATEGY_ZERO2, GW_STRATEGY_ZERO3,
	/* FSDP whose units hold frozen and trainable weights together (LitGPT
	 * wraps whole blocks): a LoRA run pays gradients for the frozen weights.
	 * GW_STRATEGY_FSDP is FSDP with the adapters in units of their own
	 * (PEFT's fsdp_auto_wrap_policy, which transformers' Trainer applies). */
	GW_STRATEGY_FSDP_MIXED,
	/* Inference split over --gpus, a decoder's weights and KV cache not
	 * copied to each GPU: TP cuts every layer's matrices by heads (vLLM's
	 * tensor_parallel_size), PP gives each GPU whole layers (accelerate's
	 * device_map="auto", vLLM's pipeline_parallel_size). DDP on several
	 * GPUs in inference resolves to TP where the heads divide evenly,
	 * else PP. */
	GW_STRATEGY_TP, GW_STRATEGY_PP
} gw_strategy;
typedef enum gw_offload { GW_OFFLOAD_NONE, GW_OFFLOAD_OPTIMIZER, GW_OFFLOAD_PARAMS } gw_offload;
typedef enum gw_attention {
	GW_ATTENTION_AUTO,      /* sdpa for decoders (what transformers picks), eager otherwise */
	GW_ATTENTION_EAGER, GW_ATTENTION_SDPA, GW_ATTENTION_FLASH
} gw_attention;
/* The linear layers LoRA adapts (text models). */
typedef enum gw_lora_targets {
	GW_LORA_QV,          /* the attention's q and v projections (PEFT's default for these models) */
	GW_LORA_ATTENTION,   /* q, k, v and the output projection */
	GW_LORA_ALL_LINEAR,  /* every linear map of the layers (PEFT's "all-linear"; the QLoRA paper's choice) */
	GW_LORA_ALL          /* all-linear and the LM head (LitGPT's lora_head) */
} gw_lora_targets;
/* How the training loop treats a step's outputs (logits, loss) once
 * backward is done. Backward frees what autograd saved, but anything the
 * graph still holds stays allocated while the outputs are referenced. */
typedef enum gw_training_loop {
	GW_LOOP_TRAINER,     /* gone before the next forward: Hugging Face Trainer's training_step returns
	                      * loss.detach(); a loop that sets its outputs to None */
	GW_LOOP_PLAIN        /* `logits = model(x)` in a hand-written loop (LitGPT's fit()): the last
	                      * step's outputs and graph live until the next forward returns;
	                      * inference: the script calls model(ids) on the prompt itself
	                      * (AutoAWQ's examples/benchmark.py), not generate(), so every prompt
	                      * position's logits are computed */
} gw_training_loop;
/* What a decoder's training loss does with the logits. */
typedef enum gw_training_loss {
	GW_LOSS_CROSS_ENTROPY, /* transformers' cross-entropy over the labels: an fp32 copy and its log-softmax */
	GW_LOSS_SUM            /* `loss = out.logits.sum()` (transformers' SDPA benchmark scripts): no copy, and
	                        * backward materialises the logits' gradient, the logits' own type */
} gw_training_loss;

/* The vocabularies as text, one table each (the CLI's and Python's names).
 * The value of name in vocabulary `kind` ("task", "precision", "weights",
 * "optimizer", "strategy", "offload", "attention", "lora_targets", "loop", "loss"), or -1. */
int gw_advise_value(const char *kind, const char *name);
/* The name of value in `kind`, or NULL. */
const char *gw_advise_name(const char *kind, int value);
/* Every name of `kind`, space-separated ("train lora qlora infer"), or NULL. */
const char *gw_advise_names(const char *kind);
/* A PyTorch version as torch.__version__ prints it ("1.13.1", "2.4.0+cu121",
 * or just "2.4") → *out = major·100 + minor, gw_advise_options'
 * torch_version. 0, or GW_EINVAL with a message. */
int gw_advise_torch_version(const char *s, uint32_t *out);
/* A bitsandbytes version ("0.43.1", "0.45.0.dev0", "0.42") → *out =
 * major·10000 + minor·100 + patch, gw_advise_options'
 * bitsandbytes_version. 0, or GW_EINVAL with a message. */
int gw_advise_bitsandbytes_version(const char *s, uint32_t *out);
/* An AutoAWQ version ("0.2.7", "0.2.7.post3") → *out = major·10000 +
 * minor·100 + patch, gw_advise_options' autoawq_version. 0, or GW_EINVAL
 * with a message. */
int gw_advise_autoawq_version(const char *s, uint32_t *out);

#define GW_ADVISE_OPTIONS_VERSION 6
typedef struct gw_advise_options {
	unsigned version;             /* GW_ADVISE_OPTIONS_VERSION */
	gw_advise_task task;
	uint64_t batch;               /* micro-batch per GPU */
	uint64_t seq;                 /* tokens; for infer: prompt plus generated. 0: min(2048, max positions);
	                               * vision models: set from the image (ViT: patches + class tokens) */
	uint64_t new_tokens;          /* infer: generated tokens (part of seq) */
	gw_precision precision;
	gw_weights weights;
	gw_optimizer optimizer;
	uint64_t grad_accum;
	bool checkpointing;
	/* gw_lora_targets, for lora/qlora on text models (version 3; read as
	 * GW_LORA_QV from a version-2 caller). One byte, in what was padding
	 * after checkpointing on every ABI, so this struct and the estimate
	 * and plan structs that embed it keep their size and layout. */
	uint8_t lora_targets;
	/* Encoder-decoder training (T5): tokens per target, what the decoder
	 * reads (HF's max_target_length), up to 65,535; 0: seq. Version 4,
	 * in the two bytes of padding that follow lora_targets on every ABI
	 * (i386 aligns the next uint64_t to 4), read as 0 from older
	 * callers; seq is then the source (encoder) length. */
	uint16_t decoder_seq;
	uint64_t lora_rank;           /* 0: 8 */
	uint64_t gpus;
	gw_strategy strategy;
	gw_offload offload;
	gw_attention attention;
	unsigned cc_major, cc_minor;  /* the GPU's compute capability, 0.0 = unknown */
	uint64_t gpu_memory_bytes;    /* the GPU's memory, 0 = unknown (cuBLASLt sizes by it) */
	uint64_t image;               /* vision models: pixels per image side; 0: the model's image_size */
	/* The PyTorch release the run uses, major·100 + minor (1.7 → 107,
	 * 2.4 → 204); 0: a current one. Before 1.11 softmax kept its input
	 * for backward beside its output; before 1.13 CUDA loaded every
	 * kernel of the library when the context was made (no lazy module
	 * loading); before 2.0 there is no SDPA. Version 5 (1.0.0). */
	uint32_t torch_version;
	/* The bitsandbytes release of a QLoRA run, major·10000 + minor·100 +
	 * patch (0.43.1 → 4301); 0: a current one. Before 0.43.2 its 4-bit
	 * matmul kept its input for backward, which it never read
	 * (bitsandbytes-foundation/bitsandbytes#1270). Version 5 (1.0.0). */
	uint32_t bitsandbytes_version;
	/* gw_training_loop (training). Version 5 (1.0.0). */
	uint32_t loop;
	/* The transformers release of an inference run, major·100 + minor
	 * (4.44 → 444); 0: a current one. Before 4.45 generate()'s first
	 * forward computes the logits of every prompt position, and the Llama
	 * family's forward casts them to fp32 (huggingface/transformers#31292
	 * added num_logits_to_keep). Version 6, in the first reserved field:
	 * a version-5 caller reads as 0. */
	uint32_t transformers_version;
	/* Training of a decoder: the loss upcasts the logits to fp32 in this
	 * many chunks, one at a time (torchtune's CEWithChunkedOutputLoss:
	 * 8); 0 or 1: the whole at once. Version 6. */
	uint32_t loss_chunks;
	/* Training of a decoder with checkpointing: 1 moves the checkpointed
	 * layers' inputs to CPU memory in the forward pass and brings each
	 * back for its layer's recomputation (torchtune's
	 * enable_activation_offloading, OffloadActivations); 0: they stay on
	 * the GPU. Independent of `offload`. Version 6. */
	uint32_t offload_activations;
	/* Inference of a decoder with 4-bit AWQ weights (GW_WEIGHTS_GPTQ4)
	 * loaded by AutoAWQ's from_quantized(fuse_layers=True): 1 counts its
	 * fused modules as releases 0.1.6 to 0.2.7.post3 run them (a KV cache
	 * preallocated for new_tokens positions, its own attention, eager or
	 * by autoawq_version SDPA, and the load's peak while it fuses q, k and
	 * v); 0: transformers' modules. Version 6. */
	uint32_t autoawq_fused;
	/* Training under GW_STRATEGY_ZERO3 on several GPUs: 1 when the model
	 * was built before DeepSpeed's configuration existed (from_pretrained
	 * before TrainingArguments), so without zero.Init, whose replacement
	 * of F.linear is then missing: each linear map's gathered weight stays
	 * allocated from its forward to its backward; 0: built under zero.Init.
	 * Version 6. */
	uint32_t no_zero_init;
	/* gw_training_loss: training of a decoder (the LM head's loss).
	 * Version 6. */
	uint32_t loss;
	/* With autoawq_fused: the AutoAWQ release, major·10000 + minor·100 +
	 * patch (0.2.7 → 207); 0: one before 0.2.7. From 0.2.7 the fused
	 * blocks of Llama-shaped models (LlamaLikeBlock) call PyTorch's SDPA
	 * instead of computing the scores themselves. Version 6. */
	uint32_t autoawq_version;
	/* 1: the model was built on the GPU with its modules' own
	 * initialisation (`with torch.device("cuda"): from_pretrained(...)`,
	 * optimum-benchmark's no_weights models): a tied LM head's Linear
	 * allocates its own weight before tie_weights() drops it, and that
	 * block stays in the caching allocator's reserve. 0: loaded onto the
	 * GPU (from_pretrained(device_map=...), .to(device)). Version 6. */
	uint32_t init_on_gpu;
	/* 0: room for options to come, so that a new one moves neither this
	 * struct's size nor the structs that embed it (docs/abi.md). */
	uint32_t reserved[3];
} gw_advise_options;
#define GW_ADVISE_OPTIONS_INIT { GW_ADVISE_OPTIONS_VERSION, GW_TASK_TRAIN, 1, 0, 0, GW_PRECISION_AUTO, \
	GW_WEIGHTS_AUTO, GW_OPTIMIZER_ADAMW, 1, false, GW_LORA_QV, 0, 0, 1, GW_STRATEGY_DDP, GW_OFFLOAD_NONE, \
	GW_ATTENTION_AUTO, 0, 0, 0, 0, 0, 0, GW_LOOP_TRAINER, 0, 0, 0, 0, 0, 0, 0, 0, { 0 } }

/* ---- the estimate ---------------------------------------------------------- */

typedef struct gw_advise_estimate {
	/* per GPU, bytes */
	uint64_t weights_bytes;       /* stored weights (+ autocast's half copies) */
	uint64_t gradients_bytes;     /* trainable parameters' gradients (+ DDP buckets) */
	uint64_t optimizer_bytes;     /* optimizer states (+ fp32 master weights) */
	uint64_t activations_bytes;   /* saved for backward (training) or the forward's peak */
	uint64_t kv_cache_bytes;      /* inference */
	uint64_t workspace_bytes;     /* cuBLAS/cuBLASLt workspaces, dequantisation and gather buffers */
	uint64_t cuda_context_bytes;  /* outside the caching allocator */
	uint64_t paged_bytes;         /* paged optimizer states: managed memory, outside the allocator */
	uint64_t peak_allocated_bytes; /* torch.cuda.max_memory_allocated() */
	uint64_t peak_reserved_bytes;  /* torch.cuda.max_memory_reserved() */
	uint64_t peak_device_bytes;    /* what nvidia-smi shows for the process */
	uint64_t trainable_params;
	/* the options as resolved (AUTO replaced) */
	gw_advise_options resolved;
} gw_advise_estimate;

/* Estimate one run. 0, or GW_EINVAL with a message (a zero or absurd size,
 * an option that does not apply, an estimate past 2^62 bytes). */
int gw_advise_estimate_run(gw_advise_estimate *out, const gw_model *m, const gw_advise_options *o);

/* The largest micro-batch (≤ 1,048,576) whose peak_device_bytes fits in
 * memory_bytes: *out = 0 when not even 1 fits. 0 or GW_EINVAL. */
int gw_advise_max_micro_batch(uint64_t *out, const gw_model *m, const gw_advise_options *o,
			      uint64_t memory_bytes);

/* ---- the plan ------------------------------------------------------------- */

#define GW_PLAN_STEPS_MAX 8
typedef struct gw_advise_plan {
	bool fits;                     /* some rung of the ladder fits */
	uint64_t micro_batch;          /* per GPU */
	uint64_t grad_accum;           /* micro_batch × grad_accum × gpus ≥ target */
	gw_advise_options options;     /* the settings that fit (checkpointing, precision, ...) */
	gw_advise_estimate estimate;   /* at micro_batch */
	size_t nsteps;
	const char *steps[GW_PLAN_STEPS_MAX];  /* the rungs taken: "checkpointing", "precision", ... */
} gw_advise_plan;

/* The cheapest way to reach target_batch samples per optimizer step on GPUs
 * of memory_bytes: the ladder micro-batch × accumulation, then
 * checkpointing, then a lower precision the GPU supports, then an 8-bit
 * optimizer, then ZeRO-2/ZeRO-3 (several GPUs), then optimizer offload.
 * target_batch 0 = o->batch × o->grad_accum × o->gpus. 0 or GW_EINVAL. */
int gw_advise_plan_make(gw_advise_plan *out, const gw_model *m, const gw_advise_options *o,
			uint64_t memory_bytes, uint64_t target_batch);

/* ---- GPUs by name (data/gpu_specs.tsv) ------------------------------------- */

typedef struct gw_gpu_spec {
	const char *name;        /* "A100-SXM4-40GB" */
	uint64_t memory_bytes;   /* the datasheet size; a run gets gw_gpu_spec_usable_bytes() */
	unsigned cc_major, cc_minor;
	uint64_t bandwidth_bytes_per_s;   /* memory bandwidth */
	/* dense peak throughput, FLOP/s; 0 = not supported (tensor cores for
	 * tf32/fp16/bf16/fp8, with FP32 accumulation) */
	double fp32_flops, tf32_flops, fp16_flops, bf16_flops, fp8_flops;
	const char *source;
} gw_gpu_spec;
/* A spec-table GPU by name, case-, space- and dash-insensitively
 * ("rtx4090", "RTX 4090"), past the brand words NVML and nvidia-smi print
 * ("NVIDIA GeForce RTX 4090", "Tesla P100-PCIE-16GB"). 0 or GW_ENOTFOUND. */
int gw_gpu_spec_find(const char *name, gw_gpu_spec *out);
size_t gw_gpu_spec_count(void);
int gw_gpu_spec_at(size_t i, gw_gpu_spec *out);
/* What a CUDA program can allocate on s, the memory a run is checked
 * against: the table's CUDA-visible total (cudaDeviceProp.totalGlobalMem,
 * PyTorch's "total capacity") where a source gives it for this GPU on an
 * R510+ driver, less than memory_bytes by the framebuffer the driver
 * reserves (A100-SXM4-80GB: 85100068864 bytes, 81157.75 MiB, of 81920 MiB);
 * else memory_bytes, the datasheet size. 0 for NULL. Since 0.3.0. */
uint64_t gw_gpu_spec_usable_bytes(const gw_gpu_spec *s);
/* The framebuffer the driver reserved on the machine the usable size comes
 * from (nvidia-smi -q "Reserved"; it varies with driver and firmware); 0
 * when the table has no source for s. Since 0.3.0. */
uint64_t gw_gpu_spec_reserved_bytes(const gw_gpu_spec *s);
/* FP64 FLOP/s on the vector units (the datasheet's, or FP32 × the
 * architecture's ratio where it gives none); 0 when unknown or for NULL. */
double gw_gpu_spec_fp64_flops(const gw_gpu_spec *s);

/* ---- the report: one run checked against target GPUs ----------------------- */

/* A GPU to check the run against. */
typedef struct gw_advise_target {
	char name[160];           /* "RTX 4090", "0: NVIDIA H100 80GB HBM3", "--memory" */
	char source[16];          /* "local" (this machine), "spec" (the spec table), "memory" */
	uint64_t memory_bytes;         /* what a run can use of it, empty (a MIG device: the instance's) */
	unsigned cc_major, cc_minor;   /* 0.0 = unknown */
	/* "local": what other processes hold on it now (0 = nothing, or not
	 * known); the run fits now when it fits in memory_bytes less this */
	uint64_t in_use_bytes;
} gw_advise_target;

typedef struct gw_advise_result {
	gw_advise_target target;
	gw_advise_estimate estimate;   /* the run as given, on this GPU */
	uint64_t max_micro_batch;      /* 0: not even 1 fits */
	bool fits;                     /* estimate.peak_device_bytes <= memory_bytes */
	bool fits_now;                 /* ... <= memory_bytes - in_use_bytes (= fits when nothing is in use) */
} gw_advise_result;

typedef struct gw_advise_report gw_advise_report;

/* Estimate the run o of model m (`from`: "catalogue", "config" or "shape",
 * as the JSON reports it) on each of the n targets (0 is fine: the run on
 * an unknown GPU), the largest micro-batch on each, and the plan for the
 * first one reaching target_batch (0 = batch × grad_accum × gpus; for
 * infer, batch). 0, GW_EINVAL (bad options: the message says which),
 * GW_ENOMEM. */
int gw_advise_report_new(gw_advise_report **out, const gw_model *m, const char *from,
			 const gw_advise_options *o, const gw_advise_target *targets, size_t n,
			 uint64_t target_batch);
void gw_advise_report_free(gw_advise_report *r);
const gw_model *gw_advise_report_model(const gw_advise_report *r);
/* The first target's estimate (or, without targets, the unknown GPU's). */
const gw_advise_estimate *gw_advise_report_estimate(const gw_advise_report *r);
size_t gw_advise_report_count(const gw_advise_report *r);
const gw_advise_result *gw_advise_report_result(const gw_advise_report *r, size_t i);  /* NULL past the end */
/* The plan for the target it picks: the first where the run as given fits
 * now, else the one with the most memory free now (the first of equals);
 * NULL without targets. */
const gw_advise_plan *gw_advise_report_plan(const gw_advise_report *r);
/* The index of the plan's target; 0 without targets. */
size_t gw_advise_report_plan_target(const gw_advise_report *r);
/* A plan leaves less than this fraction of its target's memory free: too
 * little for the allocator's fragmentation, a longer sample or a library
 * that allocates more than modelled; the report says so. */
#define GW_ADVISE_LOW_HEADROOM 0.05
uint64_t gw_advise_report_target_batch(const gw_advise_report *r);
/* The ◆ JSON document of `gpuwise advise --json`, malloc'd (free() it);
 * NULL for a NULL report or out of memory. */
char *gw_advise_report_json(const gw_advise_report *r, int indent);
/* ---- hardware: the spec-table GPUs ranked for the run ---------------------- */

/* The fraction of peak throughput the time estimates assume: a typical
 * model FLOPs utilisation of a well-tuned training run. */
#define GW_ADVISE_MFU 0.4
/* The fraction of peak memory bandwidth a decode step reaches. */
#define GW_ADVISE_MBU 0.8

typedef struct gw_advise_rank {
	gw_gpu_spec gpu;
	gw_advise_estimate estimate;  /* the run as given on this GPU */
	uint64_t max_micro_batch;
	bool fits;
	/* training: one micro-batch step (forward, backward, 6·P FLOPs a token;
	 * 4·P for LoRA, +2·P with checkpointing) at GW_ADVISE_MFU of the peak
	 * of the run's precision; infer: prefill plus every generated token,
	 * each token the slower of its FLOPs and reading the weights and KV
	 * cache at GW_ADVISE_MBU of the bandwidth; vision: the forward's
	 * FLOPs of each image ×3 for training (×2 LoRA, +1 checkpointing) */
	double step_seconds;
	double tokens_per_second;     /* training: tokens processed; infer: tokens generated;
	                               * vision: positions (samples_per_second × seq) */
	double samples_per_second;    /* sequences or images: batch / step_seconds */
} gw_advise_rank;

/* Every spec-table GPU for run o of model m: those where it fits first,
 * fastest first, then the others by memory. *out is malloc'd (free with
 * gw_advise_ranks_free). 0, GW_EINVAL (bad options), GW_ENOMEM. */
int gw_advise_hardware(gw_advise_rank **out, size_t *count, const gw_model *m, const gw_advise_options *o);
void gw_advise_ranks_free(gw_advise_rank *ranks);
/* Add the ranking to a report: its JSON then has "hardware": [...]. */
int gw_advise_report_add_hardware(gw_advise_report *r, const gw_advise_options *o);
size_t gw_advise_report_hardware_count(const gw_advise_report *r);
const gw_advise_rank *gw_advise_report_hardware(const gw_advise_report *r, size_t i);  /* NULL past the end */

/* ---- cloud instances (data/cloud_instances.tsv) ----------------------------- */

typedef struct gw_cloud_instance {
	const char *provider;        /* "aws", "gcp", "azure" */
	const char *instance;        /* "p4d.24xlarge" */
	const char *gpu;             /* its GPU, a spec-table name */
	unsigned gpus;               /* how many */
	double price_usd_per_hour;   /* on-demand, from a primary source; 0 = none in the table */
	const char *written;         /* the day the row was written (YYYY-MM-DD) */
	const char *note;            /* NULL, or what a reader must know about the row */
	const char *source;
} gw_cloud_instance;
size_t gw_cloud_instance_count(void);
int gw_cloud_instance_at(size_t i, gw_cloud_instance *out);   /* 0 or GW_ENOTFOUND */

typedef struct gw_advise_cloud_rank {
	gw_cloud_instance instance;
	gw_advise_rank rank;              /* the run on one of its GPUs (the GPU's spec-table rank) */
	unsigned gpus_used;               /* the run's --gpus; the instance's others stay idle */
	double samples_per_second;        /* rank.samples_per_second × gpus_used */
	double usd_per_million_samples;   /* 0 without a price */
} gw_advise_cloud_rank;

/* The instances with at least `gpus` GPUs of a ranked type: fitting first,
 * then the priced ones (cheaper per sample first), faster, fewer GPUs.
 * ranks come from gw_advise_hardware (same run). *out is malloc'd (free
 * with gw_advise_cloud_free). 0, GW_EINVAL, GW_ENOMEM. */
int gw_advise_cloud(gw_advise_cloud_rank **out, size_t *count, const gw_advise_rank *ranks, size_t nranks,
		    uint64_t gpus);
void gw_advise_cloud_free(gw_advise_cloud_rank *ranks);
/* With --hardware, the report ranks the instances too (JSON "cloud": [...]). */
size_t gw_advise_report_cloud_count(const gw_advise_report *r);
const gw_advise_cloud_rank *gw_advise_report_cloud(const gw_advise_report *r, size_t i);  /* NULL past the end */

/* A Hugging Face TrainingArguments(...) line for a plan, into buf. */
const char *gw_advise_training_arguments(char *buf, size_t n, const gw_advise_plan *p);

/* Whether plan p fits on memory_bytes with less than GW_ADVISE_LOW_HEADROOM
 * of it to spare (false for a plan that does not fit). */
bool gw_advise_plan_low_headroom(const gw_advise_plan *p, uint64_t memory_bytes);

/* ---- GGUF files and the serving engines (1.1.0) ---------------------------- */

/* A GGUF file's header (llama.cpp, ollama): versions 2 and 3, the
 * metadata and every tensor's name, shape and ggml type. The parser reads
 * untrusted bytes: every count and length is checked against the bytes
 * given and capped (GW_GGUF_TENSORS_MAX tensors, GW_GGUF_KV_MAX keys).
 * The tensors' data need not be given: the header alone is enough. */
typedef struct gw_gguf gw_gguf;
#define GW_GGUF_TENSORS_MAX 65536
#define GW_GGUF_KV_MAX 65536
#define GW_GGUF_NAME_MAX 128
typedef struct gw_gguf_tensor {
	char name[GW_GGUF_NAME_MAX];   /* "blk.0.attn_q.weight" (longer names cut, printable only) */
	uint32_t type;                 /* ggml type: 0 F32, 1 F16, 2 Q4_0, 8 Q8_0, 12 Q4_K, 30 BF16, ... */
	uint32_t n_dims;               /* 1 to 4 */
	uint64_t dims[4];
	uint64_t elements;
	uint64_t bytes;                /* exact, from the type's block size and bytes per block */
	int64_t layer;                 /* N of "blk.N.", else -1 */
} gw_gguf_tensor;
/* Parse len bytes (the file's head). 0, GW_EPARSE (not GGUF, a version
 * other than 2 or 3, truncated, a count or length past the caps, an
 * unknown ggml type), GW_ENOMEM. */
int gw_gguf_parse(gw_gguf **out, const void *data, size_t len);
void gw_gguf_free(gw_gguf *g);
uint32_t gw_gguf_version(const gw_gguf *g);
const char *gw_gguf_architecture(const gw_gguf *g);   /* general.architecture, "" when absent */
const char *gw_gguf_name(const gw_gguf *g);           /* general.name, "" when absent */
size_t gw_gguf_tensor_count(const gw_gguf *g);
const gw_gguf_tensor *gw_gguf_tensor_at(const gw_gguf *g, size_t i);   /* NULL past the end */
/* A numeric metadata value ("llama.block_count"; "{arch}." is replaced by
 * the architecture): 0, or GW_ENOTFOUND. Arrays give their length. */
int gw_gguf_get_u64(const gw_gguf *g, const char *key, uint64_t *out);
/* The ggml type's name ("Q4_K") and its bytes for n elements (0 for an
 * unknown type or n not a whole number of blocks). */
const char *gw_gguf_type_name(uint32_t type);
uint64_t gw_gguf_type_bytes(uint32_t type, uint64_t n);

/* llama.cpp / ollama inference of a GGUF model. */
typedef enum gw_kv_type { GW_KV_F16, GW_KV_Q8_0, GW_KV_Q4_0, GW_KV_F32, GW_KV_BF16 } gw_kv_type;
#define GW_LLAMACPP_OPTIONS_VERSION 1
typedef struct gw_llamacpp_options {
	unsigned version;      /* GW_LLAMACPP_OPTIONS_VERSION */
	uint64_t ctx;          /* -c: total context of every slot; 0: the model's context_length */
	uint64_t parallel;     /* --parallel: slots sharing ctx; 0: 1 */
	int64_t ngl;           /* -ngl: layers on the GPU; < 0: all (and the output layer) */
	gw_kv_type cache_k, cache_v;   /* --cache-type-k / -v */
	uint64_t ubatch;       /* -ub: 0: 512 */
	bool flash_attn;       /* -fa */
	uint32_t reserved[8];  /* 0 */
} gw_llamacpp_options;
#define GW_LLAMACPP_OPTIONS_INIT { GW_LLAMACPP_OPTIONS_VERSION, 0, 0, -1, GW_KV_F16, GW_KV_F16, 0, false, { 0 } }
typedef struct gw_llamacpp_estimate {
	uint64_t layers, gpu_layers;         /* block_count; those offloaded */
	uint64_t weights_gpu_bytes, weights_cpu_bytes;
	uint64_t kv_cache_bytes;             /* on the GPU: the offloaded layers' */
	uint64_t kv_bytes_per_token;         /* every layer's, for one token */
	uint64_t compute_bytes;              /* the GPU compute buffer */
	uint64_t total_gpu_bytes;            /* weights + KV + compute (+ CUDA context) */
	uint64_t cuda_context_bytes;
	uint64_t ctx, parallel, ctx_per_slot;
} gw_llamacpp_estimate;
int gw_advise_llamacpp(gw_llamacpp_estimate *out, const gw_gguf *g, const gw_llamacpp_options *o);
/* The largest --parallel whose slots each hold seq tokens and that fits
 * memory_bytes (0: none); o's ctx and parallel are replaced. */
uint64_t gw_advise_llamacpp_max_parallel(const gw_gguf *g, const gw_llamacpp_options *o, uint64_t seq,
					 uint64_t memory_bytes);

/* vLLM: gpu_memory_utilization of memory_bytes, less the weights, the
 * profiled activation peak and what lives outside PyTorch, becomes KV
 * blocks of block_size tokens; how many sequences of seq tokens they hold
 * at once. MLA models cache the latent (kv_lora_rank + qk_rope_head_dim
 * per token and layer, one tensor). */
typedef struct gw_vllm_estimate {
	uint64_t budget_bytes;            /* utilization × memory */
	uint64_t weights_bytes, activation_bytes, non_torch_bytes;
	uint64_t kv_cache_bytes;          /* what is left for blocks */
	uint64_t kv_bytes_per_token;      /* every layer's */
	uint64_t block_size, blocks;
	uint64_t max_sequences;           /* of seq tokens, at once */
} gw_vllm_estimate;
/* o: the run (weights, precision, max_num_batched_tokens = o->seq × batch
 * is not used: vLLM profiles with max_num_batched_tokens, 8192 here).
 * 0, or GW_EINVAL (utilization not in (0, 1], no memory). */
int gw_advise_vllm(gw_vllm_estimate *out, const gw_model *m, const gw_advise_options *o, uint64_t memory_bytes,
		   double utilization, uint64_t block_size, uint64_t seq);
/* The same with vLLM's max_num_batched_tokens, the tokens of its profiling
 * forward (0: 8192): the activation peak grows with them. vLLM's default
 * depends on its release (0.6's engine without chunked prefill:
 * max(max_model_len, 2048)). */
int gw_advise_vllm_tokens(gw_vllm_estimate *out, const gw_model *m, const gw_advise_options *o,
			  uint64_t memory_bytes, double utilization, uint64_t block_size, uint64_t seq,
			  uint64_t batched_tokens);

#ifdef __cplusplus
}
#endif
#endif
