/* The PCI bus (lib/core/pci.c): the one scanner and the one rule of what
 * a GPU is. */
#ifndef GPUWISE_CORE_PCI_H
#define GPUWISE_CORE_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuwise/gpuwise.h"

/* The one rule of what a GPU is: a display controller (PCI base class
 * 0x03) made by NVIDIA, AMD or Intel. */
bool gw__pci_is_display_class(uint32_t pci_class);
gw_vendor gw__pci_vendor(uint32_t vendor_id);      /* GW_VENDOR_UNKNOWN for other makers */
bool gw__pci_is_gpu(uint32_t pci_class, uint32_t vendor_id);

/* Normalise a PCI bus id ("00000000:18:00.0", "0000:18:00.0", "18:00.0",
 * upper or lower case) to "0000:18:00.0". Returns 0 or GW_EPARSE. */
int gw__pci_bus_id_normalize(const char *in, char out[16]);

/* One GPU function on the bus. */
typedef struct gw_pci_fn {
	char dir[256];            /* the folder to read: /sys/bus/pci/devices/<id>, or its absolute link target */
	char bus_id[16];          /* normalised "0000:18:00.0" */
	uint32_t class_code, vendor, device, subsys_vendor, subsys_device;
	bool have_device;         /* false: device unreadable (device is 0xffff) */
	bool have_subsys;
	int revision;             /* PCI revision id; -1 when unreadable */
	char driver[64];          /* bound kernel driver ("nvidia", "amdgpu", "vfio-pci"); "" = none */
} gw_pci_fn;

/* Every GPU in <root>/sys/bus/pci/devices, in bus order, as a malloc'd
 * array (free with gw__free; NULL when none). 0, or the listing's error
 * (GW_ENOTFOUND, GW_EPERM, GW_EIO) or GW_ENOMEM. */
int gw__pci_scan(const char *root, gw_pci_fn **out, size_t *count);

/* Read <dir>/<name> as a hex number no larger than max (sysfs vendor,
 * device, class). 0, the read's error, or GW_EPARSE. */
int gw__pci_read_hex(const char *root, const char *dir, const char *name, uint32_t max, uint32_t *out);
/* The folder to read for the entry `path`: the entry itself, or the target
 * of an absolute symbolic link, taken under the root. */
void gw__pci_device_dir(const char *root, const char *path, char *out, size_t outsz);
/* The basename of the target of <dir>/driver ("nvidia"); "" when none. */
void gw__pci_driver_name(const char *root, const char *dir, char *buf, size_t bufsz);

#endif
