/* The advise report: one run checked against target GPUs, and its ◆ JSON
 * document (docs/contracts.md "Memory and hardware advice"), shared by the CLI's
 * --json and the Python module's gpuwise.advise() so the two cannot
 * differ. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "gpuwise/advise.h"
#include "advise/advise_int.h"

struct gw_advise_report {
	gw_model model;
	char from[16];
	gw_advise_estimate shown;
	gw_advise_result *results;
	size_t n;
	gw_advise_plan plan;
	bool have_plan;
	size_t plan_target;           /* the index of the plan's target */
	uint64_t target_batch;
	gw_advise_rank *ranks;        /* --hardware, else NULL */
	size_t nranks;
	bool have_ranks;
	gw_advise_cloud_rank *cloud;  /* --hardware: the cloud instances */
	size_t ncloud;
};

void gw_advise_report_free(gw_advise_report *r)
{
	if (!r)
		return;
	gw_advise_ranks_free(r->ranks);
	gw_advise_cloud_free(r->cloud);
	gw__free(r->results);
	gw__free(r);
}

static void for_target(gw_advise_options *o, const gw_advise_target *t)
{
	o->cc_major = t->cc_major;
	o->cc_minor = t->cc_minor;
	o->gpu_memory_bytes = t->memory_bytes;
}

/* What the target offers a run now: its memory less what others hold. */
static uint64_t free_now(const gw_advise_target *t)
{
	return t->in_use_bytes < t->memory_bytes ? t->memory_bytes - t->in_use_bytes : 0;
}

static int check_target(gw_advise_result *res, const gw_model *m, const gw_advise_options *base,
			const gw_advise_target *t)
{
	gw_advise_options o = *base;
	int rc;

	for_target(&o, t);
	res->target = *t;
	res->target.name[sizeof(res->target.name) - 1] = '\0';
	res->target.source[sizeof(res->target.source) - 1] = '\0';
	if ((rc = gw_advise_estimate_run(&res->estimate, m, &o)) < 0 ||
	    (rc = gw_advise_max_micro_batch(&res->max_micro_batch, m, &o, t->memory_bytes)) < 0)
		return rc;
	res->fits = res->estimate.peak_device_bytes <= t->memory_bytes;
	res->fits_now = res->estimate.peak_device_bytes <= free_now(t);
	return 0;
}

/* The plan's GPU: the first where the run as given fits now, else the
 * one with the most memory free now, so that a plan never picks a GPU
 * that other processes fill when another one is free. */
static size_t pick_plan_target(const gw_advise_result *res, size_t n)
{
	size_t best = 0;

	for (size_t i = 0; i < n; i++)
		if (res[i].fits_now)
			return i;
	for (size_t i = 1; i < n; i++)
		if (free_now(&res[i].target) > free_now(&res[best].target))
			best = i;
	return best;
}

int gw_advise_report_new(gw_advise_report **out, const gw_model *m, const char *from,
			 const gw_advise_options *o, const gw_advise_target *targets, size_t n,
			 uint64_t target_batch)
{
	gw_advise_report *r;
	int rc;

	if (!out || !m || !o || (n && !targets))
		return gw__error_set(GW_EINVAL, "no output, model, options or targets");
	if (n > 4096)
		return gw__error_set(GW_EINVAL, "at most 4096 target GPUs");
	if (!(r = gw__calloc(1, sizeof(*r))) || (n && !(r->results = gw__calloc(n, sizeof(*r->results))))) {
		gw__free(r);
		return gw__error_set(GW_ENOMEM, "out of memory");
	}
	r->model = *m;
	gw__strlcpy(r->from, from ? from : "shape", sizeof(r->from));
	r->n = n;
	/* The run on an unknown GPU first: bad options fail here, once. */
	if ((rc = gw_advise_estimate_run(&r->shown, m, o)) < 0)
		goto fail;
	r->target_batch = target_batch ? target_batch :
			  o->task == GW_TASK_INFER ? o->batch : o->batch * o->grad_accum * o->gpus;
	for (size_t i = 0; i < n; i++)
		if ((rc = check_target(&r->results[i], m, o, &targets[i])) < 0)
			goto fail;
	if (n) {
		gw_advise_options first = *o;
		size_t k = pick_plan_target(r->results, n);

		for_target(&first, &targets[k]);
		r->shown = r->results[0].estimate;
		if ((rc = gw_advise_plan_make(&r->plan, m, &first, targets[k].memory_bytes, r->target_batch)) < 0)
			goto fail;
		r->have_plan = true;
		r->plan_target = k;
	}
	*out = r;
	return 0;
fail:
	gw_advise_report_free(r);
	return rc;
}

const gw_model *gw_advise_report_model(const gw_advise_report *r)
{
	return r ? &r->model : NULL;
}

const gw_advise_estimate *gw_advise_report_estimate(const gw_advise_report *r)
{
	return r ? &r->shown : NULL;
}

size_t gw_advise_report_count(const gw_advise_report *r)
{
	return r ? r->n : 0;
}

const gw_advise_result *gw_advise_report_result(const gw_advise_report *r, size_t i)
{
	return r && i < r->n ? &r->results[i] : NULL;
}

const gw_advise_plan *gw_advise_report_plan(const gw_advise_report *r)
{
	return r && r->have_plan ? &r->plan : NULL;
}

int gw_advise_report_add_hardware(gw_advise_report *r, const gw_advise_options *o)
{
	return gw__advise_report_add_hardware_from(r, o, NULL, 0);
}

int gw__advise_report_add_hardware_from(gw_advise_report *r, const gw_advise_options *o,
					const gw_cloud_instance *insts, size_t ninsts)
{
	gw_advise_rank *k;
	gw_advise_cloud_rank *c;
	size_t n, nc;
	int rc;

	if (!r || !o)
		return gw__error_set(GW_EINVAL, "no report or options");
	if ((rc = gw_advise_hardware(&k, &n, &r->model, o)) < 0)
		return rc;
	if ((rc = gw__advise_cloud_from(&c, &nc, insts, ninsts, k, n, o->gpus ? o->gpus : 1)) < 0) {
		gw_advise_ranks_free(k);
		return rc;
	}
	gw_advise_ranks_free(r->ranks);
	gw_advise_cloud_free(r->cloud);
	r->ranks = k;
	r->nranks = n;
	r->cloud = c;
	r->ncloud = nc;
	r->have_ranks = true;
	return 0;
}

size_t gw_advise_report_cloud_count(const gw_advise_report *r)
{
	return r ? r->ncloud : 0;
}

const gw_advise_cloud_rank *gw_advise_report_cloud(const gw_advise_report *r, size_t i)
{
	return r && i < r->ncloud ? &r->cloud[i] : NULL;
}

size_t gw_advise_report_hardware_count(const gw_advise_report *r)
{
	return r ? r->nranks : 0;
}

const gw_advise_rank *gw_advise_report_hardware(const gw_advise_report *r, size_t i)
{
	return r && i < r->nranks ? &r->ranks[i] : NULL;
}

size_t gw_advise_report_plan_target(const gw_advise_report *r)
{
	return r && r->have_plan ? r->plan_target : 0;
}

uint64_t gw_advise_report_target_batch(const gw_advise_report *r)
{
	return r ? r->target_batch : 0;
}

/* ---- TrainingArguments -------------------------------------------------- */

static const char *hf_optim(gw_optimizer o)
{
	static const char *const names[] = { "adamw_torch", "adamw_torch", "sgd", "sgd", "adafactor",
					     "adamw_bnb_8bit", "paged_adamw_8bit", "adamw_torch_fused", "adamw_hf" };
	return (unsigned)o < GW_ARRAY_SIZE(names) ? names[o] : "adamw_torch";
}

/* Append to buf[n] at *k, never past the end. */
static void add(char *buf, size_t n, size_t *k, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t n, size_t *k, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*k >= n)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *k, n - *k, fmt, ap);
	va_end(ap);
	*k = w < 0 ? n : *k + (size_t)w;
}

/* The DeepSpeed configuration of a ZeRO plan, as the dict TrainingArguments'
 * deepspeed= takes (the same JSON as a ds_config.json file): the stage,
 * offload_optimizer (and offload_param with ZeRO-3) to the CPU, and with
 * offload DeepSpeed's own AdamW (DeepSpeedCPUAdam; "auto" values come from
 * the TrainingArguments), since ZeRO-Offload refuses a client optimizer
 * (zero_force_ds_cpu_optimizer). */
static void add_deepspeed(char *buf, size_t n, size_t *k, const gw_advise_options *r)
{
	add(buf, n, k, ", deepspeed={\"zero_optimization\": {\"stage\": %d", gw__advise_zero_stage(r));
	if (r->offload != GW_OFFLOAD_NONE)
		add(buf, n, k, ", \"offload_optimizer\": {\"device\": \"cpu\"}");
	if (r->offload == GW_OFFLOAD_PARAMS)
		add(buf, n, k, ", \"offload_param\": {\"device\": \"cpu\"}");
	add(buf, n, k, "}");
	if (r->offload != GW_OFFLOAD_NONE)
		add(buf, n, k, ", \"optimizer\": {\"type\": \"AdamW\", \"params\": {\"lr\": \"auto\", "
		    "\"weight_decay\": \"auto\"}}");
	add(buf, n, k, ", \"train_micro_batch_size_per_gpu\": \"auto\", \"gradient_accumulation_steps\": \"auto\"}");
}

const char *gw_advise_training_arguments(char *buf, size_t n, const gw_advise_plan *p)
{
	const gw_advise_options *r;
	size_t k = 0;

	if (!buf || !n)
		return buf;
	buf[0] = '\0';
	if (!p)
		return buf;
	r = &p->estimate.resolved;
	add(buf, n, &k, "TrainingArguments(per_device_train_batch_size=%" PRIu64 ", gradient_accumulation_steps=%" PRIu64,
	    p->micro_batch, p->grad_accum);
	if (r->precision == GW_PRECISION_AMP_BF16 || r->precision == GW_PRECISION_BF16)
		add(buf, n, &k, ", bf16=True");
	if (r->precision == GW_PRECISION_AMP_FP16 || r->precision == GW_PRECISION_FP16)
		add(buf, n, &k, ", fp16=True");
	if (r->precision == GW_PRECISION_TF32)
		add(buf, n, &k, ", tf32=True");
	if (r->checkpointing)
		add(buf, n, &k, ", gradient_checkpointing=True");
	add(buf, n, &k, ", optim=\"%s\"", hf_optim(r->optimizer));
	if (gw__advise_fsdp(r))
		add(buf, n, &k, ", fsdp=\"full_shard%s\"", r->offload ? " offload" : "");
	if (gw__advise_zero_stage(r))
		add_deepspeed(buf, n, &k, r);
	add(buf, n, &k, ")");
	if (k >= n)
		gw__mark_cut(buf, n);
	return buf;
}

/* ---- JSON ------------------------------------------------------------------ */

static const char *kind_name(gw_model_kind k)
{
	return k == GW_MODEL_ENCODER ? "encoder" : k == GW_MODEL_ENCODER_DECODER ? "encoder-decoder"
	       : k == GW_MODEL_VISION ? "vision" : "decoder";
}

static void key_u64(gw_json *j, const char *k, uint64_t v)
{
	gw_json_key(j, k);
	gw_json_uint(j, v);
}

static void key_str(gw_json *j, const char *k, const char *v)
{
	gw_json_key(j, k);
	gw_json_string(j, v);
}

static void key_bool(gw_json *j, const char *k, bool v)
{
	gw_json_key(j, k);
	gw_json_bool(j, v);
}

/* What text models have beyond the shape (advise.h's text half): the
 * experts, latent attention, sliding windows and a VLM's vision tower;
 * null where the model has none. */
static void key_u64_or_null(gw_json *j, const char *k, uint64_t v)
{
	gw_json_key(j, k);
	if (v)
		gw_json_uint(j, v);
	else
		gw_json_null(j);
}

/* A package release kept as major·10000 + minor·100 + patch, as
 * "MAJOR.MINOR.PATCH"; null when not given. */
static void key_release_or_null(gw_json *j, const char *k, uint32_t v)
{
	char text[24];

	gw_json_key(j, k);
	if (!v) {
		gw_json_null(j);
		return;
	}
	gw__fmt(text, sizeof(text), "%u.%u.%u", v / 10000, v / 100 % 100, v % 100);
	gw_json_string(j, text);
}

static void json_text_arch(gw_json *j, const gw_model *m)
{
	key_u64_or_null(j, "params_active", m->params_active);
	gw_json_key(j, "moe");
	if (m->moe_layers) {
		gw_json_object_begin(j);
		key_u64(j, "experts", m->experts);
		key_u64(j, "experts_per_token", m->experts_per_token);
		key_u64(j, "shared_experts", m->shared_experts);
		key_u64(j, "expert_intermediate_size", m->expert_intermediate);
		key_u64(j, "shared_intermediate_size", m->shared_intermediate);
		key_u64(j, "moe_layers", m->moe_layers);
		gw_json_object_end(j);
	} else {
		gw_json_null(j);
	}
	gw_json_key(j, "mla");
	if (m->kv_lora_rank) {
		gw_json_object_begin(j);
		key_u64(j, "kv_lora_rank", m->kv_lora_rank);
		key_u64(j, "qk_rope_head_dim", m->qk_rope_head_dim);
		key_u64(j, "v_head_dim", m->v_head_dim);
		gw_json_object_end(j);
	} else {
		gw_json_null(j);
	}
	key_u64_or_null(j, "sliding_window", m->sliding_window);
	key_u64(j, "sliding_layers", m->sliding_layers);
	key_u64_or_null(j, "vision_params", m->vision_params);
}

static void json_model(gw_json *j, const gw_model *m, const char *from)
{
	gw_json_key(j, "model");
	gw_json_object_begin(j);
	key_str(j, "name", m->name);
	key_str(j, "model_type", m->model_type);
	key_str(j, "kind", kind_name(m->kind));
	key_u64(j, "params", m->params);
	gw_json_key(j, "params_published");
	if (m->params_published)
		gw_json_uint(j, m->params_published);
	else
		gw_json_null(j);
	key_str(j, "from", from);
	key_bool(j, "lm_head", m->lm_head);
	key_u64(j, "layers", m->num_layers);
	key_u64(j, "decoder_layers", m->num_decoder_layers);
	key_u64(j, "hidden_size", m->hidden_size);
	key_u64(j, "heads", m->num_heads);
	key_u64(j, "kv_heads", m->num_kv_heads);
	key_u64(j, "head_dim", m->head_dim);
	key_u64(j, "intermediate_size", m->intermediate_size);
	key_u64(j, "vocab_size", m->vocab_size);
	key_bool(j, "gated_mlp", m->gated_mlp);
	key_bool(j, "tied_embeddings", m->tied_embeddings);
	gw_json_key(j, "image_size");
	if (m->kind == GW_MODEL_VISION)
		gw_json_uint(j, m->image_size);
	else
		gw_json_null(j);
	if (m->kind != GW_MODEL_VISION)
		json_text_arch(j, m);
	gw_json_object_end(j);
}

static void json_options(gw_json *j, const gw_advise_options *r, uint64_t target_batch)
{
	gw_json_key(j, "options");
	gw_json_object_begin(j);
	key_str(j, "task", gw_advise_name("task", r->task));
	key_u64(j, "batch", r->batch);
	key_u64(j, "seq", r->seq);
	gw_json_key(j, "decoder_seq");
	if (r->decoder_seq)
		gw_json_uint(j, r->decoder_seq);
	else
		gw_json_null(j);
	key_u64(j, "new_tokens", r->new_tokens);
	gw_json_key(j, "image");
	if (r->image)
		gw_json_uint(j, r->image);
	else
		gw_json_null(j);
	gw_json_key(j, "torch");
	if (r->torch_version) {
		char v[16];
		snprintf(v, sizeof(v), "%u.%u", r->torch_version / 100, r->torch_version % 100);
		gw_json_string(j, v);
	} else {
		gw_json_null(j);
	}
	key_u64(j, "loss_chunks", r->loss_chunks > 1 ? r->loss_chunks : 1);
	gw_json_key(j, "transformers");
	if (r->transformers_version) {
		char v[16];
		snprintf(v, sizeof(v), "%u.%u", r->transformers_version / 100, r->transformers_version % 100);
		gw_json_string(j, v);
	} else {
		gw_json_null(j);
	}
	key_release_or_null(j, "bitsandbytes", r->bitsandbytes_version);
	key_str(j, "precision", gw_advise_name("precision", r->precision));
	key_str(j, "weights", gw_advise_name("weights", r->weights));
	key_str(j, "optimizer", gw_advise_name("optimizer", r->optimizer));
	key_u64(j, "grad_accum", r->grad_accum);
	key_bool(j, "checkpointing", r->checkpointing);
	gw_json_key(j, "lora_rank");
	if (r->task == GW_TASK_LORA || r->task == GW_TASK_QLORA)
		gw_json_uint(j, r->lora_rank);
	else
		gw_json_null(j);
	gw_json_key(j, "lora_targets");
	if (r->task == GW_TASK_LORA || r->task == GW_TASK_QLORA)
		gw_json_string(j, gw_advise_name("lora_targets", r->lora_targets));
	else
		gw_json_null(j);
	key_u64(j, "gpus", r->gpus);
	key_str(j, "strategy", gw_advise_name("strategy", r->strategy));
	key_str(j, "offload", gw_advise_name("offload", r->offload));
	key_bool(j, "offload_activations", r->offload_activations != 0);
	key_bool(j, "autoawq_fused", r->autoawq_fused != 0);
	key_release_or_null(j, "autoawq", r->autoawq_version);
	key_bool(j, "no_zero_init", r->no_zero_init != 0);
	key_bool(j, "init_on_gpu", r->init_on_gpu != 0);
	key_str(j, "attention", gw_advise_name("attention", r->attention));
	gw_json_key(j, "loop");
	if (r->task != GW_TASK_INFER || r->loop == GW_LOOP_PLAIN)   /* inference: plain, the script's own forward */
		gw_json_string(j, gw_advise_name("loop", (int)r->loop));
	else
		gw_json_null(j);
	gw_json_key(j, "loss");
	if (r->task != GW_TASK_INFER)
		gw_json_string(j, gw_advise_name("loss", (int)r->loss));
	else
		gw_json_null(j);
	key_u64(j, "target_batch", target_batch);
	gw_json_object_end(j);
}

static void json_per_gpu(gw_json *j, const gw_advise_estimate *e)
{
	gw_json_key(j, "per_gpu");
	gw_json_object_begin(j);
	key_u64(j, "peak_allocated_bytes", e->peak_allocated_bytes);
	key_u64(j, "peak_reserved_bytes", e->peak_reserved_bytes);
	key_u64(j, "peak_device_bytes", e->peak_device_bytes);
	key_u64(j, "trainable_params", e->trainable_params);
	gw_json_key(j, "breakdown");
	gw_json_object_begin(j);
	key_u64(j, "weights_bytes", e->weights_bytes);
	key_u64(j, "gradients_bytes", e->gradients_bytes);
	key_u64(j, "optimizer_bytes", e->optimizer_bytes);
	key_u64(j, "activations_bytes", e->activations_bytes);
	key_u64(j, "kv_cache_bytes", e->kv_cache_bytes);
	key_u64(j, "workspace_bytes", e->workspace_bytes);
	key_u64(j, "cuda_context_bytes", e->cuda_context_bytes);
	key_u64(j, "paged_bytes", e->paged_bytes);
	gw_json_object_end(j);
	gw_json_object_end(j);
}

static void json_targets(gw_json *j, const gw_advise_report *r)
{
	char cc[24];

	gw_json_key(j, "targets");
	gw_json_array_begin(j);
	for (size_t i = 0; i < r->n; i++) {
		const gw_advise_result *t = &r->results[i];
		gw_json_object_begin(j);
		key_str(j, "gpu", t->target.name);
		key_str(j, "source", t->target.source);
		key_u64(j, "memory_bytes", t->target.memory_bytes);
		gw_json_key(j, "compute_capability");
		if (t->target.cc_major) {
			snprintf(cc, sizeof(cc), "%u.%u", t->target.cc_major, t->target.cc_minor);
			gw_json_string(j, cc);
		} else {
			gw_json_null(j);
		}
		key_bool(j, "fits", t->fits);
		/* "now" is a fact of this machine's GPUs only */
		gw_json_key(j, "fits_now");
		if (!strcmp(t->target.source, "local"))
			gw_json_bool(j, t->fits_now);
		else
			gw_json_null(j);
		gw_json_key(j, "in_use_bytes");
		if (!strcmp(t->target.source, "local"))
			gw_json_uint(j, t->target.in_use_bytes);
		else
			gw_json_null(j);
		key_u64(j, "max_micro_batch", t->max_micro_batch);
		key_u64(j, "peak_device_bytes", t->estimate.peak_device_bytes);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

static void json_plan(gw_json *j, const gw_advise_report *r)
{
	const gw_advise_plan *p = &r->plan;
	const gw_advise_options *o = &p->estimate.resolved;
	char args[512];

	gw_json_key(j, "plan");
	if (!r->have_plan) {
		gw_json_null(j);
		return;
	}
	gw_json_object_begin(j);
	key_str(j, "gpu", r->results[r->plan_target].target.name);
	key_bool(j, "fits", p->fits);
	gw_json_key(j, "fits_now");
	if (!strcmp(r->results[r->plan_target].target.source, "local"))
		gw_json_bool(j, p->fits && p->estimate.peak_device_bytes <= free_now(&r->results[r->plan_target].target));
	else
		gw_json_null(j);
	gw_json_key(j, "headroom_bytes");
	if (p->fits && p->estimate.peak_device_bytes <= r->results[r->plan_target].target.memory_bytes)
		gw_json_uint(j, r->results[r->plan_target].target.memory_bytes - p->estimate.peak_device_bytes);
	else
		gw_json_null(j);
	key_bool(j, "low_headroom", gw_advise_plan_low_headroom(p, r->results[r->plan_target].target.memory_bytes));
	key_u64(j, "micro_batch", p->micro_batch);
	key_u64(j, "grad_accum", p->grad_accum);
	key_u64(j, "gpus", o->gpus);
	key_u64(j, "effective_batch", p->micro_batch * p->grad_accum * (o->task == GW_TASK_INFER ? 1 : o->gpus));
	key_bool(j, "checkpointing", o->checkpointing);
	key_str(j, "precision", gw_advise_name("precision", o->precision));
	key_str(j, "weights", gw_advise_name("weights", o->weights));
	key_str(j, "optimizer", gw_advise_name("optimizer", o->optimizer));
	key_str(j, "strategy", gw_advise_name("strategy", o->strategy));
	key_str(j, "offload", gw_advise_name("offload", o->offload));
	key_bool(j, "offload_activations", o->offload_activations != 0);
	gw_json_key(j, "steps");
	gw_json_array_begin(j);
	for (size_t i = 0; i < p->nsteps; i++)
		gw_json_string(j, p->steps[i]);
	gw_json_array_end(j);
	key_u64(j, "peak_device_bytes", p->estimate.peak_device_bytes);
	gw_json_key(j, "training_arguments");
	if (p->fits && o->task != GW_TASK_INFER)
		gw_json_string(j, gw_advise_training_arguments(args, sizeof(args), p));
	else
		gw_json_null(j);
	gw_json_object_end(j);
}

static void key_price(gw_json *j, const char *k, double v, int digits);

static void json_hardware(gw_json *j, const gw_advise_report *r)
{
	char cc[24];

	gw_json_key(j, "hardware");
	gw_json_array_begin(j);
	for (size_t i = 0; i < r->nranks; i++) {
		const gw_advise_rank *k = &r->ranks[i];
		gw_json_object_begin(j);
		key_str(j, "gpu", k->gpu.name);
		key_u64(j, "memory_bytes", gw_gpu_spec_usable_bytes(&k->gpu));
		snprintf(cc, sizeof(cc), "%u.%u", k->gpu.cc_major, k->gpu.cc_minor);
		key_str(j, "compute_capability", cc);
		key_bool(j, "fits", k->fits);
		key_u64(j, "max_micro_batch", k->max_micro_batch);
		key_u64(j, "peak_device_bytes", k->estimate.peak_device_bytes);
		key_str(j, "precision", gw_advise_name("precision", k->estimate.resolved.precision));
		key_price(j, "fp64_tflops", gw_gpu_spec_fp64_flops(&k->gpu) / 1e12, 3);
		gw_json_key(j, "step_seconds");
		gw_json_double(j, k->step_seconds, 6);
		gw_json_key(j, "tokens_per_second");
		gw_json_double(j, k->tokens_per_second, 1);
		gw_json_key(j, "samples_per_second");
		gw_json_double(j, k->samples_per_second, 3);
		key_str(j, "source", k->gpu.source);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

static void key_price(gw_json *j, const char *k, double v, int digits)
{
	gw_json_key(j, k);
	if (v > 0)
		gw_json_double(j, v, digits);
	else
		gw_json_null(j);
}

static void json_cloud(gw_json *j, const gw_advise_report *r)
{
	gw_json_key(j, "cloud");
	gw_json_array_begin(j);
	for (size_t i = 0; i < r->ncloud; i++) {
		const gw_advise_cloud_rank *c = &r->cloud[i];
		gw_json_object_begin(j);
		key_str(j, "provider", c->instance.provider);
		key_str(j, "instance", c->instance.instance);
		key_str(j, "gpu", c->instance.gpu);
		key_u64(j, "gpus", c->instance.gpus);
		key_u64(j, "gpus_used", c->gpus_used);
		key_bool(j, "fits", c->rank.fits);
		key_u64(j, "max_micro_batch", c->rank.max_micro_batch);
		key_u64(j, "peak_device_bytes", c->rank.estimate.peak_device_bytes);
		gw_json_key(j, "step_seconds");
		gw_json_double(j, c->rank.step_seconds, 6);
		gw_json_key(j, "samples_per_second");
		gw_json_double(j, c->samples_per_second, 3);
		key_price(j, "price_usd_per_hour", c->instance.price_usd_per_hour, 4);
		key_price(j, "usd_per_million_samples", c->usd_per_million_samples, 4);
		gw_json_key(j, "note");
		if (c->instance.note)
			gw_json_string(j, c->instance.note);
		else
			gw_json_null(j);
		key_str(j, "written", c->instance.written);
		key_str(j, "source", c->instance.source);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

char *gw_advise_report_json(const gw_advise_report *r, int indent)
{
	gw_json *j;
	char *text = NULL;

	if (!r || !(j = gw_json_new(indent)))
		return NULL;
	gw_json_object_begin(j);
	key_str(j, "gpuwise_version", gw_version());   /* as every --json output of gpuwise */
	json_model(j, &r->model, r->from);
	json_options(j, &r->shown.resolved, r->target_batch);
	json_per_gpu(j, &r->shown);
	json_targets(j, r);
	json_plan(j, r);
	if (r->have_ranks) {
		json_hardware(j, r);
		json_cloud(j, r);
	}
	gw_json_object_end(j);
	if (gw_json_text(j))
		text = gw__strdup(gw_json_text(j));
	gw_json_free(j);
	return text;
}
