/* The one PCI bus scanner: every GPU in /sys/bus/pci/devices, under the
 * root. The pci and amdgpu backends and the doctor's hardware probe all
 * walk the bus through gw__pci_scan(), so they agree on what a GPU is: a
 * display controller (PCI base class 0x03: VGA 0x0300, 3D 0x0302, other
 * 0x0380) made by NVIDIA, AMD or Intel. */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/vendor.h"
#include "core/pci.h"

#define PCI_DEVICES "/sys/bus/pci/devices"

bool gw__pci_is_display_class(uint32_t pci_class)
{
	return (pci_class >> 16) == 0x03;
}

gw_vendor gw__pci_vendor(uint32_t vendor_id)
{
	return gw__vendor_traits_by_pci(vendor_id)->vendor;
}

bool gw__pci_is_gpu(uint32_t pci_class, uint32_t vendor_id)
{
	return gw__pci_is_display_class(pci_class) && gw__pci_vendor(vendor_id) != GW_VENDOR_UNKNOWN;
}

void gw__pci_device_dir(const char *root, const char *path, char *out, size_t outsz)
{
	char target[GW_PATH_MAX];

	if (gw__readlink(root, path, target, sizeof(target)) == 0 && target[0] == '/' && strlen(target) < outsz)
		gw__strlcpy(out, target, outsz);
	else
		gw__strlcpy(out, path, outsz);
}

void gw__pci_driver_name(const char *root, const char *dir, char *buf, size_t bufsz)
{
	char path[GW_PATH_MAX], target[GW_PATH_MAX];
	const char *base;
	int n;

	buf[0] = '\0';
	n = snprintf(path, sizeof(path), "%s/driver", dir);
	if (n < 0 || (size_t)n >= sizeof(path) || gw__readlink(root, path, target, sizeof(target)) < 0)
		return;
	/* "../../../bus/pci/drivers/nvidia" or "/sys/bus/pci/drivers/nvidia". */
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	for (const char *p = base; *p; p++)
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f)
			return; /* not a driver name */
	gw__strlcpy(buf, base, bufsz);
}

int gw__pci_read_hex(const char *root, const char *dir, const char *name, uint32_t max, uint32_t *out)
{
	char path[GW_PATH_MAX];
	char *text;
	size_t len;
	int n, rc;

	n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return gw__error_set(GW_EINVAL, "sysfs path '%s/%s' is too long", dir, name);
	/* One byte more than a value holds, to tell a long value from one that fits. */
	if ((rc = gw__read_file(root, path, 32, &text, &len)) < 0)
		return rc;
	rc = len < 32 && !memchr(text, '\0', len) ? gw__parse_hex(text, max, out) : GW_EPARSE;
	gw__free(text);
	return rc;
}

/* Fill f from the entry; false when it is not a GPU (or not a bus id). */
static bool read_function(const char *root, const char *name, gw_pci_fn *f)
{
	char entry[256];
	uint32_t rev;
	int n;

	memset(f, 0, sizeof(*f));
	if (gw__pci_bus_id_normalize(name, f->bus_id) < 0)
		return false;
	n = snprintf(entry, sizeof(entry), PCI_DEVICES "/%s", name);
	if (n < 0 || (size_t)n >= sizeof(entry))
		return false;
	gw__pci_device_dir(root, entry, f->dir, sizeof(f->dir));
	if (gw__pci_read_hex(root, f->dir, "class", 0xffffff, &f->class_code) < 0 ||
	    gw__pci_read_hex(root, f->dir, "vendor", 0xffff, &f->vendor) < 0 || !gw__pci_is_gpu(f->class_code, f->vendor))
		return false;
	f->have_device = gw__pci_read_hex(root, f->dir, "device", 0xffff, &f->device) == 0;
	if (!f->have_device)
		f->device = 0xffff; /* still a GPU; the id is just unreadable */
	f->have_subsys = gw__pci_read_hex(root, f->dir, "subsystem_vendor", 0xffff, &f->subsys_vendor) == 0 &&
			 gw__pci_read_hex(root, f->dir, "subsystem_device", 0xffff, &f->subsys_device) == 0;
	/* The revision tells cards of one chip apart (AMD names, amdgpu.ids). */
	f->revision = gw__pci_read_hex(root, f->dir, "revision", 0xff, &rev) == 0 ? (int)rev : -1;
	gw__pci_driver_name(root, f->dir, f->driver, sizeof(f->driver));
	return true;
}

int gw__pci_scan(const char *root, gw_pci_fn **out, size_t *count)
{
	gw_pci_fn *v = NULL;
	char **names;
	size_t n, found = 0;
	int rc;

	*out = NULL;
	*count = 0;
	if ((rc = gw__dir_list(root, PCI_DEVICES, &names, &n)) < 0)
		return rc;
	if (n && !(v = gw__calloc(n, sizeof(*v)))) {
		gw__dir_list_free(names, n);
		return gw__error_set(GW_ENOMEM, "out of memory scanning the PCI bus");
	}
	for (size_t i = 0; i < n; i++)
		if (read_function(root, names[i], &v[found]))
			found++;
	gw__dir_list_free(names, n);
	*out = v;
	*count = found;
	return 0;
}
