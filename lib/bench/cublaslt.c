/* Finding and loading cuBLASLt for bench's GEMM tests (see cublaslt.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "bench/cublaslt.h"

struct entry {
	size_t offset;
	const char *name;
};

#define E(field, name) { offsetof(gw__blaslt, field), name }
static const struct entry entries[] = {
	E(create, "cublasLtCreate"), E(destroy, "cublasLtDestroy"),
	E(desc_create, "cublasLtMatmulDescCreate"), E(desc_destroy, "cublasLtMatmulDescDestroy"),
	E(desc_set, "cublasLtMatmulDescSetAttribute"),
	E(layout_create, "cublasLtMatrixLayoutCreate"), E(layout_destroy, "cublasLtMatrixLayoutDestroy"),
	E(pref_create, "cublasLtMatmulPreferenceCreate"), E(pref_destroy, "cublasLtMatmulPreferenceDestroy"),
	E(pref_set, "cublasLtMatmulPreferenceSetAttribute"), E(heuristic, "cublasLtMatmulAlgoGetHeuristic"),
	E(matmul, "cublasLtMatmul"), E(status_name, "cublasLtGetStatusName"),
};
#undef E

static const char *const sonames[] = { "libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so.11" };

const char *gw__blaslt_status(const gw__blaslt *lt, int status, char *buf, size_t n)
{
	const char *name = lt && lt->status_name ? lt->status_name(status) : NULL;

	if (name && *name)
		gw__strlcpy(buf, name, n);
	else
		snprintf(buf, n, "cuBLAS status %d", status);
	return buf;
}

/* Every entry, or the first one missing. */
static const char *resolve(gw__blaslt *lt)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(entries); i++) {
		void *p = gw__dlsym(lt->lib, entries[i].name);

		if (!p)
			return entries[i].name;
		memcpy((char *)lt + entries[i].offset, &p, sizeof(p));
	}
	return NULL;
}

static bool try_load(gw__blaslt *lt, const char *name)
{
	if (!(lt->lib = gw__dlopen(name)))
		return false;
	gw__strlcpy(lt->name, name, sizeof(lt->name));
	return true;
}

/* The pip wheels under prefix/lib/python3.X/site-packages. */
static bool try_wheels(gw__blaslt *lt, const char *prefix)
{
	static const char *const inside[] = { "nvidia/cu13/lib/libcublasLt.so.13", "nvidia/cublas/lib/libcublasLt.so.13",
					      "nvidia/cublas/lib/libcublasLt.so.12" };
	char dir[GW_PATH_MAX], path[GW_PATH_MAX];
	char **names = NULL;
	size_t n = 0;
	bool found = false;

	if (!prefix || !*prefix || !gw__fmt(dir, sizeof(dir), "%s/lib", prefix))
		return false;
	if (gw__dir_list_match("/", dir, "python3", 16, &names, &n) < 0)
		return false;
	for (size_t i = 0; i < n && !found; i++)
		for (size_t k = 0; k < GW_ARRAY_SIZE(inside) && !found; k++)
			if (gw__fmt(path, sizeof(path), "%s/%s/site-packages/%s", dir, names[i], inside[k]) &&
			    gw__path_exists("/", path))
				found = try_load(lt, path);
	gw__dir_list_free(names, n);
	return found;
}

static bool find(gw__blaslt *lt)
{
	static const char *const dirs[] = { "/usr/local/cuda/lib64", "/usr/local/cuda/lib" };
	char path[GW_PATH_MAX];

	for (size_t i = 0; i < GW_ARRAY_SIZE(sonames); i++)
		if (try_load(lt, sonames[i]))
			return true;
	for (size_t d = 0; d < GW_ARRAY_SIZE(dirs); d++)
		for (size_t i = 0; i < GW_ARRAY_SIZE(sonames); i++)
			if (gw__fmt(path, sizeof(path), "%s/%s", dirs[d], sonames[i]) && gw__path_exists("/", path) &&
			    try_load(lt, path))
				return true;
	return try_wheels(lt, gw__env_path("VIRTUAL_ENV")) || try_wheels(lt, gw__env_path("CONDA_PREFIX"));
}

int gw__blaslt_open(gw__blaslt *lt)
{
	const char *env = gw__env_path("GPUWISE_CUBLASLT_LIBRARY"), *missing;

	memset(lt, 0, sizeof(*lt));
	if (env && *env ? !try_load(lt, env) : !find(lt))
		return gw__error_set(GW_ELIBRARY, "cuBLASLt not found (%s; the CUDA toolkit or pip nvidia-cublas-cu12 has it)",
				     env && *env ? env : "libcublasLt.so.13/.12/.11");
	if ((missing = resolve(lt))) {
		int rc = gw__error_set(GW_ELIBRARY, "%s has no %s", lt->name, missing);

		gw__blaslt_close(lt);
		return rc;
	}
	return 0;
}

void gw__blaslt_close(gw__blaslt *lt)
{
	if (lt && lt->lib)
		gw__dlclose(lt->lib);
	if (lt)
		memset(lt, 0, sizeof(*lt));
}
