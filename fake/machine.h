/* gpuwise fakes — the machine.json model shared by the fake libnvidia-ml
 * and libcuda (docs/contracts.md "Fake machines").
 *
 * machine.json is read once per library (pthread_once) from the path in
 * GPUWISE_FAKE_MACHINE, validated completely, and turned into the C model
 * below. Any problem (unset variable, unreadable file, bad JSON, a field of
 * the wrong type) prints one line on stderr and makes init fail with
 * UNKNOWN; nothing here ever aborts.
 *
 * Field reference (everything optional; missing or null = NOT_SUPPORTED).
 * Any number may be an array of numbers: successive calls of one getter on
 * one device read successive elements, the last repeating. Counters are per
 * device and per (function, argument), e.g. GetClockInfo(SM) and
 * GetClockInfo(MEM) advance separately. Numbers may also be "0x..." strings.
 *
 *   schema 1, description
 *   nvml.init (code name), nvml.driver_version, nvml.nvml_version,
 *   nvml.cuda_driver_version, nvml.devices[]:
 *     name uuid serial board_part_number vbios_version minor_number
 *     pci.{bus_id domain bus device pci_device_id pci_subsystem_id}
 *     architecture cuda_compute_capability[2] multiprocessor_count num_gpu_cores
 *     memory.{total reserved used}  bar1_memory.{total used}
 *     utilization.{gpu memory} encoder_utilization decoder_utilization
 *     temperature.{gpu memory slowdown shutdown} fan_speed
 *     power.{usage enforced_limit management_limit total_energy}
 *     clocks.{graphics sm mem video} max_clocks.{...} performance_state
 *     pcie.{curr_gen curr_width max_gen max_width gpu_max_gen tx rx replay_counter}
 *     persistence_mode compute_mode display_mode display_active
 *     ecc.{current pending corrected_volatile uncorrected_volatile
 *          corrected_aggregate uncorrected_aggregate}
 *     remapped_rows.{correctable uncorrectable pending failure}
 *     retired_pages.{multiple_single_bit double_bit pending}   (counts)
 *     clocks_event_reasons memory_bus_width l2_cache_size   (last two: libcuda)
 *     mig.{current pending max_devices devices[]}: MIG devices take the same
 *       fields plus gpu_instance_id, compute_instance_id; PCI, architecture
 *       and compute capability fall back to the parent's.
 *     processes.{compute graphics mps}[]: pid (number or "$SLEEPER"),
 *       used_gpu_memory (null = N/A), gpu_instance_id, compute_instance_id,
 *       name, sm_util mem_util enc_util dec_util (GetProcessUtilization
 *       samples: processes with sm_util). When "processes" is an object, a
 *       missing list is empty; when it is missing or null, every process
 *       call answers NOT_SUPPORTED.
 *     xid_events[]: Xid errors the fake's event sets deliver (nvmlEventSetWait_v2)
       after nvmlDeviceRegisterEvents(nvmlEventTypeXidCriticalError) on this
       device: a number (the Xid, due at once) or {"xid": N, "after_ms": M}
       (due M ms after the registration), delivered once each, in order.
       Errors on "nvmlEventSetWait" apply per wait to a set holding the device.
     topology[]: per peer, by its NVML index, the level
 *       nvmlDeviceGetTopologyCommonAncestor gives for (this device, peer):
 *       a number (0 10 20 30 40 50) or a name, NVML's (INTERNAL SINGLE
 *       MULTIPLE HOSTBRIDGE NODE SYSTEM) or nvidia-smi topo -m's (PIX PXB
 *       PHB NODE SYS); null, or no entry: NOT_SUPPORTED.
 *     p2p.{read write nvlink atomics pci}[]: per peer, by NVML index, the
 *       nvmlGpuP2PStatus_t nvmlDeviceGetP2PStatus gives for that capability
 *       index: a number or a name (OK CHIPSET_NOT_SUPPORTED GPU_NOT_SUPPORTED
 *       IOH_TOPOLOGY_NOT_SUPPORTED DISABLED_BY_REGKEY NOT_SUPPORTED UNKNOWN,
 *       prefix NVML_P2P_STATUS_ optional); null or no entry: the call
 *       answers NOT_SUPPORTED. MIG devices have neither (NOT_SUPPORTED).
 *     nvlinks[]: per NVLink link, by link number (at most 18): null (the
 *       link answers NOT_SUPPORTED) or {state, tx_kib, rx_kib}: state 0/1
 *       or "inactive"/"active" (nvmlDeviceGetNvLinkState), tx_kib/rx_kib
 *       the NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX/RX field values (KiB,
 *       scopeId = link; sequences advance per nvmlDeviceGetFieldValues
 *       call); a missing member answers NOT_SUPPORTED. No "nvlinks": every
 *       link answers NOT_SUPPORTED.
 *     errors: {"nvmlDeviceGetX": CODE}; a name without _vN applies to every
 *       version of the call; "*" applies to every device call. CODE is a
 *       name ("GPU_IS_LOST", "NVML_ERROR_UNKNOWN"), a number, or an array.
 *     bench.{h2d_gbs d2h_gbs h2d_pageable_gbs d2h_pageable_gbs memory_gbs
 *       memory_ce_gbs p2p_gbs launch_us tflops.{fp32 tf32 fp16 bf16 fp8}}: what the fake
 *       libcuda's "GPU" delivers to `gpuwise bench` (GB/s = 1e9 bytes/s;
 *       memory_gbs counts bytes read plus written, for gpuwise's copy kernel,
 *       memory_ce_gbs the same for cuMemcpyDtoD (default: memory_gbs);
 *       numbers, fractions allowed;
 *       missing: the defaults of fake/fake_cuda_exec.c). The fake executes
 *       no kernel: copies and GEMMs take the time these figures give
 *       (tflops: the fake libcublasLt's cublasLtMatmul).
 *   cuda.init (CUresult name), cuda.driver_version (default
 *   nvml.cuda_driver_version), cuda.fastest_first_order (NVML indices).
 */
#ifndef GPUWISE_FAKE_MACHINE_H
#define GPUWISE_FAKE_MACHINE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* A number, possibly a sequence. set = 0: missing or null. */
typedef struct {
	int set;
	unsigned n;
	int64_t *v;
} fm_num;

enum fm_num_id {
	FN_MINOR, FN_PCI_DOMAIN, FN_PCI_BUS, FN_PCI_DEVICE, FN_PCI_DEVICE_ID, FN_PCI_SUBSYS_ID,
	FN_ARCH, FN_CC_MAJOR, FN_CC_MINOR, FN_MP_COUNT, FN_CORES,
	FN_MEM_TOTAL, FN_MEM_RESERVED, FN_MEM_USED, FN_BAR1_TOTAL, FN_BAR1_USED,
	FN_UTIL_GPU, FN_UTIL_MEM, FN_ENC_UTIL, FN_DEC_UTIL,
	FN_TEMP_GPU, FN_TEMP_MEM, FN_TEMP_SLOWDOWN, FN_TEMP_SHUTDOWN, FN_FAN,
	FN_POWER_USAGE, FN_POWER_ENFORCED, FN_POWER_MGMT, FN_ENERGY,
	FN_CLK_GRAPHICS, FN_CLK_SM, FN_CLK_MEM, FN_CLK_VIDEO,
	FN_MAXCLK_GRAPHICS, FN_MAXCLK_SM, FN_MAXCLK_MEM, FN_MAXCLK_VIDEO,
	FN_PSTATE,
	FN_PCIE_CURR_GEN, FN_PCIE_CURR_WIDTH, FN_PCIE_MAX_GEN, FN_PCIE_MAX_WIDTH,
	FN_PCIE_GPU_MAX_GEN, FN_PCIE_TX, FN_PCIE_RX, FN_PCIE_REPLAY,
	FN_PERSISTENCE, FN_COMPUTE_MODE, FN_DISPLAY_MODE, FN_DISPLAY_ACTIVE,
	FN_ECC_CURRENT, FN_ECC_PENDING, FN_ECC_CORR_VOL, FN_ECC_UNC_VOL, FN_ECC_CORR_AGG, FN_ECC_UNC_AGG,
	FN_RR_CORR, FN_RR_UNC, FN_RR_PENDING, FN_RR_FAILURE,
	FN_RETIRED_SBE, FN_RETIRED_DBE, FN_RETIRED_PENDING,
	FN_EVENT_REASONS, FN_MEM_BUS_WIDTH, FN_L2_CACHE,
	FN_MIG_CURRENT, FN_MIG_PENDING, FN_MIG_MAX,
	FN_GI_ID, FN_CI_ID,
	FN_GPM_GRAPHICS, FN_GPM_SM, FN_GPM_SM_OCCUPANCY, FN_GPM_TENSOR, FN_GPM_DRAM,
	FN_GPM_FP64, FN_GPM_FP32, FN_GPM_FP16, FN_GPM_PCIE_TX, FN_GPM_PCIE_RX,
	FN_GPM_NVLINK_TX, FN_GPM_NVLINK_RX,
	FN_COUNT
};

enum fm_str_id { FS_NAME, FS_UUID, FS_SERIAL, FS_PART, FS_VBIOS, FS_BUS_ID, FS_COUNT };

typedef struct {
	int sleeper;            /* pid was "$SLEEPER" */
	int64_t pid;
	char *name;
	fm_num used_memory, gi, ci, sm, mem, enc, dec;
} fm_process;

typedef struct {
	fm_process *p;
	size_t n;
} fm_proc_list;

enum { FM_PROC_COMPUTE, FM_PROC_GRAPHICS, FM_PROC_MPS, FM_PROC_KINDS };

typedef struct {
	char *fn;               /* function name or "*" */
	fm_num code;
} fm_error;

typedef struct {
	const char *fn;         /* string literal (__func__) */
	int sub;                /* argument that splits the counter */
	unsigned calls;
} fm_counter;

#define FM_MAX_COUNTERS 192
#define FM_MAX_DEVICES 1024      /* nvml.devices entries */

/* The "bench" block: a figure and whether machine.json gave it. */
enum fm_bench_id {
	FB_H2D, FB_D2H, FB_H2D_PAGEABLE, FB_D2H_PAGEABLE, FB_MEMORY, FB_MEMORY_CE, FB_P2P, FB_LAUNCH_US,
	FB_FP32, FB_TF32, FB_FP16, FB_BF16, FB_FP8, FB_COUNT
};

typedef struct {
	int set;
	double v;
} fm_real;

/* One Xid event of "xid_events": its value, due after_ms after the
 * device is registered for events. */
typedef struct {
	int64_t xid;
	int64_t after_ms;
} fm_xid;

/* "topology" and "p2p": one value per peer NVML index, -1 for null. */
enum fm_p2p_cap { FM_P2P_READ, FM_P2P_WRITE, FM_P2P_NVLINK, FM_P2P_ATOMICS, FM_P2P_PCI, FM_P2P_CAPS };
typedef struct {
	int *v;
	size_t n;
} fm_peer_list;

/* "nvlinks": one entry per NVLink link (at most NVML's 18): its state
 * (0/1, "inactive"/"active"; null: NOT_SUPPORTED) and data counters in
 * KiB. present = 0: a null entry (the link answers NOT_SUPPORTED). */
#define FM_MAX_NVLINKS 18
typedef struct {
	int present;
	fm_num state, tx_kib, rx_kib;
} fm_nvlink;

typedef struct fm_device fm_device;
struct fm_device {
	uint32_t magic;
	int index;              /* NVML index; MIG devices: slot under the parent */
	fm_device *parent;      /* MIG devices only */
	fm_num num[FN_COUNT];
	char *str[FS_COUNT];
	int has_processes;
	fm_proc_list procs[FM_PROC_KINDS];
	fm_error *errors;
	size_t nerrors;
	fm_device *mig;         /* MIG devices of this GPU */
	size_t nmig;
	int has_mig;            /* the "mig" object is present */
	fm_real bench[FB_COUNT];
	fm_peer_list topology;  /* nvmlGpuTopologyLevel_t per peer */
	fm_peer_list p2p[FM_P2P_CAPS];  /* nvmlGpuP2PStatus_t per peer */
	fm_nvlink *nvlinks;     /* "nvlinks"; NULL: no NVLink */
	size_t nnvlinks;
	fm_xid *xids;           /* "xid_events", in order */
	size_t nxids;
	fm_counter counters[FM_MAX_COUNTERS];
	size_t ncounters;
};

typedef struct {
	int nvml_init;          /* nvmlReturn_t */
	char *driver_version, *nvml_version;
	fm_num cuda_driver_version;
	fm_device *devices;
	size_t ndevices;
	int cuda_init;          /* CUresult */
	fm_num cuda_version;    /* cuDriverGetVersion */
	int *ffo;               /* fastest_first_order, NULL when absent */
	size_t nffo;
	pthread_mutex_t lock;   /* counters */
} fm_machine;

/* Parse machine.json text. NULL with a "line:col: what" message in err. */
fm_machine *fm_machine_parse(const char *text, size_t len, char *err, size_t errsz);
void fm_machine_free(fm_machine *m);

/* The machine of GPUWISE_FAKE_MACHINE, loaded once per process; NULL when
 * it cannot be loaded (one line already printed, prefixed "fake <who>: "). */
const fm_machine *fm_machine_get(const char *who);

/* Value of f for call number idx (0-based): the last element repeats. */
int64_t fm_at(const fm_num *f, unsigned idx);
/* Counts a call of fn(sub) on d; returns its 0-based number. Thread-safe. */
unsigned fm_tick(const fm_machine *m, const fm_device *d, const char *fn, int sub);
/* Takes back the last fm_tick (a sizing call that returned INSUFFICIENT_SIZE
 * should not advance the sequence the filling call reads). */
void fm_untick(const fm_machine *m, const fm_device *d, const char *fn, int sub);
/* The return code "errors" gives fn on d for call idx, 0 when none. */
int fm_error_for(const fm_device *d, const char *fn, unsigned idx);
/* Field with MIG fallback to the parent for PCI, architecture and CC. */
const fm_num *fm_field(const fm_device *d, enum fm_num_id id);
const char *fm_str(const fm_device *d, enum fm_str_id id);
/* errors["*"] names a failure: the GPU is lost to CUDA as well. */
int fm_device_lost(const fm_device *d);
/* The pid a process entry stands for now ($SLEEPER resolved). */
int64_t fm_process_pid(const fm_process *p);
/* 16 raw bytes from "GPU-xxxxxxxx-xxxx-..." / "MIG-..."; -1 if not 32 hex digits. */
int fm_uuid_bytes(const char *uuid, unsigned char out[16]);

/* Return-code names: "GPU_IS_LOST" -> 15 (prefix NVML_ERROR_ optional). */
int fm_nvml_code(const char *name, int *out);
const char *fm_nvml_code_name(int code);     /* "GPU_IS_LOST", NULL if unknown */
int fm_cuda_code(const char *name, int *out);
const char *fm_cuda_code_name(int code);     /* "NO_DEVICE", NULL if unknown */

#define FM_DEVICE_MAGIC 0x6e766d6cu

#endif
