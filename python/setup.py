"""Builds gpuwise._gpuwise: the C library (lib/**/*.c) and the binding
(python/src/_gpuwise.c) compiled into one abi3 extension. No CUDA toolkit is
needed: vendor libraries are loaded with dlopen at run time.

    pip install ./python                      # from the repository root
    python python/setup.py build_py build_ext --build-lib build/python/lib

Data tables (data/*.tsv) are turned into headers by scripts/gen-table, the
same generator the Makefile runs, into the build directory.
"""
import glob
import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
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


class BuildExt(build_ext):
    """Generates data headers before compiling, like the Makefile does."""

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
            inputs = [explain, os.path.join(REPO, "data", "explain", "patterns")] + \
                glob.glob(os.path.join(REPO, "data", "findings", "*.txt"))
            out = os.path.join(gen_dir, "explain_data.c")
            if not os.path.exists(out) or os.path.getmtime(out) < max(
                    os.path.getmtime(p) for p in inputs if os.path.exists(p)):
                subprocess.check_call([sys.executable, explain, gen_dir,
                                       os.path.join(REPO, "data", "explain", "patterns"),
                                       os.path.join(REPO, "data", "findings")])
            generated.append(out)
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
    ext_modules=[ext],
    cmdclass={"build_ext": BuildExt},
    options={"bdist_wheel": {"py_limited_api": "cp38"}},
)
