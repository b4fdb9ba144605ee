/* The CLI's command table: one cmd_<name>.c per command, each listed once in
 * commands[] in cli/main.c. Commands use only the public API. */
#ifndef GPUWISE_CLI_COMMANDS_H
#define GPUWISE_CLI_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

enum {
	EXIT_OK = 0,      /* success (doctor: no error findings) */
	EXIT_FAIL = 1,    /* failure (doctor: an error finding; list/info: no GPU read) */
	EXIT_USAGE = 2    /* usage error */
};

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);  /* argv[0] is the command name */
	const char *summary;               /* one line for `gpuwise help` */
	const char *usage;                 /* full --help text (also the man page text) */
};

/* All commands, NULL-name terminated (cli/main.c). */
extern const struct cmd commands[];
const struct cmd *cmd_lookup(const char *name);
/* Print the --help text of a command to stdout and return EXIT_OK. */
int print_usage(const char *name);

int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);

extern const char usage_list[], usage_info[], usage_help[], usage_version[];
int cmd_explain(int argc, char **argv);
extern const char usage_explain[];
int cmd_doctor(int argc, char **argv);
extern const char usage_doctor[];

/* Shared CLI helpers (cli/util.c); they do not use the table above. */
void die_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* True when colour should be used on stream (a tty, NO_COLOR unset, TERM not dumb). */
bool use_color(FILE *stream);
/* Human size: 85520809984 → "79.6 GiB" (buf ≥ 16). */
const char *fmt_bytes(char *buf, size_t n, unsigned long long bytes);
/* True when argv[i] is -h or --help. */
bool is_help(const char *arg);

#endif
