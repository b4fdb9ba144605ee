/* Formatting shared by the reporting commands (list, info): device fields
 * as text, key/value report lines, colour, and the one sentence that says
 * why no GPU could be read. Only the public API is used. */
#ifndef GPUWISE_CLI_OUTPUT_H
#define GPUWISE_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gpuwise/gpuwise.h"

/* A field as text for humans: the value, "N/A" when the device does not
 * have it (or nothing could read it), "error (code N)" when reading
 * failed. Never "0" for an unknown value. Each returns buf. */
const char *show_u64(char *buf, size_t n, const gw_u64 *f, const char *unit);
const char *show_bytes(char *buf, size_t n, const gw_u64 *f);
const char *show_f64(char *buf, size_t n, const gw_f64 *f, int decimals, const char *unit);
const char *show_str(char *buf, size_t n, const gw_str *f);

/* 12040 → "12.4", 11080 → "11.8". */
const char *cuda_version_text(char *buf, size_t n, uint64_t v);
/* "9.0" when both parts are valid, else NULL. */
const char *compute_capability_text(char *buf, size_t n, const gw_device_info *d);
/* First 8 hex digits of the UUID without "GPU-" ("8a5f0c1e"), or "-". */
const char *short_uuid(char *buf, size_t n, const gw_device_info *d);
/* The same for any UUID field (a MIG device: "MIG-..."). */
const char *short_uuid_str(char *buf, size_t n, const gw_str *uuid);

/* s padded with spaces to `width` display cells (on the right, or on the
 * left when `right` aligns it right), into buf: printf's "%-13s" counts
 * bytes, and a Chinese label would come out too short. Returns buf. */
const char *pad_cells(char *buf, size_t n, const char *s, int width, bool right);

/* A column of a printed table (ps, report): its title (N_() text), the
 * width of its values in display cells, and whether they align right. */
struct table_col {
	const char *title;
	int width;
	bool right;
};
/* Print the header line of cols[n] (no newline): each title translated
 * and padded with pad_cells(), one space between columns. A title wider
 * than its column (a Chinese one: two cells a character) widens it: w[i]
 * gets each column's width in cells, for the rows to pad to. */
void table_header_cells(const struct table_col *cols, size_t n, int *w);

/* End the full buffer buf[n] with "…" (its text was cut), at a UTF-8
 * character boundary. */
void mark_cut(char *buf, size_t n);
/* Another user's text (a job's name, a command line) made safe for a
 * terminal: control characters (C0, DEL, C1) and invalid UTF-8 bytes shown
 * escaped (\x1b), never sent raw; backslashes doubled. Returns out. */
const char *term_safe(char *out, size_t n, const char *s);
/* Bytes of s (len bytes) that fit in max display cells; their cells in *cells. */
size_t fit_cells(const char *s, size_t len, int max, int *cells);

/* "Index" of CUDA for device d: the number, "N/A" for a GPU CUDA never
 * serves (not NVIDIA), or "none (why)": the GPU is broken, CUDA failed or
 * sees no device, CUDA_VISIBLE_DEVICES hides it. Returns buf. */
const char *cuda_index_text(const gw_context *ctx, const gw_device_info *d, char *buf, size_t n);

/* A malloc'd formatted string, as long as it needs to be (no fixed buffer
 * that could cut a message); NULL only when out of memory. */
char *str_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "    Key                        : value\n" at nesting level `level`. */
void report_line(int level, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void report_section(int level, const char *title);

/* ---- wrapping to the terminal ----------------------------------------
 * Every human text that can run long (help, doctor evidence, list cells)
 * wraps through these, so all of gpuwise agrees on the width. */

/* Columns to wrap `stream`'s output at: $COLUMNS when it is a number
 * (clamped to 20..1000; like ls, it wins so users and tests can set it),
 * else the terminal's width when stream is a terminal, else 80. */
int output_width(FILE *stream);

/* Display cells of the first n bytes of s, as the terminal will show them:
 * per character 2 for wide (CJK) ones, 0 for combining marks, 1 for the
 * rest (text_char_cells(); in ASCII mode the width of its ASCII stand-in),
 * 1 for a byte that is not UTF-8, none for ANSI colour (ESC [ ... m). */
int text_columns(const char *s, size_t n);

/* The next line of text that fits in `width` columns, broken at spaces:
 * returns its length in bytes (trailing spaces left out) and sets *next
 * to the start of the following line (spaces and one '\n' skipped; NULL
 * when the text is used up). A '\n' in text always ends a line. A word
 * wider than `width` (a path, a URL) is not cut: it gets a line of its own
 * and runs over, so it can still be copied whole. A `command in
 * backquotes` counts as one word: broken over two lines it would become
 * two commands when pasted into a shell. Widths are display cells. */
size_t wrap_line(const char *text, int width, const char **next);

/* Print text to out wrapped at `width` columns: the first line starts with
 * `first`, the following ones with `indent` (both count in the width; at
 * least 20 columns stay for the text). Ends with a newline. */
void print_wrapped(FILE *out, int width, const char *first, const char *indent, const char *text);

/* print_wrapped() with a hanging indent: the following lines start under
 * the text, as wide as `first` shows ("      fix: " → 11 spaces). */
void print_hanging(FILE *out, int width, const char *first, const char *text);

/* ANSI colour for a health state (green ok, red lost/error, yellow
 * no-driver) when `on`, "" otherwise; color_reset(on) ends it. */
const char *color_health(bool on, gw_health h);
const char *color_reset(bool on);

/* True when device i is healthy enough to be read. */
bool device_readable(const gw_device_info *d);
/* Number of readable devices. */
int readable_count(const gw_context *ctx);

/* One sentence (without "gpuwise: ") on why no GPU could be read, built
 * from the backend statuses and the devices' health reasons:
 * "no GPU found: libnvidia-ml.so.1 not found (...) and no AMD GPU in /sys". */
const char *no_gpu_sentence(const gw_context *ctx, char *buf, size_t n);

/* Open the context with the environment's options, printing the error
 * and returning NULL when even that fails. */
gw_context *open_context(void);
/* The same with GW_OPT_* flags (GW_OPT_NO_CUDA: no cuInit, for commands
 * that never need CUDA's view). */
gw_context *open_context_flags(unsigned flags);

/* Opens a --json document: "{" and "gpuwise_version", which every --json
 * output starts with (docs/commands/version.md). */
void json_document_begin(gw_json *j);

/* Print a finished JSON document to stdout with a trailing newline.
 * Returns 0, or -1 (message printed) when the writer ran out of memory. */
/* Ends a list/info document: "error" (the no-GPU sentence or null), the
 * closing brace; prints and frees it. Returns print_json()'s result. */
int json_finish(gw_json *j, const char *problem);
int print_json(gw_json *j);
/* A JSON text and a newline on the unfiltered stdout (exact UTF-8 in any
 * locale: text_raw_stdout()). */
void print_json_text(const char *text);

/* The "backends" array of the JSON outputs (an extension of the contract). */
void json_backends(gw_json *j, const gw_context *ctx);

/* "key": an index, or null when the device has none (negative). */
void json_index_field(gw_json *j, const char *key, int index);

/* "health" and "health_reason" (null while healthy or without a reason). */
/* health and health_reason (reason: gw_device_health_reason's, in the
 * user's language like every human text of the JSON). */
void json_health(gw_json *j, const gw_device_info *d, const char *reason);

/* ---- the metric table (cli/metric_out.c) ------------------------------ */

/* A valid metric value as people read it: its unit, bytes as "80.0 GiB",
 * flags as Enabled/Disabled or Yes/No, pstate "P0", throttle reasons by
 * title ("None" when none). Returns buf. */
const char *metric_text(char *buf, size_t n, const gw_metric_info *m, const gw_metric_value *v);
/* One metric value as JSON, in its form (null unless st is VALID). */
void metric_json(gw_json *j, const gw_metric_info *m, const gw_metric_value *v, gw_field_state st);

/* The nested objects open while writing metrics at their dotted JSON
 * paths ("memory.used_bytes" inside "memory"). Start with depth 0. */
struct json_path {
	char open[4][32];
	int depth;
};
/* Close objects until the open ones are a prefix of the parts of `path`
 * before its last dot (NULL: close all); before_close (may be NULL) runs
 * before each object closes, to add members of its own. */
void json_path_close(gw_json *j, struct json_path *p, const char *path,
		     void (*before_close)(gw_json *j, const char *object, int depth, void *arg), void *arg);
/* Open the objects of `path` not yet open; returns its last part, the key. */
const char *json_path_open(gw_json *j, struct json_path *p, const char *path);

/* ---- one live sample as JSON (cli/metric_out.c) ----------------------
 * The object `gpuwise watch --json` prints per sample and the exporter
 * serves at /api/status, written by this one function for both:
 * {"gpuwise_version", "time", "devices": [{"index", "uuid", "health", and
 * each field at its info --json path}]} (docs/contracts.md "Live monitoring"). */
struct sample_device {
	const gw_device_info *info;     /* static facts (uuid, total memory) */
	const gw_device_sample *sample; /* what this sample read (unless up: the Xid fields only) */
	int index;                      /* gpuwise index */
	gw_health health;               /* after this sample */
	bool up;                        /* this sample read the device (else every field but the Xid ones is null) */
	/* More keys at the end of the device's object (the exporter's
	 * /api/status adds its name and processes); NULL for none. */
	void (*more)(gw_json *j, const struct sample_device *d, void *arg);
	void *more_arg;
};
/* The default fields of watch --json and --csv and of /api/status, by
 * metric key. */
extern const char sample_default_fields[];
/* Metric ids in table order, so that sample_json() keeps each nested
 * object's members together. */
void sample_fields_sort(int *fields, int n);
/* sample_default_fields as metric ids in table order; returns how many. */
int sample_default_field_ids(int *fields, int max);
void sample_json(gw_json *j, double time, const struct sample_device *devs, int n, const int *fields, int nfields);
/* The same with "hostname" after "time" (the exporter's /api/status). */
void sample_json_host(gw_json *j, double time, const char *hostname, const struct sample_device *devs, int n,
		      const int *fields, int nfields);

struct opt_list;
/* Every -i value joined with ',' (each may itself be a list, "0,1"): a
 * malloc'd string, NULL when none was given; exits on out of memory. */
char *join_selectors(const struct opt_list *ids);

#endif
