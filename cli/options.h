/* Options as data (git's parse_options): each command describes what it
 * accepts in one table, and that table drives the parsing, the --help
 * text, the man page (scripts/gen-man) and `gpuwise __spec`, the JSON
 * dump that completions and tests read. Nothing else lists options, so
 * the help cannot drift from what a command accepts.
 *
 *   struct list_opts { bool json, no_header; };
 *   static const struct option list_options[] = {
 *           OPT_BOOL(0, "json", struct list_opts, json, "print JSON"),
 *           OPT_END()
 *   };
 *   const struct cmd cmd_list_def = { "list", cmd_list, "one line per GPU", .options = list_options, ... };
 *
 *   int cmd_list(int argc, char **argv)
 *   {
 *           struct list_opts o = { 0 };
 *           int n = parse_options(&cmd_list_def, argc, argv, &o, &args);
 *           if (n == PARSE_HELP) return EXIT_OK;
 *
 * Values land in the command's own options struct (by offset), so the
 * tables are static const data that help and the dump can walk without
 * running the command. Usage errors print `gpuwise: <why>` and a hint and
 * exit 2. */
#ifndef GPUWISE_CLI_OPTIONS_H
#define GPUWISE_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cmd;

enum opt_type {
	OPT_T_END = 0,
	OPT_T_BOOL,     /* bool field set to true; giving it twice is harmless */
	OPT_T_STRING,   /* const char * field; one value: a second one is a usage error */
	OPT_T_LIST,     /* struct opt_list field; every occurrence adds a value */
	OPT_T_CALLBACK  /* the callback converts and stores the value */
};

enum {
	OPT_HIDDEN = 0x1  /* accepted, but not shown in --help or the man page */
};

#define OPT_LIST_MAX 16
/* The values of a repeatable option, in the order given. */
struct opt_list {
	const char *v[OPT_LIST_MAX];
	size_t n;
};

/* Converts arg into *field; returns NULL, or what is wrong with arg
 * ("needs a number of seconds (0 < s <= 3600)"), said after the option. */
typedef const char *(*opt_callback)(void *field, const char *arg);

struct option {
	enum opt_type type;
	char short_name;        /* 'i', or 0 for none */
	const char *long_name;  /* "id", without the dashes; NULL for none */
	size_t offset;          /* of the field in the command's options struct */
	const char *argh;       /* the value's name in help ("SEL"); NULL for a flag */
	const char *help;       /* one sentence or more, wrapped for the terminal */
	unsigned flags;         /* OPT_HIDDEN */
	opt_callback cb;        /* OPT_T_CALLBACK only */
};

#define OPT_BOOL(s, l, type, field, h) { OPT_T_BOOL, (s), (l), offsetof(type, field), NULL, (h), 0, NULL }
#define OPT_STRING(s, l, type, field, a, h) { OPT_T_STRING, (s), (l), offsetof(type, field), (a), (h), 0, NULL }
#define OPT_LIST(s, l, type, field, a, h) { OPT_T_LIST, (s), (l), offsetof(type, field), (a), (h), 0, NULL }
#define OPT_CALLBACK(s, l, type, field, a, h, fn) { OPT_T_CALLBACK, (s), (l), offsetof(type, field), (a), (h), 0, (fn) }
#define OPT_END() { OPT_T_END, 0, NULL, 0, NULL, NULL, 0, NULL }

/* parse_options() returns this when -h/--help was given (the help is
 * printed to stdout; the command returns EXIT_OK). */
#define PARSE_HELP (-1)

/* Parse argv[1..argc-1] (argv[0] is the command name) against cmd's
 * table into opts. Options and arguments may be mixed (`list --json` and
 * `explain log.txt --json`), "--" ends the options. On return *args holds
 * the positional arguments in order and the count is returned; more than
 * cmd->max_args, an unknown option, a missing or empty value, or a second
 * value of a single-valued option is a usage error (exit 2). argv is
 * reordered in place. */
int parse_options(const struct cmd *cmd, int argc, char **argv, void *opts, char ***args);

/* An OPT_CALLBACK value parser for sizes ("8GiB", "16GB", "500MiB", "24B"; a
 * number without a unit is refused):
 * stores a uint64_t, or returns why the text is not one. */
const char *opt_parse_size(void *field, const char *s);

/* The full --help text of cmd, wrapped at `width` columns. */
void print_command_help(FILE *out, const struct cmd *cmd, int width);

/* The synopsis without "usage: " ("gpuwise info [-i SEL] [--json] [-q]"),
 * unwrapped, into buf; returns buf. */
const char *command_synopsis(char *buf, size_t n, const struct cmd *cmd);

#endif
