"""The Python module's texts follow the same catalogue as the CLI (issue 9,
docs/contracts.md "Languages"): under LANG=zh_CN.UTF-8 its messages are Chinese,
read from the build's gpuwise.mo with Python's gettext, also where the
zh_CN locale was never generated (Python's gettext needs no locale);
LC_ALL=C keeps them English whatever LANGUAGE says."""
import os
import re

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


EXPLAIN = """
ms = gpuwise.explain("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
m = ms[0]
text = gpuwise.explanation_text(RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB"))
out = {"id": m.id, "severity": m.severity, "title": m.title, "cause": m.cause, "fix": m.fix,
       "explanation": m.explanation, "str": str(m), "text": text, "dict": m.to_dict()}
"""


def run_explain(env):
    base = {"GPUWISE_LOCALEDIR": LOCALEDIR, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}
    base.update(env)
    out, _ = run_py("h100-8x", EXPLAIN, env=base)
    return out


def test_explain_matches_in_chinese():
    """explain()'s matches carry the catalogue's title, cause, fix and
    explanation in the user's language, as `gpuwise explain` prints them;
    the id and severity stay identifiers."""
    out = run_explain({"LANG": "zh_CN.UTF-8"})
    assert out["id"] == "cuda-out-of-memory" and out["severity"] == "error", out
    assert out["title"] == "GPU 显存不足", out
    assert "混合精度" in out["fix"], out
    assert "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True" in out["fix"], out
    assert "每个框架报告这一错误的方式都不同" in out["explanation"], out
    assert out["dict"]["title"] == "GPU 显存不足", out
    assert out["str"].startswith("cuda-out-of-memory：GPU 显存不足\n  原因："), out
    assert "gpuwise: GPU 显存不足 [cuda-out-of-memory]\n  原因：" in out["text"], out
    assert "  修复：" in out["text"] and "  当前显存占用：" in out["text"], out
    assert "  详见：gpuwise explain <id>" in out["text"], out


def test_explain_matches_in_english_under_lc_all_c():
    out = run_explain({"LC_ALL": "C", "LANGUAGE": "zh_CN", "LANG": "zh_CN.UTF-8"})
    assert out["title"] == "The GPU ran out of memory", out
    assert out["explanation"].startswith("Every framework reports this differently"), out
    assert "\n  cause: " in out["text"] and "  GPU memory now:" in out["text"], out


ERRORS = """
out = {}
try:
    gpuwise.advise("no-such-model")
except gpuwise.GPUWiseError as e:
    out["library"] = str(e)
try:
    gpuwise.parse_size(True)
except TypeError as e:
    out["size"] = str(e)
ctx = gpuwise._gpuwise.Context()
try:
    ctx.select("GPU-zz")
except gpuwise.GPUWiseError as e:
    out["select"] = str(e)
ctx.close()
try:
    ctx.device_count()
except gpuwise.GPUWiseError as e:
    out["module"] = str(e)
"""


def test_library_errors_in_chinese():
    """The C library's messages reach Python in the user's language: the
    format through the module's catalogue, the values as they are; the
    module's own messages in C too."""
    base = {"GPUWISE_LOCALEDIR": LOCALEDIR, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}
    zh, _ = run_py("h100-8x", ERRORS, env=dict(base, LANG="zh_CN.UTF-8"))
    assert zh["library"] == '目录中没有模型 "no-such-model"（gpuwise advise --list-models）', zh
    assert zh["select"] == "没有 GPU 匹配 'GPU-zz'", zh
    assert zh["module"] == "此 gpuwise Context 已关闭", zh
    assert zh["size"] == "大小必须是 int 或形如 '8GiB' 的字符串，而不是 bool", zh
    en, _ = run_py("h100-8x", ERRORS, env=dict(base, LC_ALL="C", LANGUAGE="zh_CN"))
    assert en["library"] == 'no model "no-such-model" in the catalogue (gpuwise advise --list-models)', en
    assert en["select"] == "no GPU matches 'GPU-zz'", en
    assert en["module"] == "this gpuwise Context is closed", en
    assert en["size"] == "a size must be an int or a string like '8GiB', not bool", en


def test_po2mo_matches_msgfmt(tmp_path):
    """The wheel's catalogue (scripts/po2mo, no gettext tools needed) holds
    what the Makefile's msgcat + msgfmt make: every translation the same;
    besides, each text with an <inttypes.h> macro expanded as glibc's
    gettext expands msgfmt's system-dependent strings ("%<PRIu64>" → "%lu")."""
    import gettext
    import subprocess
    import sys
    for po in sorted(os.listdir(os.path.join(REPO, "po"))):
        if not po.endswith(".po"):
            continue
        out = tmp_path / (po + ".mo")
        subprocess.run([sys.executable, os.path.join(REPO, "scripts", "po2mo"), str(out),
                        os.path.join(REPO, "po", po), os.path.join(REPO, "po", "data", po)], check=True)
        with open(out, "rb") as f:
            mine = gettext.GNUTranslations(f)._catalog
        with open(os.path.join(LOCALEDIR, po[:-3], "LC_MESSAGES", "gpuwise.mo"), "rb") as f:
            theirs = gettext.GNUTranslations(f)._catalog
        mine.pop("", None)
        theirs.pop("", None)
        extra = {k: v for k, v in mine.items() if k not in theirs}
        assert {k: mine.get(k) for k in theirs} == theirs, po
        # msgfmt's system-dependent texts, which Python's gettext does not
        # read: po2mo writes them as they are and expanded
        assert extra and all(re.search(r"%<PRI|%l", k if isinstance(k, str) else k[0]) for k in extra), extra
        assert any("%<PRIu64>" in (k if isinstance(k, str) else k[0]) for k in mine), po


# doctor()'s findings are made by the C library, which translates with
# gettext and so would follow the process locale (a Python program seldom
# sets LC_MESSAGES). The module names the library its language instead
# (gw_language_set, from the same variables as its own texts): doctor()
# speaks the module's language whatever the process locale and whether or
# not the zh_CN locale is installed; LC_ALL=C keeps it English.
DOCTOR = """
import locale
if os.environ.get("GW_TEST_SETLOCALE"):
    locale.setlocale(locale.LC_ALL, os.environ["GW_TEST_SETLOCALE"])
r = gpuwise.doctor()
f = [x for x in r.findings if x.id == "nvml-init-failed"][0]
try:
    gpuwise.select(count=0)
    err = None
except gpuwise.InvalidArgumentError as e:
    err = str(e)
out = {"title": f.title, "evidence": f.evidence, "fix": f.fix, "verdict": r.verdict, "select": err}
"""


def run_doctor(env):
    base = {"GPUWISE_LOCALEDIR": LOCALEDIR, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "",
            "LOCPATH": "/nonexistent"}   # no locale installed: only the module's choice can give Chinese
    base.update(env)
    out, _ = run_py(os.path.join(REPO, "build", "doctor-scenarios", "nvml-init-failed"), DOCTOR, env=base)
    return out


def test_doctor_in_chinese_without_a_process_locale():
    out = run_doctor({"LANG": "zh_CN.UTF-8"})
    assert out["title"] == "NVIDIA 管理库（NVML）无法初始化", out
    assert "NVML 初始化失败：驱动返回了错误" in out["evidence"], out   # a backend message, translated too
    assert out["verdict"].startswith("未就绪"), out
    assert out["select"] == "count 至少为 1，而不是 0", out              # the same language as the module's texts


def test_doctor_ignores_the_process_locale():
    """A program that set the C locale itself still gets the language the
    variables name, as for every other text of the module."""
    out = run_doctor({"LANGUAGE": "zh_CN", "GW_TEST_SETLOCALE": "C"})
    assert out["title"] == "NVIDIA 管理库（NVML）无法初始化", out


def test_doctor_in_english_under_lc_all_c_and_by_default():
    for env in ({"LC_ALL": "C", "LANGUAGE": "zh_CN", "LANG": "zh_CN.UTF-8"}, {}):
        out = run_doctor(env)
        assert out["title"] == "The NVIDIA management library could not initialise", (env, out)
        assert out["verdict"].startswith("not ready"), (env, out)


# Python's gettext module imports re, enum, functools and locale: more than
# the rest of `import gpuwise` costs (bench/python_import.sh, 5 ms budget).
# The module translates through the C library's catalogue instead; the
# texts are still Chinese under LANG=zh_CN.UTF-8.
LEAN = r"""
import sys
before = set(sys.modules)
import gpuwise
gpuwise.is_available()
added = sorted(set(sys.modules) - before)
try:
    gpuwise.select(count=0)
except gpuwise.InvalidArgumentError as e:
    err = str(e)
from gpuwise import _i18n
print(repr((added, err, _i18n._n("%d GPU", "%d GPUs", 3))))
"""


def test_import_needs_no_gettext_and_still_translates():
    import ast
    import subprocess
    import sys
    from test_module import LIB, WITH_MACHINE, machine_path
    env = dict(os.environ, PYTHONPATH=LIB, GPUWISE_LOCALEDIR=LOCALEDIR, LANGUAGE="", LC_ALL="",
               LC_MESSAGES="", LANG="zh_CN.UTF-8", LOCPATH="/nonexistent")
    r = subprocess.run([WITH_MACHINE, machine_path("h100-8x"), "--", sys.executable, "-c", LEAN],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    added, err, plural = ast.literal_eval(r.stdout.strip().splitlines()[-1])
    heavy = [m for m in added if m in ("gettext", "re", "enum", "functools", "locale", "collections")]
    assert not heavy, "import gpuwise; is_available() imported %r (all new modules: %r)" % (heavy, added)
    assert err == "count 至少为 1，而不是 0", err
    assert plural == "%d 块 GPU", plural
