/* The CLI's option tables (cli/options.c): parsing and help from one table.
 * Usage errors exit the process, so they are tested end to end in
 * tests/cli/test_errors.sh; here the accepted forms and the help text. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "commands.h"

struct t_opts {
	bool json, quiet;
	const char *id;
	struct opt_list envs;
	double timeout;
};

static const char *parse_seconds(void *field, const char *arg)
{
	*(double *)field = atof(arg);
	return NULL;
}

static const struct option t_options[] = {
	OPT_STRING('i', "id", struct t_opts, id, "SEL", "only the GPU SEL"),
	OPT_BOOL(0, "json", struct t_opts, json, "print JSON"),
	OPT_BOOL('q', "quiet", struct t_opts, quiet, "print nothing"),
	OPT_LIST(0, "env", struct t_opts, envs, "PREFIX", "also this environment"),
	OPT_CALLBACK(0, "timeout", struct t_opts, timeout, "SECONDS", "time limit", parse_seconds),
	OPT_END()
};

static const struct cmd t_cmd = { .name = "t", .options = t_options, .args = "[FILE...]", .max_args = -1,
				  .description = "Test command.", .exit_status = "Exit status: 0." };
static const struct cmd t_text = { .name = "x", .options = t_options, .max_args = -1, .flags = CMD_TEXT_ARGS };

/* Parse a space-separated command line; returns the positionals joined by '|'. */
static const char *parse(const struct cmd *c, const char *line, struct t_opts *o)
{
	static char buf[256], out[256];
	char *argv[32], **args;
	int argc = 0, n;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *tok = strtok(buf, " "); tok && argc < 31; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	memset(o, 0, sizeof(*o));
	n = parse_options(c, argc, argv, o, &args);
	out[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", i ? "|" : "", args[i]);
	return out;
}

static void test_forms(void)
{
	struct t_opts o;

	CHECK_STR(parse(&t_cmd, "t --json a -i 0 b", &o), "a|b");
	CHECK(o.json && !o.quiet);
	CHECK_STR(o.id, "0");
	parse(&t_cmd, "t -i0", &o);
	CHECK_STR(o.id, "0");
	parse(&t_cmd, "t --id=GPU-8a5f", &o);
	CHECK_STR(o.id, "GPU-8a5f");
	parse(&t_cmd, "t -qi 3", &o); /* a bundle; the value option ends it */
	CHECK(o.quiet);
	CHECK_STR(o.id, "3");
	parse(&t_cmd, "t --env /a --env=/b --timeout 2.5 --json --json", &o);
	CHECK_INT(o.envs.n, 2);
	CHECK_STR(o.envs.v[0], "/a");
	CHECK_STR(o.envs.v[1], "/b");
	CHECK(o.timeout == 2.5);
	CHECK(o.json);
	CHECK_STR(parse(&t_cmd, "t -- --json - x", &o), "--json|-|x");
	CHECK(!o.json);
	CHECK_STR(parse(&t_cmd, "t -", &o), "-");
	/* free text: options stop at the first word, flags may end the line */
	CHECK_STR(parse(&t_text, "x --json CUDA error: -1 --quiet text --json", &o), "CUDA|error:|-1|--quiet|text");
	CHECK(o.json && !o.quiet);
	CHECK_STR(parse(&t_text, "x log.txt -q --json", &o), "log.txt");
	CHECK(o.json && o.quiet);
}

static void test_help(void)
{
	char buf[2048], syn[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct t_opts o;
	char **args;
	char *argv[] = { "t", "--json", "--help", NULL };

	print_command_help(f, &t_cmd, 80);
	fclose(f);
	CHECK_STR(command_synopsis(syn, sizeof(syn), &t_cmd),
		  "gpuwise t [-i SEL] [--json] [-q] [--env PREFIX]... [--timeout SECONDS] [FILE...]");
	CHECK(!strncmp(buf, "usage: gpuwise t [-i SEL] [--json] [-q] [--env PREFIX]... [--timeout SECONDS]\n"
			    "                 [FILE...]\n\nTest command.\n\nOptions:\n", 120));
	CHECK(strstr(buf, "\n  -i, --id SEL       only the GPU SEL\n"));
	CHECK(strstr(buf, "\n  --timeout SECONDS  time limit\n"));
	CHECK(strstr(buf, "\n  -h, --help         show this help\n\nExit status: 0.\n"));
	/* -h anywhere prints the help (to stdout) instead of running */
	CHECK_INT(parse_options(&t_cmd, 3, argv, &o, &args), PARSE_HELP);
}

int main(void)
{
	test_forms();
	test_help();
	return CHECK_DONE();
}
