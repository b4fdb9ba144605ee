/* bench's driver loading and kernels against the fake libcuda, and the
 * fake's own argument checks (it must fail where the real driver fails, so
 * a bench bug shows here and not first on a GPU):
 *   - gw__cudrv_open resolves every entry through cuGetProcAddress to the
 *     versioned symbols (cuMemAlloc -> cuMemAlloc_v2), and refuses a
 *     library without cuGetProcAddress;
 *   - gpuwise's PTX loads and names its entries; broken variants of it
 *     (no .version, a newer ISA than the driver, a target above the GPU,
 *     no .address_size, an unclosed body) are refused;
 *   - memory, copies, events and launches check contexts, handles, sizes
 *     and ranges; an out-of-range kernel poisons its context;
 *   - copies take the time machine.json declares;
 *   - with ptxas on PATH or in /usr/local/cuda/bin, the PTX assembles for
 *     sm_80 and sm_90 (and sm_70 where that ptxas still knows it).
 * Runs from the repository root (the machine file is found relative to it). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "gpuwise/gpuwise.h"
#include "bench/cudrv.h"

static char fake_dir[4200];

static void find_fake_dir(void)
{
	const char *env = getenv("GPUWISE_FAKE_DIR");
	char exe[4096];
	ssize_t n;

	if (env && *env) {
		snprintf(fake_dir, sizeof(fake_dir), "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	if (strrchr(exe, '/'))
		*strrchr(exe, '/') = '\0';
	snprintf(fake_dir, sizeof(fake_dir), "%s/../fake", exe);
}

static gw__cudrv drv;
static void *lib;

typedef int (*get_proc_v2)(const char *, void **, int, unsigned long long, int *);

static void test_open(void)
{
	char path[4400];
	void *p;

	snprintf(path, sizeof(path), "%s/libnvidia-ml.so.1", fake_dir);
	CHECK_INT(gw__cudrv_open(&drv, path), GW_ELIBRARY);
	CHECK(strstr(gw_error_last(), "no cuGetProcAddress") != NULL);

	snprintf(path, sizeof(path), "%s/libcuda.so.1", fake_dir);
	CHECK_INT(gw__cudrv_open(&drv, path), 0);
	CHECK_INT(drv.version, 12040);
	CHECK_INT(drv.proc_version, GW__CUDRV_ABI_VERSION);   /* min(driver, our ABI) */
	lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	CHECK(lib != NULL);
	/* The versioned entry points, not the pre-3.2 ones. */
	p = dlsym(lib, "cuMemAlloc_v2");
	CHECK(p != NULL);
	CHECK(memcmp(&drv.mem_alloc, &p, sizeof(p)) == 0);
	p = dlsym(lib, "cuStreamDestroy_v2");
	CHECK(memcmp(&drv.stream_destroy, &p, sizeof(p)) == 0);
	/* 12.4 asks for the 12.0 ABI: cuEventElapsedTime_v2 (12.8) is not handed out. */
	p = dlsym(lib, "cuEventElapsedTime");
	CHECK(memcmp(&drv.event_elapsed_time, &p, sizeof(p)) == 0);
}

static void test_get_proc(void)
{
	get_proc_v2 gp;
	void *fn = NULL, *sym = dlsym(lib, "cuGetProcAddress_v2");
	int status = -1;

	memcpy(&gp, &sym, sizeof(gp));
	CHECK_INT(gp("cuNoSuchCall", &fn, 12000, 0, &status), GWC_ERROR_NOT_FOUND);
	CHECK_INT(status, 1);
	CHECK(fn == NULL);
	CHECK_INT(gp("cuMemAlloc", &fn, 3000, 0, &status), GWC_ERROR_NOT_FOUND);
	CHECK_INT(status, 2);
	CHECK_INT(gp("cuMemAlloc", &fn, 13000, 0, &status), GWC_ERROR_INVALID_VALUE);
	CHECK_INT(gp("cuMemAlloc", &fn, 12000, 0, &status), 0);
	CHECK(fn == dlsym(lib, "cuMemAlloc_v2"));
}

static gwc_context ctx;
static gwc_device dev;

static void test_context_rules(void)
{
	gwc_deviceptr p = 0;

	CHECK_INT(drv.mem_alloc(&p, 4096), GWC_ERROR_NOT_INITIALIZED);
	CHECK_INT(drv.init(0), 0);
	CHECK_INT(drv.mem_alloc(&p, 4096), GWC_ERROR_INVALID_CONTEXT);
	CHECK_INT(drv.device_get(&dev, 0), 0);
	CHECK_INT(drv.primary_ctx_retain(&ctx, dev), 0);
	CHECK_INT(drv.ctx_set_current(ctx), 0);
	CHECK_INT(drv.mem_alloc(&p, 0), GWC_ERROR_INVALID_VALUE);
	/* GPU 0 of h100-8x has about 9 GiB free. */
	CHECK_INT(drv.mem_alloc(&p, (size_t)64 << 30), GWC_ERROR_OUT_OF_MEMORY);
	CHECK_INT(drv.mem_alloc(&p, 4096), 0);
	CHECK_INT(drv.mem_free(p), 0);
	CHECK_INT(drv.mem_free(p), GWC_ERROR_INVALID_VALUE);
}

static int load(const char *text, char *log, size_t logsz, gwc_module *m)
{
	int opts[2] = { GWC_JIT_ERROR_LOG_BUFFER, GWC_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *vals[2] = { log, (void *)(uintptr_t)logsz };

	log[0] = '\0';
	return drv.module_load_data_ex(m, text, 2, opts, vals);
}

/* gpuwise's PTX with `from` replaced by `to` (first occurrence). */
static int load_edited(const char *from, const char *to, char *log)
{
	char text[8192];
	const char *at = strstr(gw__bench_ptx, from);
	gwc_module m;

	CHECK(at != NULL && strlen(gw__bench_ptx) + strlen(to) < sizeof(text));
	if (!at)
		return -1;
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - gw__bench_ptx), gw__bench_ptx, to, at + strlen(from));
	return load(text, log, 160, &m);
}

static gwc_module mod;
static gwc_function fcopy, fempty;

static void test_ptx(void)
{
	char log[160];
	gwc_function f;

	CHECK_INT(load(gw__bench_ptx, log, sizeof(log), &mod), 0);
	for (int i = 0; gw__bench_ptx_entries[i]; i++)
		CHECK_INT(drv.module_get_function(&f, mod, gw__bench_ptx_entries[i]), 0);
	CHECK_INT(drv.module_get_function(&fcopy, mod, "gw_copy"), 0);
	CHECK_INT(drv.module_get_function(&fempty, mod, "gw_empty"), 0);
	CHECK_INT(drv.module_get_function(&f, mod, "gw_nope"), GWC_ERROR_NOT_FOUND);

	CHECK_INT(load_edited(".version 6.0", "", log), GWC_ERROR_INVALID_PTX);
	CHECK(strstr(log, ".version") != NULL);
	CHECK_INT(load_edited(".version 6.0", ".version 9.9", log), GWC_ERROR_UNSUPPORTED_PTX_VERSION);
	CHECK_INT(load_edited(".target sm_50", ".target sm_100", log), GWC_ERROR_INVALID_PTX);
	CHECK_INT(load_edited(".address_size 64", "", log), GWC_ERROR_INVALID_PTX);
	CHECK_INT(load_edited("\tret;\n}\n\n", "\tret;\n\n", log), GWC_ERROR_INVALID_PTX);
	CHECK_INT(load_edited(".entry gw_empty()", ".entry ()", log), GWC_ERROR_INVALID_PTX);
	CHECK_INT(load_edited("gw_copy_words\n)", "gw_copy_words\n", log), GWC_ERROR_INVALID_PTX);
}

static void test_copies_and_events(void)
{
	gwc_deviceptr a = 0, b = 0;
	gwc_stream s = NULL;
	gwc_event e0 = NULL, e1 = NULL, untimed = NULL;
	size_t n = 55u * 1000 * 1000;   /* 1 ms at h100-8x's 55 GB/s */
	void *pinned = NULL;
	char small[64];
	float ms = 0;

	CHECK_INT(drv.mem_alloc(&a, n), 0);
	CHECK_INT(drv.mem_alloc(&b, n), 0);
	CHECK_INT(drv.mem_alloc_host(&pinned, n), 0);
	CHECK_INT(drv.stream_create(&s, GWC_STREAM_NON_BLOCKING), 0);
	CHECK_INT(drv.event_create(&e0, 0), 0);
	CHECK_INT(drv.event_create(&e1, 0), 0);
	CHECK_INT(drv.event_create(&untimed, 2), 0);   /* CU_EVENT_DISABLE_TIMING */

	/* Device pointers must lie inside an allocation. */
	CHECK_INT(drv.memcpy_htod(a + n - 8, small, 16), GWC_ERROR_INVALID_VALUE);
	CHECK_INT(drv.memcpy_dtoh(small, (gwc_deviceptr)(uintptr_t)small, 16), GWC_ERROR_INVALID_VALUE);
	CHECK_INT(drv.event_elapsed_time(&ms, e0, e1), GWC_ERROR_INVALID_HANDLE);   /* never recorded */

	memset(pinned, 0x5a, n);
	CHECK_INT(drv.event_record(e0, s), 0);
	CHECK_INT(drv.memcpy_htod_async(a, pinned, n, s), 0);
	CHECK_INT(drv.event_record(e1, s), 0);
	CHECK_INT(drv.event_record(untimed, s), 0);
	CHECK_INT(drv.event_synchronize(e1), 0);
	CHECK_INT(drv.event_elapsed_time(&ms, e0, e1), 0);
	CHECK(ms > 0.99f && ms < 1.01f);
	CHECK_INT(drv.event_elapsed_time(&ms, e0, untimed), GWC_ERROR_INVALID_HANDLE);
	CHECK_INT(drv.memcpy_dtoh(small, a + 1000, sizeof(small)), 0);
	CHECK((unsigned char)small[0] == 0x5a && (unsigned char)small[63] == 0x5a);

	/* Launch arguments. */
	{
		unsigned long long words = n / 16;
		void *params[3] = { &b, &a, &words };

		CHECK_INT(drv.launch_kernel(fcopy, 1, 1, 1, 2048, 1, 1, 0, s, params, NULL), GWC_ERROR_INVALID_VALUE);
		CHECK_INT(drv.launch_kernel(fcopy, 0, 1, 1, 256, 1, 1, 0, s, params, NULL), GWC_ERROR_INVALID_VALUE);
		CHECK_INT(drv.launch_kernel(fcopy, 1, 1, 1, 256, 1, 1, 0, s, NULL, NULL), GWC_ERROR_INVALID_VALUE);
		CHECK_INT(drv.launch_kernel((gwc_function)small, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL),
			  GWC_ERROR_INVALID_HANDLE);
		CHECK_INT(drv.launch_kernel(fempty, 1, 1, 1, 1, 1, 1, 0, (gwc_stream)small, NULL, NULL),
			  GWC_ERROR_INVALID_HANDLE);
		CHECK_INT(drv.launch_kernel(fcopy, 132, 1, 1, 256, 1, 1, 0, s, params, NULL), 0);
		CHECK_INT(drv.ctx_synchronize(), 0);
		CHECK_INT(drv.memcpy_dtoh(small, b + n - 64, sizeof(small)), 0);
		CHECK((unsigned char)small[0] == 0x5a);

		/* One word too many: the kernel faults and the context is dead. */
		words++;
		CHECK_INT(drv.launch_kernel(fcopy, 132, 1, 1, 256, 1, 1, 0, s, params, NULL), 0);
		CHECK_INT(drv.ctx_synchronize(), GWC_ERROR_ILLEGAL_ADDRESS);
		CHECK_INT(drv.mem_alloc(&a, 16), GWC_ERROR_ILLEGAL_ADDRESS);
	}
}

/* ptxas, when a toolkit is here: the kernels assemble for real GPUs. */
static void test_ptxas(void)
{
	const char *arches[] = { "sm_70", "sm_80", "sm_90" };
	char ptx[] = "/tmp/gw-bench-ptx-XXXXXX";
	const char *ptxas = NULL;
	char cmd[512], out[] = "/tmp/gw-bench-ptxas-XXXXXX";
	int fd, assembled = 0;
	FILE *f;

	if (system("command -v ptxas >/dev/null 2>&1") == 0)
		ptxas = "ptxas";
	else if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0)
		ptxas = "/usr/local/cuda/bin/ptxas";
	if (!ptxas) {
		printf("SKIP: no ptxas (CUDA toolkit); the PTX was not assembled\n");
		return;
	}
	if ((fd = mkstemp(out)) >= 0)
		close(fd);
	fd = mkstemp(ptx);
	CHECK(fd >= 0);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		return;
	fputs(gw__bench_ptx, f);
	fclose(f);
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		int rc;

		snprintf(cmd, sizeof(cmd), "%s -arch=%s %s -o /dev/null >%s 2>&1", ptxas, arches[i], ptx, out);
		rc = system(cmd);
		/* A toolkit that dropped an architecture (CUDA 13: sm_70) says
		 * so; that is a skip, not a broken kernel. */
		snprintf(cmd, sizeof(cmd), "grep -q 'is not defined for option' %s", out);
		if (rc != 0 && system(cmd) == 0) {
			printf("SKIP: this ptxas does not know %s\n", arches[i]);
			continue;
		}
		CHECK_INT(rc, 0);
		assembled += rc == 0;
		printf("ptxas -arch=%s: %s\n", arches[i], rc == 0 ? "ok" : "FAILED");
	}
	CHECK(assembled >= 2);
	unlink(ptx);
	unlink(out);
}

int main(void)
{
	find_fake_dir();
	setenv("GPUWISE_FAKE_MACHINE", "build/machines/h100-8x/machine.json", 1);
	test_ptxas();
	test_open();
	if (drv.lib) {
		test_get_proc();
		test_context_rules();
		test_ptx();
		test_copies_and_events();
	}
	return CHECK_DONE();
}
