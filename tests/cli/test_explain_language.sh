#!/usr/bin/env bash
# Explain in Chinese (docs/contracts.md "Languages", "Explain"): under
# LANG=zh_CN.UTF-8 (the locale generated for real) every catalogue entry
# (`explain ID`, `explain --list`) and every match of a log, English or
# Chinese, gives its title, cause, fix and explanation in Chinese, with the
# same ids, keys, lines and exit codes as in English; LC_ALL=C is English,
# byte for byte. docs/explain.md stays English (test_explain.sh).
. "$(dirname "$0")/lib.sh"
unset LC_ALL LANG LANGUAGE LC_MESSAGES

LOC=$TMPD/locales
mkdir -p "$LOC"
localedef -i zh_CN -f UTF-8 "$LOC/zh_CN.UTF-8" >/dev/null 2>&1 ||
	fail "localedef could not generate zh_CN.UTF-8 (Debian package locales; scripts/setup installs it)"
ZH=(env LOCPATH="$LOC" LANG=zh_CN.UTF-8)
C=(env LOCPATH="$LOC" LANG=zh_CN.UTF-8 LANGUAGE=zh_CN LC_ALL=C)

# run_three NAME ARGS...: runs gpuwise three ways (stdin from $TMPD/in) and
# keeps the outputs; judge_all then compares every case in one Python:
# same structure and identifiers, every human text in Chinese, LC_ALL=C =
# English.
mkdir -p "$TMPD/cases"
ncase=0
run_three() {
	local name=$1 base
	shift
	ncase=$((ncase + 1))
	base=$TMPD/cases/$ncase
	printf '%s' "$name" >"$base.what"
	"$GW" "$@" <"$TMPD/in" >"$base.en" 2>/dev/null; local r1=$?
	"${ZH[@]}" "$GW" "$@" <"$TMPD/in" >"$base.zh" 2>/dev/null; local r2=$?
	"${C[@]}" "$GW" "$@" <"$TMPD/in" >"$base.c" 2>/dev/null; local r3=$?
	echo "$r1 $r2 $r3" >"$base.rc"
	checks=$((checks + 1))
}
judge_all() {
	local out line
	out=$("${PYS[@]}" - "$TMPD/cases" <<'PY' 2>&1
import glob, json, os, re, sys

def judge(base):
    what = open(base + ".what", encoding="utf-8").read()
    en_t, zh_t, c_t = (open(base + x, encoding="utf-8").read() for x in (".en", ".zh", ".c"))
    rc_en, rc_zh, rc_c = open(base + ".rc").read().split()
    problems = []
    if rc_en != rc_zh or rc_en != rc_c:
        problems.append("exit codes differ: en %s, zh %s, C %s" % (rc_en, rc_zh, rc_c))
    if c_t != en_t:
        problems.append("LC_ALL=C (with LANG=zh_CN.UTF-8 LANGUAGE=zh_CN) is not the English output")
    en, zh = json.loads(en_t), json.loads(zh_t)
    TEXT = ("title", "cause", "fix", "explanation")
    HAN = re.compile("[\u4e00-\u9fff]")

    def walk(e, z, path):
        if isinstance(e, dict):
            if not isinstance(z, dict) or sorted(e) != sorted(z):
                problems.append("%s: keys differ" % path)
                return
            for k in e:
                if k in TEXT and isinstance(e[k], str):
                    if e[k] and not HAN.search(z[k]):
                        problems.append("%s.%s not in Chinese: %r" % (path, k, z[k][:120]))
                else:
                    walk(e[k], z[k], path + "." + k)
        elif isinstance(e, list):
            if not isinstance(z, list) or len(e) != len(z):
                problems.append("%s: lengths differ" % path)
                return
            for i, (a, b) in enumerate(zip(e, z)):
                walk(a, b, "%s[%d]" % (path, i))
        elif e != z:
            problems.append("%s: %r in English, %r in Chinese" % (path, e, z))

    walk(en, zh, what)
    return what, problems[:20]

for base in sorted(glob.glob(os.path.join(sys.argv[1], "*.what"))):
    try:
        what, problems = judge(base[:-len(".what")])
    except Exception as e:
        what, problems = base, ["cannot judge: %r" % e]
    if problems:
        print("FAIL %s: %s" % (what, " | ".join(problems)))
PY
) || fail "the Python judge crashed: $(printf '%s' "$out" | tail -3)"
	while IFS= read -r line; do
		case $line in "FAIL "*) fail "${line#FAIL }" ;; esac
	done <<<"$out"
}

: >"$TMPD/in"
# 1. The whole catalogue: `explain --list --json` and `explain ID --json` for every id.
run_three "explain --list --json" explain --list --json
ids=$("$GW" explain --list --json | "${PYS[@]}" -c 'import json,sys; d=json.load(sys.stdin); d=d.get("findings", d.get("ids", d)) if isinstance(d, dict) else d; print(" ".join(x["id"] for x in d))')
n=0
for id in $ids; do
	run_three "explain $id --json" explain "$id" --json
	n=$((n + 1))
done
assert_eq "$([ "$n" -ge 60 ] && echo many)" many "explain --list names the catalogue ($n ids)"

# 2. Logs: an English one and the same errors in Chinese wording give the
# same ids, with Chinese causes and fixes.
cat >"$TMPD/en.log" <<'EOF'
2026-01-05 10:00:01 step 10 loss 2.31
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity)
AssertionError: Torch not compiled with CUDA enabled
OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading "C:\venv\lib\site-packages\torch\lib\cudnn_cnn_infer64_8.dll" or one of its dependencies.
EOF
cat >"$TMPD/zh.log" <<'EOF'
2026-01-05 10:00:01 第 10 步 损失 2.31
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity)
AssertionError: Torch not compiled with CUDA enabled
OSError: [WinError 1455] 页面文件太小，无法完成操作。 Error loading "C:\venv\lib\site-packages\torch\lib\cudnn_cnn_infer64_8.dll" or one of its dependencies.
EOF
for log in en zh; do
	cp "$TMPD/$log.log" "$TMPD/in"
	run_three "explain ($log log) --json" explain - --json
done
judge_all
"$GW" explain - --json <"$TMPD/en.log" >"$TMPD/en.json"
"${ZH[@]}" "$GW" explain - --json <"$TMPD/zh.log" >"$TMPD/zh.json"
assert_eq "$("${PYS[@]}" -c 'import json,sys; print([m["id"] for m in json.load(open(sys.argv[1]))["matches"]])' "$TMPD/zh.json")" \
	"$("${PYS[@]}" -c 'import json,sys; print([m["id"] for m in json.load(open(sys.argv[1]))["matches"]])' "$TMPD/en.json")" \
	"a Chinese-worded log explained in Chinese: the English log's ids"

# 3. Human output: Chinese title, cause and fix; ids and commands as they are.
out=$("${ZH[@]}" "$GW" explain - <"$TMPD/zh.log" 2>&1)
assert_contains "$out" "GPU 显存不足" "explain in Chinese: the title"
assert_contains "$out" "混合精度" "explain in Chinese: the fix, glossary term"
assert_contains "$out" "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True" "explain in Chinese: settings verbatim"
assert_contains "$out" "windows-paging-file-too-small" "explain in Chinese: ids verbatim"
out=$("${ZH[@]}" "$GW" explain cuda-out-of-memory 2>&1)
assert_contains "$out" "每个框架报告这一错误的方式都不同" "explain ID in Chinese: the explanation"
out=$("${C[@]}" "$GW" explain cuda-out-of-memory 2>&1)
assert_contains "$out" "Every framework reports this differently" "LC_ALL=C: English explanation"

finish
