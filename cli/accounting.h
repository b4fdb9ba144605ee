/* The accounting log of gpuwise run: one row per job in an SQLite file in
 * the pool folder (accounting.sqlite), read by gpuwise report. SQLite
 * (Debian libsqlite3-dev) is linked into the CLI only; without it
 * (GW_HAVE_SQLITE unset) run logs nothing and report says why. */
#ifndef GPUWISE_CLI_ACCOUNTING_H
#define GPUWISE_CLI_ACCOUNTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Below this utilisation a leased GPU counts as idle (ps and report). */
#define ACCT_IDLE_PERCENT 5

struct acct_job {
	uint64_t id;
	unsigned uid;
	const char *user, *name, *command;
	int gpus;
	const char *uuids;          /* comma-separated */
	double queued, started, ended;  /* unix times */
	int exit_status;
	double gpu_seconds, idle_gpu_seconds;
	double mean_util;           /* < 0: unknown */
	uint64_t max_memory;        /* bytes, summed over the job's GPUs */
	double energy_j;            /* < 0: unknown */
	const char *ended_by;       /* NULL: the job ended by itself; "idle-timeout" */
	const char *slurm_job;      /* a Slurm task's JOB.STEP.TASK (gpuwise slurm prolog); NULL for gpuwise run */
};

/* exit_status when nobody tells (a Slurm task): stored as NULL. */
#define ACCT_EXIT_UNKNOWN (-1000)

/* Append one job; 0, or -1 with the reason in err. */
int acct_record(const char *pool_dir, const struct acct_job *job, char *err, size_t errsz);

struct acct_user {
	char user[64];
	unsigned jobs;
	double gpu_hours, idle_gpu_hours, wait_hours, max_wait_s, energy_j;
};

struct acct_summary {
	struct acct_user *users;    /* malloc'd, by GPU-hours, largest first */
	size_t nusers;
	struct acct_user total;
	char (*uuids)[96];          /* every UUID leased in the window (malloc'd) */
	size_t nuuids;
};

/* Jobs that ended after `since` (unix time). 0, 1 when there is no log
 * yet (an empty summary), or -1 with the reason in err. */
int acct_summarize(const char *pool_dir, double since, struct acct_summary *out, char *err, size_t errsz);
void acct_summary_free(struct acct_summary *s);

/* False when the CLI was built without SQLite. */
bool acct_available(void);

#endif
