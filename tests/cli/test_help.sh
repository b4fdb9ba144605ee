#!/usr/bin/env bash
# Walks the command table (as `gpuwise help` prints it): every command
# answers --help and -h with its usage on stdout and exit 0, `gpuwise help
# CMD` prints the same text, and every command has docs/commands/<name>.md.
. "$(dirname "$0")/lib.sh"

run help
assert_eq "$rc" 0 "gpuwise help exits 0"
cmds=$(printf '%s\n' "$out" | awk '/^Commands:/ {on = 1; next} on && /^$/ {exit} on && /^  [a-z]/ {print $1}')
assert_ne "$cmds" "" "gpuwise help lists commands"
for must in list info help version; do
	assert_contains " $(echo $cmds) " " $must " "command '$must' in the table"
done

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
	# The doc page shows the same synopsis as --help.
	synopsis=$(printf '%s\n' "$help_text" | head -1 | sed 's/^usage: //')
	checks=$((checks + 1))
	grep -qF -- "$synopsis" "docs/commands/$c.md" 2>/dev/null ||
		fail "docs/commands/$c.md does not show the synopsis '$synopsis'"
done

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

# The man page is made from these same help texts: it must be current.
checks=$((checks + 1))
if ! "$TOP/scripts/gen-man" "$GW" | cmp -s - "$TOP/docs/man/gpuwise.1"; then
	fail "docs/man/gpuwise.1 is out of date: run scripts/gen-man > docs/man/gpuwise.1"
fi

finish
