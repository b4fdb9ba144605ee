/* The one list of backends, in the order they run (see gw_backend in
 * backend/backend.h). No self-registration: it breaks in static libraries and in
 * the Python extension. */
#include "device/device.h"
#include "backend/backend.h"

const gw_backend *const gw__backends[] = {
	&gw__backend_nvml,   /* NVIDIA devices, in NVML (nvidia-smi) order */
	&gw__backend_amdgpu, /* AMD devices over sysfs */
	&gw__backend_pci,    /* any GPU on the bus the others did not claim */
	&gw__backend_cuda,   /* annotates NVIDIA devices with CUDA's order and facts */
	NULL
};
