# Helpers for the end-to-end CLI tests. Source it from tests/cli/test_*.sh:
#   . "$(dirname "$0")/lib.sh"
#   run_on h100x8 list --json     # sets $out, $err, $rc
#   assert_eq "$rc" 0 "list exits 0"
#   finish                        # prints the summary, exits 1 on any failure
# GPUWISE_BUILD (default build) picks the build: build/asan for sanitizers.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
TOP=$PWD
BUILD=${GPUWISE_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
GW=$BUILD/gpuwise
MACHINES=$TOP/tests/machines
PY=${PYTHON:-python3}
failures=0 checks=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gw-cli.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT

[ -x "$GW" ] || { echo "FAIL: $GW is not built"; exit 1; }

fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
pass() { :; }

# Keep the real machine out of every test: no vendor library from the
# system, no colour, an empty root unless a test gives one.
unset GPUWISE_FAKE_MACHINE CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER GPUWISE_NVML_LIBRARY GPUWISE_CUDA_LIBRARY
export NO_COLOR=1
EMPTY_ROOT=$TMPD/empty-root
mkdir -p "$EMPTY_ROOT"

# run CMD... : runs gpuwise with the current environment; $out $err $rc.
run() {
	"$GW" "$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	out=$(cat "$TMPD/out")
	err=$(cat "$TMPD/err")
	last_cmd="gpuwise $*"
}

# The machines: every folder of tests/machines with a machine.json.
machines() {
	local m
	for m in "$MACHINES"/*/; do
		[ -f "$m/machine.json" ] && basename "$m"
	done
}

# run_on MACHINE ARGS... : runs gpuwise against a fake machine, the way
# scripts/with-machine does (the three ◆ variables), but with the fake
# libraries of $BUILD, so the ASan build tests its own fakes.
run_on() {
	local m=$1 dir
	shift
	dir=$MACHINES/$m
	local root=$dir/root
	[ -d "$root" ] || root=$EMPTY_ROOT
	GPUWISE_FAKE_MACHINE=$dir/machine.json GPUWISE_ROOT=$root \
		LD_LIBRARY_PATH=$BUILD/fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		run "$@"
	last_cmd="[$m] $last_cmd"
}

# A machine.json query: mjson MACHINE 'python expression over m'.
mjson() {
	"$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$MACHINES/$1/machine.json" "$2"
}

assert_eq() { # actual expected what
	checks=$((checks + 1))
	[ "$1" = "$2" ] || fail "$3: got '$1', want '$2' ($last_cmd)${err:+; stderr: ${err:0:300}}"
}

assert_ne() { # actual unexpected what
	checks=$((checks + 1))
	[ "$1" != "$2" ] || fail "$3: got '$1' ($last_cmd)"
}

assert_contains() { # haystack needle what
	checks=$((checks + 1))
	case $1 in *"$2"*) ;; *) fail "$3: '$2' not in output of $last_cmd: ${1:0:600}" ;; esac
}

assert_not_contains() { # haystack needle what
	checks=$((checks + 1))
	case $1 in *"$2"*) fail "$3: '$2' unexpectedly in output of $last_cmd: ${1:0:600}" ;; esac
}

# Exactly one line of the form "gpuwise: ..." on stderr.
assert_one_error_line() { # what
	checks=$((checks + 1))
	local n
	n=$(printf '%s\n' "$err" | grep -c .)
	[ "$n" = 1 ] && [ "${err#gpuwise: }" != "$err" ] ||
		fail "$1: want one 'gpuwise: ...' line on stderr, got: $err ($last_cmd)"
}

# assert_json WHAT PYTHON-STATEMENTS: $out parsed as d (and machine.json as
# m when $JSON_MACHINE is set); the statements use assert.
assert_json() {
	checks=$((checks + 1))
	local msg
	if ! msg=$(printf '%s' "$out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
m = json.load(open(sys.argv[2])) if sys.argv[2] else None
exec(sys.argv[1])
' "$2" "${JSON_MACHINE:+$MACHINES/$JSON_MACHINE/machine.json}" 2>&1); then
		fail "$1 ($last_cmd): $(printf '%s' "$msg" | tail -3)"
	fi
}

finish() {
	if [ "$failures" -gt 0 ]; then
		echo "$(basename "$0"): $failures of $checks checks failed"
		exit 1
	fi
	echo "$(basename "$0"): all $checks checks passed"
	exit 0
}
