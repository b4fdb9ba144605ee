/* gpuwise list — one line per GPU, like `nvidia-smi -L` with the numbers
 * people look up next (memory, capability) and the reason a GPU cannot be
 * read. Exit 0 when at least one GPU could be read, 1 when none. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"

enum { COL_INDEX, COL_NAME, COL_MEMORY, COL_CAP, COL_UUID, COL_CUDA, COL_HEALTH, NCOLS };
static const char *const col_titles[NCOLS] = { "GPU", "NAME", "MEMORY", "CC/GFX", "UUID", "CUDA", "HEALTH" };

struct row {
	char cell[NCOLS][160];
	gw_health health;
};

struct device_view {
	const gw_device_info *info;
	gw_device_sample sample;
	bool have_sample;
};

/* True when CUDA numbers this NVIDIA GPU differently from gpuwise (or
 * hides it). Only meaningful when the CUDA driver could be asked at all. */
static bool cuda_index_differs(const gw_context *ctx, const gw_device_info *d)
{
	const gw_backend_status *cuda = gw_context_backend_by_id(ctx, GW_BACKEND_ID_CUDA);

	if (!cuda || cuda->state != GW_BACKEND_OK)
		return false;
	return d->vendor == GW_VENDOR_NVIDIA && d->health == GW_HEALTH_OK && d->cuda_index != d->index;
}

static void read_view(gw_context *ctx, int i, struct device_view *v)
{
	memset(v, 0, sizeof(*v));
	v->info = gw_device_get(ctx, i);
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

static void fill_row(struct row *r, const struct device_view *v)
{
	const gw_device_info *d = v->info;
	char tmp[64];

	snprintf(r->cell[COL_INDEX], sizeof(r->cell[0]), "%d", d->index);
	show_str(r->cell[COL_NAME], sizeof(r->cell[0]), &d->name);
	memory_cell(r->cell[COL_MEMORY], sizeof(r->cell[0]), v);
	if (compute_capability_text(tmp, sizeof(tmp), d))
		snprintf(r->cell[COL_CAP], sizeof(r->cell[0]), "%s", tmp);
	else if (GW_VALID(d->gfx_target))
		snprintf(r->cell[COL_CAP], sizeof(r->cell[0]), "%s", d->gfx_target.s);
	else
		snprintf(r->cell[COL_CAP], sizeof(r->cell[0]), "-");
	short_uuid(r->cell[COL_UUID], sizeof(r->cell[0]), d);
	if (d->vendor == GW_VENDOR_NVIDIA && d->health == GW_HEALTH_OK && d->cuda_index >= 0)
		snprintf(r->cell[COL_CUDA], sizeof(r->cell[0]), "%d", d->cuda_index);
	else
		snprintf(r->cell[COL_CUDA], sizeof(r->cell[0]), "-");
	if (d->health_reason[0] && d->health != GW_HEALTH_OK)
		snprintf(r->cell[COL_HEALTH], sizeof(r->cell[0]), "%s: %s", gw_health_name(d->health), d->health_reason);
	else
		snprintf(r->cell[COL_HEALTH], sizeof(r->cell[0]), "%s", gw_health_name(d->health));
	r->health = d->health;
}

static void print_table(struct row *rows, int n, bool header, bool show_cuda, bool color)
{
	int width[NCOLS];

	for (int c = 0; c < NCOLS; c++) {
		width[c] = header ? (int)strlen(col_titles[c]) : 0;
		for (int i = 0; i < n; i++)
			if ((int)strlen(rows[i].cell[c]) > width[c])
				width[c] = (int)strlen(rows[i].cell[c]);
	}
	if (header) {
		for (int c = 0; c < NCOLS; c++) {
			if (c == COL_CUDA && !show_cuda)
				continue;
			if (c == NCOLS - 1)
				printf("%s\n", col_titles[c]);
			else
				printf("%-*s  ", width[c], col_titles[c]);
		}
	}
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < NCOLS - 1; c++) {
			if (c == COL_CUDA && !show_cuda)
				continue;
			printf("%-*s  ", width[c], rows[i].cell[c]);
		}
		/* The last column is not padded, so colour cannot upset alignment. */
		printf("%s%s%s\n", color_health(color, rows[i].health), rows[i].cell[COL_HEALTH], color_reset(color));
	}
}

/* A MIG instance under its GPU, as `nvidia-smi -L` lists them: "0:1" is
 * MIG device 1 of GPU 0, named by its profile ("MIG 3g.20gb"). */
static void fill_mig_row(struct row *r, const struct device_view *v, int m, const char *cap)
{
	const gw_mig_device *g = &v->sample.mig[m];
	const char *profile = GW_VALID(g->name) ? strstr(g->name.s, "MIG ") : NULL;
	char used[32], total[32];

	snprintf(r->cell[COL_INDEX], sizeof(r->cell[0]), "%d:%d", v->info->index, m);
	snprintf(r->cell[COL_NAME], sizeof(r->cell[0]), "  %s", profile ? profile : "MIG device");
	show_bytes(used, sizeof(used), &g->memory_used);
	show_bytes(total, sizeof(total), &g->memory_total);
	snprintf(r->cell[COL_MEMORY], sizeof(r->cell[0]), "%s / %s", used, total);
	snprintf(r->cell[COL_CAP], sizeof(r->cell[0]), "%s", cap);
	short_uuid_str(r->cell[COL_UUID], sizeof(r->cell[0]), &g->uuid);
	snprintf(r->cell[COL_CUDA], sizeof(r->cell[0]), "-");
	snprintf(r->cell[COL_HEALTH], sizeof(r->cell[0]), "%s", gw_health_name(v->info->health));
	r->health = v->info->health;
}

static int list_human(gw_context *ctx, bool header)
{
	int n = gw_device_count(ctx), nrows = 0;
	struct row *rows = calloc(n ? (size_t)n * (1 + GW_MAX_MIG) : 1, sizeof(*rows));
	bool show_cuda = false;

	if (!rows) {
		error_msg("out of memory");
		return EXIT_FAIL;
	}
	for (int i = 0; i < n; i++) {
		struct device_view v;
		int gpu_row = nrows;
		char cap[160];

		read_view(ctx, i, &v);
		fill_row(&rows[nrows++], &v);
		show_cuda |= cuda_index_differs(ctx, v.info);
		/* A copy: the rows share one array, and snprintf must not read
		 * from the buffer it writes (the compiler cannot tell the rows apart). */
		snprintf(cap, sizeof(cap), "%s", rows[gpu_row].cell[COL_CAP]);
		for (int m = 0; v.have_sample && m < v.sample.mig_count && m < GW_MAX_MIG; m++)
			fill_mig_row(&rows[nrows++], &v, m, cap);
	}
	if (nrows)
		print_table(rows, nrows, header, show_cuda, use_color(stdout));
	free(rows);
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
		gw_json_key(j, "memory");
		gw_json_object_begin(j);
		gw_json_u64_field(j, "total_bytes", &g->memory_total);
		gw_json_u64_field(j, "used_bytes", &g->memory_used);
		gw_json_object_end(j);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	json_health(j, d);
	gw_json_object_end(j);
}

static int list_json(gw_context *ctx, const char *problem)
{
	gw_json *j = gw_json_new(2);
	int rc;

	if (!j) {
		error_msg("out of memory");
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
		 "print {\"gpuwise_version\", \"devices\": [...], \"backends\": [...]}; each device has index, "
		 "cuda_index, vendor, name, uuid, pci_bus_id, compute_capability, gfx_target, memory, "
		 "mig_devices, health, health_reason"),
	OPT_BOOL(0, "no-header", struct list_opts, no_header, "leave out the column titles"),
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
	.summary = "one line per GPU: index, name, memory, capability, UUID",
	.options = list_options,
	.description =
		"List every GPU of this machine, one line each: gpuwise index, name, memory used / total, "
		"compute capability (NVIDIA, e.g. 9.0) or gfx target (AMD, e.g. gfx942), the first 8 hex "
		"digits of the UUID, the CUDA index when CUDA numbers some GPU differently (\"-\" when CUDA "
		"hides it), and the health: ok, or why the GPU cannot be read (lost, no-driver, error). "
		"MIG instances follow their GPU as \"G:M\" rows (profile, memory, UUID). "
		"When no GPU can be read, one sentence on stderr says what is missing.",
	.exit_status = "Exit status: 0 when at least one GPU could be read, 1 when none could, 2 on a usage error.",
};
