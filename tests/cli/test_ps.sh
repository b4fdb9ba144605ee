#!/usr/bin/env bash
# gpuwise ps and gpuwise report end to end on the 8-GPU fake machine with a
# private pool folder: ps shows running and waiting jobs with their user,
# pids, GPUs, the machine's utilisation and the idle flag; report sums the
# accounting log (SQLite) per user: GPU-seconds, idle GPU-seconds from the
# utilisation sampled while the job ran, waits, and the GPUs nobody
# leased. Every process started here ends; every wait is bounded.
. "$(dirname "$0")/lib.sh"

STARTED=()
cleanup() {
	local p
	for p in "${STARTED[@]}"; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$TMPD"
}
trap cleanup EXIT

export GPUWISE_POOL_DIR=$TMPD/pool
ME=$(id -un)
# Users are named from /etc/passwd under GPUWISE_ROOT, as for GPU processes.
mkdir -p "$TMPD/root/etc"
printf '%s:x:%s:%s::/:/bin/sh\n' "$ME" "$(id -u)" "$(id -g)" >"$TMPD/root/etc/passwd"
export GPUWISE_FAKE_MACHINE=$MACHINES/h100-8x/machine.json GPUWISE_ROOT=$TMPD/root LD_LIBRARY_PATH=$BUILD/fake
uuid() { mjson h100-8x "m['nvml']['devices'][$1]['uuid']"; }

bg() {
	local n=$1
	shift
	( "$GW" "$@" >"$TMPD/$n.out" 2>"$TMPD/$n.err" & echo $! >"$TMPD/$n.pid"; wait $!; echo $? >"$TMPD/$n.rc" ) 2>/dev/null &
	wait_for "[ -s $TMPD/$n.pid ]" 5
	STARTED+=("$(cat "$TMPD/$n.pid")")
}

# Looking creates nothing: no pool folder yet is no jobs, and still no
# folder afterwards (gpuwise run makes it, mode 1777).
run ps
assert_eq "$rc" 0 "ps without a pool folder exits 0"
assert_contains "$out" "no jobs: there is no pool yet ($GPUWISE_POOL_DIR does not exist" "and says there is no pool yet"
run ps --json
assert_json "ps --json without a pool folder: no jobs" "assert d['jobs'] == [] and d['pool_dir'] == '$GPUWISE_POOL_DIR', d"
assert_eq "$([ -e "$GPUWISE_POOL_DIR" ] && echo created || echo absent)" absent "ps creates no pool folder"
mkdir -m 1777 "$GPUWISE_POOL_DIR"
run ps
assert_eq "$rc" 0 "ps on an empty pool exits 0"
assert_contains "$out" "no jobs" "and says the pool is empty"

# A job on two idle GPUs, one on a busy GPU, and one waiting for all eight.
bg idle run --name idle-job --gpu 4,6 --gpus 2 -- sleep 30
bg busy run --gpu 0 -- sleep 30
wait_for '[ "$("$GW" ps --json 2>/dev/null | grep -c "\"running\"")" = 2 ]' 10 || fail "the two jobs did not start"
bg wide run --gpus 8 -- true
wait_for '[ "$("$GW" ps --json 2>/dev/null | grep -c "\"waiting\"")" = 1 ]' 10 || fail "the 8-GPU job did not queue"
run ps --json
assert_eq "$rc" 0 "ps --json exits 0"
assert_json "ps --json shows both running jobs and the waiting one" "
jobs = d['jobs']
assert [j['state'] for j in jobs] == ['running', 'running', 'waiting'], jobs
idle, busy, wide = jobs
assert idle['name'] == 'idle-job' and idle['command'] == 'sleep 30', idle
assert idle['user'] == '$ME' and idle['pid'] == $(cat "$TMPD/idle.pid"), idle
assert idle['job_pid'] and idle['job_pid'] != idle['pid'], idle
assert [g['uuid'] for g in idle['gpus']] == ['$(uuid 4)', '$(uuid 6)'], idle['gpus']
assert [g['index'] for g in idle['gpus']] == [4, 6], idle['gpus']
assert idle['utilization_percent'] == 0 and idle['idle'] is True, idle
assert busy['gpus'][0]['index'] == 0 and busy['utilization_percent'] == 98 and busy['idle'] is False, busy
assert busy['memory_used_bytes'] == $(mjson h100-8x "m['nvml']['devices'][0]['memory']['used']"), busy
assert wide['gpus_requested'] == 8 and wide['gpus'] == [] and wide['idle'] is None, wide
assert d['pool_dir'] == '$GPUWISE_POOL_DIR'
"
run ps
assert_contains "$out" "idle-job: sleep 30" "human ps names the job and its command"
assert_contains "$out" "4,6" "human ps shows the GPUs as list numbers them"
assert_contains "$out" "(8)" "a waiting job shows how many GPUs it asked for"
# In Chinese: the titles are translated and still stand over their
# columns (widths in display cells, a Chinese character being two); the
# state stays the identifier of --json.
LANGUAGE=zh_CN run ps
assert_contains "$out" "名称：命令" "ps in Chinese: the column titles"
checks=$((checks + 1))
msg=$(printf '%s\n' "$out" | PYTHONPATH=$TOP/tests/cli python3 -c '
import sys
from cells import cells
lines = sys.stdin.read().splitlines()
# two header lines over two lines a job: the columns, then the name and command
k = [i for i, l in enumerate(lines) if "idle-job" in l]
assert k, lines
for title, value, head, row in (("名称：命令", "idle-job", lines[1], lines[k[0]]),
                                ("空闲", "是", lines[0], lines[k[0] - 1]),
                                ("状态", "running", lines[0], lines[k[0] - 1])):
    a, b = cells(head[:head.index(title)]), cells(row[:row.index(value)])
    assert a == b, (title, a, value, b, head, row)
' 2>&1) || fail "ps in Chinese: a title is not over its column: $msg"

# The jobs end; ps forgets them at once, report remembers them.
for n in idle busy; do kill -TERM "$(cat "$TMPD/$n.pid")"; done
wait_for "[ -f $TMPD/wide.rc ]" 10 || fail "the waiting job did not run after the others ended"
run ps --json
assert_json "ps is empty once every job has ended" "assert d['jobs'] == [], d"

# report: the three jobs, idle time from the utilisation sampled while
# they ran (GPUs 4 and 6 at 0 %, GPU 0 at 98 %).
run report --json
assert_eq "$rc" 0 "report --json exits 0"
assert_json "report sums GPU time and idle GPU time per user" "
u = d['users']
assert len(u) == 1 and u[0]['user'] == '$ME' and u[0]['jobs'] == 3, u
t = d['total']
assert t['gpu_seconds'] > 0 and 0 < t['idle_gpu_seconds'] < t['gpu_seconds'], t
assert t['wait_seconds'] > 0 and t['max_wait_seconds'] > 0, t
"
checks=$((checks + 1))
python3 - "$GPUWISE_POOL_DIR/accounting.sqlite" <<'EOF' || fail "the accounting rows do not match the jobs"
import sqlite3, sys
rows = {r[0]: r for r in sqlite3.connect(sys.argv[1]).execute(
    "SELECT name, gpus, gpu_seconds, idle_gpu_seconds, exit_status, mean_util FROM jobs")}
idle, busy = rows["idle-job"], rows["sleep"]
assert idle[1] == 2 and abs(idle[3] - idle[2]) < 1e-6 and idle[5] == 0, idle   # idle the whole time
assert busy[1] == 1 and busy[3] == 0 and busy[5] == 98, busy                   # never idle
assert idle[4] == 143 and busy[4] == 143, (idle, busy)                          # SIGTERM passed on
assert rows["true"][1] == 8, rows["true"]
EOF
run report
assert_contains "$out" "$ME" "human report names the user"
assert_contains "$out" "GPU-HOURS" "with GPU-hours"
LANGUAGE=zh_CN run report
assert_contains "$out" "GPU 小时" "report in Chinese: the column titles"
assert_contains "$out" "$ME" "report in Chinese: the user as they are"
checks=$((checks + 1))
msg=$(printf '%s\n' "$out" | PYTHONPATH=$TOP/tests/cli python3 -c '
import sys
from cells import cells
lines = sys.stdin.read().splitlines()
head = [l for l in lines if "作业数" in l][0]
row = [l for l in lines if l.startswith(sys.argv[1] + " ")][0]
# right-aligned columns: each title ends where its values end
ends = lambda l: [cells(l[:i + 1]) for i, c in enumerate(l) if c != " " and (i + 1 == len(l) or l[i + 1] == " ")]
assert ends(row)[1:] and set(ends(row)[1:]) <= set(ends(head)), (head, row)
' "$ME" 2>&1) || fail "report in Chinese: a title is not over its column: $msg"
run report --since 1s
sleep 1.2
run report --since 1s --json
assert_json "report --since leaves out older jobs" "assert d['total']['jobs'] == 0, d"
GPUWISE_POOL_DIR=$TMPD/other run report --json
assert_eq "$rc" 0 "report without a log exits 0"
assert_json "and reports no jobs, every GPU unleased" "assert d['total']['jobs'] == 0 and len(d['unleased_gpus']) == 8, d"

for p in "${STARTED[@]}"; do kill -KILL "$p" 2>/dev/null; done
finish
