/* gpuwise top — one frame as lines of text: the title, a meter block per
 * GPU (its MIG instances under it), history charts when there is room, the
 * process table and the key line. The same code writes the curses screen
 * and the plain --once frame, so what scripts and tests read is what people
 * see. Widths are display cells (Chinese labels are two cells a
 * character). GPU values come from the metric table by key. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "output.h"
#include "text.h"
#include "hosts.h"
#include "top.h"

/* ---- output: cells, clipping, curses or a stream --------------------- */

/* The line being built for a stream: written at the newline without its
 * trailing spaces. */
static char line_buf[4096];
static size_t line_len;

void out_put(struct top_out *o, enum top_attr a, const char *s)
{
	int cells;
	size_t len;

	if ((o->height >= 0 && o->row >= o->height) || o->col >= o->width)
		return;
	len = fit_cells(s, strlen(s), o->width - o->col, &cells);
	if (o->stream) {
		if (line_len + len < sizeof(line_buf)) {
			memcpy(line_buf + line_len, s, len);
			line_len += len;
		}
	} else {
		term_put(o->row, o->col, a, s, len);
	}
	o->col += cells;
}

/* out_put up to column max (cells), a name in its column. */
static void out_put_max(struct top_out *o, enum top_attr a, const char *s, int max)
{
	int w = o->width;

	if (max < w)
		o->width = max;
	out_put(o, a, s);
	o->width = w;
}

void out_printf(struct top_out *o, enum top_attr a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	out_put(o, a, buf);
}

void out_pad(struct top_out *o, int col, enum top_attr a)
{
	static const char spaces[] = "                                                                ";

	if (col > o->width)
		col = o->width;
	/* Below the last row nothing is written, and the cursor stays. */
	while (o->col < col && (o->height < 0 || o->row < o->height)) {
		int n = col - o->col < 64 ? col - o->col : 64;

		out_put(o, a, spaces + 64 - n);
	}
}

void out_newline(struct top_out *o)
{
	if (o->height >= 0 && o->row >= o->height)
		return;
	if (o->stream) {
		while (line_len > 0 && line_buf[line_len - 1] == ' ')
			line_len--;
		fwrite(line_buf, 1, line_len, o->stream);
		fputc('\n', o->stream);
		line_len = 0;
	} else if (o->col < o->width) {
		term_clear_to_eol(o->row, o->col, TA_NORMAL);
	}
	o->row++;
	o->col = 0;
}

/* Text right-aligned in a field of `width` cells. */
static void out_right(struct top_out *o, enum top_attr a, int width, const char *s)
{
	int start = o->col + width - text_columns(s, strlen(s));

	out_pad(o, start, a);
	out_put(o, a, s);
}

/* ---- values through the metric table ---------------------------------- */

static bool metric_get(const struct top_gpu *g, const char *key, gw_metric_value *v)
{
	int id = gw_metric_find(key);

	return id >= 0 && gw_device_metric_value(g->info, g->have_sample ? &g->sample : NULL, id, v) == GW_FIELD_VALID;
}

static double metric_num(const struct top_gpu *g, const char *key)
{
	gw_metric_value v;

	if (!metric_get(g, key, &v))
		return NAN;
	return v.type == GW_MTYPE_F64 ? v.f : (double)v.u;
}

/* 85520809984 → "79.6G": short sizes for meters and the table. */
static const char *short_bytes(char *buf, size_t n, double b)
{
	static const char units[] = "KMGTP";
	double v = b / 1024;
	int u = 0;

	if (isnan(b))
		return snprintf(buf, n, "N/A"), buf;
	if (b < 1024)
		return snprintf(buf, n, "%.0fB", b), buf;
	while (v >= 1000 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, n, v < 10 && u > 0 ? "%.1f%c" : "%.0f%c", v, units[u]);
	return buf;
}

/* v with `decimals` digits and a suffix ("62°C"), or "N/A". */
static const char *num_text(char *buf, size_t n, double v, int decimals, const char *suffix)
{
	if (isnan(v))
		snprintf(buf, n, "N/A");
	else
		snprintf(buf, n, "%.*f%s", decimals, v, suffix);
	return buf;
}

static enum top_attr level_attr(double pct)
{
	return isnan(pct) ? TA_DIM : pct >= 90 ? TA_HIGH : pct >= 60 ? TA_MID : TA_LOW;
}

/* An htop meter: LABEL[|||||||     text] in `width` cells. */
static void meter(struct top_out *o, const char *label, double pct, const char *text, int width)
{
	int inner = width - text_columns(label, strlen(label)) - 2;
	int fill, tlen = (int)strlen(text);
	enum top_attr lv = level_attr(pct);
	char bar[256];

	if (inner < 1)
		return;
	if (inner > (int)sizeof(bar) - 1)
		inner = (int)sizeof(bar) - 1;
	fill = isnan(pct) ? 0 : (int)lround(pct / 100.0 * inner);
	if (fill > inner)
		fill = inner;
	for (int i = 0; i < inner; i++) {
		int t = i - (inner - tlen);

		bar[i] = t >= 0 ? text[t] : i < fill ? '|' : ' ';
	}
	bar[inner] = '\0';
	out_put(o, TA_LABEL, label);
	out_put(o, TA_NORMAL, "[");
	if (fill > 0) {
		char c = bar[fill];

		bar[fill] = '\0';
		out_put(o, lv, bar);
		bar[fill] = c;
	}
	out_put(o, fill < inner - tlen ? TA_NORMAL : lv, bar + fill);
	out_put(o, TA_NORMAL, "]");
}

/* "NVIDIA H100 80GB HBM3" → "H100 80GB HBM3", "AMD Instinct MI300X" →
 * "Instinct MI300X": the maker's name would fill the narrow column. */
static const char *short_name(const gw_device_info *i)
{
	const char *n = GW_VALID(i->name) ? i->name.s : "?";

	if (!strncmp(n, "NVIDIA ", 7))
		n += 7;
	else if (!strncmp(n, "AMD ", 4))
		n += 4;
	return n;
}

/* Index, name, the GPU and memory meters; `reserve` cells stay free at
 * the right. */
static void gpu_meters(struct top_out *o, const struct top_gpu *g, int name_w, int reserve)
{
	double util = metric_num(g, "gpu_util"), sm = metric_num(g, "sm_active");
	double used = metric_num(g, "memory_used"), total = metric_num(g, "memory_total");
	char text[64], a[16], b[16];
	int rest, half;

	if (g->host) { /* --hosts: "node1:9400 0 H100" in the same room */
		char label[GW_STR_MAX + 300];

		snprintf(label, sizeof(label), "%s %d %s", g->host, g->info->index, short_name(g->info));
		out_put_max(o, TA_TITLE, label, name_w + 2);
		out_pad(o, name_w + 3, TA_NORMAL);
	} else {
		out_printf(o, TA_TITLE, "%2d ", g->info->index);
		out_put_max(o, TA_NORMAL, short_name(g->info), name_w - 1);
	}
	out_pad(o, name_w, TA_NORMAL);
	if (!g->have_sample) {
		out_printf(o, TA_WARN, " %s", g->problem);
		return;
	}
	rest = o->width - o->col - 1 - reserve;
	half = rest / 2;
	if (isnan(util))
		snprintf(text, sizeof(text), "N/A");
	else
		snprintf(text, sizeof(text), "%.0f%%", util);
	/* How busy the SMs really are (GPM), beside the share of time any
	 * kernel ran: "98% SM 83%". */
	if (!isnan(sm))
		snprintf(text + strlen(text), sizeof(text) - strlen(text), " %s %.0f%%", _("SM"), sm);
	out_put(o, TA_NORMAL, " ");
	meter(o, _("GPU"), util, text, half);
	snprintf(text, sizeof(text), "%s/%s", short_bytes(a, sizeof(a), used), short_bytes(b, sizeof(b), total));
	out_put(o, TA_NORMAL, " ");
	meter(o, _("MEM"), total > 0 ? 100 * used / total : NAN, text, rest - half - 1);
}

/* One "LABEL value" item of the details line. */
static void item(struct top_out *o, const char *label, enum top_attr a, const char *value)
{
	if (o->col > 0)
		out_put(o, TA_NORMAL, "  ");
	if (label && *label) {
		out_put(o, TA_LABEL, label);
		out_put(o, TA_NORMAL, " ");
	}
	out_put(o, a, value);
}

static void throttle_text(char *buf, size_t n, const struct top_gpu *g)
{
	gw_metric_value v;
	size_t len = 0;

	buf[0] = '\0';
	if (!metric_get(g, "throttle_reasons", &v))
		return;
	for (unsigned bit = 0; bit < 64; bit++) {
		const char *name = (v.u >> bit) & 1 ? gw_throttle_reason_name(1ull << bit) : NULL;

		/* Idle is the normal state of a GPU at rest, not a slowdown. */
		if (!name || (1ull << bit) == GW_THROTTLE_GPU_IDLE)
			continue;
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", len ? "," : "", name);
		if (len >= n)
			break;
	}
}

/* Bytes per second: "559K/s", "N/A". */
static const char *rate_text(char *buf, size_t n, double v)
{
	char b[16];

	if (isnan(v))
		snprintf(buf, n, "N/A");
	else
		snprintf(buf, n, "%s/s", short_bytes(b, sizeof(b), v));
	return buf;
}

/* The second line of a GPU: temperature, power draw/limit, SM/memory
 * clocks, PCIe receive/transmit, fan, performance state, throttle reasons.
 * The most asked-for first: a narrow terminal cuts the end. */
static void gpu_details(struct top_out *o, const struct top_gpu *g)
{
	double temp = metric_num(g, "temperature"), slow = metric_num(g, "temperature_slowdown");
	double pw = metric_num(g, "power_draw"), lim = metric_num(g, "power_limit");
	char v[64], x[16], y[16];
	gw_metric_value ps;

	out_put(o, TA_NORMAL, " ");
	/* The newest Xid since top started, first: it is why a job died. */
	if (metric_get(g, "xid_last", &ps) && ps.u) {
		snprintf(v, sizeof(v), "%" PRIu64, ps.u);
		item(o, "Xid", TA_HIGH, v);
	}
	num_text(v, sizeof(v), temp, 0, "°C");
	item(o, NULL, !isnan(slow) && temp >= slow - 5 ? TA_HIGH : temp >= 80 ? TA_MID : TA_NORMAL, v);
	if (isnan(lim))
		num_text(v, sizeof(v), pw, 0, " W");
	else
		snprintf(v, sizeof(v), "%s/%.0f W", num_text(x, sizeof(x), pw, 0, ""), lim);
	item(o, NULL, TA_NORMAL, v);
	snprintf(v, sizeof(v), "%s/%s MHz", num_text(x, sizeof(x), metric_num(g, "sm_clock"), 0, ""),
		 num_text(y, sizeof(y), metric_num(g, "mem_clock"), 0, ""));
	item(o, NULL, TA_NORMAL, v);
	item(o, _("rx"), TA_NORMAL, rate_text(v, sizeof(v), metric_num(g, "pcie_rx")));
	item(o, _("tx"), TA_NORMAL, rate_text(v, sizeof(v), metric_num(g, "pcie_tx")));
	item(o, _("fan"), TA_NORMAL, num_text(v, sizeof(v), metric_num(g, "fan_percent"), 0, "%"));
	if (metric_get(g, "pstate", &ps))
		item(o, NULL, TA_NORMAL, gw_pstate_name(ps.u, v, sizeof(v)));
	throttle_text(v, sizeof(v), g);
	if (v[0])
		item(o, NULL, TA_WARN, v);
}

static void mig_row(struct top_out *o, const struct top_gpu *g, int m, int name_w)
{
	const gw_mig_device *x = &g->sample.mig[m];
	const char *profile = GW_VALID(x->name) ? strstr(x->name.s, "MIG ") : NULL;
	double used = GW_VALID(x->memory_used) ? (double)x->memory_used.v : NAN;
	double total = GW_VALID(x->memory_total) ? (double)x->memory_total.v : NAN;
	char text[48], a[16], b[16];
	int rest;

	out_printf(o, TA_DIM, "   %d:%d ", g->info->index, m);
	out_put_max(o, TA_NORMAL, profile ? profile : GW_VALID(x->name) ? x->name.s : "MIG", name_w - 1);
	out_pad(o, name_w, TA_NORMAL);
	rest = o->width - o->col - 1;
	snprintf(text, sizeof(text), "%s/%s", short_bytes(a, sizeof(a), used), short_bytes(b, sizeof(b), total));
	out_put(o, TA_NORMAL, " ");
	meter(o, _("MEM"), total > 0 ? 100 * used / total : NAN, text, rest / 2);
	if (GW_VALID(x->multiprocessor_count))
		out_printf(o, TA_NORMAL, "  %llu %s", (unsigned long long)x->multiprocessor_count.v, _("SMs"));
}

/* One line per GPU when the blocks do not fit. */
static void gpu_compact(struct top_out *o, const struct top_gpu *g, int name_w)
{
	char t[32], p[16];
	gw_metric_value x;

	gpu_meters(o, g, name_w, 12);
	if (!g->have_sample)
		return;
	/* An Xid since top started takes the place of temperature and power:
	 * it is why a job on that GPU died. */
	if (metric_get(g, "xid_last", &x) && x.u) {
		snprintf(t, sizeof(t), "Xid %" PRIu64, x.u);
		out_printf(o, TA_HIGH, " %11s", t);
		return;
	}
	out_printf(o, TA_NORMAL, " %5s %5s", num_text(t, sizeof(t), metric_num(g, "temperature"), 0, "°C"),
		   num_text(p, sizeof(p), metric_num(g, "power_draw"), 0, "W"));
}

/* ---- history chart ----------------------------------------------------- */

static void chart_cell(struct top_out *o, float v, int row, int rows)
{
	static const char *const blocks[] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	double level = isnan(v) ? 0 : v / 100.0 * rows * 8 - (double)(rows - 1 - row) * 8;
	int k = level <= 0 ? 0 : level >= 8 ? 8 : (int)lround(level);

	if (o->ascii)
		out_put(o, level_attr(v), k >= 4 ? "#" : " ");
	else
		out_put(o, level_attr(v), blocks[k]);
}

/* Utilisation and memory of one GPU, newest sample at the right. */
static void chart(struct top_out *o, const struct top_gpu *g, int rows)
{
	int w = (o->width - 3) / 2;
	char title[128];

	/* The time the drawn samples span, not the chart's width times the
	 * interval: just after the start most columns are still empty. */
	snprintf(title, sizeof(title), _("GPU %d utilisation, last %.0f s"), g->info->index,
		 top_hist_span(g, (unsigned)w));
	out_put(o, TA_LABEL, title);
	out_pad(o, w + 3, TA_NORMAL);
	snprintf(title, sizeof(title), _("GPU %d memory used"), g->info->index);
	out_put(o, TA_LABEL, title);
	out_newline(o);
	for (int r = 0; r < rows; r++) {
		for (int c = w - 1; c >= 0; c--)
			chart_cell(o, top_hist_at(g, g->util_hist, (unsigned)c), r, rows);
		out_put(o, TA_DIM, r == 0 ? "100" : r == rows - 1 ? "  0" : "   ");
		for (int c = w - 1; c >= 0; c--)
			chart_cell(o, top_hist_at(g, g->mem_hist, (unsigned)c), r, rows);
		out_newline(o);
	}
}

/* ---- the process table ------------------------------------------------- */

struct column {
	const char *title;
	int width;          /* cells; 0: the rest of the line */
	bool right;
	int sort;           /* enum top_sort, or -1 */
};

static const struct column columns[] = {
	{ N_("GPU"), 4, false, TOP_SORT_GPU },
	{ N_("PID"), 8, true, TOP_SORT_PID },
	{ N_("USER"), 9, false, -1 },
	{ N_("T"), 2, false, -1 },
	{ N_("GPU MEM"), 8, true, TOP_SORT_GPU_MEMORY },
	{ N_("SM%"), 5, true, TOP_SORT_SM },
	{ N_("CPU%"), 6, true, TOP_SORT_CPU },
	{ N_("RSS"), 7, true, TOP_SORT_RSS },
	{ N_("TIME"), 10, true, TOP_SORT_TIME },
	{ N_("COMMAND"), 0, false, -1 },
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

static void table_header(struct top_out *o, enum top_sort sort)
{
	int at = 0;

	for (size_t c = 0; c < NCOLUMNS; c++) {
		enum top_attr a = columns[c].sort == (int)sort ? TA_SELECTED : TA_HEADER;

		if (columns[c].right)
			out_right(o, a, columns[c].width - 1, _(columns[c].title));
		else
			out_put(o, a, _(columns[c].title));
		at += columns[c].width;
		out_pad(o, columns[c].width ? at : o->col, TA_HEADER);
	}
	out_pad(o, o->width, TA_HEADER);
	out_newline(o);
}

static const char *time_text(char *buf, size_t n, const gw_f64 *t)
{
	unsigned long s;

	if (!GW_VALID(*t))
		return snprintf(buf, n, "N/A"), buf;
	s = (unsigned long)t->v;
	if (s >= 86400)
		snprintf(buf, n, "%lud%02luh", s / 86400, s % 86400 / 3600);
	else
		snprintf(buf, n, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
	return buf;
}

static void proc_cells(const struct top_proc *t, char cell[NCOLUMNS][288])
{
	const size_t n = 288;

	if (t->host)
		snprintf(cell[0], n, "%d", t->host_gpu);
	else if (t->mig >= 0)
		snprintf(cell[0], n, "%d:%d", t->gpu, t->mig);
	else
		snprintf(cell[0], n, "%d", t->gpu);
	snprintf(cell[1], n, "%u", (unsigned)t->pid);
	snprintf(cell[2], n, "%s", t->user[0] ? t->user : "?");
	snprintf(cell[3], n, "%s", t->type == GW_PROCESS_GRAPHICS ? "G" : t->type == GW_PROCESS_BOTH ? "CG" : "C");
	short_bytes(cell[4], n, GW_VALID(t->gpu_memory) ? (double)t->gpu_memory.v : NAN);
	if (GW_VALID(t->sm_util))
		snprintf(cell[5], n, "%llu", (unsigned long long)t->sm_util.v);
	else
		snprintf(cell[5], n, "N/A");
	num_text(cell[6], n, GW_VALID(t->cpu_percent) ? t->cpu_percent.v : NAN, 1, "");
	short_bytes(cell[7], n, GW_VALID(t->rss) ? (double)t->rss.v : NAN);
	time_text(cell[8], n, &t->run_time);
	if (t->host) /* --hosts: the node, then the process name */
		snprintf(cell[9], n, "%s  %s", t->host, t->command);
	else if (t->command[0])
		snprintf(cell[9], n, "%s", t->command);
	else
		snprintf(cell[9], n, "%s", t->resolved ? "?" : _("(not in this pid namespace)"));
}

static void proc_row(struct top_out *o, const struct top_proc *t, bool selected)
{
	char cell[NCOLUMNS][288];
	int at = 0;

	proc_cells(t, cell);
	for (size_t c = 0; c < NCOLUMNS; c++) {
		enum top_attr a = selected ? TA_SELECTED : c == 0 ? TA_TITLE : TA_NORMAL;

		if (c == 5 && !selected && GW_VALID(t->sm_util))
			a = level_attr((double)t->sm_util.v);
		if (columns[c].right)
			out_right(o, a, columns[c].width - 1, cell[c]);
		else
			out_put(o, a, cell[c]);
		at += columns[c].width;
		out_pad(o, columns[c].width ? at : o->col, selected ? TA_SELECTED : TA_NORMAL);
	}
	if (selected)
		out_pad(o, o->width, TA_SELECTED);
	out_newline(o);
}

/* ---- the frame --------------------------------------------------------- */

static void title_line(struct top_out *o, const struct top_data *d, const struct top_ui *ui)
{
	char when[16];
	time_t now = (time_t)d->now;
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	out_put(o, TA_TITLE, "gpuwise top");
	out_printf(o, TA_NORMAL, "  %s  ", when);
	out_printf(o, TA_NORMAL, "%s %d  %s %zu", _("GPUs:"), d->ngpu, _("processes:"), d->nprocs);
	out_printf(o, TA_NORMAL, "  %s %s", _("sort:"), _(top_sort_title(ui->sort)));
	if (ui->filter[0])
		out_printf(o, TA_WARN, "  %s %s", _("filter:"), ui->filter);
	out_newline(o);
}

static void key_line(struct top_out *o, const struct top_ui *ui)
{
	if (ui->editing) {
		out_printf(o, TA_WARN, "%s %s", _("filter:"), ui->edit);
		out_put(o, TA_NORMAL, "_");
	} else if (ui->prompt[0]) {
		out_put(o, ui->asking ? TA_WARN : TA_NORMAL, ui->prompt);
	} else {
		out_put(o, TA_DIM, _("h help  s sort  / filter  k kill  arrows select  q quit"));
	}
	out_newline(o);
}

/* --hosts: a line for each node that could not be read, saying why. */
static int host_problem_lines(const struct top_data *d)
{
	int n = 0;

	for (int i = 0; d->hosts && i < d->hosts->n; i++)
		n += !d->hosts->h[i].ok;
	return n;
}

static void host_problems(struct top_out *o, const struct top_data *d)
{
	for (int i = 0; d->hosts && i < d->hosts->n; i++) {
		const struct host *h = &d->hosts->h[i];

		if (h->ok)
			continue;
		out_printf(o, TA_WARN, "%s %s: %s", h->addr, _("unreachable"), h->err);
		out_newline(o);
	}
}

static int gpu_block_lines(const struct top_data *d)
{
	int n = host_problem_lines(d);

	for (int i = 0; i < d->ngpu; i++)
		n += 1 + (d->gpu[i].have_sample ? 1 + d->gpu[i].sample.mig_count : 0);
	return n;
}

/* The GPU the chart follows: the selected process's, else the first. */
static int chart_gpu(const struct top_data *d, const size_t *view, size_t nview, const struct top_ui *ui)
{
	if (nview && ui->selected < nview)
		return d->procs[view[ui->selected]].gpu;
	return 0;
}

void top_draw_frame(struct top_out *o, const struct top_data *d, struct top_ui *ui)
{
	size_t *view = calloc(d->nprocs ? d->nprocs : 1, sizeof(*view));
	size_t nview = view ? top_view(d, ui->sort, ui->filter, view) : 0;
	int name_w = o->width >= 100 ? 26 : 22;
	bool full = true;
	int chart_rows = 0, rows_left;

	/* What fits: 2 lines a GPU (and one per MIG instance), else one; the
	 * chart only where at least a few process rows still fit below. */
	if (o->height >= 0) {
		/* Every process, or at least 8 rows of them, before the GPU
		 * blocks get their second line. */
		int fixed = 3, min_procs = nview < 8 ? (int)(nview ? nview : 1) : 8;

		full = fixed + gpu_block_lines(d) + min_procs <= o->height;
		rows_left = o->height - fixed - (full ? gpu_block_lines(d) : d->ngpu + host_problem_lines(d)) -
			    (int)nview;
		if (rows_left >= 4 && d->ngpu > 0 && o->width >= 40)
			chart_rows = rows_left > 12 ? 12 : rows_left;
	}
	if (ui->selected >= nview)
		ui->selected = nview ? nview - 1 : 0;
	title_line(o, d, ui);
	for (int i = 0; i < d->ngpu; i++) {
		const struct top_gpu *g = &d->gpu[i];

		if (!full) {
			gpu_compact(o, g, name_w);
			out_newline(o);
			continue;
		}
		gpu_meters(o, g, name_w, 0);
		out_newline(o);
		if (!g->have_sample)
			continue;
		gpu_details(o, g);
		out_newline(o);
		for (int m = 0; m < g->sample.mig_count && m < GW_MAX_MIG; m++) {
			mig_row(o, g, m, name_w);
			out_newline(o);
		}
	}
	host_problems(o, d);
	if (chart_rows > 0 && d->ngpu > 0)
		chart(o, &d->gpu[chart_gpu(d, view, nview, ui)], chart_rows - 1);
	table_header(o, ui->sort);
	ui->page_rows = o->height >= 0 ? o->height - o->row - 1 : (int)nview;
	if (ui->page_rows < 1)
		ui->page_rows = 1;
	if (ui->selected < ui->scroll)
		ui->scroll = ui->selected;
	if (ui->selected >= ui->scroll + (size_t)ui->page_rows)
		ui->scroll = ui->selected - (size_t)ui->page_rows + 1;
	for (size_t r = ui->scroll; r < nview && (o->height < 0 || o->row < o->height - 1); r++)
		proc_row(o, &d->procs[view[r]], o->stream == NULL && r == ui->selected);
	if (nview == 0) {
		out_put(o, TA_DIM, ui->filter[0] ? _("no process matches the filter") : _("no GPU processes"));
		out_newline(o);
	}
	ui->selected_pid = nview && ui->selected < nview ? d->procs[view[ui->selected]].pid : 0;
	if (o->height >= 0) {
		while (o->row < o->height - 1)
			out_newline(o);
		key_line(o, ui);
	}
	free(view);
}

/* ---- help -------------------------------------------------------------- */

static void out_wrapped(struct top_out *o, const char *text)
{
	const char *p = text, *next;

	while (p) {
		size_t n = wrap_line(p, o->width - 2, &next);
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		out_put(o, TA_NORMAL, line);
		out_newline(o);
		p = next;
	}
}

void top_draw_help(struct top_out *o, const struct top_ui *ui)
{
	static const char *const keys[][2] = {
		{ "q, F10", N_("quit") },
		{ "h, ?, F1", N_("this help (any key returns)") },
		{ N_("Up/Down"), N_("select a process") },
		{ "PgUp/PgDn", N_("a page up or down") },
		{ "Home/End", N_("the first or the last process") },
		{ "s", N_("sort by the next column (GPU MEM, SM%, CPU%, RSS, TIME, PID, GPU)") },
		{ "S", N_("sort by the previous column") },
		{ "/", N_("filter: type a part of the command or user, or a pid; Enter applies, Esc cancels") },
		{ "k", N_("send SIGTERM to the selected process, after a y/n question") },
	};

	(void)ui;
	out_put(o, TA_TITLE, _("gpuwise top: keys"));
	out_newline(o);
	out_newline(o);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *p = _(keys[i][1]), *next;

		out_put(o, TA_LABEL, "  ");
		out_put(o, TA_LABEL, _(keys[i][0]));
		/* The description wraps under itself. */
		for (; p; p = next) {
			size_t n = wrap_line(p, o->width - 15, &next);
			char line[512];

			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			out_pad(o, 14, TA_NORMAL);
			out_put(o, TA_NORMAL, line);
			out_newline(o);
		}
	}
	out_newline(o);
	out_wrapped(o, _("Meters: GPU and memory use, temperature, power draw/limit, SM/memory clocks, "
			 "PCIe receive/transmit, fan, performance state, throttle reasons."));
	out_wrapped(o, _("T: C compute, G graphics. SM%: the process's share of the SMs (NVIDIA). "
			 "CPU%: of one core since the last refresh."));
	if (o->height >= 0)
		while (o->row < o->height)
			out_newline(o);
}
