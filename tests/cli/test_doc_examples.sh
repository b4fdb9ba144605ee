#!/usr/bin/env bash
# The documentation shows what the program prints (issue 9 #21):
#  - every example block marked "<!-- example: COMMAND -->" in README.md,
#    README.zh_CN.md and docs/**/*.md is what COMMAND prints now:
#    scripts/gen-doc-examples --check regenerates them all and fails on any
#    difference (fix: run scripts/gen-doc-examples and commit the result);
#  - the gpuwise_version of every JSON example is the program's version;
#  - the examples the docs must keep true are marked (advise's --hardware
#    and gpt2-large examples, slurm gres), so they cannot drift again.
# The man page is checked the same way in test_help.sh (scripts/gen-man).
. "$(dirname "$0")/lib.sh"

checks=$((checks + 1))
last_cmd="scripts/gen-doc-examples --check"
if ! msg=$("$PY" "$TOP/scripts/gen-doc-examples" --check --build "$BUILD" 2>&1); then
	fail "docs examples out of date (run scripts/gen-doc-examples):
$(printf '%s\n' "$msg" | head -60)"
fi

version=$("$GW" version | awk '{print $2}')
checks=$((checks + 1))
last_cmd="grep gpuwise_version docs"
bad=$(cd "$TOP" && grep -rnoE '"gpuwise_version": ?"[^"]*"' README.md README.zh_CN.md docs --include='*.md' |
	grep -v "\"$version\"")
[ -z "$bad" ] || fail "JSON examples with another version than $version:
$bad"

for f in "docs/commands/advise.md:--hardware" "docs/commands/advise.md:gpuwise advise gpt2-large" \
	"docs/commands/slurm.md:gpuwise slurm gres" "docs/commands/bench.md:gpuwise bench"; do
	file=${f%%:*} what=${f#*:}
	checks=$((checks + 1))
	grep -F -- "<!-- example" "$TOP/$file" | grep -qF -- "$what" ||
		fail "$file: its example of '$what' is not generated (no <!-- example: ... --> marker)"
done

finish
