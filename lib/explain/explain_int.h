/* gpuwise explain's scanner: what its files share.
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
 *
 * The files, one stage each:
 *   index.c         the catalogue, the status codes and the needle index
 *   codes.c         excerpts, and status codes read from a line in their wrappings
 *   match.c         matches: recording, held descriptions, refinements, CUDA before 10.1
 *   library.c       the missing-library rule
 *   arch.c          the architecture rule
 *   unrecognised.c  lines that look like GPU errors, fallbacks taken back
 *   line.c          one line read: wrapped table cells, line prefixes, the rules run per line
 *   wrap.c          lines joined: CRI partial records, hard- and word-wrapped lines
 *   presentation.c  the bytes around the text: UTF-16, boxes, JSON lines, escapes, HTML
 *   explain.c       the explainer's life and its public API
 */
#ifndef GPUWISE_EXPLAIN_INT_H
#define GPUWISE_EXPLAIN_INT_H

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
#define NNEEDLE (NPAT + NWORD)
/* Descriptions one line may hold for the next (see held_call_line). */
#define HELD_MAX 4u
/* The ids one line's matches may add that a fallback's last line can take
 * back, and how far up that line may be (see fallback_line). */
#define FX_MAX 8u
#define FX_LINES 6u
#define NCODE GW__STATUS_CODES_COUNT
/* Which of a row's regexes (see gw__explain_regex_of). */
enum { RX_MATCH, RX_UNLESS };
/* What a fallback's line is (see gw__explain_fallback_line). */
enum { FB_VETO = 1, FB_TAIL = 2, FB_HOST = 4 };

/* ---- the explainer's state ---------------------------------------------- */

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
		char wpeek_last;                   /* the last byte of the line before the peek */
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

/* ---- small helpers of every stage ------------------------------------- */

static inline uint8_t fold(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c - 'A' + 'a') : c;
}

/* Does the (lowercase) literal occur at text, folding ASCII case and
 * reading NUL as a space like the needle index does? */
static inline bool literal_at(const char *text, const char *lit, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t c = text[i] ? fold((uint8_t)text[i]) : ' ';
		if (c != (uint8_t)lit[i])
			return false;
	}
	return true;
}

static inline bool is_word_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static inline bool is_alnum_byte(char c)
{
	return is_word_byte(c) && c != '_';
}

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\0';
}

/* Does the line (after its prefix) hold word w of line_words? The same
 * as line_has(ex->line, ex->line_len, line_words[w]). */
static inline bool line_word(const gw_explainer *ex, unsigned w)
{
	return ex->word_at[w] != SIZE_MAX && ex->word_at[w] >= ex->stripped;
}

/* index.c: the catalogue, the status codes and the needle index */
int gw__explain_code_by_number(const char *library, long number, bool legacy);
bool gw__explain_library_has_number(const char *library, long number);
bool gw__explain_has_regex(size_t p);
bool gw__explain_has_veto(size_t p);
int gw__explain_catalogue_get(const struct catalogue **out);
const regex_t *gw__explain_regex_of(const struct catalogue *cat, unsigned p, int which);
bool gw__explain_regex_matches(const regex_t *rx, const char *s);
int gw__explain_doc_index(const char *id);
void gw__explain_scan_line(gw_explainer *ex);

/* codes.c: excerpts, and status codes read from a line in their wrappings */
void gw__explain_make_excerpt(char *out, const char *line, size_t len, size_t hit, const uint8_t *nul_at);
void gw__explain_next_generation(gw_explainer *ex);
bool gw__explain_names_library(const char *line, size_t end, const char *word, bool word_start);
bool gw__explain_cuda_check_statement(const char *line, size_t n);
int gw__explain_own_number_code(const gw_explainer *ex, unsigned p, size_t start);
const char *gw__explain_line_library(const gw_explainer *ex);
bool gw__explain_line_has_text(const gw_explainer *ex, const char *text);
bool gw__explain_is_teardown(int code);
int gw__explain_cuda_number_code(const gw_explainer *ex, const char *library, long number);
bool gw__explain_is_cuda_numbering(const char *library);
int gw__explain_number_code(const gw_explainer *ex, unsigned p, size_t start, const char **numbered_as);
bool gw__explain_line_matches(gw_explainer *ex, const regex_t *rx);
bool gw__explain_pattern_accepts(gw_explainer *ex, unsigned p, size_t start);

/* match.c: matches: recording, held descriptions, refinements, CUDA before 10.1 */
size_t gw__explain_leading_blanks(const gw_explainer *ex);
void gw__explain_record_match(gw_explainer *ex, unsigned d, const char *framework, int code, size_t start, bool had_nul);
size_t gw__explain_next_literal(const gw_explainer *ex, unsigned p, size_t from);
void gw__explain_held_call_line(gw_explainer *ex);
void gw__explain_record_hit(gw_explainer *ex, const struct hit *h, bool had_nul);
void gw__explain_remove_match(gw_explainer *ex, size_t i);
void gw__explain_refine(gw_explainer *ex, unsigned from, unsigned to);
bool gw__explain_note_context(gw_explainer *ex, unsigned p);
void gw__explain_unknown_error_numbered(gw_explainer *ex);
void gw__explain_legacy_cuda_seen(gw_explainer *ex, unsigned p);
void gw__explain_fold_into_cause(gw_explainer *ex);

/* library.c: the missing-library rule */
bool gw__explain_line_has(const char *line, size_t len, const char *needle);
void gw__explain_library_rule(gw_explainer *ex, size_t start, bool had_nul);
void gw__explain_library_found_after_all(gw_explainer *ex);

/* arch.c: the architecture rule */
size_t gw__explain_parse_target(const char *s, size_t n, char *out, size_t outsz);
void gw__explain_arch_rule(gw_explainer *ex, size_t start, bool had_nul);
void gw__explain_arch_conclude(gw_explain_arch *a);
void gw__explain_read_model(gw_explainer *ex);
void gw__explain_invalid_ptx_on_new_gpu(gw_explainer *ex);
void gw__explain_invalid_call_after_arch(gw_explainer *ex);

/* unrecognised.c: lines that look like GPU errors, fallbacks taken back */
bool gw__explain_attempt_line(const gw_explainer *ex);
int gw__explain_fallback_line(gw_explainer *ex);
bool gw__explain_only_fallback_words(const gw_explainer *ex);
void gw__explain_take_back(gw_explainer *ex);
void gw__explain_note_unrecognised(gw_explainer *ex, bool had_nul);

/* line.c: one line read: wrapped table cells, line prefixes, the rules run per line */
size_t gw__explain_trimmed_len(const char *line, size_t len);
void gw__explain_read_cells(gw_explainer *ex);
size_t gw__explain_iso_prefix(const char *s, size_t n);
size_t gw__explain_line_prefix(const char *s, size_t n, bool *bar);
void gw__explain_end_piece(gw_explainer *ex, bool newline);
void gw__explain_scan_bytes(gw_explainer *ex, const char *p, size_t n);

/* wrap.c: lines joined: CRI partial records, hard- and word-wrapped lines */
size_t gw__explain_cri_record(const char *s, size_t n, int *stream, bool *partial);
void gw__explain_wrap_decide(gw_explainer *ex);
void gw__explain_line_bytes(gw_explainer *ex, const char *buf, size_t len);
void gw__explain_held_finish(gw_explainer *ex);

/* presentation.c: the bytes around the text: UTF-16, boxes, JSON lines, escapes, HTML */
void gw__explain_feed_utf16(gw_explainer *ex, const uint8_t *p, size_t len);
void gw__explain_decide_encoding(gw_explainer *ex);
size_t gw__explain_text_columns(const char *p, size_t n);
void gw__explain_feed_bytes(gw_explainer *ex, const char *buf, size_t len);
void gw__explain_presentation_finish(gw_explainer *ex);

#endif
