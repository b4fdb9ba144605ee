/* The programs gpuwise runs, and how every process they start ends.
 *
 * doctor --deep imports frameworks in their environments' interpreters. A
 * framework import
 * may start helpers (compile servers, data loaders, a
 * daemon that calls setsid()). Each of them must end with the check, also
 * when gpuwise is interrupted. A child is found by any of four marks, so
 * that no single escape hides it:
 *   - its process group (the interpreter leads its own group);
 *   - its ancestry: a descendant of the interpreter (PPid chains in /proc);
 *   - a token in its environment (GPUWISE_DEEP_RUN=..., first in the
 *     interpreter's environment, inherited by whatever it starts, even
 *     after setsid() and after its parent has exited);
 *   - when this process is a child subreaper (the CLI makes itself one), a
 *     child of ours that was not there before the start: an orphan of the
 *     interpreter's tree, reparented to us.
 * The interpreter itself also gets PR_SET_PDEATHSIG(SIGKILL): should
 * gpuwise die without cleaning up (SIGKILL), the interpreter dies with it.
 *
 * Nothing here touches signal dispositions: the caller owns those. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/spawn.h"
#include "core/sys.h"

extern char **environ;

#define TOKEN_VAR "GPUWISE_DEEP_RUN="
#define ENVIRON_LIMIT (1u << 16)
#define STAT_MAX 1024
#define END_ROUNDS 200           /* each scans /proc once: about a second in all */
#define READ_CHUNK 1024

int gw__parse_proc_stat(const char *text, int *ppid, int *pgid, char *state)
{
	/* "pid (comm) S ppid pgrp ...": comm may hold spaces and ')', so the
	 * fields start after the last ')'. */
	const char *p = strrchr(text, ')');
	long v[2];

	if (!p || p[1] != ' ' || !p[2] || p[2] == ' ')
		return GW_EPARSE;
	*state = p[2];
	p += 3;
	for (int i = 0; i < 2; i++) {
		char *end;

		if (*p != ' ')
			return GW_EPARSE;
		p++;
		if (*p < '0' || *p > '9') {
			if (*p != '-' || p[1] < '0' || p[1] > '9')
				return GW_EPARSE;
		}
		errno = 0;
		v[i] = strtol(p, &end, 10);
		if (errno || end == p || v[i] < -1 || v[i] > 0x7fffffffL)
			return GW_EPARSE;
		p = end;
	}
	*ppid = (int)v[0];
	*pgid = (int)v[1];
	return 0;
}

typedef struct proc_ent {
	pid_t pid, ppid, pgid;
	char state;
	bool mark;
} proc_ent;

/* Every process in /proc with its parent, group and state. */
static int scan_proc(proc_ent **out, size_t *n)
{
	char **names = NULL;
	size_t count = 0, k = 0;
	proc_ent *e;
	int rc = gw__dir_list("/", "/proc", &names, &count);

	*out = NULL;
	*n = 0;
	if (rc < 0)
		return rc;
	if (!(e = gw__calloc(count ? count : 1, sizeof(*e)))) {
		gw__dir_list_free(names, count);
		return GW_ENOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		char path[64], buf[STAT_MAX];
		uint64_t pid;
		int ppid, pgid;
		char st;

		if (names[i][0] < '1' || names[i][0] > '9' || gw__parse_u64(names[i], &pid) < 0 || pid > 0x7fffffff)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", names[i]);
		if (gw__read_small("/", path, buf, sizeof(buf)) < 0 || gw__parse_proc_stat(buf, &ppid, &pgid, &st) < 0)
			continue;
		e[k].pid = (pid_t)pid;
		e[k].ppid = ppid;
		e[k].pgid = pgid;
		e[k].state = st;
		k++;
	}
	gw__dir_list_free(names, count);
	*out = e;
	*n = k;
	return 0;
}

static bool has_token(pid_t pid, const char *token)
{
	char path[64], *text = NULL;
	size_t len = 0, tl = strlen(token);
	bool found = false;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	if (gw__read_file("/", path, ENVIRON_LIMIT, &text, &len) < 0)
		return false;
	/* NUL-separated VAR=value entries: compare whole entries. */
	for (size_t i = 0; i + tl <= len && !found; i += strlen(text + i) + 1)
		found = !memcmp(text + i, token, tl) && (i + tl == len || text[i + tl] == '\0');
	gw__free(text);
	return found;
}

static bool in_list(const pid_t *list, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == pid)
			return true;
	return false;
}

/* Our own children now (only needed when we are a subreaper). */
static void remember_children(gw__spawn *s)
{
	proc_ent *e;
	size_t n, k = 0;

	if (scan_proc(&e, &n) < 0)
		return;
	if ((s->before = gw__calloc(n ? n : 1, sizeof(*s->before))))
		for (size_t i = 0; i < n; i++)
			if (e[i].ppid == s->parent)
				s->before[k++] = e[i].pid;
	s->nbefore = k;
	gw__free(e);
}

/* The environment of the child: the token first, then ours without a token
 * of an outer gpuwise. Built before fork(): after it, only async-signal-safe
 * calls (the caller may have threads). */
static char **child_environment(const char *token)
{
	size_t n = 0, k = 1;
	char **envp;

	while (environ && environ[n])
		n++;
	if (!(envp = gw__calloc(n + 2, sizeof(*envp))))
		return NULL;
	envp[0] = (char *)token;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], TOKEN_VAR, strlen(TOKEN_VAR)))
			envp[k++] = environ[i];
	return envp;
}

static void close_pair(int fds[2])
{
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			gw__sys_close(fds[i]);
}

int gw__spawn_start(gw__spawn *s, const char *path, char *const argv[], int out_fd, int err_fd)
{
	static unsigned serial;
	struct timespec ts;
	char **envp;
	int sub = 0, in[2] = { -1, -1 }, null_fd = -1;
	pid_t pid;

	memset(s, 0, sizeof(*s));
	s->pid = -1;
	s->parent = gw__sys_getpid();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(s->token, sizeof(s->token), TOKEN_VAR "%d.%u.%lld%09ld", (int)s->parent,
		 __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED), (long long)ts.tv_sec, ts.tv_nsec);
	s->subreaper = gw__sys_prctl(PR_GET_CHILD_SUBREAPER, (unsigned long)&sub) == 0 && sub;
	if (s->subreaper)
		remember_children(s);
	if (!(envp = child_environment(s->token))) {
		gw__free(s->before);
		s->before = NULL;
		return GW_ENOMEM;
	}
	/* stdin: a pipe whose write end is closed reads as end of file, as
	 * /dev/null would; stderr to /dev/null unless the caller wants it. */
	if (gw__sys_pipe2(in, O_CLOEXEC) != 0)
		in[0] = in[1] = -1;
	if (err_fd < 0 && (null_fd = gw__sys_open("/dev/null", O_WRONLY | O_CLOEXEC, 0)) >= 0)
		err_fd = null_fd;
	pid = gw__sys_fork();
	if (pid == 0) {
		/* Its own process group, so that one kill reaches what it starts;
		 * and it dies with us should we die without cleaning up. */
		gw__sys_setpgid(0, 0);
		if (gw__sys_prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != s->parent)
			_exit(127);
		/* Output that cannot be redirected would land on our terminal. */
		if ((in[0] >= 0 && gw__sys_dup2(in[0], 0) < 0) || gw__sys_dup2(out_fd, 1) < 0 ||
		    (err_fd >= 0 && gw__sys_dup2(err_fd, 2) < 0))
			_exit(127);
		gw__sys_execve(path, argv, envp);
		_exit(127);
	}
	close_pair(in);
	if (null_fd >= 0)
		gw__sys_close(null_fd);
	gw__free(envp);
	if (pid < 0) {
		gw__free(s->before);
		s->before = NULL;
		return gw__error_set(GW_EGENERIC, "fork: %s", strerror(errno));
	}
	gw__sys_setpgid(pid, pid);	/* also here: no race with a kill of the group */
	s->pid = pid;
	return 0;
}

/* Mark the processes that belong to the run; true when any is alive. */
static bool mark_run(const gw__spawn *s, proc_ent *e, size_t n)
{
	bool changed = true, alive = false;

	for (size_t i = 0; i < n; i++) {
		e[i].mark = e[i].pid == s->pid || e[i].pgid == s->pid ||
			    (s->subreaper && e[i].ppid == s->parent && !in_list(s->before, s->nbefore, e[i].pid));
		if (e[i].pid == s->parent || e[i].pid == 1)
			e[i].mark = false;
	}
	/* Descendants of a marked process, however deep. */
	for (int pass = 0; changed && pass < 64; pass++) {
		changed = false;
		for (size_t i = 0; i < n; i++) {
			if (e[i].mark || e[i].pid == s->parent)
				continue;
			for (size_t j = 0; j < n; j++)
				if (e[j].mark && e[j].pid == e[i].ppid) {
					e[i].mark = changed = true;
					break;
				}
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (!e[i].mark && e[i].state != 'Z' && e[i].pid != s->parent && has_token(e[i].pid, s->token))
			e[i].mark = true;
		alive |= e[i].mark && e[i].state != 'Z';
	}
	return alive;
}

bool gw__spawn_exited(const gw__spawn *s)
{
	siginfo_t si;

	/* Without reaping it: its pid (and so its group id) cannot be reused
	 * before everything in the group has been killed. */
	memset(&si, 0, sizeof(si));
	return gw__sys_waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == s->pid;
}

int gw__spawn_end(gw__spawn *s)
{
	int status = -1;

	if (s->pid <= 0)
		return -1;
	gw__sys_kill(-s->pid, SIGKILL);
	gw__sys_kill(s->pid, SIGKILL);
	/* Done after three scans in a row (5 ms apart) find nothing alive: a helper caught in
	 * the middle of execve() can show no environment (so no token) for an
	 * instant, and once its parent has exited nothing else marks it (seen
	 * as a rare "left its child running" in test_spawn under load). */
	for (int round = 0, quiet = 0; round < END_ROUNDS; round++) {
		proc_ent *e;
		size_t n;
		bool alive;

		if (scan_proc(&e, &n) < 0)
			break;
		alive = mark_run(s, e, n);
		for (size_t i = 0; i < n; i++) {
			if (!e[i].mark)
				continue;
			if (e[i].state != 'Z')
				gw__sys_kill(e[i].pid, SIGKILL);
			/* Orphans reparented to us: reap them (never the interpreter
			 * here, its status is collected below). */
			else if (e[i].ppid == s->parent && e[i].pid != s->pid)
				gw__sys_waitpid(e[i].pid, NULL, WNOHANG);
		}
		gw__free(e);
		quiet = alive ? 0 : quiet + 1;
		if (quiet >= 3)
			break;
		{
			struct timespec ts = { 0, 5 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	while (gw__sys_waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	gw__free(s->before);
	s->before = NULL;
	s->pid = -1;
	return status;
}

static bool run_cancelled(const gw__run *r)
{
	return r->cancel && *r->cancel;
}

/* Poll the output pipe and hand what arrives to the callback until the
 * program has exited and its output is drained, the time is up, or the
 * caller cancels. True when the program exited. */
static bool pump_output(gw__run *r, gw__spawn *sp, int fd, double deadline)
{
	bool exited = false, eof = false;

	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		double left = deadline - gw__seconds(CLOCK_MONOTONIC);
		char buf[READ_CHUNK];
		ssize_t k;
		int n;

		if (!exited && gw__spawn_exited(sp))
			exited = true;
		if (exited && eof)
			return true;
		if (run_cancelled(r)) {
			r->cancelled = true;
			return exited;
		}
		if (!exited && r->timeout_s > 0 && left <= 0) {
			r->timed_out = true;
			return false;
		}
		/* After EOF (it closed its output) only wait for the exit; once it
		 * has exited, only drain what is already there. Never wait more
		 * than 50 ms, so that a cancel is seen soon. */
		n = gw__sys_poll(&pfd, eof ? 0 : 1,
				 exited ? 0 : r->timeout_s <= 0 || left > 0.05 ? 50 : (int)(left * 1000) + 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* Cannot wait on the pipe: sleep instead, so that the loop
			 * neither spins nor gives up on a program still running. */
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			nanosleep(&ts, NULL);
			eof = true;
			continue;
		}
		if (n == 0 || eof) {
			if (exited)
				return true;
			continue;
		}
		k = gw__sys_read(fd, buf, sizeof(buf));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			eof = true;
		else if (r->output)
			r->output(r->arg, buf, (size_t)k);
	}
}

int gw__run_program(gw__run *r, const char *path, char *const argv[])
{
	int fds[2], rc, status;
	gw__spawn sp;
	double start = gw__seconds(CLOCK_MONOTONIC);
	bool exited;

	r->exit_status = -1;
	r->timed_out = r->cancelled = false;
	r->seconds = 0;
	if (gw__sys_pipe2(fds, O_CLOEXEC) != 0)
		return gw__error_set(GW_EGENERIC, "pipe: %s", strerror(errno));
	rc = gw__spawn_start(&sp, path, argv, fds[1], r->merge_stderr ? fds[1] : -1);
	gw__sys_close(fds[1]);
	if (rc < 0) {
		gw__sys_close(fds[0]);
		return rc;
	}
	exited = pump_output(r, &sp, fds[0], start + r->timeout_s);
	gw__sys_close(fds[0]);
	/* The program on timeout or cancel, and anything it left. */
	status = gw__spawn_end(&sp);
	r->seconds = gw__seconds(CLOCK_MONOTONIC) - start;
	if (exited && !r->timed_out && status >= 0 && WIFEXITED(status))
		r->exit_status = WEXITSTATUS(status);
	return 0;
}
