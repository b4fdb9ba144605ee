/* gpuwise — entry point, the one command table, and the commands about
 * gpuwise itself: help, version, and the hidden __spec (the table as JSON). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpuwise/gpuwise.h"
#include "commands.h"
#include "output.h"
#include "text.h"

#define GPUWISE_COMMAND_ROW(name) &cmd_##name##_def,
const struct cmd *const commands[] = { GPUWISE_COMMANDS(GPUWISE_COMMAND_ROW) NULL };

const struct cmd *cmd_lookup(const char *name)
{
	for (const struct cmd *const *c = commands; *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

/* "'lsit' is not a gpuwise command", with the command meant when it looks
 * like a typo of one. */
static void unknown_command(const char *name)
{
	const char *best = NULL;
	size_t d = 0;

	for (const struct cmd *const *c = commands; *c; c++)
		suggest_closer(name, strlen(name), (*c)->name, &best, &d);
	if (best)
		error_msg(_("'%s' is not a gpuwise command; did you mean '%s'? (see 'gpuwise help')"), name, best);
	else
		error_msg(_("'%s' is not a gpuwise command; see 'gpuwise help'"), name);
}

static const char main_description[] =
	N_("gpuwise sees every GPU on this machine (NVIDIA through NVML and the CUDA "
	   "driver, AMD through sysfs) and tells you what is wrong and how to fix it.");
static const char main_exit_status[] =
	N_("Exit codes: 0 success, 1 failure (no GPU readable; doctor: an error found), 2 usage error.");

static void print_main_usage(FILE *out)
{
	int width = output_width(out);

	fprintf(out, "%s\n\n", _("usage: gpuwise [--version] [--help] <command> [<args>]"));
	print_wrapped(out, width, "", "", _(main_description));
	fprintf(out, "\n%s\n", _("Commands:"));
	for (const struct cmd *const *c = commands; *c; c++) {
		char first[32];

		if ((*c)->flags & CMD_HIDDEN)
			continue;
		snprintf(first, sizeof(first), "  %-10s ", (*c)->name);
		print_wrapped(out, width, first, "             ", _((*c)->summary));
	}
	fputc('\n', out);
	print_wrapped(out, width, "", "", _("Run 'gpuwise help <command>' or 'gpuwise <command> --help' for details."));
	print_wrapped(out, width, "", "", _(main_exit_status));
}

/* ---- help --------------------------------------------------------------- */

struct no_opts {
	char unused;
};
static const struct option no_options[] = { OPT_END() };

static int cmd_help(int argc, char **argv)
{
	struct no_opts o;
	const struct cmd *c;
	char **args;
	int n = parse_options(&cmd_help_def, argc, argv, &o, &args);

	if (n == PARSE_HELP)
		return EXIT_OK;
	if (n == 0) {
		print_main_usage(stdout);
		return EXIT_OK;
	}
	if (!(c = cmd_lookup(args[0]))) {
		unknown_command(args[0]);
		return EXIT_USAGE;
	}
	print_command_help(stdout, c, output_width(stdout));
	return EXIT_OK;
}

const struct cmd cmd_help_def = {
	.name = "help",
	.fn = cmd_help,
	.summary = N_("show help for gpuwise or a command"),
	.options = no_options,
	.args = "[COMMAND]",
	.max_args = 1,
	.description = N_("Show the list of commands, or the full help of COMMAND."),
};

/* ---- version ------------------------------------------------------------ */

static int cmd_version(int argc, char **argv)
{
	struct no_opts o;
	char **args;

	if (parse_options(&cmd_version_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	printf("gpuwise %s\n", gw_version());
	return EXIT_OK;
}

const struct cmd cmd_version_def = {
	.name = "version",
	.fn = cmd_version,
	.summary = N_("print the version"),
	.options = no_options,
	.description = N_("Print gpuwise's version (also `gpuwise --version`)."),
};

/* ---- __spec: the command table as JSON ------------------------------------ */

static void json_text(gw_json *j, const char *key, const char *text)
{
	gw_json_key(j, key);
	gw_json_string(j, text);
}

static void json_option(gw_json *j, const struct option *o)
{
	static const char *const types[] = { "end", "flag", "value", "list", "value" };
	char s[2] = { o->short_name, '\0' };

	gw_json_object_begin(j);
	json_text(j, "short", o->short_name ? s : NULL);
	json_text(j, "long", o->long_name);
	json_text(j, "arg", o->argh);
	json_text(j, "kind", types[o->type]);
	gw_json_key(j, "repeatable");
	gw_json_bool(j, o->type == OPT_T_LIST);
	gw_json_key(j, "hidden");
	gw_json_bool(j, o->flags & OPT_HIDDEN);
	json_text(j, "help", o->help);
	gw_json_object_end(j);
}

static void json_command(gw_json *j, const struct cmd *c)
{
	static const struct option help = { OPT_T_BOOL, 'h', "help", 0, NULL, "show this help", 0, NULL };
	char synopsis[512];

	gw_json_object_begin(j);
	json_text(j, "name", c->name);
	json_text(j, "summary", c->summary);
	json_text(j, "synopsis", command_synopsis(synopsis, sizeof(synopsis), c));
	json_text(j, "args", c->args);
	gw_json_key(j, "max_args");
	gw_json_int(j, c->max_args);
	gw_json_key(j, "text_args");
	gw_json_bool(j, c->flags & CMD_TEXT_ARGS);
	json_text(j, "description", c->description);
	json_text(j, "exit_status", c->exit_status);
	gw_json_key(j, "options");
	gw_json_array_begin(j);
	for (const struct option *o = c->options; o && o->type != OPT_T_END; o++)
		json_option(j, o);
	json_option(j, &help);
	gw_json_array_end(j);
	gw_json_object_end(j);
}

/* The metric table (include/gpuwise/metrics.h) as JSON, for
 * scripts/gen-metrics-doc and whoever needs the exporter names. */
static void json_metric_table(gw_json *j)
{
	static const char *const kinds[] = { "gauge", "counter", "static", "string", "enum" };
	static const char *const types[] = { "u64", "f64", "str" };
	static const char *const forms[] = { "number", "bytes", "text", "flag", "yesno", "pstate",
					     "compute_mode", "throttle_reasons" };
	static const char *const schemes[GW_SCHEME_COUNT] = { "dcgm", "nvidia_smi", "native" };

	gw_json_key(j, "metrics");
	gw_json_array_begin(j);
	for (int i = 0; i < gw_metric_count(); i++) {
		const gw_metric_info *m = gw_metric_info_get(i);

		gw_json_object_begin(j);
		json_text(j, "key", m->key);
		json_text(j, "kind", kinds[m->kind]);
		json_text(j, "type", types[m->type]);
		json_text(j, "form", forms[m->form]);
		json_text(j, "unit", m->unit);
		gw_json_key(j, "si_scale");
		gw_json_double(j, m->si_scale, 6);
		json_text(j, "si_unit", m->si_unit);
		json_text(j, "json", m->json);
		json_text(j, "section", m->section);
		json_text(j, "label", m->label);
		json_text(j, "column", m->column);
		json_text(j, "description", m->description);
		gw_json_key(j, "alias");
		gw_json_bool(j, (m->flags & GW_METRIC_F_ALIAS) != 0);
		gw_json_key(j, "exporters");
		gw_json_object_begin(j);
		for (int k = 0; k < GW_SCHEME_COUNT; k++) {
			const gw_metric_export *e = &m->exporter[k];

			gw_json_key(j, schemes[k]);
			if (!e->name) {
				gw_json_null(j);
				continue;
			}
			gw_json_object_begin(j);
			json_text(j, "name", e->name);
			json_text(j, "type", e->type);
			json_text(j, "help", e->help);
			gw_json_key(j, "scale");
			gw_json_double(j, e->scale, 12);
			gw_json_object_end(j);
		}
		gw_json_object_end(j);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

static int cmd_spec(int argc, char **argv)
{
	struct no_opts o;
	char **args;
	gw_json *j;
	int rc;

	if (parse_options(&cmd_spec_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	if (!(j = gw_json_new(2))) {
		error_msg("%s", _("out of memory"));
		return EXIT_FAIL;
	}
	gw_json_object_begin(j);
	json_text(j, "gpuwise_version", gw_version());
	json_text(j, "description", main_description);
	json_text(j, "exit_status", main_exit_status);
	gw_json_key(j, "commands");
	gw_json_array_begin(j);
	for (const struct cmd *const *c = commands; *c; c++)
		if (!((*c)->flags & CMD_HIDDEN))
			json_command(j, *c);
	gw_json_array_end(j);
	json_metric_table(j);
	gw_json_object_end(j);
	rc = print_json(j);
	gw_json_free(j);
	return rc < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct cmd cmd_spec_def = {
	.name = "__spec",
	.fn = cmd_spec,
	.summary = N_("print every command and its options as JSON (for scripts/gen-man and completions)"),
	.options = no_options,
	.description = N_("Print the command table as JSON: each command's synopsis, description, options "
		       "(short and long names, value name, whether repeatable) and exit status. "
		       "scripts/gen-man writes the man page from it; shell completions can read it. \"metrics\" is "
		       "the metric table (docs/metrics.md is written from it by scripts/gen-metrics-doc)."),
	.flags = CMD_HIDDEN,
};

/* Like git: a full disk or closed pipe on stdout is an error, not silence. */
static int finish_stdout(int rc)
{
	if (!text_flush()) {
		if (errno != EPIPE)
			error_msg(_("cannot write output: %s"), strerror(errno));
		return rc ? rc : EXIT_FAIL;
	}
	return rc;
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	setup_language();
	text_init(); /* after the locale is chosen: ASCII where it is not UTF-8 */
	if (argc < 2) {
		print_main_usage(stderr);
		return EXIT_USAGE;
	}
	if (is_help(argv[1]))
		return finish_stdout(cmd_help(argc - 1, argv + 1));
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return finish_stdout(cmd_version(argc - 1, argv + 1));
	if (!(c = cmd_lookup(argv[1]))) {
		unknown_command(argv[1]);
		return EXIT_USAGE;
	}
	return finish_stdout(c->fn(argc - 1, argv + 1));
}
