/* NVIDIA driver version strings: the kernel module's and a library file
 * name's. Untrusted input (proc/sysfs files, fake trees, fuzzers), so every
 * read is bounded by `len` and by a local copy. */
#include <stdbool.h>
#include <string.h>

#include "backend/nvidia_version.h"
#include "gpuwise/error.h"

enum { VERSION_MAX = 32, TEXT_MAX = 4096 };

/* A version is digits separated by single dots, with at least one dot:
 * "550.54.15", "390.48". Dates ("22"), times ("01:44:30") and arch names
 * ("x86_64") do not qualify. */
static bool looks_like_version(const char *s, size_t n)
{
	bool dot = false;

	if (n == 0 || n >= VERSION_MAX)
		return false;
	if (s[0] < '0' || s[0] > '9' || s[n - 1] < '0' || s[n - 1] > '9')
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.') {
			if (s[i + 1] == '.')
				return false;
			dot = true;
		} else if (s[i] < '0' || s[i] > '9') {
			return false;
		}
	}
	return dot;
}

static int copy_version(const char *s, size_t n, char *out, size_t outsz)
{
	if (!out || outsz <= n)
		return GW_EPARSE;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

/* Copy at most TEXT_MAX-1 bytes, stopping at a NUL, into buf. */
static void bounded_copy(char *buf, const char *text, size_t len)
{
	size_t n = 0;

	if (text)
		while (n < len && n < TEXT_MAX - 1 && text[n])
			n++;
	if (n)
		memcpy(buf, text, n);
	buf[n] = '\0';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The first version-looking whitespace-separated token in [p, end). */
static int first_version_token(const char *p, const char *end, char *out, size_t outsz)
{
	while (p < end) {
		const char *tok;

		while (p < end && is_space(*p))
			p++;
		tok = p;
		while (p < end && !is_space(*p))
			p++;
		if (looks_like_version(tok, (size_t)(p - tok)))
			return copy_version(tok, (size_t)(p - tok), out, outsz);
	}
	return GW_EPARSE;
}

int gw__nvidia_module_version_parse(const char *text, size_t len, char *out, size_t outsz)
{
	char buf[TEXT_MAX];
	const char *line, *end, *km;

	bounded_copy(buf, text, len);
	line = strstr(buf, "NVRM version:");
	if (!line) {
		/* /sys/module/nvidia/version: the version alone on the first line. */
		line = buf;
		while (*line == ' ' || *line == '\t' || *line == '\n')
			line++;
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		while (end > line && is_space(end[-1]))
			end--;
		if (!looks_like_version(line, (size_t)(end - line)))
			return GW_EPARSE;
		return copy_version(line, (size_t)(end - line), out, outsz);
	}
	/* Only the NVRM line: the next one ("GCC version: ... 12.2.0") also
	 * holds a version. */
	end = strchr(line, '\n');
	if (!end)
		end = line + strlen(line);
	line += strlen("NVRM version:");
	km = strstr(line, "Kernel Module");
	if (km && km < end)
		line = km + strlen("Kernel Module");
	return first_version_token(line, end, out, outsz);
}

int gw__nvidia_version_from_filename(const char *path, size_t len, char *out, size_t outsz)
{
	char buf[TEXT_MAX];
	const char *base, *so;
	size_t n;

	bounded_copy(buf, path, len);
	base = strrchr(buf, '/');
	base = base ? base + 1 : buf;
	so = strstr(base, ".so.");
	if (!so)
		return GW_EPARSE;
	so += strlen(".so.");
	n = strlen(so);
	if (!looks_like_version(so, n))
		return GW_EPARSE;
	return copy_version(so, n, out, outsz);
}
