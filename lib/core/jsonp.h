/* gpuwise — a small, strict JSON reader (RFC 8259) that builds a DOM.
 *
 * Used by the fake vendor libraries (machine.json) and by gpuwise itself
 * (e.g. CUDA's version.json). Bounded: nesting depth and input size are
 * limited, every value remembers its line and column so callers can point at
 * the offending spot, and errors come back as "line:col: what went wrong".
 *
 * Built with -DGW_JSON_STANDALONE it uses plain malloc/free and no gw__
 * symbol (the fakes link it alone); otherwise it allocates through
 * gw__malloc/gw__free so fault injection reaches it.
 *
 *   gw_jsonp_error err;
 *   gw_jv *root = gw_jsonp_parse(text, len, NULL, &err);
 *   if (!root) ... err.line, err.col, err.msg
 *   const char *v = gw_jv_str(gw_jv_get(root, "version"));
 *   gw_jsonp_free(root);
 */
#ifndef GPUWISE_JSONP_H
#define GPUWISE_JSONP_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
	GW_JV_NULL,
	GW_JV_BOOL,
	GW_JV_NUMBER,
	GW_JV_STRING,
	GW_JV_ARRAY,
	GW_JV_OBJECT,
} gw_jv_type;

typedef struct gw_jv gw_jv;
typedef struct gw_jv_member gw_jv_member;

struct gw_jv {
	gw_jv_type type;
	int line, col;                 /* 1-based position of the first byte */
	union {
		int boolean;
		struct {
			double d;              /* always set (may be ±HUGE_VAL) */
			int is_int;            /* no fraction/exponent and fits int64 */
			int64_t i;             /* valid when is_int */
		} num;
		struct {
			char *s;               /* NUL-terminated UTF-8, never contains NUL */
			size_t len;
		} str;
		struct {
			gw_jv *items;
			size_t n;
		} arr;
		struct {
			gw_jv_member *members;
			size_t n;
		} obj;
	} u;
};

struct gw_jv_member {
	char *key;
	gw_jv value;
};

typedef struct {
	size_t max_size;     /* bytes of input; 0 = 64 MiB */
	int max_depth;       /* nesting of arrays/objects; 0 = 64 */
} gw_jsonp_limits;

typedef struct {
	int line, col;       /* 1-based; 0 when not tied to a position */
	char msg[160];
} gw_jsonp_error;

/* Parse exactly one JSON value (surrounding whitespace allowed). text need
 * not be NUL-terminated. Returns NULL and fills *err (may be NULL) on error,
 * including out of memory. Strings with \u0000 are rejected (callers use C
 * strings); invalid UTF-8 is rejected; numbers too large for a double become
 * ±HUGE_VAL with is_int 0. */
gw_jv *gw_jsonp_parse(const char *text, size_t len, const gw_jsonp_limits *lim,
		      gw_jsonp_error *err);
void gw_jsonp_free(gw_jv *v);        /* NULL is fine */

/* Accessors: all accept NULL and wrong types, answering NULL / 0. */
const gw_jv *gw_jv_get(const gw_jv *obj, const char *key);  /* last duplicate wins */
const gw_jv *gw_jv_at(const gw_jv *arr, size_t i);
size_t gw_jv_len(const gw_jv *v);                           /* array/object size */
const char *gw_jv_str(const gw_jv *v);                      /* NULL unless string */
int gw_jv_is(const gw_jv *v, gw_jv_type t);
/* 0 and *out set when v is an integer number in range; -1 otherwise. */
int gw_jv_int64(const gw_jv *v, int64_t *out);
const char *gw_jv_type_name(gw_jv_type t);

#endif
