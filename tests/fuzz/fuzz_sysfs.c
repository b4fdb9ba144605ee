/* Fuzz every sysfs/procfs parser (lib/backend/sysfs_parse.c, and the CPU
 * lists of lib/bench/affinity.c). The first
 * input byte selects the parser, the rest is its input: multi-line parsers
 * get an exact-size copy (so reading past the end is caught), value parsers
 * a NUL-terminated one. Outputs are checked for bounds and printability. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sysfs_parse.h"
#include "bench/affinity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_string(const char *s, size_t cap, int printable)
{
	size_t n = strnlen(s, cap);

	if (n >= cap)
		__builtin_trap();
	for (size_t i = 0; printable && i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f)
			__builtin_trap();
}

static void fuzz_values(int which, const char *s)
{
	uint32_t u32;
	unsigned u, a, b, c, d;
	int64_t i64;

	switch (which) {
	case 0:
		if (gw__sysfs_parse_hex(s, 0xffffff, &u32) == 0 && u32 > 0xffffff)
			__builtin_trap();
		break;
	case 1:
		if (gw__sysfs_parse_link_speed(s, &u) == 0 && (u < 1 || u > 7))
			__builtin_trap();
		break;
	case 2:
		if (gw__sysfs_parse_link_width(s, &u) == 0 && u > 32)
			__builtin_trap();
		break;
	case 3:
		if (gw__sysfs_bus_id_parts(s, &a, &b, &c, &d) == 0 && (b > 0xff || c > 0x1f || d > 7))
			__builtin_trap();
		break;
	case 4: {
		/* Numbers and CPU lists (local_cpulist): a parsed list must come
		 * back the same through its formatted text. */
		cpu_set_t set, again;
		char text[8192];
		int n;

		gw__sysfs_parse_i64(s, &i64);
		if ((n = gw__cpulist_parse(s, &set)) >= 0) {
			if (n != CPU_COUNT(&set) || !gw__cpulist_format(&set, text, sizeof(text)) ||
			    gw__cpulist_parse(text, &again) != n || !CPU_EQUAL(&set, &again))
				__builtin_trap();
		}
		break;
	}
	case 5: {
		const char *arch = gw__sysfs_amd_arch(s);

		if (arch)
			check_string(arch, 16, 1);
		break;
	}
	}
}

static void fuzz_text(int which, const char *t, size_t n)
{
	char out[GW_STR_MAX], tiny[3];
	uint64_t x, y;
	uint32_t uid;
	bool flag;
	gw_kfd_node node;
	gw_drm_fdinfo fi;

	switch (which) {
	case 6:
		if (gw__sysfs_pci_ids_lookup(t, n, 0x10de, 0x2330, out, sizeof(out)) == 0)
			check_string(out, sizeof(out), 1);
		gw__sysfs_pci_ids_lookup(t, n, 0x1002, 0x74a1, tiny, sizeof(tiny));
		gw__sysfs_pci_ids_lookup(t, n, 0x1234, 0x0000, out, sizeof(out));
		break;
	case 7:
		if (gw__sysfs_parse_kfd_properties(t, n, &node) == 0 && (node.have & GW_KFD_GFX_TARGET) &&
		    gw__sysfs_gfx_name(node.gfx_target_version, out, sizeof(out)) == 0) {
			check_string(out, sizeof(out), 1);
			gw__sysfs_amd_arch(out);
			gw__sysfs_gfx_name(node.gfx_target_version, tiny, sizeof(tiny));
		}
		break;
	case 8:
		if (gw__sysfs_parse_dpm(t, n, &x, &y, &flag) == 0 && flag && y > x)
			__builtin_trap();
		break;
	case 9:
		gw__sysfs_parse_ras_count(t, n, &x, &y);
		break;
	case 10:
		gw__proc_parse_uid(t, n, &uid);
		break;
	case 11:
		gw__proc_cmdline_text(t, n, out, sizeof(out));
		check_string(out, sizeof(out), 1);
		gw__proc_cmdline_text(t, n, tiny, sizeof(tiny));
		check_string(tiny, sizeof(tiny), 1);
		break;
	case 12:
		if (gw__proc_passwd_lookup(t, n, 1000, out, sizeof(out)) == 0)
			check_string(out, sizeof(out), 1);
		gw__proc_passwd_lookup(t, n, 0, tiny, sizeof(tiny));
		{
			unsigned gid;

			/* The probes' form: name and primary group. */
			if (gw__passwd_lookup(t, n, 1000, out, sizeof(out), &gid) == 0)
				check_string(out, sizeof(out), 1);
		}
		break;
	case 13:
		if (n >= 8) {
			uint64_t v;

			memcpy(&v, t, 8);
			if (gw__sysfs_gfx_name(v, out, sizeof(out)) == 0)
				check_string(out, sizeof(out), 1);
		}
		break;
	case 14:
		if (gw__proc_parse_drm_fdinfo(t, n, &fi) == 0) {
			check_string(fi.driver, sizeof(fi.driver), 0);
			check_string(fi.pdev, sizeof(fi.pdev), 0);
			if (!fi.driver[0])
				__builtin_trap();
		}
		break;
	case 15:
		{
			/* gpuwise top's host side of a process. */
			struct gw_proc_stat st;
			uint64_t v;

			gw__proc_parse_times(t, n, &st);
			gw__proc_parse_rss(t, n, &v);
			gw__proc_parse_btime(t, n, &v);
		}
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int which;
	char *copy;

	if (size < 1)
		return 0;
	which = data[0] % 16;
	data++;
	size--;
	if (!(copy = malloc(size + 1)))
		return 0;
	memcpy(copy, data, size);
	if (which <= 5) {
		copy[size] = '\0';
		fuzz_values(which, copy);
	} else {
		fuzz_text(which, copy, size);
	}
	free(copy);
	return 0;
}
