/* The metric table (include/gpuwise/metrics.h) as people read it and as
 * JSON writes it: shared by info, watch and the other reporting commands,
 * so a metric is formatted the same everywhere. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"

/* Clock event reasons by title; bits without one together, in hex. */
static const char *throttle_text(char *buf, size_t n, uint64_t bits)
{
	uint64_t unknown = 0;
	size_t len = 0;

	buf[0] = '\0';
	for (int bit = 0; bit < 64; bit++) {
		uint64_t m = (uint64_t)1 << bit;
		const char *t = gw_throttle_reason_title(m);

		if (!(bits & m))
			continue;
		if (!t) {
			unknown |= m;
			continue;
		}
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", len ? ", " : "", t);
	}
	if (unknown)
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%sUnknown (0x%" PRIx64 ")", len ? ", " : "",
					unknown);
	if (len >= n)
		mark_cut(buf, n);
	if (!buf[0])
		snprintf(buf, n, "None");
	return buf;
}

/* A valid metric value as text: its unit, bytes as "80.0 GiB", flags as
 * Enabled/Disabled or Yes/No, pstate "P0", throttle reasons by title. */
const char *metric_text(char *buf, size_t n, const gw_metric_info *m, const gw_metric_value *v)
{
	const char *unit = m->unit && *m->unit && strcmp(m->unit, "lanes") ? m->unit : NULL;

	switch (m->form) {
	case GW_MFORM_BYTES:
		fmt_bytes(buf, n, (unsigned long long)v->u);
		if (!strcmp(m->unit, "B/s"))
			snprintf(buf + strlen(buf), n - strlen(buf), "/s");
		return buf;
	case GW_MFORM_TEXT:
		/* Only the kernel driver is validly empty: none bound. */
		snprintf(buf, n, "%s", v->s[0] ? v->s : "none");
		if (!strncmp(buf, "0x", 2)) /* PCI ids as nvidia-smi writes them: 0x233010DE */
			for (char *c = buf + 2; *c; c++)
				*c = (char)toupper((unsigned char)*c);
		return buf;
	case GW_MFORM_FLAG:
		snprintf(buf, n, "%s", v->u ? "Enabled" : "Disabled");
		return buf;
	case GW_MFORM_YESNO:
		snprintf(buf, n, "%s", v->u ? "Yes" : "No");
		return buf;
	case GW_MFORM_PSTATE:
		return gw_pstate_name(v->u, buf, n);
	case GW_MFORM_COMPUTE_MODE:
		snprintf(buf, n, "%s", gw_compute_mode_name(v->u));
		return buf;
	case GW_MFORM_THROTTLE:
		return throttle_text(buf, n, v->u);
	case GW_MFORM_NUMBER:
		break;
	}
	/* People get one digit fewer than JSON, at most two (41 C, 69.00 W). */
	if (m->type == GW_MTYPE_F64)
		snprintf(buf, n, "%.*f%s%s", m->decimals > 2 ? 2 : m->decimals > 0 ? m->decimals - 1 : 0, v->f,
			 unit ? " " : "", unit ? unit : "");
	else
		snprintf(buf, n, "%" PRIu64 "%s%s", v->u, unit ? " " : "", unit ? unit : "");
	return buf;
}

/* One metric value as JSON, in its form (null unless VALID). */
void metric_json(gw_json *j, const gw_metric_info *m, const gw_metric_value *v, gw_field_state st)
{
	char a[16];

	if (st != GW_FIELD_VALID) {
		gw_json_null(j);
		return;
	}
	switch (m->form) {
	case GW_MFORM_TEXT:
		gw_json_string(j, v->s);
		return;
	case GW_MFORM_FLAG:
	case GW_MFORM_YESNO:
		gw_json_bool(j, v->u != 0);
		return;
	case GW_MFORM_PSTATE:
		gw_json_string(j, gw_pstate_name(v->u, a, sizeof(a)));
		return;
	case GW_MFORM_COMPUTE_MODE:
		gw_json_string(j, gw_compute_mode_name(v->u));
		return;
	case GW_MFORM_THROTTLE:
		gw_json_array_begin(j);
		for (int bit = 0; bit < 64; bit++) {
			uint64_t mask = (uint64_t)1 << bit;
			const char *name = gw_throttle_reason_name(mask);
			char unknown[32];

			if (!(v->u & mask))
				continue;
			if (!name) {
				snprintf(unknown, sizeof(unknown), "unknown_0x%" PRIx64, mask);
				name = unknown;
			}
			gw_json_string(j, name);
		}
		gw_json_array_end(j);
		return;
	case GW_MFORM_NUMBER:
	case GW_MFORM_BYTES:
		break;
	}
	if (m->type == GW_MTYPE_F64)
		gw_json_double(j, v->f, m->decimals);
	else
		gw_json_uint(j, v->u);
}

void json_path_close(gw_json *j, struct json_path *p, const char *path,
		     void (*before_close)(gw_json *j, const char *object, int depth, void *arg), void *arg)
{
	int keep = 0;
	const char *q = path;

	while (keep < p->depth) {
		size_t n = strlen(p->open[keep]);

		if (!path || strncmp(q, p->open[keep], n) || q[n] != '.')
			break;
		q += n + 1;
		keep++;
	}
	while (p->depth > keep) {
		if (before_close)
			before_close(j, p->open[p->depth - 1], p->depth, arg);
		gw_json_object_end(j);
		p->depth--;
	}
}

const char *json_path_open(gw_json *j, struct json_path *p, const char *path)
{
	const char *q = path, *dot;

	for (int k = 0; k < p->depth; k++)
		q += strlen(p->open[k]) + 1;
	while ((dot = strchr(q, '.')) && p->depth < 4) {
		snprintf(p->open[p->depth], sizeof(p->open[0]), "%.*s", (int)(dot - q), q);
		gw_json_key(j, p->open[p->depth++]);
		gw_json_object_begin(j);
		q = dot + 1;
	}
	return q;
}

char *join_selectors(const struct opt_list *ids)
{
	char *joined = NULL;

	for (size_t k = 0; k < ids->n; k++) {
		char *next = joined ? str_printf("%s,%s", joined, ids->v[k]) : str_printf("%s", ids->v[k]);

		free(joined);
		if (!next) {
			error_msg(_("out of memory"));
			exit(EXIT_FAIL);
		}
		joined = next;
	}
	return joined;
}

/* ---- one live sample as JSON (watch --json, the exporter's /api/status) */

const char sample_default_fields[] =
	"gpu_util,mem_util,memory_used,memory_total,temperature_c,power_draw,energy,sm_clock,mem_clock,"
	"pcie_tx,pcie_rx,throttle_reasons,sm_active";

static int by_table_order(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

void sample_fields_sort(int *fields, int n)
{
	qsort(fields, (size_t)n, sizeof(int), by_table_order);
}

int sample_default_field_ids(int *fields, int max)
{
	const char *p = sample_default_fields;
	int n = 0;

	while (*p && n < max) {
		size_t len = strcspn(p, ",");
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)len, p);
		if ((fields[n] = gw_metric_find(key)) >= 0)
			n++;
		p += len + (p[len] == ',');
	}
	sample_fields_sort(fields, n);
	return n;
}

static void sample_device_json(gw_json *j, const struct sample_device *d, const int *fields, int nfields)
{
	struct json_path path = { .depth = 0 };

	gw_json_object_begin(j);
	gw_json_key(j, "index");
	gw_json_int(j, d->index);
	gw_json_key(j, "uuid");
	gw_json_string(j, GW_VALID(d->info->uuid) ? d->info->uuid.s : NULL);
	gw_json_key(j, "health");
	gw_json_string(j, gw_health_name(d->health));
	for (int k = 0; k < nfields; k++) {
		const gw_metric_info *m = gw_metric_info_get(fields[k]);
		gw_metric_value v;
		/* A GPU not read in this sample: null, but for its Xid (events
		 * arrive without a read; Xid 79 says why it is gone). */
		bool known = d->up || (m->flags & GW_METRIC_F_EVENT);
		gw_field_state st = known ? gw_device_metric_value(d->info, d->sample, fields[k], &v) : GW_FIELD_UNREAD;

		json_path_close(j, &path, m->json, NULL, NULL);
		gw_json_key(j, json_path_open(j, &path, m->json));
		metric_json(j, m, &v, st);
	}
	json_path_close(j, &path, NULL, NULL, NULL);
	if (d->more)
		d->more(j, d, d->more_arg);
	gw_json_object_end(j);
}

void sample_json_host(gw_json *j, double time, const char *hostname, const struct sample_device *devs, int n,
		      const int *fields, int nfields)
{
	json_document_begin(j); /* "gpuwise_version" first, as every --json output */
	gw_json_key(j, "time");
	gw_json_double(j, time, 3);
	if (hostname) {
		gw_json_key(j, "hostname");
		gw_json_string(j, hostname);
	}
	gw_json_key(j, "devices");
	gw_json_array_begin(j);
	for (int k = 0; k < n; k++)
		sample_device_json(j, &devs[k], fields, nfields);
	gw_json_array_end(j);
	gw_json_object_end(j);
}

void sample_json(gw_json *j, double time, const struct sample_device *devs, int n, const int *fields, int nfields)
{
	sample_json_host(j, time, NULL, devs, n, fields, nfields);
}
