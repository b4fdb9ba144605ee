/* Python environments and the GPU frameworks in them, read from their files
 * (docs/contracts.md "Where doctor looks for Python"): never imported, because
 * importing is slow and fails in exactly the broken cases.
 *
 * Per site-packages folder: the dist-info of every framework package (two
 * builds side by side are two entries), the module's own build record
 * (torch/version.py, tensorflow/.../build_info.py, jax/version.py), and the
 * pip CUDA wheels in nvidia/<name>/lib. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "probe/probe.h"


const char *gw__fw_kind_name(gw_fw_kind k)
{
	static const char *const names[GW_FW_KIND_COUNT] = {
		[GW_FW_TORCH] = "pytorch",
		[GW_FW_TENSORFLOW] = "tensorflow",
		[GW_FW_JAX] = "jax",
		[GW_FW_CUPY] = "cupy",
		[GW_FW_HOROVOD] = "horovod",
	};

	return (unsigned)k < GW_FW_KIND_COUNT ? names[k] : "?";
}

/* Distribution names (normalised) that are frameworks. A trailing '*'
 * matches any suffix. Order matters: the first match wins. */
static const struct {
	const char *name;
	gw_fw_kind kind;
	bool primary;
} fw_dists[] = {
	{ "torch", GW_FW_TORCH, true },
	{ "torch-cpu", GW_FW_TORCH, true },
	{ "torch-gpu", GW_FW_TORCH, true },
	{ "tensorflow", GW_FW_TENSORFLOW, true },
	{ "tensorflow-cpu", GW_FW_TENSORFLOW, true },
	{ "tensorflow-gpu", GW_FW_TENSORFLOW, true },
	{ "tensorflow-intel", GW_FW_TENSORFLOW, true },
	{ "tensorflow-rocm", GW_FW_TENSORFLOW, true },
	{ "tf-nightly*", GW_FW_TENSORFLOW, true },
	{ "jax", GW_FW_JAX, true },
	{ "jaxlib", GW_FW_JAX, false },
	{ "jax-cuda*", GW_FW_JAX, false },
	{ "jax-rocm*", GW_FW_JAX, false },
	{ "cupy", GW_FW_CUPY, true },
	{ "cupy-cuda*", GW_FW_CUPY, true },
	{ "cupy-rocm*", GW_FW_CUPY, true },
	{ "horovod", GW_FW_HOROVOD, true },
};

static int classify_dist(const char *norm)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(fw_dists); i++) {
		const char *pat = fw_dists[i].name;
		size_t pl = strlen(pat);

		if (pat[pl - 1] == '*' ? !strncmp(norm, pat, pl - 1) : !strcmp(norm, pat))
			return (int)i;
	}
	return -1;
}

/* ---- one site-packages folder --------------------------------------------- */

static gw_probe_framework *add_fw(gw_probe_pyenv *e, gw_fw_kind kind, bool primary, const char *dist)
{
	gw_probe_framework *f;

	if (e->nfw == GW_PROBE_MAX_FRAMEWORKS) {
		e->truncated = true;
		return NULL;
	}
	f = &e->fw[e->nfw++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->primary = primary;
	gw__strlcpy(f->dist, dist, sizeof(f->dist));
	return f;
}

static bool site_path(char *out, size_t outsz, const gw_probe_pyenv *e, const char *rel)
{
	return gw__probe_join(out, outsz, e->site, rel);
}

static char *site_read(gw_probe_ctx *c, const gw_probe_pyenv *e, const char *rel, char *where, size_t wsz)
{
	char path[GW_PATH_MAX];
	char *text;

	if (!site_path(path, sizeof(path), e, rel) || !(text = gw__probe_read(c, path, 256 * 1024)))
		return NULL;
	if (where)
		gw__strlcpy(where, path, wsz);
	return text;
}

static bool site_has(gw_probe_ctx *c, const gw_probe_pyenv *e, const char *rel)
{
	char path[GW_PATH_MAX];

	return site_path(path, sizeof(path), e, rel) && gw__probe_exists(c, path);
}

/* "12.1" → "cu121"; "6.1.40091" → "rocm6.1". */
static void variant_from(const char *prefix, const gw_ver *v, char *out, size_t outsz)
{
	if (v->nparts >= 2)
		snprintf(out, outsz, "%s%u%s%u", prefix, v->part[0], strcmp(prefix, "rocm") ? "" : ".", v->part[1]);
}

static void fill_archs_from_table(gw_probe_framework *f)
{
	if (f->gpu == GW_FW_GPU_CUDA) {
		const gw_row_torch_cuda_arch *row = gw__tbl_torch_cuda_arch(&f->version, f->variant);

		if (row) {
			gw__strlcpy(f->archs, row->archs, sizeof(f->archs));
			gw__strlcpy(f->ptx, row->ptx, sizeof(f->ptx));
			f->arch_source = "table";
		}
	} else if (f->gpu == GW_FW_GPU_ROCM) {
		const gw_row_torch_rocm_arch *row = gw__tbl_torch_rocm_arch(f->variant);

		if (row) {
			gw__strlcpy(f->archs, row->archs, sizeof(f->archs));
			f->arch_source = "table";
		}
	}
}

static void probe_torch(gw_probe_ctx *c, gw_probe_pyenv *e, bool wheels_have_cudart)
{
	char where[GW_PROBE_PATH];
	char *text = site_read(c, e, "torch/version.py", where, sizeof(where));
	gw_torch_build b;
	gw_ver cudav, hipv, rocmv;
	bool any = false, libcuda, bundled;

	if (!text)
		return;
	gw__parse_torch_version_py(text, &b);
	gw__free(text);
	gw__version_parse(b.cuda, &cudav);
	gw__version_parse(b.hip, &hipv);
	gw__version_parse(b.rocm, &rocmv);

	libcuda = site_has(c, e, "torch/lib/libtorch_cuda.so");
	{
		char dir[GW_PATH_MAX], **names;
		size_t n = 0;

		names = NULL;
		if (site_path(dir, sizeof(dir), e, "torch/lib"))
			gw__probe_list_dir(c, dir, "libcudart", &names, &n);
		bundled = n > 0 || wheels_have_cudart;
		gw__probe_names_free(names, n);
	}
	for (size_t i = 0; i < e->nfw; i++)
		if (e->fw[i].kind == GW_FW_TORCH)
			any = true;
	/* No dist-info (a source build, an egg-link): the module alone counts. */
	if (!any && !add_fw(e, GW_FW_TORCH, true, ""))
		return;
	for (size_t i = 0; i < e->nfw; i++) {
		gw_probe_framework *f = &e->fw[i];

		if (f->kind != GW_FW_TORCH)
			continue;
		if (b.version[0])
			gw__version_parse(b.version, &f->version);
		/* conda-forge, the old pytorch conda channel and Debian write no
		 * local tag ("2.1.2"): the variant then comes from cuda/hip. */
		gw__torch_variant(b.version[0] ? b.version : f->version.text, f->variant, sizeof(f->variant));
		if (GW_VERSION_KNOWN(cudav)) {
			f->gpu = GW_FW_GPU_CUDA;
			f->cuda = cudav;
			if (strncmp(f->variant, "cu", 2))
				variant_from("cu", &cudav, f->variant, sizeof(f->variant));
		} else if (GW_VERSION_KNOWN(hipv) || GW_VERSION_KNOWN(rocmv)) {
			f->gpu = GW_FW_GPU_ROCM;
			f->hip = GW_VERSION_KNOWN(hipv) ? hipv : rocmv;
			/* Newer ROCm builds say the ROCm release apart from HIP's
			 * own number (hip '7.15.26333', rocm '10.0.0'): the wheel
			 * tag follows the ROCm release. */
			if (strncmp(f->variant, "rocm", 4)) {
				if (GW_VERSION_KNOWN(rocmv)) {
					char tag[sizeof(rocmv.text) + 8];

					snprintf(tag, sizeof(tag), "rocm%s", rocmv.text);
					gw__strlcpy(f->variant, tag, sizeof(f->variant));
				} else {
					variant_from("rocm", &hipv, f->variant, sizeof(f->variant));
				}
			}
		} else if (b.xpu_kind == GW_PYVAL_STR) {
			f->gpu = GW_FW_GPU_NONE;   /* an Intel XPU build: no NVIDIA/AMD support */
			if (!f->variant[0])
				gw__strlcpy(f->variant, "xpu", sizeof(f->variant));
		} else if (b.cuda_kind == GW_PYVAL_NONE && b.hip_kind != GW_PYVAL_STR) {
			f->gpu = GW_FW_GPU_NONE;   /* torch.version.cuda is None: a CPU build */
		}
		f->has_libtorch_cuda = libcuda;
		f->bundles_cuda = f->gpu == GW_FW_GPU_CUDA && bundled;
		gw__strlcpy(f->evidence, where, sizeof(f->evidence));
		fill_archs_from_table(f);
	}
}

/* ---- torchvision and torchaudio -------------------------------------------- */

/* "torch (==2.5.1)", "torch==2.5.1+cu121 ; extra == 'x'" → "2.5.1+cu121"; "" when
 * the requirement is not torch or pins no exact version. */
static void torch_pin_of(const char *req, char *out, size_t outsz)
{
	const char *p = req;
	size_t n;

	out[0] = '\0';
	if (strncmp(p, "torch", 5) || (p[5] && p[5] != ' ' && p[5] != '(' && p[5] != '='))
		return;
	p += 5;
	while (*p == ' ' || *p == '(')
		p++;
	if (strncmp(p, "==", 2) || p[2] == '=')
		return;
	p += 2;
	while (*p == ' ')
		p++;
	n = strcspn(p, " ,);");
	if (n && n < outsz && !memchr(p, '*', n)) {
		memcpy(out, p, n);
		out[n] = '\0';
	}
}

/* A torchvision/torchaudio dist-info folder: its release and torch pin. */
static void add_torch_part(gw_probe_ctx *c, gw_probe_pyenv *e, const char *norm, const char *dirname, const gw_ver *v)
{
	gw_probe_torch_part *t;
	char meta[GW_PATH_MAX], line[256];
	const char *cursor;
	char *text;

	if (e->ntorch_parts == GW_ARRAY_SIZE(e->torch_parts))
		return;
	for (size_t i = 0; i < e->ntorch_parts; i++)
		if (!strcmp(e->torch_parts[i].dist, norm))
			return;   /* two dist-infos of one package: the first counts */
	t = &e->torch_parts[e->ntorch_parts++];
	memset(t, 0, sizeof(*t));
	gw__strlcpy(t->dist, norm, sizeof(t->dist));
	t->version = *v;
	gw__probe_join(t->evidence, sizeof(t->evidence), e->site, dirname);
	if (!gw__probe_join(meta, sizeof(meta), t->evidence, "METADATA") || !(text = gw__probe_read(c, meta, 512 * 1024)))
		return;
	cursor = text;
	while (!t->torch_pin[0] && gw__metadata_next(&cursor, "Requires-Dist", line, sizeof(line)) == 0)
		torch_pin_of(line, t->torch_pin, sizeof(t->torch_pin));
	gw__free(text);
}

/* What each part's version.py says: __version__ (with the local tag the
 * dist-info name may lack) and torchvision's `cuda = '12.1'`. */
static void probe_torch_parts(gw_probe_ctx *c, gw_probe_pyenv *e)
{
	for (size_t i = 0; i < e->ntorch_parts; i++) {
		gw_probe_torch_part *t = &e->torch_parts[i];
		char rel[48], where[GW_PROBE_PATH];
		gw_torch_build b;
		char *text;

		snprintf(rel, sizeof(rel), "%s/version.py", t->dist);
		if ((text = site_read(c, e, rel, where, sizeof(where)))) {
			gw__parse_torch_version_py(text, &b);
			gw__free(text);
			if (b.version[0])
				gw__version_parse(b.version, &t->version);
			if (b.cuda[0])
				gw__version_parse(b.cuda, &t->cuda);
			gw__strlcpy(t->evidence, where, sizeof(t->evidence));
		}
		gw__torch_variant(t->version.text, t->variant, sizeof(t->variant));
		if (!GW_VERSION_KNOWN(t->cuda) && !strncmp(t->variant, "cu", 2) && strlen(t->variant) >= 5) {
			char num[16];
			size_t l = strlen(t->variant + 2);

			/* "cu121" → "12.1", "cu118" → "11.8" */
			snprintf(num, sizeof(num), "%.*s.%s", (int)(l - 1), t->variant + 2, t->variant + 1 + l);
			gw__version_parse(num, &t->cuda);
		}
	}
}

/* "'sm_60', 'sm_70', 'compute_90'" → "sm_60 sm_70" and ptx "compute_90". */
static void split_tf_archs(const char *list, gw_probe_framework *f)
{
	size_t an = 0, pn = 0;

	for (const char *p = list; *p;) {
		size_t n;

		while (*p == ' ' || *p == ',' || *p == '\'' || *p == '"')
			p++;
		n = strcspn(p, " ,'\"");
		if (!n)
			break;
		if (!strncmp(p, "compute_", 8)) {
			if (pn + n + 2 < sizeof(f->ptx)) {
				if (pn)
					f->ptx[pn++] = ' ';
				memcpy(f->ptx + pn, p, n);
				pn += n;
			}
		} else if (an + n + 2 < sizeof(f->archs)) {
			if (an)
				f->archs[an++] = ' ';
			memcpy(f->archs + an, p, n);
			an += n;
		}
		p += n;
	}
	f->archs[an] = '\0';
	f->ptx[pn] = '\0';
}

static void probe_tensorflow(gw_probe_ctx *c, gw_probe_pyenv *e, bool wheels_have_cudart)
{
	char where[GW_PROBE_PATH];
	char *text = site_read(c, e, "tensorflow/python/platform/build_info.py", where, sizeof(where));
	gw_tf_build b;
	bool any = false;

	if (!text)
		return;
	gw__parse_tf_build_info(text, &b);
	gw__free(text);

	for (size_t i = 0; i < e->nfw; i++)
		if (e->fw[i].kind == GW_FW_TENSORFLOW)
			any = true;
	if (!any && !add_fw(e, GW_FW_TENSORFLOW, true, ""))
		return;
	for (size_t i = 0; i < e->nfw; i++) {
		gw_probe_framework *f = &e->fw[i];

		if (f->kind != GW_FW_TENSORFLOW)
			continue;
		if (b.is_cuda == GW_PYVAL_TRUE)
			f->gpu = GW_FW_GPU_CUDA;
		else if (b.is_rocm == GW_PYVAL_TRUE)
			f->gpu = GW_FW_GPU_ROCM;
		else if (b.is_cuda == GW_PYVAL_FALSE)
			f->gpu = GW_FW_GPU_NONE;
		gw__version_parse(b.cuda, &f->cuda);
		gw__version_parse(b.cudnn, &f->cudnn);
		if (f->gpu == GW_FW_GPU_CUDA && !GW_VERSION_KNOWN(f->cuda)) {
			const gw_row_tensorflow_cuda *row = gw__tbl_tensorflow_cuda(&f->version);

			if (row) {
				gw__version_parse(row->cuda, &f->cuda);
				gw__version_parse(row->cudnn, &f->cudnn);
			}
		}
		if (b.has_archs) {
			split_tf_archs(b.archs, f);
			f->arch_source = "build_info";
		}
		f->bundles_cuda = f->gpu == GW_FW_GPU_CUDA && wheels_have_cudart;
		gw__strlcpy(f->evidence, where, sizeof(f->evidence));
	}
}

/* jaxlib "0.4.13+cuda12.cudnn89" → CUDA 12, cuDNN 8.9. */
static void jaxlib_local(gw_probe_framework *f)
{
	const char *p = strstr(f->version.text, "+cuda");
	const char *d;

	if (!p)
		return;
	f->gpu = GW_FW_GPU_CUDA;
	gw__version_parse(p + 5, &f->cuda);
	if ((d = strstr(p, "cudnn")) && d[5] >= '0' && d[5] <= '9' && d[6] >= '0' && d[6] <= '9')
		gw__version_set(&f->cudnn, 2, (unsigned)(d[5] - '0'), (unsigned)(d[6] - '0'), 0);
}

static void probe_jax(gw_probe_ctx *c, gw_probe_pyenv *e)
{
	char where[GW_PROBE_PATH] = "", ver[48] = "";
	char *text = site_read(c, e, "jax/version.py", where, sizeof(where));
	gw_probe_framework *main_fw = NULL, *gpu_fw = NULL;

	if (text) {
		gw__parse_jax_version_py(text, ver, sizeof(ver));
		gw__free(text);
	}
	for (size_t i = 0; i < e->nfw; i++) {
		gw_probe_framework *f = &e->fw[i];
		const gw_row_jax_cuda *row;

		if (f->kind != GW_FW_JAX)
			continue;
		if (f->primary) {
			main_fw = f;
			continue;
		}
		if ((row = gw__tbl_jax_cuda(f->dist))) {
			f->gpu = GW_FW_GPU_CUDA;
			gw__version_parse(row->min_cuda, &f->cuda);
			gw__version_parse(row->min_cudnn, &f->cudnn);
		} else if (!strncmp(f->dist, "jax-rocm", 8) || !strncmp(f->dist, "jax_rocm", 8)) {
			f->gpu = GW_FW_GPU_ROCM;
		} else {
			jaxlib_local(f);
		}
		if (f->gpu != GW_FW_GPU_UNKNOWN && (!gpu_fw || f->gpu == GW_FW_GPU_CUDA))
			gpu_fw = f;
	}
	if (!main_fw && text == NULL)
		return;
	if (!main_fw && !(main_fw = add_fw(e, GW_FW_JAX, true, "")))
		return;
	if (ver[0])
		gw__version_parse(ver, &main_fw->version);
	if (where[0])
		gw__strlcpy(main_fw->evidence, where, sizeof(main_fw->evidence));
	if (gpu_fw) {
		main_fw->gpu = gpu_fw->gpu;
		main_fw->cuda = gpu_fw->cuda;
		main_fw->cudnn = gpu_fw->cudnn;
		main_fw->bundles_cuda = gpu_fw->gpu == GW_FW_GPU_CUDA;
	} else {
		main_fw->gpu = GW_FW_GPU_NONE;   /* jax with a CPU jaxlib and no plugin */
	}
}

static void probe_cupy(gw_probe_pyenv *e)
{
	for (size_t i = 0; i < e->nfw; i++) {
		gw_probe_framework *f = &e->fw[i];
		const char *d = f->dist;

		if (f->kind != GW_FW_CUPY)
			continue;
		if (!strncmp(d, "cupy-cuda", 9)) {
			const char *v = d + 9;
			size_t n = strspn(v, "0123456789");

			f->gpu = GW_FW_GPU_CUDA;
			/* cupy-cuda12x → 12; cupy-cuda117 → 11.7; cupy-cuda102 → 10.2 */
			if (n == 2 && v[2] == 'x')
				gw__version_set(&f->cuda, 1, (unsigned)atoi(v), 0, 0);
			else if (n == 3)
				gw__version_set(&f->cuda, 2, (unsigned)(v[0] - '0') * 10 + (unsigned)(v[1] - '0'), (unsigned)(v[2] - '0'), 0);
			else if (n == 2)
				gw__version_set(&f->cuda, 2, (unsigned)(v[0] - '0'), (unsigned)(v[1] - '0'), 0);
		} else if (!strncmp(d, "cupy-rocm-", 10)) {
			unsigned a = 0, b = 0;

			f->gpu = GW_FW_GPU_ROCM;
			if (sscanf(d + 10, "%u-%u", &a, &b) == 2)
				gw__version_set(&f->hip, 2, a, b, 0);
		}
		/* plain "cupy" is a source build: GPU support unknown from files. */
	}
}

/* site-packages/nvidia/<name>/lib and the nvidia-* dist that owns it. */
static void probe_wheels(gw_probe_ctx *c, gw_probe_pyenv *e, const gw_probe_dist *nv, size_t nnv)
{
	char dir[GW_PATH_MAX];
	char **names;
	size_t n;

	if (!site_path(dir, sizeof(dir), e, "nvidia") || gw__probe_list_dir(c, dir, "", &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		char lib[GW_PATH_MAX], want[64];
		gw_ver libver[GW_CUDALIB_COUNT];
		gw_probe_pywheel *w;

		memset(libver, 0, sizeof(libver));
		if (!gw__probe_join(lib, sizeof(lib), dir, names[i]) || !gw__probe_join(lib, sizeof(lib), lib, "lib") ||
		    !gw__probe_is_dir(c, lib))
			continue;
		if (e->nwheels == GW_PROBE_MAX_WHEELS) {
			e->truncated = true;
			break;
		}
		w = &e->wheels[e->nwheels++];
		memset(w, 0, sizeof(*w));
		gw__strlcpy(w->name, names[i], sizeof(w->name));
		gw__strlcpy(w->lib_dir, lib, sizeof(w->lib_dir));
		gw__probe_scan_cudalibs(c, lib, w->has, libver);
		snprintf(want, sizeof(want), "nvidia-%s", names[i]);
		gw__dist_normalize(want, want, sizeof(want));
		for (size_t j = 0; j < nnv; j++) {
			size_t wl = strlen(want);

			/* nvidia-cudnn-cu12 for nvidia/cudnn; nvidia-cuda-runtime(-cu12) for cuda_runtime */
			if (!strncmp(nv[j].norm, want, wl) && (nv[j].norm[wl] == '\0' || nv[j].norm[wl] == '-')) {
				gw__strlcpy(w->dist, nv[j].norm, sizeof(w->dist));
				w->version = nv[j].version;
				break;
			}
		}
	}
	gw__probe_names_free(names, n);
}

static int scan_site(gw_probe_ctx *c, gw_probe_pyenv *e)
{
	char **names;
	size_t n;
	gw_probe_dist *nv = NULL;   /* every dist here; the nvidia-* ones serve probe_wheels */
	size_t nnv = 0;
	bool cudart = false;
	int rc;

	if ((rc = gw__probe_list_dir(c, e->site, "", &names, &n)) < 0)
		return rc == GW_ENOMEM ? rc : 0;   /* unreadable: nothing found there */
	if (n && !(nv = gw__calloc(n, sizeof(*nv)))) {
		gw__probe_names_free(names, n);
		return gw__error_set(GW_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		char name[64], norm[64];
		gw_ver v;
		int k;

		if (gw__parse_dist_info_name(names[i], name, sizeof(name), &v) < 0)
			continue;
		gw__dist_normalize(name, norm, sizeof(norm));
		gw__strlcpy(nv[nnv].norm, norm, sizeof(nv[nnv].norm));
		nv[nnv++].version = v;
		if (!strncmp(norm, "nvidia-", 7))
			continue;
		if (!strcmp(norm, "torchvision") || !strcmp(norm, "torchaudio"))
			add_torch_part(c, e, norm, names[i], &v);
		if ((k = classify_dist(norm)) >= 0) {
			gw_probe_framework *f = add_fw(e, fw_dists[k].kind, fw_dists[k].primary, norm);

			if (f) {
				size_t l = strlen(names[i]);

				f->version = v;
				gw__probe_join(f->evidence, sizeof(f->evidence), e->site, names[i]);
				if (l > 10 && !strcmp(names[i] + l - 10, ".dist-info") &&
				    (!gw__probe_join(f->metadata, sizeof(f->metadata), f->evidence, "METADATA")))
					f->metadata[0] = '\0';
			}
		}
	}
	gw__probe_names_free(names, n);
	probe_wheels(c, e, nv, nnv);
	gw__probe_fw_wheels(c, e, nv, nnv);
	gw__free(nv);
	for (size_t i = 0; i < e->nwheels; i++)
		cudart |= e->wheels[i].has[GW_CUDALIB_CUDART];
	probe_torch(c, e, cudart);
	probe_torch_parts(c, e);
	probe_tensorflow(c, e, cudart);
	probe_jax(c, e);
	probe_cupy(e);
	return 0;
}

/* ---- finding the environments --------------------------------------------- */

static int add_site(gw_probe_ctx *c, const char *site, const char *origin)
{
	gw_probe_report *r = c->r;
	char resolved[GW_PROBE_PATH];
	gw_probe_pyenv *e;
	const char *py;

	if (!gw__probe_is_dir(c, site) || gw__probe_resolve(c, site, resolved, sizeof(resolved)) < 0)
		return 0;
	for (size_t i = 0; i < r->nenvs; i++)
		if (!strcmp(r->envs[i].resolved, resolved))
			return 0;
	if (r->nenvs == GW_PROBE_MAX_ENVS) {
		r->truncated = true;
		return 0;
	}
	e = &r->envs[r->nenvs++];
	memset(e, 0, sizeof(*e));
	gw__strlcpy(e->site, site, sizeof(e->site));
	gw__strlcpy(e->resolved, resolved, sizeof(e->resolved));
	e->origin = origin;
	if ((py = strstr(site, "/python3.")) || (py = strstr(site, "/python3/"))) {
		size_t l = strcspn(py + 7, "/");

		if (l < sizeof(e->python))
			memcpy(e->python, py + 7, l);
	}
	return scan_site(c, e);
}

/* PREFIX/lib{,64}/python3.X/{site,dist}-packages */
static int add_prefix(gw_probe_ctx *c, const char *prefix, const char *origin)
{
	static const char *const libdirs[] = { "lib", "lib64" };
	static const char *const kinds[] = { "site-packages", "dist-packages" };
	int rc = 0;

	for (size_t l = 0; l < GW_ARRAY_SIZE(libdirs) && rc == 0; l++) {
		char dir[GW_PATH_MAX];
		char **names;
		size_t n;

		if (!gw__probe_join(dir, sizeof(dir), prefix, libdirs[l]))
			break;
		if ((rc = gw__probe_list_dir(c, dir, "python3", &names, &n)) < 0) {
			rc = rc == GW_ENOMEM ? rc : 0;   /* no such folder: nothing here */
			continue;
		}
		for (size_t i = 0; i < n && rc == 0; i++)
			for (size_t k = 0; k < GW_ARRAY_SIZE(kinds) && rc == 0; k++) {
				char site[GW_PROBE_PATH];

				if (gw__probe_join(site, sizeof(site), dir, names[i]) &&
				    gw__probe_join(site, sizeof(site), site, kinds[k]))
					rc = add_site(c, site, origin);
			}
		gw__probe_names_free(names, n);
	}
	return rc;
}

/* --python-env may name a prefix or a site-packages folder itself. */
static int add_given(gw_probe_ctx *c, const char *p, const char *origin)
{
	char trimmed[GW_PROBE_PATH];
	size_t len;
	size_t before = c->r->nenvs;
	int rc;

	if (!p || p[0] != '/')
		return 0;
	gw__strlcpy(trimmed, p, sizeof(trimmed));
	len = strlen(trimmed);
	while (len > 1 && trimmed[len - 1] == '/')
		trimmed[--len] = '\0';
	if ((rc = add_prefix(c, trimmed, origin)) < 0)
		return rc;
	if (c->r->nenvs == before && (strstr(trimmed, "-packages") || gw__probe_exists(c, trimmed)))
		rc = add_site(c, trimmed, origin);
	return rc;
}

static int add_versions(gw_probe_ctx *c, const char *versions)
{
	char **names;
	size_t n;
	int rc = 0;

	if (gw__probe_list_dir(c, versions, "", &names, &n) < 0)
		return 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char prefix[GW_PROBE_PATH];

		if (gw__probe_join(prefix, sizeof(prefix), versions, names[i]))
			rc = add_prefix(c, prefix, "PATH");
	}
	gw__probe_names_free(names, n);
	return rc;
}

/* Does dir hold the standard library of Python ver ("3.11"; "" for any
 * 3.x): dir/lib{,64}/pythonVER/os.py, the landmark the interpreter itself
 * looks for when it starts (CPython's getpath)? */
static bool has_stdlib(gw_probe_ctx *c, const char *dir, const char *ver)
{
	static const char *const libdirs[] = { "lib", "lib64" };

	for (size_t l = 0; l < GW_ARRAY_SIZE(libdirs); l++) {
		char lib[GW_PATH_MAX], os_py[GW_PATH_MAX], name[32];
		char **names;
		size_t n;
		bool found = false;

		if (!gw__probe_join(lib, sizeof(lib), dir[0] ? dir : "/", libdirs[l]))
			continue;
		if (ver[0]) {
			snprintf(name, sizeof(name), "python%s", ver);
			if (gw__probe_join(os_py, sizeof(os_py), lib, name) &&
			    gw__probe_join(os_py, sizeof(os_py), os_py, "os.py") && gw__probe_exists(c, os_py))
				return true;
			continue;
		}
		if (gw__probe_list_dir(c, lib, "python3.", &names, &n) < 0)
			continue;
		for (size_t i = 0; i < n && !found; i++)
			found = gw__probe_join(os_py, sizeof(os_py), lib, names[i]) &&
				gw__probe_join(os_py, sizeof(os_py), os_py, "os.py") && gw__probe_exists(c, os_py);
		gw__probe_names_free(names, n);
		if (found)
			return true;
	}
	return false;
}

/* The prefix an interpreter in folder bindir finds for itself, without
 * running it: the nearest folder at or above bindir holding its standard
 * library (has_stdlib). "/opt/tool/libexec/bin" → "/opt/tool" where
 * /opt/tool/lib/python3.12/os.py is; the folder above bin/ covers only
 * the usual layout. */
static int add_landmark(gw_probe_ctx *c, const char *bindir, const char *ver)
{
	char dir[GW_PROBE_PATH];
	char *s;

	gw__strlcpy(dir, bindir, sizeof(dir));
	for (;;) {
		if (has_stdlib(c, dir, ver))
			return add_prefix(c, dir[0] ? dir : "/", "PATH");
		if (!dir[0] || !(s = strrchr(dir, '/')))
			return 0;
		*s = '\0';
	}
}

/* "python3.11" → "3.11"; "" for any other name. */
static void version_of(const char *exe, char *ver, size_t n)
{
	const char *b = strrchr(exe, '/');

	b = b ? b + 1 : exe;
	ver[0] = '\0';
	if (!strncmp(b, "python3.", 8) && strspn(b + 8, "0123456789") == strlen(b + 8) && b[8] &&
	    strlen(b + 6) < n)
		gw__strlcpy(ver, b + 6, n);
}

/* "3.11.4" → "3.11"; "" when v does not start so. */
static void major_minor(const char *v, char *ver, size_t n)
{
	size_t a = strspn(v, "0123456789"), b = v[a] == '.' ? strspn(v + a + 1, "0123456789") : 0;

	ver[0] = '\0';
	if (a && b && a + b + 1 < n)
		snprintf(ver, n, "%.*s", (int)(a + 1 + b), v);
}

/* A venv's pyvenv.cfg (next to its interpreter or one folder up) names
 * the base interpreter's folder ("home = /usr/bin") and version: a venv
 * made with --copies has no link to follow there. */
static int add_venv_home(gw_probe_ctx *c, const char *bindir)
{
	char cfg[GW_PATH_MAX], home[GW_PROBE_PATH] = "", ver[16] = "";
	char *text = NULL;

	for (int up = 0; up < 2 && !text; up++) {
		char *s;

		gw__strlcpy(cfg, bindir, sizeof(cfg));
		if (up && (s = strrchr(cfg, '/')))
			*s = '\0';
		else if (up)
			break;
		if (gw__probe_join(cfg, sizeof(cfg), cfg[0] ? cfg : "/", "pyvenv.cfg"))
			text = gw__probe_read(c, cfg, 64 * 1024);
	}
	if (!text)
		return 0;
	for (char *line = text; line && *line;) {
		char *eol = strchr(line, '\n'), *eq = strchr(line, '=');
		size_t k;

		if (eol)
			*eol = '\0';
		if (eq) {
			char *v = eq + 1;

			for (k = (size_t)(eq - line); k && (line[k - 1] == ' ' || line[k - 1] == '\t'); k--)
				;
			v += strspn(v, " \t");
			v[strcspn(v, " \t\r")] = '\0';
			if (k == 4 && !strncmp(line, "home", 4) && v[0] == '/')
				gw__strlcpy(home, v, sizeof(home));
			else if ((k == 7 && !strncmp(line, "version", 7)) || (k == 12 && !strncmp(line, "version_info", 12)))
				major_minor(v, ver, sizeof(ver));
		}
		line = eol ? eol + 1 : NULL;
	}
	gw__free(text);
	return home[0] ? add_landmark(c, home, ver) : 0;
}

/* The site folders of an interpreter on PATH, from its layout alone
 * (never run: starting one costs more than all of doctor's file probes):
 * its own prefix (add_landmark, from the file the name resolves to) and,
 * for a venv, its base's. Debian's dist-packages and the user site are
 * the system and user folders gw__probe_python scans anyway. */
static int add_interpreter(gw_probe_ctx *c, const char *exe)
{
	char real[GW_PROBE_PATH], ver[16], bindir[GW_PROBE_PATH];
	char *s;
	int rc;

	gw__strlcpy(bindir, exe, sizeof(bindir));
	if ((s = strrchr(bindir, '/')))
		*s = '\0';
	if ((rc = add_venv_home(c, bindir)) < 0)
		return rc;
	if (gw__probe_resolve(c, exe, real, sizeof(real)) < 0 || !(s = strrchr(real, '/')))
		return 0;
	version_of(real, ver, sizeof(ver));
	*s = '\0';
	return add_landmark(c, real, ver);
}

static int add_path_pythons(gw_probe_ctx *c)
{
	const char *list = c->opts->env.path;
	int rc = 0;

	while (list && *list && rc == 0) {
		size_t n = strcspn(list, ":");
		char dir[GW_PROBE_PATH];

		if (n && n < sizeof(dir) && list[0] == '/') {
			static const char *const bins[] = { "python3", "python" };

			memcpy(dir, list, n);
			dir[n] = '\0';
			for (size_t b = 0; b < GW_ARRAY_SIZE(bins) && rc == 0; b++) {
				char exe[GW_PROBE_PATH], real[GW_PROBE_PATH], prefix[GW_PROBE_PATH];
				char *s;

				if (!gw__probe_join(exe, sizeof(exe), dir, bins[b]) || !gw__probe_exists(c, exe))
					continue;
				/* A venv's bin/python3 links to the base interpreter: the venv
				 * is the folder above bin/, the base the link's target's. */
				gw__strlcpy(prefix, dir, sizeof(prefix));
				if ((s = strrchr(prefix, '/')) && !strcmp(s, "/shims")) {
					/* pyenv: shims are scripts; its interpreters live in versions/. */
					strcpy(s, "/versions");
					if ((rc = add_versions(c, prefix)) < 0)
						break;
					continue;
				}
				if ((s = strrchr(prefix, '/')) && !strcmp(s, "/bin")) {
					*s = '\0';
					if (prefix[0] && (rc = add_prefix(c, prefix, "PATH")) < 0)
						break;
				}
				if (gw__probe_resolve(c, exe, real, sizeof(real)) == 0 && (s = strrchr(real, '/'))) {
					*s = '\0';
					if ((s = strrchr(real, '/')) && !strcmp(s, "/bin")) {
						*s = '\0';
						if (real[0] && (rc = add_prefix(c, real, "PATH")) < 0)
							break;
					}
				}
				rc = add_interpreter(c, exe);
			}
		}
		list += n;
		if (*list == ':')
			list++;
	}
	return rc;
}

int gw__probe_python(gw_probe_ctx *c)
{
	const gw_probe_options *o = c->opts;
	int rc;

	for (size_t i = 0; i < o->npython_envs; i++)
		if ((rc = add_given(c, o->python_envs[i], "--python-env")) < 0)
			return rc;
	if ((rc = add_given(c, o->env.virtual_env, "VIRTUAL_ENV")) < 0 ||
	    (rc = add_given(c, o->env.conda_prefix, "CONDA_PREFIX")) < 0 ||
	    (rc = add_prefix(c, "/usr", "system")) < 0 ||
	    (rc = add_prefix(c, "/usr/local", "system")) < 0)
		return rc;
	if (o->env.home && o->env.home[0] == '/') {
		char local[GW_PROBE_PATH];

		if (gw__probe_join(local, sizeof(local), o->env.home, ".local") && (rc = add_prefix(c, local, "user")) < 0)
			return rc;
	}
	return add_path_pythons(c);
}
