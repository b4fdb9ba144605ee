/* CPU affinity near a PCI device (lib/bench/affinity.c): which CPUs sysfs
 * calls local to a GPU (binding the calling thread to them: core/thread.h).
 * bench binds before it allocates host buffers, so first-touch puts them on
 * the GPU's NUMA node, as a well-placed training process would have them. */
#ifndef GPUWISE_BENCH_AFFINITY_H
#define GPUWISE_BENCH_AFFINITY_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

/* A kernel cpulist ("0-47,96-143", "5", "" = none) into *set: the number
 * of CPUs, or GW_EPARSE (garbage, a range backwards, a CPU >= CPU_SETSIZE). */
int gw__cpulist_parse(const char *text, cpu_set_t *set);
/* *set as a cpulist ("0-3,8"); "" when empty. false when it did not fit. */
bool gw__cpulist_format(const cpu_set_t *set, char *out, size_t size);
/* <root>/sys/bus/pci/devices/<bus id>/local_cpulist: the CPUs local to the
 * device. Returns their number, GW_ENOTFOUND without the file, GW_EPARSE. */
int gw__pci_local_cpus(const char *root, const char *bus_id, cpu_set_t *set);

#endif
