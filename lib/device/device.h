/* The device records and the context record (lib/device/device.c): what
 * the backends fill and the context (lib/context/) owns. The struct of the
 * context lives here, below the backends that write into it. */
#ifndef GPUWISE_DEVICE_DEVICE_H
#define GPUWISE_DEVICE_DEVICE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "gpuwise/gpuwise.h"
#include "core/error.h"
#include "core/path.h"
#include "core/pci.h"

typedef struct gw_backend gw_backend;

typedef struct gw_device {
	gw_device_info info;
	const gw_backend *owner;   /* backend that serves samples/processes */
	void *handle;              /* owner's per-device handle (e.g. nvmlDevice_t) */
	char sysfs_path[256];      /* /sys/bus/pci/devices/<bus id> (unresolved), or "" */
	char drm_card[32];         /* AMD: "card0", or "" */
	/* MIG devices of this GPU that CUDA numbers (CUDA_VISIBLE_DEVICES=MIG-...):
	 * their UUID as CUDA gives it and the CUDA ordinal. */
	struct {
		char uuid[48];
		int ordinal;
	} cuda_mig[GW_MAX_MIG];
	int ncuda_mig;
	gw__msg reason_msg;        /* info.health_reason, kept for translation */
} gw_device;

struct gw_context {
	char root[GW_PATH_MAX];
	gw_options opts;
	gw_device *devices;
	int ndevices;
	int cap;
	gw_driver_info driver;
	gw_backend_status status[8];
	gw__msg status_msg[8];     /* each status's message, kept for translation */
	void *state[8];            /* per-backend state, parallel to gw__backends */
	int nbackends;
	/* <root>/proc/stat's btime, read by the first gw_process_host_read()
	 * (it never changes): 1 read, -1 unreadable, 0 not tried. */
	int boot_time_state;
	double boot_time;
	/* The PCI bus as gw__pci_scan_ctx() walked it once (device.c):
	 * the amdgpu and pci backends both need it while the context opens. */
	struct gw__pci_cache *pci;
};

/* Append a zero-initialised device (all fields UNREAD, indices -1).
 * Returns NULL and sets the error on allocation failure. */
gw_device *gw__device_add(gw_context *ctx);

/* The same for the context's root, walked once per context: the array
 * stays the context's (never freed by the caller). An error is reported
 * again, with its first text, to each caller. */
int gw__pci_scan_ctx(gw_context *ctx, const gw_pci_fn **out, size_t *count);
void gw__pci_scan_ctx_free(gw_context *ctx);

/* A backend's status message (st is one of ctx->status): set from a
 * format like gw__error_set's (its values may be reasons marked N_), or
 * taken from the last error; read in the user's language with
 * gw_context_backend_message(). */
void gw__status_msg(gw_context *ctx, gw_backend_status *st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void gw__status_vmsg(gw_context *ctx, gw_backend_status *st, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
void gw__status_msg_from_last(gw_context *ctx, gw_backend_status *st);

/* d->info.health_reason, set like gw__status_msg; read in the user's
 * language with gw_device_health_reason(). */
void gw__device_reason(gw_device *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, with its last %s the message of a backend's status st (one of
 * ctx's), translated with it. */
void gw__device_reason_quoting(const gw_context *ctx, gw_device *d, const gw_backend_status *st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Look up by normalised bus id or exact UUID; NULL when absent. */
gw_device *gw__device_by_bus_id(gw_context *ctx, const char *bus_id);
gw_device *gw__device_by_uuid(gw_context *ctx, const char *uuid);

#endif
