#!/usr/bin/env bash
# gpuwise watch on fake machines: the values printed are those machine.json
# holds, an array advances by one per sample, -n is exact, a GPU lost
# between two samples is reported and the others go on (and one that comes
# back is read again), --csv and --json are valid, NO_COLOR is honoured,
# SIGINT ends it with 0, a closed pipe ends it quietly, AMD GPUs are read.
. "$(dirname "$0")/lib.sh"

# A copy of h100-8x whose GPU 0 changes per sample and whose GPU 1 is lost
# at the second sample and back at the third.
M=$TMPD/moving
cp -r "$MACHINES/h100-8x" "$M"
"${PYS[@]}" - "$M/machine.json" <<'PY'
import json, sys
p = sys.argv[1]
m = json.load(open(p))
d0, d1 = m["nvml"]["devices"][0], m["nvml"]["devices"][1]
d0["utilization"]["gpu"] = [10, 20, 30]
d0["memory"]["used"] = [1048576, 2097152, 3145728]
d0["power"]["usage"] = [100000, 200000, 300000]
d0["temperature"]["gpu"] = [40, 41, 42]
d0["clocks"]["sm"] = [1000, 1100, 1200]
d0["pcie"]["tx"] = [1, 2, 3]
d0["clocks_event_reasons"] = [0, 4, 0x44]
d1["errors"] = dict(d1.get("errors") or {}, nvmlDeviceGetUtilizationRates=["SUCCESS", "GPU_IS_LOST", "SUCCESS"])
json.dump(m, open(p, "w"))
PY

# --json: one object per sample and line, values as machine.json holds them.
run_with "$M" watch -n 3 -d 0.05 --json
last_cmd="[moving] gpuwise watch -n 3 -d 0.05 --json"
assert_eq "$rc" 0 "watch -n 3 --json exits 0"
assert_eq "$(printf '%s\n' "$out" | wc -l)" 3 "-n 3 prints exactly 3 lines"
out_json=$out
checks=$((checks + 1))
if ! msg=$(printf '%s\n' "$out_json" | "${PYS[@]}" -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin.read().splitlines()]
assert len(lines) == 3, len(lines)
t = [l["time"] for l in lines]
assert t == sorted(t) and t[2] - t[0] >= 0.09, "times %s" % t
for k, l in enumerate(lines):
    assert list(l)[0] == "gpuwise_version", list(l)
    devs = l["devices"]
    assert [d["index"] for d in devs] == list(range(8)), [d["index"] for d in devs]
    d0 = devs[0]
    assert d0["health"] == "ok"
    assert d0["uuid"].startswith("GPU-")
    assert d0["utilization"]["gpu_percent"] == [10, 20, 30][k], d0["utilization"]
    assert d0["memory"]["used_bytes"] == [1048576, 2097152, 3145728][k], d0["memory"]
    assert d0["memory"]["total_bytes"] == 85520809984, d0["memory"]
    assert d0["power"]["draw_w"] == [100, 200, 300][k], d0["power"]
    assert d0["temperature_c"] == [40, 41, 42][k], d0
    assert d0["clocks"]["sm_mhz"] == [1000, 1100, 1200][k], d0["clocks"]
    assert d0["pcie"]["tx_bytes_per_s"] == [1024, 2048, 3072][k], d0["pcie"]
    assert d0["throttle_reasons"] == [[], ["sw_power_cap"], ["sw_power_cap", "hw_thermal_slowdown"]][k], d0["throttle_reasons"]
    assert set(d0) >= {"index", "uuid", "health", "utilization", "memory", "temperature_c", "power", "clocks", "pcie", "throttle_reasons"}, sorted(d0)
    d1 = devs[1]
    if k == 1:
        assert d1["health"] == "lost", d1
        assert d1["utilization"]["gpu_percent"] is None and d1["memory"]["used_bytes"] is None, d1
    else:
        assert d1["health"] == "ok", (k, d1)
        assert d1["utilization"]["gpu_percent"] is not None, d1
    for d in devs[2:]:
        assert d["health"] == "ok" and d["utilization"]["gpu_percent"] is not None, d
' 2>&1); then
	fail "--json values per sample: $(printf '%s' "$msg" | tail -3)"
fi

# --csv: a header, one row per GPU and sample, parsed by Python's csv.
run_with "$M" watch -n 2 -d 0.05 --csv -i 0,1 --fields gpu_util,memory.used_bytes,throttle_reasons,pstate
assert_eq "$rc" 0 "watch --csv exits 0"
checks=$((checks + 1))
if ! msg=$(printf '%s\n' "$out" | "${PYS[@]}" -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
assert rows[0] == ["time", "index", "uuid", "health", "utilization.gpu_percent", "memory.used_bytes", "throttle_reasons", "pstate"], rows[0]
assert len(rows) == 5, rows
assert [r[1] for r in rows[1:]] == ["0", "1", "0", "1"], rows
assert rows[1][4:] == ["10", "1048576", "", "P0"], rows[1]
assert rows[3][4:] == ["20", "2097152", "sw_power_cap", "P0"], rows[3]
assert rows[4][3] == "lost" and rows[4][4] == "", rows[4]
float(rows[1][0])
' 2>&1); then
	fail "--csv rows: $(printf '%s' "$msg" | tail -3)"
fi

# The table: two header lines (short labels, units), compact values, the
# lost GPU named.
run_with "$M" watch -n 2 -d 0.05 -i 1,0
assert_eq "$rc" 0 "watch (table) exits 0"
assert_eq "$(printf '%s\n' "$out" | wc -l)" 6 "two header lines and 2 x 2 rows"
assert_eq "$(printf '%s\n' "$out" | head -1 | awk '{print $3, $NF}')" "util rxpci" "the header: the fields' short labels"
assert_eq "$(printf '%s\n' "$out" | sed -n 2p | awk '{print $1, $NF}')" "% B/s" "the second header line: units"
assert_eq "$(printf '%s\n' "$out" | sed -n 3p | awk '{print $2}')" 1 "-i order kept: GPU 1 first"
assert_eq "$(printf '%s\n' "$out" | sed -n 4p | awk '{print $3, $5, $7, $8, $10}')" "10% 1.0M 100W 1000 1.0K" \
	"GPU 0's first sample, compact: %, bytes, W, MHz, B/s"
assert_contains "$(printf '%s\n' "$out" | sed -n 5p)" "lost" "GPU 1 lost at the second sample"
assert_contains "$(printf '%s\n' "$out" | sed -n 6p)" " 20% " "GPU 0 read all the same"
assert_not_contains "$out" $'\033' "NO_COLOR: no escape sequences"

# The default table fits in 80 display cells (a split tmux pane) on every
# fake machine, in English, in ASCII (LC_ALL=C) and in Chinese (labels 2
# cells per character), and each value's right edge is under its label's
# and its unit's (tests/cli/cells.py counts cells as a terminal does).
table_check() { # $1: what ran; checks $out
	checks=$((checks + 1))
	if ! msg=$(printf '%s\n' "$out" | PYTHONPATH=$TOP/tests/cli "${PYS[@]}" -c '
import sys
from cells import cells
def edges(line):  # right edge (in cells) of each space-separated word
    out, at = [], 0
    for k, c in enumerate(line):
        at += cells(c)
        if c != " " and (k + 1 == len(line) or line[k + 1] == " "):
            out.append(at)
    return out
lines = sys.stdin.read().splitlines()
assert len(lines) >= 3, lines
for l in lines:
    assert cells(l) <= 80, "%d cells: %r" % (cells(l), l)
head = edges(lines[0])  # "time" is left-aligned: from "gpu" on, right edges
assert set(edges(lines[1])) <= set(head[2:]), "units not under labels:\n%s\n%s" % (lines[0], lines[1])
rows = [l for l in lines[2:] if ": " not in l]  # not a lost GPU
assert rows, lines
for l in rows:
    assert edges(l)[1:] == head[1:], "not aligned:\n%s\n%s" % (lines[0], l)
' 2>&1); then
		fail "$1: $(printf '%s' "$msg" | tail -4)"
	fi
}
for m in $(cd "$MACHINES" && ls -d */ | tr -d /); do
	[ -f "$MACHINES/$m/machine.json" ] || continue
	run_on "$m" watch -n 1
	[ "$rc" = 0 ] || continue # no-driver, driver-mismatch: no table
	table_check "$m: default table in 80 cells, aligned"
done
run_on h100-8x watch -n 1
assert_eq "$(printf '%s\n' "$out" | sed -n 3p | awk '{print $3, $6, $7, $8, $9, $10, $11}')" "98% 70.0G 60C 601W 1980 2619 567K" \
	"h100-8x: compact values"
# GPM's SM active beside "util" where a GPU has GPM (N/A on the first read:
# it compares two), not where none has, nor when it would not fit in 80
# cells (a sub-second time column).
assert_eq "$(printf '%s\n' "$out" | awk 'NR == 1 {print $3, $4} NR == 3 {print $4}' | tr '\n' ' ')" "util smact N/A " \
	"h100-8x: the SM active column beside util"
run_on h100-8x watch -n 2 -d 1
assert_eq "$(printf '%s\n' "$out" | awk 'NR == 11 {print $2, $3, $4}')" "0 98% 83%" "h100-8x: SM active from the second read"
run_on a100-mig watch -n 1
assert_not_contains "$(printf '%s\n' "$out" | head -1)" "smact" "a100-mig (no GPM): no SM active column"
LC_ALL=C run_on h100-8x watch -n 1 -d 0.5
table_check "h100-8x, LC_ALL=C, -d 0.5"
LANG=zh_CN.UTF-8 run_on h100-8x watch -n 1
table_check "h100-8x, zh_CN"
assert_contains "$(printf '%s\n' "$out" | head -1)" "温度" "zh_CN: translated labels"
LANG=zh_CN.UTF-8 run_on h100-8x watch -n 1 -d 0.5
table_check "h100-8x, zh_CN, -d 0.5"
LANG=zh_CN.UTF-8 run_on a100-mig watch -n 1 --fields fan_percent,power_limit,energy,pcie_width,pcie_gen,ecc_corrected_volatile,xid_count,max_sm_clock
table_check "a100-mig, zh_CN, other numeric fields"
# A lost GPU's reason is cut to the width (the whole of it: gpuwise info).
run_on lost-gpu watch -n 1
assert_contains "$(printf '%s\n' "$out" | grep lost)" "…" "lost-gpu: the long reason is cut"

# Text columns chosen with --fields (a GPU's name, its throttle reasons)
# are as wide as the widest value of the GPUs watched, up to 40 cells, and
# cut with "…" past that, so every row's columns stay in line through all
# the samples, in English, Chinese and ASCII: GPU 0 has an ordinary long
# name and more reasons than its column holds at the third sample, GPU 1
# a name over 40 cells and nearly every reason at once, GPU 2 a name with
# wide (CJK) characters. Numbers are right-aligned (their right edges line
# up), text left-aligned (their left edges do).
L=$TMPD/long
cp -r "$MACHINES/h100-8x" "$L"
"${PYS[@]}" - "$L/machine.json" <<'PY'
import json, sys
p = sys.argv[1]
m = json.load(open(p))
d = m["nvml"]["devices"]
d[0]["name"] = "NVIDIA A100-SXM4-80GB"
d[1]["name"] = "NVIDIA GeForce RTX 4090 Laptop GPU Engineering Sample"
d[2]["name"] = "NVIDIA 测试卡 GPU"
d[0]["clocks_event_reasons"] = [0, 0x4, 0x4 | 0x40 | 0x80]
d[1]["clocks_event_reasons"] = [0x1ef, 0, 0x4]
json.dump(m, open(p, "w"))
PY
columns_check() { # $1: what ran, $2: columns wanted; checks $out
	checks=$((checks + 1))
	if ! msg=$(printf '%s\n' "$out" | PYTHONPATH=$TOP/tests/cli "${PYS[@]}" -c '
import re, sys
from cells import cells
def spans(line):  # (first cell, last cell + 1) of each value: words one space apart
    return [(cells(line[:m.start()]), cells(line[:m.end()])) for m in re.finditer(r"\S+(?: \S+)*", line)]
lines = sys.stdin.read().splitlines()
want = int(sys.argv[1])
head = spans(lines[0])
assert len(head) == want, "header: %d columns, not %d: %r" % (len(head), want, lines[0])
rows = [spans(l) for l in lines[2:]]
assert len(rows) >= 3, lines
for l, r in zip(lines[2:], rows):
    assert len(r) == want, "%d columns, not %d:\n%s\n%s" % (len(r), want, lines[0], l)
for k in range(want):
    col = [head[k]] + [r[k] for r in rows]
    assert len({s for s, e in col}) == 1 or len({e for s, e in col}) == 1, \
        "column %d out of line:\n%s" % (k + 1, "\n".join([lines[0]] + lines[2:]))
' "$2" 2>&1); then
		fail "$1: $(printf '%s' "$msg" | tail -12)"
	fi
}
long_fields=name,throttle_reasons,gpu_util,pstate,power_draw
run_with "$L" watch -n 3 -d 0.05 -i 0,1,2 --fields $long_fields
last_cmd="[long] gpuwise watch -n 3 -d 0.05 -i 0,1,2 --fields $long_fields"
assert_eq "$rc" 0 "long names: exits 0"
columns_check "long names and reasons: columns in line" 7
assert_contains "$(printf '%s\n' "$out" | sed -n 3p)" "NVIDIA A100-SXM4-80GB  " "a name up to 40 cells: whole"
assert_contains "$(printf '%s\n' "$out" | sed -n 4p)" "NVIDIA GeForce RTX 4090 Laptop GPU Engi…  " "a longer name: cut to 40 cells with …"
assert_contains "$(printf '%s\n' "$out" | sed -n 9p)" "SW Power Cap, HW Thermal S…" "more reasons than the column holds: cut with …"
LANG=zh_CN.UTF-8 run_with "$L" watch -n 3 -d 0.05 -i 0,1,2 --fields $long_fields
columns_check "long names and reasons, zh_CN: columns in line" 7
assert_contains "$(printf '%s\n' "$out" | head -1)" "名称" "zh_CN: translated labels"
LC_ALL=C run_with "$L" watch -n 3 -i 2,1,0 -d 0.05 --fields pstate,$long_fields,compute_mode
columns_check "long names and reasons, LC_ALL=C: columns in line" 8
assert_contains "$(printf '%s\n' "$out" | sed -n 4p)" "GPU En...  " "LC_ALL=C: cut with ..."

# Every metric has a short column label: at most 6 cells, unique, in
# English and in each translation (so a new row without one fails here).
checks=$((checks + 1))
if ! msg=$("$GW" __spec | PYTHONPATH=$TOP/tests/cli "${PYS[@]}" -c '
import gettext, json, sys
from cells import cells
ms = json.load(sys.stdin)["metrics"]
cols = [m.get("column") for m in ms]
assert all(isinstance(c, str) and c.strip() for c in cols), [m["key"] for m in ms if not m.get("column")]
assert len(set(cols)) == len(cols), sorted(c for c in cols if cols.count(c) > 1)
zh = gettext.translation("gpuwise", sys.argv[1], ["zh_CN"])
for c in cols:
    for t in (c, zh.gettext(c)):
        assert cells(t) <= 6 and " " not in t, "label %r (%r) wider than 6 cells or has a space" % (c, t)
tr = [zh.gettext(c) for c in cols]
assert len(set(tr)) == len(tr), sorted(t for t in tr if tr.count(t) > 1)
' "$BUILD/locale" 2>&1); then
	fail "metric column labels: $msg"
fi

# --fields help lists the metric table; a bad field is a usage error.
run watch --fields help
assert_eq "$rc" 0 "--fields help exits 0"
assert_contains "$out" "utilization.gpu_percent" "--fields help lists JSON paths"
assert_contains "$out" "power_draw" "--fields help lists keys"
# In Chinese its headers are padded by display cells like the rows: each
# of KEY, JSON PATH, UNIT and COLUMN starts at the same cell in every line.
LANG=zh_CN.UTF-8 run watch --fields help
assert_contains "$(printf '%s\n' "$out" | head -1)" "键名" "zh_CN: --fields help's headers translated"
checks=$((checks + 1))
if ! msg=$(printf '%s\n' "$out" | PYTHONPATH=$TOP/tests/cli "${PYS[@]}" -c '
import sys
from cells import cells
starts = [0, 31, 66, 73, 80]  # KEY 30, JSON PATH 34, UNIT 6, COLUMN 6 cells, one space apart
for line in sys.stdin.read().splitlines():
    grid = "".join(ch + "\0" * (cells(ch) - 1) for ch in line)  # one char per cell
    for s in starts[1:]:
        assert grid[s - 1] == " " and grid[s] != " ", "a column does not start at cell %d:\n%s" % (s, line)
' 2>&1); then
	fail "zh_CN --fields help: columns by cells: $msg"
fi
run_on h100-8x watch -n 1 --fields no_such_metric
assert_eq "$rc" 2 "an unknown field is a usage error"
assert_contains "$err" "no_such_metric" "the error names the field"
run_on h100-8x watch -n 1 --csv --json
assert_eq "$rc" 2 "--csv with --json is a usage error"
run_on h100-8x watch -n 0
assert_eq "$rc" 2 "-n 0 is a usage error"
run_on h100-8x watch -d 0.01
assert_eq "$rc" 2 "-d below 0.05 is a usage error"
run_on h100-8x watch -n 1 -i 9
assert_eq "$rc" 1 "-i naming no GPU exits 1"

# Xid fields: NVML's events watched from the start (GPU 1 reports Xid 13,
# then 79 after 200 ms, and is lost from its fifth read on: its Xid stays
# known in the JSON while everything else is null); without them no event
# thread is asked for and nothing changes.
X=$TMPD/xid
cp -r "$MACHINES/h100-8x" "$X"
"${PYS[@]}" - "$X/machine.json" <<'PY'
import json, sys
p = sys.argv[1]
m = json.load(open(p))
d1 = m["nvml"]["devices"][1]
d1["xid_events"] = [13, {"xid": 79, "after_ms": 200}]
d1["errors"] = {"nvmlDeviceGetUtilizationRates": ["SUCCESS"] * 4 + ["GPU_IS_LOST"]}
json.dump(m, open(p, "w"))
PY
run_with "$X" watch -n 8 -d 0.1 -i 0,1 --json --fields gpu_util,xid_last,xid_count
last_cmd="[xid] gpuwise watch -n 8 -d 0.1 -i 0,1 --json --fields gpu_util,xid_last,xid_count"
assert_eq "$rc" 0 "watch with Xid fields exits 0"
checks=$((checks + 1))
if ! msg=$(printf '%s\n' "$out" | "${PYS[@]}" -c '
import json, sys
lines = [json.loads(l)["devices"] for l in sys.stdin.read().splitlines()]
assert len(lines) == 8, len(lines)
assert all(l[0]["xid"] == {"last": 0, "count": 0} for l in lines), [l[0] for l in lines]
last = [l[1]["xid"] for l in lines]
counts = [x["count"] for x in last]
assert counts == sorted(counts) and counts[-1] == 2 and last[-1]["last"] == 79, last
assert lines[-1][1]["health"] == "lost" and lines[-1][1]["utilization"]["gpu_percent"] is None, lines[-1][1]
' 2>&1); then
	fail "watch Xid fields: $msg"
fi
run_with "$X" watch -n 8 -d 0.1 -i 1 --csv --fields xid_last,xid_count
assert_contains "$(printf '%s\n' "$out" | tail -1)" ",lost,79,2" "--csv: a lost GPU's Xid fields are still written"

# A machine whose GPU is lost from the start: listed as lost, the rest read.
run_on lost-gpu watch -n 1 --json
assert_eq "$rc" 0 "lost-gpu: exits 0"
assert_json "lost-gpu: the lost GPU says so" '
h = [x["health"] for x in d["devices"]]
assert "lost" in h and "ok" in h, h
'

# AMD GPUs through sysfs.
JSON_MACHINE=mixed-nvidia-amd
run_on mixed-nvidia-amd watch -n 1 --json
assert_eq "$rc" 0 "mixed-nvidia-amd: exits 0"
assert_json "AMD GPU read through sysfs" '
amd = [x for x in d["devices"] if x["index"] == len(d["devices"]) - 1][0]
assert amd["health"] == "ok", amd
assert amd["utilization"]["gpu_percent"] is not None and amd["memory"]["used_bytes"] is not None, amd
'
JSON_MACHINE=
run_on no-driver watch -n 1
assert_eq "$rc" 1 "no GPU a driver serves: exits 1"
assert_contains "$err" "gpuwise: " "no GPU: one error line"

# SIGINT ends it cleanly with 0; every line written before is whole.
"$TOP/scripts/with-machine" h100-8x -- sh -c 'echo $$ >"$1"; exec "$2" watch -d 0.05 --json' sh \
	"$TMPD/pid" "$GW" >"$TMPD/sig" 2>"$TMPD/sigerr" &
wm=$!
for _ in $(seq 100); do [ -s "$TMPD/sig" ] && break; sleep 0.05; done
sleep 0.2
kill -INT "$(cat "$TMPD/pid")" 2>/dev/null
for _ in $(seq 100); do kill -0 $wm 2>/dev/null || break; sleep 0.05; done
if kill -0 $wm 2>/dev/null; then
	kill -KILL "$(cat "$TMPD/pid")" 2>/dev/null
	fail "watch did not end on SIGINT"
fi
wait $wm
assert_eq "$?" 0 "SIGINT: exit 0"
checks=$((checks + 1))
"${PYS[@]}" -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMPD/sig" ||
	fail "SIGINT: every line written is whole JSON"
assert_ne "$(wc -l <"$TMPD/sig")" 0 "SIGINT: samples were written"
assert_eq "$(cat "$TMPD/sigerr")" "" "SIGINT: nothing on stderr"

# A closed pipe (| head) ends it quietly.
"$TOP/scripts/with-machine" h100-8x -- timeout 10 "$GW" watch -d 0.05 2>"$TMPD/pipeerr" | head -2 >/dev/null
rc=${PIPESTATUS[0]}
assert_ne "$rc" 124 "| head: watch ends when the pipe closes"
assert_eq "$(cat "$TMPD/pipeerr")" "" "| head: nothing on stderr"

finish
