/* GGUF headers (llama.cpp's model files) and the memory of llama.cpp and
 * vLLM inference (docs/advise.md, "GGUF and the serving engines").
 *
 * The format (ggml's docs/gguf.md): "GGUF", a version (2 and 3: 64-bit
 * counts), the tensor and metadata counts, the metadata as key (a string:
 * 64-bit length, bytes), value type, value; then each tensor's name, its
 * dimensions (up to 4), its ggml type and its data offset. Everything is
 * little-endian. The bytes are untrusted: every read is checked against
 * what is left, every count against a cap, and nothing is allocated from
 * a count before the bytes it promises are known to be there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/error.h"
#include "gpuwise/advise.h"
#include "advise/advise_int.h"
#include "advise/gguf_int.h"

/* ggml's type traits (ggml/src/ggml.c, type_traits[]: blck_size and
 * type_size; the block layouts in ggml-common.h): elements per block and
 * bytes per block. Types 4, 5 (Q4_2, Q4_3) and 31-33, 36-38 were removed
 * or are repacked runtime-only formats and never appear in files. */
static const struct ggml_type {
	uint32_t id;
	const char *name;
	uint32_t block, bytes;
} ggml_types[] = {
	{ 0, "F32", 1, 4 }, { 1, "F16", 1, 2 }, { 2, "Q4_0", 32, 18 }, { 3, "Q4_1", 32, 20 },
	{ 6, "Q5_0", 32, 22 }, { 7, "Q5_1", 32, 24 }, { 8, "Q8_0", 32, 34 }, { 9, "Q8_1", 32, 36 },
	{ 10, "Q2_K", 256, 84 }, { 11, "Q3_K", 256, 110 }, { 12, "Q4_K", 256, 144 }, { 13, "Q5_K", 256, 176 },
	{ 14, "Q6_K", 256, 210 }, { 15, "Q8_K", 256, 292 }, { 16, "IQ2_XXS", 256, 66 }, { 17, "IQ2_XS", 256, 74 },
	{ 18, "IQ3_XXS", 256, 98 }, { 19, "IQ1_S", 256, 50 }, { 20, "IQ4_NL", 32, 18 }, { 21, "IQ3_S", 256, 110 },
	{ 22, "IQ2_S", 256, 82 }, { 23, "IQ4_XS", 256, 136 }, { 24, "I8", 1, 1 }, { 25, "I16", 1, 2 },
	{ 26, "I32", 1, 4 }, { 27, "I64", 1, 8 }, { 28, "F64", 1, 8 }, { 29, "IQ1_M", 256, 56 },
	{ 30, "BF16", 1, 2 }, { 34, "TQ1_0", 256, 54 }, { 35, "TQ2_0", 256, 66 }, { 39, "MXFP4", 32, 17 },
};

static const struct ggml_type *ggml_type(uint32_t id)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(ggml_types); i++)
		if (ggml_types[i].id == id)
			return &ggml_types[i];
	return NULL;
}

const char *gw_gguf_type_name(uint32_t type)
{
	const struct ggml_type *t = ggml_type(type);

	return t ? t->name : NULL;
}

uint64_t gw_gguf_type_bytes(uint32_t type, uint64_t n)
{
	const struct ggml_type *t = ggml_type(type);
	uint64_t r;

	if (!t || n % t->block || __builtin_mul_overflow(n / t->block, (uint64_t)t->bytes, &r))
		return 0;
	return r;
}

/* ---- the reader ---------------------------------------------------------- */

enum { V_U8, V_I8, V_U16, V_I16, V_U32, V_I32, V_F32, V_BOOL, V_STRING, V_ARRAY, V_U64, V_I64, V_F64 };
#define KEY_MAX 256
#define ARRAY_DEPTH 2

struct kv {
	char key[KEY_MAX];
	uint64_t value;   /* numbers; arrays: their length */
	bool array;
};

struct gw_gguf {
	uint32_t version;
	char arch[64], name[GW_MODEL_NAME_MAX];
	struct kv *kv;
	size_t nkv;
	gw_gguf_tensor *t;
	size_t nt;
};

struct rd {
	const unsigned char *p;
	size_t left;
};

static int truncated(void)
{
	return gw__error_set(GW_EPARSE, "the GGUF header is truncated");
}

static int take(struct rd *r, void *out, size_t n)
{
	if (r->left < n)
		return truncated();
	if (out)
		memcpy(out, r->p, n);
	r->p += n;
	r->left -= n;
	return 0;
}

static int u32(struct rd *r, uint32_t *v)
{
	unsigned char b[4] = { 0 };

	if (take(r, b, 4) < 0)
		return GW_EPARSE;
	*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return 0;
}

static int u64(struct rd *r, uint64_t *v)
{
	uint32_t lo, hi;

	if (u32(r, &lo) < 0 || u32(r, &hi) < 0)
		return GW_EPARSE;
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

/* A string: copied (printable, cut) into out when out is given. */
static int str(struct rd *r, char *out, size_t outsz)
{
	uint64_t n;

	if (u64(r, &n) < 0)
		return GW_EPARSE;
	if (n > r->left)
		return truncated();
	if (out)
		gw__copy_printable(out, outsz, (const char *)r->p, (size_t)n);
	return take(r, NULL, (size_t)n);
}

static const size_t scalar_size[] = { 1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8 };

/* A value of type; numbers into *num (floats truncated, negatives 0). */
static int value(struct rd *r, uint32_t type, uint64_t *num, char *s, size_t ssz, int depth)
{
	unsigned char b[8] = { 0 };
	uint64_t n;
	uint32_t et;

	*num = 0;
	if (type == V_STRING)
		return str(r, s, ssz);
	if (type == V_ARRAY) {
		if (depth >= ARRAY_DEPTH)
			return gw__error_set(GW_EPARSE, "GGUF arrays nest too deep");
		if (u32(r, &et) < 0 || u64(r, &n) < 0)
			return GW_EPARSE;
		if (et > V_F64)
			return gw__error_set(GW_EPARSE, "unknown GGUF value type %u", et);
		*num = n;
		if (et != V_STRING && et != V_ARRAY) {   /* fixed-size: skip at once, checked */
			if (n > r->left / scalar_size[et])
				return truncated();
			return take(r, NULL, (size_t)n * scalar_size[et]);
		}
		if (n > r->left / 8)   /* each element is at least 8 bytes */
			return truncated();
		for (uint64_t i = 0; i < n; i++) {
			uint64_t ignored;
			if (value(r, et, &ignored, NULL, 0, depth + 1) < 0)
				return GW_EPARSE;
		}
		return 0;
	}
	if (type > V_F64)
		return gw__error_set(GW_EPARSE, "unknown GGUF value type %u", type);
	if (take(r, b, scalar_size[type]) < 0)
		return GW_EPARSE;
	switch (type) {
	case V_U8: case V_BOOL: *num = b[0]; break;
	case V_I8: *num = (int8_t)b[0] > 0 ? b[0] : 0; break;
	case V_U16: *num = (uint64_t)b[0] | (uint64_t)b[1] << 8; break;
	case V_I16: { int16_t x = (int16_t)(b[0] | b[1] << 8); *num = x > 0 ? (uint64_t)x : 0; break; }
	case V_U32: case V_I32: case V_F32: {
		uint32_t x = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		if (type == V_U32) {
			*num = x;
		} else if (type == V_I32) {
			*num = (int32_t)x > 0 ? x : 0;
		} else {
			float f;
			memcpy(&f, &x, 4);
			*num = f >= 1 && f < 1.8e19f ? (uint64_t)f : 0;
		}
		break;
	}
	default: {
		uint64_t x = 0;
		for (int i = 7; i >= 0; i--)
			x = x << 8 | b[i];
		if (type == V_U64) {
			*num = x;
		} else if (type == V_I64) {
			*num = (int64_t)x > 0 ? x : 0;
		} else {
			double d;
			memcpy(&d, &x, 8);
			*num = d >= 1 && d < 1.8e19 ? (uint64_t)d : 0;
		}
	}
	}
	return 0;
}

static int tensor(struct rd *r, gw_gguf_tensor *t)
{
	uint64_t offset, n = 1;
	const char *blk;

	memset(t, 0, sizeof(*t));
	if (str(r, t->name, sizeof(t->name)) < 0 || u32(r, &t->n_dims) < 0)
		return GW_EPARSE;
	if (t->n_dims < 1 || t->n_dims > 4)
		return gw__error_set(GW_EPARSE, "GGUF tensor \"%s\" has %u dimensions (1 to 4)", t->name, t->n_dims);
	for (uint32_t i = 0; i < t->n_dims; i++) {
		if (u64(r, &t->dims[i]) < 0)
			return GW_EPARSE;
		if (!t->dims[i] || __builtin_mul_overflow(n, t->dims[i], &n) || n > (1ull << 50))
			return gw__error_set(GW_EPARSE, "GGUF tensor \"%s\" has an absurd shape", t->name);
	}
	if (u32(r, &t->type) < 0 || u64(r, &offset) < 0)
		return GW_EPARSE;
	if (!ggml_type(t->type))
		return gw__error_set(GW_EPARSE, "GGUF tensor \"%s\" has unknown ggml type %u", t->name, t->type);
	t->elements = n;
	if (!(t->bytes = gw_gguf_type_bytes(t->type, n)))
		return gw__error_set(GW_EPARSE, "GGUF tensor \"%s\": %llu elements are not whole %s blocks", t->name,
				     (unsigned long long)n, ggml_type(t->type)->name);
	t->layer = -1;
	if (!strncmp(t->name, "blk.", 4)) {
		char *end;
		unsigned long long l;
		blk = t->name + 4;
		l = strtoull(blk, &end, 10);
		if (end != blk && *end == '.' && l < (1ull << 20))
			t->layer = (int64_t)l;
	}
	return 0;
}

int gw_gguf_parse(gw_gguf **out, const void *data, size_t len)
{
	struct rd r = { data, len };
	unsigned char magic[4];
	uint64_t nt, nkv;
	gw_gguf *g;
	int rc = GW_EPARSE;

	if (!out || (!data && len))
		return gw__error_set(GW_EINVAL, "no GGUF data");
	*out = NULL;
	if (take(&r, magic, 4) < 0 || memcmp(magic, "GGUF", 4))
		return gw__error_set(GW_EPARSE, "not a GGUF file (no \"GGUF\" magic)");
	if (!(g = calloc(1, sizeof(*g))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	if (u32(&r, &g->version) < 0)
		goto fail;
	if (g->version != 2 && g->version != 3) {   /* version 1 had 32-bit counts and lengths */
		rc = gw__error_set(GW_EPARSE, "GGUF version %u is not supported (2 and 3 are)", g->version);
		goto fail;
	}
	if (u64(&r, &nt) < 0 || u64(&r, &nkv) < 0)
		goto fail;
	if (nt > GW_GGUF_TENSORS_MAX || nkv > GW_GGUF_KV_MAX) {
		rc = gw__error_set(GW_EPARSE, "the GGUF header claims %llu tensors and %llu keys (at most %d each)",
				   (unsigned long long)nt, (unsigned long long)nkv, GW_GGUF_TENSORS_MAX);
		goto fail;
	}
	/* each key is at least 12 bytes, each tensor at least 28: a count the
	 * bytes cannot hold is refused before anything is allocated */
	if (nkv > r.left / 12 || nt > r.left / 28) {
		rc = truncated();
		goto fail;
	}
	if ((nkv && !(g->kv = calloc((size_t)nkv, sizeof(*g->kv)))) || (nt && !(g->t = calloc((size_t)nt, sizeof(*g->t))))) {
		rc = gw__error_set(GW_ENOMEM, "out of memory");
		goto fail;
	}
	for (uint64_t i = 0; i < nkv; i++) {
		struct kv *k = &g->kv[g->nkv];
		char s[GW_MODEL_NAME_MAX] = "";
		uint32_t type;
		if (str(&r, k->key, sizeof(k->key)) < 0 || u32(&r, &type) < 0 ||
		    value(&r, type, &k->value, s, sizeof(s), 0) < 0)
			goto fail;
		k->array = type == V_ARRAY;
		if (!strcmp(k->key, "general.architecture") && type == V_STRING)
			gw__strlcpy(g->arch, s, sizeof(g->arch));
		if (!strcmp(k->key, "general.name") && type == V_STRING)
			gw__strlcpy(g->name, s, sizeof(g->name));
		g->nkv++;
	}
	for (uint64_t i = 0; i < nt; i++) {
		if (tensor(&r, &g->t[g->nt]) < 0)
			goto fail;
		g->nt++;
	}
	*out = g;
	return 0;
fail:
	gw_gguf_free(g);
	return rc;
}

void gw_gguf_free(gw_gguf *g)
{
	if (!g)
		return;
	free(g->kv);
	free(g->t);
	free(g);
}

uint32_t gw_gguf_version(const gw_gguf *g) { return g ? g->version : 0; }
const char *gw_gguf_architecture(const gw_gguf *g) { return g ? g->arch : ""; }
const char *gw_gguf_name(const gw_gguf *g) { return g ? g->name : ""; }
size_t gw_gguf_tensor_count(const gw_gguf *g) { return g ? g->nt : 0; }

const gw_gguf_tensor *gw_gguf_tensor_at(const gw_gguf *g, size_t i)
{
	return g && i < g->nt ? &g->t[i] : NULL;
}

static const struct kv *find_kv(const gw_gguf *g, const char *key)
{
	char full[KEY_MAX];

	if (!strncmp(key, "{arch}.", 7))
		snprintf(full, sizeof(full), "%s.%s", g->arch, key + 7);
	else
		gw__strlcpy(full, key, sizeof(full));
	for (size_t i = g->nkv; i-- > 0;)   /* the last duplicate wins */
		if (!strcmp(g->kv[i].key, full))
			return &g->kv[i];
	return NULL;
}

int gw_gguf_get_u64(const gw_gguf *g, const char *key, uint64_t *out)
{
	const struct kv *k;

	if (!g || !key || !out)
		return gw__error_set(GW_EINVAL, "no GGUF or key");
	if (!(k = find_kv(g, key)))
		return GW_ENOTFOUND;
	*out = k->value;
	return 0;
}

bool gw__gguf_is_array(const gw_gguf *g, const char *key)
{
	const struct kv *k = g && key ? find_kv(g, key) : NULL;

	return k && k->array;
}
