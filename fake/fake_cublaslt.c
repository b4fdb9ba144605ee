/* gpuwise fakes — libcublasLt.so.12: the cuBLASLt C ABI subset `gpuwise
 * bench` uses (handle, matmul and layout descriptors, preferences, the
 * heuristic, cublasLtMatmul), against the fake libcuda's memory and clock.
 *
 * Checks as cuBLASLt does: handles and descriptors from this library, known
 * compute/scale/data types (A and B of one type; FP8 only as "TN", A
 * transposed, and on compute capability 8.9 or newer), dimensions that
 * agree (op(A) m x k, op(B) k x n, C and D m x n, every ld at least its
 * rows), A, B, C, D and the workspace inside device memory of the current
 * context, a workspace as large as the chosen algorithm needs.
 *
 * Small products (m*n*k up to 2^21) are computed on the CPU, with the
 * types' real conversions, so a wrong layout or type gives a wrong result;
 * large ones are not computed (their bytes stay as they were) and only take
 * time: 2*m*n*k operations at machine.json's bench.tflops.<precision>,
 * enqueued on the stream's context clock in the fake libcuda (found through
 * dlopen, as the real cuBLASLt finds the driver).
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"

#define API(ret, name, args) \
	ret name args; \
	__attribute__((visibility("default"))) ret name args

typedef int cublasStatus_t;
enum {
	ST_SUCCESS = 0, ST_NOT_INITIALIZED = 1, ST_ALLOC_FAILED = 3, ST_INVALID_VALUE = 7,
	ST_ARCH_MISMATCH = 8, ST_EXECUTION_FAILED = 13, ST_NOT_SUPPORTED = 15
};
enum { R_32F = 0, R_16F = 2, R_16BF = 14, R_8F_E4M3 = 28 };
enum { COMPUTE_32F = 68, COMPUTE_32F_FAST_TF32 = 77 };
enum { DESC_TRANSA = 3, DESC_TRANSB = 4, PREF_MAX_WORKSPACE = 1 };

#define MAGIC_HANDLE 0x4c74486eu
#define MAGIC_DESC 0x4c744465u
#define MAGIC_LAYOUT 0x4c744c61u
#define MAGIC_PREF 0x4c745072u

struct cublasLtContext {
	uint32_t magic;
};
typedef struct cublasLtContext *cublasLtHandle_t;

typedef struct {
	uint32_t magic;
	int compute, scale, transa, transb;
} desc_t;

typedef struct {
	uint32_t magic;
	int type;
	uint64_t rows, cols;
	int64_t ld;
} layout_t;

typedef struct {
	uint32_t magic;
	uint64_t max_workspace;
} pref_t;

typedef struct {
	uint64_t data[8];
} cublasLtMatmulAlgo_t;

typedef struct {
	cublasLtMatmulAlgo_t algo;
	size_t workspaceSize;
	cublasStatus_t state;
	float wavesCount;
	int reserved[4];
} cublasLtMatmulHeuristicResult_t;

_Static_assert(sizeof(cublasLtMatmulHeuristicResult_t) == 96, "cublasLtMatmulHeuristicResult_t");

/* The fake libcuda's helpers. */
typedef int (*range_fn)(const void *p, size_t n);
typedef int (*flops_fn)(void *stream, int precision, double flops, void *written, size_t n);
typedef int (*ctx_dev_fn)(int *dev);
typedef int (*attr_fn)(int *value, int attrib, int dev);

static range_fn device_range;
static flops_fn enqueue_flops;
static ctx_dev_fn ctx_get_device;
static attr_fn device_attribute;

static int find_cuda(void)
{
	void *lib;

	if (device_range)
		return 1;
	lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (!lib)
		lib = dlopen("libcuda.so.1", RTLD_NOW);
	if (!lib)
		return 0;
	*(void **)&ctx_get_device = dlsym(lib, "cuCtxGetDevice");
	*(void **)&device_attribute = dlsym(lib, "cuDeviceGetAttribute");
	*(void **)&enqueue_flops = dlsym(lib, "gwfake_cuda_enqueue_flops");
	*(void **)&device_range = dlsym(lib, "gwfake_cuda_device_range");
	return device_range && enqueue_flops && ctx_get_device && device_attribute;
}

API(size_t, cublasLtGetVersion, (void)) { return 120400; }

API(const char *, cublasLtGetStatusName, (cublasStatus_t st))
{
	switch (st) {
	case ST_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
	case ST_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
	case ST_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
	case ST_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
	case ST_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
	case ST_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
	case ST_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
	default: return "CUBLAS_STATUS_UNKNOWN";
	}
}

API(cublasStatus_t, cublasLtCreate, (cublasLtHandle_t *out))
{
	int dev;

	if (!out)
		return ST_INVALID_VALUE;
	/* Like cuBLASLt: the driver must be there and a context current. */
	if (!find_cuda() || ctx_get_device(&dev) != 0)
		return ST_NOT_INITIALIZED;
	if (!(*out = calloc(1, sizeof(**out))))
		return ST_ALLOC_FAILED;
	(*out)->magic = MAGIC_HANDLE;
	return ST_SUCCESS;
}

API(cublasStatus_t, cublasLtDestroy, (cublasLtHandle_t h))
{
	if (!h || h->magic != MAGIC_HANDLE)
		return ST_NOT_INITIALIZED;
	h->magic = 0;
	free(h);
	return ST_SUCCESS;
}

API(cublasStatus_t, cublasLtMatmulDescCreate, (desc_t **out, int compute, int scale))
{
	if (!out || (compute != COMPUTE_32F && compute != COMPUTE_32F_FAST_TF32) || scale != R_32F)
		return ST_INVALID_VALUE;
	if (!(*out = calloc(1, sizeof(**out))))
		return ST_ALLOC_FAILED;
	**out = (desc_t){ MAGIC_DESC, compute, scale, 0, 0 };
	return ST_SUCCESS;
}

API(cublasStatus_t, cublasLtMatmulDescDestroy, (desc_t *d))
{
	if (!d || d->magic != MAGIC_DESC)
		return ST_INVALID_VALUE;
	d->magic = 0;
	free(d);
	return ST_SUCCESS;
}

API(cublasStatus_t, cublasLtMatmulDescSetAttribute, (desc_t *d, int attr, const void *buf, size_t size))
{
	int32_t v;

	if (!d || d->magic != MAGIC_DESC || !buf)
		return ST_INVALID_VALUE;
	if (attr != DESC_TRANSA && attr != DESC_TRANSB)
		return ST_INVALID_VALUE;        /* this fake knows no other attribute */
	if (size != sizeof(int32_t))
		return ST_INVALID_VALUE;
	memcpy(&v, buf, sizeof(v));
	if (v != 0 && v != 1)
		return ST_INVALID_VALUE;
	if (attr == DESC_TRANSA)
		d->transa = v;
	else
		d->transb = v;
	return ST_SUCCESS;
}

static int known_type(int t)
{
	return t == R_32F || t == R_16F || t == R_16BF || t == R_8F_E4M3;
}

static size_t type_size(int t)
{
	return t == R_32F ? 4 : t == R_8F_E4M3 ? 1 : 2;
}

API(cublasStatus_t, cublasLtMatrixLayoutCreate, (layout_t **out, int type, uint64_t rows, uint64_t cols, int64_t ld))
{
	if (!out || !known_type(type) || !rows || !cols || ld < (int64_t)rows)
		return ST_INVALID_VALUE;
	if (!(*out = calloc(1, sizeof(**out))))
		return ST_ALLOC_FAILED;
	**out = (layout_t){ MAGIC_LAYOUT, type, rows, cols, ld };
	return ST_SUCCESS;
}

API(cublasStatus_t, cublasLtMatrixLayoutDestroy, (layout_t *l))
{
	if (!l || l->magic != MAGIC_LAYOUT)
		return ST_INVALID_VALUE;
	l->magic = 0;
	free(l);
	return ST_SUCCESS;
}

API(cublasStatus_t, cublasLtMatmulPreferenceCreate, (pref_t **out))
{
	if (!out)
		return ST_INVALID_VALUE;
	if (!(*out = calloc(1, sizeof(**out))))
		return ST_ALLOC_FAILED;
	(*out)->magic = MAGIC_PREF;
	return ST_SUCCESS;
}

API(cublasStatus_t, cublasLtMatmulPreferenceDestroy, (pref_t *p))
{
	if (!p || p->magic != MAGIC_PREF)
		return ST_INVALID_VALUE;
	p->magic = 0;
	free(p);
	return ST_SUCCESS;
}

API(cublasStatus_t, cublasLtMatmulPreferenceSetAttribute, (pref_t *p, int attr, const void *buf, size_t size))
{
	if (!p || p->magic != MAGIC_PREF || !buf || attr != PREF_MAX_WORKSPACE || size != sizeof(uint64_t))
		return ST_INVALID_VALUE;
	memcpy(&p->max_workspace, buf, sizeof(uint64_t));
	return ST_SUCCESS;
}

/* The precision a problem runs at (FB_*), or -1 when cuBLASLt has no kernel for it. */
static int precision_of(const desc_t *d, const layout_t *a, const layout_t *b, const layout_t *c, const layout_t *dd)
{
	if (a->type != b->type || c->type != dd->type)
		return -1;
	switch (a->type) {
	case R_32F: return c->type == R_32F ? (d->compute == COMPUTE_32F_FAST_TF32 ? FB_TF32 : FB_FP32) : -1;
	case R_16F: return c->type == R_16F || c->type == R_32F ? FB_FP16 : -1;
	case R_16BF: return c->type == R_16BF || c->type == R_32F ? FB_BF16 : -1;
	case R_8F_E4M3: return c->type == R_16BF || c->type == R_32F ? FB_FP8 : -1;
	default: return -1;
	}
}

/* Dimensions: op(A) m x k, op(B) k x n, C, D m x n. */
static int shapes(const desc_t *d, const layout_t *a, const layout_t *b, const layout_t *c, const layout_t *dd,
		  uint64_t *m, uint64_t *n, uint64_t *k)
{
	uint64_t am = d->transa ? a->cols : a->rows, ak = d->transa ? a->rows : a->cols;
	uint64_t bk = d->transb ? b->cols : b->rows, bn = d->transb ? b->rows : b->cols;

	*m = am;
	*n = bn;
	*k = ak;
	return ak == bk && c->rows == am && c->cols == bn && dd->rows == am && dd->cols == bn;
}

static int valid(const void *h, const desc_t *d, const layout_t *a, const layout_t *b, const layout_t *c,
		 const layout_t *dd)
{
	return h && ((const struct cublasLtContext *)h)->magic == MAGIC_HANDLE && d && d->magic == MAGIC_DESC && a &&
	       a->magic == MAGIC_LAYOUT && b && b->magic == MAGIC_LAYOUT && c && c->magic == MAGIC_LAYOUT && dd &&
	       dd->magic == MAGIC_LAYOUT;
}

/* FP8 needs Ada/Hopper (8.9+) and the TN form. */
static int fp8_ok(const desc_t *d)
{
	int dev, major = 0, minor = 0;

	if (!d->transa || d->transb || ctx_get_device(&dev) != 0)
		return 0;
	device_attribute(&major, 75, dev);
	device_attribute(&minor, 76, dev);
	return major * 10 + minor >= 89;
}

API(cublasStatus_t, cublasLtMatmulAlgoGetHeuristic,
    (cublasLtHandle_t h, desc_t *d, layout_t *a, layout_t *b, layout_t *c, layout_t *dd, pref_t *p, int want,
     cublasLtMatmulHeuristicResult_t *out, int *count))
{
	uint64_t m, n, k;
	int prec;

	if (!valid(h, d, a, b, c, dd) || !p || p->magic != MAGIC_PREF || want <= 0 || !out || !count)
		return ST_INVALID_VALUE;
	*count = 0;
	if (!shapes(d, a, b, c, dd, &m, &n, &k))
		return ST_INVALID_VALUE;
	prec = precision_of(d, a, b, c, dd);
	if (prec < 0 || (prec == FB_FP8 && !fp8_ok(d)))
		return ST_NOT_SUPPORTED;
	memset(&out[0], 0, sizeof(out[0]));
	out[0].algo.data[0] = 0x67770001ull;                 /* "gw" algorithm 1 */
	out[0].workspaceSize = p->max_workspace < (1u << 20) ? p->max_workspace : (1u << 20);
	out[0].state = ST_SUCCESS;
	out[0].wavesCount = 1.0f;
	*count = 1;
	return ST_SUCCESS;
}

/* ---- the CPU product of small problems ------------------------------------------ */

static float half_to_float(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? INFINITY : ldexpf((float)(m | 1024), e - 25);

	return h & 0x8000 ? -v : v;
}

static uint16_t float_to_half(float f)
{
	uint16_t sign = signbit(f) ? 0x8000 : 0;
	int e;
	float a = fabsf(f), mant;

	if (a == 0)
		return sign;
	if (a >= 65520.0f)
		return sign | 0x7c00;
	mant = frexpf(a, &e);          /* a = mant * 2^e, mant in [0.5, 1) */
	if (e < -13)                   /* subnormal */
		return sign | (uint16_t)lrintf(ldexpf(a, 24));
	return sign | (uint16_t)(((e + 14) << 10) + (int)lrintf(ldexpf(mant, 11)) - 1024);
}

static float bf16_to_float(uint16_t b)
{
	uint32_t u = (uint32_t)b << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint16_t float_to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);   /* round to nearest even */
}

static float e4m3_to_float(uint8_t x)
{
	int e = (x >> 3) & 15, m = x & 7;
	float v = e == 0 ? ldexpf((float)m, -9) : ldexpf((float)(m | 8), e - 10);

	if ((x & 0x7f) == 0x7f)
		v = NAN;
	return x & 0x80 ? -v : v;
}

static float load(const void *p, int type, size_t i)
{
	const unsigned char *b = p;
	uint16_t h;
	float f;

	switch (type) {
	case R_32F: memcpy(&f, b + 4 * i, 4); return f;
	case R_16F: memcpy(&h, b + 2 * i, 2); return half_to_float(h);
	case R_16BF: memcpy(&h, b + 2 * i, 2); return bf16_to_float(h);
	default: return e4m3_to_float(b[i]);
	}
}

static void store(void *p, int type, size_t i, float f)
{
	unsigned char *b = p;
	uint16_t h;

	switch (type) {
	case R_32F: memcpy(b + 4 * i, &f, 4); break;
	case R_16F: h = float_to_half(f); memcpy(b + 2 * i, &h, 2); break;
	default: h = float_to_bf16(f); memcpy(b + 2 * i, &h, 2); break;
	}
}

/* TF32 keeps 10 mantissa bits of an FP32 input. */
static float tf32(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	u = (u + 0x1000) & ~0x1fffu;
	memcpy(&f, &u, 4);
	return f;
}

static void compute(const desc_t *d, const layout_t *a, const void *A, const layout_t *b, const void *B, float alpha,
		    float beta, const layout_t *c, const void *C, const layout_t *dd, void *D, uint64_t m, uint64_t n,
		    uint64_t k, int prec)
{
	for (uint64_t j = 0; j < n; j++) {
		for (uint64_t i = 0; i < m; i++) {
			float acc = 0;

			for (uint64_t l = 0; l < k; l++) {
				size_t ia = d->transa ? l + i * (size_t)a->ld : i + l * (size_t)a->ld;
				size_t ib = d->transb ? j + l * (size_t)b->ld : l + j * (size_t)b->ld;
				float x = load(A, a->type, ia), y = load(B, b->type, ib);

				if (prec == FB_TF32) {
					x = tf32(x);
					y = tf32(y);
				}
				acc += x * y;
			}
			acc = alpha * acc + (beta != 0 ? beta * load(C, c->type, i + j * (size_t)c->ld) : 0);
			store(D, dd->type, i + j * (size_t)dd->ld, acc);
		}
	}
}

static size_t bytes_of(const layout_t *l)
{
	return ((size_t)l->ld * (l->cols - 1) + l->rows) * type_size(l->type);
}

API(cublasStatus_t, cublasLtMatmul,
    (cublasLtHandle_t h, desc_t *d, const void *alpha, const void *A, layout_t *a, const void *B, layout_t *b,
     const void *beta, const void *C, layout_t *c, void *D, layout_t *dd, const cublasLtMatmulAlgo_t *algo,
     void *workspace, size_t wsize, void *stream))
{
	uint64_t m, n, k;
	float al, be;
	int prec;

	if (!valid(h, d, a, b, c, dd) || !alpha || !beta || !A || !B || !D)
		return ST_INVALID_VALUE;
	if (!shapes(d, a, b, c, dd, &m, &n, &k))
		return ST_INVALID_VALUE;
	if ((prec = precision_of(d, a, b, c, dd)) < 0 || (prec == FB_FP8 && !fp8_ok(d)))
		return ST_NOT_SUPPORTED;
	if (algo && algo->data[0] != 0x67770001ull)
		return ST_INVALID_VALUE;
	if (wsize && !workspace)
		return ST_INVALID_VALUE;
	/* Every operand in device memory of the current context. */
	if (device_range(A, bytes_of(a)) || device_range(B, bytes_of(b)) || device_range(D, bytes_of(dd)) ||
	    (C && device_range(C, bytes_of(c))) || (wsize && device_range(workspace, wsize)))
		return ST_INVALID_VALUE;
	memcpy(&al, alpha, 4);          /* host pointers, scale type FP32 */
	memcpy(&be, beta, 4);
	if (be != 0 && !C)
		return ST_INVALID_VALUE;
	if ((double)m * n * k <= (double)(1u << 21))
		compute(d, a, A, b, B, al, be, c, C, dd, D, m, n, k, prec);
	if (enqueue_flops(stream, prec, 2.0 * (double)m * n * k, D, bytes_of(dd)) != 0)
		return ST_EXECUTION_FAILED;
	return ST_SUCCESS;
}
