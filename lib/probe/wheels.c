/* The CUDA wheels a framework loads at import, from its own METADATA.
 *
 * A PyPI torch wheel names the nvidia-*-cu12 wheels it was linked against
 * (`Requires-Dist: nvidia-cublas-cu12==12.4.5.8; platform_system ==
 * "Linux" and platform_machine == "x86_64"`); `pip install --no-deps` or a
 * half-copied environment leaves them out and `import torch` fails. Here
 * each framework dist's requirements on CUDA wheels (nvidia-*, and the
 * jax-cuda*-pjrt a JAX plugin needs) are evaluated for this environment
 * and compared with the dists installed in it.
 *
 * Markers: platform_machine is the one the framework's own wheel was built
 * for (its WHEEL tag), python_version the environment's; a marker doctor
 * cannot evaluate leaves its requirement out (never a guess).
 *
 * Extras: a requirement behind an extra (TensorFlow's `and-cuda`, the JAX
 * plugin's `with_cuda`) counts only when the user evidently asked for that
 * extra: at least one wheel of the extra is installed that no framework in
 * the environment requires unconditionally. So TensorFlow next to a
 * complete PyTorch (whose nvidia wheels TF's and-cuda also names) or TF
 * on a system CUDA is not told to install and-cuda, while an and-cuda
 * install with wheels missing is. */
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "probe/probe.h"

#define MAX_REQS 64

typedef struct req {
	size_t fw;                /* index into e->fw */
	char dist[40];
	char spec[40];
	char extra[24];           /* "" = applies unconditionally */
} req;

/* The wheels whose absence stops a framework's GPU use. */
static bool cuda_wheel(const char *norm)
{
	size_t l = strlen(norm);

	if (!strncmp(norm, "nvidia-", 7))
		return true;
	return !strncmp(norm, "jax-cuda", 8) && l > 5 && !strcmp(norm + l - 5, "-pjrt");
}

static void add_req(req *reqs, size_t *nr, size_t fw, const gw_requirement *r, const char *extra)
{
	for (size_t i = 0; i < *nr; i++)
		if (reqs[i].fw == fw && !strcmp(reqs[i].dist, r->name) && !strcmp(reqs[i].extra, extra))
			return;
	if (*nr == MAX_REQS)
		return;
	reqs[*nr].fw = fw;
	gw__strlcpy(reqs[*nr].dist, r->name, sizeof(reqs[*nr].dist));
	gw__strlcpy(reqs[*nr].spec, r->spec, sizeof(reqs[*nr].spec));
	gw__strlcpy(reqs[*nr].extra, extra, sizeof(reqs[*nr].extra));
	(*nr)++;
}

/* The METADATA's CUDA-wheel requirements that apply here, and those that
 * apply once an extra is asked for. */
static void read_reqs(gw_probe_ctx *c, const gw_probe_pyenv *e, size_t fw, const char *metadata, req *reqs,
		      size_t *nr)
{
	char wheel_path[GW_PROBE_PATH], machine[16] = "", line[512];
	char *text, *wheel;
	const char *cursor, *slash;
	gw_marker_env env = { "Linux", "linux", "posix", NULL, e->python[0] ? e->python : NULL, NULL };

	if (!(text = gw__probe_read(c, metadata, 512 * 1024)))
		return;
	slash = strrchr(metadata, '/');
	if (slash && (size_t)(slash - metadata) + 7 < sizeof(wheel_path)) {
		memcpy(wheel_path, metadata, (size_t)(slash - metadata));
		strcpy(wheel_path + (slash - metadata), "/WHEEL");
		if ((wheel = gw__probe_read(c, wheel_path, 16 * 1024))) {
			if (gw__parse_wheel_machine(wheel, machine, sizeof(machine)) == 0)
				env.platform_machine = machine;
			gw__free(wheel);
		}
	}
	cursor = text;
	while (gw__metadata_next(&cursor, "Requires-Dist", line, sizeof(line)) == 0) {
		gw_requirement r;
		char extra[24];
		int on;

		if (gw__parse_requirement(line, &r) < 0 || !cuda_wheel(r.name))
			continue;
		env.extra = NULL;
		if ((on = gw__marker_eval(r.marker, &env)) == 1) {
			add_req(reqs, nr, fw, &r, "");
			continue;
		}
		gw__marker_extra(r.marker, extra, sizeof(extra));
		if (on == 0 && extra[0]) {
			env.extra = extra;
			if (gw__marker_eval(r.marker, &env) == 1)
				add_req(reqs, nr, fw, &r, extra);
		}
	}
	gw__free(text);
}

static const gw_probe_dist *installed(const gw_probe_dist *d, size_t nd, const char *norm)
{
	for (size_t i = 0; i < nd; i++)
		if (!strcmp(d[i].norm, norm))
			return &d[i];
	return NULL;
}

/* Some framework requires this wheel whatever extras were asked for. */
static bool claimed(const req *reqs, size_t nr, const char *dist)
{
	for (size_t i = 0; i < nr; i++)
		if (!reqs[i].extra[0] && !strcmp(reqs[i].dist, dist))
			return true;
	return false;
}

static bool extra_asked(const req *reqs, size_t nr, size_t fw, const char *extra, const gw_probe_dist *d, size_t nd)
{
	for (size_t i = 0; i < nr; i++)
		if (reqs[i].fw == fw && !strcmp(reqs[i].extra, extra) && installed(d, nd, reqs[i].dist) &&
		    !claimed(reqs, nr, reqs[i].dist))
			return true;
	return false;
}

static void check(gw_probe_framework *f, const req *r, const gw_probe_dist *d, size_t nd)
{
	const gw_probe_dist *have = installed(d, nd, r->dist);
	gw_probe_fw_wheel *w;

	f->wheels_required++;
	if (have && gw__version_spec_match(r->spec, &have->version) != 0)
		return;                  /* satisfied, or a version doctor cannot compare */
	if (have)
		f->wheels_wrong++;
	else
		f->wheels_missing++;
	if (f->nwheels_bad == GW_PROBE_MAX_FW_WHEELS)
		return;
	w = &f->wheels_bad[f->nwheels_bad++];
	gw__strlcpy(w->dist, r->dist, sizeof(w->dist));
	gw__strlcpy(w->spec, r->spec, sizeof(w->spec));
	gw__strlcpy(w->have, have ? have->version.text : "", sizeof(w->have));
}

void gw__probe_fw_wheels(gw_probe_ctx *c, gw_probe_pyenv *e, const gw_probe_dist *dists, size_t ndists)
{
	req *reqs = gw__calloc(MAX_REQS, sizeof(*reqs));
	size_t nr = 0;

	if (!reqs)
		return;                  /* out of memory: the check is skipped, never guessed */
	for (size_t i = 0; i < e->nfw; i++)
		if (e->fw[i].metadata[0])
			read_reqs(c, e, i, e->fw[i].metadata, reqs, &nr);
	for (size_t i = 0; i < nr; i++) {
		gw_probe_framework *f = &e->fw[reqs[i].fw];
		bool first = true;

		if (!reqs[i].extra[0]) {
			check(f, &reqs[i], dists, ndists);
			continue;
		}
		/* Judge an extra once, at its first requirement. */
		for (size_t j = 0; j < i && first; j++)
			first = !(reqs[j].fw == reqs[i].fw && !strcmp(reqs[j].extra, reqs[i].extra));
		if (!first || !extra_asked(reqs, nr, reqs[i].fw, reqs[i].extra, dists, ndists))
			continue;
		gw__strlcpy(f->wheels_extra, reqs[i].extra, sizeof(f->wheels_extra));
		for (size_t j = i; j < nr; j++)
			if (reqs[j].fw == reqs[i].fw && !strcmp(reqs[j].extra, reqs[i].extra))
				check(f, &reqs[j], dists, ndists);
	}
	gw__free(reqs);
}
