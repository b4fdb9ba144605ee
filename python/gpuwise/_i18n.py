"""The Python module's texts in the user's language (docs/contracts.md "Languages").

One catalogue for everything: the domain "gpuwise" that the C library and
the CLI read (po/zh_CN.po, compiled to <locale dir>/zh_CN/LC_MESSAGES/
gpuwise.mo), found where the C library finds it (gw_locale_dir(), so
$GPUWISE_LOCALEDIR works here too) and read by the C library itself
(set_language(), then translate()): a Python program seldom calls
setlocale(LC_MESSAGES), and the language should not depend on whether it
did. Python's gettext module is not used: its imports (re, enum,
functools, locale) would cost more than the rest of `import gpuwise`. The
variables are read as the CLI reads them: LC_ALL=C (or POSIX) means
English whatever LANGUAGE says; else LANGUAGE, LC_ALL, LC_MESSAGES, LANG,
the first that is set; the first language of the list that has a
catalogue wins."""

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


def _library_language():
    """The language of every text, the module's and the C library's own
    (doctor()'s findings, its messages), named to the library
    (gw_language_set) so that none depends on the process locale."""
    for lang in _languages():
        if _C.set_language(lang):
            return
    _C.set_language("C")


_library_language()


def _(text):
    """text in the user's language (the catalogue's msgstr), else as it is."""
    return _C.translate(text)


def _n(singular, plural, n):
    """The form of a text with a count n (ngettext)."""
    return _C.translate_n(singular, plural, n)


def N_(text):
    """Marks a text for the catalogue where it is defined; _() translates it
    where it is used."""
    return text
