/* gpuwise — performance check: does this GPU deliver what its datasheet
 * promises? (docs/contracts.md "Performance check: bench")
 *
 * Runs on one GPU through the CUDA driver API (libcuda.so.1, every entry
 * point resolved with cuGetProcAddress), in the GPU's primary context, with
 * gpuwise's own PTX kernels JIT-compiled by the driver (no toolkit needed).
 * Each result is set beside the spec-table peak (data/gpu_specs.tsv) and
 * what NVML saw while the test ran, and carries the likely causes when it
 * falls short.
 *
 *   gw_bench_options o = GW_BENCH_OPTIONS_INIT;
 *   gw_bench_report r;
 *   if (gw_bench_run(ctx, 0, &o, &r) == 0)
 *       for (size_t i = 0; i < r.nresults; i++) ... r.results[i] ...
 */
#ifndef GPUWISE_BENCH_H
#define GPUWISE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuwise/context.h"
#include "gpuwise/device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The tests, in the order they run. Names: gw_bench_test_name(). */
typedef enum gw_bench_test {
	GW_BENCH_D2D_COPY,       /* "d2d-copy": device memory, gpuwise's copy kernel, GB/s read + written */
	GW_BENCH_D2D_COPY_CE,    /* "d2d-copy-ce": the same through the copy engine (cuMemcpyDtoDAsync) */
	GW_BENCH_H2D_PINNED,     /* "h2d-pinned": host → device from cuMemAllocHost memory, GB/s */
	GW_BENCH_D2H_PINNED,     /* "d2h-pinned" */
	GW_BENCH_H2D_PAGEABLE,   /* "h2d-pageable": from ordinary malloc'd memory */
	GW_BENCH_GEMM_FP32,      /* "gemm-fp32" ... through cuBLASLt, TFLOPS */
	GW_BENCH_GEMM_TF32,
	GW_BENCH_GEMM_FP16,
	GW_BENCH_GEMM_BF16,
	GW_BENCH_GEMM_FP8,       /* only where the GPU has FP8 tensor cores (CC 8.9+) */
	GW_BENCH_LAUNCH_LATENCY, /* "launch-latency": back-to-back empty kernels, µs each */
	GW_BENCH_P2P,            /* "p2p": to the next CUDA device, GB/s; needs two GPUs */
	GW_BENCH_TEST_COUNT
} gw_bench_test;

/* "d2d-copy", ...; NULL out of range. */
const char *gw_bench_test_name(gw_bench_test test);
/* The test a name stands for: 0, or GW_ENOTFOUND (message names it). */
int gw_bench_test_find(const char *name, gw_bench_test *out);
/* "GB/s", "TFLOPS" or "us" (microseconds). */
const char *gw_bench_test_unit(gw_bench_test test);

typedef enum gw_bench_status {
	GW_BENCH_OK = 0,      /* measured; at or above GW_BENCH_LOW_PERCENT of spec, or no spec */
	GW_BENCH_LOW = 1,     /* measured, below GW_BENCH_LOW_PERCENT of spec: see causes */
	GW_BENCH_SKIPPED = 2, /* not applicable here (message says why) */
	GW_BENCH_FAILED = 3   /* an error (message says which call and code) */
} gw_bench_status;

#define GW_BENCH_LOW_PERCENT 70.0

/* Likely causes of a LOW result, from what NVML saw during the test. */
enum {
	GW_BENCH_CAUSE_PCIE_DOWNTRAINED = 0x1, /* link under load below what GPU and slot allow */
	GW_BENCH_CAUSE_PCIE_SLOT = 0x2,        /* the slot or riser allows less than the GPU */
	GW_BENCH_CAUSE_POWER_CAP = 0x4,        /* software power cap or power brake */
	GW_BENCH_CAUSE_THERMAL = 0x8,          /* thermal slowdown */
	GW_BENCH_CAUSE_CLOCKS = 0x10           /* application clocks / clocks held below boost */
};

/* What NVML saw while a test ran (samples taken with the work in flight). */
typedef struct gw_bench_during {
	int samples;
	gw_u64 sm_mhz_min, sm_mhz_max; /* MHz */
	gw_u64 max_sm_mhz;             /* the boost clock */
	gw_f64 power_w_max, power_limit_w;
	gw_f64 temperature_c_max;
	gw_u64 throttle_reasons;       /* GW_THROTTLE_* of every sample, GPU idle left out */
	gw_u64 pcie_gen, pcie_width;   /* lowest seen */
	gw_u64 pcie_max_gen, pcie_max_width; /* what GPU and slot together allow */
} gw_bench_during;

typedef struct gw_bench_result {
	gw_bench_test test;
	gw_bench_status status;
	char message[256];       /* SKIPPED / FAILED: why; otherwise how it was measured */
	gw_f64 value;            /* in gw_bench_test_unit(test) */
	gw_f64 spec;             /* the datasheet peak, same unit; NOT_SUPPORTED when none */
	gw_f64 percent_of_spec;  /* 100 * value / spec */
	uint64_t bytes;          /* bytes per transfer (copies), 0 otherwise */
	unsigned causes;         /* GW_BENCH_CAUSE_* (LOW results) */
	gw_bench_during during;
} gw_bench_result;

typedef void (*gw_bench_progress_fn)(void *arg, gw_bench_test test, int step, int steps);

typedef struct gw_bench_options {
	unsigned version;        /* GW_BENCH_OPTIONS_VERSION */
	unsigned tests;          /* 1u << gw_bench_test per test; 0 = every test */
	bool quick;              /* smaller buffers, fewer trials */
	gw_bench_progress_fn progress; /* called as each test starts (may be NULL) */
	void *progress_arg;
} gw_bench_options;

#define GW_BENCH_OPTIONS_VERSION 1
#define GW_BENCH_OPTIONS_INIT { GW_BENCH_OPTIONS_VERSION, 0, false, NULL, NULL }

typedef struct gw_bench_report {
	int device;              /* gpuwise index */
	int cuda_index;          /* CUDA ordinal used */
	int cuda_driver_version; /* 12040 form */
	char spec_name[64];      /* spec-table row the figures come from, "" when none */
	const char *spec_source; /* its datasheet, NULL when none */
	gw_u64 spec_pcie_gen, spec_pcie_width; /* the GPU's own link (table, else NVML) */
	/* The CPUs the host buffers were allocated and copied from: the GPU's
	 * local CPUs (sysfs local_cpulist) that this process may use, as a
	 * cpulist ("0-47,96-143"); "" when not bound, and host_cpus_note says
	 * why (no such file, none of them allowed). The caller's thread is
	 * put back as it was before gw_bench_run returns. */
	char host_cpus[64];
	char host_cpus_note[96];
	size_t nresults;
	gw_bench_result results[GW_BENCH_TEST_COUNT];
} gw_bench_report;

/* Run the chosen tests on gpuwise device `device`. 0 with *out filled
 * (individual tests may be SKIPPED or FAILED), or a negative code when
 * nothing could run: GW_ELIBRARY (no libcuda, or one without
 * cuGetProcAddress), GW_ENOTSUP (not a CUDA device), GW_EVENDOR (the driver
 * failed to start), GW_ENOTFOUND (no such device), GW_EINVAL. */
int gw_bench_run(gw_context *ctx, int device, const gw_bench_options *opts, gw_bench_report *out);

#ifdef __cplusplus
}
#endif

#endif
