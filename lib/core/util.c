/* Small string and field helpers. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/pci.h"

void gw__strlcpy(char *dst, const char *src, size_t size)
{
	size_t n;

	if (size == 0)
		return;
	n = strlen(src);
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void gw__mark_cut(char *buf, size_t size)
{
	size_t at;

	if (size < 4)
		return;
	/* Back up to the start of a UTF-8 character so none is split. */
	at = size - 4;
	while (at > 0 && ((unsigned char)buf[at] & 0xC0) == 0x80)
		at--;
	memcpy(buf + at, "\xe2\x80\xa6", 4); /* "…" and the NUL */
}

bool gw__vfmt(char *out, size_t size, const char *fmt, va_list ap)
{
	int n;

	if (size == 0)
		return false;
	n = vsnprintf(out, size, fmt, ap);
	if (n < 0) {
		out[0] = '\0';
		return false;
	}
	if ((size_t)n >= size) {
		gw__mark_cut(out, size);
		return false;
	}
	return true;
}

bool gw__fmt(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	bool fit;

	va_start(ap, fmt);
	fit = gw__vfmt(out, size, fmt, ap);
	va_end(ap);
	return fit;
}

void gw__str_set(gw_str *f, const char *s)
{
	gw__fmt(f->s, sizeof(f->s), "%s", s);
	f->state = GW_FIELD_VALID;
	f->code = 0;
}

void gw__u64_set(gw_u64 *f, uint64_t v)
{
	f->v = v;
	f->state = GW_FIELD_VALID;
	f->code = 0;
}

void gw__f64_set(gw_f64 *f, double v)
{
	f->v = v;
	f->state = GW_FIELD_VALID;
	f->code = 0;
}

int gw__parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int base = 10;

	if (!s)
		return GW_EPARSE;
	while (*s == ' ' || *s == '\t')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!isxdigit((unsigned char)*s))
		return GW_EPARSE;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || end == s)
		return GW_EPARSE;
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	if (*end)
		return GW_EPARSE;
	*out = v;
	return 0;
}

int gw__pci_bus_id_normalize(const char *in, char out[16])
{
	unsigned long domain = 0, bus, dev, fn;
	const char *p = in;
	char *end;
	int colons = 0;

	if (!in)
		return GW_EPARSE;
	for (const char *q = in; *q; q++)
		colons += *q == ':';
	if (colons == 2) {
		domain = strtoul(p, &end, 16);
		if (end == p || *end != ':')
			return GW_EPARSE;
		p = end + 1;
	} else if (colons != 1) {
		return GW_EPARSE;
	}
	bus = strtoul(p, &end, 16);
	if (end == p || *end != ':')
		return GW_EPARSE;
	p = end + 1;
	dev = strtoul(p, &end, 16);
	if (end == p || *end != '.')
		return GW_EPARSE;
	p = end + 1;
	fn = strtoul(p, &end, 16);
	if (end == p || (*end && !isspace((unsigned char)*end)))
		return GW_EPARSE;
	/* NVML reports a 32-bit domain; real domains fit 16 bits. */
	if (domain > 0xffffffffUL || bus > 0xff || dev > 0x1f || fn > 7)
		return GW_EPARSE;
	snprintf(out, 16, "%04lx:%02lx:%02lx.%lx", domain & 0xffff, bus, dev, fn);
	return 0;
}

size_t gw__utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c, lo = 0x80, hi = 0xbf;
	size_t need;

	if (n == 0)
		return 0;
	c = s[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 2;
	else if (c >= 0xe0 && c <= 0xef)
		need = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 4;
	else
		return 0;
	/* Reject overlong forms, surrogates and code points past U+10FFFF. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < need || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < need; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return need;
}

static bool hex_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int gw__parse_hex(const char *s, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;
	int digits = 0;

	if (!s)
		return GW_EPARSE;
	while (hex_blank(*s))
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; isxdigit((unsigned char)*s); s++) {
		int d = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;

		if (++digits > 8)
			return GW_EPARSE;
		v = v * 16 + (uint64_t)d;
	}
	while (hex_blank(*s))
		s++;
	if (!digits || *s || v > max)
		return GW_EPARSE;
	*out = (uint32_t)v;
	return 0;
}

/* A garbage file must never put escapes into a terminal: control bytes,
 * C1 controls (U+0080-U+009F, which some terminals obey) and bytes that are
 * not UTF-8 become '?'. Valid UTF-8 stays ("jürgen" from /etc/passwd): the
 * CLI turns it into ASCII where the locale wants that. A character that
 * does not fit whole is left out, never cut. */
void gw__copy_printable(char *out, size_t outsz, const char *s, size_t n)
{
	size_t w = strlen(out);

	for (size_t i = 0; i < n && w + 1 < outsz;) {
		const unsigned char *c = (const unsigned char *)s + i;
		size_t k = gw__utf8_seq_len(c, n - i);

		if (k > 1 && !(c[0] == 0xc2 && c[1] < 0xa0)) {
			if (w + k >= outsz)
				break;
			memcpy(out + w, c, k);
			w += k;
			i += k;
			continue;
		}
		out[w++] = (k == 1 && c[0] >= 0x20 && c[0] != 0x7f) ? (char)c[0] : '?';
		i += k > 1 ? k : 1;
	}
	out[w] = '\0';
}

double gw__seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *gw__env_path(const char *name)
{
	return secure_getenv(name);
}
