#!/usr/bin/env bash
# gpuwise top in a real terminal: tmux runs it on the fake machines, the
# test reads the screen (capture-pane) and types keys (send-keys).
#   frames show what the machine holds (8 GPUs, MIG instances, AMD GPUs,
#   the processes with SM %, host RSS and age), at 80x24;
#   keys: help, sort (the order changes), filter, k + n (nothing sent),
#   k + y (SIGTERM really reaches the machine's live sleeper);
#   resize: the layout follows the window;
#   the terminal comes back after q, Ctrl-C (SIGINT), SIGTERM and a crash
#   (SIGSEGV): alternate screen left, stty sane (icanon, echo), a shell
#   prompt answers;
#   colour, and none with NO_COLOR.
# --once (plain frames, no curses) is checked here too. Every tmux server
# has its own socket (-L) and is killed at the end.
. "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null || { echo "FAIL: tmux is not installed (scripts/setup installs it)"; exit 1; }

SOCK=gwtop-$$-$RANDOM
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT

last_cmd="gpuwise top"
screen() { tm capture-pane -p -t top; }

# Wait until the screen shows text (fixed string), at most ~10 s.
wait_for() { # text what
	local i
	for i in $(seq 100); do
		screen | grep -qF -- "$1" && { checks=$((checks + 1)); return 0; }
		sleep 0.1
	done
	checks=$((checks + 1))
	fail "$2: '$1' never appeared; screen:"
	screen | sed 's/^/    | /'
	return 1
}

wait_gone() { # text what
	local i
	for i in $(seq 100); do
		screen | grep -qF -- "$1" || { checks=$((checks + 1)); return 0; }
		sleep 0.1
	done
	checks=$((checks + 1))
	fail "$2: '$1' is still on the screen"
	return 1
}

# Start top in a fresh tmux window of cols x rows on a machine. When top
# ends, the pane's shell writes top's exit status and stays for checks.
start_top() { # machine cols rows [top options...]
	local m=$1 cols=$2 rows=$3
	shift 3
	tm kill-server 2>/dev/null
	rm -f "$TMPD/exit" "$TMPD/toppid" "$TMPD/sleeper"
	cat >"$TMPD/run.sh" <<EOF
cd "$TOP"
"$TOP/scripts/with-machine" "$m" -- sh -c 'echo \$GPUWISE_SLEEPER_PID >"$TMPD/sleeper"; echo \$\$ >"$TMPD/toppid"; exec "\$0" top "\$@"' "$GW" $*
echo \$? >"$TMPD/exit"
PS1='PROMPT\$ ' exec bash --norc --noprofile -i
EOF
	tm new-session -d -s top -x "$cols" -y "$rows" "${TOP_ENV:-} bash --norc --noprofile $TMPD/run.sh"
	tm set-option -g window-size manual 2>/dev/null
}

wait_exit() { # want what
	local i
	for i in $(seq 100); do
		[ -s "$TMPD/exit" ] && break
		sleep 0.1
	done
	assert_eq "$(cat "$TMPD/exit" 2>/dev/null)" "$1" "$2: exit status"
}

# After top is gone: the normal screen is back, the tty is sane, a shell answers.
check_terminal_back() { # what
	assert_eq "$(tm display-message -p -t top '#{alternate_on}')" 0 "$1: alternate screen left"
	assert_eq "$(tm display-message -p -t top '#{cursor_flag}')" 1 "$1: cursor shown"
	wait_for 'PROMPT$' "$1: a shell prompt"
	tm send-keys -t top "stty -a >$TMPD/stty; echo back-at-\$((6*7))" Enter
	wait_for "back-at-42" "$1: the shell runs a command"
	stty_out=$(tr '\n;' '  ' <"$TMPD/stty" 2>/dev/null)
	last_cmd="stty -a after $1"
	for flag in icanon echo icrnl opost isig; do
		case " $stty_out " in
		*" -$flag "*) fail "$1: stty says -$flag" ;;
		*" $flag "*) checks=$((checks + 1)) ;;
		*) fail "$1: stty -a without $flag: $stty_out" ;;
		esac
	done
	last_cmd="gpuwise top"
}

# The widest line of a file, in display cells (CJK characters count 2).
max_cells() { "$PY" "$TOP/tests/cli/cells.py" "$1"; }

proc_rows() { screen | awk '/^GPU +PID /{on=1; next} on && /^[0-9]/{print}'; }
first_pid() { proc_rows | awk 'NR==1{print $2}'; }

# ---- the 8x H100 at 80x24 ---------------------------------------------------
start_top h100-8x 80 24 -d 0.5
wait_for "GPUs: 8" "h100-8x frame"
s=$(screen)
assert_eq "$(grep -c 'H100 80GB HBM3' <<<"$s")" 8 "eight GPU rows at 80x24"
assert_eq "$(proc_rows | wc -l)" 6 "all six processes at 80x24"
for pid in 2841578 2841579 2841580 3100221; do
	assert_contains "$s" " $pid " "process $pid listed"
done
assert_contains "$s" "alice" "user resolved"
assert_contains "$s" "h help" "key line"
# rank 1 on GPU 1: 70 GiB, SM 94 % (its nvmlDeviceGetProcessUtilization
# sample), host RSS 19 GiB (VmRSS), a run time.
assert_eq "$(proc_rows | awk '$2==2841578{print $1, $5, $6, $8}')" "1 70G 94 19G" "GPU, GPU MEM, SM%, RSS of 2841578"
sleeper=$(cat "$TMPD/sleeper")
assert_eq "$(proc_rows | awk -v p="$sleeper" '$2==p{print $1}' | tr '\n' ' ')" "0 5 " "the live sleeper on GPUs 0 and 5"
screen >"$TMPD/screen"
assert_eq "$(max_cells "$TMPD/screen")" 80 "the frame fills 80 cells, no more"

tm send-keys -t top h
wait_for "gpuwise top: keys" "h shows the help"
assert_contains "$(screen)" "SIGTERM" "help names k"
tm send-keys -t top x
wait_for "GPUs: 8" "any key leaves the help"
tm send-keys -t top '?'
wait_for "gpuwise top: keys" "? shows the help"
tm send-keys -t top Escape
wait_gone "gpuwise top: keys" "Esc leaves the help"
tm send-keys -t top F1
wait_for "gpuwise top: keys" "F1 shows the help"
tm send-keys -t top x

assert_eq "$(first_pid)" "$sleeper" "sorted by GPU memory: the 70G sleeper (lowest pid) first"
tm send-keys -t top s s s
wait_for "sort: RSS" "s s s sorts by RSS"
assert_eq "$(first_pid)" 2841580 "sorted by RSS: rank 3 (21G) first"
assert_eq "$(proc_rows | awk '{print $2}' | tr '\n' ' ')" "2841580 2841579 2841578 3100221 $sleeper $sleeper " "RSS order"
tm send-keys -t top S
wait_for "sort: CPU%" "S sorts by the previous column"

tm send-keys -t top / v l l m Enter
wait_for "filter: vllm" "/ sets a filter"
assert_eq "$(proc_rows | awk '{print $2}' | tr '\n' ' ')" "3100221 " "the filter keeps the vllm process only"
tm send-keys -t top Escape
wait_gone "filter: vllm" "Esc clears the filter"
assert_eq "$(proc_rows | wc -l)" 6 "all processes again"

# k on the live sleeper: n sends nothing, y sends SIGTERM.
tm send-keys -t top / s l e e p Enter
wait_for "filter: sleep" "filter on sleep"
tm send-keys -t top k
wait_for "send SIGTERM to $sleeper" "k asks before signalling"
tm send-keys -t top n
wait_for "not sent" "n cancels"
kill -0 "$sleeper" 2>/dev/null; assert_eq $? 0 "the sleeper still runs after k n"
tm send-keys -t top k
wait_for "send SIGTERM to $sleeper" "k asks again"
tm send-keys -t top y
wait_for "sent SIGTERM to $sleeper" "y sends"
state=
for i in $(seq 50); do
	state=$(awk '{print $3}' "/proc/$sleeper/stat" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ] && break
	sleep 0.1
done
case $state in ""|Z) checks=$((checks + 1)) ;; *) fail "the sleeper ($sleeper) still runs after k y (state $state)" ;; esac

# Resize: a taller, wider window gets the two-line GPU blocks and the chart.
tm send-keys -t top Escape
tm resize-window -t top -x 120 -y 50
wait_for "utilisation, last" "the chart appears at 120x50"
wait_for "1980/2619 MHz" "the GPU blocks' second line appears at 120x50"
tm resize-window -t top -x 80 -y 24
wait_gone "1980/2619 MHz" "back to one line a GPU at 80x24"
assert_eq "$(screen | wc -l)" 24 "24 lines after the resize"

tm send-keys -t top q
wait_exit 0 "q"
check_terminal_back "q"

# ---- a terminal smaller than the frame: cut, never stuck ----------------------
start_top h100-8x 30 8
wait_for "gpuwise top" "frame at 30x8"
tm send-keys -t top h x q
wait_exit 0 "q at 30x8"

# ---- SIGINT (Ctrl-C), SIGTERM, a crash --------------------------------------
start_top h100-8x 80 24
wait_for "GPUs: 8" "frame before Ctrl-C"
tm send-keys -t top C-c
wait_exit 130 "Ctrl-C"
check_terminal_back "Ctrl-C"

start_top h100-8x 80 24
wait_for "GPUs: 8" "frame before SIGTERM"
kill -TERM "$(cat "$TMPD/toppid")"
wait_exit 143 "SIGTERM"
check_terminal_back "SIGTERM"

start_top h100-8x 80 24
wait_for "GPUs: 8" "frame before SIGSEGV"
kill -SEGV "$(cat "$TMPD/toppid")"
wait_exit 139 "SIGSEGV (a crash)"
check_terminal_back "SIGSEGV"

# ---- MIG instances and AMD GPUs as rows -----------------------------------
start_top a100-mig 80 24
wait_for "GPUs: 2" "a100-mig frame"
s=$(screen)
for row in "0:0 MIG 3g.20gb" "0:1 MIG 2g.10gb" "0:2 MIG 1g.5gb"; do
	assert_contains "$s" "$row" "MIG row"
done
assert_eq "$(proc_rows | awk '{print $1}' | sort | tr '\n' ' ')" "0:0 0:2 " "processes in their MIG instances"
tm send-keys -t top q
wait_exit 0 "q on a100-mig"

start_top mi300x 80 24
wait_for "GPUs: 2" "mi300x frame"
s=$(screen)
assert_eq "$(grep -c 'Instinct MI300X' <<<"$s")" 2 "two MI300X rows"
assert_contains "$s" "168G/192G" "AMD VRAM used/total from sysfs"
assert_contains "$s" " 7311 bob " "AMD process (fdinfo)"
assert_eq "$(proc_rows | awk '$2==7311{print $1, $4, $5, $6}')" "1 C 84G N/A" "AMD process: GPU, type, memory, SM% unknown"
tm send-keys -t top q
wait_exit 0 "q on mi300x"

# ---- an Xid event (NVML events of the fake) ---------------------------------
# with_xid MACHINE DEVICE XID : a copy of MACHINE whose DEVICE reports XID
# 0.3 s after events are registered; prints the copy's folder.
with_xid() {
	local copy=$TMPD/$1-xid$3
	cp -a "$MACHINES/$1" "$copy"
	"$PY" - "$copy/machine.json" "$2" "$3" <<'EOF2'
import json, sys
m = json.load(open(sys.argv[1]))
m["nvml"]["devices"][int(sys.argv[2])]["xid_events"] = [{"xid": int(sys.argv[3]), "after_ms": 300}]
json.dump(m, open(sys.argv[1], "w"), indent=1)
EOF2
	printf '%s\n' "$copy"
}
# Eight GPUs at 80x24: one line each, the Xid in place of temperature and power.
start_top "$(with_xid h100-8x 2 48)" 80 24 -d 0.2
wait_for "GPUs: 8" "xid machine frame"
wait_for " Xid 48" "the Xid shows on its GPU's row"
assert_eq "$(screen | grep ' Xid ' | awk '{print $1}')" 2 "only GPU 2 shows an Xid"
tm send-keys -t top q
wait_exit 0 "q on the Xid machine"
# One NVIDIA GPU: its block has a details line, the Xid first on it.
start_top "$(with_xid laptop-3060 0 79)" 80 24 -d 0.2
wait_for "GPUs: 2" "laptop frame (its RTX 3060 and Intel GPU)"
wait_for "  Xid 79  " "the Xid first on the details line"
tm send-keys -t top q
wait_exit 0 "q on the laptop with an Xid"

# ---- colour, NO_COLOR -------------------------------------------------------
TOP_ENV="env -u NO_COLOR" start_top h100-8x 80 24
wait_for "GPUs: 8" "frame in colour"
assert_contains "$(tm capture-pane -e -p -t top)" $'\e[3' "colours without NO_COLOR"
tm send-keys -t top q
wait_exit 0 "q in colour"
TOP_ENV="env NO_COLOR=1" start_top h100-8x 80 24
wait_for "GPUs: 8" "frame with NO_COLOR"
last_cmd="capture-pane -e with NO_COLOR"
assert_eq "$(tm capture-pane -e -p -t top | grep -c $'\e\\[3[0-7]')" 0 "no colour with NO_COLOR"
tm send-keys -t top q
wait_exit 0 "q with NO_COLOR"
tm kill-server 2>/dev/null

# ---- --once: one plain frame --------------------------------------------------
run_on h100-8x top --once
assert_eq "$rc" 0 "top --once exit status"
assert_eq "$(grep -c 'H100 80GB HBM3' <<<"$out")" 8 "--once: eight GPUs"
assert_eq "$(grep -c '1980/2619 MHz' <<<"$out")" 4 "--once: the four busy GPUs' clocks"
assert_not_contains "$out" $'\e' "--once: no escape sequences"
assert_eq "$(awk '/^GPU +PID /{on=1; next} on && /^[0-9]/' <<<"$out" | awk '$2==2841580{print $1, $5, $6, $8}')" "3 70G 92 21G" "--once: rank 3's row"
w=$(max_cells "$TMPD/out"); [ "$w" -le 80 ] || fail "--once: a line $w cells wide"; checks=$((checks + 1))
COLUMNS=132 run_on h100-8x top --once
assert_contains "$out" "--config configs/llama-70b.yaml" "--once at 132 columns: longer commands"
run_on a100-mig top --once
assert_contains "$out" "0:1 MIG 2g.10gb" "--once: MIG rows"
run_on lost-gpu top --once
assert_contains "$out" "lost" "--once: a lost GPU says so"
assert_eq "$rc" 0 "--once with a lost GPU"
run_on mixed-nvidia-amd top --once
assert_contains "$out" "GeForce RTX 3090" "--once: NVIDIA and"
assert_contains "$out" "Radeon RX 7900 XTX" "--once: AMD on one screen"
# Chinese: labels translated, widths in display cells.
LANGUAGE=zh_CN LC_ALL=C.UTF-8 run_on h100-8x top --once
assert_eq "$rc" 0 "--once in Chinese"
w=$(max_cells "$TMPD/out"); [ "$w" -le 80 ] || fail "--once in Chinese: a line $w cells wide"; checks=$((checks + 1))

# Without a terminal and without --once: a clear error, not a broken screen.
run_on h100-8x top </dev/null
assert_eq "$rc" 1 "top without a terminal"
assert_contains "$err" "--once" "the error points to --once"
run_on h100-8x top -d 0.01 --once
assert_eq "$rc" 2 "-d below 0.05 is a usage error"

finish
