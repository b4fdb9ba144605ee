#!/usr/bin/env bash
# gpuwise report on machines where it has little to say: no job in the
# period, GPUs that cannot be read (no driver, a lost GPU). It says what is
# true (no jobs; which GPUs could not be read and why) rather than "every
# GPU was leased", and looking creates nothing. The report of real jobs is
# tested with ps in test_ps.sh.
. "$(dirname "$0")/lib.sh"

export GPUWISE_POOL_DIR=$TMPD/pool

# No jobs, GPUs readable: no claim that every GPU was leased.
run_on h100-8x report
assert_eq "$rc" 0 "report without a log exits 0"
assert_contains "$out" "No jobs" "report says the log has no jobs"
assert_not_contains "$out" "Every GPU was leased" "and does not say every GPU was leased"
assert_contains "$out" "GPUs nobody leased:" "it lists the GPUs nobody leased"
# A log without a job in the period (the table gpuwise run makes).
mkdir -p "$TMPD/oldlog"
python3 - "$TMPD/oldlog/accounting.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE jobs (job INTEGER, uid INTEGER, user TEXT, name TEXT, command TEXT, gpus INTEGER,"
           " uuids TEXT, queued REAL, started REAL, ended REAL, exit_status INTEGER, gpu_seconds REAL,"
           " idle_gpu_seconds REAL, mean_util REAL, max_memory_bytes INTEGER, energy_j REAL, ended_by TEXT,"
           " slurm_job TEXT)")
db.commit()
PY
GPUWISE_POOL_DIR=$TMPD/oldlog run_on h100-8x report --since 1h
assert_contains "$out" "No job ended in this period." "report --since with no job says so"
GPUWISE_POOL_DIR=$TMPD/oldlog run_on h100-8x report
assert_contains "$out" "The accounting log holds no jobs yet." "an empty log: says it holds no jobs"
assert_not_contains "$out" "Every GPU was leased" "an empty log: no claim that every GPU was leased"

# No GPU can be read (no driver): report says why instead.
run_on no-driver report
assert_eq "$rc" 0 "report on a machine without a driver exits 0"
assert_not_contains "$out" "Every GPU was leased" "no-driver: does not say every GPU was leased"
assert_contains "$out" "Cannot tell which GPUs nobody leased: no GPU could be read" "no-driver: says the GPUs could not be read"
assert_contains "$out" "DRIVER_NOT_LOADED" "no-driver: and why, as list does"
run_on no-driver report --json
assert_json "report --json names the unreadable GPU" "
assert d['unleased_gpus'] == [], d
assert d['unreadable_gpus'] == [{'index': 0, 'health': 'no-driver', 'health_reason': 'no kernel driver bound'}], d
"

# One GPU lost: named with list's reason, the others listed as unleased.
run_on lost-gpu report
assert_contains "$out" "GPU 2 could not be read: lost" "lost-gpu: the lost GPU is named"
assert_contains "$out" "  3    GPU-" "lost-gpu: the readable GPUs are listed as unleased"
run_on lost-gpu report --json
assert_json "lost-gpu: report --json lists GPU 2 as unreadable" "
assert [g['index'] for g in d['unreadable_gpus']] == [2], d
assert [g['index'] for g in d['unleased_gpus']] == [0, 1, 3], d
"

# Looking creates nothing: no pool folder, no log; report says there is
# no log yet.
COLUMNS=200 run_on h100-8x report
assert_contains "$out" "No jobs: there is no accounting log yet ($GPUWISE_POOL_DIR/accounting.sqlite" "report says there is no log yet"
assert_eq "$([ -e "$GPUWISE_POOL_DIR" ] && echo exists || echo absent)" absent "report creates no pool folder"
mkdir -m 1777 "$GPUWISE_POOL_DIR"
run_on h100-8x report
assert_contains "$out" "No jobs: there is no accounting log yet" "an empty pool folder: no log yet"
assert_eq "$(ls -A "$GPUWISE_POOL_DIR")" "" "report creates nothing in the pool folder"

finish
