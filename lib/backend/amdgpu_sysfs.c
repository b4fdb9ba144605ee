/* amdgpu backend: AMD GPUs read from sysfs alone (no libdrm, no ROCm).
 *
 * Devices: PCI display functions of vendor 0x1002 bound to amdgpu, plus any
 * /sys/class/drm/cardN whose device is bound to amdgpu. Static facts come
 * from the device's sysfs folder and from its KFD topology node (gfx target,
 * compute units), matched by PCI location. Samples read the amdgpu
 * attributes (mem_info_vram_used, gpu_busy_percent, pp_dpm_*) and hwmon.
 *
 * Processes: as nvtop and amdgpu_top do, from /proc/<pid>/fdinfo/<fd> of
 * every process (the DRM fdinfo keys drm-driver, drm-pdev, drm-client-id,
 * drm-memory-vram; amdgpu 5.x's pdev, pasid, "vram mem"). The list may be
 * partial: without root the fdinfo of other users' processes is unreadable
 * and those processes are skipped silently. The sweep is bounded (PROC_MAX_PIDS
 * processes, PROC_MAX_FDS descriptors each).
 */
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/pci.h"
#include "core/metrics.h"
#include "device/device.h"
#include "backend/backend.h"
#include "backend/sysfs_io.h"
#include "backend/sysfs_parse.h"
#include "hardware/tables.h"

#define PCI_DEVICES "/sys/bus/pci/devices"
#define DRM_CLASS "/sys/class/drm"
#define KFD_NODES "/sys/class/kfd/kfd/topology/nodes"
#define DPM_LIMIT 4096
#define PROPS_LIMIT 65536
#define PROC_MAX_PIDS 4096
#define PROC_MAX_FDS 1024
#define FDINFO_LIMIT 8192

enum { TEMP_EDGE, TEMP_JUNCTION, TEMP_MEM, TEMP_KINDS };

/* Per-device facts found at open (gw_device.handle points here). */
struct amd_dev {
	char hwmon[300];           /* <sysfs>/hwmon/hwmonN, or "" */
	int temp_index[TEMP_KINDS]; /* N of tempN_input, 0 when absent */
};

struct amd_state {
	struct amd_dev **devs;
	size_t n;
};

/* A device to add: where its sysfs folder is, and its DRM card if known. */
struct amd_candidate {
	char bus_id[16];
	char dir[256];
	char card[32];
};

struct candidates {
	struct amd_candidate *v;
	size_t n, cap;
};

static int candidates_push(struct candidates *c, const char *bus_id, const char *dir, const char *card)
{
	struct amd_candidate *e;

	for (size_t i = 0; i < c->n; i++) {
		if (!strcmp(c->v[i].bus_id, bus_id)) {
			if (card && !c->v[i].card[0])
				gw__strlcpy(c->v[i].card, card, sizeof(c->v[i].card));
			return 0;
		}
	}
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 8;
		struct amd_candidate *nv = gw__realloc(c->v, ncap * sizeof(*nv));

		if (!nv)
			return gw__error_set(GW_ENOMEM, "out of memory listing AMD GPUs");
		c->v = nv;
		c->cap = ncap;
	}
	e = &c->v[c->n++];
	memset(e, 0, sizeof(*e));
	gw__strlcpy(e->bus_id, bus_id, sizeof(e->bus_id));
	gw__strlcpy(e->dir, dir, sizeof(e->dir));
	if (card)
		gw__strlcpy(e->card, card, sizeof(e->card));
	return 0;
}

/* PCI display functions of AMD bound to amdgpu. */
static int scan_pci(gw_context *ctx, struct candidates *c)
{
	const gw_pci_fn *fns;
	size_t count;
	int rc = gw__pci_scan_ctx(ctx, &fns, &count);

	if (rc < 0)
		return rc == GW_ENOMEM ? rc : 0;
	for (size_t i = 0; i < count && rc == 0; i++)
		if (fns[i].vendor == 0x1002 && !strcmp(fns[i].driver, "amdgpu"))
			rc = candidates_push(c, fns[i].bus_id, fns[i].dir, NULL);
	return rc;
}

static bool is_card_name(const char *s)
{
	if (strncmp(s, "card", 4) || !s[4])
		return false;
	for (s += 4; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* /sys/class/drm/cardN/device bound to amdgpu: names the card of each GPU
 * and finds GPUs whose PCI folder is not where scan_pci looks. */
static int scan_drm(const char *root, struct candidates *c)
{
	char **names;
	size_t count;
	int rc = gw__dir_list(root, DRM_CLASS, &names, &count);

	if (rc < 0)
		return rc == GW_ENOMEM ? rc : 0;
	for (size_t i = 0; i < count && rc == 0; i++) {
		char link[256], target[GW_PATH_MAX], bus_id[16], driver[64], dir[256], probe[16];
		const char *base;

		if (!is_card_name(names[i]))
			continue;
		snprintf(link, sizeof(link), DRM_CLASS "/%s/device", names[i]);
		/* The device link ends in the bus id: "../../../0000:03:00.0". */
		if (gw__readlink(root, link, target, sizeof(target)) < 0)
			continue;
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
		if (gw__pci_bus_id_normalize(base, bus_id) < 0)
			continue;
		/* Read the device where the root has it: the canonical PCI folder,
		 * else an absolute link target taken under the root (following it
		 * would leave a fake tree), else through the relative link. */
		snprintf(link, sizeof(link), PCI_DEVICES "/%s", bus_id);
		gw__sysfs_device_dir(root, link, dir, sizeof(dir));
		if (gw__sysfs_read(root, dir, "vendor", probe, sizeof(probe)) != 0) {
			snprintf(link, sizeof(link), DRM_CLASS "/%s/device", names[i]);
			if (target[0] == '/' && strlen(target) < sizeof(dir))
				gw__strlcpy(dir, target, sizeof(dir));
			else
				gw__strlcpy(dir, link, sizeof(dir));
		}
		gw__sysfs_driver_name(root, dir, driver, sizeof(driver));
		if (strcmp(driver, "amdgpu"))
			continue;
		rc = candidates_push(c, bus_id, dir, names[i]);
	}
	gw__dir_list_free(names, count);
	return rc;
}

/* The KFD node whose PCI location matches bus_id, if any. */
static bool find_kfd_node(const char *root, const char *bus_id, gw_kfd_node *out)
{
	unsigned domain, bus, dev, fn;
	char **names;
	size_t count;
	bool found = false;

	if (gw__sysfs_bus_id_parts(bus_id, &domain, &bus, &dev, &fn) < 0)
		return false;
	if (gw__dir_list(root, KFD_NODES, &names, &count) < 0)
		return false;
	for (size_t i = 0; i < count && !found; i++) {
		char dir[300], *text;
		size_t len;
		gw_kfd_node node;

		snprintf(dir, sizeof(dir), KFD_NODES "/%s", names[i]);
		if (gw__sysfs_read_text(root, dir, "properties", PROPS_LIMIT, &text, &len) < 0)
			continue;
		if (gw__sysfs_parse_kfd_properties(text, len, &node) == 0 &&
		    (node.have & GW_KFD_LOCATION_ID) && node.simd_count > 0 &&
		    node.location_id == gw__sysfs_location_id(bus, dev, fn) &&
		    (!(node.have & GW_KFD_DOMAIN) || node.domain == domain)) {
			*out = node;
			found = true;
		}
		gw__free(text);
	}
	gw__dir_list_free(names, count);
	return found;
}

static void fill_from_kfd(gw_device_info *info, const char *root, const char *bus_id)
{
	gw_kfd_node node;
	char gfx[16];
	const char *arch;

	if (!find_kfd_node(root, bus_id, &node)) {
		/* No KFD (amdgpu without compute) or no node for this GPU. */
		GW_FIELD_FAIL(info->gfx_target, GW_FIELD_NOT_SUPPORTED, 0);
		GW_FIELD_FAIL(info->architecture, GW_FIELD_NOT_SUPPORTED, 0);
		GW_FIELD_FAIL(info->multiprocessor_count, GW_FIELD_NOT_SUPPORTED, 0);
		return;
	}
	if (!(node.have & GW_KFD_GFX_TARGET)) {
		GW_FIELD_FAIL(info->gfx_target, GW_FIELD_NOT_SUPPORTED, 0);
		GW_FIELD_FAIL(info->architecture, GW_FIELD_NOT_SUPPORTED, 0);
	} else if (gw__sysfs_gfx_name(node.gfx_target_version, gfx, sizeof(gfx)) < 0) {
		GW_FIELD_FAIL(info->gfx_target, GW_FIELD_ERROR, GW_EPARSE);
		GW_FIELD_FAIL(info->architecture, GW_FIELD_ERROR, GW_EPARSE);
	} else {
		gw__str_set(&info->gfx_target, gfx);
		if ((arch = gw__sysfs_amd_arch(gfx)))
			gw__str_set(&info->architecture, arch);
		else
			GW_FIELD_FAIL(info->architecture, GW_FIELD_NOT_SUPPORTED, 0);
	}
	if ((node.have & GW_KFD_SIMD_PER_CU) && node.simd_per_cu > 0)
		gw__u64_set(&info->multiprocessor_count, node.simd_count / node.simd_per_cu);
	else
		GW_FIELD_FAIL(info->multiprocessor_count, GW_FIELD_NOT_SUPPORTED, 0);
	if (!GW_VALID(info->max_sm_clock) && (node.have & GW_KFD_MAX_ENGINE_CLK) && node.max_engine_clk_fcompute)
		gw__u64_set(&info->max_sm_clock, node.max_engine_clk_fcompute);
}

/* Highest and current level of a pp_dpm_* table. */
static int read_dpm(const char *root, const char *dir, const char *name, uint64_t *max, uint64_t *cur, bool *have_cur)
{
	char *text;
	size_t len;
	int rc = gw__sysfs_read_text(root, dir, name, DPM_LIMIT, &text, &len);

	if (rc < 0)
		return rc;
	rc = gw__sysfs_parse_dpm(text, len, max, cur, have_cur);
	gw__free(text);
	return rc;
}

static void max_clock_field(gw_u64 *f, const char *root, const char *dir, const char *name)
{
	uint64_t max, cur;
	bool have_cur;
	int rc = read_dpm(root, dir, name, &max, &cur, &have_cur);

	if (rc < 0)
		gw__sysfs_fail_u64(f, rc);
	else
		gw__u64_set(f, max);
}

/* Find hwmon/hwmonN and which tempN is edge, junction and memory. */
static void find_hwmon(const char *root, const char *dir, struct amd_dev *ad)
{
	static const char *const labels[TEMP_KINDS] = { "edge", "junction", "mem" };
	char path[300];
	char **names;
	size_t count;
	bool labelled = false;

	ad->hwmon[0] = '\0';
	snprintf(path, sizeof(path), "%s/hwmon", dir);
	if (gw__dir_list(root, path, &names, &count) < 0)
		return;
	for (size_t i = 0; i < count; i++) {
		if (!strncmp(names[i], "hwmon", 5)) {
			int n = snprintf(ad->hwmon, sizeof(ad->hwmon), "%s/%s", path, names[i]);

			if (n < 0 || (size_t)n >= sizeof(ad->hwmon))
				ad->hwmon[0] = '\0';
			break;
		}
	}
	gw__dir_list_free(names, count);
	if (!ad->hwmon[0])
		return;
	for (int n = 1; n <= 8; n++) {
		char name[32], label[32];

		snprintf(name, sizeof(name), "temp%d_label", n);
		if (gw__sysfs_read(root, ad->hwmon, name, label, sizeof(label)) < 0)
			continue;
		labelled = true;
		for (int k = 0; k < TEMP_KINDS; k++)
			if (!strcmp(label, labels[k]) && !ad->temp_index[k])
				ad->temp_index[k] = n;
	}
	if (!labelled) {
		/* Old kernels have no labels: amdgpu's order is edge, junction, mem. */
		for (int k = 0; k < TEMP_KINDS; k++)
			ad->temp_index[k] = k + 1;
	}
}

/* The card's own name when amdgpu has one (product_name, from the board's
 * FRU); else by PCI device and revision as doctor and the pci backend name
 * it (amdgpu.ids, pci.ids); else its gfx target's family from amd_gfx.tsv;
 * only then the bare ids. */
static void fill_name(gw_device_info *info, const char *root, const char *dir, uint32_t device, gw_pci_ids *ids)
{
	const gw_row_amd_gfx *gfx;
	char name[GW_STR_MAX];
	uint32_t rev;
	int revision;

	gw__sysfs_str_field(&info->name, root, dir, "product_name");
	if (GW_VALID(info->name))
		return;
	revision = gw__sysfs_read_hex(root, dir, "revision", 0xff, &rev) == 0 ? (int)rev : -1;
	if (!gw__sysfs_pci_name(ids, root, 0x1002, device, revision, name, sizeof(name)) &&
	    GW_VALID(info->gfx_target) && (gfx = gw__tbl_amd_gfx(info->gfx_target.s)))
		snprintf(name, sizeof(name), "AMD %s", gfx->name);
	gw__str_set(&info->name, name);
}

static void fill_static(gw_context *ctx, gw_device *d, const struct amd_candidate *c, gw_pci_ids *ids)
{
	gw_device_info *info = &d->info;
	const char *root = ctx->root;
	uint32_t vendor = 0x1002, device = 0, sv, sd;

	info->vendor = GW_VENDOR_AMD;
	info->backend = "amdgpu";
	info->health = GW_HEALTH_OK;
	d->owner = &gw__backend_amdgpu;
	gw__strlcpy(d->sysfs_path, c->dir, sizeof(d->sysfs_path));
	gw__strlcpy(d->drm_card, c->card, sizeof(d->drm_card));
	gw__str_set(&info->pci_bus_id, c->bus_id);
	gw__str_set(&info->kernel_driver, "amdgpu");
	gw__u64_set(&info->pci_vendor_id, vendor);
	if (gw__sysfs_read_hex(root, c->dir, "device", 0xffff, &device) == 0)
		gw__u64_set(&info->pci_device_id, device);
	else
		GW_FIELD_FAIL(info->pci_device_id, GW_FIELD_ERROR, GW_EPARSE);
	if (gw__sysfs_read_hex(root, c->dir, "subsystem_vendor", 0xffff, &sv) == 0 &&
	    gw__sysfs_read_hex(root, c->dir, "subsystem_device", 0xffff, &sd) == 0)
		gw__u64_set(&info->pci_subsystem_id, (uint64_t)sd << 16 | sv);
	else
		GW_FIELD_FAIL(info->pci_subsystem_id, GW_FIELD_NOT_SUPPORTED, 0);

	gw__sysfs_str_field(&info->uuid, root, c->dir, "unique_id");
	gw__sysfs_str_field(&info->serial, root, c->dir, "serial_number");
	gw__sysfs_str_field(&info->board_part_number, root, c->dir, "product_number");
	gw__sysfs_str_field(&info->vbios_version, root, c->dir, "vbios_version");
	gw__sysfs_u64_field(&info->memory_total, root, c->dir, "mem_info_vram_total");
	gw__sysfs_link_fields(&info->pcie_max_gen, &info->pcie_max_width, root, c->dir, "max");
	info->pcie_gpu_max_gen = info->pcie_max_gen;
	max_clock_field(&info->max_sm_clock, root, c->dir, "pp_dpm_sclk");
	max_clock_field(&info->max_mem_clock, root, c->dir, "pp_dpm_mclk");
	fill_from_kfd(info, root, c->bus_id);
	fill_name(info, root, c->dir, GW_VALID(info->pci_device_id) ? device : 0xffff, ids);
	info->max_graphics_clock = info->max_sm_clock;

	/* NVIDIA-only facts. */
	GW_FIELD_FAIL(info->cc_major, GW_FIELD_NOT_SUPPORTED, 0);
	GW_FIELD_FAIL(info->cc_minor, GW_FIELD_NOT_SUPPORTED, 0);
	GW_FIELD_FAIL(info->cuda_cores, GW_FIELD_NOT_SUPPORTED, 0);
	GW_FIELD_FAIL(info->minor_number, GW_FIELD_NOT_SUPPORTED, 0);
	GW_FIELD_FAIL(info->bar1_total, GW_FIELD_NOT_SUPPORTED, 0);
	GW_FIELD_FAIL(info->mig_capable, GW_FIELD_NOT_SUPPORTED, 0);
	gw__u64_set(&info->gpm_supported, 0); /* NVML's GPM is NVIDIA's alone */
}

static void amd_close(void *state)
{
	struct amd_state *s = state;

	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		gw__free(s->devs[i]);
	gw__free(s->devs);
	gw__free(s);
}

static int track_device(struct amd_state *s, struct amd_dev *ad)
{
	struct amd_dev **nd = gw__realloc(s->devs, (s->n + 1) * sizeof(*nd));

	if (!nd)
		return gw__error_set(GW_ENOMEM, "out of memory adding an AMD GPU");
	s->devs = nd;
	s->devs[s->n++] = ad;
	return 0;
}

static int add_devices(gw_context *ctx, struct amd_state *s, const struct candidates *c, int *added)
{
	gw_pci_ids ids = { 0 };
	int rc = 0;

	for (size_t i = 0; i < c->n; i++) {
		struct amd_dev *ad;
		gw_device *d;

		if (gw__device_by_bus_id(ctx, c->v[i].bus_id))
			continue;
		if (!(ad = gw__calloc(1, sizeof(*ad)))) {
			rc = gw__error_set(GW_ENOMEM, "out of memory adding an AMD GPU");
			break;
		}
		if ((rc = track_device(s, ad)) < 0) {
			gw__free(ad);
			break;
		}
		if (!(d = gw__device_add(ctx))) {
			rc = GW_ENOMEM;
			break;
		}
		d->handle = ad;
		fill_static(ctx, d, &c->v[i], &ids);
		find_hwmon(ctx->root, d->sysfs_path, ad);
		(*added)++;
	}
	gw__sysfs_pci_ids_free(&ids);
	return rc;
}

static int amd_open(gw_context *ctx, void **state, gw_backend_status *st)
{
	struct candidates c = { 0 };
	struct amd_state *s;
	gw_str version = { .state = GW_FIELD_UNREAD };
	int added = 0, rc;

	*state = NULL;
	gw__sysfs_str_field(&version, ctx->root, "/sys/module/amdgpu", "version");
	if (GW_VALID(version))
		ctx->driver.amdgpu_version = version;
	if ((rc = scan_pci(ctx, &c)) < 0 || (rc = scan_drm(ctx->root, &c)) < 0) {
		gw__free(c.v);
		return rc;
	}
	if (!c.n) {
		gw__free(c.v);
		st->state = GW_BACKEND_NOTHING_FOUND;
		gw__status_msg(ctx, st, "no AMD GPU bound to the amdgpu driver");
		return 0;
	}
	if (!(s = gw__calloc(1, sizeof(*s)))) {
		gw__free(c.v);
		return gw__error_set(GW_ENOMEM, "out of memory opening the amdgpu backend");
	}
	*state = s;
	rc = add_devices(ctx, s, &c, &added);
	gw__free(c.v);
	if (rc < 0)
		return rc; /* the context frees s through amd_close */
	st->state = added ? GW_BACKEND_OK : GW_BACKEND_NOTHING_FOUND;
	if (!added)
		gw__status_msg(ctx, st, "every amdgpu device was already listed by another backend");
	return 0;
}

/* ---- samples ---------------------------------------------------------------- */

/* Everything this backend cannot know is NOT_SUPPORTED, not UNREAD: every
 * sampled metric of the table, before the ones sysfs has are read. */
static void sample_defaults(gw_device_sample *s)
{
	gw__metrics_fail_sample(s, GW_FIELD_NOT_SUPPORTED);
}

/* A hwmon value in micro- or milli-units, scaled to the base unit. */
static int hwmon_value(const char *root, const char *hwmon, const char *name, double scale, double *out)
{
	int64_t v;
	int rc;

	if (!hwmon[0])
		return GW_ENOTFOUND;
	if ((rc = gw__sysfs_read_i64(root, hwmon, name, &v)) < 0)
		return rc;
	*out = (double)v * scale;
	return 0;
}

static void hwmon_field(gw_f64 *f, const char *root, const char *hwmon, const char *name, double scale)
{
	double v;
	int rc = hwmon_value(root, hwmon, name, scale, &v);

	if (rc < 0)
		gw__sysfs_fail_f64(f, rc);
	else
		gw__f64_set(f, v);
}

static bool temp_sensor_present(const char *root, const struct amd_dev *ad, int n)
{
	char name[32];
	double v;

	snprintf(name, sizeof(name), "temp%d_input", n);
	return n > 0 && hwmon_value(root, ad->hwmon, name, 0.001, &v) != GW_ENOTFOUND;
}

static void sample_temperatures(const char *root, const struct amd_dev *ad, gw_device_sample *s)
{
	char name[32];
	/* The edge sensor is what other tools call "the" temperature; MI200 and
	 * later have no edge sensor, so fall back to the junction (hotspot). */
	int n = ad->temp_index[TEMP_EDGE];

	if (!temp_sensor_present(root, ad, n))
		n = ad->temp_index[TEMP_JUNCTION];
	if (n) {
		snprintf(name, sizeof(name), "temp%d_input", n);
		hwmon_field(&s->temperature, root, ad->hwmon, name, 0.001);
		snprintf(name, sizeof(name), "temp%d_crit", n);
		hwmon_field(&s->temperature_slowdown, root, ad->hwmon, name, 0.001);
		snprintf(name, sizeof(name), "temp%d_emergency", n);
		hwmon_field(&s->temperature_shutdown, root, ad->hwmon, name, 0.001);
	}
	if ((n = ad->temp_index[TEMP_MEM])) {
		snprintf(name, sizeof(name), "temp%d_input", n);
		hwmon_field(&s->temperature_memory, root, ad->hwmon, name, 0.001);
	}
}

static void sample_power_and_fan(const char *root, const struct amd_dev *ad, gw_device_sample *s)
{
	double pwm, pwm_max;
	int rc;

	/* power1_average on most GPUs; power1_input on newer RDNA3 and MI300. */
	hwmon_field(&s->power_draw, root, ad->hwmon, "power1_average", 1e-6);
	if (s->power_draw.state == GW_FIELD_NOT_SUPPORTED)
		hwmon_field(&s->power_draw, root, ad->hwmon, "power1_input", 1e-6);
	hwmon_field(&s->power_limit, root, ad->hwmon, "power1_cap", 1e-6);
	hwmon_field(&s->energy, root, ad->hwmon, "energy1_input", 1e-6);

	if ((rc = hwmon_value(root, ad->hwmon, "pwm1", 1, &pwm)) < 0) {
		gw__sysfs_fail_u64(&s->fan_percent, rc);
		return;
	}
	if (hwmon_value(root, ad->hwmon, "pwm1_max", 1, &pwm_max) < 0)
		pwm_max = 255; /* the hwmon ABI's default range */
	if (pwm < 0 || pwm_max <= 0 || pwm > pwm_max)
		GW_FIELD_FAIL(s->fan_percent, GW_FIELD_ERROR, GW_EPARSE);
	else
		gw__u64_set(&s->fan_percent, (uint64_t)(pwm * 100.0 / pwm_max + 0.5));
}

static void current_clock(gw_u64 *f, const char *root, const char *dir, const char *name)
{
	uint64_t max, cur;
	bool have_cur;
	int rc = read_dpm(root, dir, name, &max, &cur, &have_cur);

	if (rc < 0)
		gw__sysfs_fail_u64(f, rc);
	else if (!have_cur)
		GW_FIELD_FAIL(*f, GW_FIELD_NOT_SUPPORTED, 0);
	else
		gw__u64_set(f, cur);
}

static void sample_memory(const char *root, const gw_device *d, gw_device_sample *s)
{
	gw__sysfs_u64_field(&s->memory_used, root, d->sysfs_path, "mem_info_vram_used");
	if (!GW_VALID(s->memory_used) || !GW_VALID(d->info.memory_total))
		GW_FIELD_FAIL(s->memory_free, s->memory_used.state == GW_FIELD_ERROR ? GW_FIELD_ERROR : GW_FIELD_NOT_SUPPORTED,
			      s->memory_used.code);
	else if (s->memory_used.v > d->info.memory_total.v)
		GW_FIELD_FAIL(s->memory_free, GW_FIELD_ERROR, GW_EPARSE);
	else
		gw__u64_set(&s->memory_free, d->info.memory_total.v - s->memory_used.v);
}

static void sample_ecc(const char *root, const char *dir, gw_device_sample *s)
{
	char *text;
	size_t len;
	uint64_t ue, ce;
	int rc = gw__sysfs_read_text(root, dir, "ras/umc_err_count", 256, &text, &len);

	if (rc == 0) {
		rc = gw__sysfs_parse_ras_count(text, len, &ue, &ce);
		gw__free(text);
	}
	if (rc < 0) {
		gw__sysfs_fail_u64(&s->ecc_uncorrected_volatile, rc);
		gw__sysfs_fail_u64(&s->ecc_corrected_volatile, rc);
		return;
	}
	gw__u64_set(&s->ecc_uncorrected_volatile, ue);
	gw__u64_set(&s->ecc_corrected_volatile, ce);
}

static int amd_sample(void *state, gw_context *ctx, gw_device *d, gw_device_sample *s)
{
	static const struct amd_dev no_hwmon;
	const struct amd_dev *ad = d->handle ? d->handle : &no_hwmon;
	const char *root = ctx->root, *dir = d->sysfs_path;

	(void)state;
	sample_defaults(s);
	sample_memory(root, d, s);
	gw__sysfs_u64_field(&s->gpu_util, root, dir, "gpu_busy_percent");
	gw__sysfs_u64_field(&s->mem_util, root, dir, "mem_busy_percent");
	if (GW_VALID(s->gpu_util) && s->gpu_util.v > 100)
		GW_FIELD_FAIL(s->gpu_util, GW_FIELD_ERROR, GW_EPARSE);
	if (GW_VALID(s->mem_util) && s->mem_util.v > 100)
		GW_FIELD_FAIL(s->mem_util, GW_FIELD_ERROR, GW_EPARSE);
	sample_temperatures(root, ad, s);
	sample_power_and_fan(root, ad, s);
	current_clock(&s->sm_clock, root, dir, "pp_dpm_sclk");
	current_clock(&s->mem_clock, root, dir, "pp_dpm_mclk");
	s->graphics_clock = s->sm_clock;
	gw__sysfs_link_fields(&s->pcie_gen, &s->pcie_width, root, dir, "current");
	sample_ecc(root, dir, s);
	return 0;
}

/* ---- processes (/proc/<pid>/fdinfo) ---------------------------------------- */

static bool is_number(const char *s)
{
	if (!*s || strlen(s) > 10)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* What one process holds on one GPU: its distinct DRM clients and their VRAM. */
struct pid_use {
	uint64_t clients[PROC_MAX_FDS];
	size_t nclients;
	bool found, have_vram;
	uint64_t vram;
};

/* A real /proc has fd/<n> links: skip the ones that are not DRM devices
 * without opening their fdinfo. A fake tree may lack them: then read it. */
static bool maybe_drm_fd(const char *root, const char *pid, const char *fd)
{
	char path[96], target[256];

	snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid, fd);
	if (gw__readlink(root, path, target, sizeof(target)) < 0)
		return true;
	return !strncmp(target, "/dev/dri/", 9);
}

static void add_client(struct pid_use *u, const gw_drm_fdinfo *fi)
{
	if (fi->have & GW_FDINFO_CLIENT_ID) {
		/* Several fds (dup, fork) can share one client: count it once. */
		for (size_t i = 0; i < u->nclients; i++)
			if (u->clients[i] == fi->client_id)
				return;
		if (u->nclients < PROC_MAX_FDS)
			u->clients[u->nclients++] = fi->client_id;
	}
	u->found = true;
	if (fi->have & GW_FDINFO_VRAM) {
		u->have_vram = true;
		u->vram = fi->vram_bytes > UINT64_MAX - u->vram ? UINT64_MAX : u->vram + fi->vram_bytes;
	}
}

/* Read one fd's fdinfo; add it to u when it is an amdgpu client of bus_id. */
static int scan_fd(const char *root, const char *pid, const char *fd, const char *bus_id, struct pid_use *u)
{
	char path[96], pdev[16];
	char *text;
	size_t len;
	gw_drm_fdinfo fi;
	int rc;

	if (!maybe_drm_fd(root, pid, fd))
		return 0;
	snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s", pid, fd);
	if ((rc = gw__read_file(root, path, FDINFO_LIMIT, &text, &len)) < 0)
		return rc == GW_ENOMEM ? rc : 0;
	rc = gw__proc_parse_drm_fdinfo(text, len, &fi);
	gw__free(text);
	if (rc < 0 || strcmp(fi.driver, "amdgpu") || !(fi.have & GW_FDINFO_PDEV) ||
	    gw__pci_bus_id_normalize(fi.pdev, pdev) < 0 || strcmp(pdev, bus_id))
		return 0;
	add_client(u, &fi);
	return 0;
}

/* The use of bus_id by one process; u->found false when none (or unreadable). */
static int scan_pid(const char *root, const char *pid, const char *bus_id, struct pid_use *u)
{
	char path[64];
	char **fds;
	size_t nfds, seen = 0;
	int rc;

	memset(u, 0, sizeof(*u));
	snprintf(path, sizeof(path), "/proc/%s/fdinfo", pid);
	if ((rc = gw__dir_list(root, path, &fds, &nfds)) < 0)
		return rc == GW_ENOMEM ? rc : 0; /* gone, or another user's: skip */
	rc = 0;
	for (size_t i = 0; i < nfds && seen < PROC_MAX_FDS && rc == 0; i++) {
		if (!is_number(fds[i]))
			continue;
		seen++;
		rc = scan_fd(root, pid, fds[i], bus_id, u);
	}
	gw__dir_list_free(fds, nfds);
	return rc;
}

static int push_process(gw_process **list, size_t *n, size_t *cap, uint32_t pid, const struct pid_use *u)
{
	gw_process *p;

	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		gw_process *nl = gw__realloc(*list, ncap * sizeof(*nl));

		if (!nl)
			return gw__error_set(GW_ENOMEM, "out of memory listing GPU processes");
		*list = nl;
		*cap = ncap;
	}
	p = &(*list)[(*n)++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	/* fdinfo has no graphics/compute split (a client may do both). */
	p->type = GW_PROCESS_COMPUTE;
	if (u->have_vram)
		gw__u64_set(&p->used_memory, u->vram);
	else
		GW_FIELD_FAIL(p->used_memory, GW_FIELD_NOT_SUPPORTED, 0);
	return 0;
}

static int amd_processes(void *state, gw_context *ctx, gw_device *d, gw_process **out, size_t *count)
{
	gw_process *list = NULL;
	struct pid_use *u;
	char **pids;
	size_t npids, n = 0, cap = 0, seen = 0;
	int rc;

	(void)state;
	*out = NULL;
	*count = 0;
	if (!GW_VALID(d->info.pci_bus_id))
		return 0;
	if ((rc = gw__dir_list(ctx->root, "/proc", &pids, &npids)) < 0)
		return rc == GW_ENOMEM ? rc : 0;
	if (!(u = gw__malloc(sizeof(*u)))) {
		gw__dir_list_free(pids, npids);
		return gw__error_set(GW_ENOMEM, "out of memory listing GPU processes");
	}
	rc = 0;
	for (size_t i = 0; i < npids && seen < PROC_MAX_PIDS && rc == 0; i++) {
		uint64_t pid;

		if (!is_number(pids[i]) || gw__parse_u64(pids[i], &pid) < 0 || pid == 0 || pid > UINT32_MAX)
			continue;
		seen++;
		if ((rc = scan_pid(ctx->root, pids[i], d->info.pci_bus_id.s, u)) == 0 && u->found)
			rc = push_process(&list, &n, &cap, (uint32_t)pid, u);
	}
	gw__free(u);
	gw__dir_list_free(pids, npids);
	if (rc < 0) {
		gw__free(list);
		return rc;
	}
	*out = list;
	*count = n;
	return 0;
}

const gw_backend gw__backend_amdgpu = {
	.name = "amdgpu",
	.id = GW_BACKEND_ID_AMDGPU,
	.open = amd_open,
	.close = amd_close,
	.sample = amd_sample,
	.processes = amd_processes,
};
