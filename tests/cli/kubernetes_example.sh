#!/usr/bin/env bash
# The /metrics excerpt of docs/commands/exporter.md "Kubernetes", written by
# scripts/gen-doc-examples: `gpuwise exporter --names native --kubernetes`
# on the 8×H100 fake while the stand-in kubelet (kubelet_podresources.py)
# says that pod train-0 (namespace ml, container trainer) holds GPUs 0 and
# 1. Needs build/venv's grpcio (scripts/setup). Prints the utilisation
# family and gpuwise_kubernetes_stale.
set -euo pipefail
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
K= E=
cleanup() {
	[ -z "$E" ] || kill -TERM "$E" 2>/dev/null || true
	[ -z "$K" ] || kill -TERM "$K" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$T"
}
trap cleanup EXIT
cat >"$T/answer.json" <<'JSON'
[{"name": "train-0", "namespace": "ml", "containers": [{"name": "trainer", "devices": [
  {"resource_name": "nvidia.com/gpu", "device_ids": ["GPU-b42dd28e-ffdd-8720-1df0-98bd8cdc05b1",
                                                     "GPU-7c3cadbd-17e5-0913-f69b-c618122ea0cd"]}]}]}]
JSON
build/venv/bin/python tests/cli/kubelet_podresources.py "$T/kubelet.sock" "$T" >"$T/kubelet.out" 2>&1 &
K=$!
# Bounded waits that fail loudly: a silent timeout would print a wrong
# excerpt (no pod labels) that only the doc check notices.
wait_for() { # FILE TEXT SECONDS
	for _ in $(seq $(($3 * 10))); do grep -q "$2" "$1" && return 0; sleep 0.1; done
	echo "kubernetes_example: no '$2' in $1 after $3 s" >&2
	cat "$1" >&2
	exit 1
}
wait_for "$T/kubelet.out" ready 60
scripts/with-machine h100-8x -- sh -c 'echo $$ >"$0"; exec "$@"' "$T/exp.pid" gpuwise exporter \
	--listen 127.0.0.1:0 --names native --kubernetes --pod-resources-kubelet-socket "$T/kubelet.sock" 2>"$T/exp.err" &
wait_for "$T/exp.err" 'listening on' 60
E=$(cat "$T/exp.pid")
port=$(sed -n 's/.*listening on http:\/\/[^ ]*:\([0-9][0-9]*\)\/ .*/\1/p' "$T/exp.err")
# The pod list comes from the exporter's kubelet helper after the first
# collection; until its first answer a scrape says stale 1 without pod
# labels. Wait (bounded) for a scrape with the answer in it.
python3 -c '
import sys, time, urllib.request
deadline = time.monotonic() + 90
while True:
    text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1]).read().decode()
    if "gpuwise_kubernetes_stale 0" in text:
        break
    if time.monotonic() > deadline:
        sys.exit("kubernetes_example: the kubelet stand-in gave no answer in 90 s")
    time.sleep(0.1)
print(text, end="")' "$port" |
	grep -E '^(# (HELP|TYPE) )?gpuwise_(utilization_gpu_ratio|kubernetes_stale)\b'
