/* cuBLASLt as bench uses it, loaded with dlopen: its C ABI declared here
 * (cublasLt.h is never included; tests/abi/test_abi.c checks the values
 * and the heuristic result's layout against it when the toolkit is there). */
#ifndef GPUWISE_BENCH_CUBLASLT_H
#define GPUWISE_BENCH_CUBLASLT_H

#include <stddef.h>
#include <stdint.h>

enum {
	GWB_STATUS_SUCCESS = 0,
	GWB_STATUS_NOT_SUPPORTED = 15,
	GWB_R_32F = 0,            /* cudaDataType */
	GWB_R_16F = 2,
	GWB_R_16BF = 14,
	GWB_R_8F_E4M3 = 28,
	GWB_COMPUTE_32F = 68,     /* cublasComputeType_t */
	GWB_COMPUTE_32F_FAST_TF32 = 77,
	GWB_DESC_TRANSA = 3,      /* cublasLtMatmulDescAttributes_t */
	GWB_DESC_TRANSB = 4,
	GWB_PREF_MAX_WORKSPACE_BYTES = 1, /* cublasLtMatmulPreferenceAttributes_t */
	GWB_OP_N = 0,
	GWB_OP_T = 1
};

/* cublasLtMatmulAlgo_t and cublasLtMatmulHeuristicResult_t. */
typedef struct gwb_algo {
	uint64_t data[8];
} gwb_algo;

typedef struct gwb_heuristic {
	gwb_algo algo;
	size_t workspace_size;
	int state;
	float waves_count;
	int reserved[4];
} gwb_heuristic;

typedef struct gw__blaslt {
	void *lib;
	char name[256];
	int (*create)(void **handle);
	int (*destroy)(void *handle);
	int (*desc_create)(void **desc, int compute, int scale_type);
	int (*desc_destroy)(void *desc);
	int (*desc_set)(void *desc, int attr, const void *buf, size_t n);
	int (*layout_create)(void **layout, int type, uint64_t rows, uint64_t cols, int64_t ld);
	int (*layout_destroy)(void *layout);
	int (*pref_create)(void **pref);
	int (*pref_destroy)(void *pref);
	int (*pref_set)(void *pref, int attr, const void *buf, size_t n);
	int (*heuristic)(void *handle, void *desc, void *a, void *b, void *c, void *d, void *pref, int want,
			 gwb_heuristic *out, int *count);
	int (*matmul)(void *handle, void *desc, const void *alpha, const void *A, void *a, const void *B, void *b,
		      const void *beta, const void *C, void *c, void *D, void *d, const gwb_algo *algo, void *workspace,
		      size_t workspace_size, void *stream);
	const char *(*status_name)(int status);
} gw__blaslt;

/* Load cuBLASLt: $GPUWISE_CUBLASLT_LIBRARY when set (only that), else
 * libcublasLt.so.13, .so.12, .so.11 by the loader's search, the toolkit's
 * /usr/local/cuda/lib64 and lib, and the pip wheels (nvidia-cublas-cu12,
 * nvidia-cublas / cu13) of $VIRTUAL_ENV and $CONDA_PREFIX. 0, or
 * GW_ELIBRARY with the message saying what was tried. */
int gw__blaslt_open(gw__blaslt *out);
void gw__blaslt_close(gw__blaslt *lt);
/* "CUBLAS_STATUS_NOT_SUPPORTED" (or "cuBLAS status 15"). */
const char *gw__blaslt_status(const gw__blaslt *lt, int status, char *buf, size_t n);

#endif
