/* Pure parsers for /proc/<pid>/status and cmdline, /etc/passwd and
 * /etc/group (see core/proc_parse.h): no I/O, no allocation, fuzzed through
 * tests/fuzz/fuzz_sysfs.c and fuzz_probe_parsers.c. The one place gpuwise
 * reads users and groups, for the process list and for doctor's device
 * permission checks alike. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "core/util.h"
#include "core/proc_parse.h"

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


/* The field [start, end) as a decimal number of 1 to max_digits digits
 * (10 for ids, 19 for the 64-bit counters of /proc/<pid>/stat, which never
 * overflow a uint64_t at that length). */
static bool decimal_digits(const char *start, const char *end, size_t max_digits, uint64_t *out)
{
	size_t n = (size_t)(end - start);
	uint64_t v = 0;

	if (n == 0 || n > max_digits)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)start[i]))
			return false;
		v = v * 10 + (uint64_t)(start[i] - '0');
	}
	*out = v;
	return true;
}

static bool decimal_field(const char *start, const char *end, uint64_t *out)
{
	return decimal_digits(start, end, 10, out);
}

static bool decimal_field_long(const char *start, const char *end, uint64_t *out)
{
	return decimal_digits(start, end, 19, out);
}

int gw__proc_parse_uid(const char *text, size_t len, uint32_t *uid)
{
	const char *p = text, *end = text + len, *line;
	size_t n;

	if (!text)
		return GW_EPARSE;
	for (; (line = next_line(p, end, &n)); p = line + n + 1) {
		uint64_t v = 0;
		int digits = 0;
		size_t i = 4;

		if (n < 4 || strncmp(line, "Uid:", 4))
			continue;
		while (i < n && (line[i] == ' ' || line[i] == '\t'))
			i++;
		for (; i < n && isdigit((unsigned char)line[i]); i++) {
			if (++digits > 10)
				return GW_EPARSE;
			v = v * 10 + (uint64_t)(line[i] - '0');
		}
		if (!digits || v > UINT32_MAX || (i < n && line[i] != ' ' && line[i] != '\t'))
			return GW_EPARSE;
		*uid = (uint32_t)v;
		return 0;
	}
	return GW_EPARSE;
}

void gw__proc_cmdline_text(const char *data, size_t len, char *out, size_t outsz)
{
	const unsigned char *s = (const unsigned char *)data;
	size_t w = 0, i = 0;

	if (!out || outsz == 0)
		return;
	if (!data)
		len = 0;
	/* Trailing NULs end the last argument; they are not separators. */
	while (len > 0 && s[len - 1] == '\0')
		len--;
	while (i < len) {
		size_t k = gw__utf8_seq_len((const unsigned char *)s + i, len - i);

		if (k > 1 && s[i] == 0xc2 && s[i + 1] < 0xa0)
			k = 0; /* a C1 control: '?' like the C0 ones */
		if (k > 1) {
			if (w + k >= outsz)
				break;
			memcpy(out + w, s + i, k);
			w += k;
			i += k;
			continue;
		}
		if (w + 1 >= outsz)
			break;
		if (s[i] == '\0')
			out[w++] = ' ';
		else if (k == 0 || s[i] < 0x20 || s[i] == 0x7f)
			out[w++] = '?';
		else
			out[w++] = (char)s[i];
		i++;
	}
	while (w > 0 && out[w - 1] == ' ')
		w--;
	out[w] = '\0';
	/* Cut short: say so with "…", at a character boundary. */
	if (i < len && outsz >= 4) {
		if (w + 4 > outsz)
			w = outsz - 4;
		while (w > 0 && ((unsigned char)out[w] & 0xc0) == 0x80)
			w--;
		memcpy(out + w, "\xe2\x80\xa6", 4);
	}
}

int gw__passwd_lookup(const char *text, size_t len, uint32_t uid, char *name, size_t namesz, unsigned *gid)
{
	const char *p = text, *end = text + len, *line;
	size_t n;

	if (!text || !name || namesz == 0)
		return GW_EPARSE;
	for (; (line = next_line(p, end, &n)); p = line + n + 1) {
		/* name:password:uid:gid:gecos:home:shell */
		const char *c1 = memchr(line, ':', n), *c2, *c3, *c4;
		uint64_t v, g = 0;

		if (!c1 || c1 == line || line[0] == '#' || line[0] == '+' || line[0] == '-')
			continue;
		c2 = memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line));
		if (!c2)
			continue;
		c3 = memchr(c2 + 1, ':', n - (size_t)(c2 + 1 - line));
		if (!c3 || !decimal_field(c2 + 1, c3, &v) || v != uid)
			continue;
		if (gid) {
			c4 = memchr(c3 + 1, ':', n - (size_t)(c3 + 1 - line));
			if (!c4 || !decimal_field(c3 + 1, c4, &g) || g > UINT32_MAX)
				continue;
		}
		name[0] = '\0';
		gw__copy_printable(name, namesz, line, (size_t)(c1 - line));
		if (gid)
			*gid = (unsigned)g;
		return 0;
	}
	return GW_ENOTFOUND;
}

int gw__proc_passwd_lookup(const char *text, size_t len, uint32_t uid, char *out, size_t outsz)
{
	return gw__passwd_lookup(text, len, uid, out, outsz, NULL);
}

bool gw__parse_group_member(const char *text, unsigned gid, const char *user, unsigned primary_gid,
			    char *name, size_t namesz)
{
	const char *p = text;

	if (namesz)
		name[0] = '\0';
	while (*p) {
		const char *eol = strchr(p, '\n');
		const char *f[4];
		const char *c = p;
		int nf = 1;
		uint64_t g;
		char num[16];
		size_t n;

		f[0] = p;
		while (*c && *c != '\n' && nf < 4) {
			if (*c == ':')
				f[nf++] = c + 1;
			c++;
		}
		if (nf == 4) {
			n = (size_t)(f[3] - 1 - f[2]);
			if (n < sizeof(num)) {
				memcpy(num, f[2], n);
				num[n] = '\0';
				if (gw__parse_u64(num, &g) == 0 && g == gid) {
					size_t nl = (size_t)(f[1] - 1 - f[0]);
					const char *m = f[3];
					size_t ul = user ? strlen(user) : 0;

					if (namesz) {
						if (nl >= namesz)
							nl = namesz - 1;
						memcpy(name, f[0], nl);
						name[nl] = '\0';
					}
					if (gid == primary_gid)
						return true;
					while (ul && *m && *m != '\n') {
						if (!strncmp(m, user, ul) && (m[ul] == ',' || m[ul] == '\n' || m[ul] == '\0' || m[ul] == '\r'))
							return true;
						while (*m && *m != ',' && *m != '\n')
							m++;
						if (*m == ',')
							m++;
					}
					return false;
				}
			}
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	return gid == primary_gid;
}

/* The number after `key` (a whole word at a line's start) on its line,
 * digits up to 20 of them, spaces and tabs skipped; the text after it is
 * left to the caller's key ("VmRSS:" is in kB). */
static int keyed_number(const char *text, size_t len, const char *key, uint64_t *out)
{
	const char *p = text, *end = text + len, *line;
	size_t n, klen = strlen(key);

	if (!text)
		return GW_EPARSE;
	for (; (line = next_line(p, end, &n)); p = line + n + 1) {
		uint64_t v = 0;
		size_t i = klen;
		int digits = 0;

		if (n <= klen || memcmp(line, key, klen) || (line[klen] != ' ' && line[klen] != '\t'))
			continue;
		while (i < n && (line[i] == ' ' || line[i] == '\t'))
			i++;
		for (; i < n && isdigit((unsigned char)line[i]); i++) {
			if (++digits > 19)
				return GW_EPARSE;
			v = v * 10 + (uint64_t)(line[i] - '0');
		}
		if (!digits)
			return GW_EPARSE;
		*out = v;
		return 0;
	}
	return GW_ENOTFOUND;
}

int gw__proc_parse_rss(const char *text, size_t len, uint64_t *bytes)
{
	uint64_t kb;
	int rc = keyed_number(text, len, "VmRSS:", &kb);

	if (rc < 0)
		return rc;
	if (kb > UINT64_MAX / 1024)
		return GW_EPARSE;
	*bytes = kb * 1024;
	return 0;
}

int gw__proc_parse_btime(const char *text, size_t len, uint64_t *btime)
{
	return keyed_number(text, len, "btime", btime);
}

int gw__proc_parse_times(const char *text, size_t len, struct gw_proc_stat *out)
{
	const char *p, *end = text + len;
	uint64_t field[20]; /* fields 3.. of the line: field[k] is field k + 3 */
	int k = 0;

	if (!text || !out)
		return GW_EPARSE;
	/* "pid (comm) state ...": comm may hold spaces and ')', so the fields
	 * start after the last ')'. */
	for (p = end; p > text && p[-1] != ')'; p--)
		;
	if (p == text)
		return GW_EPARSE;
	while (k < 20) {
		const char *s;
		uint64_t v = 0;

		while (p < end && *p == ' ')
			p++;
		for (s = p; p < end && *p != ' ' && *p != '\n'; p++)
			;
		if (p == s)
			return GW_EPARSE;
		/* Field 3 is the state letter, the others used here are numbers
		 * (some, like the parent pid, may be negative: kept as 0). */
		if (k > 0 && *s != '-' && !decimal_field_long(s, p, &v))
			return GW_EPARSE;
		field[k++] = v;
	}
	out->utime = field[14 - 3];
	out->stime = field[15 - 3];
	out->starttime = field[22 - 3];
	return 0;
}
