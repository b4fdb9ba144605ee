/* gpuwise slurm: the gres.conf of this node (cmd_slurm.c) and the per-task
 * GPU report of a TaskProlog/TaskEpilog pair (slurm_task.c). */
#ifndef GPUWISE_CLI_SLURM_H
#define GPUWISE_CLI_SLURM_H

#include <stddef.h>

#include "gpuwise/gpuwise.h"

/* One gres.conf line: a GPU (mig -1) or a MIG device of GPU `index`. */
struct gres {
	char type[GW_STR_MAX + 32];
	char files[512];
	int index, mig;
	char uuid[GW_STR_MAX];
};

/* This node's gres lines in gres.conf order, which is also the order of
 * Slurm's GPU indices (SLURM_JOB_GPUS); *skipped: GPUs left out. */
size_t slurm_collect(gw_context *ctx, struct gres *out, size_t max, int *skipped);

/* gpuwise slurm prolog / epilog: 0 or an exit status. */
int slurm_task_prolog(void);
int slurm_task_epilog(void);

#endif
