/* The GPU usage summary of one job (cli/usage.h). */
#include <string.h>

#include "usage.h"

void usage_init(struct usage *u)
{
	memset(u, 0, sizeof(*u));
	u->energy_ok = true;
}

bool usage_add(struct usage *u, gw_selection sel)
{
	if (u->n >= USAGE_MAX_GPUS)
		return false;
	u->energy_first[u->n] = -1;
	u->dev[u->n++] = sel;
	return true;
}

void usage_sample(gw_context *ctx, struct usage *u)
{
	uint64_t mem = 0;

	u->all_idle = u->n > 0;
	for (int i = 0; i < u->n; i++) {
		gw_device_sample s;

		if (gw_device_sample_read(ctx, u->dev[i].device, &s) < 0) {
			u->energy_ok = false;
			u->all_idle = false;    /* unknown is never idle */
			continue;
		}
		u->all_idle &= GW_VALID(s.gpu_util) && s.gpu_util.v < ACCT_IDLE_PERCENT;
		/* A MIG device has no utilisation of its own: its GPU's. */
		if (GW_VALID(s.gpu_util)) {
			u->samples[i]++;
			u->idle[i] += s.gpu_util.v < ACCT_IDLE_PERCENT;
			u->util_sum += (double)s.gpu_util.v;
			u->util_n++;
		}
		if (u->dev[i].mig >= 0 && u->dev[i].mig < s.mig_count && GW_VALID(s.mig[u->dev[i].mig].memory_used))
			mem += s.mig[u->dev[i].mig].memory_used.v;
		else if (u->dev[i].mig < 0 && GW_VALID(s.memory_used))
			mem += s.memory_used.v;
		/* Energy is the whole GPU's: not a MIG device's share. */
		if (u->dev[i].mig >= 0 || !GW_VALID(s.energy))
			u->energy_ok = false;
		else {
			if (u->energy_first[i] < 0)
				u->energy_first[i] = s.energy.v;
			u->energy_last[i] = s.energy.v;
		}
	}
	if (mem > u->max_memory)
		u->max_memory = mem;
}

void usage_fill(struct acct_job *a, const struct usage *u, double seconds)
{
	double energy = 0;

	a->gpus = u->n;
	a->gpu_seconds = seconds * u->n;
	a->idle_gpu_seconds = 0;
	for (int i = 0; i < u->n; i++) {
		if (u->samples[i])
			a->idle_gpu_seconds += seconds * u->idle[i] / u->samples[i];
		energy += u->energy_last[i] - u->energy_first[i];
	}
	a->mean_util = u->util_n ? u->util_sum / u->util_n : -1;
	a->max_memory = u->max_memory;
	a->energy_j = u->energy_ok && energy >= 0 ? energy : -1;
}
