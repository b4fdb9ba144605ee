/* gpuwise fakes — the driver-API calls `gpuwise bench` makes, served by a
 * "GPU" that executes nothing but keeps time honestly.
 *
 * Memory is host RAM: device allocations and pinned host buffers are
 * malloc'd and recorded, and every call checks its pointers against those
 * records the way the driver does (a device pointer must lie inside a live
 * allocation of the right context, a size must fit). Copies really copy,
 * so a result checked after the run is right or wrong for real.
 *
 * Time: each context has a GPU clock that advances only by the work
 * enqueued on it (its streams are serialised, like the legacy default
 * stream). A copy of N bytes takes N / the machine's declared bandwidth
 * (machine.json "bench": h2d_gbs, d2h_gbs, *_pageable_gbs for host memory
 * that is not pinned, memory_ce_gbs for cuMemcpyDtoD counting bytes read and
 * written, p2p_gbs), a kernel launch launch_us (gw_copy: its bytes at
 * memory_gbs). An event records the clock; synchronising sleeps until the
 * clock is reached, so wall time agrees with what the events say. The fake
 * CPU's own copying speed never shows in the figures.
 *
 * Modules: PTX text only. cuModuleLoadData[Ex] checks what the real JIT
 * would reject first: a .version the driver knows (CUDA 11.x: PTX 7.x,
 * 12.x: 8.x), a .target not above the device, .address_size 64, balanced
 * braces and parentheses, and at least one .entry; the entry names and
 * their parameter counts become the module's functions. Kernels named
 * gw_copy (dst, src, count of 16-byte words) copy; any other kernel only
 * takes launch time. A kernel that touches memory outside an allocation
 * makes its context fail with ILLEGAL_ADDRESS from then on, as a real
 * fault does.
 *
 * cuGetProcAddress (v1, 11.3) and cuGetProcAddress_v2 (12.0) hand out the
 * versioned entry point the requested CUDA version would bind (cuMemAlloc
 * at 3020 or later is cuMemAlloc_v2, ...); a version above the driver's or
 * a symbol this fake lacks answers NOT_FOUND with the query result set.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_cuda.h"

#define MAX_ALLOCS 4096
#define MAX_STREAMS 64
#define MAX_EVENTS 4096
#define MAX_MODULES 32
#define MAX_ENTRIES 16

/* Defaults for a machine.json without a "bench" block (GB/s, µs). */
static const double bench_default[FB_COUNT] = {
	[FB_H2D] = 12.0, [FB_D2H] = 12.0, [FB_H2D_PAGEABLE] = 6.0, [FB_D2H_PAGEABLE] = 6.0,
	[FB_MEMORY] = 500.0, [FB_P2P] = 10.0, [FB_LAUNCH_US] = 5.0,
	[FB_FP32] = 10.0, [FB_TF32] = 20.0, [FB_FP16] = 40.0, [FB_BF16] = 40.0, [FB_FP8] = 80.0,
};

enum alloc_kind { ALLOC_DEVICE = 1, ALLOC_HOST = 2 };

struct alloc {
	char *p;
	size_t n;
	int kind;
	int dev;                 /* the context's ordinal */
	/* Device memory changes only through this library: a copy that
	 * repeats the last one into this allocation, from a source unchanged
	 * since, would write the same bytes, and is not done again (a timed
	 * loop repeats one copy hundreds of times; the fake's CPU need not). */
	unsigned long gen;
	const char *last_dst, *last_src;
	size_t last_n;
	unsigned long last_gen, last_src_gen;
};

struct CUstream_st {
	int live, dev;
};

struct CUevent_st {
	int live, dev, recorded;
	unsigned flags;
	double t;                /* GPU clock when recorded */
};

struct CUfunc_st {
	struct CUmod_st *mod;
	char name[64];
	int nparams;
};

struct CUmod_st {
	int live, dev;
	int nentries;
	struct CUfunc_st entries[MAX_ENTRIES];
};

static pthread_mutex_t xlock = PTHREAD_MUTEX_INITIALIZER;
static struct alloc allocs[MAX_ALLOCS];
static struct CUstream_st streams[MAX_STREAMS];
static struct CUevent_st events[MAX_EVENTS];
static struct CUmod_st modules[MAX_MODULES];
static double gpu_clock[MAX_CU_DEVICES];      /* seconds, 0 = not started */
static CUresult sticky[MAX_CU_DEVICES];       /* a context's fatal error */
static size_t allocated[MAX_CU_DEVICES];

/* ---- time ------------------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	double left = t - now_s();

	if (left > 0) {
		struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
}

static double bench_figure(int dev, enum fm_bench_id id)
{
	const fm_device *d;

	if (fc_device_of(dev, &d) == CUDA_SUCCESS) {
		if (d->bench[id].set)
			return d->bench[id].v;
		if (d->parent && d->parent->bench[id].set)
			return d->parent->bench[id].v;
	}
	if (id == FB_MEMORY_CE)
		return bench_figure(dev, FB_MEMORY);   /* not declared: as fast as a kernel copy */
	return bench_default[id];
}

/* Enqueue `seconds` of work on dev's clock (xlock held); returns its end. */
static double enqueue(int dev, double seconds)
{
	if (gpu_clock[dev] == 0)
		gpu_clock[dev] = now_s();
	gpu_clock[dev] += seconds;
	return gpu_clock[dev];
}

static double bytes_time(size_t n, double gbs)
{
	return gbs > 0 ? (double)n / (gbs * 1e9) : 0;
}

/* Wait for everything enqueued on dev; the clock then catches up with the
 * host's (idle time is not work). */
static void synchronize_dev(int dev)
{
	double until;

	pthread_mutex_lock(&xlock);
	until = gpu_clock[dev];
	pthread_mutex_unlock(&xlock);
	sleep_until(until);
	pthread_mutex_lock(&xlock);
	if (gpu_clock[dev] < now_s())
		gpu_clock[dev] = now_s();
	pthread_mutex_unlock(&xlock);
}

/* ---- context checks ----------------------------------------------------- */

/* Initialised, a live current context without a fatal error: its ordinal. */
static CUresult current_dev(int *dev)
{
	CUcontext c;

	if (!fc_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!(c = fc_current()))
		return CUDA_ERROR_INVALID_CONTEXT;
	*dev = fc_context_device(c);
	if (sticky[*dev])
		return sticky[*dev];
	return CUDA_SUCCESS;
}

/* A stream of the current context (NULL: the default stream). */
static CUresult stream_ok(CUstream s, int dev)
{
	if (!s)
		return CUDA_SUCCESS;
	if (s < streams || s >= streams + MAX_STREAMS || !s->live)
		return CUDA_ERROR_INVALID_HANDLE;
	return s->dev == dev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* The live allocation of `kind` holding [p, p+n) (xlock held). */
static struct alloc *find_range(const void *p, size_t n, int kind)
{
	const char *c = p;

	for (int i = 0; i < MAX_ALLOCS; i++) {
		struct alloc *a = &allocs[i];

		if (a->p && a->kind == kind && c >= a->p && c <= a->p + a->n && n <= (size_t)(a->p + a->n - c))
			return a;
	}
	return NULL;
}

/* memcpy where the ranges are apart, as a copy between two buffers always
 * is: in an ASan process (the fault suite's gpuwise loads these fakes) the
 * runtime's memmove is a byte loop, its memcpy libc's, ~10 times faster
 * over bench's buffers. */
static void copy_bytes(char *dst, const char *src, size_t n)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;

	if (d + n <= s || s + n <= d)
		memcpy(dst, src, n);
	else
		memmove(dst, src, n);
}

/* dst <- src between device allocations (xlock held; both ranges checked). */
static void device_copy(char *dst, const char *src, size_t n)
{
	struct alloc *a = find_range(dst, n, ALLOC_DEVICE), *b = find_range(src, n, ALLOC_DEVICE);

	if (a->last_dst == dst && a->last_src == src && a->last_n == n && a->last_gen == a->gen &&
	    a->last_src_gen == b->gen && a != b)
		return;
	copy_bytes(dst, src, n);
	a->gen++;
	a->last_dst = dst;
	a->last_src = src;
	a->last_n = n;
	a->last_gen = a->gen;
	a->last_src_gen = b->gen;
}

/* A write from the host: the allocation holding dst changed. */
static void device_written(const char *dst, size_t n)
{
	struct alloc *a = find_range(dst, n, ALLOC_DEVICE);

	if (a) {
		a->gen++;
		a->last_dst = NULL;
	}
}

/* ---- memory ------------------------------------------------------------- */

static CUresult add_alloc(void **out, size_t n, int kind, int dev)
{
	const fm_device *d;
	size_t limit = SIZE_MAX;
	int slot = -1;

	if (fc_device_of(dev, &d) == CUDA_SUCCESS && kind == ALLOC_DEVICE && d->num[FN_MEM_TOTAL].set) {
		int64_t total = fm_at(&d->num[FN_MEM_TOTAL], 0);
		int64_t taken = fm_at(&d->num[FN_MEM_RESERVED], 0) + fm_at(&d->num[FN_MEM_USED], 0);

		limit = total > taken ? (size_t)(total - taken) : 0;
	}
	pthread_mutex_lock(&xlock);
	for (int i = 0; i < MAX_ALLOCS && slot < 0; i++)
		if (!allocs[i].p)
			slot = i;
	if (slot < 0 || (kind == ALLOC_DEVICE && (n > limit || allocated[dev] > limit - n))) {
		pthread_mutex_unlock(&xlock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (!(allocs[slot].p = malloc(n))) {
		pthread_mutex_unlock(&xlock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	allocs[slot].n = n;
	allocs[slot].kind = kind;
	allocs[slot].dev = dev;
	if (kind == ALLOC_DEVICE)
		allocated[dev] += n;
	*out = allocs[slot].p;
	pthread_mutex_unlock(&xlock);
	return CUDA_SUCCESS;
}

static CUresult drop_alloc(const void *p, int kind)
{
	pthread_mutex_lock(&xlock);
	for (int i = 0; i < MAX_ALLOCS; i++) {
		if (allocs[i].p == p && allocs[i].kind == kind) {
			if (kind == ALLOC_DEVICE)
				allocated[allocs[i].dev] -= allocs[i].n;
			free(allocs[i].p);
			memset(&allocs[i], 0, sizeof(allocs[i]));
			pthread_mutex_unlock(&xlock);
			return CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&xlock);
	return CUDA_ERROR_INVALID_VALUE;
}

API(cuMemAlloc_v2, (CUdeviceptr *dptr, size_t bytesize))
{
	void *p;
	int dev;
	CUresult rc;

	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	if ((rc = current_dev(&dev)))
		return rc;
	if (bytesize == 0)
		return CUDA_ERROR_INVALID_VALUE;
	if ((rc = add_alloc(&p, bytesize, ALLOC_DEVICE, dev)))
		return rc;
	*dptr = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
}

API(cuMemFree_v2, (CUdeviceptr dptr))
{
	int dev;
	CUresult rc;

	if ((rc = current_dev(&dev)) && rc != CUDA_ERROR_ILLEGAL_ADDRESS)
		return rc;
	if (!dptr)
		return CUDA_SUCCESS;
	return drop_alloc((void *)(uintptr_t)dptr, ALLOC_DEVICE);
}

API(cuMemAllocHost_v2, (void **pp, size_t bytesize))
{
	int dev;
	CUresult rc;

	if (!pp)
		return CUDA_ERROR_INVALID_VALUE;
	if ((rc = current_dev(&dev)))
		return rc;
	if (bytesize == 0)
		return CUDA_ERROR_INVALID_VALUE;
	return add_alloc(pp, bytesize, ALLOC_HOST, dev);
}

API(cuMemFreeHost, (void *p))
{
	int dev;
	CUresult rc;

	if ((rc = current_dev(&dev)) && rc != CUDA_ERROR_ILLEGAL_ADDRESS)
		return rc;
	return drop_alloc(p, ALLOC_HOST);
}

/* ---- copies ------------------------------------------------------------- */

enum dir { H2D, D2H, D2D };

/* Checks, copies, and enqueues the time the copy takes; sync waits. */
static CUresult copy(enum dir dir, void *dst, const void *src, size_t n, CUstream s, int sync)
{
	int dev, pinned = 0;
	double secs, end;
	CUresult rc;

	if ((rc = current_dev(&dev)) || (rc = stream_ok(s, dev)))
		return rc;
	if (!dst || !src)
		return CUDA_ERROR_INVALID_VALUE;
	if (n == 0)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&xlock);
	/* Device sides must lie inside an allocation; host sides are pinned
	 * when inside a cuMemAllocHost buffer, pageable otherwise. */
	if ((dir != H2D && !find_range(src, n, ALLOC_DEVICE)) || (dir != D2H && !find_range(dst, n, ALLOC_DEVICE))) {
		pthread_mutex_unlock(&xlock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (dir == H2D)
		pinned = find_range(src, n, ALLOC_HOST) != NULL;
	else if (dir == D2H)
		pinned = find_range(dst, n, ALLOC_HOST) != NULL;
	if (dir == D2D) {
		device_copy(dst, src, n);
	} else {
		copy_bytes(dst, src, n);
		if (dir == H2D)
			device_written(dst, n);
	}
	pthread_mutex_unlock(&xlock);
	/* Async copies from or to pageable memory return when done. */
	if (!sync && dir != D2D && !pinned)
		sync = 1;
	if (dir == D2D)
		secs = bytes_time(2 * n, bench_figure(dev, FB_MEMORY_CE));
	else if (dir == H2D)
		secs = bytes_time(n, bench_figure(dev, pinned ? FB_H2D : FB_H2D_PAGEABLE));
	else
		secs = bytes_time(n, bench_figure(dev, pinned ? FB_D2H : FB_D2H_PAGEABLE));
	pthread_mutex_lock(&xlock);
	end = enqueue(dev, secs);
	pthread_mutex_unlock(&xlock);
	if (sync)
		sleep_until(end);
	return CUDA_SUCCESS;
}

#define DP(x) ((void *)(uintptr_t)(x))

API(cuMemcpyHtoD_v2, (CUdeviceptr dst, const void *src, size_t n)) { return copy(H2D, DP(dst), src, n, NULL, 1); }
API(cuMemcpyDtoH_v2, (void *dst, CUdeviceptr src, size_t n)) { return copy(D2H, dst, DP(src), n, NULL, 1); }
API(cuMemcpyDtoD_v2, (CUdeviceptr dst, CUdeviceptr src, size_t n)) { return copy(D2D, DP(dst), DP(src), n, NULL, 0); }
API(cuMemcpyHtoDAsync_v2, (CUdeviceptr dst, const void *src, size_t n, CUstream s))
{
	return copy(H2D, DP(dst), src, n, s, 0);
}
API(cuMemcpyDtoHAsync_v2, (void *dst, CUdeviceptr src, size_t n, CUstream s))
{
	return copy(D2H, dst, DP(src), n, s, 0);
}
API(cuMemcpyDtoDAsync_v2, (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s))
{
	return copy(D2D, DP(dst), DP(src), n, s, 0);
}

/* Between two devices' contexts; the time goes on the stream's context. */
API(cuMemcpyPeerAsync, (CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t n,
			CUstream s))
{
	int dev, ddev = fc_context_device(dst_ctx), sdev = fc_context_device(src_ctx);
	struct alloc *a, *b;
	double gbs;
	CUresult rc;

	if ((rc = current_dev(&dev)) || (rc = stream_ok(s, dev)))
		return rc;
	if (ddev < 0 || sdev < 0)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (n == 0)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&xlock);
	a = find_range(DP(dst), n, ALLOC_DEVICE);
	b = find_range(DP(src), n, ALLOC_DEVICE);
	if (!a || !b || a->dev != ddev || b->dev != sdev) {
		pthread_mutex_unlock(&xlock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	device_copy(DP(dst), DP(src), n);
	gbs = bench_figure(sdev, FB_P2P);
	if (bench_figure(ddev, FB_P2P) < gbs)
		gbs = bench_figure(ddev, FB_P2P);
	enqueue(dev, bytes_time(n, gbs));
	pthread_mutex_unlock(&xlock);
	return CUDA_SUCCESS;
}

API(cuDeviceCanAccessPeer, (int *can, CUdevice dev, CUdevice peer))
{
	const fm_device *a, *b;
	CUresult rc;

	if (!can)
		return CUDA_ERROR_INVALID_VALUE;
	if ((rc = fc_device_of(dev, &a)) || (rc = fc_device_of(peer, &b)))
		return rc;
	*can = dev != peer && a->bench[FB_P2P].set && b->bench[FB_P2P].set;
	return CUDA_SUCCESS;
}

/* ---- streams and events --------------------------------------------------- */

API(cuStreamCreate, (CUstream *out, unsigned flags))
{
	int dev;
	CUresult rc;

	if (!out || flags > 1)
		return CUDA_ERROR_INVALID_VALUE;
	if ((rc = current_dev(&dev)))
		return rc;
	pthread_mutex_lock(&xlock);
	for (int i = 0; i < MAX_STREAMS; i++) {
		if (!streams[i].live) {
			streams[i].live = 1;
			streams[i].dev = dev;
			*out = &streams[i];
			pthread_mutex_unlock(&xlock);
			return CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&xlock);
	return CUDA_ERROR_OUT_OF_MEMORY;
}

API(cuStreamDestroy_v2, (CUstream s))
{
	int dev;
	CUresult rc;

	if ((rc = current_dev(&dev)) && rc != CUDA_ERROR_ILLEGAL_ADDRESS)
		return rc;
	if (!s || stream_ok(s, dev))
		return CUDA_ERROR_INVALID_HANDLE;
	s->live = 0;
	return CUDA_SUCCESS;
}

API(cuStreamSynchronize, (CUstream s))
{
	int dev;
	CUresult rc;

	if ((rc = current_dev(&dev)) || (rc = stream_ok(s, dev)))
		return rc;
	synchronize_dev(dev);
	return sticky[dev];
}

API(cuCtxSynchronize, (void))
{
	int dev;
	CUresult rc;

	if ((rc = current_dev(&dev)))
		return rc;
	synchronize_dev(dev);
	return sticky[dev];
}

static int event_live(CUevent e)
{
	return e && e >= events && e < events + MAX_EVENTS && e->live;
}

API(cuEventCreate, (CUevent *out, unsigned flags))
{
	int dev;
	CUresult rc;

	if (!out || (flags & ~0xfu))
		return CUDA_ERROR_INVALID_VALUE;
	if ((rc = current_dev(&dev)))
		return rc;
	pthread_mutex_lock(&xlock);
	for (int i = 0; i < MAX_EVENTS; i++) {
		if (!events[i].live) {
			memset(&events[i], 0, sizeof(events[i]));
			events[i].live = 1;
			events[i].dev = dev;
			events[i].flags = flags;
			*out = &events[i];
			pthread_mutex_unlock(&xlock);
			return CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&xlock);
	return CUDA_ERROR_OUT_OF_MEMORY;
}

API(cuEventRecord, (CUevent e, CUstream s))
{
	int dev;
	CUresult rc;

	if ((rc = current_dev(&dev)) || (rc = stream_ok(s, dev)))
		return rc;
	if (!event_live(e) || e->dev != dev)
		return CUDA_ERROR_INVALID_HANDLE;
	pthread_mutex_lock(&xlock);
	e->t = enqueue(dev, 0);
	e->recorded = 1;
	pthread_mutex_unlock(&xlock);
	return CUDA_SUCCESS;
}

API(cuEventSynchronize, (CUevent e))
{
	if (!fc_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!event_live(e))
		return CUDA_ERROR_INVALID_HANDLE;
	if (e->recorded)
		sleep_until(e->t);
	return sticky[e->dev];
}

static CUresult elapsed(float *ms, CUevent a, CUevent b)
{
	if (!ms)
		return CUDA_ERROR_INVALID_VALUE;
	if (!fc_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!event_live(a) || !event_live(b) || a->dev != b->dev)
		return CUDA_ERROR_INVALID_HANDLE;
	if ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!a->recorded || !b->recorded)
		return CUDA_ERROR_INVALID_HANDLE;
	if (now_s() < a->t || now_s() < b->t)
		return CUDA_ERROR_NOT_READY;
	*ms = (float)((b->t - a->t) * 1e3);
	return CUDA_SUCCESS;
}

API(cuEventElapsedTime, (float *ms, CUevent a, CUevent b)) { return elapsed(ms, a, b); }
API(cuEventElapsedTime_v2, (float *ms, CUevent a, CUevent b)) { return elapsed(ms, a, b); }

API(cuEventDestroy_v2, (CUevent e))
{
	if (!fc_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!event_live(e))
		return CUDA_ERROR_INVALID_HANDLE;
	e->live = 0;
	return CUDA_SUCCESS;
}

/* ---- modules: a PTX reader strict enough to catch a broken kernel text ---- */

static const char *skip_space(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			p = e ? e + 2 : p + strlen(p);
		} else {
			return p;
		}
	}
}

/* The highest PTX ISA a driver of CUDA version v knows (11.x: 7.x, 12.x: 8.x). */
static int max_ptx_isa(int v)
{
	int major = v / 1000, minor = v % 1000 / 10;

	if (major >= 13)
		return 90 + minor;
	if (major == 12)
		return 80 + (minor > 9 ? 9 : minor);
	if (major == 11)
		return 70 + (minor > 8 ? 8 : minor);
	return 63;
}

static int ptx_fail(char *log, size_t logsz, int rc, const char *what)
{
	if (log && logsz)
		snprintf(log, logsz, "ptxas application ptx input: error: %s", what);
	return rc;
}

static int parse_entries(const char *text, struct CUmod_st *m, char *log, size_t logsz)
{
	const char *p = text;

	while ((p = strstr(p, ".entry"))) {
		struct CUfunc_st *f;
		size_t n;
		const char *close;

		p = skip_space(p + 6);
		n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$");
		if (n == 0 || n >= sizeof(f->name) || m->nentries >= MAX_ENTRIES)
			return ptx_fail(log, logsz, CUDA_ERROR_INVALID_PTX, "bad .entry name");
		f = &m->entries[m->nentries++];
		memcpy(f->name, p, n);
		f->name[n] = '\0';
		f->mod = m;
		p = skip_space(p + n);
		if (*p == '(') {
			if (!(close = strchr(p, ')')))
				return ptx_fail(log, logsz, CUDA_ERROR_INVALID_PTX, "unclosed parameter list");
			for (const char *q = p; (q = strstr(q, ".param")) && q < close; q += 6)
				f->nparams++;
			p = skip_space(close + 1);
		}
		while (*p == '.') /* performance directives (.maxntid ...) */
			p = skip_space(p + strcspn(p, "{\n"));
		if (*p != '{')
			return ptx_fail(log, logsz, CUDA_ERROR_INVALID_PTX, "an .entry without a body");
	}
	return m->nentries ? CUDA_SUCCESS : ptx_fail(log, logsz, CUDA_ERROR_INVALID_PTX, "no .entry");
}

static int check_ptx(const char *text, int dev, struct CUmod_st *m, char *log, size_t logsz)
{
	const fm_device *d;
	const fm_machine *mach = fm_machine_get("fake cuda");
	const char *p = skip_space(text);
	int vmaj, vmin, sm, depth = 0, paren = 0;
	char sfx;

	if ((unsigned char)text[0] == 0x7f || (unsigned char)text[0] == 0x50)
		return ptx_fail(log, logsz, CUDA_ERROR_INVALID_IMAGE, "not PTX text (this fake loads PTX only)");
	if (sscanf(p, ".version %d.%d", &vmaj, &vmin) != 2)
		return ptx_fail(log, logsz, CUDA_ERROR_INVALID_PTX, "the PTX must begin with .version");
	if (mach && mach->cuda_version.set && vmaj * 10 + vmin > max_ptx_isa((int)fm_at(&mach->cuda_version, 0)))
		return ptx_fail(log, logsz, CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "PTX .version newer than this driver");
	p = skip_space(p + strcspn(p, "\n"));
	if (sscanf(p, ".target sm_%d%c", &sm, &sfx) < 1)
		return ptx_fail(log, logsz, CUDA_ERROR_INVALID_PTX, ".target sm_XY expected after .version");
	if (fc_device_of(dev, &d) == CUDA_SUCCESS &&
	    sm > (int)(fm_at(fm_field(d, FN_CC_MAJOR), 0) * 10 + fm_at(fm_field(d, FN_CC_MINOR), 0)))
		return ptx_fail(log, logsz, CUDA_ERROR_INVALID_PTX, "SM version of .target is higher than the device's");
	if (!strstr(p, ".address_size 64"))
		return ptx_fail(log, logsz, CUDA_ERROR_INVALID_PTX, ".address_size 64 missing");
	for (const char *q = p; *q; q++) {
		depth += (*q == '{') - (*q == '}');
		paren += (*q == '(') - (*q == ')');
		if (depth < 0 || paren < 0)
			break;
	}
	if (depth || paren)
		return ptx_fail(log, logsz, CUDA_ERROR_INVALID_PTX, "unbalanced braces or parentheses");
	return parse_entries(p, m, log, logsz);
}

static CUresult load_module(CUmodule *out, const void *image, unsigned nopt, CUjit_option *opts, void **vals)
{
	char *log = NULL;
	size_t logsz = 0;
	struct CUmod_st *m = NULL;
	int dev;
	CUresult rc;

	if (!out || !image || (nopt && (!opts || !vals)))
		return CUDA_ERROR_INVALID_VALUE;
	for (unsigned i = 0; i < nopt; i++) {
		if (opts[i] < 0 || opts[i] >= CU_JIT_NUM_OPTIONS)
			return CUDA_ERROR_INVALID_VALUE;
		if (opts[i] == CU_JIT_ERROR_LOG_BUFFER)
			log = vals[i];
		if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
			logsz = (size_t)(uintptr_t)vals[i];
	}
	if ((rc = current_dev(&dev)))
		return rc;
	pthread_mutex_lock(&xlock);
	for (int i = 0; i < MAX_MODULES && !m; i++)
		if (!modules[i].live)
			m = &modules[i];
	if (!m) {
		pthread_mutex_unlock(&xlock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memset(m, 0, sizeof(*m));
	if ((rc = check_ptx(image, dev, m, log, logsz))) {
		pthread_mutex_unlock(&xlock);
		return rc;
	}
	m->live = 1;
	m->dev = dev;
	*out = m;
	pthread_mutex_unlock(&xlock);
	return CUDA_SUCCESS;
}

API(cuModuleLoadDataEx, (CUmodule *out, const void *image, unsigned nopt, CUjit_option *opts, void **vals))
{
	return load_module(out, image, nopt, opts, vals);
}

API(cuModuleLoadData, (CUmodule *out, const void *image)) { return load_module(out, image, 0, NULL, NULL); }

static int module_live(CUmodule m)
{
	return m && m >= modules && m < modules + MAX_MODULES && m->live;
}

API(cuModuleUnload, (CUmodule m))
{
	if (!fc_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!module_live(m))
		return CUDA_ERROR_INVALID_HANDLE;
	m->live = 0;
	return CUDA_SUCCESS;
}

API(cuModuleGetFunction, (CUfunction *out, CUmodule m, const char *name))
{
	if (!out || !name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!fc_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!module_live(m))
		return CUDA_ERROR_INVALID_HANDLE;
	for (int i = 0; i < m->nentries; i++) {
		if (strcmp(m->entries[i].name, name) == 0) {
			*out = &m->entries[i];
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_NOT_FOUND;
}

static struct CUmod_st *function_module(CUfunction f)
{
	for (int i = 0; i < MAX_MODULES; i++)
		if (modules[i].live && f >= modules[i].entries && f < modules[i].entries + modules[i].nentries)
			return &modules[i];
	return NULL;
}

/* gw_copy(dst, src, words): 16-byte words, every address inside an allocation. */
static double run_copy(int dev, void **params)
{
	CUdeviceptr dst, src;
	unsigned long long words;
	size_t n;

	memcpy(&dst, params[0], sizeof(dst));
	memcpy(&src, params[1], sizeof(src));
	memcpy(&words, params[2], sizeof(words));
	n = (size_t)words * 16;
	if (words > SIZE_MAX / 16 || !find_range(DP(dst), n, ALLOC_DEVICE) || !find_range(DP(src), n, ALLOC_DEVICE)) {
		sticky[dev] = CUDA_ERROR_ILLEGAL_ADDRESS;
		return 0;
	}
	device_copy(DP(dst), DP(src), n);
	return bytes_time(2 * n, bench_figure(dev, FB_MEMORY));
}

API(cuLaunchKernel, (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		     unsigned shmem, CUstream s, void **params, void **extra))
{
	struct CUmod_st *m;
	double secs, launch;
	int dev;
	CUresult rc;

	if ((rc = current_dev(&dev)) || (rc = stream_ok(s, dev)))
		return rc;
	pthread_mutex_lock(&xlock);
	m = f ? function_module(f) : NULL;
	pthread_mutex_unlock(&xlock);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	if (m->dev != dev)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!gx || !gy || !gz || !bx || !by || !bz || gy > 65535 || gz > 65535 || gx > 0x7fffffffu)
		return CUDA_ERROR_INVALID_VALUE;
	if ((unsigned long long)bx * by * bz > 1024 || bz > 64)
		return CUDA_ERROR_INVALID_VALUE;
	if (shmem > 48 * 1024)
		return CUDA_ERROR_INVALID_VALUE;
	if (f->nparams && !params && !extra)
		return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; params && i < f->nparams; i++)
		if (!params[i])
			return CUDA_ERROR_INVALID_VALUE;
	launch = bench_figure(dev, FB_LAUNCH_US) / 1e6;
	pthread_mutex_lock(&xlock);
	secs = strcmp(f->name, "gw_copy") == 0 && f->nparams == 3 && params ? run_copy(dev, params) : 0;
	enqueue(dev, secs > launch ? secs : launch);
	pthread_mutex_unlock(&xlock);
	return CUDA_SUCCESS;
}

/* ---- cuGetProcAddress ------------------------------------------------------ */

typedef void (*fc_fn)(void);

/* Base name, the CUDA version from which `fn` is what it binds to. Listed
 * newest first per name. */
static const struct proc {
	const char *name;
	int since;
	fc_fn fn;
} procs[] = {
#define P(n, v, f) { n, v, (fc_fn)(f) }
	P("cuInit", 2000, cuInit), P("cuDriverGetVersion", 2020, cuDriverGetVersion),
	P("cuDeviceGet", 2000, cuDeviceGet), P("cuDeviceGetCount", 2000, cuDeviceGetCount),
	P("cuDeviceGetName", 2000, cuDeviceGetName), P("cuDeviceGetAttribute", 2000, cuDeviceGetAttribute),
	P("cuDeviceTotalMem", 3020, cuDeviceTotalMem_v2), P("cuDeviceGetUuid", 11040, cuDeviceGetUuid_v2),
	P("cuDeviceGetUuid", 9020, cuDeviceGetUuid), P("cuDeviceGetPCIBusId", 4010, cuDeviceGetPCIBusId),
	P("cuDeviceCanAccessPeer", 4000, cuDeviceCanAccessPeer),
	P("cuDevicePrimaryCtxRetain", 7000, cuDevicePrimaryCtxRetain),
	P("cuDevicePrimaryCtxRelease", 11000, cuDevicePrimaryCtxRelease_v2),
	P("cuDevicePrimaryCtxRelease", 7000, cuDevicePrimaryCtxRelease),
	P("cuCtxSetCurrent", 4000, cuCtxSetCurrent), P("cuCtxGetCurrent", 4000, cuCtxGetCurrent),
	P("cuCtxGetDevice", 2000, cuCtxGetDevice), P("cuCtxSynchronize", 2000, cuCtxSynchronize),
	P("cuMemGetInfo", 3020, cuMemGetInfo_v2),
	P("cuMemAlloc", 3020, cuMemAlloc_v2), P("cuMemFree", 3020, cuMemFree_v2),
	P("cuMemAllocHost", 3020, cuMemAllocHost_v2), P("cuMemFreeHost", 2000, cuMemFreeHost),
	P("cuMemcpyHtoD", 3020, cuMemcpyHtoD_v2), P("cuMemcpyDtoH", 3020, cuMemcpyDtoH_v2),
	P("cuMemcpyDtoD", 3020, cuMemcpyDtoD_v2), P("cuMemcpyHtoDAsync", 3020, cuMemcpyHtoDAsync_v2),
	P("cuMemcpyDtoHAsync", 3020, cuMemcpyDtoHAsync_v2), P("cuMemcpyDtoDAsync", 3020, cuMemcpyDtoDAsync_v2),
	P("cuMemcpyPeerAsync", 4000, cuMemcpyPeerAsync),
	P("cuStreamCreate", 2000, cuStreamCreate), P("cuStreamDestroy", 4000, cuStreamDestroy_v2),
	P("cuStreamSynchronize", 2000, cuStreamSynchronize),
	P("cuEventCreate", 2000, cuEventCreate), P("cuEventRecord", 2000, cuEventRecord),
	P("cuEventSynchronize", 2000, cuEventSynchronize),
	P("cuEventElapsedTime", 12080, cuEventElapsedTime_v2), P("cuEventElapsedTime", 2000, cuEventElapsedTime),
	P("cuEventDestroy", 4000, cuEventDestroy_v2),
	P("cuModuleLoadData", 2000, cuModuleLoadData), P("cuModuleLoadDataEx", 2010, cuModuleLoadDataEx),
	P("cuModuleUnload", 2000, cuModuleUnload), P("cuModuleGetFunction", 2000, cuModuleGetFunction),
	P("cuLaunchKernel", 4000, cuLaunchKernel),
	P("cuGetErrorName", 6000, cuGetErrorName), P("cuGetErrorString", 6000, cuGetErrorString),
#undef P
};

static CUresult proc_address(const char *symbol, void **pfn, int version, cuuint64_t flags,
			     CUdriverProcAddressQueryResult *status)
{
	const fm_machine *m = fm_machine_get("fake cuda");
	int driver = m && m->cuda_version.set ? (int)fm_at(&m->cuda_version, 0) : 12000;
	int known = 0;

	if (!symbol || !pfn || flags > 2)
		return CUDA_ERROR_INVALID_VALUE;
	*pfn = NULL;
	if (version <= 0 || version > driver)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
		if (strcmp(procs[i].name, symbol))
			continue;
		known = 1;
		if (procs[i].since <= version) {
			memcpy(pfn, &procs[i].fn, sizeof(*pfn));
			if (status)
				*status = CU_GET_PROC_ADDRESS_SUCCESS;
			return CUDA_SUCCESS;
		}
	}
	if (status)
		*status = known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	return CUDA_ERROR_NOT_FOUND;
}

API(cuGetProcAddress, (const char *symbol, void **pfn, int version, cuuint64_t flags))
{
	return proc_address(symbol, pfn, version, flags, NULL);
}

API(cuGetProcAddress_v2, (const char *symbol, void **pfn, int version, cuuint64_t flags,
			  CUdriverProcAddressQueryResult *status))
{
	return proc_address(symbol, pfn, version, flags, status);
}

/* ---- for the fake cuBLASLt (not CUDA's API) ---------------------------------- */

/* [p, p+n) lies in device memory of the calling thread's current context:
 * 0, or the CUresult the driver would give. */
__attribute__((visibility("default"))) int gwfake_cuda_device_range(const void *p, size_t n);
int gwfake_cuda_device_range(const void *p, size_t n)
{
	struct alloc *a;
	int dev;
	CUresult rc;

	if ((rc = current_dev(&dev)))
		return rc;
	pthread_mutex_lock(&xlock);
	a = find_range(p, n, ALLOC_DEVICE);
	rc = a && a->dev == dev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&xlock);
	return rc;
}

/* Enqueue `flops` operations at the machine's tflops.<precision> (FB_FP32
 * .. FB_FP8) on stream s of the current context; device memory the GEMM
 * wrote changed. 0, or a CUresult; NOT_SUPPORTED when the machine gives no
 * figure for that precision. */
__attribute__((visibility("default"))) int gwfake_cuda_enqueue_flops(CUstream s, int precision, double flops,
								  void *written, size_t n);
int gwfake_cuda_enqueue_flops(CUstream s, int precision, double flops, void *written, size_t n)
{
	double tflops;
	int dev;
	CUresult rc;

	if ((rc = current_dev(&dev)) || (rc = stream_ok(s, dev)))
		return rc;
	if (precision < FB_FP32 || precision > FB_FP8 || !((tflops = bench_figure(dev, (enum fm_bench_id)precision)) > 0))
		return CUDA_ERROR_NOT_SUPPORTED;
	pthread_mutex_lock(&xlock);
	if (written)
		device_written(written, n);
	enqueue(dev, flops / (tflops * 1e12));
	pthread_mutex_unlock(&xlock);
	return CUDA_SUCCESS;
}
