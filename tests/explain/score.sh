#!/usr/bin/env bash
# Score `gpuwise explain` on a directory of real logs: DIR/NAME.log with
# DIR/NAME.expected (a '# source: URL' line, then the expected ids in order;
# no id line means explain must stay silent). Prints "DIR: EXACT/TOTAL".
#   tests/explain/score.sh [-v] DIR
# -v also lists each log that is not exact (want/got). Never use -v on a
# held-out set while tuning patterns: its failures must not guide the tuning.
set -uo pipefail
cd "$(dirname "$0")/../.."
VERBOSE=0
[ "${1:-}" = -v ] && { VERBOSE=1; shift; }
DIR=${1:?usage: tests/explain/score.sh [-v] DIR}
G=${GPUWISE_BUILD:-build}/gpuwise
PY=${PYTHON:-python3}   # run with -S: the standard library alone, no site module's .pth files
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
total=0 exact=0
for log in "$DIR"/*.log; do
	exp=${log%.log}.expected
	total=$((total + 1))
	want="$(grep -v '^#' "$exp" 2>/dev/null | tr '\n' ' ')"
	[ -n "$want" ] && wrc=0 || { want=" "; wrc=1; }
	"$G" explain --json "$log" >"$T/out.json" 2>/dev/null; rc=$?
	got="$("$PY" -S -c 'import json,sys; print(" ".join(m["id"] for m in json.load(open(sys.argv[1]))["matches"]) + " ")' "$T/out.json" 2>/dev/null)"
	if [ "$want" = "$got" ] && [ "$rc" = "$wrc" ]; then
		exact=$((exact + 1))
	elif [ "$VERBOSE" = 1 ]; then
		echo "  $(basename "$log"): want [$want] got [$got]"
	fi
done
echo "$DIR: $exact/$total"
