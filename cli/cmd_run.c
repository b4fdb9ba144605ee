/* gpuwise run — wait for free GPUs, lease them, run a command on them
 * (docs/contracts.md "Sharing GPUs"). The queue and the leases are the library's
 * (include/gpuwise/pool.h); this file parses options, forwards signals and
 * turns the outcome into the exit status: CMD's own, 124 when --no-wait or
 * --timeout gave up, 125 when gpuwise failed before CMD started, 126/127
 * when CMD cannot be run or found (as timeout(1) and env(1) say). */
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "accounting.h"
#include "commands.h"
#include "output.h"
#include "usage.h"

enum { EXIT_IDLE = 123, EXIT_GAVE_UP = 124, EXIT_RUN_FAILED = 125, EXIT_CANNOT_EXEC = 126, EXIT_NOT_FOUND = 127 };

struct run_opts {
	unsigned gpus;
	struct opt_list gpu;
	uint64_t min_free;
	int max_util;
	bool no_wait;
	double timeout;
	const char *name;
	double idle_timeout, idle_grace;
};

static const char *parse_gpus(void *field, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < 1 || v > 1024)
		return N_("needs a number of GPUs from 1 to 1024");
	*(unsigned *)field = (unsigned)v;
	return NULL;
}

static const char *parse_percent(void *field, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end != s && *end == '%')
		end++;
	if (end == s || *end || errno || v < 0 || v > 100)
		return N_("needs a percentage from 0 to 100");
	*(int *)field = (int)v;
	return NULL;
}

/* Seconds, or a number with s, m, h or d (as timeout(1) reads it). */
static const char *parse_duration(void *field, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v >= 0) || v > 1e9)
		return N_("needs a duration such as 30, 30s, 5m, 2h or 1d");
	if (!strcmp(end, "m"))
		v *= 60;
	else if (!strcmp(end, "h"))
		v *= 3600;
	else if (!strcmp(end, "d"))
		v *= 86400;
	else if (*end && strcmp(end, "s"))
		return N_("needs a duration such as 30, 30s, 5m, 2h or 1d");
	*(double *)field = v;
	return NULL;
}

#define O struct run_opts
static const struct option run_options[] = {
	OPT_CALLBACK(0, "gpus", O, gpus, "N", N_("how many GPUs (or MIG devices) the command gets (default 1)"),
		     parse_gpus),
	OPT_LIST(0, "gpu", O, gpu, "SEL,...", N_("take them only from these GPUs: index, UUID or its prefix, PCI "
		 "bus id, or G:M for a MIG device, as 'gpuwise list' shows them; a GPU in MIG mode stands for its "
		 "MIG devices")),
	OPT_CALLBACK(0, "min-free", O, min_free, "SIZE", N_("only GPUs with at least this much free memory now "
		     "(8GiB, 16GB, 500MiB)"), opt_parse_size),
	OPT_CALLBACK(0, "max-util", O, max_util, "PCT", N_("only GPUs at most this busy now (0-100), so GPUs used "
		     "outside gpuwise are skipped"), parse_percent),
	OPT_BOOL(0, "no-wait", O, no_wait, N_("do not queue: exit 124 at once when the GPUs are not free")),
	OPT_CALLBACK(0, "timeout", O, timeout, "DURATION", N_("give up (exit 124) after waiting this long in the "
		     "queue (30s, 5m, 2h); the command itself is never timed"), parse_duration),
	OPT_STRING(0, "name", O, name, "NAME", N_("the job's name in 'gpuwise ps' (default: the command)")),
	OPT_CALLBACK(0, "idle-timeout", O, idle_timeout, "DURATION", N_("end the command (exit 123) once every GPU "
		     "it leased has stayed idle (utilisation under 5 %) this long (off by default)"), parse_duration),
	OPT_CALLBACK(0, "idle-grace", O, idle_grace, "DURATION", N_("with --idle-timeout: how long the command has "
		     "between SIGTERM and SIGKILL (default 10s)"), parse_duration),
	OPT_END()
};
#undef O

/* Signals to pass on to the command. A signal the terminal sent (^C, ^\)
 * already reached the command, which shares our process group: only one
 * a process sent to gpuwise is passed on. */
static const int forwarded[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
static volatile sig_atomic_t pending[65];
static volatile sig_atomic_t any_pending;
static volatile int cancel_wait;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig <= 0 || sig > 64)
		return;
	if (si && si->si_code > 0 && (sig == SIGINT || sig == SIGQUIT))
		pending[sig] = 2;   /* from the terminal: seen, not passed on */
	else
		pending[sig] = 1;
	any_pending = 1;
	cancel_wait = sig;
}

static void on_child(int sig)
{
	(void)sig;   /* only ends gw_job_wait's sleep early */
}

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;   /* no SA_RESTART: a signal ends a wait at once */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaction(forwarded[i], &sa, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
}

static void pass_on(gw_job *job)
{
	if (!any_pending)
		return;
	any_pending = 0;
	for (int sig = 1; sig <= 64; sig++) {
		if (!pending[sig])
			continue;
		if (pending[sig] == 1)
			gw_job_signal(job, sig);
		pending[sig] = 0;
	}
}

static char *command_line(int argc, char **argv)
{
	size_t n = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	if (!(s = malloc(n)))
		return NULL;
	s[0] = '\0';
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static char *joined(const struct opt_list *l)
{
	size_t n = 1;
	char *s;

	if (!l->n)
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		n += strlen(l->v[i]) + 1;
	if (!(s = malloc(n)))
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, l->v[i]);
	}
	return s;
}

static int exit_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_RUN_FAILED;
}

/* The job's row of the accounting log, made while the lease is still ours
 * (its UUIDs); the user's name and the write come after the GPUs are
 * handed on (getpwuid may ask NSS: nscd, LDAP, ...). */
static void account_fill(struct acct_job *a, char *uuids, size_t size, gw_lease *lease, const gw_pool_request *req,
			 const struct usage *u, double started, double ended, int status)
{
	size_t k = 0;

	memset(a, 0, sizeof(*a));
	uuids[0] = '\0';
	for (int i = 0; i < gw_lease_count(lease) && k < size; i++)
		k += (size_t)snprintf(uuids + k, size - k, "%s%s", i ? "," : "", gw_lease_uuid(lease, i));
	a->id = gw_lease_id(lease);
	a->uid = (unsigned)getuid();
	a->name = req->name;
	a->command = req->command;
	a->uuids = uuids;
	a->queued = started - gw_lease_waited(lease);
	a->started = started;
	a->ended = ended;
	a->exit_status = status;
	usage_fill(a, u, ended - started);
}

/* --idle-timeout: when the GPUs' idle stretch began, and once it has lasted
 * the timeout, when SIGTERM went to the job's process group. */
struct idle_watch {
	double timeout, grace;          /* timeout < 0: off */
	double idle_since;              /* < 0: the last sample was not idle */
	double termed;                  /* < 0: not ended for idleness (yet) */
	bool killed;
};

static void idle_check(struct idle_watch *w, gw_job *job, const struct usage *u, uint64_t id, double now)
{
	if (w->timeout < 0 || w->termed >= 0)
		return;
	if (!u->all_idle) {
		w->idle_since = -1;
		return;
	}
	if (w->idle_since < 0)
		w->idle_since = now;
	if (now - w->idle_since < w->timeout)
		return;
	error_msg(_("job %llu: its GPUs stayed idle (under %d %% utilisation) for %.0f s: ending it (SIGTERM, "
		    "SIGKILL after %.0f s)"), (unsigned long long)id, ACCT_IDLE_PERCENT, now - w->idle_since, w->grace);
	w->termed = now;
	gw_job_signal(job, SIGTERM);
}

/* After SIGTERM: SIGKILL to whatever of the group is left once the grace
 * period is over. */
static void idle_kill(struct idle_watch *w, gw_job *job, double now)
{
	if (w->termed < 0 || w->killed || now - w->termed < w->grace)
		return;
	w->killed = true;
	gw_job_signal(job, SIGKILL);
}

/* The job's leader has ended after an idle SIGTERM: what it started (its
 * process group) gets the rest of the grace period, then SIGKILL, so the
 * lease is not kept by a straggler. */
static void idle_reap_group(struct idle_watch *w, gw_job *job)
{
	while (gw_job_signal(job, 0) == 0 && !w->killed) {
		struct timespec ts = { 0, 20 * 1000000L };

		idle_kill(w, job, clock_seconds(CLOCK_MONOTONIC));
		nanosleep(&ts, NULL);
	}
}

/* Run CMD on the lease until it ends, passing signals on, sampling, and
 * ending it when --idle-timeout says so. */
static int supervise(gw_context *ctx, gw_job *job, uint64_t id, struct usage *u, struct idle_watch *w, int *status)
{
	/* Samples every second, or four times per idle timeout when that is
	 * shorter, so the job is ended within a quarter of it. */
	double every = w->timeout >= 0 && w->timeout < 4.0 ? (w->timeout > 0.4 ? w->timeout / 4 : 0.1) : 1.0;
	double next = 0;
	int rc;

	for (;;) {
		double now = clock_seconds(CLOCK_MONOTONIC);

		if (now >= next) {
			usage_sample(ctx, u);
			idle_check(w, job, u, id, now);
			next = now + every;
		}
		idle_kill(w, job, now);
		rc = gw_job_wait(job, (int)((next - now) * 1000) + 1, status);
		pass_on(job);
		if (rc != 1)
			break;
	}
	if (rc == 0 && w->termed >= 0)
		idle_reap_group(w, job);
	return rc;
}

/* Lease and run; the exit status. */
static int lease_and_run(gw_context *ctx, gw_pool *pool, gw_pool_request *req, struct idle_watch *w, char **cmd)
{
	gw_lease *lease;
	gw_job *job;
	struct usage u;
	struct acct_job a;
	char uuids[GW_POOL_MAX_LEASED * 97], err[512];
	double started;
	int rc, status = 0;

	rc = gw_pool_acquire(pool, req, &lease);
	if (rc == GW_ETIMEDOUT && cancel_wait)
		return 128 + cancel_wait;   /* interrupted in the queue */
	if (rc == GW_ETIMEDOUT) {
		error_msg("%s", gw_error_last_text());
		return EXIT_GAVE_UP;
	}
	if (rc < 0) {
		error_msg("%s", gw_error_last_text());
		return EXIT_RUN_FAILED;
	}
	if (cancel_wait) {   /* a signal came while the lease was being taken: CMD never starts */
		gw_lease_release(lease);
		return 128 + cancel_wait;
	}
	usage_init(&u);
	for (int i = 0; i < gw_lease_count(lease); i++) {
		gw_selection sel;

		if (gw_lease_device(lease, i, &sel) == 0)
			usage_add(&u, sel);
	}
	started = clock_seconds(CLOCK_REALTIME);
	/* With --idle-timeout the job leads its own process group, so that
	 * ending it reaches everything it started. */
	rc = w->timeout >= 0 ? gw_lease_start_group(lease, cmd, &job) : gw_lease_start(lease, cmd, &job);
	if (rc < 0) {
		error_msg("%s", gw_error_last_text());
		gw_lease_release(lease);
		return rc == GW_ENOTFOUND ? EXIT_NOT_FOUND : rc == GW_EPERM ? EXIT_CANNOT_EXEC : EXIT_RUN_FAILED;
	}
	rc = supervise(ctx, job, gw_lease_id(lease), &u, w, &status);
	gw_job_free(job);
	if (rc == 0) {
		account_fill(&a, uuids, sizeof(uuids), lease, req, &u, started, clock_seconds(CLOCK_REALTIME), exit_of(status));
		a.ended_by = w->termed >= 0 ? "idle-timeout" : NULL;
	}
	gw_lease_release(lease);
	if (rc < 0) {
		error_msg("%s", gw_error_last_text());
		return EXIT_RUN_FAILED;
	}
	if (acct_available()) {
		struct passwd *pw = getpwuid(a.uid);

		a.user = pw ? pw->pw_name : NULL;
		if (acct_record(gw_pool_dir(pool), &a, err, sizeof(err)) < 0)
			warning_msg(_("job %llu: its row could not be written to the accounting log: %s"),
				    (unsigned long long)a.id, err);
	}
	return w->termed >= 0 ? EXIT_IDLE : exit_of(status);
}

static int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .gpus = 1, .max_util = -1, .timeout = -1, .idle_timeout = -1, .idle_grace = 10 };
	struct idle_watch w;
	gw_pool_request req = GW_POOL_REQUEST_INIT;
	gw_context *ctx;
	gw_pool *pool;
	char **args, *line, *sel;
	int n, rc;

	if ((n = parse_options(&cmd_run_def, argc, argv, &o, &args)) == PARSE_HELP)
		return EXIT_OK;
	if (n < 1)
		die_usage("run", _("no command to run (gpuwise run [OPTIONS] -- CMD [ARGS...])"));
	if (o.no_wait && o.timeout >= 0)
		die_usage("run", _("--no-wait and --timeout exclude each other"));
	/* Copied: argv is reordered by the parser and execve wants it ending
	 * in NULL. */
	char **cmd = calloc((size_t)n + 1, sizeof(*cmd));

	if (!cmd)
		return EXIT_RUN_FAILED;
	memcpy(cmd, args, (size_t)n * sizeof(*cmd));
	install_handlers();
	/* Leases name GPUs by NVML UUID: CUDA's view is not needed, and
	 * cuInit is the dearest part of opening the GPUs (on real hardware
	 * tens of milliseconds or more: docs/benchmarks.md). */
	if (!(ctx = open_context_flags(GW_OPT_NO_CUDA))) {
		free(cmd);
		return EXIT_RUN_FAILED;
	}
	if (gw_pool_open(&pool, ctx, NULL) < 0) {
		error_msg("%s", gw_error_last_text());
		gw_context_free(ctx);
		free(cmd);
		return EXIT_RUN_FAILED;
	}
	line = command_line(n, cmd);
	sel = joined(&o.gpu);
	req.gpus = o.gpus;
	req.selectors = sel;
	req.min_free_bytes = o.min_free;
	req.max_util_percent = o.max_util;
	req.timeout_s = o.no_wait ? 0 : o.timeout;
	req.name = o.name ? o.name : cmd[0];
	req.command = line;
	req.cancel = &cancel_wait;
	w = (struct idle_watch){ .timeout = o.idle_timeout, .grace = o.idle_grace, .idle_since = -1, .termed = -1 };
	rc = lease_and_run(ctx, pool, &req, &w, cmd);
	free(line);
	free(sel);
	free(cmd);
	gw_pool_close(pool);
	gw_context_free(ctx);
	return rc;
}

const struct cmd cmd_run_def = {
	.name = "run",
	.fn = cmd_run,
	.summary = N_("wait for free GPUs, lease them, and run a command on them"),
	.options = run_options,
	.args = "-- CMD [ARGS...]",
	.max_args = -1,
	.flags = CMD_COMMAND_ARGS,
	.description =
		N_("Wait in the queue, first come first served across every user of this machine, until enough GPUs "
		"meet the conditions and hold no other gpuwise lease; lease them and run CMD with "
		"CUDA_VISIBLE_DEVICES set to their UUIDs (MIG UUIDs for MIG devices), CUDA_DEVICE_ORDER=PCI_BUS_ID, "
		"ROCR_VISIBLE_DEVICES and HIP_VISIBLE_DEVICES when AMD GPUs are leased, and GPUWISE_LEASE set to the "
		"job number that 'gpuwise ps' shows. An earlier waiter keeps the free GPUs it can use, so a job that "
		"asks for several GPUs is not starved by a stream of small ones.\n\n"
		"A lease is a kernel lock (flock) on one file per GPU in the pool folder, GPUWISE_POOL_DIR or "
		"/var/tmp/gpuwise (it must be yours or root's; created for you alone when missing; see "
		"docs/commands/run.md for a shared setup). CMD inherits the lock, so the GPUs are free again as soon as CMD and whatever it "
		"started have ended, however they end (kill -9 included); no clean-up is ever needed.\n\n"
		"Options end at CMD: what follows it is CMD's own. TERM, INT, HUP, QUIT, USR1 and USR2 sent to "
		"gpuwise are passed on to CMD (^C from the terminal reaches CMD directly).\n\n"
		"With --idle-timeout, gpuwise samples the leased GPUs and ends CMD once every one of them has stayed "
		"idle (utilisation under 5 %, as report counts it) for that long: SIGTERM to CMD's process group (CMD then leads "
		"a group of its own, in the terminal's foreground), SIGKILL to what is left of it after --idle-grace. "
		"It says so on stderr, the accounting log records the job as ended by idle-timeout, and the exit "
		"status is 123. A GPU whose utilisation cannot be read never counts as idle."),
	.exit_status = N_("Exit status: CMD's own (128+N when it died of signal N); 123 when --idle-timeout ended "
		       "it; 124 when --no-wait or --timeout "
		       "gave up; 125 when gpuwise failed before CMD started; 126 when CMD cannot be run, 127 when it "
		       "is not found; 2 on a usage error."),
};
