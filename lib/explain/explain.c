/* gpuwise explain — the finding catalogue and the error-message scanner.
 *
 * The scanner has to stay fast on a 100 MB log, so regexes never see most
 * lines. Every pattern has a required literal fragment; one Aho-Corasick
 * automaton over all literals (case-folded, over a reduced alphabet) walks
 * each byte once and marks the patterns whose literal occurs in the line.
 * Only those candidate lines go through the pattern's regex and its
 * "unless" veto. Lines are copied into a bounded buffer so a line may span
 * feed() calls; longer lines are split. Results are one match per
 * catalogue id, so memory does not grow with the input.
 */
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "gpuwise/explain.h"
#include "explain_data.h"

#define NPAT GW__EXPLAIN_PATTERNS_COUNT
#define NDOC GW__FINDING_DOCS_COUNT
#define NO_STATE UINT32_MAX
#define OUT_FLAG 0x80000000u   /* in delta after build: target ends a literal */

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

/* ---- the scanner ------------------------------------------------------ */

struct hit {
	unsigned pat;
	size_t start;              /* offset of the literal in the line */
};

struct gw_explainer {
	/* The automaton: delta[state * nclass + class]. */
	uint8_t cls[256];
	unsigned nclass;
	uint32_t nstates;
	uint32_t *delta;
	int32_t *out_head;         /* first pattern whose literal ends here, -1 */
	int32_t *dict;             /* nearest suffix state with output, -1 */
	uint8_t *has_out;
	int32_t pat_next[NPAT];    /* next pattern ending in the same state */
	size_t lit_len[NPAT];
	regex_t rx[NPAT], unless[NPAT];
	bool has_rx[NPAT], has_unless[NPAT];

	/* The line being read. */
	uint32_t state;
	char line[GW_EXPLAIN_LINE_MAX + 1];
	size_t line_len;
	uint64_t lines;            /* complete lines seen */
	bool pending;              /* bytes of an unfinished line were fed */

	/* Per-line bookkeeping without clearing arrays: "seen on this line"
	 * means the stored generation equals gen. */
	uint32_t gen;
	uint32_t pat_gen[NPAT];
	uint32_t doc_gen[NDOC];
	struct hit hits[NPAT];
	unsigned nhits;

	/* Results. */
	int match_of_doc[NDOC];
	gw_explain_match matches[NDOC];
	size_t nmatches;
};

static uint8_t fold(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c - 'A' + 'a') : c;
}

/* Give every byte that occurs in a literal its own class, upper case
 * sharing the class of lower case; everything else is class 0. */
static void build_classes(gw_explainer *ex)
{
	ex->nclass = 1;
	for (unsigned p = 0; p < NPAT; p++)
		for (const char *s = gw__explain_patterns[p].literal; *s; s++) {
			uint8_t c = fold((uint8_t)*s);
			if (!ex->cls[c])
				ex->cls[c] = (uint8_t)ex->nclass++;
		}
	for (unsigned c = 'A'; c <= 'Z'; c++)
		ex->cls[c] = ex->cls[c - 'A' + 'a'];
}

static int build_trie(gw_explainer *ex, uint32_t max_states)
{
	ex->delta = gw__malloc((size_t)max_states * ex->nclass * sizeof(*ex->delta));
	ex->out_head = gw__malloc(max_states * sizeof(*ex->out_head));
	ex->dict = gw__malloc(max_states * sizeof(*ex->dict));
	ex->has_out = gw__calloc(max_states, 1);
	if (!ex->delta || !ex->out_head || !ex->dict || !ex->has_out)
		return gw__error_set(GW_ENOMEM, "out of memory building the explain automaton");
	memset(ex->delta, 0xff, (size_t)max_states * ex->nclass * sizeof(*ex->delta));
	ex->out_head[0] = -1;
	ex->nstates = 1;
	for (unsigned p = 0; p < NPAT; p++) {
		uint32_t s = 0;
		const char *lit = gw__explain_patterns[p].literal;

		for (const char *c = lit; *c; c++) {
			uint32_t *next = &ex->delta[(size_t)s * ex->nclass + ex->cls[(uint8_t)*c]];
			if (*next == NO_STATE) {
				*next = ex->nstates;
				ex->out_head[ex->nstates++] = -1;
			}
			s = *next;
		}
		ex->pat_next[p] = ex->out_head[s];
		ex->out_head[s] = (int32_t)p;
		ex->lit_len[p] = strlen(lit);
	}
	return 0;
}

/* Breadth-first: fill the failure transitions so delta is a complete DFA,
 * and link each state to the nearest suffix state that ends a literal. */
static int build_links(gw_explainer *ex)
{
	uint32_t *queue = gw__malloc(ex->nstates * sizeof(*queue));
	uint32_t *fail = gw__malloc(ex->nstates * sizeof(*fail));
	size_t head = 0, tail = 0;
	unsigned n = ex->nclass;

	if (!queue || !fail) {
		gw__free(queue);
		gw__free(fail);
		return gw__error_set(GW_ENOMEM, "out of memory building the explain automaton");
	}
	ex->dict[0] = -1;
	for (unsigned c = 0; c < n; c++) {
		uint32_t v = ex->delta[c];
		if (v == NO_STATE) {
			ex->delta[c] = 0;
		} else {
			fail[v] = 0;
			ex->dict[v] = -1;
			queue[tail++] = v;
		}
	}
	while (head < tail) {
		uint32_t u = queue[head++];
		for (unsigned c = 0; c < n; c++) {
			uint32_t *slot = &ex->delta[(size_t)u * n + c];
			uint32_t via_fail = ex->delta[(size_t)fail[u] * n + c];
			if (*slot == NO_STATE) {
				*slot = via_fail;
				continue;
			}
			uint32_t v = *slot;
			fail[v] = via_fail;
			ex->dict[v] = ex->out_head[via_fail] >= 0 ? (int32_t)via_fail : ex->dict[via_fail];
			queue[tail++] = v;
		}
	}
	for (uint32_t s = 0; s < ex->nstates; s++)
		ex->has_out[s] = ex->out_head[s] >= 0 || ex->dict[s] >= 0;
	/* For the hot loop: entries become the target's row offset, with
	 * OUT_FLAG set when the target ends a literal. */
	for (size_t k = 0; k < (size_t)ex->nstates * n; k++) {
		uint32_t t = ex->delta[k];
		ex->delta[k] = t * n | (ex->has_out[t] ? OUT_FLAG : 0);
	}
	gw__free(queue);
	gw__free(fail);
	return 0;
}

static int compile_regexes(gw_explainer *ex)
{
	const int flags = REG_EXTENDED | REG_ICASE | REG_NOSUB;

	for (unsigned p = 0; p < NPAT; p++) {
		const gw__explain_pattern *pat = &gw__explain_patterns[p];

		if (pat->regex) {
			if (regcomp(&ex->rx[p], pat->regex, flags) != 0)
				return gw__error_set(GW_EGENERIC, "explain pattern %u (%s) does not compile", p, pat->regex);
			ex->has_rx[p] = true;
		}
		if (pat->unless) {
			if (regcomp(&ex->unless[p], pat->unless, flags) != 0)
				return gw__error_set(GW_EGENERIC, "explain pattern %u (%s) does not compile", p, pat->unless);
			ex->has_unless[p] = true;
		}
	}
	return 0;
}

void gw_explainer_free(gw_explainer *ex)
{
	if (!ex)
		return;
	for (unsigned p = 0; p < NPAT; p++) {
		if (ex->has_rx[p])
			regfree(&ex->rx[p]);
		if (ex->has_unless[p])
			regfree(&ex->unless[p]);
	}
	gw__free(ex->delta);
	gw__free(ex->out_head);
	gw__free(ex->dict);
	gw__free(ex->has_out);
	gw__free(ex);
}

void gw_explainer_reset(gw_explainer *ex)
{
	if (!ex)
		return;
	ex->state = 0;
	ex->line_len = 0;
	ex->lines = 0;
	ex->pending = false;
	ex->gen = 1;
	memset(ex->pat_gen, 0, sizeof(ex->pat_gen));
	memset(ex->doc_gen, 0, sizeof(ex->doc_gen));
	ex->nhits = 0;
	for (unsigned d = 0; d < NDOC; d++)
		ex->match_of_doc[d] = -1;
	ex->nmatches = 0;
}

int gw_explainer_new(gw_explainer **out)
{
	gw_explainer *ex;
	uint32_t max_states = 1;
	int rc;

	if (!out)
		return gw__error_set(GW_EINVAL, "gw_explainer_new: out is NULL");
	if (!(ex = gw__calloc(1, sizeof(*ex))))
		return gw__error_set(GW_ENOMEM, "out of memory creating the explainer");
	for (unsigned p = 0; p < NPAT; p++)
		max_states += (uint32_t)strlen(gw__explain_patterns[p].literal);
	build_classes(ex);
	if ((rc = build_trie(ex, max_states)) < 0 || (rc = build_links(ex)) < 0 ||
	    (rc = compile_regexes(ex)) < 0) {
		gw_explainer_free(ex);
		return rc;
	}
	gw_explainer_reset(ex);
	*out = ex;
	return 0;
}

/* ---- excerpts --------------------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\0';
}

/* Copy line[start..end) into out as clean UTF-8, marking cuts with "...". */
static void make_excerpt(char *out, const char *line, size_t len, size_t hit)
{
	size_t start = 0, end = len, o = 0;
	const size_t cap = GW_EXPLAIN_EXCERPT_MAX - 1;
	bool cut_left = false, cut_right = false;

	while (start < end && is_blank(line[start]))
		start++;
	while (end > start && is_blank(line[end - 1]))
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
		if (!n || (n == 1 && (*s < 0x20 || *s == 0x7f)))
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
		ex->gen = 1;
	}
}

static bool pattern_accepts(gw_explainer *ex, unsigned p)
{
	if (ex->has_rx[p] && regexec(&ex->rx[p], ex->line, 0, NULL, 0) != 0)
		return false;
	if (ex->has_unless[p] && regexec(&ex->unless[p], ex->line, 0, NULL, 0) == 0)
		return false;
	return true;
}

static void record_match(gw_explainer *ex, unsigned p, size_t start)
{
	unsigned d = gw__explain_patterns[p].doc;
	gw_explain_match *m;

	if (ex->doc_gen[d] == ex->gen)
		return;            /* this id already counted on this line */
	ex->doc_gen[d] = ex->gen;
	if (ex->match_of_doc[d] >= 0) {
		ex->matches[ex->match_of_doc[d]].count++;
		return;
	}
	m = &ex->matches[ex->nmatches];
	ex->match_of_doc[d] = (int)ex->nmatches++;
	m->doc = &gw__finding_docs[d];
	m->framework = gw__explain_patterns[p].framework;
	m->line = ex->lines + 1;
	m->count = 1;
	make_excerpt(m->excerpt, ex->line, ex->line_len, start);
}

/* The line (or a piece of an over-long one) is complete: check the
 * candidate patterns in order of position and start afresh. */
static void end_piece(gw_explainer *ex, bool newline)
{
	if (ex->nhits) {
		/* regexec stops at NUL; binary junk must not hide the rest. */
		for (size_t i = 0; i < ex->line_len; i++)
			if (ex->line[i] == '\0')
				ex->line[i] = ' ';
		ex->line[ex->line_len] = '\0';
		for (unsigned i = 1; i < ex->nhits; i++) {    /* insertion sort, few hits */
			struct hit h = ex->hits[i];
			unsigned j = i;
			for (; j > 0 && ex->hits[j - 1].start > h.start; j--)
				ex->hits[j] = ex->hits[j - 1];
			ex->hits[j] = h;
		}
		for (unsigned i = 0; i < ex->nhits; i++)
			if (pattern_accepts(ex, ex->hits[i].pat))
				record_match(ex, ex->hits[i].pat, ex->hits[i].start);
		ex->nhits = 0;
		next_generation(ex);
	}
	ex->state = 0;
	ex->line_len = 0;
	if (newline) {
		ex->lines++;
		ex->pending = false;
	}
}

static void note_hits(gw_explainer *ex, uint32_t s, size_t end_off)
{
	int32_t st = ex->out_head[s] >= 0 ? (int32_t)s : ex->dict[s];

	for (; st >= 0; st = ex->dict[st])
		for (int32_t p = ex->out_head[st]; p >= 0; p = ex->pat_next[p]) {
			if (ex->pat_gen[p] == ex->gen)
				continue;
			ex->pat_gen[p] = ex->gen;
			ex->hits[ex->nhits].pat = (unsigned)p;
			ex->hits[ex->nhits].start = end_off + 1 - ex->lit_len[p];
			ex->nhits++;
		}
}

/* Append bytes (no newline among them) to the current line and run the
 * automaton over them. */
static void scan_bytes(gw_explainer *ex, const char *p, size_t n)
{
	while (n) {
		size_t room = GW_EXPLAIN_LINE_MAX - ex->line_len;
		size_t take;
		uint32_t s = ex->state;        /* row offset of the current state */
		const uint8_t *u = (const uint8_t *)p;
		const uint32_t *delta = ex->delta;
		const uint8_t *cls = ex->cls;

		if (!room) {
			end_piece(ex, false);
			continue;
		}
		take = n < room ? n : room;
		memcpy(ex->line + ex->line_len, p, take);
		for (size_t i = 0; i < take; i++) {
			uint32_t v = delta[s + cls[u[i]]];
			s = v & ~OUT_FLAG;
			if (v & OUT_FLAG)
				note_hits(ex, s / ex->nclass, ex->line_len + i);
		}
		ex->state = s;
		ex->line_len += take;
		ex->pending = true;
		p += take;
		n -= take;
	}
}

int gw_explainer_feed(gw_explainer *ex, const char *buf, size_t len)
{
	if (!ex || (!buf && len))
		return gw__error_set(GW_EINVAL, "gw_explainer_feed: invalid argument");
	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;

		scan_bytes(ex, buf, n);
		if (!nl)
			break;
		ex->pending = true;
		end_piece(ex, true);
		buf += n + 1;
		len -= n + 1;
	}
	return 0;
}

int gw_explainer_finish(gw_explainer *ex)
{
	if (!ex)
		return gw__error_set(GW_EINVAL, "gw_explainer_finish: explainer is NULL");
	if (ex->pending)
		end_piece(ex, true);
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

uint64_t gw_explainer_lines(const gw_explainer *ex)
{
	return ex ? ex->lines : 0;
}
