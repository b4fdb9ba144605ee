/* The names people type for `gpuwise advise MODEL`, beyond the
 * catalogue's own: Hugging Face ids (ORG/NAME, read from the Hugging Face
 * cache or the Hub through cli/hub.c), the catalogue's models under the
 * names of their fine-tuned variants (-Instruct, -chat, -hf, -it) and the
 * spellings people use (llama2-7b, mistral-7b), a few well-known models
 * outside the catalogue by their short name (llama-2-13b, phi-2), and "did
 * you mean" for the rest. docs/commands/advise.md, "Models by name". */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "advise_hub.h"
#include "commands.h"
#include "hub.h"
#include "gpuwise/gpuwise.h"

#define CONFIG_MAX (16u << 20)
#define INDEX_MAX (64u << 20)
#define SHARDS_MAX 4096

/* Short names of models outside the catalogue: read from the Hub (or the
 * cache) under their id. Spellings are matched as the catalogue's are
 * (case, '-', '.' and '_' do not count). */
static const struct {
	const char *name, *hf;
} hub_aliases[] = {
	{"llama-2-13b", "meta-llama/Llama-2-13b-hf"},
	{"llama-3.1-8b", "meta-llama/Llama-3.1-8B"},
	{"llama-3.1-70b", "meta-llama/Llama-3.1-70B"},
	{"llama-3.2-1b", "meta-llama/Llama-3.2-1B"},
	{"llama-3.2-3b", "meta-llama/Llama-3.2-3B"},
	{"phi-2", "microsoft/phi-2"},
	{"phi-1.5", "microsoft/phi-1_5"},
	{"mistral-7b-v0.2", "mistral-community/Mistral-7B-v0.2"},
	{"qwen2.5-14b", "Qwen/Qwen2.5-14B"},
	{"qwen2.5-32b", "Qwen/Qwen2.5-32B"},
	{"gemma-2-2b", "google/gemma-2-2b"},
	{"gemma-2-9b", "google/gemma-2-9b"},
};

/* Suffix words of fine-tuned variants with the base model's shape. */
static const char *const variant_words[] = {"hf", "chat", "instruct", "it", "base"};

/* The part after ORG/, lowercase, without the variant words (a whole word
 * between '-' anywhere after the first), then only letters and digits:
 * "meta-llama/Llama-2-7b-chat-hf" -> "llama27b". */
static void name_key(const char *s, char *out, size_t n)
{
	const char *slash = strrchr(s, '/');
	char word[64];
	size_t k = 0;
	bool first = true;

	s = slash ? slash + 1 : s;
	while (*s && k + 1 < n) {
		size_t len = strcspn(s, "-_ ");
		bool variant = false;

		snprintf(word, sizeof(word), "%.*s", (int)len, s);
		for (size_t i = 0; !first && i < sizeof(variant_words) / sizeof(variant_words[0]); i++)
			variant |= !strcasecmp(word, variant_words[i]);
		for (size_t i = 0; !variant && i < len && k + 1 < n; i++)
			if (isalnum((unsigned char)s[i]))
				out[k++] = (char)tolower((unsigned char)s[i]);
		first = false;
		s += len + (s[len] != '\0');
	}
	out[k] = '\0';
}

/* a is b followed by a version ("v01", "v0"): mistral7b and mistral7bv01. */
static bool key_versioned(const char *a, const char *b)
{
	size_t n = strlen(b);

	return !strncmp(a, b, n) && a[n] == 'v' && isdigit((unsigned char)a[n + 1]) &&
	       strspn(a + n + 1, "0123456789") == strlen(a + n + 1);
}

/* The catalogue row a typed name means, or -1. Exact keys first (the
 * name's and the Hugging Face id's), then the first row with a version
 * the name left out (the catalogue lists the original release first). */
static long catalogue_match(const char *typed)
{
	char key[128], k1[128], k2[128];
	gw_model_entry e;

	name_key(typed, key, sizeof(key));
	if (!key[0])
		return -1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; gw_model_catalog_at(i, &e) == 0; i++) {
			name_key(e.name, k1, sizeof(k1));
			name_key(e.hf, k2, sizeof(k2));
			if (pass == 0 ? !strcmp(key, k1) || !strcmp(key, k2)
				      : key_versioned(k1, key) || key_versioned(k2, key))
				return (long)i;
		}
	return -1;
}

static const char *alias_match(const char *typed)
{
	char key[128], k[128];

	name_key(typed, key, sizeof(key));
	for (size_t i = 0; key[0] && i < sizeof(hub_aliases) / sizeof(hub_aliases[0]); i++) {
		name_key(hub_aliases[i].name, k, sizeof(k));
		if (!strcmp(key, k))
			return hub_aliases[i].hf;
	}
	return NULL;
}

/* ---- the checkpoint ------------------------------------------------------------ */

/* One shard's safetensors header, into c. false when it cannot be read. */
static bool add_header(struct hub *h, gw_checkpoint *c, const char *file, char *why, size_t why_n)
{
	char *buf = NULL;
	uint64_t n;
	size_t len;
	bool ok = false;

	if (hub_get_prefix(h, file, 8, &buf, &len) != HUB_OK) {
		snprintf(why, why_n, "%s", h->err);
		return false;
	}
	if (gw_safetensors_header_len(&n, (unsigned char *)buf, len) < 0) {
		snprintf(why, why_n, "%s: %s", file, gw_error_last_text());
		free(buf);
		return false;
	}
	free(buf);
	if (hub_get_prefix(h, file, (size_t)n + 8, &buf, &len) != HUB_OK)
		snprintf(why, why_n, "%s", h->err);
	else if (len != n + 8)
		snprintf(why, why_n, _("%s ends inside its header"), file);
	else if (gw_checkpoint_add_safetensors(c, buf + 8, (size_t)n) < 0)
		snprintf(why, why_n, "%s: %s", file, gw_error_last_text());
	else
		ok = true;
	free(buf);
	return ok;
}

/* The checkpoint's tensors: model.safetensors.index.json's shards, or
 * model.safetensors alone. false (why says why) when there is none to read. */
static bool read_checkpoint(struct hub *h, gw_checkpoint *c, char *why, size_t why_n)
{
	char *index = NULL, *names = NULL;
	size_t len, count = 0;
	uint64_t total;
	enum hub_status st;
	bool ok = true;

	memset(c, 0, sizeof(*c));
	st = hub_get(h, "model.safetensors.index.json", INDEX_MAX, &index, &len);
	/* offline, an index not in the cache may still mean a single file that is */
	if (st == HUB_ABSENT || st == HUB_OFFLINE)
		return add_header(h, c, "model.safetensors", why, why_n);
	if (st != HUB_OK) {
		snprintf(why, why_n, "%s", h->err);
		return false;
	}
	if (gw_safetensors_index_files(&names, &count, &total, index, len) < 0 || count > SHARDS_MAX) {
		snprintf(why, why_n, "model.safetensors.index.json: %s",
			 count > SHARDS_MAX ? _("too many shards") : gw_error_last_text());
		ok = false;
	}
	free(index);
	for (const char *p = names; ok && count--; p += strlen(p) + 1)
		ok = add_header(h, c, p, why, why_n);
	gw_checkpoint_free(names);
	return ok;
}

static bool float_dtype(const char *d)
{
	return d[0] == 'F' || !strcmp(d, "BF16");
}

/* "BF16: 6.74B parameters, 13.5 GB in 2 safetensors files" */
static void describe(const gw_checkpoint *c, char *out, size_t n)
{
	int k = 0;

	for (size_t i = 0; i < c->ndtypes && k >= 0 && (size_t)k < n; i++)
		k += snprintf(out + k, n - (size_t)k, "%s%s %" PRIu64, i ? ", " : "", c->dtypes[i].name,
			      c->dtypes[i].params);
	if (k >= 0 && (size_t)k < n)
		snprintf(out + k, n - (size_t)k,
			 _n(" parameters; %" PRIu64 " bytes in %" PRIu64 " safetensors file",
			    " parameters; %" PRIu64 " bytes in %" PRIu64 " safetensors files", c->files),
			 c->bytes, c->files);
}

/* ---- loading -------------------------------------------------------------------- */

static int hub_error_exit(const struct hub *h)
{
	error_msg("%s", h->err);
	return -1;
}

/* config.json of repo and, where it can be read, its checkpoint. */
static int load_hub(gw_model *m, const char *repo, struct advise_source *src)
{
	struct hub h;
	char *text = NULL, why[1024] = "";
	size_t len;
	gw_checkpoint c;
	int rc;

	hub_init(&h, repo);
	if (hub_get(&h, "config.json", CONFIG_MAX, &text, &len) != HUB_OK)
		return hub_error_exit(&h);
	rc = gw_model_from_config(m, text, len, repo);
	free(text);
	if (rc < 0) {
		char label[256];

		snprintf(label, sizeof(label), "%s/config.json", repo);
		error_msg("%s: %s", label, gw_error_last_text());
		return -1;
	}
	if (read_checkpoint(&h, &c, why, sizeof(why))) {
		bool floats = true;

		gw_checkpoint_sort(&c);
		for (size_t i = 0; i < c.ndtypes; i++)
			floats &= float_dtype(c.dtypes[i].name);
		/* a quantised checkpoint (GPTQ, AWQ) packs several weights into
		 * each I32: its element count is not the parameter count */
		if (floats)
			m->params_published = c.params;
		src->checkpoint = c;
		src->have_checkpoint = true;
		describe(&c, src->weights, sizeof(src->weights));
	} else {
		snprintf(src->weights, sizeof(src->weights), _("not read (%s): the count is from config.json"), why);
	}
	src->how = h.downloaded ? "hub" : "hub-cache";
	snprintf(src->commit, sizeof(src->commit), "%s", h.sha);
	return 0;
}

static void suggest(const char *typed)
{
	const char *best = NULL;
	size_t d = 0;
	gw_model_entry e;

	for (size_t i = 0; gw_model_catalog_at(i, &e) == 0; i++) {
		suggest_closer(typed, strlen(typed), e.name, &best, &d);
		suggest_closer(typed, strlen(typed), e.hf, &best, &d);
	}
	for (size_t i = 0; i < sizeof(hub_aliases) / sizeof(hub_aliases[0]); i++)
		suggest_closer(typed, strlen(typed), hub_aliases[i].name, &best, &d);
	if (best)
		error_msg(_("no model '%s': not in the catalogue, not a Hugging Face id (ORG/NAME) and no such file; "
			    "did you mean '%s'? (gpuwise advise --list-models)"), typed, best);
	else
		error_msg(_("no model '%s': not in the catalogue (gpuwise advise --list-models), not a Hugging Face "
			    "id (ORG/NAME) and no such file"), typed);
}

static int from_catalogue_row(gw_model *m, long row, const char *typed, struct advise_source *src)
{
	gw_model_entry e;

	gw_model_catalog_at((size_t)row, &e);
	if (gw_model_from_catalog(m, e.name) < 0) {
		error_msg("%s", gw_error_last_text());
		return -1;
	}
	fputs("gpuwise: ", stderr);
	fprintf(stderr, _("'%s' read as the catalogue's %s (%s), which has the same shape"), typed, e.name, e.hf);
	fputc('\n', stderr);
	src->how = "catalogue";
	return 0;
}

/* Hugging Face cache holds repo? (config.json under refs/main's snapshot) */
static bool in_cache(const char *repo)
{
	struct hub h;
	char *text = NULL;
	size_t len;
	bool yes;

	hub_init(&h, repo);
	h.offline = true;
	yes = hub_get(&h, "config.json", CONFIG_MAX, &text, &len) == HUB_OK;
	free(text);
	return yes;
}

int advise_model_by_name(gw_model *m, const char *arg, struct advise_source *src)
{
	const char *hf;
	long row;

	memset(src, 0, sizeof(*src));
	/* a path typed wrong (my-model/config.json) is not a Hub id */
	if (strlen(arg) > 5 && !strcmp(arg + strlen(arg) - 5, ".json")) {
		error_msg(_("cannot read '%s': %s"), arg, strerror(ENOENT));
		return -1;
	}
	if (hub_is_id(arg)) {
		/* the real config where it is at hand; the catalogue's shape for a
		 * variant before the network (no token needed for a gated base) */
		if (!in_cache(arg) && (row = catalogue_match(arg)) >= 0)
			return from_catalogue_row(m, row, arg, src);
		return load_hub(m, arg, src);
	}
	if ((row = catalogue_match(arg)) >= 0)
		return from_catalogue_row(m, row, arg, src);
	if ((hf = alias_match(arg))) {
		fputs("gpuwise: ", stderr);
		fprintf(stderr, _("'%s' read as the Hugging Face model %s"), arg, hf);
		fputc('\n', stderr);
		return load_hub(m, hf, src);
	}
	suggest(arg);
	return -1;
}
