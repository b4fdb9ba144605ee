#!/usr/bin/env bash
# The include layering of lib/ (docs/ARCHITECTURE.md, "Who may include
# what") and the rule that only lib/core touches the operating system
# (docs/CODING_STYLE.md), checked over the sources:
#   1. nothing under lib/core or lib/backend includes lib/probe/*.h or
#      lib/doctor/*.h, lib/probe includes no lib/doctor/*.h, and lib/core
#      includes no lib/backend/*.h (no arrow points up);
#   2. only lib/core includes core/sys.h (the system-call table), and the
#      one file named in SYS_USERS: lib/pool/poolfs.c, the pool folder's
#      files, locks and jobs (outside GPUWISE_ROOT, so no path helper
#      serves them), which calls the table's gw__sys_* entries;
#   3. nothing in lib/ outside lib/core calls open, openat, fopen, stat,
#      lstat, fstat, access, opendir, readdir, readlink, realpath, dlopen,
#      dlsym, or a process call (fork, exec*, posix_spawn, pipe, dup2,
#      setpgid, poll, kill, wait*, prctl) itself (comments and strings do
#      not count): programs are run through lib/core/spawn.c;
#   4. no getenv("GPUWISE_...") in lib/, cli/ or python/src: those
#      variables pick libraries and paths and are read with secure_getenv
#      (gw__env_path in lib/core/util.c);
#   5. at link level (nm over build/obj/lib), a module calls only modules
#      of a lower rank: core < device, hardware < backend < context, probe,
#      explain < advise, pool < doctor, bench;
#   6. the objects of lib/core call each other without a cycle (error.c,
#      which every file calls, calls no translation: lib/core/message.c
#      does, above it).
# With --graph it prints the link-level graph of the modules, and of the
# files of lib/core, as well.
set -uo pipefail
cd "$(dirname "$0")/../.."
exec python3 - "$@" <<'PY'
import glob, re, sys

ALLOW_RAW = set()
SYS_USERS = {"lib/pool/poolfs.c"}
CALLS = ("open|openat|fopen|stat|lstat|fstat|access|opendir|readdir|readlink|realpath|dlopen|dlsym|"
         "fork|vfork|execv|execve|execvp|execl|execlp|system|popen|posix_spawnp?|pipe2?|dup2?|dup3|"
         "setpgid|setsid|poll|kill|killpg|waitpid|waitid|wait|prctl")
call = re.compile(r"(?<![A-Za-z0-9_.>])(" + CALLS + r")\s*\(")
include = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# Comments, strings and character literals, blanked (newlines kept).
strip = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
problems = []

def line_of(text, pos):
    return text.count("\n", 0, pos) + 1

for path in sorted(glob.glob("lib/**/*.[ch]", recursive=True) + glob.glob("cli/*.[ch]") +
                   glob.glob("python/src/*.[ch]")):
    text = open(path, encoding="utf-8", errors="replace").read()
    layer = path.split("/")[1] if path.startswith("lib/") else path.split("/")[0]
    for m in include.finditer(text):
        inc, n = m.group(1), line_of(text, m.start())
        if layer in ("core", "backend") and inc.startswith(("probe/", "doctor/")):
            problems.append(f"{path}:{n}: includes {inc}: core and backends must not include probe or doctor headers")
        if layer == "probe" and inc.startswith("doctor/"):
            problems.append(f"{path}:{n}: includes {inc}: probes must not include doctor headers")
        if layer == "core" and inc.startswith("backend/"):
            problems.append(f"{path}:{n}: includes {inc}: core must not include backend headers")
        if inc == "core/sys.h" and layer != "core" and path not in SYS_USERS:
            problems.append(f"{path}:{n}: includes core/sys.h: only lib/core may (use the helpers of core/path.h, core/os.h)")
    if not path.startswith("lib/") or layer == "core" or path in ALLOW_RAW:
        continue
    code = strip.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    for m in call.finditer(code):
        problems.append(f"{path}:{line_of(code, m.start())}: calls {m.group(1)}() directly: "
                        "use the lib/core helpers (core/path.h, core/os.h, core/spawn.h)")

# 4. a GPUWISE_ variable (it picks a library, a file or a folder) is read
#    through gw__env_path() (secure_getenv), never getenv: a set-uid,
#    set-gid or capability-raised gpuwise must not load what its caller names.
comments = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
for path in sorted(glob.glob("lib/**/*.[ch]", recursive=True) + glob.glob("cli/*.[ch]") +
                   glob.glob("python/src/*.[ch]")):
    text = comments.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                        open(path, encoding="utf-8", errors="replace").read())
    for m in re.finditer(r'(?<![A-Za-z0-9_])getenv\s*\(\s*"GPUWISE_', text):
        problems.append(f"{path}:{line_of(text, m.start())}: getenv of a GPUWISE_ variable: "
                        "use gw__env_path() (secure_getenv)")

# 5. The same order at link level: which module's object calls which, from
# the symbols each defines and uses (nm). A module may use only modules of a
# lower rank; equal ranks may not use each other either.
RANK = {"core": 0, "hardware": 1, "device": 1, "backend": 2, "context": 3, "probe": 3, "explain": 3,
        "advise": 4, "pool": 4, "doctor": 5, "bench": 5}
import os, subprocess
# (an object whose source was moved or removed is stale, not the library)
objs = sorted(o for o in glob.glob("build/obj/lib/*/*.o") if os.path.exists(o[len("build/obj/"):-2] + ".c"))
if not objs:
    problems.append("build/obj/lib has no objects: build first (make)")
defined, used = {}, []
for o in objs:
    mod = o.split("/")[3]
    if mod not in RANK:
        problems.append(f"{o}: module {mod} has no rank in tests/lint/layering.sh")
        continue
    nm = subprocess.run(["nm", "-P", o], capture_output=True, text=True).stdout
    for line in nm.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] in "TDBRCV":
            defined[f[0]] = o
        elif f[1] == "U":
            used.append((o, f[0]))
graph, core = {}, {}
for o, sym in used:
    d = defined.get(sym)
    if not d:
        continue
    a, b = o.split("/")[3], d.split("/")[3]
    if a != b and RANK[b] >= RANK[a]:
        problems.append(f"{o} uses {sym} of {d}: {a} may not call {b} (link-level layering)")
    if a != b:
        graph.setdefault(a, set()).add(b)
    elif a == "core" and o != d:
        core.setdefault(os.path.basename(o)[:-2], set()).add(os.path.basename(d)[:-2])

# 6. No cycle among the files of lib/core (a depth-first walk).
def cycle(g):
    state, path = {}, []
    def walk(v):
        state[v] = 1
        path.append(v)
        for w in sorted(g.get(v, ())):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if not state.get(w) and (c := walk(w)):
                return c
        state[v] = 2
        path.pop()
        return None
    for v in sorted(g):
        if not state.get(v) and (c := walk(v)):
            return c
    return None
c = cycle(core)
if c:
    problems.append("lib/core calls in a cycle: " + " -> ".join(c) + " (link level)")

# 7. One way to build strings (docs/CODING_STYLE.md): text of unknown length
# in a gw_strbuf, text into a fixed buffer with gw__fmt / gw__strlcpy (a cut
# ends in "…" and returns false). The raw snprintf calls that predate the
# rule may only become fewer: a new one fails here; lower RAW_SNPRINTF when
# you convert some.
RAW_SNPRINTF = 605
raw = 0
for path in sorted(glob.glob("lib/**/*.c", recursive=True) + glob.glob("cli/*.c") + glob.glob("python/src/*.c")):
    if path in ("lib/core/util.c", "lib/core/strbuf.c"):
        continue
    code = strip.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), open(path, encoding="utf-8", errors="replace").read())
    raw += len(re.findall(r"(?<![A-Za-z0-9_])v?snprintf\s*\(", code))
if raw > RAW_SNPRINTF:
    problems.append(f"{raw} raw snprintf/vsnprintf calls, {raw - RAW_SNPRINTF} more than the {RAW_SNPRINTF} "
                    "that predate the rule: use gw__fmt (fixed buffer) or gw__sb_addf (gw_strbuf)")
elif raw < RAW_SNPRINTF and "--graph" not in sys.argv[1:]:
    print(f"layering: {raw} raw snprintf calls, fewer than {RAW_SNPRINTF}: lower RAW_SNPRINTF")

if "--graph" in sys.argv[1:]:
    for a in sorted(graph, key=lambda m: (RANK[m], m)):
        print(f"{a} -> " + ", ".join(sorted(graph[a], key=lambda m: (RANK[m], m))))
    for a in sorted(core):
        print(f"core/{a} -> " + ", ".join(sorted(core[a])))

for p in problems:
    print("layering: " + p)
print("layering: ok" if not problems else f"layering: {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
PY
