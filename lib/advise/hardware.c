/* --hardware: every GPU of the spec table (data/gpu_specs.tsv) for one run:
 * does it fit, the largest micro-batch, and a time estimate from FLOPs and
 * memory traffic at a stated fraction of the datasheet peak
 * (GW_ADVISE_MFU, GW_ADVISE_MBU). docs/advise.md §10 gives the formulas. */
#include <stdlib.h>
#include <string.h>

#include "core/os.h"
#include "core/error.h"
#include "gpuwise/advise.h"
#include "advise/advise_int.h"

/* Peak FLOP/s for the run's precision; a type the GPU lacks (bf16 before
 * Ampere) runs at its FP32 rate. */
static double peak_flops(const gw_gpu_spec *g, gw_precision p)
{
	double v;

	switch (p) {
	case GW_PRECISION_TF32: v = g->tf32_flops; break;
	case GW_PRECISION_AMP_FP16:
	case GW_PRECISION_FP16: v = g->fp16_flops; break;
	case GW_PRECISION_AMP_BF16:
	case GW_PRECISION_BF16: v = g->bf16_flops; break;
	default: v = 0; break;
	}
	return v > 0 ? v : g->fp32_flops;
}

/* FLOPs per token of training: forward 2·P, backward 4·P (2·P without
 * weight gradients, as LoRA's frozen base), one more forward when every
 * layer is recomputed (Kaplan et al. 2020, §2.1: C ≈ 6·N per token). */
static double train_flops_per_token(const gw_model *m, const gw_advise_options *r)
{
	double p = gw__advise_active_params(m);   /* a mixture of experts: what a token runs through */
	double k = r->task == GW_TASK_TRAIN ? 6 : 4;

	return (k + (r->checkpointing ? 2 : 0)) * p;
}

static void times(gw_advise_rank *k, const gw_model *m, const gw_advise_estimate *e)
{
	const gw_advise_options *r = &e->resolved;
	double flops = GW_ADVISE_MFU * peak_flops(&k->gpu, r->precision);
	double bw = GW_ADVISE_MBU * (double)k->gpu.bandwidth_bytes_per_s, b = (double)r->batch;

	k->step_seconds = k->tokens_per_second = k->samples_per_second = 0;
	if (flops <= 0 || bw <= 0)
		return;
	if (m->kind == GW_MODEL_VISION) {
		/* per image: the forward's FLOPs, ×3 with the backward (×2 for
		 * LoRA, +1 when checkpointing recomputes the forward) */
		double fwd = gw__advise_vision_forward_flops(m, r);
		double mult = r->task == GW_TASK_INFER ? 1 : (r->task == GW_TASK_TRAIN ? 3 : 2) + (r->checkpointing ? 1 : 0);
		k->step_seconds = b * fwd * mult / flops;
		k->samples_per_second = b / k->step_seconds;
		k->tokens_per_second = k->samples_per_second * (double)r->seq;
		return;
	}
	if (r->task != GW_TASK_INFER) {
		/* An encoder-decoder model's encoder reads the source and its
		 * decoder the target: about half the parameters see each. */
		double t = r->decoder_seq ? (double)r->decoder_seq : (double)r->seq;
		double tokens = b * (m->kind == GW_MODEL_ENCODER_DECODER ? ((double)r->seq + t) / 2 : (double)r->seq);
		k->step_seconds = tokens * train_flops_per_token(m, r) / flops;
		k->tokens_per_second = tokens / k->step_seconds;
		k->samples_per_second = b / k->step_seconds;
		return;
	}
	/* Inference: the prompt in one pass, then one token at a time (an
	 * encoder-decoder model's --seq is its input alone). */
	double prompt = (double)(m->kind == GW_MODEL_ENCODER_DECODER ? r->seq : r->seq - r->new_tokens);
	double gen = (double)(r->new_tokens ? r->new_tokens : 1);
	double active = gw__advise_active_params(m);
	double t_flops = 2.0 * active * b / flops;
	/* A decode step of a mixture of experts reads the experts its tokens
	 * are routed to: at most the active share of the weights per token. */
	double read = (double)e->weights_bytes * (active < (double)m->params && b * active < (double)m->params ?
						 b * active / (double)m->params : 1);
	double t_bytes = (read + (double)e->kv_cache_bytes) / bw;
	double t_token = t_flops > t_bytes ? t_flops : t_bytes;
	k->step_seconds = 2.0 * active * b * prompt / flops + gen * t_token;
	k->tokens_per_second = b / t_token;
	k->samples_per_second = b / k->step_seconds;
}

static int by_rank(const void *a, const void *b)
{
	const gw_advise_rank *x = a, *y = b;

	if (x->fits != y->fits)
		return x->fits ? -1 : 1;
	if (x->fits && x->step_seconds != y->step_seconds)
		return x->step_seconds < y->step_seconds ? -1 : 1;
	/* the usable size each estimate was made for (gw_advise_hardware sets
	 * it), not a table lookup per comparison */
	if (x->estimate.resolved.gpu_memory_bytes != y->estimate.resolved.gpu_memory_bytes)
		return x->estimate.resolved.gpu_memory_bytes > y->estimate.resolved.gpu_memory_bytes ? -1 : 1;
	return strcmp(x->gpu.name, y->gpu.name);
}

int gw_advise_hardware(gw_advise_rank **out, size_t *count, const gw_model *m, const gw_advise_options *o)
{
	size_t n = gw_gpu_spec_count();
	gw_advise_rank *k;
	int rc;

	if (!out || !count || !m || !o)
		return gw__error_set(GW_EINVAL, "no output, model or options");
	if (!(k = gw__calloc(n ? n : 1, sizeof(*k))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		gw_advise_options r = *o;
		uint64_t usable;

		gw_gpu_spec_at(i, &k[i].gpu);
		/* what CUDA lets a run allocate, not the datasheet size (docs/advise.md §8) */
		usable = gw_gpu_spec_usable_bytes(&k[i].gpu);
		r.cc_major = k[i].gpu.cc_major;
		r.cc_minor = k[i].gpu.cc_minor;
		r.gpu_memory_bytes = usable;
		if ((rc = gw_advise_estimate_run(&k[i].estimate, m, &r)) < 0 ||
		    (rc = gw_advise_max_micro_batch(&k[i].max_micro_batch, m, &r, usable)) < 0) {
			gw__free(k);
			return rc;
		}
		k[i].fits = k[i].estimate.peak_device_bytes <= usable;
		times(&k[i], m, &k[i].estimate);
	}
	qsort(k, n, sizeof(*k), by_rank);
	*out = k;
	*count = n;
	return 0;
}

void gw_advise_ranks_free(gw_advise_rank *ranks)
{
	gw__free(ranks);
}
