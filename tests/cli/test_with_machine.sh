#!/usr/bin/env bash
# scripts/with-machine itself: a run killed with SIGKILL (a test's hard
# timeout kills its whole process group) leaves its private root behind, and
# the next run removes it; roots of live runs, and folders that name no
# owner, are left alone.
. "$(dirname "$0")/lib.sh"
WM=$TOP/scripts/with-machine
last_cmd="scripts/with-machine"
base=$TMPD/wm
mkdir -p "$base"

# A run killed together with its command, as pytest's killpg does.
setsid env TMPDIR="$base" "$WM" a100-mig -- sleep 30 >/dev/null 2>&1 &
killer=$!
for _ in $(seq 100); do
	ls "$base"/gpuwise-machine.*/owner >/dev/null 2>&1 && break
	sleep 0.05
done
stale=$(ls -d "$base"/gpuwise-machine.* 2>/dev/null)
assert_eq "$(printf '%s\n' "$stale" | grep -c .)" 1 "a running root exists"
kill -9 -- "-$killer" 2>/dev/null
{ wait "$killer"; } 2>/dev/null
assert_eq "$(ls -d "$base"/gpuwise-machine.* 2>/dev/null)" "$stale" "SIGKILL leaves the root behind"

mkdir "$base/gpuwise-machine.alive" "$base/gpuwise-machine.noowner"
echo $$ >"$base/gpuwise-machine.alive/owner"
inside=$(TMPDIR="$base" "$WM" a100-mig -- sh -c 'ls "$0"' "$base")
assert_eq "$(printf '%s\n' "$inside" | grep -c "${stale##*/}")" 0 "the next run removes the dead run's root"
assert_contains "$inside" "gpuwise-machine.alive" "a live owner's root is kept"
assert_contains "$inside" "gpuwise-machine.noowner" "a folder without an owner is kept"
assert_eq "$(ls "$base" | tr '\n' ' ')" "gpuwise-machine.alive gpuwise-machine.noowner " \
	"and the run removed its own root at the end"
finish
