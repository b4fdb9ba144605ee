#!/usr/bin/env bash
# gpuwise run end to end on fake machines, with a private pool folder
# (GPUWISE_POOL_DIR): jobs that share a GPU serialize, waiters are served
# in order, kill -9 of a job frees its GPU at once, --no-wait/--timeout give
# up with 124, --min-free/--max-util follow the machine's live values, the
# job's environment names the leased GPUs by UUID, signals reach the job,
# exit statuses pass through, a hostile pool folder gives a clear error,
# and every process started here has ended when the test ends. Every wait
# is bounded.
. "$(dirname "$0")/lib.sh"

STARTED=()
cleanup() {
	local p
	for p in "${STARTED[@]}"; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$TMPD"
}
trap cleanup EXIT

export GPUWISE_POOL_DIR=$TMPD/pool
# on MACHINE: the fake machine for every gpuwise started from here on
# (set directly, not through with-machine, so that $! is gpuwise's pid).
on() {
	export GPUWISE_FAKE_MACHINE=$MACHINES/$1/machine.json GPUWISE_ROOT=$EMPTY_ROOT
	export LD_LIBRARY_PATH=$BUILD/fake
}
# bg NAME ARGS...: gpuwise in the background; its pid in $TMPD/NAME.pid
# (and in STARTED), its output in $TMPD/NAME.{out,err}, its exit status in
# $TMPD/NAME.rc once it has ended.
bg() {
	local n=$1 i
	shift
	rm -f "$TMPD/$n.pid"
	( "$GW" "$@" >"$TMPD/$n.out" 2>"$TMPD/$n.err" & echo $! >"$TMPD/$n.pid"; wait $!; echo $? >"$TMPD/$n.rc" ) 2>/dev/null &
	for ((i = 0; i < 100; i++)); do [ -s "$TMPD/$n.pid" ] && break; sleep 0.02; done
	STARTED+=("$(cat "$TMPD/$n.pid")")
}
# Live jobs in a state: their job file is locked (a dead one's file may
# stay until the next run looks at the queue).
jobs_in() {
	local f n=0
	for f in $(grep -l "^state=$1" "$GPUWISE_POOL_DIR"/job-* 2>/dev/null); do
		flock -n -x "$f" true 2>/dev/null || n=$((n + 1))
	done
	echo $n
}
waiting_jobs() { jobs_in waiting; }
running_jobs() { jobs_in running; }
now() { date +%s.%N; }
LOG=$TMPD/log

on laptop-3060
UUID=$(mjson laptop-3060 'm["nvml"]["devices"][0]["uuid"]')

# --- the environment and exit statuses ---------------------------------------
run run -- sh -c 'echo "$CUDA_VISIBLE_DEVICES|$CUDA_DEVICE_ORDER|$GPUWISE_LEASE|${HIP_VISIBLE_DEVICES-unset}"; exit 3'
assert_eq "$rc" 3 "run passes CMD's exit status through"
assert_eq "${out%|*}" "$UUID|PCI_BUS_ID|1" "CUDA_VISIBLE_DEVICES is the UUID, PCI order, GPUWISE_LEASE the job number"
assert_eq "${out##*|}" unset "no HIP_VISIBLE_DEVICES without AMD GPUs"
CUDA_VISIBLE_DEVICES=7 run run -- sh -c 'echo $CUDA_VISIBLE_DEVICES'
assert_eq "$out" "$UUID" "an inherited CUDA_VISIBLE_DEVICES is replaced"
run run -- sh -c 'kill -9 $$'
assert_eq "$rc" 137 "a job killed by signal 9 gives 128+9"
run run -- no-such-command-gpuwise
assert_eq "$rc" 127 "a command that does not exist gives 127"
assert_contains "$err" "no-such-command-gpuwise: command not found" "and says so"
run run -- /etc/passwd
assert_eq "$rc" 126 "a file that cannot be run gives 126"
run run
assert_eq "$rc" 2 "no command is a usage error"
run run --gpus 2 -- true
assert_eq "$rc" 125 "more GPUs than the machine has: gpuwise fails before CMD (125)"
assert_contains "$err" "2 GPUs asked for, but this machine has 1" "and says why"
run run --gpu 5 -- true
assert_eq "$rc" 125 "a selector that matches nothing: 125"
run run -- sh -c 'echo "$@"' sh --gpus 3 -- --json
assert_eq "$out" "--gpus 3 -- --json" "options end at CMD: the rest is CMD's own"
run run --no-wait --timeout 1 -- true
assert_eq "$rc" 2 "--no-wait with --timeout is a usage error"
run run --min-free 8 -- true
assert_eq "$rc" 2 "--min-free without a unit is a usage error (8 bytes was never meant)"
assert_contains "$err" "option '--min-free' needs a unit" "and names the option"
run run --help
assert_contains "$out" "--max-util PCT" "--help lists the options"

# --- two jobs on a 1-GPU machine never overlap -------------------------------
: >"$LOG"
job='echo "start $0 $(date +%s.%N)" >>'"$LOG"'; sleep 0.4; echo "end $0 $(date +%s.%N)" >>'"$LOG"
bg a run -- sh -c "$job" A
bg b run -- sh -c "$job" B
wait_for '[ -f $TMPD/a.rc ] && [ -f $TMPD/b.rc ]' 20 || fail "two runs did not end within 20 s"
assert_eq "$(cat "$TMPD/a.rc")$(cat "$TMPD/b.rc")" 00 "both jobs ran"
checks=$((checks + 1))
python3 - "$LOG" <<'EOF' || fail "two jobs on one GPU overlapped: $(cat "$LOG")"
import sys
ev = [l.split() for l in open(sys.argv[1])]
iv = {}
for kind, name, t in ev:
    iv.setdefault(name, {})[kind] = float(t)
(a, b) = iv.values()
assert a["end"] <= b["start"] or b["end"] <= a["start"], iv
EOF

# --- first come, first served with three waiters ----------------------------
: >"$LOG"
bg holder run -- sleep 1
wait_for '[ "$(running_jobs)" = 1 ]' 10 || fail "the holder did not start"
for w in W1 W2 W3; do
	bg "$w" run -- sh -c 'echo $0 >>'"$LOG" "$w"
	wait_for '[ "$(waiting_jobs)" -ge '"${w#W}"' ]' 10 || fail "$w did not queue"
done
wait_for '[ -f $TMPD/W3.rc ]' 20 || fail "the waiters did not finish"
assert_eq "$(tr '\n' ' ' <"$LOG")" "W1 W2 W3 " "waiters start in the order they came"

# --- waiters sleep until something frees GPUs: they never wake one another ---
# A waiter is woken when a lease ends (inotify), and otherwise looks at the
# queue only every 0.5 s (it polled every 0.1 s). Its looks (reading the
# earlier waiters' job files) must not count as a change that wakes the
# others, or every waiter would keep waking every other one. Counted in
# read(2) calls (/proc/PID/io): a look of the n-th waiter reads n job files,
# two calls each, so 5 waiters make 30 calls per round of looks: about 60
# in a second, 300 when they polled every 0.1 s, thousands when they spin.
bg sleeper run -- sleep 10
wait_for '[ "$(running_jobs)" = 1 ]' 10 || fail "the holder did not start"
for w in S1 S2 S3 S4 S5; do bg "$w" run -- true; done
wait_for '[ "$(waiting_jobs)" = 5 ]' 10 || fail "the waiters did not queue"
reads() {
	local w n=0
	for w in S1 S2 S3 S4 S5; do
		n=$((n + $(awk '$1 == "syscr:" {print $2}' "/proc/$(cat "$TMPD/$w.pid")/io" 2>/dev/null || echo 0)))
	done
	echo $n
}
sleep 0.3
r0=$(reads)
sleep 1
r1=$(reads)
checks=$((checks + 1))
[ $((r1 - r0)) -lt 150 ] || fail "5 waiters made $((r1 - r0)) read calls in a second of waiting (looks too often)"
echo "run: 5 waiters, read calls in a second of waiting: $((r1 - r0))"
pkill -KILL -P "$(cat "$TMPD/sleeper.pid")"   # its sleep: the lease ends, the waiters run
wait_for '[ -f $TMPD/S5.rc ]' 20 || fail "the waiters did not finish"

# Without inotify (here: its first call fails) a waiter still gets the GPU,
# by looking every 0.1 s.
bg holder3 run -- sleep 0.5
wait_for '[ "$(running_jobs)" = 1 ]' 10 || fail "the holder did not start"
GPUWISE_FAULT=inotify_init1:1 run run --timeout 20 -- echo ran
assert_eq "$rc.$out" "0.ran" "a waiter without inotify runs once the lease ends"
wait_for '[ -f $TMPD/holder3.rc ]' 10

# --- --no-wait and --timeout give up with 124 ---------------------------------
bg holder2 run -- sleep 3
wait_for '[ "$(running_jobs)" = 1 ]' 10 || fail "the holder did not start"
run run --no-wait -- echo ran
assert_eq "$rc" 124 "--no-wait on a leased GPU exits 124"
assert_eq "$out" "" "and CMD did not run"
assert_contains "$err" "gave up waiting" "and says why"
t0=$(now)
run run --timeout 0.5 -- echo ran
t1=$(now)
assert_eq "$rc" 124 "--timeout exits 124 when the GPU stays leased"
checks=$((checks + 1))
python3 -c "import sys; d=$t1-$t0; sys.exit(0 if 0.5 <= d < 2.5 else 1)" || fail "--timeout 0.5 took $t0..$t1"
kill -KILL "$(cat "$TMPD/holder2.pid")"

# --- kill -9 of a job's process group frees the GPU within a second ----------
wait_for '[ "$(running_jobs)" = 0 ]' 10
setsid "$GW" run -- sh -c 'echo $$ >'"$TMPD/victim.pid"'; sleep 60' &
STARTED+=($!)
disown $!
wait_for '[ -s $TMPD/victim.pid ]' 10 || fail "the victim did not start"
vpid=$(cat "$TMPD/victim.pid")
bg next run --timeout 20 -- sh -c 'date +%s.%N >'"$TMPD/next.start"
wait_for '[ "$(waiting_jobs)" = 1 ]' 10 || fail "the next job did not queue"
pgid=$(ps -o pgid= -p "$vpid" | tr -d ' ')
t0=$(now)
kill -KILL -- "-$pgid"
wait_for '[ -s $TMPD/next.start ]' 5 || fail "the GPU was not handed on after kill -9"
checks=$((checks + 1))
handover=$(python3 -c "print('%.3f' % ($(cat "$TMPD/next.start" 2>/dev/null || echo 99) - $t0))")
python3 -c "import sys; sys.exit(0 if $handover < 1.0 else 1)" || fail "hand-over after kill -9 took $handover s"
echo "run: hand-over after kill -9: $handover s"
wait_for '[ -f $TMPD/next.rc ]' 10
assert_eq "$(cat "$TMPD/next.rc" 2>/dev/null)" 0 "the next job ran"

# --- signals reach the job ------------------------------------------------------
# The job writes its pid to sig.job: sig.pid is bg's, gpuwise's own (sharing the
# name let the test read gpuwise's pid when the job started late, under load).
bg sig run -- sh -c 'trap "echo got-TERM >'"$TMPD/sig.got"'; exit 7" TERM; echo $$ >'"$TMPD/sig.job"'; while :; do sleep 0.05; done'
wait_for '[ -s $TMPD/sig.job ]' 10 || fail "the signal job did not start"
gwpid=$(ps -o ppid= -p "$(cat "$TMPD/sig.job")" | tr -d ' ')
assert_eq "$(ps -o comm= -p "$gwpid")" gpuwise "the job's parent is gpuwise"
kill -TERM "$gwpid"
wait_for '[ -f $TMPD/sig.rc ]' 10 || fail "SIGTERM to gpuwise did not end the job"
assert_eq "$(cat "$TMPD/sig.got" 2>/dev/null)" got-TERM "SIGTERM sent to gpuwise reached CMD"
assert_eq "$(cat "$TMPD/sig.rc")" 7 "and CMD's exit status came back"

# A signal while still in the queue ends the wait (CMD never runs).
bg holder3 run -- sleep 3
wait_for '[ "$(running_jobs)" = 1 ]' 10
bg queued run -- touch "$TMPD/queued.ran"
wait_for '[ "$(waiting_jobs)" = 1 ]' 10 || fail "the job did not queue"
qpid=$(cat "$TMPD/queued.pid")
kill -TERM "$qpid"
wait_for '[ -f $TMPD/queued.rc ]' 5 || fail "SIGTERM did not end the wait"
assert_eq "$(cat "$TMPD/queued.rc")" 143 "a waiter ended by SIGTERM exits 128+15"
assert_eq "$([ -e "$TMPD/queued.ran" ] && echo ran)" "" "and its command never ran"
assert_eq "$(waiting_jobs)" 0 "and it left the queue"
kill -KILL "$(cat "$TMPD/holder3.pid")"

# --- --min-free and --max-util follow the machine's values ---------------------
on h100-8x
wait_for '[ "$(running_jobs)" = 0 ]' 10
pick() { mjson h100-8x "','.join(d['uuid'] for d in m['nvml']['devices'] if $1)"; }
run run --gpus 3 --max-util 10 -- sh -c 'echo $CUDA_VISIBLE_DEVICES'
assert_eq "$out" "$(pick "d['utilization']['gpu'] <= 10")" "--max-util 10 takes the GPUs at most 10 % busy"
run run --gpus 3 --min-free 60GiB -- sh -c 'echo $CUDA_VISIBLE_DEVICES'
assert_eq "$out" "$(pick "d['memory']['total'] - d['memory']['reserved'] - d['memory']['used'] >= 60 * 2**30")" \
	"--min-free 60GiB takes the GPUs with that much free"
run run --gpus 4 --max-util 10 --no-wait -- true
assert_eq "$rc" 124 "no 4 GPUs are idle enough: --no-wait gives up"
run run --gpus 2 --gpu 7,6 -- sh -c 'echo $CUDA_VISIBLE_DEVICES'
assert_eq "$out" "$(pick "d['minor_number'] in (6, 7)")" "--gpu picks from the GPUs named"

# --- MIG devices are leased one by one ------------------------------------------
on a100-mig
run run --gpu 0 -- sh -c 'echo $CUDA_VISIBLE_DEVICES'
assert_contains " $(mjson a100-mig "' '.join(g['uuid'] for g in m['nvml']['devices'][0]['mig']['devices'])") " " $out " \
	"a GPU in MIG mode is leased as its MIG devices, by MIG UUID"
# CUDA uses one MIG device per process: never two for one job (before: 3).
run run --gpus 3 --gpu 0 -- true
assert_eq "$rc" 125 "several MIG devices for one job: refused (125)"
assert_contains "$err" "at most one MIG device" "saying why"
run run --gpus 2 -- true
assert_eq "$rc" 125 "--gpus 2 on a machine with one whole GPU: refused"
# Placement: the least used free GPU first (a100-mig: GPU 1 is idle and
# whole, MIG 0:0 holds 12 GiB).
run run -- sh -c 'echo $CUDA_VISIBLE_DEVICES'
assert_eq "$out" "$(mjson a100-mig "m['nvml']['devices'][1]['uuid']")" "a plain run takes the idle whole GPU (before: MIG 0:0)"
on h100-8x
run run -- sh -c 'echo $CUDA_VISIBLE_DEVICES'
assert_eq "$out" "$(mjson h100-8x "m['nvml']['devices'][4]['uuid']")" "a plain run takes an idle GPU (before: GPU 0, 98 % busy)"
run run --gpus 3 -- sh -c 'echo $CUDA_VISIBLE_DEVICES | tr , "\n" | sort | tr "\n" " "'
assert_eq "$out" "$(mjson h100-8x "' '.join(sorted(m['nvml']['devices'][i]['uuid'] for i in (4, 6, 7))) + ' '")" \
	"--gpus 3 takes the three idle GPUs (before: 0, 1, 2)"

# --- a hostile pool folder is a clear error, never followed ------------------------
on laptop-3060
rm -f "$GPUWISE_POOL_DIR/gpu-$UUID"
ln -s /etc/passwd "$GPUWISE_POOL_DIR/gpu-$UUID"
run run -- true
assert_eq "$rc" 125 "a planted symbolic link: 125"
assert_contains "$err" "is a symbolic link: refused" "and says so"
rm -f "$GPUWISE_POOL_DIR/gpu-$UUID"
mkfifo "$GPUWISE_POOL_DIR/gpu-$UUID"
timeout 10 "$GW" run -- true >/dev/null 2>"$TMPD/err"
assert_eq "$?" 125 "a FIFO under a lock file's name: 125, no hang"
assert_contains "$(cat "$TMPD/err")" "not a plain file" "and says so"
rm -f "$GPUWISE_POOL_DIR/gpu-$UUID"
echo garbage >"$GPUWISE_POOL_DIR/next-ticket"
printf 'state=waiting\ngpus=99999\n\x01\xff' >"$GPUWISE_POOL_DIR/job-000000000007"
run run -- sh -c 'echo $GPUWISE_LEASE'
assert_eq "$rc" 0 "a garbled counter and a stray job file do not stop a run"
assert_ne "$out" "" "the job still gets a number"
ln -s "$TMPD" "$TMPD/pool-link"
GPUWISE_POOL_DIR=$TMPD/pool-link run run -- true
assert_eq "$rc" 125 "a pool folder that is a symbolic link is refused"
mkdir -m 0777 "$TMPD/open-pool"
chmod 0777 "$TMPD/open-pool"
GPUWISE_POOL_DIR=$TMPD/open-pool run run -- true
assert_eq "$rc" 125 "a world-writable pool folder without the sticky bit is refused"
assert_contains "$err" "sticky" "and the message says how to fix it"
GPUWISE_POOL_DIR=$TMPD/new-pool run run -- true
assert_eq "$(stat -c %a "$TMPD/new-pool")" 1777 "a missing pool folder is created like /tmp (1777)"

# --- files of other users in the pool folder: refused safely or a clear error ------
# Tests run as root; "another user" is nobody (65534): files chown'ed to it,
# and gpuwise itself run as nobody through setpriv.
on laptop-3060
wait_for '[ "$(running_jobs)$(waiting_jobs)" = 00 ]' 10
NOBODY=65534
# hold FILE: a live process (ours) keeps FILE locked, as a job would.
hold() {
	flock -x "$1" sleep 60 &
	STARTED+=("$!")
	wait_for "! flock -n -x '$1' true 2>/dev/null" 5 || fail "could not hold $1"
}
unhold() { kill "${STARTED[-1]}" 2>/dev/null; wait "${STARTED[-1]}" 2>/dev/null; }
# A live job file of nobody's whose record claims uid 0 and times no clock
# gives: ps shows the file's owner and sane times (before: root, and
# "-9223372036854775808s" from a NaN cast to long).
printf 'state=running\npid=1\njob_pid=1\nuid=0\nqueued=nan\nsince=-1e300\ngpus=1\neligible=*\nmin_free=0\nmax_util=-1\nname=forged\ncommand=sleep\nleased=%s\n' \
	"$UUID" >"$GPUWISE_POOL_DIR/job-000000000900"
chown "$NOBODY" "$GPUWISE_POOL_DIR/job-000000000900"
chmod 0644 "$GPUWISE_POOL_DIR/job-000000000900"
hold "$GPUWISE_POOL_DIR/job-000000000900"
run ps --json
assert_eq "$rc" 0 "ps reads a forged job file"
assert_json "ps --json: the owner, not the record's uid=0; finite times" '
j = [x for x in d["jobs"] if x["name"] == "forged"]
assert len(j) == 1, d["jobs"]
assert j[0]["uid"] == 65534, j[0]["uid"]
assert 0 <= j[0]["since"] < 1e11 and 0 <= j[0]["queued"] < 1e11, (j[0]["since"], j[0]["queued"])
'
run ps
assert_not_contains "$out" "-92233720" "ps: no NaN or overflow cast into a duration"
# the job's row is the line above its "name: command" line
assert_eq "$(printf '%s\n' "$out" | awk '/forged:/ {print prev} {prev = $6}')" "-" "ps: an unknown start is '-', not 1970"
assert_contains "$out" "65534" "ps: the job's user is its file's owner"
unhold
rm -f "$GPUWISE_POOL_DIR/job-000000000900"

# Another user's waiting job file that anyone may rewrite (0666) reserves
# nothing: a run behind it is not held up (before: it waited for a request
# nobody can vouch for). The same file mode 0644 is an honest waiter.
printf 'state=waiting\npid=1\njob_pid=0\nuid=65534\nqueued=1\nsince=1\ngpus=1\neligible=*\nmin_free=0\nmax_util=-1\nname=rewritable\ncommand=x\nleased=\n' \
	>"$GPUWISE_POOL_DIR/job-000000000001"
chown "$NOBODY" "$GPUWISE_POOL_DIR/job-000000000001"
chmod 0666 "$GPUWISE_POOL_DIR/job-000000000001"
hold "$GPUWISE_POOL_DIR/job-000000000001"
run run --no-wait -- true
assert_eq "$rc" 0 "a world-writable job file of another user reserves no GPU"
run ps --json
assert_json "ps: the world-writable job file is not listed" '
assert not [x for x in d["jobs"] if x["name"] == "rewritable"], d["jobs"]
'
chmod 0644 "$GPUWISE_POOL_DIR/job-000000000001"
run run --no-wait -- true
assert_eq "$rc" 124 "the same waiter with mode 0644 comes first (first come, first served)"
unhold
rm -f "$GPUWISE_POOL_DIR/job-000000000001"

# Job files planted under the numbers the counter gives next (a file of
# nobody's, a symbolic link, a FIFO) are skipped, not a dead end for every
# later run (before: "exists already", 125).
echo 500 >"$GPUWISE_POOL_DIR/next-ticket"
: >"$GPUWISE_POOL_DIR/job-000000000500"
chown "$NOBODY" "$GPUWISE_POOL_DIR/job-000000000500"
ln -s /etc/passwd "$GPUWISE_POOL_DIR/job-000000000501"
mkfifo "$GPUWISE_POOL_DIR/job-000000000502"
run run -- sh -c 'echo $GPUWISE_LEASE'
assert_eq "$rc" 0 "planted job files ahead of the counter do not stop a run"
# (the dead file of nobody's is removed on the way, so 500 is free again)
assert_eq "$out" 500 "the job takes the first free number"
assert_eq "$(cat /etc/passwd | head -1 | cut -d: -f1)" root "the planted link's target is untouched"
rm -f "$GPUWISE_POOL_DIR"/job-00000000050[012]

# Shared files as planted links or hard links: a clear error naming them.
for f in lock next-ticket; do
	mv "$GPUWISE_POOL_DIR/$f" "$TMPD/saved-$f"
	ln -s "$TMPD/saved-$f" "$GPUWISE_POOL_DIR/$f"
	run run -- true
	assert_eq "$rc" 125 "$f as a symbolic link: 125"
	assert_contains "$err" "$f is a symbolic link: refused" "$f as a symbolic link: says so"
	rm -f "$GPUWISE_POOL_DIR/$f"
	mv "$TMPD/saved-$f" "$GPUWISE_POOL_DIR/$f"
done
ln "$GPUWISE_POOL_DIR/gpu-$UUID" "$TMPD/second-link"
run run -- true
assert_eq "$rc" 125 "a lock file with a second hard link: 125"
assert_contains "$err" "not a plain file with one link" "and says so"
rm -f "$TMPD/second-link"
# A lock file of nobody's, mode 0666 (what a shared folder makes) or 0644
# (read-only to others): still a working lock.
chown "$NOBODY" "$GPUWISE_POOL_DIR/gpu-$UUID"
chmod 0644 "$GPUWISE_POOL_DIR/gpu-$UUID"
run run -- true
assert_eq "$rc" 0 "another user's read-only lock file still serves as the lock"
hold "$GPUWISE_POOL_DIR/gpu-$UUID"
run run --no-wait -- true
assert_eq "$rc" 124 "and a lease held on it is respected (no second holder)"
unhold
chown 0 "$GPUWISE_POOL_DIR/gpu-$UUID"
chmod 0666 "$GPUWISE_POOL_DIR/gpu-$UUID"

# gpuwise as another user (nobody) in a shared folder: root's files it may
# not open are a clear error that names owner and mode, never a crash.
chmod 0711 "$TMPD"
SHARED=$TMPD/shared
mkdir "$SHARED"
chmod 1777 "$SHARED"
as_nobody() { setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups -- "$GW" "$@" >"$TMPD/out" 2>"$TMPD/err"; rc=$?; out=$(cat "$TMPD/out"); err=$(cat "$TMPD/err"); }
GPUWISE_POOL_DIR=$SHARED run run -- true
assert_eq "$rc" 0 "root's run in the shared folder"
GPUWISE_POOL_DIR=$SHARED as_nobody run -- sh -c 'echo $GPUWISE_LEASE'
assert_eq "$rc" 0 "nobody's run after root's in a 1777 folder (files 0666)"
assert_eq "$out" 2 "nobody's job takes the next number"
chmod 0600 "$SHARED/gpu-$UUID"
GPUWISE_POOL_DIR=$SHARED as_nobody run -- true
assert_eq "$rc" 125 "a lock file nobody may not open: 125"
assert_contains "$err" "belongs to uid 0 with mode 0600" "the message names owner and mode"
GPUWISE_POOL_DIR=$SHARED as_nobody ps
assert_eq "$rc" 0 "ps as nobody still works"
chmod 0600 "$SHARED/next-ticket"
chmod 0666 "$SHARED/gpu-$UUID"
GPUWISE_POOL_DIR=$SHARED as_nobody run -- true
assert_eq "$rc" 125 "a counter nobody may not write: 125"
assert_contains "$err" "next-ticket: it belongs to uid 0 with mode 0600" "and says whose it is"
chmod 0700 "$TMPD"

# --- 40 concurrent runs on 8 GPUs (1- and 3-GPU requests) never share one ----
on h100-8x
wait_for '[ "$(running_jobs)$(waiting_jobs)" = 00 ]' 10
: >"$LOG"
conc='echo "start $(date +%s.%N) $CUDA_VISIBLE_DEVICES" >>'"$LOG"'; sleep 0.2; echo "end $(date +%s.%N) $CUDA_VISIBLE_DEVICES" >>'"$LOG"
t0=$(now)
for i in $(seq 40); do
	bg "c$i" run --gpus $((i % 2 ? 1 : 3)) --timeout 120 -- sh -c "$conc"
done
for i in $(seq 40); do
	wait_for "[ -f $TMPD/c$i.rc ]" 120 || { fail "concurrent run $i did not end"; break; }
done
t1=$(now)
checks=$((checks + 1))
bad=$(for i in $(seq 40); do [ "$(cat "$TMPD/c$i.rc" 2>/dev/null)" = 0 ] || echo "c$i"; done)
[ -z "$bad" ] || fail "concurrent runs failed: $bad ($(cat "$TMPD/c1.err"))"
checks=$((checks + 1))
python3 - "$LOG" <<'PYEOF' || fail "two concurrent jobs shared a GPU"
import sys
ev = [l.split() for l in open(sys.argv[1])]
assert len(ev) == 80, len(ev)
held = {}
for kind, t, uuids in sorted(ev, key=lambda e: (float(e[1]), e[0] == "start")):
    for u in uuids.split(","):
        if kind == "start":
            assert u not in held, "GPU %s given twice at %s" % (u, t)
            held[u] = t
        else:
            del held[u]
PYEOF
echo "run: 40 concurrent runs (20 x 1 GPU, 20 x 3 GPUs, 0.2 s each) on 8 GPUs: $(python3 -c "print('%.1f' % ($t1 - $t0))") s"

# --- --idle-timeout ends a job whose GPUs all stayed idle -----------------------
# Utilisation sequences advance one value per sample (the last one stays):
# the supervisor samples 4 times per idle timeout when that is under 4 s.
wait_for '[ "$(running_jobs)$(waiting_jobs)" = 00 ]' 10
# idle-machine NAME GPU4-UTIL-LIST: h100-8x with GPU 4's utilisation a sequence.
idle_machine() {
	mkdir -p "$TMPD/$1"
	python3 - "$MACHINES/h100-8x/machine.json" "$TMPD/$1/machine.json" "$2" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["nvml"]["devices"][4]["utilization"]["gpu"] = json.loads(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"))
PYEOF
}
acct() { python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall())" \
	"$GPUWISE_POOL_DIR/accounting.sqlite" "$1"; }
elapsed_between() { python3 -c "import sys; sys.exit(0 if $2 <= $1 < $3 else 1)"; }

t0=$(now)
run run --gpu 4 --idle-timeout 1s --name idle-victim -- sh -c 'sleep 30 & echo $! >'"$TMPD/idle-child.pid"'; wait'
t1=$(now)
assert_eq "$rc" 123 "--idle-timeout ends a job on an idle GPU with exit 123"
assert_contains "$err" "stayed idle (under 5 % utilisation)" "and says so on stderr"
checks=$((checks + 1))
elapsed_between "$t1 - $t0" 0.9 5 || fail "--idle-timeout 1s ended the job after $t0..$t1"
checks=$((checks + 1))
[ "$(ps -o stat= -p "$(cat "$TMPD/idle-child.pid")" 2>/dev/null | cut -c1)" = "" ] ||
	[ "$(ps -o stat= -p "$(cat "$TMPD/idle-child.pid")" | cut -c1)" = Z ] ||
	fail "SIGTERM did not reach the job's child (its process group)"
assert_eq "$(acct "SELECT ended_by, exit_status FROM jobs WHERE name = 'idle-victim'")" "[('idle-timeout', 143)]" \
	"the accounting log records the job as ended by idle-timeout (CMD's own status: SIGTERM)"

run run --gpu 0 --idle-timeout 0.5s -- sleep 2
assert_eq "$rc" 0 "a job on a busy GPU is not ended by --idle-timeout"
run run --gpu 0,4 --gpus 2 --idle-timeout 0.5s -- sleep 2
assert_eq "$rc" 0 "nor one with one busy GPU among idle ones (all must be idle)"

# Busy for 8 samples (2 s at 4 samples per second), then idle.
idle_machine idle-later '[90, 90, 90, 90, 90, 90, 90, 90, 0]'
GPUWISE_FAKE_MACHINE=$TMPD/idle-later/machine.json
t0=$(now)
run run --gpu 4 --idle-timeout 1s -- sleep 30
t1=$(now)
assert_eq "$rc" 123 "a GPU that falls idle: the job is ended"
checks=$((checks + 1))
elapsed_between "$t1 - $t0" 2.5 7 || fail "idle only after 2 s, yet the job ended after $t0..$t1"

# Idle stretches of 3 samples (0.75 s) broken by a busy one never add up
# to a 1 s idle timeout.
idle_machine idle-broken "$(python3 -c 'print([0, 0, 0, 90] * 20)')"
GPUWISE_FAKE_MACHINE=$TMPD/idle-broken/machine.json
run run --gpu 4 --idle-timeout 1s -- sleep 3
assert_eq "$rc" 0 "short idle stretches between busy samples do not add up"

# A job that ignores SIGTERM gets SIGKILL after --idle-grace, and so does
# what it started.
on h100-8x
t0=$(now)
run run --gpu 4 --idle-timeout 0.5s --idle-grace 1s -- sh -c 'trap "" TERM; sleep 30 & echo $! >'"$TMPD/idle-child.pid"'; wait'
t1=$(now)
assert_eq "$rc" 123 "a job ignoring SIGTERM is still ended (exit 123)"
checks=$((checks + 1))
elapsed_between "$t1 - $t0" 1.4 6 || fail "SIGKILL came at $t0..$t1, not about 1 s after SIGTERM"
assert_eq "$(acct "SELECT exit_status FROM jobs WHERE ended_by = 'idle-timeout' ORDER BY job DESC LIMIT 1")" "[(137,)]" \
	"it died of SIGKILL"
checks=$((checks + 1))
[ "$(ps -o stat= -p "$(cat "$TMPD/idle-child.pid")" 2>/dev/null | cut -c1)" = "" ] ||
	[ "$(ps -o stat= -p "$(cat "$TMPD/idle-child.pid")" | cut -c1)" = Z ] ||
	fail "SIGKILL did not reach the job's child"
# In its own process group the job must still own the terminal: it reads
# from it (a background group would be stopped by SIGTTIN) on a pty.
checks=$((checks + 1))
ptyres=$(timeout 30 python3 - "$GW" <<'PYEOF'
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "run", "--gpu", "4", "--idle-timeout", "60", "--", "sh", "-c",
                           "read x; echo got:$x"])
os.write(fd, b"hi\n")
out, end = b"", time.time() + 10
while time.time() < end and b"got:hi" not in out:
    if select.select([fd], [], [], 0.2)[0]:
        try:
            out += os.read(fd, 1024)
        except OSError:
            break
if b"got:hi" not in out:
    os.kill(pid, 9)
_, st = os.waitpid(pid, 0)
print("ok" if b"got:hi" in out and os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0 else "%r %r" % (out, st))
PYEOF
)
[ "$ptyres" = ok ] || fail "a job with --idle-timeout could not read its terminal: $ptyres"
run run --idle-timeout soon -- true
assert_eq "$rc" 2 "a bad --idle-timeout is a usage error"

# --- the accounting log's -wal file stays small ---------------------------------
# Each job's connection is the only one for a moment, so SQLite rebuilds the
# WAL index from the whole -wal file when it opens: that file must be folded
# back now and then, not grow with every job (128 frames at most, about 60
# jobs; 80 jobs write 160 or more).
on laptop-3060
acct=$TMPD/acct-pool
for i in $(seq 80); do GPUWISE_POOL_DIR=$acct "$GW" run -- true || break; done
wal=$(stat -c %s "$acct/accounting.sqlite-wal" 2>/dev/null || echo 0)
rows=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM jobs").fetchone()[0])' \
	"$acct/accounting.sqlite" 2>&1)
assert_eq "$rows" 80 "80 jobs, 80 rows in the accounting log"
checks=$((checks + 1))
[ "$wal" -le $((32 + 128 * (4096 + 24))) ] || fail "the accounting log's -wal file grows with every job: $wal bytes after 80 jobs"

# --- every process started here has ended --------------------------------------
for p in "${STARTED[@]}"; do kill -KILL "$p" 2>/dev/null; done
wait_for '[ -z "$(pgrep -f "$TMPD" 2>/dev/null)" ]' 5
left=$(pgrep -af "$TMPD" 2>/dev/null)
assert_eq "$left" "" "no process of the test is left"
finish
