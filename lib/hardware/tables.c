/* Lookups over the tables compiled from data/ (TSV) (scripts/gen-table).
 * The facts live in the TSV files, each row with its source; this file
 * only knows how to search them. See docs/doctor-data.md. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "gpuwise/metrics.h"
#include "hardware/tables.h"

#define GW_GEN_TABLE_ROWS
#include "cuda_toolkit_driver.h"
#include "cuda_minor_compat.h"
#include "driver_cuda.h"
#include "torch_cuda_arch.h"
#include "torch_rocm_arch.h"
#include "tensorflow_cuda.h"
#include "jax_cuda.h"
#include "nvidia_gpus.h"
#include "amd_gfx.h"
#include "amd_gpus.h"
#include "xid.h"
#include "sonames.h"
#include "cuda_toolkit_arch.h"

void gw__dist_normalize(const char *in, char *out, size_t outsz)
{
	size_t n = 0;
	bool sep = false;

	if (!outsz)
		return;
	for (; *in && n + 1 < outsz; in++) {
		if (*in == '-' || *in == '_' || *in == '.') {
			sep = true;
			continue;
		}
		if (sep && n > 0 && n + 2 < outsz)
			out[n++] = '-';
		sep = false;
		out[n++] = (char)tolower((unsigned char)*in);
	}
	out[n] = '\0';
}

static bool parse_ok(const char *s, gw_ver *v)
{
	return gw__version_parse(s, v) == 0;
}

int gw__tbl_driver_max_cuda(const gw_ver *driver, gw_ver *cuda)
{
	const gw_row_driver_cuda *best = NULL;

	if (!GW_VERSION_KNOWN(*driver))
		return GW_ENOTFOUND;
	/* Rows are in ascending branch order; the last branch ≤ the driver's. */
	for (size_t i = 0; i < GW_ROWS_DRIVER_CUDA_COUNT; i++)
		if (gw_rows_driver_cuda[i].branch <= driver->part[0])
			best = &gw_rows_driver_cuda[i];
	if (!best)
		return GW_ENOTFOUND;
	return parse_ok(best->cuda, cuda) ? 0 : GW_EPARSE;
}

const gw_row_cuda_toolkit_driver *gw__tbl_toolkit_driver(const gw_ver *cuda)
{
	const gw_row_cuda_toolkit_driver *best = NULL;
	/* version.json gives the release ("12.4.1" = Update 1); component
	 * versions such as nvcc's "13.0.88" are not update numbers: use GA. */
	unsigned update = cuda->nparts >= 3 && cuda->part[2] < 10 ? cuda->part[2] : 0;

	if (cuda->nparts < 2)
		return NULL;
	for (size_t i = 0; i < GW_ROWS_CUDA_TOOLKIT_DRIVER_COUNT; i++) {
		const gw_row_cuda_toolkit_driver *r = &gw_rows_cuda_toolkit_driver[i];
		gw_ver t;

		if (!parse_ok(r->toolkit, &t) || t.part[0] != cuda->part[0] || t.part[1] != cuda->part[1])
			continue;
		if (r->update <= update && (!best || r->update >= best->update))
			best = r;
	}
	return best;
}

int gw__tbl_cuda_min_driver(const gw_ver *cuda, gw_ver *driver)
{
	const gw_row_cuda_toolkit_driver *own;

	if (cuda->nparts < 1)
		return GW_ENOTFOUND;
	for (size_t i = 0; i < GW_ROWS_CUDA_MINOR_COMPAT_COUNT; i++) {
		const gw_row_cuda_minor_compat *r = &gw_rows_cuda_minor_compat[i];

		if (r->cuda_major == cuda->part[0] && (cuda->nparts < 2 || cuda->part[1] >= r->first_minor))
			return parse_ok(r->min_driver, driver) ? 0 : GW_EPARSE;
	}
	/* Before minor-version compatibility: the toolkit's own driver. */
	own = gw__tbl_toolkit_driver(cuda);
	if (!own)
		return GW_ENOTFOUND;
	return parse_ok(own->min_driver, driver) ? 0 : GW_EPARSE;
}

bool gw__tbl_driver_runs_cuda(const gw_ver *driver, const gw_ver *cuda)
{
	gw_ver need;

	if (gw__tbl_cuda_min_driver(cuda, &need) < 0 || !GW_VERSION_KNOWN(*driver))
		return false;
	return gw__version_cmp(driver, &need) >= 0;
}

/* major.minor of a torch version, compared against "2.7" style bounds. */
static int cmp_major_minor(const gw_ver *v, const char *bound)
{
	gw_ver b;
	gw_ver mm = *v;

	if (!parse_ok(bound, &b))
		return 0;
	mm.nparts = mm.nparts > 2 ? 2 : mm.nparts;
	return gw__version_cmp(&mm, &b);
}

const gw_row_torch_cuda_arch *gw__tbl_torch_cuda_arch(const gw_ver *torch, const char *variant)
{
	const gw_row_torch_cuda_arch *last = NULL;

	if (!variant || !GW_VERSION_KNOWN(*torch))
		return NULL;
	for (size_t i = 0; i < GW_ROWS_TORCH_CUDA_ARCH_COUNT; i++) {
		const gw_row_torch_cuda_arch *r = &gw_rows_torch_cuda_arch[i];

		if (strcmp(r->variant, variant))
			continue;
		if (cmp_major_minor(torch, r->torch_min) >= 0 && cmp_major_minor(torch, r->torch_max) <= 0)
			return r;
		last = r;
	}
	/* A torch newer than the table: the variant's latest row is the best guess. */
	if (last && cmp_major_minor(torch, last->torch_max) > 0)
		return last;
	return NULL;
}

const gw_row_torch_rocm_arch *gw__tbl_torch_rocm_arch(const char *variant)
{
	const gw_row_torch_rocm_arch *best = NULL;
	size_t best_len = 0;

	if (!variant)
		return NULL;
	for (size_t i = 0; i < GW_ROWS_TORCH_ROCM_ARCH_COUNT; i++) {
		const gw_row_torch_rocm_arch *r = &gw_rows_torch_rocm_arch[i];
		size_t n = strlen(r->variant_prefix);

		/* "rocm6.1" must not match "rocm6.10": the next char ends the number. */
		if (strncmp(variant, r->variant_prefix, n) || isdigit((unsigned char)variant[n]))
			continue;
		if (n > best_len) {
			best = r;
			best_len = n;
		}
	}
	return best;
}

const gw_row_tensorflow_cuda *gw__tbl_tensorflow_cuda(const gw_ver *tf)
{
	for (size_t i = 0; i < GW_ROWS_TENSORFLOW_CUDA_COUNT; i++)
		if (cmp_major_minor(tf, gw_rows_tensorflow_cuda[i].tensorflow) == 0 && tf->nparts >= 2)
			return &gw_rows_tensorflow_cuda[i];
	return NULL;
}

const gw_row_jax_cuda *gw__tbl_jax_cuda(const char *dist)
{
	char norm[64];

	if (!dist)
		return NULL;
	gw__dist_normalize(dist, norm, sizeof(norm));
	for (size_t i = 0; i < GW_ROWS_JAX_CUDA_COUNT; i++)
		if (!strcmp(gw_rows_jax_cuda[i].dist, norm) || !strcmp(gw_rows_jax_cuda[i].dist, dist))
			return &gw_rows_jax_cuda[i];
	return NULL;
}

const gw_row_nvidia_gpus *gw__tbl_nvidia_gpu_by_id(unsigned device_id)
{
	for (size_t i = 0; i < GW_ROWS_NVIDIA_GPUS_COUNT; i++) {
		uint64_t id;

		if (gw__parse_u64(gw_rows_nvidia_gpus[i].pci_id, &id) == 0 && id == device_id)
			return &gw_rows_nvidia_gpus[i];
	}
	return NULL;
}

/* Where needle, compared without case, ends when it starts at p, or NULL:
 * a space in needle matches any run of spaces and dashes in p, or none
 * ("RTX 5090 D" in "RTX 5090D", "RTX-4090", "RTX4090"). */
static const char *match_spaced_ci(const char *p, const char *needle)
{
	for (; *needle; needle++) {
		if (*needle == ' ') {
			while (*p == ' ' || *p == '-')
				p++;
			continue;
		}
		if (tolower((unsigned char)*p) != tolower((unsigned char)*needle))
			return NULL;
		p++;
	}
	return p;
}

static bool contains_word_ci(const char *hay, const char *needle)
{
	for (const char *p = hay; *p; p++) {
		const char *end = match_spaced_ci(p, needle);

		/* Whole words only: "A10" must not match "A100", "L4" not "L40S". */
		if (end && (p == hay || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)*end))
			return true;
	}
	return false;
}

const gw_row_nvidia_gpus *gw__tbl_nvidia_gpu_by_name(const char *name)
{
	const gw_row_nvidia_gpus *best = NULL;
	size_t best_len = 0;

	if (!name)
		return NULL;
	for (size_t i = 0; i < GW_ROWS_NVIDIA_GPUS_COUNT; i++) {
		const gw_row_nvidia_gpus *r = &gw_rows_nvidia_gpus[i];
		size_t n = strlen(r->match);

		if (n > best_len && contains_word_ci(name, r->match)) {
			best = r;
			best_len = n;
		}
	}
	return best;
}

int gw__tbl_cc(const char *cc, unsigned *major, unsigned *minor)
{
	gw_ver v;

	if (!cc || !parse_ok(cc, &v) || v.nparts != 2)
		return GW_EPARSE;
	*major = v.part[0];
	*minor = v.part[1];
	return 0;
}

const gw_row_cuda_toolkit_arch *gw__tbl_toolkit_arch(const char *target)
{
	char want[16];
	size_t skip, n;

	if (!target)
		return NULL;
	skip = !strncmp(target, "sm_", 3) ? 3 : !strncmp(target, "compute_", 8) ? 8 : 0;
	if (!skip)
		return NULL;
	for (n = 0; isdigit((unsigned char)target[skip + n]) && n < 4; n++)
		;
	if (n < 2 || n > 3)
		return NULL;
	gw__fmt(want, sizeof(want), "sm_%.*s", (int)n, target + skip);
	for (size_t i = 0; i < GW_ROWS_CUDA_TOOLKIT_ARCH_COUNT; i++)
		if (!strcmp(gw_rows_cuda_toolkit_arch[i].target, want))
			return &gw_rows_cuda_toolkit_arch[i];
	return NULL;
}

const gw_row_amd_gfx *gw__tbl_amd_gfx(const char *gfx)
{
	if (!gfx)
		return NULL;
	for (size_t i = 0; i < GW_ROWS_AMD_GFX_COUNT; i++)
		if (!strcasecmp(gw_rows_amd_gfx[i].gfx, gfx))
			return &gw_rows_amd_gfx[i];
	return NULL;
}

const char *gw__tbl_amd_gpu_name(unsigned device_id, int revision)
{
	const char *only = NULL;
	bool unanimous = true;

	for (size_t i = 0; i < GW_ROWS_AMD_GPUS_COUNT; i++) {
		const gw_row_amd_gpus *r = &gw_rows_amd_gpus[i];
		uint64_t id, rev;

		if (gw__parse_u64(r->pci_id, &id) < 0 || id != device_id)
			continue;
		if (revision >= 0 && gw__parse_u64(r->revision, &rev) == 0 && rev == (uint64_t)revision)
			return r->name;
		if (only && strcmp(only, r->name))
			unanimous = false;
		only = r->name;
	}
	/* Another revision of a chip is named only when every card of it has
	 * the same name (0x74a1: always MI300X; 0x744c: XTX, XT, GRE or M). */
	return unanimous ? only : NULL;
}

const gw_row_xid *gw__tbl_xid(unsigned xid)
{
	for (size_t i = 0; i < GW_ROWS_XID_COUNT; i++)
		if (gw_rows_xid[i].xid == xid)
			return &gw_rows_xid[i];
	return NULL;
}

/* The public face of the Xid table (include/gpuwise/metrics.h). */
const char *gw_xid_meaning(unsigned long long xid)
{
	const gw_row_xid *row = xid <= UINT32_MAX ? gw__tbl_xid((unsigned)xid) : NULL;

	return row ? row->meaning : NULL;
}

/* Does the table's name pat ("libcudnn*.so.8", lower case, '*' any run of
 * letters, digits, '_' and '-') match name[0..len) whole, or its start with
 * a '.' after it ("libcudnn.so.8.9.7")? Case-insensitive. */
static bool soname_matches(const char *pat, const char *name, size_t len)
{
	size_t i = 0;

	for (; *pat; pat++) {
		if (*pat == '*') {
			/* The rest of the pattern must match after the run: try
			 * every run length, shortest first (names are short). */
			for (size_t k = i; k <= len; k++) {
				if (soname_matches(pat + 1, name + k, len - k))
					return true;
				if (k < len && !(isalnum((unsigned char)name[k]) || name[k] == '_' || name[k] == '-'))
					break;
			}
			return false;
		}
		if (i >= len || tolower((unsigned char)name[i]) != *pat)
			return false;
		i++;
	}
	return i == len || name[i] == '.';
}

const gw_row_sonames *gw__tbl_soname(const char *name, size_t len)
{
	const gw_row_sonames *best = NULL;

	for (size_t i = 0; i < GW_ROWS_SONAMES_COUNT; i++) {
		const gw_row_sonames *r = &gw_rows_sonames[i];

		if (soname_matches(r->name, name, len) && (!best || strlen(r->name) > strlen(best->name)))
			best = r;
	}
	return best;
}

size_t gw__tbl_soname_component_len(const gw_row_sonames *r)
{
	const char *paren = strstr(r->component, " (");

	return paren ? (size_t)(paren - r->component) : strlen(r->component);
}

const gw_row_sonames *gw__tbl_soname_component(const char *text, size_t len)
{
	const gw_row_sonames *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < GW_ROWS_SONAMES_COUNT; i++) {
		const gw_row_sonames *r = &gw_rows_sonames[i];
		size_t cl = gw__tbl_soname_component_len(r);
		const char *at = text + len - cl;

		if (cl == 0 || cl > len || strncasecmp(at, r->component, cl))
			continue;
		if (at > text && (isalnum((unsigned char)at[-1]) || at[-1] == '_' || at[-1] == '-'))
			continue;  /* "foocuDNN": not the component's name */
		if (!best || cl > best_len || (cl == best_len && strcmp(best->implies, "-") && !strcmp(r->implies, "-"))) {
			best = r;
			best_len = cl;
		}
	}
	return best;
}

/* Parse "sm_86" / "compute_90" / "sm_90a" into major.minor (minor one digit
 * since sm_100: "sm_120" = 12.0). */
static bool arch_token_cc(const char *tok, size_t len, const char *prefix, unsigned *major, unsigned *minor)
{
	size_t pl = strlen(prefix);
	unsigned v = 0;
	size_t i, digits = 0;

	if (len <= pl || strncmp(tok, prefix, pl))
		return false;
	for (i = pl; i < len && isdigit((unsigned char)tok[i]); i++, digits++)
		v = v * 10 + (unsigned)(tok[i] - '0');
	if (digits < 2 || digits > 3)
		return false;
	*major = v / 10;
	*minor = v % 10;
	return true;
}

static bool any_token(const char *list, const char *prefix, unsigned major, unsigned minor, bool ptx)
{
	const char *p = list;

	while (p && *p) {
		size_t n;
		unsigned ma, mi;

		while (*p == ' ' || *p == ',' || *p == ';' || *p == '\'' || *p == '"')
			p++;
		n = strcspn(p, " ,;'\"");
		if (n && arch_token_cc(p, n, prefix, &ma, &mi)) {
			if (ptx ? (ma < major || (ma == major && mi <= minor))
				: (ma == major && mi <= minor))
				return true;
		}
		p += n;
	}
	return false;
}

bool gw__cuda_archs_run(const char *archs, const char *ptx, unsigned major, unsigned minor)
{
	if (archs && any_token(archs, "sm_", major, minor, false))
		return true;
	/* build_info lists PTX as compute_XY among the archs too. */
	if (archs && any_token(archs, "compute_", major, minor, true))
		return true;
	return ptx && any_token(ptx, "compute_", major, minor, true);
}

bool gw__gfx_in_list(const char *list, const char *gfx)
{
	size_t gl;

	if (!list || !gfx || !(gl = strlen(gfx)))
		return false;
	for (const char *p = list; (p = strcasestr(p, gfx)); p += gl) {
		bool start = p == list || !isalnum((unsigned char)p[-1]);

		if (start && !isalnum((unsigned char)p[gl]))
			return true;
	}
	return false;
}

static void append_word(char *out, size_t outsz, const char *word, size_t n)
{
	size_t len = strlen(out);

	for (const char *p = out; (p = strstr(p, word)); p++)
		if ((p == out || p[-1] == ' ') && (p[n] == ' ' || !p[n]) && !strncmp(p, word, n))
			return;            /* already listed */
	if (len + n + 2 > outsz)
		return;
	if (len)
		out[len++] = ' ';
	memcpy(out + len, word, n);
	out[len + n] = '\0';
}

void gw__tbl_torch_builds_for(unsigned major, unsigned minor, const char *gfx, char *out, size_t outsz)
{
	if (!outsz)
		return;
	out[0] = '\0';
	if (gfx) {
		for (size_t i = 0; i < GW_ROWS_TORCH_ROCM_ARCH_COUNT; i++)
			if (gw__gfx_in_list(gw_rows_torch_rocm_arch[i].archs, gfx))
				append_word(out, outsz, gw_rows_torch_rocm_arch[i].variant_prefix,
					    strlen(gw_rows_torch_rocm_arch[i].variant_prefix));
		return;
	}
	/* PyTorch's own test, torch/cuda/__init__.py _check_cubins(): a wheel
	 * supports the GPU when it has a cubin of the GPU's major version. PTX
	 * alone (cu124's compute_90 on Blackwell) still draws the "not
	 * compatible" warning, and the wheel's cuBLAS and cuDNN have no kernels
	 * for the GPU, so it is no wheel to suggest. */
	for (size_t i = 0; i < GW_ROWS_TORCH_CUDA_ARCH_COUNT; i++) {
		const gw_row_torch_cuda_arch *r = &gw_rows_torch_cuda_arch[i];

		if (r->archs && any_token(r->archs, "sm_", major, minor, false))
			append_word(out, outsz, r->variant, strlen(r->variant));
	}
}
