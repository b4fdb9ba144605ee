/* The plan of `advise`: the cheapest change of settings that makes a run
 * fit, following the usual ladder (micro-batch × gradient accumulation,
 * then activation checkpointing, a lower precision the GPU supports, an
 * 8-bit optimizer, ZeRO-2/ZeRO-3 across GPUs, optimizer offload). */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "core/error.h"
#include "gpuwise/advise.h"
#include "advise/advise_int.h"

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* One rung: change o, say what changed; false when it does not apply. */
typedef bool (*rung_fn)(gw_advise_options *o);

static bool rung_checkpointing(gw_advise_options *o)
{
	if (o->task == GW_TASK_INFER || o->checkpointing)
		return false;
	o->checkpointing = true;
	return true;
}

/* Autocast in the best half type the GPU has: bf16 from 8.0, fp16 from
 * 5.3 (Maxwell's Jetson TX1, Pascal's P100 and GeForce 10: half
 * arithmetic, CUDA C Programming Guide, "Arithmetic Instructions"), so a
 * P100 tries fp16 before the ladder reaches 8-bit weights; older GPUs
 * keep fp32. */
static bool rung_precision(gw_advise_options *o)
{
	bool fp32 = o->precision == GW_PRECISION_FP32 || o->precision == GW_PRECISION_TF32;
	bool bf16 = !o->cc_major || o->cc_major >= 8;

	if (!fp32 || (o->cc_major && (o->cc_major < 5 || (o->cc_major == 5 && o->cc_minor < 3))))
		return false;
	if (o->task == GW_TASK_INFER)
		o->precision = bf16 ? GW_PRECISION_BF16 : GW_PRECISION_FP16;
	else
		o->precision = bf16 ? GW_PRECISION_AMP_BF16 : GW_PRECISION_AMP_FP16;
	if (o->task != GW_TASK_QLORA)
		o->weights = GW_WEIGHTS_AUTO;
	return true;
}

static bool rung_optimizer(gw_advise_options *o)
{
	if (o->task == GW_TASK_INFER || (o->optimizer != GW_OPTIMIZER_ADAMW && o->optimizer != GW_OPTIMIZER_ADAM &&
					 o->optimizer != GW_OPTIMIZER_ADAMW_FUSED && o->optimizer != GW_OPTIMIZER_ADAMW_HF))
		return false;
	o->optimizer = GW_OPTIMIZER_ADAMW_8BIT;
	return true;
}

static bool rung_zero2(gw_advise_options *o)
{
	if (o->task == GW_TASK_INFER || o->gpus < 2 || o->strategy != GW_STRATEGY_DDP)
		return false;
	o->strategy = GW_STRATEGY_ZERO2;
	return true;
}

static bool rung_zero3(gw_advise_options *o)
{
	if (o->task == GW_TASK_INFER || o->gpus < 2 || o->strategy == GW_STRATEGY_ZERO3 || gw__advise_fsdp(o))
		return false;
	o->strategy = GW_STRATEGY_ZERO3;
	return true;
}

/* DeepSpeed's ZeRO-Offload: the optimizer states and step in CPU memory
 * (DeepSpeedCPUAdam), which needs a ZeRO stage (ZeRO-2 on one GPU too)
 * and replaces a bitsandbytes 8-bit optimizer, whose states live on the
 * GPU: the two do not combine. */
static bool rung_offload(gw_advise_options *o)
{
	if (o->task == GW_TASK_INFER || o->offload != GW_OFFLOAD_NONE)
		return false;
	o->offload = GW_OFFLOAD_OPTIMIZER;
	if (o->strategy == GW_STRATEGY_DDP)
		o->strategy = GW_STRATEGY_ZERO2;
	if (o->optimizer == GW_OPTIMIZER_ADAMW_8BIT || o->optimizer == GW_OPTIMIZER_PAGED_ADAMW_8BIT)
		o->optimizer = GW_OPTIMIZER_ADAMW;
	return true;
}

/* Inference: 8-bit, then 4-bit weights. */
static bool rung_int8(gw_advise_options *o)
{
	if (o->task != GW_TASK_INFER || o->weights >= GW_WEIGHTS_INT8)
		return false;
	o->weights = GW_WEIGHTS_INT8;
	return true;
}

static bool rung_nf4(gw_advise_options *o)
{
	if (o->task != GW_TASK_INFER || o->weights >= GW_WEIGHTS_NF4)
		return false;
	o->weights = GW_WEIGHTS_NF4;
	return true;
}

static const struct {
	const char *name;
	rung_fn fn;
} ladder[] = {
	{ "checkpointing", rung_checkpointing },
	{ "precision", rung_precision },
	{ "8bit-optimizer", rung_optimizer },
	{ "zero2", rung_zero2 },
	{ "zero3", rung_zero3 },
	{ "offload-optimizer", rung_offload },
	{ "int8-weights", rung_int8 },
	{ "nf4-weights", rung_nf4 },
};

/* A later rung can undo an earlier one: offload's CPU optimizer replaces
 * the 8-bit one, which then is no step of the plan. */
static void drop_replaced_steps(gw_advise_plan *p, const gw_advise_options *cur)
{
	size_t k = 0;

	for (size_t i = 0; i < p->nsteps; i++)
		if (strcmp(p->steps[i], "8bit-optimizer") || cur->optimizer == GW_OPTIMIZER_ADAMW_8BIT)
			p->steps[k++] = p->steps[i];
	p->nsteps = k;
}

/* Micro-batch and accumulation for `target` samples per step on o->gpus
 * GPUs when at most `max_micro` fits: the fewest accumulation steps, then
 * the smallest micro-batch that reaches the target with them (32 with 20
 * fitting: 16 × 2, not 19 × 2 = 38 samples a step). */
static void split(gw_advise_plan *p, uint64_t max_micro, uint64_t target, uint64_t gpus)
{
	uint64_t per_gpu = div_up(target, gpus);

	p->micro_batch = max_micro < per_gpu ? max_micro : per_gpu;
	p->grad_accum = div_up(per_gpu, p->micro_batch);
	p->micro_batch = div_up(per_gpu, p->grad_accum);
}

int gw_advise_plan_make(gw_advise_plan *out, const gw_model *m, const gw_advise_options *o,
			uint64_t memory_bytes, uint64_t target_batch)
{
	gw_advise_plan p;
	gw_advise_options cur;
	uint64_t max_micro = 0;
	int rc;

	if (!out || !m || !o)
		return gw__error_set(GW_EINVAL, "no output, model or options");
	memset(&p, 0, sizeof(p));
	cur = *o;
	if (!target_batch)
		target_batch = o->task == GW_TASK_INFER ? o->batch : o->batch * o->grad_accum * o->gpus;
	if ((rc = gw_advise_max_micro_batch(&max_micro, m, &cur, memory_bytes)) < 0)
		return rc;
	for (size_t i = 0; !max_micro && i < GW_ARRAY_SIZE(ladder); i++) {
		gw_advise_options next = cur;
		if (!ladder[i].fn(&next))
			continue;
		cur = next;
		if (p.nsteps < GW_PLAN_STEPS_MAX)
			p.steps[p.nsteps++] = ladder[i].name;
		if ((rc = gw_advise_max_micro_batch(&max_micro, m, &cur, memory_bytes)) < 0)
			return rc;
	}
	drop_replaced_steps(&p, &cur);
	p.fits = max_micro > 0;
	p.options = cur;
	if (p.fits) {
		split(&p, max_micro, target_batch, cur.task == GW_TASK_INFER ? 1 : cur.gpus);
		if (cur.task == GW_TASK_INFER)
			p.grad_accum = 1;
		/* FSDP keeps unsharded gradients while it accumulates
		 * (memory.c, gw__advise_fsdp_gradients): size the
		 * micro-batch for that when the split accumulates. */
		if (p.grad_accum > 1 && cur.grad_accum < 2 && gw__advise_fsdp(&cur) && cur.gpus > 1) {
			cur.grad_accum = 2;
			if ((rc = gw_advise_max_micro_batch(&max_micro, m, &cur, memory_bytes)) < 0)
				return rc;
			p.fits = max_micro > 0;
			split(&p, max_micro ? max_micro : 1, target_batch, cur.gpus);
		}
	}
	if (!p.fits) {
		p.micro_batch = 1;
		p.grad_accum = div_up(target_batch, cur.gpus);
	}
	cur.batch = p.micro_batch;
	cur.grad_accum = p.grad_accum;
	p.options = cur;
	if ((rc = gw_advise_estimate_run(&p.estimate, m, &cur)) < 0)
		return rc;
	*out = p;
	return 0;
}

bool gw_advise_plan_low_headroom(const gw_advise_plan *p, uint64_t memory_bytes)
{
	if (!p || !p->fits || !memory_bytes || p->estimate.peak_device_bytes > memory_bytes)
		return false;
	return (double)(memory_bytes - p->estimate.peak_device_bytes) < GW_ADVISE_LOW_HEADROOM * (double)memory_bytes;
}
