/* Unit tests of lib/core/spawn.c: gw__run_program runs a program to its
 * end, hands its output over, honours timeout and cancel, ends every
 * process the program left behind, and survives the failure of each
 * process call of the system-call table (GPUWISE_FAULT) without hanging,
 * crashing or leaving a process. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "core/util.h"
#include "core/path.h"
#include "core/spawn.h"
#include "core/sys.h"

struct buf {
	char text[4096];
	size_t used;
};

static void collect(void *arg, const char *data, size_t n)
{
	struct buf *b = arg;

	if (n > sizeof(b->text) - 1 - b->used)
		n = sizeof(b->text) - 1 - b->used;
	memcpy(b->text + b->used, data, n);
	b->used += n;
	b->text[b->used] = '\0';
}

/* Run sh -c SCRIPT; its output in *b. */
static int sh(gw__run *r, struct buf *b, const char *script)
{
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", (char *)script, NULL };

	memset(b, 0, sizeof(*b));
	r->output = collect;
	r->arg = b;
	return gw__run_program(r, "/bin/sh", argv);
}

/* Running or stopped; a zombie (killed, not reaped yet by whoever adopted
 * it) counts as gone. */
static bool alive(long pid)
{
	char path[64], text[512];
	int ppid, pgid;
	char state;

	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (gw__read_small("/", path, text, sizeof(text)) < 0 || gw__parse_proc_stat(text, &ppid, &pgid, &state) < 0)
		return false;
	return state != 'Z' && state != 'X';
}

/* Wait up to 2 s for pid to be gone (init reaps it once it is killed). */
static bool gone_soon(long pid)
{
	for (int i = 0; i < 200 && alive(pid); i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	return !alive(pid);
}

static void test_output_and_status(void)
{
	gw__run r = { .timeout_s = 10 };
	struct buf b;

	CHECK_INT(sh(&r, &b, "echo out; echo err >&2; exit 3"), 0);
	CHECK_STR(b.text, "out\n");
	CHECK_INT(r.exit_status, 3);
	CHECK(!r.timed_out && !r.cancelled);

	r = (gw__run){ .timeout_s = 10, .merge_stderr = true };
	CHECK_INT(sh(&r, &b, "echo out; echo err >&2"), 0);
	CHECK_STR(b.text, "out\nerr\n");
	CHECK_INT(r.exit_status, 0);

	/* More than one read's worth arrives whole. */
	r = (gw__run){ .timeout_s = 10 };
	CHECK_INT(sh(&r, &b, "i=0; while [ $i -lt 300 ]; do echo 0123456789; i=$((i+1)); done"), 0);
	CHECK_INT(b.used, 3300);

	/* stdin reads as end of file at once. */
	r = (gw__run){ .timeout_s = 10 };
	CHECK_INT(sh(&r, &b, "cat; echo done"), 0);
	CHECK_STR(b.text, "done\n");
}

static void test_timeout_and_cancel(void)
{
	gw__run r = { .timeout_s = 0.3 };
	struct buf b;
	volatile sig_atomic_t stop = 1;

	CHECK_INT(sh(&r, &b, "echo $$; exec sleep 30"), 0);
	CHECK(r.timed_out);
	CHECK_INT(r.exit_status, -1);
	CHECK(r.seconds < 3);
	CHECK(gone_soon(atol(b.text)));

	r = (gw__run){ .timeout_s = 30, .cancel = &stop };
	CHECK_INT(sh(&r, &b, "sleep 30"), 0);
	CHECK(r.cancelled);
	CHECK(r.seconds < 3);
}

/* A program that exits at once but leaves children holding its output
 * (one in its own session): the run ends at the exit, and they end too. */
static void test_leftovers_end(void)
{
	gw__run r = { .timeout_s = 10 };
	struct buf b;
	long a = 0, s = 0;

	CHECK_INT(sh(&r, &b, "sleep 30 & echo $!; setsid sleep 31 & echo $!; exit 0"), 0);
	CHECK_INT(r.exit_status, 0);
	CHECK(r.seconds < 5);
	CHECK(sscanf(b.text, "%ld %ld", &a, &s) == 2);
	CHECK(gone_soon(a));
	CHECK(gone_soon(s));
}

/* A program that cannot be started: exit status 127, never a hang. */
static void test_missing_program(void)
{
	char *argv[] = { (char *)"/no/such/program", NULL };
	gw__run r = { .timeout_s = 5 };

	CHECK_INT(gw__run_program(&r, "/no/such/program", argv), 0);
	CHECK_INT(r.exit_status, 127);
}

/* Each process call failing once: a clean result (an error, or a run with
 * some status), within the time limit, with nothing left running. */
static void test_each_call_failing(void)
{
	static const char *const kinds[] = { "pipe2", "fork", "execve", "dup2", "setpgid", "poll", "kill",
					     "waitpid", "waitid", "prctl", "open", "fdread", "alloc" };

	for (size_t i = 0; i < GW_ARRAY_SIZE(kinds); i++) {
		for (int nth = 1; nth <= 3; nth++) {
			char spec[32];
			gw__run r = { .timeout_s = 2 };
			struct buf b;
			int rc;

			snprintf(spec, sizeof(spec), "%s:%d", kinds[i], nth);
			CHECK_INT(gw__fault_config(spec), 0);
			rc = sh(&r, &b, "echo $$; sleep 30 & echo $!; exit 0");
			gw__fault_config(NULL);
			CHECK(rc == 0 || rc == GW_EGENERIC || rc == GW_ENOMEM);
			CHECK(r.seconds < 5);
			if (rc == 0) {
				long a = 0, c = 0;

				if (sscanf(b.text, "%ld %ld", &a, &c) == 2) {
					if (!gone_soon(c))
						fprintf(stderr, "%s left its child running\n", spec);
					CHECK(gone_soon(c));
				}
			}
		}
	}
}

int main(void)
{
	test_output_and_status();
	test_timeout_and_cancel();
	test_leftovers_end();
	test_missing_program();
	test_each_call_failing();
	return CHECK_DONE();
}
