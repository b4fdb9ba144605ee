/* The pool folder's text records (lib/pool/pool.c): a job file's
 * key=value lines, the job files' names and the ticket counter. Pure
 * parsing and formatting, no OS call, so the fuzz target
 * (tests/fuzz/fuzz_pool_records.c) and the unit tests run them on any
 * bytes: every file of the folder may come from another user, and nothing
 * read back may crash, overflow, or turn into a value no writer could give.
 */
#ifndef GPUWISE_POOL_RECORD_H
#define GPUWISE_POOL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuwise/pool.h"

#define GW__RECORD_MAX 8192      /* a job file's text, NUL included */
#define GW__JOB_PREFIX "job-"    /* job-<12-digit ticket> */
#define GW__TICKET_MAX 999999999999ULL

/* A waiting job's request, as its record holds it. eligible (nunits
 * entries, zeroed by the caller) marks the units named in "eligible". */
typedef struct gw__want {
	uint64_t ticket;
	unsigned gpus;             /* 1 to 1024 */
	bool any;                  /* eligible=* */
	bool *eligible;
	uint64_t min_free;
	int max_util;              /* -1: none; else 0 to 100 */
} gw__want;

/* What a job file says, for gw__record_format. */
typedef struct gw__record_in {
	const char *state;         /* "waiting" or "running" */
	int pid, job_pid;
	unsigned uid;
	double queued, since;
	unsigned gpus;
	const char *eligible;      /* "*" or UUIDs joined by ',' */
	uint64_t min_free;
	int max_util;
	const char *name, *command;   /* from the user: control bytes become spaces */
	const char *leased;        /* UUIDs joined by ',' */
} gw__record_in;

/* The value of the first line "key=..." of rec, cut to n - 1 bytes; NULL
 * when no line has the key. */
const char *gw__record_get(const char *rec, const char *key, char *out, size_t n);
/* A decimal (or 0x hex) value of key; false when absent or not a number. */
bool gw__record_u64(const char *rec, const char *key, uint64_t *v);
/* A unix time of key: 0 when absent, not a number, not finite, negative
 * or past the year 5000 (a hostile "since=nan" must not reach a cast). */
double gw__record_time(const char *rec, const char *key);

/* "job-000000000042" → 42; false for any other name. */
bool gw__record_ticket_name(const char *name, uint64_t *ticket);
/* The next-ticket file's text → the counter (1 to GW__TICKET_MAX - 1);
 * false for anything else (the caller then recounts from the job files). */
bool gw__record_ticket_counter(const char *text, uint64_t *ticket);

/* A waiting job's request; false when rec is not one. unit_of maps a
 * UUID (len bytes, not NUL-terminated) to a unit index below nunits, or
 * -1 for a UUID this pool does not have. */
bool gw__record_want(const char *rec, int nunits, int (*unit_of)(const void *arg, const char *uuid, size_t len),
		     const void *arg, gw__want *w);
/* A live job as `gpuwise ps` shows it (user left empty: the caller looks
 * the uid up); false when rec is neither waiting nor running. */
bool gw__record_job(uint64_t id, const char *rec, gw_pool_job *j);

/* The record's text into out (GW__RECORD_MAX is enough for any request
 * gpuwise makes; false when cut). */
bool gw__record_format(char *out, size_t n, const gw__record_in *r);

#endif
