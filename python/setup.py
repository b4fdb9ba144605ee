"""Builds gpuwise._gpuwise: the C library (lib/**/*.c) and the binding
(python/src/_gpuwise.c) compiled into one abi3 extension. No CUDA toolkit is
needed: vendor libraries are loaded with dlopen at run time.

    pip install ./python                      # from the repository root
    python python/setup.py build_py build_ext --build-lib build/python/lib

Data tables (data/*.tsv) are turned into headers by scripts/gen-table, the
same generator the Makefile runs, into the build directory.

The C sources live outside python/ (lib/, include/, data/, scripts/), so the
sdist carries a copy of them under csrc/ (SDist below), and a build from an
unpacked sdist compiles csrc/ instead of ../:
    python -m build python          # sdist, then the abi3 wheel from it
The version is GPUWISE_VERSION from include/gpuwise/gpuwise.h.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
# Where lib/, include/, data/ and scripts/ are: csrc/ in an unpacked sdist,
# the repository (python/..) in a checkout.
CSRC = os.path.join(HERE, "csrc")
REPO = CSRC if os.path.isdir(os.path.join(CSRC, "lib")) else os.path.dirname(HERE)
# What the sdist copies into csrc/: every input of the build.
# Every file of lib/ (sources, headers, X-macro tables such as core/metrics.def).
C_TREE = ("lib/*", "lib/*/*", "lib/*/*/*", "include/gpuwise/*.h",
          "data/*.tsv", "data/explain/*", "data/findings/*.txt",
          "scripts/gen-table", "scripts/gen-explain",
          # the translations, compiled into gpuwise/locale by scripts/po2mo
          "po/*.po", "po/data/*.po", "scripts/po2mo")
# setuptools resolves sources and packages against the working directory;
# run from anywhere (pass absolute --build-lib/--build-temp then).
os.chdir(HERE)


def rel(path):
    # setuptools wants paths relative to setup.py's directory for sources
    return os.path.relpath(path, HERE)


def library_sources():
    pats = ("lib/*/*.c", "lib/*/*/*.c")
    found = sorted(set(p for pat in pats for p in glob.glob(os.path.join(REPO, pat))))
    if not found:
        sys.exit("gpuwise: lib/ sources not found next to python/ (build from a repository checkout)")
    return [rel(p) for p in found]


def version():
    with open(os.path.join(REPO, "include", "gpuwise", "gpuwise.h")) as f:
        return re.search(r'^#define GPUWISE_VERSION "([^"]+)"', f.read(), re.M).group(1)


def outside(path):
    """A path (relative to python/) that leads out of it: ../lib/..."""
    return os.path.relpath(os.path.abspath(path), HERE).startswith("..")


class SDist(sdist):
    """Packs the C sources from outside python/ into csrc/ of the sdist."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, [f for f in files if not outside(f)])
        for pat in C_TREE:
            for src in sorted(p for p in glob.glob(os.path.join(REPO, pat)) if os.path.isfile(p)):
                dst = os.path.join(base_dir, "csrc", os.path.relpath(src, REPO))
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)


class BuildExt(build_ext):
    """Generates data headers before compiling, like the Makefile does, and
    compiles the translations into gpuwise/locale/LANG/LC_MESSAGES/
    gpuwise.mo beside the extension, where gw_locale_dir() finds them
    (docs/languages.md): a wheel speaks the user's language by itself."""

    def compile_catalogues(self):
        po2mo = os.path.join(REPO, "scripts", "po2mo")
        base = os.path.join(HERE if self.inplace else os.path.abspath(self.build_lib), "gpuwise", "locale")
        for po in sorted(glob.glob(os.path.join(REPO, "po", "*.po"))):
            lang = os.path.basename(po)[:-3]
            pos = [po] + glob.glob(os.path.join(REPO, "po", "data", lang + ".po"))
            out = os.path.join(base, lang, "LC_MESSAGES", "gpuwise.mo")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            subprocess.check_call([sys.executable, po2mo, out] + pos)

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:  # as `make -j`: one compiler per core
            self.parallel = os.cpu_count() or 1

    def get_source_files(self):
        # ../lib/... cannot go into an sdist as it is: SDist packs it under csrc/.
        return [f for f in super().get_source_files() if not outside(f)]

    def run(self):
        gen_dir = os.path.join(os.path.abspath(self.build_temp), "gen")
        tables = sorted(glob.glob(os.path.join(REPO, "data", "*.tsv")))
        generator = os.path.join(REPO, "scripts", "gen-table")
        if tables:
            os.makedirs(gen_dir, exist_ok=True)
        for tsv in tables:
            out = os.path.join(gen_dir, os.path.basename(tsv)[:-4] + ".h")
            if not os.path.exists(out) or os.path.getmtime(out) < max(
                    os.path.getmtime(tsv), os.path.getmtime(generator)):
                subprocess.check_call([sys.executable, generator, tsv, out])
        generated = []
        explain = os.path.join(REPO, "scripts", "gen-explain")
        if os.path.exists(explain):
            # the explain catalogue: data/findings/*.txt + data/explain/patterns -> C tables
            os.makedirs(gen_dir, exist_ok=True)
            codes = os.path.join(REPO, "data", "explain", "status_codes.tsv")
            wrappings = os.path.join(REPO, "data", "explain", "status_wrappings")
            inputs = [explain, os.path.join(REPO, "data", "explain", "patterns"), codes, wrappings,
                      os.path.join(REPO, "data", "explain", "refinements"),
                      os.path.join(REPO, "data", "explain", "loader_wordings"),
                      os.path.join(REPO, "data", "explain", "arch_wordings")] + \
                glob.glob(os.path.join(REPO, "data", "findings", "*.txt"))
            out = os.path.join(gen_dir, "explain_data.c")
            if not os.path.exists(out) or os.path.getmtime(out) < max(
                    os.path.getmtime(p) for p in inputs if os.path.exists(p)):
                subprocess.check_call([sys.executable, explain, gen_dir,
                                       os.path.join(REPO, "data", "explain", "patterns"),
                                       os.path.join(REPO, "data", "findings"), codes, wrappings])
            generated.append(out)
        self.compile_catalogues()
        for ext in self.extensions:
            ext.include_dirs.insert(0, gen_dir)
            ext.depends.extend(tables)
            ext.sources.extend(g for g in generated if g not in ext.sources)
        super().run()


SOURCES = [rel(os.path.join(HERE, "src", "_gpuwise.c"))] + library_sources()
HEADERS = [rel(p) for p in glob.glob(os.path.join(REPO, "include", "gpuwise", "*.h"))
           + glob.glob(os.path.join(REPO, "lib", "**", "*.h"), recursive=True)]

ext = Extension(
    "gpuwise._gpuwise",
    sources=SOURCES,
    depends=HEADERS,
    include_dirs=[os.path.join(REPO, "include"), os.path.join(REPO, "lib")],
    define_macros=[("_GNU_SOURCE", None), ("Py_LIMITED_API", "0x03080000")],
    extra_compile_args=["-std=c11", "-fvisibility=hidden", "-Wno-missing-field-initializers"],
    libraries=["dl", "pthread", "m"],
    py_limited_api=True,
)

setup(
    version=version(),
    ext_modules=[ext],
    cmdclass={"build_ext": BuildExt, "sdist": SDist},
    options={"bdist_wheel": {"py_limited_api": "cp38"}},
)
