/* The status page's last hour (cli/exporter.h "history"): per GPU, one
 * byte per metric and 10-second slot, 360 slots, in a ring. A slot holds
 * the mean of the passes that fell in it; a slot without any (the
 * exporter was stopped, the GPU not read) is EXP_HIST_NONE and leaves a
 * gap in the chart. Only the collector's thread touches it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exporter.h"

struct exp_hist_gpu {
	uint8_t v[EXP_HIST_SLOTS][EXP_HIST_METRICS];
	float sum[EXP_HIST_METRICS]; /* the newest slot, still filling */
	uint16_t n[EXP_HIST_METRICS];
};

struct exp_history {
	int count;
	int64_t newest;              /* slot number (unix time / EXP_HIST_SLOT_S) of the newest slot; 0: none yet */
	struct exp_hist_gpu *gpu;
};

struct exp_history *exp_history_new(void)
{
	return calloc(1, sizeof(struct exp_history));
}

void exp_history_free(struct exp_history *h)
{
	if (h)
		free(h->gpu);
	free(h);
}

size_t exp_history_bytes_per_gpu(void)
{
	return sizeof(struct exp_hist_gpu);
}

/* The newest slot's mean into the ring. */
static void close_slot(struct exp_hist_gpu *g, int64_t slot)
{
	uint8_t *v = g->v[slot % EXP_HIST_SLOTS];

	for (int m = 0; m < EXP_HIST_METRICS; m++) {
		v[m] = g->n[m] ? (uint8_t)lrintf(g->sum[m] / g->n[m]) : EXP_HIST_NONE;
		g->sum[m] = 0;
		g->n[m] = 0;
	}
}

static void add_value(struct exp_hist_gpu *g, int m, double v, bool ok)
{
	if (!ok || isnan(v))
		return;
	g->sum[m] += (float)(v < 0 ? 0 : v > 250 ? 250 : v);
	g->n[m]++;
}

void exp_history_add(struct exp_history *h, const struct exp_snapshot *s)
{
	int64_t slot = (int64_t)(s->time / EXP_HIST_SLOT_S);

	if (!h || s->time <= 0)
		return;
	if (s->count != h->count || !h->gpu) { /* the first pass (the set of GPUs never changes) */
		free(h->gpu);
		h->count = 0;
		if (s->count <= 0 || !(h->gpu = malloc((size_t)s->count * sizeof(*h->gpu))))
			return;
		memset(h->gpu, EXP_HIST_NONE, (size_t)s->count * sizeof(*h->gpu));
		for (int i = 0; i < s->count; i++)
			memset(h->gpu[i].sum, 0, sizeof(h->gpu[i].sum)), memset(h->gpu[i].n, 0, sizeof(h->gpu[i].n));
		h->count = s->count;
		h->newest = slot;
	}
	if (slot < h->newest) /* the clock went back: keep filling the newest slot */
		slot = h->newest;
	for (int i = 0; i < h->count; i++) {
		struct exp_hist_gpu *g = &h->gpu[i];
		const struct exp_device *d = &s->dev[i];
		const gw_device_sample *x = &d->sample;

		if (slot > h->newest) {
			close_slot(g, h->newest);
			for (int64_t k = h->newest + 1; k < slot && k <= h->newest + EXP_HIST_SLOTS; k++)
				memset(g->v[k % EXP_HIST_SLOTS], EXP_HIST_NONE, EXP_HIST_METRICS);
		}
		if (!d->up)
			continue;
		add_value(g, EXP_HIST_UTIL, (double)x->gpu_util.v, GW_VALID(x->gpu_util));
		add_value(g, EXP_HIST_MEMORY,
			  GW_VALID(d->info.memory_total) && d->info.memory_total.v ?
				  100.0 * (double)x->memory_used.v / (double)d->info.memory_total.v : NAN,
			  GW_VALID(x->memory_used));
		add_value(g, EXP_HIST_POWER, GW_VALID(x->power_limit) && x->power_limit.v > 0 ?
				  100.0 * x->power_draw.v / x->power_limit.v : NAN, GW_VALID(x->power_draw));
		add_value(g, EXP_HIST_TEMPERATURE, x->temperature.v, GW_VALID(x->temperature));
	}
	h->newest = slot;
}

int exp_history_get(const struct exp_history *h, int gpu, int metric, uint8_t out[EXP_HIST_SLOTS])
{
	const struct exp_hist_gpu *g;
	int any = 0;

	if (!h || gpu < 0 || gpu >= h->count || metric < 0 || metric >= EXP_HIST_METRICS)
		return 0;
	g = &h->gpu[gpu];
	for (int k = 0; k < EXP_HIST_SLOTS; k++) {
		int64_t slot = h->newest - (EXP_HIST_SLOTS - 1) + k;

		if (slot == h->newest)
			out[k] = g->n[metric] ? (uint8_t)lrintf(g->sum[metric] / g->n[metric]) : EXP_HIST_NONE;
		else
			out[k] = slot < 0 ? EXP_HIST_NONE : g->v[slot % EXP_HIST_SLOTS][metric];
		any |= out[k] != EXP_HIST_NONE;
	}
	return any;
}
