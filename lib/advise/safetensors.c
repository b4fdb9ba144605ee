/* Safetensors headers and index files (include/gpuwise/checkpoint.h): the
 * exact parameter count and dtypes of a checkpoint without its weights.
 * The header is untrusted input from the network or a shared cache, so
 * every number is bounded and checked: known dtypes only, shapes whose
 * product fits, data_offsets that match the shape and do not overlap
 * (what the safetensors library itself checks before it maps a file). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/jsonp.h"
#include "gpuwise/checkpoint.h"

/* Bits per element of each dtype safetensors defines (its Dtype enum). */
static const struct {
	const char *name;
	unsigned bits;
} dtypes[] = {
	{"BOOL", 8}, {"U8", 8}, {"I8", 8}, {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8},
	{"I16", 16}, {"U16", 16}, {"F16", 16}, {"BF16", 16}, {"I32", 32}, {"U32", 32},
	{"F32", 32}, {"F64", 64}, {"I64", 64}, {"U64", 64}, {"F4", 4}, {"F6_E2M3", 6}, {"F6_E3M2", 6},
};

#define MAX_DIMS 16

int gw_safetensors_header_len(uint64_t *out, const unsigned char *first, size_t n)
{
	uint64_t v = 0;

	if (!out || !first)
		return gw__error_set(GW_EINVAL, "no bytes");
	if (n < 8)
		return gw__error_set(GW_EPARSE, "a safetensors file starts with 8 bytes; %zu read", n);
	for (int i = 7; i >= 0; i--)
		v = v << 8 | first[i];
	if (!v || v > GW_SAFETENSORS_HEADER_MAX)
		return gw__error_set(GW_EPARSE, "safetensors header length %llu is not in 1..%llu",
				     (unsigned long long)v, GW_SAFETENSORS_HEADER_MAX);
	*out = v;
	return 0;
}

struct span {
	uint64_t begin, end;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static unsigned dtype_bits(const char *name)
{
	for (size_t i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (!strcmp(dtypes[i].name, name))
			return dtypes[i].bits;
	return 0;
}

static int add_dtype(gw_checkpoint *c, const char *name, uint64_t elements)
{
	size_t i;

	for (i = 0; i < c->ndtypes; i++)
		if (!strcmp(c->dtypes[i].name, name))
			break;
	if (i == c->ndtypes) {
		if (c->ndtypes == GW_CHECKPOINT_DTYPES_MAX)
			return gw__error_set(GW_EPARSE, "more than %d dtypes in one checkpoint", GW_CHECKPOINT_DTYPES_MAX);
		snprintf(c->dtypes[i].name, sizeof(c->dtypes[i].name), "%s", name);
		c->dtypes[i].params = 0;
		c->ndtypes++;
	}
	c->dtypes[i].params += elements;
	return 0;
}

/* One tensor's entry: its element count and the span it claims. */
static int read_tensor(const char *key, const gw_jv *t, const char **dtype, uint64_t *elements, struct span *s)
{
	const gw_jv *shape = gw_jv_get(t, "shape"), *off = gw_jv_get(t, "data_offsets");
	char shown[64] = "";
	int64_t a, b, d;
	uint64_t n = 1, bits;

	gw__copy_printable(shown, sizeof(shown), key, strlen(key));
	*dtype = gw_jv_str(gw_jv_get(t, "dtype"));
	if (!gw_jv_is(t, GW_JV_OBJECT) || !*dtype)
		return gw__error_set(GW_EPARSE, "tensor \"%s\": no dtype", shown);
	if (!(bits = dtype_bits(*dtype)))
		return gw__error_set(GW_EPARSE, "tensor \"%s\": unknown dtype", shown);
	if (!gw_jv_is(shape, GW_JV_ARRAY) || gw_jv_len(shape) > MAX_DIMS)
		return gw__error_set(GW_EPARSE, "tensor \"%s\": shape is not an array of at most %d sizes", shown,
				     MAX_DIMS);
	for (size_t i = 0; i < gw_jv_len(shape); i++)
		if (gw_jv_int64(gw_jv_at(shape, i), &d) < 0 || d < 0 || __builtin_mul_overflow(n, (uint64_t)d, &n) ||
		    n > (1ull << 50))
			return gw__error_set(GW_EPARSE, "tensor \"%s\": shape[%zu] is not a size", shown, i);
	if (gw_jv_len(off) != 2 || gw_jv_int64(gw_jv_at(off, 0), &a) < 0 || gw_jv_int64(gw_jv_at(off, 1), &b) < 0 ||
	    a < 0 || b < a)
		return gw__error_set(GW_EPARSE, "tensor \"%s\": data_offsets is not [begin, end]", shown);
	if ((n * bits) % 8 || (uint64_t)(b - a) != n * bits / 8)
		return gw__error_set(GW_EPARSE, "tensor \"%s\": data_offsets span %lld bytes, the shape %llu", shown,
				     (long long)(b - a), (unsigned long long)(n * bits / 8));
	*elements = n;
	s->begin = (uint64_t)a;
	s->end = (uint64_t)b;
	return 0;
}

static int add_tensors(gw_checkpoint *c, const gw_jv *root)
{
	size_t n = gw_jv_len(root), k = 0;
	struct span *spans;
	int rc = 0;

	if (!(spans = gw__malloc((n ? n : 1) * sizeof(*spans))))
		return gw__error_set(GW_ENOMEM, "out of memory reading a safetensors header");
	for (size_t i = 0; i < n && !rc; i++) {
		const gw_jv_member *m = &root->u.obj.members[i];
		const char *dtype;
		uint64_t elements = 0;

		if (!strcmp(m->key, "__metadata__"))
			continue;
		if ((rc = read_tensor(m->key, &m->value, &dtype, &elements, &spans[k])) < 0)
			break;
		if ((rc = add_dtype(c, dtype, elements)) < 0)
			break;
		c->params += elements;
		c->bytes += spans[k].end - spans[k].begin;
		c->tensors++;
		k++;
	}
	if (!rc && k > 1) {
		qsort(spans, k, sizeof(*spans), span_cmp);
		for (size_t i = 1; i < k && !rc; i++)
			if (spans[i].begin < spans[i - 1].end)
				rc = gw__error_set(GW_EPARSE, "two tensors share bytes %llu..%llu",
						   (unsigned long long)spans[i].begin, (unsigned long long)spans[i - 1].end);
	}
	gw__free(spans);
	return rc;
}

int gw_checkpoint_add_safetensors(gw_checkpoint *acc, const char *json, size_t len)
{
	gw_jsonp_limits lim = {.max_size = GW_SAFETENSORS_HEADER_MAX, .max_depth = 8};
	gw_jsonp_error err;
	gw_checkpoint c;
	gw_jv *root;
	int rc;

	if (!acc || (!json && len))
		return gw__error_set(GW_EINVAL, "no header");
	if (!(root = gw_jsonp_parse(json ? json : "", len, &lim, &err))) {
		if (strstr(err.msg, "memory"))
			return gw__error_set(GW_ENOMEM, "out of memory reading a safetensors header");
		return gw__error_set(GW_EPARSE, "safetensors header is not valid JSON: %d:%d: %s", err.line, err.col,
				     err.msg);
	}
	c = *acc;
	if (!gw_jv_is(root, GW_JV_OBJECT))
		rc = gw__error_set(GW_EPARSE, "safetensors header is not a JSON object");
	else
		rc = add_tensors(&c, root);
	gw_jsonp_free(root);
	if (rc < 0)
		return rc;
	c.files++;
	*acc = c;
	return 0;
}

void gw_checkpoint_sort(gw_checkpoint *c)
{
	if (!c)
		return;
	for (size_t i = 1; i < c->ndtypes; i++)
		for (size_t j = i; j > 0 && c->dtypes[j].params > c->dtypes[j - 1].params; j--) {
			__typeof__(c->dtypes[0]) t = c->dtypes[j];

			c->dtypes[j] = c->dtypes[j - 1];
			c->dtypes[j - 1] = t;
		}
}

static bool shard_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 200 || s[0] == '.' || strchr(s, '/') || strchr(s, '\\'))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return n > 12 && !strcmp(s + n - 12, ".safetensors");
}

/* The distinct shard names of weight_map, in first-seen order. */
static int index_names(char **out, size_t *count, const gw_jv *map)
{
	size_t n = gw_jv_len(map), total = 0, k = 0;
	char *buf, *p;

	for (size_t i = 0; i < n; i++) {
		const char *v = gw_jv_str(&map->u.obj.members[i].value);
		char shown[64] = "";

		if (!v || !shard_name_ok(v)) {
			gw__copy_printable(shown, sizeof(shown), map->u.obj.members[i].key,
					   strlen(map->u.obj.members[i].key));
			return gw__error_set(GW_EPARSE, "weight_map[\"%s\"] is not a .safetensors file name", shown);
		}
		total += strlen(v) + 1;
	}
	if (!(buf = gw__malloc(total ? total : 1)))
		return gw__error_set(GW_ENOMEM, "out of memory reading an index");
	p = buf;
	for (size_t i = 0; i < n; i++) {
		const char *v = gw_jv_str(&map->u.obj.members[i].value), *q = buf;
		bool seen = false;

		for (size_t j = 0; j < k && !seen; j++, q += strlen(q) + 1)
			seen = !strcmp(q, v);
		if (seen)
			continue;
		memcpy(p, v, strlen(v) + 1);
		p += strlen(v) + 1;
		k++;
	}
	*out = buf;
	*count = k;
	return 0;
}

int gw_safetensors_index_files(char **out, size_t *count, uint64_t *total_size, const char *json, size_t len)
{
	gw_jsonp_limits lim = {.max_size = 64u << 20, .max_depth = 8};
	const gw_jv *map, *total;
	gw_jsonp_error err;
	uint64_t size = 0;
	int64_t v;
	gw_jv *root;
	int rc;

	if (!out || !count || !total_size || (!json && len))
		return gw__error_set(GW_EINVAL, "no index");
	if (!(root = gw_jsonp_parse(json ? json : "", len, &lim, &err))) {
		if (strstr(err.msg, "memory"))
			return gw__error_set(GW_ENOMEM, "out of memory reading an index");
		return gw__error_set(GW_EPARSE, "index is not valid JSON: %d:%d: %s", err.line, err.col, err.msg);
	}
	map = gw_jv_get(root, "weight_map");
	total = gw_jv_get(gw_jv_get(root, "metadata"), "total_size");
	if (!gw_jv_is(map, GW_JV_OBJECT) || !gw_jv_len(map))
		rc = gw__error_set(GW_EPARSE, "index has no \"weight_map\" object");
	else if (total && !(gw_jv_is(total, GW_JV_NUMBER) && total->u.num.d >= 0 && total->u.num.d < 9e18))
		rc = gw__error_set(GW_EPARSE, "index metadata.total_size is not a size");
	else {
		/* some converters write it as a float (13476839424.0) */
		size = total ? (gw_jv_int64(total, &v) == 0 ? (uint64_t)v : (uint64_t)total->u.num.d) : 0;
		rc = index_names(out, count, map);
	}
	gw_jsonp_free(root);
	if (rc == 0)
		*total_size = size;
	return rc;
}

void gw_checkpoint_free(void *p)
{
	gw__free(p);
}
