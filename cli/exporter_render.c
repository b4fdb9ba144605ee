/* A collector snapshot as what the exporter serves: Prometheus text format
 * 0.0.4 in one of three naming schemes, the status page (/) and the
 * `watch --json` object (/api/status). Pure functions of the snapshot: the
 * collector calls them once per pass and a scrape only copies the result. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "commands.h"
#include "exporter.h"
#include "kubernetes.h"
#include "output.h"

void exp_snapshot_clear(struct exp_snapshot *s)
{
	for (int i = 0; s->dev && i < s->count; i++) {
		gw_processes_free(s->dev[i].procs);
		free(s->dev[i].proc_in_pod);
	}
	free(s->dev);
	k8s_map_release(s->k8s);
	memset(s, 0, sizeof(*s));
}

int exp_names_parse(const char *s, enum exp_names *out)
{
	static const char *const names[] = { "dcgm", "nvidia-smi", "native" };

	for (int i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum exp_names)i;
			return 0;
		}
	return -1;
}

/* ---- Prometheus text format 0.0.4 ------------------------------------- */

/* A label value: backslash, double quote and newline escaped. */
static void put_label_value(gw_strbuf *b, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			gw__sb_adds(b, "\\\\");
		else if (*v == '"')
			gw__sb_adds(b, "\\\"");
		else if (*v == '\n')
			gw__sb_adds(b, "\\n");
		else
			gw__sb_add(b, v, 1);
	}
}

static void put_label(gw_strbuf *b, bool *first, const char *name, const char *value)
{
	gw__sb_adds(b, *first ? "{" : ",");
	*first = false;
	gw__sb_adds(b, name);
	gw__sb_adds(b, "=\"");
	put_label_value(b, value);
	gw__sb_adds(b, "\"");
}

/* HELP text: backslash and newline escaped. */
static void put_family(gw_strbuf *b, const char *name, const char *type, const char *help)
{
	gw__sb_addf(b, "# HELP %s ", name);
	for (const char *p = help; *p; p++) {
		if (*p == '\\')
			gw__sb_adds(b, "\\\\");
		else if (*p == '\n')
			gw__sb_adds(b, "\\n");
		else
			gw__sb_add(b, p, 1);
	}
	gw__sb_addf(b, "\n# TYPE %s %s\n", name, type);
}

/* A sample value, locale-free: integers whole, others with the digits a
 * double holds. */
static void put_value(gw_strbuf *b, double v)
{
	if (isnan(v))
		gw__sb_adds(b, " NaN\n");
	else if (isinf(v))
		gw__sb_adds(b, v > 0 ? " +Inf\n" : " -Inf\n");
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		gw__sb_addf(b, " %.0f\n", v);
	else
		gw__sb_addf(b, " %.12g\n", v);
}

static const char *uuid_of(const struct exp_device *d)
{
	return GW_VALID(d->info.uuid) ? d->info.uuid.s : "";
}

/* --kubernetes: pod, namespace and container of the pod that holds device
 * id (a GPU's or MIG device's UUID), when the kubelet said one does. */
static void put_k8s_labels(gw_strbuf *b, bool *first, const struct exp_snapshot *s, const char *id)
{
	const struct k8s_owner *o = k8s_map_find(s->k8s, id);

	if (!o)
		return;
	put_label(b, first, "pod", o->pod);
	put_label(b, first, "namespace", o->namespace_);
	put_label(b, first, "container", o->container);
}

/* The UUID of the MIG device of d that gpu_instance is, or NULL. */
static const char *mig_uuid_of(const struct exp_device *d, const gw_u64 *gpu_instance)
{
	for (int k = 0; GW_VALID(*gpu_instance) && k < d->sample.mig_count; k++) {
		const gw_mig_device *g = &d->sample.mig[k];

		if (GW_VALID(g->gpu_instance_id) && g->gpu_instance_id.v == gpu_instance->v)
			return GW_VALID(g->uuid) ? g->uuid.s : NULL;
	}
	return NULL;
}

/* {gpu="0",UUID="GPU-..."}: the labels of the gpuwise_* series every mode has. */
static void put_gpu_labels(gw_strbuf *b, const struct exp_snapshot *s, const struct exp_device *d)
{
	bool first = true;
	char idx[16];

	snprintf(idx, sizeof(idx), "%d", d->info.index);
	put_label(b, &first, "gpu", idx);
	put_label(b, &first, "UUID", uuid_of(d));
	put_k8s_labels(b, &first, s, uuid_of(d));
	gw__sb_adds(b, "}");
}

/* The series every naming scheme carries (docs/contracts.md "Live monitoring"). */
static void render_exporter_metrics(gw_strbuf *b, const struct exp_snapshot *s)
{
	put_family(b, "gpuwise_gpu_up", "gauge", "1 when the last collection read the GPU, 0 when it could not (lost, no driver).");
	for (int i = 0; i < s->count; i++) {
		gw__sb_adds(b, "gpuwise_gpu_up");
		put_gpu_labels(b, s, &s->dev[i]);
		put_value(b, s->dev[i].up ? 1 : 0);
	}
	put_family(b, "gpuwise_exporter_collect_seconds", "gauge", "Seconds the last collection of every GPU took.");
	gw__sb_adds(b, "gpuwise_exporter_collect_seconds");
	put_value(b, s->collect_seconds);
	put_family(b, "gpuwise_exporter_errors_total", "counter", "Reads of a GPU that failed since the exporter started.");
	gw__sb_adds(b, "gpuwise_exporter_errors_total");
	put_value(b, (double)s->errors_total);
	if (s->kubernetes) {
		put_family(b, "gpuwise_kubernetes_stale", "gauge", "1 when the pod labels are not from a fresh answer of the kubelet (its last List call failed or took too long, or none has answered yet), else 0.");
		gw__sb_adds(b, "gpuwise_kubernetes_stale");
		put_value(b, s->k8s_stale ? 1 : 0);
	}
}

/* The process name: the last path part of the command's first word. */
static void process_name(char *buf, size_t n, const gw_process *p)
{
	const char *cmd = p->command, *end, *base;
	size_t len;

	if (!p->pid_resolved || !cmd[0]) {
		snprintf(buf, n, "?");
		return;
	}
	end = strchr(cmd, ' ');
	if (!end)
		end = cmd + strlen(cmd);
	base = cmd;
	for (const char *q = cmd; q < end; q++)
		if (*q == '/')
			base = q + 1;
	len = (size_t)(end - base);
	if (len >= n)
		len = n - 1;
	memcpy(buf, base, len);
	buf[len] = '\0';
}

/* Per-process series (--per-process only: command lines stay on the host
 * otherwise). */
static void render_processes(gw_strbuf *b, const struct exp_snapshot *s)
{
	put_family(b, "gpuwise_process_memory_bytes", "gauge", "GPU memory used by a process, in bytes.");
	for (int i = 0; i < s->count; i++) {
		const struct exp_device *d = &s->dev[i];

		for (size_t k = 0; k < d->nprocs; k++) {
			const gw_process *p = &d->procs[k];
			char idx[16], pid[16];
			bool first = true;

			if (!GW_VALID(p->used_memory))
				continue;
			snprintf(idx, sizeof(idx), "%d", d->info.index);
			snprintf(pid, sizeof(pid), "%" PRIu32, p->pid);
			gw__sb_adds(b, "gpuwise_process_memory_bytes");
			put_label(b, &first, "gpu", idx);
			put_label(b, &first, "UUID", uuid_of(d));
			put_label(b, &first, "pid", pid);
			put_label(b, &first, "user", p->user[0] ? p->user : "?");
			put_label(b, &first, "command", p->command);
			if (d->proc_in_pod && d->proc_in_pod[k]) {
				const char *mig = mig_uuid_of(d, &p->gpu_instance_id);

				put_k8s_labels(b, &first, s, mig ? mig : uuid_of(d));
			}
			gw__sb_adds(b, "}");
			put_value(b, (double)p->used_memory.v);
		}
	}
}

/* The table's naming scheme for --names. */
static gw_metric_scheme scheme_of(enum exp_names names)
{
	return names == EXP_NAMES_DCGM ? GW_SCHEME_DCGM : names == EXP_NAMES_NVIDIA_SMI ? GW_SCHEME_NVIDIA_SMI
										 : GW_SCHEME_NATIVE;
}

/* NVML's form of a bus id, as dcgm-exporter labels it: "00000000:18:00.0". */
static void dcgm_bus_id(char *buf, size_t n, const gw_device_info *info)
{
	const char *b = GW_VALID(info->pci_bus_id) ? info->pci_bus_id.s : "";
	size_t k = 0;

	if (strlen(b) == 12 && b[4] == ':')
		k = (size_t)snprintf(buf, n, "0000");
	for (; *b && k + 1 < n; b++)
		buf[k++] = (char)toupper((unsigned char)*b);
	buf[k < n ? k : n - 1] = '\0';
}

/* "GPU-7c3c..." as nvidia_gpu_exporter's uuid label has it: "7c3c...". */
static const char *smi_uuid(char *buf, size_t n, const struct exp_device *d)
{
	const char *u = uuid_of(d);
	size_t k = 0;

	if (strncmp(u, "GPU-", 4) == 0)
		u += 4;
	for (; *u && k + 1 < n; u++)
		buf[k++] = (char)tolower((unsigned char)*u);
	buf[k] = '\0';
	return buf;
}

/* The labels of a device series in a scheme, in that exporter's order;
 * mig (NULL for the whole GPU) adds dcgm-exporter's GPU_I_PROFILE and
 * GPU_I_ID; xid (NULL but on the last-Xid row) its err_code and err_msg
 * attributes, which dashboards show beside the number; link (-1 for
 * none) the NVLink link number of a per-link series. */
static void put_labels(gw_strbuf *b, const struct exp_snapshot *s, const struct exp_device *d,
		       enum exp_names names, const gw_mig_device *mig, const uint64_t *xid, int link)
{
	char idx[16], tmp[GW_STR_MAX + 16];
	bool first = true;

	snprintf(idx, sizeof(idx), "%d", d->info.index);
	switch (names) {
	case EXP_NAMES_DCGM:
		put_label(b, &first, "gpu", idx);
		put_label(b, &first, "UUID", uuid_of(d));
		dcgm_bus_id(tmp, sizeof(tmp), &d->info);
		put_label(b, &first, "pci_bus_id", tmp);
		snprintf(tmp, sizeof(tmp), "nvidia%" PRIu64,
			 GW_VALID(d->info.minor_number) ? d->info.minor_number.v : (uint64_t)d->info.index);
		put_label(b, &first, "device", tmp);
		put_label(b, &first, "modelName", GW_VALID(d->info.name) ? d->info.name.s : "");
		if (mig) {
			const char *profile = GW_VALID(mig->name) ? strstr(mig->name.s, "MIG ") : NULL;

			put_label(b, &first, "GPU_I_PROFILE", profile ? profile + 4 : "");
			snprintf(tmp, sizeof(tmp), "%" PRIu64, GW_VALID(mig->gpu_instance_id) ? mig->gpu_instance_id.v : 0);
			put_label(b, &first, "GPU_I_ID", tmp);
		}
		/* "Hostname" until dcgm-exporter 4.5.3-4.8.2; its PR #655
		 * (release 4.6.0-4.8.3) made it "hostname". Dashboard 12239
		 * uses neither, so only the current name is served. */
		put_label(b, &first, "hostname", s->hostname);
		put_label(b, &first, "DCGM_FI_DRIVER_VERSION", s->driver_version);
		if (xid) {
			const char *meaning = gw_xid_meaning(*xid);

			snprintf(tmp, sizeof(tmp), "%" PRIu64, *xid);
			put_label(b, &first, "err_code", tmp);
			put_label(b, &first, "err_msg", *xid == 0 ? "No Error" : meaning ? meaning : "Unknown Error");
		}
		break;
	case EXP_NAMES_NVIDIA_SMI:
		put_label(b, &first, "uuid", smi_uuid(tmp, sizeof(tmp), d));
		break;
	case EXP_NAMES_NATIVE:
		put_label(b, &first, "gpu", idx);
		put_label(b, &first, "UUID", uuid_of(d));
		if (mig) {
			snprintf(tmp, sizeof(tmp), "%" PRIu64, GW_VALID(mig->gpu_instance_id) ? mig->gpu_instance_id.v : 0);
			put_label(b, &first, "gpu_instance", tmp);
			put_label(b, &first, "mig_uuid", GW_VALID(mig->uuid) ? mig->uuid.s : "");
		}
		break;
	}
	if (link >= 0) {
		snprintf(tmp, sizeof(tmp), "%d", link);
		put_label(b, &first, "link", tmp);
	}
	put_k8s_labels(b, &first, s, mig ? (GW_VALID(mig->uuid) ? mig->uuid.s : "") : uuid_of(d));
	gw__sb_adds(b, "}");
}

static void put_device_labels(gw_strbuf *b, const struct exp_snapshot *s, const struct exp_device *d,
			      enum exp_names names, const gw_mig_device *mig, const uint64_t *xid)
{
	put_labels(b, s, d, names, mig, xid, -1);
}

/* dcgm-exporter and nvidia_gpu_exporter serve NVIDIA GPUs only; the native
 * names serve every GPU that was read (AMD included). */
static bool in_scheme(const struct exp_device *d, enum exp_names names)
{
	return d->up && (names == EXP_NAMES_NATIVE || d->info.vendor == GW_VENDOR_NVIDIA);
}

/* An event row (Xid) of a GPU that could not be read in this pass: the
 * sampler still knows its Xid, and Xid 79 says why it is gone. */
static bool event_row(const struct exp_device *d, const gw_metric_info *m, enum exp_names names)
{
	return !d->up && (m->flags & GW_METRIC_F_EVENT) &&
	       (names == EXP_NAMES_NATIVE || d->info.vendor == GW_VENDOR_NVIDIA);
}

/* A MIG device's value of a memory row (its own memory), or false. */
static bool mig_value(const gw_metric_info *m, const gw_mig_device *g, double *v)
{
	const gw_u64 *f = strcmp(m->key, "memory_used") == 0 ? &g->memory_used :
			  strcmp(m->key, "memory_free") == 0 ? &g->memory_free :
			  strcmp(m->key, "memory_total") == 0 ? &g->memory_total : NULL;

	if (!f || !GW_VALID(*f))
		return false;
	*v = (double)f->v;
	return true;
}

/* One family: every GPU's value of metric id, then its MIG devices' for
 * the memory rows. HELP and TYPE only when there is a sample. */
static void render_family(gw_strbuf *b, const struct exp_snapshot *s, enum exp_names names, int id)
{
	const gw_metric_info *m = gw_metric_info_get(id);
	const gw_metric_export *x = &m->exporter[scheme_of(names)];
	bool header = false;

	if (!x->name || m->type == GW_MTYPE_STR)
		return;
	for (int i = 0; i < s->count; i++) {
		const struct exp_device *d = &s->dev[i];
		gw_metric_value v;
		double mv;

		if (!(in_scheme(d, names) || event_row(d, m, names)) ||
		    gw_device_metric_value(&d->info, &d->sample, id, &v) != GW_FIELD_VALID)
			continue;
		if (!header)
			put_family(b, x->name, x->type, x->help), header = true;
		gw__sb_adds(b, x->name);
		put_device_labels(b, s, d, names, NULL, strcmp(m->key, "xid_last") == 0 ? &v.u : NULL);
		put_value(b, (v.type == GW_MTYPE_U64 ? (double)v.u : v.f) * x->scale);
		for (int k = 0; k < d->sample.mig_count && names != EXP_NAMES_NVIDIA_SMI; k++) {
			if (!mig_value(m, &d->sample.mig[k], &mv))
				continue;
			gw__sb_adds(b, x->name);
			put_device_labels(b, s, d, names, &d->sample.mig[k], NULL);
			put_value(b, mv * x->scale);
		}
	}
}

/* Identity: nvidia_gpu_exporter's nvidia_smi_gpu_info, gpuwise_gpu_info. */
static void render_info(gw_strbuf *b, const struct exp_snapshot *s, enum exp_names names)
{
	const char *name = names == EXP_NAMES_NVIDIA_SMI ? "nvidia_smi_gpu_info" : "gpuwise_gpu_info";
	bool header = false;

	if (names == EXP_NAMES_DCGM)
		return; /* dcgm-exporter puts identity in the labels of every series */
	for (int i = 0; i < s->count; i++) {
		const struct exp_device *d = &s->dev[i];
		char idx[16], tmp[GW_STR_MAX + 16];
		bool first = true;

		if (names == EXP_NAMES_NVIDIA_SMI && !in_scheme(d, names))
			continue;
		if (!header)
			put_family(b, name, "gauge", names == EXP_NAMES_NVIDIA_SMI ? "A metric with a constant '1' value labeled by gpu uuid, name, driver_version and pci_bus_id." : "Identity of each GPU (the value is always 1)."), header = true;
		snprintf(idx, sizeof(idx), "%d", d->info.index);
		gw__sb_adds(b, name);
		if (names == EXP_NAMES_NVIDIA_SMI) {
			put_label(b, &first, "uuid", smi_uuid(tmp, sizeof(tmp), d));
			put_label(b, &first, "name", GW_VALID(d->info.name) ? d->info.name.s : "");
			put_label(b, &first, "driver_version", s->driver_version);
			dcgm_bus_id(tmp, sizeof(tmp), &d->info);
			put_label(b, &first, "pci_bus_id", tmp);
			put_label(b, &first, "index", idx);
		} else {
			put_label(b, &first, "gpu", idx);
			put_label(b, &first, "UUID", uuid_of(d));
			put_label(b, &first, "name", GW_VALID(d->info.name) ? d->info.name.s : "");
			put_label(b, &first, "pci_bus_id", GW_VALID(d->info.pci_bus_id) ? d->info.pci_bus_id.s : "");
			put_label(b, &first, "vendor", gw_vendor_name(d->info.vendor));
			put_label(b, &first, "health", gw_health_name(d->info.health));
			put_label(b, &first, "driver_version", s->driver_version);
		}
		put_k8s_labels(b, &first, s, uuid_of(d));
		gw__sb_adds(b, "}");
		put_value(b, 1);
	}
}

/* nvidia_gpu_exporter's series that are not one row of the metric table:
 * nvidia_smi_index (dashboard 14574 takes its job and instance variables
 * from it, so without it the dashboard shows nothing) and one 0/1 series per
 * clock event reason (nvidia-smi's clocks_event_reasons.* fields, "Active" =
 * 1), from NVML's bit mask. */
static const struct {
	const char *field;
	uint64_t bit;
} smi_reasons[] = {
	{ "gpu_idle", 0x1 },
	{ "applications_clocks_setting", 0x2 },
	{ "sw_power_cap", 0x4 },
	{ "hw_slowdown", 0x8 },
	{ "sync_boost", 0x10 },
	{ "sw_thermal_slowdown", 0x20 },
	{ "hw_thermal_slowdown", 0x40 },
	{ "hw_power_brake_slowdown", 0x80 },
};

static void render_smi_extras(gw_strbuf *b, const struct exp_snapshot *s)
{
	char name[96], help[96];

	for (int r = -1; r < (int)(sizeof(smi_reasons) / sizeof(smi_reasons[0])); r++) {
		bool header = false;

		if (r < 0) {
			snprintf(name, sizeof(name), "nvidia_smi_index");
			snprintf(help, sizeof(help), "index");
		} else {
			snprintf(name, sizeof(name), "nvidia_smi_clocks_event_reasons_%s", smi_reasons[r].field);
			snprintf(help, sizeof(help), "clocks_event_reasons.%s", smi_reasons[r].field);
		}
		for (int i = 0; i < s->count; i++) {
			const struct exp_device *d = &s->dev[i];

			if (!in_scheme(d, EXP_NAMES_NVIDIA_SMI) || (r >= 0 && !GW_VALID(d->sample.throttle_reasons)))
				continue;
			if (!header)
				put_family(b, name, "gauge", help), header = true;
			gw__sb_adds(b, name);
			put_device_labels(b, s, d, EXP_NAMES_NVIDIA_SMI, NULL, NULL);
			put_value(b, r < 0 ? (double)d->info.index : (d->sample.throttle_reasons.v & smi_reasons[r].bit) != 0);
		}
	}
}

/* Per-link NVLink series, one per (GPU, link) with a "link" label. Neither
 * dcgm-exporter nor nvidia_gpu_exporter has a link-labelled state or byte
 * counter (dcgm-exporter's per-link fields are one name per link, and
 * rates), so every scheme serves these native names, with its own device
 * labels. GPUs without NVLink have no links and no series. */
static const struct {
	const char *name, *type, *help;
	size_t offset;      /* of the gw_u64 in gw_nvlink_sample */
} nvlink_families[] = {
	{ "gpuwise_nvlink_link_active", "gauge", "1 when the NVLink link is active, 0 when it is not.",
	  offsetof(gw_nvlink_sample, active) },
	{ "gpuwise_nvlink_link_transmitted_bytes_total", "counter",
	  "NVLink data bytes (payload) sent over the link since the driver loaded.",
	  offsetof(gw_nvlink_sample, tx_bytes) },
	{ "gpuwise_nvlink_link_received_bytes_total", "counter",
	  "NVLink data bytes (payload) received over the link since the driver loaded.",
	  offsetof(gw_nvlink_sample, rx_bytes) },
};

static void render_nvlink(gw_strbuf *b, const struct exp_snapshot *s, enum exp_names names)
{
	for (size_t f = 0; f < sizeof(nvlink_families) / sizeof(nvlink_families[0]); f++) {
		bool header = false;

		for (int i = 0; i < s->count; i++) {
			const struct exp_device *d = &s->dev[i];
			int n = d->sample.nvlink_count;

			if (!in_scheme(d, names) || n <= 0)
				continue;
			for (int l = 0; l < n && l < GW_MAX_NVLINKS; l++) {
				const gw_u64 *v = (const gw_u64 *)(const void *)((const char *)&d->sample.nvlink[l] +
										nvlink_families[f].offset);

				if (!GW_VALID(*v))
					continue;
				if (!header)
					put_family(b, nvlink_families[f].name, nvlink_families[f].type,
						   nvlink_families[f].help), header = true;
				gw__sb_adds(b, nvlink_families[f].name);
				put_labels(b, s, d, names, NULL, NULL, l);
				put_value(b, (double)v->v);
			}
		}
	}
}

/* Every device metric of the library's metric table in the chosen naming
 * scheme (names, types, HELP texts and unit scales come from the table),
 * then the per-link NVLink series when asked for (--nvlink-links). */
static void render_device_metrics(gw_strbuf *b, const struct exp_snapshot *s, enum exp_names names)
{
	render_info(b, s, names);
	if (names == EXP_NAMES_NVIDIA_SMI)
		render_smi_extras(b, s);
	for (int id = 0; id < gw_metric_count(); id++)
		render_family(b, s, names, id);
	if (s->nvlink_links)
		render_nvlink(b, s, names);
}

char *exp_render_metrics(const struct exp_snapshot *s, enum exp_names names, bool per_process, size_t *len)
{
	gw_strbuf b = GW_STRBUF_INIT;

	render_device_metrics(&b, s, names);
	if (per_process)
		render_processes(&b, s);
	render_exporter_metrics(&b, s);
	return gw__sb_detach(&b, len);
}

/* ---- /api/status: the `watch --json` object ---------------------------- */

/* What /api/status adds to each device beyond watch --json's fields (only
 * keys are added): "name", "process_count" (null when unknown) and, when
 * the page may show who runs what, "processes": [{"pid", "user", "name",
 * "used_memory_bytes"}], which `gpuwise ps/report --hosts` read. */
struct status_more {
	const struct exp_snapshot *s;
	const struct sample_device *base; /* devs[k] is s->dev[k] */
	bool show_processes;
};

static void status_processes(gw_json *j, const struct exp_device *d)
{
	gw_json_key(j, "processes");
	gw_json_array_begin(j);
	for (size_t k = 0; k < d->nprocs; k++) {
		const gw_process *p = &d->procs[k];
		char name[256];

		process_name(name, sizeof(name), p);
		gw_json_object_begin(j);
		gw_json_key(j, "pid");
		gw_json_int(j, p->pid);
		gw_json_key(j, "user");
		gw_json_string(j, p->user[0] ? p->user : NULL);
		gw_json_key(j, "name");
		gw_json_string(j, name);
		gw_json_key(j, "used_memory_bytes");
		if (GW_VALID(p->used_memory))
			gw_json_uint(j, p->used_memory.v);
		else
			gw_json_null(j);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

static void status_device_more(gw_json *j, const struct sample_device *sd, void *arg)
{
	const struct status_more *m = arg;
	const struct exp_device *d = &m->s->dev[sd - m->base];

	gw_json_key(j, "name");
	gw_json_string(j, GW_VALID(d->info.name) ? d->info.name.s : NULL);
	gw_json_key(j, "process_count");
	if (d->up && d->procs_known)
		gw_json_int(j, (int64_t)d->nprocs);
	else
		gw_json_null(j);
	if (m->show_processes && d->up && d->procs_known)
		status_processes(j, d);
}

/* Written by sample_json_host() (cli/metric_out.c), the function `gpuwise
 * watch --json` prints with, over the same default fields: one code path. */
char *exp_render_status_json(const struct exp_snapshot *s, bool show_processes, size_t *len)
{
	struct sample_device *devs = calloc((size_t)s->count + 1, sizeof(*devs));
	int fields[32], nfields = sample_default_field_ids(fields, 32);
	struct status_more more = { s, devs, show_processes };
	gw_json *j = gw_json_new(0);
	const char *text;
	char *out = NULL;

	if (!devs || !j) {
		free(devs);
		gw_json_free(j);
		return NULL;
	}
	for (int i = 0; i < s->count; i++) {
		devs[i].info = &s->dev[i].info;
		devs[i].sample = &s->dev[i].sample;
		devs[i].index = s->dev[i].info.index;
		devs[i].health = s->dev[i].health;
		devs[i].up = s->dev[i].up;
		devs[i].more = status_device_more;
		devs[i].more_arg = &more;
	}
	sample_json_host(j, s->time, s->hostname, devs, s->count, fields, nfields);
	if ((text = gw_json_text(j)) && (out = malloc(gw_json_length(j) + 2))) {
		*len = gw_json_length(j) + 1;
		memcpy(out, text, *len - 1);
		memcpy(out + *len - 1, "\n", 2);
	}
	gw_json_free(j);
	free(devs);
	return out;
}

/* ---- the status page (/) ----------------------------------------------- */

static void put_html(gw_strbuf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': gw__sb_adds(b, "&amp;"); break;
		case '<': gw__sb_adds(b, "&lt;"); break;
		case '>': gw__sb_adds(b, "&gt;"); break;
		case '"': gw__sb_adds(b, "&quot;"); break;
		case '\'': gw__sb_adds(b, "&#39;"); break;
		default: gw__sb_add(b, s, 1);
		}
	}
}

static const char page_style[] =
	"body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60em;padding:.5em;color:#222;background:#fafafa}"
	"h1{font-size:1.3em}.gpu{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.6em;margin:.6em 0}"
	".gpu h2{font-size:1.05em;margin:0 0 .4em}.down{border-color:#c33}.down h2{color:#c33}"
	".row{display:flex;align-items:center;gap:.5em;margin:.2em 0}.row span:first-child{width:6.5em}"
	".bar{flex:1;height:1em;background:#eee;border-radius:3px;overflow:hidden}"
	".bar div{height:100%;background:#3a7}.bar .hot{background:#d73}"
	".val{width:10.5em;text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}"
	"table{border-collapse:collapse;width:100%;margin-top:.4em;font-size:.9em}td,th{text-align:left;padding:.15em .4em;"
	"border-top:1px solid #eee;white-space:nowrap}td:nth-child(3){white-space:normal;overflow-wrap:anywhere;width:100%}"
	".muted{color:#777}.hist{display:block;width:100%;height:4.5em;margin:.3em 0 0;background:#f6f8fa}"
	".lg{font-size:.8em;margin:.1em 0 .3em}"
	/* A phone: label and value on one line, the bar under them, full width. */
	"@media(max-width:32em){.row{flex-wrap:wrap;gap:0 .5em}.row span:first-child{width:auto}"
	".val{width:auto;margin-left:auto}.bar{order:3;flex-basis:100%}}";

/* One bar: label, filled to pct (0-100, clamped), and the value as text. */
static void put_bar(gw_strbuf *b, const char *label, double pct, bool hot, const char *value)
{
	if (pct < 0 || isnan(pct))
		pct = 0;
	if (pct > 100)
		pct = 100;
	gw__sb_addf(b, "<div class=\"row\"><span>%s</span><div class=\"bar\"><div%s style=\"width:%.0f%%\"></div></div>"
		  "<span class=\"val\">", label, hot ? " class=\"hot\"" : "", pct);
	put_html(b, value);
	gw__sb_adds(b, "</span></div>\n");
}

static void html_bars(gw_strbuf *b, const struct exp_device *d)
{
	const gw_device_sample *s = &d->sample;
	char text[96], used[32], total[32];

	if (GW_VALID(s->gpu_util)) {
		snprintf(text, sizeof(text), "%" PRIu64 " %%", s->gpu_util.v);
		put_bar(b, "Utilisation", (double)s->gpu_util.v, false, text);
	}
	if (GW_VALID(s->memory_used) && GW_VALID(d->info.memory_total) && d->info.memory_total.v > 0) {
		double pct = 100.0 * (double)s->memory_used.v / (double)d->info.memory_total.v;

		snprintf(text, sizeof(text), "%s / %s", fmt_bytes(used, sizeof(used), s->memory_used.v),
			 fmt_bytes(total, sizeof(total), d->info.memory_total.v));
		put_bar(b, "Memory", pct, pct > 90, text);
	}
	if (GW_VALID(s->temperature)) {
		double limit = GW_VALID(s->temperature_slowdown) && s->temperature_slowdown.v > 0 ? s->temperature_slowdown.v : 100;

		snprintf(text, sizeof(text), "%.0f °C", s->temperature.v);
		put_bar(b, "Temperature", 100.0 * s->temperature.v / limit, s->temperature.v >= limit - 5, text);
	}
	if (GW_VALID(s->power_draw) && GW_VALID(s->power_limit) && s->power_limit.v > 0) {
		snprintf(text, sizeof(text), "%.0f / %.0f W", s->power_draw.v, s->power_limit.v);
		put_bar(b, "Power", 100.0 * s->power_draw.v / s->power_limit.v, false, text);
	}
}

static void html_processes(gw_strbuf *b, const struct exp_device *d, bool per_process, bool show)
{
	if (!d->procs_known) {
		gw__sb_adds(b, "<p class=\"muted\">Processes: unknown</p>\n");
		return;
	}
	if (d->nprocs == 0) {
		gw__sb_adds(b, "<p class=\"muted\">No processes</p>\n");
		return;
	}
	if (!show) { /* who runs what is not for anyone who can reach the port */
		gw__sb_addf(b, "<p class=\"muted\">%zu process%s (users, PIDs and commands hidden: "
			  "--show-processes or Basic auth shows them)</p>\n", d->nprocs, d->nprocs == 1 ? "" : "es");
		return;
	}
	gw__sb_addf(b, "<table><tr><th>User</th><th>PID</th><th>%s</th><th>Memory</th></tr>\n",
		  per_process ? "Command" : "Process");
	for (size_t k = 0; k < d->nprocs; k++) {
		const gw_process *p = &d->procs[k];
		char name[256], mem[32];

		gw__sb_adds(b, "<tr><td>");
		put_html(b, p->user[0] ? p->user : "?");
		gw__sb_addf(b, "</td><td>%" PRIu32 "</td><td>", p->pid);
		if (per_process && p->command[0])
			put_html(b, p->command);
		else {
			process_name(name, sizeof(name), p);
			put_html(b, name);
		}
		gw__sb_adds(b, "</td><td>");
		put_html(b, GW_VALID(p->used_memory) ? fmt_bytes(mem, sizeof(mem), p->used_memory.v) : "N/A");
		gw__sb_adds(b, "</td></tr>\n");
	}
	gw__sb_adds(b, "</table>\n");
}

/* ---- the last hour as inline SVG ---------------------------------------- */

static const struct {
	const char *label, *color;
} hist_lines[EXP_HIST_METRICS] = {
	/* not the bars' colours (#3a7, #d73, #eee): the chart is not a bar */
	[EXP_HIST_UTIL] = { "Utilisation", "#1b9e77" },
	[EXP_HIST_MEMORY] = { "Memory", "#3b6fd6" },
	[EXP_HIST_POWER] = { "Power (of limit)", "#e08214" },
	[EXP_HIST_TEMPERATURE] = { "Temperature °C", "#984ea3" },
};

/* One metric as polylines (a gap where a slot has no value); x is the
 * slot, y 0-100 from the bottom. */
static void svg_line(gw_strbuf *b, const uint8_t *v, const char *color)
{
	bool open = false;

	for (int k = 0; k < EXP_HIST_SLOTS; k++) {
		if (v[k] == EXP_HIST_NONE) {
			if (open)
				gw__sb_adds(b, "\"/>");
			open = false;
			continue;
		}
		if (!open)
			gw__sb_addf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
				  "vector-effect=\"non-scaling-stroke\" points=\"", color);
		else
			gw__sb_adds(b, " ");
		/* a lone slot still shows: a short flat line */
		gw__sb_addf(b, "%d,%d", k, 100 - (v[k] > 100 ? 100 : v[k]));
		if (!open && (k + 1 == EXP_HIST_SLOTS || v[k + 1] == EXP_HIST_NONE))
			gw__sb_addf(b, " %d.8,%d", k, 100 - (v[k] > 100 ? 100 : v[k]));
		open = true;
	}
	if (open)
		gw__sb_adds(b, "\"/>");
}

static void html_history(gw_strbuf *b, const struct exp_history *hist, int gpu)
{
	uint8_t v[EXP_HIST_METRICS][EXP_HIST_SLOTS];
	int any = 0;

	for (int m = 0; m < EXP_HIST_METRICS; m++)
		any |= exp_history_get(hist, gpu, m, v[m]);
	if (!any)
		return;
	gw__sb_addf(b, "<svg class=\"hist\" viewBox=\"0 0 %d 100\" preserveAspectRatio=\"none\" role=\"img\" "
		  "aria-label=\"the last hour\"><path d=\"M0 50H%d M0 0H%d\" stroke=\"#dde\" "
		  "vector-effect=\"non-scaling-stroke\"/>", EXP_HIST_SLOTS - 1, EXP_HIST_SLOTS, EXP_HIST_SLOTS);
	for (int m = 0; m < EXP_HIST_METRICS; m++)
		svg_line(b, v[m], hist_lines[m].color);
	gw__sb_adds(b, "</svg>\n<p class=\"lg muted\">Last hour (0-100):");
	for (int m = 0; m < EXP_HIST_METRICS; m++)
		gw__sb_addf(b, " <span style=\"color:%s\">&#9632;</span> %s", hist_lines[m].color, hist_lines[m].label);
	gw__sb_adds(b, "</p>\n");
}

char *exp_render_html(const struct exp_snapshot *s, const struct exp_history *hist, bool per_process,
		      bool show_processes, double refresh_s, size_t *len)
{
	gw_strbuf b = GW_STRBUF_INIT;
	int refresh = refresh_s < 2 ? 2 : (int)refresh_s;

	gw__sb_addf(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		  "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
		  "<meta http-equiv=\"refresh\" content=\"%d\"><title>GPUs on ", refresh);
	put_html(&b, s->hostname);
	gw__sb_addf(&b, "</title><style>%s</style></head><body>\n<h1>GPUs on ", page_style);
	put_html(&b, s->hostname);
	gw__sb_adds(&b, "</h1>\n");
	if (s->count == 0)
		gw__sb_adds(&b, "<p>No GPU found.</p>\n");
	for (int i = 0; i < s->count; i++) {
		const struct exp_device *d = &s->dev[i];

		gw__sb_addf(&b, "<section class=\"gpu%s\"><h2>GPU %d: ", d->up ? "" : " down", d->info.index);
		put_html(&b, GW_VALID(d->info.name) ? d->info.name.s : "unknown GPU");
		if (!d->up) {
			gw__sb_adds(&b, " — ");
			put_html(&b, d->info.health != GW_HEALTH_OK ? gw_health_name(d->info.health) : "not read");
		}
		gw__sb_adds(&b, "</h2>\n");
		if (d->up) {
			html_bars(&b, d);
			html_history(&b, hist, i);
			html_processes(&b, d, per_process, show_processes);
		} else if (d->info.health_reason[0]) {
			gw__sb_adds(&b, "<p class=\"muted\">");
			put_html(&b, d->info.health_reason);
			gw__sb_adds(&b, "</p>\n");
		}
		gw__sb_adds(&b, "</section>\n");
	}
	gw__sb_addf(&b, "<p class=\"muted\">gpuwise %s · <a href=\"metrics\">metrics</a> · "
		  "<a href=\"api/status\">JSON</a></p>\n</body></html>\n", gw_version());
	return gw__sb_detach(&b, len);
}
