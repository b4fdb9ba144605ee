/* gpuwise — a small streaming JSON writer used by the CLI and the Python
 * module to produce the ◆ JSON contracts. Output is UTF-8; strings are
 * escaped (invalid UTF-8 bytes become U+FFFD); numbers are locale-free;
 * non-finite doubles become null. Commas and nesting are tracked for you.
 * A NULL writer (gw_json_new out of memory) makes every call a no-op; a NULL
 * string or field is written as null, a NULL key as "".
 *
 *   gw_json *j = gw_json_new(2);          // indent 2, 0 = compact
 *   gw_json_object_begin(j);
 *   gw_json_key(j, "name"); gw_json_string(j, "H100");
 *   gw_json_object_end(j);
 *   fputs(gw_json_text(j), stdout);
 *   gw_json_free(j);
 */
#ifndef GPUWISE_JSON_H
#define GPUWISE_JSON_H

#include <stdint.h>
#include <stddef.h>

#include "gpuwise/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gw_json gw_json;

gw_json *gw_json_new(int indent);
void gw_json_free(gw_json *j);
/* The text so far (NUL-terminated), NULL when an allocation failed. */
const char *gw_json_text(const gw_json *j);
size_t gw_json_length(const gw_json *j);

void gw_json_object_begin(gw_json *j);
void gw_json_object_end(gw_json *j);
void gw_json_array_begin(gw_json *j);
void gw_json_array_end(gw_json *j);
void gw_json_key(gw_json *j, const char *key);
void gw_json_string(gw_json *j, const char *s);       /* NULL → null */
void gw_json_string_n(gw_json *j, const char *s, size_t n);
void gw_json_int(gw_json *j, int64_t v);
void gw_json_uint(gw_json *j, uint64_t v);
void gw_json_double(gw_json *j, double v, int decimals);
void gw_json_bool(gw_json *j, int v);
void gw_json_null(gw_json *j);

/* Field helpers: the value when VALID, null otherwise. */
void gw_json_u64_field(gw_json *j, const char *key, const gw_u64 *f);
void gw_json_f64_field(gw_json *j, const char *key, const gw_f64 *f, int decimals);
void gw_json_str_field(gw_json *j, const char *key, const gw_str *f);

#ifdef __cplusplus
}
#endif
#endif
