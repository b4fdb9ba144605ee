#!/usr/bin/env bash
# Walks the command table and each command's option table (as the hidden
# `gpuwise __spec` prints them, the same tables that parse the command line):
# every command answers --help and -h with its usage on stdout and exit 0,
# `gpuwise help CMD` prints the same text, every option is in its --help, in
# docs/commands/<name>.md and in the man page; help fits the terminal; every
# --json output carries gpuwise_version.
. "$(dirname "$0")/lib.sh"

# spec 'python expression over s (the __spec JSON)': one result per line.
spec() {
	"$PY" -c 'import json, sys; s = json.load(open(sys.argv[1]))
r = eval(sys.argv[2])
print("\n".join(r) if isinstance(r, list) else r)' "$TMPD/spec.json" "$1"
}
run __spec
assert_eq "$rc" 0 "gpuwise __spec exits 0"
printf '%s' "$out" >"$TMPD/spec.json"
cmds=$(spec '[c["name"] for c in s["commands"]]')
assert_ne "$cmds" "" "__spec lists commands"
for must in list info doctor explain help version; do
	assert_contains " $(echo $cmds) " " $must " "command '$must' in the table"
done

run help
assert_eq "$rc" 0 "gpuwise help exits 0"
listed=$(printf '%s\n' "$out" | awk '/^Commands:/ {on = 1; next} on && /^$/ {exit} on && /^  [a-z]/ {print $1}')
assert_eq "$(echo $listed)" "$(echo $cmds)" "gpuwise help lists the commands of the table, in order"

for c in $cmds; do
	run "$c" --help
	assert_eq "$rc" 0 "$c --help exits 0"
	assert_contains "$out" "usage: gpuwise $c" "$c --help prints its usage"
	assert_eq "$err" "" "$c --help writes nothing on stderr"
	help_text=$out
	run "$c" -h
	assert_eq "$rc" 0 "$c -h exits 0"
	assert_eq "$out" "$help_text" "$c -h equals --help"
	run help "$c"
	assert_eq "$rc" 0 "help $c exits 0"
	assert_eq "$out" "$help_text" "help $c equals $c --help"
	checks=$((checks + 1))
	[ -s "docs/commands/$c.md" ] || fail "docs/commands/$c.md is missing"
	# The doc page shows the same synopsis as the table.
	synopsis=$(spec "[c['synopsis'] for c in s['commands'] if c['name'] == '$c'][0]")
	checks=$((checks + 1))
	grep -qF -- "$synopsis" "docs/commands/$c.md" 2>/dev/null ||
		fail "docs/commands/$c.md does not show the synopsis '$synopsis'"
	# Every option of the table: in --help, on the doc page.
	for o in $(spec "[('--' + o['long']) if o['long'] else ('-' + o['short']) for c in s['commands'] if c['name'] == '$c' for o in c['options'] if not o['hidden']]"); do
		assert_contains "$help_text" "$o" "$c --help shows $o"
		[ "$o" = --help ] && continue
		checks=$((checks + 1))
		grep -qF -- "$o" "docs/commands/$c.md" || fail "docs/commands/$c.md does not mention $o"
	done
done
# The table dump lists what parsing accepts: -h and --help in every command.
assert_eq "$(spec "sorted(set(str(sum(1 for o in c['options'] if o['long'] == 'help' and o['short'] == 'h')) for c in s['commands']))")" 1 \
	"every command's table ends with -h, --help"

# 80 columns (issue 8, item 18): help text wraps to the terminal, or to 80
# columns when stdout is no terminal; COLUMNS overrides both, as for ls.
too_wide() { # width text: the first line wider than width, if any
	printf '%s\n' "$2" | awk -v w="$1" 'length($0) > w { print; exit }'
}
run help
assert_eq "$(too_wide 80 "$out")" "" "gpuwise help fits 80 columns"
COLUMNS=60 run help
assert_eq "$(too_wide 60 "$out")" "" "gpuwise help fits COLUMNS=60"
assert_contains "$out" "  doctor" "gpuwise help at COLUMNS=60 still lists doctor"
for c in $cmds; do
	run "$c" --help
	assert_eq "$(too_wide 80 "$out")" "" "$c --help fits 80 columns"
	COLUMNS=50 run "$c" --help
	assert_eq "$(too_wide 50 "$out")" "" "$c --help fits COLUMNS=50"
done

# Every --json output starts with gpuwise_version (docs/commands/version.md):
# each command of the table that has --json, plus explain's other documents.
version=$("$GW" --version | awk '{print $2}')
printf 'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n' >"$TMPD/oom.txt"
json_cmds=$(spec "[c['name'] for c in s['commands'] if any(o['long'] == 'json' for o in c['options'])]")
assert_contains " $(echo $json_cmds) " " doctor " "doctor has --json"
check_version() { # what
	assert_json "$1 has gpuwise_version" "
assert list(d)[0] == 'gpuwise_version', 'first key %r' % list(d)[0]
assert d['gpuwise_version'] == '$version', d['gpuwise_version']"
}
for c in $json_cmds; do
	extra=()
	[ "$c" = advise ] && extra=(gpt2)   # advise needs a MODEL
	[ "$c" = bench ] && extra=(-i 4 --quick --tests launch-latency)   # GPU 0 is busy: refused
	[ "$c" = watch ] && extra=(-n 1)    # watch runs until stopped: each line is a document
	run_on h100-8x "$c" --json "${extra[@]}" <"$TMPD/oom.txt"
	last_cmd="[h100-8x] gpuwise $c --json"
	check_version "$c --json"
done
run explain --json cuda-out-of-memory
check_version "explain --json ID"
run explain --list --json
check_version "explain --list --json"

run --help
assert_eq "$rc" 0 "gpuwise --help exits 0"
assert_contains "$out" "Commands:" "gpuwise --help lists commands"
run
assert_eq "$rc" 2 "gpuwise without a command is a usage error"
assert_contains "$err" "usage: gpuwise" "gpuwise without a command prints usage on stderr"
run help no-such-command
assert_eq "$rc" 2 "help of an unknown command exits 2"
assert_one_error_line "help of an unknown command"
run --version
assert_eq "$rc" 0 "gpuwise --version exits 0"
assert_contains "$out" "gpuwise " "--version prints the version"
run version
assert_eq "$rc" 0 "gpuwise version exits 0"

# The man page is made from these same tables: it must be current, and it
# names every option.
checks=$((checks + 1))
if ! "$TOP/scripts/gen-man" "$GW" | cmp -s - "$TOP/docs/man/gpuwise.1"; then
	fail "docs/man/gpuwise.1 is out of date: run scripts/gen-man > docs/man/gpuwise.1"
fi
for o in $(spec "sorted(set(o['long'] for c in s['commands'] for o in c['options'] if o['long'] and not o['hidden']))"); do
	checks=$((checks + 1))
	grep -qF -- "\\-\\-$(printf '%s' "$o" | sed 's/-/\\-/g')" "$TOP/docs/man/gpuwise.1" || fail "the man page lacks --$o"
done

finish
