#!/usr/bin/env bash
# Many hosts in one view: `watch/top/ps/report --hosts` against exporters
# on loopback (three fake machines, each its own `gpuwise exporter` on a
# port the kernel picks), a port nobody listens on, and servers that
# misbehave (tests/cli/hostile_http.py: not JSON, the wrong JSON, an
# endless body, a slow drip, silence). The good nodes are always shown; a
# bad one is named with the reason; nothing hangs or crashes. Every
# process started here is stopped on exit and every wait is bounded.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_exporter.sh"

export NODE_NAME=
start_exporter a h100-8x || finish
PA=$PORT
start_exporter b mi300x --show-processes || finish
PB=$PORT
start_exporter c lost-gpu || finish
PC=$PORT
start_exporter e h100-8x --show-processes || finish
PE=$PORT
DEAD=$(free_port)

"$PY" "$TOP/tests/cli/hostile_http.py" garbage shape huge drip silent >"$TMPD/hostile.ports" &
STARTED+=($!)
wait_for '[ "$(wc -l <"$TMPD/hostile.ports")" = 5 ]' 10 || { fail "the hostile servers did not start"; finish; }
hp() { sed -n "s/^$1 //p" "$TMPD/hostile.ports"; }

A=127.0.0.1:$PA B=127.0.0.1:$PB C=127.0.0.1:$PC E=127.0.0.1:$PE D=127.0.0.1:$DEAD G=127.0.0.1:$(hp garbage)
# The exporters read their GPUs once before they answer.
wait_for '"$GW" watch --hosts $A,$B,$C -n 1 --json 2>/dev/null | grep -q "\"ok\":true.*\"ok\":true.*\"ok\":true"' 10

# ---- watch --json: every node's GPUs, the bad ones named -----------------
run watch --hosts "$A,$B,$C,$D,$G" -n 1 --json
assert_eq "$rc" 0 "watch --hosts --json with two bad hosts exits 0"
assert_json "the combined object: hosts in order, their GPUs each marked with its host" "
A, B, C, D, G = '$A', '$B', '$C', '$D', '$G'
assert [h['host'] for h in d['hosts']] == [A, B, C, D, G], d['hosts']
assert [h['ok'] for h in d['hosts']] == [True, True, True, False, False], d['hosts']
assert [h['gpus'] for h in d['hosts']] == [8, 2, 4, 0, 0], d['hosts']
hosts = [g['host'] for g in d['devices']]
assert hosts == [A] * 8 + [B] * 2 + [C] * 4, hosts
assert all(h['error'] is None for h in d['hosts'][:3]), d['hosts']
assert 'cannot connect' in d['hosts'][3]['error'], d['hosts'][3]
assert 'JSON' in d['hosts'][4]['error'], d['hosts'][4]
a0 = d['devices'][0]
assert a0['name'] == 'NVIDIA H100 80GB HBM3' and a0['index'] == 0 and a0['uuid'].startswith('GPU-'), a0
assert a0['utilization']['gpu_percent'] == 98 and a0['memory']['total_bytes'] > 0, a0
assert [g['health'] for g in d['devices'][10:]] == ['ok', 'ok', 'lost', 'ok'], d['devices'][10:]
assert d['devices'][12]['memory']['used_bytes'] is None, d['devices'][12]
assert d['devices'][8]['name'] == 'AMD Instinct MI300X', d['devices'][8]
assert isinstance(d['time'], float) and d['gpuwise_version'], d"
assert_json "processes only where the node's exporter shows them (--show-processes, Basic auth)" "
a, b = d['devices'][0], d['devices'][9]
assert 'processes' not in a and a['process_count'] >= 1, a
assert b['process_count'] == len(b['processes']) >= 1, b
assert {'pid', 'user', 'name', 'used_memory_bytes'} <= set(b['processes'][0]), b['processes']
assert b['processes'][0]['user'] == 'bob', b['processes']"

# ---- the table and top --once -------------------------------------------
run watch --hosts "$A,$D" -n 1
assert_eq "$rc" 0 "watch --hosts (table) exits 0"
assert_eq "$(printf '%s\n' "$out" | grep -c "^$A ")" 8 "the table has a row for each of the node's 8 GPUs"
assert_contains "$out" "$D" "the dead host has a row"
assert_contains "$out" "unreachable" "the dead host's row says it cannot be reached"
COLUMNS=120 run top --once --hosts "$A,$B,$G"
assert_eq "$rc" 0 "top --once --hosts exits 0"
assert_contains "$out" "$A 7 H100" "top marks each GPU with its host"
assert_contains "$out" "$B 1 Instinct" "top shows the second node's GPUs"
assert_contains "$out" "$G unreachable" "top names the garbage host"
assert_contains "$out" "$B  python" "top lists the node's processes with its host"
run top --once --hosts "$D"
assert_eq "$rc" 1 "top --once --hosts with no node answering exits 1"
assert_contains "$err" "no node" "and says why"

# ---- top in a terminal (tmux), as tests/cli/test_top.sh drives it ---------
if command -v tmux >/dev/null; then
	SOCK=$TMPD/tmux
	tm() { tmux -S "$SOCK" -f /dev/null "$@"; }
	screen_has() { tm capture-pane -p -t top 2>/dev/null | grep -qF -- "$1"; }
	printf '%s\n' "cd '$TOP'" "'$GW' top -d 0.2 --hosts '$A,$B,$D'" "echo \$? >'$TMPD/top.exit'" \
		"exec sleep 60" >"$TMPD/top.sh"
	tm new-session -d -s top -x 120 -y 40 "bash --norc --noprofile $TMPD/top.sh"
	checks=$((checks + 1))
	wait_for "screen_has '$B 1 Instinct'" 15 || fail "top --hosts: the second node's GPU never appeared"
	checks=$((checks + 1))
	wait_for "screen_has '$D unreachable'" 5 || fail "top --hosts: the dead node is not named on the screen"
	tm send-keys -t top k
	checks=$((checks + 1))
	wait_for "screen_has 'not with --hosts'" 5 || fail "top --hosts: k does not refuse another node's pid"
	tm send-keys -t top q
	checks=$((checks + 1))
	wait_for '[ -s "$TMPD/top.exit" ]' 10 || fail "top --hosts: q did not end it"
	assert_eq "$(cat "$TMPD/top.exit" 2>/dev/null)" 0 "top --hosts: q exits 0"
	tm kill-server 2>/dev/null
else
	echo "SKIP: top in a terminal (tmux missing)"
fi

# ---- ps and report: who uses the nodes' GPUs ------------------------------
run ps --hosts "$A,$B,$E,$D" --json
assert_eq "$rc" 0 "ps --hosts exits 0"
assert_json "ps --hosts: each process with its node; hidden and unreachable nodes said" "
A, B, E, D = '$A', '$B', '$E', '$D'
assert [h['processes_shown'] for h in d['hosts']] == [False, True, True, False], d['hosts']
assert not d['hosts'][3]['ok'] and d['hosts'][3]['error'], d['hosts']
assert {p['host'] for p in d['processes']} == {B, E}, d['processes']
bob = [(p['host'], p['gpu']) for p in d['processes'] if p['user'] == 'bob']
assert (B, 1) in bob and (E, 5) in bob, bob
assert all(set(p) >= {'pid', 'user', 'name', 'used_memory_bytes', 'uuid'} for p in d['processes']), d['processes']"
run ps --hosts "$A,$B"
assert_contains "$out" "hides users" "ps --hosts (table) says which node hides its users"
assert_contains "$out" "rocprofv3" "ps --hosts (table) lists the processes"
run report --hosts "$B,$E,$D" --json
assert_eq "$rc" 0 "report --hosts exits 0"
assert_json "report --hosts: each user across the nodes, GPUs counted once" "
u = {x['user']: x for x in d['users']}
assert u['bob']['hosts'] == 2 and u['bob']['gpus'] == 2 and u['bob']['processes'] == 3, u['bob']
assert u['alice']['hosts'] == 1 and u['alice']['gpus'] == 3, u['alice']
assert d['users'][0]['memory_used_bytes'] >= d['users'][-1]['memory_used_bytes'], d['users']"
run report --hosts "$B" --since 1h
assert_eq "$rc" 2 "report --hosts --since is a usage error (the log stays on each node)"

# ---- hostile servers: bounded in size and time --------------------------
start=$SECONDS
run watch --hosts "127.0.0.1:$(hp shape),127.0.0.1:$(hp huge),127.0.0.1:$(hp drip),127.0.0.1:$(hp silent),$A" \
	--hosts-timeout 1 -n 2 -d 0.1 --json
assert_eq "$rc" 0 "hostile servers: watch still exits 0"
[ $((SECONDS - start)) -lt 15 ] || fail "hostile servers: watch took $((SECONDS - start)) s for 2 samples"
checks=$((checks + 1))
assert_eq "$(printf '%s\n' "$out" | wc -l)" 2 "hostile servers: one line per sample"
out=$(printf '%s\n' "$out" | tail -1)
assert_json "each hostile server's row says what was wrong; the good node is shown" "
e = [h['error'] for h in d['hosts']]
assert 'devices' in e[0], e
assert 'larger than' in e[1], e
assert 'no answer within 1 s' in e[2] and 'no answer within 1 s' in e[3], e
assert d['hosts'][4]['ok'] and len(d['devices']) == 8, d['hosts']"

# ---- TLS and Basic auth, as the exporter's --web-config takes them -------
if command -v htpasswd >/dev/null && command -v openssl >/dev/null; then
	hash=$(htpasswd -nbB -C 4 alice 's3cret:pw' | cut -d: -f2-)
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
		-addext 'subjectAltName=DNS:localhost,IP:127.0.0.1' \
		-keyout "$TMPD/key.pem" -out "$TMPD/cert.pem" >/dev/null 2>&1
	printf '%s\n' 'tls_server_config:' "  cert_file: $TMPD/cert.pem" "  key_file: $TMPD/key.pem" \
		'basic_auth_users:' "  alice: '$hash'" >"$TMPD/web.yml"
	if start_exporter tls mi300x --web-config "$TMPD/web.yml"; then
		T=https://127.0.0.1:$PORT
		GPUWISE_HOSTS_PASSWORD='s3cret:pw' run watch --hosts "$T" --hosts-ca "$TMPD/cert.pem" --hosts-user alice -n 1 --json
		assert_json "https and Basic auth: the node is read, with its processes" "
assert d['hosts'][0]['ok'], d['hosts']
assert len(d['devices']) == 2 and 'processes' in d['devices'][1], d['devices']"
		run watch --hosts "$T" --hosts-ca "$TMPD/cert.pem" -n 1 --json
		assert_json "https without a password: the row says 401 and how to log in" "
assert not d['hosts'][0]['ok'] and '401' in d['hosts'][0]['error'] and '--hosts-user' in d['hosts'][0]['error'], d"
		run watch --hosts "$T" -n 1 --json
		assert_json "https with a certificate nobody trusts: refused, said" "
assert not d['hosts'][0]['ok'] and d['hosts'][0]['error'], d"
	fi
else
	echo "SKIP: TLS and Basic auth (htpasswd or openssl missing)"
fi

# ---- usage, and gpuwise without libcurl --------------------------------
run watch --hosts nonsense -n 1
assert_eq "$rc" 2 "--hosts without a port is a usage error"
assert_one_error_line "--hosts without a port"
run watch --hosts "$A" --csv -n 1
assert_eq "$rc" 2 "--hosts with --csv is a usage error"
GPUWISE_CURL_LIBRARY=$TMPD/no-libcurl.so run watch --hosts "$A" -n 1
assert_eq "$rc" 1 "without libcurl --hosts exits 1"
assert_contains "$err" "libcurl" "and says it needs libcurl"
GPUWISE_CURL_LIBRARY=$TMPD/no-libcurl.so run_on h100-8x watch -n 1 --json
assert_eq "$rc" 0 "without libcurl, watch of this machine still works"

finish
