/* gpuwise doctor: the run (probes + context → rules → findings) and the
 * verdict line. Findings: finding.c; the report and its JSON: report.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "doctor/doctor_int.h"

const char *const gw_doctor_layers[] = { "hardware", "driver", "cuda", "python", "live", "environment", NULL };

/* ---- the run -------------------------------------------------------------- */

void gw__doctor_read_live(gw__doctor *d)
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

void gw__doctor_driver_facts(gw__doctor *d)
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

		if (!gw__doc_gpu_usable(d, i))
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
		gw__doc_fmt(buf, n, gw_translate("%d GPUs (%s, ...)"), k, first);
}

/* The verdict is a human text: it follows the language (gw_translate),
 * as the findings' titles do; "ready" in the JSON comes from r->ready. */
static void make_verdict(gw__doctor *d)
{
	gw_doctor_report *r = d->rep;
	size_t ne = gw_doctor_count(r, GW_SEVERITY_ERROR), nw = gw_doctor_count(r, GW_SEVERITY_WARNING);
	char gpus[160], fw[96] = "";
	int k;

	gpu_phrase(d, gpus, sizeof(gpus), &k);
	r->ready = false;
	if (ne) {
		const gw_finding *first = NULL;

		for (size_t i = 0; i < r->n && !first; i++)
			if (r->f[i].severity == GW_SEVERITY_ERROR)
				first = &r->f[i];
		if (nw)
			gw__doc_fmt(r->verdict, sizeof(r->verdict),
				    gw_translate_n("not ready: %zu error (%s: %s), and warnings",
						   "not ready: %zu errors (%s: %s), and warnings", ne),
				    ne, first->id, first->title);
		else
			gw__doc_fmt(r->verdict, sizeof(r->verdict),
				    gw_translate_n("not ready: %zu error (%s: %s)", "not ready: %zu errors (%s: %s)", ne),
				    ne, first->id, first->title);
		return;
	}
	for (size_t e = 0; e < d->p->nenvs && !fw[0]; e++)
		for (size_t i = 0; i < d->p->envs[e].nfw && !fw[0]; i++) {
			const gw_probe_framework *f = &d->p->envs[e].fw[i];

			if (f->primary && (f->gpu == GW_FW_GPU_CUDA || f->gpu == GW_FW_GPU_ROCM))
				gw__doc_fw_name(f, fw, sizeof(fw));
		}
	if (!k) {
		gw__doc_fmt(r->verdict, sizeof(r->verdict), "%s", gw_translate("not ready: no GPU can be used"));
		return;
	}
	r->ready = true;
	if (fw[0])
		gw__doc_fmt(r->verdict, sizeof(r->verdict),
			    nw ? gw_translate("ready with warnings: %s can use %s") : gw_translate("ready: %s can use %s"),
			    fw, gpus);
	else
		gw__doc_fmt(r->verdict, sizeof(r->verdict),
			    nw ? gw_translate("ready with warnings: %s usable (no GPU framework found in Python)")
			       : gw_translate("ready: %s usable (no GPU framework found in Python)"),
			    gpus);
}

/* --python-env PATH: a folder as it is; an interpreter (PREFIX/bin/python3,
 * a file named python* in a bin folder) stands for PREFIX. Anything else
 * is an error. */
static int given_env(const char *root, const char *path, char *out)
{
	char dir[GW_PROBE_PATH];
	char *s;

	if (!path)
		return gw__error_set(GW_ENOTFOUND, "python environment '%s' is not a directory", "(null)");
	if (gw__path_is_dir(root, path)) {
		gw__strlcpy(out, path, GW_PROBE_PATH);
		return 0;
	}
	gw__strlcpy(dir, path, sizeof(dir));
	if (gw__path_exists(root, path) && (s = strrchr(dir, '/')) && !strncmp(s + 1, "python", 6)) {
		*s = '\0';
		if ((s = strrchr(dir, '/')) && !strcmp(s, "/bin")) {
			*s = '\0';
			gw__strlcpy(out, dir[0] ? dir : "/", GW_PROBE_PATH);
			return 0;
		}
	}
	return gw__error_set(GW_ENOTFOUND, "python environment '%s' is not a directory", path);
}

/* A --python-env folder in which the probe found no site folder says so:
 * judging only the other environments would answer another question. */
static void given_env_found(gw__doctor *d, const char *asked, const char *prefix)
{
	char ev[GW_PROBE_PATH * 2 + 256], fix[512];
	size_t l = strlen(prefix);

	while (l > 1 && prefix[l - 1] == '/')
		l--;
	for (size_t i = 0; i < d->p->nenvs; i++) {
		const gw_probe_pyenv *e = &d->p->envs[i];

		/* The folder itself is taken as a site folder when nothing is
		 * under it: that counts when it looks like one or holds a
		 * framework. */
		if (!strcmp(e->origin, "--python-env") && !strncmp(e->site, prefix, l) &&
		    (e->site[l] == '/' || (e->site[l] == '\0' && (e->nfw || strstr(e->site, "-packages")))))
			return;
	}
	gw__doc_fmt(ev, sizeof(ev), _("--python-env %s: no lib/python3.X/site-packages (or dist-packages) in %.*s, "
				      "and it is not a site-packages folder itself; only the other environments were "
				      "judged"), asked, (int)l, prefix);
	gw__doc_fmt(fix, sizeof(fix), _("Give the environment's prefix (the folder holding bin/python3 and "
					"lib/python3.X, such as a venv's folder or $CONDA_PREFIX) or its interpreter "
					"(PREFIX/bin/python3)."));
	gw__doc_add(d, "python-env-not-found", "python", -1, NULL, ev, fix);
}

int gw_doctor_run(gw_doctor_report **out, const gw_doctor_options *opts)
{
	gw_doctor_options defaults = GW_DOCTOR_OPTIONS_INIT;
	gw_probe_options po;
	gw__doctor d;
	const char *root = gw__env_path("GPUWISE_ROOT");
	char (*envs)[GW_PROBE_PATH] = NULL;
	const char **env_ptrs = NULL;
	int rc = 0;

	if (!out)
		return gw__error_set(GW_EINVAL, "doctor run without an output");
	if (!opts)
		opts = &defaults;
	if (opts->version != GW_DOCTOR_OPTIONS_VERSION && opts->version != 1)
		return gw__error_set(GW_EINVAL, "doctor options version %u, expected %u", opts->version,
				     GW_DOCTOR_OPTIONS_VERSION);
	/* An environment asked for by name must be there: silently judging
	 * the others would answer a question that was not asked. Its
	 * interpreter (PREFIX/bin/python3) names it too. */
	if (opts->npython_envs && !(envs = gw__calloc(opts->npython_envs, sizeof(*envs))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	for (size_t i = 0; i < opts->npython_envs; i++)
		if ((rc = given_env(root && root[0] ? root : "/", opts->python_envs[i], envs[i])) < 0) {
			gw__free(envs);
			return rc;
		}
	memset(&d, 0, sizeof(d));
	d.opts = opts;
	d.cancel = opts->version >= 2 ? opts->cancel : NULL;
	d.uid = gw__getuid();
	d.fake_root = root && root[0] && strcmp(root, "/");
	if (!(d.rep = gw__calloc(1, sizeof(*d.rep))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	gw__probe_options_from_environ(&po);
	if (opts->npython_envs && !(env_ptrs = gw__calloc(opts->npython_envs, sizeof(*env_ptrs)))) {
		rc = gw__error_set(GW_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < opts->npython_envs; i++)
		env_ptrs[i] = envs[i];
	po.python_envs = env_ptrs;
	po.npython_envs = opts->npython_envs;
	po.skip_kernel_log = opts->flags & GW_DOCTOR_NO_KERNEL_LOG;
	if ((rc = gw__probe_run(&d.p, &po)) < 0)
		goto out;
	d.rep->probe = d.p;
	gw__strlcpy(d.rep->root, d.p->root, sizeof(d.rep->root));
	gw__doctor_read_live(&d);
	gw__doctor_driver_facts(&d);
	gw__doctor_rules_hardware(&d);
	gw__doctor_rules_driver(&d);
	gw__doctor_rules_cuda(&d);
	gw__doctor_rules_python(&d);
	for (size_t i = 0; i < opts->npython_envs; i++)
		given_env_found(&d, opts->python_envs[i], envs[i]);
	gw__doctor_rules_live(&d);
	gw__doctor_rules_environment(&d);
	gw__doctor_rules_dist(&d);
	gw__doctor_rules_final(&d);
	if (opts->deep && (rc = gw__doctor_deep(&d)) < 0 && rc != GW_ENOMEM)
		goto out;     /* interrupted: the message is set */
	if (rc == GW_ENOMEM)
		d.oom = true;
	rc = 0;
	if (d.oom) {
		rc = gw__error_set(GW_ENOMEM, "out of memory");
		goto out;
	}
	gw__doc_settle(&d, gw__doc_usable_gpus(&d));
	sort_findings(d.rep);
	make_verdict(&d);
	{
		char tmp[160];

		gpu_phrase(&d, tmp, sizeof(tmp), &d.rep->nreadable);
		d.rep->ngpus = d.ndev;
	}
out:
	gw__free(envs);
	gw__free(env_ptrs);
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
