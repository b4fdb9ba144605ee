/* gpuwise's own declarations of the few CUDA driver API (libcuda.so.1)
 * calls it makes. cuda.h is never included; tests/abi/test_abi.c checks
 * these values against it when the CUDA toolkit is installed.
 * The backend (cuda.c) never creates a CUDA context: only device queries.
 * `gpuwise bench` (lib/bench) also uses memory, copies, streams, events,
 * modules and launches through cuGetProcAddress; their types are below.
 */
#ifndef GPUWISE_CUDA_ABI_H
#define GPUWISE_CUDA_ABI_H

#include <stddef.h>

typedef int gwc_result;   /* CUresult, a C enum */
typedef int gwc_device;   /* CUdevice */

enum {
	GWC_SUCCESS = 0,
	GWC_ERROR_INVALID_VALUE = 1,
	GWC_ERROR_OUT_OF_MEMORY = 2,
	GWC_ERROR_NOT_INITIALIZED = 3,
	GWC_ERROR_DEINITIALIZED = 4,
	GWC_ERROR_STUB_LIBRARY = 34,
	GWC_ERROR_DEVICE_UNAVAILABLE = 46,
	GWC_ERROR_NO_DEVICE = 100,
	GWC_ERROR_INVALID_DEVICE = 101,
	GWC_ERROR_INVALID_IMAGE = 200,
	GWC_ERROR_INVALID_CONTEXT = 201,
	GWC_ERROR_INVALID_PTX = 218,
	GWC_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	GWC_ERROR_INVALID_HANDLE = 400,
	GWC_ERROR_NOT_FOUND = 500,
	GWC_ERROR_NOT_READY = 600,
	GWC_ERROR_ILLEGAL_ADDRESS = 700,
	GWC_ERROR_LAUNCH_FAILED = 719,
	GWC_ERROR_OPERATING_SYSTEM = 304,
	GWC_ERROR_SYSTEM_NOT_READY = 802,
	GWC_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
	GWC_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
	GWC_ERROR_UNKNOWN = 999
};

/* CUdevice_attribute values used here. */
enum {
	GWC_ATTR_MULTIPROCESSOR_COUNT = 16,
	GWC_ATTR_L2_CACHE_SIZE = 38,
	GWC_ATTR_PCI_BUS_ID = 33,
	GWC_ATTR_PCI_DEVICE_ID = 34,
	GWC_ATTR_PCI_DOMAIN_ID = 50,
	GWC_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
	GWC_ATTR_COMPUTE_CAPABILITY_MINOR = 76
};

/* CUuuid: 16 raw bytes. */
typedef struct gwc_uuid {
	char bytes[16];
} gwc_uuid;

typedef gwc_result (*gwc_fn_init)(unsigned int flags);
typedef gwc_result (*gwc_fn_int_out)(int *out);
typedef gwc_result (*gwc_fn_device_get)(gwc_device *out, int ordinal);
typedef gwc_result (*gwc_fn_device_str)(char *buf, int len, gwc_device dev);
typedef gwc_result (*gwc_fn_device_uuid)(gwc_uuid *out, gwc_device dev);
typedef gwc_result (*gwc_fn_device_attr)(int *out, int attr, gwc_device dev);
typedef gwc_result (*gwc_fn_device_total_mem)(size_t *out, gwc_device dev);
typedef gwc_result (*gwc_fn_error_name)(gwc_result r, const char **out);

/* ---- what bench uses (cuda.h 12.x ABI, unchanged since CUDA 4.0) ---- */

typedef unsigned long long gwc_deviceptr;   /* CUdeviceptr (64-bit since the _v2 calls) */
typedef struct gwc_ctx_st *gwc_context;     /* CUcontext */
typedef struct gwc_stream_st *gwc_stream;   /* CUstream */
typedef struct gwc_event_st *gwc_event;     /* CUevent */
typedef struct gwc_mod_st *gwc_module;      /* CUmodule */
typedef struct gwc_func_st *gwc_function;   /* CUfunction */

/* cuGetProcAddress_v2 (12.0) and cuGetProcAddress (11.3). */
typedef gwc_result (*gwc_fn_get_proc_v2)(const char *symbol, void **pfn, int cuda_version,
					 unsigned long long flags, int *status);
typedef gwc_result (*gwc_fn_get_proc_v1)(const char *symbol, void **pfn, int cuda_version,
					 unsigned long long flags);

enum {
	GWC_GET_PROC_ADDRESS_DEFAULT = 0,  /* CUdriverProcAddress_flags */
	GWC_EVENT_DEFAULT = 0,
	GWC_STREAM_NON_BLOCKING = 1,
	GWC_JIT_ERROR_LOG_BUFFER = 5,      /* CUjit_option */
	GWC_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
};

#endif
