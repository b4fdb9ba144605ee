/* The pci and amdgpu sysfs backends against fake /sys trees built here,
 * and the parsers behind them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fake_tree.h"
#include "gpuwise/gpuwise.h"
#include "backend/sysfs_parse.h"

static gw_context *open_ctx(void)
{
	gw_context *ctx = NULL;

	CHECK_INT(gw_context_new(&ctx, NULL), 0);
	return ctx;
}

static const gw_device_info *by_bus(gw_context *ctx, const char *bus_id)
{
	int idx;

	if (gw_device_find(ctx, bus_id, &idx) < 0)
		return NULL;
	return gw_device_get(ctx, idx);
}

static int index_of(gw_context *ctx, const char *bus_id)
{
	int idx;

	return gw_device_find(ctx, bus_id, &idx) < 0 ? -1 : idx;
}

static const gw_backend_status *backend(gw_context *ctx, const char *name)
{
	return gw_context_backend(ctx, name);
}

/* One PCI function: /sys/bus/pci/devices/<bdf>/{class,vendor,device,...}. */
static void pci_fn(const char *bdf, const char *cls, const char *vendor, const char *device)
{
	char p[256];

	snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/class", bdf);
	tree_put(p, cls);
	snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/vendor", bdf);
	tree_put(p, vendor);
	snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/device", bdf);
	tree_put(p, device);
}

static void pci_attr(const char *bdf, const char *name, const char *value)
{
	char p[256];

	snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/%s", bdf, name);
	tree_put(p, value);
}

static void pci_driver(const char *bdf, const char *target)
{
	char p[256];

	snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/driver", bdf);
	tree_link(p, target);
}

/* ---- parsers ------------------------------------------------------------- */

static void test_parsers(void)
{
	unsigned gen = 0, w = 0;
	uint32_t v = 0;
	char buf[64];
	uint64_t max = 0, cur = 0, ue = 9, ce = 9;
	bool have_cur = false;
	int64_t i64 = 0;
	gw_kfd_node node;

	CHECK_INT(gw__sysfs_parse_link_speed("16.0 GT/s PCIe", &gen), 0);
	CHECK_INT(gen, 4);
	CHECK_INT(gw__sysfs_parse_link_speed("8.0 GT/s\n", &gen), 0);
	CHECK_INT(gen, 3);
	CHECK_INT(gw__sysfs_parse_link_speed("2.5 GT/s PCIe", &gen), 0);
	CHECK_INT(gen, 1);
	CHECK_INT(gw__sysfs_parse_link_speed("5 GT/s", &gen), 0);
	CHECK_INT(gen, 2);
	CHECK_INT(gw__sysfs_parse_link_speed("64.0 GT/s PCIe", &gen), 0);
	CHECK_INT(gen, 6);
	CHECK_INT(gw__sysfs_parse_link_speed("Unknown", &gen), GW_ENOTSUP);
	CHECK_INT(gw__sysfs_parse_link_speed("Unknown speed", &gen), GW_EPARSE);
	CHECK_INT(gw__sysfs_parse_link_speed("16,0 GT/s", &gen), GW_EPARSE);
	CHECK_INT(gw__sysfs_parse_link_speed("17.0 GT/s", &gen), GW_EPARSE);
	CHECK_INT(gw__sysfs_parse_link_speed("16.0 GT/s PCIe x", &gen), GW_EPARSE);
	CHECK_INT(gw__sysfs_parse_link_speed("", &gen), GW_EPARSE);
	CHECK_INT(gw__sysfs_parse_link_width("16", &w), 0);
	CHECK_INT(w, 16);
	CHECK_INT(gw__sysfs_parse_link_width("99", &w), GW_EPARSE);

	CHECK_INT(gw__sysfs_parse_hex("0x030200\n", 0xffffff, &v), 0);
	CHECK_INT(v, 0x030200);
	CHECK(gw__sysfs_is_display_class(v));
	CHECK(gw__sysfs_is_display_class(0x038000));
	CHECK(!gw__sysfs_is_display_class(0x040300));
	CHECK_INT(gw__sysfs_parse_hex("0x10de", 0xffff, &v), 0);
	CHECK_INT(gw__sysfs_vendor_from_pci(v), GW_VENDOR_NVIDIA);
	CHECK_INT(gw__sysfs_vendor_from_pci(0x1a03), GW_VENDOR_UNKNOWN);
	CHECK_INT(gw__sysfs_parse_hex("0x110de", 0xffff, &v), GW_EPARSE);
	CHECK_INT(gw__sysfs_parse_hex("0x", 0xffff, &v), GW_EPARSE);
	CHECK_INT(gw__sysfs_parse_hex("0x10dez", 0xffff, &v), GW_EPARSE);
	CHECK_INT(gw__sysfs_parse_hex("0x0000000000010de", 0xffffffff, &v), GW_EPARSE);

	CHECK_INT(gw__sysfs_gfx_name(90402, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "gfx942");
	CHECK_INT(gw__sysfs_gfx_name(110000, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "gfx1100");
	CHECK_INT(gw__sysfs_gfx_name(100300, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "gfx1030");
	CHECK_INT(gw__sysfs_gfx_name(90010, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "gfx90a");
	CHECK_INT(gw__sysfs_gfx_name(110501, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "gfx1151");
	CHECK_INT(gw__sysfs_gfx_name(0, buf, sizeof(buf)), GW_EPARSE);
	CHECK_INT(gw__sysfs_gfx_name(91700, buf, sizeof(buf)), GW_EPARSE);
	CHECK_INT(gw__sysfs_gfx_name(UINT64_MAX, buf, sizeof(buf)), GW_EPARSE);
	CHECK_STR(gw__sysfs_amd_arch("gfx942"), "CDNA3");
	CHECK_STR(gw__sysfs_amd_arch("gfx950"), "CDNA4");
	CHECK_STR(gw__sysfs_amd_arch("gfx90a"), "CDNA2");
	CHECK_STR(gw__sysfs_amd_arch("gfx908"), "CDNA1");
	CHECK_STR(gw__sysfs_amd_arch("gfx906"), "GCN5");
	CHECK_STR(gw__sysfs_amd_arch("gfx1010"), "RDNA1");
	CHECK_STR(gw__sysfs_amd_arch("gfx1030"), "RDNA2");
	CHECK_STR(gw__sysfs_amd_arch("gfx1100"), "RDNA3");
	CHECK_STR(gw__sysfs_amd_arch("gfx1201"), "RDNA4");
	CHECK(gw__sysfs_amd_arch("gfx") == NULL);
	CHECK(gw__sysfs_amd_arch("gfx99999") == NULL);
	CHECK(gw__sysfs_amd_arch("sm_90") == NULL);

	CHECK_INT(gw__sysfs_parse_dpm("0: 500Mhz\n1: 1800Mhz *\n2: 2100Mhz\n", 34, &max, &cur, &have_cur), 0);
	CHECK_INT(max, 2100);
	CHECK_INT(cur, 1800);
	CHECK(have_cur);
	{
		const char *t = "S: 132Mhz *\n0: 500Mhz\n1: 2100MHz \n";

		CHECK_INT(gw__sysfs_parse_dpm(t, strlen(t), &max, &cur, &have_cur), 0);
		CHECK_INT(max, 2100);
		CHECK_INT(cur, 132);
	}
	CHECK_INT(gw__sysfs_parse_dpm("0: 500\n", 7, &max, &cur, &have_cur), GW_EPARSE);
	CHECK_INT(gw__sysfs_parse_dpm("", 0, &max, &cur, &have_cur), GW_EPARSE);

	{
		const char *props = "cpu_cores_count 0\nsimd_count 1216\nsimd_per_cu 4\n"
				    "gfx_target_version 90402\nlocation_id 49408\ndomain 0\nbogus\nvendor_id x\n";

		CHECK_INT(gw__sysfs_parse_kfd_properties(props, strlen(props), &node), 0);
		CHECK_INT(node.simd_count, 1216);
		CHECK_INT(node.gfx_target_version, 90402);
		CHECK_INT(node.location_id, gw__sysfs_location_id(0xc1, 0, 0));
		CHECK(!(node.have & GW_KFD_VENDOR_ID));
		CHECK_INT(gw__sysfs_parse_kfd_properties("junk\n", 5, &node), GW_EPARSE);
	}
	CHECK_INT(gw__sysfs_parse_ras_count("ue: 1\nce: 22\n", 13, &ue, &ce), 0);
	CHECK_INT(ue, 1);
	CHECK_INT(ce, 22);
	CHECK_INT(gw__sysfs_parse_i64("-5000\n", &i64), 0);
	CHECK_INT(i64, -5000);
	CHECK_INT(gw__sysfs_parse_i64("--5", &i64), GW_EPARSE);
	CHECK_INT(gw__sysfs_parse_i64("99999999999999999999999", &i64), GW_EPARSE);

	{
		const char *ids = "# comment\n10de  NVIDIA Corporation\n\t1db6  GV100GL [Tesla V100 PCIe 32GB]\n"
				  "\t2330  GH100 [H100 SXM5 80GB]\n\t\t10de 16c1  H100 SXM5 80GB\n"
				  "1002  Advanced Micro Devices, Inc. [AMD/ATI]\n\t74a1  Aqua Vanjaram [Instinct MI300X]\n"
				  "1af4  Red Hat\n\t2330  Not a GPU\nC 03  Display controller\n";

		CHECK_INT(gw__sysfs_pci_ids_lookup(ids, strlen(ids), 0x10de, 0x2330, buf, sizeof(buf)), 0);
		CHECK_STR(buf, "NVIDIA GH100 [H100 SXM5 80GB]");
		CHECK_INT(gw__sysfs_pci_ids_lookup(ids, strlen(ids), 0x1002, 0x74a1, buf, sizeof(buf)), 0);
		CHECK_STR(buf, "AMD Aqua Vanjaram [Instinct MI300X]");
		CHECK_INT(gw__sysfs_pci_ids_lookup(ids, strlen(ids), 0x10de, 0x9999, buf, sizeof(buf)), GW_ENOTFOUND);
		CHECK_INT(gw__sysfs_pci_ids_lookup(ids, strlen(ids), 0x1af4, 0x2330, buf, sizeof(buf)), 0);
		CHECK_STR(buf, "Red Hat Not a GPU");
	}
}

/* ---- NVIDIA on the bus, without a working driver ------------------------------ */

static void nvidia_base(const char *bdf)
{
	pci_fn(bdf, "0x030200\n", "0x10de\n", "0x2330\n");
	pci_attr(bdf, "subsystem_vendor", "0x10de\n");
	pci_attr(bdf, "subsystem_device", "0x16c1\n");
	pci_attr(bdf, "max_link_speed", "32.0 GT/s PCIe\n");
	pci_attr(bdf, "max_link_width", "16\n");
	pci_attr(bdf, "current_link_speed", "2.5 GT/s PCIe\n");
	pci_attr(bdf, "current_link_width", "16\n");
}

static void test_nvidia_no_driver(void)
{
	gw_context *ctx;
	const gw_device_info *d;
	gw_device_sample s;

	tree_new();
	nvidia_base("0000:18:00.0");
	/* Not GPUs: the GPU's audio function, a NIC, a BMC's VGA of another vendor. */
	pci_fn("0000:18:00.1", "0x040300\n", "0x10de\n", "0x22a3\n");
	pci_fn("0000:05:00.0", "0x020000\n", "0x8086\n", "0x1521\n");
	pci_fn("0000:02:00.0", "0x030000\n", "0x1a03\n", "0x2000\n");
	pci_driver("0000:05:00.0", "../../../bus/pci/drivers/igb");
	if (!(ctx = open_ctx()))
		return;
	CHECK_INT(gw_device_count(ctx), 1);
	d = by_bus(ctx, "18:00.0");
	CHECK(d != NULL);
	if (d) {
		CHECK_INT(d->vendor, GW_VENDOR_NVIDIA);
		CHECK_INT(d->health, GW_HEALTH_NO_DRIVER);
		CHECK_STR(d->health_reason, "no kernel driver bound");
		CHECK_STR(d->backend, "pci");
		/* Named from gpuwise's own table when the tree has no pci.ids. */
		CHECK_STR(d->name.s, "NVIDIA H100 SXM5 80GB");
		CHECK_STR(d->architecture.s, "Hopper");
		CHECK_INT(d->cc_major.v, 9);
		CHECK_INT(d->cc_minor.v, 0);
		CHECK_STR(d->pci_bus_id.s, "0000:18:00.0");
		CHECK_INT(d->pci_device_id.v, 0x2330);
		CHECK_INT(d->pci_subsystem_id.v, 0x16c110de);
		CHECK(GW_VALID(d->kernel_driver));
		CHECK_STR(d->kernel_driver.s, "");
		CHECK_INT(d->pcie_max_gen.v, 5);
		CHECK_INT(d->pcie_max_width.v, 16);
		CHECK(!GW_VALID(d->memory_total));
		CHECK_INT(gw_device_sample_read(ctx, index_of(ctx, "18:00.0"), &s), 0);
		CHECK_INT(s.pcie_gen.v, 1);
		CHECK(GW_VALID(s.pcie_gen));
		CHECK_INT(s.memory_used.state, GW_FIELD_UNREAD);
		CHECK_INT(s.temperature.state, GW_FIELD_UNREAD);
	}
	CHECK_INT(backend(ctx, "pci")->state, GW_BACKEND_OK);
	CHECK_INT(backend(ctx, "amdgpu")->state, GW_BACKEND_NOTHING_FOUND);
	gw_context_free(ctx);

	/* With pci.ids the name is the marketing one. */
	tree_put("usr/share/misc/pci.ids", "10de  NVIDIA Corporation\n\t2330  GH100 [H100 SXM5 80GB]\n");
	if (!(ctx = open_ctx()))
		return;
	d = by_bus(ctx, "0000:18:00.0");
	CHECK(d && !strcmp(d->name.s, "NVIDIA GH100 [H100 SXM5 80GB]"));
	gw_context_free(ctx);
}

static void test_nvidia_wrong_driver(void)
{
	gw_context *ctx;
	const gw_device_info *d;

	tree_new();
	nvidia_base("0000:18:00.0");
	pci_driver("0000:18:00.0", "../../../bus/pci/drivers/nouveau");
	nvidia_base("0000:3b:00.0");
	pci_driver("0000:3b:00.0", "/sys/bus/pci/drivers/nvidia"); /* absolute, dangling */
	nvidia_base("0000:86:00.0");
	pci_driver("0000:86:00.0", "../../../bus/pci/drivers/vfio-pci");
	if (!(ctx = open_ctx()))
		return;
	CHECK_INT(gw_device_count(ctx), 3);
	d = by_bus(ctx, "18:00.0");
	CHECK(d != NULL);
	if (d) {
		CHECK_INT(d->health, GW_HEALTH_NO_DRIVER);
		CHECK_STR(d->health_reason, "bound to nouveau, not nvidia");
		CHECK_STR(d->kernel_driver.s, "nouveau");
	}
	d = by_bus(ctx, "3b:00.0");
	CHECK(d != NULL);
	if (d) {
		CHECK_INT(d->health, GW_HEALTH_NO_DRIVER);
		CHECK(!strncmp(d->health_reason, "nvidia driver bound but NVML", 28));
		CHECK_STR(d->kernel_driver.s, "nvidia");
	}
	d = by_bus(ctx, "86:00.0");
	CHECK(d && !strcmp(d->health_reason, "bound to vfio-pci, not nvidia"));
	gw_context_free(ctx);

	/* GW_OPT_NO_SYSFS: nothing reads the bus. */
	{
		gw_options o = GW_OPTIONS_INIT;

		o.flags = GW_OPT_NO_SYSFS;
		ctx = NULL;
		CHECK_INT(gw_context_new(&ctx, &o), 0);
		if (ctx) {
			CHECK_INT(gw_device_count(ctx), 0);
			gw_context_free(ctx);
		}
	}
}

/* ---- AMD -------------------------------------------------------------------- */

static void kfd_node(int n, const char *props)
{
	char p[256];

	snprintf(p, sizeof(p), "sys/class/kfd/kfd/topology/nodes/%d/properties", n);
	tree_put(p, props);
}

static void mi300x(const char *bdf)
{
	pci_fn(bdf, "0x038000\n", "0x1002\n", "0x74a1\n");
	pci_driver(bdf, "../../../bus/pci/drivers/amdgpu");
	pci_attr(bdf, "subsystem_vendor", "0x1002\n");
	pci_attr(bdf, "subsystem_device", "0x74a1\n");
	pci_attr(bdf, "product_name", "AMD Instinct MI300X\n");
	pci_attr(bdf, "unique_id", "a1b2c3d4e5f60718\n");
	pci_attr(bdf, "serial_number", "692251001124\n");
	pci_attr(bdf, "vbios_version", "113-M3000100-102\n");
	pci_attr(bdf, "mem_info_vram_total", "206141652992\n");
	pci_attr(bdf, "mem_info_vram_used", "1073741824\n");
	pci_attr(bdf, "gpu_busy_percent", "37\n");
	pci_attr(bdf, "mem_busy_percent", "5\n");
	pci_attr(bdf, "max_link_speed", "32.0 GT/s PCIe\n");
	pci_attr(bdf, "max_link_width", "16\n");
	pci_attr(bdf, "current_link_speed", "32.0 GT/s PCIe\n");
	pci_attr(bdf, "current_link_width", "16\n");
	pci_attr(bdf, "pp_dpm_sclk", "0: 500Mhz\n1: 1300Mhz *\n2: 2100Mhz\n");
	pci_attr(bdf, "pp_dpm_mclk", "0: 900Mhz\n1: 1300Mhz *\n");
	pci_attr(bdf, "ras/umc_err_count", "ue: 0\nce: 2\n");
	/* MI300X has no edge sensor: junction and memory only. */
	pci_attr(bdf, "hwmon/hwmon3/name", "amdgpu\n");
	pci_attr(bdf, "hwmon/hwmon3/temp2_label", "junction\n");
	pci_attr(bdf, "hwmon/hwmon3/temp2_input", "45000\n");
	pci_attr(bdf, "hwmon/hwmon3/temp2_crit", "110000\n");
	pci_attr(bdf, "hwmon/hwmon3/temp2_emergency", "115000\n");
	pci_attr(bdf, "hwmon/hwmon3/temp3_label", "mem\n");
	pci_attr(bdf, "hwmon/hwmon3/temp3_input", "38000\n");
	pci_attr(bdf, "hwmon/hwmon3/power1_input", "152000000\n");
	pci_attr(bdf, "hwmon/hwmon3/power1_cap", "750000000\n");
}

static void test_amd_mi300x(void)
{
	gw_context *ctx;
	const gw_device_info *d;
	gw_device_sample s;
	gw_process *procs = (gw_process *)1;
	size_t nproc = 99;
	int idx;

	tree_new();
	mi300x("0000:c1:00.0");
	tree_put("sys/module/amdgpu/version", "6.8.5\n");
	kfd_node(0, "cpu_cores_count 96\nsimd_count 0\nlocation_id 0\n");
	/* Another GPU's node first, to prove the match is by location. */
	kfd_node(1, "simd_count 160\nsimd_per_cu 2\ngfx_target_version 100300\nlocation_id 768\ndomain 0\n");
	kfd_node(2, "simd_count 1216\nsimd_per_cu 4\ngfx_target_version 90402\nlocation_id 49408\ndomain 0\n"
		    "max_engine_clk_fcompute 2100\n");
	tree_mkdir("sys/class/drm/card1");
	tree_link("sys/class/drm/card1/device", "../../../bus/pci/devices/0000:c1:00.0");
	tree_mkdir("sys/class/drm/card1-DP-1");
	if (!(ctx = open_ctx()))
		return;
	CHECK_INT(gw_device_count(ctx), 1);
	CHECK_INT(backend(ctx, "amdgpu")->state, GW_BACKEND_OK);
	CHECK_INT(backend(ctx, "pci")->state, GW_BACKEND_OK);
	CHECK_STR(gw_context_driver(ctx)->amdgpu_version.s, "6.8.5");
	idx = index_of(ctx, "c1:00.0");
	d = gw_device_get(ctx, idx);
	CHECK(d != NULL);
	if (!d) {
		gw_context_free(ctx);
		return;
	}
	CHECK_INT(d->vendor, GW_VENDOR_AMD);
	CHECK_INT(d->health, GW_HEALTH_OK);
	CHECK_STR(d->backend, "amdgpu");
	CHECK_STR(d->name.s, "AMD Instinct MI300X");
	CHECK_STR(d->uuid.s, "a1b2c3d4e5f60718");
	CHECK_STR(d->serial.s, "692251001124");
	CHECK_STR(d->vbios_version.s, "113-M3000100-102");
	CHECK_STR(d->kernel_driver.s, "amdgpu");
	CHECK_INT(d->pci_vendor_id.v, 0x1002);
	CHECK_INT(d->pci_device_id.v, 0x74a1);
	CHECK_STR(d->gfx_target.s, "gfx942");
	CHECK_STR(d->architecture.s, "CDNA3");
	CHECK_INT(d->multiprocessor_count.v, 304);
	CHECK(GW_VALID(d->multiprocessor_count));
	CHECK_INT(d->memory_total.v, 206141652992ULL);
	CHECK_INT(d->pcie_max_gen.v, 5);
	CHECK_INT(d->pcie_max_width.v, 16);
	CHECK_INT(d->max_sm_clock.v, 2100);
	CHECK_INT(d->max_mem_clock.v, 1300);
	CHECK_INT(d->cc_major.state, GW_FIELD_NOT_SUPPORTED);
	CHECK_INT(d->board_part_number.state, GW_FIELD_NOT_SUPPORTED);

	CHECK_INT(gw_device_sample_read(ctx, idx, &s), 0);
	CHECK_INT(s.memory_used.v, 1073741824);
	CHECK_INT(s.memory_free.v, 206141652992ULL - 1073741824);
	CHECK(GW_VALID(s.memory_free));
	CHECK_INT(s.gpu_util.v, 37);
	CHECK_INT(s.mem_util.v, 5);
	CHECK(GW_VALID(s.temperature) && s.temperature.v > 44.99 && s.temperature.v < 45.01);
	CHECK(GW_VALID(s.temperature_memory) && s.temperature_memory.v > 37.99 && s.temperature_memory.v < 38.01);
	CHECK(GW_VALID(s.temperature_slowdown) && s.temperature_slowdown.v > 109.99);
	CHECK(GW_VALID(s.temperature_shutdown) && s.temperature_shutdown.v > 114.99);
	CHECK(GW_VALID(s.power_draw) && s.power_draw.v > 151.99 && s.power_draw.v < 152.01);
	CHECK(GW_VALID(s.power_limit) && s.power_limit.v > 749.99 && s.power_limit.v < 750.01);
	CHECK_INT(s.fan_percent.state, GW_FIELD_NOT_SUPPORTED);
	CHECK_INT(s.energy.state, GW_FIELD_NOT_SUPPORTED);
	CHECK_INT(s.sm_clock.v, 1300);
	CHECK_INT(s.mem_clock.v, 1300);
	CHECK_INT(s.pcie_gen.v, 5);
	CHECK_INT(s.pcie_width.v, 16);
	CHECK_INT(s.ecc_corrected_volatile.v, 2);
	CHECK_INT(s.ecc_uncorrected_volatile.v, 0);
	CHECK_INT(s.throttle_reasons.state, GW_FIELD_NOT_SUPPORTED);
	CHECK_INT(s.mig_current.state, GW_FIELD_NOT_SUPPORTED);

	/* No /proc in this tree: no process uses the GPU (an empty list, not ENOTSUP). */
	CHECK_INT(gw_device_processes(ctx, idx, &procs, &nproc), 0);
	CHECK(procs == NULL);
	CHECK_INT(nproc, 0);
	gw_context_free(ctx);
}

static void fdinfo(int pid, int fd, const char *text)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "proc/%d/fdinfo/%d", pid, fd);
	tree_put(rel, text);
}

static const gw_process *proc_of(const gw_process *list, size_t n, uint32_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (list[i].pid == pid)
			return &list[i];
	return NULL;
}

/* An exact-length parse of a string literal. */
#define PARSE_FDINFO(lit) gw__proc_parse_drm_fdinfo(lit, sizeof(lit) - 1, &fi)

static void test_fdinfo_parser(void)
{
	static const char dup_key[] = "drm-driver:\tamdgpu\ndrm-pdev:\t0000:c1:00.0\n"
				      "drm-resident-vram:\t2 MiB\ndrm-memory-vram:\t1024 KiB\n";
	static const char nul[] = "drm-driver:\tamd\0gpu\ndrm-pdev:\t0000:c1:00.0\n";
	gw_drm_fdinfo fi;

	/* drm-memory-vram wins over drm-resident-vram whatever the order. */
	CHECK_INT(gw__proc_parse_drm_fdinfo(dup_key, sizeof(dup_key) - 1, &fi), 0);
	CHECK_INT(fi.vram_bytes, 1048576);
	CHECK_STR(fi.driver, "amdgpu");
	CHECK(!(fi.have & GW_FDINFO_CLIENT_ID));
	/* amdgpu 5.x: no drm-driver; pdev, pasid and "vram mem" in kB. */
	CHECK_INT(PARSE_FDINFO("pdev:\t0000:c1:00.0\npasid:\t32770\nvram mem:\t4 kB\n"), 0);
	CHECK_STR(fi.driver, "amdgpu");
	CHECK_STR(fi.pdev, "0000:c1:00.0");
	CHECK_INT(fi.client_id, 32770);
	CHECK_INT(fi.vram_bytes, 4096);
	/* Not DRM, an embedded NUL, a size with a bad unit or overflowing. */
	CHECK_INT(PARSE_FDINFO("pos:\t0\nflags:\t02\nmnt_id:\t25\n"), GW_EPARSE);
	CHECK_INT(gw__proc_parse_drm_fdinfo(nul, sizeof(nul) - 1, &fi), GW_EPARSE);
	CHECK_INT(PARSE_FDINFO("drm-driver:\ti915\ndrm-memory-vram:\t5 parsecs\n"), 0);
	CHECK(!(fi.have & GW_FDINFO_VRAM));
	CHECK_INT(PARSE_FDINFO("drm-driver:\tx\ndrm-memory-vram:\t99999999999999999 GiB\n"), 0);
	CHECK(!(fi.have & GW_FDINFO_VRAM));
}

static void test_amd_processes(void)
{
	gw_context *ctx;
	gw_process *procs = NULL;
	const gw_process *p;
	size_t nproc = 99;
	int a, b;

	tree_new();
	mi300x("0000:c1:00.0");
	mi300x("0000:c2:00.0");
	/* pid 100: one client through two fds (dup) plus a second client, on c1. */
	fdinfo(100, 0, "pos:\t0\nflags:\t0100002\nmnt_id:\t25\nino:\t4\n");
	fdinfo(100, 5, "pos:\t0\nflags:\t02100002\ndrm-driver:\tamdgpu\ndrm-client-id:\t42\n"
		       "drm-pdev:\t0000:c1:00.0\npasid:\t32769\ndrm-memory-gtt:\t2048 KiB\n"
		       "drm-memory-vram:\t123456 KiB\ndrm-total-vram:\t130000 KiB\ndrm-resident-vram:\t123000 KiB\n"
		       "drm-engine-gfx:\t5000 ns\n");
	fdinfo(100, 6, "drm-driver:\tamdgpu\ndrm-client-id:\t42\ndrm-pdev:\t0000:c1:00.0\n"
		       "drm-memory-vram:\t123456 KiB\n");
	fdinfo(100, 7, "drm-driver:\tamdgpu\ndrm-client-id:\t43\ndrm-pdev:\tC1:00.0\n"
		       "drm-resident-vram:\t2 MiB\n");
	/* pid 200: an amdgpu 5.x kernel's format, on c1. */
	fdinfo(200, 3, "pdev:\t0000:c1:00.0\npasid:\t32770\nvram mem:\t1234 kB\ngtt mem:\t0 kB\n");
	/* pid 300: on the other GPU only; also garbage and another driver. */
	fdinfo(300, 4, "drm-driver:\tamdgpu\ndrm-client-id:\t7\ndrm-pdev:\t0000:c2:00.0\n"
		       "drm-memory-vram:\t1 KiB\n");
	{
		static const char garbage[] = "\xff\0drm-driver:\tamdgpu\n\x01garbage:::\n";

		tree_putn("proc/300/fdinfo/5", garbage, sizeof(garbage) - 1);
	}
	fdinfo(300, 6, "drm-driver:\ti915\ndrm-client-id:\t9\ndrm-pdev:\t0000:c1:00.0\n");
	/* pid 400: a DRM fd without VRAM keys; a non-numeric fd and pid are skipped. */
	fdinfo(400, 8, "drm-driver:\tamdgpu\ndrm-client-id:\t50\ndrm-pdev:\t0000:c1:00.0\n");
	tree_put("proc/400/fdinfo/notanfd", "drm-driver:\tamdgpu\ndrm-client-id:\t51\ndrm-pdev:\t0000:c1:00.0\n"
					    "drm-memory-vram:\t1 KiB\n");
	tree_put("proc/self/fdinfo/1", "drm-driver:\tamdgpu\ndrm-client-id:\t52\ndrm-pdev:\t0000:c1:00.0\n");
	/* pid 500 has no fdinfo folder (another user's process). */
	tree_put("proc/500/status", "Uid:\t0\t0\t0\t0\n");
	if (!(ctx = open_ctx()))
		return;
	a = index_of(ctx, "c1:00.0");
	b = index_of(ctx, "c2:00.0");
	CHECK_INT(gw_device_processes(ctx, a, &procs, &nproc), 0);
	CHECK_INT(nproc, 3);
	CHECK((p = proc_of(procs, nproc, 100)) != NULL);
	if (p) {
		CHECK_INT(p->type, GW_PROCESS_COMPUTE);
		CHECK(GW_VALID(p->used_memory));
		CHECK_INT(p->used_memory.v, 123456ULL * 1024 + 2 * 1048576);
	}
	CHECK((p = proc_of(procs, nproc, 200)) != NULL);
	if (p)
		CHECK_INT(p->used_memory.v, 1234ULL * 1024);
	CHECK((p = proc_of(procs, nproc, 400)) != NULL);
	if (p)
		CHECK_INT(p->used_memory.state, GW_FIELD_NOT_SUPPORTED);
	CHECK(proc_of(procs, nproc, 300) == NULL);
	gw_processes_free(procs);
	CHECK_INT(gw_device_processes(ctx, b, &procs, &nproc), 0);
	CHECK_INT(nproc, 1);
	if (nproc == 1) {
		CHECK_INT(procs[0].pid, 300);
		CHECK_INT(procs[0].used_memory.v, 1024);
	}
	gw_processes_free(procs);
	gw_context_free(ctx);

	/* Processes exist, none on this GPU: an empty list. */
	tree_new();
	mi300x("0000:c1:00.0");
	fdinfo(300, 4, "drm-driver:\tamdgpu\ndrm-client-id:\t7\ndrm-pdev:\t0000:c2:00.0\n");
	if ((ctx = open_ctx())) {
		procs = (gw_process *)1;
		CHECK_INT(gw_device_processes(ctx, 0, &procs, &nproc), 0);
		CHECK(procs == NULL);
		CHECK_INT(nproc, 0);
		gw_context_free(ctx);
	}
}

static void test_amd_rdna2(void)
{
	gw_context *ctx;
	const gw_device_info *d;
	gw_device_sample s;
	int idx;

	tree_new();
	/* An RX 6800 XT: no product_name, fan, edge sensor, power1_average. */
	pci_fn("0000:03:00.0", "0x030000\n", "0x1002\n", "0x73bf\n");
	pci_driver("0000:03:00.0", "../../../bus/pci/drivers/amdgpu");
	pci_attr("0000:03:00.0", "product_name", "\n");
	pci_attr("0000:03:00.0", "mem_info_vram_total", "17163091968\n");
	pci_attr("0000:03:00.0", "mem_info_vram_used", "536870912\n");
	pci_attr("0000:03:00.0", "gpu_busy_percent", "0\n");
	pci_attr("0000:03:00.0", "hwmon/hwmon1/temp1_label", "edge\n");
	pci_attr("0000:03:00.0", "hwmon/hwmon1/temp1_input", "52000\n");
	pci_attr("0000:03:00.0", "hwmon/hwmon1/temp2_label", "junction\n");
	pci_attr("0000:03:00.0", "hwmon/hwmon1/temp2_input", "60000\n");
	pci_attr("0000:03:00.0", "hwmon/hwmon1/power1_average", "35000000\n");
	pci_attr("0000:03:00.0", "hwmon/hwmon1/pwm1", "128\n");
	pci_attr("0000:03:00.0", "hwmon/hwmon1/pwm1_max", "255\n");
	kfd_node(1, "simd_count 160\nsimd_per_cu 2\ngfx_target_version 100300\nlocation_id 768\ndomain 0\n");
	/* A second card known only through /sys/class/drm, with an absolute
	 * link into /sys/devices (read under the root, not on this machine). */
	tree_mkdir("sys/class/drm/card0");
	tree_link("sys/class/drm/card0/device", "/sys/devices/pci0000:00/0000:00:01.1/0000:0a:00.0");
	tree_put("sys/devices/pci0000:00/0000:00:01.1/0000:0a:00.0/vendor", "0x1002\n");
	tree_put("sys/devices/pci0000:00/0000:00:01.1/0000:0a:00.0/device", "0x744c\n");
	tree_put("sys/devices/pci0000:00/0000:00:01.1/0000:0a:00.0/revision", "0xc8\n");
	tree_put("sys/devices/pci0000:00/0000:00:01.1/0000:0a:00.0/class", "0x030000\n");
	tree_link("sys/devices/pci0000:00/0000:00:01.1/0000:0a:00.0/driver", "../../../../bus/pci/drivers/amdgpu");
	kfd_node(2, "simd_count 192\nsimd_per_cu 2\ngfx_target_version 110000\nlocation_id 2560\n");
	if (!(ctx = open_ctx()))
		return;
	CHECK_INT(gw_device_count(ctx), 2);
	idx = index_of(ctx, "03:00.0");
	d = gw_device_get(ctx, idx);
	CHECK(d != NULL);
	if (d) {
		/* No product_name and no revision: 0x73bf is sold as the RX 6800,
		 * 6800 XT and 6900 XT, so the name is its gfx target's family. */
		CHECK_STR(d->name.s, "AMD Radeon RX 6800/6900, PRO W6800 (Navi 21)");
		CHECK_STR(d->gfx_target.s, "gfx1030");
		CHECK_STR(d->architecture.s, "RDNA2");
		CHECK_INT(d->multiprocessor_count.v, 80);
		CHECK_INT(d->uuid.state, GW_FIELD_NOT_SUPPORTED);
		CHECK_INT(d->max_sm_clock.state, GW_FIELD_NOT_SUPPORTED);
		CHECK_INT(gw_device_sample_read(ctx, idx, &s), 0);
		CHECK(GW_VALID(s.temperature) && s.temperature.v > 51.99 && s.temperature.v < 52.01);
		CHECK_INT(s.temperature_memory.state, GW_FIELD_NOT_SUPPORTED);
		CHECK(GW_VALID(s.power_draw) && s.power_draw.v > 34.99 && s.power_draw.v < 35.01);
		CHECK_INT(s.power_limit.state, GW_FIELD_NOT_SUPPORTED);
		CHECK_INT(s.fan_percent.v, 50);
		CHECK(GW_VALID(s.gpu_util));
		CHECK_INT(s.gpu_util.v, 0);
		CHECK_INT(s.mem_util.state, GW_FIELD_NOT_SUPPORTED);
		CHECK_INT(s.sm_clock.state, GW_FIELD_NOT_SUPPORTED);
	}
	d = by_bus(ctx, "0a:00.0");
	CHECK(d != NULL);
	if (d) {
		CHECK_STR(d->backend, "amdgpu");
		CHECK_STR(d->gfx_target.s, "gfx1100");
		CHECK_STR(d->architecture.s, "RDNA3");
		CHECK_INT(d->pci_device_id.v, 0x744c);
		/* Revision 0xc8 of Navi 31 is the XTX (amdgpu.ids). */
		CHECK_STR(d->name.s, "AMD Radeon RX 7900 XTX");
	}
	gw_context_free(ctx);
}

/* An AMD GPU without amdgpu: found by the pci backend, not by amdgpu. */
static void test_amd_no_driver(void)
{
	gw_context *ctx;
	const gw_device_info *d;

	tree_new();
	pci_fn("0000:03:00.0", "0x030000\n", "0x1002\n", "0x73bf\n");
	pci_fn("0000:04:00.0", "0x030000\n", "0x1002\n", "0x6798\n");
	pci_driver("0000:04:00.0", "../../../bus/pci/drivers/radeon");
	if (!(ctx = open_ctx()))
		return;
	CHECK_INT(gw_device_count(ctx), 2);
	CHECK_INT(backend(ctx, "amdgpu")->state, GW_BACKEND_NOTHING_FOUND);
	d = by_bus(ctx, "03:00.0");
	CHECK(d && d->health == GW_HEALTH_NO_DRIVER && !strcmp(d->backend, "pci"));
	d = by_bus(ctx, "04:00.0");
	CHECK(d && !strcmp(d->health_reason, "bound to radeon, not amdgpu"));
	gw_context_free(ctx);
}

/* ---- garbage ------------------------------------------------------------------ */

static void test_garbage(void)
{
	static const char binary[] = "\x01\x02\xff\x00\x7f garbage";
	gw_context *ctx;
	const gw_device_info *d;
	gw_device_sample s;
	char *huge;
	int idx;

	tree_new();
	pci_fn("0000:c1:00.0", "0x038000\n", "0x1002\n", "0x74a1\n");
	pci_driver("0000:c1:00.0", "../../../bus/pci/drivers/amdgpu");
	tree_putn("sys/bus/pci/devices/0000:c1:00.0/mem_info_vram_total", binary, sizeof(binary));
	pci_attr("0000:c1:00.0", "mem_info_vram_used", "");
	pci_attr("0000:c1:00.0", "gpu_busy_percent", "abc\n");
	pci_attr("0000:c1:00.0", "max_link_speed", "Unknown\n");
	pci_attr("0000:c1:00.0", "max_link_width", "255\n");
	pci_attr("0000:c1:00.0", "current_link_speed", "16.0 GT/s PCIe garbage\n");
	pci_attr("0000:c1:00.0", "product_name", "AMD \x1b[31mRED\n");
	pci_attr("0000:c1:00.0", "pp_dpm_sclk", "0: fastMhz\n");
	pci_attr("0000:c1:00.0", "pp_dpm_mclk", "\n\n\n");
	pci_attr("0000:c1:00.0", "ras/umc_err_count", "ue: x\n");
	/* A folder where a file should be: open works, read fails (EISDIR). */
	tree_mkdir("sys/bus/pci/devices/0000:c1:00.0/mem_busy_percent");
	tree_mkdir("sys/bus/pci/devices/0000:c1:00.0/unique_id");
	tree_mkdir("sys/bus/pci/devices/0000:c1:00.0/hwmon/hwmon0/temp1_input");
	pci_attr("0000:c1:00.0", "hwmon/hwmon0/power1_average", "-\n");
	pci_attr("0000:c1:00.0", "hwmon/hwmon0/pwm1", "300\n");
	pci_attr("0000:c1:00.0", "hwmon/hwmon0/pwm1_max", "255\n");
	/* A huge attribute: bounded, and not a valid value. */
	huge = malloc(1 << 20);
	memset(huge, '9', 1 << 20);
	tree_putn("sys/bus/pci/devices/0000:c1:00.0/vbios_version", huge, 1 << 20);
	tree_putn("sys/bus/pci/devices/0000:c1:00.0/serial_number", huge, 1 << 20);
	free(huge);
	tree_putn("sys/class/kfd/kfd/topology/nodes/0/properties", binary, sizeof(binary));
	kfd_node(1, "simd_count 99999999999999999999999\nlocation_id 49408\ngfx_target_version 91700\n");
	kfd_node(2, "simd_count 8\nsimd_per_cu 0\nlocation_id 49408\ngfx_target_version 91700\n");
	tree_mkdir("sys/class/kfd/kfd/topology/nodes/3/properties");

	/* NVIDIA functions with broken identity files. */
	pci_fn("0000:18:00.0", "0x0302zz\n", "0x10de\n", "0x2330\n");
	tree_mkdir("sys/bus/pci/devices/0000:19:00.0/vendor");
	pci_attr("0000:19:00.0", "class", "0x030200\n");
	pci_fn("0000:1a:00.0", "0x030200\n", "0x10de\n", "\xff\xfe\n");
	pci_attr("0000:1a:00.0", "subsystem_vendor", "");
	tree_link("sys/bus/pci/devices/0000:1a:00.0/driver", "/");
	tree_mkdir("sys/bus/pci/devices/not-a-bus-id");
	tree_put("sys/bus/pci/devices/0000:1b:00.0", "a file, not a folder\n");
	tree_mkdir("sys/class/drm/card7");
	tree_link("sys/class/drm/card7/device", "../../../nowhere/zz:zz.z");
	tree_put("sys/module/amdgpu/version", "\x01\x02");

	if (!(ctx = open_ctx()))
		return;
	CHECK_INT(gw_device_count(ctx), 2);
	CHECK(by_bus(ctx, "18:00.0") == NULL);
	CHECK(by_bus(ctx, "19:00.0") == NULL);
	CHECK(!GW_VALID(gw_context_driver(ctx)->amdgpu_version));
	d = by_bus(ctx, "1a:00.0");
	CHECK(d != NULL);
	if (d) {
		CHECK_INT(d->pci_device_id.state, GW_FIELD_ERROR);
		CHECK_INT(d->pci_subsystem_id.state, GW_FIELD_NOT_SUPPORTED);
		CHECK_STR(d->name.s, "NVIDIA GPU [10de:ffff]");
		CHECK_INT(d->health, GW_HEALTH_NO_DRIVER);
		CHECK_INT(d->pcie_max_gen.state, GW_FIELD_NOT_SUPPORTED);
	}
	idx = index_of(ctx, "c1:00.0");
	d = gw_device_get(ctx, idx);
	CHECK(d != NULL);
	if (d) {
		CHECK_STR(d->backend, "amdgpu");
		CHECK_INT(d->memory_total.state, GW_FIELD_ERROR);
		CHECK_INT(d->uuid.state, GW_FIELD_ERROR);
		CHECK_INT(d->vbios_version.state, GW_FIELD_ERROR);
		CHECK_INT(d->serial.state, GW_FIELD_ERROR);
		/* The escape is not shown: the name comes from the ids. */
		CHECK_STR(d->name.s, "AMD Instinct MI300X");
		CHECK_INT(d->pcie_max_gen.state, GW_FIELD_NOT_SUPPORTED);
		CHECK_INT(d->pcie_max_width.state, GW_FIELD_ERROR);
		CHECK_INT(d->max_sm_clock.state, GW_FIELD_ERROR);
		CHECK_INT(d->max_mem_clock.state, GW_FIELD_ERROR);
		CHECK(!GW_VALID(d->gfx_target));
		CHECK(!GW_VALID(d->architecture));
		CHECK(!GW_VALID(d->multiprocessor_count));
		CHECK_INT(gw_device_sample_read(ctx, idx, &s), 0);
		CHECK_INT(s.memory_used.state, GW_FIELD_ERROR);
		CHECK(!GW_VALID(s.memory_free));
		CHECK_INT(s.gpu_util.state, GW_FIELD_ERROR);
		CHECK_INT(s.mem_util.state, GW_FIELD_ERROR);
		CHECK_INT(s.temperature.state, GW_FIELD_ERROR);
		CHECK_INT(s.power_draw.state, GW_FIELD_ERROR);
		CHECK_INT(s.fan_percent.state, GW_FIELD_ERROR);
		CHECK_INT(s.pcie_gen.state, GW_FIELD_ERROR);
		CHECK_INT(s.pcie_width.state, GW_FIELD_NOT_SUPPORTED);
		CHECK_INT(s.ecc_corrected_volatile.state, GW_FIELD_ERROR);
		CHECK(!GW_VALID(s.sm_clock));
	}
	gw_context_free(ctx);

	/* Missing hwmon entirely and an empty tree: no crash, nothing VALID. */
	tree_new();
	mi300x("0000:c1:00.0");
	{
		char p[1024];

		tree_path(p, sizeof(p), "sys/bus/pci/devices/0000:c1:00.0/hwmon");
		nftw(p, tree_rm_one, 8, FTW_DEPTH | FTW_PHYS);
	}
	if ((ctx = open_ctx())) {
		CHECK_INT(gw_device_count(ctx), 1);
		CHECK_INT(gw_device_sample_read(ctx, 0, &s), 0);
		CHECK_INT(s.temperature.state, GW_FIELD_NOT_SUPPORTED);
		CHECK_INT(s.power_draw.state, GW_FIELD_NOT_SUPPORTED);
		CHECK_INT(s.fan_percent.state, GW_FIELD_NOT_SUPPORTED);
		CHECK(GW_VALID(s.gpu_util));
		CHECK_INT(gw_device_get(ctx, 0)->gfx_target.state, GW_FIELD_NOT_SUPPORTED);
		gw_context_free(ctx);
	}
	tree_new();
	if ((ctx = open_ctx())) {
		CHECK_INT(gw_device_count(ctx), 0);
		CHECK_INT(backend(ctx, "pci")->state, GW_BACKEND_NOTHING_FOUND);
		CHECK_INT(backend(ctx, "amdgpu")->state, GW_BACKEND_NOTHING_FOUND);
		gw_context_free(ctx);
	}
}

int main(void)
{
	test_parsers();
	test_nvidia_no_driver();
	test_nvidia_wrong_driver();
	test_amd_mi300x();
	test_fdinfo_parser();
	test_amd_processes();
	test_amd_rdna2();
	test_amd_no_driver();
	test_garbage();
	tree_remove();
	return CHECK_DONE();
}
