/* The sampler (include/gpuwise/sampler.h) against the fake libnvidia-ml.so.1
 * serving tests/unit/fixtures/nvml_sampler.json: arrays advance by one per
 * pass, power from the energy counter, a GPU lost between two passes and
 * back at the third, the bounded ring, the thread, processes, fork, and
 * allocation failures (GPUWISE_FAULT=alloc:N) at every step.
 * Each case runs in a child process (the fake reads its machine once per
 * process). Run from the repository root (tests/run.sh does). */
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "gpuwise/gpuwise.h"

static char fake_nvml[PATH_MAX];

static void use_machine(void)
{
	setenv("GPUWISE_FAKE_MACHINE", "tests/unit/fixtures/nvml_sampler.json", 1);
	setenv("GPUWISE_NVML_LIBRARY", fake_nvml, 1);
	setenv("GPUWISE_ROOT", "/nonexistent-gpuwise-root", 1);
}

static gw_context *open_ctx(void)
{
	gw_context *ctx = NULL;
	gw_options o = GW_OPTIONS_INIT;

	o.flags = GW_OPT_NO_CUDA | GW_OPT_NO_SYSFS;
	use_machine();
	if (gw_context_new(&ctx, &o) < 0 || gw_device_count(ctx) != 2) {
		fprintf(stderr, "context: %s\n", gw_error_last());
		exit(1);
	}
	return ctx;
}

static gw_sampler *new_sampler(gw_context *ctx, unsigned history, unsigned flags)
{
	gw_sampler_options o = GW_SAMPLER_OPTIONS_INIT;
	gw_sampler *s = NULL;

	o.history = history;
	o.flags = flags;
	CHECK_INT(gw_sampler_new(&s, ctx, &o), 0);
	if (!s)
		exit(1);
	return s;
}

/* machine.json arrays advance by exactly one per pass. */
static void case_arrays_advance(void)
{
	gw_context *ctx = open_ctx();
	gw_sampler *s = new_sampler(ctx, 0, 0);
	gw_sample_point p[4];
	static const unsigned want[] = { 10, 50, 90, 90 };

	CHECK_INT(gw_sampler_device_count(s), 2);
	CHECK_INT(gw_sampler_latest(s, 0, p), GW_ENOTFOUND);
	for (int i = 0; i < 4; i++) {
		CHECK_INT(gw_sampler_step(s), 0);
		CHECK_INT(gw_sampler_latest(s, 0, &p[0]), 0);
		CHECK_INT(p[0].seq, i + 1);
		CHECK_INT(p[0].up, 1);
		CHECK_INT(p[0].sample.gpu_util.v, want[i]);
	}
	CHECK_INT(gw_sampler_passes(s), 4);
	CHECK_INT(gw_sampler_history(s, 0, p, 4), 4);
	for (int i = 0; i < 4; i++) { /* oldest first */
		CHECK_INT(p[i].seq, i + 1);
		CHECK_INT(p[i].sample.gpu_util.v, want[i]);
		CHECK(p[i].time > 1e9);
	}
	gw_sampler_free(s);
	gw_context_free(ctx);
}

/* Average power = growth of the energy counter / time between the points. */
static void case_power_average(void)
{
	gw_context *ctx = open_ctx();
	gw_sampler *s = new_sampler(ctx, 8, 0);
	gw_sample_point p[4];

	for (int i = 0; i < 4; i++) {
		gw_sampler_step(s);
		usleep(20000);
	}
	CHECK_INT(gw_sampler_history(s, 0, p, 4), 4);
	CHECK_INT(p[0].power_average.state, GW_FIELD_UNREAD); /* nothing to compare with yet */
	CHECK_INT(p[1].sample.xid_count.state, GW_FIELD_UNREAD); /* events not asked for */
	CHECK_INT(p[1].power_average.state, GW_FIELD_VALID);
	CHECK(fabs(p[1].power_average.v - 100.0 / (p[1].elapsed - p[0].elapsed)) < 1e-6);
	CHECK(fabs(p[2].power_average.v - 200.0 / (p[2].elapsed - p[1].elapsed)) < 1e-6);
	CHECK(p[1].power_average.v > 100 && p[1].power_average.v < 100 / 0.015);
	CHECK_INT(p[3].power_average.state, GW_FIELD_ERROR); /* the counter went back */
	gw_sampler_free(s);
	gw_context_free(ctx);
}

/* GPU 1 answers GPU_IS_LOST at the second pass: it is up 0 in that pass,
 * GPU 0 is read all the same, and at the third pass GPU 1 is back. */
static void case_lost_between_passes(void)
{
	gw_context *ctx = open_ctx();
	gw_sampler *s = new_sampler(ctx, 0, 0);
	gw_sample_point a[3], b[3];

	for (int i = 0; i < 3; i++)
		CHECK_INT(gw_sampler_step(s), 0);
	CHECK_INT(gw_sampler_history(s, 0, a, 3), 3);
	CHECK_INT(gw_sampler_history(s, 1, b, 3), 3);
	CHECK(a[0].up && a[1].up && a[2].up);
	CHECK_INT(a[1].sample.gpu_util.v, 50);
	CHECK_INT(b[0].up, 1);
	CHECK_INT(b[0].health, GW_HEALTH_OK);
	CHECK_INT(b[1].up, 0);
	CHECK_INT(b[1].error, GW_ELOST);
	CHECK_INT(b[1].health, GW_HEALTH_LOST);
	CHECK_INT(b[1].sample.gpu_util.state, GW_FIELD_UNREAD);
	CHECK_INT(b[1].power_average.state, GW_FIELD_UNREAD);
	CHECK_INT(b[2].up, 1);
	CHECK_INT(b[2].health, GW_HEALTH_OK);
	CHECK_INT(b[2].sample.gpu_util.v, 90);
	gw_sampler_free(s);
	gw_context_free(ctx);
}

/* The ring keeps the newest `history` points; a device subset in order. */
static void case_ring_and_subset(void)
{
	gw_context *ctx = open_ctx();
	gw_sampler_options o = GW_SAMPLER_OPTIONS_INIT;
	int devs[] = { 1 };
	gw_sampler *s = NULL;
	gw_sample_point p[4];

	o.history = 2;
	o.devices = devs;
	o.ndevices = 1;
	CHECK_INT(gw_sampler_new(&s, ctx, &o), 0);
	devs[0] = 0; /* copied: the caller's array may change */
	CHECK_INT(gw_sampler_device_count(s), 1);
	CHECK_INT(gw_sampler_device_index(s, 0), 1);
	CHECK_INT(gw_sampler_device_index(s, 1), -1);
	for (int i = 0; i < 4; i++)
		gw_sampler_step(s);
	CHECK_INT(gw_sampler_history(s, 0, p, 4), 2);
	CHECK_INT(p[0].seq, 3);
	CHECK_INT(p[1].seq, 4);
	CHECK_INT(p[1].device, 1);
	gw_sampler_free(s);

	o.devices = devs;
	devs[0] = 2;
	CHECK_INT(gw_sampler_new(&s, ctx, &o), GW_EINVAL);
	o.devices = NULL;
	o.interval = 0.0001;
	CHECK_INT(gw_sampler_new(&s, ctx, &o), GW_EINVAL);
	o.interval = 1;
	o.flags = 0x80; /* unknown: refused, never ignored */
	CHECK_INT(gw_sampler_new(&s, ctx, &o), GW_EINVAL);
	o.flags = 0;
	o.version = 99;
	CHECK_INT(gw_sampler_new(&s, ctx, &o), GW_EINVAL);
	gw_context_free(ctx);
}

static void on_pass(gw_sampler *s, uint64_t seq, void *arg)
{
	gw_sample_point p;

	if (gw_sampler_latest(s, 0, &p) == 0 && p.seq == seq)
		(*(int *)arg)++;
}

static bool wait_passes(gw_sampler *s, uint64_t n)
{
	for (int i = 0; i < 500 && gw_sampler_passes(s) < n; i++)
		usleep(10000);
	return gw_sampler_passes(s) >= n;
}

/* The thread makes passes every interval and calls on_pass after each. */
static void case_thread(void)
{
	gw_context *ctx = open_ctx();
	gw_sampler_options o = GW_SAMPLER_OPTIONS_INIT;
	gw_sampler *s = NULL;
	int calls = 0;
	uint64_t n;

	o.interval = 0.01;
	o.on_pass = on_pass;
	o.on_pass_arg = &calls;
	CHECK_INT(gw_sampler_new(&s, ctx, &o), 0);
	CHECK_INT(gw_sampler_start(s), 0);
	CHECK_INT(gw_sampler_start(s), GW_EINVAL);
	CHECK_INT(gw_sampler_step(s), GW_EINVAL);
	CHECK(wait_passes(s, 5));
	CHECK_INT(gw_sampler_stop(s), 0);
	n = gw_sampler_passes(s);
	CHECK_INT(calls, n);
	usleep(30000);
	CHECK_INT(gw_sampler_passes(s), n); /* stopped means stopped */
	CHECK_INT(gw_sampler_stop(s), 0);
	CHECK_INT(gw_sampler_step(s), 0); /* stepping again once it stopped */
	CHECK_INT(gw_sampler_start(s), 0);
	gw_sampler_free(s); /* frees a running sampler */
	gw_context_free(ctx);
}

/* GW_SAMPLER_PROCESSES: the newest pass's list, the array advancing. */
static void case_processes(void)
{
	gw_context *ctx = open_ctx();
	gw_sampler *s = new_sampler(ctx, 0, GW_SAMPLER_PROCESSES);
	gw_sampler *bare = new_sampler(ctx, 0, 0);
	gw_process *pr = NULL;
	size_t n = 0;

	CHECK_INT(gw_sampler_processes(s, 0, &pr, &n), GW_ENOTFOUND);
	gw_sampler_step(s);
	CHECK_INT(gw_sampler_processes(s, 0, &pr, &n), 0);
	CHECK(n == 1 && pr && pr[0].pid == 4242 && pr[0].used_memory.v == 1000);
	gw_processes_free(pr);
	gw_sampler_step(s);
	CHECK_INT(gw_sampler_processes(s, 0, &pr, &n), 0);
	CHECK(n == 1 && pr && pr[0].used_memory.v == 2000);
	gw_processes_free(pr);
	pr = NULL;
	n = 7;
	/* GPU 1 was lost in the second pass: unknown, not "none" */
	CHECK_INT(gw_sampler_processes(s, 1, &pr, &n), GW_ENOTSUP);
	CHECK(pr == NULL && n == 7);
	gw_sampler_step(bare);
	CHECK_INT(gw_sampler_processes(bare, 0, &pr, &n), GW_ENOTFOUND);
	gw_sampler_free(bare);
	gw_sampler_free(s);
	gw_context_free(ctx);
}

/* fork while the thread runs: the child stops and frees its copy without
 * waiting for a thread it does not have, its history still readable. */
static void case_fork(void)
{
	gw_context *ctx = open_ctx();
	gw_sampler_options o = GW_SAMPLER_OPTIONS_INIT;
	gw_sampler *s = NULL;
	pid_t pid;
	int status = 0;

	o.interval = 0.005;
	CHECK_INT(gw_sampler_new(&s, ctx, &o), 0);
	CHECK_INT(gw_sampler_start(s), 0);
	CHECK(wait_passes(s, 2));
	gw_sampler_fork_prepare(s);
	pid = fork();
	if (pid == 0) {
		gw_sample_point p;
		uint64_t n;

		gw_sampler_fork_child(s);
		alarm(5); /* a hang is a failure, not a stuck test */
		n = gw_sampler_passes(s);
		if (gw_sampler_latest(s, 0, &p) != 0 || p.seq != n || gw_sampler_stop(s) != 0 ||
		    gw_sampler_start(s) != GW_EINVAL)
			_exit(3);
		usleep(20000);
		if (gw_sampler_passes(s) != n)
			_exit(4);
		gw_sampler_free(s);
		_exit(0);
	}
	gw_sampler_fork_parent(s);
	CHECK(pid > 0);
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	{
		uint64_t before = gw_sampler_passes(s);

		CHECK(wait_passes(s, before + 2)); /* the parent's thread goes on */
	}
	gw_sampler_free(s);
	gw_context_free(ctx);
}

/* ---- Xid events (GW_SAMPLER_EVENTS) --------------------------------------- */

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static gw_context *open_machine(const char *path, int ndev)
{
	gw_context *ctx = NULL;
	gw_options o = GW_OPTIONS_INIT;

	use_machine();
	setenv("GPUWISE_FAKE_MACHINE", path, 1);
	o.flags = GW_OPT_NO_CUDA | GW_OPT_NO_SYSFS;
	if (gw_context_new(&ctx, &o) < 0 || gw_device_count(ctx) != ndev) {
		fprintf(stderr, "context: %s\n", gw_error_last());
		exit(1);
	}
	return ctx;
}

/* Steps until slot k's point has seen `count` Xid events (at most ~3 s). */
static bool step_until_xids(gw_sampler *s, int k, uint64_t count, gw_sample_point *p)
{
	for (int i = 0; i < 300; i++) {
		gw_sampler_step(s);
		if (gw_sampler_latest(s, k, p) == 0 && GW_VALID(p->sample.xid_count) && p->sample.xid_count.v >= count)
			return true;
		usleep(10000);
	}
	return false;
}

/* Xid 13 at once and 79 after 300 ms on GPU 0, counted per GPU; GPU 0 lost
 * from its third read still shows them; a GPU lost before is ERROR, and
 * without the flag every Xid field stays UNREAD. */
static void case_xid_events(void)
{
	gw_context *ctx = open_machine("tests/unit/fixtures/nvml_xid.json", 3);
	gw_sampler *s = new_sampler(ctx, 0, GW_SAMPLER_EVENTS);
	gw_sampler *bare = new_sampler(ctx, 0, 0);
	gw_sample_point p;
	double t0;

	CHECK(step_until_xids(s, 0, 1, &p));
	CHECK_INT(p.sample.xid_last.v, 13);
	CHECK(step_until_xids(s, 0, 2, &p));
	CHECK_INT(p.sample.xid_last.v, 79);
	CHECK_INT(p.sample.xid_count.v, 2);
	CHECK_INT(p.up, 0);                    /* lost from the third read on */
	CHECK_INT(gw_sampler_latest(s, 1, &p), 0);
	CHECK(GW_VALID(p.sample.xid_count) && p.sample.xid_count.v == 0);
	CHECK(GW_VALID(p.sample.xid_last) && p.sample.xid_last.v == 0);
	CHECK_INT(gw_sampler_latest(s, 2, &p), 0);
	CHECK_INT(p.up, 0);
	CHECK_INT(p.sample.xid_count.state, GW_FIELD_ERROR);
	CHECK_INT(p.sample.xid_count.code, GW_ELOST);
	gw_sampler_step(bare);
	CHECK_INT(gw_sampler_latest(bare, 1, &p), 0);
	CHECK_INT(p.sample.xid_last.state, GW_FIELD_UNREAD);
	gw_sampler_free(bare);
	t0 = mono();
	gw_sampler_free(s); /* the event thread stops within one wait */
	CHECK(mono() - t0 < 1.0);
	gw_context_free(ctx);
}

/* Every wait fails (GPU_IS_LOST): passes go on at their pace, nothing is
 * counted, and free does not wait out the back-off. */
static void case_xid_wait_lost(void)
{
	gw_context *ctx = open_machine("tests/unit/fixtures/nvml_xid_wait_lost.json", 2);
	gw_sampler_options o = GW_SAMPLER_OPTIONS_INIT;
	gw_sampler *s = NULL;
	gw_sample_point p;
	double t0;

	o.interval = 0.01;
	o.flags = GW_SAMPLER_EVENTS;
	CHECK_INT(gw_sampler_new(&s, ctx, &o), 0);
	t0 = mono();
	CHECK_INT(gw_sampler_start(s), 0);
	CHECK(wait_passes(s, 20));
	CHECK(mono() - t0 < 2.0);
	CHECK_INT(gw_sampler_latest(s, 0, &p), 0);
	CHECK(p.up && GW_VALID(p.sample.xid_count) && p.sample.xid_count.v == 0);
	t0 = mono();
	gw_sampler_free(s);
	CHECK(mono() - t0 < 0.5);
	gw_context_free(ctx);
}

/* fork with the event thread running: the child frees its copy at once
 * (no thread to join, the parent's event set left alone); the parent's
 * events still arrive. */
static void case_xid_fork(void)
{
	gw_context *ctx = open_machine("tests/unit/fixtures/nvml_xid.json", 3);
	gw_sampler *s = new_sampler(ctx, 0, GW_SAMPLER_EVENTS);
	gw_sample_point p;
	pid_t pid;
	int status = 0;

	gw_sampler_fork_prepare(s);
	pid = fork();
	if (pid == 0) {
		double t0 = mono();

		gw_sampler_fork_child(s);
		alarm(5);
		gw_sampler_free(s);
		_exit(mono() - t0 < 1.0 ? 0 : 3); /* no join: a join of the absent thread would hang */
	}
	gw_sampler_fork_parent(s);
	CHECK(pid > 0);
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(step_until_xids(s, 0, 2, &p));
	gw_sampler_free(s);
	gw_context_free(ctx);
}

/* ---- allocation failures ------------------------------------------------- */

/* Everything a watch does, for one GPUWISE_FAULT setting: 0 when every
 * call worked, 2 when one failed cleanly; a crash is a failure. */
static int fault_run(void)
{
	gw_context *ctx = NULL;
	gw_options go = GW_OPTIONS_INIT;
	gw_sampler *s = NULL;
	gw_sample_point p;
	gw_process *pr = NULL;
	size_t n = 0;
	int rc = 0;

	go.flags = GW_OPT_NO_CUDA | GW_OPT_NO_SYSFS;
	if (gw_context_new(&ctx, &go) < 0)
		return 2;
	if (gw_sampler_new(&s, ctx, &(gw_sampler_options){ .version = GW_SAMPLER_OPTIONS_VERSION,
							    .flags = GW_SAMPLER_PROCESSES }) < 0) {
		gw_context_free(ctx);
		return 2;
	}
	for (int i = 0; i < 3; i++)
		gw_sampler_step(s);
	if (gw_sampler_latest(s, 0, &p) < 0 || !p.up)
		rc = 2;
	if (gw_sampler_processes(s, 0, &pr, &n) < 0)
		rc = 2;
	gw_processes_free(pr);
	gw_sampler_free(s);
	gw_context_free(ctx);
	return rc;
}

static void case_alloc_faults(void)
{
	int clean = 0, n;

	use_machine();
	for (n = 1; n < 2000 && clean < 30; n++) {
		char fault[32];
		pid_t pid;
		int status = 0;

		snprintf(fault, sizeof(fault), "alloc:%d", n);
		fflush(NULL);
		if ((pid = fork()) == 0) {
			setenv("GPUWISE_FAULT", fault, 1);
			_exit(fault_run());
		}
		waitpid(pid, &status, 0);
		if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 2)) {
			fprintf(stderr, "GPUWISE_FAULT=%s: crashed (status %d)\n", fault, status);
			CHECK(0);
			return;
		}
		clean = WEXITSTATUS(status) == 0 ? clean + 1 : 0;
	}
	CHECK(clean >= 30);
	printf("     %d allocation failures injected\n", n - 1 - clean);
}

/* ---- harness ------------------------------------------------------------- */

static void run_case(const char *name, void (*fn)(void))
{
	pid_t pid;
	int status = 0;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		check_failures = check_count = 0;
		alarm(60);
		fn();
		if (check_failures)
			fprintf(stderr, "  in case %s: %d of %d checks failed\n", name, check_failures, check_count);
		exit(check_failures ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	check_count++;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		check_failures++;
		fprintf(stderr, "FAIL %s (%s %d)\n", name, WIFEXITED(status) ? "exit" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	} else {
		printf("ok   %s\n", name);
	}
}

#define RUN(fn) run_case(#fn, fn)

int main(int argc, char **argv)
{
	char self[PATH_MAX], *dir;

	(void)argc;
	if (!realpath(argv[0], self)) {
		perror(argv[0]);
		return 1;
	}
	dir = dirname(dirname(self)); /* build/tests/x -> build */
	snprintf(fake_nvml, sizeof(fake_nvml), "%s/fake/libnvidia-ml.so.1", dir);
	if (access(fake_nvml, R_OK) != 0) {
		printf("SKIP: no fake NVML at %s\n", fake_nvml);
		return 0;
	}
	RUN(case_arrays_advance);
	RUN(case_power_average);
	RUN(case_lost_between_passes);
	RUN(case_ring_and_subset);
	RUN(case_thread);
	RUN(case_processes);
	RUN(case_fork);
	RUN(case_xid_events);
	RUN(case_xid_wait_lost);
	RUN(case_xid_fork);
	RUN(case_alloc_faults);
	return CHECK_DONE();
}
