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
#include "torch_releases.h"
#undef GW_GEN_TABLE_ROWS

#include "core/util.h"
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

/* Is variant ("cu126") one of the space-separated words of list? */
static bool variant_listed(const char *list, const char *variant)
{
	size_t vl = strlen(variant);

	for (const char *p = list; vl && (p = strstr(p, variant)); p += vl)
		if ((p == list || p[-1] == ' ') && (p[vl] == '\0' || p[vl] == ' '))
			return true;
	return false;
}

/* The data/torch_releases.tsv row of v's major.minor release, or NULL. */
static const gw_row_torch_releases *torch_release(const gw_ver *v)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(gw_rows_torch_releases); i++) {
		gw_ver r;

		if (gw__version_parse(gw_rows_torch_releases[i].torch, &r) == 0 && GW_VERSION_KNOWN(*v) &&
		    r.part[0] == v->part[0] && r.part[1] == v->part[1])
			return &gw_rows_torch_releases[i];
	}
	return NULL;
}

/* The trio from one index: pinned to a data/torch_releases.tsv row when
 * one is given, else torch pinned to a minor release and pip's resolver
 * left to match the others (each torchvision and torchaudio pins its
 * torch release). Never torch alone: a torch reinstalled without them
 * leaves torchvision and torchaudio of another release or build. */
static void trio_pip(char *buf, size_t n, const gw_row_torch_releases *rel, const char *torch_minor, const char *variant)
{
	if (rel)
		gw__doc_fmt(buf, n, "pip install 'torch==%s' 'torchvision==%s' 'torchaudio==%s' --index-url "
			    "https://download.pytorch.org/whl/%s", rel->torch, rel->torchvision, rel->torchaudio, variant);
	else if (torch_minor)
		gw__doc_fmt(buf, n, "pip install 'torch==%s.*' torchvision torchaudio --index-url "
			    "https://download.pytorch.org/whl/%s", torch_minor, variant);
	else
		gw__doc_fmt(buf, n, "pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/%s",
			    variant);
}

/* The newest release of the table that publishes variant and is no newer
 * than torch_max ("2.7"), or NULL. */
static const gw_row_torch_releases *newest_release_with(const char *variant, const char *torch_max)
{
	gw_ver max;

	if (gw__version_parse(torch_max, &max) < 0)
		return NULL;
	for (size_t i = 0; i < GW_ARRAY_SIZE(gw_rows_torch_releases); i++) {
		const gw_row_torch_releases *rel = &gw_rows_torch_releases[i];
		gw_ver r;

		if (gw__version_parse(rel->torch, &r) < 0 || !variant_listed(rel->variants, variant))
			continue;
		if (r.part[0] < max.part[0] || (r.part[0] == max.part[0] && r.part[1] <= max.part[1]))
			return rel;
	}
	return NULL;
}

/* "pip install 'torch==2.7.1' 'torchvision==0.22.1' 'torchaudio==2.7.1' --index-url
 * https://download.pytorch.org/whl/cu118": the newest matched trio this machine runs. */
static bool torch_pip(const gw__doctor *d, char *buf, size_t n)
{
	char variant[16], torch[16];

	if (!gw__doc_best_torch(d, variant, sizeof(variant), torch, sizeof(torch)))
		return false;
	trio_pip(buf, n, newest_release_with(variant, torch), torch, variant);
	return true;
}

#define UNINSTALL_TRIO "pip uninstall -y torch torchvision torchaudio"

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
			gw__doc_fmt(fix, sizeof(fix), "`%s && %s`", UNINSTALL_TRIO, pip);
		else if (d->namd > 0)
			gw__doc_fmt(fix, sizeof(fix), "`%s && pip install torch torchvision torchaudio --index-url "
				    "https://download.pytorch.org/whl/rocm6.4`", UNINSTALL_TRIO);
		else
			gw__doc_fmt(fix, sizeof(fix), _("Reinstall torch, torchvision and torchaudio from a CUDA index: `%s && "
				 "pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu126`"),
				    UNINSTALL_TRIO);
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
		gw__doc_cat(fix, sizeof(fix), _(", or install the newest PyTorch build this driver runs: `%s && %s`"),
			    UNINSTALL_TRIO, pip);
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
		gw__doc_fmt(fix, sizeof(fix), _("Install the newest PyTorch wheel that has this GPU's architecture: `%s && %s`."),
			    UNINSTALL_TRIO, pip);
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

/* ---- torch, torchvision and torchaudio ----------------------------------------- */

/* What a build is for: 'c' CUDA, 'r' ROCm, 'n' CPU, 0 unknown. */
static char part_kind(const char *variant, const gw_ver *cuda)
{
	if (GW_VERSION_KNOWN(*cuda) || !strncmp(variant, "cu", 2))
		return 'c';
	if (!strncmp(variant, "rocm", 4))
		return 'r';
	return !strcmp(variant, "cpu") ? 'n' : 0;
}

static char torch_kind(const gw_probe_framework *t)
{
	return t->gpu == GW_FW_GPU_CUDA ? 'c' : t->gpu == GW_FW_GPU_ROCM ? 'r' : t->gpu == GW_FW_GPU_NONE ? 'n' : 0;
}

/* Same public version ("2.5.1" and "2.5.1+cu121"), every part compared. */
static bool same_release(const char *a, const char *b)
{
	gw_ver va, vb;

	return gw__version_parse(a, &va) == 0 && gw__version_parse(b, &vb) == 0 && gw__version_cmp(&va, &vb) == 0;
}

/* Is the part of another release than torch? Appends why to ev. */
static bool part_release_differs(const gw_probe_framework *t, const gw_probe_torch_part *p, char *ev, size_t n)
{
	const gw_row_torch_releases *rel;
	const char *want;
	gw_ver w;

	if (p->torch_pin[0]) {
		if (same_release(p->torch_pin, t->version.text))
			return false;
		/* TRANSLATORS: torchvision 0.20.1 requires torch==2.5.1 (its METADATA) */
		gw__doc_cat(ev, n, _("%s%s %s requires torch==%s (its METADATA)"), ev[0] ? gw__doc_sep() : "", p->dist,
			    p->version.text, p->torch_pin);
		return true;
	}
	if (!(rel = torch_release(&t->version)) || !GW_VERSION_KNOWN(p->version))
		return false;
	want = !strcmp(p->dist, "torchvision") ? rel->torchvision : rel->torchaudio;
	if (gw__version_parse(want, &w) < 0 || (w.part[0] == p->version.part[0] && w.part[1] == p->version.part[1]))
		return false;
	/* TRANSLATORS: torchvision 0.19.1 is of another release: torch 2.5 goes with torchvision 0.20 */
	gw__doc_cat(ev, n, _("%s%s %s is of another release: torch %u.%u goes with %s %u.%u (data/torch_releases.tsv)"),
		    ev[0] ? gw__doc_sep() : "", p->dist, p->version.text, t->version.part[0], t->version.part[1], p->dist,
		    w.part[0], w.part[1]);
	return true;
}

/* 2: another kind of build or CUDA major (import fails), 1: another CUDA
 * minor or ROCm release, 0: the same or unknown. Appends why to ev. */
static int part_build_differs(const gw_probe_framework *t, const gw_probe_torch_part *p, char *ev, size_t n)
{
	char tk = torch_kind(t), pk = part_kind(p->variant, &p->cuda);
	int bad = 0;

	if (!tk || !pk)
		return 0;
	if (tk != pk)
		bad = 2;
	else if (tk == 'c' && GW_VERSION_KNOWN(t->cuda) && GW_VERSION_KNOWN(p->cuda))
		bad = t->cuda.part[0] != p->cuda.part[0] ? 2 : t->cuda.part[1] != p->cuda.part[1] ? 1 : 0;
	else if (tk == 'r' && t->variant[0] && p->variant[0])
		bad = strcmp(t->variant, p->variant) ? 1 : 0;
	if (!bad)
		return 0;
	/* TRANSLATORS: torchvision 0.20.1+cu118 is built for CUDA 11.8, torch for CUDA 12.1 */
	gw__doc_cat(ev, n, _("%s%s %s is built for %s%s, torch for %s%s"), ev[0] ? gw__doc_sep() : "", p->dist,
		    p->version.text, pk == 'c' ? "CUDA " : pk == 'r' ? "ROCm " : _("the CPU"),
		    pk == 'c' ? (GW_VERSION_KNOWN(p->cuda) ? p->cuda.text : p->variant) : pk == 'r' ? p->variant + 4 : "",
		    tk == 'c' ? "CUDA " : tk == 'r' ? "ROCm " : _("the CPU"),
		    tk == 'c' ? (GW_VERSION_KNOWN(t->cuda) ? t->cuda.text : t->variant) : tk == 'r' ? t->variant + 4 : "");
	return bad;
}

/* The index torch's own build comes from, when the release publishes it. */
static const char *torch_index(const gw_probe_framework *t, const gw_row_torch_releases *rel)
{
	if (!rel || !t->variant[0])
		return NULL;
	if (!strcmp(t->variant, "cpu") || variant_listed(rel->variants, t->variant))
		return t->variant;
	return NULL;
}

static void rule_torch_companions(gw__doctor *d, const gw_probe_pyenv *e)
{
	const gw_probe_framework *t = NULL;
	const gw_row_torch_releases *rel;
	char ev[EV] = "", fix[FIX], pip[512], name[96];
	const char *index;
	int worst = 0;

	for (size_t i = 0; i < e->nfw && !t; i++)
		if (e->fw[i].kind == GW_FW_TORCH && e->fw[i].primary && GW_VERSION_KNOWN(e->fw[i].version))
			t = &e->fw[i];
	if (!t || !e->ntorch_parts)
		return;
	for (size_t i = 0; i < e->ntorch_parts; i++) {
		int b;

		if (part_release_differs(t, &e->torch_parts[i], ev, sizeof(ev)))
			worst = 2;
		if ((b = part_build_differs(t, &e->torch_parts[i], ev, sizeof(ev))) > worst)
			worst = b;
	}
	if (!worst)
		return;
	gw__doc_fw_name(t, name, sizeof(name));
	/* TRANSLATORS: "; torch is PyTorch 2.5.1+cu121 (.../torch/version.py) in /venv/..." */
	gw__doc_cat(ev, sizeof(ev), _("; torch is %s (%s) in %s"), name, t->evidence, e->site);
	rel = torch_release(&t->version);
	if ((index = torch_index(t, rel)))
		trio_pip(pip, sizeof(pip), rel, NULL, index);
	else if (!torch_pip(d, pip, sizeof(pip)))
		trio_pip(pip, sizeof(pip), NULL, NULL, t->variant[0] ? t->variant : "cu126");
	gw__doc_fmt(fix, sizeof(fix), _("Reinstall the three together from one index, never torch alone: `%s && %s`."),
		    UNINSTALL_TRIO, pip);
	gw__doc_add(d, "torch-companion-mismatch", "python", worst == 2 ? GW_SEVERITY_ERROR : GW_SEVERITY_WARNING, NULL,
		    ev, fix);
}

static void rule_tensorflow_gpu(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	char ev[EV], fix[FIX];

	if (!f->primary || strcmp(f->dist, "tensorflow-gpu"))
		return;
	gw__doc_fmt(ev, sizeof(ev), _("tensorflow-gpu %s in %s (%s): the tensorflow-gpu name gets no new release since "
				      "December 2022; newer versions of it only fail to install"),
		    f->version.text, e->site, f->evidence);
	gw__doc_fmt(fix, sizeof(fix), _("Replace it with the tensorflow package, which has the GPU support: `pip uninstall -y "
					"tensorflow-gpu && pip install 'tensorflow[and-cuda]'` (Linux; the [and-cuda] extra "
					"brings the CUDA and cuDNN wheels it was built with)."));
	gw__doc_add(d, "tensorflow-gpu-obsolete", "python", -1, NULL, ev, fix);
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
			rule_tensorflow_gpu(d, env, &env->fw[i]);

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
		rule_torch_companions(d, env);
	}
}
