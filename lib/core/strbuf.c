/* The growable string buffer (strbuf.h). */
#include "core/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char empty_text[1];

bool gw__sb_grow(gw_strbuf *sb, size_t extra)
{
	size_t want, cap;
	char *p;

	if (sb->oom)
		return false;
	if (extra > SIZE_MAX - sb->len - 1)
		goto fail;
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return true;
	/* Double, so n appends cost O(n) copies in all. */
	cap = sb->alloc ? sb->alloc : 64;
	while (cap < want)
		cap = cap > SIZE_MAX / 2 ? want : cap * 2;
	if (!(p = realloc(sb->buf, cap)))
		goto fail;
	if (!sb->buf)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = cap;
	return true;
fail:
	sb->oom = true;
	return false;
}

void gw__sb_add(gw_strbuf *sb, const void *data, size_t n)
{
	if (!gw__sb_grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void gw__sb_adds(gw_strbuf *sb, const char *s)
{
	gw__sb_add(sb, s, strlen(s));
}

void gw__sb_addc(gw_strbuf *sb, char c)
{
	gw__sb_add(sb, &c, 1);
}

void gw__sb_vaddf(gw_strbuf *sb, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n >= 0 && gw__sb_grow(sb, (size_t)n)) {
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, again);
		sb->len += (size_t)n;
	}
	va_end(again);
}

void gw__sb_addf(gw_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gw__sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void gw__sb_setlen(gw_strbuf *sb, size_t n)
{
	if (!sb->buf || n > sb->len)
		return;
	sb->len = n;
	sb->buf[n] = '\0';
}

const char *gw__sb_str(const gw_strbuf *sb)
{
	return sb->buf ? sb->buf : empty_text;
}

char *gw__sb_detach(gw_strbuf *sb, size_t *len)
{
	char *text;

	if (sb->oom || !gw__sb_grow(sb, 0)) {
		gw__sb_release(sb);
		return NULL;
	}
	text = sb->buf;
	if (len)
		*len = sb->len;
	*sb = (gw_strbuf)GW_STRBUF_INIT;
	return text;
}

void gw__sb_release(gw_strbuf *sb)
{
	free(sb->buf);
	*sb = (gw_strbuf)GW_STRBUF_INIT;
}
