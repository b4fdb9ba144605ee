/* The pool folder's records (lib/pool/record.c): what `gpuwise run` and
 * `gpuwise ps` accept from files any user may have written. */
#include <math.h>

#include "check.h"
#include "pool/record.h"

static const char *const uuids[] = { "GPU-a", "MIG-b", "GPU-c" };

static int unit_of(const void *arg, const char *uuid, size_t len)
{
	(void)arg;
	for (int i = 0; i < 3; i++)
		if (strlen(uuids[i]) == len && !strncmp(uuids[i], uuid, len))
			return i;
	return -1;
}

static void test_times(void)
{
	CHECK(gw__record_time("since=1796319736.972\n", "since") > 1.7e9);
	/* Nothing a clock gives: 0 (unknown), never NaN or a value a cast
	 * to long overflows on. */
	CHECK(gw__record_time("since=nan\n", "since") == 0);
	CHECK(gw__record_time("since=inf\n", "since") == 0);
	CHECK(gw__record_time("since=-1e300\n", "since") == 0);
	CHECK(gw__record_time("since=1e300\n", "since") == 0);
	CHECK(gw__record_time("since=-5\n", "since") == 0);
	CHECK(gw__record_time("since=x\n", "since") == 0);
	CHECK(gw__record_time("queued=5\n", "since") == 0);
}

static void test_tickets(void)
{
	uint64_t t = 0;

	CHECK(gw__record_ticket_name("job-000000000042", &t) && t == 42);
	CHECK(!gw__record_ticket_name("job-00000000004", &t));
	CHECK(!gw__record_ticket_name("job-0x0000000042", &t));
	CHECK(!gw__record_ticket_name("job- 00000000042", &t));
	CHECK(!gw__record_ticket_name("gpu-000000000042", &t));
	CHECK(gw__record_ticket_counter("17\n", &t) && t == 17);
	CHECK(!gw__record_ticket_counter("0\n", &t));
	CHECK(!gw__record_ticket_counter("garbage\n", &t));
	CHECK(!gw__record_ticket_counter("999999999999\n", &t));
	CHECK(!gw__record_ticket_counter("", &t));
}

static void test_want(void)
{
	bool el[3] = { false };
	gw__want w = { .eligible = el };

	CHECK(gw__record_want("state=waiting\ngpus=2\neligible=GPU-c,,GPU-x,MIG-b,\nmin_free=5\nmax_util=50\n", 3, unit_of,
			      NULL, &w));
	CHECK(w.gpus == 2 && !w.any && !el[0] && el[1] && el[2] && w.min_free == 5 && w.max_util == 50);
	CHECK(gw__record_want("state=waiting\ngpus=1\neligible=*\nmax_util=-1\n", 3, unit_of, NULL, &w) && w.any &&
	      w.max_util == -1);
	/* Not a request anyone could make: not one at all. */
	CHECK(!gw__record_want("state=waiting\ngpus=1\neligible=*\nmax_util=99999999999\n", 3, unit_of, NULL, &w));
	CHECK(!gw__record_want("state=waiting\ngpus=1\neligible=*\nmax_util=101\n", 3, unit_of, NULL, &w));
	CHECK(!gw__record_want("state=waiting\ngpus=0\neligible=*\n", 3, unit_of, NULL, &w));
	CHECK(!gw__record_want("state=waiting\ngpus=1025\neligible=*\n", 3, unit_of, NULL, &w));
	CHECK(!gw__record_want("state=running\ngpus=1\neligible=*\n", 3, unit_of, NULL, &w));
	CHECK(!gw__record_want("state=waiting\ngpus=1\n", 3, unit_of, NULL, &w));
}

/* A name or command with newlines cannot add a line of its own: the
 * record reads back as written. */
static void test_round_trip(void)
{
	char rec[GW__RECORD_MAX];
	gw_pool_job j;
	gw__record_in in = { "running", 10, 11, 1000, 5.5, 6.25, 1, "*", 0, -1, "n\nstate=waiting",
			     "cmd\nleased=GPU-evil\nuid=0", "GPU-a,MIG-b" };

	CHECK(gw__record_format(rec, sizeof(rec), &in));
	CHECK(gw__record_job(3, rec, &j));
	CHECK(j.state == GW_POOL_RUNNING && j.uid == 1000 && j.nleased == 2);
	CHECK_STR(j.leased[0], "GPU-a");
	CHECK_STR(j.leased[1], "MIG-b");
	CHECK_STR(j.name, "n state=waiting");
	CHECK_STR(j.command, "cmd leased=GPU-evil uid=0");
	CHECK(j.since == 6.25 && j.queued == 5.5);
}

int main(void)
{
	test_times();
	test_tickets();
	test_want();
	test_round_trip();
	return CHECK_DONE();
}
