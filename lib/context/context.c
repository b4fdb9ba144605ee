/* The context: runs every backend once, owns the device list, and answers
 * queries by handing them to the backend that owns each device. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/pci.h"
#include "core/proc.h"
#include "device/device.h"
#include "context/context.h"
#include "backend/backend.h"
#include "core/metrics.h"

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
	root = opts->root ? opts->root : gw__env_path("GPUWISE_ROOT");
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
		gw__metrics_sanitize(&ctx->devices[i].info, NULL);
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
	gw__pci_scan_ctx_free(ctx);
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

/* Compare two UUIDs or a UUID and a prefix of one, ignoring case and
 * dashes: returns true when all of `prefix` matches the start of `uuid`. */
static bool uuid_prefix_eq(const char *uuid, const char *prefix)
{
	for (;;) {
		while (*uuid == '-')
			uuid++;
		while (*prefix == '-')
			prefix++;
		if (!*prefix)
			return true;
		if (!*uuid || tolower((unsigned char)*uuid) != tolower((unsigned char)*prefix))
			return false;
		uuid++;
		prefix++;
	}
}

/* "GPU-" / "MIG-" off the front (either case), the rest returned. */
static const char *uuid_body(const char *u, const char *kind)
{
	return !strncasecmp(u, kind, 4) ? u + 4 : u;
}

/* Which CUDA ordinal each MIG device has: the cuda backend recorded the
 * UUIDs CUDA listed under this GPU; the sample has the MIG devices. */
static void mig_cuda_indices(const gw_device *d, gw_device_sample *s)
{
	for (int m = 0; m < GW_MAX_MIG; m++) {
		s->mig[m].cuda_index = -1;
		for (int k = 0; m < s->mig_count && k < d->ncuda_mig && GW_VALID(s->mig[m].uuid); k++)
			if (!strcasecmp(uuid_body(s->mig[m].uuid.s, "MIG-"), uuid_body(d->cuda_mig[k].uuid, "MIG-")))
				s->mig[m].cuda_index = d->cuda_mig[k].ordinal;
	}
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
	mig_cuda_indices(d, &s);
	gw__metrics_sanitize(NULL, &s);
	*out = s;
	return 0;
}

bool gw__device_retry_lost(gw_context *ctx, int index)
{
	gw_device *d;

	if (!ctx || index < 0 || index >= ctx->ndevices)
		return false;
	d = &ctx->devices[index];
	if (d->info.health != GW_HEALTH_LOST || !d->handle || !d->owner || !d->owner->sample)
		return false;
	d->info.health = GW_HEALTH_OK;
	d->info.health_reason[0] = '\0';
	d->reason_msg.format = NULL;
	return true;
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

/* Device `index` for a call that asks its backend about it now: a valid
 * index and arguments (args_ok), and a GPU that is not lost. */
static int live_device(gw_context *ctx, int index, bool args_ok, gw_device **d)
{
	if (!ctx || !args_ok || index < 0 || index >= ctx->ndevices)
		return gw__error_set(GW_EINVAL, "no device with index %d", index);
	*d = &ctx->devices[index];
	if ((*d)->info.health == GW_HEALTH_LOST)
		return gw__error_set(GW_ELOST, "GPU %d is lost: %s", index, (*d)->info.health_reason);
	return 0;
}

int gw_device_processes(gw_context *ctx, int index, gw_process **out, size_t *count)
{
	gw_device *d;
	gw_process *list = NULL;
	size_t n = 0;
	int slot, rc;

	if ((rc = live_device(ctx, index, out && count, &d)) < 0)
		return rc;
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

int gw_device_process_utilization(gw_context *ctx, int index, gw_process_util **out, size_t *count)
{
	gw_device *d;
	gw_process_util *list = NULL;
	size_t n = 0;
	int slot, rc;

	if ((rc = live_device(ctx, index, out && count, &d)) < 0)
		return rc;
	if (!d->owner || !d->owner->process_util || (slot = backend_slot(ctx, d->owner)) < 0)
		return gw__error_set(GW_ENOTSUP, "the per-process utilisation of GPU %d cannot be read through %s",
				     index, d->info.backend && *d->info.backend ? d->info.backend : "any backend");
	if ((rc = d->owner->process_util(ctx->state[slot], ctx, d, &list, &n)) < 0)
		return rc;
	if (n == 0) {
		gw__free(list);
		list = NULL;
	}
	*out = list;
	*count = n;
	return 0;
}

int gw_device_peer(gw_context *ctx, int a, int b, gw_peer_info *out)
{
	gw_device *da, *db;
	int slot, rc;

	if ((rc = live_device(ctx, a, out != NULL, &da)) < 0 || (rc = live_device(ctx, b, true, &db)) < 0)
		return rc;
	if (a == b)
		return gw__error_set(GW_EINVAL, "GPU %d and GPU %d are the same GPU", a, b);
	memset(out, 0, sizeof(*out));
	if (!da->owner || da->owner != db->owner || !da->owner->peer || (slot = backend_slot(ctx, da->owner)) < 0)
		return gw__error_set(GW_ENOTSUP, "the path between GPU %d and GPU %d cannot be read through %s", a, b,
				     da->info.backend && *da->info.backend ? da->info.backend : "any backend");
	return da->owner->peer(ctx->state[slot], ctx, da, db, out);
}

void gw_process_util_free(gw_process_util *list)
{
	gw__free(list);
}

int gw_process_host_read(gw_context *ctx, uint32_t pid, gw_host_process *out)
{
	gw_host_process h;
	int rc;

	if (!ctx || !out || pid == 0)
		return gw__error_set(GW_EINVAL, "no process %u", (unsigned)pid);
	if (ctx->boot_time_state == 0)
		ctx->boot_time_state = gw__boot_time(ctx->root, &ctx->boot_time) == 0 ? 1 : -1;
	if ((rc = gw__process_host_read(ctx->root, pid, ctx->boot_time_state > 0 ? ctx->boot_time : -1, &h)) < 0)
		return rc;
	*out = h;
	return 0;
}

/* ---- selectors -------------------------------------------------------- */

/* How many digits a selector needs before it is read as a UUID prefix
 * rather than an index: `gpuwise list` prints 8 hex digits of each UUID,
 * and no machine has ten million GPUs. */
#define SELECTOR_UUID_DIGITS 8

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* Does the UUID field match selector body `sel` (kind "GPU-" or "MIG-"
 * already taken off)? A device UUID without that prefix (AMD's unique_id)
 * is compared as it is. */
static bool field_uuid_matches(const gw_str *uuid, const char *kind, const char *sel)
{
	if (!GW_VALID(*uuid) || !uuid->s[0])
		return false;
	return uuid_prefix_eq(uuid_body(uuid->s, kind), sel);
}

/* A resolver over one context. Samples (for MIG UUIDs) are read at most
 * once per device, and only when a selector needs them. */
struct resolver {
	gw_context *ctx;          /* NULL: whole GPUs only (gw_device_find) */
	const gw_context *cctx;
	gw_device_sample *samples;
	bool *sampled;
};

static const gw_device_sample *resolver_sample(struct resolver *r, int i)
{
	const gw_device_info *d = &r->cctx->devices[i].info;

	if (!r->ctx || !r->samples || d->health != GW_HEALTH_OK || !GW_VALID(d->mig_capable) || !d->mig_capable.v)
		return NULL;
	if (!r->sampled[i]) {
		r->sampled[i] = true;
		if (gw_device_sample_read(r->ctx, i, &r->samples[i]) < 0)
			r->samples[i].mig_count = 0;
	}
	return &r->samples[i];
}

/* Copy entry [s, s+n) into buf, spaces trimmed; false when it does not fit. */
static bool entry_text(const char *s, size_t n, char *buf, size_t bufsz)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= bufsz)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

/* "G:M": MIG device M of GPU G. */
static int resolve_mig_position(struct resolver *r, const char *e, gw_selection *out)
{
	const char *colon = strchr(e, ':');
	const gw_device_sample *s;
	long g = strtol(e, NULL, 10), m = strtol(colon + 1, NULL, 10);

	if (g >= r->cctx->ndevices || colon - e > 6 || strlen(colon + 1) > 6)
		return gw__error_set(GW_ENOTFOUND, "'%s': no GPU with index %ld (%d found)", e, g, r->cctx->ndevices);
	s = resolver_sample(r, (int)g);
	if (!s || m >= s->mig_count || m >= GW_MAX_MIG)
		/* whole sentences, so that each translates as one */
		return s && s->mig_count ? gw__error_set(GW_ENOTFOUND, "'%s': GPU %ld has no MIG device %ld", e, g, m)
					 : gw__error_set(GW_ENOTFOUND, "'%s': GPU %ld has MIG off, no MIG device %ld", e,
							 g, m);
	out->device = (int)g;
	out->mig = (int)m;
	return 0;
}

/* A UUID or unique prefix, among GPUs and (unless kind says "GPU-") MIG devices. */
static int resolve_uuid(struct resolver *r, const char *e, gw_selection *out)
{
	bool want_gpu = strncasecmp(e, "MIG-", 4) != 0, want_mig = strncasecmp(e, "GPU-", 4) != 0;
	const char *body = want_gpu && want_mig ? e : e + 4;
	int hits = 0;

	if (!*body)
		return gw__error_set(GW_EINVAL, "'%s' is only a prefix: give (part of) the UUID after it", e);
	/* Dashes are skipped inside a UUID, not in front of one ("-1" is no prefix). */
	if (!isalnum((unsigned char)*body))
		return gw__error_set(GW_ENOTFOUND, "no GPU matches '%s'", e);
	for (int i = 0; i < r->cctx->ndevices; i++) {
		const gw_device_info *d = &r->cctx->devices[i].info;
		const gw_device_sample *s;

		if (want_gpu && field_uuid_matches(&d->uuid, "GPU-", body)) {
			*out = (gw_selection){ i, -1 };
			hits++;
		}
		if (!want_mig || !(s = resolver_sample(r, i)))
			continue;
		for (int m = 0; m < s->mig_count && m < GW_MAX_MIG; m++)
			if (field_uuid_matches(&s->mig[m].uuid, "MIG-", body)) {
				*out = (gw_selection){ i, m };
				hits++;
			}
	}
	if (hits > 1)
		return gw__error_set(GW_EINVAL, "'%s' matches %d devices; give more of the UUID", e, hits);
	if (!hits)
		return want_mig ? gw__error_set(GW_ENOTFOUND, "no GPU or MIG device matches '%s'", e)
				: gw__error_set(GW_ENOTFOUND, "no GPU matches '%s'", e);
	return 0;
}

static int resolve_entry(struct resolver *r, const char *e, gw_selection *out)
{
	size_t n = strlen(e);
	const char *colon = strchr(e, ':');
	char norm[16];

	if (!n)
		return gw__error_set(GW_EINVAL, "empty device selector");
	if (all_digits(e, n) && n < SELECTOR_UUID_DIGITS) {
		long idx = strtol(e, NULL, 10);

		if (idx >= r->cctx->ndevices)
			return n >= 3 ? gw__error_set(GW_ENOTFOUND, "no GPU with index %ld (%d found); a UUID prefix of "
						      "digits only needs 8 of them, or GPU-/MIG- before it", idx,
						      r->cctx->ndevices)
				      : gw__error_set(GW_ENOTFOUND, "no GPU with index %ld (%d found)", idx,
						      r->cctx->ndevices);
		*out = (gw_selection){ (int)idx, -1 };
		return 0;
	}
	if (colon && r->ctx && all_digits(e, (size_t)(colon - e)) && all_digits(colon + 1, strlen(colon + 1)))
		return resolve_mig_position(r, e, out);
	if (gw__pci_bus_id_normalize(e, norm) == 0) {
		for (int i = 0; i < r->cctx->ndevices; i++)
			if (GW_VALID(r->cctx->devices[i].info.pci_bus_id) && !strcmp(r->cctx->devices[i].info.pci_bus_id.s, norm)) {
				*out = (gw_selection){ i, -1 };
				return 0;
			}
		return gw__error_set(GW_ENOTFOUND, "no GPU at PCI bus id %s", norm);
	}
	return resolve_uuid(r, e, out);
}

int gw_device_find(const gw_context *ctx, const char *sel, int *out)
{
	struct resolver r = { NULL, ctx, NULL, NULL };
	char e[256];
	gw_selection s;
	int rc;

	if (!ctx || !sel || !out)
		return gw__error_set(GW_EINVAL, "empty device selector");
	if (!entry_text(sel, strlen(sel), e, sizeof(e)))
		return gw__error_set(GW_ENOTFOUND, "no GPU matches a %zu-character selector", strlen(sel));
	if ((rc = resolve_entry(&r, e, &s)) < 0)
		return rc;
	*out = s.device;
	return 0;
}

int gw_context_select(gw_context *ctx, const char *selectors, gw_selection **out, size_t *count)
{
	struct resolver r = { ctx, ctx, NULL, NULL };
	gw_selection *list = NULL;
	size_t n = 0, cap = 0;
	const char *p;
	int rc = 0;

	if (!ctx || !selectors || !out || !count)
		return gw__error_set(GW_EINVAL, "gw_context_select: NULL argument");
	if (ctx->ndevices > 0) {
		r.samples = gw__calloc((size_t)ctx->ndevices, sizeof(*r.samples));
		r.sampled = gw__calloc((size_t)ctx->ndevices, sizeof(*r.sampled));
		if (!r.samples || !r.sampled) {
			rc = gw__error_set(GW_ENOMEM, "out of memory selecting devices");
			goto done;
		}
	}
	for (p = selectors;; p++) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char e[256];
		gw_selection s;
		bool dup = false;

		if (!entry_text(p, len, e, sizeof(e))) {
			rc = gw__error_set(GW_ENOTFOUND, "no GPU matches a %zu-character selector", len);
			goto done;
		}
		if ((rc = resolve_entry(&r, e, &s)) < 0)
			goto done;
		for (size_t k = 0; k < n; k++)
			dup |= list[k].device == s.device && list[k].mig == s.mig;
		if (!dup) {
			if (n == cap) {
				size_t ncap = cap ? cap * 2 : 4;
				gw_selection *nl = gw__realloc(list, ncap * sizeof(*nl));

				if (!nl) {
					rc = gw__error_set(GW_ENOMEM, "out of memory selecting devices");
					goto done;
				}
				list = nl;
				cap = ncap;
			}
			list[n++] = s;
		}
		if (!end)
			break;
		p = end;
	}
done:
	gw__free(r.samples);
	gw__free(r.sampled);
	if (rc < 0) {
		gw__free(list);
		return rc;
	}
	*out = list;
	*count = n;
	return 0;
}

void gw_selection_free(gw_selection *selection)
{
	gw__free(selection);
}

const gw_driver_info *gw_context_driver(const gw_context *ctx)
{
	static const gw_driver_info unread; /* every field UNREAD */

	return ctx ? &ctx->driver : &unread;
}

