/* The calling thread's CPU affinity (lib/core/thread.c). */
#ifndef GPUWISE_CORE_THREAD_H
#define GPUWISE_CORE_THREAD_H

#include <sched.h>

/* The calling thread's affinity (sched_getaffinity/sched_setaffinity on
 * thread 0 = this one). 0 or GW_EIO (errno kept). */
int gw__thread_affinity_get(cpu_set_t *set);
int gw__thread_affinity_set(const cpu_set_t *set);

#endif
