/* The report: accessors, freeing and the ◆ JSON form. */
#include <string.h>

#include "core/os.h"
#include "doctor/doctor_int.h"
#include "gpuwise/language.h"

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
		gw__free((char *)r->deep[i].explained_line);
		gw__free((char *)r->deep[i].explained_fix);
		gw__free((char *)r->deep[i].not_checked);
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

bool gw_doctor_ready(const gw_doctor_report *r)
{
	return r && r->ready;
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
	gw_json_bool(j, r->ready);
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
			gw_json_key(j, "explain");
			if (x->explained) {
				gw_json_object_begin(j);
				gw_json_key(j, "id");
				gw_json_string(j, x->explained->id);
				gw_json_key(j, "title");
				gw_json_string(j, gw_translate(x->explained->title));
				gw_json_key(j, "line");
				gw_json_string(j, x->explained_line);
				gw_json_key(j, "cause");
				gw_json_string(j, gw_translate(x->explained->cause));
				gw_json_key(j, "fix");
				gw_json_string(j, x->explained_fix ? x->explained_fix : gw_translate(x->explained->fix));
				gw_json_object_end(j);
			} else {
				gw_json_null(j);
			}
			gw_json_key(j, "not_checked");
			if (x->not_checked)
				gw_json_string(j, x->not_checked);
			else
				gw_json_null(j);
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
