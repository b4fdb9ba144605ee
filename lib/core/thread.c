/* The calling thread's CPU affinity: the system calls behind bench's
 * binding to a GPU's local CPUs (lib/bench/affinity.c). */
#include <sched.h>

#include "gpuwise/gpuwise.h"
#include "core/thread.h"

int gw__thread_affinity_get(cpu_set_t *set)
{
	CPU_ZERO(set);
	return sched_getaffinity(0, sizeof(*set), set) == 0 ? 0 : GW_EIO;
}

int gw__thread_affinity_set(const cpu_set_t *set)
{
	return sched_setaffinity(0, sizeof(*set), set) == 0 ? 0 : GW_EIO;
}
