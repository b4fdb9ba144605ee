/* gpuwise setup: the steps from this machine to a working GPU framework.
 *
 * The facts are doctor's (probes, the live driver: doctor.c); the choices
 * come from the data tables, each row with its source:
 *   torch          data/torch_releases.tsv (release → torchvision,
 *                  torchaudio, wheel variants) × torch_cuda_arch.tsv /
 *                  torch_rocm_arch.tsv (which GPU targets each variant holds)
 *   tensorflow     tensorflow_cuda.tsv (the CUDA a release was built with)
 *   jax, cupy,
 *   onnxruntime    setup_pip.tsv (package per CUDA major)
 *   the driver     driver_install.tsv (per distribution, from os-release)
 * A build is taken when its CUDA is at most what the driver supports
 * ("safe"), else when the driver runs it through minor-version
 * compatibility; the highest such CUDA wins, then the newest release. When
 * no build runs on the loaded driver (or none is loaded), the plan installs
 * the distribution's driver branch first and plans for that branch. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GW_GEN_TABLE_ROWS
#include "torch_releases.h"
#include "setup_pip.h"
#include "driver_install.h"
#include "tensorflow_cuda.h"
#undef GW_GEN_TABLE_ROWS

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "doctor/doctor_int.h"
#include "gpuwise/gpuwise.h"
#include "gpuwise/setup.h"

#define MAX_STEPS 16
#define MAX_CMDS  8
#define CMD_LEN   512
#define MAX_FW    8
#define MAX_GPU   GW_PROBE_MAX_GPUS

const char *const gw_setup_frameworks[] = {"torch", "tensorflow", "jax", "cupy", "onnxruntime", "paddle", NULL};

typedef struct step_buf {
	char id[32], title[256], why[1536];
	char cmd[MAX_CMDS][CMD_LEN];
	const char *cmdp[MAX_CMDS];
} step_buf;

struct gw_setup_plan {
	gw_setup_step step[MAX_STEPS];
	step_buf buf[MAX_STEPS];
	size_t nsteps;
	const char *fw[MAX_FW];
	size_t nfw;
	char verify[GW_PROBE_PATH + 64];
	const char *verifyp[1];
	gw_setup_machine m;
	gw_setup_gpu gpu[MAX_GPU];
	char gpu_name[MAX_GPU][96], gpu_arch[MAX_GPU][16];
	char os_id[32], os_like[96], os_version[32], os_name[96], driver[48], driver_cuda[16], rocm[24];
	char python[GW_PROBE_PATH + 16], python_env[GW_PROBE_PATH];
	bool possible;
	char problem[768];
};

/* One planning run. */
typedef struct plan_ctx {
	gw_setup_plan *p;
	gw__doctor *d;
	unsigned ccmaj[MAX_GPU], ccmin[MAX_GPU];
	int ncc;
	char gfx[MAX_GPU][16];
	int ngfx;
	gw_ver driver, max_cuda; /* the driver the frameworks are planned for */
	bool driver_loaded;
	const gw_probe_pyenv *env;         /* the chosen environment's probe, NULL when not found */
	const gw_row_driver_install *drow; /* how to install the driver here, NULL unknown */
	char pip[GW_PROBE_PATH + 32];
} plan_ctx;

/* ---- the plan's steps ------------------------------------------------------ */

static step_buf *add_step(plan_ctx *c, const char *id, bool root, bool pip)
{
	gw_setup_plan *p = c->p;
	gw_setup_step *s;

	if (p->nsteps == MAX_STEPS)
		return &p->buf[MAX_STEPS - 1]; /* never reached: a plan has fewer steps */
	s = &p->step[p->nsteps];
	memset(s, 0, sizeof(*s));
	s->needs_root = root;
	s->pip = pip;
	gw__strlcpy(p->buf[p->nsteps].id, id, sizeof(p->buf[0].id));
	return &p->buf[p->nsteps++];
}

static gw_setup_step *pub(plan_ctx *c, const step_buf *b)
{
	return &c->p->step[b - c->p->buf];
}

static void add_cmd(plan_ctx *c, step_buf *b, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_cmd(plan_ctx *c, step_buf *b, const char *fmt, ...)
{
	gw_setup_step *s = pub(c, b);
	va_list ap;

	if (s->ncommands == MAX_CMDS)
		return;
	va_start(ap, fmt);
	gw__vfmt(b->cmd[s->ncommands], CMD_LEN, fmt, ap);
	va_end(ap);
	s->ncommands++;
}

static void problem(plan_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(plan_ctx *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	gw__vfmt(line, sizeof(line), fmt, ap);
	va_end(ap);
	c->p->possible = false;
	gw__doc_cat(c->p->problem, sizeof(c->p->problem), "%s%s", c->p->problem[0] ? "; " : "", line);
}

/* ---- facts ----------------------------------------------------------------- */

static void read_os(plan_ctx *c)
{
	gw_setup_plan *p = c->p;
	char *text = NULL;

	if (gw__read_file(c->d->p->root, "/etc/os-release", 64 * 1024, &text, NULL) < 0 &&
	    gw__read_file(c->d->p->root, "/usr/lib/os-release", 64 * 1024, &text, NULL) < 0)
		return;
	gw__parse_os_release(text, "ID", p->os_id, sizeof(p->os_id));
	gw__parse_os_release(text, "ID_LIKE", p->os_like, sizeof(p->os_like));
	gw__parse_os_release(text, "VERSION_ID", p->os_version, sizeof(p->os_version));
	gw__parse_os_release(text, "PRETTY_NAME", p->os_name, sizeof(p->os_name));
	gw__free(text);
}

static void add_gpu(plan_ctx *c, const char *name, const char *vendor, const char *arch)
{
	gw_setup_plan *p = c->p;
	size_t i = p->m.ngpus;

	if (i == MAX_GPU)
		return;
	gw__strlcpy(p->gpu_name[i], name, sizeof(p->gpu_name[i]));
	gw__strlcpy(p->gpu_arch[i], arch, sizeof(p->gpu_arch[i]));
	p->gpu[i].name = p->gpu_name[i];
	p->gpu[i].vendor = vendor;
	p->gpu[i].arch = p->gpu_arch[i];
	p->m.ngpus++;
}

/* The NVIDIA GPUs and their compute capabilities: the live devices', else
 * the PCI id table's (a machine without a driver). */
static void read_nvidia(plan_ctx *c)
{
	const gw__doctor *d = c->d;
	char arch[16];

	for (int i = 0; i < d->ndev && c->ncc < MAX_GPU; i++) {
		const gw_device_info *di = gw_device_get(d->ctx, i);

		if (di->vendor != GW_VENDOR_NVIDIA)
			continue;
		arch[0] = '\0';
		if (gw__doc_cc(d, i, false, &c->ccmaj[c->ncc], &c->ccmin[c->ncc])) {
			gw__fmt(arch, sizeof(arch), "sm_%u%u", c->ccmaj[c->ncc], c->ccmin[c->ncc]);
			c->ncc++;
		}
		add_gpu(c, GW_VALID(di->name) ? di->name.s : "NVIDIA GPU", "nvidia", arch);
	}
	if (c->p->m.ngpus)
		return;
	for (size_t i = 0; i < d->p->ngpus && c->ncc < MAX_GPU; i++) {
		const gw_probe_pci_gpu *g = &d->p->gpus[i];

		if (g->vendor != GW_VENDOR_NVIDIA)
			continue;
		arch[0] = '\0';
		if (gw__doc_cc(d, (int)i, true, &c->ccmaj[c->ncc], &c->ccmin[c->ncc])) {
			gw__fmt(arch, sizeof(arch), "sm_%u%u", c->ccmaj[c->ncc], c->ccmin[c->ncc]);
			c->ncc++;
		}
		add_gpu(c, g->model ? g->model->name : "NVIDIA GPU", "nvidia", arch);
	}
}

static void read_amd(plan_ctx *c)
{
	const gw_probe_report *r = c->d->p;

	for (size_t i = 0; i < r->amd.nagents && c->ngfx < MAX_GPU; i++) {
		const gw_probe_amd_agent *a = &r->amd.agent[i];
		const char *name = gw__tbl_amd_gpu_name(a->device_id, -1);

		gw__strlcpy(c->gfx[c->ngfx++], a->gfx, sizeof(c->gfx[0]));
		add_gpu(c, name ? name : a->info ? a->info->name : "AMD GPU", "amd", a->gfx);
	}
	if (c->ngfx)
		return;
	for (size_t i = 0; i < r->ngpus && c->ngfx < MAX_GPU; i++)
		if (r->gpus[i].vendor == GW_VENDOR_AMD && r->gpus[i].gfx) {
			gw__strlcpy(c->gfx[c->ngfx++], r->gpus[i].gfx->gfx, sizeof(c->gfx[0]));
			add_gpu(c, r->gpus[i].gfx->name, "amd", r->gpus[i].gfx->gfx);
		}
}

/* The environment the plan installs into, and its pip. */
static void read_env(plan_ctx *c, const char *prefix)
{
	static const char *const order[] = {"--python-env", "VIRTUAL_ENV", "CONDA_PREFIX", "python3", "system", "user"};
	const gw_probe_report *r = c->d->p;
	const char *active = getenv("VIRTUAL_ENV");

	if (!active || !active[0])
		active = getenv("CONDA_PREFIX");
	if (prefix)
		gw__strlcpy(c->p->python_env, prefix, sizeof(c->p->python_env));
	else if (active && active[0])
		gw__strlcpy(c->p->python_env, active, sizeof(c->p->python_env));
	if (c->p->python_env[0])
		gw__fmt(c->p->python, sizeof(c->p->python), "%s/bin/python", c->p->python_env);
	else
		gw__strlcpy(c->p->python, "python3", sizeof(c->p->python));
	gw__fmt(c->pip, sizeof(c->pip), "%s -m pip", c->p->python);
	for (size_t o = 0; o < GW_ARRAY_SIZE(order) && !c->env; o++) {
		if (prefix && o > 0)
			break; /* a named environment only: never judge another */
		for (size_t i = 0; i < r->nenvs && !c->env; i++)
			if (r->envs[i].origin && !strcmp(r->envs[i].origin, order[o]))
				c->env = &r->envs[i];
	}
}

static const gw_probe_framework *installed(const plan_ctx *c, gw_fw_kind kind)
{
	if (!c->env)
		return NULL;
	for (size_t i = 0; i < c->env->nfw; i++)
		if (c->env->fw[i].primary && c->env->fw[i].kind == kind)
			return &c->env->fw[i];
	return NULL;
}

/* ---- the driver -------------------------------------------------------------- */

static bool os_is(const gw_setup_plan *p, const char *os)
{
	char like[sizeof(p->os_like)], *save = NULL;

	if (!strcmp(p->os_id, os))
		return true;
	gw__strlcpy(like, p->os_like, sizeof(like));
	for (char *w = strtok_r(like, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (!strcmp(w, os))
			return true;
	return false;
}

static bool version_is(const gw_setup_plan *p, const char *v)
{
	size_t n = strlen(v);

	return !strcmp(v, "*") ||
	       (!strncmp(p->os_version, v, n) && (p->os_version[n] == '\0' || p->os_version[n] == '.'));
}

/* Maxwell, Pascal and Volta need the proprietary kernel module; Blackwell
 * the open one. Returns "open", "proprietary" or NULL (either works). */
static const char *module_needed(const plan_ctx *c)
{
	for (int i = 0; i < c->ncc; i++)
		if (c->ccmaj[i] < 7 || (c->ccmaj[i] == 7 && c->ccmin[i] < 5))
			return "proprietary";
	for (int i = 0; i < c->ncc; i++)
		if (c->ccmaj[i] >= 10)
			return "open";
	return NULL;
}

static void pick_driver_row(plan_ctx *c)
{
	const char *module = module_needed(c);

	for (size_t i = 0; i < GW_ARRAY_SIZE(gw_rows_driver_install); i++) {
		const gw_row_driver_install *row = &gw_rows_driver_install[i];

		if (os_is(c->p, row->os) && version_is(c->p, row->version) &&
		    (!module || !strcmp(module, row->module))) {
			c->drow = row;
			return;
		}
	}
}

static unsigned driver_branch(const plan_ctx *c)
{
	return c->drow ? c->drow->branch : 580;
}

static void assume_driver(plan_ctx *c, unsigned branch)
{
	/* Any driver of the branch: the newest point release is what the
	 * distribution installs (a CUDA floor such as 580.65.06 holds). */
	gw__version_set(&c->driver, 3, branch, 999, 99);
	gw__fmt(c->driver.text, sizeof(c->driver.text), "%u", branch);
	memset(&c->max_cuda, 0, sizeof(c->max_cuda));
	gw__tbl_driver_max_cuda(&c->driver, &c->max_cuda);
}

static void step_driver(plan_ctx *c, bool upgrade, const char *reason)
{
	step_buf *b = add_step(c, "nvidia-driver", true, false);
	const char *module = c->drow ? c->drow->module : module_needed(c) ? module_needed(c) : "open";
	unsigned branch = driver_branch(c);
	char major[16];

	gw__strlcpy(major, c->p->os_version, sizeof(major));
	major[strcspn(major, ".")] = '\0';
	if (!strcmp(module, "open"))
		gw__fmt(b->title, sizeof(b->title),
		        upgrade ? _("Upgrade the NVIDIA driver to the %u branch (open kernel module)")
		                : _("Install the NVIDIA driver, %u branch (open kernel module)"),
		        branch);
	else
		gw__fmt(b->title, sizeof(b->title),
		        upgrade ? _("Upgrade the NVIDIA driver to the %u branch (proprietary kernel module)")
		                : _("Install the NVIDIA driver, %u branch (proprietary kernel module)"),
		        branch);
	gw__strlcpy(b->why, reason, sizeof(b->why));
	if (!strcmp(module, "open"))
		gw__doc_cat(b->why, sizeof(b->why), "%s",
		            c->ncc && module_needed(c) ? _(" Blackwell GPUs run only with the open kernel module.")
		                                       : _(" Turing and newer GPUs use the open kernel module, "
		                                           "NVIDIA's default since the 560 branch."));
	else if (module_needed(c))
		gw__doc_cat(b->why, sizeof(b->why), "%s",
		            _(" Maxwell, Pascal and Volta GPUs need the proprietary kernel module, and 580 is the last "
		              "branch that supports them."));
	if (!c->drow) {
		gw__doc_cat(b->why, sizeof(b->why),
		            _(" gpuwise does not know this distribution (/etc/os-release: %s): install "
		              "the driver with its package manager, or from https://www.nvidia.com/en-us/drivers/."),
		            c->p->os_id[0] ? c->p->os_id : _("not found"));
		return;
	}
	gw__doc_cat(b->why, sizeof(b->why), _(" Commands for %s (%s); reboot afterwards."),
	            c->p->os_name[0] ? c->p->os_name : c->p->os_id, c->drow->source);
	for (const char *s = c->drow->commands; *s;) {
		size_t n = strcspn(s, "|");
		char line[CMD_LEN], out[CMD_LEN] = "";
		const char *q;

		gw__fmt(line, sizeof(line), "%.*s", (int)n, s);
		for (const char *t = line; *t; t = q) {
			q = strstr(t, "{major}");
			if (!q) {
				gw__doc_cat(out, sizeof(out), "%s", t);
				break;
			}
			gw__doc_cat(out, sizeof(out), "%.*s%s", (int)(q - t), t, major);
			q += 7;
		}
		add_cmd(c, b, "%s", out);
		s += n;
		if (*s == '|')
			s++;
	}
}

/* ---- torch ----------------------------------------------------------------- */

typedef struct torch_pick {
	const gw_row_torch_releases *rel;
	char variant[16];
	gw_ver cuda;
	bool safe;
	const char *hsa_override; /* AMD: HSA_OVERRIDE_GFX_VERSION needed, NULL none */
	char skipped[16];         /* a newer variant of that release without this GPU's kernels */
	char missing[16];         /* the architecture it lacks */
} torch_pick;

/* Setup wants kernels built for the GPU's architecture (a cubin of its
 * major): a build that only has PTX for it (cu124's compute_90 on a
 * Blackwell GPU) JIT-compiles at start and its libraries' own kernels are
 * missing, which is why Blackwell needs cu128 or later. */
static bool runs_all(const plan_ctx *c, const gw_row_torch_cuda_arch *row, char *missing, size_t mn)
{
	for (int i = 0; i < c->ncc; i++)
		if (!gw__cuda_archs_run(row->archs, "", c->ccmaj[i], c->ccmin[i])) {
			gw__fmt(missing, mn, "sm_%u%u", c->ccmaj[i], c->ccmin[i]);
			return false;
		}
	return true;
}

/* The variant'th word of a release's variants ("cu126 cu128 ..."). */
static bool variant_at(const char *list, int k, char *out, size_t n)
{
	const char *s = list;

	for (int i = 0; *s; i++) {
		size_t len;

		s += strspn(s, " ");
		len = strcspn(s, " ");
		if (!len)
			break;
		if (i == k) {
			gw__fmt(out, n, "%.*s", (int)len, s);
			return true;
		}
		s += len;
	}
	return false;
}

static bool pick_torch_cuda(const plan_ctx *c, torch_pick *best)
{
	gw_ver best_torch = {0};
	bool found = false;

	for (size_t i = 0; i < GW_ARRAY_SIZE(gw_rows_torch_releases); i++) {
		const gw_row_torch_releases *rel = &gw_rows_torch_releases[i];
		char v[16], missing[16];
		gw_ver tv;

		if (gw__version_parse(rel->torch, &tv) < 0)
			continue;
		for (int k = 0; variant_at(rel->variants, k, v, sizeof(v)); k++) {
			const gw_row_torch_cuda_arch *arch;
			gw_ver cuda;
			bool safe = true;
			int cmp;

			if (!gw__doc_variant_cuda(v, &cuda) || !(arch = gw__tbl_torch_cuda_arch(&tv, v)))
				continue;
			if (!runs_all(c, arch, missing, sizeof(missing))) {
				if (found && best->rel == rel && gw__version_cmp(&cuda, &best->cuda) > 0 &&
				    !best->skipped[0])
					gw__fmt(best->skipped, sizeof(best->skipped), "%s", v),
					        gw__fmt(best->missing, sizeof(best->missing), "%s", missing);
				continue;
			}
			if (GW_VERSION_KNOWN(c->driver)) {
				if (!gw__tbl_driver_runs_cuda(&c->driver, &cuda))
					continue;
				safe = !GW_VERSION_KNOWN(c->max_cuda) || gw__version_cmp(&cuda, &c->max_cuda) <= 0;
			}
			if (found) {
				if (best->safe != safe) {
					if (best->safe)
						continue;
				} else if ((cmp = gw__version_cmp(&cuda, &best->cuda)) < 0 ||
				           (cmp == 0 && gw__version_cmp(&tv, &best_torch) <= 0)) {
					continue;
				}
			}
			memset(best, 0, sizeof(*best));
			best->rel = rel;
			gw__strlcpy(best->variant, v, sizeof(best->variant));
			best->cuda = cuda;
			best->safe = safe;
			best_torch = tv;
			found = true;
		}
	}
	return found;
}

static bool rocm_has(const char *variant, const char *gfx)
{
	const gw_row_torch_rocm_arch *row = gw__tbl_torch_rocm_arch(variant);

	return row && gw__gfx_in_list(row->archs, gfx);
}

/* The newest release with a ROCm variant built for every AMD GPU here
 * (with HSA_OVERRIDE_GFX_VERSION where data/amd_gfx.tsv knows one). */
static bool pick_torch_rocm(const plan_ctx *c, torch_pick *best)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < GW_ARRAY_SIZE(gw_rows_torch_releases); i++) {
			const gw_row_torch_releases *rel = &gw_rows_torch_releases[i];
			char v[16], last[16] = "";

			for (int k = 0; variant_at(rel->variants, k, v, sizeof(v)); k++) {
				bool all = !strncmp(v, "rocm", 4) && c->ngfx > 0;
				const char *ovr = NULL;

				for (int g = 0; g < c->ngfx && all; g++) {
					const gw_row_amd_gfx *info = gw__tbl_amd_gfx(c->gfx[g]);

					if (rocm_has(v, c->gfx[g]))
						continue;
					if (pass == 1 && info && info->override[0] && rocm_has(v, info->override_gfx))
						ovr = info->override;
					else
						all = false;
				}
				if (all)
					gw__strlcpy(last, v, sizeof(last));
				if (all && !ovr)
					best->hsa_override = NULL;
				else if (all)
					best->hsa_override = ovr;
			}
			if (last[0]) {
				best->rel = rel;
				gw__strlcpy(best->variant, last, sizeof(best->variant));
				return true;
			}
		}
	return false;
}

static void step_uninstall(plan_ctx *c, const char *id, const char *what, const char *found, const char *packages)
{
	step_buf *b = add_step(c, id, false, true);

	gw__fmt(b->title, sizeof(b->title), _("Uninstall %s first"), what);
	gw__fmt(b->why, sizeof(b->why),
	        _("This environment has %s; pip would keep it (a CPU-only or other CUDA build) "
	          "or mix it with the new one."),
	        found);
	add_cmd(c, b, "%s uninstall -y %s", c->pip, packages);
}

/* The environment is a conda one (its prefix holds conda-meta/). */
static bool in_conda(const plan_ctx *c)
{
	char meta[GW_PROBE_PATH + 16];

	if (!c->p->python_env[0])
		return false;
	gw__fmt(meta, sizeof(meta), "%s/conda-meta", c->p->python_env);
	return gw__path_is_dir(c->d->p->root, meta);
}

static void plan_torch(plan_ctx *c, const torch_pick *t)
{
	const gw_probe_framework *have = installed(c, GW_FW_TORCH);
	char want[64], gpus[256] = "";
	step_buf *b;

	gw__fmt(want, sizeof(want), "%s+%s", t->rel->torch, t->variant);
	if (have && strcmp(have->version.text, want)) {
		char found[96];

		gw__fmt(found, sizeof(found), "torch %s", have->version.text[0] ? have->version.text : "?");
		step_uninstall(c, "torch-uninstall", "torch, torchvision and torchaudio", found,
		               "torch torchvision torchaudio");
	}
	for (size_t i = 0; i < c->p->m.ngpus; i++)
		if (c->p->gpu[i].arch[0] && !strstr(gpus, c->p->gpu[i].arch))
			gw__doc_cat(gpus, sizeof(gpus), "%s%s", gpus[0] ? ", " : "", c->p->gpu[i].arch);
	b = add_step(c, "torch", false, true);
	gw__fmt(b->title, sizeof(b->title), _("Install PyTorch %s (%s build) with torchvision %s and torchaudio %s"),
	        t->rel->torch, t->variant, t->rel->torchvision, t->rel->torchaudio);
	if (!strncmp(t->variant, "rocm", 4))
		gw__fmt(b->why, sizeof(b->why), _("torch %s's %s build has kernels for %s."), t->rel->torch, t->variant,
		        gpus);
	else if (GW_VERSION_KNOWN(c->driver))
		gw__fmt(b->why, sizeof(b->why),
		        _("torch %s's %s build has kernels for %s and needs CUDA %s, which driver %s "
		          "runs (it supports CUDA up to %s)."),
		        t->rel->torch, t->variant, gpus[0] ? gpus : "?", t->cuda.text, c->driver.text,
		        GW_VERSION_KNOWN(c->max_cuda) ? c->max_cuda.text : "?");
	else
		gw__fmt(b->why, sizeof(b->why), _("torch %s's %s build has kernels for %s."), t->rel->torch, t->variant,
		        gpus);
	if (!t->safe && GW_VERSION_KNOWN(c->driver))
		gw__doc_cat(b->why, sizeof(b->why),
		            _(" No build of CUDA %s or older fits, so this one runs through CUDA "
		              "minor-version compatibility."),
		            c->max_cuda.text);
	if (t->skipped[0])
		gw__doc_cat(b->why, sizeof(b->why), _(" The newer %s build has no kernels for %s."), t->skipped,
		            t->missing);
	gw__doc_cat(b->why, sizeof(b->why),
	            _(" torchvision and torchaudio come from the same release and index, so "
	              "their builds match torch's. (%s)"),
	            t->rel->source);
	if (in_conda(c))
		gw__doc_cat(b->why, sizeof(b->why), "%s",
		            _(" In a conda environment too: PyTorch publishes no conda packages after 2.5, so pip installs "
		              "the wheels into the environment."));
	add_cmd(c, b,
	        "%s install torch==%s torchvision==%s torchaudio==%s --index-url https://download.pytorch.org/whl/%s",
	        c->pip, t->rel->torch, t->rel->torchvision, t->rel->torchaudio, t->variant);
	pub(c, b)->done = have && !strcmp(have->version.text, want);
	if (t->hsa_override) {
		b = add_step(c, "hsa-override", false, false);
		gw__fmt(b->title, sizeof(b->title), _("Set HSA_OVERRIDE_GFX_VERSION=%s"), t->hsa_override);
		gw__fmt(b->why, sizeof(b->why), "%s",
		        _("No PyTorch ROCm build has kernels for this GPU's gfx target; the "
		          "override makes ROCm use those of a nearby target of the same ISA family."));
		add_cmd(c, b, "export HSA_OVERRIDE_GFX_VERSION=%s", t->hsa_override);
	}
}

/* ---- TensorFlow, JAX, CuPy, ONNX Runtime ------------------------------------- */

/* The newest TensorFlow with the and-cuda extra (2.15+: CUDA from pip
 * wheels) whose CUDA this driver runs. */
static const gw_row_tensorflow_cuda *pick_tf(const plan_ctx *c)
{
	for (size_t i = GW_ARRAY_SIZE(gw_rows_tensorflow_cuda); i-- > 0;) {
		const gw_row_tensorflow_cuda *row = &gw_rows_tensorflow_cuda[i];
		gw_ver tf, cuda, floor;

		gw__version_set(&floor, 2, 2, 15, 0);
		if (gw__version_parse(row->tensorflow, &tf) < 0 || gw__version_parse(row->cuda, &cuda) < 0 ||
		    gw__version_cmp(&tf, &floor) < 0)
			continue;
		if (!GW_VERSION_KNOWN(c->driver) || gw__tbl_driver_runs_cuda(&c->driver, &cuda))
			return row;
	}
	return NULL;
}

static const gw_row_setup_pip *pick_pip(const plan_ctx *c, const char *fw)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(gw_rows_setup_pip); i++) {
		const gw_row_setup_pip *row = &gw_rows_setup_pip[i];
		gw_ver cuda;

		if (strcmp(row->framework, fw) || gw__version_parse(row->cuda, &cuda) < 0)
			continue;
		if (!GW_VERSION_KNOWN(c->driver) || gw__tbl_driver_runs_cuda(&c->driver, &cuda))
			return row;
	}
	return NULL;
}

static void plan_tf(plan_ctx *c, const gw_row_tensorflow_cuda *row)
{
	const gw_probe_framework *have = installed(c, GW_FW_TENSORFLOW);
	step_buf *b;

	if (have && (strcmp(have->dist, "tensorflow") ||
	             strncmp(have->version.text, row->tensorflow, strlen(row->tensorflow)))) {
		char found[96];

		gw__fmt(found, sizeof(found), "%s %s", have->dist[0] ? have->dist : "tensorflow", have->version.text);
		step_uninstall(c, "tensorflow-uninstall", "TensorFlow", found,
		               "tensorflow tensorflow-gpu tensorflow-cpu");
	}
	b = add_step(c, "tensorflow", false, true);
	gw__fmt(b->title, sizeof(b->title), _("Install TensorFlow %s with its CUDA wheels (and-cuda)"),
	        row->tensorflow);
	gw__fmt(b->why, sizeof(b->why),
	        _("TensorFlow %s was built and tested with CUDA %s and cuDNN %s; the and-cuda "
	          "extra installs them as pip wheels (%s). The old tensorflow-gpu package no "
	          "longer installs."),
	        row->tensorflow, row->cuda, row->cudnn, row->source);
	add_cmd(c, b, "%s install 'tensorflow[and-cuda]==%s.*'", c->pip, row->tensorflow);
	pub(c, b)->done = have && !strcmp(have->dist, "tensorflow") &&
	                  !strncmp(have->version.text, row->tensorflow, strlen(row->tensorflow)) &&
	                  have->wheels_missing == 0 && have->wheels_wrong == 0 && have->gpu == GW_FW_GPU_CUDA;
}

static void plan_pip(plan_ctx *c, const char *fw, const gw_row_setup_pip *row)
{
	const gw_probe_framework *have = !strcmp(fw, "cupy") ? installed(c, GW_FW_CUPY) : NULL;
	step_buf *b;
	char pkg[96];

	if (row->version[0])
		gw__fmt(pkg, sizeof(pkg), "%s==%s", row->package, row->version);
	else
		gw__strlcpy(pkg, row->package, sizeof(pkg));
	if (have && strcmp(have->dist, row->package)) {
		char found[96];

		gw__fmt(found, sizeof(found), "%s %s", have->dist[0] ? have->dist : "cupy", have->version.text);
		step_uninstall(c, "cupy-uninstall", "CuPy", found, have->dist[0] ? have->dist : "cupy");
	}
	b = add_step(c, fw, false, true);
	gw__fmt(b->title, sizeof(b->title), _("Install %s"), pkg);
	gw__fmt(b->why, sizeof(b->why),
	        _("%s is the build for this driver's CUDA major (it needs CUDA %s or later of it) (%s)."), row->package,
	        row->cuda, row->source);
	add_cmd(c, b, strchr(pkg, '[') ? "%s install -U '%s'" : "%s install %s", c->pip, pkg);
}

/* ---- the whole plan ------------------------------------------------------------ */

typedef struct choices {
	bool want[MAX_FW]; /* index into gw_setup_frameworks */
	torch_pick torch;
	bool torch_ok;
	const gw_row_tensorflow_cuda *tf;
	const gw_row_setup_pip *pip[MAX_FW];
} choices;

static int fw_index(const char *name)
{
	for (int i = 0; gw_setup_frameworks[i]; i++)
		if (!strcmp(gw_setup_frameworks[i], name))
			return i;
	return -1;
}

/* Can every framework asked for be planned on c->driver? */
static bool choose(const plan_ctx *c, choices *ch)
{
	bool all = true;

	for (int i = 0; gw_setup_frameworks[i]; i++) {
		const char *fw = gw_setup_frameworks[i];

		if (!ch->want[i])
			continue;
		if (!strcmp(fw, "torch"))
			all &= (ch->torch_ok = pick_torch_cuda(c, &ch->torch));
		else if (!strcmp(fw, "tensorflow"))
			all &= (ch->tf = pick_tf(c)) != NULL;
		else if (strcmp(fw, "paddle"))
			all &= (ch->pip[i] = pick_pip(c, fw)) != NULL;
	}
	return all;
}

static void step_no_toolkit(plan_ctx *c, const choices *ch)
{
	step_buf *b = add_step(c, "no-cuda-toolkit", false, false);

	gw__strlcpy(b->title, _("Not needed: a system CUDA toolkit, cuDNN, PATH or LD_LIBRARY_PATH changes"),
	            sizeof(b->title));
	gw__strlcpy(b->why,
	            _("The pip wheels bring their own CUDA runtime, cuBLAS and cuDNN; the driver is all the system "
	              "needs."),
	            sizeof(b->why));
	if (ch->torch_ok)
		gw__doc_cat(b->why, sizeof(b->why),
		            _(" Install a toolkit only to build CUDA extensions, and then CUDA %s, "
		              "the version torch was built with."),
		            ch->torch.cuda.text);
	pub(c, b)->done = true;
}

static void plan_paddle(plan_ctx *c)
{
	step_buf *b = add_step(c, "paddle", false, true);

	gw__strlcpy(b->title, _("PaddlePaddle: choose the build on paddlepaddle.org.cn"), sizeof(b->title));
	gw__strlcpy(b->why,
	            _("gpuwise has no sourced table of PaddlePaddle's GPU wheels yet: pick the CUDA version "
	              "at https://www.paddlepaddle.org.cn/install/quick that this driver runs."),
	            sizeof(b->why));
	pub(c, b)->pip = false;
}

/* Blackwell (compute capability 10.0 and later) came with CUDA 12.8 and
 * the 570 branch (CUDA 12.8 release notes): an older driver does not
 * drive it at all, whatever minor-version compatibility would allow. */
static bool blackwell_on_old_driver(const plan_ctx *c)
{
	gw_ver v128;

	gw__version_set(&v128, 2, 12, 8, 0);
	for (int i = 0; i < c->ncc; i++)
		if (c->ccmaj[i] >= 10 && GW_VERSION_KNOWN(c->max_cuda) && gw__version_cmp(&c->max_cuda, &v128) < 0)
			return true;
	return false;
}

static void plan_nvidia(plan_ctx *c, choices *ch)
{
	char reason[512];
	bool driver_step = false, upgrade = false;

	pick_driver_row(c);
	if (c->driver_loaded && blackwell_on_old_driver(c)) {
		gw__fmt(reason, sizeof(reason),
		        _("Driver %s (CUDA %s) predates Blackwell GPUs: they need the 570 branch "
		          "(CUDA 12.8) or later."),
		        c->driver.text, c->max_cuda.text);
		driver_step = upgrade = true;
	} else if (!c->driver_loaded) {
		gw__fmt(reason, sizeof(reason), "%s",
		        _("No NVIDIA driver is loaded: no framework can use the GPU without one."));
		driver_step = true;
	} else if (!choose(c, ch)) {
		choices later = *ch;
		plan_ctx tmp = *c;

		assume_driver(&tmp, driver_branch(c));
		if (gw__version_cmp(&tmp.driver, &c->driver) > 0 && choose(&tmp, &later)) {
			gw__fmt(reason, sizeof(reason),
			        _("Driver %s (CUDA %s) runs no build of what was asked for on this GPU."),
			        c->driver.text, GW_VERSION_KNOWN(c->max_cuda) ? c->max_cuda.text : "?");
			driver_step = upgrade = true;
		}
	}
	if (driver_step) {
		step_driver(c, upgrade, reason);
		assume_driver(c, driver_branch(c));
	}
	memset(&ch->torch, 0, sizeof(ch->torch));
	choose(c, ch);
	step_no_toolkit(c, ch);
	for (int i = 0; gw_setup_frameworks[i]; i++) {
		const char *fw = gw_setup_frameworks[i];

		if (!ch->want[i])
			continue;
		if (!strcmp(fw, "torch")) {
			if (ch->torch_ok)
				plan_torch(c, &ch->torch);
			else
				problem(c,
				        _("no PyTorch CUDA build in gpuwise's table has kernels for this GPU (%s) and "
				          "runs on "
				          "driver %s"),
				        c->p->m.ngpus ? c->p->gpu[0].arch : "?", c->driver.text);
		} else if (!strcmp(fw, "tensorflow")) {
			if (ch->tf)
				plan_tf(c, ch->tf);
			else
				problem(c, _("no TensorFlow release with CUDA wheels runs on driver %s"),
				        c->driver.text);
		} else if (!strcmp(fw, "paddle")) {
			plan_paddle(c);
		} else if (ch->pip[i]) {
			plan_pip(c, fw, ch->pip[i]);
		} else {
			problem(c, _("no %s build runs on driver %s"), fw, c->driver.text);
		}
	}
}

static void plan_amd(plan_ctx *c, choices *ch)
{
	const gw_probe_amd *amd = &c->d->p->amd;
	step_buf *b;

	if (!amd->amdgpu_loaded && !amd->nagents) {
		b = add_step(c, "amdgpu-driver", true, false);
		gw__strlcpy(b->title, _("Install the amdgpu driver and ROCm (amdgpu-install)"), sizeof(b->title));
		gw__strlcpy(b->why,
		            _("The amdgpu kernel driver is not loaded. Follow AMD's instructions for this "
		              "distribution: https://rocm.docs.amd.com/projects/install-on-linux/en/latest/"),
		            sizeof(b->why));
	}
	if (!amd->user_in_render || !amd->user_in_video) {
		b = add_step(c, "gpu-groups", true, false);
		gw__strlcpy(b->title, _("Add your user to the render and video groups"), sizeof(b->title));
		gw__strlcpy(b->why,
		            _("ROCm opens /dev/kfd and /dev/dri/renderD*, which belong to these groups; log out "
		              "and in afterwards."),
		            sizeof(b->why));
		add_cmd(c, b, "sudo usermod -aG render,video $USER");
	}
	for (int i = 0; gw_setup_frameworks[i]; i++) {
		if (!ch->want[i])
			continue;
		if (!strcmp(gw_setup_frameworks[i], "torch")) {
			if ((ch->torch_ok = pick_torch_rocm(c, &ch->torch)))
				plan_torch(c, &ch->torch);
			else
				problem(c, _("no PyTorch ROCm build in gpuwise's table has kernels for %s"),
				        c->ngfx ? c->gfx[0] : "?");
		} else {
			problem(c, _("gpuwise has no plan for %s on AMD GPUs"), gw_setup_frameworks[i]);
		}
	}
}

static void finish(gw_setup_plan *p, const char *prefix)
{
	for (size_t i = 0; i < p->nsteps; i++) {
		gw_setup_step *s = &p->step[i];
		step_buf *b = &p->buf[i];

		s->id = b->id;
		s->title = b->title;
		s->why = b->why;
		for (size_t k = 0; k < s->ncommands; k++)
			b->cmdp[k] = b->cmd[k];
		s->commands = b->cmdp;
	}
	if (prefix)
		gw__fmt(p->verify, sizeof(p->verify), "gpuwise doctor --deep --python-env %s", prefix);
	else
		gw__strlcpy(p->verify, "gpuwise doctor --deep", sizeof(p->verify));
	p->verifyp[0] = p->verify;
	p->m.os_id = p->os_id;
	p->m.os_version = p->os_version;
	p->m.os_name = p->os_name;
	p->m.driver = p->driver;
	p->m.driver_cuda = p->driver_cuda;
	p->m.rocm = p->rocm;
	p->m.gpus = p->gpu;
	p->m.python = p->python;
	p->m.python_env = p->python_env;
}

static void plan_verify(plan_ctx *c)
{
	step_buf *b = add_step(c, "verify", false, false);

	gw__strlcpy(b->title, _("Check that the framework runs a kernel on the GPU"), sizeof(b->title));
	gw__strlcpy(b->why,
	            _("doctor --deep imports each framework in this environment and runs a small kernel on "
	              "every GPU."),
	            sizeof(b->why));
	add_cmd(c, b, "%s", c->p->verify);
}

static const char *fw_of_kind(gw_fw_kind k)
{
	switch (k) {
	case GW_FW_TORCH: return "torch";
	case GW_FW_TENSORFLOW: return "tensorflow";
	case GW_FW_JAX: return "jax";
	case GW_FW_CUPY: return "cupy";
	default: return NULL;
	}
}

static void wanted(plan_ctx *c, const gw_setup_options *o, choices *ch)
{
	size_t n = 0;

	for (size_t i = 0; i < o->nframeworks; i++)
		ch->want[fw_index(o->frameworks[i])] = true;
	for (size_t i = 0; !o->nframeworks && c->env && i < c->env->nfw; i++) {
		const char *fw = c->env->fw[i].primary ? fw_of_kind(c->env->fw[i].kind) : NULL;

		if (fw)
			ch->want[fw_index(fw)] = true;
	}
	for (int i = 0; gw_setup_frameworks[i]; i++)
		n += ch->want[i];
	if (!n)
		ch->want[fw_index("torch")] = true;
	for (int i = 0; gw_setup_frameworks[i]; i++)
		if (ch->want[i])
			c->p->fw[c->p->nfw++] = gw_setup_frameworks[i];
}

static int run_plan(gw_setup_plan *p, const gw_setup_options *o)
{
	gw_doctor_options dopts = GW_DOCTOR_OPTIONS_INIT;
	gw_probe_options po;
	gw__doctor d;
	plan_ctx c;
	choices ch;
	int rc;

	memset(&d, 0, sizeof(d));
	memset(&c, 0, sizeof(c));
	memset(&ch, 0, sizeof(ch));
	dopts.flags = GW_DOCTOR_NO_KERNEL_LOG;
	d.opts = &dopts;
	d.uid = gw__getuid();
	if (!(d.rep = gw__calloc(1, sizeof(*d.rep))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	gw__probe_options_from_environ(&po);
	po.python_envs = o->python_env ? &o->python_env : NULL;
	po.npython_envs = o->python_env ? 1 : 0;
	po.skip_kernel_log = true;
	if ((rc = gw__probe_run(&d.p, &po)) < 0) {
		gw__free(d.rep);
		return rc;
	}
	d.rep->probe = d.p;
	gw__doctor_read_live(&d);
	gw__doctor_driver_facts(&d);
	c.p = p;
	c.d = &d;
	c.driver = d.driver;
	c.max_cuda = d.driver_max_cuda;
	c.driver_loaded = GW_VERSION_KNOWN(d.driver) && (d.p->nvidia.module_loaded || d.p->nvidia.proc_driver_present);
	if (c.driver_loaded) {
		gw__strlcpy(p->driver, d.driver.text, sizeof(p->driver));
		if (GW_VERSION_KNOWN(d.driver_max_cuda))
			gw__strlcpy(p->driver_cuda, d.driver_max_cuda.text, sizeof(p->driver_cuda));
	}
	if (GW_VERSION_KNOWN(d.p->amd.rocm))
		gw__strlcpy(p->rocm, d.p->amd.rocm.text, sizeof(p->rocm));
	read_os(&c);
	read_env(&c, o->python_env);
	wanted(&c, o, &ch);
	p->possible = true;
	if (d.nnvidia > 0) {
		read_nvidia(&c);
		plan_nvidia(&c, &ch);
	} else if (d.namd > 0) {
		read_amd(&c);
		plan_amd(&c, &ch);
	} else {
		problem(&c, "%s",
		        _("no NVIDIA or AMD GPU was found on this machine (PCI bus, driver): nothing to set up"));
	}
	finish(p, o->python_env);
	if (p->possible)
		plan_verify(&c);
	finish(p, o->python_env);
	gw__free(d.sample);
	gw__free(d.have_sample);
	gw_context_free(d.ctx);
	gw_doctor_report_free(d.rep);
	return 0;
}

int gw_setup_plan_make(gw_setup_plan **out, const gw_setup_options *opts)
{
	const char *root = gw__env_path("GPUWISE_ROOT");
	gw_setup_plan *p;
	int rc;

	if (!out || !opts || opts->version != GW_SETUP_OPTIONS_VERSION)
		return gw__error_set(GW_EINVAL, "setup options missing or of another version");
	if (opts->nframeworks > MAX_FW)
		return gw__error_set(GW_EINVAL, "too many frameworks");
	for (size_t i = 0; i < opts->nframeworks; i++)
		if (!opts->frameworks[i] || fw_index(opts->frameworks[i]) < 0)
			return gw__error_set(
			        GW_EINVAL, "unknown framework '%s' (torch, tensorflow, jax, cupy, onnxruntime, paddle)",
			        opts->frameworks[i] ? opts->frameworks[i] : "(null)");
	if (opts->python_env && !gw__path_is_dir(root && root[0] ? root : "/", opts->python_env))
		return gw__error_set(GW_ENOTFOUND, "python environment '%s' is not a directory", opts->python_env);
	if (!(p = gw__calloc(1, sizeof(*p))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	if ((rc = run_plan(p, opts)) < 0) {
		gw__free(p);
		return rc;
	}
	*out = p;
	return 0;
}

void gw_setup_plan_free(gw_setup_plan *plan)
{
	gw__free(plan);
}

bool gw_setup_plan_possible(const gw_setup_plan *p)
{
	return p && p->possible;
}
const char *gw_setup_plan_problem(const gw_setup_plan *p)
{
	return p ? p->problem : "";
}
const gw_setup_machine *gw_setup_plan_machine(const gw_setup_plan *p)
{
	return p ? &p->m : NULL;
}
size_t gw_setup_framework_count(const gw_setup_plan *p)
{
	return p ? p->nfw : 0;
}
const char *gw_setup_framework_at(const gw_setup_plan *p, size_t i)
{
	return p && i < p->nfw ? p->fw[i] : NULL;
}
size_t gw_setup_step_count(const gw_setup_plan *p)
{
	return p ? p->nsteps : 0;
}
const gw_setup_step *gw_setup_step_at(const gw_setup_plan *p, size_t i)
{
	return p && i < p->nsteps ? &p->step[i] : NULL;
}
size_t gw_setup_verify_count(const gw_setup_plan *p)
{
	return p && p->possible ? 1 : 0;
}
const char *gw_setup_verify_at(const gw_setup_plan *p, size_t i)
{
	return p && p->possible && i == 0 ? p->verify : NULL;
}

static void json_str(gw_json *j, const char *key, const char *v)
{
	gw_json_key(j, key);
	gw_json_string(j, v && v[0] ? v : NULL);
}

char *gw_setup_plan_json(const gw_setup_plan *p, int indent)
{
	gw_json *j;
	char *out;

	if (!p)
		return NULL;
	j = gw_json_new(indent);

	gw_json_object_begin(j);
	json_str(j, "gpuwise_version", GPUWISE_VERSION);
	gw_json_key(j, "machine");
	gw_json_object_begin(j);
	gw_json_key(j, "os");
	gw_json_object_begin(j);
	json_str(j, "id", p->os_id);
	json_str(j, "version_id", p->os_version);
	json_str(j, "name", p->os_name);
	gw_json_object_end(j);
	json_str(j, "driver", p->driver);
	json_str(j, "driver_cuda", p->driver_cuda);
	json_str(j, "rocm", p->rocm);
	gw_json_key(j, "gpus");
	gw_json_array_begin(j);
	for (size_t i = 0; i < p->m.ngpus; i++) {
		gw_json_object_begin(j);
		json_str(j, "name", p->gpu[i].name);
		json_str(j, "vendor", p->gpu[i].vendor);
		json_str(j, "arch", p->gpu[i].arch);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	json_str(j, "python", p->python);
	json_str(j, "python_env", p->python_env);
	gw_json_object_end(j);
	gw_json_key(j, "frameworks");
	gw_json_array_begin(j);
	for (size_t i = 0; i < p->nfw; i++)
		gw_json_string(j, p->fw[i]);
	gw_json_array_end(j);
	gw_json_key(j, "possible");
	gw_json_bool(j, p->possible);
	json_str(j, "problem", p->problem);
	gw_json_key(j, "steps");
	gw_json_array_begin(j);
	for (size_t i = 0; i < p->nsteps; i++) {
		const gw_setup_step *s = &p->step[i];

		gw_json_object_begin(j);
		json_str(j, "id", s->id);
		json_str(j, "title", s->title);
		json_str(j, "why", s->why);
		gw_json_key(j, "commands");
		gw_json_array_begin(j);
		for (size_t k = 0; k < s->ncommands; k++)
			gw_json_string(j, s->commands[k]);
		gw_json_array_end(j);
		gw_json_key(j, "needs_root");
		gw_json_bool(j, s->needs_root);
		gw_json_key(j, "done");
		gw_json_bool(j, s->done);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	gw_json_key(j, "verify");
	gw_json_array_begin(j);
	for (size_t i = 0; i < gw_setup_verify_count(p); i++)
		gw_json_string(j, gw_setup_verify_at(p, i));
	gw_json_array_end(j);
	gw_json_object_end(j);
	out = gw_json_text(j) ? gw__strdup(gw_json_text(j)) : NULL;
	gw_json_free(j);
	return out;
}
