/* The fake libnvidia-ml's declarations (fake/nvml_types.h, written
 * independently) against gpuwise's (lib/backend/nvml_abi.h). They cannot
 * share a unit with nvml.h (same names), so this file checks fake ==
 * gpuwise and test_abi.c checks gpuwise == NVIDIA. */
#include "abi_check.h"
#include "backend/nvml_abi.h"

int gw_abi_fake_checked(void);

#ifdef GW_FAKE_NVML_TYPES_H
#include GW_FAKE_NVML_TYPES_H

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
ABI_SIZE(int, nvmlGpuTopologyLevel_t);
ABI_SIZE(int, nvmlGpuP2PStatus_t);
ABI_SIZE(int, nvmlGpuP2PCapsIndex_t);
ABI_VALUE(GWN_TOPOLOGY_SINGLE, NVML_TOPOLOGY_SINGLE);
ABI_VALUE(GWN_TOPOLOGY_SYSTEM, NVML_TOPOLOGY_SYSTEM);
ABI_VALUE(GWN_P2P_CAPS_INDEX_PCI, NVML_P2P_CAPS_INDEX_PCI);
ABI_VALUE(GWN_P2P_STATUS_DISABLED_BY_REGKEY, NVML_P2P_STATUS_DISABLED_BY_REGKEY);
ABI_VALUE(GWN_P2P_STATUS_UNKNOWN, NVML_P2P_STATUS_UNKNOWN);
ABI_SIZE(gwn_memory, nvmlMemory_t);
ABI_FIELD(gwn_memory, nvmlMemory_t, total);
ABI_FIELD(gwn_memory, nvmlMemory_t, free);
ABI_FIELD(gwn_memory, nvmlMemory_t, used);
ABI_SIZE(gwn_memory_v2, nvmlMemory_v2_t);
ABI_FIELD(gwn_memory_v2, nvmlMemory_v2_t, version);
ABI_FIELD(gwn_memory_v2, nvmlMemory_v2_t, total);
ABI_FIELD(gwn_memory_v2, nvmlMemory_v2_t, reserved);
ABI_FIELD(gwn_memory_v2, nvmlMemory_v2_t, free);
ABI_FIELD(gwn_memory_v2, nvmlMemory_v2_t, used);
ABI_VALUE(GWN_MEMORY_V2_VERSION, NVML_STRUCT_VERSION(sizeof(nvmlMemory_v2_t), 2));
ABI_SIZE(gwn_bar1_memory, nvmlBAR1Memory_t);
ABI_FIELD(gwn_bar1_memory, nvmlBAR1Memory_t, bar1Total);
ABI_FIELD(gwn_bar1_memory, nvmlBAR1Memory_t, bar1Free);
ABI_FIELD(gwn_bar1_memory, nvmlBAR1Memory_t, bar1Used);
ABI_SIZE(gwn_utilization, nvmlUtilization_t);
ABI_FIELD(gwn_utilization, nvmlUtilization_t, gpu);
ABI_FIELD(gwn_utilization, nvmlUtilization_t, memory);
ABI_SIZE(gwn_temperature_v1, nvmlTemperature_t);
ABI_FIELD(gwn_temperature_v1, nvmlTemperature_t, version);
ABI_FIELD(gwn_temperature_v1, nvmlTemperature_t, sensorType);
ABI_FIELD(gwn_temperature_v1, nvmlTemperature_t, temperature);
ABI_VALUE(GWN_TEMPERATURE_V1_VERSION, NVML_STRUCT_VERSION(sizeof(nvmlTemperature_t), 1));
ABI_SIZE(gwn_process_info_v1, nvmlProcessInfo_v1_t);
ABI_FIELD(gwn_process_info_v1, nvmlProcessInfo_v1_t, pid);
ABI_FIELD(gwn_process_info_v1, nvmlProcessInfo_v1_t, usedGpuMemory);
ABI_SIZE(gwn_process_info, nvmlProcessInfo_t);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_t, pid);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_t, usedGpuMemory);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_t, gpuInstanceId);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_t, computeInstanceId);
ABI_SIZE(gwn_process_util_sample, nvmlProcessUtilizationSample_t);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, pid);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, timeStamp);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, smUtil);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, memUtil);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, encUtil);
ABI_FIELD(gwn_process_util_sample, nvmlProcessUtilizationSample_t, decUtil);
ABI_VALUE(GWN_VALUE_NOT_AVAILABLE_ULL, NVML_VALUE_NOT_AVAILABLE_ULL);
/* GPM */
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

/* Events (nvmlEventSetWait_v2's data). */
ABI_SIZE(gwn_event_data, nvmlEventData_t);
ABI_FIELD(gwn_event_data, nvmlEventData_t, device);
ABI_FIELD(gwn_event_data, nvmlEventData_t, eventType);
ABI_FIELD(gwn_event_data, nvmlEventData_t, eventData);
ABI_FIELD(gwn_event_data, nvmlEventData_t, gpuInstanceId);
ABI_FIELD(gwn_event_data, nvmlEventData_t, computeInstanceId);
ABI_VALUE(GWN_EVENT_XID_CRITICAL, nvmlEventTypeXidCriticalError);
ABI_VALUE(GWN_SUCCESS, NVML_SUCCESS);
ABI_VALUE(GWN_ERROR_UNINITIALIZED, NVML_ERROR_UNINITIALIZED);
ABI_VALUE(GWN_ERROR_INVALID_ARGUMENT, NVML_ERROR_INVALID_ARGUMENT);
ABI_VALUE(GWN_ERROR_NOT_SUPPORTED, NVML_ERROR_NOT_SUPPORTED);
ABI_VALUE(GWN_ERROR_NO_PERMISSION, NVML_ERROR_NO_PERMISSION);
ABI_VALUE(GWN_ERROR_NOT_FOUND, NVML_ERROR_NOT_FOUND);
ABI_VALUE(GWN_ERROR_INSUFFICIENT_SIZE, NVML_ERROR_INSUFFICIENT_SIZE);
ABI_VALUE(GWN_ERROR_ARGUMENT_VERSION_MISMATCH, NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
ABI_VALUE(GWN_ERROR_UNKNOWN, NVML_ERROR_UNKNOWN);
ABI_VALUE(GWN_PCI_BUS_ID_BUFFER, NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE);
ABI_VALUE(GWN_PCI_BUS_ID_LEGACY_BUFFER, NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE);

int gw_abi_fake_checked(void)
{
	return 1;
}
#else
int gw_abi_fake_checked(void)
{
	return 0;
}
#endif
