/* gpuwise's own declarations of the few CUDA driver API (libcuda.so.1)
 * calls it makes. cuda.h is never included; tests/abi/test_abi.c checks
 * these values against it when the CUDA toolkit is installed.
 * gpuwise never creates a CUDA context: only device queries are used.
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
	GWC_ERROR_INVALID_CONTEXT = 201,
	GWC_ERROR_OPERATING_SYSTEM = 304,
	GWC_ERROR_SYSTEM_NOT_READY = 802,
	GWC_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
	GWC_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
	GWC_ERROR_UNKNOWN = 999
};

/* CUdevice_attribute values used here. */
enum {
	GWC_ATTR_MULTIPROCESSOR_COUNT = 16,
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

#endif
