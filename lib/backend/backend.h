/* The vendor backends (lib/backend/): one struct of callbacks each,
 * listed once in gw__backends[] (lib/backend/backends.c). */
#ifndef GPUWISE_BACKEND_BACKEND_H
#define GPUWISE_BACKEND_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "device/device.h"

/* One vendor backend. Listed once in gw__backends[] (lib/backend/backends.c)
 * in the order they run: nvml, amdgpu, pci (adds driverless GPUs the
 * others did not claim), cuda (annotates NVIDIA devices with CUDA's view).
 * Every callback may be NULL. */
/* Each backend fills it with designated initializers (in lib/backend/), so a
 * new callback edits only this struct and the backends that offer it; an
 * unset callback is NULL: the backend does not offer it. */
struct gw_backend {
	const char *name;
	gw_backend_id id;   /* the public number of this backend */
	/* Load the library / check the subsystem, enumerate and fill static
	 * info of the devices it serves (add new ones or annotate existing ones
	 * found by bus id / UUID). Fill *status. Return 0 even when the vendor
	 * is absent (status says why); negative only for ENOMEM-like failures. */
	int (*open)(gw_context *ctx, void **state, gw_backend_status *status);
	void (*close)(void *state);
	int (*sample)(void *state, gw_context *ctx, gw_device *dev, gw_device_sample *out);
	/* Fill a malloc'd array of processes (pid, type, memory, MIG ids);
	 * /proc resolution is done by the caller. */
	int (*processes)(void *state, gw_context *ctx, gw_device *dev, gw_process **out, size_t *count);
	/* Per-process utilisation, one entry per pid (malloc'd); NULL when
	 * the backend has none (gw_device_process_utilization says ENOTSUP). */
	int (*process_util)(void *state, gw_context *ctx, gw_device *dev, gw_process_util **out, size_t *count);
	/* Xid events (NVIDIA), for the sampler's event thread: they touch the
	 * backend's library and device handles only, never a gw_device, so
	 * they may run beside a pass. events_open makes an empty set;
	 * events_add registers one device's handle on it (0, GW_ENOTSUP, GW_ELOST,
	 * ...); events_wait returns 1 with the device handle and the Xid, 0
	 * when timeout_ms passed without one, negative when the wait failed
	 * (a lost GPU); events_close frees the set. */
	int (*events_open)(void *state, void **set);
	int (*events_add)(void *state, void *set, void *handle);
	int (*events_wait)(void *state, void *set, unsigned timeout_ms, void **handle, uint64_t *xid);
	void (*events_close)(void *state, void *set);
	/* Topology and peer access from a to b (both this backend's); NULL
	 * when the backend cannot tell. Fills what it reads, leaves the rest. */
	int (*peer)(void *state, gw_context *ctx, gw_device *a, gw_device *b, gw_peer_info *out);
};

extern const gw_backend *const gw__backends[];  /* NULL-terminated */

extern const gw_backend gw__backend_nvml;
extern const gw_backend gw__backend_cuda;
extern const gw_backend gw__backend_pci;
extern const gw_backend gw__backend_amdgpu;

#endif
