/* gpuwise explain: the catalogue, the status codes and the needle index.
 * The index is built once per process from the compiled-in catalogue and
 * shared read-only; a row's regexes are compiled on first use (regex_of).
 * scan_line finds every needle of a line in one pass. */
#include "explain/explain_int.h"

/* The text of each of line_words' needles. */
static const char *const line_words[NWORD] = {
	[W_NVIDIA] = "nvidia", [W_GEFORCE] = "geforce", [W_TESLA] = "tesla", [W_RTX] = "rtx",
	[W_TRITON] = "triton", [W_XLA] = "xla", [W_NCCL_INFO] = "nccl info",
	[W_PLAN_TRIED] = "plan failed with a cudnnexception", [W_IN_FILE] = " in file ",
	[W_THRUST] = "thrust::system::",
	/* in every word error_token takes */
	[W_ERROR] = "error", [W_FAIL] = "fail", [W_FATAL] = "fatal", [W_ABORT] = "abort",
	[W_EXCEPTION] = "exception", [W_CANNOT] = "cannot", [W_UNABLE] = "unable",
};

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
int gw__explain_code_by_number(const char *library, long number, bool legacy)
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
bool gw__explain_library_has_number(const char *library, long number)
{
	for (size_t i = 0; i < NCODE; i++)
		if (gw__status_codes[i].pub.number == number && !strcmp(gw__status_codes[i].pub.library, library))
			return true;
	return false;
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
bool gw__explain_has_regex(size_t p)
{
	return gw__explain_patterns[p].regex != NULL;
}

bool gw__explain_has_veto(size_t p)
{
	return gw__explain_patterns[p].unless != NULL;
}

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

int gw__explain_catalogue_get(const struct catalogue **out)
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
const regex_t *gw__explain_regex_of(const struct catalogue *cat, unsigned p, int which)
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

bool gw__explain_regex_matches(const regex_t *rx, const char *s)
{
	return rx && regexec(rx, s, 0, NULL, 0) == 0;
}

int gw__explain_doc_index(const char *id)
{
	const gw_finding_doc *d = gw_finding_doc_get(id);

	return d ? (int)(d - gw__finding_docs) : -1;
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
void gw__explain_scan_line(gw_explainer *ex)
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

