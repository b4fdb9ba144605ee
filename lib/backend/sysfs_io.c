/* Reading sysfs attributes into device fields (see sysfs_io.h). */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/vendor.h"
#include "core/pci.h"
#include "backend/sysfs_io.h"
#include "backend/sysfs_parse.h"
#include "hardware/tables.h"

static int attr_path(char *out, size_t outsz, const char *dir, const char *name)
{
	int n = snprintf(out, outsz, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= outsz)
		return gw__error_set(GW_EINVAL, "sysfs path '%s/%s' is too long", dir, name);
	return 0;
}

int gw__sysfs_read_text(const char *root, const char *dir, const char *name, size_t limit,
			char **out, size_t *len)
{
	char path[GW_PATH_MAX];
	int rc;

	if ((rc = attr_path(path, sizeof(path), dir, name)) < 0)
		return rc;
	return gw__read_file(root, path, limit, out, len);
}

int gw__sysfs_read(const char *root, const char *dir, const char *name, char *buf, size_t bufsz)
{
	char *data;
	size_t len, start = 0;
	int rc;

	if (bufsz < 2)
		return GW_EINVAL;
	/* One byte more than fits, to tell a long value from one that fits. */
	if ((rc = gw__sysfs_read_text(root, dir, name, bufsz, &data, &len)) < 0)
		return rc;
	while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == ' ' || data[len - 1] == '\t' || data[len - 1] == '\r'))
		len--;
	while (start < len && (data[start] == ' ' || data[start] == '\t'))
		start++;
	if (len - start >= bufsz || memchr(data + start, '\0', len - start)) {
		gw__free(data);
		return gw__error_set(GW_EPARSE, "%s/%s: malformed value", dir, name);
	}
	memcpy(buf, data + start, len - start);
	buf[len - start] = '\0';
	gw__free(data);
	return 0;
}

int gw__sysfs_read_u64(const char *root, const char *dir, const char *name, uint64_t *out)
{
	char buf[32];
	int rc;

	if ((rc = gw__sysfs_read(root, dir, name, buf, sizeof(buf))) < 0)
		return rc;
	return gw__parse_u64(buf, out);
}

int gw__sysfs_read_i64(const char *root, const char *dir, const char *name, int64_t *out)
{
	char buf[32];
	int rc;

	if ((rc = gw__sysfs_read(root, dir, name, buf, sizeof(buf))) < 0)
		return rc;
	return gw__sysfs_parse_i64(buf, out);
}

int gw__sysfs_read_hex(const char *root, const char *dir, const char *name, uint32_t max, uint32_t *out)
{
	char buf[32];
	int rc;

	if ((rc = gw__sysfs_read(root, dir, name, buf, sizeof(buf))) < 0)
		return rc;
	return gw__sysfs_parse_hex(buf, max, out);
}

static gw_field_state state_for(int rc)
{
	return rc == GW_ENOTFOUND || rc == GW_ENOTSUP ? GW_FIELD_NOT_SUPPORTED : GW_FIELD_ERROR;
}

void gw__sysfs_fail_u64(gw_u64 *f, int rc)
{
	f->state = state_for(rc);
	f->code = f->state == GW_FIELD_ERROR ? rc : 0;
}

void gw__sysfs_fail_f64(gw_f64 *f, int rc)
{
	f->state = state_for(rc);
	f->code = f->state == GW_FIELD_ERROR ? rc : 0;
}

void gw__sysfs_fail_str(gw_str *f, int rc)
{
	f->state = state_for(rc);
	f->code = f->state == GW_FIELD_ERROR ? rc : 0;
}

void gw__sysfs_u64_field(gw_u64 *f, const char *root, const char *dir, const char *name)
{
	uint64_t v;
	int rc = gw__sysfs_read_u64(root, dir, name, &v);

	if (rc < 0)
		gw__sysfs_fail_u64(f, rc);
	else
		gw__u64_set(f, v);
}

void gw__sysfs_str_field(gw_str *f, const char *root, const char *dir, const char *name)
{
	char buf[GW_STR_MAX];
	int rc = gw__sysfs_read(root, dir, name, buf, sizeof(buf));

	if (rc < 0) {
		gw__sysfs_fail_str(f, rc);
		return;
	}
	if (!buf[0]) {
		GW_FIELD_FAIL(*f, GW_FIELD_NOT_SUPPORTED, 0);
		return;
	}
	/* Names, serials and versions are ASCII; anything else is garbage and
	 * must not reach a terminal or a JSON string. */
	for (const char *p = buf; *p; p++) {
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) {
			GW_FIELD_FAIL(*f, GW_FIELD_ERROR, GW_EPARSE);
			return;
		}
	}
	gw__str_set(f, buf);
}

void gw__sysfs_link_fields(gw_u64 *gen, gw_u64 *width, const char *root, const char *dir, const char *prefix)
{
	char name[32], buf[48];
	unsigned v;
	int rc;

	snprintf(name, sizeof(name), "%s_link_speed", prefix);
	rc = gw__sysfs_read(root, dir, name, buf, sizeof(buf));
	if (rc == 0 && (rc = gw__sysfs_parse_link_speed(buf, &v)) == 0)
		gw__u64_set(gen, v);
	else
		gw__sysfs_fail_u64(gen, rc);

	snprintf(name, sizeof(name), "%s_link_width", prefix);
	rc = gw__sysfs_read(root, dir, name, buf, sizeof(buf));
	if (rc == 0 && (rc = gw__sysfs_parse_link_width(buf, &v)) == 0)
		gw__u64_set(width, v);
	else
		gw__sysfs_fail_u64(width, rc);
}

void gw__sysfs_driver_name(const char *root, const char *dir, char *buf, size_t bufsz)
{
	gw__pci_driver_name(root, dir, buf, bufsz);
}

void gw__sysfs_device_dir(const char *root, const char *path, char *out, size_t outsz)
{
	gw__pci_device_dir(root, path, out, outsz);
}

static const char *const pci_ids_paths[] = {
	"/usr/share/misc/pci.ids",
	"/usr/share/hwdata/pci.ids",
	"/usr/share/pci.ids",
};

bool gw__sysfs_pci_name(gw_pci_ids *ids, const char *root, uint32_t vendor, uint32_t device, int revision,
			char *out, size_t outsz)
{
	const char *vname = gw__vendor_traits_by_pci(vendor)->short_name;
	const gw_row_nvidia_gpus *row;
	const char *amd;

	/* amdgpu.ids tells cards of one chip apart by revision, which pci.ids
	 * cannot ("Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]"). */
	if (vendor == 0x1002 && (amd = gw__tbl_amd_gpu_name(device, revision))) {
		snprintf(out, outsz, "%s", amd);
		return true;
	}
	if (!ids->tried) {
		ids->tried = 1;
		/* pci.ids is about 1.5 MB; 8 MB bounds a garbage file. */
		for (size_t i = 0; i < GW_ARRAY_SIZE(pci_ids_paths) && !ids->text; i++)
			if (gw__read_file(root, pci_ids_paths[i], 8u << 20, &ids->text, &ids->len) < 0)
				ids->text = NULL;
	}
	if (ids->text && gw__sysfs_pci_ids_lookup(ids->text, ids->len, vendor, device, out, outsz) == 0)
		return true;
	/* No pci.ids on this system: gpuwise's own table knows the common GPUs. */
	if (vendor == 0x10de && (row = gw__tbl_nvidia_gpu_by_id(device))) {
		snprintf(out, outsz, "NVIDIA %s", row->name);
		return true;
	}
	snprintf(out, outsz, "%s GPU [%04x:%04x]", vname, vendor, device);
	return false;
}

void gw__sysfs_pci_ids_free(gw_pci_ids *ids)
{
	gw__free(ids->text);
	ids->text = NULL;
	ids->len = 0;
}
