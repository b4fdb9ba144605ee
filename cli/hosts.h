/* Many hosts in one view (cli/hosts.c): `top/watch/ps/report --hosts`
 * read each node's `gpuwise exporter` /api/status over HTTP or HTTPS
 * (libcurl through cli/curl_dl.h), all hosts at once, each bounded in time
 * and size, and turn every answer into GPUs and processes tagged with the
 * host. A host that cannot be read keeps a sentence saying why; the others
 * are shown. docs/commands/top.md "Many hosts". */
#ifndef GPUWISE_CLI_HOSTS_H
#define GPUWISE_CLI_HOSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuwise/gpuwise.h"

#define HOSTS_MAX 256                 /* hosts in one --hosts list */
#define HOSTS_BODY_MAX (4u << 20)     /* bytes of one answer: more is refused */
#define HOSTS_GPUS_MAX 64             /* GPUs taken from one host */
#define HOSTS_PROCS_MAX 4096          /* processes taken from one host */

struct host_gpu {
	gw_device_info info;          /* index, name, uuid, total memory, health */
	gw_device_sample sample;      /* the sampled fields /api/status carries */
	bool up;                      /* the exporter read it in its last pass */
};

struct host_proc {
	int gpu;                      /* index into the host's gpu[] */
	uint32_t pid;
	char user[64];                /* "" when the exporter does not know */
	char name[128];
	gw_u64 used_memory;
};

struct host {
	char addr[256];               /* as given: "node1:9400", "https://node1:9400" */
	char url[300];
	bool ok;                      /* the last fetch gave a valid answer */
	char err[320];                /* why not, for people */
	char hostname[128];           /* the exporter's "hostname", "" when none */
	double time;                  /* the answer's "time" */
	struct host_gpu *gpu;
	int ngpu;
	struct host_proc *proc;
	size_t nproc, proc_cap;
	bool procs_shown;             /* the answer carried "processes" */
	void *doc;                    /* the parsed answer (for --json) */
	/* the transfer */
	void *easy;
	char *body;
	size_t len, cap;
	bool over;
	char curl_err[256];
};

struct hosts_opts {
	const char *list;             /* --hosts */
	double timeout;               /* --hosts-timeout, seconds */
	const char *user;             /* --hosts-user; password in $GPUWISE_HOSTS_PASSWORD */
	const char *ca;               /* --hosts-ca: PEM file of the certificate(s) to trust */
};

struct hosts {
	struct host *h;
	int n;
	struct hosts_opts o;
	char password[256];
	void *multi;
	double seconds;               /* how long the last fetch took */
};

/* Parses --hosts and loads libcurl. 0; EXIT_USAGE for a bad list (said);
 * EXIT_FAIL when libcurl cannot be loaded (said). */
int hosts_open(struct hosts *hs, const struct hosts_opts *o);
/* Reads every host once, all in parallel; returns how many answered. */
int hosts_fetch(struct hosts *hs);
void hosts_close(struct hosts *hs);
/* GPUs of all hosts that answered. */
int hosts_gpu_count(const struct hosts *hs);
/* The combined object of `watch --hosts --json`: {"gpuwise_version",
 * "time", "fetch_seconds", "hosts": [{"host", "hostname", "ok", "error", "gpus"}],
 * "devices": [{"host", ...each device's own keys...}]}. */
void hosts_json(gw_json *j, const struct hosts *hs, double time);
/* A host's "host", "hostname", "ok" and "error" keys, in every --hosts JSON. */
void hosts_json_keys(gw_json *j, const struct host *h);

/* The table of `watch --hosts`: one line per GPU (host, index, name,
 * utilisation, memory, temperature, power), one per host that could not
 * be read; the header first when header. */
void hosts_print_table(FILE *out, const struct hosts *hs, bool header);

/* `ps --hosts` (every node's GPU processes) or, with report, `report
 * --hosts` (users by the GPU memory they hold now); an exit status. */
int hosts_ps(const struct hosts_opts *o, bool json, bool report);

/* The option lines every --hosts command takes (options.h); their help
 * texts are in hosts.c, where the translation catalogue finds them. */
extern const char hosts_help_list[], hosts_help_timeout[], hosts_help_user[], hosts_help_ca[];
#define HOSTS_OPTIONS(type) \
	OPT_STRING(0, "hosts", type, hosts.list, "HOST:PORT,...", hosts_help_list), \
	OPT_CALLBACK(0, "hosts-timeout", type, hosts.timeout, "SECONDS", hosts_help_timeout, hosts_parse_timeout), \
	OPT_STRING(0, "hosts-user", type, hosts.user, "USER", hosts_help_user), \
	OPT_STRING(0, "hosts-ca", type, hosts.ca, "FILE", hosts_help_ca)

const char *hosts_parse_timeout(void *field, const char *s);

#endif
