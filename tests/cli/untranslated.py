#!/usr/bin/env python3
"""Checks of human output under a Chinese locale (tests/cli/test_language.sh).

  untranslated.py PO FILE...

For every FILE (one command's output under zh_CN):
 - no English text of the catalogue shows: a piece of a msgid (the text
   between its conversions, 16 characters or more, two words or more) whose
   msgstr differs, and that no msgstr holds itself (the examples and the
   commands a translation keeps), must not appear in the output (spaces
   and line breaks are compared as one space, so wrapping changes nothing);
 - no line is wider than 80 display cells (a wide character counts 2),
   except one that runs over with a single unbreakable token, as
   test_text.sh allows, and doctor's one-line verdict;
 - `list`'s table: each column title starts in the same display column as
   the column's values (widths in cells, not bytes).
A FILE named *.err holds messages (stderr): checked for English only.
Prints the problems and exits 1 when there is one.
"""
import re
import sys

from cells import cells   # tests/cli/cells.py, beside this file


def entries(path):
    def unq(s):
        esc = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
        return re.sub(r'\\(.)', lambda m: esc.get(m.group(1), m.group(0)), s[1:-1])
    out = []
    for block in re.split(r"\n\s*\n", open(path, encoding="utf-8").read()):
        e, field = {}, None
        for line in block.splitlines():
            m = re.match(r'^(msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$', line)
            if m:
                field = m.group(1)
                e[field] = unq(m.group(2))
            elif line.startswith('"') and field:
                e[field] += unq(line)
        if e.get("msgid"):
            out.append(e)
    return out


def norm(s):
    return re.sub(r"\s+", " ", s)


CONV = re.compile(r"%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|z|j|t)?(?:[diouxXeEfgGcspn%]|<PRI\w+>)")


def english_pieces(po):
    strs = " ".join(norm(v) for e in po for k, v in e.items() if k.startswith("msgstr"))
    pieces = set()
    for e in po:
        ids = [e["msgid"]] + ([e["msgid_plural"]] if "msgid_plural" in e else [])
        tr = [v for k, v in e.items() if k.startswith("msgstr")]
        if not any(tr) or all(t == e["msgid"] for t in tr):
            continue
        for mid in ids:
            for piece in CONV.split(norm(mid)):
                piece = piece.strip(" ,.;:()'\"")
                if len(piece) >= 16 and len(piece.split()) >= 2 and piece not in strs:
                    pieces.add(piece)
    return pieces


TOKEN = re.compile(r"^\s*([^:`：]{1,60}[:：]\s*|\[\S+\]\s+|\S\s+)?(`[^`]*`\S*|\S+)$")


def starts_at(line):
    """Display columns where a word starts (after a space, or at 0)."""
    out, col, prev = set(), 0, " "
    for ch in line:
        if ch != " " and prev == " ":
            out.add(col)
        col += cells(ch)
        prev = ch
    return out


def list_columns(name, lines, bad):
    """Each title starts in the display column where its values start
    (titles have no spaces, so every word of the title row is one)."""
    col = sorted(starts_at(lines[0]))
    for ln in lines[1:]:
        if not re.match(r"^\d+ ", ln):
            continue  # a MIG row or a reason under a row
        missing = [c for c in col if c not in starts_at(ln)]
        if missing:
            bad.append("%s: the titles %r do not align with %r (no value starts at cells %s)" % (name, lines[0], ln, missing))
            return


def main():
    po = entries(sys.argv[1])
    pieces = english_pieces(po)
    bad = []
    for path in sys.argv[2:]:
        name = path.rsplit("/", 1)[-1]
        raw = open(path, "rb").read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:   # a multibyte character cut in two
            bad.append("%s: not UTF-8 at byte %d: %r" % (name, e.start, raw[max(0, e.start - 40):e.start + 4]))
            text = raw.decode("utf-8", "replace")
        flat = norm(text)
        for p in sorted(pieces):
            if p in flat:
                bad.append("%s: untranslated catalogue text: %r" % (name, p))
        lines = text.rstrip("\n").split("\n")
        for k, ln in enumerate(lines):
            if name.endswith(".err") or name.startswith("advise") or name == "explain-report":
                break  # messages on stderr are one line each, never wrapped; advise's
                       # report is not wrapped (test_text.sh leaves it out too), nor
                       # explain --report's, which quotes whole log lines to paste
            if "doctor" in name and k == len(lines) - 1:
                continue
            if cells(ln) > 80 and not TOKEN.match(ln):
                bad.append("%s: %d cells: %s" % (name, cells(ln), ln))
        if name.endswith(".list") and lines and lines[0].startswith("GPU"):
            list_columns(name, lines, bad)
    for b in bad[:30]:
        print(b)
    if bad:
        print("%d problems" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
