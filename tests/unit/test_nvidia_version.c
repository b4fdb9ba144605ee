/* The NVIDIA version parsers (lib/backend/nvidia_version.c). */
#include <string.h>

#include "check.h"
#include "gpuwise/gpuwise.h"
#include "backend/nvidia_version.h"

static const char *module_version(const char *text)
{
	static char out[GW_STR_MAX];

	strcpy(out, "untouched");
	if (gw__nvidia_module_version_parse(text, strlen(text), out, sizeof(out)) < 0)
		return NULL;
	return out;
}

static const char *file_version(const char *path)
{
	static char out[GW_STR_MAX];

	if (gw__nvidia_version_from_filename(path, strlen(path), out, sizeof(out)) < 0)
		return NULL;
	return out;
}

int main(void)
{
	char small[6] = "xxxxx";

	CHECK_STR(module_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Thu Feb 22 01:44:30 UTC 2024\n"
				 "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n"), "550.54.15");
	CHECK_STR(module_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  560.35.03  Release Build  "
				 "(dvs-builder@U16-I3-B03-4-3)  Fri Aug 16 21:42:42 UTC 2024\n"), "560.35.03");
	CHECK_STR(module_version("NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.104.05  Sat Aug 19 2023"), "535.104.05");
	CHECK_STR(module_version("550.54.15\n"), "550.54.15");
	CHECK_STR(module_version("  470.182.03  "), "470.182.03");
	/* The GCC line's version must not be taken for the driver's. */
	CHECK(module_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module\nGCC version: gcc 12.2.0\n") == NULL);
	CHECK(module_version("") == NULL);
	CHECK(module_version("garbage") == NULL);
	CHECK(module_version("550") == NULL);
	CHECK(module_version("550..54") == NULL);
	CHECK(module_version("1.2.3 extra") == NULL);
	/* Bounded by len, not by the NUL. */
	CHECK(gw__nvidia_module_version_parse("550.54.15", 3, small, sizeof(small)) < 0);
	CHECK(gw__nvidia_module_version_parse("550.54.15", 9, small, sizeof(small)) < 0); /* too long for out */
	CHECK_STR(small, "xxxxx");
	CHECK(gw__nvidia_module_version_parse(NULL, 0, small, sizeof(small)) < 0);

	CHECK_STR(file_version("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.15"), "550.54.15");
	CHECK_STR(file_version("libcuda.so.535.104.05"), "535.104.05");
	CHECK(file_version("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1") == NULL);
	CHECK(file_version("/opt/x.so.1.2/libnvidia-ml.so") == NULL);
	CHECK(file_version("libnvidia-ml.so.550.54.15.bak") == NULL);
	CHECK(file_version("") == NULL);
	return CHECK_DONE();
}
