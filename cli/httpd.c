/* The exporter's HTTP server over libmicrohttpd: a listening socket of our
 * own (so a bind error says why, and port 0 works), a small thread pool
 * with epoll, bounded connections (in all, per address, idle time, request
 * size), GET and HEAD only, Basic auth and TLS from --web-config. Replies
 * come from the command's cached rendering (exp_serve_fn), never from a
 * vendor library. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exporter.h"

#ifdef GW_HAVE_EXPORTER
#include <fcntl.h>
#include <netdb.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <sys/random.h>
#include <time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>
#include <dlfcn.h>
#include <microhttpd.h>

/* libmicrohttpd is loaded when the exporter starts, not linked: it pulls
 * in GnuTLS and eight more libraries whose loading cost every gpuwise
 * command about 2 ms of start-up (gpuwise run's overhead,
 * docs/benchmarks.md), and only the exporter serves HTTP. */
#ifndef GW_MHD_SONAME
#define GW_MHD_SONAME "libmicrohttpd.so.12"
#endif
#define MHD_FUNCTIONS(X) \
	X(add_response_header) X(create_response_from_buffer) X(destroy_response) X(get_connection_info) \
	X(get_connection_values) X(is_feature_supported) X(lookup_connection_value) X(queue_response) X(start_daemon) X(stop_daemon)
static void *mhd_handle;
static struct {
#define X(f) __typeof__(MHD_##f) *f;
	MHD_FUNCTIONS(X)
#undef X
} mhd;

static int mhd_load(char *err, size_t err_n)
{
	void *h;

	if (mhd.stop_daemon)
		return 0;
	if (!(h = dlopen(GW_MHD_SONAME, RTLD_NOW | RTLD_LOCAL))) {
		snprintf(err, err_n, "cannot load %s (Debian: libmicrohttpd12): %s", GW_MHD_SONAME, dlerror());
		return -1;
	}
#define X(f) \
	if (!(*(void **)&mhd.f = dlsym(h, "MHD_" #f))) { \
		snprintf(err, err_n, "%s has no MHD_%s", GW_MHD_SONAME, #f); \
		return -1; \
	}
	MHD_FUNCTIONS(X)
#undef X
	mhd_handle = h;
	return 0;
}

/* A connection as the server's guard sees it. MHD's own limits refuse the
 * newest connection once an address (or the server) is full, so 64
 * half-open requests from the scraper's own address would lock the scraper
 * out, and its timeout is an idle one, so a head trickled a byte at a time
 * lives for ever. The guard keeps every connection in the order its
 * current request head began (accept, or the end of the previous reply):
 * when a limit is reached it closes the OLDEST connection still waiting for
 * its head, and a watchdog closes any head not complete within
 * EXP_HEAD_TIMEOUT_S. A connection is closed with shutdown(SHUT_RD): MHD
 * then reads the end and releases it (the descriptor stays MHD's, and
 * stays open until MHD's "closed" notice, which takes it off the list
 * first). Only the reading side is shut so that a connection whose head a
 * serving thread has already read from the socket, but not yet handed to
 * on_request (so it is neither busy nor has a head waiting), is still
 * answered: MHD has the head, the reply can be written, and the end is
 * read after it (shutting both sides would close it unanswered).
 * A connection is not seen at all before its first bytes arrive
 * (TCP_DEFER_ACCEPT, listen_on), so a scraper never waits in the list,
 * exposed to eviction, between its connect and its request. */
struct guard_conn {
	struct guard_conn *prev, *next; /* on the list while not evicted */
	struct sockaddr_storage addr;
	int fd;
	double since;  /* monotonic seconds: when the current head began */
	bool busy;     /* its head is complete and the reply not yet sent */
	bool served;   /* a reply was sent: now it waits for the next request */
	bool listed;
};

/* Basic auth without a bcrypt per request. A bcrypt check costs ~50 ms of
 * a serving thread (cost 10): one per scrape is wasteful, and wrong
 * passwords sent in a loop would keep both threads busy, delaying every
 * good scrape. So: a successful check is remembered as HMAC-SHA256(a
 * random key of this process, user NUL password) (GnuTLS, which
 * libmicrohttpd already loads; without it nothing is remembered) and later
 * compared in constant time, never stored in the clear; failed checks are
 * limited per address (AUTH_FAIL_BURST, then one per AUTH_FAIL_EVERY_S)
 * and in all (AUTH_BCRYPT_PER_S uncached checks a second): past a limit a
 * request is answered 429 without running bcrypt. A remembered pair is
 * accepted whatever the limits, so failures never delay a good scrape by
 * more than the one bcrypt a thread may be running. Failures are logged at
 * most once per AUTH_LOG_EVERY_S. */
#define AUTH_CACHE_N 16
#define AUTH_FAIL_SLOTS 256
#define AUTH_FAIL_BURST 5.0
#define AUTH_FAIL_EVERY_S 5.0
#define AUTH_BCRYPT_PER_S 10.0
#define AUTH_LOG_EVERY_S 60.0
#define GNUTLS_MAC_SHA256_ID 6 /* gnutls_mac_algorithm_t's GNUTLS_MAC_SHA256 (ABI) */

struct auth_fail {
	struct sockaddr_storage addr;
	double tokens, at;  /* failures still allowed, as of `at` */
	bool used;
};

struct auth_state {
	pthread_mutex_t lock;
	int (*hmac)(int algorithm, const void *key, size_t key_n, const void *text, size_t text_n, void *digest);
	unsigned char key[32];
	unsigned char good[AUTH_CACHE_N][32];
	unsigned ngood, next_good;
	struct auth_fail fails[AUTH_FAIL_SLOTS];
	double bcrypt_tokens, bcrypt_at;
	unsigned long failed, throttled; /* since the last log line */
	double logged_at;
	char last_addr[INET6_ADDRSTRLEN];
};

struct exp_server {
	struct auth_state auth;
	struct MHD_Daemon *daemon;
	const struct exp_server_config *cfg;
	pthread_mutex_t lock;   /* guards the list, count and stop */
	pthread_cond_t wake;
	struct guard_conn *head, *tail; /* oldest head first */
	unsigned count;         /* connections on the list */
	bool stop;
	bool watchdog_started;
	pthread_t watchdog;
};

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool same_address(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return memcmp(&((const struct sockaddr_in *)a)->sin_addr, &((const struct sockaddr_in *)b)->sin_addr,
			      sizeof(struct in_addr)) == 0;
	if (a->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			      &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
	return true;
}

static void guard_unlink(struct exp_server *srv, struct guard_conn *g)
{
	if (!g->listed)
		return;
	*(g->prev ? &g->prev->next : &srv->head) = g->next;
	*(g->next ? &g->next->prev : &srv->tail) = g->prev;
	g->prev = g->next = NULL;
	g->listed = false;
	srv->count--;
}

static void guard_append(struct exp_server *srv, struct guard_conn *g)
{
	g->prev = srv->tail;
	g->next = NULL;
	*(srv->tail ? &srv->tail->next : &srv->head) = g;
	srv->tail = g;
	g->listed = true;
	srv->count++;
}

/* Closes g's connection (MHD finishes it on its own thread, after
 * answering a head it has already read). */
static void guard_evict(struct exp_server *srv, struct guard_conn *g)
{
	guard_unlink(srv, g);
	shutdown(g->fd, SHUT_RD);
}

/* Whether g may be closed to make room for a connection from addr (NULL:
 * any address): not while being answered, nor with a whole unit unread
 * (exp_whole_unit_waiting). */
static bool evictable(const struct guard_conn *g, const struct sockaddr_storage *addr, bool tls)
{
	return !g->busy && (!addr || same_address(&g->addr, addr)) && !exp_whole_unit_waiting(g->fd, tls);
}

/* The connection to close for a new one from addr (NULL: any address):
 * the oldest kept-alive one waiting for its next request (closing it costs
 * its client a reconnection at most; among them are those whose client has
 * already gone and MHD not yet noticed), else the oldest one still waiting
 * for its first head. Two passes, so that only a few connections are
 * peeked at (a flood's connections are never served). */
static struct guard_conn *oldest_waiting(struct exp_server *srv, const struct sockaddr_storage *addr)
{
	bool tls = srv->cfg->tls_cert && srv->cfg->tls_key;

	for (int served = 1; served >= 0; served--)
		for (struct guard_conn *g = srv->head; g; g = g->next)
			if (g->served == served && evictable(g, addr, tls))
				return g;
	return NULL;
}

/* Makes room for one more connection from addr: true when there is room
 * (an older waiting connection was closed if needed). */
static bool guard_make_room(struct exp_server *srv, const struct sockaddr_storage *addr)
{
	unsigned from_addr = 0;
	struct guard_conn *g;

	for (g = srv->head; g; g = g->next)
		from_addr += same_address(&g->addr, addr);
	if (from_addr >= EXP_PER_IP_LIMIT) {
		if (!(g = oldest_waiting(srv, addr)))
			return false;
		guard_evict(srv, g);
	}
	if (srv->count >= EXP_CONN_LIMIT) {
		if (!(g = oldest_waiting(srv, NULL)))
			return false;
		guard_evict(srv, g);
	}
	return true;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct exp_server *srv = cls;
	struct guard_conn *g = *socket_context;
	const union MHD_ConnectionInfo *fd, *addr;

	if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (g) {
			pthread_mutex_lock(&srv->lock);
			guard_unlink(srv, g);
			pthread_mutex_unlock(&srv->lock);
			free(g);
			*socket_context = NULL;
		}
		return;
	}
	fd = mhd.get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	addr = mhd.get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (!fd || !addr || !addr->client_addr || !(g = calloc(1, sizeof(*g)))) {
		if (fd)
			shutdown(fd->connect_fd, SHUT_RDWR);
		return;
	}
	g->fd = fd->connect_fd;
	memcpy(&g->addr, addr->client_addr,
	       addr->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
	g->since = now_mono();
	*socket_context = g;
	pthread_mutex_lock(&srv->lock);
	if (guard_make_room(srv, &g->addr))
		guard_append(srv, g);
	else
		shutdown(g->fd, SHUT_RDWR); /* every connection of the address is busy being answered */
	pthread_mutex_unlock(&srv->lock);
}

static struct guard_conn *guard_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i = mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i ? i->socket_context : NULL;
}

/* The head of a request is complete: the connection is no longer one to
 * evict until its reply is sent. */
static void guard_head_done(struct exp_server *srv, struct MHD_Connection *c)
{
	struct guard_conn *g = guard_of(c);

	if (!g)
		return;
	pthread_mutex_lock(&srv->lock);
	g->busy = true;
	pthread_mutex_unlock(&srv->lock);
}

/* A reply was sent: a kept-alive connection waits for its next head, whose
 * deadline starts now. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	struct exp_server *srv = cls;
	struct guard_conn *g = guard_of(c);

	(void)con_cls, (void)toe;
	if (!g)
		return;
	pthread_mutex_lock(&srv->lock);
	g->busy = false;
	g->served = true;
	g->since = now_mono();
	if (g->listed) {
		guard_unlink(srv, g);
		guard_append(srv, g);
	}
	pthread_mutex_unlock(&srv->lock);
}

/* Closes every connection whose head is not complete EXP_HEAD_TIMEOUT_S
 * after it began, a few times a second, until the server stops. */
static void *watchdog(void *arg)
{
	struct exp_server *srv = arg;
	bool tls = srv->cfg->tls_cert && srv->cfg->tls_key;

	pthread_mutex_lock(&srv->lock);
	while (!srv->stop) {
		struct timespec ts;
		double limit = now_mono() - EXP_HEAD_TIMEOUT_S;
		struct guard_conn *g = srv->head, *next;

		for (; g && g->since < limit; g = next) {
			next = g->next;
			if (evictable(g, NULL, tls))
				guard_evict(srv, g);
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200 * 1000 * 1000;
		if (ts.tv_nsec >= 1000 * 1000 * 1000)
			ts.tv_sec++, ts.tv_nsec -= 1000 * 1000 * 1000;
		pthread_cond_timedwait(&srv->wake, &srv->lock, &ts);
	}
	pthread_mutex_unlock(&srv->lock);
	return NULL;
}

static const char realm_header[] = "Basic realm=\"gpuwise exporter\", charset=\"UTF-8\"";

static enum MHD_Result queue_text(struct MHD_Connection *c, int status, const char *type, char *body, size_t len,
				  bool html)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;

	resp = mhd.create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(body);
		return MHD_NO;
	}
	mhd.add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	mhd.add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	mhd.add_response_header(resp, "X-Content-Type-Options", "nosniff");
	if (html)
		mhd.add_response_header(resp, "Content-Security-Policy",
					"default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (status == MHD_HTTP_UNAUTHORIZED)
		mhd.add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, realm_header);
	ret = mhd.queue_response(c, (unsigned)status, resp);
	mhd.destroy_response(resp);
	return ret;
}

static enum MHD_Result queue_plain(struct MHD_Connection *c, int status, const char *msg)
{
	char *body = strdup(msg);

	return body ? queue_text(c, status, "text/plain; charset=utf-8", body, strlen(body), false) : MHD_NO;
}

static void auth_init(struct auth_state *a, void *lib)
{
	pthread_mutex_init(&a->lock, NULL);
	a->bcrypt_tokens = AUTH_BCRYPT_PER_S;
	a->bcrypt_at = now_mono();
	a->logged_at = -AUTH_LOG_EVERY_S;
	*(void **)&a->hmac = lib ? dlsym(lib, "gnutls_hmac_fast") : NULL;
	if (a->hmac && getrandom(a->key, sizeof(a->key), 0) != (ssize_t)sizeof(a->key))
		a->hmac = NULL;
}

static void auth_destroy(struct auth_state *a)
{
	memset(a->key, 0, sizeof(a->key));
	memset(a->good, 0, sizeof(a->good));
	pthread_mutex_destroy(&a->lock);
}

/* HMAC of user NUL password into d; false when it cannot be computed. */
static bool auth_digest(const struct auth_state *a, const char *user, const char *password, unsigned char d[32])
{
	char text[2 * EXP_AUTH_MAX];
	size_t un = strlen(user), pn = strlen(password);
	bool ok;

	if (!a->hmac)
		return false;
	memcpy(text, user, un + 1);
	memcpy(text + un + 1, password, pn);
	ok = a->hmac(GNUTLS_MAC_SHA256_ID, a->key, sizeof(a->key), text, un + 1 + pn, d) == 0;
	memset(text, 0, sizeof(text));
	return ok;
}

static bool auth_remembered(struct auth_state *a, const unsigned char d[32])
{
	bool hit = false;

	pthread_mutex_lock(&a->lock);
	for (unsigned i = 0; i < a->ngood; i++)
		hit |= exp_const_eq((const char *)a->good[i], 32, (const char *)d, 32);
	pthread_mutex_unlock(&a->lock);
	return hit;
}

static void auth_remember(struct auth_state *a, const unsigned char d[32])
{
	pthread_mutex_lock(&a->lock);
	memcpy(a->good[a->next_good], d, 32);
	a->next_good = (a->next_good + 1) % AUTH_CACHE_N;
	if (a->ngood < AUTH_CACHE_N)
		a->ngood++;
	pthread_mutex_unlock(&a->lock);
}

/* The failure bucket of addr (a free or the stalest slot when it has none). */
static struct auth_fail *auth_slot(struct auth_state *a, const struct sockaddr_storage *addr, double now)
{
	struct auth_fail *stalest = &a->fails[0];

	for (int i = 0; i < AUTH_FAIL_SLOTS; i++) {
		struct auth_fail *f = &a->fails[i];

		if (f->used && same_address(&f->addr, addr))
			return f;
		if (!f->used || (stalest->used && f->at < stalest->at))
			stalest = f;
	}
	memset(stalest, 0, sizeof(*stalest));
	stalest->used = true;
	stalest->addr = *addr;
	stalest->tokens = AUTH_FAIL_BURST;
	stalest->at = now;
	return stalest;
}

static void refill(double *tokens, double *at, double now, double per_s, double max)
{
	*tokens += (now - *at) * per_s;
	if (*tokens > max)
		*tokens = max;
	*at = now;
}

static void format_address(const struct sockaddr_storage *ss, char *buf, size_t n)
{
	const void *in = ss->ss_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)ss)->sin6_addr
						   : (const void *)&((const struct sockaddr_in *)ss)->sin_addr;

	if (!inet_ntop(ss->ss_family, in, buf, (socklen_t)n))
		snprintf(buf, n, "?");
}

/* May addr have its password checked with bcrypt now? Takes one of its
 * failures and one of the server's checks when so, before the check (so
 * that requests arriving together cannot all pass); a good password gives
 * the failure back. */
static bool auth_may_check(struct auth_state *a, const struct sockaddr_storage *addr)
{
	double now = now_mono();
	struct auth_fail *f;
	bool ok;

	pthread_mutex_lock(&a->lock);
	f = auth_slot(a, addr, now);
	refill(&f->tokens, &f->at, now, 1.0 / AUTH_FAIL_EVERY_S, AUTH_FAIL_BURST);
	refill(&a->bcrypt_tokens, &a->bcrypt_at, now, AUTH_BCRYPT_PER_S, AUTH_BCRYPT_PER_S);
	ok = f->tokens >= 1.0 && a->bcrypt_tokens >= 1.0;
	if (ok) {
		a->bcrypt_tokens -= 1.0;
		f->tokens -= 1.0;
	}
	pthread_mutex_unlock(&a->lock);
	return ok;
}

/* A good password: the failure taken by auth_may_check is given back. */
static void auth_passed(struct auth_state *a, const struct sockaddr_storage *addr)
{
	double now = now_mono();
	struct auth_fail *f;

	pthread_mutex_lock(&a->lock);
	f = auth_slot(a, addr, now);
	refill(&f->tokens, &f->at, now, 1.0 / AUTH_FAIL_EVERY_S, AUTH_FAIL_BURST);
	f->tokens = f->tokens + 1.0 > AUTH_FAIL_BURST ? AUTH_FAIL_BURST : f->tokens + 1.0;
	pthread_mutex_unlock(&a->lock);
}

/* Counts a failed (or refused) check of addr, and says so on stderr at
 * most once per AUTH_LOG_EVERY_S. */
static void auth_failed(struct auth_state *a, const struct sockaddr_storage *addr, bool checked)
{
	double now = now_mono();
	unsigned long failed = 0, throttled = 0;
	char who[INET6_ADDRSTRLEN];

	pthread_mutex_lock(&a->lock);
	a->failed += checked;
	a->throttled += !checked;
	format_address(addr, a->last_addr, sizeof(a->last_addr));
	if (now - a->logged_at >= AUTH_LOG_EVERY_S) {
		failed = a->failed, throttled = a->throttled;
		memcpy(who, a->last_addr, sizeof(who));
		a->failed = a->throttled = 0;
		a->logged_at = now;
	}
	pthread_mutex_unlock(&a->lock);
	if (failed || throttled) {
		fputs("gpuwise: ", stderr);
		fprintf(stderr, _("exporter: %lu wrong Basic auth credentials, %lu more refused unchecked (too many "
				  "failures), the last from %s"), failed, throttled, who);
		fputc('\n', stderr);
	}
}

enum auth_result { AUTH_OK, AUTH_DENIED, AUTH_THROTTLED };

static enum auth_result authorized(struct exp_server *srv, struct MHD_Connection *c)
{
	const struct exp_web_config *web = srv->cfg->web;
	char user[EXP_AUTH_MAX], password[EXP_AUTH_MAX];
	struct sockaddr_storage addr = { 0 };
	struct guard_conn *g = guard_of(c);
	unsigned char d[32];
	const char *header;
	bool ok, have_digest;

	if (!web || web->nusers == 0)
		return AUTH_OK;
	if (g)
		addr = g->addr;
	header = mhd.lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	if (exp_parse_basic_auth(header, user, password) < 0)
		return AUTH_DENIED; /* no credentials: the browser's first request, not counted */
	have_digest = auth_digest(&srv->auth, user, password, d);
	if (have_digest && auth_remembered(&srv->auth, d)) {
		memset(password, 0, sizeof(password));
		return AUTH_OK;
	}
	if (!auth_may_check(&srv->auth, &addr)) {
		memset(password, 0, sizeof(password));
		auth_failed(&srv->auth, &addr, false);
		return AUTH_THROTTLED;
	}
	ok = exp_check_password(web, user, password);
	memset(password, 0, sizeof(password));
	if (ok)
		auth_passed(&srv->auth, &addr);
	if (ok && have_digest)
		auth_remember(&srv->auth, d);
	if (!ok)
		auth_failed(&srv->auth, &addr, true);
	memset(d, 0, sizeof(d));
	return ok ? AUTH_OK : AUTH_DENIED;
}

static enum MHD_Result check_header_name(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	(void)kind, (void)value;
	if (exp_header_name_ok(key))
		return MHD_YES;
	*(bool *)cls = true;
	return MHD_NO;
}

/* Some header's name is not a token (MHD keeps "Content-Length " as a
 * name of its own, which would let a body past the check below). */
static bool bad_header_name(struct MHD_Connection *c)
{
	bool bad = false;

	mhd.get_connection_values(c, MHD_HEADER_KIND, check_header_name, &bad);
	return bad;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	struct exp_server *srv = cls;
	struct exp_reply r = { 0 };
	enum exp_route route;

	(void)version, (void)upload;
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return queue_plain(c, MHD_HTTP_METHOD_NOT_ALLOWED, "Method Not Allowed\n");
	if (bad_header_name(c))
		return queue_plain(c, MHD_HTTP_BAD_REQUEST, "Bad Request\n");
	/* A request body is never read: answered at once (and the connection
	 * closed). Without one, the reply waits for MHD's second call, so the
	 * connection can be kept alive for the next scrape. */
	if (mhd.lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH) ||
	    mhd.lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING))
		return queue_plain(c, MHD_HTTP_CONTENT_TOO_LARGE, "Request bodies are not accepted\n");
	if (!*con_cls) {
		*con_cls = srv;
		guard_head_done(srv, c);
		return MHD_YES;
	}
	if (*upload_size)
		return MHD_NO;
	switch (authorized(srv, c)) {
	case AUTH_OK:
		break;
	case AUTH_DENIED:
		return queue_plain(c, MHD_HTTP_UNAUTHORIZED, "Unauthorized\n");
	case AUTH_THROTTLED:
		return queue_plain(c, MHD_HTTP_TOO_MANY_REQUESTS, "Too Many Requests\n");
	}
	route = exp_route(url);
	if (route == ROUTE_NONE)
		return queue_plain(c, MHD_HTTP_NOT_FOUND, "Not Found\n");
	srv->cfg->serve(srv->cfg->cls, route, &r);
	if (!r.body)
		return queue_plain(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "Internal Server Error\n");
	return queue_text(c, r.status, r.content_type, r.body, r.len, route == ROUTE_INDEX);
}

/* A connection is accepted only once its first bytes have arrived (or
 * after EXP_HEAD_TIMEOUT_S without any): every HTTP and TLS client speaks
 * first, and the guard then never sees a scraper's connection before its
 * request. Without it, a flood reconnecting thousands of times a second
 * from the scraper's address pushed a scraper that was descheduled for a
 * millisecond or two between connect and send out of the list (1 in about
 * 1000 scrapes under ASan). Deferred connections wait in the kernel's SYN
 * queue, which the listen backlog bounds: SOMAXCONN (the kernel caps it at
 * net.core.somaxconn) keeps a few hundred of them from overflowing it
 * into SYN cookies, which accept without waiting for data. */
static void defer_accept(int fd)
{
#ifdef TCP_DEFER_ACCEPT
	int secs = EXP_HEAD_TIMEOUT_S;

	setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &secs, sizeof(secs));
#else
	(void)fd;
#endif
}

/* A listening socket on host:port ("" = every address, IPv6 and IPv4). */
static int listen_on(const char *host, unsigned port, unsigned *bound, char *err, size_t err_n)
{
	struct addrinfo hints = { 0 }, *res = NULL, *ai;
	char service[8];
	int fd = -1, e = 0, rc;

	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(service, sizeof(service), "%u", port);
	if (!*host)
		hints.ai_family = AF_INET6; /* "::" with IPV6_V6ONLY off takes IPv4 as well */
	rc = getaddrinfo(*host ? host : NULL, service, &hints, &res);
	if (rc != 0 && !*host) {
		hints.ai_family = AF_INET;
		rc = getaddrinfo(NULL, service, &hints, &res);
	}
	if (rc != 0) {
		snprintf(err, err_n, "cannot listen on '%s': %s", host, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		int one = 1, zero = 0;

		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			e = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6 && !*host)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0) {
			defer_accept(fd);
			break;
		}
		e = errno;
		close(fd);
		fd = -1;
	}
	if (fd >= 0) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);

		*bound = port;
		if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
			*bound = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
							       : ((struct sockaddr_in *)&ss)->sin_port);
	} else {
		snprintf(err, err_n, "cannot listen on %s%s%s:%u: %s", strchr(host, ':') ? "[" : "", host,
			 strchr(host, ':') ? "]" : "", port, strerror(e ? e : EADDRNOTAVAIL));
	}
	freeaddrinfo(res);
	return fd;
}

/* GnuTLS's priority string for the versions of the web config: forward
 * secret key exchanges only (no static RSA, no plain PSK), no DTLS. */
static void tls_priorities(const struct exp_web_config *web, char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "NORMAL:-VERS-ALL");

	for (int v = exp_tls_min(web); v <= exp_tls_max(web) && len < n; v++)
		len += (size_t)snprintf(buf + len, n - len, ":+VERS-TLS1.%d", v - 10);
	if (len < n)
		snprintf(buf + len, n - len, ":-RSA:-PSK:-RSA-PSK:-DHE-PSK:-ECDHE-PSK");
}

/* Warns when the certificate (PEM) has expired or is not valid yet, with
 * GnuTLS's X.509 parser (loaded with libmicrohttpd); says nothing when it
 * cannot tell. */
struct gw_datum { unsigned char *data; unsigned int size; }; /* gnutls_datum_t */
static void warn_certificate_dates(const char *pem)
{
	int (*init)(void **), (*import)(void *, const struct gw_datum *, int);
	time_t (*not_after)(void *), (*not_before)(void *);
	void (*deinit)(void *);
	struct gw_datum d = { (unsigned char *)pem, (unsigned)strlen(pem) };
	void *crt = NULL;

	*(void **)&init = dlsym(mhd_handle, "gnutls_x509_crt_init");
	*(void **)&import = dlsym(mhd_handle, "gnutls_x509_crt_import");
	*(void **)&not_after = dlsym(mhd_handle, "gnutls_x509_crt_get_expiration_time");
	*(void **)&not_before = dlsym(mhd_handle, "gnutls_x509_crt_get_activation_time");
	*(void **)&deinit = dlsym(mhd_handle, "gnutls_x509_crt_deinit");
	if (!init || !import || !not_after || !not_before || !deinit || init(&crt) < 0)
		return;
	if (import(crt, &d, 1 /* GNUTLS_X509_FMT_PEM */) >= 0) {
		time_t now = time(NULL), after = not_after(crt), before = not_before(crt);
		char when[32] = "?";
		struct tm tm;

		if (after != (time_t)-1 && after < now) {
			if (gmtime_r(&after, &tm))
				strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
			warning_msg(_("the TLS certificate expired on %s; clients will refuse it"), when);
		} else if (before != (time_t)-1 && before > now) {
			if (gmtime_r(&before, &tm))
				strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
			warning_msg(_("the TLS certificate is not valid before %s; clients will refuse it"), when);
		}
	}
	deinit(crt);
}

static void server_free(struct exp_server *srv)
{
	auth_destroy(&srv->auth);
	pthread_cond_destroy(&srv->wake);
	pthread_mutex_destroy(&srv->lock);
	free(srv);
}

struct exp_server *exp_server_start(const struct exp_server_config *cfg, unsigned *bound_port, char *err,
				    size_t err_n)
{
	struct exp_server *srv;
	char priorities[160];
	unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD;
	bool tls = cfg->tls_cert && cfg->tls_key;
	int fd;

	if (mhd_load(err, err_n) < 0)
		return NULL;
	if (tls && mhd.is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(err, err_n, "TLS is asked for in the web config, but this libmicrohttpd was built without it");
		return NULL;
	}
	if (mhd.is_feature_supported(MHD_FEATURE_EPOLL) != MHD_YES)
		flags = MHD_USE_POLL_INTERNAL_THREAD;
	if (!(srv = calloc(1, sizeof(*srv)))) {
		snprintf(err, err_n, "out of memory");
		return NULL;
	}
	srv->cfg = cfg;
	auth_init(&srv->auth, mhd_handle);
	pthread_mutex_init(&srv->lock, NULL);
	pthread_cond_init(&srv->wake, NULL);
	if ((fd = listen_on(cfg->host, cfg->port, bound_port, err, err_n)) < 0) {
		server_free(srv);
		return NULL;
	}
	if (tls) {
		flags |= MHD_USE_TLS;
		tls_priorities(cfg->web, priorities, sizeof(priorities));
		warn_certificate_dates(cfg->tls_cert);
	}
	/* The guard (on_connection) keeps the limits; MHD's own are set above
	 * them, for connections the guard has closed and MHD not yet released. */
	srv->daemon = mhd.start_daemon(flags | MHD_USE_ITC, 0, NULL, NULL, on_request, srv,
		MHD_OPTION_LISTEN_SOCKET, fd,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)EXP_THREADS,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)(EXP_CONN_LIMIT + EXP_CONN_SLACK),
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)EXP_CONN_TIMEOUT_S,
		MHD_OPTION_STRICT_FOR_CLIENT, (int)1, /* HTTP/1.1 needs Host */
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)EXP_CONN_MEMORY,
		MHD_OPTION_THREAD_STACK_SIZE, (size_t)(256 * 1024),
		tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, cfg->tls_key,
		MHD_OPTION_HTTPS_MEM_CERT, cfg->tls_cert,
		MHD_OPTION_HTTPS_PRIORITIES, priorities,
		MHD_OPTION_END);
	if (!srv->daemon) {
		snprintf(err, err_n, tls ? "the HTTP server did not start (is the TLS key the certificate's, "
					   "both in PEM form?)" : "the HTTP server did not start");
		close(fd);
		server_free(srv);
		return NULL;
	}
	if (pthread_create(&srv->watchdog, NULL, watchdog, srv) != 0) {
		snprintf(err, err_n, "cannot start the connection watchdog thread");
		exp_server_stop(srv);
		return NULL;
	}
	srv->watchdog_started = true;
	return srv;
}

void exp_server_stop(struct exp_server *srv)
{
	if (!srv)
		return;
	if (srv->watchdog_started) {
		pthread_mutex_lock(&srv->lock);
		srv->stop = true;
		pthread_cond_signal(&srv->wake);
		pthread_mutex_unlock(&srv->lock);
		pthread_join(srv->watchdog, NULL);
	}
	mhd.stop_daemon(srv->daemon);
	server_free(srv);
}

#else

struct exp_server *exp_server_start(const struct exp_server_config *cfg, unsigned *bound_port, char *err,
				    size_t err_n)
{
	(void)cfg, (void)bound_port;
	snprintf(err, err_n, "this gpuwise was built without libmicrohttpd (install libmicrohttpd-dev, "
		 "libyaml-dev and libcrypt-dev, e.g. with scripts/setup, and rebuild)");
	return NULL;
}

void exp_server_stop(struct exp_server *srv)
{
	(void)srv;
}

#endif
