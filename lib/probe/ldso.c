/* The dynamic loader's view of the CUDA libraries, found the way ld.so
 * finds a soname: the RPATH of the object that loads it (when it has no
 * RUNPATH), LD_LIBRARY_PATH, its RUNPATH, /etc/ld.so.cache (built by
 * ldconfig from /etc/ld.so.conf and the files it includes; a tree without
 * a cache is judged by the conf files), then the default folders. Answers
 * two questions: does the loader find the library folder of the toolkit in
 * use, and can a framework that relies on the system's CUDA libraries load
 * them? Every read goes through the root, like every probe. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "probe/probe.h"

#define MAX_DIRS 64
#define MAX_CONF_DEPTH 4
#define MAX_CONF_FILES 256
#define MAX_CACHE (16u << 20)

typedef struct dirlist {
	char dir[MAX_DIRS][GW_PROBE_PATH];
	size_t n;
} dirlist;

typedef struct loader {
	dirlist ld;           /* LD_LIBRARY_PATH */
	dirlist cache;        /* folders of ld.so.cache entries (or the conf folders without a cache) */
	dirlist conf;         /* folders the conf files name */
	dirlist defaults;
	bool have_cache;
	unsigned conf_reads;  /* conf files read: includes that include themselves stop here */
} loader;

static void dir_add(dirlist *l, const char *dir, size_t len)
{
	if (!len || dir[0] != '/' || len >= GW_PROBE_PATH || l->n == MAX_DIRS)
		return;
	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->dir[i]) == len && !strncmp(l->dir[i], dir, len))
			return;
	memcpy(l->dir[l->n], dir, len);
	l->dir[l->n++][len] = '\0';
}

/* A colon list (LD_LIBRARY_PATH; RPATH/RUNPATH with $ORIGIN expanded to
 * origin, entries with other tokens skipped). */
static void dir_add_list(dirlist *l, const char *list, const char *origin)
{
	while (list && *list) {
		size_t n = strcspn(list, ":");
		char one[GW_PROBE_PATH];

		if (n && n < sizeof(one)) {
			memcpy(one, list, n);
			one[n] = '\0';
			if (origin && (!strncmp(one, "$ORIGIN", 7) || !strncmp(one, "${ORIGIN}", 9))) {
				char full[GW_PROBE_PATH];
				const char *rest = one + (one[1] == '{' ? 9 : 7);

				if ((size_t)snprintf(full, sizeof(full), "%s%s", origin, rest) < sizeof(full))
					dir_add(l, full, strlen(full));
			} else if (!strchr(one, '$')) {
				dir_add(l, one, n);
			}
		}
		list += n;
		if (*list == ':')
			list++;
	}
}

/* ---- /etc/ld.so.conf and its includes ------------------------------------------ */

static void read_conf(gw_probe_ctx *c, loader *L, const char *path, int depth);

/* `include PATTERN`: a folder (relative to the conf file's) and a file
 * name pattern (fnmatch, as ldconfig's glob). */
static void conf_include(gw_probe_ctx *c, loader *L, const char *conf, const char *pattern, int depth)
{
	char full[GW_PROBE_PATH], dir[GW_PROBE_PATH];
	const char *slash, *name;
	char **names;
	size_t n;

	if (pattern[0] == '/') {
		gw__strlcpy(full, pattern, sizeof(full));
	} else {
		gw__strlcpy(dir, conf, sizeof(dir));
		*strrchr(dir, '/') = '\0';
		if ((size_t)snprintf(full, sizeof(full), "%s/%s", dir, pattern) >= sizeof(full))
			return;
	}
	slash = strrchr(full, '/');
	name = slash + 1;
	memcpy(dir, full, (size_t)(slash - full));
	dir[slash - full] = '\0';
	if (!dir[0] || strpbrk(dir, "*?["))
		return;   /* wildcards only in the file name */
	if (gw__probe_list_dir(c, dir, "", &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		char file[GW_PROBE_PATH];

		if (!fnmatch(name, names[i], FNM_PERIOD) && gw__probe_join(file, sizeof(file), dir, names[i]))
			read_conf(c, L, file, depth + 1);
	}
	gw__probe_names_free(names, n);
}

static void read_conf(gw_probe_ctx *c, loader *L, const char *path, int depth)
{
	char *text, *save = NULL;

	if (depth > MAX_CONF_DEPTH || L->conf_reads >= MAX_CONF_FILES || !(text = gw__probe_read(c, path, 256 * 1024)))
		return;
	L->conf_reads++;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t len;

		line[strcspn(line, "#\r")] = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		len = strlen(line);
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			line[--len] = '\0';
		if (!strncmp(line, "include", 7) && (line[7] == ' ' || line[7] == '\t')) {
			char *inner = NULL;

			for (char *p = strtok_r(line + 8, " \t", &inner); p; p = strtok_r(NULL, " \t", &inner))
				conf_include(c, L, path, p, depth);
		} else if (line[0] == '/') {
			dir_add(&L->conf, line, strcspn(line, "="));   /* old "dir=libc6" form */
		}
	}
	gw__free(text);
}

/* ---- /etc/ld.so.cache ------------------------------------------------------------ */

#define OLD_MAGIC "ld.so-1.7.0"
#define NEW_MAGIC "glibc-ld.so.cache1.1"
#define NEW_HEADER 48           /* magic+version 20, nlibs, len_strings, flags+3, extension_offset, 3 unused */
#define NEW_ENTRY 24            /* flags, key, value, osversion, hwcap (8) */
#define OLD_ENTRY 12            /* flags, key, value */

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int gw__parse_ld_cache(const unsigned char *b, size_t n, bool (*fn)(const char *path, void *arg), void *arg)
{
	size_t base = 0, nlibs;
	int visited = 0;

	if (n >= 16 && !memcmp(b, OLD_MAGIC, strlen(OLD_MAGIC))) {
		/* The old table first, then the new one at the next 8-byte boundary. */
		uint64_t end = 16 + (uint64_t)le32(b + 12) * OLD_ENTRY;

		if (end > n)
			return GW_EPARSE;
		base = (size_t)((end + 7) & ~(uint64_t)7);
	}
	if (base > n || n - base < NEW_HEADER || memcmp(b + base, NEW_MAGIC, strlen(NEW_MAGIC)))
		return GW_EPARSE;
	nlibs = le32(b + base + 20);
	if (nlibs > (n - base - NEW_HEADER) / NEW_ENTRY)
		return GW_EPARSE;
	/* String offsets count from the new header's start. */
	for (size_t i = 0; i < nlibs; i++) {
		size_t value = le32(b + base + NEW_HEADER + i * NEW_ENTRY + 8);

		if (value >= n - base || !memchr(b + base + value, '\0', n - base - value))
			continue;
		visited++;
		if (!fn((const char *)b + base + value, arg))
			break;
	}
	return visited;
}

static bool cache_dir(const char *path, void *arg)
{
	const char *slash = strrchr(path, '/');

	if (slash && slash != path)
		dir_add(arg, path, (size_t)(slash - path));
	return true;
}

static void read_cache(gw_probe_ctx *c, loader *L)
{
	char *buf = NULL;
	size_t len = 0;

	if (gw__read_file(c->root, "/etc/ld.so.cache", MAX_CACHE, &buf, &len) < 0)
		return;
	L->have_cache = gw__parse_ld_cache((const unsigned char *)buf, len, cache_dir, &L->cache) >= 0;
	gw__free(buf);
}

static void loader_init(gw_probe_ctx *c, loader *L)
{
	static const char *const defaults[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
						"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
						"/lib64", "/usr/lib64", "/lib", "/usr/lib" };

	dir_add_list(&L->ld, c->opts->env.ld_library_path, NULL);
	if (gw__probe_exists(c, "/etc/ld.so.conf"))
		read_conf(c, L, "/etc/ld.so.conf", 0);
	else
		conf_include(c, L, "/etc/ld.so.conf", "ld.so.conf.d/*.conf", 0);
	read_cache(c, L);
	if (!L->have_cache)
		L->cache = L->conf;   /* a tree without a cache: its conf files stand in */
	for (size_t i = 0; i < GW_ARRAY_SIZE(defaults); i++)
		dir_add(&L->defaults, defaults[i], strlen(defaults[i]));
}

/* ---- lookups ----------------------------------------------------------------------- */

static bool same_dir(gw_probe_ctx *c, const char *a, const char *b_resolved)
{
	char ra[GW_PROBE_PATH];

	if (gw__probe_resolve(c, a, ra, sizeof(ra)) < 0)
		gw__strlcpy(ra, a, sizeof(ra));
	return !strcmp(ra, b_resolved);
}

static bool list_has_dir(gw_probe_ctx *c, const dirlist *l, const char *resolved)
{
	for (size_t i = 0; i < l->n; i++)
		if (same_dir(c, l->dir[i], resolved))
			return true;
	return false;
}

static bool list_has_file(gw_probe_ctx *c, const dirlist *l, const char *soname)
{
	for (size_t i = 0; i < l->n; i++) {
		char path[GW_PROBE_PATH];

		if (gw__probe_join(path, sizeof(path), l->dir[i], soname) && gw__probe_exists(c, path))
			return true;
	}
	return false;
}

/* ---- toolkits ----------------------------------------------------------------------- */

static void toolkit_lib_dir(gw_probe_ctx *c, gw_probe_toolkit *t)
{
	static const char *const rel[] = { "lib64", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib",
					   "targets/aarch64-linux/lib", "lib" };

	for (size_t i = 0; i < GW_ARRAY_SIZE(rel); i++) {
		char dir[GW_PROBE_PATH];
		char **names;
		size_t n;

		if (!gw__probe_join(dir, sizeof(dir), t->prefix, rel[i]) ||
		    gw__probe_list_dir(c, dir, "libcudart.so", &names, &n) < 0)
			continue;
		gw__probe_names_free(names, n);
		if (n) {
			gw__strlcpy(t->lib_dir, dir, sizeof(t->lib_dir));
			return;
		}
	}
}

static void probe_toolkit(gw_probe_ctx *c, const loader *L, gw_probe_toolkit *t)
{
	char resolved[GW_PROBE_PATH];

	toolkit_lib_dir(c, t);
	if (!t->lib_dir[0])
		return;
	if (gw__probe_resolve(c, t->lib_dir, resolved, sizeof(resolved)) < 0)
		gw__strlcpy(resolved, t->lib_dir, sizeof(resolved));
	if (list_has_dir(c, &L->ld, resolved))
		t->lib_origin = "LD_LIBRARY_PATH";
	else if (list_has_dir(c, &L->cache, resolved))
		t->lib_origin = L->have_cache ? "ld.so.cache" : "ld.so.conf";
	else if (list_has_dir(c, &L->defaults, resolved))
		t->lib_origin = "default";
	else
		t->lib_conf_only = L->have_cache && list_has_dir(c, &L->conf, resolved);
}

/* ---- frameworks on the system's CUDA libraries -------------------------------------- */

/* What TensorFlow dlopens from the system for CUDA major.x and cuDNN
 * cudnn_major (tsl's dso_loader: the runtime, cuBLAS and cuDNN). */
static size_t tf_sonames(const gw_probe_framework *f, char out[][32], size_t max)
{
	unsigned m = f->cuda.part[0];
	size_t n = 0;

	if (m < 11 || max < 4)
		return 0;
	snprintf(out[n++], 32, m == 11 ? "libcudart.so.11.0" : "libcudart.so.%u", m);
	snprintf(out[n++], 32, "libcublas.so.%u", m);
	snprintf(out[n++], 32, "libcublasLt.so.%u", m);
	if (GW_VERSION_KNOWN(f->cudnn))
		snprintf(out[n++], 32, "libcudnn.so.%u", f->cudnn.part[0]);
	return n;
}

/* The CUDA libraries among an ELF's DT_NEEDED (not libcuda, the driver's). */
static size_t needed_sonames(const gw_elf_dynamic *dyn, char out[][32], size_t max)
{
	static const char *const cuda_libs[] = { "libcudart.so", "libcublas", "libcudnn", "libcufft", "libcurand",
						 "libcusparse", "libcusolver", "libnvrtc", "libnvJitLink", "libnccl.so",
						 "libnvToolsExt", "libcupti" };
	size_t n = 0;

	for (size_t i = 0; i < dyn->nneeded && n < max; i++)
		for (size_t k = 0; k < GW_ARRAY_SIZE(cuda_libs); k++)
			if (!strncmp(dyn->needed[i], cuda_libs[k], strlen(cuda_libs[k])) &&
			    strlen(dyn->needed[i]) < 32) {
				gw__strlcpy(out[n++], dyn->needed[i], 32);
				break;
			}
	return n;
}

/* The framework's own library whose RPATH/RUNPATH the loader uses. */
static bool fw_library(gw_probe_ctx *c, const gw_probe_pyenv *e, const gw_probe_framework *f, char *out, size_t outsz)
{
	static const char *const tf[] = { "tensorflow/libtensorflow_framework.so.2", "tensorflow/libtensorflow_framework.so.1",
					  "tensorflow/libtensorflow_framework.so", NULL };
	static const char *const torch[] = { "torch/lib/libtorch_cuda.so", NULL };
	const char *const *rel = f->kind == GW_FW_TENSORFLOW ? tf : f->kind == GW_FW_TORCH ? torch : NULL;

	for (size_t i = 0; rel && rel[i]; i++)
		if (gw__probe_join(out, outsz, e->site, rel[i]) && gw__probe_exists(c, out))
			return true;
	return false;
}

static void probe_framework(gw_probe_ctx *c, const loader *L, const gw_probe_pyenv *e, gw_probe_framework *f)
{
	char sonames[GW_ELF_MAX_NEEDED][32], lib[GW_PROBE_PATH] = "";
	gw_elf_dynamic *dyn = gw__calloc(1, sizeof(*dyn));
	dirlist *rpath = gw__calloc(1, sizeof(*rpath)), *runpath = gw__calloc(1, sizeof(*runpath));
	dirlist *wheels = gw__calloc(1, sizeof(*wheels));
	bool have_elf = false;
	size_t n;

	if (!dyn || !rpath || !runpath || !wheels)
		goto out;
	if (fw_library(c, e, f, lib, sizeof(lib)) && gw__probe_elf_dynamic(c, lib, dyn)) {
		char origin[GW_PROBE_PATH];

		have_elf = true;
		gw__strlcpy(origin, lib, sizeof(origin));
		*strrchr(origin, '/') = '\0';
		gw__strlcpy(f->syslibs_elf, lib, sizeof(f->syslibs_elf));
		/* DT_RPATH counts only without DT_RUNPATH. */
		if (dyn->has_runpath) {
			dir_add_list(runpath, dyn->runpath, origin);
			gw__strlcpy(f->syslibs_search, dyn->runpath, sizeof(f->syslibs_search));
		} else if (dyn->has_rpath) {
			dir_add_list(rpath, dyn->rpath, origin);
			gw__strlcpy(f->syslibs_search, dyn->rpath, sizeof(f->syslibs_search));
		}
	}
	n = f->kind == GW_FW_TENSORFLOW ? tf_sonames(f, sonames, GW_ARRAY_SIZE(sonames))
	    : have_elf ? needed_sonames(dyn, sonames, GW_ARRAY_SIZE(sonames)) : 0;
	/* The pip CUDA wheels of the environment: what a framework's RUNPATH
	 * ($ORIGIN/../nvidia/<name>/lib) reaches. */
	for (size_t i = 0; i < e->nwheels; i++)
		dir_add(wheels, e->wheels[i].lib_dir, strlen(e->wheels[i].lib_dir));
	for (size_t i = 0; i < n; i++) {
		const char *s = sonames[i];

		f->nsyslibs_checked++;
		if (list_has_file(c, rpath, s) || list_has_file(c, &L->ld, s) || list_has_file(c, runpath, s) ||
		    list_has_file(c, wheels, s) || list_has_file(c, &L->cache, s) || list_has_file(c, &L->defaults, s))
			continue;
		if (f->nsyslibs_missing < GW_PROBE_MAX_SYSLIBS)
			gw__strlcpy(f->syslibs_missing[f->nsyslibs_missing], s, sizeof(f->syslibs_missing[0]));
		f->nsyslibs_missing++;
		for (size_t t = 0; !f->syslibs_hint[0] && t < c->r->ntoolkits; t++) {
			char path[GW_PROBE_PATH];
			const gw_probe_toolkit *tk = &c->r->toolkits[t];

			if (tk->lib_dir[0] && gw__probe_join(path, sizeof(path), tk->lib_dir, s) && gw__probe_exists(c, path))
				gw__strlcpy(f->syslibs_hint, tk->lib_dir, sizeof(f->syslibs_hint));
		}
	}
out:
	gw__free(dyn);
	gw__free(rpath);
	gw__free(runpath);
	gw__free(wheels);
}

static bool relies_on_system(const gw_probe_framework *f)
{
	return f->primary && f->gpu == GW_FW_GPU_CUDA && !f->bundles_cuda && GW_VERSION_KNOWN(f->cuda);
}

int gw__probe_loader(gw_probe_ctx *c)
{
	gw_probe_report *r = c->r;
	bool needed = r->ntoolkits > 0;
	loader *L;

	for (size_t e = 0; e < r->nenvs && !needed; e++)
		for (size_t i = 0; i < r->envs[e].nfw && !needed; i++)
			needed = relies_on_system(&r->envs[e].fw[i]);
	if (!needed)
		return 0;   /* nothing to judge: the cache is not even read */
	if (!(L = gw__calloc(1, sizeof(*L))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	loader_init(c, L);
	for (size_t i = 0; i < r->ntoolkits; i++)
		probe_toolkit(c, L, &r->toolkits[i]);
	for (size_t e = 0; e < r->nenvs; e++)
		for (size_t i = 0; i < r->envs[e].nfw; i++)
			if (relies_on_system(&r->envs[e].fw[i]))
				probe_framework(c, L, &r->envs[e], &r->envs[e].fw[i]);
	gw__free(L);
	return 0;
}
