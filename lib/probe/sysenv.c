/* Where gpuwise runs: container (and whether the NVIDIA runtime gave it the
 * GPUs), WSL2, the OS; and Xid lines in the tail of the kernel log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/path.h"
#include "probe/probe.h"

int gw__probe_sysenv(gw_probe_ctx *c)
{
	gw_probe_sysenv *s = &c->r->sys;
	const gw_probe_env *env = &c->opts->env;
	const char *kind = NULL;
	char *text;
	char buf[GW_PROBE_PATH];

	if (gw__probe_exists(c, "/.dockerenv"))
		kind = "docker";
	else if (gw__probe_exists(c, "/run/.containerenv"))
		kind = "podman";
	if (!kind && (text = gw__probe_read(c, "/proc/1/cgroup", 64 * 1024))) {
		kind = gw__parse_cgroup_container(text);
		gw__free(text);
	}
	if (env->kubernetes_service_host && env->kubernetes_service_host[0])
		kind = "kubernetes";
	if (!kind && gw__read_small(c->root, "/run/systemd/container", buf, sizeof(buf)) == 0 && buf[0])
		kind = "container";
	if (kind) {
		s->container = true;
		gw__strlcpy(s->container_kind, kind, sizeof(s->container_kind));
	}
	if (env->nvidia_visible_devices) {
		s->nvidia_visible_set = true;
		gw__strlcpy(s->nvidia_visible_devices, env->nvidia_visible_devices, sizeof(s->nvidia_visible_devices));
	}
	s->gpu_runtime_hint = gw__probe_exists(c, "/proc/driver/nvidia") || gw__probe_exists(c, "/dev/nvidiactl") ||
			      gw__probe_exists(c, "/dev/nvidia0");

	if ((text = gw__probe_read(c, "/proc/version", 4096))) {
		s->wsl = strstr(text, "microsoft") || strstr(text, "Microsoft") || strstr(text, "WSL");
		gw__free(text);
	}
	s->wsl_libcuda = gw__probe_exists(c, "/usr/lib/wsl/lib/libcuda.so") ||
			 gw__probe_exists(c, "/usr/lib/wsl/lib/libcuda.so.1");
	if (s->wsl_libcuda || gw__probe_exists(c, "/dev/dxg"))
		s->wsl = true;

	if ((text = gw__probe_read(c, "/etc/os-release", 64 * 1024)) ||
	    (text = gw__probe_read(c, "/usr/lib/os-release", 64 * 1024))) {
		gw__parse_os_release(text, "PRETTY_NAME", s->os_pretty, sizeof(s->os_pretty));
		gw__parse_os_release(text, "ID", s->os_id, sizeof(s->os_id));
		gw__parse_os_release(text, "ID_LIKE", s->os_id_like, sizeof(s->os_id_like));
		gw__parse_os_release(text, "VERSION_ID", s->os_version_id, sizeof(s->os_version_id));
		gw__free(text);
	}
	gw__read_small(c->root, "/proc/sys/kernel/osrelease", s->kernel, sizeof(s->kernel));
	return 0;
}

/* ---- Xid ------------------------------------------------------------------- */

#define XID_TAIL (1u << 20)

/* The last XID_TAIL bytes of a log, from the first full line. */
static char *read_tail(gw_probe_ctx *c, const char *path)
{
	char *buf, *nl;
	size_t used;
	int rc;

	if ((rc = gw__read_tail(c->root, path, XID_TAIL, &buf, &used)) < 0)
		return NULL;
	if (rc > 0 && (nl = memchr(buf, '\n', used)))
		memmove(buf, nl + 1, used - (size_t)(nl + 1 - buf) + 1);
	return buf;
}

static void record_xid(gw_probe_report *r, unsigned xid, const char *pci, const char *line, size_t len)
{
	gw_probe_xid *x = NULL;

	for (size_t i = 0; i < r->nxids; i++)
		if (r->xids[i].xid == xid && !strcmp(r->xids[i].pci, pci))
			x = &r->xids[i];
	if (!x) {
		if (r->nxids == GW_PROBE_MAX_XIDS) {
			r->truncated = true;
			return;
		}
		x = &r->xids[r->nxids++];
		memset(x, 0, sizeof(*x));
		x->xid = xid;
		gw__strlcpy(x->pci, pci, sizeof(x->pci));
		x->info = gw__tbl_xid(xid);
	}
	x->count++;
	if (len >= sizeof(x->last_line))
		len = sizeof(x->last_line) - 1;
	memcpy(x->last_line, line, len);
	x->last_line[len] = '\0';
}

int gw__probe_xids(gw_probe_ctx *c)
{
	static const char *const logs[] = { "/var/log/kern.log", "/var/log/syslog", "/var/log/messages" };
	gw_probe_report *r = c->r;

	if (c->opts->skip_kernel_log)
		return 0;
	/* kern.log and syslog carry the same lines: read the first readable. */
	for (size_t i = 0; i < GW_ARRAY_SIZE(logs); i++) {
		char *text = read_tail(c, logs[i]);
		char *p;

		if (!text)
			continue;
		gw__strlcpy(r->kernel_log, logs[i], sizeof(r->kernel_log));
		for (p = text; (p = strstr(p, "NVRM: Xid"));) {
			char *bol = p, *eol;
			char pci[24];
			unsigned xid;

			while (bol > text && bol[-1] != '\n')
				bol--;
			eol = strchr(p, '\n');
			if (eol)
				*eol = '\0';
			if (gw__parse_xid_line(p, &xid, pci, sizeof(pci)) == 0)
				record_xid(r, xid, pci, p, strlen(p));
			if (!eol)
				break;
			p = eol + 1;
		}
		gw__free(text);
		break;
	}
	return 0;
}
