/* gpuwise fakes — the NVML types the fake libnvidia-ml serves, declared
 * locally from the documented C ABI (x86-64 layouts of
 * NVIDIA's nvml.h; tests/abi checks them against it where installed). Private to fake/: lib/backend declares its
 * own, so a mistake here cannot hide the same mistake there.
 */
#ifndef GPUWISE_FAKE_NVML_TYPES_H
#define GPUWISE_FAKE_NVML_TYPES_H

typedef enum {
	NVML_SUCCESS = 0,
	NVML_ERROR_UNINITIALIZED = 1,
	NVML_ERROR_INVALID_ARGUMENT = 2,
	NVML_ERROR_NOT_SUPPORTED = 3,
	NVML_ERROR_NO_PERMISSION = 4,
	NVML_ERROR_NOT_FOUND = 6,
	NVML_ERROR_INSUFFICIENT_SIZE = 7,
	NVML_ERROR_TIMEOUT = 10,
	NVML_ERROR_LIBRARY_NOT_FOUND = 12,
	NVML_ERROR_GPU_IS_LOST = 15,
	NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
	NVML_ERROR_UNKNOWN = 999,
} nvmlReturn_t;

typedef struct nvmlDevice_st *nvmlDevice_t;

/* Topology and peer access (nvml.h: nvmlDeviceGetTopologyCommonAncestor,
 * nvmlDeviceGetP2PStatus). */
typedef enum {
	NVML_TOPOLOGY_INTERNAL = 0,
	NVML_TOPOLOGY_SINGLE = 10,
	NVML_TOPOLOGY_MULTIPLE = 20,
	NVML_TOPOLOGY_HOSTBRIDGE = 30,
	NVML_TOPOLOGY_NODE = 40,
	NVML_TOPOLOGY_SYSTEM = 50,
} nvmlGpuTopologyLevel_t;

typedef enum {
	NVML_P2P_STATUS_OK = 0,
	NVML_P2P_STATUS_CHIPSET_NOT_SUPPORTED = 1,
	NVML_P2P_STATUS_GPU_NOT_SUPPORTED = 2,
	NVML_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED = 3,
	NVML_P2P_STATUS_DISABLED_BY_REGKEY = 4,
	NVML_P2P_STATUS_NOT_SUPPORTED = 5,
	NVML_P2P_STATUS_UNKNOWN = 6,
} nvmlGpuP2PStatus_t;

typedef enum {
	NVML_P2P_CAPS_INDEX_READ = 0,
	NVML_P2P_CAPS_INDEX_WRITE = 1,
	NVML_P2P_CAPS_INDEX_NVLINK = 2,
	NVML_P2P_CAPS_INDEX_ATOMICS = 3,
	NVML_P2P_CAPS_INDEX_PCI = 4,
	NVML_P2P_CAPS_INDEX_UNKNOWN = 5,
} nvmlGpuP2PCapsIndex_t;

/* Events (nvml.h: nvmlEventSetCreate .. nvmlEventSetWait_v2). */
typedef struct nvmlEventSet_st *nvmlEventSet_t;
#define nvmlEventTypeSingleBitEccError 0x0000000000000001ULL
#define nvmlEventTypeDoubleBitEccError 0x0000000000000002ULL
#define nvmlEventTypePState 0x0000000000000004ULL
#define nvmlEventTypeXidCriticalError 0x0000000000000008ULL
#define nvmlEventTypeClock 0x0000000000000010ULL
typedef struct {
	nvmlDevice_t device;
	unsigned long long eventType;
	unsigned long long eventData;    /* the Xid for nvmlEventTypeXidCriticalError */
	unsigned int gpuInstanceId;      /* 0xFFFFFFFF: not attributable to one */
	unsigned int computeInstanceId;
} nvmlEventData_t;                   /* 32 bytes */

#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE 32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE 16
#define NVML_VALUE_NOT_AVAILABLE_ULL (~0ULL)
#define NVML_STRUCT_VERSION(size, ver) ((unsigned)(size) | ((unsigned)(ver) << 24))

typedef struct {
	char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pciDeviceId;        /* device << 16 | vendor 0x10DE */
	unsigned int pciSubSystemId;
	char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
} nvmlPciInfo_t;                     /* 68 bytes */

typedef struct {
	unsigned int version;            /* nvmlPciInfoExt_v1 = 0x01000040 */
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pciDeviceId;
	unsigned int pciSubSystemId;
	unsigned int baseClass;
	unsigned int subClass;
	char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
} nvmlPciInfoExt_t;                  /* 64 bytes */

typedef struct {
	unsigned long long total;
	unsigned long long free;
	unsigned long long used;         /* reserved + allocated */
} nvmlMemory_t;                      /* 24 bytes */

typedef struct {
	unsigned int version;            /* nvmlMemory_v2 = 0x02000028 */
	unsigned long long total;
	unsigned long long reserved;
	unsigned long long free;
	unsigned long long used;         /* allocated only */
} nvmlMemory_v2_t;                   /* 40 bytes */

typedef struct {
	unsigned long long bar1Total;
	unsigned long long bar1Free;
	unsigned long long bar1Used;
} nvmlBAR1Memory_t;

typedef struct {
	unsigned int gpu;
	unsigned int memory;
} nvmlUtilization_t;

typedef struct {
	unsigned int pid;
	unsigned long long usedGpuMemory;
} nvmlProcessInfo_v1_t;              /* 16 bytes */

typedef struct {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	unsigned int gpuInstanceId;
	unsigned int computeInstanceId;
} nvmlProcessInfo_t;                 /* v2 and v3: 24 bytes */

typedef struct {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	unsigned int gpuInstanceId;
	unsigned int computeInstanceId;
	unsigned long long usedGpuCcProtectedMemory;
} nvmlProcessDetail_v1_t;            /* 32 bytes */

typedef struct {
	unsigned int version;            /* 0x01000018 */
	unsigned int mode;               /* 0 compute, 1 graphics, 2 MPS */
	unsigned int numProcArrayEntries;
	nvmlProcessDetail_v1_t *procArray;
} nvmlProcessDetailList_t;           /* 24 bytes */

typedef struct {
	unsigned int pid;
	unsigned long long timeStamp;    /* microseconds */
	unsigned int smUtil;
	unsigned int memUtil;
	unsigned int encUtil;
	unsigned int decUtil;
} nvmlProcessUtilizationSample_t;    /* 32 bytes */

typedef struct {
	unsigned int version;            /* nvmlTemperature_v1 = 0x0100000C */
	unsigned int sensorType;
	int temperature;
} nvmlTemperature_t;                 /* 12 bytes */

typedef union {
	double dVal;
	int siVal;
	unsigned int uiVal;
	unsigned long ulVal;
	unsigned long long ullVal;
	signed long long sllVal;
	unsigned short usVal;
} nvmlValue_t;

typedef struct {
	unsigned int fieldId;
	unsigned int scopeId;
	long long timestamp;
	long long latencyUsec;
	unsigned int valueType;          /* 1 = unsigned int */
	nvmlReturn_t nvmlReturn;
	nvmlValue_t value;
} nvmlFieldValue_t;                  /* 40 bytes */

/* nvmlDeviceGetAttributes_v2 (nvml.h documents it for MIG device handles). */
typedef struct {
	unsigned int multiprocessorCount;
	unsigned int sharedCopyEngineCount;
	unsigned int sharedDecoderCount;
	unsigned int sharedEncoderCount;
	unsigned int sharedJpegCount;
	unsigned int sharedOfaCount;
	unsigned int gpuInstanceSliceCount;
	unsigned int computeInstanceSliceCount;
	unsigned long long memorySizeMB;
} nvmlDeviceAttributes_t;            /* 40 bytes */

/* The unversioned nvmlDeviceGetAttributes of CUDA 11.0: the first six
 * fields only. */
typedef struct {
	unsigned int multiprocessorCount;
	unsigned int sharedCopyEngineCount;
	unsigned int sharedDecoderCount;
	unsigned int sharedEncoderCount;
	unsigned int sharedJpegCount;
	unsigned int sharedOfaCount;
} nvmlDeviceAttributes_v1_t;         /* 24 bytes */

#define NVML_FI_DEV_MEMORY_TEMP 82
#define NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX 138   /* scopeId = link; KiB */
#define NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX 139
#define NVML_VALUE_TYPE_UNSIGNED_INT 1
#define NVML_VALUE_TYPE_UNSIGNED_LONG_LONG 3
#define NVML_NVLINK_MAX_LINKS 18

typedef enum { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 } nvmlEnableState_t;

/* GPM (nvml.h "GPM Structs", CUDA 12.4 and newer: NVML_GPM_METRIC_MAX 210). */
typedef struct nvmlGpmSample_st *nvmlGpmSample_t;
typedef enum {
	NVML_GPM_METRIC_GRAPHICS_UTIL = 1,
	NVML_GPM_METRIC_SM_UTIL = 2,
	NVML_GPM_METRIC_SM_OCCUPANCY = 3,
	NVML_GPM_METRIC_INTEGER_UTIL = 4,
	NVML_GPM_METRIC_ANY_TENSOR_UTIL = 5,
	NVML_GPM_METRIC_DFMA_TENSOR_UTIL = 6,
	NVML_GPM_METRIC_HMMA_TENSOR_UTIL = 7,
	NVML_GPM_METRIC_IMMA_TENSOR_UTIL = 9,
	NVML_GPM_METRIC_DRAM_BW_UTIL = 10,
	NVML_GPM_METRIC_FP64_UTIL = 11,
	NVML_GPM_METRIC_FP32_UTIL = 12,
	NVML_GPM_METRIC_FP16_UTIL = 13,
	NVML_GPM_METRIC_PCIE_TX_PER_SEC = 20,
	NVML_GPM_METRIC_PCIE_RX_PER_SEC = 21,
	NVML_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC = 60,
	NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC = 61,
	NVML_GPM_METRIC_MAX = 210,
} nvmlGpmMetricId_t;
typedef struct {
	unsigned int metricId;           /* IN */
	nvmlReturn_t nvmlReturn;         /* OUT */
	double value;                    /* OUT */
	struct {
		char *shortName;
		char *longName;
		char *unit;
	} metricInfo;                    /* OUT */
} nvmlGpmMetric_t;                   /* 40 bytes */
typedef struct {
	unsigned int version;            /* NVML_GPM_METRICS_GET_VERSION */
	unsigned int numMetrics;
	nvmlGpmSample_t sample1;
	nvmlGpmSample_t sample2;
	nvmlGpmMetric_t metrics[NVML_GPM_METRIC_MAX];
} nvmlGpmMetricsGet_t;               /* 8424 bytes */
#define NVML_GPM_METRICS_GET_VERSION 1
typedef struct {
	unsigned int version;            /* NVML_GPM_SUPPORT_VERSION */
	unsigned int isSupportedDevice;
} nvmlGpmSupport_t;                  /* 8 bytes */
#define NVML_GPM_SUPPORT_VERSION 1
_Static_assert(sizeof(nvmlPciInfo_t) == 68, "nvmlPciInfo_t");
_Static_assert(sizeof(nvmlPciInfoExt_t) == 64, "nvmlPciInfoExt_t");
_Static_assert(sizeof(nvmlMemory_t) == 24, "nvmlMemory_t");
_Static_assert(sizeof(nvmlMemory_v2_t) == 40, "nvmlMemory_v2_t");
_Static_assert(sizeof(nvmlProcessInfo_v1_t) == 16, "nvmlProcessInfo_v1_t");
_Static_assert(sizeof(nvmlProcessInfo_t) == 24, "nvmlProcessInfo_t");
_Static_assert(sizeof(nvmlProcessDetail_v1_t) == 32, "nvmlProcessDetail_v1_t");
_Static_assert(sizeof(nvmlProcessDetailList_t) == 24, "nvmlProcessDetailList_t");
_Static_assert(sizeof(nvmlProcessUtilizationSample_t) == 32, "nvmlProcessUtilizationSample_t");
_Static_assert(sizeof(nvmlTemperature_t) == 12, "nvmlTemperature_t");
_Static_assert(sizeof(nvmlFieldValue_t) == 40, "nvmlFieldValue_t");
_Static_assert(sizeof(nvmlDeviceAttributes_t) == 40, "nvmlDeviceAttributes_t");
_Static_assert(sizeof(nvmlDeviceAttributes_v1_t) == 24, "nvmlDeviceAttributes_v1_t");

_Static_assert(sizeof(nvmlGpmMetric_t) == 40, "nvmlGpmMetric_t");
_Static_assert(sizeof(nvmlGpmMetricsGet_t) == 24 + 210 * 40, "nvmlGpmMetricsGet_t");
_Static_assert(sizeof(nvmlGpmSupport_t) == 8, "nvmlGpmSupport_t");
#endif
