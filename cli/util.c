/* Helpers shared by every command: messages, colour, sizes. They know
 * nothing of the command table (cli/main.c), so nothing here depends on it. */
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <unistd.h>

#include "gpuwise/gpuwise.h"
#include "commands.h"
#include "text.h"

/* The first of LC_ALL, LC_MESSAGES, LANG that is set: what the user asked
 * the messages to be in (LANGUAGE only refines it). */
static const char *asked_locale(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && v[0])
			return v;
	}
	return NULL;
}

/* "zh_CN.UTF-8", "zh_CN.utf8" → true. */
static bool utf8_locale_name(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot && (!strncasecmp(dot + 1, "utf-8", 5) || !strncasecmp(dot + 1, "utf8", 4));
}

static bool is_c_locale(const char *name)
{
	return !name || !strcmp(name, "C") || !strcmp(name, "POSIX");
}

void setup_language(void)
{
	const char *asked = asked_locale(), *language = getenv("LANGUAGE");

	if (setlocale(LC_ALL, "")) {
		/* LANGUAGE=zh_CN alone asks for Chinese too, but gettext ignores
		 * LANGUAGE in the C locale. LC_ALL=C, set on purpose (scripts do
		 * it for plain English output), keeps it ignored. */
		const char *all = getenv("LC_ALL");

		if (language && language[0] && strncmp(language, "en", 2) && is_c_locale(setlocale(LC_MESSAGES, NULL)) &&
		    !(all && all[0]))
			setlocale(LC_ALL, "C.UTF-8");
		return;
	}
	/* Not installed. Its language survives where its charset is UTF-8. */
	if (!asked || !utf8_locale_name(asked) || !setlocale(LC_ALL, "C.UTF-8"))
		return;
	if (!language || !language[0]) {
		char lang[32];
		size_t n = strcspn(asked, ".@");

		if (n && n < sizeof(lang)) {
			memcpy(lang, asked, n);
			lang[n] = '\0';
			setenv("LANGUAGE", lang, 1);
		}
	}
}

void error_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("gpuwise: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void warning_msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpuwise: %s", _("warning: "));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void die_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("gpuwise: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fprintf(stderr, _("Try 'gpuwise %s --help'."), cmd);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

bool use_color(FILE *stream)
{
	const char *nc = getenv("NO_COLOR");
	const char *term = getenv("TERM");

	if (nc && *nc)
		return false;
	if (term && !strcmp(term, "dumb"))
		return false;
	return isatty(text_fd(stream));
}

const char *fmt_bytes(char *buf, size_t n, unsigned long long bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024.0 && u < 5) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%llu B", bytes);
	else
		snprintf(buf, n, "%.1f %s", v, units[u]);
	return buf;
}

bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

double clock_seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Edits (insert, delete, replace, swap two neighbours) from a[0..alen) to
 * b; stops counting at 3, which is too far for a typo anyway. */
static size_t typo_distance(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b), d[3][34];

	if (alen > 32 || blen > 32)
		return 3;
	/* three rows of the optimal-string-alignment table: i-2, i-1, i */
	for (size_t j = 0; j <= blen; j++)
		d[1][j] = j;
	for (size_t i = 1; i <= alen; i++) {
		size_t *cur = d[(i + 1) % 3], *prev = d[i % 3], *prev2 = d[(i + 2) % 3];

		cur[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = prev[j - 1] + cost;

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
	}
	return d[(alen + 1) % 3][blen] < 3 ? d[(alen + 1) % 3][blen] : 3;
}

void suggest_closer(const char *typed, size_t len, const char *candidate, const char **best, size_t *best_d)
{
	size_t d, clen;

	if (!candidate || candidate[0] == '_')
		return;
	clen = strlen(candidate);
	d = typo_distance(typed, len, candidate);
	/* a typo: one or two edits, and fewer than half the name */
	if (d == 0 || d > 2 || 2 * d > clen || (*best && d >= *best_d))
		return;
	*best = candidate;
	*best_d = d;
}
