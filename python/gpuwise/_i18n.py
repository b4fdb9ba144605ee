"""The Python module's texts in the user's language (docs/contracts.md "Languages").

One catalogue for everything: the domain "gpuwise" that the C library and
the CLI read (po/zh_CN.po, compiled to <locale dir>/zh_CN/LC_MESSAGES/
gpuwise.mo), found where the C library finds it (gw_locale_dir(), so
$GPUWISE_LOCALEDIR works here too), read with Python's gettext: a Python
program seldom calls setlocale(LC_MESSAGES), and the language should not
depend on whether it did. The variables are read as the CLI reads them:
LC_ALL=C (or POSIX) means English whatever LANGUAGE says; else LANGUAGE,
LC_ALL, LC_MESSAGES, LANG, the first that is set."""

import gettext
import os

from . import _gpuwise as _C


def _languages():
    lc_all = os.environ.get("LC_ALL", "")
    if lc_all in ("C", "POSIX") or lc_all.startswith("C."):
        return []
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            langs = [v for v in value.split(":") if v]
            if var != "LANGUAGE" and langs and (langs[0] in ("C", "POSIX") or langs[0].startswith("C.")):
                return []
            return langs
    return []


# Read once, on first use (a plain variable rather than functools.lru_cache,
# whose wrapper hides the signature from the stub check).
_loaded: "list[gettext.NullTranslations]" = []


def _catalogue():
    if not _loaded:
        langs = _languages()
        _loaded.append(gettext.translation("gpuwise", localedir=_C.locale_dir(), languages=langs, fallback=True)
                       if langs else gettext.NullTranslations())
    return _loaded[0]


def _library_language():
    """The C library makes some texts itself (doctor()'s findings, its
    messages): name it the same language, so that they do not depend on
    the process locale either (gw_language_set)."""
    if not hasattr(_C, "set_language"):
        return
    for lang in _languages():
        if _C.set_language(lang):
            return
    _C.set_language("C")


_library_language()


def _(text):
    """text in the user's language (the catalogue's msgstr), else as it is."""
    return _catalogue().gettext(text)


def _n(singular, plural, n):
    """The form of a text with a count n (ngettext)."""
    return _catalogue().ngettext(singular, plural, n)


def N_(text):
    """Marks a text for the catalogue where it is defined; _() translates it
    where it is used."""
    return text
