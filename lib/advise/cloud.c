/* Cloud instances for `advise --hardware` (data/cloud_instances.tsv): each
 * instance is its GPU's spec-table rank for the run, on as many of its GPUs
 * as the run asks for (--gpus). docs/advise.md §10 says how they are ordered
 * and why a row has a price only as the provider publishes it (its own
 * price page or price-list API). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/os.h"
#include "core/error.h"
#include "advise/advise_int.h"
#include "gpuwise/advise.h"

#define GW_GEN_TABLE_ROWS
#include "cloud_instances.h"

size_t gw_cloud_instance_count(void)
{
	return GW_ROWS_CLOUD_INSTANCES_COUNT;
}

/* "-" or a plain decimal number of dollars; anything else reads as unknown
 * (the table's own test rejects it). */
static double price(const char *s)
{
	char *end = NULL;
	double v;

	if (!s || !strcmp(s, "-"))
		return 0;
	v = strtod(s, &end);
	return end && !*end && v > 0 ? v : 0;
}

int gw_cloud_instance_at(size_t i, gw_cloud_instance *out)
{
	const gw_row_cloud_instances *r;

	if (!out)
		return gw__error_set(GW_EINVAL, "no output");
	if (i >= GW_ROWS_CLOUD_INSTANCES_COUNT)
		return gw__error_set(GW_ENOTFOUND, "no cloud instance row %zu", i);
	r = &gw_rows_cloud_instances[i];
	memset(out, 0, sizeof(*out));
	out->provider = r->provider;
	out->instance = r->instance;
	out->gpu = r->gpu;
	out->gpus = (unsigned)r->gpus;
	out->price_usd_per_hour = price(r->price_usd_hour);
	out->written = r->written;
	out->note = strcmp(r->note, "-") ? r->note : NULL;
	out->source = r->source;
	return 0;
}

static const gw_advise_rank *rank_of(const gw_advise_rank *ranks, size_t n, const char *gpu)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ranks[i].gpu.name, gpu))
			return &ranks[i];
	return NULL;
}

/* Fitting first; then the priced rows, the cheaper per sample first, before
 * the unpriced ones (comparing a price only "where both have one" would not
 * be a total order: priced A < B by cost, B < unpriced C by speed, C < A by
 * speed); then the faster step; then fewer GPUs (the smaller instance);
 * then by name, so the order is stable. */
static int by_value(const void *a, const void *b)
{
	const gw_advise_cloud_rank *x = a, *y = b;
	bool xp = x->usd_per_million_samples > 0, yp = y->usd_per_million_samples > 0;
	int c;

	if (x->rank.fits != y->rank.fits)
		return x->rank.fits ? -1 : 1;
	if (xp != yp)
		return xp ? -1 : 1;
	if (xp && x->usd_per_million_samples != y->usd_per_million_samples)
		return x->usd_per_million_samples < y->usd_per_million_samples ? -1 : 1;
	if (x->rank.step_seconds != y->rank.step_seconds)
		return x->rank.step_seconds < y->rank.step_seconds ? -1 : 1;
	if (x->instance.gpus != y->instance.gpus)
		return x->instance.gpus < y->instance.gpus ? -1 : 1;
	if ((c = strcmp(x->instance.provider, y->instance.provider)))
		return c;
	return strcmp(x->instance.instance, y->instance.instance);
}

/* The ranking over `insts` (NULL: the table's rows). The unit tests pass
 * their own rows so that a priced instance is tested while the table has
 * none (docs/advise.md §10). */
int gw__advise_cloud_from(gw_advise_cloud_rank **out, size_t *count, const gw_cloud_instance *insts, size_t ninsts,
			  const gw_advise_rank *ranks, size_t nranks, uint64_t gpus)
{
	size_t n = insts ? ninsts : gw_cloud_instance_count(), k = 0;
	gw_advise_cloud_rank *c;

	if (!out || !count || (!ranks && nranks) || !gpus)
		return gw__error_set(GW_EINVAL, "no output, ranks or GPU count");
	if (!(c = gw__calloc(n ? n : 1, sizeof(*c))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		gw_cloud_instance inst;
		const gw_advise_rank *r;

		if (insts)
			inst = insts[i];
		else
			gw_cloud_instance_at(i, &inst);
		/* An instance with fewer GPUs than the run spreads over cannot run it. */
		if (inst.gpus < gpus || !(r = rank_of(ranks, nranks, inst.gpu)))
			continue;
		c[k].instance = inst;
		c[k].rank = *r;
		c[k].gpus_used = (unsigned)gpus;
		c[k].samples_per_second = r->samples_per_second * (double)gpus;
		if (inst.price_usd_per_hour > 0 && c[k].samples_per_second > 0)
			c[k].usd_per_million_samples = inst.price_usd_per_hour / 3600.0 / c[k].samples_per_second * 1e6;
		k++;
	}
	qsort(c, k, sizeof(*c), by_value);
	*out = c;
	*count = k;
	return 0;
}

int gw_advise_cloud(gw_advise_cloud_rank **out, size_t *count, const gw_advise_rank *ranks, size_t nranks,
		    uint64_t gpus)
{
	return gw__advise_cloud_from(out, count, NULL, 0, ranks, nranks, gpus);
}

void gw_advise_cloud_free(gw_advise_cloud_rank *ranks)
{
	gw__free(ranks);
}
