#!/usr/bin/env bash
# `producer | grep -q PATTERN` under `set -o pipefail` fails by chance: grep
# exits at its first match, the producer may then die of SIGPIPE, and
# pipefail reports the pipeline as failed (scripts/fuzz "did not reach" a
# target it had built, once in a clean-clone run). In a script that sets
# pipefail, test text with a here-string (`grep -q P <<<"$out"`) instead.
set -uo pipefail
cd "$(dirname "$0")/../.."
bad=0
while IFS= read -r f; do
	[ "$f" = tests/lint/pipefail.sh ] && continue   # its own texts name the pattern
	grep -q 'pipefail' "$f" || continue
	hits=$(grep -nE '(^|[^|])\|[[:space:]]*grep[[:space:]]+(-[a-zA-Z]*q|--quiet)' "$f" | grep -vE '^[0-9]+:[[:space:]]*#')
	[ -n "$hits" ] || continue
	printf '%s\n' "$hits" | sed "s|^|$f:|"
	bad=1
done < <(git ls-files '*.sh' 'scripts/*' 'tests/*/run.sh' | sort -u)
[ $bad = 0 ] && echo "pipefail.sh: no '| grep -q' under pipefail" || echo "FAIL: '| grep -q' under pipefail (see above)"
exit $bad
