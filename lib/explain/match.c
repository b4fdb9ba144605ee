/* gpuwise explain: matches. A row's hit becomes a match (record_hit),
 * descriptions wait for the next line's call (held_call_line), a
 * context refines one id into another (refine), and a log that shows a
 * CUDA older than 10.1 has its bare numbers read again (renumber). */
#include "explain/explain_int.h"

/* The ids the architecture rule's evidence belongs to. */
static bool is_arch_id(const char *id)
{
	return !strcmp(id, "gpu-arch-unsupported-by-framework") || !strcmp(id, "rocm-gfx-unsupported") ||
	       !strcmp(id, "gpu-too-old-for-kernel-library") || !strcmp(id, "compiler-gpu-target-unknown");
}

/* A compiler refused the line's target (compiler-gpu-target-unknown):
 * keep the first such target of the log, as the line writes it. */
static void read_refused_target(gw_explainer *ex)
{
	ex->compiler_evidence = true;
	if (ex->arch.target[0])
		return;
	for (size_t i = 0; i < ex->line_len; i++) {
		char t[16];

		if (i > 0 && is_word_byte(ex->line[i - 1]))
			continue;
		if (gw__explain_parse_target(ex->line + i, ex->line_len - i, t, sizeof(t))) {
			gw__fmt(ex->arch.target, sizeof(ex->arch.target), "%s", t);
			return;
		}
	}
}

/* A new match of finding d, last, or for a wrapped cell (read when its
 * record ended, after the line that ended it) before the matches of later
 * lines, so that matches stay in the order of their lines. */
static gw_explain_match *new_match(gw_explainer *ex, unsigned d)
{
	size_t at = ex->nmatches;

	while (ex->cell_line && at > 0 && ex->matches[at - 1].line > ex->cell_line)
		at--;
	memmove(&ex->matches[at + 1], &ex->matches[at], (ex->nmatches - at) * sizeof(ex->matches[0]));
	memmove(&ex->numbered[at + 1], &ex->numbered[at], (ex->nmatches - at) * sizeof(ex->numbered[0]));
	for (unsigned i = 0; i < NDOC; i++)
		if (ex->match_of_doc[i] >= (int)at)
			ex->match_of_doc[i]++;
	ex->numbered[at].library = ex->hit_library;
	ex->numbered[at].number = ex->hit_number;
	ex->match_of_doc[d] = (int)at;
	ex->nmatches++;
	return &ex->matches[at];
}

/* How many blanks the current line starts with. */
size_t gw__explain_leading_blanks(const gw_explainer *ex)
{
	size_t i = 0;

	while (i < ex->line_len && is_blank(ex->line[i]))
		i++;
	return i;
}

/* Keep what this line added for finding d, for a fallback message's last
 * line to take back (see fallback_line). */
static void note_effect(gw_explainer *ex, unsigned d, bool created)
{
	if (ex->fx.line != ex->lines + 1) {
		ex->fx.line = ex->lines + 1;
		ex->fx.n = 0;
		ex->fx.indent = gw__explain_leading_blanks(ex);
	}
	if (ex->fx.n < FX_MAX) {
		ex->fx.e[ex->fx.n].doc = d;
		ex->fx.e[ex->fx.n++].created = created;
	}
}

/* Count a match of finding d on this line; code is the status code that
 * named it (-1: a message pattern). */
void gw__explain_record_match(gw_explainer *ex, unsigned d, const char *framework, int code, size_t start, bool had_nul)
{
	gw_explain_match *m;

	ex->line_matched = true;
	if (ex->host_line && (int)d == gw__explain_doc_index("cuda-out-of-memory"))
		return;            /* host memory: not the GPU's (fallback_line) */
	if (code >= 0 && gw__status_codes[code].pub.number == 218 && !strncmp(gw__status_codes[code].pub.library, "cuda-", 5))
		ex->invalid_ptx = true;
	if (ex->nmatches > 0 && gw__explain_is_teardown(code))
		return;            /* an earlier error's echo at exit */
	if (ex->refined[d] == DROPPED)
		return;            /* a consequence: understood, not reported */
	if (ex->refined[d] >= 0)
		d = (unsigned)ex->refined[d];
	if (ex->doc_gen[d] == ex->gen)
		return;            /* this id already counted on this line */
	ex->doc_gen[d] = ex->gen;
	if (ex->match_of_doc[d] >= 0) {
		/* A wrapped cell is its lines read again: counted already. */
		if (!ex->cell_line) {
			ex->matches[ex->match_of_doc[d]].count++;
			note_effect(ex, d, false);
		}
		return;
	}
	m = new_match(ex, d);
	if (!ex->cell_line)
		note_effect(ex, d, true);
	m->doc = &gw__finding_docs[d];
	m->framework = framework;
	m->code = code >= 0 ? &gw__status_codes[code].pub : NULL;
	m->library = NULL;
	m->arch = is_arch_id(m->doc->id) ? &ex->arch : NULL;
	if (!strcmp(m->doc->id, "compiler-gpu-target-unknown"))
		read_refused_target(ex);
	m->line = ex->cell_line ? ex->cell_line : ex->lines + 1;
	m->count = 1;
	gw__explain_make_excerpt(m->excerpt, ex->line, ex->line_len, start, had_nul ? ex->nul_at : NULL);
}

/* Where the row's literal next occurs on the line at or after from, or
 * SIZE_MAX. */
size_t gw__explain_next_literal(const gw_explainer *ex, unsigned p, size_t from)
{
	size_t n = ex->cat->lit_len[p];

	for (size_t i = from; i + n <= ex->line_len; i++)
		if (literal_at(ex->line + i, gw__explain_patterns[p].literal, n))
			return i;
	return SIZE_MAX;
}

/* The CUDA libraries whose calls a failed statement may name, by the
 * calls' prefix: ggml's CUBLAS_CHECK (ggml-cuda/common.cuh) prints
 * cublasGetStatusString() as "CUDA error: ..." and the call on a later
 * line. "cuda" + capital is the runtime's, "cu" + capital the driver's. */
static const char *const call_libraries[][2] = {
	{ "cublas", "cublas" }, { "cudnn", "cudnn" }, { "cufft", "cufft" }, { "curand", "curand" },
	{ "cusolver", "cusolver" }, { "cusparse", "cusparse" }, { "nvrtc", "nvrtc" },
};

static bool is_call_library(const char *framework)
{
	for (size_t i = 0; i < sizeof(call_libraries) / sizeof(call_libraries[0]); i++)
		if (!strcmp(framework, call_libraries[i][1]))
			return true;
	return false;
}

/* XLA and TensorFlow's stream executor return a failed CUDA driver call
 * as the driver's description, a line break and the call: "device kernel
 * image is invalid\nin .../cuda_asm_compiler.cc(69): 'cuLinkComplete(...)'"
 * (RETURN_IF_CUDA_ERROR in stream_executor/cuda/cuda_asm_compiler.cc).
 * ggml's ggml_cuda_error (ggml-cuda.cu) prints "CUDA error: %s" with the
 * status's string, then "  current device: %d, in function %s at %s:%d",
 * then the failed statement: a cuBLAS string ("the function failed to
 * launch on the GPU") after the word CUDA is cuBLAS's when the statement
 * is a cublas call. A CUDA (or CUDA library's) description that ends its
 * line with no library named is held until the line that may name the
 * call. */
static void hold_description(gw_explainer *ex, unsigned p, size_t start, bool had_nul)
{
	size_t end = start + ex->cat->lit_len[p];
	const char *framework = gw__explain_patterns[p].framework;

	if (ex->cell_line)
		return;            /* a table's joined cell is no line of its own */
	if ((strncmp(framework, "cuda-", 5) && !is_call_library(framework)) ||
	    (start > 0 && is_word_byte(ex->line[start - 1])))
		return;
	while (end < ex->line_len && is_blank(ex->line[end]))
		end++;
	if (end < ex->line_len)
		return;
	if (ex->nheld && ex->held_line != ex->lines)
		ex->nheld = 0;
	if (ex->nheld >= HELD_MAX)
		return;
	ex->held_line = ex->lines;
	ex->held_skip = 0;
	ex->held[ex->nheld].pat = p;
	gw__explain_make_excerpt(ex->held[ex->nheld++].excerpt, ex->line, ex->line_len, start, had_nul ? ex->nul_at : NULL);
}

/* The CUDA API a call's name belongs to: "cuda" and a capital is the
 * runtime's (cudaMalloc), "cu" and a capital the driver's (cuLinkComplete);
 * NULL for neither. */
static const char *cuda_api_of_call(const char *name, size_t len)
{
	if (len > 4 && !memcmp(name, "cuda", 4) && name[4] >= 'A' && name[4] <= 'Z')
		return "cuda-runtime";
	if (len > 2 && !memcmp(name, "cu", 2) && name[2] >= 'A' && name[2] <= 'Z')
		return "cuda-driver";
	return NULL;
}

/* Is the line "in FILE(LINE): 'CALL(", CALL one of the CUDA driver's
 * (cuLinkComplete) or runtime's (cudaMalloc)? The library, or NULL. */
static const char *names_cuda_call(const char *line, size_t n)
{
	size_t i = 0, q, digits = 0;

	while (i < n && is_blank(line[i]))
		i++;
	if (i + 3 > n || !literal_at(line + i, "in ", 3))
		return NULL;
	for (q = i + 3; q + 4 <= n && memcmp(line + q, "): '", 4); q++)
		;
	if (q + 4 > n)
		return NULL;
	for (size_t k = q; k > i + 3 && line[k - 1] >= '0' && line[k - 1] <= '9'; k--)
		digits++;
	if (!digits || q - digits <= i + 4 || line[q - digits - 1] != '(')
		return NULL;
	q += 4;
	return cuda_api_of_call(line + q, n - q);
}

/* ggml's location line: "current device: N, in function F at FILE:LINE". */
static bool ggml_location_line(const gw_explainer *ex)
{
	return gw__explain_line_has_text(ex, "current device:") && gw__explain_line_has_text(ex, ", in function ");
}

/* ggml's location line's function, when its name says it makes the cuBLAS
 * call its statement line would show: ggml-cuda.cu's
 * ggml_cuda_op_mul_mat_cublas, ggml_cuda_mul_mat_batched_cublas and
 * ggml_cuda_mul_mat_cublas_impl call cuBLAS's GEMMs under CUBLAS_CHECK
 * (common.cuh: CUDA_CHECK_GEN with cublasGetStatusString), so a paste cut
 * before the statement still names the library. "cublas" or NULL. */
static const char *ggml_location_library(const gw_explainer *ex)
{
	static const char tag[] = ", in function ";
	size_t n = sizeof tag - 1;

	for (size_t i = 0; i + n <= ex->line_len; i++) {
		if (!literal_at(ex->line + i, tag, n))
			continue;
		for (size_t k = i + n; k + 6 <= ex->line_len && is_word_byte(ex->line[k]); k++)
			if (literal_at(ex->line + k, "cublas", 6))
				return "cublas";
		return NULL;
	}
	return NULL;
}

/* ggml's statement line: the library of its first call of a CUDA library
 * ("cublasSgemm_v2(", "cudaMemcpyAsync(", "cuMemCreate("), or NULL. */
static const char *ggml_statement_library(const char *line, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = i;

		if ((i > 0 && is_word_byte(line[i - 1])) || !is_word_byte(line[i]))
			continue;
		while (k < n && is_word_byte(line[k]))
			k++;
		if (k >= n || line[k] != '(')
			continue;
		for (size_t c = 0; c < sizeof(call_libraries) / sizeof(call_libraries[0]); c++) {
			size_t len = strlen(call_libraries[c][0]);

			if (k - i > len && literal_at(line + i, call_libraries[c][0], len))
				return call_libraries[c][1];
		}
		const char *api = cuda_api_of_call(line + i, k - i);

		if (api)
			return api;
	}
	return NULL;
}

/* The line after held descriptions is complete: when it names the CUDA
 * call they came from, they are that library's codes (the driver's of the
 * runtime's number: cuGetErrorString's strings are the runtime's), matched
 * at their own line. ggml's location line between them waits on. */
void gw__explain_held_call_line(gw_explainer *ex)
{
	const char *library = NULL;

	if (ex->held_line + 1 == ex->lines && !ex->held_skip && ggml_location_line(ex) &&
	    !(library = ggml_location_library(ex))) {
		ex->held_skip = 1;
		return;
	}
	if (library || (ex->held_line + 1 + ex->held_skip == ex->lines &&
			(library = ex->held_skip ? ggml_statement_library(ex->line, ex->line_len)
						 : names_cuda_call(ex->line, ex->line_len)))) {
		bool understood = false;

		for (unsigned i = 0; i < ex->nheld; i++) {
			int code = gw__explain_patterns[ex->held[i].pat].code;
			const char *held_library = gw__explain_patterns[ex->held[i].pat].framework;
			int own;
			size_t before = ex->nmatches;

			/* A CUDA library's string is that library's only. */
			if (strcmp(held_library, library) &&
			    (strncmp(held_library, "cuda-", 5) || strncmp(library, "cuda-", 5)))
				continue;
			own = gw__explain_code_by_number(library, gw__status_codes[code].pub.number, false);
			code = own >= 0 && !strncmp(library, "cuda-", 5) ? own : code;
			understood = true;
			gw__explain_record_match(ex, (unsigned)gw__status_codes[code].doc, gw__status_codes[code].pub.library, code,
				     0, false);
			if (ex->nmatches > before) {
				gw_explain_match *m = &ex->matches[ex->nmatches - 1];

				m->line = ex->held_line + 1;
				memcpy(m->excerpt, ex->held[i].excerpt, sizeof(m->excerpt));
			}
		}
		/* Understood now, not an unknown error (nor the report's
		 * later lines). */
		while (understood && ex->nunrecognised &&
		       ex->unrecognised[ex->nunrecognised - 1].line >= ex->held_line + 1 &&
		       ex->unrecognised[ex->nunrecognised - 1].line <= ex->lines + 1)
			ex->nunrecognised--;
		if (understood)
			gw__explain_next_generation(ex);
	}
	ex->nheld = 0;
	ex->held_skip = 0;
}

/* Does another code's longer description start where row p's does? One
 * description can begin another: CUDA's "operation not permitted" (800)
 * begins "operation not permitted when stream is capturing" (900) and
 * "... on an event last recorded in a capturing stream" (907). The line
 * then prints the longer code, not both. So does a message row's longer
 * literal that the line satisfies: TensorFlow's "UNKNOWN ERROR (303)", a
 * driver library its stub could not load (data/explain/patterns), begins
 * with CUDA's description "unknown error" (999) and is that message. */
static bool longer_description_at(gw_explainer *ex, unsigned p, size_t start)
{
	size_t len = ex->cat->lit_len[p];

	for (unsigned q = 0; q < GW__EXPLAIN_PATTERNS_COUNT; q++) {
		size_t n = ex->cat->lit_len[q];
		unsigned how = gw__explain_patterns[q].how;

		if ((how != GW__HOW_DESC && how != GW__HOW_PLAIN) || n <= len || start + n > ex->line_len)
			continue;
		if (!literal_at(ex->line + start, gw__explain_patterns[q].literal, n))
			continue;
		if (how == GW__HOW_PLAIN) {
			if (gw__explain_pattern_accepts(ex, q, start))
				return true;
			continue;
		}
		if (start + n == ex->line_len || !is_word_byte(ex->line[start + n]))
			return true;
	}
	return false;
}

void gw__explain_record_hit(gw_explainer *ex, const struct hit *h, bool had_nul)
{
	const gw__explain_pattern *pat = &gw__explain_patterns[h->pat];
	int code = pat->code;

	if (pat->how == GW__HOW_NUMBER) {
		const char *numbered_as = NULL;
		size_t start = h->start;

		/* A wrapping too common to read alone ("failed to launch
		 * with error") counts only on a line its regex matches. */
		if (gw__explain_has_regex(h->pat) && !gw__explain_line_matches(ex, gw__explain_regex_of(ex->cat, h->pat, RX_MATCH)))
			return;
		/* The scan reports a wrapping's first place on the line;
		 * its number may follow a later one ("Warp CUDA error: Failed
		 * to get driver entry point 'cuInit' (CUDA error 34)"). */
		while ((code = gw__explain_number_code(ex, h->pat, start, &numbered_as)) < 0)
			if ((start = gw__explain_next_literal(ex, h->pat, start + 1)) == SIZE_MAX)
				return;
		ex->hit_library = numbered_as;
		ex->hit_number = gw__status_codes[code].pub.number;
		gw__explain_record_match(ex, (unsigned)gw__status_codes[code].doc, gw__status_codes[code].pub.library, code,
			     start, had_nul);
		ex->hit_library = NULL;
		return;
	}
	if (pat->how == GW__HOW_DESC && longer_description_at(ex, h->pat, h->start))
		return;
	if (gw__explain_pattern_accepts(ex, h->pat, h->start)) {
		int own = gw__explain_own_number_code(ex, h->pat, h->start);

		/* Read by its number of before CUDA 10.1: that code. */
		if (own >= 0 && own != code && gw__status_codes[own].doc >= 0)
			gw__explain_record_match(ex, (unsigned)gw__status_codes[own].doc, gw__status_codes[own].pub.library, own,
				     h->start, had_nul);
		else
			gw__explain_record_match(ex, pat->doc, pat->framework, code, h->start, had_nul);
	}
	else if (pat->how == GW__HOW_DESC)
		hold_description(ex, h->pat, h->start, had_nul);
}

/* numba's CudaAPIError prints "[%s] %s" % (code, "Call to FN results in
 * NAME") (numba/cuda/cudadrv/driver.py), NAME UNKNOWN_CUDA_ERROR for a
 * CUresult its enum lacks: the positive code in brackets before "Call to",
 * or 0. */
static long numba_call_number(const gw_explainer *ex)
{
	for (size_t i = 0; i < ex->line_len; i++) {
		const char *s = ex->line + i + 1, *end = ex->line + ex->line_len;
		long number = 0;
		int digits = 0;

		if (ex->line[i] != '[')
			continue;
		for (; s < end && *s >= '0' && *s <= '9' && digits < 6; s++, digits++)
			number = number * 10 + (*s - '0');
		while (s < end && is_blank(*s))
			s++;
		if (!digits || s >= end || *s++ != ']')
			continue;
		while (s < end && is_blank(*s))
			s++;
		if (end - s >= 8 && literal_at(s, "call to ", 8))
			return number;
	}
	return 0;
}

/* The number in parentheses after "unknown error" on the line (an
 * optional closing quote between them), or numba's bracketed code, or 0. */
static long unknown_error_number(const gw_explainer *ex)
{
	static const char text[] = "unknown error";
	size_t n = sizeof text - 1;

	for (size_t i = 0; i + n <= ex->line_len; i++) {
		const char *s = ex->line + i + n, *end = ex->line + ex->line_len;
		long number = 0;
		int digits = 0;

		if (!literal_at(ex->line + i, text, n))
			continue;
		while (s < end && (*s == '"' || *s == '\'' || is_blank(*s)))
			s++;
		if (s >= end || *s++ != '(')
			continue;
		for (; s < end && *s >= '0' && *s <= '9' && digits < 6; s++, digits++)
			number = number * 10 + (*s - '0');
		if (digits && s < end && *s == ')')
			return number;
	}
	return numba_call_number(ex);
}

/* ---- refinements ------------------------------------------------------ */

/* Drop match i, keeping the order of the others and match_of_doc true. */
void gw__explain_remove_match(gw_explainer *ex, size_t i)
{
	memmove(&ex->matches[i], &ex->matches[i + 1], (ex->nmatches - i - 1) * sizeof(ex->matches[0]));
	memmove(&ex->numbered[i], &ex->numbered[i + 1], (ex->nmatches - i - 1) * sizeof(ex->numbered[0]));
	ex->nmatches--;
	for (unsigned d = 0; d < NDOC; d++)
		if (ex->match_of_doc[d] > (int)i)
			ex->match_of_doc[d]--;
}

/* A refinement's context is on this line: from now on finding `from` is
 * reported as `to`, and a match of `from` already recorded becomes one of
 * `to` (merged into it, at the earlier line, when `to` matched too). `to`
 * NDOC (a row whose id is "-") drops `from`: the context shows it to be a
 * consequence of another failure, which the log's other lines name. */
void gw__explain_refine(gw_explainer *ex, unsigned from, unsigned to)
{
	int i = ex->match_of_doc[from], j;

	if (ex->refined[from] != -1)
		return;            /* the first refinement seen wins */
	if (to >= NDOC) {
		ex->refined[from] = DROPPED;
		if (i >= 0) {
			ex->match_of_doc[from] = -1;
			gw__explain_remove_match(ex, (size_t)i);
		}
		return;
	}
	j = ex->match_of_doc[to];
	ex->refined[from] = (int)to;
	if (i < 0)
		return;
	ex->match_of_doc[from] = -1;
	if (j < 0) {
		ex->matches[i].doc = &gw__finding_docs[to];
		ex->match_of_doc[to] = i;
		return;
	}
	if (i < j) {               /* keep the earlier line's match, as `to` */
		ex->matches[i].doc = &gw__finding_docs[to];
		ex->matches[i].count += ex->matches[j].count;
		ex->match_of_doc[to] = i;
		gw__explain_remove_match(ex, (size_t)j);
	} else {
		ex->matches[j].count += ex->matches[i].count;
		gw__explain_remove_match(ex, (size_t)i);
	}
}

bool gw__explain_note_context(gw_explainer *ex, unsigned p)
{
	const gw__explain_pattern *pat = &gw__explain_patterns[p];

	if (gw__explain_has_regex(p) && !gw__explain_regex_matches(gw__explain_regex_of(ex->cat, p, RX_MATCH), ex->line))
		return false;
	gw__explain_refine(ex, (unsigned)pat->code, pat->doc);
	return true;
}

/* ---- CUDA before 10.1 -------------------------------------------------- */

/* Match i was named by a bare number that now reads as `code`: make it a
 * match of that code's finding (merged into that finding's match, at the
 * earlier line, when it has one). Returns whether match i was removed. */
static bool renumber(gw_explainer *ex, size_t i, int code)
{
	gw_explain_match *m = &ex->matches[i];
	unsigned from = (unsigned)(m->doc - gw__finding_docs);
	int to = gw__status_codes[code].doc;
	int j;

	if (ex->refined[to] == DROPPED) {
		ex->match_of_doc[from] = -1;
		gw__explain_remove_match(ex, i);
		return true;
	}
	if (ex->refined[to] >= 0)
		to = ex->refined[to];
	j = ex->match_of_doc[to];
	if ((unsigned)to == from || j < 0 || (size_t)j > i) {
		if ((unsigned)to != from) {
			if (j >= 0) {      /* merge the later match into this one */
				m->count += ex->matches[j].count;
				gw__explain_remove_match(ex, (size_t)j);
			}
			ex->match_of_doc[from] = -1;
			ex->match_of_doc[to] = (int)i;
			m->doc = &gw__finding_docs[to];
			m->arch = is_arch_id(m->doc->id) ? &ex->arch : NULL;
		}
		m->code = &gw__status_codes[code].pub;
		m->framework = gw__status_codes[code].pub.library;
		return false;
	}
	ex->matches[j].count += m->count;   /* the earlier match stays */
	ex->match_of_doc[from] = -1;
	gw__explain_remove_match(ex, i);
	return true;
}

/* "unknown error" is what a wrapper's own table prints for a code it does
 * not list (BEAGLE's `CUDA error: "Unknown error" (222)`), and what a
 * runtime older than the code returns for it; the number printed beside it
 * is the failure. When this line's new match is the unknown error and the
 * number names another finding, the number's finding stands. */
void gw__explain_unknown_error_numbered(gw_explainer *ex)
{
	int d = gw__explain_doc_index("cuda-unknown-error"), i, code;
	const char *library = gw__explain_line_library(ex);
	long number;

	/* A name says more than a number ("hipErrorUnknown ... (700)"). */
	if (gw__explain_line_has_text(ex, "ErrorUnknown") || gw__explain_line_has_text(ex, "ERROR_UNKNOWN"))
		return;
	if (d < 0 || !library || ex->cell_line || (i = ex->match_of_doc[d]) < 0 ||
	    ex->matches[i].line != ex->lines + 1 || ex->matches[i].count != 1 || !(number = unknown_error_number(ex)))
		return;
	code = gw__explain_is_cuda_numbering(library) ? gw__explain_cuda_number_code(ex, library, number) : gw__explain_code_by_number(library, number, false);
	if (code < 0 || gw__status_codes[code].doc < 0 || gw__status_codes[code].doc == d)
		return;
	renumber(ex, (size_t)i, code);
}

/* The log shows a CUDA older than 10.1 (data/explain/legacy_cuda): the
 * runtime's bare numbers read before now, and from now on, are those of
 * then. */
void gw__explain_legacy_cuda_seen(gw_explainer *ex, unsigned p)
{
	if (ex->legacy_cuda || (gw__explain_has_regex(p) && !gw__explain_regex_matches(gw__explain_regex_of(ex->cat, p, RX_MATCH), ex->line)))
		return;
	ex->legacy_cuda = true;
	for (size_t i = 0; i < ex->nmatches;) {
		int code = ex->numbered[i].library
			   ? gw__explain_code_by_number(ex->numbered[i].library, ex->numbered[i].number, true) : -1;

		if (code >= 0 && &gw__status_codes[code].pub != ex->matches[i].code && renumber(ex, i, code))
			continue;
		i++;
	}
}

/* ---- failures folded into the cause a row names ------------------------ */

/* A row that names the cause of a failed call, beside the call's generic
 * status on the same line: the status and the errors that report the same
 * failure later are that cause, not findings of their own. NCCL's NVLS
 * set-up (src/transport/nvls.cc) WARNs "Cuda failure 1 'invalid argument'"
 * (or 999 'unknown error') on an NVSwitch system whose Fabric Manager was
 * restarted without a GPU reset (data/explain/patterns); the status table
 * reads the same line as cudaErrorInvalidValue (gpu-invalid-call) or
 * cudaErrorUnknown, and NCCL's ncclUnhandledCudaError ("unhandled cuda
 * error") and the framework's "NCCL error" follow it. The cause keeps its
 * own line and excerpt and counts theirs. */
void gw__explain_fold_into_cause(gw_explainer *ex)
{
	static const struct {
		const char *cause;
		const char *follow[3];
	} folds[] = {
		{ "fabric-manager-restarted-without-reset", { "gpu-invalid-call", "cuda-unknown-error", "nccl-error" } },
	};

	for (size_t k = 0; k < sizeof(folds) / sizeof(folds[0]); k++) {
		int to = gw__explain_doc_index(folds[k].cause);

		if (to < 0 || ex->match_of_doc[to] < 0)
			continue;
		for (size_t f = 0; f < sizeof(folds[k].follow) / sizeof(folds[k].follow[0]); f++) {
			int from = gw__explain_doc_index(folds[k].follow[f]), i;

			if (from < 0 || (i = ex->match_of_doc[from]) < 0)
				continue;
			ex->matches[ex->match_of_doc[to]].count += ex->matches[i].count;
			ex->match_of_doc[from] = -1;
			gw__explain_remove_match(ex, (size_t)i);
		}
	}
}
