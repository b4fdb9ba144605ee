/* The sampler (include/gpuwise/sampler.h): passes over the chosen devices,
 * a ring of points per device, derived rates, an optional thread.
 *
 * A pass is made by one thread at a time (the sampler's thread, or the
 * caller of gw_sampler_step while no thread runs); it reads the devices
 * without the lock (a slow or hung vendor call never blocks a reader of
 * the history) and publishes all its points under the lock at once, so a
 * reader never sees half a pass.
 *
 * Xid events (GW_SAMPLER_EVENTS) come on a thread of their own that waits
 * in the backend's event call with a short timeout and counts what comes
 * per slot under the lock; each pass copies the counts into its points. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "device/device.h"
#include "context/context.h"
#include "backend/backend.h"
#include "gpuwise/sampler.h"

struct ring {
	gw_sample_point *pts; /* history entries */
	size_t head, n;       /* next write position, entries filled */
	/* the previous energy reading, for power_average */
	bool have_energy;
	double energy_j, energy_t;
	/* the newest process list (GW_SAMPLER_PROCESSES) */
	int procs_rc;         /* 0, GW_ENOTSUP, ... ; GW_ENOTFOUND: none yet */
	gw_process *procs;
	size_t nprocs;
};

/* Xid events of one slot. */
struct xid_slot {
	void *handle;         /* the backend's device handle; NULL: not watched */
	int rc;               /* 0 watched; else why not (GW_ENOTSUP, GW_ELOST, ...) */
	uint64_t last, count;
};

/* Milliseconds one event wait may take: the longest gw_sampler_free()
 * waits for the event thread. */
#define EVENT_WAIT_MS 200
/* After a failed wait (a lost GPU answers at once), the pause before the
 * next, so a broken set never spins. */
#define EVENT_BACKOFF_S 1.0

struct gw_sampler {
	gw_context *ctx;
	gw_sampler_options opts;
	int *index;           /* gpuwise index per slot */
	int nslots;
	struct ring *rings;
	gw_sample_point *scratch; /* one pass's points before they are published */
	struct { gw_process *p; size_t n; int rc; } *scratch_procs;
	double t0;            /* monotonic seconds at gw_sampler_new */

	pthread_mutex_t lock; /* guards rings, passes, stop, running */
	/* Held through a whole pass, vendor calls included (before lock, never
	 * after it). fork_prepare takes it so that a fork never lands while the
	 * thread is inside the vendor library: a lock of NVML's (or of the fake
	 * NVML's) held at that moment would stay locked in the child, and the
	 * child's first NVML call would wait forever. */
	pthread_mutex_t pass;
	pthread_cond_t wake;
	pthread_t thread;
	uint64_t passes;
	bool running, stop, inherited;

	/* GW_SAMPLER_EVENTS: the event thread and its set (guarded by lock:
	 * xid, ev_running, ev_stop) */
	struct xid_slot *xid;
	const gw_backend *ev_backend;
	void *ev_state, *ev_set;
	pthread_t ev_thread;
	bool ev_running, ev_stop;
};

static int check_options(const gw_context *ctx, const gw_sampler_options *o)
{
	if (o->version != GW_SAMPLER_OPTIONS_VERSION)
		return gw__error_set(GW_EINVAL, "gw_sampler_options.version is %u, expected %u", o->version,
				     GW_SAMPLER_OPTIONS_VERSION);
	if (!(o->interval == 0 || (o->interval >= 0.001 && o->interval <= 86400)))
		return gw__error_set(GW_EINVAL, "sampler interval must be between 0.001 and 86400 seconds");
	if (o->history > 1000000)
		return gw__error_set(GW_EINVAL, "sampler history of %u points is too long", o->history);
	if (o->flags & ~(unsigned)(GW_SAMPLER_PROCESSES | GW_SAMPLER_EVENTS))
		return gw__error_set(GW_EINVAL, "unknown sampler flags 0x%x",
				     o->flags & ~(unsigned)(GW_SAMPLER_PROCESSES | GW_SAMPLER_EVENTS));
	if (o->ndevices < 0 || (o->ndevices > 0 && !o->devices))
		return gw__error_set(GW_EINVAL, "sampler device list is invalid");
	for (int i = 0; o->devices && i < o->ndevices; i++)
		if (o->devices[i] < 0 || o->devices[i] >= gw_device_count(ctx))
			return gw__error_set(GW_EINVAL, "no device with index %d", o->devices[i]);
	return 0;
}

static int alloc_slots(gw_sampler *s)
{
	size_t hist = s->opts.history;

	s->index = gw__calloc((size_t)s->nslots + 1, sizeof(*s->index));
	s->rings = gw__calloc((size_t)s->nslots + 1, sizeof(*s->rings));
	s->scratch = gw__calloc((size_t)s->nslots + 1, sizeof(*s->scratch));
	s->scratch_procs = gw__calloc((size_t)s->nslots + 1, sizeof(*s->scratch_procs));
	s->xid = gw__calloc((size_t)s->nslots + 1, sizeof(*s->xid));
	if (!s->index || !s->rings || !s->scratch || !s->scratch_procs || !s->xid)
		return gw__error_set(GW_ENOMEM, "out of memory for the sampler");
	for (int k = 0; k < s->nslots; k++) {
		s->index[k] = s->opts.devices ? s->opts.devices[k] : k;
		s->rings[k].procs_rc = GW_ENOTFOUND;
		if (!(s->rings[k].pts = gw__calloc(hist, sizeof(gw_sample_point))))
			return gw__error_set(GW_ENOMEM, "out of memory for the sampler's history");
	}
	return 0;
}

static void free_slots(gw_sampler *s)
{
	for (int k = 0; s->rings && k < s->nslots; k++) {
		gw__free(s->rings[k].pts);
		gw_processes_free(s->rings[k].procs);
	}
	gw__free(s->rings);
	gw__free(s->index);
	gw__free(s->scratch);
	gw__free(s->scratch_procs);
	gw__free(s->xid);
}

static int events_start(gw_sampler *s);
static void events_stop(gw_sampler *s);

int gw_sampler_new(gw_sampler **out, gw_context *ctx, const gw_sampler_options *opts)
{
	gw_sampler_options o = GW_SAMPLER_OPTIONS_INIT;
	pthread_condattr_t ca;
	gw_sampler *s;
	int rc;

	if (!out || !ctx)
		return gw__error_set(GW_EINVAL, "gw_sampler_new needs an output and a context");
	if (opts)
		o = *opts;
	if ((rc = check_options(ctx, &o)) < 0)
		return rc;
	if (o.interval == 0)
		o.interval = 1.0;
	if (o.history == 0)
		o.history = 64;
	if (!(s = gw__calloc(1, sizeof(*s))))
		return gw__error_set(GW_ENOMEM, "out of memory for the sampler");
	s->ctx = ctx;
	s->opts = o;
	s->nslots = o.devices ? o.ndevices : gw_device_count(ctx);
	if ((rc = alloc_slots(s)) < 0) {
		free_slots(s);
		gw__free(s);
		return rc;
	}
	s->opts.devices = NULL; /* copied into index: the caller's array may go */
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->pass, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);
	s->t0 = gw__seconds(CLOCK_MONOTONIC);
	if ((o.flags & GW_SAMPLER_EVENTS) && (rc = events_start(s)) < 0) {
		gw_sampler_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void gw_sampler_free(gw_sampler *s)
{
	if (!s)
		return;
	events_stop(s);
	gw_sampler_stop(s);
	free_slots(s);
	if (!s->inherited) /* a fork child's: the waiter that is gone would be waited for */
		pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->pass);
	gw__free(s);
}

/* ---- one pass ------------------------------------------------------------ */

/* Read device idx once. A GPU lost in an earlier pass is tried again (it
 * may be back); its backend marks it lost again when it is not. */
static int read_device(gw_sampler *s, int idx, gw_device_sample *out)
{
	gw__device_retry_lost(s->ctx, idx);
	return gw_device_sample_read(s->ctx, idx, out);
}

/* power_average from the energy counter: the mean over the time since the
 * previous point that read it. */
static void derive_power(struct ring *r, gw_sample_point *p)
{
	const gw_f64 *e = &p->sample.energy;

	memset(&p->power_average, 0, sizeof(p->power_average));
	if (!p->up)
		return;
	if (!GW_VALID(*e)) {
		GW_FIELD_FAIL(p->power_average, e->state == GW_FIELD_ERROR ? GW_FIELD_ERROR : GW_FIELD_NOT_SUPPORTED,
			      e->code);
		r->have_energy = false;
		return;
	}
	if (r->have_energy && p->elapsed > r->energy_t) {
		if (e->v < r->energy_j) /* a driver reload reset it: no rate over the reset */
			GW_FIELD_FAIL(p->power_average, GW_FIELD_ERROR, 0);
		else
			gw__f64_set(&p->power_average, (e->v - r->energy_j) / (p->elapsed - r->energy_t));
	}
	r->have_energy = true;
	r->energy_j = e->v;
	r->energy_t = p->elapsed;
}

/* What the event thread counted for slot k, into a pass's sample (also
 * for a GPU that could not be read: its Xid says why). */
static void copy_xid(gw_sampler *s, int k, gw_device_sample *out)
{
	pthread_mutex_lock(&s->lock);
	if (s->xid[k].rc == 0) {
		gw__u64_set(&out->xid_last, s->xid[k].last);
		gw__u64_set(&out->xid_count, s->xid[k].count);
	} else {
		gw_field_state st = s->xid[k].rc == GW_ENOTSUP ? GW_FIELD_NOT_SUPPORTED : GW_FIELD_ERROR;

		GW_FIELD_FAIL(out->xid_last, st, s->xid[k].rc);
		GW_FIELD_FAIL(out->xid_count, st, s->xid[k].rc);
	}
	pthread_mutex_unlock(&s->lock);
}

static void read_slot(gw_sampler *s, int k, uint64_t seq, double when)
{
	gw_sample_point *p = &s->scratch[k];
	const gw_device_info *info;
	int rc;

	memset(p, 0, sizeof(*p));
	p->seq = seq;
	p->time = when;
	p->device = s->index[k];
	rc = read_device(s, p->device, &p->sample);
	p->elapsed = gw__seconds(CLOCK_MONOTONIC) - s->t0;
	p->up = rc == 0;
	p->error = rc < 0 ? rc : 0;
	if (!p->up)
		memset(&p->sample, 0, sizeof(p->sample));
	info = gw_device_get(s->ctx, p->device);
	p->health = info ? info->health : GW_HEALTH_ERROR;
	derive_power(&s->rings[k], p);
	if (s->opts.flags & GW_SAMPLER_EVENTS)
		copy_xid(s, k, &p->sample);
	s->scratch_procs[k].p = NULL;
	s->scratch_procs[k].n = 0;
	s->scratch_procs[k].rc = GW_ENOTFOUND;
	if (s->opts.flags & GW_SAMPLER_PROCESSES)
		s->scratch_procs[k].rc = p->up ? gw_device_processes(s->ctx, p->device, &s->scratch_procs[k].p,
								     &s->scratch_procs[k].n)
					       : GW_ENOTSUP;
}

static void publish(gw_sampler *s, uint64_t seq)
{
	pthread_mutex_lock(&s->lock);
	for (int k = 0; k < s->nslots; k++) {
		struct ring *r = &s->rings[k];

		r->pts[r->head] = s->scratch[k];
		r->head = (r->head + 1) % s->opts.history;
		if (r->n < s->opts.history)
			r->n++;
		if (s->opts.flags & GW_SAMPLER_PROCESSES) {
			gw_process *old = r->procs;

			r->procs = s->scratch_procs[k].p;
			r->nprocs = s->scratch_procs[k].n;
			r->procs_rc = s->scratch_procs[k].rc < 0 ? GW_ENOTSUP : 0;
			s->scratch_procs[k].p = old; /* freed after the lock */
		}
	}
	s->passes = seq;
	pthread_mutex_unlock(&s->lock);
	for (int k = 0; k < s->nslots; k++) {
		gw_processes_free(s->scratch_procs[k].p);
		s->scratch_procs[k].p = NULL;
	}
}

static uint64_t one_pass(gw_sampler *s)
{
	uint64_t seq;
	double when = gw__seconds(CLOCK_REALTIME);

	pthread_mutex_lock(&s->pass);
	pthread_mutex_lock(&s->lock);
	seq = s->passes + 1;
	pthread_mutex_unlock(&s->lock);
	for (int k = 0; k < s->nslots; k++)
		read_slot(s, k, seq, when);
	publish(s, seq);
	pthread_mutex_unlock(&s->pass);
	return seq;
}

int gw_sampler_step(gw_sampler *s)
{
	bool busy;

	if (!s)
		return gw__error_set(GW_EINVAL, "no sampler");
	pthread_mutex_lock(&s->lock);
	busy = s->running;
	pthread_mutex_unlock(&s->lock);
	if (busy)
		return gw__error_set(GW_EINVAL, "the sampler's thread is running: it makes the passes");
	one_pass(s);
	return 0;
}

/* ---- the thread ---------------------------------------------------------- */

/* With the lock held: waits until the monotonic time next or *stop. */
static void wait_until(gw_sampler *s, double next, const bool *stop)
{
	struct timespec until;

	until.tv_sec = (time_t)next;
	until.tv_nsec = (long)((next - (double)until.tv_sec) * 1e9);
	if (until.tv_nsec >= 1000000000L)
		until.tv_nsec = 999999999L;
	while (!*stop && pthread_cond_timedwait(&s->wake, &s->lock, &until) != ETIMEDOUT)
		;
}

static void *sampler_main(void *arg)
{
	gw_sampler *s = arg;
	double next = gw__seconds(CLOCK_MONOTONIC);

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		uint64_t seq;
		double now;

		pthread_mutex_unlock(&s->lock);
		seq = one_pass(s);
		if (s->opts.on_pass)
			s->opts.on_pass(s, seq, s->opts.on_pass_arg);
		next += s->opts.interval;
		now = gw__seconds(CLOCK_MONOTONIC);
		if (next < now) /* a slow pass (a slow driver): no burst to catch up */
			next = now;
		pthread_mutex_lock(&s->lock);
		wait_until(s, next, &s->stop);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int gw_sampler_start(gw_sampler *s)
{
	int rc = 0;

	if (!s)
		return gw__error_set(GW_EINVAL, "no sampler");
	pthread_mutex_lock(&s->lock);
	if (s->running || s->inherited)
		/* whole sentences: each is translated as one (issue 9) */
		rc = s->running ? gw__error_set(GW_EINVAL, "the sampler's thread already runs")
				: gw__error_set(GW_EINVAL, "the sampler's thread ran in the parent process (fork)");
	if (rc == 0) {
		s->stop = false;
		if (pthread_create(&s->thread, NULL, sampler_main, s) != 0)
			rc = gw__error_set(GW_EGENERIC, "cannot start the sampler's thread");
		else
			s->running = true;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int gw_sampler_stop(gw_sampler *s)
{
	bool join;

	if (!s)
		return gw__error_set(GW_EINVAL, "no sampler");
	pthread_mutex_lock(&s->lock);
	join = s->running;
	s->stop = true;
	pthread_cond_broadcast(&s->wake);
	pthread_mutex_unlock(&s->lock);
	if (join) {
		pthread_join(s->thread, NULL);
		pthread_mutex_lock(&s->lock);
		s->running = false;
		pthread_mutex_unlock(&s->lock);
	}
	return 0;
}

/* ---- Xid events ---------------------------------------------------------- */

/* The backend that serves events for device d, and its state; NULL when
 * its owner has none. */
static const gw_backend *events_backend(gw_context *ctx, const gw_device *d, void **state)
{
	for (int i = 0; gw__backends[i] && i < (int)GW_ARRAY_SIZE(ctx->state); i++)
		if (gw__backends[i] == d->owner && d->owner->events_open && d->handle) {
			*state = ctx->state[i];
			return d->owner;
		}
	return NULL;
}

static void *events_main(void *arg)
{
	gw_sampler *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->ev_stop) {
		void *h = NULL;
		uint64_t xid = 0;
		int rc;

		pthread_mutex_unlock(&s->lock);
		rc = s->ev_backend->events_wait(s->ev_state, s->ev_set, EVENT_WAIT_MS, &h, &xid);
		pthread_mutex_lock(&s->lock);
		for (int k = 0; rc > 0 && k < s->nslots; k++)
			if (s->xid[k].rc == 0 && s->xid[k].handle == h)
				s->xid[k].last = xid, s->xid[k].count++;
		if (rc < 0) {
			wait_until(s, gw__seconds(CLOCK_MONOTONIC) + EVENT_BACKOFF_S, &s->ev_stop);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Registers every slot's device on one event set of the first backend
 * that has events (NVML) and starts the thread; slots it cannot watch
 * keep why in xid[k].rc. Without any watched slot, no thread. */
static int events_start(gw_sampler *s)
{
	int watched = 0, rc;

	for (int k = 0; k < s->nslots; k++) {
		gw_device *d = &s->ctx->devices[s->index[k]];
		void *state = NULL;
		const gw_backend *b = events_backend(s->ctx, d, &state);

		s->xid[k].rc = d->info.health == GW_HEALTH_LOST ? GW_ELOST : GW_ENOTSUP;
		if (!b || d->info.health == GW_HEALTH_LOST || (s->ev_backend && b != s->ev_backend))
			continue;
		if (!s->ev_backend) {
			if ((rc = b->events_open(state, &s->ev_set)) < 0) {
				if (rc == GW_ENOMEM)
					return rc;
				continue; /* no event API: every slot NOT_SUPPORTED */
			}
			s->ev_backend = b;
			s->ev_state = state;
		}
		s->xid[k].rc = b->events_add(state, s->ev_set, d->handle);
		if (s->xid[k].rc == 0)
			s->xid[k].handle = d->handle, watched++;
	}
	if (!watched)
		return 0;
	if (pthread_create(&s->ev_thread, NULL, events_main, s) != 0)
		return gw__error_set(GW_EGENERIC, "cannot start the sampler's event thread");
	s->ev_running = true;
	return 0;
}

/* Stops and joins the event thread (one wait: at most EVENT_WAIT_MS), then
 * frees the set. A fork child has neither: the parent's set is not its. */
static void events_stop(gw_sampler *s)
{
	bool join;

	pthread_mutex_lock(&s->lock);
	join = s->ev_running;
	s->ev_stop = true;
	pthread_cond_broadcast(&s->wake);
	pthread_mutex_unlock(&s->lock);
	if (join)
		pthread_join(s->ev_thread, NULL);
	if (s->ev_backend && s->ev_set)
		s->ev_backend->events_close(s->ev_state, s->ev_set);
	s->ev_running = false;
	s->ev_set = NULL;
}

void gw_sampler_fork_prepare(gw_sampler *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->pass);
	pthread_mutex_lock(&s->lock);
}

void gw_sampler_fork_parent(gw_sampler *s)
{
	if (!s)
		return;
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->pass);
}

/* In the child, with the lock taken by fork_prepare: the thread is not
 * there. Never join it, never destroy the condition it waited on. */
void gw_sampler_fork_child(gw_sampler *s)
{
	if (!s)
		return;
	if (s->running) {
		s->inherited = true;
		s->running = false;
		s->stop = true;
	}
	if (s->ev_running || s->ev_set) {
		s->inherited = true; /* the event thread waited on wake too */
		s->ev_running = false;
		s->ev_stop = true;
		s->ev_set = NULL;    /* the parent's: never freed here */
	}
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->pass);
}

/* ---- reading --------------------------------------------------------------- */

int gw_sampler_device_count(const gw_sampler *s)
{
	return s ? s->nslots : 0;
}

int gw_sampler_device_index(const gw_sampler *s, int slot)
{
	return s && slot >= 0 && slot < s->nslots ? s->index[slot] : -1;
}

uint64_t gw_sampler_passes(gw_sampler *s)
{
	uint64_t n;

	if (!s)
		return 0;
	pthread_mutex_lock(&s->lock);
	n = s->passes;
	pthread_mutex_unlock(&s->lock);
	return n;
}

int gw_sampler_latest(gw_sampler *s, int slot, gw_sample_point *out)
{
	int rc = 0;

	if (!s || !out || slot < 0 || slot >= s->nslots)
		return gw__error_set(GW_EINVAL, "no sampler slot %d", slot);
	pthread_mutex_lock(&s->lock);
	if (s->rings[slot].n == 0) {
		rc = GW_ENOTFOUND;
	} else {
		const struct ring *r = &s->rings[slot];

		*out = r->pts[(r->head + s->opts.history - 1) % s->opts.history];
	}
	pthread_mutex_unlock(&s->lock);
	return rc == 0 ? 0 : gw__error_set(rc, "no pass made yet");
}

size_t gw_sampler_history(gw_sampler *s, int slot, gw_sample_point *out, size_t max)
{
	size_t n;

	if (!s || !out || slot < 0 || slot >= s->nslots)
		return 0;
	pthread_mutex_lock(&s->lock);
	{
		const struct ring *r = &s->rings[slot];
		size_t h = s->opts.history;

		n = r->n < max ? r->n : max;
		for (size_t i = 0; i < n; i++)
			out[i] = r->pts[(r->head + h - n + i) % h];
	}
	pthread_mutex_unlock(&s->lock);
	return n;
}

int gw_sampler_processes(gw_sampler *s, int slot, gw_process **out, size_t *count)
{
	int rc;

	if (!s || !out || !count || slot < 0 || slot >= s->nslots)
		return gw__error_set(GW_EINVAL, "no sampler slot %d", slot);
	pthread_mutex_lock(&s->lock);
	rc = s->rings[slot].procs_rc;
	if (rc == 0) {
		const struct ring *r = &s->rings[slot];
		gw_process *copy = NULL;

		if (r->nprocs && !(copy = gw__malloc(r->nprocs * sizeof(*copy))))
			rc = GW_ENOMEM;
		else {
			if (r->nprocs)
				memcpy(copy, r->procs, r->nprocs * sizeof(*copy));
			*out = copy;
			*count = r->nprocs;
		}
	}
	pthread_mutex_unlock(&s->lock);
	if (rc == GW_ENOTFOUND)
		return gw__error_set(rc, "no process list read yet");
	if (rc == GW_ENOTSUP)
		return gw__error_set(rc, "the processes of this GPU could not be listed");
	if (rc == GW_ENOMEM)
		return gw__error_set(rc, "out of memory copying a process list");
	return 0;
}
