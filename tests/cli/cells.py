#!/usr/bin/env python3
"""Display cells of text, as a terminal shows it and as gpuwise counts them
(text_columns() in cli/output.c): 2 for a wide (CJK) character, 0 for a
combining mark or a format character, none for ANSI colour, 1 for the rest.
The one copy for the CLI tests (test_ps, test_top, test_text,
untranslated.py): imported from this folder, or run as

  cells.py FILE    prints the widest line of FILE in cells (0 when empty)
"""
import re
import sys
import unicodedata

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def cells(s):
    n = 0
    for ch in ANSI.sub("", s):
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n


def widest(path):
    with open(path, encoding="utf-8") as f:
        return max([cells(line.rstrip("\n")) for line in f] + [0])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(widest(sys.argv[1]))
