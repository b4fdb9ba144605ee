#!/usr/bin/env bash
# Benchmark: what does a Prometheus exporter cost on an 8-GPU node?
#
#   bench/exporter.sh [SECONDS] [MACHINE]     (defaults: 10 s per window, h100-8x)
#
# Runs, one after the other in one session on a fake machine, `gpuwise
# exporter` (--names dcgm, the default, and --names native --per-process,
# whose content is closest to nvitop-exporter's) and `nvitop-exporter`
# (PyPI, installed into build/venv by scripts/setup), each alone, each with
# a 1 s collection interval. For each: an idle window (no scrapes: what
# collection alone costs), then a window of back-to-back scrapes from one
# client over a kept-alive connection (where the server keeps it). Measured
# from /proc: CPU (utime + stime of every thread, dead ones included),
# peak RSS (VmHWM) and private memory (smaps_rollup Private_Clean +
# Private_Dirty) at the end; per scrape: the CPU the scrapes added over the
# idle rate, and the latency the client saw (p50, p99). Prints a Markdown
# table and writes it into docs/benchmarks.md between <!-- exporter:begin -->
# and <!-- exporter:end -->, with the machine's load average before and after.
# Targets (issue 10): peak RSS at most 8 MiB; CPU per scrape at least 20x
# lower than nvitop-exporter's.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_PER_WINDOW=${1:-10}
MACHINE=${2:-h100-8x}
cd "$REPO"

make -s -j2 build/gpuwise build/fake/libnvidia-ml.so.1 build/fake/libcuda.so.1 >/dev/null
PY=build/venv/bin/python
[ -x "$PY" ] || PY=python3

exec scripts/with-machine "$MACHINE" -- "$PY" - "$SECONDS_PER_WINDOW" "$MACHINE" <<'EOF'
import datetime, http.client, os, platform, re, signal, socket, statistics, subprocess, sys, time

window, machine = float(sys.argv[1]), sys.argv[2]
repo = os.getcwd()
venv_bin = os.path.dirname(sys.executable)
TICK = os.sysconf("SC_CLK_TCK")

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p

def cpu_seconds(pid):
    """utime + stime of the whole process (exited threads included)."""
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / TICK

def memory_kib(pid):
    hwm = int(re.search(r"VmHWM:\s+(\d+)", open("/proc/%d/status" % pid).read()).group(1))
    roll = open("/proc/%d/smaps_rollup" % pid).read()
    priv = sum(int(re.search(r"%s:\s+(\d+)" % k, roll).group(1)) for k in ("Private_Clean", "Private_Dirty"))
    return hwm, priv

def loadavg():
    return " ".join(open("/proc/loadavg").read().split()[:3])

def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]

def nvitop_exporter():
    exe = os.path.join(venv_bin, "nvitop-exporter")
    return exe if os.access(exe, os.X_OK) else None

port = free_port
peers = [
    ("gpuwise exporter", lambda p: ["build/gpuwise", "exporter", "--listen", "127.0.0.1:%d" % p, "--interval", "1"]),
    ("gpuwise exporter --names native --per-process",
     lambda p: ["build/gpuwise", "exporter", "--listen", "127.0.0.1:%d" % p, "--interval", "1", "--names", "native", "--per-process"]),
    ("nvitop-exporter", (lambda p: [nvitop_exporter(), "--bind-address", "127.0.0.1", "--port", str(p), "--interval", "1"])
     if nvitop_exporter() else None),
]

def measure(name, argv_of):
    p = free_port()
    proc = subprocess.Popen(argv_of(p), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", p, timeout=10)
        deadline = time.time() + 60
        while True:   # up, and the first collection done
            try:
                conn.request("GET", "/metrics")
                r = conn.getresponse()
                body = r.read()
                if r.status == 200 and len(body) > 1000:
                    break
            except OSError:
                conn.close()
            if time.time() > deadline or proc.poll() is not None:
                raise SystemExit("bench: %s did not come up: %s" % (name, proc.stderr.read(2000) if proc.poll() is not None else "timeout"))
            time.sleep(0.2)
        for _ in range(50):   # warm-up
            conn.request("GET", "/metrics"); conn.getresponse().read()
        c0, t0 = cpu_seconds(proc.pid), time.perf_counter()
        time.sleep(window)
        idle_rate = (cpu_seconds(proc.pid) - c0) / (time.perf_counter() - t0)
        conn.close()   # servers close a connection idle this long; open a fresh one
        lat, size = [], 0
        c0, t0 = cpu_seconds(proc.pid), time.perf_counter()
        while time.perf_counter() - t0 < window:
            s = time.perf_counter()
            for attempt in (1, 2):   # a server may close a kept-alive connection: reconnect once
                try:
                    conn.request("GET", "/metrics")
                    r = conn.getresponse()
                    body = r.read()
                    break
                except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                    conn.close()
                    if attempt == 2:
                        raise
            lat.append(time.perf_counter() - s)
            if r.status != 200:
                raise SystemExit("bench: %s answered %d" % (name, r.status))
            size = len(body)
        busy_t = time.perf_counter() - t0
        busy_cpu = cpu_seconds(proc.pid) - c0
        per_scrape = max(0.0, busy_cpu - idle_rate * busy_t) / len(lat)
        hwm, priv = memory_kib(proc.pid)
        conn.close()
        series = sum(1 for line in body.decode("utf-8", "replace").splitlines() if line and not line.startswith("#"))
        return dict(name=name, idle_pct=idle_rate * 100, idle_floor=100.0 / TICK / window, per_scrape_ms=per_scrape * 1e3, scrapes=len(lat),
                    p50=pct(lat, 50) * 1e3, p99=pct(lat, 99) * 1e3, hwm=hwm, priv=priv, size=size, series=series)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

load_before = loadavg()
results = []
for name, argv_of in peers:
    results.append(measure(name, argv_of) if argv_of else dict(name=name, missing=True))
load_after = loadavg()

rows = ["| exporter | peak RSS | private | CPU idle (1 s interval) | CPU per scrape | scrape p50 | scrape p99 | scrapes | series | bytes |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
for r in results:
    if r.get("missing"):
        rows.append("| `%s` | not installed | | | | | | | | |" % r["name"])
        continue
    idle = ("%.2f %%" % r["idle_pct"]) if r["idle_pct"] >= r["idle_floor"] else "< %.2f %%" % r["idle_floor"]   # under one clock tick
    rows.append("| `%s` | %.1f MiB | %.1f MiB | %s | %.3f ms | %.2f ms | %.2f ms | %d | %d | %d |"
                % (r["name"], r["hwm"] / 1024, r["priv"] / 1024, idle, r["per_scrape_ms"],
                   r["p50"], r["p99"], r["scrapes"], r["series"], r["size"]))

def pkg(name):
    try:
        from importlib.metadata import version as v
        return v(name)
    except Exception:
        return "not installed"

sys.path.insert(0, os.path.join(repo, "bench"))
from benchdoc import cpu_model
cpu = cpu_model()
gw, nv = results[0], results[-1]
targets = []
targets.append("peak RSS at most 8 MiB: %s (%.1f MiB; %.1f MiB with --names native --per-process)"
               % ("met" if max(gw["hwm"], results[1]["hwm"]) <= 8192 else "NOT met", gw["hwm"] / 1024, results[1]["hwm"] / 1024))
if nv.get("missing"):
    targets.append("CPU per scrape vs nvitop-exporter: nvitop-exporter not installed")
else:
    for r in results[:2]:
        ratio = nv["per_scrape_ms"] / r["per_scrape_ms"] if r["per_scrape_ms"] > 0 else float("inf")
        targets.append("CPU per scrape at least 20x lower than nvitop-exporter's, `%s`: %s (%.0fx)"
                       % (r["name"], "met" if ratio >= 20 else "NOT met", ratio))
version = subprocess.run(["build/gpuwise", "--version"], capture_output=True, text=True).stdout.strip()
section = "\n".join([
    "Measured %s on fake machine `%s` (8 GPUs), each exporter alone with a 1 s collection interval: "
    "a %g s idle window, then a %g s window of back-to-back scrapes from one Python client."
    % (datetime.date.today().isoformat(), machine, window, window),
    "Host: %s, %d CPUs, Linux %s; load average (1, 5, 15 min) %s before, %s after (the host is shared with other jobs). "
    "Versions: %s; nvitop-exporter %s, prometheus-client %s, Python %s."
    % (cpu, os.cpu_count() or 0, platform.release(), load_before, load_after, version,
       pkg("nvitop-exporter"), pkg("prometheus-client"), platform.python_version()),
    "",
] + rows + [
    "",
    "Targets: " + "; ".join(targets) + ".",
    "",
    "Reading the table: *peak RSS* is VmHWM, *private* the memory no other process shares "
    "(smaps_rollup Private_Clean + Private_Dirty; the rest of RSS is shared libraries). *CPU idle* is what collecting "
    "every second costs with nobody scraping; *CPU per scrape* is the CPU the scrapes added over that, divided by their "
    "number (/proc/PID/stat ticks, all threads). gpuwise renders once per collection and a scrape copies the cached text; "
    "nvitop-exporter (prometheus_client) renders the text again for each scrape. The fake NVML answers instantly, so "
    "on real hardware the idle column grows by the driver's cost for every exporter alike; dcgm-exporter itself needs "
    "the DCGM host engine and is not in this table (it holds 135-500 MiB, per issue 10).",
])
print(section)

sys.path.insert(0, os.path.join(repo, "bench"))
from benchdoc import write_section
doc = write_section(repo, "exporter", "Prometheus exporter (`bench/exporter.sh`)",
                    "Memory and CPU of `gpuwise exporter` next to `nvitop-exporter` on the same fake machine.", section)
print("\nwrote", os.path.relpath(doc, repo))
EOF
