/* gpuwise fakes — reads and validates machine.json into the model of
 * machine.h. Shared, compiled into each fake library (and the fuzzer).
 */
#include "machine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jsonp.h"

#define FM_MAX_FILE ((size_t)16 << 20)
#define FM_MAX_SEQ 100000           /* elements in one number sequence */

/* ---- return-code names ------------------------------------------------ */

typedef struct {
	int code;
	const char *name;
} fm_code_name;

static const fm_code_name nvml_codes[] = {
	{ 0, "SUCCESS" }, { 1, "UNINITIALIZED" }, { 2, "INVALID_ARGUMENT" },
	{ 3, "NOT_SUPPORTED" }, { 4, "NO_PERMISSION" }, { 5, "ALREADY_INITIALIZED" },
	{ 6, "NOT_FOUND" }, { 7, "INSUFFICIENT_SIZE" }, { 8, "INSUFFICIENT_POWER" },
	{ 9, "DRIVER_NOT_LOADED" }, { 10, "TIMEOUT" }, { 11, "IRQ_ISSUE" },
	{ 12, "LIBRARY_NOT_FOUND" }, { 13, "FUNCTION_NOT_FOUND" }, { 14, "CORRUPTED_INFOROM" },
	{ 15, "GPU_IS_LOST" }, { 16, "RESET_REQUIRED" }, { 17, "OPERATING_SYSTEM" },
	{ 18, "LIB_RM_VERSION_MISMATCH" }, { 19, "IN_USE" }, { 20, "MEMORY" },
	{ 21, "NO_DATA" }, { 22, "VGPU_ECC_NOT_SUPPORTED" }, { 23, "INSUFFICIENT_RESOURCES" },
	{ 24, "FREQ_NOT_SUPPORTED" }, { 25, "ARGUMENT_VERSION_MISMATCH" }, { 26, "DEPRECATED" },
	{ 27, "NOT_READY" }, { 28, "GPU_NOT_FOUND" }, { 29, "INVALID_STATE" },
	{ 30, "RESET_TYPE_NOT_SUPPORTED" }, { 999, "UNKNOWN" },
};

static const fm_code_name cuda_codes[] = {
	{ 0, "SUCCESS" }, { 1, "INVALID_VALUE" }, { 2, "OUT_OF_MEMORY" },
	{ 3, "NOT_INITIALIZED" }, { 4, "DEINITIALIZED" }, { 34, "STUB_LIBRARY" },
	{ 46, "DEVICE_UNAVAILABLE" }, { 100, "NO_DEVICE" }, { 101, "INVALID_DEVICE" },
	{ 102, "DEVICE_NOT_LICENSED" }, { 200, "INVALID_IMAGE" }, { 201, "INVALID_CONTEXT" },
	{ 209, "NO_BINARY_FOR_GPU" }, { 214, "ECC_UNCORRECTABLE" }, { 222, "UNSUPPORTED_PTX_VERSION" },
	{ 304, "OPERATING_SYSTEM" }, { 400, "INVALID_HANDLE" }, { 500, "NOT_FOUND" },
	{ 700, "ILLEGAL_ADDRESS" }, { 800, "NOT_PERMITTED" }, { 801, "NOT_SUPPORTED" },
	{ 802, "SYSTEM_NOT_READY" }, { 803, "SYSTEM_DRIVER_MISMATCH" },
	{ 804, "COMPAT_NOT_SUPPORTED_ON_DEVICE" }, { 999, "UNKNOWN" },
};

static int code_lookup(const fm_code_name *t, size_t n, const char *name, int *out)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(t[i].name, name) == 0) {
			*out = t[i].code;
			return 0;
		}
	}
	return -1;
}

static const char *strip_prefix(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) == 0 ? s + n : s;
}

int fm_nvml_code(const char *name, int *out)
{
	if (!name)
		return -1;
	if (strcmp(name, "NVML_SUCCESS") == 0)
		name = "SUCCESS";
	name = strip_prefix(strip_prefix(name, "NVML_ERROR_"), "ERROR_");
	return code_lookup(nvml_codes, sizeof(nvml_codes) / sizeof(nvml_codes[0]), name, out);
}

const char *fm_nvml_code_name(int code)
{
	for (size_t i = 0; i < sizeof(nvml_codes) / sizeof(nvml_codes[0]); i++)
		if (nvml_codes[i].code == code)
			return nvml_codes[i].name;
	return NULL;
}

int fm_cuda_code(const char *name, int *out)
{
	if (!name)
		return -1;
	if (strcmp(name, "CUDA_SUCCESS") == 0)
		name = "SUCCESS";
	name = strip_prefix(name, "CUDA_ERROR_");
	return code_lookup(cuda_codes, sizeof(cuda_codes) / sizeof(cuda_codes[0]), name, out);
}

const char *fm_cuda_code_name(int code)
{
	for (size_t i = 0; i < sizeof(cuda_codes) / sizeof(cuda_codes[0]); i++)
		if (cuda_codes[i].code == code)
			return cuda_codes[i].name;
	return NULL;
}

/* ---- parse context and errors ----------------------------------------- */

typedef struct {
	char *err;
	size_t errsz;
	int failed;
	unsigned long total_seq;    /* bound on all sequence elements together */
} fm_ctx;

__attribute__((format(printf, 3, 4)))
static int bad(fm_ctx *c, const gw_jv *at, const char *fmt, ...)
{
	va_list ap;
	size_t off = 0;

	if (c->failed)
		return -1;
	c->failed = 1;
	if (!c->err || !c->errsz)
		return -1;
	if (at) {
		int n = snprintf(c->err, c->errsz, "%d:%d: ", at->line, at->col);

		off = n > 0 && (size_t)n < c->errsz ? (size_t)n : 0;
	}
	va_start(ap, fmt);
	vsnprintf(c->err + off, c->errsz - off, fmt, ap);
	va_end(ap);
	return -1;
}

static char *dup_str(fm_ctx *c, const gw_jv *at, const char *s)
{
	char *d = strdup(s);

	if (!d)
		bad(c, at, "out of memory");
	return d;
}

/* ---- numbers ---------------------------------------------------------- */

enum { NF_SIGNED = 1 };

static int one_number(fm_ctx *c, const gw_jv *v, const char *what, int flags, int64_t *out)
{
	if (v->type == GW_JV_NUMBER) {
		if (v->u.num.is_int) {
			*out = v->u.num.i;
		} else {
			double d = v->u.num.d;

			/* 1e9 is fine; 12.5 and 1e30 are not. */
			if (!(d >= -9.2e18 && d <= 9.2e18) || d != (double)(int64_t)d)
				return bad(c, v, "%s: expected an integer, got %g", what, d);
			*out = (int64_t)d;
		}
	} else if (v->type == GW_JV_STRING && (strncmp(v->u.str.s, "0x", 2) == 0 ||
					       strncmp(v->u.str.s, "0X", 2) == 0)) {
		char *end;
		unsigned long long x;

		errno = 0;
		x = strtoull(v->u.str.s + 2, &end, 16);
		if (errno || end == v->u.str.s + 2 || *end || x > (unsigned long long)INT64_MAX)
			return bad(c, v, "%s: invalid hex number \"%s\"", what, v->u.str.s);
		*out = (int64_t)x;
	} else {
		return bad(c, v, "%s: expected a number, got %s", what, gw_jv_type_name(v->type));
	}
	if (*out < 0 && !(flags & NF_SIGNED))
		return bad(c, v, "%s: expected a non-negative number, got %lld", what, (long long)*out);
	return 0;
}

/* v NULL or null leaves f unset. */
static int parse_num(fm_ctx *c, const gw_jv *v, fm_num *f, const char *what, int flags)
{
	size_t n;

	memset(f, 0, sizeof(*f));
	if (!v || v->type == GW_JV_NULL)
		return 0;
	n = v->type == GW_JV_ARRAY ? v->u.arr.n : 1;
	if (n == 0)
		return bad(c, v, "%s: empty array (use null for \"not supported\")", what);
	c->total_seq += n;
	if (n > FM_MAX_SEQ || c->total_seq > 10 * FM_MAX_SEQ)
		return bad(c, v, "%s: too many values", what);
	f->v = calloc(n, sizeof(*f->v));
	if (!f->v)
		return bad(c, v, "out of memory");
	f->n = (unsigned)n;
	f->set = 1;
	if (v->type != GW_JV_ARRAY)
		return one_number(c, v, what, flags, &f->v[0]);
	for (size_t i = 0; i < n; i++)
		if (one_number(c, &v->u.arr.items[i], what, flags, &f->v[i]))
			return -1;
	return 0;
}

static void free_num(fm_num *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

int64_t fm_at(const fm_num *f, unsigned idx)
{
	if (!f->set || !f->n)
		return 0;
	return f->v[idx < f->n ? idx : f->n - 1];
}

/* ---- object paths ----------------------------------------------------- */

/* Walk "a.b.c" from obj. Missing or null on the way → *out NULL. A
 * non-object on the way is an error. */
static int get_path(fm_ctx *c, const gw_jv *obj, const char *path, const gw_jv **out)
{
	char part[64];
	const char *p = path;

	*out = NULL;
	while (obj && obj->type != GW_JV_NULL) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);

		if (obj->type != GW_JV_OBJECT)
			return bad(c, obj, "%s: expected an object on the way, got %s",
				   path, gw_jv_type_name(obj->type));
		if (n >= sizeof(part))
			return -1;
		memcpy(part, p, n);
		part[n] = '\0';
		obj = gw_jv_get(obj, part);
		if (!dot) {
			*out = obj && obj->type != GW_JV_NULL ? obj : NULL;
			return 0;
		}
		p = dot + 1;
	}
	return 0;
}

static const struct {
	enum fm_num_id id;
	const char *path;
	int flags;
} num_fields[] = {
	{ FN_MINOR, "minor_number", 0 },
	{ FN_PCI_DOMAIN, "pci.domain", 0 }, { FN_PCI_BUS, "pci.bus", 0 },
	{ FN_PCI_DEVICE, "pci.device", 0 }, { FN_PCI_DEVICE_ID, "pci.pci_device_id", 0 },
	{ FN_PCI_SUBSYS_ID, "pci.pci_subsystem_id", 0 },
	{ FN_ARCH, "architecture", 0 }, { FN_MP_COUNT, "multiprocessor_count", 0 },
	{ FN_CORES, "num_gpu_cores", 0 },
	{ FN_MEM_TOTAL, "memory.total", 0 }, { FN_MEM_RESERVED, "memory.reserved", 0 },
	{ FN_MEM_USED, "memory.used", 0 },
	{ FN_BAR1_TOTAL, "bar1_memory.total", 0 }, { FN_BAR1_USED, "bar1_memory.used", 0 },
	{ FN_UTIL_GPU, "utilization.gpu", 0 }, { FN_UTIL_MEM, "utilization.memory", 0 },
	{ FN_ENC_UTIL, "encoder_utilization", 0 }, { FN_DEC_UTIL, "decoder_utilization", 0 },
	{ FN_TEMP_GPU, "temperature.gpu", NF_SIGNED }, { FN_TEMP_MEM, "temperature.memory", NF_SIGNED },
	{ FN_TEMP_SLOWDOWN, "temperature.slowdown", NF_SIGNED },
	{ FN_TEMP_SHUTDOWN, "temperature.shutdown", NF_SIGNED },
	{ FN_FAN, "fan_speed", 0 },
	{ FN_POWER_USAGE, "power.usage", 0 }, { FN_POWER_ENFORCED, "power.enforced_limit", 0 },
	{ FN_POWER_MGMT, "power.management_limit", 0 }, { FN_ENERGY, "power.total_energy", 0 },
	{ FN_CLK_GRAPHICS, "clocks.graphics", 0 }, { FN_CLK_SM, "clocks.sm", 0 },
	{ FN_CLK_MEM, "clocks.mem", 0 }, { FN_CLK_VIDEO, "clocks.video", 0 },
	{ FN_MAXCLK_GRAPHICS, "max_clocks.graphics", 0 }, { FN_MAXCLK_SM, "max_clocks.sm", 0 },
	{ FN_MAXCLK_MEM, "max_clocks.mem", 0 }, { FN_MAXCLK_VIDEO, "max_clocks.video", 0 },
	{ FN_PSTATE, "performance_state", 0 },
	{ FN_PCIE_CURR_GEN, "pcie.curr_gen", 0 }, { FN_PCIE_CURR_WIDTH, "pcie.curr_width", 0 },
	{ FN_PCIE_MAX_GEN, "pcie.max_gen", 0 }, { FN_PCIE_MAX_WIDTH, "pcie.max_width", 0 },
	{ FN_PCIE_GPU_MAX_GEN, "pcie.gpu_max_gen", 0 }, { FN_PCIE_TX, "pcie.tx", 0 },
	{ FN_PCIE_RX, "pcie.rx", 0 }, { FN_PCIE_REPLAY, "pcie.replay_counter", 0 },
	{ FN_PERSISTENCE, "persistence_mode", 0 }, { FN_COMPUTE_MODE, "compute_mode", 0 },
	{ FN_DISPLAY_MODE, "display_mode", 0 }, { FN_DISPLAY_ACTIVE, "display_active", 0 },
	{ FN_ECC_CURRENT, "ecc.current", 0 }, { FN_ECC_PENDING, "ecc.pending", 0 },
	{ FN_ECC_CORR_VOL, "ecc.corrected_volatile", 0 },
	{ FN_ECC_UNC_VOL, "ecc.uncorrected_volatile", 0 },
	{ FN_ECC_CORR_AGG, "ecc.corrected_aggregate", 0 },
	{ FN_ECC_UNC_AGG, "ecc.uncorrected_aggregate", 0 },
	{ FN_RR_CORR, "remapped_rows.correctable", 0 }, { FN_RR_UNC, "remapped_rows.uncorrectable", 0 },
	{ FN_RR_PENDING, "remapped_rows.pending", 0 }, { FN_RR_FAILURE, "remapped_rows.failure", 0 },
	{ FN_RETIRED_SBE, "retired_pages.multiple_single_bit", 0 },
	{ FN_RETIRED_DBE, "retired_pages.double_bit", 0 },
	{ FN_RETIRED_PENDING, "retired_pages.pending", 0 },
	{ FN_EVENT_REASONS, "clocks_event_reasons", 0 },
	{ FN_MEM_BUS_WIDTH, "memory_bus_width", 0 }, { FN_L2_CACHE, "l2_cache_size", 0 },
	{ FN_MIG_CURRENT, "mig.current", 0 }, { FN_MIG_PENDING, "mig.pending", 0 },
	{ FN_MIG_MAX, "mig.max_devices", 0 },
	{ FN_GI_ID, "gpu_instance_id", 0 }, { FN_CI_ID, "compute_instance_id", 0 },
	{ FN_GPM_GRAPHICS, "gpm.graphics_util", 0 }, { FN_GPM_SM, "gpm.sm_util", 0 },
	{ FN_GPM_SM_OCCUPANCY, "gpm.sm_occupancy", 0 }, { FN_GPM_TENSOR, "gpm.any_tensor_util", 0 },
	{ FN_GPM_DRAM, "gpm.dram_bw_util", 0 }, { FN_GPM_FP64, "gpm.fp64_util", 0 },
	{ FN_GPM_FP32, "gpm.fp32_util", 0 }, { FN_GPM_FP16, "gpm.fp16_util", 0 },
	{ FN_GPM_PCIE_TX, "gpm.pcie_tx", 0 }, { FN_GPM_PCIE_RX, "gpm.pcie_rx", 0 },
	{ FN_GPM_NVLINK_TX, "gpm.nvlink_tx", 0 }, { FN_GPM_NVLINK_RX, "gpm.nvlink_rx", 0 },
};

static const char *const str_fields[FS_COUNT] = {
	[FS_NAME] = "name", [FS_UUID] = "uuid", [FS_SERIAL] = "serial",
	[FS_PART] = "board_part_number", [FS_VBIOS] = "vbios_version", [FS_BUS_ID] = "pci.bus_id",
};

/* ---- devices ---------------------------------------------------------- */

static void free_device(fm_device *d);

static void free_procs(fm_proc_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		fm_process *p = &l->p[i];

		free(p->name);
		free_num(&p->used_memory);
		free_num(&p->gi);
		free_num(&p->ci);
		free_num(&p->sm);
		free_num(&p->mem);
		free_num(&p->enc);
		free_num(&p->dec);
	}
	free(l->p);
	l->p = NULL;
	l->n = 0;
}

static void free_device(fm_device *d)
{
	for (int i = 0; i < FN_COUNT; i++)
		free_num(&d->num[i]);
	for (int i = 0; i < FS_COUNT; i++)
		free(d->str[i]);
	for (int k = 0; k < FM_PROC_KINDS; k++)
		free_procs(&d->procs[k]);
	for (size_t i = 0; i < d->nerrors; i++) {
		free(d->errors[i].fn);
		free_num(&d->errors[i].code);
	}
	free(d->errors);
	for (size_t i = 0; i < d->nnvlinks; i++) {
		free_num(&d->nvlinks[i].state);
		free_num(&d->nvlinks[i].tx_kib);
		free_num(&d->nvlinks[i].rx_kib);
	}
	free(d->nvlinks);
	free(d->xids);
	free(d->topology.v);
	for (int k = 0; k < FM_P2P_CAPS; k++)
		free(d->p2p[k].v);
	for (size_t i = 0; i < d->nmig; i++)
		free_device(&d->mig[i]);
	free(d->mig);
}

static int parse_process(fm_ctx *c, const gw_jv *v, fm_process *p)
{
	const gw_jv *pid;

	if (v->type != GW_JV_OBJECT)
		return bad(c, v, "process: expected an object, got %s", gw_jv_type_name(v->type));
	pid = gw_jv_get(v, "pid");
	if (!pid)
		return bad(c, v, "process: missing \"pid\"");
	if (pid->type == GW_JV_STRING && strcmp(pid->u.str.s, "$SLEEPER") == 0) {
		p->sleeper = 1;
	} else if (gw_jv_int64(pid, &p->pid) || p->pid <= 0 || p->pid > 0x7fffffff) {
		return bad(c, pid, "process pid: expected a positive integer or \"$SLEEPER\"");
	}
	if (gw_jv_get(v, "name")) {
		const gw_jv *n = gw_jv_get(v, "name");

		if (n->type == GW_JV_STRING) {
			if (!(p->name = dup_str(c, n, n->u.str.s)))
				return -1;
		} else if (n->type != GW_JV_NULL) {
			return bad(c, n, "process name: expected a string");
		}
	}
	if (parse_num(c, gw_jv_get(v, "used_gpu_memory"), &p->used_memory, "used_gpu_memory", 0) ||
	    parse_num(c, gw_jv_get(v, "gpu_instance_id"), &p->gi, "gpu_instance_id", 0) ||
	    parse_num(c, gw_jv_get(v, "compute_instance_id"), &p->ci, "compute_instance_id", 0) ||
	    parse_num(c, gw_jv_get(v, "sm_util"), &p->sm, "sm_util", 0) ||
	    parse_num(c, gw_jv_get(v, "mem_util"), &p->mem, "mem_util", 0) ||
	    parse_num(c, gw_jv_get(v, "enc_util"), &p->enc, "enc_util", 0) ||
	    parse_num(c, gw_jv_get(v, "dec_util"), &p->dec, "dec_util", 0))
		return -1;
	return 0;
}

static int parse_processes(fm_ctx *c, const gw_jv *dev, fm_device *d)
{
	static const char *const kinds[FM_PROC_KINDS] = { "compute", "graphics", "mps" };
	const gw_jv *procs = gw_jv_get(dev, "processes");

	if (!procs || procs->type == GW_JV_NULL)
		return 0;
	if (procs->type != GW_JV_OBJECT)
		return bad(c, procs, "processes: expected an object with \"compute\"/\"graphics\" lists");
	d->has_processes = 1;
	for (int k = 0; k < FM_PROC_KINDS; k++) {
		const gw_jv *l = gw_jv_get(procs, kinds[k]);

		if (!l || l->type == GW_JV_NULL)
			continue;
		if (l->type != GW_JV_ARRAY)
			return bad(c, l, "processes.%s: expected an array", kinds[k]);
		if (l->u.arr.n > 4096)
			return bad(c, l, "processes.%s: too many processes", kinds[k]);
		d->procs[k].p = calloc(l->u.arr.n ? l->u.arr.n : 1, sizeof(fm_process));
		if (!d->procs[k].p)
			return bad(c, l, "out of memory");
		for (size_t i = 0; i < l->u.arr.n; i++) {
			d->procs[k].n++;
			if (parse_process(c, &l->u.arr.items[i], &d->procs[k].p[i]))
				return -1;
		}
	}
	return 0;
}

static int parse_code_value(fm_ctx *c, const gw_jv *v, fm_num *f, int cuda)
{
	size_t n = v->type == GW_JV_ARRAY ? v->u.arr.n : 1;

	if (n == 0 || n > FM_MAX_SEQ)
		return bad(c, v, "error code: expected a code name, a number or a non-empty array");
	f->v = calloc(n, sizeof(*f->v));
	if (!f->v)
		return bad(c, v, "out of memory");
	f->n = (unsigned)n;
	f->set = 1;
	for (size_t i = 0; i < n; i++) {
		const gw_jv *e = v->type == GW_JV_ARRAY ? &v->u.arr.items[i] : v;
		int code;

		if (e->type == GW_JV_STRING) {
			if ((cuda ? fm_cuda_code : fm_nvml_code)(e->u.str.s, &code))
				return bad(c, e, "unknown %s return code \"%s\"", cuda ? "CUDA" : "NVML",
					   e->u.str.s);
			f->v[i] = code;
		} else if (gw_jv_int64(e, &f->v[i]) || f->v[i] < 0 || f->v[i] > 100000) {
			return bad(c, e, "error code: expected a code name or a small number");
		}
	}
	return 0;
}

static int parse_errors(fm_ctx *c, const gw_jv *dev, fm_device *d)
{
	const gw_jv *errs = gw_jv_get(dev, "errors");

	if (!errs || errs->type == GW_JV_NULL)
		return 0;
	if (errs->type != GW_JV_OBJECT)
		return bad(c, errs, "errors: expected an object {\"nvmlDeviceGetX\": \"CODE\"}");
	d->errors = calloc(errs->u.obj.n ? errs->u.obj.n : 1, sizeof(*d->errors));
	if (!d->errors)
		return bad(c, errs, "out of memory");
	for (size_t i = 0; i < errs->u.obj.n; i++) {
		const gw_jv_member *m = &errs->u.obj.members[i];
		fm_error *e = &d->errors[d->nerrors++];

		if (!(e->fn = dup_str(c, &m->value, m->key)))
			return -1;
		if (parse_code_value(c, &m->value, &e->code, 0))
			return -1;
	}
	return 0;
}

/* "xid_events": [79, {"xid": 13, "after_ms": 500}] */
static int parse_xids(fm_ctx *c, const gw_jv *dev, fm_device *d)
{
	const gw_jv *l = gw_jv_get(dev, "xid_events");

	if (!l || l->type == GW_JV_NULL)
		return 0;
	if (l->type != GW_JV_ARRAY || l->u.arr.n > 4096)
		return bad(c, l, "xid_events: expected an array of Xid numbers or {\"xid\", \"after_ms\"} objects");
	if (!(d->xids = calloc(l->u.arr.n ? l->u.arr.n : 1, sizeof(*d->xids))))
		return bad(c, l, "out of memory");
	for (size_t i = 0; i < l->u.arr.n; i++) {
		const gw_jv *e = &l->u.arr.items[i], *x = e, *after = NULL;
		fm_xid *out = &d->xids[d->nxids++];

		if (e->type == GW_JV_OBJECT) {
			x = gw_jv_get(e, "xid");
			after = gw_jv_get(e, "after_ms");
		}
		if (!x || gw_jv_int64(x, &out->xid) || out->xid < 0 || out->xid > 0xffffffffLL)
			return bad(c, e, "xid_events: expected an Xid number");
		if (after && (gw_jv_int64(after, &out->after_ms) || out->after_ms < 0 || out->after_ms > 86400000))
			return bad(c, after, "xid_events: after_ms: expected milliseconds (0 to 86400000)");
	}
	return 0;
}

/* ---- topology and peer-to-peer status (per peer NVML index) ----------- */

typedef struct {
	const char *name;
	int value;
} fm_named;

/* nvmlGpuTopologyLevel_t, under NVML's names and nvidia-smi topo -m's. */
static const fm_named topo_names[] = {
	{ "INTERNAL", 0 }, { "SINGLE", 10 }, { "MULTIPLE", 20 }, { "HOSTBRIDGE", 30 }, { "NODE", 40 },
	{ "SYSTEM", 50 }, { "CPU", 40 }, { "PIX", 10 }, { "PXB", 20 }, { "PHB", 30 }, { "SYS", 50 },
};

/* nvmlGpuP2PStatus_t (nvml.h keeps the misspelt CHIPSET_NOT_SUPPORED too). */
static const fm_named p2p_names[] = {
	{ "OK", 0 }, { "CHIPSET_NOT_SUPPORTED", 1 }, { "CHIPSET_NOT_SUPPORED", 1 }, { "GPU_NOT_SUPPORTED", 2 },
	{ "IOH_TOPOLOGY_NOT_SUPPORTED", 3 }, { "DISABLED_BY_REGKEY", 4 }, { "NOT_SUPPORTED", 5 }, { "UNKNOWN", 6 },
};

static int named_value(const fm_named *t, size_t n, const char *prefix, const char *s, int *out)
{
	s = strip_prefix(s, prefix);
	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i].name, s) == 0) {
			*out = t[i].value;
			return 0;
		}
	return -1;
}

/* [v, v, null, ...]: a number in [lo, hi] or a name of the table each. */
static int parse_peer_list(fm_ctx *c, const gw_jv *l, const char *what, const fm_named *t, size_t nt,
			   const char *prefix, int hi, fm_peer_list *out)
{
	if (!l || l->type == GW_JV_NULL)
		return 0;
	if (l->type != GW_JV_ARRAY || l->u.arr.n > FM_MAX_DEVICES)
		return bad(c, l, "%s: expected an array with one entry per GPU (NVML index)", what);
	if (!(out->v = calloc(l->u.arr.n ? l->u.arr.n : 1, sizeof(*out->v))))
		return bad(c, l, "out of memory");
	for (size_t i = 0; i < l->u.arr.n; i++) {
		const gw_jv *e = &l->u.arr.items[i];
		int64_t v;
		int *slot = &out->v[out->n++];

		*slot = -1;
		if (e->type == GW_JV_NULL)
			continue;
		if (e->type == GW_JV_STRING) {
			if (named_value(t, nt, prefix, e->u.str.s, slot))
				return bad(c, e, "%s: unknown name \"%s\"", what, e->u.str.s);
		} else if (gw_jv_int64(e, &v) || v < 0 || v > hi) {
			return bad(c, e, "%s: expected a name or a number from 0 to %d", what, hi);
		} else {
			*slot = (int)v;
		}
	}
	return 0;
}

/* "topology": ["SYS", "NODE", ...], "p2p": {"read": ["OK", ...], ...} */
static int parse_peers(fm_ctx *c, const gw_jv *dev, fm_device *d)
{
	static const char *const caps[FM_P2P_CAPS] = { "read", "write", "nvlink", "atomics", "pci" };
	const gw_jv *p2p = gw_jv_get(dev, "p2p");
	char what[32];

	if (parse_peer_list(c, gw_jv_get(dev, "topology"), "topology", topo_names,
			    sizeof(topo_names) / sizeof(topo_names[0]), "NVML_TOPOLOGY_", 50, &d->topology))
		return -1;
	if (!p2p || p2p->type == GW_JV_NULL)
		return 0;
	if (p2p->type != GW_JV_OBJECT)
		return bad(c, p2p, "p2p: expected an object {\"read\": [...], \"write\": [...], ...}");
	for (int k = 0; k < FM_P2P_CAPS; k++) {
		snprintf(what, sizeof(what), "p2p.%s", caps[k]);
		if (parse_peer_list(c, gw_jv_get(p2p, caps[k]), what, p2p_names, sizeof(p2p_names) / sizeof(p2p_names[0]),
				    "NVML_P2P_STATUS_", 6, &d->p2p[k]))
			return -1;
	}
	return 0;
}

/* ---- NVLink links ------------------------------------------------------ */

/* One "nvlinks" entry: null, or {"state", "tx_kib", "rx_kib"}. */
static int parse_nvlink(fm_ctx *c, const gw_jv *e, fm_nvlink *l)
{
	const gw_jv *st;

	if (e->type == GW_JV_NULL)
		return 0;
	if (e->type != GW_JV_OBJECT)
		return bad(c, e, "nvlinks: expected null or an object {\"state\", \"tx_kib\", \"rx_kib\"}");
	l->present = 1;
	st = gw_jv_get(e, "state");
	if (st && st->type == GW_JV_STRING) {
		int on = strcmp(st->u.str.s, "active") == 0;

		if (!on && strcmp(st->u.str.s, "inactive") != 0)
			return bad(c, st, "nvlinks.state: expected 0, 1, \"active\" or \"inactive\"");
		if (!(l->state.v = calloc(1, sizeof(*l->state.v))))
			return bad(c, st, "out of memory");
		l->state.set = 1, l->state.n = 1, l->state.v[0] = on;
	} else if (parse_num(c, st, &l->state, "nvlinks.state", 0)) {
		return -1;
	}
	return parse_num(c, gw_jv_get(e, "tx_kib"), &l->tx_kib, "nvlinks.tx_kib", 0) ||
	       parse_num(c, gw_jv_get(e, "rx_kib"), &l->rx_kib, "nvlinks.rx_kib", 0);
}

static int parse_nvlinks(fm_ctx *c, const gw_jv *dev, fm_device *d)
{
	const gw_jv *l = gw_jv_get(dev, "nvlinks");

	if (!l || l->type == GW_JV_NULL)
		return 0;
	if (l->type != GW_JV_ARRAY || l->u.arr.n > FM_MAX_NVLINKS)
		return bad(c, l, "nvlinks: expected an array of at most %d links", FM_MAX_NVLINKS);
	if (!(d->nvlinks = calloc(l->u.arr.n ? l->u.arr.n : 1, sizeof(*d->nvlinks))))
		return bad(c, l, "out of memory");
	for (size_t i = 0; i < l->u.arr.n; i++) {
		d->nnvlinks++;
		if (parse_nvlink(c, &l->u.arr.items[i], &d->nvlinks[i]))
			return -1;
	}
	return 0;
}

/* "00000000:18:00.0", "0000:18:00.0" (any case) → domain, bus, device. */
static int parse_bus_id(const char *s, unsigned *dom, unsigned *bus, unsigned *dev, unsigned *fn)
{
	char *end;
	unsigned long v[4];
	const char *p = s;

	for (int i = 0; i < 4; i++) {
		errno = 0;
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')))
			return -1;
		v[i] = strtoul(p, &end, 16);
		if (errno || end == p)
			return -1;
		p = end;
		if (i < 2 && *p == ':')
			p++;
		else if (i == 2 && *p == '.')
			p++;
		else if (i < 3)
			return -1;
	}
	if (*p || v[0] > 0xffffffffUL || v[1] > 0xff || v[2] > 0x1f || v[3] > 7)
		return -1;
	*dom = (unsigned)v[0];
	*bus = (unsigned)v[1];
	*dev = (unsigned)v[2];
	*fn = (unsigned)v[3];
	return 0;
}

static int set_num(fm_ctx *c, fm_num *f, int64_t v)
{
	f->v = calloc(1, sizeof(*f->v));
	if (!f->v)
		return bad(c, NULL, "out of memory");
	f->v[0] = v;
	f->n = 1;
	f->set = 1;
	return 0;
}

/* Fill PCI numbers from the bus id or the other way round; normalise the
 * bus id to NVML's "%08X:%02X:%02X.0". */
static int derive_pci(fm_ctx *c, const gw_jv *dev, fm_device *d)
{
	char buf[32];

	if (d->str[FS_BUS_ID]) {
		unsigned dom, bus, slot, fn;
		const gw_jv *at = NULL;

		get_path(c, dev, "pci.bus_id", &at);
		if (parse_bus_id(d->str[FS_BUS_ID], &dom, &bus, &slot, &fn))
			return bad(c, at, "pci.bus_id: expected \"DDDDDDDD:BB:DD.F\", got \"%s\"",
				   d->str[FS_BUS_ID]);
		if ((!d->num[FN_PCI_DOMAIN].set && set_num(c, &d->num[FN_PCI_DOMAIN], dom)) ||
		    (!d->num[FN_PCI_BUS].set && set_num(c, &d->num[FN_PCI_BUS], bus)) ||
		    (!d->num[FN_PCI_DEVICE].set && set_num(c, &d->num[FN_PCI_DEVICE], slot)))
			return -1;
		snprintf(buf, sizeof(buf), "%08X:%02X:%02X.%X", dom, bus, slot, fn);
		free(d->str[FS_BUS_ID]);
		d->str[FS_BUS_ID] = NULL;
	} else if (d->num[FN_PCI_BUS].set) {
		snprintf(buf, sizeof(buf), "%08X:%02X:%02X.0",
			 (unsigned)fm_at(&d->num[FN_PCI_DOMAIN], 0) & 0xffffffffu,
			 (unsigned)fm_at(&d->num[FN_PCI_BUS], 0) & 0xffu,
			 (unsigned)fm_at(&d->num[FN_PCI_DEVICE], 0) & 0x1fu);
	} else {
		return 0;
	}
	d->str[FS_BUS_ID] = dup_str(c, NULL, buf);
	return d->str[FS_BUS_ID] ? 0 : -1;
}

/* ---- the bench block -------------------------------------------------- */

static const struct {
	enum fm_bench_id id;
	const char *path;
} bench_fields[] = {
	{ FB_H2D, "h2d_gbs" }, { FB_D2H, "d2h_gbs" }, { FB_H2D_PAGEABLE, "h2d_pageable_gbs" },
	{ FB_D2H_PAGEABLE, "d2h_pageable_gbs" }, { FB_MEMORY, "memory_gbs" },
	{ FB_MEMORY_CE, "memory_ce_gbs" }, { FB_P2P, "p2p_gbs" },
	{ FB_LAUNCH_US, "launch_us" }, { FB_FP32, "tflops.fp32" }, { FB_TF32, "tflops.tf32" },
	{ FB_FP16, "tflops.fp16" }, { FB_BF16, "tflops.bf16" }, { FB_FP8, "tflops.fp8" },
};

/* Rates are positive numbers, fractions allowed (25.3 GB/s); null = default. */
static int parse_bench(fm_ctx *c, const gw_jv *dev, fm_device *d)
{
	const gw_jv *b = gw_jv_get(dev, "bench"), *f;

	if (!b || b->type == GW_JV_NULL)
		return 0;
	if (b->type != GW_JV_OBJECT)
		return bad(c, b, "bench: expected an object, got %s", gw_jv_type_name(b->type));
	for (size_t i = 0; i < sizeof(bench_fields) / sizeof(bench_fields[0]); i++) {
		double v;

		if (get_path(c, b, bench_fields[i].path, &f))
			return -1;
		if (!f || f->type == GW_JV_NULL)
			continue;
		if (f->type != GW_JV_NUMBER)
			return bad(c, f, "bench.%s: expected a number, got %s", bench_fields[i].path,
				   gw_jv_type_name(f->type));
		v = f->u.num.is_int ? (double)f->u.num.i : f->u.num.d;
		if (!(v > 0 && v < 1e9))
			return bad(c, f, "bench.%s: expected a positive number, got %g", bench_fields[i].path, v);
		d->bench[bench_fields[i].id].set = 1;
		d->bench[bench_fields[i].id].v = v;
	}
	return 0;
}

static int parse_device(fm_ctx *c, const gw_jv *v, fm_device *d, int is_mig);

static int parse_mig(fm_ctx *c, const gw_jv *dev, fm_device *d)
{
	const gw_jv *mig = gw_jv_get(dev, "mig"), *list;

	if (!mig || mig->type == GW_JV_NULL)
		return 0;
	if (mig->type != GW_JV_OBJECT)
		return bad(c, mig, "mig: expected an object");
	d->has_mig = 1;
	list = gw_jv_get(mig, "devices");
	if (!list || list->type == GW_JV_NULL)
		return 0;
	if (list->type != GW_JV_ARRAY)
		return bad(c, list, "mig.devices: expected an array");
	if (list->u.arr.n > 64)
		return bad(c, list, "mig.devices: too many MIG devices");
	d->mig = calloc(list->u.arr.n ? list->u.arr.n : 1, sizeof(*d->mig));
	if (!d->mig)
		return bad(c, list, "out of memory");
	for (size_t i = 0; i < list->u.arr.n; i++) {
		fm_device *m = &d->mig[d->nmig++];

		m->index = (int)i;
		m->parent = d;
		if (parse_device(c, &list->u.arr.items[i], m, 1))
			return -1;
	}
	return 0;
}

static int parse_device(fm_ctx *c, const gw_jv *v, fm_device *d, int is_mig)
{
	const gw_jv *f, *cc;
	char what[64];

	d->magic = FM_DEVICE_MAGIC;
	if (v->type != GW_JV_OBJECT)
		return bad(c, v, "%s: expected an object, got %s", is_mig ? "MIG device" : "device",
			   gw_jv_type_name(v->type));
	for (size_t i = 0; i < sizeof(num_fields) / sizeof(num_fields[0]); i++) {
		if (get_path(c, v, num_fields[i].path, &f))
			return -1;
		if (parse_num(c, f, &d->num[num_fields[i].id], num_fields[i].path, num_fields[i].flags))
			return -1;
	}
	for (int i = 0; i < FS_COUNT; i++) {
		if (get_path(c, v, str_fields[i], &f))
			return -1;
		if (!f)
			continue;
		if (f->type != GW_JV_STRING)
			return bad(c, f, "%s: expected a string, got %s", str_fields[i], gw_jv_type_name(f->type));
		if (!(d->str[i] = dup_str(c, f, f->u.str.s)))
			return -1;
	}
	cc = gw_jv_get(v, "cuda_compute_capability");
	if (cc && cc->type != GW_JV_NULL) {
		if (cc->type != GW_JV_ARRAY || cc->u.arr.n != 2)
			return bad(c, cc, "cuda_compute_capability: expected [major, minor]");
		snprintf(what, sizeof(what), "cuda_compute_capability");
		if (parse_num(c, &cc->u.arr.items[0], &d->num[FN_CC_MAJOR], what, 0) ||
		    parse_num(c, &cc->u.arr.items[1], &d->num[FN_CC_MINOR], what, 0))
			return -1;
	}
	if (derive_pci(c, v, d) || parse_processes(c, v, d) || parse_errors(c, v, d) || parse_bench(c, v, d) ||
	    parse_xids(c, v, d) || (!is_mig && parse_peers(c, v, d)) ||
	    (!is_mig && parse_nvlinks(c, v, d)))
		return -1;
	if (!is_mig && parse_mig(c, v, d))
		return -1;
	return 0;
}

/* ---- the machine ------------------------------------------------------ */

static int parse_string_field(fm_ctx *c, const gw_jv *obj, const char *key, char **out)
{
	const gw_jv *v = gw_jv_get(obj, key);

	if (!v || v->type == GW_JV_NULL)
		return 0;
	if (v->type != GW_JV_STRING)
		return bad(c, v, "%s: expected a string, got %s", key, gw_jv_type_name(v->type));
	*out = dup_str(c, v, v->u.str.s);
	return *out ? 0 : -1;
}

static int parse_init_code(fm_ctx *c, const gw_jv *obj, int cuda, int *out)
{
	const gw_jv *v = gw_jv_get(obj, "init");
	fm_num f = { 0 };
	int rc;

	*out = 0;
	if (!v || v->type == GW_JV_NULL)
		return 0;
	if (v->type == GW_JV_ARRAY)
		return bad(c, v, "init: expected one code");
	rc = parse_code_value(c, v, &f, cuda);
	if (rc == 0)
		*out = (int)f.v[0];
	free_num(&f);
	return rc;
}

static int parse_nvml(fm_ctx *c, const gw_jv *nvml, fm_machine *m)
{
	const gw_jv *devs;

	if (!nvml || nvml->type == GW_JV_NULL)
		return 0;
	if (nvml->type != GW_JV_OBJECT)
		return bad(c, nvml, "nvml: expected an object");
	if (parse_init_code(c, nvml, 0, &m->nvml_init) ||
	    parse_string_field(c, nvml, "driver_version", &m->driver_version) ||
	    parse_string_field(c, nvml, "nvml_version", &m->nvml_version) ||
	    parse_num(c, gw_jv_get(nvml, "cuda_driver_version"), &m->cuda_driver_version,
		      "cuda_driver_version", 0))
		return -1;
	devs = gw_jv_get(nvml, "devices");
	if (!devs || devs->type == GW_JV_NULL)
		return 0;
	if (devs->type != GW_JV_ARRAY)
		return bad(c, devs, "nvml.devices: expected an array");
	if (devs->u.arr.n > FM_MAX_DEVICES)
		return bad(c, devs, "nvml.devices: too many devices");
	m->devices = calloc(devs->u.arr.n ? devs->u.arr.n : 1, sizeof(*m->devices));
	if (!m->devices)
		return bad(c, devs, "out of memory");
	for (size_t i = 0; i < devs->u.arr.n; i++) {
		fm_device *d = &m->devices[m->ndevices++];

		d->index = (int)i;
		if (parse_device(c, &devs->u.arr.items[i], d, 0))
			return -1;
	}
	return 0;
}

static int parse_cuda(fm_ctx *c, const gw_jv *cuda, fm_machine *m)
{
	const gw_jv *ffo;

	if (!cuda || cuda->type == GW_JV_NULL)
		return 0;
	if (cuda->type != GW_JV_OBJECT)
		return bad(c, cuda, "cuda: expected an object");
	if (parse_init_code(c, cuda, 1, &m->cuda_init) ||
	    parse_num(c, gw_jv_get(cuda, "driver_version"), &m->cuda_version, "cuda.driver_version", 0))
		return -1;
	ffo = gw_jv_get(cuda, "fastest_first_order");
	if (!ffo || ffo->type == GW_JV_NULL)
		return 0;
	if (ffo->type != GW_JV_ARRAY)
		return bad(c, ffo, "cuda.fastest_first_order: expected an array of device indices");
	m->ffo = calloc(ffo->u.arr.n ? ffo->u.arr.n : 1, sizeof(*m->ffo));
	if (!m->ffo)
		return bad(c, ffo, "out of memory");
	for (size_t i = 0; i < ffo->u.arr.n; i++) {
		int64_t idx;

		if (gw_jv_int64(&ffo->u.arr.items[i], &idx) || idx < 0 || (size_t)idx >= m->ndevices)
			return bad(c, &ffo->u.arr.items[i],
				   "cuda.fastest_first_order: expected an index below %zu", m->ndevices);
		for (size_t j = 0; j < i; j++)
			if (m->ffo[j] == (int)idx)
				return bad(c, &ffo->u.arr.items[i],
					   "cuda.fastest_first_order: index %d repeated", (int)idx);
		m->ffo[m->nffo++] = (int)idx;
	}
	return 0;
}

fm_machine *fm_machine_parse(const char *text, size_t len, char *err, size_t errsz)
{
	fm_ctx c = { .err = err, .errsz = errsz };
	gw_jsonp_error jerr;
	gw_jsonp_limits lim = { .max_size = FM_MAX_FILE, .max_depth = 32 };
	gw_jv *root;
	const gw_jv *schema;
	fm_machine *m;

	if (err && errsz)
		err[0] = '\0';
	root = gw_jsonp_parse(text, len, &lim, &jerr);
	if (!root) {
		if (err && errsz) {
			if (jerr.line)
				snprintf(err, errsz, "%d:%d: %s", jerr.line, jerr.col, jerr.msg);
			else
				snprintf(err, errsz, "%s", jerr.msg);
		}
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		bad(&c, NULL, "out of memory");
		gw_jsonp_free(root);
		return NULL;
	}
	pthread_mutex_init(&m->lock, NULL);
	if (root->type != GW_JV_OBJECT) {
		bad(&c, root, "expected an object at the top level, got %s", gw_jv_type_name(root->type));
		goto fail;
	}
	schema = gw_jv_get(root, "schema");
	if (schema && !(schema->type == GW_JV_NUMBER && schema->u.num.is_int && schema->u.num.i == 1)) {
		bad(&c, schema, "schema: only schema 1 is understood");
		goto fail;
	}
	if (parse_nvml(&c, gw_jv_get(root, "nvml"), m) || parse_cuda(&c, gw_jv_get(root, "cuda"), m))
		goto fail;
	if (!m->cuda_version.set && m->cuda_driver_version.set &&
	    set_num(&c, &m->cuda_version, fm_at(&m->cuda_driver_version, 0)))
		goto fail;
	gw_jsonp_free(root);
	return m;
fail:
	gw_jsonp_free(root);
	fm_machine_free(m);
	return NULL;
}

void fm_machine_free(fm_machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->ndevices; i++)
		free_device(&m->devices[i]);
	free(m->devices);
	free(m->driver_version);
	free(m->nvml_version);
	free_num(&m->cuda_driver_version);
	free_num(&m->cuda_version);
	free(m->ffo);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

/* ---- loading once per process ----------------------------------------- */

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_who = "fake";
static fm_machine *loaded;

static int read_whole(const char *path, char **out, size_t *len, char *err, size_t errsz)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, errsz, "cannot read: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > FM_MAX_FILE) {
		snprintf(err, errsz, "not a regular file of at most %zu bytes", FM_MAX_FILE);
		close(fd);
		return -1;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(err, errsz, "out of memory");
		close(fd);
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*out = buf;
	*len = got;
	return 0;
}

static void load_machine(void)
{
	const char *path = getenv("GPUWISE_FAKE_MACHINE");
	char err[256];
	char *text;
	size_t len;

	if (!path || !*path) {
		fprintf(stderr, "%s: GPUWISE_FAKE_MACHINE is not set (path of a machine.json)\n", load_who);
		return;
	}
	if (read_whole(path, &text, &len, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: %s\n", load_who, path, err);
		return;
	}
	loaded = fm_machine_parse(text, len, err, sizeof(err));
	free(text);
	if (!loaded)
		fprintf(stderr, "%s: %s:%s%s\n", load_who, path, err[0] >= '0' && err[0] <= '9' ? "" : " ", err);
}

const fm_machine *fm_machine_get(const char *who)
{
	if (who)
		load_who = who;
	pthread_once(&load_once, load_machine);
	return loaded;
}

/* ---- queries ---------------------------------------------------------- */

unsigned fm_tick(const fm_machine *cm, const fm_device *cd, const char *fn, int sub)
{
	fm_machine *m = (fm_machine *)cm;      /* counters are the only mutable part */
	fm_device *d = (fm_device *)cd;
	unsigned n = 0;

	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < d->ncounters; i++) {
		if (d->counters[i].sub == sub && strcmp(d->counters[i].fn, fn) == 0) {
			n = d->counters[i].calls;
			if (d->counters[i].calls < 0x7fffffffu)
				d->counters[i].calls++;
			goto out;
		}
	}
	if (d->ncounters < FM_MAX_COUNTERS) {
		d->counters[d->ncounters].fn = fn;
		d->counters[d->ncounters].sub = sub;
		d->counters[d->ncounters].calls = 1;
		d->ncounters++;
	}
out:
	pthread_mutex_unlock(&m->lock);
	return n;
}

void fm_untick(const fm_machine *cm, const fm_device *cd, const char *fn, int sub)
{
	fm_machine *m = (fm_machine *)cm;
	fm_device *d = (fm_device *)cd;

	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < d->ncounters; i++) {
		if (d->counters[i].sub == sub && strcmp(d->counters[i].fn, fn) == 0) {
			if (d->counters[i].calls > 0)
				d->counters[i].calls--;
			break;
		}
	}
	pthread_mutex_unlock(&m->lock);
}

/* "nvmlDeviceGetMemoryInfo_v2" matches "nvmlDeviceGetMemoryInfo" too. */
static int same_call(const char *key, const char *fn)
{
	size_t k = strlen(key), f = strlen(fn);

	if (k == f)
		return memcmp(key, fn, k) == 0;
	if (f > k + 2 && memcmp(key, fn, k) == 0 && fn[k] == '_' && fn[k + 1] == 'v') {
		for (const char *p = fn + k + 2; *p; p++)
			if (*p < '0' || *p > '9')
				return 0;
		return 1;
	}
	return 0;
}

int fm_error_for(const fm_device *d, const char *fn, unsigned idx)
{
	const fm_error *star = NULL;

	for (size_t i = 0; i < d->nerrors; i++) {
		if (strcmp(d->errors[i].fn, "*") == 0)
			star = &d->errors[i];
		else if (same_call(d->errors[i].fn, fn))
			return (int)fm_at(&d->errors[i].code, idx);
	}
	return star ? (int)fm_at(&star->code, idx) : 0;
}

int fm_device_lost(const fm_device *d)
{
	for (size_t i = 0; i < d->nerrors; i++)
		if (strcmp(d->errors[i].fn, "*") == 0 && fm_at(&d->errors[i].code, 0) != 0)
			return 1;
	return 0;
}

const fm_num *fm_field(const fm_device *d, enum fm_num_id id)
{
	const fm_num *f = &d->num[id];

	if (!f->set && d->parent) {
		switch (id) {
		case FN_PCI_DOMAIN: case FN_PCI_BUS: case FN_PCI_DEVICE:
		case FN_PCI_DEVICE_ID: case FN_PCI_SUBSYS_ID:
		case FN_ARCH: case FN_CC_MAJOR: case FN_CC_MINOR:
		case FN_MEM_BUS_WIDTH:
			return &d->parent->num[id];
		default:
			break;
		}
	}
	return f;
}

const char *fm_str(const fm_device *d, enum fm_str_id id)
{
	if (!d->str[id] && d->parent && id == FS_BUS_ID)
		return d->parent->str[id];
	return d->str[id];
}

int64_t fm_process_pid(const fm_process *p)
{
	const char *env;

	if (!p->sleeper)
		return p->pid;
	env = getenv("GPUWISE_SLEEPER_PID");
	if (env && *env) {
		char *end;
		long v = strtol(env, &end, 10);

		if (!*end && v > 0 && v <= 0x7fffffff)
			return v;
	}
	return getpid();
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

int fm_uuid_bytes(const char *uuid, unsigned char out[16])
{
	int nibbles = 0;
	const char *p;

	memset(out, 0, 16);
	if (!uuid)
		return -1;
	p = strip_prefix(strip_prefix(uuid, "MIG-"), "GPU-");
	for (; *p && nibbles < 32; p++) {
		int h = hexval(*p);

		if (*p == '-')
			continue;
		if (h < 0)
			break;
		out[nibbles / 2] |= (unsigned char)(nibbles % 2 ? h : h << 4);
		nibbles++;
	}
	return nibbles == 32 ? 0 : -1;
}
