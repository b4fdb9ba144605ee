/* gpuwise — the context: the caller-owned handle on one view of the machine.
 *
 *   gw_context *ctx;
 *   gw_options opts = GW_OPTIONS_INIT;
 *   if (gw_context_new(&ctx, &opts) < 0) { puts(gw_error_last()); ... }
 *   for (int i = 0; i < gw_device_count(ctx); i++) {
 *       const gw_device_info *d = gw_device_get(ctx, i);
 *       gw_device_sample s;
 *       gw_device_sample_read(ctx, i, &s);
 *   }
 *   gw_context_free(ctx);
 *
 * gw_context_new succeeds even when no GPU or no vendor library is present:
 * the reasons are in gw_context_backends(). A context is not thread-safe;
 * use one per thread, or lock around it.
 */
#ifndef GPUWISE_CONTEXT_H
#define GPUWISE_CONTEXT_H

#include "gpuwise/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gw_context gw_context;

#define GW_OPTIONS_VERSION 1
typedef struct gw_options {
	unsigned version;        /* GW_OPTIONS_VERSION */
	const char *root;        /* file-system prefix; NULL = $GPUWISE_ROOT or "/" */
	const char *nvml_library;/* NULL = $GPUWISE_NVML_LIBRARY or "libnvidia-ml.so.1" */
	const char *cuda_library;/* NULL = $GPUWISE_CUDA_LIBRARY or "libcuda.so.1" */
	unsigned flags;          /* GW_OPT_* */
} gw_options;
#define GW_OPTIONS_INIT { GW_OPTIONS_VERSION, NULL, NULL, NULL, 0 }

enum {
	GW_OPT_NO_NVML = 0x1,    /* skip the NVML backend */
	GW_OPT_NO_CUDA = 0x2,    /* skip the CUDA driver backend */
	GW_OPT_NO_SYSFS = 0x4    /* skip the PCI and amdgpu sysfs backends */
};

/* What happened when a backend was opened. */
typedef enum gw_backend_state {
	GW_BACKEND_NOT_TRIED = 0,
	GW_BACKEND_OK = 1,
	GW_BACKEND_LIBRARY_MISSING = 2, /* dlopen failed */
	GW_BACKEND_INIT_FAILED = 3,     /* loaded, but init returned an error */
	GW_BACKEND_NOTHING_FOUND = 4    /* ran fine, found no devices of its kind */
} gw_backend_state;

typedef struct gw_backend_status {
	const char *name;        /* "nvml", "cuda", "amdgpu", "pci" */
	gw_backend_state state;
	int error;               /* gw_error code for the failure, 0 if none */
	int vendor_code;         /* e.g. NVML_ERROR_DRIVER_NOT_LOADED (9), CUDA_ERROR_* */
	char vendor_code_name[48]; /* "DRIVER_NOT_LOADED", "CUDA_ERROR_NO_DEVICE" */
	char library[256];       /* path or soname that was (tried to be) loaded */
	char message[512];       /* one sentence on what went wrong, "" when OK (a longer one ends in "…") */
	gw_backend_id id;        /* which backend, as a number to compare */
} gw_backend_status;

/* Driver-wide facts. */
typedef struct gw_driver_info {
	gw_str driver_version;   /* NVIDIA user-space driver, "550.54.15" */
	gw_str nvml_version;     /* "12.550.54.15" */
	gw_u64 cuda_driver_version; /* highest CUDA the driver supports, 12040 form (NVML's or libcuda's) */
	gw_str kernel_module_version; /* /proc/driver/nvidia/version or /sys/module/nvidia/version */
	gw_str amdgpu_version;   /* /sys/module/amdgpu/version, when present */
} gw_driver_info;

/* Create a context and enumerate every GPU. opts may be NULL. */
int gw_context_new(gw_context **out, const gw_options *opts);
void gw_context_free(gw_context *ctx);

/* The resolved file-system root ("/" or $GPUWISE_ROOT); NULL for a NULL ctx. */
const char *gw_context_root(const gw_context *ctx);

/* Number of devices enumerated (all vendors, including lost / driverless
 * ones); 0 for a NULL ctx. */
int gw_device_count(const gw_context *ctx);

/* Static facts of device `index` (0..count-1), NULL when out of range or ctx is NULL. */
const gw_device_info *gw_device_get(const gw_context *ctx, int index);
/* Device index's health_reason in the user's language, as
 * gw_error_last_text() gives the last error: the catalogue's translation
 * (gw_translate, the process locale) in buf (size bytes), or the English
 * health_reason copied there when there is none; returns buf (the field
 * itself for a NULL buf). "" for a bad index. */
const char *gw_device_health_reason(const gw_context *ctx, int index, char *buf, size_t size);

/* Find one GPU by gpuwise index ("0"), UUID or unique UUID prefix
 * ("GPU-8a5f", "8a5f", "33135771"), or PCI bus id ("0000:18:00.0",
 * "18:00.0"), by the rules of gw_context_select() for whole GPUs.
 * Returns 0 and the index in *out, or GW_ENOTFOUND / GW_EINVAL. */
int gw_device_find(const gw_context *ctx, const char *selector, int *out);

/* What a selector picked: a GPU (mig = -1), or MIG device `mig` of GPU
 * `device` (an index into gw_device_sample.mig, as `gpuwise list` numbers
 * it "device:mig"). */
typedef struct gw_selection {
	int device;
	int mig;
} gw_selection;

/* Resolve a comma-separated list of selectors, each one of:
 *   "3"            gpuwise index (digits only, fewer than 8 of them)
 *   "0:1"          MIG device 1 of GPU 0, as `gpuwise list` numbers it
 *   "GPU-8a5f...", "MIG-8a3b..."  a UUID or a unique prefix of one
 *   "8a5f0c1e", "33135771"        a unique UUID prefix without GPU-/MIG-:
 *                  what `gpuwise list` prints (8 or more digits are always
 *                  a UUID prefix, never an index)
 *   "0000:18:00.0", "18:00.0"     PCI bus id
 * UUID comparison ignores case and dashes. The result is in the order
 * given, duplicates dropped, as a malloc'd array in *out (free it with
 * gw_selection_free()) of *count entries. MIG devices are found through a
 * fresh sample of their GPU. Returns 0, GW_ENOTFOUND when an entry matches
 * nothing, GW_EINVAL when one is empty or matches more than one device
 * (the message names the entry); *out is untouched on failure. */
int gw_context_select(gw_context *ctx, const char *selectors, gw_selection **out, size_t *count);
void gw_selection_free(gw_selection *selection);

/* Read a fresh dynamic sample of device `index`. Fields a device lacks are
 * NOT_SUPPORTED; a device that is lost returns GW_ELOST. */
int gw_device_sample_read(gw_context *ctx, int index, gw_device_sample *out);

/* The processes using device `index` (compute and graphics merged by pid),
 * with user and command resolved through /proc. *out is allocated; free it
 * with gw_processes_free(). An empty list is *out = NULL, *count = 0.
 * GW_ENOTSUP when nothing can list them (a GPU without a driver, an Intel GPU,
 * NVML without process calls): unknown, which is not "none". */
int gw_device_processes(gw_context *ctx, int index, gw_process **out, size_t *count);
void gw_processes_free(gw_process *list);

/* The path between two GPUs of this node and what the driver says of
 * peer-to-peer access over it (NVML's nvmlDeviceGetTopologyCommonAncestor
 * and nvmlDeviceGetP2PStatus; `nvidia-smi topo -m` and `topo -p2p`). The
 * values are NVML's own numbers. */
typedef enum gw_topology_level {
	GW_TOPOLOGY_INTERNAL = 0,     /* one board (Tesla K80) */
	GW_TOPOLOGY_SINGLE = 10,      /* PIX: through one PCIe switch */
	GW_TOPOLOGY_MULTIPLE = 20,    /* PXB: several PCIe switches, no host bridge */
	GW_TOPOLOGY_HOSTBRIDGE = 30,  /* PHB: through a PCIe host bridge */
	GW_TOPOLOGY_NODE = 40,        /* NODE: host bridges of one NUMA node */
	GW_TOPOLOGY_SYSTEM = 50       /* SYS: across the CPU sockets' interconnect */
} gw_topology_level;

typedef enum gw_p2p_cap {
	GW_P2P_READ = 0,
	GW_P2P_WRITE = 1,
	GW_P2P_NVLINK = 2,
	GW_P2P_ATOMICS = 3,
	GW_P2P_PCI = 4,
	GW_P2P_CAP_COUNT = 5
} gw_p2p_cap;

typedef enum gw_p2p_status {
	GW_P2P_OK = 0,
	GW_P2P_CHIPSET_NOT_SUPPORTED = 1,
	GW_P2P_GPU_NOT_SUPPORTED = 2,
	GW_P2P_IOH_TOPOLOGY_NOT_SUPPORTED = 3,
	GW_P2P_DISABLED_BY_REGKEY = 4,
	GW_P2P_NOT_SUPPORTED = 5,
	GW_P2P_UNKNOWN = 6
} gw_p2p_status;

typedef struct gw_peer_info {
	gw_u64 topology;               /* a gw_topology_level */
	gw_u64 p2p[GW_P2P_CAP_COUNT];  /* a gw_p2p_status per gw_p2p_cap, from a to b */
} gw_peer_info;

/* Fill *out for GPUs a and b (a != b, both served by one backend that
 * knows peers: NVML). A value the driver does not give is NOT_SUPPORTED or
 * ERROR with its code. GW_EINVAL for a bad index or a == b, GW_ELOST when
 * either GPU is lost, GW_ENOTSUP when no backend can tell (AMD, PCI only). */
int gw_device_peer(gw_context *ctx, int a, int b, gw_peer_info *out);
/* "PIX", "PXB", "PHB", "NODE", "SYS" (nvidia-smi topo -m), "INTERNAL"; NULL if unknown. */
const char *gw_topology_level_name(gw_topology_level level);
/* "read", "write", "nvlink", "atomics", "pci"; NULL if unknown. */
const char *gw_p2p_cap_name(gw_p2p_cap cap);
/* "ok", "chipset_not_supported", "gpu_not_supported", "ioh_topology_not_supported",
 * "disabled_by_regkey", "not_supported", "unknown"; NULL if out of range. */
const char *gw_p2p_status_name(gw_p2p_status status);

/* Driver facts (never NULL: for a NULL ctx, a static one with every field UNREAD). */
const gw_driver_info *gw_context_driver(const gw_context *ctx);

/* Backend statuses, in backend order. *count (when count is not NULL)
 * receives how many; NULL and 0 for a NULL ctx. */
const gw_backend_status *gw_context_backends(const gw_context *ctx, int *count);

/* The status of one backend by name, NULL if unknown (or ctx or name is NULL). */
const gw_backend_status *gw_context_backend(const gw_context *ctx, const char *name);
/* The same by id: code should use this, names are for people. */
const gw_backend_status *gw_context_backend_by_id(const gw_context *ctx, gw_backend_id id);
/* st->message (st one of ctx's statuses) in the user's language, as
 * gw_error_last_text() gives the last error: the catalogue's translation
 * (gw_translate, the process locale) put together in buf (size bytes),
 * or st->message copied there when it has none; returns buf (st->message
 * for a NULL buf). "" for a NULL st. */
const char *gw_context_backend_message(const gw_context *ctx, const gw_backend_status *st, char *buf, size_t size);

/* Helpers for printing. */
const char *gw_vendor_name(gw_vendor v);        /* "nvidia", "amd", "intel", "unknown" */
const char *gw_health_name(gw_health h);        /* "ok", "lost", "error", "no-driver", "unsupported" */
const char *gw_field_state_name(gw_field_state s);
const char *gw_backend_state_name(gw_backend_state s);

/* The library's version string, e.g. "0.1.0". */
const char *gw_version(void);

#ifdef __cplusplus
}
#endif
#endif
