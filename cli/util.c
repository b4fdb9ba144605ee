/* Helpers shared by every command: messages, colour, sizes. They know
 * nothing of the command table (cli/main.c), so nothing here depends on it. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

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

	fputs("gpuwise: warning: ", stderr);
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
	fprintf(stderr, "\nTry 'gpuwise %s --help'.\n", cmd);
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
	return isatty(fileno(stream));
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
