/* The CUDA driver API as bench uses it: one struct of function pointers,
 * every entry resolved through cuGetProcAddress (the backend style of
 * lib/backend, but a table of its own: the cuda backend never creates a
 * context, bench does). */
#ifndef GPUWISE_BENCH_CUDRV_H
#define GPUWISE_BENCH_CUDRV_H

#include "backend/cuda_abi.h"

typedef struct gw__cudrv {
	void *lib;
	int version;             /* cuDriverGetVersion */
	int proc_version;        /* the CUDA version entry points were asked for */
	gwc_result (*init)(unsigned flags);
	gwc_result (*driver_get_version)(int *v);
	gwc_result (*device_get)(gwc_device *out, int ordinal);
	gwc_result (*device_get_count)(int *n);
	gwc_result (*device_get_attribute)(int *out, int attr, gwc_device dev);
	gwc_result (*primary_ctx_retain)(gwc_context *out, gwc_device dev);
	gwc_result (*primary_ctx_release)(gwc_device dev);
	gwc_result (*ctx_set_current)(gwc_context ctx);
	gwc_result (*ctx_synchronize)(void);
	gwc_result (*mem_get_info)(size_t *free_b, size_t *total_b);
	gwc_result (*mem_alloc)(gwc_deviceptr *out, size_t n);
	gwc_result (*mem_free)(gwc_deviceptr p);
	gwc_result (*mem_alloc_host)(void **out, size_t n);
	gwc_result (*mem_free_host)(void *p);
	gwc_result (*memcpy_htod)(gwc_deviceptr dst, const void *src, size_t n);
	gwc_result (*memcpy_dtoh)(void *dst, gwc_deviceptr src, size_t n);
	gwc_result (*memcpy_htod_async)(gwc_deviceptr dst, const void *src, size_t n, gwc_stream s);
	gwc_result (*memcpy_dtoh_async)(void *dst, gwc_deviceptr src, size_t n, gwc_stream s);
	gwc_result (*memcpy_dtod_async)(gwc_deviceptr dst, gwc_deviceptr src, size_t n, gwc_stream s);
	gwc_result (*memcpy_peer_async)(gwc_deviceptr dst, gwc_context dctx, gwc_deviceptr src, gwc_context sctx,
					size_t n, gwc_stream s);
	gwc_result (*stream_create)(gwc_stream *out, unsigned flags);
	gwc_result (*stream_destroy)(gwc_stream s);
	gwc_result (*stream_synchronize)(gwc_stream s);
	gwc_result (*event_create)(gwc_event *out, unsigned flags);
	gwc_result (*event_record)(gwc_event e, gwc_stream s);
	gwc_result (*event_synchronize)(gwc_event e);
	gwc_result (*event_elapsed_time)(float *ms, gwc_event a, gwc_event b);
	gwc_result (*event_destroy)(gwc_event e);
	gwc_result (*module_load_data_ex)(gwc_module *out, const void *image, unsigned n, int *opts, void **vals);
	gwc_result (*module_unload)(gwc_module m);
	gwc_result (*module_get_function)(gwc_function *out, gwc_module m, const char *name);
	gwc_result (*launch_kernel)(gwc_function f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
				    unsigned bz, unsigned shmem, gwc_stream s, void **params, void **extra);
	gwc_result (*get_error_name)(gwc_result r, const char **out);
} gw__cudrv;

/* The CUDA version our declarations follow (cuda.h 12.0): entry points are
 * requested for min(this, the driver's), so a newer driver never hands out
 * a variant with another signature (cuCtxCreate_v4, cuEventElapsedTime_v2). */
#define GW__CUDRV_ABI_VERSION 12000

/* Load libname and resolve every entry point. 0, or GW_ELIBRARY (no such
 * library, no cuGetProcAddress, a required entry missing: message says
 * which). Call gw__cudrv_close() after 0 only. */
int gw__cudrv_open(gw__cudrv *out, const char *libname);
void gw__cudrv_close(gw__cudrv *d);
/* "CUDA_ERROR_OUT_OF_MEMORY" (or "CUDA error 2") into buf. */
const char *gw__cudrv_code(const gw__cudrv *d, gwc_result r, char *buf, size_t n);

/* ---- gpuwise's PTX kernels (lib/bench/ptx.c) ---------------------------- */

/* The module text: gw_empty() and gw_copy(u64 dst, u64 src, u64 words16). */
extern const char gw__bench_ptx[];
/* Its entry names, NULL-terminated. */
extern const char *const gw__bench_ptx_entries[];

#endif
