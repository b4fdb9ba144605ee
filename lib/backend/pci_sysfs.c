/* pci backend: every GPU on the PCI bus, read from /sys/bus/pci/devices.
 *
 * It runs after nvml and amdgpu. GPUs they already found (matched by bus id)
 * are only annotated with the kernel driver bound to them; the others are
 * added with health NO_DRIVER and a reason, so `gpuwise list` shows an
 * NVIDIA GPU whose driver is missing instead of "no GPU". Such devices have
 * no metrics except the PCIe link, which sysfs gives without a driver.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/vendor.h"
#include "core/pci.h"
#include "device/device.h"
#include "backend/backend.h"
#include "backend/sysfs_io.h"
#include "backend/sysfs_parse.h"
#include "hardware/tables.h"

#define PCI_DEVICES "/sys/bus/pci/devices"

/* Why NVML does not serve this NVIDIA GPU, in NVML's own words when it has some. */
static void nvml_reason(gw_context *ctx, gw_device *d)
{
	const gw_backend_status *st = gw_context_backend(ctx, "nvml");

	if (!st || st->state == GW_BACKEND_NOT_TRIED)
		gw__device_reason(d, "nvidia driver bound but NVML was not tried");
	else if (st->message[0])
		gw__device_reason_quoting(ctx, d, st, "nvidia driver bound but NVML could not read it: %s", st->message);
	else if (st->state == GW_BACKEND_OK)
		gw__device_reason(d, "nvidia driver bound but NVML did not list it");
	else
		gw__device_reason(d, "nvidia driver bound but NVML could not read it: %s", gw_backend_state_name(st->state));
}

/* Health of a GPU that no vendor backend claimed. */
static void judge_health(gw_context *ctx, const gw_pci_fn *f, gw_device *d)
{
	gw_vendor v = gw__pci_vendor(f->vendor);
	const char *want = gw__vendor_traits_of(v)->compute_driver;

	d->info.health = GW_HEALTH_NO_DRIVER;
	if (!f->driver[0]) {
		gw__device_reason(d, "no kernel driver bound");
	} else if (v == GW_VENDOR_NVIDIA && !strcmp(f->driver, want)) {
		nvml_reason(ctx, d);
	} else if (v == GW_VENDOR_AMD && !strcmp(f->driver, want)) {
		gw__device_reason(d, "amdgpu driver bound but its sysfs files could not be read");
	} else if (want) {
		gw__device_reason(d, "bound to %s, not %s", f->driver, want);
	} else {
		/* Intel (i915, xe): the driver may well work, but gpuwise reads
		 * nothing from it; "ok" would claim a readable GPU. */
		d->info.health = GW_HEALTH_UNSUPPORTED;
		gw__device_reason(d, "gpuwise cannot read Intel GPUs (driver %s bound)", f->driver);
	}
}

/* Without a driver nothing reports the architecture; gpuwise's table of
 * NVIDIA PCI ids does, and doctor needs it to name the driver to install. */
static void known_model_facts(gw_device_info *info, const gw_pci_fn *f)
{
	const gw_row_nvidia_gpus *row;
	unsigned major, minor;

	if (f->vendor != 0x10de || !(row = gw__tbl_nvidia_gpu_by_id(f->device)))
		return;
	gw__str_set(&info->architecture, row->arch);
	if (sscanf(row->cc, "%u.%u", &major, &minor) == 2) {
		gw__u64_set(&info->cc_major, major);
		gw__u64_set(&info->cc_minor, minor);
	}
}

static int add_driverless(gw_context *ctx, const gw_pci_fn *f, gw_pci_ids *ids)
{
	gw_device *d = gw__device_add(ctx);
	gw_device_info *info;
	char name[GW_STR_MAX];

	if (!d)
		return GW_ENOMEM;
	info = &d->info;
	info->vendor = gw__pci_vendor(f->vendor);
	info->backend = "pci";
	d->owner = &gw__backend_pci;
	gw__strlcpy(d->sysfs_path, f->dir, sizeof(d->sysfs_path));
	gw__str_set(&info->pci_bus_id, f->bus_id);
	gw__u64_set(&info->pci_vendor_id, f->vendor);
	if (f->device != 0xffff)
		gw__u64_set(&info->pci_device_id, f->device);
	else
		GW_FIELD_FAIL(info->pci_device_id, GW_FIELD_ERROR, GW_EPARSE);
	if (f->have_subsys)
		gw__u64_set(&info->pci_subsystem_id, (uint64_t)f->subsys_device << 16 | f->subsys_vendor);
	else
		GW_FIELD_FAIL(info->pci_subsystem_id, GW_FIELD_NOT_SUPPORTED, 0);
	gw__str_set(&info->kernel_driver, f->driver);
	gw__sysfs_pci_name(ids, ctx->root, f->vendor, f->device, f->revision, name, sizeof(name));
	gw__str_set(&info->name, name);
	known_model_facts(info, f);
	/* The link is readable without a driver: a cheap, useful fact. */
	gw__sysfs_link_fields(&info->pcie_max_gen, &info->pcie_max_width, ctx->root, f->dir, "max");
	info->pcie_gpu_max_gen = info->pcie_max_gen;
	judge_health(ctx, f, d);
	return 0;
}

static void annotate(gw_device *d, const gw_pci_fn *f)
{
	gw__str_set(&d->info.kernel_driver, f->driver);
	if (!GW_VALID(d->info.pci_vendor_id))
		gw__u64_set(&d->info.pci_vendor_id, f->vendor);
	if (!d->sysfs_path[0])
		gw__strlcpy(d->sysfs_path, f->dir, sizeof(d->sysfs_path));
}

static bool nvidia_bound(const gw_pci_fn *f)
{
	const gw__vendor_traits *t = gw__vendor_traits_of(GW_VENDOR_NVIDIA);

	return f->vendor == t->pci_vendor_id && !strcmp(f->driver, t->compute_driver);
}

/* NVML devices whose handle failed (lost GPUs) have no bus id. */
static gw_device *next_busless_nvml_device(gw_context *ctx)
{
	for (int i = 0; i < ctx->ndevices; i++) {
		gw_device *d = &ctx->devices[i];

		if (d->info.nvml_index >= 0 && !GW_VALID(d->info.pci_bus_id))
			return d;
	}
	return NULL;
}

static int count_busless_nvml_devices(gw_context *ctx)
{
	int n = 0;

	for (int i = 0; i < ctx->ndevices; i++)
		n += ctx->devices[i].info.nvml_index >= 0 && !GW_VALID(ctx->devices[i].info.pci_bus_id);
	return n;
}

/* How many nvidia-bound GPUs on the bus no backend has claimed. */
static int count_unclaimed_nvidia(gw_context *ctx, const gw_pci_fn *fns, size_t count)
{
	int n = 0;

	for (size_t i = 0; i < count; i++)
		if (nvidia_bound(&fns[i]) && !gw__device_by_bus_id(ctx, fns[i].bus_id))
			n++;
	return n;
}

/* A GPU that fell off the bus still sits in sysfs, bound to nvidia, while
 * NVML could not give its handle (so no bus id). NVML numbers GPUs in bus
 * order, as this scan walks them: when the counts agree, the k-th unclaimed
 * nvidia-bound function is the k-th lost NVML device, and it is shown once,
 * as lost, with its bus id. When they disagree the guess would be unsafe. */
/* Copy name, architecture and compute capability from a readable GPU
 * with the same PCI device id; false when there is none. */
static bool sibling_facts(gw_context *ctx, gw_device *d, uint32_t device)
{
	for (int i = 0; i < ctx->ndevices && device != 0xffff; i++) {
		const gw_device_info *o = &ctx->devices[i].info;

		if (&ctx->devices[i] == d || o->health != GW_HEALTH_OK || !GW_VALID(o->pci_device_id) ||
		    o->pci_device_id.v != device || !GW_VALID(o->name))
			continue;
		if (!GW_VALID(d->info.name))
			d->info.name = o->name;
		if (!GW_VALID(d->info.architecture))
			d->info.architecture = o->architecture;
		if (!GW_VALID(d->info.cc_major) && GW_VALID(o->cc_major) && GW_VALID(o->cc_minor)) {
			d->info.cc_major = o->cc_major;
			d->info.cc_minor = o->cc_minor;
		}
		return true;
	}
	return false;
}

static bool claim_for_lost_device(gw_context *ctx, const gw_pci_fn *f, bool counts_agree, gw_pci_ids *ids)
{
	gw_device *d;
	char name[GW_STR_MAX];

	if (!counts_agree || !nvidia_bound(f) || !(d = next_busless_nvml_device(ctx)))
		return false;
	gw__str_set(&d->info.pci_bus_id, f->bus_id);
	if (f->device != 0xffff)
		gw__u64_set(&d->info.pci_device_id, f->device);
	/* Name it as NVML names its siblings of the same model (the driver's
	 * "A100-SXM4-80GB", not the table's "A100 SXM4 80GB"), with their
	 * facts; else from the tables, as a GPU without a driver. */
	if (!sibling_facts(ctx, d, f->device)) {
		if (!GW_VALID(d->info.name)) {
			gw__sysfs_pci_name(ids, ctx->root, f->vendor, f->device, f->revision, name, sizeof(name));
			gw__str_set(&d->info.name, name);
		}
		if (!GW_VALID(d->info.cc_major))
			known_model_facts(&d->info, f);
	}
	annotate(d, f);
	return true;
}

static int pci_open(gw_context *ctx, void **state, gw_backend_status *st)
{
	bool counts_agree;
	gw_pci_ids ids = { 0 };
	const gw_pci_fn *fns;
	size_t count;
	int rc;

	*state = NULL;
	rc = gw__pci_scan_ctx(ctx, &fns, &count);
	if (rc == GW_ENOMEM)
		return rc;
	if (rc < 0) {
		st->state = GW_BACKEND_NOTHING_FOUND;
		st->error = rc;
		gw__status_msg_from_last(ctx, st);   /* "cannot list '/sys/bus/pci/devices': ..." */
		return 0;
	}
	counts_agree = count_busless_nvml_devices(ctx) > 0 &&
		       count_busless_nvml_devices(ctx) == count_unclaimed_nvidia(ctx, fns, count);
	for (size_t i = 0; i < count; i++) {
		const gw_pci_fn *f = &fns[i];
		gw_device *d;

		if ((d = gw__device_by_bus_id(ctx, f->bus_id))) {
			annotate(d, f);
			continue;
		}
		if (claim_for_lost_device(ctx, f, counts_agree, &ids))
			continue;
		if ((rc = add_driverless(ctx, f, &ids)) < 0)
			break;
	}
	gw__sysfs_pci_ids_free(&ids);
	if (rc == GW_ENOMEM)
		return rc;
	st->state = count ? GW_BACKEND_OK : GW_BACKEND_NOTHING_FOUND;
	if (!count)
		gw__status_msg(ctx, st, "no display controller from NVIDIA, AMD or Intel on the PCI bus");
	return 0;
}

/* Only the current link: everything else needs a driver. */
static int pci_sample(void *state, gw_context *ctx, gw_device *dev, gw_device_sample *out)
{
	(void)state;
	if (dev->sysfs_path[0])
		gw__sysfs_link_fields(&out->pcie_gen, &out->pcie_width, ctx->root, dev->sysfs_path, "current");
	return 0;
}

const gw_backend gw__backend_pci = {
	.name = "pci",
	.id = GW_BACKEND_ID_PCI,
	.open = pci_open,
	.sample = pci_sample,
};
