/* gpuwise — strict JSON reader building a DOM (see jsonp.h).
 *
 * Recursive descent with an explicit depth bound (the stack stays small
 * whatever the input). Numbers are converted without strtod so the result
 * never depends on the process locale.
 */
#include "jsonp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifdef GW_JSON_STANDALONE
#include <stdlib.h>
#define jp_malloc malloc
#define jp_realloc realloc
#define jp_free free
#else
#include "core/os.h"
#define jp_malloc gw__malloc
#define jp_realloc gw__realloc
#define jp_free gw__free
#endif

#define JP_DEFAULT_MAX_SIZE ((size_t)64 << 20)
#define JP_DEFAULT_MAX_DEPTH 64

typedef struct {
	const char *p, *end;
	const char *line_start;
	int line;
	int depth, max_depth;
	gw_jsonp_error *err;
	int failed;
} jp_parser;

static int col_of(const jp_parser *ps, const char *at)
{
	return (int)(at - ps->line_start) + 1;
}

__attribute__((format(printf, 3, 4)))
static int fail_at(jp_parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return -1;
	ps->failed = 1;
	if (!ps->err)
		return -1;
	ps->err->line = ps->line;
	ps->err->col = col_of(ps, at);
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* A short, printable description of the byte at p for messages. */
static const char *describe(const jp_parser *ps, const char *p, char buf[16])
{
	unsigned char c;

	if (p >= ps->end)
		return "end of input";
	c = (unsigned char)*p;
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, 16, "'%c'", c);
	else
		snprintf(buf, 16, "byte 0x%02x", c);
	return buf;
}

static void skip_ws(jp_parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n') {
			ps->line++;
			ps->line_start = ps->p + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			break;
		}
		ps->p++;
	}
}

static void free_value(gw_jv *v);

static void free_children(gw_jv *v)
{
	size_t i;

	switch (v->type) {
	case GW_JV_STRING:
		jp_free(v->u.str.s);
		break;
	case GW_JV_ARRAY:
		for (i = 0; i < v->u.arr.n; i++)
			free_value(&v->u.arr.items[i]);
		jp_free(v->u.arr.items);
		break;
	case GW_JV_OBJECT:
		for (i = 0; i < v->u.obj.n; i++) {
			jp_free(v->u.obj.members[i].key);
			free_value(&v->u.obj.members[i].value);
		}
		jp_free(v->u.obj.members);
		break;
	default:
		break;
	}
}

static void free_value(gw_jv *v)
{
	free_children(v);
	v->type = GW_JV_NULL;
}

static int parse_value(jp_parser *ps, gw_jv *out);

/* ---- strings ---------------------------------------------------------- */

typedef struct {
	char *s;
	size_t len, cap;
} jp_buf;

static int buf_put(jp_parser *ps, jp_buf *b, const char *data, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 32;
		char *s;

		while (cap < b->len + n + 1)
			cap *= 2;
		s = jp_realloc(b->s, cap);
		if (!s)
			return fail_at(ps, ps->p, "out of memory");
		b->s = s;
		b->cap = cap;
	}
	memcpy(b->s + b->len, data, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

static int encode_utf8(unsigned cp, char out[4])
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int hex4(jp_parser *ps, const char *p, unsigned *out)
{
	unsigned v = 0;

	if (ps->end - p < 4)
		return fail_at(ps, p, "truncated \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return fail_at(ps, p + i, "invalid hex digit in \\u escape");
	}
	*out = v;
	return 0;
}

/* After the backslash: decode one escape, advancing ps->p past it. */
static int parse_escape(jp_parser *ps, jp_buf *b)
{
	const char *at = ps->p - 1;
	char enc[4];
	unsigned cp, lo;
	char c;

	if (ps->p >= ps->end)
		return fail_at(ps, at, "unterminated string");
	c = *ps->p++;
	switch (c) {
	case '"': return buf_put(ps, b, "\"", 1);
	case '\\': return buf_put(ps, b, "\\", 1);
	case '/': return buf_put(ps, b, "/", 1);
	case 'b': return buf_put(ps, b, "\b", 1);
	case 'f': return buf_put(ps, b, "\f", 1);
	case 'n': return buf_put(ps, b, "\n", 1);
	case 'r': return buf_put(ps, b, "\r", 1);
	case 't': return buf_put(ps, b, "\t", 1);
	case 'u':
		break;
	default:
		return fail_at(ps, at, "invalid escape '\\%c'", (c >= 0x20 && c < 0x7f) ? c : '?');
	}
	if (hex4(ps, ps->p, &cp))
		return -1;
	ps->p += 4;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail_at(ps, at, "lone low surrogate in \\u escape");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u')
			return fail_at(ps, at, "high surrogate not followed by a low surrogate");
		if (hex4(ps, ps->p + 2, &lo))
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail_at(ps, at, "high surrogate not followed by a low surrogate");
		ps->p += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return fail_at(ps, at, "\\u0000 is not allowed in strings");
	return buf_put(ps, b, enc, (size_t)encode_utf8(cp, enc));
}

/* Length of the valid UTF-8 sequence at p (lead byte >= 0x80), 0 if invalid. */
static size_t utf8_seq_len(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0], cp;
	size_t n;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;  /* overlong or out of range */
	if (cp >= 0xd800 && cp <= 0xdfff)
		return 0;  /* surrogates are not characters */
	return n;
}

/* ps->p is at the opening quote. */
static int parse_string_raw(jp_parser *ps, char **out, size_t *len)
{
	const char *open = ps->p;
	jp_buf b = { 0 };

	ps->p++;
	if (buf_put(ps, &b, "", 0))
		return -1;
	for (;;) {
		const char *run = ps->p;

		while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' &&
		       (unsigned char)*ps->p >= 0x20 && (unsigned char)*ps->p < 0x80)
			ps->p++;
		if (ps->p > run && buf_put(ps, &b, run, (size_t)(ps->p - run)))
			goto fail;
		if (ps->p >= ps->end) {
			fail_at(ps, open, "unterminated string");
			goto fail;
		}
		if (*ps->p == '"') {
			ps->p++;
			break;
		}
		if (*ps->p == '\\') {
			ps->p++;
			if (parse_escape(ps, &b))
				goto fail;
			continue;
		}
		if ((unsigned char)*ps->p < 0x20) {
			fail_at(ps, ps->p, "control character (byte 0x%02x) in string; escape it",
				(unsigned char)*ps->p);
			goto fail;
		}
		{
			size_t n = utf8_seq_len((const unsigned char *)ps->p, (const unsigned char *)ps->end);

			if (!n) {
				fail_at(ps, ps->p, "invalid UTF-8 in string");
				goto fail;
			}
			if (buf_put(ps, &b, ps->p, n))
				goto fail;
			ps->p += n;
		}
	}
	*out = b.s;
	*len = b.len;
	return 0;
fail:
	jp_free(b.s);
	return -1;
}

/* ---- numbers ---------------------------------------------------------- */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static double scale10(double v, long e)
{
	/* Multiplying by exact powers of ten keeps small cases exact; extremes
	 * overflow to HUGE_VAL or underflow to 0, which is what we want. */
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
				      1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
				      1e20, 1e21, 1e22 };
	if (v == 0)
		return 0;
	while (e > 22 && v < 1e308) {
		v *= 1e22;
		e -= 22;
	}
	if (e > 0)
		return v * p10[e > 22 ? 22 : e];
	while (e < -22 && v != 0) {
		v /= 1e22;
		e += 22;
	}
	if (e < 0)
		return v / p10[e < -22 ? 22 : -e];
	return v;
}

static int parse_number(jp_parser *ps, gw_jv *out)
{
	const char *start = ps->p, *p = ps->p;
	int neg = 0, frac = 0, exp_neg = 0, overflow = 0;
	uint64_t mant = 0;
	long dexp = 0, exp_val = 0;
	int sig = 0;

	if (p < ps->end && *p == '-') {
		neg = 1;
		p++;
	}
	if (p >= ps->end || !is_digit(*p))
		return fail_at(ps, start, "invalid number");
	if (*p == '0' && p + 1 < ps->end && is_digit(p[1]))
		return fail_at(ps, start, "leading zeros are not allowed in numbers");
	for (; p < ps->end && is_digit(*p); p++) {
		if (sig < 19) {
			mant = mant * 10 + (uint64_t)(*p - '0');
			if (mant)
				sig++;
		} else {
			dexp++;
			overflow = 1;
		}
	}
	if (p < ps->end && *p == '.') {
		frac = 1;
		p++;
		if (p >= ps->end || !is_digit(*p))
			return fail_at(ps, p, "expected a digit after the decimal point");
		for (; p < ps->end && is_digit(*p); p++) {
			if (sig < 19) {
				mant = mant * 10 + (uint64_t)(*p - '0');
				dexp--;
				if (mant)
					sig++;
			}
		}
	}
	if (p < ps->end && (*p == 'e' || *p == 'E')) {
		frac = 1;
		p++;
		if (p < ps->end && (*p == '+' || *p == '-'))
			exp_neg = *p++ == '-';
		if (p >= ps->end || !is_digit(*p))
			return fail_at(ps, p, "expected a digit in the exponent");
		for (; p < ps->end && is_digit(*p); p++)
			if (exp_val < 100000)
				exp_val = exp_val * 10 + (*p - '0');
	}
	dexp += exp_neg ? -exp_val : exp_val;
	out->type = GW_JV_NUMBER;
	out->u.num.d = scale10((double)mant, dexp);
	if (neg)
		out->u.num.d = -out->u.num.d;
	out->u.num.is_int = 0;
	if (!frac && !overflow) {
		/* 19 digits always fit in uint64; check the int64 range. */
		if (!neg && mant <= (uint64_t)INT64_MAX) {
			out->u.num.is_int = 1;
			out->u.num.i = (int64_t)mant;
		} else if (neg && mant <= (uint64_t)INT64_MAX + 1) {
			out->u.num.is_int = 1;
			out->u.num.i = mant == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mant;
		}
	}
	ps->p = p;
	return 0;
}

/* ---- containers ------------------------------------------------------- */

static int parse_array(jp_parser *ps, gw_jv *out)
{
	size_t cap = 0;

	out->type = GW_JV_ARRAY;
	out->u.arr.items = NULL;
	out->u.arr.n = 0;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return 0;
	}
	for (;;) {
		char d[16];

		if (out->u.arr.n == cap) {
			size_t ncap = cap ? cap * 2 : 4;
			gw_jv *items = jp_realloc(out->u.arr.items, ncap * sizeof(*items));

			if (!items)
				return fail_at(ps, ps->p, "out of memory");
			out->u.arr.items = items;
			cap = ncap;
		}
		/* Counted before parsing so a half-built item is freed on error. */
		out->u.arr.items[out->u.arr.n++].type = GW_JV_NULL;
		if (parse_value(ps, &out->u.arr.items[out->u.arr.n - 1]))
			return -1;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			return 0;
		}
		return fail_at(ps, ps->p, "expected ',' or ']' in array, found %s", describe(ps, ps->p, d));
	}
}

static int parse_object(jp_parser *ps, gw_jv *out)
{
	size_t cap = 0;

	out->type = GW_JV_OBJECT;
	out->u.obj.members = NULL;
	out->u.obj.n = 0;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return 0;
	}
	for (;;) {
		gw_jv_member *m;
		size_t klen;
		char d[16];

		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != '"')
			return fail_at(ps, ps->p, "expected a string key in object, found %s",
				       describe(ps, ps->p, d));
		if (out->u.obj.n == cap) {
			size_t ncap = cap ? cap * 2 : 4;
			gw_jv_member *ms = jp_realloc(out->u.obj.members, ncap * sizeof(*ms));

			if (!ms)
				return fail_at(ps, ps->p, "out of memory");
			out->u.obj.members = ms;
			cap = ncap;
		}
		m = &out->u.obj.members[out->u.obj.n];
		if (parse_string_raw(ps, &m->key, &klen))
			return -1;
		m->value.type = GW_JV_NULL;
		out->u.obj.n++;   /* counted now so the key is freed on error */
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ':')
			return fail_at(ps, ps->p, "expected ':' after object key, found %s",
				       describe(ps, ps->p, d));
		ps->p++;
		if (parse_value(ps, &m->value))
			return -1;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			return 0;
		}
		return fail_at(ps, ps->p, "expected ',' or '}' in object, found %s", describe(ps, ps->p, d));
	}
}

static int parse_literal(jp_parser *ps, const char *word, gw_jv *out, gw_jv_type t, int b)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return fail_at(ps, ps->p, "invalid literal (expected %s)", word);
	ps->p += n;
	out->type = t;
	out->u.boolean = b;
	return 0;
}

static int parse_value(jp_parser *ps, gw_jv *out)
{
	char d[16];
	int rc;

	out->type = GW_JV_NULL;
	skip_ws(ps);
	out->line = ps->line;
	out->col = col_of(ps, ps->p);
	if (ps->p >= ps->end)
		return fail_at(ps, ps->p, "unexpected end of input, expected a value");
	switch (*ps->p) {
	case '{':
	case '[':
		if (ps->depth >= ps->max_depth)
			return fail_at(ps, ps->p, "nesting deeper than %d levels", ps->max_depth);
		ps->depth++;
		rc = *ps->p == '{' ? parse_object(ps, out) : parse_array(ps, out);
		ps->depth--;
		return rc;
	case '"':
		out->type = GW_JV_STRING;
		out->u.str.s = NULL;
		return parse_string_raw(ps, &out->u.str.s, &out->u.str.len);
	case 't':
		return parse_literal(ps, "true", out, GW_JV_BOOL, 1);
	case 'f':
		return parse_literal(ps, "false", out, GW_JV_BOOL, 0);
	case 'n':
		return parse_literal(ps, "null", out, GW_JV_NULL, 0);
	default:
		if (*ps->p == '-' || is_digit(*ps->p))
			return parse_number(ps, out);
		return fail_at(ps, ps->p, "expected a value, found %s", describe(ps, ps->p, d));
	}
}

gw_jv *gw_jsonp_parse(const char *text, size_t len, const gw_jsonp_limits *lim,
		      gw_jsonp_error *err)
{
	jp_parser ps = { 0 };
	size_t max_size = lim && lim->max_size ? lim->max_size : JP_DEFAULT_MAX_SIZE;
	gw_jv *root;
	char d[16];

	if (err) {
		err->line = err->col = 0;
		err->msg[0] = '\0';
	}
	ps.p = ps.line_start = text ? text : "";
	ps.end = ps.p + (text ? len : 0);
	ps.line = 1;
	ps.max_depth = lim && lim->max_depth > 0 ? lim->max_depth : JP_DEFAULT_MAX_DEPTH;
	ps.err = err;
	if (len > max_size) {
		if (err)
			snprintf(err->msg, sizeof(err->msg), "input of %zu bytes exceeds the limit of %zu",
				 len, max_size);
		return NULL;
	}
	root = jp_malloc(sizeof(*root));
	if (!root) {
		if (err)
			snprintf(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	if (parse_value(&ps, root) == 0) {
		skip_ws(&ps);
		if (ps.p == ps.end)
			return root;
		fail_at(&ps, ps.p, "unexpected %s after the value", describe(&ps, ps.p, d));
	}
	gw_jsonp_free(root);
	return NULL;
}

void gw_jsonp_free(gw_jv *v)
{
	if (!v)
		return;
	free_children(v);
	jp_free(v);
}

/* ---- accessors -------------------------------------------------------- */

const gw_jv *gw_jv_get(const gw_jv *obj, const char *key)
{
	if (!obj || obj->type != GW_JV_OBJECT || !key)
		return NULL;
	for (size_t i = obj->u.obj.n; i-- > 0;)
		if (strcmp(obj->u.obj.members[i].key, key) == 0)
			return &obj->u.obj.members[i].value;
	return NULL;
}

const gw_jv *gw_jv_at(const gw_jv *arr, size_t i)
{
	if (!arr || arr->type != GW_JV_ARRAY || i >= arr->u.arr.n)
		return NULL;
	return &arr->u.arr.items[i];
}

size_t gw_jv_len(const gw_jv *v)
{
	if (!v)
		return 0;
	if (v->type == GW_JV_ARRAY)
		return v->u.arr.n;
	if (v->type == GW_JV_OBJECT)
		return v->u.obj.n;
	return 0;
}

const char *gw_jv_str(const gw_jv *v)
{
	return v && v->type == GW_JV_STRING ? v->u.str.s : NULL;
}

int gw_jv_is(const gw_jv *v, gw_jv_type t)
{
	return v && v->type == t;
}

int gw_jv_int64(const gw_jv *v, int64_t *out)
{
	if (!v || v->type != GW_JV_NUMBER || !v->u.num.is_int)
		return -1;
	*out = v->u.num.i;
	return 0;
}

const char *gw_jv_type_name(gw_jv_type t)
{
	switch (t) {
	case GW_JV_NULL: return "null";
	case GW_JV_BOOL: return "boolean";
	case GW_JV_NUMBER: return "number";
	case GW_JV_STRING: return "string";
	case GW_JV_ARRAY: return "array";
	case GW_JV_OBJECT: return "object";
	}
	return "?";
}
