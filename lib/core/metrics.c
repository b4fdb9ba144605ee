/* The metric table (lib/core/metrics.def) as data, and reading a device's
 * metrics through it. See include/gpuwise/metrics.h. */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/metrics.h"

/* A DERIVED metric: made from several fields of info (sample unused so far). */
typedef gw_field_state (*derive_fn)(const gw_device_info *d, gw_metric_value *out);

enum { SRC_INFO, SRC_SAMPLE, SRC_DERIVED };

struct row {
	gw_metric_info pub;
	int src;
	size_t offset;
	derive_fn derive;
};

static gw_field_state derive_pci_device_id(const gw_device_info *d, gw_metric_value *out)
{
	if (!GW_VALID(d->pci_vendor_id) || !GW_VALID(d->pci_device_id))
		return d->pci_device_id.state == GW_FIELD_ERROR ? GW_FIELD_ERROR : d->pci_device_id.state;
	snprintf(out->s, sizeof(out->s), "0x%04" PRIx64 "%04" PRIx64, d->pci_device_id.v, d->pci_vendor_id.v);
	return GW_FIELD_VALID;
}

static gw_field_state derive_pci_subsystem_id(const gw_device_info *d, gw_metric_value *out)
{
	if (!GW_VALID(d->pci_subsystem_id))
		return d->pci_subsystem_id.state;
	snprintf(out->s, sizeof(out->s), "0x%08" PRIx64, d->pci_subsystem_id.v);
	return GW_FIELD_VALID;
}

static gw_field_state derive_compute_capability(const gw_device_info *d, gw_metric_value *out)
{
	if (!GW_VALID(d->cc_major) || !GW_VALID(d->cc_minor))
		return GW_VALID(d->cc_major) ? d->cc_minor.state : d->cc_major.state;
	snprintf(out->s, sizeof(out->s), "%" PRIu64 ".%" PRIu64, d->cc_major.v, d->cc_minor.v);
	return GW_FIELD_VALID;
}

#define INFO(f) SRC_INFO, offsetof(gw_device_info, f), NULL
#define SAMPLE(f) SRC_SAMPLE, offsetof(gw_device_sample, f), NULL
#define DERIVED(fn) SRC_DERIVED, 0, derive_##fn
#define EXPORT(name, type, help, scale) { name, type, help, scale }
#define NO_EXPORT { NULL, NULL, NULL, 0 }

#define GW_METRIC(KEY, LOC, TYPE, KIND, FORM, UNIT, SI_SCALE, SI_UNIT, JSON, DEC, SECTION, LABEL, COLUMN, FLAGS, \
		  DESC, DCGM, SMI, NATIVE)                                                                        \
	{ { GW_METRIC_ID_##KEY, #KEY, GW_METRIC_##KIND, GW_MTYPE_##TYPE, GW_MFORM_##FORM, UNIT, SI_SCALE, SI_UNIT, \
	    JSON, DEC, SECTION, LABEL, DESC, FLAGS, { DCGM, SMI, NATIVE }, COLUMN }, LOC },

static const struct row table[] = {
#include "core/metrics.def"
};

#undef GW_METRIC
#undef INFO
#undef SAMPLE
#undef DERIVED
#undef EXPORT
#undef NO_EXPORT

_Static_assert(sizeof(table) / sizeof(table[0]) == GW_METRIC_ID_COUNT, "metric ids and rows agree");

int gw_metric_count(void)
{
	return (int)GW_ARRAY_SIZE(table);
}

const gw_metric_info *gw_metric_info_get(int id)
{
	if (id < 0 || id >= gw_metric_count())
		return NULL;
	return &table[id].pub;
}

int gw_metric_find(const char *key_or_json)
{
	if (!key_or_json)
		return -1;
	for (int i = 0; i < gw_metric_count(); i++)
		if (!strcmp(table[i].pub.key, key_or_json) || !strcmp(table[i].pub.json, key_or_json))
			return i;
	return -1;
}

static gw_field_state from_field(gw_metric_value *out, gw_field_state st, int code)
{
	out->state = st;
	out->code = st == GW_FIELD_ERROR ? code : 0;
	return st;
}

gw_field_state gw_device_metric_value(const gw_device_info *info, const gw_device_sample *sample, int id,
				      gw_metric_value *out)
{
	const struct row *r;
	const char *base;

	if (!out)
		return GW_FIELD_UNREAD;
	memset(out, 0, sizeof(*out));
	if (!info || id < 0 || id >= gw_metric_count())
		return GW_FIELD_UNREAD;
	r = &table[id];
	out->type = r->pub.type;
	if (r->src == SRC_DERIVED)
		return from_field(out, r->derive(info, out), 0);
	if (r->src == SRC_SAMPLE && !sample)
		return GW_FIELD_UNREAD;
	base = r->src == SRC_INFO ? (const char *)info : (const char *)sample;
	switch (r->pub.type) {
	case GW_MTYPE_U64: {
		const gw_u64 *f = (const gw_u64 *)(const void *)(base + r->offset);

		out->u = f->state == GW_FIELD_VALID ? f->v : 0;
		out->f = (double)out->u;
		return from_field(out, f->state, f->code);
	}
	case GW_MTYPE_F64: {
		const gw_f64 *f = (const gw_f64 *)(const void *)(base + r->offset);

		out->f = f->state == GW_FIELD_VALID ? f->v : 0;
		return from_field(out, f->state == GW_FIELD_VALID && !isfinite(f->v) ? GW_FIELD_NOT_SUPPORTED : f->state,
				  f->code);
	}
	case GW_MTYPE_STR: {
		const gw_str *f = (const gw_str *)(const void *)(base + r->offset);

		if (f->state == GW_FIELD_VALID)
			gw__strlcpy(out->s, f->s, sizeof(out->s));
		return from_field(out, f->state, f->code);
	}
	}
	return GW_FIELD_UNREAD;
}

/* ---- "unknown is never shown as valid" --------------------------------- */

/* The "not available" values vendor libraries put in a field instead of an
 * error (NVML_VALUE_NOT_AVAILABLE as unsigned int, int and unsigned long
 * long; INT_MAX for a temperature): no real reading is one of these. */
static bool sentinel_u64(uint64_t v)
{
	return v == 0xFFFFFFFFu || v == 0x7FFFFFFFu || v == UINT64_MAX || v == (uint64_t)INT64_MAX;
}

static bool sentinel_f64(double v)
{
	/* The integer sentinels as read (°C) or after milli → base (mW → W, mJ → J). */
	static const double raw[] = { 2147483647.0, 4294967295.0, 2147483.647, 4294967.295 };

	if (!isfinite(v) || v <= -2147483648.0 || v >= 1.8e16)
		return true;
	for (size_t i = 0; i < GW_ARRAY_SIZE(raw); i++)
		if (fabs(v - raw[i]) < 1e-6)
			return true;
	return false;
}

static void sanitize_row(const struct row *r, char *base)
{
	if (r->pub.type == GW_MTYPE_U64) {
		gw_u64 *f = (gw_u64 *)(void *)(base + r->offset);

		if (f->state == GW_FIELD_VALID && (sentinel_u64(f->v) || ((r->pub.flags & GW_METRIC_F_PERCENT) && f->v > 100)))
			GW_FIELD_FAIL(*f, GW_FIELD_NOT_SUPPORTED, 0);
	} else if (r->pub.type == GW_MTYPE_F64) {
		gw_f64 *f = (gw_f64 *)(void *)(base + r->offset);

		if (f->state == GW_FIELD_VALID &&
		    (sentinel_f64(f->v) || ((r->pub.flags & GW_METRIC_F_PERCENT) && (f->v < 0 || f->v > 100))))
			GW_FIELD_FAIL(*f, GW_FIELD_NOT_SUPPORTED, 0);
	}
}

void gw__metrics_sanitize(gw_device_info *info, gw_device_sample *sample)
{
	for (int i = 0; i < gw_metric_count(); i++) {
		const struct row *r = &table[i];

		if (r->src == SRC_INFO && info)
			sanitize_row(r, (char *)info);
		else if (r->src == SRC_SAMPLE && sample)
			sanitize_row(r, (char *)sample);
	}
}

void gw__metrics_fail_sample(gw_device_sample *sample, gw_field_state st)
{
	for (int i = 0; sample && i < gw_metric_count(); i++) {
		const struct row *r = &table[i];
		char *f = (char *)sample + r->offset;

		if (r->src != SRC_SAMPLE)
			continue;
				if (r->pub.type == GW_MTYPE_U64)
			GW_FIELD_FAIL(*(gw_u64 *)(void *)f, st, 0);
		else if (r->pub.type == GW_MTYPE_F64)
			GW_FIELD_FAIL(*(gw_f64 *)(void *)f, st, 0);
		else
			GW_FIELD_FAIL(*(gw_str *)(void *)f, st, 0);
	}
}

/* ---- the names of enumerated values ------------------------------------ */

static const struct {
	uint64_t bit;
	const char *name, *title;
} throttle_names[] = {
	{ GW_THROTTLE_GPU_IDLE, "gpu_idle", "GPU Idle" },
	{ GW_THROTTLE_APP_CLOCKS, "applications_clocks_setting", "Applications Clocks Setting" },
	{ GW_THROTTLE_SW_POWER_CAP, "sw_power_cap", "SW Power Cap" },
	{ GW_THROTTLE_HW_SLOWDOWN, "hw_slowdown", "HW Slowdown" },
	{ GW_THROTTLE_SYNC_BOOST, "sync_boost", "Sync Boost" },
	{ GW_THROTTLE_SW_THERMAL, "sw_thermal_slowdown", "SW Thermal Slowdown" },
	{ GW_THROTTLE_HW_THERMAL, "hw_thermal_slowdown", "HW Thermal Slowdown" },
	{ GW_THROTTLE_HW_POWER_BRAKE, "hw_power_brake_slowdown", "HW Power Brake Slowdown" },
	{ GW_THROTTLE_DISPLAY_CLOCKS, "display_clock_setting", "Display Clock Setting" },
};

const char *gw_throttle_reason_name(uint64_t bit)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(throttle_names); i++)
		if (throttle_names[i].bit == bit)
			return throttle_names[i].name;
	return NULL;
}

const char *gw_throttle_reason_title(uint64_t bit)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(throttle_names); i++)
		if (throttle_names[i].bit == bit)
			return throttle_names[i].title;
	return NULL;
}

const char *gw_compute_mode_name(uint64_t mode)
{
	switch (mode) {
	case 0: return "default";
	case 1: return "exclusive-thread";
	case 2: return "prohibited";
	case 3: return "exclusive-process";
	default: return "unknown";
	}
}

const char *gw_pstate_name(uint64_t pstate, char *buf, size_t n)
{
	if (!buf || !n)
		return "";
	snprintf(buf, n, "P%u", (unsigned)(pstate % 100));
	return buf;
}
