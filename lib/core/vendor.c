/* What gpuwise knows of each GPU vendor, written once: its PCI vendor id,
 * the names it goes by, the kernel driver that frameworks reach it
 * through, and the variables that pick its devices for a framework. The
 * backends, the doctor and the pool look here instead of repeating the
 * literals. */
#include "core/util.h"
#include "core/vendor.h"

static const gw__vendor_traits vendors[] = {
	{
		.vendor = GW_VENDOR_NVIDIA,
		.pci_vendor_id = 0x10de,
		.id = "nvidia",
		.short_name = "NVIDIA",
		.compute_driver = "nvidia",
		/* CUDA's own order variable is set beside it (docs/commands/run.md). */
		.visible_devices = { "CUDA_VISIBLE_DEVICES" },
		.uuid_prefix = "GPU-",
	},
	{
		.vendor = GW_VENDOR_AMD,
		.pci_vendor_id = 0x1002,
		.id = "amd",
		.short_name = "AMD",
		.compute_driver = "amdgpu",
		/* ROCm reads both: ROCR_ at the runtime, HIP_ on top of it. */
		.visible_devices = { "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES" },
	},
	{
		/* Seen on the bus and named, never read: no compute driver of
		 * a framework gpuwise serves. */
		.vendor = GW_VENDOR_INTEL,
		.pci_vendor_id = 0x8086,
		.id = "intel",
		.short_name = "Intel",
	},
};

static const gw__vendor_traits unknown = {
	.vendor = GW_VENDOR_UNKNOWN,
	.id = "unknown",
	.short_name = "Unknown",
};

const gw__vendor_traits *gw__vendor_traits_of(gw_vendor v)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(vendors); i++)
		if (vendors[i].vendor == v)
			return &vendors[i];
	return &unknown;
}

const gw__vendor_traits *gw__vendor_traits_by_pci(uint32_t pci_vendor_id)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(vendors); i++)
		if (vendors[i].pci_vendor_id == pci_vendor_id)
			return &vendors[i];
	return &unknown;
}
