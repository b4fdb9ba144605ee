/* Fuzz what `gpuwise run` and `gpuwise ps` read back from the pool folder
 * (lib/pool/record.c): a job file's key=value record as a waiting
 * request and as a live job, a file name as a job ticket, the next-ticket
 * counter; and the round trip: a record written from the input's name and
 * command must read back as written, whatever bytes a user put there (no
 * line of theirs may pose as state=, leased= or any other key).
 *
 * Every file of the folder may be another user's, so each result is held
 * to what a writer could produce: times finite and in range, counts and
 * percentages bounded, strings terminated inside their buffers.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pool/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) \
	do { \
		if (!(c)) \
			__builtin_trap(); \
	} while (0)

static const char *const units[] = {
	"GPU-b42dd28e-ffdd-8720-1df0-98bd8cdc05b1", "GPU-7c3cadbd-17e5-0913-f69b-c618122ea0cd",
	"MIG-1f2e3d4c-5b6a-5978-8a9b-0c1d2e3f4a5b", "GPU-2d50cdf6-dd67-9f2e-855e-0d4d6d395a2f",
};
#define NUNITS ((int)(sizeof(units) / sizeof(units[0])))

static int unit_of(const void *arg, const char *uuid, size_t len)
{
	(void)arg;
	for (int i = 0; i < NUNITS; i++)
		if (strlen(units[i]) == len && !memcmp(units[i], uuid, len))
			return i;
	return -1;
}

static void check_job(const gw_pool_job *j)
{
	CHECK(j->state == GW_POOL_WAITING || j->state == GW_POOL_RUNNING);
	CHECK(isfinite(j->queued) && j->queued >= 0 && j->queued < 1e11);
	CHECK(isfinite(j->since) && j->since >= 0 && j->since < 1e11);
	CHECK(j->pid >= 0 && j->job_pid >= 0 && j->gpus < 100000);
	CHECK(j->nleased >= 0 && j->nleased <= GW_POOL_MAX_LEASED);
	CHECK(memchr(j->name, '\0', sizeof(j->name)) && memchr(j->command, '\0', sizeof(j->command)));
	for (int i = 0; i < j->nleased; i++)
		CHECK(j->leased[i][0] && memchr(j->leased[i], '\0', sizeof(j->leased[i])) && !strchr(j->leased[i], ','));
	CHECK(!strchr(j->name, '\n') && !strchr(j->command, '\n'));
}

/* The input as a record, a file name and a counter. */
static void parse_all(const char *text)
{
	bool eligible[NUNITS] = { false };
	gw__want w = { 0 };
	gw_pool_job *j = malloc(sizeof(*j));
	uint64_t t;
	char small[8];

	w.eligible = eligible;
	if (gw__record_want(text, NUNITS, unit_of, NULL, &w)) {
		CHECK(w.gpus >= 1 && w.gpus <= 1024);
		CHECK(w.max_util >= -1 && w.max_util <= 100);
	}
	if (j && gw__record_job(7, text, j))
		check_job(j);
	free(j);
	if (gw__record_ticket_name(text, &t))
		CHECK(t <= GW__TICKET_MAX && strlen(text) == strlen(GW__JOB_PREFIX) + 12);
	if (gw__record_ticket_counter(text, &t))
		CHECK(t > 0 && t < GW__TICKET_MAX);
	if (gw__record_get(text, "state", small, sizeof(small)))
		CHECK(strlen(small) < sizeof(small));
	gw__record_get(text, "state", small, 1);
	CHECK(isfinite(gw__record_time(text, "since")));
}

/* A record written for a running job whose name and command are the
 * input's two halves reads back with exactly what was written. */
static void round_trip(const char *a, const char *b)
{
	char *rec = malloc(GW__RECORD_MAX);
	gw_pool_job *j = malloc(sizeof(*j));
	const char *leased = "GPU-b42dd28e-ffdd-8720-1df0-98bd8cdc05b1,MIG-1f2e3d4c-5b6a-5978-8a9b-0c1d2e3f4a5b";
	gw__record_in in = { "running", 4242, 4243, 1001, 1796319736.957, 1796319737.5, 2, "*", 1ULL << 30, 50,
			     a, b, leased };

	if (rec && j && gw__record_format(rec, GW__RECORD_MAX, &in)) {
		CHECK(gw__record_job(9, rec, j));
		check_job(j);
		CHECK(j->state == GW_POOL_RUNNING && j->pid == 4242 && j->job_pid == 4243 && j->uid == 1001);
		CHECK(j->gpus == 2 && j->nleased == 2 && fabs(j->since - 1796319737.5) < 1e-3);
		CHECK(!strcmp(j->leased[0], "GPU-b42dd28e-ffdd-8720-1df0-98bd8cdc05b1"));
		CHECK(!strcmp(j->leased[1], "MIG-1f2e3d4c-5b6a-5978-8a9b-0c1d2e3f4a5b"));
		/* The name as written: the input's bytes up to 255 of them,
		 * control bytes as spaces. */
		CHECK(strlen(j->name) == (strlen(a) < sizeof(j->name) ? strlen(a) : sizeof(j->name) - 1));
		for (size_t i = 0; j->name[i]; i++)
			CHECK(j->name[i] == ((unsigned char)a[i] < 0x20 || a[i] == 0x7f ? ' ' : a[i]));
		CHECK(strlen(j->command) == (strlen(b) < sizeof(j->command) ? strlen(b) : sizeof(j->command) - 1));
	}
	free(rec);
	free(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* What gw__pool_read hands over: at most GW__RECORD_MAX - 1 bytes and
	 * a NUL (a NUL inside ends the text, as it does there). */
	size_t n = size < GW__RECORD_MAX - 1 ? size : GW__RECORD_MAX - 1;
	char *text = malloc(n + 1), *half;

	if (!text)
		return 0;
	memcpy(text, data, n);
	text[n] = '\0';
	parse_all(text);
	/* The two halves, split at the first 0xff byte (or the middle). */
	half = memchr(text, 0xff, n);
	if (!half)
		half = text + n / 2;
	{
		char *b = strdup(half[0] ? half + 1 : half);

		*half = '\0';
		if (b)
			round_trip(text, b);
		free(b);
	}
	free(text);
	return 0;
}
