/* CUDA driver backend: CUDA's view of the NVIDIA GPUs, through libcuda.so.1.
 *
 * Runs after nvml (and the sysfs backends). For each CUDA ordinal it finds
 * the device NVML listed (by UUID, else by PCI bus id, which is also how a
 * MIG device selected with CUDA_VISIBLE_DEVICES=MIG-... is found under its
 * parent GPU), records the ordinal as cuda_index (a MIG device's ordinal
 * goes to that MIG device, gw_mig_device.cuda_index, never to the whole
 * GPU, which CUDA then cannot use), and fills compute capability and
 * SM count where NVML could not. A CUDA device nobody else listed (no NVML,
 * as in some WSL and container setups) is added as a device of its own;
 * such devices have static facts only (no samples, no processes).
 *
 * No CUDA context is ever created: only cuInit and device queries. Note
 * that cuInit runs in the caller's process; that is why a program that
 * forks workers after calling gpuwise may prefer GW_OPT_NO_CUDA.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/pci.h"
#include "backend/arch.h"
#include "device/device.h"
#include "backend/backend.h"
#include "backend/cuda_abi.h"

enum { MAX_CUDA_DEVICES = 256 };

struct cuda_api {
	gwc_fn_init init;
	gwc_fn_int_out driver_version;
	gwc_fn_int_out device_count;
	gwc_fn_device_get device_get;
	gwc_fn_device_str name;
	gwc_fn_device_str pci_bus_id;
	gwc_fn_device_uuid uuid;
	gwc_fn_device_attr attribute;
	gwc_fn_device_total_mem total_mem;
	gwc_fn_error_name error_name;
};

struct cuda_symbol {
	size_t offset;
	const char *names[2];
};

#define SYM(field, ...) { offsetof(struct cuda_api, field), { __VA_ARGS__ } }
static const struct cuda_symbol cuda_symbols[] = {
	SYM(init, "cuInit"),
	SYM(driver_version, "cuDriverGetVersion"),
	SYM(device_count, "cuDeviceGetCount"),
	SYM(device_get, "cuDeviceGet"),
	SYM(name, "cuDeviceGetName"),
	SYM(pci_bus_id, "cuDeviceGetPCIBusId"),
	SYM(uuid, "cuDeviceGetUuid_v2", "cuDeviceGetUuid"),
	SYM(attribute, "cuDeviceGetAttribute"),
	/* Not the unversioned cuDeviceTotalMem: that symbol is the old call
	 * with a 32-bit unsigned int* result. */
	SYM(total_mem, "cuDeviceTotalMem_v2"),
	SYM(error_name, "cuGetErrorName"),
};
#undef SYM

struct cuda_state {
	void *lib;
	struct cuda_api api;
};

static void resolve_symbols(struct cuda_state *st)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(cuda_symbols); i++) {
		const struct cuda_symbol *s = &cuda_symbols[i];

		for (size_t k = 0; k < GW_ARRAY_SIZE(s->names) && s->names[k]; k++) {
			void *p = gw__dlsym(st->lib, s->names[k]);

			if (p) {
				memcpy((char *)&st->api + s->offset, &p, sizeof(p));
				break;
			}
		}
	}
}

static void cuda_code_name(const struct cuda_api *api, gwc_result r, char *out, size_t outsz)
{
	const char *name = NULL;

	if (api->error_name && api->error_name(r, &name) == GWC_SUCCESS && name && *name)
		gw__strlcpy(out, name, outsz);
	else
		snprintf(out, outsz, "CUDA_ERROR_%d", r);
}

static int cuda_code_to_gw(gwc_result r)
{
	switch (r) {
	case GWC_ERROR_NO_DEVICE: return GW_ENOGPU;
	case GWC_ERROR_SYSTEM_DRIVER_MISMATCH:
	case GWC_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: return GW_EMISMATCH;
	case GWC_ERROR_STUB_LIBRARY: return GW_ELIBRARY;
	case GWC_ERROR_OUT_OF_MEMORY: return GW_ENOMEM;
	default: return GW_EVENDOR;
	}
}

static const char *cuda_init_reason(gwc_result r)
{
	switch (r) {
	case GWC_ERROR_NO_DEVICE: return N_("no CUDA device is visible to this process");
	case GWC_ERROR_SYSTEM_DRIVER_MISMATCH: return N_("libcuda and the kernel driver have different versions");
	case GWC_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
		return N_("the CUDA forward-compatibility library does not support this GPU");
	case GWC_ERROR_STUB_LIBRARY: return N_("the loaded libcuda is the toolkit's stub, not the driver's");
	case GWC_ERROR_UNKNOWN: return N_("an unknown error (often a missing nvidia-uvm module)");
	default: return N_("the driver returned an error");
	}
}

/* Vendor libraries stay mapped once loaded: dlclose only drops our
 * reference. libcuda keeps driver threads and exit handlers inside it,
 * NVML is cheaper to re-initialise than to reload, and static state a
 * library allocated (the fakes' machine) stays reachable. This upgrades
 * the object gw__dlopen already loaded; it loads nothing new. */
static void keep_mapped(const char *name)
{
	gw__dlopen_keep(name);
}

static const char *cuda_library_name(const gw_context *ctx)
{
	const char *name = ctx->opts.cuda_library;

	if (!name || !*name)
		name = gw__env_path("GPUWISE_CUDA_LIBRARY");
	if (!name || !*name)
		name = "libcuda.so.1";
	return name;
}

static void format_uuid(const gwc_uuid *u, char out[48])
{
	const unsigned char *b = (const unsigned char *)u->bytes;

	snprintf(out, 48, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
		 b[14], b[15]);
}

static bool read_attr(const struct cuda_api *api, gwc_device dev, int attr, int *out)
{
	*out = 0;
	return api->attribute && api->attribute(out, attr, dev) == GWC_SUCCESS && *out >= 0;
}

/* What CUDA says about one ordinal. */
struct cuda_facts {
	gwc_device dev;
	bool has_uuid, has_bus;
	char uuid[48];
	char bus[16];
};

static bool query_identity(const struct cuda_api *api, int ordinal, struct cuda_facts *f)
{
	gwc_uuid u;
	char raw[64] = "";

	memset(f, 0, sizeof(*f));
	f->dev = ordinal;
	if (api->device_get && api->device_get(&f->dev, ordinal) != GWC_SUCCESS)
		return false;
	memset(&u, 0, sizeof(u));
	if (api->uuid && api->uuid(&u, f->dev) == GWC_SUCCESS) {
		format_uuid(&u, f->uuid);
		f->has_uuid = true;
	}
	if (api->pci_bus_id && api->pci_bus_id(raw, (int)sizeof(raw) - 1, f->dev) == GWC_SUCCESS) {
		raw[sizeof(raw) - 1] = '\0';
		f->has_bus = gw__pci_bus_id_normalize(raw, f->bus) == 0;
	}
	return true;
}

/* The device CUDA's ordinal is, or whose MIG device it is (*is_mig). */
static gw_device *find_listed(gw_context *ctx, const struct cuda_facts *f, bool *is_mig)
{
	gw_device *d = NULL;

	*is_mig = false;
	if (f->has_uuid)
		d = gw__device_by_uuid(ctx, f->uuid);
	/* A MIG device (its own UUID) or a device NVML could not identify:
	 * the bus id names the physical GPU. When that GPU has a UUID of its
	 * own and CUDA gave another, CUDA sees one of its MIG devices
	 * (CUDA_VISIBLE_DEVICES=MIG-...), not the whole GPU. */
	if (!d && f->has_bus && (d = gw__device_by_bus_id(ctx, f->bus)))
		*is_mig = f->has_uuid && GW_VALID(d->info.uuid) && d->info.uuid.s[0];
	return d;
}

static void record_mig_ordinal(gw_device *d, const struct cuda_facts *f, int ordinal)
{
	if (d->ncuda_mig >= GW_MAX_MIG)
		return;
	/* CUDA's UUID bytes are the MIG device's; NVML writes it "MIG-...". */
	snprintf(d->cuda_mig[d->ncuda_mig].uuid, sizeof(d->cuda_mig[0].uuid), "MIG-%s", f->uuid + 4);
	d->cuda_mig[d->ncuda_mig++].ordinal = ordinal;
}

/* Compute capability, SMs, cores and architecture, where nobody set them. */
static void fill_compute_facts(const struct cuda_api *api, gwc_device dev, gw_device_info *info)
{
	int major, minor, sms;

	if (!GW_VALID(info->cc_major) && read_attr(api, dev, GWC_ATTR_COMPUTE_CAPABILITY_MAJOR, &major) &&
	    read_attr(api, dev, GWC_ATTR_COMPUTE_CAPABILITY_MINOR, &minor)) {
		gw__u64_set(&info->cc_major, (uint64_t)major);
		gw__u64_set(&info->cc_minor, (uint64_t)minor);
	}
	if (!GW_VALID(info->multiprocessor_count) && read_attr(api, dev, GWC_ATTR_MULTIPROCESSOR_COUNT, &sms) && sms > 0)
		gw__u64_set(&info->multiprocessor_count, (uint64_t)sms);
	if (GW_VALID(info->cc_major)) {
		unsigned per_sm = gw__cores_per_sm((unsigned)info->cc_major.v, (unsigned)info->cc_minor.v);
		const char *arch = gw__nvidia_arch_from_cc((unsigned)info->cc_major.v, (unsigned)info->cc_minor.v);

		if (!GW_VALID(info->cuda_cores) && per_sm && GW_VALID(info->multiprocessor_count))
			gw__u64_set(&info->cuda_cores, info->multiprocessor_count.v * per_sm);
		if (!GW_VALID(info->architecture) && arch)
			gw__str_set(&info->architecture, arch);
	}
}

/* Identity facts only a device of our own needs (NVML fills them otherwise). */
static void fill_identity(const struct cuda_api *api, const struct cuda_facts *f, gw_device_info *info)
{
	char name[256] = "";
	size_t total = 0;

	if (!GW_VALID(info->name) && api->name && api->name(name, (int)sizeof(name) - 1, f->dev) == GWC_SUCCESS) {
		name[sizeof(name) - 1] = '\0';
		gw__str_set(&info->name, name);
	}
	if (!GW_VALID(info->memory_total) && api->total_mem && api->total_mem(&total, f->dev) == GWC_SUCCESS)
		gw__u64_set(&info->memory_total, total);
	if (!GW_VALID(info->pci_bus_id) && f->has_bus)
		gw__str_set(&info->pci_bus_id, f->bus);
	if (!GW_VALID(info->pci_vendor_id))
		gw__u64_set(&info->pci_vendor_id, 0x10de);
}

static int annotate_ordinal(gw_context *ctx, struct cuda_state *st, int ordinal)
{
	struct cuda_facts f;
	gw_device *d;
	bool is_mig;

	if (!query_identity(&st->api, ordinal, &f))
		return 0;
	if ((d = find_listed(ctx, &f, &is_mig)) && is_mig) {
		record_mig_ordinal(d, &f, ordinal);
		fill_compute_facts(&st->api, f.dev, &d->info);
		return 0;
	}
	if (!d) {
		if (!(d = gw__device_add(ctx)))
			return GW_ENOMEM;
		d->info.vendor = GW_VENDOR_NVIDIA;
		d->info.backend = "cuda";
		d->owner = &gw__backend_cuda;
		if (f.has_uuid && strncmp(f.uuid, "GPU-", 4) == 0)
			gw__str_set(&d->info.uuid, f.uuid);
		if (f.has_bus)
			snprintf(d->sysfs_path, sizeof(d->sysfs_path), "/sys/bus/pci/devices/%s", f.bus);
	}
	if (d->info.cuda_index < 0)
		d->info.cuda_index = ordinal;
	if (d->owner != &gw__backend_nvml)
		fill_identity(&st->api, &f, &d->info);
	fill_compute_facts(&st->api, f.dev, &d->info);
	return 0;
}

static void status_init_failed(gw_context *ctx, gw_backend_status *status, const struct cuda_api *api, gwc_result r)
{
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");

	status->state = GW_BACKEND_INIT_FAILED;
	status->error = cuda_code_to_gw(r);
	status->vendor_code = r;
	cuda_code_name(api, r, status->vendor_code_name, sizeof(status->vendor_code_name));
	if (r == GWC_ERROR_NO_DEVICE && cvd)
		gw__status_msg(ctx, status, "cuInit failed: %s (CUDA_VISIBLE_DEVICES=\"%s\")",
			cuda_init_reason(r), cvd);
	else
		gw__status_msg(ctx, status, "cuInit failed: %s (%s)",
			 cuda_init_reason(r), status->vendor_code_name);
}

static int cuda_open(gw_context *ctx, void **state, gw_backend_status *status)
{
	const char *libname = cuda_library_name(ctx);
	struct cuda_state *st;
	gwc_result r;
	int count = 0, v = 0;

	gw__strlcpy(status->library, libname, sizeof(status->library));
	if (!(st = gw__calloc(1, sizeof(*st))))
		return GW_ENOMEM;
	if (!(st->lib = gw__dlopen(libname))) {
		status->state = GW_BACKEND_LIBRARY_MISSING;
		status->error = GW_ELIBRARY;
		gw__status_msg(ctx, status, "cannot load the CUDA driver library: %s",
			 gw__dlerror());
		gw__free(st);
		return 0;
	}
	keep_mapped(libname);
	resolve_symbols(st);
	/* cuDriverGetVersion works before cuInit, even when cuInit fails. */
	if (!GW_VALID(ctx->driver.cuda_driver_version) && st->api.driver_version &&
	    st->api.driver_version(&v) == GWC_SUCCESS && v > 0)
		gw__u64_set(&ctx->driver.cuda_driver_version, (uint64_t)v);
	if (!st->api.init || !st->api.device_count) {
		status->state = GW_BACKEND_INIT_FAILED;
		status->error = GW_ELIBRARY;
		gw__status_msg(ctx, status, "the CUDA library has no %s: it is not a usable libcuda",
			 st->api.init ? "cuDeviceGetCount" : "cuInit");
		gw__dlclose(st->lib);
		gw__free(st);
		return 0;
	}
	if ((r = st->api.init(0)) != GWC_SUCCESS) {
		status_init_failed(ctx, status, &st->api, r);
		gw__dlclose(st->lib);
		gw__free(st);
		return 0;
	}
	*state = st;
	if ((r = st->api.device_count(&count)) != GWC_SUCCESS) {
		status_init_failed(ctx, status, &st->api, r);
		return 0;
	}
	if (count <= 0) {
		status->state = GW_BACKEND_NOTHING_FOUND;
		gw__status_msg(ctx, status, "CUDA works but sees no device");
		return 0;
	}
	if (count > MAX_CUDA_DEVICES)
		count = MAX_CUDA_DEVICES;
	for (int i = 0; i < count; i++)
		if (annotate_ordinal(ctx, st, i) < 0)
			return GW_ENOMEM;
	status->state = GW_BACKEND_OK;
	return 0;
}

static void cuda_close(void *state)
{
	struct cuda_state *st = state;

	if (!st)
		return;
	gw__dlclose(st->lib);
	gw__free(st);
}

const gw_backend gw__backend_cuda = {
	.name = "cuda",
	.id = GW_BACKEND_ID_CUDA,
	.open = cuda_open,
	.close = cuda_close,
};
