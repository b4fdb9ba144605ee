/* CPU affinity near a PCI device: see bench/affinity.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/path.h"
#include "core/pci.h"
#include "bench/affinity.h"

/* One decimal CPU number at *p (no sign, below CPU_SETSIZE). */
static int cpu_number(const char **p, unsigned *out)
{
	unsigned v = 0;

	if (!isdigit((unsigned char)**p))
		return GW_EPARSE;
	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (unsigned)(**p - '0');
		if (v >= CPU_SETSIZE)
			return GW_EPARSE;
		(*p)++;
	}
	*out = v;
	return 0;
}

int gw__cpulist_parse(const char *text, cpu_set_t *set)
{
	const char *p = text;

	CPU_ZERO(set);
	if (!text)
		return GW_EPARSE;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n')
		return 0;      /* a device with no local CPUs (some VMs): empty, not garbage */
	for (;;) {
		unsigned a, b;

		if (cpu_number(&p, &a) < 0)
			return GW_EPARSE;
		b = a;
		if (*p == '-') {
			p++;
			if (cpu_number(&p, &b) < 0 || b < a)
				return GW_EPARSE;
		}
		for (unsigned c = a; c <= b; c++)
			CPU_SET(c, set);
		if (*p != ',')
			break;
		p++;
	}
	while (*p == '\n' || *p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return *p ? GW_EPARSE : CPU_COUNT(set);
}

bool gw__cpulist_format(const cpu_set_t *set, char *out, size_t size)
{
	size_t len = 0;

	if (!size)
		return false;
	out[0] = '\0';
	for (unsigned c = 0; c < CPU_SETSIZE; c++) {
		unsigned end = c;
		int n;

		if (!CPU_ISSET(c, set))
			continue;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
			end++;
		n = end > c ? snprintf(out + len, size - len, "%s%u-%u", len ? "," : "", c, end)
			    : snprintf(out + len, size - len, "%s%u", len ? "," : "", c);
		if (n < 0 || (size_t)n >= size - len) {
			gw__mark_cut(out, size);
			return false;
		}
		len += (size_t)n;
		c = end;
	}
	return true;
}

int gw__pci_local_cpus(const char *root, const char *bus_id, cpu_set_t *set)
{
	char norm[16], path[64], text[4096];
	int rc;

	CPU_ZERO(set);
	if (!bus_id || gw__pci_bus_id_normalize(bus_id, norm) < 0)
		return GW_EINVAL;
	for (char *c = norm; *c; c++)
		*c = (char)tolower((unsigned char)*c);   /* sysfs names are lower case */
	if (!gw__fmt(path, sizeof(path), "/sys/bus/pci/devices/%s/local_cpulist", norm))
		return GW_EINVAL;
	if ((rc = gw__read_small(root, path, text, sizeof(text))) < 0)
		return rc;
	return gw__cpulist_parse(text, set);
}
