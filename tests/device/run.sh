#!/usr/bin/env bash
# Real-hardware check: gpuwise against nvidia-smi on this machine.
#
#   tests/device/run.sh            (from anywhere; needs no network)
#
# Builds gpuwise, runs `gpuwise info --json` and `nvidia-smi -q -x`, compares
# them field by field (tests/device/compare.py: static fields exactly,
# dynamic ones within a tolerance) and prints the table. Also saves what a
# new fake machine needs: nvidia-smi -q / -q -x / --query-gpu, gpuwise's own
# view, the exported NVML symbols and a draft machine.json, into
#   $OUT/<date>-<gpu>/        when $OUT is set (the device runner's folder)
#   docs/hardware/<date>-<gpu>/  otherwise.
# When a Python with pynvml is around it also runs the peer comparison
# (tests/python/peer_dump.py) against the real driver, and reports what
# torch says if torch is installed (informational), and measures the peak
# memory of the runs in bench/data/advise_device_runs.tsv when transformers
# is there too (tests/device/advise_peaks.py; informational).
# Then runs tests/device/bench.sh: `gpuwise bench --json --force` (GPU 0;
# GPUWISE_DEVICE_BENCH_ARGS adds options, e.g. --quick) beside PyTorch's
# copy and matmul figures on the same GPU, held to the bench targets
# (plausible figures, d2d-copy >= 90 % of datasheet on H100/H200, within 3 %
# of torch); saved as gpuwise-bench.json, torch-bench.json, bench-compare.txt.
# Exit: 0 all fields agree and bench is plausible, 1 a field differs or a
# bench figure is implausible, 2 no NVIDIA driver/GPU here or the build failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)

say() { printf '%s\n' "$*"; }
die2() { say "device check: $*" >&2; exit 2; }

command -v nvidia-smi >/dev/null 2>&1 ||
	die2 "nvidia-smi not found: no NVIDIA driver on this machine (or it is not on PATH); nothing to compare"
if ! nvidia-smi -L >/tmp/gw-device-L.$$ 2>&1; then
	cat /tmp/gw-device-L.$$ >&2; rm -f /tmp/gw-device-L.$$
	die2 "nvidia-smi cannot talk to the driver (see above)"
fi
say "== GPUs"; cat /tmp/gw-device-L.$$; rm -f /tmp/gw-device-L.$$

# GPUWISE_NO_BUILD=1 uses the build/gpuwise that is there (the test suite's
# dry run, which has just built it).
if [ -z "${GPUWISE_NO_BUILD-}" ]; then
	say "== build"
	make -s -j"$(nproc 2>/dev/null || echo 2)" build/gpuwise >/tmp/gw-device-build.$$ 2>&1 ||
		{ tail -30 /tmp/gw-device-build.$$ >&2; rm -f /tmp/gw-device-build.$$; die2 "build failed"; }
	rm -f /tmp/gw-device-build.$$
fi
[ -x build/gpuwise ] || die2 "build/gpuwise missing"

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
	tr 'A-Z' 'a-z' | sed 's/nvidia //; s/[^a-z0-9]\+/-/g; s/^-//; s/-$//')
dest=${OUT:+$OUT/}
dest=${dest:-docs/hardware/}$(date +%Y-%m-%d)-${gpu:-gpu}
mkdir -p "$dest" || die2 "cannot create $dest"

# Capture both views as close together as possible, gpuwise first and last,
# so dynamic values can be bracketed if needed.
build/gpuwise info --json >"$dest/gpuwise-info.json" 2>"$dest/gpuwise-info.stderr"; gw_rc=$?
nvidia-smi -q -x >"$dest/nvidia-smi-q.xml" 2>&1
nvidia-smi --query-gpu=pci.bus_id,compute_cap --format=csv,noheader >"$dest/nvidia-smi-query.csv" 2>&1 ||
	: >"$dest/nvidia-smi-query.csv"  # compute_cap needs driver >= 510
nvidia-smi -q >"$dest/nvidia-smi-q.txt" 2>&1
nvidia-smi >"$dest/nvidia-smi.txt" 2>&1
build/gpuwise list >"$dest/gpuwise-list.txt" 2>&1
build/gpuwise info >"$dest/gpuwise-info.txt" 2>&1
# The real topology and P2P matrices, next to gpuwise info's (shown with 2+ GPUs)
# and info --json "peers": what a fake machine's "topology"/"p2p" lists model.
{ nvidia-smi topo -m; for c in r w n a p; do echo; echo "== nvidia-smi topo -p2p $c"; nvidia-smi topo -p2p "$c"; done; } \
	>"$dest/nvidia-smi-topo.txt" 2>&1
{ uname -a; cat /proc/driver/nvidia/version 2>/dev/null; ls -l /dev/nvidia* 2>/dev/null; } >"$dest/system.txt"

# Which NVML symbols this driver exports (nvml.md §6: what the fake must offer).
lib=$(ldconfig -p 2>/dev/null | awk '/libnvidia-ml\.so\.1 /{print $NF; exit}')
[ -n "$lib" ] && command -v nm >/dev/null && nm -D --defined-only "$lib" 2>/dev/null |
	awk '{print $NF}' | sort >"$dest/libnvidia-ml-symbols.txt"

say "== gpuwise info --json exit status: $gw_rc"
[ -s "$dest/gpuwise-info.stderr" ] && cat "$dest/gpuwise-info.stderr"

say "== gpuwise vs nvidia-smi"
python3 tests/device/compare.py "$dest/gpuwise-info.json" "$dest/nvidia-smi-q.xml" \
	"$dest/nvidia-smi-query.csv" --machine-json "$dest/draft-machine.json"
rc=$?
[ $rc -gt 1 ] && rc=1   # a crash of compare.py is a failure too

# The bench check (tests/device/bench.sh): gpuwise bench beside torch on
# the same GPU, held to the targets; its files go in the same folder.
GPUWISE_NO_BUILD=1 bash tests/device/bench.sh "$dest" || rc=1

# Peers against the real driver, when a Python with pynvml is at hand.
for py in build/venv/bin/python python3; do
	if [ -x "$(command -v "$py" 2>/dev/null)" ] && "$py" -c 'import pynvml' 2>/dev/null; then
		say "== peer readers on real hardware ($py)"
		"$py" tests/python/peer_dump.py build/gpuwise >"$dest/peers.json" 2>"$dest/peers.stderr" &&
			say "saved $dest/peers.json" || say "peer_dump failed: $(tail -3 "$dest/peers.stderr")"
		break
	fi
done

if python3 -c 'import torch' >/dev/null 2>&1; then
	say "== torch"
	python3 -c 'import torch; print(torch.__version__, torch.cuda.is_available(), torch.version.cuda, torch.cuda.device_count())' \
		2>&1 | tee "$dest/torch.txt"
else
	say "== torch: not installed (skipped)"
fi

# Measured peak memory of real training/inference runs for `gpuwise advise`
# (issue 11; bench/data/advise_device_runs.tsv): informational, it does not
# change the exit status. GPUWISE_DEVICE_ADVISE=0 skips it;
# GPUWISE_DEVICE_ADVISE_BUDGET bounds when the last run may start (seconds);
# GPUWISE_DEVICE_ADVISE_ONLY=ID,... measures those runs alone. The device
# machine has no network: wheels it lacks (bitsandbytes, for the QLoRA rows)
# travel in build-device/wheels/ (tests/device/fetch-wheels.sh puts them
# there; carry build-device) and are unpacked onto PYTHONPATH here.
if [ "${GPUWISE_DEVICE_ADVISE-1}" != 0 ] && python3 -c 'import torch, transformers' >/dev/null 2>&1; then
	say "== advise: measured peaks (tests/device/advise_peaks.py)"
	pylib=
	if ls build-device/wheels/*.whl >/dev/null 2>&1; then
		pylib=$(mktemp -d /tmp/gw-device-wheels.XXXXXX)
		for w in build-device/wheels/*.whl; do
			python3 -m zipfile -e "$w" "$pylib" && say "   wheel $(basename "$w") unpacked for this run"
		done
	fi
	PYTHONUNBUFFERED=1 PYTHONPATH="$pylib${PYTHONPATH:+:$PYTHONPATH}" python3 tests/device/advise_peaks.py \
		"$dest/advise-peaks.jsonl" ${GPUWISE_DEVICE_ADVISE_ONLY:+--only "$GPUWISE_DEVICE_ADVISE_ONLY"} \
		--budget "${GPUWISE_DEVICE_ADVISE_BUDGET:-240}" 2>&1 || say "advise_peaks failed"
	[ -z "$pylib" ] || rm -rf "$pylib"
else
	say "== advise: measured peaks skipped (needs python3 with torch and transformers)"
fi

say
say "captures saved in $dest"
[ $rc = 0 ] && say "device check: PASS" || say "device check: FAIL (fields differ, see DIFF rows)"
exit $rc
