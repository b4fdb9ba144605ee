/* The fake libnvidia-ml.so.1 and libcuda.so.1, loaded by path with dlopen
 * exactly as a client would: struct layouts (canary-filled buffers),
 * INSUFFICIENT_SIZE handshakes, sequences, the errors map, init refcount,
 * broken machine files, and CUDA's device order and CUDA_VISIBLE_DEVICES.
 *
 * The fakes read their machine once per process, so every scenario runs in
 * a forked child. The libraries are found in $GPUWISE_FAKE_DIR, else in
 * ../fake next to this binary; fixtures in tests/unit/fixtures/.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static char fake_dir[4200];
static char fixtures[4096];
static void *lib;

static void find_paths(void)
{
	const char *env = getenv("GPUWISE_FAKE_DIR");
	char exe[4096];
	ssize_t n;

	if (env && *env) {
		snprintf(fake_dir, sizeof(fake_dir), "%s", env);
	} else {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		if (strrchr(exe, '/'))
			*strrchr(exe, '/') = '\0';
		snprintf(fake_dir, sizeof(fake_dir), "%s/../fake", exe);
	}
	/* __FILE__ is relative to the repository root, where tests run. */
	snprintf(fixtures, sizeof(fixtures), "%s", __FILE__);
	if (strrchr(fixtures, '/'))
		*strrchr(fixtures, '/') = '\0';
	else
		snprintf(fixtures, sizeof(fixtures), ".");
	strncat(fixtures, "/fixtures", sizeof(fixtures) - strlen(fixtures) - 1);
}

static void use_machine(const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	setenv("GPUWISE_FAKE_MACHINE", path, 1);
}

static void *open_lib(const char *soname)
{
	char path[4400];
	void *h;

	snprintf(path, sizeof(path), "%s/%s", fake_dir, soname);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
	return h;
}

/* Resolve a symbol into a function pointer of any type. */
#define LOAD(fp, name) (*(void **)(&(fp)) = dlsym(lib, name))

/* Run fn in a child; its failed CHECKs fail one check here. */
static void scenario(const char *name, void (*fn)(void))
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		lib = NULL;
		check_failures = 0;
		fn();
		fflush(NULL);
		_exit(check_failures ? 1 : 0);
	}
	check_count++;
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		check_failures++;
		fprintf(stderr, "scenario %s failed (status 0x%x)\n", name, status);
	}
}

static uint32_t rd32(const unsigned char *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, 4);
	return v;
}

static uint64_t rd64(const unsigned char *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

static int canary_from(const unsigned char *p, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (p[i] != 0xA5)
			return 0;
	return 1;
}

/* ---- NVML ------------------------------------------------------------- */

typedef void *dev_t_;
typedef int (*fn_v)(void);
typedef int (*fn_u)(unsigned);
typedef int (*fn_pu)(unsigned *);
typedef int (*fn_pi)(int *);
typedef int (*fn_s)(char *, unsigned);
typedef int (*fn_idx)(unsigned, dev_t_ *);
typedef int (*fn_str_h)(const char *, dev_t_ *);
typedef int (*fn_d_s)(dev_t_, char *, unsigned);
typedef int (*fn_d_pu)(dev_t_, unsigned *);
typedef int (*fn_d_pull)(dev_t_, unsigned long long *);
typedef int (*fn_d_buf)(dev_t_, void *);
typedef int (*fn_d_u_pu)(dev_t_, unsigned, unsigned *);
typedef int (*fn_d_pu_pu)(dev_t_, unsigned *, unsigned *);
typedef int (*fn_d_pu_buf)(dev_t_, unsigned *, void *);
typedef int (*fn_d_idx)(dev_t_, unsigned, dev_t_ *);
typedef int (*fn_d_ph)(dev_t_, dev_t_ *);
typedef int (*fn_pu_s)(unsigned, char *, unsigned);
typedef int (*fn_putil)(dev_t_, void *, unsigned *, unsigned long long);
typedef int (*fn_fields)(dev_t_, int, void *);
typedef int (*fn_ecc)(dev_t_, unsigned, unsigned, unsigned long long *);
typedef int (*fn_retired)(dev_t_, unsigned, unsigned *, unsigned long long *);
typedef int (*fn_cc)(dev_t_, int *, int *);
typedef const char *(*fn_errstr)(int);

static const char *const required_symbols[] = {
	"nvmlInit", "nvmlInit_v2", "nvmlInitWithFlags", "nvmlShutdown", "nvmlErrorString",
	"nvmlSystemGetDriverVersion", "nvmlSystemGetNVMLVersion", "nvmlSystemGetCudaDriverVersion",
	"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetProcessName",
	"nvmlDeviceGetCount", "nvmlDeviceGetCount_v2", "nvmlDeviceGetHandleByIndex",
	"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByUUID", "nvmlDeviceGetHandleByPciBusId",
	"nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetIndex", "nvmlDeviceGetMinorNumber",
	"nvmlDeviceGetName", "nvmlDeviceGetUUID", "nvmlDeviceGetSerial", "nvmlDeviceGetBoardPartNumber",
	"nvmlDeviceGetVbiosVersion", "nvmlDeviceGetPciInfo", "nvmlDeviceGetPciInfo_v2",
	"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfoExt", "nvmlDeviceGetMemoryInfo",
	"nvmlDeviceGetMemoryInfo_v2", "nvmlDeviceGetBAR1MemoryInfo", "nvmlDeviceGetUtilizationRates",
	"nvmlDeviceGetEncoderUtilization", "nvmlDeviceGetDecoderUtilization", "nvmlDeviceGetTemperature",
	"nvmlDeviceGetTemperatureV", "nvmlDeviceGetPowerUsage", "nvmlDeviceGetEnforcedPowerLimit",
	"nvmlDeviceGetPowerManagementLimit", "nvmlDeviceGetTotalEnergyConsumption",
	"nvmlDeviceGetClockInfo", "nvmlDeviceGetMaxClockInfo", "nvmlDeviceGetFanSpeed",
	"nvmlDeviceGetPerformanceState", "nvmlDeviceGetCurrPcieLinkGeneration",
	"nvmlDeviceGetCurrPcieLinkWidth", "nvmlDeviceGetMaxPcieLinkGeneration",
	"nvmlDeviceGetMaxPcieLinkWidth", "nvmlDeviceGetGpuMaxPcieLinkGeneration",
	"nvmlDeviceGetPcieThroughput", "nvmlDeviceGetComputeRunningProcesses",
	"nvmlDeviceGetComputeRunningProcesses_v2", "nvmlDeviceGetComputeRunningProcesses_v3",
	"nvmlDeviceGetGraphicsRunningProcesses", "nvmlDeviceGetGraphicsRunningProcesses_v2",
	"nvmlDeviceGetGraphicsRunningProcesses_v3", "nvmlDeviceGetProcessUtilization",
	"nvmlDeviceGetCudaComputeCapability", "nvmlDeviceGetArchitecture", "nvmlDeviceGetNumGpuCores",
	"nvmlDeviceGetMigMode", "nvmlDeviceGetMaxMigDeviceCount", "nvmlDeviceGetMigDeviceHandleByIndex",
	"nvmlDeviceGetDeviceHandleFromMigDeviceHandle", "nvmlDeviceIsMigDeviceHandle",
	"nvmlDeviceGetGpuInstanceId", "nvmlDeviceGetComputeInstanceId",
	"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons",
	"nvmlDeviceGetTotalEccErrors", "nvmlDeviceGetRetiredPages", "nvmlDeviceGetRetiredPages_v2",
	"nvmlDeviceGetRetiredPagesPendingStatus", "nvmlDeviceGetRemappedRows", "nvmlDeviceGetComputeMode",
	"nvmlDeviceGetPersistenceMode", "nvmlDeviceGetDisplayMode", "nvmlDeviceGetDisplayActive",
	"nvmlDeviceGetFieldValues", "nvmlDeviceGetDriverModel", "nvmlDeviceGetDriverModel_v2",
	"nvmlDeviceGetRunningProcessDetailList", "nvmlDeviceGetTopologyCommonAncestor", "nvmlDeviceGetP2PStatus",
};

static void nvml_symbols(void)
{
	lib = open_lib("libnvidia-ml.so.1");
	CHECK(lib != NULL);
	if (!lib)
		return;
	for (size_t i = 0; i < sizeof(required_symbols) / sizeof(required_symbols[0]); i++) {
		if (!dlsym(lib, required_symbols[i]))
			fprintf(stderr, "  missing symbol %s\n", required_symbols[i]);
		CHECK(dlsym(lib, required_symbols[i]) != NULL);
	}
	/* nvml.md §0.2: its presence would make nvitop read 32-byte entries. */
	CHECK(dlsym(lib, "nvmlDeviceGetConfComputeMemSizeInfo") == NULL);
	/* Nothing of the machine reader leaks out. */
	CHECK(dlsym(lib, "fm_machine_parse") == NULL);
	CHECK(dlsym(lib, "gw_jsonp_parse") == NULL);
}

static void nvml_init_refcount(void)
{
	fn_v init_v2, shutdown;
	fn_u init_flags;
	fn_pu count;
	fn_s nvml_version;
	fn_errstr errstr;
	char buf[80];
	unsigned n = 99;

	use_machine("fake_mixed.json");
	lib = open_lib("libnvidia-ml.so.1");
	if (!lib)
		return;
	LOAD(init_v2, "nvmlInit_v2");
	LOAD(init_flags, "nvmlInitWithFlags");
	LOAD(shutdown, "nvmlShutdown");
	LOAD(count, "nvmlDeviceGetCount_v2");
	LOAD(nvml_version, "nvmlSystemGetNVMLVersion");
	LOAD(errstr, "nvmlErrorString");

	CHECK_INT(count(&n), 1);                  /* UNINITIALIZED */
	CHECK_INT(n, 99);
	CHECK_INT(shutdown(), 1);
	CHECK_STR(errstr(15), "GPU is lost");
	CHECK_STR(errstr(999), "Unknown Error");
	CHECK_INT(nvml_version(buf, sizeof(buf)), 0);   /* works before init */
	CHECK_STR(buf, "12.550.54.15");
	CHECK_INT(init_v2(), 0);
	CHECK_INT(init_flags(0), 0);
	CHECK_INT(count(&n), 0);
	CHECK_INT(n, 3);                          /* the lost GPU still counts */
	CHECK_INT(shutdown(), 0);
	CHECK_INT(count(&n), 0);                  /* one reference left */
	CHECK_INT(shutdown(), 0);
	CHECK_INT(count(&n), 1);
	CHECK_INT(shutdown(), 1);
	CHECK_INT(init_v2(), 0);
	CHECK_INT(count(NULL), 2);
}

static dev_t_ h0, h1;

static void nvml_open_mixed(void)
{
	fn_v init;
	fn_idx by_index;

	use_machine("fake_mixed.json");
	lib = open_lib("libnvidia-ml.so.1");
	if (!lib)
		exit(1);
	LOAD(init, "nvmlInit");
	LOAD(by_index, "nvmlDeviceGetHandleByIndex_v2");
	CHECK_INT(init(), 0);
	CHECK_INT(by_index(0, &h0), 0);
	CHECK_INT(by_index(1, &h1), 0);
	CHECK(h0 && h1 && h0 != h1);
}

static void nvml_handles_and_strings(void)
{
	fn_idx by_index, by_index_v1;
	fn_str_h by_uuid, by_bus;
	fn_d_s name, serial, uuid;
	fn_d_pu index, minor, fan;
	dev_t_ h = NULL, local = &h;
	char buf[96];
	unsigned v;

	nvml_open_mixed();
	LOAD(by_index, "nvmlDeviceGetHandleByIndex_v2");
	LOAD(by_index_v1, "nvmlDeviceGetHandleByIndex");
	LOAD(by_uuid, "nvmlDeviceGetHandleByUUID");
	LOAD(by_bus, "nvmlDeviceGetHandleByPciBusId_v2");
	LOAD(name, "nvmlDeviceGetName");
	LOAD(serial, "nvmlDeviceGetSerial");
	LOAD(uuid, "nvmlDeviceGetUUID");
	LOAD(index, "nvmlDeviceGetIndex");
	LOAD(minor, "nvmlDeviceGetMinorNumber");
	LOAD(fan, "nvmlDeviceGetFanSpeed");

	CHECK_INT(by_index(2, &h), 15);           /* "*": GPU_IS_LOST */
	CHECK_INT(by_index(3, &h), 2);
	CHECK_INT(by_index(0, NULL), 2);
	CHECK_INT(by_index_v1(0, &h), 0);
	CHECK(h == h0);
	CHECK_INT(by_uuid("GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", &h), 0);
	CHECK(h == h1);
	CHECK_INT(by_uuid("GPU-nope", &h), 6);
	CHECK_INT(by_bus("0000:3b:00.0", &h), 0);
	CHECK(h == h1);
	CHECK_INT(by_bus("00000000:18:00.0", &h), 0);
	CHECK(h == h0);
	CHECK_INT(by_bus("00000000:AF:00.0", &h), 15);
	CHECK_INT(by_bus("garbage", &h), 2);

	/* "Tesla T4" needs 9 bytes. */
	CHECK_INT(name(h0, buf, 9), 0);
	CHECK_STR(buf, "Tesla T4");
	CHECK_INT(name(h0, buf, 8), 7);
	CHECK_INT(name(h0, NULL, 64), 2);
	CHECK_INT(uuid(h1, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee");
	CHECK_INT(serial(h0, buf, sizeof(buf)), 4);     /* errors: NO_PERMISSION */
	CHECK_INT(serial(h1, buf, sizeof(buf)), 3);     /* missing: NOT_SUPPORTED */
	CHECK_INT(fan(h0, &v), 3);
	CHECK_INT(index(h1, &v), 0);
	CHECK_INT(v, 1);
	CHECK_INT(minor(h1, &v), 0);
	CHECK_INT(v, 1);
	CHECK_INT(index(local, &v), 2);           /* not a handle of ours */
	CHECK_INT(index(NULL, &v), 2);
}

static void nvml_layouts(void)
{
	fn_d_buf pci1, pci3, mem1, mem2, temp_v, bar1, util;
	unsigned char b[128];

	nvml_open_mixed();
	LOAD(pci1, "nvmlDeviceGetPciInfo");
	LOAD(pci3, "nvmlDeviceGetPciInfo_v3");
	LOAD(mem1, "nvmlDeviceGetMemoryInfo");
	LOAD(mem2, "nvmlDeviceGetMemoryInfo_v2");
	LOAD(temp_v, "nvmlDeviceGetTemperatureV");
	LOAD(bar1, "nvmlDeviceGetBAR1MemoryInfo");
	LOAD(util, "nvmlDeviceGetUtilizationRates");

	/* nvmlPciInfo_t: 68 bytes. */
	memset(b, 0xA5, sizeof(b));
	CHECK_INT(pci3(h0, b), 0);
	CHECK_STR((char *)b, "0000:18:00.0");
	CHECK_INT(rd32(b, 16), 0);
	CHECK_INT(rd32(b, 20), 0x18);
	CHECK_INT(rd32(b, 24), 0);
	CHECK_INT(rd32(b, 28), 0x1EB810DE);
	CHECK_INT(rd32(b, 32), 0x12A210DE);
	CHECK_STR((char *)b + 36, "00000000:18:00.0");
	CHECK(canary_from(b, 68, sizeof(b)));
	memset(b, 0xA5, sizeof(b));
	CHECK_INT(pci1(h1, b), 0);                /* the v1 struct had no busId[32] */
	CHECK_INT(rd32(b, 20), 0x3B);
	CHECK(canary_from(b, 36, sizeof(b)));

	/* nvmlMemory_t: 24 bytes, used = used + reserved; a sequence. */
	for (int i = 0; i < 4; i++) {
		static const uint64_t used[] = { 1048576, 2097152, 4194304, 4194304 };

		memset(b, 0xA5, sizeof(b));
		CHECK_INT(mem1(h0, b), 0);
		CHECK(rd64(b, 0) == 16106127360ULL);
		CHECK(rd64(b, 16) == used[i] + 262144000ULL);
		CHECK(rd64(b, 8) == 16106127360ULL - used[i] - 262144000ULL);
		CHECK(canary_from(b, 24, sizeof(b)));
	}
	/* nvmlMemory_v2_t: 40 bytes, version checked; its own sequence. */
	memset(b, 0xA5, sizeof(b));
	memset(b, 0, 4);
	CHECK_INT(mem2(h0, b), 25);
	memset(b, 0xA5, sizeof(b));
	{
		uint32_t ver = 0x02000028;

		memcpy(b, &ver, 4);
	}
	CHECK_INT(mem2(h0, b), 0);
	CHECK_INT(rd32(b, 0), 0x02000028);
	CHECK(rd64(b, 8) == 16106127360ULL);
	CHECK(rd64(b, 16) == 262144000ULL);
	CHECK(rd64(b, 24) == 16106127360ULL - 262144000ULL - 1048576ULL);
	CHECK(rd64(b, 32) == 1048576ULL);
	CHECK(canary_from(b, 40, sizeof(b)));
	memset(b, 0xA5, sizeof(b));
	{
		uint32_t ver = 2;              /* nvtop's spelling */

		memcpy(b, &ver, 4);
	}
	CHECK_INT(mem2(h0, b), 0);
	CHECK(rd64(b, 32) == 2097152ULL);

	/* nvmlTemperature_v1_t: 12 bytes. */
	memset(b, 0xA5, sizeof(b));
	{
		uint32_t hdr[2] = { 0x0100000C, 0 };

		memcpy(b, hdr, 8);
	}
	CHECK_INT(temp_v(h0, b), 0);
	CHECK_INT((int32_t)rd32(b, 8), 41);
	CHECK(canary_from(b, 12, sizeof(b)));
	{
		uint32_t hdr[2] = { 0x0100000C, 0 };

		memcpy(b, hdr, 8);
	}
	CHECK_INT(temp_v(h1, b), 0);
	CHECK_INT((int32_t)rd32(b, 8), 30);
	CHECK_INT(temp_v(h1, b), 0);
	CHECK_INT((int32_t)rd32(b, 8), 31);

	/* nvmlBAR1Memory_t: 24 bytes; nvmlUtilization_t: 8 bytes, a sequence. */
	memset(b, 0xA5, sizeof(b));
	CHECK_INT(bar1(h0, b), 0);
	CHECK(rd64(b, 0) == 268435456ULL && rd64(b, 8) == 268435456ULL - 2097152ULL && rd64(b, 16) == 2097152ULL);
	CHECK(canary_from(b, 24, sizeof(b)));
	CHECK_INT(bar1(h1, b), 3);
	for (int i = 0; i < 4; i++) {
		static const uint32_t gpu[] = { 0, 50, 100, 100 };

		memset(b, 0xA5, sizeof(b));
		CHECK_INT(util(h0, b), 0);
		CHECK_INT(rd32(b, 0), gpu[i]);
		CHECK_INT(rd32(b, 4), 3);
		CHECK(canary_from(b, 8, sizeof(b)));
	}
}

static void nvml_getters(void)
{
	fn_d_u_pu clock, max_clock, temp, pcie_tp;
	fn_d_pu power, display_active, pstate;
	fn_d_pull reasons;
	fn_ecc ecc;
	fn_retired retired;
	fn_fields fields;
	fn_d_pu_pu driver_model;
	fn_cc cc;
	fn_pi cuda_v1, cuda_v2;
	fn_s driver;
	unsigned v, c;
	unsigned long long ull, addrs[4];
	int major, minor;
	char buf[80];
	unsigned char b[128];

	nvml_open_mixed();
	LOAD(clock, "nvmlDeviceGetClockInfo");
	LOAD(max_clock, "nvmlDeviceGetMaxClockInfo");
	LOAD(temp, "nvmlDeviceGetTemperature");
	LOAD(pcie_tp, "nvmlDeviceGetPcieThroughput");
	LOAD(power, "nvmlDeviceGetPowerUsage");
	LOAD(display_active, "nvmlDeviceGetDisplayActive");
	LOAD(pstate, "nvmlDeviceGetPerformanceState");
	LOAD(reasons, "nvmlDeviceGetCurrentClocksEventReasons");
	LOAD(ecc, "nvmlDeviceGetTotalEccErrors");
	LOAD(retired, "nvmlDeviceGetRetiredPages");
	LOAD(fields, "nvmlDeviceGetFieldValues");
	LOAD(driver_model, "nvmlDeviceGetDriverModel_v2");
	LOAD(cc, "nvmlDeviceGetCudaComputeCapability");
	LOAD(cuda_v1, "nvmlSystemGetCudaDriverVersion");
	LOAD(cuda_v2, "nvmlSystemGetCudaDriverVersion_v2");
	LOAD(driver, "nvmlSystemGetDriverVersion");

	/* Counters are per (function, argument): SM advances alone. */
	CHECK_INT(clock(h0, 1, &v), 0);
	CHECK_INT(v, 585);
	CHECK_INT(clock(h0, 0, &v), 0);
	CHECK_INT(v, 585);
	CHECK_INT(clock(h0, 1, &v), 0);
	CHECK_INT(v, 1590);
	CHECK_INT(clock(h0, 1, &v), 0);
	CHECK_INT(v, 1590);
	CHECK_INT(clock(h0, 4, &v), 2);
	CHECK_INT(max_clock(h0, 2, &v), 0);
	CHECK_INT(v, 5001);
	CHECK_INT(temp(h0, 0, &v), 0);
	CHECK_INT(v, 41);
	CHECK_INT(temp(h0, 1, &v), 2);
	CHECK_INT(pcie_tp(h0, 1, &v), 0);
	CHECK_INT(v, 2000);
	CHECK_INT(power(h0, &v), 0);
	CHECK_INT(v, 27000);
	CHECK_INT(power(h1, &v), 3);
	CHECK_INT(pstate(h0, &v), 0);
	CHECK_INT(v, 8);
	CHECK_INT(display_active(h0, &v), 0);
	CHECK_INT(v, 0);
	CHECK_INT(reasons(h0, &ull), 0);
	CHECK(ull == 1);
	CHECK_INT(ecc(h0, 1, 0, &ull), 0);
	CHECK(ull == 2);
	CHECK_INT(ecc(h0, 0, 1, &ull), 0);
	CHECK(ull == 5);
	CHECK_INT(ecc(h1, 0, 0, &ull), 3);
	CHECK_INT(driver_model(h0, &v, &c), 3);
	CHECK_INT(cc(h0, &major, &minor), 0);
	CHECK(major == 7 && minor == 5);

	c = 0;
	CHECK_INT(retired(h0, 0, &c, NULL), 7);
	CHECK_INT(c, 2);
	CHECK_INT(retired(h0, 0, &c, addrs), 0);
	CHECK(addrs[0] != 0 && addrs[1] != addrs[0]);
	c = 0;
	CHECK_INT(retired(h0, 1, &c, NULL), 0);
	CHECK_INT(c, 0);

	/* Field values: per-field NOT_SUPPORTED, the call succeeds. */
	memset(b, 0, sizeof(b));
	{
		uint32_t ids[2] = { 82, 138 };

		memcpy(b, &ids[0], 4);
		memcpy(b + 40, &ids[1], 4);
	}
	CHECK_INT(fields(h0, 2, b), 0);
	CHECK_INT(rd32(b, 28), 3);
	CHECK_INT(rd32(b, 40 + 28), 3);

	CHECK_INT(cuda_v1(&major), 0);
	CHECK_INT(major, 12040);
	CHECK_INT(cuda_v2(&major), 0);
	CHECK_INT(major, 12040);
	CHECK_INT(driver(buf, sizeof(buf)), 0);
	CHECK_STR(buf, "550.54.15");
	CHECK_INT(driver(buf, 9), 7);
}

static void nvml_processes(void)
{
	fn_d_pu_buf v1, v3, graphics;
	fn_putil putil;
	fn_pu_s pname;
	unsigned char b[256];
	unsigned n;
	char buf[64];

	setenv("GPUWISE_SLEEPER_PID", "31337", 1);
	nvml_open_mixed();
	LOAD(v1, "nvmlDeviceGetComputeRunningProcesses");
	LOAD(v3, "nvmlDeviceGetComputeRunningProcesses_v3");
	LOAD(graphics, "nvmlDeviceGetGraphicsRunningProcesses_v3");
	LOAD(putil, "nvmlDeviceGetProcessUtilization");
	LOAD(pname, "nvmlSystemGetProcessName");

	n = 0;
	CHECK_INT(v3(h0, &n, NULL), 7);
	CHECK_INT(n, 2);
	n = 1;
	CHECK_INT(v3(h0, &n, b), 7);
	CHECK_INT(n, 2);
	memset(b, 0xA5, sizeof(b));
	n = 5;
	CHECK_INT(v3(h0, &n, b), 0);
	CHECK_INT(n, 2);
	CHECK_INT(rd32(b, 0), 31337);              /* $SLEEPER */
	CHECK(rd64(b, 8) == 1048576ULL);
	CHECK_INT(rd32(b, 16), 0xFFFFFFFFu);
	CHECK_INT(rd32(b, 20), 0xFFFFFFFFu);
	CHECK_INT(rd32(b, 24), 4242);
	CHECK(rd64(b, 32) == ~0ULL);               /* null memory: N/A */
	CHECK(canary_from(b, 48, sizeof(b)));
	memset(b, 0xA5, sizeof(b));
	n = 2;
	CHECK_INT(v1(h0, &n, b), 0);               /* 16-byte entries */
	CHECK_INT(rd32(b, 16), 4242);
	CHECK(canary_from(b, 32, sizeof(b)));
	n = 0;
	CHECK_INT(graphics(h0, &n, NULL), 0);
	CHECK_INT(n, 0);
	n = 0;
	CHECK_INT(v3(h1, &n, NULL), 0);            /* MIG parent: empty list */

	n = 0;
	CHECK_INT(putil(h0, NULL, &n, 0), 7);
	CHECK_INT(n, 1);
	memset(b, 0xA5, sizeof(b));
	CHECK_INT(putil(h0, b, &n, 0), 0);
	CHECK_INT(n, 1);
	CHECK_INT(rd32(b, 0), 31337);
	CHECK(rd64(b, 8) > 0);
	CHECK_INT(rd32(b, 16), 42);
	CHECK_INT(rd32(b, 20), 7);
	CHECK(canary_from(b, 32, sizeof(b)));
	n = 0;
	CHECK_INT(putil(h1, NULL, &n, 0), 6);      /* no samples: NOT_FOUND */

	CHECK_INT(pname(31337, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "python3");
}

static void nvml_mig(void)
{
	fn_d_pu_pu mig_mode;
	fn_d_pu max_count, is_mig, gi, ci, index;
	fn_d_idx mig_by_index;
	fn_d_ph parent_of;
	fn_str_h by_uuid;
	fn_d_s name;
	fn_d_buf mem1;
	fn_d_pu_buf procs;
	fn_cc cc;
	dev_t_ m0 = NULL, m1 = NULL, p = NULL, x = NULL;
	unsigned a, b2;
	int major, minor;
	char buf[96];
	unsigned char b[128];

	nvml_open_mixed();
	LOAD(mig_mode, "nvmlDeviceGetMigMode");
	LOAD(max_count, "nvmlDeviceGetMaxMigDeviceCount");
	LOAD(is_mig, "nvmlDeviceIsMigDeviceHandle");
	LOAD(gi, "nvmlDeviceGetGpuInstanceId");
	LOAD(ci, "nvmlDeviceGetComputeInstanceId");
	LOAD(index, "nvmlDeviceGetIndex");
	LOAD(mig_by_index, "nvmlDeviceGetMigDeviceHandleByIndex");
	LOAD(parent_of, "nvmlDeviceGetDeviceHandleFromMigDeviceHandle");
	LOAD(by_uuid, "nvmlDeviceGetHandleByUUID");
	LOAD(name, "nvmlDeviceGetName");
	LOAD(mem1, "nvmlDeviceGetMemoryInfo");
	LOAD(procs, "nvmlDeviceGetComputeRunningProcesses_v3");
	LOAD(cc, "nvmlDeviceGetCudaComputeCapability");

	CHECK_INT(mig_mode(h0, &a, &b2), 3);
	CHECK_INT(max_count(h0, &a), 0);
	CHECK_INT(a, 0);
	CHECK_INT(mig_mode(h1, &a, &b2), 0);
	CHECK(a == 1 && b2 == 1);
	CHECK_INT(max_count(h1, &a), 0);
	CHECK_INT(a, 7);
	CHECK_INT(mig_by_index(h1, 0, &m0), 0);
	CHECK_INT(mig_by_index(h1, 1, &m1), 0);
	CHECK(m0 && m1 && m0 != m1 && m0 != h1 && m1 != h0);
	CHECK_INT(mig_by_index(h1, 2, &x), 6);
	CHECK_INT(mig_by_index(h1, 7, &x), 2);
	CHECK_INT(mig_by_index(h0, 0, &x), 3);
	CHECK_INT(is_mig(m0, &a), 0);
	CHECK_INT(a, 1);
	CHECK_INT(is_mig(h1, &a), 0);
	CHECK_INT(a, 0);
	CHECK_INT(parent_of(m1, &p), 0);
	CHECK(p == h1);
	CHECK_INT(parent_of(h1, &p), 2);
	CHECK_INT(gi(m1, &a), 0);
	CHECK_INT(a, 2);
	CHECK_INT(ci(m1, &a), 0);
	CHECK_INT(a, 0);
	CHECK_INT(gi(h1, &a), 3);
	CHECK_INT(index(m0, &a), 3);
	CHECK_INT(name(m0, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "NVIDIA H100 80GB HBM3 MIG 3g.40gb");
	CHECK_INT(by_uuid("MIG-fedcba98-7654-3210-fedc-ba9876543210", &x), 0);
	CHECK(x == m1);
	CHECK_INT(mem1(m0, b), 0);
	CHECK(rd64(b, 0) == 42949672960ULL);
	CHECK_INT(cc(m0, &major, &minor), 0);      /* from the parent */
	CHECK(major == 9 && minor == 0);
	a = 4;
	memset(b, 0xA5, sizeof(b));
	CHECK_INT(procs(m0, &a, b), 0);
	CHECK_INT(a, 1);
	CHECK_INT(rd32(b, 0), 777);
	CHECK_INT(rd32(b, 16), 1);                 /* the MIG device's GI/CI */
	CHECK_INT(rd32(b, 20), 0);
}

/* Runs init with stderr captured; returns init's code, fills out. */
static int init_capturing(const char *sym, char *out, size_t outsz)
{
	char tmpl[] = "/tmp/gw-fake-XXXXXX";
	int fd = mkstemp(tmpl), saved = dup(2), rc;
	ssize_t n;
	fn_v init;

	unlink(tmpl);
	dup2(fd, 2);
	LOAD(init, sym);
	rc = init ? init() : -1;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, out, outsz - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	return rc;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void bad_machine(const char *fixture, const char *so, const char *init, int want,
			const char *what)
{
	char out[1024];

	if (fixture)
		use_machine(fixture);
	else
		unsetenv("GPUWISE_FAKE_MACHINE");
	lib = open_lib(so);
	if (!lib)
		exit(1);
	CHECK_INT(init_capturing(init, out, sizeof(out)), want);
	CHECK_INT(count_lines(out), 1);
	if (!strstr(out, what))
		fprintf(stderr, "  stderr was: %s", out);
	CHECK(strstr(out, what) != NULL);
	/* A second init says nothing more. */
	CHECK_INT(init_capturing(init, out, sizeof(out)), want);
	CHECK_STR(out, "");
}

static void bad_type(void)
{
	bad_machine("fake_bad_type.json", "libnvidia-ml.so.1", "nvmlInit_v2", 999,
		    "fake_bad_type.json:3:26: name: expected a string, got number");
}

static void bad_json(void)
{
	bad_machine("fake_bad_json.json", "libnvidia-ml.so.1", "nvmlInit_v2", 999,
		    "fake_bad_json.json:1:36: expected a value, found '}'");
}

typedef int (*fn_topo)(dev_t_, dev_t_, int *);
typedef int (*fn_p2p)(dev_t_, dev_t_, int, int *);

/* nvmlDeviceGetTopologyCommonAncestor and nvmlDeviceGetP2PStatus: per peer
 * NVML index, names and numbers, null = NOT_SUPPORTED, MIG handles
 * NOT_SUPPORTED, bad arguments INVALID_ARGUMENT, "errors" of the first
 * device. */
static void nvml_peers(void)
{
	fn_v init;
	fn_idx by_index;
	fn_d_idx mig_by_index;
	fn_topo topo;
	fn_p2p p2p;
	dev_t_ a = NULL, b = NULL, c = NULL, m = NULL;
	int v = -1;

	use_machine("fake_peers.json");
	lib = open_lib("libnvidia-ml.so.1");
	if (!lib)
		exit(1);
	LOAD(init, "nvmlInit_v2");
	LOAD(by_index, "nvmlDeviceGetHandleByIndex_v2");
	LOAD(mig_by_index, "nvmlDeviceGetMigDeviceHandleByIndex");
	LOAD(topo, "nvmlDeviceGetTopologyCommonAncestor");
	LOAD(p2p, "nvmlDeviceGetP2PStatus");
	CHECK(topo && p2p);
	CHECK_INT(topo(NULL, NULL, &v), 1);          /* before init: UNINITIALIZED */
	CHECK_INT(init(), 0);
	CHECK_INT(by_index(0, &a), 0);
	CHECK_INT(by_index(1, &b), 0);
	CHECK_INT(by_index(2, &c), 0);
	CHECK_INT(mig_by_index(a, 0, &m), 0);
	CHECK_INT(topo(a, b, &v), 0);
	CHECK_INT(v, 50);
	CHECK_INT(topo(a, c, &v), 0);
	CHECK_INT(v, 10);
	CHECK_INT(topo(b, a, &v), 0);
	CHECK_INT(v, 50);
	CHECK_INT(topo(b, c, &v), 0);
	CHECK_INT(v, 40);
	CHECK_INT(topo(a, a, &v), 3);                /* its own entry is null */
	CHECK_INT(topo(c, a, &v), 3);                /* no "topology" at all */
	CHECK_INT(topo(a, m, &v), 3);                /* MIG handle */
	CHECK_INT(topo(a, b, NULL), 2);
	CHECK_INT(topo(a, (dev_t_)&v, &v), 2);       /* not a handle */
	CHECK_INT(p2p(a, b, 0, &v), 0);
	CHECK_INT(v, 1);
	CHECK_INT(p2p(a, b, 1, &v), 0);
	CHECK_INT(v, 1);
	CHECK_INT(p2p(a, c, 0, &v), 0);
	CHECK_INT(v, 0);
	CHECK_INT(p2p(a, c, 1, &v), 0);
	CHECK_INT(v, 0);
	CHECK_INT(p2p(a, b, 2, &v), 0);
	CHECK_INT(v, 5);
	CHECK_INT(p2p(a, c, 2, &v), 3);              /* list shorter than the peer index */
	CHECK_INT(p2p(a, c, 3, &v), 3);              /* no "atomics" */
	CHECK_INT(p2p(a, c, 5, &v), 2);              /* NVML_P2P_CAPS_INDEX_UNKNOWN */
	CHECK_INT(p2p(a, c, -1, &v), 2);
	CHECK_INT(p2p(b, a, 0, &v), 15);             /* "errors" of the first device */
	CHECK_INT(p2p(a, b, 0, NULL), 2);
}

static void bad_p2p(void)
{
	bad_machine("fake_bad_p2p.json", "libnvidia-ml.so.1", "nvmlInit_v2", 999, "p2p.read: unknown name \"MAYBE\"");
}

static void bad_number(void)
{
	bad_machine("fake_bad_number.json", "libnvidia-ml.so.1", "nvmlInit", 999,
		    "utilization.gpu: expected an integer");
}

static void bad_unset(void)
{
	bad_machine(NULL, "libnvidia-ml.so.1", "nvmlInit", 999, "GPUWISE_FAKE_MACHINE is not set");
}

static void nvml_init_fails(void)
{
	fn_v init;
	fn_pu count;
	fn_s nvml_version, driver;
	char buf[80];
	unsigned n;

	use_machine("fake_init_fail.json");
	lib = open_lib("libnvidia-ml.so.1");
	if (!lib)
		exit(1);
	LOAD(init, "nvmlInit_v2");
	LOAD(count, "nvmlDeviceGetCount_v2");
	LOAD(nvml_version, "nvmlSystemGetNVMLVersion");
	LOAD(driver, "nvmlSystemGetDriverVersion");
	CHECK_INT(init(), 18);
	CHECK_INT(count(&n), 1);
	CHECK_INT(driver(buf, sizeof(buf)), 1);
	CHECK_INT(nvml_version(buf, sizeof(buf)), 0);
	CHECK_STR(buf, "12.570.124");
}

/* ---- CUDA ------------------------------------------------------------- */

typedef int (*cu_u)(unsigned);
typedef int (*cu_pi)(int *);
typedef int (*cu_get)(int *, int);
typedef int (*cu_name)(char *, int, int);
typedef int (*cu_uuid)(unsigned char *, int);
typedef int (*cu_attr)(int *, int, int);
typedef int (*cu_mem)(size_t *, int);
typedef int (*cu_retain)(void **, int);
typedef int (*cu_set)(void *);
typedef int (*cu_info)(size_t *, size_t *);
typedef int (*cu_errname)(int, const char **);

static cu_u cu_init;
static cu_pi cu_count, cu_version;
static cu_name cu_devname, cu_busid;
static cu_uuid cu_uuid1, cu_uuid2;
static cu_attr cu_attribute;

static void cuda_open(const char *fixture)
{
	use_machine(fixture);
	lib = open_lib("libcuda.so.1");
	if (!lib)
		exit(1);
	LOAD(cu_init, "cuInit");
	LOAD(cu_count, "cuDeviceGetCount");
	LOAD(cu_version, "cuDriverGetVersion");
	LOAD(cu_devname, "cuDeviceGetName");
	LOAD(cu_busid, "cuDeviceGetPCIBusId");
	LOAD(cu_uuid1, "cuDeviceGetUuid");
	LOAD(cu_uuid2, "cuDeviceGetUuid_v2");
	LOAD(cu_attribute, "cuDeviceGetAttribute");
}

/* The names CUDA sees, comma-joined, or "init=N". */
static void cuda_names(char *out, size_t outsz)
{
	int rc = cu_init(0), n = 0;

	out[0] = '\0';
	if (rc) {
		snprintf(out, outsz, "init=%d", rc);
		return;
	}
	cu_count(&n);
	for (int i = 0; i < n; i++) {
		char name[96];

		cu_devname(name, sizeof(name), i);
		if (i)
			strncat(out, ",", outsz - strlen(out) - 1);
		strncat(out, name, outsz - strlen(out) - 1);
	}
}

static void cuda_basics(void)
{
	cu_get get;
	cu_mem total, total_v2;
	cu_retain retain;
	cu_set set_current;
	cu_info mem_info;
	cu_errname errname, errstring;
	int n = -1, v = 0;
	size_t free_b = 0, total_b = 0;
	void *ctx = NULL;
	char buf[64];
	unsigned char u[16];
	const char *s;

	unsetenv("CUDA_VISIBLE_DEVICES");
	unsetenv("CUDA_DEVICE_ORDER");
	cuda_open("fake_mixed.json");
	LOAD(get, "cuDeviceGet");
	LOAD(total, "cuDeviceTotalMem");
	LOAD(total_v2, "cuDeviceTotalMem_v2");
	LOAD(retain, "cuDevicePrimaryCtxRetain");
	LOAD(set_current, "cuCtxSetCurrent");
	LOAD(mem_info, "cuMemGetInfo_v2");
	LOAD(errname, "cuGetErrorName");
	LOAD(errstring, "cuGetErrorString");

	CHECK_INT(cu_version(&v), 0);             /* before cuInit */
	CHECK_INT(v, 12040);
	CHECK_INT(cu_count(&n), 3);               /* NOT_INITIALIZED */
	CHECK_INT(cu_init(0), 0);
	CHECK_INT(cu_count(&n), 0);
	CHECK_INT(n, 2);                          /* the lost GPU is gone */
	CHECK_INT(get(&v, 1), 0);
	CHECK_INT(get(&v, 2), 101);
	/* FASTEST_FIRST by default: CC 9.0 before 7.5. */
	CHECK_INT(cu_devname(buf, sizeof(buf), 0), 0);
	CHECK_STR(buf, "NVIDIA H100 80GB HBM3");
	CHECK_INT(cu_devname(buf, 6, 1), 0);      /* truncates */
	CHECK_STR(buf, "Tesla");
	CHECK_INT(cu_busid(buf, sizeof(buf), 0), 0);
	CHECK_STR(buf, "0000:3B:00.0");
	CHECK_INT(cu_uuid2(u, 0), 0);
	CHECK(u[0] == 0xaa && u[4] == 0xbb && u[15] == 0xee);
	CHECK_INT(cu_attribute(&v, 75, 0), 0);
	CHECK_INT(v, 9);
	CHECK_INT(cu_attribute(&v, 76, 1), 0);
	CHECK_INT(v, 5);
	CHECK_INT(cu_attribute(&v, 16, 0), 0);
	CHECK_INT(v, 132);
	CHECK_INT(cu_attribute(&v, 33, 1), 0);
	CHECK_INT(v, 0x18);
	CHECK_INT(cu_attribute(&v, 50, 1), 0);
	CHECK_INT(v, 0);
	CHECK_INT(cu_attribute(&v, 13, 1), 0);
	CHECK_INT(v, 1590000);
	CHECK_INT(cu_attribute(&v, 36, 1), 0);
	CHECK_INT(v, 5001000);
	CHECK_INT(cu_attribute(&v, 37, 1), 0);
	CHECK_INT(v, 256);
	CHECK_INT(cu_attribute(&v, 38, 1), 0);
	CHECK_INT(v, 4194304);
	CHECK_INT(cu_attribute(&v, 37, 0), 801);  /* not in machine.json */
	CHECK_INT(cu_attribute(&v, 9999, 0), 1);
	CHECK_INT(cu_attribute(&v, 75, 7), 101);
	CHECK_INT(total(&total_b, 1), 0);
	CHECK(total_b == 16106127360ULL);
	CHECK_INT(total_v2(&total_b, 0), 0);
	CHECK(total_b == 85520809984ULL);

	CHECK_INT(mem_info(&free_b, &total_b), 201);   /* no context */
	CHECK_INT(retain(&ctx, 1), 0);
	CHECK(ctx != NULL);
	CHECK_INT(set_current(ctx), 0);
	CHECK_INT(mem_info(&free_b, &total_b), 0);
	CHECK(total_b == 16106127360ULL);
	CHECK(free_b == 16106127360ULL - 262144000ULL - 1048576ULL);
	CHECK_INT(set_current(&n), 201);

	CHECK_INT(errname(100, &s), 0);
	CHECK_STR(s, "CUDA_ERROR_NO_DEVICE");
	CHECK_INT(errname(0, &s), 0);
	CHECK_STR(s, "CUDA_SUCCESS");
	CHECK_INT(errname(12345, &s), 1);
	CHECK_INT(errstring(100, &s), 0);
	CHECK_STR(s, "no CUDA-capable device is detected");
}

struct cvd_case {
	const char *fixture, *order, *cvd, *want;
};

static const struct cvd_case cvd_cases[] = {
	{ "fake_mixed.json", "PCI_BUS_ID", NULL, "Tesla T4,NVIDIA H100 80GB HBM3" },
	{ "fake_mixed.json", "FASTEST_FIRST", "1,0", "Tesla T4,NVIDIA H100 80GB HBM3" },
	{ "fake_mixed.json", NULL, "0,7,1", "NVIDIA H100 80GB HBM3" },
	{ "fake_mixed.json", NULL, "1, 0", "Tesla T4,NVIDIA H100 80GB HBM3" },
	{ "fake_mixed.json", "PCI_BUS_ID", "1", "NVIDIA H100 80GB HBM3" },
	{ "fake_mixed.json", NULL, "GPU-1111", "Tesla T4" },
	{ "fake_mixed.json", NULL, "gpu-AAAA,GPU-1", "NVIDIA H100 80GB HBM3,Tesla T4" },
	{ "fake_mixed.json", NULL, "MIG-fedc,0", "NVIDIA H100 80GB HBM3 MIG 3g.40gb,NVIDIA H100 80GB HBM3" },
	{ "fake_mixed.json", NULL, "0,0,1", "NVIDIA H100 80GB HBM3" },
	{ "fake_mixed.json", NULL, "-1,0", "init=100" },
	{ "fake_mixed.json", NULL, "", "init=100" },
	{ "fake_mixed.json", NULL, "GPU-9999", "init=100" },        /* the lost GPU */
	{ "fake_mixed.json", NULL, "GPU-", "init=100" },
	{ "fake_mixed.json", NULL, "2", "init=100" },
	{ "fake_mixed.json", NULL, "MIG-", "init=100" },
	{ "fake_order.json", NULL, NULL, "GPU C,GPU A,GPU B" },
	{ "fake_order.json", "PCI_BUS_ID", NULL, "GPU A,GPU B,GPU C" },
	{ "fake_order.json", "PCI_BUS_ID", "2,GPU-a", "GPU C,GPU A" },
	{ "fake_init_fail.json", NULL, NULL, "init=803" },
};

static size_t cvd_index;

static void cuda_visible_one(void)
{
	const struct cvd_case *c = &cvd_cases[cvd_index];
	char names[512];

	if (c->order)
		setenv("CUDA_DEVICE_ORDER", c->order, 1);
	else
		unsetenv("CUDA_DEVICE_ORDER");
	if (c->cvd)
		setenv("CUDA_VISIBLE_DEVICES", c->cvd, 1);
	else
		unsetenv("CUDA_VISIBLE_DEVICES");
	cuda_open(c->fixture);
	cuda_names(names, sizeof(names));
	if (strcmp(names, c->want))
		fprintf(stderr, "  %s order=%s CUDA_VISIBLE_DEVICES=%s\n", c->fixture,
			c->order ? c->order : "(unset)", c->cvd ? c->cvd : "(unset)");
	CHECK_STR(names, c->want);
}

static void cuda_mig_uuid(void)
{
	unsigned char u[16];
	int v;

	unsetenv("CUDA_DEVICE_ORDER");
	setenv("CUDA_VISIBLE_DEVICES", "MIG-0123abcd", 1);
	cuda_open("fake_mixed.json");
	CHECK_INT(cu_init(0), 0);
	CHECK_INT(cu_uuid2(u, 0), 0);             /* the MIG device's own */
	CHECK(u[0] == 0x01 && u[1] == 0x23 && u[15] == 0xab);
	CHECK_INT(cu_uuid1(u, 0), 0);             /* v1 names the GPU */
	CHECK(u[0] == 0xaa);
	CHECK_INT(cu_attribute(&v, 16, 0), 0);
	CHECK_INT(v, 60);
	CHECK_INT(cu_attribute(&v, 75, 0), 0);
	CHECK_INT(v, 9);
}

static void cuda_init_fail_version(void)
{
	int v = 0;

	cuda_open("fake_init_fail.json");
	CHECK_INT(cu_init(0), 803);
	CHECK_INT(cu_init(0), 803);               /* sticky */
	CHECK_INT(cu_count(&v), 3);
	CHECK_INT(cu_version(&v), 0);
	CHECK_INT(v, 12080);
}

static void cuda_bad_machine(void)
{
	char out[512];
	char tmpl[] = "/tmp/gw-fake-XXXXXX";
	int fd, saved;
	ssize_t n;

	use_machine("fake_bad_json.json");
	cuda_open("fake_bad_json.json");
	fd = mkstemp(tmpl);
	saved = dup(2);
	unlink(tmpl);
	dup2(fd, 2);
	CHECK_INT(cu_init(0), 999);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, out, sizeof(out) - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	CHECK(strncmp(out, "fake cuda: ", 11) == 0);
	CHECK_INT(count_lines(out), 1);
}

/* GPM with nvml.h's layouts: nvmlGpmSupport_t (8 bytes), nvmlGpmMetric_t
 * (40) and nvmlGpmMetricsGet_t (24 + 210 x 40), declared here from the
 * header independently of the fake's own. */
struct gpm_metric {
	unsigned id;
	int ret;
	double value;
	char *short_name, *long_name, *unit;
};
struct gpm_get {
	unsigned version, count;
	void *sample1, *sample2;
	struct gpm_metric m[210];
};
_Static_assert(sizeof(struct gpm_metric) == 40, "nvmlGpmMetric_t");
_Static_assert(sizeof(struct gpm_get) == 8424, "nvmlGpmMetricsGet_t");
typedef int (*fn_gpm_support)(dev_t_, unsigned *);
typedef int (*fn_gpm_alloc)(void **);
typedef int (*fn_gpm_free)(void *);
typedef int (*fn_gpm_sample)(dev_t_, void *);
typedef int (*fn_gpm_metrics)(struct gpm_get *);

static void nvml_gpm(void)
{
	fn_gpm_support support;
	fn_gpm_alloc alloc;
	fn_gpm_free release;
	fn_gpm_sample sample;
	fn_gpm_metrics metrics;
	unsigned sup[2];
	void *a = NULL, *b = NULL;
	static struct gpm_get g;

	nvml_open_mixed();
	LOAD(support, "nvmlGpmQueryDeviceSupport");
	LOAD(alloc, "nvmlGpmSampleAlloc");
	LOAD(release, "nvmlGpmSampleFree");
	LOAD(sample, "nvmlGpmSampleGet");
	LOAD(metrics, "nvmlGpmMetricsGet");
	CHECK(support && alloc && release && sample && metrics);
	/* the T4 (architecture 6) has none, the H100 (9) has it */
	sup[0] = 1, sup[1] = 7;
	CHECK_INT(support(h0, sup), 0);
	CHECK_INT(sup[1], 0);
	sup[1] = 7;
	CHECK_INT(support(h1, sup), 0);
	CHECK_INT(sup[1], 1);
	sup[0] = 2;
	CHECK_INT(support(h1, sup), 25); /* ARGUMENT_VERSION_MISMATCH */
	CHECK_INT(alloc(&a), 0);
	CHECK_INT(alloc(&b), 0);
	CHECK_INT(sample(h0, a), 3); /* NOT_SUPPORTED */
	g.version = 1, g.count = 3, g.sample1 = a, g.sample2 = b;
	g.m[0].id = 2, g.m[1].id = 20, g.m[2].id = 5; /* SM_UTIL, PCIE_TX_PER_SEC, ANY_TENSOR_UTIL */
	CHECK_INT(metrics(&g), 2); /* samples not taken yet */
	CHECK_INT(sample(h1, a), 0);
	CHECK_INT(sample(h1, b), 0);
	g.version = 2;
	CHECK_INT(metrics(&g), 25);
	g.version = 1, g.sample1 = b, g.sample2 = a;
	CHECK_INT(metrics(&g), 2); /* sample2 before sample1 */
	g.sample1 = a, g.sample2 = b;
	CHECK_INT(metrics(&g), 0);
	CHECK_INT(g.m[0].ret, 0);
	CHECK(g.m[0].value == 40.0);
	CHECK(g.m[0].unit && !strcmp(g.m[0].unit, "%"));
	CHECK_INT(g.m[1].ret, 0);
	CHECK(g.m[1].value == 3.0);
	CHECK_INT(g.m[2].ret, 3); /* no any_tensor_util in the machine */
	CHECK_INT(g.m[3].id, 0);  /* past numMetrics: untouched */
	CHECK_INT(metrics(&g), 0);
	CHECK(g.m[0].value == 50.0); /* the sequence advances per call */
	CHECK_INT(release(a), 0);
	CHECK_INT(release(b), 0);
}

int main(void)
{
	find_paths();
	scenario("symbols", nvml_symbols);
	scenario("init refcount", nvml_init_refcount);
	scenario("handles and strings", nvml_handles_and_strings);
	scenario("struct layouts", nvml_layouts);
	scenario("getters", nvml_getters);
	scenario("processes", nvml_processes);
	scenario("MIG", nvml_mig);
	scenario("GPM", nvml_gpm);
	scenario("init fails", nvml_init_fails);
	scenario("bad type", bad_type);
	scenario("bad json", bad_json);
	scenario("bad number", bad_number);
	scenario("peers", nvml_peers);
	scenario("bad p2p", bad_p2p);
	scenario("unset", bad_unset);
	scenario("cuda basics", cuda_basics);
	scenario("cuda MIG uuid", cuda_mig_uuid);
	scenario("cuda init fails", cuda_init_fail_version);
	scenario("cuda bad machine", cuda_bad_machine);
	for (cvd_index = 0; cvd_index < sizeof(cvd_cases) / sizeof(cvd_cases[0]); cvd_index++)
		scenario(cvd_cases[cvd_index].cvd ? cvd_cases[cvd_index].cvd : "(order)", cuda_visible_one);
	return CHECK_DONE();
}
