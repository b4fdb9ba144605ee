#!/usr/bin/env bash
# `make install` into a staged DESTDIR installs exactly what the Makefile's
# INSTALLED list says, in working order, and `make uninstall` removes it all:
#   - the file list (CLI, libgpuwise.so.X.Y.Z + soname link + dev link, .a,
#     headers, gpuwise.pc, man page, bash/zsh/fish completion);
#   - the shared library's soname is libgpuwise.so.MAJOR and a program built
#     with `pkg-config --cflags --libs gpuwise` needs that name and lists the
#     GPUs of a fake machine; a static link with `pkg-config --static` works;
#   - the installed CLI runs on a fake machine;
#   - man finds the page (man -w with MANPATH, man -l renders it);
#   - bash completes a command, an option and a directory value, and
#     bash-completion's own loader finds the file by XDG_DATA_DIRS;
#   - PREFIX/LIBDIR/INCLUDEDIR reach gpuwise.pc (relative to ${prefix} when
#     under it, absolute otherwise).
#   tests/install/test_make_install.sh [BUILD]
set -u
cd "$(dirname "$0")/../.." || exit 1
TOP=$PWD
BUILD=${1:-${GPUWISE_BUILD:-build}}
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gw-install.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
unset GPUWISE_FAKE_MACHINE CUDA_VISIBLE_DEVICES GPUWISE_NVML_LIBRARY GPUWISE_CUDA_LIBRARY
export NO_COLOR=1

STAGE=$TMPD/stage
P=$STAGE/usr/local
make -s BUILD="$BUILD" install DESTDIR="$STAGE" >"$TMPD/install.log" 2>&1 \
	|| { cat "$TMPD/install.log"; echo "FAIL: make install"; exit 1; }
VERSION=$(sed -n 's/^#define GPUWISE_VERSION "\(.*\)"/\1/p' include/gpuwise/gpuwise.h)
MAJOR=${VERSION%%.*}

# 1. Exactly the expected files, nothing else.
{
	echo bin/gpuwise
	echo lib/libgpuwise.so.$VERSION; echo lib/libgpuwise.so.$MAJOR; echo lib/libgpuwise.so
	echo lib/libgpuwise.a; echo lib/pkgconfig/gpuwise.pc
	for h in include/gpuwise/*.h; do echo "$h"; done
	echo share/man/man1/gpuwise.1
	echo share/bash-completion/completions/gpuwise
	echo share/zsh/site-functions/_gpuwise
	echo share/fish/vendor_completions.d/gpuwise.fish
	for po in po/*.po; do echo "share/locale/$(basename "$po" .po)/LC_MESSAGES/gpuwise.mo"; done
	for f in deploy/*/*; do [ -f "$f" ] && echo "share/gpuwise/${f#deploy/}"; done
} | LC_ALL=C sort >"$TMPD/expected"
(cd "$P" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort) >"$TMPD/actual"
diff "$TMPD/expected" "$TMPD/actual" >"$TMPD/diff" || { fail "installed files differ (< expected, > installed):"; cat "$TMPD/diff"; }
make -s BUILD="$BUILD" print-installed | sed 's|^/usr/local/||' | LC_ALL=C sort | diff - "$TMPD/expected" >/dev/null \
	|| fail "make print-installed (what uninstall removes) is not the installed list"
[ -x "$P/bin/gpuwise" ] || fail "bin/gpuwise is not executable"
# The systemd unit starts the installed binary.
unit=$P/share/gpuwise/systemd/gpuwise-exporter.service
if [ -f deploy/systemd/gpuwise-exporter.service ]; then
	grep -q '^ExecStart=/usr/local/bin/gpuwise exporter' "$unit" || fail "installed unit: $(grep ExecStart "$unit")"
fi
# The installed catalogue is the one the installed CLI reads (pointed at the
# staged folder: an installed gpuwise looks in $(LOCALEDIR) itself).
GPUWISE_LOCALEDIR=$P/share/locale LANG=zh_CN.UTF-8 "$P/bin/gpuwise" help | grep -q "命令：" \
	|| fail "the installed catalogue does not give Chinese help"
# ... and where the installed library looks by itself: $(LOCALEDIR) of this build.
grep -qa '/usr/local/share/locale' "$P/lib/libgpuwise.so.$VERSION" \
	|| fail "libgpuwise does not look for its catalogues in /usr/local/share/locale (LOCALEDIR)"
[ "$(readlink "$P/lib/libgpuwise.so.$MAJOR")" = "libgpuwise.so.$VERSION" ] || fail "libgpuwise.so.$MAJOR does not link to libgpuwise.so.$VERSION"
[ "$(readlink "$P/lib/libgpuwise.so")" = "libgpuwise.so.$MAJOR" ] || fail "the dev link libgpuwise.so does not point to libgpuwise.so.$MAJOR"
soname=$(readelf -d "$P/lib/libgpuwise.so.$VERSION" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libgpuwise.so.$MAJOR" ] || fail "soname is '$soname', not libgpuwise.so.$MAJOR"
for f in "$P/lib/libgpuwise.so.$VERSION" "$P/lib/libgpuwise.a" "$P/include/gpuwise/gpuwise.h" "$P/share/man/man1/gpuwise.1"; do
	[ "$(stat -c %a "$f")" = 644 ] || fail "$f has mode $(stat -c %a "$f"), not 644"
done

# 2. pkg-config: a C program outside the tree, dynamic and static.
pc=$P/lib/pkgconfig/gpuwise.pc
grep -qx 'prefix=/usr/local' "$pc" || fail "gpuwise.pc: prefix is not /usr/local"
grep -qx 'libdir=${prefix}/lib' "$pc" || fail "gpuwise.pc: libdir is not \${prefix}/lib"
grep -qx 'Libs.private: -ldl -lpthread -lm' "$pc" || fail "gpuwise.pc: no Libs.private: -ldl -lpthread -lm"
export PKG_CONFIG_PATH=$P/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$STAGE
[ "$(pkg-config --modversion gpuwise)" = "$VERSION" ] || fail "pkg-config --modversion gpuwise is not $VERSION"
if cc -std=c11 -Wall -Wextra -Werror -o "$TMPD/list_gpus" tests/install/list_gpus.c $(pkg-config --cflags --libs gpuwise) 2>"$TMPD/cc.log"; then
	readelf -d "$TMPD/list_gpus" | grep -q "NEEDED.*\[libgpuwise.so.$MAJOR\]" || fail "list_gpus does not need libgpuwise.so.$MAJOR"
	out=$(LD_LIBRARY_PATH=$P/lib scripts/with-machine laptop-3060 "$TMPD/list_gpus" 2>&1)
	case $out in *"libgpuwise $VERSION"*"GPU 0: NVIDIA GeForce RTX 3060 Laptop GPU"*) ;; *) fail "list_gpus (shared) printed: $out" ;; esac
	out=$(LD_LIBRARY_PATH=$P/lib "$TMPD/list_gpus" 2>&1)
	[ $? -eq 2 ] && fail "list_gpus cannot create a context without a machine: $out"
else
	fail "list_gpus does not compile with pkg-config --cflags --libs gpuwise: $(cat "$TMPD/cc.log")"
fi
libs_static=$(pkg-config --static --libs gpuwise)
if cc -std=c11 -o "$TMPD/list_gpus_static" tests/install/list_gpus.c $(pkg-config --cflags gpuwise) \
	-Wl,-Bstatic ${libs_static/-lgpuwise/-lgpuwise -Wl,-Bdynamic} 2>"$TMPD/cc.log"; then
	readelf -d "$TMPD/list_gpus_static" | grep -q 'NEEDED.*libgpuwise' && fail "static link still needs libgpuwise.so"
	out=$(scripts/with-machine h100-8x "$TMPD/list_gpus_static" 2>&1)
	case $out in *"GPU 7: NVIDIA H100"*) ;; *) fail "list_gpus (static) printed: $out" ;; esac
else
	fail "static link with pkg-config --static --libs gpuwise failed: $(cat "$TMPD/cc.log")"
fi
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

# 3. The installed CLI, on a fake machine.
out=$(scripts/with-machine laptop-3060 "$P/bin/gpuwise" list 2>&1)
case $out in *"RTX 3060"*) ;; *) fail "installed gpuwise list printed: $out" ;; esac
[ "$("$P/bin/gpuwise" --version)" = "gpuwise $VERSION" ] || fail "installed gpuwise --version: $("$P/bin/gpuwise" --version)"

# 4. man.
if command -v man >/dev/null; then
	found=$(MANPATH=$P/share/man man -w gpuwise 2>&1)
	[ "$found" = "$P/share/man/man1/gpuwise.1" ] || fail "man -w gpuwise with MANPATH=$P/share/man found: $found"
	page=$(MANWIDTH=80 man -l "$P/share/man/man1/gpuwise.1" 2>&1 | col -b 2>/dev/null)
	case $page in *"gpuwise - see every GPU"*doctor*) ;; *) fail "man -l does not render the page: $(echo "$page" | head -5)" ;; esac
else
	echo "test_make_install: man not installed, man checks skipped"
fi

# 5. Completion: bash (a real bash, as a user's shell would load it).
comp=$P/share/bash-completion/completions/gpuwise
complete_words() { # line... : what bash offers for the last word of "gpuwise ARGS"
	bash --norc --noprofile -c '
		. "$1"; shift
		complete -p gpuwise >/dev/null || exit 9
		COMP_WORDS=(gpuwise "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
		_gpuwise; printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$@"
}
[ "$(complete_words do)" = doctor ] || fail "bash: 'gpuwise do<TAB>' offers: $(complete_words do)"
[ "$(complete_words doctor --py)" = --python-env ] || fail "bash: 'gpuwise doctor --py<TAB>' offers: $(complete_words doctor --py)"
[ "$(complete_words help expl)" = explain ] || fail "bash: 'gpuwise help expl<TAB>' offers: $(complete_words help expl)"
mkdir -p "$TMPD/envs/venv-a"
[ "$(cd "$TMPD" && complete_words doctor --python-env envs/ve)" = envs/venv-a ] \
	|| fail "bash: 'gpuwise doctor --python-env envs/ve<TAB>' offers: $(cd "$TMPD" && complete_words doctor --python-env envs/ve)"
for c in $("$P/bin/gpuwise" __spec | python3 -c 'import json,sys; print(" ".join(c["name"] for c in json.load(sys.stdin)["commands"]))'); do
	complete_words '' | grep -qx "$c" || fail "bash: command $c is not offered"
done
if [ -f /usr/share/bash-completion/bash_completion ]; then
	loaded=$(XDG_DATA_DIRS=$P/share bash --norc --noprofile -c '
		. /usr/share/bash-completion/bash_completion
		__load_completion gpuwise && complete -p gpuwise' 2>&1)
	case $loaded in *"-F _gpuwise gpuwise"*) ;; *) fail "bash-completion does not load $comp by XDG_DATA_DIRS: $loaded" ;; esac
fi
if command -v zsh >/dev/null; then zsh -n "$P/share/zsh/site-functions/_gpuwise" || fail "zsh completion has a syntax error"; fi
if command -v fish >/dev/null; then fish -n "$P/share/fish/vendor_completions.d/gpuwise.fish" || fail "fish completion has a syntax error"; fi

# 6. Uninstall leaves no file or link behind.
make -s BUILD="$BUILD" uninstall DESTDIR="$STAGE" >/dev/null 2>&1 || fail "make uninstall failed"
left=$(find "$STAGE" \( -type f -o -type l \))
[ -z "$left" ] && [ ! -d "$P/include/gpuwise" ] && [ ! -d "$P/share/gpuwise" ] || fail "make uninstall left: $left $(ls -d "$P/include/gpuwise" "$P/share/gpuwise" 2>/dev/null)"

# 7. The directory variables: LIBDIR outside PREFIX is written absolute.
make -s BUILD="$BUILD" install DESTDIR="$TMPD/s2" PREFIX=/opt/gw LIBDIR=/usr/lib64 INCLUDEDIR=/opt/gw/inc \
	MANDIR=/usr/share/man BINDIR=/opt/gw/sbin DATADIR=/opt/gw/data >/dev/null 2>&1 || fail "make install with directory variables"
for f in opt/gw/sbin/gpuwise usr/lib64/libgpuwise.so.$MAJOR usr/lib64/pkgconfig/gpuwise.pc opt/gw/inc/gpuwise/gpuwise.h \
	usr/share/man/man1/gpuwise.1 opt/gw/data/bash-completion/completions/gpuwise; do
	[ -e "$TMPD/s2/$f" ] || fail "with directory variables: $f is missing"
done
pc=$TMPD/s2/usr/lib64/pkgconfig/gpuwise.pc
grep -qx 'prefix=/opt/gw' "$pc" && grep -qx 'libdir=/usr/lib64' "$pc" && grep -qx 'includedir=${prefix}/inc' "$pc" \
	|| fail "gpuwise.pc with PREFIX=/opt/gw LIBDIR=/usr/lib64: $(grep dir= "$pc")"
if [ -f deploy/systemd/gpuwise-exporter.service ]; then
	grep -q '^ExecStart=/opt/gw/sbin/gpuwise exporter' "$TMPD/s2/opt/gw/data/gpuwise/systemd/gpuwise-exporter.service" \
		|| fail "with BINDIR=/opt/gw/sbin the unit does not start /opt/gw/sbin/gpuwise"
fi
make -s BUILD="$BUILD" uninstall DESTDIR="$TMPD/s2" PREFIX=/opt/gw LIBDIR=/usr/lib64 INCLUDEDIR=/opt/gw/inc \
	MANDIR=/usr/share/man BINDIR=/opt/gw/sbin DATADIR=/opt/gw/data >/dev/null 2>&1
left=$(find "$TMPD/s2" \( -type f -o -type l \))
[ -z "$left" ] || fail "make uninstall with directory variables left: $left"

if [ "$failures" = 0 ]; then
	echo "test_make_install: ok ($(wc -l <"$TMPD/expected") files installed and removed)"
else
	echo "test_make_install: $failures failed"
	exit 1
fi
