#!/usr/bin/env bash
# debian/ builds the packages gpuwise, libgpuwise$SO (the soname's major), libgpuwise-dev and
# python3-gpuwise with `dpkg-buildpackage -us -uc -b`, lintian finds no error
# in them, each holds what it should, and installed they work:
#   - `gpuwise --version`, `man -w gpuwise`, bash completion loaded by
#     bash-completion from /usr/share;
#   - a C program built with `pkg-config --cflags --libs gpuwise` needs
#     libgpuwise.so.$SO and lists the GPUs of a fake machine;
#   - Debian's python3 imports gpuwise from the package and lists them too;
#   - removing the packages takes every file away again.
# Where it runs as root and none of these packages is installed already (CI:
# this is the case), they are installed for real with `apt-get install ./*.deb`
# and purged at the end, whatever happens. Otherwise (not root, a real
# gpuwise installed, or GPUWISE_TEST_DEB_NO_INSTALL=1) the same checks run on
# the packages unpacked with `dpkg -x`, and the test says so.
#   tests/install/test_deb.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
TOP=$PWD
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gw-deb.XXXXXX")
# The runtime package is named after the soname (docs/abi.md): libgpuwise$SO.
SO=$(sed -n 's/^#define GPUWISE_VERSION "\([0-9]*\)\..*"/\1/p' include/gpuwise/gpuwise.h)
LIBPKG=libgpuwise$SO
PKGS=(gpuwise "$LIBPKG" libgpuwise-dev python3-gpuwise)
installed_here=0
cleanup() {
	if [ "$installed_here" = 1 ]; then
		apt-get purge -y -qq -o DPkg::Lock::Timeout=120 "${PKGS[@]}" >/dev/null 2>&1 \
			|| dpkg --purge "${PKGS[@]}" >/dev/null 2>&1
	fi
	rm -rf "$TMPD"
}
trap cleanup EXIT
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
unset GPUWISE_FAKE_MACHINE CUDA_VISIBLE_DEVICES GPUWISE_NVML_LIBRARY GPUWISE_CUDA_LIBRARY
export NO_COLOR=1
for cmd in dpkg-buildpackage dh lintian; do
	command -v $cmd >/dev/null || { echo "FAIL: $cmd is missing (run scripts/setup)"; exit 1; }
done
VERSION=$(sed -n 's/^#define GPUWISE_VERSION "\(.*\)"/\1/p' include/gpuwise/gpuwise.h)
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
deb_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
[ "$deb_version" = "$VERSION" ] || fail "debian/changelog is at $deb_version, GPUWISE_VERSION is $VERSION"

# Build from a copy: dpkg-buildpackage writes the .debs next to the tree.
# With the system's PATH, as a clean build chroot has it: pybuild runs the
# python3.X it finds first, which must be Debian's (not a pyenv or venv one).
mkdir -p "$TMPD/src"
git ls-files -co --exclude-standard -z | grep -zv '^build/' | xargs -0 cp -P --parents -t "$TMPD/src"
start=$(date +%s)
if ! (cd "$TMPD/src" && env PATH=/usr/sbin:/usr/bin:/sbin:/bin DEB_BUILD_OPTIONS="parallel=2" dpkg-buildpackage -us -uc -b) >"$TMPD/build.log" 2>&1; then
	tail -40 "$TMPD/build.log"; echo "FAIL: dpkg-buildpackage -us -uc -b"; exit 1
fi
build_s=$(( $(date +%s) - start ))
for p in "${PKGS[@]}"; do
	[ -f "$TMPD/${p}_${VERSION}_$ARCH.deb" ] || fail "${p}_${VERSION}_$ARCH.deb was not built"
done
grep -q 'dpkg-gensymbols: warning' "$TMPD/build.log" \
	&& echo "test_deb: note: $(grep -A3 'dpkg-gensymbols: warning' "$TMPD/build.log" | head -8)"

# lintian: no error (warnings are shown, not fatal).
lintian --info "$TMPD/gpuwise_${VERSION}_$ARCH.changes" >"$TMPD/lintian.txt" 2>&1
grep -E '^[EW]: ' "$TMPD/lintian.txt"
grep -q '^E: ' "$TMPD/lintian.txt" && fail "lintian reports errors"
lintian_summary=$(grep -cE '^E: ' "$TMPD/lintian.txt") lintian_w=$(grep -cE '^W: ' "$TMPD/lintian.txt")

# What each package holds, and what it depends on.
contents() { dpkg-deb -c "$TMPD/${1}_${VERSION}_$ARCH.deb" | awk '{print $6}' | sed 's|^\./|/|'; }
expect_in() { # package path...
	local p=$1; shift
	local list; list=$(contents "$p")
	for f in "$@"; do printf '%s\n' "$list" | grep -qx "$f" || fail "$p lacks $f"; done
}
expect_in gpuwise /usr/bin/gpuwise /usr/share/man/man1/gpuwise.1.gz /usr/share/bash-completion/completions/gpuwise \
	/usr/share/zsh/vendor-completions/_gpuwise /usr/share/fish/vendor_completions.d/gpuwise.fish /usr/share/doc/gpuwise/copyright
expect_in $LIBPKG "/usr/lib/$MA/libgpuwise.so.$VERSION" "/usr/lib/$MA/libgpuwise.so.${VERSION%%.*}"
expect_in libgpuwise-dev "/usr/lib/$MA/libgpuwise.so" "/usr/lib/$MA/libgpuwise.a" "/usr/lib/$MA/pkgconfig/gpuwise.pc" \
	/usr/include/gpuwise/gpuwise.h /usr/include/gpuwise/context.h
if [ -f deploy/systemd/gpuwise-exporter.service ]; then
	expect_in gpuwise /usr/share/gpuwise/systemd/gpuwise-exporter.service
	dpkg-deb --fsys-tarfile "$TMPD/gpuwise_${VERSION}_$ARCH.deb" | tar xOf - ./usr/share/gpuwise/systemd/gpuwise-exporter.service \
		| grep -q '^ExecStart=/usr/bin/gpuwise exporter' || fail "the packaged systemd unit does not start /usr/bin/gpuwise"
fi
for po in po/*.po; do
	[ -f "$po" ] && expect_in gpuwise "/usr/share/locale/$(basename "$po" .po)/LC_MESSAGES/gpuwise.mo"
done
PYDIST=/usr/lib/python3/dist-packages
expect_in python3-gpuwise $PYDIST/gpuwise/__init__.py $PYDIST/gpuwise/_gpuwise.abi3.so $PYDIST/gpuwise/py.typed
contents $LIBPKG | grep -q '\.a$\|/include/\|libgpuwise\.so$' && fail "$LIBPKG carries development files"
dpkg-deb -f "$TMPD/libgpuwise-dev_${VERSION}_$ARCH.deb" Depends | grep -q "$LIBPKG (= $VERSION)" \
	|| fail "libgpuwise-dev does not depend on $LIBPKG (= $VERSION)"
gw_depends=$(dpkg-deb -f "$TMPD/gpuwise_${VERSION}_$ARCH.deb" Depends)
case $gw_depends in *libgpuwise*) fail "gpuwise depends on $LIBPKG (it links the library statically): $gw_depends" ;; esac
case $gw_depends in *libmicrohttpd*) ;; *) fail "gpuwise is built without the exporter (no libmicrohttpd in Depends: $gw_depends)" ;; esac
dpkg-deb -I "$TMPD/${LIBPKG}_${VERSION}_$ARCH.deb" shlibs | grep -q "^libgpuwise ${VERSION%%.*} $LIBPKG" \
	|| fail "$LIBPKG has no shlibs entry for libgpuwise.so.${VERSION%%.*}"
dpkg-deb -I "$TMPD/${LIBPKG}_${VERSION}_$ARCH.deb" symbols | grep -q " gw_version@GPUWISE_$SO " \
	|| fail "$LIBPKG's symbols file lacks gw_version@GPUWISE_$SO"

# Installed: for real (root, nothing of ours installed), else unpacked.
R=   # the root the packages are in: "" when installed
how="dpkg -x (not installed system-wide)"
if [ "$(id -u)" = 0 ] && [ -z "${GPUWISE_TEST_DEB_NO_INSTALL-}" ] \
	&& ! dpkg-query -W -f '${Status}\n' "${PKGS[@]}" 2>/dev/null | grep -q 'installed'; then
	installed_here=1
	debs=(); for p in "${PKGS[@]}"; do debs+=("$TMPD/${p}_${VERSION}_$ARCH.deb"); done
	if (cd "$TMPD" && apt-get install -y -qq -o DPkg::Lock::Timeout=120 \
		"${debs[@]}") >"$TMPD/apt.log" 2>&1; then
		how="apt-get install ./*.deb"
	else
		cat "$TMPD/apt.log"; fail "apt-get install ./*.deb"
	fi
else
	R=$TMPD/root
	for p in "${PKGS[@]}"; do dpkg -x "$TMPD/${p}_${VERSION}_$ARCH.deb" "$R"; done
fi

out=$("$R/usr/bin/gpuwise" --version 2>&1)
[ "$out" = "gpuwise $VERSION" ] || fail "gpuwise --version printed: $out"
if [ -z "$R" ]; then
	[ "$(command -v gpuwise)" = /usr/bin/gpuwise ] || fail "gpuwise is not /usr/bin/gpuwise on PATH"
	found=$(man -w gpuwise 2>&1)
else
	found=$(MANPATH=$R/usr/share/man man -w gpuwise 2>&1)
fi
[ "$found" = "$R/usr/share/man/man1/gpuwise.1.gz" ] || fail "man -w gpuwise found: $found"
# The translations: an installed gpuwise finds them in /usr/share/locale
# (compiled in); unpacked elsewhere, it is pointed there.
if [ -f po/zh_CN.po ]; then
	grep -qa '/usr/share/locale' "$R/usr/bin/gpuwise" || fail "gpuwise does not look for translations in /usr/share/locale"
	out=$(GPUWISE_LOCALEDIR=${R:+$R/usr/share/locale} LANG=zh_CN.UTF-8 LC_ALL= "$R/usr/bin/gpuwise" help 2>&1)
	case $out in *"命令："*) ;; *) fail "LANG=zh_CN.UTF-8 gpuwise help is not in Chinese: $(echo "$out" | head -3)" ;; esac
fi
out=$(scripts/with-machine laptop-3060 "$R/usr/bin/gpuwise" list 2>&1)
case $out in *"RTX 3060"*) ;; *) fail "packaged gpuwise list printed: $out" ;; esac
if [ -f /usr/share/bash-completion/bash_completion ]; then
	loaded=$(XDG_DATA_DIRS=$R/usr/share bash --norc --noprofile -c '
		. /usr/share/bash-completion/bash_completion
		__load_completion gpuwise && complete -p gpuwise' 2>&1)
	case $loaded in *"-F _gpuwise gpuwise"*) ;; *) fail "bash-completion does not load the packaged completion: $loaded" ;; esac
fi

# A C program against the packaged library, through pkg-config.
if [ -z "$R" ]; then
	pc_env=()
else
	pc_env=(PKG_CONFIG_PATH="$R/usr/lib/$MA/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$R")
fi
flags=$(env "${pc_env[@]}" pkg-config --cflags --libs gpuwise 2>&1) || fail "pkg-config --cflags --libs gpuwise: $flags"
if cc -std=c11 -Wall -Wextra -Werror -o "$TMPD/list_gpus" tests/install/list_gpus.c $flags 2>"$TMPD/cc.log"; then
	readelf -d "$TMPD/list_gpus" | grep -q "NEEDED.*\\[libgpuwise.so.$SO\\]" || fail "list_gpus does not need libgpuwise.so.$SO"
	out=$(LD_LIBRARY_PATH=${R:+$R/usr/lib/$MA} scripts/with-machine h100-8x "$TMPD/list_gpus" 2>&1)
	case $out in *"libgpuwise $VERSION"*"GPU 7: NVIDIA H100"*) ;; *) fail "list_gpus against the package printed: $out" ;; esac
	if [ -z "$R" ]; then  # the dynamic loader finds it with no path set (ldconfig ran)
		ldd "$TMPD/list_gpus" | grep -qE "libgpuwise.so.$SO => (/usr)?/lib/$MA/libgpuwise.so.$SO" || fail "ldd: $(ldd "$TMPD/list_gpus")"
	fi
else
	fail "list_gpus does not compile against the package: $(cat "$TMPD/cc.log")"
fi

# Debian's own python3 imports the packaged module (-I: nothing from here).
if [ -z "$R" ]; then
	py=(/usr/bin/python3 -I -c)
else
	py=(/usr/bin/python3 -I -c "import sys; sys.path.insert(0, '$R$PYDIST'); exec(sys.argv[1])")
fi
out=$(cd "$TMPD" && "$TOP/scripts/with-machine" h100-8x "${py[@]}" '
import gpuwise
print(gpuwise.__version__, len(gpuwise.devices()), gpuwise.devices()[7].name, gpuwise.__file__)' 2>&1)
case $out in "$VERSION 8 NVIDIA H100"*" $R$PYDIST/gpuwise/__init__.py") ;; *) fail "python3 with python3-gpuwise printed: $out" ;; esac

# Removing the packages takes their files away.
if [ "$installed_here" = 1 ] && [ -z "$R" ]; then
	files=$(dpkg -L "${PKGS[@]}" 2>/dev/null | grep -E '^/usr/(bin|lib|include|share/(man|bash-completion|zsh|fish))/.*gpuwise')
	apt-get purge -y -qq -o DPkg::Lock::Timeout=120 "${PKGS[@]}" >/dev/null 2>&1 || fail "apt-get purge"
	installed_here=0
	for f in $files; do [ -e "$f" ] || [ -L "$f" ] && fail "$f is still there after purge"; done
	[ -e /usr/bin/gpuwise ] && fail "/usr/bin/gpuwise is still there after purge"
fi

if [ "$failures" = 0 ]; then
	echo "test_deb: ok (${PKGS[*]} $VERSION built in ${build_s}s; lintian: $lintian_summary errors, $lintian_w warnings; checked via $how)"
else
	echo "test_deb: $failures failed"
	exit 1
fi
