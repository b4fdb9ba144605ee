#!/usr/bin/env bash
# Doctor in Chinese (docs/contracts.md "Languages", "Doctor findings"): on every
# generated doctor scenario, `doctor --json` under LANG=zh_CN.UTF-8 (the
# locale generated for real, as test_language.sh does) gives the same ids,
# severities, layers, keys, structure and exit code as in English, with the
# finding texts in Chinese; LC_ALL=C gives English, byte for byte.
. "$(dirname "$0")/lib.sh"
unset LC_ALL LANG LANGUAGE LC_MESSAGES
SC=$SCENARIOS

LOC=$TMPD/locales
mkdir -p "$LOC"
localedef -i zh_CN -f UTF-8 "$LOC/zh_CN.UTF-8" >/dev/null 2>&1 ||
	fail "localedef could not generate zh_CN.UTF-8 (Debian package locales; scripts/setup installs it)"

doctor_in() { # FILE SCENARIO [VAR=VALUE...] : doctor --json of a scenario into FILE, its exit code into FILE.rc
	local file=$1 s=$SC/$2
	shift 2
	doctor_scenario "$s" "$@" -- --json >"$file" 2>"$file.err"
	echo $? >"$file.rc"
}

names=()
for s in "$SC"/*/; do
	name=$(basename "$s")
	names+=("$name")
	doctor_in "$TMPD/$name.en" "$name"
	doctor_in "$TMPD/$name.zh" "$name" LOCPATH="$LOC" LANG=zh_CN.UTF-8
	doctor_in "$TMPD/$name.c" "$name" LOCPATH="$LOC" LANG=zh_CN.UTF-8 LANGUAGE=zh_CN LC_ALL=C
done
# One Python judges every scenario (a start per scenario cost more than
# the doctor runs); it prints a "name: problems" line per failing one.
checks=$((checks + ${#names[@]}))
out=$("$PY" - "$TMPD" "${names[@]}" <<'PY' 2>&1
import json, os, re, sys

def judge(base):
    def read(ext):
        """A run's output; with-machine's temporary folder differs per run."""
        text = open(base + ext, encoding="utf-8").read()
        text = re.sub(r"gpuwise-machine\.[A-Za-z0-9]+", "gpuwise-machine.X", text)
        return re.sub(r"pid [0-9]+", "pid N", text)   # a scenario's own holder process

    en_text, zh_text, c_text = read(".en"), read(".zh"), read(".c")
    problems = []
    if read(".en.rc") != read(".zh.rc"):
        problems.append("exit code %s in English, %s in Chinese" % (read(".en.rc").strip(), read(".zh.rc").strip()))
    if c_text != en_text or read(".c.rc") != read(".en.rc"):
        problems.append("LC_ALL=C (with LANG=zh_CN.UTF-8 LANGUAGE=zh_CN) is not the English report")
    en, zh = json.loads(en_text), json.loads(zh_text)

    def shape(v):
        """The structure: keys, lengths and types, every string left out."""
        if isinstance(v, dict):
            return {k: shape(x) for k, x in v.items()}
        if isinstance(v, list):
            return [shape(x) for x in v]
        return "str" if isinstance(v, str) else v if not isinstance(v, (int, float)) or isinstance(v, bool) else type(v).__name__

    if shape(en) != shape(zh):
        problems.append("the JSON structure differs between English and Chinese")
    # Identifiers and facts never change with the language: everything but the
    # human texts is equal.
    TEXT = {"title", "evidence", "fix", "verdict", "cause"}

    def facts(v):
        if isinstance(v, dict):
            return {k: facts(x) for k, x in v.items() if k not in TEXT}
        if isinstance(v, list):
            return [facts(x) for x in v]
        return v

    if facts(en) != facts(zh):
        problems.append("ids, severities, layers or facts differ between English and Chinese")
    # Every text with English words in it reads in Chinese ("ROCm 6.2.0" has
    # nothing to translate); commands in backticks stay as they are.
    HAN = re.compile("[\u4e00-\u9fff]")
    WORD = re.compile(r"\b[a-z]{3,}\b")
    for e, z in zip(en["findings"], zh["findings"]):
        for key in ("title", "evidence", "fix"):
            if WORD.search(re.sub(r"`[^`]*`", "", e[key])) and not HAN.search(z[key]):
                problems.append("%s: %s not in Chinese: %r" % (z["id"], key, z[key]))
    return problems

for name in sys.argv[2:]:
    try:
        problems = judge(os.path.join(sys.argv[1], name))
    except Exception as e:
        problems = ["cannot judge: %r" % e]
    if problems:
        print("%s: %s" % (name, "; ".join(problems)))
PY
)
while IFS= read -r line; do
	[ -n "$line" ] && fail "$line"
done <<<"$out"

finish
