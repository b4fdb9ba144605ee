#!/usr/bin/env python3
"""Metamorphic test of `gpuwise explain` (issue #31): presentation must not
change what a log says.

Real pasted logs come wrapped in artefacts that have nothing to do with the
error: colour codes, CRLF, prefixes that loggers and collectors put before
each line, JSON or HTML escaping, boxes and terminal wrapping. Every log of
the tuning sets whose ids explain gets right today (tests/explain/corpus,
heldout, ecosystem*, holdout-2 .. holdout-13, holdout-16 .. holdout-19 and
holdout-23 .. holdout-49 (tuning sets since they were retired from held-out),
and the silent negatives*) is
transformed by each presentation below; the transformed log must give the
same ids in the same order (silence stays silence).

The held-out sets (holdout-14, holdout-15, holdout-20 .. holdout-22 and
holdout-50 and later) are never read here.

Speed: every log of every transformation (about 20 000 scans) runs in this
one process through libgpuwise.so (ctypes: gw_explainer_new/feed/finish,
what `gpuwise explain` calls); a fixed sample (the first two logs of the
corpus, of each transformation) also goes through `gpuwise explain --json`
so the two paths are checked to agree.

  python3 -S tests/cli/test_explain_presentation.py            check the floors
  python3 -S tests/cli/test_explain_presentation.py --table    print the table
  python3 -S tests/cli/test_explain_presentation.py -v NAME    list NAME's misses
"""
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BUILD = os.path.join(ROOT, os.environ.get("GPUWISE_BUILD", "build"))
EXPLAIN = os.path.join(ROOT, "tests", "explain")

# ---- the sets --------------------------------------------------------------


def tuning_sets():
    """The sets this test may read: never a held-out set (holdout-14, -15,
    -20 .. -22, -50 and later)."""
    out = []
    for name in sorted(os.listdir(EXPLAIN)):
        if not os.path.isdir(os.path.join(EXPLAIN, name)):
            continue
        m = re.fullmatch(r"holdout-(\d+)", name)
        if m and not (2 <= int(m.group(1)) <= 13 or 16 <= int(m.group(1)) <= 19
                      or 23 <= int(m.group(1)) <= 49):
            continue
        if m or name in ("corpus", "heldout") or name.startswith("ecosystem") or name.startswith("negatives"):
            out.append(name)
    return out


def expected_ids(path):
    """The ids of NAME.expected (negatives*: none, whatever the file says)."""
    try:
        with open(path, encoding="utf-8") as f:
            return [l.strip() for l in f if l.strip() and not l.startswith("#")]
    except FileNotFoundError:
        return []


def logs():
    for s in tuning_sets():
        d = os.path.join(EXPLAIN, s)
        for name in sorted(os.listdir(d)):
            if name.endswith(".log"):
                want = [] if s.startswith("negatives") else expected_ids(os.path.join(d, name[:-4] + ".expected"))
                yield s + "/" + name, os.path.join(d, name), want


# ---- the scanner, in process ------------------------------------------------

lib = ctypes.CDLL(os.path.join(BUILD, "libgpuwise.so"))
lib.gw_explainer_new.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
lib.gw_explainer_feed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
lib.gw_explainer_finish.argtypes = [ctypes.c_void_p]
lib.gw_explainer_count.argtypes = [ctypes.c_void_p]
lib.gw_explainer_count.restype = ctypes.c_size_t
lib.gw_explainer_match.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
lib.gw_explainer_match.restype = ctypes.POINTER(ctypes.POINTER(ctypes.c_char_p))  # match->doc->id
lib.gw_explainer_reset.argtypes = [ctypes.c_void_p]
lib.gw_explainer_free.argtypes = [ctypes.c_void_p]
EX = ctypes.c_void_p()
if lib.gw_explainer_new(ctypes.byref(EX)) < 0:
    sys.exit("gw_explainer_new failed")


def explain(data):
    """The ids, in order, as `gpuwise explain --json` lists them. Fed in
    pieces of 4096 bytes, as the CLI reads (and to cross piece bounds)."""
    lib.gw_explainer_reset(EX)
    for i in range(0, len(data), 4096):
        piece = data[i:i + 4096]
        lib.gw_explainer_feed(EX, piece, len(piece))
    lib.gw_explainer_finish(EX)
    return [lib.gw_explainer_match(EX, i)[0][0].decode() for i in range(lib.gw_explainer_count(EX))]


def explain_cli(data):
    with tempfile.NamedTemporaryFile(suffix=".log") as f:
        f.write(data)
        f.flush()
        r = subprocess.run([os.path.join(BUILD, "gpuwise"), "explain", "--json", f.name],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return [m["id"] for m in json.loads(r.stdout)["matches"]]


# ---- the presentations -------------------------------------------------------
# Each takes and gives bytes; text is read as UTF-8 with surrogateescape, so
# any byte survives. A log's lines are split on "\n" (the last piece, empty
# when the log ends with a newline, is left as it is).


def text_of(b):
    return b.decode("utf-8", "surrogateescape")


def bytes_of(t):
    return t.encode("utf-8", "surrogateescape")


def per_line(fn, skip_empty=False):
    def apply(b):
        lines = text_of(b).split("\n")
        body, last = lines[:-1], lines[-1]
        out = [l if skip_empty and not l.strip() else fn(l) for l in body]
        if last:
            out.append(fn(last))
        else:
            out.append("")
        return bytes_of("\n".join(out))
    return apply


ESC = "\x1b"
# rich's ReprHighlighter and traceback theme: numbers bold cyan, exception
# names bold red, quoted strings green; pytest (--color=yes) and loguru
# colour the whole line: red for an error.
HIGHLIGHT = re.compile(r"(?P<exc>\b\w*(?:Error|Exception|Warning)\b)|(?P<num>(?<![\w.])\d+(?:\.\d+)?(?![\w.]))"
                       r"|(?P<str>'[^'\n]{1,60}')")
COLOUR = {"exc": "[1;31m", "num": "[1;36m", "str": "[32m"}


def sgr_line(line):
    if not line.strip():
        return line
    line = HIGHLIGHT.sub(lambda m: ESC + COLOUR[m.lastgroup] + m.group(0) + ESC + "[0m" + ESC + "[31m", line)
    return ESC + "[1m" + ESC + "[31m" + line + ESC + "[0m"


def sgr_lost_esc(line):
    """The same colour with its ESC bytes lost in pasting (a browser, a
    chat or an issue form drops the control byte): "[1;31mError[0m"."""
    return sgr_line(line).replace(ESC, "")


def sgr_palette(b):
    """ESC-less colour of every shape that loggers print: 256 colours
    ("[38;5;196m"), true colour ("[38;2;255;0;0m"), bold+colour
    ("[1;33m"), and the resets "[0m", "[39m", "[22m", one line in three
    each (the others plain, as a log mixes them)."""
    shapes = [("[38;5;196m", "[0m"), ("[38;2;255;0;0m", "[39m"), ("[1;33m", "[22m[39m")]
    lines = text_of(b).split("\n")
    out = []
    for i, l in enumerate(lines):
        if l.strip() and i % 3 != 2:
            on, off = shapes[i % 3]
            l = on + l + off
        out.append(l)
    return bytes_of("\n".join(out))


def cri_partial(size):
    """A Kubernetes CRI log file (/var/log/pods, the kubelet's and
    containerd's format): a line longer than the runtime's buffer is
    written as partial records "TIME stderr P TEXT" continued by the next
    record of the stream up to a full one "TIME stderr F TEXT" (containerd
    cuts at 16 KiB, CRI-O's conmon at 8 KiB; cut at `size` bytes here,
    mid-word and mid-character, so that every log's long lines are cut)."""
    def apply(b):
        lines = b.split(b"\n")
        body = lines[:-1] + ([lines[-1]] if lines[-1] else [])
        out = []
        for i, l in enumerate(body):
            t = b"2024-01-01T00:00:%02d.%09dZ stderr " % (i % 60, i * 7919 % 10**9)
            pieces = [l[k:k + size] for k in range(0, len(l), size)] or [b""]
            out.extend(t + (b"P " if k + 1 < len(pieces) else b"F ") + p for k, p in enumerate(pieces))
        return b"\n".join(out) + b"\n"
    return apply


def cri_interleaved(b):
    """CRI partial records (cut at 40 bytes) with the other stream's
    output between them: a full stdout record after each partial stderr
    one, as the runtime writes both streams to the one file."""
    out = []
    for l in cri_partial(40)(b).split(b"\n"):
        out.append(l)
        if b" stderr P " in l[:48]:
            out.append(b"2024-01-01T00:00:00.000000001Z stdout F step 10/100 loss=0.25")
    return b"\n".join(out)


def tqdm_bars(b):
    """tqdm redraws its bar after "\r" with no newline (stderr in a file or a
    CI log, 2>&1): the next output is glued after the last bar. Every
    eighth line, from the first, gets three redraws before it."""
    def bars(k):
        return "".join("\r%3d%%|%-10s| %d/100 [00:0%d<00:0%d, %d.%02dit/s]" % (p, "#" * (p // 10), p, k % 10, 9 - k % 10, 40 + p % 17, p)
                       for p in (0, 50, 100))
    lines = text_of(b).split("\n")
    return bytes_of("\n".join(bars(i) + l if i % 8 == 0 and (l or i + 1 < len(lines)) else l
                              for i, l in enumerate(lines)))


def go_json_string(s):
    """A string as Go's encoding/json writes it (Docker's json-file driver):
    \" \\ \n \r \t, other control bytes and < > & as \\u00XX, UTF-8 kept."""
    out = []
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or c in "<>&":
            out.append("\\u%04x" % ord(c))
        elif "\udc80" <= c <= "\udcff":   # an invalid byte: Go writes U+FFFD
            out.append("\ufffd")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def docker_json(b):
    """Docker's json-file log driver (/var/lib/docker/containers/ID/ID-json.log):
    one JSON object a line, {"log":LINE+"\n","stream":"stderr","time":T}."""
    lines = text_of(b).split("\n")
    body = lines[:-1] + ([lines[-1]] if lines[-1] else [])
    return bytes_of("".join('{"log":%s,"stream":"stderr","time":"2024-01-01T00:00:%02d.%09dZ"}\n'
                            % (go_json_string(l + "\n"), i % 60, i * 7919 % 10**9) for i, l in enumerate(body)))


def json_blob(b):
    """A whole log as one JSON string value (a JSON logger's "exc_info", a
    job's status in Ray or Kubernetes JSON, an API's error body): Python's
    json.dumps, so non-ASCII as \\uXXXX."""
    t = text_of(b).encode("utf-8", "replace").decode("utf-8", "replace")
    return (json.dumps({"level": "error", "message": t}) + "\n").encode()


def html_escape(b):
    """What some web pages give when copied as source (an issue tracker's
    HTML, a forum's <pre>): & < > " ' as entities."""
    t = text_of(b).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return bytes_of(t.replace('"', "&quot;").replace("'", "&#39;"))


def wrap_words(line, width):
    """Greedy word wrap as rich's Text.wrap does it: break at spaces, a word
    longer than the width folded; leading indentation kept."""
    if len(line) <= width:
        return [line]
    out, cur = [], ""
    for word in re.findall(r"\s*\S+", line.expandtabs(8)):
        if len(cur) + len(word) <= width:
            cur += word
            continue
        if cur:
            out.append(cur)
            word = word.lstrip()
        while len(word) > width:
            out.append(word[:width])
            word = word[width:]
        cur = word
    out.append(cur)
    return out


def rich_box(width):
    """rich's Panel or traceback box (Console width `width`): each line
    framed as "│ " + text padded + " │", text wrapped at width - 4."""
    inner = width - 4

    def apply(b):
        lines = text_of(b).split("\n")
        body = lines[:-1] + ([lines[-1]] if lines[-1] else [])
        out = ["╭" + "─" * (width - 2) + "╮"]
        for l in body:
            for piece in wrap_words(l.rstrip(), inner):
                out.append("│ " + piece.ljust(inner) + " │")
        out.append("╰" + "─" * (width - 2) + "╯")
        return bytes_of("\n".join(out) + "\n")
    return apply


def hard_wrap(width):
    """A terminal's copy of lines longer than it is wide (tmux, screen, a
    plain xterm copy): cut every `width` characters, mid-word (tabs
    expanded first, as the terminal shows them)."""
    def apply(b):
        lines = text_of(b).split("\n")
        out = []
        for l in lines:
            l = l.expandtabs(8)
            if len(l) <= width:
                out.append(l)
            else:
                out.extend(l[i:i + width] for i in range(0, len(l), width))
        return bytes_of("\n".join(out))
    return apply


# name, where the form occurs, the transformation
PRESENTATIONS = [
    ("sgr", "ANSI SGR colour: pytest --color=yes, loguru, rich, tqdm", per_line(sgr_line)),
    ("sgr-noesc", "ANSI SGR colour whose ESC bytes were lost in pasting: '[1;31m...[0m'",
     per_line(sgr_lost_esc)),
    ("sgr-noesc-256", "ESC-less 256-colour, true colour, bold+colour, resets '[38;5;196m' '[39m'",
     sgr_palette),
    ("tqdm-cr", "tqdm's \\r redraws, the next output glued after the bar", tqdm_bars),
    ("crlf", "CRLF line ends: Windows consoles, PowerShell, logs saved on Windows",
     lambda b: b.replace(b"\n", b"\r\n")),
    ("bom", "UTF-8 byte order mark: Notepad, PowerShell 7's Out-File -Encoding utf8BOM",
     lambda b: b"\xef\xbb\xbf" + b),
    ("iso-time", "ISO 8601 timestamp per line: Python logging, Go, Kubernetes --timestamps",
     per_line(lambda l: "2024-03-11T10:02:33.551Z " + l)),
    ("journald", "journalctl/syslog: 'Mon DD HH:MM:SS host unit[pid]: '",
     per_line(lambda l: "Mar 11 10:02:33 node01 python3[4242]: " + l)),
    ("cri", "Kubernetes CRI log file (/var/log/pods): 'TIME stderr F '",
     per_line(lambda l: "2024-01-01T00:00:00.000000000Z stderr F " + l)),
    ("cri-partial", "CRI partial records 'TIME stderr P ' up to an 'F' record, cut at 40 bytes",
     cri_partial(40)),
    ("cri-interleaved", "CRI partial records with the other stream's full records between them",
     cri_interleaved),
    ("rank", "torchrun (PyTorch >= 2.2) '[rank0]: ' before each line",
     per_line(lambda l: "[rank0]: " + l)),
    ("default", "torchrun --tee / --redirects '[default0]:' before each line",
     per_line(lambda l: "[default0]:" + l)),
    ("pytest-E", "pytest's 'E   ' before an exception's lines",
     per_line(lambda l: "E   " + l)),
    ("quote", "GitHub/Markdown quote '> '", per_line(lambda l: "> " + l)),
    ("indent", "Jupyter/IPython output indented by 4 spaces",
     per_line(lambda l: "    " + l, skip_empty=True)),
    ("docker-json", "Docker json-file driver: one JSON object a line", docker_json),
    ("json-blob", "a whole log as one JSON string (JSON loggers, Ray, k8s)", json_blob),
    ("html", "HTML entities &quot; &#39; &lt; &gt; &amp; (web pages copied)", html_escape),
    ("rich-80", "rich box '│ ... │', Console width 80, wrapped at 76", rich_box(80)),
    ("rich-100", "rich box '│ ... │', Console width 100, wrapped at 96", rich_box(100)),
    ("wrap-80", "terminal copy hard-wrapped at 80 columns, mid-word", hard_wrap(80)),
    ("wrap-100", "terminal copy hard-wrapped at 100 columns, mid-word", hard_wrap(100)),
    ("wrap-120", "terminal copy hard-wrapped at 120 columns, mid-word", hard_wrap(120)),
]

# The fewest logs each presentation must keep (of the logs explain gets
# right untransformed); raised as the reader learns a presentation.
# See tests/explain/README-presentation.md for the table and its history.
FLOORS = {
    "sgr": 3282,
    "sgr-noesc": 3282,
    "sgr-noesc-256": 3282,
    "tqdm-cr": 3280,
    "crlf": 3282,
    "bom": 3282,
    "iso-time": 3281,
    "journald": 3281,
    "cri": 3281,
    "cri-partial": 3280,
    "cri-interleaved": 3272,
    "rank": 3281,
    "default": 3281,
    "pytest-E": 2980,
    "quote": 3281,
    "indent": 3278,
    "docker-json": 3282,
    "json-blob": 3282,
    "html": 3282,
    "rich-80": 3273,
    "rich-100": 3271,
    "wrap-80": 3071,
    "wrap-100": 3140,
    "wrap-120": 3165,
}


def main(argv):
    table = "--table" in argv
    verbose = argv[argv.index("-v") + 1] if "-v" in argv else None
    base = []
    total = 0
    for name, path, want in logs():
        total += 1
        with open(path, "rb") as f:
            data = f.read()
        got = explain(data)
        if got == want:
            base.append((name, data, got))
    print("presentation: %d of %d tuning logs right untransformed (%d with ids, %d silent)"
          % (len(base), total, sum(1 for b in base if b[2]), sum(1 for b in base if not b[2])))
    fails = 0
    rows = []
    for pname, where, fn in PRESENTATIONS:
        kept, misses = 0, []
        for name, data, want in base:
            got = explain(fn(data))
            if got == want:
                kept += 1
            else:
                misses.append((name, want, got))
        rows.append((pname, where, kept, len(base)))
        if verbose in (pname, "all"):
            for name, want, got in misses:
                print("  %s %s: want %s got %s" % (pname, name, want, got))
        floor = FLOORS.get(pname, len(base))
        line = "presentation %-11s %4d/%d" % (pname, kept, len(base))
        if kept < floor:
            line = "FAIL: " + line + " (floor %d)" % floor
            fails += 1
        if not table:
            print(line)
    # The in-process scan is what the CLI prints: a fixed sample, checked.
    sample = [b for b in base if b[0].startswith("corpus/")][:2]
    for pname, _, fn in PRESENTATIONS:
        for name, data, _ in sample:
            t = fn(data)
            if explain_cli(t) != explain(t):
                print("FAIL: %s %s: gpuwise explain --json and the library disagree" % (pname, name))
                fails += 1
    if table:
        print("| presentation | where it occurs | logs keeping their ids |")
        print("|---|---|---|")
        for pname, where, kept, n in rows:
            print("| %s | %s | %d/%d |" % (pname, where.replace("|", "\\|"), kept, n))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
