/* The distributed stack, from files and the environment: NCCL's transport
 * switches and NCCL_SOCKET_IFNAME, the network interfaces this machine has
 * (/sys/class/net, /sys/class/infiniband) and their NUMA nodes, the GPUs'
 * NUMA nodes, a libnccl put in LD_PRELOAD, and Horovod's compiled
 * extensions (read as files, never imported). Doctor's distributed rules
 * (lib/doctor/rules_dist.c) judge them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/path.h"
#include "probe/probe.h"

const char *gw__nccl_switch_name(gw_nccl_switch s)
{
	static const char *const names[GW_NCCL_SWITCH_COUNT] = {
		[GW_NCCL_P2P_DISABLE] = "NCCL_P2P_DISABLE",
		[GW_NCCL_SHM_DISABLE] = "NCCL_SHM_DISABLE",
		[GW_NCCL_IB_DISABLE] = "NCCL_IB_DISABLE",
	};

	return (unsigned)s < GW_NCCL_SWITCH_COUNT ? names[s] : "?";
}

/* ---- NCCL_SOCKET_IFNAME ------------------------------------------------------- */

/* Does one list entry (up to its ':' port, n bytes) match name? */
static bool ifname_entry_matches(const char *entry, size_t n, const char *name, bool exact)
{
	size_t port = 0;

	while (port < n && entry[port] != ':')
		port++;
	if (!port)
		return false;
	if (exact)
		return strlen(name) == port && !strncmp(entry, name, port);
	return !strncmp(entry, name, port);
}

bool gw__nccl_ifname_selects(const char *spec, const char *name)
{
	bool exclude = false, exact = false, hit = false;

	if (!spec || !name)
		return false;
	if (*spec == '^') {
		exclude = true;
		spec++;
	}
	if (*spec == '=') {
		exact = true;
		spec++;
	}
	while (*spec && !hit) {
		size_t n = strcspn(spec, ",");

		hit = ifname_entry_matches(spec, n, name, exact);
		spec += n;
		if (*spec == ',')
			spec++;
	}
	return exclude ? !hit : hit;
}

/* ---- interfaces and NUMA nodes ---------------------------------------------------- */

/* A sysfs integer file ("-1", "100000"); def when absent or not a number. */
static long read_long(gw_probe_ctx *c, const char *path, long def)
{
	char buf[32], *end;
	long v;

	if (gw__read_small(c->root, path, buf, sizeof(buf)) < 0 || !buf[0])
		return def;
	v = strtol(buf, &end, 10);
	return *end ? def : v;
}

static void probe_nics(gw_probe_ctx *c)
{
	gw_probe_net *net = &c->r->net;
	char **names;
	size_t n;

	if (gw__probe_list_dir(c, "/sys/class/net", "", &names, &n) < 0)
		return;
	net->listed = true;
	for (size_t i = 0; i < n; i++) {
		gw_probe_nic *nic;
		char path[GW_PROBE_PATH];

		if (strlen(names[i]) >= sizeof(nic->name))
			continue;
		if (net->nnic == GW_PROBE_MAX_NICS) {
			c->r->truncated = true;
			break;
		}
		nic = &net->nic[net->nnic++];
		gw__strlcpy(nic->name, names[i], sizeof(nic->name));
		snprintf(path, sizeof(path), "/sys/class/net/%s/device", names[i]);
		nic->physical = gw__probe_exists(c, path);
		snprintf(path, sizeof(path), "/sys/class/net/%s/device/numa_node", names[i]);
		nic->numa_node = nic->physical ? (int)read_long(c, path, -1) : -1;
		snprintf(path, sizeof(path), "/sys/class/net/%s/speed", names[i]);
		nic->speed_mbps = read_long(c, path, -1);
	}
	gw__probe_names_free(names, n);
	if (gw__probe_list_dir(c, "/sys/class/infiniband", "", &names, &n) == 0) {
		net->nrdma = (unsigned)n;
		gw__probe_names_free(names, n);
	}
}

static void probe_gpu_numa(gw_probe_ctx *c)
{
	gw_probe_report *r = c->r;

	for (size_t i = 0; i < r->ngpus && i < GW_PROBE_MAX_GPUS; i++) {
		char path[GW_PROBE_PATH];

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/numa_node", r->gpus[i].bus_id);
		r->net.gpu_numa[i] = (int)read_long(c, path, -1);
	}
}

/* ---- LD_PRELOAD ------------------------------------------------------------------- */

/* The version a libnccl file name carries, following symlinks inside the
 * root ("libnccl.so.2" → "libnccl.so.2.18.3"). Unknown when none does. */
static void nccl_file_version(gw_probe_ctx *c, const char *entry, gw_ver *v)
{
	char real[GW_PROBE_PATH];
	const char *base = strrchr(entry, '/');

	memset(v, 0, sizeof(*v));
	if (entry[0] == '/' && gw__probe_resolve(c, entry, real, sizeof(real)) == 0) {
		const char *rb = strrchr(real, '/');

		if (gw__parse_lib_version(rb ? rb + 1 : real, "libnccl.so", v) == 0)
			return;
	}
	gw__parse_lib_version(base ? base + 1 : entry, "libnccl.so", v);
}

static void probe_preload(gw_probe_ctx *c)
{
	gw_probe_net *net = &c->r->net;
	const char *list = c->opts->env.ld_preload;

	/* ld.so splits LD_PRELOAD at spaces and colons. */
	while (list && *list) {
		size_t n = strcspn(list, " :");
		char entry[GW_PROBE_PATH];
		const char *base;

		if (n && n < sizeof(entry)) {
			memcpy(entry, list, n);
			entry[n] = '\0';
			base = strrchr(entry, '/');
			base = base ? base + 1 : entry;
			if (!strncmp(base, "libnccl.so", 10)) {
				gw__strlcpy(net->preload_nccl, entry, sizeof(net->preload_nccl));
				nccl_file_version(c, entry, &net->preload_nccl_version);
				return;
			}
		}
		list += n;
		list += strspn(list, " :");
	}
}

/* ---- Horovod ---------------------------------------------------------------------- */

/* horovod/torch/__init__.py imports mpi_lib_v2 (PyTorch >= 1.0),
 * horovod/tensorflow and horovod/mxnet import mpi_lib; each is named
 * <prefix><EXT_SUFFIX>, e.g. mpi_lib_v2.cpython-311-x86_64-linux-gnu.so. */
const gw_hvd_ext_info gw__hvd_exts[GW_HVD_EXT_COUNT] = {
	[GW_HVD_TORCH] = { "torch", "mpi_lib_v2", GW_FW_TORCH, "PYTORCH", "PyTorch" },
	[GW_HVD_TENSORFLOW] = { "tensorflow", "mpi_lib", GW_FW_TENSORFLOW, "TENSORFLOW", "TensorFlow" },
	[GW_HVD_MXNET] = { "mxnet", "mpi_lib", GW_FW_KIND_COUNT, "MXNET", "MXNet" },
};

static bool has_horovod(const gw_probe_pyenv *e)
{
	for (size_t i = 0; i < e->nfw; i++)
		if (e->fw[i].primary && e->fw[i].kind == GW_FW_HOROVOD)
			return true;
	return false;
}

/* The first <prefix>.*.so in site/horovod/<module>. */
static void find_extension(gw_probe_ctx *c, const char *site, gw_hvd_ext x, gw_probe_horovod *h)
{
	char dir[GW_PROBE_PATH], prefix[32], **names;
	size_t n;

	snprintf(dir, sizeof(dir), "%s/horovod/%s", site, gw__hvd_exts[x].module);
	snprintf(prefix, sizeof(prefix), "%s.", gw__hvd_exts[x].prefix);
	if (gw__probe_list_dir(c, dir, prefix, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n && !h->ext_present[x]; i++) {
		size_t l = strlen(names[i]);

		if (l < 3 || strcmp(names[i] + l - 3, ".so") || !gw__probe_join(h->ext_file[x], sizeof(h->ext_file[x]), dir, names[i]))
			continue;
		h->ext_present[x] = true;
		gw__probe_elf(c, h->ext_file[x], &h->ext[x]);
	}
	gw__probe_names_free(names, n);
}

static void probe_horovod(gw_probe_ctx *c)
{
	gw_probe_report *r = c->r;

	for (size_t e = 0; e < r->nenvs; e++) {
		gw_probe_horovod *h;

		if (!has_horovod(&r->envs[e]))
			continue;
		if (r->net.nhvd == GW_PROBE_MAX_HOROVOD) {
			r->truncated = true;
			return;
		}
		h = &r->net.hvd[r->net.nhvd++];
		h->env = e;
		for (int x = 0; x < GW_HVD_EXT_COUNT; x++)
			find_extension(c, r->envs[e].site, (gw_hvd_ext)x, h);
	}
}

static void copy_env(gw_probe_net *net, const gw_probe_env *env)
{
	const char *sw[GW_NCCL_SWITCH_COUNT] = {
		[GW_NCCL_P2P_DISABLE] = env->nccl_p2p_disable,
		[GW_NCCL_SHM_DISABLE] = env->nccl_shm_disable,
		[GW_NCCL_IB_DISABLE] = env->nccl_ib_disable,
	};

	for (int i = 0; i < GW_NCCL_SWITCH_COUNT; i++)
		if (sw[i]) {
			net->switch_set[i] = true;
			gw__strlcpy(net->switch_value[i], sw[i], sizeof(net->switch_value[i]));
		}
	if (env->nccl_socket_ifname) {
		net->ifname_set = true;
		gw__strlcpy(net->ifname, env->nccl_socket_ifname, sizeof(net->ifname));
	}
}

int gw__probe_dist(gw_probe_ctx *c)
{
	copy_env(&c->r->net, &c->opts->env);
	probe_nics(c);
	probe_gpu_numa(c);
	probe_preload(c);
	probe_horovod(c);
	return 0;
}
