/* gpuwise info — everything gpuwise knows about each GPU, in the spirit of
 * `nvidia-smi -q`, or the ◆ JSON contract of docs/contracts.md with --json.
 * Exit 0 when at least one reported GPU could be read, 1 when none could
 * (or the selector matches none), 2 on a usage error. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"

#define ALL_MIG ((1u << GW_MAX_MIG) - 1)

/* Everything read about one device for one report. */
struct report {
	const gw_device_info *d;
	gw_device_sample s;
	int sample_rc;        /* 0, or the gw_error of gw_device_sample_read */
	char sample_error[1100];  /* gw_error_last_text() whole */
	gw_process *procs;
	size_t nprocs;
	int procs_rc;
	char procs_error[1100];
	char cuda_index[700]; /* the index, or why CUDA has none for this GPU */
	char reason[1024];    /* health_reason in the user's language */
	int mig_index[GW_MAX_MIG]; /* s.mig[k]'s MIG index on its GPU (G:M of list, -i) */
};

static void report_read(gw_context *ctx, int i, struct report *r)
{
	memset(r, 0, sizeof(*r));
	for (int m = 0; m < GW_MAX_MIG; m++)
		r->mig_index[m] = m;
	r->d = gw_device_get(ctx, i);
	cuda_index_text(ctx, r->d, r->cuda_index, sizeof(r->cuda_index));
	gw_device_health_reason(ctx, i, r->reason, sizeof(r->reason));
	/* A lost GPU has no dynamic data; every field stays UNREAD (N/A). */
	if (r->d->health == GW_HEALTH_LOST) {
		r->sample_rc = GW_ELOST;
		return;
	}
	/* A GPU no driver serves has no process list either: unknown, not empty. */
	if (!device_readable(r->d)) {
		r->sample_rc = gw_device_sample_read(ctx, i, &r->s) < 0 ? GW_ELOST : 0;
		r->procs_rc = GW_ENOTSUP;
		snprintf(r->procs_error, sizeof(r->procs_error), "N/A");
		return;
	}
	if ((r->sample_rc = gw_device_sample_read(ctx, i, &r->s)) < 0) {
		snprintf(r->sample_error, sizeof(r->sample_error), "%s", gw_error_last_text());
		memset(&r->s, 0, sizeof(r->s));
	}
	if ((r->procs_rc = gw_device_processes(ctx, i, &r->procs, &r->nprocs)) < 0) {
		snprintf(r->procs_error, sizeof(r->procs_error), "%s", gw_error_last_text());
		r->procs = NULL;
		r->nprocs = 0;
	}
}

/* Keep only the MIG devices in mask (MIG index bits) and the processes in
 * their GPU instances: the report of a selected MIG device. */
static void report_only_mig(struct report *r, unsigned mask)
{
	gw_device_sample *s = &r->s;
	int w = 0;
	size_t pw = 0;

	if (mask == ALL_MIG)
		return;
	for (int m = 0; m < s->mig_count && m < GW_MAX_MIG; m++)
		if (mask & (1u << m)) {
			r->mig_index[w] = m;
			s->mig[w++] = s->mig[m];
		}
	s->mig_count = w;
	for (size_t i = 0; i < r->nprocs; i++) {
		const gw_process *p = &r->procs[i];
		bool keep = false;

		for (int m = 0; m < w; m++)
			keep |= GW_VALID(p->gpu_instance_id) && GW_VALID(s->mig[m].gpu_instance_id) &&
				p->gpu_instance_id.v == s->mig[m].gpu_instance_id.v;
		if (keep)
			r->procs[pw++] = *p;
	}
	r->nprocs = pw;
}

static void report_release(struct report *r)
{
	gw_processes_free(r->procs);
	r->procs = NULL;
}

static const char *process_type_name(gw_process_type t)
{
	switch (t) {
	case GW_PROCESS_COMPUTE: return "compute";
	case GW_PROCESS_GRAPHICS: return "graphics";
	case GW_PROCESS_BOTH: return "compute+graphics";
	default: return "unknown";
	}
}

/* ---- the human report ------------------------------------------------- */

#define B(buf) buf, sizeof(buf)

static void human_driver(const gw_context *ctx, int ndev)
{
	const gw_driver_info *drv = gw_context_driver(ctx);
	char a[128];

	report_line(0, _("Driver Version"), "%s", show_str(B(a), &drv->driver_version));
	if (GW_VALID(drv->cuda_driver_version))
		report_line(0, _("CUDA Driver Version"), "%s", cuda_version_text(B(a), drv->cuda_driver_version.v));
	else
		report_line(0, _("CUDA Driver Version"), "%s", show_u64(B(a), &drv->cuda_driver_version, NULL));
	report_line(0, _("NVML Version"), "%s", show_str(B(a), &drv->nvml_version));
	report_line(0, _("Kernel Module Version"), "%s", show_str(B(a), &drv->kernel_module_version));
	if (GW_VALID(drv->amdgpu_version))
		report_line(0, _("AMDGPU Version"), "%s", drv->amdgpu_version.s);
	report_line(0, _("Attached GPUs"), "%d", ndev);
}

/* Backends that failed say so, so a missing vendor is visible here too. */
static void human_backends(const gw_context *ctx)
{
	const gw_backend_status *st;
	int nb = 0;

	st = gw_context_backends(ctx, &nb);
	report_section(0, _("Backends"));
	for (int i = 0; i < nb; i++) {
		char msg[2 * sizeof(st[i].message)];

		if (st[i].state == GW_BACKEND_OK || st[i].state == GW_BACKEND_NOT_TRIED || !st[i].message[0])
			report_line(1, st[i].name, "%s", gw_backend_state_name(st[i].state));
		else
			report_line(1, st[i].name, "%s: %s", gw_backend_state_name(st[i].state),
				    gw_context_backend_message(ctx, &st[i], msg, sizeof(msg)));
	}
}

/* ---- the metric table, as people read it --------------------------------- */

/* Whether people see metric m for device d (vendor-specific rows). */
static bool metric_shown(const gw_metric_info *m, const gw_device_info *d, gw_field_state st)
{
	if (!m->label)
		return false;
	if ((m->flags & GW_METRIC_F_NVIDIA) && d->vendor == GW_VENDOR_AMD)
		return false;
	if ((m->flags & GW_METRIC_F_AMD) && d->vendor != GW_VENDOR_AMD && st != GW_FIELD_VALID)
		return false;
	return true;
}

/* Every metric of the table with a label, in table order, a section line
 * whenever the section changes; a value not valid prints N/A or its error. */
static void human_metrics(const struct report *r)
{
	const char *section = "";
	char a[512]; /* every throttle title and the unknown bits fit */

	for (int i = 0; i < gw_metric_count(); i++) {
		const gw_metric_info *m = gw_metric_info_get(i);
		gw_metric_value v;
		gw_field_state st = gw_device_metric_value(r->d, &r->s, i, &v);

		if (!metric_shown(m, r->d, st))
			continue;
		if (strcmp(section, m->section)) {
			section = m->section;
			if (*section)
				report_section(1, _(section));
		}
		if (st == GW_FIELD_VALID)
			metric_text(a, sizeof(a), m, &v);
		else if (st == GW_FIELD_ERROR)
			snprintf(a, sizeof(a), "error (code %d)", v.code);
		else
			snprintf(a, sizeof(a), "N/A");
		report_line(*section ? 2 : 1, _(m->label), "%s", a);
	}
}

static void human_identity(const gw_device_info *d, const char *cuda_index)
{
	report_line(1, _("Index"), "%d", d->index);
	report_line(1, _("CUDA Index"), "%s", cuda_index);
	report_line(1, _("Vendor"), "%s", gw_vendor_name(d->vendor));
	report_line(1, _("Backend"), "%s", d->backend && *d->backend ? d->backend : _("none"));
}

static void human_mig(const struct report *r)
{
	const gw_device_sample *s = &r->s;
	char a[64];

	for (int i = 0; i < s->mig_count && i < GW_MAX_MIG; i++) {
		const gw_mig_device *m = &s->mig[i];
		char title[32];

		/* named as list and -i name it: GPU:MIG */
		snprintf(title, sizeof(title), _("MIG Device %d:%d"), r->d->index, r->mig_index[i]);
		report_section(2, title);
		report_line(3, _("Name"), "%s", show_str(B(a), &m->name));
		report_line(3, "UUID", "%s", show_str(B(a), &m->uuid));
		report_line(3, _("GPU Instance Id"), "%s", show_u64(B(a), &m->gpu_instance_id, NULL));
		report_line(3, _("Compute Instance Id"), "%s", show_u64(B(a), &m->compute_instance_id, NULL));
		report_line(3, _("Multiprocessors"), "%s", show_u64(B(a), &m->multiprocessor_count, NULL));
		report_line(3, _("Memory Total"), "%s", show_bytes(B(a), &m->memory_total));
		report_line(3, _("Memory Used"), "%s", show_bytes(B(a), &m->memory_used));
	}
}

static void human_processes(const struct report *r)
{
	char a[64];

	if (!device_readable(r->d)) {
		report_line(1, _("Processes"), "N/A");
		return;
	}
	if (r->procs_rc == GW_ENOTSUP) {
		report_line(1, _("Processes"), "N/A (%s)", r->procs_error);
		return;
	}
	if (r->procs_rc < 0) {
		report_line(1, _("Processes"), _("error: %s"), r->procs_error);
		return;
	}
	if (r->nprocs == 0) {
		report_line(1, _("Processes"), "%s", _("None"));
		return;
	}
	report_section(1, _("Processes"));
	for (size_t i = 0; i < r->nprocs; i++) {
		const gw_process *p = &r->procs[i];

		report_line(2, _("Process ID"), "%" PRIu32, p->pid);
		report_line(3, _("Type"), "%s", process_type_name(p->type));
		if (p->pid_resolved) {
			report_line(3, _("User"), "%s", p->user[0] ? p->user : "N/A");
			report_line(3, _("Command"), "%s", p->command[0] ? p->command : "N/A");
		} else {
			report_line(3, _("User"), "%s", _("not in this pid namespace"));
			report_line(3, _("Command"), "%s", _("not in this pid namespace"));
		}
		report_line(3, _("Used GPU Memory"), "%s", show_bytes(B(a), &p->used_memory));
		if (GW_VALID(p->gpu_instance_id))
			report_line(3, _("GPU Instance Id"), "%" PRIu64, p->gpu_instance_id.v);
		if (GW_VALID(p->compute_instance_id))
			report_line(3, _("Compute Instance Id"), "%" PRIu64, p->compute_instance_id.v);
	}
}

static void human_device(const struct report *r, bool color)
{
	const gw_device_info *d = r->d;
	char a[128];

	printf("\nGPU %d: %s (%s)\n", d->index, show_str(B(a), &d->name),
	       GW_VALID(d->pci_bus_id) ? d->pci_bus_id.s : _("no PCI bus id"));
	report_line(1, _("Health"), "%s%s%s%s%s", color_health(color, d->health), gw_health_name(d->health),
		    d->health != GW_HEALTH_OK && d->health_reason[0] ? ": " : "",
		    d->health != GW_HEALTH_OK ? r->reason : "", color_reset(color));
	if (r->sample_rc < 0 && r->sample_rc != GW_ELOST)
		report_line(1, _("Sample Error"), "%s", r->sample_error);
	human_identity(d, r->cuda_index);
	human_metrics(r);
	human_mig(r);
	human_processes(r);
}

/* ---- JSON --------------------------------------------------------------- */

static void json_mig_devices(gw_json *j, const struct report *r);

/* The MIG devices go into "mig" before it closes. */
static void before_close(gw_json *j, const char *object, int depth, void *arg)
{
	if (depth == 1 && !strcmp(object, "mig"))
		json_mig_devices(j, arg);
}

/* Every metric of the table at its JSON path (docs/contracts.md "JSON output"). */
static void json_metrics(gw_json *j, const struct report *r)
{
	struct json_path p = { .depth = 0 };

	for (int i = 0; i < gw_metric_count(); i++) {
		const gw_metric_info *m = gw_metric_info_get(i);
		gw_metric_value v;
		gw_field_state st = gw_device_metric_value(r->d, &r->s, i, &v);

		json_path_close(j, &p, m->json, before_close, (void *)r);
		gw_json_key(j, json_path_open(j, &p, m->json));
		metric_json(j, m, &v, st);
	}
	json_path_close(j, &p, NULL, before_close, (void *)r);
}

static void json_identity(gw_json *j, const gw_device_info *d)
{
	gw_json_key(j, "index");
	gw_json_int(j, d->index);
	json_index_field(j, "cuda_index", d->cuda_index);
	json_index_field(j, "nvml_index", d->nvml_index);
	gw_json_key(j, "vendor");
	gw_json_string(j, gw_vendor_name(d->vendor));
	gw_json_key(j, "backend");
	gw_json_string(j, d->backend && *d->backend ? d->backend : NULL);
}

static void json_mig_devices(gw_json *j, const struct report *r)
{
	const gw_device_sample *s = &r->s;

	gw_json_key(j, "devices");
	gw_json_array_begin(j);
	for (int i = 0; i < s->mig_count && i < GW_MAX_MIG; i++) {
		const gw_mig_device *m = &s->mig[i];

		gw_json_object_begin(j);
		gw_json_str_field(j, "uuid", &m->uuid);
		gw_json_str_field(j, "name", &m->name);
		gw_json_u64_field(j, "gpu_instance_id", &m->gpu_instance_id);
		gw_json_u64_field(j, "compute_instance_id", &m->compute_instance_id);
		gw_json_u64_field(j, "multiprocessor_count", &m->multiprocessor_count);
		gw_json_key(j, "memory");
		gw_json_object_begin(j);
		gw_json_u64_field(j, "total_bytes", &m->memory_total);
		gw_json_u64_field(j, "used_bytes", &m->memory_used);
		gw_json_u64_field(j, "free_bytes", &m->memory_free);
		gw_json_object_end(j);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

static void json_processes(gw_json *j, const struct report *r)
{
	gw_json_key(j, "processes");
	if (r->procs_rc < 0 || !device_readable(r->d)) {
		gw_json_null(j); /* unknown, not "none" */
		return;
	}
	gw_json_array_begin(j);
	for (size_t i = 0; i < r->nprocs; i++) {
		const gw_process *p = &r->procs[i];

		gw_json_object_begin(j);
		gw_json_key(j, "pid");
		gw_json_uint(j, p->pid);
		gw_json_key(j, "type");
		gw_json_string(j, process_type_name(p->type));
		gw_json_key(j, "user");
		gw_json_string(j, p->pid_resolved && p->user[0] ? p->user : NULL);
		gw_json_key(j, "command");
		gw_json_string(j, p->pid_resolved && p->command[0] ? p->command : NULL);
		gw_json_key(j, "in_pid_namespace");
		gw_json_bool(j, p->pid_resolved);
		gw_json_u64_field(j, "used_memory_bytes", &p->used_memory);
		gw_json_u64_field(j, "gpu_instance_id", &p->gpu_instance_id);
		gw_json_u64_field(j, "compute_instance_id", &p->compute_instance_id);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

static void json_device(gw_json *j, const struct report *r)
{
	gw_json_object_begin(j);
	json_identity(j, r->d);
	json_metrics(j, r);
	json_processes(j, r);
	json_health(j, r->d, r->reason);
	gw_json_key(j, "error");
	gw_json_string(j, r->sample_rc < 0 && r->sample_rc != GW_ELOST ? r->sample_error : NULL);
	gw_json_object_end(j);
}

static void json_driver(gw_json *j, const gw_context *ctx)
{
	const gw_driver_info *drv = gw_context_driver(ctx);
	char a[32];

	gw_json_key(j, "driver");
	gw_json_object_begin(j);
	gw_json_str_field(j, "version", &drv->driver_version);
	gw_json_key(j, "cuda_driver_version");
	gw_json_string(j, GW_VALID(drv->cuda_driver_version)
			  ? cuda_version_text(a, sizeof(a), drv->cuda_driver_version.v) : NULL);
	gw_json_str_field(j, "nvml_version", &drv->nvml_version);
	gw_json_str_field(j, "kernel_module_version", &drv->kernel_module_version);
	gw_json_str_field(j, "amdgpu_version", &drv->amdgpu_version);
	gw_json_object_end(j);
}

/* ---- the command -------------------------------------------------------- */

struct info_opts {
	struct opt_list ids;  /* every -i, in order */
	char *selectors;      /* those joined with ',' (NULL: all GPUs) */
	bool json, quiet;
};

static const struct option info_options[] = {
	OPT_LIST('i', "id", struct info_opts, ids, "SEL",
		 N_("only the GPUs SEL names (a comma-separated list; -i may be repeated): gpuwise index "
		 "(\"0\"), MIG device as list numbers it (\"0:1\"), UUID or a unique prefix of a GPU or MIG "
		 "UUID (\"GPU-8a5f\", \"MIG-8a3b\", or the 8 hex digits list prints), or PCI bus id "
		 "(\"18:00.0\"). Digits only: fewer than 8 are an index, 8 or more a UUID prefix")),
	OPT_BOOL(0, "json", struct info_opts, json, N_("print the JSON document described in docs/commands/info.md")),
	OPT_BOOL('q', "quiet", struct info_opts, quiet,
		 N_("print nothing (usage errors excepted); the exit status tells whether the GPU(s) can be "
		 "read (gpuwise info -q -i 0 && ...)")),
	OPT_END()
};

/* What one report covers: a GPU, and which of its MIG devices (a bit per
 * MIG index; all of them when the whole GPU was selected). */
struct target {
	int device;
	unsigned mig_mask;
};

/* Resolve -i into targets, in the order given, one per GPU (MIG devices of
 * one GPU merged into its report); returns an exit code. */
static int select_targets(gw_context *ctx, const char *sel, bool quiet, struct target **out, int *n)
{
	gw_selection *list = NULL;
	size_t count = 0;
	struct target *t;
	int rc, nt = 0, ndev = gw_device_count(ctx);

	*out = NULL;
	*n = 0;
	if (sel && (rc = gw_context_select(ctx, sel, &list, &count)) < 0) {
		if (!quiet || rc != GW_ENOTFOUND)
			error_msg("%s%s", gw_error_last_text(), rc == GW_ENOTFOUND ? _("; see 'gpuwise list'") : "");
		return rc == GW_ENOTFOUND ? EXIT_FAIL : rc == GW_ENOMEM ? EXIT_FAIL : EXIT_USAGE;
	}
	if (!(t = calloc(sel ? count + 1 : (size_t)ndev + 1, sizeof(*t)))) {
		gw_selection_free(list);
		error_msg(_("out of memory"));
		return EXIT_FAIL;
	}
	if (!sel)
		for (int i = 0; i < ndev; i++)
			t[nt++] = (struct target){ i, ALL_MIG };
	for (size_t k = 0; k < count; k++) {
		int j = 0;

		while (j < nt && t[j].device != list[k].device)
			j++;
		if (j == nt)
			t[nt++] = (struct target){ list[k].device, 0 };
		t[j].mig_mask |= list[k].mig < 0 ? ALL_MIG : 1u << list[k].mig;
	}
	gw_selection_free(list);
	*out = t;
	*n = nt;
	return EXIT_OK;
}

/* ---- topology and peer access between the reported GPUs ------------------ */

/* Every ordered pair of distinct targets, read once (a to b may differ
 * from b to a); ok[k] false where the backend cannot tell at all. */
struct peers {
	int n;                 /* targets */
	gw_peer_info *p;       /* n * n, [a * n + b] */
	bool *ok;
	bool any;              /* some value valid */
};

static void peers_read(gw_context *ctx, const struct target *t, int nt, struct peers *pr)
{
	memset(pr, 0, sizeof(*pr));
	if (nt < 2 || !(pr->p = calloc((size_t)nt * (size_t)nt, sizeof(*pr->p))) ||
	    !(pr->ok = calloc((size_t)nt * (size_t)nt, sizeof(*pr->ok)))) {
		free(pr->p);
		pr->p = NULL;
		return;
	}
	pr->n = nt;
	for (int a = 0; a < nt; a++)
		for (int b = 0; b < nt; b++) {
			gw_peer_info *pi = &pr->p[a * nt + b];

			if (a == b || t[a].device == t[b].device ||
			    gw_device_peer(ctx, t[a].device, t[b].device, pi) < 0)
				continue;
			pr->ok[a * nt + b] = true;
			pr->any |= GW_VALID(pi->topology);
			for (int c = 0; c < GW_P2P_CAP_COUNT; c++)
				pr->any |= GW_VALID(pi->p2p[c]);
		}
}

static void peers_free(struct peers *pr)
{
	free(pr->p);
	free(pr->ok);
}

/* nvidia-smi topo -p2p's abbreviations. */
static const char *p2p_short(const gw_u64 *f)
{
	static const char *const abbr[] = { "OK", "CNS", "GNS", "TNS", "DBR", "NS", "U" };

	if (!GW_VALID(*f))
		return f->state == GW_FIELD_ERROR ? "ERR" : "N/A";
	return f->v < sizeof(abbr) / sizeof(abbr[0]) ? abbr[f->v] : "?";
}

static const char *topo_short(const gw_u64 *f)
{
	const char *name = GW_VALID(*f) ? gw_topology_level_name((gw_topology_level)f->v) : NULL;

	return name ? name : f->state == GW_FIELD_ERROR ? "ERR" : "N/A";
}

/* One matrix: cap < 0 is the topology, else that P2P capability. Printed
 * only when some cell of it was read. */
static void matrix_row(const char *const *cells, int n)
{
	for (int k = 0; k < n; k++)
		printf(k + 1 < n ? (k ? "%-6s" : "%-8s") : "%s\n", cells[k]);
}

/* One matrix: cap < 0 is the topology, else that P2P capability. Printed
 * only when some cell of it was read; true when it was. */
static bool human_matrix(const gw_context *ctx, const struct target *t, const struct peers *pr, int cap,
			 const char *title)
{
	const char *cells[257];
	char names[256][16];
	bool any = false;
	int n = pr->n < 256 ? pr->n : 256;

	for (int k = 0; k < pr->n * pr->n; k++)
		any |= pr->ok[k] && GW_VALID(cap < 0 ? pr->p[k].topology : pr->p[k].p2p[cap]);
	if (!any)
		return false;
	printf("\n%s\n", title);
	cells[0] = "";
	for (int b = 0; b < n; b++) {
		snprintf(names[b], sizeof(names[b]), "GPU%d", gw_device_get(ctx, t[b].device)->index);
		cells[b + 1] = names[b];
	}
	matrix_row(cells, n + 1);
	for (int a = 0; a < n; a++) {
		cells[0] = names[a];
		for (int b = 0; b < n; b++) {
			const gw_peer_info *pi = &pr->p[a * pr->n + b];

			cells[b + 1] = a == b ? "X" : !pr->ok[a * pr->n + b] ? "N/A"
				       : cap < 0 ? topo_short(&pi->topology) : p2p_short(&pi->p2p[cap]);
		}
		matrix_row(cells, n + 1);
	}
	return true;
}

/* Matrices like nvidia-smi topo -m and -p2p r/w/n, each legend line short
 * enough for an 80-column terminal in every language. */
static void human_peers(const gw_context *ctx, const struct target *t, const struct peers *pr)
{
	bool p2p = false;

	if (!pr->any)
		return;
	if (human_matrix(ctx, t, pr, -1, _("Topology (nvidia-smi topo -m)"))) {
		printf("%s\n", _("X = self, PIX = one PCIe switch, PXB = several PCIe switches,"));
		printf("%s\n", _("PHB = a PCIe host bridge, NODE = one NUMA node, SYS = across CPU sockets"));
	}
	p2p |= human_matrix(ctx, t, pr, GW_P2P_READ, _("Peer-to-peer read (nvidia-smi topo -p2p r)"));
	p2p |= human_matrix(ctx, t, pr, GW_P2P_WRITE, _("Peer-to-peer write (nvidia-smi topo -p2p w)"));
	p2p |= human_matrix(ctx, t, pr, GW_P2P_NVLINK, _("Peer-to-peer over NVLink (nvidia-smi topo -p2p n)"));
	if (p2p) {
		printf("%s\n", _("OK = supported, CNS = chipset not supported, GNS = GPU not supported,"));
		printf("%s\n", _("TNS = topology not supported, DBR = disabled by registry key,"));
		printf("%s\n", _("NS = not supported, U = unknown, ERR = the call failed"));
	}
}

static void json_u64_name(gw_json *j, const char *key, const gw_u64 *f, const char *name)
{
	gw_json_key(j, key);
	gw_json_string(j, GW_VALID(*f) ? name : NULL);
}

/* "peers": one object per ordered pair the backend could read. */
static void json_peers(gw_json *j, const gw_context *ctx, const struct target *t, const struct peers *pr)
{
	gw_json_key(j, "peers");
	gw_json_array_begin(j);
	for (int a = 0; a < pr->n; a++)
		for (int b = 0; b < pr->n; b++) {
			const gw_peer_info *pi = &pr->p[a * pr->n + b];

			if (a == b || !pr->ok[a * pr->n + b])
				continue;
			gw_json_object_begin(j);
			gw_json_key(j, "from");
			gw_json_int(j, gw_device_get(ctx, t[a].device)->index);
			gw_json_key(j, "to");
			gw_json_int(j, gw_device_get(ctx, t[b].device)->index);
			json_u64_name(j, "topology", &pi->topology,
				      gw_topology_level_name((gw_topology_level)pi->topology.v));
			gw_json_key(j, "p2p");
			gw_json_object_begin(j);
			for (int c = 0; c < GW_P2P_CAP_COUNT; c++)
				json_u64_name(j, gw_p2p_cap_name((gw_p2p_cap)c), &pi->p2p[c],
					      gw_p2p_status_name((gw_p2p_status)pi->p2p[c].v));
			gw_json_object_end(j);
			gw_json_object_end(j);
		}
	gw_json_array_end(j);
}

static int emit(gw_context *ctx, const struct info_opts *o, const struct target *t, int nt, const char *problem)
{
	gw_json *j = NULL;
	bool color = use_color(stdout);
	struct peers pr;
	int rc = 0;

	if (o->json) {
		if (!(j = gw_json_new(2))) {
			error_msg(_("out of memory"));
			return -1;
		}
		gw_json_object_begin(j);
		gw_json_key(j, "gpuwise_version");
		gw_json_string(j, gw_version());
		json_driver(j, ctx);
		json_backends(j, ctx);
		gw_json_key(j, "devices");
		gw_json_array_begin(j);
	} else if (!o->quiet) {
		human_driver(ctx, gw_device_count(ctx));
		human_backends(ctx);
	}
	for (int k = 0; k < nt; k++) {
		struct report r;

		report_read(ctx, t[k].device, &r);
		report_only_mig(&r, t[k].mig_mask);
		if (j)
			json_device(j, &r);
		else if (!o->quiet)
			human_device(&r, color);
		report_release(&r);
	}
	peers_read(ctx, t, nt, &pr);
	if (j) {
		gw_json_array_end(j);
		json_peers(j, ctx, t, &pr);
		rc = json_finish(j, problem);
	} else if (!o->quiet) {
		human_peers(ctx, t, &pr);
	}
	peers_free(&pr);
	return rc;
}

static int cmd_info(int argc, char **argv)
{
	struct info_opts o = { { { NULL }, 0 }, NULL, false, false };
	struct target *t = NULL;
	gw_context *ctx;
	char problem[1024];
	char **args;
	int nt = 0, rc, readable = 0;

	if (parse_options(&cmd_info_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	o.selectors = join_selectors(&o.ids);
	if (!(ctx = open_context())) {
		free(o.selectors);
		return EXIT_FAIL;
	}
	if ((rc = select_targets(ctx, o.selectors, o.quiet, &t, &nt)) != EXIT_OK) {
		gw_context_free(ctx);
		free(o.selectors);
		return rc;
	}
	for (int k = 0; k < nt; k++)
		readable += device_readable(gw_device_get(ctx, t[k].device));
	problem[0] = '\0';
	if (!readable) {
		if (o.selectors && nt == 1) {
			const gw_device_info *d = gw_device_get(ctx, t[0].device);
			char why[1024];

			snprintf(problem, sizeof(problem), _("GPU %d cannot be read: %s%s%s"), t[0].device,
				 gw_health_name(d->health), d->health_reason[0] ? ": " : "",
				 gw_device_health_reason(ctx, t[0].device, why, sizeof(why)));
		} else if (o.selectors) {
			snprintf(problem, sizeof(problem), _("none of the %d selected GPUs can be read"), nt);
		} else {
			no_gpu_sentence(ctx, problem, sizeof(problem));
		}
		if (!o.quiet)
			error_msg("%s", problem);
	}
	rc = (o.json || !o.quiet) ? emit(ctx, &o, t, nt, problem[0] ? problem : NULL) : 0;
	gw_context_free(ctx);
	free(t);
	free(o.selectors);
	if (rc < 0)
		return EXIT_FAIL;
	return readable ? EXIT_OK : EXIT_FAIL;
}

const struct cmd cmd_info_def = {
	.name = "info",
	.fn = cmd_info,
	.summary = N_("everything about each GPU (nvidia-smi -q), or --json"),
	.options = info_options,
	.description =
		N_("Report everything gpuwise knows about each GPU (or the one selected), like `nvidia-smi -q`: "
		"driver and CUDA driver versions; per GPU its identity (name, UUID, serial, VBIOS, PCI ids, "
		"kernel driver), architecture, compute capability or gfx target, memory, BAR1, utilization, "
		"temperature, fan, power, clocks, PCIe link, modes, clock event (throttle) reasons, ECC, "
		"remapped rows, MIG devices, processes and health. A value the GPU does not have prints N/A; "
		"one that could not be read prints \"error (code N)\"."),
	.exit_status = N_("Exit status: 0 when at least one reported GPU could be read; 1 when none could, or an "
		       "entry of SEL matches no GPU; 2 on a usage error (unknown option, missing, empty or "
		       "ambiguous SEL)."),
};
