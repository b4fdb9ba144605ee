/* The NVML and CUDA driver backends against the fake libnvidia-ml.so.1 and
 * libcuda.so.1 (build/fake, next to this program's build folder) serving
 * tests/unit/fixtures/nvml_*.json.
 *
 * Each case runs in a child process: the fakes read their machine once per
 * process, and CUDA reads CUDA_VISIBLE_DEVICES once, like the real ones.
 * GPUWISE_ROOT is an empty temporary tree, so the sysfs backends find
 * nothing and the kernel module version comes only from what a case writes.
 * Run from the repository root (tests/run.sh does). */
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "gpuwise/gpuwise.h"

static char fake_nvml[PATH_MAX], fake_cuda[PATH_MAX], tmp_root[PATH_MAX];

#define FIXTURES "tests/unit/fixtures/"

static void use_machine(const char *fixture)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), FIXTURES "%s", fixture);
	setenv("GPUWISE_FAKE_MACHINE", path, 1);
	setenv("GPUWISE_NVML_LIBRARY", fake_nvml, 1);
	setenv("GPUWISE_CUDA_LIBRARY", fake_cuda, 1);
	setenv("GPUWISE_ROOT", tmp_root, 1);
	unsetenv("CUDA_VISIBLE_DEVICES");
	unsetenv("CUDA_DEVICE_ORDER");
}

static gw_context *open_context(void)
{
	gw_context *ctx = NULL;

	CHECK_INT(gw_context_new(&ctx, NULL), 0);
	if (!ctx) {
		fprintf(stderr, "gw_context_new: %s\n", gw_error_last());
		exit(1);
	}
	return ctx;
}

static void write_file(const char *rel, const char *text)
{
	char path[PATH_MAX * 2], dir[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", tmp_root, rel);
	for (char *p = path + strlen(tmp_root) + 1; (p = strchr(p, '/')); p++) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(p - path), path);
		mkdir(dir, 0755);
	}
	if (!(f = fopen(path, "w"))) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

#define CHECK_U64(f, want) do { CHECK_INT((f).state, GW_FIELD_VALID); CHECK_INT((f).v, (want)); } while (0)
#define CHECK_F64(f, want) do { CHECK_INT((f).state, GW_FIELD_VALID); CHECK((f).v > (want) - 1e-6 && (f).v < (want) + 1e-6); } while (0)
#define CHECK_S(f, want) do { CHECK_INT((f).state, GW_FIELD_VALID); CHECK_STR((f).s, (want)); } while (0)
#define CHECK_NS(f) do { CHECK_INT((f).state, GW_FIELD_NOT_SUPPORTED); CHECK_INT((f).code, 3); } while (0)

static bool fake_has(const char *lib, const char *sym)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	bool ok = h && dlsym(h, sym);

	if (h)
		dlclose(h);
	return ok;
}

/* ---- cases --------------------------------------------------------------- */

static void case_happy_static(void)
{
	gw_context *ctx;
	const gw_device_info *d;
	const gw_driver_info *drv;
	const gw_backend_status *st;

	use_machine("nvml_happy.json");
	write_file("/proc/driver/nvidia/version",
		   "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build  (dvs-builder@U16)  Thu Feb 22 2024\n"
		   "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n");
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 2);
	st = gw_context_backend(ctx, "nvml");
	CHECK(st && st->state == GW_BACKEND_OK);
	CHECK_STR(st->library, fake_nvml);
	st = gw_context_backend(ctx, "cuda");
	CHECK(st && st->state == GW_BACKEND_OK);

	drv = gw_context_driver(ctx);
	CHECK_S(drv->driver_version, "550.54.15");
	CHECK_S(drv->nvml_version, "12.550.54.15");
	CHECK_U64(drv->cuda_driver_version, 12040);
	CHECK_S(drv->kernel_module_version, "550.54.14");

	d = gw_device_get(ctx, 0);
	CHECK_INT(d->vendor, GW_VENDOR_NVIDIA);
	CHECK_INT(d->health, GW_HEALTH_OK);
	CHECK_STR(d->backend, "nvml");
	CHECK_INT(d->nvml_index, 0);
	CHECK_INT(d->cuda_index, 1);      /* fastest_first_order [1, 0] */
	CHECK_S(d->name, "NVIDIA H100 80GB HBM3");
	CHECK_S(d->uuid, "GPU-abcdef00-1111-2222-3333-444444444440");
	CHECK_S(d->serial, "1654423001590");
	CHECK_S(d->board_part_number, "692-2G520-0200-000");
	CHECK_S(d->vbios_version, "96.00.74.00.01");
	CHECK_S(d->pci_bus_id, "0000:18:00.0");
	CHECK_U64(d->pci_vendor_id, 0x10de);
	CHECK_U64(d->pci_device_id, 0x2330);
	CHECK_U64(d->pci_subsystem_id, 0x16c110de);
	CHECK_U64(d->minor_number, 0);
	CHECK_S(d->architecture, "Hopper");
	CHECK_U64(d->cc_major, 9);
	CHECK_U64(d->cc_minor, 0);
	CHECK_U64(d->multiprocessor_count, 132);
	CHECK_U64(d->cuda_cores, 16896);
	CHECK_U64(d->memory_total, 85520809984ULL);
	CHECK_U64(d->bar1_total, 137438953472ULL);
	CHECK_U64(d->max_sm_clock, 1981);
	CHECK_U64(d->max_mem_clock, 2620);
	CHECK_U64(d->max_graphics_clock, 1980);
	CHECK_U64(d->pcie_max_gen, 4);
	CHECK_U64(d->pcie_max_width, 8);
	CHECK_U64(d->pcie_gpu_max_gen, 5);
	CHECK_U64(d->mig_capable, 1);

	d = gw_device_get(ctx, 1);
	CHECK_INT(d->nvml_index, 1);
	CHECK_INT(d->cuda_index, 0);
	CHECK_S(d->name, "NVIDIA A100-SXM4-80GB");
	CHECK_S(d->architecture, "Ampere");
	CHECK_U64(d->multiprocessor_count, 108);
	CHECK_S(d->pci_bus_id, "0000:2a:00.0");
	gw_context_free(ctx);
}

static void case_happy_samples(void)
{
	static const uint64_t util[] = { 10, 50, 90, 90 };
	gw_context *ctx;
	gw_device_sample s;

	use_machine("nvml_happy.json");
	ctx = open_context();
	for (int i = 0; i < 4; i++) {
		memset(&s, 0xA5, sizeof(s)); /* every field must be written */
		CHECK_INT(gw_device_sample_read(ctx, 0, &s), 0);
		CHECK_U64(s.gpu_util, util[i]);
		CHECK_F64(s.power_draw, i == 0 ? 69.0 : 250.5);
	}
	CHECK_U64(s.memory_used, 1048576);
	CHECK_U64(s.memory_reserved, 476053504);
	CHECK_U64(s.memory_free, 85520809984ULL - 476053504 - 1048576);
	CHECK_U64(s.bar1_used, 2097152);
	CHECK_U64(s.mem_util, 3);
	CHECK_U64(s.encoder_util, 4);
	CHECK_U64(s.decoder_util, 5);
	CHECK_F64(s.temperature, 31);
	CHECK_F64(s.temperature_slowdown, 87);
	CHECK_F64(s.temperature_shutdown, 92);
	CHECK_NS(s.fan_percent);
	CHECK_F64(s.power_limit, 700);
	CHECK_F64(s.power_management_limit, 650);
	CHECK_F64(s.energy, 123456.789);
	CHECK_U64(s.sm_clock, 346);
	CHECK_U64(s.mem_clock, 2619);
	CHECK_U64(s.graphics_clock, 345);
	CHECK_U64(s.video_clock, 765);
	CHECK_U64(s.pstate, 0);
	CHECK_U64(s.pcie_gen, 5);
	CHECK_U64(s.pcie_width, 16);
	CHECK_U64(s.pcie_tx, 567 * 1024);
	CHECK_U64(s.pcie_rx, 559 * 1024);
	CHECK_U64(s.pcie_replay_counter, 3);
	CHECK_U64(s.persistence_mode, 1);
	CHECK_U64(s.compute_mode, 3);
	CHECK_U64(s.display_mode, 0);
	CHECK_U64(s.throttle_reasons, GW_THROTTLE_HW_THERMAL | GW_THROTTLE_SW_POWER_CAP);
	CHECK_U64(s.ecc_current, 1);
	CHECK_U64(s.ecc_pending, 0);
	CHECK_U64(s.ecc_corrected_volatile, 7);
	CHECK_U64(s.ecc_uncorrected_volatile, 1);
	CHECK_U64(s.ecc_corrected_aggregate, 70);
	CHECK_U64(s.ecc_uncorrected_aggregate, 10);
	CHECK_U64(s.remapped_correctable, 2);
	CHECK_U64(s.remapped_uncorrectable, 1);
	CHECK_U64(s.remapped_pending, 1);
	CHECK_U64(s.remapped_failure, 0);
	CHECK_U64(s.mig_current, 0);
	CHECK_U64(s.mig_pending, 0);
	CHECK_INT(s.mig_count, 0);
	gw_context_free(ctx);
}

static void case_processes(void)
{
	gw_context *ctx;
	gw_process *p = NULL;
	size_t n = 0;

	use_machine("nvml_happy.json");
	ctx = open_context();
	CHECK_INT(gw_device_processes(ctx, 0, &p, &n), 0);
	CHECK_INT(n, 2);
	for (size_t i = 0; p && i < n; i++) {
		if (p[i].pid == 4242) {
			CHECK_INT(p[i].type, GW_PROCESS_BOTH);
			CHECK_U64(p[i].used_memory, 1000000);
		} else {
			CHECK_INT(p[i].pid, 4343);
			CHECK_INT(p[i].type, GW_PROCESS_COMPUTE);
			CHECK_INT(p[i].used_memory.state, GW_FIELD_NOT_SUPPORTED);
		}
		CHECK_INT(p[i].gpu_instance_id.state, GW_FIELD_UNREAD);
		CHECK_INT(p[i].compute_instance_id.state, GW_FIELD_UNREAD);
	}
	gw_processes_free(p);
	CHECK_INT(gw_device_processes(ctx, 1, &p, &n), 0);
	CHECK_INT(n, 0);
	CHECK(p == NULL);
	gw_context_free(ctx);
}

/* Newer calls answer FUNCTION_NOT_FOUND: the older ones are used. */
static void case_old_driver(void)
{
	gw_context *ctx;
	gw_device_sample s;
	gw_process *p = NULL;
	size_t n = 0;

	use_machine("nvml_old_driver.json");
	ctx = open_context();
	CHECK_U64(gw_device_get(ctx, 0)->memory_total, 85520809984ULL);
	CHECK_INT(gw_device_sample_read(ctx, 0, &s), 0);
	CHECK_U64(s.memory_used, 1048576 + 476053504);  /* v1: used includes reserved */
	CHECK_U64(s.memory_free, 85520809984ULL - 476053504 - 1048576);
	CHECK_INT(s.memory_reserved.state, GW_FIELD_NOT_SUPPORTED);
	CHECK_INT(s.memory_reserved.code, 13);
	CHECK_U64(s.throttle_reasons, 0x44);
	CHECK_F64(s.temperature, 31);
	CHECK_INT(gw_device_processes(ctx, 0, &p, &n), 0);
	CHECK_INT(n, 1);
	if (n == 1) {
		CHECK_INT(p[0].pid, 4242);
		CHECK_U64(p[0].used_memory, 1000000);
		CHECK_INT(p[0].gpu_instance_id.state, GW_FIELD_UNREAD);
	}
	gw_processes_free(p);
	gw_context_free(ctx);
}

static void check_sample_all_not_supported(const gw_device_sample *s)
{
	const gw_u64 *u[] = {
		&s->memory_used, &s->memory_free, &s->memory_reserved, &s->bar1_used, &s->gpu_util, &s->mem_util,
		&s->encoder_util, &s->decoder_util, &s->fan_percent, &s->sm_clock, &s->mem_clock,
		&s->graphics_clock, &s->video_clock, &s->pstate, &s->pcie_gen, &s->pcie_width, &s->pcie_tx,
		&s->pcie_rx, &s->pcie_replay_counter, &s->persistence_mode, &s->compute_mode, &s->display_mode,
		&s->throttle_reasons, &s->ecc_current, &s->ecc_pending, &s->ecc_corrected_volatile,
		&s->ecc_uncorrected_volatile, &s->ecc_corrected_aggregate, &s->ecc_uncorrected_aggregate,
		&s->remapped_correctable, &s->remapped_uncorrectable, &s->remapped_pending, &s->remapped_failure,
		&s->mig_current, &s->mig_pending,
	};
	const gw_f64 *f[] = {
		&s->temperature, &s->temperature_slowdown, &s->temperature_shutdown, &s->power_draw,
		&s->power_limit, &s->power_management_limit, &s->energy,
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (u[i]->state != GW_FIELD_NOT_SUPPORTED)
			fprintf(stderr, "u64 field #%zu: state %d\n", i, u[i]->state);
		CHECK_INT(u[i]->state, GW_FIELD_NOT_SUPPORTED);
	}
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i]->state != GW_FIELD_NOT_SUPPORTED)
			fprintf(stderr, "f64 field #%zu: state %d\n", i, f[i]->state);
		CHECK_INT(f[i]->state, GW_FIELD_NOT_SUPPORTED);
	}
	/* nvml.h: GetMaxMigDeviceCount "returns zero if MIG is not supported". */
	CHECK(s->mig_max_devices.state == GW_FIELD_NOT_SUPPORTED ||
	      (s->mig_max_devices.state == GW_FIELD_VALID && s->mig_max_devices.v == 0));
	CHECK_INT(s->mig_count, 0);
}

static void case_not_supported(void)
{
	gw_context *ctx;
	const gw_device_info *d;
	gw_device_sample s;
	gw_process *p = NULL;
	size_t n = 7;

	use_machine("nvml_not_supported.json");
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 1);
	d = gw_device_get(ctx, 0);
	CHECK_INT(d->health, GW_HEALTH_OK);
	CHECK_S(d->name, "NVIDIA Mystery GPU");
	CHECK_S(d->pci_bus_id, "0000:65:00.0");
	CHECK_U64(d->pci_device_id, 0x20b0);
	CHECK_NS(d->serial);
	CHECK_NS(d->board_part_number);
	CHECK_NS(d->vbios_version);
	CHECK_NS(d->memory_total);
	CHECK_NS(d->bar1_total);
	CHECK_NS(d->max_sm_clock);
	CHECK_NS(d->pcie_max_gen);
	CHECK_NS(d->pcie_gpu_max_gen);
	CHECK_NS(d->cuda_cores);
	CHECK_U64(d->mig_capable, 0);
	CHECK(d->architecture.state != GW_FIELD_VALID);
	CHECK(d->cc_major.state != GW_FIELD_VALID);
	CHECK(d->multiprocessor_count.state != GW_FIELD_VALID);
	CHECK_INT(gw_device_sample_read(ctx, 0, &s), 0);
	check_sample_all_not_supported(&s);
	/* Not supported is not "no processes". */
	CHECK_INT(gw_device_processes(ctx, 0, &p, &n), GW_ENOTSUP);
	CHECK(p == NULL);
	gw_context_free(ctx);
}

static void case_driver_not_loaded(void)
{
	gw_context *ctx;
	const gw_backend_status *st;

	use_machine("nvml_driver_not_loaded.json");
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 0);
	st = gw_context_backend(ctx, "nvml");
	CHECK_INT(st->state, GW_BACKEND_INIT_FAILED);
	CHECK_INT(st->vendor_code, 9);
	CHECK_STR(st->vendor_code_name, "DRIVER_NOT_LOADED");
	CHECK_INT(st->error, GW_EDRIVER);
	CHECK(strstr(st->message, "not loaded") != NULL);
	/* No kernel module file in the tree: not supported, never a version. */
	CHECK_INT(gw_context_driver(ctx)->kernel_module_version.state, GW_FIELD_NOT_SUPPORTED);
	st = gw_context_backend(ctx, "cuda");
	CHECK_INT(st->state, GW_BACKEND_INIT_FAILED);
	CHECK_INT(st->vendor_code, 100);
	CHECK_STR(st->vendor_code_name, "CUDA_ERROR_NO_DEVICE");
	CHECK_INT(st->error, GW_ENOGPU);
	/* cuDriverGetVersion answers even though cuInit failed. */
	CHECK_U64(gw_context_driver(ctx)->cuda_driver_version, 12040);
	gw_context_free(ctx);
}

static void case_mismatch(void)
{
	char dir[PATH_MAX + 16], real[PATH_MAX + 64], link[PATH_MAX + 64], cmd[3 * PATH_MAX];
	gw_context *ctx;
	const gw_backend_status *st;
	const gw_driver_info *drv;

	use_machine("nvml_mismatch.json");
	/* The library file is named for its version, as the driver installs it. */
	snprintf(dir, sizeof(dir), "%s/lib", tmp_root);
	mkdir(dir, 0755);
	snprintf(real, sizeof(real), "%s/libnvidia-ml.so.550.90.07", dir);
	snprintf(link, sizeof(link), "%s/libnvidia-ml.so.1", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", fake_nvml, real);
	CHECK_INT(system(cmd), 0);
	CHECK_INT(symlink("libnvidia-ml.so.550.90.07", link), 0);
	setenv("GPUWISE_NVML_LIBRARY", link, 1);
	write_file("/sys/module/nvidia/version", "550.54.15\n");

	ctx = open_context();
	st = gw_context_backend(ctx, "nvml");
	CHECK_INT(st->state, GW_BACKEND_INIT_FAILED);
	CHECK_INT(st->vendor_code, 18);
	CHECK_STR(st->vendor_code_name, "LIB_RM_VERSION_MISMATCH");
	CHECK_INT(st->error, GW_EMISMATCH);
	drv = gw_context_driver(ctx);
	CHECK_S(drv->driver_version, "550.90.07");  /* from the file name */
	CHECK_S(drv->nvml_version, "550.90.07");
	CHECK_S(drv->kernel_module_version, "550.54.15");
	st = gw_context_backend(ctx, "cuda");
	CHECK_INT(st->state, GW_BACKEND_INIT_FAILED);
	CHECK_INT(st->vendor_code, 803);
	CHECK_INT(st->error, GW_EMISMATCH);
	CHECK_INT(gw_device_count(ctx), 0);
	gw_context_free(ctx);
}

/* The same mismatch with the plain soname: NVML's own version, which the
 * library answers before init, gives the driver version. */
static void case_mismatch_nvml_version(void)
{
	gw_context *ctx;
	const gw_driver_info *drv;

	use_machine("nvml_mismatch_nvml_version.json");
	ctx = open_context();
	CHECK_INT(gw_context_backend(ctx, "nvml")->state, GW_BACKEND_INIT_FAILED);
	drv = gw_context_driver(ctx);
	CHECK_S(drv->nvml_version, "12.550.90.07");
	CHECK_S(drv->driver_version, "550.90.07");
	gw_context_free(ctx);
}

static void case_library_missing(void)
{
	gw_context *ctx;
	const gw_backend_status *st;

	use_machine("nvml_happy.json");
	setenv("GPUWISE_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
	setenv("GPUWISE_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 0);
	st = gw_context_backend(ctx, "nvml");
	CHECK_INT(st->state, GW_BACKEND_LIBRARY_MISSING);
	CHECK_INT(st->error, GW_ELIBRARY);
	CHECK_STR(st->library, "/nonexistent/libnvidia-ml.so.1");
	CHECK(strstr(st->message, "/nonexistent/libnvidia-ml.so.1") != NULL); /* dlerror's text */
	st = gw_context_backend(ctx, "cuda");
	CHECK_INT(st->state, GW_BACKEND_LIBRARY_MISSING);
	CHECK_INT(gw_context_driver(ctx)->driver_version.state, GW_FIELD_UNREAD);
	gw_context_free(ctx);
}

/* No NVML (some WSL / container setups): CUDA alone lists the GPUs. */
static void case_cuda_only(void)
{
	gw_context *ctx;
	const gw_device_info *d;
	gw_device_sample s;

	use_machine("nvml_happy.json");
	setenv("GPUWISE_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
	setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 2);
	CHECK_INT(gw_context_backend(ctx, "cuda")->state, GW_BACKEND_OK);
	d = gw_device_get(ctx, 0);
	CHECK_STR(d->backend, "cuda");
	CHECK_INT(d->vendor, GW_VENDOR_NVIDIA);
	CHECK_INT(d->cuda_index, 0);
	CHECK_INT(d->nvml_index, -1);
	CHECK_S(d->name, "NVIDIA H100 80GB HBM3");
	CHECK_S(d->uuid, "GPU-abcdef00-1111-2222-3333-444444444440");
	CHECK_S(d->pci_bus_id, "0000:18:00.0");
	CHECK_U64(d->memory_total, 85520809984ULL);
	CHECK_U64(d->cc_major, 9);
	CHECK_U64(d->multiprocessor_count, 132);
	CHECK_S(d->architecture, "Hopper");
	CHECK_INT(gw_device_sample_read(ctx, 0, &s), 0);
	CHECK_INT(s.gpu_util.state, GW_FIELD_UNREAD);
	CHECK_INT(s.memory_used.state, GW_FIELD_UNREAD);
	CHECK_U64(gw_context_driver(ctx)->cuda_driver_version, 12040);
	gw_context_free(ctx);
}

static void check_lost_machine(const char *fixture)
{
	gw_context *ctx;
	gw_device_sample s;
	gw_process *p = NULL;
	size_t n;

	use_machine(fixture);
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 4);
	CHECK_INT(gw_context_backend(ctx, "nvml")->state, GW_BACKEND_OK);
	for (int i = 0; i < 4; i++) {
		const gw_device_info *d = gw_device_get(ctx, i);

		CHECK_INT(d->nvml_index, i);
		if (i == 2) {
			CHECK_INT(d->health, GW_HEALTH_LOST);
			CHECK(strstr(d->health_reason, "lost") != NULL);
			CHECK_INT(d->cuda_index, -1);
			CHECK_INT(gw_device_sample_read(ctx, i, &s), GW_ELOST);
			CHECK_INT(gw_device_processes(ctx, i, &p, &n), GW_ELOST);
		} else {
			CHECK_INT(d->health, GW_HEALTH_OK);
			CHECK_S(d->name, "NVIDIA H100 80GB HBM3");
			CHECK_U64(d->memory_total, 85520809984ULL);
			CHECK(d->cuda_index >= 0);
			CHECK_INT(gw_device_sample_read(ctx, i, &s), 0);
			CHECK_U64(s.gpu_util, 10);
		}
	}
	gw_context_free(ctx);
}

static void case_lost(void)
{
	check_lost_machine("nvml_lost.json");
}

static void case_lost_unknown(void)
{
	check_lost_machine("nvml_lost_unknown.json");
}

static void case_lost_getter(void)
{
	gw_context *ctx;
	gw_device_sample s;

	use_machine("nvml_lost_getter.json");
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 4);
	CHECK_INT(gw_device_get(ctx, 1)->health, GW_HEALTH_LOST);
	CHECK_INT(gw_device_sample_read(ctx, 1, &s), GW_ELOST);
	CHECK_INT(gw_device_get(ctx, 0)->health, GW_HEALTH_OK);
	CHECK_INT(gw_device_get(ctx, 3)->health, GW_HEALTH_OK);
	CHECK_S(gw_device_get(ctx, 3)->uuid, "GPU-abcdef03-1111-2222-3333-444444444443");
	gw_context_free(ctx);
}

static void case_lost_while_sampling(void)
{
	gw_context *ctx;
	gw_device_sample s;

	use_machine("nvml_lost_sampling.json");
	ctx = open_context();
	CHECK_INT(gw_device_get(ctx, 0)->health, GW_HEALTH_OK);
	CHECK_INT(gw_device_sample_read(ctx, 0, &s), 0);
	CHECK_INT(gw_device_sample_read(ctx, 0, &s), GW_ELOST);
	CHECK_INT(gw_device_get(ctx, 0)->health, GW_HEALTH_LOST);
	CHECK_INT(gw_device_sample_read(ctx, 0, &s), GW_ELOST);
	gw_context_free(ctx);
}

static void case_mig(void)
{
	gw_context *ctx;
	gw_device_sample s;
	gw_process *p = NULL;
	size_t n = 0;

	use_machine("nvml_mig.json");
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 2);
	CHECK_U64(gw_device_get(ctx, 0)->mig_capable, 1);
	CHECK_INT(gw_device_sample_read(ctx, 0, &s), 0);
	CHECK_U64(s.mig_current, 1);
	CHECK_U64(s.mig_pending, 1);
	CHECK_U64(s.mig_max_devices, 7);
	CHECK_INT(s.mig_count, 2);
	CHECK_S(s.mig[0].uuid, "MIG-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeee1");
	CHECK_S(s.mig[0].name, "NVIDIA A100-SXM4-40GB MIG 3g.20gb");
	CHECK_U64(s.mig[0].gpu_instance_id, 1);
	CHECK_U64(s.mig[0].compute_instance_id, 0);
	/* MIG SMs come from nvmlDeviceGetAttributes_v2; without it the field
	 * says the library lacks the function. */
	if (fake_has(fake_nvml, "nvmlDeviceGetAttributes_v2")) {
		CHECK_U64(s.mig[0].multiprocessor_count, 42);
		} else {
		CHECK_INT(s.mig[0].multiprocessor_count.state, GW_FIELD_NOT_SUPPORTED);
		CHECK_INT(s.mig[0].multiprocessor_count.code, 13);
	}
	CHECK_U64(s.mig[0].memory_total, 20937965568ULL);
	CHECK_U64(s.mig[0].memory_used, 13631488);
	CHECK_S(s.mig[1].uuid, "MIG-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeee2");
	CHECK_U64(s.mig[1].gpu_instance_id, 13);
	CHECK_INT(gw_device_processes(ctx, 0, &p, &n), 0);
	CHECK_INT(n, 1);
	if (n == 1) {
		CHECK_INT(p[0].pid, 5151);
		CHECK_U64(p[0].gpu_instance_id, 1);
		CHECK_U64(p[0].compute_instance_id, 0);
	}
	gw_processes_free(p);
	CHECK_INT(gw_device_sample_read(ctx, 1, &s), 0);
	CHECK_U64(s.mig_current, 0);
	CHECK_INT(s.mig_count, 0);
	gw_context_free(ctx);
}

/* CUDA_VISIBLE_DEVICES=MIG-...: CUDA's device 0 is a MIG instance of GPU 0. */
/* Per-link NVLink: state and KiB counters (in bytes) per link; a link
 * that answers NOT_SUPPORTED inside the GPU's links stays, its fields
 * NOT_SUPPORTED; a GPU without NVLink has no links; failed field values
 * are ERROR with NVML's code. */
static void case_nvlink(void)
{
	gw_context *ctx;
	gw_device_sample s;
	uint64_t tx0;

	use_machine("nvml_nvlink.json");
	ctx = open_context();
	memset(&s, 0xA5, sizeof(s));
	CHECK_INT(gw_device_sample_read(ctx, 0, &s), 0);
	CHECK_INT(s.nvlink_count, 4);
	CHECK_U64(s.nvlink[0].active, 1);
	/* tx_kib is a sequence over nvmlDeviceGetFieldValues calls, which
	 * the memory temperature makes too: the value is one of its steps. */
	CHECK_INT(s.nvlink[0].tx_bytes.state, GW_FIELD_VALID);
	CHECK(s.nvlink[0].tx_bytes.v % (50 * 1024) == 0 && s.nvlink[0].tx_bytes.v < 400 * 1024);
	tx0 = s.nvlink[0].tx_bytes.v;
	CHECK_U64(s.nvlink[0].rx_bytes, 200 * 1024);
	CHECK_U64(s.nvlink[1].active, 0);
	CHECK_U64(s.nvlink[1].tx_bytes, 5 * 1024);
	CHECK_U64(s.nvlink[1].rx_bytes, 6 * 1024);
	CHECK_NS(s.nvlink[2].active);
	CHECK_NS(s.nvlink[2].tx_bytes);
	CHECK_U64(s.nvlink[3].active, 1);
	CHECK_NS(s.nvlink[3].rx_bytes);
	CHECK_INT(gw_device_sample_read(ctx, 0, &s), 0);
	CHECK_INT(s.nvlink[0].tx_bytes.state, GW_FIELD_VALID);
	CHECK(s.nvlink[0].tx_bytes.v > tx0);   /* the counter advanced */

	memset(&s, 0xA5, sizeof(s));
	CHECK_INT(gw_device_sample_read(ctx, 1, &s), 0);
	CHECK_INT(s.nvlink_count, 0);

	memset(&s, 0xA5, sizeof(s));
	CHECK_INT(gw_device_sample_read(ctx, 2, &s), 0);
	CHECK_INT(s.nvlink_count, 2);
	CHECK_U64(s.nvlink[1].active, 1);
	CHECK_INT(s.nvlink[1].tx_bytes.state, GW_FIELD_ERROR);
	CHECK_INT(s.nvlink[1].tx_bytes.code, 999);
	gw_context_free(ctx);
}

static void case_mig_visible(void)
{
	gw_context *ctx;

	gw_device_sample s;

	use_machine("nvml_mig.json");
	setenv("CUDA_VISIBLE_DEVICES", "MIG-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeee2", 1);
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 2);
	/* CUDA sees the MIG device, not the whole GPU: the index is the MIG
	 * device's, and GPU 0 itself has none. */
	CHECK_INT(gw_device_get(ctx, 0)->cuda_index, -1);
	CHECK_INT(gw_device_get(ctx, 1)->cuda_index, -1);
	CHECK_STR(gw_device_get(ctx, 0)->backend, "nvml");
	CHECK_INT(gw_device_sample_read(ctx, 0, &s), 0);
	CHECK_INT(s.mig_count, 2);
	CHECK_INT(s.mig[0].cuda_index, -1);
	CHECK_INT(s.mig[1].cuda_index, 0);
	CHECK_INT(s.mig[2].cuda_index, -1);
	gw_context_free(ctx);
}

/* Select exactly one entry; returns it ({-9, -9} when not one). */
static gw_selection select_one(gw_context *ctx, const char *sel)
{
	gw_selection *list = NULL, one = { -9, -9 };
	size_t n = 0;

	if (gw_context_select(ctx, sel, &list, &n) == 0 && n == 1)
		one = list[0];
	gw_selection_free(list);
	return one;
}

#define CHECK_SEL(ctx, sel, want_dev, want_mig) do { \
	gw_selection s_ = select_one(ctx, sel); \
	CHECK_INT(s_.device, want_dev); \
	CHECK_INT(s_.mig, want_mig); \
} while (0)

static void case_select(void)
{
	gw_context *ctx;
	gw_selection *list = (gw_selection *)&list, *keep;
	size_t n = 77;
	int idx = -1;

	use_machine("nvml_mig.json");
	ctx = open_context();
	CHECK_SEL(ctx, "1", 1, -1);
	CHECK_SEL(ctx, " 1 ", 1, -1);
	CHECK_SEL(ctx, "GPU-abcdef01", 1, -1);
	CHECK_SEL(ctx, "abcdef01", 1, -1);
	CHECK_SEL(ctx, "ABCDEF011111", 1, -1);     /* case and dashes ignored */
	CHECK_SEL(ctx, "0:1", 0, 1);
	CHECK_SEL(ctx, "MIG-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeee2", 0, 1);
	CHECK_SEL(ctx, "aaaaaaaabbbbccccddddeeeeeeeeeee1", 0, 0);
	/* Ambiguous prefixes, no matches, and malformed entries: nothing selected. */
	keep = list;
	CHECK_INT(gw_context_select(ctx, "MIG-aaaa", &list, &n), GW_EINVAL);
	CHECK_INT(gw_context_select(ctx, "abcdef0", &list, &n), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "abcdef0") != NULL);
	CHECK_INT(gw_context_select(ctx, "GPU-aaaa", &list, &n), GW_ENOTFOUND);
	CHECK_INT(gw_context_select(ctx, "0:2", &list, &n), GW_ENOTFOUND);
	CHECK_INT(gw_context_select(ctx, "1:0", &list, &n), GW_ENOTFOUND);
	CHECK_INT(gw_context_select(ctx, "2", &list, &n), GW_ENOTFOUND);
	CHECK_INT(gw_context_select(ctx, "-1", &list, &n), GW_ENOTFOUND);
	CHECK_INT(gw_context_select(ctx, "", &list, &n), GW_EINVAL);
	CHECK_INT(gw_context_select(ctx, "0,", &list, &n), GW_EINVAL);
	CHECK_INT(gw_context_select(ctx, "GPU-", &list, &n), GW_EINVAL);
	CHECK(list == keep && n == 77);              /* untouched on failure */
	/* Lists keep their order and drop duplicates. */
	CHECK_INT(gw_context_select(ctx, "1,0:1,abcdef01,0", &list, &n), 0);
	CHECK_INT((int)n, 3);
	CHECK(n == 3 && list[0].device == 1 && list[0].mig == -1 && list[1].device == 0 && list[1].mig == 1 &&
	      list[2].device == 0 && list[2].mig == -1);
	gw_selection_free(list);
	CHECK_INT(gw_device_find(ctx, "abcdef01", &idx), 0);
	CHECK_INT(idx, 1);
	gw_context_free(ctx);
}

/* Eight or more digits are a UUID prefix (what `gpuwise list` prints),
 * fewer are an index. */
static void case_select_digits(void)
{
	gw_context *ctx;
	int idx = -1;

	use_machine("../../../build/machines/h100-8x/machine.json");
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 8);
	CHECK_SEL(ctx, "33135771", 7, -1);
	CHECK_SEL(ctx, "7", 7, -1);
	CHECK_INT(gw_device_find(ctx, "33135771", &idx), 0);
	CHECK_INT(idx, 7);
	CHECK_SEL(ctx, "3313577", -9, -9);          /* seven digits: index 3313577, none */
	CHECK(strstr(gw_error_last(), "index 3313577") != NULL);
	CHECK_SEL(ctx, "GPU-3313", 7, -1);
	gw_context_free(ctx);
}

static void case_visible_devices(void)
{
	gw_context *ctx;

	use_machine("nvml_four.json");
	setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
	setenv("CUDA_VISIBLE_DEVICES", "1", 1);
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 4);
	CHECK_INT(gw_device_get(ctx, 0)->cuda_index, -1);
	CHECK_INT(gw_device_get(ctx, 1)->cuda_index, 0);
	CHECK_INT(gw_device_get(ctx, 2)->cuda_index, -1);
	CHECK_INT(gw_device_get(ctx, 3)->cuda_index, -1);
	gw_context_free(ctx);
}

static void case_visible_devices_none(void)
{
	gw_context *ctx;
	const gw_backend_status *st;

	use_machine("nvml_four.json");
	setenv("CUDA_VISIBLE_DEVICES", "", 1);
	ctx = open_context();
	CHECK_INT(gw_device_count(ctx), 4);
	st = gw_context_backend(ctx, "cuda");
	CHECK_INT(st->state, GW_BACKEND_INIT_FAILED);
	CHECK_STR(st->vendor_code_name, "CUDA_ERROR_NO_DEVICE");
	CHECK(strstr(st->message, "CUDA_VISIBLE_DEVICES") != NULL);
	for (int i = 0; i < 4; i++)
		CHECK_INT(gw_device_get(ctx, i)->cuda_index, -1);
	gw_context_free(ctx);
}

static void case_device_order(void)
{
	static const int fastest_first[4] = { 3, 1, 2, 0 }; /* cuda index of NVML i */
	gw_context *ctx;

	use_machine("nvml_four.json");
	ctx = open_context(); /* CUDA_DEVICE_ORDER unset = FASTEST_FIRST */
	for (int i = 0; i < 4; i++)
		CHECK_INT(gw_device_get(ctx, i)->cuda_index, fastest_first[i]);
	gw_context_free(ctx);
}

static void case_device_order_pci(void)
{
	gw_context *ctx;

	use_machine("nvml_four.json");
	setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
	ctx = open_context();
	for (int i = 0; i < 4; i++)
		CHECK_INT(gw_device_get(ctx, i)->cuda_index, i);
	gw_context_free(ctx);
}

/* Two contexts at once: NVML init is refcounted, each context shuts down
 * its own. */
static void case_two_contexts(void)
{
	gw_context *a, *b;
	gw_device_sample s;

	use_machine("nvml_happy.json");
	a = open_context();
	b = open_context();
	gw_context_free(a);
	CHECK_INT(gw_device_sample_read(b, 0, &s), 0);
	CHECK_INT(s.gpu_util.state, GW_FIELD_VALID);
	gw_context_free(b);
}

/* ---- harness ------------------------------------------------------------- */

static void run_case(const char *name, void (*fn)(void))
{
	pid_t pid;
	int status = 0;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		/* Each case gets its own empty root. */
		size_t len = strlen(tmp_root);

		check_failures = check_count = 0;
		snprintf(tmp_root + len, sizeof(tmp_root) - len, "/%s", name);
		if (mkdir(tmp_root, 0755) != 0) {
			perror(tmp_root);
			exit(1);
		}
		fn();
		if (check_failures)
			fprintf(stderr, "  in case %s: %d of %d checks failed\n", name, check_failures, check_count);
		exit(check_failures ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	check_count++;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		check_failures++;
		fprintf(stderr, "FAIL %s (%s %d)\n", name, WIFEXITED(status) ? "exit" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	} else {
		printf("ok   %s\n", name);
	}
}

static bool fake_usable(const char *path)
{
	return fake_has(path, "nvmlInit_v2") && fake_has(path, "nvmlDeviceGetCount_v2");
}

#define RUN(fn) run_case(#fn, fn)

int main(int argc, char **argv)
{
	char self[PATH_MAX], *dir;
	char rm[PATH_MAX + 16];

	(void)argc;
	if (!realpath(argv[0], self)) {
		perror(argv[0]);
		return 1;
	}
	dir = dirname(dirname(self)); /* build/tests/x -> build */
	snprintf(fake_nvml, sizeof(fake_nvml), "%s/fake/libnvidia-ml.so.1", dir);
	snprintf(fake_cuda, sizeof(fake_cuda), "%s/fake/libcuda.so.1", dir);
	if (!fake_usable(fake_nvml)) {
		printf("SKIP: %s is not a working fake NVML yet\n", fake_nvml);
		return 0;
	}
	snprintf(tmp_root, sizeof(tmp_root), "%s/gw-nvml-test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp_root)) {
		perror("mkdtemp");
		return 1;
	}

	RUN(case_happy_static);
	RUN(case_happy_samples);
	RUN(case_processes);
	RUN(case_not_supported);
	RUN(case_old_driver);
	RUN(case_driver_not_loaded);
	RUN(case_mismatch);
	RUN(case_mismatch_nvml_version);
	RUN(case_library_missing);
	RUN(case_cuda_only);
	RUN(case_lost);
	RUN(case_lost_unknown);
	RUN(case_lost_getter);
	RUN(case_lost_while_sampling);
	RUN(case_mig);
	RUN(case_mig_visible);
	RUN(case_nvlink);
	RUN(case_select);
	RUN(case_select_digits);
	RUN(case_visible_devices);
	RUN(case_visible_devices_none);
	RUN(case_device_order);
	RUN(case_device_order_pci);
	RUN(case_two_contexts);

	snprintf(rm, sizeof(rm), "rm -rf '%s'", tmp_root);
	if (system(rm) != 0)
		fprintf(stderr, "could not remove %s\n", tmp_root);
	return CHECK_DONE();
}
