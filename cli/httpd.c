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
	X(add_response_header) X(create_response_from_buffer) X(destroy_response) X(is_feature_supported) \
	X(lookup_connection_value) X(queue_response) X(start_daemon) X(stop_daemon)
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

struct exp_server {
	struct MHD_Daemon *daemon;
	const struct exp_server_config *cfg;
};

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

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	struct exp_server *srv = cls;
	struct exp_reply r = { 0 };
	enum exp_route route;

	(void)version, (void)upload;
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return queue_plain(c, MHD_HTTP_METHOD_NOT_ALLOWED, "Method Not Allowed\n");
	/* A request body is never read: answered at once (and the connection
	 * closed). Without one, the reply waits for MHD's second call, so the
	 * connection can be kept alive for the next scrape. */
	if (mhd.lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH) ||
	    mhd.lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING))
		return queue_plain(c, MHD_HTTP_CONTENT_TOO_LARGE, "Request bodies are not accepted\n");
	if (!*con_cls) {
		*con_cls = srv;
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
	if ((fd = listen_on(cfg->host, cfg->port, bound_port, err, err_n)) < 0) {
		free(srv);
		return NULL;
	}
	if (tls)
		flags |= MHD_USE_TLS;
	srv->daemon = mhd.start_daemon(flags, 0, NULL, NULL, on_request, srv,
		MHD_OPTION_LISTEN_SOCKET, fd,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)EXP_THREADS,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)EXP_CONN_LIMIT,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)EXP_PER_IP_LIMIT,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)EXP_CONN_TIMEOUT_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)EXP_CONN_MEMORY,
		MHD_OPTION_THREAD_STACK_SIZE, (size_t)(256 * 1024),
		tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, cfg->tls_key,
		MHD_OPTION_HTTPS_MEM_CERT, cfg->tls_cert,
		MHD_OPTION_END);
	if (!srv->daemon) {
		snprintf(err, err_n, tls ? "the HTTP server did not start (is the TLS key the certificate's, "
					   "both in PEM form?)" : "the HTTP server did not start");
		close(fd);
		free(srv);
		return NULL;
	}
	return srv;
}

void exp_server_stop(struct exp_server *srv)
{
	if (!srv)
		return;
	mhd.stop_daemon(srv->daemon);
	free(srv);
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
