/* Finding construction and formatting: what every rule calls. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/os.h"
#include "doctor/doctor_int.h"
#include "gpuwise/explain.h"
#include "gpuwise/language.h"

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
	f->ok = 0;
	f->severity = sev < 0 ? severity_from_doc(id) : (gw_severity)sev;
	/* The catalogue's texts are English in the library; the report carries
	 * them in the user's language (ids and layers stay). */
	f->title = gw__strdup(title ? gw_translate(title) : doc ? gw_translate(doc->title) : id);
	f->evidence = gw__strdup(evidence ? evidence : "");
	f->fix = gw__strdup(fix ? gw_translate(fix) : doc ? gw_translate(doc->fix) : "");
	if (!f->title || !f->evidence || !f->fix) {
		gw__free((char *)f->title);
		gw__free((char *)f->evidence);
		gw__free((char *)f->fix);
		d->oom = true;
		return;
	}
	r->n++;
}

bool gw__doc_fired(const gw__doctor *d, const char *id)
{
	for (size_t i = 0; i < d->rep->n; i++)
		if (!strcmp(d->rep->f[i].id, id))
			return true;
	return false;
}

/* Error ids that say something is wrong with what an info finding found. */
static const char *const driver_errors[] = { "nvidia-driver-not-loaded", "nouveau-bound", "nvml-library-missing",
	"driver-library-mismatch", "device-node-missing", "device-permission-denied", "nvml-init-failed",
	"driver-too-old-for-framework", NULL };
static const char *const rocm_errors[] = { "amdgpu-not-loaded", "rocm-permission-denied", NULL };
static const char *const toolkit_errors[] = { "toolkit-framework-cuda-mismatch", "cudnn-version-mismatch", NULL };
static const char *const gpu_errors[] = { "no-usable-gpu", "gpu-bound-to-other-driver", "nouveau-bound",
	"nvidia-driver-not-loaded", "amdgpu-not-loaded", NULL };

static bool error_in(const gw_doctor_report *r, const char *const *ids)
{
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; r->f[i].severity == GW_SEVERITY_ERROR && ids[k]; k++)
			if (!strcmp(r->f[i].id, ids[k]))
				return true;
	return false;
}

/* An error in the python or cuda layer that names this environment: the
 * title ends with the site's path after a space, in every language
 * ("PyTorch 2.5.1 in /venv/...", "PyTorch 2.5.1，位于 /venv/..."). */
static bool error_about_site(const gw_doctor_report *r, const char *title)
{
	const char *site = NULL, *p = title;

	while ((p = strstr(p, " /")))
		site = ++p;
	if (!site)
		return false;
	for (size_t i = 0; i < r->n; i++)
		if (r->f[i].severity == GW_SEVERITY_ERROR &&
		    (strstr(r->f[i].evidence, site) || strstr(r->f[i].title, site)))
			return true;
	return false;
}

void gw__doc_settle(gw__doctor *d, int usable)
{
	gw_doctor_report *r = d->rep;

	for (size_t i = 0; i < r->n; i++) {
		gw_finding *f = &r->f[i];
		bool bad = false;

		if (f->severity != GW_SEVERITY_INFO) {
			f->ok = 0;
			continue;
		}
		if (!strcmp(f->id, "found-driver"))
			bad = error_in(r, driver_errors);
		else if (!strcmp(f->id, "found-rocm"))
			bad = error_in(r, rocm_errors);
		else if (!strcmp(f->id, "found-cuda-toolkit"))
			bad = error_in(r, toolkit_errors);
		else if (!strcmp(f->id, "found-gpus"))
			bad = !usable || error_in(r, gpu_errors);
		else if (!strcmp(f->id, "found-python-framework"))
			bad = error_about_site(r, f->title);
		if (!strcmp(f->id, "found-gpus"))
			for (size_t k = 0; k < r->n && !bad; k++)
				bad = r->f[k].severity == GW_SEVERITY_ERROR && !strcmp(r->f[k].layer, "hardware");
		f->ok = !bad;
	}
}
