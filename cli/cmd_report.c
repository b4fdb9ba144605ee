/* gpuwise report — GPU time per user from gpuwise run's accounting log:
 * GPU-hours, idle GPU-hours (leased while under 5 % busy), queue waits, and
 * the GPUs nobody leased (cli/accounting.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accounting.h"
#include "commands.h"
#include "hosts.h"
#include "output.h"

struct report_opts {
	double since;     /* seconds back; < 0: everything */
	bool json;
	struct hosts_opts hosts;
};

/* Seconds, or a number with s, m, h, d or w. */
static const char *parse_since(void *field, const char *s)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "", 1 }, { "s", 1 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 }, { "w", 604800 },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v > 0) || v > 1e10)
		return N_("needs a duration such as 90m, 24h, 7d or 4w");
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*(double *)field = v * units[i].mult;
			return NULL;
		}
	return N_("needs a duration such as 90m, 24h, 7d or 4w");
}

static const struct option report_options[] = {
	OPT_CALLBACK(0, "since", struct report_opts, since, "DURATION",
		     N_("only jobs that ended in this last stretch of time (90m, 24h, 7d, 4w; default: the whole log)"),
		     parse_since),
	OPT_BOOL(0, "json", struct report_opts, json,
		 N_("print {\"gpuwise_version\", \"pool_dir\", \"since\", \"users\": [{\"user\", \"jobs\", "
		 "\"gpu_seconds\", \"idle_gpu_seconds\", \"wait_seconds\", \"max_wait_seconds\", \"energy_j\"}], "
		 "\"total\": {...}, \"unleased_gpus\": [{\"index\", \"mig\", \"uuid\"}], \"unreadable_gpus\": [{\"index\", "
		 "\"health\", \"health_reason\"}]}")),
	HOSTS_OPTIONS(struct report_opts),
	OPT_END()
};

struct unleased {
	int index, mig;
	char uuid[GW_STR_MAX];
};

static bool was_leased(const struct acct_summary *s, const char *uuid)
{
	for (size_t i = 0; i < s->nuuids; i++)
		if (!strcmp(s->uuids[i], uuid))
			return true;
	return false;
}

/* This machine's GPUs (MIG devices of a GPU in MIG mode) that no job of
 * the window leased. */
static size_t find_unleased(gw_context *ctx, const struct acct_summary *s, struct unleased *out, size_t max)
{
	size_t n = 0;

	for (int i = 0; i < gw_device_count(ctx) && n < max; i++) {
		const gw_device_info *d = gw_device_get(ctx, i);
		gw_device_sample smp;

		if (d->health != GW_HEALTH_OK || !GW_VALID(d->uuid))
			continue;
		if (gw_device_sample_read(ctx, i, &smp) == 0 && smp.mig_count > 0) {
			for (int m = 0; m < smp.mig_count && n < max; m++)
				if (GW_VALID(smp.mig[m].uuid) && !was_leased(s, smp.mig[m].uuid.s)) {
					out[n] = (struct unleased){ i, m, "" };
					snprintf(out[n++].uuid, sizeof(out[0].uuid), "%s", smp.mig[m].uuid.s);
				}
			continue;
		}
		if (was_leased(s, d->uuid.s))
			continue;
		if (d->vendor == GW_VENDOR_AMD) {
			char amd[GW_STR_MAX + 8];

			/* AMD GPUs are leased as GPU-<unique_id> (lib/pool/pool.c). */
			snprintf(amd, sizeof(amd), "GPU-%s", d->uuid.s);
			if (was_leased(s, amd))
				continue;
		}
		out[n] = (struct unleased){ i, -1, "" };
		snprintf(out[n++].uuid, sizeof(out[0].uuid), "%s", d->uuid.s);
	}
	return n;
}

static void human_hours(char *buf, size_t n, double h)
{
	snprintf(buf, n, "%.2f", h);
}

static const char *human_wait(char *buf, size_t n, double s)
{
	if (s < 60)
		snprintf(buf, n, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, n, "%ldm%02lds", (long)s / 60, (long)s % 60);
	else
		snprintf(buf, n, "%.1fh", s / 3600);
	return buf;
}

/* name: the user, or the total row's word; w: the column widths */
static void user_line(const struct acct_user *u, const char *name, const int *w)
{
	char gh[32], ih[32], mean[32], max[32], pct[16] = "-", who[96], safe[300];

	human_hours(gh, sizeof(gh), u->gpu_hours);
	human_hours(ih, sizeof(ih), u->idle_gpu_hours);
	if (u->gpu_hours > 0)
		snprintf(pct, sizeof(pct), "%.0f%%", 100.0 * u->idle_gpu_hours / u->gpu_hours);
	human_wait(mean, sizeof(mean), u->jobs ? u->wait_hours * 3600 / u->jobs : 0);
	human_wait(max, sizeof(max), u->max_wait_s);
	printf("%s %*u %*s %*s %*s %*s %*s\n", pad_cells(who, sizeof(who), term_safe(safe, sizeof(safe), name), w[0], false), w[1], u->jobs, w[2], gh,
	       w[3], ih, w[4], pct, w[5], mean, w[6], max);
}

/* The columns; a Chinese title may widen its column (table_header_cells). */
static const struct table_col report_col[] = {
	{ N_("USER"), 16, false }, { N_("JOBS"), 5, true }, { N_("GPU-HOURS"), 10, true },
	{ N_("IDLE-HOURS"), 10, true }, { N_("IDLE"), 6, true }, { N_("WAIT-MEAN"), 10, true },
	{ N_("WAIT-MAX"), 10, true },
};
#define REPORT_COLS (sizeof(report_col) / sizeof(report_col[0]))

/* The GPUs gpuwise could not read, one line each with list's reason, or,
 * when none could be read, why: which GPUs nobody leased is then unknown.
 * Returns how many GPUs could be read. */
static int print_unread(gw_context *ctx)
{
	int nread = readable_count(ctx), width = output_width(stdout);
	char why[1024], *line;

	if (!nread) {
		line = str_printf(_("Cannot tell which GPUs nobody leased: %s."),
				  no_gpu_sentence(ctx, why, sizeof(why)));
		print_wrapped(stdout, width, "", "  ", line);
		free(line);
		return 0;
	}
	for (int i = 0; i < gw_device_count(ctx); i++) {
		const gw_device_info *d = gw_device_get(ctx, i);

		if (device_readable(d))
			continue;
		gw_device_health_reason(ctx, i, why, sizeof(why));
		line = str_printf(_("GPU %d could not be read: %s%s%s"), i, gw_health_name(d->health),
				  why[0] ? ": " : "", why);
		print_wrapped(stdout, width, "", "  ", line);
		free(line);
	}
	return nread;
}

static void print_human(gw_context *ctx, const struct acct_summary *s, double since, const struct unleased *un,
			size_t nun, const char *dir, bool no_log)
{
	int w[REPORT_COLS];

	if (since > 0) {
		char when[64];
		time_t t = (time_t)since;
		struct tm tm;

		strftime(when, sizeof(when), "%Y-%m-%d %H:%M", localtime_r(&t, &tm));
		printf(_("GPU use of jobs that ended since %s"), when);
		printf("\n");
	} else {
		printf("%s\n", _("GPU use of every job in the accounting log"));
	}
	table_header_cells(report_col, REPORT_COLS, w);
	printf("\n");
	for (size_t i = 0; i < s->nusers; i++)
		user_line(&s->users[i], s->users[i].user, w);
	/* "total" in JSON is a key; here a word */
	if (s->nusers != 1)
		user_line(&s->total, _("total"), w);
	if (no_log) {
		/* nothing was created to find that out (acct_summarize) */
		char *line = str_printf(_("No jobs: there is no accounting log yet (%s/accounting.sqlite does not "
					  "exist; 'gpuwise run' writes it)."), dir);

		print_wrapped(stdout, output_width(stdout), "", "  ", line ? line : "");
		free(line);
	} else if (!s->total.jobs) {
		printf("%s\n", since > 0 ? _("No job ended in this period.") : _("The accounting log holds no jobs yet."));
	}
	if (!print_unread(ctx))
		return;
	if (!nun) {
		if (readable_count(ctx) < gw_device_count(ctx))
			printf("%s\n", _("Every GPU that could be read was leased at least once."));
		else
			printf("%s\n", _("Every GPU was leased at least once."));
		return;
	}
	printf("%s\n", _("GPUs nobody leased:"));
	for (size_t i = 0; i < nun; i++) {
		if (un[i].mig >= 0)
			printf("  %d:%d  %s\n", un[i].index, un[i].mig, un[i].uuid);
		else
			printf("  %d    %s\n", un[i].index, un[i].uuid);
	}
}

static void json_user(gw_json *j, const struct acct_user *u)
{
	gw_json_object_begin(j);
	gw_json_key(j, "user");
	gw_json_string(j, u->user);
	gw_json_key(j, "jobs");
	gw_json_uint(j, u->jobs);
	gw_json_key(j, "gpu_seconds");
	gw_json_double(j, u->gpu_hours * 3600, 3);
	gw_json_key(j, "idle_gpu_seconds");
	gw_json_double(j, u->idle_gpu_hours * 3600, 3);
	gw_json_key(j, "wait_seconds");
	gw_json_double(j, u->wait_hours * 3600, 3);
	gw_json_key(j, "max_wait_seconds");
	gw_json_double(j, u->max_wait_s, 3);
	gw_json_key(j, "energy_j");
	gw_json_double(j, u->energy_j, 1);
	gw_json_object_end(j);
}

static int print_json_doc(gw_context *ctx, const char *dir, const struct acct_summary *s, double since,
			  const struct unleased *un, size_t nun)
{
	gw_json *j = gw_json_new(2);
	int rc;

	if (!j)
		return -1;
	json_document_begin(j);
	gw_json_key(j, "pool_dir");
	gw_json_string(j, dir);
	gw_json_key(j, "since");
	if (since > 0)
		gw_json_double(j, since, 3);
	else
		gw_json_null(j);
	gw_json_key(j, "users");
	gw_json_array_begin(j);
	for (size_t i = 0; i < s->nusers; i++)
		json_user(j, &s->users[i]);
	gw_json_array_end(j);
	gw_json_key(j, "total");
	json_user(j, &s->total);
	gw_json_key(j, "unleased_gpus");
	gw_json_array_begin(j);
	for (size_t i = 0; i < nun; i++) {
		gw_json_object_begin(j);
		json_index_field(j, "index", un[i].index);
		json_index_field(j, "mig", un[i].mig);
		gw_json_key(j, "uuid");
		gw_json_string(j, un[i].uuid);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	/* Not in unleased_gpus, as nobody can tell: the GPUs not read. */
	gw_json_key(j, "unreadable_gpus");
	gw_json_array_begin(j);
	for (int i = 0; i < gw_device_count(ctx); i++) {
		const gw_device_info *d = gw_device_get(ctx, i);
		char why[1024];

		if (device_readable(d))
			continue;
		gw_json_object_begin(j);
		json_index_field(j, "index", i);
		json_health(j, d, gw_device_health_reason(ctx, i, why, sizeof(why)));
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	gw_json_object_end(j);
	rc = print_json(j);
	gw_json_free(j);
	return rc;
}

static int cmd_report(int argc, char **argv)
{
	struct report_opts o = { -1, false, { NULL, 2.0, NULL, NULL } };
	struct acct_summary s;
	struct unleased un[256];
	gw_context *ctx;
	char **args, err[512];
	const char *dir = gw_pool_default_dir();
	double since = 0;
	size_t nun;
	bool no_log;
	int rc;

	if (parse_options(&cmd_report_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	if (o.hosts.list && o.since >= 0)
		die_usage("report", "%s", _("--hosts reports who uses the nodes' GPUs now: no --since"));
	if (o.hosts.list)
		return hosts_ps(&o.hosts, o.json, true);
	if (o.since > 0)
		since = clock_seconds(CLOCK_REALTIME) - o.since;   /* to the fraction: "--since 1s" is the last second */
	if ((rc = acct_summarize(dir, since, &s, err, sizeof(err))) < 0) {
		error_msg("%s", err);
		return EXIT_FAIL;
	}
	if (!(ctx = open_context())) {
		acct_summary_free(&s);
		return EXIT_FAIL;
	}
	nun = find_unleased(ctx, &s, un, sizeof(un) / sizeof(un[0]));
	no_log = rc == 1;
	if (o.json)
		rc = print_json_doc(ctx, dir, &s, since, un, nun);
	else
		rc = (print_human(ctx, &s, since, un, nun, dir, no_log), 0);
	acct_summary_free(&s);
	gw_context_free(ctx);
	return rc < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct cmd cmd_report_def = {
	.name = "report",
	.fn = cmd_report,
	.summary = N_("GPU-hours per user, idle GPU-hours and queue waits from gpuwise run's log"),
	.options = report_options,
	.description =
		N_("Sum up the accounting log that 'gpuwise run' writes when each job ends (accounting.sqlite in the "
		"pool folder, GPUWISE_POOL_DIR or /var/tmp/gpuwise): per user the jobs, GPU-hours (GPUs leased "
		"times hours), idle GPU-hours (leased while the GPU was under 5 % busy, from samples taken every "
		"second while the job ran), the share of idle time, and the mean and longest wait in the queue; "
		"then the GPUs of this machine that no job of the period leased. --json gives the same in seconds "
		"and joules. An empty or missing log reports zero jobs."),
	.exit_status = N_("Exit status: 0; 1 when the log cannot be read (or gpuwise was built without SQLite); 2 "
			  "on a usage error."),
};
