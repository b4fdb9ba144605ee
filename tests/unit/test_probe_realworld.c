/* The probe parsers against file contents as real installs write them.
 * Each sample names where its shape was seen (repository/path, or the
 * generator that writes it); the same texts are seeds in
 * tests/fuzz/corpus/probe_parsers/rw_*. */
#include "check.h"
#include "probe/probe.h"

/* ---- torch/version.py ------------------------------------------------------ */

static void test_torch(void)
{
	gw_torch_build b;

	/* torch 1.13 wheel (tools/generate_torch_version.py before type hints) */
	gw__parse_torch_version_py("__version__ = '1.13.1+cu117'\ndebug = False\ncuda = '11.7'\n"
				   "git_version = '49444c3e546bf240bed24a101e747422d1f8a0ee'\nhip = None\n", &b);
	CHECK_STR(b.version, "1.13.1+cu117");
	CHECK_STR(b.cuda, "11.7");
	CHECK_INT(b.hip_kind, GW_PYVAL_NONE);
	CHECK_INT(b.xpu_kind, GW_PYVAL_MISSING);

	/* torch 2.4.0+cu118 wheel (site-packages/torch/version.py as found by the code search) */
	gw__parse_torch_version_py("from typing import Optional\n\n"
				   "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
				   "__version__ = '2.4.0+cu118'\ndebug = False\ncuda: Optional[str] = '11.8'\n"
				   "git_version = 'e4ee3be4063b7c430974252fdf7db42273388d86'\nhip: Optional[str] = None\n", &b);
	CHECK_STR(b.version, "2.4.0+cu118");
	CHECK_INT(b.cuda_kind, GW_PYVAL_STR);
	CHECK_STR(b.cuda, "11.8");
	CHECK_STR(b.hip, "");

	/* torch 2.6.0+cpu wheel: xpu appears, cuda None */
	gw__parse_torch_version_py("from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
				   "__version__ = '2.6.0+cpu'\ndebug = False\ncuda: Optional[str] = None\n"
				   "git_version = '2236df1770800ffea5697b11b0bb0d910b2e59e1'\nhip: Optional[str] = None\n"
				   "xpu: Optional[str] = None\n", &b);
	CHECK_INT(b.cuda_kind, GW_PYVAL_NONE);
	CHECK_STR(b.cuda, "");
	CHECK_INT(b.xpu_kind, GW_PYVAL_NONE);

	/* ROCm nightly wheel: hip carries HIP's own build number */
	gw__parse_torch_version_py("from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
				   "__version__ = '2.3.0.dev20240308+rocm6.0'\ndebug = False\ncuda: Optional[str] = None\n"
				   "git_version = '55e93013211e3d9a52e259aee5df4f6198a3cdcc'\nhip: Optional[str] = '6.0.32830-d62f6a171'\n", &b);
	CHECK_STR(b.hip, "6.0.32830-d62f6a171");
	CHECK_INT(b.cuda_kind, GW_PYVAL_NONE);
	{
		gw_ver v;
		char tag[24];

		CHECK_INT(gw__version_parse(b.version, &v), 0);
		CHECK_INT(v.nparts, 3);           /* 2.3.0, the .dev stamp is not a part */
		CHECK_INT(v.part[1], 3);
		gw__torch_variant(b.version, tag, sizeof(tag));
		CHECK_STR(tag, "rocm6.0");
		CHECK_INT(gw__version_parse(b.hip, &v), 0);
		CHECK_INT(v.part[0], 6);
		CHECK_INT(v.part[2], 32830);
	}

	/* Newer ROCm wheels write rocm next to hip (seen in a user's notes:
	 * '2.13.0+rocm10.0.0', hip '7.15.26333', rocm '10.0.0') */
	gw__parse_torch_version_py("__version__ = '2.13.0+rocm10.0.0'\ncuda: Optional[str] = None\n"
				   "hip: Optional[str] = '7.15.26333'\nrocm: Optional[str] = '10.0.0'\nxpu: Optional[str] = None\n", &b);
	CHECK_STR(b.rocm, "10.0.0");
	CHECK_STR(b.hip, "7.15.26333");

	/* conda-forge pytorch 2.1.2 (cuda120 build): no local tag */
	gw__parse_torch_version_py("__version__ = '2.1.2'\ndebug = False\ncuda: Optional[str] = '12.0'\n"
				   "git_version = 'Unknown'\nhip: Optional[str] = None\n", &b);
	CHECK_STR(b.version, "2.1.2");
	CHECK_STR(b.cuda, "12.0");

	/* nightly CUDA wheel */
	gw__parse_torch_version_py("__version__ = '2.6.0.dev20241101+cu124'\ncuda: Optional[str] = '12.4'\n", &b);
	{
		char tag[24];

		gw__torch_variant(b.version, tag, sizeof(tag));
		CHECK_STR(tag, "cu124");
	}

	/* Bazel template (pytorch/pytorch torch/version.py.tpl): not yet filled in */
	gw__parse_torch_version_py("__version__ = '{{VERSION}}'\ndebug = False\ncuda = '{{CUDA_VERSION}}'\ngit_version = \"\"\nhip = None\n", &b);
	{
		gw_ver v;

		CHECK(gw__version_parse(b.cuda, &v) < 0);
	}

	/* CRLF line ends (a file copied through Windows) */
	gw__parse_torch_version_py("__version__ = '2.2.1'\r\ncuda: Optional[str] = None\r\nhip: Optional[str] = None\r\n", &b);
	CHECK_STR(b.version, "2.2.1");
	CHECK_INT(b.cuda_kind, GW_PYVAL_NONE);
}

/* ---- tensorflow build_info.py --------------------------------------------- */

static void test_tensorflow(void)
{
	gw_tf_build b;

	/* TF 2.12 Linux wheel (tensorflow/tools/build_info/gen_build_info.py
	 * writes collections.OrderedDict of sorted pairs; values as printed by
	 * tf.sysconfig.get_build_info() in the TF install docs) */
	gw__parse_tf_build_info("\"\"\"Auto-generated module providing information about the build.\"\"\"\nimport collections\n\n"
				"build_info = collections.OrderedDict([('cpu_compiler', '/dt9/usr/bin/gcc'), "
				"('cuda_compute_capabilities', ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), "
				"('cuda_version', '11.8'), ('cudnn_version', '8'), ('is_cuda_build', True), "
				"('is_rocm_build', False), ('is_tensorrt_build', True)])\n", &b);
	CHECK_INT(b.is_cuda, GW_PYVAL_TRUE);
	CHECK_INT(b.is_rocm, GW_PYVAL_FALSE);
	CHECK_STR(b.cuda, "11.8");
	CHECK_STR(b.cudnn, "8");
	CHECK(b.has_archs);
	CHECK(strstr(b.archs, "compute_80") != NULL);

	/* TF 2.15 wheel: CUDA 12.2 */
	gw__parse_tf_build_info("import collections\nbuild_info = collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-17/bin/clang'), "
				"('cuda_compute_capabilities', ['sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), "
				"('cuda_version', '12.2'), ('cudnn_version', '8'), ('is_cuda_build', True), "
				"('is_rocm_build', False), ('is_tensorrt_build', True)])\n", &b);
	CHECK_STR(b.cuda, "12.2");

	/* tensorflow-cpu: no CUDA keys at all */
	gw__parse_tf_build_info("import collections\nbuild_info = collections.OrderedDict([('cpu_compiler', '/usr/bin/gcc'), "
				"('is_cuda_build', False), ('is_rocm_build', False), ('is_tensorrt_build', False)])\n", &b);
	CHECK_INT(b.is_cuda, GW_PYVAL_FALSE);
	CHECK_STR(b.cuda, "");
	CHECK(!b.has_archs);

	/* TF 1.x / 2.0-2.2: module constants (cuda_version_number), as quoted
	 * from a user's site-packages/tensorflow/python/platform/build_info.py */
	gw__parse_tf_build_info("\"\"\"Generates a Python module containing information about the build.\"\"\"\n"
				"is_rocm_build = False\nis_cuda_build = True\n"
				"cuda_version_number = '10.0'\ncudnn_version_number = '7'\n", &b);
	CHECK_INT(b.is_cuda, GW_PYVAL_TRUE);
	CHECK_INT(b.is_rocm, GW_PYVAL_FALSE);
	CHECK_STR(b.cuda, "10.0");
	CHECK_STR(b.cudnn, "7");

	/* TF 2.3 Windows wheel (NgaAdrain/TEAM_Enter_Text_Here,
	 * .../tensorflow/python/platform/build_info.py): a plain dict and
	 * "64_101" for CUDA 10.1 */
	gw__parse_tf_build_info("build_info = {'cuda_version': '64_101', 'cudnn_version': '64_7', "
				"'cuda_compute_capabilities': ['sm_35', 'sm_37', 'sm_52', 'sm_60', 'sm_61', 'compute_70'], "
				"'cpu_compiler': 'C:/Program Files (x86)/cl.exe', 'is_rocm_build': False, 'is_cuda_build': True, "
				"'msvcp_dll_names': 'msvcp140.dll,msvcp140_1.dll', 'nvcuda_dll_name': 'nvcuda.dll', "
				"'cudart_dll_name': 'cudart64_101.dll', 'cudnn_dll_name': 'cudnn64_7.dll'}\n", &b);
	CHECK_STR(b.cuda, "10.1");
	CHECK_STR(b.cudnn, "7");
	CHECK_INT(b.is_cuda, GW_PYVAL_TRUE);

	/* TF 1.x Windows constants (same layout with _number) */
	gw__parse_tf_build_info("cuda_version_number = '64_100'\ncudnn_version_number = '64_7'\nis_cuda_build = True\n", &b);
	CHECK_STR(b.cuda, "10.0");

	/* TF 2.18 hermetic CUDA: 12.5.1 / cuDNN 9 */
	gw__parse_tf_build_info("build_info = collections.OrderedDict([('cpu_compiler', 'clang 18'), "
				"('cuda_compute_capabilities', ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']), "
				"('cuda_version', '12.5.1'), ('cudnn_version', '9'), ('is_cuda_build', True), "
				"('is_rocm_build', False), ('is_tensorrt_build', False)])\n", &b);
	CHECK_STR(b.cuda, "12.5.1");
	CHECK_STR(b.cudnn, "9");
}

/* ---- jax ------------------------------------------------------------------- */

static void test_jax(void)
{
	char v[48];

	/* jax 0.3.8 (jax-ml/jax jax/version.py at 0150d15c): only __version__ */
	gw__parse_jax_version_py("def _version_as_tuple(version_str):\n  return tuple(int(i) for i in version_str.split(\".\") if i.isdigit())\n\n"
				 "__version__ = \"0.3.8\"\n__version_info__ = _version_as_tuple(__version__)\n\n"
				 "_minimum_jaxlib_version = \"0.3.7\"\n", v, sizeof(v));
	CHECK_STR(v, "0.3.8");
	/* jax 0.4.30 source tree: _version, __version__ computed */
	gw__parse_jax_version_py("import os\n_version: str = \"0.4.30\"\n"
				 "# The following line is overwritten by build scripts in distributions &\n"
				 "_release_version: str | None = None\n\n"
				 "def _get_version_string() -> str:\n  if _release_version is not None:\n    return _release_version\n"
				 "__version__ = _get_version_string()\n", v, sizeof(v));
	CHECK_STR(v, "0.4.30");
	/* the wheel: the build rewrote _release_version (a nightly here) */
	gw__parse_jax_version_py("_version: str = \"0.4.31\"\n_release_version: str = '0.4.31.dev20240701'\n"
				 "__version__ = _get_version_string()\n", v, sizeof(v));
	CHECK_STR(v, "0.4.31.dev20240701");
	gw__parse_jax_version_py("nothing here\n", v, sizeof(v));
	CHECK_STR(v, "");
}

/* ---- METADATA, dist-info names ---------------------------------------------- */

static void test_dists(void)
{
	char out[64], name[64];
	gw_ver v;

	/* jax-cuda12-plugin 0.4.30 METADATA (PyPI) */
	CHECK_INT(gw__parse_metadata("Metadata-Version: 2.1\nName: jax-cuda12-plugin\nVersion: 0.4.30\n"
				     "Summary: JAX Plugin for NVIDIA GPUs\nRequires-Python: >=3.9\n"
				     "Requires-Dist: jax-cuda12-pjrt ==0.4.30\nProvides-Extra: with_cuda\n"
				     "Requires-Dist: nvidia-cublas-cu12 >=12.1.3.1 ; extra == 'with_cuda'\n\nlong text\n",
				     "Version", out, sizeof(out)), 0);
	CHECK_STR(out, "0.4.30");
	/* cupy-cuda12x METADATA, CRLF as some wheels have it */
	CHECK_INT(gw__parse_metadata("Metadata-Version: 2.1\r\nName: cupy-cuda12x\r\nVersion: 13.2.0\r\n\r\n", "Name", out, sizeof(out)), 0);
	CHECK_STR(out, "cupy-cuda12x");
	CHECK_INT(gw__parse_metadata("Metadata-Version: 2.1\r\nName: cupy-cuda12x\r\nVersion: 13.2.0\r\n\r\n", "Version", out, sizeof(out)), 0);
	CHECK_STR(out, "13.2.0");
	CHECK_INT(gw__parse_dist_info_name("jax_cuda12_pjrt-0.4.30.dist-info", name, sizeof(name), &v), 0);
	gw__dist_normalize(name, out, sizeof(out));
	CHECK_STR(out, "jax-cuda12-pjrt");
	CHECK_INT(gw__parse_dist_info_name("tf_nightly-2.16.0.dev20231101.dist-info", name, sizeof(name), &v), 0);
	CHECK_STR(name, "tf_nightly");
	CHECK_INT(v.part[1], 16);
	/* Debian python3-torch: setuptools egg-info with the Python tag */
	CHECK_INT(gw__parse_dist_info_name("torch-2.6.0.egg-info", name, sizeof(name), &v), 0);
	CHECK_STR(v.text, "2.6.0");
	/* pip install -e: "torch.egg-info", no version in the name */
	CHECK_INT(gw__parse_dist_info_name("torch.egg-info", name, sizeof(name), &v), 0);
	CHECK_STR(name, "torch");
	CHECK_INT(v.nparts, 0);
}

/* ---- CUDA, cuDNN, NCCL, ROCm files ------------------------------------------ */

static void test_cuda_files(void)
{
	gw_ver v;

	/* /usr/local/cuda-12.4/version.json (runfile/deb install) */
	CHECK_INT(gw__parse_cuda_version_json("{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n      \"version\" : \"12.4.1\"\n   },\n"
					      "   \"cuda_cccl\" : {\n      \"name\" : \"CUDA C++ Core Compute Libraries\",\n"
					      "      \"version\" : \"12.4.127\"\n   },\n   \"cuda_cudart\" : {\n"
					      "      \"name\" : \"CUDA Runtime (cudart)\",\n      \"version\" : \"12.4.127\"\n   }\n}\n", &v), 0);
	CHECK_STR(v.text, "12.4.1");
	/* CUDA 10.2 version.txt; 9.x/10.x added a patch line */
	CHECK_INT(gw__parse_cuda_version_txt("CUDA Version 10.2.89\n", &v), 0);
	CHECK_STR(v.text, "10.2.89");
	CHECK_INT(gw__parse_cuda_version_txt("CUDA Version 9.0.176\nCUDA Patch Version 9.0.176.4\n", &v), 0);
	CHECK_STR(v.text, "9.0.176");
	/* cuDNN 9 cudnn_version.h (NVIDIA/cudnn-frontend include layout) */
	CHECK_INT(gw__parse_cudnn_h("/* Copyright ... */\n#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n"
				    "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n\n"
				    "#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n\n"
				    "/* cannot use constexpr here since this is a C-only file */\n"
				    "#define CUDNN_MIN_VERSION(major, minor, patch) ... \n#endif /* CUDNN_VERSION_H */\n", &v), 0);
	CHECK_STR(v.text, "9.1.0");
	/* cuDNN 8 */
	CHECK_INT(gw__parse_cudnn_h("#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n"
				    "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n", &v), 0);
	CHECK_STR(v.text, "8.9.7");
	/* cuDNN 7 cudnn.h: the version sits in the big header */
	CHECK_INT(gw__parse_cudnn_h("#if !defined(CUDNN_H_)\n#define CUDNN_H_\n\n#define CUDNN_MAJOR 7\n#define CUDNN_MINOR 6\n"
				    "#define CUDNN_PATCHLEVEL 5\n\n#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n"
				    "#include \"driver_types.h\"\n", &v), 0);
	CHECK_STR(v.text, "7.6.5");
	/* cuDNN 8 cudnn.h only includes the version header: not found */
	CHECK(gw__parse_cudnn_h("#include \"cudnn_version.h\"\n#include \"cudnn_ops_infer.h\"\n", &v) < 0);
	/* nccl.h 2.21.5 (NVIDIA/nccl src/nccl.h.in, generated) */
	CHECK_INT(gw__parse_nccl_h("#ifndef NCCL_H_\n#define NCCL_H_\n\n#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n"
				   "#define NCCL_MAJOR 2\n#define NCCL_MINOR 21\n#define NCCL_PATCH 5\n#define NCCL_SUFFIX \"\"\n\n"
				   "#define NCCL_VERSION_CODE 22105\n"
				   "#define NCCL_VERSION(X,Y,Z) (((X) <= 2 && (Y) <= 8) ? (X) * 1000 + (Y) * 100 + (Z) : (X) * 10000 + (Y) * 100 + (Z))\n", &v), 0);
	CHECK_STR(v.text, "2.21.5");
	/* rocm-core rocm_version.h (spacing as installed) */
	CHECK_INT(gw__parse_rocm_version_h("#ifndef _ROCM_VERSION_H_\n#define _ROCM_VERSION_H_\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
					   "#define ROCM_VERSION_MAJOR   6\n#define ROCM_VERSION_MINOR   1\n#define ROCM_VERSION_PATCH   2\n\n"
					   "typedef enum {\n    VerSuccess=0,\n", &v), 0);
	CHECK_STR(v.text, "6.1.2");
	/* /opt/rocm/.info/version: "6.1.0-82" → 6.1.0 */
	CHECK_INT(gw__version_parse("6.1.0-82\n", &v), 0);
	CHECK_INT(v.nparts, 3);
	CHECK_INT(v.part[1], 1);
}

/* ---- /proc and /etc ----------------------------------------------------------- */

static void test_system_files(void)
{
	gw_ver v;
	gw_probe_kmod_flavor fl;
	char buf[96];
	uint64_t x;

	CHECK_INT(gw__parse_nvidia_proc_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"
						"GCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04) \n", &v, &fl), 0);
	CHECK_STR(v.text, "535.104.05");
	CHECK_INT(fl, GW_KMOD_PROPRIETARY);
	CHECK_INT(gw__parse_nvidia_proc_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build  "
						"(dvs-builder@U16-I3-B03-4-3)  Tue Mar  5 22:15:33 UTC 2024\nGCC version:  gcc version 12.3.0\n", &v, &fl), 0);
	CHECK_STR(v.text, "550.54.15");
	CHECK_INT(fl, GW_KMOD_OPEN);
	CHECK_INT(gw__parse_nvidia_proc_version("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  560.35.03  Release Build  "
						"(dvs-builder@U16-I2-C04-35-2)  Fri Aug 16 21:27:47 UTC 2024\n", &v, &fl), 0);
	CHECK_STR(v.text, "560.35.03");
	CHECK_INT(fl, GW_KMOD_OPEN);
	CHECK_INT(gw__parse_nvidia_proc_version("NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.161.08  Tue Mar  5 22:21:30 UTC 2024\n", &v, &fl), 0);
	CHECK_STR(v.text, "535.161.08");
	CHECK_INT(gw__parse_nvidia_proc_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  390.157  Wed Oct 12 09:19:07 UTC 2022\n", &v, &fl), 0);
	CHECK_STR(v.text, "390.157");
	CHECK_INT(gw__parse_nvidia_proc_version("NVRM version: NVIDIA UNIX ppc64le Kernel Module  418.67  Sat Apr  6 03:07:24 CDT 2019\n", &v, &fl), 0);
	CHECK_STR(v.text, "418.67");

	CHECK_INT(gw__parse_os_release("PRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\n", "VERSION_ID", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "22.04");
	CHECK_INT(gw__parse_os_release("NAME=\"Rocky Linux\"\nID=\"rocky\"\nPRETTY_NAME=\"Rocky Linux 9.3 (Blue Onyx)\"\n", "PRETTY_NAME", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "Rocky Linux 9.3 (Blue Onyx)");
	CHECK_INT(gw__parse_os_release("ID=arch\nPRETTY_NAME='Arch Linux'\n", "PRETTY_NAME", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "Arch Linux");

	/* /proc/1/cgroup: v1 docker, v2 docker with host cgroupns, v2 with a
	 * private namespace (nothing to see), Kubernetes v1 and v2 (systemd
	 * driver), podman, LXD, GitHub Actions job container, ECS */
	CHECK_STR(gw__parse_cgroup_container("12:pids:/docker/3f1c2d0e8a\n11:memory:/docker/3f1c2d0e8a\n0::/system.slice/containerd.service\n"), "docker");
	CHECK_STR(gw__parse_cgroup_container("0::/system.slice/docker-3f1c2d0e8a.scope\n"), "docker");
	CHECK(gw__parse_cgroup_container("0::/\n") == NULL);
	CHECK(gw__parse_cgroup_container("12:pids:/init.scope\n1:name=systemd:/init.scope\n0::/init.scope\n") == NULL);
	CHECK_STR(gw__parse_cgroup_container("11:memory:/kubepods/besteffort/pod5a1b/4c3d\n"), "kubernetes");
	CHECK_STR(gw__parse_cgroup_container("0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod5a1b.slice/cri-containerd-4c3d.scope\n"), "kubernetes");
	CHECK_STR(gw__parse_cgroup_container("0::/machine.slice/libpod-4c3d.scope/container\n"), "podman");
	CHECK_STR(gw__parse_cgroup_container("0::/lxc.payload.c1/init.scope\n"), "lxc");
	CHECK_STR(gw__parse_cgroup_container("12:cpuset:/actions_job/4c3d5e\n"), "docker");
	CHECK_STR(gw__parse_cgroup_container("9:perf_event:/ecs/1a2b/3c4d\n"), "docker");

	/* KFD topology node properties, MI300X */
	{
		const char *kfd = "cpu_cores_count 0\nsimd_count 1216\nmem_banks_count 1\ncaches_count 546\nio_links_count 1\n"
				  "p2p_links_count 7\ncpu_core_id_base 0\nsimd_id_base 2147487744\nmax_waves_per_simd 8\n"
				  "lds_size_in_kb 64\ngds_size_in_kb 0\nnum_gws 64\nwave_front_size 64\narray_count 32\n"
				  "gfx_target_version 90402\nvendor_id 4098\ndevice_id 29857\nlocation_id 2048\n"
				  "drm_render_minor 128\nhive_id 1234\n";

		CHECK_INT(gw__parse_kfd_property(kfd, "gfx_target_version", &x), 0);
		CHECK_INT(gw__gfx_name((unsigned)x, buf, sizeof(buf)), 0);
		CHECK_STR(buf, "gfx942");
		CHECK_INT(gw__parse_kfd_property(kfd, "drm_render_minor", &x), 0);
		CHECK_INT(x, 128);
		CHECK_INT(gw__parse_kfd_property(kfd, "device_id", &x), 0);
		CHECK_INT(x, 29857);
		/* a CPU node says 0 */
		CHECK_INT(gw__parse_kfd_property("cpu_cores_count 64\nsimd_count 0\ngfx_target_version 0\n", "gfx_target_version", &x), 0);
		CHECK_INT(x, 0);
	}
}

int main(void)
{
	test_torch();
	test_tensorflow();
	test_jax();
	test_dists();
	test_cuda_files();
	test_system_files();
	return CHECK_DONE();
}
