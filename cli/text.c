/* Human text in the user's locale. See text.h. */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <wchar.h>

#include "text.h"

/* Set once by text_init() before anything is printed, then only read: the
 * process-wide output mode, like the locale it mirrors. */
static bool ascii_mode;
static bool have_wcwidth; /* LC_CTYPE is a UTF-8 locale: wcwidth() knows widths */
static FILE *raw_out, *raw_err;

/* ---- characters ------------------------------------------------------------ */

size_t text_utf8_char(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need;
	uint32_t v;

	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2, v = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 3, v = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 4, v = s[0] & 0x07;
	else
		return 0;
	/* No overlong forms, surrogates or code points past U+10FFFF. */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < need || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 1; i < need; i++) {
		if (i > 1 && (s[i] < 0x80 || s[i] > 0xbf))
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	*cp = v;
	return need;
}

struct range {
	uint32_t lo, hi;
};

static bool in_ranges(uint32_t cp, const struct range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cp >= r[i].lo && cp <= r[i].hi)
			return true;
	return false;
}

/* Wide (2 cells) and zero-width characters, after Unicode's
 * EastAsianWidth.txt (W, F) and general categories Mn/Me/Cf: what
 * wcwidth() says where the C library has no UTF-8 locale to ask. */
static const struct range wide[] = {
	{ 0x1100, 0x115f }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff }, { 0x3400, 0x4dbf },
	{ 0x4e00, 0x9fff }, { 0xa000, 0xa4cf }, { 0xa960, 0xa97f }, { 0xac00, 0xd7a3 },
	{ 0xf900, 0xfaff }, { 0xfe10, 0xfe19 }, { 0xfe30, 0xfe6f }, { 0xff00, 0xff60 },
	{ 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f }, { 0x1f900, 0x1f9ff }, { 0x20000, 0x2fffd },
	{ 0x30000, 0x3fffd },
};
static const struct range zero[] = {
	{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd }, { 0x0610, 0x061a },
	{ 0x064b, 0x065f }, { 0x1ab0, 0x1aff }, { 0x1dc0, 0x1dff }, { 0x200b, 0x200f },
	{ 0x202a, 0x202e }, { 0x2060, 0x2064 }, { 0x20d0, 0x20ff }, { 0xfe00, 0xfe0f },
	{ 0xfe20, 0xfe2f }, { 0xfeff, 0xfeff }, { 0xe0100, 0xe01ef },
};

static int unicode_cells(uint32_t cp)
{
	int w;

	if (have_wcwidth && (w = wcwidth((wchar_t)cp)) >= 0)
		return w;
	if (in_ranges(cp, zero, sizeof(zero) / sizeof(zero[0])))
		return 0;
	return in_ranges(cp, wide, sizeof(wide) / sizeof(wide[0])) ? 2 : 1;
}

/* The glyphs gpuwise itself prints, and common punctuation in data, as
 * ASCII that keeps their meaning. */
static const struct {
	uint32_t cp;
	const char *ascii;
} glyphs[] = {
	{ 0x2713, "[ok]" }, { 0x2714, "[ok]" }, { 0x2717, "[x]" }, { 0x2718, "[x]" },
	{ 0x2014, "-" }, { 0x2013, "-" }, { 0x2012, "-" }, { 0x2212, "-" }, { 0x2026, "..." },
	{ 0x2192, "->" }, { 0x2190, "<-" }, { 0x21d2, "=>" }, { 0x2194, "<->" },
	{ 0x2264, "<=" }, { 0x2265, ">=" }, { 0x2260, "!=" }, { 0x2248, "~" },
	{ 0x00d7, "x" }, { 0x00b1, "+/-" }, { 0x00b0, "deg" }, { 0x00a7, "S" }, { 0x00b5, "u" },
	{ 0x00a0, " " }, { 0x2022, "*" }, { 0x25c6, "*" }, { 0x00b7, "." },
	{ 0x2018, "'" }, { 0x2019, "'" }, { 0x201c, "\"" }, { 0x201d, "\"" },
	{ 0x2588, "#" }, { 0x00b2, "^2" }, { 0x00b3, "^3" }, { 0xfffd, "?" },
};

const char *text_ascii_for(uint32_t cp, char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof(glyphs) / sizeof(glyphs[0]); i++)
		if (glyphs[i].cp == cp) {
			snprintf(buf, n, "%s", glyphs[i].ascii);
			return buf;
		}
	/* Anything else, a name from /etc/passwd, a path: escaped, so it can
	 * still be told apart and read back. */
	snprintf(buf, n, cp > 0xffff ? "\\U%08x" : "\\u%04x", (unsigned)cp);
	return buf;
}

bool text_char_wide(uint32_t cp)
{
	return cp >= 0x1100 && unicode_cells(cp) == 2;
}

int text_char_cells(uint32_t cp)
{
	char buf[16];

	if (cp < 0x80)
		return 1;
	if (ascii_mode)
		return (int)strlen(text_ascii_for(cp, buf, sizeof(buf)));
	return unicode_cells(cp);
}

/* ---- the locale ------------------------------------------------------------ */

/* The variable that decides LC_CTYPE, as setlocale() reads them. */
static const char *ctype_env(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return v;
	}
	return NULL;
}

static bool names_utf8(const char *locale)
{
	return locale && (strcasestr(locale, "utf-8") || strcasestr(locale, "utf8"));
}

/* After setup_language() chose the locale (LC_ALL from the environment,
 * C.UTF-8 standing in for a UTF-8 locale not installed here). */
static bool locale_utf8(void)
{
	const char *env = ctype_env();
	const char *set = nl_langinfo(CODESET);

	if (set && (!strcasecmp(set, "UTF-8") || !strcasecmp(set, "utf8")))
		return true;
	/* No locale named at all (a bare container, a cron job): UTF-8, as
	 * nearly every terminal is. A UTF-8 locale named but not installed:
	 * its name says. LC_ALL=C, said on purpose: ASCII. */
	return !env || names_utf8(env);
}

/* ---- the ASCII filter ------------------------------------------------------ */

struct filter {
	int fd;
	unsigned char pend[4]; /* a character cut between two writes */
	size_t npend;
};

static bool write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* Does s[0..n) start a UTF-8 character that needs more bytes than n? */
static bool cut_character(const unsigned char *s, size_t n)
{
	size_t need = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 :
		      s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;

	if (!need || n >= need)
		return false;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return false;
	return true;
}

/* Worst case 3 bytes out per byte in: "\u0080" for a 2-byte character. */
#define CHUNK 1024
#define CHUNK_OUT (3 * (CHUNK + 4))

/* ASCII for the characters of s into out; returns the bytes used: all but
 * a character cut at the end, which the next write completes. */
static size_t to_ascii(const char *s, size_t n, char *out, size_t *outlen)
{
	size_t i = 0, o = 0;

	while (i < n) {
		uint32_t cp;
		size_t k = text_utf8_char(s + i, n - i, &cp);
		char buf[16];

		if (k == 0) {
			if (cut_character((const unsigned char *)s + i, n - i))
				break;
			out[o++] = '?';
			i++;
		} else if (cp < 0x80) {
			out[o++] = s[i++];
		} else {
			size_t l = strlen(text_ascii_for(cp, buf, sizeof(buf)));

			memcpy(out + o, buf, l);
			o += l;
			i += k;
		}
	}
	*outlen = o;
	return i;
}

static ssize_t filter_write(void *cookie, const char *data, size_t size)
{
	struct filter *f = cookie;
	char in[CHUNK + 4], out[CHUNK_OUT];
	size_t done = 0;

	while (done < size) {
		size_t take = size - done < CHUNK ? size - done : CHUNK;
		size_t n = f->npend + take, used, olen;

		memcpy(in, f->pend, f->npend);
		memcpy(in + f->npend, data + done, take);
		done += take;
		used = to_ascii(in, n, out, &olen);
		if (!write_all(f->fd, out, olen))
			return -1;
		f->npend = n - used; /* < 4: a cut character */
		memcpy(f->pend, in + used, f->npend);
	}
	return (ssize_t)size;
}

/* The filters of stdout and stderr live until the process ends (exit()
 * flushes the streams but never closes them): kept here, they stay
 * reachable instead of reading as leaks to LeakSanitizer. */
static struct filter *filters[2];

static int filter_close(void *cookie)
{
	struct filter *f = cookie;
	bool ok = true;

	/* A character never finished is not text: one '?' per byte. */
	for (size_t i = 0; i < f->npend; i++)
		ok = ok && write_all(f->fd, "?", 1);
	for (size_t i = 0; i < 2; i++)
		if (filters[i] == f)
			filters[i] = NULL;
	free(f);
	return ok ? 0 : -1;
}

static FILE *filter_open(int fd, int buffering)
{
	static const cookie_io_functions_t io = { .write = filter_write, .close = filter_close };
	struct filter *f = calloc(1, sizeof(*f));
	FILE *s;

	if (!f)
		return NULL;
	f->fd = fd;
	if (!(s = fopencookie(f, "w", io))) {
		free(f);
		return NULL;
	}
	filters[fd == STDERR_FILENO] = f;
	setvbuf(s, NULL, buffering, BUFSIZ);
	return s;
}

void text_init(void)
{
	bool utf8;

	/* Numbers are written as C writes them ("60.5", in JSON above all),
	 * whatever LC_NUMERIC the language brought: a German locale would
	 * make that "60,5" and the JSON invalid. */
	setlocale(LC_NUMERIC, "C");
	utf8 = locale_utf8();
	const char *set = nl_langinfo(CODESET);
	FILE *out, *err;

	have_wcwidth = set && !strcasecmp(set, "UTF-8");
	/* UTF-8 output without a UTF-8 locale: borrow C.UTF-8 for widths. */
	if (utf8 && !have_wcwidth && setlocale(LC_CTYPE, "C.UTF-8"))
		have_wcwidth = (set = nl_langinfo(CODESET)) && !strcasecmp(set, "UTF-8");
	raw_out = stdout;
	raw_err = stderr;
	if (utf8)
		return;
	fflush(stdout);
	fflush(stderr);
	out = filter_open(STDOUT_FILENO, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);
	err = filter_open(STDERR_FILENO, _IONBF);
	if (!out || !err) {
		if (out)
			fclose(out);
		if (err)
			fclose(err);
		return; /* out of memory this early: UTF-8 is better than nothing */
	}
	stdout = out;
	stderr = err;
	ascii_mode = true;
}

bool text_ascii(void)
{
	return ascii_mode;
}

int text_fd(FILE *stream)
{
	if (stream && ascii_mode && stream == stdout)
		return STDOUT_FILENO;
	if (stream && ascii_mode && stream == stderr)
		return STDERR_FILENO;
	return stream ? fileno(stream) : -1;
}

FILE *text_raw_stdout(void)
{
	if (!ascii_mode)
		return stdout;
	fflush(stdout);
	return raw_out;
}

bool text_flush(void)
{
	bool ok = fflush(stdout) == 0 && !ferror(stdout);

	if (ascii_mode)
		ok = fflush(raw_out) == 0 && !ferror(raw_out) && ok;
	return ok;
}
