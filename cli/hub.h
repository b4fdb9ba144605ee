/* Hugging Face Hub files for `gpuwise advise ORG/NAME` (cli/hub.c): the
 * local Hugging Face cache first, then HF_ENDPOINT over libcurl (loaded
 * with dlopen), stored back in the same cache. docs/commands/advise.md. */
#ifndef GPUWISE_CLI_HUB_H
#define GPUWISE_CLI_HUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hub_status {
	HUB_OK = 0,
	HUB_ABSENT,      /* the repository has no such file (404 EntryNotFound, or cached as absent) */
	HUB_NO_REPO,     /* no such repository (404, or 401 RepoNotFound) */
	HUB_GATED,       /* 401/403: a token is needed, or the licence is not accepted */
	HUB_OFFLINE,     /* HF_HUB_OFFLINE and not in the cache */
	HUB_NO_CURL,     /* libcurl cannot be loaded */
	HUB_TIMEOUT,
	HUB_FAILED       /* any other network or server failure; too large; malformed */
};

struct hub {
	char repo[200];
	char revision[128];
	char cache[3072];     /* the hub folder: $HF_HUB_CACHE, $HF_HOME/hub, ~/.cache/huggingface/hub */
	char endpoint[1024];  /* $HF_ENDPOINT without a trailing '/' */
	char token[512];      /* $HF_TOKEN, else $HF_HOME/token; "" when none */
	bool offline;
	int timeout_s;        /* $HF_HUB_DOWNLOAD_TIMEOUT, default 10 */
	char sha[72];         /* the commit, once known ("" before) */
	bool downloaded;      /* at least one file came from the network */
	bool cached;          /* at least one file came from the cache */
	char err[1024];       /* what the last failure was, a full sentence for the user */
};

/* ORG/NAME as the Hub spells repository ids: letters, digits, '-', '_',
 * '.'; no "--" or ".."; each part at most 96 characters. */
bool hub_is_id(const char *s);

/* Fill h for repo at revision "main" from the environment. */
void hub_init(struct hub *h, const char *repo);

/* A whole file (at most max bytes) of the repository: *out is malloc'd and
 * NUL-terminated. Stored in the cache when downloaded. */
enum hub_status hub_get(struct hub *h, const char *file, size_t max, char **out, size_t *len);

/* The first n bytes of a file (an HTTP Range request; a cached file is read
 * from its start). Nothing is stored. *out malloc'd; *len may be < n when
 * the file is shorter. */
enum hub_status hub_get_prefix(struct hub *h, const char *file, size_t n, char **out, size_t *len);

#endif
