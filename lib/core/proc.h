/* /proc process resolution (lib/core/proc.c). */
#ifndef GPUWISE_CORE_PROC_H
#define GPUWISE_CORE_PROC_H

#include <stdint.h>

#include "gpuwise/gpuwise.h"

/* Fill pid_resolved, uid, user and command of p from <root>/proc/<pid>
 * and <root>/etc/passwd. */
void gw__process_resolve(const char *root, gw_process *p);
/* Fill out (gw_process_host_read) from <root>/proc/<pid>/stat and status;
 * boot_time is /proc/stat's btime, or < 0 when unknown (start_time UNREAD). */
int gw__process_host_read(const char *root, uint32_t pid, double boot_time, gw_host_process *out);
/* <root>/proc/stat's btime in *out; GW_ENOTFOUND when it cannot be read. */
int gw__boot_time(const char *root, double *out);

#endif
