/* gpuwise — sharing the GPUs of one machine: the queue, leases and jobs
 * behind `gpuwise run` (docs/contracts.md "Sharing GPUs", docs/run.md).
 *
 *   gw_pool *pool;
 *   gw_pool_request req = GW_POOL_REQUEST_INIT;
 *   gw_lease *lease;
 *   gw_job *job;
 *   gw_pool_open(&pool, ctx, NULL);              // $GPUWISE_POOL_DIR or the default
 *   req.gpus = 2;
 *   if (gw_pool_acquire(pool, &req, &lease) == 0) {   // waits its turn
 *       gw_lease_start(lease, argv, &job);       // CUDA_VISIBLE_DEVICES=<UUIDs> ...
 *       while (gw_job_wait(job, 100, &status) == 1)
 *           ;                                    // forward signals, sample the GPUs
 *       gw_job_free(job);
 *       gw_lease_release(lease);
 *   }
 *   gw_pool_close(pool);
 *
 * A lease is a kernel lock (flock) on one file per GPU (or MIG device) in
 * the pool folder, held by an open file that the job inherits: it ends
 * when the job and everything it started have ended, kill -9 included.
 * Waiters are served first come, first served across users: an earlier
 * waiter keeps the free GPUs it could use (up to its count), so a request
 * for several GPUs is not starved by a stream of small ones, while GPUs no
 * earlier waiter can use go to later ones.
 */
#ifndef GPUWISE_POOL_H
#define GPUWISE_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuwise/context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gw_pool gw_pool;
typedef struct gw_lease gw_lease;
typedef struct gw_job gw_job;

/* The pool folder when none is given: shared by every user of the machine
 * when an administrator made it (root's, mode 1777 or a group's 2770).
 * Missing, it is made for its first user alone (0700; 01777 when root
 * makes it). */
#define GW_POOL_DEFAULT_DIR "/var/tmp/gpuwise"

/* $GPUWISE_POOL_DIR when set and not empty, else GW_POOL_DEFAULT_DIR. */
const char *gw_pool_default_dir(void);

/* Open the pool of the context's GPUs in folder dir (NULL: the default),
 * creating the folder when it is missing. GW_EPERM for a folder that is
 * not to be trusted (a symbolic link, another ordinary user's, writable by
 * others unless root's and sticky or group-shared with setgid),
 * GW_EIO/GW_ENOTFOUND when it cannot be used. The context must stay
 * alive while the pool is open. */
int gw_pool_open(gw_pool **out, gw_context *ctx, const char *dir);
void gw_pool_close(gw_pool *pool);
const char *gw_pool_dir(const gw_pool *pool);

#define GW_POOL_REQUEST_VERSION 1
typedef struct gw_pool_request {
	unsigned version;            /* GW_POOL_REQUEST_VERSION */
	unsigned gpus;               /* how many GPUs (or MIG devices); 0 means 1 */
	const char *selectors;       /* gw_context_select list the GPUs come from; NULL: any */
	uint64_t min_free_bytes;     /* each needs this much free memory now; 0: no condition */
	int max_util_percent;        /* each is at most this busy now; < 0: no condition */
	double timeout_s;            /* give up after this long; 0: try once; < 0: wait for ever */
	const char *name;            /* the job's name for ps; NULL: the command's first word */
	const char *command;         /* the command line, for ps; may be NULL */
	const volatile int *cancel;  /* optional: waiting stops (GW_ETIMEDOUT) once *cancel != 0 */
	double poll_s;               /* how often a waiter looks again even when nothing woke it;
					0: 0.5 s (a lease that ends wakes it at once), 0.1 s with
					min_free_bytes/max_util_percent or without inotify */
} gw_pool_request;
#define GW_POOL_REQUEST_INIT { GW_POOL_REQUEST_VERSION, 1, NULL, 0, -1, -1.0, NULL, NULL, NULL, 0.0 }

/* Placement, the rule gw_pool_acquire follows and Python's select() uses:
 * order[0..n-1] gets the positions of units[] least used first by NVML
 * (memory in use, then utilisation, then the order given; one whose memory
 * cannot be read last), from one fresh sample per GPU. */
int gw_placement_order(gw_context *ctx, const gw_selection *units, size_t n, size_t *order);

/* Wait in the queue until the request can be met, then lease the GPUs.
 * 0 and *out, GW_ETIMEDOUT when it gave up (timeout, try once, cancel),
 * GW_EINVAL for a request no GPU of this machine could ever meet (more GPUs
 * than match, a selector that matches nothing), other errors for a pool
 * folder that cannot be used. Free a lease with gw_lease_release(). */
int gw_pool_acquire(gw_pool *pool, const gw_pool_request *req, gw_lease **out);

/* The job number (also GPUWISE_LEASE), how long the request waited, and the
 * leased devices in the order given to CUDA: a GPU (mig = -1) or a MIG
 * device, with its UUID ("GPU-...", "MIG-..."). */
uint64_t gw_lease_id(const gw_lease *lease);
double gw_lease_waited(const gw_lease *lease);
int gw_lease_count(const gw_lease *lease);
int gw_lease_device(const gw_lease *lease, int i, gw_selection *out);
const char *gw_lease_uuid(const gw_lease *lease, int i);

/* The job's environment: ours with CUDA_VISIBLE_DEVICES (UUIDs),
 * CUDA_DEVICE_ORDER=PCI_BUS_ID, HIP_VISIBLE_DEVICES and ROCR_VISIBLE_DEVICES
 * (when AMD GPUs are leased) and GPUWISE_LEASE replaced. A NULL-terminated
 * array; free it with gw_lease_environment_free(). */
int gw_lease_environment(const gw_lease *lease, char ***out);
void gw_lease_environment_free(char **env);

/* Start argv (argv[0] found through PATH) with the lease's environment; the
 * job inherits the lease. GW_ENOTFOUND: no such command; GW_EPERM: not
 * executable. */
int gw_lease_start(gw_lease *lease, char *const argv[], gw_job **out);
/* The same, but the job leads a process group of its own (taking the
 * terminal's foreground over when the caller had it, given back by
 * gw_job_free), so that gw_job_signal reaches everything it started. */
int gw_lease_start_group(gw_lease *lease, char *const argv[], gw_job **out);
int gw_job_pid(const gw_job *job);
/* Signal the job (its whole process group when started with
 * gw_lease_start_group; sig 0 then tells whether any of it is left). */
int gw_job_signal(gw_job *job, int sig);
/* 0 and the wait status once the job has ended; 1 while it runs after
 * timeout_ms, or earlier when a signal arrived (so the caller can forward
 * it); an error otherwise. */
int gw_job_wait(gw_job *job, int timeout_ms, int *status);
void gw_job_free(gw_job *job);

/* ---- what is in the pool (gpuwise ps) ----------------------------------- */

typedef enum gw_pool_job_state {
	GW_POOL_WAITING = 1,
	GW_POOL_RUNNING = 2
} gw_pool_job_state;

#define GW_POOL_MAX_LEASED 64
typedef struct gw_pool_job {
	uint64_t id;                 /* the job number (GPUWISE_LEASE) */
	gw_pool_job_state state;
	int pid;                     /* the supervising gpuwise run */
	int job_pid;                 /* CMD; 0 before it started */
	unsigned uid;
	char user[64];               /* from /etc/passwd under the context's root; else the uid */
	double queued;               /* unix time of the request */
	double since;                /* unix time it started (running) or was queued (waiting) */
	unsigned gpus;               /* how many were asked for */
	char name[256];
	char command[2048];
	int nleased;
	char leased[GW_POOL_MAX_LEASED][96]; /* UUIDs of the leased GPUs / MIG devices */
} gw_pool_job;

/* Every live job of the pool, running and waiting, in queue order (dead
 * jobs' files are skipped). *out is allocated (free with
 * gw_pool_jobs_free()); an empty pool gives NULL and 0. */
int gw_pool_jobs(gw_pool *pool, gw_pool_job **out, size_t *count);
void gw_pool_jobs_free(gw_pool_job *jobs);
/* Whether the last gw_pool_jobs (or look at the queue) stopped at its cap
 * on job files (4096): jobs past it were not seen. */
bool gw_pool_jobs_capped(const gw_pool *pool);

/* A kernel lock held on the pool's lock file or on a GPU's file, and by
 * whom (/proc/locks): a job's lease, or a lock held without a job (a
 * leftover process of an ended job, or anyone running flock on it). */
typedef struct gw_pool_holder {
	char file[128];              /* "lock" or "gpu-<UUID>" */
	char uuid[96];               /* the GPU's or MIG device's UUID; "" for "lock" */
	int locker;                  /* the pid that took the lock */
	int pid;                     /* a live process holding it (locker, or what it left); 0: unknown */
	bool locker_gone;            /* locker has ended: pid inherited the lock */
	int uid;                     /* pid's user; -1: unknown */
	char user[64];
	char comm[32];
} gw_pool_holder;
/* Every lock held in the pool now (*out allocated; free with
 * gw_pool_holders_free; none: NULL and 0). */
int gw_pool_holders(gw_pool *pool, gw_pool_holder **out, size_t *count);
void gw_pool_holders_free(gw_pool_holder *holders);

/* Give the GPUs back (a job still running keeps them until it ends) and
 * free the lease. */
void gw_lease_release(gw_lease *lease);

#ifdef __cplusplus
}
#endif
#endif
