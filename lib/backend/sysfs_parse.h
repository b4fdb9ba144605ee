/* Pure parsers for text read from sysfs, procfs and /etc: no I/O, no
 * allocation, no globals, so every one can be fuzzed (tests/fuzz/fuzz_sysfs.c).
 *
 * Multi-line inputs are given as (text, len) and may hold NULs or any byte;
 * single values are NUL-terminated strings. Every parser returns 0 or
 * GW_EPARSE and leaves its outputs untouched on failure.
 */
#ifndef GPUWISE_SYSFS_PARSE_H
#define GPUWISE_SYSFS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuwise/device.h"

/* ---- PCI ----------------------------------------------------------------- */

/* "0x10de" / "0x030200" (sysfs vendor, device, class files): a hex number
 * no larger than max (gw__parse_hex, lib/core/util.c). */
int gw__sysfs_parse_hex(const char *s, uint32_t max, uint32_t *out);

/* Display controllers: PCI base class 0x03 (VGA 0x0300, 3D 0x0302, other 0x0380).
 * Both are the rule of lib/core/pci.c (gw__pci_is_gpu). */
bool gw__sysfs_is_display_class(uint32_t pci_class);

/* The vendors gpuwise treats as GPU makers; UNKNOWN for any other. */
gw_vendor gw__sysfs_vendor_from_pci(uint32_t vendor_id);

/* "16.0 GT/s PCIe", "8.0 GT/s", "2.5 GT/s" → PCIe generation (1..7).
 * "Unknown" (the kernel cannot tell) → GW_ENOTSUP; anything else → GW_EPARSE. */
int gw__sysfs_parse_link_speed(const char *s, unsigned *gen);

/* "16" → 16; widths are 1..32 (and 0 for a link that is down). */
int gw__sysfs_parse_link_width(const char *s, unsigned *width);

/* Look up vendor:device in pci.ids text; writes "<vendor> <device name>"
 * (vendor shortened to NVIDIA / AMD / Intel for those). GW_ENOTFOUND when the
 * pair is not listed. */
int gw__sysfs_pci_ids_lookup(const char *text, size_t len, uint32_t vendor, uint32_t device,
			     char *out, size_t outsz);

/* "0000:c1:00.0" → parts (any form gw__pci_bus_id_normalize accepts). */
int gw__sysfs_bus_id_parts(const char *bus_id, unsigned *domain, unsigned *bus, unsigned *dev, unsigned *fn);

/* KFD's location_id: bus << 8 | device << 3 | function. */
uint32_t gw__sysfs_location_id(unsigned bus, unsigned dev, unsigned fn);

/* ---- AMD: KFD topology, gfx targets, DPM tables -------------------------- */

enum {
	GW_KFD_SIMD_COUNT = 1 << 0,
	GW_KFD_SIMD_PER_CU = 1 << 1,
	GW_KFD_GFX_TARGET = 1 << 2,
	GW_KFD_LOCATION_ID = 1 << 3,
	GW_KFD_DOMAIN = 1 << 4,
	GW_KFD_VENDOR_ID = 1 << 5,
	GW_KFD_DEVICE_ID = 1 << 6,
	GW_KFD_MAX_ENGINE_CLK = 1 << 7,
	GW_KFD_RENDER_MINOR = 1 << 8
};

/* The keys of a KFD topology node `properties` file that gpuwise uses. */
typedef struct gw_kfd_node {
	unsigned have;               /* GW_KFD_* bits for the keys present and well-formed */
	uint64_t simd_count;         /* 0 for a CPU node */
	uint64_t simd_per_cu;
	uint64_t gfx_target_version; /* major*10000 + minor*100 + stepping */
	uint64_t location_id;
	uint64_t domain;
	uint64_t vendor_id;
	uint64_t device_id;
	uint64_t max_engine_clk_fcompute; /* MHz */
	uint64_t drm_render_minor;
} gw_kfd_node;

/* Parse "key value" lines. Unknown keys and malformed lines are skipped;
 * GW_EPARSE only when no known key was found. */
int gw__sysfs_parse_kfd_properties(const char *text, size_t len, gw_kfd_node *out);

/* 90402 → "gfx942", 90010 → "gfx90a", 110000 → "gfx1100" (major decimal,
 * minor and stepping one hex digit each). */
int gw__sysfs_gfx_name(uint64_t gfx_target_version, char *out, size_t outsz);

/* "gfx942" → "CDNA3", "gfx1030" → "RDNA2"; NULL when not known. */
const char *gw__sysfs_amd_arch(const char *gfx);

/* pp_dpm_sclk / pp_dpm_mclk: "0: 500Mhz\n1: 2100Mhz *\n". *max_mhz gets the
 * highest level, *cur_mhz the level marked '*' (*have_cur false when none). */
int gw__sysfs_parse_dpm(const char *text, size_t len, uint64_t *max_mhz, uint64_t *cur_mhz, bool *have_cur);

/* ras/<block>_err_count: "ue: 0\nce: 3\n". */
int gw__sysfs_parse_ras_count(const char *text, size_t len, uint64_t *ue, uint64_t *ce);

/* A signed decimal integer (hwmon: millidegrees, microwatts). */
int gw__sysfs_parse_i64(const char *s, int64_t *out);

/* ---- procfs and /etc/passwd: in lib/core/proc_parse.c ------------------ */

#include "core/proc_parse.h"

/* ---- DRM fdinfo (/proc/<pid>/fdinfo/<fd>) -------------------------------- */

enum {
	GW_FDINFO_DRIVER = 1 << 0,
	GW_FDINFO_PDEV = 1 << 1,
	GW_FDINFO_CLIENT_ID = 1 << 2,
	GW_FDINFO_VRAM = 1 << 3
};

/* The keys of one DRM file descriptor's fdinfo that gpuwise uses. */
typedef struct gw_drm_fdinfo {
	unsigned have;          /* GW_FDINFO_* bits for the keys present and well-formed */
	char driver[32];        /* "drm-driver:" ("amdgpu"); "amdgpu" for the old format */
	char pdev[32];          /* "drm-pdev:" (or old "pdev:") as written, e.g. "0000:c3:00.0" */
	uint64_t client_id;     /* "drm-client-id:" (old amdgpu: "pasid:") */
	uint64_t vram_bytes;    /* drm-memory-vram, else drm-resident-vram, else "vram mem" */
} gw_drm_fdinfo;

/* Parse one fdinfo file. Sizes take an optional unit (none = bytes, "KiB",
 * "MiB", "GiB", or amdgpu 5.x's "kB" meaning KiB). GW_EPARSE when the text
 * is not a DRM fd's fdinfo (no driver name and no old amdgpu keys). */
int gw__proc_parse_drm_fdinfo(const char *text, size_t len, gw_drm_fdinfo *out);

#endif
