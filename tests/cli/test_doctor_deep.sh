#!/usr/bin/env bash
# gpuwise doctor --deep end to end, against real interpreters: a real venv
# (python3 -m venv) holding a small test double of the `torch` package (the
# framework is faked, gpuwise is not). doctor must find the venv's python,
# import torch in it and report what it says next to the static verdict;
# a hanging import must end as a timeout, a raising one with its exception
# text, and a process the import leaves behind must not hold doctor up.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 0; }
unset VIRTUAL_ENV CONDA_PREFIX PYTHONPATH PYTHONHOME

# make_venv NAME INIT_PY : a venv with torch/ (version.py in the real
# format, a cuda submodule without a GPU) whose __init__.py is INIT_PY.
make_venv() {
	local v=$TMPD/$1 sp
	python3 -m venv --without-pip "$v" >/dev/null 2>&1 || return 1
	sp=$(echo "$v"/lib/python3*/site-packages)
	mkdir -p "$sp/torch/cuda"
	printf '%s\n' "$2" >"$sp/torch/__init__.py"
	printf "__version__ = '2.3.0+cu121'\ncuda = '12.1'\nhip = None\n" >"$sp/torch/version.py"
	printf 'def is_available():\n    return False\n\ndef device_count():\n    return 0\n' >"$sp/torch/cuda/__init__.py"
	echo "$v"
}

TORCH_OK="from . import version, cuda
__version__ = '2.3.0+cu121'"

# deep VENV [doctor args]: runs doctor --deep --json on VENV; $out $err $rc,
# $secs (wall time, whole seconds, rounded up).
deep() {
	local v=$1 t0 t1
	shift
	t0=$(date +%s%N)
	run doctor --deep --json --no-kernel-log --python-env "$v" "$@"
	t1=$(date +%s%N)
	secs=$(((t1 - t0 + 999999999) / 1000000000))
}

# Python statements over x, the one deep entry for venv $V, and d.
deep_json() { # what statements
	assert_json "$1" "
xs = [x for x in d.get('deep', []) if x['site'].startswith('$V/')]
assert len(xs) == 1, 'want one deep entry for $V, got %r' % d.get('deep')
x = xs[0]
$2"
}

# 1. A torch that imports: is_available() False, no kernel, no timeout.
V=$(make_venv ok "$TORCH_OK") || { echo "FAIL: python3 -m venv failed"; exit 1; }
# Run from a folder holding another torch/: `python -c` would put the
# current directory first on sys.path and import that one instead.
mkdir -p "$TMPD/cwd/torch"
echo "__version__ = 'WRONG-cwd-torch'" >"$TMPD/cwd/torch/__init__.py"
(cd "$TMPD/cwd" && deep "$V" && declare -p out err rc secs >"$TMPD/vars")
. "$TMPD/vars"
last_cmd="gpuwise doctor --deep --json --python-env $V (from $TMPD/cwd)"
assert_ne "$rc" 2 "deep run is not a usage error"
assert_eq "$err" "" "deep run writes nothing on stderr"
deep_json "framework found and imported in the venv's own python" "
assert x['framework'] == 'pytorch', x
assert x['python'].startswith('$V/bin/python'), x['python']
assert x['timed_out'] is False and x['exit_status'] == 0, x
assert 'torch 2.3.0+cu121 cuda 12.1' in x['output'], x['output']
assert 'WRONG-cwd-torch' not in x['output'], 'imported the torch of the current directory: ' + x['output']
assert 'torch.cuda.is_available() False' in x['output'], x['output']
assert 'device_count 0' in x['output'], x['output']
assert x['ok'] is False, 'no GPU, yet ok: %r' % x
assert 0 <= x['seconds'] < 20, x['seconds']
# the verdict alone: the \"static: \" label belongs to the text output
assert not x['static_verdict'].startswith('static'), x['static_verdict']
assert x['static_verdict'] == 'no error found' or all(t.strip() and ' ' not in t.strip() for t in x['static_verdict'].split(',')), x['static_verdict']"
# The static checks read the same files: they see PyTorch 2.3.0 for CUDA 12.1.
assert_json "static probe saw the same torch" "
envs = [e for e in d['summary']['python_envs'] if e['site'].startswith('$V/')]
assert envs and envs[0]['frameworks'][0]['version'] == '2.3.0+cu121', envs
assert envs[0]['frameworks'][0]['cuda'] == '12.1', envs"
# Where the static checks find no usable GPU (this machine), they predict
# what the import says: an error in the static verdict, and no kernel ran.
assert_json "static verdict agrees with the import when no GPU is usable" "
xs = [x for x in d['deep'] if x['site'].startswith('$V/')]
if d['summary']['gpus_usable'] == 0:
    assert xs[0]['static_verdict'] != 'no error found', xs[0]
    assert 'no-gpu' in xs[0]['static_verdict'] or 'nvml' in xs[0]['static_verdict'] or 'driver' in xs[0]['static_verdict'], xs[0]
    assert xs[0]['ok'] is False, xs[0]"

# Human output shows the deep section with the runtime answer.
# Wide enough that the long temporary paths do not wrap the deep lines
# (test_text.sh checks the 80-column layout).
COLUMNS=1000 run doctor --deep --no-kernel-log --python-env "$V"
assert_contains "$out" "Deep check (imports in a subprocess)" "human deep section"
assert_contains "$out" "pytorch in $V/lib/" "human deep line names the env"
assert_contains "$out" "      static: " "the text output labels the static verdict"
assert_contains "$out" "could not use a GPU" "human deep line says no GPU"
assert_contains "$out" "torch.cuda.is_available() False" "human deep line shows the runtime answer"

# Without --deep there is no "deep" key and nothing is imported.
run doctor --json --no-kernel-log --python-env "$V"
assert_json "no deep key without --deep" "assert 'deep' not in d, d.get('deep')"

# 2. An import that hangs: a timeout, reported as such, doctor ends soon.
V=$(make_venv hang "import sys, time
print('importing torch', flush=True)
time.sleep(60)") || exit 1
deep "$V" --timeout 1
assert_ne "$rc" 2 "timeout run is not a usage error"
checks=$((checks + 1))
[ "$secs" -le 10 ] || fail "doctor --deep --timeout 1 took ${secs}s with a hanging import"
deep_json "hanging import reported as a timeout" "
assert x['timed_out'] is True, x
assert x['ok'] is False and x['exit_status'] == -1, x
assert 0.9 <= x['seconds'] < 10, x['seconds']
assert 'importing torch' in x['output'], 'output before the hang is kept: %r' % x['output']"
COLUMNS=1000 run doctor --deep --no-kernel-log --python-env "$V" --timeout 1
assert_contains "$out" "timed out" "human output says timed out"

# 3. An import that raises: the exception text, no crash, no timeout.
V=$(make_venv raises "raise RuntimeError('CUDA driver initialization failed, you might not have a CUDA gpu.')") || exit 1
deep "$V"
assert_ne "$rc" 2 "raising import is not a usage error"
checks=$((checks + 1))
[ "$rc" -le 1 ] || fail "doctor --deep crashed on a raising import: rc $rc, $err"
deep_json "raising import reported with its exception" "
assert x['timed_out'] is False and x['ok'] is False, x
assert x['exit_status'] == 0, x
assert 'error RuntimeError CUDA driver initialization failed, you might not have a CUDA gpu.' in x['output'], x['output']"

# 4. An import that leaves a process behind holding stdout: doctor must
# not wait for it (the interpreter has exited), and must not leave it.
V=$(make_venv daemon "import subprocess
p = subprocess.Popen(['sleep', '60'])
open('$TMPD/daemon.pid', 'w').write(str(p.pid))
$TORCH_OK") || exit 1
deep "$V" --timeout 8
checks=$((checks + 1))
[ "$secs" -le 6 ] || fail "doctor --deep waited ${secs}s for a process the import left behind"
deep_json "leftover process: finished, not a timeout" "
assert x['timed_out'] is False and x['exit_status'] == 0, x
assert 'torch.cuda.is_available() False' in x['output'], x['output']"
checks=$((checks + 1))
if [ -s "$TMPD/daemon.pid" ]; then
	pid=$(cat "$TMPD/daemon.pid")
	sleep 0.2
	# Killed but not yet reaped (its parent is gone) shows as a zombie.
	state=$(ps -o stat=,comm= -p "$pid" 2>/dev/null)
	if [ -n "$state" ] && [ "${state#Z}" = "$state" ] && [ "${state##* }" = sleep ]; then
		fail "the process the import started ($pid) is still running"
		kill "$pid"
	fi
else
	fail "the daemon venv's torch did not run"
fi

# 5. Every process a check starts ends with gpuwise: on SIGINT, SIGTERM
# and SIGHUP to gpuwise during a hanging import, on --timeout, and when the
# import returns normally. The import starts a helper in its own process
# group, a child that calls setsid() and forks a grandchild, and a daemon
# (double fork, new session, empty environment) whose parent exits at once.
# Each records its pid in $PIDS; whatever this test starts is killed at
# exit, also when a check fails.
PIDS=$TMPD/pids
mkdir -p "$PIDS"
BG=
cleanup_started() {
	local f
	[ -n "$BG" ] && kill -KILL "$BG" 2>/dev/null
	for f in "$PIDS"/*; do
		[ -e "$f" ] && kill -KILL "${f##*.}" 2>/dev/null
	done
	return 0
}
trap 'cleanup_started; rm -rf "$TMPD"' EXIT

SPAWNER="import os, subprocess, time
def rec(tag, pid=None):
    open('$PIDS/%s.%d' % (tag, pid or os.getpid()), 'w').close()
rec('interpreter')
rec('helper', subprocess.Popen(['sleep', '300']).pid)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        rec('setsid-grandchild')
        time.sleep(300)
        os._exit(0)
    rec('setsid-child')
    time.sleep(300)
    os._exit(0)
if os.fork() == 0:
    os.setsid()
    rec('daemon-noenv', subprocess.Popen(['/bin/sleep', '300'], env={}, start_new_session=True).pid)
    os._exit(0)
"
SPAWN_TAGS="interpreter helper setsid-grandchild setsid-child daemon-noenv"

# alive PID: running (or stopped), not a zombie waiting for its parent.
alive() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
survivors() {
	local f s=
	for f in "$PIDS"/*; do
		[ -e "$f" ] && alive "${f##*.}" && s="$s ${f##*/}"
	done
	echo "$s"
}
# all_recorded: every tag has written its pid.
all_recorded() {
	local t
	for t in $SPAWN_TAGS; do
		ls "$PIDS/$t".* >/dev/null 2>&1 || return 1
	done
}
# check_none_survive WHAT: within 3 s no recorded process is alive.
check_none_survive() {
	local i s
	checks=$((checks + 1))
	all_recorded || { fail "$1: the spawning import did not record every process: $(ls "$PIDS")"; return; }
	for i in $(seq 30); do
		s=$(survivors)
		[ -z "$s" ] && return
		sleep 0.1
	done
	fail "$1: still running after gpuwise ended:$s"
}
reset_pids() { cleanup_started; rm -f "$PIDS"/*; }

V=$(make_venv spawn-hang "$SPAWNER
print('spawned', flush=True)
time.sleep(300)") || exit 1
for sig in INT TERM HUP; do
	reset_pids
	# Background jobs of a script ignore SIGINT, and a suite started under
	# nohup ignores SIGHUP (gpuwise rightly keeps an ignored signal
	# ignored): start gpuwise with the default actions, as a terminal would.
	"$PY" -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$GW" doctor --deep --no-kernel-log --python-env "$V" --timeout 60 \
		>"$TMPD/out" 2>"$TMPD/err" &
	BG=$!
	for i in $(seq 100); do all_recorded && break; sleep 0.1; done
	kill -"$sig" "$BG"
	t0=$(date +%s%N)
	for i in $(seq 50); do kill -0 "$BG" 2>/dev/null || break; sleep 0.1; done
	wait "$BG"
	rc=$?
	BG=
	ms=$((($(date +%s%N) - t0) / 1000000))
	last_cmd="kill -$sig gpuwise doctor --deep (hanging import)"
	checks=$((checks + 1))
	[ "$ms" -le 3000 ] || fail "gpuwise took ${ms} ms to end after SIG$sig"
	assert_eq "$rc" "$((128 + $(kill -l "$sig")))" "gpuwise ends by SIG$sig (exit status 128+signal)"
	check_none_survive "SIG$sig during doctor --deep"
done 2>"$TMPD/job-notes"   # bash's "Hangup" note about the job

reset_pids
deep "$V" --timeout 3
checks=$((checks + 1))
[ "$secs" -le 8 ] || fail "doctor --deep --timeout 3 took ${secs}s"
deep_json "spawning import that hangs: a timeout" "assert x['timed_out'] is True, x"
check_none_survive "doctor --deep --timeout 3"

V=$(make_venv spawn-ok "$SPAWNER
$TORCH_OK") || exit 1
reset_pids
deep "$V" --timeout 20
checks=$((checks + 1))
[ "$secs" -le 8 ] || fail "doctor --deep waited ${secs}s for processes the import left behind"
deep_json "spawning import that returns: finished, not a timeout" "
assert x['timed_out'] is False and x['exit_status'] == 0, x
assert 'torch.cuda.is_available() False' in x['output'], x['output']"
check_none_survive "doctor --deep (import returned)"
reset_pids

# 6. PyPI torch 2.5.1 installed with --no-deps: its real METADATA (which
# pins twelve nvidia-*-cu12 wheels) and none of the wheels. The double's
# import fails the way torch/__init__.py's _preload_cuda_deps does when
# no sys.path entry has nvidia/cublas/lib. The static check names the
# missing wheels; the deep check's error goes through explain and comes
# back with its id, cause and fix instead of a bare traceback.
V=$(make_venv nodeps "import sys
raise ValueError(f'libcublas.so.*[0-9] not found in the system path {sys.path}')") || exit 1
sp=$(echo "$V"/lib/python3*/site-packages)
cp -r "$TOP/tests/fixtures/dists/torch-2.5.1-x86_64.dist-info" "$sp/torch-2.5.1.dist-info"
deep "$V"
assert_ne "$rc" 2 "--no-deps torch is not a usage error"
assert_json "static check: the wheels torch 2.5.1 pins are missing" "
fs = [f for f in d['findings'] if f['id'] == 'framework-cuda-wheels-missing' and '$V/' in f['evidence']]
assert fs and fs[0]['severity'] == 'error', d['findings']
assert \"'nvidia-cublas-cu12==12.4.5.8'\" in fs[0]['fix'], fs[0]['fix']"
deep_json "deep check explained: framework-cuda-wheels-missing with its cause and fix" "
assert x['ok'] is False, x
assert 'framework-cuda-wheels-missing' in x['static_verdict'], x['static_verdict']
assert 'error ValueError libcublas.so.*[0-9] not found in the system path' in x['output'], x['output']
e = x['explain']
assert e is not None, 'not explained: %r' % x
assert e['id'] == 'framework-cuda-wheels-missing', e
assert 'libcublas.so.*[0-9] not found' in e['line'], e
assert 'nvidia-*-cu12' in e['cause'] and e['fix'], e"
COLUMNS=1000 run doctor --deep --no-kernel-log --python-env "$V"  # content, not layout
assert_contains "$out" "explained: A framework's CUDA wheels are not installed [framework-cuda-wheels-missing]" \
	"human deep line explains the failure"
assert_contains "$out" "cause: The framework was installed from PyPI without" "human deep line gives the cause"
# The import that ran without error but found no GPU names nothing known.
V=$TMPD/ok
deep "$V"
deep_json "a clean import that finds no GPU is not explained" "assert x['explain'] is None, x['explain']"

# 7. What --deep could not check it says, with the reason, in text and
# JSON: an environment whose interpreter is a dangling link (its base
# Python was removed), and a machine with no framework at all.
V=$(make_venv broken "$TORCH_OK") || exit 1
rm -f "$V"/bin/python*
ln -s /nonexistent/gw-removed/python3.11 "$V/bin/python3"
deep "$V"
deep_json "an environment whose interpreter cannot run is listed as not checked" "
assert x['framework'] == 'pytorch', x
assert x['not_checked'] and '/nonexistent/gw-removed/python3.11' in x['not_checked'], x
assert x['python'] == '$V/bin/python3', x
assert x['ok'] is False and x['exit_status'] == -1, x"
COLUMNS=1000 run doctor --deep --no-kernel-log --python-env "$V"
assert_contains "$out" "Deep check (imports in a subprocess)" "the deep section is there for a broken interpreter"
assert_contains "$out" "pytorch in $V/" "the deep section names the environment not checked"
assert_contains "$out" "not checked: the interpreter $V/bin/python3 is a link to /nonexistent/gw-removed/python3.11" \
	"the deep section says why it was not checked"
out=$(HOME=/nonexistent "$TOP/scripts/with-machine" h100-8x -- "$GW" doctor --deep --json --no-kernel-log 2>"$TMPD/err")
last_cmd="[h100-8x] gpuwise doctor --deep --json (no framework)"
assert_json "no framework: deep says nothing was found to import" "
assert 'deep' in d, sorted(d)
assert len(d['deep']) == 1 and d['deep'][0]['not_checked'], d['deep']
assert 'no PyTorch, TensorFlow, JAX or CuPy found' in d['deep'][0]['not_checked'], d['deep']
assert d['deep'][0]['site'] == '' and d['deep'][0]['framework'] == '', d['deep']"
out=$(HOME=/nonexistent COLUMNS=1000 "$TOP/scripts/with-machine" h100-8x -- "$GW" doctor --deep --no-kernel-log 2>"$TMPD/err")
assert_contains "$out" "not checked: no PyTorch, TensorFlow, JAX or CuPy found" "no framework: said in text"

# 8. The explanation of a cu121 torch on driver 470 (the gtx1080ti fake
# NVML: CUDA 11.4) names the wheel this driver runs, never the failing
# cu121 build, nor any other CUDA 12 build.
V=$(make_venv old-driver "raise RuntimeError('The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx')") || exit 1
(export LD_LIBRARY_PATH=$TOP/build/fake/legacy-470 GPUWISE_FAKE_MACHINE=$MACHINES/gtx1080ti-old-driver/machine.json
 deep "$V"; declare -p out err rc >"$TMPD/vars")
. "$TMPD/vars"
last_cmd="gpuwise doctor --deep --json --python-env $V (driver 470)"
deep_json "driver 470: the deep explanation's fix names only builds the driver runs" "
import re
e = x['explain']
assert e and e['id'] == 'driver-too-old-for-framework', x
tags = re.findall(r'\bcu(\d+)\b', e['fix'])
assert tags, 'no wheel named: ' + e['fix']
assert all(int(t) < 120 for t in tags), 'names a build driver 470 cannot run: ' + e['fix']"
assert_not_contains "$("$GW" explain driver-too-old-for-framework 2>&1)" "cu121" \
	"the catalogue's fix does not suggest cu121 for a too-old driver"

# 9. Usage: a bad --timeout is a usage error.
run doctor --deep --timeout 0
assert_eq "$rc" 2 "--timeout 0 is a usage error"
run doctor --deep --timeout abc
assert_eq "$rc" 2 "--timeout abc is a usage error"

finish
