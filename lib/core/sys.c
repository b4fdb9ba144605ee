/* The replaceable system-call table (see core/sys.h): every allocation,
 * dlopen, dlsym and system call in lib/ goes through here, so tests can
 * replace a call or fail the Nth one.
 *
 * GPUWISE_FAULT="KIND:N" makes the Nth call of that kind fail once, as
 * SQLite's test_malloc does. The variable is read once; counters are
 * atomic so threads (the Python monitor) are safe.
 *
 * GPUWISE_FAULT_COUNT=FILE counts the calls of every kind and, at exit,
 * appends one line per kind that was called, "KIND COUNT", to FILE (one
 * write per process, so processes sharing the file do not interleave).
 * tests/fault/run.sh runs a command once so, then fails each of exactly
 * those calls; with GPUWISE_FAULT set as well, the counts show whether
 * the Nth call was reached.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/sys.h"

/* ---- fault injection ------------------------------------------------------ */

static const char *const fault_names[GW__FAULT_KINDS] = {
#define FAULT_NAME(id, name) [GW__FAULT_##id] = name,
	GW__FAULT_KIND_LIST(FAULT_NAME)
#undef FAULT_NAME
};

enum { FAULT_NONE = -1 };

static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
static atomic_int fault_kind = FAULT_NONE;
static atomic_long fault_nth;
static atomic_long fault_counter[GW__FAULT_KINDS];
static atomic_bool fault_counting;
static const char *fault_count_file;
static _Thread_local const char *injected_dlerror;

const char *gw__fault_kind_name(enum gw__fault_kind kind)
{
	return (unsigned)kind < GW__FAULT_KINDS ? fault_names[kind] : NULL;
}

static int fault_parse(const char *spec, int *kind, long *nth)
{
	const char *colon = spec ? strchr(spec, ':') : NULL;

	if (!colon)
		return GW_EINVAL;
	for (int k = 0; k < GW__FAULT_KINDS; k++) {
		if (strlen(fault_names[k]) == (size_t)(colon - spec) && !strncmp(spec, fault_names[k], (size_t)(colon - spec))) {
			*kind = k;
			*nth = strtol(colon + 1, NULL, 10);
			return 0;
		}
	}
	return GW_EINVAL;
}

/* At exit, with GPUWISE_FAULT_COUNT: "KIND COUNT" lines into its file, by
 * libc itself (the table's calls would count, or fail, themselves). */
static void fault_count_write(void)
{
	char buf[64 * GW__FAULT_KINDS];
	size_t len = 0;
	int fd;

	for (int k = 0; k < GW__FAULT_KINDS; k++) {
		long n = atomic_load(&fault_counter[k]);
		int w;

		if (n <= 0)
			continue;
		w = snprintf(buf + len, sizeof(buf) - len, "%s %ld\n", fault_names[k], n);
		if (w < 0 || (size_t)w >= sizeof(buf) - len)
			break;
		len += (size_t)w;
	}
	fd = open(fault_count_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (write(fd, buf, len) < 0) {
		/* nothing to do: the test that asked reads what is there */
	}
	close(fd);
}

static void fault_read_env(void)
{
	int kind;
	long nth;

	if (fault_parse(gw__env_path("GPUWISE_FAULT"), &kind, &nth) == 0) {
		atomic_store(&fault_nth, nth);
		atomic_store(&fault_kind, kind);
	}
	fault_count_file = gw__env_path("GPUWISE_FAULT_COUNT");
	if (fault_count_file && *fault_count_file && atexit(fault_count_write) == 0)
		atomic_store(&fault_counting, true);
}

int gw__fault_config(const char *spec)
{
	int kind = FAULT_NONE;
	long nth = 0;

	pthread_once(&fault_once, fault_read_env);
	if (spec && fault_parse(spec, &kind, &nth) < 0)
		return gw__error_set(GW_EINVAL, "unknown fault kind in '%s'", spec);
	atomic_store(&fault_kind, FAULT_NONE);
	for (int k = 0; k < GW__FAULT_KINDS; k++)
		atomic_store(&fault_counter[k], 0);
	atomic_store(&fault_nth, nth);
	atomic_store(&fault_kind, kind);
	return 0;
}

bool gw__fault_hit(enum gw__fault_kind kind)
{
	pthread_once(&fault_once, fault_read_env);
	if (atomic_load(&fault_kind) != (int)kind || atomic_load(&fault_nth) <= 0) {
		if (atomic_load(&fault_counting))
			atomic_fetch_add(&fault_counter[kind], 1);
		return false;
	}
	return atomic_fetch_add(&fault_counter[kind], 1) + 1 == atomic_load(&fault_nth);
}

/* ---- the table ------------------------------------------------------------ */

/* open(2) and dlopen(3) are variadic or take flags: the table holds fixed
 * signatures. */
static int os_open(const char *path, int flags, mode_t mode)
{
	return open(path, flags, mode);
}

static int os_openat(int dirfd, const char *name, int flags, mode_t mode)
{
	return openat(dirfd, name, flags, mode);
}

static int os_execv(const char *path, char *const argv[])
{
	return execv(path, argv);
}

static int os_prctl(int option, unsigned long arg)
{
	return prctl(option, arg, 0UL, 0UL, 0UL);
}

static int os_pidfd_open(pid_t pid, unsigned flags)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, flags);
#else
	(void)pid;
	(void)flags;
	errno = ENOSYS;
	return -1;
#endif
}

static void *os_dlopen(const char *name, int flags)
{
	return dlopen(name, flags);
}

/* Every entry of the table, once, as SQLite's aSyscall[] writes each row
 * beside the name code calls it by: X(INDEX, name, default function). The
 * enum of indices and the table come from this one list, each row placed at
 * its own index, so a reordered row cannot bind the wrong function. */
#define SYSCALL_LIST(X) \
	X(MALLOC, malloc, malloc) \
	X(CALLOC, calloc, calloc) \
	X(REALLOC, realloc, realloc) \
	X(FREE, free, free) \
	X(DLOPEN, dlopen, os_dlopen) \
	X(DLSYM, dlsym, dlsym) \
	X(DLCLOSE, dlclose, dlclose) \
	X(DLERROR, dlerror, dlerror) \
	X(OPEN, open, os_open) \
	X(READ, read, read) \
	X(CLOSE, close, close) \
	X(FSTAT, fstat, fstat) \
	X(LSEEK, lseek, lseek) \
	X(STAT, stat, stat) \
	X(LSTAT, lstat, lstat) \
	X(ACCESS, access, access) \
	X(OPENDIR, opendir, opendir) \
	X(READDIR, readdir, readdir) \
	X(CLOSEDIR, closedir, closedir) \
	X(READLINK, readlink, readlink) \
	X(REALPATH, realpath, realpath) \
	X(GETUID, getuid, getuid) \
	X(GETEGID, getegid, getegid) \
	X(GETGROUPS, getgroups, getgroups) \
	X(PIPE2, pipe2, pipe2) \
	X(FORK, fork, fork) \
	X(EXECV, execv, os_execv) \
	X(POSIX_SPAWN, posix_spawn, posix_spawn) \
	X(DUP2, dup2, dup2) \
	X(SETPGID, setpgid, setpgid) \
	X(POLL, poll, poll) \
	X(KILL, kill, kill) \
	X(WAITPID, waitpid, waitpid) \
	X(EXECVE, execve, execve) \
	X(WAITID, waitid, waitid) \
	X(PRCTL, prctl, os_prctl) \
	X(GETPID, getpid, getpid) \
	X(FLOCK, flock, flock) \
	X(WRITE, write, write) \
	X(UNLINK, unlink, unlink) \
	X(MKDIR, mkdir, mkdir) \
	X(FCHMOD, fchmod, fchmod) \
	X(FTRUNCATE, ftruncate, ftruncate) \
	X(INOTIFY_INIT1, inotify_init1, inotify_init1) \
	X(INOTIFY_ADD_WATCH, inotify_add_watch, inotify_add_watch) \
	X(PIDFD_OPEN, pidfd_open, os_pidfd_open) \
	X(OPENAT, openat, os_openat) \
	X(UNLINKAT, unlinkat, unlinkat) \
	/* end */

enum {
#define SYSCALL_INDEX(id, name, fn) SYS_##id,
	SYSCALL_LIST(SYSCALL_INDEX)
#undef SYSCALL_INDEX
	SYS_COUNT
};

static struct {
	const char *name;
	gw__syscall_ptr current;
	gw__syscall_ptr deflt;
} syscalls[SYS_COUNT] = {
#define SYSCALL_ROW(id, name, fn) [SYS_##id] = { #name, (gw__syscall_ptr)(fn), (gw__syscall_ptr)(fn) },
	SYSCALL_LIST(SYSCALL_ROW)
#undef SYSCALL_ROW
};


#define CALL(idx, type) ((type)syscalls[idx].current)

int gw__syscall_set(const char *name, gw__syscall_ptr fn)
{
	if (!name) {
		for (size_t i = 0; i < GW_ARRAY_SIZE(syscalls); i++)
			syscalls[i].current = syscalls[i].deflt;
		return 0;
	}
	for (size_t i = 0; i < GW_ARRAY_SIZE(syscalls); i++) {
		if (!strcmp(syscalls[i].name, name)) {
			syscalls[i].current = fn ? fn : syscalls[i].deflt;
			return 0;
		}
	}
	return gw__error_set(GW_ENOTFOUND, "no system call '%s' in the table", name);
}

gw__syscall_ptr gw__syscall_get(const char *name)
{
	for (size_t i = 0; name && i < GW_ARRAY_SIZE(syscalls); i++)
		if (!strcmp(syscalls[i].name, name))
			return syscalls[i].current;
	return NULL;
}

const char *gw__syscall_next(const char *name)
{
	size_t i = 0;

	if (name) {
		while (i < GW_ARRAY_SIZE(syscalls) && strcmp(syscalls[i].name, name))
			i++;
		i++;
	}
	return i < GW_ARRAY_SIZE(syscalls) ? syscalls[i].name : NULL;
}

/* A failed call as the real one fails: errno set, the failure value back. */
#define FAIL_IF(kind, value)                     \
	do {                                     \
		if (gw__fault_hit(kind)) {       \
			errno = EIO;             \
			return value;            \
		}                                \
	} while (0)

/* ---- allocation and the dynamic loader -------------------------------- */

void *gw__malloc(size_t n)
{
	if (gw__fault_hit(GW__FAULT_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return CALL(SYS_MALLOC, void *(*)(size_t))(n ? n : 1);
}

void *gw__calloc(size_t n, size_t size)
{
	if (gw__fault_hit(GW__FAULT_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return CALL(SYS_CALLOC, void *(*)(size_t, size_t))(n ? n : 1, size ? size : 1);
}

void *gw__realloc(void *p, size_t n)
{
	if (gw__fault_hit(GW__FAULT_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return CALL(SYS_REALLOC, void *(*)(void *, size_t))(p, n ? n : 1);
}

char *gw__strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = gw__malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

void gw__free(void *p)
{
	CALL(SYS_FREE, void (*)(void *))(p);
}

void *gw__dlopen(const char *name)
{
	if (gw__fault_hit(GW__FAULT_DLOPEN)) {
		injected_dlerror = "injected dlopen failure";
		return NULL;
	}
	injected_dlerror = NULL;
	return CALL(SYS_DLOPEN, void *(*)(const char *, int))(name, RTLD_NOW | RTLD_LOCAL);
}

void gw__dlopen_keep(const char *name)
{
	void *h = CALL(SYS_DLOPEN, void *(*)(const char *, int))(name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD | RTLD_NODELETE);

	if (h)
		CALL(SYS_DLCLOSE, int (*)(void *))(h);
}

void *gw__dlsym(void *handle, const char *sym)
{
	if (gw__fault_hit(GW__FAULT_DLSYM))
		return NULL;
	return CALL(SYS_DLSYM, void *(*)(void *, const char *))(handle, sym);
}

int gw__dlclose(void *handle)
{
	return handle ? CALL(SYS_DLCLOSE, int (*)(void *))(handle) : 0;
}

const char *gw__dlerror(void)
{
	const char *e;

	if (injected_dlerror)
		return injected_dlerror;
	e = CALL(SYS_DLERROR, char *(*)(void))();
	return e ? e : "unknown dynamic-loader error";
}

/* ---- files ------------------------------------------------------------------ */

int gw__sys_open(const char *path, int flags, mode_t mode)
{
	FAIL_IF(GW__FAULT_OPEN, -1);
	return CALL(SYS_OPEN, int (*)(const char *, int, mode_t))(path, flags, mode);
}

ssize_t gw__sys_read(int fd, void *buf, size_t n)
{
	FAIL_IF(GW__FAULT_FDREAD, -1);
	return CALL(SYS_READ, ssize_t (*)(int, void *, size_t))(fd, buf, n);
}

int gw__sys_close(int fd)
{
	return CALL(SYS_CLOSE, int (*)(int))(fd);
}

int gw__sys_fstat(int fd, struct stat *st)
{
	FAIL_IF(GW__FAULT_FSTAT, -1);
	return CALL(SYS_FSTAT, int (*)(int, struct stat *))(fd, st);
}

off_t gw__sys_lseek(int fd, off_t off, int whence)
{
	FAIL_IF(GW__FAULT_LSEEK, (off_t)-1);
	return CALL(SYS_LSEEK, off_t (*)(int, off_t, int))(fd, off, whence);
}

int gw__sys_stat(const char *path, struct stat *st)
{
	FAIL_IF(GW__FAULT_STAT, -1);
	return CALL(SYS_STAT, int (*)(const char *, struct stat *))(path, st);
}

int gw__sys_lstat(const char *path, struct stat *st)
{
	FAIL_IF(GW__FAULT_LSTAT, -1);
	return CALL(SYS_LSTAT, int (*)(const char *, struct stat *))(path, st);
}

int gw__sys_access(const char *path, int mode)
{
	FAIL_IF(GW__FAULT_ACCESS, -1);
	return CALL(SYS_ACCESS, int (*)(const char *, int))(path, mode);
}

DIR *gw__sys_opendir(const char *path)
{
	FAIL_IF(GW__FAULT_OPENDIR, NULL);
	return CALL(SYS_OPENDIR, DIR *(*)(const char *))(path);
}

struct dirent *gw__sys_readdir(DIR *d)
{
	FAIL_IF(GW__FAULT_READDIR, NULL);
	return CALL(SYS_READDIR, struct dirent *(*)(DIR *))(d);
}

int gw__sys_closedir(DIR *d)
{
	return CALL(SYS_CLOSEDIR, int (*)(DIR *))(d);
}

ssize_t gw__sys_readlink(const char *path, char *buf, size_t n)
{
	FAIL_IF(GW__FAULT_READLINK, -1);
	return CALL(SYS_READLINK, ssize_t (*)(const char *, char *, size_t))(path, buf, n);
}

char *gw__sys_realpath(const char *path, char *resolved)
{
	FAIL_IF(GW__FAULT_REALPATH, NULL);
	return CALL(SYS_REALPATH, char *(*)(const char *, char *))(path, resolved);
}

/* ---- who is asking ------------------------------------------------------- */

uid_t gw__sys_getuid(void)
{
	return CALL(SYS_GETUID, uid_t (*)(void))();
}

gid_t gw__sys_getegid(void)
{
	return CALL(SYS_GETEGID, gid_t (*)(void))();
}

int gw__sys_getgroups(int n, gid_t *list)
{
	FAIL_IF(GW__FAULT_GETGROUPS, -1);
	return CALL(SYS_GETGROUPS, int (*)(int, gid_t *))(n, list);
}

/* ---- processes ------------------------------------------------------------ */

int gw__sys_pipe2(int fds[2], int flags)
{
	FAIL_IF(GW__FAULT_PIPE2, -1);
	return CALL(SYS_PIPE2, int (*)(int *, int))(fds, flags);
}

pid_t gw__sys_fork(void)
{
	FAIL_IF(GW__FAULT_FORK, -1);
	return CALL(SYS_FORK, pid_t (*)(void))();
}

int gw__sys_execv(const char *path, char *const argv[])
{
	FAIL_IF(GW__FAULT_EXECV, -1);
	return CALL(SYS_EXECV, int (*)(const char *, char *const *))(path, argv);
}

int gw__sys_posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	/* posix_spawn returns the error number instead of setting errno. */
	if (gw__fault_hit(GW__FAULT_POSIX_SPAWN))
		return EIO;
	return CALL(SYS_POSIX_SPAWN, int (*)(pid_t *, const char *, const posix_spawn_file_actions_t *,
					     const posix_spawnattr_t *, char *const *, char *const *))(pid, path, fa, attr,
												     argv, envp);
}

int gw__sys_dup2(int from, int to)
{
	FAIL_IF(GW__FAULT_DUP2, -1);
	return CALL(SYS_DUP2, int (*)(int, int))(from, to);
}

int gw__sys_setpgid(pid_t pid, pid_t pgid)
{
	FAIL_IF(GW__FAULT_SETPGID, -1);
	return CALL(SYS_SETPGID, int (*)(pid_t, pid_t))(pid, pgid);
}

int gw__sys_poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
	FAIL_IF(GW__FAULT_POLL, -1);
	return CALL(SYS_POLL, int (*)(struct pollfd *, nfds_t, int))(fds, n, timeout_ms);
}

int gw__sys_kill(pid_t pid, int sig)
{
	FAIL_IF(GW__FAULT_KILL, -1);
	return CALL(SYS_KILL, int (*)(pid_t, int))(pid, sig);
}

pid_t gw__sys_waitpid(pid_t pid, int *status, int options)
{
	FAIL_IF(GW__FAULT_WAITPID, -1);
	return CALL(SYS_WAITPID, pid_t (*)(pid_t, int *, int))(pid, status, options);
}

int gw__sys_execve(const char *path, char *const argv[], char *const envp[])
{
	FAIL_IF(GW__FAULT_EXECVE, -1);
	return CALL(SYS_EXECVE, int (*)(const char *, char *const *, char *const *))(path, argv, envp);
}

int gw__sys_waitid(idtype_t type, id_t id, siginfo_t *info, int options)
{
	FAIL_IF(GW__FAULT_WAITID, -1);
	return CALL(SYS_WAITID, int (*)(idtype_t, id_t, siginfo_t *, int))(type, id, info, options);
}

int gw__sys_prctl(int option, unsigned long arg)
{
	FAIL_IF(GW__FAULT_PRCTL, -1);
	return CALL(SYS_PRCTL, int (*)(int, unsigned long))(option, arg);
}

pid_t gw__sys_getpid(void)
{
	return CALL(SYS_GETPID, pid_t (*)(void))();
}

/* ---- the GPU pool's files ------------------------------------------------- */

int gw__sys_flock(int fd, int op)
{
	FAIL_IF(GW__FAULT_FLOCK, -1);
	return CALL(SYS_FLOCK, int (*)(int, int))(fd, op);
}

ssize_t gw__sys_write(int fd, const void *buf, size_t n)
{
	FAIL_IF(GW__FAULT_WRITE, -1);
	return CALL(SYS_WRITE, ssize_t (*)(int, const void *, size_t))(fd, buf, n);
}

int gw__sys_unlink(const char *path)
{
	FAIL_IF(GW__FAULT_UNLINK, -1);
	return CALL(SYS_UNLINK, int (*)(const char *))(path);
}

/* openat and unlinkat fail as open and unlink do (the same fault kinds):
 * the pool opens its files relative to its folder's descriptor. */
int gw__sys_openat(int dirfd, const char *name, int flags, mode_t mode)
{
	FAIL_IF(GW__FAULT_OPEN, -1);
	return CALL(SYS_OPENAT, int (*)(int, const char *, int, mode_t))(dirfd, name, flags, mode);
}

int gw__sys_unlinkat(int dirfd, const char *name, int flags)
{
	FAIL_IF(GW__FAULT_UNLINK, -1);
	return CALL(SYS_UNLINKAT, int (*)(int, const char *, int))(dirfd, name, flags);
}

int gw__sys_mkdir(const char *path, mode_t mode)
{
	FAIL_IF(GW__FAULT_MKDIR, -1);
	return CALL(SYS_MKDIR, int (*)(const char *, mode_t))(path, mode);
}

int gw__sys_fchmod(int fd, mode_t mode)
{
	FAIL_IF(GW__FAULT_FCHMOD, -1);
	return CALL(SYS_FCHMOD, int (*)(int, mode_t))(fd, mode);
}

int gw__sys_ftruncate(int fd, off_t len)
{
	FAIL_IF(GW__FAULT_FTRUNCATE, -1);
	return CALL(SYS_FTRUNCATE, int (*)(int, off_t))(fd, len);
}

int gw__sys_inotify_init1(int flags)
{
	FAIL_IF(GW__FAULT_INOTIFY_INIT1, -1);
	return CALL(SYS_INOTIFY_INIT1, int (*)(int))(flags);
}

int gw__sys_inotify_add_watch(int fd, const char *path, uint32_t mask)
{
	FAIL_IF(GW__FAULT_INOTIFY_ADD_WATCH, -1);
	return CALL(SYS_INOTIFY_ADD_WATCH, int (*)(int, const char *, uint32_t))(fd, path, mask);
}

int gw__sys_pidfd_open(pid_t pid, unsigned flags)
{
	FAIL_IF(GW__FAULT_PIDFD_OPEN, -1);
	return CALL(SYS_PIDFD_OPEN, int (*)(pid_t, unsigned))(pid, flags);
}

/* ---- for the layers above (core/os.h) ----------------------------------- */

unsigned gw__getuid(void)
{
	return (unsigned)gw__sys_getuid();
}

int gw__getpid(void)
{
	return (int)gw__sys_getpid();
}

unsigned gw__getegid(void)
{
	return (unsigned)gw__sys_getegid();
}

int gw__getgroups(unsigned *out, int max)
{
	gid_t g[256];
	int n;

	if ((n = gw__sys_getgroups((int)GW_ARRAY_SIZE(g), g)) < 0)
		return -1;
	for (int i = 0; i < n && i < max; i++)
		out[i] = (unsigned)g[i];
	return n < max ? n : max;
}
