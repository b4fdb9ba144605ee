/* The GPU pool's folder, its files and locks, and the job a lease runs
 * (lib/pool/poolfs.c). */
#ifndef GPUWISE_POOL_POOLFS_H
#define GPUWISE_POOL_POOLFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Open the pool folder (never through a symbolic link) and check that it
 * may be trusted: the caller's own or root's, and writable by others only
 * when root-owned and sticky, or group-shared (setgid or sticky); another
 * ordinary user's folder is GW_EPERM. When missing and create is set it is
 * made: mode 0700, or 01777 when root makes it. *dirfd: every pool file is
 * opened relative to it. */
int gw__pool_dir_open(const char *dir, bool create, int *dirfd);
/* The same, closing the folder again. */
int gw__pool_dir_check(const char *dir, bool create);
/* Why a folder with this owner and mode is not trusted by uid me; NULL when
 * it is. */
const char *gw__pool_dir_refusal(unsigned owner, unsigned mode, unsigned me);
enum {
	GW__POOL_CREATE = 0x1,   /* create when missing (shared mode, past the umask) */
	GW__POOL_EXCL = 0x2,     /* with CREATE: it must not exist yet (else 2, nothing opened) */
	GW__POOL_INHERIT = 0x4,  /* no O_CLOEXEC: the job inherits it (and its lock) */
	GW__POOL_WRITE = 0x8,    /* read-only is not enough */
	GW__POOL_PRIVATE = 0x10, /* with CREATE: 0644, only its owner writes it */
	GW__POOL_READ = 0x20     /* read-only (its close is no write for a watcher) */
};
/* Open <dir>/<name> without following links; a plain file with one link
 * or an error naming it. 1 when it was created, 0 when it existed, 2 when
 * it existed and GW__POOL_EXCL was given (*fd untouched). */
int gw__pool_open(int dirfd, const char *dir, const char *name, unsigned flags, int *fd);
/* flock: 0 taken, 1 someone else holds it (only when !wait), or an error. */
int gw__pool_lock(int fd, bool exclusive, bool wait);
void gw__pool_unlock(int fd);
void gw__pool_close(int fd);
/* Replace the whole content / read it (NUL-terminated; the length). */
int gw__pool_write(int fd, const char *text);
int gw__pool_read(int fd, char *buf, size_t size);
int gw__pool_remove(int dirfd, const char *name);
/* False once the open file has been removed from the folder (or replaced). */
bool gw__pool_linked(int fd);
/* Watch the pool folder for files closed or removed (inotify): the fd, or
 * an error (no inotify, or the limit on watchers reached). */
int gw__pool_watch(const char *dir);
/* Wait up to timeout_ms for an event on a file of the folder that
 * matters(name, inotify mask) accepts: 1 when one came, 0 after the
 * timeout or when a signal arrived, or an error. */
int gw__pool_watch_wait(int fd, int timeout_ms, bool (*matters)(const char *name, uint32_t mask));
/* Who holds the flock on a file of the pool folder (/proc/locks): the pid
 * that took it and, when that one has ended, a process that still has the
 * file open (a job's leftover child), with its uid and command name. 1 when
 * the file is locked, 0 when not (or it cannot be told). */
typedef struct gw__holder {
	int locker;          /* the pid /proc/locks names */
	bool locker_gone;    /* it has ended: pid is one that kept the file open */
	int pid;             /* 0: unknown */
	bool have_uid;
	unsigned uid;
	char comm[32];
} gw__holder;
int gw__pool_holder(int dirfd, const char *name, gw__holder *h);
/* Who owns an open pool file and its permission bits (mode & 07777). */
int gw__pool_owner(int fd, unsigned *uid, unsigned *mode);
/* The program a name runs (PATH search as execvp does): 0, GW_ENOTFOUND
 * or GW_EPERM (found, not executable). */
int gw__job_find(const char *name, char *out, size_t outsz);
/* Start path with envp (posix_spawn); the child keeps every fd opened with
 * GW__POOL_INHERIT, and our process group unless own_group (then it leads
 * a group of its own and takes the terminal's foreground over when we had
 * it; gw__job_terminal_back() takes it back). */
int gw__job_start(const char *path, char *const argv[], char *const envp[], bool own_group, int *pid);
void gw__job_terminal_back(void);
/* A pidfd of the (unreaped) job, readable once it ends; -1 where the
 * kernel has none (before Linux 5.3). */
int gw__job_pidfd(int pid);
/* Reap the job: 0 and its wait status once it has ended, 1 when it still
 * runs after timeout_ms (or a signal arrived), or an error. pidfd (or -1)
 * from gw__job_pidfd. */
int gw__job_wait(int pid, int pidfd, int timeout_ms, int *status);
/* Signal the job, or its whole process group. */
int gw__job_kill(int pid, bool group, int sig);

#endif
