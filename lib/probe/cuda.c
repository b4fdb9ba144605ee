/* CUDA toolkits, cuDNN and NCCL outside Python, and what LD_LIBRARY_PATH
 * puts first. Toolkits are found in /usr/local/cuda*, /opt/cuda*, through
 * CUDA_HOME / CUDA_PATH and through every nvcc on PATH; the same install
 * reached twice (the /usr/local/cuda link) is one toolkit. */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/path.h"
#include "probe/probe.h"

static const char *const cudalib_names[GW_CUDALIB_COUNT] = {
	[GW_CUDALIB_CUDART] = "libcudart",
	[GW_CUDALIB_CUBLAS] = "libcublas",
	[GW_CUDALIB_CUBLASLT] = "libcublasLt",
	[GW_CUDALIB_CUDNN] = "libcudnn",
	[GW_CUDALIB_NVJITLINK] = "libnvJitLink",
	[GW_CUDALIB_CUSPARSE] = "libcusparse",
	[GW_CUDALIB_NCCL] = "libnccl",
	[GW_CUDALIB_CUDA] = "libcuda",
};

const char *gw__cudalib_name(gw_cudalib lib)
{
	return (unsigned)lib < GW_CUDALIB_COUNT ? cudalib_names[lib] : "?";
}

/* "libcudart.so", "libcudart.so.12", "libcudart.so.12.4.127" → lib; the
 * version from the name (unknown for the bare .so). */
static int match_cudalib(const char *file, gw_ver *v)
{
	for (int i = 0; i < GW_CUDALIB_COUNT; i++) {
		char base[32];
		size_t bl;

		snprintf(base, sizeof(base), "%s.so", cudalib_names[i]);
		bl = strlen(base);
		if (strncmp(file, base, bl))
			continue;
		if (file[bl] == '\0') {
			memset(v, 0, sizeof(*v));
			return i;
		}
		if (gw__parse_lib_version(file, base, v) == 0)
			return i;
	}
	return -1;
}

void gw__probe_scan_cudalibs(gw_probe_ctx *c, const char *dir, bool has[GW_CUDALIB_COUNT],
			     gw_ver version[GW_CUDALIB_COUNT])
{
	static const char *const prefixes[] = { "libc", "libn" };

	for (size_t p = 0; p < GW_ARRAY_SIZE(prefixes); p++) {
		char **names;
		size_t n;

		if (gw__probe_list_dir(c, dir, prefixes[p], &names, &n) < 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			gw_ver v;
			int lib = match_cudalib(names[i], &v);

			if (lib < 0)
				continue;
			has[lib] = true;
			if (gw__version_cmp(&v, &version[lib]) > 0)
				version[lib] = v;
		}
		gw__probe_names_free(names, n);
	}
}

/* ---- toolkits ---------------------------------------------------------------- */

static char *read_under(gw_probe_ctx *c, const char *prefix, const char *rel, size_t limit)
{
	char path[GW_PATH_MAX];

	if (!gw__probe_join(path, sizeof(path), prefix, rel))
		return NULL;
	return gw__probe_read(c, path, limit);
}

static bool exists_under(gw_probe_ctx *c, const char *prefix, const char *rel)
{
	char path[GW_PATH_MAX];

	return gw__probe_join(path, sizeof(path), prefix, rel) && gw__probe_exists(c, path);
}

/* A pip-assembled toolkit (this project's CI machine has one) keeps
 * dist-info/nvidia_cuda_nvcc-13.0.88.dist-info instead of version.json. */
static bool version_from_dist_info(gw_probe_ctx *c, const char *prefix, gw_ver *out)
{
	char dir[GW_PATH_MAX];
	char **names;
	size_t n;
	bool ok = false;

	if (!gw__probe_join(dir, sizeof(dir), prefix, "dist-info") ||
	    gw__probe_list_dir(c, dir, "nvidia_cuda_nvcc", &names, &n) < 0)
		return false;
	for (size_t i = 0; i < n && !ok; i++) {
		char name[64];

		ok = gw__parse_dist_info_name(names[i], name, sizeof(name), out) == 0 && GW_VERSION_KNOWN(*out);
	}
	gw__probe_names_free(names, n);
	return ok;
}

static void toolkit_version(gw_probe_ctx *c, gw_probe_toolkit *t)
{
	const char *p = t->resolved;
	char *text;

	if ((text = read_under(c, p, "version.json", 256 * 1024))) {
		if (gw__parse_cuda_version_json(text, &t->version) == 0)
			t->version_source = "version.json";
		gw__free(text);
		if (t->version_source)
			return;
	}
	if ((text = read_under(c, p, "version.txt", 4096))) {
		if (gw__parse_cuda_version_txt(text, &t->version) == 0)
			t->version_source = "version.txt";
		gw__free(text);
		if (t->version_source)
			return;
	}
	if (version_from_dist_info(c, p, &t->version)) {
		t->version_source = "dist-info";
		return;
	}
	if ((text = read_under(c, p, "include/cuda.h", 1 << 20))) {
		if (gw__parse_cuda_h(text, &t->version) == 0)
			t->version_source = "cuda.h";
		gw__free(text);
		if (t->version_source)
			return;
	}
	/* Last resort: "cuda-12.4" in the folder name. */
	{
		const char *base = strrchr(p, '/');

		base = base ? base + 1 : p;
		if (!strncmp(base, "cuda-", 5) && gw__version_parse(base + 5, &t->version) == 0)
			t->version_source = "directory";
	}
}

static void toolkit_components(gw_probe_ctx *c, gw_probe_toolkit *t)
{
	char *text;

	if ((text = read_under(c, t->resolved, "include/cudnn_version.h", 256 * 1024))) {
		gw__parse_cudnn_h(text, &t->cudnn);
		gw__free(text);
	}
	if (!GW_VERSION_KNOWN(t->cudnn) && (text = read_under(c, t->resolved, "include/cudnn.h", 1 << 20))) {
		gw__parse_cudnn_h(text, &t->cudnn);   /* cuDNN < 8 kept its version here */
		gw__free(text);
	}
	if ((text = read_under(c, t->resolved, "include/nccl.h", 1 << 20))) {
		gw__parse_nccl_h(text, &t->nccl);
		gw__free(text);
	}
}

/* Add (or find) the toolkit at prefix; -1 when prefix is not a toolkit. */
static int add_toolkit(gw_probe_ctx *c, const char *prefix)
{
	gw_probe_report *r = c->r;
	char resolved[GW_PROBE_PATH];
	gw_probe_toolkit *t;

	if (!prefix || prefix[0] != '/' || gw__probe_resolve(c, prefix, resolved, sizeof(resolved)) < 0)
		return -1;
	for (size_t i = 0; i < r->ntoolkits; i++)
		if (!strcmp(r->toolkits[i].resolved, resolved))
			return (int)i;
	if (!exists_under(c, resolved, "bin/nvcc") && !exists_under(c, resolved, "version.json") &&
	    !exists_under(c, resolved, "version.txt") && !exists_under(c, resolved, "include/cuda.h"))
		return -1;
	if (r->ntoolkits == GW_PROBE_MAX_TOOLKITS) {
		r->truncated = true;
		return -1;
	}
	t = &r->toolkits[r->ntoolkits];
	memset(t, 0, sizeof(*t));
	gw__strlcpy(t->prefix, prefix, sizeof(t->prefix));
	gw__strlcpy(t->resolved, resolved, sizeof(t->resolved));
	t->has_nvcc = exists_under(c, resolved, "bin/nvcc");
	toolkit_version(c, t);
	toolkit_components(c, t);
	return (int)r->ntoolkits++;
}

static void strip_last(char *path)
{
	char *s = strrchr(path, '/');

	if (s && s != path)
		*s = '\0';
	else if (s)
		s[1] = '\0';
}

static void find_nvcc_on_path(gw_probe_ctx *c)
{
	const char *list = c->opts->env.path;

	while (list && *list) {
		size_t n = strcspn(list, ":");
		char dir[GW_PROBE_PATH], nvcc[GW_PROBE_PATH], real[GW_PROBE_PATH];

		if (n && n < sizeof(dir) && list[0] == '/') {
			memcpy(dir, list, n);
			dir[n] = '\0';
			if (gw__probe_join(nvcc, sizeof(nvcc), dir, "nvcc") && gw__probe_exists(c, nvcc) &&
			    gw__probe_resolve(c, nvcc, real, sizeof(real)) == 0) {
				int i;

				strip_last(real);     /* .../bin */
				strip_last(real);     /* the prefix */
				/* Keep the name the user sees when it is a link (/usr/local/cuda). */
				strip_last(dir);
				i = add_toolkit(c, strcmp(dir, "/") ? dir : real);
				if (i < 0)
					i = add_toolkit(c, real);
				if (i >= 0)
					c->r->toolkits[i].nvcc_on_path = true;
				c->r->nvcc_toolkit = i;
				return;   /* only the first nvcc is the one a build uses */
			}
		}
		list += n;
		if (*list == ':')
			list++;
	}
}

static void scan_prefix_dir(gw_probe_ctx *c, const char *parent)
{
	char **names;
	size_t n;

	if (gw__probe_list_dir(c, parent, "cuda", &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		char path[GW_PROBE_PATH];

		if (gw__probe_join(path, sizeof(path), parent, names[i]) && gw__probe_is_dir(c, path))
			add_toolkit(c, path);
	}
	gw__probe_names_free(names, n);
}

/* ---- cuDNN / NCCL outside the toolkits --------------------------------------- */

static void add_component(gw_probe_component *arr, size_t *n, size_t max, const char *where, const gw_ver *v,
			  bool *truncated)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(arr[i].where, where))
			return;
	if (*n == max) {
		*truncated = true;
		return;
	}
	gw__strlcpy(arr[*n].where, where, sizeof(arr[*n].where));
	arr[*n].version = *v;
	(*n)++;
}

static bool inside_toolkit(gw_probe_ctx *c, const char *path)
{
	char real[GW_PROBE_PATH];

	if (gw__probe_resolve(c, path, real, sizeof(real)) < 0)
		return false;
	for (size_t i = 0; i < c->r->ntoolkits; i++) {
		size_t l = strlen(c->r->toolkits[i].resolved);

		if (!strncmp(real, c->r->toolkits[i].resolved, l) && real[l] == '/')
			return true;
	}
	return false;
}

static void system_headers(gw_probe_ctx *c)
{
	static const char *const dirs[] = { "/usr/include", "/usr/include/x86_64-linux-gnu",
					    "/usr/include/aarch64-linux-gnu", "/usr/local/include" };
	/* cuDNN 8+ keeps its version in cudnn_version.h (Debian packages:
	 * cudnn_version_v8.h / _v9.h behind an alternatives link); cuDNN <= 7
	 * in cudnn.h itself. */
	static const char *const cudnn_names[] = { "cudnn_version.h", "cudnn_version_v9.h", "cudnn_version_v8.h", "cudnn.h" };
	gw_probe_report *r = c->r;

	for (size_t i = 0; i < GW_ARRAY_SIZE(dirs); i++) {
		char path[GW_PROBE_PATH];
		char *text;
		gw_ver v;

		for (size_t k = 0; k < GW_ARRAY_SIZE(cudnn_names); k++) {
			bool found = false;

			if (!gw__probe_join(path, sizeof(path), dirs[i], cudnn_names[k]) || inside_toolkit(c, path) ||
			    !(text = gw__probe_read(c, path, 1 << 20)))
				continue;
			if (gw__parse_cudnn_h(text, &v) == 0) {
				add_component(r->cudnn, &r->ncudnn, GW_PROBE_MAX_COMPONENTS, path, &v, &r->truncated);
				found = true;
			}
			gw__free(text);
			if (found)
				break;
		}
		if (gw__probe_join(path, sizeof(path), dirs[i], "nccl.h") && !inside_toolkit(c, path) &&
		    (text = gw__probe_read(c, path, 1 << 20))) {
			if (gw__parse_nccl_h(text, &v) == 0)
				add_component(r->nccl, &r->nnccl, GW_PROBE_MAX_COMPONENTS, path, &v, &r->truncated);
			gw__free(text);
		}
	}
}

static void system_libs(gw_probe_ctx *c)
{
	static const char *const dirs[] = { "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
					    "/usr/local/lib" };
	gw_probe_report *r = c->r;

	for (size_t i = 0; i < GW_ARRAY_SIZE(dirs); i++) {
		bool has[GW_CUDALIB_COUNT] = { false };
		gw_ver ver[GW_CUDALIB_COUNT];
		char path[GW_PROBE_PATH];

		memset(ver, 0, sizeof(ver));
		if (inside_toolkit(c, dirs[i]))
			continue;
		gw__probe_scan_cudalibs(c, dirs[i], has, ver);
		if (has[GW_CUDALIB_CUDNN] && GW_VERSION_KNOWN(ver[GW_CUDALIB_CUDNN]) &&
		    gw__probe_join(path, sizeof(path), dirs[i], "libcudnn.so"))
			add_component(r->cudnn, &r->ncudnn, GW_PROBE_MAX_COMPONENTS, path, &ver[GW_CUDALIB_CUDNN], &r->truncated);
		if (has[GW_CUDALIB_NCCL] && GW_VERSION_KNOWN(ver[GW_CUDALIB_NCCL]) &&
		    gw__probe_join(path, sizeof(path), dirs[i], "libnccl.so"))
			add_component(r->nccl, &r->nnccl, GW_PROBE_MAX_COMPONENTS, path, &ver[GW_CUDALIB_NCCL], &r->truncated);
	}
}

/* ---- LD_LIBRARY_PATH --------------------------------------------------------- */

static void scan_ld_library_path(gw_probe_ctx *c)
{
	gw_probe_report *r = c->r;
	const char *list = c->opts->env.ld_library_path;

	while (list && *list) {
		size_t n = strcspn(list, ":");

		if (n && n < GW_PROBE_PATH && list[0] == '/') {
			gw_probe_ldpath *e;

			if (r->nldpath == GW_PROBE_MAX_LDPATH) {
				r->truncated = true;
				return;
			}
			e = &r->ldpath[r->nldpath];
			memset(e, 0, sizeof(*e));
			memcpy(e->dir, list, n);
			e->dir[n] = '\0';
			e->exists = gw__probe_is_dir(c, e->dir);
			if (e->exists)
				gw__probe_scan_cudalibs(c, e->dir, e->has, e->version);
			for (int lib = 0; lib < GW_CUDALIB_COUNT; lib++)
				if (e->has[lib] && r->ld_first[lib] < 0)
					r->ld_first[lib] = (int)r->nldpath;
			r->nldpath++;
		}
		list += n;
		if (*list == ':')
			list++;
	}
}

int gw__probe_cuda(gw_probe_ctx *c)
{
	const gw_probe_env *env = &c->opts->env;
	const char *home = env->cuda_home ? env->cuda_home : env->cuda_path;
	int i;

	if (home && home[0]) {
		char trimmed[GW_PROBE_PATH];
		size_t l;

		gw__strlcpy(trimmed, home, sizeof(trimmed));
		l = strlen(trimmed);
		while (l > 1 && trimmed[l - 1] == '/')
			trimmed[--l] = '\0';
		if ((i = add_toolkit(c, trimmed)) >= 0) {
			c->r->toolkits[i].is_cuda_home = true;
			c->r->cuda_home_toolkit = i;
		}
	}
	find_nvcc_on_path(c);
	scan_prefix_dir(c, "/usr/local");
	scan_prefix_dir(c, "/opt");
	system_headers(c);
	system_libs(c);
	scan_ld_library_path(c);
	return 0;
}
