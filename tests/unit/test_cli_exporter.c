/* The exporter's own HTTP pieces (cli/exporter_http.c): routes, the Basic
 * auth header, --listen, the web-config file and bcrypt checks; and the
 * Prometheus text rendering of a snapshot (cli/exporter_render.c): label
 * escaping, one HELP/TYPE per family, the exporter's own series. End to end
 * over HTTP in tests/cli/test_exporter.sh. */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "exporter.h"

static void test_routes(void)
{
	CHECK_INT(exp_route("/"), ROUTE_INDEX);
	CHECK_INT(exp_route("/metrics"), ROUTE_METRICS);
	CHECK_INT(exp_route("/health"), ROUTE_HEALTH);
	CHECK_INT(exp_route("/api/status"), ROUTE_STATUS);
	CHECK_INT(exp_route("/metrics/"), ROUTE_NONE);
	CHECK_INT(exp_route("/../metrics"), ROUTE_NONE);
	CHECK_INT(exp_route("//metrics"), ROUTE_NONE);
	CHECK_INT(exp_route(""), ROUTE_NONE);
	CHECK_INT(exp_route(NULL), ROUTE_NONE);
}

static void test_basic_auth(void)
{
	char u[EXP_AUTH_MAX], p[EXP_AUTH_MAX], big[1200];

	CHECK_INT(exp_parse_basic_auth("Basic YWxpY2U6czNjcmV0OnB3", u, p), 0); /* alice:s3cret:pw */
	CHECK_STR(u, "alice");
	CHECK_STR(p, "s3cret:pw");
	CHECK_INT(exp_parse_basic_auth("basic \t YTo=  ", u, p), 0); /* a: */
	CHECK_STR(u, "a");
	CHECK_STR(p, "");
	CHECK_INT(exp_parse_basic_auth("Basic YWxpY2U=", u, p), -1);  /* no ':' */
	CHECK_INT(exp_parse_basic_auth("Basic YWxpY2U", u, p), -1);   /* unpadded */
	CHECK_INT(exp_parse_basic_auth("Basic YW=xY2U=", u, p), -1);  /* '=' inside */
	CHECK_INT(exp_parse_basic_auth("Basic YQBiOmM=", u, p), -1);  /* NUL inside */
	CHECK_INT(exp_parse_basic_auth("Bearer YTpi", u, p), -1);
	CHECK_INT(exp_parse_basic_auth("BasicYTpi", u, p), -1);
	CHECK_INT(exp_parse_basic_auth("Basic", u, p), -1);
	CHECK_INT(exp_parse_basic_auth(NULL, u, p), -1);
	memcpy(big, "Basic ", 6);
	memset(big + 6, 'Q', sizeof(big) - 7);
	big[sizeof(big) - 1] = '\0';
	CHECK_INT(exp_parse_basic_auth(big, u, p), -1); /* longer than any accepted pair */
	CHECK(exp_const_eq("abc", 3, "abc", 3));
	CHECK(!exp_const_eq("abc", 3, "abd", 3));
	CHECK(!exp_const_eq("abc", 3, "abcd", 4));
	CHECK(exp_header_name_ok("Content-Length"));
	CHECK(exp_header_name_ok("X-a.b_c~!#$%&'*+^`|"));
	CHECK(!exp_header_name_ok("Content-Length "));
	CHECK(!exp_header_name_ok("Host\t"));
	CHECK(!exp_header_name_ok("a b"));
	CHECK(!exp_header_name_ok("a:b"));
	CHECK(!exp_header_name_ok("a\x01"));
	CHECK(!exp_header_name_ok(""));
}

/* The guard's test for a connection it must not close: a whole request
 * head (plain) or TLS record waiting unread, never a trickled part. */
static void test_whole_unit_waiting(void)
{
	static const unsigned char record[] = {0x16, 3, 1, 0, 4, 'a', 'b', 'c', 'd'};
	int sv[2];

	CHECK_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	CHECK(!exp_whole_unit_waiting(sv[0], false)); /* nothing sent */
	CHECK_INT(write(sv[1], "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: a", 42), 42);
	CHECK(!exp_whole_unit_waiting(sv[0], false));
	CHECK_INT(write(sv[1], "\r\n\r\n", 4), 4);
	CHECK(exp_whole_unit_waiting(sv[0], false));
	CHECK(exp_whole_unit_waiting(sv[0], false)); /* peeking took nothing */
	close(sv[0]), close(sv[1]);
	CHECK_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	CHECK_INT(write(sv[1], "GET / HTTP/1.0\n\n", 16), 16); /* bare LF ends a head too */
	CHECK(exp_whole_unit_waiting(sv[0], false));
	close(sv[0]), close(sv[1]);
	CHECK_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	CHECK_INT(write(sv[1], record, 4), 4);
	CHECK(!exp_whole_unit_waiting(sv[0], true)); /* a partial record header */
	CHECK_INT(write(sv[1], record + 4, 4), 4);
	CHECK(!exp_whole_unit_waiting(sv[0], true)); /* 3 of 4 body bytes */
	CHECK_INT(write(sv[1], record + 8, 1), 1);
	CHECK(exp_whole_unit_waiting(sv[0], true));
	close(sv[0]), close(sv[1]);
	CHECK(!exp_whole_unit_waiting(-1, false));
}

static void test_listen(void)
{
	char host[256], err[256];
	unsigned port = 1;

	CHECK_INT(exp_parse_listen(":9400", host, sizeof(host), &port, err, sizeof(err)), 0);
	CHECK_STR(host, "");
	CHECK_INT(port, 9400);
	CHECK_INT(exp_parse_listen("127.0.0.1:0", host, sizeof(host), &port, err, sizeof(err)), 0);
	CHECK_STR(host, "127.0.0.1");
	CHECK_INT(port, 0);
	CHECK_INT(exp_parse_listen("[::1]:9400", host, sizeof(host), &port, err, sizeof(err)), 0);
	CHECK_STR(host, "::1");
	CHECK_INT(exp_parse_listen("node-a.example:80", host, sizeof(host), &port, err, sizeof(err)), 0);
	CHECK_STR(host, "node-a.example");
	CHECK_INT(exp_parse_listen("9400", host, sizeof(host), &port, err, sizeof(err)), -1);
	CHECK_INT(exp_parse_listen("::1:9400", host, sizeof(host), &port, err, sizeof(err)), -1);
	CHECK_INT(exp_parse_listen("[::1]9400", host, sizeof(host), &port, err, sizeof(err)), -1);
	CHECK_INT(exp_parse_listen(":65536", host, sizeof(host), &port, err, sizeof(err)), -1);
	CHECK_INT(exp_parse_listen(":", host, sizeof(host), &port, err, sizeof(err)), -1);
	CHECK_INT(exp_parse_listen("a b:1", host, sizeof(host), &port, err, sizeof(err)), -1);
	CHECK(err[0] != '\0');
}

#ifdef GW_HAVE_EXPORTER
#include <crypt.h>

/* htpasswd -nbB -C 4 alice s3cret */
static const char hash[] = "$2y$04$M5ZQeF9Hc9Qnq0mFh0Zk5eDqgq3JtD0yQk3WzqZQnF1Jx2Cq7Fz9u";

static int parse(const char *yaml, struct exp_web_config *c, char *err)
{
	return exp_web_config_parse(yaml, strlen(yaml), "/etc/gpuwise", c, err, 256);
}

static void test_web_config(void)
{
	struct exp_web_config c;
	char err[256], yaml[512];

	CHECK_INT(parse("tls_server_config:\n  cert_file: a.crt\n  key_file: /k/a.key\n", &c, err), 0);
	CHECK_STR(c.cert_file, "/etc/gpuwise/a.crt");
	CHECK_STR(c.key_file, "/k/a.key");
	CHECK_INT(c.nusers, 0);
	exp_web_config_free(&c);
	CHECK_INT(parse("", &c, err), 0);
	CHECK(!c.cert_file && c.nusers == 0);
	CHECK_INT(parse("tls_server_config:\n  cert_file: a.crt\n", &c, err), -1);
	CHECK(strstr(err, "key_file") != NULL);
	CHECK_INT(parse("tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS13\n", &c, err), 0);
	CHECK(exp_tls_min(&c) == 13 && exp_tls_max(&c) == 13);
	exp_web_config_free(&c);
	CHECK_INT(parse("tls_server_config:\n  cert_file: a\n  key_file: b\n  max_version: TLS11\n", &c, err), -1);
	CHECK(strstr(err, "min_version is above max_version") != NULL);
	CHECK_INT(parse("tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS10\n"
			"  max_version: TLS11\n", &c, err), 0);
	CHECK(exp_tls_min(&c) == 10 && exp_tls_max(&c) == 11);
	exp_web_config_free(&c);
	CHECK_INT(parse("tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: SSL3\n", &c, err), -1);
	CHECK(strstr(err, "min_version") != NULL);
	CHECK_INT(parse("tls_server_config:\n  cert_file: a\n  key_file: b\n  cipher_suites: [x]\n", &c, err), -1);
	CHECK_INT(parse("basic_auth_users: {}\n", &c, err), -1);
	CHECK(strstr(err, "no user") != NULL);
	snprintf(yaml, sizeof(yaml), "basic_auth_users:\n  alice: '$2y$99$%s'\n", hash + 7);
	CHECK_INT(parse(yaml, &c, err), -1);
	snprintf(yaml, sizeof(yaml), "basic_auth_users:\n  alice: '$2y$03$%s'\n", hash + 7);
	CHECK_INT(parse(yaml, &c, err), -1);
	snprintf(yaml, sizeof(yaml), "basic_auth_users:\n  alice: '$2y$31$%s'\n", hash + 7);
	CHECK_INT(parse(yaml, &c, err), 0);
	exp_web_config_free(&c);
	CHECK_INT(parse("http_server_config:\n  http2: false\n", &c, err), -1);
	CHECK_INT(parse("basic_auth_users:\n  alice: notahash\n", &c, err), -1);
	CHECK(strstr(err, "bcrypt") != NULL);
	CHECK_INT(parse("basic_auth_users: [alice\n", &c, err), -1);
	CHECK(strstr(err, "not valid YAML") != NULL);
	CHECK_INT(parse("- a\n- b\n", &c, err), -1);
	snprintf(yaml, sizeof(yaml), "basic_auth_users:\n  alice: '%s'\n  alice: '%s'\n", hash, hash);
	CHECK_INT(parse(yaml, &c, err), -1);
	CHECK(strstr(err, "twice") != NULL);
	snprintf(yaml, sizeof(yaml), "basic_auth_users:\n  alice: '%s'\n  bob: '%s'\n", hash, hash);
	CHECK_INT(parse(yaml, &c, err), 0);
	CHECK_INT(c.nusers, 2);
	CHECK_STR(c.users[1].name, "bob");
	exp_web_config_free(&c);
}

static void test_passwords(void)
{
	struct exp_web_config c;
	char err[256], yaml[512];
	const char *salt = crypt_gensalt("$2b$", 4, NULL, 0);
	const char *h = salt ? crypt("s3cret", salt) : NULL;

	CHECK(h && strlen(h) == 60);
	if (!h)
		return;
	snprintf(yaml, sizeof(yaml), "basic_auth_users:\n  alice: '%s'\n", h);
	CHECK_INT(parse(yaml, &c, err), 0);
	CHECK(exp_check_password(&c, "alice", "s3cret"));
	CHECK(!exp_check_password(&c, "alice", "s3cret "));
	CHECK(!exp_check_password(&c, "alice", ""));
	CHECK(!exp_check_password(&c, "bob", "s3cret"));
	CHECK(!exp_check_password(&c, "alic", "s3cret"));
	exp_web_config_free(&c);
	CHECK(!exp_check_password(&c, "alice", "s3cret")); /* no users: nobody */
}
#endif

static struct exp_snapshot snapshot(void)
{
	struct exp_snapshot s = { 0 };

	s.count = 2;
	s.dev = calloc(2, sizeof(*s.dev));
	s.dev[0].info.index = 0;
	snprintf(s.dev[0].info.uuid.s, GW_STR_MAX, "GPU-a\"b\\c\nd");
	s.dev[0].info.uuid.state = GW_FIELD_VALID;
	s.dev[0].up = true;
	s.dev[1].info.index = 1;
	s.errors_total = 3;
	s.collect_seconds = 0.25;
	return s;
}

static void test_render(void)
{
	struct exp_snapshot s = snapshot();
	size_t len = 0;
	char *t = exp_render_metrics(&s, EXP_NAMES_NATIVE, false, &len);

	CHECK(t != NULL && len == strlen(t));
	CHECK(strstr(t, "gpuwise_gpu_up{gpu=\"0\",UUID=\"GPU-a\\\"b\\\\c\\nd\"} 1\n") != NULL);
	CHECK(strstr(t, "gpuwise_gpu_up{gpu=\"1\",UUID=\"\"} 0\n") != NULL);
	CHECK(strstr(t, "gpuwise_exporter_errors_total 3\n") != NULL);
	CHECK(strstr(t, "gpuwise_exporter_collect_seconds 0.25\n") != NULL);
	/* One HELP and one TYPE per family. */
	CHECK(strstr(strstr(t, "# TYPE gpuwise_gpu_up") + 1, "# TYPE gpuwise_gpu_up") == NULL);
	CHECK(strstr(strstr(t, "# HELP gpuwise_gpu_up") + 1, "# HELP gpuwise_gpu_up") == NULL);
	CHECK(t[len - 1] == '\n');
	free(t);
	t = exp_render_html(&s, NULL, false, true, 5, &len);
	CHECK(t && strstr(t, "GPU-a") == NULL); /* the page names GPUs by index and name */
	free(t);
	exp_snapshot_clear(&s);
}

/* The page's last hour: 10-second slots, a gap where no pass came, at
 * most an hour kept, a few bytes per GPU. */
static void test_history(void)
{
	struct exp_snapshot s = snapshot();
	struct exp_history *h = exp_history_new();
	uint8_t v[EXP_HIST_SLOTS];
	size_t len = 0;
	char *t;

	CHECK(h != NULL);
	CHECK(exp_history_bytes_per_gpu() <= 1600);
	CHECK(exp_history_get(h, 0, EXP_HIST_UTIL, v) == 0);
	s.dev[0].sample.gpu_util = (gw_u64){ .v = 40, .state = GW_FIELD_VALID };
	s.dev[0].sample.temperature = (gw_f64){ .v = 61.4, .state = GW_FIELD_VALID };
	s.time = 1000000.0;
	exp_history_add(h, &s);
	s.dev[0].sample.gpu_util.v = 60; /* the same slot: the mean */
	s.time += 1;
	exp_history_add(h, &s);
	CHECK(exp_history_get(h, 0, EXP_HIST_UTIL, v) == 1 && v[EXP_HIST_SLOTS - 1] == 50);
	s.time += 30; /* two slots without a pass, then a new one */
	s.dev[0].sample.gpu_util.v = 90;
	exp_history_add(h, &s);
	CHECK(exp_history_get(h, 0, EXP_HIST_UTIL, v) == 1);
	CHECK(v[EXP_HIST_SLOTS - 1] == 90 && v[EXP_HIST_SLOTS - 2] == EXP_HIST_NONE &&
	      v[EXP_HIST_SLOTS - 3] == EXP_HIST_NONE && v[EXP_HIST_SLOTS - 4] == 50);
	CHECK(exp_history_get(h, 0, EXP_HIST_TEMPERATURE, v) == 1 && v[EXP_HIST_SLOTS - 4] == 61);
	CHECK(exp_history_get(h, 0, EXP_HIST_POWER, v) == 0); /* no power read */
	CHECK(exp_history_get(h, 1, EXP_HIST_UTIL, v) == 0);  /* GPU 1 never read */
	t = exp_render_html(&s, h, false, true, 5, &len);
	CHECK(t && strstr(t, "<svg class=\"hist\"") && strstr(t, "<polyline") && !strstr(t, "<script"));
	free(t);
	s.time += 2 * 3600; /* two hours later: the old slots are gone */
	exp_history_add(h, &s);
	CHECK(exp_history_get(h, 0, EXP_HIST_UTIL, v) == 1 && v[EXP_HIST_SLOTS - 1] == 90 &&
	      v[EXP_HIST_SLOTS - 2] == EXP_HIST_NONE && v[0] == EXP_HIST_NONE);
	exp_history_free(h);
	exp_snapshot_clear(&s);
}

int main(void)
{
	test_routes();
	test_basic_auth();
	test_whole_unit_waiting();
	test_listen();
#ifdef GW_HAVE_EXPORTER
	test_web_config();
	test_passwords();
#endif
	test_render();
	test_history();
	return CHECK_DONE();
}
