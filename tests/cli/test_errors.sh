#!/usr/bin/env bash
# Error paths of the CLI: missing vendor library, usage errors, bad -i,
# unwritable stdout, colour rules. Every message is one "gpuwise: ..." line.
. "$(dirname "$0")/lib.sh"

# No NVIDIA library and an empty root: one sentence, exit 1.
for cmd in list info "list --json" "info --json"; do
	GPUWISE_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 GPUWISE_CUDA_LIBRARY=/nonexistent/libcuda.so.1 \
		GPUWISE_ROOT=$EMPTY_ROOT run $cmd
	assert_eq "$rc" 1 "$cmd without any GPU library exits 1"
	assert_one_error_line "$cmd without any GPU library"
	assert_contains "$err" "gpuwise: no GPU found: " "$cmd: the sentence starts with 'no GPU found'"
	assert_contains "$err" "libnvidia-ml.so.1" "$cmd: the sentence names the missing library"
	assert_contains "$err" "AMD" "$cmd: the sentence says there is no AMD GPU either"
done
GPUWISE_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 GPUWISE_CUDA_LIBRARY=/nonexistent/libcuda.so.1 \
	GPUWISE_ROOT=$EMPTY_ROOT run list --json
assert_json "list --json with no GPU" '
assert d["devices"] == [], "no devices"
assert d["error"] and d["error"].startswith("no GPU found"), "error field %r" % d["error"]
nv = [b for b in d["backends"] if b["name"] == "nvml"][0]
assert nv["state"] == "library-missing", "nvml state %r" % nv["state"]
'
# The same through a machine without NVIDIA libraries at all (mi300x has
# AMD GPUs, so it must succeed).
run_on mi300x list
assert_eq "$rc" 0 "AMD-only machine without NVIDIA libraries exits 0"
assert_eq "$err" "" "AMD-only machine: nothing on stderr"

# Usage errors: exit 2, one message and a hint.
run no-such-command
assert_eq "$rc" 2 "unknown command exits 2"
assert_contains "$err" "gpuwise: 'no-such-command' is not a gpuwise command" "unknown command message"
# A typo of a command or an option: the one meant is named; nothing close,
# nothing suggested.
run lsit
assert_eq "$rc" 2 "a misspelt command exits 2"
assert_contains "$err" "gpuwise: 'lsit' is not a gpuwise command; did you mean 'list'?" "lsit: did you mean list"
assert_one_error_line "lsit"
run help ifno
assert_contains "$err" "did you mean 'info'?" "help ifno: did you mean info"
assert_not_contains "$(run no-such-command; echo "$err")" "did you mean" "nothing close: no suggestion"
run list --jsn
assert_eq "$rc" 2 "a misspelt option exits 2"
assert_contains "$err" "gpuwise: unknown option '--jsn'; did you mean '--json'?" "--jsn: did you mean --json"
run info --hlep
assert_contains "$err" "did you mean '--help'?" "--hlep: did you mean --help"
for c in list info; do
	run "$c" --no-such-option
	assert_eq "$rc" 2 "$c --no-such-option exits 2"
	assert_contains "$err" "gpuwise: unknown option '--no-such-option'" "$c: unknown option message"
	assert_eq "$out" "" "$c: nothing on stdout on a usage error"
	run "$c" stray
	assert_eq "$rc" 2 "$c with a stray argument exits 2"
done
# Every command parses through its option table (cli/options.c), so walk
# the tables (`gpuwise __spec`): an unknown option, an argument the command
# does not take, a value option without its value or given twice are usage
# errors: exit 2, "gpuwise: ...", nothing on stdout (issue 8, item 12).
"$GW" __spec >"$TMPD/spec.json"
spec() {
	"$PY" -c 'import json, sys; s = json.load(open(sys.argv[1]))
r = eval(sys.argv[2])
print("\n".join(r) if isinstance(r, list) else r)' "$TMPD/spec.json" "$1"
}
usage_error() { # what message-fragment
	assert_eq "$rc" 2 "$1 exits 2"
	assert_contains "$err" "gpuwise: $2" "$1 says why"
	assert_contains "$err" "--help" "$1 points to --help"
	assert_eq "$out" "" "$1 prints nothing on stdout"
}
for c in $(spec '[c["name"] for c in s["commands"]]'); do
	run "$c" --no-such-option
	usage_error "$c --no-such-option" "unknown option '--no-such-option'"
	run "$c" -Z
	usage_error "$c -Z" "unknown option '-Z'"
	max=$(spec "[c['max_args'] for c in s['commands'] if c['name'] == '$c'][0]")
	if [ "$max" -ge 0 ]; then
		extra=()
		for ((k = 0; k <= max; k++)); do extra+=(list); done
		run "$c" "${extra[@]}"
		usage_error "$c with $((max + 1)) arguments" "unexpected argument"
	fi
	# A SIZE needs its unit (a bare number is refused first, on its own).
	for o in $(spec "[o['long'] + ('=GiB' if o['arg'] == 'SIZE' else '=') for c in s['commands'] if c['name'] == '$c' for o in c['options'] if o['arg'] and not o['repeatable']]"); do
		unit=${o#*=} o=${o%%=*}
		run "$c" "--$o" "1$unit" "--$o" "2$unit"
		usage_error "$c --$o given twice" "option '--$o' given twice"
	done
	for o in $(spec "[o['long'] for c in s['commands'] if c['name'] == '$c' for o in c['options'] if o['arg']]"); do
		run "$c" "--$o"
		usage_error "$c --$o without a value" "option '--$o' needs a value"
		run "$c" "--$o="
		usage_error "$c --$o= (empty)" "option '--$o' needs a value"
	done
	for o in $(spec "[o['long'] for c in s['commands'] if c['name'] == '$c' for o in c['options'] if not o['arg'] and o['long'] != 'help']"); do
		run "$c" "--$o=yes"
		usage_error "$c --$o=yes" "option '--$o' takes no value"
	done
done
run version extra
usage_error "gpuwise version extra" "unexpected argument 'extra'"
run --version extra
usage_error "gpuwise --version extra" "unexpected argument 'extra'"
run help list extra
usage_error "gpuwise help list extra" "unexpected argument 'extra'"
# -i is a list-valued option (nvidia-smi's -i 0,1): a second -i adds to
# the selection, it never silently replaces the first.
run_on h100-8x info -i 0 -i 1 --json
assert_eq "$rc" 0 "info -i 0 -i 1 exits 0"
assert_json "info -i 0 -i 1 selects both" "assert [x['index'] for x in d['devices']] == [0, 1]"
run_on h100-8x info -i0 --id=1 --json
assert_json "info -i0 --id=1 selects both" "assert [x['index'] for x in d['devices']] == [0, 1]"
run doctor --python-env
usage_error "doctor --python-env" "option '--python-env' needs a value"
run doctor --timeout 0
usage_error "doctor --timeout 0" "option '--timeout' needs a number of seconds"

run info -i
assert_eq "$rc" 2 "info -i without a value exits 2"
assert_contains "$err" "gpuwise: " "info -i without a value says why"
run info -i ""
assert_eq "$rc" 2 "info -i '' exits 2"

# -i that matches nothing: exit 1, "no GPU matches".
run_on h100-8x info -i 99
assert_eq "$rc" 1 "info -i 99 on 8 GPUs exits 1"
assert_one_error_line "info -i 99"
assert_contains "$err" "no GPU with index 99" "info -i 99 message"
run_on h100-8x info -i GPU-ffffffff --json
assert_eq "$rc" 1 "info -i with an unknown UUID exits 1"
assert_contains "$err" "no GPU matches 'GPU-ffffffff'" "unknown UUID message"
assert_eq "$out" "" "no JSON for an unknown selector"
run_on h100-8x info -i 0000:77:00.0
assert_eq "$rc" 1 "info -i with an unknown bus id exits 1"
# An ambiguous UUID prefix is a usage error: two UUIDs start "GPU-7".
run_on h100-8x info -i GPU-7
assert_eq "$rc" 2 "an ambiguous selector exits 2"
assert_contains "$err" "'GPU-7' matches 2 devices" "ambiguous selector message"
run_on h100-8x info -i GPU-
assert_eq "$rc" 2 "a bare GPU- prefix exits 2"

# A full disk is an error, not silence.
run_on h100-8x list
if [ "$rc" = 0 ]; then
	"$TOP/scripts/with-machine" h100-8x -- "$GW" list >/dev/full 2>"$TMPD/err"; rc=$?; err=$(cat "$TMPD/err")
	last_cmd="[h100-8x] gpuwise list >/dev/full"
	assert_ne "$rc" 0 "list >/dev/full exits non-zero"
	assert_contains "$err" "gpuwise: cannot write output" "list >/dev/full says so"
	"$TOP/scripts/with-machine" h100-8x -- "$GW" info --json >/dev/full 2>"$TMPD/err"; rc=$?; err=$(cat "$TMPD/err")
	last_cmd="[h100-8x] gpuwise info --json >/dev/full"
	assert_ne "$rc" 0 "info --json >/dev/full exits non-zero"
	assert_contains "$err" "cannot write output" "info --json >/dev/full says so"
else
	fail "h100-8x list failed (rc $rc), cannot test /dev/full: $err"
fi
"$GW" help >/dev/full 2>"$TMPD/err"; rc=$?
last_cmd="gpuwise help >/dev/full"
assert_ne "$rc" 0 "help >/dev/full exits non-zero"

# Colour: only on a terminal, never with NO_COLOR or TERM=dumb. script(1)
# gives the command a pseudo-terminal.
if command -v script >/dev/null 2>&1; then
	tty_run() { # env... : runs `list` on h100-8x under a pty
		out=$(env "$@" script -qec "'$TOP/scripts/with-machine' h100-8x -- '$GW' list" /dev/null 2>&1)
		last_cmd="script: $* gpuwise list"
	}
	tty_run -u NO_COLOR TERM=xterm
	assert_contains "$out" $'\033[' "colour on a terminal"
	tty_run NO_COLOR=1 TERM=xterm
	assert_not_contains "$out" $'\033[' "NO_COLOR disables colour on a terminal"
	tty_run -u NO_COLOR TERM=dumb
	assert_not_contains "$out" $'\033[' "TERM=dumb disables colour"
	NO_COLOR= run_on h100-8x list
	assert_not_contains "$out" $'\033[' "no colour into a pipe"
fi

finish
