/* gpuwise top — the pieces of the full-screen monitor (docs/contracts.md "Live
 * monitoring"):
 *   top_data.c   where the numbers come from: one refresh reads every GPU
 *                once and every GPU process (the only file that talks to
 *                the library's sampling calls)
 *   top_draw.c   one frame as lines of text, for curses or for --once
 *   top_term.c   the terminal: curses on and off, and its restore from
 *                any exit (q, SIGINT, SIGTERM, a crash)
 *   top_input.c  keys: selection, sort, filter, signal, help
 *   cmd_top.c    the command and its loop
 * Values go through the metric table (gpuwise/metrics.h) by key. */
#ifndef GPUWISE_CLI_TOP_H
#define GPUWISE_CLI_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuwise/gpuwise.h"
#include "gpuwise/sampler.h"

/* Samples of history kept per GPU: a chart as wide as a wide terminal. */
#define TOP_HISTORY 512

struct top_gpu {
	const gw_device_info *info;
	gw_device_sample sample;
	bool have_sample;             /* the last read succeeded */
	char problem[640];            /* why not, for people */
	/* Utilisation and memory use in percent, oldest first in the ring
	 * (NaN: no value then). */
	float util_hist[TOP_HISTORY];
	float mem_hist[TOP_HISTORY];
	double hist_time[TOP_HISTORY]; /* when each was read (CLOCK_MONOTONIC) */
	unsigned hist_len, hist_next;
	const char *host;             /* --hosts: the node's HOST:PORT (NULL: this machine) */
};

struct top_proc {
	int gpu;                      /* gpuwise index of the GPU */
	int mig;                      /* index into that GPU's sample.mig, or -1 */
	uint32_t pid;
	gw_process_type type;
	bool resolved;                /* /proc/<pid> exists here */
	char user[64];
	char command[256];
	gw_u64 gpu_memory;            /* bytes */
	gw_u64 sm_util;               /* percent */
	gw_f64 cpu_percent;           /* host CPU, percent of one core */
	gw_u64 rss;                   /* bytes */
	gw_f64 run_time;              /* seconds */
	double cpu_time_now;          /* CPU seconds read this refresh */
	bool have_cpu_time;
	const char *host;             /* --hosts: the node's HOST:PORT, and its GPU index there */
	int host_gpu;
};

/* The previous CPU time of a pid, for CPU % between two refreshes. */
struct top_cpu_prev {
	uint32_t pid;
	double cpu_time, when;
};

struct top_data {
	gw_context *ctx;
	/* The library's sampler, stepped once per refresh on top's thread
	 * (no thread of its own: top refreshes when it draws): one read per
	 * GPU and pass, and each GPU's processes listed once per pass. */
	gw_sampler *sampler;
	int ngpu;
	struct top_gpu *gpu;
	struct top_proc *procs;
	size_t nprocs, cap;
	struct top_cpu_prev *prev;
	size_t nprev;
	double now;                   /* wall clock of the last refresh, Unix seconds */
	unsigned refreshes;
	struct hosts *hosts;          /* --hosts: the nodes read instead of this machine */
};

/* Open the library context (NULL data on failure, the error printed). */
int top_data_open(struct top_data *d);
struct hosts;
/* --hosts: the GPUs and processes of the nodes' exporters (cli/hosts.h). */
int top_data_open_hosts(struct top_data *d, struct hosts *hosts);
/* Read every GPU and the process list once. */
void top_data_refresh(struct top_data *d);
void top_data_close(struct top_data *d);
/* A history value `back` samples ago (0 = the newest); NaN when none. */
float top_hist_at(const struct top_gpu *g, const float *ring, unsigned back);
/* Seconds between the oldest and the newest of the newest n samples: the
 * span a chart n samples wide really shows (short while top has just
 * started). */
double top_hist_span(const struct top_gpu *g, unsigned n);

/* ---- sorting and filtering (top_data.c) ------------------------------ */

enum top_sort {
	TOP_SORT_GPU_MEMORY, TOP_SORT_SM, TOP_SORT_CPU, TOP_SORT_RSS, TOP_SORT_TIME,
	TOP_SORT_PID, TOP_SORT_GPU, TOP_SORT_COUNT
};
/* The column title a sort key sorts by ("GPU MEM"), untranslated. */
const char *top_sort_title(enum top_sort s);
/* Indices of the processes that match filter ("" = all; a substring of
 * the command or user, or the pid), sorted by s, into out (room for
 * d->nprocs); returns how many. */
size_t top_view(const struct top_data *d, enum top_sort s, const char *filter, size_t *out);

/* ---- drawing (top_draw.c) ------------------------------------------- */

/* Colour roles; the terminal layer maps them to curses pairs/attributes. */
enum top_attr {
	TA_NORMAL, TA_TITLE, TA_HEADER, TA_LOW, TA_MID, TA_HIGH, TA_DIM, TA_SELECTED, TA_LABEL,
	TA_WARN, TA_COUNT
};

/* Where a frame goes: the curses screen or a stream (plain text). */
struct top_out {
	FILE *stream;                 /* NULL: the curses screen */
	int width, height;            /* height < 0: as long as it needs (--once) */
	int row, col;                 /* the cursor, in cells */
	bool ascii;                   /* bars and charts in ASCII */
};

struct top_ui {
	enum top_sort sort;
	char filter[64];
	size_t selected;              /* index into the view */
	size_t scroll;                /* first view row shown */
	uint32_t selected_pid;        /* keeps the selection on its process */
	bool help;
	char prompt[256];             /* a question or a message on the last line */
	bool asking;                  /* prompt asks y/n for pending_pid */
	uint32_t pending_pid;
	bool editing;                 /* the filter is being typed */
	char edit[64];
	double interval;
	int page_rows;                /* process rows shown, for PgUp/PgDn */
};

void top_draw_frame(struct top_out *o, const struct top_data *d, struct top_ui *ui);
void top_draw_help(struct top_out *o, const struct top_ui *ui);

/* Text and attribute at the cursor, cut at the right edge (display cells). */
void out_put(struct top_out *o, enum top_attr a, const char *s);
void out_printf(struct top_out *o, enum top_attr a, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Pad with spaces to column col (cells), then the next line. */
void out_pad(struct top_out *o, int col, enum top_attr a);
void out_newline(struct top_out *o);

/* ---- the terminal (top_term.c) --------------------------------------- */

/* Start curses (alternate screen, no echo, keypad, colours unless
 * NO_COLOR) and the handlers that give the terminal back on SIGINT,
 * SIGTERM and fatal signals. false when the terminal cannot be used. */
bool term_start(void);
/* Why TERM cannot give top a full screen (unset, unknown to terminfo, a
 * terminal without cursor addressing such as "dumb"), in buf; NULL when it
 * can (or curses is not built in). */
const char *term_problem(char *buf, size_t n);
void term_stop(void);
/* Signal that asked the loop to stop (SIGINT, SIGTERM, SIGHUP), or 0. */
int term_stop_signal(void);
/* Keys that are not characters (term_key maps the terminal's codes). */
enum {
	TK_NONE = -1, TK_RESIZE = 0x1000, TK_UP, TK_DOWN, TK_PGUP, TK_PGDN, TK_HOME, TK_END,
	TK_F1, TK_F10, TK_ENTER, TK_BACKSPACE, TK_ESC
};
/* A key, TK_NONE after waiting ms without one (or on a signal). */
int term_key(int ms);
void term_size(int *rows, int *cols);
/* Curses output of one attribute's text (top_draw's out_put backend). */
void term_put(int row, int col, enum top_attr a, const char *s, size_t len);
void term_clear_to_eol(int row, int col, enum top_attr a);
void term_begin_frame(void);
void term_end_frame(void);

/* ---- keys (top_input.c) ---------------------------------------------- */

/* Handle one key; false when it asks to quit. */
bool top_key(struct top_ui *ui, const struct top_data *d, int key);

#endif
