/* The queue and the leases of `gpuwise run` (include/gpuwise/pool.h).
 *
 * The pool folder holds:
 *   lock            flock'ed exclusively while a process looks at or changes
 *                   the queue (short: never while a job runs)
 *   next-ticket     the ticket counter (text), read and bumped under `lock`
 *   gpu-<UUID>      one per GPU or MIG device: the lease is an flock on it
 *   job-<ticket>    one per waiting or running job (key=value lines), locked
 *                   by its owner for as long as it lives; a job file whose
 *                   lock can be taken belongs to a dead process and is
 *                   skipped (and removed when we may)
 * Every OS call goes through lib/core (gw__pool_*, gw__job_*).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "pool/poolfs.h"
#include "core/proc_parse.h"
#include "pool/record.h"

#define JOB_PREFIX GW__JOB_PREFIX
#define RECORD_MAX GW__RECORD_MAX
#define MAX_JOBS 4096

typedef struct unit {
	int device, mig;
	gw_vendor vendor;
	char uuid[GW_STR_MAX];
	char file[GW_STR_MAX + 8];   /* gpu-<UUID>, only [A-Za-z0-9._-] */
} unit;

struct gw_pool {
	gw_context *ctx;
	char dir[4096];
	unit *units;
	int nunits;
	int dir_fd;        /* the folder, checked once: files are opened relative to it */
	int lock_fd;
	int watch_fd;      /* inotify on dir once a request had to wait; -1: none */
	bool watch_failed;
	bool capped;       /* the last listing of the jobs stopped at MAX_JOBS */
	double lock_until; /* how long global_lock waits (monotonic s); < 0: for ever */
	const volatile int *cancel;   /* global_lock stops waiting once *cancel != 0 */
};

struct gw_lease {
	gw_pool *pool;
	uint64_t id;
	double waited;
	int n;
	int *units;        /* indices into pool->units */
	int *fds;          /* their lock files, inherited by the job */
	int job_fd;
	char job_file[32];
	char record[RECORD_MAX];
};

struct gw_job {
	int pid;
	int pidfd;      /* wakes gw_job_wait when the job ends; -1: none */
	bool group;     /* leads its own process group (gw_lease_start_group) */
};

/* A request as a job file holds it, ours or an earlier waiter's. */
typedef gw__want want;

extern char **environ;

const char *gw_pool_default_dir(void)
{
	const char *d = gw__env_path("GPUWISE_POOL_DIR");

	return d && *d ? d : GW_POOL_DEFAULT_DIR;
}

/* ---- the units: GPUs, or the MIG devices of a GPU in MIG mode ----------- */

static void unit_file(unit *u)
{
	size_t k = 0;

	k = (size_t)snprintf(u->file, sizeof(u->file), "gpu-");
	for (const char *p = u->uuid; *p && k + 1 < sizeof(u->file); p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
			  c == '.' || c == '_';

		u->file[k++] = ok ? c : '_';
	}
	u->file[k] = '\0';
}

static int add_unit(gw_pool *p, int device, int mig, gw_vendor vendor, const char *uuid)
{
	unit *u;

	if (!(u = gw__realloc(p->units, (size_t)(p->nunits + 1) * sizeof(*u))))
		return GW_ENOMEM;
	p->units = u;
	u += p->nunits++;
	memset(u, 0, sizeof(*u));
	u->device = device;
	u->mig = mig;
	u->vendor = vendor;
	gw__strlcpy(u->uuid, uuid, sizeof(u->uuid));
	unit_file(u);
	return 0;
}

static int find_units(gw_pool *p)
{
	for (int i = 0; i < gw_device_count(p->ctx); i++) {
		const gw_device_info *d = gw_device_get(p->ctx, i);
		gw_device_sample s;
		int rc = 0;

		if (d->health != GW_HEALTH_OK || !GW_VALID(d->uuid) || !d->uuid.s[0] ||
		    (d->vendor != GW_VENDOR_NVIDIA && d->vendor != GW_VENDOR_AMD))
			continue;
		if (gw_device_sample_read(p->ctx, i, &s) == 0 && s.mig_count > 0) {
			for (int m = 0; m < s.mig_count && rc == 0; m++)
				if (GW_VALID(s.mig[m].uuid) && s.mig[m].uuid.s[0])
					rc = add_unit(p, i, m, d->vendor, s.mig[m].uuid.s);
		} else {
			char uuid[GW_STR_MAX + 8];

			/* ROCm names AMD GPUs GPU-<unique_id>. */
			gw__fmt(uuid, sizeof(uuid), "%s%s",
				d->vendor == GW_VENDOR_AMD && strncmp(d->uuid.s, "GPU-", 4) ? "GPU-" : "", d->uuid.s);
			rc = add_unit(p, i, -1, d->vendor, uuid);
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

int gw_pool_open(gw_pool **out, gw_context *ctx, const char *dir)
{
	gw_pool *p;
	int rc;

	if (!out || !ctx)
		return gw__error_set(GW_EINVAL, "gw_pool_open: NULL argument");
	if (!dir)
		dir = gw_pool_default_dir();
	if (!(p = gw__calloc(1, sizeof(*p))))
		return GW_ENOMEM;
	p->ctx = ctx;
	p->lock_fd = -1;
	p->lock_until = -1;
	if ((rc = gw__pool_dir_open(dir, true, &p->dir_fd)) < 0) {
		gw__free(p);
		return rc;
	}
	p->watch_fd = -1;
	gw__strlcpy(p->dir, dir, sizeof(p->dir));
	if ((rc = find_units(p)) < 0 || (rc = gw__pool_open(p->dir_fd, p->dir, "lock", GW__POOL_CREATE, &p->lock_fd)) < 0) {
		gw_pool_close(p);
		return rc;
	}
	*out = p;
	return 0;
}

void gw_pool_close(gw_pool *pool)
{
	if (!pool)
		return;
	gw__pool_close(pool->lock_fd);
	gw__pool_close(pool->watch_fd);
	gw__pool_close(pool->dir_fd);
	gw__free(pool->units);
	gw__free(pool);
}

const char *gw_pool_dir(const gw_pool *pool)
{
	return pool ? pool->dir : NULL;
}

/* ---- job records ------------------------------------------------------------- */

static int unit_by_uuid(const void *arg, const char *uuid, size_t len)
{
	const gw_pool *p = arg;

	for (int i = 0; i < p->nunits; i++)
		if (strlen(p->units[i].uuid) == len && !strncmp(p->units[i].uuid, uuid, len))
			return i;
	return -1;
}

/* Parse a waiting job's request; false when the record is not one. */
static bool parse_want(const gw_pool *p, const char *rec, want *w)
{
	int n = 0;

	if (!gw__record_want(rec, p->nunits, unit_by_uuid, p, w) || w->gpus > (unsigned)p->nunits)
		return false;
	/* A request no GPU set of this machine can meet is no one's turn. */
	for (int u = 0; u < p->nunits; u++)
		n += w->any || w->eligible[u];
	return w->gpus <= (unsigned)n;
}

/* ---- conditions on live samples --------------------------------------------- */

typedef struct live {
	gw_device_sample *s;   /* per device */
	bool *ok;              /* per device: sample read */
} live;

static void read_live(gw_pool *p, live *l)
{
	for (int i = 0; i < p->nunits; i++) {
		int d = p->units[i].device;

		if (!l->ok[d])
			l->ok[d] = gw_device_sample_read(p->ctx, d, &l->s[d]) == 0;
	}
}

static bool meets(const gw_pool *p, const live *l, int ui, uint64_t min_free, int max_util)
{
	const unit *u = &p->units[ui];
	const gw_device_sample *s = &l->s[u->device];

	if (min_free == 0 && max_util < 0)
		return true;
	if (!l->ok[u->device])
		return false;
	if (min_free) {
		const gw_u64 *f = u->mig >= 0 ? (u->mig < s->mig_count ? &s->mig[u->mig].memory_free : NULL)
					       : &s->memory_free;

		if (!f || !GW_VALID(*f) || f->v < min_free)
			return false;
	}
	if (max_util >= 0 && (!GW_VALID(s->gpu_util) || s->gpu_util.v > (uint64_t)max_util))
		return false;
	return true;
}

static bool usable(const gw_pool *p, const live *l, const want *w, int ui)
{
	return (w->any || w->eligible[ui]) && meets(p, l, ui, w->min_free, w->max_util);
}

/* ---- the queue ------------------------------------------------------------------ */

static void sleep_s(double s);
static void user_name(const gw_pool *p, unsigned uid, char *out, size_t n);

/* "pid 123 (user bob, flock)" for whoever holds a file's lock; "" when
 * it cannot be told. */
static void holder_text(gw_pool *p, const char *file, char *out, size_t n)
{
	gw__holder h;
	char user[64];

	out[0] = '\0';
	if (!gw__pool_holder(p->dir_fd, file, &h) || !h.pid) {
		if (h.locker)
			gw__fmt(out, n, "pid %d (ended; a process it started keeps the lock)", h.locker);
		return;
	}
	if (h.have_uid)
		user_name(p, h.uid, user, sizeof(user));
	gw__fmt(out, n, "pid %d (user %s, %s)%s", h.pid, h.have_uid ? user : "?", h.comm[0] ? h.comm : "?",
		h.locker_gone ? ", left by an ended process" : "");
}

/* The pool's lock is short-lived (a look at the queue): it is never
 * waited for past the caller's deadline or a cancel, so whoever holds it
 * for long (flock POOL/lock sleep ...) cannot make --no-wait or --timeout
 * block. GW_ETIMEDOUT names the holder. */
static int global_lock(gw_pool *p)
{
	double nap = 0.0002;

	for (;;) {
		int rc = gw__pool_lock(p->lock_fd, true, false);
		double left = p->lock_until < 0 ? 1 : p->lock_until - gw__seconds(CLOCK_MONOTONIC);
		char who[160];

		if (rc <= 0)
			return rc;
		if ((p->cancel && *p->cancel) || left <= 0) {
			holder_text(p, "lock", who, sizeof(who));
			return gw__error_set(GW_ETIMEDOUT, "the pool's lock %s/lock is held%s%s: gave up waiting for it",
					     p->dir, who[0] ? " by " : "", who);
		}
		sleep_s(nap < left ? nap : left);
		if (nap < 0.01)
			nap *= 2;
	}
}

/* Bound the waits for the pool's lock by now + s (s < 0: for ever). */
static void lock_within(gw_pool *p, double s)
{
	p->lock_until = s < 0 ? -1 : gw__seconds(CLOCK_MONOTONIC) + s;
}

static void global_unlock(gw_pool *p)
{
	gw__pool_unlock(p->lock_fd);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The job files, sorted (the ticket has a fixed width: name order is
 * ticket order). */
static bool job_name(const char *name)
{
	uint64_t t;

	return gw__record_ticket_name(name, &t);
}

/* Only names of job files count towards the cap (junk named job-* does
 * not), and reaching it is remembered (gw_pool_jobs_capped). */
static int list_jobs(gw_pool *p, char ***names, size_t *n)
{
	int rc = gw__dir_list_filter("/", p->dir, JOB_PREFIX, job_name, MAX_JOBS, names, n, &p->capped);

	if (rc == GW_ENOTFOUND) {
		*names = NULL;
		*n = 0;
		return 0;
	}
	if (rc == 0 && *n > 1)
		qsort(*names, *n, sizeof(**names), cmp_names);
	return rc;
}

static bool ticket_of(const char *name, uint64_t *t)
{
	return gw__record_ticket_name(name, t);
}

/* Read a live job's record into rec and the uid of its file's owner (the
 * one who made it: job files are created O_EXCL by their job, and the
 * record's own uid= line is whatever its writer put there); false for a
 * dead job (its file is removed when we may), a file that is not a job's,
 * or another user's job file that others may write (anyone could have
 * rewritten it: not trusted). */
static bool read_live_job(gw_pool *p, const char *name, char *rec, size_t n, unsigned *owner)
{
	unsigned mode = 0;
	int fd, rc;
	bool alive;

	/* Read-only: its close wakes no waiter (gw__pool_watch_wait). */
	if (gw__pool_open(p->dir_fd, p->dir, name, GW__POOL_READ, &fd) < 0)
		return false;
	if (gw__pool_owner(fd, owner, &mode) < 0 || (*owner != gw__getuid() && (mode & 022))) {
		gw__pool_close(fd);
		return false;
	}
	rc = gw__pool_lock(fd, true, false);
	alive = rc == 1;
	if (rc == 0) {
		gw__pool_unlock(fd);
		gw__pool_remove(p->dir_fd, name);
	}
	if (alive && gw__pool_read(fd, rec, n) < 0)
		alive = false;
	gw__pool_close(fd);
	return alive;
}

/* The next ticket, bumped. A counter someone garbled, or set back to get
 * ahead of the queue, restarts after the highest live job. */
static int take_ticket(gw_pool *p, uint64_t *out)
{
	char buf[64], **names;
	size_t n;
	uint64_t t = 0, top = 0;
	int fd, rc = gw__pool_open(p->dir_fd, p->dir, "next-ticket", GW__POOL_CREATE | GW__POOL_WRITE, &fd);

	if (rc < 0)
		return rc;
	/* Only above the highest live job: a counter someone set back (to
	 * get ahead of the queue) or garbled is not taken. */
	if (list_jobs(p, &names, &n) == 0) {
		char *rec = gw__malloc(RECORD_MAX);
		unsigned owner;

		for (size_t i = n; rec && i-- > 0;) {
			uint64_t k;

			if (ticket_of(names[i], &k) && read_live_job(p, names[i], rec, RECORD_MAX, &owner)) {
				top = k;
				break;
			}
		}
		gw__free(rec);
		gw__dir_list_free(names, n);
	}
	if (gw__pool_read(fd, buf, sizeof(buf)) <= 0 || !gw__record_ticket_counter(buf, &t) || t <= top)
		t = top + 1;
	if (t >= GW__TICKET_MAX) {
		gw__pool_close(fd);
		return gw__error_set(GW_EPERM, "%s/next-ticket: no ticket left above the live job %llu: refused",
				     p->dir, (unsigned long long)top);
	}
	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)(t + 1));
	rc = gw__pool_write(fd, buf);
	gw__pool_close(fd);
	if (rc < 0)
		return rc;
	*out = t;
	return 0;
}

static void uuid_list(const gw_pool *p, const int *units, int n, char *out, size_t size)
{
	size_t k = 0;

	out[0] = '\0';
	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(out + k, k < size ? size - k : 0, "%s%s", i ? "," : "", p->units[units[i]].uuid);
	if (k >= size)
		gw__mark_cut(out, size);
}

static int write_record(gw_lease *l, const char *state, const want *w, const gw_pool_request *req, int job_pid)
{
	gw_pool *p = l->pool;
	char elig[4096], leased[4096] = "";
	int *idx = gw__calloc((size_t)p->nunits, sizeof(int));
	int k = 0;
	gw__record_in r;

	if (!idx)
		return GW_ENOMEM;
	for (int i = 0; i < p->nunits; i++)
		if (w->any || w->eligible[i])
			idx[k++] = i;
	if (w->any)
		snprintf(elig, sizeof(elig), "*");
	else
		uuid_list(p, idx, k, elig, sizeof(elig));
	gw__free(idx);
	uuid_list(p, l->units, l->n, leased, sizeof(leased));
	r = (gw__record_in){ state, (int)gw__getpid(), job_pid, gw__getuid(), gw__seconds(CLOCK_REALTIME) - l->waited,
			     gw__seconds(CLOCK_REALTIME), w->gpus, elig, w->min_free, w->max_util, req->name,
			     req->command, leased };
	gw__record_format(l->record, sizeof(l->record), &r);
	return gw__pool_write(l->job_fd, l->record);
}

/* Job files another user planted under numbers the counter has not
 * reached yet are skipped (up to this many in a row), so they cannot stop
 * every later run. */
#define PLANTED_MAX 64

/* Our place in the queue: a ticket and a job file locked by us. */
static int enqueue(gw_lease *l, const want *w, const gw_pool_request *req)
{
	gw_pool *p = l->pool;
	int rc, tries = 0;

	if ((rc = global_lock(p)) < 0)
		return rc;
	do {
		if ((rc = take_ticket(p, &l->id)) < 0)
			break;
		snprintf(l->job_file, sizeof(l->job_file), JOB_PREFIX "%012llu", (unsigned long long)l->id);
		/* Readable by all (ps), written by us only; the job inherits it
		 * so the record lives as long as the job. */
		rc = gw__pool_open(p->dir_fd, p->dir, l->job_file, GW__POOL_CREATE | GW__POOL_EXCL | GW__POOL_INHERIT | GW__POOL_PRIVATE,
				   &l->job_fd);
	} while (rc == 2 && ++tries < PLANTED_MAX);
	if (rc == 2)
		rc = gw__error_set(GW_EPERM, "%s/%s and the %d job files before it existed already: someone put them "
				   "there; remove them", p->dir, l->job_file, PLANTED_MAX - 1);
	if (rc >= 0 && (rc = gw__pool_lock(l->job_fd, true, false)) == 1)
		rc = gw__error_set(GW_EGENERIC, "%s/%s is locked by another process", p->dir, l->job_file);
	if (rc >= 0)
		rc = write_record(l, "waiting", w, req, 0);
	if (rc < 0 && l->job_fd >= 0) {
		gw__pool_remove(p->dir_fd, l->job_file);
		gw__pool_close(l->job_fd);
		l->job_fd = -1;
	}
	global_unlock(p);
	return rc < 0 ? rc : 0;
}

/* Earlier waiters keep the free units they could use, up to their count,
 * in queue order: what is left may go to us. */
static void reserve_for_earlier(gw_pool *p, const live *lv, uint64_t mine, bool *free_units)
{
	char **names, rec[RECORD_MAX];
	size_t n;
	unsigned owner;
	want w;

	if (list_jobs(p, &names, &n) < 0)
		return;
	if (!(w.eligible = gw__calloc((size_t)p->nunits, sizeof(bool)))) {
		gw__dir_list_free(names, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t t;
		unsigned kept = 0;

		if (!ticket_of(names[i], &t) || t >= mine || !read_live_job(p, names[i], rec, sizeof(rec), &owner))
			continue;
		memset(w.eligible, 0, (size_t)p->nunits * sizeof(bool));
		if (!parse_want(p, rec, &w))
			continue;
		for (int u = 0; u < p->nunits && kept < w.gpus; u++)
			if (free_units[u] && usable(p, lv, &w, u)) {
				free_units[u] = false;
				kept++;
			}
	}
	gw__free(w.eligible);
	gw__dir_list_free(names, n);
}

/* One look at the pool under the global lock: true when the units are
 * ours (their locks held in l->fds). probe[] keeps each unit's file open
 * from one look to the next (-1: not opened yet): a look then closes
 * nothing, so it wakes no other waiter (gw__pool_watch_wait), and costs
 * no open. */
static int try_take(gw_lease *l, const want *w, const gw_pool_request *req, const live *lv, int *probe,
		    const int *order)
{
	gw_pool *p = l->pool;
	bool *free_units = gw__calloc((size_t)p->nunits, sizeof(bool));
	bool *locked = gw__calloc((size_t)p->nunits, sizeof(bool));
	int rc, got = 0;

	if (!free_units || !locked) {
		gw__free(free_units);
		gw__free(locked);
		return GW_ENOMEM;
	}
	if ((rc = global_lock(p)) < 0)
		goto out;
	for (int u = 0; u < p->nunits; u++) {
		if (!usable(p, lv, w, u))
			continue;
		/* A file removed (or replaced) since we opened it is no longer
		 * the one others lock. */
		if (probe[u] >= 0 && !gw__pool_linked(probe[u])) {
			gw__pool_close(probe[u]);
			probe[u] = -1;
		}
		if (probe[u] < 0 &&
		    (rc = gw__pool_open(p->dir_fd, p->dir, p->units[u].file, GW__POOL_CREATE | GW__POOL_INHERIT, &probe[u])) < 0)
			break;
		if ((rc = gw__pool_lock(probe[u], true, false)) < 0)
			break;
		free_units[u] = locked[u] = rc == 0;
		rc = 0;
	}
	if (rc == 0)
		reserve_for_earlier(p, lv, l->id, free_units);
	for (int i = 0; rc == 0 && i < p->nunits && got < (int)w->gpus; i++)
		if (free_units[order[i]])
			l->units[got++] = order[i];
	if (rc == 0 && got == (int)w->gpus) {
		for (int i = 0; i < got; i++) {
			l->fds[i] = probe[l->units[i]];
			probe[l->units[i]] = -1;
			locked[l->units[i]] = false;
		}
		l->n = got;
		rc = write_record(l, "running", w, req, 0);
		if (rc == 0) {
			rc = 1;
		} else {
			for (int i = 0; i < got; i++) {   /* back to the probes, unlocked below */
				probe[l->units[i]] = l->fds[i];
				locked[l->units[i]] = true;
			}
			l->n = 0;
		}
	}
	for (int u = 0; u < p->nunits; u++)
		if (locked[u])
			gw__pool_unlock(probe[u]);   /* a lock we took and keep not */
	global_unlock(p);
out:
	gw__free(free_units);
	gw__free(locked);
	return rc;
}

/* Placement, one rule for gpuwise run and Python's select()
 * (gw_placement_order): least used first by NVML, memory in use, then
 * utilisation, then the order given; a unit whose memory cannot be read
 * comes after those that can. s[]/ok[] hold one sample per device. */
static uint64_t sel_used(const gw_device_sample *s, bool ok, int mig, bool *known)
{
	const gw_u64 *m = mig >= 0 ? (mig < s->mig_count ? &s->mig[mig].memory_used : NULL) : &s->memory_used;

	*known = ok && m && GW_VALID(*m);
	return *known ? m->v : 0;
}

static bool ranks_before(const gw_device_sample *s, const bool *ok, const gw_selection *u, size_t x, size_t y)
{
	const gw_device_sample *sx = &s[u[x].device], *sy = &s[u[y].device];
	bool kx, ky;
	uint64_t mx = sel_used(sx, ok[u[x].device], u[x].mig, &kx), my = sel_used(sy, ok[u[y].device], u[y].mig, &ky);
	uint64_t ux = ok[u[x].device] && GW_VALID(sx->gpu_util) ? sx->gpu_util.v : 101,
		 uy = ok[u[y].device] && GW_VALID(sy->gpu_util) ? sy->gpu_util.v : 101;

	if (kx != ky)
		return kx;
	if (mx != my)
		return mx < my;
	if (ux != uy)
		return ux < uy;
	return x < y;
}

/* A few units: an insertion sort, stable in the order given. */
static void place(const gw_device_sample *s, const bool *ok, const gw_selection *u, size_t n, size_t *order)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = i;

		while (k > 0 && ranks_before(s, ok, u, i, order[k - 1])) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
}

int gw_placement_order(gw_context *ctx, const gw_selection *units, size_t n, size_t *order)
{
	int ndev;
	gw_device_sample *s;
	bool *ok;

	if (!ctx || (n && (!units || !order)))
		return gw__error_set(GW_EINVAL, "gw_placement_order: NULL argument");
	ndev = gw_device_count(ctx);
	for (size_t i = 0; i < n; i++)
		if (units[i].device < 0 || units[i].device >= ndev)
			return gw__error_set(GW_EINVAL, "gw_placement_order: no device %d", units[i].device);
	if (!(s = gw__calloc((size_t)ndev, sizeof(*s))) || !(ok = gw__calloc((size_t)ndev, sizeof(*ok)))) {
		gw__free(s);
		return GW_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (!ok[units[i].device])
			ok[units[i].device] = gw_device_sample_read(ctx, units[i].device, &s[units[i].device]) == 0;
	place(s, ok, units, n, order);
	gw__free(s);
	gw__free(ok);
	return 0;
}

/* The units in placement order, from one sample per GPU when the request
 * comes. */
static int rank_units(gw_pool *p, live *l, int *order)
{
	gw_selection *u = gw__calloc((size_t)p->nunits, sizeof(*u));
	size_t *o = gw__calloc((size_t)p->nunits, sizeof(*o));

	if (!u || !o) {
		gw__free(u);
		gw__free(o);
		return GW_ENOMEM;
	}
	read_live(p, l);
	for (int i = 0; i < p->nunits; i++)
		u[i] = (gw_selection){ p->units[i].device, p->units[i].mig };
	place(l->s, l->ok, u, (size_t)p->nunits, o);
	for (int i = 0; i < p->nunits; i++)
		order[i] = (int)o[i];
	gw__free(u);
	gw__free(o);
	return 0;
}

static int resolve_request(gw_pool *p, const gw_pool_request *req, want *w)
{
	gw_selection *sel;
	size_t n;
	int rc, count = 0;

	w->gpus = req->gpus ? req->gpus : 1;
	w->min_free = req->min_free_bytes;
	w->max_util = req->max_util_percent < 0 ? -1 : req->max_util_percent;
	w->any = !req->selectors || !*req->selectors;
	if (!w->any) {
		if ((rc = gw_context_select(p->ctx, req->selectors, &sel, &n)) < 0)
			return rc;
		for (size_t i = 0; i < n; i++) {
			bool found = false;

			for (int u = 0; u < p->nunits; u++) {
				const unit *x = &p->units[u];

				/* A GPU in MIG mode stands for its MIG devices. */
				if (x->device == sel[i].device && (sel[i].mig < 0 || x->mig == sel[i].mig)) {
					w->eligible[u] = found = true;
				}
			}
			if (!found) {
				gw_selection_free(sel);
				return gw__error_set(GW_EINVAL, "GPU %d cannot be leased (it cannot be read or has no UUID)",
						     sel[i].device);
			}
		}
		gw_selection_free(sel);
	}
	/* CUDA uses one MIG device per process: a job of several gets whole
	 * GPUs only. */
	if (w->gpus > 1) {
		bool any = w->any;
		int mig = 0;

		for (int u = 0; u < p->nunits; u++) {
			mig += (w->any || w->eligible[u]) && p->units[u].mig >= 0;
			w->eligible[u] = (w->any || w->eligible[u]) && p->units[u].mig < 0;
		}
		w->any = false;
		for (int u = 0; u < p->nunits; u++)
			count += w->eligible[u];
		if ((int)w->gpus > count && mig)
			return gw__error_set(GW_EINVAL, "%u GPUs asked for, but a job gets at most one MIG device (CUDA "
					     "uses one per process) and this machine has %d whole GPUs that can be leased%s",
					     w->gpus, count, any ? "" : " among those selected");
		count = 0;
	}
	for (int u = 0; u < p->nunits; u++)
		count += w->any || w->eligible[u];
	if ((int)w->gpus > count)
		return w->any ? gw__error_set(GW_EINVAL, "%u GPUs asked for, but this machine has %d that can be "
					      "leased", w->gpus, count)
			      : gw__error_set(GW_EINVAL, "%u GPUs asked for, but this machine has %d that can be "
					      "leased among those selected", w->gpus, count);
	return 0;
}

static void lease_free(gw_lease *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->n; i++)
		gw__pool_close(l->fds[i]);
	if (l->job_fd >= 0) {
		gw__pool_remove(l->pool->dir_fd, l->job_file);
		gw__pool_close(l->job_fd);
	}
	gw__free(l->units);
	gw__free(l->fds);
	gw__free(l);
}

/* What may free GPUs for a waiter (gw__pool_watch reports files closed
 * after writing and files removed): a unit's file closed for the last time
 * by its lease holder, a job's file removed or closed by a process that
 * died (an earlier waiter gone). Job files are read without write access
 * (read_live_job), so the looks of other waiters and of ps wake nobody:
 * otherwise every waiter would keep waking every other one. */
static bool pool_change(const char *name, uint32_t mask)
{
	(void)mask;
	return !strncmp(name, "gpu-", 4) || !strncmp(name, JOB_PREFIX, strlen(JOB_PREFIX));
}

/* The longest a waiter sleeps between looks: with a watch on the folder
 * it is woken when a lease ends, so this only bounds what no event shows
 * (an earlier waiter that took other GPUs than it kept for itself). */
#define WATCHED_POLL_S 0.5
/* After a wake-up that brought nothing, one more look this soon: the close
 * that woke us is reported a moment before the kernel drops its lock. */
#define RECHECK_S 0.005
/* How long a request that does not wait (--no-wait) waits for the pool's
 * lock at most. */
#define NOWAIT_LOCK_S 0.5
/* ... and gpuwise ps, and the job's pid written into its record. */
#define LOOK_LOCK_S 1.0
#define NOTE_LOCK_S 0.2

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

static void close_probes(gw_pool *p, int *probe)
{
	for (int u = 0; probe && u < p->nunits; u++)
		gw__pool_close(probe[u]);
	gw__free(probe);
}

/* "; held: GPU-...: pid 1 (user a, python), ..." for the first few units
 * the request could use that someone holds ("" when none can be told). */
static void holders_of(gw_pool *p, const want *w, char *out, size_t size)
{
	size_t k = 0;
	int shown = 0;

	out[0] = '\0';
	for (int u = 0; u < p->nunits && shown < 3 && k < size; u++) {
		char who[160];

		if (!(w->any || w->eligible[u]))
			continue;
		holder_text(p, p->units[u].file, who, sizeof(who));
		if (!who[0])
			continue;
		k += (size_t)snprintf(out + k, size - k, "%s%s by %s", shown ? ", " : "; held: ", p->units[u].uuid, who);
		shown++;
	}
	if (k >= size)
		gw__mark_cut(out, size);
}

int gw_pool_acquire(gw_pool *pool, const gw_pool_request *req, gw_lease **out)
{
	gw_lease *l;
	want w = { 0 };
	live lv = { 0 };
	double start = gw__seconds(CLOCK_MONOTONIC), poll;
	int *probe = NULL, *order = NULL, rc;
	bool woken = false;

	if (!pool || !req || !out)
		return gw__error_set(GW_EINVAL, "gw_pool_acquire: NULL argument");
	if (pool->nunits == 0)
		return gw__error_set(GW_EINVAL, "this machine has no GPU that can be leased");
	if (!(l = gw__calloc(1, sizeof(*l))) || !(l->units = gw__calloc((size_t)pool->nunits, sizeof(int))) ||
	    !(l->fds = gw__calloc((size_t)pool->nunits, sizeof(int))) ||
	    !(probe = gw__calloc((size_t)pool->nunits, sizeof(int))) ||
	    !(order = gw__calloc((size_t)pool->nunits, sizeof(int))) ||
	    !(w.eligible = gw__calloc((size_t)pool->nunits, sizeof(bool))) ||
	    !(lv.s = gw__calloc((size_t)gw_device_count(pool->ctx), sizeof(*lv.s))) ||
	    !(lv.ok = gw__calloc((size_t)gw_device_count(pool->ctx), sizeof(bool)))) {
		rc = GW_ENOMEM;
		goto fail;
	}
	for (int u = 0; u < pool->nunits; u++)
		probe[u] = -1;
	l->pool = pool;
	l->job_fd = -1;
	/* The pool's lock is waited for no longer than the request's own
	 * wait: NOWAIT_LOCK_S for a try-once (a look holds it for well under
	 * a millisecond), the timeout, or for ever (a cancel still stops it). */
	pool->cancel = req->cancel;
	lock_within(pool, req->timeout_s == 0 ? NOWAIT_LOCK_S : req->timeout_s);
	if ((rc = resolve_request(pool, req, &w)) < 0 || (rc = rank_units(pool, &lv, order)) < 0 ||
	    (rc = enqueue(l, &w, req)) < 0)
		goto fail;
	for (;;) {
		double left, nap;

		/* Samples outside the lock: a slow driver call never holds up
		 * the queue. */
		memset(lv.ok, 0, (size_t)gw_device_count(pool->ctx) * sizeof(bool));
		/* Only --min-free and --max-util look at live values (meets()):
		 * without them no GPU is sampled, which is most of a waiter's
		 * work and of gpuwise run's start-up. */
		if (w.min_free || w.max_util >= 0)
			read_live(pool, &lv);
		l->waited = gw__seconds(CLOCK_MONOTONIC) - start;
		if ((rc = try_take(l, &w, req, &lv, probe, order)) < 0)
			goto fail;
		if (rc == 1)
			break;
		left = req->timeout_s - (gw__seconds(CLOCK_MONOTONIC) - start);
		if (req->timeout_s == 0 || (req->timeout_s > 0 && left <= 0) || (req->cancel && *req->cancel)) {
			char who[600];

			holders_of(pool, &w, who, sizeof(who));
			rc = gw__error_set(GW_ETIMEDOUT, "gave up waiting for %u GPU%s after %.1f s%s", w.gpus,
					   w.gpus == 1 ? "" : "s", gw__seconds(CLOCK_MONOTONIC) - start, who);
			goto fail;
		}
		/* We wait: from now on a released lease wakes us. The watch
		 * starts after a look, so one more look follows at once: a lease
		 * released in between is seen. */
		if (pool->watch_fd < 0 && !pool->watch_failed) {
			if ((pool->watch_fd = gw__pool_watch(pool->dir)) < 0) {
				pool->watch_failed = true;   /* no inotify, or past its limits: polls only */
				gw_error_clear();
			}
			continue;
		}
		/* Live values (--min-free, --max-util) change without any event:
		 * looked at every 0.1 s, as without a watch. */
		poll = req->poll_s > 0 ? req->poll_s
		       : pool->watch_fd >= 0 && !w.min_free && w.max_util < 0 ? WATCHED_POLL_S : 0.1;
		nap = woken && RECHECK_S < poll ? RECHECK_S : poll;
		if (req->timeout_s > 0 && left < nap)
			nap = left;
		if (pool->watch_fd >= 0 && !woken) {
			int r = gw__pool_watch_wait(pool->watch_fd, (int)(nap * 1000) + 1, pool_change);

			woken = r == 1;
			if (r < 0)
				sleep_s(nap);
		} else {
			woken = false;
			sleep_s(nap);
		}
	}
	l->waited = gw__seconds(CLOCK_MONOTONIC) - start;
	/* The watch stays open until gw_pool_close: closing an inotify
	 * instance waits for the kernel (milliseconds, in D state), which
	 * would delay the job's start. */
	close_probes(pool, probe);
	gw__free(order);
	gw__free(w.eligible);
	gw__free(lv.s);
	gw__free(lv.ok);
	*out = l;
	return 0;
fail:
	close_probes(pool, probe);
	gw__free(order);
	gw__free(w.eligible);
	gw__free(lv.s);
	gw__free(lv.ok);
	lease_free(l);
	return rc;
}

/* ---- the lease ------------------------------------------------------------------ */

uint64_t gw_lease_id(const gw_lease *lease)
{
	return lease ? lease->id : 0;
}

double gw_lease_waited(const gw_lease *lease)
{
	return lease ? lease->waited : 0;
}

int gw_lease_count(const gw_lease *lease)
{
	return lease ? lease->n : 0;
}

int gw_lease_device(const gw_lease *lease, int i, gw_selection *out)
{
	if (!lease || !out || i < 0 || i >= lease->n)
		return GW_EINVAL;
	out->device = lease->pool->units[lease->units[i]].device;
	out->mig = lease->pool->units[lease->units[i]].mig;
	return 0;
}

const char *gw_lease_uuid(const gw_lease *lease, int i)
{
	if (!lease || i < 0 || i >= lease->n)
		return NULL;
	return lease->pool->units[lease->units[i]].uuid;
}

static const char *const job_vars[] = { "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "HIP_VISIBLE_DEVICES",
					"ROCR_VISIBLE_DEVICES", "GPUWISE_LEASE" };

static bool replaced(const char *entry)
{
	for (size_t i = 0; i < GW_ARRAY_SIZE(job_vars); i++) {
		size_t n = strlen(job_vars[i]);

		if (!strncmp(entry, job_vars[i], n) && entry[n] == '=')
			return true;
	}
	return false;
}

/* "NAME=" plus the UUIDs of the leased units of one vendor (or 0..n-1). */
static char *vendor_var(const gw_lease *l, const char *name, gw_vendor v, bool indices, int *count)
{
	size_t size = strlen(name) + 2 + (size_t)l->n * (GW_STR_MAX + 1), k;
	char *s = gw__malloc(size);
	int c = 0;

	if (!s)
		return NULL;
	k = (size_t)snprintf(s, size, "%s=", name);
	for (int i = 0; i < l->n; i++) {
		const unit *u = &l->pool->units[l->units[i]];

		if (u->vendor != v)
			continue;
		if (indices)
			k += (size_t)snprintf(s + k, size - k, "%s%d", c ? "," : "", c);
		else
			k += (size_t)snprintf(s + k, size - k, "%s%s", c ? "," : "", u->uuid);
		c++;
	}
	*count = c;
	return s;
}

int gw_lease_environment(const gw_lease *lease, char ***out)
{
	size_t n = 0, k = 0;
	char **env;
	int amd = 0, nv = 0;
	bool fail = false;

	if (!lease || !out)
		return GW_EINVAL;
	while (environ && environ[n])
		n++;
	if (!(env = gw__calloc(n + GW_ARRAY_SIZE(job_vars) + 1, sizeof(*env))))
		return GW_ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!replaced(environ[i]) && !(env[k++] = gw__strdup(environ[i])))
			fail = true;
	/* Every NVIDIA unit by UUID: never an index, which CUDA and NVML may
	 * number differently. None leased: an empty list hides them all. */
	fail |= !(env[k++] = vendor_var(lease, "CUDA_VISIBLE_DEVICES", GW_VENDOR_NVIDIA, false, &nv));
	fail |= !(env[k++] = gw__strdup("CUDA_DEVICE_ORDER=PCI_BUS_ID"));
	for (int i = 0; i < lease->n; i++)
		amd += lease->pool->units[lease->units[i]].vendor == GW_VENDOR_AMD;
	if (amd) {
		/* ROCR filters by UUID; HIP then numbers what ROCR shows. */
		fail |= !(env[k++] = vendor_var(lease, "ROCR_VISIBLE_DEVICES", GW_VENDOR_AMD, false, &amd));
		fail |= !(env[k++] = vendor_var(lease, "HIP_VISIBLE_DEVICES", GW_VENDOR_AMD, true, &amd));
	}
	if ((env[k] = gw__malloc(48)))
		snprintf(env[k], 48, "GPUWISE_LEASE=%llu", (unsigned long long)lease->id);
	fail |= !env[k++];
	if (fail) {
		gw_lease_environment_free(env);
		return GW_ENOMEM;
	}
	(void)nv;
	*out = env;
	return 0;
}

void gw_lease_environment_free(char **env)
{
	for (size_t i = 0; env && env[i]; i++)
		gw__free(env[i]);
	gw__free(env);
}

static int lease_start(gw_lease *lease, char *const argv[], bool own_group, gw_job **out)
{
	char path[4096], **env;
	gw_job *job;
	int rc;

	if (!lease || !argv || !argv[0] || !out)
		return gw__error_set(GW_EINVAL, "gw_lease_start: NULL argument");
	if ((rc = gw__job_find(argv[0], path, sizeof(path))) < 0)
		return rc;
	if (!(job = gw__calloc(1, sizeof(*job))))
		return GW_ENOMEM;
	if ((rc = gw_lease_environment(lease, &env)) < 0) {
		gw__free(job);
		return rc;
	}
	job->group = own_group;
	rc = gw__job_start(path, argv, env, own_group, &job->pid);
	gw_lease_environment_free(env);
	if (rc < 0) {
		gw__free(job);
		return rc;
	}
	job->pidfd = gw__job_pidfd(job->pid);
	/* ps shows the job's own pid too. */
	lock_within(lease->pool, NOTE_LOCK_S);
	lease->pool->cancel = NULL;
	if (global_lock(lease->pool) < 0) {
		gw_error_clear();   /* only ps's job pid column: the job runs */
	} else {
		char *p = strstr(lease->record, "\njob_pid=0\n");

		if (p) {
			char rec[RECORD_MAX];

			gw__fmt(rec, sizeof(rec), "%.*s\njob_pid=%d\n%s", (int)(p - lease->record), lease->record, job->pid,
				p + strlen("\njob_pid=0\n"));
			gw__strlcpy(lease->record, rec, sizeof(lease->record));
			gw__pool_write(lease->job_fd, lease->record);
		}
		global_unlock(lease->pool);
	}
	*out = job;
	return 0;
}

int gw_lease_start(gw_lease *lease, char *const argv[], gw_job **out)
{
	return lease_start(lease, argv, false, out);
}

int gw_lease_start_group(gw_lease *lease, char *const argv[], gw_job **out)
{
	return lease_start(lease, argv, true, out);
}

int gw_job_pid(const gw_job *job)
{
	return job ? job->pid : -1;
}

int gw_job_signal(gw_job *job, int sig)
{
	return job ? gw__job_kill(job->pid, job->group, sig) : GW_EINVAL;
}

int gw_job_wait(gw_job *job, int timeout_ms, int *status)
{
	if (!job || !status)
		return GW_EINVAL;
	return gw__job_wait(job->pid, job->pidfd, timeout_ms, status);
}

void gw_job_free(gw_job *job)
{
	if (job && job->group)
		gw__job_terminal_back();
	if (job)
		gw__pool_close(job->pidfd);
	gw__free(job);
}

void gw_lease_release(gw_lease *lease)
{
	lease_free(lease);
}

/* ---- what is in the pool ----------------------------------------------------- */

static void user_name(const gw_pool *p, unsigned uid, char *out, size_t n)
{
	char *text = NULL;
	size_t len = 0;

	if (gw__read_file(gw_context_root(p->ctx), "/etc/passwd", 1u << 22, &text, &len) < 0 ||
	    gw__proc_passwd_lookup(text, len, uid, out, n) < 0)
		snprintf(out, n, "%u", uid);
	gw__free(text);
}

/* The job's user is its file's owner, whatever uid= its record claims. */
static bool parse_job(gw_pool *p, uint64_t id, const char *rec, unsigned owner, gw_pool_job *j)
{
	if (!gw__record_job(id, rec, j))
		return false;
	j->uid = owner;
	user_name(p, j->uid, j->user, sizeof(j->user));
	return true;
}

/* The record's pid and leased GPUs are whatever its writer put there: the
 * kernel's locks say which process holds the job's file, and a GPU counts
 * as the job's only when that process holds its lock too. */
static void kernel_says(gw_pool *p, const char *name, gw_pool_job *j)
{
	gw__holder h;
	int k = 0;

	if (!gw__pool_holder(p->dir_fd, name, &h) || !h.locker)
		return;
	j->pid = h.locker;
	for (int i = 0; i < j->nleased; i++) {
		int u = unit_by_uuid(p, j->leased[i], strlen(j->leased[i]));
		gw__holder g;

		if (u >= 0 && gw__pool_holder(p->dir_fd, p->units[u].file, &g) && g.locker == h.locker)
			memmove(j->leased[k++], j->leased[i], sizeof(j->leased[0]));
	}
	j->nleased = k;
}

int gw_pool_jobs(gw_pool *pool, gw_pool_job **out, size_t *count)
{
	char **names, *rec;
	size_t n, k = 0;
	gw_pool_job *jobs;
	int rc;

	bool locked;

	if (!pool || !out || !count)
		return gw__error_set(GW_EINVAL, "gw_pool_jobs: NULL argument");
	/* Never hangs: past LOOK_LOCK_S the jobs are read without the lock
	 * (a record being rewritten that moment may be skipped), and
	 * gw_pool_holders names whoever keeps the lock. */
	lock_within(pool, LOOK_LOCK_S);
	pool->cancel = NULL;
	if (!(locked = (rc = global_lock(pool)) == 0) && rc != GW_ETIMEDOUT)
		return rc;
	gw_error_clear();
	if ((rc = list_jobs(pool, &names, &n)) < 0) {
		if (locked)
			global_unlock(pool);
		return rc;
	}
	jobs = n ? gw__calloc(n, sizeof(*jobs)) : NULL;
	rec = gw__malloc(RECORD_MAX);
	if ((n && !jobs) || !rec) {
		gw__free(jobs);
		gw__free(rec);
		gw__dir_list_free(names, n);
		if (locked)
			global_unlock(pool);
		return GW_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t t;
		unsigned owner;

		if (ticket_of(names[i], &t) && read_live_job(pool, names[i], rec, RECORD_MAX, &owner) &&
		    parse_job(pool, t, rec, owner, &jobs[k])) {
			kernel_says(pool, names[i], &jobs[k]);
			k++;
		}
	}
	if (locked)
		global_unlock(pool);
	gw__free(rec);
	gw__dir_list_free(names, n);
	if (!k) {
		gw__free(jobs);
		jobs = NULL;
	}
	*out = jobs;
	*count = k;
	return 0;
}

void gw_pool_jobs_free(gw_pool_job *jobs)
{
	gw__free(jobs);
}

bool gw_pool_jobs_capped(const gw_pool *pool)
{
	return pool && pool->capped;
}

/* ---- locks held without a job ------------------------------------------------ */

static int add_holder(gw_pool_holder **v, size_t *n, gw_pool *p, const char *file, const char *uuid,
		      const gw__holder *h)
{
	gw_pool_holder *grown = gw__realloc(*v, (*n + 1) * sizeof(**v)), *x;

	if (!grown)
		return GW_ENOMEM;
	*v = grown;
	x = &grown[(*n)++];
	memset(x, 0, sizeof(*x));
	gw__strlcpy(x->file, file, sizeof(x->file));
	gw__strlcpy(x->uuid, uuid, sizeof(x->uuid));
	x->locker = h->locker;
	x->pid = h->pid;
	x->locker_gone = h->locker_gone;
	x->uid = h->have_uid ? (int)h->uid : -1;
	if (h->have_uid)
		user_name(p, h->uid, x->user, sizeof(x->user));
	gw__strlcpy(x->comm, h->comm, sizeof(x->comm));
	return 0;
}

int gw_pool_holders(gw_pool *pool, gw_pool_holder **out, size_t *count)
{
	gw_pool_holder *v = NULL;
	size_t n = 0;
	gw__holder h;
	int rc = 0;

	if (!pool || !out || !count)
		return gw__error_set(GW_EINVAL, "gw_pool_holders: NULL argument");
	if (gw__pool_holder(pool->dir_fd, "lock", &h))
		rc = add_holder(&v, &n, pool, "lock", "", &h);
	for (int u = 0; rc == 0 && u < pool->nunits; u++)
		if (gw__pool_holder(pool->dir_fd, pool->units[u].file, &h))
			rc = add_holder(&v, &n, pool, pool->units[u].file, pool->units[u].uuid, &h);
	if (rc < 0) {
		gw__free(v);
		return rc;
	}
	*out = v;
	*count = n;
	return 0;
}

void gw_pool_holders_free(gw_pool_holder *holders)
{
	gw__free(holders);
}
