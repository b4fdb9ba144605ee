/* The parts of the exporter's HTTP that are gpuwise's own, as pure
 * functions over text (tests/fuzz/fuzz_exporter_http.c fuzzes them): which
 * endpoint a path names, the Basic auth header, --listen, and the
 * exporter-toolkit web-config file (read with libyaml). libmicrohttpd does
 * the rest (cli/httpd.c). */
#include <ctype.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "exporter.h"

#ifdef GW_HAVE_EXPORTER
#include <crypt.h>
#include <yaml.h>
#endif

enum exp_route exp_route(const char *path)
{
	static const struct {
		const char *path;
		enum exp_route route;
	} routes[] = {
		{ "/", ROUTE_INDEX },
		{ "/metrics", ROUTE_METRICS },
		{ "/health", ROUTE_HEALTH },
		{ "/api/status", ROUTE_STATUS },
	};

	if (!path)
		return ROUTE_NONE;
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++)
		if (strcmp(path, routes[i].path) == 0)
			return routes[i].route;
	return ROUTE_NONE;
}

bool exp_header_name_ok(const char *name)
{
	static const char punct[] = "!#$%&'*+-.^_`|~";

	if (!name || !*name)
		return false;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      strchr(punct, *p)))
			return false;
	return true;
}

/* True when the client has already sent a whole unit that MHD has not read
 * yet: a complete request head in plain HTTP, a complete TLS record under
 * TLS. Then the server is behind, not the client, and the connection must
 * not be closed for lagging: under load (or with connections arriving
 * thousands a second) a scrape that sent its request at once can wait
 * unread while newer connections push it to the front of the list. A
 * trickling client never has a whole unit waiting. The peek reads from the
 * receive queue without taking anything out of it. */
bool exp_whole_unit_waiting(int fd, bool tls)
{
	unsigned char buf[4096]; /* a scrape's head is a few hundred bytes */
	ssize_t n = recv(fd, buf, tls ? 5 : sizeof(buf), MSG_PEEK | MSG_DONTWAIT);
	int queued;

	if (n <= 0)
		return false;
	if (tls) /* a record: type, version (2), length (2, big-endian), body */
		return n == 5 && ioctl(fd, FIONREAD, &queued) == 0 && 5 + ((size_t)buf[3] << 8 | buf[4]) <= (size_t)queued;
	for (ssize_t i = 0; i + 1 < n; i++)
		if (buf[i] == '\n' && (buf[i + 1] == '\n' || (buf[i + 1] == '\r' && i + 2 < n && buf[i + 2] == '\n')))
			return true;
	return false;
}

int exp_tls_min(const struct exp_web_config *c)
{
	return c->tls_min ? c->tls_min : 12;
}

int exp_tls_max(const struct exp_web_config *c)
{
	return c->tls_max ? c->tls_max : 13;
}

bool exp_const_eq(const char *a, size_t an, const char *b, size_t bn)
{
	unsigned char diff = an != bn;
	size_t n = an < bn ? an : bn;

	for (size_t i = 0; i < n; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Strict base64 (RFC 4648, padding required) of src[0..n) into out (cap
 * bytes). Returns the decoded length, or -1. */
static long b64_decode(const char *src, size_t n, unsigned char *out, size_t cap)
{
	size_t len = 0;

	if (n % 4 != 0)
		return -1;
	for (size_t i = 0; i < n; i += 4) {
		int v[4], pad = 0;

		for (int k = 0; k < 4; k++) {
			unsigned char c = (unsigned char)src[i + k];

			if (c == '=' && i + 4 == n && k >= 2) {
				v[k] = 0;
				pad++;
				continue;
			}
			if (pad || (v[k] = b64_value(c)) < 0)
				return -1;
		}
		if (len + 3 - (size_t)pad > cap)
			return -1;
		out[len++] = (unsigned char)(v[0] << 2 | v[1] >> 4);
		if (pad < 2)
			out[len++] = (unsigned char)((v[1] & 0xf) << 4 | v[2] >> 2);
		if (pad < 1)
			out[len++] = (unsigned char)((v[2] & 0x3) << 6 | v[3]);
	}
	return (long)len;
}

int exp_parse_basic_auth(const char *header, char *user, char *password)
{
	unsigned char buf[2 * EXP_AUTH_MAX + 4];
	const char *p = header, *end, *colon;
	long n;
	size_t ulen, plen;

	user[0] = password[0] = '\0';
	if (!header || strncasecmp(p, "Basic", 5) != 0 || (p[5] != ' ' && p[5] != '\t'))
		return -1;
	p += 5;
	while (*p == ' ' || *p == '\t')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if ((size_t)(end - p) > (sizeof(buf) / 3 + 1) * 4)
		return -1;
	if ((n = b64_decode(p, (size_t)(end - p), buf, sizeof(buf))) < 0)
		return -1;
	if (memchr(buf, '\0', (size_t)n) || !(colon = memchr(buf, ':', (size_t)n)))
		return -1;
	ulen = (size_t)(colon - (const char *)buf);
	plen = (size_t)n - ulen - 1;
	if (ulen >= EXP_AUTH_MAX || plen >= EXP_AUTH_MAX)
		return -1;
	memcpy(user, buf, ulen);
	user[ulen] = '\0';
	memcpy(password, colon + 1, plen);
	password[plen] = '\0';
	return 0;
}

static int parse_port(const char *s, unsigned *port)
{
	unsigned long v = 0;

	if (!*s || strlen(s) > 5)
		return -1;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (v > 65535)
		return -1;
	*port = (unsigned)v;
	return 0;
}

int exp_parse_listen(const char *s, char *host, size_t host_n, unsigned *port, char *err, size_t err_n)
{
	const char *colon, *h = s;
	size_t hn;

	host[0] = '\0';
	if (!s || !*s) {
		snprintf(err, err_n, "needs [HOST]:PORT, e.g. :9400 or 127.0.0.1:9400");
		return -1;
	}
	if (*s == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':') {
			snprintf(err, err_n, "an IPv6 address is written [ADDRESS]:PORT, e.g. [::1]:9400");
			return -1;
		}
		h = s + 1;
		hn = (size_t)(close - h);
		colon = close + 1;
		if (hn == 0 || strspn(h, "0123456789abcdefABCDEF:.%") < hn) {
			snprintf(err, err_n, "'%.*s' is not an IPv6 address", (int)hn, h);
			return -1;
		}
	} else {
		colon = strrchr(s, ':');
		if (!colon) {
			snprintf(err, err_n, "needs [HOST]:PORT (the port is missing), e.g. :9400");
			return -1;
		}
		hn = (size_t)(colon - s);
		if (memchr(s, ':', hn)) {
			snprintf(err, err_n, "write an IPv6 address in brackets: [::1]:9400");
			return -1;
		}
		for (size_t i = 0; i < hn; i++)
			if (!isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '-' && s[i] != '_') {
				snprintf(err, err_n, "'%.*s' is not a host name or address", (int)hn, s);
				return -1;
			}
	}
	if (hn >= host_n) {
		snprintf(err, err_n, "the host name is too long");
		return -1;
	}
	if (parse_port(colon + 1, port) < 0) {
		snprintf(err, err_n, "'%s' is not a port (0-65535)", colon + 1);
		return -1;
	}
	memcpy(host, h, hn);
	host[hn] = '\0';
	return 0;
}

void exp_web_config_free(struct exp_web_config *c)
{
	if (!c)
		return;
	free(c->cert_file);
	free(c->key_file);
	for (int i = 0; i < c->nusers; i++) {
		free(c->users[i].name);
		free(c->users[i].hash);
	}
	memset(c, 0, sizeof(*c));
}

#ifdef GW_HAVE_EXPORTER

/* A scalar node's text, or NULL when the node is not a scalar. */
static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static char *resolve(const char *base_dir, const char *path)
{
	size_t n;
	char *out;

	if (path[0] == '/' || !base_dir || !*base_dir)
		return strdup(path);
	n = strlen(base_dir) + strlen(path) + 2;
	if ((out = malloc(n)))
		snprintf(out, n, "%s/%s", base_dir, path);
	return out;
}

/* "TLS10".."TLS13" → 10..13; 0 for anything else. */
static int tls_version(const char *v)
{
	if (strlen(v) == 5 && strncmp(v, "TLS1", 4) == 0 && v[4] >= '0' && v[4] <= '3')
		return 10 + (v[4] - '0');
	return 0;
}

static bool valid_bcrypt(const char *h)
{
	/* "$2y$10$" + 22 salt + 31 hash characters; the cost 04..31 (bcrypt's
	 * own bounds: libcrypt fails any other, which would deny every login). */
	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) || h[3] != '$' ||
	    !isdigit((unsigned char)h[4]) || !isdigit((unsigned char)h[5]) || h[6] != '$')
		return false;
	if ((h[4] - '0') * 10 + (h[5] - '0') < 4 || (h[4] - '0') * 10 + (h[5] - '0') > 31)
		return false;
	for (int i = 7; i < 60; i++)
		if (!isalnum((unsigned char)h[i]) && h[i] != '.' && h[i] != '/')
			return false;
	return true;
}

static int parse_tls(yaml_document_t *doc, yaml_node_t *map, const char *base_dir, struct exp_web_config *out,
		     char *err, size_t err_n)
{
	if (map->type != YAML_MAPPING_NODE) {
		snprintf(err, err_n, "tls_server_config must be a mapping (cert_file, key_file)");
		return -1;
	}
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(doc, p->key));
		const char *v = scalar(yaml_document_get_node(doc, p->value));
		char **dst = NULL;

		if (k && (strcmp(k, "min_version") == 0 || strcmp(k, "max_version") == 0)) {
			int *ver = k[1] == 'i' ? &out->tls_min : &out->tls_max;

			if (!v || (*ver = tls_version(v)) == 0) {
				snprintf(err, err_n, "tls_server_config: %s must be TLS10, TLS11, TLS12 or TLS13", k);
				return -1;
			}
			continue;
		}
		if (k && strcmp(k, "cert_file") == 0)
			dst = &out->cert_file;
		else if (k && strcmp(k, "key_file") == 0)
			dst = &out->key_file;
		else {
			snprintf(err, err_n, "tls_server_config: '%s' is not supported (gpuwise reads cert_file, key_file, "
				 "min_version and max_version)", k ? k : "?");
			return -1;
		}
		if (!v || !*v) {
			snprintf(err, err_n, "tls_server_config: %s needs a file name", k);
			return -1;
		}
		free(*dst);
		if (!(*dst = resolve(base_dir, v))) {
			snprintf(err, err_n, "out of memory");
			return -1;
		}
	}
	if (!out->cert_file != !out->key_file || !out->cert_file) {
		snprintf(err, err_n, "tls_server_config needs both cert_file and key_file");
		return -1;
	}
	if (exp_tls_min(out) > exp_tls_max(out)) {
		snprintf(err, err_n, "tls_server_config: min_version is above max_version");
		return -1;
	}
	return 0;
}

static int parse_users(yaml_document_t *doc, yaml_node_t *map, struct exp_web_config *out, char *err, size_t err_n)
{
	if (map->type != YAML_MAPPING_NODE) {
		snprintf(err, err_n, "basic_auth_users must be a mapping of user: bcrypt-hash");
		return -1;
	}
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(doc, p->key));
		const char *v = scalar(yaml_document_get_node(doc, p->value));
		struct exp_user *u;

		if (!k || !*k || strlen(k) >= EXP_AUTH_MAX || strchr(k, ':')) {
			snprintf(err, err_n, "basic_auth_users: a user name must be text without ':'");
			return -1;
		}
		if (!v || !valid_bcrypt(v)) {
			snprintf(err, err_n, "basic_auth_users: the password of '%.64s' is not a bcrypt hash "
				 "($2y$..., e.g. from htpasswd -nbB)", k);
			return -1;
		}
		for (int i = 0; i < out->nusers; i++)
			if (strcmp(out->users[i].name, k) == 0) {
				snprintf(err, err_n, "basic_auth_users: '%.64s' is listed twice", k);
				return -1;
			}
		if (out->nusers == EXP_MAX_USERS) {
			snprintf(err, err_n, "basic_auth_users: more than %d users", EXP_MAX_USERS);
			return -1;
		}
		u = &out->users[out->nusers];
		u->name = strdup(k);
		u->hash = strdup(v);
		out->nusers++;
		if (!u->name || !u->hash) {
			snprintf(err, err_n, "out of memory");
			return -1;
		}
	}
	if (out->nusers == 0) { /* not "no auth": a file meant to protect the exporter */
		snprintf(err, err_n, "basic_auth_users lists no user (remove the key to serve without passwords)");
		return -1;
	}
	return 0;
}

static int parse_root(yaml_document_t *doc, const char *base_dir, struct exp_web_config *out, char *err, size_t err_n)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);

	if (!root)
		return 0; /* an empty file: plain HTTP, no users */
	if (root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0)
		return 0;
	if (root->type != YAML_MAPPING_NODE) {
		snprintf(err, err_n, "the file must be a mapping (tls_server_config, basic_auth_users)");
		return -1;
	}
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(doc, p->key));
		yaml_node_t *v = yaml_document_get_node(doc, p->value);

		if (!v)
			continue;
		if (k && strcmp(k, "tls_server_config") == 0) {
			if (parse_tls(doc, v, base_dir, out, err, err_n) < 0)
				return -1;
		} else if (k && strcmp(k, "basic_auth_users") == 0) {
			if (parse_users(doc, v, out, err, err_n) < 0)
				return -1;
		} else {
			snprintf(err, err_n, "'%.64s' is not supported (gpuwise reads tls_server_config and "
				 "basic_auth_users)", k ? k : "?");
			return -1;
		}
	}
	return 0;
}

int exp_web_config_parse(const char *text, size_t n, const char *base_dir, struct exp_web_config *out,
			 char *err, size_t err_n)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err, err_n, "out of memory");
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, n);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, err_n, "not valid YAML: %s at line %zu", parser.problem ? parser.problem : "error",
			 parser.problem_mark.line + 1);
		yaml_parser_delete(&parser);
		return -1;
	}
	rc = parse_root(&doc, base_dir, out, err, err_n);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (rc < 0)
		exp_web_config_free(out);
	return rc;
}

static bool bcrypt_matches(const char *password, const char *hash)
{
	struct crypt_data *data = calloc(1, sizeof(*data));
	const char *got;
	bool ok = false;

	if (!data)
		return false;
	got = crypt_r(password, hash, data);
	if (got && got[0] != '*')
		ok = exp_const_eq(got, strlen(got), hash, strlen(hash));
	free(data);
	return ok;
}

bool exp_check_password(const struct exp_web_config *c, const char *user, const char *password)
{
	const struct exp_user *found = NULL;
	size_t ulen = strlen(user);

	if (!c || c->nusers == 0)
		return false;
	for (int i = 0; i < c->nusers; i++)
		if (exp_const_eq(c->users[i].name, strlen(c->users[i].name), user, ulen))
			found = &c->users[i];
	if (!found) {
		(void)bcrypt_matches(password, c->users[0].hash); /* the same cost as a known user */
		return false;
	}
	return bcrypt_matches(password, found->hash);
}

#else

int exp_web_config_parse(const char *text, size_t n, const char *base_dir, struct exp_web_config *out,
			 char *err, size_t err_n)
{
	(void)text, (void)n, (void)base_dir;
	memset(out, 0, sizeof(*out));
	snprintf(err, err_n, "this gpuwise was built without libyaml");
	return -1;
}

bool exp_check_password(const struct exp_web_config *c, const char *user, const char *password)
{
	(void)c, (void)user, (void)password;
	return false;
}

#endif
