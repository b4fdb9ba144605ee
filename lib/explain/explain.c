/* gpuwise explain — the finding catalogue and the error-message scanner.
 *
 * The scanner has to stay fast on a 100 MB log, so regexes never see most
 * lines. Every pattern has a required literal fragment; one pass over each
 * line finds every literal at once (a filter of the literals' first bytes
 * tested at each byte, a trie of them walked where it passes: build_index)
 * and marks the patterns whose literal occurs in the line.
 * Only those candidate lines go through the pattern's regex and its
 * "unless" veto. Lines are copied into a bounded buffer so a line may span
 * feed() calls; longer lines are split. Results are one match per
 * catalogue id, so memory does not grow with the input.
 *
 * The needle index depends only on the catalogue, which is compiled in: it
 * is built once per process, on first use, and shared read-only by every
 * explainer. A row's regexes are compiled the first time a line holds the
 * row's literal (regex_of), not at start: most rows never see a candidate
 * line in a given log, and compiling all of them took 5 MiB of the
 * process's memory. A regex, once compiled, is shared read-only too
 * (regexec does not modify its regex_t); tests/unit/test_explain.c
 * compiles every row's regexes, so a row that does not compile fails the
 * build's checks, not a user's run (gw__explain_compile_all). Only
 * the line being read and the results belong to one explainer, so creating
 * one is cheap — a long-running process or a fuzzer pays the ~3 ms build
 * once, not per input.
 */
#include <pthread.h>
#include <regex.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "hardware/tables.h"
#include "gpuwise/explain.h"
#include "explain_data.h"
#include "explain/catalogue.h"

#define NPAT GW__EXPLAIN_PATTERNS_COUNT
#define NDOC GW__FINDING_DOCS_COUNT
#define DROPPED (-2)     /* refined[d]: d is not reported in this log */
/* The needle index (see build_index): a line position is looked at only when
 * the hash of its next cat->gram bytes (GRAM, or the shortest literal's
 * length if less), case folded, is set in a filter of 2^FILTER_BITS bits
 * (8 KiB, in the CPU's first-level cache) that holds every literal's first
 * bytes; with GRAM bytes, then also its next GRAM + 1 bytes (a literal
 * longer than GRAM) or GRAM bytes (one of GRAM bytes) in a second filter.
 * The literals that start there are then read from a trie of them, its
 * edges in one hash table. */
#define GRAM 3u
#define FILTER_BITS 16u
#define NO_NODE UINT32_MAX
/* Words the per-line rules ask of every line (see line_word): found in the
 * same pass as the catalogue's literals, as needles numbered after them. */
enum {
	W_NVIDIA, W_GEFORCE, W_TESLA, W_RTX, W_TRITON, W_XLA, W_NCCL_INFO, W_PLAN_TRIED, W_IN_FILE,
	W_THRUST,
	W_ERROR, W_FAIL, W_FATAL, W_ABORT, W_EXCEPTION, W_CANNOT, W_UNABLE, NWORD
};
static const char *const line_words[NWORD] = {
	[W_NVIDIA] = "nvidia", [W_GEFORCE] = "geforce", [W_TESLA] = "tesla", [W_RTX] = "rtx",
	[W_TRITON] = "triton", [W_XLA] = "xla", [W_NCCL_INFO] = "nccl info",
	[W_PLAN_TRIED] = "plan failed with a cudnnexception", [W_IN_FILE] = " in file ",
	[W_THRUST] = "thrust::system::",
	/* in every word error_token takes */
	[W_ERROR] = "error", [W_FAIL] = "fail", [W_FATAL] = "fatal", [W_ABORT] = "abort",
	[W_EXCEPTION] = "exception", [W_CANNOT] = "cannot", [W_UNABLE] = "unable",
};
#define NNEEDLE (NPAT + NWORD)
/* Descriptions one line may hold for the next (see held_call_line). */
#define HELD_MAX 4u
/* The ids one line's matches may add that a fallback's last line can take
 * back, and how far up that line may be (see fallback_line). */
#define FX_MAX 8u
#define FX_LINES 6u

/* ---- the catalogue ---------------------------------------------------- */

const gw_finding_doc *gw_finding_doc_get(const char *id)
{
	if (!id)
		return NULL;
	for (size_t i = 0; i < NDOC; i++)
		if (!strcmp(gw__finding_docs[i].id, id))
			return &gw__finding_docs[i];
	return NULL;
}

size_t gw_finding_doc_count(void)
{
	return NDOC;
}

const gw_finding_doc *gw_finding_doc_at(size_t i)
{
	return i < NDOC ? &gw__finding_docs[i] : NULL;
}

/* ---- the status codes ------------------------------------------------- */

#define NCODE GW__STATUS_CODES_COUNT

size_t gw_status_code_count(void)
{
	return NCODE;
}

const gw_status_code *gw_status_code_at(size_t i)
{
	return i < NCODE ? &gw__status_codes[i].pub : NULL;
}

const gw_status_code *gw_status_code_find(const char *library, const char *name)
{
	if (!library || !name)
		return NULL;
	for (size_t i = 0; i < NCODE; i++)
		if (!strcmp(gw__status_codes[i].pub.name, name) && !strcmp(gw__status_codes[i].pub.library, library))
			return &gw__status_codes[i].pub;
	return NULL;
}

/* The first code of `library` with this number that is an error; for
 * "cuda-any" the runtime's, then the driver's. With legacy, the runtime's
 * codes are those before CUDA 10.1 (the driver's kept their numbers).
 * -1 when there is none. */
static int code_by_number(const char *library, long number, bool legacy)
{
	bool cuda = !strcmp(library, "cuda-any");
	const char *runtime = legacy ? "cuda-runtime-legacy" : "cuda-runtime";

	if (!strcmp(library, "cuda-runtime"))
		library = runtime;
	for (int pass = 0; pass < (cuda ? 2 : 1); pass++) {
		const char *lib = cuda ? (pass ? "cuda-driver" : runtime) : library;

		for (size_t i = 0; i < NCODE; i++)
			if (gw__status_codes[i].pub.number == number && !strcmp(gw__status_codes[i].pub.library, lib))
				return gw__status_codes[i].doc >= 0 ? (int)i : -1;
	}
	return -1;
}

/* Does `library` have any code, error or not, with this number? */
static bool library_has_number(const char *library, long number)
{
	for (size_t i = 0; i < NCODE; i++)
		if (gw__status_codes[i].pub.number == number && !strcmp(gw__status_codes[i].pub.library, library))
			return true;
	return false;
}

/* ---- the scanner ------------------------------------------------------ */

/* A wrapped table record kept for table_line(): at most this many bytes
 * (Triton's tables are as wide as the terminal, 500 columns without one)
 * and columns. */
#define GW_EXPLAIN_TABLE_MAX 8192
#define GW_EXPLAIN_TABLE_COLUMNS 16

struct hit {
	unsigned pat;
	size_t start;              /* offset of the literal in the line */
};

/* Everything derived from the catalogue alone; immutable once built. */
struct catalogue {
	/* The needle index: each byte as matched (ASCII case folded, NUL as a
	 * space), the filter of the literals' first bytes, the trie. */
	uint8_t canon[256];
	size_t min_len;           /* the shortest literal */
	unsigned gram;            /* bytes the first filter reads, <= GRAM */
	uint64_t filter[(1u << FILTER_BITS) / 64];
	uint64_t filter2[(1u << FILTER_BITS) / 64];
	uint32_t root[256];       /* the root's children, NO_NODE none */
	uint32_t nnodes;
	int32_t *out_head;         /* first needle whose literal ends at a node, -1 */
	struct edge { uint32_t key, to; } *edges;  /* key: node << 8 | byte, UINT32_MAX empty */
	uint32_t edge_mask;
	unsigned edge_bits;        /* edge_mask + 1 == 1 << edge_bits */
	int32_t pat_next[NNEEDLE]; /* next needle ending at the same node (lower number) */
	size_t lit_len[NPAT];
	/* A row's regex and its veto, compiled on first use (regex_of):
	 * rx_ready[which][p] is set, with release, once the regex_t is. */
	regex_t rx[NPAT], unless[NPAT];
	_Atomic bool rx_ready[2][NPAT];
	/* For each status code of today's CUDA runtime, the code of before
	 * CUDA 10.1 that printed the same description, or -1 (build_twins). */
	int32_t legacy_twin[NCODE];
};

#define WRAP_SHAPES 16              /* line starts remembered (see wrap_decide) */

struct gw_explainer {
	const struct catalogue *cat;

	/* The line being read. */
	char line[GW_EXPLAIN_LINE_MAX + 1];
	size_t line_len;
	uint64_t lines;            /* complete lines seen */
	bool pending;              /* bytes of an unfinished line were fed */
	bool piece_cont;           /* the line's first piece was read (over-long line) */
	/* Where the line held NUL bytes: the regexes see them as spaces (regexec
	 * stops at NUL), the excerpt shows them as '?' like any control byte. */
	uint8_t nul_at[(GW_EXPLAIN_LINE_MAX + 7) / 8];
	/* The line with each run of blanks read as one space, made when a
	 * row's regex first needs it on this line (squeezed_gen == gen). */
	char squeezed[GW_EXPLAIN_LINE_MAX + 1];
	uint32_t squeezed_gen;
	bool squeezed_differs;

	/* Per-line bookkeeping without clearing arrays: "seen on this line"
	 * means the stored generation equals gen. */
	uint32_t gen;
	bool line_matched;         /* some row matched on this line */
	bool line_library;         /* the missing-library rule ran on this line */
	uint32_t pat_gen[NPAT];
	uint32_t doc_gen[NDOC];
	struct hit hits[NPAT];
	unsigned nhits;
	/* The last offset of each of line_words on the line, SIZE_MAX none, and
	 * the bytes strip_prefix left out of the line's start. */
	size_t word_at[NWORD];
	size_t stripped;

	/* Results. refined[d]: the finding that stands for d in this log
	 * (a refinement's context was seen), DROPPED when a context showed
	 * d to be a consequence of another line's failure, else -1. */
	int refined[NDOC];
	int match_of_doc[NDOC];
	gw_explain_match matches[NDOC];
	size_t nmatches;
	gw_explain_unrecognised unrecognised[GW_EXPLAIN_UNRECOGNISED_MAX];
	size_t nunrecognised;

	/* What the general rules read: the library each library id was
	 * first named for, and the GPU targets of the whole log. */
	gw_explain_library libraries[NDOC];
	gw_explain_arch arch;
	/* The target of the first NVIDIA GPU model a line names ("NVIDIA
	 * GeForce RTX 5090": "sm_120", data/nvidia_gpus.tsv); "" none. */
	char model_gpu[16];
	/* The log shows a JIT compiler at work (Triton, XLA), and the
	 * architecture's evidence is a compiler's (ptxas's ".target" refusal,
	 * a target a compiler does not know): then a PyTorch wheel is no fix. */
	bool jit_compiler, compiler_evidence;
	/* This line's own targets (read_targets): the GPU's first, and the
	 * oldest compute capability of the build's (major * 10 + minor, 0:
	 * none), for the kernel floor (see kernel_floor). */
	char line_gpu[16];
	unsigned line_floor;
	/* A line read as CUDA's "a PTX JIT compilation failed" (218),
	 * whichever of the log's invalid calls came first. */
	bool invalid_ptx;

	/* Bare numbers of the CUDA runtime ("CUDA error 8"): the wrapping's
	 * library and the number behind each match (library NULL: the match
	 * was not named by one), kept in step with matches[], so that a log
	 * that shows a CUDA older than 10.1 (legacy_cuda) reads them with the
	 * numbers of then, wherever in the log it shows it. */
	struct { const char *library; long number; } numbered[NDOC];
	const char *hit_library;   /* the number being recorded, or NULL */
	long hit_number;
	bool legacy_cuda;

	/* A record of a text table whose cells wrap onto the table's next
	 * lines (see table_line): its lines so far, each `width` bytes, the
	 * offsets of its column bars and the log line it starts on. While a
	 * cell's joined text is read, cell_line is that line (0: none); row
	 * holds the line that ended the record meanwhile. */
	struct {
		char text[GW_EXPLAIN_TABLE_MAX];
		size_t width;
		unsigned nlines;
		unsigned nbars;
		size_t bars[GW_EXPLAIN_TABLE_COLUMNS + 1];
		uint64_t first_line;
	} table;
	char cell[GW_EXPLAIN_TABLE_MAX + 1];
	char row[GW_EXPLAIN_TABLE_MAX];
	uint64_t cell_line;

	/* UTF-16 input, told by its byte order mark (see feed_utf16): the
	 * first bytes until there are two, the order found (0: not UTF-16),
	 * an odd byte and a high surrogate left from the last piece fed. */
	uint8_t head[2];
	unsigned nhead;
	bool decided;
	int utf16;                 /* 0, UTF16_LE or UTF16_BE */
	int odd;                   /* the byte left over, or -1 */
	uint32_t high;             /* a high surrogate waiting, or 0 */
	/* The presentation around the text (see feed_bytes): the UTF-8 byte
	 * order mark's bytes matched at the stream's start (3: done), a JSON
	 * line being decoded, an escape sequence or HTML entity being read,
	 * and a CR just read as a line end. */
	struct {
		unsigned bom;
		int line_start;        /* 1 at a raw line's start, 2 after its '{' */
		char lead[16];         /* blanks and '{' held at a line's start */
		unsigned nlead;
		bool json, in_str, key_next;
		int jesc;              /* 0, 1 after '\', 2..5 in \uXXXX's digits */
		uint32_t ucode, uhigh;
		char str[64];          /* a short string held until it is told */
		unsigned nstr;
		int str_kind;          /* 0 undecided, 1 text (streamed) */
		bool str_nl;           /* the text ended with a line end */
		int esc;               /* 0, 1 after ESC, 2 CSI, 3 OSC, 4 OSC's ESC, 5 charset */
		char ent[12];          /* "&..." read so far */
		unsigned nent;
		char sgr[24];          /* "[" digits ';' (then 'm') of an SGR whose ESC was lost */
		unsigned nsgr;
		int cr;                /* 1 after a CR that ended a line, 2 after one at a line's start */
		/* A line that starts with a box's bar, kept whole (bstate 1;
		 * 0: a line's start, 2: a line of no box), the newline held
		 * after a boxed line, its text's columns and the box's. */
		char bline[1024];
		size_t nb;
		int bstate;
		bool box_held, box_token;
		size_t box_cols, box_width;
		uint64_t joined;           /* line ends read as no line end */
		/* Kubernetes CRI partial records (see line_bytes): the stream
		 * (1 stdout, 2 stderr) whose partial record the line goes on
		 * with, whether the line was joined from records, what the
		 * first piece of an over-long line said, and the next record's
		 * start held until its prefix is read. */
		int cri_stream, cri_first;
		bool cri_joined, cri_hold, cri_stashing;
		char cri[64];
		unsigned ncri;
		char cri_side[4096];       /* the other stream's full records meanwhile */
		size_t ncri_side;
		/* Hard-wrapped lines (see wrap_decide): the bytes of the raw
		 * line being read, the widest line so far and how many lines
		 * are that wide, the shapes of recent lines' starts, the next
		 * line held whole while a line of the width waits, its width
		 * when it was counted there. */
		size_t raw_len, wmax, wcnt, wnext, wcont, wnew, wpeek_w;
		bool wcounted, whold, wchain, in_box, wpeek;
		bool shold;                        /* the held line is for soft_decide */
		bool sjoined;                      /* the line was joined so once */
		char wstarts[WRAP_SHAPES][8];
		uint64_t wshapes[WRAP_SHAPES];     /* their shapes, once asked for */
		unsigned wshaped;                  /* which of them are known (bits) */
		unsigned nwshapes;
		char wbuf[1024];
		size_t nwbuf;
	} pr;
	/* Descriptions that ended a line with no library named, waiting for
	 * the next line to name a CUDA call (see held_call_line). */
	struct { unsigned pat; char excerpt[GW_EXPLAIN_EXCERPT_MAX]; } held[HELD_MAX];
	unsigned nheld;
	uint64_t held_line;        /* the line they ended (0-based) */
	unsigned held_skip;        /* lines between it and the call's (ggml's location) */
	/* cuTT's cudaCheck: the line after a failed call's statement
	 * (see cuda_check_statement); call_line is that line + 1, 0: none. */
	uint64_t call_line;
	/* The line after one that names a thrust exception (see
	 * thrust_what_before); 0: none. */
	uint64_t thrust_line;
	/* What the last lines that named ids added (see fallback_line): the
	 * ids of this line (fx_line, 1-based) and of the nearest one above
	 * that named any, each new (created) or counted again; a line that
	 * ends a fallback message takes the latter back. host_line: this
	 * line's allocation is of host memory (no cuda-out-of-memory). */
	struct fx { struct { unsigned doc; bool created; } e[FX_MAX]; unsigned n; uint64_t line; size_t indent; } fx, fx_last;
	bool host_line;
};

#define UTF16_LE 1
#define UTF16_BE 2

static uint8_t fold(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c - 'A' + 'a') : c;
}

static const char *needle_text(unsigned p)
{
	return p < NPAT ? gw__explain_patterns[p].literal : line_words[p - NPAT];
}

/* A filter's bit for bytes packed first byte highest (salt: a hash of
 * its own for the second filter's GRAM bytes). */
static uint32_t filter_slot(uint32_t gram, uint32_t salt)
{
	return ((gram ^ salt) * 0x9e3779b1u) >> (32 - FILTER_BITS);
}

static bool filter_has(const uint64_t *filter, uint32_t slot)
{
	return filter[slot / 64] >> (slot % 64) & 1;
}

static void filter_set(uint64_t *filter, uint32_t slot)
{
	filter[slot / 64] |= 1ull << (slot % 64);
}

#define SALT_SHORT 0x5bd1e995u

static uint32_t edge_slot(const struct catalogue *cat, uint32_t key)
{
	/* The product's high bits: its low ones see only the key's low bits. */
	return (key * 0x9e3779b1u) >> (32 - cat->edge_bits);
}

static uint32_t edge_find(const struct catalogue *cat, uint32_t node, uint8_t c)
{
	uint32_t key = node << 8 | c;

	for (uint32_t i = edge_slot(cat, key);; i = (i + 1) & cat->edge_mask) {
		if (cat->edges[i].key == key)
			return cat->edges[i].to;
		if (cat->edges[i].key == UINT32_MAX)
			return NO_NODE;
	}
}

/* Every needle (the catalogue's literals, then line_words) in a trie of its
 * bytes as the line shows them when it matches (a byte >= 0x80 as itself,
 * ASCII case folded, NUL read as a space: cat->canon), and the filter of
 * their first bytes. Its size follows the literals' total length
 * (8 to 16 bytes of edge table a byte, 4 of nodes), not the alphabet: the scan
 * then costs a filter test a byte, and a trie walk where the filter says a
 * literal may start. */
static int build_index(struct catalogue *cat)
{
	size_t total = 1;
	uint32_t cap = 2;
	unsigned bits = 1;

	for (unsigned c = 0; c < 256; c++)
		cat->canon[c] = fold((uint8_t)c);
	cat->canon[0] = ' ';
	cat->min_len = SIZE_MAX;
	for (unsigned p = 0; p < NNEEDLE; p++) {
		size_t n = strlen(needle_text(p));
		total += n;
		cat->min_len = n < cat->min_len ? n : cat->min_len;
	}
	if (!cat->min_len)
		return gw__error_set(GW_EGENERIC, "explain pattern with an empty literal");
	cat->gram = cat->min_len < GRAM ? (unsigned)cat->min_len : GRAM;
	if (total >= (1u << 24))
		return gw__error_set(GW_EGENERIC, "explain literals too long for the needle index");
	while (cap < total + total / 2) {  /* edges: fewer than total */
		cap *= 2;
		bits++;
	}
	cat->edge_bits = bits;
	cat->edge_mask = cap - 1;
	cat->out_head = gw__malloc(total * sizeof(*cat->out_head));
	cat->edges = gw__malloc((size_t)cap * sizeof(*cat->edges));
	if (!cat->out_head || !cat->edges)
		return gw__error_set(GW_ENOMEM, "out of memory building the explain needle index");
	memset(cat->edges, 0xff, (size_t)cap * sizeof(*cat->edges));
	for (unsigned c = 0; c < 256; c++)
		cat->root[c] = NO_NODE;
	cat->out_head[0] = -1;
	cat->nnodes = 1;
	for (unsigned p = 0; p < NNEEDLE; p++) {
		const uint8_t *lit = (const uint8_t *)needle_text(p);
		size_t len = strlen((const char *)lit);
		bool high = false;
		uint32_t node = 0, gram = 0;

		/* A literal with bytes >= 0x80 is matched byte for byte (as
		 * literal_at reads it); any other folds its own case too. */
		for (const uint8_t *c = lit; *c; c++)
			high = high || *c >= 0x80;
		for (size_t i = 0; lit[i]; i++) {
			uint8_t c = high ? lit[i] : fold(lit[i]);
			uint32_t next;

			if (i <= GRAM)
				gram = gram << 8 | c;
			next = node == 0 ? cat->root[c] : edge_find(cat, node, c);
			if (next == NO_NODE) {
				next = cat->nnodes++;
				cat->out_head[next] = -1;
				if (node == 0) {
					cat->root[c] = next;
				} else {
					uint32_t key = node << 8 | c, k = edge_slot(cat, key);
					while (cat->edges[k].key != UINT32_MAX)
						k = (k + 1) & cat->edge_mask;
					cat->edges[k].key = key;
					cat->edges[k].to = next;
				}
			}
			node = next;
		}
		/* gram: the first min(len, GRAM + 1) bytes */
		size_t k = len < GRAM + 1 ? len : GRAM + 1;

		filter_set(cat->filter, filter_slot(gram >> 8 * (k - cat->gram), 0));
		if (len > GRAM)
			filter_set(cat->filter2, filter_slot(gram, 0));
		else if (len == GRAM)
			filter_set(cat->filter2, filter_slot(gram, SALT_SHORT));
		cat->pat_next[p] = cat->out_head[node];
		cat->out_head[node] = (int32_t)p;
		if (p < NPAT)
			cat->lit_len[p] = len;
	}
	return 0;
}

#define RX_FLAGS (REG_EXTENDED | REG_ICASE | REG_NOSUB)

/* Whether row p has a regex, or a veto, to check beyond its literal. */
static bool has_regex(size_t p)
{
	return gw__explain_patterns[p].regex != NULL;
}

static bool has_veto(size_t p)
{
	return gw__explain_patterns[p].unless != NULL;
}

enum { RX_MATCH, RX_UNLESS };

int gw__explain_compile_all(void)
{
	for (unsigned p = 0; p < NPAT; p++) {
		const char *src[2] = { gw__explain_patterns[p].regex, gw__explain_patterns[p].unless };

		for (unsigned w = 0; w < 2; w++) {
			regex_t rx;

			if (!src[w])
				continue;
			if (regcomp(&rx, src[w], RX_FLAGS) != 0)
				return gw__error_set(GW_EGENERIC, "explain pattern %u (%s) does not compile", p, src[w]);
			regfree(&rx);
		}
	}
	return 0;
}

/* The code of before CUDA 10.1 that printed the same description as
 * today's runtime code (cudaErrorInvalidDeviceFunction: 98 today, 8
 * then): the first such row, as the table lists them. */
static void build_twins(struct catalogue *cat)
{
	for (size_t i = 0; i < NCODE; i++)
		cat->legacy_twin[i] = -1;
	for (size_t j = 0; j < NCODE; j++) {
		const gw_status_code *old = &gw__status_codes[j].pub;

		if (strcmp(old->library, "cuda-runtime-legacy"))
			continue;
		for (size_t i = 0; i < NCODE; i++)
			if (cat->legacy_twin[i] < 0 && !strcmp(gw__status_codes[i].pub.library, "cuda-runtime") &&
			    !strcmp(gw__status_codes[i].pub.description, old->description))
				cat->legacy_twin[i] = (int32_t)j;
	}
}

static void catalogue_free(struct catalogue *cat)
{
	if (!cat)
		return;
	for (unsigned p = 0; p < NPAT; p++) {
		if (atomic_load(&cat->rx_ready[RX_MATCH][p]))
			regfree(&cat->rx[p]);
		if (atomic_load(&cat->rx_ready[RX_UNLESS][p]))
			regfree(&cat->unless[p]);
	}
	gw__free(cat->out_head);
	gw__free(cat->edges);
	gw__free(cat);
}

static int catalogue_build(struct catalogue **out)
{
	struct catalogue *cat;
	int rc;

	if (!(cat = gw__calloc(1, sizeof(*cat))))
		return gw__error_set(GW_ENOMEM, "out of memory building the explain catalogue");
	build_twins(cat);
	if ((rc = build_index(cat)) < 0) {
		catalogue_free(cat);
		return rc;
	}
	*out = cat;
	return 0;
}

/* The process's one catalogue, built by the first caller. A lock rather than
 * pthread_once so that a build that failed (out of memory) is tried again by
 * the next caller instead of failing for the rest of the process; once built
 * it is only read, and the acquire load makes its contents visible to every
 * thread that sees the pointer. Never freed: it is reachable until exit, like
 * the compiled-in tables it comes from. */
static _Atomic(struct catalogue *) the_catalogue;
static pthread_mutex_t catalogue_lock = PTHREAD_MUTEX_INITIALIZER;

/* A fork while another thread builds the catalogue would leave the child
 * with the lock held by a thread it does not have, and its first explain
 * would wait forever. So fork waits for a build in progress: the lock is
 * taken before fork and released on both sides (the child then holds either
 * a finished catalogue or none, and builds its own). glibc removes these
 * handlers when the library is unloaded. */
static pthread_once_t fork_guard_once = PTHREAD_ONCE_INIT;

/* Held while a row's regex is compiled (regex_of); fork waits for it too. */
static pthread_mutex_t regex_lock = PTHREAD_MUTEX_INITIALIZER;

static void fork_prepare(void)
{
	pthread_mutex_lock(&catalogue_lock);
	pthread_mutex_lock(&regex_lock);
}

static void fork_release(void)
{
	pthread_mutex_unlock(&regex_lock);
	pthread_mutex_unlock(&catalogue_lock);
}
static void fork_guard_install(void) { (void)pthread_atfork(fork_prepare, fork_release, fork_release); }

static int catalogue_get(const struct catalogue **out)
{
	struct catalogue *cat = atomic_load_explicit(&the_catalogue, memory_order_acquire);
	int rc = 0;

	if (!cat) {
		pthread_once(&fork_guard_once, fork_guard_install);
		pthread_mutex_lock(&catalogue_lock);
		cat = atomic_load_explicit(&the_catalogue, memory_order_relaxed);
		if (!cat && (rc = catalogue_build(&cat)) == 0)
			atomic_store_explicit(&the_catalogue, cat, memory_order_release);
		pthread_mutex_unlock(&catalogue_lock);
		if (rc < 0)
			return rc;
	}
	*out = cat;
	return 0;
}

/* Row p's regex (RX_MATCH) or veto (RX_UNLESS), compiled the first time it
 * is asked for; NULL when the row has none, or when it cannot be compiled
 * (out of memory: asked again next time; a row that never compiles is
 * caught by gw__explain_compile_all in the unit tests). The catalogue is
 * shared and otherwise read-only: the lock makes one thread compile, the
 * release store publishes the compiled regex_t to every thread that reads
 * the flag with acquire. The cast is sound: catalogue_build allocated it. */
static const regex_t *regex_of(const struct catalogue *cat, unsigned p, int which)
{
	struct catalogue *own = (struct catalogue *)cat;
	regex_t *rx = which == RX_MATCH ? &own->rx[p] : &own->unless[p];
	_Atomic bool *ready = &own->rx_ready[which][p];
	const char *src = which == RX_MATCH ? gw__explain_patterns[p].regex : gw__explain_patterns[p].unless;
	bool ok;

	if (atomic_load_explicit(ready, memory_order_acquire))
		return rx;
	if (!src)
		return NULL;
	pthread_once(&fork_guard_once, fork_guard_install);
	pthread_mutex_lock(&regex_lock);
	ok = atomic_load_explicit(ready, memory_order_relaxed);
	if (!ok && regcomp(rx, src, RX_FLAGS) == 0) {
		atomic_store_explicit(ready, true, memory_order_release);
		ok = true;
	}
	pthread_mutex_unlock(&regex_lock);
	return ok ? rx : NULL;
}

static bool regex_matches(const regex_t *rx, const char *s)
{
	return rx && regexec(rx, s, 0, NULL, 0) == 0;
}

void gw_explainer_free(gw_explainer *ex)
{
	gw__free(ex);
}

void gw_explainer_reset(gw_explainer *ex)
{
	if (!ex)
		return;
	ex->line_len = 0;
	ex->lines = 0;
	ex->pending = false;
	ex->piece_cont = false;
	ex->gen = 1;
	memset(ex->pat_gen, 0, sizeof(ex->pat_gen));
	memset(ex->doc_gen, 0, sizeof(ex->doc_gen));
	ex->squeezed_gen = 0;
	ex->nhits = 0;
	for (unsigned d = 0; d < NDOC; d++)
		ex->match_of_doc[d] = ex->refined[d] = -1;
	ex->nmatches = 0;
	ex->nunrecognised = 0;
	memset(&ex->arch, 0, sizeof(ex->arch));
	ex->model_gpu[0] = '\0';
	ex->jit_compiler = ex->compiler_evidence = false;
	ex->invalid_ptx = false;
	ex->hit_library = NULL;
	ex->legacy_cuda = false;
	ex->table.nlines = 0;
	ex->cell_line = 0;
	ex->nhead = 0;
	ex->decided = false;
	ex->utf16 = 0;
	ex->odd = -1;
	ex->high = 0;
	ex->nheld = 0;
	ex->held_skip = 0;
	ex->call_line = 0;
	ex->thrust_line = 0;
	ex->fx.n = ex->fx_last.n = 0;
	ex->host_line = false;
	memset(&ex->pr, 0, sizeof(ex->pr));
	ex->pr.line_start = 1;
}

int gw_explainer_new(gw_explainer **out)
{
	gw_explainer *ex;
	const struct catalogue *cat;
	int rc;

	if (!out)
		return gw__error_set(GW_EINVAL, "gw_explainer_new: out is NULL");
	if ((rc = catalogue_get(&cat)) < 0)
		return rc;
	if (!(ex = gw__calloc(1, sizeof(*ex))))
		return gw__error_set(GW_ENOMEM, "out of memory creating the explainer");
	ex->cat = cat;
	gw_explainer_reset(ex);
	*out = ex;
	return 0;
}

static bool line_word(const gw_explainer *ex, unsigned w);

/* ---- excerpts --------------------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\0';
}

static bool was_nul(const uint8_t *nul_at, size_t i)
{
	return nul_at && (nul_at[i / 8] >> (i % 8) & 1);
}

/* Copy line[start..end) into out as clean UTF-8, marking cuts with "...".
 * nul_at (or NULL) marks the bytes that were NUL before end_piece() made
 * them spaces. */
static void make_excerpt(char *out, const char *line, size_t len, size_t hit, const uint8_t *nul_at)
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

static void next_generation(gw_explainer *ex)
{
	if (++ex->gen == 0) {      /* wrapped after 4 billion lines */
		memset(ex->pat_gen, 0, sizeof(ex->pat_gen));
		memset(ex->doc_gen, 0, sizeof(ex->doc_gen));
		ex->squeezed_gen = 0;
		ex->gen = 1;
	}
}

/* Does the (lowercase) literal occur at text, folding ASCII case and
 * reading NUL as a space like the needle index does? */
static bool literal_at(const char *text, const char *lit, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t c = text[i] ? fold((uint8_t)text[i]) : ' ';
		if (c != (uint8_t)lit[i])
			return false;
	}
	return true;
}

static bool is_word_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_alnum_byte(char c)
{
	return is_word_byte(c) && c != '_';
}

/* Case-insensitive: does word occur in line[0..end)? For "hip", or when
 * word_start, only at the start of a word (not "chip", "relationship", nor
 * TensorRT's "deserializeCudaEngine"). */
static bool names_library(const char *line, size_t end, const char *word, bool word_start)
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
 *   3.x and later "error: (-217:Gpu API call) DESC in function 'F'". */
static bool cuda_string_prefix_before(const char *line, size_t start)
{
	return prefix_before(line, start, "oidn error:") || prefix_before(line, start, "gpuassert:") ||
	       prefix_before(line, start, "gpu api call (") || prefix_before(line, start, "gpu api call)") ||
	       prefix_before(line, start, "(-217)");
}

/* cuTT's error check, cudaCheck(stmt) in src/CudaUtils.h (copied by the
 * programs that vendor cuTT, Jittor among them), prints the failed
 * statement, "%s in file %s, function %s", then on a line of its own
 * "Error String: %s" with cudaGetErrorString(err); Jittor's log of it says
 * "Error message: ". Is the line such a statement: a CUDA runtime call
 * ("cudaFuncSetSharedMemConfig(") and, after it, " in file "? */
static bool cuda_check_statement(const char *line, size_t n)
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
static bool line_has(const char *line, size_t len, const char *needle);

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
		if (line_has(line, len, says[k]))
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
static int own_number_code(const gw_explainer *ex, unsigned p, size_t start)
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
	if (names_library(ex->line, start, "thrust::system::", true))
		return true;
	return ex->thrust_line && ex->thrust_line == ex->lines && names_library(ex->line, start, "what():", false);
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
	     thc_location_after(ex->line, ex->line_len, end)))
		return true;
	/* CUB's algorithms (cub::DeviceReduce, cub::DeviceRadixSort, ...)
	 * return the runtime's cudaError_t, and TensorFlow's kernels print its
	 * string after the call they could not launch: "WhereOp: Could not
	 * launch cub::DeviceReduce::Sum ... status: invalid resource handle"
	 * (core/kernels/where_op_gpu.cu.h). hipCUB ("hipcub::") is HIP's. */
	if (!strcmp(pat->framework, "cuda-runtime") && names_library(ex->line, start, "cub::", true))
		return true;
	/* Vulkan-Hpp's exceptions print the failed call, then the code's
	 * string: "vk::Queue::submit: ErrorDeviceLost". */
	if (!strcmp(pat->framework, "vulkan") && names_library(ex->line, start, "vk::", false))
		return true;
	/* PyOpenCL: "clGetPlatformIDs failed: PLATFORM_NOT_FOUND_KHR", its
	 * exception's module ("pyopencl._cl.LogicError") on the line or not. */
	if (!strcmp(pat->framework, "opencl") && opencl_call_failed_before(ex->line, start))
		return true;
	if (own_number_code(ex, p, start) >= 0)
		return true;
	return names_library(ex->line, start, library_word(pat->framework), false);
}

/* The library a "*" wrapping ("error code 46") is about: the first of
 * hipBLAS, HIP, cuBLAS, cuDNN, NCCL, cuSOLVER, cuSPARSE, cuFFT, cuRAND and
 * CUDA the line names as a word of its own (TensorRT's
 * "deserializeCudaEngine::50] Error Code 4" is TensorRT's code, not CUDA's;
 * Faiss's ROCm port says "cublas failed (7)" of a hipblasStatus_t on a line
 * that names HIPBLAS_STATUS_SUCCESS); NULL when none. */
static const char *line_library(const gw_explainer *ex)
{
	static const char *const libs[][2] = {
		{ "hipblas", "hipblas" }, { "hip", "hip" }, { "rocm", "hip" }, { "cublas", "cublas" }, { "cudnn", "cudnn" }, { "nccl", "nccl" },
		{ "cusolver", "cusolver" }, { "cusparse", "cusparse" }, { "cufft", "cufft" }, { "curand", "curand" },
		{ "cuda", "cuda-any" },
	};

	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		if (names_library(ex->line, ex->line_len, libs[i][0], true))
			return libs[i][1];
	return NULL;
}

/* Does the line hold the text (any case)? */
static bool line_has_text(const gw_explainer *ex, const char *text)
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

	return strcmp(d, "-") && strlen(d) >= 6 && line_has_text(ex, d);
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

static bool is_teardown(int code)
{
	return code_named(code, teardown_codes, sizeof teardown_codes / sizeof teardown_codes[0]);
}

/* The code a bare number of the CUDA runtime names: the one of before CUDA
 * 10.1 when the log showed such a CUDA, when the line holds that code's
 * description and not today's ("invalid device function (CUDA error 8)"),
 * or when today's numbering has no such error (77, 38, 48) or only one no
 * runtime returns any more (6, 7, 8: the old one is the only reading);
 * else today's. */
static int cuda_number_code(const gw_explainer *ex, const char *library, long number)
{
	int today = code_by_number(library, number, false);
	int old = code_by_number(library, number, true);

	if (old >= 0 && old != today &&
	    (ex->legacy_cuda || today < 0 || is_retired(today) ||
	     (line_has_description(ex, old) && !line_has_description(ex, today))))
		return old;
	return today;
}

static bool is_cuda_numbering(const char *library)
{
	return !strcmp(library, "cuda-any") || !strcmp(library, "cuda-runtime");
}

/* The CUDA runtime's numbering, or the driver's (the same numbers). */
static bool is_cuda_numbering_any(const char *library)
{
	return is_cuda_numbering(library) || !strcmp(library, "cuda-driver");
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
static int number_code(const gw_explainer *ex, unsigned p, size_t start, const char **numbered_as)
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
	if (!strcmp(library, "*") && (after_tensorrt_location(ex->line, start) || !(library = line_library(ex))))
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
		return code_by_number(strcmp(library, "cuda-any") ? library : "cuda-runtime", 999, false);
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
		return code_by_number(library, number, false);
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
	if (!strcmp(library, "cuda-driver") && !library_has_number(library, number))
		library = "cuda-runtime";
	if (!is_cuda_numbering(library))
		return code_by_number(library, number, false);
	*numbered_as = library;
	return cuda_number_code(ex, library, number);
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
static bool line_matches(gw_explainer *ex, const regex_t *rx)
{
	const char *sq;

	if (!rx)
		return false;
	if (regex_matches(rx, ex->line))
		return true;
	return (sq = squeezed_line(ex)) && regex_matches(rx, sq);
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

static bool pattern_accepts(gw_explainer *ex, unsigned p, size_t start)
{
	const struct catalogue *cat = ex->cat;
	size_t end = start + cat->lit_len[p];

	if (gw__explain_patterns[p].how != GW__HOW_PLAIN)
		return code_row_accepts(ex, p, start);
	if (longer_enum_name(ex->line, ex->line_len, start, end))
		return false;
	if (has_regex(p) && !line_matches(ex, regex_of(cat, p, RX_MATCH)))
		return false;
	if (has_veto(p) && line_matches(ex, regex_of(cat, p, RX_UNLESS)))
		return false;
	return true;
}

/* The ids the architecture rule's evidence belongs to. */
static bool is_arch_id(const char *id)
{
	return !strcmp(id, "gpu-arch-unsupported-by-framework") || !strcmp(id, "rocm-gfx-unsupported") ||
	       !strcmp(id, "gpu-too-old-for-kernel-library") || !strcmp(id, "compiler-gpu-target-unknown");
}

static size_t parse_target(const char *s, size_t n, char *out, size_t outsz);

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
		if (parse_target(ex->line + i, ex->line_len - i, t, sizeof(t))) {
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

static int doc_index(const char *id);

/* How many blanks the current line starts with. */
static size_t leading_blanks(const gw_explainer *ex)
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
		ex->fx.indent = leading_blanks(ex);
	}
	if (ex->fx.n < FX_MAX) {
		ex->fx.e[ex->fx.n].doc = d;
		ex->fx.e[ex->fx.n++].created = created;
	}
}

/* Count a match of finding d on this line; code is the status code that
 * named it (-1: a message pattern). */
static void record_match(gw_explainer *ex, unsigned d, const char *framework, int code, size_t start, bool had_nul)
{
	gw_explain_match *m;

	ex->line_matched = true;
	if (ex->host_line && (int)d == doc_index("cuda-out-of-memory"))
		return;            /* host memory: not the GPU's (fallback_line) */
	if (code >= 0 && gw__status_codes[code].pub.number == 218 && !strncmp(gw__status_codes[code].pub.library, "cuda-", 5))
		ex->invalid_ptx = true;
	if (ex->nmatches > 0 && is_teardown(code))
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
	make_excerpt(m->excerpt, ex->line, ex->line_len, start, had_nul ? ex->nul_at : NULL);
}

/* Where the row's literal next occurs on the line at or after from, or
 * SIZE_MAX. */
static size_t next_literal(const gw_explainer *ex, unsigned p, size_t from)
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
	make_excerpt(ex->held[ex->nheld++].excerpt, ex->line, ex->line_len, start, had_nul ? ex->nul_at : NULL);
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
	return line_has_text(ex, "current device:") && line_has_text(ex, ", in function ");
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
static void held_call_line(gw_explainer *ex)
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
			own = code_by_number(library, gw__status_codes[code].pub.number, false);
			code = own >= 0 && !strncmp(library, "cuda-", 5) ? own : code;
			understood = true;
			record_match(ex, (unsigned)gw__status_codes[code].doc, gw__status_codes[code].pub.library, code,
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
			next_generation(ex);
	}
	ex->nheld = 0;
	ex->held_skip = 0;
}

static bool pattern_accepts(gw_explainer *ex, unsigned p, size_t start);

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
			if (pattern_accepts(ex, q, start))
				return true;
			continue;
		}
		if (start + n == ex->line_len || !is_word_byte(ex->line[start + n]))
			return true;
	}
	return false;
}

static void record_hit(gw_explainer *ex, const struct hit *h, bool had_nul)
{
	const gw__explain_pattern *pat = &gw__explain_patterns[h->pat];
	int code = pat->code;

	if (pat->how == GW__HOW_NUMBER) {
		const char *numbered_as = NULL;
		size_t start = h->start;

		/* A wrapping too common to read alone ("failed to launch
		 * with error") counts only on a line its regex matches. */
		if (has_regex(h->pat) && !line_matches(ex, regex_of(ex->cat, h->pat, RX_MATCH)))
			return;
		/* The scan reports a wrapping's first place on the line;
		 * its number may follow a later one ("Warp CUDA error: Failed
		 * to get driver entry point 'cuInit' (CUDA error 34)"). */
		while ((code = number_code(ex, h->pat, start, &numbered_as)) < 0)
			if ((start = next_literal(ex, h->pat, start + 1)) == SIZE_MAX)
				return;
		ex->hit_library = numbered_as;
		ex->hit_number = gw__status_codes[code].pub.number;
		record_match(ex, (unsigned)gw__status_codes[code].doc, gw__status_codes[code].pub.library, code,
			     start, had_nul);
		ex->hit_library = NULL;
		return;
	}
	if (pat->how == GW__HOW_DESC && longer_description_at(ex, h->pat, h->start))
		return;
	if (pattern_accepts(ex, h->pat, h->start)) {
		int own = own_number_code(ex, h->pat, h->start);

		/* Read by its number of before CUDA 10.1: that code. */
		if (own >= 0 && own != code && gw__status_codes[own].doc >= 0)
			record_match(ex, (unsigned)gw__status_codes[own].doc, gw__status_codes[own].pub.library, own,
				     h->start, had_nul);
		else
			record_match(ex, pat->doc, pat->framework, code, h->start, had_nul);
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
static void remove_match(gw_explainer *ex, size_t i)
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
static void refine(gw_explainer *ex, unsigned from, unsigned to)
{
	int i = ex->match_of_doc[from], j;

	if (ex->refined[from] != -1)
		return;            /* the first refinement seen wins */
	if (to >= NDOC) {
		ex->refined[from] = DROPPED;
		if (i >= 0) {
			ex->match_of_doc[from] = -1;
			remove_match(ex, (size_t)i);
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
		remove_match(ex, (size_t)j);
	} else {
		ex->matches[j].count += ex->matches[i].count;
		remove_match(ex, (size_t)i);
	}
}

static bool note_context(gw_explainer *ex, unsigned p)
{
	const gw__explain_pattern *pat = &gw__explain_patterns[p];

	if (has_regex(p) && !regex_matches(regex_of(ex->cat, p, RX_MATCH), ex->line))
		return false;
	refine(ex, (unsigned)pat->code, pat->doc);
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
		remove_match(ex, i);
		return true;
	}
	if (ex->refined[to] >= 0)
		to = ex->refined[to];
	j = ex->match_of_doc[to];
	if ((unsigned)to == from || j < 0 || (size_t)j > i) {
		if ((unsigned)to != from) {
			if (j >= 0) {      /* merge the later match into this one */
				m->count += ex->matches[j].count;
				remove_match(ex, (size_t)j);
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
	remove_match(ex, i);
	return true;
}

static int doc_index(const char *id);

/* "unknown error" is what a wrapper's own table prints for a code it does
 * not list (BEAGLE's `CUDA error: "Unknown error" (222)`), and what a
 * runtime older than the code returns for it; the number printed beside it
 * is the failure. When this line's new match is the unknown error and the
 * number names another finding, the number's finding stands. */
static void unknown_error_numbered(gw_explainer *ex)
{
	int d = doc_index("cuda-unknown-error"), i, code;
	const char *library = line_library(ex);
	long number;

	/* A name says more than a number ("hipErrorUnknown ... (700)"). */
	if (line_has_text(ex, "ErrorUnknown") || line_has_text(ex, "ERROR_UNKNOWN"))
		return;
	if (d < 0 || !library || ex->cell_line || (i = ex->match_of_doc[d]) < 0 ||
	    ex->matches[i].line != ex->lines + 1 || ex->matches[i].count != 1 || !(number = unknown_error_number(ex)))
		return;
	code = is_cuda_numbering(library) ? cuda_number_code(ex, library, number) : code_by_number(library, number, false);
	if (code < 0 || gw__status_codes[code].doc < 0 || gw__status_codes[code].doc == d)
		return;
	renumber(ex, (size_t)i, code);
}

/* The log shows a CUDA older than 10.1 (data/explain/legacy_cuda): the
 * runtime's bare numbers read before now, and from now on, are those of
 * then. */
static void legacy_cuda_seen(gw_explainer *ex, unsigned p)
{
	if (ex->legacy_cuda || (has_regex(p) && !regex_matches(regex_of(ex->cat, p, RX_MATCH), ex->line)))
		return;
	ex->legacy_cuda = true;
	for (size_t i = 0; i < ex->nmatches;) {
		int code = ex->numbered[i].library
			   ? code_by_number(ex->numbered[i].library, ex->numbered[i].number, true) : -1;

		if (code >= 0 && &gw__status_codes[code].pub != ex->matches[i].code && renumber(ex, i, code))
			continue;
		i++;
	}
}

/* ---- the missing-library rule ---------------------------------------- */

static bool is_name_byte(char c)
{
	return is_word_byte(c) || c == '-' || c == '+';
}

/* Case-insensitive: does the lowercase needle occur in line[0..len)? */
static bool line_has(const char *line, size_t len, const char *needle)
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
		if (line_has(line, len, words[i]))
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

/* A library named by its bare name before "library not found"
 * (scikit-cuda's "cufft library not found", a build's "cuFFT library not
 * found in ..."): NAME is libNAME.so when data/sonames.tsv knows it. Else
 * the words before the phrase may end with the component the table names
 * ("CUDA runtime": scikit-cuda's cudart.py raises OSError('CUDA runtime
 * library not found') when no cudart candidate loads; "NVIDIA driver",
 * "cuDNN", "TensorRT"): the component's unversioned row. *at and *len give
 * the name as the line spells it. */
static const gw_row_sonames *find_named_library(const char *line, size_t n, size_t *at, size_t *len)
{
	static const char phrase[] = " library not found";
	const size_t pn = sizeof(phrase) - 1;

	for (size_t i = 1; i + pn <= n; i++) {
		char name[64];
		size_t start = i;
		const gw_row_sonames *row;

		if (!literal_at(line + i, phrase, pn) || !is_name_byte(line[i - 1]))
			continue;
		while (start > 0 && is_name_byte(line[start - 1]))
			start--;
		if (i - start + sizeof("lib.so") > sizeof(name))
			continue;
		gw__fmt(name, sizeof(name), "lib%.*s.so", (int)(i - start), line + start);
		for (char *c = name; *c; c++)
			*c = (char)fold((uint8_t)*c);
		if ((row = gw__tbl_soname(name, strlen(name)))) {
			*at = start;
			*len = i - start;
			return row;
		}
		if ((row = gw__tbl_soname_component(line, i))) {
			*len = gw__tbl_soname_component_len(row);
			*at = i - *len;
			return row;
		}
	}
	return NULL;
}

/* Find the library file name on the line that data/sonames.tsv knows:
 * "lib....so[.N...]" or "....dll", ended by a byte that cannot continue
 * it; the first one, or the last before dlerror's "NAME: cannot open
 * shared object file" when the line has it ("Could not load library
 * libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open ...": libcuda
 * is the one missing). *at and *len give it. */
static const gw_row_sonames *find_library(const char *line, size_t n, size_t *at, size_t *len)
{
	static const char dlerror[] = "cannot open shared object file";
	const gw_row_sonames *found = NULL;
	size_t stop = n;
	unsigned names = 0;

	for (size_t i = 0; i + sizeof(dlerror) - 1 <= n; i++)
		if (literal_at(line + i, dlerror, sizeof(dlerror) - 1)) {
			stop = i;
			break;
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
	if (found || (found = find_link_library(line, n, at, len)))
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
	return !strcmp(row->component, "TensorRT") && line_has(line, len, "dso_loader");
}

static int doc_index(const char *id)
{
	const gw_finding_doc *d = gw_finding_doc_get(id);

	return d ? (int)(d - gw__finding_docs) : -1;
}

/* Windows could not load a DLL, by the code its loader gives
 * (win_load_codes), on a line that names a DLL or Windows' LoadLibrary
 * (a path cut short names none): a shell's "error code 126" is no DLL's. */
static bool windows_load_failed(const char *line, size_t len)
{
	/* ONNX Runtime's Windows loader before 1.13 (core/platform/windows/
	 * env.cc, "Failed to load library, error code: " << GetLastError())
	 * names no file; its code is LoadLibrary's. */
	if (!line_has(line, len, ".dll") && !line_has(line, len, "loadlibrary") &&
	    !line_has(line, len, "failed to load library, error code:"))
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
	return line_has(line, len, "dll load failed:") || line_has(line, len, "dll load failed while importing") ||
	       line_has(line, len, "dll load failed with error code");
}

/* A loader's phrase is on the line: the library it names decides the id
 * (data/sonames.tsv), and the match carries what the table says of it. */
static void library_rule(gw_explainer *ex, size_t start, bool had_nul)
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
		    (d = doc_index("windows-dll-load-failed")) >= 0)
			record_match(ex, (unsigned)d, "loader", -1, start, had_nul);
		return;
	}
	/* A library the table knows, found but not loaded ("LoadLibrary
	 * failed with error 1114 ... cudnn64_9.dll"): not a missing one. */
	if (windows_error_in(ex->line, ex->line_len, win_load_codes + 1,
			     sizeof(win_load_codes) / sizeof(win_load_codes[0]) - 1)) {
		if (!ex->line_matched && (d = doc_index("windows-dll-load-failed")) >= 0)
			record_match(ex, (unsigned)d, "loader", -1, start, had_nul);
		return;
	}
	if ((d = doc_index(row->id)) < 0 || library_found_but_wrong(ex->line, ex->line_len) ||
	    tensorrt_probe(row, ex->line, ex->line_len))
		return;
	/* 'Error loading "...\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its
	 * dependencies': the file is there (the framework ships it), something
	 * it needs is not; windows-dll-load-failed says so. */
	if (at > 0 && (ex->line[at - 1] == '\\' || ex->line[at - 1] == '/') &&
	    line_has(ex->line, ex->line_len, "one of its dependencies"))
		return;
	if (ex->refined[d] >= 0)
		d = ex->refined[d];   /* record_match reports it as the refined id */
	if (ex->line_matched && ex->doc_gen[d] != ex->gen)
		return;            /* a row named another cause for this line */
	bool first = ex->match_of_doc[d] < 0;

	record_match(ex, (unsigned)d, "loader", -1, start, had_nul);
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
static void library_found_after_all(gw_explainer *ex)
{
	static const char found[] = "path found:";
	int d = doc_index("cuda-library-missing"), i;
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
	remove_match(ex, (size_t)i);
}

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
static size_t parse_target(const char *s, size_t n, char *out, size_t outsz)
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
	bool numbered = line_has(line, n, "cuda arch") || line_has(line, n, "hip arch");
	/* Bare tuples are targets only on a line that gives the GPU's as one. */
	bool tupled = line_has(line, n, "arch (") || line_has(line, n, "capability (");
	/* CUDA_ARCHITECTURES-style numbers only on a line that names CUDA. */
	bool cuda_numbered = line_has(line, n, "architecture") && names_library(line, n, "cuda", true);

	ex->line_gpu[0] = '\0';
	ex->line_floor = 0;
	for (size_t i = 0; i < n; i++) {
		char t[16];
		size_t len = 0, at = i;

		if (i > 0 && is_word_byte(line[i - 1]))
			continue;
		if (!(len = parse_target(line + i, n - i, t, sizeof(t))) && i + 10 <= n &&
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
		if (line_has(line, len, words[i]))
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
static bool kernel_floor(const gw_explainer *ex)
{
	unsigned major, minor;
	bool named = false;

	if (!ex->line_floor || !target_cc(ex->line_gpu, &major, &minor) || major * 10 + minor >= ex->line_floor)
		return false;
	for (size_t i = 0; i < sizeof(kernel_words) / sizeof(kernel_words[0]) && !named; i++)
		named = names_library(ex->line, ex->line_len, kernel_words[i], true);
	return named;
}

/* A phrase of an architecture mismatch is on the line: read the targets,
 * and when no other row explained the line and it says something is not
 * supported, name the mismatch (unless the log's GPU is in the build). */
static void arch_rule(gw_explainer *ex, size_t start, bool had_nul)
{
	int d;

	/* ggml's kernel says itself that it has no code for the arch it
	 * runs as (a build for an older target than its features need). */
	bool no_code = line_has(ex->line, ex->line_len, "no device code compatible");

	if (!read_targets(ex) || ex->line_matched || !says_unsupported(ex->line, ex->line_len) ||
	    (!no_code && ex->arch.gpu[0] && ex->arch.build[0] && gw_explain_arch_runs(&ex->arch, ex->arch.gpu) == 1))
		return;
	d = doc_index(!strncmp(ex->arch.gpu, "gfx", 3) || !strncmp(ex->arch.build, "gfx", 3)
		      ? "rocm-gfx-unsupported" : kernel_floor(ex) ? "gpu-too-old-for-kernel-library"
		      : "gpu-arch-unsupported-by-framework");
	if (d >= 0)
		record_match(ex, (unsigned)d, "arch", -1, start, had_nul);
	if (d >= 0 && line_has(ex->line, ex->line_len, ".target"))
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
static void arch_conclude(gw_explain_arch *a)
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
static void read_model(gw_explainer *ex)
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
static void invalid_ptx_on_new_gpu(gw_explainer *ex)
{
	int from = doc_index("gpu-invalid-call"), to = doc_index("gpu-arch-unsupported-by-framework");
	unsigned major, minor;
	int runs;

	if (from < 0 || to < 0 || ex->refined[from] >= 0 || ex->match_of_doc[from] < 0 || !ex->arch.gpu[0] ||
	    !ex->invalid_ptx || !target_cc(ex->arch.gpu, &major, &minor))
		return;
	runs = gw_explain_arch_runs(&ex->arch, ex->arch.gpu);
	if (runs == 1 || (runs < 0 && major < ARCH_NEWEST_MAJOR))
		return;
	refine(ex, (unsigned)from, (unsigned)to);
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
static void invalid_call_after_arch(gw_explainer *ex)
{
	static const char *const arch_ids[] = { "gpu-arch-unsupported-by-framework", "rocm-gfx-unsupported",
						"gpu-too-old-for-kernel-library" };
	static const char *const follow_ids[] = { "gpu-invalid-call", "cublas-execution-failed",
						  "cudnn-execution-failed" };

	for (size_t f = 0; f < sizeof(follow_ids) / sizeof(follow_ids[0]); f++) {
		int from = doc_index(follow_ids[f]), i;

		if (from < 0 || (i = ex->match_of_doc[from]) < 0)
			continue;
		for (size_t k = 0; k < sizeof(arch_ids) / sizeof(arch_ids[0]); k++) {
			int to = doc_index(arch_ids[k]), j;

			if (to < 0 || (j = ex->match_of_doc[to]) < 0)
				continue;
			/* The mismatch keeps its own line, code and excerpt. */
			ex->matches[j].count += ex->matches[i].count;
			ex->match_of_doc[from] = -1;
			remove_match(ex, (size_t)i);
			break;
		}
	}
}

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
static bool attempt_line(const gw_explainer *ex)
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
enum { FB_VETO = 1, FB_TAIL = 2, FB_HOST = 4 };

static int fallback_line(gw_explainer *ex)
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
			for (size_t at = ex->hits[i].start; at != SIZE_MAX && !unless; at = next_literal(ex, p, at + 1))
				unless = (at == 0 || !is_alnum_byte(ex->line[at - 1])) &&
					 ex->line[at + ex->cat->lit_len[p]] != '_';
		} else if (!has_regex(p) || line_matches(ex, regex_of(ex->cat, p, RX_MATCH)))
			fallback = true;
	}
	r = host ? FB_HOST : 0;
	if (fallback && !unless) {
		size_t i = leading_blanks(ex);

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
static bool only_fallback_words(const gw_explainer *ex)
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
static void take_back(gw_explainer *ex)
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
				remove_match(ex, (size_t)i);
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
	return line_has(line, len, "already been registered") || line_has(line, len, "already registered");
}

static void note_unrecognised(gw_explainer *ex, bool had_nul)
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
	make_excerpt(u->excerpt, ex->line, ex->line_len, 0, had_nul ? ex->nul_at : NULL);
}

/* ---- wrapped table cells ---------------------------------------------- */

/* Text tables cut a long cell into pieces of the column's width and go on
 * with it on the table's next lines, the other cells blank: Triton's
 * TablePrinter (the model and backend tables every tritonserver start
 * prints, whose status column holds the error that stopped a model) cuts
 * at every `width` characters, mid-word ("operation no" / "t supported").
 * A line that continues the record before it (same width, a bar at each
 * of its column bars, first cell blank) is kept with it, and each column
 * a later line continues is read as one line, its pieces joined. */

static void end_piece(gw_explainer *ex, bool newline);
static void scan_bytes(gw_explainer *ex, const char *p, size_t n);
static size_t cri_record(const char *s, size_t n, int *stream, bool *partial);

/* The length of the line without its trailing blanks and CR. */
static size_t trimmed_len(const char *line, size_t len)
{
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
		len--;
	return len;
}

/* Is there a column bar at i: a '|' with a blank (or the line's end) on
 * each side? */
static bool bar_at(const char *line, size_t len, size_t i)
{
	return i < len && line[i] == '|' && (i == 0 || line[i - 1] == ' ') && (i + 1 == len || line[i + 1] == ' ');
}

static bool continues_record(const gw_explainer *ex, const char *line, size_t len)
{
	if (!ex->table.nlines || len != ex->table.width ||
	    (ex->table.nlines + 1) * len > sizeof(ex->table.text))
		return false;
	for (unsigned b = 0; b < ex->table.nbars; b++)
		if (!bar_at(line, len, ex->table.bars[b]))
			return false;
	for (size_t i = 1; i < ex->table.bars[1]; i++)
		if (line[i] != ' ')
			return false;
	return true;
}

/* Read each column of the kept record that a later line continues as one
 * line, at the record's first line: a piece fills its column's width, so
 * the pieces join with nothing between them. */
static void read_cells(gw_explainer *ex)
{
	for (unsigned c = 0; ex->table.nlines > 1 && c + 1 < ex->table.nbars; c++) {
		size_t from = ex->table.bars[c] + 2, to = ex->table.bars[c + 1] - 1, n = 0;
		bool continued = false;

		if (to <= from)
			continue;
		for (unsigned k = 0; k < ex->table.nlines; k++) {
			const char *piece = ex->table.text + k * ex->table.width + from;

			memcpy(ex->cell + n, piece, to - from);
			n += to - from;
			for (size_t i = 0; k > 0 && i < to - from; i++)
				continued = continued || piece[i] != ' ';
		}
		if (!continued)
			continue;
		n = trimmed_len(ex->cell, n);
		ex->cell_line = ex->table.first_line;
		scan_bytes(ex, ex->cell, n);
		end_piece(ex, false);
		ex->cell_line = 0;
		ex->pending = false;
	}
	ex->table.nlines = 0;
}

/* The length of the line when it is a row of a text table ('|' first and
 * last) that fits a record, kept in ex->row; else 0. */
static size_t keep_row(gw_explainer *ex)
{
	size_t len = trimmed_len(ex->line, ex->line_len), lead = 0;

	while (lead < len && (ex->line[lead] == ' ' || ex->line[lead] == '\t'))
		lead++;                   /* an indented table (Jupyter's output) */
	len -= lead;
	if (len < 3 || len > sizeof(ex->row) || ex->line[lead] != '|' || ex->line[lead + len - 1] != '|')
		return 0;
	memcpy(ex->row, ex->line + lead, len);
	return len;
}

/* After line number ex->lines, kept by keep_row (len 0: no table row):
 * add it to the record it continues, or read the record that it ends and
 * start one with it. */
static void table_line(gw_explainer *ex, size_t len)
{
	const char *line = ex->row;

	if (len && continues_record(ex, line, len)) {
		memcpy(ex->table.text + ex->table.nlines++ * len, line, len);
		return;
	}
	read_cells(ex);
	ex->table.nbars = 0;
	for (size_t i = 0; i < len && ex->table.nbars <= GW_EXPLAIN_TABLE_COLUMNS; i++)
		if (bar_at(line, len, i))
			ex->table.bars[ex->table.nbars++] = i;
	if (ex->table.nbars < 2 || ex->table.nbars > GW_EXPLAIN_TABLE_COLUMNS)
		return;
	ex->table.width = len;
	ex->table.first_line = ex->lines;
	ex->table.nlines = 1;
	memcpy(ex->table.text, line, len);
}

/* ---- line prefixes ------------------------------------------------------ */

/* Loggers, collectors and pastes put a prefix before every line that is no
 * part of the message (tests/explain/README-presentation.md): a rule or a
 * pattern anchored at the line's start ("^ *no devices were found *$", a
 * compiler's quote "  434 |  case X:" of a source line, a table's '|')
 * must see the line after it. A known, bounded set is left out, repeated
 * (up to PREFIX_MAX of them, "TIME stderr F [rank0]: E   ..."):
 *  - an ISO 8601 / RFC 3339 time "2024-03-11T10:02:33.551Z " (Python
 *    logging's "2024-03-11 10:02:33,551 ", Go, kubectl logs --timestamps),
 *    then, from a Kubernetes CRI log file (/var/log/pods, the kubelet's
 *    format), "stdout F " or "stderr P ", or from syslog in RFC 3339 form
 *    a host and a tag with its pid "node01 python3[4242]: ";
 *  - a BSD syslog / journalctl time "Mar 11 10:02:33 " with its host and
 *    tag "node01 python3[4242]: " or "node01 kernel: ";
 *  - torchrun's "[rank0]: " (PyTorch >= 2.2, every rank's stderr) and
 *    "[default0]:" (--tee / --redirects), "[rank 3]:";
 *  - pytest's "E   " before an exception's lines (_pytest/_code/code.py,
 *    get_exconly: fail marker "E" padded to the indent of 4);
 *  - a Markdown or e-mail quote "> " (not ">>", a prompt or a shell's
 *    redirection);
 *  - tqdm's last bar that a "\r" redraw leaves before the next output
 *    ("desc: 100%|#####| 10/10 [00:01<00:00, 9.1it/s]", tqdm's
 *    format_meter: l_bar "{desc}: {percentage:3.0f}%|", r_bar
 *    "| {n}/{total} [{elapsed}<{remaining}, {rate}{postfix}]").
 * Only lines whose first byte can start one are looked at. */
#define PREFIX_MAX 4

static bool digits_at(const char *s, size_t n, size_t i, size_t k)
{
	if (i + k > n)
		return false;
	for (size_t j = 0; j < k; j++)
		if (s[i + j] < '0' || s[i + j] > '9')
			return false;
	return true;
}

/* A syslog tag "name[pid]: " or "name: " at i (with_pid: the pid is
 * required); the offset after it, or 0. */
static size_t syslog_tag(const char *s, size_t n, size_t i, bool with_pid)
{
	size_t j = i;
	bool pid = false;

	while (j < n && j - i < 64 && (is_alnum_byte(s[j]) || strchr("_.@/-", s[j])))
		j++;
	if (j == i)
		return 0;
	if (j < n && s[j] == '[') {
		size_t k = j + 1;

		while (k < n && s[k] >= '0' && s[k] <= '9' && k - j < 12)
			k++;
		if (k == j + 1 || k >= n || s[k] != ']')
			return 0;
		j = k + 1;
		pid = true;
	}
	if (with_pid && !pid)
		return 0;
	if (j + 1 >= n || s[j] != ':' || s[j + 1] != ' ')
		return 0;
	return j + 2;
}

/* "host tag[pid]: " at i; the offset after it, or 0. */
static size_t syslog_host_tag(const char *s, size_t n, size_t i, bool with_pid)
{
	size_t j = i;

	while (j < n && j - i < 64 && (is_alnum_byte(s[j]) || strchr("_.-", s[j])))
		j++;
	if (j == i || j >= n || s[j] != ' ')
		return 0;
	return syslog_tag(s, n, j + 1, with_pid);
}

/* An ISO 8601 time at 0 and what follows it; the offset after, or 0. */
static size_t iso_prefix(const char *s, size_t n)
{
	size_t i = 10, t;

	if (!digits_at(s, n, 0, 4) || s[4] != '-' || !digits_at(s, n, 5, 2) || s[7] != '-' ||
	    !digits_at(s, n, 8, 2) || i >= n || (s[i] != 'T' && s[i] != ' ') ||
	    !digits_at(s, n, 11, 2) || s[13] != ':' || !digits_at(s, n, 14, 2))
		return 0;
	i = 16;
	if (i < n && s[i] == ':' && digits_at(s, n, 17, 2)) {
		i = 19;
		if (i + 1 < n && (s[i] == '.' || s[i] == ',') && digits_at(s, n, i + 1, 1))
			for (i++; i < n && s[i] >= '0' && s[i] <= '9' && i < 32; i++)
				;
	}
	if (i < n && s[i] == 'Z')
		i++;
	else if (i < n && (s[i] == '+' || s[i] == '-') && digits_at(s, n, i + 1, 2)) {
		i += 3;
		if (i < n && s[i] == ':')
			i++;
		if (digits_at(s, n, i, 2))
			i += 2;
	}
	if (i >= n || (s[i] != ' ' && s[i] != '\t'))
		return 0;
	i++;
	/* CRI: "stdout F " / "stderr P " */
	if (i + 9 <= n && (!memcmp(s + i, "stdout ", 7) || !memcmp(s + i, "stderr ", 7)) &&
	    (s[i + 7] == 'F' || s[i + 7] == 'P') && s[i + 8] == ' ')
		return i + 9;
	if ((t = syslog_host_tag(s, n, i, true)))
		return t;
	return i;
}

static size_t syslog_prefix(const char *s, size_t n)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t i = 4;
	bool month = false;

	for (size_t m = 0; n > 3 && m < 36 && !month; m += 3)
		month = !memcmp(s, months + m, 3);
	if (!month || s[3] != ' ')
		return 0;
	if (i < n && s[i] == ' ')
		i++;
	if (!digits_at(s, n, i, 1))
		return 0;
	i += digits_at(s, n, i, 2) ? 2 : 1;
	if (i >= n || s[i] != ' ' || !digits_at(s, n, i + 1, 2) || i + 9 > n || s[i + 3] != ':' ||
	    !digits_at(s, n, i + 4, 2) || s[i + 6] != ':' || !digits_at(s, n, i + 7, 2))
		return 0;
	i += 9;
	if (i < n && s[i] == '.')                      /* journalctl -o short-precise */
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
	if (i >= n || s[i] != ' ')
		return 0;
	return syslog_host_tag(s, n, i + 1, false);
}

static size_t rank_prefix(const char *s, size_t n)
{
	size_t i;

	if (n > 6 && !memcmp(s, "[rank", 5))
		i = 5;
	else if (n > 9 && !memcmp(s, "[default", 8))
		i = 8;
	else
		return 0;
	if (s[i] == ' ')
		i++;
	if (!digits_at(s, n, i, 1))
		return 0;
	while (i < n && s[i] >= '0' && s[i] <= '9' && i < 20)
		i++;
	if (i + 1 >= n || s[i] != ']' || s[i + 1] != ':')
		return 0;
	i += 2;
	if (i < n && s[i] == ' ')
		i++;
	return i;
}

/* tqdm's bar left before the text: "[desc: ]NNN%|...| n/total [...]". */
static size_t tqdm_prefix(const char *s, size_t n)
{
	const char *pc = n > 4 ? memmem(s, n < 80 ? n : 80, "%|", 2) : NULL;
	size_t i;

	if (!pc || pc == s || pc[-1] < '0' || pc[-1] > '9')
		return 0;
	i = (size_t)(pc - s) + 2;
	const char *bar = memchr(s + i, '|', n - i < 256 ? n - i : 256);

	if (!bar)
		return 0;
	i = (size_t)(bar - s) + 1;
	if (i >= n || s[i] != ' ' || !digits_at(s, n, i + 1, 1))
		return 0;
	const char *open = memchr(s + i, '[', n - i < 40 ? n - i : 40);
	const char *close = open ? memchr(open, ']', (size_t)(s + n - open) < 120 ? (size_t)(s + n - open) : 120) : NULL;

	if (!close || !memchr(open, '<', (size_t)(close - open)))
		return 0;
	return (size_t)(close - s) + 1;
}

/* The length of the known prefix at the line's start (0: none); *bar:
 * the line is nothing but a tqdm bar. */
static size_t line_prefix(const char *s, size_t n, bool *bar)
{
	size_t b = 0;

	for (int k = 0; k < PREFIX_MAX && b < n; k++) {
		const char *t = s + b;
		size_t m = n - b, p = 0;

		switch (*t) {
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			p = iso_prefix(t, m);
			break;
		case 'J': case 'F': case 'M': case 'A': case 'S': case 'O': case 'N': case 'D':
			p = syslog_prefix(t, m);
			break;
		case '[':
			p = rank_prefix(t, m);
			break;
		case 'E':
			p = m >= 4 && t[1] == ' ' && t[2] == ' ' && t[3] == ' ' ? 4 : 0;
			break;
		case '>':
			p = m == 1 ? 1 : t[1] == ' ' ? 2 : 0;
			break;
		}
		if (!p && k == 0 && memchr(t, '%', m < 80 ? m : 80))
			*bar = (p = tqdm_prefix(t, m)) == m;
		if (!p)
			break;
		b += p;
	}
	return b;
}

/* Leave the line's known prefix out (line_prefix), at a line's first
 * piece: the hits move with the text, one that began in it is dropped.
 * True when the line was only a tqdm bar. */
static bool strip_prefix(gw_explainer *ex)
{
	bool bar = false;
	size_t b = line_prefix(ex->line, ex->line_len, &bar);
	unsigned k = 0;

	if (!b)
		return false;
	memmove(ex->line, ex->line + b, ex->line_len - b);
	ex->line_len -= b;
	ex->stripped = b;
	for (unsigned i = 0; i < ex->nhits; i++)
		if (ex->hits[i].start >= b) {
			ex->hits[k] = ex->hits[i];
			ex->hits[k++].start -= b;
		}
	if (ex->nhits && !k)
		next_generation(ex);
	ex->nhits = k;
	return bar;
}

/* The line (or a piece of an over-long one) is complete: check the
 * candidate patterns in order of position and start afresh. */
static void scan_line(gw_explainer *ex);

static void end_piece(gw_explainer *ex, bool newline)
{
	bool bar;

	if (!newline && !ex->piece_cont && !ex->cell_line) {   /* an over-long line's first piece */
		int stream = 0;
		bool partial = false;

		ex->pr.cri_first = cri_record(ex->line, ex->line_len, &stream, &partial) && partial ? stream : 0;
	}
	scan_line(ex);
	bar = !ex->piece_cont && !ex->cell_line && ex->line_len && strip_prefix(ex);

	ex->piece_cont = !newline && !ex->cell_line;
	/* A line that is only tqdm's bar (redrawn with "\r", or left by it)
	 * stands between no two lines: what waits for the next line waits on. */
	if (bar && newline) {
		ex->line_len = 0;
		ex->lines++;
		ex->pending = false;
		if (ex->nheld)
			ex->held_line++;
		if (ex->call_line)
			ex->call_line++;
		return;
	}
	/* The fallback table's "unless" and "host" words alone (a line that
	 * says "cpu") ask nothing of a line: no row to check. */
	if (ex->nhits && only_fallback_words(ex)) {
		ex->nhits = 0;
		next_generation(ex);
	}
	if (ex->nhits) {
		/* regexec stops at NUL; binary junk must not hide the rest. */
		bool had_nul = memchr(ex->line, '\0', ex->line_len) != NULL;

		if (had_nul) {
			memset(ex->nul_at, 0, (ex->line_len + 7) / 8);
			for (size_t i = 0; i < ex->line_len; i++)
				if (ex->line[i] == '\0') {
					ex->line[i] = ' ';
					ex->nul_at[i / 8] |= (uint8_t)(1u << (i % 8));
				}
		}
		ex->line[ex->line_len] = '\0';
		for (unsigned i = 1; i < ex->nhits; i++) {    /* insertion sort, few hits */
			struct hit h = ex->hits[i];
			unsigned j = i;
			for (; j > 0 && ex->hits[j - 1].start > h.start; j--)
				ex->hits[j] = ex->hits[j - 1];
			ex->hits[j] = h;
		}
		/* Names, descriptions and messages first; a number only
		 * when nothing else on the line said what went wrong. */
		bool gpu_word = false, context = false, info = attempt_line(ex);
		size_t arch_at = SIZE_MAX, loader_at = SIZE_MAX;
		int fb = fallback_line(ex);

		if (fb & FB_VETO) {
			info = true;
			if (fb & FB_TAIL)
				take_back(ex);
			ex->fx_last.n = 0;
		}
		ex->host_line = fb & FB_HOST;

		ex->line_matched = false;
		ex->line_library = false;
		for (unsigned i = 0; i < ex->nhits; i++) {
			unsigned how = gw__explain_patterns[ex->hits[i].pat].how;

			gpu_word = gpu_word || how == GW__HOW_GPU_WORD;
			if (how == GW__HOW_CONTEXT)
				context = note_context(ex, ex->hits[i].pat) || context;
			else if (how == GW__HOW_LEGACY)
				legacy_cuda_seen(ex, ex->hits[i].pat);
			else if (info)
				continue;  /* see attempt_line */
			else if (how == GW__HOW_LOADER)
				loader_at = loader_at < ex->hits[i].start ? loader_at : ex->hits[i].start;
			else if (how == GW__HOW_ARCH)
				arch_at = arch_at < ex->hits[i].start ? arch_at : ex->hits[i].start;
			else if (how != GW__HOW_NUMBER && how != GW__HOW_GPU_WORD && how != GW__HOW_FALLBACK)
				record_hit(ex, &ex->hits[i], had_nul);
		}
		/* The general rules after the rows: a row that names the
		 * line's cause (the container toolkit's "load library failed:
		 * libnvidia-ml.so.1: cannot open ...") is more specific. */
		if (loader_at != SIZE_MAX)
			library_rule(ex, loader_at, had_nul);
		if (!info)
			library_found_after_all(ex);
		if (arch_at != SIZE_MAX)
			arch_rule(ex, arch_at, had_nul);
		for (unsigned i = 0; i < ex->nhits && !ex->line_matched && !info; i++)
			if (gw__explain_patterns[ex->hits[i].pat].how == GW__HOW_NUMBER)
				record_hit(ex, &ex->hits[i], had_nul);
		if (ex->line_matched && !info)
			unknown_error_numbered(ex);
		/* A refinement's context line (a warning that names the
		 * fix) is understood, not an unknown error. */
		if (gpu_word && !ex->line_matched && !context && !info)
			note_unrecognised(ex, had_nul);
		ex->host_line = false;
		ex->nhits = 0;
		next_generation(ex);
	}
	if (!ex->model_gpu[0]) {
		ex->line[ex->line_len] = '\0';
		read_model(ex);
	}
	/* Triton's and XLA's own words and paths ("triton/backends/nvidia/bin/ptxas",
	 * "xla/service/gpu", "XlaRuntimeError"): a JIT compiler generated the code. */
	if (!ex->jit_compiler)
		ex->jit_compiler = line_word(ex, W_TRITON) || line_word(ex, W_XLA);
	bool table = newline && !ex->cell_line;
	size_t row = table ? keep_row(ex) : 0;

	if (!newline && !ex->cell_line)
		ex->table.nlines = 0;      /* an over-long line: no table */
	if (newline && ex->nheld && ex->held_line != ex->lines)
		held_call_line(ex);
	if (newline) {
		ex->call_line = line_word(ex, W_IN_FILE) && cuda_check_statement(ex->line, ex->line_len) ? ex->lines + 1 : 0;
		/* the needle pass saw the words (anywhere, even in a prefix);
		 * the word-start test only on the few lines that hold them */
		ex->thrust_line = ex->word_at[W_THRUST] != SIZE_MAX &&
			names_library(ex->line, ex->line_len, "thrust::system::", true) ? ex->lines + 1 : 0;
	}
	ex->line_len = 0;
	if (newline) {
		if (ex->fx.n && ex->fx.line == ex->lines + 1) {
			ex->fx_last = ex->fx;   /* the nearest line that named ids */
			ex->fx.n = 0;
		}
		ex->lines++;
		ex->pending = false;
	}
	if (table)
		table_line(ex, row);
}

/* Every literal that starts at line[at] (the trie's walk from the root),
 * shorter ones first, of one literal the later row first; each row's
 * first place in the line only. line_words keep their last place. */
static void hits_at(gw_explainer *ex, const uint8_t *line, size_t len, size_t at)
{
	const struct catalogue *cat = ex->cat;
	uint32_t node = cat->root[cat->canon[line[at]]];

	for (size_t i = at + 1;; i++) {
		if (node == NO_NODE)
			return;
		for (int32_t p = cat->out_head[node]; p >= 0; p = cat->pat_next[p]) {
			if (p >= (int32_t)NPAT) {
				ex->word_at[p - NPAT] = at;
				continue;
			}
			if (ex->pat_gen[p] == ex->gen)
				continue;
			ex->pat_gen[p] = ex->gen;
			ex->hits[ex->nhits].pat = (unsigned)p;
			ex->hits[ex->nhits].start = at;
			ex->nhits++;
		}
		if (i >= len)
			return;
		node = edge_find(cat, node, cat->canon[line[i]]);
	}
}

/* Find the needles in the line (or piece) read: the filters, a test a
 * byte and a second where the first passes, pass only the places where
 * some literal's first bytes are. gram holds the GRAM + 1 bytes from the
 * place on (past the line's end: 0, which no literal holds), first byte
 * highest. */
static void scan_line(gw_explainer *ex)
{
	const struct catalogue *cat = ex->cat;
	const uint8_t *u = (const uint8_t *)ex->line, *canon = cat->canon;
	size_t n = ex->line_len;
	unsigned shift = 8 * (GRAM + 1 - cat->gram);
	bool two = cat->gram == GRAM;
	uint32_t gram = 0;

	for (unsigned w = 0; w < NWORD; w++)
		ex->word_at[w] = SIZE_MAX;
	ex->stripped = 0;
	if (n < cat->min_len)
		return;
	for (size_t i = 0; i < GRAM; i++)
		gram = gram << 8 | (i < n ? canon[u[i]] : 0);
	for (size_t i = GRAM; i < n + GRAM; i++) {
		gram = gram << 8 | (i < n ? canon[u[i]] : 0);
		if (!filter_has(cat->filter, filter_slot(gram >> shift, 0)))
			continue;
		if (two && !filter_has(cat->filter2, filter_slot(gram, 0)) &&
		    !filter_has(cat->filter2, filter_slot(gram >> 8, SALT_SHORT)))
			continue;
		hits_at(ex, u, n, i - GRAM);
	}
}

/* Does the line (after its prefix) hold word w of line_words? The same
 * as line_has(ex->line, ex->line_len, line_words[w]). */
static bool line_word(const gw_explainer *ex, unsigned w)
{
	return ex->word_at[w] != SIZE_MAX && ex->word_at[w] >= ex->stripped;
}

/* Append bytes (no newline among them) to the current line; end_piece
 * finds the needles in it. */
static void scan_bytes(gw_explainer *ex, const char *p, size_t n)
{
	while (n) {
		size_t room = GW_EXPLAIN_LINE_MAX - ex->line_len;
		size_t take;

		if (!room) {
			end_piece(ex, false);
			continue;
		}
		take = n < room ? n : room;
		memcpy(ex->line + ex->line_len, p, take);
		ex->line_len += take;
		ex->pending = true;
		p += take;
		n -= take;
	}
}

/* ---- Kubernetes CRI partial records ---------------------------------- */

/* The kubelet's log format (CRI, /var/log/pods/.../N.log, written by
 * containerd and CRI-O) is "TIME STREAM TAG TEXT"; a line longer than the
 * runtime's buffer (containerd's max_container_log_line_size, 16384 by
 * default; CRI-O's conmon reads 8 KiB at a time) is written as records
 * tagged "P" (partial), each continued by the next record of the same
 * stream, up to one tagged "F" (full): the kubelet's reader
 * (pkg/kubelet/kuberuntime/logs/logs.go, parseCRILog: a partial record's
 * text loses its line end) joins them so. Here too: a line
 * end after a partial record is read as none when the next record is of
 * the same stream, and that record's prefix is left out. Full records of
 * the other stream between them (its output goes on meanwhile) are set
 * aside, up to 4 KiB, and read after the joined line; a partial one, more
 * than that, or a line that is no record ends the line as it was. */

/* The CRI prefix at s ("2024-01-01T00:00:00.123456789Z stderr P "): its
 * length, the stream and whether the record is partial; 0 when none. */
static size_t cri_record(const char *s, size_t n, int *stream, bool *partial)
{
	size_t b = n >= 20 && s[0] >= '0' && s[0] <= '9' ? iso_prefix(s, n) : 0;

	if (b < 25 || s[b - 10] != ' ' || s[b - 1] != ' ' || (s[b - 2] != 'P' && s[b - 2] != 'F') ||
	    (memcmp(s + b - 9, "stdout ", 7) && memcmp(s + b - 9, "stderr ", 7)))
		return 0;
	*stream = s[b - 6] == 'o' ? 1 : 2;   /* std(o)ut, std(e)rr */
	*partial = s[b - 2] == 'P';
	return b;
}

/* The stream of the partial record that the current line starts with,
 * or 0. */
static int cri_partial_start(const gw_explainer *ex)
{
	int stream;
	bool partial;

	const char *t = ex->line, *end = ex->line + (ex->line_len < 56 ? ex->line_len : 56);

	while ((t = memchr(t, 'P', (size_t)(end - t))) && !(t > ex->line && t[-1] == ' ' && t + 1 < end && t[1] == ' '))
		t++;
	if (!t)                            /* no " P " where a CRI tag stands */
		return 0;
	return cri_record(ex->line, ex->line_len, &stream, &partial) && partial ? stream : 0;
}

static void line_bytes(gw_explainer *ex, const char *buf, size_t len);
static uint64_t line_shape(const char *s, size_t n);

/* The line's first 8 bytes, kept for their shape (see wrap_decide). */
static void wrap_start_add(gw_explainer *ex)
{
	unsigned k = ex->pr.nwshapes++ % WRAP_SHAPES;
	char *w = ex->pr.wstarts[k];

	ex->pr.wshaped &= ~(1u << k);
	if (ex->line_len >= 8)
		memcpy(w, ex->line, 8);
	else {
		memset(w, 0, 8);
		memcpy(w, ex->line, ex->line_len);
	}
}
#define WRAP_MIN 60
#define WRAP_MAX 250

/* A line is complete. */
static void line_end(gw_explainer *ex)
{
	if (ex->pr.wmax <= WRAP_MAX && !ex->piece_cont)
		wrap_start_add(ex);
	ex->pr.raw_len = 0;
	ex->pr.wchain = false;
	ex->pr.sjoined = false;
	ex->pending = true;
	end_piece(ex, true);
	/* A line read from several (a rich box's, CRI records): what
	 * waits for the next line waits for the one after them. */
	if (ex->pr.joined && ex->call_line == ex->lines)
		ex->call_line += ex->pr.joined;
	if (ex->pr.joined && ex->nheld && ex->held_line + 1 + ex->held_skip == ex->lines)
		ex->held_line += ex->pr.joined;
	ex->lines += ex->pr.joined;
	ex->pr.joined = 0;
	ex->pr.cri_joined = false;
	ex->pr.cri_stream = 0;
	if (ex->pr.ncri_side && !ex->pr.cri_stashing) {   /* the records set aside */
		char side[sizeof(ex->pr.cri_side)];
		size_t n = ex->pr.ncri_side;

		memcpy(side, ex->pr.cri_side, n);
		ex->pr.ncri_side = 0;
		line_bytes(ex, side, n);
	}
}

/* The start of the record after a partial one is held: go on with the
 * line when it is the same stream's, else end the line and read it. */
static void cri_decide(gw_explainer *ex)
{
	char held[sizeof(ex->pr.cri)];
	size_t n = ex->pr.ncri, b;
	int stream = 0;
	bool partial = false;

	ex->pr.cri_hold = false;
	ex->pr.ncri = 0;
	b = cri_record(ex->pr.cri, n, &stream, &partial);
	if (b && stream == ex->pr.cri_stream) {
		ex->pr.joined++;
		ex->pr.cri_joined = true;
		ex->pr.cri_stream = partial ? stream : 0;
		scan_bytes(ex, ex->pr.cri + b, n - b);
		ex->pr.raw_len += n - b;
		return;
	}
	if (b && !partial && ex->pr.ncri_side + n < sizeof(ex->pr.cri_side)) {
		memcpy(ex->pr.cri_side + ex->pr.ncri_side, ex->pr.cri, n);
		ex->pr.ncri_side += n;
		ex->pr.cri_stashing = true;    /* the rest of the record, then the next */
		return;
	}
	memcpy(held, ex->pr.cri, n);
	line_end(ex);
	line_bytes(ex, held, n);
}

/* ---- hard-wrapped lines ------------------------------------------------ */

/* A terminal's copy (tmux, screen, an xterm selection) of a line longer
 * than the terminal is wide cuts it every W columns, mid-word, and nothing
 * marks the cut: a line of exactly W columns may as well have been that
 * long. The cut is told by the log around it
 * (tests/explain/README-presentation.md measures each part):
 *  - W is the width of the widest line so far, between WRAP_MIN and
 *    WRAP_MAX columns, and at least two lines (the next one counted) are
 *    exactly that wide: a terminal's copy has none wider;
 *  - the line is no row of a text table ('|' or '+' first and last, after
 *    a known line prefix): nvidia-smi's and Triton's tables are of one
 *    width;
 *  - the next line, read whole, is not empty, does not start as a new
 *    line does (a capital, a digit, a blank or an indent, a bracket, a
 *    quote marker, a prompt '$', a table's or a box's border), and more
 *    of the lines W wide so far went on so than not (a natural line
 *    that happens to be W wide is mostly followed by a new one); both
 *    unless the line was itself joined from a cut (a long line cut many
 *    times goes on whatever its pieces start with); it does not start
 *    with the shape (digits, letters, the rest as they are) of the first
 *    8 bytes of the line or of one of the WRAP_SHAPES lines before it:
 *    lines of one logger's format are no cut.
 * Then the two are read as one line, with nothing between them. Columns
 * are code points, a tab to the next multiple of 8; a line is measured
 * only when it has at least as many bytes as the widest has columns. */
static size_t text_columns(const char *p, size_t n);

static uint64_t line_shape(const char *s, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < 8; i++) {
		uint8_t c = i < n ? (uint8_t)s[i] : 0;

		if (c >= '0' && c <= '9')
			c = '9';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
			c = 'a';
		v = v << 8 | c;
	}
	return v;
}

static bool wrap_shape_seen(gw_explainer *ex, uint64_t v)
{
	for (unsigned i = 0; i < ex->pr.nwshapes && i < WRAP_SHAPES; i++) {
		if (!(ex->pr.wshaped & 1u << i)) {
			ex->pr.wshapes[i] = line_shape(ex->pr.wstarts[i], 8);
			ex->pr.wshaped |= 1u << i;
		}
		if (ex->pr.wshapes[i] == v)
			return true;
	}
	return false;
}

static void wrap_count(gw_explainer *ex, size_t cols)
{
	if (cols > ex->pr.wmax) {
		ex->pr.wmax = cols;
		ex->pr.wcnt = 1;
		ex->pr.wcont = ex->pr.wnew = 0;
	} else if (cols == ex->pr.wmax)
		ex->pr.wcnt++;
}

/* A row or a rule of a text table, after the line's known prefix? */
static bool table_row(const char *s, size_t n)
{
	bool bar = false;
	size_t b = line_prefix(s, n, &bar);

	while (b < n && (s[b] == ' ' || s[b] == '\t'))
		b++;
	n = trimmed_len(s, n);
	return n > b + 1 && (s[b] == '|' || s[b] == '+') && (s[n - 1] == '|' || s[n - 1] == '+');
}

/* Does the line start as a new line does? */
static bool starts_new_line(const char *s, size_t n)
{
	uint8_t c = n ? (uint8_t)s[0] : 0;

	if (!n || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return true;
	if (c && strchr(" \t[(<{|+#*=>-$", c))
		return true;
	/* U+2500..U+257F: box drawing (rich's and tables' borders) */
	return n >= 2 && c == 0xe2 && (s[1] == '\x94' || s[1] == '\x95');
}

/* A line (its raw bytes the last pr.raw_len of ex->line) ended: measure
 * it; true when it is W wide and may have been cut (the next line will
 * tell). */
static bool wrap_candidate(gw_explainer *ex)
{
	size_t w = 0, n = ex->pr.raw_len;
	bool measured = false;

	if (ex->pr.wcounted) {
		w = ex->pr.wnext;
		ex->pr.wcounted = false;
		measured = true;
	} else if (ex->pr.wmax > WRAP_MAX || n < ex->pr.wmax)
		;                          /* narrower than the widest */
	else if (n > 4 * WRAP_MAX || n > ex->line_len)
		ex->pr.wmax = SIZE_MAX;    /* wider than any terminal cut: off */
	else {
		w = text_columns(ex->line + ex->line_len - n, n);
		wrap_count(ex, w);
		measured = true;
	}
	/* The line after one of the width that was not held (wrap_hold):
	 * whether it goes on counts as when it is held. */
	if (ex->pr.wpeek) {
		ex->pr.wpeek = false;
		if (ex->pr.wmax == ex->pr.wpeek_w) {
			bool goes_on = n <= ex->line_len && !starts_new_line(ex->line + ex->line_len - n, n);

			ex->pr.wcont += goes_on;
			ex->pr.wnew += !goes_on;
		}
	}
	if (!measured || w != ex->pr.wmax || w < WRAP_MIN || w > WRAP_MAX || n > ex->line_len)
		return false;
	return !table_row(ex->line + ex->line_len - n, n);
}

/* Hold the next line? Not when no join can come of it: a line that was
 * not joined from a cut needs more of the lines of the width to have gone
 * on than not, and this pair adds one at most (the bench's fixed-width
 * lines, each followed by a new one). Then only its start is looked at,
 * when it ends (wrap_candidate). */
static bool wrap_hold(gw_explainer *ex)
{
	if (ex->pr.wchain || ex->pr.wcont >= ex->pr.wnew)
		return true;
	ex->pr.wpeek = true;
	ex->pr.wpeek_w = ex->pr.wmax;
	return false;
}

/* ---- word-wrapped lines ------------------------------------------------ */

/* A message wrapped by hand or by a program at a word, at no fixed width:
 * R's cli bullets at the console's width, with the next line indented by
 * two blanks ("... AssertionError: Torch" / "  not compiled with CUDA
 * enabled"), a kubelet event copied from a narrow window ("cuda error: no
 * cuda-capable device is" / "detected"), a Windows dialog's text ("has
 * requested more GPU memory than is" / "available in the system."). The
 * terminal's cut above needs lines of one width; this needs none, so it
 * asks more of the two lines themselves:
 *  - the line is 40 to 1000 bytes long (blanks at its end left out), is
 *    no Python frame line ("..., line 258, in cuda"), was
 *    not itself joined so (a terminal's cut may have joined it), is no
 *    table row and ends in a plain word of two or
 *    more letters after a blank: no punctuation that ends a sentence or a
 *    record (". ) ] : >"), no path, number or identifier;
 *  - the next line starts, after its known prefix (line_prefix: each
 *    line of a wrapped message gets the logger's) and at most two blanks (a traceback's code
 *    line is indented four, under a frame line indented two), with a word
 *    of two or more lower-case letters that is followed by a blank and a
 *    second lower-case word, or by punctuation other than '(', '.', '=',
 *    '[', ':', '/', '-', '|' (a call, code, a path, a host name, a
 *    logger's "note:", a column), and
 *    that is not "in", "at" or "from" (a location's line) nor the first of
 *    a few words before ': ' (a label's line: ggml's "current device: 0,
 *    in function ...").
 * Then the two are read as one line, one blank between them. */
static bool soft_candidate(const gw_explainer *ex)
{
	const char *s = ex->line;
	size_t n = trimmed_len(ex->line, ex->line_len), k = 0;

	if (ex->piece_cont || ex->pr.sjoined || n < 40 || n > 1000 || table_row(s, n))
		return false;
	while (k < n && ((s[n - 1 - k] >= 'a' && s[n - 1 - k] <= 'z') || (s[n - 1 - k] >= 'A' && s[n - 1 - k] <= 'Z')))
		k++;
	/* Python's frame line ("File ..., line 258, in cuda") is followed by
	 * its code line, never by the rest of a sentence. */
	if (k + 5 <= n && literal_at(s + n - k - 5, ", in ", 5))
		return false;
	return k >= 2 && k < n && s[n - 1 - k] == ' ';
}

static bool soft_continues(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && s[k] >= 'a' && s[k] <= 'z')
		k++;
	/* A location's line ("in external/.../cuda_asm_compiler.cc(69)",
	 * "at ...", "from ...") is a line of its own: held_call_line reads it. */
	if ((k == 2 && (literal_at(s, "in", 2) || literal_at(s, "at", 2))) || (k == 4 && literal_at(s, "from", 4)))
		return false;
	if (k < 2)
		return false;
	/* Prose goes on: a second lower-case word after one blank, or
	 * punctuation; not a host name ("host-2:", "rdma-test-gpu-worker-0"),
	 * a count ("process 27541"), a column ("ollama  | ...") or code. */
	if (k < n && (s[k] == ' ' ? !(k + 1 < n && s[k + 1] >= 'a' && s[k + 1] <= 'z')
			       : is_word_byte(s[k]) || strchr("(.=[:/-|", s[k])))
		return false;
	/* A label's line, words and ':' ("current device: 0, in function
	 * cublas_handle at ...": ggml's location after its error line). */
	while (k < n && k < 40 && (s[k] == ' ' || (s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z')))
		k++;
	return !(k < n && s[k] == ':' && (k + 1 == n || s[k + 1] == ' '));
}

/* The held line (pr.wbuf, n bytes, w columns, already counted) goes on
 * the soft candidate before it: read the two as one line. */
static bool soft_join(gw_explainer *ex, size_t n, size_t w)
{
	bool bar = false;
	size_t b = line_prefix(ex->pr.wbuf, n, &bar), indent = 0;

	/* A logger's or collector's prefix (a timestamp, "[rank0]: ", "> ")
	 * is put before every line the program wrote, its wrapped message's
	 * too, and a tqdm bar is glued before whatever line comes next: the
	 * next line goes on after its prefix. */
	if (bar)
		return false;
	while (b < n && indent < 2 && ex->pr.wbuf[b] == ' ')
		b++, indent++;
	if (!soft_continues(ex->pr.wbuf + b, n - b))
		return false;
	ex->pr.joined++;
	ex->pr.sjoined = true;
	ex->line_len = trimmed_len(ex->line, ex->line_len);   /* one blank between */
	scan_bytes(ex, " ", 1);
	scan_bytes(ex, ex->pr.wbuf + b, n - b);
	ex->pr.raw_len = n - b;
	ex->pr.wcounted = true;
	ex->pr.wnext = w;
	return true;
}

/* The held next line (pr.wbuf) is taken: its width is counted (wrap_count),
 * or the width rule is off when it filled the buffer. */
static size_t take_held(gw_explainer *ex, size_t *w, bool *full)
{
	size_t n = ex->pr.nwbuf;

	*full = n == sizeof(ex->pr.wbuf);
	*w = 0;
	ex->pr.nwbuf = 0;
	if (*full)
		ex->pr.wmax = SIZE_MAX;
	else {
		*w = text_columns(ex->pr.wbuf, n);
		wrap_count(ex, *w);
	}
	return n;
}

/* No join: end the line before and read the held one as a line of its
 * own, its width already counted. */
static void read_held_alone(gw_explainer *ex, size_t n, size_t w, bool full)
{
	char held[sizeof(ex->pr.wbuf)];

	memcpy(held, ex->pr.wbuf, n);
	line_end(ex);
	if (!full) {
		ex->pr.wcounted = true;
		ex->pr.wnext = w;
	}
	line_bytes(ex, held, n);
}

/* The line after a soft candidate is held whole: join the two, or end
 * the line and read it (its width counted as wrap_decide counts it). */
static void soft_decide(gw_explainer *ex)
{
	size_t w, n;
	bool full;

	ex->pr.whold = ex->pr.shold = false;
	n = take_held(ex, &w, &full);
	if (!full && soft_join(ex, n, w))
		return;
	read_held_alone(ex, n, w, full);
}

/* The line after a line W wide is held whole (or as much as fits, then
 * it is wider than any W): join the two, or end the line and read it. */
static void wrap_decide(gw_explainer *ex)
{
	size_t w, n, pw = ex->pr.wmax;
	bool full, join;

	if (ex->pr.shold) {
		soft_decide(ex);
		return;
	}
	ex->pr.whold = false;
	n = take_held(ex, &w, &full);
	if (!full && ex->pr.wmax == pw) {
		bool goes_on = !starts_new_line(ex->pr.wbuf, n);

		ex->pr.wcont += goes_on;
		ex->pr.wnew += !goes_on;
	}
	join = !full && n && ex->pr.wmax == pw && ex->pr.wcnt >= 2 &&
	       (ex->pr.wchain || (!starts_new_line(ex->pr.wbuf, n) && ex->pr.wcont > ex->pr.wnew));
	if (join) {
		uint64_t v = line_shape(ex->pr.wbuf, n);

		join = !wrap_shape_seen(ex, v) && (ex->piece_cont || v != line_shape(ex->line, ex->line_len));
	}
	if (join) {
		ex->pr.joined++;
		ex->pr.wchain = true;
		scan_bytes(ex, ex->pr.wbuf, n);
		ex->pr.raw_len = n;
		ex->pr.wcounted = true;
		ex->pr.wnext = w;
		return;
	}
	/* No terminal's cut: a word's wrap, perhaps (soft_candidate). */
	if (!full && soft_candidate(ex) && soft_join(ex, n, w))
		return;
	read_held_alone(ex, n, w, full);
}

static void line_bytes(gw_explainer *ex, const char *buf, size_t len)
{
	while (len) {
		if (ex->pr.whold) {
			const char *nl = memchr(buf, '\n', len);
			size_t k = nl ? (size_t)(nl - buf) : len, room = sizeof(ex->pr.wbuf) - ex->pr.nwbuf;

			k = k < room ? k : room;
			memcpy(ex->pr.wbuf + ex->pr.nwbuf, buf, k);
			ex->pr.nwbuf += k;
			buf += k;
			len -= k;
			if (!len && ex->pr.nwbuf < sizeof(ex->pr.wbuf))
				break;             /* more to come */
			wrap_decide(ex);
			continue;
		}
		if (ex->pr.cri_stashing) {         /* the other stream's record */
			const char *nl = memchr(buf, '\n', len);
			size_t k = nl ? (size_t)(nl - buf) + 1 : len;

			if (ex->pr.ncri_side + k > sizeof(ex->pr.cri_side)) {
				ex->pr.cri_stashing = false;
				line_end(ex);      /* too long: read as it came */
				continue;
			}
			memcpy(ex->pr.cri_side + ex->pr.ncri_side, buf, k);
			ex->pr.ncri_side += k;
			buf += k;
			len -= k;
			if (nl) {
				ex->pr.cri_stashing = false;
				ex->pr.cri_hold = true;
			}
			continue;
		}
		if (ex->pr.cri_hold) {
			size_t k = 0;

			while (k < len && buf[k] != '\n' && ex->pr.ncri < sizeof(ex->pr.cri))
				ex->pr.cri[ex->pr.ncri++] = buf[k++];
			buf += k;
			len -= k;
			if (!len && ex->pr.ncri < sizeof(ex->pr.cri))
				break;             /* more to come */
			cri_decide(ex);
			continue;
		}
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;

		scan_bytes(ex, buf, n);
		ex->pr.raw_len += n;
		if (!nl)
			break;
		buf += n + 1;
		len -= n + 1;
		int stream = ex->pr.cri_joined ? ex->pr.cri_stream :
			     ex->piece_cont ? ex->pr.cri_first :
			     ex->line[0] >= '0' && ex->line[0] <= '9' ? cri_partial_start(ex) : 0;

		if (stream) {              /* a partial record: the next goes on */
			ex->pr.cri_stream = stream;
			ex->pr.cri_hold = true;
			continue;
		}
		if (!ex->pr.in_box && wrap_candidate(ex) && wrap_hold(ex)) {
			ex->pr.whold = true;   /* the next line tells */
			continue;
		}
		if (!ex->pr.in_box && soft_candidate(ex)) {
			ex->pr.whold = ex->pr.shold = true;
			continue;
		}
		line_end(ex);
	}
}

/* The stream ended while the record after a partial one, or the line
 * after one W wide, was held. */
static void held_finish(gw_explainer *ex)
{
	if (ex->pr.cri_hold)
		cri_decide(ex);
	if (ex->pr.cri_stashing || ex->pr.ncri_side) {
		ex->pr.cri_stashing = false;
		line_end(ex);
	}
	if (ex->pr.whold)
		wrap_decide(ex);
}

/* ---- UTF-16 input ----------------------------------------------------- */

/* A log written as UTF-16 (Windows PowerShell 5's `>` and Out-File write
 * UTF-16LE with a byte order mark; so do .NET's and Python's "utf-16"
 * writers) has a NUL beside every ASCII character, so that no message
 * matches as bytes. A stream that starts with a byte order mark (FF FE,
 * FE FF) is read as UTF-16 of that order and scanned as UTF-8. */

/* Append code point c as UTF-8 to out; returns the bytes written. */
static size_t put_utf8(char *out, uint32_t c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* One UTF-16 code unit; a lone surrogate becomes U+FFFD. */
static size_t put_unit(gw_explainer *ex, char *out, uint32_t u)
{
	size_t n = 0;

	if (ex->high && (u < 0xdc00 || u > 0xdfff)) {
		n = put_utf8(out, 0xfffd);
		ex->high = 0;
	}
	if (u >= 0xd800 && u <= 0xdbff) {
		ex->high = u;
		return n;
	}
	if (u >= 0xdc00 && u <= 0xdfff) {
		if (!ex->high)
			return n + put_utf8(out + n, 0xfffd);
		u = 0x10000 + ((ex->high - 0xd800) << 10) + (u - 0xdc00);
		ex->high = 0;
	}
	return n + put_utf8(out + n, u);
}

static void feed_bytes(gw_explainer *ex, const char *buf, size_t len);

static void feed_utf16(gw_explainer *ex, const uint8_t *p, size_t len)
{
	char out[4096];
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		if (ex->odd < 0) {
			ex->odd = p[i];
			continue;
		}
		uint32_t u = ex->utf16 == UTF16_LE ? (uint32_t)ex->odd | (uint32_t)p[i] << 8
						   : (uint32_t)ex->odd << 8 | p[i];

		ex->odd = -1;
		if (o + 8 > sizeof(out)) {
			feed_bytes(ex, out, o);
			o = 0;
		}
		o += put_unit(ex, out + o, u);
	}
	feed_bytes(ex, out, o);
}

/* Decide, from the stream's first two bytes, whether it is UTF-16; the
 * bytes held until then are fed as they are when it is not. */
static void decide_encoding(gw_explainer *ex)
{
	ex->decided = true;
	if (ex->nhead == 2 && ex->head[0] == 0xff && ex->head[1] == 0xfe)
		ex->utf16 = UTF16_LE;
	else if (ex->nhead == 2 && ex->head[0] == 0xfe && ex->head[1] == 0xff)
		ex->utf16 = UTF16_BE;
	else
		feed_bytes(ex, (const char *)ex->head, ex->nhead);
}

/* ---- wrapped lines ------------------------------------------------------ */

/* A message longer than the terminal is wide reaches the log cut in pieces:
 *  - rich (Panel, Traceback, a box of Console.print) frames each line as
 *    "│ " + text padded to the box + " │" and wraps the text greedily at
 *    word bounds, so a line was wrapped when the next line's first word
 *    would have fitted on it: then the two are read as one line, joined
 *    by a space (frames and padding are left out either way);
 *  - a terminal's copy (tmux, screen, an xterm selection) cuts a long line
 *    at the terminal's width, mid-word, with nothing in the line to tell
 *    the cut from a line that was that long: joined only where the log
 *    around it says so (see wrap_decide, "hard-wrapped lines").
 * Columns are code points, a tab to the next multiple of 8. */
#define BOX_BAR "\xe2\x94\x82"         /* U+2502 BOX DRAWINGS LIGHT VERTICAL */

static size_t text_columns(const char *p, size_t n)
{
	size_t col = 0;

	if (!memchr(p, '\t', n)) {        /* code points: bytes that start one */
		size_t i = 0;

		for (uint64_t v; i + 8 <= n; i += 8, col += 8) {   /* ASCII, 8 at a time */
			memcpy(&v, p + i, 8);
			if (v & 0x8080808080808080ull)
				break;
		}
		for (; i < n; i++)
			col += ((uint8_t)p[i] & 0xc0) != 0x80;
		return col;
	}

	for (size_t i = 0; i < n; i++)
		if (p[i] == '\t')
			col = (col / 8 + 1) * 8;
		else if (((uint8_t)p[i] & 0xc0) != 0x80)
			col++;
	return col;
}

/* A boxed line's text or line end: no terminal's cut (see wrap_decide);
 * a line held for one is ended first. */
static void box_bytes(gw_explainer *ex, const char *p, size_t n)
{
	if (ex->pr.whold)
		wrap_decide(ex);
	ex->pr.wpeek = false;
	ex->pr.in_box = true;
	line_bytes(ex, p, n);
	ex->pr.in_box = false;
}

/* The newline held after a boxed line, given now. */
static void box_release(gw_explainer *ex)
{
	if (ex->pr.box_held) {
		ex->pr.box_held = false;
		box_bytes(ex, "\n", 1);
	}
}

/* A boxed line is complete in pr.bline (without its newline). */
static void box_line_end(gw_explainer *ex)
{
	const char *b = ex->pr.bline;
	size_t n = ex->pr.nb;

	while (n > 3 && b[n - 1] == ' ')
		n--;
	if (n < 6 || memcmp(b + n - 3, BOX_BAR, 3)) {   /* no right frame: no box */
		box_release(ex);
		line_bytes(ex, ex->pr.bline, ex->pr.nb);
		line_bytes(ex, "\n", 1);
		return;
	}
	size_t inner = text_columns(b + 3, n - 6);
	const char *t = b + 3;
	size_t len = n - 6;

	if (len && *t == ' ') {
		t++;
		len--;
		inner--;
	}
	if (inner)
		inner--;           /* the blank before the right frame */
	while (len && t[len - 1] == ' ')
		len--;
	size_t cols = text_columns(t, len), word = 0;

	while (word < len && t[word] != ' ')
		word++;
	if (ex->pr.box_held) {
		bool wrapped = len && ex->pr.box_width == inner &&
			       ex->pr.box_cols + 1 + text_columns(t, word) > inner;

		/* A word longer than the box is folded at its width: a held
		 * line that fills the box and is one word (after its indent)
		 * goes on with no blank between. */
		bool folded = len && *t != ' ' && ex->pr.box_token && ex->pr.box_width == inner &&
			      ex->pr.box_cols == inner;

		ex->pr.box_held = false;
		if (wrapped || folded)
			ex->pr.joined++;
		if (!folded)
			box_bytes(ex, wrapped ? " " : "\n", 1);
	}
	box_bytes(ex, t, len);
	size_t lead = 0;

	while (lead < len && t[lead] == ' ')
		lead++;
	ex->pr.box_held = true;
	ex->pr.box_token = lead < len && !memchr(t + lead, ' ', len - lead);
	ex->pr.box_cols = cols;
	ex->pr.box_width = inner;
}

/* Clean text, on to the line splitter, boxed lines unframed and joined. */
static void text_bytes(gw_explainer *ex, const char *p, size_t n)
{
	while (n) {
		if (ex->pr.bstate == 2) {          /* lines that are no box's */
			const char *q = memmem(p, n, "\n" BOX_BAR, 4);
			size_t m = q ? (size_t)(q - p) + 1 : n;

			if (!q) {                  /* the last line's start may be one */
				const char *nl = memrchr(p, '\n', n);

				if (nl && (size_t)(p + n - nl) <= 3 && !memcmp(nl + 1, BOX_BAR, (size_t)(p + n - nl) - 1))
					m = (size_t)(nl - p) + 1;
			}
			line_bytes(ex, p, m);
			if (p[m - 1] == '\n')
				ex->pr.bstate = 0;
			p += m;
			n -= m;
			continue;
		}
		if (ex->pr.bstate == 0) {          /* a line's start: a bar? */
			if (ex->pr.nb < 3 && *p == BOX_BAR[ex->pr.nb]) {
				ex->pr.bline[ex->pr.nb++] = *p++;
				n--;
				if (ex->pr.nb == 3)
					ex->pr.bstate = 1;
				continue;
			}
			box_release(ex);
			line_bytes(ex, ex->pr.bline, ex->pr.nb);
			ex->pr.nb = 0;
			ex->pr.bstate = 2;
			continue;
		}
		const char *nl = memchr(p, '\n', n);   /* a boxed line: kept whole */
		size_t m = nl ? (size_t)(nl - p) : n;

		if (ex->pr.nb + m > sizeof(ex->pr.bline)) {
			box_release(ex);
			line_bytes(ex, ex->pr.bline, ex->pr.nb);
			ex->pr.nb = 0;
			ex->pr.bstate = 2;
			continue;
		}
		memcpy(ex->pr.bline + ex->pr.nb, p, m);
		ex->pr.nb += m;
		p += m;
		n -= m;
		if (nl) {
			p++;
			n--;
			box_line_end(ex);
			ex->pr.nb = 0;
			ex->pr.bstate = 0;
		}
	}
}

/* The stream ended: a line held whole is read, the newline held given. */
static void box_finish(gw_explainer *ex)
{
	if (ex->pr.bstate == 1)
		box_line_end(ex);
	else if (ex->pr.nb) {
		box_release(ex);
		line_bytes(ex, ex->pr.bline, ex->pr.nb);
	}
	ex->pr.nb = 0;
	ex->pr.bstate = 0;
	box_release(ex);
}

/* ---- presentation ------------------------------------------------------ */

/* Pasted logs come wrapped in things that are no part of any message
 * (tests/explain/README-presentation.md measures each). Before the text is
 * split into lines the reader takes away:
 *  - a UTF-8 byte order mark at the stream's start (Notepad; PowerShell 7's
 *    Out-File -Encoding utf8BOM);
 *  - terminal escape sequences (ECMA-48): CSI, ESC '[' up to a final byte
 *    in 0x40..0x7e (SGR colour of pytest --color=yes, loguru, rich, tqdm's
 *    and pip's erase-line), OSC, ESC ']' up to BEL or ESC '\' (rich's and
 *    ls's hyperlinks), and the other two-byte ones (tput sgr0's ESC '(' 'B');
 *  - SGR colour whose ESC was lost in pasting, "[1;31m" as text (see
 *    sgr_params for what is one);
 *  - CR: CR LF is one line end, and a lone CR (tqdm's, pip's and curl's
 *    redraws) ends a line, as a terminal shows what follows it over the
 *    line before;
 *  - HTML's character references (&quot; &#39; &lt; &gt; &amp; &apos;
 *    &nbsp; &#N; &#xH;) of a page copied as source;
 *  - JSON: a line that is a JSON object ('{' then '"': Docker's json-file
 *    driver, fluent-bit, JSON loggers, a whole log in one string value) is
 *    read as its string values, escapes decoded ("\n" a line end, "\uXXXX"
 *    as UTF-8); a string of under 64 bytes without a blank (a key, "stderr",
 *    a timestamp) is left out, so the log's own lines follow each other as
 *    they were printed, and each value ends a line. */

static size_t put_utf8(char *out, uint32_t c);

/* An HTML character reference's text (between '&' and ';') as UTF-8 in
 * out; its length, 0 when it is none. */
static size_t html_reference(const char *e, size_t n, char *out)
{
	static const struct { const char *name, *text; } named[] = {
		{"quot", "\""}, {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"apos", "'"}, {"nbsp", " "},
	};
	uint32_t c = 0;
	size_t i = 1;
	unsigned base = 10;

	if (n && e[0] == '#') {
		if (i < n && (e[i] == 'x' || e[i] == 'X')) {
			base = 16;
			i++;
		}
		if (i == n)
			return 0;
		for (; i < n; i++) {
			char d = e[i];
			unsigned v = d >= '0' && d <= '9' ? (unsigned)(d - '0') :
				     d >= 'a' && d <= 'f' ? (unsigned)(d - 'a' + 10) :
				     d >= 'A' && d <= 'F' ? (unsigned)(d - 'A' + 10) : 99;
			if (v >= base || (c = c * base + v) > 0x10ffff)
				return 0;
		}
		if (!c || (c >= 0xd800 && c <= 0xdfff))
			return 0;
		return put_utf8(out, c);
	}
	for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
		if (strlen(named[k].name) == n && !memcmp(named[k].name, e, n)) {
			strcpy(out, named[k].text);
			return strlen(out);
		}
	return 0;
}

/* Are the parameters between '[' and 'm' those of an SGR sequence whose
 * ESC was lost (ECMA-48 8.3.117; xterm's ctlseqs): numbers of at most
 * three digits up to 255 split by ';', at least one digit, the first a
 * defined rendition (0-9 attributes, 21-29 their resets, 30-39 and 40-49
 * colours with 38/48 ";5;N" and ";2;R;G;B", 51-55, 58-65, 73-75, 90-97
 * and 100-107 bright colours)? A text's "[5m" or "[70m" is rarer than
 * "[31m"; "[m" alone (a reset too) is left, as "[main]" starts so. */
static bool sgr_params(const char *s, size_t n)
{
	unsigned v = 0, first = 0, digits = 0, params = 0;
	bool any = false;

	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == ';') {
			if (!params++)
				first = v;
			v = digits = 0;
			continue;
		}
		any = true;
		v = v * 10 + (unsigned)(s[i] - '0');
		if (++digits > 3 || v > 255)
			return false;
	}
	return any && (first <= 9 || (first >= 21 && first <= 55 && first != 50) || (first >= 58 && first <= 65) ||
		       (first >= 73 && first <= 75) || (first >= 90 && first <= 97) || (first >= 100 && first <= 107));
}

/* One number from 1 to 29 (no ';'): before ']' it reads as minutes. */
static bool sgr_duration(const char *s, size_t n)
{
	unsigned v = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == ';')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	return v >= 1 && v <= 29;
}

/* One byte that starts or continues an escape sequence, a reference or a
 * line end; false: the byte was not taken (the state was reset) and is to
 * be read again as an ordinary one. */
static bool presentation_step(gw_explainer *ex, uint8_t c)
{
	if (ex->pr.cr) {
		int cr = ex->pr.cr;

		ex->pr.cr = 0;
		if (cr == 1)
			return c == '\n';  /* CR LF: the line end was given */
		if (c == '\n')             /* CR LF after a line end: an empty line */
			return false;
	}
	switch (ex->pr.esc) {
	case 1:
		ex->pr.esc = c == '[' ? 2 : c == ']' ? 3 : c == '(' || c == ')' || c == '#' || c == '%' ? 5 : 0;
		return ex->pr.esc || (c >= 0x30 && c <= 0x7e);
	case 2:                            /* CSI: parameters, intermediates, final */
		if (c >= 0x20 && c <= 0x3f)
			return true;
		ex->pr.esc = 0;
		return c >= 0x40 && c <= 0x7e;
	case 3:                            /* OSC: up to BEL or ST (ESC '\') */
		if (c == 0x07 || c == 0x1b) {
			ex->pr.esc = c == 0x1b ? 4 : 0;
			return true;
		}
		if (c == '\n' || c == '\r') {
			ex->pr.esc = 0;
			return false;
		}
		return true;
	case 4:
		ex->pr.esc = c == '\\' ? 0 : 1;
		return c == '\\';
	case 5:
		ex->pr.esc = 0;
		return c != '\n' && c != '\r' && c != 0x1b;
	}
	if (ex->pr.nent) {
		if (c == ';') {
			char out[8];
			size_t k = html_reference(ex->pr.ent + 1, ex->pr.nent - 1, out);

			if (k)
				text_bytes(ex, out, k);
			else {
				text_bytes(ex, ex->pr.ent, ex->pr.nent);
				text_bytes(ex, ";", 1);
			}
			ex->pr.nent = 0;
			return true;
		}
		if (ex->pr.nent < sizeof(ex->pr.ent) &&
		    ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		     (c == '#' && ex->pr.nent == 1))) {
			ex->pr.ent[ex->pr.nent++] = (char)c;
			return true;
		}
		text_bytes(ex, ex->pr.ent, ex->pr.nent);
		ex->pr.nent = 0;
		return false;
	}
	if (ex->pr.nsgr) {
		if (ex->pr.sgr[ex->pr.nsgr - 1] == 'm') {
			/* "[5m]", "[15m]" are durations (a PromQL range, a
			 * timeout), no colour: a lone attribute before ']' is
			 * text; a colour or a reset ("[31m]", "[0m]") is not. */
			if (c == ']' && sgr_duration(ex->pr.sgr + 1, ex->pr.nsgr - 2))
				text_bytes(ex, ex->pr.sgr, ex->pr.nsgr);
			ex->pr.nsgr = 0;
			return false;
		}
		if (((c >= '0' && c <= '9') || c == ';') && ex->pr.nsgr + 1 < sizeof(ex->pr.sgr)) {
			ex->pr.sgr[ex->pr.nsgr++] = (char)c;
			return true;
		}
		if (c == 'm' && sgr_params(ex->pr.sgr + 1, ex->pr.nsgr - 1)) {
			ex->pr.sgr[ex->pr.nsgr++] = 'm';
			return true;
		}
		text_bytes(ex, ex->pr.sgr, ex->pr.nsgr);
		ex->pr.nsgr = 0;
		return false;
	}
	if (c == 0x1b) {
		ex->pr.esc = 1;
		return true;
	}
	if (c == '[') {
		ex->pr.sgr[0] = '[';
		ex->pr.nsgr = 1;
		return true;
	}
	if (c == '\r') {
		/* A CR just after a line end (tqdm redraws its bar with "\r"
		 * first) ends no line: only a CR LF there is an empty line. */
		if (ex->pr.bstate == 0 && ex->pr.nb == 0) {
			ex->pr.cr = 2;
			return true;
		}
		text_bytes(ex, "\n", 1);
		ex->pr.cr = 1;
		return true;
	}
	if (c == '&') {
		ex->pr.ent[0] = '&';
		ex->pr.nent = 1;
		return true;
	}
	return false;
}

/* May an ESC-less SGR sequence start at the '[' at q (n bytes left)? A
 * digit must follow, and where the sequence ends within the n bytes it
 * must end in 'm' ("[0]", "[12:01<" are read as text at once). */
static bool sgr_may_start(const char *q, size_t n)
{
	size_t i = 1;

	if (n > 1 && (q[1] < '0' || q[1] > '9'))
		return false;
	while (i < n && i < 24 && ((q[i] >= '0' && q[i] <= '9') || q[i] == ';'))
		i++;
	return i == n || q[i] == 'm';
}

/* Text with escape sequences, CRs and references taken away, on to the
 * line splitter; runs of ordinary bytes go as they are. */
static void clean_bytes(gw_explainer *ex, const char *p, size_t n)
{
	/* The next ESC, CR, '&' and '[' before a digit (n: none), each found
	 * by memchr once. */
	size_t i = 0, next[4] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
	static const char which[4] = {'\x1b', '\r', '&', '['};

	while (i < n) {
		if (!ex->pr.esc && !ex->pr.nent && !ex->pr.cr && !ex->pr.nsgr) {
			size_t j = n;

			for (int k = 0; k < 4; k++) {
				if (next[k] == SIZE_MAX || next[k] < i) {
					const char *q = memchr(p + i, which[k], n - i);

					while (k == 3 && q && !sgr_may_start(q, (size_t)(p + n - q)))
						q = memchr(q + 1, '[', (size_t)(p + n - q - 1));
					next[k] = q ? (size_t)(q - p) : n;
				}
				j = next[k] < j ? next[k] : j;
			}
			if (j > i)
				text_bytes(ex, p + i, j - i);
			if ((i = j) == n)
				break;
		}
		if (presentation_step(ex, (uint8_t)p[i]))
			i++;
	}
}

/* A decoded byte of a JSON string: held while the string may be a key or
 * a field ("stderr", a timestamp), streamed once it is text. */
static void json_text(gw_explainer *ex, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = p[i];

		if (!ex->pr.str_kind) {
			if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && ex->pr.nstr < sizeof(ex->pr.str)) {
				ex->pr.str[ex->pr.nstr++] = c;
				continue;
			}
			ex->pr.str_kind = 1;
			clean_bytes(ex, ex->pr.str, ex->pr.nstr);
		}
		clean_bytes(ex, &c, 1);
		ex->pr.str_nl = c == '\n';
	}
}

/* The code point of a \uXXXX escape, pairing surrogates. */
static void json_code(gw_explainer *ex, uint32_t u)
{
	char out[8];

	if (ex->pr.uhigh && (u < 0xdc00 || u > 0xdfff)) {
		json_text(ex, out, put_utf8(out, 0xfffd));
		ex->pr.uhigh = 0;
	}
	if (u >= 0xd800 && u <= 0xdbff) {
		ex->pr.uhigh = u;
		return;
	}
	if (u >= 0xdc00 && u <= 0xdfff) {
		if (!ex->pr.uhigh) {
			json_text(ex, out, put_utf8(out, 0xfffd));
			return;
		}
		u = 0x10000 + ((ex->pr.uhigh - 0xd800) << 10) + (u - 0xdc00);
		ex->pr.uhigh = 0;
	}
	json_text(ex, out, put_utf8(out, u));
}

/* The end of a JSON string, or of the line in one. */
static void json_string_end(gw_explainer *ex)
{
	if (ex->pr.str_kind && !ex->pr.str_nl) {
		clean_bytes(ex, "\n", 1);
		ex->pr.str_nl = true;
	}
	ex->pr.in_str = false;
	ex->pr.jesc = 0;
	ex->pr.uhigh = 0;
}

/* One raw byte of a JSON line. */
static void json_byte(gw_explainer *ex, uint8_t c)
{
	if (c == '\n') {                   /* the raw line ends the JSON */
		json_string_end(ex);
		ex->pr.json = false;
		ex->pr.line_start = 1;
		return;
	}
	if (!ex->pr.in_str) {
		if (c == '"') {
			ex->pr.in_str = true;
			ex->pr.nstr = 0;
			ex->pr.str_kind = 0;
			ex->pr.str_nl = false;
		}
		return;                    /* structure, numbers, true/false/null */
	}
	if (ex->pr.jesc >= 2) {
		unsigned v = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
			     c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
			     c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99;
		if (v > 15) {              /* a broken \u: read the byte as text */
			ex->pr.jesc = 0;
			json_byte(ex, c);
			return;
		}
		ex->pr.ucode = ex->pr.ucode << 4 | v;
		if (++ex->pr.jesc == 6) {
			ex->pr.jesc = 0;
			json_code(ex, ex->pr.ucode);
		}
		return;
	}
	if (ex->pr.jesc == 1) {
		static const char from[] = "ntrbf", to[] = "\n\t\r  ";
		const char *k = c ? strchr(from, c) : NULL;
		char d = k ? to[k - from] : (char)c;

		if (c == 'u') {
			ex->pr.jesc = 2;
			ex->pr.ucode = 0;
			return;
		}
		ex->pr.jesc = 0;
		json_text(ex, &d, 1);
		return;
	}
	if (c == '\\') {
		ex->pr.jesc = 1;
		return;
	}
	if (c == '"') {
		json_string_end(ex);
		return;
	}
	json_text(ex, (const char *)&c, 1);
}

/* Raw text: a line that starts with '{' then '"' (blanks between them
 * allowed) is JSON, read by json_byte(); the rest goes to clean_bytes().
 * Only a '{' is looked at, found by memchr. */
static void raw_bytes(gw_explainer *ex, const char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		uint8_t c = (uint8_t)p[i];

		if (ex->pr.json) {
			json_byte(ex, c);
			i++;
			continue;
		}
		if (ex->pr.line_start == 2) {      /* after a line's '{' */
			if ((c == ' ' || c == '\t') && ex->pr.nlead < sizeof(ex->pr.lead)) {
				ex->pr.lead[ex->pr.nlead++] = (char)c;
				i++;
				continue;
			}
			ex->pr.line_start = 0;
			if (c == '"') {
				ex->pr.json = true;
				ex->pr.nlead = 0;
				continue;          /* json_byte() reads the '"' */
			}
			clean_bytes(ex, ex->pr.lead, ex->pr.nlead);
			ex->pr.nlead = 0;
		}
		if (ex->pr.line_start == 1 && c == '{') {
			ex->pr.lead[0] = '{';
			ex->pr.nlead = 1;
			ex->pr.line_start = 2;
			i++;
			continue;
		}
		/* Up to the next '{' that starts a line, or the end. */
		size_t j = i;
		const char *q;

		while ((q = memchr(p + j, '{', n - j)) && q > p + i && q[-1] != '\n')
			j = (size_t)(q - p) + 1;
		size_t end = q ? (size_t)(q - p) : n;

		if (end == i) {                    /* '{' where no line starts */
			end = i + 1;
		}
		clean_bytes(ex, p + i, end - i);
		ex->pr.line_start = p[end - 1] == '\n';
		i = end;
	}
}

/* Text to read, from the stream or the UTF-16 decoder: a UTF-8 byte order
 * mark at the stream's start is left out. */
static void feed_bytes(gw_explainer *ex, const char *buf, size_t len)
{
	static const char bom[] = "\xef\xbb\xbf";

	while (ex->pr.bom < 3 && len) {
		if (*buf == bom[ex->pr.bom]) {
			ex->pr.bom++;
			buf++;
			len--;
			continue;
		}
		raw_bytes(ex, bom, ex->pr.bom);
		ex->pr.bom = 3;
	}
	raw_bytes(ex, buf, len);
}

/* The stream ended: what was held is text after all. */
static void presentation_finish(gw_explainer *ex)
{
	if (ex->pr.bom < 3) {
		raw_bytes(ex, "\xef\xbb\xbf", ex->pr.bom);
		ex->pr.bom = 3;
	}
	if (ex->pr.json)
		json_string_end(ex);
	if (ex->pr.nlead)
		clean_bytes(ex, ex->pr.lead, ex->pr.nlead);
	if (ex->pr.nent)
		text_bytes(ex, ex->pr.ent, ex->pr.nent);
	if (ex->pr.nsgr && ex->pr.sgr[ex->pr.nsgr - 1] != 'm')
		text_bytes(ex, ex->pr.sgr, ex->pr.nsgr);
	ex->pr.nlead = ex->pr.nent = ex->pr.nsgr = 0;
	ex->pr.json = false;
	ex->pr.esc = 0;
	box_finish(ex);
	held_finish(ex);
}

int gw_explainer_feed(gw_explainer *ex, const char *buf, size_t len)
{
	if (!ex || (!buf && len))
		return gw__error_set(GW_EINVAL, "gw_explainer_feed: invalid argument");
	while (!ex->decided && len) {
		ex->head[ex->nhead++] = (uint8_t)*buf++;
		len--;
		if (ex->nhead == 2)
			decide_encoding(ex);
	}
	if (ex->utf16)
		feed_utf16(ex, (const uint8_t *)buf, len);
	else if (len)
		feed_bytes(ex, buf, len);
	return 0;
}

int gw_explainer_finish(gw_explainer *ex)
{
	if (!ex)
		return gw__error_set(GW_EINVAL, "gw_explainer_finish: explainer is NULL");
	if (!ex->decided)
		decide_encoding(ex);
	presentation_finish(ex);
	if (ex->pending) {
		end_piece(ex, true);
		ex->lines += ex->pr.joined;   /* the last line was joined from several */
		ex->pr.joined = 0;
	}
	read_cells(ex);
	if (!ex->arch.gpu[0])
		gw__fmt(ex->arch.gpu, sizeof(ex->arch.gpu), "%s", ex->model_gpu);
	invalid_ptx_on_new_gpu(ex);
	invalid_call_after_arch(ex);
	arch_conclude(&ex->arch);
	/* A JIT compiler's ptxas refused the target: its fix is a newer
	 * Triton or jaxlib (or ptxas), not another PyTorch wheel. */
	if (ex->jit_compiler && ex->compiler_evidence)
		ex->arch.torch_builds[0] = '\0';
	return 0;
}

size_t gw_explainer_count(const gw_explainer *ex)
{
	return ex ? ex->nmatches : 0;
}

const gw_explain_match *gw_explainer_match(const gw_explainer *ex, size_t i)
{
	return ex && i < ex->nmatches ? &ex->matches[i] : NULL;
}

size_t gw_explainer_unrecognised_count(const gw_explainer *ex)
{
	return ex && !ex->nmatches ? ex->nunrecognised : 0;
}

const gw_explain_unrecognised *gw_explainer_unrecognised(const gw_explainer *ex, size_t i)
{
	return i < gw_explainer_unrecognised_count(ex) ? &ex->unrecognised[i] : NULL;
}

uint64_t gw_explainer_lines(const gw_explainer *ex)
{
	return ex ? ex->lines : 0;
}
