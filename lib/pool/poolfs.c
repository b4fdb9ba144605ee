/* The GPU pool's folder, its files and their kernel locks (gpuwise run,
 * lib/pool/pool.c), and the job that a lease runs.
 *
 * The folder may be shared between users (docs/commands/run.md "The pool
 * folder"): it is trusted only when it is the caller's own or root's
 * (gw__pool_dir_open), it is opened once without following a link and
 * every file is opened relative to it. Nothing in it is trusted: files are
 * opened with O_NOFOLLOW (a symbolic link someone planted is refused, never followed)
 * and O_NONBLOCK (a FIFO planted under a lock file's name cannot hang the
 * open), then must be regular files with one link; anything else is a
 * clear error naming the file. A lease is an flock(2) on an open file
 * description: the job inherits it across fork and exec, so it is freed
 * however the job ends (kill -9, the OOM killer) and no stale-lock clean-up
 * exists. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "pool/poolfs.h"
#include "core/sys.h"

/* Whether a pool folder with this owner and mode may be trusted by uid
 * me: NULL, or why not (docs/commands/run.md "The pool folder"). Only its
 * owner (and root) may remove or rename files in a folder others may not
 * write, or in a sticky one; so the folder must be the caller's own or
 * root's. Others may write it only when root made it a shared one: sticky
 * (1777, like /tmp), or a group's (setgid, 2770 or 3770: its members trust
 * each other). */
const char *gw__pool_dir_refusal(unsigned owner, unsigned mode, unsigned me)
{
	if (owner != me && owner != 0)
		return "belongs to another user";
	if ((mode & S_IWOTH) && !(owner == 0 && (mode & S_ISVTX)))
		return owner == 0 ? "is writable by everyone without the sticky bit"
				  : "is writable by everyone and is not root's";
	if ((mode & S_IWGRP) && !(mode & (S_ISGID | S_ISVTX)))
		return "is writable by its group without the setgid or sticky bit";
	return NULL;
}

static int refuse_dir(const char *dir, const struct stat *st, const char *why)
{
	unsigned uid = (unsigned)st->st_uid, mode = (unsigned)(st->st_mode & 07777);

	if (uid != gw__getuid() && uid != 0)
		return gw__error_set(GW_EPERM,
				     "pool folder %s belongs to uid %u (mode %04o), another ordinary user: refused "
				     "(only your own folder or root's is trusted; on a shared server an administrator "
				     "creates it, see docs/commands/run.md, or set GPUWISE_POOL_DIR to a folder of yours)",
				     dir, uid, mode);
	return gw__error_set(GW_EPERM,
			     "pool folder %s (uid %u, mode %04o) %s: refused (chmod 0700 it for yourself; a shared "
			     "folder is root's, mode 1777 (sticky) or 2770 with a group: docs/commands/run.md)",
			     dir, uid, mode, why);
}

int gw__pool_dir_open(const char *dir, bool create, int *out)
{
	struct stat st;
	const char *why;
	unsigned me = gw__getuid();
	int fd;

	/* Made by us when missing: our own, private, unless root makes it
	 * (then shared like /tmp: root-owned and sticky). Never a folder
	 * others may write that belongs to whoever came first. mkdir's mode
	 * passes the umask: root's bits are set on the folder it just made. */
	if (create && gw__sys_mkdir(dir, 0700) == 0) {
		if (me == 0 && (fd = gw__sys_open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)) >= 0) {
			if (gw__sys_fstat(fd, &st) == 0 && st.st_uid == 0)
				gw__sys_fchmod(fd, 01777);
			gw__sys_close(fd);
		}
	} else if (create && errno != EEXIST && errno != ENOENT) {
		return gw__error_set(errno == EACCES ? GW_EPERM : GW_EIO,
				     "cannot create the pool folder %s: %s (set GPUWISE_POOL_DIR to a folder you may write)",
				     dir, strerror(errno));
	}
	/* The folder itself is opened once, never through a link, and every
	 * file is opened relative to it: what was checked is what is used. */
	fd = gw__sys_open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0) {
		int e = errno;

		if (e == ELOOP || (e == ENOTDIR && gw__sys_lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)))
			return gw__error_set(GW_EPERM, "pool folder %s is a symbolic link: refused (it may point anywhere)",
					     dir);
		if (e == ENOTDIR)
			return gw__error_set(GW_EINVAL, "pool folder %s is not a folder", dir);
		/* Another user's private folder: say whose, as for one we may open. */
		if (e == EACCES && gw__sys_lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
		    (why = gw__pool_dir_refusal((unsigned)st.st_uid, (unsigned)st.st_mode, me)))
			return refuse_dir(dir, &st, why);
		return gw__error_set(e == ENOENT ? GW_ENOTFOUND : e == EACCES ? GW_EPERM : GW_EIO, "pool folder %s: %s",
				     dir, strerror(e));
	}
	if (gw__sys_fstat(fd, &st) != 0) {
		int e = errno;

		gw__sys_close(fd);
		return gw__error_set(GW_EIO, "pool folder %s: %s", dir, strerror(e));
	}
	if ((why = gw__pool_dir_refusal((unsigned)st.st_uid, (unsigned)st.st_mode, me))) {
		gw__sys_close(fd);
		return refuse_dir(dir, &st, why);
	}
	*out = fd;
	return 0;
}

int gw__pool_dir_check(const char *dir, bool create)
{
	int fd, rc = gw__pool_dir_open(dir, create, &fd);

	if (rc == 0)
		gw__sys_close(fd);
	return rc;
}

/* Files in the folder are readable and writable by whoever may use the
 * folder: 0666 in a world-writable one, 0660 in a group one (setgid folder). */
static mode_t shared_mode(int dirfd)
{
	struct stat st;

	if (gw__sys_fstat(dirfd, &st) != 0)
		return 0600;
	if (st.st_mode & S_IWOTH)
		return 0666;
	return (st.st_mode & S_IWGRP) ? 0660 : 0600;
}

static int checked(const char *path, int fd)
{
	struct stat st;

	if (gw__sys_fstat(fd, &st) != 0) {
		int e = errno;

		gw__sys_close(fd);
		return gw__error_set(GW_EIO, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1) {
		gw__sys_close(fd);
		return gw__error_set(GW_EPERM,
				     "%s is not a plain file with one link (uid %u, mode %04o): refused; remove it",
				     path, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	}
	/* Blocking reads and writes from here on (a regular file never blocks;
	 * the flag was only there for the open). */
	return fd;
}

int gw__pool_open(int dirfd, const char *dir, const char *name, unsigned flags, int *out)
{
	char path[4096];
	int base = O_NOFOLLOW | O_NONBLOCK | ((flags & GW__POOL_INHERIT) ? 0 : O_CLOEXEC);
	int fd = -1;

	if (!gw__fmt(path, sizeof(path), "%s/%s", dir, name) || strchr(name, '/'))
		return gw__error_set(GW_EINVAL, "bad pool file name: %s/%s", dir, name);
	if (flags & GW__POOL_CREATE) {
		fd = gw__sys_openat(dirfd, name, base | O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd >= 0) {
			/* Made by us: the shared mode, past the umask. */
			gw__sys_fchmod(fd, (flags & GW__POOL_PRIVATE) ? 0644 : shared_mode(dirfd));
			if ((fd = checked(path, fd)) < 0)
				return fd;
			*out = fd;
			return 1;
		}
		if (errno != EEXIST)
			goto failed;
		if (flags & GW__POOL_EXCL)
			return 2;   /* the caller picks another name */
	}
	/* GW__POOL_READ: read-only, so that closing it tells no watcher of
	 * the folder that it was written (gw__pool_watch_wait). */
	fd = (flags & GW__POOL_READ) ? -1 : gw__sys_openat(dirfd, name, base | O_RDWR, 0);
	/* Locks need no write access: another user's 0644 lock file still
	 * works read-only. */
	if ((flags & GW__POOL_READ) || (fd < 0 && errno == EACCES && !(flags & GW__POOL_WRITE)))
		fd = gw__sys_openat(dirfd, name, base | O_RDONLY, 0);
	if (fd < 0)
		goto failed;
	if ((fd = checked(path, fd)) < 0)
		return fd;
	*out = fd;
	return 0;
failed:
	if (errno == ELOOP)
		return gw__error_set(GW_EPERM, "%s is a symbolic link: refused (someone put it there; remove it)", path);
	if (errno == ENOENT)
		return gw__error_set(GW_ENOTFOUND, "%s: %s", path, strerror(errno));
	if (errno == EACCES) {
		struct stat st;

		/* Another user's file that others may not open: name the owner
		 * and the mode, so whoever reads this knows whom to ask. */
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_uid != gw__getuid())
			return gw__error_set(GW_EPERM,
					     "cannot open %s: it belongs to uid %u with mode %04o, which others may not "
					     "open: refused; its owner or root must remove it (or chmod 0666 it)",
					     path, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		return gw__error_set(GW_EPERM, "cannot open %s: %s", path, strerror(errno));
	}
	return gw__error_set(GW_EIO, "cannot open %s: %s", path, strerror(errno));
}

int gw__pool_lock(int fd, bool exclusive, bool wait)
{
	int op = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB);

	for (;;) {
		if (gw__sys_flock(fd, op) == 0)
			return 0;
		if (errno == EWOULDBLOCK)
			return 1;
		if (errno != EINTR)
			return gw__error_set(GW_EIO, "flock: %s", strerror(errno));
	}
}

void gw__pool_unlock(int fd)
{
	if (fd >= 0)
		gw__sys_flock(fd, LOCK_UN);
}

void gw__pool_close(int fd)
{
	if (fd >= 0)
		gw__sys_close(fd);
}

int gw__pool_write(int fd, const char *text)
{
	size_t n = strlen(text), done = 0;

	/* Over the old content, then cut to the new length. Never cut to
	 * zero first: on ext4 (auto_da_alloc) that makes the next close of
	 * the file push it to disk, and a later rewrite wait for that write:
	 * tens of microseconds per rewrite and milliseconds at times, under
	 * the pool's lock. Readers look under that lock too, so none sees the
	 * new text with the old one's tail. */
	if (gw__sys_lseek(fd, 0, SEEK_SET) != 0)
		return gw__error_set(GW_EIO, "cannot rewrite a pool file: %s", strerror(errno));
	while (done < n) {
		ssize_t k = gw__sys_write(fd, text + done, n - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return gw__error_set(GW_EIO, "cannot write a pool file: %s", strerror(errno));
		done += (size_t)k;
	}
	if (gw__sys_ftruncate(fd, (off_t)n) != 0)
		return gw__error_set(GW_EIO, "cannot rewrite a pool file: %s", strerror(errno));
	return 0;
}

int gw__pool_read(int fd, char *buf, size_t size)
{
	size_t done = 0;

	if (!size || gw__sys_lseek(fd, 0, SEEK_SET) != 0)
		return gw__error_set(GW_EIO, "cannot read a pool file: %s", strerror(errno));
	while (done + 1 < size) {
		ssize_t k = gw__sys_read(fd, buf + done, size - 1 - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return gw__error_set(GW_EIO, "cannot read a pool file: %s", strerror(errno));
		if (k == 0)
			break;
		done += (size_t)k;
	}
	buf[done] = '\0';
	return (int)done;
}

bool gw__pool_linked(int fd)
{
	struct stat st;

	return gw__sys_fstat(fd, &st) == 0 && st.st_nlink > 0;
}

int gw__pool_owner(int fd, unsigned *uid, unsigned *mode)
{
	struct stat st;

	if (gw__sys_fstat(fd, &st) != 0)
		return gw__error_set(GW_EIO, "fstat: %s", strerror(errno));
	*uid = (unsigned)st.st_uid;
	*mode = (unsigned)(st.st_mode & 07777);
	return 0;
}

int gw__pool_remove(int dirfd, const char *name)
{
	if (strchr(name, '/'))
		return GW_EINVAL;
	return gw__sys_unlinkat(dirfd, name, 0) == 0 || errno == ENOENT ? 0 : GW_EIO;
}

/* ---- waking on the folder's changes ------------------------------------------- */

int gw__pool_watch(const char *dir)
{
	int fd = gw__sys_inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	if (fd < 0)
		return gw__error_set(GW_EIO, "inotify: %s", strerror(errno));
	/* A lease ends when the last descriptor of its file closes (the
	 * supervisor's and the job's, opened for writing); a job's file is
	 * removed when it ends, or closed for the last time when its process
	 * died. Closes of files only read (every look at the queue reads the
	 * job files) are no change: not watched, they wake nobody. */
	if (gw__sys_inotify_add_watch(fd, dir, IN_CLOSE_WRITE | IN_DELETE | IN_ONLYDIR | IN_DONT_FOLLOW) < 0) {
		int e = errno;

		gw__sys_close(fd);
		return gw__error_set(GW_EIO, "inotify on %s: %s", dir, strerror(e));
	}
	return fd;
}

/* Read every queued event: whether one of them matters. */
static bool watch_drain(int fd, bool (*matters)(const char *name, uint32_t mask))
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool any = false;
	ssize_t n;

	while ((n = gw__sys_read(fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			/* A lost event (overflow) may have been the one. */
			if ((ev->mask & IN_Q_OVERFLOW) || (ev->len && matters(ev->name, ev->mask)))
				any = true;
			p += sizeof(*ev) + ev->len;
		}
	}
	return any;
}

int gw__pool_watch_wait(int fd, int timeout_ms, bool (*matters)(const char *name, uint32_t mask))
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long left;
		int rc;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = timeout_ms - ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0)
			return 0;
		rc = gw__sys_poll(&p, 1, (int)left);
		if (rc < 0 && errno == EINTR)
			return 0;   /* a signal: the caller looks at it */
		if (rc < 0)
			return gw__error_set(GW_EIO, "poll: %s", strerror(errno));
		if (rc == 0)
			return 0;
		if (watch_drain(fd, matters))
			return 1;
	}
}

/* ---- the job ----------------------------------------------------------------- */

int gw__job_find(const char *name, char *out, size_t outsz)
{
	const char *path = getenv("PATH");
	bool denied = false;

	if (strchr(name, '/')) {
		if (gw__sys_access(name, X_OK) == 0) {
			gw__strlcpy(out, name, outsz);
			return 0;
		}
		return gw__error_set(errno == ENOENT ? GW_ENOTFOUND : GW_EPERM, "%s: %s", name, strerror(errno));
	}
	/* execvp's default when PATH is unset. */
	if (!path)
		path = "/usr/local/bin:/bin:/usr/bin";
	for (;;) {
		size_t n = strcspn(path, ":");
		char cand[4096];
		struct stat st;

		/* An empty entry is the current folder. */
		if (gw__fmt(cand, sizeof(cand), "%.*s/%s", n ? (int)n : 1, n ? path : ".", name) &&
		    gw__sys_stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
			if (gw__sys_access(cand, X_OK) == 0) {
				gw__strlcpy(out, cand, outsz);
				return 0;
			}
			denied = true;
		}
		if (!path[n])
			break;
		path += n + 1;
	}
	return gw__error_set(denied ? GW_EPERM : GW_ENOTFOUND, denied ? "%s: permission denied" : "%s: command not found",
			     name);
}

/* The terminal (our stdin) when our process group is its foreground one:
 * a job in its own group must take the foreground over, or it would be
 * stopped (SIGTTIN) the first time it reads. -1 when there is none. */
static int foreground_tty(void)
{
	return isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp() ? STDIN_FILENO : -1;
}

/* What a failed start of the job means for its caller: only "there is no
 * such file" is 127; the rest (not executable, a bad format, ...) is 126,
 * as execvp's callers (env, timeout) say. */
static int start_error(const char *path, int e)
{
	if (e == ENOENT)
		return gw__error_set(GW_ENOTFOUND, "%s: %s", path, strerror(e));
	if (e == EAGAIN || e == ENOMEM || e == EIO)
		return gw__error_set(GW_EGENERIC, "cannot start %s: %s", path, strerror(e));
	return gw__error_set(GW_EPERM, "%s: %s", path, strerror(e));
}

int gw__job_start(const char *path, char *const argv[], char *const envp[], bool own_group, int *pid_out)
{
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
	sigset_t none;
	pid_t pid;
	int tty = own_group ? foreground_tty() : -1, rc;

	/* posix_spawn, not fork: glibc's child shares our memory until it
	 * has exec'd (clone with CLONE_VM | CLONE_VFORK), so no page tables
	 * are copied and no page of ours is copied on write afterwards. It
	 * blocks every signal and resets our handlers in the child, and
	 * returns once the job runs or failed to. The job starts with nothing
	 * blocked, whatever our mask was; in its own group it takes the
	 * terminal over (with SIGTTOU still blocked, so it is not stopped). */
	if ((rc = posix_spawnattr_init(&attr)) != 0)
		return start_error(path, rc);
	if ((rc = posix_spawn_file_actions_init(&fa)) != 0) {
		posix_spawnattr_destroy(&attr);
		return start_error(path, rc);
	}
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, (short)(POSIX_SPAWN_SETSIGMASK | (own_group ? POSIX_SPAWN_SETPGROUP : 0)));
	posix_spawnattr_setpgroup(&attr, 0);
	if (tty >= 0)
		rc = posix_spawn_file_actions_addtcsetpgrp_np(&fa, tty);
	if (rc == 0)
		rc = gw__sys_posix_spawn(&pid, path, &fa, &attr, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc != 0)
		return start_error(path, rc);
	*pid_out = (int)pid;
	return 0;
}

int gw__job_pidfd(int pid)
{
	return gw__sys_pidfd_open((pid_t)pid, 0);
}

void gw__job_terminal_back(void)
{
	sigset_t ttou, old;

	/* Only when a job of ours holds the foreground: we are then a
	 * background group, and tcsetpgrp would stop us without SIGTTOU
	 * blocked. */
	if (!isatty(STDIN_FILENO) || tcgetpgrp(STDIN_FILENO) == getpgrp())
		return;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	if (tcsetpgrp(STDIN_FILENO, getpgrp()) != 0) {
		/* the terminal went away: nothing to give back */
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int gw__job_wait(int pid, int pidfd, int timeout_ms, int *status)
{
	struct timespec start, now;
	long step_us = 500;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		int st;
		pid_t r = gw__sys_waitpid(pid, &st, WNOHANG);
		long elapsed_ms;
		int slept;

		if (r == pid) {
			*status = st;
			return 0;
		}
		if (r < 0 && errno != EINTR)
			return gw__error_set(GW_EGENERIC, "waitpid: %s", strerror(errno));
		clock_gettime(CLOCK_MONOTONIC, &now);
		elapsed_ms = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
		if (elapsed_ms >= timeout_ms)
			return 1;
		/* Steps of at most 20 ms, so a signal to forward is seen soon
		 * even when it came just before the sleep; a signal (SIGCHLD,
		 * one to forward) ends the wait early so the caller can act on
		 * it. The pidfd wakes us the moment the job ends, also when its
		 * SIGCHLD came just before the sleep; without one, short steps
		 * first so a quick job's end is seen soon. */
		if (pidfd >= 0) {
			struct pollfd p = { .fd = pidfd, .events = POLLIN };
			long left = timeout_ms - elapsed_ms;

			slept = gw__sys_poll(&p, 1, (int)(left < 20 ? left : 20));
		} else {
			struct timespec ts = { 0, step_us * 1000 };

			slept = nanosleep(&ts, NULL);
			if (step_us < 20000)
				step_us *= 2;
		}
		if (slept < 0 && errno == EINTR)
			return (r = gw__sys_waitpid(pid, &st, WNOHANG)) == pid ? (*status = st, 0) : 1;
	}
}

int gw__job_kill(int pid, bool group, int sig)
{
	if (pid <= 0)
		return GW_EINVAL;
	return gw__sys_kill(group ? -pid : pid, sig) == 0 ? 0 : gw__error_set(GW_EGENERIC, "kill: %s", strerror(errno));
}

/* ---- who holds a lock ----------------------------------------------------- */

/* The pid /proc/locks names for a lock held (not waited for) on the file
 * (dev, ino); 0 when none. Its device is MAJOR:MINOR in hex. */
static int locks_pid(const char *text, unsigned maj, unsigned min, unsigned long long ino)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char kind[16], adv[16], mode[16];
		unsigned a, b;
		unsigned long long i;
		int pid;

		/* "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; a waiter's
		 * line has "->" after the number. */
		if (sscanf(p, "%*d: %15s %15s %15s %d %x:%x:%llu", kind, adv, mode, &pid, &a, &b, &i) == 7 &&
		    !strcmp(kind, "FLOCK") && a == maj && b == min && i == ino)
			return pid;
	}
	return 0;
}

/* A process that has the file open (its pid), looked for when the one that
 * took the lock has ended and left it to a child. Only processes whose
 * descriptors we may read. */
static int opener_pid(dev_t dev, ino_t ino)
{
	char **pids, path[64];
	size_t n;
	int found = 0;

	if (gw__dir_list("/", "/proc", &pids, &n) < 0)
		return 0;
	for (size_t i = 0; i < n && !found; i++) {
		char **fds;
		size_t m;

		if (strspn(pids[i], "0123456789") != strlen(pids[i]) || atoi(pids[i]) == gw__getpid())
			continue;
		gw__fmt(path, sizeof(path), "/proc/%s/fd", pids[i]);
		if (gw__dir_list("/", path, &fds, &m) < 0)
			continue;
		for (size_t k = 0; k < m && !found; k++) {
			char fdpath[96];
			struct stat st;

			gw__fmt(fdpath, sizeof(fdpath), "/proc/%s/fd/%s", pids[i], fds[k]);
			if (gw__sys_stat(fdpath, &st) == 0 && st.st_dev == dev && st.st_ino == ino)
				found = atoi(pids[i]);
		}
		gw__dir_list_free(fds, m);
	}
	gw__dir_list_free(pids, n);
	return found;
}

int gw__pool_holder(int dirfd, const char *name, gw__holder *h)
{
	struct stat st;
	char *text = NULL, path[64];
	size_t len = 0;

	memset(h, 0, sizeof(*h));
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	if (gw__read_file("/", "/proc/locks", 1u << 24, &text, &len) < 0) {
		gw_error_clear();
		return 0;
	}
	h->locker = locks_pid(text, major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino);
	gw__free(text);
	if (!h->locker)
		return 0;
	h->pid = h->locker;
	gw__fmt(path, sizeof(path), "/proc/%d", h->pid);
	if (gw__sys_stat(path, &st) != 0) {
		struct stat f;

		/* Ended: the lock lives on in a process it started. */
		h->locker_gone = true;
		h->pid = fstatat(dirfd, name, &f, AT_SYMLINK_NOFOLLOW) == 0 ? opener_pid(f.st_dev, f.st_ino) : 0;
		gw__fmt(path, sizeof(path), "/proc/%d", h->pid);
		if (!h->pid || gw__sys_stat(path, &st) != 0)
			return 1;
	}
	h->uid = (unsigned)st.st_uid;
	h->have_uid = true;
	gw__fmt(path, sizeof(path), "/proc/%d/comm", h->pid);
	if (gw__read_file("/", path, sizeof(h->comm), &text, &len) == 0) {
		gw__strlcpy(h->comm, text, sizeof(h->comm));
		h->comm[strcspn(h->comm, "\n")] = '\0';
		gw__free(text);
	} else {
		gw_error_clear();
	}
	return 1;
}
