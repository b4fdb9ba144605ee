/* gpuwise doctor — what stands between this machine and a working GPU
 * framework: findings grouped by layer, each with evidence and a fix, and
 * a one-line verdict. Exit 0 without error findings, 1 with, 2 on usage. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "gpuwise/gpuwise.h"
#include "gpuwise/doctor.h"
#include "gpuwise/explain.h"
#include "commands.h"
#include "output.h"

static const char *layer_title(const char *layer)
{
	static const char *const titles[][2] = {
		{ "hardware", N_("Hardware") }, { "driver", N_("Driver") }, { "cuda", "CUDA" },
		{ "python", "Python" }, { "live", N_("Live state") }, { "environment", N_("Environment") },
	};

	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
		if (!strcmp(titles[i][0], layer))
			return _(titles[i][1]);
	return layer;
}

/* "      fix: ": a label under a finding, six columns in (a static
 * buffer: one label is printed before the next is made). */
static const char *label(const char *text)
{
	static char buf[96];

	snprintf(buf, sizeof(buf), "      %s", text);
	return buf;
}

/* Evidence, fixes and titles can run to hundreds of characters (paths,
 * versions, commands): each wraps to the terminal under its own start, a
 * command or path too long for a line staying whole for copy and paste. */
static void print_finding(const gw_finding *f, bool color, int width)
{
	static const char *const mark[] = { "✓", "!", "✗" };
	static const char *const col[] = { "\033[32m", "\033[33m", "\033[31m" };

	/* A fact about a component that an error finding concerns gets no ✓. */
	bool plain = f->severity == GW_SEVERITY_INFO && !f->ok;
	char *first = str_printf("  %s%s%s ", color && !plain ? col[f->severity] : "", plain ? "-" : mark[f->severity],
				 color && !plain ? "\033[0m" : "");
	char *title = f->severity == GW_SEVERITY_INFO ? NULL :
		      str_printf("%s %s[%s]%s", f->title, color ? "\033[2m" : "", f->id, color ? "\033[0m" : "");

	print_hanging(stdout, width, first ? first : "  ", title ? title : f->title);
	free(first);
	free(title);
	if (f->evidence[0])
		print_hanging(stdout, width, "      ", f->evidence);
	if (f->fix[0])
		print_hanging(stdout, width, label(_("fix: ")), f->fix);
}

static void print_human(const gw_doctor_report *rep, bool color)
{
	int width = output_width(stdout);
	char *line;
	size_t n = gw_doctor_finding_count(rep);
	const char *verdict = gw_doctor_verdict(rep);

	for (int l = 0; gw_doctor_layers[l]; l++) {
		bool any = false;

		for (size_t i = 0; i < n; i++) {
			const gw_finding *f = gw_doctor_finding(rep, i);

			if (strcmp(f->layer, gw_doctor_layers[l]))
				continue;
			if (!any)
				printf("%s%s%s\n", color ? "\033[1m" : "", layer_title(f->layer), color ? "\033[0m" : "");
			any = true;
			print_finding(f, color, width);
		}
		if (any)
			putchar('\n');
	}
	if (gw_doctor_deep_count(rep)) {
		printf("%s%s%s\n", color ? "\033[1m" : "", _("Deep check (imports in a subprocess)"),
		       color ? "\033[0m" : "");
		for (size_t i = 0; i < gw_doctor_deep_count(rep); i++) {
			const gw_doctor_deep *x = gw_doctor_deep_at(rep, i);

			if (x->not_checked) {
				/* A check that was not run says why (no interpreter, no framework). */
				line = x->site[0] ? str_printf(_("%s in %s: %s"), x->framework, x->site, x->not_checked) : NULL;
				print_hanging(stdout, width, "  - ", line ? line : x->not_checked);
				free(line);
				continue;
			}
			line = str_printf(_("%s in %s (%.1f s): %s"), x->framework, x->site, x->seconds,
					  x->timed_out ? _("timed out") : x->ok ? _("ran a kernel on the GPU")
										: _("could not use a GPU"));
			print_hanging(stdout, width, x->ok ? "  ✓ " : "  ✗ ", line ? line : x->framework);
			free(line);
			/* the library's verdict alone: error ids, or "no error found" */
			print_hanging(stdout, width, label(_("static: ")),
				      strcmp(x->static_verdict, "no error found") ? x->static_verdict
										   : _("no error found"));
			/* The subprocess's own lines (a traceback) keep their breaks. */
			print_hanging(stdout, width, label(_("runtime: ")), x->output[0] ? x->output : _("(no output)"));
			if (x->explained) {
				/* What explain knows of the failure: the cause and fix, not a bare traceback. */
				line = str_printf("%s [%s]", gw_translate(x->explained->title), x->explained->id);
				print_hanging(stdout, width, label(_("explained: ")), line ? line : x->explained->id);
				free(line);
				print_hanging(stdout, width, label(_("cause: ")), gw_translate(x->explained->cause));
				print_hanging(stdout, width, label(_("fix: ")),
					      x->explained_fix ? x->explained_fix : gw_translate(x->explained->fix));
			}
		}
		putchar('\n');
	}
	/* Never wrapped: "ends with a one-line verdict" that scripts read with
	 * `tail -1`. */
	printf("%s%s%s\n", color ? (gw_doctor_ready(rep) ? "\033[1;32m" : "\033[1;31m") : "", verdict,
	       color ? "\033[0m" : "");
}

/* --deep runs framework imports in subprocesses of their own process
 * groups: a terminal's Ctrl-C reaches gpuwise only. The handlers ask the
 * library to stop; it kills and reaps every process of the check, then the
 * signal is raised again with its default action, so the exit status
 * still says what ended gpuwise. */
static volatile sig_atomic_t deep_signal;
static const int deep_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void on_deep_signal(int sig)
{
	deep_signal = sig;
}

static void deep_signals_catch(void)
{
	struct sigaction sa, old;

	/* Orphans of a check (a helper whose parent exited) are reparented to
	 * us instead of init, so the library finds them among our children. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_deep_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(deep_signals) / sizeof(deep_signals[0]); i++) {
		/* A signal ignored on purpose (nohup) stays ignored. */
		if (sigaction(deep_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(deep_signals[i], &sa, NULL);
	}
}

static void deep_signals_reraise(void)
{
	int sig = deep_signal;
	sigset_t set;

	if (!sig)
		return;
	fflush(stdout);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	exit(128 + sig);
}

static const char *parse_timeout(void *field, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > 0) || v > 3600)
		return N_("needs a number of seconds (0 < s <= 3600)");
	*(double *)field = v;
	return NULL;
}

struct doctor_opts {
	bool json, deep, no_kernel_log;
	struct opt_list python_envs;
	double timeout;
};

static const struct option doctor_options[] = {
	OPT_BOOL(0, "json", struct doctor_opts, json, N_("print {\"gpuwise_version\", \"findings\": [...], \"summary\": {...}}")),
	OPT_LIST(0, "python-env", struct doctor_opts, python_envs, "PREFIX",
		 N_("also inspect the environment at PREFIX, or of the interpreter PREFIX/bin/python3 (repeatable)")),
	OPT_BOOL(0, "deep", struct doctor_opts, deep,
		 N_("also import each framework in a subprocess of its environment's python and run a tiny GPU kernel")),
	OPT_CALLBACK(0, "timeout", struct doctor_opts, timeout, "SECONDS",
		     N_("time limit of each --deep subprocess (default 20)"), parse_timeout),
	OPT_BOOL(0, "no-kernel-log", struct doctor_opts, no_kernel_log, N_("do not scan the kernel log for Xid errors")),
	OPT_END()
};

static int cmd_doctor(int argc, char **argv)
{
	gw_doctor_options opts = GW_DOCTOR_OPTIONS_INIT;
	struct doctor_opts o = { .timeout = opts.deep_timeout_s };
	bool json;
	gw_doctor_report *rep;
	char **args;
	int rc;

	if (parse_options(&cmd_doctor_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	json = o.json;
	opts.deep = o.deep;
	opts.deep_timeout_s = o.timeout;
	if (o.no_kernel_log)
		opts.flags |= GW_DOCTOR_NO_KERNEL_LOG;
	opts.python_envs = o.python_envs.v;
	opts.npython_envs = o.python_envs.n;
	if (opts.deep) {
		opts.cancel = &deep_signal;
		deep_signals_catch();
	}
	rc = gw_doctor_run(&rep, &opts);
	deep_signals_reraise();
	if (rc < 0) {
		error_msg("%s", gw_error_last_text());
		/* A --python-env that is not there is a usage error. */
		return rc == GW_ENOTFOUND ? EXIT_USAGE : EXIT_FAIL;
	}
	if (json) {
		char *text = gw_doctor_report_json(rep, 2);

		if (!text) {
			error_msg("%s", _("out of memory writing JSON"));
			gw_doctor_report_free(rep);
			return EXIT_FAIL;
		}
		print_json_text(text);
		free(text);
	} else {
		print_human(rep, use_color(stdout));
	}
	rc = gw_doctor_count(rep, GW_SEVERITY_ERROR) ? EXIT_FAIL : EXIT_OK;
	gw_doctor_report_free(rep);
	return rc;
}

const struct cmd cmd_doctor_def = {
	.name = "doctor",
	.fn = cmd_doctor,
	.summary = N_("check drivers, CUDA and Python frameworks; what is wrong and how to fix it"),
	.options = doctor_options,
	.description =
		N_("Check this machine for everything that keeps a GPU framework from using the GPU: the "
		"hardware (PCI, lost GPUs, ECC, PCIe link, Xid errors), the driver (modules, libraries, "
		"device nodes, ROCm), CUDA (toolkits, cuDNN, CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH), Python "
		"(each environment's PyTorch, TensorFlow, JAX and CuPy builds against the driver and the GPU "
		"architecture, read from their files without importing them) and the live state "
		"(throttling, memory held by others, exclusive mode). "
		"Each finding has an id (`gpuwise explain <id>` explains it), evidence and a fix.\n"
		"\n"
		"Python environments: every --python-env, $VIRTUAL_ENV, $CONDA_PREFIX, the system and user "
		"site folders, and the prefix of each python3 on PATH."),
	.exit_status = N_("Exit status: 0 when no error was found, 1 when at least one error was found, 2 on a "
		       "usage error."),
};
