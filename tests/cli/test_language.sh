#!/usr/bin/env bash
# Languages (DESIGN.md "Languages"): the Simplified Chinese catalogue is
# complete and up to date with the sources; LANG=zh_CN.UTF-8 gives Chinese
# texts, with the locale generated for real (localedef into a LOCPATH of the
# test's own, as a machine with the locale installed has it) and without it
# (a container where it was never generated: C.UTF-8 + LANGUAGE); LC_ALL=C
# and an English locale give English; JSON keys never change.
. "$(dirname "$0")/lib.sh"
unset LC_ALL LANG LANGUAGE LC_MESSAGES

# 1. The catalogue: every marked text translated, nothing fuzzy, msgfmt -c clean.
if command -v xgettext >/dev/null && command -v msgfmt >/dev/null; then
	check=$("$PY" scripts/update-po --check 2>&1)
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
assert_eq "$(printf '%s' "$out" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(sorted(d), sorted(d["devices"][0]))')" \
	"$(printf '%s' "$en" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(sorted(d), sorted(d["devices"][0]))')" \
	"list --json keys are the same in Chinese"

finish
