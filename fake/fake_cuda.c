/* gpuwise — fake libcuda.so.1 serving the devices of a machine.json.
 *
 * Modelled: cuInit (cuda.init names its result; NO_DEVICE when nothing is
 * visible), cuDriverGetVersion (works before cuInit), device enumeration
 * honouring CUDA_DEVICE_ORDER and CUDA_VISIBLE_DEVICES, names, UUIDs, PCI
 * ids, the attributes of nvml.md §4, total memory, primary contexts just
 * enough for cuMemGetInfo_v2, and the error-name/string calls.
 *
 * The device list: every NVML device whose errors["*"] is not set (a lost
 * GPU is gone for CUDA too), ordered by cuda.fastest_first_order (default:
 * compute capability descending, then list order) unless CUDA_DEVICE_ORDER
 * is PCI_BUS_ID (list order). CUDA_VISIBLE_DEVICES then picks from it:
 * indices into that order, unique GPU-/MIG- UUID prefixes (a MIG device
 * becomes a CUDA device only this way); the first entry that is invalid,
 * ambiguous or repeated hides itself and everything after it.
 *
 * Memory, copies, streams, events, modules, launches and cuGetProcAddress
 * (what `gpuwise bench` uses) live in fake_cuda_exec.c.
 *
 * Not modelled: non-primary contexts; MIG devices' memory is their own,
 * other attributes come from the parent GPU.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fake_cuda.h"

#define WHO "fake cuda"

struct CUctx_st {
	int device;
	int refs;
};

typedef struct {
	const fm_device *d;        /* a GPU or a MIG device */
} cu_dev;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int init_done;              /* cuInit ran */
static CUresult init_result;
static const fm_machine *machine;
static cu_dev devs[MAX_CU_DEVICES];
static struct CUctx_st ctxs[MAX_CU_DEVICES];
static int ndevs;
static _Thread_local CUcontext current;

/* ---- building the device list ----------------------------------------- */

static int cc_of(const fm_device *d)
{
	return (int)(fm_at(fm_field(d, FN_CC_MAJOR), 0) * 10 + fm_at(fm_field(d, FN_CC_MINOR), 0));
}

/* Fills order[] with NVML indices of the GPUs CUDA can see, CUDA's order. */
static int ordered_gpus(const fm_machine *m, int *order)
{
	const char *env = getenv("CUDA_DEVICE_ORDER");
	int n = 0;

	if (env && strcmp(env, "PCI_BUS_ID") == 0) {
		for (size_t i = 0; i < m->ndevices; i++)
			if (!fm_device_lost(&m->devices[i]))
				order[n++] = (int)i;
		return n;
	}
	if (m->ffo) {
		int listed[FM_MAX_DEVICES] = { 0 };

		for (size_t i = 0; i < m->nffo; i++) {
			listed[m->ffo[i]] = 1;
			if (!fm_device_lost(&m->devices[m->ffo[i]]))
				order[n++] = m->ffo[i];
		}
		/* Devices the order forgot come last, in list order. */
		for (size_t i = 0; i < m->ndevices; i++)
			if (!listed[i] && !fm_device_lost(&m->devices[i]))
				order[n++] = (int)i;
		return n;
	}
	for (size_t i = 0; i < m->ndevices; i++)
		if (!fm_device_lost(&m->devices[i]))
			order[n++] = (int)i;
	/* Stable insertion sort, compute capability descending. */
	for (int i = 1; i < n; i++) {
		int v = order[i], j = i;

		while (j > 0 && cc_of(&m->devices[order[j - 1]]) < cc_of(&m->devices[v])) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
	return n;
}

static int is_index(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* The one device whose UUID starts with prefix (case-insensitive), among the
 * visible GPUs (want_mig 0) or their MIG devices (want_mig 1). */
static const fm_device *by_uuid_prefix(const fm_machine *m, const int *order, int n,
				       const char *prefix, int want_mig)
{
	const fm_device *found = NULL;
	size_t len = strlen(prefix);

	for (int i = 0; i < n; i++) {
		const fm_device *g = &m->devices[order[i]];

		for (size_t j = 0; j <= (want_mig ? g->nmig : 0); j++) {
			const fm_device *d = want_mig ? (j ? &g->mig[j - 1] : NULL) : g;
			const char *u = d ? fm_str(d, FS_UUID) : NULL;

			if (!u || strncasecmp(u, prefix, len) != 0)
				continue;
			if (found)
				return NULL;     /* ambiguous */
			found = d;
		}
	}
	return found;
}

static const fm_device *visible_entry(const fm_machine *m, const int *order, int n, const char *e)
{
	if (is_index(e)) {
		long i = strtol(e, NULL, 10);

		return i < n ? &m->devices[order[i]] : NULL;
	}
	if (strncasecmp(e, "GPU-", 4) == 0 && strlen(e) > 4)
		return by_uuid_prefix(m, order, n, e, 0);
	if (strncasecmp(e, "MIG-", 4) == 0 && strlen(e) > 4)
		return by_uuid_prefix(m, order, n, e, 1);
	return NULL;
}

static void trim(char *s)
{
	char *p = s, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	memmove(s, p, strlen(p) + 1);
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
		*--end = '\0';
}

static void build_devices(const fm_machine *m)
{
	int order[FM_MAX_DEVICES];
	int n = ordered_gpus(m, order);
	const char *env = getenv("CUDA_VISIBLE_DEVICES");
	char *copy, *save = NULL, *tok;

	ndevs = 0;
	if (!env) {
		for (int i = 0; i < n && ndevs < MAX_CU_DEVICES; i++)
			devs[ndevs++].d = &m->devices[order[i]];
		return;
	}
	copy = strdup(env);
	if (!copy)
		return;
	for (tok = strtok_r(copy, ",", &save); tok && ndevs < MAX_CU_DEVICES;
	     tok = strtok_r(NULL, ",", &save)) {
		const fm_device *d;
		int dup = 0;

		trim(tok);
		d = visible_entry(m, order, n, tok);
		for (int i = 0; d && i < ndevs; i++)
			dup |= devs[i].d == d;
		if (!d || dup)
			break;           /* hides this entry and all after it */
		devs[ndevs++].d = d;
	}
	free(copy);
}

/* ---- init and version ------------------------------------------------- */

API(cuInit, (unsigned int flags))
{
	CUresult rc;

	pthread_mutex_lock(&lock);
	if (!init_done) {
		machine = fm_machine_get(WHO);
		if (flags != 0)
			init_result = CUDA_ERROR_INVALID_VALUE;
		else if (!machine)
			init_result = CUDA_ERROR_UNKNOWN;
		else if (machine->cuda_init)
			init_result = (CUresult)machine->cuda_init;
		else {
			build_devices(machine);
			init_result = ndevs ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
		}
		/* A bad flag can be retried; everything else sticks. */
		init_done = init_result != CUDA_ERROR_INVALID_VALUE;
		rc = init_result;
	} else {
		rc = init_result;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static int ready(void)
{
	int ok;

	pthread_mutex_lock(&lock);
	ok = init_done && init_result == CUDA_SUCCESS;
	pthread_mutex_unlock(&lock);
	return ok;
}

API(cuDriverGetVersion, (int *version))
{
	const fm_machine *m = fm_machine_get(WHO);

	if (!version)
		return CUDA_ERROR_INVALID_VALUE;
	if (!m)
		return CUDA_ERROR_UNKNOWN;
	if (!m->cuda_version.set)
		return CUDA_ERROR_NOT_SUPPORTED;
	*version = (int)fm_at(&m->cuda_version, 0);
	return CUDA_SUCCESS;
}

/* ---- devices ---------------------------------------------------------- */

/* Every device call: initialised, valid ordinal. */
static CUresult device_of(CUdevice dev, const fm_device **out)
{
	if (!ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dev < 0 || dev >= ndevs)
		return CUDA_ERROR_INVALID_DEVICE;
	*out = devs[dev].d;
	return CUDA_SUCCESS;
}

API(cuDeviceGetCount, (int *count))
{
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	if (!ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	*count = ndevs;
	return CUDA_SUCCESS;
}

API(cuDeviceGet, (CUdevice *device, int ordinal))
{
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (!ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (ordinal < 0 || ordinal >= ndevs)
		return CUDA_ERROR_INVALID_DEVICE;
	*device = ordinal;
	return CUDA_SUCCESS;
}

API(cuDeviceGetName, (char *name, int len, CUdevice dev))
{
	const fm_device *d;
	CUresult rc = device_of(dev, &d);
	const char *s;

	if (rc)
		return rc;
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	s = fm_str(d, FS_NAME);
	snprintf(name, (size_t)len, "%s", s ? s : "");   /* CUDA truncates */
	return CUDA_SUCCESS;
}

static CUresult get_uuid(CUuuid *uuid, CUdevice dev, int v2)
{
	const fm_device *d;
	CUresult rc = device_of(dev, &d);

	if (rc)
		return rc;
	if (!uuid)
		return CUDA_ERROR_INVALID_VALUE;
	/* The v1 call names the GPU; only _v2 gives a MIG device its own. */
	if (d->parent && !v2)
		d = d->parent;
	fm_uuid_bytes(fm_str(d, FS_UUID), (unsigned char *)uuid->bytes);
	return CUDA_SUCCESS;
}

API(cuDeviceGetUuid, (CUuuid *uuid, CUdevice dev)) { return get_uuid(uuid, dev, 0); }
API(cuDeviceGetUuid_v2, (CUuuid *uuid, CUdevice dev)) { return get_uuid(uuid, dev, 1); }

API(cuDeviceGetPCIBusId, (char *bus_id, int len, CUdevice dev))
{
	const fm_device *d;
	CUresult rc = device_of(dev, &d);

	if (rc)
		return rc;
	if (!bus_id || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (!fm_field(d, FN_PCI_BUS)->set)
		return CUDA_ERROR_NOT_SUPPORTED;
	snprintf(bus_id, (size_t)len, "%04X:%02X:%02X.0",
		 (unsigned)fm_at(fm_field(d, FN_PCI_DOMAIN), 0) & 0xffffu,
		 (unsigned)fm_at(fm_field(d, FN_PCI_BUS), 0) & 0xffu,
		 (unsigned)fm_at(fm_field(d, FN_PCI_DEVICE), 0) & 0xffu);
	return CUDA_SUCCESS;
}

API(cuDeviceGetByPCIBusId, (CUdevice *dev, const char *bus_id))
{
	unsigned dom = 0, bus, slot, fn;
	char tail;

	if (!dev || !bus_id)
		return CUDA_ERROR_INVALID_VALUE;
	if (!ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (sscanf(bus_id, "%x:%x:%x.%x%c", &dom, &bus, &slot, &fn, &tail) != 4) {
		dom = 0;
		if (sscanf(bus_id, "%x:%x.%x%c", &bus, &slot, &fn, &tail) != 3)
			return CUDA_ERROR_INVALID_VALUE;
	}
	for (int i = 0; i < ndevs; i++) {
		const fm_device *d = devs[i].d;

		if (d->parent)
			continue;
		if (fm_field(d, FN_PCI_BUS)->set && fm_at(fm_field(d, FN_PCI_DOMAIN), 0) == dom &&
		    fm_at(fm_field(d, FN_PCI_BUS), 0) == bus && fm_at(fm_field(d, FN_PCI_DEVICE), 0) == slot) {
			*dev = i;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_DEVICE;
}

/* A field of the device, else of its parent GPU (clocks, bus width, L2). */
static const fm_num *own_or_parent(const fm_device *d, enum fm_num_id id)
{
	const fm_num *f = fm_field(d, id);

	return !f->set && d->parent ? fm_field(d->parent, id) : f;
}

API(cuDeviceGetAttribute, (int *value, int attrib, CUdevice dev))
{
	const fm_device *d;
	CUresult rc = device_of(dev, &d);
	const fm_num *f;
	long long scale = 1;

	if (rc)
		return rc;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	switch (attrib) {
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
		*value = 1024;
		return CUDA_SUCCESS;
	case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
		*value = 32;
		return CUDA_SUCCESS;
	case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
		f = own_or_parent(d, FN_MAXCLK_SM);
		scale = 1000;           /* MHz → kHz */
		break;
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
		f = own_or_parent(d, FN_MAXCLK_MEM);
		scale = 1000;
		break;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: f = fm_field(d, FN_MP_COUNT); break;
	case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: f = fm_field(d, FN_PCI_BUS); break;
	case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: f = fm_field(d, FN_PCI_DEVICE); break;
	case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: f = fm_field(d, FN_PCI_DOMAIN); break;
	case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: f = own_or_parent(d, FN_MEM_BUS_WIDTH); break;
	case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: f = own_or_parent(d, FN_L2_CACHE); break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: f = fm_field(d, FN_CC_MAJOR); break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: f = fm_field(d, FN_CC_MINOR); break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (!f->set)
		return CUDA_ERROR_NOT_SUPPORTED;
	*value = (int)(fm_at(f, 0) * scale);
	return CUDA_SUCCESS;
}

API(cuDeviceComputeCapability, (int *major, int *minor, CUdevice dev))
{
	const fm_device *d;
	CUresult rc = device_of(dev, &d);

	if (rc)
		return rc;
	if (!major || !minor)
		return CUDA_ERROR_INVALID_VALUE;
	*major = (int)fm_at(fm_field(d, FN_CC_MAJOR), 0);
	*minor = (int)fm_at(fm_field(d, FN_CC_MINOR), 0);
	return CUDA_SUCCESS;
}

/* nvitop calls the unversioned symbol with a size_t* too (nvml.md §4). */
static CUresult total_mem(size_t *bytes, CUdevice dev)
{
	const fm_device *d;
	CUresult rc = device_of(dev, &d);

	if (rc)
		return rc;
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	if (!d->num[FN_MEM_TOTAL].set)
		return CUDA_ERROR_NOT_SUPPORTED;
	*bytes = (size_t)fm_at(&d->num[FN_MEM_TOTAL], 0);
	return CUDA_SUCCESS;
}

API(cuDeviceTotalMem, (size_t *bytes, CUdevice dev)) { return total_mem(bytes, dev); }
API(cuDeviceTotalMem_v2, (size_t *bytes, CUdevice dev)) { return total_mem(bytes, dev); }

/* ---- primary contexts ------------------------------------------------- */

API(cuDevicePrimaryCtxRetain, (CUcontext *pctx, CUdevice dev))
{
	const fm_device *d;
	CUresult rc = device_of(dev, &d);

	if (rc)
		return rc;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&lock);
	ctxs[dev].device = dev;
	ctxs[dev].refs++;
	pthread_mutex_unlock(&lock);
	*pctx = &ctxs[dev];
	return CUDA_SUCCESS;
}

static CUresult primary_release(CUdevice dev)
{
	const fm_device *d;
	CUresult rc = device_of(dev, &d);

	if (rc)
		return rc;
	pthread_mutex_lock(&lock);
	if (ctxs[dev].refs > 0)
		ctxs[dev].refs--;
	else
		rc = CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_unlock(&lock);
	if (rc == CUDA_SUCCESS && current == &ctxs[dev] && ctxs[dev].refs == 0)
		current = NULL;
	return rc;
}

API(cuDevicePrimaryCtxRelease, (CUdevice dev)) { return primary_release(dev); }
API(cuDevicePrimaryCtxRelease_v2, (CUdevice dev)) { return primary_release(dev); }

static int live_context(CUcontext ctx)
{
	int ok = 0;

	for (int i = 0; i < ndevs; i++)
		if (ctx == &ctxs[i]) {
			pthread_mutex_lock(&lock);
			ok = ctxs[i].refs > 0;
			pthread_mutex_unlock(&lock);
		}
	return ok;
}

int fc_ready(void)
{
	return ready();
}

CUresult fc_device_of(CUdevice dev, const fm_device **out)
{
	return device_of(dev, out);
}

CUcontext fc_current(void)
{
	return current && live_context(current) ? current : NULL;
}

int fc_context_device(CUcontext ctx)
{
	return ctx && live_context(ctx) ? ctx->device : -1;
}

CUcontext fc_primary(CUdevice dev)
{
	return dev >= 0 && dev < ndevs ? &ctxs[dev] : NULL;
}

int fc_device_count(void)
{
	return ready() ? ndevs : 0;
}

API(cuCtxSetCurrent, (CUcontext ctx))
{
	if (!ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (ctx && !live_context(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	current = ctx;
	return CUDA_SUCCESS;
}

API(cuCtxGetCurrent, (CUcontext *pctx))
{
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (!ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	*pctx = current;
	return CUDA_SUCCESS;
}

API(cuCtxGetDevice, (CUdevice *dev))
{
	if (!dev)
		return CUDA_ERROR_INVALID_VALUE;
	if (!ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!current || !live_context(current))
		return CUDA_ERROR_INVALID_CONTEXT;
	*dev = current->device;
	return CUDA_SUCCESS;
}

/* free = total - reserved - used, as nvmlMemory_v2_t has it. */
static CUresult mem_get_info(size_t *free_b, size_t *total_b)
{
	const fm_device *d;
	unsigned long long total, taken;
	unsigned idx;

	if (!free_b || !total_b)
		return CUDA_ERROR_INVALID_VALUE;
	if (!ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!current || !live_context(current))
		return CUDA_ERROR_INVALID_CONTEXT;
	d = devs[current->device].d;
	if (!d->num[FN_MEM_TOTAL].set)
		return CUDA_ERROR_NOT_SUPPORTED;
	idx = fm_tick(machine, d, "cuMemGetInfo", 0);
	total = (unsigned long long)fm_at(&d->num[FN_MEM_TOTAL], idx);
	taken = (unsigned long long)fm_at(&d->num[FN_MEM_RESERVED], idx) +
		(unsigned long long)fm_at(&d->num[FN_MEM_USED], idx);
	*total_b = (size_t)total;
	*free_b = (size_t)(taken > total ? 0 : total - taken);
	return CUDA_SUCCESS;
}

API(cuMemGetInfo, (size_t *free_b, size_t *total_b)) { return mem_get_info(free_b, total_b); }
API(cuMemGetInfo_v2, (size_t *free_b, size_t *total_b)) { return mem_get_info(free_b, total_b); }

/* ---- error names ------------------------------------------------------ */

static const struct {
	int code;
	const char *text;
} error_texts[] = {
	{ 0, "no error" }, { 1, "invalid argument" }, { 2, "out of memory" },
	{ 3, "initialization error" }, { 4, "driver shutting down" },
	{ 34, "CUDA driver is a stub library" }, { 46, "CUDA-capable device(s) is/are busy or unavailable" },
	{ 100, "no CUDA-capable device is detected" }, { 101, "invalid device ordinal" },
	{ 102, "device doesn't have valid Grid license" }, { 200, "device kernel image is invalid" },
	{ 201, "invalid device context" }, { 209, "no kernel image is available for execution on the device" },
	{ 214, "uncorrectable ECC error encountered" },
	{ 222, "the provided PTX was compiled with an unsupported toolchain." },
	{ 304, "OS call failed or operation not supported on this OS" }, { 400, "invalid resource handle" },
	{ 500, "named symbol not found" }, { 700, "an illegal memory access was encountered" },
	{ 800, "operation not permitted" }, { 801, "operation not supported" },
	{ 802, "system not yet initialized" },
	{ 803, "system has unsupported display driver / cuda driver combination" },
	{ 804, "forward compatibility was attempted on non supported HW" }, { 999, "unknown error" },
};

__attribute__((visibility("default"))) CUresult cuGetErrorString(CUresult error, const char **str);
CUresult cuGetErrorString(CUresult error, const char **str)
{
	if (!str)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof(error_texts) / sizeof(error_texts[0]); i++) {
		if (error_texts[i].code == (int)error) {
			*str = error_texts[i].text;
			return CUDA_SUCCESS;
		}
	}
	*str = NULL;
	return CUDA_ERROR_INVALID_VALUE;
}

/* "CUDA_ERROR_" + the name machine.c knows, kept in a static table. */
API(cuGetErrorName, (CUresult error, const char **str))
{
	static char names[32][48];
	static int nnames;
	static int codes[32];
	const char *base;
	CUresult rc = CUDA_SUCCESS;

	if (!str)
		return CUDA_ERROR_INVALID_VALUE;
	if (error == CUDA_SUCCESS) {
		*str = "CUDA_SUCCESS";
		return CUDA_SUCCESS;
	}
	base = fm_cuda_code_name((int)error);
	if (!base) {
		*str = NULL;
		return CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&lock);
	*str = NULL;
	for (int i = 0; i < nnames; i++)
		if (codes[i] == (int)error)
			*str = names[i];
	if (!*str && nnames < 32) {
		snprintf(names[nnames], sizeof(names[nnames]), "CUDA_ERROR_%s", base);
		codes[nnames] = (int)error;
		*str = names[nnames++];
	}
	if (!*str)
		rc = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&lock);
	return rc;
}
