/* gpuwise list — one line per GPU, like `nvidia-smi -L` with the numbers
 * people look up next (memory, capability) and the reason a GPU cannot be
 * read. Exit 0 when at least one GPU could be read, 1 when none. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"

enum { COL_INDEX, COL_NAME, COL_MEMORY, COL_CAP, COL_UUID, COL_CUDA, COL_HEALTH, NCOLS };
/* Translated where printed; widths in display cells ("名称" is 4). */
static const char *const col_titles[NCOLS] = { "GPU", N_("NAME"), N_("MEMORY"), N_("CC/GFX"), "UUID", "CUDA",
						N_("HEALTH") };

/* Cells are allocated: a health reason is as long as it needs to be and is
 * wrapped at print time, never cut. */
struct row {
	char *cell[NCOLS];
	gw_health health;
};

struct device_view {
	const gw_device_info *info;
	char reason[1024];        /* health_reason in the user's language */
	gw_device_sample sample;
	bool have_sample;
};

static void read_view(gw_context *ctx, int i, struct device_view *v)
{
	memset(v, 0, sizeof(*v));
	v->info = gw_device_get(ctx, i);
	gw_device_health_reason(ctx, i, v->reason, sizeof(v->reason));
	if (device_readable(v->info) && gw_device_sample_read(ctx, i, &v->sample) == 0)
		v->have_sample = true;
}

static void memory_cell(char *buf, size_t n, const struct device_view *v)
{
	char used[32], total[32];

	show_bytes(total, sizeof(total), &v->info->memory_total);
	if (v->have_sample && GW_VALID(v->sample.memory_used)) {
		snprintf(buf, n, "%s / %s", show_bytes(used, sizeof(used), &v->sample.memory_used), total);
		return;
	}
	snprintf(buf, n, "%s", GW_VALID(v->info->memory_total) ? total : "N/A");
}

static char *index_cell(int index)
{
	return index >= 0 ? str_printf("%d", index) : str_printf("-");
}

static void fill_row(struct row *r, const struct device_view *v)
{
	const gw_device_info *d = v->info;
	char tmp[GW_STR_MAX + 8];

	r->cell[COL_INDEX] = str_printf("%d", d->index);
	r->cell[COL_NAME] = str_printf("%s", show_str(tmp, sizeof(tmp), &d->name));
	memory_cell(tmp, sizeof(tmp), v);
	r->cell[COL_MEMORY] = str_printf("%s", tmp);
	if (compute_capability_text(tmp, sizeof(tmp), d))
		r->cell[COL_CAP] = str_printf("%s", tmp);
	else
		r->cell[COL_CAP] = str_printf("%s", GW_VALID(d->gfx_target) ? d->gfx_target.s : "-");
	r->cell[COL_UUID] = str_printf("%s", short_uuid(tmp, sizeof(tmp), d));
	r->cell[COL_CUDA] = index_cell(d->vendor == GW_VENDOR_NVIDIA && d->health == GW_HEALTH_OK ? d->cuda_index : -1);
	if (d->health_reason[0] && d->health != GW_HEALTH_OK)
		r->cell[COL_HEALTH] = str_printf("%s: %s", gw_health_name(d->health), v->reason);
	else
		r->cell[COL_HEALTH] = str_printf("%s", gw_health_name(d->health));
	r->health = d->health;
}

/* A MIG instance under its GPU, as `nvidia-smi -L` lists them: "0:1" is
 * MIG device 1 of GPU 0, named by its profile ("MIG 3g.20gb"). */
static void fill_mig_row(struct row *r, const struct device_view *v, int m, const char *cap)
{
	const gw_mig_device *g = &v->sample.mig[m];
	const char *profile = GW_VALID(g->name) ? strstr(g->name.s, "MIG ") : NULL;
	char used[32], total[32], uuid[16];

	r->cell[COL_INDEX] = str_printf("%d:%d", v->info->index, m);
	r->cell[COL_NAME] = str_printf("  %s", profile ? profile : _("MIG device"));
	show_bytes(used, sizeof(used), &g->memory_used);
	show_bytes(total, sizeof(total), &g->memory_total);
	r->cell[COL_MEMORY] = str_printf("%s / %s", used, total);
	r->cell[COL_CAP] = str_printf("%s", cap);
	r->cell[COL_UUID] = str_printf("%s", short_uuid_str(uuid, sizeof(uuid), &g->uuid));
	r->cell[COL_CUDA] = index_cell(g->cuda_index);
	r->cell[COL_HEALTH] = str_printf("%s", gw_health_name(v->info->health));
	r->health = v->info->health;
}

static void free_rows(struct row *rows, int n)
{
	for (int i = 0; rows && i < n; i++)
		for (int c = 0; c < NCOLS; c++)
			free(rows[i].cell[c]);
	free(rows);
}

static const char *cell(const struct row *r, int c)
{
	return r->cell[c] ? r->cell[c] : "";
}

static int cell_columns(const struct row *r, int c)
{
	return text_columns(cell(r, c), strlen(cell(r, c)));
}

#define MAX_CELL_LINES 64

/* A cell's lines wrapped to w columns (wrap_line: words whole). */
static int cell_lines(const char *text, int w, const char **start, size_t *len)
{
	const char *p = text;
	int n = 0;

	do {
		start[n] = p;
		len[n] = wrap_line(p, w, &p);
		n++;
	} while (p && n < MAX_CELL_LINES);
	return n;
}

/* One row, as many lines as its tallest cell: NAME and HEALTH wrap within
 * their columns, the others always fit. HEALTH, the last, is not padded,
 * so its colour cannot upset alignment. */
static void print_row(const char *const *cells, const int *width, int gap, bool show_cuda, const char *color,
		      const char *reset)
{
	const char *start[NCOLS][MAX_CELL_LINES];
	size_t len[NCOLS][MAX_CELL_LINES];
	int n[NCOLS], lines = 1;

	for (int c = 0; c < NCOLS; c++) {
		n[c] = cell_lines(cells[c], width[c], start[c], len[c]);
		if (n[c] > lines)
			lines = n[c];
	}
	for (int k = 0; k < lines; k++) {
		int pending = 0; /* spaces owed before the next cell's text */

		for (int c = 0; c < NCOLS; c++) {
			const char *t = k < n[c] ? start[c][k] : "";
			int l = k < n[c] ? (int)len[c][k] : 0;

			if (c == COL_CUDA && !show_cuda)
				continue;
			if (c == COL_HEALTH) {
				if (l)
					printf("%*s%s%.*s%s", pending, "", color, l, t, reset);
				break;
			}
			if (l) {
				printf("%*s%.*s", pending, "", l, t);
				pending = 0;
			}
			pending += width[c] - text_columns(t, (size_t)l) + gap;
			if (pending < 1 && l)
				pending = 1; /* a word ran over its column */
		}
		putchar('\n');
	}
}

/* The reason of "state: reason" (NULL for a bare state). */
static const char *health_reason(const char *cell_text)
{
	const char *sep = strstr(cell_text, ": ");

	return sep ? sep + 2 : NULL;
}

/* A reason under its row, starting under NAME. */
static void print_reason(const char *reason, int indent, int out_width)
{
	char pad[16];

	snprintf(pad, sizeof(pad), "%*s", indent < 15 ? indent : 15, "");
	print_wrapped(stdout, out_width, pad, pad, reason);
}

/* The table within the output width. HEALTH wraps in what the other
 * columns leave; when that is too little for a reason, the column keeps
 * the state ("lost") and the reason gets lines of its own under the row.
 * When even the state does not fit, columns close up to one space; then
 * NAME wraps ("NVIDIA GeForce RTX /
 * 3060 Laptop GPU"). A word wider than its column runs over. */
static void print_table(struct row *rows, int n, bool header, bool show_cuda, bool color, int out_width)
{
	const char *titles[NCOLS];
	int width[NCOLS], fixed = 0, gap = 2, ncols = 0, state_w;
	bool below;

	for (int c = 0; c < NCOLS; c++)
		titles[c] = _(col_titles[c]);
	state_w = header ? text_columns(titles[COL_HEALTH], strlen(titles[COL_HEALTH])) : 0;
	for (int c = 0; c < NCOLS; c++) {
		width[c] = header ? text_columns(titles[c], strlen(titles[c])) : 0;
		for (int i = 0; i < n; i++)
			if (cell_columns(&rows[i], c) > width[c])
				width[c] = cell_columns(&rows[i], c);
		if (c != COL_HEALTH && (c != COL_CUDA || show_cuda)) {
			fixed += width[c] + gap;
			ncols++;
		}
	}
	for (int i = 0; i < n; i++) {
		int w = (int)strlen(gw_health_name(rows[i].health));

		state_w = w > state_w ? w : state_w;
	}
	below = out_width - fixed < (width[COL_HEALTH] < 16 ? width[COL_HEALTH] : 16);
	if (below && fixed + state_w > out_width) {
		fixed -= ncols; /* gaps of one space */
		gap = 1;
	}
	if (below && fixed + state_w > out_width) {
		int name = width[COL_NAME] - (fixed + state_w - out_width);

		name = name < 10 ? 10 : name;
		if (name < width[COL_NAME]) {
			fixed -= width[COL_NAME] - name;
			width[COL_NAME] = name;
		}
	}
	width[COL_HEALTH] = below ? state_w : out_width - fixed;
	if (header)
		print_row(titles, width, gap, show_cuda, "", "");
	for (int i = 0; i < n; i++) {
		const char *cells[NCOLS], *reason;

		for (int c = 0; c < NCOLS; c++)
			cells[c] = cell(&rows[i], c);
		reason = below ? health_reason(cells[COL_HEALTH]) : NULL;
		if (reason)
			cells[COL_HEALTH] = gw_health_name(rows[i].health);
		print_row(cells, width, gap, show_cuda, color_health(color, rows[i].health), color_reset(color));
		if (reason)
			print_reason(reason, width[COL_INDEX] + gap, out_width);
	}
}

/* Should the CUDA column be shown? Whenever CUDA's view is not simply
 * gpuwise's numbering: CUDA_VISIBLE_DEVICES is set (whatever it holds),
 * CUDA numbers or hides some GPU differently, it sees a MIG device, or it
 * sees none of the NVIDIA GPUs NVML reads. */
static bool cuda_view_differs(const gw_context *ctx, const struct row *rows, int nrows, int nvidia_ok, int cuda_seen)
{
	if (getenv("CUDA_VISIBLE_DEVICES"))
		return true;
	if (nvidia_ok > 0 && cuda_seen == 0)
		return true;
	for (int i = 0; i < gw_device_count(ctx); i++) {
		const gw_device_info *d = gw_device_get(ctx, i);

		if (d->vendor == GW_VENDOR_NVIDIA && d->health == GW_HEALTH_OK && d->cuda_index != d->index)
			return true;
	}
	for (int i = 0; i < nrows; i++)
		if (strchr(cell(&rows[i], COL_INDEX), ':') && strcmp(cell(&rows[i], COL_CUDA), "-"))
			return true;
	return false;
}

/* One line on stderr when CUDA sees none of the NVIDIA GPUs gpuwise reads:
 * the table alone would look normal, and a framework would find no GPU. */
static void cuda_sees_nothing_note(const gw_context *ctx, int nvidia_ok)
{
	const gw_backend_status *cuda = gw_context_backend_by_id(ctx, GW_BACKEND_ID_CUDA);
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");

	char msg[2 * sizeof(cuda->message)];

	if (cuda && cuda->message[0])
		warning_msg(_n("CUDA sees none of the %d NVIDIA GPU: %s", "CUDA sees none of the %d NVIDIA GPUs: %s",
			       nvidia_ok), nvidia_ok, gw_context_backend_message(ctx, cuda, msg, sizeof(msg)));
	else if (cvd)
		warning_msg(_n("CUDA sees none of the %d NVIDIA GPU: CUDA_VISIBLE_DEVICES=\"%s\" selects none",
			       "CUDA sees none of the %d NVIDIA GPUs: CUDA_VISIBLE_DEVICES=\"%s\" selects none", nvidia_ok),
			    nvidia_ok, cvd);
	else
		warning_msg(_n("CUDA sees none of the %d NVIDIA GPU", "CUDA sees none of the %d NVIDIA GPUs", nvidia_ok),
			    nvidia_ok);
}

static int list_human(gw_context *ctx, bool header)
{
	int n = gw_device_count(ctx), nrows = 0, nvidia_ok = 0, cuda_seen = 0;
	struct row *rows = calloc(n ? (size_t)n * (1 + GW_MAX_MIG) : 1, sizeof(*rows));

	if (!rows) {
		error_msg(_("out of memory"));
		return EXIT_FAIL;
	}
	for (int i = 0; i < n; i++) {
		struct device_view v;
		char cap[GW_STR_MAX];

		read_view(ctx, i, &v);
		fill_row(&rows[nrows], &v);
		snprintf(cap, sizeof(cap), "%s", cell(&rows[nrows], COL_CAP));
		nrows++;
		if (v.info->vendor == GW_VENDOR_NVIDIA && v.info->health == GW_HEALTH_OK) {
			nvidia_ok++;
			cuda_seen += v.info->cuda_index >= 0;
		}
		for (int m = 0; v.have_sample && m < v.sample.mig_count && m < GW_MAX_MIG; m++) {
			fill_mig_row(&rows[nrows++], &v, m, cap);
			cuda_seen += v.sample.mig[m].cuda_index >= 0;
		}
	}
	if (nrows)
		print_table(rows, nrows, header, cuda_view_differs(ctx, rows, nrows, nvidia_ok, cuda_seen),
			    use_color(stdout), output_width(stdout));
	if (nvidia_ok > 0 && cuda_seen == 0)
		cuda_sees_nothing_note(ctx, nvidia_ok);
	free_rows(rows, nrows);
	return 0;
}

static void json_device(gw_json *j, const struct device_view *v)
{
	const gw_device_info *d = v->info;
	char tmp[32];

	gw_json_object_begin(j);
	gw_json_key(j, "index");
	gw_json_int(j, d->index);
	json_index_field(j, "cuda_index", d->cuda_index);
	gw_json_key(j, "vendor");
	gw_json_string(j, gw_vendor_name(d->vendor));
	gw_json_str_field(j, "name", &d->name);
	gw_json_str_field(j, "uuid", &d->uuid);
	gw_json_str_field(j, "pci_bus_id", &d->pci_bus_id);
	gw_json_key(j, "compute_capability");
	gw_json_string(j, compute_capability_text(tmp, sizeof(tmp), d));
	gw_json_str_field(j, "gfx_target", &d->gfx_target);
	gw_json_key(j, "memory");
	gw_json_object_begin(j);
	gw_json_u64_field(j, "total_bytes", &d->memory_total);
	if (v->have_sample) {
		gw_json_u64_field(j, "used_bytes", &v->sample.memory_used);
	} else {
		gw_json_key(j, "used_bytes");
		gw_json_null(j);
	}
	gw_json_object_end(j);
	gw_json_key(j, "mig_devices");
	gw_json_array_begin(j);
	for (int m = 0; v->have_sample && m < v->sample.mig_count && m < GW_MAX_MIG; m++) {
		const gw_mig_device *g = &v->sample.mig[m];

		gw_json_object_begin(j);
		gw_json_str_field(j, "uuid", &g->uuid);
		gw_json_str_field(j, "name", &g->name);
		json_index_field(j, "cuda_index", g->cuda_index);
		gw_json_key(j, "memory");
		gw_json_object_begin(j);
		gw_json_u64_field(j, "total_bytes", &g->memory_total);
		gw_json_u64_field(j, "used_bytes", &g->memory_used);
		gw_json_object_end(j);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	json_health(j, d, v->reason);
	gw_json_object_end(j);
}

static int list_json(gw_context *ctx, const char *problem)
{
	gw_json *j = gw_json_new(2);
	int rc;

	if (!j) {
		error_msg(_("out of memory"));
		return -1;
	}
	gw_json_object_begin(j);
	gw_json_key(j, "gpuwise_version");
	gw_json_string(j, gw_version());
	gw_json_key(j, "devices");
	gw_json_array_begin(j);
	for (int i = 0; i < gw_device_count(ctx); i++) {
		struct device_view v;

		read_view(ctx, i, &v);
		json_device(j, &v);
	}
	gw_json_array_end(j);
	json_backends(j, ctx);
	rc = json_finish(j, problem);
	return rc;
}

struct list_opts {
	bool json, no_header;
};

static const struct option list_options[] = {
	OPT_BOOL(0, "json", struct list_opts, json,
		 N_("print {\"gpuwise_version\", \"devices\": [...], \"backends\": [...]}; each device has index, "
		 "cuda_index, vendor, name, uuid, pci_bus_id, compute_capability, gfx_target, memory, "
		 "mig_devices (with their cuda_index), health, health_reason")),
	OPT_BOOL(0, "no-header", struct list_opts, no_header, N_("leave out the column titles")),
	OPT_END()
};

static int cmd_list(int argc, char **argv)
{
	struct list_opts o = { false, false };
	bool json, header;
	gw_context *ctx;
	char problem[1024];
	bool none_readable;
	char **args;
	int rc;

	if (parse_options(&cmd_list_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	json = o.json;
	header = !o.no_header;
	if (!(ctx = open_context()))
		return EXIT_FAIL;
	none_readable = readable_count(ctx) == 0;
	if (none_readable) {
		no_gpu_sentence(ctx, problem, sizeof(problem));
		error_msg("%s", problem);
	}
	rc = json ? list_json(ctx, none_readable ? problem : NULL) : list_human(ctx, header);
	gw_context_free(ctx);
	if (rc < 0)
		return EXIT_FAIL;
	return none_readable ? EXIT_FAIL : EXIT_OK;
}

const struct cmd cmd_list_def = {
	.name = "list",
	.fn = cmd_list,
	.summary = N_("one line per GPU: index, name, memory, capability, UUID"),
	.options = list_options,
	.description =
		N_("List every GPU of this machine, one line each: gpuwise index, name, memory used / total, "
		"compute capability (NVIDIA, e.g. 9.0) or gfx target (AMD, e.g. gfx942), the first 8 hex "
		"digits of the UUID, the CUDA index, and the health: ok, or why the GPU cannot be read (lost, "
		"no-driver, error, unsupported). The CUDA column shows what CUDA will see whenever that differs "
		"from gpuwise's numbering or CUDA_VISIBLE_DEVICES is set (\"-\": CUDA cannot use that GPU or MIG "
		"device); when CUDA sees none of the GPUs a warning on stderr says why. "
		"MIG instances follow their GPU as \"G:M\" rows (profile, memory, UUID, CUDA index). Every "
		"identifier shown works with 'gpuwise info -i'. Long reasons wrap to the terminal width (80 "
		"columns when not a terminal). When no GPU can be read, one sentence on stderr says what is missing."),
	.exit_status = N_("Exit status: 0 when at least one GPU could be read, 1 when none could, 2 on a usage error."),
};
