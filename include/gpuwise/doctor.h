/* gpuwise — doctor: what stands between this machine and a working GPU
 * framework, as a list of findings with evidence and a fix.
 *
 *   gw_doctor_report *rep;
 *   gw_doctor_options opts = GW_DOCTOR_OPTIONS_INIT;
 *   if (gw_doctor_run(&rep, &opts) < 0) { puts(gw_error_last()); ... }
 *   for (size_t i = 0; i < gw_doctor_finding_count(rep); i++) {
 *       const gw_finding *f = gw_doctor_finding(rep, i);
 *       printf("%s %s: %s\n", gw_severity_name(f->severity), f->id, f->title);
 *   }
 *   puts(gw_doctor_verdict(rep));
 *   gw_doctor_report_free(rep);
 *
 * The run reads files (probes: PCI, driver, toolkits, Python environments
 * and their frameworks, ROCm, container, kernel log) and opens a context
 * (live GPU state), then applies one rule per finding id. The environment
 * it judges (PATH, LD_LIBRARY_PATH, CUDA_VISIBLE_DEVICES, GPUWISE_ROOT, ...)
 * is the process environment. The library never prints: the CLI and the
 * Python module own the output; gw_doctor_report_json() gives the ◆ JSON.
 */
#ifndef GPUWISE_DOCTOR_H
#define GPUWISE_DOCTOR_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GW_DOCTOR_OPTIONS_VERSION 2  /* version 1 (without `cancel`) is still accepted */
typedef struct gw_doctor_options {
	unsigned version;                /* GW_DOCTOR_OPTIONS_VERSION */
	const char *const *python_envs;  /* extra environment prefixes (--python-env) */
	size_t npython_envs;
	int deep;                        /* also import each framework in a subprocess */
	double deep_timeout_s;           /* per subprocess; <= 0 means 20 s */
	unsigned flags;                  /* GW_DOCTOR_* */
	/* Version 2. When *cancel becomes nonzero (a signal handler of the
	 * caller sets it), a --deep run stops within about 50 ms: the running
	 * subprocess and everything it started are killed and reaped, and
	 * gw_doctor_run() fails with GW_EGENERIC ("interrupted"). Every
	 * subprocess of --deep ends with its check in any case (timeout
	 * included, also one that called setsid()), and dies with the calling
	 * thread should that die first (PR_SET_PDEATHSIG). A caller that makes
	 * itself a child subreaper (PR_SET_CHILD_SUBREAPER) lets doctor also
	 * find orphans that cleared their environment: every child it gains
	 * during a check is then taken for one of the check's. */
	const volatile sig_atomic_t *cancel;
} gw_doctor_options;
#define GW_DOCTOR_OPTIONS_INIT { GW_DOCTOR_OPTIONS_VERSION, NULL, 0, 0, 20.0, 0, NULL }

enum {
	GW_DOCTOR_NO_KERNEL_LOG = 0x1,   /* skip the Xid scan of the kernel log */
	GW_DOCTOR_NO_LIVE = 0x2          /* do not open NVML/CUDA (files only) */
};

typedef enum gw_severity {
	GW_SEVERITY_INFO = 0,
	GW_SEVERITY_WARNING = 1,
	GW_SEVERITY_ERROR = 2
} gw_severity;

/* One finding. Strings are UTF-8, owned by the report, never NULL. */
typedef struct gw_finding {
	const char *id;          /* stable slug; `gpuwise explain <id>` for the long text */
	gw_severity severity;
	const char *layer;       /* "hardware", "driver", "cuda", "python", "live", "environment" */
	const char *title;       /* one line, specific to what was seen */
	const char *evidence;    /* versions, paths and values seen */
	const char *fix;         /* what to do; commands can be pasted */
	/* Info findings (found-*): 1 when no error finding concerns the same
	 * component (shown ✓), 0 when one does (the driver of a mismatch, a
	 * framework the driver is too old for, GPUs none of which can be
	 * used) or for warnings and errors. */
	int ok;
} gw_finding;

struct gw_finding_doc;   /* gpuwise/explain.h */

/* What --deep saw when it imported a framework in a subprocess. */
typedef struct gw_doctor_deep {
	const char *site;        /* the environment's site-packages */
	const char *python;      /* the interpreter that was run */
	const char *framework;   /* "pytorch", "tensorflow", "jax", "cupy" */
	const char *static_verdict; /* what the file-based checks concluded: error ids, or "no error found" */
	int ok;                  /* the framework ran a kernel on a GPU */
	int timed_out;
	int exit_status;         /* of the subprocess, -1 when it could not run */
	double seconds;
	const char *output;      /* its last lines (stdout+stderr), trimmed */
	/* When the check failed: the known error (explain's catalogue: id,
	 * title, cause, fix) its output names, NULL when none. The exception
	 * the check printed wins over an earlier line. explained_line is the
	 * line it was found on ("" when none). */
	const struct gw_finding_doc *explained;
	const char *explained_line;
	/* The fix for this machine, in the user's language: the static
	 * finding's of the same id for this environment (it names a wheel
	 * this driver runs, never the failing build), else NULL (then the
	 * catalogue's explained->fix). */
	const char *explained_fix;
	/* NULL when the check ran; else why it was not run, in the user's
	 * language (exit_status -1, ok 0): the environment's interpreter is
	 * missing or cannot run (python: the one looked for), or no framework
	 * was found at all (site, framework and python ""). */
	const char *not_checked;
} gw_doctor_deep;

typedef struct gw_doctor_report gw_doctor_report;

/* Run every check. *out is set only on success (findings are not
 * failures); returns 0, GW_EINVAL, GW_ENOMEM, GW_ENOTFOUND (a python_envs
 * prefix is not a directory under GPUWISE_ROOT) or GW_EGENERIC
 * (interrupted through opts->cancel). */
int gw_doctor_run(gw_doctor_report **out, const gw_doctor_options *opts);
void gw_doctor_report_free(gw_doctor_report *rep);

/* Findings in layer order (hardware, driver, cuda, python, live,
 * environment), errors before warnings before info within a layer. */
size_t gw_doctor_finding_count(const gw_doctor_report *rep);
const gw_finding *gw_doctor_finding(const gw_doctor_report *rep, size_t i);
/* How many findings of a severity. */
size_t gw_doctor_count(const gw_doctor_report *rep, gw_severity sev);
/* One line: "ready: PyTorch 2.3.0+cu121 can use 8× NVIDIA H100 80GB HBM3",
 * "not ready: 2 errors (...)", in the user's language (gw_translate). */
const char *gw_doctor_verdict(const gw_doctor_report *rep);
/* Whether the verdict is a "ready" one (no error, a GPU usable): the
 * same in every language, as JSON's "summary"."ready". */
bool gw_doctor_ready(const gw_doctor_report *rep);
/* --deep results (0 when not asked); with --deep at least one, a check
 * that was not run saying why (not_checked). */
size_t gw_doctor_deep_count(const gw_doctor_report *rep);
const gw_doctor_deep *gw_doctor_deep_at(const gw_doctor_report *rep, size_t i);

/* The layers in report order, NULL-terminated. */
extern const char *const gw_doctor_layers[];
const char *gw_severity_name(gw_severity sev);   /* "error", "warning", "info" */

/* {"findings": [...], "summary": {...}} (plus "deep" when run), malloc'd,
 * indented by `indent` spaces (0 = compact). NULL on out of memory. */
char *gw_doctor_report_json(const gw_doctor_report *rep, int indent);

#ifdef __cplusplus
}
#endif
#endif
