#!/usr/bin/env bash
# Languages (docs/contracts.md "Languages"): the Simplified Chinese catalogue is
# complete and up to date with the sources; LANG=zh_CN.UTF-8 gives Chinese
# texts, with the locale generated for real (localedef into a LOCPATH of the
# test's own, as a machine with the locale installed has it) and without it
# (a container where it was never generated: C.UTF-8 + LANGUAGE); LC_ALL=C
# and an English locale give English; JSON keys never change.
. "$(dirname "$0")/lib.sh"
unset LC_ALL LANG LANGUAGE LC_MESSAGES

# 1. The catalogue: every marked text translated, nothing fuzzy, msgfmt -c clean.
if command -v xgettext >/dev/null && command -v msgfmt >/dev/null; then
	check=$("${PYS[@]}" scripts/update-po --check 2>&1)
	assert_eq "$?" 0 "po catalogue complete and up to date: $check"
else
	fail "gettext tools missing (scripts/setup installs them)"
fi
[ -f "$BUILD/locale/zh_CN/LC_MESSAGES/gpuwise.mo" ] || fail "the build did not compile po/zh_CN.po"

# 2. A real zh_CN.UTF-8 locale, generated here.
LOC=$TMPD/locales
mkdir -p "$LOC"
if localedef -i zh_CN -f UTF-8 "$LOC/zh_CN.UTF-8" >/dev/null 2>&1; then
	assert_eq "$(LOCPATH=$LOC LANG=zh_CN.UTF-8 locale charmap 2>/dev/null)" "UTF-8" "generated locale is usable"
	LOCPATH=$LOC LANG=zh_CN.UTF-8 run help
	assert_eq "$rc" 0 "help in Chinese exits 0"
	assert_contains "$out" "命令：" "installed zh_CN.UTF-8: help in Chinese"
	assert_contains "$out" "每块 GPU 一行" "installed zh_CN.UTF-8: command summaries in Chinese"
	LOCPATH=$LOC LANG=zh_CN.UTF-8 run list --help
	assert_contains "$out" "选项：" "installed zh_CN.UTF-8: command help in Chinese"
	assert_contains "$out" "显示本帮助" "installed zh_CN.UTF-8: option help in Chinese"
	assert_contains "$out" "--json" "flags stay as they are"
	# LC_ALL=C wins over LANG and LANGUAGE: plain English for scripts.
	LOCPATH=$LOC LANG=zh_CN.UTF-8 LANGUAGE=zh_CN LC_ALL=C run help
	assert_contains "$out" "Commands:" "LC_ALL=C: English"
	assert_not_contains "$out" "命令" "LC_ALL=C: no Chinese"
else
	fail "localedef could not generate zh_CN.UTF-8 (Debian package locales; scripts/setup installs it)"
fi

# 3. The locale not installed (LOCPATH with nothing in it hides the system's):
# the texts still come in Chinese.
mkdir -p "$TMPD/none"
LOCPATH=$TMPD/none LANG=zh_CN.UTF-8 run help
assert_contains "$out" "命令：" "zh_CN.UTF-8 not installed: Chinese texts anyway"
# (Run directly: bash itself would warn that it cannot set this LC_ALL.)
out=$(LOCPATH=$TMPD/none LC_ALL=zh_CN.utf8 "$GW" help 2>&1)
assert_contains "$out" "命令：" "LC_ALL=zh_CN.utf8 not installed: Chinese texts anyway"
# LANGUAGE alone asks for Chinese too.
LANGUAGE=zh_CN run help
assert_contains "$out" "命令：" "LANGUAGE=zh_CN with no locale set: Chinese"

# 4. English where English is asked for, or nothing.
run help
assert_contains "$out" "Commands:" "no locale variables: English"
LANG=C.UTF-8 run help
assert_contains "$out" "Commands:" "LANG=C.UTF-8: English"
LANG=en_US.UTF-8 LANGUAGE=en run help
assert_contains "$out" "Commands:" "English locale: English"
# A catalogue folder that holds nothing: English, no error.
GPUWISE_LOCALEDIR=$TMPD/none LANG=zh_CN.UTF-8 run help
assert_contains "$out" "Commands:" "no catalogue found: English"
assert_eq "$err" "" "no catalogue found: no message"

# 5. JSON keys and IDs do not follow the language.
run_on h100-8x list --json
en=$out
LOCPATH=$TMPD/none LANG=zh_CN.UTF-8 run_on h100-8x list --json
assert_eq "$(printf '%s' "$out" | "${PYS[@]}" -c 'import json,sys; d=json.load(sys.stdin); print(sorted(d), sorted(d["devices"][0]))')" \
	"$(printf '%s' "$en" | "${PYS[@]}" -c 'import json,sys; d=json.load(sys.stdin); print(sorted(d), sorted(d["devices"][0]))')" \
	"list --json keys are the same in Chinese"

# 6. Every command's human output in Chinese, on several machines: no
# English text of the catalogue left (tests/cli/untranslated.py), lines
# within 80 display cells, list's titles over their columns.
ZH=$TMPD/zh
mkdir -p "$ZH"
for m in h100-8x lost-gpu a100-mig mixed-nvidia-amd driver-mismatch no-driver laptop-3060; do
	[ -d "$MACHINES/$m" ] || continue
	for c in list info doctor; do
		LANGUAGE=zh_CN COLUMNS=80 "$TOP/scripts/with-machine" "$MACHINES/$m" -- "$GW" $c >"$ZH/$m.$c" 2>"$ZH/$m.$c.err" </dev/null
	done
done
for s in "$SCENARIOS"/*/; do
	[ -f "$s/machine.json" ] || continue
	LANGUAGE=zh_CN COLUMNS=80 "$TOP/scripts/with-machine" "$s" -- "$GW" doctor >"$ZH/$(basename "$s").doctor" 2>"$ZH/$(basename "$s").doctor.err" </dev/null
done
LANGUAGE=zh_CN COLUMNS=80 "$GW" help >"$ZH/help" 2>&1
for c in $("$GW" __spec | "${PYS[@]}" -c 'import json,sys; print(" ".join(c["name"] for c in json.load(sys.stdin)["commands"]))'); do
	LANGUAGE=zh_CN COLUMNS=80 "$GW" "$c" --help >"$ZH/help-$c" 2>&1
done
for log in "$TOP"/tests/explain/corpus/*.log; do
	LANGUAGE=zh_CN COLUMNS=80 "$GW" explain "$log" >"$ZH/explain-$(basename "$log" .log)" 2>&1 </dev/null
done
LANGUAGE=zh_CN COLUMNS=80 "$GW" explain cuda-out-of-memory >"$ZH/explain-id" 2>&1
LANGUAGE=zh_CN COLUMNS=80 "$GW" explain --report "$TOP/tests/explain/corpus/device_assert_nll2d.log" >"$ZH/explain-report" 2>&1 </dev/null
LANGUAGE=zh_CN COLUMNS=80 "$GW" advise llama-2-7b --task lora --batch 4 --seq 1024 --gpu 'RTX 4090' >"$ZH/advise" 2>&1
LANGUAGE=zh_CN COLUMNS=80 "$GW" advise llama-3-8b --task infer --seq 4096 --new-tokens 512 --batch 8 --hardware >"$ZH/advise-hw" 2>&1
LANGUAGE=zh_CN COLUMNS=80 "$GW" advise llama-2-70b --batch 8 --seq 4096 --gpu 'RTX 4090' >"$ZH/advise-nofit" 2>&1
# The pool's commands (an empty pool: report's table, ps's sentence) and
# the hand-offs to Slurm and Kubernetes (their comments are for people).
LANGUAGE=zh_CN COLUMNS=80 GPUWISE_POOL_DIR=$TMPD/pool "$TOP/scripts/with-machine" "$MACHINES/h100-8x" -- "$GW" ps >"$ZH/ps" 2>&1 </dev/null
LANGUAGE=zh_CN COLUMNS=80 GPUWISE_POOL_DIR=$TMPD/pool "$TOP/scripts/with-machine" "$MACHINES/h100-8x" -- "$GW" report >"$ZH/report" 2>&1 </dev/null
LANGUAGE=zh_CN COLUMNS=80 "$TOP/scripts/with-machine" "$MACHINES/h100-8x" -- "$GW" slurm gres --node-name gwnode >"$ZH/slurm" 2>&1 </dev/null
LANGUAGE=zh_CN COLUMNS=80 "$TOP/scripts/with-machine" "$MACHINES/h100-8x" -- "$GW" labels --nfd >"$ZH/labels" 2>&1 </dev/null
LANGUAGE=zh_CN "$TOP/scripts/with-machine" "$MACHINES/no-driver" -- "$GW" slurm gres >"$ZH/slurm-none.err" 2>&1 </dev/null
LANGUAGE=zh_CN "$GW" report --since x >"$ZH/usage-report" 2>&1
# Usage errors and their hint.
LANGUAGE=zh_CN "$GW" list --bogus >"$ZH/usage-unknown" 2>&1
LANGUAGE=zh_CN "$GW" doctor --timeout x >"$ZH/usage-callback" 2>&1
LANGUAGE=zh_CN "$GW" nosuchcommand >"$ZH/usage-command" 2>&1
checks=$((checks + 1))
last_cmd="LANGUAGE=zh_CN gpuwise (list, doctor, explain, help, usage errors)"
if ! msg=$("${PYS[@]}" tests/cli/untranslated.py po/zh_CN.po "$ZH"/*); then
	fail "Chinese output: $msg"
fi
assert_contains "$(cat "$ZH/usage-unknown")" "gpuwise: 未知选项 '--bogus'" "usage error in Chinese, prefix and flag kept"
assert_contains "$(cat "$ZH/usage-unknown")" "请试试 'gpuwise list --help'。" "the usage hint in Chinese"
assert_contains "$(cat "$ZH/usage-callback")" "需要一个秒数" "an option callback's complaint in Chinese"
assert_contains "$(cat "$ZH/h100-8x.list")" "名称" "list titles in Chinese"
assert_contains "$(cat "$ZH/h100-8x.doctor")" "就绪" "doctor's verdict in Chinese"
assert_contains "$(cat "$ZH/lost-gpu.doctor")" "硬件" "doctor's layer titles in Chinese"
assert_contains "$(cat "$ZH/h100-8x.info")" "驱动版本" "info's labels in Chinese"
assert_contains "$(cat "$ZH/h100-8x.info")" "PCIe 链路" "info's metric sections in Chinese"
assert_contains "$(cat "$ZH/advise")" "梯度" "advise's report in Chinese"
assert_contains "$(cat "$ZH/ps")" "没有作业" "ps in Chinese"
assert_contains "$(cat "$ZH/report")" "GPU 小时" "report's column titles in Chinese"
assert_contains "$(cat "$ZH/report")" "无人租用过的 GPU" "report's sections in Chinese"
assert_contains "$(cat "$ZH/slurm")" "# 节点 gwnode 的 gres.conf" "slurm gres: the comments in Chinese"
assert_contains "$(cat "$ZH/slurm")" "AutoDetect=off" "slurm gres: the lines Slurm reads stay as they are"
assert_contains "$(cat "$ZH/slurm")" "# NodeName=gwnode Gres=gpu:nvidia_h100_80gb_hbm3:8" "slurm gres: the commented slurm.conf line too"
assert_contains "$(cat "$ZH/labels")" "# +expiry-time=" "labels --nfd: NFD's directive stays as it is"
assert_contains "$(cat "$ZH/labels")" "# Node Feature Discovery 本地特性" "labels --nfd: the header comment in Chinese"
assert_contains "$(cat "$ZH/slurm-none.err")" "没有可列给 Slurm 的 NVIDIA GPU" "slurm's error in Chinese"
assert_contains "$(cat "$ZH/usage-report")" "需要一个时长，如 90m" "report --since's complaint in Chinese"
# The library's messages: translated where the CLI prints them (the format
# through the catalogue, the values as they are); English under LC_ALL=C.
LANGUAGE=zh_CN run_on h100-8x info -i 99
assert_contains "$err" "gpuwise: 没有编号为 99 的 GPU（共找到 8 块）" "a library error in Chinese, its values kept"
LANGUAGE=zh_CN run_on h100-8x info -i GPU-zz
assert_contains "$err" "没有 GPU 匹配 'GPU-zz'" "a library error with a quoted selector in Chinese"
LANGUAGE=zh_CN LC_ALL=C run_on h100-8x info -i 99
assert_contains "$err" "gpuwise: no GPU with index 99 (8 found)" "LC_ALL=C: the library error in English"
# A backend's status message and a device's health reason (the library
# keeps their format and values; a reason may quote the backend's message):
# translated where printed, in JSON too; English under LC_ALL=C.
LANGUAGE=zh_CN COLUMNS=400 run_on driver-mismatch info
assert_contains "$out" "NVML 初始化失败：NVIDIA 内核模块与用户态驱动库的版本不一致" "info: a backend's message in Chinese"
assert_contains "$out" "已绑定 nvidia 驱动，但 NVML 无法读取它：NVML 初始化失败：" "info: a health reason quoting the backend, both in Chinese"
LANGUAGE=zh_CN run_on driver-mismatch list --json
assert_json "list --json in Chinese: health_reason follows the language" \
	'assert d["devices"][0]["health_reason"].startswith("已绑定 nvidia 驱动"), d["devices"][0]["health_reason"]'
LANGUAGE=zh_CN run_on driver-mismatch info --json
assert_json "info --json in Chinese: a backend's message follows the language" \
	'assert [b["message"] for b in d["backends"] if b["name"] == "nvml"][0].startswith("NVML 初始化失败"), d["backends"]'
LANGUAGE=zh_CN LC_ALL=C COLUMNS=400 run_on driver-mismatch info
assert_contains "$out" "nvidia driver bound but NVML could not read it: NVML initialisation failed" "LC_ALL=C: the reason in English"
# A failure the library reads once per context and reports again (the PCI
# listing, shared by the amdgpu and pci backends) keeps its msgid: no-gpu
# has no /sys/bus/pci/devices.
LANGUAGE=zh_CN run_on "$SCENARIOS/no-gpu" info --json
assert_json "info --json in Chinese: the pci backend's cached listing error follows the language" \
	'm = [b["message"] for b in d["backends"] if b["name"] == "pci"][0]; assert m.startswith("无法列出 "), m'
# The verdict's "ready" in JSON does not depend on the words.
LANGUAGE=zh_CN run_on h100-8x doctor --json
assert_json "doctor --json in Chinese: summary.ready still true" 'assert d["summary"]["ready"] is True, d["summary"]'
LANGUAGE=zh_CN run_on lost-gpu doctor --json
assert_json "doctor --json in Chinese: summary.ready false with errors" 'assert d["summary"]["ready"] is False, d["summary"]'

# 7. LC_ALL=C keeps every command English, whatever LANGUAGE says.
LANGUAGE=zh_CN LC_ALL=C run_on h100-8x list
assert_contains "$out" "NAME" "LC_ALL=C: list titles in English"
LANGUAGE=zh_CN LC_ALL=C run_on lost-gpu doctor
assert_contains "$out" "not ready" "LC_ALL=C: doctor's verdict in English"
assert_contains "$out" "Hardware" "LC_ALL=C: doctor's layers in English"
LANGUAGE=zh_CN LC_ALL=C run list --bogus
assert_contains "$err" "unknown option '--bogus'" "LC_ALL=C: usage errors in English"

# 8. The lint: a text printed without a mark fails scripts/update-po, and
# says where; a marked one, or a format without words, passes.
cat >"$TMPD/unmarked.c" <<'C'
static void f(int n)
{
	error_msg("this message is not marked");
	printf("%s\n", "x");
	report_line(1, _("Marked"), "%d", n);
}
static const struct option o[] = { OPT_BOOL(0, "json", struct x, json, "an unmarked help text"), OPT_END() };
C
out=$("${PYS[@]}" scripts/update-po --lint "$TMPD/unmarked.c" 2>&1)
assert_ne "$?" 0 "lint: an unmarked text fails"
assert_contains "$out" "unmarked.c:3: text not marked for translation (error_msg): \"this message is not marked\"" "lint: names the file, line and text"
assert_contains "$out" "an unmarked help text" "lint: an option's help is checked"
assert_not_contains "$out" '"x"' "lint: a format without words passes"
cat >"$TMPD/marked.c" <<'C'
static void f(int n)
{
	error_msg(_("this message is marked"));
	warning_msg(_n("%d GPU", "%d GPUs", n), n);
	fprintf(stderr, "%s: %d\n", strcmp(a, "some word") ? "-" : "+", n);
}
C
out=$("${PYS[@]}" scripts/update-po --lint "$TMPD/marked.c" 2>&1)
assert_eq "$?" 0 "lint: marked texts pass: $out"

# 9. README.zh_CN.md is README.md in Chinese, kept in step: the same
# sections, the same command rows (their synopses), the same shell lines
# (comments aside); README.md links it.
checks=$((checks + 1))
last_cmd="README.zh_CN.md against README.md"
if ! msg=$("${PYS[@]}" - README.md README.zh_CN.md <<'PY'
import re, sys

def shape(path):
    text = open(path, encoding="utf-8").read()
    sections = re.findall(r"^## ", text, re.M)
    rows = re.findall(r"^\| (`gpuwise .*?) (?<!\\)\|", text, re.M)
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    lines = [re.sub(r"\s+#.*$", "", l).rstrip() for b in blocks for l in b.splitlines()]
    return len(sections), rows, lines

en, zh = shape(sys.argv[1]), shape(sys.argv[2])
bad = []
if en[0] != zh[0]:
    bad.append("sections: README.md has %d, README.zh_CN.md %d" % (en[0], zh[0]))
if en[1] != zh[1]:
    bad.append("command rows differ:\n  README.md:       %s\n  README.zh_CN.md: %s" % (en[1], zh[1]))
if en[2] != zh[2]:
    bad.append("shell lines differ:\n  README.md:       %s\n  README.zh_CN.md: %s" % (en[2], zh[2]))
if not en[1]:
    bad.append("no command rows found in README.md")
if "README.zh_CN.md" not in open(sys.argv[1], encoding="utf-8").read():
    bad.append("README.md does not link README.zh_CN.md")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
); then
	fail "README.zh_CN.md out of step (update it with README.md): $msg"
fi

finish
