"""gpuwise.monitor(): a background C thread that samples GPUs, and the
summary of what it saw (loaded on first use to keep `import gpuwise` cheap)."""

import collections
import functools
import os
import sys
import time
import weakref

from . import _gpuwise as _C
from ._i18n import _, _n

Sample = collections.namedtuple("Sample", [
    "time", "device", "memory_used", "memory_total", "utilization_gpu", "utilization_memory",
    "power_w", "temperature_c", "energy_j", "sm_clock_mhz", "throttle_reasons"])
Sample.__doc__ = ("One sample of one GPU: time in seconds since the monitor started, device = "
                  "position in Monitor.devices; None where the GPU did not report a value.")

# Clock-event reasons that mean the GPU is being slowed down (NVML bits).
_POWER_BITS = 0x4 | 0x80
_THERMAL_BITS = 0x8 | 0x20 | 0x40

IDLE_PERCENT = 10          # a sample below this utilisation counts as idle
IDLE_FRACTION = 0.3        # idle this much of the time -> input-bound verdict
MEMORY_FULL_FRACTION = 0.95
THROTTLE_FRACTION = 0.25


def percentile(values, q):
    """Linear-interpolated percentile (numpy's default) of a list, None if empty."""
    v = sorted(values)
    if not v:
        return None
    pos = (len(v) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def _mean(values):
    return sum(values) / len(values) if values else None


def _gib(b):
    return "%.1f GiB" % (b / 2**30)


class GPUSummary:
    """What one GPU did while monitored. Values are None when never reported."""

    __slots__ = ("index", "uuid", "name", "samples", "memory_total", "peak_memory_used",
                 "mean_memory_used", "utilization_mean", "utilization_p50", "utilization_p90",
                 "memory_utilization_mean", "idle_fraction", "power_mean_w", "power_peak_w",
                 "energy_j", "temperature_max_c", "throttled_fraction", "throttle_kind", "verdicts",
                 "judged")

    def to_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def __repr__(self):
        return "GPUSummary(%r)" % (self.to_dict(),)


class Summary:
    """The result of a Monitor: duration, per-GPU figures and verdicts in plain words."""

    __slots__ = ("duration_s", "interval", "gpus", "verdicts", "truncated", "note", "judged_by")

    @property
    def verdict(self):
        """All verdicts as one paragraph ('' when nothing was monitored)."""
        return "\n".join(self.verdicts)

    def to_dict(self):
        return {"duration_s": self.duration_s, "interval": self.interval,
                "gpus": [g.to_dict() for g in self.gpus], "verdicts": list(self.verdicts),
                "truncated": self.truncated, "note": self.note, "judged_by": self.judged_by}

    def __str__(self):
        n = len(self.gpus)
        lines = [_("gpuwise monitor: %.1f s, %s") % (self.duration_s, _n("%d GPU", "%d GPUs", n) % n)]
        if self.note:
            lines.append("  " + self.note)
        for g in self.gpus:
            parts = ["GPU %s %s:" % (g.index, g.name or "")]
            if g.peak_memory_used is not None:
                if g.memory_total:
                    parts.append(_("peak memory %s of %s") % (_gib(g.peak_memory_used), _gib(g.memory_total)))
                else:
                    parts.append(_("peak memory %s") % _gib(g.peak_memory_used))
            if g.utilization_p50 is not None:
                parts.append(_("utilisation p50 %.0f%% p90 %.0f%%") % (g.utilization_p50, g.utilization_p90))
            if g.energy_j is not None:
                parts.append(_("energy %.0f J") % g.energy_j)
            lines.append("  " + parts[0] + " " + _(", ").join(parts[1:]))
        lines += ["  " + v for v in self.verdicts]
        return "\n".join(lines)

    __repr__ = __str__


def _energy(rows):
    """Joules used between the first and last sample: the driver's energy
    counter when it is there, else the power draw integrated (trapezoids)."""
    e = [(r.time, r.energy_j) for r in rows if r.energy_j is not None]
    if len(e) >= 2 and e[-1][1] >= e[0][1]:
        return e[-1][1] - e[0][1]
    p = [(r.time, r.power_w) for r in rows if r.power_w is not None]
    if len(p) < 2:
        return None
    return sum((t1 - t0) * (w0 + w1) / 2 for (t0, w0), (t1, w1) in zip(p, p[1:]))


def _verdicts(g):
    out = []
    label = "GPU %s" % g.index
    if g.idle_fraction is not None and g.samples >= 3 and g.idle_fraction >= IDLE_FRACTION:
        out.append(_("%s was idle %.0f%% of the time (utilisation p50 %.0f%%): the input pipeline or "
                     "the CPU is likely the bottleneck. Try DataLoader(num_workers=N, pin_memory=True, "
                     "persistent_workers=True), prefetching, or a larger batch size.")
                   % (label, 100 * g.idle_fraction, g.utilization_p50 or 0))
    if g.peak_memory_used is not None and g.memory_total and \
            g.peak_memory_used >= MEMORY_FULL_FRACTION * g.memory_total:
        out.append(_("%s memory was nearly full (peak %s of %s): an OOM is close. Use gradient "
                     "checkpointing, a smaller batch (with gradient accumulation), or mixed precision "
                     "(bf16/fp16).") % (label, _gib(g.peak_memory_used), _gib(g.memory_total)))
    if g.throttled_fraction is not None and g.throttled_fraction >= THROTTLE_FRACTION:
        out.append(_("%s clocks were throttled %.0f%% of the time (%s): check cooling and airflow, "
                     "the power limit (nvidia-smi -q -d POWER) and `gpuwise doctor`.")
                   % (label, 100 * g.throttled_fraction, g.throttle_kind))
    if not out and g.utilization_p50 is not None:
        out.append(_("%s was busy (utilisation p50 %.0f%%, p90 %.0f%%): no problem pattern seen.")
                   % (label, g.utilization_p50, g.utilization_p90))
    return out


def _active(rows):
    """Did a GPU do anything while monitored (a sample at or above the idle
    threshold)?"""
    return any(r.utilization_gpu is not None and r.utilization_gpu >= IDLE_PERCENT for r in rows)


def _gpu_list(indices):
    return ", ".join("GPU %s" % i for i in indices)


def summarize(samples, devices, duration, interval, truncated=False, note=None, own=None):
    """Summary of `samples` (list of Sample) for `devices` [(index, uuid, name)].

    own: None to judge every GPU (the caller chose them); else the gpuwise
    indices whose NVML process list held this process. Only those are
    judged then, or, when it is empty (a PID namespace hides it, NVML does
    not list it), the GPUs that showed activity: an idle GPU the program
    never used says nothing about its input pipeline."""
    s = Summary()
    s.judged_by = "all"
    s.duration_s = duration
    s.interval = interval
    s.truncated = truncated
    s.note = note
    s.gpus, s.verdicts = [], []
    for pos, (index, uuid, name) in enumerate(devices):
        rows = [r for r in samples if r.device == pos]
        g = GPUSummary()
        g.index, g.uuid, g.name, g.samples = index, uuid or None, name or None, len(rows)
        mem = [r.memory_used for r in rows if r.memory_used is not None]
        util = [r.utilization_gpu for r in rows if r.utilization_gpu is not None]
        mutil = [r.utilization_memory for r in rows if r.utilization_memory is not None]
        power = [r.power_w for r in rows if r.power_w is not None]
        temp = [r.temperature_c for r in rows if r.temperature_c is not None]
        thr = [r.throttle_reasons for r in rows if r.throttle_reasons is not None]
        totals = [r.memory_total for r in rows if r.memory_total is not None]
        g.memory_total = totals[-1] if totals else None
        g.peak_memory_used = max(mem) if mem else None
        g.mean_memory_used = _mean(mem)
        g.utilization_mean = _mean(util)
        g.utilization_p50 = percentile(util, 0.5)
        g.utilization_p90 = percentile(util, 0.9)
        g.memory_utilization_mean = _mean(mutil)
        g.idle_fraction = sum(1 for u in util if u < IDLE_PERCENT) / len(util) if util else None
        g.power_mean_w = _mean(power)
        g.power_peak_w = max(power) if power else None
        g.energy_j = _energy(rows)
        g.temperature_max_c = max(temp) if temp else None
        slow = [t for t in thr if t & (_POWER_BITS | _THERMAL_BITS)]
        g.throttled_fraction = len(slow) / len(thr) if thr else None
        kinds = set()
        for t in slow:
            if t & _THERMAL_BITS:
                kinds.add("thermal")
            if t & _POWER_BITS:
                kinds.add("power")
        g.throttle_kind = " and ".join(sorted(kinds)) or None
        g.judged = True
        if own is not None:
            g.judged = index in own if own else _active(rows)
        g.verdicts = _verdicts(g) if g.judged else []
        s.gpus.append(g)
        s.verdicts += g.verdicts
    if own is not None and devices:
        s.judged_by = "process" if own else "activity"
        used = [g.index for g in s.gpus if g.judged]
        unused = [g.index for g in s.gpus if not g.judged]
        if not used:
            s.verdicts.append(_("None of the %d GPUs ran this process or showed activity: nothing to judge.")
                              % len(s.gpus))
        elif unused and own:
            s.verdicts.append(_("Judged only %s, where this process runs (NVML's process list); %s: not used "
                                "by it, not judged.") % (_gpu_list(used), _gpu_list(unused)))
        elif unused:
            s.verdicts.append(_("Judged only %s, the GPUs that showed activity (this process is in no GPU's "
                                "NVML process list); %s stayed idle: not used by this program, not judged.")
                              % (_gpu_list(used), _gpu_list(unused)))
    if not devices:
        s.verdicts.append(_("no GPU was monitored (%s)") % note if note else _("no GPU was monitored"))
    return s


def _selectors(devices):
    """(selectors for the C monitor, note) for a devices= argument."""
    import gpuwise
    if devices is None:
        try:
            ctx = gpuwise._context()
            units = gpuwise._cuda_units(ctx)
        except gpuwise.GPUWiseError as e:
            return [], _("no GPU could be read: %s") % e
        infos, seen = [], set()
        for info, _mig in units:
            if info["index"] not in seen:
                seen.add(info["index"])
                infos.append(info)
        if not infos:
            return [], _("no GPU is visible to CUDA in this process")
        return [_selector_of(i) for i in infos], None
    # Any selector gpuwise takes elsewhere; a MIG device is sampled as its
    # GPU. Each GPU once, in the order given; one that names nothing raises.
    ctx = gpuwise._context()
    infos, seen = [], set()
    for info, _mig, _n in gpuwise._resolve_all(ctx, devices, "monitor(devices=...): "):
        if info["index"] not in seen:
            seen.add(info["index"])
            infos.append(info)
    if not infos:
        return [], _("no device was given")
    return [_selector_of(i) for i in infos], None


# Monitors whose sampling thread runs. A fork child inherits them without
# their threads (the C layer marks them stopped); this notes, in the child,
# when sampling ended, so durations and the summary say so.
_running = weakref.WeakSet()


def _after_fork_in_child():
    now = time.monotonic()
    for mon in list(_running):
        if mon._t1 is None:
            mon._t1 = now
        mon._inherited = True
    _running.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _selector_of(info):
    return info["uuid"] or info["pci_bus_id"] or str(info["index"])


class Monitor:
    """Samples the chosen GPUs every `interval` seconds on a C thread with its
    own library context (the GIL is not held while it sleeps or samples).

    with gpuwise.monitor() as m: ...       then m.summary(), m.samples, m.to_csv(path)
    @gpuwise.monitor(report=True)          summary printed to stderr after each call
    """

    def __init__(self, interval=0.1, devices=None, report=False, max_samples=500000):
        if isinstance(interval, bool) or not isinstance(interval, (int, float)):
            raise TypeError(_("interval must be a number of seconds"))
        if not 0.001 <= interval <= 3600:
            raise _C.InvalidArgumentError(_("interval must be between 0.001 and 3600 seconds"))
        if isinstance(max_samples, bool) or not isinstance(max_samples, int) or max_samples < 1:
            raise _C.InvalidArgumentError("max_samples must be a positive int")
        self.interval = float(interval)
        self.report = report
        self.max_samples = max_samples
        self._devices_arg = devices
        self._c = None
        self._samples = []
        self._devices = []
        self._note = None
        self._status = {}
        self._t0 = self._t1 = None
        self._inherited = False
        self._own = set()

    # -- running --

    def start(self):
        """Start sampling (again: a restart clears the previous samples)."""
        if self._c is not None:
            self.stop()
        sels, note = _selectors(self._devices_arg)
        self._samples, self._devices, self._note, self._status = [], [], note, {}
        self._own = set()
        self._t0, self._t1, self._inherited = time.monotonic(), None, False
        if not sels:
            return self
        self._c = _C.Monitor(sels, self.interval, None, _C.OPT_NO_CUDA, self.max_samples)
        self._c.start()
        _running.add(self)
        st = self._c.status()
        self._devices = [tuple(d) for d in st["devices"]]
        notes = [n for n in (st["context_error"], st["unresolved"] and
                             "not found: " + st["unresolved"]) if n]
        self._note = "; ".join(notes) or None
        return self

    def stop(self):
        """Stop sampling; the samples stay available. In a child forked while
        the monitor ran, sampling already stopped at the fork (the thread
        stayed in the parent): this only ends the bookkeeping."""
        if self._t0 is not None and self._t1 is None:
            self._t1 = time.monotonic()
        c = self._c
        if c is not None:
            self._look_for_self()
            c.stop()
            self._collect()
            self._status = c.status()
            self._c = None
            _running.discard(self)
        return self

    def _look_for_self(self):
        """Note the monitored GPUs whose NVML process list holds this
        process (a program still holds its GPUs when it stops monitoring)."""
        if self._devices_arg is not None or not self._devices or self._inherited:
            return
        import gpuwise
        pid = os.getpid()
        try:
            ctx = gpuwise._context()
            for index, _uuid, _name in self._devices:
                if index not in self._own and any(p["pid"] == pid for p in ctx.processes(index)):
                    self._own.add(index)
        except gpuwise.GPUWiseError:
            pass

    def _collect(self):
        if self._c is not None:
            self._samples += [Sample(*t) for t in self._c.samples(len(self._samples))]

    @property
    def running(self):
        """True while the sampling thread runs (False in a fork child: the
        thread stayed in the parent)."""
        return self._c is not None and bool(self._c.status()["running"])

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        if self.report:
            print(self.summary(), file=sys.stderr)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        wrapper.monitor = self
        return wrapper

    # -- results --

    @property
    def devices(self):
        """[(gpuwise index, uuid, name)] of the GPUs being monitored."""
        return list(self._devices)

    @property
    def samples(self):
        """Every Sample so far (works while running too)."""
        self._collect()
        return list(self._samples)

    def summary(self):
        """A Summary (empty, with a note, when no GPU was monitored)."""
        self._collect()
        if self._t0 is None:
            duration = 0.0
        else:
            duration = (self._t1 if self._t1 is not None else time.monotonic()) - self._t0
        truncated = bool((self._c.status() if self._c is not None else self._status).get("truncated"))
        if self._c is not None:
            self._look_for_self()
        note = self._note
        if self._inherited:
            note = "; ".join(n for n in (note, "inherited through fork(): sampling stopped at the fork") if n)
        # GPUs chosen by the caller are all judged; chosen by gpuwise (every
        # visible one), only those this program used.
        own = None if self._devices_arg is not None else set(self._own)
        return summarize(self._samples, self._devices, duration, self.interval, truncated, note, own)

    def to_csv(self, path):
        """Write the samples as CSV (one row per GPU per sample, with uuid)."""
        import csv
        rows = self.samples
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(("uuid", "index") + Sample._fields)
            for r in rows:
                index, uuid, _name = self._devices[r.device]
                w.writerow((uuid, index) + tuple("" if v is None else v for v in r))
        return path

    def __repr__(self):
        return "<gpuwise.Monitor interval=%g devices=%d samples=%d%s>" % (
            self.interval, len(self._devices), len(self._samples), " running" if self.running else "")
