/* The probes' pure parsers (lib/probe/parse.c). */
#include <unistd.h>

#include "check.h"
#include "gpuwise/gpuwise.h"
#include "probe/probe.h"

static void test_versions(void)
{
	gw_ver a, b;

	CHECK_INT(gw__version_parse("550.54.15", &a), 0);
	CHECK_INT(a.nparts, 3);
	CHECK_INT(a.part[1], 54);
	CHECK_INT(gw__version_parse("2.5.1+cu121", &a), 0);
	CHECK_STR(a.text, "2.5.1+cu121");
	CHECK_INT(a.nparts, 3);
	CHECK_INT(gw__version_parse("v13.0", &a), 0);
	CHECK_STR(a.text, "13.0");
	CHECK_INT(gw__version_parse("abc", &a), GW_EPARSE);
	CHECK_INT(a.nparts, 0);
	gw__version_parse("12.4", &a);
	gw__version_parse("12.4.0", &b);
	CHECK_INT(gw__version_cmp(&a, &b), 0);
	gw__version_parse("12.10", &b);
	CHECK(gw__version_cmp(&a, &b) < 0);
	gw__version_parse("", &b);
	CHECK(gw__version_cmp(&a, &b) > 0);
	/* older: only the parts both give count */
	gw__version_parse("2.19.3", &a);
	gw__version_parse("2.21.5", &b);
	CHECK(gw__version_older(&a, &b) && !gw__version_older(&b, &a));
	gw__version_parse("12.4", &a);
	gw__version_parse("12.4.1", &b);
	CHECK(!gw__version_older(&a, &b) && !gw__version_older(&b, &a));
	gw__version_parse("9", &a);
	gw__version_parse("10.0", &b);
	CHECK(gw__version_older(&a, &b));
	gw__version_parse("", &a);
	CHECK(!gw__version_older(&a, &b));   /* unknown: no verdict */
}

static void test_cuda_files(void)
{
	gw_ver v;
	uint64_t x;

	CHECK_INT(gw__parse_cuda_version_json("{\n \"cuda\" : {\n  \"name\" : \"CUDA SDK\",\n  \"version\" : \"12.4.1\"\n },\n"
					      " \"cuda_cudart\" : {\"name\": \"x\", \"version\" : \"12.4.127\"}}", &v), 0);
	CHECK_STR(v.text, "12.4.1");
	CHECK(gw__parse_cuda_version_json("{\"cuda_cudart\": {\"version\": \"12.4.127\"}}", &v) < 0);
	CHECK(gw__parse_cuda_version_json("{\"cuda\": {\"name\": \"x\"}, \"nvcc\": {\"version\": \"1.2\"}}", &v) < 0);
	CHECK_INT(gw__parse_cuda_version_txt("CUDA Version 11.8.0\n", &v), 0);
	CHECK_STR(v.text, "11.8.0");
	CHECK_INT(gw__parse_cuda_h("/* CUDA_VERSION 1 */\n#define CUDA_VERSION 13000\n", &v), 0);
	CHECK_STR(v.text, "13.0");
	CHECK_INT(gw__parse_cuda_h("#  define  CUDA_VERSION 12040\n", &v), 0);
	CHECK_STR(v.text, "12.4");
	CHECK(gw__parse_cuda_h("#define CUDA_VERSION_X 1\n", &v) < 0);
	CHECK_INT(gw__parse_cudnn_h("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n"
				    "#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n", &v), 0);
	CHECK_STR(v.text, "9.1.0");
	CHECK_INT(gw__parse_nccl_h("#define NCCL_MAJOR 2\n#define NCCL_MINOR 21\n#define NCCL_PATCH 5\n#define NCCL_SUFFIX \"\"\n", &v), 0);
	CHECK_STR(v.text, "2.21.5");
	CHECK_INT(gw__parse_rocm_version_h("#define ROCM_VERSION_MAJOR 6\n#define ROCM_VERSION_MINOR 1\n#define ROCM_VERSION_PATCH 2\n", &v), 0);
	CHECK_STR(v.text, "6.1.2");
	CHECK_INT(gw__parse_c_define("#define X 0x10u\n", "X", &x), 0);
	CHECK_INT(x, 16);
	CHECK(gw__parse_c_define("int y = X;\n", "X", &x) < 0);
}

static void test_python_files(void)
{
	char out[96];
	const char *torch = "__version__ = '2.5.1+cu121'\ndebug = False\ncuda: Optional[str] = '12.1'\n"
			    "git_version = 'abc'\nhip: Optional[str] = None\n";
	const char *tf = "import collections\nbuild_info = collections.OrderedDict([('cpu_compiler', '/usr/bin/gcc'), "
			 "('cuda_compute_capabilities', ['sm_60', 'sm_70', 'sm_80', 'compute_90']), ('cuda_version', '12.5.1'), "
			 "('cudnn_version', '9'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', True)])\n";

	CHECK_INT(gw__parse_py_assign(torch, "__version__", out, sizeof(out)), GW_PYVAL_STR);
	CHECK_STR(out, "2.5.1+cu121");
	CHECK_INT(gw__parse_py_assign(torch, "cuda", out, sizeof(out)), GW_PYVAL_STR);
	CHECK_STR(out, "12.1");
	CHECK_INT(gw__parse_py_assign(torch, "hip", out, sizeof(out)), GW_PYVAL_NONE);
	CHECK_INT(gw__parse_py_assign(torch, "debug", out, sizeof(out)), GW_PYVAL_FALSE);
	CHECK_INT(gw__parse_py_assign(torch, "rocm", out, sizeof(out)), GW_PYVAL_MISSING);
	CHECK_INT(gw__parse_py_assign("  cuda = '1'\nif x == 1:\n", "cuda", out, sizeof(out)), GW_PYVAL_MISSING);
	CHECK_INT(gw__parse_py_key(tf, "cuda_version", out, sizeof(out)), GW_PYVAL_STR);
	CHECK_STR(out, "12.5.1");
	CHECK_INT(gw__parse_py_key(tf, "is_cuda_build", out, sizeof(out)), GW_PYVAL_TRUE);
	CHECK_INT(gw__parse_py_key(tf, "is_rocm_build", out, sizeof(out)), GW_PYVAL_FALSE);
	CHECK_INT(gw__parse_py_key(tf, "cuda_compute_capabilities", out, sizeof(out)), GW_PYVAL_OTHER);
	CHECK(strstr(out, "'sm_60'") && strstr(out, "compute_90"));
	CHECK_INT(gw__parse_py_key("build_info = {'cuda_version': '11.2', 'is_cuda_build': True}", "cuda_version", out, sizeof(out)), GW_PYVAL_STR);
	CHECK_STR(out, "11.2");
	CHECK_INT(gw__parse_py_key("is_cuda_build = False\ncuda_version = '10.1'\n", "is_cuda_build", out, sizeof(out)), GW_PYVAL_FALSE);
	CHECK_INT(gw__parse_py_assign("_version: str = \"0.4.30\"\n", "_version", out, sizeof(out)), GW_PYVAL_STR);
	CHECK_STR(out, "0.4.30");
}

static void test_metadata(void)
{
	char out[64], name[64];
	gw_ver v;

	CHECK_INT(gw__parse_metadata("Metadata-Version: 2.1\nName: tensorflow-cpu\nVersion: 2.15.0\n\nVersion: 9\n", "Version", out, sizeof(out)), 0);
	CHECK_STR(out, "2.15.0");
	CHECK_INT(gw__parse_metadata("Name: x\n\nVersion: 9\n", "Version", out, sizeof(out)), GW_ENOTFOUND);
	CHECK_INT(gw__parse_dist_info_name("nvidia_cudnn_cu12-9.1.0.70.dist-info", name, sizeof(name), &v), 0);
	CHECK_STR(name, "nvidia_cudnn_cu12");
	CHECK_STR(v.text, "9.1.0.70");
	CHECK_INT(gw__parse_dist_info_name("torch-2.1.0-py3.11.egg-info", name, sizeof(name), &v), 0);
	CHECK_STR(name, "torch");
	CHECK_INT(v.part[1], 1);
	CHECK(gw__parse_dist_info_name("torch", name, sizeof(name), &v) < 0);
	CHECK(gw__parse_dist_info_name(".dist-info", name, sizeof(name), &v) < 0);
	gw__dist_normalize("Jax_CUDA12.Plugin", name, sizeof(name));
	CHECK_STR(name, "jax-cuda12-plugin");
	gw__torch_variant("2.1.0+rocm6.1", name, sizeof(name));
	CHECK_STR(name, "rocm6.1");
	gw__torch_variant("2.1.0", name, sizeof(name));
	CHECK_STR(name, "");
}

static void test_system_files(void)
{
	gw_ver v;
	gw_probe_kmod_flavor fl;
	char buf[64];
	unsigned xid;
	uint64_t x;

	CHECK_INT(gw__parse_nvidia_proc_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n"
						"GCC version:  gcc version 12.3.0\n", &v, &fl), 0);
	CHECK_STR(v.text, "550.54.15");
	CHECK_INT(fl, GW_KMOD_PROPRIETARY);
	CHECK_INT(gw__parse_nvidia_proc_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.133.07  Release Build  (dvs-builder@U16-I3-B03-4-3)  Fri Mar 14 2025\n", &v, &fl), 0);
	CHECK_STR(v.text, "570.133.07");
	CHECK_INT(fl, GW_KMOD_OPEN);
	CHECK(gw__parse_nvidia_proc_version("garbage\n", &v, &fl) < 0);
	CHECK_INT(gw__parse_os_release("NAME=\"Ubuntu\"\nPRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\n", "PRETTY_NAME", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "Ubuntu 22.04.4 LTS");
	CHECK_INT(gw__parse_lib_version("libnvidia-ml.so.550.54.15", "libnvidia-ml.so", &v), 0);
	CHECK_STR(v.text, "550.54.15");
	CHECK(gw__parse_lib_version("libnvidia-ml.so", "libnvidia-ml.so", &v) < 0);
	CHECK(gw__parse_lib_version("libnvidia-ml.so.1.bak", "libnvidia-ml.so", &v) < 0);
	CHECK_INT(gw__parse_xid_line("[ 123.4] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.", &xid, buf, sizeof(buf)), 0);
	CHECK_INT(xid, 79);
	CHECK_STR(buf, "0000:3b:00");
	CHECK(gw__parse_xid_line("NVRM: Xid (PCI:0000:3b:00", &xid, buf, sizeof(buf)) < 0);
	CHECK(gw__parse_proc_modules("nvidia_uvm 1 0 - Live\nnvidia 2 1 nvidia_uvm, Live\n", "nvidia"));
	CHECK(!gw__parse_proc_modules("nvidia_uvm 1 0 - Live\n", "nvidia"));
	CHECK_STR(gw__parse_cgroup_container("0::/system.slice/docker-abc.scope\n"), "docker");
	CHECK_STR(gw__parse_cgroup_container("0::/kubepods/burstable/pod1\n"), "kubernetes");
	CHECK(gw__parse_cgroup_container("0::/init.scope\n") == NULL);
	CHECK_INT(gw__parse_kfd_property("cpu_cores_count 0\nsimd_count 192\ngfx_target_version 110000\n", "gfx_target_version", &x), 0);
	CHECK_INT(x, 110000);
	CHECK_INT(gw__gfx_name(110000, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "gfx1100");
	CHECK_INT(gw__gfx_name(90010, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "gfx90a");
	CHECK_INT(gw__gfx_name(90402, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "gfx942");
	CHECK_INT(gw__gfx_from_override("10.3.0", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "gfx1030");
	CHECK(gw__gfx_from_override("junk", buf, sizeof(buf)) < 0);
	CHECK(gw__parse_group_member("root:x:0:\nrender:x:109:alice,bob\nvideo:x:44:\n", 109, "bob", 1000, buf, sizeof(buf)));
	CHECK_STR(buf, "render");
	CHECK(!gw__parse_group_member("render:x:109:alice,bobby\n", 109, "bob", 1000, buf, sizeof(buf)));
	CHECK(gw__parse_group_member("video:x:44:\n", 44, "bob", 44, buf, sizeof(buf)));
}

/* Issue 8 #22: a blank other than space or tab in the NVRM line (a '\r'
 * after "Kernel Module") made the token loop stand still: doctor hung. */
static void test_proc_version_blanks(void)
{
	static const char *const lines[] = {
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module\r 535.183.01  Sun May 12 2024\n",
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module \v535.183.01\f Sun May 12 2024\n",
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01\r\n",
		"NVRM version: NVIDIA UNIX Open Kernel Module for\rx86_64  535.183.01\n",
	};
	gw_ver v;
	gw_probe_kmod_flavor fl;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		CHECK_INT(gw__parse_nvidia_proc_version(lines[i], &v, &fl), 0);
		CHECK_STR(v.text, "535.183.01");
	}
	CHECK(gw__parse_nvidia_proc_version("NVRM version: Kernel Module\r\r\v\f\n", &v, &fl) < 0);
	CHECK(gw__parse_nvidia_proc_version("NVRM version: Kernel Module x\r", &v, &fl) < 0);
}

/* NCCL_SOCKET_IFNAME as NCCL reads it: prefixes, "=" exact names, "^"
 * exclusions, comma lists, ":port" suffixes. */
static void test_nccl_ifname(void)
{
	CHECK(gw__nccl_ifname_selects("eth", "eth0"));
	CHECK(gw__nccl_ifname_selects("eth", "eth"));
	CHECK(!gw__nccl_ifname_selects("eth", "eno1"));
	CHECK(gw__nccl_ifname_selects("ib,eno", "eno1"));
	CHECK(gw__nccl_ifname_selects("=eno1", "eno1"));
	CHECK(!gw__nccl_ifname_selects("=eno", "eno1"));
	CHECK(gw__nccl_ifname_selects("=eth0,eno1", "eno1"));
	CHECK(!gw__nccl_ifname_selects("^docker,lo", "docker0"));
	CHECK(!gw__nccl_ifname_selects("^docker,lo", "lo"));
	CHECK(gw__nccl_ifname_selects("^docker,lo", "eno1"));
	CHECK(gw__nccl_ifname_selects("^=docker", "docker0"));
	CHECK(!gw__nccl_ifname_selects("^=docker0", "docker0"));
	CHECK(gw__nccl_ifname_selects("eth0:5000", "eth0"));
	CHECK(!gw__nccl_ifname_selects("=eth:5000", "eth0"));
	CHECK(!gw__nccl_ifname_selects("", "eth0"));
	CHECK(!gw__nccl_ifname_selects(",", "eth0"));
	CHECK(gw__nccl_ifname_selects("^", "eth0"));
	CHECK(!gw__nccl_ifname_selects(NULL, "eth0"));
}

/* The ELF header and section table readers: a hand-made 64-bit header,
 * and garbage, short, wrong-class and out-of-table inputs. */
static void test_elf(void)
{
	unsigned char h[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 }, table[128] = { 0 };
	gw_elf_header eh;
	gw_elf_section s;

	h[0x28] = 0x00; h[0x29] = 0x10;          /* e_shoff 0x1000 */
	h[0x3a] = 64;                            /* e_shentsize */
	h[0x3c] = 2;                             /* e_shnum */
	h[0x3e] = 1;                             /* e_shstrndx */
	CHECK_INT(gw__parse_elf_header(h, sizeof(h), &eh), 0);
	CHECK(eh.shoff == 0x1000 && eh.shnum == 2 && eh.shstrndx == 1);
	CHECK(gw__parse_elf_header(h, 63, &eh) < 0);
	h[4] = 1;                                /* ELFCLASS32 */
	CHECK(gw__parse_elf_header(h, sizeof(h), &eh) < 0);
	h[4] = 2;
	h[0x3e] = 2;                             /* shstrndx past the table */
	CHECK(gw__parse_elf_header(h, sizeof(h), &eh) < 0);
	h[0x3e] = 1;
	h[0x3a] = 40;                            /* not a 64-bit section header */
	CHECK(gw__parse_elf_header(h, sizeof(h), &eh) < 0);
	CHECK(gw__parse_elf_header((const unsigned char *)"#!/bin/sh\n", 11, &eh) < 0);
	table[64] = 7;                           /* section 1: sh_name 7 */
	table[64 + 24] = 0x40;                   /* sh_offset 0x40 */
	table[64 + 32] = 0x10;                   /* sh_size 0x10 */
	CHECK_INT(gw__parse_elf_section(table, sizeof(table), 1, &s), 0);
	CHECK(s.name == 7 && s.offset == 0x40 && s.size == 0x10);
	CHECK(gw__parse_elf_section(table, sizeof(table), 2, &s) < 0);
	CHECK(gw__parse_elf_section(table, 100, 1, &s) < 0);
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* The dynamic section reader: DT_NEEDED, DT_RPATH, DT_RUNPATH, the end at
 * DT_NULL, and offsets outside the string table or strings that run past
 * its end skipped. */
static void test_elf_dynamic(void)
{
	static const unsigned char str[] = "\0libcudart.so.12\0$ORIGIN/../lib\0/opt/x\0unterminated";
	unsigned char dyn[16 * 7] = { 0 };
	gw_elf_dynamic d;

	put64(dyn, 1), put64(dyn + 8, 1);               /* DT_NEEDED libcudart.so.12 */
	put64(dyn + 16, 29), put64(dyn + 24, 17);       /* DT_RUNPATH $ORIGIN/../lib */
	put64(dyn + 32, 15), put64(dyn + 40, 32);       /* DT_RPATH /opt/x */
	put64(dyn + 48, 1), put64(dyn + 56, 9999);      /* DT_NEEDED outside the table */
	put64(dyn + 64, 1), put64(dyn + 72, 39);        /* DT_NEEDED running past the end */
	/* dyn + 80: DT_NULL; what follows is never read */
	put64(dyn + 96, 1), put64(dyn + 104, 1);
	CHECK_INT(gw__parse_elf_dynamic(dyn, sizeof(dyn), str, sizeof(str) - 1, &d), 0);
	CHECK(d.nneeded == 1 && d.nneeded_all == 1);
	CHECK_STR(d.needed[0], "libcudart.so.12");
	CHECK(d.has_runpath && d.has_rpath);
	CHECK_STR(d.runpath, "$ORIGIN/../lib");
	CHECK_STR(d.rpath, "/opt/x");
	CHECK(gw__parse_elf_dynamic(dyn, 15, str, sizeof(str), &d) < 0);
	CHECK_INT(gw__parse_elf_dynamic(dyn, 0, str, 0, &d), 0);
	CHECK(d.nneeded == 0 && !d.has_rpath);
}

static bool collect_path(const char *path, void *arg)
{
	char *out = arg;

	if (strlen(out) + strlen(path) + 2 < 256) {
		strcat(out, path);
		strcat(out, ";");
	}
	return true;
}

/* ld.so.cache: the new format alone and after the old table; offsets
 * count from the new header; bad offsets skipped, bad counts refused. */
static void test_ld_cache(void)
{
	unsigned char b[256] = { 0 }, both[512] = { 0 };
	char got[256] = "";
	const char *s1 = "/usr/lib/libz.so.1", *s2 = "/opt/cuda/lib64/libcudart.so.12";
	size_t strings = 48 + 3 * 24, n;

	memcpy(b, "glibc-ld.so.cache1.1", 20);
	put32(b + 20, 3);                                /* nlibs */
	memcpy(b + strings, s1, strlen(s1) + 1);
	memcpy(b + strings + 32, s2, strlen(s2) + 1);
	put32(b + 48 + 8, (uint32_t)strings);            /* entry 0 value */
	put32(b + 48 + 24 + 8, 5000);                    /* entry 1: outside */
	put32(b + 48 + 48 + 8, (uint32_t)strings + 32);  /* entry 2 value */
	n = strings + 32 + strlen(s2) + 1;
	CHECK_INT(gw__parse_ld_cache(b, n, collect_path, got), 2);
	CHECK_STR(got, "/usr/lib/libz.so.1;/opt/cuda/lib64/libcudart.so.12;");
	/* The same after an old "ld.so-1.7.0" table of one 12-byte entry:
	 * 16 + 12 = 28, so the new header starts at 32. */
	memcpy(both, "ld.so-1.7.0", 11);
	put32(both + 12, 1);
	memcpy(both + 32, b, n);
	got[0] = '\0';
	CHECK_INT(gw__parse_ld_cache(both, 32 + n, collect_path, got), 2);
	CHECK_STR(got, "/usr/lib/libz.so.1;/opt/cuda/lib64/libcudart.so.12;");
	CHECK(gw__parse_ld_cache(b, 47, collect_path, got) < 0);           /* short header */
	put32(b + 20, 1000);                                               /* more entries than bytes */
	CHECK(gw__parse_ld_cache(b, n, collect_path, got) < 0);
	put32(both + 12, 0x40000000);                                      /* old table past the end */
	CHECK(gw__parse_ld_cache(both, 32 + n, collect_path, got) < 0);
	CHECK(gw__parse_ld_cache((const unsigned char *)"#!/bin/sh\n", 10, collect_path, got) < 0);
}

int main(void)
{
	/* A parser that loops forever fails the test instead of hanging it. */
	alarm(30);
	test_proc_version_blanks();
	test_versions();
	test_cuda_files();
	test_python_files();
	test_metadata();
	test_system_files();
	test_nccl_ifname();
	test_elf();
	test_elf_dynamic();
	test_ld_cache();
	return CHECK_DONE();
}
