"""The Python module's texts follow the same catalogue as the CLI (issue 9,
DESIGN.md "Languages"): under LANG=zh_CN.UTF-8 its messages are Chinese,
read from the build's gpuwise.mo with Python's gettext, also where the
zh_CN locale was never generated (Python's gettext needs no locale);
LC_ALL=C keeps them English whatever LANGUAGE says."""
import os

import pytest

from test_module import REPO, built_module, run_py  # noqa: F401  (fixture, helper)

LOCALEDIR = os.path.join(REPO, "build", "locale")

CODE = """
from gpuwise import _monitor
g = _monitor.Sample(0.0, 0, 79 * 2**30, 80 * 2**30, 95, 50, 300.0, 60, None, 1980, 0)
s = _monitor.summarize([g._replace(time=t) for t in (0.0, 1.0, 2.0, 3.0)], [(0, "GPU-x", "H100")], 3.0, 1.0)
try:
    gpuwise.select(count=0)
    err = None
except gpuwise.InvalidArgumentError as e:
    err = str(e)
out = {"summary": str(s), "verdicts": s.verdicts, "select": err}
"""


def run(env):
    if not os.path.exists(os.path.join(LOCALEDIR, "zh_CN", "LC_MESSAGES", "gpuwise.mo")):
        pytest.fail("build/locale has no zh_CN catalogue: run make")
    base = {"GPUWISE_LOCALEDIR": LOCALEDIR, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}
    base.update(env)
    out, _ = run_py("h100-8x", CODE, env=base)
    return out


def test_chinese_under_lang_zh_cn():
    out = run({"LANG": "zh_CN.UTF-8"})
    assert "显存几乎占满" in out["verdicts"][0], out
    assert "混合精度" in out["verdicts"][0], out        # the glossary's term
    assert out["summary"].startswith("gpuwise monitor：3.0 秒，1 块 GPU"), out
    assert "显存峰值 79.0 GiB / 共 80.0 GiB" in out["summary"], out
    assert out["select"] == "count 至少为 1，而不是 0", out


def test_language_variable_alone():
    out = run({"LANGUAGE": "zh_CN"})
    assert out["select"] == "count 至少为 1，而不是 0", out


def test_english_under_lc_all_c_and_by_default():
    for env in ({"LC_ALL": "C", "LANGUAGE": "zh_CN", "LANG": "zh_CN.UTF-8"}, {}, {"LANG": "C.UTF-8"}):
        out = run(env)
        assert out["select"] == "count must be at least 1, not 0", (env, out)
        assert "memory was nearly full" in out["verdicts"][0], (env, out)
        assert out["summary"].startswith("gpuwise monitor: 3.0 s, 1 GPU"), (env, out)


def test_same_catalogue_as_the_cli():
    """The folder the Python texts are read from is the C library's."""
    out, _ = run_py("h100-8x", "out = gpuwise._gpuwise.locale_dir()", env={"GPUWISE_LOCALEDIR": LOCALEDIR})
    assert out == LOCALEDIR
