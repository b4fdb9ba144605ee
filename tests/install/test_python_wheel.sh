#!/usr/bin/env bash
# The Python package builds as a standard PEP 517 project and installs
# elsewhere: `python -m build` (python/pyproject.toml, setuptools) makes an
# sdist and, from that sdist alone, an abi3 wheel; the sdist holds every C
# source the wheel compiles (under csrc/) and nothing outside its folder; the
# wheel, installed into a fresh venv, imports with `python -I` (no repository
# on the path) and answers on a fake machine. No CUDA toolkit is used.
#
# The build runs on a copy of the tree (build writes egg-info next to
# setup.py), offline (--no-isolation: setuptools, wheel and build come from
# build/venv, installed by scripts/setup).
#   tests/install/test_python_wheel.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
TOP=$PWD
PY=${GPUWISE_VENV_PYTHON:-$TOP/build/venv/bin/python}
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gw-wheel.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
unset GPUWISE_FAKE_MACHINE CUDA_VISIBLE_DEVICES GPUWISE_NVML_LIBRARY GPUWISE_CUDA_LIBRARY PYTHONPATH GPUWISE_LOCALEDIR

"$PY" -c 'import build, setuptools, wheel' 2>/dev/null || { echo "FAIL: build/setuptools/wheel missing in $PY (run scripts/setup)"; exit 1; }
VERSION=$(sed -n 's/^#define GPUWISE_VERSION "\(.*\)"/\1/p' include/gpuwise/gpuwise.h)

# The tree as git would hand it out (tracked and new files, no build/).
mkdir -p "$TMPD/src"
git ls-files -co --exclude-standard -z | grep -zv '^build/' | xargs -0 cp -P --parents -t "$TMPD/src"
[ -f "$TMPD/src/python/pyproject.toml" ] || { echo "FAIL: could not copy the tree"; exit 1; }

start=$(date +%s)
if ! (cd "$TMPD/src" && "$PY" -m build --no-isolation --outdir "$TMPD/dist" python) >"$TMPD/build.log" 2>&1; then
	tail -30 "$TMPD/build.log"; echo "FAIL: python -m build"; exit 1
fi
build_s=$(( $(date +%s) - start ))

sdist=$TMPD/dist/gpuwise-$VERSION.tar.gz
wheel=$(ls "$TMPD"/dist/gpuwise-"$VERSION"-*.whl 2>/dev/null)
[ -f "$sdist" ] || fail "no sdist gpuwise-$VERSION.tar.gz: $(ls "$TMPD/dist")"
case $wheel in *-cp38-abi3-linux_*.whl) ;; *) fail "wheel is not cp38-abi3 for linux: ${wheel:-none}" ;; esac

# The sdist: every C source it compiles, the generators and their data, no path out.
tar tzf "$sdist" | sed "s|^gpuwise-$VERSION/||" | LC_ALL=C sort >"$TMPD/sdist.list"
grep -q '\.\.' "$TMPD/sdist.list" && fail "sdist has paths leading out: $(grep '\.\.' "$TMPD/sdist.list" | head -3)"
for f in $(git ls-files lib 'include/gpuwise/*.h' 'data/*.tsv' 'data/findings/*.txt') \
	data/explain/patterns scripts/gen-table scripts/gen-explain; do
	grep -qx "csrc/$f" "$TMPD/sdist.list" || fail "sdist lacks csrc/$f"
done
# the translations, compiled into the wheel from the sdist alone
for f in $(git ls-files 'po/*.po' 'po/data/*.po') scripts/po2mo; do
	grep -qx "csrc/$f" "$TMPD/sdist.list" || fail "sdist lacks csrc/$f"
done
for f in src/_gpuwise.c setup.py pyproject.toml gpuwise/__init__.py gpuwise/py.typed PKG-INFO; do
	grep -qx "$f" "$TMPD/sdist.list" || fail "sdist lacks $f"
done
grep -q "^Version: $VERSION\$" <(tar xzOf "$sdist" "gpuwise-$VERSION/PKG-INFO") || fail "PKG-INFO does not say Version: $VERSION"

# The wheel: the abi3 extension and the package, nothing from the build tree.
unzip -Z1 "$wheel" >"$TMPD/wheel.list" 2>/dev/null || "$PY" -c 'import sys,zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel" >"$TMPD/wheel.list"
grep -qx 'gpuwise/_gpuwise.abi3.so' "$TMPD/wheel.list" || fail "wheel lacks gpuwise/_gpuwise.abi3.so: $(cat "$TMPD/wheel.list")"
for f in gpuwise/__init__.py gpuwise/py.typed gpuwise/__init__.pyi gpuwise/_gpuwise.pyi gpuwise/_monitor.pyi; do
	grep -qx "$f" "$TMPD/wheel.list" || fail "wheel lacks $f (the type stubs ship with the package)"
done
for po in $(git ls-files 'po/*.po'); do
	lang=$(basename "$po" .po)
	grep -qx "gpuwise/locale/$lang/LC_MESSAGES/gpuwise.mo" "$TMPD/wheel.list" \
		|| fail "wheel lacks gpuwise/locale/$lang/LC_MESSAGES/gpuwise.mo"
done
grep -q '\.c$\|^csrc/' "$TMPD/wheel.list" && fail "wheel carries sources: $(grep '\.c$\|^csrc/' "$TMPD/wheel.list" | head -3)"

# A fresh venv, the wheel only (no index, no repository on the path).
"$PY" -m venv --without-pip "$TMPD/venv" || fail "python -m venv"
VPY=$TMPD/venv/bin/python
"$PY" -m pip --disable-pip-version-check -q --python "$VPY" install --no-index --no-deps "$wheel" >"$TMPD/pip.log" 2>&1 \
	|| { cat "$TMPD/pip.log"; fail "pip install of the wheel into a fresh venv"; }
out=$(cd "$TMPD" && scripts_dir=$TOP/scripts; "$scripts_dir/with-machine" h100-8x "$VPY" -I -c '
import gpuwise, sys
assert gpuwise.__file__.startswith(sys.prefix), gpuwise.__file__
ds = gpuwise.devices()
print(gpuwise.__version__ if hasattr(gpuwise, "__version__") else "", len(ds), ds[0].name)
print(gpuwise.__file__)
' 2>&1)
case $out in *"8 NVIDIA H100"*) ;; *) fail "the installed wheel on h100-8x printed: $out" ;; esac
case $out in *"$TMPD/venv/lib/"*"/gpuwise/__init__.py"*) ;; *) fail "gpuwise was not imported from the venv: $out" ;; esac

# The installed wheel speaks Chinese by itself (its own gpuwise/locale, no
# GPUWISE_LOCALEDIR): a module message and a C library message.
out=$(cd "$TMPD" && LANG=zh_CN.UTF-8 LANGUAGE= LC_ALL= "$TOP/scripts/with-machine" h100-8x "$VPY" -I -c '
import gpuwise
for f in (lambda: gpuwise.select(count=0), lambda: gpuwise._gpuwise.Context().select("GPU-zz")):
    try:
        f()
    except gpuwise.GPUWiseError as e:
        print(e)
print(gpuwise._gpuwise.locale_dir())
' 2>&1)
case $out in *"count 至少为 1，而不是 0"*"没有 GPU 匹配 'GPU-zz'"*"$TMPD/venv/lib/"*"/gpuwise/locale"*) ;;
*) fail "the installed wheel under LANG=zh_CN.UTF-8 printed: $out" ;; esac

if [ "$failures" = 0 ]; then
	echo "test_python_wheel: ok (sdist $(wc -l <"$TMPD/sdist.list") files, $(basename "$wheel"), build ${build_s}s)"
else
	echo "test_python_wheel: $failures failed"
	exit 1
fi
