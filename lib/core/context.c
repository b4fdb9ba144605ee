/* The context: runs every backend once, owns the device list, and answers
 * queries by handing them to the backend that owns each device. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

static bool backend_skipped(const gw_options *o, const gw_backend *b)
{
	switch (b->id) {
	case GW_BACKEND_ID_NVML:
		return o->flags & GW_OPT_NO_NVML;
	case GW_BACKEND_ID_CUDA:
		return o->flags & GW_OPT_NO_CUDA;
	case GW_BACKEND_ID_PCI:
	case GW_BACKEND_ID_AMDGPU:
		return o->flags & GW_OPT_NO_SYSFS;
	default:
		return false;
	}
}

int gw_context_new(gw_context **out, const gw_options *opts)
{
	gw_options defaults = GW_OPTIONS_INIT;
	gw_context *ctx;
	const char *root;

	if (!out)
		return gw__error_set(GW_EINVAL, "gw_context_new: out is NULL");
	if (!opts)
		opts = &defaults;
	if (opts->version != GW_OPTIONS_VERSION)
		return gw__error_set(GW_EINVAL, "gw_options version %u is not supported (want %d)",
				     opts->version, GW_OPTIONS_VERSION);
	if (!(ctx = gw__calloc(1, sizeof(*ctx))))
		return gw__error_set(GW_ENOMEM, "out of memory creating a context");
	ctx->opts = *opts;
	root = opts->root ? opts->root : getenv("GPUWISE_ROOT");
	if (!root || !*root)
		root = "/";
	if (strlen(root) >= sizeof(ctx->root)) {
		gw__free(ctx);
		return gw__error_set(GW_EINVAL, "GPUWISE_ROOT is too long");
	}
	gw__strlcpy(ctx->root, root, sizeof(ctx->root));

	for (int i = 0; gw__backends[i] && i < (int)GW_ARRAY_SIZE(ctx->status); i++) {
		const gw_backend *b = gw__backends[i];
		gw_backend_status *st = &ctx->status[i];
		int rc;

		ctx->nbackends = i + 1;
		st->name = b->name;
		st->id = b->id;
		if (backend_skipped(opts, b) || !b->open)
			continue;
		rc = b->open(ctx, &ctx->state[i], st);
		if (rc == GW_ENOMEM) {
			gw_context_free(ctx);
			return gw__error_set(GW_ENOMEM, "out of memory enumerating GPUs (%s)", b->name);
		}
	}
	for (int i = 0; i < ctx->ndevices; i++) {
		ctx->devices[i].info.index = i;
		ctx->devices[i].info.backend_id = ctx->devices[i].owner ? ctx->devices[i].owner->id : GW_BACKEND_ID_NONE;
	}
	gw_error_clear();
	*out = ctx;
	return 0;
}

void gw_context_free(gw_context *ctx)
{
	if (!ctx)
		return;
	/* Close in reverse order: cuda before nvml, as they were opened. */
	for (int i = ctx->nbackends - 1; i >= 0; i--) {
		const gw_backend *b = gw__backends[i];

		if (b->close && ctx->state[i])
			b->close(ctx->state[i]);
	}
	gw__free(ctx->devices);
	gw__free(ctx);
}

const char *gw_context_root(const gw_context *ctx)
{
	return ctx ? ctx->root : NULL;
}

int gw_device_count(const gw_context *ctx)
{
	return ctx ? ctx->ndevices : 0;
}

const gw_device_info *gw_device_get(const gw_context *ctx, int index)
{
	if (!ctx || index < 0 || index >= ctx->ndevices)
		return NULL;
	return &ctx->devices[index].info;
}

static int backend_slot(const gw_context *ctx, const gw_backend *b)
{
	for (int i = 0; i < ctx->nbackends; i++)
		if (gw__backends[i] == b)
			return i;
	return -1;
}

int gw_device_sample_read(gw_context *ctx, int index, gw_device_sample *out)
{
	gw_device *d;
	gw_device_sample s;
	int slot, rc;

	if (!ctx || !out || index < 0 || index >= ctx->ndevices)
		return gw__error_set(GW_EINVAL, "no device with index %d", index);
	d = &ctx->devices[index];
	if (d->info.health == GW_HEALTH_LOST)
		return gw__error_set(GW_ELOST, "GPU %d (%s) is lost: %s", index,
				     d->info.pci_bus_id.s, d->info.health_reason);
	memset(&s, 0, sizeof(s));
	if (!d->owner || !d->owner->sample || (slot = backend_slot(ctx, d->owner)) < 0) {
		*out = s; /* a driverless device: everything UNREAD */
		return 0;
	}
	rc = d->owner->sample(ctx->state[slot], ctx, d, &s);
	if (rc < 0)
		return rc;
	*out = s;
	return 0;
}

static int merge_by_pid(gw_process *list, size_t n)
{
	size_t w = 0;

	for (size_t r = 0; r < n; r++) {
		size_t j;

		for (j = 0; j < w; j++) {
			if (list[j].pid == list[r].pid && list[j].gpu_instance_id.v == list[r].gpu_instance_id.v) {
				list[j].type |= list[r].type;
				if (!GW_VALID(list[j].used_memory))
					list[j].used_memory = list[r].used_memory;
				break;
			}
		}
		if (j == w)
			list[w++] = list[r];
	}
	return (int)w;
}

int gw_device_processes(gw_context *ctx, int index, gw_process **out, size_t *count)
{
	gw_device *d;
	gw_process *list = NULL;
	size_t n = 0;
	int slot, rc;

	if (!ctx || !out || !count || index < 0 || index >= ctx->ndevices)
		return gw__error_set(GW_EINVAL, "no device with index %d", index);
	d = &ctx->devices[index];
	if (d->info.health == GW_HEALTH_LOST)
		return gw__error_set(GW_ELOST, "GPU %d is lost: %s", index, d->info.health_reason);
	/* No backend can list this device's processes (a GPU without a driver,
	 * an Intel GPU): that is "unknown", never "none". */
	if (!d->owner || !d->owner->processes || (slot = backend_slot(ctx, d->owner)) < 0)
		return gw__error_set(GW_ENOTSUP, "the processes on GPU %d cannot be listed through %s", index,
				     d->info.backend && *d->info.backend ? d->info.backend : "any backend");
	if ((rc = d->owner->processes(ctx->state[slot], ctx, d, &list, &n)) < 0)
		return rc;
	n = (size_t)merge_by_pid(list, n);
	for (size_t i = 0; i < n; i++)
		gw__process_resolve(ctx->root, &list[i]);
	if (n == 0) {
		gw__free(list);
		list = NULL;
	}
	*out = list;
	*count = n;
	return 0;
}

void gw_processes_free(gw_process *list)
{
	gw__free(list);
}

static bool uuid_matches(const char *uuid, const char *sel)
{
	size_t n = strlen(sel);

	if (!strncasecmp(uuid, sel, n))
		return true;
	/* "8a5f..." also matches "GPU-8a5f..." */
	return !strncmp(uuid, "GPU-", 4) && !strncasecmp(uuid + 4, sel, n);
}

int gw_device_find(const gw_context *ctx, const char *sel, int *out)
{
	char norm[16];
	char *end;
	long idx;
	int found = -1;

	if (!ctx || !sel || !*sel || !out)
		return gw__error_set(GW_EINVAL, "empty device selector");
	idx = strtol(sel, &end, 10);
	if (*end == '\0') {
		if (idx < 0 || idx >= ctx->ndevices)
			return gw__error_set(GW_ENOTFOUND, "no GPU with index %ld (found %d)", idx, ctx->ndevices);
		*out = (int)idx;
		return 0;
	}
	if (gw__pci_bus_id_normalize(sel, norm) == 0) {
		for (int i = 0; i < ctx->ndevices; i++)
			if (GW_VALID(ctx->devices[i].info.pci_bus_id) && !strcmp(ctx->devices[i].info.pci_bus_id.s, norm)) {
				*out = i;
				return 0;
			}
	}
	for (int i = 0; i < ctx->ndevices; i++) {
		const gw_device_info *d = &ctx->devices[i].info;

		if (!GW_VALID(d->uuid) || !uuid_matches(d->uuid.s, sel))
			continue;
		if (found >= 0)
			return gw__error_set(GW_EINVAL, "'%s' matches more than one GPU; give more of the UUID", sel);
		found = i;
	}
	if (found < 0)
		return gw__error_set(GW_ENOTFOUND, "no GPU matches '%s'", sel);
	*out = found;
	return 0;
}

const gw_driver_info *gw_context_driver(const gw_context *ctx)
{
	static const gw_driver_info unread; /* every field UNREAD */

	return ctx ? &ctx->driver : &unread;
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
	switch (v) {
	case GW_VENDOR_NVIDIA: return "nvidia";
	case GW_VENDOR_AMD: return "amd";
	case GW_VENDOR_INTEL: return "intel";
	default: return "unknown";
	}
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

const char *gw_version(void)
{
	return GPUWISE_VERSION;
}
