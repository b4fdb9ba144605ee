/* One row per GPU vendor (lib/core/vendor.c): every vendor literal lives there. */
#ifndef GPUWISE_CORE_VENDOR_H
#define GPUWISE_CORE_VENDOR_H

#include <stdint.h>

#include "gpuwise/gpuwise.h"

typedef struct gw__vendor_traits {
	gw_vendor vendor;
	uint32_t pci_vendor_id;          /* 0x10de; 0 for the unknown row */
	const char *id;                  /* "nvidia": gw_vendor_name(), JSON */
	const char *short_name;          /* "NVIDIA": names of GPUs no table knows */
	const char *compute_driver;      /* kernel driver frameworks use; NULL: none */
	const char *visible_devices[3];  /* variables that pick devices for a framework */
	const char *uuid_prefix;         /* "GPU-" where the vendor's UUIDs carry one */
} gw__vendor_traits;
/* Never NULL: a vendor gpuwise does not know gets the "unknown" row. */
const gw__vendor_traits *gw__vendor_traits_of(gw_vendor v);
const gw__vendor_traits *gw__vendor_traits_by_pci(uint32_t pci_vendor_id);

#endif
