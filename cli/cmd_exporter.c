/* gpuwise exporter — a Prometheus exporter. The sampler's thread
 * (include/gpuwise/sampler.h) reads every GPU once per --interval; after
 * each pass it renders the metrics, the status page and /api/status into
 * cached buffers under a lock; the HTTP server
 * (cli/httpd.c) only copies those, so a scrape never calls a vendor library
 * and a hung or lost GPU never hangs a scrape. SIGTERM and SIGINT stop it
 * cleanly: the server closes, the collector is joined, exit 0. */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "exporter.h"
#include "kubernetes.h"
#include "output.h"

struct exporter_opts {
	const char *listen, *names, *web_config, *kubelet_socket;
	double interval;
	bool per_process, show_processes, kubernetes, nvlink_links;
};

struct exporter {
	gw_context *ctx;      /* the sampler thread's alone once it runs */
	gw_sampler *sampler;  /* reads every GPU once per --interval (include/gpuwise/sampler.h) */
	enum exp_names names;
	bool per_process;
	bool nvlink_links;    /* --nvlink-links: per-link NVLink series */
	bool show_processes;  /* users, PIDs, commands on the status page */
	double interval;
	char hostname[256];
	uint64_t errors_total;
	const char *kubelet_socket; /* --kubernetes: the socket asked; else NULL */
	struct k8s_client *k8s;     /* its client (cli/kubernetes.h) */
	uint64_t procs_hash;    /* of every GPU's processes: a change asks the kubelet again */
	struct exp_history *history; /* the page's last hour (the sampler's thread only) */

	pthread_mutex_t lock; /* guards everything below */
	bool running, any_up;
	char *metrics, *html, *json;
	size_t metrics_len, html_len, json_len;
};

#ifdef GW_HAVE_EXPORTER
/* --kubernetes: the kubelet's last answer, which processes run in pods,
 * and a new question when the GPUs' processes changed (a pod started or
 * ended). */
static void snapshot_k8s(struct exporter *e, struct exp_snapshot *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a over index and pids */

	s->kubernetes = true;
	s->k8s = k8s_current(e->k8s, &s->k8s_stale);
	for (int k = 0; k < s->count; k++) {
		struct exp_device *d = &s->dev[k];

		if (d->nprocs && e->per_process && (d->proc_in_pod = calloc(d->nprocs, sizeof(bool))))
			for (size_t i = 0; i < d->nprocs; i++)
				d->proc_in_pod[i] = k8s_pid_in_pod(d->procs[i].pid);
		for (size_t i = 0; i < d->nprocs; i++)
			h = (h ^ ((uint64_t)k << 32 | d->procs[i].pid)) * 1099511628211ULL;
	}
	if (h != e->procs_hash && e->procs_hash)
		k8s_refresh_soon(e->k8s);
	e->procs_hash = h;
}

/* The sampler's newest pass as a snapshot. A GPU that cannot be read is
 * up = 0 and counts one error per pass, whether it was lost from the start
 * (no driver, lost before the exporter started) or since: an alert on
 * rate(gpuwise_exporter_errors_total) fires for as long as it stays so. */
static int snapshot(struct exporter *e, struct exp_snapshot *s)
{
	const gw_driver_info *drv = gw_context_driver(e->ctx);

	memset(s, 0, sizeof(*s));
	s->count = gw_sampler_device_count(e->sampler);
	if (s->count > 0 && !(s->dev = calloc((size_t)s->count, sizeof(*s->dev))))
		return -1;
	for (int k = 0; k < s->count; k++) {
		struct exp_device *d = &s->dev[k];
		gw_sample_point p;

		d->info = *gw_device_get(e->ctx, gw_sampler_device_index(e->sampler, k));
		d->health = d->info.health;
		if (gw_sampler_latest(e->sampler, k, &p) < 0) {
			e->errors_total++;
			continue;
		}
		d->health = p.health;
		s->time = p.time;
		d->sample = p.sample;
		d->up = p.up && device_readable(&d->info);
		if (!d->up)
			e->errors_total++;
		if (d->up)
			d->procs_known = gw_sampler_processes(e->sampler, k, &d->procs, &d->nprocs) == 0;
	}
	snprintf(s->driver_version, sizeof(s->driver_version), "%s",
		 GW_VALID(drv->driver_version) ? drv->driver_version.s :
		 GW_VALID(drv->amdgpu_version) ? drv->amdgpu_version.s : "");
	snprintf(s->hostname, sizeof(s->hostname), "%s", e->hostname);
	s->errors_total = e->errors_total;
	s->nvlink_links = e->nvlink_links;
	if (e->k8s)
		snapshot_k8s(e, s);
	s->collect_seconds = s->time ? clock_seconds(CLOCK_REALTIME) - s->time : 0;
	return 0;
}

/* After each pass of the sampler (on its thread): render once, then
 * publish the result. */
static void publish(gw_sampler *sampler, uint64_t seq, void *arg)
{
	struct exporter *e = arg;
	struct exp_snapshot s;
	char *metrics = NULL, *html = NULL, *json = NULL;
	size_t ml = 0, hl = 0, jl = 0;
	bool any_up = false;

	(void)sampler, (void)seq;
	if (snapshot(e, &s) == 0) {
		metrics = exp_render_metrics(&s, e->names, e->per_process, &ml);
		exp_history_add(e->history, &s);
		html = exp_render_html(&s, e->history, e->per_process, e->show_processes, e->interval * 5, &hl);
		json = exp_render_status_json(&s, e->show_processes, &jl);
		for (int i = 0; i < s.count; i++)
			any_up |= s.dev[i].up;
	}
	exp_snapshot_clear(&s);
	pthread_mutex_lock(&e->lock);
	if (metrics) {  /* out of memory keeps the last good rendering */
		free(e->metrics);
		e->metrics = metrics, e->metrics_len = ml, metrics = NULL;
	}
	if (html) {
		free(e->html);
		e->html = html, e->html_len = hl, html = NULL;
	}
	if (json) {
		free(e->json);
		e->json = json, e->json_len = jl, json = NULL;
	}
	e->any_up = any_up;
	pthread_mutex_unlock(&e->lock);
	free(metrics), free(html), free(json);
}
#endif

static char *copy_out(const char *p, size_t n, size_t *len)
{
	char *out = p ? malloc(n + 1) : NULL;

	if (out) {
		memcpy(out, p, n);
		out[n] = '\0';
		*len = n;
	}
	return out;
}

static void serve(void *cls, enum exp_route route, struct exp_reply *r)
{
	struct exporter *e = cls;

	r->status = 200;
	pthread_mutex_lock(&e->lock);
	switch (route) {
	case ROUTE_METRICS:
		r->content_type = "text/plain; version=0.0.4; charset=utf-8";
		r->body = copy_out(e->metrics, e->metrics_len, &r->len);
		break;
	case ROUTE_INDEX:
		r->content_type = "text/html; charset=utf-8";
		r->body = copy_out(e->html, e->html_len, &r->len);
		break;
	case ROUTE_STATUS:
		r->content_type = "application/json";
		r->body = copy_out(e->json, e->json_len, &r->len);
		break;
	case ROUTE_HEALTH: {
		const char *msg = !e->running ? "collector stopped\n" : !e->any_up ? "no GPU could be read\n" : "ok\n";

		r->status = e->running && e->any_up ? 200 : 503;
		r->content_type = "text/plain; charset=utf-8";
		r->body = copy_out(msg, strlen(msg), &r->len);
		break;
	}
	case ROUTE_NONE:
		break;
	}
	pthread_mutex_unlock(&e->lock);
}

static const char *parse_interval(void *field, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= 0.05) || v > 3600)
		return N_("needs a number of seconds (0.05 <= s <= 3600)");
	*(double *)field = v;
	return NULL;
}

#ifdef GW_HAVE_EXPORTER
/* Serving needs libmicrohttpd and libyaml: without them (GW_HAVE_EXPORTER
 * unset) the command only says so, and -Werror would reject these unused. */
/* The whole of a small file, NUL-terminated, or NULL with a reason. */
static char *read_small_file(const char *path, size_t max, size_t *len, char *err, size_t err_n)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f) {
		snprintf(err, err_n, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	if (!(buf = malloc(max + 1))) {
		fclose(f);
		snprintf(err, err_n, "out of memory");
		return NULL;
	}
	n = fread(buf, 1, max + 1, f);
	if (ferror(f) || n > max) {
		snprintf(err, err_n, ferror(f) ? "cannot read %s" : "%s is too large", path);
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The TLS key is a secret: warn when every user of the machine can read it. */
static void warn_if_world_readable(const char *key_file)
{
	struct stat st;

	if (stat(key_file, &st) == 0 && (st.st_mode & S_IROTH))
		warning_msg(_("the TLS key %s is readable by every user (chmod o-r)"), key_file);
}

/* Reads --web-config FILE and the TLS files it names into cfg. */
static int load_web_config(const char *path, struct exp_web_config *web, struct exp_server_config *cfg)
{
	char err[512], base[4096];
	const char *slash = strrchr(path, '/');
	size_t n;
	char *text = read_small_file(path, 64 * 1024, &n, err, sizeof(err));

	if (!text) {
		error_msg(_("--web-config: %s"), err);
		return -1;
	}
	snprintf(base, sizeof(base), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (slash == path)
		snprintf(base, sizeof(base), "/");
	if (exp_web_config_parse(text, n, base, web, err, sizeof(err)) < 0) {
		error_msg(_("--web-config %s: %s"), path, err);
		free(text);
		return -1;
	}
	free(text);
	cfg->web = web;
	if (!web->cert_file) {
		if (web->nusers > 0)
			warning_msg(_("--web-config %s: Basic auth without TLS sends passwords in the clear "
				      "(add tls_server_config)"), path);
		return 0;
	}
	warn_if_world_readable(web->key_file);
	if (!(cfg->tls_cert = read_small_file(web->cert_file, 1024 * 1024, &n, err, sizeof(err))) ||
	    !(cfg->tls_key = read_small_file(web->key_file, 1024 * 1024, &n, err, sizeof(err)))) {
		error_msg(_("--web-config %s: %s"), path, err);
		return -1;
	}
	return 0;
}

static void host_name(char *buf, size_t n)
{
	const char *node = getenv("NODE_NAME");

	if (node && *node)
		snprintf(buf, n, "%s", node);
	else if (gethostname(buf, n) != 0)
		snprintf(buf, n, "localhost");
	buf[n - 1] = '\0';
}

#endif

static const struct option exporter_options[] = {
	OPT_STRING(0, "listen", struct exporter_opts, listen, "[HOST]:PORT",
		   N_("address to serve on (default :9400, every address; [::1]:9400 for IPv6; port 0 picks a free one)")),
	OPT_STRING(0, "names", struct exporter_opts, names, "SCHEME",
		   N_("metric names: dcgm (dcgm-exporter's, the default), nvidia-smi (nvidia_gpu_exporter's) or native (gpuwise_* in base units)")),
	OPT_CALLBACK(0, "interval", struct exporter_opts, interval, "SECONDS",
		     N_("seconds between two readings of the GPUs (default 1)"), parse_interval),
	OPT_STRING(0, "web-config", struct exporter_opts, web_config, "FILE",
		   N_("Prometheus exporter-toolkit web config: TLS (tls_server_config: cert_file, key_file, "
		   "min_version, max_version) and basic_auth_users (user: bcrypt hash)")),
	OPT_BOOL(0, "per-process", struct exporter_opts, per_process,
		 N_("also export per-process series and show full command lines on the status page")),
	OPT_BOOL(0, "nvlink-links", struct exporter_opts, nvlink_links,
		 N_("also export each NVLink link's state and byte counters (3 series per link: 432 on an "
		    "8-GPU HGX node)")),
	OPT_BOOL(0, "show-processes", struct exporter_opts, show_processes,
		 N_("show users, PIDs and process names on the status page to anyone who can reach it (by "
		    "default only with basic_auth_users in --web-config, or with --per-process)")),
	OPT_BOOL(0, "kubernetes", struct exporter_opts, kubernetes,
		 N_("add pod, namespace and container labels to the series of each GPU (and MIG device) a "
		    "Kubernetes pod holds, from the kubelet's PodResources API (needs gRPC: libgrpc29)")),
	OPT_STRING(0, "pod-resources-kubelet-socket", struct exporter_opts, kubelet_socket, "PATH",
		   N_("the kubelet's PodResources socket that --kubernetes asks (default: kubelet.sock in the "
		      "pod-resources folder under /var/lib/kubelet)")),
	OPT_END()
};

#ifdef GW_HAVE_EXPORTER
static void exporter_free(struct exporter *e)
{
	gw_sampler_free(e->sampler);
	k8s_stop(e->k8s);
	exp_history_free(e->history);
	free(e->metrics), free(e->html), free(e->json);
	pthread_mutex_destroy(&e->lock);
	gw_context_free(e->ctx);
}

/* The sampler over every GPU, one pass published before the first
 * request can come, then its thread. */
static int start_collector(struct exporter *e)
{
	gw_sampler_options so = GW_SAMPLER_OPTIONS_INIT;
	pthread_mutex_init(&e->lock, NULL);
	so.interval = e->interval;
	so.history = 1;
	so.flags = GW_SAMPLER_PROCESSES | GW_SAMPLER_EVENTS; /* Xid: DCGM_FI_DEV_XID_ERRORS */
	so.on_pass = publish;
	so.on_pass_arg = e;
	if (gw_sampler_new(&e->sampler, e->ctx, &so) < 0)
		return -1;
	gw_sampler_step(e->sampler);
	publish(e->sampler, 1, e);
	if (gw_sampler_start(e->sampler) < 0)
		return -1;
	pthread_mutex_lock(&e->lock);
	e->running = true;
	pthread_mutex_unlock(&e->lock);
	return 0;
}

static void stop_collector(struct exporter *e)
{
	gw_sampler_stop(e->sampler);
	pthread_mutex_lock(&e->lock);
	e->running = false;
	pthread_mutex_unlock(&e->lock);
}

/* Waits for SIGTERM or SIGINT (blocked in every thread, taken here). */
static int wait_for_signal(const sigset_t *set)
{
	int sig = 0;

	while (sigwait(set, &sig) != 0)
		;
	return sig;
}

static int serve_until_signal(struct exporter *e, struct exp_server_config *cfg, const char *listen)
{
	struct exp_server *srv;
	sigset_t set, old;
	unsigned port = 0;
	char err[1024];
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, &old); /* before any thread starts */
	signal(SIGPIPE, SIG_IGN);
	/* After the mask: gRPC's threads must not take SIGTERM either. */
	if (e->kubelet_socket && !(e->k8s = k8s_start(e->kubelet_socket, err, sizeof(err)))) {
		error_msg("%s", err);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return EXIT_FAIL;
	}
	if (start_collector(e) < 0) {
		error_msg(_("cannot start the collector thread"));
		return EXIT_FAIL;
	}
	if (!(srv = exp_server_start(cfg, &port, err, sizeof(err)))) {
		error_msg("%s", err);
		stop_collector(e);
		return EXIT_FAIL;
	}
	fputs("gpuwise: ", stderr);
	fprintf(stderr, _("exporter listening on %s://%s%s%s:%u/ (%s)"), cfg->tls_cert ? "https" : "http",
		strchr(cfg->host, ':') ? "[" : "", *cfg->host ? cfg->host : "*", strchr(cfg->host, ':') ? "]" : "",
		port, listen);
	fputc('\n', stderr);
	sig = wait_for_signal(&set);
	fputs("gpuwise: ", stderr);
	fprintf(stderr, _("exporter stopping (%s)"), sig == SIGTERM ? "SIGTERM" : "SIGINT");
	fputc('\n', stderr);
	exp_server_stop(srv);
	stop_collector(e);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return EXIT_OK;
}

#endif

static int cmd_exporter(int argc, char **argv)
{
	struct exporter_opts o = { .listen = ":9400", .names = "dcgm", .interval = 1.0 };
	struct exp_server_config cfg = { .serve = serve };
	struct exp_web_config web = { 0 };
	struct exporter e = { 0 };
	char host[256], err[256];
	char **args;

	if (parse_options(&cmd_exporter_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	if (exp_names_parse(o.names, &e.names) < 0)
		die_usage("exporter", _("--names needs dcgm, nvidia-smi or native, not '%s'"), o.names);
	if (exp_parse_listen(o.listen, host, sizeof(host), &cfg.port, err, sizeof(err)) < 0)
		die_usage("exporter", _("--listen %s: %s"), o.listen, err);
	cfg.host = host;
#ifndef GW_HAVE_EXPORTER
	(void)web;
	error_msg(_("this gpuwise was built without libmicrohttpd, libyaml or libcrypt, which the exporter needs "
		  "(install libmicrohttpd-dev, libyaml-dev and libcrypt-dev, e.g. with scripts/setup, and rebuild)"));
	return EXIT_FAIL;
#else
	int rc;

	/* One malloc arena for every thread: glibc gives each thread that
	 * allocates its own (64 MiB reserved, a few hundred KiB touched), and
	 * the collector, the server and the kubelet helper allocate rarely and
	 * briefly, so there is nothing to contend for. bench/exporter.sh: peak
	 * RSS 8.4 -> 8.0 MiB on h100-8x. */
	mallopt(M_ARENA_MAX, 1);
	if (o.kubelet_socket && !o.kubernetes)
		die_usage("exporter", _("--pod-resources-kubelet-socket needs --kubernetes"));
	if (o.web_config && load_web_config(o.web_config, &web, &cfg) < 0) {
		exp_web_config_free(&web);
		free(cfg.tls_cert), free(cfg.tls_key);
		return EXIT_FAIL;
	}
	if (o.kubernetes)
		e.kubelet_socket = o.kubelet_socket ? o.kubelet_socket : K8S_DEFAULT_SOCKET;
	e.per_process = o.per_process;
	e.nvlink_links = o.nvlink_links;
	e.show_processes = o.show_processes || o.per_process || web.nusers > 0;
	e.interval = o.interval;
	e.history = exp_history_new(); /* NULL (out of memory): a page without charts */
	host_name(e.hostname, sizeof(e.hostname));
	if (!(e.ctx = open_context())) {
		exp_web_config_free(&web);
		free(cfg.tls_cert), free(cfg.tls_key);
		return EXIT_FAIL;
	}
	cfg.cls = &e;
	rc = serve_until_signal(&e, &cfg, o.listen);
	exporter_free(&e);
	exp_web_config_free(&web);
	free(cfg.tls_cert), free(cfg.tls_key);
	return rc;
#endif
}

const struct cmd cmd_exporter_def = {
	.name = "exporter",
	.fn = cmd_exporter,
	.summary = N_("serve GPU metrics to Prometheus, a status page and /api/status over HTTP"),
	.options = exporter_options,
	.description =
		N_("Serve this machine's GPUs over HTTP: /metrics for Prometheus (text format 0.0.4), /health "
		"(200 while the collector runs and at least one GPU was read, else 503), / (a status page: "
		"each GPU's utilisation, memory and temperature, and who runs what on it) and /api/status "
		"(the JSON object of `gpuwise watch --json`). A collector thread reads every GPU once per "
		"--interval; a request only copies its last rendering, so a scrape never waits on a GPU. A "
		"GPU that cannot be read is gpuwise_gpu_up 0 and the others are served as before.\n"
		"\n"
		"Every naming scheme adds gpuwise_gpu_up{gpu,UUID}, gpuwise_exporter_collect_seconds and "
		"gpuwise_exporter_errors_total. Only GET and HEAD are served. Limits: 512 connections, 64 "
		"from one address (when full, the oldest connection still sending its request is closed for "
		"the new one), a request's line and headers due within 5 s and at most 16 KiB, idle "
		"connections closed after 10 s. SIGTERM or SIGINT stops it cleanly (exit 0)."),
	.exit_status = N_("Exit status: 0 after SIGTERM or SIGINT, 1 when it cannot start (address in use, bad "
		       "--web-config, built without libmicrohttpd), 2 on a usage error."),
};
