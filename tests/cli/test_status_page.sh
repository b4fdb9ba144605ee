#!/usr/bin/env bash
# The exporter's status page (/) in a real browser: headless Chromium
# (Debian `chromium`, installed by scripts/setup) with JavaScript turned off
# loads the page of the exporter on the 8x H100 fake, once as a desktop
# window and once as a phone (mobile emulation, so the viewport meta tag
# applies). The DOM must show the eight GPUs and who runs what on each; the
# screenshot (kept in build/status-page/) must show their 32 bars; on the
# phone nothing may be wider than the screen.
#
# Chromium is driven over its DevTools pipe (--remote-debugging-pipe: JSON
# messages on file descriptors 3 and 4, no extra Python package), because
# --dump-dom and --screenshot read the page through JavaScript and give
# nothing once JavaScript is off. Each browser runs in its own session and
# its process group is killed afterwards; every wait is bounded.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_exporter.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	echo "SKIP: chromium is not installed (scripts/setup installs the Debian package chromium)"
	finish
fi
ART=$TOP/build/status-page
mkdir -p "$ART"

cat >"$TMPD/browse.py" <<'EOF'
"""browse.py URL WIDTH HEIGHT MOBILE PNG: loads URL with JavaScript off in
headless Chromium, prints {"dom", "content_width", "viewport_width"} as JSON
and writes a full-page screenshot to PNG."""
import base64, json, os, select, signal, subprocess, sys, tempfile, time

url, width, height, mobile, png = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5]
DEADLINE = time.time() + 60
to_r, to_w = os.pipe()      # our commands -> Chromium's fd 3
from_r, from_w = os.pipe()  # Chromium's fd 4 -> us
profile = tempfile.mkdtemp(prefix="gw-chromium-")

os.set_inheritable(to_r, True)     # os.dup2(3, 3) keeps close-on-exec
os.set_inheritable(from_w, True)

def child_fds():
    os.dup2(to_r, 3)
    os.dup2(from_w, 4)

proc = subprocess.Popen([os.environ["CHROMIUM"], "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--disable-dev-shm-usage",
                         "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile,
                         "--remote-debugging-pipe", "about:blank"],
                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(profile + ".log", "w"),
                        preexec_fn=child_fds, start_new_session=True,
                        close_fds=False)
os.close(to_r)
os.close(from_w)
buf, events, next_id = b"", [], [0]

def read_message():
    global buf
    while b"\0" not in buf:
        left = DEADLINE - time.time()
        if left <= 0 or not select.select([from_r], [], [], left)[0]:
            raise TimeoutError("Chromium did not answer within 60 s")
        chunk = os.read(from_r, 1 << 20)
        if not chunk:
            raise EOFError("Chromium closed its pipe")
        buf += chunk
    msg, buf = buf.split(b"\0", 1)
    return json.loads(msg)

def call(method, session=None, **params):
    next_id[0] += 1
    m = {"id": next_id[0], "method": method, "params": params}
    if session:
        m["sessionId"] = session
    os.write(to_w, json.dumps(m).encode() + b"\0")
    while True:
        r = read_message()
        if r.get("id") == next_id[0]:
            if "error" in r:
                raise RuntimeError("%s: %s" % (method, r["error"]))
            return r["result"]
        events.append(r)

def wait_event(name):
    while True:
        for i, e in enumerate(events):
            if e.get("method") == name:
                return events.pop(i)
        events.append(read_message())

try:
    target = call("Target.createTarget", url="about:blank")["targetId"]
    s = call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    call("Emulation.setScriptExecutionDisabled", s, value=True)
    call("Emulation.setDeviceMetricsOverride", s, width=width, height=height, deviceScaleFactor=1, mobile=mobile)
    call("Page.enable", s)
    call("Page.navigate", s, url=url)
    wait_event("Page.loadEventFired")
    root = call("DOM.getDocument", s, depth=-1)["root"]["nodeId"]
    dom = call("DOM.getOuterHTML", s, nodeId=root)["outerHTML"]
    lm = call("Page.getLayoutMetrics", s)
    shot = call("Page.captureScreenshot", s, format="png", captureBeyondViewport=True)["data"]
    with open(png, "wb") as f:
        f.write(base64.b64decode(shot))
    # Lines of text in what must stay on one line (user, pid, memory, the
    # values by the bars) and in the process or command cells (they may
    # wrap): a text node's content quads, one per line box.
    lines = {}
    for sel in ("td:nth-child(1)", "td:nth-child(2)", "td:nth-child(4)", ".val", "td:nth-child(3)"):
        lines[sel] = []
        for n in call("DOM.querySelectorAll", s, nodeId=root, selector=sel)["nodeIds"]:
            kids = call("DOM.describeNode", s, nodeId=n, depth=1)["node"].get("children", [])
            tops = set()
            for k in kids:
                if k["nodeType"] == 3:
                    quads = call("DOM.getContentQuads", s, backendNodeId=k["backendNodeId"])["quads"]
                    tops |= {round(q[1]) for q in quads}
            lines[sel].append(len(tops))
    print(json.dumps({"dom": dom, "lines": lines, "content_width": lm["cssContentSize"]["width"],
                      "viewport_width": lm["cssLayoutViewport"]["clientWidth"]}))
    try:
        call("Browser.close")
    except (EOFError, TimeoutError, RuntimeError):
        pass
finally:
    try:
        proc.wait(timeout=max(1, min(10, DEADLINE - time.time())))
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)   # the browser's own process group: its helpers too
    except ProcessLookupError:
        pass
    proc.wait()
    subprocess.run(["rm", "-rf", profile, profile + ".log"])
EOF

cat >"$TMPD/png.py" <<'EOF'
"""png.py FILE: width, height and the bands of rows that hold the page's bar
colours (#3a7, hot #d73), from the PNG itself (zlib, no imaging package)."""
import json, struct, sys, zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, hdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        hdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, ctype, _, _, interlace = hdr
assert depth == 8 and ctype in (2, 6) and interlace == 0, hdr
bpp = 3 if ctype == 2 else 4
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
# A bar: its track (#eee) and its fill (#3a7, hot #d73), 1em high; a band of
# at least 6 rows holding those colours is one bar (a table's 1 px #eee
# border is not). An empty bar (0 %) is still its track.
BARS = {(0xee, 0xee, 0xee), (0x33, 0xaa, 0x77), (0xdd, 0x77, 0x33)}
colours, bands, run, filled, fill_bands = set(), 0, 0, False, 0
for y, line in enumerate(rows + [b""]):
    px = {tuple(line[i:i + 3]) for i in range(0, len(line), bpp * 2)}
    colours |= px
    if px & BARS:
        run += 1
        filled = filled or bool(px & {(0x33, 0xaa, 0x77), (0xdd, 0x77, 0x33)})
    else:
        bands += run >= 6
        fill_bands += run >= 6 and filled
        run, filled = 0, False
print(json.dumps({"width": w, "height": h, "colours": len(colours), "bar_bands": bands, "filled_bars": fill_bands}))
EOF

check_page() { # WHAT URL WIDTH HEIGHT MOBILE PNG PYTHON-CHECKS
	local what=$1 url=$2 w=$3 h=$4 mob=$5 png=$6 code=$7 res info
	checks=$((checks + 1))
	res=$(CHROMIUM=$CHROMIUM timeout 90 "$PY" "$TMPD/browse.py" "$url" "$w" "$h" "$mob" "$png" 2>"$TMPD/browse.err")
	if [ $? != 0 ] || [ -z "$res" ]; then
		fail "$what: Chromium did not load $url: $(tail -3 "$TMPD/browse.err")"
		return
	fi
	info=$("$PY" "$TMPD/png.py" "$png" 2>&1) || { fail "$what: the screenshot is not a readable PNG: $info"; return; }
	printf '%s' "$res" >"$TMPD/page.json"
	printf '%s' "$info" >"$TMPD/png.json"
	(cd "$TMPD" && MJSON=$MJSON "$PY" - "$code" <<'EOF') || fail "$what: $(cat "$TMPD/check.err")"
import html, json, os, re, sys
page, png = json.load(open("page.json")), json.load(open("png.json"))
dom = page["dom"]
sections = re.findall(r'<section class="gpu[^"]*"><h2>(.*?)</h2>(.*?)</section>', dom, re.S)
def rows(body):
    return [[html.unescape(re.sub("<[^>]+>", "", c)) for c in re.findall(r"<td>(.*?)</td>", r, re.S)]
            for r in re.findall(r"<tr>(<td>.*?)</tr>", body, re.S)]
def one_line():
    """Nothing that must stay on one line wraps."""
    n = page["lines"]
    for sel in ("td:nth-child(1)", "td:nth-child(2)", "td:nth-child(4)", ".val"):
        assert n[sel] and set(n[sel]) == {1}, "%s wraps: lines %r" % (sel, n[sel])
try:
    exec(sys.argv[1])
except AssertionError as e:
    open("check.err", "w").write("%s (screenshot %s)" % (str(e)[:1500], png))
    sys.exit(1)
EOF
}

MJSON=$MACHINES/h100-8x/machine.json
if start_exporter page h100-8x --names native --show-processes; then
	check_page "desktop, JavaScript off" "http://127.0.0.1:$PORT/" 1280 900 0 "$ART/h100-8x.png" '
assert "<script" not in dom, "a script on the page"
assert len(sections) == 8, [s[0] for s in sections]
for i, (h2, body) in enumerate(sections):
    assert h2 == "GPU %d: NVIDIA H100 80GB HBM3" % i, h2
    assert body.count("class=\"bar\"") == 4, (i, body.count("class=\"bar\""))
who = {i: [(r[0], r[2]) for r in rows(body)] for i, (h2, body) in enumerate(sections)}
for i in (1, 2, 3):
    assert who[i] == [("alice", "python")], (i, who[i])
assert ("bob", "python3") in who[5] and len(who[5]) == 2, who[5]
assert [p for u, p in who[0]] == ["sleep"], who[0]     # scripts/with-machine'"'"'s live sleeper
for i in (4, 6, 7):
    assert who[i] == [] and "No processes" in sections[i][1], (i, who[i])
assert not any("train.py" in c for r in who.values() for c in r), "a command line without --per-process"
assert png["width"] == 1280 and png["height"] >= 900, png
assert png["bar_bands"] == 32, "the screenshot shows %d bars, want 8 GPUs x 4" % png["bar_bands"]
devs = json.load(open(os.environ["MJSON"]))["nvml"]["devices"]
nonzero = sum(bool(v) for d in devs for v in (d["utilization"]["gpu"], d["memory"]["used"] >> 24,
                                            d["temperature"]["gpu"], d["power"]["usage"] // 1000))
assert png["filled_bars"] == nonzero, "%d bars are filled, the machine has %d values over 1 %%" % (png["filled_bars"], nonzero)
assert png["colours"] >= 8, png
one_line()'
	check_page "phone (390x844, mobile viewport), JavaScript off" "http://127.0.0.1:$PORT/" 390 844 1 "$ART/h100-8x-phone.png" '
assert len(sections) == 8, len(sections)
assert page["viewport_width"] == 390, page
assert page["content_width"] <= 390, "the page is %s px wide on a 390 px phone" % page["content_width"]
assert png["width"] == 390 and png["bar_bands"] == 32, png
one_line()'
fi
# Full command lines with --per-process: long lines wrap, the phone page
# still fits its screen.
if start_exporter pp h100-8x --names native --per-process; then
	check_page "--per-process on a phone: command lines wrap" "http://127.0.0.1:$PORT/" 360 740 1 "$ART/h100-8x-per-process-phone.png" '
assert "train.py --config configs/llama-70b.yaml" in html.unescape(dom), "no command line"
assert page["content_width"] <= 360, "the page is %s px wide on a 360 px phone" % page["content_width"]
one_line()'
fi
echo "screenshots: $(cd "$TOP" && ls build/status-page/*.png | tr '\n' ' ')"
finish
