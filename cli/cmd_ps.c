/* gpuwise ps — the jobs of the GPU pool (gpuwise run): who holds which GPUs
 * since when and how busy they are, and who waits (docs/contracts.md "Sharing
 * GPUs"). The jobs come from the library (gw_pool_jobs); utilisation and
 * memory are a fresh sample of each leased GPU. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"
#include "hosts.h"
#include "output.h"

/* Below this utilisation a leased GPU counts as idle (also in report). */
#define IDLE_PERCENT 5

struct ps_opts {
	bool json;
	struct hosts_opts hosts;
};

static const struct option ps_options[] = {
	OPT_BOOL(0, "json", struct ps_opts, json,
		 N_("print {\"gpuwise_version\", \"pool_dir\", \"jobs\": [{\"job\", \"state\", \"name\", \"command\", "
		 "\"user\", \"uid\", \"pid\", \"job_pid\", \"gpus_requested\", \"queued\", \"since\", \"seconds\", "
		 "\"gpus\": [{\"uuid\", \"index\", \"mig\", \"utilization_percent\", \"memory_used_bytes\"}], "
		 "\"utilization_percent\", \"memory_used_bytes\", \"idle\"}]}")),
	HOSTS_OPTIONS(struct ps_opts),
	OPT_END()
};

/* One leased GPU or MIG device, sampled now. */
struct leased {
	const char *uuid;
	gw_selection sel;      /* device -1: not on this machine (any more) */
	bool have_util, have_mem;
	uint64_t util, mem;
};

struct job_view {
	const gw_pool_job *job;
	struct leased gpu[GW_POOL_MAX_LEASED];
	int n;
	bool have_util, have_mem, idle;
	double util;           /* mean over the leased GPUs */
	uint64_t mem;          /* sum */
};

static void sample_leased(gw_context *ctx, struct leased *l)
{
	gw_selection *sel;
	size_t n;
	gw_device_sample s;

	l->sel.device = -1;
	l->sel.mig = -1;
	if (gw_context_select(ctx, l->uuid, &sel, &n) < 0 || n != 1)
		return;
	l->sel = sel[0];
	gw_selection_free(sel);
	if (gw_device_sample_read(ctx, l->sel.device, &s) < 0)
		return;
	/* A MIG device reports no utilisation of its own: its GPU's. */
	if ((l->have_util = GW_VALID(s.gpu_util)))
		l->util = s.gpu_util.v;
	if (l->sel.mig >= 0 && l->sel.mig < s.mig_count) {
		if ((l->have_mem = GW_VALID(s.mig[l->sel.mig].memory_used)))
			l->mem = s.mig[l->sel.mig].memory_used.v;
	} else if ((l->have_mem = GW_VALID(s.memory_used))) {
		l->mem = s.memory_used.v;
	}
}

static void view_job(gw_context *ctx, const gw_pool_job *job, struct job_view *v)
{
	double sum = 0;
	int nutil = 0;

	memset(v, 0, sizeof(*v));
	v->job = job;
	v->n = job->state == GW_POOL_RUNNING ? job->nleased : 0;
	v->idle = v->n > 0;
	for (int i = 0; i < v->n; i++) {
		struct leased *l = &v->gpu[i];

		l->uuid = job->leased[i];
		sample_leased(ctx, l);
		if (l->have_util) {
			sum += (double)l->util;
			nutil++;
		}
		v->idle &= l->have_util && l->util < IDLE_PERCENT;
		if (l->have_mem) {
			v->mem += l->mem;
			v->have_mem = true;
		}
	}
	if ((v->have_util = nutil > 0))
		v->util = sum / nutil;
}

/* 42s, 3m05s, 2h04m, 3d02h */
static const char *duration(char *buf, size_t n, double s)
{
	long t = s < 0 ? 0 : (long)s;

	if (t < 60)
		snprintf(buf, n, "%lds", t);
	else if (t < 3600)
		snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
	else if (t < 86400)
		snprintf(buf, n, "%ldh%02ldm", t / 3600, t % 3600 / 60);
	else
		snprintf(buf, n, "%ldd%02ldh", t / 86400, t % 86400 / 3600);
	return buf;
}

static void gpus_cell(char *buf, size_t n, const struct job_view *v)
{
	size_t k = 0;

	buf[0] = '\0';
	if (v->job->state == GW_POOL_WAITING) {
		snprintf(buf, n, "(%u)", v->job->gpus);
		return;
	}
	for (int i = 0; i < v->n && k < n; i++) {
		const gw_selection *s = &v->gpu[i].sel;

		if (s->device < 0)
			k += (size_t)snprintf(buf + k, n - k, "%s?", i ? "," : "");
		else if (s->mig >= 0)
			k += (size_t)snprintf(buf + k, n - k, "%s%d:%d", i ? "," : "", s->device, s->mig);
		else
			k += (size_t)snprintf(buf + k, n - k, "%s%d", i ? "," : "", s->device);
	}
}

/* The columns; a Chinese title may widen its column (table_header_cells). */
static const struct table_col ps_col[] = {
	{ N_("JOB"), 5, false }, { N_("STATE"), 8, false }, { N_("USER"), 10, false },
	{ N_("PID"), 8, false }, { N_("GPUS"), 10, false }, { N_("SINCE"), 7, false },
	{ N_("UTIL"), 5, true }, { N_("MEMORY"), 10, true }, { N_("IDLE"), 4, false },
};
#define PS_COLS (sizeof(ps_col) / sizeof(ps_col[0]))

static void print_human(const gw_pool_job *jobs, const struct job_view *views, size_t n, bool locks)
{
	double now = clock_seconds(CLOCK_REALTIME);
	int w[PS_COLS], width = output_width(stdout);

	if (!n) {
		/* Not "free" while someone holds a lock without a job. */
		printf("%s\n", locks ? _("no jobs") : _("no jobs: every GPU of the pool is free"));
		return;
	}
	/* The name and command, which can be of any length, go on a line of
	 * their own under each row, wrapped to the terminal. */
	table_header_cells(ps_col, PS_COLS, w);
	printf("\n      %s\n", _("NAME: COMMAND"));
	for (size_t i = 0; i < n; i++) {
		const struct job_view *v = &views[i];
		char gpus[256], since[32], util[16] = "-", mem[32] = "-", idle[32], user[256], name[1024], cmd[8192];

		gpus_cell(gpus, sizeof(gpus), v);
		/* 0: the record gave no usable time (another user's file). */
		if (jobs[i].since > 0)
			duration(since, sizeof(since), now - jobs[i].since);
		else
			snprintf(since, sizeof(since), "-");
		if (v->have_util)
			snprintf(util, sizeof(util), "%.0f%%", v->util);
		if (v->have_mem)
			fmt_bytes(mem, sizeof(mem), v->mem);
		/* the state is an identifier (as in --json); "yes"/"no" are words */
		pad_cells(idle, sizeof(idle), jobs[i].state != GW_POOL_RUNNING ? "-" : v->idle ? _("yes") : _("no"),
			  w[8], false);
		char *first;

		/* Another user's strings: control characters shown escaped. */
		printf("%-*llu %-*s %-*s %-*d %-*s %-*s %*s %*s %s\n", w[0], (unsigned long long)jobs[i].id,
		       w[1], jobs[i].state == GW_POOL_RUNNING ? "running" : "waiting", w[2],
		       term_safe(user, sizeof(user), jobs[i].user), w[3], jobs[i].pid, w[4], gpus, w[5], since, w[6], util,
		       w[7], mem, idle);
		first = str_printf("      %s: ", term_safe(name, sizeof(name), jobs[i].name));
		print_wrapped(stdout, width, first ? first : "      ", "        ",
			      term_safe(cmd, sizeof(cmd), jobs[i].command));
		free(first);
	}
}

/* Whether a lock is a running job's lease (its supervisor, or the job,
 * holds it); the pool's lock is nobody's lease. */
static bool is_lease(const gw_pool_holder *h, const gw_pool_job *jobs, size_t n)
{
	for (size_t i = 0; h->uuid[0] && i < n; i++)
		for (int k = 0; jobs[i].state == GW_POOL_RUNNING && k < jobs[i].nleased; k++)
			if (!strcmp(jobs[i].leased[k], h->uuid) && (h->locker == jobs[i].pid || h->pid == jobs[i].job_pid))
				return true;
	return false;
}

/* Locks held without a job: someone running flock on a pool file, a job's
 * leftover process, the pool's lock held for long. */
static void print_holders(const gw_pool_holder *h, size_t nh, const gw_pool_job *jobs, size_t n)
{
	for (size_t i = 0; i < nh; i++) {
		char user[256], comm[128], what[160];

		if (is_lease(&h[i], jobs, n))
			continue;
		if (h[i].uuid[0])
			snprintf(what, sizeof(what), _("GPU %s"), h[i].uuid);
		else
			snprintf(what, sizeof(what), "%s", _("the pool's lock"));
		term_safe(user, sizeof(user), h[i].user[0] ? h[i].user : "?");
		term_safe(comm, sizeof(comm), h[i].comm[0] ? h[i].comm : "?");
		if (h[i].pid)
			printf(_("%s: locked without a job by pid %d (user %s, %s)%s\n"), what, h[i].pid, user, comm,
			       h[i].locker_gone ? _(", left by an ended process") : "");
		else
			printf(_("%s: locked without a job by pid %d (ended: a process it started keeps the lock)\n"), what,
			       h[i].locker);
	}
}

static void json_holders(gw_json *j, const gw_pool_holder *h, size_t nh, const gw_pool_job *jobs, size_t n)
{
	gw_json_key(j, "locks_without_job");
	gw_json_array_begin(j);
	for (size_t i = 0; i < nh; i++) {
		if (is_lease(&h[i], jobs, n))
			continue;
		gw_json_object_begin(j);
		gw_json_key(j, "file");
		gw_json_string(j, h[i].file);
		gw_json_key(j, "uuid");
		if (h[i].uuid[0])
			gw_json_string(j, h[i].uuid);
		else
			gw_json_null(j);
		gw_json_key(j, "pid");
		gw_json_int(j, h[i].pid);
		gw_json_key(j, "locker_pid");
		gw_json_int(j, h[i].locker);
		gw_json_key(j, "user");
		gw_json_string(j, h[i].user);
		gw_json_key(j, "uid");
		gw_json_int(j, h[i].uid);
		gw_json_key(j, "comm");
		gw_json_string(j, h[i].comm);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

static void json_leased(gw_json *j, const struct leased *l)
{
	gw_json_object_begin(j);
	gw_json_key(j, "uuid");
	gw_json_string(j, l->uuid);
	json_index_field(j, "index", l->sel.device);
	json_index_field(j, "mig", l->sel.mig);
	gw_json_key(j, "utilization_percent");
	if (l->have_util)
		gw_json_uint(j, l->util);
	else
		gw_json_null(j);
	gw_json_key(j, "memory_used_bytes");
	if (l->have_mem)
		gw_json_uint(j, l->mem);
	else
		gw_json_null(j);
	gw_json_object_end(j);
}

static void json_job(gw_json *j, const gw_pool_job *job, const struct job_view *v, double now)
{
	bool running = job->state == GW_POOL_RUNNING;

	gw_json_object_begin(j);
	gw_json_key(j, "job");
	gw_json_uint(j, job->id);
	gw_json_key(j, "state");
	gw_json_string(j, running ? "running" : "waiting");
	gw_json_key(j, "name");
	gw_json_string(j, job->name);
	gw_json_key(j, "command");
	gw_json_string(j, job->command);
	gw_json_key(j, "user");
	gw_json_string(j, job->user);
	gw_json_key(j, "uid");
	gw_json_uint(j, job->uid);
	gw_json_key(j, "pid");
	gw_json_int(j, job->pid);
	gw_json_key(j, "job_pid");
	if (job->job_pid > 0)
		gw_json_int(j, job->job_pid);
	else
		gw_json_null(j);
	gw_json_key(j, "gpus_requested");
	gw_json_uint(j, job->gpus);
	gw_json_key(j, "queued");
	gw_json_double(j, job->queued, 3);
	gw_json_key(j, "since");
	gw_json_double(j, job->since, 3);
	gw_json_key(j, "seconds");
	gw_json_double(j, now - job->since > 0 ? now - job->since : 0, 3);
	gw_json_key(j, "gpus");
	gw_json_array_begin(j);
	for (int i = 0; i < v->n; i++)
		json_leased(j, &v->gpu[i]);
	gw_json_array_end(j);
	gw_json_key(j, "utilization_percent");
	if (v->have_util)
		gw_json_double(j, v->util, 1);
	else
		gw_json_null(j);
	gw_json_key(j, "memory_used_bytes");
	if (v->have_mem)
		gw_json_uint(j, v->mem);
	else
		gw_json_null(j);
	gw_json_key(j, "idle");
	if (running)
		gw_json_bool(j, v->idle);
	else
		gw_json_null(j);
	gw_json_object_end(j);
}

/* pool NULL: there is no pool folder yet (dir names where it would be). */
static int print_json_doc(const char *dir, const gw_pool *pool, const gw_pool_job *jobs,
			  const struct job_view *views, size_t n, const gw_pool_holder *h, size_t nh)
{
	gw_json *j = gw_json_new(2);
	double now = clock_seconds(CLOCK_REALTIME);
	int rc;

	if (!j) {
		error_msg(_("out of memory"));
		return -1;
	}
	json_document_begin(j);
	gw_json_key(j, "pool_dir");
	gw_json_string(j, dir);
	gw_json_key(j, "jobs");
	gw_json_array_begin(j);
	for (size_t i = 0; i < n; i++)
		json_job(j, &jobs[i], &views[i], now);
	gw_json_array_end(j);
	json_holders(j, h, nh, jobs, n);
	gw_json_key(j, "jobs_capped");
	gw_json_bool(j, pool && gw_pool_jobs_capped(pool));
	gw_json_object_end(j);
	rc = print_json(j);
	gw_json_free(j);
	return rc;
}

/* ---- no pool folder yet ----------------------------------------------------- */

/* Looking creates nothing: gw_pool_open() makes the pool folder and its
 * lock file, as gpuwise run needs; ps only reads. A folder
 * that is not there holds no jobs. */
static bool pool_missing(const char *dir)
{
	struct stat st;

	return lstat(dir, &st) != 0 && errno == ENOENT;
}

static int print_no_pool(const char *dir, bool json)
{
	if (json)
		return print_json_doc(dir, NULL, NULL, NULL, 0, NULL, 0) < 0 ? EXIT_FAIL : EXIT_OK;
	printf(_("no jobs: there is no pool yet (%s does not exist; 'gpuwise run' creates it)"), dir);
	printf("\n");
	return EXIT_OK;
}

static int cmd_ps(int argc, char **argv)
{
	struct ps_opts o = { false, { NULL, 2.0, NULL, NULL } };
	gw_context *ctx;
	gw_pool *pool;
	gw_pool_job *jobs = NULL;
	gw_pool_holder *holders = NULL;
	struct job_view *views;
	size_t n = 0, nh = 0;
	char **args;
	int rc;

	if (parse_options(&cmd_ps_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	if (o.hosts.list)
		return hosts_ps(&o.hosts, o.json, false);
	if (pool_missing(gw_pool_default_dir()))
		return print_no_pool(gw_pool_default_dir(), o.json);
	if (!(ctx = open_context()))
		return EXIT_FAIL;
	if (gw_pool_open(&pool, ctx, NULL) < 0 || gw_pool_jobs(pool, &jobs, &n) < 0) {
		error_msg("%s", gw_error_last_text());
		gw_context_free(ctx);
		return EXIT_FAIL;
	}
	if (gw_pool_holders(pool, &holders, &nh) < 0)
		gw_error_clear();   /* only the list of locks without a job */
	if (!(views = calloc(n ? n : 1, sizeof(*views)))) {
		error_msg(_("out of memory"));
		rc = -1;
	} else {
		for (size_t i = 0; i < n; i++)
			view_job(ctx, &jobs[i], &views[i]);
		if (o.json)
			rc = print_json_doc(gw_pool_dir(pool), pool, jobs, views, n, holders, nh);
		else {
			bool locks = false;

			for (size_t i = 0; i < nh; i++)
				locks |= !is_lease(&holders[i], jobs, n);
			print_human(jobs, views, n, locks);
			print_holders(holders, nh, jobs, n);
			rc = 0;
		}
		if (gw_pool_jobs_capped(pool))
			warning_msg(_("the pool folder %s holds more job files than gpuwise reads (4096): later jobs "
				      "are not shown"), gw_pool_dir(pool));
	}
	gw_pool_holders_free(holders);
	free(views);
	gw_pool_jobs_free(jobs);
	gw_pool_close(pool);
	gw_context_free(ctx);
	return rc < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct cmd cmd_ps_def = {
	.name = "ps",
	.fn = cmd_ps,
	.summary = N_("the GPU pool's jobs: who holds which GPUs, how busy they are, who waits"),
	.options = ps_options,
	.description =
		N_("List the jobs of the GPU pool that 'gpuwise run' keeps (GPUWISE_POOL_DIR or /var/tmp/gpuwise), "
		"running and waiting, in queue order: job number (GPUWISE_LEASE), state, "
		"user, the pid of the supervising 'gpuwise run', the leased GPUs as 'gpuwise list' numbers them "
		"(G:M for a MIG device; a waiting job shows how many it asked for in parentheses), how long it has "
		"run or waited, the GPUs' current utilisation (mean) and memory used (sum), whether they are idle "
		"(every leased GPU under 5 % busy now), and the job's name and command. Jobs whose processes have "
		"all ended are not shown."),
	.exit_status = N_("Exit status: 0, also when the pool is empty; 1 when the pool folder cannot be read; 2 "
			  "on a usage error."),
};
