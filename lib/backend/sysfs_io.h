/* Reading sysfs attributes into device fields, shared by the pci and amdgpu
 * backends. Every read goes through gw__read_file with the context's root.
 *
 * Field states follow one rule: a file that is absent means the device or
 * kernel does not have it (NOT_SUPPORTED, also for GW_ENOTSUP); a file
 * that exists but cannot be read or holds garbage is ERROR with the
 * gw_error code in `code`.
 */
#ifndef GPUWISE_SYSFS_IO_H
#define GPUWISE_SYSFS_IO_H

#include <stddef.h>
#include <stdint.h>

#include "gpuwise/gpuwise.h"

/* Read <dir>/<name> into buf, whitespace-trimmed. GW_EPARSE when the value
 * does not fit buf or holds a NUL byte (garbage). */
int gw__sysfs_read(const char *root, const char *dir, const char *name, char *buf, size_t bufsz);

/* A whole multi-line attribute (pp_dpm_sclk, properties), at most limit
 * bytes; free *out with gw__free. */
int gw__sysfs_read_text(const char *root, const char *dir, const char *name, size_t limit,
			char **out, size_t *len);

int gw__sysfs_read_u64(const char *root, const char *dir, const char *name, uint64_t *out);
int gw__sysfs_read_i64(const char *root, const char *dir, const char *name, int64_t *out);
int gw__sysfs_read_hex(const char *root, const char *dir, const char *name, uint32_t max, uint32_t *out);

/* Set a field to the state a failed read deserves (see above). */
void gw__sysfs_fail_u64(gw_u64 *f, int rc);
void gw__sysfs_fail_f64(gw_f64 *f, int rc);
void gw__sysfs_fail_str(gw_str *f, int rc);

/* Fill a field from an attribute: unsigned decimal, or printable ASCII text
 * ("" counts as NOT_SUPPORTED). */
void gw__sysfs_u64_field(gw_u64 *f, const char *root, const char *dir, const char *name);
void gw__sysfs_str_field(gw_str *f, const char *root, const char *dir, const char *name);

/* PCIe generation and width from "<prefix>_link_speed" / "<prefix>_link_width"
 * (prefix "max" or "current"). */
void gw__sysfs_link_fields(gw_u64 *gen, gw_u64 *width, const char *root, const char *dir, const char *prefix);

/* The basename of the target of <dir>/driver: "nvidia", "amdgpu"; "" when
 * no driver is bound (or the link is unreadable). */
void gw__sysfs_driver_name(const char *root, const char *dir, char *buf, size_t bufsz);

/* The folder to read for the entry `path` (e.g. /sys/bus/pci/devices/X):
 * the entry itself, or the target of an absolute symbolic link, taken under
 * the root (the kernel would follow it out of a fake tree). */
void gw__sysfs_device_dir(const char *root, const char *path, char *out, size_t outsz);

/* pci.ids, read lazily once per backend run. */
typedef struct gw_pci_ids {
	char *text;
	size_t len;
	int tried;
} gw_pci_ids;

/* A GPU's name from its PCI ids: for AMD the marketing name of amdgpu.ids
 * when device and revision (-1: unknown) tell it ("AMD Radeon RX 7900 XTX");
 * else pci.ids ("NVIDIA GH100 [H100 SXM5 80GB]"); else gpuwise's NVIDIA
 * table. True when named so; false when out holds only the ids
 * ("NVIDIA GPU [10de:2330]"). */
bool gw__sysfs_pci_name(gw_pci_ids *ids, const char *root, uint32_t vendor, uint32_t device, int revision,
			char *out, size_t outsz);
void gw__sysfs_pci_ids_free(gw_pci_ids *ids);

#endif
