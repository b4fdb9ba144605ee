/* gpuwise doctor — what stands between this machine and a working GPU
 * framework: findings grouped by layer, each with evidence and a fix, and
 * a one-line verdict. Exit 0 without error findings, 1 with, 2 on usage. */
#include <stdlib.h>
#include <string.h>

#include "gpuwise/gpuwise.h"
#include "gpuwise/doctor.h"
#include "commands.h"

const char usage_doctor[] =
	"usage: gpuwise doctor [--json] [--python-env PREFIX]... [--deep [--timeout SECONDS]]\n"
	"\n"
	"Check this machine for everything that keeps a GPU framework from using\n"
	"the GPU: the hardware (PCI, lost GPUs, ECC, PCIe link, Xid errors), the\n"
	"driver (modules, libraries, device nodes, ROCm), CUDA (toolkits, cuDNN,\n"
	"CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH), Python (each environment's\n"
	"PyTorch, TensorFlow, JAX and CuPy builds against the driver and the GPU\n"
	"architecture, read from their files without importing them) and the live\n"
	"state (throttling, memory held by others, exclusive mode).\n"
	"Each finding has an id (`gpuwise explain <id>` explains it), evidence and a fix.\n"
	"\n"
	"Python environments: every --python-env, $VIRTUAL_ENV, $CONDA_PREFIX, the\n"
	"system and user site folders, and the prefix of each python3 on PATH.\n"
	"\n"
	"Options:\n"
	"  --json               print {\"findings\": [...], \"summary\": {...}}\n"
	"  --python-env PREFIX  also inspect the environment at PREFIX (repeatable)\n"
	"  --deep               also import each framework in a subprocess of its\n"
	"                       environment's python and run a tiny GPU kernel\n"
	"  --timeout SECONDS    time limit of each --deep subprocess (default 20)\n"
	"  --no-kernel-log      do not scan the kernel log for Xid errors\n"
	"  -h, --help           show this help\n"
	"\n"
	"Exit status: 0 when no error was found, 1 when at least one error was\n"
	"found, 2 on a usage error.\n";

#define MAX_ENVS 16

static const char *layer_title(const char *layer)
{
	static const char *const titles[][2] = {
		{ "hardware", "Hardware" }, { "driver", "Driver" }, { "cuda", "CUDA" },
		{ "python", "Python" }, { "live", "Live state" }, { "environment", "Environment" },
	};

	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
		if (!strcmp(titles[i][0], layer))
			return titles[i][1];
	return layer;
}

static void print_finding(const gw_finding *f, bool color)
{
	static const char *const mark[] = { "✓", "!", "✗" };
	static const char *const col[] = { "\033[32m", "\033[33m", "\033[31m" };

	printf("  %s%s%s %s", color ? col[f->severity] : "", mark[f->severity], color ? "\033[0m" : "", f->title);
	if (f->severity != GW_SEVERITY_INFO)
		printf(" %s[%s]%s", color ? "\033[2m" : "", f->id, color ? "\033[0m" : "");
	putchar('\n');
	if (f->evidence[0])
		printf("      %s\n", f->evidence);
	if (f->fix[0])
		printf("      fix: %s\n", f->fix);
}

/* The subprocess's output spans lines: keep each under the first. */
static void print_indented(const char *first, const char *text)
{
	const char *p = text;

	fputs(first, stdout);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		fwrite(p, 1, n, stdout);
		putchar('\n');
		if (!nl || !nl[1])
			break;
		p = nl + 1;
		printf("%*s", (int)strlen(first), "");
	}
	if (!*text)
		putchar('\n');
}

static void print_human(const gw_doctor_report *rep, bool color)
{
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
			print_finding(f, color);
		}
		if (any)
			putchar('\n');
	}
	if (gw_doctor_deep_count(rep)) {
		printf("%sDeep check (imports in a subprocess)%s\n", color ? "\033[1m" : "", color ? "\033[0m" : "");
		for (size_t i = 0; i < gw_doctor_deep_count(rep); i++) {
			const gw_doctor_deep *x = gw_doctor_deep_at(rep, i);

			printf("  %s %s in %s (%.1f s): %s\n", x->ok ? "✓" : "✗", x->framework, x->site, x->seconds,
			       x->timed_out ? "timed out" : x->ok ? "ran a kernel on the GPU" : "could not use a GPU");
			printf("      %s\n", x->static_verdict);
			print_indented("      runtime: ", x->output[0] ? x->output : "(no output)");
		}
		putchar('\n');
	}
	printf("%s%s%s\n", color ? (strncmp(verdict, "ready", 5) ? "\033[1;31m" : "\033[1;32m") : "", verdict,
	       color ? "\033[0m" : "");
}

static bool parse_timeout(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > 0) || v > 3600)
		return false;
	*out = v;
	return true;
}

int cmd_doctor(int argc, char **argv)
{
	gw_doctor_options opts = GW_DOCTOR_OPTIONS_INIT;
	const char *envs[MAX_ENVS];
	size_t nenvs = 0;
	bool json = false;
	gw_doctor_report *rep;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (is_help(a))
			return print_usage("doctor");
		if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--deep")) {
			opts.deep = 1;
		} else if (!strcmp(a, "--no-kernel-log")) {
			opts.flags |= GW_DOCTOR_NO_KERNEL_LOG;
		} else if (!strcmp(a, "--python-env") || !strncmp(a, "--python-env=", 13)) {
			const char *v = a[12] == '=' ? a + 13 : (i + 1 < argc ? argv[++i] : NULL);

			if (!v || !*v)
				die_usage("doctor", "--python-env needs a PREFIX");
			if (nenvs == MAX_ENVS)
				die_usage("doctor", "at most %d --python-env options", MAX_ENVS);
			envs[nenvs++] = v;
		} else if (!strcmp(a, "--timeout") || !strncmp(a, "--timeout=", 10)) {
			const char *v = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : NULL);

			if (!v || !parse_timeout(v, &opts.deep_timeout_s))
				die_usage("doctor", "--timeout needs a number of seconds (0 < s <= 3600)");
		} else {
			die_usage("doctor", "unknown argument '%s'", a);
		}
	}
	opts.python_envs = envs;
	opts.npython_envs = nenvs;
	if (gw_doctor_run(&rep, &opts) < 0) {
		error_msg("%s", gw_error_last());
		return EXIT_FAIL;
	}
	if (json) {
		char *text = gw_doctor_report_json(rep, 2);

		if (!text) {
			error_msg("out of memory writing JSON");
			gw_doctor_report_free(rep);
			return EXIT_FAIL;
		}
		puts(text);
		free(text);
	} else {
		print_human(rep, use_color(stdout));
	}
	rc = gw_doctor_count(rep, GW_SEVERITY_ERROR) ? EXIT_FAIL : EXIT_OK;
	gw_doctor_report_free(rep);
	return rc;
}
