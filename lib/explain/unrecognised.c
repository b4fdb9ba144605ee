/* gpuwise explain: lines that look like GPU errors but match no row
 * (reported as not recognised), and fallback messages, whose last line
 * takes back the ids of the lines above it. */
#include "explain/explain_int.h"

/* ---- lines that look like GPU errors --------------------------------- */

/* A byte that continues a file name or a module path: "libggml-cuda.so",
 * "/usr/local/cuda/bin", "torch.cuda.memory" are not a library's message. */
static bool is_path_byte(char c)
{
	return is_word_byte(c) || c == '/' || c == '.' || c == '-' || c == '\\';
}

/* Is the token (n word bytes, no NUL among them) the word? The compare
 * stops at the word's end, where a longer token differs (no strlen: this
 * runs for every word of every line that names a GPU library). */
static bool token_is(const char *tok, size_t n, const char *word)
{
	return literal_at(tok, word, n) && !word[n];
}

static bool token_starts(const char *tok, size_t n, const char *prefix)
{
	size_t k = 0;

	for (; prefix[k]; k++)
		if (k >= n || fold((uint8_t)tok[k]) != (uint8_t)prefix[k])
			return false;
	return n > k;
}

/* A GPU library named as a word of its own: not inside a path, a file
 * name or a device string ("cuda:0"), or a status-code-like identifier
 * (cudaErrorFoo, CUDA_ERROR_FOO, hipErrorFoo, ncclFoo, CUDNN_STATUS_FOO). */
static bool gpu_token(const char *line, size_t len, size_t at, size_t n)
{
	static const char *const words[] = {
		"cuda", "hip", "nccl", "cudnn", "cublas", "cublaslt", "cufft", "curand", "cusolver",
		"cusparse", "nvrtc", "nvml", "rocm", "miopen", "rocblas",
	};
	static const char *const prefixes[] = {
		"cudaerror", "cuda_error_", "hiperror", "nccl", "cudnn_status_", "cublas_status_",
		"cufft_", "curand_status_", "cusolver_status_", "cusparse_status_", "nvrtc_error_",
		"nvml_error_",
	};
	const char *tok = line + at;

	if ((at > 0 && is_path_byte(line[at - 1])) || (at + n < len && is_path_byte(line[at + n])))
		return false;
	if (at + n + 1 < len && line[at + n] == ':' && line[at + n + 1] >= '0' && line[at + n + 1] <= '9')
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (token_is(tok, n, words[i]))
			return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (token_starts(tok, n, prefixes[i]))
			return true;
	return false;
}

/* An error word: error(s), failed, failure, fatal, abort(ed), exception,
 * cannot, unable, or a word ending in "error" (RuntimeError), unless "no"
 * or "without" comes just before it ("no error"). */
static bool error_token(const char *tok, size_t n, bool negated)
{
	static const char *const words[] = {
		"error", "errors", "failed", "failure", "fatal", "abort", "aborted", "exception",
		"cannot", "unable",
	};

	if (negated)
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (token_is(tok, n, words[i]))
			return true;
	return n > 5 && literal_at(tok + n - 5, "error", 5);
}

static bool looks_like_gpu_error(const char *line, size_t len)
{
	bool gpu = false, error = false, negated = false;

	for (size_t i = 0; i < len && !(gpu && error);) {
		size_t n = 0;

		if (!is_word_byte(line[i])) {
			i++;
			continue;
		}
		while (i + n < len && is_word_byte(line[i + n]))
			n++;
		gpu = gpu || gpu_token(line, len, i, n);
		error = error || error_token(line + i, n, negated);
		negated = token_is(line + i, n, "no") || token_is(line + i, n, "without");
		i += n;
	}
	return gpu && error;
}

/* NCCL's INFO level ("host:pid:tid [0] NCCL INFO ...") traces what NCCL
 * tries, optional parts included: "NET/Plugin : Plugin load
 * (libnccl-net.so) returned 2 : ... cannot open shared object file" is
 * followed by "No plugin found, using internal implementation". NCCL
 * reports its failures at the WARN level ("NCCL WARN ..."), so an INFO
 * line names no cause and is no unknown error. */
static bool nccl_info_line(const gw_explainer *ex)
{
	return line_word(ex, W_NCCL_INFO);   /* "nccl info" */
}

/* PyTorch's cuDNN v8 API path (aten/src/ATen/native/cudnn/Conv_v8.cpp,
 * try_plans / try_configs) runs the engine configs cuDNN offers one after
 * another and skips any that throws; PyTorch 2.3 warns for each skipped
 * one ("UserWarning: Plan failed with a cudnnException:
 * CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed
 * cudnn_status: CUDNN_STATUS_NOT_SUPPORTED"), and the convolution runs with
 * the next one (pytorch/pytorch#121834: the warning alone does not affect
 * results). Only "Unable to find an engine" means none ran. The status
 * such a line names is a config tried, not a failure. */
static bool plan_tried_line(const gw_explainer *ex)
{
	return line_word(ex, W_PLAN_TRIED);  /* "plan failed with a cudnnexception" */
}

/* A line that traces an attempt the program goes on from by design: it
 * names no cause and is no unknown error. */
bool gw__explain_attempt_line(const gw_explainer *ex)
{
	return nccl_info_line(ex) || plan_tried_line(ex);
}

/* A line that says the program went on after a failure it caught
 * (data/explain/fallback_wordings): it falls back to another path, or an
 * optional part is off. The error it quotes names no cause of the log's
 * problem: no id from it, and it is no unrecognised error. Not when the
 * line holds an "unless" word (a fallback to the CPU: the GPU is not used;
 * a retry whose outcome is not told). A fallback line that starts
 * mid-sentence (blanks or a mark first) ends a message whose quoted error
 * spread over the lines above: it takes back what the nearest line above
 * named, up to FX_LINES up, unless a fallback line came between. Apart
 * from that, a line that names pinned (page-locked) host memory names no
 * GPU out-of-memory. */

int gw__explain_fallback_line(gw_explainer *ex)
{
	bool fallback = false, unless = false, host = false;
	int r;

	for (unsigned i = 0; i < ex->nhits; i++) {
		unsigned p = ex->hits[i].pat;
		const gw__explain_pattern *pat = &gw__explain_patterns[p];

		if (pat->how != GW__HOW_FALLBACK)
			continue;
		if (!strcmp(pat->framework, "host"))
			host = true;
		else if (!strcmp(pat->framework, "unless")) {
			/* At a word's start, and not the head of an identifier:
			 * DeepSpeed's "cpu_adam ... treating the op as not
			 * compatible" names an op, not a fallback to the CPU. */
			for (size_t at = ex->hits[i].start; at != SIZE_MAX && !unless; at = gw__explain_next_literal(ex, p, at + 1))
				unless = (at == 0 || !is_alnum_byte(ex->line[at - 1])) &&
					 ex->line[at + ex->cat->lit_len[p]] != '_';
		} else if (!gw__explain_has_regex(p) || gw__explain_line_matches(ex, gw__explain_regex_of(ex->cat, p, RX_MATCH)))
			fallback = true;
	}
	r = host ? FB_HOST : 0;
	if (fallback && !unless) {
		size_t i = gw__explain_leading_blanks(ex);

		/* Mid-sentence: a mark first, or more blanks than the line
		 * that named the ids (an indented log, Jupyter's or a
		 * quote's, indents every line alike: that is no sign). */
		r |= FB_VETO;
		if ((i < ex->line_len && strchr(".,;:", ex->line[i])) || (ex->fx_last.n && i > ex->fx_last.indent))
			r |= FB_TAIL;
	}
	return r;
}

/* Are all the line's hits the fallback table's "unless" or "host" words? */
bool gw__explain_only_fallback_words(const gw_explainer *ex)
{
	for (unsigned i = 0; i < ex->nhits; i++) {
		const gw__explain_pattern *pat = &gw__explain_patterns[ex->hits[i].pat];

		if (pat->how != GW__HOW_FALLBACK || !strcmp(pat->framework, "fallback"))
			return false;
	}
	return true;
}

/* Take back what the nearest line above that named ids added (see
 * fallback_line), if it is at most FX_LINES up. */
void gw__explain_take_back(gw_explainer *ex)
{
	const struct fx *f = &ex->fx_last;

	if (f->n && f->line + FX_LINES >= ex->lines + 1)
		for (unsigned k = f->n; k-- > 0;) {
			unsigned d = f->e[k].doc;
			int i = ex->match_of_doc[d];

			if (i < 0)
				continue;
			if (f->e[k].created && ex->matches[i].line == f->line) {
				ex->match_of_doc[d] = -1;
				gw__explain_remove_match(ex, (size_t)i);
			} else if (!f->e[k].created && ex->matches[i].count > 1)
				ex->matches[i].count--;
		}
	ex->fx_last.n = 0;
}

/* A second registration of something already registered: XLA logs "E ...
 * cuda_dnn.cc] Unable to register cuDNN factory: Attempting to register
 * factory for plugin cuDNN when one has already been registered" (and
 * cuFFT's, cuBLAS's) when its stream executor is linked twice; the first
 * registration stays and the program runs. Not an unknown error. */
static bool already_registered(const char *line, size_t len)
{
	return gw__explain_line_has(line, len, "already been registered") || gw__explain_line_has(line, len, "already registered");
}

void gw__explain_note_unrecognised(gw_explainer *ex, bool had_nul)
{
	gw_explain_unrecognised *u;

	bool error_word = false;

	for (unsigned w = W_ERROR; w <= W_UNABLE; w++)
		error_word = error_word || line_word(ex, w);
	if (ex->cell_line || ex->nunrecognised >= GW_EXPLAIN_UNRECOGNISED_MAX || !error_word ||
	    !looks_like_gpu_error(ex->line, ex->line_len) ||
	    already_registered(ex->line, ex->line_len))
		return;
	u = &ex->unrecognised[ex->nunrecognised++];
	u->line = ex->lines + 1;
	gw__explain_make_excerpt(u->excerpt, ex->line, ex->line_len, 0, had_nul ? ex->nul_at : NULL);
}

