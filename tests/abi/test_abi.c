/* gpuwise's local NVML and CUDA declarations (lib/backend/nvml_abi.h,
 * cuda_abi.h) against NVIDIA's own headers. Built by the Makefile only when
 * nvml.h / cuda.h are found (GW_NVML_H / GW_CUDA_H name them); every check
 * is a _Static_assert, so building is the test and running just reports.
 * The fake library's declarations are checked in test_abi_fake.c. */
#include <stdio.h>

#include "abi_check.h"
#include "backend/nvml_abi.h"
#include "backend/cuda_abi.h"

int gw_abi_fake_checked(void);

#ifdef GW_NVML_H
#include GW_NVML_H

ABI_SIZE(gwn_return, nvmlReturn_t);
ABI_SIZE(gwn_device, nvmlDevice_t);

ABI_SIZE(gwn_pci_info, nvmlPciInfo_t);
ABI_FIELD(gwn_pci_info, nvmlPciInfo_t, busIdLegacy);
ABI_FIELD(gwn_pci_info, nvmlPciInfo_t, domain);
ABI_FIELD(gwn_pci_info, nvmlPciInfo_t, bus);
ABI_FIELD(gwn_pci_info, nvmlPciInfo_t, device);
ABI_FIELD(gwn_pci_info, nvmlPciInfo_t, pciDeviceId);
ABI_FIELD(gwn_pci_info, nvmlPciInfo_t, pciSubSystemId);
ABI_FIELD(gwn_pci_info, nvmlPciInfo_t, busId);

ABI_SIZE(gwn_memory, nvmlMemory_t);
ABI_FIELD(gwn_memory, nvmlMemory_t, total);
ABI_FIELD(gwn_memory, nvmlMemory_t, free);
ABI_FIELD(gwn_memory, nvmlMemory_t, used);

ABI_SIZE(gwn_field_value, nvmlFieldValue_t);
ABI_FIELD(gwn_field_value, nvmlFieldValue_t, fieldId);
ABI_FIELD(gwn_field_value, nvmlFieldValue_t, scopeId);
ABI_FIELD(gwn_field_value, nvmlFieldValue_t, timestamp);
ABI_FIELD(gwn_field_value, nvmlFieldValue_t, valueType);
ABI_FIELD(gwn_field_value, nvmlFieldValue_t, nvmlReturn);
ABI_FIELD(gwn_field_value, nvmlFieldValue_t, value);
_Static_assert(GWN_FI_DEV_MEMORY_TEMP == NVML_FI_DEV_MEMORY_TEMP, "NVML_FI_DEV_MEMORY_TEMP");

ABI_SIZE(gwn_memory_v2, nvmlMemory_v2_t);
ABI_FIELD(gwn_memory_v2, nvmlMemory_v2_t, version);
ABI_FIELD(gwn_memory_v2, nvmlMemory_v2_t, total);
ABI_FIELD(gwn_memory_v2, nvmlMemory_v2_t, reserved);
ABI_FIELD(gwn_memory_v2, nvmlMemory_v2_t, free);
ABI_FIELD(gwn_memory_v2, nvmlMemory_v2_t, used);
ABI_VALUE(GWN_MEMORY_V2_VERSION, nvmlMemory_v2);

ABI_SIZE(gwn_bar1_memory, nvmlBAR1Memory_t);
ABI_FIELD(gwn_bar1_memory, nvmlBAR1Memory_t, bar1Total);
ABI_FIELD(gwn_bar1_memory, nvmlBAR1Memory_t, bar1Free);
ABI_FIELD(gwn_bar1_memory, nvmlBAR1Memory_t, bar1Used);

ABI_SIZE(gwn_utilization, nvmlUtilization_t);
ABI_FIELD(gwn_utilization, nvmlUtilization_t, gpu);
ABI_FIELD(gwn_utilization, nvmlUtilization_t, memory);

ABI_SIZE(gwn_temperature_v1, nvmlTemperature_v1_t);
ABI_FIELD(gwn_temperature_v1, nvmlTemperature_v1_t, version);
ABI_FIELD(gwn_temperature_v1, nvmlTemperature_v1_t, sensorType);
ABI_FIELD(gwn_temperature_v1, nvmlTemperature_v1_t, temperature);
ABI_VALUE(GWN_TEMPERATURE_V1_VERSION, nvmlTemperature_v1);

ABI_SIZE(gwn_process_info_v1, nvmlProcessInfo_v1_t);
ABI_FIELD(gwn_process_info_v1, nvmlProcessInfo_v1_t, pid);
ABI_FIELD(gwn_process_info_v1, nvmlProcessInfo_v1_t, usedGpuMemory);

ABI_SIZE(gwn_process_info, nvmlProcessInfo_v2_t);
ABI_SIZE(gwn_process_info, nvmlProcessInfo_t);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_v2_t, pid);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_v2_t, usedGpuMemory);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_v2_t, gpuInstanceId);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_v2_t, computeInstanceId);
ABI_SIZE(gwn_process_util_sample, nvmlProcessUtilizationSample_t);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, pid);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, timeStamp);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, smUtil);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, memUtil);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, encUtil);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, decUtil);
ABI_VALUE(GWN_VALUE_NOT_AVAILABLE_ULL, (unsigned long long)NVML_VALUE_NOT_AVAILABLE);

ABI_SIZE(gwn_device_attributes, nvmlDeviceAttributes_t);
ABI_FIELD(gwn_device_attributes, nvmlDeviceAttributes_t, multiprocessorCount);
ABI_FIELD(gwn_device_attributes, nvmlDeviceAttributes_t, sharedCopyEngineCount);
ABI_FIELD(gwn_device_attributes, nvmlDeviceAttributes_t, sharedDecoderCount);
ABI_FIELD(gwn_device_attributes, nvmlDeviceAttributes_t, sharedEncoderCount);
ABI_FIELD(gwn_device_attributes, nvmlDeviceAttributes_t, sharedJpegCount);
ABI_FIELD(gwn_device_attributes, nvmlDeviceAttributes_t, sharedOfaCount);
ABI_FIELD(gwn_device_attributes, nvmlDeviceAttributes_t, gpuInstanceSliceCount);
ABI_FIELD(gwn_device_attributes, nvmlDeviceAttributes_t, computeInstanceSliceCount);
ABI_FIELD(gwn_device_attributes, nvmlDeviceAttributes_t, memorySizeMB);

/* Topology and peer access. */
ABI_SIZE(int, nvmlGpuTopologyLevel_t);
ABI_SIZE(int, nvmlGpuP2PStatus_t);
ABI_SIZE(int, nvmlGpuP2PCapsIndex_t);
ABI_VALUE(GWN_TOPOLOGY_INTERNAL, NVML_TOPOLOGY_INTERNAL);
ABI_VALUE(GWN_TOPOLOGY_SINGLE, NVML_TOPOLOGY_SINGLE);
ABI_VALUE(GWN_TOPOLOGY_MULTIPLE, NVML_TOPOLOGY_MULTIPLE);
ABI_VALUE(GWN_TOPOLOGY_HOSTBRIDGE, NVML_TOPOLOGY_HOSTBRIDGE);
ABI_VALUE(GWN_TOPOLOGY_NODE, NVML_TOPOLOGY_NODE);
ABI_VALUE(GWN_TOPOLOGY_SYSTEM, NVML_TOPOLOGY_SYSTEM);
ABI_VALUE(GWN_P2P_CAPS_INDEX_READ, NVML_P2P_CAPS_INDEX_READ);
ABI_VALUE(GWN_P2P_CAPS_INDEX_WRITE, NVML_P2P_CAPS_INDEX_WRITE);
ABI_VALUE(GWN_P2P_CAPS_INDEX_NVLINK, NVML_P2P_CAPS_INDEX_NVLINK);
ABI_VALUE(GWN_P2P_CAPS_INDEX_ATOMICS, NVML_P2P_CAPS_INDEX_ATOMICS);
ABI_VALUE(GWN_P2P_CAPS_INDEX_PCI, NVML_P2P_CAPS_INDEX_PCI);
ABI_VALUE(GWN_P2P_STATUS_OK, NVML_P2P_STATUS_OK);
ABI_VALUE(GWN_P2P_STATUS_CHIPSET_NOT_SUPPORTED, NVML_P2P_STATUS_CHIPSET_NOT_SUPPORTED);
ABI_VALUE(GWN_P2P_STATUS_GPU_NOT_SUPPORTED, NVML_P2P_STATUS_GPU_NOT_SUPPORTED);
ABI_VALUE(GWN_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED, NVML_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED);
ABI_VALUE(GWN_P2P_STATUS_DISABLED_BY_REGKEY, NVML_P2P_STATUS_DISABLED_BY_REGKEY);
ABI_VALUE(GWN_P2P_STATUS_NOT_SUPPORTED, NVML_P2P_STATUS_NOT_SUPPORTED);
ABI_VALUE(GWN_P2P_STATUS_UNKNOWN, NVML_P2P_STATUS_UNKNOWN);

/* Events (nvmlEventSetWait_v2's data). */
ABI_SIZE(gwn_event_data, nvmlEventData_t);
ABI_FIELD(gwn_event_data, nvmlEventData_t, device);
ABI_FIELD(gwn_event_data, nvmlEventData_t, eventType);
ABI_FIELD(gwn_event_data, nvmlEventData_t, eventData);
ABI_FIELD(gwn_event_data, nvmlEventData_t, gpuInstanceId);
ABI_FIELD(gwn_event_data, nvmlEventData_t, computeInstanceId);
ABI_VALUE(GWN_EVENT_XID_CRITICAL, nvmlEventTypeXidCriticalError);

/* GPM (nvmlGpmQueryDeviceSupport, nvmlGpmSampleGet, nvmlGpmMetricsGet). */
ABI_SIZE(gwn_gpm_sample, nvmlGpmSample_t);
ABI_SIZE(gwn_gpm_metric, nvmlGpmMetric_t);
ABI_FIELD(gwn_gpm_metric, nvmlGpmMetric_t, metricId);
ABI_FIELD(gwn_gpm_metric, nvmlGpmMetric_t, nvmlReturn);
ABI_FIELD(gwn_gpm_metric, nvmlGpmMetric_t, value);
ABI_FIELD(gwn_gpm_metric, nvmlGpmMetric_t, metricInfo);
ABI_SIZE(gwn_gpm_metrics_get, nvmlGpmMetricsGet_t);
ABI_FIELD(gwn_gpm_metrics_get, nvmlGpmMetricsGet_t, version);
ABI_FIELD(gwn_gpm_metrics_get, nvmlGpmMetricsGet_t, numMetrics);
ABI_FIELD(gwn_gpm_metrics_get, nvmlGpmMetricsGet_t, sample1);
ABI_FIELD(gwn_gpm_metrics_get, nvmlGpmMetricsGet_t, sample2);
ABI_FIELD(gwn_gpm_metrics_get, nvmlGpmMetricsGet_t, metrics);
ABI_VALUE(GWN_GPM_METRICS_GET_VERSION, NVML_GPM_METRICS_GET_VERSION);
ABI_SIZE(gwn_gpm_support, nvmlGpmSupport_t);
ABI_FIELD(gwn_gpm_support, nvmlGpmSupport_t, version);
ABI_FIELD(gwn_gpm_support, nvmlGpmSupport_t, isSupportedDevice);
ABI_VALUE(GWN_GPM_SUPPORT_VERSION, NVML_GPM_SUPPORT_VERSION);
ABI_VALUE(GWN_GPM_METRIC_MAX, NVML_GPM_METRIC_MAX);
ABI_VALUE(GWN_GPM_METRIC_GRAPHICS_UTIL, NVML_GPM_METRIC_GRAPHICS_UTIL);
ABI_VALUE(GWN_GPM_METRIC_SM_UTIL, NVML_GPM_METRIC_SM_UTIL);
ABI_VALUE(GWN_GPM_METRIC_SM_OCCUPANCY, NVML_GPM_METRIC_SM_OCCUPANCY);
ABI_VALUE(GWN_GPM_METRIC_ANY_TENSOR_UTIL, NVML_GPM_METRIC_ANY_TENSOR_UTIL);
ABI_VALUE(GWN_GPM_METRIC_DRAM_BW_UTIL, NVML_GPM_METRIC_DRAM_BW_UTIL);
ABI_VALUE(GWN_GPM_METRIC_FP64_UTIL, NVML_GPM_METRIC_FP64_UTIL);
ABI_VALUE(GWN_GPM_METRIC_FP32_UTIL, NVML_GPM_METRIC_FP32_UTIL);
ABI_VALUE(GWN_GPM_METRIC_FP16_UTIL, NVML_GPM_METRIC_FP16_UTIL);
ABI_VALUE(GWN_GPM_METRIC_PCIE_TX_PER_SEC, NVML_GPM_METRIC_PCIE_TX_PER_SEC);
ABI_VALUE(GWN_GPM_METRIC_PCIE_RX_PER_SEC, NVML_GPM_METRIC_PCIE_RX_PER_SEC);
ABI_VALUE(GWN_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC, NVML_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC);
ABI_VALUE(GWN_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC, NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC);

/* Return codes (RESET_TYPE_NOT_SUPPORTED, 30, is newer than some headers). */
ABI_VALUE(GWN_SUCCESS, NVML_SUCCESS);
ABI_VALUE(GWN_ERROR_UNINITIALIZED, NVML_ERROR_UNINITIALIZED);
ABI_VALUE(GWN_ERROR_INVALID_ARGUMENT, NVML_ERROR_INVALID_ARGUMENT);
ABI_VALUE(GWN_ERROR_NOT_SUPPORTED, NVML_ERROR_NOT_SUPPORTED);
ABI_VALUE(GWN_ERROR_NO_PERMISSION, NVML_ERROR_NO_PERMISSION);
ABI_VALUE(GWN_ERROR_ALREADY_INITIALIZED, NVML_ERROR_ALREADY_INITIALIZED);
ABI_VALUE(GWN_ERROR_NOT_FOUND, NVML_ERROR_NOT_FOUND);
ABI_VALUE(GWN_ERROR_INSUFFICIENT_SIZE, NVML_ERROR_INSUFFICIENT_SIZE);
ABI_VALUE(GWN_ERROR_INSUFFICIENT_POWER, NVML_ERROR_INSUFFICIENT_POWER);
ABI_VALUE(GWN_ERROR_DRIVER_NOT_LOADED, NVML_ERROR_DRIVER_NOT_LOADED);
ABI_VALUE(GWN_ERROR_TIMEOUT, NVML_ERROR_TIMEOUT);
ABI_VALUE(GWN_ERROR_IRQ_ISSUE, NVML_ERROR_IRQ_ISSUE);
ABI_VALUE(GWN_ERROR_LIBRARY_NOT_FOUND, NVML_ERROR_LIBRARY_NOT_FOUND);
ABI_VALUE(GWN_ERROR_FUNCTION_NOT_FOUND, NVML_ERROR_FUNCTION_NOT_FOUND);
ABI_VALUE(GWN_ERROR_CORRUPTED_INFOROM, NVML_ERROR_CORRUPTED_INFOROM);
ABI_VALUE(GWN_ERROR_GPU_IS_LOST, NVML_ERROR_GPU_IS_LOST);
ABI_VALUE(GWN_ERROR_RESET_REQUIRED, NVML_ERROR_RESET_REQUIRED);
ABI_VALUE(GWN_ERROR_OPERATING_SYSTEM, NVML_ERROR_OPERATING_SYSTEM);
ABI_VALUE(GWN_ERROR_LIB_RM_VERSION_MISMATCH, NVML_ERROR_LIB_RM_VERSION_MISMATCH);
ABI_VALUE(GWN_ERROR_IN_USE, NVML_ERROR_IN_USE);
ABI_VALUE(GWN_ERROR_MEMORY, NVML_ERROR_MEMORY);
ABI_VALUE(GWN_ERROR_NO_DATA, NVML_ERROR_NO_DATA);
ABI_VALUE(GWN_ERROR_VGPU_ECC_NOT_SUPPORTED, NVML_ERROR_VGPU_ECC_NOT_SUPPORTED);
ABI_VALUE(GWN_ERROR_INSUFFICIENT_RESOURCES, NVML_ERROR_INSUFFICIENT_RESOURCES);
ABI_VALUE(GWN_ERROR_FREQ_NOT_SUPPORTED, NVML_ERROR_FREQ_NOT_SUPPORTED);
ABI_VALUE(GWN_ERROR_ARGUMENT_VERSION_MISMATCH, NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
ABI_VALUE(GWN_ERROR_DEPRECATED, NVML_ERROR_DEPRECATED);
ABI_VALUE(GWN_ERROR_NOT_READY, NVML_ERROR_NOT_READY);
ABI_VALUE(GWN_ERROR_GPU_NOT_FOUND, NVML_ERROR_GPU_NOT_FOUND);
ABI_VALUE(GWN_ERROR_INVALID_STATE, NVML_ERROR_INVALID_STATE);
ABI_VALUE(GWN_ERROR_UNKNOWN, NVML_ERROR_UNKNOWN);

/* Buffer sizes and enum parameters. */
ABI_VALUE(GWN_UUID_BUFFER, NVML_DEVICE_UUID_V2_BUFFER_SIZE);
ABI_VALUE(GWN_NAME_BUFFER, NVML_DEVICE_NAME_V2_BUFFER_SIZE);
ABI_VALUE(GWN_SERIAL_BUFFER, NVML_DEVICE_SERIAL_BUFFER_SIZE);
ABI_VALUE(GWN_PART_NUMBER_BUFFER, NVML_DEVICE_PART_NUMBER_BUFFER_SIZE);
ABI_VALUE(GWN_VBIOS_BUFFER, NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE);
ABI_VALUE(GWN_SYSTEM_VERSION_BUFFER, NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE);
ABI_VALUE(GWN_PCI_BUS_ID_BUFFER, NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE);
ABI_VALUE(GWN_PCI_BUS_ID_LEGACY_BUFFER, NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE);
ABI_VALUE(GWN_CLOCK_GRAPHICS, NVML_CLOCK_GRAPHICS);
ABI_VALUE(GWN_CLOCK_SM, NVML_CLOCK_SM);
ABI_VALUE(GWN_CLOCK_MEM, NVML_CLOCK_MEM);
ABI_VALUE(GWN_CLOCK_VIDEO, NVML_CLOCK_VIDEO);
ABI_VALUE(GWN_TEMPERATURE_GPU, NVML_TEMPERATURE_GPU);
ABI_VALUE(GWN_TEMPERATURE_THRESHOLD_SHUTDOWN, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN);
ABI_VALUE(GWN_TEMPERATURE_THRESHOLD_SLOWDOWN, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN);
ABI_VALUE(GWN_PCIE_UTIL_TX_BYTES, NVML_PCIE_UTIL_TX_BYTES);
ABI_VALUE(GWN_PCIE_UTIL_RX_BYTES, NVML_PCIE_UTIL_RX_BYTES);
ABI_VALUE(GWN_MEMORY_ERROR_TYPE_CORRECTED, NVML_MEMORY_ERROR_TYPE_CORRECTED);
ABI_VALUE(GWN_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_MEMORY_ERROR_TYPE_UNCORRECTED);
ABI_VALUE(GWN_VOLATILE_ECC, NVML_VOLATILE_ECC);
ABI_VALUE(GWN_AGGREGATE_ECC, NVML_AGGREGATE_ECC);
ABI_VALUE(GWN_PSTATE_UNKNOWN, NVML_PSTATE_UNKNOWN);
ABI_VALUE(GWN_DEVICE_ARCH_UNKNOWN, NVML_DEVICE_ARCH_UNKNOWN);
/* nvmlEnableState_t, nvmlPstates_t, nvmlComputeMode_t, nvmlClockType_t are
 * read and passed as unsigned int. */
ABI_SIZE(unsigned int, nvmlEnableState_t);
ABI_SIZE(unsigned int, nvmlPstates_t);
ABI_SIZE(unsigned int, nvmlComputeMode_t);
ABI_SIZE(unsigned int, nvmlClockType_t);
ABI_SIZE(unsigned int, nvmlTemperatureThresholds_t);
ABI_SIZE(unsigned int, nvmlPcieUtilCounter_t);
#endif

#ifdef GW_CUDA_H
#include GW_CUDA_H

ABI_SIZE(gwc_result, CUresult);
ABI_SIZE(gwc_device, CUdevice);
ABI_SIZE(gwc_uuid, CUuuid);
ABI_FIELD(gwc_uuid, CUuuid, bytes);
ABI_VALUE(GWC_SUCCESS, CUDA_SUCCESS);
ABI_VALUE(GWC_ERROR_INVALID_VALUE, CUDA_ERROR_INVALID_VALUE);
ABI_VALUE(GWC_ERROR_OUT_OF_MEMORY, CUDA_ERROR_OUT_OF_MEMORY);
ABI_VALUE(GWC_ERROR_NOT_INITIALIZED, CUDA_ERROR_NOT_INITIALIZED);
ABI_VALUE(GWC_ERROR_DEINITIALIZED, CUDA_ERROR_DEINITIALIZED);
ABI_VALUE(GWC_ERROR_STUB_LIBRARY, CUDA_ERROR_STUB_LIBRARY);
ABI_VALUE(GWC_ERROR_DEVICE_UNAVAILABLE, CUDA_ERROR_DEVICE_UNAVAILABLE);
ABI_VALUE(GWC_ERROR_NO_DEVICE, CUDA_ERROR_NO_DEVICE);
ABI_VALUE(GWC_ERROR_INVALID_DEVICE, CUDA_ERROR_INVALID_DEVICE);
ABI_VALUE(GWC_ERROR_INVALID_CONTEXT, CUDA_ERROR_INVALID_CONTEXT);
ABI_VALUE(GWC_ERROR_OPERATING_SYSTEM, CUDA_ERROR_OPERATING_SYSTEM);
ABI_VALUE(GWC_ERROR_SYSTEM_NOT_READY, CUDA_ERROR_SYSTEM_NOT_READY);
ABI_VALUE(GWC_ERROR_SYSTEM_DRIVER_MISMATCH, CUDA_ERROR_SYSTEM_DRIVER_MISMATCH);
ABI_VALUE(GWC_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE);
ABI_VALUE(GWC_ERROR_UNKNOWN, CUDA_ERROR_UNKNOWN);
ABI_VALUE(GWC_ATTR_MULTIPROCESSOR_COUNT, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
ABI_VALUE(GWC_ATTR_L2_CACHE_SIZE, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
ABI_VALUE(GWC_ERROR_INVALID_IMAGE, CUDA_ERROR_INVALID_IMAGE);
ABI_VALUE(GWC_ERROR_INVALID_PTX, CUDA_ERROR_INVALID_PTX);
ABI_VALUE(GWC_ERROR_UNSUPPORTED_PTX_VERSION, CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
ABI_VALUE(GWC_ERROR_INVALID_HANDLE, CUDA_ERROR_INVALID_HANDLE);
ABI_VALUE(GWC_ERROR_NOT_FOUND, CUDA_ERROR_NOT_FOUND);
ABI_VALUE(GWC_ERROR_NOT_READY, CUDA_ERROR_NOT_READY);
ABI_VALUE(GWC_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_ILLEGAL_ADDRESS);
ABI_VALUE(GWC_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER);
ABI_VALUE(GWC_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
ABI_VALUE(GWC_STREAM_NON_BLOCKING, CU_STREAM_NON_BLOCKING);
_Static_assert(sizeof(gwc_deviceptr) == sizeof(CUdeviceptr), "CUdeviceptr");
ABI_VALUE(GWC_ATTR_PCI_BUS_ID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
ABI_VALUE(GWC_ATTR_PCI_DEVICE_ID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
ABI_VALUE(GWC_ATTR_PCI_DOMAIN_ID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
ABI_VALUE(GWC_ATTR_COMPUTE_CAPABILITY_MAJOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
ABI_VALUE(GWC_ATTR_COMPUTE_CAPABILITY_MINOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
ABI_SIZE(int, CUdevice_attribute);
#endif

/* cuBLASLt as bench declares it (lib/bench/cublaslt.h). */
#include "bench/cublaslt.h"
#ifdef GW_CUBLASLT_H
/* Through the -isystem folder, not its path: NVIDIA's headers are not
 * -Wstrict-prototypes clean, and only a system header is excused. */
#include <cublasLt.h>

ABI_VALUE(GWB_STATUS_SUCCESS, CUBLAS_STATUS_SUCCESS);
ABI_VALUE(GWB_STATUS_NOT_SUPPORTED, CUBLAS_STATUS_NOT_SUPPORTED);
ABI_VALUE(GWB_R_32F, CUDA_R_32F);
ABI_VALUE(GWB_R_16F, CUDA_R_16F);
ABI_VALUE(GWB_R_16BF, CUDA_R_16BF);
ABI_VALUE(GWB_R_8F_E4M3, CUDA_R_8F_E4M3);
ABI_VALUE(GWB_COMPUTE_32F, CUBLAS_COMPUTE_32F);
ABI_VALUE(GWB_COMPUTE_32F_FAST_TF32, CUBLAS_COMPUTE_32F_FAST_TF32);
ABI_VALUE(GWB_DESC_TRANSA, CUBLASLT_MATMUL_DESC_TRANSA);
ABI_VALUE(GWB_DESC_TRANSB, CUBLASLT_MATMUL_DESC_TRANSB);
ABI_VALUE(GWB_PREF_MAX_WORKSPACE_BYTES, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES);
ABI_VALUE(GWB_OP_N, CUBLAS_OP_N);
ABI_VALUE(GWB_OP_T, CUBLAS_OP_T);
ABI_SIZE(gwb_algo, cublasLtMatmulAlgo_t);
ABI_SIZE(gwb_heuristic, cublasLtMatmulHeuristicResult_t);
ABI_FIELD(gwb_heuristic, cublasLtMatmulHeuristicResult_t, algo);
ABI_FIELD(gwb_heuristic, cublasLtMatmulHeuristicResult_t, state);
_Static_assert(offsetof(gwb_heuristic, workspace_size) == offsetof(cublasLtMatmulHeuristicResult_t, workspaceSize),
	       "gwb_heuristic.workspace_size");
_Static_assert(offsetof(gwb_heuristic, waves_count) == offsetof(cublasLtMatmulHeuristicResult_t, wavesCount),
	       "gwb_heuristic.waves_count");
_Static_assert(sizeof(((gwb_heuristic *)0)->waves_count) == sizeof(((cublasLtMatmulHeuristicResult_t *)0)->wavesCount),
	       "gwb_heuristic.waves_count size");
#endif

int main(void)
{
#ifdef GW_NVML_H
	printf("nvml_abi.h matches %s\n", GW_NVML_H);
#else
	printf("SKIP: no nvml.h found (install nvidia-nvml-dev-cu12 via scripts/setup); NVML layouts not checked\n");
#endif
#ifdef GW_CUDA_H
	printf("cuda_abi.h matches %s\n", GW_CUDA_H);
#else
	printf("SKIP: no cuda.h found; CUDA values not checked\n");
#endif
#ifdef GW_CUBLASLT_H
	printf("bench/cublaslt.h matches %s\n", GW_CUBLASLT_H);
#else
	printf("SKIP: no cublasLt.h found; cuBLASLt values not checked\n");
#endif
	if (gw_abi_fake_checked())
		printf("fake/nvml_types.h matches nvml_abi.h\n");
	else
		printf("SKIP: no fake/nvml_types.h\n");
	return 0;
}
