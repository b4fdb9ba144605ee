/* The fake libnvidia-ml's declarations (fake/nvml_types.h, written
 * independently) against gpuwise's (lib/backend/nvml_abi.h). They cannot
 * share a unit with nvml.h (same names), so this file checks fake ==
 * gpuwise and test_abi.c checks gpuwise == NVIDIA. */
#include "abi_check.h"
#include "backend/nvml_abi.h"

int gw_abi_fake_checked(void);

#ifdef GW_FAKE_NVML_TYPES_H
#include GW_FAKE_NVML_TYPES_H
#include "nvml_checks.h"

ABI_VALUE(GWN_MEMORY_V2_VERSION, NVML_STRUCT_VERSION(sizeof(nvmlMemory_v2_t), 2));
ABI_SIZE(gwn_temperature_v1, nvmlTemperature_t);
ABI_FIELD(gwn_temperature_v1, nvmlTemperature_t, version);
ABI_FIELD(gwn_temperature_v1, nvmlTemperature_t, sensorType);
ABI_FIELD(gwn_temperature_v1, nvmlTemperature_t, temperature);
ABI_VALUE(GWN_TEMPERATURE_V1_VERSION, NVML_STRUCT_VERSION(sizeof(nvmlTemperature_t), 1));
ABI_FIELD(gwn_process_info, nvmlProcessInfo_t, pid);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_t, usedGpuMemory);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_t, gpuInstanceId);
ABI_FIELD(gwn_process_info, nvmlProcessInfo_t, computeInstanceId);
ABI_VALUE(GWN_VALUE_NOT_AVAILABLE_ULL, NVML_VALUE_NOT_AVAILABLE_ULL);

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
