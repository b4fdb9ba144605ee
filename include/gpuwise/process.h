/* gpuwise — what a GPU process does: its share of the GPU and its host side.
 *
 * gw_device_processes() (context.h) says who holds a GPU. These say how
 * busy each holder keeps it (NVML's per-process utilisation samples) and
 * what the process costs on the host (CPU time, resident memory, age, read
 * from /proc under the context's root), for `gpuwise top` and monitors.
 * Rates (CPU %) are the caller's: two readings and the time between them.
 */
#ifndef GPUWISE_PROCESS_H
#define GPUWISE_PROCESS_H

#include <stddef.h>
#include <stdint.h>

#include "gpuwise/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One process's use of one GPU over the driver's last sampling period. */
typedef struct gw_process_util {
	uint32_t pid;
	gw_u64 sm_util;       /* percent of the SMs' time */
	gw_u64 mem_util;      /* percent of memory-controller time */
	gw_u64 enc_util;
	gw_u64 dec_util;
} gw_process_util;

/* The utilisation of every process that used device `index` lately, one
 * entry per pid (the newest sample), as a malloc'd array in *out (free it
 * with gw_process_util_free()). An empty list (*out = NULL, *count = 0)
 * when no process ran; GW_ENOTSUP when the driver does not sample
 * processes (AMD, old NVIDIA drivers): unknown, which is not idle. */
int gw_device_process_utilization(gw_context *ctx, int index, gw_process_util **out, size_t *count);
void gw_process_util_free(gw_process_util *list);

/* A process as the host sees it, from /proc/<pid>/stat and status. */
typedef struct gw_host_process {
	uint32_t pid;
	gw_f64 cpu_time;      /* seconds of CPU, user + system, since it started */
	gw_u64 rss;           /* bytes resident in host memory */
	gw_f64 start_time;    /* when it started, Unix seconds (needs /proc/stat's btime) */
} gw_host_process;

/* Read pid's host facts into *out. GW_ENOTFOUND when there is no such
 * process here (it ended, or lives in another pid namespace); fields that
 * cannot be read are UNREAD or NOT_SUPPORTED. */
int gw_process_host_read(gw_context *ctx, uint32_t pid, gw_host_process *out);

#ifdef __cplusplus
}
#endif
#endif
