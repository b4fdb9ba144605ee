/* Hardware on the PCI bus and the NVIDIA driver stack: which GPUs exist
 * and which kernel driver holds each, the nvidia kernel module and its
 * version, the user-space driver libraries the loader would pick, and the
 * /dev/nvidia* nodes. */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/pci.h"
#include "probe/probe.h"

/* ---- PCI ------------------------------------------------------------------ */

/* The GPUs on the bus, found by the one scanner of lib/core/pci.c (the pci
 * and amdgpu backends walk the same list). */
int gw__probe_hardware(gw_probe_ctx *c)
{
	gw_probe_report *r = c->r;
	gw_pci_fn *fns;
	size_t n;
	int rc;

	if ((rc = gw__pci_scan(c->root, &fns, &n)) < 0)
		return rc == GW_ENOMEM ? rc : 0;
	for (size_t i = 0; i < n; i++) {
		const gw_pci_fn *f = &fns[i];
		gw_probe_pci_gpu *g;

		if (r->ngpus == GW_PROBE_MAX_GPUS) {
			r->truncated = true;
			break;
		}
		g = &r->gpus[r->ngpus++];
		gw__strlcpy(g->bus_id, f->bus_id, sizeof(g->bus_id));
		g->vendor_id = f->vendor;
		g->vendor = gw__pci_vendor(f->vendor);
		g->device_id = f->have_device ? f->device : 0;
		g->subsys_vendor_id = f->have_subsys ? f->subsys_vendor : 0;
		g->subsys_device_id = f->have_subsys ? f->subsys_device : 0;
		g->class_code = f->class_code;
		gw__strlcpy(g->driver, f->driver, sizeof(g->driver));
		if (g->vendor == GW_VENDOR_NVIDIA)
			g->model = gw__tbl_nvidia_gpu_by_id(g->device_id);
	}
	gw__free(fns);
	return 0;
}

/* ---- kernel modules ------------------------------------------------------ */

static bool module_loaded(gw_probe_ctx *c, const char *modules, const char *name)
{
	char path[128];

	if (modules && gw__parse_proc_modules(modules, name))
		return true;
	/* /sys/module/<name>/initstate exists only for loaded loadable modules;
	 * the folder alone can exist for parameters of a built-in. */
	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	if (gw__probe_exists(c, path))
		return true;
	snprintf(path, sizeof(path), "/sys/module/%s/version", name);
	return !modules && gw__probe_exists(c, path);
}

/* ---- user-space driver libraries ------------------------------------------ */

/* The folders the dynamic loader searches, in its order: LD_LIBRARY_PATH,
 * /etc/ld.so.conf.d conf files (the cache is built from them), the defaults. */
typedef struct libdirs {
	char dir[48][GW_PROBE_PATH];
	const char *origin[48];
	size_t n;
} libdirs;

static void add_dir(libdirs *d, const char *dir, const char *origin)
{
	size_t len = strlen(dir);

	if (!len || dir[0] != '/' || len >= GW_PROBE_PATH || d->n == GW_ARRAY_SIZE(d->dir))
		return;
	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (size_t i = 0; i < d->n; i++)
		if (strlen(d->dir[i]) == len && !strncmp(d->dir[i], dir, len))
			return;
	memcpy(d->dir[d->n], dir, len);
	d->dir[d->n][len] = '\0';
	d->origin[d->n++] = origin;
}

static void add_path_list(libdirs *d, const char *list, const char *origin)
{
	char one[GW_PROBE_PATH];

	while (list && *list) {
		size_t n = strcspn(list, ":");

		if (n && n < sizeof(one)) {
			memcpy(one, list, n);
			one[n] = '\0';
			add_dir(d, one, origin);
		}
		list += n;
		if (*list == ':')
			list++;
	}
}

static void add_ld_so_conf(gw_probe_ctx *c, libdirs *d)
{
	char **names;
	size_t n;

	if (gw__probe_list_dir(c, "/etc/ld.so.conf.d", "", &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		char path[GW_PATH_MAX];
		char *text;
		size_t nl = strlen(names[i]);

		if (nl < 5 || strcmp(names[i] + nl - 5, ".conf") || !gw__probe_join(path, sizeof(path), "/etc/ld.so.conf.d", names[i]))
			continue;
		if (!(text = gw__probe_read(c, path, 64 * 1024)))
			continue;
		char *save = NULL;

		for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			while (*line == ' ' || *line == '\t')
				line++;
			line[strcspn(line, " \t#\r")] = '\0';
			if (line[0] == '/')
				add_dir(d, line, "ld.so.conf");
		}
		gw__free(text);
	}
	gw__probe_names_free(names, n);
}

/* /lib/x86_64-linux-gnu is /usr/lib/x86_64-linux-gnu on merged-/usr
 * systems: keep the first of folders that resolve to the same place. */
static void dedupe_dirs(gw_probe_ctx *c, libdirs *d)
{
	size_t out = 0;

	for (size_t i = 0; i < d->n; i++) {
		char ri[GW_PROBE_PATH], rj[GW_PROBE_PATH];
		bool dup = false;

		if (gw__probe_resolve(c, d->dir[i], ri, sizeof(ri)) < 0)
			gw__strlcpy(ri, d->dir[i], sizeof(ri));
		for (size_t j = 0; j < out && !dup; j++)
			dup = gw__probe_resolve(c, d->dir[j], rj, sizeof(rj)) == 0 && !strcmp(ri, rj);
		if (dup)
			continue;
		if (out != i) {
			memcpy(d->dir[out], d->dir[i], sizeof(d->dir[out]));
			d->origin[out] = d->origin[i];
		}
		out++;
	}
	d->n = out;
}

static void collect_lib(gw_probe_ctx *c, const libdirs *d, const char *base, gw_probe_libfile *out, size_t *nout,
			bool *truncated)
{
	char soname[64];

	snprintf(soname, sizeof(soname), "%s.1", base);
	for (size_t i = 0; i < d->n; i++) {
		char **names;
		size_t n;
		gw_probe_libfile f;
		bool found = false;

		if (gw__probe_list_dir(c, d->dir[i], base, &names, &n) < 0 || !n) {
			gw__probe_names_free(names, n);
			continue;
		}
		memset(&f, 0, sizeof(f));
		for (size_t j = 0; j < n; j++) {
			gw_ver v;

			if (!strcmp(names[j], soname)) {
				f.has_soname = true;
				found = true;
			} else if (gw__parse_lib_version(names[j], base, &v) == 0 && v.nparts >= 2 &&
				   gw__version_cmp(&v, &f.version) > 0) {
				f.version = v;
				gw__strlcpy(f.file, names[j], sizeof(f.file));
				found = true;
			}
		}
		gw__probe_names_free(names, n);
		if (!found)
			continue;
		/* libX.so.1 is usually a link to the versioned file: its target
		 * names the version the loader really gets. */
		if (f.has_soname) {
			char link[GW_PATH_MAX], target[GW_PATH_MAX];
			gw_ver v;

			if (gw__probe_join(link, sizeof(link), d->dir[i], soname) &&
			    gw__readlink(c->root, link, target, sizeof(target)) == 0 && target[0]) {
				const char *b;

				b = strrchr(target, '/');
				b = b ? b + 1 : target;
				if (gw__parse_lib_version(b, base, &v) == 0 && v.nparts >= 2) {
					f.version = v;
					gw__strlcpy(f.file, b, sizeof(f.file));
				}
			}
		}
		gw__strlcpy(f.dir, d->dir[i], sizeof(f.dir));
		f.origin = d->origin[i];
		if (*nout == GW_PROBE_MAX_LIBS) {
			*truncated = true;
			return;
		}
		out[(*nout)++] = f;
	}
}

static void probe_nodes(gw_probe_ctx *c, gw_probe_nvidia *nv)
{
	char **names;
	size_t n;

	gw__probe_node(c, "/dev/nvidiactl", &nv->ctl);
	gw__probe_node(c, "/dev/nvidia-uvm", &nv->uvm);
	if (gw__probe_list_dir(c, "/dev", "nvidia", &names, &n) < 0)
		return;
	/* /dev/nvidia<N>, in numeric order. */
	for (unsigned want = 0; want < 256 && nv->ndev < GW_PROBE_MAX_GPUS; want++) {
		char node[32];
		bool present = false;

		snprintf(node, sizeof(node), "nvidia%u", want);
		for (size_t i = 0; i < n; i++)
			if (!strcmp(names[i], node))
				present = true;
		if (!present)
			continue;
		snprintf(node, sizeof(node), "/dev/nvidia%u", want);
		gw__probe_node(c, node, &nv->dev[nv->ndev++]);
	}
	gw__probe_names_free(names, n);
}

int gw__probe_nvidia_driver(gw_probe_ctx *c)
{
	gw_probe_nvidia *nv = &c->r->nvidia;
	char *modules = gw__probe_read(c, "/proc/modules", 1 << 20);
	char *text;
	libdirs *d;

	nv->proc_driver_present = gw__probe_exists(c, "/proc/driver/nvidia");
	nv->module_loaded = module_loaded(c, modules, "nvidia") || nv->proc_driver_present;
	nv->nouveau_loaded = module_loaded(c, modules, "nouveau");
	nv->uvm_loaded = module_loaded(c, modules, "nvidia_uvm");
	gw__free(modules);

	if ((text = gw__probe_read(c, "/proc/driver/nvidia/version", 64 * 1024))) {
		size_t n = strcspn(text, "\n");

		if (gw__parse_nvidia_proc_version(text, &nv->module_version, &nv->flavor) == 0) {
			if (n >= sizeof(nv->module_banner))
				n = sizeof(nv->module_banner) - 1;
			memcpy(nv->module_banner, text, n);
			nv->module_banner[n] = '\0';
		}
		gw__free(text);
	}
	if (!GW_VERSION_KNOWN(nv->module_version)) {
		char buf[64];

		if (gw__read_small(c->root, "/sys/module/nvidia/version", buf, sizeof(buf)) == 0)
			gw__version_parse(buf, &nv->module_version);
	}

	if (!(d = gw__calloc(1, sizeof(*d))))
		return gw__error_set(GW_ENOMEM, "out of memory");
	add_path_list(d, c->opts->env.ld_library_path, "LD_LIBRARY_PATH");
	add_ld_so_conf(c, d);
	add_dir(d, "/usr/lib/wsl/lib", "wsl");
	add_dir(d, "/usr/local/nvidia/lib64", "default");
	add_dir(d, "/lib/x86_64-linux-gnu", "default");
	add_dir(d, "/usr/lib/x86_64-linux-gnu", "default");
	add_dir(d, "/lib64", "default");
	add_dir(d, "/usr/lib64", "default");
	add_dir(d, "/lib", "default");
	add_dir(d, "/usr/lib", "default");
	dedupe_dirs(c, d);
	collect_lib(c, d, "libnvidia-ml.so", nv->nvml, &nv->nnvml, &c->r->truncated);
	collect_lib(c, d, "libcuda.so", nv->libcuda, &nv->nlibcuda, &c->r->truncated);
	gw__free(d);

	probe_nodes(c, nv);
	nv->persistenced = gw__probe_exists(c, "/var/run/nvidia-persistenced") ||
			   gw__probe_exists(c, "/run/nvidia-persistenced");
	return 0;
}
