#!/usr/bin/env bash
# The fake machines are committed (scripts/with-machine names them, and a
# user may add a hand-made one), but every machine that
# tests/machines/make_machines.py describes must be exactly what it makes:
# run it on a copy and compare, so an edit of either side cannot drift.
set -uo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gw-machines.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp -a tests/machines "$tmp/machines"
python3 "$tmp/machines/make_machines.py" >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "FAIL: make_machines.py failed"; exit 1; }
find "$tmp/machines" -name __pycache__ -prune -exec rm -rf {} +
if ! diff -r --no-dereference -x __pycache__ tests/machines "$tmp/machines" >"$tmp/diff"; then
	head -40 "$tmp/diff"
	echo "FAIL: tests/machines differs from what make_machines.py makes: run python3 tests/machines/make_machines.py"
	exit 1
fi
echo "machines.sh: tests/machines is what make_machines.py makes"
