#!/usr/bin/env bash
# gpuwise exporter --kubernetes end to end: a stand-in kubelet
# (tests/cli/kubelet_podresources.py: grpcio serving the PodResources v1
# List call of cli/podresources_v1.proto on a unix socket) says which pods
# hold which GPUs of a fake machine; the exporter's series of those GPUs
# carry pod, namespace and container in every naming scheme, a MIG device's
# too, and per-process series of processes in a pod's cgroup. A dead socket
# and a kubelet that sleeps 10 s leave scrapes fast and set
# gpuwise_kubernetes_stale 1; without gRPC the exporter says what is
# missing. Every process started here is killed on exit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_exporter.sh"

VPY=$TOP/build/venv/bin/python
last_cmd="gpuwise exporter --kubernetes"
if ! "$GW" __kubelet-list --check /dev/null >/dev/null 2>&1 && [ "$("$GW" __kubelet-list --check /dev/null 2>/dev/null | head -c 40)" != "O" ]; then
	out=$("$GW" __kubelet-list --check /dev/null 2>&1)
	case $out in
	*"built without gRPC"*)
		checks=$((checks + 1))
		run_with h100-8x exporter --listen 127.0.0.1:0 --kubernetes
		assert_eq "$rc" 1 "built without gRPC: exit 1"
		assert_contains "$err" "built without gRPC and protobuf-c" "built without gRPC: says so"
		echo "note: this gpuwise was built without gRPC (scripts/setup installs it): only the message is checked"
		finish ;;
	esac
fi
"$VPY" -c 'import grpc, grpc_tools' 2>/dev/null || { fail "build/venv lacks grpcio and grpcio-tools (run scripts/setup)"; finish; }

GPU0=GPU-b42dd28e-ffdd-8720-1df0-98bd8cdc05b1
GPU1=GPU-7c3cadbd-17e5-0913-f69b-c618122ea0cd
GPU2=GPU-2d50cdf6-dd67-9f2e-855e-0d4d6d395a2f
GPU5=GPU-52378fbc-3124-3895-13b6-1dd179563e0f
MIG1=MIG-8a3b1c4d-2e5f-5a6b-9c7d-0e1f2a3b4c5d   # a100-mig: GPU 0's gpu instance 1

# start_kubelet TAG: the stand-in on $TMPD/TAG/kubelet.sock, its state
# (answer.json, sleep, calls) in $TMPD/TAG; sets $KUBELET_SOCK.
start_kubelet() {
	local d=$TMPD/$1 i
	mkdir -p "$d"
	[ -f "$d/answer.json" ] || echo '[]' >"$d/answer.json"
	"$VPY" "$TOP/tests/cli/kubelet_podresources.py" "$d/kubelet.sock" "$d" >"$d/out" 2>&1 &
	STARTED+=("$!")
	for i in $(seq 150); do
		grep -q ready "$d/out" 2>/dev/null && break
		sleep 0.1
	done
	grep -q ready "$d/out" || fail "stand-in kubelet did not start: $(cat "$d/out")"
	KUBELET_SOCK=$d/kubelet.sock
}

# scrape [PATH]: GET http://127.0.0.1:$PORT/PATH (default metrics) into
# $out; $ms is how long it took in milliseconds.
scrape() {
	local r
	r=$("$PY" - "$PORT" "${1:-metrics}" <<'EOF'
import sys, time, urllib.request
t = time.monotonic()
body = urllib.request.urlopen("http://127.0.0.1:%s/%s" % (sys.argv[1], sys.argv[2]), timeout=20).read().decode()
print(int((time.monotonic() - t) * 1000))
sys.stdout.write(body)
EOF
)
	ms=${r%%$'\n'*}
	out=${r#*$'\n'}
}

# series NAME LABEL=VALUE...: the lines of $out for series NAME that carry every label given.
series() {
	local name=$1 l
	shift
	printf '%s\n' "$out" | grep "^$name{" | {
		local lines
		lines=$(cat)
		for l in "$@"; do
			lines=$(printf '%s\n' "$lines" | grep -F "${l%%=*}=\"${l#*=}\"")
		done
		printf '%s' "$lines"
	}
}

answer() { # TAG JSON
	mkdir -p "$TMPD/$1"
	printf '%s\n' "$2" >"$TMPD/$1/answer.json"
}

# --- labels on the right GPUs, every naming scheme ---------------------------------------
answer k1 '[
 {"name": "train-0", "namespace": "ml", "containers": [
   {"name": "trainer", "devices": [{"resource_name": "nvidia.com/gpu", "device_ids": ["'$GPU0'", "'$GPU1'"]}]},
   {"name": "sidecar", "devices": []}]},
 {"name": "notebook", "namespace": "lab", "containers": [
   {"name": "jupyter", "devices": [{"resource_name": "nvidia.com/gpu", "device_ids": ["'$GPU5'::2"]}]}]},
 {"name": "fpga", "namespace": "hw", "containers": [
   {"name": "x", "devices": [{"resource_name": "example.com/fpga", "device_ids": ["'$GPU2'"]}]}]}
]'
start_kubelet k1
for names in dcgm native nvidia-smi; do
	start_exporter "k-$names" h100-8x --names "$names" --kubernetes --pod-resources-kubelet-socket "$KUBELET_SOCK" || continue
	scrape
	case $names in
	dcgm) m=DCGM_FI_DEV_GPU_UTIL u=UUID g0=$GPU0 g1=$GPU1 g2=$GPU2 g5=$GPU5 ;;
	native) m=gpuwise_utilization_gpu_ratio u=UUID g0=$GPU0 g1=$GPU1 g2=$GPU2 g5=$GPU5 ;;
	nvidia-smi) m=nvidia_smi_utilization_gpu_ratio u=uuid g0=${GPU0#GPU-} g1=${GPU1#GPU-} g2=${GPU2#GPU-} g5=${GPU5#GPU-} ;;
	esac
	checks=$((checks + 1))
	[ -n "$(series "$m" "$u=$g0" pod=train-0 namespace=ml container=trainer)" ] \
		|| fail "$names: $m of GPU 0 has train-0's labels: $(series "$m" "$u=$g0")"
	[ -n "$(series "$m" "$u=$g1" pod=train-0 namespace=ml container=trainer)" ] \
		|| fail "$names: $m of GPU 1 has train-0's labels: $(series "$m" "$u=$g1")"
	[ -n "$(series "$m" "$u=$g5" pod=notebook namespace=lab container=jupyter)" ] \
		|| fail "$names: a shared GPU's id (::2) labels GPU 5: $(series "$m" "$u=$g5")"
	assert_not_contains "$(series "$m" "$u=$g2")" 'pod=' "$names: GPU 2 (another vendor's resource) has no pod"
	assert_eq "$(printf '%s\n' "$out" | grep -c "^$m{.*pod=")" 3 "$names: three GPUs of $m labelled"
	assert_contains "$out" $'\ngpuwise_kubernetes_stale 0' "$names: a fresh answer is not stale"
	assert_contains "$(series gpuwise_gpu_up "UUID=$GPU0")" 'pod="train-0"' "$names: gpuwise_gpu_up labelled"
	[ "$names" = native ] && assert_contains "$(series gpuwise_gpu_info "UUID=$GPU1")" 'container="trainer"' \
		"native: gpuwise_gpu_info labelled"
	[ "$names" = dcgm ] && assert_contains "$(series DCGM_FI_DEV_FB_USED "UUID=$GPU0")" 'namespace="ml"' \
		"dcgm: every family labelled"
	if [ "$names" = native ] && command -v promtool >/dev/null 2>&1; then
		printf '%s\n' "$out" | promtool check metrics >"$TMPD/promtool.out" 2>&1
		assert_eq "$?" 0 "native: promtool accepts the labelled text: $(head -3 "$TMPD/promtool.out")"
	fi
	kill -TERM "$EXP"
done

# --- a pod that starts later: the next refresh (processes changed or timer) ------------
# and the kubelet was asked once at start, not per scrape.
start_exporter k-calls h100-8x --kubernetes --pod-resources-kubelet-socket "$KUBELET_SOCK"
n0=$(wc -l <"$TMPD/k1/calls")
for _ in 1 2 3 4 5; do scrape; done
n1=$(wc -l <"$TMPD/k1/calls")
checks=$((checks + 1))
[ $((n1 - n0)) -le 1 ] || fail "scrapes do not ask the kubelet ($((n1 - n0)) calls for 5 scrapes)"
kill -TERM "$EXP"

# --- per-process series of a process in a pod's cgroup -----------------------------------
start_exporter k-pp h100-8x --per-process --kubernetes --pod-resources-kubelet-socket "$KUBELET_SOCK"
root=$(tr '\0' '\n' </proc/"$EXP"/environ | sed -n 's/^GPUWISE_ROOT=//p')
sleeper=$(tr '\0' '\n' </proc/"$EXP"/environ | sed -n 's/^GPUWISE_SLEEPER_PID=//p')
printf '0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1d2c.slice/cri-containerd-ab12.scope\n' \
	>"$root/proc/$sleeper/cgroup"
wait_for 'scrape; [ -n "$(series gpuwise_process_memory_bytes "UUID=$GPU0" "pid=$sleeper" pod=train-0)" ]' 50
checks=$((checks + 1))
[ -n "$(series gpuwise_process_memory_bytes "UUID=$GPU0" "pid=$sleeper" pod=train-0 namespace=ml container=trainer)" ] \
	|| fail "per-process: the sleeper in a kubepods cgroup on GPU 0 has train-0's labels: $(series gpuwise_process_memory_bytes "UUID=$GPU0")"
assert_not_contains "$(series gpuwise_process_memory_bytes "UUID=$GPU1")" 'pod=' \
	"per-process: a process outside any pod's cgroup has no pod label"
kill -TERM "$EXP"

# --- a MIG device -------------------------------------------------------------------------
answer k2 '[{"name": "mig-job", "namespace": "research", "containers": [
   {"name": "main", "devices": [{"resource_name": "nvidia.com/mig-3g.20gb", "device_ids": ["'$MIG1'"]}]}]}]'
start_kubelet k2
for names in dcgm native; do
	start_exporter "k-mig-$names" a100-mig --names "$names" --per-process --kubernetes \
		--pod-resources-kubelet-socket "$KUBELET_SOCK" || continue
	scrape
	m=$([ "$names" = dcgm ] && echo DCGM_FI_DEV_FB_USED || echo gpuwise_memory_used_bytes)
	sel=$([ "$names" = dcgm ] && echo GPU_I_ID=1 || echo "mig_uuid=$MIG1")
	checks=$((checks + 1))
	[ -n "$(series "$m" "$sel" pod=mig-job namespace=research container=main)" ] \
		|| fail "$names: the MIG device's $m row has mig-job's labels: $(series "$m" "$sel")"
	assert_eq "$(printf '%s\n' "$out" | grep -c "^$m{.*pod=")" 1 "$names: only the MIG device's $m row is labelled"
	root=$(tr '\0' '\n' </proc/"$EXP"/environ | sed -n 's/^GPUWISE_ROOT=//p')
	sleeper=$(tr '\0' '\n' </proc/"$EXP"/environ | sed -n 's/^GPUWISE_SLEEPER_PID=//p')
	printf '12:memory:/kubepods/besteffort/pod77aa/0123abcd\n' >"$root/proc/$sleeper/cgroup"
	wait_for 'scrape; [ -n "$(series gpuwise_process_memory_bytes "pid=$sleeper" pod=mig-job)" ]' 50
	checks=$((checks + 1))
	[ -n "$(series gpuwise_process_memory_bytes "pid=$sleeper" pod=mig-job container=main)" ] \
		|| fail "$names: a process on the MIG device's gpu instance has its pod: $(series gpuwise_process_memory_bytes "pid=$sleeper")"
	kill -TERM "$EXP"
done

# --- a dead socket: fast scrapes, stale, one warning --------------------------------------
start_exporter k-dead h100-8x --kubernetes --pod-resources-kubelet-socket "$TMPD/no/kubelet.sock"
scrape
checks=$((checks + 1))
[ "$ms" -lt 1000 ] || fail "dead socket: a scrape took $ms ms"
assert_contains "$out" $'\ngpuwise_kubernetes_stale 1' "dead socket: stale"
assert_not_contains "$out" 'pod=' "dead socket: no pod labels"
assert_contains "$(cat "$TMPD/k-dead.err")" "cannot ask the kubelet which pods hold the GPUs ($TMPD/no/kubelet.sock: UNAVAILABLE" \
	"dead socket: the log says why"
assert_contains "$(series gpuwise_gpu_up "UUID=$GPU0")" ' 1' "dead socket: the GPUs are served as before"
kill -TERM "$EXP"

# --- a kubelet that answers, then sleeps 10 s: the last answer, stale, fast scrapes -------
answer k3 '[{"name": "train-0", "namespace": "ml", "containers": [
   {"name": "trainer", "devices": [{"resource_name": "nvidia.com/gpu", "device_ids": ["'$GPU0'"]}]}]}]'
start_kubelet k3
start_exporter k-slow h100-8x --kubernetes --pod-resources-kubelet-socket "$KUBELET_SOCK"
scrape
assert_contains "$out" $'\ngpuwise_kubernetes_stale 0' "slow kubelet: fresh at first"
echo 10 >"$TMPD/k3/sleep"
worst=0 stale=0
for _ in $(seq 80); do   # the next question comes within 10 s, its deadline 3 s later
	scrape
	[ "$ms" -gt "$worst" ] && worst=$ms
	case $out in *$'\ngpuwise_kubernetes_stale 1'*) stale=1; break ;; esac
	sleep 0.25
done
assert_eq "$stale" 1 "slow kubelet: stale once a question outlives its deadline"
checks=$((checks + 1))
[ "$worst" -lt 1000 ] || fail "slow kubelet: the slowest scrape took $worst ms"
assert_contains "$(series DCGM_FI_DEV_GPU_UTIL "UUID=$GPU0")" 'pod="train-0"' "slow kubelet: the last answer still labels GPU 0"
assert_contains "$(cat "$TMPD/k-slow.err")" "the last answer is served" "slow kubelet: the log says so"
# The exporter's own memory: gRPC lives only in the helper it runs for
# each question (sanitizer builds map far more).
rss_kib=$(sed -n 's/^VmHWM:\s*\([0-9]*\) kB/\1/p' /proc/"$EXP"/status)
echo "exporter --kubernetes peak RSS after $(wc -l <"$TMPD/k3/calls") questions: ${rss_kib:-?} KiB"
if [ "$BUILD" = "$TOP/build" ]; then
	checks=$((checks + 1))
	[ -n "$rss_kib" ] && [ "$rss_kib" -le 10240 ] || fail "exporter --kubernetes peak RSS is ${rss_kib:-?} KiB (want <= 10 MiB)"
fi
# A kubelet that sleeps 10 s does not delay stopping either.
t0=$(date +%s%N)
kill -TERM "$EXP"
for _ in $(seq 50); do kill -0 "$EXP" 2>/dev/null || break; sleep 0.1; done
checks=$((checks + 1))
kill -0 "$EXP" 2>/dev/null && fail "slow kubelet: the exporter did not stop within 5 s of SIGTERM"
t1=$(date +%s%N)
[ $(((t1 - t0) / 1000000)) -lt 5000 ] || fail "slow kubelet: stopping took $(((t1 - t0) / 1000000)) ms"

# --- a kubelet that sleeps 10 s from the start: the exporter starts anyway ---------------
start_exporter k-slow2 h100-8x --kubernetes --pod-resources-kubelet-socket "$KUBELET_SOCK"
scrape
checks=$((checks + 1))
[ "$ms" -lt 1000 ] || fail "kubelet asleep at start: a scrape took $ms ms"
assert_contains "$out" $'\ngpuwise_kubernetes_stale 1' "kubelet asleep at start: stale (no answer yet)"
kill -TERM "$EXP"

# --- without gRPC, and usage ---------------------------------------------------------------
GPUWISE_GRPC_LIBRARY=$TMPD/no/libgrpc.so.29 run_with h100-8x exporter --listen 127.0.0.1:0 --kubernetes
assert_eq "$rc" 1 "no gRPC: exit 1"
assert_contains "$err" "--kubernetes needs gRPC's C library: $TMPD/no/libgrpc.so.29 cannot be loaded (Debian/Ubuntu: apt install libgrpc29)" \
	"no gRPC: says what is missing"
assert_one_error_line "no gRPC"
run_with h100-8x exporter --listen 127.0.0.1:0 --pod-resources-kubelet-socket /x.sock
assert_eq "$rc" 2 "--pod-resources-kubelet-socket without --kubernetes: usage error"

finish
