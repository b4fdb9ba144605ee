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

#include "exporter.h"

#ifdef GW_HAVE_EXPORTER
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <time.h>
#include <netinet/in.h>
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
 * EXP_HEAD_TIMEOUT_S. A connection is closed with shutdown() (MHD then
 * sees the end and releases it; the descriptor stays MHD's, and stays open
 * until MHD's "closed" notice, which takes it off the list first). */
struct guard_conn {
	struct guard_conn *prev, *next; /* on the list while not evicted */
	struct sockaddr_storage addr;
	int fd;
	double since;  /* monotonic seconds: when the current head began */
	bool busy;     /* its head is complete and the reply not yet sent */
	bool listed;
};

struct exp_server {
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

/* Closes g's connection (MHD finishes it on its own thread). */
static void guard_evict(struct exp_server *srv, struct guard_conn *g)
{
	guard_unlink(srv, g);
	shutdown(g->fd, SHUT_RDWR);
}

/* The oldest connection waiting for its head, from addr (NULL: any). */
static struct guard_conn *oldest_waiting(struct exp_server *srv, const struct sockaddr_storage *addr)
{
	for (struct guard_conn *g = srv->head; g; g = g->next)
		if (!g->busy && (!addr || same_address(&g->addr, addr)))
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

	pthread_mutex_lock(&srv->lock);
	while (!srv->stop) {
		struct timespec ts;
		double limit = now_mono() - EXP_HEAD_TIMEOUT_S;
		struct guard_conn *g = srv->head, *next;

		for (; g && g->since < limit; g = next) {
			next = g->next;
			if (!g->busy)
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

static bool authorized(const struct exp_server *srv, struct MHD_Connection *c)
{
	const struct exp_web_config *web = srv->cfg->web;
	char user[EXP_AUTH_MAX], password[EXP_AUTH_MAX];
	const char *header;
	bool ok;

	if (!web || web->nusers == 0)
		return true;
	header = mhd.lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	if (exp_parse_basic_auth(header, user, password) < 0)
		return false;
	ok = exp_check_password(web, user, password);
	memset(password, 0, sizeof(password));
	return ok;
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
	if (!authorized(srv, c))
		return queue_plain(c, MHD_HTTP_UNAUTHORIZED, "Unauthorized\n");
	route = exp_route(url);
	if (route == ROUTE_NONE)
		return queue_plain(c, MHD_HTTP_NOT_FOUND, "Not Found\n");
	srv->cfg->serve(srv->cfg->cls, route, &r);
	if (!r.body)
		return queue_plain(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "Internal Server Error\n");
	return queue_text(c, r.status, r.content_type, r.body, r.len, route == ROUTE_INDEX);
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
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 128) == 0)
			break;
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

static void server_free(struct exp_server *srv)
{
	pthread_cond_destroy(&srv->wake);
	pthread_mutex_destroy(&srv->lock);
	free(srv);
}

struct exp_server *exp_server_start(const struct exp_server_config *cfg, unsigned *bound_port, char *err,
				    size_t err_n)
{
	struct exp_server *srv;
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
	pthread_mutex_init(&srv->lock, NULL);
	pthread_cond_init(&srv->wake, NULL);
	if ((fd = listen_on(cfg->host, cfg->port, bound_port, err, err_n)) < 0) {
		server_free(srv);
		return NULL;
	}
	if (tls)
		flags |= MHD_USE_TLS;
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
