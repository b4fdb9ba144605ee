/* Child processes (lib/core/spawn.c). */
#ifndef GPUWISE_CORE_SPAWN_H
#define GPUWISE_CORE_SPAWN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* A program gpuwise runs (doctor --deep's interpreters, the probe's python3
 * query) and everything it starts. Each of them ends when the run ends,
 * also when gpuwise is interrupted: see spawn.c for the four marks that
 * find them (process group, ancestry, an environment token, adoption). */
typedef struct gw__spawn {
	int pid;                       /* the program, leader of its own group */
	int parent;                    /* getpid() at the start */
	char token[96];                /* GPUWISE_DEEP_RUN=..., in its environment */
	bool subreaper;                /* this process adopts orphans (the CLI sets it) */
	int *before;                   /* our children before the start (subreaper only) */
	size_t nbefore;
} gw__spawn;

/* fork + execve(path, argv) with stdout on out_fd, stderr on err_fd (-1:
 * /dev/null), stdin at end of file. 0, GW_ENOMEM or GW_EGENERIC (the pipe or
 * the fork failed, message set). */
int gw__spawn_start(gw__spawn *s, const char *path, char *const argv[], int out_fd, int err_fd);
/* Has the program exited (not reaped yet)? */
bool gw__spawn_exited(const gw__spawn *s);
/* Kill the program and every process of its run (group, descendants,
 * environment token, adopted orphans), reap what is ours; bounded (about a
 * second). Returns the program's wait status, -1 when none. */
int gw__spawn_end(gw__spawn *s);

/* Run a program to its end and hand its output to a callback. It ends when
 * the program exits, not when the pipe closes: a process it left behind may
 * hold the pipe open for ever. Whatever it started ends with it
 * (gw__spawn_end), on exit, on timeout and on cancel. */
typedef struct gw__run {
	double timeout_s;                  /* > 0: kill it after that long */
	const volatile sig_atomic_t *cancel; /* non-NULL: stop when *cancel becomes nonzero */
	bool merge_stderr;                 /* stderr with stdout, else /dev/null */
	void (*output)(void *arg, const char *buf, size_t n);
	void *arg;
	/* Results. */
	int exit_status;                   /* its exit code; -1 when killed, timed out or not run */
	bool timed_out, cancelled;
	double seconds;                    /* wall time */
} gw__run;
/* 0 when it ran (whatever its status), or the error of gw__spawn_start. */
int gw__run_program(gw__run *r, const char *path, char *const argv[]);
/* /proc/<pid>/stat: the parent, the process group and the state letter. */
int gw__parse_proc_stat(const char *text, int *ppid, int *pgid, char *state);

#endif
