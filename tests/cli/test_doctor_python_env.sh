#!/usr/bin/env bash
# gpuwise doctor --python-env: a folder that holds no environment is said
# (the warning python-env-not-found, in text and JSON), never silently
# ignored; an interpreter (PREFIX/bin/python3) stands for its environment.
# Files only, in a private fake root built here.
. "$(dirname "$0")/lib.sh"

R=$TMPD/machine
mkdir -p "$R"
cp -a "$MACHINES/h100-8x/." "$R/"
SP=$R/root/venv/lib/python3.11/site-packages
mkdir -p "$SP/torch" "$SP/torch-2.5.1+cu121.dist-info" "$R/root/venv/bin" "$R/root/home/bob/projects"
printf "__version__ = '2.5.1+cu121'\ncuda = '12.1'\nhip = None\n" >"$SP/torch/version.py"
: >"$R/root/venv/bin/python3.11"
ln -s python3.11 "$R/root/venv/bin/python3"

doctor_env() { # ARGS...: doctor --json on the fake root, no other environment
	out=$(unset VIRTUAL_ENV CONDA_PREFIX; HOME=/nonexistent PATH=/usr/bin:/bin \
		"$TOP/scripts/with-machine" "$R" -- "$GW" doctor --no-kernel-log "$@" 2>"$TMPD/err")
	rc=$?
	err=$(cat "$TMPD/err")
	last_cmd="gpuwise doctor $*"
}

# 1. A folder that is no environment: a warning naming it, in JSON and text.
doctor_env --json --python-env /home/bob
assert_ne "$rc" 2 "--python-env /home/bob is not a usage error"
assert_json "a folder without site-packages gets python-env-not-found" "
fs = [f for f in d['findings'] if f['id'] == 'python-env-not-found']
assert len(fs) == 1 and fs[0]['severity'] == 'warning', d['findings']
assert '/home/bob' in fs[0]['evidence'], fs[0]"
doctor_env --python-env /home/bob
assert_contains "$out" "python-env-not-found" "the human report names the warning"
assert_contains "$out" "/home/bob" "the human report names the folder"

# 2. An environment's prefix: no warning, its framework is seen.
doctor_env --json --python-env /venv
assert_json "a venv prefix is an environment" "
assert not [f for f in d['findings'] if f['id'] == 'python-env-not-found'], d['findings']
envs = [e for e in d['summary']['python_envs'] if e['origin'] == '--python-env']
assert envs and envs[0]['site'] == '/venv/lib/python3.11/site-packages', d['summary']['python_envs']"

# 3. Its interpreter stands for it (the link and the file alike).
for exe in /venv/bin/python3 /venv/bin/python3.11; do
	doctor_env --json --python-env "$exe"
	assert_ne "$rc" 2 "--python-env $exe is accepted (not a usage error)"
	assert_json "--python-env $exe: the venv is judged" "
assert not [f for f in d['findings'] if f['id'] == 'python-env-not-found'], d['findings']
envs = [e for e in d['summary']['python_envs'] if e['origin'] == '--python-env']
assert envs and envs[0]['site'] == '/venv/lib/python3.11/site-packages', d['summary']['python_envs']
assert envs[0]['frameworks'] and envs[0]['frameworks'][0]['version'] == '2.5.1+cu121', envs"
done

# 4. Anything else that is not a folder is still a usage error.
doctor_env --python-env /venv/bin/nothing
assert_eq "$rc" 2 "a missing --python-env is a usage error"
assert_contains "$err" "is not a directory" "and says so"

finish
