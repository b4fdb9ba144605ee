/* gpuwise's own declarations of the part of the NVML C ABI it uses.
 *
 * nvml.h is never included: gpuwise builds without any NVIDIA package and
 * loads libnvidia-ml.so.1 with dlopen. The names are gpuwise's (gwn_*), the
 * layouts and values are NVML's; tests/abi/test_abi.c checks every struct
 * size, field offset, enum value and struct-version word against the real
 * nvml.h whenever one is installed. Source: NVIDIA's nvml.h of CUDA 13.3 (the
 * unmodified copy in github.com/NVIDIA/go-nvml, gen/nvml/nvml.h).
 * x86-64 / aarch64 Linux: natural alignment, 4-byte enums, 8-byte pointers.
 */
#ifndef GPUWISE_NVML_ABI_H
#define GPUWISE_NVML_ABI_H

/* nvmlReturn_t is a C enum: an int on every Linux ABI. */
typedef int gwn_return;

enum {
	GWN_SUCCESS = 0,
	GWN_ERROR_UNINITIALIZED = 1,
	GWN_ERROR_INVALID_ARGUMENT = 2,
	GWN_ERROR_NOT_SUPPORTED = 3,
	GWN_ERROR_NO_PERMISSION = 4,
	GWN_ERROR_ALREADY_INITIALIZED = 5,
	GWN_ERROR_NOT_FOUND = 6,
	GWN_ERROR_INSUFFICIENT_SIZE = 7,
	GWN_ERROR_INSUFFICIENT_POWER = 8,
	GWN_ERROR_DRIVER_NOT_LOADED = 9,
	GWN_ERROR_TIMEOUT = 10,
	GWN_ERROR_IRQ_ISSUE = 11,
	GWN_ERROR_LIBRARY_NOT_FOUND = 12,
	GWN_ERROR_FUNCTION_NOT_FOUND = 13,
	GWN_ERROR_CORRUPTED_INFOROM = 14,
	GWN_ERROR_GPU_IS_LOST = 15,
	GWN_ERROR_RESET_REQUIRED = 16,
	GWN_ERROR_OPERATING_SYSTEM = 17,
	GWN_ERROR_LIB_RM_VERSION_MISMATCH = 18,
	GWN_ERROR_IN_USE = 19,
	GWN_ERROR_MEMORY = 20,
	GWN_ERROR_NO_DATA = 21,
	GWN_ERROR_VGPU_ECC_NOT_SUPPORTED = 22,
	GWN_ERROR_INSUFFICIENT_RESOURCES = 23,
	GWN_ERROR_FREQ_NOT_SUPPORTED = 24,
	GWN_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
	GWN_ERROR_DEPRECATED = 26,
	GWN_ERROR_NOT_READY = 27,
	GWN_ERROR_GPU_NOT_FOUND = 28,
	GWN_ERROR_INVALID_STATE = 29,
	GWN_ERROR_RESET_TYPE_NOT_SUPPORTED = 30,
	GWN_ERROR_UNKNOWN = 999
};

/* nvmlDevice_t: an opaque pointer. */
typedef struct gwn_device_st *gwn_device;

/* Buffer sizes (NVML_DEVICE_*_BUFFER_SIZE, NVML_SYSTEM_*_BUFFER_SIZE). */
enum {
	GWN_UUID_BUFFER = 96,          /* NVML_DEVICE_UUID_V2_BUFFER_SIZE */
	GWN_NAME_BUFFER = 96,          /* NVML_DEVICE_NAME_V2_BUFFER_SIZE */
	GWN_SERIAL_BUFFER = 30,
	GWN_PART_NUMBER_BUFFER = 80,
	GWN_VBIOS_BUFFER = 32,
	GWN_SYSTEM_VERSION_BUFFER = 80,
	GWN_PCI_BUS_ID_BUFFER = 32,
	GWN_PCI_BUS_ID_LEGACY_BUFFER = 16
};

/* nvmlPciInfo_t, as filled by nvmlDeviceGetPciInfo_v3 (and _v2). */
typedef struct gwn_pci_info {
	char busIdLegacy[GWN_PCI_BUS_ID_LEGACY_BUFFER];
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pciDeviceId;     /* device << 16 | vendor */
	unsigned int pciSubSystemId;
	char busId[GWN_PCI_BUS_ID_BUFFER];
} gwn_pci_info;

/* nvmlMemory_t (v1): used = reserved + allocated. */
typedef struct gwn_memory {
	unsigned long long total;
	unsigned long long free;
	unsigned long long used;
} gwn_memory;

/* nvmlMemory_v2_t: used = allocated only. */
typedef struct gwn_memory_v2 {
	unsigned int version;
	unsigned long long total;
	unsigned long long reserved;
	unsigned long long free;
	unsigned long long used;
} gwn_memory_v2;

/* NVML_STRUCT_VERSION(Memory, 2) = sizeof | 2 << 24 = 0x02000028 */
#define GWN_MEMORY_V2_VERSION ((unsigned int)(sizeof(gwn_memory_v2) | (2u << 24)))

typedef struct gwn_bar1_memory {
	unsigned long long bar1Total;
	unsigned long long bar1Free;
	unsigned long long bar1Used;
} gwn_bar1_memory;

typedef struct gwn_utilization {
	unsigned int gpu;
	unsigned int memory;
} gwn_utilization;

/* nvmlTemperature_v1_t for nvmlDeviceGetTemperatureV. */
typedef struct gwn_temperature_v1 {
	unsigned int version;
	unsigned int sensorType;
	int temperature;
} gwn_temperature_v1;

/* NVML_STRUCT_VERSION(Temperature, 1) = 0x0100000C */
#define GWN_TEMPERATURE_V1_VERSION ((unsigned int)(sizeof(gwn_temperature_v1) | (1u << 24)))

/* nvmlProcessInfo_v1_t: the unversioned process calls (16 bytes). */
typedef struct gwn_process_info_v1 {
	unsigned int pid;
	unsigned long long usedGpuMemory;
} gwn_process_info_v1;

/* nvmlProcessInfo_v2_t = nvmlProcessInfo_t: filled by both the _v2 and the
 * _v3 process calls (24 bytes). */
typedef struct gwn_process_info {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	unsigned int gpuInstanceId;
	unsigned int computeInstanceId;
} gwn_process_info;

/* nvmlProcessUtilizationSample_t: one sample of one process's use of the
 * GPU over NVML's sampling period (32 bytes). */
typedef struct gwn_process_util_sample {
	unsigned int pid;
	unsigned long long timeStamp; /* microseconds, CPU time of day */
	unsigned int smUtil;
	unsigned int memUtil;
	unsigned int encUtil;
	unsigned int decUtil;
} gwn_process_util_sample;

/* usedGpuMemory when the driver cannot tell (NVML_VALUE_NOT_AVAILABLE). */
#define GWN_VALUE_NOT_AVAILABLE_ULL (~0ULL)
/* gpuInstanceId / computeInstanceId when MIG is off. */
#define GWN_INSTANCE_ID_NONE 0xFFFFFFFFu

/* nvmlDeviceAttributes_t (nvmlDeviceGetAttributes_v2). */
typedef struct gwn_device_attributes {
	unsigned int multiprocessorCount;
	unsigned int sharedCopyEngineCount;
	unsigned int sharedDecoderCount;
	unsigned int sharedEncoderCount;
	unsigned int sharedJpegCount;
	unsigned int sharedOfaCount;
	unsigned int gpuInstanceSliceCount;
	unsigned int computeInstanceSliceCount;
	unsigned long long memorySizeMB;
} gwn_device_attributes;

/* nvmlFieldValue_t (nvmlDeviceGetFieldValues; 40 bytes): the caller sets
 * fieldId (and scopeId); NVML fills the rest, with a return code per field. */
typedef union gwn_value {
	double dVal;
	int siVal;
	unsigned int uiVal;
	unsigned long ulVal;
	unsigned long long ullVal;
	signed long long sllVal;
	unsigned short usVal;
} gwn_value;

typedef struct gwn_field_value {
	unsigned int fieldId;
	unsigned int scopeId;
	long long timestamp;
	long long latencyUsec;
	unsigned int valueType;   /* nvmlValueType_t */
	gwn_return nvmlReturn;
	gwn_value value;
} gwn_field_value;

enum { GWN_FI_DEV_MEMORY_TEMP = 82 };  /* NVML_FI_DEV_MEMORY_TEMP: °C */
/* NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX/RX: per link (scopeId = link),
 * data payload in KiB since the driver loaded. */
enum { GWN_FI_DEV_NVLINK_THROUGHPUT_DATA_TX = 138, GWN_FI_DEV_NVLINK_THROUGHPUT_DATA_RX = 139 };
enum { GWN_NVLINK_MAX_LINKS = 18 };    /* NVML_NVLINK_MAX_LINKS */
enum {                                 /* nvmlValueType_t */
	GWN_VALUE_TYPE_DOUBLE = 0,
	GWN_VALUE_TYPE_UNSIGNED_INT = 1,
	GWN_VALUE_TYPE_UNSIGNED_LONG = 2,
	GWN_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
	GWN_VALUE_TYPE_SIGNED_LONG_LONG = 4,
	GWN_VALUE_TYPE_SIGNED_INT = 5
};

/* Enum parameters (passed as unsigned int). */
enum {
	GWN_CLOCK_GRAPHICS = 0,
	GWN_CLOCK_SM = 1,
	GWN_CLOCK_MEM = 2,
	GWN_CLOCK_VIDEO = 3
};
enum { GWN_TEMPERATURE_GPU = 0 };
enum {
	GWN_TEMPERATURE_THRESHOLD_SHUTDOWN = 0,
	GWN_TEMPERATURE_THRESHOLD_SLOWDOWN = 1
};
enum {
	GWN_PCIE_UTIL_TX_BYTES = 0,
	GWN_PCIE_UTIL_RX_BYTES = 1
};
enum {
	GWN_MEMORY_ERROR_TYPE_CORRECTED = 0,
	GWN_MEMORY_ERROR_TYPE_UNCORRECTED = 1
};
enum {
	GWN_VOLATILE_ECC = 0,
	GWN_AGGREGATE_ECC = 1
};
enum { GWN_PSTATE_UNKNOWN = 32 };
#define GWN_DEVICE_ARCH_UNKNOWN 0xffffffffu

/* Events: nvmlEventSet_t is opaque; nvmlEventData_t as nvmlEventSetWait_v2
 * fills it (32 bytes on x86-64; the unversioned wait fills an older, shorter
 * layout and is not used). */
typedef struct gwn_event_set_st *gwn_event_set;
#define GWN_EVENT_XID_CRITICAL 0x0000000000000008ULL  /* nvmlEventTypeXidCriticalError */
typedef struct gwn_event_data {
	gwn_device device;
	unsigned long long eventType;
	unsigned long long eventData;    /* the Xid; 999 for an unknown one */
	unsigned int gpuInstanceId;      /* 0xFFFFFFFF: the whole GPU */
	unsigned int computeInstanceId;
} gwn_event_data;

/* nvmlGpuTopologyLevel_t (0, 10, ... 50) and nvmlGpuP2PStatus_t (0-6): C
 * enums, read through int*; nvmlGPUP2PCapsIndex_t passed as an int. */
enum {
	GWN_TOPOLOGY_INTERNAL = 0,
	GWN_TOPOLOGY_SINGLE = 10,
	GWN_TOPOLOGY_MULTIPLE = 20,
	GWN_TOPOLOGY_HOSTBRIDGE = 30,
	GWN_TOPOLOGY_NODE = 40,
	GWN_TOPOLOGY_SYSTEM = 50
};
enum {
	GWN_P2P_CAPS_INDEX_READ = 0,
	GWN_P2P_CAPS_INDEX_WRITE = 1,
	GWN_P2P_CAPS_INDEX_NVLINK = 2,
	GWN_P2P_CAPS_INDEX_ATOMICS = 3,
	GWN_P2P_CAPS_INDEX_PCI = 4
};
enum {
	GWN_P2P_STATUS_OK = 0,
	GWN_P2P_STATUS_CHIPSET_NOT_SUPPORTED = 1,
	GWN_P2P_STATUS_GPU_NOT_SUPPORTED = 2,
	GWN_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED = 3,
	GWN_P2P_STATUS_DISABLED_BY_REGKEY = 4,
	GWN_P2P_STATUS_NOT_SUPPORTED = 5,
	GWN_P2P_STATUS_UNKNOWN = 6
};

/* GPM (GPU Performance Monitoring, Hopper and newer; nvml.h "GPM Structs").
 * nvmlGpmSample_t is opaque; nvmlGpmMetric_t is 40 bytes; nvmlGpmMetricsGet_t
 * holds NVML_GPM_METRIC_MAX of them (210 since CUDA 12.4; the version word
 * stayed 1 when it grew from 98, so gpuwise passes the larger array and sets
 * numMetrics to what it asks for). Values are double: percentages 0-100,
 * PCIe and NVLink rates in MiB/s. */
typedef struct gwn_gpm_sample_st *gwn_gpm_sample;
enum {
	GWN_GPM_METRIC_GRAPHICS_UTIL = 1,
	GWN_GPM_METRIC_SM_UTIL = 2,
	GWN_GPM_METRIC_SM_OCCUPANCY = 3,
	GWN_GPM_METRIC_ANY_TENSOR_UTIL = 5,
	GWN_GPM_METRIC_DRAM_BW_UTIL = 10,
	GWN_GPM_METRIC_FP64_UTIL = 11,
	GWN_GPM_METRIC_FP32_UTIL = 12,
	GWN_GPM_METRIC_FP16_UTIL = 13,
	GWN_GPM_METRIC_PCIE_TX_PER_SEC = 20,
	GWN_GPM_METRIC_PCIE_RX_PER_SEC = 21,
	GWN_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC = 60,
	GWN_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC = 61,
	GWN_GPM_METRIC_MAX = 210
};
typedef struct gwn_gpm_metric {
	unsigned int metricId;
	gwn_return nvmlReturn;
	double value;
	struct {
		char *shortName;
		char *longName;
		char *unit;
	} metricInfo;
} gwn_gpm_metric;
typedef struct gwn_gpm_metrics_get {
	unsigned int version;         /* GWN_GPM_METRICS_GET_VERSION */
	unsigned int numMetrics;
	gwn_gpm_sample sample1;
	gwn_gpm_sample sample2;
	gwn_gpm_metric metrics[GWN_GPM_METRIC_MAX];
} gwn_gpm_metrics_get;
#define GWN_GPM_METRICS_GET_VERSION 1u
typedef struct gwn_gpm_support {
	unsigned int version;         /* GWN_GPM_SUPPORT_VERSION */
	unsigned int isSupportedDevice;
} gwn_gpm_support;
#define GWN_GPM_SUPPORT_VERSION 1u

/* Function types, grouped by signature. Enum out-parameters
 * (nvmlEnableState_t*, nvmlPstates_t*, nvmlComputeMode_t*) are 4-byte ints
 * and are read through unsigned int*. */
typedef gwn_return (*gwn_fn_void)(void);
typedef gwn_return (*gwn_fn_flags)(unsigned int flags);
typedef const char *(*gwn_fn_error_string)(gwn_return r);
typedef gwn_return (*gwn_fn_sys_str)(char *buf, unsigned int len);
typedef gwn_return (*gwn_fn_sys_int)(int *out);
typedef gwn_return (*gwn_fn_sys_uint)(unsigned int *out);
typedef gwn_return (*gwn_fn_handle_by_index)(unsigned int index, gwn_device *out);
typedef gwn_return (*gwn_fn_dev_str)(gwn_device d, char *buf, unsigned int len);
typedef gwn_return (*gwn_fn_dev_u)(gwn_device d, unsigned int *out);
typedef gwn_return (*gwn_fn_dev_ull)(gwn_device d, unsigned long long *out);
typedef gwn_return (*gwn_fn_dev_uu)(gwn_device d, unsigned int *a, unsigned int *b);
typedef gwn_return (*gwn_fn_dev_ii)(gwn_device d, int *major, int *minor);
typedef gwn_return (*gwn_fn_dev_kind_u)(gwn_device d, unsigned int kind, unsigned int *out);
typedef gwn_return (*gwn_fn_dev_link_state)(gwn_device d, unsigned int link, int *active);
typedef gwn_return (*gwn_fn_dev_pci)(gwn_device d, gwn_pci_info *out);
typedef gwn_return (*gwn_fn_dev_memory)(gwn_device d, gwn_memory *out);
typedef gwn_return (*gwn_fn_dev_memory_v2)(gwn_device d, gwn_memory_v2 *out);
typedef gwn_return (*gwn_fn_dev_bar1)(gwn_device d, gwn_bar1_memory *out);
typedef gwn_return (*gwn_fn_dev_util)(gwn_device d, gwn_utilization *out);
typedef gwn_return (*gwn_fn_dev_temp_v)(gwn_device d, gwn_temperature_v1 *out);
typedef gwn_return (*gwn_fn_dev_attrs)(gwn_device d, gwn_device_attributes *out);
typedef gwn_return (*gwn_fn_dev_ecc_total)(gwn_device d, unsigned int error_type,
					   unsigned int counter_type, unsigned long long *out);
typedef gwn_return (*gwn_fn_dev_remapped)(gwn_device d, unsigned int *corr, unsigned int *unc,
					  unsigned int *pending, unsigned int *failure);
typedef gwn_return (*gwn_fn_dev_procs)(gwn_device d, unsigned int *count, gwn_process_info *out);
typedef gwn_return (*gwn_fn_dev_procs_v1)(gwn_device d, unsigned int *count, gwn_process_info_v1 *out);
typedef gwn_return (*gwn_fn_dev_proc_util)(gwn_device d, gwn_process_util_sample *out, unsigned int *count,
					    unsigned long long last_seen);
typedef gwn_return (*gwn_fn_dev_fields)(gwn_device d, int count, gwn_field_value *values);
typedef gwn_return (*gwn_fn_dev_child)(gwn_device d, unsigned int index, gwn_device *out);
typedef gwn_return (*gwn_fn_dev_topology)(gwn_device a, gwn_device b, int *level);
typedef gwn_return (*gwn_fn_dev_p2p)(gwn_device a, gwn_device b, int cap, int *status);
typedef gwn_return (*gwn_fn_event_set_create)(gwn_event_set *out);
typedef gwn_return (*gwn_fn_event_set_free)(gwn_event_set set);
typedef gwn_return (*gwn_fn_register_events)(gwn_device d, unsigned long long types, gwn_event_set set);
typedef gwn_return (*gwn_fn_event_set_wait)(gwn_event_set set, gwn_event_data *data, unsigned int timeout_ms);

typedef gwn_return (*gwn_fn_gpm_support)(gwn_device d, gwn_gpm_support *out);
typedef gwn_return (*gwn_fn_gpm_alloc)(gwn_gpm_sample *out);
typedef gwn_return (*gwn_fn_gpm_free)(gwn_gpm_sample s);
typedef gwn_return (*gwn_fn_gpm_get)(gwn_device d, gwn_gpm_sample s);
typedef gwn_return (*gwn_fn_gpm_metrics)(gwn_gpm_metrics_get *mg);

#endif
