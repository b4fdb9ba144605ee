/* doctor --deep: import each framework in a subprocess of its own
 * environment's Python, with a timeout, and keep what it says next to
 * the static (file-based) verdict. This is the only part of doctor that
 * runs code from the environments; it is opt-in because imports are slow
 * and can hang in exactly the broken cases. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/spawn.h"
#include "doctor/doctor_int.h"
#include "gpuwise/explain.h"

#define OUT_MAX 4096

/* `python -c` puts the current directory first on sys.path: run from a
 * PyTorch checkout, `import torch` would load the source tree instead of
 * the environment's build. */
#define NO_CWD "import sys\nif sys.path and sys.path[0] == '': del sys.path[0]\n"

static const char torch_script[] =
	NO_CWD
	"try:\n"
	"    import torch\n"
	"    print('torch', torch.__version__, 'cuda', torch.version.cuda, 'hip', getattr(torch.version, 'hip', None))\n"
	"    a = torch.cuda.is_available()\n"
	"    print('torch.cuda.is_available()', a)\n"
	"    print('device_count', torch.cuda.device_count())\n"
	"    if a:\n"
	"        print('device', torch.cuda.get_device_name(0))\n"
	"        print('kernel', (torch.ones(1, device='cuda') * 2).item())\n"
	"        print('GW_DEEP_OK')\n"
	"except BaseException as e:\n"
	"    print('error', type(e).__name__, e)\n";

static const char tf_script[] =
	NO_CWD
	"import os\n"
	"os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')\n"
	"try:\n"
	"    import tensorflow as tf\n"
	"    g = tf.config.list_physical_devices('GPU')\n"
	"    print('tensorflow', tf.__version__, 'GPUs', len(g))\n"
	"    if g:\n"
	"        with tf.device('/GPU:0'):\n"
	"            print('kernel', float(tf.reduce_sum(tf.ones([1]) * 2)))\n"
	"        print('GW_DEEP_OK')\n"
	"except BaseException as e:\n"
	"    print('error', type(e).__name__, e)\n";

static const char jax_script[] =
	NO_CWD
	"try:\n"
	"    import jax, jax.numpy as jnp\n"
	"    d = jax.devices()\n"
	"    print('jax', jax.__version__, 'devices', d)\n"
	"    if d and d[0].platform in ('gpu', 'cuda', 'rocm'):\n"
	"        print('kernel', float((jnp.ones(1) * 2)[0]))\n"
	"        print('GW_DEEP_OK')\n"
	"except BaseException as e:\n"
	"    print('error', type(e).__name__, e)\n";

static const char cupy_script[] =
	NO_CWD
	"try:\n"
	"    import cupy\n"
	"    print('cupy', cupy.__version__, 'devices', cupy.cuda.runtime.getDeviceCount())\n"
	"    print('kernel', float((cupy.ones(1) * 2).get()[0]))\n"
	"    print('GW_DEEP_OK')\n"
	"except BaseException as e:\n"
	"    print('error', type(e).__name__, e)\n";

/* The interpreter of an environment: PREFIX/bin/python3.X, python3, python
 * for PREFIX/lib/python3.X/site-packages; /usr/bin/python3 for the
 * system's dist-packages; the system python3.X for a user site. When none
 * can run, tried is the first one looked for ("" when the site is not in
 * a PREFIX/lib folder). */
static bool find_python(const gw__doctor *d, const gw_probe_pyenv *e, char *out, size_t n, char *tried, size_t tn)
{
	char prefix[GW_PROBE_PATH], cand[GW_PATH_MAX], rel[GW_PROBE_PATH + 32];
	const char *lib = strstr(e->site, "/lib/python3");
	const char *names[3];
	char ver[32];
	bool tried_link = false;

	tried[0] = '\0';
	if (!lib)
		lib = strstr(e->site, "/lib64/python3");
	if (!lib)
		return false;
	gw__doc_fmt(prefix, sizeof(prefix), "%.*s", (int)(lib - e->site), e->site);
	if (strstr(e->site, "/.local/"))
		gw__strlcpy(prefix, "/usr", sizeof(prefix));
	gw__doc_fmt(ver, sizeof(ver), "python%s", e->python);
	names[0] = e->python[0] && strcmp(e->python, "3") ? ver : "python3";
	names[1] = "python3";
	names[2] = "python";
	for (size_t i = 0; i < 3; i++) {
		char target[GW_PATH_MAX];
		bool is_link;

		gw__doc_fmt(rel, sizeof(rel), "%s/bin/%s", prefix[0] ? prefix : "/usr", names[i]);
		/* The first name looked for, or a link that cannot run (a venv
		 * whose base interpreter was removed): that is the one to name. */
		is_link = !tried_link && gw__readlink(d->fake_root ? d->p->root : "/", rel, target, sizeof(target)) == 0;
		if (!tried[0] || is_link)
			gw__strlcpy(tried, rel, tn);
		tried_link |= is_link;
		if (gw__path_join(cand, sizeof(cand), d->fake_root ? d->p->root : "/", rel) < 0)
			continue;
		if (gw__path_access("", cand, X_OK) == 0) {
			gw__strlcpy(out, cand, n);
			return true;
		}
	}
	return false;
}

/* Why the interpreter of an environment cannot run: a link whose target
 * is missing, or no runnable file there. */
static void why_no_python(const gw__doctor *d, const char *tried, char *buf, size_t n)
{
	char target[GW_PATH_MAX];

	if (!tried[0]) {
		gw__doc_fmt(buf, n, _("not checked: no interpreter belongs to this folder (it is not in PREFIX/lib/python3.X)"));
		return;
	}
	if (gw__readlink(d->fake_root ? d->p->root : "/", tried, target, sizeof(target)) == 0 && target[0])
		gw__doc_fmt(buf, n, _("not checked: the interpreter %s is a link to %s, which cannot be run (missing?)"),
			    tried, target);
	else
		gw__doc_fmt(buf, n, _("not checked: no interpreter that can run in %.*s (looked for python3.X, python3, "
				      "python)"), (int)(strrchr(tried, '/') - tried), tried);
}

/* Append a read to out, keeping the tail: the last lines say what went
 * wrong (k is at most 1024, smaller than out, so one read always fits). */
static void keep_tail(char *out, size_t outn, size_t *used, const char *buf, size_t k)
{
	if (*used + k > outn - 1) {
		size_t drop = *used + k - (outn - 1);

		memmove(out, out + drop, *used - drop);
		*used -= drop;
	}
	memcpy(out + *used, buf, k);
	*used += k;
	out[*used] = '\0';
}

static bool cancelled(const gw__doctor *d)
{
	return d->cancel && *d->cancel;
}

struct tail {
	char *out;
	size_t outn, used;
};

static void keep_output(void *arg, const char *buf, size_t k)
{
	struct tail *t = arg;

	keep_tail(t->out, t->outn, &t->used, buf, k);
}

/* Run python -c script; keep the last OUT_MAX bytes of what it prints. */
static void run_script(const gw__doctor *d, const char *python, const char *script, double timeout, gw_doctor_deep *x,
		       char *out, size_t outn)
{
	char *argv[] = { (char *)python, (char *)"-c", (char *)script, NULL };
	struct tail t = { out, outn, 0 };
	gw__run r = { .timeout_s = timeout, .cancel = d->cancel, .merge_stderr = true, .output = keep_output, .arg = &t };

	out[0] = '\0';
	x->exit_status = -1;
	if (gw__run_program(&r, python, argv) < 0)
		return;
	x->timed_out = r.timed_out;
	x->seconds = r.seconds;
	if (!r.timed_out)
		x->exit_status = r.exit_status;
	x->ok = !r.timed_out && strstr(out, "GW_DEEP_OK") != NULL;
	while (t.used && (out[t.used - 1] == '\n' || out[t.used - 1] == ' '))
		out[--t.used] = '\0';
}

/* Error findings that concern this environment: their ids, or "no error
 * found" (the verdict alone: the CLI adds its "static: " label). */
static void static_verdict(const gw__doctor *d, const gw_probe_pyenv *e, char *buf, size_t n)
{
	buf[0] = '\0';
	for (size_t i = 0; i < d->rep->n; i++) {
		const gw_finding *f = &d->rep->f[i];

		if (f->severity == GW_SEVERITY_ERROR && (strstr(f->evidence, e->site) || strcmp(f->layer, "python")))
			gw__doc_cat(buf, n, "%s%s", buf[0] ? ", " : "", f->id);
	}
	if (!buf[0])
		gw__doc_cat(buf, n, "no error found");
}

/* The first known error in text, or NULL; its line into line. */
static const gw_finding_doc *explain_text(const char *text, size_t len, char *line, size_t n)
{
	const gw_finding_doc *doc = NULL;
	gw_explainer *ex;

	if (gw_explainer_new(&ex) < 0)
		return NULL;
	gw_explainer_feed(ex, text, len);
	gw_explainer_finish(ex);
	if (gw_explainer_count(ex)) {
		const gw_explain_match *m = gw_explainer_match(ex, 0);

		doc = m->doc;
		gw__strlcpy(line, m->excerpt, n);
	}
	gw_explainer_free(ex);
	return doc;
}

/* A failed check's output through explain: the exception line the script
 * printed ("error <Type> <message>", the last one) says why it failed;
 * earlier lines (warnings, a first OSError) count only when that line names
 * nothing known. */
static const gw_finding_doc *explain_failure(const char *out, char *line, size_t n)
{
	const char *err = NULL;
	const gw_finding_doc *doc;

	line[0] = '\0';
	for (const char *p = out; *p;) {
		const char *nl = strchr(p, '\n');

		if (!strncmp(p, "error ", 6))
			err = p;
		if (!nl)
			break;
		p = nl + 1;
	}
	if (err && (doc = explain_text(err, strcspn(err, "\n"), line, n)))
		return doc;
	return explain_text(out, strlen(out), line, n);
}

/* The fix of the static finding with this id for environment e: it was
 * made for this machine (the wheel this driver runs), where the
 * catalogue's is generic. NULL when the static checks did not see it. */
static const char *static_fix(const gw__doctor *d, const gw_probe_pyenv *e, const char *id)
{
	for (size_t i = 0; i < d->rep->n; i++) {
		const gw_finding *f = &d->rep->f[i];

		if (!strcmp(f->id, id) && f->fix[0] && (strstr(f->evidence, e->site) || strcmp(f->layer, "python")))
			return f->fix;
	}
	return NULL;
}

static int add_deep(gw__doctor *d, const gw_probe_pyenv *e, const char *python, gw_fw_kind kind, const char *script)
{
	gw_doctor_report *r = d->rep;
	gw_doctor_deep *x, *nd;
	char out[OUT_MAX], verdict[512], line[GW_EXPLAIN_EXCERPT_MAX] = "";
	const char *fix;
	double timeout = d->opts->deep_timeout_s > 0 ? d->opts->deep_timeout_s : 20.0;

	if (!(nd = gw__realloc(r->deep, (r->ndeep + 1) * sizeof(*nd))))
		return GW_ENOMEM;
	r->deep = nd;
	x = &r->deep[r->ndeep];
	memset(x, 0, sizeof(*x));
	x->framework = gw__fw_kind_name(kind);
	static_verdict(d, e, verdict, sizeof(verdict));
	run_script(d, python, script, timeout, x, out, sizeof(out));
	if (!x->ok)
		x->explained = explain_failure(out, line, sizeof(line));
	x->site = gw__strdup(e->site);
	x->python = gw__strdup(python);
	x->static_verdict = gw__strdup(verdict);
	x->output = gw__strdup(out);
	x->explained_line = gw__strdup(line);
	r->ndeep++;
	if (!x->site || !x->python || !x->static_verdict || !x->output || !x->explained_line)
		return GW_ENOMEM;
	if (x->explained && (fix = static_fix(d, e, x->explained->id)) && !(x->explained_fix = gw__strdup(fix)))
		return GW_ENOMEM;
	return 0;
}

/* A check that was not run: why (reason), for framework kind in e (NULL:
 * no environment had a framework). */
static int add_not_checked(gw__doctor *d, const gw_probe_pyenv *e, gw_fw_kind kind, const char *python,
			   const char *reason)
{
	gw_doctor_report *r = d->rep;
	gw_doctor_deep *x, *nd;

	if (!(nd = gw__realloc(r->deep, (r->ndeep + 1) * sizeof(*nd))))
		return GW_ENOMEM;
	r->deep = nd;
	x = &r->deep[r->ndeep++];
	memset(x, 0, sizeof(*x));
	x->framework = e ? gw__fw_kind_name(kind) : "";
	x->exit_status = -1;
	x->site = gw__strdup(e ? e->site : "");
	x->python = gw__strdup(python);
	x->static_verdict = gw__strdup("");
	x->output = gw__strdup("");
	x->explained_line = gw__strdup("");
	x->not_checked = gw__strdup(reason);
	if (!x->site || !x->python || !x->static_verdict || !x->output || !x->explained_line || !x->not_checked)
		return GW_ENOMEM;
	return 0;
}

static const char *deep_script(gw_fw_kind kind)
{
	switch (kind) {
	case GW_FW_TORCH: return torch_script;
	case GW_FW_TENSORFLOW: return tf_script;
	case GW_FW_JAX: return jax_script;
	case GW_FW_CUPY: return cupy_script;
	default: return NULL;
	}
}

int gw__doctor_deep(gw__doctor *d)
{
	bool any = false;

	for (size_t e = 0; e < d->p->nenvs; e++) {
		const gw_probe_pyenv *env = &d->p->envs[e];
		bool done[GW_FW_KIND_COUNT] = { false };
		char python[GW_PATH_MAX], tried[GW_PROBE_PATH + 32], why[GW_PATH_MAX + 256];
		bool have_python;

		have_python = find_python(d, env, python, sizeof(python), tried, sizeof(tried));
		if (!have_python)
			why_no_python(d, tried, why, sizeof(why));
		for (size_t i = 0; i < env->nfw; i++) {
			const gw_probe_framework *f = &env->fw[i];
			const char *script = deep_script(f->kind);
			int rc;

			if (!f->primary || done[f->kind] || !script)
				continue;
			done[f->kind] = true;
			any = true;
			if (cancelled(d))
				return gw__error_set(GW_EGENERIC, "interrupted");
			rc = have_python ? add_deep(d, env, python, f->kind, script)
					 : add_not_checked(d, env, f->kind, tried, why);
			if (rc < 0)
				return GW_ENOMEM;
		}
	}
	if (!any && add_not_checked(d, NULL, GW_FW_TORCH, "",
				    _("not checked: no PyTorch, TensorFlow, JAX or CuPy found in any Python environment "
				      "(give one with --python-env)")) < 0)
		return GW_ENOMEM;
	return cancelled(d) ? gw__error_set(GW_EGENERIC, "interrupted") : 0;
}
