/* Pure parsers for /proc/<pid>/status and cmdline, /etc/passwd and
 * /etc/group (lib/core/proc_parse.c). Multi-line inputs are (text, len) and
 * may hold NULs or any byte, except gw__parse_group_member's NUL-terminated
 * text. Outputs are untouched on failure. */
#ifndef GPUWISE_CORE_PROC_PARSE_H
#define GPUWISE_CORE_PROC_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The real uid from /proc/<pid>/status ("Uid:\t1000\t1000\t1000\t1000"). */
int gw__proc_parse_uid(const char *text, size_t len, uint32_t *uid);

/* /proc/<pid>/cmdline (arguments separated by NULs) → one printable line in
 * out: NULs become spaces, trailing ones dropped, control bytes and invalid
 * UTF-8 become '?'; a line that does not fit ends with "…" (3 bytes), at a
 * character boundary. Never fails. */
void gw__proc_cmdline_text(const char *data, size_t len, char *out, size_t outsz);

/* The /etc/passwd line of uid ("name:x:uid:gid:..."): its user name
 * (non-printable bytes as '?') and, when gid is not NULL, its primary group
 * (lines without a numeric gid are skipped then). 0, GW_ENOTFOUND, or
 * GW_EPARSE for bad arguments. */
int gw__passwd_lookup(const char *text, size_t len, uint32_t uid, char *name, size_t namesz, unsigned *gid);
/* The user name of uid in /etc/passwd text; GW_ENOTFOUND when absent. */
int gw__proc_passwd_lookup(const char *text, size_t len, uint32_t uid, char *out, size_t outsz);

/* Is `user` (or primary gid) a member of the group with this gid in <root>/etc/group text?
 * name gets the group's name ("" when the gid is not listed). */
bool gw__parse_group_member(const char *group_text, unsigned gid, const char *user, unsigned primary_gid, char *name, size_t namesz);

/* What /proc/<pid>/stat says of a process's time, in clock ticks
 * (sysconf(_SC_CLK_TCK)): CPU in user and kernel mode, and its start
 * since boot. */
struct gw_proc_stat {
	uint64_t utime, stime, starttime;
};
int gw__proc_parse_times(const char *text, size_t len, struct gw_proc_stat *out);
/* "VmRSS:\t 1234 kB" of /proc/<pid>/status, in bytes. GW_ENOTFOUND without
 * that line (a kernel thread, a zombie). */
int gw__proc_parse_rss(const char *text, size_t len, uint64_t *bytes);
/* "btime 1700000000" of /proc/stat: boot time, Unix seconds. */
int gw__proc_parse_btime(const char *text, size_t len, uint64_t *btime);

#endif
