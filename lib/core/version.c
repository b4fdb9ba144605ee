/* Dotted version numbers ("550.54.15", "12.4", "2.5.1+cu121"): parsing,
 * comparison, construction. Used by the backends, the probes, the tables
 * and the doctor alike, so they live in core. Pure functions (fuzzed through
 * tests/fuzz/fuzz_probe_parsers.c). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/version.h"

int gw__version_parse(const char *s, gw_ver *out)
{
	gw_ver v;
	const char *p;
	size_t n = 0;

	memset(&v, 0, sizeof(v));
	*out = v;
	if (!s)
		return GW_EPARSE;
	while (*s == ' ' || *s == '\t' || *s == '"' || *s == '\'')
		s++;
	if ((*s == 'v' || *s == 'V') && isdigit((unsigned char)s[1]))
		s++;
	p = s;
	while (isdigit((unsigned char)*p)) {
		unsigned long long x = 0;

		while (isdigit((unsigned char)*p)) {
			if (x < 100000000ull)
				x = x * 10 + (unsigned)(*p - '0');
			p++;
		}
		if (v.nparts < GW_ARRAY_SIZE(v.part))
			v.part[v.nparts++] = (unsigned)x;
		if (*p != '.' || !isdigit((unsigned char)p[1]))
			break;
		p++;
	}
	if (v.nparts == 0)
		return GW_EPARSE;
	/* Keep the whole token as text: "2.5.1+cu121", "9.1.0.70". */
	while (s[n] && n + 1 < sizeof(v.text) && !isspace((unsigned char)s[n]) &&
	       s[n] != '"' && s[n] != '\'' && s[n] != ',' && s[n] != ')' && s[n] != ';')
		n++;
	memcpy(v.text, s, n);
	v.text[n] = '\0';
	*out = v;
	return 0;
}

int gw__version_cmp(const gw_ver *a, const gw_ver *b)
{
	if (!a->nparts || !b->nparts)
		return (a->nparts != 0) - (b->nparts != 0);
	for (size_t i = 0; i < GW_ARRAY_SIZE(a->part); i++) {
		unsigned x = i < a->nparts ? a->part[i] : 0;
		unsigned y = i < b->nparts ? b->part[i] : 0;

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

void gw__version_set(gw_ver *v, unsigned nparts, unsigned a, unsigned b, unsigned c)
{
	memset(v, 0, sizeof(*v));
	if (nparts == 0)
		return;
	if (nparts > 3)
		nparts = 3;
	v->part[0] = a;
	v->part[1] = b;
	v->part[2] = c;
	v->nparts = nparts;
	if (nparts == 1)
		snprintf(v->text, sizeof(v->text), "%u", a);
	else if (nparts == 2)
		snprintf(v->text, sizeof(v->text), "%u.%u", a, b);
	else
		snprintf(v->text, sizeof(v->text), "%u.%u.%u", a, b, c);
}

bool gw__version_older(const gw_ver *a, const gw_ver *b)
{
	unsigned n = a->nparts < b->nparts ? a->nparts : b->nparts;

	for (unsigned i = 0; i < n; i++)
		if (a->part[i] != b->part[i])
			return a->part[i] < b->part[i];
	return false;
}

/* gpuwise's own release (GPUWISE_VERSION in the public header). */
const char *gw_version(void)
{
	return GPUWISE_VERSION;
}
