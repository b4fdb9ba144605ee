/* Hugging Face Hub files for `gpuwise advise ORG/NAME`.
 *
 * The cache is the one huggingface_hub and transformers share
 * ($HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub):
 *   models--ORG--NAME/refs/main              the commit the branch names
 *   models--ORG--NAME/snapshots/SHA/FILE     the file (often a symlink to
 *                                            ../../blobs/HASH)
 *   models--ORG--NAME/.no_exist/SHA/FILE     "the repository has no FILE"
 * A cache may be shared by several users, so nothing here follows a
 * symbolic link except a snapshot's link to its own blobs folder, and new
 * files appear whole (a temporary file, then rename) with mode 0644 (0755
 * for folders). What is downloaded is written as a plain file in the
 * snapshot, as huggingface_hub does where it cannot make links.
 *
 * Downloads go to $HF_ENDPOINT/ORG/NAME/resolve/REVISION/FILE (the Hub
 * answers with a redirect to its CDN and names the commit in
 * X-Repo-Commit), with "Authorization: Bearer $HF_TOKEN", through libcurl
 * loaded with dlopen: gpuwise builds and runs without it, and says so when
 * a download needs it. HF_HUB_OFFLINE=1 never touches the network. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "curl_dl.h"
#include "hub.h"
#include "gpuwise/gpuwise.h"

#define HUB_DEFAULT_ENDPOINT "https://huggingface.co"

/* ---- the environment -------------------------------------------------------- */

static const char *env(const char *name)
{
	const char *v = secure_getenv(name);

	return v && *v ? v : NULL;
}

static bool env_true(const char *name)
{
	const char *v = env(name);

	return v && (!strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on"));
}

bool hub_is_id(const char *s)
{
	const char *slash = strchr(s, '/');
	size_t a, b;

	if (!slash || strchr(slash + 1, '/') || strstr(s, "--") || strstr(s, ".."))
		return false;
	a = (size_t)(slash - s);
	b = strlen(slash + 1);
	if (!a || !b || a > 96 || b > 96 || !isalnum((unsigned char)s[0]) || !isalnum((unsigned char)slash[1]))
		return false;
	for (const char *p = s; *p; p++)
		if (p != slash && !isalnum((unsigned char)*p) && !strchr("-_.", *p))
			return false;
	return true;
}

static void read_token_file(struct hub *h, const char *path)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return;
	n = fread(h->token, 1, sizeof(h->token) - 1, f);
	fclose(f);
	h->token[n] = '\0';
	while (n && isspace((unsigned char)h->token[n - 1]))
		h->token[--n] = '\0';
}

void hub_init(struct hub *h, const char *repo)
{
	const char *home = env("HF_HOME"), *v;
	char base[2048];

	memset(h, 0, sizeof(*h));
	snprintf(h->repo, sizeof(h->repo), "%s", repo);
	snprintf(h->revision, sizeof(h->revision), "main");
	if (home)
		snprintf(base, sizeof(base), "%s", home);
	else if ((v = env("XDG_CACHE_HOME")))
		snprintf(base, sizeof(base), "%s/huggingface", v);
	else
		snprintf(base, sizeof(base), "%s/.cache/huggingface", env("HOME") ? env("HOME") : "");
	if ((v = env("HF_HUB_CACHE")) || (v = env("HUGGINGFACE_HUB_CACHE")))
		snprintf(h->cache, sizeof(h->cache), "%s", v);
	else
		snprintf(h->cache, sizeof(h->cache), "%s/hub", base);
	snprintf(h->endpoint, sizeof(h->endpoint), "%s", env("HF_ENDPOINT") ? env("HF_ENDPOINT") : HUB_DEFAULT_ENDPOINT);
	for (size_t n = strlen(h->endpoint); n && h->endpoint[n - 1] == '/'; n--)
		h->endpoint[n - 1] = '\0';
	if ((v = env("HF_TOKEN")) || (v = env("HUGGING_FACE_HUB_TOKEN")))
		snprintf(h->token, sizeof(h->token), "%s", v);
	else if ((v = env("HF_TOKEN_PATH")))
		read_token_file(h, v);
	else {
		char path[2100];

		snprintf(path, sizeof(path), "%s/token", base);
		read_token_file(h, path);
	}
	h->offline = env_true("HF_HUB_OFFLINE");
	h->timeout_s = 10;
	if ((v = env("HF_HUB_DOWNLOAD_TIMEOUT")) && atoi(v) > 0 && atoi(v) <= 3600)
		h->timeout_s = atoi(v);
}

/* ---- the cache: reading --------------------------------------------------------- */

static void repo_folder(const struct hub *h, char *out, size_t n)
{
	const char *slash = strchr(h->repo, '/');

	snprintf(out, n, "models--%.*s--%s", (int)(slash - h->repo), h->repo, slash + 1);
}

static bool is_sha(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return (n == 40 || n == 64) && !s[n];
}

/* Open name under dir as a folder, never through a link. */
static int open_dir_at(int dir, const char *name)
{
	return openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* The repository's folder in the cache, or -1. */
static int open_repo(const struct hub *h)
{
	char name[256];
	int root, fd;

	if ((root = open(h->cache, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	repo_folder(h, name, sizeof(name));
	fd = open_dir_at(root, name);
	close(root);
	return fd;
}

/* Read at most max bytes of fd; *len < the file's size when cut. */
static int read_fd(int fd, size_t max, char **out, size_t *len)
{
	size_t n = 0, cap = max < 4096 ? max : 4096;
	char *buf = malloc(cap + 1);

	while (buf) {
		ssize_t r;

		if (n == cap && cap < max) {
			char *nb = realloc(buf, (cap = cap * 2 < max ? cap * 2 : max) + 1);

			if (!nb)
				break;
			buf = nb;
		}
		if (n == cap)
			break;
		if ((r = read(fd, buf + n, cap - n)) < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0)
				break;
			buf[n] = '\0';
			*out = buf;
			*len = n;
			return 0;
		}
		n += (size_t)r;
	}
	if (buf && n == cap) {
		buf[n] = '\0';
		*out = buf;
		*len = n;
		return 1;   /* cut at max */
	}
	free(buf);
	return -1;
}

/* The commit refs/REVISION names, in h->sha; false when not cached. */
static bool cached_sha(struct hub *h, int repo)
{
	char *text = NULL;
	size_t len;
	int refs, fd;

	if (is_sha(h->revision)) {
		snprintf(h->sha, sizeof(h->sha), "%.64s", h->revision);
		return true;
	}
	if ((refs = open_dir_at(repo, "refs")) < 0)
		return false;
	fd = openat(refs, h->revision, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(refs);
	if (fd < 0)
		return false;
	if (read_fd(fd, 128, &text, &len) == 0) {
		while (len && isspace((unsigned char)text[len - 1]))
			text[--len] = '\0';
		if (is_sha(text))
			snprintf(h->sha, sizeof(h->sha), "%.64s", text);
	}
	free(text);
	close(fd);
	return h->sha[0] != '\0';
}

/* A snapshot's file: a plain file, or a link to ../../blobs/NAME of the
 * same repository (the only link followed). -1 when absent or elsewhere. */
static int open_snapshot_file(int repo, const char *sha, const char *file)
{
	char target[512], *blob;
	int snaps, dir, fd = -1;
	ssize_t n;

	if ((snaps = open_dir_at(repo, "snapshots")) < 0)
		return -1;
	dir = open_dir_at(snaps, sha);
	close(snaps);
	if (dir < 0)
		return -1;
	if ((n = readlinkat(dir, file, target, sizeof(target) - 1)) >= 0) {
		target[n] = '\0';
		blob = target + strlen("../../blobs/");
		if (!strncmp(target, "../../blobs/", strlen("../../blobs/")) && *blob && !strchr(blob, '/') &&
		    strcmp(blob, "..") && strcmp(blob, ".")) {
			int blobs = open_dir_at(repo, "blobs");

			if (blobs >= 0) {
				fd = openat(blobs, blob, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
				close(blobs);
			}
		}
	} else if (errno == EINVAL) {
		fd = openat(dir, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	}
	close(dir);
	return fd;
}

/* huggingface_hub's ".no_exist/SHA/FILE": the file is known to be absent. */
static bool cached_absent(int repo, const char *sha, const char *file)
{
	struct stat st;
	int ne, dir;
	bool absent;

	if ((ne = open_dir_at(repo, ".no_exist")) < 0)
		return false;
	dir = open_dir_at(ne, sha);
	close(ne);
	if (dir < 0)
		return false;
	absent = fstatat(dir, file, &st, AT_SYMLINK_NOFOLLOW) == 0;
	close(dir);
	return absent;
}

/* From the cache: HUB_OK, HUB_ABSENT (known absent), HUB_OFFLINE (not there). */
static enum hub_status cache_get(struct hub *h, const char *file, size_t max, bool prefix, char **out, size_t *len)
{
	int repo, fd, rc;
	struct stat st;

	if ((repo = open_repo(h)) < 0)
		return HUB_OFFLINE;
	if (!cached_sha(h, repo)) {
		close(repo);
		return HUB_OFFLINE;
	}
	if ((fd = open_snapshot_file(repo, h->sha, file)) < 0) {
		rc = cached_absent(repo, h->sha, file) ? HUB_ABSENT : HUB_OFFLINE;
		close(repo);
		return rc;
	}
	close(repo);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return HUB_OFFLINE;
	}
	rc = read_fd(fd, max, out, len);
	close(fd);
	if (rc < 0 || (rc > 0 && !prefix)) {
		if (rc > 0)
			free(*out);
		snprintf(h->err, sizeof(h->err), _("cannot read %s of '%s' in the cache %s"), file, h->repo, h->cache);
		return HUB_FAILED;
	}
	h->cached = true;
	return HUB_OK;
}

/* ---- the cache: writing ------------------------------------------------------------ */

/* The folder rel ("a/b/c") under the cache, made where missing (0755),
 * every step opened without following a link. */
static int make_dirs(const struct hub *h, const char *rel)
{
	char part[256], path[3072];
	const char *p = rel;
	int dir, next;

	/* the cache folder itself may be anywhere the user points it, through links */
	snprintf(path, sizeof(path), "%s", h->cache);
	for (char *s = path + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(path, 0755);
			*s = '/';
		}
	mkdir(path, 0755);
	if ((dir = open(h->cache, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	while (*p) {
		size_t n = strcspn(p, "/");

		snprintf(part, sizeof(part), "%.*s", (int)n, p);
		if (mkdirat(dir, part, 0755) < 0 && errno != EEXIST) {
			close(dir);
			return -1;
		}
		next = open_dir_at(dir, part);
		close(dir);
		if ((dir = next) < 0)
			return -1;
		p += n + (p[n] == '/');
	}
	return dir;
}

/* Write data as rel/name: a temporary file beside it, then rename. */
static int store(const struct hub *h, const char *rel, const char *name, const char *data, size_t len)
{
	char tmp[128];
	size_t done = 0;
	int dir, fd;

	if ((dir = make_dirs(h, rel)) < 0)
		return -1;
	snprintf(tmp, sizeof(tmp), ".gpuwise-%ld-%ld.incomplete", (long)getpid(), (long)time(NULL));
	if ((fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) < 0) {
		close(dir);
		return -1;
	}
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	if (close(fd) < 0 || done < len || renameat(dir, tmp, dir, name) < 0) {
		unlinkat(dir, tmp, 0);
		close(dir);
		return -1;
	}
	close(dir);
	return 0;
}

static void cache_put(const struct hub *h, const char *file, const char *data, size_t len)
{
	char folder[256], rel[512];

	if (!h->sha[0] || !is_sha(h->sha))
		return;
	repo_folder(h, folder, sizeof(folder));
	snprintf(rel, sizeof(rel), "%s/snapshots/%s", folder, h->sha);
	if (store(h, rel, file, data, len) < 0) {
		warning_msg(_("cannot store %s of '%s' in the cache %s: %s"), file, h->repo, h->cache, strerror(errno));
		return;
	}
	snprintf(rel, sizeof(rel), "%s/refs", folder);
	if (!is_sha(h->revision) && store(h, rel, h->revision, h->sha, strlen(h->sha)) < 0) {
		char ref[160];

		snprintf(ref, sizeof(ref), "refs/%s", h->revision);
		warning_msg(_("cannot store %s of '%s' in the cache %s: %s"), ref, h->repo, h->cache, strerror(errno));
	}
}

static void cache_put_absent(const struct hub *h, const char *file)
{
	char folder[256], rel[512];

	if (!h->sha[0] || !is_sha(h->sha))
		return;
	repo_folder(h, folder, sizeof(folder));
	snprintf(rel, sizeof(rel), "%s/.no_exist/%s", folder, h->sha);
	(void)store(h, rel, file, "", 0);
}

/* ---- libcurl, loaded when a download is needed ----------------------------------------- */

/* GPUWISE_CURL_LIBRARY names the file to load instead (unusual installs;
 * the tests point it at nothing to see gpuwise without libcurl). */
static int hub_curl_load(struct hub *h)
{
	const char *name = CURL_SONAME;
	char why[512];
	int rc = curl_load(&name, why, sizeof(why));

	if (rc == -1)
		snprintf(h->err, sizeof(h->err),
			 _("cannot download '%s': %s cannot be loaded (Debian/Ubuntu: apt install libcurl4): %s; "
			   "or put the model in the Hugging Face cache (%s) or give its config.json"),
			 h->repo, name, why, h->cache);
	else if (rc == -2)
		snprintf(h->err, sizeof(h->err), _("cannot download '%s': %s has no %s"), h->repo, name, why);
	return rc < 0 ? -1 : 0;
}

struct transfer {
	CURL *curl;
	char *buf;
	size_t len, cap, max;
	bool over;
	char commit[72];
	char error_code[64];
};

static size_t on_body(char *data, size_t size, size_t nmemb, void *arg)
{
	struct transfer *t = arg;
	size_t n = size * nmemb, take = n;
	long code = 0;

	/* the body of an error (404, 401) or a redirect is not the file */
	if (curl.easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK || (code != 200 && code != 206))
		return n;
	if (t->len + take > t->max) {
		take = t->max - t->len;
		t->over = true;
	}
	if (t->len + take > t->cap) {
		size_t cap = t->cap ? t->cap : 16384;
		char *nb;

		while (cap < t->len + take)
			cap *= 2;
		if (cap > t->max)
			cap = t->max;
		if (!(nb = realloc(t->buf, cap + 1)))
			return 0;
		t->buf = nb;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, data, take);
	t->len += take;
	return t->over ? 0 : n;
}

/* The header value of line when it is `name: value`, trimmed, into out. */
static void header_value(const char *line, size_t n, const char *name, char *out, size_t outsz)
{
	size_t k = strlen(name), e;

	if (n <= k + 1 || strncasecmp(line, name, k) || line[k] != ':')
		return;
	line += k + 1;
	n -= k + 1;
	while (n && (*line == ' ' || *line == '\t'))
		line++, n--;
	for (e = n; e && isspace((unsigned char)line[e - 1]); e--)
		;
	if (e < outsz) {
		memcpy(out, line, e);
		out[e] = '\0';
	}
}

static size_t on_header(char *line, size_t size, size_t nmemb, void *arg)
{
	struct transfer *t = arg;
	size_t n = size * nmemb;

	if (n >= 5 && !strncmp(line, "HTTP/", 5))
		t->error_code[0] = '\0';   /* a new response (after a redirect) */
	if (!t->commit[0])
		header_value(line, n, "X-Repo-Commit", t->commit, sizeof(t->commit));
	header_value(line, n, "X-Error-Code", t->error_code, sizeof(t->error_code));
	return n;
}

static enum hub_status http_status(struct hub *h, const char *file, long code, const struct transfer *t)
{
	if (code == 401 || code == 403) {
		if (!strcmp(t->error_code, "RepoNotFound")) {
			snprintf(h->err, sizeof(h->err),
				 _("no model '%s' on %s (or it is private: set HF_TOKEN); check the name"), h->repo,
				 h->endpoint);
			return HUB_NO_REPO;
		}
		if (h->token[0])
			snprintf(h->err, sizeof(h->err),
				 _("'%s' is gated and HF_TOKEN gives no access to it (HTTP %ld): accept the licence "
				   "at %s/%s with the account of that token"), h->repo, code, h->endpoint, h->repo);
		else
			snprintf(h->err, sizeof(h->err),
				 _("'%s' is gated (HTTP %ld): set HF_TOKEN to a token of an account that accepted "
				   "the licence at %s/%s"), h->repo, code, h->endpoint, h->repo);
		return HUB_GATED;
	}
	if (code == 404) {
		if (!strcmp(t->error_code, "EntryNotFound")) {
			snprintf(h->err, sizeof(h->err), _("'%s' has no %s (revision %s)"), h->repo, file, h->revision);
			return HUB_ABSENT;
		}
		if (!strcmp(t->error_code, "RevisionNotFound"))
			snprintf(h->err, sizeof(h->err), _("'%s' has no revision '%s' on %s"), h->repo, h->revision,
				 h->endpoint);
		else
			snprintf(h->err, sizeof(h->err), _("no model '%s' on %s; check the name"), h->repo, h->endpoint);
		return HUB_NO_REPO;
	}
	snprintf(h->err, sizeof(h->err), _("%s answered HTTP %ld for %s of '%s'"), h->endpoint, code, file, h->repo);
	return HUB_FAILED;
}

static enum hub_status curl_error(struct hub *h, int rc, const char *errbuf)
{
	if (rc == CURLE_OPERATION_TIMEDOUT) {
		snprintf(h->err, sizeof(h->err),
			 _("%s did not answer within %d s for '%s' (HF_HUB_DOWNLOAD_TIMEOUT sets the limit; "
			   "HF_HUB_OFFLINE=1 uses the cache only)"), h->endpoint, h->timeout_s, h->repo);
		return HUB_TIMEOUT;
	}
	snprintf(h->err, sizeof(h->err), _("cannot download '%s' from %s: %s"), h->repo, h->endpoint,
		 errbuf[0] ? errbuf : curl.easy_strerror(rc));
	return HUB_FAILED;
}

static void set_protocols(CURL *c, const char *endpoint)
{
	long both = CURLPROTO_HTTP | CURLPROTO_HTTPS;

	/* an https endpoint is never redirected down to plain http */
	curl.easy_setopt(c, CURLOPT_PROTOCOLS, both);
	curl.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS, strncasecmp(endpoint, "https:", 6) ? both : (long)CURLPROTO_HTTPS);
}

/* GET file (its first `max` bytes with prefix): 0 status HUB_OK with t filled. */
static enum hub_status download(struct hub *h, const char *file, size_t max, bool prefix, struct transfer *t)
{
	char url[2048], auth[600], range[64], agent[64], errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *headers = NULL;
	enum hub_status st = HUB_OK;
	long code = 0;
	CURL *c;
	int rc;

	if (hub_curl_load(h) < 0)
		return HUB_NO_CURL;
	if (!(c = curl.easy_init())) {
		snprintf(h->err, sizeof(h->err), _("cannot download '%s': libcurl failed to start"), h->repo);
		return HUB_FAILED;
	}
	memset(t, 0, sizeof(*t));
	t->curl = c;
	t->max = max;
	snprintf(url, sizeof(url), "%s/%s/resolve/%s/%s", h->endpoint, h->repo, h->revision, file);
	snprintf(agent, sizeof(agent), "gpuwise/%s", gw_version());
	if (h->token[0]) {
		snprintf(auth, sizeof(auth), "Authorization: Bearer %s", h->token);
		headers = curl.slist_append(headers, auth);
	}
	curl.easy_setopt(c, CURLOPT_URL, url);
	curl.easy_setopt(c, CURLOPT_USERAGENT, agent);
	curl.easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	curl.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl.easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	set_protocols(c, h->endpoint);
	curl.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl.easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long)h->timeout_s);
	curl.easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl.easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)h->timeout_s);
	curl.easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl.easy_setopt(c, CURLOPT_WRITEDATA, t);
	curl.easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl.easy_setopt(c, CURLOPT_HEADERDATA, t);
	if (prefix) {
		snprintf(range, sizeof(range), "0-%zu", max - 1);
		curl.easy_setopt(c, CURLOPT_RANGE, range);
	}
	rc = curl.easy_perform(c);
	curl.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	curl.easy_cleanup(c);
	curl.slist_free_all(headers);
	if (rc == CURLE_WRITE_ERROR && t->over && prefix && (code == 200 || code == 206))
		rc = CURLE_OK;   /* a server that ignores Range: the prefix is all that was wanted */
	if (rc == CURLE_WRITE_ERROR && t->over) {
		snprintf(h->err, sizeof(h->err), _("%s of '%s' is larger than %zu bytes"), file, h->repo, max);
		st = HUB_FAILED;
	} else if (rc != CURLE_OK)
		st = curl_error(h, rc, errbuf);
	else if (code != 200 && code != 206)
		st = http_status(h, file, code, t);
	if (st != HUB_OK) {
		free(t->buf);
		t->buf = NULL;
		return st;
	}
	if (!t->buf && !(t->buf = malloc(1))) {
		snprintf(h->err, sizeof(h->err), _("out of memory"));
		return HUB_FAILED;
	}
	t->buf[t->len] = '\0';
	h->downloaded = true;
	return HUB_OK;
}

/* ---- files ---------------------------------------------------------------------- */

static enum hub_status get(struct hub *h, const char *file, size_t max, bool prefix, char **out, size_t *len)
{
	struct transfer t = {.buf = NULL};
	enum hub_status st;

	h->err[0] = '\0';
	st = cache_get(h, file, max, prefix, out, len);
	if (st == HUB_ABSENT)
		snprintf(h->err, sizeof(h->err), _("'%s' has no %s (revision %s)"), h->repo, file, h->revision);
	if (st != HUB_OFFLINE)
		return st;
	if (h->offline) {
		snprintf(h->err, sizeof(h->err),
			 _("%s of '%s' is not in the Hugging Face cache (%s) and HF_HUB_OFFLINE is set"), file, h->repo,
			 h->cache);
		return HUB_OFFLINE;
	}
	st = download(h, file, max, prefix, &t);
	/* the server's commit is the newest: what is stored goes under it */
	if (is_sha(t.commit))
		snprintf(h->sha, sizeof(h->sha), "%.64s", t.commit);
	if (st == HUB_ABSENT)
		cache_put_absent(h, file);
	if (st != HUB_OK)
		return st;
	if (!prefix)
		cache_put(h, file, t.buf, t.len);
	*out = t.buf;
	*len = t.len;
	return HUB_OK;
}

enum hub_status hub_get(struct hub *h, const char *file, size_t max, char **out, size_t *len)
{
	return get(h, file, max, false, out, len);
}

enum hub_status hub_get_prefix(struct hub *h, const char *file, size_t n, char **out, size_t *len)
{
	return get(h, file, n, true, out, len);
}
