/* The compiled data tables and their lookups (lib/hardware/tables.c). */
#include "check.h"
#include "gpuwise/gpuwise.h"
#include "probe/probe.h"

static gw_ver V(const char *s)
{
	gw_ver v;

	gw__version_parse(s, &v);
	return v;
}

static void test_driver_max_cuda(void)
{
	gw_ver d, cuda;

	d = V("550.54.15");
	CHECK_INT(gw__tbl_driver_max_cuda(&d, &cuda), 0);
	CHECK_STR(cuda.text, "12.4");
	d = V("470.57.02");
	CHECK_INT(gw__tbl_driver_max_cuda(&d, &cuda), 0);
	CHECK_STR(cuda.text, "11.4");
	d = V("580.95.05");
	CHECK_INT(gw__tbl_driver_max_cuda(&d, &cuda), 0);
	CHECK_STR(cuda.text, "13.0");
	d = V("565.57.01");
	CHECK_INT(gw__tbl_driver_max_cuda(&d, &cuda), 0);
	CHECK_STR(cuda.text, "12.7");
	d = V("390.12");
	CHECK_INT(gw__tbl_driver_max_cuda(&d, &cuda), GW_ENOTFOUND);
}

static void test_toolkit_driver(void)
{
	gw_ver t = V("12.4.1"), d;
	const gw_row_cuda_toolkit_driver *row = gw__tbl_toolkit_driver(&t);

	CHECK(row && !strcmp(row->min_driver, "550.54.15"));
	t = V("12.4.0");
	row = gw__tbl_toolkit_driver(&t);
	CHECK(row && !strcmp(row->min_driver, "550.54.14"));
	t = V("13.0.88");     /* an nvcc component version: GA row */
	row = gw__tbl_toolkit_driver(&t);
	CHECK(row && !strcmp(row->min_driver, "580.65.06"));
	t = V("11.4.4");
	row = gw__tbl_toolkit_driver(&t);
	CHECK(row && !strcmp(row->min_driver, "470.82.01"));

	/* Minor-version compatibility floors (doctor.md 2.2). */
	t = V("12.8");
	CHECK_INT(gw__tbl_cuda_min_driver(&t, &d), 0);
	CHECK_STR(d.text, "525.60.13");
	t = V("11.8");
	CHECK_INT(gw__tbl_cuda_min_driver(&t, &d), 0);
	CHECK_STR(d.text, "450.80.02");
	t = V("13.0");
	CHECK_INT(gw__tbl_cuda_min_driver(&t, &d), 0);
	CHECK_STR(d.text, "580.65.06");
	t = V("10.2");         /* before minor-version compatibility */
	CHECK_INT(gw__tbl_cuda_min_driver(&t, &d), 0);
	CHECK_STR(d.text, "440.33");
	t = V("11.0");
	CHECK_INT(gw__tbl_cuda_min_driver(&t, &d), 0);
	CHECK_STR(d.text, "450.51.05");

	d = V("535.104.05");
	t = V("12.4");
	CHECK(gw__tbl_driver_runs_cuda(&d, &t));
	t = V("13.0");
	CHECK(!gw__tbl_driver_runs_cuda(&d, &t));
	d = V("470.57.02");
	t = V("12.1");
	CHECK(!gw__tbl_driver_runs_cuda(&d, &t));
}

static void test_torch_arch(void)
{
	gw_ver t = V("2.5.1+cu121");
	const gw_row_torch_cuda_arch *a = gw__tbl_torch_cuda_arch(&t, "cu121");

	CHECK(a && strstr(a->archs, "sm_50") && strstr(a->archs, "sm_90") && !strstr(a->archs, "sm_120"));
	t = V("2.7.0");
	a = gw__tbl_torch_cuda_arch(&t, "cu128");
	CHECK(a && !strstr(a->archs, "sm_70") && strstr(a->archs, "sm_120"));
	t = V("2.8.0");
	a = gw__tbl_torch_cuda_arch(&t, "cu128");
	CHECK(a && strstr(a->archs, "sm_70"));
	t = V("2.9.0");
	a = gw__tbl_torch_cuda_arch(&t, "cu130");
	CHECK(a && !strcmp(a->ptx, "compute_120") && !strstr(a->archs, "sm_60"));
	t = V("2.20.0");        /* newer than the table: the variant's last row */
	a = gw__tbl_torch_cuda_arch(&t, "cu126");
	CHECK(a != NULL);
	t = V("2.1.0");
	CHECK(gw__tbl_torch_cuda_arch(&t, "cu130") == NULL);
	CHECK(gw__tbl_torch_cuda_arch(&t, "cpu") == NULL);

	CHECK(gw__cuda_archs_run("sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90", "", 8, 9));   /* sm_86 cubin */
	CHECK(gw__cuda_archs_run("sm_50 sm_60 sm_70", "", 6, 1));                         /* sm_60 cubin */
	CHECK(!gw__cuda_archs_run("sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90", "", 12, 0)); /* RTX 5090 on cu121 */
	CHECK(gw__cuda_archs_run("sm_75 sm_80", "compute_90", 12, 0));                    /* PTX JIT */
	CHECK(!gw__cuda_archs_run("sm_75 sm_80 sm_86 sm_90 sm_100 sm_120", "compute_120", 6, 1));
	CHECK(gw__cuda_archs_run("sm_75 sm_80 sm_86 sm_90 sm_100 sm_120", "", 12, 1));     /* GB10 runs sm_120 */
	CHECK(!gw__cuda_archs_run(NULL, NULL, 8, 0));

	CHECK(gw__tbl_torch_rocm_arch("rocm6.1") && gw__gfx_in_list(gw__tbl_torch_rocm_arch("rocm6.1")->archs, "gfx90a"));
	CHECK(gw__tbl_torch_rocm_arch("rocm6.2.4") && !strcmp(gw__tbl_torch_rocm_arch("rocm6.2.4")->variant_prefix, "rocm6.2"));
	CHECK(gw__tbl_torch_rocm_arch("rocm7.1") && gw__gfx_in_list(gw__tbl_torch_rocm_arch("rocm7.1")->archs, "gfx1151"));
	CHECK(!gw__gfx_in_list(gw__tbl_torch_rocm_arch("rocm6.1")->archs, "gfx1031"));
	CHECK(!gw__gfx_in_list("gfx1100 gfx1101", "gfx110"));
	CHECK(gw__tbl_torch_rocm_arch("cu121") == NULL);
}

static void test_frameworks(void)
{
	gw_ver t = V("2.16.1");
	const gw_row_tensorflow_cuda *tf = gw__tbl_tensorflow_cuda(&t);
	const gw_row_jax_cuda *j;

	CHECK(tf && !strcmp(tf->cuda, "12.3") && !strcmp(tf->cudnn, "8.9"));
	t = V("1.15");
	CHECK(gw__tbl_tensorflow_cuda(&t) == NULL);
	j = gw__tbl_jax_cuda("jax_cuda12_plugin");
	CHECK(j && j->cuda_major == 12);
	j = gw__tbl_jax_cuda("jax-cuda13-pjrt");
	CHECK(j && j->cuda_major == 13);
	CHECK(gw__tbl_jax_cuda("jaxlib") == NULL);
}

static void test_gpus(void)
{
	const gw_row_nvidia_gpus *g = gw__tbl_nvidia_gpu_by_id(0x2330);
	unsigned ma, mi;

	CHECK(g && !strcmp(g->arch, "Hopper"));
	CHECK(g && gw__tbl_cc(g->cc, &ma, &mi) == 0 && ma == 9 && mi == 0);
	CHECK(g && g->sms == 132);
	g = gw__tbl_nvidia_gpu_by_id(0x1b06); /* GTX 1080 Ti: 3584 cores / 128 per SM */
	CHECK(g && g->sms == 28);
	CHECK(gw__tbl_nvidia_gpu_by_id(0xffff) == NULL);
	g = gw__tbl_nvidia_gpu_by_name("NVIDIA H100 80GB HBM3");
	CHECK(g && !strcmp(g->cc, "9.0"));
	g = gw__tbl_nvidia_gpu_by_name("NVIDIA A10");
	CHECK(g && !strcmp(g->cc, "8.6"));
	g = gw__tbl_nvidia_gpu_by_name("NVIDIA A100-SXM4-80GB");
	CHECK(g && !strcmp(g->cc, "8.0"));
	g = gw__tbl_nvidia_gpu_by_name("NVIDIA GeForce RTX 2080 Ti");
	CHECK(g && !strcmp(g->match, "RTX 2080 Ti"));
	g = gw__tbl_nvidia_gpu_by_name("NVIDIA L40S");
	CHECK(g && !strcmp(g->match, "L40S"));
	CHECK(gw__tbl_nvidia_gpu_by_name("Matrox G200") == NULL);
	/* China's D parts (their own device ids and names, NVIDIA's open
	 * kernel modules' list) and the spellings users give them. */
	g = gw__tbl_nvidia_gpu_by_id(0x2b87);
	CHECK(g && !strcmp(g->name, "GeForce RTX 5090 D") && !strcmp(g->cc, "12.0") && g->sms == 170);
	g = gw__tbl_nvidia_gpu_by_id(0x2b8c);
	CHECK(g && !strcmp(g->name, "GeForce RTX 5090 D v2") && !strcmp(g->cc, "12.0"));
	g = gw__tbl_nvidia_gpu_by_id(0x2685);
	CHECK(g && !strcmp(g->name, "GeForce RTX 4090 D") && !strcmp(g->cc, "8.9") && g->sms == 114);
	g = gw__tbl_nvidia_gpu_by_name("NVIDIA GeForce RTX 5090 D v2");
	CHECK(g && !strcmp(g->match, "RTX 5090 D v2"));
	g = gw__tbl_nvidia_gpu_by_name("on the Nvidia RTX 5090D");
	CHECK(g && !strcmp(g->match, "RTX 5090 D"));
	g = gw__tbl_nvidia_gpu_by_name("an RTX5090D V2 here");
	CHECK(g && !strcmp(g->match, "RTX 5090 D v2"));
	g = gw__tbl_nvidia_gpu_by_name("GeForce RTX 4090D");
	CHECK(g && !strcmp(g->match, "RTX 4090 D"));
	g = gw__tbl_nvidia_gpu_by_name("NVIDIA GeForce RTX 5090 Dual");   /* a word, not the D */
	CHECK(g && !strcmp(g->match, "RTX 5090"));
	g = gw__tbl_nvidia_gpu_by_name("NVIDIA GeForce RTX 5070");
	CHECK(g && !strcmp(g->match, "RTX 5070") && !strcmp(g->cc, "12.0"));
	g = gw__tbl_nvidia_gpu_by_name("RTX 5060 Ti 16GB");
	CHECK(g && !strcmp(g->match, "RTX 5060 Ti"));
	CHECK(gw__tbl_nvidia_gpu_by_name("RTX 50900") == NULL);
	CHECK(gw__tbl_cc("garbage", &ma, &mi) == GW_EPARSE);

	CHECK(gw__tbl_amd_gfx("gfx1100") && !strcmp(gw__tbl_amd_gfx("gfx1100")->family, "RDNA 3"));
	CHECK(gw__tbl_amd_gfx("gfx1031") && !strcmp(gw__tbl_amd_gfx("gfx1031")->override, "10.3.0"));
	CHECK(gw__tbl_amd_gfx("gfx9999") == NULL);

	/* Revision tells Navi 31's cards apart; a chip with one name is named
	 * without it; an unknown revision of a shared chip is not guessed. */
	CHECK(gw__tbl_amd_gpu_name(0x744c, 0xc8) && !strcmp(gw__tbl_amd_gpu_name(0x744c, 0xc8), "AMD Radeon RX 7900 XTX"));
	CHECK(gw__tbl_amd_gpu_name(0x744c, 0xcc) && !strcmp(gw__tbl_amd_gpu_name(0x744c, 0xcc), "AMD Radeon RX 7900 XT"));
	CHECK(gw__tbl_amd_gpu_name(0x744c, -1) == NULL);
	CHECK(gw__tbl_amd_gpu_name(0x744c, 0x01) == NULL);
	CHECK(gw__tbl_amd_gpu_name(0x74a1, -1) && !strcmp(gw__tbl_amd_gpu_name(0x74a1, -1), "AMD Instinct MI300X"));
	CHECK(gw__tbl_amd_gpu_name(0xffff, 0) == NULL);
}

static void test_xid(void)
{
	const gw_row_xid *x = gw__tbl_xid(79);

	CHECK(x && !strcmp(x->mnemonic, "GPU_HAS_FALLEN_OFF_THE_BUS") && x->advice[0] && x->source[0]);
	CHECK(gw__tbl_xid(48) && gw__tbl_xid(147));
	CHECK(gw__tbl_xid(1) == NULL);
}

static bool soname_is(const char *name, const char *component, const char *implies)
{
	const gw_row_sonames *r = gw__tbl_soname(name, strlen(name));

	return r && !strcmp(r->component, component) && !strcmp(r->implies, implies) && r->source[0];
}

/* The missing-library rule's table: the longest matching name wins, '*'
 * stands for a sub-library, a longer version matches its soname, case does
 * not matter, and a soname's major is not always CUDA's. */
static void test_sonames(void)
{
	char builds[96];

	CHECK(soname_is("libcudart.so.11.0", "CUDA runtime", "CUDA 11"));
	CHECK(soname_is("libcudart.so.12.4.127", "CUDA runtime", "CUDA 12"));
	CHECK(soname_is("libcudart.so", "CUDA runtime", "-"));
	CHECK(soname_is("libcudnn_ops_infer.so.8", "cuDNN", "cuDNN 8"));
	CHECK(soname_is("libcudnn.so.9.1.0", "cuDNN", "cuDNN 9"));
	CHECK(soname_is("libcufft.so.11", "cuFFT", "CUDA 12"));
	CHECK(soname_is("libcublasLt.so.11", "cuBLASLt", "CUDA 11"));
	CHECK(soname_is("cublasLt64_12.dll", "cuBLASLt", "CUDA 12"));
	CHECK(soname_is("cudnn_ops64_9.dll", "cuDNN", "cuDNN 9"));
	CHECK(soname_is("CUDNN64_8.DLL", "cuDNN", "cuDNN 8"));
	CHECK(soname_is("libnvinfer_builder_resource.so.10", "TensorRT", "TensorRT 10"));
	CHECK(soname_is("libamdhip64.so.6", "HIP runtime (ROCm)", "ROCm 6"));
	CHECK(gw__tbl_soname("libcuda.so.1", 12) && !strcmp(gw__tbl_soname("libcuda.so.1", 12)->id, "cuda-library-missing"));
	CHECK(gw__tbl_soname("libnvidia-ml.so.1", 17) && !strcmp(gw__tbl_soname("libnvidia-ml.so.1", 17)->id, "nvml-library-missing"));
	/* Not a GPU library, or only a prefix of one. */
	CHECK(gw__tbl_soname("libc.so.6", 9) == NULL);
	CHECK(gw__tbl_soname("libcudarts.so.12", 16) == NULL);
	CHECK(gw__tbl_soname("onnxruntime_providers_cuda.dll", 30) == NULL);
	CHECK(gw__tbl_soname("libcudart.so.12", 9) == NULL);   /* "libcudart": no ".so" */

	/* The PyTorch wheels with code for a GPU. */
	gw__tbl_torch_builds_for(12, 0, NULL, builds, sizeof(builds));
	CHECK(strstr(builds, "cu128") && !strstr(builds, "cu118"));
	CHECK(!strstr(builds, "cu124"));     /* compute_90 PTX only: PyTorch warns */
	gw__tbl_torch_builds_for(12, 1, NULL, builds, sizeof(builds));
	CHECK(strstr(builds, "cu128") && !strstr(builds, "cu124"));
	gw__tbl_torch_builds_for(8, 9, NULL, builds, sizeof(builds));
	CHECK(strstr(builds, "cu118") && strstr(builds, "cu124") && strstr(builds, "cu128"));
	gw__tbl_torch_builds_for(6, 1, NULL, builds, sizeof(builds));
	CHECK(strstr(builds, "cu126") && strstr(builds, "cu118"));
	gw__tbl_torch_builds_for(0, 0, "gfx942", builds, sizeof(builds));
	CHECK(strstr(builds, "rocm6.1") != NULL);
	gw__tbl_torch_builds_for(0, 0, "gfx1103", builds, sizeof(builds));
	CHECK(!strstr(builds, "rocm5"));
}

int main(void)
{
	test_driver_max_cuda();
	test_toolkit_driver();
	test_torch_arch();
	test_frameworks();
	test_gpus();
	test_xid();
	test_sonames();
	return CHECK_DONE();
}
