/* doctor --deep: import each framework in a subprocess of its own
 * environment's Python, with a timeout, and keep what it says next to
 * the static (file-based) verdict. This is the only part of doctor that
 * runs code from the environments; it is opt-in because imports are slow
 * and can hang in exactly the broken cases. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doctor/doctor_int.h"

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

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The interpreter of an environment: PREFIX/bin/python3.X, python3, python
 * for PREFIX/lib/python3.X/site-packages; /usr/bin/python3 for the
 * system's dist-packages; the system python3.X for a user site. */
static bool find_python(const gw__doctor *d, const gw_probe_pyenv *e, char *out, size_t n)
{
	char prefix[GW_PROBE_PATH], cand[GW_PATH_MAX], rel[GW_PROBE_PATH + 32];
	const char *lib = strstr(e->site, "/lib/python3");
	const char *names[3];
	char ver[32];

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
		gw__doc_fmt(rel, sizeof(rel), "%s/bin/%s", prefix[0] ? prefix : "/usr", names[i]);
		if (gw__path_join(cand, sizeof(cand), d->fake_root ? d->p->root : "/", rel) < 0)
			continue;
		if (access(cand, X_OK) == 0) {
			gw__strlcpy(out, cand, n);
			return true;
		}
	}
	return false;
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

/* Run python -c script; collect at most OUT_MAX bytes of its output. It
 * ends when the interpreter exits, not when the pipe closes: a process the
 * import left behind may hold the pipe open for ever. Whatever it started
 * ends with it (gw__spawn_end), on exit, on timeout and on cancel. */
static void run_script(const gw__doctor *d, const char *python, const char *script, double timeout, gw_doctor_deep *x,
		       char *out, size_t outn)
{
	char *argv[] = { (char *)python, (char *)"-c", (char *)script, NULL };
	int fds[2];
	gw__spawn sp;
	size_t used = 0;
	double start = now_s(), deadline = start + timeout;
	int status;
	bool exited = false, eof = false;

	out[0] = '\0';
	x->exit_status = -1;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return;
	if (gw__spawn_start(&sp, python, argv, fds[1]) < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	close(fds[1]);
	for (;;) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		double left = deadline - now_s();
		char buf[1024];
		ssize_t k;
		int r;

		if (!exited && gw__spawn_exited(&sp))
			exited = true;
		if (exited && eof)
			break;
		if (cancelled(d))
			break;
		if (!exited && left <= 0) {
			x->timed_out = 1;
			break;
		}
		/* After EOF (it closed its output) only wait for the exit;
		 * once it has exited, only drain what is already there. */
		r = poll(&pfd, eof ? 0 : 1, exited ? 0 : left > 0.05 ? 50 : (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || eof) {
			if (exited)
				break;
			continue;
		}
		k = read(fds[0], buf, sizeof(buf));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			eof = true;
		else
			keep_tail(out, outn, &used, buf, (size_t)k);
	}
	close(fds[0]);
	/* The interpreter on timeout or cancel, and anything it left. */
	status = gw__spawn_end(&sp);
	x->seconds = now_s() - start;
	if (!x->timed_out)
		x->exit_status = exited && status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	x->ok = !x->timed_out && strstr(out, "GW_DEEP_OK") != NULL;
	while (used && (out[used - 1] == '\n' || out[used - 1] == ' '))
		out[--used] = '\0';
}

/* Error findings that concern this environment, as "static: ..." text. */
static void static_verdict(const gw__doctor *d, const gw_probe_pyenv *e, char *buf, size_t n)
{
	gw__doc_fmt(buf, n, "static: ");
	for (size_t i = 0; i < d->rep->n; i++) {
		const gw_finding *f = &d->rep->f[i];

		if (f->severity == GW_SEVERITY_ERROR && (strstr(f->evidence, e->site) || strcmp(f->layer, "python")))
			gw__doc_cat(buf, n, "%s%s", strlen(buf) > 8 ? ", " : "", f->id);
	}
	if (strlen(buf) == 8)
		gw__doc_cat(buf, n, "no error found");
}

static int add_deep(gw__doctor *d, const gw_probe_pyenv *e, const char *python, gw_fw_kind kind, const char *script)
{
	gw_doctor_report *r = d->rep;
	gw_doctor_deep *x, *nd;
	char out[OUT_MAX], verdict[512];
	double timeout = d->opts->deep_timeout_s > 0 ? d->opts->deep_timeout_s : 20.0;

	if (!(nd = gw__realloc(r->deep, (r->ndeep + 1) * sizeof(*nd))))
		return GW_ENOMEM;
	r->deep = nd;
	x = &r->deep[r->ndeep];
	memset(x, 0, sizeof(*x));
	x->framework = gw__fw_kind_name(kind);
	static_verdict(d, e, verdict, sizeof(verdict));
	run_script(d, python, script, timeout, x, out, sizeof(out));
	x->site = gw__strdup(e->site);
	x->python = gw__strdup(python);
	x->static_verdict = gw__strdup(verdict);
	x->output = gw__strdup(out);
	r->ndeep++;
	if (!x->site || !x->python || !x->static_verdict || !x->output)
		return GW_ENOMEM;
	return 0;
}

int gw__doctor_deep(gw__doctor *d)
{
	for (size_t e = 0; e < d->p->nenvs; e++) {
		const gw_probe_pyenv *env = &d->p->envs[e];
		bool done[GW_FW_KIND_COUNT] = { false };
		char python[GW_PATH_MAX];

		if (!find_python(d, env, python, sizeof(python)))
			continue;
		for (size_t i = 0; i < env->nfw; i++) {
			const gw_probe_framework *f = &env->fw[i];
			const char *script = NULL;

			if (!f->primary || done[f->kind])
				continue;
			done[f->kind] = true;
			switch (f->kind) {
			case GW_FW_TORCH: script = torch_script; break;
			case GW_FW_TENSORFLOW: script = tf_script; break;
			case GW_FW_JAX: script = jax_script; break;
			case GW_FW_CUPY: script = cupy_script; break;
			default: break;
			}
			if (cancelled(d))
				return gw__error_set(GW_EGENERIC, "interrupted");
			if (script && add_deep(d, env, python, f->kind, script) < 0)
				return GW_ENOMEM;
		}
	}
	return cancelled(d) ? gw__error_set(GW_EGENERIC, "interrupted") : 0;
}
