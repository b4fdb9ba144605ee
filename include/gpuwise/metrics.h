/* gpuwise — the metric table: every device metric described once.
 *
 * Each row of lib/core/metrics.def says where a metric lives in the device
 * structs (gw_device_info or gw_device_sample), its kind, its unit and the
 * scale to SI base units, its key in `gpuwise info --json`, its human label,
 * and its name, type, HELP text and unit scale in each Prometheus naming
 * scheme (dcgm-exporter, nvidia_gpu_exporter, native gpuwise_*). Printers,
 * bindings and exporters iterate the table instead of listing fields:
 *
 *     for (int i = 0; i < gw_metric_count(); i++) {
 *         const gw_metric_info *m = gw_metric_info(i);
 *         gw_metric_value v;
 *         if (gw_device_metric_value(info, sample, i, &v) == GW_FIELD_VALID) ...
 *     }
 *
 * The reference page docs/metrics.md is generated from the same table
 * (scripts/gen-metrics-doc).
 */
#ifndef GPUWISE_METRICS_H
#define GPUWISE_METRICS_H

#include <stdint.h>
#include "gpuwise/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gw_metric_kind {
	GW_METRIC_GAUGE = 0,   /* a sampled number that goes up and down */
	GW_METRIC_COUNTER = 1, /* a sampled number that only grows (until reset) */
	GW_METRIC_STATIC = 2,  /* a number read once (totals, maxima, counts) */
	GW_METRIC_STRING = 3,  /* text (names, ids, versions) */
	GW_METRIC_ENUM = 4     /* a state: a flag, a mode, a set of reasons */
} gw_metric_kind;

/* How the value is stored (which member of gw_metric_value holds it). */
typedef enum gw_metric_type {
	GW_MTYPE_U64 = 0,
	GW_MTYPE_F64 = 1,
	GW_MTYPE_STR = 2
} gw_metric_type;

/* How the value is written in JSON (and read by people). */
typedef enum gw_metric_form {
	GW_MFORM_NUMBER = 0,  /* a number in `unit` */
	GW_MFORM_BYTES = 1,   /* a number of bytes (people read "80.0 GiB") */
	GW_MFORM_TEXT = 2,    /* a string */
	GW_MFORM_FLAG = 3,    /* 0/1 as false/true (people: Enabled/Disabled) */
	GW_MFORM_YESNO = 4,   /* 0/1 as false/true (people: Yes/No) */
	GW_MFORM_PSTATE = 5,  /* 0-15 as "P0".."P15" */
	GW_MFORM_COMPUTE_MODE = 6, /* "default", "exclusive-process", ... */
	GW_MFORM_THROTTLE = 7 /* GW_THROTTLE_* bits as a list of names */
} gw_metric_form;

/* Row flags. */
enum {
	GW_METRIC_F_ALIAS = 0x1,  /* a second JSON key for a metric listed before (temperature_c) */
	GW_METRIC_F_NVIDIA = 0x2, /* people see it for non-AMD GPUs only (compute capability) */
	GW_METRIC_F_AMD = 0x4,    /* people see it for AMD GPUs, or when it has a value (gfx target) */
	GW_METRIC_F_PERCENT = 0x8, /* a percentage: outside 0-100 is never valid */
	/* From NVML events, filled by a sampler that watches them
	 * (GW_SAMPLER_EVENTS), also while the GPU cannot be read (Xid) */
	GW_METRIC_F_EVENT = 0x10
};

/* The Prometheus naming schemes of `gpuwise exporter --names`. */
typedef enum gw_metric_scheme {
	GW_SCHEME_DCGM = 0,       /* dcgm-exporter's default counters (DCGM_FI_*) */
	GW_SCHEME_NVIDIA_SMI = 1, /* utkuozdemir/nvidia_gpu_exporter (nvidia_smi_*) */
	GW_SCHEME_NATIVE = 2,     /* gpuwise_* in SI base units */
	GW_SCHEME_COUNT = 3
} gw_metric_scheme;

/* One metric in one naming scheme; name is NULL when the scheme has none. */
typedef struct gw_metric_export {
	const char *name;    /* "DCGM_FI_DEV_FB_USED" */
	const char *type;    /* "gauge" or "counter" */
	const char *help;    /* the HELP text, as that exporter writes it */
	double scale;        /* exported value = table value (in `unit`) * scale */
} gw_metric_export;

typedef struct gw_metric_info {
	int id;               /* its index in the table */
	const char *key;      /* stable identifier: "temperature_memory" */
	gw_metric_kind kind;
	gw_metric_type type;
	gw_metric_form form;
	const char *unit;     /* unit of the stored value: "B", "MHz", "W", "J", "C", "%", "B/s", "" */
	double si_scale;      /* stored value * si_scale = value in si_unit */
	const char *si_unit;  /* "bytes", "hertz", "watts", "joules", "celsius", "ratio", "" */
	const char *json;     /* dotted path in info --json: "temperature.memory_c" */
	int decimals;         /* digits after the point for F64 values (JSON and people) */
	const char *section;  /* human report section ("" = at the device level) */
	const char *label;    /* human label; NULL = not in the human report */
	const char *description;
	unsigned flags;       /* GW_METRIC_F_* */
	gw_metric_export exporter[GW_SCHEME_COUNT];
	/* Short column label of the `watch` table ("util", "smclk"; at most
	 * 6 letters, unique), in English: translate it for people. */
	const char *column;
} gw_metric_info;

/* A value read through the table. For GW_MTYPE_STR, s holds the text. */
typedef struct gw_metric_value {
	gw_metric_type type;
	gw_field_state state;
	int code;             /* vendor code when state == GW_FIELD_ERROR */
	uint64_t u;
	double f;
	char s[GW_STR_MAX];
} gw_metric_value;

/* Rows in the table. */
int gw_metric_count(void);
/* Row id (0 <= id < gw_metric_count()), or NULL. */
const gw_metric_info *gw_metric_info_get(int id);
/* The row with that key ("power_draw") or that JSON path ("power.draw_w"), or -1. */
int gw_metric_find(const char *key_or_json);
/* NVIDIA's meaning of an Xid code, in English (data/xid.tsv; an
 * exporter's label, not a text for people: it is not translated), or NULL
 * for a code the table does not know. */
const char *gw_xid_meaning(unsigned long long xid);

/* The value of metric id for a device: info is required; sample may be
 * NULL (sampled metrics are then UNREAD). Fills out and returns its state
 * (GW_FIELD_UNREAD for a bad id or NULL info/out). */
gw_field_state gw_device_metric_value(const gw_device_info *info, const gw_device_sample *sample, int id,
				      gw_metric_value *out);

/* Names of the GW_THROTTLE_* bits, lower-case snake ("sw_power_cap", the
 * JSON form) and as people read them ("SW Power Cap"); NULL for a bit
 * without a name. */
const char *gw_throttle_reason_name(uint64_t bit);
const char *gw_throttle_reason_title(uint64_t bit);
/* "default", "exclusive-thread", "prohibited", "exclusive-process", or "unknown". */
const char *gw_compute_mode_name(uint64_t mode);
/* "P0".."P15" into buf (at least 8 bytes); returns buf. */
const char *gw_pstate_name(uint64_t pstate, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
