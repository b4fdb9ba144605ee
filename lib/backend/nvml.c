/* NVML backend: NVIDIA devices through libnvidia-ml.so.1, loaded with dlopen.
 *
 * Every symbol is resolved once at open, newest version first. Only init,
 * the device count and the handle lookup are required; any other missing
 * symbol costs just the fields it serves (NOT_SUPPORTED with code
 * FUNCTION_NOT_FOUND, 13). Each getter's answer becomes its field's state:
 * NOT_SUPPORTED for NVML's NOT_SUPPORTED, ERROR with NVML's code otherwise.
 * A GPU that answers GPU_IS_LOST (or UNKNOWN while being identified) is
 * marked lost; the others stay complete.
 *
 * Versions when NVML cannot answer: if nvmlInit fails (a driver/library
 * version mismatch is the common case) the user still wants to know which
 * library was loaded, so driver_version and nvml_version are taken from the
 * real file name of the loaded library (libnvidia-ml.so.550.54.15 ->
 * "550.54.15"; both fields get the bare driver version in that case), or
 * from NVML's own version ("12.550.90.07" -> "550.90.07") when that call
 * answers before init.
 * The kernel module version is read from /proc/driver/nvidia/version (or
 * /sys/module/nvidia/version) under the context root, whether or not NVML
 * loads.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/pci.h"
#include "backend/arch.h"
#include "device/device.h"
#include "backend/backend.h"
#include "backend/nvml_abi.h"
#include "backend/nvidia_version.h"
#include "hardware/tables.h"

_Static_assert(sizeof(gwn_fn_void) == sizeof(void *), "function pointers are pointer-sized");

enum { MAX_NVML_DEVICES = 256, PROCESS_RETRIES = 5 };

/* The NVML calls gpuwise makes, resolved once per context. */
struct nvml_api {
	gwn_fn_void init_v2;
	gwn_fn_flags init_with_flags;
	gwn_fn_void shutdown;
	gwn_fn_error_string error_string;
	gwn_fn_sys_str driver_version;
	gwn_fn_sys_str nvml_version;
	gwn_fn_sys_int cuda_driver_version;
	gwn_fn_sys_uint device_count;
	gwn_fn_handle_by_index handle_by_index;

	gwn_fn_dev_str name, uuid, serial, board_part_number, vbios_version;
	gwn_fn_dev_pci pci_info, pci_info_v2;
	gwn_fn_dev_u minor_number, architecture, num_gpu_cores;
	gwn_fn_dev_ii cuda_cc;
	gwn_fn_dev_attrs attributes;
	gwn_fn_dev_memory memory;
	gwn_fn_dev_memory_v2 memory_v2;
	gwn_fn_dev_bar1 bar1;
	gwn_fn_dev_kind_u clock, max_clock;
	gwn_fn_dev_u max_pcie_gen, max_pcie_width, gpu_max_pcie_gen;

	gwn_fn_dev_util utilization;
	gwn_fn_dev_uu encoder_util, decoder_util;
	gwn_fn_dev_temp_v temperature_v;
	gwn_fn_dev_kind_u temperature, temperature_threshold;
	gwn_fn_dev_fields field_values;
	gwn_fn_dev_u fan_speed;
	gwn_fn_dev_u power_usage, enforced_power_limit, power_management_limit;
	gwn_fn_dev_ull energy;
	gwn_fn_dev_u pstate;
	gwn_fn_dev_u pcie_gen, pcie_width, pcie_replay;
	gwn_fn_dev_kind_u pcie_throughput;
	gwn_fn_dev_u persistence_mode, compute_mode, display_mode;
	gwn_fn_dev_ull clocks_event_reasons, clocks_throttle_reasons;
	gwn_fn_dev_uu ecc_mode;
	gwn_fn_dev_ecc_total ecc_total;
	gwn_fn_dev_remapped remapped_rows;
	gwn_fn_dev_uu mig_mode;
	gwn_fn_dev_u max_mig_count;
	gwn_fn_dev_child mig_handle;
	gwn_fn_dev_u gpu_instance_id, compute_instance_id;

	gwn_fn_dev_procs compute_procs_v3, compute_procs_v2, graphics_procs_v3, graphics_procs_v2;
	gwn_fn_dev_procs_v1 compute_procs_v1, graphics_procs_v1;
	gwn_fn_dev_proc_util process_util;

	gwn_fn_dev_topology topology;
	gwn_fn_dev_p2p p2p_status;
	gwn_fn_dev_link_state nvlink_state;

	gwn_fn_event_set_create event_set_create;
	gwn_fn_event_set_free event_set_free;
	gwn_fn_register_events register_events;
	gwn_fn_event_set_wait event_set_wait;

	gwn_fn_gpm_support gpm_support;
	gwn_fn_gpm_alloc gpm_alloc;
	gwn_fn_gpm_free gpm_free;
	gwn_fn_gpm_get gpm_get;
	gwn_fn_gpm_metrics gpm_metrics;
};

struct nvml_symbol {
	size_t offset;
	const char *names[3]; /* tried in order: newest first */
};

#define SYM(field, ...) { offsetof(struct nvml_api, field), { __VA_ARGS__ } }
static const struct nvml_symbol nvml_symbols[] = {
	SYM(init_v2, "nvmlInit_v2", "nvmlInit"),
	SYM(init_with_flags, "nvmlInitWithFlags"),
	SYM(shutdown, "nvmlShutdown"),
	SYM(error_string, "nvmlErrorString"),
	SYM(driver_version, "nvmlSystemGetDriverVersion"),
	SYM(nvml_version, "nvmlSystemGetNVMLVersion"),
	SYM(cuda_driver_version, "nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"),
	SYM(device_count, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"),
	SYM(handle_by_index, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"),
	SYM(name, "nvmlDeviceGetName"),
	SYM(uuid, "nvmlDeviceGetUUID"),
	SYM(serial, "nvmlDeviceGetSerial"),
	SYM(board_part_number, "nvmlDeviceGetBoardPartNumber"),
	SYM(vbios_version, "nvmlDeviceGetVbiosVersion"),
	/* _v2 and _v3 fill the same 68-byte struct (v3 only reformats busId);
	 * the unversioned call has another layout and is not used. */
	SYM(pci_info, "nvmlDeviceGetPciInfo_v3"),
	SYM(pci_info_v2, "nvmlDeviceGetPciInfo_v2"),
	SYM(minor_number, "nvmlDeviceGetMinorNumber"),
	SYM(architecture, "nvmlDeviceGetArchitecture"),
	SYM(num_gpu_cores, "nvmlDeviceGetNumGpuCores"),
	SYM(cuda_cc, "nvmlDeviceGetCudaComputeCapability"),
	SYM(attributes, "nvmlDeviceGetAttributes_v2"),
	SYM(memory, "nvmlDeviceGetMemoryInfo"),
	SYM(memory_v2, "nvmlDeviceGetMemoryInfo_v2"),
	SYM(bar1, "nvmlDeviceGetBAR1MemoryInfo"),
	SYM(clock, "nvmlDeviceGetClockInfo"),
	SYM(max_clock, "nvmlDeviceGetMaxClockInfo"),
	SYM(max_pcie_gen, "nvmlDeviceGetMaxPcieLinkGeneration"),
	SYM(max_pcie_width, "nvmlDeviceGetMaxPcieLinkWidth"),
	SYM(gpu_max_pcie_gen, "nvmlDeviceGetGpuMaxPcieLinkGeneration"),
	SYM(utilization, "nvmlDeviceGetUtilizationRates"),
	SYM(encoder_util, "nvmlDeviceGetEncoderUtilization"),
	SYM(decoder_util, "nvmlDeviceGetDecoderUtilization"),
	SYM(temperature_v, "nvmlDeviceGetTemperatureV"),
	SYM(temperature, "nvmlDeviceGetTemperature"),
	SYM(temperature_threshold, "nvmlDeviceGetTemperatureThreshold"),
	SYM(field_values, "nvmlDeviceGetFieldValues"),
	SYM(fan_speed, "nvmlDeviceGetFanSpeed"),
	SYM(power_usage, "nvmlDeviceGetPowerUsage"),
	SYM(enforced_power_limit, "nvmlDeviceGetEnforcedPowerLimit"),
	SYM(power_management_limit, "nvmlDeviceGetPowerManagementLimit"),
	SYM(energy, "nvmlDeviceGetTotalEnergyConsumption"),
	SYM(pstate, "nvmlDeviceGetPerformanceState"),
	SYM(pcie_gen, "nvmlDeviceGetCurrPcieLinkGeneration"),
	SYM(pcie_width, "nvmlDeviceGetCurrPcieLinkWidth"),
	SYM(pcie_replay, "nvmlDeviceGetPcieReplayCounter"),
	SYM(pcie_throughput, "nvmlDeviceGetPcieThroughput"),
	SYM(persistence_mode, "nvmlDeviceGetPersistenceMode"),
	SYM(compute_mode, "nvmlDeviceGetComputeMode"),
	SYM(display_mode, "nvmlDeviceGetDisplayMode"),
	SYM(clocks_event_reasons, "nvmlDeviceGetCurrentClocksEventReasons"),
	SYM(clocks_throttle_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons"),
	SYM(ecc_mode, "nvmlDeviceGetEccMode"),
	SYM(ecc_total, "nvmlDeviceGetTotalEccErrors"),
	SYM(remapped_rows, "nvmlDeviceGetRemappedRows"),
	SYM(mig_mode, "nvmlDeviceGetMigMode"),
	SYM(max_mig_count, "nvmlDeviceGetMaxMigDeviceCount"),
	SYM(mig_handle, "nvmlDeviceGetMigDeviceHandleByIndex"),
	SYM(gpu_instance_id, "nvmlDeviceGetGpuInstanceId"),
	SYM(compute_instance_id, "nvmlDeviceGetComputeInstanceId"),
	/* _v3 and _v2 fill the same 24-byte struct, the unversioned call 16
	 * bytes. Each has its own slot: a library may export a version and
	 * still answer FUNCTION_NOT_FOUND, and then the next one is tried. */
	SYM(compute_procs_v3, "nvmlDeviceGetComputeRunningProcesses_v3"),
	SYM(compute_procs_v2, "nvmlDeviceGetComputeRunningProcesses_v2"),
	SYM(graphics_procs_v3, "nvmlDeviceGetGraphicsRunningProcesses_v3"),
	SYM(graphics_procs_v2, "nvmlDeviceGetGraphicsRunningProcesses_v2"),
	SYM(compute_procs_v1, "nvmlDeviceGetComputeRunningProcesses"),
	SYM(graphics_procs_v1, "nvmlDeviceGetGraphicsRunningProcesses"),
	SYM(process_util, "nvmlDeviceGetProcessUtilization"),
	SYM(topology, "nvmlDeviceGetTopologyCommonAncestor"),
	SYM(p2p_status, "nvmlDeviceGetP2PStatus"),
	SYM(nvlink_state, "nvmlDeviceGetNvLinkState"),
	SYM(event_set_create, "nvmlEventSetCreate"),
	SYM(event_set_free, "nvmlEventSetFree"),
	SYM(register_events, "nvmlDeviceRegisterEvents"),
	/* Only _v2 fills gwn_event_data (with the MIG instance ids). */
	SYM(event_set_wait, "nvmlEventSetWait_v2"),
	/* GPM: drivers of the R520 branch and newer; absent before. */
	SYM(gpm_support, "nvmlGpmQueryDeviceSupport"),
	SYM(gpm_alloc, "nvmlGpmSampleAlloc"),
	SYM(gpm_free, "nvmlGpmSampleFree"),
	SYM(gpm_get, "nvmlGpmSampleGet"),
	SYM(gpm_metrics, "nvmlGpmMetricsGet"),
};
#undef SYM

struct memory_reading {
	bool v2;
	gwn_return v2_code;   /* why v2 was not used */
	unsigned long long total, reserved, free, used;
};

/* GPM of one GPU: the sample the previous read took, and a buffer for
 * the next one; the metrics are their difference. */
struct gpm_gpu {
	gwn_gpm_sample buf[2];
	int newest;           /* buf index of the previous read's sample, -1 before the first */
};

struct nvml_state {
	void *lib;
	bool initialised;
	struct nvml_api api;
	/* The memory reading taken while enumerating, handed to the first
	 * sample of each device instead of asking NVML again: one call per
	 * getter per sample, and the first sample sees the first value. */
	struct memory_reading *first_memory;  /* by NVML index, NULL-able */
	bool *first_memory_ok;
	unsigned nfirst;
	struct gpm_gpu *gpm;  /* by NVML index, ngpm of them; NULL-able */
	unsigned ngpm;
	gwn_gpm_metrics_get *gpm_request; /* 8 KiB: allocated at the first use */
};

/* ---- return codes ------------------------------------------------------ */

static const char *nvml_code_name(gwn_return r)
{
	static const char *const names[] = {
		"SUCCESS", "UNINITIALIZED", "INVALID_ARGUMENT", "NOT_SUPPORTED", "NO_PERMISSION",
		"ALREADY_INITIALIZED", "NOT_FOUND", "INSUFFICIENT_SIZE", "INSUFFICIENT_POWER",
		"DRIVER_NOT_LOADED", "TIMEOUT", "IRQ_ISSUE", "LIBRARY_NOT_FOUND", "FUNCTION_NOT_FOUND",
		"CORRUPTED_INFOROM", "GPU_IS_LOST", "RESET_REQUIRED", "OPERATING_SYSTEM",
		"LIB_RM_VERSION_MISMATCH", "IN_USE", "MEMORY", "NO_DATA", "VGPU_ECC_NOT_SUPPORTED",
		"INSUFFICIENT_RESOURCES", "FREQ_NOT_SUPPORTED", "ARGUMENT_VERSION_MISMATCH",
		"DEPRECATED", "NOT_READY", "GPU_NOT_FOUND", "INVALID_STATE", "RESET_TYPE_NOT_SUPPORTED",
	};

	if (r >= 0 && r < (int)GW_ARRAY_SIZE(names))
		return names[r];
	return r == GWN_ERROR_UNKNOWN ? "UNKNOWN" : "UNRECOGNIZED";
}

static int nvml_code_to_gw(gwn_return r)
{
	switch (r) {
	case GWN_ERROR_DRIVER_NOT_LOADED: return GW_EDRIVER;
	case GWN_ERROR_LIB_RM_VERSION_MISMATCH: return GW_EMISMATCH;
	case GWN_ERROR_NO_PERMISSION: return GW_EPERM;
	case GWN_ERROR_LIBRARY_NOT_FOUND:
	case GWN_ERROR_FUNCTION_NOT_FOUND: return GW_ELIBRARY;
	case GWN_ERROR_GPU_IS_LOST: return GW_ELOST;
	case GWN_ERROR_NOT_SUPPORTED: return GW_ENOTSUP;
	case GWN_ERROR_MEMORY: return GW_ENOMEM;
	default: return GW_EVENDOR;
	}
}

static const char *init_failure_reason(gwn_return r)
{
	switch (r) {
	case GWN_ERROR_DRIVER_NOT_LOADED: return N_("the NVIDIA kernel driver is not loaded");
	case GWN_ERROR_LIB_RM_VERSION_MISMATCH:
		return N_("the NVIDIA kernel module and the user-space driver library have different versions");
	case GWN_ERROR_NO_PERMISSION: return N_("this user may not talk to the NVIDIA driver");
	case GWN_ERROR_LIBRARY_NOT_FOUND: return N_("a library it depends on could not be loaded");
	case GWN_ERROR_FUNCTION_NOT_FOUND: return N_("the library lacks a required function");
	default: return N_("the driver returned an error");
	}
}

/* ---- field helpers ----------------------------------------------------- */

/* What one device answers during one open/sample pass. */
struct reader {
	gwn_device h;
	bool lost;
};

/* Record a failed call in a field: NOT_SUPPORTED when the device or the
 * library lacks it, ERROR with NVML's code otherwise. */
static void fail_field(gw_field_state *state, int *code, gwn_return r)
{
	*state = (r == GWN_ERROR_NOT_SUPPORTED || r == GWN_ERROR_FUNCTION_NOT_FOUND)
		 ? GW_FIELD_NOT_SUPPORTED : GW_FIELD_ERROR;
	*code = r;
}
#define FAIL(f, r) fail_field(&(f).state, &(f).code, (r))

/* True when r is SUCCESS; remembers a lost GPU. */
static bool answered(struct reader *rd, gwn_return r)
{
	if (r == GWN_ERROR_GPU_IS_LOST)
		rd->lost = true;
	return r == GWN_SUCCESS;
}

static gwn_return read_str(struct reader *rd, gwn_fn_dev_str fn, gw_str *f, unsigned bufsz)
{
	char buf[128] = "";
	gwn_return r;

	if (rd->lost)
		return GWN_ERROR_GPU_IS_LOST;
	if (bufsz > sizeof(buf))
		bufsz = sizeof(buf);
	r = fn ? fn(rd->h, buf, bufsz) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (answered(rd, r)) {
		buf[sizeof(buf) - 1] = '\0';
		gw__str_set(f, buf);
	} else {
		FAIL(*f, r);
	}
	return r;
}

/* An unsigned getter. */
static void read_u(struct reader *rd, gwn_fn_dev_u fn, gw_u64 *f)
{
	unsigned v = 0;
	gwn_return r;

	if (rd->lost)
		return;
	r = fn ? fn(rd->h, &v) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (answered(rd, r))
		gw__u64_set(f, v);
	else
		FAIL(*f, r);
}

/* A reading as a double, divided by div: the state and code as read; a
 * field nothing read (the GPU was lost) stays as it was. */
static void f64_from_u64(gw_f64 *f, const gw_u64 *u, double div)
{
	if (u->state == GW_FIELD_VALID)
		gw__f64_set(f, (double)u->v / div);
	else if (u->state != GW_FIELD_UNREAD)
		GW_FIELD_FAIL(*f, u->state, u->code);
}

/* An unsigned getter in thousandths (mW, mJ) as a double in base units. */
static void read_u_milli(struct reader *rd, gwn_fn_dev_u fn, gw_f64 *f)
{
	gw_u64 u = { 0 };

	read_u(rd, fn, &u);
	f64_from_u64(f, &u, 1000.0);
}

static void read_ull(struct reader *rd, gwn_fn_dev_ull fn, gw_u64 *f)
{
	unsigned long long v = 0;
	gwn_return r;

	if (rd->lost)
		return;
	r = fn ? fn(rd->h, &v) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (answered(rd, r))
		gw__u64_set(f, v);
	else
		FAIL(*f, r);
}

static void read_kind_u(struct reader *rd, gwn_fn_dev_kind_u fn, unsigned kind, uint64_t scale, gw_u64 *f)
{
	unsigned v = 0;
	gwn_return r;

	if (rd->lost)
		return;
	r = fn ? fn(rd->h, kind, &v) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (answered(rd, r))
		gw__u64_set(f, (uint64_t)v * scale);
	else
		FAIL(*f, r);
}

static void read_kind_f64(struct reader *rd, gwn_fn_dev_kind_u fn, unsigned kind, gw_f64 *f)
{
	gw_u64 u = { 0 };

	read_kind_u(rd, fn, kind, 1, &u);
	f64_from_u64(f, &u, 1.0);
}

/* A getter with two unsigned outputs (MIG mode, ECC mode, encoder). */
static void read_uu(struct reader *rd, gwn_fn_dev_uu fn, gw_u64 *a, gw_u64 *b)
{
	unsigned va = 0, vb = 0;
	gwn_return r;

	if (rd->lost)
		return;
	r = fn ? fn(rd->h, &va, &vb) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (answered(rd, r)) {
		gw__u64_set(a, va);
		if (b)
			gw__u64_set(b, vb);
	} else {
		FAIL(*a, r);
		if (b)
			FAIL(*b, r);
	}
}

/* Memory through nvmlMemory_v2_t when the library has it (used excludes
 * the driver's reserved memory), else v1 (used includes it). */

static bool v2_worth_retrying_as_v1(gwn_return r)
{
	return r == GWN_ERROR_NOT_SUPPORTED || r == GWN_ERROR_FUNCTION_NOT_FOUND ||
	       r == GWN_ERROR_ARGUMENT_VERSION_MISMATCH || r == GWN_ERROR_INVALID_ARGUMENT;
}

static gwn_return query_memory(const struct nvml_api *api, struct reader *rd, struct memory_reading *m)
{
	gwn_return r = GWN_ERROR_FUNCTION_NOT_FOUND;

	memset(m, 0, sizeof(*m));
	if (rd->lost)
		return GWN_ERROR_GPU_IS_LOST;
	if (api->memory_v2) {
		gwn_memory_v2 v = { .version = GWN_MEMORY_V2_VERSION };

		r = api->memory_v2(rd->h, &v);
		if (answered(rd, r)) {
			m->v2 = true;
			m->total = v.total;
			m->reserved = v.reserved;
			m->free = v.free;
			m->used = v.used;
			return r;
		}
		if (!v2_worth_retrying_as_v1(r))
			return r;
	}
	m->v2_code = r;
	if (api->memory) {
		gwn_memory v;

		memset(&v, 0, sizeof(v));
		r = api->memory(rd->h, &v);
		if (answered(rd, r)) {
			m->total = v.total;
			m->free = v.free;
			m->used = v.used;
		}
	}
	return r;
}

/* Copy a NVML buffer that may lack its NUL into a string. */
static void bounded_str(char *dst, size_t dstsz, const char *src, size_t srcsz)
{
	size_t n = strnlen(src, srcsz);

	if (n >= dstsz)
		n = dstsz - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---- driver-wide facts ------------------------------------------------- */

static void read_kernel_module_version(gw_context *ctx)
{
	static const char *const paths[] = { "/proc/driver/nvidia/version", "/sys/module/nvidia/version" };
	gw_str *f = &ctx->driver.kernel_module_version;
	bool any_file = false;

	for (size_t i = 0; i < GW_ARRAY_SIZE(paths); i++) {
		char buf[1024], ver[GW_STR_MAX];

		if (gw__read_small(ctx->root, paths[i], buf, sizeof(buf)) < 0)
			continue;
		any_file = true;
		if (gw__nvidia_module_version_parse(buf, strlen(buf), ver, sizeof(ver)) == 0) {
			gw__str_set(f, ver);
			return;
		}
	}
	/* No module loaded (no file) vs a file we cannot understand. */
	GW_FIELD_FAIL(*f, any_file ? GW_FIELD_ERROR : GW_FIELD_NOT_SUPPORTED, 0);
}

/* The driver version from the file name of the library dlopen found
 * ("libnvidia-ml.so.1" -> realpath "libnvidia-ml.so.550.54.15"). */
static int library_file_version(void *lib, char *out, size_t outsz)
{
	struct link_map *lm = NULL;
	char real[PATH_MAX];

	if (!lib || dlinfo(lib, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name || !lm->l_name[0])
		return GW_ENOTFOUND;
	if (gw__realpath(lm->l_name, real, sizeof(real)) < 0)
		gw__strlcpy(real, lm->l_name, sizeof(real));
	return gw__nvidia_version_from_filename(real, strlen(real), out, outsz);
}

static void read_system_str(gwn_fn_sys_str fn, gw_str *f)
{
	char buf[GWN_SYSTEM_VERSION_BUFFER] = "";
	gwn_return r = fn ? fn(buf, sizeof(buf)) : GWN_ERROR_FUNCTION_NOT_FOUND;

	if (r == GWN_SUCCESS) {
		buf[sizeof(buf) - 1] = '\0';
		gw__str_set(f, buf);
	} else {
		FAIL(*f, r);
	}
}

static void read_driver_versions(gw_context *ctx, struct nvml_state *st)
{
	gw_driver_info *drv = &ctx->driver;
	char ver[GW_STR_MAX];

	read_system_str(st->api.driver_version, &drv->driver_version);
	read_system_str(st->api.nvml_version, &drv->nvml_version);
	if (st->initialised && st->api.cuda_driver_version) {
		int v = 0;
		gwn_return r = st->api.cuda_driver_version(&v);

		if (r == GWN_SUCCESS && v > 0)
			gw__u64_set(&drv->cuda_driver_version, (uint64_t)v);
		else if (r != GWN_SUCCESS)
			FAIL(drv->cuda_driver_version, r);
	}
	/* NVML's own version is "<CUDA major>.<driver version>" ("12.550.90.07")
	 * and some libraries answer it before nvmlInit succeeds. */
	if (!GW_VALID(drv->driver_version) && GW_VALID(drv->nvml_version)) {
		const char *dot = strchr(drv->nvml_version.s, '.');

		/* The module-version parser accepts a bare "550.90.07" line. */
		if (dot && gw__nvidia_module_version_parse(dot + 1, strlen(dot + 1), ver, sizeof(ver)) == 0)
			gw__str_set(&drv->driver_version, ver);
	}
	if (GW_VALID(drv->driver_version) && GW_VALID(drv->nvml_version))
		return;
	if (library_file_version(st->lib, ver, sizeof(ver)) < 0)
		return;
	if (!GW_VALID(drv->driver_version))
		gw__str_set(&drv->driver_version, ver);
	if (!GW_VALID(drv->nvml_version))
		gw__str_set(&drv->nvml_version, ver);
}

/* ---- open ---------------------------------------------------------------- */

static void resolve_symbols(struct nvml_state *st)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(nvml_symbols); i++) {
		const struct nvml_symbol *s = &nvml_symbols[i];

		for (size_t k = 0; k < GW_ARRAY_SIZE(s->names) && s->names[k]; k++) {
			void *p = gw__dlsym(st->lib, s->names[k]);

			if (p) {
				memcpy((char *)&st->api + s->offset, &p, sizeof(p));
				break;
			}
		}
	}
}

static void nvml_status_fail(gw_context *ctx, gw_backend_status *status, gw_backend_state state, int error,
			gwn_return code, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void nvml_status_fail(gw_context *ctx, gw_backend_status *status, gw_backend_state state, int error,
			gwn_return code, const char *fmt, ...)
{
	va_list ap;

	status->state = state;
	status->error = error;
	status->vendor_code = code;
	gw__strlcpy(status->vendor_code_name, state == GW_BACKEND_LIBRARY_MISSING ? "LIBRARY_NOT_FOUND"
		    : nvml_code_name(code), sizeof(status->vendor_code_name));
	va_start(ap, fmt);
	gw__status_vmsg(ctx, status, fmt, ap);
	va_end(ap);
}

/* Vendor libraries stay mapped once loaded: dlclose only drops our
 * reference. libcuda keeps driver threads and exit handlers inside it,
 * NVML is cheaper to re-initialise than to reload, and static state a
 * library allocated (the fakes' machine) stays reachable. This upgrades
 * the object gw__dlopen already loaded; it loads nothing new. */
static void keep_mapped(const char *name)
{
	gw__dlopen_keep(name);
}

static const char *nvml_library_name(const gw_context *ctx)
{
	const char *name = ctx->opts.nvml_library;

	if (!name || !*name)
		name = gw__env_path("GPUWISE_NVML_LIBRARY");
	if (!name || !*name)
		name = "libnvidia-ml.so.1";
	return name;
}

static void mark_lost(gw_device *d, const char *how)
{
	d->info.health = GW_HEALTH_LOST;
	gw__device_reason(d, "GPU is lost (NVML %s): it has fallen off the bus; reboot to recover it", how);
}

static void read_pci(const struct nvml_api *api, struct reader *rd, gw_device *d)
{
	gwn_pci_info pci;
	gwn_return r;
	char norm[16], raw[GWN_PCI_BUS_ID_BUFFER + 1];

	if (rd->lost)
		return;
	memset(&pci, 0, sizeof(pci));
	r = api->pci_info ? api->pci_info(rd->h, &pci) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (r == GWN_ERROR_FUNCTION_NOT_FOUND && api->pci_info_v2)
		r = api->pci_info_v2(rd->h, &pci);
	if (r == GWN_ERROR_UNKNOWN)
		rd->lost = true;
	if (!answered(rd, r)) {
		FAIL(d->info.pci_bus_id, r);
		FAIL(d->info.pci_device_id, r);
		FAIL(d->info.pci_subsystem_id, r);
		return;
	}
	bounded_str(raw, sizeof(raw), pci.busId, sizeof(pci.busId));
	if (!raw[0])
		bounded_str(raw, sizeof(raw), pci.busIdLegacy, sizeof(pci.busIdLegacy));
	if (gw__pci_bus_id_normalize(raw, norm) == 0) {
		gw__str_set(&d->info.pci_bus_id, norm);
		snprintf(d->sysfs_path, sizeof(d->sysfs_path), "/sys/bus/pci/devices/%s", norm);
	} else {
		GW_FIELD_FAIL(d->info.pci_bus_id, GW_FIELD_ERROR, GWN_ERROR_UNKNOWN);
	}
	gw__u64_set(&d->info.pci_device_id, pci.pciDeviceId >> 16);
	gw__u64_set(&d->info.pci_subsystem_id, pci.pciSubSystemId);
}

/* SMs and CUDA cores: NVML has no SM count for a whole GPU except through
 * nvmlDeviceGetAttributes_v2 (often MIG-only); derive it from the core
 * count when the cores-per-SM of this compute capability is known, and
 * leave it to the CUDA backend otherwise. */
static void read_cores(const struct nvml_api *api, struct reader *rd, gw_device_info *info)
{
	unsigned per_sm = 0;

	if (GW_VALID(info->cc_major))
		per_sm = gw__cores_per_sm((unsigned)info->cc_major.v, (unsigned)info->cc_minor.v);
	read_u(rd, api->num_gpu_cores, &info->cuda_cores);
	if (api->attributes && !rd->lost) {
		gwn_device_attributes a;

		memset(&a, 0, sizeof(a));
		if (answered(rd, api->attributes(rd->h, &a)) && a.multiprocessorCount)
			gw__u64_set(&info->multiprocessor_count, a.multiprocessorCount);
	}
	if (!GW_VALID(info->multiprocessor_count) && GW_VALID(info->cuda_cores) && per_sm &&
	    info->cuda_cores.v % per_sm == 0 && info->cuda_cores.v)
		gw__u64_set(&info->multiprocessor_count, info->cuda_cores.v / per_sm);
	/* A driver without nvmlDeviceGetNumGpuCores (the 470 branch; its
	 * nvmlDeviceGetAttributes_v2 serves MIG devices only) has no count at
	 * all: the GPU table knows it by PCI device id, so the CLI (which could
	 * also ask libcuda) and the Python module (which never calls cuInit)
	 * agree. A driver that has the call and answers NOT_SUPPORTED keeps N/A. */
	if (!GW_VALID(info->multiprocessor_count) && !api->num_gpu_cores &&
	    GW_VALID(info->pci_device_id)) {
		const gw_row_nvidia_gpus *row = gw__tbl_nvidia_gpu_by_id((unsigned)info->pci_device_id.v);

		if (row && row->sms)
			gw__u64_set(&info->multiprocessor_count, row->sms);
	}
	if (!GW_VALID(info->cuda_cores) && GW_VALID(info->multiprocessor_count) && per_sm)
		gw__u64_set(&info->cuda_cores, info->multiprocessor_count.v * per_sm);
}

static void read_arch_and_cc(const struct nvml_api *api, struct reader *rd, gw_device_info *info)
{
	unsigned arch = GWN_DEVICE_ARCH_UNKNOWN;
	const char *name = NULL;
	gwn_return r;

	if (rd->lost)
		return;
	if (api->cuda_cc) {
		int major = 0, minor = 0;

		r = api->cuda_cc(rd->h, &major, &minor);
		if (answered(rd, r) && major >= 0 && minor >= 0) {
			gw__u64_set(&info->cc_major, (uint64_t)major);
			gw__u64_set(&info->cc_minor, (uint64_t)minor);
		} else {
			FAIL(info->cc_major, r);
			FAIL(info->cc_minor, r);
		}
	} else {
		FAIL(info->cc_major, GWN_ERROR_FUNCTION_NOT_FOUND);
		FAIL(info->cc_minor, GWN_ERROR_FUNCTION_NOT_FOUND);
	}
	r = api->architecture ? api->architecture(rd->h, &arch) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (answered(rd, r))
		name = gw__nvidia_arch_name(arch);
	if (!name && GW_VALID(info->cc_major))
		name = gw__nvidia_arch_from_cc((unsigned)info->cc_major.v, (unsigned)info->cc_minor.v);
	if (name)
		gw__str_set(&info->architecture, name);
	else if (r != GWN_SUCCESS)
		FAIL(info->architecture, r);
	else
		GW_FIELD_FAIL(info->architecture, GW_FIELD_NOT_SUPPORTED, 0);
}

/* Name, UUID and PCI info; true when the GPU turned out to be lost. */
static bool identify(const struct nvml_api *api, struct reader *rd, gw_device *d)
{
	struct reader one = { rd->h, false };
	bool lost = false;

	if (read_str(&one, api->name, &d->info.name, GWN_NAME_BUFFER) == GWN_ERROR_UNKNOWN || one.lost)
		lost = true;
	one.lost = false;
	if (read_str(&one, api->uuid, &d->info.uuid, GWN_UUID_BUFFER) == GWN_ERROR_UNKNOWN || one.lost)
		lost = true;
	one.lost = false;
	read_pci(api, &one, d);
	if (one.lost)
		lost = true;
	if (lost)
		rd->lost = true;
	return lost;
}

static void read_static(const struct nvml_api *api, struct reader *rd, gw_device *d, struct memory_reading *m,
			bool *m_ok)
{
	gw_device_info *info = &d->info;
	gwn_bar1_memory bar1;
	gwn_return r;
	unsigned cur = 0, pend = 0;

	/* Identity first, each getter tried even after one failed, so that a
	 * lost GPU keeps whatever identifies it (the CUDA backend matches by
	 * UUID or bus id). UNKNOWN here is how many drivers report a GPU that
	 * fell off the bus. */
	if (identify(api, rd, d))
		return;
	read_str(rd, api->serial, &info->serial, GWN_SERIAL_BUFFER);
	read_str(rd, api->board_part_number, &info->board_part_number, GWN_PART_NUMBER_BUFFER);
	read_str(rd, api->vbios_version, &info->vbios_version, GWN_VBIOS_BUFFER);
	read_u(rd, api->minor_number, &info->minor_number);
	read_arch_and_cc(api, rd, info);
	read_cores(api, rd, info);

	r = query_memory(api, rd, m);
	*m_ok = r == GWN_SUCCESS;
	if (r == GWN_SUCCESS) {
		gw__u64_set(&info->memory_total, m->total);
		/* Without the v2 call "used" is v1's, reserved memory included: say so. */
		gw__u64_set(&info->memory_used_includes_reserved, !m->v2);
	} else {
		FAIL(info->memory_total, r);
		FAIL(info->memory_used_includes_reserved, r);
	}
	if (!rd->lost) {
		memset(&bar1, 0, sizeof(bar1));
		r = api->bar1 ? api->bar1(rd->h, &bar1) : GWN_ERROR_FUNCTION_NOT_FOUND;
		if (answered(rd, r))
			gw__u64_set(&info->bar1_total, bar1.bar1Total);
		else
			FAIL(info->bar1_total, r);
	}
	read_kind_u(rd, api->max_clock, GWN_CLOCK_SM, 1, &info->max_sm_clock);
	read_kind_u(rd, api->max_clock, GWN_CLOCK_MEM, 1, &info->max_mem_clock);
	read_kind_u(rd, api->max_clock, GWN_CLOCK_GRAPHICS, 1, &info->max_graphics_clock);
	read_u(rd, api->max_pcie_gen, &info->pcie_max_gen);
	read_u(rd, api->max_pcie_width, &info->pcie_max_width);
	read_u(rd, api->gpu_max_pcie_gen, &info->pcie_gpu_max_gen);

	/* MIG capable = GetMigMode answers at all. */
	if (!rd->lost) {
		r = api->mig_mode ? api->mig_mode(rd->h, &cur, &pend) : GWN_ERROR_FUNCTION_NOT_FOUND;
		if (answered(rd, r))
			gw__u64_set(&info->mig_capable, 1);
		else if (r == GWN_ERROR_NOT_SUPPORTED)
			gw__u64_set(&info->mig_capable, 0);
		else
			FAIL(info->mig_capable, r);
	}
}

/* GPM: 1 when the GPU and the driver have it; 0 (not UNREAD or N/A: a
 * plain "no") when the driver lacks the calls or NVML says the GPU has
 * none. */
static void read_gpm_support(const struct nvml_api *api, struct reader *rd, gw_device_info *info)
{
	gwn_gpm_support sup = { .version = GWN_GPM_SUPPORT_VERSION, .isSupportedDevice = 0 };
	gwn_return r;

	if (rd->lost)
		return;
	if (!api->gpm_support || !api->gpm_alloc || !api->gpm_free || !api->gpm_get || !api->gpm_metrics) {
		gw__u64_set(&info->gpm_supported, 0);
		return;
	}
	r = api->gpm_support(rd->h, &sup);
	if (answered(rd, r))
		gw__u64_set(&info->gpm_supported, sup.isSupportedDevice ? 1 : 0);
	else if (r == GWN_ERROR_NOT_SUPPORTED)
		gw__u64_set(&info->gpm_supported, 0);
	else
		FAIL(info->gpm_supported, r);
}

static void mark_handle_failure(gw_device *d, gwn_return r)
{
	if (r == GWN_ERROR_GPU_IS_LOST || r == GWN_ERROR_UNKNOWN) {
		mark_lost(d, nvml_code_name(r));
		return;
	}
	d->info.health = GW_HEALTH_ERROR;
	if (r == GWN_ERROR_NO_PERMISSION)
		gw__device_reason(d, "NVML cannot open this GPU: no permission (%s)", nvml_code_name(r));
	else
		gw__device_reason(d, "NVML cannot open this GPU: the driver refused it (%s)", nvml_code_name(r));
}

static int add_device(gw_context *ctx, struct nvml_state *st, unsigned index)
{
	struct reader rd = { NULL, false };
	gw_device *d = gw__device_add(ctx);
	gwn_return r;

	if (!d)
		return GW_ENOMEM;
	d->info.vendor = GW_VENDOR_NVIDIA;
	d->info.nvml_index = (int)index;
	d->info.backend = "nvml";
	d->owner = &gw__backend_nvml;
	gw__u64_set(&d->info.pci_vendor_id, 0x10de);
	r = st->api.handle_by_index(index, &rd.h);
	if (r != GWN_SUCCESS || !rd.h) {
		mark_handle_failure(d, r == GWN_SUCCESS ? GWN_ERROR_UNKNOWN : r);
		return 0;
	}
	d->handle = rd.h;
	if (st->first_memory && index < st->nfirst) {
		read_static(&st->api, &rd, d, &st->first_memory[index], &st->first_memory_ok[index]);
	} else {
		struct memory_reading m;
		bool ok;

		read_static(&st->api, &rd, d, &m, &ok);
	}
	read_gpm_support(&st->api, &rd, &d->info);
	if (rd.lost)
		mark_lost(d, "GPU_IS_LOST");
	return 0;
}

static bool has_required_symbols(const struct nvml_api *api, const char **missing)
{
	if (!api->init_v2 && !api->init_with_flags)
		*missing = "nvmlInit_v2";
	else if (!api->device_count)
		*missing = "nvmlDeviceGetCount_v2";
	else if (!api->handle_by_index)
		*missing = "nvmlDeviceGetHandleByIndex_v2";
	else
		return true;
	return false;
}

static void gpm_release(struct nvml_state *st)
{
	for (unsigned i = 0; st->gpm && i < st->ngpm; i++)
		for (int k = 0; k < 2; k++)
			if (st->gpm[i].buf[k] && st->initialised && st->api.gpm_free)
				st->api.gpm_free(st->gpm[i].buf[k]);
	gw__free(st->gpm);
	gw__free(st->gpm_request);
	st->gpm = NULL;
	st->gpm_request = NULL;
	st->ngpm = 0;
}

static void nvml_unload(struct nvml_state *st)
{
	gpm_release(st);
	if (st->initialised && st->api.shutdown)
		st->api.shutdown();
	st->initialised = false;
	gw__dlclose(st->lib);
	gw__free(st->first_memory);
	gw__free(st->first_memory_ok);
	gw__free(st);
}

static int enumerate(gw_context *ctx, struct nvml_state *st, gw_backend_status *status)
{
	unsigned count = 0;
	gwn_return r = st->api.device_count(&count);

	if (r != GWN_SUCCESS) {
		nvml_status_fail(ctx, status, GW_BACKEND_INIT_FAILED, nvml_code_to_gw(r), r,
			    "NVML could not count the GPUs (%s)", nvml_code_name(r));
		return 0;
	}
	if (count == 0) {
		status->state = GW_BACKEND_NOTHING_FOUND;
		gw__status_msg(ctx, status, "NVML works but reports no NVIDIA GPU");
		return 0;
	}
	if (count > MAX_NVML_DEVICES)
		count = MAX_NVML_DEVICES;
	/* Without these the first sample simply asks NVML again. */
	st->first_memory = gw__calloc(count, sizeof(*st->first_memory));
	st->first_memory_ok = gw__calloc(count, sizeof(*st->first_memory_ok));
	if (st->first_memory && st->first_memory_ok) {
		st->nfirst = count;
	} else {
		gw__free(st->first_memory);
		gw__free(st->first_memory_ok);
		st->first_memory = NULL;
		st->first_memory_ok = NULL;
	}
	if ((st->gpm = gw__calloc(count, sizeof(*st->gpm)))) {
		st->ngpm = count;
		for (unsigned i = 0; i < count; i++)
			st->gpm[i].newest = -1;
	}
	for (unsigned i = 0; i < count; i++)
		if (add_device(ctx, st, i) < 0)
			return GW_ENOMEM;
	status->state = GW_BACKEND_OK;
	return 0;
}

static int nvml_open(gw_context *ctx, void **state, gw_backend_status *status)
{
	const char *libname = nvml_library_name(ctx);
	const char *missing = NULL;
	struct nvml_state *st;
	gwn_return r;

	read_kernel_module_version(ctx);
	gw__strlcpy(status->library, libname, sizeof(status->library));
	if (!(st = gw__calloc(1, sizeof(*st))))
		return GW_ENOMEM;
	if (!(st->lib = gw__dlopen(libname))) {
		nvml_status_fail(ctx, status, GW_BACKEND_LIBRARY_MISSING, GW_ELIBRARY, GWN_ERROR_LIBRARY_NOT_FOUND,
			    "cannot load the NVIDIA management library: %s", gw__dlerror());
		gw__free(st);
		return 0;
	}
	keep_mapped(libname);
	resolve_symbols(st);
	if (!has_required_symbols(&st->api, &missing)) {
		nvml_status_fail(ctx, status, GW_BACKEND_INIT_FAILED, GW_ELIBRARY, GWN_ERROR_FUNCTION_NOT_FOUND,
			    "the NVML library has no %s: it is not a usable libnvidia-ml", missing);
		read_driver_versions(ctx, st);
		nvml_unload(st);
		return 0;
	}
	/* nvmlInit_v2 is what the header maps nvmlInit to; nvmlInitWithFlags(0)
	 * is the same call and what pynvml uses. */
	r = st->api.init_v2 ? st->api.init_v2() : st->api.init_with_flags(0);
	if (r != GWN_SUCCESS) {
		nvml_status_fail(ctx, status, GW_BACKEND_INIT_FAILED, nvml_code_to_gw(r), r,
			    "NVML initialisation failed: %s (%s)", init_failure_reason(r), nvml_code_name(r));
		read_driver_versions(ctx, st);
		nvml_unload(st);
		return 0;
	}
	st->initialised = true;
	*state = st;
	read_driver_versions(ctx, st);
	return enumerate(ctx, st, status);
}

static void nvml_close(void *state)
{
	if (state)
		nvml_unload(state);
}

/* ---- samples ------------------------------------------------------------- */

static void sample_memory(struct nvml_state *st, const gw_device *dev, struct reader *rd, gw_device_sample *s)
{
	struct memory_reading m;
	int i = dev->info.nvml_index;
	gwn_return r;

	if (st->first_memory && i >= 0 && (unsigned)i < st->nfirst && st->first_memory_ok[i]) {
		m = st->first_memory[i];
		st->first_memory_ok[i] = false;
		r = GWN_SUCCESS;
	} else {
		r = query_memory(&st->api, rd, &m);
	}

	if (r != GWN_SUCCESS) {
		FAIL(s->memory_used, r);
		FAIL(s->memory_free, r);
		FAIL(s->memory_reserved, r);
		return;
	}
	gw__u64_set(&s->memory_used, m.used);
	gw__u64_set(&s->memory_free, m.free);
	if (m.v2)
		gw__u64_set(&s->memory_reserved, m.reserved);
	else
		GW_FIELD_FAIL(s->memory_reserved, GW_FIELD_NOT_SUPPORTED, m.v2_code);
}

/* A field value as a number; false for a type NVML does not use for it. */
static bool field_number(const gwn_field_value *v, double *out)
{
	switch (v->valueType) {
	case GWN_VALUE_TYPE_DOUBLE: *out = v->value.dVal; return true;
	case GWN_VALUE_TYPE_UNSIGNED_INT: *out = v->value.uiVal; return true;
	case GWN_VALUE_TYPE_UNSIGNED_LONG: *out = (double)v->value.ulVal; return true;
	case GWN_VALUE_TYPE_UNSIGNED_LONG_LONG: *out = (double)v->value.ullVal; return true;
	case GWN_VALUE_TYPE_SIGNED_LONG_LONG: *out = (double)v->value.sllVal; return true;
	case GWN_VALUE_TYPE_SIGNED_INT: *out = v->value.siVal; return true;
	default: return false;
	}
}

/* Memory (HBM) temperature: only a field value (NVML_FI_DEV_MEMORY_TEMP),
 * as DCGM and nvidia-smi read it. The call succeeds as a whole; each field
 * carries its own return code, NOT_SUPPORTED on GPUs without the sensor. */
static void read_memory_temperature(const struct nvml_api *api, struct reader *rd, gw_f64 *out)
{
	gwn_field_value v;
	gwn_return r;
	double t;

	if (rd->lost)
		return;
	memset(&v, 0, sizeof(v));
	v.fieldId = GWN_FI_DEV_MEMORY_TEMP;
	r = api->field_values ? api->field_values(rd->h, 1, &v) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (!answered(rd, r))
		FAIL(*out, r);
	else if (v.nvmlReturn != GWN_SUCCESS)
		FAIL(*out, v.nvmlReturn);
	else if (field_number(&v, &t))
		gw__f64_set(out, t);
	else
		GW_FIELD_FAIL(*out, GW_FIELD_ERROR, GWN_ERROR_UNKNOWN);
}

static void sample_temperature(const struct nvml_api *api, struct reader *rd, gw_device_sample *s)
{
	if (api->temperature_v && !rd->lost) {
		gwn_temperature_v1 t = { .version = GWN_TEMPERATURE_V1_VERSION, .sensorType = GWN_TEMPERATURE_GPU };
		gwn_return r = api->temperature_v(rd->h, &t);

		if (answered(rd, r)) {
			gw__f64_set(&s->temperature, t.temperature);
			goto thresholds;
		}
		if (!v2_worth_retrying_as_v1(r) || !api->temperature) {
			FAIL(s->temperature, r);
			goto thresholds;
		}
	}
	read_kind_f64(rd, api->temperature, GWN_TEMPERATURE_GPU, &s->temperature);
thresholds:
	read_kind_f64(rd, api->temperature_threshold, GWN_TEMPERATURE_THRESHOLD_SLOWDOWN, &s->temperature_slowdown);
	read_kind_f64(rd, api->temperature_threshold, GWN_TEMPERATURE_THRESHOLD_SHUTDOWN, &s->temperature_shutdown);
	read_memory_temperature(api, rd, &s->temperature_memory);
}

/* ---- NVLink, per link --------------------------------------------------- */

_Static_assert(GW_MAX_NVLINKS == GWN_NVLINK_MAX_LINKS, "one slot per NVML link");

/* A link NVML does not have on this GPU: NOT_SUPPORTED (no NVLink, or a
 * link number past the GPU's links) or INVALID_ARGUMENT (link number out
 * of range for the driver). */
static bool no_such_link(gwn_return r)
{
	return r == GWN_ERROR_NOT_SUPPORTED || r == GWN_ERROR_INVALID_ARGUMENT || r == GWN_ERROR_FUNCTION_NOT_FOUND;
}

/* One throughput field value (KiB) of a link into a byte counter. */
static void store_link_bytes(const gwn_field_value *v, gw_u64 *out)
{
	if (v->nvmlReturn != GWN_SUCCESS)
		FAIL(*out, v->nvmlReturn);
	else if (v->valueType == GWN_VALUE_TYPE_UNSIGNED_LONG_LONG)
		gw__u64_set(out, v->value.ullVal * 1024u);
	else if (v->valueType == GWN_VALUE_TYPE_UNSIGNED_INT)
		gw__u64_set(out, (uint64_t)v->value.uiVal * 1024u);
	else
		GW_FIELD_FAIL(*out, GW_FIELD_ERROR, GWN_ERROR_UNKNOWN);
}

/* The data bytes of links 0..n-1: one nvmlDeviceGetFieldValues call, TX
 * and RX per link (scopeId = link). */
static void read_link_bytes(const struct nvml_api *api, struct reader *rd, gw_device_sample *s, int n)
{
	gwn_field_value v[2 * GW_MAX_NVLINKS];
	gwn_return r;

	memset(v, 0, sizeof(v));
	for (int l = 0; l < n; l++) {
		v[2 * l].fieldId = GWN_FI_DEV_NVLINK_THROUGHPUT_DATA_TX;
		v[2 * l + 1].fieldId = GWN_FI_DEV_NVLINK_THROUGHPUT_DATA_RX;
		v[2 * l].scopeId = v[2 * l + 1].scopeId = (unsigned)l;
	}
	r = api->field_values ? api->field_values(rd->h, 2 * n, v) : GWN_ERROR_FUNCTION_NOT_FOUND;
	for (int l = 0; l < n; l++) {
		if (!answered(rd, r)) {
			FAIL(s->nvlink[l].tx_bytes, r);
			FAIL(s->nvlink[l].rx_bytes, r);
			continue;
		}
		store_link_bytes(&v[2 * l], &s->nvlink[l].tx_bytes);
		store_link_bytes(&v[2 * l + 1], &s->nvlink[l].rx_bytes);
	}
}

/* The GPU's links are those up to the last one nvmlDeviceGetNvLinkState
 * knows (NOT_SUPPORTED for link 0: no NVLink, nvlink_count 0). A link
 * that answers with another error stays, its fields in ERROR. */
static void sample_nvlink(const struct nvml_api *api, struct reader *rd, gw_device_sample *s)
{
	gwn_return r[GW_MAX_NVLINKS];
	int active[GW_MAX_NVLINKS];
	int n = 0;

	s->nvlink_count = 0;
	if (!api->nvlink_state || rd->lost)
		return;
	for (int l = 0; l < GW_MAX_NVLINKS && !rd->lost; l++) {
		active[l] = 0;
		r[l] = api->nvlink_state(rd->h, (unsigned)l, &active[l]);
		(void)answered(rd, r[l]);
		if (!no_such_link(r[l]))
			n = l + 1;
	}
	if (rd->lost)
		return;
	for (int l = 0; l < n; l++) {
		if (r[l] == GWN_SUCCESS)
			gw__u64_set(&s->nvlink[l].active, active[l] ? 1 : 0);
		else
			FAIL(s->nvlink[l].active, r[l]);
	}
	s->nvlink_count = n;
	if (n)
		read_link_bytes(api, rd, s, n);
}

static void sample_misc(const struct nvml_api *api, struct reader *rd, gw_device_sample *s)
{
	gwn_bar1_memory bar1;
	gwn_utilization u;
	gwn_return r;

	if (rd->lost)
		return;
	memset(&bar1, 0, sizeof(bar1));
	r = api->bar1 ? api->bar1(rd->h, &bar1) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (answered(rd, r))
		gw__u64_set(&s->bar1_used, bar1.bar1Used);
	else
		FAIL(s->bar1_used, r);
	memset(&u, 0, sizeof(u));
	r = api->utilization ? api->utilization(rd->h, &u) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (answered(rd, r)) {
		gw__u64_set(&s->gpu_util, u.gpu);
		gw__u64_set(&s->mem_util, u.memory);
	} else {
		FAIL(s->gpu_util, r);
		FAIL(s->mem_util, r);
	}
	read_uu(rd, api->encoder_util, &s->encoder_util, NULL);
	read_uu(rd, api->decoder_util, &s->decoder_util, NULL);
	read_u(rd, api->fan_speed, &s->fan_percent);
	read_u_milli(rd, api->power_usage, &s->power_draw);
	read_u_milli(rd, api->enforced_power_limit, &s->power_limit);
	read_u_milli(rd, api->power_management_limit, &s->power_management_limit);
	if (!rd->lost) {
		unsigned long long mj = 0;

		r = api->energy ? api->energy(rd->h, &mj) : GWN_ERROR_FUNCTION_NOT_FOUND;
		if (answered(rd, r))
			gw__f64_set(&s->energy, mj / 1000.0);
		else
			FAIL(s->energy, r);
	}
	read_kind_u(rd, api->clock, GWN_CLOCK_SM, 1, &s->sm_clock);
	read_kind_u(rd, api->clock, GWN_CLOCK_MEM, 1, &s->mem_clock);
	read_kind_u(rd, api->clock, GWN_CLOCK_GRAPHICS, 1, &s->graphics_clock);
	read_kind_u(rd, api->clock, GWN_CLOCK_VIDEO, 1, &s->video_clock);
	read_u(rd, api->pstate, &s->pstate);
	if (GW_VALID(s->pstate) && s->pstate.v == GWN_PSTATE_UNKNOWN)
		GW_FIELD_FAIL(s->pstate, GW_FIELD_NOT_SUPPORTED, 0);
	read_u(rd, api->pcie_gen, &s->pcie_gen);
	read_u(rd, api->pcie_width, &s->pcie_width);
	read_kind_u(rd, api->pcie_throughput, GWN_PCIE_UTIL_TX_BYTES, 1024, &s->pcie_tx);
	read_kind_u(rd, api->pcie_throughput, GWN_PCIE_UTIL_RX_BYTES, 1024, &s->pcie_rx);
	read_u(rd, api->pcie_replay, &s->pcie_replay_counter);
	read_u(rd, api->persistence_mode, &s->persistence_mode);
	read_u(rd, api->compute_mode, &s->compute_mode);
	read_u(rd, api->display_mode, &s->display_mode);
	/* The 12.2 name first, the deprecated one when the first is absent. */
	read_ull(rd, api->clocks_event_reasons, &s->throttle_reasons);
	if (s->throttle_reasons.state != GW_FIELD_VALID && s->throttle_reasons.code == GWN_ERROR_FUNCTION_NOT_FOUND &&
	    api->clocks_throttle_reasons)
		read_ull(rd, api->clocks_throttle_reasons, &s->throttle_reasons);
}

static void read_ecc_total(const struct nvml_api *api, struct reader *rd, unsigned type, unsigned counter, gw_u64 *f)
{
	unsigned long long v = 0;
	gwn_return r;

	if (rd->lost)
		return;
	r = api->ecc_total ? api->ecc_total(rd->h, type, counter, &v) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (answered(rd, r))
		gw__u64_set(f, v);
	else
		FAIL(*f, r);
}

static void sample_ecc(const struct nvml_api *api, struct reader *rd, gw_device_sample *s)
{
	unsigned corr = 0, unc = 0, pend = 0, fail = 0;
	gwn_return r;

	read_uu(rd, api->ecc_mode, &s->ecc_current, &s->ecc_pending);
	read_ecc_total(api, rd, GWN_MEMORY_ERROR_TYPE_CORRECTED, GWN_VOLATILE_ECC, &s->ecc_corrected_volatile);
	read_ecc_total(api, rd, GWN_MEMORY_ERROR_TYPE_UNCORRECTED, GWN_VOLATILE_ECC, &s->ecc_uncorrected_volatile);
	read_ecc_total(api, rd, GWN_MEMORY_ERROR_TYPE_CORRECTED, GWN_AGGREGATE_ECC, &s->ecc_corrected_aggregate);
	read_ecc_total(api, rd, GWN_MEMORY_ERROR_TYPE_UNCORRECTED, GWN_AGGREGATE_ECC, &s->ecc_uncorrected_aggregate);
	if (rd->lost)
		return;
	r = api->remapped_rows ? api->remapped_rows(rd->h, &corr, &unc, &pend, &fail) : GWN_ERROR_FUNCTION_NOT_FOUND;
	if (answered(rd, r)) {
		gw__u64_set(&s->remapped_correctable, corr);
		gw__u64_set(&s->remapped_uncorrectable, unc);
		gw__u64_set(&s->remapped_pending, pend);
		gw__u64_set(&s->remapped_failure, fail);
	} else {
		FAIL(s->remapped_correctable, r);
		FAIL(s->remapped_uncorrectable, r);
		FAIL(s->remapped_pending, r);
		FAIL(s->remapped_failure, r);
	}
}

static void sample_one_mig(const struct nvml_api *api, gwn_device mh, gw_mig_device *m, bool *lost)
{
	struct reader rd = { mh, false };
	struct memory_reading mem;
	gwn_return r;

	read_str(&rd, api->uuid, &m->uuid, GWN_UUID_BUFFER);
	read_str(&rd, api->name, &m->name, GWN_NAME_BUFFER);
	read_u(&rd, api->gpu_instance_id, &m->gpu_instance_id);
	read_u(&rd, api->compute_instance_id, &m->compute_instance_id);
	if (api->attributes && !rd.lost) {
		gwn_device_attributes a;

		memset(&a, 0, sizeof(a));
		r = api->attributes(mh, &a);
		if (answered(&rd, r))
			gw__u64_set(&m->multiprocessor_count, a.multiprocessorCount);
		else
			FAIL(m->multiprocessor_count, r);
	} else if (!api->attributes) {
		FAIL(m->multiprocessor_count, GWN_ERROR_FUNCTION_NOT_FOUND);
	}
	r = query_memory(api, &rd, &mem);
	if (r == GWN_SUCCESS) {
		gw__u64_set(&m->memory_total, mem.total);
		gw__u64_set(&m->memory_used, mem.used);
		gw__u64_set(&m->memory_free, mem.free);
	} else {
		FAIL(m->memory_total, r);
		FAIL(m->memory_used, r);
		FAIL(m->memory_free, r);
	}
	if (rd.lost)
		*lost = true;
}

static void sample_mig(const struct nvml_api *api, struct reader *rd, gw_device_sample *s)
{
	read_uu(rd, api->mig_mode, &s->mig_current, &s->mig_pending);
	read_u(rd, api->max_mig_count, &s->mig_max_devices);
	if (rd->lost || !GW_VALID(s->mig_current) || s->mig_current.v != 1 ||
	    !GW_VALID(s->mig_max_devices) || !api->mig_handle)
		return;
	for (unsigned i = 0; i < s->mig_max_devices.v && s->mig_count < GW_MAX_MIG; i++) {
		gwn_device mh = NULL;
		gwn_return r = api->mig_handle(rd->h, i, &mh);

		if (r == GWN_ERROR_NOT_FOUND || r == GWN_ERROR_INVALID_ARGUMENT)
			continue; /* an empty slot */
		if (!answered(rd, r) || !mh)
			break;
		sample_one_mig(api, mh, &s->mig[s->mig_count++], &rd->lost);
	}
}

/* ---- profiling (GPM) ------------------------------------------------------ */

/* The GPM metrics gpuwise reads, and where each goes in a sample: a
 * percentage (gw_f64) or a rate in MiB/s kept as bytes/s (gw_u64). */
static const struct {
	unsigned id;
	size_t offset;
	bool rate;
} gpm_fields[] = {
	{ GWN_GPM_METRIC_GRAPHICS_UTIL, offsetof(gw_device_sample, graphics_active), false },
	{ GWN_GPM_METRIC_SM_UTIL, offsetof(gw_device_sample, sm_active), false },
	{ GWN_GPM_METRIC_SM_OCCUPANCY, offsetof(gw_device_sample, sm_occupancy), false },
	{ GWN_GPM_METRIC_ANY_TENSOR_UTIL, offsetof(gw_device_sample, tensor_active), false },
	{ GWN_GPM_METRIC_DRAM_BW_UTIL, offsetof(gw_device_sample, dram_active), false },
	{ GWN_GPM_METRIC_FP64_UTIL, offsetof(gw_device_sample, fp64_active), false },
	{ GWN_GPM_METRIC_FP32_UTIL, offsetof(gw_device_sample, fp32_active), false },
	{ GWN_GPM_METRIC_FP16_UTIL, offsetof(gw_device_sample, fp16_active), false },
	{ GWN_GPM_METRIC_PCIE_TX_PER_SEC, offsetof(gw_device_sample, prof_pcie_tx), true },
	{ GWN_GPM_METRIC_PCIE_RX_PER_SEC, offsetof(gw_device_sample, prof_pcie_rx), true },
	{ GWN_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC, offsetof(gw_device_sample, nvlink_tx), true },
	{ GWN_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC, offsetof(gw_device_sample, nvlink_rx), true },
};
enum { GPM_FIELDS = sizeof(gpm_fields) / sizeof(gpm_fields[0]) };

static void gpm_set_state(gw_device_sample *s, size_t k, gw_field_state state, int code)
{
	char *f = (char *)s + gpm_fields[k].offset;

	if (gpm_fields[k].rate)
		GW_FIELD_FAIL(*(gw_u64 *)(void *)f, state, code);
	else
		GW_FIELD_FAIL(*(gw_f64 *)(void *)f, state, code);
}

static void gpm_fail(gw_device_sample *s, gwn_return r)
{
	gw_field_state state = GW_FIELD_ERROR;
	int code = r;

	fail_field(&state, &code, r);
	for (size_t k = 0; k < GPM_FIELDS; k++)
		gpm_set_state(s, k, state, code);
}

static void gpm_store(gw_device_sample *s, size_t k, const gwn_gpm_metric *m)
{
	char *f = (char *)s + gpm_fields[k].offset;

	if (m->nvmlReturn != GWN_SUCCESS) {
		gw_field_state state = GW_FIELD_ERROR;
		int code = 0;

		fail_field(&state, &code, m->nvmlReturn);
		gpm_set_state(s, k, state, code);
	} else if (!gpm_fields[k].rate) {
		gw__f64_set((gw_f64 *)(void *)f, m->value);
	} else if (m->value >= 0 && m->value < 1e12) {
		gw__u64_set((gw_u64 *)(void *)f, (uint64_t)(m->value * 1048576.0 + 0.5));
	} else {
		gpm_set_state(s, k, GW_FIELD_NOT_SUPPORTED, 0);
	}
}

/* The two sample buffers of a GPU, allocated at its first read. */
static gwn_return gpm_buffers(const struct nvml_api *api, struct gpm_gpu *g)
{
	for (int k = 0; k < 2; k++) {
		gwn_return r = g->buf[k] ? GWN_SUCCESS : api->gpm_alloc(&g->buf[k]);

		if (r != GWN_SUCCESS) {
			g->buf[k] = NULL;
			return r;
		}
	}
	return GWN_SUCCESS;
}

/* Take this read's GPM sample; with the previous read's, ask NVML for the
 * metrics over the time in between. The first read of a GPU leaves them
 * UNREAD (nothing to compare with). */
static void sample_gpm(struct nvml_state *st, const gw_device *dev, struct reader *rd, gw_device_sample *s)
{
	const struct nvml_api *api = &st->api;
	const gw_u64 *sup = &dev->info.gpm_supported;
	int i = dev->info.nvml_index, take;
	struct gpm_gpu *g;
	gwn_gpm_metrics_get *mg;
	gwn_return r;

	if (rd->lost)
		return;
	if (!GW_VALID(*sup) || !sup->v) {
		for (size_t k = 0; k < GPM_FIELDS; k++)
			gpm_set_state(s, k, GW_VALID(*sup) ? GW_FIELD_NOT_SUPPORTED : sup->state, sup->code);
		return;
	}
	if (!st->gpm || i < 0 || (unsigned)i >= st->ngpm) {
		gpm_fail(s, GWN_ERROR_MEMORY);
		return;
	}
	g = &st->gpm[i];
	if ((r = gpm_buffers(api, g)) != GWN_SUCCESS) {
		gpm_fail(s, r);
		return;
	}
	take = g->newest < 0 ? 0 : 1 - g->newest;
	r = api->gpm_get(rd->h, g->buf[take]);
	if (!answered(rd, r)) {
		gpm_fail(s, r);
		return;
	}
	if (g->newest < 0) {
		g->newest = take;
		return;
	}
	if (!st->gpm_request && !(st->gpm_request = gw__calloc(1, sizeof(*st->gpm_request)))) {
		gpm_fail(s, GWN_ERROR_MEMORY);
		return;
	}
	mg = st->gpm_request;
	memset(mg, 0, offsetof(gwn_gpm_metrics_get, metrics) + GPM_FIELDS * sizeof(mg->metrics[0]));
	mg->version = GWN_GPM_METRICS_GET_VERSION;
	mg->numMetrics = GPM_FIELDS;
	mg->sample1 = g->buf[g->newest];
	mg->sample2 = g->buf[take];
	for (size_t k = 0; k < GPM_FIELDS; k++)
		mg->metrics[k].metricId = gpm_fields[k].id;
	g->newest = take;
	r = api->gpm_metrics(mg);
	if (!answered(rd, r)) {
		gpm_fail(s, r);
		return;
	}
	for (size_t k = 0; k < GPM_FIELDS; k++)
		gpm_store(s, k, &mg->metrics[k]);
}

static int nvml_sample(void *state, gw_context *ctx, gw_device *dev, gw_device_sample *out)
{
	struct nvml_state *st = state;
	struct reader rd = { dev->handle, false };

	(void)ctx;
	if (!st || !dev->handle)
		return gw__error_set(GW_EVENDOR, "GPU %d cannot be read: %s", dev->info.index,
				     dev->info.health_reason[0] ? dev->info.health_reason : "NVML gave no handle");
	sample_memory(st, dev, &rd, out);
	sample_misc(&st->api, &rd, out);
	sample_temperature(&st->api, &rd, out);
	sample_ecc(&st->api, &rd, out);
	sample_mig(&st->api, &rd, out);
	sample_gpm(st, dev, &rd, out);
	sample_nvlink(&st->api, &rd, out);
	if (rd.lost) {
		mark_lost(dev, "GPU_IS_LOST");
		return gw__error_set(GW_ELOST, "GPU %d (%s) is lost: it has fallen off the bus",
				     dev->info.index, dev->info.pci_bus_id.s);
	}
	return 0;
}

/* ---- processes ----------------------------------------------------------- */

struct proc_list {
	gw_process *items;
	size_t n, cap;
};

static int proc_append(struct proc_list *l, uint32_t pid, gw_process_type type, unsigned long long mem,
		       unsigned gi, unsigned ci, bool has_ids)
{
	gw_process *p;

	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 16;
		gw_process *ni = gw__realloc(l->items, ncap * sizeof(*ni));

		if (!ni)
			return gw__error_set(GW_ENOMEM, "out of memory listing GPU processes");
		l->items = ni;
		l->cap = ncap;
	}
	p = &l->items[l->n++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->type = type;
	if (mem == GWN_VALUE_NOT_AVAILABLE_ULL)
		GW_FIELD_FAIL(p->used_memory, GW_FIELD_NOT_SUPPORTED, 0);
	else
		gw__u64_set(&p->used_memory, mem);
	if (has_ids && gi != GWN_INSTANCE_ID_NONE)
		gw__u64_set(&p->gpu_instance_id, gi);
	if (has_ids && ci != GWN_INSTANCE_ID_NONE)
		gw__u64_set(&p->compute_instance_id, ci);
	return 0;
}

/* The INSUFFICIENT_SIZE handshake: ask for the count, allocate with some
 * room (the list may grow between the two calls), retry a few times. The
 * 24-byte and 16-byte layouts differ, so each has its own buffer type. */
static gwn_return fetch_procs(gwn_fn_dev_procs fn, gwn_fn_dev_procs_v1 fn_v1, gwn_device h,
			      void **buf, unsigned *count)
{
	size_t elem = fn ? sizeof(gwn_process_info) : sizeof(gwn_process_info_v1);
	unsigned want = 0;
	gwn_return r;

	*buf = NULL;
	*count = 0;
	r = fn ? fn(h, &want, NULL) : fn_v1(h, &want, NULL);
	for (int tries = 0; tries < PROCESS_RETRIES; tries++) {
		unsigned cap;
		void *b;

		if (r == GWN_SUCCESS && want == 0)
			return GWN_SUCCESS;
		if (r != GWN_ERROR_INSUFFICIENT_SIZE && r != GWN_SUCCESS)
			return r;
		if (want > 65536)
			return GWN_ERROR_UNKNOWN; /* garbage: refuse to allocate for it */
		cap = want + 8;
		if (!(b = gw__calloc(cap, elem)))
			return GWN_ERROR_MEMORY;
		want = cap;
		r = fn ? fn(h, &want, b) : fn_v1(h, &want, b);
		if (r == GWN_SUCCESS) {
			*buf = b;
			*count = want < cap ? want : cap;
			return r;
		}
		gw__free(b);
	}
	return r;
}

/* One process list through the newest call that answers: _v3, _v2 (24
 * bytes), then the unversioned one (16 bytes). *supported is false when
 * the device or library cannot list this kind at all. */
static int list_processes(const struct nvml_api *api, gw_device *dev, gw_process_type type,
			  struct proc_list *l, bool *supported)
{
	bool compute = type == GW_PROCESS_COMPUTE;
	const struct {
		gwn_fn_dev_procs fn;
		gwn_fn_dev_procs_v1 fn_v1;
	} calls[] = {
		{ compute ? api->compute_procs_v3 : api->graphics_procs_v3, NULL },
		{ compute ? api->compute_procs_v2 : api->graphics_procs_v2, NULL },
		{ NULL, compute ? api->compute_procs_v1 : api->graphics_procs_v1 },
	};
	gwn_fn_dev_procs fn = NULL;
	void *buf = NULL;
	unsigned n = 0;
	gwn_return r = GWN_ERROR_FUNCTION_NOT_FOUND;

	for (size_t k = 0; k < GW_ARRAY_SIZE(calls) && r == GWN_ERROR_FUNCTION_NOT_FOUND; k++) {
		if (!calls[k].fn && !calls[k].fn_v1)
			continue;
		fn = calls[k].fn;
		r = fetch_procs(calls[k].fn, calls[k].fn_v1, dev->handle, &buf, &n);
	}
	*supported = !(r == GWN_ERROR_NOT_SUPPORTED || r == GWN_ERROR_FUNCTION_NOT_FOUND);
	if (!*supported)
		return 0;
	if (r == GWN_ERROR_MEMORY)
		return gw__error_set(GW_ENOMEM, "out of memory listing GPU processes");
	if (r == GWN_ERROR_GPU_IS_LOST) {
		mark_lost(dev, "GPU_IS_LOST");
		return gw__error_set(GW_ELOST, "GPU %d is lost: it has fallen off the bus", dev->info.index);
	}
	if (r != GWN_SUCCESS)
		return gw__error_set(nvml_code_to_gw(r), "NVML could not list the %s processes of GPU %d (%s)",
				     compute ? "compute" : "graphics", dev->info.index, nvml_code_name(r));
	for (unsigned i = 0; i < n; i++) {
		int rc;

		if (fn) {
			const gwn_process_info *p = &((const gwn_process_info *)buf)[i];

			rc = proc_append(l, p->pid, type, p->usedGpuMemory, p->gpuInstanceId, p->computeInstanceId, true);
		} else {
			const gwn_process_info_v1 *p = &((const gwn_process_info_v1 *)buf)[i];

			rc = proc_append(l, p->pid, type, p->usedGpuMemory, 0, 0, false);
		}
		if (rc < 0) {
			gw__free(buf);
			return rc;
		}
	}
	gw__free(buf);
	return 0;
}

/* Compute and graphics lists; GW_ENOTSUP when neither can be listed (an
 * empty list would claim "no processes"). */
static int nvml_processes(void *state, gw_context *ctx, gw_device *dev, gw_process **out, size_t *count)
{
	struct nvml_state *st = state;
	struct proc_list l = { NULL, 0, 0 };
	bool compute_ok = false, graphics_ok = false;
	int rc;

	(void)ctx;
	if (!st || !dev->handle)
		return gw__error_set(GW_EVENDOR, "GPU %d cannot be read: %s", dev->info.index,
				     dev->info.health_reason[0] ? dev->info.health_reason : "NVML gave no handle");
	if ((rc = list_processes(&st->api, dev, GW_PROCESS_COMPUTE, &l, &compute_ok)) < 0 ||
	    (rc = list_processes(&st->api, dev, GW_PROCESS_GRAPHICS, &l, &graphics_ok)) < 0) {
		gw__free(l.items);
		return rc;
	}
	if (!compute_ok && !graphics_ok) {
		gw__free(l.items);
		return gw__error_set(GW_ENOTSUP, "GPU %d cannot list its processes (NVML: not supported)",
				     dev->info.index);
	}
	*out = l.items;
	*count = l.n;
	return 0;
}

/* ---- per-process utilisation -------------------------------------------- */

/* Keep the newest sample of each pid: the driver's buffer may hold several
 * per process (lastSeenTimeStamp 0 asks for all it has). */
static size_t newest_per_pid(gwn_process_util_sample *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < w && s[k].pid != s[i].pid; k++)
			;
		if (k == w)
			s[w++] = s[i];
		else if (s[i].timeStamp > s[k].timeStamp)
			s[k] = s[i];
	}
	return w;
}

static void util_field(gw_u64 *f, unsigned v)
{
	/* 0xFFFFFFFF and other values above 100 are "not sampled". */
	if (v <= 100)
		gw__u64_set(f, v);
	else
		GW_FIELD_FAIL(*f, GW_FIELD_NOT_SUPPORTED, 0);
}

/* nvmlDeviceGetProcessUtilization with its INSUFFICIENT_SIZE handshake;
 * NOT_FOUND means no process ran in the period (an empty list). */
static int nvml_process_util(void *state, gw_context *ctx, gw_device *dev, gw_process_util **out, size_t *count)
{
	struct nvml_state *st = state;
	gwn_process_util_sample *buf = NULL;
	gw_process_util *list;
	unsigned want = 0;
	gwn_return r;
	size_t n;

	(void)ctx;
	if (!st || !dev->handle || !st->api.process_util)
		return gw__error_set(GW_ENOTSUP, "GPU %d cannot sample its processes' utilisation", dev->info.index);
	r = st->api.process_util(dev->handle, NULL, &want, 0);
	for (int tries = 0; tries < PROCESS_RETRIES && r == GWN_ERROR_INSUFFICIENT_SIZE; tries++) {
		unsigned cap = want + 8;

		gw__free(buf);
		if (want > 65536 || !(buf = gw__calloc(cap, sizeof(*buf))))
			return gw__error_set(GW_ENOMEM, "out of memory reading process utilisation");
		want = cap;
		r = st->api.process_util(dev->handle, buf, &want, 0);
		if (want > cap)
			want = cap;
	}
	if (r == GWN_ERROR_NOT_FOUND || (r == GWN_SUCCESS && (!buf || want == 0))) {
		gw__free(buf);
		*out = NULL;
		*count = 0;
		return 0;
	}
	if (r != GWN_SUCCESS) {
		gw__free(buf);
		if (r == GWN_ERROR_GPU_IS_LOST) {
			mark_lost(dev, "GPU_IS_LOST");
			return gw__error_set(GW_ELOST, "GPU %d is lost: it has fallen off the bus", dev->info.index);
		}
		if (r == GWN_ERROR_NOT_SUPPORTED || r == GWN_ERROR_FUNCTION_NOT_FOUND)
			return gw__error_set(GW_ENOTSUP, "GPU %d does not sample its processes' utilisation",
					     dev->info.index);
		return gw__error_set(nvml_code_to_gw(r), "NVML could not read the process utilisation of GPU %d (%s)",
				     dev->info.index, nvml_code_name(r));
	}
	n = newest_per_pid(buf, want);
	if (!(list = gw__calloc(n ? n : 1, sizeof(*list)))) {
		gw__free(buf);
		return gw__error_set(GW_ENOMEM, "out of memory reading process utilisation");
	}
	for (size_t i = 0; i < n; i++) {
		list[i].pid = buf[i].pid;
		util_field(&list[i].sm_util, buf[i].smUtil);
		util_field(&list[i].mem_util, buf[i].memUtil);
		util_field(&list[i].enc_util, buf[i].encUtil);
		util_field(&list[i].dec_util, buf[i].decUtil);
	}
	gw__free(buf);
	*out = list;
	*count = n;
	return 0;
}

/* ---- Xid events ------------------------------------------------------------
 * Called from the sampler's event thread: they use the resolved API and the
 * devices' handles only (never the device records, which the pass thread
 * owns), and each call returns within its timeout. */

static int nvml_events_open(void *state, void **set)
{
	struct nvml_state *st = state;
	gwn_event_set es = NULL;
	gwn_return r;

	if (!st || !st->api.event_set_create || !st->api.event_set_free || !st->api.register_events ||
	    !st->api.event_set_wait)
		return gw__error_set(GW_ENOTSUP, "this NVML has no event API (nvmlEventSetWait_v2)");
	if ((r = st->api.event_set_create(&es)) != GWN_SUCCESS)
		return gw__error_set(nvml_code_to_gw(r), "NVML could not create an event set (%s)", nvml_code_name(r));
	*set = es;
	return 0;
}

static int nvml_events_add(void *state, void *set, void *handle)
{
	struct nvml_state *st = state;
	gwn_return r = st->api.register_events((gwn_device)handle, GWN_EVENT_XID_CRITICAL, (gwn_event_set)set);

	if (r == GWN_SUCCESS)
		return 0;
	if (r == GWN_ERROR_NOT_SUPPORTED || r == GWN_ERROR_FUNCTION_NOT_FOUND)
		return gw__error_set(GW_ENOTSUP, "this GPU reports no Xid events");
	return gw__error_set(nvml_code_to_gw(r), "NVML could not watch this GPU's Xid events (%s)", nvml_code_name(r));
}

static int nvml_events_wait(void *state, void *set, unsigned timeout_ms, void **handle, uint64_t *xid)
{
	struct nvml_state *st = state;
	gwn_event_data ev;
	gwn_return r;

	memset(&ev, 0, sizeof(ev));
	r = st->api.event_set_wait((gwn_event_set)set, &ev, timeout_ms);
	if (r == GWN_ERROR_TIMEOUT)
		return 0;
	if (r != GWN_SUCCESS)
		return gw__error_set(nvml_code_to_gw(r), "NVML's event wait failed (%s)", nvml_code_name(r));
	if (!(ev.eventType & GWN_EVENT_XID_CRITICAL))
		return 0;
	*handle = ev.device;
	*xid = ev.eventData;
	return 1;
}

static void nvml_events_close(void *state, void *set)
{
	struct nvml_state *st = state;

	if (st && set)
		st->api.event_set_free((gwn_event_set)set);
}

/* ---- topology and peer access ----------------------------------------------- */

/* One int-valued answer about the pair into f; a missing symbol is
 * NOT_SUPPORTED (FUNCTION_NOT_FOUND) like any other getter's. */
static void pair_field(gwn_return r, int v, gw_u64 *f, bool *lost)
{
	if (r == GWN_ERROR_GPU_IS_LOST)
		*lost = true;
	if (r == GWN_SUCCESS && v >= 0)
		gw__u64_set(f, (uint64_t)v);
	else
		FAIL(*f, r == GWN_SUCCESS ? GWN_ERROR_UNKNOWN : r);
}

static int nvml_peer(void *state, gw_context *ctx, gw_device *a, gw_device *b, gw_peer_info *out)
{
	struct nvml_state *st = state;
	bool lost = false;
	gwn_return r;
	int v = -1;

	(void)ctx;
	if (!st || !a->handle || !b->handle)
		return gw__error_set(GW_EVENDOR, "NVML gave no handle for GPU %d or GPU %d", a->info.index,
				     b->info.index);
	r = st->api.topology ? st->api.topology(a->handle, b->handle, &v) : GWN_ERROR_FUNCTION_NOT_FOUND;
	pair_field(r, v, &out->topology, &lost);
	for (int c = 0; c < GW_P2P_CAP_COUNT && !lost; c++) {
		v = -1;
		r = st->api.p2p_status ? st->api.p2p_status(a->handle, b->handle, c, &v) : GWN_ERROR_FUNCTION_NOT_FOUND;
		pair_field(r, v, &out->p2p[c], &lost);
	}
	if (lost)
		return gw__error_set(GW_ELOST, "GPU %d or GPU %d is lost: it has fallen off the bus", a->info.index,
				     b->info.index);
	return 0;
}

const gw_backend gw__backend_nvml = {
	.name = "nvml",
	.id = GW_BACKEND_ID_NVML,
	.open = nvml_open,
	.close = nvml_close,
	.sample = nvml_sample,
	.processes = nvml_processes,
	.process_util = nvml_process_util,
	.events_open = nvml_events_open,
	.events_add = nvml_events_add,
	.events_wait = nvml_events_wait,
	.events_close = nvml_events_close,
	.peer = nvml_peer,
};
