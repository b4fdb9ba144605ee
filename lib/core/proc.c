/* /proc process resolution: who runs a GPU process and what it is.
 *
 * The NVIDIA driver reports host pids even inside a container's pid
 * namespace, so a pid may not exist here: then pid_resolved stays 0 and the
 * CLI says "not in this pid namespace". Nothing is cached: every call reads
 * the files again (a pid can be reused between two calls).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/proc.h"
#include "core/proc_parse.h"

#define STATUS_LIMIT 16384
#define CMDLINE_LIMIT 4096
#define PASSWD_LIMIT (4u << 20)

static void resolve_user(const char *root, uint32_t uid, char *out, size_t outsz)
{
	char *text;
	size_t len;

	if (gw__read_file(root, "/etc/passwd", PASSWD_LIMIT, &text, &len) == 0) {
		int rc = gw__proc_passwd_lookup(text, len, uid, out, outsz);

		gw__free(text);
		if (rc == 0 && out[0])
			return;
	}
	/* Users from LDAP/NIS are not in /etc/passwd: show the number. */
	snprintf(out, outsz, "%u", (unsigned)uid);
}

static void resolve_command(const char *root, uint32_t pid, char *out, size_t outsz)
{
	char path[64], comm[64];
	char *text;
	size_t len;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%u/cmdline", (unsigned)pid);
	if (gw__read_file(root, path, CMDLINE_LIMIT, &text, &len) == 0) {
		gw__proc_cmdline_text(text, len, out, outsz);
		gw__free(text);
		if (out[0])
			return;
	}
	/* Kernel threads and zombies have an empty cmdline: ps shows [comm]. */
	snprintf(path, sizeof(path), "/proc/%u/comm", (unsigned)pid);
	if (gw__read_file(root, path, 64, &text, &len) == 0) {
		while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\0'))
			len--;
		gw__proc_cmdline_text(text, len, comm, sizeof(comm));
		gw__free(text);
		if (comm[0])
			snprintf(out, outsz, "[%.*s]", (int)(outsz > 3 ? outsz - 3 : 0), comm);
	}
}

void gw__process_resolve(const char *root, gw_process *p)
{
	char path[64];
	char *status;
	size_t len;
	uint32_t uid;
	int rc;

	p->pid_resolved = 0;
	p->user[0] = '\0';
	p->command[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%u/status", (unsigned)p->pid);
	if (gw__read_file(root, path, STATUS_LIMIT, &status, &len) < 0)
		return;
	rc = gw__proc_parse_uid(status, len, &uid);
	gw__free(status);
	if (rc < 0)
		return;
	p->uid = uid;
	p->pid_resolved = 1;
	resolve_user(root, uid, p->user, sizeof(p->user));
	resolve_command(root, p->pid, p->command, sizeof(p->command));
}

/* ---- host facts of a process (gw_process_host_read) -------------------- */

#define STAT_LIMIT 4096
#define PROC_STAT_LIMIT (1u << 20)  /* /proc/stat: a line per CPU */

int gw__boot_time(const char *root, double *out)
{
	char *text;
	size_t len;
	uint64_t btime;
	int rc;

	if (gw__read_file(root, "/proc/stat", PROC_STAT_LIMIT, &text, &len) < 0)
		return GW_ENOTFOUND;
	rc = gw__proc_parse_btime(text, len, &btime);
	gw__free(text);
	if (rc < 0)
		return GW_ENOTFOUND;
	*out = (double)btime;
	return 0;
}

int gw__process_host_read(const char *root, uint32_t pid, double boot_time, gw_host_process *out)
{
	char path[64];
	char *text;
	size_t len;
	struct gw_proc_stat st;
	uint64_t rss;
	long hz = sysconf(_SC_CLK_TCK);
	int rc;

	memset(out, 0, sizeof(*out));
	out->pid = pid;
	snprintf(path, sizeof(path), "/proc/%u/stat", (unsigned)pid);
	if (gw__read_file(root, path, STAT_LIMIT, &text, &len) < 0)
		return gw__error_set(GW_ENOTFOUND, "no process %u here", (unsigned)pid);
	rc = gw__proc_parse_times(text, len, &st);
	gw__free(text);
	if (rc == 0 && hz > 0) {
		gw__f64_set(&out->cpu_time, (double)(st.utime + st.stime) / (double)hz);
		if (boot_time >= 0)
			gw__f64_set(&out->start_time, boot_time + (double)st.starttime / (double)hz);
	} else {
		GW_FIELD_FAIL(out->cpu_time, GW_FIELD_NOT_SUPPORTED, 0);
		GW_FIELD_FAIL(out->start_time, GW_FIELD_NOT_SUPPORTED, 0);
	}
	snprintf(path, sizeof(path), "/proc/%u/status", (unsigned)pid);
	if (gw__read_file(root, path, STATUS_LIMIT, &text, &len) == 0) {
		if (gw__proc_parse_rss(text, len, &rss) == 0)
			gw__u64_set(&out->rss, rss);
		else
			GW_FIELD_FAIL(out->rss, GW_FIELD_NOT_SUPPORTED, 0);
		gw__free(text);
	}
	return 0;
}
