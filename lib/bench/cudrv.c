/* Loading the CUDA driver API for bench: dlopen libcuda.so.1, dlsym only
 * cuGetProcAddress_v2 (12.0; else cuGetProcAddress, 11.3), and ask it for
 * every other entry point by its base name at one CUDA version. That is
 * NVIDIA's documented way around the _v2 trap: dlsym("cuMemAlloc") binds
 * the pre-3.2 call with 32-bit sizes, while cuGetProcAddress("cuMemAlloc",
 * 12000) hands out cuMemAlloc_v2. */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "bench/cudrv.h"

struct entry {
	size_t offset;
	const char *name;        /* base name, as cuda.h's API has it */
};

#define E(field, name) { offsetof(gw__cudrv, field), name }
static const struct entry entries[] = {
	E(init, "cuInit"), E(driver_get_version, "cuDriverGetVersion"), E(device_get, "cuDeviceGet"),
	E(device_get_count, "cuDeviceGetCount"), E(device_get_attribute, "cuDeviceGetAttribute"),
	E(primary_ctx_retain, "cuDevicePrimaryCtxRetain"), E(primary_ctx_release, "cuDevicePrimaryCtxRelease"),
	E(ctx_set_current, "cuCtxSetCurrent"), E(ctx_synchronize, "cuCtxSynchronize"),
	E(mem_get_info, "cuMemGetInfo"), E(mem_alloc, "cuMemAlloc"), E(mem_free, "cuMemFree"),
	E(mem_alloc_host, "cuMemAllocHost"), E(mem_free_host, "cuMemFreeHost"),
	E(memcpy_htod, "cuMemcpyHtoD"), E(memcpy_dtoh, "cuMemcpyDtoH"),
	E(memcpy_htod_async, "cuMemcpyHtoDAsync"), E(memcpy_dtoh_async, "cuMemcpyDtoHAsync"),
	E(memcpy_dtod_async, "cuMemcpyDtoDAsync"), E(memcpy_peer_async, "cuMemcpyPeerAsync"),
	E(stream_create, "cuStreamCreate"), E(stream_destroy, "cuStreamDestroy"),
	E(stream_synchronize, "cuStreamSynchronize"),
	E(event_create, "cuEventCreate"), E(event_record, "cuEventRecord"),
	E(event_synchronize, "cuEventSynchronize"), E(event_elapsed_time, "cuEventElapsedTime"),
	E(event_destroy, "cuEventDestroy"),
	E(module_load_data_ex, "cuModuleLoadDataEx"), E(module_unload, "cuModuleUnload"),
	E(module_get_function, "cuModuleGetFunction"), E(launch_kernel, "cuLaunchKernel"),
	E(get_error_name, "cuGetErrorName"),
};
#undef E

const char *gw__cudrv_code(const gw__cudrv *d, gwc_result r, char *buf, size_t n)
{
	const char *name = NULL;

	if (d && d->get_error_name && d->get_error_name(r, &name) == GWC_SUCCESS && name && *name)
		gw__strlcpy(buf, name, n);
	else
		snprintf(buf, n, "CUDA error %d", r);
	return buf;
}

/* One entry point through whichever cuGetProcAddress the driver has. */
static void *proc(gwc_fn_get_proc_v2 v2, gwc_fn_get_proc_v1 v1, const char *name, int version)
{
	void *p = NULL;
	int status = 0;

	if (v2 ? v2(name, &p, version, GWC_GET_PROC_ADDRESS_DEFAULT, &status) != GWC_SUCCESS
	       : v1(name, &p, version, GWC_GET_PROC_ADDRESS_DEFAULT) != GWC_SUCCESS)
		return NULL;
	return status == 0 ? p : NULL;
}

static int fail(gw__cudrv *d, const char *msg)
{
	int rc = gw__error_set(GW_ELIBRARY, "%s", msg);

	gw__dlclose(d->lib);
	memset(d, 0, sizeof(*d));
	return rc;
}

int gw__cudrv_open(gw__cudrv *d, const char *libname)
{
	gwc_fn_get_proc_v2 v2;
	gwc_fn_get_proc_v1 v1 = NULL;
	gwc_fn_int_out get_version;
	char msg[256];
	void *p;

	memset(d, 0, sizeof(*d));
	if (!(d->lib = gw__dlopen(libname)))
		return gw__error_set(GW_ELIBRARY, "cannot load the CUDA driver library %s: %s", libname, gw__dlerror());
	p = gw__dlsym(d->lib, "cuGetProcAddress_v2");
	memcpy(&v2, &p, sizeof(v2));
	if (!v2) {
		p = gw__dlsym(d->lib, "cuGetProcAddress");
		memcpy(&v1, &p, sizeof(v1));
	}
	if (!v2 && !v1)
	{
		gw__fmt(msg, sizeof(msg), "%s has no cuGetProcAddress: bench needs a CUDA 11.3 or newer driver", libname);
		return fail(d, msg);
	}
	/* cuDriverGetVersion is the one call asked for before the version is
	 * known: it has had one signature since CUDA 2.2. */
	p = proc(v2, v1, "cuDriverGetVersion", 11030);
	memcpy(&get_version, &p, sizeof(get_version));
	if (!get_version || get_version(&d->version) != GWC_SUCCESS || d->version <= 0)
		return fail(d, "the CUDA driver does not say its version (cuDriverGetVersion)");
	d->proc_version = d->version < GW__CUDRV_ABI_VERSION ? d->version : GW__CUDRV_ABI_VERSION;
	for (size_t i = 0; i < GW_ARRAY_SIZE(entries); i++) {
		if (!(p = proc(v2, v1, entries[i].name, d->proc_version))) {
			gw__fmt(msg, sizeof(msg), "the CUDA driver has no %s (asked for CUDA %d.%d)", entries[i].name,
				d->proc_version / 1000, d->proc_version % 1000 / 10);
			return fail(d, msg);
		}
		memcpy((char *)d + entries[i].offset, &p, sizeof(p));
	}
	return 0;
}

void gw__cudrv_close(gw__cudrv *d)
{
	if (d && d->lib)
		gw__dlclose(d->lib);
	if (d)
		memset(d, 0, sizeof(*d));
}
