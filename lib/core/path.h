/* Paths and files under GPUWISE_ROOT (lib/core/path.c): every file read,
 * listing, stat, access check and readlink of lib/ outside lib/core goes
 * through these root-aware helpers, and they through the system-call table
 * of lib/core/sys.c, so fault injection (GPUWISE_FAULT) reaches every call. */
#ifndef GPUWISE_CORE_PATH_H
#define GPUWISE_CORE_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GW_PATH_MAX 4096

/* Write root + path into out (size outsz). path must be absolute.
 * root "/" or "" leaves it unchanged. Returns 0 or GW_EINVAL when too long. */
int gw__path_join(char *out, size_t outsz, const char *root, const char *path);

/* Read a whole file under root into a NUL-terminated malloc'd buffer of at
 * most `limit` bytes (sysfs/proc files are small; the limit bounds garbage).
 * Returns 0, GW_ENOTFOUND, GW_EPERM, GW_EIO or GW_ENOMEM. */
int gw__read_file(const char *root, const char *path, size_t limit, char **out, size_t *len);

/* Read a small file into buf (size bufsz), trailing whitespace stripped. */
int gw__read_small(const char *root, const char *path, char *buf, size_t bufsz);

/* The names in directory root+path (without "." and ".."), sorted, as a
 * malloc'd array of malloc'd strings (at most 65536); free with
 * gw__dir_list_free(). Returns 0, GW_ENOTFOUND, GW_EPERM, GW_EIO or GW_ENOMEM. */
int gw__dir_list(const char *root, const char *path, char ***out, size_t *count);
void gw__dir_list_free(char **names, size_t count);
/* The same, keeping only names that start with prefix ("" = all), at most
 * max of them. A folder that cannot be listed is an error (GW_ENOTFOUND,
 * GW_EPERM, GW_EIO), never an empty list; on error *out is NULL, *count 0. */
int gw__dir_list_match(const char *root, const char *path, const char *prefix, size_t max, char ***out,
		       size_t *count);
/* The same, keeping only the names accept() takes (NULL: all); *capped
 * (may be NULL) says whether max names were kept and more were left. */
int gw__dir_list_filter(const char *root, const char *path, const char *prefix, bool (*accept)(const char *name),
			size_t max, char ***out, size_t *count, bool *capped);

/* What stat(2) says about root+path (links followed). */
typedef struct gw_file_stat {
	bool is_dir, is_reg, is_chr;
	unsigned mode;             /* permission bits (07777) */
	unsigned uid, gid;
	uint64_t size;
} gw_file_stat;

/* 0, GW_ENOTFOUND, GW_EPERM or GW_EIO. */
int gw__path_stat(const char *root, const char *path, gw_file_stat *out);
bool gw__path_exists(const char *root, const char *path);
bool gw__path_is_dir(const char *root, const char *path);
/* access(2) on root+path (R_OK, W_OK, X_OK): 0, GW_EPERM, GW_ENOTFOUND, GW_EIO. */
int gw__path_access(const char *root, const char *path, int mode);

/* realpath(3) of a path on this host (not under a root: for the file a
 * library was loaded from). 0, or a negative code and out untouched. */
int gw__realpath(const char *path, char *out, size_t outsz);

/* Resolve the symbolic links of an absolute path inside the root: absolute
 * link targets are taken relative to the root (the kernel would follow them
 * out of a fake tree). out is root-relative. 0 or GW_EINVAL (too long, a
 * loop); absent components are kept as written. */
int gw__path_resolve(const char *root, const char *path, char *out, size_t outsz);

/* The last `limit` bytes of a regular file (a log) into a NUL-terminated
 * malloc'd buffer. Returns 1 when the start was cut, 0 when the whole file
 * was read, or GW_ENOTFOUND, GW_EPERM, GW_EINVAL (not a regular file),
 * GW_EIO, GW_ENOMEM. */
int gw__read_tail(const char *root, const char *path, size_t limit, char **out, size_t *len);

/* Up to n bytes of root+path from byte `offset` into buf (a section of a
 * large binary: doctor reads a few of an extension's ELF sections). *got
 * is how many were read (fewer at the end of the file). 0, GW_ENOTFOUND,
 * GW_EPERM, GW_EINVAL or GW_EIO. */
int gw__read_at(const char *root, const char *path, uint64_t offset, void *buf, size_t n, size_t *got);

/* The target of the symbolic link root+path, NUL-terminated, as written
 * (relative or absolute). Returns 0, GW_ENOTFOUND (absent or not a link),
 * GW_EINVAL (too long) or GW_EIO. */
int gw__readlink(const char *root, const char *path, char *buf, size_t bufsz);

#endif
