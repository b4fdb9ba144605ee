/* The device records and the backends' statuses: what a backend fills
 * (add a device, find one by bus id or UUID, say why one cannot be read,
 * its status message) and the names of their enums. It sits below the
 * backends, which call it, and below the context, which walks the backend
 * list (lib/context/): so no module calls back up into the one that calls it. */
#include <stdarg.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/message.h"
#include "core/vendor.h"
#include "core/pci.h"
#include "device/device.h"

static void device_defaults(gw_device *d, int index)
{
	memset(d, 0, sizeof(*d));
	d->info.index = index;
	d->info.cuda_index = -1;
	d->info.nvml_index = -1;
	d->info.backend = "";
}

gw_device *gw__device_add(gw_context *ctx)
{
	if (ctx->ndevices == ctx->cap) {
		int ncap = ctx->cap ? ctx->cap * 2 : 8;
		gw_device *nd = gw__realloc(ctx->devices, (size_t)ncap * sizeof(*nd));

		if (!nd) {
			gw__error_set(GW_ENOMEM, "out of memory adding a device");
			return NULL;
		}
		ctx->devices = nd;
		ctx->cap = ncap;
	}
	device_defaults(&ctx->devices[ctx->ndevices], ctx->ndevices);
	return &ctx->devices[ctx->ndevices++];
}

gw_device *gw__device_by_bus_id(gw_context *ctx, const char *bus_id)
{
	char norm[16];

	if (gw__pci_bus_id_normalize(bus_id, norm) < 0)
		return NULL;
	for (int i = 0; i < ctx->ndevices; i++) {
		gw_device *d = &ctx->devices[i];

		if (GW_VALID(d->info.pci_bus_id) && !strcmp(d->info.pci_bus_id.s, norm))
			return d;
	}
	return NULL;
}

gw_device *gw__device_by_uuid(gw_context *ctx, const char *uuid)
{
	for (int i = 0; i < ctx->ndevices; i++) {
		gw_device *d = &ctx->devices[i];

		if (GW_VALID(d->info.uuid) && !strcmp(d->info.uuid.s, uuid))
			return d;
	}
	return NULL;
}

/* The PCI bus of the context's root, walked once (lib/core/pci.c scans). */
struct gw__pci_cache {
	int rc;
	char error[512];
	gw__msg msg;        /* the error's format and values, for its translation */
	gw_pci_fn *fns;
	size_t count;
};

int gw__pci_scan_ctx(gw_context *ctx, const gw_pci_fn **out, size_t *count)
{
	struct gw__pci_cache *c = ctx->pci;

	*out = NULL;
	*count = 0;
	if (!c) {
		/* Not kept when memory ran out: the next caller tries again. */
		if (!(c = gw__calloc(1, sizeof(*c))))
			return gw__error_set(GW_ENOMEM, "out of memory scanning the PCI bus");
		if ((c->rc = gw__pci_scan(ctx->root, &c->fns, &c->count)) == GW_ENOMEM) {
			gw__free(c);
			return GW_ENOMEM;
		}
		if (c->rc < 0)
			gw__msg_from_last(&c->msg, c->error, sizeof(c->error));
		ctx->pci = c;
	}
	if (c->rc < 0)   /* the same error again, still translatable where printed */
		return gw__error_restore(c->rc, &c->msg, c->error);
	*out = c->fns;
	*count = c->count;
	return 0;
}

void gw__pci_scan_ctx_free(gw_context *ctx)
{
	if (ctx->pci)
		gw__free(ctx->pci->fns);
	gw__free(ctx->pci);
	ctx->pci = NULL;
}

const char *gw_topology_level_name(gw_topology_level level)
{
	switch (level) {
	case GW_TOPOLOGY_INTERNAL: return "INTERNAL";
	case GW_TOPOLOGY_SINGLE: return "PIX";
	case GW_TOPOLOGY_MULTIPLE: return "PXB";
	case GW_TOPOLOGY_HOSTBRIDGE: return "PHB";
	case GW_TOPOLOGY_NODE: return "NODE";
	case GW_TOPOLOGY_SYSTEM: return "SYS";
	}
	return NULL;
}

const char *gw_p2p_cap_name(gw_p2p_cap cap)
{
	static const char *const names[GW_P2P_CAP_COUNT] = { "read", "write", "nvlink", "atomics", "pci" };

	return (unsigned)cap < GW_P2P_CAP_COUNT ? names[cap] : NULL;
}

const char *gw_p2p_status_name(gw_p2p_status status)
{
	static const char *const names[] = {
		"ok", "chipset_not_supported", "gpu_not_supported", "ioh_topology_not_supported",
		"disabled_by_regkey", "not_supported", "unknown",
	};

	return (unsigned)status < GW_ARRAY_SIZE(names) ? names[status] : NULL;
}

/* ctx's slot of st, -1 when st is not one of ctx's statuses. */
static int status_slot(const gw_context *ctx, const gw_backend_status *st)
{
	for (int i = 0; ctx && i < (int)GW_ARRAY_SIZE(ctx->status); i++)
		if (st == &ctx->status[i])
			return i;
	return -1;
}

void gw__status_vmsg(gw_context *ctx, gw_backend_status *st, const char *fmt, va_list ap)
{
	int i = status_slot(ctx, st);
	gw__msg unkept;

	gw__msg_vset(i < 0 ? &unkept : &ctx->status_msg[i], st->message, sizeof(st->message), fmt, ap);
}

void gw__status_msg(gw_context *ctx, gw_backend_status *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gw__status_vmsg(ctx, st, fmt, ap);
	va_end(ap);
}

void gw__status_msg_from_last(gw_context *ctx, gw_backend_status *st)
{
	int i = status_slot(ctx, st);
	gw__msg unkept;

	gw__msg_from_last(i < 0 ? &unkept : &ctx->status_msg[i], st->message, sizeof(st->message));
}

const char *gw_context_backend_message(const gw_context *ctx, const gw_backend_status *st, char *buf, size_t size)
{
	int i = status_slot(ctx, st);
	const char *t;

	if (buf && size)
		buf[0] = '\0';
	if (!st)
		return buf && size ? buf : "";
	if (!buf || !size)
		return st->message;
	t = i < 0 ? st->message : gw__msg_text(&ctx->status_msg[i], st->message, buf, size);
	if (t != buf)
		gw__strlcpy(buf, t, size);
	return buf;
}

void gw__device_reason(gw_device *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gw__msg_vset(&d->reason_msg, d->info.health_reason, sizeof(d->info.health_reason), fmt, ap);
	va_end(ap);
}

void gw__device_reason_quoting(const gw_context *ctx, gw_device *d, const gw_backend_status *st, const char *fmt, ...)
{
	int i = status_slot(ctx, st);
	va_list ap;

	va_start(ap, fmt);
	gw__msg_vset(&d->reason_msg, d->info.health_reason, sizeof(d->info.health_reason), fmt, ap);
	va_end(ap);
	if (i >= 0)
		gw__msg_nest(&d->reason_msg, d->reason_msg.npieces - 1, &ctx->status_msg[i]);
}

const char *gw_device_health_reason(const gw_context *ctx, int index, char *buf, size_t size)
{
	const gw_device *d;
	const char *t;

	if (buf && size)
		buf[0] = '\0';
	if (!ctx || index < 0 || index >= ctx->ndevices)
		return buf && size ? buf : "";
	d = &ctx->devices[index];
	if (!buf || !size)
		return d->info.health_reason;
	t = gw__msg_text(&d->reason_msg, d->info.health_reason, buf, size);
	if (t != buf)
		gw__strlcpy(buf, t, size);
	return buf;
}

const gw_backend_status *gw_context_backends(const gw_context *ctx, int *count)
{
	if (count)
		*count = ctx ? ctx->nbackends : 0;
	return ctx ? ctx->status : NULL;
}

const gw_backend_status *gw_context_backend(const gw_context *ctx, const char *name)
{
	if (!ctx || !name)
		return NULL;
	for (int i = 0; i < ctx->nbackends; i++)
		if (ctx->status[i].name && !strcmp(ctx->status[i].name, name))
			return &ctx->status[i];
	return NULL;
}

const gw_backend_status *gw_context_backend_by_id(const gw_context *ctx, gw_backend_id id)
{
	for (int i = 0; ctx && i < ctx->nbackends; i++)
		if (ctx->status[i].id == id)
			return &ctx->status[i];
	return NULL;
}

const char *gw_vendor_name(gw_vendor v)
{
	return gw__vendor_traits_of(v)->id;
}

const char *gw_health_name(gw_health h)
{
	switch (h) {
	case GW_HEALTH_OK: return "ok";
	case GW_HEALTH_LOST: return "lost";
	case GW_HEALTH_ERROR: return "error";
	case GW_HEALTH_NO_DRIVER: return "no-driver";
	case GW_HEALTH_UNSUPPORTED: return "unsupported";
	default: return "unknown";
	}
}

const char *gw_field_state_name(gw_field_state s)
{
	switch (s) {
	case GW_FIELD_VALID: return "valid";
	case GW_FIELD_NOT_SUPPORTED: return "not-supported";
	case GW_FIELD_ERROR: return "error";
	default: return "unread";
	}
}

const char *gw_backend_state_name(gw_backend_state s)
{
	switch (s) {
	case GW_BACKEND_OK: return "ok";
	case GW_BACKEND_LIBRARY_MISSING: return "library-missing";
	case GW_BACKEND_INIT_FAILED: return "init-failed";
	case GW_BACKEND_NOTHING_FOUND: return "nothing-found";
	default: return "not-tried";
	}
}
