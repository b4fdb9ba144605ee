/* gpuwise — fake libnvidia-ml.so.1 serving a machine.json (docs/contracts.md "Fake machines").
 *
 * Modelled:
 *  - the C ABI of the calls gpuwise, pynvml, gpustat and nvitop make (NVIDIA's
 *    nvml.h, and the calls the clients' sources make): versioned and unversioned symbols,
 *    struct layouts, return codes, INSUFFICIENT_SIZE handshakes for strings,
 *    process lists, retired pages and process-utilisation samples;
 *  - refcounted nvmlInit* and nvmlShutdown; everything but nvmlErrorString and
 *    nvmlSystemGetNVMLVersion (documented without UNINITIALIZED; nvidia-smi
 *    prints it after a failed init) answers UNINITIALIZED before init;
 *  - nvml.init forcing an init failure; a broken machine.json makes init
 *    answer UNKNOWN after one line on stderr;
 *  - per-device "errors" (by function name, "_vN" optional, "*" = every
 *    device call including the handle lookups), sequences of values that
 *    advance per device and per call, "$SLEEPER" pids, MIG devices with
 *    distinct handles, nvmlMemory_v2_t versions 0x02000028 and 2 (nvtop);
 *  - Xid events: event sets, registration and nvmlEventSetWait_v2 deliver
 *    each device's "xid_events" once, when due (other event types are
 *    accepted and never fire).
 *
 *  - GPM (nvmlGpmQueryDeviceSupport, nvmlGpmSampleAlloc/Free,
 *    nvmlGpmSampleGet, nvmlGpmMetricsGet with nvml.h's structures): on
 *    GPUs of architecture 9 (Hopper) and newer, each metric from the
 *    device's "gpm" block; nvmlGpmMetricsGet checks the version words, the
 *    samples (allocated, taken, of one device, in order) and numMetrics.
 *
 *  - topology and peer access between GPUs: each device's "topology" and
 *    "p2p" lists, by peer NVML index, serve
 *    nvmlDeviceGetTopologyCommonAncestor and nvmlDeviceGetP2PStatus
 *    ("errors" of the first device apply; MIG handles: NOT_SUPPORTED).
 *
 * NVLink: per-link state (nvmlDeviceGetNvLinkState) and data counters
 * (field values NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX/RX, scopeId = link)
 * from "nvlinks"; other field values answer NOT_SUPPORTED per field,
 * except the memory temperature.
 * Not modelled: NVLink errors, speeds and remote ends, vGPU, accounting, setters (all absent, so
 * clients see FUNCTION_NOT_FOUND), GPM of MIG instances, NVML units, confidential computing
 * (nvmlDeviceGetConfComputeMemSizeInfo is deliberately absent: nvitop would
 * then read 32-byte process entries, §0.2), the nearest-GPU and CPU-set
 * topology calls, clock offsets.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "machine.h"
#include "nvml_types.h"

/* Declares the prototype (for -Wmissing-prototypes) and exports the symbol. */
#define API(name, args) \
	nvmlReturn_t name args; \
	__attribute__((visibility("default"))) nvmlReturn_t name args

#define WHO "fake nvml"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_count;
static const fm_machine *machine;

static int initialized(void)
{
	int n;

	pthread_mutex_lock(&init_lock);
	n = init_count;
	pthread_mutex_unlock(&init_lock);
	return n > 0;
}

/* ---- init ------------------------------------------------------------- */

static nvmlReturn_t do_init(void)
{
	const fm_machine *m = fm_machine_get(WHO);
	nvmlReturn_t rc = NVML_SUCCESS;

	if (!m)
		return NVML_ERROR_UNKNOWN;
	pthread_mutex_lock(&init_lock);
	if (m->nvml_init)
		rc = (nvmlReturn_t)m->nvml_init;
	else {
		machine = m;
		init_count++;
	}
	pthread_mutex_unlock(&init_lock);
	return rc;
}

API(nvmlInit, (void)) { return do_init(); }
API(nvmlInit_v2, (void)) { return do_init(); }
API(nvmlInitWithFlags, (unsigned int flags)) { (void)flags; return do_init(); }

API(nvmlShutdown, (void))
{
	nvmlReturn_t rc = NVML_SUCCESS;

	pthread_mutex_lock(&init_lock);
	if (init_count > 0)
		init_count--;
	else
		rc = NVML_ERROR_UNINITIALIZED;
	pthread_mutex_unlock(&init_lock);
	return rc;
}

static const struct {
	int code;
	const char *text;
} error_texts[] = {
	{ 0, "Success" }, { 1, "Uninitialized" }, { 2, "Invalid Argument" }, { 3, "Not Supported" },
	{ 4, "Insufficient Permissions" }, { 5, "Already Initialized" }, { 6, "Not Found" },
	{ 7, "Insufficient Size" }, { 8, "Insufficient External Power" }, { 9, "Driver Not Loaded" },
	{ 10, "Timeout" }, { 11, "Interrupt request issue" }, { 12, "NVML Shared Library Not Found" },
	{ 13, "Function Not Found" }, { 14, "Corrupted infoROM" }, { 15, "GPU is lost" },
	{ 16, "GPU requires restart" }, { 17, "The operating system has blocked the request." },
	{ 18, "RM has detected an NVML/RM version mismatch." }, { 19, "In use by another client" },
	{ 20, "Insufficient Memory" }, { 21, "No data" },
	{ 22, "The requested vgpu operation is not available on target device, becasue ECC is enabled" },
	{ 23, "Ran out of critical resources, other than memory" }, { 24, "Frequency not supported" },
	{ 25, "Argument version mismatch" }, { 26, "Deprecated" }, { 27, "Not ready" },
	{ 28, "GPU not found" }, { 29, "Invalid state" }, { 30, "Reset type not supported" },
	{ 999, "Unknown Error" },
};

const char *nvmlErrorString(nvmlReturn_t result);
__attribute__((visibility("default"))) const char *nvmlErrorString(nvmlReturn_t result)
{
	for (size_t i = 0; i < sizeof(error_texts) / sizeof(error_texts[0]); i++)
		if (error_texts[i].code == (int)result)
			return error_texts[i].text;
	return "Unknown Error";
}

/* ---- helpers ---------------------------------------------------------- */

static nvmlReturn_t put_str(const char *s, char *buf, unsigned int len)
{
	size_t n;

	if (!s)
		return NVML_ERROR_NOT_SUPPORTED;
	if (!buf)
		return NVML_ERROR_INVALID_ARGUMENT;
	n = strlen(s);
	if (n + 1 > len)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	memcpy(buf, s, n + 1);
	return NVML_SUCCESS;
}

static fm_device *find_handle(nvmlDevice_t h)
{
	const fm_device *p = (const fm_device *)(void *)h;

	if (!h || !machine)
		return NULL;
	for (size_t i = 0; i < machine->ndevices; i++) {
		const fm_device *d = &machine->devices[i];

		if (p == d)
			return (fm_device *)d;
		for (size_t j = 0; j < d->nmig; j++)
			if (p == &d->mig[j])
				return (fm_device *)p;
	}
	return NULL;
}

static nvmlDevice_t as_handle(const fm_device *d)
{
	return (nvmlDevice_t)(void *)d;
}

/* The error "errors" imposes on call idx of fn, a MIG device also
 * inheriting its parent's "*". */
static nvmlReturn_t imposed(const fm_device *d, const char *fn, unsigned idx)
{
	int rc = fm_error_for(d, fn, idx);

	if (!rc && d->parent)
		rc = fm_error_for(d->parent, "*", idx);
	return (nvmlReturn_t)rc;
}

/* Every device call starts here: init, handle, call counter, errors. */
static nvmlReturn_t dev_begin(nvmlDevice_t h, const char *fn, int sub, fm_device **d, unsigned *idx)
{
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	*d = find_handle(h);
	if (!*d)
		return NVML_ERROR_INVALID_ARGUMENT;
	*idx = fm_tick(machine, *d, fn, sub);
	return imposed(*d, fn, *idx);
}

#define BEGIN_FN(h, fn, sub) \
	fm_device *d; \
	unsigned idx; \
	nvmlReturn_t rc_ = dev_begin((h), (fn), (sub), &d, &idx); \
	if (rc_ != NVML_SUCCESS) \
		return rc_
/* In an exported function: counts and matches "errors" under its name. */
#define BEGIN(h, sub) BEGIN_FN(h, __func__, sub)

static int have(const fm_device *d, enum fm_num_id id)
{
	return fm_field(d, id)->set;
}

static long long val(const fm_device *d, enum fm_num_id id, unsigned idx)
{
	return fm_at(fm_field(d, id), idx);
}

static unsigned int u32(long long v)
{
	return v < 0 ? 0u : v > 0xffffffffLL ? 0xffffffffu : (unsigned int)v;
}

/* One numeric field of one device, the call counted (arrays advance). */
static nvmlReturn_t get_num(nvmlDevice_t h, const char *fn, int sub, enum fm_num_id id, const void *out,
			    long long *v)
{
	fm_device *d;
	unsigned idx;
	nvmlReturn_t rc = dev_begin(h, fn, sub, &d, &idx);

	if (rc)
		return rc;
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, id))
		return NVML_ERROR_NOT_SUPPORTED;
	*v = val(d, id, idx);
	return NVML_SUCCESS;
}

static nvmlReturn_t get_u32(nvmlDevice_t h, const char *fn, int sub, enum fm_num_id id, unsigned int *out)
{
	long long v;
	nvmlReturn_t rc = get_num(h, fn, sub, id, out, &v);

	if (rc == NVML_SUCCESS)
		*out = u32(v);
	return rc;
}

static nvmlReturn_t get_u64(nvmlDevice_t h, const char *fn, int sub, enum fm_num_id id,
			    unsigned long long *out)
{
	long long v;
	nvmlReturn_t rc = get_num(h, fn, sub, id, out, &v);

	if (rc == NVML_SUCCESS)
		*out = (unsigned long long)v;
	return rc;
}

static nvmlReturn_t get_str(nvmlDevice_t h, const char *fn, enum fm_str_id id, char *buf, unsigned int len)
{
	BEGIN_FN(h, fn, 0);
	return put_str(fm_str(d, id), buf, len);
}

static unsigned long long now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (unsigned long long)tv.tv_sec * 1000000ULL + (unsigned long long)tv.tv_usec;
}

/* ---- system ----------------------------------------------------------- */

API(nvmlSystemGetDriverVersion, (char *version, unsigned int length))
{
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	return put_str(machine->driver_version, version, length);
}

API(nvmlSystemGetNVMLVersion, (char *version, unsigned int length))
{
	const fm_machine *m = fm_machine_get(WHO);

	if (!m)
		return NVML_ERROR_UNKNOWN;
	return put_str(m->nvml_version, version, length);
}

/* v2 asks libcuda (cuda.driver_version, defaulting to nvml's). */
static nvmlReturn_t cuda_version(int v2, int *out)
{
	const fm_num *f;

	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	f = v2 ? &machine->cuda_version : &machine->cuda_driver_version;
	if (!f->set)
		return v2 ? NVML_ERROR_LIBRARY_NOT_FOUND : NVML_ERROR_NOT_SUPPORTED;
	*out = (int)fm_at(f, 0);
	return NVML_SUCCESS;
}

API(nvmlSystemGetCudaDriverVersion, (int *v)) { return cuda_version(0, v); }
API(nvmlSystemGetCudaDriverVersion_v2, (int *v)) { return cuda_version(1, v); }

static const fm_process *find_process(unsigned int pid)
{
	for (size_t i = 0; i < machine->ndevices; i++) {
		const fm_device *d = &machine->devices[i];

		for (size_t j = 0; j <= d->nmig; j++) {
			const fm_device *x = j ? &d->mig[j - 1] : d;

			for (int k = 0; k < FM_PROC_KINDS; k++)
				for (size_t n = 0; n < x->procs[k].n; n++)
					if (fm_process_pid(&x->procs[k].p[n]) == (int64_t)pid)
						return &x->procs[k].p[n];
		}
	}
	return NULL;
}

/* The name machine.json gives, else argv[0] from /proc as NVML does. */
API(nvmlSystemGetProcessName, (unsigned int pid, char *name, unsigned int length))
{
	const fm_process *p;
	char path[64], buf[256];
	FILE *f;
	size_t n;

	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!name || !length)
		return NVML_ERROR_INVALID_ARGUMENT;
	p = find_process(pid);
	if (p && p->name)
		return put_str(p->name, name, length);
	snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
	f = fopen(path, "rb");
	if (!f)
		return NVML_ERROR_NOT_FOUND;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (!n)
		return NVML_ERROR_NOT_FOUND;
	/* NVML truncates rather than failing here. */
	snprintf(name, length, "%s", buf);
	return NVML_SUCCESS;
}

API(nvmlUnitGetCount, (unsigned int *count))
{
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	*count = 0;
	return NVML_SUCCESS;
}

/* ---- device enumeration ----------------------------------------------- */

static nvmlReturn_t get_count(unsigned int *count)
{
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	*count = (unsigned int)machine->ndevices;   /* lost GPUs still count */
	return NVML_SUCCESS;
}

API(nvmlDeviceGetCount, (unsigned int *count)) { return get_count(count); }
API(nvmlDeviceGetCount_v2, (unsigned int *count)) { return get_count(count); }

/* Hands out d after applying its "errors" for the lookup call fn. */
static nvmlReturn_t give_handle(const fm_device *d, const char *fn, nvmlDevice_t *out)
{
	nvmlReturn_t rc = imposed(d, fn, fm_tick(machine, d, fn, 0));

	if (rc)
		return rc;
	*out = as_handle(d);
	return NVML_SUCCESS;
}

static nvmlReturn_t by_index(const char *fn, unsigned int index, nvmlDevice_t *out)
{
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!out || index >= machine->ndevices)
		return NVML_ERROR_INVALID_ARGUMENT;
	return give_handle(&machine->devices[index], fn, out);
}

API(nvmlDeviceGetHandleByIndex, (unsigned int i, nvmlDevice_t *out)) { return by_index(__func__, i, out); }
API(nvmlDeviceGetHandleByIndex_v2, (unsigned int i, nvmlDevice_t *out)) { return by_index(__func__, i, out); }

/* Finds a GPU or MIG device whose string field id equals s. */
static const fm_device *find_by_str(enum fm_str_id id, const char *s)
{
	for (size_t i = 0; i < machine->ndevices; i++) {
		const fm_device *d = &machine->devices[i];

		if (d->str[id] && strcmp(d->str[id], s) == 0)
			return d;
		for (size_t j = 0; j < d->nmig; j++)
			if (d->mig[j].str[id] && strcmp(d->mig[j].str[id], s) == 0)
				return &d->mig[j];
	}
	return NULL;
}

static nvmlReturn_t by_str(const char *fn, enum fm_str_id id, const char *s, nvmlDevice_t *out)
{
	const fm_device *d;

	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!s || !out)
		return NVML_ERROR_INVALID_ARGUMENT;
	d = find_by_str(id, s);
	if (!d)
		return NVML_ERROR_NOT_FOUND;
	return give_handle(d, fn, out);
}

API(nvmlDeviceGetHandleByUUID, (const char *uuid, nvmlDevice_t *out))
{
	return by_str(__func__, FS_UUID, uuid, out);
}

API(nvmlDeviceGetHandleBySerial, (const char *serial, nvmlDevice_t *out))
{
	return by_str(__func__, FS_SERIAL, serial, out);
}

/* Accepts "00000000:18:00.0", "0000:18:00.0" and "18:00.0", any case. */
static int parse_bus_id(const char *s, unsigned *dom, unsigned *bus, unsigned *dev)
{
	unsigned fn;
	char tail;

	if (sscanf(s, "%x:%x:%x.%x%c", dom, bus, dev, &fn, &tail) == 4)
		return 0;
	*dom = 0;
	if (sscanf(s, "%x:%x.%x%c", bus, dev, &fn, &tail) == 3)
		return 0;
	return -1;
}

static nvmlReturn_t by_bus_id(const char *fn, const char *bus_id, nvmlDevice_t *out)
{
	unsigned dom, bus, dev;

	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!bus_id || !out || parse_bus_id(bus_id, &dom, &bus, &dev))
		return NVML_ERROR_INVALID_ARGUMENT;
	for (size_t i = 0; i < machine->ndevices; i++) {
		const fm_device *d = &machine->devices[i];
		unsigned dd, db, ds;

		if (!d->str[FS_BUS_ID] || parse_bus_id(d->str[FS_BUS_ID], &dd, &db, &ds))
			continue;
		if (dd == dom && db == bus && ds == dev)
			return give_handle(d, fn, out);
	}
	return NVML_ERROR_NOT_FOUND;
}

API(nvmlDeviceGetHandleByPciBusId, (const char *b, nvmlDevice_t *out)) { return by_bus_id(__func__, b, out); }
API(nvmlDeviceGetHandleByPciBusId_v2, (const char *b, nvmlDevice_t *out)) { return by_bus_id(__func__, b, out); }

API(nvmlDeviceGetIndex, (nvmlDevice_t h, unsigned int *index))
{
	BEGIN(h, 0);
	if (!index)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->parent)
		return NVML_ERROR_NOT_SUPPORTED;   /* MIG devices have no NVML index */
	*index = (unsigned int)d->index;
	return NVML_SUCCESS;
}

/* ---- identity --------------------------------------------------------- */

API(nvmlDeviceGetName, (nvmlDevice_t h, char *b, unsigned int n)) { return get_str(h, __func__, FS_NAME, b, n); }
API(nvmlDeviceGetUUID, (nvmlDevice_t h, char *b, unsigned int n)) { return get_str(h, __func__, FS_UUID, b, n); }
API(nvmlDeviceGetSerial, (nvmlDevice_t h, char *b, unsigned int n)) { return get_str(h, __func__, FS_SERIAL, b, n); }
API(nvmlDeviceGetBoardPartNumber, (nvmlDevice_t h, char *b, unsigned int n)) { return get_str(h, __func__, FS_PART, b, n); }
API(nvmlDeviceGetVbiosVersion, (nvmlDevice_t h, char *b, unsigned int n)) { return get_str(h, __func__, FS_VBIOS, b, n); }

API(nvmlDeviceGetMinorNumber, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_MINOR, v); }
API(nvmlDeviceGetArchitecture, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_ARCH, v); }
API(nvmlDeviceGetNumGpuCores, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_CORES, v); }

API(nvmlDeviceGetCudaComputeCapability, (nvmlDevice_t h, int *major, int *minor))
{
	BEGIN(h, 0);
	if (!major || !minor)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, FN_CC_MAJOR) || !have(d, FN_CC_MINOR))
		return NVML_ERROR_NOT_SUPPORTED;
	*major = (int)val(d, FN_CC_MAJOR, idx);
	*minor = (int)val(d, FN_CC_MINOR, idx);
	return NVML_SUCCESS;
}

/* version 1 wrote only the first 36 bytes (then 16 reserved); v2/v3 all 68. */
static nvmlReturn_t pci_info(nvmlDevice_t h, const char *fn, int full, nvmlPciInfo_t *out)
{
	nvmlPciInfo_t p;
	const char *bus_id;

	BEGIN_FN(h, fn, 0);
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	bus_id = fm_str(d, FS_BUS_ID);
	if (!bus_id)
		return NVML_ERROR_NOT_SUPPORTED;
	memset(&p, 0, sizeof(p));
	p.domain = u32(val(d, FN_PCI_DOMAIN, idx));
	p.bus = u32(val(d, FN_PCI_BUS, idx));
	p.device = u32(val(d, FN_PCI_DEVICE, idx));
	p.pciDeviceId = u32(val(d, FN_PCI_DEVICE_ID, idx));
	p.pciSubSystemId = u32(val(d, FN_PCI_SUBSYS_ID, idx));
	snprintf(p.busIdLegacy, sizeof(p.busIdLegacy), "%04X:%02X:%02X.0",
		 p.domain & 0xffff, p.bus & 0xff, p.device & 0xff);
	snprintf(p.busId, sizeof(p.busId), "%s", bus_id);
	memcpy(out, &p, full ? sizeof(p) : offsetof(nvmlPciInfo_t, busId));
	return NVML_SUCCESS;
}

API(nvmlDeviceGetPciInfo, (nvmlDevice_t h, nvmlPciInfo_t *p)) { return pci_info(h, __func__, 0, p); }
API(nvmlDeviceGetPciInfo_v2, (nvmlDevice_t h, nvmlPciInfo_t *p)) { return pci_info(h, __func__, 1, p); }
API(nvmlDeviceGetPciInfo_v3, (nvmlDevice_t h, nvmlPciInfo_t *p)) { return pci_info(h, __func__, 1, p); }

API(nvmlDeviceGetPciInfoExt, (nvmlDevice_t h, nvmlPciInfoExt_t *out))
{
	const char *bus_id;

	BEGIN(h, 0);
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (out->version != NVML_STRUCT_VERSION(sizeof(*out), 1) && out->version != 1)
		return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
	bus_id = fm_str(d, FS_BUS_ID);
	if (!bus_id)
		return NVML_ERROR_NOT_SUPPORTED;
	out->domain = u32(val(d, FN_PCI_DOMAIN, idx));
	out->bus = u32(val(d, FN_PCI_BUS, idx));
	out->device = u32(val(d, FN_PCI_DEVICE, idx));
	out->pciDeviceId = u32(val(d, FN_PCI_DEVICE_ID, idx));
	out->pciSubSystemId = u32(val(d, FN_PCI_SUBSYS_ID, idx));
	out->baseClass = 0x03;                                   /* display controller */
	out->subClass = val(d, FN_DISPLAY_MODE, idx) ? 0x00 : 0x02;  /* VGA : 3D */
	snprintf(out->busId, sizeof(out->busId), "%s", bus_id);
	return NVML_SUCCESS;
}

/* ---- memory ----------------------------------------------------------- */

typedef struct {
	unsigned long long total, reserved, used, free;
} mem_view;

/* memory.used excludes memory.reserved (nvmlMemory_v2_t meaning). */
static int memory_view(const fm_device *d, unsigned idx, mem_view *m)
{
	unsigned long long taken;

	if (!have(d, FN_MEM_TOTAL) || !have(d, FN_MEM_USED))
		return -1;
	m->total = (unsigned long long)val(d, FN_MEM_TOTAL, idx);
	m->reserved = (unsigned long long)val(d, FN_MEM_RESERVED, idx);  /* absent: 0 */
	m->used = (unsigned long long)val(d, FN_MEM_USED, idx);
	taken = m->reserved + m->used;
	m->free = taken > m->total ? 0 : m->total - taken;
	return 0;
}

API(nvmlDeviceGetMemoryInfo, (nvmlDevice_t h, nvmlMemory_t *out))
{
	mem_view m;

	BEGIN(h, 0);
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (memory_view(d, idx, &m))
		return NVML_ERROR_NOT_SUPPORTED;
	out->total = m.total;
	out->used = m.used + m.reserved;
	out->free = m.free;
	return NVML_SUCCESS;
}

API(nvmlDeviceGetMemoryInfo_v2, (nvmlDevice_t h, nvmlMemory_v2_t *out))
{
	mem_view m;

	BEGIN(h, 0);
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	/* nvtop passes a bare 2; accept it like the real library appears to. */
	if (out->version != NVML_STRUCT_VERSION(sizeof(*out), 2) && out->version != 2) {
		fm_untick(machine, d, __func__, 0);   /* a refused call reads nothing */
		return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
	}
	if (memory_view(d, idx, &m))
		return NVML_ERROR_NOT_SUPPORTED;
	out->total = m.total;
	out->reserved = m.reserved;
	out->used = m.used;
	out->free = m.free;
	return NVML_SUCCESS;
}

API(nvmlDeviceGetBAR1MemoryInfo, (nvmlDevice_t h, nvmlBAR1Memory_t *out))
{
	unsigned long long total, used;

	BEGIN(h, 0);
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, FN_BAR1_TOTAL) || !have(d, FN_BAR1_USED))
		return NVML_ERROR_NOT_SUPPORTED;
	total = (unsigned long long)val(d, FN_BAR1_TOTAL, idx);
	used = (unsigned long long)val(d, FN_BAR1_USED, idx);
	out->bar1Total = total;
	out->bar1Used = used;
	out->bar1Free = used > total ? 0 : total - used;
	return NVML_SUCCESS;
}

/* ---- utilisation, temperature, fan, power ----------------------------- */

API(nvmlDeviceGetUtilizationRates, (nvmlDevice_t h, nvmlUtilization_t *out))
{
	BEGIN(h, 0);
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, FN_UTIL_GPU) || !have(d, FN_UTIL_MEM))
		return NVML_ERROR_NOT_SUPPORTED;
	out->gpu = u32(val(d, FN_UTIL_GPU, idx));
	out->memory = u32(val(d, FN_UTIL_MEM, idx));
	return NVML_SUCCESS;
}

static nvmlReturn_t codec_util(nvmlDevice_t h, const char *fn, enum fm_num_id id,
			       unsigned int *util, unsigned int *period)
{
	nvmlReturn_t rc;

	if (!period && initialized())
		return NVML_ERROR_INVALID_ARGUMENT;
	rc = get_u32(h, fn, 0, id, util);
	if (rc == NVML_SUCCESS)
		*period = 167000;      /* µs, a typical sampling period */
	return rc;
}

API(nvmlDeviceGetEncoderUtilization, (nvmlDevice_t h, unsigned int *u, unsigned int *p))
{
	return codec_util(h, __func__, FN_ENC_UTIL, u, p);
}

API(nvmlDeviceGetDecoderUtilization, (nvmlDevice_t h, unsigned int *u, unsigned int *p))
{
	return codec_util(h, __func__, FN_DEC_UTIL, u, p);
}

API(nvmlDeviceGetTemperature, (nvmlDevice_t h, unsigned int sensor, unsigned int *out))
{
	BEGIN(h, (int)sensor);
	if (!out || sensor != 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, FN_TEMP_GPU))
		return NVML_ERROR_NOT_SUPPORTED;
	*out = u32(val(d, FN_TEMP_GPU, idx));
	return NVML_SUCCESS;
}

API(nvmlDeviceGetTemperatureV, (nvmlDevice_t h, nvmlTemperature_t *out))
{
	BEGIN(h, 0);
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (out->version != NVML_STRUCT_VERSION(sizeof(*out), 1) && out->version != 1) {
		fm_untick(machine, d, __func__, 0);
		return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
	}
	if (out->sensorType != 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, FN_TEMP_GPU))
		return NVML_ERROR_NOT_SUPPORTED;
	out->temperature = (int)val(d, FN_TEMP_GPU, idx);
	return NVML_SUCCESS;
}

/* Thresholds: 0 shutdown, 1 slowdown; the others are not modelled. */
API(nvmlDeviceGetTemperatureThreshold, (nvmlDevice_t h, unsigned int type, unsigned int *out))
{
	enum fm_num_id id = type == 0 ? FN_TEMP_SHUTDOWN : FN_TEMP_SLOWDOWN;

	if (type > 1) {
		BEGIN(h, (int)type);
		(void)d;
		return out ? NVML_ERROR_NOT_SUPPORTED : NVML_ERROR_INVALID_ARGUMENT;
	}
	return get_u32(h, __func__, (int)type, id, out);
}

API(nvmlDeviceGetFanSpeed, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_FAN, v); }

API(nvmlDeviceGetFanSpeed_v2, (nvmlDevice_t h, unsigned int fan, unsigned int *v))
{
	if (fan != 0) {
		BEGIN(h, (int)fan);
		(void)d;
		return NVML_ERROR_INVALID_ARGUMENT;
	}
	return get_u32(h, __func__, 0, FN_FAN, v);
}

API(nvmlDeviceGetNumFans, (nvmlDevice_t h, unsigned int *n))
{
	BEGIN(h, 0);
	if (!n)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, FN_FAN))
		return NVML_ERROR_NOT_SUPPORTED;
	*n = 1;
	return NVML_SUCCESS;
}

API(nvmlDeviceGetPowerUsage, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_POWER_USAGE, v); }
API(nvmlDeviceGetEnforcedPowerLimit, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_POWER_ENFORCED, v); }
API(nvmlDeviceGetPowerManagementLimit, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_POWER_MGMT, v); }
API(nvmlDeviceGetTotalEnergyConsumption, (nvmlDevice_t h, unsigned long long *v)) { return get_u64(h, __func__, 0, FN_ENERGY, v); }

/* ---- clocks and performance ------------------------------------------- */

static nvmlReturn_t clock_info(nvmlDevice_t h, const char *fn, int max, unsigned int type, unsigned int *out)
{
	static const enum fm_num_id cur[] = { FN_CLK_GRAPHICS, FN_CLK_SM, FN_CLK_MEM, FN_CLK_VIDEO };
	static const enum fm_num_id top[] = { FN_MAXCLK_GRAPHICS, FN_MAXCLK_SM, FN_MAXCLK_MEM, FN_MAXCLK_VIDEO };

	if (type > 3) {
		BEGIN_FN(h, fn, (int)type);
		(void)d;
		return NVML_ERROR_INVALID_ARGUMENT;
	}
	return get_u32(h, fn, (int)type, max ? top[type] : cur[type], out);
}

API(nvmlDeviceGetClockInfo, (nvmlDevice_t h, unsigned int t, unsigned int *v)) { return clock_info(h, __func__, 0, t, v); }
API(nvmlDeviceGetMaxClockInfo, (nvmlDevice_t h, unsigned int t, unsigned int *v)) { return clock_info(h, __func__, 1, t, v); }

/* clockId 0 current, 3 customer boost max; the application clocks are not modelled. */
API(nvmlDeviceGetClock, (nvmlDevice_t h, unsigned int type, unsigned int id, unsigned int *v))
{
	if (id == 0)
		return clock_info(h, __func__, 0, type, v);
	if (id == 3)
		return clock_info(h, __func__, 1, type, v);
	{
		BEGIN(h, (int)(type * 16 + id));
		(void)d;
		return id > 3 ? NVML_ERROR_INVALID_ARGUMENT : NVML_ERROR_NOT_SUPPORTED;
	}
}

API(nvmlDeviceGetPerformanceState, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_PSTATE, v); }
API(nvmlDeviceGetPowerState, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_PSTATE, v); }

API(nvmlDeviceGetCurrentClocksEventReasons, (nvmlDevice_t h, unsigned long long *v)) { return get_u64(h, __func__, 0, FN_EVENT_REASONS, v); }
API(nvmlDeviceGetCurrentClocksThrottleReasons, (nvmlDevice_t h, unsigned long long *v)) { return get_u64(h, __func__, 0, FN_EVENT_REASONS, v); }

static nvmlReturn_t supported_reasons(nvmlDevice_t h, const char *fn, unsigned long long *out)
{
	BEGIN_FN(h, fn, 0);
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, FN_EVENT_REASONS))
		return NVML_ERROR_NOT_SUPPORTED;
	*out = 0x1FFULL;
	return NVML_SUCCESS;
}

API(nvmlDeviceGetSupportedClocksEventReasons, (nvmlDevice_t h, unsigned long long *v)) { return supported_reasons(h, __func__, v); }
API(nvmlDeviceGetSupportedClocksThrottleReasons, (nvmlDevice_t h, unsigned long long *v)) { return supported_reasons(h, __func__, v); }

/* ---- PCIe --------------------------------------------------------------- */

API(nvmlDeviceGetCurrPcieLinkGeneration, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_PCIE_CURR_GEN, v); }
API(nvmlDeviceGetCurrPcieLinkWidth, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_PCIE_CURR_WIDTH, v); }
API(nvmlDeviceGetMaxPcieLinkGeneration, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_PCIE_MAX_GEN, v); }
API(nvmlDeviceGetMaxPcieLinkWidth, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_PCIE_MAX_WIDTH, v); }
API(nvmlDeviceGetGpuMaxPcieLinkGeneration, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_PCIE_GPU_MAX_GEN, v); }
API(nvmlDeviceGetPcieReplayCounter, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_PCIE_REPLAY, v); }

API(nvmlDeviceGetPcieThroughput, (nvmlDevice_t h, unsigned int counter, unsigned int *v))
{
	if (counter > 1) {
		BEGIN(h, (int)counter);
		(void)d;
		return NVML_ERROR_INVALID_ARGUMENT;
	}
	return get_u32(h, __func__, (int)counter, counter ? FN_PCIE_RX : FN_PCIE_TX, v);
}

/* ---- modes ------------------------------------------------------------ */

API(nvmlDeviceGetPersistenceMode, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_PERSISTENCE, v); }
API(nvmlDeviceGetComputeMode, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_COMPUTE_MODE, v); }
API(nvmlDeviceGetDisplayMode, (nvmlDevice_t h, unsigned int *v)) { return get_u32(h, __func__, 0, FN_DISPLAY_MODE, v); }

/* display_active defaults to display_mode (no display attached either way). */
API(nvmlDeviceGetDisplayActive, (nvmlDevice_t h, unsigned int *v))
{
	BEGIN(h, 0);
	if (!v)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (have(d, FN_DISPLAY_ACTIVE))
		*v = u32(val(d, FN_DISPLAY_ACTIVE, idx));
	else if (have(d, FN_DISPLAY_MODE))
		*v = u32(val(d, FN_DISPLAY_MODE, idx));
	else
		return NVML_ERROR_NOT_SUPPORTED;
	return NVML_SUCCESS;
}

/* Windows only (WDDM/TCC): Linux answers NOT_SUPPORTED. */
static nvmlReturn_t driver_model(nvmlDevice_t h, const char *fn, unsigned int *cur, unsigned int *pend)
{
	BEGIN_FN(h, fn, 0);
	(void)d;
	if (!cur && !pend)
		return NVML_ERROR_INVALID_ARGUMENT;
	return NVML_ERROR_NOT_SUPPORTED;
}

API(nvmlDeviceGetDriverModel, (nvmlDevice_t h, unsigned int *c, unsigned int *p)) { return driver_model(h, __func__, c, p); }
API(nvmlDeviceGetDriverModel_v2, (nvmlDevice_t h, unsigned int *c, unsigned int *p)) { return driver_model(h, __func__, c, p); }

/* ---- ECC, retired pages, remapped rows -------------------------------- */

static int ecc_disabled(const fm_device *d, unsigned idx)
{
	return have(d, FN_ECC_CURRENT) && val(d, FN_ECC_CURRENT, idx) == 0;
}

API(nvmlDeviceGetEccMode, (nvmlDevice_t h, unsigned int *cur, unsigned int *pend))
{
	BEGIN(h, 0);
	if (!cur || !pend)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, FN_ECC_CURRENT))
		return NVML_ERROR_NOT_SUPPORTED;
	*cur = u32(val(d, FN_ECC_CURRENT, idx));
	*pend = have(d, FN_ECC_PENDING) ? u32(val(d, FN_ECC_PENDING, idx)) : *cur;
	return NVML_SUCCESS;
}

API(nvmlDeviceGetTotalEccErrors, (nvmlDevice_t h, unsigned int type, unsigned int counter,
				  unsigned long long *out))
{
	static const enum fm_num_id ids[2][2] = {
		{ FN_ECC_CORR_VOL, FN_ECC_CORR_AGG }, { FN_ECC_UNC_VOL, FN_ECC_UNC_AGG },
	};

	BEGIN(h, (int)(type * 2 + counter));
	if (!out || type > 1 || counter > 1)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (ecc_disabled(d, idx) || !have(d, ids[type][counter]))
		return NVML_ERROR_NOT_SUPPORTED;
	*out = (unsigned long long)val(d, ids[type][counter], idx);
	return NVML_SUCCESS;
}

static nvmlReturn_t retired_pages(nvmlDevice_t h, const char *fn, unsigned int cause, unsigned int *count,
				  unsigned long long *addrs, unsigned long long *stamps)
{
	unsigned n;

	BEGIN_FN(h, fn, (int)cause);
	if (!count || cause > 1)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, cause ? FN_RETIRED_DBE : FN_RETIRED_SBE))
		return NVML_ERROR_NOT_SUPPORTED;
	n = u32(val(d, cause ? FN_RETIRED_DBE : FN_RETIRED_SBE, idx));
	if (n > 4096)
		n = 4096;
	if (*count < n) {
		*count = n;
		fm_untick(machine, d, fn, (int)cause);
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	if (n && !addrs)
		return NVML_ERROR_INVALID_ARGUMENT;
	for (unsigned i = 0; i < n; i++) {
		/* Made-up but stable page addresses. */
		addrs[i] = 0x100000ULL * (i + 1) + (cause ? 0x80000000ULL : 0);
		if (stamps)
			stamps[i] = 1700000000ULL + i;
	}
	*count = n;
	return NVML_SUCCESS;
}

API(nvmlDeviceGetRetiredPages, (nvmlDevice_t h, unsigned int cause, unsigned int *count,
				unsigned long long *addrs))
{
	return retired_pages(h, __func__, cause, count, addrs, NULL);
}

API(nvmlDeviceGetRetiredPages_v2, (nvmlDevice_t h, unsigned int cause, unsigned int *count,
				   unsigned long long *addrs, unsigned long long *stamps))
{
	return retired_pages(h, __func__, cause, count, addrs, stamps);
}

API(nvmlDeviceGetRetiredPagesPendingStatus, (nvmlDevice_t h, unsigned int *v))
{
	return get_u32(h, __func__, 0, FN_RETIRED_PENDING, v);
}

API(nvmlDeviceGetRemappedRows, (nvmlDevice_t h, unsigned int *corr, unsigned int *unc,
				unsigned int *pending, unsigned int *failure))
{
	BEGIN(h, 0);
	if (!corr || !unc || !pending || !failure)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!have(d, FN_RR_CORR) || !have(d, FN_RR_UNC) || !have(d, FN_RR_PENDING) || !have(d, FN_RR_FAILURE))
		return NVML_ERROR_NOT_SUPPORTED;
	*corr = u32(val(d, FN_RR_CORR, idx));
	*unc = u32(val(d, FN_RR_UNC, idx));
	*pending = u32(val(d, FN_RR_PENDING, idx));
	*failure = u32(val(d, FN_RR_FAILURE, idx));
	return NVML_SUCCESS;
}

/* ---- MIG -------------------------------------------------------------- */

static int mig_enabled(const fm_device *d, unsigned idx)
{
	return d->has_mig && have(d, FN_MIG_CURRENT) && val(d, FN_MIG_CURRENT, idx) == 1;
}

API(nvmlDeviceGetMigMode, (nvmlDevice_t h, unsigned int *cur, unsigned int *pend))
{
	BEGIN(h, 0);
	if (!cur || !pend)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!d->has_mig || !have(d, FN_MIG_CURRENT))
		return NVML_ERROR_NOT_SUPPORTED;
	*cur = u32(val(d, FN_MIG_CURRENT, idx));
	*pend = have(d, FN_MIG_PENDING) ? u32(val(d, FN_MIG_PENDING, idx)) : *cur;
	return NVML_SUCCESS;
}

/* nvml.h: "Returns zero if MIG is not supported or enabled." */
API(nvmlDeviceGetMaxMigDeviceCount, (nvmlDevice_t h, unsigned int *count))
{
	BEGIN(h, 0);
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->parent)
		return NVML_ERROR_NOT_SUPPORTED;
	if (!mig_enabled(d, idx))
		*count = 0;
	else
		*count = have(d, FN_MIG_MAX) ? u32(val(d, FN_MIG_MAX, idx)) : (unsigned int)d->nmig;
	return NVML_SUCCESS;
}

API(nvmlDeviceGetMigDeviceHandleByIndex, (nvmlDevice_t h, unsigned int index, nvmlDevice_t *out))
{
	unsigned max;

	BEGIN(h, 0);
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->parent || !d->has_mig)
		return NVML_ERROR_NOT_SUPPORTED;
	max = have(d, FN_MIG_MAX) ? u32(val(d, FN_MIG_MAX, idx)) : (unsigned)d->nmig;
	if (max < d->nmig)
		max = (unsigned)d->nmig;
	if (index >= max)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!mig_enabled(d, idx) || index >= d->nmig)
		return NVML_ERROR_NOT_FOUND;
	return give_handle(&d->mig[index], __func__, out);
}

API(nvmlDeviceGetDeviceHandleFromMigDeviceHandle, (nvmlDevice_t h, nvmlDevice_t *out))
{
	BEGIN(h, 0);
	if (!out || !d->parent)
		return NVML_ERROR_INVALID_ARGUMENT;
	*out = as_handle(d->parent);
	return NVML_SUCCESS;
}

API(nvmlDeviceIsMigDeviceHandle, (nvmlDevice_t h, unsigned int *is_mig))
{
	BEGIN(h, 0);
	(void)idx;
	if (!is_mig)
		return NVML_ERROR_INVALID_ARGUMENT;
	*is_mig = d->parent != NULL;
	return NVML_SUCCESS;
}

static nvmlReturn_t instance_id(nvmlDevice_t h, const char *fn, enum fm_num_id id, unsigned int *out)
{
	fm_device *dev = initialized() ? find_handle(h) : NULL;

	if (dev && !dev->parent) {
		BEGIN_FN(h, fn, 0);
		(void)d;
		return out ? NVML_ERROR_NOT_SUPPORTED : NVML_ERROR_INVALID_ARGUMENT;
	}
	return get_u32(h, fn, 0, id, out);
}

API(nvmlDeviceGetGpuInstanceId, (nvmlDevice_t h, unsigned int *v)) { return instance_id(h, __func__, FN_GI_ID, v); }
API(nvmlDeviceGetComputeInstanceId, (nvmlDevice_t h, unsigned int *v)) { return instance_id(h, __func__, FN_CI_ID, v); }

/* ---- topology and peer access ------------------------------------------ */

/* A call on a pair: counted and "errors"-checked on the first device; the
 * second must be a valid handle too (INVALID_ARGUMENT otherwise) and is
 * lost when its "*" says so. MIG handles have no entry (NOT_SUPPORTED). */
static nvmlReturn_t pair_value(nvmlDevice_t h1, nvmlDevice_t h2, const char *fn, int sub, const void *out,
			       const fm_peer_list *(*list)(const fm_device *, int), int *v)
{
	const fm_device *peer;
	const fm_peer_list *l;
	nvmlReturn_t rc;

	BEGIN_FN(h1, fn, sub);
	if (!(peer = find_handle(h2)) || !out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if ((rc = imposed(peer, "*", idx)) != NVML_SUCCESS)
		return rc;
	if (d->parent || peer->parent)
		return NVML_ERROR_NOT_SUPPORTED;
	l = list(d, sub);
	if ((size_t)peer->index >= l->n || l->v[peer->index] < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*v = l->v[peer->index];
	return NVML_SUCCESS;
}

static const fm_peer_list *topology_of(const fm_device *d, int sub)
{
	(void)sub;
	return &d->topology;
}

static const fm_peer_list *p2p_of(const fm_device *d, int cap)
{
	return &d->p2p[cap];
}

/* nvmlGpuTopologyLevel_t and nvmlGpuP2PStatus_t are C enums: int-sized. */
API(nvmlDeviceGetTopologyCommonAncestor, (nvmlDevice_t h1, nvmlDevice_t h2, nvmlGpuTopologyLevel_t *level))
{
	int v = 0;
	nvmlReturn_t rc = pair_value(h1, h2, __func__, 0, level, topology_of, &v);

	if (rc == NVML_SUCCESS)
		*level = (nvmlGpuTopologyLevel_t)v;
	return rc;
}

API(nvmlDeviceGetP2PStatus, (nvmlDevice_t h1, nvmlDevice_t h2, nvmlGpuP2PCapsIndex_t cap,
			     nvmlGpuP2PStatus_t *status))
{
	int v = 0;
	nvmlReturn_t rc;

	/* nvml.h: INVALID_ARGUMENT for an invalid p2pIndex (UNKNOWN = 5 too). */
	if (initialized() && (unsigned)cap >= FM_P2P_CAPS)
		return NVML_ERROR_INVALID_ARGUMENT;
	rc = pair_value(h1, h2, __func__, (int)cap, status, p2p_of, &v);
	if (rc == NVML_SUCCESS)
		*status = (nvmlGpuP2PStatus_t)v;
	return rc;
}

/* Slice counts from the profile in a MIG device's name: "… MIG 3g.20gb"
 * is a 3-slice GPU instance used whole; "… MIG 1c.3g.20gb" is a 1-slice
 * compute instance inside it. 0 when the name carries no profile. */
static void mig_slices(const char *name, unsigned *gi, unsigned *ci)
{
	const char *p = name ? strstr(name, "MIG ") : NULL;
	unsigned a = 0, b = 0;
	char k1 = 0, k2 = 0;

	*gi = *ci = 0;
	if (!p)
		return;
	p += 4;
	if (sscanf(p, "%u%c.%u%c", &a, &k1, &b, &k2) == 4 && k1 == 'c' && k2 == 'g') {
		*ci = a;
		*gi = b;
	} else if (sscanf(p, "%u%c", &a, &k1) == 2 && k1 == 'g') {
		*gi = *ci = a;
	}
}

/* nvml.h: "This API currently only supports MIG device handles", so a
 * full GPU answers NOT_SUPPORTED, as the real library does. A MIG device
 * serves its own multiprocessor_count (missing: NOT_SUPPORTED) and
 * memory.total in MiB; the shared engine counts are not modelled (0). */
static nvmlReturn_t attributes(nvmlDevice_t h, const char *fn, void *out, size_t size)
{
	nvmlDeviceAttributes_t a;

	BEGIN_FN(h, fn, 0);
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!d->parent || !have(d, FN_MP_COUNT))
		return NVML_ERROR_NOT_SUPPORTED;
	memset(&a, 0, sizeof(a));
	a.multiprocessorCount = u32(val(d, FN_MP_COUNT, idx));
	mig_slices(fm_str(d, FS_NAME), &a.gpuInstanceSliceCount, &a.computeInstanceSliceCount);
	if (have(d, FN_MEM_TOTAL))
		a.memorySizeMB = (unsigned long long)val(d, FN_MEM_TOTAL, idx) >> 20;
	memcpy(out, &a, size);
	return NVML_SUCCESS;
}

/* The unversioned symbol is CUDA 11.0's and fills the 24-byte v1 struct
 * (no slice counts, no memorySizeMB): writing 40 bytes would overrun an
 * old caller's buffer. _v2 (CUDA 11.1, so in the 470 branch too) fills
 * the whole nvmlDeviceAttributes_t. */
API(nvmlDeviceGetAttributes, (nvmlDevice_t h, nvmlDeviceAttributes_v1_t *a)) { return attributes(h, __func__, a, sizeof(*a)); }
API(nvmlDeviceGetAttributes_v2, (nvmlDevice_t h, nvmlDeviceAttributes_t *a)) { return attributes(h, __func__, a, sizeof(*a)); }

/* ---- processes -------------------------------------------------------- */

typedef struct {
	unsigned int pid;
	unsigned long long mem;
	unsigned int gi, ci;
} proc_view;

static proc_view view_process(const fm_device *d, const fm_process *p, unsigned idx)
{
	proc_view v;

	v.pid = (unsigned int)fm_process_pid(p);
	v.mem = p->used_memory.set ? (unsigned long long)fm_at(&p->used_memory, idx)
				   : NVML_VALUE_NOT_AVAILABLE_ULL;
	/* Outside MIG both ids read 0xFFFFFFFF; on a MIG device its own. */
	v.gi = p->gi.set ? u32(fm_at(&p->gi, idx))
	       : d->parent && have(d, FN_GI_ID) ? u32(val(d, FN_GI_ID, idx)) : 0xFFFFFFFFu;
	v.ci = p->ci.set ? u32(fm_at(&p->ci, idx))
	       : d->parent && have(d, FN_CI_ID) ? u32(val(d, FN_CI_ID, idx)) : 0xFFFFFFFFu;
	return v;
}

/* layout: 1 = 16-byte v1 entries, 2 = 24-byte v2/v3 entries. */
static nvmlReturn_t running_processes(nvmlDevice_t h, const char *fn, int kind, int layout,
				      unsigned int *count, void *infos)
{
	const fm_proc_list *l;

	BEGIN_FN(h, fn, 0);
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!d->has_processes)
		return NVML_ERROR_NOT_SUPPORTED;
	l = &d->procs[kind];
	if (*count < l->n) {
		*count = (unsigned int)l->n;
		fm_untick(machine, d, fn, 0);
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	if (l->n && !infos)
		return NVML_ERROR_INVALID_ARGUMENT;
	for (size_t i = 0; i < l->n; i++) {
		proc_view v = view_process(d, &l->p[i], idx);

		if (layout == 1) {
			nvmlProcessInfo_v1_t *e = (nvmlProcessInfo_v1_t *)infos + i;

			e->pid = v.pid;
			e->usedGpuMemory = v.mem;
		} else {
			nvmlProcessInfo_t *e = (nvmlProcessInfo_t *)infos + i;

			e->pid = v.pid;
			e->usedGpuMemory = v.mem;
			e->gpuInstanceId = v.gi;
			e->computeInstanceId = v.ci;
		}
	}
	*count = (unsigned int)l->n;
	return NVML_SUCCESS;
}

#define PROC_API(name, kind, layout) \
	API(name, (nvmlDevice_t h, unsigned int *count, void *infos)) \
	{ \
		return running_processes(h, __func__, kind, layout, count, infos); \
	}

PROC_API(nvmlDeviceGetComputeRunningProcesses, FM_PROC_COMPUTE, 1)
PROC_API(nvmlDeviceGetComputeRunningProcesses_v2, FM_PROC_COMPUTE, 2)
PROC_API(nvmlDeviceGetComputeRunningProcesses_v3, FM_PROC_COMPUTE, 2)
PROC_API(nvmlDeviceGetGraphicsRunningProcesses, FM_PROC_GRAPHICS, 1)
PROC_API(nvmlDeviceGetGraphicsRunningProcesses_v2, FM_PROC_GRAPHICS, 2)
PROC_API(nvmlDeviceGetGraphicsRunningProcesses_v3, FM_PROC_GRAPHICS, 2)
PROC_API(nvmlDeviceGetMPSComputeRunningProcesses, FM_PROC_MPS, 1)
PROC_API(nvmlDeviceGetMPSComputeRunningProcesses_v2, FM_PROC_MPS, 2)
PROC_API(nvmlDeviceGetMPSComputeRunningProcesses_v3, FM_PROC_MPS, 2)

/* The 12.2 list call with 32-byte entries (exported so nvitop keeps the
 * 24-byte _v3 layout, nvml.md §0.2). */
API(nvmlDeviceGetRunningProcessDetailList, (nvmlDevice_t h, nvmlProcessDetailList_t *list))
{
	const fm_proc_list *l;

	BEGIN(h, 0);
	if (!list)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (list->version != NVML_STRUCT_VERSION(sizeof(*list), 1))
		return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
	if (list->mode > 2)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!d->has_processes)
		return NVML_ERROR_NOT_SUPPORTED;
	l = &d->procs[list->mode == 0 ? FM_PROC_COMPUTE : list->mode == 1 ? FM_PROC_GRAPHICS : FM_PROC_MPS];
	if (list->numProcArrayEntries < l->n || !list->procArray) {
		list->numProcArrayEntries = (unsigned int)l->n;
		if (!l->n)
			return NVML_SUCCESS;
		fm_untick(machine, d, __func__, 0);
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	for (size_t i = 0; i < l->n; i++) {
		proc_view v = view_process(d, &l->p[i], idx);
		nvmlProcessDetail_v1_t *e = &list->procArray[i];

		e->pid = v.pid;
		e->usedGpuMemory = v.mem;
		e->gpuInstanceId = v.gi;
		e->computeInstanceId = v.ci;
		e->usedGpuCcProtectedMemory = 0;
	}
	list->numProcArrayEntries = (unsigned int)l->n;
	return NVML_SUCCESS;
}

/* Samples for the processes that carry sm_util. NOT_FOUND when none. */
API(nvmlDeviceGetProcessUtilization, (nvmlDevice_t h, nvmlProcessUtilizationSample_t *samples,
				      unsigned int *count, unsigned long long last_seen))
{
	unsigned n = 0, k = 0;
	unsigned long long now = now_us();

	BEGIN(h, 0);
	(void)last_seen;
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!d->has_processes)
		return NVML_ERROR_NOT_SUPPORTED;
	for (int kind = 0; kind < FM_PROC_KINDS; kind++)
		for (size_t i = 0; i < d->procs[kind].n; i++)
			n += d->procs[kind].p[i].sm.set;
	if (!n) {
		*count = 0;
		return NVML_ERROR_NOT_FOUND;
	}
	if (!samples || *count < n) {
		*count = n;
		fm_untick(machine, d, __func__, 0);
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	for (int kind = 0; kind < FM_PROC_KINDS; kind++) {
		for (size_t i = 0; i < d->procs[kind].n; i++) {
			const fm_process *p = &d->procs[kind].p[i];

			if (!p->sm.set)
				continue;
			samples[k].pid = (unsigned int)fm_process_pid(p);
			samples[k].timeStamp = now;
			samples[k].smUtil = u32(fm_at(&p->sm, idx));
			samples[k].memUtil = u32(fm_at(&p->mem, idx));
			samples[k].encUtil = u32(fm_at(&p->enc, idx));
			samples[k].decUtil = u32(fm_at(&p->dec, idx));
			k++;
		}
	}
	*count = k;
	return NVML_SUCCESS;
}

/* ---- field values ----------------------------------------------------- */

/* The link of a per-link field value, or NULL (NOT_SUPPORTED). */
static const fm_nvlink *field_link(const fm_device *d, const nvmlFieldValue_t *v)
{
	if (v->scopeId >= d->nnvlinks || !d->nvlinks[v->scopeId].present)
		return NULL;
	return &d->nvlinks[v->scopeId];
}

/* NVLINK_THROUGHPUT_DATA_TX/RX of one link: KiB, unsigned long long. */
static int nvlink_field(const fm_device *d, nvmlFieldValue_t *v, unsigned idx)
{
	const fm_nvlink *l = field_link(d, v);
	const fm_num *f;

	if (!l || (v->fieldId != NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX &&
		   v->fieldId != NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX))
		return 0;
	f = v->fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX ? &l->tx_kib : &l->rx_kib;
	if (!f->set)
		return 0;
	v->valueType = NVML_VALUE_TYPE_UNSIGNED_LONG_LONG;
	v->value.ullVal = (unsigned long long)fm_at(f, idx);
	v->nvmlReturn = NVML_SUCCESS;
	return 1;
}

/* Each field answers NOT_SUPPORTED in its own nvmlReturn, except the
 * memory temperature and the NVLink counters of "nvlinks"; the call
 * itself succeeds as on real hardware. */
API(nvmlDeviceGetFieldValues, (nvmlDevice_t h, int count, nvmlFieldValue_t *values))
{
	unsigned long long now = now_us();

	BEGIN(h, 0);
	if (count < 0 || (count > 0 && !values))
		return NVML_ERROR_INVALID_ARGUMENT;
	for (int i = 0; i < count; i++) {
		nvmlFieldValue_t *v = &values[i];

		v->timestamp = (long long)now;
		v->latencyUsec = 0;
		if (v->fieldId == NVML_FI_DEV_MEMORY_TEMP && have(d, FN_TEMP_MEM)) {
			v->valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
			v->value.ullVal = 0;
			v->value.uiVal = u32(val(d, FN_TEMP_MEM, idx));
			v->nvmlReturn = NVML_SUCCESS;
		} else if (!nvlink_field(d, v, idx)) {
			v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
		}
	}
	return NVML_SUCCESS;
}

/* A link past NVML's 18 is INVALID_ARGUMENT; one the GPU lacks, or a
 * GPU without "nvlinks", NOT_SUPPORTED. Counted per link. */
API(nvmlDeviceGetNvLinkState, (nvmlDevice_t h, unsigned int link, nvmlEnableState_t *isActive))
{
	BEGIN(h, (int)link);
	if (!isActive || link >= NVML_NVLINK_MAX_LINKS)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (link >= d->nnvlinks || !d->nvlinks[link].present || !d->nvlinks[link].state.set)
		return NVML_ERROR_NOT_SUPPORTED;
	*isActive = fm_at(&d->nvlinks[link].state, idx) ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
	return NVML_SUCCESS;
}

/* ---- events: Xid errors from "xid_events" ------------------------------ */

#define EVSET_MAGIC 0x65767374u
#define EVSET_MAX 1024
#define FAKE_EVENT_TYPES (nvmlEventTypeSingleBitEccError | nvmlEventTypeDoubleBitEccError | \
			  nvmlEventTypePState | nvmlEventTypeXidCriticalError | nvmlEventTypeClock)

/* A set: the devices registered on it, when, and how many of each one's
 * "xid_events" it has delivered. */
struct nvmlEventSet_st {
	uint32_t magic;
	pthread_mutex_t lock;
	struct {
		fm_device *d;
		unsigned long long types;
		double since_ms;  /* monotonic ms at registration */
		size_t next;      /* the next xid_events entry to deliver */
	} reg[EVSET_MAX];
	size_t n;
};

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int valid_set(nvmlEventSet_t set)
{
	return set && set->magic == EVSET_MAGIC;
}

API(nvmlEventSetCreate, (nvmlEventSet_t *set))
{
	nvmlEventSet_t s;

	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!set)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!(s = calloc(1, sizeof(*s))))
		return NVML_ERROR_UNKNOWN;
	s->magic = EVSET_MAGIC;
	pthread_mutex_init(&s->lock, NULL);
	*set = s;
	return NVML_SUCCESS;
}

API(nvmlEventSetFree, (nvmlEventSet_t set))
{
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!valid_set(set))
		return NVML_ERROR_INVALID_ARGUMENT;
	set->magic = 0;
	pthread_mutex_destroy(&set->lock);
	free(set);
	return NVML_SUCCESS;
}

API(nvmlDeviceGetSupportedEventTypes, (nvmlDevice_t h, unsigned long long *types))
{
	BEGIN(h, 0);
	if (!types)
		return NVML_ERROR_INVALID_ARGUMENT;
	*types = d->parent ? 0 : FAKE_EVENT_TYPES;
	return NVML_SUCCESS;
}

/* MIG device handles take no registration (nvml.h: no per-instance events
 * through MIG handles). */
API(nvmlDeviceRegisterEvents, (nvmlDevice_t h, unsigned long long types, nvmlEventSet_t set))
{
	BEGIN(h, 0);
	if (!valid_set(set) || types == 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->parent || (types & ~FAKE_EVENT_TYPES))
		return NVML_ERROR_NOT_SUPPORTED;
	pthread_mutex_lock(&set->lock);
	if (set->n == EVSET_MAX) {
		pthread_mutex_unlock(&set->lock);
		return NVML_ERROR_UNKNOWN;
	}
	set->reg[set->n].d = d;
	set->reg[set->n].types = types;
	set->reg[set->n].since_ms = mono_ms();
	set->reg[set->n].next = 0;
	set->n++;
	pthread_mutex_unlock(&set->lock);
	return NVML_SUCCESS;
}

/* The registration whose next Xid is due first (-1: none left), and when. */
static long next_due(nvmlEventSet_t set, double *due)
{
	long best = -1;

	for (size_t i = 0; i < set->n; i++) {
		const fm_device *d = set->reg[i].d;
		double t;

		if (!(set->reg[i].types & nvmlEventTypeXidCriticalError) || set->reg[i].next >= d->nxids)
			continue;
		t = set->reg[i].since_ms + (double)d->xids[set->reg[i].next].after_ms;
		if (best < 0 || t < *due)
			best = (long)i, *due = t;
	}
	return best;
}

/* An "errors" entry for nvmlEventSetWait (or "*") on a device of the set
 * fails this wait; each device counts its waits. */
static nvmlReturn_t wait_imposed(nvmlEventSet_t set)
{
	nvmlReturn_t rc = NVML_SUCCESS;

	for (size_t i = 0; i < set->n; i++) {
		const fm_device *d = set->reg[i].d;
		nvmlReturn_t r = imposed(d, "nvmlEventSetWait", fm_tick(machine, d, "nvmlEventSetWait", 0));

		if (r != NVML_SUCCESS && rc == NVML_SUCCESS)
			rc = r;
	}
	return rc;
}

/* The next due Xid, or a sleep until one is due or timeoutms has passed
 * (TIMEOUT): the real call's contract, never longer. */
API(nvmlEventSetWait_v2, (nvmlEventSet_t set, nvmlEventData_t *data, unsigned int timeoutms))
{
	double deadline = mono_ms() + timeoutms;
	nvmlReturn_t rc;

	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!valid_set(set) || !data)
		return NVML_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&set->lock);
	rc = wait_imposed(set);
	pthread_mutex_unlock(&set->lock);
	if (rc != NVML_SUCCESS)
		return rc;
	for (;;) {
		double due = 0, now = mono_ms(), wake;
		long i;
		struct timespec ts;

		pthread_mutex_lock(&set->lock);
		i = next_due(set, &due);
		if (i >= 0 && due <= now) {
			fm_device *d = set->reg[i].d;

			memset(data, 0, sizeof(*data));
			data->device = as_handle(d);
			data->eventType = nvmlEventTypeXidCriticalError;
			data->eventData = (unsigned long long)d->xids[set->reg[i].next++].xid;
			data->gpuInstanceId = 0xFFFFFFFFu;
			data->computeInstanceId = 0xFFFFFFFFu;
			pthread_mutex_unlock(&set->lock);
			return NVML_SUCCESS;
		}
		pthread_mutex_unlock(&set->lock);
		if (now >= deadline)
			return NVML_ERROR_TIMEOUT;
		wake = i >= 0 && due < deadline ? due : deadline;
		ts.tv_sec = (time_t)((wake - now) / 1e3);
		ts.tv_nsec = (long)(((wake - now) - (double)ts.tv_sec * 1e3) * 1e6);
		nanosleep(&ts, NULL);
	}
}

/* ---- GPM ---------------------------------------------------------------- */

#define GPM_MAGIC 0x67706d73u
#define ARCH_HOPPER 9

struct nvmlGpmSample_st {
	uint32_t magic;
	const fm_device *dev;   /* NULL until nvmlGpmSampleGet fills it */
	unsigned seq;           /* the device's nvmlGpmSampleGet call number */
};

static const struct {
	unsigned id;
	enum fm_num_id field;
	const char *short_name, *long_name, *unit;
} gpm_metrics[] = {
	{ NVML_GPM_METRIC_GRAPHICS_UTIL, FN_GPM_GRAPHICS, "gr_util", "graphics utilization", "%" },
	{ NVML_GPM_METRIC_SM_UTIL, FN_GPM_SM, "sm_util", "sm utilization", "%" },
	{ NVML_GPM_METRIC_SM_OCCUPANCY, FN_GPM_SM_OCCUPANCY, "sm_occupancy", "sm occupancy", "%" },
	{ NVML_GPM_METRIC_ANY_TENSOR_UTIL, FN_GPM_TENSOR, "any_tensor_util", "any tensor utilization", "%" },
	{ NVML_GPM_METRIC_DRAM_BW_UTIL, FN_GPM_DRAM, "dram_bw_util", "dram bandwidth utilization", "%" },
	{ NVML_GPM_METRIC_FP64_UTIL, FN_GPM_FP64, "fp64_util", "fp64 utilization", "%" },
	{ NVML_GPM_METRIC_FP32_UTIL, FN_GPM_FP32, "fp32_util", "fp32 utilization", "%" },
	{ NVML_GPM_METRIC_FP16_UTIL, FN_GPM_FP16, "fp16_util", "fp16 utilization", "%" },
	{ NVML_GPM_METRIC_PCIE_TX_PER_SEC, FN_GPM_PCIE_TX, "pcie_tx", "pcie tx", "MiB/sec" },
	{ NVML_GPM_METRIC_PCIE_RX_PER_SEC, FN_GPM_PCIE_RX, "pcie_rx", "pcie rx", "MiB/sec" },
	{ NVML_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC, FN_GPM_NVLINK_RX, "nvlink_rx", "nvlink total rx", "MiB/sec" },
	{ NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC, FN_GPM_NVLINK_TX, "nvlink_tx", "nvlink total tx", "MiB/sec" },
};

static int gpm_capable(const fm_device *d)
{
	return !d->parent && have(d, FN_ARCH) && val(d, FN_ARCH, 0) >= ARCH_HOPPER;
}

static int gpm_valid(const struct nvmlGpmSample_st *s)
{
	return s && s->magic == GPM_MAGIC;
}

API(nvmlGpmQueryDeviceSupport, (nvmlDevice_t h, nvmlGpmSupport_t *support))
{
	BEGIN(h, 0);
	if (!support)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (support->version != NVML_GPM_SUPPORT_VERSION)
		return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
	support->isSupportedDevice = (unsigned)gpm_capable(d);
	return NVML_SUCCESS;
}

API(nvmlGpmSampleAlloc, (nvmlGpmSample_t *out))
{
	struct nvmlGpmSample_st *s;

	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!(s = calloc(1, sizeof(*s))))
		return NVML_ERROR_UNKNOWN;
	s->magic = GPM_MAGIC;
	*out = s;
	return NVML_SUCCESS;
}

API(nvmlGpmSampleFree, (nvmlGpmSample_t s))
{
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!gpm_valid(s))
		return NVML_ERROR_INVALID_ARGUMENT;
	s->magic = 0;
	free(s);
	return NVML_SUCCESS;
}

API(nvmlGpmSampleGet, (nvmlDevice_t h, nvmlGpmSample_t s))
{
	BEGIN(h, 0);
	if (!gpm_valid(s))
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!gpm_capable(d))
		return NVML_ERROR_NOT_SUPPORTED;
	s->dev = d;
	s->seq = idx + 1;
	return NVML_SUCCESS;
}

static void gpm_fill(const fm_device *d, unsigned idx, nvmlGpmMetric_t *m)
{
	m->nvmlReturn = NVML_ERROR_INVALID_ARGUMENT;
	m->value = 0;
	memset(&m->metricInfo, 0, sizeof(m->metricInfo));
	for (size_t k = 0; k < sizeof(gpm_metrics) / sizeof(gpm_metrics[0]); k++) {
		if (gpm_metrics[k].id != m->metricId)
			continue;
		m->metricInfo.shortName = (char *)gpm_metrics[k].short_name;
		m->metricInfo.longName = (char *)gpm_metrics[k].long_name;
		m->metricInfo.unit = (char *)gpm_metrics[k].unit;
		if (!have(d, gpm_metrics[k].field)) {
			m->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
			return;
		}
		m->value = (double)val(d, gpm_metrics[k].field, idx);
		m->nvmlReturn = NVML_SUCCESS;
		return;
	}
}

/* Both samples taken, of one device, sample2 the later one. Each call
 * counts once for the device ("errors" on nvmlGpmMetricsGet apply), and
 * successive calls read successive elements of the "gpm" arrays. */
API(nvmlGpmMetricsGet, (nvmlGpmMetricsGet_t *mg))
{
	unsigned idx;
	nvmlReturn_t rc;
	const fm_device *d;

	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!mg)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (mg->version != NVML_GPM_METRICS_GET_VERSION)
		return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
	if (mg->numMetrics > NVML_GPM_METRIC_MAX || !gpm_valid(mg->sample1) || !gpm_valid(mg->sample2))
		return NVML_ERROR_INVALID_ARGUMENT;
	d = mg->sample1->dev;
	if (!d || d != mg->sample2->dev || mg->sample2->seq <= mg->sample1->seq)
		return NVML_ERROR_INVALID_ARGUMENT;
	idx = fm_tick(machine, d, __func__, 0);
	if ((rc = imposed(d, __func__, idx)) != NVML_SUCCESS)
		return rc;
	for (unsigned i = 0; i < mg->numMetrics; i++)
		gpm_fill(d, idx, &mg->metrics[i]);
	return NVML_SUCCESS;
}
