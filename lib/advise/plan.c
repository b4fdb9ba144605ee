/* The plan of `advise`: the cheapest change of settings that makes a run
 * fit, following the usual ladder (micro-batch × gradient accumulation,
 * then activation checkpointing, a lower precision the GPU supports, an
 * 8-bit optimizer, ZeRO-2/ZeRO-3 across GPUs, optimizer offload); and the
 * GPU spec table (data/gpu_specs.tsv) that names GPUs without a machine. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "gpuwise/advise.h"
#include "advise/advise_int.h"

#define GW_GEN_TABLE_ROWS
#include "gpu_specs.h"

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

/* Autocast in the best half type the GPU has: bf16 from 8.0, fp16 on
 * 7.x; Pascal and older keep fp32. */
static bool rung_precision(gw_advise_options *o)
{
	bool fp32 = o->precision == GW_PRECISION_FP32 || o->precision == GW_PRECISION_TF32;

	if (!fp32 || (o->cc_major && o->cc_major < 7))
		return false;
	if (o->task == GW_TASK_INFER)
		o->precision = o->cc_major == 7 ? GW_PRECISION_FP16 : GW_PRECISION_BF16;
	else
		o->precision = o->cc_major == 7 ? GW_PRECISION_AMP_FP16 : GW_PRECISION_AMP_BF16;
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

static bool rung_offload(gw_advise_options *o)
{
	if (o->task == GW_TASK_INFER || o->offload != GW_OFFLOAD_NONE)
		return false;
	o->offload = GW_OFFLOAD_OPTIMIZER;
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

/* ---- GPUs by name --------------------------------------------------------- */

/* Lower case without spaces, dashes or underscores: "RTX 4090" = "rtx4090". */
static void squeeze(const char *in, char *out, size_t n)
{
	size_t k = 0;

	for (; *in && k + 1 < n; in++)
		if (*in != ' ' && *in != '-' && *in != '_')
			out[k++] = (char)tolower((unsigned char)*in);
	out[k] = '\0';
}

/* "312" or "19.5" TFLOPS → FLOP/s; "-" (not supported) → 0. Parsed by
 * hand: strtod would follow the process's LC_NUMERIC. */
static double tflops(const char *s)
{
	double v = 0, scale = 1;
	bool frac = false, digits = false;

	for (; *s; s++) {
		if (*s == '.' && !frac) {
			frac = true;
		} else if (*s >= '0' && *s <= '9') {
			digits = true;
			if (frac)
				v += (*s - '0') * (scale /= 10);
			else
				v = v * 10 + (*s - '0');
		} else {
			return 0;
		}
	}
	return digits ? v * 1e12 : 0;
}

int gw_gpu_spec_at(size_t i, gw_gpu_spec *out)
{
	const gw_row_gpu_specs *r;
	unsigned major = 0, minor = 0;

	if (!out)
		return gw__error_set(GW_EINVAL, "no output");
	if (i >= GW_ROWS_GPU_SPECS_COUNT)
		return gw__error_set(GW_ENOTFOUND, "no GPU spec row %zu", i);
	r = &gw_rows_gpu_specs[i];
	memset(out, 0, sizeof(*out));
	major = (unsigned)strtoul(r->cc, NULL, 10);
	if (strchr(r->cc, '.'))
		minor = (unsigned)strtoul(strchr(r->cc, '.') + 1, NULL, 10);
	out->name = r->name;
	out->memory_bytes = (uint64_t)r->memory_mib << 20;
	out->cc_major = major;
	out->cc_minor = minor;
	out->bandwidth_bytes_per_s = (uint64_t)r->bandwidth_gbs * 1000000000ull;
	out->fp32_flops = tflops(r->fp32_tflops);
	out->tf32_flops = tflops(r->tf32_tflops);
	out->fp16_flops = tflops(r->fp16_tflops);
	out->bf16_flops = tflops(r->bf16_tflops);
	out->fp8_flops = tflops(r->fp8_tflops);
	out->source = r->source;
	return 0;
}

size_t gw_gpu_spec_count(void)
{
	return GW_ROWS_GPU_SPECS_COUNT;
}

/* A whole number of the table, digits only; "-" (no source) and anything
 * else read as 0, unknown (tests/unit/test_advise.c checks every row). */
static uint64_t table_u64(const char *s)
{
	uint64_t v = 0;

	if (!s || !*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	return v;
}

/* The table's row of s, by name: gw_gpu_spec has no room for the new
 * columns (callers allocate it, docs/abi.md), so they are looked up. */
static const gw_row_gpu_specs *spec_row(const gw_gpu_spec *s)
{
	if (!s || !s->name)
		return NULL;
	for (size_t i = 0; i < GW_ROWS_GPU_SPECS_COUNT; i++)
		if (gw_rows_gpu_specs[i].name == s->name || !strcmp(gw_rows_gpu_specs[i].name, s->name))
			return &gw_rows_gpu_specs[i];
	return NULL;
}

uint64_t gw_gpu_spec_usable_bytes(const gw_gpu_spec *s)
{
	const gw_row_gpu_specs *r = spec_row(s);
	uint64_t cuda = r ? table_u64(r->cuda_total_bytes) : 0;

	if (!s)
		return 0;
	return cuda ? cuda : s->memory_bytes;
}

uint64_t gw_gpu_spec_reserved_bytes(const gw_gpu_spec *s)
{
	const gw_row_gpu_specs *r = spec_row(s);

	return r ? table_u64(r->reserved_mib) << 20 : 0;
}

static bool spec_matches(const gw_row_gpu_specs *r, const char *want)
{
	char buf[128], word[64];
	const char *s = r->match;

	squeeze(r->name, buf, sizeof(buf));
	if (!strcmp(buf, want))
		return true;
	while (*s) {
		size_t n = strcspn(s, " ");
		if (n && n < sizeof(word)) {
			memcpy(word, s, n);
			word[n] = '\0';
			squeeze(word, buf, sizeof(buf));
			if (!strcmp(buf, want))
				return true;
		}
		s += n;
		s += strspn(s, " ");
	}
	return false;
}

/* name past the brand words NVML and nvidia-smi put before the model
 * ("NVIDIA GeForce RTX 4090", "Tesla P100-PCIE-16GB"), which the table's
 * spellings leave out. */
static const char *skip_brands(const char *name)
{
	static const char *const brands[] = { "NVIDIA ", "Tesla ", "GeForce ", "Quadro " };
	bool again = true;

	while (again) {
		again = false;
		name += strspn(name, " ");
		for (size_t i = 0; i < GW_ARRAY_SIZE(brands); i++) {
			if (strncasecmp(name, brands[i], strlen(brands[i])) == 0) {
				name += strlen(brands[i]);
				again = true;
			}
		}
	}
	return name;
}

int gw_gpu_spec_find(const char *name, gw_gpu_spec *out)
{
	char want[128], shown[64] = "";

	if (!name || !out)
		return gw__error_set(GW_EINVAL, "no GPU name");
	squeeze(skip_brands(name), want, sizeof(want));
	for (size_t i = 0; *want && i < GW_ROWS_GPU_SPECS_COUNT; i++)
		if (spec_matches(&gw_rows_gpu_specs[i], want))
			return gw_gpu_spec_at(i, out);
	gw__copy_printable(shown, sizeof(shown), name, strlen(name));
	return gw__error_set(GW_ENOTFOUND, "no GPU \"%s\" in the spec table", shown);
}
