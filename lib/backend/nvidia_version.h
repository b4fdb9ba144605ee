/* Parsers for NVIDIA driver version strings, kept apart so they can be
 * fuzzed (tests/fuzz/fuzz_nvidia_version.c). Both accept untrusted bytes:
 * `text` need not be NUL-terminated. */
#ifndef GPUWISE_NVIDIA_VERSION_H
#define GPUWISE_NVIDIA_VERSION_H

#include <stddef.h>

/* The kernel module version from /proc/driver/nvidia/version
 * ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Thu Feb ...",
 * "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  ...")
 * or from /sys/module/nvidia/version ("550.54.15"). Writes "550.54.15" into
 * out. Returns 0, or GW_EPARSE when no version is found (out untouched). */
int gw__nvidia_module_version_parse(const char *text, size_t len, char *out, size_t outsz);

/* The driver version in a library file name, e.g.
 * "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.15" -> "550.54.15".
 * Only the part after "<name>.so." counts, and it must look like a version
 * with at least one dot ("libnvidia-ml.so.1" is a soname, not a version).
 * Returns 0 or GW_EPARSE. */
int gw__nvidia_version_from_filename(const char *path, size_t len, char *out, size_t outsz);

#endif
