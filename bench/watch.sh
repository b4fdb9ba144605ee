#!/usr/bin/env bash
# Benchmark: what does watching 8 GPUs cost?
#
#   bench/watch.sh [SECONDS] [MACHINE]     (defaults: 20 s per command, h100-8x)
#
# Runs, one after the other in one session on a fake machine, each monitor
# for SECONDS in a pseudo-terminal of 160x50 (what a user would see; the
# output is read and thrown away): `gpuwise watch -d 0.1` (table and
# --json), `gpustat -i 0.1`, `nvitop --monitor --interval 0.25` (nvitop
# refuses anything shorter) and
# `gpuwise top -d 0.1`. The CPU each used comes from /proc (utime + stime,
# all threads, children reaped included) and is given as % of one core; for
# the full-screen monitors also per frame (SECONDS / interval frames).
# gpuwise commands this build does not have yet are listed as "not built".
# Prints a Markdown table and writes it into docs/benchmarks.md between
# <!-- watch:begin --> and <!-- watch:end -->, with the load average before
# and after. Target (issue 10): `gpuwise watch -d 0.1` on 8 GPUs at most
# 0.5 % of one core.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RUN_S=${1:-20}
MACHINE=${2:-h100-8x}
cd "$REPO"

make -s -j2 build/gpuwise build/fake/libnvidia-ml.so.1 build/fake/libcuda.so.1 >/dev/null
PY=build/venv/bin/python
[ -x "$PY" ] || PY=python3

exec scripts/with-machine "$MACHINE" -- "$PY" - "$RUN_S" "$MACHINE" <<'EOF'
import datetime, fcntl, os, platform, pty, select, signal, struct, subprocess, sys, termios, time

run_s, machine = float(sys.argv[1]), sys.argv[2]
repo = os.getcwd()
venv_bin = os.path.dirname(sys.executable)
TICK = os.sysconf("SC_CLK_TCK")

def exe(name):
    p = os.path.join(venv_bin, name)
    return p if os.access(p, os.X_OK) else None

def gw_has(cmd):
    return subprocess.run(["build/gpuwise", cmd, "--help"], capture_output=True).returncode == 0

def cpu_seconds(pid):
    """utime + stime + cutime + cstime: the process, its threads, its reaped children."""
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in f[11:15]) / TICK

def loadavg():
    return " ".join(open("/proc/loadavg").read().split()[:3])

# name, argv (None: not available, with the reason), frame interval for "per frame" (None: no frames)
peers = [
    ("gpuwise watch -d 0.1", ["build/gpuwise", "watch", "-d", "0.1"] if gw_has("watch") else "not built", None),
    ("gpuwise watch -d 0.1 --json", ["build/gpuwise", "watch", "-d", "0.1", "--json"] if gw_has("watch") else "not built", None),
    ("gpustat -i 0.1", [exe("gpustat"), "-i", "0.1"] if exe("gpustat") else "not installed", None),
    # nvitop refuses intervals under 0.25 s ("may cause performance issues")
    ("nvitop --monitor --interval 0.25", [exe("nvitop"), "--monitor", "full", "--interval", "0.25"] if exe("nvitop") else "not installed", 0.25),
    ("gpuwise top -d 0.1", ["build/gpuwise", "top", "-d", "0.1"] if gw_has("top") else "not built", 0.1),
]
env = dict(os.environ, TERM="xterm-256color", COLUMNS="160", LINES="50")
env.pop("NO_COLOR", None)

def measure(argv):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    got, tail, names, counting = 0, b"", [0], False

    def drain():
        """Reads what the program wrote; answers a cursor-position query
        (blessed, under gpustat, waits for one) as a terminal would."""
        nonlocal got, tail
        if not select.select([master], [], [], 0.1)[0]:
            return
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:   # the program closed the terminal: it exited
            chunk = b""
        if not chunk:
            raise SystemExit("bench: %s exited (rc %s): %r" % (" ".join(argv), proc.wait(), tail[-300:]))
        got += len(chunk)
        if counting:
            names[0] += (tail[-32:] + chunk).count(b"H100") - tail[-32:].count(b"H100")
        tail = (tail + chunk)[-4096:]
        if b"\x1b[6n" in chunk:
            os.write(master, b"\x1b[1;1R")

    try:
        t_end = time.time() + 1.5          # start-up (Python imports) is not what is measured
        while time.time() < t_end:
            drain()
        c0, t0, counting = cpu_seconds(proc.pid), time.perf_counter(), True
        while time.perf_counter() - t0 < run_s:
            drain()
        cpu, wall = cpu_seconds(proc.pid) - c0, time.perf_counter() - t0
    finally:
        for sig, wait_s in ((signal.SIGTERM, 5), (signal.SIGKILL, None)):
            try:
                os.killpg(proc.pid, sig)   # its own session: its helpers too
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=wait_s)
                break
            except subprocess.TimeoutExpired:
                pass
        os.close(master)
    if got == 0:
        raise SystemExit("bench: %s printed nothing" % " ".join(argv))
    # Samples shown per second, where each sample names the 8 GPUs again
    # (full-screen programs redraw only what changed: not counted).
    return cpu, wall, names[0] / 8 / wall

load_before = loadavg()
rows = ["| command | CPU, % of one core | CPU per frame | samples shown per second |", "|---|---:|---:|---:|"]
results = {}
for name, argv, frame in peers:
    if isinstance(argv, str):
        rows.append("| `%s` | %s | | |" % (name, argv))
        continue
    cpu, wall, rate = measure(argv)
    results[name] = cpu / wall * 100
    rows.append("| `%s` | %.2f %% | %s | %s |" % (name, cpu / wall * 100,
                                                "%.2f ms" % (cpu / (wall / frame) * 1e3) if frame else "",
                                                "%.1f" % rate if not frame and rate else ""))
load_after = loadavg()

def pkg(name):
    try:
        from importlib.metadata import version as v
        return v(name)
    except Exception:
        return "not installed"

sys.path.insert(0, os.path.join(repo, "bench"))
import benchdoc
cpu_model = benchdoc.cpu_model()
w = results.get("gpuwise watch -d 0.1")
target = ("not measured (`gpuwise watch` is not in this build)" if w is None else
          "%s (%.2f %%)" % ("met" if w <= 0.5 else "NOT met", w))
section = "\n".join([
    "Measured %s on fake machine `%s` (8 GPUs), each command alone for %g s in a 160x50 pseudo-terminal "
    "after 1.5 s of start-up; CPU from /proc/PID/stat (all threads and reaped children)."
    % (datetime.date.today().isoformat(), machine, run_s),
    "Host: %s, %d CPUs, Linux %s; load average (1, 5, 15 min) %s before, %s after (the host is shared with other jobs). "
    "Versions: %s; gpustat %s, nvitop %s, Python %s."
    % (cpu_model, os.cpu_count() or 0, platform.release(), load_before, load_after,
       subprocess.run(["build/gpuwise", "--version"], capture_output=True, text=True).stdout.strip(),
       pkg("gpustat"), pkg("nvitop"), platform.python_version()),
    "",
] + rows + [
    "",
    "Target: `gpuwise watch -d 0.1` on 8 GPUs at most 0.5 %% of one core: %s." % target,
    "",
    "Reading the table: every command is asked for 10 samples a second but nvitop, which refuses intervals under "
    "0.25 s (compare its CPU per frame). gpustat sleeps 0.1 s per GPU to sample per-process CPU use, so on 8 GPUs it shows about one sample a second whatever -i says (the last column) and its CPU is for those, not for 10 a second. The fake NVML answers instantly, so on real hardware each row grows by the same "
    "driver cost per sample.",
])
print(section)

sys.path.insert(0, os.path.join(repo, "bench"))
from benchdoc import write_section
doc = write_section(repo, "watch", "Watching GPUs (`bench/watch.sh`)",
                    "CPU of `gpuwise watch` and `gpuwise top` next to gpustat and nvitop refreshing at the same "
                    "rate on the same fake machine.", section)
print("\nwrote", os.path.relpath(doc, repo))
EOF
