/* gpuwise explain: the missing-library rule. A loader's words about a
 * library (any soname or DLL of data/explain's sonames table) give the
 * library's component, version and package. */
#include "explain/explain_int.h"

/* ---- the missing-library rule ---------------------------------------- */

static bool is_name_byte(char c)
{
	return is_word_byte(c) || c == '-' || c == '+';
}

/* Case-insensitive: does the lowercase needle occur in line[0..len)? */
bool gw__explain_line_has(const char *line, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; i + n <= len; i++)
		if (fold((uint8_t)line[i]) == (uint8_t)needle[0] && literal_at(line + i, needle, n))
			return true;
	return false;
}

/* Windows' system error codes that say a DLL was found but could not be
 * loaded: 127 ERROR_PROC_NOT_FOUND (it lacks a function asked for), 193
 * ERROR_BAD_EXE_FORMAT (another architecture), 1114 ERROR_DLL_INIT_FAILED
 * (its initialisation routine failed), 1455 (the paging file is too small
 * to map it). */
static const int win_found_codes[] = { 127, 193, 1114, 1455 };
/* ... and those windows-dll-load-failed explains, the file found or not:
 * 126 ERROR_MOD_NOT_FOUND (it or one of its imports is not found), 127,
 * 1114. */
static const int win_load_codes[] = { 126, 127, 1114 };

/* Is one of the Windows error codes on the line, as Windows' loaders word
 * it? "[WinError N]" (Python's OSError), "error code N", "error code: N",
 * "DLL load failed with error code N" (CPython's dynload_win.c),
 * "LoadLibrary failed with error N" (ONNX Runtime's env.cc): "error", an
 * optional " code" and ':', blanks, then N, which no digit follows. */
static bool windows_error_in(const char *line, size_t len, const int *codes, size_t ncodes)
{
	for (size_t i = 0; i + 5 <= len; i++) {
		size_t j = i + 5, digits;
		long n = 0;

		if (!literal_at(line + i, "error", 5))
			continue;
		if (j + 5 <= len && literal_at(line + j, " code", 5))
			j += 5;
		if (j < len && line[j] == ':')
			j++;
		if (j >= len || line[j] != ' ')
			continue;
		while (j < len && line[j] == ' ')
			j++;
		for (digits = 0; j < len && line[j] >= '0' && line[j] <= '9' && digits < 6; j++, digits++)
			n = n * 10 + (line[j] - '0');
		if (digits == 0 || (j < len && line[j] >= '0' && line[j] <= '9'))
			continue;
		for (size_t c = 0; c < ncodes; c++)
			if (n == codes[c])
				return true;
	}
	return false;
}

/* The line says the library was found but is the wrong one: another
 * finding (a version or symbol mismatch), not a missing library. */
static bool library_found_but_wrong(const char *line, size_t len)
{
	static const char *const words[] = {
		"undefined symbol", "not defined in file", "version `", "wrong elf class",
		"invalid elf header", "file too short", "paging file",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (gw__explain_line_has(line, len, words[i]))
			return true;
	return windows_error_in(line, len, win_found_codes, sizeof(win_found_codes) / sizeof(win_found_codes[0]));
}

/* The library a linker names by its option: "-lcuda" is libcuda.so, the
 * unversioned link the linker looks for (binutils ld's "cannot find
 * -lcuda", in its translations too: "找不到 -lcuda"; lld's "unable to find
 * library -lcuda"). The first "-lNAME" on the line that data/sonames.tsv
 * knows; *at and *len give it as the line spells it. */
static const gw_row_sonames *find_link_library(const char *line, size_t n, size_t *at, size_t *len)
{
	for (size_t i = 0; i + 2 < n; i++) {
		char name[64];
		size_t end = i + 2;
		const gw_row_sonames *row;

		if (line[i] != '-' || line[i + 1] != 'l' || (i > 0 && is_name_byte(line[i - 1])))
			continue;
		while (end < n && is_name_byte(line[end]) && line[end] != '.')
			end++;
		if (end == i + 2 || end - i - 2 + sizeof("lib.so") > sizeof(name))
			continue;
		gw__fmt(name, sizeof(name), "lib%.*s.so", (int)(end - i - 2), line + i + 2);
		if ((row = gw__tbl_soname(name, strlen(name)))) {
			*at = i;
			*len = end - i;
			return row;
		}
	}
	return NULL;
}

/* A library named by its bare name NAME just before `phrase`: NAME is
 * libNAME.so when data/sonames.tsv knows it. With `quoted`, NAME must
 * stand in double quotes (the quote is part of the phrase); without, the
 * words before the phrase may also end with the component the table names.
 * *at and *len give the name as the line spells it. */
static const gw_row_sonames *bare_name_before(const char *line, size_t n, const char *phrase, bool quoted,
					      size_t *at, size_t *len)
{
	const size_t pn = strlen(phrase);

	for (size_t i = 1; i + pn <= n; i++) {
		char name[64];
		size_t start = i;
		const gw_row_sonames *row;

		if (!literal_at(line + i, phrase, pn) || !is_name_byte(line[i - 1]))
			continue;
		while (start > 0 && is_name_byte(line[start - 1]))
			start--;
		if ((quoted && (start == 0 || line[start - 1] != '"')) || i - start + sizeof("lib.so") > sizeof(name))
			continue;
		gw__fmt(name, sizeof(name), "lib%.*s.so", (int)(i - start), line + start);
		for (char *c = name; *c; c++)
			*c = (char)fold((uint8_t)*c);
		if ((row = gw__tbl_soname(name, strlen(name)))) {
			*at = start;
			*len = i - start;
			return row;
		}
		if (!quoted && (row = gw__tbl_soname_component(line, i))) {
			*len = gw__tbl_soname_component_len(row);
			*at = i - *len;
			return row;
		}
	}
	return NULL;
}

/* Before "library not found": scikit-cuda's "cufft library not found", a
 * build's "cuFFT library not found in ..."; or the component ("CUDA
 * runtime": scikit-cuda's cudart.py raises OSError('CUDA runtime library
 * not found') when no cudart candidate loads; "NVIDIA driver", "cuDNN",
 * "TensorRT"): the component's unversioned row. */
static const gw_row_sonames *find_named_library(const char *line, size_t n, size_t *at, size_t *len)
{
	return bare_name_before(line, n, " library not found", false, at, len);
}

/* In quotes before "shared library": cudarc (Rust bindings to the CUDA
 * libraries, used by candle and mistral.rs; its src/lib.rs) panics with
 * 'Unable to dynamically load the "cublas" shared library - searched for
 * library names: ["cublas", "cublas64_12", ...]' when none of the
 * candidates loads, and on Linux the candidates are bare stems that name
 * no file (cuda, cublas, cublasLt, cudnn, curand, nvrtc, ...). */
static const gw_row_sonames *find_quoted_library(const char *line, size_t n, size_t *at, size_t *len)
{
	return bare_name_before(line, n, "\" shared library", true, at, len);
}

/* Find the library file name on the line that data/sonames.tsv knows:
 * "lib....so[.N...]" or "....dll", ended by a byte that cannot continue
 * it; the first one, or the last before dlerror's "NAME: cannot open
 * shared object file" when the line has it ("Could not load library
 * libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open ...": libcuda
 * is the one missing). *at and *len give it. */
static const gw_row_sonames *find_library(const char *line, size_t n, size_t *at, size_t *len)
{
	/* dlerror's text, and glibc's zh_CN and zh_TW translations of it
	 * (po/zh_CN.po, po/zh_TW.po; see data/explain/loader_wordings) */
	static const char *const dlerror[] = { "cannot open shared object file", "\xe6\x97\xa0\xe6\xb3\x95\xe6\x89\x93\xe5\xbc\x80\xe5\x85\xb1\xe4\xba\xab\xe5\xaf\xb9\xe8\xb1\xa1\xe6\x96\x87\xe4\xbb\xb6",
					       "\xe7\x84\xa1\xe6\xb3\x95\xe9\x96\x8b\xe5\x95\x9f\xe5\x85\xb1\xe7\x94\xa8\xe7\x89\xa9\xe4\xbb\xb6" };
	const gw_row_sonames *found = NULL;
	size_t stop = n;
	unsigned names = 0;

	for (size_t i = 0; i < n && stop == n; i++)
		for (size_t k = 0; k < sizeof(dlerror) / sizeof(dlerror[0]); k++) {
			size_t dn = strlen(dlerror[k]);

			if (i + dn <= n && literal_at(line + i, dlerror[k], dn)) {
				stop = i;
				break;
			}
		}
	for (size_t i = 0; i + 3 <= stop; i++) {
		size_t end, start;
		bool so = literal_at(line + i, ".so", 3), dll = i + 4 <= n && literal_at(line + i, ".dll", 4);
		const gw_row_sonames *row;

		if (!so && !dll)
			continue;
		end = i + (so ? 3 : 4);
		if (end < n && is_word_byte(line[end]) && line[end] != '_')
			continue;          /* ".something": not a library */
		if (so)
			while (end + 1 < n && line[end] == '.' && line[end + 1] >= '0' && line[end + 1] <= '9') {
				end++;
				while (end < n && line[end] >= '0' && line[end] <= '9')
					end++;
			}
		for (start = i; start > 0 && is_name_byte(line[start - 1]); start--)
			;
		if (start == i || end - start >= sizeof(((gw_explain_library *)0)->name))
			continue;
		if (++names > 32)
			break;             /* a line of junk: do not look up every name */
		if ((row = gw__tbl_soname(line + start, end - start))) {
			*at = start;
			*len = end - start;
			found = row;
			if (stop == n)
				break;     /* no dlerror text: the first name */
		}
	}
	if (found || (found = find_link_library(line, n, at, len)) || (found = find_quoted_library(line, n, at, len)))
		return found;
	return find_named_library(line, n, at, len);
}

/* TensorFlow probes for TensorRT when it starts (tf2tensorrt's
 * IsGoogleTensorRTEnabled): its DSO loader warns "Could not load dynamic
 * library 'libnvinfer.so.7'", then "Cannot dlopen some TensorRT libraries.
 * If you would like to use Nvidia GPU with TensorRT ...", and TensorFlow
 * goes on without TF-TRT, on the GPU. A missing TensorRT there is an
 * optional part, not the cause of a failure. */
static bool tensorrt_probe(const gw_row_sonames *row, const char *line, size_t len)
{
	return !strcmp(row->component, "TensorRT") && gw__explain_line_has(line, len, "dso_loader");
}

/* Windows could not load a DLL, by the code its loader gives
 * (win_load_codes), on a line that names a DLL or Windows' LoadLibrary
 * (a path cut short names none): a shell's "error code 126" is no DLL's. */
static bool windows_load_failed(const char *line, size_t len)
{
	/* ONNX Runtime's Windows loader before 1.13 (core/platform/windows/
	 * env.cc, "Failed to load library, error code: " << GetLastError())
	 * names no file; its code is LoadLibrary's. */
	if (!gw__explain_line_has(line, len, ".dll") && !gw__explain_line_has(line, len, "loadlibrary") &&
	    !gw__explain_line_has(line, len, "failed to load library, error code:"))
		return false;
	return windows_error_in(line, len, win_load_codes, sizeof(win_load_codes) / sizeof(win_load_codes[0]));
}

/* Python's ImportError for an extension module Windows cannot load
 * (CPython's Python/dynload_win.c): "DLL load failed while importing
 * NAME: " (before 3.8 "DLL load failed: ") and then Windows' own text for
 * the error, in the system's language ("Impossibile trovare la procedura
 * specificata."), or "DLL load failed with error code N while importing
 * NAME" when Windows gives no text. Which language it is in does not
 * change what it says: the module or a DLL it imports cannot be loaded. */
static bool python_dll_load_failed(const char *line, size_t len)
{
	return gw__explain_line_has(line, len, "dll load failed:") || gw__explain_line_has(line, len, "dll load failed while importing") ||
	       gw__explain_line_has(line, len, "dll load failed with error code");
}

/* A loader's phrase is on the line: the library it names decides the id
 * (data/sonames.tsv), and the match carries what the table says of it. */
void gw__explain_library_rule(gw_explainer *ex, size_t start, bool had_nul)
{
	const gw_row_sonames *row;
	size_t at, len;
	int d;
	gw_explain_match *m;
	gw_explain_library *lib;

	if (ex->line_library)
		return;            /* one library per line */
	ex->line_library = true;
	if (!(row = find_library(ex->line, ex->line_len, &at, &len))) {
		/* A DLL outside the GPU stack (the program's own, its C++
		 * runtime's) that Windows cannot load: not a CUDA library. */
		if (!ex->line_matched &&
		    (windows_load_failed(ex->line, ex->line_len) ||
		     python_dll_load_failed(ex->line, ex->line_len)) &&
		    (d = gw__explain_doc_index("windows-dll-load-failed")) >= 0)
			gw__explain_record_match(ex, (unsigned)d, "loader", -1, start, had_nul);
		return;
	}
	/* A library the table knows, found but not loaded ("LoadLibrary
	 * failed with error 1114 ... cudnn64_9.dll"): not a missing one. */
	if (windows_error_in(ex->line, ex->line_len, win_load_codes + 1,
			     sizeof(win_load_codes) / sizeof(win_load_codes[0]) - 1)) {
		if (!ex->line_matched && (d = gw__explain_doc_index("windows-dll-load-failed")) >= 0)
			gw__explain_record_match(ex, (unsigned)d, "loader", -1, start, had_nul);
		return;
	}
	if ((d = gw__explain_doc_index(row->id)) < 0 || library_found_but_wrong(ex->line, ex->line_len) ||
	    tensorrt_probe(row, ex->line, ex->line_len))
		return;
	/* 'Error loading "...\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its
	 * dependencies': the file is there (the framework ships it), something
	 * it needs is not; windows-dll-load-failed says so. */
	if (at > 0 && (ex->line[at - 1] == '\\' || ex->line[at - 1] == '/') &&
	    gw__explain_line_has(ex->line, ex->line_len, "one of its dependencies"))
		return;
	if (ex->refined[d] >= 0)
		d = ex->refined[d];   /* record_match reports it as the refined id */
	if (ex->line_matched && ex->doc_gen[d] != ex->gen)
		return;            /* a row named another cause for this line */
	bool first = ex->match_of_doc[d] < 0;

	gw__explain_record_match(ex, (unsigned)d, "loader", -1, start, had_nul);
	if (ex->match_of_doc[d] < 0)
		return;            /* no room for another match */
	m = &ex->matches[ex->match_of_doc[d]];
	lib = &ex->libraries[d];
	if (!first && m->library)
		return;            /* the first library named keeps the match */
	memcpy(lib->name, ex->line + at, len);
	lib->name[len] = '\0';
	lib->component = row->component;
	lib->implies = row->implies;
	lib->pip = row->pip;
	lib->deb = row->deb;
	lib->conda = row->conda;
	lib->source = row->source;
	m->library = lib;
}

/* The length of a library file name without its version and suffix
 * ("libcudart" of "libcudart.so.11.0"). */
static size_t library_stem(const char *name, size_t n)
{
	size_t i = 0;

	while (i < n && name[i] != '.')
		i++;
	return i;
}

/* bitsandbytes (cuda_setup/main.py) warns "libcudart.so not found in any
 * environmental path. Searching in backup paths..." and, when a backup
 * path has it, goes on "CUDA SETUP: CUDA runtime path found:
 * /usr/local/cuda/lib64/libcudart.so". A line that says a library's path
 * was found withdraws the missing-library match that named the same
 * library on one line only, before it or earlier on this line. */
void gw__explain_library_found_after_all(gw_explainer *ex)
{
	static const char found[] = "path found:";
	int d = gw__explain_doc_index("cuda-library-missing"), i;
	const gw_row_sonames *row;
	const gw_explain_match *m;
	size_t p = 0, n = sizeof found - 1, at, len;

	if (d < 0 || (i = ex->match_of_doc[d]) < 0)
		return;
	m = &ex->matches[i];
	if (m->count != 1 || !m->library)
		return;
	while (p + n <= ex->line_len && !literal_at(ex->line + p, found, n))
		p++;
	if (p + n > ex->line_len)
		return;
	p += n;
	if (!(row = find_library(ex->line + p, ex->line_len - p, &at, &len)))
		return;
	size_t stem = library_stem(ex->line + p + at, len);

	if (stem != library_stem(m->library->name, strlen(m->library->name)) ||
	    strncasecmp(ex->line + p + at, m->library->name, stem))
		return;
	ex->match_of_doc[d] = -1;
	gw__explain_remove_match(ex, (size_t)i);
}

