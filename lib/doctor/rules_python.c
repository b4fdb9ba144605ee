/* Doctor rules for the Python layer: what each environment's frameworks
 * were built for against this machine's GPUs and driver. Facts come from
 * the frameworks' files (probes), never from importing them. */
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

/* The PyTorch wheel table's rows, for the "which wheel instead" fixes. */
#define GW_GEN_TABLE_ROWS
#include "torch_cuda_arch.h"
#undef GW_GEN_TABLE_ROWS

#include "doctor/rule.h"

#define EV 2048
#define FIX 1536
#define MAX_CC 32

typedef struct cc_list {
	unsigned major[MAX_CC], minor[MAX_CC];
	char what[MAX_CC][128];
	int n;
} cc_list;

/* NVIDIA GPUs' compute capabilities: NVML's, else the PCI id table's. */
static void nvidia_ccs(const gw__doctor *d, cc_list *l)
{
	l->n = 0;
	for (int i = 0; i < d->ndev && l->n < MAX_CC; i++) {
		const gw_device_info *di = gw_device_get(d->ctx, i);

		if (di->vendor == GW_VENDOR_NVIDIA && gw__doc_cc(d, i, false, &l->major[l->n], &l->minor[l->n])) {
			gw__doc_fmt(l->what[l->n], sizeof(l->what[0]), "GPU %d %s", i, GW_VALID(di->name) ? di->name.s : "");
			l->n++;
		}
	}
	if (l->n)
		return;
	for (size_t i = 0; i < d->p->ngpus && l->n < MAX_CC; i++)
		if (d->p->gpus[i].vendor == GW_VENDOR_NVIDIA && gw__doc_cc(d, (int)i, true, &l->major[l->n], &l->minor[l->n])) {
			gw__doc_fmt(l->what[l->n], sizeof(l->what[0]), "%s %s", d->p->gpus[i].bus_id, d->p->gpus[i].model->name);
			l->n++;
		}
}

static bool row_runs_all(const gw_row_torch_cuda_arch *row, const cc_list *l)
{
	for (int i = 0; i < l->n; i++)
		if (!gw__cuda_archs_run(row->archs, row->ptx, l->major[i], l->minor[i]))
			return false;
	return true;
}

bool gw__doc_best_torch(const gw__doctor *d, char *variant, size_t vn, char *torch, size_t tn)
{
	const gw_row_torch_cuda_arch *best = NULL;
	gw_ver best_cuda = { 0 }, best_torch = { 0 };
	bool best_safe = false;
	cc_list l;

	nvidia_ccs(d, &l);
	for (size_t i = 0; i < GW_ARRAY_SIZE(gw_rows_torch_cuda_arch); i++) {
		const gw_row_torch_cuda_arch *row = &gw_rows_torch_cuda_arch[i];
		gw_ver cuda, tmax;
		bool safe = true;
		int c;

		if (!gw__doc_variant_cuda(row->variant, &cuda) || gw__version_parse(row->torch_max, &tmax) < 0)
			continue;
		if (!row_runs_all(row, &l))
			continue;
		if (GW_VERSION_KNOWN(d->driver)) {
			if (!gw__tbl_driver_runs_cuda(&d->driver, &cuda))
				continue;
			/* Within the driver's own CUDA needs no minor-version compatibility. */
			safe = !GW_VERSION_KNOWN(d->driver_max_cuda) || gw__version_cmp(&cuda, &d->driver_max_cuda) <= 0;
		}
		if (best) {
			if (best_safe != safe) {
				if (best_safe)
					continue;
			} else if ((c = gw__version_cmp(&cuda, &best_cuda)) < 0 ||
				   (c == 0 && gw__version_cmp(&tmax, &best_torch) <= 0)) {
				continue;
			}
		}
		best = row;
		best_cuda = cuda;
		best_torch = tmax;
		best_safe = safe;
	}
	if (!best)
		return false;
	gw__strlcpy(variant, best->variant, vn);
	gw__strlcpy(torch, best->torch_max, tn);
	return true;
}

/* "pip install torch==2.7.* --index-url https://download.pytorch.org/whl/cu118" */
static bool torch_pip(const gw__doctor *d, char *buf, size_t n)
{
	char variant[16], torch[16];

	if (!gw__doc_best_torch(d, variant, sizeof(variant), torch, sizeof(torch)))
		return false;
	gw__doc_fmt(buf, n, "pip install 'torch==%s.*' --index-url https://download.pytorch.org/whl/%s", torch, variant);
	return true;
}

static void found_frameworks(gw__doctor *d, const gw_probe_pyenv *e)
{
	char ev[EV] = "", title[256] = "";

	for (size_t i = 0; i < e->nfw; i++) {
		const gw_probe_framework *f = &e->fw[i];
		char name[96];

		if (!f->primary)
			continue;
		gw__doc_fw_name(f, name, sizeof(name));
		gw__doc_cat(title, sizeof(title), "%s%s", title[0] ? gw__doc_comma() : "", name);
		/* TRANSLATORS: a framework's name, then what its build supports */
		gw__doc_cat(ev, sizeof(ev), _("%s%s: %s"), ev[0] ? gw__doc_sep() : "", name,
			    f->gpu == GW_FW_GPU_CUDA ? "CUDA " : f->gpu == GW_FW_GPU_ROCM ? "ROCm/HIP " :
			    f->gpu == GW_FW_GPU_NONE ? _("CPU-only build") : _("GPU support unknown"));
		if (f->gpu == GW_FW_GPU_CUDA)
			gw__doc_cat(ev, sizeof(ev), "%s", GW_VERSION_KNOWN(f->cuda) ? f->cuda.text : _("(version unknown)"));
		if (f->gpu == GW_FW_GPU_ROCM)
			gw__doc_cat(ev, sizeof(ev), "%s", GW_VERSION_KNOWN(f->hip) ? f->hip.text : f->variant);
		if (f->archs[0])
			gw__doc_cat(ev, sizeof(ev), " [%s%s%s]", f->archs, f->ptx[0] ? " " : "", f->ptx);
		if (f->evidence[0])
			/* TRANSLATORS: the file the framework's build facts come from */
			gw__doc_cat(ev, sizeof(ev), _(" (%s)"), f->evidence);
	}
	if (!title[0])
		return;
	gw__doc_cat(title, sizeof(title), _(" in %s"), e->site);
	gw__doc_cat(ev, sizeof(ev), _("; environment found via %s%s%s"), e->origin, e->python[0] ? _(", Python ") : "", e->python);
	gw__doc_add(d, "found-python-framework", "python", GW_SEVERITY_INFO, title, ev, "");
}

static void rule_cpu_only(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	char ev[EV], fix[FIX], name[96], pip[256];

	/* A build for the other vendor's GPUs (a ROCm wheel on an NVIDIA-only
	 * machine, a CUDA one on an AMD-only machine) runs on the CPU just the
	 * same: torch.cuda.is_available() is False. */
	bool other_vendor = (f->gpu == GW_FW_GPU_ROCM && d->nnvidia > 0 && d->namd <= 0) ||
			    (f->gpu == GW_FW_GPU_CUDA && d->namd > 0 && d->nnvidia <= 0);

	if (!f->primary || (f->gpu != GW_FW_GPU_NONE && !other_vendor) || (d->nnvidia <= 0 && d->namd <= 0))
		return;
	gw__doc_fw_name(f, name, sizeof(name));
	gw__doc_fmt(ev, sizeof(ev), _("%s in %s is %s (%s); this machine has %d NVIDIA and %d AMD GPU%s"), name, e->site,
		 !other_vendor ? _("a CPU-only build") : f->gpu == GW_FW_GPU_ROCM ? _("a ROCm (AMD) build, no CUDA") : _("a CUDA (NVIDIA) build, no ROCm"),
		 f->evidence[0] ? f->evidence : _("no GPU build info"), d->nnvidia, d->namd,
		 d->nnvidia + d->namd == 1 ? "" : "s");
	switch (f->kind) {
	case GW_FW_TORCH:
		if (d->nnvidia > 0 && torch_pip(d, pip, sizeof(pip)))
			gw__doc_fmt(fix, sizeof(fix), _("`pip uninstall -y torch && %s`"), pip);
		else if (d->namd > 0)
			gw__doc_fmt(fix, sizeof(fix), _("`pip uninstall -y torch && pip install torch --index-url "
				 "https://download.pytorch.org/whl/rocm6.4`"));
		else
			gw__doc_fmt(fix, sizeof(fix), _("Reinstall torch from a CUDA index: `pip install torch --index-url "
				 "https://download.pytorch.org/whl/cu126`"));
		break;
	case GW_FW_TENSORFLOW:
		gw__doc_fmt(fix, sizeof(fix), _("`pip uninstall -y %s && pip install 'tensorflow[and-cuda]'` (Linux; TF has "
			 "no native Windows GPU builds after 2.10)"), f->dist[0] ? f->dist : "tensorflow");
		break;
	case GW_FW_JAX:
		gw__doc_fmt(fix, sizeof(fix), _("`pip install -U 'jax[cuda%s]'`"),
			 GW_VERSION_KNOWN(d->driver_max_cuda) && d->driver_max_cuda.part[0] >= 13 ? "13" : "12");
		break;
	default:
		gw__doc_fmt(fix, sizeof(fix), _("Reinstall %s with GPU support for this machine's CUDA or ROCm."), name);
	}
	gw__doc_add(d, "framework-cpu-only-build", "python", -1, NULL, ev, fix);
}

static void rule_driver_too_old(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	const gw_row_cuda_toolkit_driver *tk;
	gw_ver floor = { 0 };
	char ev[EV], fix[FIX], name[96], title[256], pip[256];

	if (!f->primary || f->gpu != GW_FW_GPU_CUDA || !GW_VERSION_KNOWN(f->cuda) || !GW_VERSION_KNOWN(d->driver))
		return;
	if (gw__tbl_driver_runs_cuda(&d->driver, &f->cuda))
		return;
	gw__doc_fw_name(f, name, sizeof(name));
	gw__tbl_cuda_min_driver(&f->cuda, &floor);
	tk = gw__tbl_toolkit_driver(&f->cuda);
	gw__doc_fmt(title, sizeof(title), _("%s needs CUDA %s; NVIDIA driver %s runs CUDA up to %s"), name, f->cuda.text,
		 d->driver.text, GW_VERSION_KNOWN(d->driver_max_cuda) ? d->driver_max_cuda.text : "?");
	gw__doc_fmt(ev, sizeof(ev), _("%s in %s built for CUDA %s (%s); driver %s"), name, e->site, f->cuda.text,
		 f->evidence, d->driver.text);
	if (GW_VERSION_KNOWN(floor))
		gw__doc_cat(ev, sizeof(ev), _("; CUDA %u.x needs driver >= %s"), f->cuda.part[0], floor.text);
	gw__doc_fmt(fix, sizeof(fix), _("Either upgrade the driver to %s or newer"), GW_VERSION_KNOWN(floor) ? floor.text : _("a newer release"));
	if (tk)
		gw__doc_cat(fix, sizeof(fix), _(" (the CUDA %s toolkit's own driver is >= %s)"), tk->toolkit, tk->min_driver);
	if (f->kind == GW_FW_TORCH && torch_pip(d, pip, sizeof(pip)))
		gw__doc_cat(fix, sizeof(fix), _(", or install the newest PyTorch build this driver runs: `%s`"), pip);
	else
		gw__doc_cat(fix, sizeof(fix), _(", or install a %s build for CUDA %s or older"), name,
			    GW_VERSION_KNOWN(d->driver_max_cuda) ? d->driver_max_cuda.text : "?");
	gw__doc_cat(fix, sizeof(fix), _("."));
	gw__doc_add(d, "driver-too-old-for-framework", "python", -1, title, ev, fix);
}

static void rule_arch(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	cc_list l;
	char ev[EV] = "", fix[FIX], name[96], pip[256];

	if (!f->primary || f->gpu != GW_FW_GPU_CUDA || !f->archs[0])
		return;
	nvidia_ccs(d, &l);
	for (int i = 0; i < l.n; i++)
		if (!gw__cuda_archs_run(f->archs, f->ptx, l.major[i], l.minor[i]))
			gw__doc_cat(ev, sizeof(ev), _("%s%s is sm_%u%u"), ev[0] ? gw__doc_sep() : "", l.what[i], l.major[i], l.minor[i]);
	if (!ev[0])
		return;
	gw__doc_fw_name(f, name, sizeof(name));
	gw__doc_cat(ev, sizeof(ev), _("; %s in %s carries %s%s%s (from the %s)"), name, e->site, f->archs, f->ptx[0] ? " + PTX " : "",
		    f->ptx, f->arch_source ? f->arch_source : "build");
	if (f->kind == GW_FW_TORCH && torch_pip(d, pip, sizeof(pip)))
		gw__doc_fmt(fix, sizeof(fix), _("Install the newest PyTorch wheel that has this GPU's architecture: `pip uninstall -y "
			 "torch && %s`."), pip);
	else if (f->kind == GW_FW_TORCH)
		gw__doc_fmt(fix, sizeof(fix), _("No PyTorch wheel in gpuwise's table has this architecture for this driver; "
			 "upgrade the driver or build PyTorch from source with TORCH_CUDA_ARCH_LIST set."));
	else
		gw__doc_fmt(fix, sizeof(fix), _("Install a %s build compiled for this GPU's compute capability, or build it "
			 "from source for it."), name);
	gw__doc_add(d, "gpu-arch-unsupported-by-framework", "python", -1, NULL, ev, fix);
}

static void rule_rocm_gfx(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	const gw_probe_amd *a = &d->p->amd;

	if (!f->primary || f->gpu != GW_FW_GPU_ROCM || !f->archs[0])
		return;
	for (size_t i = 0; i < a->nagents; i++) {
		const gw_probe_amd_agent *g = &a->agent[i];
		const char *over = g->info && g->info->override[0] ? g->info->override : NULL;
		const char *over_gfx = over ? g->info->override_gfx : NULL;
		char ev[EV], fix[FIX], name[96];

		if (!g->gfx[0] || gw__gfx_in_list(f->archs, g->gfx))
			continue;
		/* An override already set to a target the build has: it runs. */
		if (a->hsa_override_gfx[0] && gw__gfx_in_list(f->archs, a->hsa_override_gfx))
			continue;
		gw__doc_fw_name(f, name, sizeof(name));
		gw__doc_fmt(ev, sizeof(ev), _("KFD node %u is %s%s%s; %s in %s has %s"), g->node, g->gfx, g->info ? " " : "",
			 g->info ? g->info->name : "", name, e->site, f->archs);
		if (a->hsa_override[0])
			gw__doc_cat(ev, sizeof(ev), _("; HSA_OVERRIDE_GFX_VERSION=%s (reports %s, not in the build)"), a->hsa_override,
				    a->hsa_override_gfx);
		if (over && gw__gfx_in_list(f->archs, over_gfx)) {
			gw__doc_cat(ev, sizeof(ev), _("; HSA_OVERRIDE_GFX_VERSION=%s would help (%s is in the build)"), over, over_gfx);
			gw__doc_fmt(fix, sizeof(fix), _("`export HSA_OVERRIDE_GFX_VERSION=%s` before starting Python (the runtime then "
				 "treats the GPU as %s, same ISA family); or install a ROCm build that lists %s."), over, over_gfx, g->gfx);
		} else {
			gw__doc_cat(ev, sizeof(ev), _("; no HSA_OVERRIDE_GFX_VERSION value is known to help"));
			gw__doc_fmt(fix, sizeof(fix), _("Install a PyTorch ROCm build that lists %s (see "
				 "https://pytorch.org/get-started/locally/), or build PyTorch with PYTORCH_ROCM_ARCH=%s."), g->gfx, g->gfx);
		}
		gw__doc_add(d, "rocm-gfx-unsupported", "python", -1, NULL, ev, fix);
	}
}

/* The CUDA major a missing wheel is for: its pin (">=13.0.48"), else its
 * "-cu12" suffix, else the framework's own name ("jax-cuda13-plugin"); 0 = unknown. */
static unsigned wheel_cuda_major(const gw_probe_framework *f, const gw_probe_fw_wheel *w)
{
	const char *s = w->spec, *cu = strstr(w->dist, "-cu"), *fw = strstr(f->dist, "cuda");

	while (*s && !isdigit((unsigned char)*s))
		s++;
	if (*s)
		return (unsigned)strtoul(s, NULL, 10);
	if (cu && isdigit((unsigned char)cu[3]))
		return (unsigned)strtoul(cu + 3, NULL, 10);
	return fw && isdigit((unsigned char)fw[4]) ? (unsigned)strtoul(fw + 4, NULL, 10) : 0;
}

/* JAX's CUDA plugin lists nvidia-cuda-nvcc and nvidia-nvvm for ptxas and
 * libdevice, which XLA also takes from a CUDA toolkit on the machine (PATH,
 * /usr/local/cuda: JAX's "cuda13-local" install). A toolkit of the same
 * major with nvcc, where XLA looks, therefore stands in for those two wheels: a working H200
 * machine (JAX ran there) was called "not ready" without this
 * (docs/hardware/2026-12-04-h200/smoke.txt). The toolkit, or NULL. */
static const gw_probe_toolkit *toolkit_standing_in(const gw__doctor *d, const gw_probe_framework *f,
						   const gw_probe_fw_wheel *w)
{
	unsigned major;

	if (f->kind != GW_FW_JAX || w->have[0] ||
	    (strncmp(w->dist, "nvidia-cuda-nvcc", 16) && strncmp(w->dist, "nvidia-nvvm", 11)))
		return NULL;
	if (!(major = wheel_cuda_major(f, w)))
		return NULL;
	for (size_t i = 0; i < d->p->ntoolkits; i++) {
		const gw_probe_toolkit *t = &d->p->toolkits[i];

		/* where XLA looks: ptxas on PATH, CUDA_HOME-style settings, /usr/local/cuda */
		bool found = t->nvcc_on_path || t->is_cuda_home || !strncmp(t->prefix, "/usr/local/cuda", 15);

		if (t->has_nvcc && found && GW_VERSION_KNOWN(t->version) && t->version.part[0] == major)
			return t;
	}
	return NULL;
}

/* "nvidia-cublas-cu12==12.4.5.8" for the evidence, "'nvidia-cublas-cu12==12.4.5.8'" for pip;
 * the wheels a toolkit stands in for are left out and counted in *covered. */
static void wheel_lists(const gw__doctor *d, const gw_probe_framework *f, char *missing, char *wrong, char *pip,
			size_t n, unsigned *covered, const gw_probe_toolkit **by)
{
	*covered = 0;
	for (size_t i = 0; i < f->nwheels_bad; i++) {
		const gw_probe_fw_wheel *w = &f->wheels_bad[i];
		const gw_probe_toolkit *t = toolkit_standing_in(d, f, w);

		if (t) {
			++*covered, *by = t;
			continue;
		}
		if (w->have[0])
			gw__doc_cat(wrong, n, _("%s%s %s (needs %s)"), wrong[0] ? gw__doc_comma() : "", w->dist, w->have,
				    w->spec[0] ? w->spec : _("any version"));
		else
			gw__doc_cat(missing, n, "%s%s%s", missing[0] ? gw__doc_comma() : "", w->dist, w->spec);
		gw__doc_cat(pip, n, " '%s%s'", w->dist, w->spec);
	}
}

static void rule_cuda_wheels(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	char ev[EV], fix[FIX], name[96], title[256], missing[FIX] = "", wrong[FIX] = "", pip[FIX] = "";
	const gw_probe_toolkit *by = NULL;
	unsigned covered, n_missing, bad;

	if (!f->nwheels_bad)
		return;
	if (!f->primary && f->dist[0])   /* a companion (jax-cuda12-plugin): its own name */
		gw__doc_fmt(name, sizeof(name), "%s %s", f->dist, f->version.text);
	else
		gw__doc_fw_name(f, name, sizeof(name));
	wheel_lists(d, f, missing, wrong, pip, sizeof(missing), &covered, &by);
	n_missing = f->wheels_missing - covered;
	bad = n_missing + f->wheels_wrong;
	if (!bad)
		return;
	if (n_missing == f->wheels_required)
		gw__doc_fmt(title, sizeof(title), _("%s lacks all %u CUDA wheels it loads"), name, n_missing);
	else if (n_missing)
		gw__doc_fmt(title, sizeof(title), _("%s lacks %u of the %u CUDA wheels it loads"), name, n_missing,
			    f->wheels_required);
	else
		gw__doc_fmt(title, sizeof(title), _("%s finds %u of its CUDA wheels in another version than it requires"), name,
			    f->wheels_wrong);
	gw__doc_fmt(ev, sizeof(ev), _("%s in %s requires %u CUDA wheel%s here (%s"), name, e->site, f->wheels_required,
		    f->wheels_required == 1 ? "" : "s", f->metadata);
	if (f->wheels_extra[0])
		gw__doc_cat(ev, sizeof(ev), _("; its [%s] extra counts: some of that extra's wheels are installed"),
			    f->wheels_extra);
	/* TRANSLATORS: closes the parenthesis opened by "... CUDA wheels here (%s" */
	gw__doc_cat(ev, sizeof(ev), _(")"));
	if (missing[0])
		gw__doc_cat(ev, sizeof(ev), _("; not installed: %s"), missing);
	if (wrong[0])
		gw__doc_cat(ev, sizeof(ev), _("; another version installed: %s"), wrong);
	if (by)
		gw__doc_cat(ev, sizeof(ev), _("; ptxas and libdevice (nvidia-cuda-nvcc, nvidia-nvvm) come from CUDA %s at %s"),
			    by->version.text, by->prefix);
	if (bad + covered > f->nwheels_bad)
		gw__doc_cat(ev, sizeof(ev), _("; and %u more (see the METADATA)"), bad + covered - (unsigned)f->nwheels_bad);
	gw__doc_fmt(fix, sizeof(fix), _("Install the versions it requires into that environment: `pip install%s`"), pip);
	if (f->wheels_extra[0] && f->dist[0])
		gw__doc_cat(fix, sizeof(fix), _(", or reinstall it with the extra: `pip install '%s[%s]==%s'`"), f->dist,
			    f->wheels_extra, f->version.text);
	if (f->kind == GW_FW_TORCH && n_missing)
		gw__doc_cat(fix, sizeof(fix), _(" (until then `import torch` fails with \"libcublas.so.*[0-9] not found in the "
			    "system path\" or a missing libcu*.so)"));
	gw__doc_cat(fix, sizeof(fix), _("."));
	gw__doc_add(d, "framework-cuda-wheels-missing", "python",
		    n_missing ? GW_SEVERITY_ERROR : GW_SEVERITY_WARNING, title, ev, fix);
}

static void rule_multiple_packages(gw__doctor *d, const gw_probe_pyenv *e)
{
	for (int k = 0; k < GW_FW_KIND_COUNT; k++) {
		char ev[EV] = "", fix[FIX] = "";
		int n = 0;

		for (size_t i = 0; i < e->nfw; i++) {
			const gw_probe_framework *f = &e->fw[i];
			bool dup = false;

			if (!f->primary || (int)f->kind != k || !f->dist[0])
				continue;
			for (size_t j = 0; j < i; j++)
				dup |= e->fw[j].primary && !strcmp(e->fw[j].dist, f->dist);
			if (dup)
				continue;
			gw__doc_cat(ev, sizeof(ev), "%s%s %s", n ? gw__doc_comma() : "", f->dist, f->version.text);
			gw__doc_cat(fix, sizeof(fix), " %s", f->dist);
			n++;
		}
		if (n < 2)
			continue;
		gw__doc_cat(ev, sizeof(ev), _(" installed side by side in %s (they share one package folder)"), e->site);
		{
			char f2[FIX];

			gw__doc_fmt(f2, sizeof(f2), _("Uninstall all of them and install one: `pip uninstall -y%s` then the one build "
				 "you need."), fix);
			gw__doc_add(d, "multiple-framework-packages", "python", -1, NULL, ev, f2);
		}
	}
}

void gw__doctor_rules_python(gw__doctor *d)
{
	for (size_t e = 0; e < d->p->nenvs; e++) {
		const gw_probe_pyenv *env = &d->p->envs[e];

		found_frameworks(d, env);
		for (size_t i = 0; i < env->nfw; i++) {
			bool seen = false;

			/* Each dist has its own METADATA: judged one by one. */
			rule_cuda_wheels(d, env, &env->fw[i]);

			/* Several dists of one module (torch + torch-cpu) share its
			 * files: judge the module once. */
			for (size_t j = 0; j < i; j++)
				seen |= env->fw[j].primary && env->fw[j].kind == env->fw[i].kind;
			if (seen)
				continue;
			rule_cpu_only(d, env, &env->fw[i]);
			rule_driver_too_old(d, env, &env->fw[i]);
			rule_arch(d, env, &env->fw[i]);
			rule_rocm_gfx(d, env, &env->fw[i]);
		}
		rule_multiple_packages(d, env);
	}
}
