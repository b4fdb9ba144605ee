/* Doctor rules for the CUDA layer: toolkits, CUDA_VISIBLE_DEVICES and
 * CUDA_DEVICE_ORDER, MIG selection, cuDNN, LD_LIBRARY_PATH and nvcc
 * against the frameworks' own CUDA. One function per finding id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/error.h"
#include "doctor/rule.h"

#define EV 2048
#define FIX 1024

static void found_toolkit(gw__doctor *d)
{
	const gw_probe_report *p = d->p;
	char ev[EV] = "", title[256] = "";

	if (!p->ntoolkits && !p->ncudnn && !p->nnccl)
		return;
	for (size_t i = 0; i < p->ntoolkits; i++) {
		const gw_probe_toolkit *t = &p->toolkits[i];

		gw__doc_cat(ev, sizeof(ev), _("%sCUDA %s at %s%s%s%s"), ev[0] ? gw__doc_sep() : "",
			    GW_VERSION_KNOWN(t->version) ? t->version.text : _("(version unknown)"), t->prefix,
			    t->nvcc_on_path ? _(" (nvcc on PATH)") : t->has_nvcc ? _(" (has nvcc)") : "",
			    t->is_cuda_home ? " (CUDA_HOME)" : "", "");
		if (GW_VERSION_KNOWN(t->cudnn))
			gw__doc_cat(ev, sizeof(ev), "%scuDNN %s", gw__doc_comma(), t->cudnn.text);
		if (GW_VERSION_KNOWN(t->nccl))
			gw__doc_cat(ev, sizeof(ev), "%sNCCL %s", gw__doc_comma(), t->nccl.text);
	}
	for (size_t i = 0; i < p->ncudnn; i++)
		gw__doc_cat(ev, sizeof(ev), _("%scuDNN %s (at %s)"), ev[0] ? gw__doc_sep() : "", p->cudnn[i].version.text, p->cudnn[i].where);
	for (size_t i = 0; i < p->nnccl; i++)
		gw__doc_cat(ev, sizeof(ev), _("%sNCCL %s (at %s)"), ev[0] ? gw__doc_sep() : "", p->nccl[i].version.text, p->nccl[i].where);
	{
		int k = p->nvcc_toolkit >= 0 ? p->nvcc_toolkit : p->cuda_home_toolkit >= 0 ? p->cuda_home_toolkit : 0;
		const gw_probe_toolkit *t = p->ntoolkits ? &p->toolkits[k] : NULL;
		char cudnn[64] = "", nccl[64] = "";

		if (t && GW_VERSION_KNOWN(t->cudnn))
			gw__doc_fmt(cudnn, sizeof(cudnn), "%scuDNN %s", gw__doc_comma(), t->cudnn.text);
		if (t && GW_VERSION_KNOWN(t->nccl))
			gw__doc_fmt(nccl, sizeof(nccl), "%sNCCL %s", gw__doc_comma(), t->nccl.text);
		if (t)
			gw__doc_fmt(title, sizeof(title), _("CUDA toolkit %s%s%s"), GW_VERSION_KNOWN(t->version) ? t->version.text : "?",
				    cudnn, nccl);
		else
			gw__doc_fmt(title, sizeof(title), _("CUDA libraries outside a toolkit"));
		if (p->ntoolkits > 1)
			gw__doc_cat(title, sizeof(title), _(" (%zu toolkits)"), p->ntoolkits);
	}
	gw__doc_add(d, "found-cuda-toolkit", "cuda", GW_SEVERITY_INFO, title, ev, "");
}

/* ---- CUDA_VISIBLE_DEVICES ------------------------------------------------------ */

static bool uuid_matches(const gw__doctor *d, const char *entry, bool *known)
{
	size_t el = strlen(entry);

	for (int i = 0; i < d->ndev; i++) {
		const gw_device_info *di = gw_device_get(d->ctx, i);

		if (di->vendor != GW_VENDOR_NVIDIA)
			continue;
		if (GW_VALID(di->uuid)) {
			*known = true;
			if (!strncmp(di->uuid.s, entry, el))
				return true;
		}
		for (int m = 0; d->have_sample && d->have_sample[i] && m < d->sample[i].mig_count; m++)
			if (GW_VALID(d->sample[i].mig[m].uuid) && !strncmp(d->sample[i].mig[m].uuid.s, entry, el))
				return true;
	}
	return false;
}

/* How many entries select a device; *bad gets the first that does not
 * (CUDA stops there). known: whether entries could be judged at all. */
static int cvd_select(const gw__doctor *d, const char *cvd, char *bad, size_t badn)
{
	char buf[512];
	int selected = 0;

	bad[0] = '\0';
	gw__strlcpy(buf, cvd, sizeof(buf));
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool ok, known = false;

		while (*tok == ' ')
			tok++;
		for (char *e = tok + strlen(tok); e > tok && e[-1] == ' ';)
			*--e = '\0';
		if (tok[0] && strspn(tok, "0123456789") == strlen(tok))
			ok = strlen(tok) < 6 && atoi(tok) < d->nnvidia;
		else if (!strncmp(tok, "GPU-", 4) || !strncmp(tok, "MIG-", 4)) {
			ok = uuid_matches(d, tok, &known);
			if (!ok && !known)
				ok = true;   /* no UUIDs to compare with: cannot judge */
		} else
			ok = false;
		if (!ok) {
			gw__strlcpy(bad, tok, badn);
			break;
		}
		selected++;
	}
	return selected;
}

static void rules_cvd(gw__doctor *d)
{
	const char *cvd = d->p->cuda_visible_devices;
	char bad[128], ev[EV];
	int n;

	if (!cvd || d->nnvidia <= 0)
		return;
	n = cvd_select(d, cvd, bad, sizeof(bad));
	gw__doc_fmt(ev, sizeof(ev), _("CUDA_VISIBLE_DEVICES=\"%s\"; %d NVIDIA GPU%s here (CUDA indices 0..%d)"), cvd,
		 d->nnvidia, d->nnvidia == 1 ? "" : "s", d->nnvidia - 1);
	if (n == 0)
		gw__doc_add(d, "cuda-visible-devices-hides-all", "cuda", -1, NULL, ev,
			    d->nnvidia == 1 ? N_("Use `CUDA_VISIBLE_DEVICES=0` (this machine has one GPU), or unset it: "
					      "`unset CUDA_VISIBLE_DEVICES`.")
					    : N_("Pick GPUs that exist (`gpuwise list` shows their CUDA indices and UUIDs), or "
					      "`unset CUDA_VISIBLE_DEVICES`."));
	if (bad[0]) {
		char ev2[EV], title[256];

		gw__doc_fmt(ev2, sizeof(ev2), _("%s; entry \"%s\" matches no device%s"), ev, bad,
			 n ? _(" and hides the entries after it") : "");
		gw__doc_fmt(title, sizeof(title), _("CUDA_VISIBLE_DEVICES entry \"%s\" matches no GPU"), bad);
		gw__doc_add(d, "cuda-visible-devices-invalid", "cuda", -1, title, ev2,
			    "Use indices below the GPU count or full `GPU-`/`MIG-` UUIDs from `gpuwise list`; CUDA "
			    "ignores everything after the first bad entry.");
	}
}

static void rule_device_order(gw__doctor *d)
{
	const char *order = d->p->cuda_device_order;
	char ev[EV] = "";
	bool differs = false, names_differ = false, any_cuda = false;
	const char *first = NULL;
	int nv = 0;

	if (order && !strcmp(order, "PCI_BUS_ID"))
		return;
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_info *di = gw_device_get(d->ctx, i);

		if (di->vendor != GW_VENDOR_NVIDIA || di->nvml_index < 0 || di->health != GW_HEALTH_OK)
			continue;
		nv++;
		if (GW_VALID(di->name)) {
			if (first && strcmp(first, di->name.s))
				names_differ = true;
			first = first ? first : di->name.s;
		}
		if (di->cuda_index >= 0 && di->cuda_index != di->nvml_index)
			differs = true;
		any_cuda |= di->cuda_index >= 0;
		gw__doc_cat(ev, sizeof(ev), "%snvidia-smi %d = CUDA %d (%s)", ev[0] ? gw__doc_sep() : "", di->nvml_index,
			    di->cuda_index, GW_VALID(di->name) ? di->name.s : "?");
	}
	if (nv < 2)
		return;
	/* Identical GPUs tie and keep PCI order; with CUDA_VISIBLE_DEVICES set
	 * CUDA renumbers anyway, so then the models differing is the test. */
	if (!names_differ || (!d->p->cuda_visible_devices && any_cuda && !differs))
		return;
	gw__doc_cat(ev, sizeof(ev), "%sCUDA_DEVICE_ORDER=%s", gw__doc_sep(), order ? order : _("(unset: FASTEST_FIRST)"));
	gw__doc_add(d, "cuda-device-order-differs", "cuda", -1, NULL, ev,
		    "`export CUDA_DEVICE_ORDER=PCI_BUS_ID` (in your shell profile or job script) so CUDA numbers GPUs "
		    "like nvidia-smi does.");
}

static void rule_mig_selection(gw__doctor *d)
{
	const char *cvd = d->p->cuda_visible_devices;
	char ev[EV] = "";

	if (!d->have_sample || (cvd && strstr(cvd, "MIG-")))
		return;
	for (int i = 0; i < d->ndev; i++) {
		const gw_device_sample *s = &d->sample[i];

		if (!d->have_sample[i] || !GW_VALID(s->mig_current) || s->mig_current.v != 1)
			continue;
		gw__doc_cat(ev, sizeof(ev), _("%sGPU %d has MIG on with %d instance%s"), ev[0] ? gw__doc_sep() : "", i, s->mig_count,
			    s->mig_count == 1 ? "" : "s");
		if (s->mig_count > 0 && GW_VALID(s->mig[0].uuid))
			gw__doc_cat(ev, sizeof(ev), _(" (first %s)"), s->mig[0].uuid.s);
	}
	if (!ev[0])
		return;
	gw__doc_cat(ev, sizeof(ev), "%sCUDA_VISIBLE_DEVICES %s%s%s", gw__doc_sep(), cvd ? "= \"" : _("unset"), cvd ? cvd : "", cvd ? "\"" : "");
	gw__doc_add(d, "mig-without-device-selection", "cuda", -1, NULL, ev,
		    "Select one MIG instance: `export CUDA_VISIBLE_DEVICES=MIG-<uuid>` (from `nvidia-smi -L` or "
		    "`gpuwise list`); a process uses one MIG instance.");
}

/* ---- frameworks against the CUDA libraries ------------------------------------- */

static const gw_probe_pywheel *env_wheel(const gw_probe_pyenv *e, gw_cudalib lib)
{
	for (size_t i = 0; i < e->nwheels; i++)
		if (e->wheels[i].has[lib])
			return &e->wheels[i];
	return NULL;
}

/* The newest system cuDNN (toolkits, headers, LD_LIBRARY_PATH). */
static bool system_cudnn(const gw__doctor *d, gw_ver *v, char *where, size_t wn)
{
	const gw_probe_report *p = d->p;
	bool found = false;

	for (size_t i = 0; i < p->ntoolkits; i++)
		if (GW_VERSION_KNOWN(p->toolkits[i].cudnn) && (!found || gw__version_cmp(&p->toolkits[i].cudnn, v) > 0)) {
			*v = p->toolkits[i].cudnn;
			gw__doc_fmt(where, wn, "%s/include", p->toolkits[i].prefix);
			found = true;
		}
	for (size_t i = 0; i < p->ncudnn; i++)
		if (!found || gw__version_cmp(&p->cudnn[i].version, v) > 0) {
			*v = p->cudnn[i].version;
			gw__strlcpy(where, p->cudnn[i].where, wn);
			found = true;
		}
	for (size_t i = 0; i < p->nldpath; i++)
		if (p->ldpath[i].has[GW_CUDALIB_CUDNN] && !found) {
			*v = p->ldpath[i].version[GW_CUDALIB_CUDNN];
			gw__strlcpy(where, p->ldpath[i].dir, wn);
			found = true;
		}
	return found;
}

/* The cuDNN wheel a framework loads: nvidia-cudnn-cu<its CUDA major>, at
 * least the cuDNN it was built with, below the next cuDNN major (pip would
 * otherwise take the newest, cuDNN 9 for a cuDNN 8 build). A build record
 * that names the major alone (TensorFlow's "8") takes the minor of the
 * release's tested configuration (data/tensorflow_cuda.tsv). False when no
 * wheel exists for that CUDA (before CUDA 11). */
static bool cudnn_pip(const gw_probe_framework *f, char *buf, size_t n)
{
	gw_ver floor = f->cudnn;
	unsigned cu;

	if (!GW_VERSION_KNOWN(f->cudnn))
		return false;
	cu = GW_VERSION_KNOWN(f->cuda) ? f->cuda.part[0] : f->cudnn.part[0] >= 9 ? 12 : 11;
	if (cu < 11)
		return false;
	if (f->kind == GW_FW_TENSORFLOW && floor.nparts < 2) {
		const gw_row_tensorflow_cuda *row = gw__tbl_tensorflow_cuda(&f->version);
		gw_ver tested;

		if (row && gw__version_parse(row->cudnn, &tested) == 0 && tested.part[0] == floor.part[0])
			floor = tested;
	}
	gw__doc_fmt(buf, n, "pip install -U 'nvidia-cudnn-cu%u>=%s,<%u'", cu, floor.text, floor.part[0] + 1);
	return true;
}

static void rules_cudnn(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	const gw_probe_pywheel *w = env_wheel(e, GW_CUDALIB_CUDNN);
	gw_ver have = { 0 };
	char where[GW_PROBE_PATH] = "", name[96], ev[EV];
	bool major_differs;

	if (f->gpu != GW_FW_GPU_CUDA || !GW_VERSION_KNOWN(f->cudnn) || d->nnvidia <= 0)
		return;
	gw__doc_fw_name(f, name, sizeof(name));
	if (w) {
		have = w->version;
		gw__doc_fmt(where, sizeof(where), "%s (%s)", w->lib_dir, w->dist[0] ? w->dist : "pip wheel");
	} else if (f->bundles_cuda && f->kind == GW_FW_TORCH) {
		return;   /* PyTorch ships its own cuDNN */
	} else if (!system_cudnn(d, &have, where, sizeof(where))) {
		gw__doc_fmt(ev, sizeof(ev), _("%s in %s was built with cuDNN %s; no nvidia-cudnn wheel in that environment, "
			 "no cudnn_version.h or libcudnn in the toolkits, /usr/include, /usr/lib or LD_LIBRARY_PATH"),
			 name, e->site, f->cudnn.text);
		{
			char fix[FIX], pip[160];

			if (cudnn_pip(f, pip, sizeof(pip)))
				gw__doc_fmt(fix, sizeof(fix), _("`%s` in that environment (or the framework's own CUDA extra, "
					 "such as [and-cuda]), or install cuDNN %u for CUDA %u system-wide."), pip,
					    f->cudnn.part[0], GW_VERSION_KNOWN(f->cuda) ? f->cuda.part[0] : 12);
			else
				gw__doc_fmt(fix, sizeof(fix), _("Install cuDNN %u for CUDA %s system-wide (there is no pip "
					 "cuDNN wheel for CUDA before 11)."), f->cudnn.part[0],
					    GW_VERSION_KNOWN(f->cuda) ? f->cuda.text : "?");
			gw__doc_add(d, "cudnn-missing", "cuda", -1, NULL, ev, fix);
		}
		return;
	}
	if (!GW_VERSION_KNOWN(have))
		return;
	major_differs = have.part[0] != f->cudnn.part[0];
	if (!major_differs && !gw__version_older(&have, &f->cudnn))
		return;
	gw__doc_fmt(ev, sizeof(ev), _("%s in %s was built with cuDNN %s; it would load cuDNN %s from %s"), name, e->site,
		 f->cudnn.text, have.text, where);
	{
		char fix[FIX];

		char pip[160];

		if (cudnn_pip(f, pip, sizeof(pip)))
			gw__doc_fmt(fix, sizeof(fix), _("Install the cuDNN %u wheel for CUDA %u: `%s` in that environment, "
				 "and remove older cuDNN folders from LD_LIBRARY_PATH."), f->cudnn.part[0],
				    GW_VERSION_KNOWN(f->cuda) ? f->cuda.part[0] : 12, pip);
		else
			gw__doc_fmt(fix, sizeof(fix), _("Install cuDNN %u.x, at least %s, for CUDA %s system-wide, and remove "
				 "older cuDNN folders from LD_LIBRARY_PATH."), f->cudnn.part[0], f->cudnn.text,
				    GW_VERSION_KNOWN(f->cuda) ? f->cuda.text : "?");
		gw__doc_add(d, "cudnn-version-mismatch", "cuda", -1, NULL, ev, fix);
	}
}

static void rule_library_path(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	const gw_probe_report *p = d->p;
	char ev[EV] = "", name[96];

	if (f->gpu != GW_FW_GPU_CUDA || !f->bundles_cuda)
		return;
	for (size_t l = 0; l < GW_CUDALIB_COUNT; l++) {
		const gw_probe_pywheel *w = env_wheel(e, (gw_cudalib)l);
		const gw_probe_ldpath *lp;
		gw_ver bundled = { 0 };

		/* NCCL has its own finding (system-nccl-shadows-framework, which
		 * also looks at LD_PRELOAD). */
		if (l == GW_CUDALIB_CUDA || l == GW_CUDALIB_NCCL || p->ld_first[l] < 0)
			continue;
		lp = &p->ldpath[p->ld_first[l]];
		if (w && GW_VERSION_KNOWN(w->version))
			bundled = w->version;
		else if (l == GW_CUDALIB_CUDART && GW_VERSION_KNOWN(f->cuda))
			bundled = f->cuda;
		if (!GW_VERSION_KNOWN(bundled) || !GW_VERSION_KNOWN(lp->version[l]) ||
		    !gw__version_older(&lp->version[l], &bundled))
			continue;
		gw__doc_cat(ev, sizeof(ev), _("%s%s %s in LD_LIBRARY_PATH entry %s, the environment bundles %s%s%s"), ev[0] ? gw__doc_sep() : "",
			    gw__cudalib_name((gw_cudalib)l), lp->version[l].text, lp->dir, bundled.text, w ? _(" in ") : "",
			    w ? w->lib_dir : "");
	}
	if (!ev[0])
		return;
	gw__doc_fw_name(f, name, sizeof(name));
	gw__doc_cat(ev, sizeof(ev), _(" (%s in %s)"), name, e->site);
	gw__doc_add(d, "library-path-shadows-framework", "cuda", -1, NULL, ev,
		    "Remove the old CUDA folders from LD_LIBRARY_PATH for this environment (e.g. `export "
		    "LD_LIBRARY_PATH=$(echo $LD_LIBRARY_PATH | tr : '\\n' | grep -v cuda | paste -sd:)`); the pip "
		    "wheels find their own libraries.");
}

static void rule_toolkit_mismatch(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	const gw_probe_report *p = d->p;
	int idx[2] = { p->nvcc_toolkit, p->cuda_home_toolkit };

	if (f->gpu != GW_FW_GPU_CUDA || !GW_VERSION_KNOWN(f->cuda))
		return;
	for (int k = 0; k < 2; k++) {
		const gw_probe_toolkit *t;
		char ev[EV], name[96], fix[FIX];

		if (idx[k] < 0 || (k == 1 && idx[1] == idx[0]))
			continue;
		t = &p->toolkits[idx[k]];
		if (!GW_VERSION_KNOWN(t->version) || t->version.part[0] == f->cuda.part[0])
			continue;
		gw__doc_fw_name(f, name, sizeof(name));
		gw__doc_fmt(ev, sizeof(ev), _("%s (%s) was built with CUDA %s; %s at %s is CUDA %s"), name, e->site, f->cuda.text,
			 k == 0 ? _("the nvcc on PATH") : "CUDA_HOME", t->prefix, t->version.text);
		gw__doc_fmt(fix, sizeof(fix), _("For extension builds install a CUDA %u.x toolkit and point to it: `export "
			 "CUDA_HOME=/usr/local/cuda-%s PATH=/usr/local/cuda-%s/bin:$PATH`; or install a framework build for "
			 "CUDA %u."), f->cuda.part[0], f->cuda.text, f->cuda.text, t->version.part[0]);
		gw__doc_add(d, "toolkit-framework-cuda-mismatch", "cuda", -1, NULL, ev, fix);
		return;
	}
}

/* ---- the toolkit in use against the driver, PATH and the loader ------------------- */

/* The toolkit a build uses: the first nvcc on PATH, else CUDA_HOME's. */
static const gw_probe_toolkit *toolkit_in_use(const gw__doctor *d)
{
	int k = d->p->nvcc_toolkit >= 0 ? d->p->nvcc_toolkit : d->p->cuda_home_toolkit;

	return k >= 0 ? &d->p->toolkits[k] : NULL;
}

static void major_minor(const gw_ver *v, gw_ver *out)
{
	gw__version_set(out, 2, v->part[0], v->nparts > 1 ? v->part[1] : 0, 0);
}

/* The newest other toolkit found here that this driver fully runs. */
static const gw_probe_toolkit *toolkit_within(const gw__doctor *d, const gw_probe_toolkit *skip)
{
	const gw_probe_toolkit *best = NULL;

	for (size_t i = 0; i < d->p->ntoolkits; i++) {
		const gw_probe_toolkit *t = &d->p->toolkits[i];
		gw_ver mm;

		if (t == skip || !t->has_nvcc || !GW_VERSION_KNOWN(t->version))
			continue;
		major_minor(&t->version, &mm);
		if (gw__version_cmp(&mm, &d->driver_max_cuda) <= 0 && (!best || gw__version_cmp(&t->version, &best->version) > 0))
			best = t;
	}
	return best;
}

static void rule_toolkit_newer_than_driver(gw__doctor *d)
{
	const gw_probe_toolkit *t = toolkit_in_use(d), *other;
	const gw_row_cuda_toolkit_driver *row;
	gw_ver mm, floor = { 0 };
	char ev[EV], fix[FIX], title[256], branch[16] = "";

	if (!t || !GW_VERSION_KNOWN(t->version) || !GW_VERSION_KNOWN(d->driver) || !GW_VERSION_KNOWN(d->driver_max_cuda))
		return;
	major_minor(&t->version, &mm);
	if (gw__version_cmp(&mm, &d->driver_max_cuda) <= 0)
		return;
	/* Within one major, minor-version compatibility runs what it builds
	 * (only PTX JIT and the newest calls fail): judged only when the
	 * driver cannot run the toolkit's runtime at all. */
	if (gw__tbl_driver_runs_cuda(&d->driver, &t->version))
		return;
	gw__doc_fmt(title, sizeof(title), _("CUDA toolkit %s is newer than driver %s supports (CUDA %s)"), t->version.text,
		    d->driver.text, d->driver_max_cuda.text);
	gw__doc_fmt(ev, sizeof(ev), _("%s at %s (%s, from %s); NVIDIA driver %s runs CUDA up to %s"),
		    t->nvcc_on_path ? _("the nvcc on PATH") : "CUDA_HOME", t->prefix, t->version.text,
		    t->version_source ? t->version_source : "?", d->driver.text, d->driver_max_cuda.text);
	if (gw__tbl_cuda_min_driver(&t->version, &floor) == 0)
		gw__doc_cat(ev, sizeof(ev), _("%sa CUDA %u.x runtime needs driver >= %s"), gw__doc_sep(), t->version.part[0],
			    floor.text);
	gw__doc_cat(ev, sizeof(ev), _("%sprograms and framework extensions built with this nvcc fail at start (\"CUDA "
				     "driver version is insufficient for CUDA runtime version\")"), gw__doc_sep());
	if ((other = toolkit_within(d, t)))
		gw__doc_fmt(fix, sizeof(fix), _("Build with the CUDA %s toolkit installed here: `export CUDA_HOME=%s "
						"PATH=%s/bin:$PATH`"), other->version.text, other->prefix, other->prefix);
	else
		gw__doc_fmt(fix, sizeof(fix), _("Install a CUDA toolkit no newer than %s (the driver's CUDA) and put its bin/ "
						"first on PATH"), d->driver_max_cuda.text);
	if ((row = gw__tbl_toolkit_driver(&t->version)))
		gw__doc_fmt(branch, sizeof(branch), "%.*s", (int)strcspn(row->min_driver, "."), row->min_driver);
	if (branch[0])
		gw__doc_cat(fix, sizeof(fix), _(", or upgrade the NVIDIA driver to branch %s or newer (CUDA %s needs >= %s)."),
			    branch, row->toolkit, row->min_driver);
	else
		gw__doc_cat(fix, sizeof(fix), _(", or upgrade the NVIDIA driver to one that supports CUDA %s."), mm.text);
	gw__doc_add(d, "toolkit-newer-than-driver", "cuda", -1, title, ev, fix);
}

static void rule_toolkit_bin_not_on_path(gw__doctor *d)
{
	const gw_probe_report *p = d->p;
	const gw_probe_toolkit *t, *first;
	char ev[EV], fix[FIX];

	if (p->cuda_home_toolkit < 0 || p->nvcc_toolkit == p->cuda_home_toolkit)
		return;
	t = &p->toolkits[p->cuda_home_toolkit];
	if (!t->has_nvcc)
		return;
	first = p->nvcc_toolkit >= 0 ? &p->toolkits[p->nvcc_toolkit] : NULL;
	gw__doc_fmt(ev, sizeof(ev), _("CUDA_HOME=%s (CUDA %s) has bin/nvcc, but %s"), p->cuda_home ? p->cuda_home : t->prefix,
		    GW_VERSION_KNOWN(t->version) ? t->version.text : "?",
		    first ? _("the first nvcc on PATH belongs to another toolkit") : _("no folder on PATH holds an nvcc"));
	if (first)
		gw__doc_cat(ev, sizeof(ev), " (%s, CUDA %s)", first->prefix, GW_VERSION_KNOWN(first->version) ? first->version.text : "?");
	gw__doc_cat(ev, sizeof(ev), "%sPATH=%s", gw__doc_sep(), p->path ? p->path : _("(unset)"));
	gw__doc_fmt(fix, sizeof(fix), _("`export PATH=%s/bin:$PATH` (in your shell profile or job script), so build "
					"tools that call `nvcc` use the same toolkit as CUDA_HOME."), t->prefix);
	gw__doc_add(d, "toolkit-bin-not-on-path", "cuda", -1, NULL, ev, fix);
}

static void rule_toolkit_libs_not_found(gw__doctor *d)
{
	const gw_probe_toolkit *t = toolkit_in_use(d);
	char ev[EV], fix[FIX];
	gw_ver mm;

	if (!t || !t->lib_dir[0] || t->lib_origin)
		return;
	major_minor(&t->version, &mm);
	gw__doc_fmt(ev, sizeof(ev), _("%s (CUDA %s, %s) keeps its libraries in %s; the loader does not search it: "
				     "LD_LIBRARY_PATH=%s, %s, not a default folder"),
		    t->prefix, GW_VERSION_KNOWN(t->version) ? t->version.text : "?",
		    t->nvcc_on_path ? _("nvcc on PATH") : "CUDA_HOME", t->lib_dir,
		    d->p->ld_library_path ? d->p->ld_library_path : _("(unset)"),
		    t->lib_conf_only ? _("an /etc/ld.so.conf.d file names it but /etc/ld.so.cache does not (ldconfig was not run since)")
				     : _("no /etc/ld.so.conf file or ld.so.cache entry names it"));
	if (t->lib_conf_only)
		gw__doc_fmt(fix, sizeof(fix), _("Rebuild the loader cache: `sudo ldconfig`."));
	else
		gw__doc_fmt(fix, sizeof(fix), _("`echo %s | sudo tee /etc/ld.so.conf.d/cuda-%s.conf && sudo ldconfig`, or "
						"`export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}` in your shell "
						"profile, so programs built with this toolkit find libcudart, cuBLAS and the rest."),
			    t->lib_dir, GW_VERSION_KNOWN(t->version) ? mm.text : "toolkit", t->lib_dir);
	gw__doc_add(d, "toolkit-libs-not-on-loader-path", "cuda", -1, NULL, ev, fix);
}

static void rule_system_libs(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	char ev[EV], fix[FIX], name[96], missing[512] = "";
	/* cuDNN that is absent or too old has its own finding. */
	bool skip_cudnn = gw__doc_fired(d, "cudnn-missing") || gw__doc_fired(d, "cudnn-version-mismatch");

	if (!f->nsyslibs_missing || d->nnvidia <= 0)
		return;
	for (size_t i = 0; i < f->nsyslibs_missing && i < GW_PROBE_MAX_SYSLIBS; i++)
		if (!skip_cudnn || strncmp(f->syslibs_missing[i], "libcudnn", 8))
			gw__doc_cat(missing, sizeof(missing), "%s%s", missing[0] ? gw__doc_comma() : "", f->syslibs_missing[i]);
	if (!missing[0])
		return;
	gw__doc_fw_name(f, name, sizeof(name));
	gw__doc_fmt(ev, sizeof(ev), _("%s in %s ships no CUDA libraries and loads the system's CUDA %s ones; the loader finds "
				     "none of %s in "),
		    name, e->site, f->cuda.text, missing);
	if (f->syslibs_search[0])
		gw__doc_cat(ev, sizeof(ev), _("the RUNPATH/RPATH of %s (%s), "), f->syslibs_elf, f->syslibs_search);
	gw__doc_cat(ev, sizeof(ev), _("LD_LIBRARY_PATH (%s), /etc/ld.so.cache or the default folders"),
		    d->p->ld_library_path ? d->p->ld_library_path : _("unset"));
	if (f->syslibs_hint[0])
		gw__doc_cat(ev, sizeof(ev), _("%s%s holds them, outside the loader's path"), gw__doc_sep(), f->syslibs_hint);
	if (f->syslibs_hint[0])
		gw__doc_fmt(fix, sizeof(fix), _("`echo %s | sudo tee /etc/ld.so.conf.d/cuda.conf && sudo ldconfig` (or "
						"`export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}`)"),
			    f->syslibs_hint, f->syslibs_hint);
	else
		gw__doc_fmt(fix, sizeof(fix), _("Install the CUDA %u.x libraries (toolkit and cuDNN) and add their folder to "
						"/etc/ld.so.conf.d (then `sudo ldconfig`)"), f->cuda.part[0]);
	if (f->kind == GW_FW_TENSORFLOW && f->cuda.part[0] >= 12)
		gw__doc_cat(fix, sizeof(fix), _("; or let pip bring them: `pip install '%s[and-cuda]==%s'` in that environment."),
			    f->dist[0] ? f->dist : "tensorflow", f->version.text);
	else
		gw__doc_cat(fix, sizeof(fix), _("."));
	gw__doc_add(d, "system-cuda-libraries-not-found", "cuda", -1, NULL, ev, fix);
}

void gw__doctor_rules_cuda(gw__doctor *d)
{
	found_toolkit(d);
	rule_toolkit_newer_than_driver(d);
	rule_toolkit_bin_not_on_path(d);
	rule_toolkit_libs_not_found(d);
	if (d->ctx) {
		rules_cvd(d);
		rule_device_order(d);
		rule_mig_selection(d);
	}
	for (size_t e = 0; e < d->p->nenvs; e++)
		for (size_t i = 0; i < d->p->envs[e].nfw; i++) {
			const gw_probe_framework *f = &d->p->envs[e].fw[i];

			if (!f->primary)
				continue;
			rules_cudnn(d, &d->p->envs[e], f);
			rule_library_path(d, &d->p->envs[e], f);
			rule_toolkit_mismatch(d, &d->p->envs[e], f);
			rule_system_libs(d, &d->p->envs[e], f);
		}
}
