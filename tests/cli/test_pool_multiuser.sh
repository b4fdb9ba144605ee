#!/usr/bin/env bash
# gpuwise run/ps/report on a server shared by users who do not trust each
# other, in the no-daemon mode (docs/commands/run.md "The pool folder"):
# two throw-away accounts, A (the victim) and B (the attacker), each attack
# run as B with the command that once worked, then what A, root and report
# see. Needs root (useradd, runuser); skipped otherwise. Its pool folders
# live in a private temporary folder, so it runs beside other tests.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v useradd >/dev/null || ! command -v runuser >/dev/null; then
	echo "test_pool_multiuser.sh: skipped (needs root, useradd and runuser)"
	exit 0
fi

A=gwa$$r$RANDOM
B=gwb$$r$RANDOM
STARTED=()
cleanup() {
	local p
	for p in "${STARTED[@]}"; do kill -KILL -- "-$p" 2>/dev/null; done
	for u in "$A" "$B"; do
		id "$u" >/dev/null 2>&1 && { userdel -r "$u" 2>/dev/null || userdel -f "$u" 2>/dev/null; }
	done
	rm -rf "$TMPD"
}
trap cleanup EXIT

# useradd waits for no one: /etc/passwd may be locked by a test beside us.
add_user() {
	local i
	for i in $(seq 50); do
		useradd -M -N -d /nonexistent -s /bin/sh "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "FAIL: cannot create user $1"
	exit 1
}
add_user "$A"
add_user "$B"
UA=$(id -u "$A")
UB=$(id -u "$B")

export GPUWISE_FAKE_MACHINE=$MACHINES/h100-8x/machine.json GPUWISE_ROOT=/ LD_LIBRARY_PATH=$BUILD/fake
UUID0=$(mjson h100-8x 'm["nvml"]["devices"][0]["uuid"]')
chmod 0711 "$TMPD"
# A /var/tmp of our own: anyone may make a folder in it.
VT=$TMPD/vartmp
mkdir -m 1777 "$VT"
# The shared pool an administrator made: root's, mode 1777.
POOL=$TMPD/shared
mkdir "$POOL" && chmod 1777 "$POOL"

now() { date +%s.%N; }
# as USER ARGS...: gpuwise as USER; $out $err $rc
as() {
	local u=$1
	shift
	last_cmd="gpuwise $* (as $u)"
	runuser -u "$u" -- "$GW" "$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	out=$(cat "$TMPD/out")
	err=$(cat "$TMPD/err")
}
# bg_as USER ARGS...: a command as USER in the background, leading a
# process group of its own (its pid in $! and STARTED: kill_jobs ends the
# group).
bg_as() {
	local u=$1
	shift
	setsid setpriv --reuid="$(id -u "$u")" --regid="$(id -g "$u")" --clear-groups -- "$@" >/dev/null 2>&1 &
	STARTED+=("$!")
}
kill_jobs() {
	local p
	for p in "${STARTED[@]}"; do kill -KILL -- "-$p" 2>/dev/null; done
	STARTED=()
	sleep 0.3
}
within() { # START END MAX what
	checks=$((checks + 1))
	python3 -c "import sys; sys.exit(0 if $2 - $1 <= $3 else 1)" || fail "$4: took $(python3 -c "print(round($2 - $1, 2))") s"
}
locked() { ! flock -n -x "$1" true 2>/dev/null; }
export GPUWISE_POOL_DIR=$POOL

# --- 1. the pool folder -------------------------------------------------------
# A missing folder is made by its first user for that user alone, never
# 1777 for everyone; nobody else (root included) accepts it.
GPUWISE_POOL_DIR=$VT/gpuwise as "$A" run -- true
assert_eq "$rc" 0 "A's run in a missing folder"
assert_eq "$(stat -c '%U %a' "$VT/gpuwise")" "$A 700" "the folder is A's own, mode 700 (before: 1777)"
GPUWISE_POOL_DIR=$VT/gpuwise as "$B" run -- true
assert_eq "$rc" 125 "B refuses A's folder (125)"
assert_contains "$err" "another ordinary user: refused" "and says whose it is"
GPUWISE_POOL_DIR=$VT/gpuwise run run -- true
assert_eq "$rc" 125 "root refuses it too"
# The folder made 1777 by its first user (as before): the sticky bit does
# not stop its owner, so nobody trusts it, not even that owner.
runuser -u "$A" -- chmod 1777 "$VT/gpuwise"
GPUWISE_POOL_DIR=$VT/gpuwise as "$B" run -- true
assert_eq "$rc" 125 "B refuses A's 1777 folder"
GPUWISE_POOL_DIR=$VT/gpuwise as "$A" run -- true
assert_eq "$rc" 125 "A refuses its own world-writable folder"
GPUWISE_POOL_DIR=$VT/gpuwise run run -- true
assert_eq "$rc" 125 "root refuses a 1777 folder that is not root's"
# The folder replaced by a link to a folder of B's choosing.
runuser -u "$B" -- mkdir -m 0777 "$VT/b-target"
runuser -u "$B" -- ln -s "$VT/b-target" "$VT/b-link"
GPUWISE_POOL_DIR=$VT/b-link run run -- true
assert_eq "$rc" 125 "root refuses a pool folder that is a link"
assert_contains "$err" "symbolic link" "and says so"
assert_eq "$(ls "$VT/b-target")" "" "nothing was made in B's folder (before: accounting.sqlite 0666)"

# In the administrator's folder B can neither remove A's files nor take
# A's GPU.
run run --gpu 0 -- true   # root's lease file for GPU 0
bg_as "$A" "$GW" run --gpu 0 --name victim -- sleep 30
wait_for "locked '$POOL/gpu-$UUID0'" 10 || fail "A's job did not start"
runuser -u "$B" -- sh -c "rm -f '$POOL'/job-* '$POOL/gpu-$UUID0'" 2>/dev/null
checks=$((checks + 1))
[ -e "$POOL/gpu-$UUID0" ] && ls "$POOL"/job-* >/dev/null 2>&1 || fail "B removed root's lease file or A's job file"
as "$B" run --no-wait --gpu 0 -- true
assert_eq "$rc" 124 "B does not get A's GPU"
as "$B" ps
assert_contains "$out" "victim" "ps as B still shows A's job (before: no jobs)"
kill_jobs

# --- 2. never blocked where the user said not to ---------------------------------
bg_as "$B" flock "$POOL/lock" sleep 20
wait_for "locked '$POOL/lock'" 10 || fail "B's flock did not start"
t0=$(now)
as "$A" run --no-wait -- true
t1=$(now)
assert_eq "$rc" 124 "A's --no-wait gives up (124) while B holds the pool's lock"
within "$t0" "$t1" 2 "--no-wait returns at once (before: 19.6 s)"
assert_contains "$err" "user $B" "and names who holds the lock"
t0=$(now)
as "$A" run --timeout 2s -- true
t1=$(now)
assert_eq "$rc" 124 "A's --timeout 2s gives up (124)"
within "$t0" "$t1" 3.5 "--timeout 2s returns after about 2 s"
# SIGTERM while waiting for the lock: out without starting the command.
bg_as "$A" "$GW" run -- touch "$TMPD/started"
wpid=$!
sleep 1
t0=$(now)
kill -TERM "$wpid"
wait "$wpid"
rc=$?
t1=$(now)
assert_eq "$rc" 143 "SIGTERM during the wait: 143"
within "$t0" "$t1" 2 "SIGTERM ends the wait at once"
checks=$((checks + 1))
[ ! -e "$TMPD/started" ] || fail "the command ran after SIGTERM"
t0=$(now)
timeout 10 runuser -u "$A" -- "$GW" ps >"$TMPD/out" 2>"$TMPD/err"
rc=$?
t1=$(now)
out=$(cat "$TMPD/out")
assert_eq "$rc" 0 "ps returns while B holds the lock (before: it hung)"
within "$t0" "$t1" 5 "ps is quick"
assert_contains "$out" "the pool's lock: locked without a job" "ps names the lock held without a job"
assert_contains "$out" "user $B" "and its holder"
kill_jobs
# A GPU's file locked by B: not "every GPU free" in ps, and a give-up
# says who holds it.
bg_as "$B" flock "$POOL/gpu-$UUID0" sleep 20
wait_for "locked '$POOL/gpu-$UUID0'" 10 || fail "B's flock on a GPU did not start"
as "$A" ps
assert_not_contains "$out" "every GPU of the pool is free" "ps does not call a locked GPU free"
assert_contains "$out" "GPU $UUID0: locked without a job by pid" "ps shows the GPU's lock without a job"
as "$A" run --no-wait --gpu 0 -- true
assert_eq "$rc" 124 "A's --no-wait on that GPU gives up"
assert_contains "$err" "user $B" "naming who holds it"
kill_jobs
# A job's leftover background process keeps its lease: ps shows it.
as "$A" run --gpu 1 -- sh -c 'sleep 20 >/dev/null 2>&1 & echo $!'
leftover=$out
UUID1=$(mjson h100-8x 'm["nvml"]["devices"][1]["uuid"]')
as "$B" ps
assert_contains "$out" "GPU $UUID1: locked without a job by pid" "a job's leftover process is shown to B"
as "$A" ps
assert_contains "$out" "by pid $leftover (user $A, sleep), left by an ended process" "and to A, with the process that keeps it"
kill -KILL "$leftover" 2>/dev/null
kill_jobs

# --- 3. the accounting log ---------------------------------------------------------
as "$A" run --gpu 2 -- sleep 0.2
DBA=$POOL/accounting-$UA.sqlite
assert_eq "$(stat -c '%U %a' "$DBA")" "$A 644" "A's rows go to A's own file, 0644 (before: one 0666 file)"
assert_eq "$(stat -c '%U %a' "$DBA-wal") $(stat -c '%U %a' "$DBA-shm")" "$A 644 $A 644" "so do its -wal and -shm"
checks=$((checks + 1))
runuser -u "$B" -- sqlite3 "$DBA" "CREATE TRIGGER t AFTER INSERT ON jobs BEGIN DELETE FROM jobs; END;" 2>/dev/null &&
	fail "B could add a trigger to A's log"
checks=$((checks + 1))
runuser -u "$B" -- sqlite3 "$DBA" "INSERT INTO jobs SELECT * FROM jobs;" 2>/dev/null && fail "B could double A's rows"
# B's own log: rows forged for A count for B.
as "$B" run --gpu 2 -- true
DBB=$POOL/accounting-$UB.sqlite
runuser -u "$B" -- sqlite3 "$DBB" "INSERT INTO jobs (job, uid, user, gpus, queued, started, ended, gpu_seconds, idle_gpu_seconds)
	VALUES (99, $UA, '$A', 8, strftime('%s','now') - 86400, strftime('%s','now') - 86400, strftime('%s','now'), 691200, 0);"
run report --json
assert_json "report counts B's forged rows for B, not A (before: 192 GPU-hours for A)" '
u = {x["user"]: x for x in d["users"]}
assert u["'"$A"'"]["gpu_seconds"] < 3600, u
assert u["'"$B"'"]["gpu_seconds"] > 190 * 3600, u
'
# A trigger and a view in B's own log: B's next row is refused, report
# skips the file, nobody spins.
runuser -u "$B" -- sqlite3 "$DBB" "CREATE VIEW spin AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c;
	CREATE TRIGGER burn AFTER INSERT ON jobs BEGIN SELECT count(*) FROM spin; END;"
t0=$(now)
as "$B" run --gpu 2 -- true
t1=$(now)
assert_eq "$rc" 0 "B's job runs"
assert_contains "$err" "unexpected schema object" "its row is refused, and B is told"
within "$t0" "$t1" 4 "the trigger costs B's run nothing (before: 9 minutes at 89 % CPU)"
t0=$(now)
run report --json
t1=$(now)
assert_eq "$rc" 0 "root's report runs"
assert_contains "$err" "unexpected schema object" "and says which file it skipped"
within "$t0" "$t1" 4 "report does not spin on B's trigger"
# A lock on A's log (B may read it, so B may hold a read lock on its
# -shm's write-lock byte): A's job is delayed a bounded time, and A is told.
bg_as "$B" /usr/bin/python3 -c "
import fcntl, time
f = open('$DBA-shm', 'rb')
fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB, 8, 120)
open('$VT/shm-locked', 'w').close()
time.sleep(20)"
wait_for "[ -e '$VT/shm-locked' ]" 10 || fail "B could not lock A's -shm"
t0=$(now)
as "$A" run --gpu 2 -- true
t1=$(now)
assert_eq "$rc" 0 "A's job runs while B locks A's log"
within "$t0" "$t1" 4 "the locked log delays it a bounded time (before: 5 s per job)"
assert_contains "$err" "could not be written to the accounting log" "and A is told the row was lost"
kill_jobs
# root's report leaves A's -wal and -shm alone.
run report
checks=$((checks + 1))
[ "$(stat -c %U "$DBA-wal" "$DBA-shm" 2>/dev/null | sort -u)" = "$A" ] || fail "report removed or took over A's -wal/-shm"
# A log file B planted under A's name before A's first job: refused.
P2=$TMPD/shared2
mkdir "$P2" && chmod 1777 "$P2"
runuser -u "$B" -- sh -c "umask 0; sqlite3 '$P2/accounting-$UA.sqlite' 'CREATE TABLE jobs (job INTEGER, uid INTEGER, user TEXT, name TEXT, command TEXT, gpus INTEGER, uuids TEXT, queued REAL, started REAL, ended REAL, exit_status INTEGER, gpu_seconds REAL, idle_gpu_seconds REAL, mean_util REAL, max_memory_bytes INTEGER, energy_j REAL, ended_by TEXT, slurm_job TEXT);'"
GPUWISE_POOL_DIR=$P2 as "$A" run --gpu 3 -- true
assert_eq "$rc" 0 "A's job runs"
assert_contains "$err" "belongs to another user" "A's row is not written into B's file, and A is told"
GPUWISE_POOL_DIR=$P2 run report
assert_contains "$err" "skipped" "report skips the planted file"

# --- 4. the queue ------------------------------------------------------------------
# A waiter asking for more GPUs than exist reserves none.
runuser -u "$B" -- sh -c "printf 'state=waiting\npid=1\njob_pid=0\nuid=$UB\nqueued=1\nsince=1\ngpus=1024\neligible=*\nmin_free=0\nmax_util=-1\nname=hog\ncommand=hog\nleased=\n' >'$POOL/job-000000000001'"
bg_as "$B" flock "$POOL/job-000000000001" sleep 20
wait_for "locked '$POOL/job-000000000001'" 10 || fail "B's waiter did not start"
t0=$(now)
as "$A" run --timeout 5s -- true
t1=$(now)
assert_eq "$rc" 0 "A's job runs past a fake waiter for 1024 GPUs (before: gave up after 5 s)"
within "$t0" "$t1" 2 "at once"
# next-ticket set back to 1: B does not get ahead of A.
bg_as "$A" "$GW" run --gpu 4 -- sleep 20
wait_for "locked '$POOL/gpu-$(mjson h100-8x 'm["nvml"]["devices"][4]["uuid"]')'" 10 || fail "A's job did not start"
runuser -u "$B" -- sh -c "echo 1 >'$POOL/next-ticket'"
as "$B" run --gpu 5 -- sh -c 'echo $GPUWISE_LEASE'
alead=$(ls "$POOL" | sed -n 's/^job-0*//p' | sort -n | tail -1)
checks=$((checks + 1))
[ "${out:-0}" -gt "${alead:-0}" ] || fail "B's ticket $out is not above A's live job $alead"
# A 13-digit ticket: no job is lost, no run fails.
runuser -u "$B" -- sh -c "echo 1234567890123 >'$POOL/next-ticket'"
as "$A" run --gpu 5 -- true
assert_eq "$rc" 0 "a 13-digit ticket does not make runs fail"
kill_jobs
# 40,000 junk job-* names: not counted against the listing cap.
runuser -u "$B" -- sh -c "cd '$POOL' && seq 40000 | sed 's/^/job-junk-/' | xargs touch"
bg_as "$A" "$GW" run --gpu 6 --name visible -- sleep 20
wait_for "locked '$POOL/gpu-$(mjson h100-8x 'm["nvml"]["devices"][6]["uuid"]')'" 10 || fail "A's job did not start"
as "$B" ps
assert_contains "$out" "visible" "ps still shows A's job among 40,000 junk names (before: no jobs)"
runuser -u "$B" -- sh -c "cd '$POOL' && seq 40000 | sed 's/^/job-junk-/' | xargs rm -f"
kill_jobs
# Raw escape sequences and forged fields in B's job file.
runuser -u "$B" -- sh -c "printf 'state=running\npid=1\njob_pid=1\nuid=0\nqueued=1\nsince=1\ngpus=1\neligible=*\nmin_free=0\nmax_util=-1\nname=\033]0;pwned\007\033[2J\nname2=x\ncommand=\033[31mred\nleased=$UUID0\n' >'$POOL/job-000000000777'"
bg_as "$B" flock "$POOL/job-000000000777" sleep 20
wait_for "locked '$POOL/job-000000000777'" 10 || fail "B's job file was not locked"
as "$A" ps
checks=$((checks + 1))
case $out in *$'\033'* | *$'\007'*) fail "ps sent B's raw escape sequences to the terminal" ;; esac
assert_contains "$out" '\x1b]0;pwned\x07' "ps shows them escaped"
as "$A" ps --json
assert_json "ps trusts the kernel, not the record: pid, user and GPUs" '
j = [x for x in d["jobs"] if x["job"] == 777][0]
assert j["pid"] != 1, j
assert j["user"] == "'"$B"'", j
assert j["gpus"] == [], j
'
kill_jobs
# Slurm task files: B plants files under the names A's next task will use
# (the old slurm-JOB.STEP.TASK and the new slurm-UID-JOB.STEP.TASK); A's
# prolog and epilog still report the task (before: the row was dropped).
for f in "slurm-77.0.0" "slurm-$UA-77.0.0"; do
	runuser -u "$B" -- sh -c "echo 1 >'$POOL/$f'"
done
runuser -u "$A" -- env SLURM_JOB_ID=77 SLURM_STEP_ID=0 SLURM_LOCALID=0 CUDA_VISIBLE_DEVICES="$UUID0" \
	sh -c "'$GW' slurm prolog && sleep 1.5 && '$GW' slurm epilog" >"$TMPD/slurm.out" 2>&1
assert_eq "$?" 0 "A's Slurm prolog and epilog run beside B's planted files: $(cat "$TMPD/slurm.out")"
checks=$((checks + 1))
rows=$(sqlite3 "$POOL/accounting-$UA.sqlite" "SELECT count(*) FROM jobs WHERE slurm_job = '77.0.0' AND uid = $UA" 2>&1)
[ "$rows" = 1 ] || fail "A's Slurm task has no row in A's log ($rows)"
checks=$((checks + 1))
ls "$POOL" | grep -q "^slurm-$UA-77\.0\.0\.1\$" && fail "A's sampler left its pid file behind"
finish
