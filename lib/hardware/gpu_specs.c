/* The GPU spec table (data/gpu_specs.tsv, a source per row): GPUs by name,
 * without a machine, for advise's targets and --hardware ranking and for
 * bench's datasheet peaks. A module of its own so that bench does not
 * depend on advise for it. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "core/error.h"
#include "gpuwise/advise.h"

#define GW_GEN_TABLE_ROWS
#include "gpu_specs.h"

/* Lower case without spaces, dashes or underscores: "RTX 4090" = "rtx4090". */
static void squeeze(const char *in, char *out, size_t n)
{
	size_t k = 0;

	for (; *in && k + 1 < n; in++)
		if (*in != ' ' && *in != '-' && *in != '_')
			out[k++] = (char)tolower((unsigned char)*in);
	out[k] = '\0';
}

/* "312" or "19.5" TFLOPS → FLOP/s; "-" (not supported) → 0. Parsed by
 * hand: strtod would follow the process's LC_NUMERIC. */
static double tflops(const char *s)
{
	double v = 0, scale = 1;
	bool frac = false, digits = false;

	for (; *s; s++) {
		if (*s == '.' && !frac) {
			frac = true;
		} else if (*s >= '0' && *s <= '9') {
			digits = true;
			if (frac)
				v += (*s - '0') * (scale /= 10);
			else
				v = v * 10 + (*s - '0');
		} else {
			return 0;
		}
	}
	return digits ? v * 1e12 : 0;
}

int gw_gpu_spec_at(size_t i, gw_gpu_spec *out)
{
	const gw_row_gpu_specs *r;
	unsigned major = 0, minor = 0;

	if (!out)
		return gw__error_set(GW_EINVAL, "no output");
	if (i >= GW_ROWS_GPU_SPECS_COUNT)
		return gw__error_set(GW_ENOTFOUND, "no GPU spec row %zu", i);
	r = &gw_rows_gpu_specs[i];
	memset(out, 0, sizeof(*out));
	major = (unsigned)strtoul(r->cc, NULL, 10);
	if (strchr(r->cc, '.'))
		minor = (unsigned)strtoul(strchr(r->cc, '.') + 1, NULL, 10);
	out->name = r->name;
	out->memory_bytes = (uint64_t)r->memory_mib << 20;
	out->cc_major = major;
	out->cc_minor = minor;
	out->bandwidth_bytes_per_s = (uint64_t)r->bandwidth_gbs * 1000000000ull;
	out->fp32_flops = tflops(r->fp32_tflops);
	out->tf32_flops = tflops(r->tf32_tflops);
	out->fp16_flops = tflops(r->fp16_tflops);
	out->bf16_flops = tflops(r->bf16_tflops);
	out->fp8_flops = tflops(r->fp8_tflops);
	out->source = r->source;
	return 0;
}

size_t gw_gpu_spec_count(void)
{
	return GW_ROWS_GPU_SPECS_COUNT;
}

/* A whole number of the table, digits only; "-" (no source) and anything
 * else read as 0, unknown (tests/unit/test_advise.c checks every row). */
static uint64_t table_u64(const char *s)
{
	uint64_t v = 0;

	if (!s || !*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	return v;
}

/* The table's row of s, by name: gw_gpu_spec has no room for the new
 * columns (callers allocate it, docs/abi.md), so they are looked up. */
static const gw_row_gpu_specs *spec_row(const gw_gpu_spec *s)
{
	if (!s || !s->name)
		return NULL;
	for (size_t i = 0; i < GW_ROWS_GPU_SPECS_COUNT; i++)
		if (gw_rows_gpu_specs[i].name == s->name || !strcmp(gw_rows_gpu_specs[i].name, s->name))
			return &gw_rows_gpu_specs[i];
	return NULL;
}

uint64_t gw_gpu_spec_usable_bytes(const gw_gpu_spec *s)
{
	const gw_row_gpu_specs *r = spec_row(s);
	uint64_t cuda = r ? table_u64(r->cuda_total_bytes) : 0;

	if (!s)
		return 0;
	return cuda ? cuda : s->memory_bytes;
}

uint64_t gw_gpu_spec_reserved_bytes(const gw_gpu_spec *s)
{
	const gw_row_gpu_specs *r = spec_row(s);

	return r ? table_u64(r->reserved_mib) << 20 : 0;
}

double gw_gpu_spec_fp64_flops(const gw_gpu_spec *s)
{
	const gw_row_gpu_specs *r = spec_row(s);

	return r ? tflops(r->fp64_tflops) : 0;
}

static bool spec_matches(const gw_row_gpu_specs *r, const char *want)
{
	char buf[128], word[64];
	const char *s = r->match;

	squeeze(r->name, buf, sizeof(buf));
	if (!strcmp(buf, want))
		return true;
	while (*s) {
		size_t n = strcspn(s, " ");
		if (n && n < sizeof(word)) {
			memcpy(word, s, n);
			word[n] = '\0';
			squeeze(word, buf, sizeof(buf));
			if (!strcmp(buf, want))
				return true;
		}
		s += n;
		s += strspn(s, " ");
	}
	return false;
}

/* name past the brand words NVML and nvidia-smi put before the model
 * ("NVIDIA GeForce RTX 4090", "Tesla P100-PCIE-16GB"), which the table's
 * spellings leave out. */
static const char *skip_brands(const char *name)
{
	static const char *const brands[] = { "NVIDIA ", "Tesla ", "GeForce ", "Quadro " };
	bool again = true;

	while (again) {
		again = false;
		name += strspn(name, " ");
		for (size_t i = 0; i < GW_ARRAY_SIZE(brands); i++) {
			if (strncasecmp(name, brands[i], strlen(brands[i])) == 0) {
				name += strlen(brands[i]);
				again = true;
			}
		}
	}
	return name;
}

int gw_gpu_spec_find(const char *name, gw_gpu_spec *out)
{
	char want[128], shown[64] = "";

	if (!name || !out)
		return gw__error_set(GW_EINVAL, "no GPU name");
	squeeze(skip_brands(name), want, sizeof(want));
	for (size_t i = 0; *want && i < GW_ROWS_GPU_SPECS_COUNT; i++)
		if (spec_matches(&gw_rows_gpu_specs[i], want))
			return gw_gpu_spec_at(i, out);
	gw__copy_printable(shown, sizeof(shown), name, strlen(name));
	return gw__error_set(GW_ENOTFOUND, "no GPU \"%s\" in the spec table", shown);
}
