/* gpuwise advise — how much GPU memory a training or inference run needs,
 * whether it fits on this machine's GPUs (or named ones), the largest
 * micro-batch, and the cheapest plan that reaches the target batch. The
 * arithmetic is the library's (include/gpuwise/advise.h); this file reads
 * the model argument, picks the target GPUs and prints. docs/advise.md
 * explains the model, docs/commands/advise.md the command. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "gpuwise/gpuwise.h"
#include "advise_hub.h"

enum { CONFIG_MAX = 16 << 20, TARGETS_MAX = 64 };

struct advise_opts {
	bool json, list_models, checkpointing, hardware, lm_head;
	/* the vocabularies as given; converted after parsing, so a second
	 * value is "given twice" like any single-valued option */
	const char *task_s, *precision_s, *weights_s, *optimizer_s, *strategy_s, *offload_s, *attention_s;
	const char *lora_targets_s, *loop_s, *loss_s, *torch_s, *bitsandbytes_s, *transformers_s, *autoawq_s;
	uint32_t torch_version, bitsandbytes_version, transformers_version, autoawq_version;
	uint64_t loss_chunks;
	bool offload_activations, autoawq_fused, no_zero_init, init_on_gpu;
	int task, precision, weights, optimizer, strategy, offload, attention, lora_targets, loop, loss;
	uint64_t batch, seq, decoder_seq, new_tokens, image, grad_accum, lora_rank, gpus, target_batch;
	uint64_t params, layers, hidden, heads, kv_heads, vocab, intermediate;
	uint64_t memory;
	const char *gpu;
	/* GGUF (llama.cpp, ollama) and vLLM */
	uint64_t ctx, parallel, ngl, block_size, batched_tokens;
	const char *cache_type_s, *gpu_util_s;
	bool flash_attn;
};

/* ---- option values ---------------------------------------------------- */

/* A whole number from 1 to 2^40, with an optional K, M, B (or G), T
 * suffix in powers of 1000: "7B" = 7,000,000,000 parameters. */
static const char *parse_count(void *field, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v >= 1))
		return N_("needs a whole number of at least 1");
	switch (*end) {
	case 'k': case 'K': v *= 1e3; end++; break;
	case 'm': case 'M': v *= 1e6; end++; break;
	case 'b': case 'B': case 'g': case 'G': v *= 1e9; end++; break;
	case 't': case 'T': v *= 1e12; end++; break;
	default: break;
	}
	if (*end || v != floor(v) || v > 1099511627776.0)
		return N_("needs a whole number of at least 1 (K, M, B, T suffixes allowed)");
	*(uint64_t *)field = (uint64_t)v;
	return NULL;
}

/* --ngl: 0 is a value (nothing offloaded), kept as N + 1 (0: not given). */
static const char *parse_ngl(void *field, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || *end || errno || *s == '-' || v > 65535)
		return N_("needs a whole number from 0 to 65535");
	*(uint64_t *)field = v + 1;
	return NULL;
}

/* --decoder-seq: the library's field is 16 bits wide (docs/abi.md). */
static const char *parse_decoder_seq(void *field, const char *s)
{
	const char *err = parse_count(field, s);

	if (!err && *(uint64_t *)field > UINT16_MAX)
		return N_("needs a whole number from 1 to 65535");
	return err;
}

/* A vocabulary option's value: the names come from the library's table. */
static int vocab_value(const char *kind, const char *opt, const char *s)
{
	int v;

	if (!s)
		return 0;   /* not given: the library's default (value 0) */
	v = gw_advise_value(kind, s);
	if (v < 0 || (v == 0 && !strcmp(s, "auto")))
		die_usage("advise", _("option '--%s' must be one of: %s"), opt, gw_advise_names(kind));
	return v;
}

/* transformers.__version__ ("4.44.2", "4.45.0.dev0", "4.38") → major·100 + minor. */
static bool transformers_release(const char *s, uint32_t *out)
{
	unsigned long major, minor;
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	major = strtoul(s, &end, 10);
	if (errno || *end != '.' || !isdigit((unsigned char)end[1]))
		return false;
	minor = strtoul(end + 1, &end, 10);
	if (errno || (*end && *end != '.' && *end != '+') || major < 1 || major > 9 || minor > 99)
		return false;
	*out = (uint32_t)(major * 100 + minor);
	return true;
}

/* --offload: one of the vocabulary's values, "activations", or both
 * joined by a comma ("optimizer,activations"): what the optimizer and
 * weights offload is independent of what activation offloading moves. */
static void bad_offload(void)
{
	die_usage("advise", _("option '--offload' must be one of: %s, activations, or one of them and "
		  "activations joined by a comma"), gw_advise_names("offload"));
}

static void offload_value(struct advise_opts *o)
{
	char buf[64], *save = NULL;
	const char *what = NULL;

	if (!o->offload_s)
		return;
	if (strlen(o->offload_s) >= sizeof(buf))
		bad_offload();
	memcpy(buf, o->offload_s, strlen(o->offload_s) + 1);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "activations") && !o->offload_activations) {
			o->offload_activations = true;
			continue;
		}
		if (what || !strcmp(t, "activations") || gw_advise_value("offload", t) < 0)
			bad_offload();
		what = t;
		o->offload = gw_advise_value("offload", t);
	}
	if (!what && !o->offload_activations)
		bad_offload();
}

static void convert_vocabs(struct advise_opts *o)
{
	o->task = vocab_value("task", "task", o->task_s);
	o->precision = vocab_value("precision", "precision", o->precision_s);
	o->weights = vocab_value("weights", "weights", o->weights_s);
	o->optimizer = vocab_value("optimizer", "optimizer", o->optimizer_s);
	o->strategy = vocab_value("strategy", "strategy", o->strategy_s);
	offload_value(o);
	o->attention = vocab_value("attention", "attention", o->attention_s);
	o->lora_targets = vocab_value("lora_targets", "lora-targets", o->lora_targets_s);
	o->loop = vocab_value("loop", "loop", o->loop_s);
	o->loss = vocab_value("loss", "loss", o->loss_s);
	if (o->torch_s && gw_advise_torch_version(o->torch_s, &o->torch_version) < 0)
		die_usage("advise", _("option '--torch': %s"), gw_error_last());
	if (o->bitsandbytes_s && gw_advise_bitsandbytes_version(o->bitsandbytes_s, &o->bitsandbytes_version) < 0)
		die_usage("advise", _("option '--bitsandbytes': %s"), gw_error_last());
	if (o->transformers_s && !transformers_release(o->transformers_s, &o->transformers_version))
		die_usage("advise", _("option '--transformers': a transformers version is MAJOR.MINOR, e.g. 4.44 or "
			  "4.38.2, not \"%s\""), o->transformers_s);
	if (o->autoawq_s && gw_advise_autoawq_version(o->autoawq_s, &o->autoawq_version) < 0)
		die_usage("advise", _("option '--autoawq': %s"), gw_error_last());
}

#define O struct advise_opts
static const struct option advise_options[] = {
	OPT_BOOL(0, "json", O, json, N_("print {\"gpuwise_version\", \"model\", \"options\", \"per_gpu\": "
		 "{\"peak_allocated_bytes\", \"peak_reserved_bytes\", \"peak_device_bytes\", \"breakdown\"}, "
		 "\"targets\": [{\"gpu\", \"memory_bytes\", \"fits\", \"fits_now\", \"max_micro_batch\"}], \"plan\"} "
		 "(and \"vllm\" with --gpu-memory-utilization)")),
	OPT_BOOL(0, "list-models", O, list_models, N_("list the catalogue's models with their parameter counts")),
	OPT_BOOL(0, "hardware", O, hardware, /* xgettext:no-c-format */ N_("rank the spec table's GPUs for the run: fits, largest micro-batch, "
		 "estimated step time and tokens/s (at 40 % of peak FLOPs, 80 % of memory bandwidth), and the cloud "
		 "instances that have those GPUs")),
	OPT_STRING(0, "task", O, task_s, "TASK", N_("train (full fine-tuning, the default), lora, qlora or infer")),
	OPT_CALLBACK(0, "batch", O, batch, "N", N_("micro-batch per GPU (default 1)"), parse_count),
	OPT_CALLBACK(0, "seq", O, seq, "N", N_("tokens per sample; for infer the prompt plus the generated tokens "
		     "(an encoder-decoder model's input alone) (default: 2048 for decoders, 512 otherwise, at most the model's positions)"), parse_count),
	OPT_CALLBACK(0, "decoder-seq", O, decoder_seq, "N", N_("encoder-decoder training (T5): tokens per target, "
		     "what the decoder reads, up to 65535; --seq is then the source (default: --seq)"), parse_decoder_seq),
	OPT_CALLBACK(0, "new-tokens", O, new_tokens, "N", N_("infer: tokens generated (part of --seq)"), parse_count),
	OPT_CALLBACK(0, "image", O, image, "N", N_("vision models (ViT, DeiT, Swin, ResNet): pixels per image side "
		     "(default: the model's image_size, 224 for the catalogue's)"), parse_count),
	OPT_STRING(0, "precision", O, precision_s, "P", N_("fp32, tf32, amp-fp16, amp-bf16 (fp32 weights with "
		     "autocast), fp16 or bf16 (pure half precision); default by compute capability: amp-bf16 from "
		     "8.0, amp-fp16 on 7.x, fp32 before (infer: bf16 from 8.0, fp16 from 5.3, fp32 before)")),
	OPT_STRING(0, "weights", O, weights_s, "W", N_("storage of the weights: fp32, fp16, bf16, int8, nf4, nf4-dq "
		     "or gptq4 (default from --precision; qlora: nf4-dq)")),
	OPT_STRING(0, "optimizer", O, optimizer_s, "OPT", N_("adamw (default; PyTorch's, multi-tensor), adam, "
		     "adamw-fused (fused=True), adamw-hf (transformers' own), sgd, sgd-momentum, adafactor, adamw-8bit "
		     "or paged-adamw-8bit")),
	OPT_CALLBACK(0, "grad-accum", O, grad_accum, "N", N_("gradient accumulation steps (default 1)"), parse_count),
	OPT_BOOL(0, "lm-head", O, lm_head, N_("encoders (BERT, RoBERTa): with the masked-LM head over every token "
		 "(BertForMaskedLM, as MLM pre-training and run_mlm.py train it) instead of a pooled classifier")),
	OPT_BOOL(0, "checkpointing", O, checkpointing, N_("activation (gradient) checkpointing of every layer")),
	OPT_CALLBACK(0, "lora-rank", O, lora_rank, "R", N_("LoRA rank (default 8)"), parse_count),
	OPT_STRING(0, "lora-targets", O, lora_targets_s, "T", N_("the linear layers LoRA adapts: qv (the attention's "
		   "q and v, the default), attention (q, k, v, o), all-linear (every linear layer of the blocks) or "
		   "all (all-linear and the LM head)")),
	OPT_CALLBACK(0, "gpus", O, gpus, "N", N_("GPUs the run is spread over (default 1)"), parse_count),
	OPT_STRING(0, "strategy", O, strategy_s, "S", N_("ddp (default), fsdp, fsdp-mixed (FSDP units "
		   "holding frozen and trainable weights together, as LitGPT wraps LoRA models), zero1, zero2 or zero3; "
		   "inference: tp (tensor parallel, as vLLM) or pp (layers per GPU, as accelerate device_map=\"auto\"), "
		   "by default tp where the heads divide evenly, else pp")),
	OPT_STRING(0, "offload", O, offload_s, "WHAT", N_("none (default), optimizer, or params (zero3/fsdp): "
		     "kept in CPU memory; activations (with --checkpointing: the checkpointed layers' inputs, as "
		     "torchtune's enable_activation_offloading), alone or after a comma (optimizer,activations)")),
	OPT_STRING(0, "attention", O, attention_s, "A", N_("eager, sdpa or flash (default: sdpa; eager for T5, Swin and "
		   "BLOOM, and before PyTorch 2.1 (--torch))")),
	OPT_STRING(0, "loop", O, loop_s, "L", N_("training: trainer (the default: a step's outputs are gone before the "
		   "next forward, as in Hugging Face's Trainer) or plain (a hand-written `logits = model(x)` loop, "
		   "LitGPT's among them, that keeps the last step's outputs and graph until the next forward returns); "
		   "inference: plain when the script calls model(ids) on the prompt itself instead of generate(), as "
		   "AutoAWQ's examples/benchmark.py does, so every prompt position's logits are computed")),
	OPT_STRING(0, "loss", O, loss_s, "L", N_("training of a decoder: cross-entropy (the default: transformers' "
		   "loss over the labels, with an fp32 copy of the logits) or sum (`loss = out.logits.sum()`, as "
		   "transformers' SDPA training benchmarks run: no copy, and backward materialises the logits' "
		   "gradient)")),
	OPT_STRING(0, "torch", O, torch_s, "VERSION", N_("the PyTorch release the run uses, as torch.__version__ prints "
		   "it (default: the active Python environment's for this machine's GPUs, else a current one): before 1.11 softmax keeps its input for backward, before 1.13 the CUDA "
		   "context loads every kernel (no lazy loading), before 2.0 there is no SDPA and Adam steps one parameter at a time, "
		   "before 2.1 its foreach step keeps two state-sized copies")),
	OPT_CALLBACK(0, "loss-chunks", O, loss_chunks, "N", N_("training: the loss casts the logits to fp32 in N "
		     "chunks, one at a time, as torchtune's CEWithChunkedOutputLoss does (8; default 1: all at once)"),
		     parse_count),
	OPT_STRING(0, "transformers", O, transformers_s, "VERSION", N_("the transformers release the run uses "
		   "(default: the active Python environment's for this machine's GPUs, else a current one); before 4.45 generate()'s first forward computes the logits of every prompt "
		   "position, in fp32 for the Llama family; before 4.46 that family's training loss keeps a second fp32 "
		   "copy of the logits; before 4.47 OPT's eager attention also keeps its clamped scores")),
	OPT_STRING(0, "bitsandbytes", O, bitsandbytes_s, "VERSION", N_("qlora: the bitsandbytes release (default: a "
		   "current one); before 0.43.2 its 4-bit layers keep their input for backward")),
	OPT_BOOL(0, "autoawq-fused", O, autoawq_fused, N_("infer with --weights gptq4: AutoAWQ's from_quantized "
		 "with fuse_layers=True, whose fused layers allocate the KV cache at load for --new-tokens positions, "
		 "run their own eager attention and copy q, k and v while they fuse them")),
	OPT_STRING(0, "autoawq", O, autoawq_s, "X.Y.Z", N_("with --autoawq-fused: the AutoAWQ release (default: one "
		   "before 0.2.7); from 0.2.7 the fused layers of llama, mistral, qwen2, gemma, starcoder2 and llava "
		   "call SDPA and keep no attention scores")),
	OPT_BOOL(0, "init-on-gpu", O, init_on_gpu, N_("the model is built on the GPU (`with torch.device(\"cuda\")`, "
		 "optimum-benchmark's no_weights models): a tied LM head allocates its own weight before tie_weights() "
		 "frees it, and the caching allocator keeps that block reserved")),
	OPT_BOOL(0, "no-zero-init", O, no_zero_init, N_("training with --strategy zero3: the model was built before "
		 "DeepSpeed's configuration existed (from_pretrained before TrainingArguments), so without "
		 "zero.Init, and each linear map's gathered weight stays allocated from its forward to its backward")),
	OPT_CALLBACK(0, "target-batch", O, target_batch, "N", N_("samples per optimizer step the plan must reach "
		     "(default: batch × grad-accum × gpus)"), parse_count),
	OPT_STRING(0, "gpu", O, gpu, "SEL|NAME", N_("a GPU of this machine (index, UUID prefix) or a spec-table "
		   "name such as A100-SXM4-40GB, RTX 4090, V100-SXM2-16GB (default: this machine's GPUs)")),
	OPT_CALLBACK(0, "memory", O, memory, "SIZE", N_("check the fit against this much GPU memory (24GiB, "
		     "16GB); with --gpu NAME it replaces the table's size"), opt_parse_size),
	OPT_CALLBACK(0, "ctx", O, ctx, "N", N_("a GGUF file: llama.cpp's -c, the context of all --parallel slots "
		     "together (default 4096)"), parse_count),
	OPT_STRING(0, "cache-type", O, cache_type_s, "T", N_("a GGUF file: the KV cache's type, f16 (default), "
		   "q8_0 or q4_0 (llama.cpp's --cache-type-k and -v)")),
	OPT_CALLBACK(0, "ngl", O, ngl, "N", N_("a GGUF file: layers offloaded to the GPU (llama.cpp's -ngl; default "
		     "all, and the output layer)"), parse_ngl),
	OPT_CALLBACK(0, "parallel", O, parallel, "N", N_("a GGUF file: llama.cpp's --parallel slots sharing --ctx; "
		     "the report also gives the most slots of --seq tokens that fit"), parse_count),
	OPT_BOOL(0, "flash-attn", O, flash_attn, N_("a GGUF file: llama.cpp with -fa (no attention scores in the "
		 "compute buffer)")),
	OPT_STRING(0, "gpu-memory-utilization", O, gpu_util_s, "F", N_("vLLM: the fraction of the GPU it may use "
		   "(0.9 is vLLM's default): the KV blocks left after the weights and activations, and how many "
		   "sequences of --seq tokens fit at once")),
	OPT_CALLBACK(0, "block-size", O, block_size, "N", N_("vLLM: tokens per KV block (default 16)"), parse_count),
	OPT_CALLBACK(0, "max-num-batched-tokens", O, batched_tokens, "N", N_("vLLM: the tokens of its profiling "
		     "forward, whose activation peak is not left to the KV blocks (default 8192)"), parse_count),
	OPT_CALLBACK(0, "params", O, params, "N", N_("a model of your own with N parameters (7B, 350M), described by "
		     "--layers, --hidden, --heads and --vocab"), parse_count),
	OPT_CALLBACK(0, "layers", O, layers, "N", N_("with --params: transformer layers"), parse_count),
	OPT_CALLBACK(0, "hidden", O, hidden, "N", N_("with --params: hidden size"), parse_count),
	OPT_CALLBACK(0, "heads", O, heads, "N", N_("with --params: attention heads"), parse_count),
	OPT_CALLBACK(0, "kv-heads", O, kv_heads, "N", N_("with --params: key/value heads (GQA; default --heads)"),
		     parse_count),
	OPT_CALLBACK(0, "vocab", O, vocab, "N", N_("with --params: vocabulary size"), parse_count),
	OPT_CALLBACK(0, "intermediate", O, intermediate, "N", N_("with --params: MLP width (default 4 × hidden)"),
		     parse_count),
	OPT_END()
};
#undef O

/* ---- the model ---------------------------------------------------------- */

/* Read path (a config.json, or a folder holding one) into a malloc'd
 * buffer. 0, or -1 with the message printed. */
static int read_config(const char *arg, char **out, size_t *len)
{
	char path[4096];
	struct stat st;
	size_t n = 0;
	char *buf;
	int fd;

	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(path, sizeof(path), "%s/config.json", arg);
	else
		snprintf(path, sizeof(path), "%s", arg);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		error_msg(_("cannot read '%s': %s"), path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		error_msg(_("'%s' is not a regular file"), path);
		close(fd);
		return -1;
	}
	if (!(buf = malloc(CONFIG_MAX + 1))) {
		close(fd);
		error_msg(_("out of memory"));
		return -1;
	}
	for (;;) {
		ssize_t r = read(fd, buf + n, CONFIG_MAX + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0) {
				error_msg(_("cannot read '%s': %s"), path, strerror(errno));
				free(buf);
				close(fd);
				return -1;
			}
			break;
		}
		n += (size_t)r;
		if (n > CONFIG_MAX) {
			error_msg(_("'%s' is larger than 16 MiB: not a config.json"), path);
			free(buf);
			close(fd);
			return -1;
		}
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static bool path_exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

static const char *fmt_count(char *buf, size_t n, uint64_t v);

/* What the shape of m holds, its input and output embeddings tied or not. */
static uint64_t shape_count(const gw_model *m, bool tied)
{
	gw_model shape = *m;

	shape.params = 0;
	shape.tied_embeddings = tied;
	return gw_model_finish(&shape) < 0 ? 0 : shape.params;
}

/* --params and the shape describe one model: a count more than 10 % away
 * from what the shape holds would size the weights from one and the
 * activations from the other (--params 1B with a 6.5B shape), so it is a
 * usage error that gives both. The shape options cannot say whether the
 * embeddings are tied (GPT-2's are, Llama's are not): a count within 10 %
 * of either is taken. m: the shape, finished with --params. */
static void check_params(const gw_model *m, const struct advise_opts *o)
{
	uint64_t tied = shape_count(m, true), untied = shape_count(m, false);
	char given[32], counted[32];

	if (!tied || !untied)
		return;
	if ((double)o->params >= 0.9 * (double)tied && (double)o->params <= 1.1 * (double)untied)
		return;
	die_usage("advise", _("--params %s disagrees with the shape given (--layers, --hidden, --heads, --vocab): "
			      "that shape has %s parameters (%" PRIu64 "); give --params within 10 %% of it, or the "
			      "shape of the model meant"),
		  fmt_count(given, sizeof(given), o->params),
		  fmt_count(counted, sizeof(counted), o->params < tied ? tied : untied), o->params < tied ? tied : untied);
}

static int model_from_args(gw_model *m, const struct advise_opts *o, const char *arg, const char **how,
			   struct advise_source *src)
{
	char *text;
	size_t len;
	int rc;

	if (!arg) {
		memset(m, 0, sizeof(*m));
		m->kind = GW_MODEL_DECODER;
		m->params = o->params;
		m->num_layers = o->layers;
		m->hidden_size = o->hidden;
		m->num_heads = o->heads;
		m->num_kv_heads = o->kv_heads;
		m->vocab_size = o->vocab;
		m->intermediate_size = o->intermediate;
		snprintf(m->name, sizeof(m->name), "custom");
		*how = "shape";
		if (gw_model_finish(m) < 0) {
			error_msg("%s", gw_error_last_text());
			return -1;
		}
		check_params(m, o);
		return 0;
	}
	if (path_exists(arg)) {
		if (read_config(arg, &text, &len) < 0)
			return -1;
		rc = gw_model_from_config(m, text, len, arg);
		free(text);
		if (rc < 0) {
			error_msg("%s: %s", arg, gw_error_last_text());
			return -1;
		}
		*how = "config";
		return 0;
	}
	if (gw_model_from_catalog(m, arg) == 0) {
		*how = "catalogue";
		return 0;
	}
	if (advise_model_by_name(m, arg, src) < 0)
		return -1;
	*how = src->how;
	return 0;
}

/* ---- target GPUs --------------------------------------------------------- */

/* What a run can use of a GPU of this machine: NVML's total less the
 * framebuffer the driver reserves for itself (R510 and later report it,
 * nvmlDeviceGetMemoryInfo_v2; CUDA's own total leaves it out, and so does
 * PyTorch's "total capacity"). */
static uint64_t usable_memory(const gw_device_info *d, const gw_device_sample *s)
{
	if (s && GW_VALID(s->memory_reserved) && s->memory_reserved.v < d->memory_total.v)
		return d->memory_total.v - s->memory_reserved.v;
	return d->memory_total.v;
}

/* What other processes hold now: NVML's used memory (without the
 * reserved part, where the driver says it apart, as usable_memory()). */
static uint64_t in_use(const gw_u64 *used)
{
	return GW_VALID(*used) ? used->v : 0;
}

static void local_target(gw_advise_target *t, const gw_device_info *d, const gw_device_sample *s)
{
	char name[128];

	show_str(name, sizeof(name), &d->name);
	snprintf(t->name, sizeof(t->name), "%d: %s", d->index, name);
	snprintf(t->source, sizeof(t->source), "local");
	t->memory_bytes = usable_memory(d, s);
	t->in_use_bytes = s ? in_use(&s->memory_used) : 0;
	t->cc_major = GW_VALID(d->cc_major) ? (unsigned)d->cc_major.v : 0;
	t->cc_minor = GW_VALID(d->cc_minor) ? (unsigned)d->cc_minor.v : 0;
}

/* MIG device m of GPU d: a run there has the instance's memory, not the
 * GPU's (a 1g.5gb slice of an A100 offers 4.75 GiB); false when its
 * memory cannot be read. */
static bool mig_target(gw_advise_target *t, const gw_device_info *d, const gw_device_sample *s, int m)
{
	const gw_mig_device *g = &s->mig[m];
	char name[128];

	if (!GW_VALID(g->memory_total) || !g->memory_total.v)
		return false;
	local_target(t, d, s);
	show_str(name, sizeof(name), GW_VALID(g->name) ? &g->name : &d->name);
	snprintf(t->name, sizeof(t->name), "%d:%d: %s", d->index, m, name);
	t->memory_bytes = g->memory_total.v;
	t->in_use_bytes = in_use(&g->memory_used);
	return true;
}

/* GPU d, or, in MIG mode, each of its MIG devices (mig -1), or MIG device
 * mig alone: the targets it adds at t[*n], up to TARGETS_MAX. */
static void add_local(gw_advise_target *t, size_t *n, gw_context *ctx, const gw_device_info *d, int mig)
{
	gw_device_sample s;
	bool sampled = gw_device_sample_read(ctx, d->index, &s) == 0;
	int count = sampled ? (s.mig_count < GW_MAX_MIG ? s.mig_count : GW_MAX_MIG) : 0;

	if (mig >= 0 || count > 0) {
		for (int m = mig >= 0 ? mig : 0; m < (mig >= 0 ? mig + 1 : count) && m < count && *n < TARGETS_MAX; m++)
			if (mig_target(&t[*n], d, &s, m))
				(*n)++;
		return;
	}
	if (*n < TARGETS_MAX)
		local_target(&t[(*n)++], d, sampled ? &s : NULL);
}

static bool usable(const gw_device_info *d)
{
	return device_readable(d) && GW_VALID(d->memory_total) && d->memory_total.v > 0;
}

/* The GPUs to check: --gpu NAME from the spec table, --gpu SEL of this
 * machine, --memory alone, or every readable GPU here (one per model). */
static int pick_targets(const struct advise_opts *o, gw_advise_target *t, size_t *n)
{
	gw_gpu_spec spec;
	gw_context *ctx;

	*n = 0;
	if (o->gpu && gw_gpu_spec_find(o->gpu, &spec) == 0) {
		snprintf(t[0].name, sizeof(t[0].name), "%s", spec.name);
		snprintf(t[0].source, sizeof(t[0].source), "spec");
		/* what CUDA lets a run allocate, not the datasheet size */
		t[0].memory_bytes = o->memory ? o->memory : gw_gpu_spec_usable_bytes(&spec);
		t[0].cc_major = spec.cc_major;
		t[0].cc_minor = spec.cc_minor;
		*n = 1;
		return 0;
	}
	if (o->memory && !o->gpu) {
		snprintf(t[0].name, sizeof(t[0].name), "%s", "--memory");
		snprintf(t[0].source, sizeof(t[0].source), "memory");
		t[0].memory_bytes = o->memory;
		*n = 1;
		return 0;
	}
	if (!(ctx = open_context()))
		return -1;
	if (o->gpu) {
		gw_selection *sel = NULL;
		size_t count = 0;
		if (gw_context_select(ctx, o->gpu, &sel, &count) < 0) {
			error_msg(_("--gpu '%s': not a GPU of the spec table nor of this machine (%s)"), o->gpu,
				  gw_error_last_text());
			gw_context_free(ctx);
			return -1;
		}
		for (size_t i = 0; i < count && *n < TARGETS_MAX; i++) {
			const gw_device_info *d = gw_device_get(ctx, sel[i].device);
			size_t first = *n;

			if (d && usable(d))
				add_local(t, n, ctx, d, sel[i].mig);
			for (size_t k = first; o->memory && k < *n; k++)
				t[k].memory_bytes = o->memory;
		}
		gw_selection_free(sel);
		if (!*n) {
			error_msg(_("--gpu '%s': its memory cannot be read"), o->gpu);
			gw_context_free(ctx);
			return -1;
		}
	} else {
		for (int i = 0; i < gw_device_count(ctx) && *n < TARGETS_MAX; i++) {
			const gw_device_info *d = gw_device_get(ctx, i);
			if (d && usable(d))
				add_local(t, n, ctx, d, -1);
		}
	}
	gw_context_free(ctx);
	return 0;
}

/* ---- running the model ------------------------------------------------------ */

static void options_from(gw_advise_options *r, const struct advise_opts *o)
{
	*r = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	r->task = (gw_advise_task)o->task;
	r->precision = (gw_precision)o->precision;
	r->weights = (gw_weights)o->weights;
	r->optimizer = (gw_optimizer)o->optimizer;
	r->strategy = (gw_strategy)o->strategy;
	r->offload = (gw_offload)o->offload;
	r->offload_activations = o->offload_activations;
	r->attention = (gw_attention)o->attention;
	r->checkpointing = o->checkpointing;
	if (o->batch)
		r->batch = o->batch;
	r->seq = o->seq;
	r->new_tokens = o->new_tokens;
	r->decoder_seq = (uint16_t)o->decoder_seq;   /* bounded when parsed */
	r->image = o->image;
	if (o->grad_accum)
		r->grad_accum = o->grad_accum;
	r->lora_rank = o->lora_rank;
	r->lora_targets = (uint8_t)o->lora_targets;
	if (o->gpus)
		r->gpus = o->gpus;
	r->torch_version = o->torch_version;
	r->bitsandbytes_version = o->bitsandbytes_version;
	r->transformers_version = o->transformers_version;
	r->loss_chunks = (uint32_t)o->loss_chunks;   /* bounded in check_usage */
	r->loop = (uint32_t)o->loop;
	r->loss = (uint32_t)o->loss;
	r->autoawq_fused = o->autoawq_fused;
	r->autoawq_version = o->autoawq_version;
	r->no_zero_init = o->no_zero_init;
	r->init_on_gpu = o->init_on_gpu;
}

/* ---- output ---------------------------------------------------------------- */

static const char *kind_name(gw_model_kind k)
{
	return k == GW_MODEL_ENCODER ? "encoder" : k == GW_MODEL_ENCODER_DECODER ? "encoder-decoder"
	       : k == GW_MODEL_VISION ? "vision" : "decoder";
}

/* 6738415616 → "6.74B", 4194304 → "4.19M". */
static const char *fmt_count(char *buf, size_t n, uint64_t v)
{
	if (v >= 1000000000ull)
		snprintf(buf, n, "%.2fB", (double)v / 1e9);
	else if (v >= 1000000ull)
		snprintf(buf, n, "%.2fM", (double)v / 1e6);
	else if (v >= 1000ull)
		snprintf(buf, n, "%.1fK", (double)v / 1e3);
	else
		snprintf(buf, n, "%" PRIu64, v);
	return buf;
}

static const char *cc_text(char *buf, size_t n, const gw_advise_target *t)
{
	if (!t->cc_major)
		snprintf(buf, n, "CC unknown");
	else
		snprintf(buf, n, "CC %u.%u", t->cc_major, t->cc_minor);
	return buf;
}

/* A paragraph written piece by piece (fprintf to para_open()'s stream),
 * then wrapped to the terminal under `first` with a hanging indent: a run
 * line with many settings, a verdict, a plan step. */
struct para {
	FILE *f;
	char *buf;
	size_t len;
};

static FILE *para_open(struct para *p, const char *first)
{
	p->buf = NULL;
	p->len = 0;
	if ((p->f = open_memstream(&p->buf, &p->len)))
		return p->f;
	fputs(first, stdout); /* out of memory: unwrapped, but all of it */
	return stdout;
}

static void para_close(struct para *p, const char *first)
{
	if (!p->f) {
		putchar('\n');
		return;
	}
	fclose(p->f);
	print_hanging(stdout, output_width(stdout), first, p->buf ? p->buf : "");
	free(p->buf);
}

/* One formatted paragraph, wrapped under `first`. */
static void print_para(const char *first, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void print_para(const char *first, const char *fmt, ...)
{
	struct para p;
	FILE *f = para_open(&p, first);
	va_list ap;

	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	para_close(&p, first);
}

/* Between two items of a list in running text: ", " in English, the
 * language's own separator in another ("，" in Chinese). */
static const char *list_sep(void)
{
	/* TRANSLATORS: the separator between the items of a list in a
	   sentence ("checkpointing, 8bit-optimizer"; "amp-bf16, adamw") */
	return _(", ");
}

/* The header of a table, its titles translated and padded in display
 * cells to cols[i].width or wider (a Chinese title): the widths in w[],
 * `sep` between columns, after an indent of two. No newline. */
static void table_header(const struct table_col *cols, size_t n, int *w, const char *sep)
{
	char cell[64];

	fputs("  ", stdout);
	for (size_t i = 0; i < n; i++) {
		const char *t = _(cols[i].title);
		int cells = text_columns(t, strlen(t));

		w[i] = cells > cols[i].width ? cells : cols[i].width;
		printf("%s%s", i ? sep : "", pad_cells(cell, sizeof(cell), t, w[i], cols[i].right));
	}
}

static void print_bar(const char *label, uint64_t bytes, uint64_t total)
{
	char b[32];
	int width = 30, fill = total ? (int)((double)bytes / (double)total * width + 0.5) : 0;

	char pad[64];

	printf("  %s %10s  ", pad_cells(pad, sizeof(pad), _(label), 13, false), fmt_bytes(b, sizeof(b), bytes));
	for (int i = 0; i < fill && i < width; i++)
		fputs("\u2588", stdout);
	putchar('\n');
}

/* The experts, latent attention, sliding windows and vision tower of a
 * text model, one indented line each. */
static void print_text_arch(const gw_model *m)
{
	char a[32], b[32];

	if (m->kind == GW_MODEL_VISION || m->vision != GW_VISION_NONE)
		return;
	if (m->moe_layers) {
		print_para("        ", _("mixture of experts: %" PRIu64 " experts, %" PRIu64 " per token, %" PRIu64
					  " shared, in %" PRIu64 " of %" PRIu64 " layers; %s of %s parameters active per token"),
			   m->experts, m->experts_per_token, m->shared_experts, m->moe_layers, m->num_layers,
			   fmt_count(a, sizeof(a), m->params_active), fmt_count(b, sizeof(b), m->params));
	}
	if (m->kv_lora_rank)
		print_para("        ", _("latent attention (MLA): keys and values compressed to %" PRIu64 " + %" PRIu64
					  " per token and layer"), m->kv_lora_rank, m->qk_rope_head_dim);
	if (m->sliding_layers)
		print_para("        ", _("sliding window of %" PRIu64 " tokens in %" PRIu64 " of %" PRIu64 " layers"),
			   m->sliding_window, m->sliding_layers, m->num_layers);
	if (m->vision_params)
		print_para("        ", _("vision tower and projector: %s parameters"),
			   fmt_count(a, sizeof(a), m->vision_params));
}

static void print_run(const gw_model *m, const gw_advise_estimate *e)
{
	const gw_advise_options *r = &e->resolved;
	char a[32], b[32];

	char pad[32], run[32];
	struct para p;
	FILE *f;

	/* "Model" and "Run" head their lines in one column of 8 cells; a
	 * line that runs long wraps under its text */
	pad_cells(pad, sizeof(pad), _("Model"), 8, false);
	f = para_open(&p, pad);
	fprintf(f, _("%s (%s, %s): %s parameters"), m->name, m->model_type, kind_name(m->kind),
		fmt_count(a, sizeof(a), m->params));
	if (m->params_published)
		fprintf(f, _(" (%" PRIu64 ", as published)"), m->params);
	if (m->lm_head)
		fprintf(f, _(", with its masked-LM head"));
	para_close(&p, pad);
	print_text_arch(m);
	pad_cells(run, sizeof(run), _("Run"), 8, false);
	f = para_open(&p, run);
	fprintf(f, "%s", gw_advise_name("task", r->task));
	if (r->task == GW_TASK_LORA || r->task == GW_TASK_QLORA)
		fprintf(f, " r=%" PRIu64 " %s", r->lora_rank, gw_advise_name("lora_targets", r->lora_targets));
	if (m->kind == GW_MODEL_VISION)
		fprintf(f, _(", batch %" PRIu64 " × %" PRIu64 "×%" PRIu64 " pixels (%" PRIu64 " positions)"),
			r->batch, r->image, r->image, r->seq);
	else
		fprintf(f, _(", batch %" PRIu64 " × seq %" PRIu64), r->batch, r->seq);
	if (m->kind == GW_MODEL_ENCODER_DECODER && r->decoder_seq)
		fprintf(f, _(" → %u target tokens"), (unsigned)r->decoder_seq);
	if (r->task == GW_TASK_INFER && r->new_tokens)
		fprintf(f, _(" (%" PRIu64 " generated)"), r->new_tokens);
	fprintf(f, _(", %s, weights %s"), gw_advise_name("precision", r->precision),
		gw_advise_name("weights", r->weights));
	if (r->task != GW_TASK_INFER)
		fprintf(f, "%s%s", list_sep(), gw_advise_name("optimizer", r->optimizer));
	if (m->vision != GW_VISION_RESNET)
		fprintf(f, _(", %s attention"), gw_advise_name("attention", r->attention));
	if (r->checkpointing)
		fprintf(f, "%s", _(", checkpointing"));
	if (r->gpus > 1)
		fprintf(f, _(", %" PRIu64 " GPUs %s"), r->gpus, gw_advise_name("strategy", r->strategy));
	if (r->offload)
		fprintf(f, _(", offload %s"), gw_advise_name("offload", r->offload));
	if (r->offload_activations)
		fprintf(f, "%s", _(", activations offloaded"));
	if (r->loop != GW_LOOP_TRAINER)
		fprintf(f, _(", %s loop"), gw_advise_name("loop", (int)r->loop));
	if (r->loss_chunks > 1)
		fprintf(f, _(", loss in %u chunks"), (unsigned)r->loss_chunks);
	if (r->loss == GW_LOSS_SUM)
		fprintf(f, "%s", _(", loss logits.sum()"));
	if (r->autoawq_fused)
		fprintf(f, "%s", _(", AutoAWQ's fused layers"));
	if (r->autoawq_version)
		fprintf(f, _(", AutoAWQ %u.%u.%u"), (unsigned)(r->autoawq_version / 10000),
			(unsigned)(r->autoawq_version / 100 % 100), (unsigned)(r->autoawq_version % 100));
	if (r->no_zero_init)
		fprintf(f, "%s", _(", without zero.Init"));
	if (r->init_on_gpu)
		fprintf(f, "%s", _(", built on the GPU"));
	if (r->torch_version)
		fprintf(f, _(", PyTorch %u.%u"), (unsigned)(r->torch_version / 100),
			(unsigned)(r->torch_version % 100));
	if (r->transformers_version)
		fprintf(f, _(", transformers %u.%u"), (unsigned)(r->transformers_version / 100),
			(unsigned)(r->transformers_version % 100));
	if (r->bitsandbytes_version)
		fprintf(f, _(", bitsandbytes %u.%u.%u"), (unsigned)(r->bitsandbytes_version / 10000),
			(unsigned)(r->bitsandbytes_version / 100 % 100), (unsigned)(r->bitsandbytes_version % 100));
	para_close(&p, run);
	if (r->task != GW_TASK_INFER) {
		fputs("        ", stdout);
		printf(_("trainable %s parameters"), fmt_count(b, sizeof(b), e->trainable_params));
		putchar('\n');
	}
}

static void print_breakdown(const gw_advise_estimate *e, const char *gpu)
{
	char b[32];
	uint64_t t = e->peak_device_bytes;
	uint64_t sum = e->weights_bytes + e->gradients_bytes + e->optimizer_bytes + e->activations_bytes +
		       e->kv_cache_bytes + e->workspace_bytes;

	char pad[64];

	putchar('\n');
	if (gpu)
		print_para("", _("Per GPU on %s: %s on the device"), gpu,
			   fmt_bytes(b, sizeof(b), e->peak_device_bytes));
	else
		print_para("", _("Per GPU: %s on the device"), fmt_bytes(b, sizeof(b), e->peak_device_bytes));
	print_bar(N_("weights"), e->weights_bytes, t);
	print_bar(N_("gradients"), e->gradients_bytes, t);
	print_bar(N_("optimizer"), e->optimizer_bytes, t);
	print_bar(N_("activations"), e->activations_bytes, t);
	if (e->resolved.task == GW_TASK_INFER)
		print_bar(N_("KV cache"), e->kv_cache_bytes, t);
	print_bar(N_("workspace"), e->workspace_bytes, t);
	print_bar(N_("CUDA context"), e->cuda_context_bytes, t);
	if (e->paged_bytes)   /* managed memory: on the device, not in the allocator's peaks */
		print_bar(N_("paged states"), e->paged_bytes, t);
	if (sum > e->peak_allocated_bytes) {   /* gradients and activations not alive together */
		int w = 9 - (int)strlen(fmt_bytes(b, sizeof(b), sum - e->peak_allocated_bytes));

		printf("  %s %*s-%s  %s\n", pad_cells(pad, sizeof(pad), _("not together"), 13, false), w > 0 ? w : 0,
		       "", b, _("gradients made as backward frees the activations"));
	}
	printf("  %s %10s  torch.cuda.max_memory_allocated()\n", pad_cells(pad, sizeof(pad), _("allocated"), 13, false),
	       fmt_bytes(b, sizeof(b), e->peak_allocated_bytes));
	printf("  %s %10s  torch.cuda.max_memory_reserved()\n", pad_cells(pad, sizeof(pad), _("reserved"), 13, false),
	       fmt_bytes(b, sizeof(b), e->peak_reserved_bytes));
	printf("  %s %10s  %s\n", pad_cells(pad, sizeof(pad), _("device"), 13, false),
	       fmt_bytes(b, sizeof(b), e->peak_device_bytes), _("nvidia-smi, for this process"));
}

static void print_hardware(const gw_advise_report *rep)
{
	char mem[32], need[32], step[32];
	bool infer = gw_advise_report_estimate(rep)->resolved.task == GW_TASK_INFER;
	bool vision = gw_advise_report_model(rep)->kind == GW_MODEL_VISION;
	/* the rate's unit says what it counts: tokens generated when inferring */
	static const struct table_col cols[] = {
		{ "GPU", 3, false }, { N_("memory"), 9, true }, { N_("precision"), 4, false }, { N_("fits"), 4, false },
		{ N_("needs"), 9, true }, { N_("max batch"), 9, true }, { N_("step"), 8, true },
	};
	struct table_col c[sizeof(cols) / sizeof(cols[0])];
	int w[sizeof(cols) / sizeof(cols[0])];
	char c1[64], c2[64];

	putchar('\n');
	if (infer && !vision)
		print_para("", _("Hardware (spec table; times at %.0f %% of peak FLOPs, %.0f %% of memory bandwidth; "
				 "generation: the whole of it, tokens/s: tokens generated)"),
			   GW_ADVISE_MFU * 100, GW_ADVISE_MBU * 100);
	else
		print_para("", _("Hardware (spec table; times at %.0f %% of peak FLOPs, %.0f %% of memory bandwidth)"),
			   GW_ADVISE_MFU * 100, GW_ADVISE_MBU * 100);
	memcpy(c, cols, sizeof(c));
	for (size_t i = 0; i < gw_advise_report_hardware_count(rep); i++) {
		const gw_advise_rank *k = gw_advise_report_hardware(rep, i);
		int n = (int)strlen(k->gpu.name);
		int p = (int)strlen(gw_advise_name("precision", k->estimate.resolved.precision));

		if (n > c[0].width)
			c[0].width = n;
		if (p > c[2].width)
			c[2].width = p;
	}
	if (infer && !vision) {
		c[6].title = N_("generation");
		/* inference runs in one dtype (no autocast); the shorter title
		 * keeps the row in 80 columns */
		c[2].title = N_("dtype");
	}
	/* titles padded in display cells, as wide as the columns below */
	/* one cell between columns: eight of them fit in 80 */
	const char *rate_title = vision ? _("images/s") : _("tokens/s");
	int rate_w = text_columns(rate_title, strlen(rate_title));

	table_header(c, sizeof(c) / sizeof(c[0]), w, " ");
	printf(" %s\n", rate_title);
	for (size_t i = 0; i < gw_advise_report_hardware_count(rep); i++) {
		const gw_advise_rank *k = gw_advise_report_hardware(rep, i);
		snprintf(step, sizeof(step), "%.3g s", k->step_seconds);
		/* the precision this row's estimate assumes: the run's, or by
		 * the GPU's compute capability where the run left it open */
		printf("  %-*s %*s %s %s %*s %*" PRIu64 " %*s %*.0f\n", w[0], k->gpu.name, w[1],
		       fmt_bytes(mem, sizeof(mem), gw_gpu_spec_usable_bytes(&k->gpu)),
		       pad_cells(c2, sizeof(c2), gw_advise_name("precision", k->estimate.resolved.precision), w[2], false),
		       pad_cells(c1, sizeof(c1), k->fits ? _("yes") : _("no"), w[3], false), w[4],
		       fmt_bytes(need, sizeof(need), k->estimate.peak_device_bytes), w[5], k->max_micro_batch, w[6],
		       step, rate_w, vision ? k->samples_per_second : k->tokens_per_second);
	}
}

/* A row's mark for its note: "" (none), "*" (the table's only note) or
 * "*N" (the N-th of its notes, in row order). */
static const char *note_mark(char *buf, size_t size, const char *const *notes, size_t nnotes, const char *note)
{
	size_t i = 0;

	while (note && i < nnotes && strcmp(notes[i], note))
		i++;
	/* at most 8 notes (print_cloud's array): one digit */
	buf[0] = '\0';
	if (note && i < nnotes && size >= 3) {
		buf[0] = '*';
		buf[1] = nnotes == 1 ? '\0' : (char)('1' + i);
		buf[2] = '\0';
	}
	return buf;
}

/* The cloud instances with their GPU's figures; a row's note (a GPU the
 * spec table knows under another name, where its price was read) is
 * printed once under the table, marked "*", or "*1", "*2"... where the
 * rows have several. */
static void print_cloud(const gw_advise_report *rep)
{
	bool vision = gw_advise_report_model(rep)->kind == GW_MODEL_VISION;
	const char *notes[8] = { NULL };
	size_t nnotes = 0;
	/* the step is the GPU's, in the table above; the rate is the instance's */
	static const struct table_col cols[] = {
		{ N_("provider"), 5, false }, { N_("instance"), 8, false }, { N_("GPUs"), 4, false },
		{ N_("fits"), 3, false }, { N_("tokens/s"), 8, true },
	};
	struct table_col col[sizeof(cols) / sizeof(cols[0])];
	int w[sizeof(cols) / sizeof(cols[0])];
	char gpus[96], price[32], mark[24], c0[64], c1[64], c2[96], c3[64];

	putchar('\n');
	print_para("", "%s", _("Cloud instances (data/cloud_instances.tsv; the run on --gpus of the instance's GPUs; "
			       "prices only as the provider publishes them)"));
	for (size_t i = 0; i < gw_advise_report_cloud_count(rep); i++) {
		const char *note = gw_advise_report_cloud(rep, i)->instance.note;
		size_t k = 0;

		while (note && k < nnotes && strcmp(notes[k], note))
			k++;
		if (note && k == nnotes && nnotes < sizeof(notes) / sizeof(notes[0]))
			notes[nnotes++] = note;
	}
	memcpy(col, cols, sizeof(col));
	for (size_t i = 0; i < gw_advise_report_cloud_count(rep); i++) {
		const gw_advise_cloud_rank *r = gw_advise_report_cloud(rep, i);
		int n = text_columns(r->instance.instance, strlen(r->instance.instance));

		if (n > col[1].width)
			col[1].width = n;
		snprintf(gpus, sizeof(gpus), "%u× %s%s", r->instance.gpus, r->instance.gpu,
			 note_mark(mark, sizeof(mark), notes, nnotes, r->instance.note));
		if ((n = text_columns(gpus, strlen(gpus))) > col[2].width)
			col[2].width = n;
	}
	if (vision)
		col[4].title = N_("images/s");
	table_header(col, sizeof(col) / sizeof(col[0]), w, " ");
	printf("  %s\n", _("USD/hour"));
	for (size_t i = 0; i < gw_advise_report_cloud_count(rep); i++) {
		const gw_advise_cloud_rank *c = gw_advise_report_cloud(rep, i);
		double rate = vision ? c->samples_per_second : c->rank.tokens_per_second * c->gpus_used;

		snprintf(gpus, sizeof(gpus), "%u× %s%s", c->instance.gpus, c->instance.gpu,
			 note_mark(mark, sizeof(mark), notes, nnotes, c->instance.note));
		if (c->instance.price_usd_per_hour > 0)
			snprintf(price, sizeof(price), "%.2f", c->instance.price_usd_per_hour);
		else
			snprintf(price, sizeof(price), "-");
		printf("  %s %s %s %s %*.0f  %s\n", pad_cells(c0, sizeof(c0), c->instance.provider, w[0], false),
		       pad_cells(c1, sizeof(c1), c->instance.instance, w[1], false),
		       pad_cells(c2, sizeof(c2), gpus, w[2], false),
		       pad_cells(c3, sizeof(c3), c->rank.fits ? _("yes") : _("no"), w[3], false), w[4], rate, price);
	}
	for (size_t i = 0; i < nnotes; i++) {
		char first[32];

		snprintf(first, sizeof(first), "  %s ", note_mark(mark, sizeof(mark), notes, nnotes, notes[i]));
		print_para(first, "%s", notes[i]);
	}
}

static void print_targets(const gw_advise_report *rep)
{
	char mem[32], cc[32], need[32], used[32], name[160];
	int wname = 0, wcc = 0, width = output_width(stdout);

	for (size_t i = 0; i < gw_advise_report_count(rep); i++) {
		const gw_advise_result *t = gw_advise_report_result(rep, i);
		int n = text_columns(t->target.name, strlen(t->target.name));

		wname = n > wname ? n : wname;
		cc_text(cc, sizeof(cc), &t->target);
		wcc = (int)strlen(cc) > wcc ? (int)strlen(cc) : wcc;
	}
	printf("\n%s\n", _("GPUs"));
	for (size_t i = 0; i < gw_advise_report_count(rep); i++) {
		const gw_advise_result *t = gw_advise_report_result(rep, i);
		char *row, *verdict;

		fmt_bytes(need, sizeof(need), t->estimate.peak_device_bytes);
		if (t->fits && !t->fits_now)
			verdict = str_printf(_("fits when empty (needs %s; largest micro-batch %" PRIu64 "), not now: "
					       "other processes hold %s"), need, t->max_micro_batch,
					     fmt_bytes(used, sizeof(used), t->target.in_use_bytes));
		else if (t->fits)
			verdict = str_printf(_("fits (needs %s); largest micro-batch %" PRIu64), need,
					     t->max_micro_batch);
		else if (t->max_micro_batch)
			verdict = str_printf(_("does not fit (needs %s)"), need);
		else
			verdict = str_printf(_("does not fit (needs %s); not even micro-batch 1"), need);
		row = str_printf("  %s  %9s  %-*s", pad_cells(name, sizeof(name), t->target.name, wname, false),
				 fmt_bytes(mem, sizeof(mem), t->target.memory_bytes), wcc,
				 cc_text(cc, sizeof(cc), &t->target));
		if (!row || !verdict) {
			error_msg(_("out of memory"));
		} else if (text_columns(row, strlen(row)) + 2 + text_columns(verdict, strlen(verdict)) <= width) {
			printf("%s  %s\n", row, verdict);
		} else {
			/* the verdict on a line of its own, under the row */
			printf("%s\n", row);
			print_hanging(stdout, width, "      ", verdict);
		}
		free(row);
		free(verdict);
	}
}

/* "  - <step of the plan>", wrapped under its text */
static void step_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void step_line(const char *fmt, ...)
{
	struct para p;
	FILE *f = para_open(&p, "  - ");
	va_list ap;

	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	para_close(&p, "  - ");
}

/* The TrainingArguments(...) line to paste: wrapped inside its
 * parentheses, under the first argument, so that it stays valid Python. */
static void print_code_call(const char *code)
{
	const char *open = strchr(code, '(');
	char first[96];

	if (!open || (size_t)(open - code) + 3 > sizeof(first)) {
		printf("  %s\n", code);
		return;
	}
	snprintf(first, sizeof(first), "  %.*s", (int)(open - code + 1), code);
	print_hanging(stdout, output_width(stdout), first, open + 1);
}

/* A run on a bitsandbytes before 0.43.2 may keep what it never reads
 * (QLoRA's 4-bit inputs, docs/advise.md §5): the cheapest memory there
 * is, so say how much. The library decides what the release changes:
 * the same run with a current release, compared. */
static void print_bitsandbytes_hint(const gw_model *m, const gw_advise_estimate *e)
{
	gw_advise_options now = e->resolved;
	gw_advise_estimate current;
	char b[32];

	if (!now.bitsandbytes_version || now.bitsandbytes_version >= 4302)
		return;
	now.bitsandbytes_version = 0;
	if (gw_advise_estimate_run(&current, m, &now) < 0 || current.peak_device_bytes >= e->peak_device_bytes)
		return;
	putchar('\n');
	print_para("", _("Note: bitsandbytes before 0.43.2 keeps each 4-bit layer's input, which backward never reads; "
			 "0.43.2 or later needs %s less here (pip install -U bitsandbytes)"),
		   fmt_bytes(b, sizeof(b), e->peak_device_bytes - current.peak_device_bytes));
}

/* What a fitting plan leaves to chance: other processes' memory on its
 * GPU now, and less than GW_ADVISE_LOW_HEADROOM to spare. */
static void print_plan_notes(const gw_advise_plan *p, const gw_advise_target *t)
{
	uint64_t peak = p->estimate.peak_device_bytes;
	uint64_t free_now = t->in_use_bytes < t->memory_bytes ? t->memory_bytes - t->in_use_bytes : 0;
	char a[32], b[32];

	if (t->in_use_bytes && peak > free_now)
		print_para("  ", _("Note: not now: other processes hold %s of this GPU; the plan fits once they free it"),
			   fmt_bytes(a, sizeof(a), t->in_use_bytes));
	if (gw_advise_plan_low_headroom(p, t->memory_bytes))
		print_para("  ", _("Note: little headroom: %s of %s left (%.1f %%, under %.0f %%): allocator "
				   "fragmentation, a longer sample or another process can tip it over"),
			   fmt_bytes(a, sizeof(a), t->memory_bytes - peak), fmt_bytes(b, sizeof(b), t->memory_bytes),
			   100.0 * (double)(t->memory_bytes - peak) / (double)t->memory_bytes,
			   GW_ADVISE_LOW_HEADROOM * 100);
}

/* What to try when even the ladder's last rung does not fit: not the
 * task the user already runs (a QLoRA run is not told to use QLoRA). */
static const char *no_fit_hint(const gw_advise_options *r)
{
	switch (r->task) {
	case GW_TASK_INFER:
		return _("use more GPUs (--gpus N splits the weights), a shorter --seq or a smaller --batch, or a "
			 "larger GPU");
	case GW_TASK_QLORA:
		return _("use more GPUs (--gpus N --strategy zero3), a shorter --seq, a lower --lora-rank, or a "
			 "larger GPU");
	case GW_TASK_LORA:
		return _("use more GPUs (--gpus N --strategy zero3), QLoRA (--task qlora), or a larger GPU");
	default:
		return _("use more GPUs (--gpus N --strategy zero3), LoRA/QLoRA (--task), or a larger GPU");
	}
}

/* Inference over several GPUs: how the model is split, and for which
 * engine's setting, with one GPU's share. */
static void print_split(const gw_advise_plan *p)
{
	const gw_advise_options *r = &p->estimate.resolved;
	char b[32];

	fmt_bytes(b, sizeof(b), p->estimate.weights_bytes);
	if (r->gpus > 1 && r->strategy == GW_STRATEGY_TP)
		step_line(_("split the model over the %" PRIu64 " GPUs by tensor parallelism (vLLM: "
			    "tensor_parallel_size=%" PRIu64 "): %s of weights per GPU, and its share of the KV cache"),
			  r->gpus, r->gpus, b);
	else if (r->gpus > 1 && r->strategy == GW_STRATEGY_PP)
		step_line(_("split the model over the %" PRIu64 " GPUs by layers (pipeline: accelerate "
			    "device_map=\"auto\", vLLM pipeline_parallel_size=%" PRIu64 "): %s of weights on the "
			    "fullest GPU, and its layers' KV cache"), r->gpus, r->gpus, b);
}

static void print_plan(const gw_advise_plan *p, const gw_advise_target *t, uint64_t target_batch)
{
	const gw_advise_options *r = &p->estimate.resolved;
	char b[32], args[512];

	putchar('\n');
	print_para("", _("Plan for %s"), t->name);
	if (!p->fits) {
		char steps[256] = "";

		/* the steps are identifiers (checkpointing, zero3): not translated */
		for (size_t i = 0; i < p->nsteps; i++) {
			size_t len = strlen(steps);

			snprintf(steps + len, sizeof(steps) - len, "%s%s", i ? list_sep() : "", p->steps[i]);
		}
		if (p->nsteps)
			print_para("  ", _("does not fit even with %s: %s"), steps, no_fit_hint(r));
		else
			print_para("  ", _("does not fit even with the settings given: %s"), no_fit_hint(r));
		return;
	}
	for (size_t i = 0; i < p->nsteps; i++) {
		const char *s = p->steps[i];
		if (!strcmp(s, "checkpointing"))
			step_line("%s", _("turn on activation checkpointing (model.gradient_checkpointing_enable())"));
		else if (!strcmp(s, "precision") && r->task == GW_TASK_INFER)
			step_line(_("run in %s (the best half precision for %s)"), gw_advise_name("precision", r->precision),
				  t->name);
		else if (!strcmp(s, "precision"))
			step_line(_("train in %s (the best half precision for %s)"), gw_advise_name("precision", r->precision),
				  t->name);
		else if (!strcmp(s, "8bit-optimizer"))
			step_line("%s", _("use an 8-bit optimizer (bitsandbytes AdamW8bit)"));
		else if (!strcmp(s, "zero2") || !strcmp(s, "zero3"))
			step_line(_("shard across the GPUs with DeepSpeed %s"), s);
		else if (!strcmp(s, "offload-optimizer"))
			step_line("%s", _("keep the optimizer states in CPU memory with DeepSpeed ZeRO-Offload (its CPU "
					  "AdamW, no 8-bit optimizer; the deepspeed config below)"));
		else
			step_line(_("load the weights in %s"), gw_advise_name("weights", r->weights));
	}
	if (r->task == GW_TASK_INFER) {
		print_split(p);
		print_para("  ", _("batch %" PRIu64 " fits: %s on the device"), p->micro_batch,
			   fmt_bytes(b, sizeof(b), p->estimate.peak_device_bytes));
		print_plan_notes(p, t);
		return;
	}
	print_para("  ", _n("micro-batch %" PRIu64 " × accumulation %" PRIu64 " × %" PRIu64 " GPU = %" PRIu64
		  " samples per step (target %" PRIu64 "), %s on the device",
		  "micro-batch %" PRIu64 " × accumulation %" PRIu64 " × %" PRIu64 " GPUs = %" PRIu64
		  " samples per step (target %" PRIu64 "), %s on the device", r->gpus),
		   p->micro_batch, p->grad_accum, r->gpus, p->micro_batch * p->grad_accum * r->gpus,
		   target_batch, fmt_bytes(b, sizeof(b), p->estimate.peak_device_bytes));
	print_code_call(gw_advise_training_arguments(args, sizeof(args), p));
	print_plan_notes(p, t);
}

static int list_models(bool json)
{
	gw_json *j = NULL;
	gw_model_entry e;
	char c[32];

	if (json) {
		if (!(j = gw_json_new(2))) {
			error_msg(_("out of memory"));
			return EXIT_FAIL;
		}
		json_document_begin(j);
		gw_json_key(j, "models");
		gw_json_array_begin(j);
	}
	for (size_t i = 0; gw_model_catalog_at(i, &e) == 0; i++) {
		if (!j) {
			printf("%-29s %9s  %s\n", e.name, fmt_count(c, sizeof(c), e.params_published), e.hf);
			continue;
		}
		gw_json_object_begin(j);
		gw_json_key(j, "name"); gw_json_string(j, e.name);
		gw_json_key(j, "hf"); gw_json_string(j, e.hf);
		gw_json_key(j, "params"); gw_json_uint(j, e.params_published);
		gw_json_key(j, "source"); gw_json_string(j, e.source);
		gw_json_object_end(j);
	}
	if (!j)
		return EXIT_OK;
	gw_json_array_end(j);
	gw_json_object_end(j);
	return print_json(j) ? EXIT_FAIL : EXIT_OK;
}

/* ---- the command -------------------------------------------------------------- */

static void check_usage(const struct advise_opts *o, int nargs)
{
	bool shape = o->layers || o->hidden || o->heads || o->kv_heads || o->vocab || o->intermediate;

	if (nargs && (o->params || shape))
		die_usage("advise", _("--params and the shape options describe a model of your own: give them without MODEL"));
	if (!nargs && !o->params)
		die_usage("advise", _("give a MODEL (a catalogue name, a config.json or a folder with one) or --params N"));
	if (!nargs && !(o->layers && o->hidden && o->heads && o->vocab))
		die_usage("advise", _("--params needs --layers, --hidden, --heads and --vocab"));
	if (o->task != GW_TASK_INFER && o->new_tokens)
		die_usage("advise", _("--new-tokens applies to --task infer"));
	if ((o->task != GW_TASK_LORA && o->task != GW_TASK_QLORA) && o->lora_rank)
		die_usage("advise", _("--lora-rank applies to --task lora and qlora"));
	if ((o->task != GW_TASK_LORA && o->task != GW_TASK_QLORA) && o->lora_targets_s)
		die_usage("advise", _("--lora-targets applies to --task lora and qlora"));
	if (o->task == GW_TASK_INFER && o->offload_activations)
		die_usage("advise", _("--offload activations applies to training: inference keeps no activations "
			  "for backward"));
	if (o->offload_activations && !o->checkpointing)
		die_usage("advise", _("--offload activations needs --checkpointing: torchtune offloads the "
			  "checkpointed layers' inputs and refuses offloading without checkpointing"));
	if (o->task == GW_TASK_INFER && o->loss_chunks)
		die_usage("advise", _("--loss-chunks applies to training"));
	if (o->task == GW_TASK_INFER && o->loss_s)
		die_usage("advise", _("--loss applies to training"));
	if (o->loss == GW_LOSS_SUM && o->loss_chunks > 1)
		die_usage("advise", _("--loss sum takes no cross-entropy, so nothing to chunk: it excludes "
			  "--loss-chunks"));
	if (o->loss_chunks > 65536)
		die_usage("advise", _("option '--loss-chunks' is at most 65536"));
	if (o->autoawq_fused && (o->task != GW_TASK_INFER || o->weights != GW_WEIGHTS_GPTQ4 || o->gpus > 1))
		die_usage("advise", _("--autoawq-fused applies to --task infer with --weights gptq4 (AutoAWQ's 4-bit "
			  "AWQ weights) on one GPU"));
	if (o->autoawq_s && !o->autoawq_fused)
		die_usage("advise", _("--autoawq names the AutoAWQ release of --autoawq-fused"));
}

/* --seq and --new-tokens count tokens of text; --image sizes an image. */
static void check_inputs(const struct advise_opts *o, const gw_model *m)
{
	if (m->kind == GW_MODEL_VISION && (o->seq || o->new_tokens))
		die_usage("advise", _("%s is a vision model: give --image N (pixels per side), not --seq or --new-tokens"),
			  m->name);
	if (o->offload_activations && m->kind != GW_MODEL_DECODER)
		die_usage("advise", _("--offload activations is modelled for decoders (torchtune's recipes); %s is "
			  "not one"), m->name);
	if (m->kind != GW_MODEL_VISION && o->image)
		die_usage("advise", _("--image applies to vision models (ViT, DeiT, Swin, ResNet); %s reads text: "
			  "use --seq"), m->name);
}

/* Learned position tables end at max_positions: a longer --seq fails in
 * the framework, so say so (the estimate is still printed). */
static void warn_positions(const gw_model *m, const gw_advise_options *r)
{
	bool learned = !strcmp(m->model_type, "gpt2") || !strcmp(m->model_type, "bert") ||
		       !strcmp(m->model_type, "roberta");

	if (learned && m->max_positions && r->seq > m->max_positions)
		warning_msg(_("--seq %" PRIu64 " is longer than the %" PRIu64 " positions %s was trained with"), r->seq,
			    m->max_positions, m->name);
}

/* ---- GGUF files: llama.cpp / ollama inference ---------------------------- */

enum { GGUF_HEAD_MAX = 64 << 20 };

static bool is_gguf(const char *arg)
{
	size_t n = strlen(arg);

	return n > 5 && !strcasecmp(arg + n - 5, ".gguf") && path_exists(arg);
}

/* The head of the file: the header, metadata and tensor table come first
 * (a tokenizer of 150,000 entries takes a few MiB); the tensors' data is
 * not needed. */
static gw_gguf *read_gguf(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	size_t len;
	gw_gguf *g = NULL;

	if (!f) {
		error_msg(_("cannot open '%s': %s"), path, strerror(errno));
		return NULL;
	}
	if (!(buf = malloc(GGUF_HEAD_MAX))) {
		fclose(f);
		error_msg(_("out of memory"));
		return NULL;
	}
	len = fread(buf, 1, GGUF_HEAD_MAX, f);
	fclose(f);
	if (gw_gguf_parse(&g, buf, len) < 0)
		error_msg("%s: %s", path, gw_error_last_text());
	free(buf);
	return g;
}

static int kv_type(const char *s)
{
	if (!s || !strcmp(s, "f16"))
		return GW_KV_F16;
	if (!strcmp(s, "q8_0"))
		return GW_KV_Q8_0;
	if (!strcmp(s, "q4_0"))
		return GW_KV_Q4_0;
	die_usage("advise", "%s", _("option '--cache-type' must be one of: f16 q8_0 q4_0"));
	return GW_KV_F16;
}

static void gguf_json(const gw_gguf *g, const char *path, uint64_t params, const gw_llamacpp_estimate *e,
		      const char *cache, const gw_advise_target *t, size_t n, const uint64_t *par, uint64_t seq)
{
	gw_json *j = gw_json_new(2);
	uint64_t by_type[64] = { 0 }, file_bytes = 0;

	if (!j)
		return;
	for (size_t i = 0; i < gw_gguf_tensor_count(g); i++) {
		const gw_gguf_tensor *x = gw_gguf_tensor_at(g, i);
		if (x->type < 64)
			by_type[x->type] += x->bytes;
		file_bytes += x->bytes;
	}
	gw_json_object_begin(j);
	gw_json_key(j, "gpuwise_version");
	gw_json_string(j, gw_version());
	gw_json_key(j, "model");
	gw_json_object_begin(j);
	gw_json_key(j, "name");
	gw_json_string(j, gw_gguf_name(g)[0] ? gw_gguf_name(g) : path);
	gw_json_key(j, "from");
	gw_json_string(j, "gguf");
	gw_json_key(j, "architecture");
	gw_json_string(j, gw_gguf_architecture(g));
	gw_json_key(j, "gguf_version");
	gw_json_uint(j, gw_gguf_version(g));
	gw_json_key(j, "tensors");
	gw_json_uint(j, gw_gguf_tensor_count(g));
	gw_json_key(j, "params");
	gw_json_uint(j, params);
	gw_json_key(j, "weights_bytes");
	gw_json_uint(j, file_bytes);
	gw_json_key(j, "weights_by_type");
	gw_json_object_begin(j);
	for (uint32_t i = 0; i < 64; i++)
		if (by_type[i] && gw_gguf_type_name(i)) {
			gw_json_key(j, gw_gguf_type_name(i));
			gw_json_uint(j, by_type[i]);
		}
	gw_json_object_end(j);
	gw_json_key(j, "layers");
	gw_json_uint(j, e->layers);
	gw_json_object_end(j);
	gw_json_key(j, "llama_cpp");
	gw_json_object_begin(j);
	gw_json_key(j, "ctx");
	gw_json_uint(j, e->ctx);
	gw_json_key(j, "parallel");
	gw_json_uint(j, e->parallel);
	gw_json_key(j, "ctx_per_slot");
	gw_json_uint(j, e->ctx_per_slot);
	gw_json_key(j, "cache_type");
	gw_json_string(j, cache);
	gw_json_key(j, "gpu_layers");
	gw_json_uint(j, e->gpu_layers);
	gw_json_key(j, "weights_gpu_bytes");
	gw_json_uint(j, e->weights_gpu_bytes);
	gw_json_key(j, "weights_cpu_bytes");
	gw_json_uint(j, e->weights_cpu_bytes);
	gw_json_key(j, "kv_cache_bytes");
	gw_json_uint(j, e->kv_cache_bytes);
	gw_json_key(j, "kv_bytes_per_token");
	gw_json_uint(j, e->kv_bytes_per_token);
	gw_json_key(j, "compute_bytes");
	gw_json_uint(j, e->compute_bytes);
	gw_json_key(j, "cuda_context_bytes");
	gw_json_uint(j, e->cuda_context_bytes);
	gw_json_key(j, "total_gpu_bytes");
	gw_json_uint(j, e->total_gpu_bytes);
	gw_json_object_end(j);
	gw_json_key(j, "targets");
	gw_json_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		gw_json_object_begin(j);
		gw_json_key(j, "gpu");
		gw_json_string(j, t[i].name);
		gw_json_key(j, "memory_bytes");
		gw_json_uint(j, t[i].memory_bytes);
		gw_json_key(j, "fits");
		gw_json_bool(j, e->total_gpu_bytes <= t[i].memory_bytes);
		gw_json_key(j, "max_parallel");
		gw_json_uint(j, par[i]);
		gw_json_key(j, "seq");
		gw_json_uint(j, seq);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	gw_json_object_end(j);
	puts(gw_json_text(j));
	gw_json_free(j);
}

static int run_gguf(const struct advise_opts *o, const char *path)
{
	gw_llamacpp_options lo = GW_LLAMACPP_OPTIONS_INIT;
	gw_llamacpp_estimate e;
	gw_advise_target *t;
	uint64_t par[TARGETS_MAX] = { 0 }, params = 0, file_bytes = 0, seq;
	const char *cache = o->cache_type_s ? o->cache_type_s : "f16";
	char a[32], b[32], c[32], d[32], tot[32];
	size_t n = 0;
	int rc = EXIT_OK;
	gw_gguf *g;

	lo.cache_k = lo.cache_v = (gw_kv_type)kv_type(o->cache_type_s);
	lo.ctx = o->ctx;
	lo.parallel = o->parallel;
	lo.ngl = o->ngl ? (int64_t)o->ngl - 1 : -1;
	lo.flash_attn = o->flash_attn;
	if (!(g = read_gguf(path)))
		return EXIT_FAIL;
	if (gw_advise_llamacpp(&e, g, &lo) < 0 || !(t = calloc(TARGETS_MAX, sizeof(*t)))) {
		error_msg("%s: %s", path, gw_error_last_text());
		gw_gguf_free(g);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < gw_gguf_tensor_count(g); i++) {
		params += gw_gguf_tensor_at(g, i)->elements;
		file_bytes += gw_gguf_tensor_at(g, i)->bytes;
	}
	seq = o->seq ? o->seq : (e.ctx_per_slot ? e.ctx_per_slot : 4096);
	if (pick_targets(o, t, &n) < 0) {
		free(t);
		gw_gguf_free(g);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++)
		par[i] = gw_advise_llamacpp_max_parallel(g, &lo, seq, t[i].memory_bytes);
	if (o->json) {
		gguf_json(g, path, params, &e, cache, t, n, par, seq);
	} else {
		print_para("Model   ", _("%s (GGUF v%u, %s, %zu tensors): %s parameters, %s of weights"),
			   gw_gguf_name(g)[0] ? gw_gguf_name(g) : path, (unsigned)gw_gguf_version(g),
			   gw_gguf_architecture(g), gw_gguf_tensor_count(g), fmt_count(a, sizeof(a), params),
			   fmt_bytes(b, sizeof(b), file_bytes));
		print_para("Run     ", _("llama.cpp, context %" PRIu64 " (%" PRIu64 " slots of %" PRIu64 "), KV cache %s, "
					 "%" PRIu64 " of %" PRIu64 " layers on the GPU"),
			   e.ctx, e.parallel, e.ctx_per_slot, cache, e.gpu_layers, e.layers);
		putchar('\n');
		print_para("", _("On the GPU: weights %s, KV cache %s, compute buffer %s, CUDA context %s: %s"),
			   fmt_bytes(a, sizeof(a), e.weights_gpu_bytes), fmt_bytes(b, sizeof(b), e.kv_cache_bytes),
			   fmt_bytes(c, sizeof(c), e.compute_bytes), fmt_bytes(d, sizeof(d), e.cuda_context_bytes),
			   fmt_bytes(tot, sizeof(tot), e.total_gpu_bytes));
		if (e.weights_cpu_bytes)
			print_para("", _("In host memory: weights %s"), fmt_bytes(a, sizeof(a), e.weights_cpu_bytes));
		for (size_t i = 0; i < n; i++)
			print_para("  ", _("%s (%s): %s; at most %" PRIu64 " --parallel slots of %" PRIu64 " tokens"),
				   t[i].name, fmt_bytes(a, sizeof(a), t[i].memory_bytes),
				   e.total_gpu_bytes <= t[i].memory_bytes ? _("fits") : _("does not fit"), par[i], seq);
	}
	for (size_t i = 0; i < n; i++)
		if (e.total_gpu_bytes > t[i].memory_bytes)
			rc = EXIT_FAIL;
	free(t);
	gw_gguf_free(g);
	return rc;
}

/* vLLM's KV blocks on the first target (--gpu-memory-utilization):
 * false when not asked for or not computable (said on stderr). */
static bool vllm_estimate(const struct advise_opts *o, const gw_model *m, const gw_advise_report *rep,
			  gw_vllm_estimate *v, double *util, uint64_t *seq)
{
	gw_advise_options base;
	char *end;
	uint64_t mem;

	if (!o->gpu_util_s)
		return false;
	*util = strtod(o->gpu_util_s, &end);
	if (end == o->gpu_util_s || *end || !(*util > 0 && *util <= 1))
		die_usage("advise", _("option '--gpu-memory-utilization' needs a fraction above 0 and at most 1"));
	mem = gw_advise_report_count(rep) ? gw_advise_report_result(rep, 0)->target.memory_bytes : 0;
	*seq = gw_advise_report_estimate(rep)->resolved.seq;
	options_from(&base, o);
	if (!mem || gw_advise_vllm_tokens(v, m, &base, mem, *util, o->block_size, *seq, o->batched_tokens) < 0) {
		error_msg(_("vLLM: %s"), mem ? gw_error_last_text() : _("no GPU to size it on (--gpu NAME or --memory SIZE)"));
		return false;
	}
	return true;
}

static void print_vllm(const gw_vllm_estimate *v, double util, uint64_t seq)
{
	char a[32], b[32];

	putchar('\n');
	print_para("", _("vLLM at gpu_memory_utilization %.2f: %s for the KV cache, %" PRIu64 " blocks of %" PRIu64
			 " tokens (%s a token): %" PRIu64 " sequences of %" PRIu64 " tokens at once"),
		   util, fmt_bytes(a, sizeof(a), v->kv_cache_bytes), v->blocks, v->block_size,
		   fmt_bytes(b, sizeof(b), v->kv_bytes_per_token), v->max_sequences, seq);
}

/* The report's JSON document with a "vllm" object added as its last key
 * (the report's keys stay as they are): the object is written as the one
 * key of a document of its own, at the same indentation, and its lines
 * spliced in before the report's closing brace. NULL: out of memory. */
static char *json_with_vllm(const char *report, const gw_vllm_estimate *v, double util, uint64_t seq)
{
	gw_json *j = gw_json_new(2);
	const char *doc, *inner, *close, *tail;
	char *out = NULL;
	size_t n;

	if (!j)
		return NULL;
	gw_json_object_begin(j);
	gw_json_key(j, "vllm");
	gw_json_object_begin(j);
	gw_json_key(j, "gpu_memory_utilization"); gw_json_double(j, util, 2);
	gw_json_key(j, "budget_bytes"); gw_json_uint(j, v->budget_bytes);
	gw_json_key(j, "weights_bytes"); gw_json_uint(j, v->weights_bytes);
	gw_json_key(j, "activation_bytes"); gw_json_uint(j, v->activation_bytes);
	gw_json_key(j, "non_torch_bytes"); gw_json_uint(j, v->non_torch_bytes);
	gw_json_key(j, "kv_cache_bytes"); gw_json_uint(j, v->kv_cache_bytes);
	gw_json_key(j, "kv_bytes_per_token"); gw_json_uint(j, v->kv_bytes_per_token);
	gw_json_key(j, "block_size"); gw_json_uint(j, v->block_size);
	gw_json_key(j, "blocks"); gw_json_uint(j, v->blocks);
	gw_json_key(j, "seq"); gw_json_uint(j, seq);
	gw_json_key(j, "max_sequences"); gw_json_uint(j, v->max_sequences);
	gw_json_object_end(j);
	gw_json_object_end(j);
	doc = gw_json_text(j);
	close = report ? strrchr(report, '}') : NULL;
	inner = doc ? strchr(doc, '\n') : NULL;
	tail = doc ? strrchr(doc, '\n') : NULL;
	if (close && inner && tail && tail > inner) {
		n = (size_t)(close - report);
		while (n && (report[n - 1] == '\n' || report[n - 1] == ' '))
			n--;
		if (asprintf(&out, "%.*s,%.*s\n%s", (int)n, report, (int)(tail - inner), inner, close) < 0)
			out = NULL;
	}
	gw_json_free(j);
	return out;
}

/* ---- the Python environment of this machine -------------------------------- */

/* The version a module file assigns: `__version__ = '2.1.2+cu121'` in
 * torch/version.py (tools/generate_torch_version.py writes it so, with or
 * without a type annotation), `__version__ = "4.44.2"` in
 * transformers/__init__.py. false when the file or the line is not there. */
static bool module_version(const char *path, char *out, size_t outsz)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *q, *end;

		if (strncmp(line, "__version__", 11) || !(q = strpbrk(line + 11, "'\"")))
			continue;
		if (!strchr(line + 11, '=') || strchr(line + 11, '=') > q || !(end = strchr(q + 1, *q)))
			continue;
		snprintf(out, outsz, "%.*s", (int)(end - q - 1), q + 1);
		found = out[0] != 0;
	}
	fclose(f);
	return found;
}

/* The site-packages of the active environment: $VIRTUAL_ENV, else
 * $CONDA_PREFIX (the variables activate sets), lib/python3.N/site-packages
 * holding `rel`. */
static bool active_site_file(const char *rel, char *out, size_t outsz)
{
	const char *vars[] = { "VIRTUAL_ENV", "CONDA_PREFIX" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *prefix = getenv(vars[i]);
		char pattern[4096];
		glob_t g;
		bool ok;

		if (!prefix || !*prefix)
			continue;
		snprintf(pattern, sizeof(pattern), "%s/lib/python3*/site-packages/%s", prefix, rel);
		if (glob(pattern, 0, NULL, &g) != 0)
			continue;
		ok = g.gl_pathc > 0;
		if (ok)
			snprintf(out, outsz, "%s", g.gl_pathv[g.gl_pathc - 1]);
		globfree(&g);
		if (ok)
			return true;
	}
	return false;
}

/* advise run for this machine's GPUs takes the PyTorch and transformers
 * releases of the active Python environment where --torch and
 * --transformers do not name them: what the context size (lazy loading
 * from 1.13), softmax's backward (1.11), SDPA (2.0) and generate()'s
 * logits (4.45) depend on. A spec-table GPU or --memory is a machine
 * elsewhere, so nothing is read for them. */
static void releases_from_environment(const struct advise_opts *o, gw_advise_options *base)
{
	char path[4096], v[64];
	uint32_t r;

	if (!o->torch_s && active_site_file("torch/version.py", path, sizeof(path)) &&
	    module_version(path, v, sizeof(v)) && gw_advise_torch_version(v, &r) == 0)
		base->torch_version = r;
	if (!o->transformers_s && active_site_file("transformers/__init__.py", path, sizeof(path)) &&
	    module_version(path, v, sizeof(v)) && transformers_release(v, &r))
		base->transformers_version = r;
}

static int run_advice(const struct advise_opts *o, const gw_model *m, const char *how,
		      const struct advise_source *src)
{
	gw_advise_target *t;
	gw_advise_report *rep = NULL;
	gw_advise_options base;
	const gw_advise_plan *plan;
	gw_vllm_estimate v;
	double util = 0;
	uint64_t seq = 0;
	bool vllm;
	size_t n = 0;
	int rc = EXIT_OK;

	/* check_inputs() exits on a usage error: nothing may be allocated yet. */
	check_inputs(o, m);
	options_from(&base, o);
	t = calloc(TARGETS_MAX, sizeof(*t));
	if (!t) {
		error_msg(_("out of memory"));
		return EXIT_FAIL;
	}
	if (pick_targets(o, t, &n) < 0) {
		free(t);
		return EXIT_FAIL;
	}
	if (n && !strcmp(t[0].source, "local"))
		releases_from_environment(o, &base);
	if (gw_advise_report_new(&rep, m, how, &base, t, n, o->target_batch) < 0) {
		error_msg("%s", gw_error_last_text());
		free(t);
		return EXIT_FAIL;
	}
	free(t);
	if (o->hardware && gw_advise_report_add_hardware(rep, &base) < 0) {
		error_msg("%s", gw_error_last_text());
		gw_advise_report_free(rep);
		return EXIT_FAIL;
	}
	warn_positions(m, &gw_advise_report_estimate(rep)->resolved);
	plan = gw_advise_report_plan(rep);
	vllm = vllm_estimate(o, m, rep, &v, &util, &seq);
	if (o->json) {
		char *text = gw_advise_report_json(rep, 2);

		if (text && vllm) {
			char *both = json_with_vllm(text, &v, util, seq);

			free(text);
			text = both;
		}
		if (!text || puts(text) == EOF)
			rc = EXIT_FAIL;
		if (!text)
			error_msg(_("out of memory"));
		free(text);
	} else {
		print_run(m, gw_advise_report_estimate(rep));
		if (src->weights[0]) {
			char pad[32];

			pad_cells(pad, sizeof(pad), _("Weights"), 8, false);
			print_para(pad, "%s", src->weights);
		}
		print_breakdown(gw_advise_report_estimate(rep),
				n ? gw_advise_report_result(rep, 0)->target.name : NULL);
		print_bitsandbytes_hint(m, gw_advise_report_estimate(rep));
		if (n)
			print_targets(rep);
		else
		{
			putchar('\n');
			print_para("", "%s",
				   _("No GPU found here: --gpu NAME (a spec-table GPU) or --memory SIZE checks the fit."));
		}
		if (plan)
			print_plan(plan, &gw_advise_report_result(rep, gw_advise_report_plan_target(rep))->target,
				   gw_advise_report_target_batch(rep));
		if (o->hardware) {
			print_hardware(rep);
			print_cloud(rep);
		}
	}
	if (vllm && !o->json)
		print_vllm(&v, util, seq);
	for (size_t i = 0; i < gw_advise_report_count(rep); i++)
		if (rc == EXIT_OK && !gw_advise_report_result(rep, i)->fits)
			rc = EXIT_FAIL;
	gw_advise_report_free(rep);
	return rc;
}

static int cmd_advise(int argc, char **argv)
{
	struct advise_opts o;
	char **args;
	int nargs;
	gw_model m;
	const char *how = NULL;
	struct advise_source src;

	memset(&o, 0, sizeof(o));
	memset(&src, 0, sizeof(src));
	if ((nargs = parse_options(&cmd_advise_def, argc, argv, &o, &args)) == PARSE_HELP)
		return EXIT_OK;
	if (o.list_models) {
		if (nargs)
			die_usage("advise", _("--list-models takes no MODEL"));
		return list_models(o.json);
	}
	convert_vocabs(&o);
	if (nargs && is_gguf(args[0]))
		return run_gguf(&o, args[0]);
	check_usage(&o, nargs);
	if (model_from_args(&m, &o, nargs ? args[0] : NULL, &how, &src) < 0)
		return EXIT_FAIL;
	if (o.lm_head && gw_model_use_lm_head(&m) < 0) {
		error_msg(_("--lm-head: %s"), gw_error_last_text());
		return EXIT_FAIL;
	}
	return run_advice(&o, &m, how, &src);
}

const struct cmd cmd_advise_def = {
	.name = "advise",
	.fn = cmd_advise,
	.summary = N_("GPU memory a training or inference run needs; will it fit, how to make it fit"),
	.options = advise_options,
	.args = "[MODEL]",
	.max_args = 1,
	.description =
		N_("Predict the peak GPU memory of a training, LoRA/QLoRA or inference run from the model's shape: "
		"weights, gradients, optimizer states, activations, KV cache, library workspaces and the CUDA "
		"context, as PyTorch's max_memory_allocated(), max_memory_reserved() and nvidia-smi would show "
		"them. Then say whether it fits on each GPU of this machine (or --gpu NAME, --memory SIZE), the "
		"largest micro-batch, and the cheapest plan that reaches --target-batch: micro-batch × gradient "
		"accumulation, then checkpointing, a lower precision the GPU supports, an 8-bit optimizer, ZeRO "
		"across GPUs, optimizer offload.\n"
		"\n"
		"  gpuwise advise llama-2-7b --task lora --batch 4 --seq 1024 --gpu 'RTX 4090'\n"
		"  gpuwise advise ./my-model/ --task infer --seq 4096 --new-tokens 512\n"
		"  gpuwise advise bert-large-uncased --batch 32 --seq 512 --gpu V100-SXM2-16GB --target-batch 256\n"
		"  gpuwise advise llama-3-8b --task infer --seq 4096 --new-tokens 512 --batch 8 --hardware\n"
		"  gpuwise advise vit-base-patch16-224 --batch 64 --image 384 --gpu 'RTX 4090'\n"
		"  gpuwise advise --params 1.3B --layers 24 --hidden 2048 --heads 16 --vocab 50304 --memory 24GiB\n"
		"\n"
		"MODEL is a catalogue name (--list-models) or a name people type for one (llama2-7b, mistral-7b, "
		"Llama-2-7b-chat-hf), a Hugging Face id ORG/NAME (read from the Hugging Face cache, else downloaded "
		"from HF_ENDPOINT with HF_TOKEN through libcurl and stored there; HF_HUB_OFFLINE=1: the cache only), "
		"a config.json, or a folder holding one (model_type llama, mistral, qwen2, gemma, phi, phi3, falcon, gptj, gpt_neox, bloom, gpt_bigcode, opt, gpt2, bert, "
		"roberta, t5, mt5, vit, deit, swin or resnet). Estimates are a "
		"model, not a measurement: docs/advise.md gives each term and its source.\n"
		"\n"
		"Also read: the mixtures of experts mixtral, qwen2_moe, qwen3_moe, deepseek_v2, deepseek_v3, phimoe, "
		"gpt_oss and llama4_text, qwen3, gemma2, the decoders olmo, olmo2, granite, glm, glm4, cohere, cohere2, smollm3, "
		"starcoder2, ernie4_5, exaone4, helium, internlm2 and minicpm, and the vision-language llava, gemma3, "
		"qwen2_vl, qwen2_5_vl and llama4. A .gguf "
		"file is read from its header and run as llama.cpp would (--ctx, --parallel, --cache-type, --ngl, "
		"--flash-attn); --gpu-memory-utilization adds vLLM's KV blocks and concurrent sequences.\n"
		"\n"
		"  gpuwise advise ./Mixtral-8x7B-v0.1/ --task infer --seq 4096 --gpu H100-SXM5-80GB\n"
		"  gpuwise advise model-Q4_K_M.gguf --ctx 8192 --parallel 4 --cache-type q8_0 --gpu 'RTX 4090'\n"
		"  gpuwise advise ./Qwen3-8B/ --task infer --seq 4096 --gpu H100-SXM5-80GB --gpu-memory-utilization 0.9"),
	.exit_status = N_("Exit status: 0 when the run as given fits on every GPU checked (or none was found), 1 when "
		       "it does not fit on one of them or the model cannot be read, 2 on a usage error."),
};
