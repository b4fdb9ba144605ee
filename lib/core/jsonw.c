/* Streaming JSON writer (include/gpuwise/json.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "gpuwise/json.h"

#define JSON_MAX_DEPTH 64

struct gw_json {
	char *buf;
	size_t len, cap;
	int indent;
	int depth;
	int failed;
	unsigned char count[JSON_MAX_DEPTH]; /* items written at each depth (saturating) */
	int after_key;
};

gw_json *gw_json_new(int indent)
{
	gw_json *j = gw__calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->indent = indent < 0 ? 0 : indent;
	if (!(j->buf = gw__malloc(256))) {
		gw__free(j);
		return NULL;
	}
	j->cap = 256;
	j->buf[0] = '\0';
	return j;
}

void gw_json_free(gw_json *j)
{
	if (!j)
		return;
	gw__free(j->buf);
	gw__free(j);
}

const char *gw_json_text(const gw_json *j)
{
	return j && !j->failed ? j->buf : NULL;
}

size_t gw_json_length(const gw_json *j)
{
	return j ? j->len : 0;
}

static void put(gw_json *j, const char *s, size_t n)
{
	if (j->failed)
		return;
	if (j->len + n + 1 > j->cap) {
		size_t ncap = j->cap;
		char *nb;

		while (j->len + n + 1 > ncap)
			ncap *= 2;
		if (!(nb = gw__realloc(j->buf, ncap))) {
			j->failed = 1;
			return;
		}
		j->buf = nb;
		j->cap = ncap;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void puts_(gw_json *j, const char *s)
{
	put(j, s, strlen(s));
}

static void newline(gw_json *j)
{
	if (!j->indent)
		return;
	put(j, "\n", 1);
	for (int i = 0; i < j->depth * j->indent; i++)
		put(j, " ", 1);
}

/* Separator and indentation before a value or key at the current depth. */
static void before_item(gw_json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth > 0) {
		if (j->count[j->depth] > 0)
			put(j, ",", 1);
		newline(j);
	}
	if (j->count[j->depth] < 255)
		j->count[j->depth]++;
}

static void open_(gw_json *j, const char *c)
{
	if (!j) /* a writer whose gw_json_new failed: every call is a no-op */
		return;
	before_item(j);
	puts_(j, c);
	if (j->depth + 1 < JSON_MAX_DEPTH) {
		j->depth++;
		j->count[j->depth] = 0;
	}
}

static void close_(gw_json *j, const char *c)
{
	int had;

	if (!j)
		return;
	had = j->count[j->depth] > 0;

	if (j->depth > 0)
		j->depth--;
	if (had)
		newline(j);
	puts_(j, c);
}

void gw_json_object_begin(gw_json *j) { open_(j, "{"); }
void gw_json_object_end(gw_json *j) { close_(j, "}"); }
void gw_json_array_begin(gw_json *j) { open_(j, "["); }
void gw_json_array_end(gw_json *j) { close_(j, "]"); }

static void escaped(gw_json *j, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	put(j, "\"", 1);
	while (i < n) {
		unsigned char c = p[i];
		char tmp[8];
		size_t l;

		switch (c) {
		case '"': puts_(j, "\\\""); i++; continue;
		case '\\': puts_(j, "\\\\"); i++; continue;
		case '\n': puts_(j, "\\n"); i++; continue;
		case '\r': puts_(j, "\\r"); i++; continue;
		case '\t': puts_(j, "\\t"); i++; continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7f) {
			snprintf(tmp, sizeof(tmp), "\\u%04x", c);
			puts_(j, tmp);
			i++;
			continue;
		}
		l = gw__utf8_seq_len(p + i, n - i);
		if (l == 0) {
			puts_(j, "\\ufffd");
			i++;
			continue;
		}
		put(j, s + i, l);
		i += l;
	}
	put(j, "\"", 1);
}

void gw_json_key(gw_json *j, const char *key)
{
	if (!j)
		return;
	if (!key)
		key = "";
	before_item(j);
	escaped(j, key, strlen(key));
	put(j, j->indent ? ": " : ":", j->indent ? 2 : 1);
	j->after_key = 1;
}

void gw_json_string_n(gw_json *j, const char *s, size_t n)
{
	if (!s) {
		gw_json_null(j);
		return;
	}
	if (!j)
		return;
	before_item(j);
	escaped(j, s, n);
}

void gw_json_string(gw_json *j, const char *s)
{
	if (!s) {
		gw_json_null(j);
		return;
	}
	gw_json_string_n(j, s, strlen(s));
}

void gw_json_int(gw_json *j, int64_t v)
{
	char tmp[32];

	if (!j)
		return;
	before_item(j);
	snprintf(tmp, sizeof(tmp), "%lld", (long long)v);
	puts_(j, tmp);
}

void gw_json_uint(gw_json *j, uint64_t v)
{
	char tmp[32];

	if (!j)
		return;
	before_item(j);
	snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	puts_(j, tmp);
}

void gw_json_double(gw_json *j, double v, int decimals)
{
	char tmp[64];

	if (!j)
		return;
	if (!isfinite(v)) {
		gw_json_null(j);
		return;
	}
	if (decimals < 0 || decimals > 9)
		decimals = 3;
	before_item(j);
	/* The C locale is never changed by the library, so '.' is the separator. */
	snprintf(tmp, sizeof(tmp), "%.*f", decimals, v);
	/* Trim trailing zeros ("69.500" → "69.5", "69.000" → "69"). */
	if (strchr(tmp, '.')) {
		size_t l = strlen(tmp);

		while (l > 0 && tmp[l - 1] == '0')
			tmp[--l] = '\0';
		if (l > 0 && tmp[l - 1] == '.')
			tmp[l - 1] = '\0';
	}
	puts_(j, tmp);
}

void gw_json_bool(gw_json *j, int v)
{
	if (!j)
		return;
	before_item(j);
	puts_(j, v ? "true" : "false");
}

void gw_json_null(gw_json *j)
{
	if (!j)
		return;
	before_item(j);
	puts_(j, "null");
}

void gw_json_u64_field(gw_json *j, const char *key, const gw_u64 *f)
{
	gw_json_key(j, key);
	if (f && GW_VALID(*f))
		gw_json_uint(j, f->v);
	else
		gw_json_null(j);
}

void gw_json_f64_field(gw_json *j, const char *key, const gw_f64 *f, int decimals)
{
	gw_json_key(j, key);
	if (f && GW_VALID(*f))
		gw_json_double(j, f->v, decimals);
	else
		gw_json_null(j);
}

void gw_json_str_field(gw_json *j, const char *key, const gw_str *f)
{
	gw_json_key(j, key);
	if (f && GW_VALID(*f))
		gw_json_string(j, f->s);
	else
		gw_json_null(j);
}
