/* The probe run: one report from every probe, plus the file helpers the
 * probes share (existence, root-aware symlink resolution, sorted folder
 * listings, device nodes). Every path is joined with the root. */
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "probe/probe.h"

/* ---- file helpers ---------------------------------------------------------- */

/* Under a root override, absolute symlinks in the tree must resolve inside
 * it (the kernel would follow them to the host): resolve them ourselves. */
static int full_path(const gw_probe_ctx *c, const char *path, char *full, size_t fullsz)
{
	char real[GW_PATH_MAX];

	if (c->root[0] && gw__probe_resolve(c, path, real, sizeof(real)) == 0)
		path = real;
	return gw__path_join(full, fullsz, c->root, path);
}

static bool stat_path(const gw_probe_ctx *c, const char *path, struct stat *st)
{
	char full[GW_PATH_MAX];

	if (full_path(c, path, full, sizeof(full)) < 0)
		return false;
	return stat(full, st) == 0;
}

bool gw__probe_exists(const gw_probe_ctx *c, const char *path)
{
	struct stat st;

	return stat_path(c, path, &st);
}

bool gw__probe_is_dir(const gw_probe_ctx *c, const char *path)
{
	struct stat st;

	return stat_path(c, path, &st) && S_ISDIR(st.st_mode);
}

bool gw__probe_join(char *out, size_t outsz, const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	bool slash;

	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	slash = !(dl == 1 && dir[0] == '/');
	if (dl + slash + nl + 1 > outsz)
		return false;
	/* out may be dir itself (join in place): move name first, then dir. */
	memmove(out + dl + slash, name, nl + 1);
	memmove(out, dir, dl);
	if (slash)
		out[dl] = '/';
	return true;
}

char *gw__probe_read(const gw_probe_ctx *c, const char *path, size_t limit)
{
	char *buf = NULL;
	char real[GW_PATH_MAX];

	if (c->root[0] && gw__probe_resolve(c, path, real, sizeof(real)) == 0)
		path = real;
	if (gw__read_file(c->root, path, limit, &buf, NULL) < 0)
		return NULL;
	return buf;
}

/* a + sep + b into out; false when it does not fit. */
static bool concat(char *out, size_t outsz, const char *a, const char *sep, const char *b)
{
	size_t al = strlen(a), sl = strlen(sep), bl = strlen(b);

	if (al + sl + bl + 1 > outsz)
		return false;
	memmove(out + al + sl, b, bl + 1);
	memmove(out, a, al);
	memcpy(out + al, sep, sl);
	return true;
}

/* Resolve component by component so that an absolute link target stays
 * inside the root (a fake tree's /usr/local/cuda -> /usr/local/cuda-12.4). */
int gw__probe_resolve(const gw_probe_ctx *c, const char *path, char *out, size_t outsz)
{
	char pending[GW_PATH_MAX];    /* what is left to walk */
	char done[GW_PATH_MAX] = "";  /* resolved prefix, root-relative */
	int links = 0;

	if (!path || path[0] != '/' || strlen(path) >= sizeof(pending))
		return GW_EINVAL;
	gw__strlcpy(pending, path, sizeof(pending));
	while (pending[0]) {
		char comp[NAME_MAX + 1];
		char *p = pending;
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n > NAME_MAX)
			return GW_EINVAL;
		memcpy(comp, p, n);
		comp[n] = '\0';
		memmove(pending, p + n, strlen(p + n) + 1);
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *slash = strrchr(done, '/');

			if (slash)
				*slash = '\0';
			continue;
		}
		{
			char cand[GW_PATH_MAX], full[GW_PATH_MAX], target[GW_PATH_MAX];
			ssize_t tl;

			if (!concat(cand, sizeof(cand), done, "/", comp))
				return GW_EINVAL;
			if (gw__path_join(full, sizeof(full), c->root, cand) < 0)
				return GW_EINVAL;
			tl = readlink(full, target, sizeof(target) - 1);
			if (tl < 0) {
				gw__strlcpy(done, cand, sizeof(done));
				continue;     /* not a link, or absent: keep it as written */
			}
			target[tl] = '\0';
			if (++links > 40)
				return GW_EINVAL;
			if (strlen(target) + strlen(pending) + 2 >= sizeof(pending))
				return GW_EINVAL;
			{
				char rest[GW_PATH_MAX];

				gw__strlcpy(rest, pending, sizeof(rest));
				if (!concat(pending, sizeof(pending), target, "/", rest))
					return GW_EINVAL;
			}
			if (target[0] == '/')
				done[0] = '\0';
		}
	}
	if (!done[0])
		gw__strlcpy(done, "/", sizeof(done));
	if (strlen(done) >= outsz)
		return GW_EINVAL;
	gw__strlcpy(out, done, outsz);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void gw__probe_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		gw__free(names[i]);
	gw__free(names);
}

int gw__probe_list_dir(const gw_probe_ctx *c, const char *path, const char *prefix, char ***names, size_t *n)
{
	char full[GW_PATH_MAX];
	size_t pl = strlen(prefix), cnt = 0, cap = 0;
	char **v = NULL;
	DIR *d;
	struct dirent *e;

	*names = NULL;
	*n = 0;
	if (full_path(c, path, full, sizeof(full)) < 0 || !(d = opendir(full)))
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		if (strncmp(e->d_name, prefix, pl))
			continue;
		if (cnt == 4096)
			break;   /* bounded: no real folder we look at has more matches */
		if (cnt == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			char **nv = gw__realloc(v, ncap * sizeof(*v));

			if (!nv)
				goto nomem;
			v = nv;
			cap = ncap;
		}
		if (!(v[cnt] = gw__strdup(e->d_name)))
			goto nomem;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_names);
	*names = v;
	*n = cnt;
	return 0;
nomem:
	closedir(d);
	gw__probe_names_free(v, cnt);
	return gw__error_set(GW_ENOMEM, "out of memory listing '%s'", path);
}

static bool user_has_gid(const gw_probe_ctx *c, unsigned gid)
{
	if (c->have_user && gid == c->gid)
		return true;
	for (int i = 0; i < c->ngroups; i++)
		if (c->groups[i] == gid)
			return true;
	return false;
}

void gw__probe_node(gw_probe_ctx *c, const char *path, gw_probe_node *out)
{
	char full[GW_PATH_MAX];
	struct stat st;

	memset(out, 0, sizeof(*out));
	gw__strlcpy(out->path, path, sizeof(out->path));
	if (full_path(c, path, full, sizeof(full)) < 0 || stat(full, &st) != 0)
		return;
	out->exists = true;
	out->gid = (unsigned)st.st_gid;
	out->accessible = access(full, R_OK | W_OK) == 0;
	if (c->etc_group) {
		bool member = gw__parse_group_member(c->etc_group, out->gid, c->have_user ? c->user : NULL,
						     c->have_user ? c->gid : (unsigned)-1, out->group, sizeof(out->group));
		out->user_in_group = c->real_groups ? user_has_gid(c, out->gid) : member;
	} else {
		out->user_in_group = user_has_gid(c, out->gid);
	}
}

/* ---- who is asking ------------------------------------------------------------ */

static void find_user(gw_probe_ctx *c)
{
	long uid = c->opts->uid;
	char *passwd;

	c->etc_group = gw__probe_read(c, "/etc/group", 1 << 20);
	if (c->opts->real_system) {
		gid_t g[64];
		int n = getgroups((int)GW_ARRAY_SIZE(g), g);

		for (int i = 0; i < n && i < (int)GW_ARRAY_SIZE(c->groups); i++)
			c->groups[c->ngroups++] = (unsigned)g[i];
		c->real_groups = true;
		if (uid < 0)
			uid = (long)getuid();
		c->gid = (unsigned)getegid();
	}
	if (uid < 0)
		uid = (long)getuid();
	c->uid = (unsigned)uid;
	/* Name and primary group from <root>/etc/passwd ("name:x:uid:gid:..."). */
	if ((passwd = gw__probe_read(c, "/etc/passwd", 1 << 20))) {
		for (char *line = passwd; line && *line;) {
			char *eol = strchr(line, '\n');
			char *f[5];
			int nf = 1;

			if (eol)
				*eol = '\0';
			f[0] = line;
			for (char *p = line; *p && nf < 5; p++)
				if (*p == ':') {
					*p = '\0';
					f[nf++] = p + 1;
				}
			if (nf == 5) {
				uint64_t u, g;

				if (gw__parse_u64(f[2], &u) == 0 && u == (uint64_t)uid && gw__parse_u64(f[3], &g) == 0) {
					gw__strlcpy(c->user, f[0], sizeof(c->user));
					if (!c->real_groups)
						c->gid = (unsigned)g;
					c->have_user = true;
					break;
				}
			}
			line = eol ? eol + 1 : NULL;
		}
		gw__free(passwd);
	}
}

/* ---- options ------------------------------------------------------------------ */

void gw__probe_options_from_environ(gw_probe_options *o)
{
	const char *root = getenv("GPUWISE_ROOT");

	memset(o, 0, sizeof(*o));
	o->root = root && root[0] ? root : "/";
	o->real_system = !(root && root[0] && strcmp(root, "/"));
	o->uid = -1;
	o->env.path = getenv("PATH");
	o->env.ld_library_path = getenv("LD_LIBRARY_PATH");
	o->env.cuda_home = getenv("CUDA_HOME");
	o->env.cuda_path = getenv("CUDA_PATH");
	o->env.cuda_visible_devices = getenv("CUDA_VISIBLE_DEVICES");
	o->env.cuda_device_order = getenv("CUDA_DEVICE_ORDER");
	o->env.virtual_env = getenv("VIRTUAL_ENV");
	o->env.conda_prefix = getenv("CONDA_PREFIX");
	o->env.home = getenv("HOME");
	o->env.hsa_override_gfx_version = getenv("HSA_OVERRIDE_GFX_VERSION");
	o->env.nvidia_visible_devices = getenv("NVIDIA_VISIBLE_DEVICES");
	o->env.kubernetes_service_host = getenv("KUBERNETES_SERVICE_HOST");
}

/* ---- run ------------------------------------------------------------------------ */

static int dup_opt(char **dst, const char *src)
{
	if (!src)
		return 0;
	if (!(*dst = gw__strdup(src)))
		return gw__error_set(GW_ENOMEM, "out of memory");
	return 0;
}

void gw__probe_free(gw_probe_report *r)
{
	if (!r)
		return;
	gw__free(r->cuda_visible_devices);
	gw__free(r->cuda_device_order);
	gw__free(r->ld_library_path);
	gw__free(r->path);
	gw__free(r->cuda_home);
	gw__free(r);
}

int gw__probe_run(gw_probe_report **out, const gw_probe_options *opts)
{
	gw_probe_ctx c;
	gw_probe_report *r;
	int rc;
	int (*const probes[])(gw_probe_ctx *) = {
		gw__probe_hardware,
		gw__probe_nvidia_driver,
		gw__probe_cuda,
		gw__probe_python,
		gw__probe_amd,
		gw__probe_sysenv,
		gw__probe_xids,
	};

	if (!out || !opts)
		return gw__error_set(GW_EINVAL, "probe run without options");
	if (!(r = gw__calloc(1, sizeof(*r))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	memset(&c, 0, sizeof(c));
	c.opts = opts;
	c.r = r;
	c.root = opts->root && strcmp(opts->root, "/") ? opts->root : "";
	gw__strlcpy(r->root, opts->root ? opts->root : "/", sizeof(r->root));
	r->nvcc_toolkit = -1;
	r->cuda_home_toolkit = -1;
	for (size_t i = 0; i < GW_CUDALIB_COUNT; i++)
		r->ld_first[i] = -1;
	if ((rc = dup_opt(&r->cuda_visible_devices, opts->env.cuda_visible_devices)) < 0 ||
	    (rc = dup_opt(&r->cuda_device_order, opts->env.cuda_device_order)) < 0 ||
	    (rc = dup_opt(&r->ld_library_path, opts->env.ld_library_path)) < 0 ||
	    (rc = dup_opt(&r->path, opts->env.path)) < 0 ||
	    (rc = dup_opt(&r->cuda_home, opts->env.cuda_home ? opts->env.cuda_home : opts->env.cuda_path)) < 0)
		goto fail;
	find_user(&c);
	for (size_t i = 0; i < GW_ARRAY_SIZE(probes); i++)
		if ((rc = probes[i](&c)) < 0)
			goto fail;
	gw__free(c.etc_group);
	*out = r;
	return 0;
fail:
	gw__free(c.etc_group);
	gw__probe_free(r);
	return rc;
}
