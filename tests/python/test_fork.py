"""fork() with gpuwise running: a child must never hang.

A fork copies only the forking thread. Before the fix, a child forked while a
gpuwise.monitor() ran believed the monitor still ran, and exiting, leaving the
`with` block, stop() or garbage-collecting the monitor waited forever for a
sampling thread that does not exist in the child (pthread_join, then
pthread_cond_destroy on the condition variable that thread was waiting on).
A lock of the shared context held by another thread at the fork stayed
locked forever in the child the same way.

Every test runs its own interpreter, in its own session, under a hard
timeout: a hang kills the whole process group and fails the test instead of
blocking the suite.
"""
import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from test_module import LIB, WITH_MACHINE, built_module  # noqa: F401  (session fixture: builds the extension)

HARD_TIMEOUT = 30   # seconds; each program needs well under 2


def run_isolated(machine, code, timeout=HARD_TIMEOUT):
    """Run `code` (which sets `out`) under a fake machine in a new session;
    returns out. A program still running after `timeout` seconds is killed
    with its whole process group and the test fails."""
    prog = "import json, os, sys, time\nimport gpuwise\nout = None\n" + textwrap.dedent(code) + \
        "\nprint('\\n@@OUT@@' + json.dumps(out), flush=True)\n"
    env = {k: v for k, v in os.environ.items()
           if k not in ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "HIP_VISIBLE_DEVICES")}
    env["PYTHONPATH"] = LIB
    p = subprocess.Popen([WITH_MACHINE, machine, "--", sys.executable, "-c", prog],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        stdout, stderr = p.communicate()
        pytest.fail("hung: still running after %d s (killed)\nstdout:\n%s\nstderr:\n%s"
                    % (timeout, stdout[-3000:], stderr[-3000:]))
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)   # a stray child of a failed run
        except ProcessLookupError:
            pass
    assert p.returncode == 0, "rc %s\nstdout:\n%s\nstderr:\n%s" % (p.returncode, stdout, stderr)
    assert "@@OUT@@" in stdout, stdout + stderr
    return json.loads(stdout.rsplit("@@OUT@@", 1)[1])


# The parent forks while its monitor samples; the child reports what it sees
# on a pipe, does ACTION, and its exit status says whether it got through.
FORK_WITH_MONITOR = """
mon = gpuwise.monitor(interval=0.002, devices=[0, 1]).start()
while len(mon.samples) < 4:     # both GPUs sampled at least twice
    time.sleep(0.01)
r, w = os.pipe()
fork_at = time.monotonic()
pid = os.fork()
if pid == 0:
    os.close(r)
    seen = {'running': mon.running, 'n': len(mon.samples)}
    time.sleep(0.1)
    seen['n_later'] = len(mon.samples)     # no thread here: nothing new
    os.write(w, json.dumps(seen).encode())
    os.close(w)
    ACTION
os.close(w)
child = json.loads(os.read(r, 65536).decode() or 'null')
_, status = os.waitpid(pid, 0)
n_fork = len(mon.samples)
time.sleep(0.2)
out = {'child': child, 'status': status, 'parent_running': mon.running,
       'parent_grew': len(mon.samples) > n_fork}
mon.stop()
"""


@pytest.mark.parametrize("action", [
    "sys.exit(0)",                                        # interpreter exit, finalisers run
    "mon.stop(); assert not mon.running; mon.summary(); os._exit(0)",
    "del mon; import gc; gc.collect(); os._exit(0)",      # the C Monitor freed in the child
    "mon.start(); assert mon.running; mon.stop(); assert mon.samples; os._exit(0)",  # a fresh thread
])
def test_fork_child_with_running_monitor_never_hangs(action):
    out = run_isolated("h100-8x", FORK_WITH_MONITOR.replace("ACTION", action))
    assert out["status"] == 0, "the child failed: status %r" % out["status"]
    child = out["child"]
    assert child["running"] is False, "a fork child has no sampling thread"
    assert child["n"] > 0 and child["n_later"] == child["n"]
    assert out["parent_running"] is True and out["parent_grew"], "the parent's monitor keeps sampling"


def test_fork_child_leaves_with_block():
    out = run_isolated("h100-8x", """
        r, w = os.pipe()
        with gpuwise.monitor(interval=0.002) as mon:
            while len(mon.samples) < 8:
                time.sleep(0.01)
            pid = os.fork()
            if pid == 0:
                os.close(r)
        if pid == 0:
            s = mon.summary()
            os.write(w, json.dumps([mon.running, s.note, len(s.gpus), s.gpus[0].samples]).encode())
            os._exit(0)
        os.close(w)
        child = json.loads(os.read(r, 65536).decode() or 'null')
        _, status = os.waitpid(pid, 0)
        out = {'child': child, 'status': status, 'samples': len(mon.samples)}
    """)
    assert out["status"] == 0
    running, note, ngpus, nsamples = out["child"]
    assert running is False and ngpus == 8 and nsamples > 0
    assert "inherited through fork()" in note


def test_fork_child_summary_ends_at_the_fork():
    out = run_isolated("h100-8x", """
        mon = gpuwise.monitor(interval=0.005, devices=[0]).start()
        time.sleep(0.1)
        t_fork = time.monotonic() - mon._t0
        pid = os.fork()
        if pid == 0:
            time.sleep(1.5)
            mon.stop()
            d = mon.summary().duration_s
            os._exit(0 if d < t_fork + 0.75 else 3)
        _, status = os.waitpid(pid, 0)
        mon.stop()
        out = [status, mon.summary().duration_s >= 1.5]
    """)
    assert out == [0, True]


def test_fork_while_other_threads_hold_the_context_lock():
    """Threads query the shared context (its lock held, GIL released) while
    the main thread forks again and again; every child queries it too."""
    out = run_isolated("h100-8x", """
        import threading
        stop = False
        def hammer():
            ctx = gpuwise._context()
            while not stop:
                ctx.sample(2); ctx.processes(3)
        gpuwise.device_count()
        ts = [threading.Thread(target=hammer) for _ in range(2)]
        for t in ts: t.start()
        statuses = []
        for _ in range(30):
            pid = os.fork()
            if pid == 0:
                free, total = gpuwise.mem_get_info(0)
                os._exit(0 if total > 0 else 4)
            statuses.append(os.waitpid(pid, 0)[1])
        stop = True
        for t in ts: t.join()
        out = statuses
    """)
    assert out == [0] * 30


def test_fork_never_lands_inside_a_pass():
    """A fork while the monitor's thread is inside the vendor library would
    leave the library's own locks (the fake NVML's call counter, NVML's
    internals) held in the child, and the child's first GPU call would wait
    forever (seen once in CI as a hung multiprocessing Pool). fork_prepare
    waits for the pass in progress; 300 forks against a 1 ms monitor."""
    out = run_isolated("h100-8x", """
        import signal
        MON = gpuwise.monitor(interval=0.001).start()
        statuses = []
        for i in range(300):
            pid = os.fork()
            if pid == 0:
                signal.alarm(10)
                free, total = gpuwise.mem_get_info(i % 8)
                os._exit(0 if total > 0 else 4)
            statuses.append(os.waitpid(pid, 0)[1])
        MON.stop()
        out = [sum(1 for st in statuses if st != 0), len(MON.samples) > 0]
    """)
    assert out == [0, True]


def test_multiprocessing_fork_start_method():
    out = run_isolated("h100-8x", """
        import multiprocessing as mp

        def child(q):
            # inherited: stopped, and stopping it is instant
            q.put([MON.running, MON.stop().running])
            with gpuwise.monitor(interval=0.005, devices=[1]) as own:
                time.sleep(0.05)
            q.put(len(own.samples))

        def free_memory(i):
            return gpuwise.mem_get_info(i)[0]

        ctx = mp.get_context('fork')
        MON = gpuwise.monitor(interval=0.002).start()
        q = ctx.Queue()
        p = ctx.Process(target=child, args=(q,))
        p.start()
        first, second = q.get(timeout=20), q.get(timeout=20)
        p.join(20)
        with ctx.Pool(2) as pool:
            frees = pool.map(free_memory, range(4))
        MON.stop()
        out = {'exitcode': p.exitcode, 'first': first, 'own_samples': second,
               'frees': frees, 'here': [gpuwise.mem_get_info(i)[0] for i in range(4)],
               'parent_samples': len(MON.samples)}
    """)
    assert out["exitcode"] == 0
    assert out["first"] == [False, False]
    assert out["own_samples"] > 0, "a child can start its own monitor"
    assert out["frees"] == out["here"]
    assert out["parent_samples"] > 0
