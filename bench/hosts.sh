#!/usr/bin/env bash
# Benchmark: how fast does `gpuwise watch/top --hosts` refresh 16 nodes?
#
#   bench/hosts.sh [NODES] [SAMPLES] [MACHINE]   (defaults: 16 nodes, 40 samples, h100-8x)
#
# Starts NODES `gpuwise exporter`s on loopback, each on the fake MACHINE
# and a port the kernel picks, then `gpuwise watch --hosts ALL -d 0.1
# --json -n SAMPLES`, whose every line says how long reading all the nodes
# took ("fetch_seconds": from the first request to the last answer, all
# nodes at once; top --hosts reads them with the same code). Prints the
# median, p90 and maximum, and the wall time of one `top --once --hosts`
# (start-up, libcurl loaded, one refresh, one frame). Target (issue 33): a
# refresh within 0.5 s. Every exporter is stopped on exit.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
NODES=${1:-16}
SAMPLES=${2:-40}
MACHINE=${3:-h100-8x}
cd "$REPO"
make -s -j2 build/gpuwise build/fake/libnvidia-ml.so.1 build/fake/libcuda.so.1 >/dev/null
TMPD=$(mktemp -d)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	sleep 0.5
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$TMPD"
}
trap cleanup EXIT

for i in $(seq "$NODES"); do
	# gpuwise's own pid too: scripts/with-machine does not pass signals on
	scripts/with-machine "$MACHINE" -- sh -c 'echo $$ >"$0"; exec "$@"' "$TMPD/$i.pid" \
		build/gpuwise exporter --listen 127.0.0.1:0 2>"$TMPD/$i.err" &
	PIDS+=($!)
done
hosts=
for i in $(seq "$NODES"); do
	for _ in $(seq 100); do grep -q 'listening on' "$TMPD/$i.err" && break; sleep 0.1; done
	port=$(sed -n 's/.*listening on http:\/\/[^ ]*:\([0-9][0-9]*\)\/ .*/\1/p' "$TMPD/$i.err")
	[ -n "$port" ] || { echo "exporter $i did not start: $(cat "$TMPD/$i.err")" >&2; exit 1; }
	hosts=${hosts:+$hosts,}127.0.0.1:$port
	PIDS+=("$(cat "$TMPD/$i.pid")")
done
sleep 1.5   # each exporter's first pass

build/gpuwise watch --hosts "$hosts" -d 0.1 -n "$SAMPLES" --json >"$TMPD/watch.jsonl"
start=$(date +%s.%N)
COLUMNS=160 build/gpuwise top --once --hosts "$hosts" >/dev/null
end=$(date +%s.%N)
python3 - "$TMPD/watch.jsonl" "$NODES" "$(echo "$end - $start" | bc)" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
t = sorted(r["fetch_seconds"] for r in rows)
ok = min(sum(h["ok"] for h in r["hosts"]) for r in rows)
gpus = min(len(r["devices"]) for r in rows)
print(f"{sys.argv[2]} nodes, {gpus} GPUs, {len(t)} refreshes (every node answered in each: {ok == int(sys.argv[2])})")
print(f"watch --hosts refresh (all nodes read): median {statistics.median(t)*1000:.1f} ms, "
      f"p90 {t[int(len(t)*0.9)-1]*1000:.1f} ms, max {t[-1]*1000:.1f} ms")
print(f"top --once --hosts, whole command: {float(sys.argv[3])*1000:.0f} ms")
PY
