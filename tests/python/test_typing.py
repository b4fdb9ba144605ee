"""The declared API matches the real one: the type stubs (`__init__.pyi`,
`_gpuwise.pyi`, `_monitor.pyi`) against the module (mypy's stubtest), a typed
program written as docs/python.md shows under `mypy --strict`, misuse that the
stubs must reject, and every signature docs/python.md writes against
inspect.signature. mypy comes from scripts/setup (build/venv)."""
import ast
import os
import re
import subprocess
import sys

import pytest

from test_module import LIB, REPO, built_module, run_py  # noqa: F401  (fixture, helpers)

TYPING = os.path.join(REPO, "tests", "python", "typing")


def _mypy(args, **kw):
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.skip("mypy is not installed (scripts/setup installs it into build/venv)")
    env = dict(os.environ, MYPYPATH=os.path.join(REPO, "python"), PYTHONPATH=LIB)
    return subprocess.run([sys.executable, "-m"] + args, capture_output=True, text=True, env=env,
                          timeout=600, **kw)


def test_stubtest_finds_no_drift(tmp_path):
    # stubtest imports the module built from this checkout (PYTHONPATH) and
    # reads the committed stubs (MYPYPATH=python); run from tmp_path so that
    # nothing else is picked up from the working directory.
    r = _mypy(["mypy.stubtest", "gpuwise"], cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Success" in r.stdout


def test_typed_usage_passes_mypy_strict(tmp_path):
    r = _mypy(["mypy", "--strict", "--cache-dir", str(tmp_path), os.path.join(TYPING, "usage_ok.py")])
    assert r.returncode == 0, r.stdout + r.stderr


def test_stubs_reject_misuse(tmp_path):
    path = os.path.join(TYPING, "usage_bad.py")
    r = _mypy(["mypy", "--strict", "--cache-dir", str(tmp_path), path])
    want = {n for n, line in enumerate(open(path), 1) if re.search(r"  # E: ", line)}
    got = {int(m.group(1)) for m in re.finditer(r"usage_bad\.py:(\d+): error", r.stdout)}
    assert want and got == want, r.stdout + r.stderr


def _documented_calls():
    """Every `name(params)` docs/python.md's API table writes for a public
    function or Device method: {name: [(param, kind, default or "NO_DEFAULT")]},
    the parameters read as Python reads a def."""
    text = open(os.path.join(REPO, "docs", "python.md")).read()
    table = text[text.index("## API"):text.index("### Errors")]
    rows = "\n".join(line for line in table.splitlines() if line.startswith("| `"))
    calls = {}
    for m in re.finditer(r"`((?:Device\.)?[a-z_]+)\(([^`]*)\)`", rows):
        a = ast.parse("def f(%s): pass" % m.group(2)).body[0].args
        params = []
        plain = [(p, "POSITIONAL_ONLY") for p in a.posonlyargs] + [(p, "POSITIONAL_OR_KEYWORD") for p in a.args]
        defaults = ["NO_DEFAULT"] * (len(plain) - len(a.defaults)) + [ast.literal_eval(d) for d in a.defaults]
        params += [(p.arg, kind, d) for (p, kind), d in zip(plain, defaults)]
        if a.vararg:
            params.append((a.vararg.arg, "VAR_POSITIONAL", "NO_DEFAULT"))
        params += [(p.arg, "KEYWORD_ONLY", "NO_DEFAULT" if d is None else ast.literal_eval(d))
                   for p, d in zip(a.kwonlyargs, a.kw_defaults)]
        if a.kwarg:
            params.append((a.kwarg.arg, "VAR_KEYWORD", "NO_DEFAULT"))
        calls[m.group(1)] = params
    return calls


def _show(name, params):
    return "%s(%s)" % (name, ", ".join(p[0] if p[2] == "NO_DEFAULT" else "%s=%r" % (p[0], p[2]) for p in params))


def test_documented_signatures_are_the_real_ones():
    calls = _documented_calls()
    assert len(calls) >= 15, calls
    out, _ = run_py("h100-8x", """
        import inspect
        res = {}
        for name in %r:
            obj = gpuwise.Device if name.startswith('Device.') else gpuwise
            f = getattr(obj, name.split('.')[-1])
            res[name] = [(p.name, p.kind.name, 'NO_DEFAULT' if p.default is p.empty else p.default)
                         for p in inspect.signature(f).parameters.values() if p.name != 'self']
        out = res
    """ % (sorted(calls),))
    for name, params in sorted(calls.items()):
        real = [(p[0], p[1], tuple(p[2]) if isinstance(p[2], list) else p[2]) for p in out[name]]
        assert params == real, "docs/python.md writes %s; the code has %s (kinds: %s)" % (
            _show(name, params), _show(name, real), [p[1] for p in real])
