/* Doctor rules for the distributed stack (NCCL, Horovod, and the machine
 * under them): transports switched off by NCCL variables, an
 * NCCL_SOCKET_IFNAME that names no interface here, a system libnccl that
 * shadows the one a framework bundles, Horovod extensions missing or built
 * without NCCL, GPUs on a NUMA node without a fast NIC, and GPU pairs the
 * driver refuses peer access. One function per finding id; the facts come from
 * lib/probe/dist.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/rule.h"

#define EV 2048
#define FIX 1024

/* GPUs NCCL (or RCCL, which reads the same variables) would drive. */
static int nccl_gpus(const gw__doctor *d)
{
	return d->nnvidia + d->namd;
}

/* NCCL reads these as integers; 1 switches the transport off. */
static bool switched_off(const gw_probe_net *net, gw_nccl_switch s)
{
	char *end;
	long v;

	if (!net->switch_set[s] || !net->switch_value[s][0])
		return false;
	v = strtol(net->switch_value[s], &end, 10);
	return !*end && v == 1;
}

/* What each switch costs, and when it matters on this machine. */
static void rule_transport_disabled(gw__doctor *d)
{
	const gw_probe_net *net = &d->p->net;
	char ev[EV] = "", fix[FIX], names[128] = "";
	int n = nccl_gpus(d);

	if (n <= 0)
		return;
	if (switched_off(net, GW_NCCL_P2P_DISABLE) && n >= 2)
		gw__doc_cat(ev, sizeof(ev), _("%sNCCL_P2P_DISABLE=%s with %d GPUs: traffic between GPUs of this node goes "
			    "through host memory instead of NVLink or PCIe peer copies (a fraction of the bandwidth)"),
			    ev[0] ? gw__doc_sep() : "", net->switch_value[GW_NCCL_P2P_DISABLE], n);
	if (switched_off(net, GW_NCCL_SHM_DISABLE) && n >= 2)
		gw__doc_cat(ev, sizeof(ev), _("%sNCCL_SHM_DISABLE=%s with %d GPUs: where peer access is missing, GPUs of "
			    "this node talk over network sockets instead of shared memory"),
			    ev[0] ? gw__doc_sep() : "", net->switch_value[GW_NCCL_SHM_DISABLE], n);
	if (switched_off(net, GW_NCCL_IB_DISABLE) && net->nrdma > 0)
		gw__doc_cat(ev, sizeof(ev), _("%sNCCL_IB_DISABLE=%s with %u InfiniBand/RoCE device(s) in "
			    "/sys/class/infiniband: traffic between nodes falls back to TCP sockets (no RDMA, no GPUDirect)"),
			    ev[0] ? gw__doc_sep() : "", net->switch_value[GW_NCCL_IB_DISABLE], net->nrdma);
	if (!ev[0])
		return;
	for (int s = 0; s < GW_NCCL_SWITCH_COUNT; s++)
		if (switched_off(net, (gw_nccl_switch)s))
			gw__doc_cat(names, sizeof(names), "%s%s", names[0] ? " " : "", gw__nccl_switch_name((gw_nccl_switch)s));
	gw__doc_fmt(fix, sizeof(fix), _("`unset %s` unless it works around a known fault (then keep it only in that "
		    "job's script); `NCCL_DEBUG=INFO` shows which transport each channel uses."), names);
	gw__doc_add(d, "nccl-transport-disabled", "environment", -1, NULL, ev, fix);
}

static void rule_socket_ifname(gw__doctor *d)
{
	const gw_probe_net *net = &d->p->net;
	char ev[EV], names[512] = "";

	if (!net->ifname_set || !net->ifname[0] || !net->listed || !net->nnic || nccl_gpus(d) <= 0)
		return;
	for (size_t i = 0; i < net->nnic; i++) {
		if (gw__nccl_ifname_selects(net->ifname, net->nic[i].name))
			return;
		gw__doc_cat(names, sizeof(names), "%s%s", names[0] ? gw__doc_comma() : "", net->nic[i].name);
	}
	gw__doc_fmt(ev, sizeof(ev), _("NCCL_SOCKET_IFNAME=\"%s\" selects none of this machine's interfaces (%s in "
		    "/sys/class/net)"), net->ifname, names);
	gw__doc_add(d, "nccl-socket-ifname-unknown", "environment", -1, NULL, ev,
		    "Name an interface this node has (`ip -br link`): a prefix (`eth`), an exact name (`=eth0`), or an "
		    "exclusion (`^docker,lo`); on a cluster whose nodes name their NICs differently, use a prefix or "
		    "an exclusion list, or unset it to let NCCL choose.");
}

/* ---- NCCL libraries ------------------------------------------------------------------ */

static const gw_probe_pywheel *nccl_wheel(const gw_probe_pyenv *e)
{
	for (size_t i = 0; i < e->nwheels; i++)
		if (e->wheels[i].has[GW_CUDALIB_NCCL])
			return &e->wheels[i];
	return NULL;
}

/* The NCCL the loader takes before the wheel's: LD_PRELOAD first, then the
 * first LD_LIBRARY_PATH folder holding one (both win over the RUNPATH
 * that points the framework at its wheel). */
static bool system_nccl(const gw__doctor *d, gw_ver *v, char *where, size_t wn)
{
	const gw_probe_report *p = d->p;

	if (p->net.preload_nccl[0]) {
		*v = p->net.preload_nccl_version;
		gw__doc_fmt(where, wn, _("LD_PRELOAD entry %s"), p->net.preload_nccl);
		return true;
	}
	if (p->ld_first[GW_CUDALIB_NCCL] >= 0) {
		const gw_probe_ldpath *lp = &p->ldpath[p->ld_first[GW_CUDALIB_NCCL]];

		*v = lp->version[GW_CUDALIB_NCCL];
		gw__doc_fmt(where, wn, _("LD_LIBRARY_PATH entry %s"), lp->dir);
		return true;
	}
	return false;
}

static void rule_nccl_shadowed(gw__doctor *d, const gw_probe_pyenv *e, const gw_probe_framework *f)
{
	const gw_probe_pywheel *w = nccl_wheel(e);
	gw_ver sys = { 0 };
	char where[GW_PROBE_PATH + 32], ev[EV], name[96], fix[FIX];

	if (f->gpu != GW_FW_GPU_CUDA || !w || !GW_VERSION_KNOWN(w->version))
		return;
	if (!system_nccl(d, &sys, where, sizeof(where)) || !GW_VERSION_KNOWN(sys) || !gw__version_older(&sys, &w->version))
		return;
	gw__doc_fw_name(f, name, sizeof(name));
	gw__doc_fmt(ev, sizeof(ev), _("%s in %s bundles NCCL %s (%s in %s); the loader takes NCCL %s from %s first"),
		    name, e->site, w->version.text, w->dist[0] ? w->dist : "pip wheel", w->lib_dir, sys.text, where);
	gw__doc_fmt(fix, sizeof(fix), _("Take the old NCCL out of %s for this environment, or install NCCL %s or newer "
		    "there; every rank of a job must load the same NCCL version."),
		    d->p->net.preload_nccl[0] ? "LD_PRELOAD" : "LD_LIBRARY_PATH", w->version.text);
	gw__doc_add(d, "system-nccl-shadows-framework", "cuda", -1, NULL, ev, fix);
}

/* ---- Horovod ---------------------------------------------------------------------- */

static const gw_probe_framework *env_fw(const gw_probe_pyenv *e, gw_fw_kind kind)
{
	for (size_t i = 0; i < e->nfw; i++)
		if (e->fw[i].primary && e->fw[i].kind == kind)
			return &e->fw[i];
	return NULL;
}

static void hvd_name(const gw_probe_pyenv *e, char *buf, size_t n)
{
	const gw_probe_framework *h = env_fw(e, GW_FW_HOROVOD);

	gw__doc_fmt(buf, n, "Horovod%s%s", h && GW_VERSION_KNOWN(h->version) ? " " : "",
		    h && GW_VERSION_KNOWN(h->version) ? h->version.text : "");
}

/* Horovod's extension for a framework of its environment is missing:
 * `import horovod.torch` fails, and horovodrun --check-build shows [ ]. */
static void rule_horovod_not_built(gw__doctor *d, const gw_probe_horovod *h, gw_hvd_ext x, const gw_probe_framework *f)
{
	const gw_probe_pyenv *e = &d->p->envs[h->env];
	const gw_hvd_ext_info *xi = &gw__hvd_exts[x];
	char ev[EV], fix[FIX], hvd[48], name[96];

	hvd_name(e, hvd, sizeof(hvd));
	gw__doc_fw_name(f, name, sizeof(name));
	gw__doc_fmt(ev, sizeof(ev), _("%s in %s has no horovod/%s/%s*.so next to %s: `import horovod.%s` fails with "
		    "\"Extension horovod.%s has not been built\""), hvd, e->site, xi->module, xi->prefix, name, xi->module,
		    xi->module);
	gw__doc_fmt(fix, sizeof(fix), _("Rebuild Horovod in that environment with the framework required, so that a "
		    "failed build stops pip: `HOROVOD_WITH_%s=1 HOROVOD_GPU_OPERATIONS=NCCL pip install --no-cache-dir "
		    "--force-reinstall horovod` (--no-cache-dir: pip would reuse the wheel it built without it)."),
		    xi->with_var);
	gw__doc_add(d, "horovod-framework-not-built", "python", -1, NULL, ev, fix);
}

/* The extension exists, a GPU build of its framework and GPUs are here,
 * and the extension shows no NCCL: neither a libnccl/librccl it needs nor
 * NCCL's version banner (a static NCCL). Without a GPU runtime either,
 * GPU tensors are refused outright. */
static void rule_horovod_without_nccl(gw__doctor *d, const gw_probe_horovod *h, gw_hvd_ext x)
{
	const gw_probe_pyenv *e = &d->p->envs[h->env];
	const gw_probe_elf *elf = &h->ext[x];
	const gw_hvd_ext_info *xi = &gw__hvd_exts[x];
	char ev[EV], title[256], hvd[48];
	bool gpu;

	if (!elf->read || elf->needs_nccl || elf->nccl_banner)
		return;
	gpu = elf->needs_gpu_runtime || elf->cudart_static;
	hvd_name(e, hvd, sizeof(hvd));
	gw__doc_fmt(ev, sizeof(ev),
		    gpu ? _("%s (%s in %s) needs no libnccl/librccl and carries no \"NCCL version\" text: built without "
			    "NCCL; GPU tensors are copied to host memory and reduced by MPI or Gloo")
			: _("%s (%s in %s) needs no libnccl/librccl and carries no \"NCCL version\" text: built without "
			    "NCCL and without GPU support (no CUDA/HIP runtime linked): allreduce of a GPU tensor fails with "
			    "\"Tensor type ... is not supported\""),
		    h->ext_file[x], hvd, e->site);
	gw__doc_fmt(title, sizeof(title), gpu ? _("Horovod's %s extension was built without NCCL")
					      : _("Horovod's %s extension was built without GPU operations"), xi->pretty);
	gw__doc_add(d, "horovod-without-nccl", "python", gpu ? GW_SEVERITY_WARNING : GW_SEVERITY_ERROR, title, ev,
		    "Rebuild it with NCCL: `HOROVOD_GPU_OPERATIONS=NCCL pip install --no-cache-dir --force-reinstall "
		    "horovod` (NCCL from the CUDA toolkit, or HOROVOD_NCCL_HOME pointing at it); `horovodrun "
		    "--check-build` then lists [X] NCCL.");
}

static void rules_horovod(gw__doctor *d)
{
	const gw_probe_net *net = &d->p->net;

	for (size_t i = 0; i < net->nhvd; i++)
		for (int x = 0; x < GW_HVD_EXT_COUNT; x++) {
			const gw_probe_horovod *h = &net->hvd[i];
			const gw_probe_framework *f = env_fw(&d->p->envs[h->env], gw__hvd_exts[x].fw);

			if (!f)
				continue;
			if (!h->ext_present[x])
				rule_horovod_not_built(d, h, (gw_hvd_ext)x, f);
			else if ((f->gpu == GW_FW_GPU_CUDA || f->gpu == GW_FW_GPU_ROCM) && nccl_gpus(d) > 0)
				rule_horovod_without_nccl(d, h, (gw_hvd_ext)x);
		}
}

/* ---- topology --------------------------------------------------------------------- */

/* A NIC NCCL would use between nodes: a physical one of ≥ 25 Gb/s (not a
 * management port) on a known NUMA node, and one NCCL_SOCKET_IFNAME
 * selects when it is set. */
static bool fast_nic(const gw_probe_net *net, const gw_probe_nic *nic)
{
	if (!nic->physical || nic->numa_node < 0 || nic->speed_mbps < 25000)
		return false;
	return !net->ifname_set || !net->ifname[0] || gw__nccl_ifname_selects(net->ifname, nic->name);
}

static bool nic_on_node(const gw_probe_net *net, int node)
{
	for (size_t i = 0; i < net->nnic; i++)
		if (fast_nic(net, &net->nic[i]) && net->nic[i].numa_node == node)
			return true;
	return false;
}

static void rule_gpu_nic_numa(gw__doctor *d)
{
	const gw_probe_net *net = &d->p->net;
	char far[EV] = "", nics[512] = "", ev[EV];

	for (size_t i = 0; i < net->nnic; i++)
		if (fast_nic(net, &net->nic[i]))
			gw__doc_cat(nics, sizeof(nics), _("%s%s (%ld Gb/s, NUMA node %d)"), nics[0] ? gw__doc_comma() : "",
				    net->nic[i].name, net->nic[i].speed_mbps / 1000, net->nic[i].numa_node);
	if (!nics[0])
		return;
	for (size_t g = 0; g < d->p->ngpus && g < GW_PROBE_MAX_GPUS; g++) {
		const gw_probe_pci_gpu *gpu = &d->p->gpus[g];

		if ((gpu->vendor != GW_VENDOR_NVIDIA && gpu->vendor != GW_VENDOR_AMD) || net->gpu_numa[g] < 0 ||
		    nic_on_node(net, net->gpu_numa[g]))
			continue;
		gw__doc_cat(far, sizeof(far), _("%s%s on NUMA node %d"), far[0] ? gw__doc_comma() : "", gpu->bus_id, net->gpu_numa[g]);
	}
	if (!far[0])
		return;
	gw__doc_fmt(ev, sizeof(ev), _("GPU %s: no fast NIC on that node; NICs: %s. Traffic between nodes from those GPUs "
		    "crosses the CPU interconnect, and GPUDirect RDMA between them and the NIC is slow or off"), far, nics);
	gw__doc_add(d, "gpu-nic-numa-mismatch", "hardware", -1, NULL, ev,
		    "Run each rank on its GPU's NUMA node (`numactl --cpunodebind=N --membind=N`, or the launcher's "
		    "binding option), and put a NIC in a slot on that socket for multi-node jobs; `nvidia-smi topo -m` "
		    "shows the GPU-NIC paths (SYS = across sockets).");
}

/* A pair refused peer access for read or write: a definite "no" from the
 * driver (not OK, not UNKNOWN, and a value it gave at all). */
static bool peer_refused(const gw_u64 *f)
{
	return GW_VALID(*f) && f->v != GW_P2P_OK && f->v != GW_P2P_UNKNOWN;
}

static const char *p2p_text(uint64_t status)
{
	switch (status) {
	case GW_P2P_CHIPSET_NOT_SUPPORTED: return _("chipset not supported");
	case GW_P2P_GPU_NOT_SUPPORTED: return _("GPU not supported");
	case GW_P2P_IOH_TOPOLOGY_NOT_SUPPORTED: return _("topology not supported");
	case GW_P2P_DISABLED_BY_REGKEY: return _("disabled by registry key");
	default: return _("not supported");
	}
}

/* Add the refusal reasons of f to reasons (each once). */
static void add_reason(char *reasons, size_t n, const gw_u64 *f)
{
	const char *t;

	if (!peer_refused(f) || strstr(reasons, (t = p2p_text(f->v))))
		return;
	gw__doc_cat(reasons, n, "%s%s", reasons[0] ? ", " : "", t);
}

/* Is peer access refused either way between a and b? Fills *level. */
static bool pair_refused(gw__doctor *d, int a, int b, const char **level, char *reasons, size_t rn)
{
	gw_peer_info ab, ba;
	bool r = false;

	*level = NULL;
	if (gw_device_peer(d->ctx, a, b, &ab) < 0 || gw_device_peer(d->ctx, b, a, &ba) < 0)
		return false;
	for (int c = GW_P2P_READ; c <= GW_P2P_WRITE; c++) {
		r |= peer_refused(&ab.p2p[c]) || peer_refused(&ba.p2p[c]);
		add_reason(reasons, rn, &ab.p2p[c]);
		add_reason(reasons, rn, &ba.p2p[c]);
	}
	if (GW_VALID(ab.topology))
		*level = gw_topology_level_name((gw_topology_level)ab.topology.v);
	return r;
}

static bool nvidia_usable(const gw__doctor *d, int i)
{
	return gw__doc_gpu_usable(d, i) && gw_device_get(d->ctx, i)->vendor == GW_VENDOR_NVIDIA;
}

/* NVIDIA GPUs of this node between which the driver refuses peer reads or
 * writes (what `nvidia-smi topo -p2p r` shows as CNS/GNS/TNS/NS): CUDA
 * peer copies and NCCL's P2P transport are off between them. */
static void rule_peer_access(gw__doctor *d)
{
	char pairs[EV] = "", reasons[256] = "", ev[EV];
	int refused = 0, npairs = 0;

	if (!d->ctx || d->nnvidia < 2)
		return;
	for (int a = 0; a < d->ndev; a++)
		for (int b = a + 1; b < d->ndev; b++) {
			const char *level;

			if (!nvidia_usable(d, a) || !nvidia_usable(d, b))
				continue;
			npairs++;
			if (!pair_refused(d, a, b, &level, reasons, sizeof(reasons)))
				continue;
			if (++refused <= 16)
				gw__doc_cat(pairs, sizeof(pairs), "%s%d↔%d%s%s%s", pairs[0] ? ", " : "", a, b,
					    level ? " (" : "", level ? level : "", level ? ")" : "");
		}
	if (!refused)
		return;
	gw__doc_fmt(ev, sizeof(ev), _("NVML refuses peer-to-peer reads or writes between %d of %d pairs of GPUs (%s): "
		    "%s%s"), refused, npairs, reasons, pairs, refused > 16 ? ", …" : "");
	gw__doc_add(d, "gpu-peer-access-unavailable", "hardware", -1, NULL, ev,
		    "Check `nvidia-smi topo -m` and `nvidia-smi topo -p2p r`: GPUs under different CPU sockets (SYS) "
		    "or behind a PCIe switch with ACS on cannot reach each other directly. On bare metal disable ACS "
		    "(BIOS, or setpci on the switch ports) and boot with iommu=pt (or the IOMMU off); in a VM pass the "
		    "GPUs through with P2P enabled, or place the job on GPUs of one socket. Until then NCCL falls back "
		    "to shared host memory (slower) and CUDA peer copies go through the host.");
}

void gw__doctor_rules_dist(gw__doctor *d)
{
	rule_transport_disabled(d);
	rule_socket_ifname(d);
	for (size_t e = 0; e < d->p->nenvs; e++)
		for (size_t i = 0; i < d->p->envs[e].nfw; i++)
			if (d->p->envs[e].fw[i].primary)
				rule_nccl_shadowed(d, &d->p->envs[e], &d->p->envs[e].fw[i]);
	rules_horovod(d);
	rule_gpu_nic_numa(d);
	rule_peer_access(d);
}
