/* gpuwise watch — one line (table or CSV) or one JSON object per sample,
 * every -d seconds, until -n samples or SIGINT. The sampler
 * (include/gpuwise/sampler.h) is stepped here, so -n is exact and each
 * sample reads each getter once; the fields are rows of the metric table,
 * chosen by key or JSON path (--fields help lists them). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "output.h"
#include "text.h"
#include "hosts.h"

#define WATCH_MAX_FIELDS 64

struct watch_opts {
	double delay;
	long count;
	struct opt_list ids;
	const char *fields;
	bool csv, json;
	struct hosts_opts hosts;
};

/* The defaults, by metric key: for --json and --csv those of /api/status
 * (sample_default_fields, docs/contracts.md "Live monitoring"); the table leaves
 * out what reads poorly in columns (the total memory, the energy counter,
 * the list of throttle reasons). */
static const char *const default_table_fields =
	"gpu_util,mem_util,memory_used,temperature_c,power_draw,sm_clock,mem_clock,pcie_tx,pcie_rx";

struct watch {
	gw_context *ctx;
	gw_sampler *sampler;
	int fields[WATCH_MAX_FIELDS];
	int nfields;
	int width[WATCH_MAX_FIELDS]; /* table columns, in display cells */
	bool csv, json, color;
	double delay;
	FILE *out;
	struct sample_device *devs; /* --json: one per sampled GPU */
};

/* Column names are identifiers (like the metric keys after them), the
 * same in every language: scripts read them. */
static const char csv_columns[] = "time,index,uuid,health";
static const char table_time[] = "time", table_gpu[] = "gpu";
static const char unknown_prefix[] = "unknown_0x"; /* as info --json names an unknown bit */

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static const char *parse_delay(void *field, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= 0.05) || v > 86400)
		return "needs a number of seconds (0.05 <= s <= 86400)";
	*(double *)field = v;
	return NULL;
}

static const char *parse_count(void *field, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < 1)
		return "needs a whole number of samples (1 or more)";
	*(long *)field = v;
	return NULL;
}

static const struct option watch_options[] = {
	OPT_CALLBACK('d', "delay", struct watch_opts, delay, "SECONDS",
		     N_("seconds between two samples (default 1, at least 0.05)"), parse_delay),
	OPT_CALLBACK('n', "count", struct watch_opts, count, "COUNT",
		     N_("stop after COUNT samples (default: until interrupted)"), parse_count),
	OPT_LIST('i', "id", struct watch_opts, ids, "SEL",
		 N_("only the GPUs SEL names (a comma-separated list; -i may be repeated): gpuwise index, UUID "
		    "or a unique prefix of one, or PCI bus id, as for info; a MIG device selects its GPU")),
	OPT_STRING(0, "fields", struct watch_opts, fields, "LIST",
		   N_("the metrics to show, comma-separated, by key or JSON path (gpu_util or "
		      "utilization.gpu_percent); 'help' lists them all")),
	OPT_BOOL(0, "csv", struct watch_opts, csv,
		 N_("print CSV: a header line, then one line per GPU and sample (time in unix seconds, values in "
		    "the units of info --json, empty when unknown)")),
	OPT_BOOL(0, "json", struct watch_opts, json,
		 N_("print one JSON object per sample and line: {\"gpuwise_version\", \"time\", \"devices\": [{\"index\", "
		    "\"uuid\", \"health\", and the fields at their info --json paths}]}")),
	HOSTS_OPTIONS(struct watch_opts),
	OPT_END()
};

/* ---- fields ----------------------------------------------------------- */

/* One line of the --fields help table, each column padded in display
 * cells: a translated header ("键名", 2 cells a character) padded by
 * bytes would come out too short and shift the columns after it. */
static void fields_help_line(FILE *out, const char *key, const char *json, const char *unit, const char *column,
			     const char *description)
{
	char a[128], b[128], c[64], d[64];

	fprintf(out, "%s %s %s %s %s\n", pad_cells(a, sizeof(a), key, 30, false),
		pad_cells(b, sizeof(b), json, 34, false), pad_cells(c, sizeof(c), unit, 6, false),
		pad_cells(d, sizeof(d), column, 6, false), description);
}

static int print_fields_help(void)
{
	FILE *out = stdout;

	fields_help_line(out, _("KEY"), _("JSON PATH"), _("UNIT"), _("COLUMN"), _("DESCRIPTION"));
	for (int i = 0; i < gw_metric_count(); i++) {
		const gw_metric_info *m = gw_metric_info_get(i);

		if (m->flags & GW_METRIC_F_ALIAS && strcmp(m->key, "temperature_c"))
			continue;
		fields_help_line(out, m->key, m->json, *m->unit ? m->unit : "-", _(m->column), m->description);
	}
	return EXIT_OK;
}

/* "gpu_util,power.draw_w" into w->fields; a usage error names the bad one. */
static void parse_fields(struct watch *w, const char *list)
{
	char *copy = strdup(list), *save = NULL;

	if (!copy) {
		error_msg(_("out of memory"));
		exit(EXIT_FAIL);
	}
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int id = gw_metric_find(tok);
		bool dup = false;

		if (id < 0)
			die_usage("watch", "%s: '%s'", _("--fields: no such metric (gpuwise watch --fields help lists them)"), tok);
		for (int k = 0; k < w->nfields; k++)
			dup |= w->fields[k] == id;
		if (dup)
			continue;
		if (w->nfields == WATCH_MAX_FIELDS)
			die_usage("watch", _("--fields: at most %d fields"), WATCH_MAX_FIELDS);
		w->fields[w->nfields++] = id;
	}
	free(copy);
	if (!w->nfields)
		die_usage("watch", "%s", _("--fields needs at least one metric"));
	/* JSON nests by path: the table's order keeps each object's members together. */
	if (w->json)
		sample_fields_sort(w->fields, w->nfields);
}

/* ---- devices ---------------------------------------------------------- */

/* The gpuwise indices -i names (MIG devices: their GPU), in the order
 * given, or every GPU a driver serves; returns an exit code. */
static int pick_devices(gw_context *ctx, const char *sel, int **out, int *n)
{
	gw_selection *list = NULL;
	size_t count = 0;
	int ndev = gw_device_count(ctx), rc, *idx;

	*n = 0;
	if (sel && (rc = gw_context_select(ctx, sel, &list, &count)) < 0) {
		error_msg("%s%s", gw_error_last_text(), rc == GW_ENOTFOUND ? _("; see 'gpuwise list'") : "");
		return rc == GW_ENOTFOUND || rc == GW_ENOMEM ? EXIT_FAIL : EXIT_USAGE;
	}
	if (!(idx = calloc((size_t)ndev + 1, sizeof(*idx)))) {
		gw_selection_free(list);
		error_msg(_("out of memory"));
		return EXIT_FAIL;
	}
	for (size_t k = 0; k < count; k++) {
		bool dup = false;

		for (int j = 0; j < *n; j++)
			dup |= idx[j] == list[k].device;
		if (!dup)
			idx[(*n)++] = list[k].device;
	}
	for (int i = 0; !sel && i < ndev; i++) {
		gw_health h = gw_device_get(ctx, i)->health;

		if (h != GW_HEALTH_NO_DRIVER && h != GW_HEALTH_UNSUPPORTED)
			idx[(*n)++] = i;
	}
	gw_selection_free(list);
	*out = idx;
	return EXIT_OK;
}

/* ---- output ----------------------------------------------------------- */

static const char *uuid_of(const gw_device_info *d)
{
	return GW_VALID(d->uuid) ? d->uuid.s : NULL;
}

static void time_text(char *buf, size_t n, double t, double delay)
{
	time_t sec = (time_t)t;
	struct tm tm;

	localtime_r(&sec, &tm);
	strftime(buf, n, "%H:%M:%S", &tm);
	if (delay < 1 && strlen(buf) + 4 < n)
		snprintf(buf + strlen(buf), n - strlen(buf), ".%02d", (int)((t - floor(t)) * 100));
}

/* Units shown on the value itself in the table: one letter is enough. */
static bool unit_on_value(const gw_metric_info *m)
{
	return m->form == GW_MFORM_NUMBER && (!strcmp(m->unit, "%") || !strcmp(m->unit, "W") || !strcmp(m->unit, "C"));
}

/* x with a prefix letter from `prefixes` (steps of `base`) so that it
 * takes at most 5 characters: 70.0G, 567K, 1023B, 12.3M. */
static const char *compact_scaled(char *buf, size_t n, double x, double base, const char *prefixes)
{
	const char *p = prefixes;

	while (x >= 1000 && p[1]) {
		x /= base;
		p++;
	}
	if (p == prefixes || x >= 99.95)
		snprintf(buf, n, "%.0f%.1s", x, p);
	else
		snprintf(buf, n, "%.1f%.1s", x, p);
	return buf;
}

/* A value as the table shows it, compact like nvidia-smi dmon's (the
 * unit is in the second header line): "98%", "70.0G", "601W", "60C",
 * "2619" (MHz), "567K" (B/s); states and text as `info` writes them. */
static const char *table_value(char *buf, size_t n, const gw_metric_info *m, const gw_metric_value *v)
{
	double x;

	if (m->form == GW_MFORM_BYTES)
		return compact_scaled(buf, n, (double)v->u, 1024, "BKMGTP");
	if (m->form != GW_MFORM_NUMBER)
		return metric_text(buf, n, m, v);
	x = m->type == GW_MTYPE_F64 ? v->f : (double)v->u;
	if (unit_on_value(m))
		snprintf(buf, n, "%.0f%s", x, m->unit);
	else if (x >= 99999.5 || x <= -99999.5) /* energy in J, counters */
		compact_scaled(buf, n, x, 1000, " kMGTPE");
	else if (m->type == GW_MTYPE_F64 && m->decimals > 0 && x < 99.95 && x > -9.95)
		snprintf(buf, n, "%.1f", x);
	else
		snprintf(buf, n, "%.0f", x);
	return buf;
}

/* Numbers and bytes take at most 5 cells ("70.0G", "567K"); every other
 * column (text, states) is as wide as its widest value, up to this many
 * cells: a GPU UUID (40) still fits whole, and a longer value is cut with
 * "…" rather than pushing the columns after it out of line (the whole of
 * it is in --csv, --json and `gpuwise info`). */
#define WATCH_TEXT_MAX 40

static bool text_column(const gw_metric_info *m)
{
	return m->form != GW_MFORM_NUMBER && m->form != GW_MFORM_BYTES;
}

/* Cells of a value as the table shows it ("N/A" when not valid). */
static int value_cells(const gw_metric_info *m, const gw_metric_value *v)
{
	char buf[512];

	if (v->state != GW_FIELD_VALID)
		snprintf(buf, sizeof(buf), "N/A");
	else
		table_value(buf, sizeof(buf), m, v);
	return text_columns(buf, strlen(buf));
}

/* The widest value a state column can take, from every value of its form
 * (a throttle list: its longest single reason; more are cut with "…"). */
static int widest_state(const gw_metric_info *m)
{
	gw_metric_value v = { .type = m->type, .state = GW_FIELD_VALID };
	int most = 0, c, last = m->form == GW_MFORM_PSTATE ? 15 : m->form == GW_MFORM_COMPUTE_MODE ? 4 : 1;

	if (m->form == GW_MFORM_THROTTLE) {
		for (int bit = 0; bit < 64; bit++) {
			v.u = (uint64_t)1 << bit;
			if (gw_throttle_reason_title(v.u) && (c = value_cells(m, &v)) > most)
				most = c;
		}
		return most;
	}
	for (v.u = 0; v.u <= (uint64_t)last; v.u++)
		if ((c = value_cells(m, &v)) > most)
			most = c;
	return most;
}

/* The widest value of a text field among the GPUs watched: every text of
 * the metric table (name, ids, versions) is read once, when the context
 * opens, so the column fits them all from the start ("N/A" for a GPU that
 * could not be read, as its rows show). */
static int widest_text(const struct watch *w, const gw_metric_info *m)
{
	int most = 0, c;

	for (int k = 0; k < gw_sampler_device_count(w->sampler); k++) {
		gw_metric_value v;
		const gw_device_info *info = gw_device_get(w->ctx, gw_sampler_device_index(w->sampler, k));

		gw_device_metric_value(info, NULL, m->id, &v);
		if ((c = value_cells(m, &v)) > most)
			most = c;
	}
	return most;
}

/* Cells a column needs: its label, its unit, its widest value. Fixed
 * when the header is printed, so that a live table stays in line. */
static int column_width(const struct watch *w, const gw_metric_info *m)
{
	const char *label = _(m->column);
	int value = 5, l;

	if (unit_on_value(m) && strcmp(m->unit, "W")) /* "100%", "105C" */
		value = 4;
	else if (text_column(m))
		value = m->form == GW_MFORM_TEXT ? widest_text(w, m) : widest_state(m);
	if (value > WATCH_TEXT_MAX)
		value = WATCH_TEXT_MAX;
	l = text_columns(label, strlen(label));
	if ((int)strlen(m->unit) > l)
		l = (int)strlen(m->unit);
	return l > value ? l : value;
}

/* A cell of column k: numbers right-aligned, text left-aligned; the last
 * column's text is not padded (no trailing spaces). */
static void table_cell(struct watch *w, int k, const char *text)
{
	char buf[1100];
	bool left = text_column(gw_metric_info_get(w->fields[k]));

	if (left && k == w->nfields - 1)
		fprintf(w->out, "  %s", text);
	else
		fprintf(w->out, "  %s", pad_cells(buf, sizeof(buf), text, w->width[k], !left));
}

/* Display cells of a table row: the time, the GPU and each column. */
static int table_cells(const struct watch *w)
{
	int n = (w->delay < 1 ? 11 : 8) + 4;

	for (int k = 0; k < w->nfields; k++)
		n += 2 + column_width(w, gw_metric_info_get(w->fields[k]));
	return n;
}

/* The default table shows how busy the SMs really are (GPM's SM active)
 * beside "util" when a GPU watched has GPM (the others show N/A there),
 * as long as the table still fits in 80 cells (not with a sub-second
 * time column). */
static void add_sm_active_column(struct watch *w, const int *devs, int ndev)
{
	int id = gw_metric_find("sm_active"), util = gw_metric_find("gpu_util"), at = 0;
	bool any = false;

	for (int i = 0; i < ndev && !any; i++) {
		const gw_device_info *d = gw_device_get(w->ctx, devs[i]);

		any = d && GW_VALID(d->gpm_supported) && d->gpm_supported.v;
	}
	if (!any || id < 0 || w->nfields >= WATCH_MAX_FIELDS)
		return;
	for (int k = 0; k < w->nfields; k++) {
		if (w->fields[k] == id)
			return;
		if (w->fields[k] == util)
			at = k + 1;
	}
	memmove(&w->fields[at + 1], &w->fields[at], (size_t)(w->nfields - at) * sizeof(w->fields[0]));
	w->fields[at] = id;
	w->nfields++;
	if (table_cells(w) > 80) {
		memmove(&w->fields[at], &w->fields[at + 1], (size_t)(w->nfields - at - 1) * sizeof(w->fields[0]));
		w->nfields--;
	}
}

/* Two header lines, as nvidia-smi dmon's: the columns' short labels (in
 * the user's language, aligned by display cells), then their units. */
static void table_header(struct watch *w)
{
	int lead = w->delay < 1 ? 11 : 8, units = w->nfields;

	fprintf(w->out, "%-*s %3s", lead, table_time, table_gpu);
	for (int k = 0; k < w->nfields; k++) {
		w->width[k] = column_width(w, gw_metric_info_get(w->fields[k]));
		table_cell(w, k, _(gw_metric_info_get(w->fields[k])->column));
	}
	fputc('\n', w->out);
	/* units up to the last column that has one: no trailing spaces */
	while (units > 0 && !*gw_metric_info_get(w->fields[units - 1])->unit)
		units--;
	fprintf(w->out, "%*s", lead + 4, "");
	for (int k = 0; k < units; k++)
		table_cell(w, k, gw_metric_info_get(w->fields[k])->unit);
	fputc('\n', w->out);
}

/* text cut to `cells` display cells, ending with "…" when cut. */
static const char *cut_cells(char *buf, size_t n, const char *text, int cells)
{
	size_t len = strlen(text), at;
	int used, ell = text_ascii() ? 3 : 1;

	if (text_columns(text, len) <= cells) {
		snprintf(buf, n, "%s", text);
		return buf;
	}
	at = fit_cells(text, len, cells - ell, &used);
	snprintf(buf, n, "%.*s…", (int)at, text);
	return buf;
}

static void table_row(struct watch *w, const gw_sample_point *p, const char *when)
{
	const gw_device_info *info = gw_device_get(w->ctx, p->device);
	char why[1024], line[1100], cut[1100];

	fprintf(w->out, "%s %3d", when, p->device);
	if (!p->up) {
		/* Cut to the terminal (the whole reason is in `gpuwise info`):
		 * a wrapped line would break the columns under it. */
		int room = output_width(stdout) - (int)strlen(when) - 6;

		snprintf(line, sizeof(line), "%s: %s", gw_health_name(p->health),
			 info->health_reason[0] ? gw_device_health_reason(w->ctx, p->device, why, sizeof(why))
						: _(gw_error_str(p->error)));
		fprintf(w->out, "  %s%s%s\n", color_health(w->color, p->health),
			cut_cells(cut, sizeof(cut), line, room > 20 ? room : 20), color_reset(w->color));
		return;
	}
	for (int k = 0; k < w->nfields; k++) {
		const gw_metric_info *m = gw_metric_info_get(w->fields[k]);
		gw_metric_value v;
		char buf[512];

		if (gw_device_metric_value(info, &p->sample, w->fields[k], &v) == GW_FIELD_VALID)
			table_value(buf, sizeof(buf), m, &v);
		else
			snprintf(buf, sizeof(buf), "N/A");
		/* wider than its column (a long list of reasons): cut, never
		 * pushing the columns after it out of line */
		table_cell(w, k, cut_cells(line, sizeof(line), buf, w->width[k]));
	}
	fputc('\n', w->out);
}

static void csv_header(struct watch *w)
{
	fputs(csv_columns, w->out);
	for (int k = 0; k < w->nfields; k++)
		fprintf(w->out, ",%s", gw_metric_info_get(w->fields[k])->json);
	fputc('\n', w->out);
}

/* A text value as a CSV field (quoted when it has to be). */
static void csv_text(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* A value as JSON writes it, without quotes; lists (throttle reasons)
 * joined with '|'. */
static void csv_value(FILE *out, const gw_metric_info *m, const gw_metric_value *v)
{
	gw_json *j;
	const char *t;

	if (m->form == GW_MFORM_THROTTLE) {
		const char *sep = "";

		for (int bit = 0; bit < 64; bit++) {
			uint64_t mask = (uint64_t)1 << bit;
			const char *name = gw_throttle_reason_name(mask);

			if (!(v->u & mask))
				continue;
			if (name)
				fprintf(out, "%s%s", sep, name);
			else
				fprintf(out, "%s%s%llx", sep, unknown_prefix, (unsigned long long)mask);
			sep = "|";
		}
		return;
	}
	if (m->form == GW_MFORM_TEXT) {
		csv_text(out, v->s);
		return;
	}
	j = gw_json_new(0);
	metric_json(j, m, v, GW_FIELD_VALID);
	if ((t = gw_json_text(j)) && *t == '"')  /* "P0", "default": ASCII names */
		fprintf(out, "%.*s", (int)strlen(t) - 2, t + 1);
	else if (t)
		fputs(t, out);
	gw_json_free(j);
}

static void csv_row(struct watch *w, const gw_sample_point *p)
{
	const gw_device_info *info = gw_device_get(w->ctx, p->device);

	fprintf(w->out, "%.3f,%d,", p->time, p->device);
	csv_text(w->out, uuid_of(info) ? uuid_of(info) : "");
	fprintf(w->out, ",%s", gw_health_name(p->health));
	for (int k = 0; k < w->nfields; k++) {
		gw_metric_value v;

		fputc(',', w->out);
		if ((p->up || (gw_metric_info_get(w->fields[k])->flags & GW_METRIC_F_EVENT)) &&
		    gw_device_metric_value(info, &p->sample, w->fields[k], &v) == GW_FIELD_VALID)
			csv_value(w->out, gw_metric_info_get(w->fields[k]), &v);
	}
	fputc('\n', w->out);
}

/* One sample as the JSON object /api/status serves too (sample_json). */
static int json_sample(struct watch *w, const gw_sample_point *pts, int n)
{
	struct sample_device *devs = w->devs;
	gw_json *j = gw_json_new(0);
	const char *text;

	for (int k = 0; k < n; k++) {
		devs[k].info = gw_device_get(w->ctx, pts[k].device);
		devs[k].sample = &pts[k].sample;
		devs[k].index = pts[k].device;
		devs[k].health = pts[k].health;
		devs[k].up = pts[k].up;
	}
	sample_json(j, n ? pts[0].time : 0, devs, n, w->fields, w->nfields);
	if (!(text = gw_json_text(j))) {
		gw_json_free(j);
		error_msg(_("out of memory"));
		return -1;
	}
	fputs(text, w->out);
	fputc('\n', w->out);
	gw_json_free(j);
	return 0;
}

/* One sample: step the sampler, print it, flush (so `| tee` sees each
 * line at once). -1 when the output is gone or memory ran out. */
static int one_sample(struct watch *w, gw_sample_point *pts)
{
	int n = gw_sampler_device_count(w->sampler);
	char when[32];

	gw_sampler_step(w->sampler);
	for (int k = 0; k < n; k++)
		gw_sampler_latest(w->sampler, k, &pts[k]);
	if (w->json) {
		if (json_sample(w, pts, n) < 0)
			return -1;
	} else {
		time_text(when, sizeof(when), n ? pts[0].time : 0, w->delay);
		for (int k = 0; k < n; k++) {
			if (w->csv)
				csv_row(w, &pts[k]);
			else
				table_row(w, &pts[k], when);
		}
	}
	return text_flush() ? 0 : -1;
}

/* Sleeps until the monotonic time `until` or a signal. */
static void sleep_until(double until)
{
	struct timespec ts;

	ts.tv_sec = (time_t)until;
	ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	while (!stop_signal && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: the sleep ends at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error: the loop ends */
}

static int run(struct watch *w, long count)
{
	int n = gw_sampler_device_count(w->sampler);
	gw_sample_point *pts = calloc((size_t)n + 1, sizeof(*pts));
	double next = clock_seconds(CLOCK_MONOTONIC);
	int rc = EXIT_OK;

	w->devs = calloc((size_t)n + 1, sizeof(*w->devs));
	if (!pts || !w->devs) {
		free(pts), free(w->devs);
		error_msg(_("out of memory"));
		return EXIT_FAIL;
	}
	catch_signals();
	w->out = w->json ? text_raw_stdout() : stdout;
	if (w->csv)
		csv_header(w);
	else if (!w->json)
		table_header(w);
	for (long i = 0; !stop_signal && (count == 0 || i < count); i++) {
		if (i > 0) {
			next += w->delay;
			if (next < clock_seconds(CLOCK_MONOTONIC)) /* a slow sample: no burst to catch up */
				next = clock_seconds(CLOCK_MONOTONIC);
			sleep_until(next);
			if (stop_signal)
				break;
		}
		if (one_sample(w, pts) < 0) {
			rc = EXIT_FAIL; /* stdout closed (| head) or full: finish_stdout says why */
			break;
		}
	}
	free(pts), free(w->devs);
	return rc;
}

/* --hosts: each sample reads every node's exporter (all at once) and
 * prints their GPUs, each row with its host, or one combined JSON object. */
static int run_hosts(struct hosts *hs, bool json, double delay, long count)
{
	double next = clock_seconds(CLOCK_MONOTONIC);
	FILE *out = json ? text_raw_stdout() : stdout;

	catch_signals();
	for (long i = 0; !stop_signal && (count == 0 || i < count); i++) {
		if (i > 0) {
			next += delay;
			if (next < clock_seconds(CLOCK_MONOTONIC))
				next = clock_seconds(CLOCK_MONOTONIC);
			sleep_until(next);
			if (stop_signal)
				break;
		}
		hosts_fetch(hs);
		if (json) {
			gw_json *j = gw_json_new(0);

			hosts_json(j, hs, clock_seconds(CLOCK_REALTIME));
			fprintf(out, "%s\n", gw_json_text(j) ? gw_json_text(j) : "{}");
			gw_json_free(j);
			fflush(out);
		} else
			hosts_print_table(out, hs, i == 0);
		if (ferror(out) || (!json && !text_flush()))
			return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int watch_hosts(const struct watch_opts *o)
{
	struct hosts hs;
	int rc;

	if (o->csv || o->fields || o->ids.n)
		die_usage("watch", "%s", _("--hosts shows the exporters' default fields: no --csv, --fields or -i"));
	if ((rc = hosts_open(&hs, &o->hosts)) == 0)
		rc = run_hosts(&hs, o->json, o->delay, o->count);
	hosts_close(&hs);
	return rc;
}

static int cmd_watch(int argc, char **argv)
{
	struct watch_opts o = { .delay = 1.0 };
	struct watch w = { 0 };
	gw_sampler_options so = GW_SAMPLER_OPTIONS_INIT;
	char *sel;
	char **args;
	int *devs = NULL, ndev = 0, rc;

	if (parse_options(&cmd_watch_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	if (o.csv && o.json)
		die_usage("watch", "%s", _("--csv and --json exclude each other"));
	if (o.fields && !strcmp(o.fields, "help"))
		return print_fields_help();
	if (o.hosts.list)
		return watch_hosts(&o);
	w.csv = o.csv;
	w.json = o.json;
	w.delay = o.delay;
	w.color = !o.csv && !o.json && use_color(stdout);
	parse_fields(&w, o.fields ? o.fields : o.csv || o.json ? sample_default_fields : default_table_fields);
	sel = join_selectors(&o.ids);
	if (!(w.ctx = open_context())) {
		free(sel);
		return EXIT_FAIL;
	}
	rc = pick_devices(w.ctx, sel, &devs, &ndev);
	free(sel);
	if (rc == EXIT_OK && ndev == 0) {
		char why[1024];

		error_msg("%s", no_gpu_sentence(w.ctx, why, sizeof(why)));
		rc = EXIT_FAIL;
	}
	if (!o.fields && !w.csv && !w.json)
		add_sm_active_column(&w, devs, ndev);
	so.devices = devs;
	so.ndevices = ndev;
	so.history = 1;
	for (int k = 0; k < w.nfields; k++) /* an Xid field: watch NVML's events */
		if (gw_metric_info_get(w.fields[k])->flags & GW_METRIC_F_EVENT)
			so.flags |= GW_SAMPLER_EVENTS;
	if (rc == EXIT_OK && gw_sampler_new(&w.sampler, w.ctx, &so) < 0) {
		error_msg("%s", gw_error_last_text());
		rc = EXIT_FAIL;
	}
	if (rc == EXIT_OK)
		rc = run(&w, o.count);
	gw_sampler_free(w.sampler);
	gw_context_free(w.ctx);
	free(devs);
	return rc;
}

const struct cmd cmd_watch_def = {
	.name = "watch",
	.fn = cmd_watch,
	.summary = N_("print GPU utilisation, memory, power and clocks every few seconds (table, CSV or JSON lines)"),
	.options = watch_options,
	.description = N_(
		"Read every GPU (or those -i names) once per -d seconds and print one line per GPU: a table "
		"with a header by default, --csv, or --json with one JSON object per sample, each line "
		"flushed at once, so `gpuwise watch --json | tee log.jsonl` records a training run as it "
		"goes. Each sample reads each value once. A GPU that cannot be read (lost) prints as such "
		"and the others go on; one that comes back is read again.\n"
		"\n"
		"The fields are metrics of the table in docs/metrics.md, by key or by their info --json "
		"path; `--fields help` lists them. Default: utilisation, memory, temperature, power, "
		"clocks and PCIe throughput, and SM active (smact: how busy the SMs really are, from "
		"NVML's GPM on Hopper and newer GPUs, known from the second sample on) when a GPU has it "
		"and the table fits (for --json and --csv also total memory, energy, the throttle reasons "
		"and SM active). The table is made to fit a terminal of 80 columns, as nvidia-smi dmon's: "
		"a short label per column (`--fields help` lists them), the units in a second header line and "
		"compact values (\"98%\", \"70.0G\", \"601W\", \"567K\"); --csv and --json keep the "
		"units of info --json (bytes, watts, joules, MHz, bytes/s).\n"
		"\n"
		"NVIDIA GPUs are read through NVML, AMD GPUs through sysfs."),
	.exit_status = N_("Exit status: 0 after -n samples, SIGINT or SIGTERM; 1 when no GPU can be found or "
			  "stdout is closed (| head); 2 on a usage error."),
};
