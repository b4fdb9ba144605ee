# Helpers for tests that run `gpuwise exporter` (and the programs that talk
# to it) on loopback. Source after lib.sh. Every process started through
# them is killed on exit (SIGTERM, then SIGKILL) and every wait is bounded.
STARTED=()   # pids to kill on exit
cleanup_started() {
	local p
	for p in "${STARTED[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	for _ in $(seq 30); do   # up to 3 s to stop cleanly
		alive=0
		for p in "${STARTED[@]}"; do
			kill -0 "$p" 2>/dev/null && alive=1
		done
		[ $alive = 0 ] && break
		sleep 0.1
	done
	for p in "${STARTED[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$TMPD"
}
trap cleanup_started EXIT

# start_exporter TAG MACHINE|/PATH ARGS... : an exporter on 127.0.0.1, a free
# port (the exporter picks it and says which); sets $PORT and $EXP (gpuwise's
# pid). Returns 1 (and fails a check) when it did not come up within 10 s.
start_exporter() {
	local tag=$1 m=$2 i wrap
	shift 2
	case $m in /*) ;; *) m=$MACHINES/$m ;; esac
	rm -f "$TMPD/$tag.pid" "$TMPD/$tag.err"
	"$TOP/scripts/with-machine" "$m" -- sh -c 'echo $$ >"$0"; exec "$@"' "$TMPD/$tag.pid" \
		"$GW" exporter --listen 127.0.0.1:0 "$@" 2>"$TMPD/$tag.err" &
	wrap=$!
	STARTED+=("$wrap")
	for i in $(seq 100); do
		grep -q 'listening on' "$TMPD/$tag.err" 2>/dev/null && break
		kill -0 "$wrap" 2>/dev/null || break
		sleep 0.1
	done
	EXP=$(cat "$TMPD/$tag.pid" 2>/dev/null)
	[ -n "$EXP" ] && STARTED+=("$EXP")
	PORT=$(sed -n 's/.*listening on https\{0,1\}:\/\/[^ ]*:\([0-9][0-9]*\)\/ .*/\1/p' "$TMPD/$tag.err")
	if [ -z "$PORT" ]; then
		fail "exporter on $(basename "$m") $* did not start: $(cat "$TMPD/$tag.err")"
		return 1
	fi
}

# free_port: a port nobody listens on now (for programs that cannot pick one).
free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
