/* NVIDIA architecture names and CUDA cores per SM (lib/backend/arch.c),
 * for the NVML and CUDA backends. */
#ifndef GPUWISE_BACKEND_ARCH_H
#define GPUWISE_BACKEND_ARCH_H

/* NVIDIA: from NVML's architecture number, else from compute capability. */
const char *gw__nvidia_arch_name(unsigned nvml_arch);
const char *gw__nvidia_arch_from_cc(unsigned major, unsigned minor);
/* CUDA cores per SM for a compute capability, 0 when unknown. */
unsigned gw__cores_per_sm(unsigned major, unsigned minor);

#endif
