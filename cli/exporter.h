/* gpuwise exporter — the pieces shared by cli/cmd_exporter.c (the command,
 * the collector thread), cli/exporter_render.c (a snapshot as Prometheus
 * text, the status page and /api/status), cli/exporter_http.c (the parts of
 * HTTP that are ours: routing, the Basic auth header, --listen, the
 * web-config file; pure functions, fuzzed by tests/fuzz/fuzz_exporter_http.c)
 * and cli/httpd.c (libmicrohttpd). Only the public API is used. */
#ifndef GPUWISE_CLI_EXPORTER_H
#define GPUWISE_CLI_EXPORTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuwise/gpuwise.h"
#include "../lib/core/strbuf.h" /* the one growable text buffer */

/* ---- what the collector read in one pass ------------------------------ */

struct exp_device {
	gw_device_info info;
	gw_device_sample sample;
	bool up;              /* this pass read a sample */
	gw_health health;     /* the device's health after this pass */
	bool procs_known;     /* the process list could be read (else unknown, not none) */
	gw_process *procs;
	size_t nprocs;
	bool *proc_in_pod;    /* --kubernetes: procs[k] runs in a pod (its cgroup); else NULL */
};

struct exp_snapshot {
	double time;            /* unix seconds of the pass */
	double collect_seconds; /* how long the pass took */
	uint64_t errors_total;  /* failed reads since the exporter started */
	int count;
	struct exp_device *dev;
	char driver_version[GW_STR_MAX]; /* "" when unknown */
	char hostname[256];     /* $NODE_NAME, else the host name */
	/* --kubernetes: the kubelet's last answer (who holds each device; NULL
	 * before the first) and whether it is stale (cli/kubernetes.h). */
	bool kubernetes, k8s_stale;
	/* --nvlink-links: the per-link NVLink series (off: 3 series per link
	 * grow an HGX node's page from 266 to 698 series, 2.7x the bytes). */
	bool nvlink_links;
	struct k8s_map *k8s;
};

void exp_snapshot_clear(struct exp_snapshot *s);

/* ---- the status page's last hour (exporter_history.c) ------------------ */

/* Per GPU, one byte per metric and slot: utilisation (%), memory used (%
 * of total), power (% of the limit), temperature (°C, at most 250). */
#define EXP_HIST_SLOT_S 10
#define EXP_HIST_SLOTS 360       /* one hour */
enum { EXP_HIST_UTIL, EXP_HIST_MEMORY, EXP_HIST_POWER, EXP_HIST_TEMPERATURE, EXP_HIST_METRICS };
#define EXP_HIST_NONE 255        /* no value in that slot */

struct exp_history;
struct exp_history *exp_history_new(void);
void exp_history_free(struct exp_history *h);
/* One pass of the collector (on its thread only). */
void exp_history_add(struct exp_history *h, const struct exp_snapshot *s);
/* A metric of GPU gpu (its position in the snapshot) over the last hour,
 * oldest slot first, EXP_HIST_NONE where none; 0 when it has no value at
 * all. */
int exp_history_get(const struct exp_history *h, int gpu, int metric, uint8_t out[EXP_HIST_SLOTS]);
/* Memory one GPU's history takes (docs/commands/exporter.md says it). */
size_t exp_history_bytes_per_gpu(void);

/* ---- rendering (exporter_render.c) ------------------------------------ */

enum exp_names { EXP_NAMES_DCGM, EXP_NAMES_NVIDIA_SMI, EXP_NAMES_NATIVE };

/* "dcgm", "nvidia-smi", "native" → 0 and *out; -1 for anything else. */
int exp_names_parse(const char *s, enum exp_names *out);


/* Each returns a malloc'd NUL-terminated text and its length in *len, or
 * NULL when out of memory. */
char *exp_render_metrics(const struct exp_snapshot *s, enum exp_names names, bool per_process, size_t *len);
/* show_processes: users, PIDs and process names (command lines with
 * per_process) on the page; otherwise only how many processes each GPU has. */
/* hist (may be NULL): a chart of each GPU's last hour, inline SVG. */
char *exp_render_html(const struct exp_snapshot *s, const struct exp_history *hist, bool per_process,
		      bool show_processes, double refresh_s, size_t *len);
/* show_processes: each device's "processes" (users, PIDs, names), as on
 * the page. */
char *exp_render_status_json(const struct exp_snapshot *s, bool show_processes, size_t *len);

/* ---- HTTP pieces that are ours (exporter_http.c) ---------------------- */

enum exp_route { ROUTE_NONE, ROUTE_INDEX, ROUTE_METRICS, ROUTE_HEALTH, ROUTE_STATUS };

/* The endpoint of a request path (MHD passes it without the query, already
 * %-decoded); ROUTE_NONE (404) for anything else. */
enum exp_route exp_route(const char *path);

#define EXP_AUTH_MAX 256 /* longest user name and password accepted, each */
/* Parses an "Authorization: Basic <base64(user:password)>" value into user
 * and password (each NUL-terminated, < EXP_AUTH_MAX bytes, no NUL inside).
 * Returns 0, or -1 for anything else (another scheme, bad base64, no ':',
 * too long). */
int exp_parse_basic_auth(const char *header, char *user, char *password);

/* A header field name is a token (RFC 9110 5.1, 5.6.2): no white space
 * (RFC 9112 5.1: "Content-Length : 5" is a 400), no control character. */
bool exp_header_name_ok(const char *name);
/* True when the client on fd has sent a whole request head (a whole TLS
 * record when tls) that the server has not read yet: the server's guard
 * never closes such a connection for lagging. */
bool exp_whole_unit_waiting(int fd, bool tls);

/* Equal strings, in time that depends on the lengths only. */
bool exp_const_eq(const char *a, size_t an, const char *b, size_t bn);

/* "[HOST]:PORT": ":9400", "0.0.0.0:9400", "localhost:9400", "[::1]:9400",
 * "[::]:0". host gets "" for all addresses (buffer of 256 bytes). Returns 0,
 * or -1 with a reason in err. */
int exp_parse_listen(const char *s, char *host, size_t host_n, unsigned *port, char *err, size_t err_n);

#define EXP_MAX_USERS 64
struct exp_user {
	char *name;
	char *hash; /* bcrypt: "$2y$10$..." */
};
/* The exporter-toolkit web-config file, as far as gpuwise serves it. */
struct exp_web_config {
	char *cert_file; /* resolved against the file's folder; NULL: no TLS */
	char *key_file;
	int tls_min, tls_max; /* tls_server_config's min_version, max_version: 10..13, 0 unset */
	struct exp_user users[EXP_MAX_USERS];
	int nusers;
};
/* The TLS versions served, 10 (TLS 1.0) to 13: min_version (default TLS12)
 * to max_version (default TLS13). */
int exp_tls_min(const struct exp_web_config *c);
int exp_tls_max(const struct exp_web_config *c);
/* Parses the YAML text of a web-config file (n bytes; base_dir resolves
 * relative paths). Unknown or unsupported keys (client certificates, cipher
 * suites, ...) are errors, never silently ignored. Returns 0, or -1 with
 * one sentence in err. */
int exp_web_config_parse(const char *text, size_t n, const char *base_dir, struct exp_web_config *out,
			 char *err, size_t err_n);
void exp_web_config_free(struct exp_web_config *c);

/* True when password matches user's bcrypt hash. An unknown user costs
 * one bcrypt as well, so timing does not tell which users exist. */
bool exp_check_password(const struct exp_web_config *c, const char *user, const char *password);

/* ---- the server (httpd.c) --------------------------------------------- */

struct exp_reply {
	int status;
	const char *content_type;
	char *body;  /* malloc'd, taken over by the server */
	size_t len;
};

/* Fills r for route (a copy of the cached rendering, never a vendor call). */
typedef void (*exp_serve_fn)(void *cls, enum exp_route route, struct exp_reply *r);

struct exp_server;
struct exp_server_config {
	const char *host;  /* "" for every address */
	unsigned port;     /* 0: any free one */
	const struct exp_web_config *web; /* NULL: no TLS, no auth */
	char *tls_cert;    /* PEM text (read by the command) */
	char *tls_key;
	exp_serve_fn serve;
	void *cls;
};
/* Starts serving on its own threads. NULL and a sentence in err on
 * failure. *bound_port receives the port really bound. */
struct exp_server *exp_server_start(const struct exp_server_config *cfg, unsigned *bound_port, char *err,
				    size_t err_n);
void exp_server_stop(struct exp_server *srv);

/* Limits of the server (docs/commands/exporter.md lists them). */
#define EXP_CONN_LIMIT 512       /* connections at once */
#define EXP_PER_IP_LIMIT 64      /* connections at once from one address */
#define EXP_CONN_TIMEOUT_S 10    /* an idle connection is closed after this */
#define EXP_HEAD_TIMEOUT_S 5     /* a request head not complete this long after accept
				    (or the previous reply) is closed */
#define EXP_CONN_SLACK 64        /* MHD's own limit is this much above EXP_CONN_LIMIT */
#define EXP_CONN_MEMORY 16384    /* bytes per connection for the request line and headers */
#define EXP_THREADS 2            /* threads serving connections */

#endif
