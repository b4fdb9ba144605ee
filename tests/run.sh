#!/usr/bin/env bash
# Runs the test suites as independent tasks, several at a time, and ends with
# each suite's time and one "N passed, N failed" line.
#   tests/run.sh            everything (what `make test` runs)
#   tests/run.sh quick      the normal build only: lint, unit, fuzz replays, CLI, Python, install
#   tests/run.sh check      the inner loop (`make check`): lint, exports, unit, fuzz replays
# GPUWISE_TEST_JOBS sets how many tasks run at once (default: twice the
# cores, since most CLI tests wait on processes they started, not on a core).
# A task's output goes to build/test-logs/<task>.log; a failing task's tail
# is printed when it ends.
# Suites:
#   lint     tests/lint/*.sh                layering (includes and nm), pipefail
#   abi      tests/abi/test_exports.sh      libgpuwise.so exports tests/abi/libgpuwise.symbols only
#   unit     build/tests/test_*             C unit tests, one program each
#   fuzz-replay build/fuzz/*-replay         fuzz corpora replayed as tests
#   cli      tests/cli/test_*.sh            end-to-end over the fake machines (each its own
#            temporary folder, pool folder and kernel-chosen ports, so they run side by side)
#   python   tests/python/                  pytest (peers pynvml/gpustat/nvitop, module)
#   install  make install/uninstall; full only: the Python wheel, the Debian packages, the
#            build without optional libraries
#   asan     unit, cli and fuzz replays again under ASan+UBSan (build/asan)      full only
#   fault    GPUWISE_FAULT loop per fake machine (ASan build)                    full only
#   fuzz     every target built with libFuzzer as scripts/fuzz builds it          full only
#   valgrind the normal build under memcheck                                      full only
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-full}
case $MODE in full | quick | check) ;; *) echo "usage: tests/run.sh [full|quick|check]" >&2; exit 2 ;; esac
CORES=$(nproc 2>/dev/null || echo 2)
JOBS=${GPUWISE_TEST_JOBS:-$((CORES * 2))}
LOGS=build/test-logs
# python3 on PATH may be a version manager's shim (pyenv: a chain of bash
# scripts run at every start, several times the interpreter's own start):
# the tests start Python hundreds of times, so the interpreter's own folder
# goes first on PATH, as the shim itself would put it for the program.
py=$(command -v python3)
if [ -n "$py" ] && IFS= read -r -n2 hdr 2>/dev/null <"$py" && [ "$hdr" = '#!' ]; then
	py=$(python3 -S -c 'import os, sys; print(os.path.dirname(sys.executable))' 2>/dev/null)
	[ -n "$py" ] && [ -x "$py/python3" ] && export PATH=$py:$PATH
fi
rm -rf "$LOGS"
mkdir -p "$LOGS"
T0=$EPOCHREALTIME

# ---- the task table: name, what it needs built first (plain, asan or -), command.
names=() needs=() cmds=()
task() { names+=("$1"); needs+=("$2"); cmds+=("$3"); }

# intercept_tls_get_addr=0: up to GCC 13 / LLVM 16 the sanitizer runtime's
# __tls_get_addr interceptor takes a malloc'd dynamic TLS block whose address
# is 16 bytes past a page boundary for a glibc 2.19 header, reads a bogus
# range from it, and LeakSanitizer's tracer dies on it at exit ("Tracer
# caught signal 11", google/sanitizers#1322): seen on bench with no locale
# set, every time. Without the interceptor LSan does not scan dynamic TLS,
# which can only add leak reports, never hide one.
ASAN_ENV="ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
unit_tasks() { # build suffix needs
	local src t
	for src in tests/unit/test_*.c; do
		t=$(basename "$src" .c)
		task "unit:$t$2" "$3" "[ -x $1/tests/$t ] || { echo '$1/tests/$t was not built'; exit 1; }; $4 $1/tests/$t"
	done
	task "unit:test_abi$2" "$3" "$4 $1/tests/test_abi"
}
fuzz_tasks() { # build suffix needs env
	local src t
	for src in tests/fuzz/fuzz_*.c; do
		t=$(basename "$src" .c)
		# The exporter's target exists only where its libraries do (Makefile).
		task "fuzz-replay:$t$2" "$3" "[ -x $1/fuzz/$t-replay ] || { echo 'SKIP: not built'; exit 0; }; $4 $1/fuzz/$t-replay tests/fuzz/corpus/${t#fuzz_}"
	done
}
cli_tasks() { # build suffix needs env
	local t
	for t in $(slow_first tests/cli/test_*.sh); do
		task "cli:$(basename "$t")$2" "$3" "env GPUWISE_BUILD=$1 $4 bash $t"
	done
}
# The CLI scripts that take longest start first, so the last minutes are not
# spent waiting on one of them alone (build/test-logs/times.tsv of a full run
# says how long each took, wall and CPU seconds).
SLOW="test_doctor.sh test_doctor_language.sh test_language.sh test_text.sh test_run.sh test_exporter.sh
test_top.sh test_hostile_input.sh test_dashboards.sh test_slurm.sh"
slow_first() {
	local s t slow
	# One space between names: SLOW spans two lines, and a name followed by
	# the newline did not match " NAME " below, so test_exporter.sh and
	# test_top.sh were queued twice (two slowloris attacks at once).
	slow=" $(echo $SLOW) "
	for s in $SLOW; do [ -f "tests/cli/$s" ] && echo "tests/cli/$s"; done
	for t in "$@"; do case "$slow" in *" $(basename "$t") "*) ;; *) echo "$t" ;; esac; done
}

if [ "$MODE" = full ]; then
	task build:asan - "make -s -j$CORES SAN=1 BUILD=build/asan all"
	cli_tasks build/asan " (asan)" build:asan "$ASAN_ENV"
	for m in h100-8x lost-gpu mixed-nvidia-amd a100-mig; do
		task "fault:$m" build:asan "GPUWISE_FAULT_MACHINES=$m bash tests/fault/run.sh"
	done
	task install:deb - "bash tests/install/test_deb.sh"
	task install:python-wheel - "bash tests/install/test_python_wheel.sh"
	task fuzz:libfuzzer-build - "bash tests/fuzz/test_libfuzzer_build.sh"
	task valgrind build "bash tests/valgrind/run.sh"
	task install:minimal-build - "bash tests/install/test_minimal_build.sh"
fi
if [ "$MODE" != check ]; then
	task python:pytest build "[ -x build/venv/bin/python ] && build/venv/bin/python -c 'import pytest' || { echo 'build/venv missing (run scripts/setup)'; exit 1; }
		build/venv/bin/python -m pytest -q tests/python; rc=\$?; [ \$rc = 5 ] && rc=0; exit \$rc"
	cli_tasks build "" build ""
	task install:make-install build "bash tests/install/test_make_install.sh build"
fi
for l in tests/lint/*.sh; do task "lint:$(basename "$l" .sh)" build "bash $l"; done
task abi:exports build "bash tests/abi/test_exports.sh build"
unit_tasks build "" build ""
fuzz_tasks build "" build ""
if [ "$MODE" = full ]; then
	unit_tasks build/asan " (asan)" build:asan "$ASAN_ENV"
	fuzz_tasks build/asan " (asan)" build:asan "$ASAN_ENV"
fi

# ---- the scheduler
declare -A state=() started=() took=() cpu=() pid_of=()
pass=0 fail=0 failed_names=()
log_of() { local n=${1//[^A-Za-z0-9_.-]/_}; echo "$LOGS/$n.log"; }
finish_task() { # index rc
	local i=$1 rc=$2 n=${names[$1]}
	took[$i]=$(awk -v a="${started[$i]}" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	# the second line of `times`: children's user and system time, "1m2.5s 0m3.1s"
	cpu[$i]=$(sed -n 2p "$(log_of "$n").cpu" 2>/dev/null | awk '{ t = 0
		for (f = 1; f <= 2; f++) { split($f, p, "m"); t += p[1] * 60 + p[2] }
		printf "%.1f", t }')
	rm -f "$(log_of "$n").cpu"
	if [ "$rc" = 0 ]; then
		state[$i]=pass pass=$((pass + 1))
		printf 'ok    %-44s %6s s\n' "$n" "${took[$i]}"
	else
		state[$i]=fail fail=$((fail + 1)) failed_names+=("$n")
		printf 'FAIL  %-44s %6s s (exit %s)\n' "$n" "${took[$i]}" "$rc"
		tail -40 "$(log_of "$n")" | sed 's/^/    | /'
	fi
}
ready() { # index: 0 ready, 1 wait, 2 never (what it needs failed)
	local need=${needs[$1]} j
	[ "$need" = - ] && return 0
	[ "$need" = build ] && return 0    # built before the scheduler starts
	for j in "${!names[@]}"; do
		[ "${names[$j]}" = "$need" ] || continue
		case ${state[$j]:-} in pass) return 0 ;; fail) return 2 ;; *) return 1 ;; esac
	done
	return 2
}

echo "== build"
if ! make -s -j"$CORES" all >"$LOGS/build.log" 2>&1; then
	cat "$LOGS/build.log"
	echo "build failed"
	echo "0 passed, 1 failed"
	exit 1
fi
stop_tasks() {
	local p
	for p in "${!pid_of[@]}"; do kill -TERM -- "-$p" 2>/dev/null; done
	sleep 1
	for p in "${!pid_of[@]}"; do kill -KILL -- "-$p" 2>/dev/null; done
}
trap 'echo "stopped: ending the running tasks"; stop_tasks; exit 130' INT TERM HUP
echo "== ${#names[@]} tasks, $JOBS at a time"
running=0
while :; do
	for i in "${!names[@]}"; do
		[ "$running" -lt "$JOBS" ] || break
		[ -z "${state[$i]:-}" ] || continue
		ready "$i"
		case $? in
		1) continue ;;
		2) state[$i]=fail fail=$((fail + 1)) failed_names+=("${names[$i]}"); started[$i]=$EPOCHREALTIME took[$i]=0
		   echo "FAIL  ${names[$i]}: needs ${needs[$i]}, which failed"; continue ;;
		esac
		state[$i]=running started[$i]=$EPOCHREALTIME
		# Each task in a session of its own, so that stopping this run
		# (Ctrl-C, a CI timeout) can end everything a task started.
		# `times` after it: the CPU time of the processes it waited for
		# (the suite is CPU-bound; wall time on a busy host says little).
		setsid bash -c "( ${cmds[$i]} ); rc=\$?; times >'$(log_of "${names[$i]}").cpu'; exit \$rc" \
			</dev/null >"$(log_of "${names[$i]}")" 2>&1 &
		pid_of[$!]=$i
		running=$((running + 1))
	done
	[ "$running" = 0 ] && break
	wait -n -p done_pid
	rc=$?
	finish_task "${pid_of[$done_pid]}" "$rc"
	unset "pid_of[$done_pid]"
	running=$((running - 1))
done

# ---- what each suite cost: the sum of its tasks' times, and its longest task
{
	for i in "${!names[@]}"; do printf '%s\t%s\t%s\n' "${names[$i]}" "${took[$i]:-0}" "${cpu[$i]:-0}"; done
} | sort -t$'\t' -k2,2gr >"$LOGS/times.tsv"
echo
echo "suite          tasks   task-seconds   cpu-seconds   longest task"
awk -F'\t' '{
	suite = $1; sub(/:.*/, "", suite); if ($1 ~ / \(asan\)$/) suite = suite " (asan)"
	n[suite]++; s[suite] += $2; c[suite] += $3; if ($2 > m[suite]) { m[suite] = $2; w[suite] = $1 }
} END { for (k in n) printf "%-14s %5d %14.0f %13.0f   %s (%.0f s)\n", k, n[k], s[k], c[k], w[k], m[k] }' "$LOGS/times.tsv" | sort -k4,4nr
awk -v a="$T0" -v b="$EPOCHREALTIME" 'BEGIN { printf "wall time: %.0f s (build included)\n", b - a }'
echo
[ ${#failed_names[@]} -gt 0 ] && printf 'failed: %s\n' "${failed_names[@]}"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
