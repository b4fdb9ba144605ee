#!/usr/bin/env bash
# gpuwise advise ORG/NAME and the names people type: the Hugging Face cache
# first, then a stand-in Hub (tests/cli/hub_server.py: /{repo}/resolve/
# {revision}/{file} answered with a redirect to /cdn/..., Range requests, a
# gated repository, an unknown one, a slow one), the files stored back in
# the cache layout huggingface_hub reads; HF_HUB_OFFLINE; no libcurl; a
# cache with planted links. docs/commands/advise.md, "Hugging Face ids".
. "$(dirname "$0")/lib.sh"

unset HF_HOME HF_HUB_CACHE HUGGINGFACE_HUB_CACHE HF_TOKEN HUGGING_FACE_HUB_TOKEN HF_TOKEN_PATH HF_HUB_OFFLINE \
	HF_ENDPOINT HF_HUB_DOWNLOAD_TIMEOUT GPUWISE_CURL_LIBRARY XDG_CACHE_HOME
umask 022
LOG=$TMPD/hub.log
: >"$LOG"
"$PY" "$TOP/tests/cli/hub_server.py" "$TMPD/port" "$LOG" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; rm -rf "$TMPD"' EXIT
wait_for '[ -s "$TMPD/port" ]' 10 || { echo "FAIL: the test Hub did not start"; exit 1; }
export HF_ENDPOINT=http://127.0.0.1:$(cat "$TMPD/port")
export HF_HOME=$TMPD/hf
COMMIT=0123456789abcdef0123456789abcdef01234567
REPO_DIR=$HF_HOME/hub/models--acme--tiny-llama
requests() { grep -c . "$LOG"; }

# A Hub id: config.json through the redirect, the safetensors header by
# Range requests (8 bytes, then the header), everything exact.
run advise acme/tiny-llama --memory 24GiB --json
assert_eq "$rc" 0 "a Hub id is read"
assert_json "model from the Hub" '
mo = d["model"]
assert mo["name"] == "acme/tiny-llama", mo
assert mo["from"] == "hub", mo
assert mo["params"] == 218944, mo
assert mo["params_published"] == 218944, mo'
grep -q "GET /acme/tiny-llama/resolve/main/config.json " "$LOG" || fail "config.json not asked at /{repo}/resolve/main/"
grep -q "GET /cdn/$COMMIT/acme/tiny-llama/config.json " "$LOG" || fail "the redirect to /cdn/ was not followed"
grep -q "model.safetensors range=bytes=0-7 " "$LOG" || fail "no Range request for the header length"
grep -q "model.safetensors range=bytes=0-2175 " "$LOG" || fail "no Range request for the header"
grep "model.safetensors " "$LOG" | grep -q "range=None" && fail "a whole safetensors file was downloaded"

# ... stored as huggingface_hub stores it, files 0644 and folders 0755
assert_eq "$(cat "$REPO_DIR/refs/main")" "$COMMIT" "refs/main holds the commit"
assert_eq "$(stat -c %a "$REPO_DIR/snapshots/$COMMIT/config.json")" 644 "config.json stored 0644"
assert_eq "$(stat -c %a "$REPO_DIR/snapshots/$COMMIT")" 755 "snapshot folder 0755"
[ -e "$REPO_DIR/.no_exist/$COMMIT/model.safetensors.index.json" ] || fail "the absent index is not remembered"
[ -z "$(find "$HF_HOME" -name '*.incomplete')" ] || fail "a temporary file was left in the cache"

# The text names the checkpoint.
run advise acme/tiny-llama --memory 24GiB
assert_eq "$rc" 0 "text output"
assert_contains "$out" "Weights BF16 218944 parameters; 437888 bytes in 1 safetensors file" "the checkpoint line"

# Cached: config.json from the cache, the headers (not stored) asked again.
before=$(requests)
run advise acme/tiny-llama --memory 24GiB --json
assert_json "cached config, headers downloaded" 'assert d["model"]["from"] == "hub" and d["model"]["params_published"] == 218944, d["model"]'
grep -q "GET /acme/tiny-llama/resolve/main/config.json " <(tail -n +$((before + 1)) "$LOG") && fail "a cached config.json was downloaded again"

# HF_HUB_OFFLINE: the cache only, never the network.
before=$(requests)
HF_HUB_OFFLINE=1 run advise acme/tiny-llama --memory 24GiB --json
assert_eq "$rc" 0 "offline from the cache"
assert_json "offline model" 'assert d["model"]["from"] == "hub-cache" and d["model"]["params"] == 218944, d["model"]'
assert_eq "$(requests)" "$before" "HF_HUB_OFFLINE sends no request"
HF_HUB_OFFLINE=1 run advise acme/sharded-llama --memory 24GiB
assert_eq "$rc" 1 "offline, not cached: exit 1"
assert_contains "$err" "is not in the Hugging Face cache ($HF_HOME/hub) and HF_HUB_OFFLINE is set" "offline message"
assert_eq "$(requests)" "$before" "HF_HUB_OFFLINE sends no request, even for a missing model"

# A cache built by hand (as huggingface_hub writes it: the snapshot's file
# a link into blobs/), read with no endpoint at all.
HAND=$TMPD/hand/hub/models--hand--made
mkdir -p "$HAND/refs" "$HAND/blobs" "$HAND/snapshots/$COMMIT"
printf '%s' "$COMMIT" >"$HAND/refs/main"
printf '{"model_type":"gpt2","vocab_size":50257,"n_embd":768,"n_layer":12,"n_head":12,"n_positions":1024}' \
	>"$HAND/blobs/abc123"
ln -s ../../blobs/abc123 "$HAND/snapshots/$COMMIT/config.json"
HF_HUB_CACHE=$TMPD/hand/hub HF_ENDPOINT=http://127.0.0.1:9 HF_HUB_OFFLINE=1 run advise hand/made --json --memory 8GiB
assert_eq "$rc" 0 "a hand-made cache (HF_HUB_CACHE) is read"
assert_json "hand-made cache" 'assert d["model"]["params"] == 124439808 and d["model"]["from"] == "hub-cache", d["model"]'
# ... and a whole model.safetensors in it: its header is read from the file.
"$PY" - "$HAND/snapshots/$COMMIT/model.safetensors" <<'EOF'
import json, struct, sys
h = json.dumps({"w": {"dtype": "F32", "shape": [10, 10], "data_offsets": [0, 400]},
                "b": {"dtype": "BF16", "shape": [5], "data_offsets": [400, 410]}}).encode()
open(sys.argv[1], "wb").write(struct.pack("<Q", len(h)) + h + bytes(410))
EOF
HF_HUB_CACHE=$TMPD/hand/hub HF_ENDPOINT=http://127.0.0.1:9 HF_HUB_OFFLINE=1 run advise hand/made --memory 8GiB
assert_contains "$out" "Weights F32 100, BF16 5 parameters; 410 bytes in 1 safetensors file" "a cached shard's header"

# Planted links: a snapshot file pointing outside its repository is not
# read, and a snapshots folder that is a link is never written through.
PLANT=$TMPD/plant/hub/models--acme--tiny-llama
mkdir -p "$PLANT/refs" "$PLANT/snapshots/$COMMIT" "$TMPD/outside" "$TMPD/elsewhere"
printf '%s' "$COMMIT" >"$PLANT/refs/main"
cp "$HAND/blobs/abc123" "$TMPD/outside/config.json"
ln -s "$TMPD/outside/config.json" "$PLANT/snapshots/$COMMIT/config.json"
HF_HUB_CACHE=$TMPD/plant/hub HF_HUB_OFFLINE=1 run advise acme/tiny-llama --memory 8GiB
assert_eq "$rc" 1 "a link out of the repository is not followed"
mkdir -p "$TMPD/plant2/hub/models--acme--tiny-llama"
ln -s "$TMPD/elsewhere" "$TMPD/plant2/hub/models--acme--tiny-llama/snapshots"
HF_HUB_CACHE=$TMPD/plant2/hub run advise acme/tiny-llama --memory 8GiB --json
assert_eq "$rc" 0 "a planted link does not stop the download"
assert_contains "$err" "cannot store config.json" "the cache that cannot be written is named"
assert_eq "$(ls -A "$TMPD/elsewhere")" "" "nothing written through the planted link"

# A sharded checkpoint: the index, then each shard's header.
run advise acme/sharded-llama --memory 24GiB --json
assert_eq "$rc" 0 "sharded checkpoint"
assert_json "sharded count" 'assert d["model"]["params_published"] == 218944, d["model"]'
grep -q "model-00002-of-00002.safetensors range=bytes=0-7" "$LOG" || fail "the second shard's header was not read"

# No safetensors: the count comes from config.json, and the output says why.
run advise acme/no-weights --memory 24GiB
assert_eq "$rc" 0 "a model without safetensors"
assert_contains "$out" "not read ('acme/no-weights' has no model.safetensors" "says the checkpoint was not read"

# A malformed header: said, and the rest of the advice stands.
run advise acme/bad-header --memory 24GiB
assert_eq "$rc" 0 "a bad header does not stop advise"
assert_contains "$out" "safetensors header length" "the bad header is named"

# Gated: 401 without a token, 403 with a token that has no access, then in.
run advise gated-org/secret --memory 24GiB
assert_eq "$rc" 1 "gated: exit 1"
assert_contains "$err" "'gated-org/secret' is gated (HTTP 401): set HF_TOKEN" "gated message"
assert_contains "$err" "$HF_ENDPOINT/gated-org/secret" "the licence page"
assert_one_error_line "gated"
HF_TOKEN=hf_wrong run advise gated-org/secret --memory 24GiB
assert_eq "$rc" 1 "wrong token: exit 1"
assert_contains "$err" "HF_TOKEN gives no access to it (HTTP 403)" "wrong token message"
HF_TOKEN=hf_good run advise gated-org/secret --memory 24GiB --json
assert_eq "$rc" 0 "HF_TOKEN opens a gated model"
grep -q "auth=Bearer hf_good" "$LOG" || fail "HF_TOKEN not sent as a Bearer token"
printf 'hf_good\n' >"$TMPD/tokenfile"
rm -rf "$HF_HOME/hub/models--gated-org--secret"
HF_TOKEN_PATH=$TMPD/tokenfile run advise gated-org/secret --memory 24GiB --json
assert_eq "$rc" 0 "the token file (huggingface-cli login) is read"

# Unknown repository, timeout, no libcurl.
run advise nobody/nothing-here --memory 24GiB
assert_eq "$rc" 1 "unknown repository: exit 1"
assert_contains "$err" "no model 'nobody/nothing-here' on $HF_ENDPOINT" "unknown repository message"
start=$(date +%s)
HF_HUB_DOWNLOAD_TIMEOUT=1 run advise acme/slow --memory 24GiB
assert_eq "$rc" 1 "timeout: exit 1"
assert_contains "$err" "did not answer within 1 s" "timeout message"
[ $(($(date +%s) - start)) -le 4 ] || fail "the timeout took $(($(date +%s) - start)) s"
GPUWISE_CURL_LIBRARY=$TMPD/no/libcurl.so.4 HF_HOME=$TMPD/hf-empty run advise acme/sharded-llama --memory 24GiB
assert_eq "$rc" 1 "no libcurl: exit 1"
assert_contains "$err" "cannot be loaded (Debian/Ubuntu: apt install libcurl4)" "no libcurl message"
GPUWISE_CURL_LIBRARY=$TMPD/no/libcurl.so.4 HF_HUB_OFFLINE=1 run advise acme/tiny-llama --memory 24GiB
assert_eq "$rc" 0 "no libcurl: the cache still serves"

# Names people type.
run advise phi-2 --task infer --memory 24GiB --json
assert_eq "$rc" 0 "phi-2 from the Hub"
assert_contains "$err" "'phi-2' read as the Hugging Face model microsoft/phi-2" "phi-2 alias"
assert_json "phi-2 count" 'assert d["model"]["params"] == 2779683840 == d["model"]["params_published"], d["model"]'
for pair in llama2-7b:llama-2-7b mistral-7b:mistral-7b-v0.1 meta-llama/Llama-2-7b-chat-hf:llama-2-7b \
	Qwen/Qwen2.5-7B-Instruct:qwen2.5-7b google/gemma-7b-it:gemma-7b LLAMA-3-8B-INSTRUCT:llama-3-8b; do
	before=$(requests)
	run advise "${pair%%:*}" --task infer --seq 512 --memory 24GiB --json
	assert_eq "$rc" 0 "${pair%%:*} is read"
	assert_json "${pair%%:*} is ${pair#*:}" "assert d['model']['name'] == '${pair#*:}', d['model']['name']"
	assert_eq "$(requests)" "$before" "${pair%%:*}: the catalogue's shape, no request"
done
run advise lama-2-7b --memory 24GiB
assert_eq "$rc" 1 "a typo: exit 1"
assert_contains "$err" "did you mean 'llama-2-7b'?" "did you mean"
run advise my-model/config.json --memory 24GiB
assert_eq "$rc" 1 "a missing config.json"
assert_contains "$err" "cannot read 'my-model/config.json'" "a path, not a Hub id"
run advise 'no/such//thing' --memory 24GiB
assert_eq "$rc" 1 "not an id"
assert_not_contains "$(cat "$LOG")" "no/such" "a malformed id is never asked for"

finish
