/* gpuwise top — where the numbers come from. One refresh is one pass of
 * the library's sampler (gw_sampler_step: each GPU read once, its
 * processes listed once), then each process's share of the GPU and its
 * host side (CPU time, RSS, age from /proc through the library). CPU % is the CPU time used between two refreshes; on the
 * first one (and in --once) it is the average over the process's life,
 * as ps(1) shows it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "output.h"
#include "hosts.h"
#include "top.h"

int top_data_open(struct top_data *d)
{
	memset(d, 0, sizeof(*d));
	if (!(d->ctx = open_context()))
		return -1;
	d->ngpu = gw_device_count(d->ctx);
	if (d->ngpu > 0 && !(d->gpu = calloc((size_t)d->ngpu, sizeof(*d->gpu)))) {
		gw_context_free(d->ctx);
		d->ctx = NULL;
		return -1;
	}
	for (int i = 0; i < d->ngpu; i++)
		d->gpu[i].info = gw_device_get(d->ctx, i);
	if (d->ngpu > 0) {
		gw_sampler_options o = GW_SAMPLER_OPTIONS_INIT;

		o.history = 1;          /* top keeps its own compact chart rings */
		o.flags = GW_SAMPLER_PROCESSES | GW_SAMPLER_EVENTS; /* Xid on the details line */
		if (gw_sampler_new(&d->sampler, d->ctx, &o) < 0) {
			error_msg("%s", gw_error_last_text());
			top_data_close(d);
			return -1;
		}
	}
	return 0;
}

int top_data_open_hosts(struct top_data *d, struct hosts *hosts)
{
	memset(d, 0, sizeof(*d));
	d->hosts = hosts;
	return 0;
}

void top_data_close(struct top_data *d)
{
	gw_sampler_free(d->sampler);
	free(d->gpu);
	free(d->procs);
	free(d->prev);
	gw_context_free(d->ctx);
	memset(d, 0, sizeof(*d));
}

/* A metric of this GPU as a double, through the metric table; NaN when it
 * has no valid value. */
static double metric(const struct top_gpu *g, const char *key)
{
	gw_metric_value v;
	int id = gw_metric_find(key);

	if (id < 0 || gw_device_metric_value(g->info, g->have_sample ? &g->sample : NULL, id, &v) != GW_FIELD_VALID)
		return NAN;
	return v.type == GW_MTYPE_F64 ? v.f : (double)v.u;
}

static void push_history(struct top_gpu *g)
{
	double util = metric(g, "gpu_util");
	double used = metric(g, "memory_used"), total = metric(g, "memory_total");

	g->util_hist[g->hist_next] = (float)util;
	g->mem_hist[g->hist_next] = total > 0 ? (float)(100.0 * used / total) : NAN;
	g->hist_time[g->hist_next] = clock_seconds(CLOCK_MONOTONIC);
	g->hist_next = (g->hist_next + 1) % TOP_HISTORY;
	if (g->hist_len < TOP_HISTORY)
		g->hist_len++;
}

float top_hist_at(const struct top_gpu *g, const float *ring, unsigned back)
{
	if (back >= g->hist_len)
		return NAN;
	return ring[(g->hist_next + TOP_HISTORY - 1 - back) % TOP_HISTORY];
}

/* GPU i after this refresh's pass (the sampler's slot i: it samples every
 * device in gpuwise order). A GPU the pass could not read says why: its
 * health and reason when the library knows them (lost, no driver), else
 * the error of the read. */
static void read_gpu(struct top_data *d, int i)
{
	struct top_gpu *g = &d->gpu[i];
	gw_sample_point p;

	g->have_sample = false;
	g->problem[0] = '\0';
	/* An unreadable GPU (unsupported Intel, no driver) samples "fine" as
	 * nothing at all: say why, as list does, not a row of N/A. */
	if (!device_readable(g->info)) {
		char why[1024];

		snprintf(g->problem, sizeof(g->problem), "%s%s%s", gw_health_name(g->info->health),
			 g->info->health_reason[0] ? ": " : "", gw_device_health_reason(d->ctx, i, why, sizeof(why)));
	} else if (gw_sampler_latest(d->sampler, i, &p) == 0 && p.up) {
		g->sample = p.sample;
		g->have_sample = true;
	} else {
		snprintf(g->problem, sizeof(g->problem), "%s", gw_translate(gw_error_str(p.error)));
	}
	push_history(g);
}

double top_hist_span(const struct top_gpu *g, unsigned n)
{
	unsigned newest = (g->hist_next + TOP_HISTORY - 1) % TOP_HISTORY;

	if (n > g->hist_len)
		n = g->hist_len;
	if (n < 2)
		return 0;
	return g->hist_time[newest] - g->hist_time[(newest + TOP_HISTORY - (n - 1)) % TOP_HISTORY];
}

static struct top_proc *proc_add(struct top_data *d)
{
	if (d->nprocs == d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 32;
		struct top_proc *n = realloc(d->procs, ncap * sizeof(*n));

		if (!n)
			return NULL;
		d->procs = n;
		d->cap = ncap;
	}
	memset(&d->procs[d->nprocs], 0, sizeof(d->procs[0]));
	return &d->procs[d->nprocs++];
}

/* The MIG device (index into sample.mig) a process runs in, or -1. */
static int mig_of(const struct top_gpu *g, const gw_process *p)
{
	if (!g->have_sample || !GW_VALID(p->gpu_instance_id))
		return -1;
	for (int m = 0; m < g->sample.mig_count && m < GW_MAX_MIG; m++) {
		const gw_mig_device *x = &g->sample.mig[m];

		if (GW_VALID(x->gpu_instance_id) && x->gpu_instance_id.v == p->gpu_instance_id.v &&
		    (!GW_VALID(p->compute_instance_id) || !GW_VALID(x->compute_instance_id) ||
		     x->compute_instance_id.v == p->compute_instance_id.v))
			return m;
	}
	return -1;
}

static const struct top_cpu_prev *prev_of(const struct top_data *d, uint32_t pid)
{
	for (size_t i = 0; i < d->nprev; i++)
		if (d->prev[i].pid == pid)
			return &d->prev[i];
	return NULL;
}

/* Host side: CPU %, RSS and run time of one process. */
static void host_side(struct top_data *d, struct top_proc *t)
{
	gw_host_process h;
	const struct top_cpu_prev *p;

	if (!t->resolved || gw_process_host_read(d->ctx, t->pid, &h) < 0)
		return;
	t->rss = h.rss;
	if (GW_VALID(h.start_time)) {
		t->run_time.v = d->now > h.start_time.v ? d->now - h.start_time.v : 0;
		t->run_time.state = GW_FIELD_VALID;
	}
	if (!GW_VALID(h.cpu_time))
		return;
	p = prev_of(d, t->pid);
	if (p && d->now > p->when && h.cpu_time.v >= p->cpu_time)
		t->cpu_percent.v = 100.0 * (h.cpu_time.v - p->cpu_time) / (d->now - p->when);
	else if (GW_VALID(t->run_time) && t->run_time.v > 0)
		t->cpu_percent.v = 100.0 * h.cpu_time.v / t->run_time.v;
	else
		return;
	t->cpu_percent.state = GW_FIELD_VALID;
	/* Remembered for the next refresh (the list is rebuilt below). */
	t->cpu_time_now = h.cpu_time.v;
	t->have_cpu_time = true;
}

static void read_processes(struct top_data *d, int i)
{
	struct top_gpu *g = &d->gpu[i];
	gw_process *list = NULL;
	gw_process_util *util = NULL;
	size_t n = 0, nu = 0;
	bool sampled;

	if (!g->have_sample || gw_sampler_processes(d->sampler, i, &list, &n) < 0)
		return;
	/* A process without a sample did not use the SMs lately: 0 %. When
	 * the driver samples no process at all, SM % is unknown. */
	sampled = gw_device_process_utilization(d->ctx, i, &util, &nu) == 0;

	for (size_t k = 0; k < n; k++) {
		struct top_proc *t = proc_add(d);

		if (!t)
			break;
		t->gpu = i;
		t->mig = mig_of(g, &list[k]);
		t->pid = list[k].pid;
		t->type = list[k].type;
		t->resolved = list[k].pid_resolved;
		snprintf(t->user, sizeof(t->user), "%s", list[k].user);
		snprintf(t->command, sizeof(t->command), "%s", list[k].command);
		t->gpu_memory = list[k].used_memory;
		if (sampled)
			t->sm_util.state = GW_FIELD_VALID;
		else
			t->sm_util.state = GW_FIELD_NOT_SUPPORTED;
		for (size_t u = 0; u < nu; u++)
			if (util[u].pid == t->pid)
				t->sm_util = util[u].sm_util;
		/* NVML samples no utilisation on a MIG-enabled GPU (its own shows
		 * N/A too): a process in a MIG instance has no SM %, not 0. */
		if (t->mig >= 0)
			t->sm_util.state = GW_FIELD_NOT_SUPPORTED;
		host_side(d, t);
	}
	gw_process_util_free(util);
	gw_processes_free(list);
}

/* Keep this refresh's CPU times for the next one. */
static void remember_cpu(struct top_data *d)
{
	struct top_cpu_prev *p = realloc(d->prev, (d->nprocs ? d->nprocs : 1) * sizeof(*p));
	size_t n = 0;

	if (!p)
		return;
	d->prev = p;
	for (size_t i = 0; i < d->nprocs; i++) {
		if (!d->procs[i].have_cpu_time)
			continue;
		p[n].pid = d->procs[i].pid;
		p[n].cpu_time = d->procs[i].cpu_time_now;
		p[n].when = d->now;
		n++;
	}
	d->nprev = n;
}

/* The GPU of the last refresh that was host's GPU index, or NULL. */
static struct top_gpu *old_gpu(struct top_gpu *old, int nold, const char *host, int index)
{
	for (int i = 0; i < nold; i++)
		if (old[i].host == host && old[i].info && old[i].info->index == index)
			return &old[i];
	return NULL;
}

/* --hosts: every node once (all at once), its GPUs in --hosts order, each
 * keeping its chart history across refreshes. */
static void refresh_hosts(struct top_data *d)
{
	struct hosts *hs = d->hosts;
	struct top_gpu *old = d->gpu, *gpu;
	int nold = d->ngpu, n = 0;

	hosts_fetch(hs);
	gpu = calloc((size_t)hosts_gpu_count(hs) + 1, sizeof(*gpu));
	if (!gpu)
		return;
	d->nprocs = 0;
	for (int i = 0; i < hs->n; i++) {
		const struct host *h = &hs->h[i];
		int first = n;

		for (int k = 0; k < h->ngpu; k++, n++) {
			struct top_gpu *g = &gpu[n], *prev = old_gpu(old, nold, h->addr, h->gpu[k].info.index);

			if (prev)
				*g = *prev;
			g->host = h->addr;
			g->info = &h->gpu[k].info;
			g->sample = h->gpu[k].sample;
			g->have_sample = h->gpu[k].up;
			snprintf(g->problem, sizeof(g->problem), "%s", gw_health_name(g->info->health));
			push_history(g);
		}
		for (size_t k = 0; k < h->nproc; k++) {
			struct top_proc *t = proc_add(d);

			if (!t)
				break;
			t->gpu = first + h->proc[k].gpu;
			t->mig = -1;
			t->pid = h->proc[k].pid;
			t->type = GW_PROCESS_COMPUTE;
			snprintf(t->user, sizeof(t->user), "%s", h->proc[k].user);
			snprintf(t->command, sizeof(t->command), "%s", h->proc[k].name);
			t->gpu_memory = h->proc[k].used_memory;
			t->host = h->addr;
			t->host_gpu = h->gpu[h->proc[k].gpu].info.index;
		}
	}
	free(old);
	d->gpu = gpu;
	d->ngpu = n;
}

void top_data_refresh(struct top_data *d)
{
	d->now = clock_seconds(CLOCK_REALTIME);
	if (d->hosts) {
		refresh_hosts(d);
		d->refreshes++;
		return;
	}
	d->nprocs = 0;
	if (d->sampler)
		gw_sampler_step(d->sampler);
	for (int i = 0; i < d->ngpu; i++)
		read_gpu(d, i);
	for (int i = 0; i < d->ngpu; i++)
		read_processes(d, i);
	remember_cpu(d);
	d->refreshes++;
}

/* ---- the view: filter and sort ----------------------------------------- */

static const char *const sort_titles[TOP_SORT_COUNT] = {
	[TOP_SORT_GPU_MEMORY] = "GPU MEM", [TOP_SORT_SM] = "SM%", [TOP_SORT_CPU] = "CPU%",
	[TOP_SORT_RSS] = "RSS", [TOP_SORT_TIME] = "TIME", [TOP_SORT_PID] = "PID", [TOP_SORT_GPU] = "GPU",
};

const char *top_sort_title(enum top_sort s)
{
	return s < TOP_SORT_COUNT ? sort_titles[s] : "";
}

static bool matches(const struct top_proc *t, const char *filter)
{
	char pid[16];

	if (!filter[0])
		return true;
	snprintf(pid, sizeof(pid), "%u", (unsigned)t->pid);
	return strcasestr(t->command, filter) || strcasestr(t->user, filter) || !strcmp(pid, filter);
}

/* Biggest first for amounts, smallest first for pid and GPU; unknown
 * values last either way. */
static int by_u64(const gw_u64 *a, const gw_u64 *b)
{
	if (GW_VALID(*a) != GW_VALID(*b))
		return GW_VALID(*a) ? -1 : 1;
	return a->v == b->v ? 0 : a->v > b->v ? -1 : 1;
}

static int by_f64(const gw_f64 *a, const gw_f64 *b)
{
	if (GW_VALID(*a) != GW_VALID(*b))
		return GW_VALID(*a) ? -1 : 1;
	return a->v == b->v ? 0 : a->v > b->v ? -1 : 1;
}

static int compare(const struct top_proc *a, const struct top_proc *b, enum top_sort s)
{
	int c = 0;

	switch (s) {
	case TOP_SORT_GPU_MEMORY: c = by_u64(&a->gpu_memory, &b->gpu_memory); break;
	case TOP_SORT_SM: c = by_u64(&a->sm_util, &b->sm_util); break;
	case TOP_SORT_CPU: c = by_f64(&a->cpu_percent, &b->cpu_percent); break;
	case TOP_SORT_RSS: c = by_u64(&a->rss, &b->rss); break;
	case TOP_SORT_TIME: c = by_f64(&a->run_time, &b->run_time); break;
	case TOP_SORT_PID: break;
	case TOP_SORT_GPU: c = a->gpu != b->gpu ? (a->gpu < b->gpu ? -1 : 1) : a->mig - b->mig; break;
	case TOP_SORT_COUNT: break;
	}
	if (c)
		return c;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->gpu - b->gpu;
}

size_t top_view(const struct top_data *d, enum top_sort s, const char *filter, size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < d->nprocs; i++) {
		size_t k = n;

		if (!matches(&d->procs[i], filter))
			continue;
		/* Insertion sort: a few dozen processes, and a stable order. */
		while (k > 0 && compare(&d->procs[out[k - 1]], &d->procs[i], s) > 0) {
			out[k] = out[k - 1];
			k--;
		}
		out[k] = i;
		n++;
	}
	return n;
}
