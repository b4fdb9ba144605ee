#!/usr/bin/env bash
# Download the wheels tests/device/run.sh needs beyond what the device
# machine has (it has no network): bitsandbytes, for advise_peaks.py's QLoRA
# rows. They go to build-device/wheels/ (ignored by git); pass `build-device`
# in the device call's carry (64 MiB in all: bitsandbytes 0.50.2 is 43 MB)
# and run.sh unpacks them onto PYTHONPATH.
#
#   tests/device/fetch-wheels.sh [PACKAGE==VERSION ...]   default: bitsandbytes
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p build-device/wheels
[ $# -gt 0 ] || set -- bitsandbytes
python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
	--platform manylinux_2_24_x86_64 -d build-device/wheels "$@"
ls -l build-device/wheels
du -sh build-device
