/* The probes against fake trees built in a temp folder (GPUWISE_ROOT
 * semantics): an NVIDIA box with toolkits, venvs and a shadowing
 * LD_LIBRARY_PATH, and an AMD box under WSL with nouveau on the side. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "gpuwise/gpuwise.h"
#include "probe/probe.h"

static char root[256];

static void mkdirs(const char *full)
{
	char tmp[1024];

	snprintf(tmp, sizeof(tmp), "%s", full);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(tmp, 0755);
			*p = '/';
		}
	mkdir(tmp, 0755);
}

static void put(const char *path, const char *text)
{
	char full[1024], dir[1024];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	f = fopen(full, "w");
	if (!f) {
		perror(full);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

static void link_(const char *target, const char *path)
{
	char full[1024], dir[1024];

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	if (symlink(target, full) != 0 && errno != EEXIST)
		perror(full);
}

static void dir_(const char *path)
{
	char full[1024];

	snprintf(full, sizeof(full), "%s%s", root, path);
	mkdirs(full);
}

static const gw_probe_framework *find_fw(const gw_probe_pyenv *e, const char *dist)
{
	for (size_t i = 0; i < e->nfw; i++)
		if (!strcmp(e->fw[i].dist, dist))
			return &e->fw[i];
	return NULL;
}

static const gw_probe_pyenv *find_env(const gw_probe_report *r, const char *site)
{
	for (size_t i = 0; i < r->nenvs; i++)
		if (!strcmp(r->envs[i].site, site))
			return &r->envs[i];
	return NULL;
}

static const gw_probe_toolkit *find_tk(const gw_probe_report *r, const char *resolved)
{
	for (size_t i = 0; i < r->ntoolkits; i++)
		if (!strcmp(r->toolkits[i].resolved, resolved))
			return &r->toolkits[i];
	return NULL;
}

static void build_nvidia_tree(void)
{
	/* Hardware and driver. */
	put("/sys/bus/pci/devices/0000:18:00.0/class", "0x030200\n");
	put("/sys/bus/pci/devices/0000:18:00.0/vendor", "0x10de\n");
	put("/sys/bus/pci/devices/0000:18:00.0/device", "0x2330\n");
	link_("../../../bus/pci/drivers/nvidia", "/sys/bus/pci/devices/0000:18:00.0/driver");
	put("/sys/bus/pci/devices/0000:00:1f.0/class", "0x060100\n");   /* an ISA bridge: not a GPU */
	put("/sys/bus/pci/devices/0000:00:1f.0/vendor", "0x8086\n");
	put("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n");
	put("/proc/modules", "nvidia_uvm 1 0 - Live 0x0\nnvidia 2 1 nvidia_uvm, Live 0x0\n");
	put("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.15", "");
	link_("libnvidia-ml.so.550.54.15", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1");
	put("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", "");
	link_("libcuda.so.550.54.15", "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	put("/opt/old/lib/libnvidia-ml.so.535.104.05", "");
	link_("libnvidia-ml.so.535.104.05", "/opt/old/lib/libnvidia-ml.so.1");
	put("/opt/old/lib/libcudart.so.11.0", "");
	put("/opt/old/lib/libcudnn.so.8.9.2", "");
	put("/dev/nvidia0", "");
	put("/dev/nvidiactl", "");

	/* Toolkits: version.json (via the /usr/local/cuda link), version.txt,
	 * cuda.h only. */
	put("/usr/local/cuda-12.4/version.json", "{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": \"12.4.1\"}}\n");
	put("/usr/local/cuda-12.4/bin/nvcc", "");
	put("/usr/local/cuda-12.4/include/cudnn_version.h", "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n");
	link_("/usr/local/cuda-12.4", "/usr/local/cuda");
	put("/opt/cuda-11.8/version.txt", "CUDA Version 11.8.0\n");
	put("/opt/cuda-11.8/bin/nvcc", "");
	put("/opt/cuda-11.8/lib64/libcudart.so.11.8.89", "");
	put("/usr/local/cuda-13.0/include/cuda.h", "#define CUDA_VERSION 13000\n");
	put("/usr/local/cuda-13.0/include/nccl.h", "#define NCCL_MAJOR 2\n#define NCCL_MINOR 28\n#define NCCL_PATCH 9\n");
	put("/usr/include/nccl.h", "#define NCCL_MAJOR 2\n#define NCCL_MINOR 21\n#define NCCL_PATCH 5\n");
	dir_("/usr/local/cuda-docs");                                   /* not a toolkit */

	/* A venv with a cu121 torch + pip CUDA wheels, two cupy wheels, jax
	 * with the CUDA 12 plugin, and tensorflow. */
	put("/venv/bin/python3", "");
	put("/venv/pyvenv.cfg", "home = /usr/bin\n");
#define SP "/venv/lib/python3.11/site-packages"
	dir_(SP "/torch-2.5.1+cu121.dist-info");
	/* torchvision with its torch pin and build; torchaudio from its dist-info name alone */
	put(SP "/torchvision-0.20.1+cu118.dist-info/METADATA", "Metadata-Version: 2.1\nName: torchvision\n"
	    "Requires-Dist: numpy\nRequires-Dist: torch (==2.5.1)\nRequires-Dist: torchdata==0.9\n\nRequires-Dist: torch==9\n");
	put(SP "/torchvision/version.py", "__version__ = '0.20.1+cu118'\ngit_version = 'x'\ncuda = '11.8'\n");
	dir_(SP "/torchaudio-2.4.1+cu124.dist-info");
	put(SP "/torch/version.py", "__version__ = '2.5.1+cu121'\ndebug = False\ncuda: Optional[str] = '12.1'\nhip: Optional[str] = None\n");
	put(SP "/torch/lib/libtorch_cuda.so", "");
	dir_(SP "/nvidia_cudnn_cu12-9.1.0.70.dist-info");
	put(SP "/nvidia/cudnn/lib/libcudnn.so.9", "");
	dir_(SP "/nvidia_cuda_runtime_cu12-12.1.105.dist-info");
	put(SP "/nvidia/cuda_runtime/lib/libcudart.so.12", "");
	dir_(SP "/cupy_cuda11x-13.0.0.dist-info");
	dir_(SP "/cupy_cuda12x-13.3.0.dist-info");
	dir_(SP "/jax-0.4.30.dist-info");
	put(SP "/jax/version.py", "_version: str = \"0.4.30\"\n");
	dir_(SP "/jaxlib-0.4.30.dist-info");
	dir_(SP "/jax_cuda12_plugin-0.4.30.dist-info");
	dir_(SP "/tensorflow-2.16.1.dist-info");
	put(SP "/tensorflow/python/platform/build_info.py",
	    "build_info = collections.OrderedDict([('cuda_compute_capabilities', ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']), "
	    "('cuda_version', '12.3'), ('cudnn_version', '8'), ('is_cuda_build', True), ('is_rocm_build', False)])\n");
#undef SP
	/* A --python-env prefix with a CPU-only torch and a side-by-side torch-cpu dist. */
	put("/envs/cpu/lib/python3.10/site-packages/torch/version.py", "__version__ = '2.3.0+cpu'\ncuda = None\nhip = None\n");
	dir_("/envs/cpu/lib/python3.10/site-packages/torch-2.3.0+cpu.dist-info");
	dir_("/envs/cpu/lib/python3.10/site-packages/torch_cpu-2.3.0.dist-info");
	/* CONDA_PREFIX with a ROCm torch (no dist-info: egg-link style). */
	put("/conda/lib/python3.12/site-packages/torch/version.py", "__version__ = '2.4.0+rocm6.1'\ncuda = None\nhip = '6.1.40091-a8dbc0c19'\n");
	/* A user site with a tf-nightly CPU build. */
	dir_("/home/u/.local/lib/python3.11/site-packages/tf_nightly_cpu-2.18.0.dev1.dist-info");
	put("/home/u/.local/lib/python3.11/site-packages/tensorflow/python/platform/build_info.py",
	    "is_cuda_build = False\nis_rocm_build = False\n");
	/* The system site, reached twice (/usr/lib64 -> lib): one env. */
	dir_("/usr/lib/python3/dist-packages/PyYAML-6.0.dist-info");
	link_("lib", "/usr/lib64");

	/* Container, OS, kernel log. */
	put("/.dockerenv", "");
	put("/etc/os-release", "NAME=\"Ubuntu\"\nPRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\n");
	put("/proc/version", "Linux version 6.5.0-21-generic (buildd@lcy02) gcc 12\n");
	put("/var/log/kern.log",
	    "Mar 1 10:00:00 h kernel: [ 1.0] nvidia: loading out-of-tree module\n"
	    "Mar 1 10:00:01 h kernel: [ 2.0] NVRM: Xid (PCI:0000:18:00): 13, pid=1, name=python, Graphics Exception\n"
	    "Mar 1 10:00:02 h kernel: [ 3.0] NVRM: Xid (PCI:0000:18:00): 79, pid=2, name=python, GPU has fallen off the bus.\n"
	    "Mar 1 10:00:03 h kernel: [ 4.0] NVRM: Xid (PCI:0000:18:00): 79, pid=3, name=python, GPU has fallen off the bus.\n"
	    "Mar 1 10:00:04 h kernel: [ 5.0] NVRM: Xid (PCI:0000:18:00): 999, pid=3, name=python, new code\n");
}

static void test_nvidia_tree(void)
{
	const char *envs[] = { "/envs/cpu" };
	gw_probe_options o;
	gw_probe_report *r = NULL;
	const gw_probe_pyenv *e;
	const gw_probe_framework *f;
	const gw_probe_toolkit *t;

	build_nvidia_tree();
	memset(&o, 0, sizeof(o));
	o.root = root;
	o.uid = -1;
	o.python_envs = envs;
	o.npython_envs = 1;
	o.env.path = "/usr/local/cuda/bin:/venv/bin:/usr/bin";
	o.env.ld_library_path = "/opt/old/lib:/opt/cuda-11.8/lib64:/nonexistent";
	o.env.cuda_home = "/opt/cuda-11.8/";
	o.env.virtual_env = "/venv";
	o.env.conda_prefix = "/conda";
	o.env.home = "/home/u";
	o.env.nvidia_visible_devices = "all";
	o.env.cuda_visible_devices = "0";
	CHECK_INT(gw__probe_run(&r, &o), 0);
	if (!r)
		return;

	/* Hardware and driver. */
	CHECK_INT(r->ngpus, 1);
	CHECK_STR(r->gpus[0].bus_id, "0000:18:00.0");
	CHECK_INT(r->gpus[0].vendor, GW_VENDOR_NVIDIA);
	CHECK_STR(r->gpus[0].driver, "nvidia");
	CHECK(r->gpus[0].model && !strcmp(r->gpus[0].model->cc, "9.0"));
	CHECK(r->nvidia.module_loaded);
	CHECK(r->nvidia.uvm_loaded);
	CHECK(!r->nvidia.nouveau_loaded);
	CHECK_STR(r->nvidia.module_version.text, "550.54.15");
	CHECK_INT(r->nvidia.flavor, GW_KMOD_PROPRIETARY);
	/* LD_LIBRARY_PATH's old NVML comes first: what dlopen would load. */
	CHECK_INT(r->nvidia.nnvml, 2);
	CHECK_STR(r->nvidia.nvml[0].dir, "/opt/old/lib");
	CHECK_STR(r->nvidia.nvml[0].version.text, "535.104.05");
	CHECK_STR(r->nvidia.nvml[0].origin, "LD_LIBRARY_PATH");
	CHECK_STR(r->nvidia.nvml[1].version.text, "550.54.15");
	CHECK(r->nvidia.nvml[1].has_soname);
	CHECK_INT(r->nvidia.nlibcuda, 1);
	CHECK_STR(r->nvidia.libcuda[0].version.text, "550.54.15");
	CHECK_INT(r->nvidia.ndev, 1);
	CHECK(r->nvidia.dev[0].exists && r->nvidia.dev[0].accessible);
	CHECK(r->nvidia.ctl.exists);
	CHECK(!r->nvidia.uvm.exists);

	/* Toolkits. */
	CHECK_INT(r->ntoolkits, 3);
	t = find_tk(r, "/usr/local/cuda-12.4");
	CHECK(t && !strcmp(t->version.text, "12.4.1") && !strcmp(t->version_source, "version.json"));
	CHECK(t && t->nvcc_on_path && !strcmp(t->prefix, "/usr/local/cuda") && !strcmp(t->cudnn.text, "8.9.7"));
	t = find_tk(r, "/opt/cuda-11.8");
	CHECK(t && !strcmp(t->version.text, "11.8.0") && !strcmp(t->version_source, "version.txt") && t->is_cuda_home);
	t = find_tk(r, "/usr/local/cuda-13.0");
	CHECK(t && !strcmp(t->version.text, "13.0") && !strcmp(t->version_source, "cuda.h") && !t->has_nvcc);
	CHECK(t && !strcmp(t->nccl.text, "2.28.9"));
	CHECK(r->nvcc_toolkit >= 0 && !strcmp(r->toolkits[r->nvcc_toolkit].resolved, "/usr/local/cuda-12.4"));
	CHECK(r->cuda_home_toolkit >= 0 && !strcmp(r->toolkits[r->cuda_home_toolkit].resolved, "/opt/cuda-11.8"));
	CHECK_INT(r->nnccl, 1);
	CHECK_STR(r->nccl[0].where, "/usr/include/nccl.h");
	CHECK_STR(r->nccl[0].version.text, "2.21.5");

	/* LD_LIBRARY_PATH order. */
	CHECK_INT(r->nldpath, 3);
	CHECK(!r->ldpath[2].exists);
	CHECK_INT(r->ld_first[GW_CUDALIB_CUDART], 0);
	CHECK_STR(r->ldpath[0].version[GW_CUDALIB_CUDART].text, "11.0");
	CHECK_STR(r->ldpath[1].version[GW_CUDALIB_CUDART].text, "11.8.89");
	CHECK_INT(r->ld_first[GW_CUDALIB_CUDNN], 0);
	CHECK_STR(r->ldpath[0].version[GW_CUDALIB_CUDNN].text, "8.9.2");
	CHECK_INT(r->ld_first[GW_CUDALIB_CUBLAS], -1);

	/* Python environments. */
	e = find_env(r, "/envs/cpu/lib/python3.10/site-packages");
	CHECK(e && !strcmp(e->origin, "--python-env") && !strcmp(e->python, "3.10"));
	if (e) {
		CHECK_INT(e->nfw, 2);
		f = find_fw(e, "torch");
		CHECK(f && f->gpu == GW_FW_GPU_NONE && !strcmp(f->variant, "cpu") && f->primary);
		f = find_fw(e, "torch-cpu");
		CHECK(f && f->gpu == GW_FW_GPU_NONE && f->kind == GW_FW_TORCH);
	}
	e = find_env(r, "/venv/lib/python3.11/site-packages");
	CHECK(e && !strcmp(e->origin, "VIRTUAL_ENV"));
	if (e) {
		f = find_fw(e, "torch");
		CHECK(f && f->gpu == GW_FW_GPU_CUDA && !strcmp(f->cuda.text, "12.1") && !strcmp(f->variant, "cu121"));
		CHECK(f && f->has_libtorch_cuda && f->bundles_cuda && !strcmp(f->arch_source, "table"));
		CHECK(f && strstr(f->archs, "sm_90") && !strstr(f->archs, "sm_120"));
		CHECK(f && !strcmp(f->version.text, "2.5.1+cu121"));
		CHECK_INT(e->ntorch_parts, 2);
		for (size_t i = 0; i < e->ntorch_parts; i++) {
			const gw_probe_torch_part *tp = &e->torch_parts[i];

			if (!strcmp(tp->dist, "torchvision"))
				CHECK(!strcmp(tp->version.text, "0.20.1+cu118") && !strcmp(tp->variant, "cu118") &&
				      !strcmp(tp->cuda.text, "11.8") && !strcmp(tp->torch_pin, "2.5.1") &&
				      strstr(tp->evidence, "torchvision/version.py"));
			else
				CHECK(!strcmp(tp->dist, "torchaudio") && !strcmp(tp->variant, "cu124") &&
				      !strcmp(tp->cuda.text, "12.4") && !tp->torch_pin[0] && strstr(tp->evidence, ".dist-info"));
		}
		f = find_fw(e, "cupy-cuda11x");
		CHECK(f && f->gpu == GW_FW_GPU_CUDA && f->cuda.part[0] == 11 && f->primary);
		f = find_fw(e, "cupy-cuda12x");
		CHECK(f && f->cuda.part[0] == 12 && !strcmp(f->version.text, "13.3.0"));
		f = find_fw(e, "jax");
		CHECK(f && f->gpu == GW_FW_GPU_CUDA && f->cuda.part[0] == 12 && !strcmp(f->version.text, "0.4.30"));
		f = find_fw(e, "jax-cuda12-plugin");
		CHECK(f && !f->primary && f->gpu == GW_FW_GPU_CUDA);
		f = find_fw(e, "jaxlib");
		CHECK(f && !f->primary && f->gpu == GW_FW_GPU_UNKNOWN);
		f = find_fw(e, "tensorflow");
		CHECK(f && f->gpu == GW_FW_GPU_CUDA && !strcmp(f->cuda.text, "12.3") && !strcmp(f->cudnn.text, "8"));
		CHECK(f && !strcmp(f->archs, "sm_60 sm_70 sm_80 sm_89") && !strcmp(f->ptx, "compute_90"));
		CHECK_INT(e->nwheels, 2);
		for (size_t i = 0; i < e->nwheels; i++) {
			if (!strcmp(e->wheels[i].name, "cudnn"))
				CHECK(!strcmp(e->wheels[i].dist, "nvidia-cudnn-cu12") && e->wheels[i].has[GW_CUDALIB_CUDNN] &&
				      !strcmp(e->wheels[i].version.text, "9.1.0.70"));
			else
				CHECK(!strcmp(e->wheels[i].dist, "nvidia-cuda-runtime-cu12") && e->wheels[i].has[GW_CUDALIB_CUDART]);
		}
	}
	e = find_env(r, "/conda/lib/python3.12/site-packages");
	CHECK(e && !strcmp(e->origin, "CONDA_PREFIX"));
	if (e) {
		CHECK_INT(e->nfw, 1);
		f = &e->fw[0];
		CHECK(f->kind == GW_FW_TORCH && f->gpu == GW_FW_GPU_ROCM && !strcmp(f->variant, "rocm6.1") && !f->dist[0]);
		CHECK(gw__gfx_in_list(f->archs, "gfx90a") && !gw__gfx_in_list(f->archs, "gfx1031"));
		CHECK_INT(f->hip.part[0], 6);
	}
	e = find_env(r, "/home/u/.local/lib/python3.11/site-packages");
	CHECK(e && !strcmp(e->origin, "user"));
	if (e) {
		f = find_fw(e, "tf-nightly-cpu");
		CHECK(f && f->gpu == GW_FW_GPU_NONE && f->kind == GW_FW_TENSORFLOW);
	}
	{
		int sys_envs = 0;

		for (size_t i = 0; i < r->nenvs; i++)
			sys_envs += !strcmp(r->envs[i].resolved, "/usr/lib/python3/dist-packages");
		CHECK_INT(sys_envs, 1);
	}

	/* Environment and log. */
	CHECK(r->sys.container && !strcmp(r->sys.container_kind, "docker"));
	CHECK(r->sys.gpu_runtime_hint && r->sys.nvidia_visible_set);
	CHECK(!r->sys.wsl);
	CHECK_STR(r->sys.os_pretty, "Ubuntu 22.04.4 LTS");
	CHECK_STR(r->kernel_log, "/var/log/kern.log");
	CHECK_INT(r->nxids, 3);
	CHECK(r->nxids == 3 && r->xids[1].xid == 79 && r->xids[1].count == 2 && r->xids[1].info &&
	      strstr(r->xids[1].last_line, "pid=3"));
	CHECK(r->nxids == 3 && r->xids[2].xid == 999 && r->xids[2].info == NULL);
	CHECK_STR(r->cuda_visible_devices, "0");
	CHECK(!r->truncated);
	gw__probe_free(r);
}

static void build_amd_tree(void)
{
	char group[256];

	put("/sys/bus/pci/devices/0000:03:00.0/class", "0x030000\n");
	put("/sys/bus/pci/devices/0000:03:00.0/vendor", "0x1002\n");
	put("/sys/bus/pci/devices/0000:03:00.0/device", "0x744c\n");
	link_("../../../bus/pci/drivers/amdgpu", "/sys/bus/pci/devices/0000:03:00.0/driver");
	put("/sys/bus/pci/devices/0000:01:00.0/class", "0x030000\n");
	put("/sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de\n");
	put("/sys/bus/pci/devices/0000:01:00.0/device", "0x1b80\n");
	link_("../../../bus/pci/drivers/nouveau", "/sys/bus/pci/devices/0000:01:00.0/driver");
	put("/sys/module/nouveau/initstate", "live\n");
	put("/proc/modules", "amdgpu 1 0 - Live 0x0\nnouveau 2 0 - Live 0x0\n");
	put("/sys/module/amdgpu/version", "6.7.0\n");
	put("/sys/class/kfd/kfd/topology/nodes/0/properties", "cpu_cores_count 16\nsimd_count 0\ngfx_target_version 0\n");
	put("/sys/class/kfd/kfd/topology/nodes/1/properties",
	    "cpu_cores_count 0\nsimd_count 192\ngfx_target_version 110000\nvendor_id 4098\ndevice_id 29772\ndrm_render_minor 128\n");
	put("/dev/kfd", "");
	put("/dev/dri/renderD128", "");
	put("/opt/rocm-6.0.2/.info/version", "6.0.2-115\n");
	put("/opt/rocm-6.1.2/.info/version", "6.1.2-98\n");
	put("/etc/os-release", "NAME=\"Rocky Linux\"\nVERSION_ID=\"9.5\"\nID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\n");
	snprintf(group, sizeof(group), "root:x:0:\nvideo:x:44:\nrender:x:%u:u\n", (unsigned)getegid());
	if (getegid() == 44 || getegid() == 0)   /* keep the test meaningful when run as root */
		snprintf(group, sizeof(group), "root:x:0:u\nvideo:x:44:\nrender:x:109:u\n");
	put("/etc/group", group);
	put("/etc/passwd", "root:x:0:0:root:/root:/bin/bash\nu:x:1234:5555::/home/u:/bin/sh\n");
	put("/proc/version", "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@1) gcc 11\n");
	put("/usr/lib/wsl/lib/libcuda.so", "");
	put("/proc/1/cgroup", "0::/init.scope\n");
}

static void test_amd_tree(void)
{
	gw_probe_options o;
	gw_probe_report *r = NULL;

	build_amd_tree();
	memset(&o, 0, sizeof(o));
	o.root = root;
	o.uid = 1234;
	o.skip_kernel_log = true;
	o.env.hsa_override_gfx_version = "11.0.0";
	CHECK_INT(gw__probe_run(&r, &o), 0);
	if (!r)
		return;
	CHECK_INT(r->ngpus, 2);
	for (size_t i = 0; i < r->ngpus; i++) {
		if (r->gpus[i].vendor == GW_VENDOR_AMD) {
			CHECK_STR(r->gpus[i].driver, "amdgpu");
			CHECK(r->gpus[i].gfx && !strcmp(r->gpus[i].gfx->gfx, "gfx1100"));
		} else {
			CHECK_STR(r->gpus[i].driver, "nouveau");
			CHECK(r->gpus[i].model && !strcmp(r->gpus[i].model->arch, "Pascal"));
		}
	}
	CHECK(r->nvidia.nouveau_loaded);
	CHECK(!r->nvidia.module_loaded);
	CHECK(r->amd.amdgpu_loaded);
	CHECK_STR(r->amd.amdgpu_version.text, "6.7.0");
	CHECK(r->amd.kfd.exists && r->amd.kfd.accessible);
	CHECK(r->amd.kfd.user_in_group);   /* u is listed in the group owning the node */
	CHECK_INT(r->amd.nrender, 1);
	CHECK_STR(r->amd.render[0].path, "/dev/dri/renderD128");
	CHECK(r->amd.user_in_render);
	CHECK(!r->amd.user_in_video);
	CHECK_INT(r->amd.nagents, 1);
	CHECK(r->amd.nagents == 1 && r->amd.agent[0].gfx_target_version == 110000 && r->amd.agent[0].node == 1 &&
	      r->amd.agent[0].info && !strcmp(r->amd.agent[0].info->family, "RDNA 3"));
	CHECK_STR(r->amd.rocm.text, "6.1.2-98");
	CHECK_STR(r->sys.os_id, "rocky");
	CHECK_STR(r->sys.os_version_id, "9.5");
	CHECK_STR(r->sys.os_id_like, "rhel centos fedora");
	CHECK_STR(r->amd.rocm_path, "/opt/rocm-6.1.2");
	CHECK_STR(r->amd.hsa_override_gfx, "gfx1100");
	CHECK(r->sys.wsl && r->sys.wsl_libcuda);
	CHECK(!r->sys.container);
	CHECK_INT(r->ntoolkits, 0);
	CHECK_INT(r->nenvs, 0);
	CHECK_INT(r->nxids, 0);
	gw__probe_free(r);
}

static void test_empty_and_garbage(void)
{
	gw_probe_options o;
	gw_probe_report *r = NULL;

	/* Garbage in the files the probes read never crashes nor invents. */
	put("/proc/driver/nvidia/version", "NVRM version: Kernel Module \n\x01\x02");
	put("/sys/bus/pci/devices/zz/class", "0x03zzzz");
	put("/sys/bus/pci/devices/zz/vendor", "\xff\xfe");
	put("/usr/local/cuda-9.9/version.json", "{\"cuda\": {\"version\": ");
	put("/usr/local/cuda-9.9/bin/nvcc", "");
	put("/x/lib/python3.9/site-packages/torch/version.py", "__version__ = \ncuda = '\n");
	put("/var/log/syslog", "NVRM: Xid (PCI:0000:01:00): \nNVRM: Xid (PCI:0000:01:00\n");
	memset(&o, 0, sizeof(o));
	o.root = root;
	o.uid = -1;
	o.env.virtual_env = "/x";
	o.env.path = ":relative:/nope";
	o.env.ld_library_path = "::";
	CHECK_INT(gw__probe_run(&r, &o), 0);
	if (!r)
		return;
	CHECK(!GW_VERSION_KNOWN(r->nvidia.module_version));
	CHECK_INT(r->ntoolkits, 1);
	CHECK(r->ntoolkits == 1 && !strcmp(r->toolkits[0].version.text, "9.9") &&
	      !strcmp(r->toolkits[0].version_source, "directory"));
	CHECK_INT(r->nenvs, 1);
	CHECK(r->nenvs == 1 && r->envs[0].nfw == 1 && r->envs[0].fw[0].gpu == GW_FW_GPU_UNKNOWN);
	CHECK_INT(r->nxids, 0);
	gw__probe_free(r);
	CHECK_INT(gw__probe_run(&r, NULL), GW_EINVAL);
	gw__probe_free(NULL);
}

/* The site folders of a python3 on PATH come from its layout, never from
 * running it: the nearest folder above its real file that holds its
 * standard library, and a venv's base named in pyvenv.cfg (a venv made
 * with --copies has no link to follow). */
static void test_interpreter_layout(void)
{
	gw_probe_options o;
	gw_probe_report *r = NULL;
	const gw_probe_pyenv *e;

	put("/opt/tool/libexec/bin/python3.12", "");
	link_("python3.12", "/opt/tool/libexec/bin/python3");
	put("/opt/tool/lib/python3.12/os.py", "");
	put("/opt/tool/lib/python3.12/site-packages/torch/version.py", "__version__ = '2.4.0+cu124'\ncuda = '12.4'\n");
	put("/cv/bin/python3", "");
	put("/cv/pyvenv.cfg", "home = /opt/base/bin\ninclude-system-site-packages = false\nversion = 3.10.12\n");
	put("/opt/base/bin/python3.10", "");
	put("/opt/base/lib/python3.10/os.py", "");
	put("/opt/base/lib/python3.10/site-packages/torch/version.py", "__version__ = '2.1.0+cu118'\ncuda = '11.8'\n");
	memset(&o, 0, sizeof(o));
	o.root = root;
	o.uid = -1;
	o.env.path = "/opt/tool/libexec/bin:/cv/bin";
	CHECK_INT(gw__probe_run(&r, &o), 0);
	if (!r)
		return;
	e = find_env(r, "/opt/tool/lib/python3.12/site-packages");
	CHECK(e && !strcmp(e->origin, "PATH") && e->nfw == 1);
	e = find_env(r, "/opt/base/lib/python3.10/site-packages");
	CHECK(e && !strcmp(e->origin, "PATH") && e->nfw == 1);
	gw__probe_free(r);
}

static void rm_tree(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/gw-probe-XXXXXX");
	if (!mkdtemp(root))
		return 2;
	test_nvidia_tree();
	rm_tree();
	mkdir(root, 0700);
	test_amd_tree();
	rm_tree();
	mkdir(root, 0700);
	test_empty_and_garbage();
	rm_tree();
	mkdir(root, 0700);
	test_interpreter_layout();
	rm_tree();
	return CHECK_DONE();
}
