/* gpuwise fakes — what fake_cuda.c (devices, contexts) shares with
 * fake_cuda_exec.c (memory, copies, streams, events, modules, launches,
 * cuGetProcAddress). Hidden symbols: the library exports only CUDA's names. */
#ifndef GPUWISE_FAKE_CUDA_H
#define GPUWISE_FAKE_CUDA_H

#include "cuda_types.h"
#include "machine.h"

#define API(name, args) \
	CUresult name args; \
	__attribute__((visibility("default"))) CUresult name args

#include <stddef.h>

#define MAX_CU_DEVICES 256

/* fake_cuda.c's entry points that cuGetProcAddress hands out. */
CUresult cuInit(unsigned int flags);
CUresult cuDriverGetVersion(int *version);
CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetAttribute(int *value, int attrib, CUdevice dev);
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetPCIBusId(char *bus_id, int len, CUdevice dev);
CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxGetCurrent(CUcontext *pctx);
CUresult cuCtxGetDevice(CUdevice *dev);
CUresult cuMemGetInfo_v2(size_t *free_b, size_t *total_b);
CUresult cuGetErrorName(CUresult error, const char **str);
CUresult cuGetErrorString(CUresult error, const char **str);

/* cuInit ran and succeeded. */
int fc_ready(void);
/* The machine device behind an ordinal; CUDA_SUCCESS, NOT_INITIALIZED or INVALID_DEVICE. */
CUresult fc_device_of(CUdevice dev, const fm_device **out);
/* The calling thread's current context when it is live, else NULL. */
CUcontext fc_current(void);
/* The ordinal of a live context, -1 when ctx is not one. */
int fc_context_device(CUcontext ctx);
/* The primary context of an ordinal (retained or not). */
CUcontext fc_primary(CUdevice dev);
/* How many CUDA devices this process sees. */
int fc_device_count(void);

#endif
