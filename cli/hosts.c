/* Many hosts in one view: cli/hosts.h.
 *
 * One libcurl multi handle drives every host's GET /api/status at once, so
 * a refresh costs the slowest host, never their sum. Each transfer is
 * bounded: --hosts-timeout for the whole transfer (connect, TLS, a server
 * that drips one byte a second), HOSTS_BODY_MAX bytes of body, no
 * redirects. The body is read by the library's strict JSON reader (bounded
 * depth) and must look like an exporter's answer; anything else makes that
 * host's row say what was wrong, never the whole view. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "../lib/core/jsonp.h"
#include "commands.h"
#include "curl_dl.h"
#include "hosts.h"
#include "output.h"

const char hosts_help_list[] =
	N_("read these nodes' `gpuwise exporter` /api/status instead of this machine's GPUs, all at once "
	   "(HOST:PORT, comma-separated; https://HOST:PORT for TLS)");
const char hosts_help_timeout[] = N_("give up on a node after SECONDS (default 2)");
const char hosts_help_user[] =
	N_("Basic auth user for the exporters (the password is read from $GPUWISE_HOSTS_PASSWORD)");
const char hosts_help_ca[] =
	N_("trust the certificates in this PEM file for https:// nodes (such as an exporter's own cert_file)");

const char *hosts_parse_timeout(void *field, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= 0.05 && v <= 60))
		return _("needs a number of seconds from 0.05 to 60");
	*(double *)field = v;
	return NULL;
}

/* "HOST:PORT", "[::1]:PORT", "http://HOST:PORT", "https://HOST:PORT";
 * the port is required, nothing after it (the path is always /api/status). */
static bool addr_ok(const char *a)
{
	const char *p = a, *colon;
	size_t n;

	if (!strncasecmp(p, "http://", 7))
		p += 7;
	else if (!strncasecmp(p, "https://", 8))
		p += 8;
	n = strlen(p);
	while (n && p[n - 1] == '/')
		n--;
	if (!n || n > 250)
		return false;
	colon = memrchr(p, ':', n);
	if (!colon || colon == p || colon + 1 == p + n)
		return false;
	for (const char *c = colon + 1; c < p + n; c++)
		if (!isdigit((unsigned char)*c))
			return false;
	if (atoi(colon + 1) < 1 || atoi(colon + 1) > 65535 || (p[0] != '[' && memchr(p, ':', (size_t)(colon - p))))
		return false;
	for (const char *c = p; c < colon; c++)
		if (!isalnum((unsigned char)*c) && !strchr(".-_[]:", *c))
			return false;
	return true;
}

static int add_host(struct hosts *hs, const char *a, size_t n)
{
	struct host *h;
	char addr[256];
	size_t end;

	if (n == 0)
		return 0;
	snprintf(addr, sizeof(addr), "%.*s", (int)(n < 255 ? n : 255), a);
	if (n > 250 || !addr_ok(addr)) {
		error_msg(_("--hosts: '%s' is not HOST:PORT (or http://HOST:PORT, https://HOST:PORT)"), addr);
		return EXIT_USAGE;
	}
	if (hs->n == HOSTS_MAX) {
		error_msg(_("--hosts: more than %d hosts"), HOSTS_MAX);
		return EXIT_USAGE;
	}
	h = &hs->h[hs->n++];
	memset(h, 0, sizeof(*h));
	for (end = strlen(addr); end && addr[end - 1] == '/'; end--)
		addr[end - 1] = '\0';
	snprintf(h->addr, sizeof(h->addr), "%s", addr);
	if (strstr(addr, "://"))
		snprintf(h->url, sizeof(h->url), "%s/api/status", addr);
	else
		snprintf(h->url, sizeof(h->url), "http://%s/api/status", addr);
	return 0;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *arg)
{
	struct host *h = arg;
	size_t n = size * nmemb;

	if (h->len + n > HOSTS_BODY_MAX) {
		h->over = true;
		return 0; /* libcurl stops the transfer: CURLE_WRITE_ERROR */
	}
	if (h->len + n + 1 > h->cap) {
		size_t cap = h->cap ? h->cap : 16384;
		char *nb;

		while (cap < h->len + n + 1)
			cap *= 2;
		if (!(nb = realloc(h->body, cap)))
			return 0;
		h->body = nb;
		h->cap = cap;
	}
	memcpy(h->body + h->len, data, n);
	h->len += n;
	return n;
}

static int setup_easy(struct hosts *hs, struct host *h)
{
	char agent[64];
	CURL *c = curl.easy_init();

	if (!c)
		return -1;
	snprintf(agent, sizeof(agent), "gpuwise/%s", gw_version());
	curl.easy_setopt(c, CURLOPT_URL, h->url);
	curl.easy_setopt(c, CURLOPT_USERAGENT, agent);
	curl.easy_setopt(c, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
	curl.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl.easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(hs->o.timeout * 1000));
	curl.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)(hs->o.timeout * 1000));
	curl.easy_setopt(c, CURLOPT_ERRORBUFFER, h->curl_err);
	curl.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl.easy_setopt(c, CURLOPT_WRITEDATA, h);
	if (hs->o.user) {
		curl.easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		curl.easy_setopt(c, CURLOPT_USERNAME, hs->o.user);
		curl.easy_setopt(c, CURLOPT_PASSWORD, hs->password);
	}
	if (hs->o.ca)
		curl.easy_setopt(c, CURLOPT_CAINFO, hs->o.ca);
	h->easy = c;
	return 0;
}

int hosts_open(struct hosts *hs, const struct hosts_opts *o)
{
	const char *p, *name = CURL_SONAME, *pw;
	char why[512];
	int rc;

	memset(hs, 0, sizeof(*hs));
	hs->o = *o;
	if (hs->o.timeout <= 0)
		hs->o.timeout = 2;
	if (!(hs->h = calloc(HOSTS_MAX, sizeof(*hs->h)))) {
		error_msg(_("out of memory"));
		return EXIT_FAIL;
	}
	for (p = o->list; *p;) {
		size_t n = strcspn(p, ", ");

		if ((rc = add_host(hs, p, n)))
			return rc;
		p += n;
		p += strspn(p, ", ");
	}
	if (hs->n == 0) {
		error_msg(_("--hosts needs at least one HOST:PORT"));
		return EXIT_USAGE;
	}
	if ((pw = secure_getenv("GPUWISE_HOSTS_PASSWORD")))
		snprintf(hs->password, sizeof(hs->password), "%s", pw);
	if ((rc = curl_load(&name, why, sizeof(why))) < 0) {
		if (rc == -1)
			error_msg(_("--hosts reads the nodes over HTTP with libcurl, and %s cannot be loaded "
				    "(Debian/Ubuntu: apt install libcurl4): %s"), name, why);
		else
			error_msg(_("--hosts: %s has no %s"), name, why);
		return EXIT_FAIL;
	}
	if (!(hs->multi = curl.multi_init())) {
		error_msg(_("out of memory"));
		return EXIT_FAIL;
	}
	for (int i = 0; i < hs->n; i++)
		if (setup_easy(hs, &hs->h[i]) < 0) {
			error_msg(_("out of memory"));
			return EXIT_FAIL;
		}
	return 0;
}

static void clear_result(struct host *h)
{
	free(h->gpu);
	free(h->proc);
	gw_jsonp_free(h->doc);
	h->gpu = NULL, h->ngpu = 0;
	h->proc = NULL, h->nproc = h->proc_cap = 0;
	h->doc = NULL;
	h->ok = false;
	h->procs_shown = false;
	h->err[0] = h->hostname[0] = '\0';
	h->len = 0;
	h->over = false;
	h->curl_err[0] = '\0';
}

void hosts_close(struct hosts *hs)
{
	for (int i = 0; hs->h && i < hs->n; i++) {
		struct host *h = &hs->h[i];

		clear_result(h);
		if (h->easy)
			curl.easy_cleanup(h->easy);
		free(h->body);
	}
	if (hs->multi)
		curl.multi_cleanup(hs->multi);
	free(hs->h);
	memset(hs, 0, sizeof(*hs));
}

/* ---- an answer as GPUs ------------------------------------------------ */

/* The value at a dotted path ("memory.used_bytes") of an object. */
static const gw_jv *at_path(const gw_jv *o, const char *path)
{
	char part[64];

	while (o && *path) {
		size_t n = strcspn(path, ".");

		snprintf(part, sizeof(part), "%.*s", (int)(n < 63 ? n : 63), path);
		o = gw_jv_get(o, part);
		path += n + (path[n] == '.');
	}
	return o;
}

static void set_u64(gw_u64 *f, const gw_jv *o, const char *key)
{
	int id = gw_metric_find(key);
	const gw_jv *v = id >= 0 ? at_path(o, gw_metric_info_get(id)->json) : NULL;

	if (v && v->type == GW_JV_NUMBER && v->u.num.d >= 0 && v->u.num.d < 1.8e19) {
		f->v = (uint64_t)v->u.num.d;
		f->state = GW_FIELD_VALID;
	}
}

static void set_f64(gw_f64 *f, const gw_jv *o, const char *key)
{
	int id = gw_metric_find(key);
	const gw_jv *v = id >= 0 ? at_path(o, gw_metric_info_get(id)->json) : NULL;

	if (v && v->type == GW_JV_NUMBER && isfinite(v->u.num.d)) {
		f->v = v->u.num.d;
		f->state = GW_FIELD_VALID;
	}
}

static void set_str(gw_str *f, const gw_jv *v)
{
	const char *s = gw_jv_str(v);

	if (s) {
		snprintf(f->s, sizeof(f->s), "%s", s);
		f->state = GW_FIELD_VALID;
	}
}

static void set_throttle(gw_u64 *f, const gw_jv *o)
{
	const gw_jv *list = gw_jv_get(o, "throttle_reasons");

	if (!gw_jv_is(list, GW_JV_ARRAY))
		return;
	f->v = 0;
	f->state = GW_FIELD_VALID;
	for (size_t k = 0; k < gw_jv_len(list); k++) {
		const char *name = gw_jv_str(gw_jv_at(list, k));

		for (int bit = 0; name && bit < 64; bit++) {
			const char *b = gw_throttle_reason_name((uint64_t)1 << bit);

			if (b && !strcmp(b, name))
				f->v |= (uint64_t)1 << bit;
		}
	}
}

static gw_health health_of(const char *s)
{
	static const gw_health all[] = { GW_HEALTH_OK, GW_HEALTH_LOST, GW_HEALTH_ERROR, GW_HEALTH_NO_DRIVER,
					 GW_HEALTH_UNSUPPORTED };

	for (size_t k = 0; s && k < sizeof(all) / sizeof(all[0]); k++)
		if (!strcmp(s, gw_health_name(all[k])))
			return all[k];
	return GW_HEALTH_ERROR;
}

static void read_gpu(struct host_gpu *g, const gw_jv *o, int k)
{
	int64_t index;

	memset(g, 0, sizeof(*g));
	if (gw_jv_int64(gw_jv_get(o, "index"), &index) < 0 || index < 0 || index >= 100000)
		index = k;
	g->info.index = (int)index;
	g->info.cuda_index = g->info.nvml_index = -1;
	set_str(&g->info.uuid, gw_jv_get(o, "uuid"));
	set_str(&g->info.name, gw_jv_get(o, "name"));
	g->info.health = health_of(gw_jv_str(gw_jv_get(o, "health")));
	if (g->info.health != GW_HEALTH_OK)
		snprintf(g->info.health_reason, sizeof(g->info.health_reason), "%s", gw_health_name(g->info.health));
	set_u64(&g->info.memory_total, o, "memory_total");
	set_u64(&g->sample.gpu_util, o, "gpu_util");
	set_u64(&g->sample.mem_util, o, "mem_util");
	set_u64(&g->sample.memory_used, o, "memory_used");
	set_f64(&g->sample.temperature, o, "temperature_c");
	set_f64(&g->sample.power_draw, o, "power_draw");
	set_f64(&g->sample.energy, o, "energy");
	set_u64(&g->sample.sm_clock, o, "sm_clock");
	set_u64(&g->sample.mem_clock, o, "mem_clock");
	set_u64(&g->sample.pcie_tx, o, "pcie_tx");
	set_u64(&g->sample.pcie_rx, o, "pcie_rx");
	set_f64(&g->sample.sm_active, o, "sm_active");
	set_throttle(&g->sample.throttle_reasons, o);
	/* A GPU the exporter could not read has null values throughout. */
	g->up = g->info.health == GW_HEALTH_OK && (GW_VALID(g->sample.gpu_util) || GW_VALID(g->sample.memory_used) ||
						   GW_VALID(g->sample.temperature));
}

static const char *text_or(const gw_jv *v, const char *none)
{
	return gw_jv_str(v) ? gw_jv_str(v) : none;
}

static void read_procs(struct host *h, const gw_jv *o, int gi)
{
	const gw_jv *list = gw_jv_get(o, "processes");

	if (!gw_jv_is(list, GW_JV_ARRAY))
		return;
	h->procs_shown = true;
	for (size_t k = 0; k < gw_jv_len(list) && h->nproc < h->proc_cap; k++) {
		const gw_jv *p = gw_jv_at(list, k), *mem = gw_jv_get(p, "used_memory_bytes");
		struct host_proc *t = &h->proc[h->nproc];
		int64_t pid;

		if (gw_jv_int64(gw_jv_get(p, "pid"), &pid) < 0 || pid < 0 || pid > UINT32_MAX)
			continue;
		memset(t, 0, sizeof(*t));
		t->gpu = gi;
		t->pid = (uint32_t)pid;
		snprintf(t->user, sizeof(t->user), "%s", text_or(gw_jv_get(p, "user"), ""));
		snprintf(t->name, sizeof(t->name), "%s", text_or(gw_jv_get(p, "name"), "?"));
		if (mem && mem->type == GW_JV_NUMBER && mem->u.num.d >= 0 && mem->u.num.d < 1.8e19) {
			t->used_memory.v = (uint64_t)mem->u.num.d;
			t->used_memory.state = GW_FIELD_VALID;
		}
		h->nproc++;
	}
}

/* The answer in h->body as GPUs; false with h->err when it is not one. */
static bool read_answer(struct host *h)
{
	gw_jsonp_limits lim = { HOSTS_BODY_MAX, 16 };
	gw_jsonp_error jerr;
	const gw_jv *devs, *t;
	size_t nproc = 0;
	gw_jv *doc = gw_jsonp_parse(h->body ? h->body : "", h->len, &lim, &jerr);

	if (!doc) {
		snprintf(h->err, sizeof(h->err), _("not a gpuwise exporter's answer (bad JSON at %d:%d: %s)"),
			 jerr.line, jerr.col, jerr.msg);
		return false;
	}
	devs = gw_jv_get(doc, "devices");
	if (!gw_jv_is(doc, GW_JV_OBJECT) || !gw_jv_is(devs, GW_JV_ARRAY)) {
		gw_jsonp_free(doc);
		snprintf(h->err, sizeof(h->err), "%s", _("not a gpuwise exporter's answer (no \"devices\" list)"));
		return false;
	}
	h->doc = doc;
	h->ngpu = gw_jv_len(devs) < HOSTS_GPUS_MAX ? (int)gw_jv_len(devs) : HOSTS_GPUS_MAX;
	for (int k = 0; k < h->ngpu; k++) /* room for the processes listed, at most HOSTS_PROCS_MAX */
		nproc += gw_jv_len(gw_jv_get(gw_jv_at(devs, (size_t)k), "processes"));
	h->gpu = calloc((size_t)h->ngpu + 1, sizeof(*h->gpu));
	h->proc = calloc((nproc < HOSTS_PROCS_MAX ? nproc : HOSTS_PROCS_MAX) + 1, sizeof(*h->proc));
	h->proc_cap = nproc < HOSTS_PROCS_MAX ? nproc : HOSTS_PROCS_MAX;
	if (!h->gpu || !h->proc) {
		snprintf(h->err, sizeof(h->err), "%s", _("out of memory"));
		return false;
	}
	for (int k = 0; k < h->ngpu; k++) {
		if (!gw_jv_is(gw_jv_at(devs, (size_t)k), GW_JV_OBJECT))
			continue;
		read_gpu(&h->gpu[k], gw_jv_at(devs, (size_t)k), k);
		read_procs(h, gw_jv_at(devs, (size_t)k), k);
	}
	if (gw_jv_str(gw_jv_get(doc, "hostname")))
		snprintf(h->hostname, sizeof(h->hostname), "%s", gw_jv_str(gw_jv_get(doc, "hostname")));
	t = gw_jv_get(doc, "time");
	h->time = t && t->type == GW_JV_NUMBER ? t->u.num.d : 0;
	return true;
}

static void finish(struct hosts *hs, struct host *h, int rc)
{
	long code = 0;

	curl.easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &code);
	if (rc == CURLE_WRITE_ERROR && h->over)
		snprintf(h->err, sizeof(h->err), _("its answer is larger than %u bytes"), HOSTS_BODY_MAX);
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		snprintf(h->err, sizeof(h->err), _("no answer within %g s (--hosts-timeout)"), hs->o.timeout);
	else if (rc == CURLE_COULDNT_CONNECT)
		snprintf(h->err, sizeof(h->err), "%s", _("cannot connect (does an exporter run there?)"));
	else if (rc == CURLE_COULDNT_RESOLVE_HOST)
		snprintf(h->err, sizeof(h->err), "%s", _("unknown host name"));
	else if (rc != CURLE_OK)
		snprintf(h->err, sizeof(h->err), "%s", h->curl_err[0] ? h->curl_err : curl.easy_strerror(rc));
	else if (code == 401 && hs->o.user)
		snprintf(h->err, sizeof(h->err), "%s", _("HTTP 401: the user or password is wrong"));
	else if (code == 401)
		snprintf(h->err, sizeof(h->err), "%s",
			 _("HTTP 401: it needs a user and password (--hosts-user, $GPUWISE_HOSTS_PASSWORD)"));
	else if (code != 200)
		snprintf(h->err, sizeof(h->err), _("HTTP %ld from %s"), code, h->url);
	else
		h->ok = read_answer(h);
	if (!h->ok) {
		free(h->gpu), free(h->proc);
		h->gpu = NULL, h->proc = NULL;
		h->ngpu = 0, h->nproc = 0;
	}
}

int hosts_fetch(struct hosts *hs)
{
	double start = clock_seconds(CLOCK_MONOTONIC), deadline = start + hs->o.timeout + 1;
	int running = 0, ok = 0;

	for (int i = 0; i < hs->n; i++) {
		clear_result(&hs->h[i]);
		curl.multi_add_handle(hs->multi, hs->h[i].easy);
	}
	do {
		struct curl_msg *m;
		int left;

		curl.multi_perform(hs->multi, &running);
		while ((m = curl.multi_info_read(hs->multi, &left)))
			for (int i = 0; m->msg == CURLMSG_DONE && i < hs->n; i++)
				if (hs->h[i].easy == m->easy_handle)
					finish(hs, &hs->h[i], m->data.result);
		if (running)
			curl.multi_wait(hs->multi, NULL, 0, 50, NULL);
	} while (running && clock_seconds(CLOCK_MONOTONIC) < deadline);
	for (int i = 0; i < hs->n; i++) {
		struct host *h = &hs->h[i];

		if (!h->ok && !h->err[0]) /* libcurl's own timeout should have come first */
			snprintf(h->err, sizeof(h->err), _("no answer within %g s (--hosts-timeout)"), hs->o.timeout);
		curl.multi_remove_handle(hs->multi, h->easy);
		ok += h->ok;
	}
	hs->seconds = clock_seconds(CLOCK_MONOTONIC) - start;
	return ok;
}

int hosts_gpu_count(const struct hosts *hs)
{
	int n = 0;

	for (int i = 0; i < hs->n; i++)
		n += hs->h[i].ngpu;
	return n;
}

/* ---- JSON ------------------------------------------------------------- */

static void write_jv(gw_json *j, const gw_jv *v)
{
	switch (v->type) {
	case GW_JV_NULL: gw_json_null(j); break;
	case GW_JV_BOOL: gw_json_bool(j, v->u.boolean); break;
	case GW_JV_NUMBER:
		if (v->u.num.is_int)
			gw_json_int(j, v->u.num.i);
		else
			gw_json_double(j, v->u.num.d, 6);
		break;
	case GW_JV_STRING: gw_json_string_n(j, v->u.str.s, v->u.str.len); break;
	case GW_JV_ARRAY:
		gw_json_array_begin(j);
		for (size_t k = 0; k < v->u.arr.n; k++)
			write_jv(j, &v->u.arr.items[k]);
		gw_json_array_end(j);
		break;
	case GW_JV_OBJECT:
		gw_json_object_begin(j);
		for (size_t k = 0; k < v->u.obj.n; k++) {
			gw_json_key(j, v->u.obj.members[k].key);
			write_jv(j, &v->u.obj.members[k].value);
		}
		gw_json_object_end(j);
		break;
	}
}

void hosts_json_keys(gw_json *j, const struct host *h)
{
	gw_json_key(j, "host");
	gw_json_string(j, h->addr);
	gw_json_key(j, "hostname");
	gw_json_string(j, h->hostname[0] ? h->hostname : NULL);
	gw_json_key(j, "ok");
	gw_json_bool(j, h->ok);
	gw_json_key(j, "error");
	gw_json_string(j, h->ok ? NULL : h->err);
}

void hosts_json(gw_json *j, const struct hosts *hs, double time)
{
	json_document_begin(j);
	gw_json_key(j, "time");
	gw_json_double(j, time, 3);
	gw_json_key(j, "fetch_seconds"); /* how long reading every host took */
	gw_json_double(j, hs->seconds, 4);
	gw_json_key(j, "hosts");
	gw_json_array_begin(j);
	for (int i = 0; i < hs->n; i++) {
		const struct host *h = &hs->h[i];

		gw_json_object_begin(j);
		hosts_json_keys(j, h);
		gw_json_key(j, "gpus");
		gw_json_int(j, h->ngpu);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	gw_json_key(j, "devices");
	gw_json_array_begin(j);
	for (int i = 0; i < hs->n; i++) {
		const gw_jv *devs = gw_jv_get(hs->h[i].doc, "devices");

		for (int k = 0; hs->h[i].ok && k < hs->h[i].ngpu; k++) {
			const gw_jv *d = gw_jv_at(devs, (size_t)k);

			gw_json_object_begin(j);
			gw_json_key(j, "host");
			gw_json_string(j, hs->h[i].addr);
			for (size_t m = 0; gw_jv_is(d, GW_JV_OBJECT) && m < d->u.obj.n; m++) {
				if (!strcmp(d->u.obj.members[m].key, "host"))
					continue;
				gw_json_key(j, d->u.obj.members[m].key);
				write_jv(j, &d->u.obj.members[m].value);
			}
			gw_json_object_end(j);
		}
	}
	gw_json_array_end(j);
	gw_json_object_end(j);
}

/* ---- the table -------------------------------------------------------- */

static int host_width(const struct hosts *hs)
{
	int w = 4;

	for (int i = 0; i < hs->n; i++)
		if ((int)strlen(hs->h[i].addr) > w)
			w = (int)strlen(hs->h[i].addr);
	return w > 32 ? 32 : w;
}

/* v and its unit ("98%", "60C"), "-" when unknown. */
static const char *num(char *buf, size_t n, bool ok, double v, const char *unit)
{
	if (ok && !*unit)
		snprintf(buf, n, "%.1f", v);
	else if (ok)
		snprintf(buf, n, "%.0f%s", v, unit);
	else
		snprintf(buf, n, "-");
	return buf;
}

void hosts_print_table(FILE *out, const struct hosts *hs, bool header)
{
	int hw = host_width(hs);
	/* Column names are identifiers, the same in every language. */
	static const char *const col[] = { "host", "gpu", "name", "util", "memory", "temp", "power" };

	if (header)
		fprintf(out, "%-*s %3s %-22s %5s %17s %6s %6s\n", hw, col[0], col[1], col[2], col[3], col[4], col[5],
			col[6]);
	for (int i = 0; i < hs->n; i++) {
		const struct host *h = &hs->h[i];

		if (!h->ok) {
			fprintf(out, "%-*.*s %3s %s: %s\n", hw, hw, h->addr, "-", _("unreachable"), h->err);
			continue;
		}
		if (h->ngpu == 0)
			fprintf(out, "%-*.*s %3s %s\n", hw, hw, h->addr, "-", _("no GPU"));
		for (int k = 0; k < h->ngpu; k++) {
			const struct host_gpu *g = &h->gpu[k];
			const gw_device_sample *s = &g->sample;
			const char *name = GW_VALID(g->info.name) ? g->info.name.s : "?";
			char util[16], mem[40], used[16], total[16], temp[16], power[16];

			if (!strncmp(name, "NVIDIA ", 7))
				name += 7;
			if (!g->up) {
				fprintf(out, "%-*.*s %3d %-22.22s %s\n", hw, hw, h->addr, g->info.index, name,
					gw_health_name(g->info.health));
				continue;
			}
			/* GiB on both sides: "70.0/79.6 GiB" */
			num(used, sizeof(used), GW_VALID(s->memory_used), (double)s->memory_used.v / 1073741824.0, "");
			num(total, sizeof(total), GW_VALID(g->info.memory_total),
			    (double)g->info.memory_total.v / 1073741824.0, "");
			snprintf(mem, sizeof(mem), "%s/%s GiB", used, total);
			fprintf(out, "%-*.*s %3d %-22.22s %5s %17s %6s %6s\n", hw, hw, h->addr, g->info.index, name,
				num(util, sizeof(util), GW_VALID(s->gpu_util), (double)s->gpu_util.v, "%"), mem,
				num(temp, sizeof(temp), GW_VALID(s->temperature), s->temperature.v, "C"),
				num(power, sizeof(power), GW_VALID(s->power_draw), s->power_draw.v, "W"));
		}
	}
}
