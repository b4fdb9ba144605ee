/* Small helpers every layer shares (lib/core/util.c): bounded strings and
 * messages, field setters, UTF-8, numbers, the clock. */
#ifndef GPUWISE_CORE_UTIL_H
#define GPUWISE_CORE_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "gpuwise/gpuwise.h"

#define GW_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* snprintf into a fixed buffer, always NUL-terminated, truncating. */
void gw__strlcpy(char *dst, const char *src, size_t size);
/* Now on `clock` in seconds: CLOCK_MONOTONIC for intervals and deadlines,
 * CLOCK_REALTIME for timestamps people read. */
double gw__seconds(clockid_t clock);
/* For messages and other text a person reads: snprintf into out[size]; a
 * text that does not fit ends in "…" (never a character cut in two), so a
 * cut is never silent. Returns true when it fit. Paths must not use this. */
bool gw__fmt(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool gw__vfmt(char *out, size_t size, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/* End the full buffer buf[size] with "…" (the text was cut). */
void gw__mark_cut(char *buf, size_t size);
void gw__str_set(gw_str *f, const char *s);         /* VALID with value s */
void gw__u64_set(gw_u64 *f, uint64_t v);            /* VALID */
void gw__f64_set(gw_f64 *f, double v);              /* VALID */
#define GW_FIELD_FAIL(f, st, c) do { (f).state = (st); (f).code = (c); } while (0)

/* Append the bytes s[0..n) to the string in out (size outsz, truncating
 * at a character boundary): valid UTF-8 kept, control characters (C0, DEL,
 * C1) and bytes that are not UTF-8 as '?'. */
void gw__copy_printable(char *out, size_t outsz, const char *s, size_t n);

/* Length (1-4) of the valid UTF-8 sequence at s (n bytes available), 0 when
 * invalid: overlong forms, surrogates and code points past U+10FFFF. */
size_t gw__utf8_seq_len(const unsigned char *s, size_t n);

/* Parse unsigned decimal or 0x-hex integer from a sysfs-style value. Returns
 * 0 or GW_EPARSE when the text is not a whole number (trailing space OK). */
int gw__parse_u64(const char *s, uint64_t *out);

/* "0x10de" / "0x030200" / "10de": a hex number (at most 8 digits, blanks
 * around allowed) no larger than max. 0 or GW_EPARSE. */
int gw__parse_hex(const char *s, uint32_t max, uint32_t *out);

#endif
