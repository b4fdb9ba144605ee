#!/usr/bin/env bash
# gpuwise slurm gres against a real single-node Slurm (Debian slurmd,
# slurmctld, slurm-client, munge; scripts/setup installs them): the
# gres.conf and NodeName line printed for a fake machine, with its device
# files made by mknod in a temporary folder (the File= paths mapped there),
# are accepted by `slurmd -G` with the right types and counts (8x H100, and
# MIG devices through MultipleFiles on the A100 machine); then munged
# (own key and socket), slurmctld and slurmd run on loopback ports and
# `srun --gres=gpu:2` hands a job two GPUs, and the TaskProlog/TaskEpilog
# pair of deploy/slurm/ (gpuwise slurm prolog/epilog) writes the task's GPU
# report into the accounting log. Needs root (mknod, SlurmUser
# root); says SKIP otherwise. Every daemon is stopped on exit (trap), every
# wait bounded.
. "$(dirname "$0")/lib.sh"

D=$TMPD/slurm
PIDS=()
stop_all() {
	local p steps=()
	# A step whose srun gave up (timeout under load) can keep its slurmstepd
	# after the daemons are gone: cancel what is still queued or running,
	# and end every slurmstepd started for this test (its working folder is
	# the test's), so no process outlives the test.
	if [ -n "${SLURM_CONF-}" ] && [ -f "$SLURM_CONF" ]; then
		timeout 5 scancel --full --signal=KILL $(timeout 5 squeue -h -o %i 2>/dev/null) >/dev/null 2>&1
	fi
	for p in $(pgrep -x slurmstepd 2>/dev/null); do
		[ "$(readlink "/proc/$p/cwd" 2>/dev/null)" = "$PWD" ] && steps+=("$p")
	done
	for p in "${PIDS[@]}" "${steps[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${PIDS[@]}" "${steps[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$TMPD"
}
trap stop_all EXIT

# --- the text, without Slurm ------------------------------------------------------
run_on h100-8x slurm gres --node-name gwnode
assert_eq "$rc" 0 "slurm gres exits 0"
assert_eq "$(printf '%s\n' "$out" | grep -c '^Name=gpu Type=nvidia_h100_80gb_hbm3 File=/dev/nvidia[0-7]$')" 8 \
	"one gres.conf line per GPU, typed as Slurm's NVML autodetection names it"
assert_contains "$out" "# NodeName=gwnode Gres=gpu:nvidia_h100_80gb_hbm3:8" "the NodeName fragment, commented"
run_on h100-8x slurm gres --node --node-name gwnode
assert_eq "$out" "NodeName=gwnode Gres=gpu:nvidia_h100_80gb_hbm3:8" "--node prints the fragment alone"
run_on a100-mig slurm gres --json
assert_json "MIG devices are listed through MultipleFiles" "
g = d['gres']
assert [x['mig'] for x in g] == [0, 1, 2, None], g
assert g[0]['type'] == 'nvidia_a100-sxm4-40gb_3g.20gb', g[0]
assert g[0]['files'].startswith('/dev/nvidia0,/dev/nvidia-caps/nvidia-cap'), g[0]
assert g[3]['files'] == '/dev/nvidia1', g[3]
"
run_on no-driver slurm gres
assert_eq "$rc" 1 "no NVIDIA GPU: exit 1"
run slurm bogus
assert_eq "$rc" 2 "an unknown subcommand is a usage error"
assert_contains "$err" "unknown subcommand 'bogus'" "the message names what was typed"
run slurm gress
assert_contains "$err" "unknown subcommand 'gress'; did you mean 'gres'?" "a typo of gres: did you mean"
# --node-name goes into slurm.conf as NodeName: one host name (letters,
# digits, '-', '.', '_'), not a blank, '#', '=', a hostlist or DEFAULT.
for bad in 'bad name!' 'a,b' 'gpu[1-2]' '#x' 'x=y' '-x' DEFAULT; do
	run_on h100-8x slurm gres --node --node-name "$bad"
	assert_eq "$rc" 2 "--node-name '$bad' is a usage error"
	assert_contains "$err" "needs a Slurm node name" "--node-name '$bad': says what a node name is"
	assert_eq "$out" "" "--node-name '$bad': nothing printed"
done
run_on h100-8x slurm gres --node --node-name gpu-01.rack_2
assert_eq "$rc" 0 "--node-name gpu-01.rack_2 is a node name"
assert_contains "$out" "NodeName=gpu-01.rack_2 Gres=" "and is written as given"

if [ "$(id -u)" != 0 ] || ! command -v slurmd >/dev/null || ! command -v slurmctld >/dev/null ||
	! command -v munged >/dev/null || ! command -v srun >/dev/null; then
	echo "SKIP: real Slurm (needs root and slurmd, slurmctld, srun, munged: scripts/setup installs them)"
	finish
fi

mkdir -p "$D/dev/nvidia-caps" "$D/state" "$D/spool" "$D/log"
chmod 700 "$D"
HOST=$(hostname -s)
# slurmctld's and slurmd's ports (PORT, PORT + 1) must be written in
# slurm.conf, so the kernel cannot pick them. Below the kernel's ephemeral
# range (ip_local_port_range): a port there is never held by a client
# connection of a test running beside this one (the exporter's attack
# opens thousands); each candidate pair is checked free by binding it.
read -r EPHEMERAL_LO _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || EPHEMERAL_LO=32768
PORT=$("$PY" - "$EPHEMERAL_LO" "$$" <<'PY'
import socket, sys
lo, seed = int(sys.argv[1]), int(sys.argv[2])
base = 10000
span = max(lo - base - 2, 1000)
for k in range(500):
    p = base + (seed * 7919 + k * 101) % span
    free = True
    for q in (p, p + 1):
        s = socket.socket()
        try:
            s.bind(("0.0.0.0", q))
        except OSError:
            free = False
        finally:
            s.close()
    if free:
        print(p)
        break
PY
)
[ -n "$PORT" ] || { echo "FAIL: no two free ports below $EPHEMERAL_LO for slurmctld and slurmd"; exit 1; }

# gres.conf from gpuwise for machine $1, its files made under $D/dev.
make_conf() {
	local m=$1 f
	"$TOP/scripts/with-machine" "$m" -- "$GW" slurm gres --node-name gwnode | sed "s#/dev/#$D/dev/#g" >"$D/gres.conf"
	for f in $(grep -o "$D/dev/[^ ,]*" "$D/gres.conf"); do
		[ -e "$f" ] || mknod "$f" c 195 $((RANDOM % 200 + 1)) || fail "mknod $f"
	done
	cat >"$D/slurm.conf" <<EOF
ClusterName=gwtest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$D/munge.sock
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
ReturnToService=2
MpiDefault=none
TaskProlog=$TOP/deploy/slurm/gpuwise-task-prolog
TaskEpilog=$TOP/deploy/slurm/gpuwise-task-epilog
GresTypes=gpu
$("$TOP/scripts/with-machine" "$m" -- "$GW" slurm gres --node --node-name gwnode) NodeHostname=$HOST NodeAddr=127.0.0.1 CPUs=1 RealMemory=100 State=UNKNOWN
PartitionName=test Nodes=gwnode Default=YES MaxTime=INFINITE State=UP
EOF
}

# --- slurmd -G parses what gpuwise wrote -------------------------------------------
make_conf h100-8x
timeout 30 slurmd -G -N gwnode -f "$D/slurm.conf" >"$D/g.out" 2>&1
assert_eq "$?" 0 "slurmd -G accepts the 8-GPU gres.conf"
assert_eq "$(grep -c 'Gres Name=gpu Type=nvidia_h100_80gb_hbm3 Count=1' "$D/g.out")" 8 \
	"slurmd -G sees 8 GPUs of the H100 type: $(tail -3 "$D/g.out")"

make_conf a100-mig
timeout 30 slurmd -G -N gwnode -f "$D/slurm.conf" >"$D/g.out" 2>&1
assert_eq "$?" 0 "slurmd -G accepts MIG devices through MultipleFiles"
assert_eq "$(grep -c 'Gres Name=gpu Type=nvidia_a100-sxm4-40gb_[0-9]g\.[0-9]*gb Count=1' "$D/g.out")" 3 \
	"slurmd -G sees the three MIG devices: $(tail -4 "$D/g.out")"
assert_eq "$(grep -c 'Type=nvidia_a100-sxm4-40gb Count=1' "$D/g.out")" 1 "and the whole GPU"

# --- a real single-node cluster: srun gets two GPUs -----------------------------------
make_conf h100-8x
dd if=/dev/urandom of="$D/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$D/munge.key"
munged -F -f --socket="$D/munge.sock" --key-file="$D/munge.key" --log-file="$D/log/munged.log" \
	--pid-file="$D/munged.pid" --seed-file="$D/munged.seed" >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$D/munge.sock" ] && break; sleep 0.1; done
slurmctld -D -f "$D/slurm.conf" >"$D/log/ctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -N gwnode -f "$D/slurm.conf" >"$D/log/slurmd.out" 2>&1 &
PIDS+=($!)
export SLURM_CONF=$D/slurm.conf
state=
for _ in $(seq 100); do
	state=$(timeout 5 sinfo -h -N -n gwnode -o '%T %G' 2>/dev/null)
	case $state in idle*) break ;; esac
	sleep 0.2
done
assert_eq "$state" "idle gpu:nvidia_h100_80gb_hbm3:8" "slurmctld registers the node with its 8 GPUs"
out=$(timeout 60 srun -N1 -n1 --gres=gpu:2 sh -c 'echo "$CUDA_VISIBLE_DEVICES"' 2>"$D/srun.err")
assert_eq "$(printf '%s' "$out" | tr ',' '\n' | grep -c .)" 2 "srun --gres=gpu:2 hands the job two GPUs ($out; $(tail -2 "$D/srun.err"))"
out=$(timeout 60 srun -N1 -n1 --gres=gpu:nvidia_h100_80gb_hbm3:3 sh -c 'echo "$CUDA_VISIBLE_DEVICES"' 2>>"$D/srun.err")
assert_eq "$(printf '%s' "$out" | tr ',' '\n' | grep -c .)" 3 "a request by type gets three"

# --- the TaskProlog/TaskEpilog report of a real srun task ----------------------------
# The task (and so its prolog and epilog) inherits srun's environment: the
# fake machine, gpuwise's path and a private pool folder.
export GPUWISE=$GW GPUWISE_POOL_DIR=$D/pool GPUWISE_FAKE_MACHINE=$MACHINES/h100-8x/machine.json
export GPUWISE_ROOT=$EMPTY_ROOT LD_LIBRARY_PATH=$BUILD/fake
out=$(timeout 60 srun -N1 -n1 -J gw-report --gres=gpu:2 sh -c 'echo "$SLURM_JOB_ID $CUDA_VISIBLE_DEVICES"; sleep 2' 2>>"$D/srun.err")
jobid=${out%% *}
acct() { python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall())" \
	"$GPUWISE_POOL_DIR/accounting.sqlite" "$1" 2>/dev/null; }
row=
for _ in $(seq 100); do
	row=$(acct "SELECT job, name, gpus, uuids, gpu_seconds, exit_status, slurm_job FROM jobs WHERE slurm_job LIKE '$jobid.%'")
	[ -n "$row" ] && [ "$row" != "[]" ] && break
	sleep 0.1
done
want=$(mjson h100-8x "','.join(m['nvml']['devices'][int(i)]['uuid'] for i in '${out#* }'.split(','))")
checks=$((checks + 1))
python3 - "$row" "$jobid" "$want" <<'PYEOF' || fail "no GPU report for Slurm job $jobid: $row ($(tail -3 "$D/log/slurmd.log"))"
import ast, sys
rows = ast.literal_eval(sys.argv[1])
assert len(rows) == 1, rows
job, name, gpus, uuids, gpu_s, status, key = rows[0]
assert job == int(sys.argv[2]) and name == "gw-report" and key.startswith(sys.argv[2] + "."), rows
assert gpus == 2 and uuids == sys.argv[3], (uuids, sys.argv[3])
assert 2 * 1.5 <= gpu_s < 2 * 10, gpu_s          # two GPUs for about 2 s
assert status is None, status                    # slurmstepd does not tell a TaskEpilog
PYEOF
assert_eq "$(ls "$GPUWISE_POOL_DIR" | grep -c '^slurm-')" 0 "the epilog stopped the sampler (its pid file is gone)"
run report --json
assert_json "gpuwise report counts the Slurm task" "assert d['total']['jobs'] == 1 and d['total']['gpu_seconds'] > 3, d['total']"
unset GPUWISE GPUWISE_POOL_DIR GPUWISE_FAKE_MACHINE GPUWISE_ROOT LD_LIBRARY_PATH
unset SLURM_CONF
finish
