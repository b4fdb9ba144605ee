/* NVIDIA architecture names and CUDA cores per SM.
 * Sources: nvml.h nvmlDeviceArchitecture_t values (NVML_DEVICE_ARCH_*);
 * CUDA C Programming Guide, "Compute Capabilities" table
 * (arithmetic instructions: FP32 lanes per SM). */
#include <stddef.h>

#include "backend/arch.h"

const char *gw__nvidia_arch_name(unsigned nvml_arch)
{
	switch (nvml_arch) {
	case 2: return "Kepler";
	case 3: return "Maxwell";
	case 4: return "Pascal";
	case 5: return "Volta";
	case 6: return "Turing";
	case 7: return "Ampere";
	case 8: return "Ada Lovelace";
	case 9: return "Hopper";
	case 10: return "Blackwell";
	case 13: return "Rubin";
	default: return NULL;
	}
}

const char *gw__nvidia_arch_from_cc(unsigned major, unsigned minor)
{
	switch (major) {
	case 3: return "Kepler";
	case 5: return "Maxwell";
	case 6: return "Pascal";
	case 7: return minor >= 5 ? "Turing" : "Volta";
	case 8: return minor == 9 ? "Ada Lovelace" : "Ampere";
	case 9: return "Hopper";
	case 10:
	case 11:
	case 12: return "Blackwell";
	default: return NULL;
	}
}

unsigned gw__cores_per_sm(unsigned major, unsigned minor)
{
	switch (major) {
	case 3: return 192;
	case 5: return 128;
	case 6: return minor == 0 ? 64 : 128;
	case 7: return 64;
	case 8: return minor == 0 ? 64 : 128;
	case 9: return 128;
	case 10:
	case 11:
	case 12: return 128;
	default: return 0;
	}
}
