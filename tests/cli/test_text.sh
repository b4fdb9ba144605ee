#!/usr/bin/env bash
# Human output fits the terminal and the locale (issue 8 #18, #19), for
# every printer on every fake machine and doctor scenario:
#  - COLUMNS=80: no line wider than 80 display cells (wide CJK characters
#    count 2), in English and in Chinese, for every command and every
#    option of the command table (gpuwise __spec) that prints text; the
#    exceptions: one unbreakable token (a path, a URL, a `command in
#    backquotes`) too long for a line, kept whole on a line of its own
#    for copy and paste, doctor's one-line verdict, and the lines of a
#    configuration file printed for a program (slurm gres);
#  - LC_ALL=C: not one byte >= 0x80 on stdout or stderr (ASCII stand-ins
#    for ✓ ✗ — … →, escapes for names read from the machine), while --json
#    keeps exact UTF-8;
#  - a UTF-8 locale, or none named at all, keeps the UTF-8 glyphs.
. "$(dirname "$0")/lib.sh"

OUTD=$TMPD/text
mkdir -p "$OUTD"
export COLUMNS=80

# One setup per machine (scripts/with-machine copies its root): every
# human command runs inside it, in ASCII and in UTF-8.
runs=0
for dir in "$MACHINES"/*/ "$SCENARIOS"/*/; do
	[ -f "$dir/machine.json" ] || continue
	name=$(basename "$dir")
	"$TOP/scripts/with-machine" "$dir" -- bash -c '
		for cmd in list info doctor; do
			LC_ALL=C "$0" $cmd >"$1.$cmd.C" 2>"$1.$cmd.err.C"
			LC_ALL=C.UTF-8 "$0" $cmd >"$1.$cmd.UTF8" 2>/dev/null
		done
		LC_ALL=C "$0" doctor --json >"$1.doctor-json.json" 2>/dev/null' "$GW" "$OUTD/$name" </dev/null
	runs=$((runs + 1))
done
assert_ne "$runs" 0 "machines found"

# Every command of the command table, with every option that changes what
# it prints (issue 9 #19). HUMAN gives a command's invocations (";"
# between them); each option of the spec without an argument, other than
# --help and the machine formats (--json, --csv), is added to the first
# one. A command the spec gains fails here until it is listed; "-" marks
# one that prints no human text of its own (a server) or is run below.
declare -A HUMAN=(
	[list]="list"
	[info]="info; info -i 0"
	[doctor]="doctor --no-kernel-log"
	[explain]="-"
	[advise]="advise gpt2-large; advise llama-3-8b --task infer --seq 4096 --new-tokens 512 --batch 8 --hardware;
		advise vit-base-patch16-224 --image 384 --batch 64 --hardware; advise gpt2-large --gpu V100-SXM2-16GB --target-batch 64;
		advise llama-2-7b --task qlora --bitsandbytes 0.43.1 --torch 1.13.1 --loop plain --gpus 2 --strategy zero3 --offload optimizer --grad-accum 4;
		advise t5-base --decoder-seq 128 --memory 8GiB; advise bert-base-uncased --lm-head --memory 8GiB;
		advise llama-2-70b --task lora --lora-rank 64 --lora-targets all-linear --attention eager --precision fp16 --weights int8 --optimizer adamw-8bit;
		advise --params 1.3B --layers 24 --hidden 2048 --heads 16 --kv-heads 8 --vocab 50304 --intermediate 8192 --memory 24GiB"
	[bench]="bench --quick --force -i 0 --tests d2d-copy,gemm-fp16,p2p"
	[top]="top --once"
	[watch]="watch --count 1; watch --count 1 --fields util,mem_used,power -i 0"
	[exporter]="-"
	[run]="run --no-wait --name text -- true"
	[ps]="-"
	[report]="-"
	[slurm]="slurm; slurm gres --node-name a-rather-long-node-name-0123456789"
	[labels]="labels"
	[setup]="setup; setup torch tensorflow jax cupy onnxruntime paddle"
	[help]="help"
	[version]="version"
)
invocations=$("$GW" __spec | HUMAN_KEYS="${!HUMAN[*]}" "${PYS[@]}" -c '
import json, os, sys
known = set(os.environ["HUMAN_KEYS"].split())
for c in json.load(sys.stdin)["commands"]:
    if c["name"] not in known:
        print("MISSING " + c["name"])
        continue
    # setup --run installs packages: test_setup.sh runs it against a stub.
    flags = [o["long"] for o in c.get("options", []) if not o.get("arg") and o["long"] not in ("help", "json", "csv")
             and (c["name"], o["long"]) != ("setup", "run")]
    print(c["name"] + "\t" + " ".join(flags))')
last_cmd="gpuwise __spec"
assert_not_contains "$invocations" "MISSING" "every command of the spec has its human invocations here"
# one shell script of numbered invocations, run on each machine
: >"$TMPD/human.sh"
k=0
while IFS=$'\t' read -r name flags; do
	[ "${HUMAN[$name]}" = - ] && continue
	IFS=';' read -ra inv <<<"${HUMAN[$name]//$'\n'/ }"
	first=1
	for i in "${inv[@]}"; do
		i=$(echo $i)
		all=("$i")
		if [ $first = 1 ]; then
			for f in $flags; do
				case " $i " in *" --$f "*) continue ;; esac # given already
				all+=("${i%% -- *} --$f${i#"${i%% -- *}"}")
			done
			first=0
		fi
		for a in "${all[@]}"; do
			k=$((k + 1))
			printf '"$GW" %s >"$O.%s.%d.UTF8" 2>"$O.%s.%d.err.UTF8"\n' "$a" "$name" $k "$name" $k >>"$TMPD/human.sh"
			printf 'LANGUAGE=zh_CN "$GW" %s >"$O.%s.%d.ZH" 2>"$O.%s.%d.err.ZH"\n' "$a" "$name" $k "$name" $k >>"$TMPD/human.sh"
		done
	done
done <<<"$invocations"
# Several machines: many GPUs, MIG, a small laptop GPU, AMD, both vendors,
# broken drivers (every machine runs list, info and doctor above).
for name in h100-8x a100-mig laptop-3060 mi300x mixed-nvidia-amd driver-mismatch no-driver; do
	dir=$MACHINES/$name
	GW=$GW O=$OUTD/$name LC_ALL=C.UTF-8 GPUWISE_POOL_DIR=$TMPD/pool-$name timeout 300 \
		"$TOP/scripts/with-machine" "$dir" -- bash "$TMPD/human.sh" </dev/null
done

# ps and report with jobs: one whose command runs long (its own line,
# wrapped), one whose name does.
(
	export GPUWISE_POOL_DIR=$TMPD/pool-ps
	"$TOP/scripts/with-machine" h100-8x -- bash -c '
		"$0" run --gpu 1 --name a-job-with-a-name-longer-than-the-columns-before-it-0123456789 -- sleep 0.2 >/dev/null 2>&1 &
		"$0" run --gpu 2 -- sh -c "sleep 30" /home/someone/projects/a-long-path/that/goes/on/train.py --config configs/an-even-longer-configuration-file-name.yaml --seed 1 >/dev/null 2>&1 &
		job=$!
		for i in $(seq 100); do [ "$("$0" ps --json | grep -c "\"running\"")" = 2 ] && break; sleep 0.05; done
		"$0" ps >"$1.ps.UTF8" 2>&1
		LANGUAGE=zh_CN "$0" ps >"$1.ps.ZH" 2>&1
		kill "$job"; wait
		"$0" report >"$1.report.UTF8" 2>&1
		LANGUAGE=zh_CN "$0" report >"$1.report.ZH" 2>&1' "$GW" "$OUTD/pool" </dev/null
)
assert_contains "$(cat "$OUTD/pool.ps.UTF8")" "configuration-file-name" "ps shows the long command"

# Commands that need no machine: help, each command's --help, explain of
# every finding id and every corpus log.
for loc in C C.UTF-8; do
	tag=${loc//./}
	tag=${tag/CUTF-8/UTF8}
	LC_ALL=$loc "$GW" help >"$OUTD/help.$tag"
	LC_ALL=$loc "$GW" explain --list >"$OUTD/explain-list.$tag"
	for c in $("$GW" __spec | "${PYS[@]}" -c 'import json,sys; print(" ".join(c["name"] for c in json.load(sys.stdin)["commands"]))'); do
		LC_ALL=$loc "$GW" "$c" --help >"$OUTD/help-$c.$tag"
	done
	for id in $("$GW" explain --list --json | "${PYS[@]}" -c 'import json,sys; print(" ".join(f["id"] for f in json.load(sys.stdin)["findings"]))'); do
		LC_ALL=$loc "$GW" explain "$id" >"$OUTD/explain-$id.$tag" 2>"$OUTD/explain-$id.err.$tag"
	done
	for log in "$TOP"/tests/explain/corpus/*.log; do
		LC_ALL=$loc "$GW" explain "$log" >"$OUTD/explain-log-$(basename "$log" .log).$tag" 2>"$OUTD/explain-log-$(basename "$log" .log).err.$tag"
	done
done

# The Chinese texts wrap by display cells, between characters (no spaces).
LANGUAGE=zh_CN "$GW" help >"$OUTD/help.ZH"
for c in $("$GW" __spec | "${PYS[@]}" -c 'import json,sys; print(" ".join(c["name"] for c in json.load(sys.stdin)["commands"]))'); do
	LANGUAGE=zh_CN "$GW" "$c" --help >"$OUTD/help-$c.ZH"
done

# advise: ASCII under LC_ALL=C too (its widths are its own tests' business).
LC_ALL=C "$GW" advise llama-2-7b --task lora --batch 4 --seq 1024 --gpu 'RTX 4090' >"$OUTD/advise.Conly" 2>&1
LC_ALL=C "$GW" advise --list-models >"$OUTD/advise-list.Conly" 2>&1

checks=$((checks + 1))
last_cmd="gpuwise (every printer, every machine)"
if ! msg=$(PYTHONPATH=$TOP/tests/cli "${PYS[@]}" - "$OUTD" <<'EOF'
import glob, os, re, sys
from cells import cells

# An over-wide line is allowed only when it holds one token that cannot be
# broken, on a line of its own: after the indent (and at most a list mark),
# one space-free word or one `backquoted command` (with the punctuation
# that follows it).
TOKEN = re.compile(r"^\s*([-*]\s+)?(`[^`]*`\S*|\S+)$")
# slurm gres prints a gres.conf: its lines (and the slurm.conf lines it
# shows commented out) are read by Slurm, which wants each on one line.
CONF = re.compile(r"^(Name=|NodeName=|# NodeName=|# GresTypes=)")

bad = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*"))):
    name = os.path.basename(path)
    data = open(path, "rb").read()
    if name.endswith(".json"):
        continue
    if name.endswith(".C") or name.endswith(".Conly"):
        high = [i for i, b in enumerate(data) if b >= 0x80]
        if high:
            i = high[0]
            bad.append("%s: byte 0x%02x under LC_ALL=C: %r" % (name, data[i], data[max(0, i - 40):i + 20]))
    if ".err." in name or name.endswith(".Conly"):
        continue # messages on stderr are one line each, never wrapped
    text = data.decode("utf-8", "replace")
    lines = text.rstrip("\n").split("\n")
    for k, ln in enumerate(lines):
        # doctor's verdict is one line by contract (scripts `tail -1` it).
        if ".doctor." in name and k == len(lines) - 1:
            continue
        if ".slurm." in name and CONF.match(ln):
            continue
        if cells(ln) > 80 and not TOKEN.match(ln):
            bad.append("%s: %d cells: %s" % (name, cells(ln), ln))
for b in bad[:int(os.environ.get("TEXT_SHOW", "25"))]:
    print(b)
if bad:
    print("%d problems" % len(bad))
    sys.exit(1)
EOF
); then
	fail "human output: $msg"
fi

# JSON stays exact UTF-8 under LC_ALL=C: data, not terminal text ("1×").
checks=$((checks + 1))
grep -q $'\xc3\x97' "$OUTD/h100-degraded.doctor-json.json" ||
	fail "doctor --json under LC_ALL=C lost its UTF-8 (no '×' in h100-degraded)"
# The ASCII stand-ins, and the glyphs in UTF-8 and in an unnamed locale.
assert_contains "$(cat "$OUTD/driver-mismatch.doctor.C")" "  [x] " "LC_ALL=C: ✗ is [x]"
assert_contains "$(cat "$OUTD/h100-degraded.doctor.C")" "x NVIDIA H100" "LC_ALL=C: × is x"
assert_contains "$(cat "$OUTD/driver-mismatch.doctor.UTF8")" "  ✗ " "UTF-8: ✗ stays"
last_cmd="gpuwise (every printer, every machine)"
run_on driver-mismatch doctor
assert_contains "$out" "  ✗ " "no locale named: UTF-8 (✗ stays)"
LANG=de_DE.ISO-8859-1 run_on driver-mismatch doctor
assert_contains "$out" "  [x] " "a Latin-1 locale (even one not installed): ASCII"

# A locale whose decimal separator is a comma (de_DE, generated here when
# the system can) changes no number: JSON with "60,0" is not JSON.
if localedef -i de_DE -f UTF-8 "$TMPD/loc/de_DE.UTF-8" >/dev/null 2>&1 || [ -d "$TMPD/loc/de_DE.UTF-8" ]; then
	LOCPATH=$TMPD/loc LC_ALL=de_DE.UTF-8 run_on h100-8x info -i 0 --json
	assert_json "de_DE.UTF-8: info --json is JSON with C numbers" 'assert d["devices"][0]["temperature"]["gpu_c"] == 60.0, d["devices"][0]["temperature"]'
	LOCPATH=$TMPD/loc LC_ALL=de_DE.UTF-8 run_on h100-8x info -i 0
	assert_contains "$out" " C" "de_DE.UTF-8: human output runs"
	assert_not_contains "$out" "60,0" "de_DE.UTF-8: no decimal comma"
fi

# A user name and a command line that are not ASCII (issue 8 #19): kept
# whole in UTF-8 (not "???"), escaped under LC_ALL=C; a command cut at 255
# bytes ends with "…" ("..." in ASCII), never inside a character.
U=$TMPD/utf8-user
cp -a "$MACHINES/h100-8x" "$U"
sed -i 's/^alice:/j\xc3\xbcrgen:/' "$U/root/etc/passwd"
"${PYS[@]}" -c '
import sys
arg = b"/home/j\xc3\xbcrgen/venv/bin/python\0train.py\0--name\0" + ("\u6570\u636e\u96c6" * 40).encode() + b"\0"
open(sys.argv[1] + "/root/proc/2841578/cmdline", "wb").write(arg)' "$U"
COLUMNS=1000 run_with "$U" info -i 1
last_cmd="[utf8-user] gpuwise info -i 1"
assert_contains "$out" "User                     : j"$'\xc3\xbc'"rgen" "UTF-8: the user name is kept"
cmdline=$(printf '%s\n' "$out" | grep "Command  " | head -1)
assert_contains "$cmdline" "/home/j"$'\xc3\xbc'"rgen/venv/bin/python train.py --name "$'\xe6\x95\xb0' "UTF-8: the command is kept"
assert_ne "${cmdline%…}" "$cmdline" "a command cut at 255 bytes ends with …"
printf '%s' "$cmdline" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1
assert_eq "$?" 0 "the cut command is valid UTF-8 (no character split)"
LC_ALL=C COLUMNS=1000 run_with "$U" info -i 1
assert_contains "$out" "User                     : j\\u00fcrgen" "LC_ALL=C: the user name is escaped"
cmdline=$(printf '%s\n' "$out" | grep "Command  " | head -1)
assert_ne "${cmdline%...}" "$cmdline" "LC_ALL=C: the cut command ends with ..."
assert_eq "$(printf '%s' "$out$err" | LC_ALL=C grep -c '[^ -~]')" 0 "LC_ALL=C: only printable ASCII"

finish
