#!/usr/bin/env bash
# libgpuwise.so exports the public API and nothing else (lib/export.h,
# lib/libgpuwise.map): its dynamic symbol table must equal the committed
# tests/abi/libgpuwise.symbols, so an accidental export (a gw__ helper, a
# static that lost its `static`) or a removed function fails here. Every
# function declared in include/gpuwise/ must be in it, and the library must
# load and answer through ctypes while a gw__ symbol cannot be found.
#   tests/abi/test_exports.sh [BUILD]       (default build)
# After a deliberate API change:
#   nm -D --defined-only build/libgpuwise.so | awk '{print $NF}' | LC_ALL=C sort > tests/abi/libgpuwise.symbols
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${1:-${GPUWISE_BUILD:-build}}
SO=$BUILD/libgpuwise.so
LIST=tests/abi/libgpuwise.symbols
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }

[ -f "$SO" ] || { echo "FAIL: $SO is not built"; exit 1; }
actual=$(nm -D --defined-only "$SO" | awk '{print $NF}' | LC_ALL=C sort)
if ! diff_out=$(diff <(cat "$LIST") <(printf '%s\n' "$actual")); then
	fail "$SO exports differ from $LIST (> exported but not listed, < listed but gone):"
	printf '%s\n' "$diff_out" | grep '^[<>]'
fi
leaked=$(printf '%s\n' "$actual" | grep -v '^gw_[a-z0-9]' | grep -v '^GPUWISE_[0-9]*$')
[ -z "$leaked" ] || fail "non-API symbols exported: $(echo $leaked)"

# The soname and the symbol version node carry the major version
# (docs/abi.md): libgpuwise.so.MAJOR, GPUWISE_MAJOR.
major=$(sed -n 's/^#define GPUWISE_VERSION "\([0-9]*\)\..*/\1/p' include/gpuwise/gpuwise.h)
soname=$(readelf -d "$SO" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libgpuwise.so.$major" ] || fail "$SO has soname '$soname', not libgpuwise.so.$major"
node=$(printf '%s\n' "$actual" | grep -c "@@GPUWISE_$major\$")
[ "$node" = "$(printf '%s\n' "$actual" | grep -c @)" ] || fail "not every exported symbol is in version node GPUWISE_$major"

# Declarations start a line in the public headers; comments do not.
for f in $(grep -h '^[a-z]' include/gpuwise/*.h | grep -o '\bgw_[a-z0-9_]*(' | tr -d '(' | LC_ALL=C sort -u); do
	grep -q "^$f@" <<<"$actual" || fail "public function $f (include/gpuwise/) is not exported"
done

# (A sanitizer build cannot be loaded into an uninstrumented python.)
if ldd "$SO" 2>/dev/null | grep -q libasan; then
	echo "test_exports: $SO is an ASan build, ctypes load skipped"
else
python3 - "$SO" <<'PY' || fail "$SO does not load or answer through ctypes"
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.gw_version.restype = ctypes.c_char_p
assert lib.gw_version().decode().count(".") == 2, lib.gw_version()
try:
    lib.gw__error_set
except AttributeError:
    pass
else:
    raise SystemExit("gw__error_set is reachable")
PY
fi

# Backends are told apart by gw_backend_id outside lib/backend/, never by
# comparing their names ("nvml", "amdgpu", "pci", "cuda") as strings (a
# kernel driver's name, also "amdgpu", is another thing: `driver, "...`).
by_name=$(grep -rnE 'strn?(case)?cmp\([^;]*"(nvml|amdgpu|pci|cuda)"|gw_context_backend\([^;]*"(nvml|amdgpu|pci|cuda)"' \
	cli lib python/src --include='*.c' | grep -v '^lib/backend/' | grep -v 'driver, "')
[ -z "$by_name" ] || fail "backend names compared as strings (use gw_backend_id): $by_name"

if [ "$failures" = 0 ]; then
	echo "test_exports: $(printf '%s\n' "$actual" | grep -c @) symbols, all as listed"
else
	echo "test_exports: $failures failed"
	exit 1
fi
