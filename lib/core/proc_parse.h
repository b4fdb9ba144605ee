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

#endif
