/* Unit tests of the one PCI bus scanner (lib/core/pci.c) and the one
 * /etc/passwd parser (lib/core/proc_parse.c) that the backends and the
 * doctor's probes share. */
#include <string.h>

#include "check.h"
#include "fake_tree.h"
#include "core/os.h"
#include "core/pci.h"
#include "core/proc_parse.h"
#include "core/sys.h"

static void put_fn(const char *dir, const char *cls, const char *vendor, const char *device)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/class", dir);
	tree_put(p, cls);
	snprintf(p, sizeof(p), "%s/vendor", dir);
	tree_put(p, vendor);
	if (device) {
		snprintf(p, sizeof(p), "%s/device", dir);
		tree_put(p, device);
	}
}

static void test_scan(void)
{
	gw_pci_fn *f;
	size_t n;

	tree_new();
	CHECK_INT(gw__pci_scan(tree_root, &f, &n), GW_ENOTFOUND);   /* no bus: an error, not "no GPU" */
	CHECK(f == NULL);
	CHECK_INT(n, 0);

	/* NVIDIA 3D controller bound to nvidia, through an absolute link as on a real system. */
	put_fn("sys/devices/pci0000:00/0000:18:00.0", "0x030200\n", "0x10de\n", "0x2330\n");
	tree_put("sys/devices/pci0000:00/0000:18:00.0/subsystem_vendor", "0x10de\n");
	tree_put("sys/devices/pci0000:00/0000:18:00.0/subsystem_device", "0x16c1\n");
	tree_link("sys/devices/pci0000:00/0000:18:00.0/driver", "../../../bus/pci/drivers/nvidia");
	tree_link("sys/bus/pci/devices/0000:18:00.0", "/sys/devices/pci0000:00/0000:18:00.0");
	/* AMD VGA without a driver, unreadable device id. */
	put_fn("sys/bus/pci/devices/0000:c1:00.0", "0x030000\n", "0x1002\n", NULL);
	/* Intel display (other: 0x0380). */
	put_fn("sys/bus/pci/devices/0000:00:02.0", "0x038000\n", "0x8086\n", "0x56a0\n");
	/* Not GPUs: NVIDIA's HDMI audio, an ASPEED BMC display, garbage class. */
	put_fn("sys/bus/pci/devices/0000:18:00.1", "0x040300\n", "0x10de\n", "0x22a3\n");
	put_fn("sys/bus/pci/devices/0000:02:00.0", "0x030000\n", "0x1a03\n", "0x2000\n");
	put_fn("sys/bus/pci/devices/0000:03:00.0", "0x03zz00\n", "0x10de\n", "0x2330\n");
	/* Not a bus id at all. */
	put_fn("sys/bus/pci/devices/garbage", "0x030200\n", "0x10de\n", "0x2330\n");

	CHECK_INT(gw__pci_scan(tree_root, &f, &n), 0);
	CHECK_INT(n, 3);
	if (n == 3) {
		CHECK_STR(f[0].bus_id, "0000:00:02.0");      /* bus order */
		CHECK_INT(f[0].vendor, 0x8086);
		CHECK_INT(f[0].class_code, 0x038000);
		CHECK_STR(f[1].bus_id, "0000:18:00.0");
		CHECK_INT(f[1].device, 0x2330);
		CHECK(f[1].have_device);
		CHECK(f[1].have_subsys);
		CHECK_INT(f[1].subsys_device, 0x16c1);
		CHECK_STR(f[1].driver, "nvidia");
		CHECK_STR(f[1].dir, "/sys/devices/pci0000:00/0000:18:00.0");
		CHECK_STR(f[2].bus_id, "0000:c1:00.0");
		CHECK(!f[2].have_device);
		CHECK_INT(f[2].device, 0xffff);
		CHECK(!f[2].have_subsys);
		CHECK_STR(f[2].driver, "");
	}
	gw__free(f);

	/* The rule itself. */
	CHECK(gw__pci_is_gpu(0x030200, 0x10de));
	CHECK(gw__pci_is_gpu(0x030000, 0x1002));
	CHECK(!gw__pci_is_gpu(0x040300, 0x10de));
	CHECK(!gw__pci_is_gpu(0x030000, 0x1a03));
	CHECK_INT(gw__pci_vendor(0x8086), GW_VENDOR_INTEL);
	tree_remove();
}

/* opendir of the PCI bus folder, counted. */
static int bus_walks;

static DIR *counting_opendir(const char *path)
{
	size_t n = strlen(path), k = strlen("/sys/bus/pci/devices");

	if (n >= k && !strcmp(path + n - k, "/sys/bus/pci/devices"))
		bus_walks++;
	return opendir(path);
}

/* Opening a context walks the bus once, though the amdgpu and the pci
 * backends both look at it; a bus that cannot be listed is reported to
 * each with the first error's text. */
static void test_scan_once(void)
{
	gw_options o = GW_OPTIONS_INIT;
	gw_context *ctx;
	const gw_backend_status *st;

	tree_new();
	o.root = tree_root;
	o.flags = GW_OPT_NO_NVML | GW_OPT_NO_CUDA;
	put_fn("sys/bus/pci/devices/0000:c1:00.0", "0x030000\n", "0x1002\n", "0x744c\n");
	tree_link("sys/bus/pci/devices/0000:c1:00.0/driver", "../../../bus/pci/drivers/amdgpu");
	put_fn("sys/bus/pci/devices/0000:18:00.0", "0x030200\n", "0x10de\n", "0x2330\n");
	CHECK_INT(gw__syscall_set("opendir", (gw__syscall_ptr)counting_opendir), 0);
	bus_walks = 0;
	CHECK_INT(gw_context_new(&ctx, &o), 0);
	CHECK_INT(bus_walks, 1);
	CHECK_INT(gw_device_count(ctx), 2);   /* the AMD GPU (amdgpu), the NVIDIA one (pci) */
	gw_context_free(ctx);
	tree_remove();

	tree_new();
	o.root = tree_root;
	bus_walks = 0;
	CHECK_INT(gw_context_new(&ctx, &o), 0);
	CHECK_INT(bus_walks, 1);
	st = gw_context_backend(ctx, "pci");
	/* the listing's own error, kept whole so that it is translated where printed */
	CHECK(st && st->state == GW_BACKEND_NOTHING_FOUND && strstr(st->message, "cannot list '") &&
	      strstr(st->message, "/sys/bus/pci/devices'"));
	gw_context_free(ctx);
	gw__syscall_set(NULL, NULL);
	tree_remove();
}

static void test_passwd(void)
{
	static const char pw[] = "# comment\nroot:x:0:0:root:/root:/bin/bash\n"
				 "+nis\nalice:x:1000:1000::/home/alice:/bin/sh\nnogid:x:1002:abc::/:/bin/sh\n"
				 "bob:x:1001:44:Bob:/home/bob:/bin/sh";
	char name[32];
	unsigned gid = 7;

	CHECK_INT(gw__passwd_lookup(pw, strlen(pw), 1001, name, sizeof(name), &gid), 0);
	CHECK_STR(name, "bob");
	CHECK_INT(gid, 44);
	CHECK_INT(gw__passwd_lookup(pw, strlen(pw), 0, name, sizeof(name), &gid), 0);
	CHECK_STR(name, "root");
	CHECK_INT(gid, 0);
	/* A line without a numeric gid names the user but gives no group. */
	CHECK_INT(gw__passwd_lookup(pw, strlen(pw), 1002, name, sizeof(name), NULL), 0);
	CHECK_STR(name, "nogid");
	gid = 7;
	CHECK_INT(gw__passwd_lookup(pw, strlen(pw), 1002, name, sizeof(name), &gid), GW_ENOTFOUND);
	CHECK_INT(gid, 7);
	CHECK_INT(gw__passwd_lookup(pw, strlen(pw), 4242, name, sizeof(name), &gid), GW_ENOTFOUND);
	/* Hex is not a uid in /etc/passwd. */
	CHECK_INT(gw__passwd_lookup("x:x:0x3e8:0::/:/bin/sh\n", 22, 1000, name, sizeof(name), NULL), GW_ENOTFOUND);
}

int main(void)
{
	test_scan();
	test_scan_once();
	test_passwd();
	return CHECK_DONE();
}
