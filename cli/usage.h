/* What a supervisor saw of a job's GPUs while it ran (gpuwise run, and the
 * Slurm task prolog's sampler): one sample of each GPU when the job starts
 * and about every second after, summed into the accounting log's row
 * (utilisation, idle time, peak memory, energy). */
#ifndef GPUWISE_CLI_USAGE_H
#define GPUWISE_CLI_USAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "gpuwise/gpuwise.h"
#include "accounting.h"

#define USAGE_MAX_GPUS GW_POOL_MAX_LEASED

struct usage {
	int n;                          /* GPUs / MIG devices */
	gw_selection dev[USAGE_MAX_GPUS];
	unsigned samples[USAGE_MAX_GPUS], idle[USAGE_MAX_GPUS];
	double util_sum;
	unsigned util_n;
	uint64_t max_memory;
	double energy_first[USAGE_MAX_GPUS], energy_last[USAGE_MAX_GPUS];
	bool energy_ok;
	bool all_idle;                  /* the last sample: every GPU read, all under ACCT_IDLE_PERCENT */
};

void usage_init(struct usage *u);
/* One more GPU (or MIG device) to watch; false when there is no room. */
bool usage_add(struct usage *u, gw_selection sel);
/* Sample every GPU once. */
void usage_sample(gw_context *ctx, struct usage *u);
/* The job's GPU count, GPU-seconds, idle GPU-seconds, mean utilisation,
 * peak memory and energy over `seconds` of running, into a. */
void usage_fill(struct acct_job *a, const struct usage *u, double seconds);

#endif
