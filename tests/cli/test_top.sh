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
# has its own socket in this test's temporary folder (-S), so none is left
# behind, and is killed at the end.
# Waiting: top and tmux run beside this script, so what a check needs (a
# frame, the effect of a key, the terminal given back) shows up some time
# after the keys are sent or the program ends, later on a loaded machine.
# Every check that reads the screen or tmux waits for its condition, at
# most WAIT_S seconds, and fails with what it saw last; none sleeps a fixed
# time. A passing run waits only as long as top and tmux need.
. "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null || { echo "FAIL: tmux is not installed (scripts/setup installs it)"; exit 1; }

# One tmux server, with a socket of its own, for each start_top: kill-server
# returns before the server is gone, and a new-session on the same socket
# could reach the dying server and never start ("no server running").
SOCK_BASE=gwtop-$$-$RANDOM
nserver=0
SOCK=$SOCK_BASE-$nserver
tm() { tmux -S "$TMPD/$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT

last_cmd="gpuwise top"
screen() { tm capture-pane -p -t top; }

WAIT_S=${WAIT_S:-15}
# until_ok CMD... : CMD until it succeeds, every 0.05 s, for at most
# WAIT_S seconds; the status of its last run.
until_ok() {
	local end=$((SECONDS + WAIT_S))
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.05
	done
}
on_screen() { screen | grep -qF -- "$1"; }
off_screen() { ! on_screen "$1"; }

# The screen shows text (a fixed string).
wait_for() { # text what
	checks=$((checks + 1))
	until_ok on_screen "$1" && return 0
	fail "$2: '$1' never appeared in ${WAIT_S}s; screen:"
	screen | sed 's/^/    | /'
	return 1
}

wait_gone() { # text what
	checks=$((checks + 1))
	until_ok off_screen "$1" && return 0
	fail "$2: '$1' is still on the screen after ${WAIT_S}s"
	return 1
}

# wait_eq WHAT WANT CMD... : CMD prints WANT (the screen may still hold the
# frame before a key, or part of the next one); else fails with its last
# output.
prints() { got=$("$@"); [ "$got" = "$want" ]; }
wait_eq() {
	local what=$1 want=$2 got=
	shift 2
	until_ok prints "$@"
	assert_eq "$got" "$want" "$what"
}

# Start top in a fresh tmux window of cols x rows on a machine. When top
# ends, the pane's shell writes top's exit status and stays for checks.
start_top() { # machine cols rows [top options...]
	local m=$1 cols=$2 rows=$3
	shift 3
	tm kill-server 2>/dev/null
	nserver=$((nserver + 1))
	SOCK=$SOCK_BASE-$nserver
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

exit_written() { [ -s "$TMPD/exit" ]; }
wait_exit() { # want what
	until_ok exit_written
	assert_eq "$(cat "$TMPD/exit" 2>/dev/null)" "$1" "$2: exit status"
}

# After top is gone: the normal screen is back, the tty is sane, a shell answers.
check_terminal_back() { # what
	# top wrote these before it ended; tmux may read them later.
	wait_eq "$1: alternate screen left" 0 tm display-message -p -t top '#{alternate_on}'
	wait_eq "$1: cursor shown" 1 tm display-message -p -t top '#{cursor_flag}'
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
proc_pids() { proc_rows | awk '{print $2}' | tr '\n' ' '; }
proc_count() { proc_rows | wc -l; }
proc_fields() { proc_rows | awk -v p="$1" '$2==p{print '"$2"'}' | tr '\n' ' '; } # pid awk-fields
screen_count() { screen | grep -cF -- "$1"; }
screen_cells() { screen >"$TMPD/screen" && max_cells "$TMPD/screen"; }

# ---- the 8x H100 at 80x24 ---------------------------------------------------
start_top h100-8x 80 24 -d 0.5
wait_for "GPUs: 8" "h100-8x frame"
# The first frame is written top to bottom: once its last line (the keys)
# is on the screen, the rest is too.
wait_for "h help" "key line"
wait_eq "eight GPU rows at 80x24" 8 screen_count 'H100 80GB HBM3'
wait_eq "all six processes at 80x24" 6 proc_count
for pid in 2841578 2841579 2841580 3100221; do
	wait_for " $pid " "process $pid listed"
done
wait_for "alice" "user resolved"
# rank 1 on GPU 1: 70 GiB, SM 94 % (its nvmlDeviceGetProcessUtilization
# sample), host RSS 19 GiB (VmRSS), a run time.
wait_eq "GPU, GPU MEM, SM%, RSS of 2841578" "1 70G 94 19G " proc_fields 2841578 '$1, $5, $6, $8'
sleeper=$(cat "$TMPD/sleeper")
wait_eq "the live sleeper on GPUs 0 and 5" "0 5 " proc_fields "$sleeper" '$1'
wait_eq "the frame fills 80 cells, no more" 80 screen_cells
# From the second refresh, GPM's SM active beside the GPU %: rank 1's GPU
# at 82 % of SM cycles busy while a kernel ran 98 % of the time.
wait_for "98% SM 82%]" "SM active in GPU 1's meter"

tm send-keys -t top h
wait_for "gpuwise top: keys" "h shows the help"
wait_for "SIGTERM" "help names k"
tm send-keys -t top x
wait_for "GPUs: 8" "any key leaves the help"
tm send-keys -t top '?'
wait_for "gpuwise top: keys" "? shows the help"
tm send-keys -t top Escape
wait_gone "gpuwise top: keys" "Esc leaves the help"
tm send-keys -t top F1
wait_for "gpuwise top: keys" "F1 shows the help"
tm send-keys -t top x
wait_gone "gpuwise top: keys" "x leaves the help"

# Equal GPU memory (70G): the lower pid first. The sleeper's pid is the
# machine's own, below or (pid_max above 2841578) above rank 1's.
first=$(( sleeper < 2841578 ? sleeper : 2841578 ))
wait_eq "sorted by GPU memory: a 70G process (the lower pid) first" "$first" first_pid
tm send-keys -t top s s s
wait_for "sort: RSS" "s s s sorts by RSS"
wait_eq "sorted by RSS: rank 3 (21G) first" 2841580 first_pid
wait_eq "RSS order" "2841580 2841579 2841578 3100221 $sleeper $sleeper " proc_pids
tm send-keys -t top S
wait_for "sort: CPU%" "S sorts by the previous column"

# While typing, the key line says "filter: vllm_"; the title line's
# "filter: vllm" and the rows come with Enter.
tm send-keys -t top / v l l m Enter
wait_for "sort: CPU%  filter: vllm" "/ sets a filter"
wait_eq "the filter keeps the vllm process only" "3100221 " proc_pids
tm send-keys -t top Escape
wait_gone "filter: vllm" "Esc clears the filter"
wait_eq "all processes again" 6 proc_count

# k on the live sleeper: n sends nothing, y sends SIGTERM.
tm send-keys -t top / s l e e p Enter
wait_for "sort: CPU%  filter: sleep" "filter on sleep"
tm send-keys -t top k
wait_for "send SIGTERM to $sleeper" "k asks before signalling"
tm send-keys -t top n
wait_for "not sent" "n cancels"
kill -0 "$sleeper" 2>/dev/null; assert_eq $? 0 "the sleeper still runs after k n"
tm send-keys -t top k
wait_for "send SIGTERM to $sleeper" "k asks again"
tm send-keys -t top y
wait_for "sent SIGTERM to $sleeper" "y sends"
sleeper_gone() { # gone, or a zombie nobody reaped yet
	state=$(awk '{print $3}' "/proc/$sleeper/stat" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ]
}
state=
until_ok sleeper_gone
case $state in ""|Z) checks=$((checks + 1)) ;; *) fail "the sleeper ($sleeper) still runs after k y (state $state)" ;; esac

# Resize: a taller, wider window gets the two-line GPU blocks and the chart.
tm send-keys -t top Escape
tm resize-window -t top -x 120 -y 50
wait_for "utilisation, last" "the chart appears at 120x50"
wait_for "1980/2619 MHz" "the GPU blocks' second line appears at 120x50"
tm resize-window -t top -x 80 -y 24
# tmux keeps the bottom 24 lines of the 120x50 frame at once (the keys
# last, no GPU block): only top's own 80x24 frame has its title on line 1.
screen_line() { screen | sed -n "$1p" | cut -c1-"$2"; }
wait_eq "top's own frame after the resize: the title on line 1" "gpuwise top" screen_line 1 11
wait_gone "1980/2619 MHz" "back to one line a GPU at 80x24"
wait_eq "the key line on line 24 after the resize" "h help" screen_line 24 6
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
for row in "0:0 MIG 3g.20gb" "0:1 MIG 2g.10gb" "0:2 MIG 1g.5gb"; do
	wait_for "$row" "MIG row"
done
proc_gpus() { proc_rows | awk '{print $1}' | sort | tr '\n' ' '; }
wait_eq "processes in their MIG instances" "0:0 0:2 " proc_gpus
tm send-keys -t top q
wait_exit 0 "q on a100-mig"

start_top mi300x 80 24
wait_for "GPUs: 2" "mi300x frame"
wait_eq "two MI300X rows" 2 screen_count 'Instinct MI300X'
wait_for "168G/192G" "AMD VRAM used/total from sysfs"
wait_for " 7311 bob " "AMD process (fdinfo)"
wait_eq "AMD process: GPU, type, memory, SM% unknown" "1 C 84G N/A " proc_fields 7311 '$1, $4, $5, $6'
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
xid_gpus() { screen | grep ' Xid ' | awk '{print $1}'; }
wait_eq "only GPU 2 shows an Xid" 2 xid_gpus
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
# A foreground colour (30-37) as any parameter of an SGR sequence; never
# 39, the default colour tmux's capture writes with or without colours.
FG_COLOUR=$'\e\\[([0-9]*;)*3[0-7](;[0-9]*)*m'
colour_seen() { tm capture-pane -e -p -t top | grep -qE "$FG_COLOUR"; }
checks=$((checks + 1))
until_ok colour_seen || fail "no colours without NO_COLOR in ${WAIT_S}s: $(tm capture-pane -e -p -t top | head -3 | cat -v)"
tm send-keys -t top q
wait_exit 0 "q in colour"
TOP_ENV="env NO_COLOR=1" start_top h100-8x 80 24
wait_for "GPUs: 8" "frame with NO_COLOR"
wait_for "h help" "the whole frame with NO_COLOR"
last_cmd="capture-pane -e with NO_COLOR"
assert_eq "$(tm capture-pane -e -p -t top | grep -cE "$FG_COLOUR")" 0 "no colour with NO_COLOR"
tm send-keys -t top q
wait_exit 0 "q with NO_COLOR"
tm kill-server 2>/dev/null

# ---- the chart's span: what the samples cover, not the chart's width -------
# At 120x50 the chart is 58 samples wide: at -d 1 that was "last 58 s" from
# the first frame on. It says the time its samples span, at most the time
# since top started.
t0=$SECONDS
start_top h100-8x 120 50 -d 1
wait_for "utilisation, last" "the chart at 120x50"
span=$(screen | grep -o 'utilisation, last [0-9]* s' | head -1 | awk '{print $3}')
elapsed=$((SECONDS - t0))
last_cmd="gpuwise top -d 1 at 120x50, ${elapsed}s after the start"
checks=$((checks + 1))
[ -n "$span" ] && [ "$span" -le $((elapsed + 2)) ] ||
	fail "the chart says 'last ${span:-?} s' ${elapsed}s after top started"
tm send-keys -t top q
wait_exit 0 "q after the chart"

# ---- TERM that cannot drive a full screen: say so, one plain frame ----------
# Both ends are terminals: "needs a terminal" would be wrong, and TERM=dumb
# has no cursor addressing (a blank screen and stray characters).
for term in "TERM=dumb" "-u TERM" "TERM=no-such-terminal"; do
	TOP_ENV="env $term" start_top h100-8x 200 50
	wait_exit 0 "top with env $term"
	case $term in
	TERM=dumb) why="TERM=dumb names a terminal that cannot move the cursor" ;;
	-u*) why="TERM is not set" ;;
	*) why="TERM=no-such-terminal is not a terminal type this system's terminfo knows" ;;
	esac
	wait_for "gpuwise: warning: $why" "env $term: says what is wrong with TERM"
	wait_for "top showed one plain frame as --once does" "env $term: and what it did instead"
	wait_for "GPUs: 8" "env $term: the --once frame"
	wait_eq "env $term: no alternate screen" 0 tm display-message -p -t top '#{alternate_on}'
	checks=$((checks + 1))
	on_screen "needs a terminal" && fail "env $term: says top needs a terminal"
done
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
# NVML samples no per-process utilisation on a MIG-enabled GPU: SM% is N/A.
checks=$((checks + 1))
printf '%s\n' "$out" | grep -qE '^0:0 +[0-9]+ +[a-z]+ +C +[0-9.]+[KMGT]? +N/A ' ||
	fail "--once: a process in a MIG instance shows SM% N/A: $(printf '%s\n' "$out" | grep '^0:0')"
run_on lost-gpu top --once
assert_contains "$out" "lost" "--once: a lost GPU says so"
assert_eq "$rc" 0 "--once with a lost GPU"
# A GPU gpuwise cannot read shows list's reason, not a row of N/A.
run_on laptop-3060 top --once
assert_contains "$out" "unsupported: gpuwise cannot read Intel GPUs" "--once: the Intel GPU says why it is not read"
assert_not_contains "$out" "N/A  N/A  N/A/N/A MHz" "--once: no row of N/A for it"
run_on no-driver top --once
assert_contains "$out" "no-driver: no kernel driver bound" "--once: a GPU without a driver says so"
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
