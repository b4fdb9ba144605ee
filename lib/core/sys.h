/* The replaceable system-call table behind lib/core (SQLite's aSyscall[] in
 * os_unix.c is the model). Every system call lib/ makes goes through one
 * entry of the table; the gw__sys_* functions below are the only callers.
 * Only lib/core includes this header: the layers above use the root-aware
 * helpers of core/path.h (gw__read_file, gw__path_stat, gw__dir_list, ...).
 *
 * Each entry has a name (the libc name: "open", "stat", "opendir", ...), a
 * current and a default pointer. Tests replace an entry with
 * gw__syscall_set() to make that call fail and check that the failure
 * surfaces as a clean error; gw__syscall_set(NULL, NULL) restores them all.
 * Replacing entries is not thread-safe: tests do it before anything runs.
 *
 * GPUWISE_FAULT="KIND:N" fails the Nth call of KIND once (see
 * gw__fault_kind_name() for the names: alloc, dlopen, dlsym, read, and one
 * per system call that can fail). The failed call returns what the real one
 * returns on failure, with errno EIO (ENOMEM for allocations).
 * GPUWISE_FAULT_COUNT=FILE counts the calls of every kind and appends
 * "KIND COUNT" lines to FILE at exit (tests/fault/run.sh).
 */
#ifndef GPUWISE_CORE_SYS_H
#define GPUWISE_CORE_SYS_H

#include <dirent.h>
#include <poll.h>
#include <spawn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

/* Every fault kind, once: its enum name and the name GPUWISE_FAULT=KIND:N
 * takes. An X-macro, so the enum and the names cannot fall out of step. */
#define GW__FAULT_KIND_LIST(X) \
	/* Kinds of calls (since the first fault loop). */ \
	X(ALLOC, "alloc") /* malloc, calloc, realloc */ \
	X(DLOPEN, "dlopen") \
	X(DLSYM, "dlsym") \
	X(READ, "read") /* a whole file read or folder listing (gw__read_file, gw__dir_list*) */ \
	/* One per system call that can fail. */ \
	X(OPEN, "open") \
	X(FDREAD, "fdread") /* read(2) */ \
	X(FSTAT, "fstat") \
	X(LSEEK, "lseek") \
	X(STAT, "stat") \
	X(LSTAT, "lstat") \
	X(ACCESS, "access") \
	X(OPENDIR, "opendir") \
	X(READDIR, "readdir") \
	X(READLINK, "readlink") \
	X(REALPATH, "realpath") \
	X(GETGROUPS, "getgroups") \
	/* Process control (lib/core/spawn.c: doctor --deep, the probe's python3 \
	 * query). */ \
	X(PIPE2, "pipe2") \
	X(FORK, "fork") \
	X(EXECV, "execv") \
	X(POSIX_SPAWN, "posix_spawn") \
	X(DUP2, "dup2") \
	X(SETPGID, "setpgid") \
	X(POLL, "poll") \
	X(KILL, "kill") \
	X(WAITPID, "waitpid") \
	X(EXECVE, "execve") \
	X(WAITID, "waitid") \
	X(PRCTL, "prctl") \
	/* The GPU pool's files and locks (lib/core/poolfs.c: gpuwise run). */ \
	X(FLOCK, "flock") \
	X(WRITE, "write") \
	X(UNLINK, "unlink") \
	X(MKDIR, "mkdir") \
	X(FCHMOD, "fchmod") \
	X(FTRUNCATE, "ftruncate") \
	/* Waking on the pool's changes and the job's end (gpuwise run). */ \
	X(INOTIFY_INIT1, "inotify_init1") \
	X(INOTIFY_ADD_WATCH, "inotify_add_watch") \
	X(PIDFD_OPEN, "pidfd_open") \
	/* end */

enum gw__fault_kind {
#define GW__FAULT_KIND_ENUM(id, name) GW__FAULT_##id,
	GW__FAULT_KIND_LIST(GW__FAULT_KIND_ENUM)
#undef GW__FAULT_KIND_ENUM
	GW__FAULT_KINDS
};

/* "alloc", "dlopen", "dlsym", "read", "open", "fdread", "fstat", ... */
const char *gw__fault_kind_name(enum gw__fault_kind kind);

/* True when this call of `kind` is the one GPUWISE_FAULT asked to fail. */
bool gw__fault_hit(enum gw__fault_kind kind);

/* Replace the GPUWISE_FAULT setting ("KIND:N", NULL = none) and restart the
 * counters; for tests. 0, or GW_EINVAL for an unknown kind. */
int gw__fault_config(const char *spec);

/* ---- the table ---------------------------------------------------------- */

typedef void (*gw__syscall_ptr)(void);

/* Replace entry `name` by fn (NULL: its default). name NULL resets every
 * entry. 0, or GW_ENOTFOUND when no entry has that name. */
int gw__syscall_set(const char *name, gw__syscall_ptr fn);
/* The current pointer of entry `name`, NULL when there is none. */
gw__syscall_ptr gw__syscall_get(const char *name);
/* The name of the entry after `name` (NULL: the first); NULL after the last. */
const char *gw__syscall_next(const char *name);

/* ---- the calls ------------------------------------------------------------ */

int gw__sys_open(const char *path, int flags, mode_t mode);
ssize_t gw__sys_read(int fd, void *buf, size_t n);
int gw__sys_close(int fd);
int gw__sys_fstat(int fd, struct stat *st);
off_t gw__sys_lseek(int fd, off_t off, int whence);
int gw__sys_stat(const char *path, struct stat *st);
int gw__sys_lstat(const char *path, struct stat *st);
int gw__sys_access(const char *path, int mode);
DIR *gw__sys_opendir(const char *path);
struct dirent *gw__sys_readdir(DIR *d);
int gw__sys_closedir(DIR *d);
ssize_t gw__sys_readlink(const char *path, char *buf, size_t n);
char *gw__sys_realpath(const char *path, char *resolved);
uid_t gw__sys_getuid(void);
gid_t gw__sys_getegid(void);
int gw__sys_getgroups(int n, gid_t *list);
int gw__sys_pipe2(int fds[2], int flags);
pid_t gw__sys_fork(void);
int gw__sys_execv(const char *path, char *const argv[]);
int gw__sys_posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			const posix_spawnattr_t *attr, char *const argv[], char *const envp[]);
int gw__sys_dup2(int from, int to);
int gw__sys_setpgid(pid_t pid, pid_t pgid);
int gw__sys_poll(struct pollfd *fds, nfds_t n, int timeout_ms);
int gw__sys_kill(pid_t pid, int sig);
pid_t gw__sys_waitpid(pid_t pid, int *status, int options);
int gw__sys_execve(const char *path, char *const argv[], char *const envp[]);
int gw__sys_waitid(idtype_t type, id_t id, siginfo_t *info, int options);
/* prctl(2) with the one integer argument gpuwise uses (PR_SET_PDEATHSIG,
 * PR_GET_CHILD_SUBREAPER's pointer passed as an unsigned long). */
int gw__sys_prctl(int option, unsigned long arg);
pid_t gw__sys_getpid(void);
int gw__sys_flock(int fd, int op);
ssize_t gw__sys_write(int fd, const void *buf, size_t n);
int gw__sys_unlink(const char *path);
int gw__sys_openat(int dirfd, const char *name, int flags, mode_t mode);
int gw__sys_unlinkat(int dirfd, const char *name, int flags);
int gw__sys_mkdir(const char *path, mode_t mode);
int gw__sys_fchmod(int fd, mode_t mode);
int gw__sys_ftruncate(int fd, off_t len);
int gw__sys_inotify_init1(int flags);
int gw__sys_inotify_add_watch(int fd, const char *path, uint32_t mask);
/* pidfd_open(2) (Linux 5.3); -1 with ENOSYS where the kernel or libc has none. */
int gw__sys_pidfd_open(pid_t pid, unsigned flags);

#endif
