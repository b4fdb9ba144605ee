/* gpuwise._gpuwise — the CPython binding of the public C API.
 *
 * Two types and a family of exceptions:
 *   Context   one gw_context; every method copies what it needs out of the
 *             library with the GIL released and the context's mutex held
 *             (a gw_context is not thread-safe), then builds Python objects.
 *   Monitor   the library's sampler (gpuwise/sampler.h) on a gw_context of
 *             its own, its thread sampling the chosen GPUs every `interval`
 *             seconds; each pass is appended to a bounded C array. That
 *             thread never touches the Python API, so it never needs the GIL.
 * The pure-Python package (python/gpuwise/) builds the user-facing API on
 * these. Only the Limited API is used, so one abi3 build serves every
 * CPython from 3.8 on.
 */
#define Py_LIMITED_API 0x03080000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpuwise/gpuwise.h"
#include "gpuwise/explain.h"
#include "gpuwise/sampler.h"
/* doctor's public API is bound when its header is there (it landed after
 * this module); without it the module simply has no doctor(). */
#if defined(__has_include)
#if __has_include("gpuwise/doctor.h")
#include "gpuwise/doctor.h"
#define GW_PY_HAVE_DOCTOR 1
#endif
#endif

/* ---- exceptions -------------------------------------------------------- */

/* One row per exception class: name, the library code it stands for (0 for
 * classes no code maps to), the extra built-in base, and its doc string. */
struct error_class {
	const char *name;
	int code;
	int parent;            /* index of the gpuwise parent in this table, -1 = Exception */
	const char *builtin;   /* extra built-in bases, comma-separated ("LookupError,ValueError"), or NULL */
	const char *doc;
	PyObject *cls;
};

static struct error_class error_classes[] = {
	{ "GPUWiseError", GW_EGENERIC, -1, NULL,
	  "Base class of every gpuwise error. .code is the library's gw_error code, .message its message.", NULL },
	{ "NoGPUError", GW_ENOGPU, 0, NULL, "No GPU could be read through any backend.", NULL },
	{ "DriverNotLoadedError", GW_EDRIVER, 0, NULL, "The GPU's kernel driver is not loaded.", NULL },
	{ "DriverMismatchError", GW_EMISMATCH, 0, NULL,
	  "The kernel driver and the user-space driver library have different versions.", NULL },
	{ "LibraryNotFoundError", GW_ELIBRARY, 0, NULL,
	  "A vendor library (libnvidia-ml.so.1, libcuda.so.1) could not be loaded.", NULL },
	{ "GPULostError", GW_ELOST, 0, NULL, "The GPU has fallen off the bus.", NULL },
	{ "GPUPermissionError", GW_EPERM, 0, "PermissionError",
	  "No permission to use a GPU (device node, cgroup).", NULL },
	/* Also a ValueError: a selector that names no device is a bad argument value. */
	{ "DeviceNotFoundError", GW_ENOTFOUND, 0, "LookupError,ValueError", "No device matches the selector.", NULL },
	{ "InvalidDeviceError", 0, 7, "IndexError",
	  "A device index is out of range for the devices visible to CUDA in this process.", NULL },
	{ "InvalidArgumentError", GW_EINVAL, 0, "ValueError", "An argument is not valid.", NULL },
	{ "NotSupportedError", GW_ENOTSUP, 0, NULL, "The device or driver does not support this.", NULL },
	{ "VendorError", GW_EVENDOR, 0, NULL, "The vendor library returned an unexpected error.", NULL },
	{ "ParseError", GW_EPARSE, 0, NULL, "Malformed input.", NULL },
	{ "GPUIOError", GW_EIO, 0, "OSError", "A read failed.", NULL },
	{ "NoSuitableDeviceError", 0, 0, NULL,
	  "gpuwise.select() found fewer devices than asked for that meet the constraints.", NULL },
};
#define NERRORS ((int)(sizeof(error_classes) / sizeof(error_classes[0])))

static PyObject *error_class_for(int code)
{
	for (int i = 0; i < NERRORS; i++)
		if (error_classes[i].code == code && code != 0)
			return error_classes[i].cls;
	return error_classes[0].cls;
}

/* Decode bytes the library produced (names from sysfs may be garbage). */
static PyObject *text(const char *s)
{
	if (!s)
		Py_RETURN_NONE;
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

/* Marks the module's own messages for the catalogue; raise_code translates. */
#define N_(s) (s)

/* msgid in the user's language, through the module's catalogue
 * (gpuwise._i18n: the library's catalogue, the CLI's variables); NULL with no
 * exception set when there is none to be had. */
static PyObject *translated(const char *msgid)
{
	PyObject *mod = PyImport_ImportModule("gpuwise._i18n");
	PyObject *tr = mod ? PyObject_CallMethod(mod, "_", "s", msgid) : NULL;

	Py_XDECREF(mod);
	if (!tr || !PyUnicode_Check(tr)) {
		Py_XDECREF(tr);
		PyErr_Clear();
		return NULL;
	}
	return tr;
}

/* An exception's message in the user's language. The library's message
 * (still the thread's last one: its values are kept there) is made again
 * from the translation of its format (gw_error_last_with); a code's name
 * and the module's own texts are looked up whole. English when the
 * catalogue has nothing. */
static PyObject *message_text(int code, const char *message)
{
	const char *format = gw_error_last_format();
	PyObject *tr, *b, *res = NULL;

	if (!message || !*message)
		message = gw_error_str(code);
	else if (format[0] && !strcmp(message, gw_error_last()))
		message = format;
	if (!(tr = translated(message)))
		return text(message == format ? gw_error_last() : message);
	if (message != format)
		return tr;
	if ((b = PyUnicode_AsUTF8String(tr)) && PyBytes_AsString(b))
		res = text(gw_error_last_with(PyBytes_AsString(b)));
	Py_XDECREF(b);
	Py_DECREF(tr);
	if (!res) {
		PyErr_Clear();
		res = text(gw_error_last());
	}
	return res;
}

/* Raise the class for `code` with `message` (the library's gw_error_last,
 * copied by the caller on the thread that failed, or the module's own
 * text), in the user's language (message_text). */
static PyObject *raise_code(int code, const char *message)
{
	PyObject *cls, *msg, *exc, *num;

	if (code == GW_ENOMEM)
		return PyErr_NoMemory();
	cls = error_class_for(code);
	msg = message_text(code, message);
	if (!msg)
		return NULL;
	exc = PyObject_CallFunctionObjArgs(cls, msg, NULL);
	if (!exc)
		goto out;
	num = PyLong_FromLong(code);
	if (!num || PyObject_SetAttrString(exc, "code", num) < 0 ||
	    PyObject_SetAttrString(exc, "message", msg) < 0) {
		Py_XDECREF(num);
		Py_DECREF(exc);
		goto out;
	}
	Py_DECREF(num);
	PyErr_SetObject(cls, exc);
	Py_DECREF(exc);
out:
	Py_DECREF(msg);
	return NULL;
}

/* (parent, each built-in named in the comma-separated `names`) as a tuple. */
static PyObject *class_bases(PyObject *builtins, PyObject *parent, const char *names)
{
	PyObject *bases = PyList_New(0), *tuple = NULL;
	const char *p = names;

	if (!bases || PyList_Append(bases, parent) < 0)
		goto out;
	while (p && *p) {
		size_t n = strcspn(p, ",");
		char name[32];
		PyObject *cls;
		int rc;

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (!(cls = PyObject_GetAttrString(builtins, name)))
			goto out;
		rc = PyList_Append(bases, cls);
		Py_DECREF(cls);
		if (rc < 0)
			goto out;
		p += n + (p[n] == ',');
	}
	tuple = PyList_AsTuple(bases);
out:
	Py_XDECREF(bases);
	return tuple;
}

static int create_error_classes(PyObject *module)
{
	PyObject *builtins = PyImport_ImportModule("builtins");

	if (!builtins)
		return -1;
	for (int i = 0; i < NERRORS; i++) {
		struct error_class *e = &error_classes[i];
		char qual[96];
		PyObject *bases, *parent;

		parent = e->parent < 0 ? PyExc_Exception : error_classes[e->parent].cls;
		if (!(bases = class_bases(builtins, parent, e->builtin)))
			goto fail;
		snprintf(qual, sizeof(qual), "gpuwise.%s", e->name);
		e->cls = PyErr_NewExceptionWithDoc(qual, e->doc, bases, NULL);
		Py_DECREF(bases);
		if (!e->cls)
			goto fail;
		Py_INCREF(e->cls);
		if (PyModule_AddObject(module, e->name, e->cls) < 0) {
			Py_DECREF(e->cls);
			goto fail;
		}
	}
	Py_DECREF(builtins);
	return 0;
fail:
	Py_DECREF(builtins);
	return -1;
}

/* ---- dict building ----------------------------------------------------- */

/* Set d[key] = v, stealing v; -1 when v is NULL or the set fails. */
static int put(PyObject *d, const char *key, PyObject *v)
{
	int rc;

	if (!v)
		return -1;
	rc = PyDict_SetItemString(d, key, v);
	Py_DECREF(v);
	return rc;
}

/* Why a field has no value: recorded in the dict's "unavailable" map so the
 * caller can tell "not supported" from "read failed" (never shown as 0). */
static int note_state(PyObject *unavailable, const char *key, gw_field_state st, int code)
{
	char why[64];

	if (st == GW_FIELD_ERROR)
		snprintf(why, sizeof(why), "error %d", code);
	else
		snprintf(why, sizeof(why), "%s", gw_field_state_name(st));
	return put(unavailable, key, text(why));
}

static int put_u64(PyObject *d, PyObject *un, const char *key, const gw_u64 *f)
{
	if (GW_VALID(*f))
		return put(d, key, PyLong_FromUnsignedLongLong(f->v));
	if (PyDict_SetItemString(d, key, Py_None) < 0)
		return -1;
	return un ? note_state(un, key, f->state, f->code) : 0;
}

static int put_f64(PyObject *d, PyObject *un, const char *key, const gw_f64 *f)
{
	if (GW_VALID(*f) && isfinite(f->v))
		return put(d, key, PyFloat_FromDouble(f->v));
	if (PyDict_SetItemString(d, key, Py_None) < 0)
		return -1;
	return un ? note_state(un, key, f->state, f->code) : 0;
}

static int put_str(PyObject *d, PyObject *un, const char *key, const gw_str *f)
{
	if (GW_VALID(*f))
		return put(d, key, text(f->s));
	if (PyDict_SetItemString(d, key, Py_None) < 0)
		return -1;
	return un ? note_state(un, key, f->state, f->code) : 0;
}

/* ---- the metric table as nested dicts ------------------------------------
 * The same keys, nesting and types as `gpuwise info --json` (both iterate
 * include/gpuwise/metrics.h), so Device.to_dict() cannot drift from it. */

static PyObject *metric_py(const gw_metric_info *m, const gw_metric_value *v, gw_field_state st)
{
	char buf[64];

	if (st != GW_FIELD_VALID)
		Py_RETURN_NONE;
	switch (m->form) {
	case GW_MFORM_TEXT:
		return text(v->s);
	case GW_MFORM_FLAG:
	case GW_MFORM_YESNO:
		return PyBool_FromLong(v->u != 0);
	case GW_MFORM_PSTATE:
		return text(gw_pstate_name(v->u, buf, sizeof(buf)));
	case GW_MFORM_COMPUTE_MODE:
		return text(gw_compute_mode_name(v->u));
	case GW_MFORM_THROTTLE: {
		PyObject *list = PyList_New(0);

		for (int bit = 0; list && bit < 64; bit++) {
			uint64_t mask = (uint64_t)1 << bit;
			const char *name = gw_throttle_reason_name(mask);
			PyObject *item;

			if (!(v->u & mask))
				continue;
			if (!name) {
				snprintf(buf, sizeof(buf), "unknown_0x%llx", (unsigned long long)mask);
				name = buf;
			}
			item = text(name);
			if (!item || PyList_Append(list, item) < 0) {
				Py_XDECREF(item);
				Py_DECREF(list);
				return NULL;
			}
			Py_DECREF(item);
		}
		return list;
	}
	case GW_MFORM_NUMBER:
	case GW_MFORM_BYTES:
		break;
	}
	if (m->type == GW_MTYPE_F64) {
		/* Rounded as the JSON writer rounds, so both give the same double. */
		snprintf(buf, sizeof(buf), "%.*f", m->decimals, v->f);
		return PyFloat_FromDouble(strtod(buf, NULL));
	}
	return PyLong_FromUnsignedLongLong(v->u);
}

/* Put value at the dotted path under root, creating the dicts between. */
static int tree_put(PyObject *root, const char *path, PyObject *value)
{
	PyObject *node = root;
	const char *dot;
	char key[64];

	while ((dot = strchr(path, '.'))) {
		PyObject *child;

		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		child = PyDict_GetItemString(node, key); /* borrowed */
		if (!child) {
			if (!(child = PyDict_New()) || PyDict_SetItemString(node, key, child) < 0) {
				Py_XDECREF(child);
				Py_DECREF(value);
				return -1;
			}
			Py_DECREF(child); /* node keeps it */
		}
		node = child;
		path = dot + 1;
	}
	return put(node, path, value);
}

/* Every metric of the table for a device; sample NULL = static facts only. */
static PyObject *metric_tree(const gw_device_info *i, const gw_device_sample *s)
{
	PyObject *root = PyDict_New();

	for (int id = 0; root && id < gw_metric_count(); id++) {
		const gw_metric_info *m = gw_metric_info_get(id);
		gw_metric_value v;
		gw_field_state st = gw_device_metric_value(i, s, id, &v);
		PyObject *value = metric_py(m, &v, st);

		if (!value || tree_put(root, m->json, value) < 0) {
			Py_DECREF(root);
			return NULL;
		}
	}
	return root;
}

static PyObject *info_dict(const gw_device_info *i)
{
	PyObject *d = PyDict_New(), *un = PyDict_New();
	int bad = 0;

	if (!d || !un)
		goto fail;
	bad |= put(d, "index", PyLong_FromLong(i->index));
	bad |= put(d, "cuda_index", i->cuda_index >= 0 ? PyLong_FromLong(i->cuda_index) : (Py_INCREF(Py_None), Py_None));
	bad |= put(d, "nvml_index", i->nvml_index >= 0 ? PyLong_FromLong(i->nvml_index) : (Py_INCREF(Py_None), Py_None));
	bad |= put(d, "vendor", text(gw_vendor_name(i->vendor)));
	bad |= put(d, "health", text(gw_health_name(i->health)));
	bad |= put(d, "health_reason", text(i->health_reason));
	bad |= put(d, "backend", text(i->backend ? i->backend : ""));
	bad |= put_str(d, un, "name", &i->name);
	bad |= put_str(d, un, "uuid", &i->uuid);
	bad |= put_str(d, un, "serial", &i->serial);
	bad |= put_str(d, un, "board_part_number", &i->board_part_number);
	bad |= put_str(d, un, "vbios_version", &i->vbios_version);
	bad |= put_str(d, un, "pci_bus_id", &i->pci_bus_id);
	bad |= put_u64(d, un, "pci_vendor_id", &i->pci_vendor_id);
	bad |= put_u64(d, un, "pci_device_id", &i->pci_device_id);
	bad |= put_u64(d, un, "pci_subsystem_id", &i->pci_subsystem_id);
	bad |= put_str(d, un, "kernel_driver", &i->kernel_driver);
	bad |= put_u64(d, un, "minor_number", &i->minor_number);
	bad |= put_str(d, un, "architecture", &i->architecture);
	bad |= put_u64(d, un, "cc_major", &i->cc_major);
	bad |= put_u64(d, un, "cc_minor", &i->cc_minor);
	bad |= put_str(d, un, "gfx_target", &i->gfx_target);
	bad |= put_u64(d, un, "multiprocessor_count", &i->multiprocessor_count);
	bad |= put_u64(d, un, "cuda_cores", &i->cuda_cores);
	bad |= put_u64(d, un, "memory_total", &i->memory_total);
	bad |= put_u64(d, un, "bar1_total", &i->bar1_total);
	bad |= put_u64(d, un, "max_sm_clock", &i->max_sm_clock);
	bad |= put_u64(d, un, "max_mem_clock", &i->max_mem_clock);
	bad |= put_u64(d, un, "max_graphics_clock", &i->max_graphics_clock);
	bad |= put_u64(d, un, "pcie_max_gen", &i->pcie_max_gen);
	bad |= put_u64(d, un, "pcie_max_width", &i->pcie_max_width);
	bad |= put_u64(d, un, "pcie_gpu_max_gen", &i->pcie_gpu_max_gen);
	bad |= put_u64(d, un, "mig_capable", &i->mig_capable);
	bad |= put_u64(d, un, "memory_used_includes_reserved", &i->memory_used_includes_reserved);
	bad |= put(d, "metrics", metric_tree(i, NULL));
	if (bad || PyDict_SetItemString(d, "unavailable", un) < 0)
		goto fail;
	Py_DECREF(un);
	return d;
fail:
	Py_XDECREF(d);
	Py_XDECREF(un);
	return NULL;
}

static PyObject *mig_dict(const gw_mig_device *m)
{
	PyObject *d = PyDict_New();
	int bad = 0;

	if (!d)
		return NULL;
	bad |= put_str(d, NULL, "uuid", &m->uuid);
	bad |= put_str(d, NULL, "name", &m->name);
	bad |= put_u64(d, NULL, "gpu_instance_id", &m->gpu_instance_id);
	bad |= put_u64(d, NULL, "compute_instance_id", &m->compute_instance_id);
	bad |= put_u64(d, NULL, "multiprocessor_count", &m->multiprocessor_count);
	bad |= put_u64(d, NULL, "memory_total", &m->memory_total);
	bad |= put_u64(d, NULL, "memory_used", &m->memory_used);
	bad |= put_u64(d, NULL, "memory_free", &m->memory_free);
	if (bad) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

/* The flat sample: one key per SAMPLE(field) row of lib/core/metrics.def,
 * named as the field, with its stored value (None and a reason in `un` when
 * unread), so a new metric reaches Python with no edit here. A row's TYPE
 * and LOC are pasted into one macro name: FLAT_U64_SAMPLE(field) becomes
 * SAMPLE_FIELD(field, put_u64), FLAT_U64_INFO(field) and
 * FLAT_U64_DERIVED(fn) become nothing; each user of the rows defines
 * SAMPLE_FIELD and includes METRIC_ROWS. */
#define FLAT_U64_SAMPLE(f) SAMPLE_FIELD(f, put_u64)
#define FLAT_F64_SAMPLE(f) SAMPLE_FIELD(f, put_f64)
#define FLAT_STR_SAMPLE(f) SAMPLE_FIELD(f, put_str)
#define FLAT_U64_INFO(f)
#define FLAT_F64_INFO(f)
#define FLAT_STR_INFO(f)
#define FLAT_U64_DERIVED(fn)
#define FLAT_F64_DERIVED(fn)
#define FLAT_STR_DERIVED(fn)
#define GW_METRIC(KEY, LOC, TYPE, ...) FLAT_##TYPE##_##LOC

static int sample_flat(PyObject *d, PyObject *un, const gw_device_sample *s)
{
	int bad = 0;

#define SAMPLE_FIELD(f, put) bad |= put(d, un, #f, &s->f);
#include "core/metrics.def"
#undef SAMPLE_FIELD
	return bad;
}

static int append_text(PyObject *list, const char *s)
{
	PyObject *t = text(s);
	int rc = t ? PyList_Append(list, t) : -1;

	Py_XDECREF(t);
	return rc < 0;
}

/* The flat sample's keys, as the module constant SAMPLE_KEYS (a tuple). */
static PyObject *sample_keys(void)
{
	PyObject *list = PyList_New(0), *tuple;
	int bad = 0;

	if (!list)
		return NULL;
#define SAMPLE_FIELD(f, put) bad |= append_text(list, #f);
#include "core/metrics.def"
#undef SAMPLE_FIELD
	tuple = bad ? NULL : PyList_AsTuple(list);
	Py_DECREF(list);
	return tuple;
}
#undef GW_METRIC

static PyObject *sample_dict(const gw_device_info *info, const gw_device_sample *s)
{
	PyObject *d = PyDict_New(), *un = PyDict_New(), *migs = NULL;
	int bad = 0, n;

	if (!d || !un)
		goto fail;
	bad |= sample_flat(d, un, s);
	bad |= put(d, "metrics", metric_tree(info, s));
	if (bad)
		goto fail;
	n = s->mig_count < 0 ? 0 : s->mig_count > GW_MAX_MIG ? GW_MAX_MIG : s->mig_count;
	if (!(migs = PyList_New(n)))
		goto fail;
	for (int i = 0; i < n; i++) {
		PyObject *m = mig_dict(&s->mig[i]);

		if (!m || PyList_SetItem(migs, i, m) < 0)
			goto fail;
	}
	if (PyDict_SetItemString(d, "mig_devices", migs) < 0 ||
	    PyDict_SetItemString(d, "unavailable", un) < 0)
		goto fail;
	Py_DECREF(migs);
	Py_DECREF(un);
	return d;
fail:
	Py_XDECREF(migs);
	Py_XDECREF(d);
	Py_XDECREF(un);
	return NULL;
}

static PyObject *process_dict(const gw_process *p)
{
	PyObject *d = PyDict_New();
	int bad = 0;
	const char *type = p->type == GW_PROCESS_BOTH ? "compute+graphics" :
			   p->type == GW_PROCESS_GRAPHICS ? "graphics" : "compute";

	if (!d)
		return NULL;
	bad |= put(d, "pid", PyLong_FromUnsignedLong(p->pid));
	bad |= put(d, "type", text(type));
	bad |= put_u64(d, NULL, "used_memory", &p->used_memory);
	bad |= put_u64(d, NULL, "gpu_instance_id", &p->gpu_instance_id);
	bad |= put_u64(d, NULL, "compute_instance_id", &p->compute_instance_id);
	bad |= put(d, "pid_resolved", PyBool_FromLong(p->pid_resolved));
	bad |= put(d, "user", p->user[0] ? text(p->user) : (Py_INCREF(Py_None), Py_None));
	bad |= put(d, "command", p->command[0] ? text(p->command) : (Py_INCREF(Py_None), Py_None));
	bad |= put(d, "uid", p->pid_resolved ? PyLong_FromUnsignedLong(p->uid) : (Py_INCREF(Py_None), Py_None));
	if (bad) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

/* ---- fork safety -------------------------------------------------------- */

/* fork() copies only the thread that calls it. A lock another thread held at
 * that moment stays locked forever in the child, and a Monitor's sampling
 * thread does not exist there: joining it, or destroying the condition
 * variable it was waiting on, blocks forever. So every lock this module owns
 * is in one registry, and pthread_atfork handlers take them all before the
 * fork (no thread is then inside a critical section) and release them on both
 * sides (a Monitor's sampler too, through gw_sampler_fork_*); in the child
 * they also mark each running Monitor as inherited: not running, nothing to
 * join, its samples up to the fork still readable, and its context left
 * alone (the sampler's thread, gone in the child, may have been inside it).
 * The registry is the one piece of mutable global state here; fork() is a
 * process-wide event, so nothing narrower can see every lock. */
struct monitor_state;

struct fork_entry {
	struct fork_entry *prev, *next;
	pthread_mutex_t *lock;
	struct monitor_state *monitor;   /* NULL for a Context */
};

static pthread_mutex_t fork_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fork_entry *fork_registry;

static void fork_register(struct fork_entry *e, pthread_mutex_t *lock, struct monitor_state *m)
{
	e->lock = lock;
	e->monitor = m;
	e->prev = NULL;
	pthread_mutex_lock(&fork_registry_lock);
	e->next = fork_registry;
	if (fork_registry)
		fork_registry->prev = e;
	fork_registry = e;
	pthread_mutex_unlock(&fork_registry_lock);
}

static void fork_unregister(struct fork_entry *e)
{
	if (!e->lock)
		return;
	pthread_mutex_lock(&fork_registry_lock);
	if (e->prev)
		e->prev->next = e->next;
	else
		fork_registry = e->next;
	if (e->next)
		e->next->prev = e->prev;
	pthread_mutex_unlock(&fork_registry_lock);
	e->prev = e->next = NULL;
	e->lock = NULL;
}

static void monitor_forked_in_child(struct monitor_state *m);

static gw_sampler *monitor_sampler(struct monitor_state *m);

/* A Monitor's lock first, then its sampler's: the sampler's thread takes the
 * Monitor's lock only in its on_pass callback, which runs outside the
 * sampler's lock, so the two are never waited for in the other order. */
static void fork_prepare(void)
{
	pthread_mutex_lock(&fork_registry_lock);
	for (struct fork_entry *e = fork_registry; e; e = e->next) {
		pthread_mutex_lock(e->lock);
		if (e->monitor && monitor_sampler(e->monitor))
			gw_sampler_fork_prepare(monitor_sampler(e->monitor));
	}
}

static void fork_parent(void)
{
	for (struct fork_entry *e = fork_registry; e; e = e->next) {
		if (e->monitor && monitor_sampler(e->monitor))
			gw_sampler_fork_parent(monitor_sampler(e->monitor));
		pthread_mutex_unlock(e->lock);
	}
	pthread_mutex_unlock(&fork_registry_lock);
}

static void fork_child(void)
{
	for (struct fork_entry *e = fork_registry; e; e = e->next) {
		if (e->monitor && monitor_sampler(e->monitor))
			gw_sampler_fork_child(monitor_sampler(e->monitor));
		if (e->monitor)
			monitor_forked_in_child(e->monitor);
		pthread_mutex_unlock(e->lock);
	}
	pthread_mutex_unlock(&fork_registry_lock);
}

static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;
static int fork_handlers_rc;

static void fork_handlers_install(void)
{
	fork_handlers_rc = pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* ---- Context ----------------------------------------------------------- */

typedef struct {
	PyObject_HEAD
	gw_context *ctx;
	pthread_mutex_t lock;
	int lock_ready;
	struct fork_entry fork;
	char *root, *nvml_library, *cuda_library; /* kept alive for ctx->opts */
} ContextObject;

/* Copy a failing call's message before anything else can overwrite it. */
struct failure {
	int code;
	char message[512];
};

static void failure_take(struct failure *f, int code)
{
	f->code = code;
	snprintf(f->message, sizeof(f->message), "%s", gw_error_last());
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void context_release(ContextObject *self)
{
	gw_context_free(self->ctx);
	self->ctx = NULL;
}

static PyObject *Context_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static char *kwlist[] = { "root", "nvml_library", "cuda_library", "flags", NULL };
	const char *root = NULL, *nvml = NULL, *cuda = NULL;
	unsigned int flags = 0;
	allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
	ContextObject *self;
	gw_options opts = GW_OPTIONS_INIT;
	struct failure f = { 0, "" };
	int rc;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|zzzI:Context", kwlist, &root, &nvml, &cuda, &flags))
		return NULL;
	if (!(self = (ContextObject *)alloc(type, 0)))
		return NULL;
	if (pthread_mutex_init(&self->lock, NULL) != 0) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	self->lock_ready = 1;
	fork_register(&self->fork, &self->lock, NULL);
	self->root = dup_or_null(root);
	self->nvml_library = dup_or_null(nvml);
	self->cuda_library = dup_or_null(cuda);
	if ((root && !self->root) || (nvml && !self->nvml_library) || (cuda && !self->cuda_library)) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	opts.root = self->root;
	opts.nvml_library = self->nvml_library;
	opts.cuda_library = self->cuda_library;
	opts.flags = flags;
	Py_BEGIN_ALLOW_THREADS
	rc = gw_context_new(&self->ctx, &opts);
	if (rc < 0)
		failure_take(&f, rc);
	Py_END_ALLOW_THREADS
	if (rc < 0) {
		self->ctx = NULL;
		Py_DECREF(self);
		return raise_code(f.code, f.message);
	}
	return (PyObject *)self;
}

static void Context_dealloc(PyObject *obj)
{
	ContextObject *self = (ContextObject *)obj;
	PyTypeObject *tp = Py_TYPE(obj);
	freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);

	context_release(self);
	if (self->lock_ready) {
		fork_unregister(&self->fork);
		pthread_mutex_destroy(&self->lock);
	}
	free(self->root);
	free(self->nvml_library);
	free(self->cuda_library);
	tp_free(obj);
	Py_DECREF(tp);
}

static int context_check(ContextObject *self)
{
	if (!self->ctx) {
		raise_code(GW_EINVAL, N_("this gpuwise Context is closed"));
		return -1;
	}
	return 0;
}

/* Parse one index argument; out-of-range ints and wrong types raise. */
static int parse_index(PyObject *args, const char *fname, int *out)
{
	PyObject *o;
	long v;

	if (!PyArg_UnpackTuple(args, fname, 1, 1, &o))
		return -1;
	if (!PyLong_Check(o) || PyBool_Check(o)) {
		PyErr_Format(PyExc_TypeError, "%s: a device index must be an int", fname);
		return -1;
	}
	v = PyLong_AsLong(o);
	if (v == -1 && PyErr_Occurred()) {
		PyErr_Clear();
		v = -1;
	}
	if (v < 0 || v > INT32_MAX) {
		PyObject *r = PyObject_Repr(o);
		PyObject *s = r ? PyUnicode_AsUTF8String(r) : NULL;
		char msg[160];

		snprintf(msg, sizeof(msg), "no device with index %.60s", s ? PyBytes_AsString(s) : "?");
		Py_XDECREF(r);
		Py_XDECREF(s);
		PyErr_Clear();
		raise_code(GW_ENOTFOUND, msg);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static PyObject *Context_device_count(PyObject *obj, PyObject *unused)
{
	ContextObject *self = (ContextObject *)obj;
	int n;

	(void)unused;
	if (context_check(self) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	n = gw_device_count(self->ctx);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	return PyLong_FromLong(n);
}

static PyObject *Context_device_info(PyObject *obj, PyObject *args)
{
	ContextObject *self = (ContextObject *)obj;
	gw_device_info info;
	int index, found = 0, count = 0;

	if (context_check(self) < 0 || parse_index(args, "device_info", &index) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	{
		const gw_device_info *p = gw_device_get(self->ctx, index);

		count = gw_device_count(self->ctx);
		if (p) {
			info = *p;
			found = 1;
		}
	}
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	if (!found) {
		char msg[96];

		snprintf(msg, sizeof(msg), "no device with index %d (found %d)", index, count);
		return raise_code(GW_ENOTFOUND, msg);
	}
	return info_dict(&info);
}

static PyObject *Context_sample(PyObject *obj, PyObject *args)
{
	ContextObject *self = (ContextObject *)obj;
	gw_device_sample *s;
	gw_device_info info;
	struct failure f = { 0, "" };
	PyObject *res;
	int index, rc;

	if (context_check(self) < 0 || parse_index(args, "sample", &index) < 0)
		return NULL;
	if (!(s = malloc(sizeof(*s))))
		return PyErr_NoMemory();
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	rc = gw_device_sample_read(self->ctx, index, s);
	if (rc < 0)
		failure_take(&f, rc);
	else
		info = *gw_device_get(self->ctx, index);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	res = rc < 0 ? raise_code(f.code, f.message) : sample_dict(&info, s);
	free(s);
	return res;
}

static PyObject *Context_processes(PyObject *obj, PyObject *args)
{
	ContextObject *self = (ContextObject *)obj;
	struct failure f = { 0, "" };
	gw_process *list = NULL;
	size_t n = 0;
	PyObject *res;
	int index, rc;

	if (context_check(self) < 0 || parse_index(args, "processes", &index) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	rc = gw_device_processes(self->ctx, index, &list, &n);
	if (rc < 0)
		failure_take(&f, rc);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	if (rc < 0)
		return raise_code(f.code, f.message);
	if (n > (size_t)PY_SSIZE_T_MAX)
		n = 0;
	if (!(res = PyList_New((Py_ssize_t)n)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		PyObject *p = process_dict(&list[i]);

		if (!p || PyList_SetItem(res, (Py_ssize_t)i, p) < 0) {
			Py_CLEAR(res);
			break;
		}
	}
out:
	gw_processes_free(list);
	return res;
}

static PyObject *Context_driver(PyObject *obj, PyObject *unused)
{
	ContextObject *self = (ContextObject *)obj;
	gw_driver_info drv;
	PyObject *d, *un;
	int bad = 0;

	(void)unused;
	if (context_check(self) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	drv = *gw_context_driver(self->ctx);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	d = PyDict_New();
	un = PyDict_New();
	if (!d || !un)
		goto fail;
	bad |= put_str(d, un, "driver_version", &drv.driver_version);
	bad |= put_str(d, un, "nvml_version", &drv.nvml_version);
	bad |= put_u64(d, un, "cuda_driver_version", &drv.cuda_driver_version);
	bad |= put_str(d, un, "kernel_module_version", &drv.kernel_module_version);
	bad |= put_str(d, un, "amdgpu_version", &drv.amdgpu_version);
	if (bad || PyDict_SetItemString(d, "unavailable", un) < 0)
		goto fail;
	Py_DECREF(un);
	return d;
fail:
	Py_XDECREF(d);
	Py_XDECREF(un);
	return NULL;
}

static PyObject *backend_dict(const gw_backend_status *b)
{
	PyObject *d = PyDict_New();
	int bad = 0;

	if (!d)
		return NULL;
	bad |= put(d, "name", text(b->name ? b->name : ""));
	bad |= put(d, "state", text(gw_backend_state_name(b->state)));
	bad |= put(d, "error", PyLong_FromLong(b->error));
	bad |= put(d, "vendor_code", PyLong_FromLong(b->vendor_code));
	bad |= put(d, "vendor_code_name", PyUnicode_DecodeUTF8(b->vendor_code_name,
			(Py_ssize_t)strnlen(b->vendor_code_name, sizeof(b->vendor_code_name)), "replace"));
	bad |= put(d, "library", PyUnicode_DecodeUTF8(b->library,
			(Py_ssize_t)strnlen(b->library, sizeof(b->library)), "replace"));
	bad |= put(d, "message", PyUnicode_DecodeUTF8(b->message,
			(Py_ssize_t)strnlen(b->message, sizeof(b->message)), "replace"));
	if (bad) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

static PyObject *Context_backends(PyObject *obj, PyObject *unused)
{
	ContextObject *self = (ContextObject *)obj;
	gw_backend_status copy[16];
	PyObject *res;
	int n = 0;

	(void)unused;
	if (context_check(self) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	{
		const gw_backend_status *st = gw_context_backends(self->ctx, &n);

		if (n < 0 || !st)
			n = 0;
		if (n > 16)
			n = 16;
		memcpy(copy, st, (size_t)n * sizeof(*st));
	}
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	if (!(res = PyList_New(n)))
		return NULL;
	for (int i = 0; i < n; i++) {
		PyObject *b = backend_dict(&copy[i]);

		if (!b || PyList_SetItem(res, i, b) < 0) {
			Py_DECREF(res);
			return NULL;
		}
	}
	return res;
}

static PyObject *Context_find(PyObject *obj, PyObject *args)
{
	ContextObject *self = (ContextObject *)obj;
	struct failure f = { 0, "" };
	const char *sel;
	int rc, index = -1;

	if (context_check(self) < 0 || !PyArg_ParseTuple(args, "s:find", &sel))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	rc = gw_device_find(self->ctx, sel, &index);
	if (rc < 0)
		failure_take(&f, rc);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	if (rc < 0)
		return raise_code(f.code, f.message);
	return PyLong_FromLong(index);
}

/* select(selectors) -> [(index, mig)]: gw_context_select, the CLI's -i
 * resolver, so Python accepts what the CLI accepts; mig is a position in
 * sample(index)["mig_devices"], or None for the whole GPU. */
static PyObject *Context_select(PyObject *obj, PyObject *args)
{
	ContextObject *self = (ContextObject *)obj;
	struct failure f = { 0, "" };
	gw_selection *list = NULL;
	size_t count = 0;
	const char *sel;
	PyObject *res;
	int rc;

	if (context_check(self) < 0 || !PyArg_ParseTuple(args, "s:select", &sel))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	rc = gw_context_select(self->ctx, sel, &list, &count);
	if (rc < 0)
		failure_take(&f, rc);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	if (rc < 0)
		return raise_code(f.code, f.message);
	res = PyList_New((Py_ssize_t)count);
	for (size_t i = 0; res && i < count; i++) {
		PyObject *t = list[i].mig < 0 ? Py_BuildValue("(iO)", list[i].device, Py_None)
					       : Py_BuildValue("(ii)", list[i].device, list[i].mig);

		if (!t || PyList_SetItem(res, (Py_ssize_t)i, t) < 0)
			Py_CLEAR(res);
	}
	gw_selection_free(list);
	return res;
}

/* placement_order([(index, mig or None), ...]) -> [positions]: the rule
 * gpuwise run places jobs by (gw_placement_order), least used first. */
static PyObject *Context_placement_order(PyObject *obj, PyObject *args)
{
	ContextObject *self = (ContextObject *)obj;
	struct failure f = { 0, "" };
	PyObject *list, *res;
	gw_selection *units;
	size_t *order, n;
	int rc;

	if (context_check(self) < 0 || !PyArg_ParseTuple(args, "O!:placement_order", &PyList_Type, &list))
		return NULL;
	n = (size_t)PyList_Size(list);
	units = PyMem_Calloc(n ? n : 1, sizeof(*units));
	order = PyMem_Calloc(n ? n : 1, sizeof(*order));
	if (!units || !order) {
		PyMem_Free(units);
		PyMem_Free(order);
		return PyErr_NoMemory();
	}
	for (size_t i = 0; i < n; i++) {
		PyObject *t = PyList_GetItem(list, (Py_ssize_t)i), *mig;

		if (!PyArg_ParseTuple(t, "iO:placement_order", &units[i].device, &mig)) {
			PyMem_Free(units);
			PyMem_Free(order);
			return NULL;
		}
		units[i].mig = mig == Py_None ? -1 : (int)PyLong_AsLong(mig);
		if (PyErr_Occurred()) {
			PyMem_Free(units);
			PyMem_Free(order);
			return NULL;
		}
	}
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	rc = gw_placement_order(self->ctx, units, n, order);
	if (rc < 0)
		failure_take(&f, rc);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	PyMem_Free(units);
	if (rc < 0) {
		PyMem_Free(order);
		return raise_code(f.code, f.message);
	}
	res = PyList_New((Py_ssize_t)n);
	for (size_t i = 0; res && i < n; i++) {
		PyObject *v = PyLong_FromSize_t(order[i]);

		if (!v || PyList_SetItem(res, (Py_ssize_t)i, v) < 0)
			Py_CLEAR(res);
	}
	PyMem_Free(order);
	return res;
}

static PyObject *Context_root(PyObject *obj, PyObject *unused)
{
	ContextObject *self = (ContextObject *)obj;

	(void)unused;
	if (context_check(self) < 0)
		return NULL;
	return text(gw_context_root(self->ctx));
}

static PyObject *Context_close(PyObject *obj, PyObject *unused)
{
	ContextObject *self = (ContextObject *)obj;

	(void)unused;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	context_release(self);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

static PyMethodDef Context_methods[] = {
	{ "device_count", Context_device_count, METH_NOARGS, "Number of devices (all vendors, lost ones too)." },
	{ "device_info", Context_device_info, METH_VARARGS, "device_info(index) -> dict of static facts." },
	{ "sample", Context_sample, METH_VARARGS, "sample(index) -> dict of a fresh dynamic sample." },
	{ "processes", Context_processes, METH_VARARGS, "processes(index) -> list of process dicts." },
	{ "driver", Context_driver, METH_NOARGS, "driver() -> dict of driver-wide facts." },
	{ "backends", Context_backends, METH_NOARGS, "backends() -> list of backend status dicts." },
	{ "find", Context_find, METH_VARARGS, "find(selector) -> index (index, UUID prefix or PCI bus id)." },
	{ "select", Context_select, METH_VARARGS,
	  "select(selectors) -> [(index, mig or None)]: the CLI's -i rules (comma-separated list, "
	  "index, G:M, UUID or 8+ character prefix, MIG UUID, PCI bus id), duplicates dropped." },
	{ "placement_order", Context_placement_order, METH_VARARGS,
	  "placement_order([(index, mig or None), ...]) -> positions, least used first: the rule gpuwise run "
	  "places jobs by (memory in use, then utilisation, then the order given)." },
	{ "root", Context_root, METH_NOARGS, "root() -> the file-system root in use." },
	{ "close", Context_close, METH_NOARGS, "close() -> release the library context now." },
	{ NULL, NULL, 0, NULL }
};

static PyType_Slot Context_slots[] = {
	{ Py_tp_new, (void *)Context_new },
	{ Py_tp_dealloc, (void *)Context_dealloc },
	{ Py_tp_methods, Context_methods },
	{ Py_tp_doc, (void *)"Context(root=None, nvml_library=None, cuda_library=None, flags=0): "
		     "one view of the machine (gw_context). Thread-safe: calls are serialised." },
	{ 0, NULL }
};

static PyType_Spec Context_spec = {
	"gpuwise._gpuwise.Context", sizeof(ContextObject), 0, Py_TPFLAGS_DEFAULT, Context_slots
};

/* ---- Monitor ------------------------------------------------------------ */

/* One sample of one GPU. Doubles are NAN when the value was not valid. */
struct record {
	double t;              /* seconds since start */
	int dev;               /* position in the monitor's device list */
	double mem_used, mem_total, gpu_util, mem_util, power, temp, energy, sm_clock;
	double throttle;       /* GW_THROTTLE_* bits as a number, NAN when unknown */
};

#define MON_MAX_DEVICES 64

struct monitor_state {
	pthread_mutex_t lock;
	gw_context *ctx;       /* made by start(); the sampler's while its thread runs */
	gw_sampler *sampler;   /* set under lock by start(), NULL before and without devices */
	gw_sample_point point; /* on_pass's scratch (one pass at a time) */
	int started, ready, stop;
	int inherited;         /* this is a fork child's copy: the thread never existed here */
	struct fork_entry fork;
	double interval;
	size_t max_records;
	gw_options opts;
	char *root;
	int nsel;
	char *selectors[MON_MAX_DEVICES];
	/* filled by start() */
	int ndev;
	int dev_index[MON_MAX_DEVICES];
	char dev_uuid[MON_MAX_DEVICES][GW_STR_MAX];
	char dev_name[MON_MAX_DEVICES][GW_STR_MAX];
	char unresolved[512];
	char context_error[512];
	struct record *records;
	size_t nrec, cap;
	int truncated;
	unsigned long errors;
};

static double u64_or_nan(const gw_u64 *f)
{
	return GW_VALID(*f) ? (double)f->v : NAN;
}

static double f64_or_nan(const gw_f64 *f)
{
	return GW_VALID(*f) ? f->v : NAN;
}

/* Append under m->lock; bounded by max_records. */
static void monitor_append(struct monitor_state *m, const struct record *r)
{
	if (m->nrec == m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 256;
		struct record *nr;

		if (ncap > m->max_records)
			ncap = m->max_records;
		if (ncap <= m->nrec || !(nr = realloc(m->records, ncap * sizeof(*nr)))) {
			m->truncated = 1;
			return;
		}
		m->records = nr;
		m->cap = ncap;
	}
	m->records[m->nrec++] = *r;
}

static void monitor_resolve(struct monitor_state *m, gw_context *ctx)
{
	size_t used = 0;

	for (int i = 0; i < m->nsel && m->ndev < MON_MAX_DEVICES; i++) {
		const gw_device_info *info;
		int idx;

		if (gw_device_find(ctx, m->selectors[i], &idx) < 0 || !(info = gw_device_get(ctx, idx))) {
			int w = snprintf(m->unresolved + used, sizeof(m->unresolved) - used, "%s%s",
					 used ? ", " : "", m->selectors[i]);

			if (w > 0 && (size_t)w < sizeof(m->unresolved) - used)
				used += (size_t)w;
			continue;
		}
		m->dev_index[m->ndev] = idx;
		snprintf(m->dev_uuid[m->ndev], GW_STR_MAX, "%s", GW_VALID(info->uuid) ? info->uuid.s : "");
		snprintf(m->dev_name[m->ndev], GW_STR_MAX, "%s", GW_VALID(info->name) ? info->name.s : "");
		m->ndev++;
	}
}

static gw_sampler *monitor_sampler(struct monitor_state *m)
{
	return m->sampler;
}

/* After each pass, on the sampler's thread (and once more at stop, on the
 * stopping thread): one record per device read, an error per device not. */
static void monitor_on_pass(gw_sampler *sampler, uint64_t seq, void *arg)
{
	struct monitor_state *m = arg;
	gw_sample_point *p = &m->point;

	(void)seq;
	for (int i = 0; i < m->ndev; i++) {
		const gw_device_info *info = gw_device_get(m->ctx, m->dev_index[i]);
		const gw_device_sample *s = &p->sample;
		struct record r;

		if (gw_sampler_latest(sampler, i, p) < 0 || !p->up) {
			pthread_mutex_lock(&m->lock);
			m->errors++;
			pthread_mutex_unlock(&m->lock);
			continue;
		}
		r.t = p->elapsed;
		r.dev = i;
		r.mem_used = u64_or_nan(&s->memory_used);
		r.mem_total = info ? u64_or_nan(&info->memory_total) : NAN;
		r.gpu_util = u64_or_nan(&s->gpu_util);
		r.mem_util = u64_or_nan(&s->mem_util);
		r.power = f64_or_nan(&s->power_draw);
		r.temp = f64_or_nan(&s->temperature);
		r.energy = f64_or_nan(&s->energy);
		r.sm_clock = u64_or_nan(&s->sm_clock);
		r.throttle = u64_or_nan(&s->throttle_reasons);
		pthread_mutex_lock(&m->lock);
		monitor_append(m, &r);
		pthread_mutex_unlock(&m->lock);
	}
}

/* start(), without the GIL: the context, the devices, the sampler's thread
 * (its first pass at once). What fails is kept for status(). */
static void monitor_begin(struct monitor_state *m)
{
	gw_sampler_options o = GW_SAMPLER_OPTIONS_INIT;
	gw_context *ctx = NULL;
	gw_sampler *sampler = NULL;

	if (gw_context_new(&ctx, &m->opts) < 0) {
		pthread_mutex_lock(&m->lock);
		snprintf(m->context_error, sizeof(m->context_error), "%s", gw_error_last());
		m->ready = 1;
		pthread_mutex_unlock(&m->lock);
		return;
	}
	pthread_mutex_lock(&m->lock);
	m->ctx = ctx;
	monitor_resolve(m, ctx);
	pthread_mutex_unlock(&m->lock);
	if (m->ndev > 0) {
		o.interval = m->interval;
		o.history = 1;          /* on_pass copies each pass out at once */
		o.devices = m->dev_index;
		o.ndevices = m->ndev;
		o.on_pass = monitor_on_pass;
		o.on_pass_arg = m;
		if (gw_sampler_new(&sampler, ctx, &o) < 0) {
			snprintf(m->context_error, sizeof(m->context_error), "%s", gw_error_last());
		} else {
			pthread_mutex_lock(&m->lock);
			m->sampler = sampler;
			pthread_mutex_unlock(&m->lock);
			if (gw_sampler_start(sampler) < 0)
				snprintf(m->context_error, sizeof(m->context_error), "%s", gw_error_last());
		}
	}
	pthread_mutex_lock(&m->lock);
	m->ready = 1;
	pthread_mutex_unlock(&m->lock);
}

/* In a fork child, with m->lock held (fork_prepare took it): the sampling
 * thread is not there. Never join it, never destroy the condition variable
 * it was waiting on (that waits for the waiter), leave its context alone. */
static void monitor_forked_in_child(struct monitor_state *m)
{
	if (m->started) {
		m->inherited = 1;
		m->started = 0;
		m->stop = 1;
	}
}

static void monitor_state_free(struct monitor_state *m)
{
	if (!m)
		return;
	fork_unregister(&m->fork);
	/* In a fork child the sampler never waits for its missing thread; the
	 * context that thread may have been inside is left alone (leaked). */
	gw_sampler_free(m->sampler);
	if (!m->inherited)
		gw_context_free(m->ctx);
	for (int i = 0; i < m->nsel; i++)
		free(m->selectors[i]);
	free(m->root);
	free(m->records);
	if (!m->inherited)
		pthread_mutex_destroy(&m->lock);
	free(m);
}

/* Stop the sampler's thread, then one last pass on this thread, so short
 * runs still see the end state; safe to call twice. Called without the GIL. */
static void monitor_join(struct monitor_state *m)
{
	if (!m->started)
		return;
	if (m->sampler) {
		gw_sampler_stop(m->sampler);
		if (gw_sampler_step(m->sampler) == 0)
			monitor_on_pass(m->sampler, 0, m);
	}
	pthread_mutex_lock(&m->lock);
	m->stop = 1;
	m->started = 0;
	pthread_mutex_unlock(&m->lock);
}

typedef struct {
	PyObject_HEAD
	struct monitor_state *m;
	int finished;
} MonitorObject;

static PyObject *Monitor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static char *kwlist[] = { "selectors", "interval", "root", "flags", "max_samples", NULL };
	allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
	PyObject *sels, *seq = NULL;
	double interval = 0.1;
	const char *root = NULL;
	unsigned int flags = GW_OPT_NO_CUDA;
	Py_ssize_t max_samples = 500000, n;
	MonitorObject *self;
	struct monitor_state *m;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|dzIn:Monitor", kwlist, &sels, &interval,
					 &root, &flags, &max_samples))
		return NULL;
	if (!isfinite(interval) || interval < 0.001 || interval > 3600.0)
		return raise_code(GW_EINVAL, N_("interval must be between 0.001 and 3600 seconds"));
	if (max_samples < 1)
		return raise_code(GW_EINVAL, N_("max_samples must be at least 1"));
	if (!(seq = PySequence_Fast(sels, "selectors must be a sequence of str")))
		return NULL;
	n = PySequence_Size(seq);
	if (n < 0) {
		Py_DECREF(seq);
		return NULL;
	}
	if (n > MON_MAX_DEVICES) {
		Py_DECREF(seq);
		return raise_code(GW_EINVAL, N_("a monitor watches at most 64 devices"));
	}
	if (!(m = calloc(1, sizeof(*m)))) {
		Py_DECREF(seq);
		return PyErr_NoMemory();
	}
	pthread_mutex_init(&m->lock, NULL);
	fork_register(&m->fork, &m->lock, m);
	m->interval = interval;
	m->max_records = (size_t)max_samples;
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *item = PySequence_GetItem(seq, i), *bytes;
		const char *s;

		if (!item)
			goto fail;
		if (!PyUnicode_Check(item)) {
			Py_DECREF(item);
			PyErr_SetString(PyExc_TypeError, "selectors must be a sequence of str");
			goto fail;
		}
		bytes = PyUnicode_AsUTF8String(item);
		Py_DECREF(item);
		if (!bytes)
			goto fail;
		s = PyBytes_AsString(bytes);
		m->selectors[m->nsel] = s ? strdup(s) : NULL;
		Py_DECREF(bytes);
		if (!s)
			goto fail;
		if (!m->selectors[m->nsel]) {
			PyErr_NoMemory();
			goto fail;
		}
		m->nsel++;
	}
	Py_CLEAR(seq);
	m->root = dup_or_null(root);
	if (root && !m->root) {
		PyErr_NoMemory();
		goto fail;
	}
	m->opts = (gw_options)GW_OPTIONS_INIT;
	m->opts.root = m->root;
	m->opts.flags = flags;
	if (!(self = (MonitorObject *)alloc(type, 0)))
		goto fail;
	self->m = m;
	return (PyObject *)self;
fail:
	Py_XDECREF(seq);
	monitor_state_free(m);
	return NULL;
}

static void Monitor_dealloc(PyObject *obj)
{
	MonitorObject *self = (MonitorObject *)obj;
	PyTypeObject *tp = Py_TYPE(obj);
	freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);

	if (self->m) {
		Py_BEGIN_ALLOW_THREADS
		monitor_join(self->m);
		Py_END_ALLOW_THREADS
		monitor_state_free(self->m);
	}
	tp_free(obj);
	Py_DECREF(tp);
}

static PyObject *Monitor_start(PyObject *obj, PyObject *unused)
{
	MonitorObject *self = (MonitorObject *)obj;
	struct monitor_state *m = self->m;

	(void)unused;
	if (m->started || self->finished || m->inherited || m->ready)
		return raise_code(GW_EINVAL, N_("a Monitor can be started once"));
	m->stop = 0;
	m->started = 1;
	/* The context and devices exist when start() returns, so devices() is
	 * there; the sampler's first pass starts at once. */
	Py_BEGIN_ALLOW_THREADS
	monitor_begin(m);
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

static PyObject *Monitor_stop(PyObject *obj, PyObject *unused)
{
	MonitorObject *self = (MonitorObject *)obj;
	struct monitor_state *m = self->m;

	(void)unused;
	if (m->started) {
		Py_BEGIN_ALLOW_THREADS
		monitor_join(m);
		Py_END_ALLOW_THREADS
		self->finished = 1;
	}
	Py_RETURN_NONE;
}

static PyObject *num_or_none(double v)
{
	if (isnan(v))
		Py_RETURN_NONE;
	return PyFloat_FromDouble(v);
}

static PyObject *int_or_none(double v)
{
	if (isnan(v) || v < 0 || v > 1.8e19)
		Py_RETURN_NONE;
	return PyLong_FromUnsignedLongLong((unsigned long long)v);
}

static PyObject *record_tuple(const struct record *r)
{
	return Py_BuildValue("(diNNNNNNNNN)", r->t, r->dev,
			     int_or_none(r->mem_used), int_or_none(r->mem_total),
			     num_or_none(r->gpu_util), num_or_none(r->mem_util),
			     num_or_none(r->power), num_or_none(r->temp), num_or_none(r->energy),
			     int_or_none(r->sm_clock), int_or_none(r->throttle));
}

/* samples(start=0) -> list of tuples from position `start` on:
 * (t, device, memory_used, memory_total, gpu_util, mem_util, power_w,
 *  temperature_c, energy_j, sm_clock_mhz, throttle_reasons). */
static PyObject *Monitor_samples(PyObject *obj, PyObject *args)
{
	MonitorObject *self = (MonitorObject *)obj;
	struct monitor_state *m = self->m;
	Py_ssize_t start = 0;
	struct record *copy = NULL;
	size_t n = 0;
	PyObject *res;

	if (!PyArg_ParseTuple(args, "|n:samples", &start))
		return NULL;
	if (start < 0)
		start = 0;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&m->lock);
	if ((size_t)start < m->nrec) {
		n = m->nrec - (size_t)start;
		if ((copy = malloc(n * sizeof(*copy))))
			memcpy(copy, m->records + start, n * sizeof(*copy));
		else
			n = 0;
	}
	pthread_mutex_unlock(&m->lock);
	Py_END_ALLOW_THREADS
	if (!(res = PyList_New((Py_ssize_t)n))) {
		free(copy);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		PyObject *t = record_tuple(&copy[i]);

		if (!t || PyList_SetItem(res, (Py_ssize_t)i, t) < 0) {
			Py_CLEAR(res);
			break;
		}
	}
	free(copy);
	return res;
}

/* status() -> dict: devices [(selector_position, index, uuid, name)],
 * unresolved, context_error, truncated, errors, running, count. */
static PyObject *Monitor_status(PyObject *obj, PyObject *unused)
{
	MonitorObject *self = (MonitorObject *)obj;
	struct monitor_state *m = self->m;
	PyObject *d = NULL, *devs = NULL;
	int bad = 0;

	(void)unused;
	pthread_mutex_lock(&m->lock);  /* brief, never held by the thread across a sample */
	if (!(d = PyDict_New()) || !(devs = PyList_New(0)))
		goto out;
	for (int i = 0; m->ready && i < m->ndev; i++) {
		PyObject *t = Py_BuildValue("(iNN)", m->dev_index[i], text(m->dev_uuid[i]), text(m->dev_name[i]));

		if (!t || PyList_Append(devs, t) < 0) {
			Py_XDECREF(t);
			bad = 1;
			break;
		}
		Py_DECREF(t);
	}
	bad |= PyDict_SetItemString(d, "devices", devs);
	bad |= put(d, "unresolved", text(m->unresolved));
	bad |= put(d, "context_error", text(m->context_error));
	bad |= put(d, "truncated", PyBool_FromLong(m->truncated));
	bad |= put(d, "errors", PyLong_FromUnsignedLong(m->errors));
	bad |= put(d, "running", PyBool_FromLong(m->started && !m->stop));
	bad |= put(d, "inherited", PyBool_FromLong(m->inherited));
	bad |= put(d, "count", PyLong_FromSize_t(m->nrec));
	bad |= put(d, "interval", PyFloat_FromDouble(m->interval));
out:
	pthread_mutex_unlock(&m->lock);
	Py_XDECREF(devs);
	if (bad)
		Py_CLEAR(d);
	return d;
}

static PyMethodDef Monitor_methods[] = {
	{ "start", Monitor_start, METH_NOARGS, "Start the sampling thread (once)." },
	{ "stop", Monitor_stop, METH_NOARGS, "Stop and join the sampling thread." },
	{ "samples", Monitor_samples, METH_VARARGS, "samples(start=0) -> list of sample tuples." },
	{ "status", Monitor_status, METH_NOARGS, "status() -> dict describing the monitor." },
	{ NULL, NULL, 0, NULL }
};

static PyType_Slot Monitor_slots[] = {
	{ Py_tp_new, (void *)Monitor_new },
	{ Py_tp_dealloc, (void *)Monitor_dealloc },
	{ Py_tp_methods, Monitor_methods },
	{ Py_tp_doc, (void *)"Monitor(selectors, interval=0.1, root=None, flags=NO_CUDA, max_samples=500000): "
		     "a background C thread sampling GPUs with its own context." },
	{ 0, NULL }
};

static PyType_Spec Monitor_spec = {
	"gpuwise._gpuwise.Monitor", sizeof(MonitorObject), 0, Py_TPFLAGS_DEFAULT, Monitor_slots
};

/* ---- explain ------------------------------------------------------------ */

static PyObject *doc_dict(const gw_finding_doc *doc)
{
	PyObject *d = PyDict_New();
	int bad = 0;

	if (!d)
		return NULL;
	bad |= put(d, "id", text(doc->id));
	bad |= put(d, "title", text(doc->title));
	bad |= put(d, "severity", text(doc->severity));
	bad |= put(d, "layer", text(doc->layer));
	bad |= put(d, "kind", text(doc->kind));
	bad |= put(d, "cause", text(doc->cause));
	bad |= put(d, "fix", text(doc->fix));
	bad |= put(d, "explanation", text(doc->explanation));
	bad |= put(d, "source", text(doc->source));
	if (bad) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

/* explain(data: bytes) -> [match dicts] in order of first appearance. */
static PyObject *mod_explain(PyObject *mod, PyObject *args)
{
	const char *buf;
	Py_ssize_t len;
	gw_explainer *ex = NULL;
	PyObject *res = NULL;
	int rc;

	(void)mod;
	if (!PyArg_ParseTuple(args, "y#:explain", &buf, &len))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	rc = gw_explainer_new(&ex);
	if (rc == 0) {
		gw_explainer_feed(ex, buf, (size_t)len);
		gw_explainer_finish(ex);
	}
	Py_END_ALLOW_THREADS
	if (rc < 0)
		return raise_code(rc, gw_error_last());
	if (!(res = PyList_New(0)))
		goto out;
	for (size_t i = 0; i < gw_explainer_count(ex); i++) {
		const gw_explain_match *m = gw_explainer_match(ex, i);
		PyObject *d;
		int bad;

		if (!m || !m->doc)
			continue;
		if (!(d = doc_dict(m->doc)))
			goto fail;
		bad = put(d, "framework", text(m->framework ? m->framework : ""));
		bad |= put(d, "line", PyLong_FromUnsignedLongLong(m->line));
		bad |= put(d, "count", PyLong_FromUnsignedLongLong(m->count));
		bad |= put(d, "excerpt", PyUnicode_DecodeUTF8(m->excerpt,
				(Py_ssize_t)strnlen(m->excerpt, sizeof(m->excerpt)), "replace"));
		if (bad || PyList_Append(res, d) < 0) {
			Py_DECREF(d);
			goto fail;
		}
		Py_DECREF(d);
	}
	goto out;
fail:
	Py_CLEAR(res);
out:
	gw_explainer_free(ex);
	return res;
}

/* finding(id) -> catalogue dict, or None when there is no such id. */
static PyObject *mod_finding(PyObject *mod, PyObject *args)
{
	const gw_finding_doc *doc;
	const char *id;

	(void)mod;
	if (!PyArg_ParseTuple(args, "s:finding", &id))
		return NULL;
	if (!(doc = gw_finding_doc_get(id)))
		Py_RETURN_NONE;
	return doc_dict(doc);
}

static PyObject *mod_finding_ids(PyObject *mod, PyObject *unused)
{
	PyObject *res = PyList_New(0);

	(void)mod;
	(void)unused;
	for (size_t i = 0; res && i < gw_finding_doc_count(); i++) {
		const gw_finding_doc *doc = gw_finding_doc_at(i);
		PyObject *s;

		if (!doc)
			continue;
		if (!(s = text(doc->id)) || PyList_Append(res, s) < 0) {
			Py_XDECREF(s);
			Py_CLEAR(res);
			break;
		}
		Py_DECREF(s);
	}
	return res;
}

/* ---- doctor ------------------------------------------------------------- */
#ifdef GW_PY_HAVE_DOCTOR

static PyObject *finding_dict(const gw_finding *f)
{
	PyObject *d = PyDict_New();
	int bad = 0;

	if (!d)
		return NULL;
	bad |= put(d, "id", text(f->id));
	bad |= put(d, "severity", text(gw_severity_name(f->severity)));
	bad |= put(d, "layer", text(f->layer));
	bad |= put(d, "title", text(f->title));
	bad |= put(d, "evidence", text(f->evidence));
	bad |= put(d, "fix", text(f->fix));
	if (bad) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

static PyObject *deep_dict(const gw_doctor_deep *x)
{
	PyObject *d = PyDict_New();
	int bad = 0;

	if (!d)
		return NULL;
	bad |= put(d, "site", text(x->site));
	bad |= put(d, "python", text(x->python));
	bad |= put(d, "framework", text(x->framework));
	bad |= put(d, "static_verdict", text(x->static_verdict));
	bad |= put(d, "ok", PyBool_FromLong(x->ok));
	bad |= put(d, "timed_out", PyBool_FromLong(x->timed_out));
	bad |= put(d, "exit_status", PyLong_FromLong(x->exit_status));
	bad |= put(d, "seconds", PyFloat_FromDouble(x->seconds));
	bad |= put(d, "output", text(x->output));
	if (x->explained) {
		PyObject *e = PyDict_New();

		if (!e) {
			Py_DECREF(d);
			return NULL;
		}
		bad |= put(e, "id", text(x->explained->id));
		bad |= put(e, "title", text(x->explained->title));
		bad |= put(e, "line", text(x->explained_line));
		bad |= put(e, "cause", text(x->explained->cause));
		bad |= put(e, "fix", text(x->explained_fix ? x->explained_fix : x->explained->fix));
		bad |= put(d, "explain", e);
	} else {
		Py_INCREF(Py_None);
		bad |= put(d, "explain", Py_None);
	}
	if (x->not_checked) {
		bad |= put(d, "not_checked", text(x->not_checked));
	} else {
		Py_INCREF(Py_None);
		bad |= put(d, "not_checked", Py_None);
	}
	if (bad) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

/* Append the items of a report to a list with `make`. */
static int append_all(PyObject *list, PyObject *item)
{
	int rc;

	if (!item)
		return -1;
	rc = PyList_Append(list, item);
	Py_DECREF(item);
	return rc;
}

#define DOCTOR_MAX_ENVS 64

/* doctor(deep=False, python_envs=(), deep_timeout=20.0, flags=0) ->
 * {"findings": [...], "verdict": str, "json": str, "deep": [...]} */
static PyObject *mod_doctor(PyObject *mod, PyObject *args, PyObject *kwargs)
{
	static char *kwlist[] = { "deep", "python_envs", "deep_timeout", "flags", NULL };
	int deep = 0;
	PyObject *envs = NULL, *seq = NULL, *res = NULL, *findings = NULL, *deeps = NULL;
	PyObject *holders[DOCTOR_MAX_ENVS];
	const char *paths[DOCTOR_MAX_ENVS];
	Py_ssize_t nenv = 0;
	double timeout = 20.0;
	unsigned int flags = 0;
	gw_doctor_options opts = GW_DOCTOR_OPTIONS_INIT;
	gw_doctor_report *rep = NULL;
	struct failure f = { 0, "" };
	char *json = NULL;
	int rc, bad = 0;

	(void)mod;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|pOdI:doctor", kwlist, &deep, &envs, &timeout, &flags))
		return NULL;
	if (envs && envs != Py_None) {
		if (!(seq = PySequence_Fast(envs, "python_envs must be a sequence of str")))
			return NULL;
		nenv = PySequence_Size(seq);
		if (nenv < 0 || nenv > DOCTOR_MAX_ENVS) {
			Py_DECREF(seq);
			if (nenv >= 0)
				raise_code(GW_EINVAL, N_("at most 64 python_envs"));
			return NULL;
		}
		for (Py_ssize_t i = 0; i < nenv; i++) {
			PyObject *item = PySequence_GetItem(seq, i);

			holders[i] = NULL;
			if (item && PyUnicode_Check(item))
				holders[i] = PyUnicode_AsEncodedString(item, "utf-8", "surrogateescape");
			else if (item)
				PyErr_SetString(PyExc_TypeError, "python_envs must be a sequence of str");
			Py_XDECREF(item);
			if (!holders[i] || !(paths[i] = PyBytes_AsString(holders[i]))) {
				for (Py_ssize_t j = 0; j <= i; j++)
					Py_XDECREF(holders[j]);
				Py_DECREF(seq);
				return NULL;
			}
		}
	}
	if (!isfinite(timeout)) {
		res = raise_code(GW_EINVAL, N_("deep_timeout must be a finite number of seconds"));
		goto out;
	}
	opts.python_envs = nenv ? paths : NULL;
	opts.npython_envs = (size_t)nenv;
	opts.deep = deep;
	opts.deep_timeout_s = timeout;
	opts.flags = flags;
	Py_BEGIN_ALLOW_THREADS
	rc = gw_doctor_run(&rep, &opts);
	if (rc < 0)
		failure_take(&f, rc);
	else
		json = gw_doctor_report_json(rep, 0);
	Py_END_ALLOW_THREADS
	if (rc < 0) {
		raise_code(f.code, f.message);
		goto out;
	}
	if (!(res = PyDict_New()) || !(findings = PyList_New(0)) || !(deeps = PyList_New(0)))
		goto fail;
	for (size_t i = 0; i < gw_doctor_finding_count(rep); i++) {
		const gw_finding *fi = gw_doctor_finding(rep, i);

		if (fi && append_all(findings, finding_dict(fi)) < 0)
			goto fail;
	}
	for (size_t i = 0; i < gw_doctor_deep_count(rep); i++) {
		const gw_doctor_deep *x = gw_doctor_deep_at(rep, i);

		if (x && append_all(deeps, deep_dict(x)) < 0)
			goto fail;
	}
	bad |= PyDict_SetItemString(res, "findings", findings);
	bad |= PyDict_SetItemString(res, "deep", deeps);
	bad |= put(res, "verdict", text(gw_doctor_verdict(rep)));
	bad |= put(res, "json", json ? text(json) : (Py_INCREF(Py_None), Py_None));
	if (!bad)
		goto out;
fail:
	Py_CLEAR(res);
out:
	Py_XDECREF(findings);
	Py_XDECREF(deeps);
	free(json);
	gw_doctor_report_free(rep);
	for (Py_ssize_t i = 0; i < nenv; i++)
		Py_XDECREF(holders[i]);
	Py_XDECREF(seq);
	return res;
}
#endif

/* ---- advise ------------------------------------------------------------- */

/* An unsigned option from the dict: absent or None leaves *out alone. */
static int opt_u64(PyObject *opts, const char *key, uint64_t *out)
{
	PyObject *v = PyDict_GetItemString(opts, key);   /* borrowed */
	unsigned long long n;

	if (!v || v == Py_None)
		return 0;
	if (!PyLong_Check(v) || PyBool_Check(v)) {
		PyErr_Format(PyExc_TypeError, "advise: %s must be an int", key);
		return -1;
	}
	n = PyLong_AsUnsignedLongLong(v);
	if (n == (unsigned long long)-1 && PyErr_Occurred()) {
		PyErr_Clear();
		raise_code(GW_EINVAL, N_("advise: a negative or too large number"));
		return -1;
	}
	*out = n;
	return 0;
}

/* A str option of the dict into buf: 1, 0 when it is absent or None, -1
 * (TypeError) when it is not a str. */
static int opt_str(PyObject *opts, const char *key, const char *example, char *buf, size_t size)
{
	PyObject *v = PyDict_GetItemString(opts, key), *b;

	if (!v || v == Py_None)
		return 0;
	if (!PyUnicode_Check(v)) {
		PyErr_Format(PyExc_TypeError, "advise: %s must be a str%s", key, example);
		return -1;
	}
	if (!(b = PyUnicode_AsEncodedString(v, "utf-8", "replace")))
		return -1;
	snprintf(buf, size, "%s", PyBytes_AsString(b) ? PyBytes_AsString(b) : "");
	Py_DECREF(b);
	return 1;
}

/* A vocabulary option ("task", "precision", ...) from the dict, by name. */
static int opt_vocab(PyObject *opts, const char *key, int *out)
{
	char s[64], msg[200];
	int n, rc;

	if ((rc = opt_str(opts, key, "", s, sizeof(s))) <= 0)
		return rc;
	if ((n = gw_advise_value(key, s)) < 0 || (n == 0 && !strcmp(s, "auto"))) {
		snprintf(msg, sizeof(msg), "advise: %s must be one of: %s", key, gw_advise_names(key));
		raise_code(GW_EINVAL, msg);
		return -1;
	}
	*out = n;
	return 0;
}

/* torch="1.13.1" (or torch.__version__ itself, a str subclass),
 * bitsandbytes="0.43.1": the releases the run uses, parsed by `parse`. */
static int opt_release(PyObject *opts, const char *key, int (*parse)(const char *, uint32_t *), uint32_t *out)
{
	char s[64];
	int rc;

	if ((rc = opt_str(opts, key, " such as \"1.13.1\"", s, sizeof(s))) <= 0)
		return rc;
	if (parse(s, out) < 0) {
		raise_code(GW_EINVAL, gw_error_last());
		return -1;
	}
	return 0;
}

/* transformers="4.44.2" → major·100 + minor (what the CLI's --transformers
 * reads; gw_advise_torch_version parses the same MAJOR.MINOR[.PATCH]). */
static int opt_transformers(PyObject *opts, uint32_t *out)
{
	char s[64];
	int rc;

	if ((rc = opt_str(opts, "transformers", " such as \"4.44.2\"", s, sizeof(s))) <= 0)
		return rc;
	if (gw_advise_torch_version(s, out) < 0 || *out < 100) {
		raise_code(GW_EINVAL, N_("advise: transformers must be a version such as \"4.44.2\""));
		return -1;
	}
	return 0;
}

static int advise_options(PyObject *opts, gw_advise_options *o, gw_model *shape)
{
	int task = o->task, prec = o->precision, w = o->weights, opt = o->optimizer;
	int strat = o->strategy, off = o->offload, att = o->attention, lt = o->lora_targets, loop = (int)o->loop;
	int loss = (int)o->loss;
	uint64_t dseq = o->decoder_seq, chunks = o->loss_chunks;
	PyObject *ck;

	if (opt_vocab(opts, "task", &task) || opt_vocab(opts, "precision", &prec) ||
	    opt_vocab(opts, "weights", &w) || opt_vocab(opts, "optimizer", &opt) ||
	    opt_vocab(opts, "strategy", &strat) || opt_vocab(opts, "offload", &off) ||
	    opt_vocab(opts, "attention", &att) || opt_vocab(opts, "lora_targets", &lt) ||
	    opt_vocab(opts, "loop", &loop) || opt_vocab(opts, "loss", &loss) || opt_u64(opts, "batch", &o->batch) ||
	    opt_u64(opts, "seq", &o->seq) || opt_u64(opts, "decoder_seq", &dseq) ||
	    opt_u64(opts, "new_tokens", &o->new_tokens) || opt_u64(opts, "image", &o->image) ||
	    opt_u64(opts, "loss_chunks", &chunks) ||
	    opt_u64(opts, "grad_accum", &o->grad_accum) || opt_u64(opts, "lora_rank", &o->lora_rank) ||
	    opt_u64(opts, "gpus", &o->gpus) || opt_u64(opts, "params", &shape->params) ||
	    opt_u64(opts, "layers", &shape->num_layers) || opt_u64(opts, "hidden", &shape->hidden_size) ||
	    opt_u64(opts, "heads", &shape->num_heads) || opt_u64(opts, "kv_heads", &shape->num_kv_heads) ||
	    opt_u64(opts, "vocab", &shape->vocab_size) || opt_u64(opts, "intermediate", &shape->intermediate_size))
		return -1;
	o->task = (gw_advise_task)task;
	o->precision = (gw_precision)prec;
	o->weights = (gw_weights)w;
	o->optimizer = (gw_optimizer)opt;
	o->strategy = (gw_strategy)strat;
	o->offload = (gw_offload)off;
	o->attention = (gw_attention)att;
	o->lora_targets = (uint8_t)lt;
	o->loop = (uint32_t)loop;
	o->loss = (uint32_t)loss;
	if (dseq > UINT16_MAX) {
		raise_code(GW_EINVAL, N_("advise: decoder_seq must be from 1 to 65535"));
		return -1;
	}
	o->decoder_seq = (uint16_t)dseq;
	if (chunks > 65536) {
		raise_code(GW_EINVAL, N_("advise: loss_chunks must be at most 65536"));
		return -1;
	}
	o->loss_chunks = (uint32_t)chunks;
	if (opt_release(opts, "torch", gw_advise_torch_version, &o->torch_version) ||
	    opt_release(opts, "bitsandbytes", gw_advise_bitsandbytes_version, &o->bitsandbytes_version) ||
	    opt_release(opts, "autoawq", gw_advise_autoawq_version, &o->autoawq_version) ||
	    opt_transformers(opts, &o->transformers_version))
		return -1;
	if ((ck = PyDict_GetItemString(opts, "checkpointing")) && ck != Py_None) {
		int t = PyObject_IsTrue(ck);
		if (t < 0)
			return -1;
		o->checkpointing = t;
	}
	if ((ck = PyDict_GetItemString(opts, "offload_activations")) && ck != Py_None) {
		int t = PyObject_IsTrue(ck);
		if (t < 0)
			return -1;
		o->offload_activations = (uint32_t)t;
	}
	if ((ck = PyDict_GetItemString(opts, "autoawq_fused")) && ck != Py_None) {
		int t = PyObject_IsTrue(ck);
		if (t < 0)
			return -1;
		o->autoawq_fused = (uint32_t)t;
	}
	if ((ck = PyDict_GetItemString(opts, "init_on_gpu")) && ck != Py_None) {
		int t = PyObject_IsTrue(ck);
		if (t < 0)
			return -1;
		o->init_on_gpu = (uint32_t)t;
	}
	if ((ck = PyDict_GetItemString(opts, "no_zero_init")) && ck != Py_None) {
		int t = PyObject_IsTrue(ck);
		if (t < 0)
			return -1;
		o->no_zero_init = (uint32_t)t;
	}
	return 0;
}

/* Targets: a sequence of (name, source, memory_bytes, cc_major, cc_minor[,
 * in_use_bytes]): in_use_bytes, what other processes hold now, for a GPU
 * of this machine. */
static int advise_targets(PyObject *list, gw_advise_target **out, size_t *n)
{
	gw_advise_target *t;
	Py_ssize_t len = PySequence_Size(list);

	*out = NULL;
	*n = 0;
	if (len < 0)
		return -1;
	if (len > 4096) {
		raise_code(GW_EINVAL, N_("advise: at most 4096 targets"));
		return -1;
	}
	if (!(t = calloc(len ? (size_t)len : 1, sizeof(*t)))) {
		PyErr_NoMemory();
		return -1;
	}
	for (Py_ssize_t i = 0; i < len; i++) {
		PyObject *item = PySequence_GetItem(list, i);
		const char *name, *source;
		unsigned long long mem, used = 0;
		unsigned int major, minor;
		int ok = item && PyTuple_Check(item) &&
			 PyArg_ParseTuple(item, "ssKII|K:advise target", &name, &source, &mem, &major, &minor, &used);

		if (ok) {
			snprintf(t[i].name, sizeof(t[i].name), "%s", name);
			snprintf(t[i].source, sizeof(t[i].source), "%s", source);
			t[i].memory_bytes = mem;
			t[i].cc_major = major;
			t[i].cc_minor = minor;
			t[i].in_use_bytes = used;
		} else if (item && !PyErr_Occurred()) {
			PyErr_SetString(PyExc_TypeError, "advise: a target is a tuple (name, source, memory, major, minor)");
		}
		Py_XDECREF(item);
		if (!ok) {
			free(t);
			return -1;
		}
	}
	*out = t;
	*n = (size_t)len;
	return 0;
}

/* advise(source, value, name, options, targets, target_batch) -> the JSON
 * of `gpuwise advise --json`. source: "catalogue" (value: a name), "config"
 * (value: config.json text) or "shape" (options params/layers/...). */
static PyObject *mod_advise(PyObject *mod, PyObject *args)
{
	const char *source, *value, *name;
	PyObject *opts, *tlist, *res = NULL, *hw, *lm;
	Py_ssize_t vlen;
	unsigned long long target_batch;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_target *targets = NULL;
	gw_advise_report *rep = NULL;
	gw_model m, shape;
	size_t n = 0;
	char *json;
	int rc;

	(void)mod;
	if (!PyArg_ParseTuple(args, "ss#zO!OK:advise", &source, &value, &vlen, &name, &PyDict_Type, &opts, &tlist,
			      &target_batch))
		return NULL;
	memset(&shape, 0, sizeof(shape));
	if (advise_options(opts, &o, &shape) < 0 || advise_targets(tlist, &targets, &n) < 0)
		return NULL;
	if (!strcmp(source, "catalogue")) {
		rc = gw_model_from_catalog(&m, value);
	} else if (!strcmp(source, "config")) {
		rc = gw_model_from_config(&m, value, (size_t)vlen, name);
	} else if (!strcmp(source, "shape")) {
		m = shape;
		m.kind = GW_MODEL_DECODER;
		snprintf(m.name, sizeof(m.name), "%s", name ? name : "custom");
		rc = gw_model_finish(&m);
	} else {
		free(targets);
		return raise_code(GW_EINVAL, N_("advise: source must be catalogue, config or shape"));
	}
	lm = PyDict_GetItemString(opts, "lm_head");
	if (rc == 0 && lm && PyObject_IsTrue(lm) == 1)
		rc = gw_model_use_lm_head(&m);
	if (rc < 0 || (rc = gw_advise_report_new(&rep, &m, source, &o, targets, n, target_batch)) < 0) {
		free(targets);
		return raise_code(rc, gw_error_last());
	}
	hw = PyDict_GetItemString(opts, "hardware");
	if (hw && PyObject_IsTrue(hw) == 1 && (rc = gw_advise_report_add_hardware(rep, &o)) < 0) {
		free(targets);
		gw_advise_report_free(rep);
		return raise_code(rc, gw_error_last());
	}
	free(targets);
	json = gw_advise_report_json(rep, 0);
	gw_advise_report_free(rep);
	if (!json)
		return PyErr_NoMemory();
	res = text(json);
	free(json);
	return res;
}

/* gpu_spec(name) -> {"name", "memory_bytes", "usable_bytes", "reserved_bytes", "cc_major",
 * "cc_minor", "source"} or None; usable_bytes is what a run can allocate
 * (gw_gpu_spec_usable_bytes), reserved_bytes 0 where the table has no source. */
static PyObject *mod_gpu_spec(PyObject *mod, PyObject *args)
{
	const char *name;
	gw_gpu_spec s;
	PyObject *d;
	int bad = 0;

	(void)mod;
	if (!PyArg_ParseTuple(args, "s:gpu_spec", &name))
		return NULL;
	if (gw_gpu_spec_find(name, &s) < 0)
		Py_RETURN_NONE;
	if (!(d = PyDict_New()))
		return NULL;
	bad |= put(d, "name", text(s.name));
	bad |= put(d, "memory_bytes", PyLong_FromUnsignedLongLong(s.memory_bytes));
	bad |= put(d, "usable_bytes", PyLong_FromUnsignedLongLong(gw_gpu_spec_usable_bytes(&s)));
	bad |= put(d, "reserved_bytes", PyLong_FromUnsignedLongLong(gw_gpu_spec_reserved_bytes(&s)));
	bad |= put(d, "cc_major", PyLong_FromUnsignedLong(s.cc_major));
	bad |= put(d, "cc_minor", PyLong_FromUnsignedLong(s.cc_minor));
	bad |= put(d, "source", text(s.source));
	if (bad) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

/* model_names() -> the catalogue's names. */
static PyObject *mod_model_names(PyObject *mod, PyObject *unused)
{
	PyObject *list = PyList_New(0);
	gw_model_entry e;

	(void)mod;
	(void)unused;
	for (size_t i = 0; list && gw_model_catalog_at(i, &e) == 0; i++) {
		PyObject *t = text(e.name);
		if (!t || PyList_Append(list, t) < 0) {
			Py_XDECREF(t);
			Py_CLEAR(list);
			break;
		}
		Py_DECREF(t);
	}
	return list;
}

/* ---- module ------------------------------------------------------------- */

static PyObject *mod_version(PyObject *m, PyObject *unused)
{
	(void)m;
	(void)unused;
	return text(gw_version());
}

/* The folder of the translation catalogues (gw_locale_dir), for the
 * Python texts' gettext (gpuwise/_i18n.py): one catalogue for both. */
static PyObject *mod_locale_dir(PyObject *m, PyObject *unused)
{
	(void)m;
	(void)unused;
	return PyUnicode_DecodeFSDefault(gw_locale_dir());
}

/* The language of the library's own texts (doctor's findings, the
 * library's messages): gpuwise/_i18n.py names it from the environment, so
 * they follow the same variables as the module's texts whatever the
 * process locale. True when a catalogue was found (or for English). */
static PyObject *mod_set_language(PyObject *m, PyObject *args)
{
	const char *language;

	(void)m;
	if (!PyArg_ParseTuple(args, "s", &language))
		return NULL;
	return PyBool_FromLong(gw_language_set(language) == 0);
}

/* text in the language set_language() chose, from the catalogue the
 * library already holds (gw_translate): gpuwise/_i18n.py's _() without
 * Python's gettext, whose imports (re, enum, locale) would cost more than
 * the rest of `import gpuwise`. */
static PyObject *mod_translate(PyObject *m, PyObject *args)
{
	const char *msgid;

	(void)m;
	if (!PyArg_ParseTuple(args, "s:translate", &msgid))
		return NULL;
	return text(gw_translate(msgid));
}

/* The form of a text with a count n (gw_translate_n); _i18n's _n(). */
static PyObject *mod_translate_n(PyObject *m, PyObject *args)
{
	const char *msgid, *plural;
	long long n;

	(void)m;
	if (!PyArg_ParseTuple(args, "ssL:translate_n", &msgid, &plural, &n))
		return NULL;
	/* A negative count takes the form of "many", as in gettext. */
	return text(gw_translate_n(msgid, plural, n < 0 ? 2ul : (unsigned long)n));
}

static PyObject *mod_error_str(PyObject *m, PyObject *args)
{
	int code;

	(void)m;
	if (!PyArg_ParseTuple(args, "i:error_str", &code))
		return NULL;
	return text(gw_error_str(code));
}

/* error_class(code) -> the exception class for a library code. */
static PyObject *mod_error_class(PyObject *m, PyObject *args)
{
	PyObject *cls;
	int code;

	(void)m;
	if (!PyArg_ParseTuple(args, "i:error_class", &code))
		return NULL;
	if (code == GW_ENOMEM) {
		Py_INCREF(PyExc_MemoryError);
		return PyExc_MemoryError;
	}
	cls = error_class_for(code);
	Py_INCREF(cls);
	return cls;
}

static PyMethodDef module_methods[] = {
	{ "version", mod_version, METH_NOARGS, "The C library's version string." },
	{ "error_str", mod_error_str, METH_VARARGS, "error_str(code) -> short description of a gw_error code." },
	{ "locale_dir", mod_locale_dir, METH_NOARGS, "locale_dir() -> the folder of the translation catalogues." },
	{ "set_language", mod_set_language, METH_VARARGS,
	  "set_language(language) -> bool: the library's texts in that language (\"zh_CN\", \"C\"), whatever the locale." },
	{ "translate", mod_translate, METH_VARARGS,
	  "translate(text) -> text in the language set_language() chose, else as it is." },
	{ "translate_n", mod_translate_n, METH_VARARGS,
	  "translate_n(singular, plural, n) -> the form of a text for the count n, in that language." },
	{ "error_class", mod_error_class, METH_VARARGS, "error_class(code) -> exception class for a gw_error code." },
	{ "explain", mod_explain, METH_VARARGS, "explain(data: bytes) -> list of match dicts." },
	{ "finding", mod_finding, METH_VARARGS, "finding(id) -> catalogue entry dict or None." },
	{ "finding_ids", mod_finding_ids, METH_NOARGS, "finding_ids() -> every catalogue id." },
	{ "advise", mod_advise, METH_VARARGS,
	  "advise(source, value, name, options, targets, target_batch) -> JSON of gpuwise advise --json." },
	{ "gpu_spec", mod_gpu_spec, METH_VARARGS, "gpu_spec(name) -> spec-table GPU dict or None." },
	{ "model_names", mod_model_names, METH_NOARGS, "model_names() -> the advise catalogue's names." },
#ifdef GW_PY_HAVE_DOCTOR
	{ "doctor", (PyCFunction)(void (*)(void))mod_doctor, METH_VARARGS | METH_KEYWORDS,
	  "doctor(deep=False, python_envs=(), deep_timeout=20.0, flags=0) -> report dict." },
#endif
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT, "_gpuwise",
	"C binding of the gpuwise library; use the gpuwise package instead.",
	-1, module_methods, NULL, NULL, NULL, NULL
};

static int add_int(PyObject *mod, const char *name, long v)
{
	return PyModule_AddIntConstant(mod, name, v);
}

PyMODINIT_FUNC PyInit__gpuwise(void);

PyMODINIT_FUNC PyInit__gpuwise(void)
{
	PyObject *mod = PyModule_Create(&module_def), *t;

	if (!mod)
		return NULL;
	pthread_once(&fork_handlers_once, fork_handlers_install);
	if (fork_handlers_rc != 0) {
		PyErr_SetString(PyExc_ImportError, "gpuwise: pthread_atfork failed");
		goto fail;
	}
	if (create_error_classes(mod) < 0)
		goto fail;
	if (!(t = PyType_FromSpec(&Context_spec)) || PyModule_AddObject(mod, "Context", t) < 0) {
		Py_XDECREF(t);
		goto fail;
	}
	if (!(t = PyType_FromSpec(&Monitor_spec)) || PyModule_AddObject(mod, "Monitor", t) < 0) {
		Py_XDECREF(t);
		goto fail;
	}
	if (!(t = sample_keys()) || PyModule_AddObject(mod, "SAMPLE_KEYS", t) < 0) {
		Py_XDECREF(t);
		goto fail;
	}
	if (add_int(mod, "OPT_NO_NVML", GW_OPT_NO_NVML) || add_int(mod, "OPT_NO_CUDA", GW_OPT_NO_CUDA) ||
	    add_int(mod, "OPT_NO_SYSFS", GW_OPT_NO_SYSFS) ||
	    add_int(mod, "EGENERIC", GW_EGENERIC) || add_int(mod, "ENOMEM", GW_ENOMEM) ||
	    add_int(mod, "EINVAL", GW_EINVAL) || add_int(mod, "ENOTFOUND", GW_ENOTFOUND) ||
	    add_int(mod, "ENOGPU", GW_ENOGPU) || add_int(mod, "ELIBRARY", GW_ELIBRARY) ||
	    add_int(mod, "EDRIVER", GW_EDRIVER) || add_int(mod, "EMISMATCH", GW_EMISMATCH) ||
	    add_int(mod, "ELOST", GW_ELOST) || add_int(mod, "EPERM", GW_EPERM) ||
	    add_int(mod, "EIO", GW_EIO) || add_int(mod, "ENOTSUP", GW_ENOTSUP) ||
	    add_int(mod, "EPARSE", GW_EPARSE) || add_int(mod, "EVENDOR", GW_EVENDOR))
		goto fail;
	return mod;
fail:
	Py_DECREF(mod);
	return NULL;
}
