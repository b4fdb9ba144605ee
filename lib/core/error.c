/* Thread-local last-error message, and the pieces to say it again in
 * another language.
 *
 * The library never translates a message when it sets it: the language is
 * the application's business, chosen when it prints (docs/contracts.md
 * "Languages"). So gw__error_set keeps, beside the English message, its
 * format (a literal: the catalogue's msgid) and each argument as printed
 * under its own conversion; gw_error_last_with() puts those pieces into a
 * translated format (which may reorder them, "%2$s"). This file knows no
 * catalogue: gw_error_last_text() and gw__msg_text(), which look the
 * translation up, are lib/core/message.c, above both this file and the
 * catalogue's (lib/core/language.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/util.h"
#include "core/error.h"

/* Marks a text for the catalogue (xgettext's N_) without translating it. */
#define N_(s) (s)

#define MAX_PIECES GW__MSG_PIECES

static _Thread_local struct {
	char message[1024];
	gw__msg m;                      /* its format and pieces */
	char out[1024];                 /* gw_error_last_with's result */
} last;

/* The conversion at fmt (just after '%'): its length (up to and including
 * the conversion letter) in *len, the letter returned, 0 when unknown.
 * *stars counts the '*' (each an int argument before the value). */
static char conversion(const char *fmt, size_t *len, int *stars, char *lenmod)
{
	size_t i = 0;

	*stars = 0;
	*lenmod = 0;
	/* an explicit argument number (n$): only in translations */
	while (fmt[i] >= '0' && fmt[i] <= '9')
		i++;
	if (fmt[i] != '$')
		i = 0;
	else
		i++;
	while (fmt[i] && strchr("-+ #0'", fmt[i]))
		i++;
	if (fmt[i] == '*')
		(*stars)++, i++;
	while (fmt[i] >= '0' && fmt[i] <= '9')
		i++;
	if (fmt[i] == '.') {
		i++;
		if (fmt[i] == '*')
			(*stars)++, i++;
		while (fmt[i] >= '0' && fmt[i] <= '9')
			i++;
	}
	if (fmt[i] == 'z' || fmt[i] == 'j' || fmt[i] == 't' || fmt[i] == 'L')
		*lenmod = fmt[i++];
	else if (fmt[i] == 'l' || fmt[i] == 'h') {
		*lenmod = fmt[i++];
		if (fmt[i] == *lenmod)
			*lenmod = (char)(*lenmod == 'l' ? 'q' : 'H'), i++;
	}
	*len = i + 1;
	return fmt[i] && strchr("diouxXeEfgGcsp%", fmt[i]) ? fmt[i] : 0;
}

/* Print one argument of ap under the conversion spec into dst. */
static int piece(char *dst, size_t n, const char *spec, char conv, char lenmod, int nstars, va_list *ap)
{
	int star[2] = { 0, 0 };

	for (int k = 0; k < nstars; k++)
		star[k] = va_arg(*ap, int);
	/* spec is a conversion copied from a printf-checked format */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#define PIECE(v) (nstars == 2 ? snprintf(dst, n, spec, star[0], star[1], v) : \
		  nstars == 1 ? snprintf(dst, n, spec, star[0], v) : snprintf(dst, n, spec, v))
	switch (conv) {
	case 'd': case 'i':
		switch (lenmod) {
		case 'l': return PIECE(va_arg(*ap, long));
		case 'q': return PIECE(va_arg(*ap, long long));
		case 'z': return PIECE(va_arg(*ap, ssize_t));
		case 'j': return PIECE(va_arg(*ap, intmax_t));
		case 't': return PIECE(va_arg(*ap, ptrdiff_t));
		default: return PIECE(va_arg(*ap, int));
		}
	case 'o': case 'u': case 'x': case 'X':
		switch (lenmod) {
		case 'l': return PIECE(va_arg(*ap, unsigned long));
		case 'q': return PIECE(va_arg(*ap, unsigned long long));
		case 'z': return PIECE(va_arg(*ap, size_t));
		case 'j': return PIECE(va_arg(*ap, uintmax_t));
		case 't': return PIECE(va_arg(*ap, ptrdiff_t));
		default: return PIECE(va_arg(*ap, unsigned int));
		}
	case 'e': case 'E': case 'f': case 'g': case 'G':
		if (lenmod == 'L')
			return PIECE(va_arg(*ap, long double));
		return PIECE(va_arg(*ap, double));
	case 'c': return PIECE(va_arg(*ap, int));
	case 's': return PIECE(va_arg(*ap, const char *));
	case 'p': return PIECE(va_arg(*ap, void *));
	default: return -1;
	}
#undef PIECE
#pragma GCC diagnostic pop
}

/* Each argument of fmt printed alone into m, for translating later. */
static void keep_pieces(gw__msg *m, const char *fmt, va_list *ap)
{
	size_t used = 0;

	m->format = NULL;
	m->sub = NULL;
	m->npieces = 0;
	for (const char *p = fmt; *p; p++) {
		char spec[32], conv, lenmod;
		size_t len;
		int stars, k;

		if (*p != '%')
			continue;
		conv = conversion(p + 1, &len, &stars, &lenmod);
		if (conv == '%') {
			p++;
			continue;
		}
		if (!conv || lenmod == 'h' || lenmod == 'H' || len + 2 > sizeof(spec) ||
		    m->npieces == MAX_PIECES || used >= sizeof(m->text))
			return;
		spec[0] = '%';
		memcpy(spec + 1, p + 1, len);
		spec[len + 1] = '\0';
		k = piece(m->text + used, sizeof(m->text) - used, spec, conv, lenmod, stars, ap);
		if (k < 0 || (size_t)k >= sizeof(m->text) - used)
			return;
		m->at[m->npieces++] = (unsigned short)used;
		used += (size_t)k + 1;
		p += len;
	}
	m->format = fmt;
}

/* A caller may pass the last message itself as an argument ("config.json:
 * %s", gw_error_last()) to wrap it: both halves are written into locals
 * first, so the arguments are read before anything they point into is
 * overwritten (an overlapping vsnprintf is undefined). */
int gw__error_set(int code, const char *fmt, ...)
{
	char message[sizeof(last.message)];
	gw__msg m = { .sub_piece = 0 };
	va_list ap, copy;

	va_start(ap, fmt);
	va_copy(copy, ap);
	gw__vfmt(message, sizeof(message), fmt, ap);
	keep_pieces(&m, fmt, &copy);
	va_end(copy);
	va_end(ap);
	memcpy(last.message, message, sizeof(message));
	last.m = m;
	return code;
}

const char *gw_error_last(void)
{
	return last.message;
}

const char *gw_error_last_format(void)
{
	return last.m.format && last.message[0] ? last.m.format : "";
}

/* The length of a string piece under the translation's conversion: "%.0s"
 * drops it (an English plural ending: "GPU%s" → "块 GPU%.0s"), "%.3s"
 * keeps 3 bytes; any other conversion keeps the piece whole. */
static size_t precision_cut(const char *conv, size_t len, char letter, size_t k)
{
	const char *dot = memchr(conv, '.', len);

	if (letter != 's' || !dot)
		return k;
	return (size_t)strtoul(dot + 1, NULL, 10) < k ? (size_t)strtoul(dot + 1, NULL, 10) : k;
}

/* "2$s" → 1 (a translation's explicit argument, counted from 0); -1 when
 * the conversion takes the next argument. */
static int argument_number(const char *conv)
{
	char *end;
	long n = strtol(conv, &end, 10);

	return end != conv && *end == '$' && n >= 1 && n <= MAX_PIECES ? (int)n - 1 : -1;
}

/* english put into format with m's pieces (into out, n bytes); english
 * itself when format is not a translation of m's format. With a piece_of
 * function, each string piece is what it gives (gw__msg_with). */
static const char *with_format(const gw__msg *m, const char *english, const char *format, gw__msg_piece_fn *piece_of,
			       char *out, size_t n)
{
	size_t o = 0;
	int next = 0;
	char sub[1024];

	if (!format || !m->format || !english[0] || (format == m->format && !m->sub))
		return english;
	for (const char *p = format; *p && o + 1 < n; p++) {
		char conv, lenmod;
		const char *value;
		size_t len, k;
		int stars, arg;

		if (*p != '%') {
			out[o++] = *p;
			continue;
		}
		conv = conversion(p + 1, &len, &stars, &lenmod);
		if (conv == '%') {
			out[o++] = '%';
			p++;
			continue;
		}
		arg = argument_number(p + 1);
		if (arg < 0)
			arg = next++;
		if (!conv || stars || arg < 0 || arg >= m->npieces)
			return english;   /* not a translation of this format */
		value = m->text + m->at[arg];
		if (piece_of && conv == 's')
			value = piece_of(m, arg, value, sub, sizeof(sub));
		k = precision_cut(p + 1, len, conv, strlen(value));
		if (o + k >= n)
			k = n - 1 - o;
		memcpy(out + o, value, k);
		o += k;
		p += len;
	}
	out[o] = '\0';
	return out;
}

const char *gw_error_last_with(const char *format)
{
	return with_format(&last.m, last.message, format, NULL, last.out, sizeof(last.out));
}

const char *gw__msg_with(const gw__msg *m, const char *english, const char *format, gw__msg_piece_fn *piece_of,
			 char *out, size_t n)
{
	return with_format(m, english, format, piece_of, out, n);
}

void gw__msg_vset(gw__msg *m, char *out, size_t n, const char *fmt, va_list ap)
{
	va_list copy;

	va_copy(copy, ap);
	gw__vfmt(out, n, fmt, ap);
	keep_pieces(m, fmt, &copy);
	va_end(copy);
}

void gw__msg_set(gw__msg *m, char *out, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gw__msg_vset(m, out, n, fmt, ap);
	va_end(ap);
}

void gw__msg_nest(gw__msg *m, int piece, const gw__msg *sub)
{
	if (m->format && piece >= 0 && piece < m->npieces && sub != m) {
		m->sub = sub;
		m->sub_piece = piece;
	}
}

void gw__msg_from_last(gw__msg *m, char *out, size_t n)
{
	*m = last.m;
	gw__strlcpy(out, last.message, n);
	/* a copy cut short is no longer what the pieces make */
	if (strlen(last.message) >= n)
		m->format = NULL;
}

int gw__error_restore(int code, const gw__msg *m, const char *english)
{
	last.m = *m;
	gw__strlcpy(last.message, english, sizeof(last.message));
	if (strlen(english) >= sizeof(last.message))
		last.m.format = NULL;
	return code;
}

void gw_error_clear(void)
{
	last.message[0] = '\0';
	last.m.format = NULL;
	last.m.npieces = 0;
}

const char *gw_error_str(int code)
{
	switch (code) {
	case GW_OK: return N_("success");
	case GW_EGENERIC: return N_("failure");
	case GW_ENOMEM: return N_("out of memory");
	case GW_EINVAL: return N_("invalid argument");
	case GW_ENOTFOUND: return N_("not found");
	case GW_ENOGPU: return N_("no GPU found");
	case GW_ELIBRARY: return N_("vendor library could not be loaded");
	case GW_EDRIVER: return N_("driver not loaded");
	case GW_EMISMATCH: return N_("driver/library version mismatch");
	case GW_ELOST: return N_("GPU is lost");
	case GW_EPERM: return N_("permission denied");
	case GW_EIO: return N_("read failed");
	case GW_ENOTSUP: return N_("not supported");
	case GW_EPARSE: return N_("malformed input");
	case GW_EVENDOR: return N_("vendor library error");
	case GW_ETIMEDOUT: return N_("gave up waiting");
	default: return N_("unknown error");
	}
}
