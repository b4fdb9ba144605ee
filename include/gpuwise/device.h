/* gpuwise — the device model.
 *
 * A context (gw_context, see context.h) enumerates every GPU of the machine
 * through all backends at once: NVML and the CUDA driver for NVIDIA, sysfs
 * for AMD, and the PCI bus for GPUs that no driver serves. Each device has
 * static facts (gw_device_info, read once) and a dynamic sample
 * (gw_device_sample, read on demand).
 *
 * Every field carries a state, so "unknown" is never shown as 0:
 *   GW_FIELD_UNREAD         nothing tried to read it (no backend knows it)
 *   GW_FIELD_VALID          the value is good
 *   GW_FIELD_NOT_SUPPORTED  the device or driver does not have it
 *   GW_FIELD_ERROR          reading failed; `code` holds the vendor's code
 *
 * Units are SI base units except clocks, which are MHz everywhere:
 * bytes, watts, joules, degrees Celsius, percent 0-100.
 */
#ifndef GPUWISE_DEVICE_H
#define GPUWISE_DEVICE_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gw_field_state {
	GW_FIELD_UNREAD = 0,
	GW_FIELD_VALID = 1,
	GW_FIELD_NOT_SUPPORTED = 2,
	GW_FIELD_ERROR = 3
} gw_field_state;

/* An unsigned integer field: counts, bytes, MHz, percent, enums. */
typedef struct gw_u64 {
	uint64_t v;
	gw_field_state state;
	int code; /* vendor return code when state == GW_FIELD_ERROR */
} gw_u64;

/* A floating-point field: watts, joules, degrees. */
typedef struct gw_f64 {
	double v;
	gw_field_state state;
	int code;
} gw_f64;

#define GW_STR_MAX 96
/* A string field (NUL-terminated; a longer text is cut to GW_STR_MAX-1 bytes ending in "…"). */
typedef struct gw_str {
	char s[GW_STR_MAX];
	gw_field_state state;
	int code;
} gw_str;

#define GW_VALID(f) ((f).state == GW_FIELD_VALID)

typedef enum gw_vendor {
	GW_VENDOR_UNKNOWN = 0,
	GW_VENDOR_NVIDIA = 1,
	GW_VENDOR_AMD = 2,
	GW_VENDOR_INTEL = 3
} gw_vendor;

typedef enum gw_health {
	GW_HEALTH_OK = 0,
	GW_HEALTH_LOST = 1,      /* fell off the bus / GPU_IS_LOST / UNKNOWN from the handle */
	GW_HEALTH_ERROR = 2,     /* the vendor library refused this device */
	GW_HEALTH_NO_DRIVER = 3, /* on the PCI bus, but no usable driver reads it */
	GW_HEALTH_UNSUPPORTED = 4 /* its driver works, but gpuwise cannot read this kind of GPU (Intel) */
} gw_health;

/* Bits of gw_device_sample.throttle_reasons (NVML's clock event reasons). */
enum {
	GW_THROTTLE_GPU_IDLE = 0x1,
	GW_THROTTLE_APP_CLOCKS = 0x2,
	GW_THROTTLE_SW_POWER_CAP = 0x4,
	GW_THROTTLE_HW_SLOWDOWN = 0x8,
	GW_THROTTLE_SYNC_BOOST = 0x10,
	GW_THROTTLE_SW_THERMAL = 0x20,
	GW_THROTTLE_HW_THERMAL = 0x40,
	GW_THROTTLE_HW_POWER_BRAKE = 0x80,
	GW_THROTTLE_DISPLAY_CLOCKS = 0x100
};

/* Static facts, read once when the context is created. */
/* The backends, as numbers: code compares these, never the names. */
typedef enum gw_backend_id {
	GW_BACKEND_ID_NONE = 0,
	GW_BACKEND_ID_NVML = 1,   /* "nvml": NVIDIA through libnvidia-ml.so.1 */
	GW_BACKEND_ID_AMDGPU = 2, /* "amdgpu": AMD through sysfs */
	GW_BACKEND_ID_PCI = 3,    /* "pci": any GPU on the PCI bus, and its kernel driver */
	GW_BACKEND_ID_CUDA = 4    /* "cuda": libcuda.so.1, CUDA's order and facts */
} gw_backend_id;

typedef struct gw_device_info {
	int index;            /* gpuwise index: NVIDIA in NVML order, then AMD, then others */
	int cuda_index;       /* index CUDA gives it in this process, -1 if hidden/none */
	int nvml_index;       /* NVML index, -1 if not an NVML device */
	gw_vendor vendor;
	gw_health health;
	char health_reason[512]; /* why, when health != OK ("GPU is lost", "no driver bound");
				  * a longer reason ends in "…" */
	const char *backend;  /* "nvml", "amdgpu", "pci" (for people; compare backend_id) */
	gw_backend_id backend_id; /* the backend that owns it; GW_BACKEND_ID_NONE if none */

	gw_str name;
	gw_str uuid;          /* "GPU-xxxxxxxx-..." for NVIDIA */
	gw_str serial;
	gw_str board_part_number;
	gw_str vbios_version;
	gw_str pci_bus_id;    /* normalised "0000:18:00.0" (lower-case hex, 4-digit domain) */
	gw_u64 pci_vendor_id; /* 0x10de, 0x1002, 0x8086 */
	gw_u64 pci_device_id; /* device part only, e.g. 0x2330 */
	gw_u64 pci_subsystem_id; /* NVML's 32-bit form (device<<16 | vendor) */
	gw_str kernel_driver; /* driver bound on the PCI bus: "nvidia", "nouveau", "amdgpu", "" */
	gw_u64 minor_number;  /* /dev/nvidiaN */

	gw_str architecture;  /* "Hopper", "Ampere", "CDNA3", ... */
	gw_u64 cc_major;      /* CUDA compute capability */
	gw_u64 cc_minor;
	gw_str gfx_target;    /* AMD: "gfx942" */
	gw_u64 multiprocessor_count; /* SMs (NVIDIA) or compute units (AMD) */
	gw_u64 cuda_cores;

	gw_u64 memory_total;  /* bytes */
	gw_u64 bar1_total;    /* bytes */
	gw_u64 max_sm_clock;  /* MHz */
	gw_u64 max_mem_clock; /* MHz */
	gw_u64 max_graphics_clock; /* MHz */
	gw_u64 pcie_max_gen;  /* max with this device and system */
	gw_u64 pcie_max_width;
	gw_u64 pcie_gpu_max_gen; /* the device alone */
	gw_u64 mig_capable;   /* 1 when the GPU supports MIG at all */
	/* 1 when gw_device_sample.memory_used counts the reserved memory too
	 * (a driver without nvmlDeviceGetMemoryInfo_v2, the 470 branch), 0 when
	 * it does not. At the end: gw_device_info is the library's to allocate. */
	gw_u64 memory_used_includes_reserved;
	/* 1 when NVML's GPM (nvmlGpmQueryDeviceSupport: Hopper and newer, a
	 * driver that has it) serves the profiling metrics of
	 * gw_device_sample, 0 when it does not (NOT_SUPPORTED: no GPM call, an
	 * older GPU, AMD). Added at the end (the library allocates it). */
	gw_u64 gpm_supported;
} gw_device_info;

#define GW_MAX_MIG 8

typedef struct gw_mig_device {
	gw_str uuid;          /* "MIG-..." */
	gw_str name;          /* "NVIDIA A100-SXM4-40GB MIG 3g.20gb" */
	gw_u64 gpu_instance_id;
	gw_u64 compute_instance_id;
	gw_u64 multiprocessor_count;
	gw_u64 memory_total;  /* bytes */
	gw_u64 memory_used;
	gw_u64 memory_free;
	int cuda_index;       /* index CUDA gives this MIG device in this process, -1 if none */
} gw_mig_device;

/* One NVLink link of a GPU (NVIDIA): whether it is up and the data bytes
 * it carried since the driver loaded (NVML's NVLINK_THROUGHPUT_DATA fields,
 * payload only, in bytes). */
#define GW_MAX_NVLINKS 18   /* NVML_NVLINK_MAX_LINKS */
typedef struct gw_nvlink_sample {
	gw_u64 active;        /* 0/1 (nvmlDeviceGetNvLinkState) */
	gw_u64 tx_bytes;      /* counter, bytes sent */
	gw_u64 rx_bytes;      /* counter, bytes received */
} gw_nvlink_sample;

/* A dynamic sample, read by gw_device_sample_read(). */
typedef struct gw_device_sample {
	gw_u64 memory_used;   /* bytes allocated (NVML v2 meaning: excludes reserved) */
	gw_u64 memory_free;
	gw_u64 memory_reserved;
	gw_u64 bar1_used;
	gw_u64 gpu_util;      /* percent */
	gw_u64 mem_util;      /* percent */
	gw_u64 encoder_util;
	gw_u64 decoder_util;
	gw_f64 temperature;   /* °C */
	gw_f64 temperature_memory;
	gw_f64 temperature_slowdown;
	gw_f64 temperature_shutdown;
	gw_u64 fan_percent;
	gw_f64 power_draw;    /* W */
	gw_f64 power_limit;   /* W, enforced */
	gw_f64 power_management_limit; /* W */
	gw_f64 energy;        /* J since driver load */
	gw_u64 sm_clock;      /* MHz */
	gw_u64 mem_clock;
	gw_u64 graphics_clock;
	gw_u64 video_clock;
	gw_u64 pstate;        /* 0-15 */
	gw_u64 pcie_gen;
	gw_u64 pcie_width;
	gw_u64 pcie_tx;       /* bytes/s */
	gw_u64 pcie_rx;
	gw_u64 pcie_replay_counter;
	gw_u64 persistence_mode; /* 0/1 */
	gw_u64 compute_mode;  /* 0 default, 2 prohibited, 3 exclusive-process */
	gw_u64 display_mode;
	gw_u64 throttle_reasons; /* GW_THROTTLE_* bits */
	gw_u64 ecc_current;   /* ECC enabled now (0/1) */
	gw_u64 ecc_pending;
	gw_u64 ecc_corrected_volatile;
	gw_u64 ecc_uncorrected_volatile;
	gw_u64 ecc_corrected_aggregate;
	gw_u64 ecc_uncorrected_aggregate;
	gw_u64 remapped_correctable;
	gw_u64 remapped_uncorrectable;
	gw_u64 remapped_pending;
	gw_u64 remapped_failure;
	gw_u64 mig_current;   /* MIG mode now (0/1) */
	gw_u64 mig_pending;
	gw_u64 mig_max_devices;
	int mig_count;
	gw_mig_device mig[GW_MAX_MIG];
	/* Xid errors (NVIDIA), from NVML events: only a sampler that watches
	 * them (GW_SAMPLER_EVENTS, include/gpuwise/sampler.h) fills these,
	 * counted from its start, also while the GPU cannot be read; a
	 * one-shot gw_device_sample_read() leaves them UNREAD. */
	gw_u64 xid_last;      /* the newest Xid; 0 while none came */
	gw_u64 xid_count;     /* Xid events seen */
	/* Profiling metrics from NVML's GPM (gw_device_info.gpm_supported),
	 * over the time since the previous read of the same GPU: UNREAD on
	 * the first read, NOT_SUPPORTED where GPM is not. Percent 0-100. */
	gw_f64 graphics_active; /* the graphics/compute engine was busy */
	gw_f64 sm_active;     /* SMs with at least one warp assigned */
	gw_f64 sm_occupancy;  /* resident warps / the SMs' maximum */
	gw_f64 tensor_active; /* tensor pipes (any kind) */
	gw_f64 dram_active;   /* device memory bandwidth used / its maximum */
	gw_f64 fp64_active;   /* non-tensor FP64, FP32, FP16 pipes */
	gw_f64 fp32_active;
	gw_f64 fp16_active;
	gw_u64 prof_pcie_tx;  /* bytes/s over the period, headers included */
	gw_u64 prof_pcie_rx;
	gw_u64 nvlink_tx;     /* bytes/s, all NVLinks together */
	gw_u64 nvlink_rx;
	/* Per-link NVLink state and counters: nvlink_count links (0 on GPUs
	 * without NVLink), by link number. */
	int nvlink_count;
	gw_nvlink_sample nvlink[GW_MAX_NVLINKS];
} gw_device_sample;

typedef enum gw_process_type {
	GW_PROCESS_COMPUTE = 1,
	GW_PROCESS_GRAPHICS = 2,
	GW_PROCESS_BOTH = 3
} gw_process_type;

typedef struct gw_process {
	uint32_t pid;
	gw_process_type type;
	gw_u64 used_memory;   /* bytes; NOT_SUPPORTED when the driver hides it */
	gw_u64 gpu_instance_id;     /* MIG: which instance; UNREAD when MIG is off */
	gw_u64 compute_instance_id;
	int pid_resolved;     /* 1 when /proc/<pid> exists here (0 in containers that see host pids) */
	char user[64];        /* "" when unresolved */
	char command[256];    /* "" when unresolved */
	uint32_t uid;
} gw_process;

#ifdef __cplusplus
}
#endif
#endif
