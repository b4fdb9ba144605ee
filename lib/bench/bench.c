/* gpuwise bench: measured figures beside the datasheet's.
 *
 * One GPU, its primary context (shared with any framework in the process,
 * as nvbandwidth does), one stream, CUDA events for every timing. Each test
 * enqueues a warm-up, then a few trials of `reps` operations between two
 * events; NVML is sampled while each trial is in flight (clocks, power,
 * throttle reasons, PCIe link under load), and the best trial counts (the
 * least disturbed one, as BabelStream takes the minimum time). Buffers are
 * allocated outside the timing; results are checked after it (a copy that
 * moved the wrong bytes fails rather than reporting a fast number).
 *
 * GEMM: cuBLASLt (cublaslt.c) loaded at the first GEMM test; each dtype
 * is checked against the CPU on a 64^3 product of small integers before a
 * large square product is timed.
 *
 * Byte counting: d2d-copy counts bytes read plus bytes written (2x the
 * buffer, as bandwidthTest and BabelStream do, so it compares with the
 * datasheet's memory bandwidth); host and peer copies count the buffer once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "device/device.h"
#include "bench/cublaslt.h"
#include "bench/affinity.h"
#include "core/thread.h"
#include "bench/cudrv.h"
#include "gpuwise/advise.h"
#include "gpuwise/bench.h"

#define GW_GEN_TABLE_ROWS
#include "gpu_specs.h"

static const struct {
	const char *name, *unit;
} tests[GW_BENCH_TEST_COUNT] = {
	[GW_BENCH_D2D_COPY] = { "d2d-copy", "GB/s" },
	[GW_BENCH_D2D_COPY_CE] = { "d2d-copy-ce", "GB/s" },
	[GW_BENCH_H2D_PINNED] = { "h2d-pinned", "GB/s" },
	[GW_BENCH_D2H_PINNED] = { "d2h-pinned", "GB/s" },
	[GW_BENCH_H2D_PAGEABLE] = { "h2d-pageable", "GB/s" },
	[GW_BENCH_GEMM_FP32] = { "gemm-fp32", "TFLOPS" },
	[GW_BENCH_GEMM_TF32] = { "gemm-tf32", "TFLOPS" },
	[GW_BENCH_GEMM_FP16] = { "gemm-fp16", "TFLOPS" },
	[GW_BENCH_GEMM_BF16] = { "gemm-bf16", "TFLOPS" },
	[GW_BENCH_GEMM_FP8] = { "gemm-fp8", "TFLOPS" },
	[GW_BENCH_LAUNCH_LATENCY] = { "launch-latency", "us" },
	[GW_BENCH_P2P] = { "p2p", "GB/s" },
};

const char *gw_bench_test_name(gw_bench_test t)
{
	return (unsigned)t < GW_BENCH_TEST_COUNT ? tests[t].name : NULL;
}

const char *gw_bench_test_unit(gw_bench_test t)
{
	return (unsigned)t < GW_BENCH_TEST_COUNT ? tests[t].unit : NULL;
}

int gw_bench_test_find(const char *name, gw_bench_test *out)
{
	char shown[64] = "";

	if (!name || !out)
		return gw__error_set(GW_EINVAL, "no test name");
	for (int i = 0; i < GW_BENCH_TEST_COUNT; i++) {
		if (strcmp(name, tests[i].name) == 0) {
			*out = (gw_bench_test)i;
			return 0;
		}
	}
	gw__copy_printable(shown, sizeof(shown), name, strlen(name));
	return gw__error_set(GW_ENOTFOUND, "no bench test \"%s\"", shown);
}

/* ---- the spec: which row, and the PCIe rate ------------------------------ */

/* NVML names ("NVIDIA H100 80GB HBM3", "Tesla T4", "NVIDIA GeForce RTX 4090")
 * looked up among the table's spellings (the lookup skips the brand words). */
static bool find_spec(const char *name, gw_gpu_spec *out)
{
	return *name && gw_gpu_spec_find(name, out) == 0;
}

static void spec_pcie(const char *row, gw_u64 *gen, gw_u64 *width)
{
	for (size_t i = 0; i < GW_ROWS_GPU_SPECS_COUNT; i++) {
		unsigned g, w;

		if (strcmp(gw_rows_gpu_specs[i].name, row) == 0 &&
		    sscanf(gw_rows_gpu_specs[i].pcie, "%ux%u", &g, &w) == 2) {
			gw__u64_set(gen, g);
			gw__u64_set(width, w);
		}
	}
}

/* Raw rate per lane and direction, GB/s: 2.5/5 GT/s with 8b/10b, 8/16/32
 * GT/s with 128b/130b, Gen6 64 GT/s (PAM4, FLIT: counted as twice Gen5). */
static double pcie_lane_gbs(unsigned gen)
{
	static const double rate[] = { 0, 0.25, 0.5, 0.985, 1.969, 3.938, 7.877 };

	return gen < GW_ARRAY_SIZE(rate) ? rate[gen] : 0;
}

/* ---- the session ------------------------------------------------------------ */

struct session {
	gw_context *ctx;
	int device;
	const gw_device_info *info;
	bool quick;
	gw__cudrv drv;
	gwc_device dev;
	gwc_context cuctx;
	bool retained;
	gwc_module mod;
	gwc_function fn_copy, fn_empty;
	char module_error[200];
	gwc_stream stream;
	gwc_event ev[2];
	int sms;
	gw_gpu_spec spec;
	bool have_spec;
	gw_bench_report *rep;
	gw__blaslt lt;           /* loaded at the first GEMM test */
	void *lt_handle;
	bool lt_tried;
	char lt_error[200];
};

/* A failed driver call: the result says which and why. */
static int failed(struct session *s, gw_bench_result *r, const char *call, gwc_result code)
{
	char name[64];

	r->status = GW_BENCH_FAILED;
	gw__fmt(r->message, sizeof(r->message), "%s failed: %s", call, gw__cudrv_code(&s->drv, code, name, sizeof(name)));
	return -1;
}

#define CK(call, what) do { gwc_result ck_ = (call); if (ck_ != GWC_SUCCESS) return failed(s, r, what, ck_); } while (0)

static void u64_min(gw_u64 *f, const gw_u64 *v)
{
	if (GW_VALID(*v) && (!GW_VALID(*f) || v->v < f->v))
		*f = *v;
}

static void u64_max(gw_u64 *f, const gw_u64 *v)
{
	if (GW_VALID(*v) && (!GW_VALID(*f) || v->v > f->v))
		*f = *v;
}

static void f64_max(gw_f64 *f, const gw_f64 *v)
{
	if (GW_VALID(*v) && (!GW_VALID(*f) || v->v > f->v))
		*f = *v;
}

/* One NVML sample taken while work is in flight. */
static void sample(struct session *s, gw_bench_during *d)
{
	gw_device_sample smp;

	if (gw_device_sample_read(s->ctx, s->device, &smp) != 0)
		return;
	d->samples++;
	u64_min(&d->sm_mhz_min, &smp.sm_clock);
	u64_max(&d->sm_mhz_max, &smp.sm_clock);
	f64_max(&d->power_w_max, &smp.power_draw);
	f64_max(&d->power_limit_w, &smp.power_limit);
	f64_max(&d->temperature_c_max, &smp.temperature);
	u64_min(&d->pcie_gen, &smp.pcie_gen);
	u64_min(&d->pcie_width, &smp.pcie_width);
	if (GW_VALID(smp.throttle_reasons)) {
		uint64_t bits = smp.throttle_reasons.v & ~(uint64_t)GW_THROTTLE_GPU_IDLE;

		gw__u64_set(&d->throttle_reasons, (GW_VALID(d->throttle_reasons) ? d->throttle_reasons.v : 0) | bits);
	}
}

/* Enqueues one operation of a test on s->stream. */
typedef gwc_result (*op_fn)(struct session *s, void *arg);

/* Seconds per operation: the best of `trials` trials of `reps` operations,
 * after one warm-up operation. reps 0: enough for ~20 ms a trial (5 ms
 * quick), from the warm-up's time. */
static int time_op(struct session *s, gw_bench_result *r, op_fn op, void *arg, int reps, double *out)
{
	int trials = s->quick ? 3 : 5;
	double best = 0;
	float ms = 0;

	CK(s->drv.event_record(s->ev[0], s->stream), "cuEventRecord");
	CK(op(s, arg), "the warm-up");
	CK(s->drv.event_record(s->ev[1], s->stream), "cuEventRecord");
	CK(s->drv.event_synchronize(s->ev[1]), "cuEventSynchronize");
	CK(s->drv.event_elapsed_time(&ms, s->ev[0], s->ev[1]), "cuEventElapsedTime");
	if (reps <= 0) {
		double target = s->quick ? 5.0 : 20.0, one = ms > 0.001f ? ms : 0.001;

		reps = (int)(target / one) + 1;
		reps = reps > 1000 ? 1000 : reps;
	}
	for (int t = 0; t < trials; t++) {
		double per;

		CK(s->drv.event_record(s->ev[0], s->stream), "cuEventRecord");
		for (int i = 0; i < reps; i++)
			CK(op(s, arg), "the timed operation");
		CK(s->drv.event_record(s->ev[1], s->stream), "cuEventRecord");
		sample(s, &r->during);
		CK(s->drv.event_synchronize(s->ev[1]), "cuEventSynchronize");
		CK(s->drv.event_elapsed_time(&ms, s->ev[0], s->ev[1]), "cuEventElapsedTime");
		per = (double)ms / 1e3 / reps;
		if (per > 0 && (best == 0 || per < best))
			best = per;
	}
	if (best <= 0) {
		r->status = GW_BENCH_FAILED;
		gw__fmt(r->message, sizeof(r->message), "the events measured no time");
		return -1;
	}
	*out = best;
	return 0;
}

/* ---- buffers ------------------------------------------------------------------ */

struct buffers {
	size_t n;
	gwc_deviceptr a, b;     /* device */
	void *pinned;           /* cuMemAllocHost */
	unsigned char *pageable;
	gwc_deviceptr peer;     /* on the peer device */
	gwc_context peer_ctx;
	gwc_device peer_dev;
};

static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
	uint32_t x = 2463534242u ^ seed;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)x;
	}
}

/* Device bytes of a copy: as large as asked, at most a quarter of what is free. */
static size_t device_bytes(struct session *s, size_t want, int buffers)
{
	size_t free_b = 0, total_b = 0;

	if (s->drv.mem_get_info(&free_b, &total_b) == GWC_SUCCESS)
		while (want > (1u << 20) && want * (size_t)buffers > free_b / 4)
			want /= 2;
	return want & ~(size_t)15;
}

/* ---- the copy tests -------------------------------------------------------- */

struct copy_arg {
	struct buffers *b;
	gw_bench_test test;
	void *params[3];
	unsigned long long words;
	unsigned grid;
};

static gwc_result copy_op(struct session *s, void *arg)
{
	struct copy_arg *c = arg;
	struct buffers *b = c->b;

	switch (c->test) {
	case GW_BENCH_D2D_COPY:
		return s->drv.launch_kernel(s->fn_copy, c->grid, 1, 1, 256, 1, 1, 0, s->stream, c->params, NULL);
	case GW_BENCH_D2D_COPY_CE: return s->drv.memcpy_dtod_async(b->a, b->b, b->n, s->stream);
	case GW_BENCH_H2D_PINNED: return s->drv.memcpy_htod_async(b->a, b->pinned, b->n, s->stream);
	case GW_BENCH_D2H_PINNED: return s->drv.memcpy_dtoh_async(b->pinned, b->a, b->n, s->stream);
	case GW_BENCH_H2D_PAGEABLE: return s->drv.memcpy_htod_async(b->a, b->pageable, b->n, s->stream);
	case GW_BENCH_P2P: return s->drv.memcpy_peer_async(b->peer, b->peer_ctx, b->a, s->cuctx, b->n, s->stream);
	default: return GWC_ERROR_INVALID_VALUE;
	}
}

/* The first and last 64 KiB of dst (device) equal those of want (host). */
static int check_copy(struct session *s, gw_bench_result *r, gwc_deviceptr dst, const unsigned char *want, size_t n)
{
	size_t k = n < (64u << 10) ? n : (64u << 10);
	unsigned char *got = gw__malloc(k);
	int bad = 0;

	if (!got) {
		r->status = GW_BENCH_FAILED;
		gw__fmt(r->message, sizeof(r->message), "out of memory");
		return -1;
	}
	if (s->drv.memcpy_dtoh(got, dst, k) != GWC_SUCCESS || memcmp(got, want, k) ||
	    s->drv.memcpy_dtoh(got, dst + (n - k), k) != GWC_SUCCESS || memcmp(got, want + (n - k), k))
		bad = 1;
	gw__free(got);
	if (bad) {
		r->status = GW_BENCH_FAILED;
		gw__fmt(r->message, sizeof(r->message), "the copied bytes are wrong: the result is not reported");
		return -1;
	}
	return 0;
}

/* Device memory to device memory: gpuwise's copy kernel (d2d-copy, what a
 * framework's elementwise kernels see) or the copy engine (d2d-copy-ce,
 * cuMemcpyDtoDAsync, what nvbandwidth's device-local copy measures); both
 * count bytes read + written. */
static int run_d2d(struct session *s, gw_bench_result *r, struct buffers *b, gw_bench_test t)
{
	struct copy_arg c = { .b = b, .test = t };
	unsigned char *pattern = b->pageable;
	double secs;

	if (t == GW_BENCH_D2D_COPY && !s->fn_copy) {
		r->status = GW_BENCH_FAILED;
		gw__fmt(r->message, sizeof(r->message), "gpuwise's kernels did not load: %s", s->module_error);
		return -1;
	}
	fill_pattern(pattern, b->n, 1);
	CK(s->drv.memcpy_htod(b->b, pattern, b->n), "cuMemcpyHtoD");
	c.words = b->n / 16;
	c.params[0] = &b->a;
	c.params[1] = &b->b;
	c.params[2] = &c.words;
	c.grid = (unsigned)(s->sms > 0 ? s->sms * 8 : 256);
	if (time_op(s, r, copy_op, &c, 0, &secs) || check_copy(s, r, b->a, pattern, b->n))
		return -1;
	gw__f64_set(&r->value, 2.0 * (double)b->n / secs / 1e9);
	gw__fmt(r->message, sizeof(r->message), "%s; bytes read + written (2x the buffer), as bandwidthTest and "
		"BabelStream count", t == GW_BENCH_D2D_COPY ? "gpuwise's copy kernel" : "copy engine (cuMemcpyDtoDAsync)");
	return 0;
}

static int run_host(struct session *s, gw_bench_result *r, struct buffers *b, gw_bench_test t)
{
	struct copy_arg c = { .b = b, .test = t };
	unsigned char *src = t == GW_BENCH_H2D_PAGEABLE ? b->pageable : b->pinned;
	double secs;

	fill_pattern(src, b->n, (unsigned)t);
	if (t == GW_BENCH_D2H_PINNED) {
		/* Device holds the pattern; what comes back is compared. */
		CK(s->drv.memcpy_htod(b->a, src, b->n), "cuMemcpyHtoD");
		memcpy(b->pageable, src, b->n);
		memset(src, 0, b->n);
	}
	if (time_op(s, r, copy_op, &c, 0, &secs))
		return -1;
	if (t == GW_BENCH_D2H_PINNED ? memcmp(src, b->pageable, b->n) != 0 : check_copy(s, r, b->a, src, b->n) != 0) {
		if (r->status != GW_BENCH_FAILED) {
			r->status = GW_BENCH_FAILED;
			gw__fmt(r->message, sizeof(r->message), "the copied bytes are wrong: the result is not reported");
		}
		return -1;
	}
	gw__f64_set(&r->value, (double)b->n / secs / 1e9);
	gw__fmt(r->message, sizeof(r->message), "%s memory, %zu MiB a copy, bytes counted once",
		 t == GW_BENCH_H2D_PAGEABLE ? "pageable (malloc)" : "pinned (cuMemAllocHost)", b->n >> 20);
	return 0;
}

static gwc_result empty_op(struct session *s, void *arg)
{
	(void)arg;
	return s->drv.launch_kernel(s->fn_empty, 1, 1, 1, 1, 1, 1, 0, s->stream, NULL, NULL);
}

static int run_latency(struct session *s, gw_bench_result *r)
{
	double secs;

	if (!s->fn_empty) {
		r->status = GW_BENCH_FAILED;
		gw__fmt(r->message, sizeof(r->message), "gpuwise's kernels did not load: %s", s->module_error);
		return -1;
	}
	if (time_op(s, r, empty_op, NULL, s->quick ? 200 : 1000, &secs))
		return -1;
	gw__f64_set(&r->value, secs * 1e6);
	gw__fmt(r->message, sizeof(r->message), "back-to-back empty kernels on one stream, time per launch");
	return 0;
}

/* Peer copies to the next CUDA device (its primary context). */
static int run_p2p(struct session *s, gw_bench_result *r, struct buffers *b)
{
	struct copy_arg c = { .b = b, .test = GW_BENCH_P2P };
	int count = 0;
	gwc_device peer;
	double secs;
	int rc;

	CK(s->drv.device_get_count(&count), "cuDeviceGetCount");
	if (count < 2) {
		r->status = GW_BENCH_SKIPPED;
		gw__fmt(r->message, sizeof(r->message), "needs two or more GPUs visible to CUDA");
		return 0;
	}
	CK(s->drv.device_get(&peer, (s->rep->cuda_index + 1) % count), "cuDeviceGet");
	CK(s->drv.primary_ctx_retain(&b->peer_ctx, peer), "cuDevicePrimaryCtxRetain");
	b->peer_dev = peer;
	CK(s->drv.ctx_set_current(b->peer_ctx), "cuCtxSetCurrent");
	rc = s->drv.mem_alloc(&b->peer, b->n);
	s->drv.ctx_set_current(s->cuctx);
	if (rc != GWC_SUCCESS) {
		b->peer = 0;
		return failed(s, r, "cuMemAlloc on the peer", rc);
	}
	fill_pattern(b->pageable, b->n, 7);
	CK(s->drv.memcpy_htod(b->a, b->pageable, b->n), "cuMemcpyHtoD");
	if (time_op(s, r, copy_op, &c, 0, &secs))
		return -1;
	gw__f64_set(&r->value, (double)b->n / secs / 1e9);
	gw__fmt(r->message, sizeof(r->message), "to CUDA device %d, %zu MiB a copy, bytes counted once",
		 (s->rep->cuda_index + 1) % count, b->n >> 20);
	return 0;
}

/* ---- GEMM through cuBLASLt -------------------------------------------------------- */

/* Every dtype as "TN" (A transposed, as FP8 requires; the others accept it
 * too): A stored k x m, B k x n, C = D m x n, column-major, FP32 scale. */
static const struct gemm_kind {
	gw_bench_test test;
	const char *dtype;
	int ab_type, cd_type, compute;
	size_t ab_size, cd_size;
} gemm_kinds[] = {
	{ GW_BENCH_GEMM_FP32, "fp32", GWB_R_32F, GWB_R_32F, GWB_COMPUTE_32F, 4, 4 },
	{ GW_BENCH_GEMM_TF32, "tf32", GWB_R_32F, GWB_R_32F, GWB_COMPUTE_32F_FAST_TF32, 4, 4 },
	{ GW_BENCH_GEMM_FP16, "fp16", GWB_R_16F, GWB_R_16F, GWB_COMPUTE_32F, 2, 2 },
	{ GW_BENCH_GEMM_BF16, "bf16", GWB_R_16BF, GWB_R_16BF, GWB_COMPUTE_32F, 2, 2 },
	{ GW_BENCH_GEMM_FP8, "fp8 (e4m3)", GWB_R_8F_E4M3, GWB_R_16BF, GWB_COMPUTE_32F, 1, 2 },
};

struct gemm {
	const struct gemm_kind *k;
	uint64_t n;                 /* m = n = k */
	void *desc, *la, *lb, *lc, *pref;
	gwb_algo algo;
	gwc_deviceptr a, b, d, ws;
	size_t ws_size;
};

static void *dptr(gwc_deviceptr p)
{
	return (void *)(uintptr_t)p;
}

static void gemm_free(struct session *s, struct gemm *g)
{
	if (g->desc)
		s->lt.desc_destroy(g->desc);
	if (g->la)
		s->lt.layout_destroy(g->la);
	if (g->lb)
		s->lt.layout_destroy(g->lb);
	if (g->lc)
		s->lt.layout_destroy(g->lc);
	if (g->pref)
		s->lt.pref_destroy(g->pref);
	if (g->a)
		s->drv.mem_free(g->a);
	if (g->b)
		s->drv.mem_free(g->b);
	if (g->d)
		s->drv.mem_free(g->d);
	if (g->ws)
		s->drv.mem_free(g->ws);
	memset(g, 0, sizeof(*g));
}

static int lt_failed(struct session *s, gw_bench_result *r, const char *call, int st)
{
	char name[64];

	r->status = GW_BENCH_FAILED;
	gw__fmt(r->message, sizeof(r->message), "%s failed: %s", call, gw__blaslt_status(&s->lt, st, name, sizeof(name)));
	return -1;
}

#define LT(call, what) do { int lt_ = (call); if (lt_ != GWB_STATUS_SUCCESS) return lt_failed(s, r, what, lt_); } while (0)

/* Descriptors, an algorithm from the heuristic, and device buffers for an
 * n x n x n product. 1 when cuBLASLt has no algorithm (skipped). */
static int gemm_setup(struct session *s, gw_bench_result *r, struct gemm *g, const struct gemm_kind *k, uint64_t n)
{
	int32_t ta = GWB_OP_T, tb = GWB_OP_N;
	uint64_t ws_max = 32u << 20;
	gwb_heuristic h;
	int count = 0, st;

	memset(g, 0, sizeof(*g));
	g->k = k;
	g->n = n;
	LT(s->lt.desc_create(&g->desc, k->compute, GWB_R_32F), "cublasLtMatmulDescCreate");
	LT(s->lt.desc_set(g->desc, GWB_DESC_TRANSA, &ta, sizeof(ta)), "cublasLtMatmulDescSetAttribute");
	LT(s->lt.desc_set(g->desc, GWB_DESC_TRANSB, &tb, sizeof(tb)), "cublasLtMatmulDescSetAttribute");
	LT(s->lt.layout_create(&g->la, k->ab_type, n, n, (int64_t)n), "cublasLtMatrixLayoutCreate");
	LT(s->lt.layout_create(&g->lb, k->ab_type, n, n, (int64_t)n), "cublasLtMatrixLayoutCreate");
	LT(s->lt.layout_create(&g->lc, k->cd_type, n, n, (int64_t)n), "cublasLtMatrixLayoutCreate");
	LT(s->lt.pref_create(&g->pref), "cublasLtMatmulPreferenceCreate");
	LT(s->lt.pref_set(g->pref, GWB_PREF_MAX_WORKSPACE_BYTES, &ws_max, sizeof(ws_max)),
	   "cublasLtMatmulPreferenceSetAttribute");
	memset(&h, 0, sizeof(h));
	st = s->lt.heuristic(s->lt_handle, g->desc, g->la, g->lb, g->lc, g->lc, g->pref, 1, &h, &count);
	if (st == GWB_STATUS_NOT_SUPPORTED || (st == GWB_STATUS_SUCCESS && count == 0)) {
		r->status = GW_BENCH_SKIPPED;
		gw__fmt(r->message, sizeof(r->message), "cuBLASLt has no %s GEMM for this GPU", k->dtype);
		return 1;
	}
	LT(st, "cublasLtMatmulAlgoGetHeuristic");
	g->algo = h.algo;
	g->ws_size = h.workspace_size;
	CK(s->drv.mem_alloc(&g->a, n * n * k->ab_size), "cuMemAlloc");
	CK(s->drv.mem_alloc(&g->b, n * n * k->ab_size), "cuMemAlloc");
	CK(s->drv.mem_alloc(&g->d, n * n * k->cd_size), "cuMemAlloc");
	if (g->ws_size)
		CK(s->drv.mem_alloc(&g->ws, g->ws_size), "cuMemAlloc");
	return 0;
}

static gwc_result gemm_op(struct session *s, void *arg)
{
	const struct gemm *g = arg;
	const float one = 1.0f, zero = 0.0f;
	int st = s->lt.matmul(s->lt_handle, g->desc, &one, dptr(g->a), g->la, dptr(g->b), g->lb, &zero, dptr(g->d), g->lc,
			      dptr(g->d), g->lc, &g->algo, dptr(g->ws), g->ws_size, s->stream);

	/* A cuBLASLt failure inside the timed loop: reported as the launch's. */
	return st == GWB_STATUS_SUCCESS ? GWC_SUCCESS : GWC_ERROR_LAUNCH_FAILED;
}

/* Small integers, exact in every dtype (FP8 e4m3 included) and in any sum
 * of 64 products. */
static int small_int(size_t i, unsigned seed)
{
	return (int)((i * 2654435761u + seed) >> 7 & 3) - 1;   /* -1 .. 2 */
}

static void encode(void *out, int type, size_t i, int v)
{
	unsigned char *b = out;
	float f = (float)v;
	uint32_t u;
	uint16_t h;
	static const uint8_t e4m3[] = { 0xB8, 0x00, 0x38, 0x40 };      /* -1, 0, 1, 2 */
	static const uint16_t half[] = { 0xBC00, 0x0000, 0x3C00, 0x4000 };

	switch (type) {
	case GWB_R_32F: memcpy(b + 4 * i, &f, 4); break;
	case GWB_R_16F: memcpy(b + 2 * i, &half[v + 1], 2); break;
	case GWB_R_16BF: memcpy(&u, &f, 4); h = (uint16_t)(u >> 16); memcpy(b + 2 * i, &h, 2); break;
	default: b[i] = e4m3[v + 1]; break;
	}
}

/* Exact small integers back from FP32, FP16 or BF16. */
static double decode(const void *in, int type, size_t i)
{
	const unsigned char *b = in;
	uint16_t h;
	uint32_t u;
	float f;

	if (type == GWB_R_32F) {
		memcpy(&f, b + 4 * i, 4);
		return f;
	}
	memcpy(&h, b + 2 * i, 2);
	if (type == GWB_R_16BF) {
		u = (uint32_t)h << 16;
		memcpy(&f, &u, 4);
		return f;
	}
	{
		int e = (h >> 10) & 31, m = h & 1023;
		double v = e == 0 ? ldexp(m, -24) : ldexp(m | 1024, e - 25);

		return h & 0x8000 ? -v : v;
	}
}

/* A 64 x 64 x 64 product against the CPU's: a GEMM that computes the wrong
 * thing never reports a speed. */
static int gemm_check(struct session *s, gw_bench_result *r, const struct gemm_kind *k)
{
	enum { N = 64 };
	unsigned char *a = NULL, *b = NULL, *d = NULL;
	struct gemm g;
	int rc, bad = 0;

	if ((rc = gemm_setup(s, r, &g, k, N)) != 0) {
		gemm_free(s, &g);
		return rc;
	}
	a = gw__malloc(N * N * k->ab_size);
	b = gw__malloc(N * N * k->ab_size);
	d = gw__malloc(N * N * k->cd_size);
	if (!a || !b || !d) {
		r->status = GW_BENCH_FAILED;
		gw__fmt(r->message, sizeof(r->message), "out of memory");
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < (size_t)N * N; i++) {
		encode(a, k->ab_type, i, small_int(i, 1));
		encode(b, k->ab_type, i, small_int(i, 2));
	}
	if ((rc = s->drv.memcpy_htod(g.a, a, N * N * k->ab_size)) || (rc = s->drv.memcpy_htod(g.b, b, N * N * k->ab_size)) ||
	    (rc = gemm_op(s, &g)) || (rc = s->drv.stream_synchronize(s->stream)) ||
	    (rc = s->drv.memcpy_dtoh(d, g.d, N * N * k->cd_size))) {
		rc = failed(s, r, "the checked GEMM", rc);
		goto out;
	}
	/* D = A^T B: A is stored k x m (column i of A is row i of op(A)). */
	for (size_t i = 0; i < N && !bad; i++) {
		for (size_t j = 0; j < N && !bad; j++) {
			long want = 0;

			for (size_t l = 0; l < N; l++)
				want += (long)small_int(l + i * N, 1) * small_int(l + j * N, 2);
			bad = decode(d, k->cd_type, i + j * N) != (double)want;
		}
	}
	if (bad) {
		r->status = GW_BENCH_FAILED;
		gw__fmt(r->message, sizeof(r->message), "cuBLASLt's %s result differs from the CPU's: not reported", k->dtype);
		rc = -1;
	}
out:
	gw__free(a);
	gw__free(b);
	gw__free(d);
	gemm_free(s, &g);
	return rc;
}

static int run_gemm(struct session *s, gw_bench_result *r)
{
	const struct gemm_kind *k = &gemm_kinds[r->test - GW_BENCH_GEMM_FP32];
	uint64_t n = s->quick ? 4096 : 8192;
	size_t free_b = 0, total_b = 0;
	struct gemm g;
	double secs;
	int rc;

	if (!s->lt_tried) {
		int st;

		s->lt_tried = true;
		if (gw__blaslt_open(&s->lt) < 0) {
			gw__strlcpy(s->lt_error, gw_error_last(), sizeof(s->lt_error));
		} else if ((st = s->lt.create(&s->lt_handle)) != GWB_STATUS_SUCCESS) {
			char name[64];

			gw__fmt(s->lt_error, sizeof(s->lt_error), "cublasLtCreate failed: %s",
				gw__blaslt_status(&s->lt, st, name, sizeof(name)));
			gw__blaslt_close(&s->lt);
		}
	}
	if (!s->lt.lib) {
		r->status = GW_BENCH_SKIPPED;
		gw__fmt(r->message, sizeof(r->message), "%s", s->lt_error);
		return 0;
	}
	if (r->test == GW_BENCH_GEMM_FP8 && GW_VALID(s->info->cc_major) &&
	    s->info->cc_major.v * 10 + s->info->cc_minor.v < 89) {
		r->status = GW_BENCH_SKIPPED;
		gw__fmt(r->message, sizeof(r->message), "no FP8 tensor cores (compute capability 8.9 or newer)");
		return 0;
	}
	if ((rc = gemm_check(s, r, k)) != 0)
		return rc < 0 ? -1 : 0;
	if (s->drv.mem_get_info(&free_b, &total_b) == GWC_SUCCESS)
		while (n > 1024 && n * n * (2 * k->ab_size + k->cd_size) > free_b / 2)
			n /= 2;
	if ((rc = gemm_setup(s, r, &g, k, n)) != 0 || time_op(s, r, gemm_op, &g, 0, &secs) != 0) {
		gemm_free(s, &g);
		return rc > 0 ? 0 : -1;
	}
	gemm_free(s, &g);
	gw__f64_set(&r->value, 2.0 * (double)n * (double)n * (double)n / secs / 1e12);
	gw__fmt(r->message, sizeof(r->message),
		"cuBLASLt %s, %llu x %llu x %llu, FP32 accumulate, checked on a 64^3 product", k->dtype,
		(unsigned long long)n, (unsigned long long)n, (unsigned long long)n);
	return 0;
}

/* ---- spec and verdict -------------------------------------------------------- */

static double spec_of(const struct session *s, gw_bench_test t)
{
	const gw_bench_report *rep = s->rep;

	switch (t) {
	case GW_BENCH_D2D_COPY:
	case GW_BENCH_D2D_COPY_CE: return s->have_spec ? (double)s->spec.bandwidth_bytes_per_s / 1e9 : 0;
	case GW_BENCH_H2D_PINNED:
	case GW_BENCH_D2H_PINNED:
	case GW_BENCH_H2D_PAGEABLE:
		if (!GW_VALID(rep->spec_pcie_gen) || !GW_VALID(rep->spec_pcie_width))
			return 0;
		return pcie_lane_gbs((unsigned)rep->spec_pcie_gen.v) * (double)rep->spec_pcie_width.v;
	case GW_BENCH_GEMM_FP32: return s->have_spec ? s->spec.fp32_flops / 1e12 : 0;
	case GW_BENCH_GEMM_TF32: return s->have_spec ? s->spec.tf32_flops / 1e12 : 0;
	case GW_BENCH_GEMM_FP16: return s->have_spec ? s->spec.fp16_flops / 1e12 : 0;
	case GW_BENCH_GEMM_BF16: return s->have_spec ? s->spec.bf16_flops / 1e12 : 0;
	case GW_BENCH_GEMM_FP8: return s->have_spec ? s->spec.fp8_flops / 1e12 : 0;
	default: return 0;
	}
}

static bool host_link_test(gw_bench_test t)
{
	return t == GW_BENCH_H2D_PINNED || t == GW_BENCH_D2H_PINNED || t == GW_BENCH_H2D_PAGEABLE;
}

static unsigned causes_of(const struct session *s, const gw_bench_result *r)
{
	const gw_bench_during *d = &r->during;
	uint64_t th = GW_VALID(d->throttle_reasons) ? d->throttle_reasons.v : 0;
	unsigned c = 0;

	if (host_link_test(r->test)) {
		if ((GW_VALID(d->pcie_gen) && GW_VALID(d->pcie_max_gen) && d->pcie_gen.v < d->pcie_max_gen.v) ||
		    (GW_VALID(d->pcie_width) && GW_VALID(d->pcie_max_width) && d->pcie_width.v < d->pcie_max_width.v))
			c |= GW_BENCH_CAUSE_PCIE_DOWNTRAINED;
		if ((GW_VALID(d->pcie_max_gen) && GW_VALID(s->rep->spec_pcie_gen) &&
		     d->pcie_max_gen.v < s->rep->spec_pcie_gen.v) ||
		    (GW_VALID(d->pcie_max_width) && GW_VALID(s->rep->spec_pcie_width) &&
		     d->pcie_max_width.v < s->rep->spec_pcie_width.v))
			c |= GW_BENCH_CAUSE_PCIE_SLOT;
	}
	if (th & (GW_THROTTLE_SW_POWER_CAP | GW_THROTTLE_HW_POWER_BRAKE))
		c |= GW_BENCH_CAUSE_POWER_CAP;
	if (th & (GW_THROTTLE_SW_THERMAL | GW_THROTTLE_HW_THERMAL | GW_THROTTLE_HW_SLOWDOWN))
		c |= GW_BENCH_CAUSE_THERMAL;
	if (!host_link_test(r->test) &&
	    ((th & GW_THROTTLE_APP_CLOCKS) ||
	     (!(c & (GW_BENCH_CAUSE_POWER_CAP | GW_BENCH_CAUSE_THERMAL)) && GW_VALID(d->sm_mhz_max) &&
	      GW_VALID(d->max_sm_mhz) && (double)d->sm_mhz_max.v < 0.9 * (double)d->max_sm_mhz.v)))
		c |= GW_BENCH_CAUSE_CLOCKS;
	return c;
}

static void verdict(const struct session *s, gw_bench_result *r)
{
	double spec = spec_of(s, r->test);

	if (spec > 0)
		gw__f64_set(&r->spec, spec);
	if (r->status != GW_BENCH_OK || !GW_VALID(r->value))
		return;
	if (spec > 0) {
		gw__f64_set(&r->percent_of_spec, 100.0 * r->value.v / spec);
		/* Pageable copies stage through a driver buffer at the CPU's
		 * memcpy speed: shown against the link, never warned about. */
		if (r->percent_of_spec.v < GW_BENCH_LOW_PERCENT && r->test != GW_BENCH_H2D_PAGEABLE)
			r->status = GW_BENCH_LOW;
	}
	if (r->status == GW_BENCH_LOW)
		r->causes = causes_of(s, r);
}

/* ---- setting up and tearing down ---------------------------------------------- */

static const char *library_name(const gw_context *ctx)
{
	const char *name = ctx->opts.cuda_library;

	if (!name || !*name)
		name = gw__env_path("GPUWISE_CUDA_LIBRARY");
	return name && *name ? name : "libcuda.so.1";
}

static int start(struct session *s)
{
	char code[64], log[160] = "";
	int opts[2] = { GWC_JIT_ERROR_LOG_BUFFER, GWC_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *vals[2] = { log, (void *)(uintptr_t)sizeof(log) };
	gwc_result rc;
	int rcl;

	if ((rcl = gw__cudrv_open(&s->drv, library_name(s->ctx))) < 0)
		return rcl;
	s->rep->cuda_driver_version = s->drv.version;
#define START(call, what) \
	if ((rc = (call)) != GWC_SUCCESS) \
		return gw__error_set(GW_EVENDOR, "%s failed: %s", what, gw__cudrv_code(&s->drv, rc, code, sizeof(code)))
	START(s->drv.init(0), "cuInit");
	START(s->drv.device_get(&s->dev, s->rep->cuda_index), "cuDeviceGet");
	START(s->drv.primary_ctx_retain(&s->cuctx, s->dev), "cuDevicePrimaryCtxRetain");
	s->retained = true;
	START(s->drv.ctx_set_current(s->cuctx), "cuCtxSetCurrent");
	START(s->drv.stream_create(&s->stream, GWC_STREAM_NON_BLOCKING), "cuStreamCreate");
	START(s->drv.event_create(&s->ev[0], GWC_EVENT_DEFAULT), "cuEventCreate");
	START(s->drv.event_create(&s->ev[1], GWC_EVENT_DEFAULT), "cuEventCreate");
#undef START
	if (s->drv.device_get_attribute(&s->sms, GWC_ATTR_MULTIPROCESSOR_COUNT, s->dev) != GWC_SUCCESS)
		s->sms = 0;
	/* A kernel that does not load fails the kernel tests, not the copies. */
	rc = s->drv.module_load_data_ex(&s->mod, gw__bench_ptx, 2, opts, vals);
	if (rc != GWC_SUCCESS) {
		log[sizeof(log) - 1] = '\0';
		gw__fmt(s->module_error, sizeof(s->module_error), "cuModuleLoadDataEx: %s%s%s",
			gw__cudrv_code(&s->drv, rc, code, sizeof(code)), *log ? ": " : "", log);
		s->mod = NULL;
	} else if ((rc = s->drv.module_get_function(&s->fn_copy, s->mod, "gw_copy")) != GWC_SUCCESS ||
		   (rc = s->drv.module_get_function(&s->fn_empty, s->mod, "gw_empty")) != GWC_SUCCESS) {
		gw__fmt(s->module_error, sizeof(s->module_error), "cuModuleGetFunction: %s",
			gw__cudrv_code(&s->drv, rc, code, sizeof(code)));
		s->fn_copy = s->fn_empty = NULL;
	}
	return 0;
}

static void stop(struct session *s, struct buffers *b)
{
	if (!s->drv.lib)
		return;
	if (b->pinned)
		s->drv.mem_free_host(b->pinned);
	if (b->a)
		s->drv.mem_free(b->a);
	if (b->b)
		s->drv.mem_free(b->b);
	if (b->peer) {
		s->drv.ctx_set_current(b->peer_ctx);
		s->drv.mem_free(b->peer);
		s->drv.ctx_set_current(s->cuctx);
	}
	if (b->peer_ctx)
		s->drv.primary_ctx_release(b->peer_dev);
	gw__free(b->pageable);
	for (int i = 0; i < 2; i++)
		if (s->ev[i])
			s->drv.event_destroy(s->ev[i]);
	if (s->stream)
		s->drv.stream_destroy(s->stream);
	if (s->mod)
		s->drv.module_unload(s->mod);
	if (s->lt_handle)
		s->lt.destroy(s->lt_handle);
	gw__blaslt_close(&s->lt);
	if (s->retained) {
		s->drv.ctx_set_current(NULL);
		s->drv.primary_ctx_release(s->dev);
	}
	gw__cudrv_close(&s->drv);
}

/* Bind the calling thread to the GPU's local CPUs (those this process may
 * use) before the host buffers exist, so first-touch places them on the
 * GPU's NUMA node and the driver's staging copies run there: on a
 * two-socket server a buffer on the other socket crosses the link between
 * the sockets on every host copy, and the figure says less about the slot
 * than about where the allocator happened to run. *saved gets
 * the old affinity; false when nothing was changed (the report says why). */
static bool bind_near_gpu(struct session *s, cpu_set_t *saved)
{
	cpu_set_t local, use;
	const gw_str *bus = &s->info->pci_bus_id;
	int n;

	if (!GW_VALID(*bus)) {
		gw__fmt(s->rep->host_cpus_note, sizeof(s->rep->host_cpus_note), "the GPU's bus id is unknown");
		return false;
	}
	n = gw__pci_local_cpus(gw_context_root(s->ctx), bus->s, &local);
	if (n <= 0) {
		gw__fmt(s->rep->host_cpus_note, sizeof(s->rep->host_cpus_note), "%s",
			n == 0 ? "sysfs lists no CPU local to the GPU"
			: n == GW_EPARSE ? "the GPU's local_cpulist is unreadable"
					 : "sysfs has no local_cpulist for the GPU");
		return false;
	}
	if (gw__thread_affinity_get(saved) < 0) {
		gw__fmt(s->rep->host_cpus_note, sizeof(s->rep->host_cpus_note), "sched_getaffinity failed");
		return false;
	}
	CPU_AND(&use, &local, saved);
	if (CPU_COUNT(&use) == 0) {
		gw__fmt(s->rep->host_cpus_note, sizeof(s->rep->host_cpus_note),
			"none of the GPU's local CPUs is allowed to this process");
		return false;
	}
	if (gw__thread_affinity_set(&use) < 0) {
		gw__fmt(s->rep->host_cpus_note, sizeof(s->rep->host_cpus_note), "sched_setaffinity failed");
		return false;
	}
	gw__cpulist_format(&use, s->rep->host_cpus, sizeof(s->rep->host_cpus));
	return true;
}

/* Buffers for every selected copy test, allocated once, outside the timing. */
static int allocate(struct session *s, struct buffers *b, gw_bench_result *r)
{
	size_t want = s->quick ? (32u << 20) : (256u << 20);

	b->n = device_bytes(s, want, 2);
	if (!(b->pageable = gw__malloc(b->n))) {
		r->status = GW_BENCH_FAILED;
		gw__fmt(r->message, sizeof(r->message), "out of host memory (%zu MiB)", b->n >> 20);
		return -1;
	}
	CK(s->drv.mem_alloc(&b->a, b->n), "cuMemAlloc");
	CK(s->drv.mem_alloc(&b->b, b->n), "cuMemAlloc");
	CK(s->drv.mem_alloc_host(&b->pinned, b->n), "cuMemAllocHost");
	return 0;
}

static void run_one(struct session *s, gw_bench_result *r, struct buffers *b, bool have_buffers)
{
	gw_bench_test t = r->test;

	if (t >= GW_BENCH_GEMM_FP32 && t <= GW_BENCH_GEMM_FP8) {
		run_gemm(s, r);
		verdict(s, r);
		return;
	}
	if (t == GW_BENCH_LAUNCH_LATENCY) {
		run_latency(s, r);
	} else if (!have_buffers) {
		verdict(s, r);     /* the allocation's failure is in r already */
		return;
	} else if (t == GW_BENCH_D2D_COPY || t == GW_BENCH_D2D_COPY_CE) {
		run_d2d(s, r, b, t);
	} else if (t == GW_BENCH_P2P) {
		run_p2p(s, r, b);
	} else {
		run_host(s, r, b, t);
	}
	if (r->status == GW_BENCH_OK && GW_VALID(r->value))
		r->bytes = t == GW_BENCH_LAUNCH_LATENCY ? 0 : b->n;
	verdict(s, r);
}

static void prepare_report(struct session *s, int device, gw_bench_report *rep)
{
	const gw_device_info *info = s->info;

	memset(rep, 0, sizeof(*rep));
	rep->device = device;
	rep->cuda_index = info->cuda_index;
	if (GW_VALID(info->name) && find_spec(info->name.s, &s->spec)) {
		s->have_spec = true;
		gw__strlcpy(rep->spec_name, s->spec.name, sizeof(rep->spec_name));
		rep->spec_source = s->spec.source;
		spec_pcie(s->spec.name, &rep->spec_pcie_gen, &rep->spec_pcie_width);
	}
	/* Not in the table: the GPU's own maximum as NVML says it. */
	if (!GW_VALID(rep->spec_pcie_gen) && GW_VALID(info->pcie_gpu_max_gen) && GW_VALID(info->pcie_max_width)) {
		rep->spec_pcie_gen = info->pcie_gpu_max_gen;
		rep->spec_pcie_width = info->pcie_max_width;
	}
}

static void init_result(const struct session *s, gw_bench_result *r, gw_bench_test t)
{
	memset(r, 0, sizeof(*r));
	r->test = t;
	r->during.max_sm_mhz = s->info->max_sm_clock;
	r->during.pcie_max_gen = s->info->pcie_max_gen;
	r->during.pcie_max_width = s->info->pcie_max_width;
}

int gw_bench_run(gw_context *ctx, int device, const gw_bench_options *opts, gw_bench_report *out)
{
	gw_bench_options o = GW_BENCH_OPTIONS_INIT;
	struct session s;
	struct buffers b;
	gw_bench_result alloc_r;
	gw_bench_report *rep;
	bool have_buffers = false, need_buffers = false, bound = false;
	cpu_set_t saved_cpus;
	int rc, step = 0, steps = 0;

	if (!ctx || !out)
		return gw__error_set(GW_EINVAL, "no context or output");
	if (opts)
		o = *opts;
	memset(&s, 0, sizeof(s));
	memset(&b, 0, sizeof(b));
	if (!(s.info = gw_device_get(ctx, device)))
		return gw__error_set(GW_ENOTFOUND, "no GPU %d", device);
	if (s.info->vendor != GW_VENDOR_NVIDIA || s.info->cuda_index < 0)
		return gw__error_set(GW_ENOTSUP,
				     "GPU %d is not a device CUDA can use (not NVIDIA, in MIG mode, or hidden by "
				     "CUDA_VISIBLE_DEVICES)", device);
	if (!(rep = gw__calloc(1, sizeof(*rep))))
		return GW_ENOMEM;
	s.ctx = ctx;
	s.device = device;
	s.quick = o.quick;
	s.rep = rep;
	prepare_report(&s, device, rep);
	if ((rc = start(&s)) < 0) {
		stop(&s, &b);
		gw__free(rep);
		return rc;
	}
	for (int t = 0; t < GW_BENCH_TEST_COUNT; t++) {
		if (o.tests && !(o.tests & (1u << t)))
			continue;
		steps++;
		if (t != GW_BENCH_LAUNCH_LATENCY && (t < GW_BENCH_GEMM_FP32 || t > GW_BENCH_GEMM_FP8))
			need_buffers = true;
	}
	memset(&alloc_r, 0, sizeof(alloc_r));
	if (need_buffers) {
		bound = bind_near_gpu(&s, &saved_cpus);
		have_buffers = allocate(&s, &b, &alloc_r) == 0;
	}
	for (int t = 0; t < GW_BENCH_TEST_COUNT; t++) {
		gw_bench_result *r = &rep->results[rep->nresults];

		if (o.tests && !(o.tests & (1u << t)))
			continue;
		if (o.progress)
			o.progress(o.progress_arg, (gw_bench_test)t, ++step, steps);
		init_result(&s, r, (gw_bench_test)t);
		if (!have_buffers && need_buffers && t != GW_BENCH_LAUNCH_LATENCY &&
		    (t < GW_BENCH_GEMM_FP32 || t > GW_BENCH_GEMM_FP8)) {
			r->status = alloc_r.status;
			memcpy(r->message, alloc_r.message, sizeof(r->message));
		}
		run_one(&s, r, &b, have_buffers);
		rep->nresults++;
	}
	stop(&s, &b);
	if (bound)
		gw__thread_affinity_set(&saved_cpus);   /* the caller's thread as it was */
	*out = *rep;
	gw__free(rep);
	return 0;
}
