/* The CLI's command table: one cmd_<name>.c per command, each describing
 * itself in one `const struct cmd cmd_<name>_def` (its options as data,
 * cli/options.h) and named once in GPUWISE_COMMANDS below, which builds
 * the table in cli/main.c. Commands use only the public API. */
#ifndef GPUWISE_CLI_COMMANDS_H
#define GPUWISE_CLI_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "gpuwise/language.h"
#include "options.h"

enum {
	EXIT_OK = 0,      /* success (doctor: no error findings) */
	EXIT_FAIL = 1,    /* failure (doctor: an error finding; list/info: no GPU read) */
	EXIT_USAGE = 2    /* usage error */
};

enum {
	CMD_HIDDEN = 0x1,    /* not listed by `gpuwise help` nor in the man page (__spec) */
	CMD_TEXT_ARGS = 0x2,  /* the arguments are free text (explain): options stop at
				the first one, and flags may still end the line */
	CMD_COMMAND_ARGS = 0x4 /* the arguments are a command line (run): options stop at
				the first one, and everything after it is the command's */
};

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);  /* argv[0] is the command name */
	const char *summary;               /* one line for `gpuwise help` */
	const struct option *options;      /* OPT_END()-terminated; -h/--help is added */
	const char *args;                  /* positional part of the synopsis ("[COMMAND]"), NULL: none */
	int max_args;                      /* positional arguments accepted; -1: any number */
	const char *description;           /* paragraphs ("\n\n"); lines starting with spaces kept as they are */
	const char *exit_status;           /* the "Exit status: ..." paragraph */
	unsigned flags;                    /* CMD_* */
};

/* Every command, in the order `gpuwise help` lists them. A new command
 * adds its name here and its cli/cmd_<name>.c; nothing else lists it. */
#define GPUWISE_COMMANDS(X) X(list) X(info) X(doctor) X(setup) X(explain) X(advise) X(bench) X(top) X(watch) X(exporter) X(run) X(ps) X(report) X(slurm) X(labels) X(help) X(version) X(spec) \
	X(kubelet_list)

#define GPUWISE_DECLARE_COMMAND(name) extern const struct cmd cmd_##name##_def;
GPUWISE_COMMANDS(GPUWISE_DECLARE_COMMAND)
#undef GPUWISE_DECLARE_COMMAND

/* All commands, NULL-terminated (cli/main.c). */
extern const struct cmd *const commands[];
const struct cmd *cmd_lookup(const char *name);

/* Texts in the user's language: _("text") is the catalogue's translation
 * (gw_translate); N_("text") marks a text in a static table, translated
 * with _() where it is printed. scripts/update-po collects all three and
 * fails on a text printed without a mark (its lint). */
#define _(s) gw_translate(s)
#define N_(s) (s)
/* A text with a count n: _n("%d GPU", "%d GPUs", n) (ngettext). */
#define _n(s, p, n) gw_translate_n((s), (p), (unsigned long)(n))

/* Shared CLI helpers (cli/util.c); they do not use the table above. */
/* The locale from the environment (setlocale(LC_ALL, "")); where the one
 * asked for is not installed but its texts are (LANG=zh_CN.UTF-8 in a
 * container without that locale), C.UTF-8 with LANGUAGE set to its
 * language, so the texts still come in it. docs/contracts.md "Languages". */
void setup_language(void);
void die_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Now on `clock` in seconds (CLOCK_MONOTONIC for intervals, CLOCK_REALTIME
 * for timestamps): the one clock helper of the commands. */
double clock_seconds(clockid_t clock);
void warning_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "Did you mean": keeps in *best (start with NULL) the candidate nearest
 * to typed[0..len) when it is a likely typo of it (one or two edits, a swap
 * of neighbours counting one, fewer than half the name); names starting
 * with '_' (hidden) are never suggested. */
void suggest_closer(const char *typed, size_t len, const char *candidate, const char **best, size_t *best_d);
/* True when colour should be used on stream (a tty, NO_COLOR unset, TERM not dumb). */
bool use_color(FILE *stream);
/* Human size: 85520809984 → "79.6 GiB" (buf ≥ 16). */
const char *fmt_bytes(char *buf, size_t n, unsigned long long bytes);
/* True when arg is -h or --help. */
bool is_help(const char *arg);

#endif
