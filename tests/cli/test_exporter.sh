#!/usr/bin/env bash
# gpuwise exporter end to end, on loopback: each check starts the exporter
# it needs on a fake machine (port 0: the exporter picks a free port and
# says which), talks HTTP to it from Python's standard library (plain, TLS,
# Basic auth, raw sockets for malformed and idle connections), and stops it
# with SIGTERM. promtool checks the text format; a real Prometheus, started
# here on loopback, scrapes it. Every process started here is killed on
# exit, and every wait is bounded.
. "$(dirname "$0")/lib.sh"

export NODE_NAME=gw-test-node   # dcgm's hostname label
STARTED=()   # pids to kill on exit
cleanup() {
	local p
	for p in "${STARTED[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in "${STARTED[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$TMPD"
}
trap cleanup EXIT

# start_exporter MACHINE|/PATH ARGS... : the exporter on 127.0.0.1, a free
# port; sets $PORT, $EXP (gpuwise's pid), $WRAP (scripts/with-machine's).
# Returns 1 (and says why) when it did not come up within 10 s.
start_exporter() {
	local m=$1 i
	shift
	case $m in /*) ;; *) m=$MACHINES/$m ;; esac
	rm -f "$TMPD/exp.pid" "$TMPD/exp.err"
	"$TOP/scripts/with-machine" "$m" -- sh -c 'echo $$ >"$0"; exec "$@"' "$TMPD/exp.pid" \
		"$GW" exporter --listen 127.0.0.1:0 "$@" 2>"$TMPD/exp.err" &
	WRAP=$!
	STARTED+=("$WRAP")
	for i in $(seq 100); do
		grep -q 'listening on' "$TMPD/exp.err" 2>/dev/null && break
		kill -0 "$WRAP" 2>/dev/null || break
		sleep 0.1
	done
	EXP=$(cat "$TMPD/exp.pid" 2>/dev/null)
	[ -n "$EXP" ] && STARTED+=("$EXP")
	PORT=$(sed -n 's/.*listening on https\{0,1\}:\/\/[^ ]*:\([0-9][0-9]*\)\/ .*/\1/p' "$TMPD/exp.err")
	if [ -z "$PORT" ]; then
		fail "exporter on $(basename "$m") $* did not start: $(cat "$TMPD/exp.err")"
		return 1
	fi
}

# stop_exporter [SIGNAL]: signals gpuwise, waits up to 5 s; $stop_rc, $stop_s.
stop_exporter() {
	local t0 i
	stop_rc=
	t0=$(date +%s%N)
	kill -"${1:-TERM}" "$EXP" 2>/dev/null
	for i in $(seq 50); do
		kill -0 "$EXP" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$EXP" 2>/dev/null; then
		stop_rc=timeout
		kill -KILL "$EXP" 2>/dev/null
	fi
	wait "$WRAP" 2>/dev/null
	local wrc=$?
	[ "$stop_rc" = timeout ] || stop_rc=$wrc
	stop_s=$((($(date +%s%N) - t0) / 1000000))
}

# HTTP from Python: req(method, path, headers, tls=CAFILE) -> (status,
# headers (lower-case names), body); raw(bytes, src=ADDRESS) -> the reply.
cat >"$TMPD/h.py" <<'EOF'
import http.client, json, os, re, socket, ssl, sys, time
PORT = int(os.environ["PORT"])

class R:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body
        self.text = body.decode("utf-8", "replace")
    def __repr__(self):
        return "HTTP %s %s %r" % (self.status, self.headers, self.text[:300])

def req(method, path, headers=None, tls=None, host="127.0.0.1", timeout=5):
    if tls:
        ctx = ssl.create_default_context(cafile=tls)
        c = http.client.HTTPSConnection(host, PORT, timeout=timeout, context=ctx)
    else:
        c = http.client.HTTPConnection(host, PORT, timeout=timeout)
    c.request(method, path, headers=headers or {})
    r = c.getresponse()
    out = R(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
    c.close()
    return out

def raw(data, src=None, timeout=5):
    s = socket.socket()
    if src:
        s.bind((src, 0))
    s.settimeout(timeout)
    s.connect(("127.0.0.1", PORT))
    s.sendall(data)
    got = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            got += b
    except (socket.timeout, ConnectionResetError):
        pass
    s.close()
    return got

def health_from_many(src, n, first, closed_first=0):
    """n connections from src, each sending first (perhaps nothing) at
    once; then each sends the rest of a GET /health in turn. How many were
    answered 200. The rest waits 0.3 s, or, with closed_first, until the
    server has closed that many of them (10 s at most): over its limit it
    closes the oldest waiting connection as each new one is taken, so only
    then has it taken them all. A fixed wait raced a loaded machine: a
    reply sent before the last connection was taken freed a place for it
    (69 of 80 served under ASan at a load of 8, stop 49)."""
    import select
    socks, served = [], 0
    rest = b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"[len(first):]
    for i in range(n):
        s = socket.socket(); s.bind((src, 0)); s.settimeout(2); s.connect(("127.0.0.1", PORT))
        if first:
            s.sendall(first)
        socks.append(s)
    ended, deadline = set(), time.time() + 10
    while len(ended) < closed_first and time.time() < deadline:
        ready = select.select([s for s in socks if s not in ended], [], [], 0.2)[0]
        for s in ready:
            try:
                if s.recv(100) == b"":
                    ended.add(s)
            except OSError:
                ended.add(s)
    if not closed_first:
        time.sleep(0.3)
    for s in socks:
        try:
            s.sendall(rest)
            served += s.recv(100).startswith(b"HTTP/1.1 200")
        except OSError:
            pass
    for s in socks:
        s.close()
    return served

def status_of(reply):
    line = reply.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) > 1 and line[0].startswith(b"HTTP/") else None

def run_checks(args):
    import traceback
    failed = False
    for what, code in zip(args[0::2], args[1::2]):
        try:
            exec(code, dict(globals()))
        except Exception as e:
            tb = traceback.format_exc().strip().splitlines()
            print("FAIL %s: %s" % (what, " | ".join(tb[-2:])[:1500]))
            failed = True
    return failed

def slowloris(port, n, stop, stats, src="127.0.0.1"):
    """n connections from src, each trickling a request head that never
    ends (one byte each 0.3 s), reopened at once when the server closes it;
    every 8th opens with a malformed request instead."""
    import selectors
    sel = selectors.DefaultSelector()
    head = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100000
    opened = 0
    def open_one():
        nonlocal opened
        s = socket.socket(); s.setblocking(False)
        s.bind((src, 0))
        opened += 1
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError:
            s.close(); return
        sel.register(s, selectors.EVENT_READ, [0, opened % 8 == 0])
    for _ in range(n):
        open_one()
    last = 0
    while not stop.is_set():
        for key, _ in sel.select(0.05):
            try:
                got = key.fileobj.recv(4096)
            except OSError:
                got = b""
            if not got:
                sel.unregister(key.fileobj); key.fileobj.close(); stats["closed"] += 1
                open_one()
        if time.time() - last >= 0.3:
            last = time.time()
            for key in list(sel.get_map().values()):
                st = key.data
                try:
                    if st[1]:
                        key.fileobj.send(b"GARBAGE \x00\r\n\r\n"); st[1] = False
                    else:
                        key.fileobj.send(head[st[0]:st[0] + 1]); st[0] += 1
                except OSError:
                    pass
    stats["opened"] = opened
    for key in list(sel.get_map().values()):
        key.fileobj.close()

def samples(text, name):
    """{labels-text: value} of the series called name."""
    out = {}
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            head, _, value = line.rpartition(" ")
            out[head[len(name):]] = float(value)
    return out

if __name__ == "__main__":
    run_checks(sys.argv[1:])
EOF

# pycheck WHAT CODE : queues a check, CODE run after `from h import *`
# (PORT from the environment); pyrun runs the queued ones in one Python
# (a start costs most of a second here), each failing assert failing its
# check alone.
PYQ=()
pycheck() { PYQ+=("$1" "$2"); }
pyrun() {
	local out line prc
	checks=$((checks + ${#PYQ[@]} / 2))
	out=$(cd "$TMPD" && PORT=$PORT "$PY" h.py "${PYQ[@]}" 2>&1)
	prc=$?
	while IFS= read -r line; do
		case $line in "FAIL "*) fail "${line#FAIL }" ;; esac
	done <<<"$out"
	[ $prc = 0 ] || fail "the Python checks crashed: $(printf '%s' "$out" | tail -3)"
	PYQ=()
}

# ---- without a server: usage errors and bad web configs ----------------
run exporter --names bogus
assert_eq "$rc" 2 "--names bogus is a usage error"
assert_contains "$err" "dcgm, nvidia-smi or native" "--names error says the choices"
run exporter --listen 9400
assert_eq "$rc" 2 "--listen without ':' is a usage error"
run exporter --listen '[::1:9400'
assert_eq "$rc" 2 "--listen with a broken IPv6 address is a usage error"
run exporter --listen :70000
assert_eq "$rc" 2 "--listen with port 70000 is a usage error"
run exporter --interval 0
assert_eq "$rc" 2 "--interval 0 is a usage error"

webcfg() { printf '%s\n' "$@" >"$TMPD/web.yml"; }
webcfg 'tls_server_config:' '  cert_file: missing.crt' '  key_file: missing.key'
run exporter --web-config "$TMPD/web.yml" --listen 127.0.0.1:0
assert_eq "$rc" 1 "a web config naming a missing certificate fails"
assert_contains "$err" "missing.crt" "the error names the missing certificate"
webcfg 'tls_server_config:' '  cert_file: a.crt' '  key_file: a.key' '  client_ca_file: ca.crt'
run exporter --web-config "$TMPD/web.yml" --listen 127.0.0.1:0
assert_eq "$rc" 1 "client certificates (unsupported) are an error, not ignored"
assert_contains "$err" "client_ca_file" "the error names the unsupported key"
webcfg 'basic_auth_users:' '  alice: plaintext'
run exporter --web-config "$TMPD/web.yml" --listen 127.0.0.1:0
assert_eq "$rc" 1 "a password that is not a bcrypt hash fails"
assert_contains "$err" "bcrypt" "the error says a bcrypt hash is needed"
# run_bounded ARGS...: run, but an exporter that starts (a web config
# wrongly accepted) is stopped after 10 s (rc 124) instead of hanging.
run_bounded() {
	timeout 10 "$GW" "$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	err=$(cat "$TMPD/err")
}
webcfg 'basic_auth_users: {}'
run_bounded exporter --web-config "$TMPD/web.yml" --listen 127.0.0.1:0
assert_eq "$rc" 1 "basic_auth_users: {} is an error, not auth turned off"
assert_contains "$err" "lists no user" "the error says no user is listed"
webcfg 'basic_auth_users:' '  alice: $2y$99$abcdefghijklmnopqrstuu5ZHzJL/NrZ9WwJY.fHbEHd8oHKVVcDbe'
run_bounded exporter --web-config "$TMPD/web.yml" --listen 127.0.0.1:0
assert_eq "$rc" 1 "a bcrypt hash of cost 99 (outside 4..31) is an error"
webcfg 'tls_server_config:' '  cert_file: a.crt' '  key_file: a.key' '  min_version: TLS14'
run_bounded exporter --web-config "$TMPD/web.yml" --listen 127.0.0.1:0
assert_eq "$rc" 1 "min_version TLS14 is an error"
assert_contains "$err" "TLS10, TLS11, TLS12 or TLS13" "the error says the versions"
webcfg 'tls_server_config:' '  cert_file: a.crt' '  key_file: a.key' '  min_version: TLS13' '  max_version: TLS12'
run_bounded exporter --web-config "$TMPD/web.yml" --listen 127.0.0.1:0
assert_eq "$rc" 1 "min_version above max_version is an error"
webcfg 'basic_auth_users: [alice' ''
run exporter --web-config "$TMPD/web.yml" --listen 127.0.0.1:0
assert_eq "$rc" 1 "YAML that does not parse fails"
assert_contains "$err" "not valid YAML" "the error says the YAML is broken"
assert_one_error_line "a bad web config is one error line"
run exporter --web-config "$TMPD/none.yml" --listen 127.0.0.1:0
assert_eq "$rc" 1 "a missing web config file fails"

# ---- endpoints on the 8x H100 machine ---------------------------------
# The second sample of `gpuwise watch --json` on the same machine (GPM's
# metrics need two reads), for /api/status to be compared with.
run_on h100-8x watch --json -n 2 -d 0.05
sed -n 2p "$TMPD/out" >"$TMPD/watch.json"
if start_exporter h100-8x --names native; then
	export PORT
	pycheck "/metrics is text format 0.0.4 with gpuwise_gpu_up 1 for each of 8 GPUs" '
r = req("GET", "/metrics")
assert r.status == 200, r
assert r.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8", r.headers
up = samples(r.text, "gpuwise_gpu_up")
assert len(up) == 8 and set(up.values()) == {1.0}, up
assert "gpuwise_exporter_collect_seconds " in r.text and "gpuwise_exporter_errors_total 0" in r.text, r.text[-500:]
assert "gpuwise_process_memory_bytes" not in r.text, "per-process series without --per-process"'
	pycheck "HEAD /metrics: the headers of GET, no body" '
g = req("GET", "/metrics"); h = req("HEAD", "/metrics")
assert h.status == 200 and h.body == b"", h
assert h.headers["content-type"] == g.headers["content-type"], h.headers'
	pycheck "/health is 200 ok" '
r = req("GET", "/health")
assert r.status == 200 and r.text == "ok\n", r'
	pycheck "/api/status is the watch --json object of 8 GPUs" '
r = req("GET", "/api/status")
assert r.status == 200 and r.headers["content-type"] == "application/json", r
d = json.loads(r.text)
assert isinstance(d["time"], float) and abs(d["time"] - time.time()) < 60, d["time"]
assert len(d["devices"]) == 8, len(d["devices"])
g = d["devices"][0]
for k in ("index", "uuid", "utilization", "memory", "temperature_c", "power", "clocks", "pcie", "throttle_reasons"):
    assert k in g, k
assert g["memory"]["total_bytes"] == 85520809984 and g["power"]["draw_w"] > 0, g'
	pycheck "/api/status is what watch --json prints on the same machine (but the time), plus its own keys" '
d = json.loads(req("GET", "/api/status").text)
w = json.loads(open("watch.json").read())
d.pop("time"), w.pop("time")
# added for --hosts: the host name, and each GPU name and process count
assert d.pop("hostname") == "gw-test-node", d
for g in d["devices"]:
    assert g.pop("name") == "NVIDIA H100 80GB HBM3" and isinstance(g.pop("process_count"), int), g
assert json.dumps(d) == json.dumps(w), "\n/api/status:   %s\nwatch --json: %s" % (json.dumps(d)[:600], json.dumps(w)[:600])'
	pycheck "by default neither / nor /api/status names users, PIDs or commands" '
t = req("GET", "/").text
assert "alice" not in t and "bob" not in t and "python" not in t and "<th>PID</th>" not in t, t
assert "processes (users, PIDs and commands hidden" in t, t
a = req("GET", "/api/status").text
assert "alice" not in a and "python" not in a and "pid" not in a, a[:300]'
	pyrun
	stop_exporter
fi
if start_exporter h100-8x --names native --show-processes; then
	export PORT
	pycheck "/ is a status page of the 8 GPUs and who runs what (names only, --show-processes)" '
r = req("GET", "/")
assert r.status == 200 and r.headers["content-type"] == "text/html; charset=utf-8", r
assert "default-src" in r.headers.get("content-security-policy", ""), r.headers
t = r.text
for i in range(8):
    assert "GPU %d: NVIDIA H100 80GB HBM3" % i in t, i
assert t.count("class=\"bar\"") >= 24, t.count("class=\"bar\"")
assert "alice" in t and "bob" in t and "<td>python</td>" in t and "<td>python3</td>" in t, t
assert "train.py" not in t and "vllm" not in t, "full command lines without --per-process"
assert "http-equiv=\"refresh\"" in t and "viewport" in t and "<script" not in t and "src=" not in t'
	pycheck "unknown paths are 404, path traversal included" '
for p in ("/nope", "/metrics/", "/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/metrics/../metrics",
          "//metrics", "/api", "/api/status/x", "/..%2f..%2fetc%2fpasswd", "/index.html"):
    r = req("GET", p)
    assert r.status == 404, (p, r)
    assert "root:" not in r.text, p'
	pycheck "a query string still reaches /metrics" '
r = req("GET", "/metrics?name[]=gpuwise_gpu_up")
assert r.status == 200 and "gpuwise_gpu_up" in r.text, r'
	pycheck "two scrapes on one kept-alive connection" '
c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=5)
for i in range(2):
    c.request("GET", "/metrics"); r = c.getresponse(); r.read()
    assert r.status == 200 and r.getheader("connection", "").lower() != "close", (i, r.getheaders())
c.close()'
	pycheck "a request with a body is refused (413), never read" '
reply = raw(b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", timeout=2)
assert status_of(reply) == 413, reply[:200]
reply = raw(b"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", timeout=2)
assert status_of(reply) == 413, reply[:200]'
	pycheck "a header name with white space before its colon is 400 (RFC 9112), not a header ignored" '
for c in (b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nhello",
          b"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding\t: chunked\r\n\r\n0\r\n\r\n",
          b"GET /metrics HTTP/1.1\r\nHost : x\r\n\r\n"):
    reply = raw(c, timeout=2)
    assert status_of(reply) == 400, (c, reply[:200])'
	pycheck "methods other than GET and HEAD are 405 with Allow" '
for m in ("POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"):
    r = req(m, "/metrics")
    assert r.status == 405 and r.headers.get("allow") == "GET, HEAD", (m, r)'
	pycheck "malformed and oversized requests are refused, and serving goes on" '
cases = [b"GARBAGE\r\n\r\n", b"GET\r\n\r\n", b"GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n",
         b"GET /metrics HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n",
         b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
         b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 20000 + b"\r\n\r\n",
         b"GET /metrics HTTP/1.1\r\nHost: x\r\n" + b"X-H: v\r\n" * 3000 + b"\r\n",
         b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\nxx",
         b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64,
         b"\x00" * 1000]
for c in cases:
    s = status_of(raw(c, timeout=1))
    assert s is None or 400 <= s < 600 or (s == 200 and b"Content-Length: 9999" in c), (c[:40], s)
r = req("GET", "/metrics")
assert r.status == 200 and "gpuwise_gpu_up" in r.text, r'
	pycheck "500 slowloris connections from the scraper's own address: every scrape served" '
# The attacker holds 500 connections from 127.0.0.1 (the per-address limit
# is 64), each trickling a head that never ends, reopening each one the
# server closes at once (thousands a second), some with malformed requests.
# A scrape sends its whole request at once: the server closes the oldest
# waiting connection of the address to take it, and never one whose whole
# head waits unread (on a loaded host 63 newer attacker connections could
# otherwise push the scrape out before it is read), so all N are served
# (before: 0 of 20, the address full of the attacker'\''s heads).
# The attacker is a process of its own, as another client is: sharing one
# Python (its GIL) with it, the scrape could wait tens of milliseconds
# between its connect and its request, longer than a waiting connection
# lives at thousands of reconnections a second (docs/commands/exporter.md).
# The scrape is sent as Prometheus sends it, the request built before the
# connect and written right after it (raw()): http.client builds its
# headers between the two, and under ASan on a loaded 2-core host that
# gap alone outlived the connection (CI, stop 42: 19 of 20 served).
import multiprocessing
mp = multiprocessing.get_context("fork")
stop, q = mp.Event(), mp.Queue()
def attack():
    st = {"closed": 0}
    slowloris(PORT, 500, stop, st)
    q.put(st)
t = mp.Process(target=attack); t.start()
stats = {"closed": 0}
try:
    time.sleep(1.0)
    N, served, fails = 20, 0, []
    scrape = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    for i in range(N):
        try:
            reply = raw(scrape, timeout=3)
            served += status_of(reply) == 200 and b"gpuwise_gpu_up" in reply
            if status_of(reply) != 200:
                fails.append(reply[:80])
        except Exception as e:
            fails.append(repr(e))
        time.sleep(0.1)
finally:
    stop.set()
    stats = q.get(timeout=30); t.join()
assert stats["closed"] > 500, stats
assert served == N, (served, N, fails[:3], stats)'
	pycheck "a request head trickled a byte at a time is closed 5 s after accept" '
s = socket.socket(); s.bind(("127.0.0.7", 0)); s.settimeout(0.5); s.connect(("127.0.0.1", PORT))
head = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000
t0 = time.time(); closed = None
for i in range(len(head)):
    try:
        s.send(head[i:i + 1])
        if s.recv(100) == b"":
            closed = time.time() - t0; break
    except socket.timeout:
        pass
    except OSError:
        closed = time.time() - t0; break
    if time.time() - t0 > 12:
        break
s.close()
assert closed is not None and 4.5 < closed < 7, closed'
	pycheck "300 idle connections: a scrape still answers within a second" '
socks = []
for i in range(300):
    s = socket.socket(); s.bind(("127.0.0.%d" % (2 + i // 40), 0)); s.connect(("127.0.0.1", PORT))
    if i % 2:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")   # a request that never ends
    socks.append(s)
time.sleep(0.3)
t0 = time.time(); r = req("GET", "/metrics", timeout=2); dt = time.time() - t0
assert r.status == 200 and dt < 1.0, (r.status, dt)
for s in socks: s.close()'
	pycheck "80 connections from one address that have not spoken yet hold no place: all 80 served" '
# Accepted only once their first bytes arrive (TCP_DEFER_ACCEPT): a client
# that connects first and speaks later is not evicted meanwhile (before:
# 64 of 80, the 16 oldest closed to make room).
served = health_from_many("127.0.0.98", 80, b"")
assert served == 80, served'
	pycheck "one address gets at most 64 connections; the others still get served" '
# Each begins its head at once: a connection that has sent nothing is
# not accepted yet (TCP_DEFER_ACCEPT), so holds no place.
served = health_from_many("127.0.0.99", 80, b"GET /health HTTP/1.1\r\n", closed_first=16)
assert served == 64, served
assert req("GET", "/health").status == 200'
	pyrun
	if command -v promtool >/dev/null; then
		checks=$((checks + 1))
		"$PY" -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$PORT/metrics').read().decode(), end='')" \
			>"$TMPD/native.prom"
		promtool check metrics <"$TMPD/native.prom" >"$TMPD/promtool.out" 2>&1 ||
			fail "promtool check metrics on the native names: $(head -20 "$TMPD/promtool.out")"
	else
		echo "SKIP: promtool is not installed (scripts/setup installs it)"
	fi
	rss_kib=$(sed -n 's/^VmHWM:\s*\([0-9]*\) kB/\1/p' /proc/"$EXP"/status)
	echo "exporter peak RSS after the abuse above: ${rss_kib:-?} KiB"
	# Memory stays bounded under the abuse above (sanitizer builds map far more).
	if [ "$BUILD" = "$TOP/build" ]; then
		checks=$((checks + 1))
		[ -n "$rss_kib" ] && [ "$rss_kib" -lt 16384 ] || fail "the exporter's peak RSS is ${rss_kib:-?} KiB (want < 16 MiB)"
	fi
	stop_exporter TERM
	assert_eq "$stop_rc" 0 "SIGTERM: exit 0"
	checks=$((checks + 1))
	[ "$stop_s" -lt 2000 ] || fail "SIGTERM took ${stop_s} ms to stop the exporter"
	assert_contains "$(cat "$TMPD/exp.err")" "stopping (SIGTERM)" "SIGTERM is said on stderr"
fi

# ---- --per-process, and HTML escaping of what processes are called -----
hostile=$TMPD/hostile
cp -a "$MACHINES/h100-8x" "$hostile"
printf '/opt/<b>evil&"x\0--flag=<script>alert(1)</script>\0' >"$hostile/root/proc/3100221/cmdline"
if start_exporter "$hostile" --per-process --names native; then
	export PORT
	pycheck "--per-process: full command lines on the page, HTML-escaped" '
t = req("GET", "/").text
assert "train.py --config configs/llama-70b.yaml" in t, t
assert "<b>evil" not in t and "<script>" not in t, "unescaped command line"
assert "/opt/&lt;b&gt;evil&amp;&quot;x --flag=&lt;script&gt;alert(1)&lt;/script&gt;" in t, t'
	pycheck "--per-process: gpuwise_process_memory_bytes per process, label values escaped" '
t = req("GET", "/metrics").text
p = samples(t, "gpuwise_process_memory_bytes")
assert len(p) == 6, p
assert any("command=\"/opt/<b>evil&\\\"x --flag=<script>alert(1)</script>\"" in k for k in p), list(p)'
	pyrun
	stop_exporter INT
	assert_eq "$stop_rc" 0 "SIGINT: exit 0"
fi
if start_exporter "$hostile" --names native --show-processes; then
	export PORT
	pycheck "without --per-process the page shows the process name, escaped" '
t = req("GET", "/").text
assert "<td>&lt;b&gt;evil&amp;&quot;x</td>" in t, t
assert "alert" not in t, "the command line leaked"'
	pyrun
	stop_exporter
fi

# ---- the naming schemes, from the metric table ------------------------
if start_exporter h100-8x; then
	export PORT MJSON=$MACHINES/h100-8x/machine.json
	pycheck "--names dcgm (the default): dcgm-exporter's names, HELP, types, units and labels in its order" '
t = req("GET", "/metrics").text
devs = json.load(open(os.environ["MJSON"]))["nvml"]["devices"]
assert "# HELP DCGM_FI_DEV_GPU_TEMP GPU temperature (in C).\n# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n" in t, t[:500]
assert "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter" in t
host = os.environ["NODE_NAME"]
lab = "{gpu=\"0\",UUID=\"%s\",pci_bus_id=\"00000000:18:00.0\",device=\"nvidia0\",modelName=\"NVIDIA H100 80GB HBM3\",hostname=\"%s\",DCGM_FI_DRIVER_VERSION=\"550.54.15\"}" % (devs[0]["uuid"], host)
assert "DCGM_FI_DEV_GPU_TEMP" + lab + " 60\n" in t, [l for l in t.splitlines() if l.startswith("DCGM_FI_DEV_GPU_TEMP{")][:1]
assert "DCGM_FI_DEV_FB_USED" + lab + " 71681\n" in t
assert samples(t, "DCGM_FI_DEV_POWER_USAGE")[lab] == 600.89
assert samples(t, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")[lab] == 51234567890
assert len(samples(t, "DCGM_FI_DEV_SM_CLOCK")) == 8 and len(samples(t, "gpuwise_gpu_up")) == 8
assert "gpuwise_memory_used_bytes" not in t and "nvidia_smi_" not in t
# dcgm-exporter renamed Hostname to hostname (its PR #655, 4.6.0-4.8.3)
assert ",Hostname=" not in t, [l for l in t.splitlines() if ",Hostname=" in l][:1]'
	pyrun
	stop_exporter
fi
if start_exporter h100-8x --names nvidia-smi; then
	export PORT
	pycheck "--names nvidia-smi: nvidia_gpu_exporter's names, its uuid label (no GPU-, lower case), nvidia_smi_gpu_info" '
t = req("GET", "/metrics").text
lab = "{uuid=\"b42dd28e-ffdd-8720-1df0-98bd8cdc05b1\"}"
assert samples(t, "nvidia_smi_temperature_gpu")[lab] == 60, samples(t, "nvidia_smi_temperature_gpu")
assert samples(t, "nvidia_smi_memory_used_bytes")[lab] == 75162976256
assert samples(t, "nvidia_smi_utilization_gpu_ratio")[lab] == 0.98
assert len(samples(t, "nvidia_smi_gpu_info")) == 8 and "DCGM_FI_" not in t'
	pyrun
	stop_exporter
fi
if start_exporter a100-mig; then
	export PORT
	pycheck "--names dcgm on MIG: per-instance framebuffer series with GPU_I_PROFILE and GPU_I_ID before hostname" '
t = req("GET", "/metrics").text
mig = [k for k in samples(t, "DCGM_FI_DEV_FB_USED") if "GPU_I_PROFILE" in k]
assert mig, t[:800]
assert all(re.search(r"modelName=\"[^\"]*\",GPU_I_PROFILE=\"\dg\.\d+gb\",GPU_I_ID=\"\d+\",hostname=\"gw-test-node\",DCGM_FI_DRIVER_VERSION=", k) for k in mig), mig'
	pyrun
	stop_exporter
fi
if start_exporter mixed-nvidia-amd --names native; then
	export PORT
	pycheck "--names native serves the AMD GPU too, promtool-clean names" '
t = req("GET", "/metrics").text
used = samples(t, "gpuwise_memory_used_bytes")
assert len(used) == 2, used'
	pyrun
	stop_exporter
fi
if start_exporter mixed-nvidia-amd; then
	export PORT
	pycheck "--names dcgm serves NVIDIA GPUs only (dcgm-exporter does), gpuwise_gpu_up every GPU" '
t = req("GET", "/metrics").text
assert len(samples(t, "DCGM_FI_DEV_FB_USED")) == 1 and len(samples(t, "gpuwise_gpu_up")) == 2, t[:600]'
	pyrun
	stop_exporter
fi

# ---- a GPU lost: from the start, and between two samples ---------------
if start_exporter lost-gpu --names native; then
	export PORT
	pycheck "a GPU lost from the start is gpuwise_gpu_up 0, the others 1, /health 200" '
up = samples(req("GET", "/metrics").text, "gpuwise_gpu_up")
assert sorted(up.values()) == [0.0, 1.0, 1.0, 1.0], up
assert up[[k for k in up if "gpu=\"2\"" in k][0]] == 0.0, up
assert req("GET", "/health").status == 200
d = json.loads(req("GET", "/api/status").text)
assert [g["health"] for g in d["devices"]] == ["ok", "ok", "lost", "ok"], d
assert d["devices"][2]["memory"]["used_bytes"] is None and d["devices"][1]["memory"]["used_bytes"] > 0, d'
	pycheck "a GPU lost from the start counts an error each collection (the errors alert fires)" '
e0 = samples(req("GET", "/metrics").text, "gpuwise_exporter_errors_total")[""]
time.sleep(1.3)
e1 = samples(req("GET", "/metrics").text, "gpuwise_exporter_errors_total")[""]
assert e0 >= 1 and e1 > e0, (e0, e1)'
	pyrun
	stop_exporter
fi
lost=$TMPD/lost-later
cp -a "$MACHINES/h100-8x" "$lost"
"$PY" - "$lost/machine.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["nvml"]["devices"][3]["errors"] = {"nvmlDeviceGetUtilizationRates": ["SUCCESS", "SUCCESS", "GPU_IS_LOST"]}
json.dump(m, open(sys.argv[1], "w"), indent=1)
EOF
if start_exporter "$lost" --names native --interval 0.1; then
	export PORT
	pycheck "a GPU lost between two samples: up 0 for it, the other 7 still served, one error counted" '
deadline = time.time() + 5
while time.time() < deadline:
    t = req("GET", "/metrics").text
    up = samples(t, "gpuwise_gpu_up")
    if 0.0 in up.values():
        break
    time.sleep(0.1)
assert sorted(up.values()) == [0.0] + [1.0] * 7, up
assert up[[k for k in up if "gpu=\"3\"" in k][0]] == 0.0, up
assert samples(t, "gpuwise_exporter_errors_total")[""] >= 1, t[-300:]
assert req("GET", "/health").status == 200'
	pyrun
	stop_exporter
fi

# ---- Xid events (NVML event sets of the fake, machine.json xid_events) --
xid=$TMPD/xid
cp -a "$MACHINES/h100-8x" "$xid"
"$PY" - "$xid/machine.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
d = m["nvml"]["devices"][3]
d["xid_events"] = [13, {"xid": 79, "after_ms": 300}]
d["errors"] = {"nvmlDeviceGetUtilizationRates": ["SUCCESS"] * 8 + ["GPU_IS_LOST"]}
json.dump(m, open(sys.argv[1], "w"), indent=1)
EOF
for names in dcgm native; do
	start_exporter "$xid" --names $names --interval 0.1 || continue
	export PORT XID_NAMES=$names
	pycheck "Xid 13 then 79 on GPU 3 ($names names): the last Xid, the count, 0 on the others, kept once GPU 3 is lost" '
dcgm = os.environ["XID_NAMES"] == "dcgm"
last = "DCGM_FI_DEV_XID_ERRORS" if dcgm else "gpuwise_xid_last"
deadline = time.time() + 8
while time.time() < deadline:
    t = req("GET", "/metrics").text
    x = samples(t, last)
    g3 = [v for k, v in x.items() if "gpu=\"3\"" in k]
    up = samples(t, "gpuwise_gpu_up")
    if g3 == [79.0] and 0.0 in up.values():
        break
    time.sleep(0.1)
assert g3 == [79.0], (g3, x)
assert sorted(x.values()) == [0.0] * 7 + [79.0], x
assert [v for k, v in up.items() if "gpu=\"3\"" in k] == [0.0], up
if dcgm:
    assert "# HELP DCGM_FI_DEV_XID_ERRORS Value of the last XID error encountered.\n# TYPE DCGM_FI_DEV_XID_ERRORS gauge\n" in t, t
    # dcgm-exporter attributes: the code and its meaning, "No Error" for 0
    rows = [l for l in t.splitlines() if l.startswith("DCGM_FI_DEV_XID_ERRORS{")]
    g3row = [l for l in rows if "gpu=\"3\"" in l]
    assert len(g3row) == 1 and g3row[0].endswith(",err_code=\"79\",err_msg=\"GPU has fallen off the bus\"} 79"), g3row
    assert sum(l.endswith(",err_code=\"0\",err_msg=\"No Error\"} 0") for l in rows) == 7, rows
else:
    n = samples(t, "gpuwise_xid_errors_total")
    assert sorted(n.values()) == [0.0] * 7 + [2.0], n
    assert "# TYPE gpuwise_xid_errors_total counter" in t
    d = json.loads(req("GET", "/api/status").text)
    assert d["devices"][3]["health"] == "lost", d["devices"][3]'
	pyrun
	stop_exporter
	checks=$((checks + 1))
	[ "$stop_rc" = 0 ] && [ "$stop_s" -lt 2000 ] || fail "the exporter with an event thread stops on SIGTERM within 2 s (rc $stop_rc, $stop_s ms)"
done

# ---- no GPU at all: /health is 503 -------------------------------------
if start_exporter no-driver --names native; then
	export PORT
	pycheck "/health is 503 when no GPU could be read" '
r = req("GET", "/health")
assert r.status == 503, r'
	pycheck "no driver: the unreadable GPU counts in gpuwise_exporter_errors_total" '
t = req("GET", "/metrics").text
assert samples(t, "gpuwise_exporter_errors_total")[""] >= 1, t[-400:]'
	pyrun
	stop_exporter
fi

# ---- --web-config: Basic auth and TLS ----------------------------------
if command -v htpasswd >/dev/null && command -v openssl >/dev/null; then
	hash=$(htpasswd -nbB -C 4 alice 's3cret:pw' | cut -d: -f2-)
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
		-addext 'subjectAltName=DNS:localhost,IP:127.0.0.1' \
		-keyout "$TMPD/key.pem" -out "$TMPD/cert.pem" >/dev/null 2>&1
	webcfg 'basic_auth_users:' "  alice: '$hash'" "  bob: '$hash'"
	if start_exporter h100-8x --web-config "$TMPD/web.yml"; then
		export PORT
		assert_contains "$(cat "$TMPD/exp.err")" "passwords in the clear" "Basic auth over plain HTTP is warned about"
		pycheck "Basic auth: 401 with a realm without or with wrong credentials, 200 with the right ones" '
import base64
def auth(u, p): return {"Authorization": "Basic " + base64.b64encode((u + ":" + p).encode()).decode()}
r = req("GET", "/metrics")
assert r.status == 401 and r.headers.get("www-authenticate", "").startswith("Basic realm="), r
for h in (auth("alice", "wrong"), auth("mallory", "s3cret:pw"), auth("alice", "s3cret:p"),
          {"Authorization": "Bearer x"}, {"Authorization": "Basic !!!"}, {"Authorization": "Basic"}):
    assert req("GET", "/metrics", h).status == 401, h
assert req("GET", "/metrics", auth("alice", "s3cret:pw")).status == 200
assert req("GET", "/health", auth("bob", "s3cret:pw")).status == 200
assert req("GET", "/health").status == 401'
		pycheck "Basic auth configured: the page names users and processes (to those who logged in)" '
import base64
t = req("GET", "/", {"Authorization": "Basic " + base64.b64encode(b"alice:s3cret:pw").decode()}).text
assert "alice" in t and "<td>python</td>" in t, t'
		pyrun
		stop_exporter
	fi
	# bcrypt at the usual cost (10, ~50 ms a check): 60 clients sending wrong
	# passwords in a loop from one address must not slow good scrapes down
	# (before: median 12.9 s, slowest 16.2 s, 10 scrapes). Good credentials
	# are remembered (no bcrypt), the address is throttled after 5 failures
	# (429 without bcrypt): a good scrape waits at most for one bcrypt its
	# thread may be running, well under 1 s even on a loaded machine.
	hash10=$(htpasswd -nbB -C 10 alice 's3cret:pw' | cut -d: -f2-)
	webcfg 'basic_auth_users:' "  alice: '$hash10'"
	if start_exporter h100-8x --web-config "$TMPD/web.yml"; then
		export PORT
		pycheck "60 wrong-password clients from one address: good scrapes stay fast, failures throttled" '
import base64, threading
def auth(u, p): return {"Authorization": "Basic " + base64.b64encode((u + ":" + p).encode()).decode()}
assert req("GET", "/metrics", auth("alice", "s3cret:pw")).status == 200
stop = threading.Event(); codes = {}
def bad(i):
    while not stop.is_set():
        try:
            st = req("GET", "/metrics", auth("alice", "wrong%d" % i), timeout=30).status
        except Exception as e:
            st = type(e).__name__
        codes[st] = codes.get(st, 0) + 1
ts = [threading.Thread(target=bad, args=(i,)) for i in range(60)]
for t in ts: t.start()
try:
    time.sleep(1)
    lat = []
    for i in range(10):
        t0 = time.time(); st = req("GET", "/metrics", auth("alice", "s3cret:pw"), timeout=20).status
        lat.append(time.time() - t0)
        assert st == 200, st
        time.sleep(0.1)
finally:
    stop.set()
    for t in ts: t.join()
assert max(lat) < 1.0, (lat, codes)
assert codes.get(429, 0) > 0 and codes.get(401, 0) <= 10, codes'
		pyrun
		stop_exporter
		checks=$((checks + 1))
		n=$(grep -c "wrong Basic auth credentials" "$TMPD/exp.err")
		[ "$n" = 1 ] || fail "failed logins are logged once a minute at most (got $n lines): $(cat "$TMPD/exp.err")"
	fi
	webcfg 'tls_server_config:' '  cert_file: cert.pem' '  key_file: key.pem'
	chmod 600 "$TMPD/key.pem"
	if start_exporter h100-8x --web-config "$TMPD/web.yml"; then
		export PORT
		assert_contains "$(cat "$TMPD/exp.err")" "https://" "the TLS exporter says https"
		assert_not_contains "$(cat "$TMPD/exp.err")" "warning" "a current certificate and a private key: no warning"
		# tls_handshake OPENSSL-ARGS: "ok" when openssl s_client agrees a cipher.
		tls_handshake() {
			timeout 10 openssl s_client -connect 127.0.0.1:"$PORT" "$@" </dev/null 2>/dev/null |
				grep -q 'Cipher is [A-Z]' && echo ok || echo refused
		}
		for a in "-tls1_1 -cipher DEFAULT:@SECLEVEL=0" "-tls1 -cipher DEFAULT:@SECLEVEL=0" \
			"-tls1_2 -cipher AES128-GCM-SHA256" "-tls1_2 -cipher AES256-SHA256"; do
			# shellcheck disable=SC2086
			assert_eq "$(tls_handshake $a)" refused "TLS by default refuses $a (old versions, no forward secrecy)"
		done
		assert_eq "$(tls_handshake -tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256)" ok "TLS 1.2 with ECDHE is served"
		assert_eq "$(tls_handshake -tls1_3)" ok "TLS 1.3 is served"
		pycheck "TLS: served over HTTPS with the configured certificate, plain HTTP gets nothing" '
r = req("GET", "/metrics", tls=os.path.join(os.getcwd(), "cert.pem"), host="localhost")
assert r.status == 200 and "gpuwise_gpu_up" in r.text, r
assert status_of(raw(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", timeout=2)) is None'
		pyrun
		stop_exporter
	fi
	webcfg 'tls_server_config:' '  cert_file: cert.pem' '  key_file: key.pem' '  min_version: TLS13'
	chmod 644 "$TMPD/key.pem"
	if start_exporter h100-8x --web-config "$TMPD/web.yml"; then
		assert_eq "$(tls_handshake -tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256)" refused "min_version TLS13 refuses TLS 1.2"
		assert_eq "$(tls_handshake -tls1_3)" ok "min_version TLS13 serves TLS 1.3"
		assert_contains "$(cat "$TMPD/exp.err")" "readable by every user" "a key file others can read is warned about"
		stop_exporter
	fi
	chmod 600 "$TMPD/key.pem"
	# An expired certificate: valid until a day ago (x509 -days -1).
	if openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost \
		-keyout "$TMPD/old.key" -out "$TMPD/old.csr" >/dev/null 2>&1 &&
		openssl x509 -req -in "$TMPD/old.csr" -signkey "$TMPD/old.key" -days -1 -out "$TMPD/old.pem" >/dev/null 2>&1
	then
		chmod 600 "$TMPD/old.key"
		webcfg 'tls_server_config:' '  cert_file: old.pem' '  key_file: old.key'
		if start_exporter h100-8x --web-config "$TMPD/web.yml"; then
			assert_contains "$(cat "$TMPD/exp.err")" "certificate expired on" "an expired certificate is warned about at start"
			stop_exporter
		fi
	else
		echo "SKIP: openssl could not make an expired certificate"
	fi
else
	echo "SKIP: htpasswd or openssl missing (scripts/setup installs them)"
fi

# ---- the port is taken: a clear error, exit 1 -------------------------
if start_exporter h100-8x; then
	taken=$PORT
	run_on h100-8x exporter --listen 127.0.0.1:"$taken"
	assert_eq "$rc" 1 "a port in use fails with exit 1"
	assert_contains "$err" "cannot listen on 127.0.0.1:$taken" "the error names the address"
	stop_exporter
fi

# ---- a real Prometheus scrapes it: dashboard 12239's queries ----------
if command -v prometheus >/dev/null && start_exporter h100-8x --interval 0.5; then
	export PORT
	PPORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	export PPORT MJSON=$MACHINES/h100-8x/machine.json
	cat >"$TMPD/prometheus.yml" <<EOF
global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: gpuwise
    static_configs: [{targets: ["127.0.0.1:$PORT"]}]
EOF
	prometheus --config.file="$TMPD/prometheus.yml" --storage.tsdb.path="$TMPD/prom-data" \
		--web.listen-address=127.0.0.1:"$PPORT" >"$TMPD/prometheus.log" 2>&1 &
	STARTED+=("$!")
	PROM=$!
	pycheck "Prometheus scrapes the exporter; dashboard 12239's queries give the machine's values per GPU" '
import urllib.parse, urllib.request
def query(q):
    url = "http://127.0.0.1:%s/api/v1/query?query=" % os.environ["PPORT"] + urllib.parse.quote(q)
    return json.loads(urllib.request.urlopen(url, timeout=2).read())["data"]["result"]
deadline, res = time.time() + 25, None
while time.time() < deadline:
    try:
        res = query("DCGM_FI_DEV_GPU_TEMP")
        if len(res) == 8:
            break
    except OSError:
        pass
    time.sleep(0.3)
assert res and len(res) == 8, res
devs = json.load(open(os.environ["MJSON"]))["nvml"]["devices"]
def per_gpu(q):
    return {int(r["metric"]["gpu"]): float(r["value"][1]) for r in query(q)}
def one(q):
    r = query(q); assert len(r) == 1, (q, r); return float(r[0]["value"][1])
want = {
    "DCGM_FI_DEV_GPU_TEMP": [d["temperature"]["gpu"] for d in devs],
    "DCGM_FI_DEV_POWER_USAGE": [d["power"]["usage"] / 1000 for d in devs],
    "DCGM_FI_DEV_SM_CLOCK * 1000000": [d["clocks"]["sm"] * 1e6 for d in devs],
    "DCGM_FI_DEV_GPU_UTIL": [d["utilization"]["gpu"] for d in devs],
    "DCGM_FI_DEV_FB_USED": [d["memory"]["used"] / 1048576 for d in devs],
}
for q, w in want.items():
    got = per_gpu(q)
    assert got == dict(enumerate(w)), (q, got, w)
t = [d["temperature"]["gpu"] for d in devs]; p = [d["power"]["usage"] / 1000 for d in devs]
assert abs(one("avg(DCGM_FI_DEV_GPU_TEMP)") - sum(t) / 8) < 1e-9
assert abs(one("sum(DCGM_FI_DEV_POWER_USAGE)") - sum(p)) < 1e-6
r = query("DCGM_FI_DEV_GPU_TEMP{gpu=\"3\"}")[0]["metric"]
assert r["modelName"] == "NVIDIA H100 80GB HBM3" and r["device"] == "nvidia3" and r["job"] == "gpuwise", r
up = per_gpu("gpuwise_gpu_up")
assert up == {i: 1.0 for i in range(8)}, up'
	pyrun
	kill -TERM "$PROM" 2>/dev/null
	wait "$PROM" 2>/dev/null
	stop_exporter
else
	echo "SKIP: prometheus is not installed (scripts/setup installs it)"
fi

finish
