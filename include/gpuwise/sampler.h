/* gpuwise — the sampler: live readings of many GPUs, shared by `gpuwise
 * watch`, `top`, `exporter` and the Python gpuwise.monitor().
 *
 * One pass reads every chosen device once (gw_device_sample_read: each
 * vendor getter once per device and pass, so a fake machine.json array
 * advances by one per pass), computes what needs two readings (average
 * power from the energy counter) and appends one gw_sample_point per
 * device to that device's ring of history. A device that cannot be read
 * (lost, an error) is up = 0 in that pass; the others are read all the
 * same, and a lost device is tried again on later passes, so a GPU that
 * comes back is up = 1 again.
 *
 * Either step it yourself (exact counts, no thread):
 *
 *     gw_sampler *s;
 *     gw_sampler_options o = GW_SAMPLER_OPTIONS_INIT;
 *     gw_sampler_new(&s, ctx, &o);
 *     for (int n = 0; n < 10; n++) {
 *         gw_sampler_step(s);
 *         for (int k = 0; k < gw_sampler_device_count(s); k++) {
 *             gw_sample_point p;
 *             if (gw_sampler_latest(s, k, &p) == 0 && p.up) ...
 *         }
 *         sleep(1);
 *     }
 *     gw_sampler_free(s);
 *
 * or let its thread run a pass every o.interval seconds
 * (gw_sampler_start / gw_sampler_stop); o.on_pass, when set, is called on
 * that thread after each pass (outside the sampler's lock, so it may call
 * gw_sampler_latest() and friends). The getters copy under the sampler's
 * lock and may be called from any thread.
 *
 * The context is borrowed: it must outlive the sampler, and while the
 * thread runs, the context is the thread's — other threads may only use
 * the sampler's getters (static facts from gw_device_get() read before
 * gw_sampler_start() stay valid; a device's health is in its points).
 *
 * With GW_SAMPLER_EVENTS a second thread waits for NVML events; it uses
 * the vendor library and the devices' handles only, never the context's
 * device records, and gw_sampler_free() stops it (within a few hundred
 * milliseconds) before the context may go.
 *
 * fork(): a child gets no copy of the threads. A program that forks while
 * a sampler runs calls gw_sampler_fork_prepare() before the fork (it waits
 * for a pass in progress to end and takes the lock, so the fork lands
 * neither inside the vendor library, whose locks the child would inherit
 * held, nor in a half-published pass) and gw_sampler_fork_parent() /
 * gw_sampler_fork_child() after it, e.g. from pthread_atfork handlers. In
 * the child the sampler is then stopped: its history up to the fork stays
 * readable, gw_sampler_stop() and gw_sampler_free() never wait for the
 * threads that are not there (nor free the parent's NVML event set), and
 * its context is left alone.
 */
#ifndef GPUWISE_SAMPLER_H
#define GPUWISE_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "gpuwise/context.h"
#include "gpuwise/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gw_sampler gw_sampler;

/* One device in one pass. */
typedef struct gw_sample_point {
	uint64_t seq;         /* pass number: 1 for the first pass */
	double time;          /* unix seconds (CLOCK_REALTIME) when the pass began */
	double elapsed;       /* monotonic seconds from gw_sampler_new() to the read */
	int device;           /* gpuwise index (gw_device_get) */
	int up;               /* 1 when this pass read the device */
	int error;            /* the gw_error of the failed read, 0 when up */
	gw_health health;     /* the device's health after this pass */
	gw_device_sample sample; /* all UNREAD when !up */
	/* Watts: the energy counter's growth over the time since the previous
	 * point that read it (the mean draw in between, which a momentary
	 * power reading misses). UNREAD on the first such point, NOT_SUPPORTED
	 * without an energy counter, ERROR when the counter went back. */
	gw_f64 power_average;
} gw_sample_point;

/* Called on the sampler's thread after each pass (see gw_sampler_start). */
typedef void (*gw_sampler_pass_fn)(gw_sampler *s, uint64_t seq, void *arg);

enum {
	GW_SAMPLER_PROCESSES = 0x1, /* also list each device's processes once per pass */
	/* Watch NVML's Xid events on a thread of their own from
	 * gw_sampler_new() to gw_sampler_free() (whether passes are stepped
	 * or made by the sampler's thread): each point's sample.xid_last and
	 * xid_count then hold what arrived up to that pass, also for a GPU
	 * that cannot be read (Xid 79: fallen off the bus). NOT_SUPPORTED for
	 * a GPU without events (AMD, a driver without nvmlEventSetWait_v2),
	 * ERROR when NVML refused to watch it. A failed wait (a lost GPU)
	 * never blocks: the thread waits at most a few hundred milliseconds
	 * per call and backs off after a failure. */
	GW_SAMPLER_EVENTS = 0x2
};

#define GW_SAMPLER_OPTIONS_VERSION 1
typedef struct gw_sampler_options {
	unsigned version;     /* GW_SAMPLER_OPTIONS_VERSION */
	double interval;      /* seconds between passes of the thread (>= 0.001; 0 = 1 s) */
	unsigned history;     /* points kept per device, oldest dropped first (0 = 64) */
	const int *devices;   /* gpuwise indices to sample, in this order; NULL = every device */
	int ndevices;         /* entries of devices */
	unsigned flags;       /* GW_SAMPLER_* */
	gw_sampler_pass_fn on_pass; /* NULL: none */
	void *on_pass_arg;
} gw_sampler_options;
#define GW_SAMPLER_OPTIONS_INIT { GW_SAMPLER_OPTIONS_VERSION, 1.0, 64, NULL, 0, 0, NULL, NULL }

/* A sampler over ctx (borrowed). opts may be NULL (every device, 1 s, 64
 * points). GW_EINVAL for a bad option or a device index out of range. */
int gw_sampler_new(gw_sampler **out, gw_context *ctx, const gw_sampler_options *opts);
/* Stops the thread if it runs, then frees. */
void gw_sampler_free(gw_sampler *s);

/* One pass now, on the calling thread. GW_EINVAL while the thread runs.
 * A device that cannot be read is not an error here (it is up = 0). */
int gw_sampler_step(gw_sampler *s);

/* Run passes on a thread of the sampler's own: the first at once, then
 * every interval (a slow pass delays the next; passes never pile up).
 * GW_EINVAL when it already runs (or ran in a parent before fork). */
int gw_sampler_start(gw_sampler *s);
/* Stop and join the thread (one last pass is not made). 0 when it was
 * not running. */
int gw_sampler_stop(gw_sampler *s);

/* Devices sampled (the length of opts.devices, or every device). */
int gw_sampler_device_count(const gw_sampler *s);
/* The gpuwise index of sampled device `slot`, -1 when out of range. */
int gw_sampler_device_index(const gw_sampler *s, int slot);
/* Passes made so far. */
uint64_t gw_sampler_passes(gw_sampler *s);

/* The newest point of device `slot`: 0, or GW_ENOTFOUND before the first
 * pass, GW_EINVAL for a bad slot. */
int gw_sampler_latest(gw_sampler *s, int slot, gw_sample_point *out);
/* Up to max of the newest points of device `slot` into out, oldest first;
 * returns how many (0 for a bad slot or none yet). */
size_t gw_sampler_history(gw_sampler *s, int slot, gw_sample_point *out, size_t max);
/* The processes of device `slot` in the newest pass (GW_SAMPLER_PROCESSES),
 * as a malloc'd copy (gw_processes_free()). GW_ENOTSUP when the pass could
 * not list them (unknown, which is not "none"), GW_ENOTFOUND before the
 * first pass or without the flag. */
int gw_sampler_processes(gw_sampler *s, int slot, gw_process **out, size_t *count);

/* fork() support: see the top of this file. */
void gw_sampler_fork_prepare(gw_sampler *s);
void gw_sampler_fork_parent(gw_sampler *s);
void gw_sampler_fork_child(gw_sampler *s);

#ifdef __cplusplus
}
#endif
#endif
