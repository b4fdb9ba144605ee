/* gpuwise slurm prolog / epilog — the GPU report of a Slurm task, the same
 * row in the accounting log as gpuwise run writes (docs/commands/slurm.md).
 *
 * slurm.conf's TaskProlog runs `gpuwise slurm prolog` as the job's user
 * before each task: it starts a sampler in the background (its own
 * session, every inherited file closed, so slurmstepd does not wait for
 * it) that finds the task's GPUs, samples them once a second and records
 * its pid in the pool folder as slurm-UID-JOB.STEP.TASK (or, when another
 * user planted a file under that name, the first free slurm-UID-JOB.STEP.TASK.N:
 * the epilog trusts only a file of its own user). The prolog returns once
 * the first sample is taken. TaskEpilog runs `gpuwise slurm epilog` after
 * the task: it sends the sampler SIGTERM and waits (at most 10 s) for it to
 * write the row and remove its file. A sampler whose slurmstepd has gone
 * (no epilog ran) writes its row and ends by itself. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "accounting.h"
#include "commands.h"
#include "output.h"
#include "slurm.h"
#include "usage.h"

#define EPILOG_WAIT_S 10
/* Other names a task's pid file may take when its own is taken. */
#define PIDFILE_ALTERNATIVES 8

/* The task, from the environment slurmstepd gives the prolog and epilog. */
struct task {
	const char *job, *step, *localid;
	char key[128];          /* JOB.STEP.TASK */
	char base[4096];        /* POOL/slurm-UID-JOB.STEP.TASK */
	char pidfile[4096];     /* base, or base.N when base was taken */
};

static bool task_from_env(struct task *t)
{
	t->job = getenv("SLURM_JOB_ID");
	t->step = getenv("SLURM_STEP_ID");
	t->localid = getenv("SLURM_LOCALID");
	if (!t->job || !*t->job || strspn(t->job, "0123456789") != strlen(t->job)) {
		error_msg(_("not in a Slurm task (SLURM_JOB_ID is not set): run it as slurm.conf's TaskProlog/TaskEpilog"));
		return false;
	}
	if (!t->step || !*t->step || strspn(t->step, "0123456789") != strlen(t->step))
		t->step = "batch";
	if (!t->localid || !*t->localid || strspn(t->localid, "0123456789") != strlen(t->localid))
		t->localid = "0";
	snprintf(t->key, sizeof(t->key), "%.40s.%.40s.%.40s", t->job, t->step, t->localid);
	snprintf(t->base, sizeof(t->base), "%s/slurm-%u-%s", gw_pool_default_dir(), (unsigned)getuid(), t->key);
	snprintf(t->pidfile, sizeof(t->pidfile), "%s", t->base);
	return true;
}

/* The k-th name the task's pid file may have: base, base.1, base.2, ... */
static void pidfile_name(struct task *t, int k)
{
	if (k == 0)
		snprintf(t->pidfile, sizeof(t->pidfile), "%s", t->base);
	else
		snprintf(t->pidfile, sizeof(t->pidfile), "%.4000s.%d", t->base, k);
}

/* ---- which GPUs the task has ------------------------------------------------ */

/* Slurm's GPU indices (SLURM_STEP_GPUS, SLURM_JOB_GPUS: positions in
 * gres.conf, never renumbered) through gpuwise's own gres list; else
 * CUDA_VISIBLE_DEVICES, whose UUIDs gpuwise resolves itself (indices there
 * are read as gres positions too: right unless cgroups renumbered them). */
static void add_index(gw_context *ctx, struct usage *u, const char *item, const struct gres *g, size_t ng)
{
	char *end;
	long k = strtol(item, &end, 10);
	gw_selection *sel;
	size_t n;

	if (end != item && !*end) {
		if (k >= 0 && (size_t)k < ng)
			usage_add(u, (gw_selection){ g[k].index, g[k].mig });
		return;
	}
	if (gw_context_select(ctx, item, &sel, &n) == 0) {
		for (size_t i = 0; i < n; i++)
			usage_add(u, sel[i]);
		gw_selection_free(sel);
	}
}

static void task_gpus(gw_context *ctx, struct usage *u)
{
	static const char *const vars[] = { "SLURM_STEP_GPUS", "SLURM_JOB_GPUS", "CUDA_VISIBLE_DEVICES" };
	struct gres g[512];
	int skipped;
	size_t ng = slurm_collect(ctx, g, sizeof(g) / sizeof(g[0]), &skipped);

	for (size_t v = 0; v < sizeof(vars) / sizeof(vars[0]) && !u->n; v++) {
		const char *list = getenv(vars[v]);
		char item[128];

		while (list && *list) {
			size_t len = strcspn(list, ",");

			if (len && len < sizeof(item)) {
				memcpy(item, list, len);
				item[len] = '\0';
				add_index(ctx, u, item, g, ng);
			}
			list += len + (list[len] == ',');
		}
	}
}

/* ---- the sampler ----------------------------------------------------------------- */

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* Nothing of slurmstepd's may stay open here: it reads the prolog's
 * output until every copy of the pipe is closed. */
static void detach_files(int keep)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	long max = sysconf(_SC_OPEN_MAX);

	for (int fd = 0; fd < 3; fd++)
		if (null >= 0)
			dup2(null, fd);
	for (long fd = 3; fd < (max > 0 && max < 65536 ? max : 1024); fd++)
		if (fd != keep && fd != null)
			close((int)fd);
	if (null > 2)
		close(null);
}

static int write_pidfile(struct task *t)
{
	char buf[32];
	int fd = -1, len = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());

	/* A file under one of the names that another user planted stays (the
	 * sticky folder keeps it theirs): the next name is tried. A file of
	 * our own left by a sampler that was killed is ours to replace. */
	for (int k = 0; fd < 0 && k <= PIDFILE_ALTERNATIVES; k++) {
		struct stat st;

		pidfile_name(t, k);
		if (lstat(t->pidfile, &st) == 0 && st.st_uid == getuid())
			unlink(t->pidfile);
		fd = open(t->pidfile, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	}
	if (fd < 0)
		return -1;
	if (write(fd, buf, (size_t)len) != len) {
		close(fd);
		unlink(t->pidfile);
		return -1;
	}
	close(fd);
	return 0;
}

static void record(const struct task *t, const struct usage *u, gw_context *ctx, double started, double ended)
{
	struct acct_job a;
	struct passwd *pw = getpwuid(getuid());
	char uuids[USAGE_MAX_GPUS * 97], command[256], err[512];
	size_t k = 0;

	memset(&a, 0, sizeof(a));
	uuids[0] = '\0';
	for (int i = 0; i < u->n && k < sizeof(uuids); i++) {
		gw_device_sample s;
		const gw_device_info *d = gw_device_get(ctx, u->dev[i].device);
		const char *id = d && GW_VALID(d->uuid) ? d->uuid.s : "";

		if (u->dev[i].mig >= 0 && gw_device_sample_read(ctx, u->dev[i].device, &s) == 0 &&
		    u->dev[i].mig < s.mig_count && GW_VALID(s.mig[u->dev[i].mig].uuid))
			id = s.mig[u->dev[i].mig].uuid.s;
		k += (size_t)snprintf(uuids + k, sizeof(uuids) - k, "%s%s", i ? "," : "", id);
	}
	snprintf(command, sizeof(command), "slurm job %s step %s task %s", t->job, t->step, t->localid);
	a.id = strtoull(t->job, NULL, 10);
	a.uid = (unsigned)getuid();
	a.user = pw ? pw->pw_name : NULL;
	a.name = getenv("SLURM_JOB_NAME");
	a.command = command;
	a.uuids = uuids;
	a.queued = a.started = started;
	a.ended = ended;
	a.exit_status = ACCT_EXIT_UNKNOWN;  /* slurmstepd does not tell a TaskEpilog */
	a.slurm_job = t->key;
	usage_fill(&a, u, ended - started);
	acct_record(gw_pool_default_dir(), &a, err, sizeof(err));
}

/* The sampler's life: GPUs, first sample, pid file, "ready", then a sample
 * a second until the epilog's SIGTERM or slurmstepd's end. */
static int sampler(struct task *t, pid_t stepd, int ready)
{
	struct sigaction sa;
	struct usage u;
	gw_context *ctx;
	gw_pool *pool;
	double started, started_mono;
	gw_options opts = GW_OPTIONS_INIT;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	usage_init(&u);
	opts.flags = GW_OPT_NO_CUDA;    /* as gpuwise run: NVML's view is enough */
	if (gw_context_new(&ctx, &opts) < 0)
		return 1;
	/* The pool folder, made and checked as gpuwise run does. */
	if (gw_pool_open(&pool, ctx, NULL) < 0) {
		gw_context_free(ctx);
		return 1;
	}
	gw_pool_close(pool);
	task_gpus(ctx, &u);
	if (!u.n || write_pidfile(t) < 0) {
		gw_context_free(ctx);
		return u.n ? 1 : 0;      /* a task without GPUs: nothing to report */
	}
	started = clock_seconds(CLOCK_REALTIME);
	started_mono = clock_seconds(CLOCK_MONOTONIC);
	usage_sample(ctx, &u);
	close(ready);
	while (!stop && (kill(stepd, 0) == 0 || errno == EPERM)) {
		struct timespec ts = { 1, 0 };

		nanosleep(&ts, NULL);
		if (!stop)
			usage_sample(ctx, &u);
	}
	record(t, &u, ctx, started, started + clock_seconds(CLOCK_MONOTONIC) - started_mono);
	unlink(t->pidfile);
	gw_context_free(ctx);
	return 0;
}

/* The slurmstepd above us (the TaskProlog script may be a shell that
 * ends at once), found by walking up the parents through /proc; our
 * parent when there is none. The sampler ends with it. */
static pid_t step_daemon(void)
{
	pid_t pid = getppid();

	for (int depth = 0; depth < 8 && pid > 1; depth++) {
		char path[64], buf[512], *close_paren;
		FILE *f;
		size_t n;
		int ppid;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		if (!(f = fopen(path, "re")))
			break;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		if (strstr(buf, "(slurmstepd)"))
			return pid;
		if (!(close_paren = strrchr(buf, ')')) || sscanf(close_paren + 1, " %*c %d", &ppid) != 1)
			break;
		pid = (pid_t)ppid;
	}
	return getppid();
}

int slurm_task_prolog(void)
{
	struct task t;
	int ready[2], status;
	pid_t child, stepd = step_daemon();
	char c;

	if (!task_from_env(&t))
		return EXIT_FAIL;
	if (!acct_available()) {
		error_msg(_("gpuwise was built without SQLite (libsqlite3-dev): no accounting log"));
		return EXIT_FAIL;
	}
	if (pipe(ready) != 0)
		return EXIT_FAIL;
	fflush(NULL);
	child = fork();
	if (child < 0)
		return EXIT_FAIL;
	if (child == 0) {
		/* Twice, so the sampler is nobody's child here and in a
		 * session of its own, away from the task's signals. */
		close(ready[0]);
		setsid();
		if (fork() != 0)
			_exit(0);
		detach_files(ready[1]);
		_exit(sampler(&t, stepd, ready[1]));
	}
	close(ready[1]);
	waitpid(child, &status, 0);
	/* The sampler closes its end after the first sample (or dies): the
	 * task then starts. Bounded by the sampler's own start-up. */
	while (read(ready[0], &c, 1) < 0 && errno == EINTR)
		;
	close(ready[0]);
	return EXIT_OK;
}

static pid_t read_pid(const char *path)
{
	char buf[32];
	struct stat st;
	ssize_t n;
	long v;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* Only a plain file of our own names a process to signal. */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != getuid()) {
		close(fd);
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	v = strtol(buf, NULL, 10);
	return v > 1 && v < 1L << 30 ? (pid_t)v : -1;
}

int slurm_task_epilog(void)
{
	struct task t;
	pid_t pid;

	if (!task_from_env(&t))
		return EXIT_FAIL;
	/* No file of ours: the task had no GPUs, or the prolog did not run. */
	pid = -1;
	for (int k = 0; pid < 0 && k <= PIDFILE_ALTERNATIVES; k++) {
		pidfile_name(&t, k);
		pid = read_pid(t.pidfile);
	}
	if (pid < 0)
		return EXIT_OK;
	if (kill(pid, SIGTERM) != 0)
		return EXIT_OK;
	for (int i = 0; i < EPILOG_WAIT_S * 50 && access(t.pidfile, F_OK) == 0; i++) {
		struct timespec ts = { 0, 20 * 1000000L };

		nanosleep(&ts, NULL);
	}
	if (access(t.pidfile, F_OK) == 0) {
		error_msg(_("the GPU sampler of Slurm task %s did not finish within %d s"), t.key, EPILOG_WAIT_S);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
