/* The probe run: one report from every probe, plus the file helpers the
 * probes share (existence, root-aware symlink resolution, sorted folder
 * listings, device nodes). Every path is joined with the root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "probe/probe.h"

/* ---- file helpers ---------------------------------------------------------- */

/* Thin wrappers over lib/core (path.c): the probe files keep these names.
 * Under a root override, absolute symlinks in the tree must resolve inside
 * it (the kernel would follow them to the host): resolve them first. */
static const char *in_root(const gw_probe_ctx *c, const char *path, char *real, size_t realsz)
{
	if (c->root[0] && gw__path_resolve(c->root, path, real, realsz) == 0)
		return real;
	return path;
}

bool gw__probe_exists(const gw_probe_ctx *c, const char *path)
{
	char real[GW_PATH_MAX];

	return gw__path_exists(c->root, in_root(c, path, real, sizeof(real)));
}

bool gw__probe_is_dir(const gw_probe_ctx *c, const char *path)
{
	char real[GW_PATH_MAX];

	return gw__path_is_dir(c->root, in_root(c, path, real, sizeof(real)));
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

	if (gw__read_file(c->root, in_root(c, path, real, sizeof(real)), limit, &buf, NULL) < 0)
		return NULL;
	return buf;
}

int gw__probe_resolve(const gw_probe_ctx *c, const char *path, char *out, size_t outsz)
{
	return gw__path_resolve(c->root, path, out, outsz);
}

void gw__probe_names_free(char **names, size_t n)
{
	gw__dir_list_free(names, n);
}

int gw__probe_list_dir(const gw_probe_ctx *c, const char *path, const char *prefix, char ***names, size_t *n)
{
	char real[GW_PATH_MAX];

	/* Bounded: no real folder we look at has more matches. */
	return gw__dir_list_match(c->root, in_root(c, path, real, sizeof(real)), prefix, 4096, names, n);
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
	char real[GW_PATH_MAX];
	const char *p = in_root(c, path, real, sizeof(real));
	gw_file_stat st;

	memset(out, 0, sizeof(*out));
	gw__strlcpy(out->path, path, sizeof(out->path));
	if (gw__path_stat(c->root, p, &st) < 0)
		return;
	out->exists = true;
	out->gid = st.gid;
	out->accessible = gw__path_access(c->root, p, R_OK | W_OK) == 0;
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
		int n = gw__getgroups(c->groups, (int)GW_ARRAY_SIZE(c->groups));

		c->ngroups = n > 0 ? n : 0;
		c->real_groups = true;
		if (uid < 0)
			uid = (long)gw__getuid();
		c->gid = (unsigned)gw__getegid();
	}
	if (uid < 0)
		uid = (long)gw__getuid();
	c->uid = (unsigned)uid;
	/* Name and primary group from <root>/etc/passwd (the parser of lib/core/proc_parse.c). */
	if ((passwd = gw__probe_read(c, "/etc/passwd", 1 << 20))) {
		unsigned gid;

		if (gw__passwd_lookup(passwd, strlen(passwd), (uint32_t)uid, c->user, sizeof(c->user), &gid) == 0) {
			if (!c->real_groups)
				c->gid = gid;
			c->have_user = true;
		}
		gw__free(passwd);
	}
}

/* ---- options ------------------------------------------------------------------ */

void gw__probe_options_from_environ(gw_probe_options *o)
{
	const char *root = gw__env_path("GPUWISE_ROOT");

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
	o->env.ld_preload = getenv("LD_PRELOAD");
	o->env.nccl_p2p_disable = getenv("NCCL_P2P_DISABLE");
	o->env.nccl_ib_disable = getenv("NCCL_IB_DISABLE");
	o->env.nccl_shm_disable = getenv("NCCL_SHM_DISABLE");
	o->env.nccl_socket_ifname = getenv("NCCL_SOCKET_IFNAME");
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
		gw__probe_dist,
		gw__probe_loader,
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
