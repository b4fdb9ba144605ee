/* gpuwise explain: the architecture rule. A line that names compute
 * capabilities or gfx targets gives the GPU's and the build's targets;
 * arch_conclude compares them. */
#include "explain/explain_int.h"

/* ---- the architecture rule -------------------------------------------- */

enum { SIDE_NONE, SIDE_GPU, SIDE_BUILD };

/* Which side a target is on, from the words between the previous target
 * (or the line's start) and this one: the last keyword wins; a threshold
 * ("> (8, 0)", ">= 7.0", "at least 8.0") is the build's; no keyword: as the
 * previous target (a list: "sm_50 sm_60"). PTX's ".target sm_89" is the GPU
 * a JIT compiler (Triton, XLA) generated code for: ptxas's "PTX .version 7.4
 * does not support .target sm_89" says the compiler is older than it. */
static int target_side(const char *gap, size_t n, int previous)
{
	static const struct { const char *word; int side; } keys[] = {
		{ "capability", SIDE_GPU }, { "gpu_type=", SIDE_GPU }, { "gpu=", SIDE_GPU }, { "your", SIDE_GPU },
		{ "device", SIDE_GPU }, { "detected", SIDE_GPU }, { "found", SIDE_GPU }, { "is of", SIDE_GPU },
		{ " has ", SIDE_GPU }, { "arch :", SIDE_GPU }, { "arch:", SIDE_GPU }, { "amdgpu [", SIDE_GPU },
		{ "arch <=", SIDE_GPU }, { ".target", SIDE_GPU }, { "run on", SIDE_GPU }, { "running on", SIDE_GPU },
		{ "compatible with cuda arch", SIDE_BUILD },
		{ "compatible with hip arch", SIDE_BUILD },
		{ "capabilities", SIDE_BUILD }, { "support", SIDE_BUILD }, { "built", SIDE_BUILD },
		{ "compiled", SIDE_BUILD }, { "compile time", SIDE_BUILD }, { "require", SIDE_BUILD }, { "minimum", SIDE_BUILD },
		{ "maximum", SIDE_BUILD }, { "only", SIDE_BUILD }, { "types", SIDE_BUILD }, { "targets", SIDE_BUILD },
		{ "list", SIDE_BUILD }, { ">", SIDE_BUILD }, { "at least", SIDE_BUILD }, { "available", SIDE_BUILD },
	};
	size_t tail = n, lo = n > 64 ? n - 64 : 0;

	while (tail > 0 && strchr(" \t'\"([{<=:,", gap[tail - 1]))
		tail--;
	if (tail >= 8 && literal_at(gap + tail - 8, "at least", 8))
		return SIDE_BUILD;
	/* From the end: the keyword that starts last, within 64 bytes. */
	for (size_t i = n; i-- > lo;) {
		uint8_t c = fold((uint8_t)gap[i]);

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if ((uint8_t)keys[k].word[0] == c && i + strlen(keys[k].word) <= n &&
			    literal_at(gap + i, keys[k].word, strlen(keys[k].word)))
				return keys[k].side;
	}
	return previous;
}

/* Does a minimum's wording follow a target ("Compute Capability 8.9 or
 * higher", "sm_80 or newer")? Then the target is the floor a program asks
 * for, whatever word came before it ("a GPU with Compute Capability 8.9":
 * "capability" names the GPU's side otherwise). */
static bool minimum_after(const char *s, size_t n)
{
	static const char *const words[] = { " or higher", " or newer", " or later", " or above" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (n >= strlen(words[i]) && literal_at(s, words[i], strlen(words[i])))
			return true;
	return false;
}

/* A GPU target at s (a word start): "sm_86", "sm_90a", "sm80",
 * "compute_90", "gfx1103". Writes its normal form ("sm_86", "compute_90",
 * "gfx1103") and returns its length in the line, or 0. */
size_t gw__explain_parse_target(const char *s, size_t n, char *out, size_t outsz)
{
	size_t i = 0, digits;
	const char *kind;

	if (n >= 3 && literal_at(s, "gfx", 3)) {
		for (i = 3; i < n && i < 8 && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
					       (s[i] >= 'A' && s[i] <= 'F')); i++)
			;
		if (i < 6 || (i < n && is_word_byte(s[i])) || !(s[3] >= '0' && s[3] <= '9'))
			return 0;
		snprintf(out, outsz, "gfx%.*s", (int)(i - 3), s + 3);
		for (char *c = out; *c; c++)
			*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
		return i;
	}
	if (n >= 8 && literal_at(s, "compute_", 8))
		kind = "compute_", i = 8;
	else if (n >= 3 && literal_at(s, "sm_", 3))
		kind = "sm_", i = 3;
	else if (n >= 2 && literal_at(s, "sm", 2))
		kind = "sm_", i = 2;
	else
		return 0;
	for (digits = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (digits < 2 || digits > 3)
		return 0;
	if (i < n && (s[i] == 'a' || s[i] == 'f') && !(i + 1 < n && is_word_byte(s[i + 1])))
		i++;
	else if (i < n && is_word_byte(s[i]))
		return 0;
	snprintf(out, outsz, "%s%.*s", kind, (int)digits, s + i - digits - (s[i - 1] == 'a' || s[i - 1] == 'f'));
	return i;
}

/* "capability 8.6", "capability (7, 5)", "capability of at least 8.0",
 * "capability supported by this library is 3.7": the first major.minor
 * within 48 bytes after the word, as "sm_86". Right after the word (only
 * blanks, ':' or '=' between), a capability may also be numbered as
 * CUDA_ARCHITECTURES numbers it, major * 10 + minor: tiny-cuda-nn's
 * "Could not find compatible tinycudann extension for compute capability
 * 70." (bindings/torch/tinycudann/modules.py prints
 * system_compute_capability = major * 10 + minor). With abbrev, s is just
 * past the abbreviation "compute cap" (text-embeddings-inference's
 * "Runtime compute cap 75 is not compatible with compile time compute cap
 * 80", backends/candle/src/lib.rs, numbers both so). Returns the offset
 * just past it (0: none) and its start in *num_at. */
static size_t parse_capability(const char *s, size_t n, bool abbrev, size_t *num_at, char *out, size_t outsz)
{
	for (size_t i = 0; i < n && i < 48; i++) {
		const char *p = s + i;
		size_t rest = n - i, k = 0;
		unsigned major = 0, minor;

		if (i > 0 && literal_at(p, "capabilit", rest >= 9 ? 9 : rest))
			return 0;
		if (!(p[0] >= '0' && p[0] <= '9') || (i > 0 && is_word_byte(p[-1])))
			continue;
		while (k < rest && k < 2 && p[k] >= '0' && p[k] <= '9')
			major = major * 10 + (unsigned)(p[k++] - '0');
		if (k + 1 < rest && (p[k] == '.' || p[k] == ',')) {
			size_t j = k + 1;
			while (j < rest && p[j] == ' ')
				j++;
			if (j < rest && p[j] >= '0' && p[j] <= '9' && !(j + 1 < rest && p[j + 1] >= '0' && p[j + 1] <= '9')) {
				minor = (unsigned)(p[j] - '0');
				snprintf(out, outsz, "sm_%u%u", major, minor);
				*num_at = i;
				return i + j + 1;
			}
			return 0;
		}
		if (k == 2 && k < rest && p[k] >= '0' && p[k] <= '9')
			major = major * 10 + (unsigned)(p[k++] - '0');
		if (k >= 2 && major >= 10 && major <= 129 && !(k < rest && (is_word_byte(p[k]) || p[k] == ',' ||
		    p[k] == '-' || (p[k] == '.' && k + 1 < rest && p[k + 1] >= '0' && p[k + 1] <= '9')))) {
			/* s is past "capabilit": skip the word's "y" or "ies". */
			size_t b = abbrev ? 0 : literal_at(s, "ies", n >= 3 ? 3 : n) ? 3 : literal_at(s, "y", 1) ? 1 : 0;
			bool adjacent = (abbrev || b > 0) && b < i;

			for (; adjacent && b < i; b++)
				adjacent = s[b] == ' ' || s[b] == ':' || s[b] == '=';
			if (adjacent) {
				gw__fmt(out, outsz, "sm_%u", major);
				*num_at = i;
				return i + k;
			}
		}
		return 0;
	}
	return 0;
}

/* A compute capability as a Python tuple, "(8, 6)" or "(8,6)", at s (its
 * "("), as "sm_86": spconv prints torch.cuda.get_device_capability() and
 * its build's list of them. Returns its length, or 0. */
static size_t parse_tuple(const char *s, size_t n, char *out, size_t outsz)
{
	size_t i = 1;
	unsigned major = 0, minor;

	if (n < 5 || s[0] != '(')
		return 0;
	while (i < n && i < 3 && s[i] >= '0' && s[i] <= '9')
		major = major * 10 + (unsigned)(s[i++] - '0');
	if (i == 1 || i >= n || s[i] != ',')
		return 0;
	for (i++; i < n && s[i] == ' '; i++)
		;
	if (i + 1 >= n || !(s[i] >= '0' && s[i] <= '9') || s[i + 1] != ')' || major < 1)
		return 0;
	minor = (unsigned)(s[i] - '0');
	gw__fmt(out, outsz, "sm_%u%u", major, minor);
	return i + 2;
}

/* ggml's numbered architectures: "no device code compatible with CUDA
 * arch 520. ggml-cuda.cu was compiled for: 600,610,700", "not compiled
 * with any CUDA arch <= 610" (major * 100 + minor * 10), "HIP arch 1030"
 * (gfx1030). A number counts only after "arch", after "compiled for" or
 * in a list that follows one (prev_end: the end of the last one). */
static size_t parse_arch_number(const char *line, size_t n, size_t i, size_t prev_end, char *out, size_t outsz)
{
	size_t k = i, j = i;
	unsigned v = 0;
	bool hip = false, ok = false;

	while (k < n && k - i < 5 && line[k] >= '0' && line[k] <= '9')
		v = v * 10 + (unsigned)(line[k++] - '0');
	if (k - i < 3 || k - i > 4 || (k < n && (is_word_byte(line[k]) ||
	    (line[k] == '.' && k + 1 < n && line[k + 1] >= '0' && line[k + 1] <= '9'))))
		return 0;
	while (j > 0 && line[j - 1] && strchr(" <=:", line[j - 1]))
		j--;
	if (j >= 4 && literal_at(line + j - 4, "arch", 4) && (j == 4 || !is_word_byte(line[j - 5]))) {
		ok = true;
		hip = j >= 8 && literal_at(line + j - 8, "hip ", 4);
	} else if (j >= 12 && literal_at(line + j - 12, "compiled for", 12)) {
		ok = true;
	} else if (prev_end && prev_end < i) {
		ok = true;
		for (size_t g = prev_end; g < i && ok; g++)
			ok = line[g] == ',' || line[g] == ';' || line[g] == ' ';
	}
	if (!ok)
		return 0;
	if (hip)
		gw__fmt(out, outsz, "gfx%u", v);
	else if (v % 10 == 0 && v >= 300 && v <= 1290)
		gw__fmt(out, outsz, "sm_%u", v / 10);
	else
		return 0;
	return k - i;
}

/* A compute capability numbered as CUDA_ARCHITECTURES numbers it (major *
 * 10 + minor: "30", "86", "120") right after the word "architecture", as
 * a program words its refusal of the GPU: rigel's "CUDA error:
 * architecture (30) is not supported" (rigelminer/rigel#106, a GTX 760).
 * Only on a line that names CUDA (tiny-cuda-nn's "FullyFusedMLP is not
 * supported for the selected architecture 60" names a build target, not a
 * failure), and not a word size ("architecture (64-bit)"). */
static size_t parse_cuda_arch_number(const char *line, size_t n, size_t i, char *out, size_t outsz)
{
	size_t k = i, j = i;
	unsigned v = 0;

	while (k < n && k - i < 4 && line[k] >= '0' && line[k] <= '9')
		v = v * 10 + (unsigned)(line[k++] - '0');
	if (k - i < 2 || k - i > 3 || v < 10 || v > 129 || (k < n && (is_word_byte(line[k]) || line[k] == '-' ||
	    line[k] == '.' || line[k] == ',')) || (k + 4 <= n && literal_at(line + k, " bit", 4)))
		return 0;
	while (j > 0 && (line[j - 1] == ' ' || line[j - 1] == '(' || line[j - 1] == ':' || line[j - 1] == '='))
		j--;
	if (j == i || j < 12 || !literal_at(line + j - 12, "architecture", 12))
		return 0;
	gw__fmt(out, outsz, "sm_%u", v);
	return k - i;
}

static bool target_cc(const char *t, unsigned *major, unsigned *minor);

/* PyTorch's SDPA checks (aten/src/ATen/native/transformers/cuda/
 * sdp_utils.cpp, check_flash_attention_hardware_support and the like)
 * print the GPU as "sm " << major << "." << minor: "Attempting to run on a
 * sm 7.5 gpu." At s ("sm "), as "sm_75"; returns its length, or 0. */
static size_t parse_sm_dotted(const char *s, size_t n, char *out, size_t outsz)
{
	size_t i = 3;
	unsigned major = 0;

	if (n < 6 || !literal_at(s, "sm ", 3))
		return 0;
	while (i < n && i < 5 && s[i] >= '0' && s[i] <= '9')
		major = major * 10 + (unsigned)(s[i++] - '0');
	if (i == 3 || i + 1 >= n || s[i] != '.' || !(s[i + 1] >= '0' && s[i + 1] <= '9') ||
	    (i + 2 < n && is_word_byte(s[i + 2])) || major < 1)
		return 0;
	gw__fmt(out, outsz, "sm_%u%c", major, s[i + 1]);
	return i + 2;
}

static void arch_add_build(gw_explain_arch *a, const char *t)
{
	size_t len = strlen(a->build), n = strlen(t);

	if (gw__gfx_in_list(a->build, t) || len + n + 2 > sizeof(a->build))
		return;
	for (const char *p = a->build; (p = strstr(p, t)); p++)
		if ((p == a->build || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return;
	if (len)
		a->build[len++] = ' ';
	memcpy(a->build + len, t, n + 1);
}

/* Read the targets on the line into the log's evidence; returns whether
 * the line named one. The GPU's first target and the first line's build
 * targets are kept (later lines only add to the same list). */
static bool read_targets(gw_explainer *ex)
{
	const char *line = ex->line;
	size_t n = ex->line_len, gap_start = 0, number_end = 0;
	int side = SIDE_NONE;
	bool any = false, build_line = false, build_done = ex->arch.build[0] != '\0';
	/* Bare numbers are targets only on ggml's lines, which say "CUDA arch". */
	bool numbered = gw__explain_line_has(line, n, "cuda arch") || gw__explain_line_has(line, n, "hip arch");
	/* Bare tuples are targets only on a line that gives the GPU's as one. */
	bool tupled = gw__explain_line_has(line, n, "arch (") || gw__explain_line_has(line, n, "capability (");
	/* CUDA_ARCHITECTURES-style numbers only on a line that names CUDA. */
	bool cuda_numbered = gw__explain_line_has(line, n, "architecture") && gw__explain_names_library(line, n, "cuda", true);

	ex->line_gpu[0] = '\0';
	ex->line_floor = 0;
	for (size_t i = 0; i < n; i++) {
		char t[16];
		size_t len = 0, at = i;

		if (i > 0 && is_word_byte(line[i - 1]))
			continue;
		if (!(len = gw__explain_parse_target(line + i, n - i, t, sizeof(t))) && i + 10 <= n &&
		    (literal_at(line + i, "capabilit", 9) || (i + 13 <= n && literal_at(line + i, "compute cap", 11) &&
		     line[i + 11] && strchr(" :=", line[i + 11])))) {
			bool abbrev = !literal_at(line + i, "capabilit", 9);
			size_t word = abbrev ? 11 : 9, num_at = 0;
			size_t past = parse_capability(line + i + word, n - i - word, abbrev, &num_at, t, sizeof(t));

			if (!past)
				continue;
			at = i + word + num_at;
			len = past - num_at;
		}
		if (!len && numbered && (len = parse_arch_number(line, n, i, number_end, t, sizeof(t))))
			number_end = i + len;
		if (!len && tupled)
			len = parse_tuple(line + i, n - i, t, sizeof(t));
		if (!len && cuda_numbered)
			len = parse_cuda_arch_number(line, n, i, t, sizeof(t));
		if (!len)
			len = parse_sm_dotted(line + i, n - i, t, sizeof(t));
		if (!len)
			continue;
		side = target_side(line + gap_start, at - gap_start, side);
		if (minimum_after(line + at + len, n - at - len))
			side = SIDE_BUILD;
		if (side == SIDE_BUILD) {
			unsigned ma, mi;

			if (!build_done) {
				arch_add_build(&ex->arch, t);
				build_line = true;
			}
			if (target_cc(t, &ma, &mi) && (!ex->line_floor || ma * 10 + mi < ex->line_floor))
				ex->line_floor = ma * 10 + mi;
		} else {
			if (!ex->arch.gpu[0])
				snprintf(ex->arch.gpu, sizeof(ex->arch.gpu), "%s", t);
			if (!ex->line_gpu[0])
				snprintf(ex->line_gpu, sizeof(ex->line_gpu), "%s", t);
		}
		any = true;
		gap_start = at + len;
		i = at + len - 1;
	}
	(void)build_line;
	return any;
}

/* Does the line say something failed or is unsupported? A target next to
 * "requires" or "built for" alone is a description, not an error. */
static bool says_unsupported(const char *line, size_t len)
{
	static const char *const words[] = {
		"not supported", "not compatible", "unsupported", "no kernel", "too old", "only support",
		"error", "fail", "no binary", "invalid device", "not built", "not compiled", "no device code",
		"does not support", "fatal", "could not find compatible",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (gw__explain_line_has(line, len, words[i]))
			return true;
	return false;
}

/* The kernel libraries and attention kernels whose own checks refuse a GPU
 * below their minimum architecture, by the words their messages name them
 * with: PyTorch's SDPA ("Flash attention only supports gpu architectures in
 * the range [sm80, sm90]. Attempting to run on a sm 7.5 gpu.", "Mem
 * Efficient Attention only supports ...": sdp_utils.cpp), vLLM's attention
 * backends ("FP8 KV cache is not supported by the Triton attention backend
 * on %s (compute capability %s); native FP8 (fp8e4nv) requires SM89+.":
 * vllm/v1/attention/backends/triton_attn.py, mla/triton_mla.py), the
 * FlashAttention and FlashInfer, xFormers, CUTLASS, Marlin and Triton
 * kernels; and the data types whose arithmetic only newer GPUs have, so
 * that a minimum named for them is the hardware's: bfloat16 (compute
 * capability 8.0, torch.cuda.is_bf16_supported()) and fp8 (8.9: "FP8
 * models require a GPU with Compute Capability 8.9 or higher", 1038lab's
 * ComfyUI nodes; torch._scaled_mm's ">= 9.0 or 8.9", ATen's Blas.cpp).
 * Not a build's word ("kernel image", "compiled for"): a build that lacks
 * an old target is gpu-arch-unsupported-by-framework. */
static const char *const kernel_words[] = {
	"attention", "flash", "xformers", "cutlass", "marlin", "triton",
	"fp8", "float8", "bfloat16", "bf16",
};

/* A kernel's hardware floor, not a build's list: the line names a kernel
 * library or attention kernel (kernel_words), and the GPU the line names
 * is older than every target the line names for the kernel (its minimum:
 * "requires SM89+", "the range [sm80, sm90]"). A GPU newer than the range
 * ("[sm80, sm90]" on a sm 12.0 gpu) is a build that predates it. */
/* Does a target on the line carry a minimum's wording ("sm75 or higher",
 * "sm_80 or newer": minimum_after)? */
static bool line_names_minimum(const char *line, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char t[16];
		size_t len;

		if (i > 0 && is_word_byte(line[i - 1]))
			continue;
		if (!(len = gw__explain_parse_target(line + i, n - i, t, sizeof(t))))
			len = parse_sm_dotted(line + i, n - i, t, sizeof(t));
		if (len && minimum_after(line + i + len, n - i - len))
			return true;
	}
	return false;
}

/* A kernel's floor is the hardware's also when the line names no GPU but
 * words its target as a minimum: vLLM's FlashInfer check, "FlashInfer
 * requires GPUs with sm75 or higher" (vllm/platforms/cuda.py; holdout-45,
 * odysseus#207), is a kernel library's minimum, not a build's list. */
static bool kernel_floor(const gw_explainer *ex)
{
	unsigned major, minor;
	bool named = false;

	if (!ex->line_floor)
		return false;
	if (!ex->line_gpu[0]) {
		if (!line_names_minimum(ex->line, ex->line_len))
			return false;
	} else if (!target_cc(ex->line_gpu, &major, &minor) || major * 10 + minor >= ex->line_floor)
		return false;
	for (size_t i = 0; i < sizeof(kernel_words) / sizeof(kernel_words[0]) && !named; i++)
		named = gw__explain_names_library(ex->line, ex->line_len, kernel_words[i], true);
	return named;
}

/* A phrase of an architecture mismatch is on the line: read the targets,
 * and when no other row explained the line and it says something is not
 * supported, name the mismatch (unless the log's GPU is in the build). */
void gw__explain_arch_rule(gw_explainer *ex, size_t start, bool had_nul)
{
	int d;

	/* ggml's kernel says itself that it has no code for the arch it
	 * runs as (a build for an older target than its features need). */
	bool no_code = gw__explain_line_has(ex->line, ex->line_len, "no device code compatible");

	if (!read_targets(ex) || ex->line_matched || !says_unsupported(ex->line, ex->line_len) ||
	    (!no_code && ex->arch.gpu[0] && ex->arch.build[0] && gw_explain_arch_runs(&ex->arch, ex->arch.gpu) == 1))
		return;
	d = gw__explain_doc_index(!strncmp(ex->arch.gpu, "gfx", 3) || !strncmp(ex->arch.build, "gfx", 3)
		      ? "rocm-gfx-unsupported" : kernel_floor(ex) ? "gpu-too-old-for-kernel-library"
		      : "gpu-arch-unsupported-by-framework");
	if (d >= 0)
		gw__explain_record_match(ex, (unsigned)d, "arch", -1, start, had_nul);
	if (d >= 0 && gw__explain_line_has(ex->line, ex->line_len, ".target"))
		ex->compiler_evidence = true;
}

static bool target_cc(const char *t, unsigned *major, unsigned *minor)
{
	size_t skip = !strncmp(t, "sm_", 3) ? 3 : !strncmp(t, "compute_", 8) ? 8 : 0;
	unsigned v = 0;
	size_t digits = 0;

	if (!skip)
		return false;
	for (t += skip; *t >= '0' && *t <= '9'; t++, digits++)
		v = v * 10 + (unsigned)(*t - '0');
	if (digits < 2)
		return false;
	*major = v / 10;
	*minor = v % 10;
	return true;
}

int gw_explain_arch_runs(const gw_explain_arch *a, const char *target)
{
	unsigned major, minor;

	if (!a || !target || !a->build[0])
		return -1;
	if (!strncmp(target, "gfx", 3))
		return gw__gfx_in_list(a->build, target) ? 1 : 0;
	if (!target_cc(target, &major, &minor))
		return -1;
	return gw__cuda_archs_run(a->build, NULL, major, minor) ? 1 : 0;
}

/* The verdict and the PyTorch builds, once the whole log was read. */
void gw__explain_arch_conclude(gw_explain_arch *a)
{
	unsigned major, minor, lo = 999, hi = 0;
	bool gfx = !strncmp(a->gpu, "gfx", 3);

	a->verdict = GW_ARCH_UNKNOWN;
	a->torch_builds[0] = '\0';
	a->target_first[0] = a->target_dropped[0] = '\0';
	if (a->target[0]) {
		const gw_row_cuda_toolkit_arch *row = gw__tbl_toolkit_arch(a->target);

		if (row) {
			gw__fmt(a->target_first, sizeof(a->target_first), "%s", row->first);
			gw__fmt(a->target_dropped, sizeof(a->target_dropped), "%s", row->dropped);
		}
	}
	if (!a->gpu[0])
		return;
	if (gfx)
		gw__tbl_torch_builds_for(0, 0, a->gpu, a->torch_builds, sizeof(a->torch_builds));
	else if (target_cc(a->gpu, &major, &minor))
		gw__tbl_torch_builds_for(major, minor, NULL, a->torch_builds, sizeof(a->torch_builds));
	if (!a->build[0])
		return;
	if (gw_explain_arch_runs(a, a->gpu) == 1) {
		a->verdict = GW_ARCH_IN_BUILD;
		return;
	}
	a->verdict = GW_ARCH_NOT_IN_BUILD;
	if (gfx || !target_cc(a->gpu, &major, &minor))
		return;
	for (const char *p = a->build; *p;) {
		unsigned ma, mi;
		char t[16];
		size_t k = strcspn(p, " ");

		snprintf(t, sizeof(t), "%.*s", (int)(k < 15 ? k : 15), p);
		if (target_cc(t, &ma, &mi)) {
			lo = ma * 10 + mi < lo ? ma * 10 + mi : lo;
			hi = ma * 10 + mi > hi ? ma * 10 + mi : hi;
		}
		p += k;
		while (*p == ' ')
			p++;
	}
	if (hi && major * 10 + minor > hi)
		a->verdict = GW_ARCH_GPU_NEWER;
	else if (hi && major * 10 + minor < lo)
		a->verdict = GW_ARCH_GPU_OLDER;
}

/* A line that names an NVIDIA GPU model ("NVIDIA GeForce RTX 5090",
 * "Tesla T4"): keep the first model's target, for a log whose error names
 * no architecture. Only lines that say NVIDIA, GeForce, Tesla or RTX are
 * looked up: the table is searched whole for each. */
void gw__explain_read_model(gw_explainer *ex)
{
	const gw_row_nvidia_gpus *row;
	unsigned major, minor;

	if (!(line_word(ex, W_NVIDIA) || line_word(ex, W_GEFORCE) || line_word(ex, W_TESLA) || line_word(ex, W_RTX)))
		return;
	if ((row = gw__tbl_nvidia_gpu_by_name(ex->line)) && gw__tbl_cc(row->cc, &major, &minor) == 0)
		gw__fmt(ex->model_gpu, sizeof(ex->model_gpu), "sm_%u%u", major, minor);
}

/* The oldest compute capability (as major) whose GPUs no build of a CUDA
 * before 12.8 has code for: Blackwell (sm_100, sm_120). */
#define ARCH_NEWEST_MAJOR 10u

/* "a PTX JIT compilation failed" (CUDA_ERROR_INVALID_PTX, cudaErrorInvalidPtx)
 * on any line, beside the invalid handles that follow it (cuModuleGetFunction
 * on the module that did not load, then cuLaunchKernel), on a GPU the log
 * names: the build's PTX is for targets the GPU cannot
 * JIT it to (an architecture-specific sm_90a kernel on Blackwell) when the
 * build's list, if the log shows one, has no code that runs on the GPU and,
 * without a list, the GPU is newer than every pre-Blackwell build. */
void gw__explain_invalid_ptx_on_new_gpu(gw_explainer *ex)
{
	int from = gw__explain_doc_index("gpu-invalid-call"), to = gw__explain_doc_index("gpu-arch-unsupported-by-framework");
	unsigned major, minor;
	int runs;

	if (from < 0 || to < 0 || ex->refined[from] >= 0 || ex->match_of_doc[from] < 0 || !ex->arch.gpu[0] ||
	    !ex->invalid_ptx || !target_cc(ex->arch.gpu, &major, &minor))
		return;
	runs = gw_explain_arch_runs(&ex->arch, ex->arch.gpu);
	if (runs == 1 || (runs < 0 && major < ARCH_NEWEST_MAJOR))
		return;
	gw__explain_refine(ex, (unsigned)from, (unsigned)to);
	ex->matches[ex->match_of_doc[to]].arch = &ex->arch;
}

/* A log that names an architecture mismatch (a build without code for
 * the GPU): the calls that fail after it are its consequences, not bugs of
 * their own. A kernel image that did not load leaves an invalid module or
 * function handle (cuModuleGetFunction's CUDA_ERROR_INVALID_HANDLE after
 * cuModuleLoadData's CUDA_ERROR_INVALID_PTX), and "device kernel image is
 * invalid" is the string of CUDA_ERROR_INVALID_IMAGE (200) and
 * CUDA_ERROR_INVALID_SOURCE (300) both: one message. So the generic
 * invalid call is folded into the mismatch, counted on its lines. So are
 * the kernel libraries' execution failures, CUBLAS_STATUS_EXECUTION_FAILED
 * and CUDNN_STATUS_EXECUTION_FAILED ("the GPU program failed to execute"):
 * a library kernel that cannot run on the GPU is the first reason their
 * own texts give, and the log's "no kernel image" says it is this one
 * (PyTorch's tests under a build without the GPU's code fail with the
 * cuDNN status in one test and "no kernel image" in the next:
 * ivadomed/ivadomed#952). A GPU too old for a kernel library is such a
 * mismatch too: candle builds its bfloat16 kernels only for sm_80 and up
 * (candle-kernels, #if __CUDA_ARCH__ >= 800), so on an older GPU loading
 * one fails with CUDA_ERROR_NOT_FOUND, "named symbol not found"
 * (huggingface/candle#1911). */
void gw__explain_invalid_call_after_arch(gw_explainer *ex)
{
	static const char *const arch_ids[] = { "gpu-arch-unsupported-by-framework", "rocm-gfx-unsupported",
						"gpu-too-old-for-kernel-library" };
	static const char *const follow_ids[] = { "gpu-invalid-call", "cublas-execution-failed",
						  "cudnn-execution-failed" };

	for (size_t f = 0; f < sizeof(follow_ids) / sizeof(follow_ids[0]); f++) {
		int from = gw__explain_doc_index(follow_ids[f]), i;

		if (from < 0 || (i = ex->match_of_doc[from]) < 0)
			continue;
		for (size_t k = 0; k < sizeof(arch_ids) / sizeof(arch_ids[0]); k++) {
			int to = gw__explain_doc_index(arch_ids[k]), j;

			if (to < 0 || (j = ex->match_of_doc[to]) < 0)
				continue;
			/* The mismatch keeps its own line, code and excerpt. */
			ex->matches[j].count += ex->matches[i].count;
			ex->match_of_doc[from] = -1;
			gw__explain_remove_match(ex, (size_t)i);
			break;
		}
	}
}

