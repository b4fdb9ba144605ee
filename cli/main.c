/* gpuwise — entry point and the one command table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpuwise/gpuwise.h"
#include "commands.h"
#include "output.h"

const struct cmd commands[] = {
	{ "list", cmd_list, "one line per GPU: index, name, memory, capability, UUID", usage_list },
	{ "info", cmd_info, "everything about each GPU (nvidia-smi -q), or --json", usage_info },
	{ "doctor", cmd_doctor, "check drivers, CUDA and Python frameworks; what is wrong and how to fix it", usage_doctor },
	{ "explain", cmd_explain, "find known GPU errors in a message or log; cause and fix", usage_explain },
	{ "help", cmd_help, "show help for gpuwise or a command", usage_help },
	{ "version", cmd_version, "print the version", usage_version },
	{ NULL, NULL, NULL, NULL }
};

const struct cmd *cmd_lookup(const char *name)
{
	for (const struct cmd *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void print_main_usage(FILE *out)
{
	int width = output_width(out);

	fprintf(out, "usage: gpuwise [--version] [--help] <command> [<args>]\n\n");
	print_wrapped(out, width, "", "",
		      "gpuwise sees every GPU on this machine (NVIDIA through NVML and the CUDA "
		      "driver, AMD through sysfs) and tells you what is wrong and how to fix it.");
	fprintf(out, "\nCommands:\n");

	for (const struct cmd *c = commands; c->name; c++) {
		char first[32];

		snprintf(first, sizeof(first), "  %-10s ", c->name);
		print_wrapped(out, width, first, "             ", c->summary);
	}
	fputc('\n', out);
	print_wrapped(out, width, "", "", "Run 'gpuwise help <command>' or 'gpuwise <command> --help' for details.");
	print_wrapped(out, width, "", "",
		      "Exit codes: 0 success, 1 failure (no GPU readable; doctor: an error found), 2 usage error.");
}

int print_usage(const char *name)
{
	const struct cmd *c = cmd_lookup(name);

	if (!c)
		return EXIT_USAGE;
	fputs(c->usage, stdout);
	return EXIT_OK;
}

int cmd_help(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		print_main_usage(stdout);
		return EXIT_OK;
	}
	if (is_help(argv[1]))
		return print_usage("help");
	if (!(c = cmd_lookup(argv[1]))) {
		error_msg("'%s' is not a gpuwise command; see 'gpuwise help'", argv[1]);
		return EXIT_USAGE;
	}
	fputs(c->usage, stdout);
	return EXIT_OK;
}

const char usage_help[] =
	"usage: gpuwise help [COMMAND]\n\n"
	"Show the list of commands, or the full help of COMMAND.\n";

int cmd_version(int argc, char **argv)
{
	if (argc > 1 && is_help(argv[1]))
		return print_usage("version");
	printf("gpuwise %s\n", gw_version());
	return EXIT_OK;
}

const char usage_version[] =
	"usage: gpuwise version\n"
	"       gpuwise --version\n\n"
	"Print gpuwise's version.\n";

/* Like git: a full disk or closed pipe on stdout is an error, not silence. */
static int finish_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			error_msg("cannot write output: %s", strerror(errno));
		return rc ? rc : EXIT_FAIL;
	}
	return rc;
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		print_main_usage(stderr);
		return EXIT_USAGE;
	}
	if (is_help(argv[1]))
		return finish_stdout(cmd_help(1, argv + 1));
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return finish_stdout(cmd_version(1, argv + 1));
	if (!(c = cmd_lookup(argv[1]))) {
		error_msg("'%s' is not a gpuwise command; see 'gpuwise help'", argv[1]);
		return EXIT_USAGE;
	}
	return finish_stdout(c->fn(argc - 1, argv + 1));
}
