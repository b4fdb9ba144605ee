/* Doctor rules for the distributed stack (NCCL, and the machine under it):
 * transports switched off by NCCL variables, an NCCL_SOCKET_IFNAME that
 * names no interface here, and a system libnccl that shadows the one a
 * framework bundles. One function per finding id; the facts come from
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
			    ev[0] ? "; " : "", net->switch_value[GW_NCCL_P2P_DISABLE], n);
	if (switched_off(net, GW_NCCL_SHM_DISABLE) && n >= 2)
		gw__doc_cat(ev, sizeof(ev), _("%sNCCL_SHM_DISABLE=%s with %d GPUs: where peer access is missing, GPUs of "
			    "this node talk over network sockets instead of shared memory"),
			    ev[0] ? "; " : "", net->switch_value[GW_NCCL_SHM_DISABLE], n);
	if (switched_off(net, GW_NCCL_IB_DISABLE) && net->nrdma > 0)
		gw__doc_cat(ev, sizeof(ev), _("%sNCCL_IB_DISABLE=%s with %u InfiniBand/RoCE device(s) in "
			    "/sys/class/infiniband: traffic between nodes falls back to TCP sockets (no RDMA, no GPUDirect)"),
			    ev[0] ? "; " : "", net->switch_value[GW_NCCL_IB_DISABLE], net->nrdma);
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
		gw__doc_cat(names, sizeof(names), "%s%s", names[0] ? ", " : "", net->nic[i].name);
	}
	gw__doc_fmt(ev, sizeof(ev), _("NCCL_SOCKET_IFNAME=\"%s\" selects none of this machine's interfaces (%s in "
		    "/sys/class/net)"), net->ifname, names);
	gw__doc_add(d, "nccl-socket-ifname-unknown", "environment", -1, NULL, ev,
		    "Name an interface this node has (`ip -br link`): a prefix (`eth`), an exact name (`=eth0`), or an "
		    "exclusion (`^docker,lo`); on a cluster whose nodes name their NICs differently, use a prefix or "
		    "an exclusion list, or unset it to let NCCL choose.");
}

/* ---- NCCL libraries ------------------------------------------------------------------ */

/* a older than b, comparing only the parts both know. */
static bool older(const gw_ver *a, const gw_ver *b)
{
	unsigned n = a->nparts < b->nparts ? a->nparts : b->nparts;

	for (unsigned i = 0; i < n; i++)
		if (a->part[i] != b->part[i])
			return a->part[i] < b->part[i];
	return false;
}

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
	if (!system_nccl(d, &sys, where, sizeof(where)) || !GW_VERSION_KNOWN(sys) || !older(&sys, &w->version))
		return;
	gw__doc_fw_name(f, name, sizeof(name));
	gw__doc_fmt(ev, sizeof(ev), _("%s in %s bundles NCCL %s (%s in %s); the loader takes NCCL %s from %s first"),
		    name, e->site, w->version.text, w->dist[0] ? w->dist : "pip wheel", w->lib_dir, sys.text, where);
	gw__doc_fmt(fix, sizeof(fix), _("Take the old NCCL out of %s for this environment, or install NCCL %s or newer "
		    "there; every rank of a job must load the same NCCL version."),
		    d->p->net.preload_nccl[0] ? "LD_PRELOAD" : "LD_LIBRARY_PATH", w->version.text);
	gw__doc_add(d, "system-nccl-shadows-framework", "cuda", -1, NULL, ev, fix);
}

void gw__doctor_rules_dist(gw__doctor *d)
{
	rule_transport_disabled(d);
	rule_socket_ifname(d);
	for (size_t e = 0; e < d->p->nenvs; e++)
		for (size_t i = 0; i < d->p->envs[e].nfw; i++)
			if (d->p->envs[e].fw[i].primary)
				rule_nccl_shadowed(d, &d->p->envs[e], &d->p->envs[e].fw[i]);
}
