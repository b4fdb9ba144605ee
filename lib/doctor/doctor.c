/* gpuwise doctor: the run (probes + context → rules → findings), the
 * report accessors, the verdict line and the JSON form. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor_int.h"
#include "gpuwise/explain.h"

const char *const gw_doctor_layers[] = { "hardware", "driver", "cuda", "python", "live", "environment", NULL };

const char *gw_severity_name(gw_severity sev)
{
	switch (sev) {
	case GW_SEVERITY_ERROR: return "error";
	case GW_SEVERITY_WARNING: return "warning";
	default: return "info";
	}
}

void gw__doc_fmt(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (!n)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
}

void gw__doc_cat(char *buf, size_t n, const char *fmt, ...)
{
	size_t l = strlen(buf);
	va_list ap;

	if (l + 1 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + l, n - l, fmt, ap);
	va_end(ap);
}

static gw_severity severity_from_doc(const char *id)
{
	const gw_finding_doc *doc = gw_finding_doc_get(id);

	if (!doc)
		return GW_SEVERITY_INFO;
	if (!strcmp(doc->severity, "error"))
		return GW_SEVERITY_ERROR;
	if (!strcmp(doc->severity, "warning"))
		return GW_SEVERITY_WARNING;
	return GW_SEVERITY_INFO;
}

void gw__doc_add(gw__doctor *d, const char *id, const char *layer, int sev, const char *title,
		 const char *evidence, const char *fix)
{
	gw_doctor_report *r = d->rep;
	const gw_finding_doc *doc = gw_finding_doc_get(id);
	gw_finding *f;

	if (r->n == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 16;
		gw_finding *nf = gw__realloc(r->f, ncap * sizeof(*nf));

		if (!nf) {
			d->oom = true;
			return;
		}
		r->f = nf;
		r->cap = ncap;
	}
	f = &r->f[r->n];
	f->id = id;
	f->layer = layer;
	f->severity = sev < 0 ? severity_from_doc(id) : (gw_severity)sev;
	f->title = gw__strdup(title ? title : doc ? doc->title : id);
	f->evidence = gw__strdup(evidence ? evidence : "");
	f->fix = gw__strdup(fix ? fix : doc ? doc->fix : "");
	if (!f->title || !f->evidence || !f->fix) {
		gw__free((char *)f->title);
		gw__free((char *)f->evidence);
		gw__free((char *)f->fix);
		d->oom = true;
		return;
	}
	r->n++;
}

/* ---- helpers shared by the rules ---------------------------------------- */

bool gw__doc_variant_cuda(const char *variant, gw_ver *out)
{
	size_t n;
	unsigned v = 0;

	if (!variant || strncmp(variant, "cu", 2))
		return false;
	n = strlen(variant + 2);
	if (n < 3 || n > 4 || strspn(variant + 2, "0123456789") != n)
		return false;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (unsigned)(variant[2 + i] - '0');
	gw__version_set(out, 2, v / 10, v % 10, 0);
	return true;
}

void gw__doc_fw_name(const gw_probe_framework *f, char *buf, size_t n)
{
	static const char *const pretty[] = { "PyTorch", "TensorFlow", "JAX", "CuPy", "Horovod" };
	const char *name = (unsigned)f->kind < GW_ARRAY_SIZE(pretty) ? pretty[f->kind] : "framework";

	if (f->kind == GW_FW_CUPY && f->dist[0])
		name = f->dist;
	else if (f->kind == GW_FW_TENSORFLOW && f->dist[0] && strcmp(f->dist, "tensorflow"))
		name = f->dist;
	if (GW_VERSION_KNOWN(f->version))
		gw__doc_fmt(buf, n, "%s %s", name, f->version.text);
	else
		gw__doc_fmt(buf, n, "%s", name);
}

bool gw__doc_cc(const gw__doctor *d, int i, bool is_pci, unsigned *major, unsigned *minor)
{
	if (!is_pci) {
		const gw_device_info *di = gw_device_get(d->ctx, i);

		if (di && GW_VALID(di->cc_major) && GW_VALID(di->cc_minor)) {
			*major = (unsigned)di->cc_major.v;
			*minor = (unsigned)di->cc_minor.v;
			return true;
		}
		return false;
	}
	if (d->p->gpus[i].model && d->p->gpus[i].model->cc)
		return gw__tbl_cc(d->p->gpus[i].model->cc, major, minor) == 0;
	return false;
}

bool gw__doc_node_ok(const gw__doctor *d, const gw_probe_node *n)
{
	gw_file_stat st;
	unsigned m;

	if (!n->exists)
		return true;   /* missing is device-node-missing, not a permission problem */
	if (!d->fake_root)
		return n->accessible;
	/* A fake tree's files belong to whoever checked it out: access() says
	 * nothing about the modelled user. Judge the mode bits and the groups
	 * of the tree's /etc/group instead. */
	if (gw__path_stat(d->p->root, n->path, &st) < 0)
		return n->accessible;
	m = st.mode;
	if ((m & 06) == 06)
		return true;
	if ((m & 060) == 060 && n->user_in_group)
		return true;
	/* The owner's bits apply whatever the groups: a node mode 0600 owned by
	 * this user is usable though the user is in no GPU group. */
	return (m & 0600) == 0600 && st.uid == d->uid;
}

/* ---- the run -------------------------------------------------------------- */

static void read_live(gw__doctor *d)
{
	gw_options o = GW_OPTIONS_INIT;

	if (d->opts->flags & GW_DOCTOR_NO_LIVE)
		return;
	if (gw_context_new(&d->ctx, &o) < 0) {
		d->ctx = NULL;
		return;
	}
	d->ndev = gw_device_count(d->ctx);
	if (d->ndev <= 0)
		return;
	d->sample = gw__calloc((size_t)d->ndev, sizeof(*d->sample));
	d->have_sample = gw__calloc((size_t)d->ndev, sizeof(*d->have_sample));
	if (!d->sample || !d->have_sample) {
		/* Rules index these arrays by device: with none, see no device. */
		gw__free(d->sample);
		gw__free(d->have_sample);
		d->sample = NULL;
		d->have_sample = NULL;
		d->ndev = 0;
		d->oom = true;
		return;
	}
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_info *di = gw_device_get(d->ctx, i);

		if (di->health == GW_HEALTH_OK && gw_device_sample_read(d->ctx, i, &d->sample[i]) == 0)
			d->have_sample[i] = true;
	}
}

static void driver_facts(gw__doctor *d)
{
	const gw_probe_nvidia *nv = &d->p->nvidia;
	const gw_driver_info *di = d->ctx ? gw_context_driver(d->ctx) : NULL;
	int nv_dev = 0;

	if (di && GW_VALID(di->driver_version))
		gw__version_parse(di->driver_version.s, &d->driver);
	else if (nv->nnvml && GW_VERSION_KNOWN(nv->nvml[0].version))
		d->driver = nv->nvml[0].version;
	else if (GW_VERSION_KNOWN(nv->module_version))
		d->driver = nv->module_version;
	if (di && GW_VALID(di->cuda_driver_version) && di->cuda_driver_version.v > 0) {
		unsigned v = (unsigned)di->cuda_driver_version.v;

		gw__version_set(&d->driver_max_cuda, 2, v / 1000, (v % 1000) / 10, 0);
	} else if (GW_VERSION_KNOWN(d->driver)) {
		gw__tbl_driver_max_cuda(&d->driver, &d->driver_max_cuda);
	}
	for (size_t i = 0; i < d->p->ngpus; i++) {
		if (d->p->gpus[i].vendor == GW_VENDOR_NVIDIA)
			d->nnvidia++;
		else if (d->p->gpus[i].vendor == GW_VENDOR_AMD)
			d->namd++;
	}
	for (int i = 0; i < d->ndev; i++)
		if (gw_device_get(d->ctx, i)->vendor == GW_VENDOR_NVIDIA)
			nv_dev++;
	if (nv_dev > d->nnvidia)
		d->nnvidia = nv_dev;
	if ((int)d->p->amd.nagents > d->namd)
		d->namd = (int)d->p->amd.nagents;
	if (GW_VERSION_KNOWN(d->driver))
		gw__strlcpy(d->rep->driver_version, d->driver.text, sizeof(d->rep->driver_version));
	if (GW_VERSION_KNOWN(d->driver_max_cuda))
		gw__strlcpy(d->rep->cuda_driver, d->driver_max_cuda.text, sizeof(d->rep->cuda_driver));
}

static int layer_rank(const char *layer)
{
	for (int i = 0; gw_doctor_layers[i]; i++)
		if (!strcmp(gw_doctor_layers[i], layer))
			return i;
	return 99;
}

static void sort_findings(gw_doctor_report *r)
{
	/* Insertion sort: stable, and n is small. */
	for (size_t i = 1; i < r->n; i++) {
		gw_finding t = r->f[i];
		size_t j = i;

		while (j > 0) {
			const gw_finding *p = &r->f[j - 1];
			int lr = layer_rank(p->layer) - layer_rank(t.layer);

			if (lr < 0 || (lr == 0 && p->severity >= t.severity))
				break;
			r->f[j] = r->f[j - 1];
			j--;
		}
		r->f[j] = t;
	}
}

/* "8× NVIDIA H100 80GB HBM3" (or "NVIDIA L4 + NVIDIA T4") for readable GPUs. */
static void gpu_phrase(const gw__doctor *d, char *buf, size_t n, int *count)
{
	const char *first = NULL;
	bool same = true;
	int k = 0;

	buf[0] = '\0';
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_info *di = gw_device_get(d->ctx, i);

		if (di->health != GW_HEALTH_OK || !GW_VALID(di->name))
			continue;
		if (di->vendor != GW_VENDOR_NVIDIA && di->vendor != GW_VENDOR_AMD)
			continue;
		if (first && strcmp(first, di->name.s))
			same = false;
		if (!first)
			first = di->name.s;
		k++;
	}
	*count = k;
	if (!k)
		return;
	if (same)
		gw__doc_fmt(buf, n, "%d× %s", k, first);
	else
		gw__doc_fmt(buf, n, "%d GPUs (%s, ...)", k, first);
}

static void make_verdict(gw__doctor *d)
{
	gw_doctor_report *r = d->rep;
	size_t ne = gw_doctor_count(r, GW_SEVERITY_ERROR), nw = gw_doctor_count(r, GW_SEVERITY_WARNING);
	char gpus[160], fw[96] = "";
	int k;

	gpu_phrase(d, gpus, sizeof(gpus), &k);
	if (ne) {
		const gw_finding *first = NULL;

		for (size_t i = 0; i < r->n && !first; i++)
			if (r->f[i].severity == GW_SEVERITY_ERROR)
				first = &r->f[i];
		gw__doc_fmt(r->verdict, sizeof(r->verdict), "not ready: %zu error%s (%s: %s)%s", ne, ne == 1 ? "" : "s",
			 first->id, first->title, nw ? ", and warnings" : "");
		return;
	}
	for (size_t e = 0; e < d->p->nenvs && !fw[0]; e++)
		for (size_t i = 0; i < d->p->envs[e].nfw && !fw[0]; i++) {
			const gw_probe_framework *f = &d->p->envs[e].fw[i];

			if (f->primary && (f->gpu == GW_FW_GPU_CUDA || f->gpu == GW_FW_GPU_ROCM))
				gw__doc_fw_name(f, fw, sizeof(fw));
		}
	if (!k)
		gw__doc_fmt(r->verdict, sizeof(r->verdict), "not ready: no GPU can be used");
	else if (fw[0])
		gw__doc_fmt(r->verdict, sizeof(r->verdict), "ready%s: %s can use %s", nw ? " with warnings" : "", fw, gpus);
	else
		gw__doc_fmt(r->verdict, sizeof(r->verdict), "ready%s: %s usable (no GPU framework found in Python)",
			 nw ? " with warnings" : "", gpus);
}

int gw_doctor_run(gw_doctor_report **out, const gw_doctor_options *opts)
{
	gw_doctor_options defaults = GW_DOCTOR_OPTIONS_INIT;
	gw_probe_options po;
	gw__doctor d;
	const char *root = getenv("GPUWISE_ROOT");
	int rc = 0;

	if (!out)
		return gw__error_set(GW_EINVAL, "doctor run without an output");
	if (!opts)
		opts = &defaults;
	if (opts->version != GW_DOCTOR_OPTIONS_VERSION && opts->version != 1)
		return gw__error_set(GW_EINVAL, "doctor options version %u, expected %u", opts->version,
				     GW_DOCTOR_OPTIONS_VERSION);
	memset(&d, 0, sizeof(d));
	d.opts = opts;
	d.cancel = opts->version >= 2 ? opts->cancel : NULL;
	d.uid = gw__getuid();
	d.fake_root = root && root[0] && strcmp(root, "/");
	if (!(d.rep = gw__calloc(1, sizeof(*d.rep))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	gw__probe_options_from_environ(&po);
	po.python_envs = opts->python_envs;
	po.npython_envs = opts->npython_envs;
	po.skip_kernel_log = opts->flags & GW_DOCTOR_NO_KERNEL_LOG;
	if ((rc = gw__probe_run(&d.p, &po)) < 0)
		goto out;
	d.rep->probe = d.p;
	gw__strlcpy(d.rep->root, d.p->root, sizeof(d.rep->root));
	read_live(&d);
	driver_facts(&d);
	gw__doctor_rules_hardware(&d);
	gw__doctor_rules_driver(&d);
	gw__doctor_rules_cuda(&d);
	gw__doctor_rules_python(&d);
	gw__doctor_rules_live(&d);
	gw__doctor_rules_environment(&d);
	if (opts->deep && (rc = gw__doctor_deep(&d)) < 0 && rc != GW_ENOMEM)
		goto out;     /* interrupted: the message is set */
	if (rc == GW_ENOMEM)
		d.oom = true;
	rc = 0;
	if (d.oom) {
		rc = gw__error_set(GW_ENOMEM, "out of memory");
		goto out;
	}
	sort_findings(d.rep);
	make_verdict(&d);
	{
		char tmp[160];

		gpu_phrase(&d, tmp, sizeof(tmp), &d.rep->nreadable);
		d.rep->ngpus = d.ndev;
	}
out:
	gw__free(d.sample);
	gw__free(d.have_sample);
	gw_context_free(d.ctx);
	if (rc < 0) {
		gw_doctor_report_free(d.rep);
		return rc;
	}
	*out = d.rep;
	return 0;
}

void gw_doctor_report_free(gw_doctor_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		gw__free((char *)r->f[i].title);
		gw__free((char *)r->f[i].evidence);
		gw__free((char *)r->f[i].fix);
	}
	gw__free(r->f);
	for (size_t i = 0; i < r->ndeep; i++) {
		gw__free((char *)r->deep[i].site);
		gw__free((char *)r->deep[i].python);
		gw__free((char *)r->deep[i].static_verdict);
		gw__free((char *)r->deep[i].output);
	}
	gw__free(r->deep);
	gw__probe_free(r->probe);
	gw__free(r);
}

size_t gw_doctor_finding_count(const gw_doctor_report *r)
{
	return r ? r->n : 0;
}

const gw_finding *gw_doctor_finding(const gw_doctor_report *r, size_t i)
{
	return r && i < r->n ? &r->f[i] : NULL;
}

size_t gw_doctor_count(const gw_doctor_report *r, gw_severity sev)
{
	size_t k = 0;

	for (size_t i = 0; r && i < r->n; i++)
		k += r->f[i].severity == sev;
	return k;
}

const char *gw_doctor_verdict(const gw_doctor_report *r)
{
	return r ? r->verdict : "";
}

size_t gw_doctor_deep_count(const gw_doctor_report *r)
{
	return r ? r->ndeep : 0;
}

const gw_doctor_deep *gw_doctor_deep_at(const gw_doctor_report *r, size_t i)
{
	return r && i < r->ndeep ? &r->deep[i] : NULL;
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_ver(gw_json *j, const char *key, const gw_ver *v)
{
	gw_json_key(j, key);
	gw_json_string(j, GW_VERSION_KNOWN(*v) ? v->text : NULL);
}

/* cuDNN or NCCL found outside the toolkits: [{"where", "version"}]. */
static void json_components(gw_json *j, const char *key, const gw_probe_component *c, size_t n)
{
	gw_json_key(j, key);
	gw_json_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		gw_json_object_begin(j);
		gw_json_key(j, "where");
		gw_json_string(j, c[i].where);
		json_ver(j, "version", &c[i].version);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

static void json_summary(gw_json *j, const gw_doctor_report *r)
{
	const gw_probe_report *p = r->probe;

	gw_json_key(j, "summary");
	gw_json_object_begin(j);
	gw_json_key(j, "errors");
	gw_json_uint(j, gw_doctor_count(r, GW_SEVERITY_ERROR));
	gw_json_key(j, "warnings");
	gw_json_uint(j, gw_doctor_count(r, GW_SEVERITY_WARNING));
	gw_json_key(j, "infos");
	gw_json_uint(j, gw_doctor_count(r, GW_SEVERITY_INFO));
	gw_json_key(j, "verdict");
	gw_json_string(j, r->verdict);
	gw_json_key(j, "ready");
	gw_json_bool(j, !strncmp(r->verdict, "ready", 5));
	gw_json_key(j, "gpus_on_pci_bus");
	gw_json_uint(j, p->ngpus);
	gw_json_key(j, "gpus_usable");
	gw_json_int(j, r->nreadable);
	gw_json_key(j, "driver_version");
	gw_json_string(j, r->driver_version[0] ? r->driver_version : NULL);
	json_ver(j, "kernel_module_version", &p->nvidia.module_version);
	gw_json_key(j, "cuda_driver_version");
	gw_json_string(j, r->cuda_driver[0] ? r->cuda_driver : NULL);
	gw_json_key(j, "cuda_toolkits");
	gw_json_array_begin(j);
	for (size_t i = 0; i < p->ntoolkits; i++) {
		const gw_probe_toolkit *t = &p->toolkits[i];

		gw_json_object_begin(j);
		gw_json_key(j, "path");
		gw_json_string(j, t->prefix);
		json_ver(j, "version", &t->version);
		gw_json_key(j, "nvcc_on_path");
		gw_json_bool(j, t->nvcc_on_path);
		gw_json_key(j, "cuda_home");
		gw_json_bool(j, t->is_cuda_home);
		json_ver(j, "cudnn", &t->cudnn);
		json_ver(j, "nccl", &t->nccl);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	json_components(j, "cudnn", p->cudnn, p->ncudnn);
	json_components(j, "nccl", p->nccl, p->nnccl);
	gw_json_key(j, "python_envs");
	gw_json_array_begin(j);
	for (size_t e = 0; e < p->nenvs; e++) {
		const gw_probe_pyenv *env = &p->envs[e];

		gw_json_object_begin(j);
		gw_json_key(j, "site");
		gw_json_string(j, env->site);
		gw_json_key(j, "origin");
		gw_json_string(j, env->origin);
		gw_json_key(j, "frameworks");
		gw_json_array_begin(j);
		for (size_t i = 0; i < env->nfw; i++) {
			const gw_probe_framework *f = &env->fw[i];
			static const char *const gpu[] = { "unknown", "none", "cuda", "rocm" };

			if (!f->primary)
				continue;
			gw_json_object_begin(j);
			gw_json_key(j, "name");
			gw_json_string(j, gw__fw_kind_name(f->kind));
			gw_json_key(j, "dist");
			gw_json_string(j, f->dist[0] ? f->dist : NULL);
			json_ver(j, "version", &f->version);
			gw_json_key(j, "gpu");
			gw_json_string(j, gpu[f->gpu]);
			json_ver(j, "cuda", &f->cuda);
			json_ver(j, "hip", &f->hip);
			gw_json_object_end(j);
		}
		gw_json_array_end(j);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	gw_json_key(j, "container");
	gw_json_string(j, p->sys.container ? p->sys.container_kind : NULL);
	gw_json_key(j, "wsl");
	gw_json_bool(j, p->sys.wsl);
	gw_json_object_end(j);
}

char *gw_doctor_report_json(const gw_doctor_report *r, int indent)
{
	gw_json *j;
	char *text = NULL;

	if (!r || !(j = gw_json_new(indent)))
		return NULL;
	gw_json_object_begin(j);
	gw_json_key(j, "gpuwise_version"); /* as every --json output of gpuwise */
	gw_json_string(j, gw_version());
	gw_json_key(j, "findings");
	gw_json_array_begin(j);
	for (size_t i = 0; i < r->n; i++) {
		const gw_finding *f = &r->f[i];

		gw_json_object_begin(j);
		gw_json_key(j, "id");
		gw_json_string(j, f->id);
		gw_json_key(j, "severity");
		gw_json_string(j, gw_severity_name(f->severity));
		gw_json_key(j, "layer");
		gw_json_string(j, f->layer);
		gw_json_key(j, "title");
		gw_json_string(j, f->title);
		gw_json_key(j, "evidence");
		gw_json_string(j, f->evidence);
		gw_json_key(j, "fix");
		gw_json_string(j, f->fix);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	json_summary(j, r);
	if (r->ndeep) {
		gw_json_key(j, "deep");
		gw_json_array_begin(j);
		for (size_t i = 0; i < r->ndeep; i++) {
			const gw_doctor_deep *x = &r->deep[i];

			gw_json_object_begin(j);
			gw_json_key(j, "site");
			gw_json_string(j, x->site);
			gw_json_key(j, "python");
			gw_json_string(j, x->python);
			gw_json_key(j, "framework");
			gw_json_string(j, x->framework);
			gw_json_key(j, "static_verdict");
			gw_json_string(j, x->static_verdict);
			gw_json_key(j, "ok");
			gw_json_bool(j, x->ok);
			gw_json_key(j, "timed_out");
			gw_json_bool(j, x->timed_out);
			gw_json_key(j, "exit_status");
			gw_json_int(j, x->exit_status);
			gw_json_key(j, "seconds");
			gw_json_double(j, x->seconds, 3);
			gw_json_key(j, "output");
			gw_json_string(j, x->output);
			gw_json_object_end(j);
		}
		gw_json_array_end(j);
	}
	gw_json_object_end(j);
	if (gw_json_text(j))
		text = gw__strdup(gw_json_text(j));
	gw_json_free(j);
	return text;
}
