/* gpuwise explain: excerpts, and status codes read from a line in the
 * wrappings frameworks print them in (by name, by number with the
 * library's context, by the runtime's description). */
#include "explain/explain_int.h"

static bool was_nul(const uint8_t *nul_at, size_t i)
{
	return nul_at && (nul_at[i / 8] >> (i % 8) & 1);
}

/* Copy line[start..end) into out as clean UTF-8, marking cuts with "...".
 * nul_at (or NULL) marks the bytes that were NUL before gw__explain_end_piece() made
 * them spaces. */
void gw__explain_make_excerpt(char *out, const char *line, size_t len, size_t hit, const uint8_t *nul_at)
{
	size_t start = 0, end = len, o = 0;
	const size_t cap = GW_EXPLAIN_EXCERPT_MAX - 1;
	bool cut_left = false, cut_right = false;

	while (start < end && is_blank(line[start]) && !was_nul(nul_at, start))
		start++;
	while (end > start && is_blank(line[end - 1]) && !was_nul(nul_at, end - 1))
		end--;
	/* Long line: keep some context before the hit, the hit, and after. */
	if (end - start > cap && hit > start + 80) {
		start = hit - 80;
		cut_left = true;
	}
	if (cut_left) {
		memcpy(out, "...", 3);
		o = 3;
	}
	for (size_t i = start; i < end;) {
		const uint8_t *s = (const uint8_t *)line + i;
		size_t n = gw__utf8_seq_len(s, end - i);
		size_t w = n ? n : 1;

		if (o + w > cap - 3 && i + w < end) {
			cut_right = true;
			break;
		}
		if (o + w > cap)
			break;
		if (was_nul(nul_at, i))
			out[o++] = '?';
		else if (!n || (n == 1 && (*s < 0x20 || *s == 0x7f)))
			out[o++] = *s == '\t' ? ' ' : '?';
		else {
			memcpy(out + o, s, n);
			o += n;
		}
		i += w;
	}
	if (cut_right) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}

/* ---- scanning --------------------------------------------------------- */

void gw__explain_next_generation(gw_explainer *ex)
{
	if (++ex->gen == 0) {      /* wrapped after 4 billion lines */
		memset(ex->pat_gen, 0, sizeof(ex->pat_gen));
		memset(ex->doc_gen, 0, sizeof(ex->doc_gen));
		ex->squeezed_gen = 0;
		ex->gen = 1;
	}
}

/* Case-insensitive: does word occur in line[0..end)? For "hip", or when
 * word_start, only at the start of a word (not "chip", "relationship", nor
 * TensorRT's "deserializeCudaEngine"). */
bool gw__explain_names_library(const char *line, size_t end, const char *word, bool word_start)
{
	size_t n = strlen(word);

	word_start = word_start || !strcmp(word, "hip");

	for (size_t i = 0; i + n <= end; i++)
		if (literal_at(line + i, word, n) && (!word_start || i == 0 || !is_alnum_byte(line[i - 1])))
			return true;
	return false;
}

/* The word a line must hold before a code's description for the
 * description to count as that library's: "CUDA error: invalid argument". */
static const char *library_word(const char *library)
{
	if (!strncmp(library, "cuda-", 5))
		return "cuda";
	return library;
}

/* A CUDA source file's location just before start: "updater_gpu.cu: 841: ",
 * "device_helpers.cuh(427): ". thrust::system_error's what() is "WHAT:
 * DESCRIPTION", and XGBoost's safe_cuda() makes WHAT the file and line of
 * the call (src/common/common.h), so the runtime's description follows the
 * location directly; nvcc's "kernel.cu(12): error: ..." does not. */
static bool cuda_location_before(const char *line, size_t start)
{
	size_t i = start, digits = 0;

	while (i > 0 && line[i - 1] == ' ')
		i--;
	if (i == 0 || line[i - 1] != ':')
		return false;
	i--;
	if (i > 0 && line[i - 1] == ')')
		i--;
	for (; i > 0 && line[i - 1] >= '0' && line[i - 1] <= '9' && digits < 8; i--)
		digits++;
	if (!digits || i == 0)
		return false;
	if (line[i - 1] == '(') {
		i--;
	} else {
		while (i > 0 && line[i - 1] == ' ')
			i--;
		if (i == 0 || line[i - 1] != ':')
			return false;
		i--;
	}
	if (i >= 4 && literal_at(line + i - 4, ".cuh", 4))
		i -= 4;
	else if (i >= 3 && literal_at(line + i - 3, ".cu", 3))
		i -= 3;
	else
		return false;
	return i > 0 && (is_word_byte(line[i - 1]) || line[i - 1] == '-');
}

/* AMReX's GPU checks (Src/Base/AMReX_GpuError.H) abort with the runtime's
 * string after the file and line, naming the library only as "GPU":
 * Gpu::ErrorCheck says "GPU last error detected in file F line N: DESC"
 * and AMREX_GPU_SAFE_CALL "GPU error in file F line N DESC", with
 * cudaGetErrorString() in a CUDA build (hipGetErrorString() in a HIP one,
 * read as CUDA's like any line that names neither). Going back from the
 * description: blanks, an optional ':', the line number, " line ", the
 * file (one token), " in file " and one of the two openings. */
static bool amrex_location_before(const char *line, size_t start)
{
	static const char *const opens[] = { "gpu last error detected in file ", "gpu error in file " };
	size_t i = start, digits = 0;

	while (i > 0 && line[i - 1] == ' ')
		i--;
	if (i > 0 && line[i - 1] == ':')
		i--;
	for (; i > 0 && line[i - 1] >= '0' && line[i - 1] <= '9' && digits < 8; i--)
		digits++;
	if (!digits || i < 6 || !literal_at(line + i - 6, " line ", 6))
		return false;
	i -= 6;
	if (i == 0 || is_blank(line[i - 1]))
		return false;
	while (i > 0 && !is_blank(line[i - 1]))
		i--;
	for (size_t k = 0; k < sizeof(opens) / sizeof(opens[0]); k++) {
		size_t n = strlen(opens[k]);

		if (i >= n && literal_at(line + i - n, opens[k], n) && (i == n || !is_alnum_byte(line[i - n - 1])))
			return true;
	}
	return false;
}

/* Torch's location after the runtime's string: THC's check
 * (__THCudaCheck in lib/THC/THCGeneral.c of cutorch, aten/src/THC of
 * PyTorch before 1.5) raises _THError(file, line, "cuda runtime error (%d)
 * : %s", err, cudaGetErrorString(err)), and TH's _THError appends " at
 * FILE:LINE" (lib/TH/THGeneral.c). A paste that starts at the string,
 * "invalid device function  at /x/cutorch/lib/THC/THCGeneral.c:586", says
 * by the THC source file after it that the string is THC's CUDA check. */
static bool thc_location_after(const char *line, size_t len, size_t end)
{
	size_t i = end, tok, base, colon, digits = 0;

	while (i < len && line[i] == ' ')
		i++;
	if (i + 3 > len || !literal_at(line + i, "at ", 3))
		return false;
	i += 3;
	while (i < len && line[i] == ' ')
		i++;
	for (tok = i, base = i, colon = 0; i < len && !is_blank(line[i]); i++) {
		if (line[i] == '/' || line[i] == '\\')
			base = i + 1;
		else if (line[i] == ':')
			colon = i;
	}
	if (!colon || colon < base || tok == i)
		return false;
	for (size_t k = colon + 1; k < i && line[k] >= '0' && line[k] <= '9'; k++)
		digits++;
	if (!digits || colon - base < 5 || !literal_at(line + base, "thc", 3))
		return false;
	return (colon - base > 2 && literal_at(line + colon - 2, ".c", 2)) ||
	       (colon - base > 3 && literal_at(line + colon - 3, ".cu", 3)) ||
	       (colon - base > 4 && literal_at(line + colon - 4, ".cpp", 4));
}

/* A CUDA source file and a line number just after the runtime's string,
 * whatever the program prints before it: the canonical CUDA error check
 * (gpuAssert, the answer to "What is the canonical way to check for errors
 * using the CUDA runtime API?", https://stackoverflow.com/questions/14038589)
 * prints fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code),
 * file, line), and its many copies change only the opening: Solana's
 * cuda-ecc-ed25519 (src/common/gpu_common.h) prints "ERR: %s %s %d",
 * "ERR: invalid configuration argument cuda-ecc-ed25519/verify.cu 197".
 * Going on from the string's end: blanks, an optional "at " or "in ", a
 * path token whose name ends in ".cu" or ".cuh", then ':', '(', ',' or
 * blanks, an optional "line ", and the line's digits. */
static bool cuda_location_after(const char *line, size_t len, size_t end)
{
	size_t i = end, tok, ext = 0, digits = 0;

	while (i < len && line[i] == ' ')
		i++;
	if (i + 3 <= len && (literal_at(line + i, "at ", 3) || literal_at(line + i, "in ", 3)))
		for (i += 3; i < len && line[i] == ' ';)
			i++;
	for (tok = i; i < len && !is_blank(line[i]) && line[i] != ':' && line[i] != '(' && line[i] != ','; i++)
		;
	if (i - tok >= 5 && literal_at(line + i - 4, ".cuh", 4))
		ext = 4;
	else if (i - tok >= 4 && literal_at(line + i - 3, ".cu", 3))
		ext = 3;
	if (!ext || !is_word_byte(line[i - ext - 1]))
		return false;
	while (i < len && (line[i] == ' ' || line[i] == ':' || line[i] == '(' || line[i] == ','))
		i++;
	if (i + 5 <= len && literal_at(line + i, "line ", 5))
		i += 5;
	for (; i < len && line[i] >= '0' && line[i] <= '9'; i++)
		digits++;
	return digits > 0 && digits < 8;
}

/* Does the lower-case prefix (a program's own word before the runtime's
 * string) end just before start, at the start of a word? */
static bool prefix_before(const char *line, size_t start, const char *prefix)
{
	size_t n = strlen(prefix), i = start;

	while (i > 0 && line[i - 1] == ' ')
		i--;
	return i >= n && literal_at(line + i - n, prefix, n) && (i == n || !is_alnum_byte(line[i - n - 1]));
}

/* The prefixes before which a CUDA runtime string counts as CUDA's:
 * - Open Image Denoise's GPU devices throw the runtime's own string (its
 *   CUDA device: Exception(Error::Unknown, cudaGetErrorString(error))), and
 *   programs print it after "OIDN error:" (Blender's denoiser_oidn_gpu.cpp);
 * - the canonical CUDA error check (gpuErrchk/gpuAssert, the answer to
 *   "What is the canonical way to check for errors using the CUDA runtime
 *   API?", https://stackoverflow.com/questions/14038589, copied into many
 *   projects) prints "GPUassert: %s %s %d" with cudaGetErrorString(code),
 *   the file and the line: "GPUassert: out of memory mean.cu 377" (some
 *   copies drop the blank);
 * - OpenCV's cudaSafeCall (checkCudaError in opencv2/core/private.cuda.hpp
 *   and cudev's common.hpp) raises cv::error(cv::Error::GpuApiCallError,
 *   cudaGetErrorString(err), ...), and OpenCV prints that code, -217, by
 *   its name cvErrorStr() gives, "Gpu API call" (core/src/system.cpp):
 *   2.4's handler says "OpenCV Error: Gpu API call (DESC) in F, file X,
 *   line N" and its exception "X:N: error: (-217) DESC in function F",
 *   3.x and later "error: (-217:Gpu API call) DESC in function 'F'";
 * - Theano's CudaNdarray and the libraries built on its device_malloc
 *   (theano/sandbox/cuda/cuda_ndarray.cu, its copies in Theano-based
 *   packages) print a failed cudaMalloc as "Error allocating %li bytes of
 *   device memory (%s)." with cudaGetErrorString(err) (cnmem's string when
 *   CNMeM pools the memory): "Error allocating 33554432 bytes of device
 *   memory (out of memory). Driver report 21364736 bytes free ...". */
static bool cuda_string_prefix_before(const char *line, size_t start)
{
	return prefix_before(line, start, "oidn error:") || prefix_before(line, start, "gpuassert:") ||
	       prefix_before(line, start, "gpu api call (") || prefix_before(line, start, "gpu api call)") ||
	       prefix_before(line, start, "(-217)") || prefix_before(line, start, "bytes of device memory (");
}

/* cuTT's error check, cudaCheck(stmt) in src/CudaUtils.h (copied by the
 * programs that vendor cuTT, Jittor among them), prints the failed
 * statement, "%s in file %s, function %s", then on a line of its own
 * "Error String: %s" with cudaGetErrorString(err); Jittor's log of it says
 * "Error message: ". Is the line such a statement: a CUDA runtime call
 * ("cudaFuncSetSharedMemConfig(") and, after it, " in file "? */
bool gw__explain_cuda_check_statement(const char *line, size_t n)
{
	for (size_t i = 0; i + 6 <= n; i++) {
		size_t k = i + 4;

		if ((line[i] | 0x20) != 'c' || !literal_at(line + i, "cuda", 4) || (i > 0 && is_word_byte(line[i - 1])) ||
		    line[k] < 'A' || line[k] > 'Z')
			continue;
		while (k < n && is_word_byte(line[k]))
			k++;
		if (k >= n || line[k] != '(')
			continue;
		for (; k + 9 <= n; k++)
			if (literal_at(line + k, " in file ", 9))
				return true;
		return false;
	}
	return false;
}

/* The runtime's description after "Error String:" or "Error message:" on
 * the line after a cuTT statement line. */
static bool cuda_check_description(const gw_explainer *ex, size_t start)
{
	return ex->call_line && ex->call_line == ex->lines &&
	       (prefix_before(ex->line, start, "error string:") || prefix_before(ex->line, start, "error message:"));
}

/* sgl-kernel's CHECK_CUDA_SUCCESS (sgl-kernel/include/utils.h) throws
 * cuda_error, a std::runtime_error, with cudaGetErrorString(e) and, on the
 * next line, the file and line; PyTorch's extension binding turns it into
 * Python's RuntimeError, so the runtime's string is the whole message:
 * "RuntimeError: invalid argument" over ".../custom_all_reduce.cuh:37".
 * The runtime's strings start lower-case, C's strerror() texts ("Invalid
 * argument", Python's OSError) upper-case; "unknown error" says too little
 * on its own. */
static bool runtime_error_is_string(const gw_explainer *ex, size_t start, size_t end)
{
	size_t i = end;

	if (ex->line[start] < 'a' || ex->line[start] > 'z' || !prefix_before(ex->line, start, "runtimeerror:") ||
	    (end - start == 13 && literal_at(ex->line + start, "unknown error", 13)))
		return false;
	while (i < ex->line_len && (ex->line[i] == ' ' || ex->line[i] == '\t' || ex->line[i] == '\r'))
		i++;
	return i == ex->line_len;
}

/* Does the text before start end with an OpenCL call's failure, as
 * PyOpenCL words it: "clGetPlatformIDs failed: " (the call's name as the
 * API spells it, "cl" and a capital letter; PyOpenCL 2016 lower-cased it:
 * "clcreatecontextfromtype failed: ")? */
static bool opencl_call_failed_before(const char *line, size_t start)
{
	static const char tail[] = " failed:";
	size_t n = sizeof tail - 1, i = start, w;

	while (i > 0 && line[i - 1] == ' ')
		i--;
	if (i < n || !literal_at(line + i - n, tail, n))
		return false;
	for (w = i - n; w > 0 && is_alnum_byte(line[w - 1]); w--)
		;
	return i - n - w >= 5 && line[w] == 'c' && line[w + 1] == 'l' &&
	       ((line[w + 2] >= 'A' && line[w + 2] <= 'Z') || (line[w + 2] >= 'a' && line[w + 2] <= 'z')) &&
	       (w == 0 || !is_word_byte(line[w - 1]));
}

/* Is the name at [start, end) an identifier of source code rather than a
 * status a program returned? A compiler reports it undeclared (GCC's C
 * "error: 'X' undeclared", C++'s "'X' was not declared in this scope" and
 * "'X' is not a member of 'Y'", Clang's "use of undeclared identifier 'X'",
 * nvcc's EDG front end's 'identifier "X" is undefined', MSVC's "'X':
 * undeclared identifier"), or GCC and Clang quote the offending source
 * line under the diagnostic ("  434 |  case X:"). A build that fails
 * because its CUDA headers lack an enumerator is no run-time failure. */

static bool source_identifier(const char *line, size_t len, size_t start, size_t end)
{
	static const char *const says[] = { "undeclared", "not declared", "is undefined", "is not a member of",
					    "has no member" };
	size_t i = 0, digits = 0;

	while (i < len && is_blank(line[i]))
		i++;
	while (i < len && line[i] >= '0' && line[i] <= '9' && i < start)
		i++, digits++;
	while (i < len && line[i] == ' ')
		i++;
	if (digits && i < start && line[i] == '|')
		return true;       /* the compiler's quote of the source line */
	if (start == 0 || end >= len)
		return false;
	/* quoted: 'X' "X" `X` or GCC's typographic quotes (UTF-8 E2 80 98/99) */
	if (!strchr("'\"`", line[start - 1]) && !((unsigned char)line[start - 1] == 0x98 && start >= 3 &&
						   (unsigned char)line[start - 3] == 0xe2))
		return false;
	for (size_t k = 0; k < sizeof(says) / sizeof(says[0]); k++)
		if (gw__explain_line_has(line, len, says[k]))
			return true;
	return false;
}

/* The shortest description read by the number before it alone: shorter
 * ones ("unknown error", "out of memory", "invalid argument") are the
 * words of too many other programs' messages. */
#define OWN_NUMBER_MIN_DESC 17

/* Does the code's own number stand just before its description? Programs
 * that print a status as its number and then its string (cudaGetErrorString)
 * without naming the library say which library it is by the pair: Claymore's
 * miner prints "GpuMiner cu_kd failed 8 (0), invalid device function" and
 * "GpuMiner cu_k1 failed 77, an illegal memory access was encountered" (8 and
 * 77 in the runtime's numbering before CUDA 10.1), printf("%d: %s") wrappers
 * "98: invalid device function". Going back from the description: blanks,
 * one of ",:-" and blanks, then the number, word-delimited; one other
 * number in parentheses may stand between them ("8 (0)"), and the number
 * itself may be parenthesised ("(8): invalid device function"). */
static bool own_number_before(const char *line, size_t start, long number)
{
	size_t i = start;

	while (i > 0 && is_blank(line[i - 1]))
		i--;
	if (i > 0 && (line[i - 1] == ',' || line[i - 1] == ':' || line[i - 1] == '-'))
		i--;
	for (int k = 0; k < 2; k++) {
		bool paren = false;
		long v = 0, scale = 1;
		int digits = 0;

		while (i > 0 && is_blank(line[i - 1]))
			i--;
		if (i > 0 && line[i - 1] == ')') {
			paren = true;
			i--;
		}
		for (; i > 0 && line[i - 1] >= '0' && line[i - 1] <= '9' && digits < 6; i--, digits++, scale *= 10)
			v += (line[i - 1] - '0') * scale;
		if (!digits)
			return false;
		if (paren) {
			if (i == 0 || line[i - 1] != '(')
				return false;
			i--;
		} else if (i > 0 && (is_word_byte(line[i - 1]) || line[i - 1] == '.' || line[i - 1] == '-')) {
			return false;
		}
		if (v == number)
			return true;
		if (!paren)
			return false;
	}
	return false;
}

/* A CUDA description (DESC row p at start) read by its own number before
 * it: the code, today's or the one of before CUDA 10.1 whose number it is;
 * -1 when the line has no such number. CUDA's alone: HIP numbers its codes
 * as CUDA does, and a line that names neither is CUDA's far more often. */
int gw__explain_own_number_code(const gw_explainer *ex, unsigned p, size_t start)
{
	const gw__explain_pattern *pat = &gw__explain_patterns[p];
	int twin;

	if (pat->how != GW__HOW_DESC || pat->code < 0 || strncmp(pat->framework, "cuda-", 5) ||
	    ex->cat->lit_len[p] < OWN_NUMBER_MIN_DESC)
		return -1;
	if (own_number_before(ex->line, start, gw__status_codes[pat->code].pub.number))
		return pat->code;
	if ((twin = ex->cat->legacy_twin[pat->code]) >= 0 && own_number_before(ex->line, start, gw__status_codes[twin].pub.number))
		return twin;
	return -1;
}

/* Does "nvidia-container-cli:" (or its ".real" binary's name) end just
 * before start? libnvidia-container's CLI prefixes its own failures with
 * the step that failed (src/cli/configure.c and info.c: warnx("initialization
 * error: %s", ...), warnx() adding the program's name): "nvidia-container-
 * cli: initialization error: cuda error: unknown error". That
 * "initialization error" is the step, not CUDA's cudaErrorInitialization-
 * Error. The name needs no word start: the OCI hook's escaped newline
 * ("...]\\nnvidia-container-cli:") glues an "n" to it. */
static bool container_cli_step_before(const char *line, size_t start)
{
	static const char *const names[] = { "nvidia-container-cli:", "nvidia-container-cli.real:" };
	size_t i = start;

	while (i > 0 && line[i - 1] == ' ')
		i--;
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		size_t n = strlen(names[k]);

		if (i >= n && literal_at(line + i - n, names[k], n))
			return true;
	}
	return false;
}

/* Clang's preprocessor says a header it cannot open is "'NAME' file not
 * found" (err_pp_file_not_found, clang/include/clang/Basic/
 * DiagnosticLexKinds.td): "fatal error: 'cuda.h' file not found" on a
 * build whose source needs CUDA. A description right after a quoted file
 * name (a '.' or a path separator in it) and a blank is the compiler's
 * about that file, not a status a program returned, even on a line that
 * names CUDA (the runtime's "file not found" is cudaErrorFileNotFound's).
 * A description inside the quotes
 * ("CUDA error: 'out of memory'") follows its opening quote with no blank,
 * and a quoted call ("CUDA error 'cudaMalloc' out of memory") is no file:
 * both are read as before. */
static bool quoted_operand_before(const char *line, size_t start)
{
	size_t i = start, j;
	bool path = false;
	char q;

	while (i > 0 && line[i - 1] == ' ')
		i--;
	if (i == start || i < 3)
		return false;
	q = line[i - 1];
	if (q != '\'' && q != '"' && q != '`')
		return false;
	for (j = i - 1; j > 0 && line[j - 1] != q && !is_blank(line[j - 1]) && i - j < 256; j--)
		if (line[j - 1] == '.' || line[j - 1] == '/' || line[j - 1] == '\\')
			path = true;
	return path && j > 0 && line[j - 1] == q && j < i - 1;
}

/* thrust's exceptions: system_error::what() is "WHAT: DESCRIPTION", the
 * failed step and its error code's message, which for thrust's CUDA
 * category is cudaGetErrorString()'s (thrust/system/detail/
 * system_error.inl, thrust/system/cuda/detail/error.inl): "device free
 * failed: driver shutting down" (cuda_cub::throw_on_error in
 * malloc_and_free.h). C++'s terminate handler prints the type, then
 * "  what():  " and the text on the next line. A runtime string counts as
 * CUDA's on the line that names thrust's exception before it, or after
 * "what():" on the line after one that names it. */
static bool thrust_what_before(const gw_explainer *ex, size_t start)
{
	if (gw__explain_names_library(ex->line, start, "thrust::system::", true))
		return true;
	return ex->thrust_line && ex->thrust_line == ex->lines && gw__explain_names_library(ex->line, start, "what():", false);
}

/* Is the name at [start, end) an operand of an equality test, "x == NAME"
 * or "NAME == x"? A check that failed on such a test printed its condition,
 * and the name in it is the value the check expected, not the status the
 * call returned: the CUDA_CALL macro of MXNet, TVM, DGL and BytePS,
 * CHECK(e == cudaSuccess || e == cudaErrorCudartUnloading) << "CUDA: " <<
 * cudaGetErrorString(e), prints "Check failed: e == cudaSuccess || e ==
 * cudaErrorCudartUnloading CUDA: unknown error" (dmlc-core's CHECK writes
 * the condition's text), and the NVIDIA driver's "Assertion failed: (status
 * == NV_OK) || (status == NV_ERR_GPU_IN_FULLCHIP_RESET)". The status is the
 * string after the condition. A failed "!=" test is not read so: its
 * operand is the value the call did return. */
static bool equality_operand(const char *line, size_t len, size_t start, size_t end)
{
	size_t i = start, k = end;

	while (i > 0 && is_blank(line[i - 1]))
		i--;
	if (i >= 2 && line[i - 1] == '=' && line[i - 2] == '=')
		return true;
	while (k < len && is_blank(line[k]))
		k++;
	return k + 1 < len && line[k] == '=' && line[k + 1] == '=';
}

static bool code_row_accepts(const gw_explainer *ex, unsigned p, size_t start)
{
	const gw__explain_pattern *pat = &gw__explain_patterns[p];
	size_t end = start + ex->cat->lit_len[p];

	if (start > 0 && is_word_byte(ex->line[start - 1]))
		return false;
	if (end < ex->line_len && is_word_byte(ex->line[end]))
		return false;
	if (pat->how == GW__HOW_NAME && (source_identifier(ex->line, ex->line_len, start, end) ||
					 equality_operand(ex->line, ex->line_len, start, end)))
		return false;
	if (pat->how != GW__HOW_DESC)
		return true;
	if (container_cli_step_before(ex->line, start))
		return false;
	if (quoted_operand_before(ex->line, start))
		return false;
	/* ggml built for HIP names its errors "ROCm error: DESC" (ggml-cuda's
	 * ggml_cuda_error: GGML_CUDA_NAME " error: %s" with hipGetErrorString,
	 * GGML_CUDA_NAME being "ROCm"). Only that prefix: "ROCm" elsewhere on a
	 * line does not make HIP's short strings its own (JAX's build: "ERROR:
	 * ROCm version file not found in [...]" is no hipErrorFileNotFound). */
	if (!strcmp(pat->framework, "hip") && prefix_before(ex->line, start, "rocm error:"))
		return true;
	if (!strncmp(pat->framework, "cuda-", 5) && cuda_location_before(ex->line, start))
		return true;
	if (!strcmp(pat->framework, "cuda-runtime") && amrex_location_before(ex->line, start))
		return true;
	if (!strcmp(pat->framework, "cuda-runtime") &&
	    (cuda_string_prefix_before(ex->line, start) || cuda_check_description(ex, start) ||
	     runtime_error_is_string(ex, start, end) || thrust_what_before(ex, start) ||
	     thc_location_after(ex->line, ex->line_len, end) || cuda_location_after(ex->line, ex->line_len, end)))
		return true;
	/* CUB's algorithms (cub::DeviceReduce, cub::DeviceRadixSort, ...)
	 * return the runtime's cudaError_t, and TensorFlow's kernels print its
	 * string after the call they could not launch: "WhereOp: Could not
	 * launch cub::DeviceReduce::Sum ... status: invalid resource handle"
	 * (core/kernels/where_op_gpu.cu.h). hipCUB ("hipcub::") is HIP's. */
	if (!strcmp(pat->framework, "cuda-runtime") && gw__explain_names_library(ex->line, start, "cub::", true))
		return true;
	/* Vulkan-Hpp's exceptions print the failed call, then the code's
	 * string: "vk::Queue::submit: ErrorDeviceLost". */
	if (!strcmp(pat->framework, "vulkan") && gw__explain_names_library(ex->line, start, "vk::", false))
		return true;
	/* PyOpenCL: "clGetPlatformIDs failed: PLATFORM_NOT_FOUND_KHR", its
	 * exception's module ("pyopencl._cl.LogicError") on the line or not. */
	if (!strcmp(pat->framework, "opencl") && opencl_call_failed_before(ex->line, start))
		return true;
	if (gw__explain_own_number_code(ex, p, start) >= 0)
		return true;
	return gw__explain_names_library(ex->line, start, library_word(pat->framework), false);
}

/* The library a "*" wrapping ("error code 46") is about: the first of
 * hipBLAS, HIP, cuBLAS, cuDNN, NCCL, cuSOLVER, cuSPARSE, cuFFT, cuRAND and
 * CUDA the line names as a word of its own (TensorRT's
 * "deserializeCudaEngine::50] Error Code 4" is TensorRT's code, not CUDA's;
 * Faiss's ROCm port says "cublas failed (7)" of a hipblasStatus_t on a line
 * that names HIPBLAS_STATUS_SUCCESS); NULL when none. */
const char *gw__explain_line_library(const gw_explainer *ex)
{
	static const char *const libs[][2] = {
		{ "hipblas", "hipblas" }, { "hip", "hip" }, { "rocm", "hip" }, { "cublas", "cublas" }, { "cudnn", "cudnn" }, { "nccl", "nccl" },
		{ "cusolver", "cusolver" }, { "cusparse", "cusparse" }, { "cufft", "cufft" }, { "curand", "curand" },
		{ "cuda", "cuda-any" },
	};

	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		if (gw__explain_names_library(ex->line, ex->line_len, libs[i][0], true))
			return libs[i][1];
	return NULL;
}

/* Does the line hold the text (any case)? */
bool gw__explain_line_has_text(const gw_explainer *ex, const char *text)
{
	size_t n = strlen(text);

	for (size_t i = 0; i + n <= ex->line_len; i++) {
		size_t k = 0;

		while (k < n && fold((uint8_t)ex->line[i + k]) == fold((uint8_t)text[k]))
			k++;
		if (k == n)
			return true;
	}
	return false;
}

/* Is the code's description on the line? */
static bool line_has_description(const gw_explainer *ex, int code)
{
	const char *d = gw__status_codes[code].pub.description;

	return strcmp(d, "-") && strlen(d) >= 6 && gw__explain_line_has_text(ex, d);
}

/* Codes that today's numbering keeps but no runtime since CUDA 5.0
 * returns: driver_types.h marks them deprecated ("it is no longer an error
 * to call cudaProfilerStop() when profiling is already disabled"), and so
 * does cuda.h for the driver's CUDA_ERROR_PROFILER_* of the same numbers. */
static const char *const retired_codes[] = {"cudaErrorProfilerNotInitialized", "cudaErrorProfilerAlreadyStarted",
					    "cudaErrorProfilerAlreadyStopped"};

/* Is the status code one of the named ones (code < 0: none)? */
static bool code_named(int code, const char *const *names, size_t n)
{
	for (size_t i = 0; code >= 0 && i < n; i++)
		if (!strcmp(gw__status_codes[code].pub.name, names[i]))
			return true;
	return false;
}

static bool is_retired(int code)
{
	return code_named(code, retired_codes, sizeof retired_codes / sizeof retired_codes[0]);
}

/* Codes a call returns while the process is exiting, after the driver or
 * the runtime was unloaded: destructors (thrust's, a library's handles)
 * that free GPU memory at exit. After an earlier error they are its echo at
 * teardown ("cudaFree in free: driver shutting down" after an illegal
 * memory access), not a failure of their own. */
static const char *const teardown_codes[] = {"cudaErrorCudartUnloading", "CUDA_ERROR_DEINITIALIZED",
					     "hipErrorDeinitialized"};

bool gw__explain_is_teardown(int code)
{
	return code_named(code, teardown_codes, sizeof teardown_codes / sizeof teardown_codes[0]);
}

/* The code a bare number of the CUDA runtime names: the one of before CUDA
 * 10.1 when the log showed such a CUDA, when the line holds that code's
 * description and not today's ("invalid device function (CUDA error 8)"),
 * or when today's numbering has no such error (77, 38, 48) or only one no
 * runtime returns any more (6, 7, 8: the old one is the only reading);
 * else today's. */
int gw__explain_cuda_number_code(const gw_explainer *ex, const char *library, long number)
{
	int today = gw__explain_code_by_number(library, number, false);
	int old = gw__explain_code_by_number(library, number, true);

	if (old >= 0 && old != today &&
	    (ex->legacy_cuda || today < 0 || is_retired(today) ||
	     (line_has_description(ex, old) && !line_has_description(ex, today))))
		return old;
	return today;
}

bool gw__explain_is_cuda_numbering(const char *library)
{
	return !strcmp(library, "cuda-any") || !strcmp(library, "cuda-runtime");
}

/* The CUDA runtime's numbering, or the driver's (the same numbers). */
static bool is_cuda_numbering_any(const char *library)
{
	return gw__explain_is_cuda_numbering(library) || !strcmp(library, "cuda-driver");
}

/* Full-width forms of the separators below, as a Chinese or Japanese input
 * method types them ("CUDA error：700", "cudaError（2）"): U+FF1A, U+FF08,
 * U+FF1D, U+FF03 and the ideographic space U+3000, in UTF-8. */
static const char *const wide_separators[] = {"\xef\xbc\x9a", "\xef\xbc\x88", "\xef\xbc\x9d",
					      "\xef\xbc\x83", "\xe3\x80\x80"};

/* s past the blanks and separators (":=#(", ASCII or full-width, a
 * quote: Excavator's "CUDA error DRIVER: '700'", and a bracket: libnd4j's
 * "cuSolver handle creation failed !; Error code: [7]", its handle checks
 * in libnd4j/include/helpers/cuda/cublasHelper.cu) that may stand between
 * a wrapping and its number. */
static const char *skip_separators(const char *s, const char *end)
{
	for (;;) {
		size_t i, n = sizeof wide_separators / sizeof *wide_separators;

		if (s < end && strchr(" \t:=#('[", *s)) {
			s++;
			continue;
		}
		for (i = 0; i < n; i++)
			if (s + 3 <= end && !memcmp(s, wide_separators[i], 3))
				break;
		if (i == n)
			return s;
		s += 3;
	}
}

/* Does the text before start end with TensorRT's "[file::function::line]"?
 * The "Error Code N" after it is TensorRT's nvinfer1::ErrorCode (6:
 * kFAILED_INITIALIZATION), not a code of the library the message names
 * ("Error Code 6: Internal Error (CUDA initialization failure ...)"). */
static bool after_tensorrt_location(const char *line, size_t start)
{
	size_t i = start;

	while (i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t'))
		i--;
	if (i == 0 || line[i - 1] != ']')
		return false;
	for (i--; i > 1 && line[i - 1] != '['; i--)
		if (line[i - 1] == ':' && line[i - 2] == ':')
			return true;
	return false;
}

/* s past the place a check macro names between a wrapping and its code
 * ("CUDA error at kernel.cu:598 code=2", the checkCudaErrors() of the CUDA
 * samples' helper_cuda.h and its copies): " at ", one token, blanks, when
 * the word "code" follows them; else s. */
static const char *skip_location(const char *s, const char *end)
{
	const char *t = s;

	if (t + 4 > end || !literal_at(t, " at ", 4))
		return s;
	for (t += 4; t < end && *t != ' ' && *t != '\t'; t++)
		;
	while (t < end && (*t == ' ' || *t == '\t'))
		t++;
	return (t + 4 <= end && literal_at(t, "code", 4)) ? t : s;
}

/* s past the arguments a wrapper lists before its code, when it does:
 * DeepSpeed's GEMM wrappers (csrc/transformer/cublas_wrappers.cu and their
 * copies) print "kernel execution error. (m: 64, n: 1025, k: 1025, error:
 * 14)", the call's sizes and then cuBLAS's status. An optional '.', then
 * "(", fields "name: number," and the word "error": s past that word;
 * else s. */
static const char *skip_arguments(const char *s, const char *end)
{
	const char *t = s;

	if (t < end && *t == '.')
		t++;
	while (t < end && *t == ' ')
		t++;
	if (t >= end || *t != '(')
		return s;
	for (t++;;) {
		const char *w;

		while (t < end && *t == ' ')
			t++;
		if (t + 5 <= end && literal_at(t, "error", 5))
			return t + 5;
		for (w = t; t < end && ((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z')); t++)
			;
		if (t == w || t >= end || *t != ':')
			return s;
		for (t++; t < end && *t == ' '; t++)
			;
		for (w = t; t < end && *t >= '0' && *t <= '9'; t++)
			;
		if (t == w || t >= end || *t != ',')
			return s;
		t++;
	}
}

/* A number after a wrapping ("CUDA error 700", "cudaError(2)", "hip error
 * code: 101", "CUDA error at f.cu:9 code=2"): the code it names, or -1. *numbered_as is the library whose
 * numbering it was read in when that was the CUDA runtime's (which changed
 * in CUDA 10.1), else NULL. */
int gw__explain_number_code(const gw_explainer *ex, unsigned p, size_t start, const char **numbered_as)
{
	const gw__explain_pattern *pat = &gw__explain_patterns[p];
	const char *s = ex->line + start + ex->cat->lit_len[p];
	const char *end = ex->line + ex->line_len;
	const char *library = pat->framework;
	long number = 0;
	int digits = 0;
	bool negative = false;

	if (start > 0 && is_alnum_byte(ex->line[start - 1]))
		return -1;
	if (!strcmp(library, "*") && (after_tensorrt_location(ex->line, start) || !(library = gw__explain_line_library(ex))))
		return -1;
	if (s + 2 <= end && !memcmp(s, "_t", 2))
		s += 2;
	s = skip_separators(skip_location(skip_arguments(s, end), end), end);
	if (s + 4 <= end && literal_at(s, "code", 4))
		s = skip_separators(s + 4, end);
	/* CUDA numbers its statuses from 0: a negative CUresult is no status
	 * of the driver's but a value nothing can name, an unknown error
	 * (TensorFlow's ToString(CUresult) prints "CUresult(-1)" for a value
	 * its switch lacks: stream_executor/cuda/cuda_driver.cc). Other
	 * wrappings of a negative number ("CUDA error -1") are a program's
	 * own return value, not a status. The matched wrapping says which
	 * (gen-explain stores a wrapping's literal in lower case). */
	if (s + 1 < end && *s == '-' && s[1] >= '0' && s[1] <= '9' && is_cuda_numbering_any(library) &&
	    !strcmp(pat->literal, "curesult")) {
		for (s++; s < end && *s >= '0' && *s <= '9'; s++)
			;
		if (s < end && (is_word_byte(*s) || *s == '.'))
			return -1;
		*numbered_as = NULL;
		return gw__explain_code_by_number(strcmp(library, "cuda-any") ? library : "cuda-runtime", 999, false);
	}
	/* CUDA.jl's CuError shows its CUresult as Julia shows a CEnum value
	 * it prints by type, "CUDA.cudaError_enum(0x00000004)" (cuda.h's
	 * "typedef enum cudaError_enum {...} CUresult"): the code in hex, as
	 * only this wrapping writes it. */
	if (!strcmp(pat->literal, "cudaerror_enum") && s + 2 < end && s[0] == '0' && (s[1] | 0x20) == 'x') {
		for (s += 2; s < end && ((*s >= '0' && *s <= '9') || ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')) && digits < 8; s++, digits++)
			number = number * 16 + (*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10);
		if (!digits || (s < end && is_word_byte(*s)) || !number)
			return -1;
		*numbered_as = NULL;
		return gw__explain_code_by_number(library, number, false);
	}
	/* Vulkan's and OpenCL's errors are negative ("vkQueueSubmit failed
	 * -4"); no other library's positive code is written with a sign. */
	if (s + 1 < end && *s == '-' && s[1] >= '0' && s[1] <= '9') {
		negative = true;
		s++;
	}
	for (; s < end && *s >= '0' && *s <= '9' && digits < 10; s++, digits++)
		number = number * 10 + (*s - '0');
	/* A full stop ends a sentence ("with error 35. Please check"); one
	 * before a digit makes a version ("CUDA error 12.1"), not a code. */
	if (!digits || (s < end && is_word_byte(*s)) || !number ||
	    (s < end && *s == '.' && s + 1 < end && (s[1] == '.' || (s[1] >= '0' && s[1] <= '9'))))
		return -1;
	if (negative)
		number = -number;
	*numbered_as = NULL;
	/* A CUresult wrapping around a number the driver's enum has no code
	 * for: a runtime status (cudaError_t) kept in a CUresult, as a Go or
	 * other binding that types both as its Result does (barnex/cuda5's
	 * DeviceReset prints cudaDeviceReset's 35, "CUDA driver version is
	 * insufficient", as "Unknown CUresult: 35"). The runtime's numbering
	 * is the only reading; a number both enums lack stays unknown. */
	if (!strcmp(library, "cuda-driver") && !gw__explain_library_has_number(library, number))
		library = "cuda-runtime";
	if (!gw__explain_is_cuda_numbering(library))
		return gw__explain_code_by_number(library, number, false);
	*numbered_as = library;
	return gw__explain_cuda_number_code(ex, library, number);
}

/* The line with each run of spaces and tabs read as one space, or NULL
 * when it has no such run. A message is printed with single spaces; a
 * paste may double them (a wrapped terminal line joined again, text
 * re-indented or justified: "CUDA wasn't  able to be loaded"), and the
 * rows' regexes are written with one. */
static const char *squeezed_line(gw_explainer *ex)
{
	if (ex->squeezed_gen != ex->gen) {
		size_t o = 0;

		ex->squeezed_gen = ex->gen;
		ex->squeezed_differs = false;
		for (size_t i = 0; i < ex->line_len; i++) {
			bool blank = ex->line[i] == ' ' || ex->line[i] == '\t';

			if (blank && o > 0 && ex->squeezed[o - 1] == ' ') {
				ex->squeezed_differs = true;
				continue;
			}
			if (blank && ex->line[i] == '\t')
				ex->squeezed_differs = true;
			ex->squeezed[o++] = blank ? ' ' : ex->line[i];
		}
		ex->squeezed[o] = '\0';
	}
	return ex->squeezed_differs ? ex->squeezed : NULL;
}

/* Does the regex match the line as printed or with its blanks squeezed? */
bool gw__explain_line_matches(gw_explainer *ex, const regex_t *rx)
{
	const char *sq;

	if (!rx)
		return false;
	if (gw__explain_regex_matches(rx, ex->line))
		return true;
	return (sq = squeezed_line(ex)) && gw__explain_regex_matches(rx, sq);
}

/* Did the line print an enum member's name in capitals, line[start..end)
 * ("CUDNN_STATUS_NOT_SUPPORTED", "CUDA_ERROR_ASSERT"), that goes on as a
 * longer member (CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH, another code)?
 * A row's literal that ends in "_" is a prefix on purpose, and lower-case
 * text ("libbitsandbytes_cuda118") is no enum name. */
static bool longer_enum_name(const char *line, size_t len, size_t start, size_t end)
{
	bool underscore = false;

	if (end >= len || end <= start || !is_word_byte(line[end]) || line[end - 1] == '_')
		return false;
	for (size_t i = start; i < end; i++) {
		char c = line[i];

		if (c == '_')
			underscore = true;
		else if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			return false;
	}
	return underscore;
}

bool gw__explain_pattern_accepts(gw_explainer *ex, unsigned p, size_t start)
{
	const struct catalogue *cat = ex->cat;
	size_t end = start + cat->lit_len[p];

	if (gw__explain_patterns[p].how != GW__HOW_PLAIN)
		return code_row_accepts(ex, p, start);
	if (longer_enum_name(ex->line, ex->line_len, start, end))
		return false;
	if (gw__explain_has_regex(p) && !gw__explain_line_matches(ex, gw__explain_regex_of(cat, p, RX_MATCH)))
		return false;
	if (gw__explain_has_veto(p) && gw__explain_line_matches(ex, gw__explain_regex_of(cat, p, RX_UNLESS)))
		return false;
	return true;
}
