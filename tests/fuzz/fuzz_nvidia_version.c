/* Fuzz the NVIDIA version parsers (lib/backend/nvidia_version.c): the
 * kernel module's /proc/driver/nvidia/version text and library file names. */
#include <stdint.h>
#include <string.h>

#include "gpuwise/gpuwise.h"
#include "backend/nvidia_version.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[GW_STR_MAX], tiny[4];

	if (gw__nvidia_module_version_parse((const char *)data, size, out, sizeof(out)) == 0 &&
	    strlen(out) >= sizeof(out))
		__builtin_trap();
	gw__nvidia_module_version_parse((const char *)data, size, tiny, sizeof(tiny));
	if (gw__nvidia_version_from_filename((const char *)data, size, out, sizeof(out)) == 0 &&
	    strlen(out) >= sizeof(out))
		__builtin_trap();
	gw__nvidia_version_from_filename((const char *)data, size, tiny, sizeof(tiny));
	return 0;
}
