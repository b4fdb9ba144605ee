/* gpuwise setup [FRAMEWORK...] [--python-env PREFIX] [--json] [--run]: the steps
 * from this machine to a working GPU framework, with the commands. The
 * plan is the library's (gw_setup_plan_make); here it is printed, and
 * with --run its pip steps are run, then doctor --deep. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpuwise/gpuwise.h"
#include "commands.h"
#include "output.h"

struct setup_opts {
	bool json, run;
	const char *python_env;
};

static const struct option setup_options[] = {
        OPT_BOOL(0, "json", struct setup_opts, json,
                 N_("print {\"gpuwise_version\", \"machine\", \"frameworks\", \"steps\": [...], \"verify\": [...]}")),
        OPT_STRING(0, "python-env", struct setup_opts, python_env, "PREFIX",
                   N_("plan for the Python environment at PREFIX (its bin/python runs pip); default: the active "
                      "virtualenv or conda environment, else python3")),
        OPT_BOOL(0, "run", struct setup_opts, run,
                 N_("also run the plan's pip steps in the environment, showing each, then `gpuwise doctor --deep`; "
                    "steps that need root are only printed")),
        OPT_END()};

/* A command printed within the width: broken at spaces with " \" so that
 * the lines still paste as one command. */
static void print_command(int width, const char *cmd)
{
	const char *indent = "      ", *s = cmd;
	int col = 0, room = width - 2;

	fputs("    $ ", stdout);
	col = 6;
	while (*s) {
		size_t n = strcspn(s, " ");
		int cells = text_columns(s, n);

		if (col > 8 && col + 1 + cells > room) {
			printf(" \\\n%s", indent);
			col = (int)strlen(indent);
		} else if (s != cmd) {
			putchar(' ');
			col++;
		}
		fwrite(s, 1, n, stdout);
		col += cells;
		s += n;
		s += strspn(s, " ");
	}
	putchar('\n');
}

static void print_machine(const gw_setup_plan *plan, int width)
{
	const gw_setup_machine *m = gw_setup_plan_machine(plan);
	char *line;

	for (size_t i = 0, shown = 0; i < m->ngpus; i++) {
		size_t same = 1;

		/* Identical GPUs on one line: "8× NVIDIA H100 80GB HBM3 (sm_90)". */
		while (i + same < m->ngpus && !strcmp(m->gpus[i + same].name, m->gpus[i].name) &&
		       !strcmp(m->gpus[i + same].arch, m->gpus[i].arch))
			same++;
		line = str_printf(m->gpus[i].arch[0] ? "%zu× %s (%s)" : "%zu× %s", same, m->gpus[i].name,
		                  m->gpus[i].arch);
		print_hanging(stdout, width, shown++ ? "          " : _("  GPU:    "), line ? line : "");
		free(line);
		i += same - 1;
	}
	if (m->driver[0])
		line = str_printf(_("NVIDIA %s (CUDA up to %s)"), m->driver, m->driver_cuda[0] ? m->driver_cuda : "?");
	else if (m->rocm[0])
		line = str_printf(_("ROCm %s"), m->rocm);
	else
		line = str_printf("%s", _("none loaded"));
	print_hanging(stdout, width, _("  Driver: "), line ? line : "");
	free(line);
	print_hanging(stdout, width, _("  System: "), m->os_name[0] ? m->os_name : _("unknown (no /etc/os-release)"));
	print_hanging(stdout, width, _("  Python: "), m->python);
}

static void print_plan(const gw_setup_plan *plan)
{
	int width = output_width(stdout);
	char names[128] = "", *title;
	size_t k = 0;

	if (width > 80)
		width = 80;
	for (size_t i = 0; i < gw_setup_framework_count(plan); i++) {
		size_t len = strlen(names);

		snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "", gw_setup_framework_at(plan, i));
	}
	title = str_printf(_("Set-up plan for %s on this machine"), names);
	print_wrapped(stdout, width, "", "", title ? title : names);
	free(title);
	print_machine(plan, width);
	for (size_t i = 0; i < gw_setup_step_count(plan); i++) {
		const gw_setup_step *s = gw_setup_step_at(plan, i);
		char first[32];

		putchar('\n');
		if (s->done)
			snprintf(first, sizeof(first), "%s", _("  done  "));
		else {
			k++;
			snprintf(first, sizeof(first), "  %zu.%s ", k, k < 10 ? " " : "");
		}
		print_hanging(stdout, width, first, s->title);
		print_wrapped(stdout, width, "        ", "        ", s->why);
		if (s->needs_root && s->ncommands)
			print_wrapped(stdout, width, "        ", "        ", _("(as root: gpuwise never runs these)"));
		for (size_t c = 0; c < s->ncommands; c++)
			print_command(width, s->commands[c]);
	}
	if (!gw_setup_plan_possible(plan)) {
		putchar('\n');
		print_hanging(stdout, width, _("No plan: "), gw_setup_plan_problem(plan));
	}
}

/* Run argv (NULL-terminated) with stdout and stderr going where ours go;
 * its exit status, 127 when it could not start, 128+N for a signal. */
static int run_argv(char *const argv[])
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) < 0)
		return 127;
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* --run: the pip steps through sh (the commands are shell lines, quotes
 * included), then this gpuwise's own doctor --deep. Root steps are printed
 * for the user, never run. */
static int run_plan(const gw_setup_plan *plan, const char *python_env)
{
	size_t total = 1, k = 0;
	char self[4096];
	ssize_t n;
	int rc;

	for (size_t i = 0; i < gw_setup_step_count(plan); i++) {
		const gw_setup_step *s = gw_setup_step_at(plan, i);

		total += s->pip && !s->done ? s->ncommands : 0;
	}
	for (size_t i = 0; i < gw_setup_step_count(plan); i++) {
		const gw_setup_step *s = gw_setup_step_at(plan, i);

		if (s->done || !s->ncommands || !strcmp(s->id, "verify"))
			continue;
		if (!s->pip) {
			printf(_("skipped (%s): run it yourself:\n"), s->title);
			for (size_t c = 0; c < s->ncommands; c++)
				printf("    $ %s\n", s->commands[c]);
			continue;
		}
		for (size_t c = 0; c < s->ncommands; c++) {
			char *argv[] = {"/bin/sh", "-c", (char *)s->commands[c], NULL};

			printf("[%zu/%zu] %s\n", ++k, total, s->commands[c]);
			if ((rc = run_argv(argv)) != 0) {
				error_msg(_("step '%s' failed (exit status %d): stopped"), s->id, rc);
				return EXIT_FAIL;
			}
		}
	}
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) <= 0) {
		error_msg("%s", _("cannot find this gpuwise to run doctor --deep"));
		return EXIT_FAIL;
	}
	self[n] = '\0';
	printf("[%zu/%zu] %s\n", ++k, total, gw_setup_verify_at(plan, 0));
	{
		char *argv[] = {self, "doctor", "--deep", python_env ? "--python-env" : NULL, (char *)python_env, NULL};

		return run_argv(argv) == 0 ? EXIT_OK : EXIT_FAIL;
	}
}

static int cmd_setup(int argc, char **argv)
{
	gw_setup_options opts = GW_SETUP_OPTIONS_INIT;
	struct setup_opts o = {0};
	gw_setup_plan *plan;
	char **args;
	int n, rc;

	if ((n = parse_options(&cmd_setup_def, argc, argv, &o, &args)) == PARSE_HELP)
		return EXIT_OK;
	opts.frameworks = (const char *const *)args;
	opts.nframeworks = (size_t)n;
	opts.python_env = o.python_env;
	if (o.run && o.json) {
		error_msg("%s", _("--run and --json cannot be combined"));
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		bool known = false;

		for (size_t k = 0; gw_setup_frameworks[k]; k++)
			known |= !strcmp(gw_setup_frameworks[k], args[i]);
		if (!known) {
			error_msg(_("unknown framework '%s' (torch, tensorflow, jax, cupy, onnxruntime, paddle)"),
			          args[i]);
			return EXIT_USAGE;
		}
	}
	if ((rc = gw_setup_plan_make(&plan, &opts)) < 0) {
		error_msg("%s", gw_error_last_text());
		return rc == GW_ENOTFOUND || rc == GW_EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	if (o.json) {
		char *text = gw_setup_plan_json(plan, 2);

		if (!text) {
			error_msg("%s", _("out of memory writing JSON"));
			gw_setup_plan_free(plan);
			return EXIT_FAIL;
		}
		print_json_text(text);
		free(text);
	} else {
		print_plan(plan);
	}
	rc = gw_setup_plan_possible(plan) ? EXIT_OK : EXIT_FAIL;
	if (o.run && rc == EXIT_OK) {
		printf("\n%s\n", _("Running the pip steps:"));
		rc = run_plan(plan, o.python_env);
	}
	gw_setup_plan_free(plan);
	return rc;
}

const struct cmd cmd_setup_def = {
        .name = "setup",
        .fn = cmd_setup,
        .summary = N_("the steps from this machine to a working GPU framework, with the commands"),
        .options = setup_options,
        .args = "[FRAMEWORK...]",
        .max_args = 6,
        .description =
                N_("Print, for this machine, the ordered steps that make a GPU framework work, each with the exact "
                   "commands and why it is needed: the NVIDIA driver when none is loaded or the framework needs a "
                   "newer branch (the distribution's own packages, from /etc/os-release; the open kernel module for "
                   "Blackwell, the proprietary one for Maxwell, Pascal and Volta), what to uninstall first when a "
                   "wrong build is installed, the framework build for the driver's CUDA and the GPU's architecture, "
                   "what is not needed (no system CUDA toolkit or cuDNN for pip wheels), and the check at the end "
                   "(`gpuwise doctor --deep`). Nothing is run unless --run is given, and then only the pip steps "
                   "and the deep check.\n"
                   "\n"
                   "FRAMEWORK: torch (torch, torchvision and torchaudio, matched), tensorflow, jax, cupy, onnxruntime, "
                   "paddle; default: the frameworks found in the environment, else torch. Versions, wheel variants "
                   "and driver commands come from gpuwise's data tables, each row naming its source."),
        .exit_status = N_("Exit status: 0 when a plan was made, 1 when none can be (no supported GPU, no build "
                          "for it), 2 on a usage error; with --run, 0 when every pip step and the deep check "
                          "passed, else 1."),
};
