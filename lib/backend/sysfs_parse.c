/* Pure parsers for sysfs, procfs and /etc text (see sysfs_parse.h).
 *
 * Everything here treats its input as hostile: lengths are honoured, not
 * NULs; numbers are bounded; a malformed value is GW_EPARSE, never a guess.
 * No strtod: it follows the caller's locale (a decimal comma breaks "16.0").
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/vendor.h"
#include "core/pci.h"
#include "backend/sysfs_parse.h"

/* Iterate over lines of (text, len): returns the start of the next line or
 * NULL at the end; *line_len excludes the '\n'. */
static const char *next_line(const char *p, const char *end, size_t *line_len)
{
	const char *nl;

	if (p >= end)
		return NULL;
	nl = memchr(p, '\n', (size_t)(end - p));
	*line_len = nl ? (size_t)(nl - p) : (size_t)(end - p);
	return p;
}

/* Copy a bounded slice into a NUL-terminated buffer; false when it does not fit. */
static bool slice_copy(char *dst, size_t dstsz, const char *src, size_t n)
{
	if (n >= dstsz)
		return false;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* ---- PCI ------------------------------------------------------------------ */

int gw__sysfs_parse_hex(const char *s, uint32_t max, uint32_t *out)
{
	return gw__parse_hex(s, max, out);
}

bool gw__sysfs_is_display_class(uint32_t pci_class)
{
	return gw__pci_is_display_class(pci_class);
}

gw_vendor gw__sysfs_vendor_from_pci(uint32_t vendor_id)
{
	return gw__pci_vendor(vendor_id);
}

/* "16.0" → 160 (tenths), bounded; the rest of the string in *rest. */
static int parse_tenths(const char *s, unsigned *tenths, const char **rest)
{
	unsigned v = 0;
	int digits = 0;

	for (; isdigit((unsigned char)*s); s++) {
		if (++digits > 5)
			return GW_EPARSE;
		v = v * 10 + (unsigned)(*s - '0');
	}
	if (!digits)
		return GW_EPARSE;
	v *= 10;
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return GW_EPARSE;
		v += (unsigned)(*s - '0');
		s++;
		while (*s == '0')
			s++;
		if (isdigit((unsigned char)*s))
			return GW_EPARSE; /* no PCIe rate has a second decimal */
	}
	*tenths = v;
	*rest = s;
	return 0;
}

int gw__sysfs_parse_link_speed(const char *s, unsigned *gen)
{
	static const struct { unsigned tenths, gen; } rates[] = {
		{ 25, 1 }, { 50, 2 }, { 80, 3 }, { 160, 4 }, { 320, 5 }, { 640, 6 }, { 1280, 7 },
	};
	unsigned tenths;
	const char *rest;

	if (!s)
		return GW_EPARSE;
	while (is_blank(*s))
		s++;
	/* The kernel's word for a link it cannot train or read. */
	if (!strncmp(s, "Unknown", 7)) {
		for (rest = s + 7; is_blank(*rest); rest++)
			;
		if (!*rest)
			return GW_ENOTSUP;
	}
	if (parse_tenths(s, &tenths, &rest) < 0)
		return GW_EPARSE;
	while (*rest == ' ')
		rest++;
	if (strncmp(rest, "GT/s", 4))
		return GW_EPARSE;
	rest += 4;
	/* Newer kernels append " PCIe"; older ones nothing. */
	while (is_blank(*rest))
		rest++;
	if (!strncmp(rest, "PCIe", 4))
		rest += 4;
	while (is_blank(*rest))
		rest++;
	if (*rest)
		return GW_EPARSE;
	for (size_t i = 0; i < GW_ARRAY_SIZE(rates); i++) {
		if (rates[i].tenths == tenths) {
			*gen = rates[i].gen;
			return 0;
		}
	}
	return GW_EPARSE;
}

int gw__sysfs_parse_link_width(const char *s, unsigned *width)
{
	uint64_t v;

	if (gw__parse_u64(s, &v) < 0 || v > 32)
		return GW_EPARSE;
	*width = (unsigned)v;
	return 0;
}

static const char *short_vendor(uint32_t vendor)
{
	const gw__vendor_traits *t = gw__vendor_traits_by_pci(vendor);

	return t->vendor == GW_VENDOR_UNKNOWN ? NULL : t->short_name;
}

/* A pci.ids id line: `indent` tabs, 4 hex digits, spaces, a name. */
static bool ids_line(const char *line, size_t n, int indent, uint32_t *id, const char **name, size_t *name_len)
{
	char hex[5];
	uint32_t v;
	size_t i = (size_t)indent;

	for (int t = 0; t < indent; t++)
		if (n <= (size_t)t || line[t] != '\t')
			return false;
	if (n < i + 4 || (n > i + 4 && line[i + 4] != ' ' && line[i + 4] != '\t'))
		return false;
	if (n > i && line[i] == '\t')
		return false;
	if (!slice_copy(hex, sizeof(hex), line + i, 4) || gw__sysfs_parse_hex(hex, 0xffff, &v) < 0)
		return false;
	i += 4;
	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	*id = v;
	*name = line + i;
	*name_len = n - i;
	while (*name_len > 0 && is_blank((*name)[*name_len - 1]))
		(*name_len)--;
	return true;
}


int gw__sysfs_pci_ids_lookup(const char *text, size_t len, uint32_t vendor, uint32_t device,
			     char *out, size_t outsz)
{
	const char *p = text, *end = text + len, *line;
	const char *vname = NULL;
	size_t vname_len = 0, n;
	bool in_vendor = false;

	if (!text || !out || outsz == 0)
		return GW_EPARSE;
	for (; (line = next_line(p, end, &n)); p = line + n + 1) {
		uint32_t id;
		const char *name;
		size_t name_len;

		if (n == 0 || line[0] == '#')
			continue;
		if (line[0] != '\t') {
			if (in_vendor)
				break; /* the vendor's block ended without the device */
			/* The class list ("C 03  Display controller") follows the vendors. */
			if (n >= 2 && line[0] == 'C' && line[1] == ' ')
				break;
			if (ids_line(line, n, 0, &id, &name, &name_len) && id == vendor) {
				in_vendor = true;
				vname = name;
				vname_len = name_len;
			}
			continue;
		}
		if (!in_vendor)
			continue;
		if (ids_line(line, n, 1, &id, &name, &name_len) && id == device) {
			const char *sv = short_vendor(vendor);

			out[0] = '\0';
			if (sv)
				gw__copy_printable(out, outsz, sv, strlen(sv));
			else
				gw__copy_printable(out, outsz, vname, vname_len);
			gw__copy_printable(out, outsz, " ", 1);
			gw__copy_printable(out, outsz, name, name_len);
			return 0;
		}
	}
	return GW_ENOTFOUND;
}

int gw__sysfs_bus_id_parts(const char *bus_id, unsigned *domain, unsigned *bus, unsigned *dev, unsigned *fn)
{
	char norm[16];
	unsigned d, b, v, f;

	if (gw__pci_bus_id_normalize(bus_id, norm) < 0)
		return GW_EPARSE;
	if (sscanf(norm, "%4x:%2x:%2x.%1x", &d, &b, &v, &f) != 4)
		return GW_EPARSE;
	*domain = d;
	*bus = b;
	*dev = v;
	*fn = f;
	return 0;
}

uint32_t gw__sysfs_location_id(unsigned bus, unsigned dev, unsigned fn)
{
	return (uint32_t)((bus & 0xff) << 8 | (dev & 0x1f) << 3 | (fn & 7));
}

/* ---- AMD ------------------------------------------------------------------- */

int gw__sysfs_parse_kfd_properties(const char *text, size_t len, gw_kfd_node *out)
{
	static const struct { const char *key; unsigned bit; size_t off; } keys[] = {
		{ "simd_count", GW_KFD_SIMD_COUNT, offsetof(gw_kfd_node, simd_count) },
		{ "simd_per_cu", GW_KFD_SIMD_PER_CU, offsetof(gw_kfd_node, simd_per_cu) },
		{ "gfx_target_version", GW_KFD_GFX_TARGET, offsetof(gw_kfd_node, gfx_target_version) },
		{ "location_id", GW_KFD_LOCATION_ID, offsetof(gw_kfd_node, location_id) },
		{ "domain", GW_KFD_DOMAIN, offsetof(gw_kfd_node, domain) },
		{ "vendor_id", GW_KFD_VENDOR_ID, offsetof(gw_kfd_node, vendor_id) },
		{ "device_id", GW_KFD_DEVICE_ID, offsetof(gw_kfd_node, device_id) },
		{ "max_engine_clk_fcompute", GW_KFD_MAX_ENGINE_CLK, offsetof(gw_kfd_node, max_engine_clk_fcompute) },
		{ "drm_render_minor", GW_KFD_RENDER_MINOR, offsetof(gw_kfd_node, drm_render_minor) },
	};
	const char *p = text, *end = text + len, *line;
	gw_kfd_node node;
	size_t n;

	if (!text)
		return GW_EPARSE;
	memset(&node, 0, sizeof(node));
	for (; (line = next_line(p, end, &n)); p = line + n + 1) {
		const char *sp = memchr(line, ' ', n);
		char key[40], val[32];
		uint64_t v;
		size_t vlen;

		if (!sp || !slice_copy(key, sizeof(key), line, (size_t)(sp - line)))
			continue;
		vlen = n - (size_t)(sp + 1 - line);
		if (!slice_copy(val, sizeof(val), sp + 1, vlen))
			continue;
		if (strlen(val) != vlen || gw__parse_u64(val, &v) < 0)
			continue;
		for (size_t i = 0; i < GW_ARRAY_SIZE(keys); i++) {
			if (!strcmp(key, keys[i].key) && !(node.have & keys[i].bit)) {
				memcpy((char *)&node + keys[i].off, &v, sizeof(v));
				node.have |= keys[i].bit;
			}
		}
	}
	if (!node.have)
		return GW_EPARSE;
	*out = node;
	return 0;
}

int gw__sysfs_gfx_name(uint64_t v, char *out, size_t outsz)
{
	uint64_t major = v / 10000, minor = v / 100 % 100, step = v % 100;
	int n;

	/* The name spells minor and stepping as one hex digit each. */
	if (major == 0 || major > 99 || minor > 15 || step > 15)
		return GW_EPARSE;
	n = snprintf(out, outsz, "gfx%u%x%x", (unsigned)major, (unsigned)minor, (unsigned)step);
	if (n < 0 || (size_t)n >= outsz)
		return GW_EPARSE;
	return 0;
}

const char *gw__sysfs_amd_arch(const char *gfx)
{
	size_t n;
	unsigned major = 0;
	char minor, step;

	if (!gfx || strncmp(gfx, "gfx", 3))
		return NULL;
	gfx += 3;
	n = strlen(gfx);
	if (n < 3 || n > 4)
		return NULL;
	for (size_t i = 0; i + 2 < n; i++) {
		if (!isdigit((unsigned char)gfx[i]))
			return NULL;
		major = major * 10 + (unsigned)(gfx[i] - '0');
	}
	minor = (char)tolower((unsigned char)gfx[n - 2]);
	step = (char)tolower((unsigned char)gfx[n - 1]);
	if (!isxdigit((unsigned char)minor) || !isxdigit((unsigned char)step))
		return NULL;
	switch (major) {
	case 6:
	case 7:
	case 8:
		return "GCN";
	case 9:
		if (minor == '0' && step == '8')
			return "CDNA1";
		if (minor == '0' && step == 'a')
			return "CDNA2";
		if (minor == '4')
			return "CDNA3";
		if (minor == '5')
			return "CDNA4";
		return "GCN5"; /* Vega: gfx900, gfx906, gfx90c, ... */
	case 10:
		return minor >= '3' ? "RDNA2" : "RDNA1";
	case 11:
		return minor >= '5' ? "RDNA3.5" : "RDNA3";
	case 12:
		return "RDNA4";
	default:
		return NULL;
	}
}

/* One pp_dpm line: "<level>: <n>Mhz[ *]"; level may be a digit or "S". */
static int dpm_line(const char *line, size_t n, uint64_t *mhz, bool *current)
{
	const char *colon = memchr(line, ':', n);
	size_t i;
	uint64_t v = 0;
	int digits = 0;

	if (!colon)
		return GW_EPARSE;
	i = (size_t)(colon - line) + 1;
	while (i < n && line[i] == ' ')
		i++;
	for (; i < n && isdigit((unsigned char)line[i]); i++) {
		if (++digits > 7)
			return GW_EPARSE;
		v = v * 10 + (uint64_t)(line[i] - '0');
	}
	if (!digits || n - i < 3 || strncasecmp(line + i, "mhz", 3))
		return GW_EPARSE;
	i += 3;
	*current = false;
	for (; i < n; i++) {
		if (line[i] == '*')
			*current = true;
		else if (!is_blank(line[i]))
			return GW_EPARSE;
	}
	*mhz = v;
	return 0;
}

int gw__sysfs_parse_dpm(const char *text, size_t len, uint64_t *max_mhz, uint64_t *cur_mhz, bool *have_cur)
{
	const char *p = text, *end = text + len, *line;
	uint64_t best = 0, cur = 0;
	bool any = false, marked = false;
	size_t n;

	if (!text)
		return GW_EPARSE;
	for (; (line = next_line(p, end, &n)); p = line + n + 1) {
		uint64_t mhz;
		bool is_cur;

		if (n == 0)
			continue;
		if (dpm_line(line, n, &mhz, &is_cur) < 0)
			return GW_EPARSE;
		any = true;
		if (mhz > best)
			best = mhz;
		if (is_cur && !marked) {
			cur = mhz;
			marked = true;
		}
	}
	if (!any)
		return GW_EPARSE;
	*max_mhz = best;
	*cur_mhz = cur;
	*have_cur = marked;
	return 0;
}

int gw__sysfs_parse_ras_count(const char *text, size_t len, uint64_t *ue, uint64_t *ce)
{
	const char *p = text, *end = text + len, *line;
	uint64_t u = 0, c = 0;
	bool have_u = false, have_c = false;
	size_t n;

	if (!text)
		return GW_EPARSE;
	for (; (line = next_line(p, end, &n)); p = line + n + 1) {
		char val[32];
		uint64_t v;

		if (n < 4 || line[2] != ':' || !slice_copy(val, sizeof(val), line + 3, n - 3))
			continue;
		if (strlen(val) != n - 3 || gw__parse_u64(val, &v) < 0)
			continue;
		if (!strncmp(line, "ue", 2) && !have_u) {
			u = v;
			have_u = true;
		} else if (!strncmp(line, "ce", 2) && !have_c) {
			c = v;
			have_c = true;
		}
	}
	if (!have_u || !have_c)
		return GW_EPARSE;
	*ue = u;
	*ce = c;
	return 0;
}

int gw__sysfs_parse_i64(const char *s, int64_t *out)
{
	char *endp;
	long long v;

	if (!s)
		return GW_EPARSE;
	while (is_blank(*s))
		s++;
	if (!isdigit((unsigned char)*s) && !(*s == '-' && isdigit((unsigned char)s[1])))
		return GW_EPARSE;
	errno = 0;
	v = strtoll(s, &endp, 10);
	if (errno || endp == s)
		return GW_EPARSE;
	while (is_blank(*endp))
		endp++;
	if (*endp)
		return GW_EPARSE;
	*out = v;
	return 0;
}

/* ---- DRM fdinfo ------------------------------------------------------------- */

/* "123456 KiB" → bytes. Digits, optional blanks, an optional unit; nothing else. */
static int fdinfo_size(const char *s, uint64_t *bytes)
{
	static const struct { const char *unit; uint64_t mult; } units[] = {
		{ "", 1 }, { "B", 1 }, { "KiB", 1024 }, { "kB", 1024 }, { "MiB", 1024 * 1024 },
		{ "GiB", 1024ULL * 1024 * 1024 },
	};
	uint64_t v = 0;
	int digits = 0;

	for (; isdigit((unsigned char)*s); s++) {
		if (++digits > 20 || v > (UINT64_MAX - 9) / 10)
			return GW_EPARSE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (!digits)
		return GW_EPARSE;
	while (*s == ' ' || *s == '\t')
		s++;
	for (size_t i = 0; i < GW_ARRAY_SIZE(units); i++) {
		if (strcmp(s, units[i].unit))
			continue;
		if (v > UINT64_MAX / units[i].mult)
			return GW_EPARSE;
		*bytes = v * units[i].mult;
		return 0;
	}
	return GW_EPARSE;
}

/* A decimal id, nothing else. */
static bool fdinfo_id(const char *s, uint64_t *id)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s) || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*id = v;
	return true;
}

/* One "key:\tvalue" line into key and value (value without surrounding blanks). */
static bool fdinfo_line(const char *line, size_t n, char *key, size_t keysz, char *val, size_t valsz)
{
	const char *colon = memchr(line, ':', n), *v, *e = line + n;

	if (!colon || !slice_copy(key, keysz, line, (size_t)(colon - line)) || strlen(key) != (size_t)(colon - line))
		return false;
	for (v = colon + 1; v < e && is_blank(*v); v++)
		;
	while (e > v && is_blank(e[-1]))
		e--;
	return slice_copy(val, valsz, v, (size_t)(e - v)) && strlen(val) == (size_t)(e - v);
}

int gw__proc_parse_drm_fdinfo(const char *text, size_t len, gw_drm_fdinfo *out)
{
	/* VRAM keys by preference: higher wins whatever the line order. */
	static const struct { const char *key; int rank; } vram_keys[] = {
		{ "drm-memory-vram", 3 }, { "drm-resident-vram", 2 }, { "vram mem", 1 },
	};
	const char *p = text, *end = text + len, *line;
	gw_drm_fdinfo fi;
	uint64_t pasid = 0, v;
	bool have_pasid = false, old_keys = false;
	int vram_rank = 0;
	size_t n;

	if (!text || !out)
		return GW_EPARSE;
	memset(&fi, 0, sizeof(fi));
	for (; (line = next_line(p, end, &n)); p = line + n + 1) {
		char key[40], val[64];

		if (!fdinfo_line(line, n, key, sizeof(key), val, sizeof(val)))
			continue;
		if (!strcmp(key, "drm-driver") && val[0] && !(fi.have & GW_FDINFO_DRIVER) &&
		    slice_copy(fi.driver, sizeof(fi.driver), val, strlen(val))) {
			fi.have |= GW_FDINFO_DRIVER;
		} else if ((!strcmp(key, "drm-pdev") || !strcmp(key, "pdev")) && val[0] &&
			   slice_copy(fi.pdev, sizeof(fi.pdev), val, strlen(val))) {
			/* drm-pdev is the newer name of amdgpu 5.x's pdev; either will do. */
			fi.have |= GW_FDINFO_PDEV;
			old_keys |= !strcmp(key, "pdev");
		} else if (!strcmp(key, "drm-client-id") && !(fi.have & GW_FDINFO_CLIENT_ID) && fdinfo_id(val, &v)) {
			fi.client_id = v;
			fi.have |= GW_FDINFO_CLIENT_ID;
		} else if (!strcmp(key, "pasid") && !have_pasid && fdinfo_id(val, &v)) {
			pasid = v;
			have_pasid = true;
		} else {
			for (size_t i = 0; i < GW_ARRAY_SIZE(vram_keys); i++) {
				if (strcmp(key, vram_keys[i].key) || vram_keys[i].rank <= vram_rank ||
				    fdinfo_size(val, &v) < 0)
					continue;
				fi.vram_bytes = v;
				vram_rank = vram_keys[i].rank;
				fi.have |= GW_FDINFO_VRAM;
				old_keys |= vram_keys[i].rank == 1;
			}
		}
	}
	/* amdgpu 5.x wrote no drm-driver line: its own keys name it. */
	if (!(fi.have & GW_FDINFO_DRIVER) && old_keys) {
		gw__strlcpy(fi.driver, "amdgpu", sizeof(fi.driver));
		fi.have |= GW_FDINFO_DRIVER;
	}
	if (!(fi.have & GW_FDINFO_DRIVER))
		return GW_EPARSE;
	/* Without drm-client-id, amdgpu's pasid names the client (one per open). */
	if (!(fi.have & GW_FDINFO_CLIENT_ID) && have_pasid) {
		fi.client_id = pasid;
		fi.have |= GW_FDINFO_CLIENT_ID;
	}
	*out = fi;
	return 0;
}
