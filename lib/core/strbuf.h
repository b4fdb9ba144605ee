/* A growable string buffer, the one way gpuwise builds text of unknown
 * length (reports, /metrics pages, JSON bodies), after git's strbuf and
 * curl's dynbuf. Fixed buffers use gw__fmt (util.c): the one truncation rule
 * is "…" at a character boundary, never a silent cut.
 *
 *   gw_strbuf sb = GW_STRBUF_INIT;
 *   gw__sb_addf(&sb, "%d GPUs", n);
 *   ... gw__sb_str(&sb) ...
 *   gw__sb_release(&sb);
 *
 * An allocation failure is sticky: `oom` is set, the text stays as it was
 * (still NUL-terminated), later appends do nothing, and gw__sb_detach
 * returns NULL, so a caller checks once at the end, not after every call. */
#ifndef GPUWISE_CORE_STRBUF_H
#define GPUWISE_CORE_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct gw_strbuf {
	char *buf;        /* NULL until the first append */
	size_t len;       /* bytes of text, not counting the NUL */
	size_t alloc;     /* bytes allocated */
	bool oom;         /* an allocation failed: the text is incomplete */
} gw_strbuf;

#define GW_STRBUF_INIT { NULL, 0, 0, false }

/* Room for `extra` more bytes and the NUL; false (and oom) when it cannot. */
bool gw__sb_grow(gw_strbuf *sb, size_t extra);
void gw__sb_add(gw_strbuf *sb, const void *data, size_t n);
void gw__sb_adds(gw_strbuf *sb, const char *s);
void gw__sb_addc(gw_strbuf *sb, char c);
void gw__sb_addf(gw_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gw__sb_vaddf(gw_strbuf *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Shorten the text to its first n bytes (n <= len). */
void gw__sb_setlen(gw_strbuf *sb, size_t n);
/* The text, "" while empty: never NULL. */
const char *gw__sb_str(const gw_strbuf *sb);
/* Hand the malloc'd text to the caller (its length in *len when len is not
 * NULL) and reset the buffer; NULL after an allocation failure (the text is
 * freed then: an incomplete text is never handed on). */
char *gw__sb_detach(gw_strbuf *sb, size_t *len);
void gw__sb_release(gw_strbuf *sb);

#endif
