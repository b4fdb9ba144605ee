#!/usr/bin/env bash
# End-to-end tests of `gpuwise explain`: the corpus of real error logs
# (tests/explain/corpus/NAME.log + NAME.expected, each with its source),
# logs that must match nothing, every catalogue id documented, the JSON
# shape, exit codes, input forms and hostile input.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${GPUWISE_BUILD:-build}
G="$B/gpuwise"
PY=${PYTHON:-python3}
PYS=("$PY" -S)   # the standard library alone: no site module (its .pth files)
fails=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ids_of() { # json file → ids, space separated, trailing space
	"${PYS[@]}" -c 'import json,sys; print(" ".join(m["id"] for m in json.load(open(sys.argv[1]))["matches"]) + " ")' "$1"
}

# ---- corpus: every log gives exactly its expected ids, in order --------
total=0 exact=0
for log in tests/explain/corpus/*.log; do
	exp=${log%.log}.expected
	total=$((total + 1))
	if [ ! -f "$exp" ] || ! grep -Eq '^# source: https?://' "$exp"; then
		fail "$log: no $exp with a '# source: URL' line"
		continue
	fi
	want="$(grep -v '^#' "$exp" | tr '\n' ' ')"
	"$G" explain --json "$log" >"$T/out.json" 2>"$T/err"; rc=$?
	got="$(ids_of "$T/out.json" 2>/dev/null)"
	if [ "$want" = "$got" ] && [ "$rc" = 0 ]; then
		exact=$((exact + 1))
	else
		fail "$log: want [$want] got [$got] (exit $rc)"
	fi
done
echo "corpus: $exact/$total logs exact"
[ "$total" -ge 60 ] || fail "corpus has $total logs, want at least 60"

# ---- held-out: real logs from other sources, kept apart from the corpus --
# The patterns were tuned on the corpus; these check that they generalise.
# An .expected with no id line means explain must stay silent (exit 1).
htotal=0 hexact=0
for log in tests/explain/heldout/*.log; do
	exp=${log%.log}.expected
	htotal=$((htotal + 1))
	if [ ! -f "$exp" ] || ! grep -Eq '^# source: https?://' "$exp"; then
		fail "$log: no $exp with a '# source: URL' line"
		continue
	fi
	want="$(grep -v '^#' "$exp" | tr '\n' ' ')"
	[ -n "$want" ] && wrc=0 || { want=" "; wrc=1; }
	"$G" explain --json "$log" >"$T/out.json" 2>"$T/err"; rc=$?
	got="$(ids_of "$T/out.json" 2>/dev/null)"
	if [ "$want" = "$got" ] && [ "$rc" = "$wrc" ]; then
		hexact=$((hexact + 1))
	else
		fail "$log: want [$want] got [$got] (exit $rc)"
	fi
done
echo "held-out: $hexact/$htotal logs exact"
[ "$htotal" -ge 40 ] || fail "held-out set has $htotal logs, want at least 40"
# No source may serve both sets, or the held-out set tests nothing new.
shared="$(comm -12 <(grep -h '^# source:' tests/explain/corpus/*.expected | sort -u) \
	<(grep -h '^# source:' tests/explain/heldout/*.expected | sort -u))"
[ -z "$shared" ] || fail "held-out sources also in the corpus: $shared"

# ---- the wider ecosystem (issue #9 B): a tuned set and holdout-2 ------------
# ecosystem/ holds real logs from LLM servers, image UIs, other runtimes,
# extension builds, containers, WSL and Windows; holdout-2/ holds 40 more
# drawn at random from the same collection and never tuned on (see its
# README.md). score_set DIR MIN: every log needs a '# source: URL' line; at
# least MIN logs must give exactly their expected ids.
score_set() {
	local dir=$1 min=$2 line n
	for log in "$dir"/*.log; do
		grep -Eq '^# source: https?://' "${log%.log}.expected" 2>/dev/null || fail "$log: no '# source: URL' line"
	done
	line="$(tests/explain/score.sh "$dir")"
	echo "$line"
	n=${line##*: }
	n=${n%/*}
	[ "$n" -ge "$min" ] || fail "$dir: $n exact, want at least $min"
}
# The tuned set must be exact, like the corpus.
eco_total=$(ls tests/explain/ecosystem/*.log | wc -l)
score_set tests/explain/ecosystem "$eco_total"
[ "$eco_total" -ge 60 ] || fail "ecosystem set has fewer than 60 logs"
# Floor: the score after tuning (38/40, holdout-2/README.md; 39/40 once
# bitsandbytes' warning had to name bitsandbytes); it may rise, never fall.
score_set tests/explain/holdout-2 39
[ "$(ls tests/explain/holdout-2/*.log | wc -l)" = 40 ] || fail "holdout-2 must keep its 40 logs"
# The third round: ecosystem-3/ (tuned on) and holdout-3/ (28 logs drawn at
# random with seed 20261204 and never tuned on, see its README.md). Floors:
# the scores after tuning, 43/43 and 23/28; they may rise, never fall
# (holdout-3 28/28 after its misses were read, see its README.md).
eco3_total=$(ls tests/explain/ecosystem-3/*.log | wc -l)
score_set tests/explain/ecosystem-3 "$eco3_total"
[ "$eco3_total" -ge 40 ] || fail "ecosystem-3 set has fewer than 40 logs"
score_set tests/explain/holdout-3 28
[ "$(ls tests/explain/holdout-3/*.log | wc -l)" = 28 ] || fail "holdout-3 must keep its 28 logs"
# The fourth held-out set (issue #31): 24 logs sampled by fixed queries from
# projects no other set used, labelled before any run and scored once (see its
# README.md). Floor: that score, 12/24; it may rise, never fall (22/24 after
# branch misses read MSVC's errors on Triton's stubs; 23/24 after branch
# eco26 read Unsloth's stop when torch sees no GPU).
score_set tests/explain/holdout-4 23
[ "$(ls tests/explain/holdout-4/*.log | wc -l)" = 24 ] || fail "holdout-4 must keep its 24 logs"
# The later rounds (issue #31), each described in its README.md: tuning sets
# (ecosystem-N: the score after tuning is the floor, and they may grow) and
# held-out sets (holdout-N: scored once before and once after a stop's
# changes, then read; they keep their logs). Floors may rise, never fall:
# holdout-5 21/24 (24/24 after branch misses: a label changed, see its
# README.md); holdout-6 23/25 after its cublasCreate miss guided a
# refinement, 24/25 after its "CUDA error 8" (a retired code) did; holdout-7 25/27 after its misses were read (21/27 before, 22/27
# after stop 38's changes, 23 with a refinement its total prompted; 27/27
# after the mechanisms of its two last misses); holdout-8 17/20 and
# holdout-9 24/28, the same before and after stop 39's changes, read at
# stop 40 and tuned on: 20/20 and 25/28 after its mechanisms. holdout-10 to
# holdout-13 (stop 40): 11/11, 3/3, 12/18 and 17/21, the same before and
# after the stop's first round of changes; read at stop 40 and tuned on:
# 11/11, 3/3, 17/18 and 21/21 after their mechanisms. holdout-9 26/28
# after branch misses changed a label its README had doubted.
# holdout-14 25/28 and holdout-15 17/20, the same with every binary of
# stops 40 and 41, not read. holdout-16 to -19 (stop 41, drawn by neutral
# symptom queries from all of GitHub): 9/12, 12/15, 23/32 and 17/23 with
# the stop's start, 9/12, 12/15, 23/32 and 18/23 after the stop's other
# changes; holdout-18 22/32 after browser-gpu-process-failed, a new id
# that answers on one log labelled none (its labels predate the id); not
# read. Read and tuned at stop 43 (branch tn1): holdout-16 12/12 (one
# label corrected, see its README), holdout-17 13/15, holdout-19 22/23.
# ecosystem-27 (fresh threads of the big ML trackers, tuning):
# 24/30 before its tuning, 29/30 after. ecosystem-29 (fresh threads of
# other ML trackers, tuning): 33/35 before its tuning, 34/35 after.
# ecosystem-30 (neutral symptom
# queries from all of GitHub, tuning): 13/19 before its tuning (14/19 once
# a label was read as ecosystem-23 reads it), 19/19 after. ecosystem-31
# (threads found with Chinese queries, tuning): 23/36 before its tuning,
# 34/36 after; 33/35 once a thread ecosystem-29 took too was removed.
# ecosystem-33 (neutral symptom queries from all of GitHub, tuning): 28/32
# before its tuning, 30/32 after. ecosystem-32 (fresh threads of ML
# trackers by the errors their users report, tuning): 39/50 before its
# tuning, 48/50 after (two bitsandbytes labels read again from its source,
# see its README). ecosystem-34 (Chinese symptom queries, tuning): 34/40
# before its tuning, 40/40 after. ecosystem-35 (fresh threads about
# today's stack: Blackwell, CUDA 12.8/13, recent PyTorch, tuning): 17/18
# before its tuning, 18/18 after. ecosystem-36 (neutral symptom queries
# from all of GitHub, tuning): 16/16 at its first score, nothing to tune.
# ecosystem-38 (fresh threads of the wider ML ecosystem's trackers,
# tuning): 27/32 before its tuning, 29/32 after; 30/32 once llama.cpp's
# context allocation failures were read (stop 44, holdout-24's tuning).
# ecosystem-37 (fresh threads of the big ML trackers, twenty queries,
# tuning): 36/46 before its tuning, 42/46 after.
# ecosystem-39 (neutral symptom queries over all of GitHub, tuning):
# 24/32 at its first score, 29/32 after (five labels read again, see its
# README).
# ecosystem-42 (fresh threads of Python GPU libraries' and research
# code's trackers, tuning): 32/33 before its tuning, 33/33 after.
# ecosystem-45 (fresh threads of image, video and face tools' trackers,
# tuning): 32/38 before its tuning, 37/38 after (one label read again, see its
# README).
# ecosystem-41 (fresh threads of the big ML projects' trackers, tuning):
# 28/37 before its tuning, 33/37 after.
# ecosystem-43 (fresh threads of local-LLM runtimes' and quantisation
# libraries' trackers, tuning): 31/37 before its tuning, 36/37 after.
# ecosystem-44 (fresh threads of distributed-training, domain-library and
# non-CUDA backend trackers, tuning): 33/37 before its tuning, 37/37 after
# (one label read again, its README says why).
# holdout-20 to -22 (stop 42, neutral symptom queries in the words of
# Python GPU users, English and Chinese, from repositories no earlier set
# used): 25/30, 13/15 and 17/19 with the stop's start, 26/30, 13/15 and
# 17/19 with its last binary; holdout-20's gain is a log whose thread
# ecosystem-28 also took and was tuned on (its README says so); not read.
# holdout-18 retired at stop 43, read and tuned on: 22/32 before (23/32
# once bam#38 was relabelled, its README says why), 30/32 after.
# holdout-23 to -26 (stop 43: fresh threads of the ML trackers, neutral
# queries over all of GitHub, Chinese queries; held out, not read): 28/32,
# 22/33, 14/19 and 10/13 with the stop's start, 28/32, 23/33, 14/19 and
# 10/13 with its last binary.
# holdout-23 to -26 retired at stop 44, read and tuned on.
# holdout-27 to -30 (stop 44: fresh threads of the ML trackers and of ML
# application trackers, neutral queries over all of GitHub, Chinese
# queries; held out, not read): 39/48, 35/44, 10/17 and 15/18 with the
# stop's start, 41/48, 34/44, 10/17 and 15/18 with its last binary
# (holdout-28 fell by one: a new false alarm, not read, its README says so).
# holdout-31 to -34 (stop 45: fresh threads of LLM fine-tuning and
# serving trackers, of vision/3D/speech trackers, neutral symptom queries
# over all of GitHub, Chinese queries; held out, not read): 28/30, 21/29,
# 27/32 and 21/25 with the stop's start (d410730e), the same with its
# last binary (2e09a925).
# holdout-35 to -39 (stop 46: neutral symptom queries over all of GitHub,
# video/audio generation trackers, Chinese queries, science/HPC trackers,
# vision-language and OCR trackers; held out, not read): 14/25, 38/42,
# 10/13, 47/53 and 28/31 with the stop's start (9a4a47ab), 16/25, 38/42,
# 10/13, 47/53 and 28/31 with its last binary (d401ba7c).
# holdout-40 to -44 (stop 47: neutral symptom queries over all of GitHub,
# robotics/RL/simulation trackers, Chinese queries, RAPIDS/quantum/
# inference-server trackers, LLM fine-tuning and other framework trackers;
# held out, not read): 26/32, 25/29, 7/10, 27/29 and 27/31 with the
# stop's start (bdf15470), 27/32 and the same four with its last binary
# (74627c9c).
# holdout-45 to -49 (stop 48: neutral symptom queries over all of GitHub,
# 3D reconstruction/rendering trackers, Chinese queries, speech/audio/
# video generation trackers, cluster and operations trackers; held out,
# not read): 27/32, 40/44, 14/17, 27/30 and 31/39 with the stop's start
# (3e3f89e8), the same with its last binary (18d69f96).
# holdout-45, -46 and -47 retired at stop 49, read and tuned on (branch
# rt4547): 27/32, 40/44 and 14/17 before, 28/32, 44/44 and 15/17 after
# (Theano's runtime string, a kernel's minimum with no GPU named, glog's
# checks on a GPU count, "compiled without X support", cpp_extension's
# `where cl`, Dr.Jit's cuInit, a container's bash prompt); their READMEs
# list the rest. holdout-45 then 29/32: a number cut in two by a terminal
# ("sm7" / "5 or higher") is joined (goes_on_from, lib/explain/wrap.c).
# holdout-50 to -54 (stop 49: neutral symptom queries over all of GitHub,
# the trackers issue 31 names, Chinese queries, LLM serving and local
# inference trackers, training-library and vision-toolkit trackers; held
# out, not read): 16/25, 31/34, 11/17, 27/30 and 20/23 with the stop's
# start (fd87fc2b), the same with its last binary.
# holdout-48 and -49 retired at stop 49, read and tuned on (branch rt4849):
# 27/30 and 31/39 before, 28/30 and 33/39 after (SageAttention's dispatch
# names a GPU below its sm80 kernels, HAMi-core's vGPU memory limit; new ids
# mig-enabled-without-instances and fabric-manager-restarted-without-reset,
# NCCL's NVLS set-up failing after a Fabric Manager restart, two none
# labels of holdout-49 given them); their READMEs list the rest.
# holdout-43 and -44 retired at stop 48, read and tuned on (branch rt4344):
# 27/29 and 27/31 before, 29/29 and 31/31 after (pynvml's exception class
# names, THC's location after a runtime string, the driver's JIT log after
# code 222, Pyrit's misspelt CUresult names, MegEngine's cuDNN check, the
# cuDNN frontend's "No execution plans"); their READMEs list them.
# holdout-40, -41 and -42 retired at stop 48, read and tuned on (branch
# rt4042): 27/32, 25/29 and 7/10 before, 31/32, 26/29 and 7/10 after
# (PyTorch autocast's bfloat16 refusal, a minimum's "or higher" and fp8/bf16
# floors in the architecture rule, NVRTC's builtins, NVIDIA's OpenGL memory
# dialog, JAX's device mismatch); a line wrapped at a word is joined with
# the next (soft_candidate), which also moved holdout-38 to 53/53,
# ecosystem-41 to 34/37 and ecosystem-57 to 42/46; their READMEs list the
# rest.
# holdout-35 and -37 retired at stop 47, read and tuned on (branch rt3537):
# 16/25 and 10/13 before, 22/25 and 11/13 after (a library by its component
# name, "Failed to find nvcc", PyTorch 0.2-0.3's CUDAFloatTensor, CMake's
# "Could NOT find CUDNN", Paddle's WITH_GPU, nvcc's host compiler OS);
# their READMEs list the rest.
# holdout-36, -38 and -39 retired at stop 47, read and tuned on (branch
# rt363839): 38/42, 47/53 and 28/31 before, 39/42, 52/53 and 29/31 after
# (jaxlib's cuSOLVER strings, glibc's symbol version lookup, LightGBM's
# missing tree learner, nvidia-smi's NVML loader words, ggml's cuBLAS
# string after "CUDA error:", CUDA.jl's hex CUresult; torch.load's bare
# is_available() check gives no id); their READMEs list the rest.
# holdout-31 and -32 retired at stop 46, read and tuned on (branch rt3132):
# 28/30 and 21/29 before, 29/30 and 25/29 after (DeepSpeed's CPU
# auto-detect behind bitsandbytes' CPU library, "not compiled with GPU
# support", CHECK_CUDA's "must be a CUDA tensor", a capability numbered
# 70); their READMEs list the rest.
# holdout-28 and -30 retired at stop 45, read and tuned on (branch rt2830):
# 34/44 and 15/18 before, 37/44 and 16/18 after (dlib's cuDNN status by
# number, PyTorch's NVML assert on the out-of-memory path, CuPy's missing
# CUDA headers, CMake's exact CUDA version); their READMEs list the rest.
# holdout-26 retired at stop 44, read and tuned on (branch rt26): 11/13
# after TensorFlow's "UNKNOWN ERROR (303)" (its README says why).
# holdout-25 retired at stop 44, read and tuned on: 14/19 before, 16/19
# after (its README says which misses are left and why).
# holdout-23 retired at stop 44, read and tuned on (branch rt23): 28/32
# before, 30/32 after (vLLM's start-up memory check, ComfyUI's VAE
# out-of-memory retry); the two left need context the log lacks.
# ecosystem-46 (fresh threads of scientific and GPU-library trackers:
# Numba, RAPIDS, OpenMM, GROMACS, Warp, Isaac Gym, Faiss, Kaolin, ...,
# tuning): 33/38 before its tuning, 36/38 after.
# ecosystem-48 (neutral symptom queries beyond one NVIDIA GPU: ROCm, Intel,
# Metal, DirectML, OpenCL, containers, WSL, VMs, multi-GPU; tuning): 37/48
# before its tuning, 40/48 after, four labels changed (its README says why).
# ecosystem-47 (threads found by neutral symptom queries over all of
# GitHub, tuning): 33/40 before its tuning, 37/40 after (ollama's GPU
# discovery codes, CMake's CUDA compiler search; two labels changed to the
# tree's convention, its README says why).
# holdout-24 retired at stop 44, read and tuned on (branch rt24): 23/33
# before, 24/33 after llama.cpp's context allocation failures, 25/33
# after CUDA index_select's device check.
# holdout-27 and -29 retired at stop 45, read and tuned on (branch rt2729):
# 41/48 and 10/17 before, 46/48 and 15/17 after (the torch ABI symbol without
# its library, device-memory allocation failures, older amdgpu VM faults and
# resets, TensorFlow-ROCm's minimum ISA, a broken ONNX Runtime warning, the
# PJRT API check); the four left are in their READMEs.
# holdout-33 and -34 retired at stop 46, read and tuned on (branch rt3334):
# 27/32 and 21/25 before, 30/32 and 24/25 after (Caffe2's enforce form of
# a status check, i915's request watchdog, galcore's hang recovery, Paddle's
# cuDNN check, MLX's allocator, THC's same-GPU check); the three left need
# context the log lacks or one program's own words (their READMEs).
# ecosystem-49 (Chinese symptom queries over all of GitHub, tuning): 23/26
# before its tuning, 26/26 after the build tools' "could not find CUDA".
# ecosystem-50 (fresh threads of older frameworks, serving stacks and
# driver-level tools: MXNet, OneFlow, Caffe, darknet, Triton, BentoML, MPS,
# nvidia-persistenced, Xid monitors, ..., tuning): 39/47 before its
# tuning, 43/47 after.
# ecosystem-53 (Chinese queries over all of GitHub: deployment, quantisation,
# serving, ONNX Runtime, TensorRT, passthrough, tuning): 27/30 before its
# tuning, 30/30 after (bitsandbytes' loader naming a CUDA library, pinned
# host registration, TensorRT's skipped tactics).
# ecosystem-51 (LLM application, RAG and NLP trackers over all of GitHub,
# tuning): 25/26 before its tuning and after; the one left is labelled by
# the cause a commenter states, which its log does not show (README).
# ecosystem-54 (system-level symptoms: crashes, suspend, PCIe/ECC, laptops,
# DKMS, Secure Boot; over all of GitHub, tuning): 20/24 before its tuning,
# 22/24 after (DKMS's failed nvidia builds, the X driver's failed GPU init).
# ecosystem-52 (video, rendering and upscaling tools over all of GitHub,
# tuning): 39/51 before its tuning, 44/51 after (Cycles' cuew strings in
# all wordings, FFmpeg's CUDA loader, OptiX's status names, Chainer's check,
# a quoted failed cuInit).
# ecosystem-57 (cloud GPU platforms, notebook services and Python
# packaging/build tools over all of GitHub, tuning): 38/46 before its
# tuning, 41/46 after (XLA's and numba's missing libdevice, glibc's loader
# line without its reason, a runtime status in a CUresult, no
# CUDA_VISIBLE_DEVICES blame when the nvidia module failed).
# ecosystem-55 (HPC clusters, MPI, multi-node and GPU hardware faults over
# all of GitHub, tuning): 31/40 before its tuning, 34/40 after (the
# runtime's "invalid device context" read as the driver's, the container
# CLI's ldcache error, Horovod's extensions built without GPU support).
# ecosystem-56 (image-generation front ends, local-LLM apps, face and
# vision libraries, alternative GPU back ends; tuning): 35/41 before its
# tuning, 41/41 after (dlib's CHECK_* codes, OpenCV's Gpu API call, "not
# enough video memory", "must be Ampere or newer", a CLI with no GPU device).
# ecosystem-58 (Windows desktop users of GPU Python tools: DLL loading,
# MSBuild, paging file, TDR, DirectML, ZLUDA, Windows builds; tuning):
# 34/43 before its tuning, 40/43 after (WinError 1455 on a line before
# torch's DLL line, cudarc's and NVRTC's loader wordings, "NAME not found",
# bitsandbytes' cadam32bit probe, TDR's message behind an unknown error).
# ecosystem-60 (Jetson and embedded GPU users: JetPack, L4T containers,
# TensorRT/DeepStream on Jetson, Isaac ROS; tuning): 41/48 before its
# tuning, 44/48 after (the container runtime's "unsatisfied condition:
# cuda>=...", a managed-memory prefetch's "invalid device ordinal",
# cuVSLAM's "[CUDA] failure: N").
# ecosystem-61 (AMD ROCm users: gfx targets, rocminfo, rocm-smi, /dev/kfd,
# HIP, MIOpen, rocBLAS, WSL, ROCm builds of the frameworks; tuning): 33/43
# before its tuning, 39/43 after (HIP strings only after ggml's "ROCm
# error:", LLVM's and clang's unknown GPU processor, rocminfo's failed
# hsa_init no OOM, MIGraphX's rocBLAS status, amdgpu DKMS build failures).
# ecosystem-62 (the trackers issue 31 names, second draw: ollama, ComfyUI,
# llama.cpp, vLLM, Paddle, ChatGLM, DeepSpeed, bitsandbytes, flash-attn,
# TensorFlow, JAX, ONNX Runtime, TensorRT, the container toolkit, xformers,
# WSL2, ROCm; tuning): 33/42 before its tuning, 39/42 after (clang's
# missing HIP runtime, every container-CLI initialization error, a missing
# nvidia module before "no device", a null TensorRT engine, clang's quoted
# missing header, xFormers built without CUDA).
# ecosystem-59 (scientific computing: interatomic potentials, protein
# structure, molecular dynamics engines, Gaussian processes, PyG
# extensions; tuning): 31/34 before its tuning, 34/34 after (AMReX's GPU
# checks, PyG's bare "Not compiled with CUDA support", LAMMPS's host-only
# Kokkos asked for GPUs).
# ecosystem-63 (Chinese symptom queries over all of GitHub: CUDA errors,
# GPU not usable, cuDNN/cudart not found, containers, nvidia-smi,
# quantised models; tuning): 19/24 before its tuning, 23/24 after (glibc's
# and bash's zh_CN/zh_TW messages, full-width punctuation read as ASCII's,
# a .cu file and line after the runtime's string, CMake's CUDNN_*-NOTFOUND,
# NVML's Unknown Error behind "No CUDA GPUs are available").
# ecosystem-66 (the trackers issue 31 names, third draw: ollama, ComfyUI,
# llama.cpp, vLLM, PaddleOCR, DeepSpeed, accelerate, bitsandbytes,
# flash-attn, TensorFlow, JAX, ONNX Runtime, TensorRT, the container
# toolkit, xformers, Triton, WSL, ROCm, text-generation-webui, SD WebUI;
# tuning): 34/40 before its tuning, 37/40 after (cudarc's missing CUDA
# libraries, ONNX Runtime's "CUDNN error executing" of a compute call).
# ecosystem-64 (neutral English symptom queries over all of GitHub;
# tuning): 24/32 before its tuning, 27/32 after (a program's own
# compute-capability floor, "need at least compute capability 7.0+" and
# "kernel requires N.N capability"; the runtime's description in Theano's
# "bytes of device memory (...)").
# ecosystem-65 (Chinese symptom queries over all of GitHub, second draw:
# training, out of memory, torch.cuda, drivers, ChatGLM, Qwen, stable
# diffusion, dynamic libraries, cuDNN versions, conda; tuning): 25/28
# before its tuning, 27/28 after (cudarc's quoted library name, Caffe2's
# cuDNN compiled/runtime check, a /dev/nvidia* node missing in glibc's
# zh_CN/zh_TW words).
# set          floor  logs
while read -r set floor logs; do
	score_set "tests/explain/$set" "$floor"
	have=$(ls "tests/explain/$set"/*.log | wc -l)
	case $logs in
	=*) [ "$have" = "${logs#=}" ] || fail "$set must keep its ${logs#=} logs" ;;
	*) [ "$have" -ge "$logs" ] || fail "$set set has fewer than $logs logs" ;;
	esac
done <<'SETS'
ecosystem-6    29     30
ecosystem-7    29     29
ecosystem-8    21     21
ecosystem-9    13     13
ecosystem-10   13     13
ecosystem-11   20     20
ecosystem-12   17     17
ecosystem-13   10     10
ecosystem-14   18     18
ecosystem-15   16     17
ecosystem-16   13     13
ecosystem-17   17     17
ecosystem-18   12     12
ecosystem-19   8      8
ecosystem-20   17     17
ecosystem-21   25     27
ecosystem-22   28     30
ecosystem-23   35     37
ecosystem-24   30     30
ecosystem-25   23     24
ecosystem-26   18     18
ecosystem-27   29     30
ecosystem-28   28     31
ecosystem-29   34     35
ecosystem-30   19     19
ecosystem-31   33     35
ecosystem-32   48     50
ecosystem-33   30     32
ecosystem-34   40     40
ecosystem-35   18     18
ecosystem-36   16     16
ecosystem-37   42     46
ecosystem-38   30     32
ecosystem-39   29     32
ecosystem-40   23     23
ecosystem-41   34     =37
ecosystem-42   33     33
ecosystem-43   36     =37
ecosystem-44   37     =37
ecosystem-45   36     38
ecosystem-46   36     =38
ecosystem-49   26     =26
ecosystem-48   40     =48
ecosystem-50   43     =47
ecosystem-53   30     =30
ecosystem-47   37     =40
ecosystem-51   25     =26
ecosystem-54   22     =24
ecosystem-52   44     =51
ecosystem-57   42     =46
ecosystem-55   34     =40
ecosystem-56   41     =41
ecosystem-58   40     =43
ecosystem-60   44     =48
ecosystem-61   39     =43
ecosystem-62   39     =42
ecosystem-59   34     =34
ecosystem-63   23     =24
ecosystem-64   27     =32
ecosystem-65   27     =28
ecosystem-66   37     =40
holdout-5      24     =24
holdout-6      24     =25
holdout-7      27     =27
holdout-8      20     =20
holdout-9      26     =28
holdout-10     11     =11
holdout-11     3      =3
holdout-12     17     =18
holdout-13     21     =21
holdout-14     25     =28
holdout-15     18     =20
holdout-16     12     =12
holdout-17     13     =15
holdout-18     30     =32
holdout-19     22     =23
holdout-20     26     =30
holdout-21     13     =15
holdout-22     18     =19
holdout-23     30     =32
holdout-24     25     =33
holdout-25     16     =19
holdout-26     11     =13
holdout-27     46     =48
holdout-28     38     =44
holdout-29     15     =17
holdout-30     16     =18
holdout-31     29     =30
holdout-32     25     =29
holdout-33     30     =32
holdout-34     24     =25
holdout-35     23     =25
holdout-36     39     =42
holdout-37     11     =13
holdout-38     53     =53
holdout-39     29     =31
holdout-40     31     =32
holdout-41     26     =29
holdout-42      7     =10
holdout-43     29     =29
holdout-44     31     =31
holdout-45     29     =32
holdout-46     44     =44
holdout-47     15     =17
holdout-48     28     =30
holdout-49     33     =39
holdout-50     16     =25
holdout-51     31     =34
holdout-52     11     =17
holdout-53     27     =30
holdout-54     20     =23
SETS
# Each of these logs comes from its own thread, used by no other set.
dups="$( { grep -h '^# source:' tests/explain/ecosystem*/*.expected tests/explain/holdout-*/*.expected
	grep -h '^# source:' tests/explain/{corpus,heldout}/*.expected | sort -u; } | sort | uniq -d)"
[ -z "$dups" ] || fail "a source serves two logs: $dups"

# ---- negatives: nothing matches, exit 1 ---------------------------------
# negatives-2/ (issue #31): real logs that mention GPUs without a GPU error,
# sampled as its README.md says; each needs its '# source: URL' line.
# negatives-3/ (issue #31): real logs from users' threads whose failure is no
# GPU problem (Python errors, missing files, HTTP, build, pip, host OOM killer),
# sampled by the fixed procedure of its README.md.
for log in tests/explain/negatives-2/*.log tests/explain/negatives-3/*.log; do
	grep -Eq '^# source: https?://' "${log%.log}.expected" 2>/dev/null || fail "$log: no '# source: URL' line"
	grep -qv '^#' "${log%.log}.expected" && fail "${log%.log}.expected: an id line in a set of logs with no GPU error"
done
[ "$(ls tests/explain/negatives-2/*.log | wc -l)" -ge 30 ] || fail "negatives-2 has fewer than 30 logs"
[ "$(ls tests/explain/negatives-3/*.log | wc -l)" -ge 60 ] || fail "negatives-3 has fewer than 60 logs"
for log in tests/explain/negatives/*.log tests/explain/negatives-2/*.log tests/explain/negatives-3/*.log; do
	"$G" explain --json "$log" >"$T/out.json" 2>"$T/err"; rc=$?
	got="$(ids_of "$T/out.json" 2>/dev/null)"
	[ "$rc" = 1 ] && [ "$got" = " " ] || fail "$log: want no match, got [$got] (exit $rc)"
	grep -q "gpuwise: no known GPU error found" "$T/err" || fail "$log: no 'no known GPU error found' message"
	"${PYS[@]}" -c 'import json,sys; assert json.load(open(sys.argv[1]))["unrecognised"] == []' "$T/out.json" \
		|| fail "$log: lines listed as unrecognised in a log with no GPU error"
done

# ---- the catalogue: every id explained and documented -------------------
"$G" explain --list --json >"$T/list.json" || fail "explain --list --json failed"
"${PYS[@]}" - "$T/list.json" docs/explain.md <<'PY' || fail "catalogue check"
import json, re, sys
docs = json.load(open(sys.argv[1]))["findings"]
text = open(sys.argv[2]).read()
bad = 0
design = """no-gpu nvidia-driver-not-loaded nouveau-bound nvml-library-missing driver-library-mismatch
device-node-missing device-permission-denied gpu-lost cuda-visible-devices-hides-all
cuda-visible-devices-invalid cuda-device-order-differs framework-cpu-only-build
driver-too-old-for-framework gpu-arch-unsupported-by-framework cudnn-missing cudnn-version-mismatch
library-path-shadows-framework toolkit-framework-cuda-mismatch gpu-memory-held-by-other-processes
exclusive-process-busy mig-without-device-selection pcie-link-degraded clocks-throttled ecc-errors
remapped-rows-pending xid-errors amdgpu-not-loaded rocm-permission-denied rocm-gfx-unsupported
container-without-gpu cuda-out-of-memory cuda-library-missing device-side-assert illegal-memory-access
cudnn-handle-failed cublas-handle-failed nccl-error nccl-timeout ptx-toolchain-too-new
cuda-forward-compat-unsupported cuda-unknown-error multiple-framework-packages""".split()
have = {d["id"]: d for d in docs}
for i in design:
    if i not in have:
        print("missing catalogue entry for DESIGN id", i); bad += 1
for d in docs:
    for k in ("id", "title", "severity", "layer", "kind", "cause", "fix", "explanation", "source"):
        if not d.get(k):
            print(d["id"], "lacks", k); bad += 1
    if not re.match(r"https?://", d["source"]):
        print(d["id"], "has no source URL"); bad += 1
    if not re.search(r"^### `%s`" % re.escape(d["id"]), text, re.M):
        print(d["id"], "has no '### `%s`' entry in docs/explain.md" % d["id"]); bad += 1
sys.exit(1 if bad else 0)
PY
for f in data/findings/*.txt; do
	grep -Eq '^source: https?://' "$f" || fail "$f has no source"
done
awk -F'\t' '!/^#/ && NF && ($6 !~ /^https?:\/\//) { print FILENAME ":" NR ": no source"; bad = 1 } END { exit bad }' \
	data/explain/patterns || fail "a pattern row lacks a source"
# The generator itself refuses a row without a source (so the build fails).
mkdir -p "$T/f"
cp data/findings/*.txt "$T/f/"
sed '/^[a-z]/{s/\thttps:[^\t]*$/\t-/;}' data/explain/patterns >"$T/patterns"
if "${PYS[@]}" scripts/gen-explain "$T/gen" "$T/patterns" "$T/f" 2>/dev/null; then
	fail "gen-explain accepted pattern rows without a source"
fi
# A literal with letter case outside ASCII cannot be folded by the scanner
# (it folds A-Z only): refused. Caseless UTF-8 (Chinese) is accepted.
cp data/explain/patterns "$T/patterns-cased"
printf 'gpu-lost\tkernel\tCarte graphique PERDUE\xc3\x89\t-\t-\thttps://example.org/x\n' >>"$T/patterns-cased"
if "${PYS[@]}" scripts/gen-explain "$T/gen" "$T/patterns-cased" data/findings 2>/dev/null; then
	fail "gen-explain accepted a literal with non-ASCII letter case"
fi
sed -i '/^source:/d' "$T/f/gpu-lost.txt"
if "${PYS[@]}" scripts/gen-explain "$T/gen" data/explain/patterns "$T/f" 2>/dev/null; then
	fail "gen-explain accepted a finding without a source"
fi

# ---- docs/explain.md is generated from the catalogue ----------------------
if ! "${PYS[@]}" scripts/gen-explain --markdown data/explain/patterns data/findings | cmp -s - docs/explain.md; then
	fail "docs/explain.md is out of date: run scripts/gen-explain --markdown data/explain/patterns data/findings > docs/explain.md"
fi

# ---- JSON shape ----------------------------------------------------------
"$G" explain --json tests/explain/corpus/device_assert_nll2d.log >"$T/j.json"
"${PYS[@]}" - "$T/j.json" <<'PY' || fail "--json shape"
import json, sys
j = json.load(open(sys.argv[1]))
assert set(j) >= {"matches"}, j.keys()
m = j["matches"][0]
for k, t in (("id", str), ("title", str), ("line", int), ("excerpt", str), ("cause", str), ("fix", str), ("count", int)):
    assert isinstance(m.get(k), t), (k, m.get(k))
assert m["id"] == "device-side-assert" and m["line"] == 5 and m["count"] == 4, m
PY
"$G" explain --json gpu-lost >"$T/id.json" && "${PYS[@]}" -c '
import json,sys; d=json.load(open(sys.argv[1]))
assert d["id"]=="gpu-lost" and d["explanation"] and d["source"].startswith("http")' "$T/id.json" \
	|| fail "explain --json ID shape"

# ---- exit codes and input forms -------------------------------------------
"$G" explain 'RuntimeError: CUDA error: device-side assert triggered' >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^device-side-assert:' "$T/o" || fail "TEXT: exit $rc"
"$G" explain CUDA out of memory. Tried to allocate 2 GiB >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^cuda-out-of-memory:' "$T/o" || fail "several words: exit $rc"
# Status codes of the stack in any wrapping (data/explain/status_codes.tsv).
while IFS='|' read -r text want; do
	"$G" explain --json "$text" >"$T/o" 2>/dev/null
	got="$(ids_of "$T/o" 2>/dev/null)"
	[ "$got" = "$want " ] || fail "status code in '$text': want [$want] got [$got]"
done <<'CODES'
CUDA_ERROR_OUT_OF_MEMORY|cuda-out-of-memory
cudaErrorNoKernelImageForDevice|gpu-arch-unsupported-by-framework
CUBLAS_STATUS_NOT_INITIALIZED|cublas-handle-failed
CUDA error 700|illegal-memory-access
cudaError(2)|cuda-out-of-memory
CUDA error code 46|exclusive-process-busy
hip error 101|cuda-visible-devices-invalid
CUDA error: 2|cuda-out-of-memory
RuntimeError: CUDA error: operation not supported|gpu-operation-not-supported
CODES
# Issue #31's remaining misses, each a class of messages (one log a case,
# its lines separated by \n; want "" means silence, exit 1).
# A driver function missing from the installed driver is a driver older
# than the build, unless the log shows the driver newer; a wrapping's number
# may follow its second place on a line; nvcc's own programs missing; the
# CUDA libraries looked for through CUDA_PATH; XLA without cuDNN support;
# a tool offering only ONNX Runtime's CPU provider; JAX's CUDA plugin that
# cannot be imported (not one whose initialize() fails); Blender's cuew
# strings before the driver call; the runtime's string after "OIDN error:".
while IFS='|' read -r text want; do
	printf '%b\n' "$text" >"$T/case.log"
	"$G" explain --json "$T/case.log" >"$T/o" 2>/dev/null; rc=$?
	got="$(ids_of "$T/o" 2>/dev/null)"
	if [ -z "$want" ]; then
		[ "$rc" = 1 ] && [ "$got" = " " ] || fail "class case '$text': want silence, got [$got] (exit $rc)"
	else
		[ "$got" = "$want " ] || fail "class case '$text': want [$want] got [$got]"
	fi
done <<'CASES'
thread 'main' panicked: DlSym { desc: "/lib/x86_64-linux-gnu/libcuda.so.1: undefined symbol: cuCtxCreate_v4" }|driver-too-old-for-framework
ImportError: /site-packages/pycuda/_driver.cpython-37m-x86_64-linux-gnu.so: undefined symbol: cuDevicePrimaryCtxRelease_v2|driver-too-old-for-framework
The procedure entry point cuDevicePrimaryCtxReset_v2 could not be located in the dynamic link library C:\\Windows\\system32\\nvcuda.dll|driver-too-old-for-framework
./xmrig: symbol lookup error: /root/libxmrig-cuda.so: undefined symbol: cuInit|
ImportError: /opt/lib/libcugraph.so: undefined symbol: cugraph_create_graph|
Warp CUDA error: Failed to get driver entry point 'cuInit' (CUDA error 34)|nvidia-driver-not-loaded
Warp CUDA error: Failed to get driver entry point 'cuDeviceGetUuid' (CUDA error 1)\nWarp CUDA error 36: API call is not supported in the installed CUDA driver\nWarp 1.7.1 initialized:\n   CUDA Toolkit 12.8, Driver 13.0|gpu-invalid-call
Warp CUDA error 36: API call is not supported in the installed CUDA driver\n   CUDA Toolkit 12.8, Driver 12.2|driver-too-old-for-framework
Warp CUDA error 36: API call is not supported in the installed CUDA driver\n   CUDA Toolkit 11.8, Driver 12.4|gpu-invalid-call
  sh: 1: cicc: not found|cuda-toolkit-not-found
/bin/sh: line 1: cudafe++: command not found|cuda-toolkit-not-found
    assert CUDA_PATH is not None, 'Can not find $env:CUDA_PATH'\nAssertionError: Can not find $env:CUDA_PATH|cuda-library-missing
jaxlib.xla_extension.XlaRuntimeError: UNIMPLEMENTED: DNN library is not found.|cudnn-missing
E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:535] Loaded runtime CuDNN library: 8.5.0 but source was compiled with: 8.6.0.\nXlaRuntimeError: UNIMPLEMENTED: DNN library is not found.|cudnn-version-mismatch
run.py: error: argument --execution-providers: invalid choice: 'cuda' (choose from 'cpu')|framework-cpu-only-build
run.py: error: argument --execution-providers: invalid choice: 'cuda' (choose from 'cpu', 'tensorrt')|
ERROR:jax._src.xla_bridge:444: Jax plugin configuration error: Plugin module %s could not be loaded\nImportError: cannot import name 'triton' from 'jax._src.lib'\nAn NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.|jax-cuda-plugin-mismatch
An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.|framework-cpu-only-build
ERROR:jax._src.xla_bridge:444: Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()|
Invalid context in cuStreamCreate(&cuda_stream_, CU_STREAM_NON_BLOCKING) (C:\\blender\\intern\\cycles\\device\\cuda\\queue.cpp:21)|gpu-invalid-call
Launch exceeded timeout in CUDA queue synchronize (integrator_shade_surface)|cuda-launch-timeout
Unknown error in custom_node() (app.py:3)|
E0717 07:48:23.571324  9964 denoiser_oidn_gpu.cpp:209] OIDN error: operation not supported\noperation not supported|gpu-operation-not-supported
NOIDN error: operation not supported|
CASES
"$G" explain --json 'RuntimeError: CUDA error: operation not supported' >"$T/o"
"${PYS[@]}" -c '
import json,sys; c=json.load(open(sys.argv[1]))["matches"][0]["code"]
assert c == {"library": "cuda-runtime", "name": "cudaErrorNotSupported", "number": 801,
             "description": "operation not supported"}, c' "$T/o" || fail "--json code object"
code_out=$("$G" explain 'CUDA error 700')
grep -q 'Code:  cudaErrorIllegalAddress = 700 (cuda-runtime)' <<<"$code_out" || fail "text Code: line"
awk -F'\t' '!/^#/ && NF != 6 { bad = 1 } END { exit bad }' data/explain/status_codes.tsv || fail "status_codes.tsv rows need 6 columns"
# docs/commands/explain.md states the table's size: keep it true.
n_codes=$(grep -vc '^#' data/explain/status_codes.tsv)
n_tables=$(grep -v '^#' data/explain/status_codes.tsv | cut -f1 | sort -u | wc -l)
grep -q "$n_codes codes in $n_tables tables" docs/commands/explain.md ||
	fail "docs/commands/explain.md: want '$n_codes codes in $n_tables tables'"
# Lines that look like GPU errors but match nothing are listed as such.
printf 'x\nfoo: CUDA driver failed in a new way\n' >"$T/unrec"
"$G" explain --json "$T/unrec" >"$T/o" 2>/dev/null; rc=$?
[ $rc = 1 ] && "${PYS[@]}" -c '
import json,sys; u=json.load(open(sys.argv[1]))["unrecognised"]
assert u == [{"line": 2, "excerpt": "foo: CUDA driver failed in a new way"}], u' "$T/o" || fail "--json unrecognised: exit $rc"
"$G" explain "$T/unrec" >"$T/o" 2>&1
grep -q '^not recognised: ' "$T/o" && grep -q '^  line 2: foo: CUDA driver failed' "$T/o" || fail "text: not recognised section"
"$G" explain 'all good here' >"$T/o" 2>&1; rc=$?
[ $rc = 1 ] && grep -q 'gpuwise: no known GPU error found' "$T/o" || fail "no match: exit $rc"
"$G" explain no-such-finding-id >"$T/o" 2>&1; rc=$?
[ $rc = 1 ] && grep -q 'no known GPU error found' "$T/o" || fail "unknown id: exit $rc"
"$G" explain --bogus >"$T/o" 2>&1; rc=$?
[ $rc = 2 ] || fail "unknown option: exit $rc, want 2"
"$G" explain </dev/null >"$T/o" 2>&1; rc=$?
[ $rc = 1 ] || fail "empty stdin: exit $rc, want 1"
"$G" explain tests/explain >"$T/o" 2>&1; rc=$?
[ $rc = 1 ] && grep -q 'is a directory' "$T/o" || fail "directory: exit $rc"
"$G" explain --help >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^usage: gpuwise explain' "$T/o" || fail "--help: exit $rc"
"$G" explain - <tests/explain/corpus/nccl_watchdog_allreduce.log >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^nccl-timeout: .*(line 2, 2 lines)' "$T/o" || fail "stdin '-': exit $rc"
cat tests/explain/corpus/tf_cannot_dlopen_gpu_libs.log | "$G" explain --json >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] || fail "stdin without '-': exit $rc"
"$G" explain tests/explain/corpus/xid79_fallen_off_bus.log >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^xid-errors:' "$T/o" && grep -q '^gpu-lost:' "$T/o" || fail "FILE: exit $rc"
"$G" explain cuda-out-of-memory >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && grep -q 'The GPU ran out of memory' "$T/o" && grep -q 'Source: http' "$T/o" || fail "ID: exit $rc"
for id in $("${PYS[@]}" -c 'import json,sys; print(" ".join(d["id"] for d in json.load(open(sys.argv[1]))["findings"]))' "$T/list.json"); do
	"$G" explain "$id" >"$T/o" 2>&1 || fail "explain $id: exit $?"
done

# ---- tailoring: an OOM on a machine with a readable GPU lists who holds memory
if [ -f build/fake/libnvidia-ml.so.1 ]; then
	scripts/with-machine laptop-3060 -- "$G" explain 'torch.OutOfMemoryError: CUDA out of memory.' >"$T/o" 2>&1; rc=$?
	[ $rc = 0 ] && grep -q 'GPU memory on this machine now' "$T/o" && grep -q 'pid 1710 .*Xorg' "$T/o" \
		|| fail "OOM tailoring on laptop-3060: exit $rc $(tail -5 "$T/o")"
	scripts/with-machine laptop-3060 -- "$G" explain 'ValueError: No available memory for the cache blocks.' >"$T/o" 2>&1; rc=$?
	[ $rc = 0 ] && grep -q '^kv-cache-no-memory:' "$T/o" && grep -q 'GPU memory on this machine now' "$T/o" \
		|| fail "KV-cache tailoring on laptop-3060: exit $rc $(tail -5 "$T/o")"
	scripts/with-machine laptop-3060 -- "$G" explain 'RuntimeError: No CUDA GPUs are available' >"$T/o" 2>&1
	grep -q 'GPU memory on this machine' "$T/o" && fail "memory listing shown for a non-OOM error"
fi

# ---- the missing-library rule: data/sonames.tsv names the library --------
# One rule for every loader's wording: the library's component, the version
# its name implies and the packages that provide it.
lib_of() { "$G" explain --json "$1" | "${PYS[@]}" -c 'import json,sys
m = json.load(sys.stdin)["matches"][0]; l = m.get("library") or {}
print(m["id"], l.get("name"), "|", l.get("component"), "|", l.get("implies"), "|", l.get("pip"))'; }
for c in \
	"Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory|cuda-library-missing libcudart.so.11.0 | CUDA runtime | CUDA 11 | nvidia-cuda-runtime-cu11" \
	"Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file: No such file or directory|cuda-library-missing libcuda.so | NVIDIA driver (CUDA driver library, unversioned link) | - | -" \
	"ImportError: libcufft.so.11: cannot open shared object file: No such file or directory|cuda-library-missing libcufft.so.11 | cuFFT | CUDA 12 | nvidia-cufft-cu12" \
	"Could not locate cublasLt64_12.dll. Please make sure it is in your library path!|cuda-library-missing cublasLt64_12.dll | cuBLASLt | CUDA 12 | nvidia-cublas-cu12" \
	"OSError: libnccl.so.2: cannot open shared object file: No such file or directory|cuda-library-missing libnccl.so.2 | NCCL | NCCL 2 | nvidia-nccl-cu12 (CUDA 12), nvidia-nccl-cu13 (CUDA 13), nvidia-nccl-cu11 (CUDA 11)" \
	"error while loading shared libraries: libamdhip64.so.6: cannot open shared object file: No such file or directory|rocm-library-missing libamdhip64.so.6 | HIP runtime (ROCm) | ROCm 6 | -" \
	"Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}|cudnn-missing libcudnn_ops.so.9.1.0 | cuDNN | cuDNN 9 | nvidia-cudnn-cu12 (CUDA 12), nvidia-cudnn-cu13 (CUDA 13), nvidia-cudnn-cu11 (CUDA 11)"; do
	printf '%s\n' "${c%%|*}" >"$T/lib.log"
	got="$(lib_of "$T/lib.log" 2>&1)"
	[ "$got" = "${c#*|}" ] || fail "library rule: ${c%%|*}: got [$got]"
done
# A library that is there but the wrong one is another error, not a missing one.
printf '%s\n' "Could not load library libcudnn_cnn_train.so.8. Error: /usr/lib/libcudnn_ops_train.so.8: undefined symbol: _Z22cudnnGenericOpTensorNd" >"$T/lib.log"
"$G" explain --json "$T/lib.log" >"$T/lib.json"
grep -q '"library"' "$T/lib.json" && fail "library rule claimed an undefined symbol"
"$G" explain 'ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory' >"$T/o" 2>&1
grep -q "Library: libcudnn.so.8: cuDNN, cuDNN 8" "$T/o" && grep -q "apt libcudnn8" "$T/o" \
	|| fail "library rule: no Library/From lines: $(cat "$T/o")"

# ---- the architecture rule: the GPU's target against the build's --------
arch_of() { "${PYS[@]}" -c 'import json,sys
m = [m for m in json.load(open(sys.argv[1]))["matches"] if m.get("arch")][0]; a = m["arch"]
print(m["id"], a["gpu"], "|", a["build"], "|", a["verdict"])' "$1"; }
for c in \
	"tests/explain/corpus/torch_sm120_rtx5060ti.log|gpu-arch-unsupported-by-framework sm_120 | sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90 | gpu-newer" \
	"tests/explain/corpus/ollama_gfx1103_not_supported_by.log|rocm-gfx-unsupported gfx1103 | gfx1030 gfx1100 gfx1101 gfx1102 gfx900 gfx906 gfx908 gfx90a gfx940 gfx941 gfx942 | not-in-build"; do
	"$G" explain --json "${c%%|*}" >"$T/out.json" 2>&1
	got="$(arch_of "$T/out.json" 2>&1)"
	[ "$got" = "${c#*|}" ] || fail "arch rule: ${c%%|*}: got [$got]"
done
# spconv names capabilities as Python tuples: the GPU's, then its build's.
printf '%s\n' "[WARNING]your gpu arch (8, 6) isn't compiled in prebuilt, may cause invalid device function. available: {(6, 1), (3, 7), (7, 5)}" >"$T/arch.log"
"$G" explain --json "$T/arch.log" >"$T/out.json" 2>&1
got="$(arch_of "$T/out.json" 2>&1)"
[ "$got" = "gpu-arch-unsupported-by-framework sm_86 | sm_61 sm_37 sm_75 | gpu-newer" ] || fail "arch rule: tuples: got [$got]"
"$G" explain 'results: {(6, 1), (3, 7)} failed' >/dev/null 2>&1 && fail "arch rule: tuples without a GPU's named an arch"
printf '%s\n' "Found GPU0 Tesla K40m which is of cuda capability 3.5." \
	"    PyTorch no longer supports this GPU because it is too old." \
	"    The minimum cuda capability supported by this library is 3.7." >"$T/arch.log"
"$G" explain --json "$T/arch.log" >"$T/out.json" 2>&1
got="$(arch_of "$T/out.json" 2>&1)"
[ "$got" = "gpu-arch-unsupported-by-framework sm_35 | sm_37 | gpu-older" ] || fail "arch rule: too old: got [$got]"
# tiny-cuda-nn numbers the GPU's capability as CUDA_ARCHITECTURES does
# (major * 10 + minor) when none of its extensions fits it; a number right
# after "capability" is read so, a description or a longer number is not.
printf '%s\n' "OSError: Could not find compatible tinycudann extension for compute capability 70." >"$T/arch.log"
"$G" explain --json "$T/arch.log" >"$T/out.json" 2>&1
got="$(arch_of "$T/out.json" 2>&1)"
[ "$got" = "gpu-arch-unsupported-by-framework sm_70 |  | unknown" ] || fail "arch rule: capability 70: got [$got]"
"$G" explain 'Obtained compute capability 80 from PyTorch' >/dev/null 2>&1 && fail "arch rule: a description of capability 80 named an arch"
"$G" explain 'Could not find compatible plugin for compute capability 1234.' >/dev/null 2>&1 && fail "arch rule: capability 1234 named an arch"
printf '%s\n' "xformers: requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)" >"$T/arch.log"
"$G" explain --json "$T/arch.log" >"$T/out.json" 2>&1
got="$(arch_of "$T/out.json" 2>&1)"
[ "$got" = "gpu-too-old-for-kernel-library sm_75 | sm_80 | gpu-older" ] || fail "arch rule: threshold: got [$got]"
# ggml numbers its archs (major * 100 + minor * 10; HIP's are gfx numbers):
# the arch a kernel ran as and the list it was compiled for are the build's;
# "not compiled with any CUDA arch <= N" names the GPU's.
for c in \
	"ggml/src/ggml-cuda/mmv.cu:51: ERROR: CUDA kernel mul_mat_vec has no device code compatible with CUDA arch 520. ggml-cuda.cu was compiled for: 520, 610,700|gpu-arch-unsupported-by-framework  | sm_52 sm_61 sm_70 | unknown" \
	"/src/ggml/src/ggml-cuda/common.cuh:460: ggml was not compiled with any CUDA arch <= 610|gpu-arch-unsupported-by-framework sm_61 |  | unknown" \
	"fattn.cu:12: ERROR: HIP kernel flash_attn_ext has no device code compatible with HIP arch 1030.|rocm-gfx-unsupported  | gfx1030 | unknown"; do
	printf '%s\n' "${c%%|*}" >"$T/arch.log"
	"$G" explain --json "$T/arch.log" >"$T/out.json" 2>&1
	got="$(arch_of "$T/out.json" 2>&1)"
	[ "$got" = "${c#*|}" ] || fail "arch rule: ggml: ${c%%|*}: got [$got]"
done
"$G" explain 'model was compiled for: 520 epochs, error 610 of 700' >/dev/null 2>&1 && fail "arch rule: plain numbers named an arch"
# "compute cap" abbreviates "compute capability" (text-embeddings-inference,
# backends/candle/src/lib.rs: "Runtime compute cap {} is not compatible with
# compile time compute cap {}", both numbered major * 10 + minor): the
# runtime one is the GPU's, the compile time one the build's.
for c in \
	"Error: Could not create backend: Could not start backend: Runtime compute cap 75 is not compatible with compile time compute cap 80|gpu-arch-unsupported-by-framework sm_75 | sm_80 | gpu-older" \
	"Error: Could not start backend: Runtime compute cap 90 is not compatible with compile time compute cap 80|gpu-arch-unsupported-by-framework sm_90 | sm_80 | gpu-newer"; do
	printf '%s\n' "${c%%|*}" >"$T/arch.log"
	"$G" explain --json "$T/arch.log" >"$T/out.json" 2>&1
	got="$(arch_of "$T/out.json" 2>&1)"
	[ "$got" = "${c#*|}" ] || fail "arch rule: compute cap: ${c%%|*}: got [$got]"
done
"$G" explain 'the compute cap 80 is fine' >/dev/null 2>&1 && fail "arch rule: a compute cap in prose named an arch"
# ggml's bad_arch(): its kernel has no code for the arch it runs as.
want_ids_early() {
	printf '%s\n' "$1" >"$T/arch.log"
	"$G" explain --json "$T/arch.log" >"$T/out.json" 2>/dev/null
	got="$(ids_of "$T/out.json" 2>/dev/null)"
	[ "$got" = "$2 " ] || fail "explain: $1: want [$2 ] got [$got]"
}
want_ids_early 'ERROR: ggml-cuda was compiled without support for the current GPU architecture.' gpu-arch-unsupported-by-framework
# ptxas rejects the PTX a JIT compiler (Triton, XLA) generated for the GPU
# when the compiler is older than the GPU: ".target sm_89" is the GPU's.
printf '%s\n' "ptxas /tmp/filePpgwy4, line 6; error   : PTX .version 7.4 does not support .target sm_89" >"$T/arch.log"
"$G" explain --json "$T/arch.log" >"$T/out.json" 2>&1
got="$(arch_of "$T/out.json" 2>&1)"
[ "$got" = "gpu-arch-unsupported-by-framework sm_89 |  | unknown" ] || fail "arch rule: ptxas .target: got [$got]"
# A kernel's hardware floor (kernel_floor): a line that names a kernel
# library or attention kernel, and a GPU older than every target it names
# for it, is gpu-too-old-for-kernel-library; a GPU newer than the range is
# a build that predates it. PyTorch's SDPA (sdp_utils.cpp, "sm 7.5" its
# way of naming the GPU) and vLLM's Triton backends (triton_attn.py,
# mla/triton_mla.py).
for c in \
	"UserWarning: Flash attention only supports gpu architectures in the range [sm80, sm90]. Attempting to run on a sm 7.5 gpu.|gpu-too-old-for-kernel-library sm_75 | sm_80 sm_90 | gpu-older" \
	"UserWarning: Flash attention only supports gpu architectures in the range [sm80, sm121]. Attempting to run on a sm 7.0 gpu. (Triggered internally at ../aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:155.)|gpu-too-old-for-kernel-library sm_70 | sm_80 sm_121 | gpu-older" \
	"UserWarning: Mem Efficient Attention only supports gpu architectures in the range [sm50, sm90]. Attempting to run on a sm 3.7 gpu.|gpu-too-old-for-kernel-library sm_37 | sm_50 sm_90 | gpu-older" \
	"UserWarning: Flash attention only supports gpu architectures in the range [sm80, sm90]. Attempting to run on a sm 12.0 gpu.|gpu-arch-unsupported-by-framework sm_120 | sm_80 sm_90 | gpu-newer" \
	"ValueError: FP8 KV cache is not supported by the Triton attention backend on NVIDIA GeForce GTX 1660 SUPER (compute capability 7.5); native FP8 (fp8e4nv) requires SM89+. Re-run with --kv-cache-dtype float16.|gpu-too-old-for-kernel-library sm_75 | sm_89 | gpu-older" \
	"ValueError: FP8 KV cache is not supported by the Triton MLA backend on NVIDIA GeForce RTX 3090 (compute capability 8.6); native FP8 (fp8e4nv) requires SM89+|gpu-too-old-for-kernel-library sm_86 | sm_89 | gpu-older"; do
	printf '%s\n' "${c%%|*}" >"$T/arch.log"
	"$G" explain --json "$T/arch.log" >"$T/out.json" 2>&1
	got="$(arch_of "$T/out.json" 2>&1)"
	[ "$got" = "${c#*|}" ] || fail "arch rule: kernel floor: ${c%%|*}: got [$got]"
done
# ggml built for HIP says "ROCm error: ...": HIP's codes.
"$G" explain --json 'ROCm error: invalid device function' >"$T/out.json" 2>&1
grep -q '"hipErrorInvalidDeviceFunction"' "$T/out.json" || fail "ROCm error: not HIP's code: $(cat "$T/out.json")"
# A convolution's input and weights of two dtypes on one device is no device mismatch.
"$G" explain 'RuntimeError: Input type (torch.cuda.HalfTensor) and weight type (torch.cuda.FloatTensor) should be the same' >/dev/null 2>&1 &&
	fail "a dtype mismatch was named tensors-on-different-devices"
# Targets in a description, not an error, name nothing.
"$G" explain 'this module requires numpy>=1.20 built for sm_80' >/dev/null 2>&1 && fail "arch rule: a description named an error"
# On a machine whose GPUs explain can read, the build is checked against them.
if [ -f build/fake/libnvidia-ml.so.1 ]; then
	scripts/with-machine laptop-3060 -- "$G" explain --json tests/explain/corpus/torch_sm120_rtx5060ti.log >"$T/out.json" 2>&1
	"${PYS[@]}" -c 'import json,sys
a = json.load(open(sys.argv[1]))["matches"][0]["arch"]
assert a["this_machine"] == [{"index": 0, "name": "NVIDIA GeForce RTX 3060 Laptop GPU", "target": "sm_86", "in_build": True}], a
assert "cu128" in a["torch_builds"].split(), a' "$T/out.json" || fail "arch rule on laptop-3060"
	scripts/with-machine mi300x -- "$G" explain tests/explain/corpus/ollama_gfx1103_not_supported_by.log >"$T/o" 2>&1
	grep -q "Here:  GPU 0 .*gfx942, in the build" "$T/o" || fail "arch rule on mi300x: $(cat "$T/o")"
fi

# ---- hostile input never crashes ------------------------------------------
head -c 2000000 /dev/urandom >"$T/garbage"
"$G" explain "$T/garbage" >/dev/null 2>&1; rc=$?
[ $rc -le 1 ] || fail "binary garbage: exit $rc"
printf 'x\n\xff\xfe torch.OutOfMemoryError: CUDA out of memory \xc3\x28 \x01\x7f end\r\n' >"$T/bad-utf8"
"$G" explain --json "$T/bad-utf8" >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && "${PYS[@]}" -c '
import json,sys; m=json.load(open(sys.argv[1]))["matches"][0]
assert m["line"]==2 and m["excerpt"].startswith("?? torch.") and m["excerpt"].endswith("?? end"), m["excerpt"]' "$T/o" \
	|| fail "invalid UTF-8: exit $rc $(head -c 300 "$T/o")"
# A 300 KB line is split, the message in its middle still found on line 2.
{ echo first; head -c 150000 /dev/zero | tr '\0' 'a'; echo -n ' CUDA error: an illegal memory access was encountered '
  head -c 150000 /dev/zero | tr '\0' 'b'; echo; } >"$T/long"
"$G" explain --json "$T/long" >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && "${PYS[@]}" -c '
import json,sys; m=json.load(open(sys.argv[1]))["matches"][0]
assert m["id"]=="illegal-memory-access" and m["line"]==2 and len(m["excerpt"].encode())<256, m' "$T/o" \
	|| fail "long line: exit $rc"
printf '\0\0\0 No CUDA GPUs are available\0\n' >"$T/nul"
"$G" explain "$T/nul" >/dev/null 2>&1 || fail "NUL bytes: exit $?"
# Issue 8 #14: a NUL reads as a space for matching (the words around it
# still match) and shows as '?' in the excerpt, as docs/commands/explain.md says.
printf 'ab\0cd No CUDA GPUs\0are available\0\n' >"$T/nul2"
"$G" explain --json "$T/nul2" >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && "${PYS[@]}" -c '
import json,sys; m=json.load(open(sys.argv[1]))["matches"][0]
assert m["id"]=="cuda-visible-devices-hides-all" and m["excerpt"]=="ab?cd No CUDA GPUs?are available?", m["excerpt"]' "$T/o" \
	|| fail "NUL shown as '?' in the excerpt: exit $rc $(head -c 300 "$T/o")"

# ---- a FILE that cannot be read is an error, never text (issue 8 #14) ----
# unreadable WHAT ARG...: exit 1, one "gpuwise: cannot read 'ARG'" line, no
# "no known GPU error found" (the file was never read, so nothing was scanned).
unreadable() {
	local what=$1
	shift
	$G explain "$@" >"$T/o" 2>"$T/e"; rc=$?
	[ $rc = 1 ] || fail "$what: exit $rc, want 1"
	grep -q "^gpuwise: cannot read '" "$T/e" || grep -q "^gpuwise: '.*' is a directory" "$T/e" ||
		fail "$what: no 'cannot read' message: $(cat "$T/e")"
	grep -q 'no known GPU error found' "$T/e" && fail "$what: read as text ('no known GPU error found')"
	[ -s "$T/o" ] && fail "$what: printed something on stdout: $(head -3 "$T/o")"
	[ "$(wc -l <"$T/e")" = 1 ] || fail "$what: want one line on stderr, got: $(cat "$T/e")"
}
unreadable "missing absolute path" /nonexistent.log
grep -q "cannot read '/nonexistent.log': No such file or directory" "$T/e" || fail "missing file message: $(cat "$T/e")"
unreadable "missing relative path" logs/train
unreadable "missing .log" train.log
unreadable "missing .txt" --json notes.TXT
unreadable "missing .out" slurm-1234.out
ln -s "$T/loop" "$T/loop"
unreadable "symlink loop" "$T/loop"
grep -q "Too many levels of symbolic links" "$T/e" || fail "symlink loop message: $(cat "$T/e")"
ln -s "$T/gone" "$T/dangling"
unreadable "dangling symlink" "$T/dangling"
unreadable "directory" tests/explain
grep -q "'tests/explain' is a directory" "$T/e" || fail "directory message: $(cat "$T/e")"
printf 'CUDA error: out of memory\n' >"$T/secret.log"
chmod 000 "$T/secret.log"
if [ "$(id -u)" != 0 ]; then
	unreadable "permission denied" "$T/secret.log"
	grep -q "Permission denied" "$T/e" || fail "permission message: $(cat "$T/e")"
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	# root reads every file: ask as nobody, who can reach the file but not read it
	chmod 755 "$T"
	G_SAVED=$G
	G="setpriv --reuid=65534 --regid=65534 --clear-groups $(cd "$(dirname "$G")" && pwd)/gpuwise"
	unreadable "permission denied (as nobody)" "$T/secret.log"
	grep -q "Permission denied" "$T/e" || fail "permission message: $(cat "$T/e")"
	G=$G_SAVED
	chmod 700 "$T"
else
	echo "SKIP: permission denied (root reads every file, no setpriv to drop it)"
fi
# Words that are not paths stay text; an id still wins over text.
"$G" explain 'out of memory on cuda/hip runtime' >"$T/o" 2>"$T/e"; rc=$?
[ $rc = 1 ] && grep -q 'no known GPU error found' "$T/e" || fail "text with a '/' and spaces: exit $rc $(cat "$T/e")"
"$G" explain gpu-lost >"$T/o" 2>&1 || fail "an id is not a path: exit $?"
# A FIFO is read like a file (process substitution gives one: <(cmd)).
mkfifo "$T/fifo"
{ printf 'x\nRuntimeError: CUDA error: device-side assert triggered\n' >"$T/fifo"; } &
timeout 20 "$G" explain "$T/fifo" >"$T/o" 2>&1; rc=$?
wait
[ $rc = 0 ] && grep -q '^device-side-assert: .*(line 2)' "$T/o" || fail "FIFO: exit $rc $(head -3 "$T/o")"
timeout 20 "$G" explain <(printf 'NCCL error: unhandled system error\n') >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^nccl-error:' "$T/o" || fail "process substitution: exit $rc $(head -3 "$T/o")"
# Several words where one is a file: a usage error, not a text that matches nothing.
"$G" explain tests/explain/corpus/xid79_fallen_off_bus.log README.md >"$T/o" 2>"$T/e"; rc=$?
[ $rc = 2 ] && grep -q "'tests/explain/corpus/xid79_fallen_off_bus.log' is a file" "$T/e" ||
	fail "two files: exit $rc, want 2: $(cat "$T/e")"

# ---- --report: a text to file, without home folders, user or host names --
host=$(hostname 2>/dev/null || true)
mkdir -p "$T/home/bob/proj"
{
	echo 'zorro42@buildbox:~$ python train.py'
	echo "  File \"$T/home/bob/proj/train.py\", line 3"
	echo "foo: CUDA driver failed in a new way at /home/alice/run on ${host:-x} for zorro42 (zorro42@example.org) C:\\Users\\Nathan Rubric\\AppData\\x.py"
} >"$T/private.log"
HOME="$T/home/bob" USER=zorro42 "$G" explain --report "$T/private.log" >"$T/o" 2>"$T/e"; rc=$?
[ $rc = 1 ] || fail "--report, nothing recognised: exit $rc, want 1"
grep -q "^gpuwise: $("$G" --version | awk '{print $2}')\$" "$T/o" || fail "--report: no gpuwise version: $(head -5 "$T/o")"
grep -q '^System:  ' "$T/o" && grep -q '^Lines read: 3$' "$T/o" || fail "--report: no machine summary: $(cat "$T/o")"
grep -q '^Not recognised: 1 ' "$T/o" || fail "--report: not recognised count: $(cat "$T/o")"
grep -qF 'line 3: foo: CUDA driver failed in a new way at /home/USER/run on ' "$T/o" &&
	grep -qF 'for USER (USER@HOST) C:\Users\USER\AppData\x.py' "$T/o" || fail "--report: line not scrubbed: $(grep 'line 3' "$T/o")"
for secret in alice zorro42 "Nathan Rubric" "$T/home/bob"; do
	grep -qF -- "$secret" "$T/o" && fail "--report shows '$secret': $(cat "$T/o")"
done
if [ "${#host}" -ge 3 ] && [ "$host" != localhost ]; then
	grep -qwF -- "$host" "$T/o" && fail "--report shows the host name '$host'"
fi
# A host name shorter than 3 characters is replaced too (in a private UTS
# namespace, where the test may name the host; skipped where it cannot).
printf 'foo: CUDA driver failed in a new way on q7 and on q7.lab (not q77)\n' >"$T/short.log"
if unshare -ru sh -c 'hostname q7.lab' 2>/dev/null; then
	unshare -ru sh -c 'hostname q7.lab && exec "$0" explain --report "$1"' "$G" "$T/short.log" >"$T/o" 2>&1
	grep -qF 'on HOST and on HOST (not q77)' "$T/o" || fail "--report: a short host name not scrubbed: $(grep 'line 1' "$T/o")"
fi
printf 'x\nRuntimeError: CUDA error: out of memory in %s/proj\n' "$T/home/bob" >"$T/oom.log"
HOME="$T/home/bob" "$G" explain --report "$T/oom.log" >"$T/o" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^Recognised: 1$' "$T/o" && grep -qF 'cuda-out-of-memory, line 2: RuntimeError: CUDA error: out of memory in ~/proj' "$T/o" &&
	grep -q '^Not recognised: 0 ' "$T/o" || fail "--report, recognised: exit $rc $(cat "$T/o")"
"$G" explain --report --json "$T/oom.log" >"$T/o" 2>&1; rc=$?
[ $rc = 2 ] || fail "--report --json: exit $rc, want 2"
if [ -f build/fake/libnvidia-ml.so.1 ]; then
	scripts/with-machine laptop-3060 -- "$G" explain --report "$T/oom.log" >"$T/o" 2>&1
	grep -q '^Driver:  NVIDIA 535.183.01 (CUDA 12.2)$' "$T/o" && grep -q '^GPU 0:   NVIDIA GeForce RTX 3060 Laptop GPU (sm_86)$' "$T/o" ||
		fail "--report machine summary on laptop-3060: $(cat "$T/o")"
fi

# ---- causes read from the status code, claimed only on evidence ---------
# want_ids TEXT IDS: the ids explain gives for the lines of TEXT (printf %b).
want_ids() {
	printf '%b\n' "$1" >"$T/mech.log"
	"$G" explain --json "$T/mech.log" >"$T/out.json" 2>/dev/null
	got="$(ids_of "$T/out.json" 2>/dev/null)"
	[ "$got" = "$2 " ] || fail "explain: $1: want [$2 ] got [$got]"
}
# The HSA runtime (ROCR): its status codes by name (hsa_status_string's
# "NAME: description"; success and CU_MASK_REDUCED are no error), its GPU
# page-fault report by reason, and OUT_OF_RESOURCES from hsa_init when
# rocminfo shows why /dev/kfd could not be opened.
want_ids ':0:rocdevice.cpp            :2614: 54917553751 us: 2718 : [tid:0x7f6c4a7fc700] Callback: Queue 0x7f6b6d100000 aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29' illegal-memory-access
want_ids 'Callback: Queue 0x7f7f4d000000 aborting with error : HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid. code: 0x100f' rocm-gfx-unsupported
want_ids 'hsa_amd_queue_cu_set_mask returned HSA_STATUS_CU_MASK_REDUCED' ""
# candle's bfloat16 kernels exist only in PTX for sm_80 and up: a *_bf16
# kernel that is not found is a GPU too old for bf16, and the driver's
# generic "named symbol not found" folds into it; another kernel's is not.
want_ids 'Error: DriverError(CUDA_ERROR_NOT_FOUND, "named symbol not found") when loading cast_u32_bf16' gpu-too-old-for-kernel-library
want_ids 'Error: candle-core error: named symbol not found when loading is_u32_bf16' gpu-too-old-for-kernel-library
want_ids 'Error: DriverError(CUDA_ERROR_NOT_FOUND, "named symbol not found") when loading affine_f32' gpu-invalid-call
want_ids 'Memory access fault by GPU node-1 (Agent handle: 0x55d0c8a0) on address 0x7f0000000000. Reason: Write access to a read-only page.' illegal-memory-access
want_ids 'Memory access fault by GPU node-1 (Agent handle: 0x55d0c8a0) on address 0x1000(may not be exact address). Reason: Unknown.' illegal-memory-access
want_ids 'Memory access fault by GPU node-2 (Agent handle: 0x55d0c8a0) on address 0x7f0000000000. Reason: DRAM ECC failure.' ecc-errors
want_ids 'HW Exception by GPU node-1 (Agent handle: 0x55d0c8a0) reason :ECC' ecc-errors
want_ids 'Unable to open /dev/kfd read-write: Permission denied\nhsa api call failure at: rocminfo.cc:1102\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.' rocm-permission-denied
want_ids 'Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.' cuda-out-of-memory
# kfd_open()'s other refusals (EFAULT, EINVAL, EAGAIN, ...) leave the same
# OUT_OF_RESOURCES: not memory, and no id of its own.
want_ids 'ROCk module is loaded\nUnable to open /dev/kfd read-write: Bad address\nhsa api call failure at: /src/rocminfo/rocminfo.cc:1142\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.' ""
want_ids 'Unable to open /dev/kfd read-write: Invalid argument\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.' ""
want_ids 'Unable to open /dev/kfd read-write: No such file or directory\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.' amdgpu-not-loaded
# The HIP runtime's (ROCm/clr) lines for a fat binary without a code object
# for the GPU's ISA, as AMD_LOG_LEVEL=1 prints them, and the device it
# leaves out for an ISA it does not support (docs/explain-sources.md).
want_ids ':1:hip_fatbin.cpp            :277 : 2231112233 us:  Cannot find CO in the bundle /opt/app/lib/libkernels.so for ISA: amdgcn-amd-amdhsa--gfx1031' rocm-gfx-unsupported
want_ids ':1:hip_fatbin.cpp            :113 : 2231112233 us:  Missing CO for these ISAs - ' rocm-gfx-unsupported
want_ids ':1:hip_fatbin.cpp            :631 : 2231112233 us:  No compatible code objects found for: gfx1201, value of HIP_FORCE_SPIRV_CODEOBJECT: 0' rocm-gfx-unsupported
want_ids ':1:rocdevice.cpp             :703 : 2231112233 us:  Unsupported HSA device AMD Radeon Graphics (PCI ID 1638) for ISA amdgcn-amd-amdhsa--gfx90c:xnack-' rocm-gfx-unsupported
# A GPU hang as the HSA runtime reports it: KFD's hang error type in the
# fault report, and a hardware exception that is not ECC.
want_ids 'Memory access fault by GPU node-2 (Agent handle: 0x55d0c8a0) on address 0x7f0000000000(may not be exact address). Reason: Generic hang recovery.' gpu-device-removed
want_ids 'HW Exception by GPU node-1 (Agent handle: 0x55d0c8a0) reason :GPU Hang' gpu-device-removed
want_ids 'Memory access fault by GPU node-1 (Agent handle: 0x55d0c8a0) on address 0x7f0012340000. Reason: Page not present or supervisor privilege.' illegal-memory-access
# rocminfo's group hint is printed whenever the user is not in the DRM
# group, also when /dev/kfd opens (through an ACL): no failure alone.
want_ids 'bob is not member of "render" group, the default DRM access group. Users must be a member of the "render" group or another DRM access group in order for ROCm applications to run successfully.' ""
# rocm-smi's and amd-smi's driver check (/sys/module/amdgpu/initstate);
# amd-smi's CPU driver (amd_hsmp) and rocm-smi's per-metric "not supported"
# are no GPU failure.
want_ids 'ERROR:root:Driver not initialized (amdgpu not found in modules)' amdgpu-not-loaded
want_ids 'ERROR:root:Unable to get devices, driver not initialized (amdgpu not found in modules)' amdgpu-not-loaded
want_ids 'ERROR:root:Drivers not loaded (amdgpu and amd_hsmp drivers not found in modules)' amdgpu-not-loaded
want_ids 'ERROR:root:Driver not loaded (amd_hsmp not found in modules)' ""
want_ids 'ERROR:root:GPU[0]		: get_power_cap, Not supported on the given system' ""
# The canonical gpuAssert() check prints "GPUassert: DESCRIPTION FILE LINE"
# with cudaGetErrorString(): the runtime's description, no "CUDA" needed.
want_ids 'GPUassert: invalid argument pyronn_layers/cc/kernels/cone_projector_3D_CudaKernel_hardware_interp.cu.cc 233' gpu-invalid-call
want_ids 'GPUassert: out of memory mean.cu 377' cuda-out-of-memory
want_ids 'GPUassert:out of memory/../pointpillars/pointpillars.cc 378' cuda-out-of-memory
want_ids 'NotGPUassert: out of memory x.cc 3' ""
# A status name that a compiler reports undeclared, or quotes from the
# source line, is the build's, not a run-time failure.
want_ids "src/hmem_cuda.c:434:7: error: \xe2\x80\x98cudaErrorStubLibrary\xe2\x80\x99 undeclared (first use in this function)\n  434 |  case cudaErrorStubLibrary:\n      |       ^~~~~~~~~~~~~~~~~~~~" ""
want_ids "x.cpp:9:10: error: use of undeclared identifier 'cudaErrorStubLibrary'" ""
want_ids 'kernel.cu(12): error: identifier "CUDA_ERROR_STUB_LIBRARY" is undefined' ""
want_ids "x.cpp:9: error: 'cudaErrorStubLibrary' was not declared in this scope" ""
want_ids 'CUDA error: cudaErrorStubLibrary' nvidia-driver-not-loaded
# Programs' own words for a GPU allocation that failed.
want_ids 'permutohedral_lattice/src/DeviceMemoryAllocator.h:68] GPU memory allocation failed (might be due to insufficient memory)' cuda-out-of-memory
want_ids 'Failed to allocate GPU memory! Try increasing gpu_mem allocation in /boot/config.txt.' cuda-out-of-memory
want_ids 'Unable to allocate GPU memory (try running with fewer vectors/dimensions)' cuda-out-of-memory
# Chromium's GPU process (Chrome, Electron, CEF) that cannot start, fails to
# initialise GL/EGL or keeps crashing, in the browser's own log lines (both
# log formats, old and new); lines that only name the GPU process stay silent.
want_ids '[7951:0623/192304.504562:FATAL:gpu_data_manager_impl_private.cc(445)] GPU process isn'"'"'t usable. Goodbye.' browser-gpu-process-failed
want_ids '[583:21734986:0128/141525.923313:ERROR:content/browser/gpu/gpu_process_host.cc:998] GPU process launch failed: error_code=1003' browser-gpu-process-failed
want_ids 'ERROR:content/browser/gpu/gpu_process_host.cc:999] GPU process launch failed: error_code=1002\nWARNING:content/browser/gpu/gpu_process_host.cc:1447] The GPU process has crashed 1 time(s)' browser-gpu-process-failed
want_ids '[39791:39814:0909/100710.911661:ERROR:gpu_process_host.cc(999)] GPU process exited unexpectedly: exit_code=159' browser-gpu-process-failed
want_ids '[2457:0803/234809.503860:ERROR:viz_main_impl.cc(196)] Exiting GPU process due to errors during initialization' browser-gpu-process-failed
want_ids '[0113/145737:ERROR:gpu_child_thread.cc(143)] Exiting GPU process due to errors during initialization' browser-gpu-process-failed
want_ids '[11962:11998:0802/135326.029276:ERROR:browser_gpu_channel_host_factory.cc(103)] Failed to launch GPU process.' browser-gpu-process-failed
want_ids 'ERROR:ui/gl/gl_display.cc:673] Initialization of all EGL display types failed.' browser-gpu-process-failed
want_ids '[1:1:0101/000000.000:ERROR:gl_display.cc(515)] Initialization of all (2) EGL display types failed.' browser-gpu-process-failed
want_ids 'ERROR:ui/ozone/common/gl_ozone_egl.cc:26] GLDisplayEGL::Initialize failed.' browser-gpu-process-failed
# A GPU process that lost its GL context and exits to be restarted
# (GpuServiceImpl::MaybeExitOnContextLost, its older wordings), and the
# losses that lead there: the display compositor's context that cannot be
# made current (viz's SkiaOutputSurfaceImplOnGpu, the GLES2 decoders).
# The same words from another program, and ANGLE's "Preexisting GL error"
# alone, stay silent.
want_ids '[618746:0412/223607.632716:ERROR:gpu_service_impl.cc(1089)] Exiting GPU process because some drivers can'"'"'t recover from errors. GPU process will restart shortly.' browser-gpu-process-failed
want_ids '[1656:3764:0508/142142:ERROR:gpu_channel_manager.cc(260)] Exiting GPU process because some drivers cannot recover from problems.' browser-gpu-process-failed
want_ids '[1656:3764:0508/142142:ERROR:gles2_cmd_decoder.cc(2830)] : Exiting GPU process because some drivers cannot reset a D3D device in the Chrome GPU process sandbox.' browser-gpu-process-failed
want_ids '[13152:15376:1019/171159.799:ERROR:skia_output_surface_impl_on_gpu.cc(1585)] : Failed to make current.' browser-gpu-process-failed
want_ids 'ERROR:components/viz/service/display_embedder/skia_output_surface_impl_on_gpu.cc:2120] Failed to make current.' browser-gpu-process-failed
want_ids '[1656:3764:0508/142142:ERROR:gles2_cmd_decoder.cc(2825)] : GLES2DecoderImpl: Context lost during MakeCurrent.' browser-gpu-process-failed
want_ids 'ERROR:gles2_cmd_decoder_passthrough.cc:1120]   GLES2DecoderPassthroughImpl: Context lost during MakeCurrent.' browser-gpu-process-failed
want_ids 'tp_maps: Failed to make current.' ""
want_ids '[13152:15376:1019/171159.797:ERROR:angle_platform_impl.cc(44)] : renderergl_utils.cpp:188 (ClearErrors): Preexisting GL error 0x00000506 as of ../../third_party/angle/src/libANGLE/renderer/gl/TextureGL.cpp, setImageHelper:256.' ""
want_ids '[5960:1376:0609/000548.351:WARNING:gpu_process_host.cc(1029)] Reinitialized the GPU process after a crash. The reported initialization time was 197 ms' ""
want_ids "(electron) 'gpu-process-crashed event' is deprecated. Use 'child-process-gone event' instead." ""
want_ids '[39859:39859:0909/100711.241716:ERROR:gpu_init.cc(441)] Passthrough is not supported, GL is swiftshader' ""
want_ids 'GPU-0: Failed to allocate 16.00 GB GPU memory (0.00 GB available)' cuda-out-of-memory
want_ids 'Out of video memory trying to allocate a texture! Make sure your video card has the minimum required memory' cuda-out-of-memory
want_ids 'Failed to allocate GPU memory, falling back to CPU' ""
# Plain words for GPU memory that ran out, and Direct3D 9's
# D3DERR_OUTOFVIDEOMEMORY (0x8876017C); a hint on how to avoid it is none.
want_ids 'Your graphics card ran out of video memory while exporting the map. Lower PPI and export again' cuda-out-of-memory
want_ids 'Render failed: the GPU ran out of VRAM.' cuda-out-of-memory
want_ids 'Error: running out of GPU memory while building the BVH' cuda-out-of-memory
want_ids 'ERROR: cannot create texture from file '"'"'a.dds'"'"': D3DERR_OUTOFVIDEOMEMORY' cuda-out-of-memory
want_ids 'CreateTexture failed, hr=0x8876017C' cuda-out-of-memory
want_ids 'Lower the texture quality if you run out of video memory.' ""
want_ids 'Tip: tiling keeps the renderer from running out of VRAM' ""
want_ids 'The scene did not run out of GPU memory.' ""
# "invalid device symbol": no module for the GPU's architecture, unless the
# symbol is named by a string (removed in CUDA 5.0).
want_ids '#Unexpected error CUDA error in func set_constants at line 180 calling cudaMemcpyToSymbol(d_dag, &_dag, sizeof(hash64_t*)) failed with error invalid device symbol on CUDA device 02:00.0' gpu-arch-unsupported-by-framework
want_ids 'safeCall() Runtime API error in file <cudaSiftH.cu>, line 42 : invalid device symbol.' gpu-arch-unsupported-by-framework
want_ids "Cuda error in file 'fluids/fluid_system_host.cu' in line 184 : invalid device symbol\nCUDA_SAFE_CALL(cudaMemcpyToSymbol (\"symData\", &fcuda, sizeof(FluidParams)));" gpu-invalid-call
want_ids 'hipErrorInvalidSymbol' gpu-invalid-call
# A GPU whose results fail the program's own check.
want_ids '[2020-08-15 22:48:43.520]  nvidia   GPU #1 COMPUTE ERROR' gpu-wrong-results
want_ids '[2018-01-25 19:05:28] GPU #0 COMPUTE ERROR' gpu-wrong-results
want_ids 'Tested 2 GPUs:\n\tGPU 0: OK\n\tGPU 1: FAULTY' gpu-wrong-results
want_ids 'Tested 1 GPUs:\n\tGPU 0: OK' ""
want_ids "console.error('Irrigation compute error:', err);" ""
# CUPTI's insufficient privileges by name and by number in a CUPTI wrapping
# is the counters restricted to administrators; a hypervisor's is not.
want_ids 'function cuptiSubscribe failed with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)' gpu-profiling-restricted
want_ids 'CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES' gpu-operation-not-supported
# CUDA's statuses are numbered from 0: a negative CUresult names nothing, an
# unknown error (TensorFlow prints CUresult(N) for a value its table lacks);
# another wrapping's negative number is a program's own return value, and a
# library with negative codes (NPP) is not read so.
want_ids 'E tensorflow/stream_executor/cuda/cuda_driver.cc:397] failed call to cuInit: CUresult(-1)' cuda-unknown-error
want_ids 'CUDA error -1 at foo.cu:12' ""
want_ids 'CUDA error -1.5 seconds' ""
# A VkResult name without its VK_ prefix (Omniverse's carb) is still Vulkan's.
want_ids '[Error] [carb.graphics-vulkan.plugin] VkResult: ERROR_DEVICE_LOST' gpu-device-removed
want_ids 'vkQueueSubmit: VK_ERROR_DEVICE_LOST' gpu-device-removed
want_ids 'MY_ERROR_DEVICE_LOST_COUNT=0' ""
# "initialization error" names no cause: a fork only when the log shows one.
want_ids 'RuntimeError: CUDA error: initialization error' cuda-init-failed
want_ids 'File "x/torch/utils/data/_utils/worker.py", line 99, in _worker_loop\nRuntimeError: CUDA error: initialization error' cuda-fork-after-init
want_ids 'RuntimeError: CUDA error: initialization error\nRuntimeError: Caught RuntimeError in DataLoader worker process 0.' cuda-fork-after-init
want_ids 'cudaErrorInitializationError: initialization error' cuda-init-failed
# A spawned process (torch.multiprocessing.spawn) is no fork.
want_ids 'File "/x/torch/multiprocessing/spawn.py", line 69, in _wrap\\nRuntimeError: CUDA error: initialization error' cuda-init-failed
want_ids 'File "/usr/lib/python3.10/multiprocessing/popen_fork.py", line 71, in _launch\\nRuntimeError: CUDA error: initialization error' cuda-fork-after-init
want_ids 'numba.cuda.cudadrv.driver.CudaAPIError: [3] Call to cuInit results in CUDA_ERROR_NOT_INITIALIZED' cuda-init-failed

# Status numbers behind other wrappers: StructuredEikonal's "CUDA error! %d"
# and the pointnet2-style "CUDA kernel failed : %s" when it prints a number.
want_ids 'CUDA error! 2' cuda-out-of-memory
want_ids 'RuntimeError: CUDA kernel failed : 209' gpu-arch-unsupported-by-framework
want_ids 'CUDA kernel failed : an illegal memory access was encountered' illegal-memory-access
# "unknown error" beside a number is a wrapper's (BEAGLE's) or an older
# runtime's word for a code it does not list: the number names it; a name
# ("hipErrorUnknown") or the number of the unknown error itself does not.
want_ids 'CUDA error: "Unknown error" (222) from file <GPUInterfaceCUDA.cpp>, line' ptx-toolchain-too-new
want_ids 'CUDA error: unknown error (999)' cuda-unknown-error
want_ids 'hipErrorUnknown: unknown error (700)' cuda-unknown-error
want_ids 'RuntimeError: CUDA error: unknown error' cuda-unknown-error
# "driver shutting down" after an earlier error is its echo at exit; alone,
# or before another error, it is reported.
want_ids 'ERROR: CUDA_CHECK_ERROR() failed at x.cu:433 : an illegal memory access was encountered\n  what():  cudaFree in free: driver shutting down' illegal-memory-access
want_ids 'RuntimeError: CUDA Error 4, driver shutting down\nRuntimeError: CUDA error: invalid argument' 'gpu-library-error gpu-invalid-call'
want_ids '  what():  cudaFree in free: driver shutting down' gpu-library-error
# Device mismatches in PyTorch 0.4's type wording and nn.DataParallel's.
want_ids 'RuntimeError: expected type torch.FloatTensor but got torch.cuda.FloatTensor' tensors-on-different-devices
want_ids "RuntimeError: Expected object of type torch.cuda.FloatTensor but found type torch.FloatTensor for argument #3 'other'" tensors-on-different-devices
want_ids "RuntimeError: Expected object of type Variable[torch.FloatTensor] but found type Variable[torch.cuda.FloatTensor] for argument #1 'mat2'" tensors-on-different-devices
want_ids "RuntimeError: Expected object of type torch.cuda.FloatTensor but found type torch.cuda.LongTensor for argument #3 'other'" ""
want_ids 'RuntimeError: expected type torch.FloatTensor but got torch.DoubleTensor' ""
want_ids 'RuntimeError: module must have its parameters and buffers on device cuda:0 (device_ids[0]) but found one of them on device: cuda:3' tensors-on-different-devices
# CUDA index_select's device check (aten/src/ATen/native/cuda/Indexing.cu:
# at::cuda::check_device({out, self, index})): an operand, often the indices
# of an embedding lookup, is not on the current GPU; its source line is not.
want_ids 'RuntimeError: Input, output and indices must be on the current device' tensors-on-different-devices
want_ids '      "Input, output and indices must be on the current device");' ""
# roop's forks offer the providers the installed onnxruntime has; another
# tool's --device choices say nothing about onnxruntime.
want_ids "run.py: error: argument --execution-provider: invalid choice: 'cuda' (choose from 'dml', 'cpu')" framework-cpu-only-build
want_ids "main.py: error: argument --device: invalid choice: 'cuda' (choose from 'cpu', 'mps')" ""
want_ids "run.py: error: argument --execution-providers: invalid choice: 'cuda' (choose from 'cpu', 'tensorrt')" ""
# locate_cuda()'s warning where CUDA is optional is no failure; the raise is.
want_ids 'The nvcc binary could not be located in your $PATH. Either  add it to your path, or set $CUDAHOME to enable CUDA' ""
want_ids 'OSError: The nvcc binary could not be located in your $PATH. Either add it to your path, or set $CUDAHOME' cuda-toolkit-not-found
# bitsandbytes' CPU-library warning names bitsandbytes; another program's
# "compiled without GPU support" is not it. Where PyTorch says CUDA could
# not start ("CUDA initialization: ..."), bitsandbytes' CPU fallback follows
# from that line's cause and is not reported beside it (before or after).
want_ids 'UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.' bitsandbytes-native-library-missing
want_ids 'warning: one possible reason is that llama.cpp was compiled without GPU support' ""
want_ids 'UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 803: system has unsupported display driver / cuda driver combination\nThe installed version of bitsandbytes was compiled without GPU support.' driver-library-mismatch
want_ids 'The installed version of bitsandbytes was compiled without GPU support.\nUserWarning: CUDA initialization: Found no NVIDIA driver on your system.' nvidia-driver-not-loaded
# DeepSpeed's auto-detection saying torch sees no GPU: the same reason for
# bitsandbytes' CPU library (accelerator/real_accelerator.py).
want_ids 'The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.\n[2024-09-25 08:47:15,952] [WARNING] [real_accelerator.py:162:get_accelerator] Setting accelerator to CPU. If you have GPU or other accelerator, we were unable to detect it.' ""
want_ids '[WARNING] [real_accelerator.py:209:get_accelerator] Setting accelerator to CPU. If you have GPU or other accelerator, we were unable to detect it.\nUserWarning: The installed version of bitsandbytes was compiled without GPU support.' ""
want_ids 'we were unable to detect it\nUserWarning: The installed version of bitsandbytes was compiled without GPU support.' bitsandbytes-native-library-missing
# bitsandbytes' libcudart warning, then the runtime found in a backup path.
want_ids 'CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching /usr/local/cuda/lib64... CUDA SETUP: CUDA runtime path found: /usr/local/cuda/lib64/libcudart.so' ""
want_ids 'CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...' cuda-library-missing
want_ids 'CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\nCUDA SETUP: CUDA runtime path found: /usr/local/cuda-11.7/lib64/libcudart.so.11.0\nCUDA SETUP: Detected CUDA version 117' ""
want_ids 'CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\nCUDA SETUP: CUDA runtime path found: /usr/local/cuda/lib64/libcudart.so\nOSError: libcublasLt.so.11: cannot open shared object file: No such file or directory' cuda-library-missing
want_ids 'OSError: libcublasLt.so.11: cannot open shared object file: No such file or directory\nCUDA SETUP: CUDA runtime path found: /usr/local/cuda/lib64/libcudart.so' cuda-library-missing

# ONNX Runtime: the CUDA provider library failed to load (its CUDA and cuDNN
# dependencies), or the installed package has no CUDA provider at all.
want_ids "x\\onnxruntime_pybind_state.cc:739 onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is set but CUDA wasn't able to be loaded. Please install the correct version of CUDA and cuDNN" cuda-library-missing
# ONNX Runtime's sentence alone decides it: a screenshot's text recognition
# reads CUDA_PATH's underscore as a blank.
want_ids "onnxruntime::pythoni:CreateExecution provider instance CUDA PATH is set but CUDA wasn't able to be loaded, Please install the correct version of CUDA and CuDNN" cuda-library-missing
want_ids "UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'" framework-cpu-only-build
want_ids "UserWarning: Specified provider 'TensorRTExecutionProvider' is not in available provider names.Available providers: 'TensorrtExecutionProvider, CUDAExecutionProvider, CPUExecutionProvider'" ""
want_ids "ValueError: /io/include/tensorview/tensor.h(171)\\ndon't compiled with cuda" framework-cpu-only-build
# Triton's launcher stubs built by MSVC (Windows): "file(line): error C...".
want_ids 'C:\\Users\\u\\AppData\\Local\\Temp\\tmp61aye7_w\\cuda_utils.c(165): error C2143: syntax error' jit-host-compiler-failed
want_ids 'C:\\Users\\u\\AppData\\Local\\Temp\\tmpab12cd\\main.c(3): fatal error C1083: Cannot open include file' jit-host-compiler-failed
want_ids 'C:\\src\\proj\\main.c(3): error C2065: undeclared identifier' ""
want_ids 'C:\\Users\\u\\AppData\\Local\\Temp\\tmp61aye7_w\\cuda_utils.c(166): warning C4142: benign redefinition' ""
# A native extension built without its CUDA code, in its own words.
want_ids 'RuntimeError: BuildSpatialHashTable was not compiled with CUDA support' framework-cpu-only-build
want_ids "It appears dlib wasn't compiled with CUDA support! Using CPU" framework-cpu-only-build
want_ids 'Only compiled with CUDA support when BUILD_CUDA=1' ""
# PyG's extensions (torch_cluster, torch_scatter, ...) say the bare sentence.
want_ids 'RuntimeError: Not compiled with CUDA support' framework-cpu-only-build
want_ids 'Whether compiled with CUDA support: no' ""
# LAMMPS's KOKKOS package built with a host-only Kokkos, asked for GPUs;
# the converse (a GPU build run without "-k on g N") is no build fault.
want_ids 'ERROR: GPUs are requested but Kokkos has not been compiled using a GPU-enabled backend (src/KOKKOS/kokkos.cpp:201)' framework-cpu-only-build
want_ids 'ERROR: Kokkos has been compiled with GPU-enabled backend but no GPUs are requested (src/KOKKOS/kokkos.cpp:211)' ""
# The same family with GPU for CUDA and the bare sentence: the
# AT_ERROR of extensions built without WITH_CUDA (PyTorch3D, mmcv-style
# ops); llama.cpp's "GPU offload support" warning is not it.
want_ids 'RuntimeError: Not compiled with GPU support (RasterizeMeshesCoarse at /tmp/pip-req-build-2pqcx156/pytorch3d/csrc/rasterize_meshes/rasterize_meshes.h:275)' framework-cpu-only-build
want_ids '**RuntimeError: Not compiled with GPU support**' framework-cpu-only-build
want_ids 'RuntimeError: DeformConv is not compiled with GPU support' framework-cpu-only-build
want_ids 'warning: not compiled with GPU offload support, --n-gpu-layers option will be ignored' ""
# CHECK_CUDA ("<name> must be a CUDA tensor", torch_scatter's "must be CUDA
# tensor"): an operand of a CUDA-only operation left on the CPU; the
# macro's source line quoted by a compiler is not the failure.
want_ids 'RuntimeError: index.type().is_cuda() INTERNAL ASSERT FAILED at cuda/scatter.cpp:35, please report a bug to PyTorch. index must be CUDA tensor (scatter_max at cuda/scatter.cpp:35)' tensors-on-different-devices
want_ids 'RuntimeError: input must be a CUDA tensor' tensors-on-different-devices
want_ids '#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")' ""
# AMReX's GPU checks name the library only as "GPU" before the runtime's
# string (Gpu::ErrorCheck and AMREX_GPU_SAFE_CALL, AMReX_GpuError.H);
# another program's "Error in file F line N: DESC" is not read so.
want_ids 'amrex::Abort::0::GPU last error detected in file ../../../amrex/Src/Base/AMReX_GpuLaunchFunctsG.H line 834: invalid device function !!!' gpu-arch-unsupported-by-framework
want_ids 'amrex::Abort::0::GPU error in file /src/AMReX_GpuDevice.cpp line 311 invalid device function !!!' gpu-arch-unsupported-by-framework
want_ids 'Error in file main.cpp line 12: invalid device function' ""
# The NVIDIA HPC SDK's accelerator runtime (OpenACC, CUDA Fortran): "call
# to cuNAME returned error N: ..." with N the driver's CUresult; not a
# library's call (its own statuses) nor another program's "call to".
want_ids 'Failing in Thread:1\ncall to cuStreamSynchronize returned error 700: Illegal address during kernel execution' illegal-memory-access
want_ids 'call to cuMemAlloc returned error 2: Out of memory' cuda-out-of-memory
want_ids 'the call to curl returned error 7: Failed to connect' ""
want_ids 'call to cudnnCreate returned error 4' ""
# Kokkos's start-up probe found no kernel image for the GPU.
want_ids 'Kokkos::Cuda::initialize ERROR: likely mismatch of architecture\n[gpu004:105080] *** Process received signal ***' gpu-arch-unsupported-by-framework
want_ids 'Kokkos::Cuda::initialize WARNING: running kernels compiled for compute capability 6.1 on device with compute capability 8.6 , this will likely reduce potential performance.' ""
# tensorview's (spconv's) wording of a CUDA runtime status number.
want_ids 'RuntimeError: /spconv/src/spconv/indice.cu 125 cuda execution failed with error 2' cuda-out-of-memory
want_ids 'spconv/indice.cu 60 cuda execution failed with error 98' gpu-arch-unsupported-by-framework
# Windows code 126 for a DLL outside the GPU stack: the DLL or one of its
# imports is missing, not a CUDA library; for a CUDA DLL, that library.
want_ids 'Failed to load C:\\x\\ggml-cuda.dll: error code 126' windows-dll-load-failed
want_ids 'LoadLibrary failed with error 126 "" when trying to load "C:\\x\\onnxruntime\\capi\\onnxruntime_providers_shared.dll"' windows-dll-load-failed
want_ids 'Could not load library cudart64_12.dll. Error code 126' cuda-library-missing
want_ids 'LoadLibrary failed with error 1260 for foo.dll' ""
# NCCL's CUDACHECK/CUCHECK wrap a CUDA status: that status is the cause.
want_ids "enqueue.cc:1556 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'" illegal-memory-access
want_ids 'misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.2<43567> failed : Software caused connection abort' nccl-error
# NCCL's WARN lines mined from its source (docs/explain-sources.md, NCCL):
# no interface matched NCCL_SOCKET_IFNAME, the driver refused peer access,
# NVML's init status, usage NCCL refuses; its INFO fallbacks stay silent.
want_ids 'node1:1234:1234 [0] bootstrap.cc:126 NCCL WARN Bootstrap : no socket interface found' nccl-socket-ifname-unknown
want_ids 'node1:1234:1234 [0] transport/net_socket.cc:61 NCCL WARN NET/Socket : no interface found' nccl-socket-ifname-unknown
want_ids "node1:1234:1234 [0] transport/p2p.cc:250 NCCL WARN Cuda failure 'peer access is not supported between these two devices'" gpu-peer-access-unavailable
want_ids 'RuntimeError: CUDA error: peer access is not supported between these two devices' gpu-peer-access-unavailable
want_ids 'node1:1234:1234 [0] init.cc:904 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000' nccl-error
want_ids 'node1:1234:1234 [0] init.cc:1057 NCCL WARN Multiple Ranks are using the same GPU/Partition. Set NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this configuration.' nccl-error
want_ids 'node1:1234:1234 [0] init.cc:1043 NCCL WARN Mismatched NCCL version detected : rank 0 version 22105 rank 1 version 21803' nccl-error
want_ids 'node1:1234:1234 [0] bootstrap.cc:120 NCCL WARN NET/Socket : No usable listening interface found' nccl-error
want_ids 'node1:1234:1234 [0] bootstrap.cc:577 NCCL WARN no device found matching eth0, verify NCCL_OOB_NET_IFNAME' nccl-error
want_ids 'node1:1234:1234 [0] misc/nvmlwrap.cc:142 NCCL WARN nvmlInit_v2() failed: Driver Not Loaded' "nccl-error nvidia-driver-not-loaded"
want_ids 'node1:1234:1234 [0] misc/nvmlwrap.cc:142 NCCL WARN nvmlInit_v2() failed: Unknown Error' "nccl-error nvml-unknown-error"
want_ids 'node1:1234:1234 [0] NCCL INFO NET/IB : No device found.' ""
want_ids 'node1:1234:1234 [0] transport/net_ib/init.cc:334 NCCL WARN NET/IB : Unable to open device mlx5_0' ""
want_ids 'node1:1234:1234 [0] NCCL INFO NET/Plugin: libnccl-net.so: libnccl-net.so: cannot open shared object file: No such file or directory' ""
want_ids 'node1:1234:1234 [0] NCCL INFO NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No such file or directory No plugin found (libnccl-net.so), using internal implementation' ""
want_ids 'node1:1234:1234 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.' ""
want_ids 'node1:1234:1234 [0] NCCL INFO Could not find a path for pattern 4, falling back to simple order' ""
# A fallback that succeeds (GDRCopy asked for and not installed: NCCL goes
# on without it), read now by the general "NCCL WARN ... fail" row: this
# waits for the general fallback veto (docs/explain-sources.md, Left).
# want_ids 'node1:1234:1234 [0] misc/gdrwrap.cc:73 NCCL WARN Failed to open libgdrapi.so - libgdrapi.so: cannot open shared object file: No such file or directory' ""
# CUTLASS's cutlass::Status, by the string cutlassGetStatusString prints
# when the line names CUTLASS before it.
want_ids 'RuntimeError: /tmp/x/include/tiny-cuda-nn/cutlass_matmul.h:332 status failed with error Error Internal' gpu-library-error
want_ids 'Got cutlass error: Error Architecture Mismatch at: 363' gpu-arch-unsupported-by-framework
want_ids 'Status: Error Internal' ""
# ROCm's libraries (rocBLAS, MIOpen, hipBLAS/hipBLASLt) name their status
# codes; the table maps them like CUDA's (an arch mismatch is the gfx target).
want_ids 'rocblas_invoke: rocBLAS call failed: rocblas_status_internal_error' gpu-library-error
want_ids 'RuntimeError: miopenStatusAllocFailed' cuda-out-of-memory
want_ids 'hipBLAS error: HIPBLAS_STATUS_ARCH_MISMATCH at gemm.cpp:40' rocm-gfx-unsupported
want_ids 'MIOpen(HIP): Warning [Find] miopenStatusGpuOperationsSkipped' ""
# rocBLAS's and MIOpen's own lines (docs/explain-sources.md): start-up
# without a device, no Tensile code object for the gfx target, a failed
# workspace allocation; their fallbacks that succeed stay silent.
want_ids 'rocBLAS error: Could not initialize Tensile host: No devices found' cuda-visible-devices-hides-all
want_ids 'rocBLAS warning: No paths matched /opt/rocm/lib/rocblas/library/*gfx1031*co. Make sure that ROCBLAS_TENSILE_LIBPATH is set correctly.' rocm-gfx-unsupported
want_ids ' rocBLAS internal error: hipMallocAsync() failed to allocate memory of size : 1073741824' cuda-out-of-memory
want_ids 'rocblaslt error: Cannot read /opt/rocm/lib/hipblaslt/library/TensileLibrary_lazy_gfx1030.dat: No such file or directory' rocm-gfx-unsupported
want_ids 'rocblaslt error: Could not initialize Tensile host: No devices found' cuda-visible-devices-hides-all
want_ids 'rocBLAS warning: hipBlasLT failed, falling back to tensile. ' ""
want_ids 'rocBLAS warning: No Tensile solution found for XF32, fall back to FP32' ""
want_ids 'MIOpen(HIP): Warning [default_allocator] hipMalloc 8589934592 status: 2' cuda-out-of-memory
want_ids 'MIOpen(HIP): Warning [default_allocator] hipMalloc 8589934592 status: 1' ""
want_ids 'MIOpen Error: /MIOpen/src/ctc.cpp:129: Error: Workspace size exceeds GPU memory capacity' cuda-out-of-memory
want_ids 'MIOpen Error: /MIOpen/src/ocl/dropoutocl.cpp:232: Memory required by dropout forward configs exceeds GPU memory range.' cuda-out-of-memory
want_ids 'MIOpen(HIP): Warning [SQLiteBase] Missing system database file: gfx1030_30.kdb Performance may degrade. Please follow instructions to install: https://github.com/ROCmSoftwarePlatform/MIOpen#installing-miopen-kernels-package' ""
want_ids 'MIOpen(HIP): Warning [IsEnoughWorkspace] [GetSolutionsFallback WTI] Solver <GemmFwdRest>, workspace required: 14745600, provided ptr: 0 size: 0' ""
# PyTorch's ROCm start-up fallbacks: the hipBLAS backend instead of
# hipBLASLt (Context::blasPreferredBackend), another attention backend when
# AOTriton's is experimental on the GPU (hip/sdp_utils.cpp).
want_ids '/usr/lib/python3.12/site-packages/torch/nn/modules/linear.py:125: UserWarning: Attempting to use hipBLASLt on an unsupported architecture! Overriding blas backend to hipblas (Triggered internally at ../aten/src/ATen/Context.cpp:296.)' ""
want_ids 'transformer.py:902: UserWarning: Mem Efficient attention on Current AMD GPU is still experimental. Enable it with TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL=1. (Triggered internally at /pytorch/aten/src/ATen/native/transformers/hip/sdp_utils.cpp:360.)' ""
want_ids 'modeling_llama.py:566: UserWarning: Flash attention support on Navi31 GPU is still experimental. Enable it with TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL=1. (Triggered internally at /pytorch/aten/src/ATen/native/transformers/hip/sdp_utils.cpp:207.)' ""
# The other libraries of the stack, each by name, by a number after the
# wrapping that prints it, and by the library's own string after its name:
# nvJitLink (no string function: name and number only), CUPTI (Kineto's
# CUPTI_CALL prints the name; cuptiGetErrorMessage the description),
# nvJPEG (torchvision prints the number), cuFile (KvikIO prints
# CUFILE_ERRSTR), cuTENSOR (CuPy prints the name), NPP, rocSPARSE, rocFFT,
# rocRAND. A success code is no error.
want_ids 'RuntimeError: NVJITLINK_ERROR_UNSUPPORTED_ARCH' nvrtc-arch-unsupported
want_ids 'nvJITLink failed with error 4' gpu-library-error
want_ids 'nvJITLink failed with error 0' ""
want_ids 'WARNING:2026-01-01 1234:1234 CuptiActivityApi.cpp:100] function cuptiActivityEnable failed with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)' gpu-profiling-restricted
want_ids "CUPTI error: User doesn't have sufficient privileges which are required to start the profiling session. One possible reason ..." gpu-profiling-restricted
want_ids 'RuntimeError: nvjpegDecode failed: 5' cuda-out-of-memory
want_ids 'RuntimeError: Failed to initialize nvjpeg with default backend: 7' gpu-operation-not-supported
want_ids 'RuntimeError: NVJPEG_STATUS_JPEG_NOT_SUPPORTED' gpu-operation-not-supported
want_ids 'RuntimeError: nvjpegDecode failed: 0' ""
want_ids 'RuntimeError: cuFile error:GPUDirect Storage not supported on current file' gpu-operation-not-supported
want_ids 'cuFileDriverOpen failed: CU_FILE_DRIVER_NOT_INITIALIZED' gpu-operation-not-supported
want_ids 'cupy_backends.cuda.libs.cutensor.CuTensorError: CUTENSOR_STATUS_INSUFFICIENT_DRIVER' driver-too-old-for-framework
# CuPy's messages mined from its source (docs/explain-sources.md, CuPy):
# the toolkit its compiler needs, peer access, malloc_async; its notices
# and fallbacks stay silent.
want_ids "OSError: Failed to run \`nvcc\` command. Check PATH environment variable: [Errno 2] No such file or directory: 'nvcc'" cuda-toolkit-not-found
want_ids 'RuntimeError: CUDA is not found.' cuda-toolkit-not-found
want_ids 'CMake Warning: CUDA is not found. Building the CPU backend only.' ""
want_ids 'RuntimeError: Relocatable PTX code is requested, but cudadevrt is not found.' cuda-toolkit-not-found
want_ids 'RuntimeError: Failed to find CUDA headers. Please install CUDA toolkit headers (e.g., pip install cupy-cuda12x[ctk]) or specify CUDA_PATH environment variable.' cuda-toolkit-not-found
want_ids 'ValueError: The device where the array resides (1) is different from the current device (0). Peer access is unavailable between these devices.' gpu-peer-access-unavailable
want_ids 'PerformanceWarning: The device where the array resides (1) is different from the current device (0). Peer access has been activated automatically.' ""
want_ids 'RuntimeError: Device 0 does not support malloc_async' cuda-malloc-async-unsupported
want_ids 'UserWarning: CUDA path could not be detected. Set CUDA_PATH environment variable if CuPy fails to load.' ""
want_ids 'RuntimeWarning: CUB headers are not found.' ""
# A fallback that succeeds (pageable copy instead of pinned host memory):
# silent by the fallback rule's "pinned memory" host row.
want_ids 'PerformanceWarning: Using synchronous transfer as pinned memory (1048576 bytes) could not be allocated. This generally occurs because of insufficient host memory. The original error was: cudaErrorMemoryAllocation: out of memory' ""
want_ids 'nppiResize failed: NPP_NOT_SUFFICIENT_COMPUTE_CAPABILITY' gpu-too-old-for-kernel-library
want_ids 'NPP_DOUBLE_SIZE_WARNING' ""
want_ids 'rocSPARSE error: rocsparse_status_arch_mismatch' rocm-gfx-unsupported
want_ids 'rocsparse call failed: failed memory allocation, copy, dealloc' cuda-out-of-memory
want_ids 'failed memory allocation, copy, dealloc' ""
want_ids 'rocFFT error: rocfft_status_invalid_strides' gpu-invalid-call
want_ids 'rocRAND error: Memory allocation failed during execution' cuda-out-of-memory
want_ids 'ROCRAND_STATUS_LAUNCH_FAILURE' illegal-memory-access
# PyTorch on ROCm calls hipFFT, hipSPARSE, hipRAND and hipSOLVER through
# its hipified CUDA code: "cuFFT error: HIPFFT_EXEC_FAILED".
want_ids 'RuntimeError: cuFFT error: HIPFFT_EXEC_FAILED' gpu-library-error
want_ids 'hipSPARSE error: HIPSPARSE API failed at line 261 with error: HIPSPARSE_STATUS_INVALID_VALUE' gpu-invalid-call
want_ids 'RuntimeError: HIPRAND_STATUS_ARCH_MISMATCH' rocm-gfx-unsupported
# Vulkan (VkResult) and OpenCL codes (data/explain/khronos_status.tsv): by
# name, by Vulkan-Hpp's and PyOpenCL's strings after their call, and by a
# negative number after ncnn's and an OpenCL call's wording only.
want_ids 'Failed to acquire fence: vkQueueSubmit VK_ERROR_DEVICE_LOST' gpu-device-removed
want_ids 'vkQueueSubmit failed -4' gpu-device-removed
want_ids 'vkAllocateMemory failed -2' cuda-out-of-memory
want_ids 'queue submit failed -4' ""
want_ids 'vkQueueSubmit failed 4' ""
want_ids 'ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory' cuda-out-of-memory
# llama.cpp / ggml messages mined from the source (docs/explain-sources.md):
# one test per pattern row, and the look-alikes that are no failure (a
# fallback that succeeds, a warning, a disabled optional feature) silent.
want_ids 'llama_init_from_model: failed to initialize the context: failed to allocate compute pp buffers' cuda-out-of-memory
want_ids 'llama_init_from_model: failed to initialize the context: failed to allocate compute tg buffers' cuda-out-of-memory
want_ids 'graph_reserve: failed to allocate compute buffers' cuda-out-of-memory
want_ids 'llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache' cuda-out-of-memory
want_ids 'llama_init_from_model: failed to initialize the context: failed to allocate buffer for rs cache' cuda-out-of-memory
want_ids 'ggml_gallocr_reserve_n: failed to allocate ROCm0 buffer of size 4294967296' cuda-out-of-memory
want_ids 'ggml_backend_alloc_ctx_tensors_from_buft_impl: failed to allocate Vulkan0 buffer of size 8589934592' cuda-out-of-memory
want_ids 'ggml_gallocr_reserve_n: failed to allocate Metal buffer of size 268435456' cuda-out-of-memory
want_ids 'ggml_gallocr_reserve_n: failed to allocate SYCL0 buffer of size 268435456' cuda-out-of-memory
want_ids 'ggml_gallocr_reserve_n: failed to allocate CPU buffer of size 268435456' ""
want_ids 'ggml_gallocr_reserve_n: failed to allocate Vulkan_Host buffer of size 268435456' ""
want_ids 'llama_model_load: error loading model: unable to allocate ROCm0 buffer' cuda-out-of-memory
want_ids 'llama_model_load: error loading model: unable to allocate CPU buffer' ""
want_ids 'ggml_metal_buffer_init: error: failed to allocate buffer, size =  4096.00 MiB' cuda-out-of-memory
want_ids 'ggml_backend_metal_buffer_type_alloc_buffer: error: failed to allocate buffer, size =  4096.00 MiB' cuda-out-of-memory
want_ids 'llama_model_load_from_file_impl: invalid value for main_gpu: 2 (available devices: 1)' cuda-visible-devices-invalid
want_ids 'ggml_vulkan: Device with index 3 does not exist.' cuda-visible-devices-invalid
want_ids 'ggml_vulkan: Invalid device index 3 in GGML_VK_VISIBLE_DEVICES.' cuda-visible-devices-invalid
want_ids 'hipMallocManaged unsupported, falling back to hipMalloc.' ""
want_ids 'ggml_metal_log_allocated_size: warning: current allocated size is greater than the recommended max working set size' ""
want_ids 'ggml_metal_device_init: tensor API disabled for pre-M5 and pre-A19 devices' ""
want_ids 'llama_params_fit: failed to fit params to free device memory: n_gpu_layers already set by user to 99, abort' ""
want_ids 'ggml_cuda_init: invalid architecture ID received for device 0 AMD Radeon Graphics: gfx000  cc 0.0' ""
# ggml's SYCL, CANN, OpenCL and Vulkan backends (docs/explain-sources.md,
# llama.cpp / ggml, "Other backends"), same way.
want_ids "ggml_backend_sycl_buffer_type_alloc_buffer: can't allocate 8589934592 Bytes of memory on device" cuda-out-of-memory
want_ids "ggml_sycl_pool_leg::alloc: can't allocate 123456 Bytes of memory on device/GPU" cuda-out-of-memory
want_ids "ggml_backend_sycl_buffer_type_alloc_buffer: can't allocate 8589934592 Bytes of memory on host" ""
want_ids 'Native API failed. Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES) -5 (PI_ERROR_OUT_OF_RESOURCES)Exception caught at file:/llama.cpp/ggml/src/ggml-sycl.cpp, line:3061' cuda-out-of-memory
want_ids 'Native API failed. Native API returns: 20 (UR_RESULT_ERROR_DEVICE_LOST)Exception caught at file:/app/ggml/src/ggml-sycl/ggml-sycl.cpp, line:3061' gpu-device-removed
want_ids 'check_allow_gpu_index error: device_index:1 is out of range: [0-0]' cuda-visible-devices-invalid
want_ids 'ggml_backend_sycl_buffer_type error: device_index:2 is out of range [0, 1], miss to call ggml_backend_sycl_set_single_device()' cuda-visible-devices-invalid
want_ids 'ggml_backend_cann_init: error: invalid device 3' cuda-visible-devices-invalid
want_ids 'ggml_backend_cuda_init: invalid device 2' cuda-visible-devices-invalid
want_ids 'ggml_opencl: invalid device number 2' cuda-visible-devices-invalid
want_ids 'ggml_cuda_init: failed to initialize CUDA: CUDA driver is a stub library\nggml_backend_cuda_init: error: invalid device 0' nvidia-driver-not-loaded
want_ids 'ggml_backend_cann_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 0: aclrtMalloc failed: EL0004: Failed to allocate memory.' cuda-out-of-memory
want_ids 'ggml_vulkan: device lost on Vulkan0, likely caused by previous submission (nodes 12 to 40):' gpu-device-removed
want_ids 'ggml_opencl: clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global_work_size, local_work_size, 0, NULL, NULL) error -5 at /src/ggml/src/ggml-opencl/ggml-opencl.cpp:5000' cuda-out-of-memory
want_ids 'ggml_opencl: (buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err), err) error -4 at /src/ggml/src/ggml-opencl/ggml-opencl.cpp:348' cuda-out-of-memory
want_ids 'worker: poll(fd) error -5 at io.c:31' ""
want_ids 'sycl_reorder_temp_buffer: device alloc of 1234 bytes failed, using host memory fallback' ""
want_ids 'reorder_qw_q4_0: failed to allocate 1234 bytes for reorder temp buffer, skipping reorder' ""
want_ids 'ggml_sycl_host_malloc: failed to allocate 512.00 MiB of pinned memory' ""
want_ids 'WARNING: failed to allocate 512.00 MB of pinned memory: syclGetErrorString is not supported' ""
want_ids 'ggml_cann_host_malloc: failed to allocate 512.00 MiB of pinned memory: EL0004: Failed to allocate memory.' ""
want_ids 'ggml_metal_library_init: error: could not use bundle path to find ggml-metal.metal, falling back to trying cwd' ""
want_ids 'ggml_metal_init: the device does not have a precompiled Metal library - this is unexpected' ""
# Fallbacks that succeed: ggml-vulkan's pinned host buffer falls back to a
# CPU buffer (silent by the fallback rule's "pinned memory" host row), and
# a host pointer it cannot import is allocated another way
# (ggml_vk_buffer_from_host_ptr, ggml_vk_create_buffer's import path): the
# last two name no fallback on their line, so an existing row still reads
# the VkResult they quote (#FALLBACK-VETO: left, docs/explain-sources.md).
want_ids 'ggml_vulkan: Failed to allocate pinned memory (vk::Device::allocateMemory: ErrorOutOfDeviceMemory)' ""
#FALLBACK-VETO want_ids 'ggml_vulkan: Failed ggml_vk_create_buffer (vk::Device::allocateMemory: ErrorOutOfDeviceMemory)' ""
#FALLBACK-VETO want_ids 'ggml_vulkan: Failed getMemoryHostPointerPropertiesEXT (vk::Device::getMemoryHostPointerPropertiesEXT: ErrorInvalidExternalHandle)' ""
# ollama's GPU discovery and scheduler (slog lines), same way.
want_ids 'time=2026-08-01T10:00:00.000Z level=WARN source=amd.go:470 msg="dropping ROCm device — no rocblas support for gfx target" device="AMD Radeon 780M" gfx_target=gfx1103' rocm-gfx-unsupported
want_ids 'time=2026-08-01T10:00:00.000Z level=WARN source=cuda_compat.go:65 msg="NVIDIA driver too old" device="NVIDIA GeForce GTX 1080" compute=6.1 driver=535 required_driver="550 or newer"' driver-too-old-for-framework
want_ids 'time=2026-08-01T10:00:00.000Z level=INFO source=llama_server.go:299 msg="skipping CUDA device — compute capability not in compiled architectures" device="NVIDIA GeForce GTX 770" cc=30' gpu-arch-unsupported-by-framework
want_ids 'Error: 500 Internal Server Error: unable to load full model on GPU' cuda-out-of-memory
want_ids 'time=2026-08-01T10:00:00.000Z level=INFO source=runner.go:405 msg="dropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1" id=0' ""
want_ids 'time=2026-08-01T10:00:00.000Z level=WARN source=runner.go:722 msg="user overrode visible devices" CUDA_VISIBLE_DEVICES=1' ""
want_ids 'time=2026-08-01T10:00:00.000Z level=WARN source=cuda_compat.go:39 msg="could not verify NVIDIA driver compatibility for CUDA"' ""
want_ids 'time=2026-08-01T10:00:00.000Z level=WARN source=runner.go:364 msg="unable to refresh free memory, using old values"' ""
want_ids 'time=2026-08-01T10:00:00.000Z level=WARN source=sched.go:1324 msg="predicted usage exceeds VRAM" gpu=GPU-1 totalMemory=8589934592 predicted=9663676416' ""
# PyTorch messages mined from its source (docs/explain-sources.md, PyTorch).
want_ids 'UserWarning: Found GPU0 NVIDIA GeForce GTX 770 which requires CUDA_VERSION >= 9000 to\n     work properly, but your PyTorch was compiled\n     with CUDA_VERSION 8000. Please install the correct PyTorch binary' gpu-arch-unsupported-by-framework
want_ids 'UserWarning: Found GPU0 Tesla V100-PCIE-16GB which requires CUDA_VERSION >= 9000 for\n     optimal performance and fast startup time, but your PyTorch was compiled' ""
want_ids 'ValueError: Unknown CUDA arch (8.9+PTX) or GPU not supported' gpu-arch-unsupported-by-framework
want_ids 'ValueError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!' cuda-visible-devices-hides-all
want_ids 'RuntimeError: Attempting to deserialize object on CUDA device 1 but torch.cuda.device_count() is 1. Please use torch.load with map_location to map your storages to an existing device.' cuda-visible-devices-invalid
want_ids '[rank3]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 3] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=1' nccl-timeout
want_ids 'RuntimeError: Error in dlopen or dlsym: libnvrtc-672ee683.so.11.2: cannot open shared object file: No such file or directory' cuda-library-missing
want_ids 'UserWarning: expandable_segments not supported on this platform (Triggered internally at /pytorch/c10/hip/HIPAllocatorConfig.h:40.)' ""
want_ids "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'" ""
want_ids "UserWarning: The detected CUDA version (12.1) has a minor version mismatch with the version that was used to compile PyTorch (12.4). Most likely this shouldn't be a problem." ""
want_ids 'UserWarning: There are no g++ version bounds defined for CUDA version 12.4' ""
want_ids 'UserWarning: Guessing device ID based on global rank. This can cause a hang if rank to GPU mapping is heterogeneous. You can specify device_id in init_process_group()' ""
want_ids 'UserWarning: Attempting to run cuBLAS, but there was no current CUDA context! Attempting to set the primary context... (Triggered internally at ../aten/src/ATen/cuda/CublasHandlePool.cpp:135.)' ""
want_ids 'UserWarning: 1Torch was not compiled with flash attention. (Triggered internally at ../aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:455.)' ""
want_ids "UserWarning: Can't initialize NVML" ""
want_ids "UserWarning: User provided device_type of 'cuda', but CUDA is not available. Disabling" ""
want_ids 'CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.' ""
want_ids 'allocateMemory: ErrorOutOfDeviceMemory' ""
# ONNX Runtime's execution providers and loader (docs/explain-sources.md),
# same way: its CudaCall line by status, its own sentences, TensorRT's
# arch refusal relayed by the TensorRT provider, and the information it
# logs on every GPU run silent.
want_ids 'CUDA failure 2: out of memory ; GPU=0 ; hostname=node1 ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_allocator.cc ; line=47 ; expr=cudaMalloc((void**)&p, size);' cuda-out-of-memory
want_ids 'CUBLAS failure 3: CUBLAS_STATUS_ALLOC_FAILED ; GPU=0 ; hostname=node1 ; expr=cublasCreate(&cublas_handle_);' cublas-handle-failed
want_ids "RuntimeError: /onnxruntime_src/onnxruntime/python/onnxruntime_pybind_state.cc:600 onnxruntime::python::CreateExecutionProviderInstance ROCM_PATH is set but ROCM wasn't able to be loaded. Please install the correct version of ROCM and MIOpen as mentioned in the GPU requirements page, make sure they're in the PATH, and that your GPU is supported." rocm-library-missing
want_ids "UserWarning: Specified provider 'ROCMExecutionProvider' is not in available provider names.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'" framework-cpu-only-build
want_ids "UserWarning: Specified provider 'DmlExecutionProvider' is not in available provider names.Available providers: 'CUDAExecutionProvider, CPUExecutionProvider'" framework-cpu-only-build
want_ids "UserWarning: Specified provider 'ROCMExecutionProvider' is not in available provider names.Available providers: 'MIGraphXExecutionProvider, ROCMExecutionProvider, CPUExecutionProvider'" ""
want_ids '[ONNXRuntimeError] : 1 : FAIL : Invalid device ID: 1, must be between 0 (inclusive) and 1 (exclusive).' cuda-visible-devices-invalid
want_ids 'D:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\dml\\dml_provider_factory.cc(513)\\onnxruntime.dll!00007FFCA6CFB148: (caller: 00007FFCA6CFB46A) Exception(1) tid(dab0) 887A0002 The object was not found. If calling IDXGIFactory::EnumAdaptes, there is no adapter with the specified ordinal.' cuda-visible-devices-invalid
want_ids 'EnumAdapters1(3) failed 0x887A0002 (The object was not found. If calling IDXGIFactory::EnumAdaptes, there is no adapter with the specified ordinal.)' ""
want_ids '[ONNXRuntimeError] : 11 : EP_FAIL : TensorRT EP could not deserialize engine from cache: /cache/trt/TensorrtExecutionProvider_TRTKernel_graph_torch_jit_1_0_0_sm86.engine' tensorrt-engine-incompatible
want_ids '[E:onnxruntime:Default, tensorrt_execution_provider.h:88 log] [2024-04-25 15:52:54   ERROR] 1: [caskUtils.cpp::nvinfer1::rt::task::trtSmToCask::193] Error Code 1: Internal Error (Unsupported SM: 0x601)' gpu-arch-unsupported-by-framework
want_ids '[E] [TRT] C:\\source\\rtSafe\\cuda\\caskUtils.cpp (80) - Assertion Error in nvinfer1::rt::task::trtSmToCask: 0 (Unsupported SM.)' gpu-arch-unsupported-by-framework
want_ids '[07/19/2025-23:34:55] [E] Error[9]: IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM 120 is not supported by this TensorRT release.)' gpu-arch-unsupported-by-framework
want_ids "Falling back to ['CPUExecutionProvider'] and retrying." ""
want_ids '[W:onnxruntime:, session_state.cc:1166 VerifyEachNodeIsAssignedToAnEp] Some nodes were not assigned to the preferred execution providers which may or may not have an negative impact on performance. e.g. ORT explicitly assigns shape related ops to CPU to improve perf.' ""
want_ids '[W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] 2 Memcpy nodes are added to the graph main_graph for CUDAExecutionProvider. It might have negative impact on performance (including unable to run CUDA graph). Set session_options.log_severity_level=1 to see the detail logs before this message.' ""
want_ids '[I:onnxruntime:log, bfc_arena.cc:306 AllocateRawInternal] Extending BFCArena for Cuda. bin_num:16 (requested) num_bytes: 19888128 (actual) rounded_bytes:19888128' ""
want_ids "Status Message: D:\\\\a\\\\_work\\\\1\\\\s\\\\onnxruntime\\\\core\\\\framework\\\\bfc_arena.cc:330 onnxruntime::BFCArena::AllocateRawInternal Failed to allocate memory for requested buffer of size 285081600" ""
# Triton messages mined from its source (docs/explain-sources.md, Triton):
# the host compiler, ptxas, libcuda and libamdhip64 it looks for; its
# cache, fp8 and option warnings, and triton-windows' search warnings,
# silent.
want_ids 'RuntimeError: Failed to find C++ compiler. Please specify via CXX environment variable or set triton.knobs.build.impl.' jit-host-compiler-failed
want_ids 'RuntimeError: Cannot find ptxas' cuda-toolkit-not-found
want_ids 'RuntimeError: Cannot find ptxas-blackwell' cuda-toolkit-not-found
want_ids "XLA only uses the driver JIT if it cannot find ptxas; you don't need to update your driver if you can point XLA to ptxas 9.2.88 or newer." ""
want_ids 'RuntimeError: Triton only support CUDA 10.0 or higher, but got CUDA version: 9.2' ptxas-too-old
want_ids 'RuntimeError: Failed to open libcuda.so.1' cuda-library-missing
want_ids 'RuntimeError: Failed to retrieve cuLaunchKernelEx from libcuda.so.1' driver-too-old-for-framework
want_ids 'RuntimeError: Failed to retrieve cuTensorMapEncodeTiled from libcuda.so.1' driver-too-old-for-framework
want_ids "RuntimeError: cannot locate libamdhip64.so after attempted paths ['/usr/lib/python3/dist-packages/triton/backends/amd/lib/libamdhip64.so', '/opt/rocm/lib/libamdhip64.so']" rocm-library-missing
want_ids 'RuntimeError: cannot open libamdhip64.so' rocm-library-missing
want_ids "RuntimeError: TRITON_LIBHIP_PATH '/opt/rocm-6.2.0/lib' does not point to a valid libamdhip64.so" rocm-library-missing
want_ids "RuntimeError: cannot get address for 'hipModuleLaunchKernel' from libamdhip64.so" rocm-library-missing
want_ids 'RuntimeError: libamdhip64 version 5.7.31921 is not supported! Required major version is >=6.' rocm-library-missing
want_ids 'ValueError: Pointer argument (at 0) cannot be accessed from Triton (cpu tensor?)' tensors-on-different-devices
want_ids 'ValueError: Pointer argument cannot be accessed from Triton (cpu tensor?)' tensors-on-different-devices
want_ids 'WARNING:triton.runtime.build:Triton cache error: compiled module cuda_utils.so could not be loaded' ""
want_ids "UserWarning: fp8e4b8 is AMD gfx942 specific and not supported on gfx1100 so it's upcasted to fp16 and can cause significant slow down. Please use OCP fp8 variants on gfx1100 for performance" ""
want_ids 'UserWarning: kpack is deprecated starting from gfx950 and will be removed in later releases. So for now kpack = 2 will be overwritten to 1 to make transitioning easier.' ""
want_ids 'UserWarning: Failed to find MSVC.\nUserWarning: Failed to find Windows SDK.\nUserWarning: Failed to find CUDA.' ""
# A fallback that succeeds, read now by the "out of resource:" row: this
# waits for the general fallback veto (docs/explain-sources.md, Left).
# want_ids 'Autotuning failed with out of resource: shared memory, Required: 131072, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.' ""
# torch.compile (Inductor, Dynamo) messages mined from its source
# (docs/explain-sources.md, torch.compile): the wrong triton for this
# PyTorch; its max-autotune, TF32, cudagraph and CUTLASS notices silent.
want_ids "torch._inductor.exc.InductorError: RuntimeError: triton not built with the 'nvidia' backend" triton-missing
want_ids "RuntimeError: triton not built with the 'amd' backend" triton-missing
want_ids 'RuntimeError: Installed triton version too old, please upgrade' triton-missing
want_ids 'W1207 12:00:00.000000 4242 torch/_inductor/utils.py:1250] [0/0] Not enough SMs to use max_autotune_gemm mode' ""
want_ids 'W1207 12:00:00.000000 4242 torch/_inductor/utils.py:1246] [0/0] GPU arch does not support max_autotune_gemm mode usage' ""
want_ids "UserWarning: TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled. Consider setting \`torch.set_float32_matmul_precision('high')\` for better performance." ""
want_ids 'skipping cudagraphs due to mutated inputs (2 instances). Found from :' ""
want_ids "UserWarning: Failed to benchmark choice 'TritonTemplateCaller(/tmp/torchinductor_root/ab/cab.py, BLOCK_K=32)'. It will be ignored. Please debug the root cause in case the choice can bring perf gains." ""
want_ids 'E1207 12:00:00.000000 4242 torch/_inductor/codegen/cutlass/utils.py:252] Cannot detect cuda arch None or cuda version None. Will discard all cutlass ops. Please consider setting _inductor.cuda.arch and _inductor.cuda.version configs.' ""
# Fallbacks that succeed, read now by the rows of the text they quote:
# these wait for the general fallback veto (docs/explain-sources.md, Left).
# want_ids 'W1207 12:00:00.000000 4242 torch/_inductor/select_algorithm.py:3938] [0/0] out of resource: shared memory, Required: 131072, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.' ""
# want_ids 'E1207 12:00:00.000000 4242 torch/_inductor/select_algorithm.py:3923] [0/0] Runtime error during autotuning: \nCUDA error: invalid argument\n\nThis may mean this GPU is too small for max_autotune mode.\n\n. \nIgnoring this choice.' ""
# ONNX Runtime's OpenVINO provider passes on the Intel GPU plugin's
# allocation errors (docs/explain-sources.md), same way.
want_ids 'RuntimeError: Exception from src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:193:\n[GPU] out of GPU resources' cuda-out-of-memory
want_ids '[ONNXRuntimeError] : 1 : FAIL : [OpenVINO-EP]  Exception while Loading Network for graph: OpenVINOExecutionProvider_OpenVINO-EP-subgraph_1_0Exception from src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:157: [GPU] Exceeded max size of memory object allocation: requested 9172942848 bytes, but max alloc size supported by device is 4294959104 bytes.Please try to reduce batch size or use lower precision.' cuda-out-of-memory
want_ids 'Exception from src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:170:\n[GPU] Exceeded max size of memory allocation: Required 2147483648 bytes, already occupied : 6442450944 bytes, but available memory size is 8321499136 bytes' cuda-out-of-memory
want_ids '[Warning] [GPU] Exceeded max size of memory allocation: Required 2147483648 bytes, already occupied : 6442450944 bytes, but available memory size is 8321499136 bytes\nPlease note that performance might drop due to memory swap.' ""
# CTranslate2 (faster-whisper, WhisperX) mined from its source
# (docs/explain-sources.md, CTranslate2), same way.
want_ids 'RuntimeError: NCCL failed with error 2' nccl-error
want_ids 'RuntimeError: The asynchronous CUDA allocator requires CUDA >= 11.2' cuda-malloc-async-unsupported
want_ids "FileNotFoundError: Could not find module 'D:\\\\test\\\\venv\\\\lib\\\\site-packages\\\\ctranslate2\\\\libiomp5md.dll' (or one of its dependencies). Try using the full path with constructor syntax." windows-dll-load-failed
want_ids "FileNotFoundError: Could not find module 'C:\\\\venv\\\\Lib\\\\site-packages\\\\torchcodec\\\\libtorchcodec_core8.dll' (or one of its dependencies). Try using the full path with constructor syntax." ""
want_ids '[ctranslate2] [thread 2204] [warning] The compute type inferred from the saved model is float16, but the target device or backend do not support efficient float16 computation. The model weights have been automatically converted to use the float32 compute type instead.' ""
# TensorFlow / XLA's GPU compiler (docs/explain-sources.md): the toolkit's
# ptxas/nvlink and libdevice not found; its timer's warning silent.
want_ids "jaxlib.xla_extension.XlaRuntimeError: NOT_FOUND: Couldn't find a suitable version of ptxas. The following locations were considered: /usr/local/cuda/bin/ptxas, ptxas" cuda-toolkit-not-found
want_ids "nvlink_path: Couldn't find a suitable version of nvlink." cuda-toolkit-not-found
want_ids 'InternalError: libdevice not found at ./libdevice.10.bc [Op:__inference_train_function_1234]' cuda-toolkit-not-found
want_ids "Couldn't find a suitable version of Python!" ""
want_ids 'E external/local_xla/xla/stream_executor/cuda/cuda_timer.cc:86] Delay kernel timed out: measured time has sub-optimal accuracy. There may be a missing warmup execution, please investigate in Nsight Systems.' ""
want_ids 'I tensorflow/compiler/xla/stream_executor/cuda/cuda_gpu_executor.cc:981] successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero' ""
# TensorFlow / XLA's stream executor read message by message (docs/
# explain-sources.md): ptxas not found or too old, the driver's linker,
# the cuInit diagnostics, allocator and device-selection messages; the
# fallbacks and notices around them silent.
want_ids "NOT_FOUND: Couldn't find ptxas. The following locations were considered: /usr/local/cuda/bin/ptxas, ptxas" cuda-toolkit-not-found
want_ids 'tensorflow.python.framework.errors_impl.InternalError: Failed to launch ptxas' cuda-toolkit-not-found
want_ids 'jaxlib.xla_extension.XlaRuntimeError: INTERNAL: XLA requires ptxas version 11.8 or higher' ptxas-too-old
want_ids 'E tensorflow/stream_executor/cuda/cuda_driver.cc:300] cuLinkAddData fails. This is usually caused by stale driver version.' driver-too-old-for-framework
want_ids 'E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:313] kernel version 470.57.2 does not match DSO version 525.85.12 -- cannot find working devices in this configuration' driver-library-mismatch
want_ids 'I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:163] no NVIDIA GPU device is present: /dev/nvidia0 does not exist' device-node-missing
want_ids 'InternalError: could not create CUDA event: out of device memory' cuda-out-of-memory
want_ids 'W tensorflow/stream_executor/stream.cc:2127] attempting to perform BLAS operation using StreamExecutor without BLAS support' cublas-handle-failed
want_ids 'InternalError: cuDNN launch failure : input shape ([64,4,4,512]) [Op:FusedBatchNormV3]' cudnn-execution-failed
want_ids 'F tensorflow/core/common_runtime/gpu/gpu_cudamallocasync_allocator.cc:145] TF_GPU_ALLOCATOR=cuda_malloc_async isn'"'"'t currently supported on GPU id 0: Possible causes: device not supported (request SM60+), driver too old,  OS not supported, CUDA version too old(request CUDA11.2+).' cuda-malloc-async-unsupported
want_ids 'I tensorflow/core/common_runtime/gpu/gpu_device.cc:1934] Ignoring visible gpu device (device: 0, name: AMD Radeon RX 6700 XT, pci bus id: 0000:03:00.0) with AMDGPU version : gfx1031. The supported AMDGPU versions are gfx1030, gfx900, gfx906, gfx908, gfx90a.' rocm-gfx-unsupported
want_ids 'InternalError: 2 potential peer access pairs were reported by the driver, but no peering could be enabled.' gpu-peer-access-unavailable
want_ids 'I tensorflow/core/common_runtime/gpu/gpu_device.cc:1605] Ignoring visible gpu device (device: 0, name: AMD A10-8700P Radeon R6, 10 Compute Cores 4C+6G, pci bus id: 0000:00:01.0) with AMDGPU ISA gfx801. The minimum required AMDGPU ISA is gfx803.' rocm-gfx-unsupported
want_ids 'F tensorflow/core/common_runtime/gpu/gpu_device.cc:122] EigenAllocator for GPU ran out of memory when allocating 3456. See error logs for more detailed info.' cuda-out-of-memory
want_ids 'FailedPreconditionError: Failed to allocate scratch buffer for device 0' cuda-out-of-memory
want_ids 'I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:156] kernel driver does not appear to be running on this host (nano): /proc/driver/nvidia/version does not exist' ""
want_ids 'I tensorflow/core/common_runtime/gpu/gpu_device.cc:1688] Ignoring visible gpu device (device: 1, name: GeForce GT 1030, pci bus id: 0000:04:00.0, compute capability: 6.1) with core count: 3. The minimum required count is 8. You can adjust this requirement with the env var TF_MIN_GPU_MULTIPROCESSOR_COUNT.' ""
want_ids 'W tensorflow/core/common_runtime/gpu/gpu_device.cc:2211] TensorFlow was not built with CUDA kernel binaries compatible with compute capability 8.6. CUDA kernels will be jit-compiled from PTX, which could take 30 minutes or longer.' ""
want_ids "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib\nW tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Cannot dlopen some TensorRT libraries. If you would like to use Nvidia GPU with TensorRT, please make sure the missing libraries mentioned above are installed properly." ""
want_ids 'W external/local_xla/xla/service/gpu/nvptx_compiler.cc:742] Falling back to the CUDA driver for PTX compilation; ptxas does not support CC 9.0\nUNIMPLEMENTED: /usr/local/cuda/bin/ptxas ptxas too old. Falling back to the driver to compile.' ""
want_ids 'I tensorflow/core/common_runtime/gpu/gpu_device.cc:1742] Could not identify NUMA node of platform GPU id 0, defaulting to 0.  Your kernel may not have been built with NUMA support.' ""
want_ids 'W tensorflow/core/kernels/gpu_utils.cc:49] Failed to allocate memory for convolution redzone checking; skipping this check. This is benign and only means that we won'"'"'t check cudnn for out-of-bounds reads and writes. This message will only be printed once.' ""
want_ids 'W tensorflow/core/kernels/conv_ops_gpu.cc:252] None of the algorithms provided by cuDNN heuristics worked; trying fallback algorithms.  Conv: batch: 1' ""
want_ids 'I tensorflow/compiler/xla/stream_executor/cuda/cuda_blas.cc:606] TensorFloat-32 will be used for the matrix multiplication. This will only be logged once.' ""
want_ids 'I tensorflow/stream_executor/rocm/rocm_diagnostics.cc:112] librocm reported version is: NOT_FOUND: was unable to find librocm.so DSO loaded into this program' ""
# Fallbacks that quote an error: BFC's "not a failure" is silent by the
# fallback rule; XLA's "We fallback to the NVIDIA driver" (one word, not
# in data/explain/fallback_wordings) is still read by the ptxas row (Left).
# want_ids "W external/xla/xla/service/gpu/nvptx_compiler.cc:679] Your CUDA software stack is old. We fallback to the NVIDIA driver for some compilation. Update your CUDA version to get the best performance. The ptxas error was: ptxas fatal   : Value 'sm_89' is not defined for option 'gpu-name'" ""
want_ids 'W tensorflow/core/common_runtime/bfc_allocator.cc:245] Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.19GiB with freed_by_count=0. The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory were available.' ""
# vLLM messages mined from the source (docs/explain-sources.md), same way.
want_ids "ValueError: Free memory on device cuda:0 (1.52/23.52 GiB) on startup is less than the engine's budget after excluding external process's weights (0.9, 21.16 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes." gpu-memory-held-by-other-processes
want_ids 'AssertionError: Error in memory profiling. Initial free memory 20.1 GiB, current free memory 22.3 GiB. This happens when other processes sharing the same container release GPU memory while vLLM is profiling during initialization.' gpu-memory-held-by-other-processes
want_ids 'ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token. Try increasing `gpu_memory_utilization`.' kv-cache-no-memory
want_ids 'RuntimeError: Physical device 3 for logical device 0 is not visible in CUDA_VISIBLE_DEVICES=0,1' cuda-visible-devices-invalid
want_ids 'IndexError: visible device ordinal 2 is out of range for HIP_VISIBLE_DEVICES=0,1' cuda-visible-devices-invalid
want_ids '(EngineCore_DP0 pid=1234) WARNING 12-07 10:00:00 [cuda.py:1039] Detected different devices in the system: NVIDIA GeForce RTX 4090, NVIDIA GeForce RTX 3090. Please make sure to set `CUDA_DEVICE_ORDER=PCI_BUS_ID` to avoid unexpected behavior.' cuda-device-order-differs
want_ids 'RuntimeError: failed to load the NCCL library for unique-id rendezvous' cuda-library-missing
want_ids 'RuntimeError: Could not load libcuda.so.1. The GPU driver library is required for VMM-backed tensors.' cuda-library-missing
want_ids 'RuntimeError: Could not load libamdhip64.so.7. The GPU driver library is required for VMM-backed tensors.' rocm-library-missing
want_ids 'ERROR 12-07 10:00:00 [pynccl_wrapper.py:387] Failed to load NCCL library from libnccl.so.2. It is expected if you are not running on NVIDIA/AMD GPUs.Otherwise, the nccl library might not exist, be corrupted or it does not support the current platform Linux-5.15. If you already have the library, please set the environment variable VLLM_NCCL_SO_PATH to point to the correct nccl library path.' ""
want_ids 'WARNING 12-07 10:00:00 [custom_all_reduce.py:284] Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.' ""
want_ids 'WARNING 12-07 10:00:00 [custom_all_reduce.py:430] MNNVL multimem reduce-scatter symmetric-memory allocation failed on at least one rank; falling back to NCCL.' ""
want_ids 'WARNING 12-07 10:00:00 [symm_mem.py:67] SymmMemCommunicator: Device capability 8.0 not supported, communicator is not available.' ""
want_ids 'WARNING 12-07 10:00:00 [symm_mem.py:47] SymmMemCommunicator: symmetric memory is not available.' ""
want_ids 'WARNING 12-07 10:00:00 [pynccl_allocator.py:100] Failed to compile NCCL memory allocator. Symmetric memory will be disabled. This is expected if NCCL headers are not available.' ""
want_ids 'WARNING 12-07 10:00:00 [pynccl_wrapper.py:414] The symbol ncclMemAlloc is not found in the NCCL library libnccl.so.2. To enable VLLM_USE_NCCL_SYMM_MEM  please update your NCCL version to >= 2.27.03.' ""
want_ids 'WARNING 12-07 10:00:00 [rocm.py:53] Failed to import from amdsmi with ModuleNotFoundError("No module named amdsmi")' ""
want_ids 'WARNING 12-07 10:00:00 [rocm.py:1126] Failed to get total memory via amdsmi, falling back to torch.cuda. This will initialize CUDA.' ""
want_ids "WARNING 12-07 10:00:00 [rocm.py:1061] Could not derive device capability from GCN arch 'gfx1151', falling back to torch.cuda (this will initialize CUDA)." ""
want_ids 'WARNING 12-07 10:00:00 [gpu_worker.py:166] Free memory grew by 1.2 GiB during profiling (initial 20.0 GiB, current 21.2 GiB). Sizing the KV cache from the 3.1 GiB torch reserved instead of the profiling difference.' ""
want_ids 'WARNING 12-07 10:00:00 [gpu_worker.py:828] CUDA graph memory profiling is disabled (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0). Without it, CUDA graph memory is not accounted for during KV cache allocation, which may require lowering --gpu-memory-utilization to avoid OOM.' ""
want_ids 'WARNING 12-07 10:00:00 [rocm_aiter_mla.py:390] KV cache is 2.5 GiB per layer, past the 2 GiB where the Gluon MLA kernel drops its KV bounds mask; using the padded ASM decode instead. Lower --gpu-memory-utilization or --max-model-len to get Gluon back.' ""
want_ids 'WARNING 12-07 10:00:00 [deep_gemm.py:160] DeepGEMM kernels are disabled: DeepGEMM JIT-compiles its kernels with nvcc, which is missing (CUDA_HOME, CUDA_PATH, PATH or /usr/local/cuda). Set CUDA_HOME to a CUDA toolkit to enable them.' ""
want_ids "WARNING 12-07 10:00:00 [deep_gemm.py:169] DeepGEMM kernels are disabled: DeepGEMM's JIT needs nvcc 12.9 or newer, found 12.4 at /usr/local/cuda/bin/nvcc. Set CUDA_HOME to a newer CUDA toolkit to enable them." ""
want_ids 'WARNING 12-07 10:00:00 [flashinfer.py:107] FlashInfer kernels are disabled: flashinfer-cubin is not installed and nvcc (CUDA_HOME, CUDA_PATH, PATH or /usr/local/cuda) or ninja (PATH) is missing.' ""
want_ids 'WARNING 12-07 10:00:00 [abstract.py:175] Disabling the extensible KV cache: cuMemCreate failed. The KV cache will be sized from profiling estimates instead of measured memory.' ""
want_ids "WARNING 12-07 10:00:00 [cuda.py:353] Using 'pin_memory=False' as WSL is detected and the WSL2 kernel version is below 4.19.121. This may slow down performance. Please run \`wsl --update\`." ""
# SGLang messages mined from the source (docs/explain-sources.md), same way.
want_ids 'ValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.6. Raise --mem-fraction-static above 0.712 (minimum viable = 1 - available/pre = 0.7115). If using speculative decoding, draft weights are now counted.' kv-cache-no-memory
want_ids 'RuntimeError: The memory capacity is unbalanced. Some GPUs may be occupied by other processes. pre_model_load_memory=20.5, local_gpu_memory=78.2, local_gpu_memory * 0.9=70.38' gpu-memory-held-by-other-processes
want_ids '[2026-12-07 10:00:00 TP1] The memory capacity is unbalanced. Some GPUs may be occupied by other processes. pre_model_load_memory=20.5, local_gpu_memory=78.2, local_gpu_memory * 0.9=70.38' gpu-memory-held-by-other-processes
want_ids 'RuntimeError: alloc_req_slots runs out of memory. Please set a smaller number for `--max-running-requests`. req_to_token_pool.available_size()=0, num_reqs=1, ' ""
want_ids '1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)\n3. if it is an OOM problem, set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)' ""
want_ids "ValueError: TP rank 1 could finish the model loading, but there are other ranks that didn't finish loading. It is likely due to unexpected failures (e.g., OOM) or a slow node." ""
want_ids '[2026-12-07 10:00:00] max_total_tokens=500000 is larger than the profiled value 300000. Use the profiled value instead.' ""
want_ids '[2026-12-07 10:00:00 TP0] CustomAllreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.' ""
want_ids '[2026-12-07 10:00:00 TP0] Failed to load NCCL library from libnccl.so.2 . It is expected if you are not running on NVIDIA/AMD/MTHREADS GPUs. Otherwise, the nccl library might not exist, be corrupted or it does not support the current platform Linux.' ""
want_ids '[2026-12-07 10:00:00 TP0] TorchSymmMemCommunicator: Device capability 8.0 not supported, communicator is not available.' ""
want_ids '[2026-12-07 10:00:00 TP0] Failed to import pynvml with ModuleNotFoundError("No module named pynvml")' ""
want_ids '[2026-12-07 10:00:00 TP0] pynvml not installed, skipping NUMA node configuration for GPU' ""
# ComfyUI's words for a caught GPU out-of-memory (execution.py, the
# attention and VAE fallbacks), same way; its warnings and fallbacks silent.
want_ids '2025-10-12 10:00:00,000 - root - ERROR - Got an OOM, unloading all loaded models.' cuda-out-of-memory
want_ids 'This error means you ran out of memory on your GPU.' cuda-out-of-memory
want_ids 'out of memory error, emptying cache and trying again' cuda-out-of-memory
want_ids 'out of memory error, increasing steps and trying again 4' cuda-out-of-memory
want_ids 'scaled_dot_product_attention OOMed: switched to slice attention' cuda-out-of-memory
want_ids 'ran out of memory while running softmax in  _get_attention_scores_no_kv_chunking, trying slower in place softmax instead' cuda-out-of-memory
want_ids 'RuntimeError: Not enough memory, use lower resolution (max approx. 1024x1024). Need: 5.0GB free, Have:1.2GB free' cuda-out-of-memory
want_ids 'WARNING: this card most likely does not support cuda-malloc, if you get "CUDA error" please run ComfyUI with: --disable-cuda-malloc' ""
want_ids 'Device: cuda:0 NVIDIA GeForce GTX 970 : cudaMallocAsync' ""
want_ids "Trying to enable lowvram mode because your GPU seems to have 4GB or less. If you don't want this use: --normalvram" ""
want_ids 'Device cuda:0 does not support the torch.fft functions used in the FreeU node, switching to CPU.' ""
want_ids 'Error running sage attention: Input tensors must be in dtype of torch.float16 or torch.bfloat16, using pytorch attention instead.' ""
want_ids 'loaded partially; 4691.20 MB usable, 4580.45 MB loaded, 4756.74 MB offloaded, 161.55 MB buffer reserved, lowvram patches: 0' ""
want_ids 'WARNING: conds not on same device, skipping concat.' ""
# bitsandbytes' native library (cextension.py, diagnostics), same way.
want_ids 'bitsandbytes library load error: No compatible CUDA binary found at /usr/lib/python3.12/site-packages/bitsandbytes/libbitsandbytes_cuda130.so' bitsandbytes-native-library-missing
want_ids 'RuntimeError: No compatible ROCm binary found at /opt/venv/lib/python3.12/site-packages/bitsandbytes/libbitsandbytes_rocm72.so' bitsandbytes-native-library-missing
want_ids '🚨 CUDA VERSION MISMATCH 🚨' bitsandbytes-native-library-missing
want_ids '🚨 Forgot to compile the bitsandbytes library? 🚨' bitsandbytes-native-library-missing
want_ids "RuntimeError: Method 'cadam32bit_grad_fp32' not available in CPU-only version of bitsandbytes." bitsandbytes-native-library-missing
want_ids 'WARNING: bitsandbytes is running as CPU-only!' bitsandbytes-native-library-missing
want_ids 'No compatible CUDA library found (tried: libbitsandbytes_cuda130.so). You may need to compile from source:' bitsandbytes-native-library-missing
want_ids 'CUDA SETUP: CUDA detection failed! Possible reasons:' bitsandbytes-native-library-missing
want_ids '🚨 CUDA SETUP ERROR: Missing dependency: libcudart.so.12 🚨' cuda-library-missing
want_ids '🚨 ROCm SETUP ERROR: Missing dependency: libamdhip64.so.6 🚨' rocm-library-missing
want_ids "Attempted to use bitsandbytes native library functionality but it's not available." ""
want_ids 'No prebuilt binary for CUDA 12.9, loading CUDA 12.8 instead. Set BNB_CUDA_VERSION to override.' ""
want_ids 'WARNING: BNB_CUDA_VERSION=124 environment variable detected; loading libbitsandbytes_cuda124.so.' ""
want_ids 'WARNING: Compute capability < 7.5 detected! Only slow 8-bit matmul is supported for your GPU!' ""
want_ids 'CUDA SETUP: WARNING! CUDA runtime files not found in any environmental path.' ""
want_ids 'Could not detect ROCm GPU architecture: [Errno 2] No such file or directory: rocminfo' ""
# accelerate (state.py, utils/) and stable-diffusion-webui's launch and NaN
# checks, same way.
want_ids "NotImplementedError: Using RTX 4000 series doesn't support faster communication broadband via P2P or IB. Please set \`NCCL_P2P_DISABLE=\"1\"\` and \`NCCL_IB_DISABLE=\"1\" or use \`accelerate launch\` which will do this automatically." gpu-peer-access-unavailable
want_ids 'Device 1 is not available, available devices are [0]' ""
want_ids 'RuntimeError: No executable batch size found, reached zero.' ""
want_ids 'RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check' ""
want_ids "modules.devices.NansException: A tensor with all NaNs was produced in Unet. This could be either because there's not enough precision to represent the picture, or because your video card does not support half type. Try setting the \"Upcast cross attention layer to float32\" option in Settings > Stable Diffusion or using the --no-half commandline argument to fix this. Use --disable-nan-check commandline argument to disable this check." ""
# xFormers (xformers/_cpp_lib.py, ops/fmha/common.py and dispatch.py, the
# CUTLASS kernel's arch dispatch), same way: the operators' "too new" and
# sm80 refusals; "wasn't build with CUDA support" follows a library built
# for another CUDA PyTorch, and is no CPU-only build then (a +cpu PyTorch
# still is); fallbacks and per-operator reasons that are no GPU cause stay
# silent.
want_ids '`cutlassF-pt` is not supported because:\n    requires device with capability <= (9, 0) but your GPU has capability (12, 0) (too new)' gpu-arch-unsupported-by-framework
want_ids '    requires device with capability < (5, 0) but your GPU has capability (12, 0) (too new)' gpu-arch-unsupported-by-framework
want_ids '    requires device with capability == (8, 0) but your GPU has capability (9, 0) (too new)' ""
want_ids '    requires NVidia GPU with sm80 minimum compute capacity, e.g., A100/H100/L4' gpu-too-old-for-kernel-library
want_ids '    requires GPU with sm80 minimum compute capacity, e.g., A100/H100/L4' gpu-too-old-for-kernel-library
want_ids '`tritonflashattF` is not supported because:\n    requires A100 GPU' gpu-too-old-for-kernel-library
want_ids '    requires a GPU with compute capability > 7.5' gpu-too-old-for-kernel-library
want_ids 'RuntimeError: Your device is too old. We require compute capability >= 50' gpu-too-old-for-kernel-library
want_ids "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.6.0+cu124 with CUDA 1204 (you have 2.6.0+cu126)\n    Python  3.12.8 (you have 3.12.9)\n\`fa2F@v2.5.7-pt\` is not supported because:\n    xFormers wasn't build with CUDA support" extension-torch-abi-mismatch
want_ids "xFormers was built for:\n    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cpu)\n    xFormers wasn't build with CUDA support" "extension-torch-abi-mismatch framework-cpu-only-build"
want_ids 'WARNING[XFORMERS]: Need to compile C++ extensions to use all xFormers features.\n    Please install xformers properly (see https://github.com/facebookresearch/xformers#installing-xformers)\n  Memory-efficient attention, SwiGLU, sparse and more won'"'"'t be available.' ""
want_ids 'NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:' ""
want_ids "\`cutlassF\` is not supported because:\n    device=cpu (supported: {'cuda'})\n    bf16 is only supported on A100+ GPUs" ""
want_ids "    operator wasn't built - see \`python -m xformers.info\` for more info\n    triton is not available" ""
want_ids "    requires a GPU with compute capability 8.0 (A100) or 9.0 (H100) for dropout when 'query.shape[-1] > 128'" ""
want_ids 'A matching Triton is not available, some optimizations will not be enabled' ""
want_ids 'Triton is not available, some optimizations will not be enabled.\nThis is just a warning: No module named '"'"'triton'"'"'' ""
want_ids 'Flash-Attention 3 package can'"'"'t be used: flash_attn_3::fwd operator is not compatible' ""
want_ids 'ImportError: Requires Flash-Attention version >=2.7.1,<=2.8.4 but got 2.5.8.' ""
# DeepSpeed (op_builder/builder.py, op_builder/*.py is_compatible,
# deepspeed/env_report.py, accelerator/real_accelerator.py), same way:
# prebuilt ops of another torch, a JIT load refused for an old GPU, the JIT
# builder's probe without a visible GPU or after a fork, ds_report's
# CUDA_HOME line; accepted or overridden CUDA mismatches, ds_report's per-op
# warnings and the CPU accelerator fallback stay silent.
want_ids 'nvcc version ..................... \x1b[91m [FAIL] cannot find CUDA_HOME via torch.utils.cpp_extension.CUDA_HOME=None \x1b[0m' cuda-toolkit-not-found
want_ids 'RuntimeError: PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different version than what is being used at runtime. Please re-install DeepSpeed or switch torch versions. Install torch version=2.0, Runtime torch version=2.1' extension-torch-abi-mismatch
want_ids 'RuntimeError: CUDA version mismatch! DeepSpeed ops were compiled and installed with a different version than what is being used at runtime. Please re-install DeepSpeed or switch torch versions. Install CUDA version=11.7, Runtime CUDA version=11.8' extension-torch-abi-mismatch
want_ids 'RuntimeError: Unable to JIT load the transformer_inference op due to it not being compatible due to hardware/software issue. NVIDIA Inference is only supported on Pascal and newer architectures' gpu-too-old-for-kernel-library
want_ids 'RuntimeError: Unable to JIT load the fp_quantizer op due to it not being compatible due to hardware/software issue. NVIDIA Inference is only supported on Ampere and newer architectures' gpu-too-old-for-kernel-library
want_ids 'RuntimeError: Unable to JIT load the evoformer_attn op due to it not being compatible due to hardware/software issue. Please use a GPU with compute capability >= 7.0' gpu-too-old-for-kernel-library
want_ids 'RuntimeError: Unable to JIT load the async_io op due to it not being compatible due to hardware/software issue. async_io requires the dev libaio .so object and headers but these were not found.' ""
want_ids "RuntimeError: DeepSpeed JIT builder for 'fused_adam' found no CUDA devices. Set TORCH_CUDA_ARCH_LIST or make GPUs visible." cuda-visible-devices-hides-all
want_ids "RuntimeError: DeepSpeed JIT builder for 'fused_adam' cannot probe CUDA device capabilities in a forked subprocess where CUDA has already been initialized. Set TORCH_CUDA_ARCH_LIST to specify target architectures explicitly." cuda-fork-after-init
want_ids 'Installed CUDA version 11.8 does not match the version torch was compiled with 11.7 but since the APIs are compatible, accepting this combination' ""
want_ids ' [WARNING]  DeepSpeed Op Builder: Installed CUDA version 12.1 does not match the version torch was compiled with 11.8.Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this combination of CUDA, but it may result in unexpected behavior.' ""
want_ids ' [WARNING]  cpu_adam cuda is missing or is incompatible with installed torch, only cpu ops can be compiled!' ""
want_ids ' [WARNING]  NVIDIA Inference is only supported on Ampere and newer architectures' ""
want_ids " [WARNING]  Filtered compute capabilities [['6', '0'], ['6', '1']]" ""
want_ids ' [WARNING]  sparse_attn requires a torch version >= 1.5 and < 2.0 but detected 2.1\n [WARNING]  using untested triton version (2.1.0), only 1.0.0 is known to be compatible' ""
want_ids ' [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.' ""
want_ids 'RuntimeError: Unable to JIT load the fused_adam op due to ninja not being installed.' ""
want_ids 'RuntimeError: Unable to load fused_adam op due to no compute capabilities remaining after filtering' ""
want_ids "  [WARNING] /dev/shm size might be too small, if running in docker increase to at least --shm-size='1gb' " ""
want_ids '[WARNING] [real_accelerator.py:194:get_accelerator] Setting accelerator to CPU. If you have GPU or other accelerator, we were unable to detect it.' ""
# Importing deepspeed marks an op it cannot probe as not compatible and
# goes on (builder.py, probe_is_compatible): silent by the fallback rule
# ("treating the op as not compatible"); a real "CUDA_HOME does not exist"
# failure is still named (the row's own tests).
want_ids ' [WARNING]  cpu_adam compatibility check failed (CUDA_HOME does not exist, unable to compile CUDA op(s)), treating the op as not compatible' ""
# JAX (jax/_src/xla_bridge.py, jax_plugins/cuda/__init__.py,
# jax/_src/lib/__init__.py), same way: the CUDA plugin's component checks,
# inside "CUDA backend failed to initialize: ..." or "Unable to initialize
# backend 'cuda': ..."; a plugin whose initialize() raised is installed, so
# JAX's "CUDA-enabled jaxlib is not installed" after it is no CPU-only
# build. Fallbacks, other platforms and jax/jaxlib version checks stay
# silent.
want_ids 'WARNING:2024-01-01 00:00:00,000:jax._src.xla_bridge:909: CUDA backend failed to initialize: Unable to load cuDNN. Is it installed? (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)' cudnn-missing
want_ids "RuntimeError: Unable to initialize backend 'cuda': Unable to load cuSPARSE. Is it installed? (you may need to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)" cuda-library-missing
want_ids 'CUDA backend failed to initialize: Unable to load CUDA. Is it installed? (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)' cuda-library-missing
want_ids 'RuntimeError: Unable to use CUDA because of the following issues with CUDA components:\nUnable to load CUDA. Is it installed?\n--------------------------------------------------\nUnable to load cuDNN. Is it installed?' cuda-library-missing
want_ids "RuntimeError: Unable to initialize backend 'cuda': Unable to use CUDA because of the following issues with CUDA components:\nOutdated cuBLAS installation found.\nVersion JAX was built against: 120201\nMinimum supported: 120100\nInstalled version: 120002\nThe local installation version must be no lower than 120100." cuda-library-missing
want_ids 'CUDA backend failed to initialize: Found CUDA version 12010, but JAX was built against version 12020, which is newer. The copy of CUDA that is installed must be at least as new as the version against which JAX was built. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)' cuda-library-missing
want_ids 'CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built against version 8801, which is newer. The copy of cuDNN that is installed must be at least as new as the version against which JAX was built.' cudnn-version-mismatch
want_ids 'RuntimeError: cuDNN 9.10.0 had a binary backward-compatibility issue due to reordered enum values affecting block-scale datatypes. Found runtime version 91000 and build version 91001. Please upgrade to 9.10.1 or above.' cudnn-version-mismatch
want_ids 'RuntimeWarning: Device 0 has CUDA compute capability 3.7 which is lower than the minimum supported compute capability 5.2. See https://jax.readthedocs.io/en/latest/installation.html#nvidia-gpu for more details' gpu-arch-unsupported-by-framework
want_ids 'ERROR:jax._src.xla_bridge:Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()\nTraceback (most recent call last):\nRuntimeError: Unable to load cuDNN. Is it installed?\nWARNING:jax._src.xla_bridge:An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.' cudnn-missing
want_ids 'ERROR:jax._src.xla_bridge:Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()\nWARNING:jax._src.xla_bridge:An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.' ""
want_ids 'ERROR:jax._src.xla_bridge:Jax plugin configuration error: Exception when calling jax_plugins.xla_rocm.initialize()\nValueError: No AMD GPUs were found, skipping ROCm plugin initialization\nWARNING:jax._src.xla_bridge:An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.' "framework-cpu-only-build"
want_ids 'WARNING:jax._src.xla_bridge:No GPU/TPU found, falling back to CPU. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)' ""
want_ids 'A Google TPU may be present on this machine, but either a TPU-enabled jaxlib or libtpu is not installed. Falling back to cpu.' ""
want_ids "RuntimeError: Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are present. Platforms present are: cpu" ""
want_ids "RuntimeError: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices. (set JAX_PLATFORMS='' to automatically choose an available backend)" ""
want_ids 'CUDA backend failed to initialize: INTERNAL: no supported devices found for platform CUDA.This may be due to JAX pre-allocating too much device memory, leaving too little for CUDA library initialization.' ""
want_ids 'RuntimeError: jaxlib is version 0.4.20, but this version of jax requires version >= 0.4.25.' ""
want_ids 'RuntimeError: jaxlib version 0.4.30 is newer than and incompatible with jax version 0.4.26. Please update your jax and/or jaxlib packages.' ""
want_ids 'cuBLAS < 13.2 (120900 found) has a known issue where many kernels free TMEM buffers multiple times. Executing a cuBLAS kernel concurrently with another kernel (e.g. on another stream) can lead to silent data corruption.' ""
want_ids 'WARNING:jax_plugins.xla_cuda12:cuda_plugin_extension is not found.' ""
# Hugging Face transformers (modeling_utils.py's FlashAttention 2 checks,
# quantizers' validate_environment) and diffusers (attention_processor.py's
# xFormers switch), same way: quantized modules put on the CPU for want of GPU
# memory, a GPU below a quantizer's floor; dequantizing fallbacks, a GPU
# PyTorch does not see and missing packages stay silent.
want_ids 'ValueError: Some modules are dispatched on the CPU or the disk. Make sure you have enough GPU RAM to fit the quantized model. If you want to dispatch the model on the CPU or the disk while keeping these modules in 32-bit, you need to set `load_in_8bit_fp32_cpu_offload=True` and pass a custom `device_map` to `from_pretrained`.' cuda-out-of-memory
want_ids 'ValueError: FP8 quantized models is only supported on GPUs with compute capability >= 9.0 (e.g H100)' gpu-too-old-for-kernel-library
want_ids 'ValueError: FP8 quantized models is only supported on GPUs with compute capability >= 8.9 (e.g 4090/H100), actual = `6.1`' gpu-too-old-for-kernel-library
want_ids 'ValueError: MXFP4 quantized models is only supported on GPUs with compute capability >= 9.0 (e.g H100, or B100)' gpu-too-old-for-kernel-library
want_ids 'ValueError: MXFP4 quantization is only supported on GPUs with compute capability >= 7.5 (e.g T4, A100, L4, H100, or B200) or XPUs (e.g Intel Data Center GPU Max Series) ' gpu-too-old-for-kernel-library
want_ids 'FP8 quantized models is only supported on GPUs with compute capability >= 8.9 (e.g 4090/H100), actual = `8.0`. We will default to dequantizing the model to bf16. Feel free to use a different quantization method like bitsandbytes or torchao' ""
want_ids 'MXFP4 quantization is only supported on GPUs with compute capability >= 7.5 (e.g T4, A100, L4, H100, or B200) or XPUs (e.g Intel Data Center GPU Max Series) We will default to dequantizing the model to bf16.' ""
want_ids 'Using MXFP4 quantized models requires a GPU, we will default to dequantizing the model to bf16' ""
want_ids 'RuntimeError: No GPU found. A GPU is needed for quantization.' ""
want_ids 'ValueError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: Flash Attention 2 is not available on CPU. Please make sure torch can access a CUDA device.' ""
want_ids 'ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package flash_attn seems to be not installed. Please refer to the documentation of https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash Attention 2.' ""
want_ids "You are attempting to use Flash Attention 2.0 with a model not initialized on GPU. Make sure to move the model to GPU after initializing it on CPU with \`model.to('cuda')\`." ""
want_ids 'Flash Attention 2.0 only supports torch.float16 and torch.bfloat16 dtypes, but the current dype in LlamaForCausalLM is torch.float32.' ""
want_ids "You have loaded an FP8 model on CPU and have a CUDA device available, make sure to set your model on a GPU device in order to run your model. To remove this warning, pass device_map = 'cuda'. " ""
want_ids "ValueError: torch.cuda.is_available() should be True but is False. xformers' memory efficient attention is only available for GPU " ""
want_ids "ModuleNotFoundError: Refer to https://github.com/facebookresearch/xformers for more information on how to install xformers" ""
want_ids 'ValueError: xformers is not available. Make sure it is installed correctly' ""
# llama.cpp's context set-up when a backend buffer cannot be allocated
# (src/llama-context.cpp: graph_reserve's "failed to allocate compute
# buffers", then "failed to allocate compute pp|tg buffers"; the KV cache's
# "failed to allocate buffer for kv cache"); where ggml-alloc.c names the
# CPU buffer type as the one that failed, it is host memory, not the GPU's.
want_ids 'Failed to initialize the context: failed to allocate compute pp buffers' cuda-out-of-memory
want_ids 'llama_init_from_model: failed to initialize the context: failed to allocate compute tg buffers' cuda-out-of-memory
want_ids 'graph_reserve: failed to allocate compute buffers' cuda-out-of-memory
want_ids 'Failed to initialize the context: failed to allocate buffer for kv cache' cuda-out-of-memory
want_ids 'ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 292926534144\nllama_new_context_with_model: failed to allocate compute buffers' cuda-out-of-memory
want_ids 'alloc_tensor_range: failed to allocate CPU buffer of size 437944320\nllama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache' ""
want_ids 'ggml_gallocr_reserve_n: failed to allocate CPU buffer of size 1073741824\ngraph_reserve: failed to allocate compute buffers' ""
want_ids 'llama_kv_cache: CPU KV buffer size = 512.00 MiB\ngraph_reserve: failed to allocate compute buffers' cuda-out-of-memory
want_ids 'vkEnumeratePhysicalDevices returned VK_INCOMPLETE' ""
want_ids 'vk::Instance::enumeratePhysicalDevices: Incomplete' ""
want_ids 'pyopencl._cl.LogicError: clGetPlatformIDs failed: PLATFORM_NOT_FOUND_KHR' gpu-library-error
want_ids 'pyopencl._cl.MemoryError: clEnqueueNDRangeKernel failed: MEM_OBJECT_ALLOCATION_FAILURE' cuda-out-of-memory
want_ids 'Status: OUT_OF_RESOURCES' ""
want_ids 'OpenCL Error: clEnqueueReadBuffer: CL_OUT_OF_RESOURCES (-5)' cuda-out-of-memory
want_ids 'clEnqueueNDRangeKernel failed with error code -5' cuda-out-of-memory
want_ids 'failed with error code -1001 (Unknown)' gpu-library-error
want_ids 'Error -5 while decompressing data: incomplete or truncated stream' ""
want_ids 'copy failed with error code -5' ""
want_ids 'CUDA error -1' ""
want_ids 'error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)' cuda-out-of-memory
want_ids 'DmlExecutionProvider\src\BucketizedBufferAllocator.cpp(122): Exception(1) tid(4790) 8007000E Not enough memory resources are available to complete this operation.' cuda-out-of-memory
want_ids 'HRESULT 0x8007000E: Not enough memory resources are available to complete this operation.' ""
want_ids 'RuntimeError: hipsolver error: HIPSOLVER_STATUS_ALLOC_FAILED' cuda-out-of-memory
# rocBLAS falls back to TensileLibrary.dat when the GPU's gfx target has no
# library of its own; "Cannot read" it, with or without "for GPU arch".
want_ids 'rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory' rocm-gfx-unsupported
want_ids 'rocBLAS error: Cannot read C:\\x\\rocblas/library/TensileLibrary.dat: Illegal seek' rocm-gfx-unsupported
# PyTorch's XPU backend (Intel GPUs) words its out-of-memory and no-device
# like CUDA's, and so do Level Zero and the Unified Runtime.
want_ids 'RuntimeError: XPU out of memory. Tried to allocate 2.00 GiB (GPU 0; 7.75 GiB total capacity; 5.10 GiB already allocated)' cuda-out-of-memory
want_ids 'RuntimeError: level_zero backend failed with error: 40 (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)' cuda-out-of-memory
want_ids 'UserWarning: XPU device count is zero! (Triggered internally at ../c10/xpu/XPUFunctions.cpp:115.)' cuda-visible-devices-hides-all
# A PyTorch build without the backend a device type needs.
want_ids 'RuntimeError: PyTorch is not linked with support for mps devices' framework-cpu-only-build
want_ids 'RuntimeError: PyTorch is not linked with support for xpu devices' framework-cpu-only-build
# Windows removed or reset the GPU (DXGI_ERROR_DEVICE_REMOVED, _HUNG, _RESET)
# in any of its spellings; other DXGI errors are not that: -2005270524 is
# DXGI_ERROR_UNSUPPORTED (0x887A0004), an operation or feature level the
# GPU or its driver does not support, in any of its spellings too.
want_ids 'Exception(3) tid(1828) 887A0005 The GPU device instance has been suspended. Use GetDeviceRemovedReason to determine the appropriate action.' gpu-device-removed
want_ids 'RuntimeError: Unknown error -2005270522' gpu-device-removed
want_ids 'hr = DXGI_ERROR_DEVICE_HUNG' gpu-device-removed
want_ids 'RuntimeError: Unknown error -2005270524' gpu-operation-not-supported
want_ids 'Renderer encountered an unexpected error: 0x887a0004 The specified device interface or feature level is not supported on this system.' gpu-operation-not-supported
want_ids 'HRESULT 0x887A0001 DXGI_ERROR_INVALID_CALL' ""
# The same event in the kernel driver's, the OS's and programs' words: the
# GPU hung or crashed and was reset (i915, xe, amdgpu; Windows' TDR event
# and nvlddmkm's, a failed TDR's bug check; Metal's watchdog; xenia's
# fatal error, also as users retype it). Words about a ring or a reset that
# report no hang are not that.
want_ids 'i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:0020fffe, in xdg-desktop-por [1676]' gpu-device-removed
want_ids '[ 2103.983856] i915 0000:00:02.0: chrome[1818] context reset due to GPU hang' gpu-device-removed
want_ids 'xe 0000:03:00.0: [drm] GT0: Timedout job: seqno=4294967169, lrc_seqno=4294967169, guc_id=2, flags=0x0 in glmark2 [1234]' gpu-device-removed
want_ids 'kernel: [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx timeout, signaled seq=152958, emitted seq=152961' gpu-device-removed
want_ids 'amdgpu 0000:0b:00.0: amdgpu: ring gfx_0.0.0 timeout, but soft recovered' gpu-device-removed
want_ids 'amdgpu 0000:07:00.0: amdgpu: GPU reset begin!\n[drm] VRAM is lost due to GPU reset!' gpu-device-removed
want_ids 'Warning 9/21/2023 11:02:14 AM Display 4101\n    Display driver nvlddmkm stopped responding and has successfully recovered' gpu-device-removed
want_ids 'Error 9/21/2023 11:02:13 AM nvlddmkm 0\n    \\\\Device\\\\Video3\n    Error occurred on GPUID: 100' gpu-device-removed
want_ids 'Your PC ran into a problem and needs to restart.\nStop code: VIDEO_TDR_FAILURE\nWhat failed: nvlddmkm.sys' gpu-device-removed
want_ids 'Execution of the command buffer was aborted due to an error during execution. Caused GPU Timeout Error (00000002:kIOAccelCommandBufferCallbackErrorTimeout)' gpu-device-removed
want_ids 'Execution of the command buffer was aborted due to an error during execution. Caused GPU Hang Error (00000003:kIOGPUCommandBufferCallbackErrorHang)' gpu-device-removed
want_ids 'Graphics device lost (probably due to an internal error)' gpu-device-removed
want_ids 'Graphics Device Lost Due to an Internal Error' gpu-device-removed
want_ids '[drm] ring gfx test failed (scratch(0x2040)=0xCAFEDEAD)' ""
want_ids 'Execution of the command buffer was aborted due to an error during execution. Ignored (for causing prior/excessive GPU errors) (00000004:kIOGPUCommandBufferCallbackErrorSubmissionsIgnored)' ""
# A program that checks each NCCL call names the call that failed, often
# without NCCL's string (nnabla, ggml, fprintf wrappers); a word that only
# begins with "nccl" is no call.
want_ids 'ncclCommInitRank failed.' nccl-error
want_ids 'ggml_cuda_world_init_once: ncclCommInitRank failed: unhandled system error' nccl-error
want_ids 'ncclGroupEnd failed' nccl-error
want_ids 'mynccl_helper failed' ""
# A CUDA description with its own number before it is CUDA's though the
# line names no library: Claymore's "failed 8 (0), invalid device
# function" (8: the runtime's numbering before CUDA 10.1), a printf
# wrapper's "98: ..."; another number, a version or a short description
# ("unknown error") is not read so.
want_ids 'GPU 0, GpuMiner cu_kd failed 8 (0), invalid device function' gpu-arch-unsupported-by-framework
want_ids 'kernel returned 98: invalid device function' gpu-arch-unsupported-by-framework
want_ids 'error (8): invalid device function' gpu-arch-unsupported-by-framework
want_ids 'GPU 0, GpuMiner cu_kd failed 9, invalid device function' ""
want_ids 'plugin v1.8, invalid device function' ""
want_ids 'job failed 30, unknown error' ""
# Excavator quotes the driver's CUresult: "CUDA error DRIVER: '700'".
want_ids "CUDA error DRIVER: '700' in func 'run_single_stream' line 960" illegal-memory-access
want_ids "CUDA error DRIVER: '999' in func 'run_single_stream' line 978" cuda-unknown-error
# Windows's loader cannot find an entry point in a ROCm DLL: a ROCm library
# of another release than the program's.
want_ids 'The procedure entry point rocblas_gemm_ex3 could not be located in the dynamic link library C:\\x\\rocblas.dll.' rocm-library-missing
want_ids 'The procedure entry point foo could not be located in the dynamic link library C:\\x\\bar.dll.' ""
# The HIP SDK's DLLs (hip*.dll, roc*.dll, MIOpen.dll) are ROCm libraries.
want_ids 'failed to load library hipblaslt.dll' rocm-library-missing
want_ids 'Could not load library MIOpen.dll. Error code 126' rocm-library-missing
# ---- Chinese logs (issue #31, ecosystem-10) ---------------------------------
# A status number after a full-width separator, as a Chinese input method
# types it ("：", "（", "＝", "＃", the ideographic space): the same code.
want_ids 'RuntimeError：CUDA error：700' illegal-memory-access
want_ids 'cudaError（2）' cuda-out-of-memory
want_ids 'cuda runtime error（59）：device-side assert triggered' device-side-assert
want_ids '报错 CUDA error ＃　2' cuda-out-of-memory
want_ids 'CUDA error：700abc' ""
# Descriptions and messages inside Chinese prose and full-width wrappings.
want_ids '启动时报错：CUDA error: all CUDA-capable devices are busy or unavailable（请帮忙）' exclusive-process-busy
want_ids '24G显存运行时报 CUDA out of memory，怎么办？' cuda-out-of-memory
# GBK text decoded as UTF-8 (mojibake, lone bytes) around an error: no crash,
# valid JSON, the error still found.
printf '\xb1\xa8\xb4\xed\xa3\xba RuntimeError: CUDA error: an illegal memory access was encountered \xa3\xa8\xc4\xe3\n\xd5\xd2\xb2\xbb\xb5\xbd\xa3\xba\xff\n' >"$T/gbk.log"
"$G" explain --json "$T/gbk.log" >"$T/out.json" 2>/dev/null; rc=$?
[ "$rc" = 0 ] && [ "$(ids_of "$T/out.json" 2>/dev/null)" = "illegal-memory-access " ] \
	|| fail "GBK bytes around an error: exit $rc $(head -c 300 "$T/out.json")"
"$G" explain "$T/gbk.log" >/dev/null 2>&1; rc=$?
[ "$rc" = 0 ] || fail "GBK bytes around an error, text output: exit $rc"
# The linker names a library by its option: ld's "cannot find -lcuda" (and
# its Chinese translation), lld's "unable to find library -lcuda" are the
# missing-library rule's, for the libraries data/sonames.tsv knows.
want_ids '/usr/bin/ld: 找不到 -lcuda\ncollect2: error: ld returned 1 exit status' cuda-library-missing
want_ids '/usr/bin/ld: cannot find -lcuda: No such file or directory' cuda-library-missing
want_ids 'ld.lld: error: unable to find library -lnvidia-ml' nvml-library-missing
want_ids '/usr/bin/ld: cannot find -lfoo' ""
want_ids 'gcc main.c -lcuda -o main' ""
# Triton's launcher build failing because ld cannot find libcuda.so is that
# library's absence, not a missing or broken C compiler.
want_ids "/usr/bin/ld: 找不到 -lcuda\\nsubprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/t/main.c', '-O3', '-shared', '-fPIC', '-lcuda', '-o', '/tmp/t/x.so']' returned non-zero exit status 1." cuda-library-missing
want_ids "subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/t/main.c', '-O3', '-shared', '-fPIC', '-lcuda', '-o', '/tmp/t/x.so']' returned non-zero exit status 1." jit-host-compiler-failed
printf '%s\n' '/usr/bin/ld: cannot find -lcudart' >"$T/lib.log"
got="$(lib_of "$T/lib.log" 2>&1)"
[ "$got" = "cuda-library-missing -lcudart | CUDA runtime | - | nvidia-cuda-runtime-cu12" ] || fail "library rule: -lcudart: got [$got]"
# PyTorch's memory-efficient attention has no CUTLASS kernel for this GPU
# and dtype (bfloat16 before Ampere), forward or backward.
want_ids 'RuntimeError: cutlassF: no kernel found to launch!' gpu-too-old-for-kernel-library
want_ids '原版本提示：RuntimeError: cutlassB: no kernel found to launch!' gpu-too-old-for-kernel-library
# A loader that says "could not open" and a library's file name (Warp's
# cuda_util.cpp); a driver version of 0.0 is no driver library loaded, not
# an old driver.
want_ids 'Warp CUDA error: Could not open libcuda.so.' cuda-library-missing
want_ids 'Warp CUDA error: Could not open libcuda.so.\n   CUDA Toolkit 12.8, Driver 0.0 (insufficient CUDA driver version!)' cuda-library-missing
want_ids 'Could not open config.yaml' ""
# PyTorch's legacy constructors (torch.FloatTensor(x)) check the device of
# their argument (tensor_new.cpp): "expected TensorOptions(... device=cpu
# ...) (got TensorOptions(... device=cuda ...))" is a tensor on the other device.
want_ids 'TypeError: expected TensorOptions(dtype=float, device=cpu, layout=Strided, requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt)) (got TensorOptions(dtype=float, device=cuda:0, layout=Strided, requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt)))' tensors-on-different-devices
want_ids 'TypeError: expected TensorOptions(dtype=float, device=cpu, layout=Strided) (got TensorOptions(dtype=double, device=cpu, layout=Strided))' ""
# ---- pasted spacing (issue #31, ecosystem-11) -------------------------------
# A row's regex is written with the single spaces the program prints; a
# paste that doubles them (a re-joined wrapped line, justified text) still
# matches, and so does a row's veto.
want_ids "onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is set but CUDA wasn't  able to be loaded" cuda-library-missing
want_ids "CUDA_PATH is set but CUDA wasn't\table to be loaded" cuda-library-missing
want_ids 'OOM when allocating tensor with shape[1] and type float by allocator  cpu' ""
# Python's "DLL load failed" ImportError (dynload_win.c) ends with Windows'
# own text in the system's language; any language says a DLL cannot load.
want_ids 'ImportError: DLL load failed: Impossibile trovare la procedura specificata.' windows-dll-load-failed
want_ids 'ImportError: DLL load failed while importing _pywrap_tensorflow_internal: Le module spécifié est introuvable.' windows-dll-load-failed
want_ids 'ImportError: DLL load failed with error code 3221225501 while importing _C' windows-dll-load-failed
want_ids 'print("DLL load failed")' ""
# ---- scientific GPU software (issue #31, ecosystem-12) -----------------------
# A library named by its bare name, "<name> library not found" (scikit-cuda's
# cufft.py, cublas.py: raise OSError('cufft library not found')): the name
# is lib<name>.so of data/sonames.tsv.
want_ids "OSError: cufft library not found" cuda-library-missing
want_ids "ERROR: cuFFT library not found in /usr/local/cuda/lib64" cuda-library-missing
want_ids "OSError: cublas library not found" cuda-library-missing
want_ids "sndfile library not found" ""
want_ids "Error: the requested library not found" ""
# ... or by the component data/sonames.tsv names (scikit-cuda's cudart.py:
# raise OSError('CUDA runtime library not found')); a component glued to
# another word is not one.
want_ids "OSError: CUDA runtime library not found" cuda-library-missing
want_ids "HIP runtime library not found" rocm-library-missing
want_ids "xCUDA runtime library not found" ""
# The discovery verbs with nvcc as their object (CMake's cmake_cuda_find_toolkit:
# "Failed to find nvcc.\nCompiler requires the CUDA toolkit. ..."); a build
# that goes on without CUDA, or another program named nvcc-something, is not.
want_ids "CMake Error at /usr/share/cmake/Modules/CMakeDetermineCUDACompiler.cmake:180 (message):\n  Failed to find nvcc.\n\n  Compiler requires the CUDA toolkit.  Please set the CUDAToolkit_ROOT\n  variable." cuda-toolkit-not-found
want_ids "RuntimeError: Failed to find nvcc." cuda-toolkit-not-found
want_ids "error: cannot find nvcc on PATH" cuda-toolkit-not-found
want_ids "Could not find nvcc, building without CUDA support" ""
want_ids "failed to find nvcc-wrapper.py" ""
# PyTorch 0.2-0.3's type names in the convolution's check (Tensor::toString):
# a CUDA name against a CPU one is the devices; two CUDA types are a dtype.
want_ids "RuntimeError: Input type (CUDAFloatTensor) and weight type (CPUFloatTensor) should be the same" tensors-on-different-devices
want_ids "RuntimeError: Input type (CPUFloatTensor) and weight type (CUDAFloatTensor) should be the same" tensors-on-different-devices
want_ids "RuntimeError: Input type (CUDADoubleTensor) and weight type (CUDAFloatTensor) should be the same" ""
# CMake's find_package_handle_standard_args for cuDNN's package (PyTorch's
# FindCUDNN.cmake, Caffe2's FindCuDNN.cmake); a version it rejects, or another package, is not.
want_ids "-- Could NOT find CUDNN (missing: CUDNN_LIBRARY_PATH CUDNN_INCLUDE_PATH)" cudnn-missing
want_ids 'Could NOT find CUDNN: Found unsuitable version "7.6.5", but required is at least "8"' ""
want_ids "-- Could NOT find CUDNNX (missing: CUDNNX_LIBRARY)" ""
# Paddle 0.x-1.x's C++ core asked for a GPU place in a build without CUDA.
want_ids "'CUDA' is not supported, Please re-compile with WITH_GPU option" framework-cpu-only-build
want_ids "W0117 18:10:04.852438  2572 init.cc:56] 'GPU' is not supported, Please re-compile with WITH_GPU option" framework-cpu-only-build
want_ids "CUDAPlace is not supported, please re-compile with WITH_GPU=ON." framework-cpu-only-build
# nvcc's driver check of its host compiler (a Visual Studio newer than the
# toolkit, MinGW g++ on Windows).
want_ids "nvcc fatal   : Host compiler targets unsupported OS." nvcc-host-compiler-unsupported
# Vulkan's VkResult names (vulkan_core.h): VK_ERROR_OUT_OF_DEVICE_MEMORY is
# the GPU's memory exhausted (Omniverse's "VkResult: ERROR_OUT_OF_DEVICE_MEMORY").
want_ids "[Error] [carb.graphics-vulkan.plugin] VkResult: ERROR_OUT_OF_DEVICE_MEMORY" cuda-out-of-memory
want_ids "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY" cuda-out-of-memory
want_ids "VkResult: ERROR_OUT_OF_HOST_MEMORY" ""
# ---- image, speech and compiler GPU software (issue #31, ecosystem-13) -------
# TensorRT's "CUDA initialization failure with error N": N is the CUDA
# status the runtime returned (35 the old driver, 100 no device, 222 a PTX
# too new); a full stop after the number ends the sentence, a digit after
# it makes a version.
want_ids "ERROR: Cuda initialization failure with error 35. Please check cuda installation:  http://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html." driver-too-old-for-framework
want_ids "[W] [TRT] CUDA initialization failure with error: 222. Please check your CUDA installation" ptx-toolchain-too-new
want_ids "[E] [TRT] Cuda initialization failure with error 100. Please check cuda installation" cuda-visible-devices-hides-all
want_ids "built against CUDA error 12.1 headers" ""
# TensorRT's "[file::function::line] Error Code N: ..." is TensorRT's own
# nvinfer1::ErrorCode (6: kFAILED_INITIALIZATION), not CUDA's code 6.
want_ids "[TensorRT] INTERNAL ERROR: [runtime.cpp::isCudaInstalledCorrectly::41] Error Code 6: Internal Error (CUDA initialization failure with error 2. Please check your CUDA installation)" cuda-out-of-memory
want_ids "[TRT] [E] 6: [runtime.cpp::isCudaInstalledCorrectly::41] Error Code 6: Internal Error (CUDA runtime fails)" ""
# The CUDA samples' checkCudaErrors() (helper_cuda.h: "CUDA error at %s:%d
# code=%d(%s)") and its copies without the name: the code after the place.
want_ids 'CUDA error at patch_based_synthesis/src/ebsynth_cuda.cu:598 code=2 "cudaDeviceSynchronize()"' cuda-out-of-memory
want_ids 'CUDA error at kernel.cu:41 code=700 "cudaDeviceSynchronize()"' illegal-memory-access
want_ids "CUDA error at startup, exit code=2" ""
# ---- inference runtimes and compilers (issue #31, ecosystem-14) ------------
# TVM looks a back end up in its registry by name and stops when the build
# left it out (USE_CUDA OFF): codegen.cc's "Target cuda is not enabled"
# (before 2020), "target.build.cuda ... is not enabled" since; the runtime's
# device_api.cc "Device API cuda is not enabled." ("gpu" before 2021).
want_ids "tvm._ffi.base.TVMError: [18:14:07] src/codegen/codegen.cc:27: Check failed: bf != nullptr Target cuda is not enabled" framework-cpu-only-build
want_ids "ValueError: target.build.cuda is not enabled" framework-cpu-only-build
want_ids "Check failed: bf != nullptr: target.build.cuda -keys=cuda,gpu -max_num_threads=1024 is not enabled" framework-cpu-only-build
want_ids "InternalError: Check failed: (allow_missing) is false: Device API cuda is not enabled." framework-cpu-only-build
want_ids "TVMError: Check failed: allow_missing: Device API gpu is not enabled." framework-cpu-only-build
want_ids "Device API vulkan is not enabled." framework-cpu-only-build
want_ids "Check failed: bf != nullptr Target llvm is not enabled" ""
want_ids "Device API rpc is not enabled." ""
want_ids "Warning: CUDA graph capture is not enabled" ""
# ---- serving, conversion and LLM projects (issue #31, ecosystem-15) -------
# TensorRT's "CUDA initialization failure with error N" prints the CUDA
# runtime's status number (35: the driver too old, 100: no device); a '.'
# that ends the sentence still leaves the number a status code, one that
# goes on with a digit (a version) does not.
want_ids '[E] [TRT] Cuda initialization failure with error 35. Please check cuda installation' driver-too-old-for-framework
want_ids '[W] [TRT] CUDA initialization failure with error: 35. Please check your CUDA installation' driver-too-old-for-framework
want_ids '[E] [TRT] CUDA initialization failure with error 100. Please check your CUDA installation' cuda-visible-devices-hides-all
want_ids 'RuntimeError: CUDA error 700.' illegal-memory-access
want_ids 'CUDA error 12.1' ""
# candle's DeviceMismatchBinaryOp (candle-core/src/error.rs: "device mismatch
# in {op}, lhs: {lhs:?}, rhs: {rhs:?}"), raised by every binary op whose two
# tensors are on different devices.
want_ids 'called `Result::unwrap()` on an `Err` value: device mismatch in cmp, lhs: Cuda { gpu_id: 0 }, rhs: Cpu' tensors-on-different-devices
want_ids 'Error: device mismatch in matmul, lhs: Cpu, rhs: Metal { gpu_id: 0 }' tensors-on-different-devices
want_ids 'warning: device mismatch in the config file' ""
# TensorRT's engine header check: the plan's magic tag is not the one this
# TensorRT reads (TensorRT 7: "Serialization Error in verifyHeader: 0 (Magic
# tag does not match)"; 8 and later: "Serialization assertion magicTagRead ==
# kMAGIC_TAG failed.Magic tag does not match"), as with its version tag.
want_ids '[TensorRT] ERROR: coreReadArchive.cpp (31) - Serialization Error in verifyHeader: 0 (Magic tag does not match)' tensorrt-engine-incompatible
want_ids 'ERROR: 1: [stdArchiveReader.cpp::StdArchiveReader::30] Error Code 1: Serialization (Serialization assertion magicTagRead == kMAGIC_TAG failed.Magic tag does not match)' tensorrt-engine-incompatible
want_ids 'unzip: Magic tag does not match' ""
# PyTorch's Windows DLL loader (torch/__init__.py, copied by IPEX and other
# extensions) adds 'Error loading "X.dll" or one of its dependencies.' to
# whatever LoadLibraryExW returned: 126, 127 (a procedure not found: another
# version of a dependency), a policy block; the paging file (1455) has its id.
want_ids 'OSError: [WinError 127] The specified procedure could not be found. Error loading "C:\\x\\intel_extension_for_pytorch\\bin\\intel-ext-pt-gpu.dll" or one of its dependencies.' windows-dll-load-failed
want_ids 'OSError: [WinError 4551] An Application Control policy has blocked this file. Error loading "C:\\x\\torch\\lib\\shm.dll" or one of its dependencies.' windows-dll-load-failed
want_ids 'OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading "C:\\x\\torch\\lib\\caffe2_detectron_ops_gpu.dll" or one of its dependencies.' windows-paging-file-too-small
want_ids "System.IO.FileNotFoundException: Could not load file or assembly 'Foo, Version=1.0.0.0' or one of its dependencies." ""
# PyTorch's cuDNN algorithm iterator (aten/src/ATen/native/cudnn/Conv_v7.cpp,
# AlgoIterator::try_all) and ONNX Runtime's copy of it give up with "Unable
# to find a valid cuDNN algorithm to run convolution" once every algorithm
# it tried failed, most often each for want of memory for its workspace.
want_ids 'RuntimeError: Unable to find a valid cuDNN algorithm to run convolution' cuda-out-of-memory
want_ids 'Non-zero status code returned while running ConvGrad node. Name:'"'"'Conv_Grad/ConvGrad_0'"'"' Status Message: Unable to find a valid cuDNN algorithm to run convolution.' cuda-out-of-memory
want_ids 'cuDNN: found a valid algorithm for the convolution' ""
# ---- speech, TTS and Chinese LLM projects (issue #31, ecosystem-17) -----
# DeepSpeed's GEMM wrappers (csrc/.../cublas_wrappers.cu and their copies)
# print the call's sizes before cuBLAS's status: "!!!! kernel execution
# error. (m: 1280, n: 3075, k: 1280, error: 13)"; 13 is
# CUBLAS_STATUS_EXECUTION_FAILED, 14 CUBLAS_STATUS_INTERNAL_ERROR.
want_ids '!!!! kernel execution error. (m: 1280, n: 3075, k: 1280, error: 13) ' cublas-execution-failed
want_ids '!!!! kernel execution error. (batch: 60, m: 64, n: 1025, k: 1025, error: 14) ' gpu-library-error
want_ids '!!!! kernel execution error. (m: 1280, n: 3075, k: 1280) ' ""
want_ids 'kernel execution error. (m: 1280, notes: many, error: 13)' ""
# PyTorch's c10/cuda/driver_api.cpp looks up driver functions with dlsym in
# libcuda.so.1 and libnvidia-ml.so.1 ("Can't find NAME: " + dlerror()); a
# function missing from the driver's own library is a driver older than
# the framework; an undefined symbol of another library is not.
want_ids "RuntimeError: r.nvmlDeviceGetNvLinkRemoteDeviceType_ INTERNAL ASSERT FAILED at \"../c10/cuda/driver_api.cpp\":27, please report a bug to PyTorch. Can't find nvmlDeviceGetNvLinkRemoteDeviceType: /lib64/libnvidia-ml.so.1: undefined symbol: nvmlDeviceGetNvLinkRemoteDeviceType" driver-too-old-for-framework
want_ids "RuntimeError: Can't find cuMemCreate: /usr/lib/x86_64-linux-gnu/libcuda.so.1: undefined symbol: cuMemCreate" driver-too-old-for-framework
want_ids 'ImportError: /x/libfoo.so: undefined symbol: nvmlInit_v2' ""
# CTranslate2 (faster-whisper, WhisperX) built without CUDA:
# src/devices.cc, str_to_device(): "This CTranslate2 package was not
# compiled with CUDA support"; its Metal and XPU builds say the same of those.
want_ids 'ValueError: This CTranslate2 package was not compiled with CUDA support' framework-cpu-only-build
want_ids 'ValueError: This CTranslate2 package was not compiled with Metal support' ""
# ---- messages left without a mechanism (issue #31, exleft) ---------------
# PyTorch's cuDNN v8 path (Conv_v8.cpp) ran no engine config: memory, a
# dtype, the GPU's architecture or a broken cuDNN, the line does not say
# which; the log's line that does names it.
want_ids 'RuntimeError: GET was unable to find an engine to execute this computation' ""
want_ids 'RuntimeError: FIND was unable to find an engine to execute this computation' ""
want_ids 'NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\nRuntimeError: GET was unable to find an engine to execute this computation' gpu-arch-unsupported-by-framework
# TensorFlow's conv kernels: cuDNN failed to initialise; the version check's
# line, when the log has it, adds the cause.
want_ids 'tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so try looking to see if a warning log message was printed above.' cudnn-handle-failed
want_ids 'E tensorflow/stream_executor/cuda/cuda_dnn.cc:324] Loaded runtime CuDNN library: 7.1.4 but source was compiled with: 7.2.1.\nUnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so try looking to see if a warning log message was printed above.' 'cudnn-version-mismatch cudnn-handle-failed'
want_ids 'UnknownError: Failed to get convolution algorithm. This is probably because MIOpen failed to initialize, so try looking to see if a warning log message was printed above.' ""
# TensorRT: "Error Code 2" is kINTERNAL_ERROR; the category says OutOfMemory.
want_ids '[TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::145] Error Code 2: OutOfMemory (no further information)' cuda-out-of-memory
want_ids '[E] [TRT] 2: [executionContext.cpp::ExecutionContext::410] Error Code 2: OutOfMemory (Requested size was 1073741824 bytes.)' cuda-out-of-memory
want_ids '[TRT] [E] 2: [optimizer.cpp::computeCosts::3728] Error Code 2: Internal Error (Assertion false failed.)' ""
want_ids 'class OutOfMemoryHandler: pass' ""
# torch_xla without a CUDA client; other unknown device names are typos.
want_ids "RuntimeError: torch_xla/csrc/runtime/runtime.cc:16 : Check failed: !was_initialized \nRuntimeError: Unknown PJRT_DEVICE 'CUDA'" framework-cpu-only-build
want_ids "RuntimeError: Unknown PJRT_DEVICE 'TPU_LEGCY'" ""
# "a PTX JIT compilation failed" (218) on a GPU the log names by model
# (data/nvidia_gpus.tsv): a Blackwell GPU, or one the shown build list
# lacks, is the architecture; an older GPU without a list, or one the list
# has, stays the invalid call.
want_ids 'Device 0: NVIDIA GeForce RTX 5090\nRuntimeError: CUDA driver error: CUDA_ERROR_INVALID_PTX' gpu-arch-unsupported-by-framework
want_ids 'jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to load in-memory CUBIN: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed\nFound GPU: NVIDIA GeForce RTX 5080' gpu-arch-unsupported-by-framework
want_ids 'Device 0: NVIDIA GeForce RTX 3090\nRuntimeError: CUDA driver error: CUDA_ERROR_INVALID_PTX' gpu-invalid-call
want_ids 'RuntimeError: CUDA driver error: CUDA_ERROR_INVALID_PTX' gpu-invalid-call
want_ids 'Device 0: NVIDIA GeForce RTX 5090\nbuilt for targets: sm_80 sm_90 sm_100 sm_120\nRuntimeError: CUDA driver error: CUDA_ERROR_INVALID_PTX' gpu-invalid-call
want_ids 'cudaErrorInvalidPtx: a PTX JIT compilation failed\nGPU 0: Tesla T4 (UUID: GPU-1)' gpu-invalid-call
# ---- robotics, simulation and vision projects (issue #31, ecosystem-18) ----
# habitat-sim's check that it may open /dev/nvidiaN for its EGL device, and
# Magnum's EGL context when no EGL device is the CUDA device it was given
# (no NVIDIA GPU): old and new wordings; another EGL error is neither.
want_ids 'F0301 18:29:35.160429 14841 WindowlessContext.cpp:117] Check failed: isNvidiaGpuReadable(eglDevId) [EGL] EGL device 3, CUDA device 2 is not readable' device-permission-denied
want_ids 'Platform::WindowlessEglApplication::tryCreateContext(): unable to find CUDA device 1 among 3 EGL devices in total' no-gpu
want_ids 'Platform::WindowlessEglApplication::tryCreateContext(): unable to find EGL device for CUDA device 0' no-gpu
want_ids 'The config file is not readable' ""
want_ids 'Platform::WindowlessEglApplication::tryCreateContext(): cannot query EGL devices: EGL_BAD_ALLOC' ""
# PhysX (Isaac Sim / Isaac Lab) reports a failed GPU kernel launch as "GPU
# kernel '%s' failed to launch with error %u!!" with the CUresult (400:
# CUDA_ERROR_INVALID_HANDLE); the bare "failed to launch with error N" of
# job launchers (Open MPI, PMIx) and apps is no GPU status.
want_ids "[Error] [omni.physx.plugin] PhysX error: GPU kernel 'aggCopyReports' failed to launch with error 400!!" gpu-invalid-call
want_ids 'PhysX error: GPU kernel "bpSignalComplete" failed to launch with error 700!!' illegal-memory-access
want_ids "PhysX error: GPU kernel 'solveContactBlock' execution failed with error 700!" illegal-memory-access
want_ids 'JOB FAILED TO LAUNCH WITH ERROR 1:unknown' ""
want_ids 'Application failed to launch with error 2' ""
# XLA and TensorFlow's stream executor return a failed CUDA call as the
# driver's description, a line break and the call (RETURN_IF_CUDA_ERROR in
# stream_executor/cuda/cuda_asm_compiler.cc): the call names the library.
# "device kernel image is invalid" is the string of codes 200 and 300 both:
# one message, whose generic invalid call folds into the mismatch.
xla_link="RuntimeError: UNKNOWN: device kernel image is invalid\nin external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_asm_compiler.cc(69): 'cuLinkComplete(link_state, &cubin_out, &cubin_size)'"
want_ids "$xla_link" "gpu-arch-unsupported-by-framework"
"${PYS[@]}" -c 'import json,sys
m = json.load(open(sys.argv[1]))["matches"][0]
assert (m["line"], m["code"]["name"], m["excerpt"]) == (1, "CUDA_ERROR_INVALID_IMAGE", "RuntimeError: UNKNOWN: device kernel image is invalid"), m' "$T/out.json" ||
	fail "explain: XLA's call line: wrong code, line or excerpt"
want_ids "jaxlib.xla_extension.XlaRuntimeError: UNKNOWN: a PTX JIT compilation failed\nin external/xla/xla/stream_executor/cuda/cuda_asm_compiler.cc(185): 'cuLinkAddData(link_state, type, ptr, size, name, 0, nullptr, nullptr)'" gpu-invalid-call
want_ids "INTERNAL: out of memory\n  in xla/stream_executor/cuda/cuda_driver.cc(512): 'cudaMalloc(&ptr, bytes)'" cuda-out-of-memory
# Not a CUDA call, not the next line, or a description that does not end its line.
want_ids "host ran out of memory\nin src/loader.cc(12): 'load_file(path)'" ""
want_ids "UNKNOWN: out of memory\nretrying\nin x.cc(3): 'cuMemAlloc(&p, n)'" ""
want_ids "UNKNOWN: out of memory while reading the index\nin x.cc(3): 'cuMemAlloc(&p, n)'" ""
# habitat-sim's sensors assert "Must build habitat sim with cuda for
# gpu2gpu-transfer" (habitat_sim/simulator.py, sensors) when the installed
# build has no CUDA; gpu2gpu_transfer=False is a setting, no error.
want_ids 'AssertionError: Must build habitat sim with cuda for gpu2gpu-transfer' framework-cpu-only-build
want_ids 'it will report"must build habitat-sim with cuda for gpu2gpu-transfer"' framework-cpu-only-build
want_ids 'sensor_spec.gpu2gpu_transfer = False' ""
# ---- holdout-8 and holdout-9, read at stop 40 (issue #31) ----------------
# CUDA's device assert without its backquoted condition (lost to markdown)
# and on a line of its own after a wrapped function signature.
want_ids 'x/THCTensorIndex.cu:275: void indexSelectSmallIndex(TensorInfo<T, IndexType>) [with T = float]:\nblock: [0,0,0], thread: [1,0,0] Assertion  failed.' device-side-assert
want_ids 'block: [12,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.' device-side-assert
want_ids 'Assertion failed: block 0 thread 1' ""
# sherpa-onnx asked for the CUDA provider of an ONNX Runtime without one.
want_ids 'session.cc:GetSessionOptionsImpl:167 Please compile with -DSHERPA_ONNX_ENABLE_GPU=ON. Available providers: CPUExecutionProvider, . Fallback to cpu!' framework-cpu-only-build
want_ids 'Please compile with -DSHERPA_ONNX_ENABLE_GPU=ON. Fallback to cpu!' framework-cpu-only-build
want_ids 'cmake -DCMAKE_BUILD_TYPE=Release -DSHERPA_ONNX_ENABLE_GPU=ON ..' ""
# A companion or extension built for another CUDA than torch: torchaudio's
# check, PyG's (and its template's), torchvision's own id.
want_ids 'RuntimeError: Detected that PyTorch and TorchAudio were compiled with different CUDA versions. PyTorch has CUDA version 11.8 whereas TorchAudio has CUDA version 11.7.' torch-companion-mismatch
want_ids 'RuntimeError: Detected that PyTorch and TorchAudio were compiled with\ndifferent CUDA versions. PyTorch has CUDA version 13.0 whereas TorchAudio' torch-companion-mismatch
want_ids 'RuntimeError: Detected that PyTorch and torch_scatter were compiled with different CUDA versions. PyTorch has CUDA version 11.8 and torch_scatter has CUDA version 11.7.' extension-torch-abi-mismatch
want_ids 'RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions.' torchvision-torch-mismatch
want_ids 'both were compiled with gcc 11' ""
# Windows' loader codes in every wording: 126 (not found), 127 and 1114
# (found, not loaded) are windows-dll-load-failed for a DLL the table does
# not know or a path cut short; a known library found but not loaded (127,
# 193, 1114) is not a missing one.
want_ids 'RuntimeError: D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1209 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 1114 "" when trying to load "C:\\Users\\m' windows-dll-load-failed
want_ids 'FAIL : LoadLibrary failed with error 127 "" when trying to load "C:\\x\\onnxruntime_providers_cuda.dll"' windows-dll-load-failed
want_ids 'FAIL : LoadLibrary failed with error 126 "" when trying to load "C:\\Us' windows-dll-load-failed
want_ids 'FAIL : LoadLibrary failed with error 1114 "" when trying to load "C:\\x\\cudnn64_9.dll"' windows-dll-load-failed
want_ids 'Could not load library cudnn_ops_infer64_8.dll. Error code 193' ""
want_ids 'FAIL : LoadLibrary failed with error 126 "" when trying to load "C:\\x\\onnxruntime_providers_cuda.dll"' cuda-library-missing
want_ids 'Could not load library cudnn_ops_infer64_8.dll. Error code 126' cudnn-missing
want_ids 'FAIL : LoadLibrary failed with error 11140 "" when trying to load "C:\\x\\cudnn64_9.dll"' cudnn-missing
want_ids 'bash: error code 126 while loading' ""
# ---- read sets' last misses, each a class (issue #31, exrest) --------------
# Today's 6, 7 and 8 are profiler codes no runtime since CUDA 5.0 returns
# (driver_types.h marks them deprecated): a bare number is the old code.
want_ids 'Faiss assertion failed in runL2Norm at impl/L2Norm.cu:238; details: CUDA error 8' gpu-arch-unsupported-by-framework
want_ids 'CUDA error 4' gpu-library-error
# Triton's TablePrinter cuts a long cell every width characters and goes on
# with it on the next table line, the other cells blank.
want_ids '+-----+---+-----------------------+\n| m   | 1 | UNAVAILABLE: CUDA err |\n|     |   | or: an illegal memory |\n|     |   |  access was encounter |\n|     |   | ed                    |\n+-----+---+-----------------------+' illegal-memory-access
want_ids '| 0 | CUDA error: out |\n| 1 |  of memory      |' ""
want_ids 'cudaMemPoolCreate(&pool, &props) failed: operation not supported' cuda-malloc-async-unsupported
# PyTorch's own words for cudaErrorInitializationError from the device count.
want_ids 'RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.' cuda-init-failed
# A log written as UTF-16 with a byte order mark (Windows PowerShell's >).
printf 'x\r\nRuntimeError: CUDA error: out of memory\r\n' | "${PYS[@]}" -c \
	'import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode().encode("utf-16"))' >"$T/u16.log"
"$G" explain --json "$T/u16.log" >"$T/out.json" 2>/dev/null
[ "$(ids_of "$T/out.json" 2>/dev/null)" = "cuda-out-of-memory " ] || fail "explain: a UTF-16 log"
# ptxas says the same ".target" refusal as a fatal error too.
want_ids 'ptxas fatal   : PTX .version 8.4 does not support .target sm_120' gpu-arch-unsupported-by-framework
want_ids "Value 'fast' is not defined for option 'mode'" ""
want_ids 'this card does not support sm_90 features' ""
# A compiler that does not know its target (nvcc, ptxas, clang) names it,
# and data/cuda_toolkit_arch.tsv says which way: a target newer than the
# toolkit, or one the toolkit dropped.
target_of() {
	"${PYS[@]}" -c 'import json,sys
m = json.load(open(sys.argv[1]))["matches"][0]; a = m.get("arch") or {}
print(m["id"], a.get("target"), a.get("target_first_cuda"), a.get("target_dropped_in_cuda"), a.get("torch_builds"))' "$1"
}
for c in \
	"nvcc fatal   : Unsupported gpu architecture 'compute_86'|compiler-gpu-target-unknown compute_86 11.1 - " \
	"    ptxas fatal   : Value 'sm_30' is not defined for option 'gpu-name'|compiler-gpu-target-unknown sm_30 - 11.0 " \
	"nvcc fatal   : Value 'sm_35' is not defined for option 'gpu-architecture'|compiler-gpu-target-unknown sm_35 - 12.0 " \
	"clang: error: Unsupported CUDA gpu architecture: sm_61|compiler-gpu-target-unknown sm_61 8.0 13.0 " \
	"error: GPU arch sm_20 is supported by CUDA versions between 7.0 and 8.0 (inclusive), but installation at /usr/local/cuda-11.7 is 11.0.|compiler-gpu-target-unknown sm_20 - 9.0 " \
	"ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'|compiler-gpu-target-unknown sm_121 12.9 - " \
	"nvcc fatal   : Unsupported gpu architecture 'compute_99'|compiler-gpu-target-unknown compute_99   "; do
	printf '%s\n' "${c%%|*}" >"$T/t.log"
	"$G" explain --json "$T/t.log" >"$T/out.json" 2>/dev/null
	got="$(target_of "$T/out.json" 2>&1)"
	[ "$got" = "${c#*|}" ] || fail "compiler target: ${c%%|*}: got [$got]"
done
"$G" explain "nvcc fatal   : Unsupported gpu architecture 'compute_86'" >"$T/o" 2>&1
grep -q 'Target: compute_86 needs CUDA 11.1 or newer' "$T/o" ||
	fail "compiler target: no direction in the text"
"$G" explain "ptxas fatal   : Value 'sm_30' is not defined for option 'gpu-name'" >"$T/o" 2>&1
grep -q 'Target: sm_30 was dropped in CUDA 11.0' "$T/o" ||
	fail "compiler target: no dropped release in the text"
want_ids "Value 'sm_86' is defined for option 'gpu-name'" ""
want_ids "unsupported gpu architecture list in the README" ""
# The hint fits the tool: ptxas refusing a JIT compiler's target in a
# Triton or XLA log suggests no PyTorch wheel; a PyTorch build's does.
printf '%s\n' "NVIDIA GeForce RTX 5090" "triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error" \
	"ptxas fatal   : Value 'sm_120' is not defined for option 'gpu-name'" >"$T/t.log"
"$G" explain --json "$T/t.log" >"$T/out.json" 2>/dev/null
[ "$(target_of "$T/out.json" 2>&1)" = "compiler-gpu-target-unknown sm_120 12.8 - " ] ||
	fail "compiler target: Triton's ptxas suggested a torch wheel: $(target_of "$T/out.json" 2>&1)"
"$G" explain "$T/t.log" >"$T/o" 2>&1
grep -q 'PyTorch wheels' "$T/o" && fail "compiler target: Triton's ptxas: PyTorch wheels in the text"
printf '%s\n' "  File \"/x/triton/compiler/compiler.py\", line 9, in compile" \
	"ptxas /tmp/filePpgwy4, line 6; error   : PTX .version 7.4 does not support .target sm_89" >"$T/t.log"
"$G" explain --json "$T/t.log" >"$T/out.json" 2>/dev/null
[ "$(arch_of "$T/out.json" 2>&1)" = "gpu-arch-unsupported-by-framework sm_89 |  | unknown" ] &&
	grep -q '"torch_builds": ""' "$T/out.json" || fail "ptxas .target under Triton suggested a torch wheel"
printf '%s\n' "NVIDIA GeForce RTX 5090" "nvcc fatal   : Unsupported gpu architecture 'compute_120'" >"$T/t.log"
"$G" explain --json "$T/t.log" >"$T/out.json" 2>/dev/null
"${PYS[@]}" -c 'import json,sys
assert "cu128" in json.load(open(sys.argv[1]))["matches"][0]["arch"]["torch_builds"].split()' "$T/out.json" ||
	fail "compiler target: an extension build lost its torch wheels"
# Calls that fail after a build without code for the GPU are its
# consequences: the generic invalid call folds into the mismatch, which
# keeps its own line and code; without a mismatch it stays.
want_ids 'RuntimeError: CUDA error: invalid resource handle\nRuntimeError: CUDA error: no kernel image is available for execution on the device' gpu-arch-unsupported-by-framework
"${PYS[@]}" -c 'import json,sys
m = json.load(open(sys.argv[1]))["matches"][0]
assert (m["line"], m["count"]) == (2, 2), m' "$T/out.json" || fail "explain: folded invalid call: wrong line or count"
want_ids 'hipErrorInvalidImage: device kernel image is invalid\nhipErrorInvalidValue: invalid argument' rocm-gfx-unsupported
want_ids 'RuntimeError: CUDA error: invalid resource handle' gpu-invalid-call
# So do the kernel libraries' execution failures (their texts' first
# reason); alone they stay (ecosystem-24's ivadomed#952).
want_ids 'RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\nRuntimeError: CUDA error: no kernel image is available for execution on the device' gpu-arch-unsupported-by-framework
want_ids 'RuntimeError: CUBLAS error: CUBLAS_STATUS_EXECUTION_FAILED when calling cublasSgemm\nRuntimeError: CUDA error: no kernel image is available for execution on the device' gpu-arch-unsupported-by-framework
want_ids 'RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED' cudnn-execution-failed
# ecosystem-24 and -25's classes: a CPU-only torch's missing CUDA
# bindings, a container's device entry that matches no GPU, a GPU that
# reads as all ones (Linux's PCI core for a GPU driver, NVIDIA's macOS
# driver); another device's power state or torch._C attribute is not one.
want_ids "AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'" framework-cpu-only-build
want_ids "AttributeError: module 'torch._C' has no attribute '_CudaDeviceProperties'" framework-cpu-only-build
want_ids "AttributeError: module 'torch._C' has no attribute '_jit_pass_inline'" ""
want_ids "stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: device error: 2: unknown device: unknown" cuda-visible-devices-invalid
# The NVIDIA container stack and device plugin, mined from their source
# (docs/explain-sources.md): the cli's NVML init status, the runtime's
# driver lookup, CDI's unresolved "all" device, go-nvml's status names, the
# device plugin's unresolved platform; their notices stay silent.
want_ids 'nvidia-container-cli: initialization error: nvml error: unknown error: unknown.' container-toolkit-driver-error
want_ids 'docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: failed to create NVIDIA Container Runtime: failed to construct OCI spec modifier: failed to construct discoverer: failed to create Xorg discoverer: failed to locate libcuda.so: pattern libcuda.so.*.*.* not found: unknown.' container-toolkit-driver-error
want_ids 'docker: Error response from daemon: CDI device injection failed: unresolvable CDI devices nvidia.com/gpu=all.' container-without-gpu
want_ids 'Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all' container-without-gpu
want_ids 'Error: crun: failed to inject CDI devices: unresolvable CDI devices vendor.com/device=foo' ""
want_ids 'ERRO[0000] error generating CDI specification: failed to create device CDI specs: failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND' nvml-library-missing
want_ids 'failed to generate CDI spec: failed to create device CDI specs: failed to initialize NVML: ERROR_DRIVER_NOT_LOADED' nvidia-driver-not-loaded
want_ids 'I1207 10:00:00.000000       1 main.go:235] Failed to initialize NVML: ERROR_LIB_RM_VERSION_MISMATCH.' driver-library-mismatch
want_ids 'I1207 10:00:00.000000       1 main.go:235] Failed to initialize NVML: ERROR_UNKNOWN.' nvml-unknown-error
want_ids 'E1207 10:00:00.000000       1 factory.go:118] Incompatible strategy detected unknown' container-without-gpu
want_ids 'E1207 10:00:00.000000       1 factory.go:118] Incompatible strategy detected wsl' ""
want_ids "stderr: Auto-detected mode as 'legacy'" ""
want_ids 'I1207 10:00:00.000000 1234 nvc.c:396] dxcore initialization failed, continuing assuming a non-WSL environment' ""
want_ids 'E1207 10:00:00.000000       1 server.go:155] Failed to start health check: failed to create event set: Not Supported; continuing with health checks disabled' ""
want_ids 'W1207 10:00:00.000000       1 health.go:107] Device GPU-abc is too old to support healthchecking.' ""
want_ids 'kernel: nvidia 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible' gpu-lost
want_ids "kernel: nvidia 0000:01:00.0: can't change power state from D3cold to D0 (config space inaccessible)" gpu-lost
want_ids "kernel: xhci_hcd 0000:01:00.2: can't change power state from D3cold to D0 (config space inaccessible)" ""
want_ids 'panic(cpu 2 caller 0xffffff7f85f35c0b): "GPU Panic: [<None>] 3 3 7f 0 0 0 0 3 : NVRM[0/1:0:0]: Read Error 0x00000100: CFG 0xffffffff 0xffffffff 0xffffffff, BAR0 0xd2000000' gpu-lost
# ecosystem-49's classes: a build that cannot find CUDA says what it
# looked for on the same line (find_cuda_helper's "cuda installation",
# TVM's USE_CUDA switch, vcpkg's "download and install CUDA"); CUDA drivers,
# a device, an unsuitable version or a build that goes on without CUDA are
# not a missing toolkit.
want_ids "  Could not find a cuda installation" cuda-toolkit-not-found
want_ids "RuntimeError: Could not find a CUDA installation with nvcc. DeepGEMM JIT-compiles kernels at runtime and needs nvcc available." cuda-toolkit-not-found
want_ids "CMake Error at cmake/modules/CUDA.cmake:30 (message):\n  Cannot find CUDA, USE_CUDA=ON" cuda-toolkit-not-found
want_ids "  Could not find CUDA.  Before continuing, please download and install CUDA\n  (v10.1.0 or higher) from:" cuda-toolkit-not-found
want_ids "-- Could not find CUDA, building without GPU support" ""
want_ids "Could not find CUDA installation, falling back to CPU" ""
want_ids "Could not find CUDA device. Please install CUDA drivers" ""
# ecosystem-26's classes: llamafile's fatal line when the GPU module it
# was told to use (--gpu amd, --gpu nvidia) could be neither loaded nor
# built (llamafile/cuda.c, import_cuda); Apple's Metal has no id. Unsloth's
# stop when torch sees no accelerator (unsloth/__init__.py before 2025.9,
# unsloth_zoo/device_type.py after): a torch without GPU code, unless the
# CUDA build's own warning names the missing driver.
want_ids "fatal error: support for --gpu amd was explicitly requested, but it wasn't available" rocm-library-missing
want_ids "fatal error: support for --gpu amd --tinyblas was explicitly requested, but it wasn't available" rocm-library-missing
want_ids "fatal error: support for --gpu nvidia was explicitly requested, but it wasn't available" cuda-library-missing
want_ids "fatal error: support for --gpu apple was explicitly requested, but it wasn't available" ""
want_ids 'NotImplementedError: Unsloth: No NVIDIA GPU found? Unsloth currently only supports GPUs!' framework-cpu-only-build
want_ids 'NotImplementedError: Unsloth cannot find any torch accelerator? You need a GPU.' framework-cpu-only-build
want_ids 'NotImplementedError: Unsloth currently only works on NVIDIA, AMD and Intel GPUs.' framework-cpu-only-build
want_ids 'NotImplementedError: Unsloth detected signs of an AMD ROCm GPU, but your current PyTorch build has no usable HIP accelerator.' framework-cpu-only-build
want_ids "UserWarning: CUDA initialization: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\nNotImplementedError: Unsloth: No NVIDIA GPU found? Unsloth currently only supports GPUs!" nvidia-driver-not-loaded
# ecosystem-55's classes: cudaErrorDeviceUninitialized prints the driver's
# CUDA_ERROR_INVALID_CONTEXT string "invalid device context" (no context
# bound to the thread, driver_types.h), a call the driver refuses in either
# API; nvidia-container-cli's failed ldconfig run (src/cli/configure.c);
# Horovod's extensions built without GPU support (horovod/torch/
# ready_event.cc and its siblings).
want_ids '[1556919196.384583] [dgx15:37091:0]    cuda_ipc_md.c:62   UCX  ERROR cuCtxGetDevice(&cu_device) is failed. ret:invalid device context' gpu-invalid-call
want_ids 'RuntimeError: CUDA error: invalid device context' gpu-invalid-call
# The driver's twins of cudaErrorDevicesUnavailable and
# cudaErrorSetOnActiveProcess print the same strings and mean the same
# (cuda.h): one line, one id.
want_ids 'failed call to cuCtxCreate: CUDA_ERROR_DEVICE_UNAVAILABLE' exclusive-process-busy
want_ids 'CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE: cannot set while device is active in this process' gpu-invalid-call
want_ids 'nvidia-container-cli: ldcache error: process /sbin/ldconfig.real failed with error code: 1' container-toolkit-driver-error
want_ids 'stderr: nvidia-container-cli.real: ldcache error: process /sbin/ldconfig terminated with signal 9' container-toolkit-driver-error
want_ids 'Internal error. Requested ReadyEvent with GPU device but not compiled with CUDA.' horovod-without-nccl
want_ids 'what():  Internal error. Requested device context manager with GPU device but not compiled with CUDA or SYCL.' horovod-without-nccl
# holdout-18's classes (stop 43): a CUDA status after a CUB call, a
# compute capability numbered after "architecture", the driver core's
# failed probe (a consequence where NVRM says the release does not support
# the GPU), a missing device node, E_OUTOFMEMORY from Direct3D 11, a
# program's CUDA library it could not load; and no GPU process failure
# when the X server refused the client.
want_ids 'WhereOp: Could not launch cub::DeviceReduce::Sum to count number of true / nonzero indices.  temp_storage_bytes: 5887, status: invalid resource handle' gpu-invalid-call
want_ids 'GPU#0 error: CUDA error: architecture (30) is not supported' gpu-arch-unsupported-by-framework
want_ids 'Warning: FullyFusedMLP is not supported for the selected architecture 60. Falling back to CutlassMLP.' ""
want_ids '[    9.018376] amdgpu: probe of 0000:00:04.0 failed with error -22' amdgpu-not-loaded
want_ids 'nvidia 0000:01:00.0: probe with driver nvidia failed with error -1' nvidia-driver-not-loaded
want_ids 'NVRM: The NVIDIA GPU 0000:8a:00.0 (PCI ID: 10de:26b9)\nNVRM: installed in this system is not supported by the\nNVRM: NVIDIA 470.256.02 driver release.\nnvidia: probe of 0000:8a:00.0 failed with error -1' nvidia-gpu-init-failed
want_ids '[    3.373877] uvesafb: probe of uvesafb.0 failed with error -22' ""
want_ids 'Error response from daemon: error gathering device information while adding custom device "/dev/nvidia0": lstat /dev/nvidia0: no such file or directory' device-node-missing
want_ids "ls: cannot access '/dev/nvidia*': No such file or directory" ""
want_ids 'gpuDX11 Error! (HRESULT = 8007000e) Failed create buffer' cuda-out-of-memory
want_ids 'Setup failed: HRESULT 0x8007000E' ""
want_ids 'Something went wrong while loading BIDMat CUDA library' cuda-library-missing
want_ids 'CUDA library candidates were found but failed to load' ""
want_ids 'Authorization required, but no authorization protocol specified\n[1:0103/140133.909576:ERROR:gpu_process_host.cc(957)] GPU process exited unexpectedly: exit_code=1024' ""
want_ids '[1:0103/140133.909576:ERROR:gpu_process_host.cc(957)] GPU process exited unexpectedly: exit_code=1024' browser-gpu-process-failed
# ecosystem-40's classes. PyTorch's cuDNN v8 plan fallback warning names
# the status of a config it skipped, not a failure (Conv_v8.cpp's try_plans).
want_ids '/x/torch/nn/modules/conv.py:456: UserWarning: Plan failed with a cudnnException: CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed cudnn_status: CUDNN_STATUS_NOT_SUPPORTED (Triggered internally at ../aten/src/ATen/native/cudnn/Conv_v8.cpp:919.)' ""
want_ids 'UserWarning: Plan failed with a cudnnException: CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed cudnn_status: CUDNN_STATUS_NOT_SUPPORTED\nRuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.' cudnn-not-supported
# Legacy THC/THCUNN's same-GPU assertions.
want_ids "RuntimeError: Assertion \`THCTensor_(checkGPU)(state, 3, self_, src1, src2)' failed.  at /home/u/pytorch/torch/lib/THC/generated/../generic/THCTensorMathPointwise.cu:214" tensors-on-different-devices
want_ids "/tmp/luarocks/cunn/lib/THCUNN/generic/SpatialConvolutionMM.cu:12: Assertion \`THCudaTensor_checkGPU(state, 4, input, output, weight, bias)' failed. Some of weight/gradient/input tensors are located on different GPUs. Please move them to a single one." tensors-on-different-devices
want_ids '#define THCUNN_assertSameGPU(...) THAssertMsg(THCTensor_(checkGPU)(__VA_ARGS__), "Some of weight/gradient/input tensors are located on different GPUs. Please move them to a single one.")' ""
# Miners' CPU checks of a GPU's result (xmr-stak, ccminer).
want_ids 'AMD Invalid Result GPU ID 0' gpu-wrong-results
want_ids '[2018-01-12 10:11:12] : NVIDIA Invalid Result GPU ID 1' gpu-wrong-results
want_ids 'Invalid Result: the pool rejected the share' ""
want_ids '[2019-03-01 12:00:00] GPU #0: Zotac GTX 1080, result for 1a2b3c4d does not validate on CPU!' gpu-wrong-results
# PyTorch's device index check against the devices CUDA shows it.
want_ids 'torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with error: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "../aten/src/ATen/cuda/CUDAContext.cpp":50, please report a bug to PyTorch. device=1, num_gpus=1' cuda-visible-devices-invalid
want_ids 'RuntimeError: peer_device >= 0 && peer_device < num_gpus INTERNAL ASSERT FAILED at "../aten/src/ATen/cuda/CUDAContext.cpp":67, please report a bug to PyTorch. peer_device=2, num_gpus=2' cuda-visible-devices-invalid
# Deformable-DETR's ops build without a toolkit, unless torch's own line
# says it saw no GPU.
want_ids "    raise NotImplementedError('Cuda is not availabel')\nNotImplementedError: Cuda is not availabel" cuda-toolkit-not-found
want_ids 'NotImplementedError: Cuda is not available' cuda-toolkit-not-found
want_ids "UserWarning: CUDA initialization: CUDA driver initialization failed, you might not have a CUDA gpu. (Triggered internally at  /pytorch/c10/cuda/CUDAFunctions.cpp:115.)\nNo CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\nNotImplementedError: Cuda is not availabel" cuda-init-failed
want_ids "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\nNotImplementedError: Cuda is not availabel" ""
# ecosystem-43's classes. HIP's string for hipErrorNoBinaryForGpu is CUDA's
# "no kernel image is available for execution on the device"; after
# "ROCm error: " (ggml built for HIP) or "HIP error: " (PyTorch's ROCm
# build) it is the gfx target's, not a CUDA build's as well.
want_ids 'ROCm error: no kernel image is available for execution on the device' rocm-gfx-unsupported
want_ids 'RuntimeError: HIP error: no kernel image is available for execution on the device' rocm-gfx-unsupported
want_ids 'RuntimeError: CUDA error: no kernel image is available for execution on the device' gpu-arch-unsupported-by-framework
# amdkfd's HWS hang: a queue preemption the hardware scheduler does not
# answer (kfd_device_queue_manager.c) and the reset it schedules.
want_ids '[ 5844.021441] amdgpu: qcm fence wait loop timeout expired\n[ 5844.021446] amdgpu: The cp might be in an unrecoverable state due to an unsuccessful queues preemption' gpu-device-removed
want_ids 'kfd: the cp might be in an unrecoverable state due to an unsuccessful queues preemption' gpu-device-removed
want_ids '[ 5844.021452] amdgpu: Failed to evict process queues' ""
# rocBLAS's list of the Tensile libraries it has, printed only after it
# could not read the GPU's own (tensile_host.cpp); a path named in prose
# is no such list.
want_ids '"/opt/rocm-6.4.1/lib/llvm/bin/../../../lib/rocblas/library/TensileLibrary_lazy_gfx1100.dat"\n"/opt/rocm-6.4.1/lib/llvm/bin/../../../lib/rocblas/library/TensileLibrary_lazy_gfx1101.dat"\nAborted (core dumped)' rocm-gfx-unsupported
want_ids ' List of available TensileLibrary Files : ' rocm-gfx-unsupported
want_ids 'ls /opt/rocm/lib/rocblas/library/TensileLibrary_lazy_gfx1100.dat' ""
# vLLM V1's assert that its FlashAttention version runs on the GPU (false
# below compute capability 8.0), unless FlashAttention did not import
# (then its import error is the cause).
want_ids 'ERROR 02-17 20:51:49 core.py:210]     assert is_fa_version_supported(self.fa_version)\nERROR 02-17 20:51:49 core.py:210]            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nERROR 02-17 20:51:49 core.py:210] AssertionError' gpu-too-old-for-kernel-library
want_ids 'ERROR 02-17 20:51:49 [flash_attn.py:150] Cannot use FA version 2 is not supported due to FA2 is unavailable due to: libcudart.so.12: cannot open shared object file\n    assert is_fa_version_supported(self.fa_version)\nAssertionError' cuda-library-missing
# sgl-kernel's CHECK_CUDA_SUCCESS throws the runtime's string as the whole
# RuntimeError message (sgl-kernel/include/utils.h); strerror's capitalised
# texts and longer messages are not it, nor is a bare "unknown error".
want_ids 'RuntimeError: invalid argument\n/sgl-workspace/sgl-kernel/csrc/allreduce/custom_all_reduce.cuh:37' gpu-invalid-call
want_ids 'RuntimeError: Invalid argument' ""
want_ids 'RuntimeError: invalid argument passed to foo' ""
want_ids 'RuntimeError: unknown error' ""
# ecosystem-42's classes: CPython's ctypes on Windows says a library could
# not be loaded as "Could not find module 'NAME' (or one of its
# dependencies)" (Modules/_ctypes/callproc.c), a loader's wording like
# dlerror's; libNVVM (libnvvm.so*, nvvm*.dll), which numba's CUDA target
# opens (numba/cuda/cudadrv/libs.py), is the CUDA toolkit's compiler:
# cuda-toolkit-not-found. A module data/sonames.tsv does not know stays
# silent.
want_ids "FileNotFoundError: Could not find module 'nvvm.dll' (or one of its dependencies). Try using the full path with constructor syntax." cuda-toolkit-not-found
want_ids "OSError: libnvvm.so.4: cannot open shared object file: No such file or directory" cuda-toolkit-not-found
want_ids "FileNotFoundError: Could not find module 'cudart64_110.dll' (or one of its dependencies). Try using the full path with constructor syntax." cuda-library-missing
want_ids "UserWarning: Failed to load image Python extension: Could not find module 'C:/env/Lib/site-packages/torchvision/image.pyd' (or one of its dependencies). Try using the full path with constructor syntax." ""
# ecosystem-45's classes. ggml's three-line CUDA error report
# (ggml_cuda_error: "CUDA error: %s", "current device: ..., in function ...",
# the statement): a cuBLAS status string after the word CUDA is cuBLAS's
# when the statement is a cublas call, not when it is the runtime's.
want_ids "CUDA error: the function failed to launch on the GPU\n  current device: 0, in function ggml_cuda_op_mul_mat_cublas at ggml/src/ggml-cuda/ggml-cuda.cu:1804\n  cublasSgemm_v2(ctx.cublas_handle(id), CUBLAS_OP_T, CUBLAS_OP_N, row_diff, src1_ncols, ne10, &alpha, src0_ddf_i, ne00, src1_ddf1_i, ne10, &beta, dst_dd_i, ldc)" cublas-execution-failed
want_ids "[ERROR] ggml_extend.hpp:72   - CUDA error: an unsupported value or parameter was passed to the function\n[ERROR] ggml_extend.hpp:72   -   current device: 0, in function ggml_cuda_mul_mat_batched_cublas at ggml-cuda.cu:1900\n[ERROR] ggml_extend.hpp:72   -   cublasGemmBatchedEx(ctx.cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, ne01, ne11, ne10, alpha, CUDA_R_16F, nb01/nb00)" gpu-invalid-call
want_ids "CUDA error: the function failed to launch on the GPU\n  current device: 0, in function ggml_backend_cuda_synchronize at ggml-cuda.cu:2400\n  cudaStreamSynchronize(cuda_ctx->stream())" ""
want_ids "CUDA error: the function failed to launch on the GPU" ""
want_ids "CUDA error: out of memory\n  current device: 0, in function ggml_cuda_pool_alloc at ggml-cuda.cu:300\n  cudaMalloc((void **) &ptr, look_ahead_size)" cuda-out-of-memory
# thrust's system_error: what() is the failed step and the runtime's
# string, after the terminate handler's line naming the exception (or on
# the line that names it); another exception's what() is not CUDA's.
want_ids "terminate called after throwing an instance of 'thrust::system::system_error'\n  what():  device free failed: driver shutting down" gpu-library-error
want_ids "terminate called after throwing an instance of 'thrust::system::system_error'\n  what():  parallel_for failed: invalid device function" gpu-arch-unsupported-by-framework
want_ids "thrust::system::system_error: transform: failed to synchronize: an illegal memory access was encountered" illegal-memory-access
want_ids "terminate called after throwing an instance of 'std::runtime_error'\n  what():  device free failed: driver shutting down" ""
# A program's own words for exhausted GPU memory (Blender Cycles' device
# allocator; "ran out of CUDA memory"); advice about it is none.
want_ids "Error: System is out of GPU memory" cuda-out-of-memory
want_ids "System is out of GPU and shared host memory" cuda-out-of-memory
want_ids "out of CUDA memory" cuda-out-of-memory
want_ids "RuntimeError: local Qwen-Image ran out of CUDA memory; free GPU memory or switch to cpu_offload" cuda-out-of-memory
want_ids "hint: to avoid running out of GPU memory, lower --batch" ""
want_ids "If out of CUDA memory, set parameter model_batch_size smaller." ""
# Blender Cycles names a CUresult by cuew's string in three wordings (the
# statement's "%s in cuX(...)", "CUDA cuInit: %s" / "CUDA error at
# cuCtxCreate: %s", "Failed to create CUDA context (%s)"), each string's id
# the status table's; cuew's default for a code it does not name is none.
want_ids "CUDA error: Illegal address in cuMemcpyDtoH( (char *)mem.host_pointer + offset, (CUdeviceptr)mem.device_pointer + offset, size), line 970" illegal-memory-access
want_ids "CUDA error at cuCtxCreate: Illegal address" illegal-memory-access
want_ids "Failed to create CUDA context (Out of memory)" cuda-out-of-memory
want_ids "CUDA cuInit: Driver not initialized" cuda-init-failed
want_ids "CUDA cuDeviceGetCount: Unknown error" cuda-unknown-error
want_ids "CUDA error: Misaligned address in cuCtxSynchronize()" illegal-memory-access
want_ids "CUDA cuInit: Unknown CUDA error value" ""
want_ids "Illegal address in the config file" ""
# FFmpeg's CUDA loader (nv-codec-headers' "Cannot load %s", then
# hwcontext_cuda.c's "Could not dynamically load CUDA"): the driver's CUDA
# library is missing; "Cannot load" with no library name is none.
want_ids "[AVHWDeviceContext @ 0x5599facb8080] Could not dynamically load CUDA\n[mpeg4_cuvid @ 0x5599facb5da0] Error creating a CUDA device" cuda-library-missing
want_ids "[AVHWDeviceContext @ 0x561b50dd8f80] Cannot load libcuda.so.1" cuda-library-missing
want_ids "Cannot load config.yaml" ""
# OptiX's status names by class (optix_types.h); its CUDA_ERROR and the
# driver-side ABI lookups stay silent.
want_ids "OPTIX_ERROR_PIPELINE_LINK_ERROR in optixPipelineCreate(context, &pipeline_options, &link_options, pipeline_groups.data(), pipeline_groups.size(), nullptr, 0, &pipelines[PIP_PATH_TRACE]) (device_optix.cpp:610)" gpu-library-error
want_ids "RuntimeError: Optix error (code: 7001, file:optixdenoiser.cpp, line: 110): OPTIX_ERROR_INVALID_VALUE" gpu-invalid-call
want_ids "[svulkan2] [error] Failed to denoise OptiX Error: OPTIX_ERROR_DEVICE_OUT_OF_MEMORY" cuda-out-of-memory
want_ids "OptiX call failed: OPTIX_ERROR_UNSUPPORTED_ABI_VERSION" ""
# Chainer without CuPy; a checked call quoting a failed cuInit.
want_ids "RuntimeError: CUDA environment is not correctly set up\n(see https://github.com/pfnet/chainer#installation)." framework-cpu-only-build
want_ids "Python exception: BM3D_RTC: 'cuInit(0)' failed:" cuda-init-failed
want_ids "skipping cuInit(0) on this host" ""
# torch.load's check of torch.cuda.is_available() for GPU storages names no
# cause (validate_cuda_device raises it for a CPU-only torch, a missing
# driver or GPU alike); the CUDA build's warning, when present, names it.
want_ids "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU." ""
want_ids "UserWarning: CUDA initialization: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\nRuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False." nvidia-driver-not-loaded
want_ids "RuntimeError: Attempting to deserialize object on a MPS device but torch.backends.mps.is_available() is False." ""
# Windows' "Entry Point Not Found" for a CUDA library's DLL (error 127:
# found, but another release); a DLL outside the GPU stack stays silent.
want_ids 'The procedure entry point cudnnGetVersion could not be located in the dynamic link library C:\\venv\\Lib\\site-packages\\nvidia\\cudnn\\bin\\cudnn_adv_infer64_8.dll.' windows-dll-load-failed
want_ids 'Entry Point Not Found: The procedure entry point ?foo@@YAXXZ could not be located in the dynamic link library C:\\env\\Lib\\site-packages\\torch\\lib\\torch_cuda.dll' windows-dll-load-failed
want_ids 'The procedure entry point ucrtbase_abc could not be located in the dynamic link library C:\\game\\game.dll' ""
want_ids 'The procedure entry point cuStreamWaitValue32_v2 could not be located in the dynamic link library nvcuda.dll' driver-too-old-for-framework
# ecosystem-38's classes. An uncorrectable ECC error in the driver's own
# words for Xid 48 ("An uncorrectable double bit error (DBE) has been
# detected ...") and in DCGM's health incident (dcgm_errors.h); a corrected
# single-bit error is none.
want_ids "NVRM: Xid (PCI:0000:8a:00): 48, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 4, subpartition 1." "xid-errors ecc-errors"
want_ids "[430954.509105] NVRM: Xid (PCI:0000:52:00): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at physAddr 0x18f31d80 partition 16, subpartition 3." "xid-errors ecc-errors"
want_ids "Detected 333 volatile double-bit ECC error(s) in GPU 0." ecc-errors
want_ids "A single bit correctable error has been detected and corrected in L2 cache data" ""
# fp8 on a GPU without fp8 conversions (Triton: fp8e4nv only from compute
# capability 8.9; torch._scaled_mm likewise) and vLLM's refusal of a
# quantization method for the GPU's capability: too old. An fp8 type
# refused on a newer GPU (fp8e4b15 on Hopper), a kernel that wants exactly
# one capability (torch._grouped_mm, vLLM's "Required capability") is not.
want_ids "AssertionError: fp8e4nv data type is not supported on CUDA arch < 89" gpu-too-old-for-kernel-library
want_ids "ValueError(\"type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')\")" gpu-too-old-for-kernel-library
want_ids "ValueError: type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e5',)" gpu-too-old-for-kernel-library
want_ids "ValueError(\"type fp8e4b15 not supported in this architecture. The supported fp8 dtypes are ('fp8e4nv', 'fp8e5')\")" ""
want_ids "RuntimeError: torch._scaled_mm is only supported on CUDA devices with compute capability >= 9.0 or 8.9, or ROCm MI300+" gpu-too-old-for-kernel-library
want_ids "RuntimeError: torch._grouped_mm is only supported on CUDA devices with compute capability = 9.0" ""
want_ids "ValueError: The quantization method awq is not supported for the current GPU. Minimum capability: 75. Current capability: 70." gpu-too-old-for-kernel-library
want_ids "RuntimeError: Quantization scheme is not supported for the current GPU. Min capability: 80. Current capability: 75." gpu-too-old-for-kernel-library
want_ids "RuntimeError: Quantization scheme is not supported for the current GPU. Required capability: 90. Current capability: 100." ""
# PyTorch's storage check between a CUDA tensor and a CPU storage: tensors
# on different devices; at the worker-only shared-memory collate
# (elem.new(storage)), a CUDA tensor in a DataLoader worker. Two CUDA
# spellings of one device (from_blob's index bug) are neither.
want_ids 'RuntimeError: Attempted to set the storage of a tensor on device "cuda:0" to a storage on different device "cpu".  This is no longer allowed; the devices must match.' tensors-on-different-devices
want_ids 'RuntimeError: Attempted to set the storage of a tensor on device "cpu" to a storage on different device "cuda:0".  This is no longer allowed; the devices must match.' tensors-on-different-devices
want_ids 'Attempted to set the storage of a tensor on device "cuda:0" to a storage on different device "cuda".  This is no longer allowed; the devices must match.' ""
want_ids 'E           out = elem.new(storage)\nE       RuntimeError: Attempted to set the storage of a tensor on device "cuda:0" to a storage on different device "cpu".  This is no longer allowed; the devices must match.' cuda-fork-after-init
# ecosystem-37's classes. Paddle built without CUDA: pybind's CUDAPlace
# ("Cannot use GPU because you have installed CPU version PaddlePaddle"),
# paddle.set_device ("... since PaddlePaddle is not compiled with CUDA")
# and PADDLE_THROW's "Paddle is not compiled with CUDA"; XPU is no GPU.
want_ids 'E0714 16:34:40.972663 31948 pybind.cc:1277] Cannot use GPU because you have installed CPU version PaddlePaddle.' framework-cpu-only-build
want_ids "ValueError: The device should not be 'gpu', since PaddlePaddle is not compiled with CUDA" framework-cpu-only-build
want_ids 'UnavailableError: Paddle is not compiled with CUDA. Cannot visit cuda current stream.' framework-cpu-only-build
want_ids "ValueError: The device should not be 'xpu', since PaddlePaddle is not compiled with XPU" ""
want_ids 'PaddlePaddle is compiled with CUDA.' ""
# TensorFlow's check of the TensorRT it loads against the one it was
# built with (trt_convert.py, every wording since TF 1.12); the INFO line
# of a supported minor upgrade is no error.
want_ids 'WARNING:tensorflow:TensorRT mismatch. Compiled against version 5.0.2, but loaded 5.1.2. Things may not work.' cuda-library-missing
want_ids 'ERROR:tensorflow:TensorRT version mismatch. Tensorflow was compiled against TensorRT 5.1.5 but library loaded from environment is TensorRT 5.0.2. Please make sure that correct version of TensorRT is available in the system and added to ldconfig or LD_LIBRARY_PATH' cuda-library-missing
want_ids 'E1118 trt_convert.py:150] Loaded TensorRT 8.2.1 but linked TensorFlow against TensorRT 8.4.3. A few requirements must be met:' cuda-library-missing
want_ids 'ERROR:tensorflow:Loaded TensorRT `10.0.1` but linked against TensorRT: `8.6.1`. Not all requirements are met:' cuda-library-missing
want_ids 'RuntimeError: Incompatible TensorRT major version' cuda-library-missing
want_ids 'RuntimeError: Incompatible loaded TensorRT versions' cuda-library-missing
want_ids 'ERROR:tensorflow:The loaded version of TensorRT: `6.0.1` has now been removed. Please upgrade to TensorRT 7 or more recent.' cuda-library-missing
want_ids 'INFO:tensorflow:Loaded TensorRT 8.6.1 and linked TensorFlow against TensorRT 8.4.3. This is supported because TensorRT minor/patch upgrades are backward compatible.' ""
# Triton's OutOfResources (triton/compiler/compiler.py) and Inductor's
# copy of its text: a kernel asks more shared memory (or threads, tensor
# memory) per block than this GPU has, as cudaErrorLaunchOutOfResources.
want_ids 'triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 196608, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.' gpu-invalid-call
want_ids 'RuntimeError: No valid triton configs. OutOfMemoryError: out of resource: triton_tem_fused_0 Required: 147456 Hardware limit:101376 Reducing block sizes or `num_stages` may help.' gpu-invalid-call
want_ids 'The hotel is out of resource: rooms' ""
# Ollama's estimate that not one layer fits in the GPUs' free memory
# (llm/memory.go, llm/server.go): the model runs on the CPU, or not at all.
want_ids 'time=2025-07-23T23:34:46.458+08:00 level=DEBUG source=memory.go:351 msg="insufficient VRAM to load any model layers"' cuda-out-of-memory
# ecosystem-39's classes: the Asahi DRM driver's GPU timeout and recovery
# (drivers/gpu/drm/asahi/gpu.rs, handle_timeout; its "GPU fault" is no
# hang); gpu-burn's progress line, whose "(WARNING!)" marks a worker with
# wrong elements and "(DIED!)" one that ended (its count is not read);
# Vulkan's swapchain out of date after a resize, which programs recreate
# (no failure, and after a lost device only its echo); R's OpenCL package
# ("clBuildProgram failed (with -11)", "%s failed (oclError %d)") and the
# copied OpenCL error-string table ("Error: Program build failure").
want_ids 'Jun 14 12:39:27 locke-m2 kernel: asahi 206400000.gpu: ** GPU timeout nya~!!!!! **' gpu-device-removed
want_ids 'Jun 14 12:39:27 locke-m2 kernel: asahi 206400000.gpu: ** GPU fault nya~!!!!! **' ""
want_ids "30.0%  proc'd: 3400 (6000 Gflop/s) - 3300 (5900 Gflop/s)   errors: 0 - 1579  (WARNING!)  temps: 60 C - 61 C" gpu-wrong-results
want_ids "10.0%  proc'd: 3400 (6000 Gflop/s) - 3300 (5900 Gflop/s)   errors: 0 - 12 (WARNING!)   temps: 60 C - 61 C" gpu-wrong-results
want_ids "30.0%  proc'd: -1 (0 Gflop/s) - -1 (0 Gflop/s)   errors: -533715488  (DIED!)- 1278531568  (DIED!)  temps: 30 C - 30 C" ""
want_ids '[engine/RenderSystem] CSwapChainVulkan::SwapBuffers vkAcquireNextImageKHR - completed result = VK_ERROR_OUT_OF_DATE_KHR' ""
want_ids 'vk::Queue::presentKHR: ErrorOutOfDateKHR' ""
want_ids 'ERROR! VK call failed! result = VK_ERROR_DEVICE_LOST ( vkQueueSubmit( pQueue, 1, &submitInfo, pFence->Get() ) )\nvkAcquireNextImageKHR - completed result = VK_ERROR_OUT_OF_DATE_KHR' gpu-device-removed
want_ids 'Error in oclSimpleKernel(ctx, "dnorm", code) : clBuildProgram failed (with -11)' gpu-library-error
want_ids 'Error in oclContext(): clCreateBuffer failed (oclError -4)' cuda-out-of-memory
want_ids 'clGetDeviceIDs failed, oclError -1: CL_DEVICE_NOT_FOUND' gpu-library-error
want_ids 'Build failed (with 3 warnings)' ""
want_ids 'Error: Program build failure' gpu-library-error
want_ids 'clLinkProgram: Link program failure' gpu-library-error
want_ids 'The program build failure was fixed in 2.1.' ""
want_ids 'Error: Memory object allocation failure' cuda-out-of-memory
want_ids 'No memory object allocation failure was seen in the run.' ""
# ecosystem-41's classes. TensorFlow leaving out a GPU below the build's
# minimum compute capability (gpu_device.cc), not one below its core count;
# the Paddle suites' check of a CPU-only paddlepaddle; ONNX Runtime's
# TensorRT libraries not loadable; llama-cpp-python's split over a library
# whose llama_max_devices() is 1 (no GPU backend).
want_ids 'I tensorflow/core/common_runtime/gpu/gpu_device.cc:1721] Ignoring visible gpu device (device: 0, name: GeForce GTX 670MX, pci bus id: 0000:01:00.0, compute capability: 3.0) with Cuda compute capability 3.0. The minimum required Cuda capability is 3.5.' gpu-arch-unsupported-by-framework
want_ids 'I tensorflow/core/common_runtime/gpu/gpu_device.cc:611] Ignoring gpu device (device: 1, name: GeForce GTX 470, pci bus id: 0000:02:00.0) with Cuda compute capability 2.0. The minimum required Cuda capability is 3.5.' gpu-arch-unsupported-by-framework
want_ids 'Ignoring visible gpu device (device: 0, name: GeForce GT 1030, pci bus id: 0000:01:00.0, compute capability: 6.1) with core count: 3. The minimum required count is 8. You can adjust this requirement with the env var TF_MIN_GPU_MULTIPROCESSOR_COUNT.' ""
want_ids 'Cuda only works for Super Resolution: the minimum required Cuda capability is 3.5 so old GPUs will not work.' ""
want_ids '2020-07-23 09:22:17,124-ERROR: Config use_gpu cannot be set as true while you are using paddlepaddle cpu version !' framework-cpu-only-build
want_ids 'RuntimeError: GPU cannot be set as true while you are using paddlepaddle cpu version ! ' framework-cpu-only-build
want_ids 'You are using paddlepaddle cpu version! Please try to ' framework-cpu-only-build
want_ids 'You are using paddlepaddle gpu version! Please try to ' ""
want_ids "EP Error /onnxruntime_src/onnxruntime/python/onnxruntime_pybind_state.cc:505 void onnxruntime::python::RegisterTensorRTPluginsAsCustomOps(PySessionOptions&, const onnxruntime::ProviderOptions&) Please install TensorRT libraries as mentioned in the GPU requirements page, make sure they're in the PATH or LD_LIBRARY_PATH, and that your GPU is supported." cuda-library-missing
want_ids 'ValueError: Attempt to split tensors that exceed maximum supported devices. Current LLAMA_MAX_DEVICES=1' framework-cpu-only-build
want_ids 'ValueError: Attempt to split tensors that exceed maximum supported devices. Current LLAMA_MAX_DEVICES=16' ""
# glog's CHECK on a cuDNN call with the status by number (cudnnStatus_t
# before cuDNN 9): 3 BAD_PARAM, 8 EXECUTION_FAILED, 4 INTERNAL_ERROR with
# Caffe's name after it; success and a 0-vs-0 line are none.
want_ids ' F tensorflow/stream_executor/cuda/cuda_dnn.cc:516] Check failed: cudnnSetTensorNdDescriptor(handle_.get(), elem_type, nd, dims.data(), strides.data()) == CUDNN_STATUS_SUCCESS (3 vs. 0)batch_descriptor: {count: 1 feature_map_count: 32 spatial: 0 86  value_min: 0.000000 value_max: 0.000000 layout: BatchDepthYX}' gpu-invalid-call
want_ids 'F0301 cudnn_conv_layer.cu:28] Check failed: status == CUDNN_STATUS_SUCCESS (8 vs. 0)' cudnn-execution-failed
want_ids 'F0213 conv.cu:88] Check failed: status == CUDNN_STATUS_SUCCESS (4 vs. 0)  CUDNN_STATUS_INTERNAL_ERROR' cudnn-handle-failed
want_ids 'Check failed: status == CUDNN_STATUS_SUCCESS (14 vs. 0)' cudnn-version-mismatch
want_ids 'I0301 solver.cpp:60] status == CUDNN_STATUS_SUCCESS (0 vs. 0) after the first pass' ""
# ecosystem-44's classes. NVIDIA apex's own check of the toolkit against
# torch.version.cuda (a RuntimeError, before 2019 a printed Warning; a
# Paddle port's wording), not the check's source quoted with its string
# split; cuBLAS's argument check on its extension GEMM (GEMM_EX), not the
# same wording for SGEMM/DGEMM that CPU BLAS libraries print; torchvision's
# "Couldn't load custom C++ ops" and the same function copied by other
# extensions (the general class), not the raising source line a traceback
# quotes (its message wrapped before "torchvision" is still torchvision's
# by the rest of it or by its extension.py among the frames); the
# libraries PyTorch 1.8 to 1.12 split its CUDA library into,
# missing under another torch, not libtorch_cpu.so (an extension imported
# before torch).
want_ids 'RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match the version used to compile Pytorch binaries.  Pytorch binaries were compiled with Cuda 11.7.' toolkit-framework-cuda-mismatch
want_ids 'Warning:  Cuda extensions are being compiled with a version of Cuda that does not match the version used to compile Pytorch binaries.' toolkit-framework-cuda-mismatch
want_ids 'RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match the version used to compile Pypaddle binaries.  Pypaddle binaries were compiled with Cuda 11.2.' toolkit-framework-cuda-mismatch
want_ids '            "Cuda extensions are being compiled with a version of Cuda that does "' ""
want_ids ' ** On entry to GEMM_EX  parameter number 9 had an illegal value' gpu-invalid-call
want_ids ' ** On entry to SGEMM  parameter number 13 had an illegal value' ""
want_ids ' ** On entry to DGEMM  parameter number  8 had an illegal value' ""
want_ids "RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are incompatible, or if you had errors while compiling torchvision from source." torchvision-torch-mismatch
want_ids "RuntimeError: Couldn't load custom C++ ops for gen_nms. This can happen if your PyTorch install is incompatible with this wheel, or if there were errors while compiling the extension." extension-torch-abi-mismatch
want_ids "RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchshifts versions are incompatible, or if you had errors while compiling torchshifts from source." extension-torch-abi-mismatch
want_ids '            "Couldn'"'"'t load custom C++ ops. This can happen if your PyTorch and "' ""
# torchvision's message wrapped before "torchvision": the rest of it, or
# torchvision's extension.py among the frames (Linux or Windows paths),
# names torchvision.
want_ids "RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and\ntorchvision versions are incompatible, or if you had errors while compiling" torchvision-torch-mismatch
want_ids '  File "C:\\Users\\me\\venv\\lib\\site-packages\\torchvision\\extension.py", line 63, in _assert_has_ops\nRuntimeError: Couldn'"'"'t load custom C++ ops. This can happen if your PyTorch and' torchvision-torch-mismatch
want_ids 'OSError: libtorch_cuda_cpp.so: cannot open shared object file: No such file or directory' extension-torch-abi-mismatch
want_ids 'ImportError: /opt/conda/lib/python3.10/site-packages/mmcv/_ext.cpython-310-x86_64-linux-gnu.so: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory' extension-torch-abi-mismatch
want_ids 'OSError: libtorch_cpu.so: cannot open shared object file: No such file or directory' ""
# ecosystem-46's classes. A cuBLAS status by number in Faiss's GEMM check
# ("details: cublas failed (13)", faiss/gpu/utils/MatrixMult-inl.cuh; its
# ROCm port checks a hipblasStatus_t under the same words) and in the
# cuBLASLt samples' checkCublasStatus ("cuBLAS API failed with status 13");
# a program's OpenCL kernels that did not build (GROMACS's "Could not build
# OpenCL program, error was ..."); Numba's driver library without a
# function: cuInit missing means the file is no driver at all.
want_ids "ERROR: Faiss assertion 'err == CUBLAS_STATUS_SUCCESS' failed in void faiss::gpu::runMatrixMult(faiss::gpu::Tensor<float, 2, true>&, bool, faiss::gpu::Tensor<T, 2, true>&, bool, faiss::gpu::Tensor<IndexType, 2, true>&, bool, float, float, cublasHandle_t, cudaStream_t) [with AT = float; BT = float; cublasHandle_t = cublasContext*; cudaStream_t = CUstream_st*] at ./faiss/gpu/utils/MatrixMult-inl.cuh:133; details: cublas failed (13): (512, 128) x (27, 128)' = (512, 27)" cublas-execution-failed
want_ids "Faiss assertion 'err == CUBLAS_STATUS_SUCCESS' failed in void faiss::gpu::runMatrixMult() at /project/faiss/faiss/gpu/utils/MatrixMult-inl.cuh:189; details: cublas failed (15): (2048, 64) x (64, 64) = (2048, 64) gemm params m 64 n 2048 k 64 trA T trB N lda 64 ldb 64 ldc 64" gpu-operation-not-supported
want_ids "Faiss assertion 'err == HIPBLAS_STATUS_SUCCESS' failed in void faiss::gpu::runMatrixMult() at /project/faiss/faiss/gpu-rocm/utils/MatrixMult-inl.cuh:189; details: cublas failed (7): (2048, 64) x (64, 64) = (2048, 64)" gpu-operation-not-supported
want_ids 'cuBLAS API failed with status 13' cublas-execution-failed
want_ids 'cuBLAS API failed with status 0' ""
want_ids 'the cublas failed (2 of 40 tests) check was skipped' ""
want_ids 'Could not build OpenCL program, error was Unknown OpenCL error: -9999' gpu-library-error
want_ids 'RuntimeError: Failed to build OpenCL program:\n<kernel>:12:5: error: use of undeclared identifier' gpu-library-error
want_ids 'ERROR: failed to compile OpenCL kernels for device 0' gpu-library-error
want_ids 'Building the OpenCL program cache (first run), this may take a minute' ""
want_ids 'numba.cuda.cudadrv.error.CudaDriverError: Driver missing function: cuInit' cuda-library-missing
want_ids 'CudaDriverError: driver missing function: cuInit.\nRequires CUDA 8.0 or above.' cuda-library-missing
want_ids 'numba.cuda.cudadrv.error.CudaDriverError: Driver missing function: cuMemAllocAsync' driver-too-old-for-framework
want_ids 'ftdi: FTDI driver missing function: FT_Open' ""
# The loader's undefined symbol of a mangled c10::/at::/torch:: name is a
# library built against another PyTorch, with or without the library's
# name before it (holdout-27: a bare last line, a markdown autolink).
want_ids 'undefined symbol: _ZNK3c105Error4whatEv' extension-torch-abi-mismatch
want_ids 'site-packages/[flash_attn_2_cuda.cpython-39-x86_64-linux-gnu.so](http://flash_attn_2_cuda.cpython-39-x86_64-linux-gnu.so/): undefined symbol: _ZN2at4_ops9_pad_enum4callERKNS_6TensorE' extension-torch-abi-mismatch
want_ids 'ImportError: /x/libfoo.so: undefined symbol: _ZN5cudnn4initEv' ""
# A device-memory allocation that failed, in programs' words (holdout-29:
# neko's device_alloc, the CANN runtime, sophon-stream); a fallback to
# host memory is no failure.
want_ids '*** ERROR: Memory allocation on device failed ***' cuda-out-of-memory
want_ids '        allocate device memory failed.[FUNC:Init][FILE:memory_pool_manager.cc][LINE:50]' cuda-out-of-memory
want_ids '[ERROR]  Malloc device memory failed' cuda-out-of-memory
want_ids '[STREAM_CHECK_MESSAGE]  Expected ret == 0 to be true, but got false. Alloc Device Memory Failed! Program Terminated.' cuda-out-of-memory
want_ids 'warning: failed to allocate device memory for the cache, falling back to host memory' ""
want_ids 'device memory allocation succeeded (512 MiB)' ""
# The VM protection fault of amdgpu's gmc_v6 to v8 and of radeon
# (interrupt sources 146 and 147), the older twin of gmc_v9's page fault.
want_ids '[ 4700.645531] amdgpu 0000:02:00.0: GPU fault detected: 147 0x03c4c408' illegal-memory-access
want_ids 'radeon 0000:01:00.0:   VM_CONTEXT1_PROTECTION_FAULT_ADDR   0x0010FE1E' illegal-memory-access
want_ids 'GPU fault detected: 12 0x00000000 (ignored)' ""
# TensorFlow-ROCm's minimum-ISA check, the twin of its CUDA capability one.
want_ids '2018-11-11 22:30:37.207580: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1605] Ignoring visible gpu device (device: 0, name: AMD A10-8700P Radeon R6, 10 Compute Cores 4C+6G, pci bus id: 0000:00:01.0) with AMDGPU ISA gfx801. The minimum required AMDGPU ISA is gfx803.' rocm-gfx-unsupported
# ONNX Runtime's missing-provider warning broken after "provider" by the
# paste (holdout-27); a line that only names the provider is no warning.
want_ids "onnxruntime_inference_collection.py:69: UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider\nnames.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'" framework-cpu-only-build
want_ids "Specified provider 'CUDAExecutionProvider' is not in available provider lists of old builds" ""
# XLA's PJRT API version check of JAX's CUDA plugin (holdout-27); the same
# check of another backend's plugin is not this id.
want_ids "RuntimeError: Unable to initialize backend 'cuda': INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API version (0.54) and framework PJRT API version 0.51)." jax-cuda-plugin-mismatch
want_ids "RuntimeError: Unable to initialize backend 'cuda': INVALID_ARGUMENT: Plugin PJRT API version 0.23 is older than the minimum supported version 0.29" jax-cuda-plugin-mismatch
want_ids "RuntimeError: Unable to initialize backend 'tpu': INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API version (0.54) and framework PJRT API version 0.51)." ""
# amdgpu's soc15_asic_reset "GPU reset" of older kernels (holdout-29).
want_ids 'May  7 17:21:09 k8snode kernel: [ 8265.735624] amdgpu 0005:03:00.0: GPU reset' gpu-device-removed
want_ids 'amdgpu 0000:03:00.0: GPU reset test skipped (no hang)' ""
# holdout-28 and holdout-30 (retired at stop 45, read and tuned on).
# dlib's CHECK_CUDNN prints the cudnnStatus_t by number ("code: 8, reason:
# " + its own string, "A call to cuDNN failed" for most codes): before
# cuDNN 9, 8 is EXECUTION_FAILED, 4 INTERNAL_ERROR; cuDNN 9's 5000 and a
# CUDA call's code (cudaGetErrorString names it) are not read as old ones.
want_ids 'RuntimeError: Error while calling cudnnConvolutionForward( context(), &alpha, descriptor(data), data.device(), (const cudnnFilterDescriptor_t)filter_handle, filters.device()) in file D:\\dlib\\dnn\\cudnn_dlibapi.cpp:1056. code: 8, reason: CUDNN_STATUS_EXECUTION_FAILE' cudnn-execution-failed
want_ids 'RuntimeError: Error while calling cudnnCreate(&handle) in file /tmp/dlib/dlib/cuda/cudnn_dlibapi.cpp:104. code: 4, reason: A call to cuDNN failed' cudnn-handle-failed
want_ids 'Error while calling cudnnSetStream(context(), stream) in file cudnn_dlibapi.cpp:120. code: 14, reason: A call to cuDNN failed' cudnn-version-mismatch
want_ids 'Error while calling cudnnConvolutionForward(context()) in file cudnn_dlibapi.cpp:1056. code: 80, reason: A call to cuDNN failed' ""
want_ids 'RuntimeError: Error while calling cudaMalloc(&data, new_size*sizeof(float)) in file /tmp/dlib/dlib/cuda/gpu_data.cpp:218. code: 2, reason: out of memory' cuda-out-of-memory
# PyTorch's caching allocator asks NVML which processes hold memory only
# after an allocation failed (reportProcessMemoryInfo, called from malloc's
# out-of-memory branch): a failed NVML call there hides the out of memory.
want_ids 'RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "/pytorch/c10/cuda/CUDACachingAllocator.cpp":1015, please report a bug to PyTorch.' cuda-out-of-memory
want_ids 'RuntimeError: NVML_SUCCESS == DriverAPI::get()->nvmlInit_v2_() INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":1123, please report a bug to PyTorch.' cuda-out-of-memory
want_ids 'RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "/opt/src/monitor.cpp":40' ""
# CMake's find_package_handle_standard_args for an EXACT toolkit version (a
# library built with another CUDA asks for its own); "at least" and other
# packages are not a framework's CUDA.
want_ids 'Could NOT find CUDA: Found unsuitable version "9.2", but required is exact\n  version "9.0" (found /usr/local/cuda-9.2)' toolkit-framework-cuda-mismatch
want_ids 'CMake Error at /usr/share/cmake-3.22/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n  Could NOT find CUDAToolkit: Found unsuitable version "12.6", but required is exact version "12.2" (found /usr/local/cuda/include)' toolkit-framework-cuda-mismatch
want_ids '-- Could NOT find PythonLibs: Found unsuitable version "3.4.5", but required is exact version "3.4.4" (found /usr/lib/x86_64-linux-gnu/libpython3.4m.so)' ""
want_ids 'Could NOT find CUDA: Found unsuitable version "10.1", but required is at least "11.0" (found /usr)' ""
# CuPy's setup summary when its cuda module's headers do not compile
# (cupy_setup_build.py, preconfigure_modules); an optional module's headers
# (cuDNN, NCCL) are a skipped module, no failure.
want_ids '    Modules:\n        cuda      : No\n          -> Include files not found: ['"'"'cublas_v2.h'"'"', '"'"'cuda.h'"'"', '"'"'cuda_profiler_api.h'"'"', '"'"'cuda_runtime.h'"'"', '"'"'cufft.h'"'"', '"'"'curand.h'"'"', '"'"'cusparse.h'"'"', '"'"'nvrtc.h'"'"']' cuda-toolkit-not-found
want_ids '  cudnn     : No\n    -> Include files not found: ['"'"'cudnn.h'"'"']\n    -> Check your CFLAGS environment variable.' ""
# holdout-33 and holdout-34 (retired at stop 46, read and tuned on).
# Caffe2's CAFFE_ENFORCE_EQ form of a status check, "status == ncclSuccess.
# 2 vs 0." (c10/util/Logging.h): the number is the status, read in its
# library's table; an equal or a non-zero right side is no failed status.
want_ids "[E net_dag.cc:188] Exception from operator chain starting at '' (type 'NCCLAllreduce'): caffe2::EnforceNotMet: [enforce fail at cuda_nccl_gpu.cc:24] status == ncclSuccess. 2 vs 0.  Error at: /root/caffe2/contrib/nccl/cuda_nccl_gpu.cc24: system error Error from operator:" nccl-error
want_ids '[enforce fail at context_gpu.cu:343] error == cudaSuccess. 2 vs 0.' cuda-out-of-memory
want_ids '[enforce fail at cublas_op.cc:9] status == CUBLAS_STATUS_SUCCESS. 13 vs 0.' cublas-execution-failed
want_ids '[enforce fail at x.cc:1] status == ncclSuccess. 0 vs 0.' ""
want_ids '[enforce fail at x.cc:1] status == ncclSuccess. 2 vs 3.' ""
# Kernel drivers' hang notices: i915's request watchdog
# (gt/intel_gt_requests.c) and Vivante galcore's recovery (gc_hal_kernel.c).
want_ids 'Fence expiration time out i915-0000:06:00.0:openarc[...]' gpu-device-removed
want_ids '[  569.034687] Fence expiration time out i915-0000:00:02.0:gem_exec_whispe[7589]:56!' gpu-device-removed
want_ids '[61124.179619] [galcore]: GPU[0] hang, automatic recovery.\n[61124.189393] [galcore]: recovery done' gpu-device-removed
want_ids '09:58:12.701523 [galcore]: NP[0] hang, automatic recovery.' gpu-device-removed
want_ids 'watchdog: hang, automatic recovery disabled by the user' ""
# Paddle's cuDNN check (phi/backends/gpu/gpu_resources.cc), MLX's allocator
# (mlx/allocator.cpp) and THC's THCAssertSameGPU (THCGeneral.h.in).
want_ids 'W0617 05:33:02.719738   374 device_context.cc:270] WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version in your machine is 7.5, which may cause serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN version.' cudnn-version-mismatch
want_ids 'W1114 22:57:32.420543    32 device_context.cc:447] Please NOTE: device: 0, GPU Compute Capability: 8.6, Driver API Version: 11.2, Runtime API Version: 11.1' ""
want_ids 'libc++abi: terminating due to uncaught exception of type std::runtime_error: [malloc_or_wait] Unable to allocate 12 bytes.' cuda-out-of-memory
want_ids 'RuntimeError: arguments are located on different GPUs at /pytorch/aten/src/THC/generic/THCTensorMathBlas.cu:479' tensors-on-different-devices
want_ids '#define THCAssertSameGPU(expr) if (!expr) THError("arguments are located on different GPUs")' ""
# holdout-36, -38 and -39 (retired at stop 47, read and tuned on).
# jaxlib's own strings for cuSOLVER, cuBLAS and cuFFT statuses (ErrorString
# in jaxlib/gpu/gpu_kernel_helpers.cc), each with its status's id.
want_ids '    lwork, opaque = cusolver_kernels.build_syevj_descriptor(\nRuntimeError: cuSolver internal error**' gpu-library-error
want_ids 'RuntimeError: cuSolver allocation failed' cuda-out-of-memory
want_ids 'RuntimeError: cuBlas execution failed' cublas-execution-failed
want_ids 'RuntimeError: cuBlas has not been initialized' cublas-handle-failed
want_ids 'RuntimeError: cuFFT invalid plan' gpu-invalid-call
want_ids 'RuntimeError: cuSolver success.' ""
want_ids 'cuFFT invalid sizes are rounded up' ""
# glibc's "symbol X version Y not defined in file Z with link time
# reference" (elf/dl-lookup.c) for cuBLAS/cuBLASLt or nvJitLink: two copies.
want_ids 'OSError: /opt/conda/lib/python3.9/site-packages/torch/lib/../../../../libcublas.so.11: symbol cublasLtGetStatusString version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference' library-path-shadows-framework
want_ids 'ImportError: /usr/lib/libfoo.so.1: symbol bar version LIBFOO_1.2 not defined in file libfoo.so.1 with link time reference' ""
# LightGBM's tree learner factory in a build without the learner asked for.
want_ids '[LightGBM] [Fatal] GPU Tree Learner was not enabled in this build.\nPlease recompile with CMake option -DUSE_GPU=1' framework-cpu-only-build
want_ids 'lightgbm.basic.LightGBMError: CUDA Tree Learner was not enabled in this build.' framework-cpu-only-build
want_ids '[LightGBM] [Warning] Tree learner was not enabled in this build: using serial' ""
# nvidia-smi's own words when it cannot load NVML (a loader wording).
want_ids "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system." nvml-library-missing
want_ids "couldn't find the config file in your system" ""
# ggml's CUBLAS_CHECK: "CUDA error: " + cublasGetStatusString(); a paste
# cut before the statement line: the location's function is a cuBLAS
# GEMM's caller (ggml_cuda_mul_mat_cublas_impl), or it is not.
want_ids 'llamacpp/ggml/src/ggml-cuda/ggml-cuda.cu:108: CUDA error\n1.22.756.113 E CUDA error: the requested functionality is not supported\n1.22.756.116 E   current device: 0, in function ggml_cuda_mul_mat_cublas_impl at llamacpp/ggml/src/ggml-cuda/ggml-cuda.cu:1554' gpu-operation-not-supported
want_ids 'CUDA error: an internal operation failed\n  current device: 0, in function ggml_cuda_op_mul_mat_cublas at ggml-cuda.cu:8713' gpu-library-error
want_ids 'Error: an internal operation failed' ""
want_ids 'CUDA error: the requested functionality is not supported\n  current device: 0, in function ggml_backend_cuda_synchronize at ggml-cuda.cu:2400' ""
# CUDA.jl's CuError as Julia shows it: the CUresult in hex.
want_ids 'CUDA.CuError(code=CUDA.cudaError_enum(0x00000004), details=CUDA.Optional{String}(data=nothing))' gpu-library-error
want_ids 'ERROR: CuError(code=CUDA.cudaError_enum(0x000002bc), details=nothing)' illegal-memory-access
want_ids 'CUDA.cudaError_enum(0x00000000)' ""
# ---- fallbacks that succeed (data/explain/fallback_wordings) -------------
# A line that says the program went on without what failed names no id from
# the error it quotes; a line that ends such a message (after a quoted error
# of several lines) takes back what the line above named; a real failure
# later is named from its own line.
# ggml (ggml-cuda.cu, ggml_cuda_host_malloc; older builds' warning): the
# caller falls back to a CPU buffer; the memory is the host's.
want_ids 'ggml_cuda_host_malloc: failed to allocate 1024.00 MiB of pinned memory: out of memory' ""
want_ids 'ggml_cuda_host_malloc: failed to allocate 512.00 MiB of pinned memory: CUDA error: out of memory' ""
want_ids 'ggml_cuda_host_malloc: failed to allocate 1024.00 MiB of pinned memory: out of memory\nggml_backend_cuda_buffer_type_alloc_buffer: allocating 8192.00 MiB on device 0: cudaMalloc failed: out of memory' cuda-out-of-memory
want_ids 'E0812 05:45:01.326063 1 pinned_memory_manager.cc:192] failed to allocate pinned system memory: CUDA driver version is insufficient for CUDA runtime version' driver-too-old-for-framework
# vLLM (symm_mem.py): the quoted error on the line, or spread over the
# lines above its last line (PyTorch's CUDA error ends with a line end).
want_ids 'WARNING 10-01 12:00:00 [symm_mem.py:90] SymmMemCommunicator: symmetric memory initialization failed: CUDA driver error: out of memory Communicator is not available. To suppress this warning set VLLM_ALLREDUCE_USE_SYMM_MEM=0' ""
want_ids 'WARNING 10-01 12:00:00 [symm_mem.py:90] SymmMemCommunicator: symmetric memory initialization failed: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n Communicator is not available. To suppress this warning set VLLM_ALLREDUCE_USE_SYMM_MEM=0' ""
want_ids 'WARNING 10-01 12:00:00 [symm_mem.py:90] SymmMemCommunicator: symmetric memory initialization failed: CUDA driver error: out of memory Communicator is not available. To suppress this warning set VLLM_ALLREDUCE_USE_SYMM_MEM=0\nINFO 10-01 12:00:05 [gpu_worker.py:300] Loading weights\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.02 GiB is free.' cuda-out-of-memory
# SGLang (disaggregation/mooncake/utils.py): the pool's error, then the
# fallback; the same spread over lines.
want_ids '[2025-07-02 07:41:59 TP0] Failed to initialize custom memory pool NVLINK: CUDA error: operation not supported. Falling back to default memory pool.' ""
want_ids '[2025-07-02 07:41:59 TP0] Failed to initialize custom memory pool NVLINK: CUDA error: operation not supported\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n. Falling back to default memory pool.' ""
# A log indented as a whole (Jupyter, a quote) is not mid-sentence: the
# fallback warning below an indented error takes nothing back (ecosystem-6's
# tiny-cuda-nn log, indented by the presentation test); more indented than
# the error, it does.
want_ids '    RuntimeError: cutlass_matmul.h:332 status failed with error Error Internal\n\n    Killed\n    Warning: FullyFusedMLP is not supported for the selected architecture 60. Falling back to CutlassMLP.' gpu-library-error
want_ids '    RuntimeError: CUDA error: out of memory\n        Falling back to default memory pool.' ""
# The take-back reaches FX_LINES (6) lines up only, and never past another
# fallback line (a warning's source line echoed under it).
want_ids 'RuntimeError: CUDA error: out of memory\na\nb\nc\nd\ne\nf\n. Falling back to default memory pool.' cuda-out-of-memory
want_ids 'RuntimeError: CUDA error: out of memory\nx.py:5: UserWarning: conv2d_gradfix not supported. Falling back to torch.nn.functional.conv2d().\n  warnings.warn("conv2d_gradfix not supported. Falling back to torch.nn.functional.conv2d().")' cuda-out-of-memory
# ComfyUI (comfy/ldm/modules/attention.py): flash-attn's refusal, then
# PyTorch's SDPA; sage attention, then PyTorch's; a later crash is named.
want_ids 'WARNING:root:Flash Attention failed, using default SDPA: FlashAttention only supports Ampere GPUs or newer.' ""
want_ids 'ERROR:root:Error running sage attention: CUDA error: no kernel image is available for execution on the device, using pytorch attention instead.' ""
want_ids 'WARNING:root:Flash Attention failed, using default SDPA: FlashAttention only supports Ampere GPUs or newer.\n!!! Exception during processing !!! CUDA error: out of memory' cuda-out-of-memory
# accelerate (state.py): FP8 refused on the GPU, FP16 used.
want_ids 'The current device has compute capability of (8, 6) which is insufficient for FP8 mixed precision training (requires a GPU Hopper/Ada Lovelace or higher, compute capability of 8.9 or higher). Will use FP16 instead.' ""
# TensorFlow's BFC allocator (xla/tsl/framework/bfc_allocator.cc), before
# and after "this may mean"; the allocation that then fails is named.
want_ids '2021-11-07 08:09:54.258990: W tensorflow/core/common_runtime/bfc_allocator.cc:271] Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.55GiB with freed_by_count=0. The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory were available.' ""
want_ids 'W0000 00:00:1700000000.000000 1 bfc_allocator.cc:296] Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.00GiB from the lower end with freed_by_count=0. The caller indicates that this is not a failure, but this may mean that there could be performance gains if more memory were available.' ""
want_ids 'W tensorflow/core/common_runtime/bfc_allocator.cc:219] Allocator (GPU_0_bfc) ran out of memory trying to allocate 538.33MiB. The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory were available.\nE tensorflow/stream_executor/cuda/cuda_driver.cc:936] failed to allocate 378.60M (396990720 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY' cuda-out-of-memory
# A fallback to the CPU leaves the GPU unused: its reason stays named; so
# does a retry whose outcome the line does not tell.
want_ids 'An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to CPU.' framework-cpu-only-build
want_ids "Failed to initialize custom memory pool NVLINK: CUDA error: operation not supported. Falling back to CPU." gpu-operation-not-supported
want_ids "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding." cuda-out-of-memory
# ecosystem-48's classes. The NVIDIA runtime missing from the container
# engine in Docker's older words (and docker compose's wrapping), in
# containerd's CRI words for a pod's "nvidia" RuntimeClass and in Podman's
# for --runtime=nvidia without such a runtime in containers.conf; other runtimes'
# names are not a GPU matter. HCC's kernel bundle without a code object for
# the device. A Windows folder of drive C under WSL's /mnt automount places
# a run in WSL: "no CUDA-capable device" there is the paravirtualised GPU,
# while other /mnt paths say nothing.
want_ids 'docker: Error response from daemon: Unknown runtime specified nvidia.' container-without-gpu
want_ids 'ERROR: for nada  Cannot create container for service nada: Unknown runtime specified nvidia' container-without-gpu
want_ids 'docker: Error response from daemon: Unknown runtime specified runsc.' ""
want_ids 'E1209 kubelet: RunPodSandbox failed error="failed to get sandbox runtime: no runtime for \\"nvidia\\" is configured"' container-without-gpu
want_ids 'failed to get sandbox runtime: no runtime for "nvidia" is configured' container-without-gpu
want_ids 'failed to get sandbox runtime: no runtime for "kata" is configured' ""
want_ids 'Error: default OCI runtime "nvidia" not found: invalid argument' container-without-gpu
want_ids 'Error: default OCI runtime "krun" not found: invalid argument' ""
want_ids '### HCC RUNTIME ERROR: Fail to find compatible kernel at file:mcwamp.cpp line:346' rocm-gfx-unsupported
want_ids '  File "/mnt/c/Users/me/proj/.venv/lib/python3.12/site-packages/numba_cuda/numba/cuda/cudadrv/driver.py", line 258, in ensure_initialized\nnumba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in CUDA_ERROR_NO_DEVICE (100)' wsl-gpu-paravirtualization-failed
want_ids 'cd /mnt/c/Program Files/tool && ./run\nRuntimeError: CUDA error: no CUDA-capable device is detected' wsl-gpu-paravirtualization-failed
want_ids '  File "/mnt/cache/Users/me/train.py", line 3\nRuntimeError: CUDA error: no CUDA-capable device is detected' cuda-visible-devices-hides-all
want_ids '  File "/data/mnt/c/Users/me/train.py", line 3\nRuntimeError: CUDA error: no CUDA-capable device is detected' cuda-visible-devices-hides-all
# XLA's check of the executor's DNN support before its cuDNN passes: null
# when cuDNN could not be initialised for that GPU (ecosystem-48); another
# RET_CHECK on a null pointer is no such failure.
want_ids '2023-07-17 23:28:48.858099: I tensorflow/core/common_runtime/executor.cc:1197] [/job:localhost/replica:0/task:0/device:GPU:2] (DEBUG INFO) Executor start aborting (this does not indicate an error and you can ignore this message): INTERNAL: RET_CHECK failure (tensorflow/compiler/xla/service/gpu/gpu_compiler.cc:618) dnn != nullptr' cudnn-handle-failed
want_ids 'INTERNAL: RET_CHECK failure (external/xla/xla/service/gpu/gpu_compiler.cc:2571) dnn_support != nullptr' cudnn-handle-failed
want_ids 'INTERNAL: RET_CHECK failure (xla/service/hlo_verifier.cc:120) instruction != nullptr' ""
# ecosystem-50's classes. A status name that is an operand of a failed
# equality check is the value the check expected, not the status (the
# CUDA_CALL macro of MXNet, TVM, DGL: "Check failed: e == cudaSuccess || e
# == cudaErrorCudartUnloading CUDA: unknown error"); a failed "!=" check
# names the status it got.
want_ids '[10:59:41] src/storage/storage.cc:38: Check failed: e == cudaSuccess || e == cudaErrorCudartUnloading CUDA: unknown error' cuda-unknown-error
want_ids 'what():  [20:58:09] cache.cpp:237: Check failed: e == cudaSuccess || e == cudaErrorCudartUnloading: CUDA: out of memory' cuda-out-of-memory
want_ids 'Check failed: (status == NV_OK) || (status == CUDA_ERROR_NOT_INITIALIZED)' ""
want_ids "Assertion \`err != cudaErrorMemoryAllocation' failed." cuda-out-of-memory
# nvidia-modprobe finds no NVIDIA display device on the PCI bus: no GPU,
# and the CUDA error that follows is that (not the driver, not CUDA).
want_ids 'NVIDIA: no NVIDIA devices found' no-gpu
want_ids 'Check failed: e == cudaSuccess CUDA: unknown error\nNVIDIA: no NVIDIA devices found' no-gpu
want_ids 'RuntimeError: Found no NVIDIA driver on your system.\nNVIDIA: no NVIDIA devices found' no-gpu
want_ids '[run-dgx] no NVIDIA devices found, running CPU-only' ""
# cublasCreate / cudnnCreate failing in other programs' words (Caffe's
# "Cannot create Cublas handle. Cublas won't be available.").
want_ids "E1112 23:08:51.304719 32634 common.cpp:91] Cannot create Cublas handle. Cublas won't be available." cublas-handle-failed
want_ids "Cannot create Cudnn handle. Cudnn won't be available." cudnn-handle-failed
want_ids 'terminate called: cannot create cuBLAS handle' cublas-handle-failed
want_ids 'creating one cublas handle per stream' ""
# The NVIDIA kernel modules that do not load, in kmod's, udev's and
# systemd's words; another module is none of it.
want_ids "(udev-worker)[106246]: nvidia: Process '/sbin/modprobe nvidia-drm' failed with exit code 1." nvidia-driver-not-loaded
want_ids "modprobe: ERROR: could not insert 'nvidia': No such device" nvidia-driver-not-loaded
want_ids 'modprobe: FATAL: Module nvidia not found in directory /lib/modules/6.8.0-45-generic' nvidia-driver-not-loaded
want_ids "systemd-modules-load[312]: Failed to insert module 'nvidia_uvm': Key was rejected by service" nvidia-driver-not-loaded
want_ids "modprobe: ERROR: could not insert 'nvidiafb': No such device" ""
want_ids "Process '/sbin/modprobe snd-hda-intel' failed with exit code 1." ""
# DKMS failing to build the nvidia module for a kernel, in dkms's words
# (the module in the make.log path, the autoinstall summary, dkms 3's
# "Build of ... failed for:"), Void's hooks' and dpkg's; another module,
# or nvidia-fs (GPUDirect Storage), is none of it.
want_ids 'Error! Bad return status for module build on kernel: 6.8.0-36-generic (x86_64)\nConsult /var/lib/dkms/nvidia/545.29.06/build/make.log for more information.' nvidia-driver-not-loaded
want_ids 'Consult the make.log in the build directory\n/var/lib/dkms/nvidia-331-updates/331.38/build/ for more information.' nvidia-driver-not-loaded
want_ids 'dkms autoinstall on 6.8.10-300.fc40.x86_64/x86_64 failed for nvidia(10)' nvidia-driver-not-loaded
want_ids 'Autoinstall on 6.9.1-arch1-1 failed for module(s) v4l2loopback(10) nvidia(10).' nvidia-driver-not-loaded
want_ids 'Error! Build of nvidia.ko failed for: 6.15.2-arch1-1 (x86_64)' nvidia-driver-not-loaded
want_ids "Building DKMS module 'nvidia-367.35' for kernel-4.7.2_1... FAILED!" nvidia-driver-not-loaded
want_ids "DKMS module 'nvidia-580.126.18' failed to build, please check /var/lib/dkms" nvidia-driver-not-loaded
want_ids 'Building DKMS module: nvidia-390.132... FAILED!' nvidia-driver-not-loaded
want_ids 'dpkg: error processing package nvidia-dkms-545 (--configure):' nvidia-driver-not-loaded
want_ids 'Consult /var/lib/dkms/virtualbox/4.3.14/build/make.log for more information.' ""
want_ids 'Consult /var/lib/dkms/nvidia-fs/2.17.5/build/make.log for more information.' ""
want_ids 'Autoinstall on 6.9.1 failed for module(s) nvidia-fs(10).' ""
want_ids 'Building DKMS module: zfs-2.0.1... FAILED!' ""
want_ids 'Building DKMS module: nvidia-390.132... done.' ""
# The NVIDIA X driver's "Failed to initialize the NVIDIA GPU at PCI:..."
# (alone, or as Bumblebee relays it): the kernel driver could not bring the
# GPU up; with the kernel's fallen-off line, that line's cause alone.
want_ids '[    14.524] (EE) NVIDIA(0): Failed to initialize the NVIDIA GPU at PCI:5:0:0.  Please' nvidia-gpu-init-failed
want_ids '[39840.534457] [ERROR]Cannot access secondary GPU - error: [XORG] (EE) NVIDIA(0): Failed to initialize the NVIDIA GPU at PCI:4:0:0.  Please' nvidia-gpu-init-failed
want_ids 'NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.\n(EE) NVIDIA(GPU-0): Failed to initialize the NVIDIA GPU at PCI:1:0:0.  Please' gpu-lost
want_ids '(EE) NVIDIA(0): Failed to initialize the NVIDIA graphics device!' ""
# cudaGetDeviceCount failed, in Triton's and other programs' words; with
# the status's string after it, the string's own code says why.
want_ids 'W0728 10:07:39.947975 8 metrics.cc:274] Cannot get CUDA device count, GPU metrics will not be available' cuda-init-failed
want_ids 'Cannot get CUDA device count: no CUDA-capable device is detected' cuda-visible-devices-hides-all
want_ids 'found CUDA device count 2' ""
# Xid events as GPU health monitors report them (NVIDIA's device plugin,
# GPUd); Xid=0 of an old device plugin's loop is no event.
want_ids 'I0723 health.go:120] XidCriticalError: Xid=48 on Device=GPU-1234; marking device as unhealthy.' xid-errors
want_ids 'XID 13 detected on GPU-ac896b35' xid-errors
want_ids 'XidCriticalError: Xid=0, All devices will go unhealthy.' ""
want_ids 'SXID 12028 detected on GPU-ac896b35' ""
# ecosystem-53's classes. bitsandbytes' "Could not load bitsandbytes native
# library: {e}" naming a CUDA library is that library missing, not
# bitsandbytes' own file (which stays bitsandbytes-native-library-missing).
want_ids 'ERROR:bitsandbytes.cextension:Could not load bitsandbytes native library: libcusparse.so.11: cannot open shared object file: No such file or directory' cuda-library-missing
want_ids 'Could not load bitsandbytes native library: libcudart.so.12: cannot open shared object file: No such file or directory' cuda-library-missing
want_ids 'Could not load bitsandbytes native library: /opt/conda/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cpu.so: cannot open shared object file: No such file or directory' bitsandbytes-native-library-missing
# cudaHostRegister pins host memory: its "out of memory" is not the GPU's;
# a GPU allocation's still is.
want_ids 'ds4: CUDA host registration skipped: out of memory' ""
want_ids 'cudaHostRegister: CUDA error: out of memory' ""
want_ids 'ds4: CUDA host registration skipped: out of memory\nRuntimeError: CUDA error: out of memory' cuda-out-of-memory
# TensorRT's builder skips a failing tactic as a warning and goes on; its
# own error lines are named.
want_ids '[03/17/2023-17:52:59] [TRT] [W] Skipping tactic 0 due to Myelin error: autotuning: CUDA error 3 allocating 0-byte buffer:' ""
want_ids '[E] Error[9]: Skipping tactic 0 due to exception: CUDA error: out of memory' cuda-out-of-memory
want_ids '[TRT] [W] Skipping tactic 0 due to exception: CUDA error: out of memory' ""
# ecosystem-47's classes. ollama's GPU discovery puts a CUresult or a
# cudaError_t after its own words (gpu_info_nvcuda.c, gpu_info_cudart.c):
# the number is looked up as the library's status code; its shutdown line
# carries none. CMake's search for the CUDA compiler (check_language's
# "- NOTFOUND", enable_language's "No CMAKE_CUDA_COMPILER could be found")
# is a build without the toolkit; a found compiler, or HIP's, is not.
want_ids 'time=2025-02-10T11:28:30.991+08:00 level=INFO source=gpu.go:283 msg="error looking up nvidia GPU memory" error="cuda driver library failed to get device context 801"' gpu-operation-not-supported
want_ids 'msg="error looking up nvidia GPU memory" error="cuda driver library init failure: 3"' cuda-init-failed
want_ids 'cuda driver library device memory info lookup failure 2' cuda-out-of-memory
want_ids 'error="cudart init failure: 999"' cuda-unknown-error
want_ids 'unable to get cudart device count: 35' driver-too-old-for-framework
want_ids 'error="nvml vram init failure: 18"' driver-library-mismatch
want_ids 'nvml vram init failure: 9' nvidia-driver-not-loaded
want_ids 'releasing cuda driver library' ""
want_ids 'releasing nvml library' ""
want_ids '-- Looking for a CUDA compiler - NOTFOUND' cuda-toolkit-not-found
want_ids 'GPU isn'"'"'t used\nLooking for a CUDA compiler - NOTFOUND' cuda-toolkit-not-found
want_ids 'CMake Error at ggml/src/ggml-cuda/CMakeLists.txt:41 (enable_language):\n  No CMAKE_CUDA_COMPILER could be found.' cuda-toolkit-not-found
want_ids '-- Looking for a CUDA compiler - /usr/local/cuda/bin/nvcc' ""
want_ids '-- Looking for a CUDA compiler' ""
want_ids '-- Looking for a HIP compiler - NOTFOUND' ""
# ecosystem-57's classes (cloud GPU platforms and packaging/build tools).
# XLA's warning that no CUDA root holds nvvm/libdevice (nvptx_libdevice_path.cc,
# TensorFlow's gpu_backend_lib.cc before it) and numba's "Missing libdevice
# file": the toolkit's libdevice is not found; XLA's VLOG of a found one is
# no error.
want_ids "2025-01-05 17:02:35.709071: W tensorflow/compiler/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:521] Can't find libdevice directory \${CUDA_DIR}/nvvm/libdevice. This may result in compilation or runtime failures, if the program we try to run uses routines from libdevice." cuda-toolkit-not-found
want_ids "W external/local_xla/xla/service/gpu/llvm_gpu_backend/default/nvptx_libdevice_path.cc:41] Can't find libdevice directory \${CUDA_DIR}/nvvm/libdevice." cuda-toolkit-not-found
want_ids "RuntimeError: Missing libdevice file. Please ensure you have package cudatoolkit >= 11.0" cuda-toolkit-not-found
want_ids "Missing libdevice file for compute_52." cuda-toolkit-not-found
want_ids "I nvptx_compiler.cc:90] Found libdevice dir /usr/local/cuda/nvvm/libdevice" ""
# glibc's loader quoted without its reason still names the library it
# could not load; a reason that says the file is the wrong one stays out.
want_ids "tensorflow_model_server: error while loading shared libraries: libcuda.so.1" cuda-library-missing
want_ids "./llama-server: error while loading shared libraries: libamdhip64.so.6" rocm-library-missing
want_ids "x: error while loading shared libraries: libcuda.so.1: wrong ELF class: ELFCLASS32" ""
want_ids "x: error while loading shared libraries: libfoo.so.3" ""
# A CUresult wrapping around a number the driver's enum lacks reads in the
# runtime's numbering (a binding that keeps cudaError_t in its CUresult type:
# gominer's barnex/cuda5); the driver's own numbers and a number neither
# enum has are unchanged.
want_ids "panic: Unknown CUresult: 35" driver-too-old-for-framework
want_ids "CUresult: 700" illegal-memory-access
want_ids "panic: Unknown CUresult: 4242" ""
# CUDA's "no CUDA-capable device" after the loader could not insert the
# nvidia module follows from the module, not from CUDA_VISIBLE_DEVICES;
# another module's failure leaves it.
want_ids "modprobe: ERROR: could not insert 'nvidia': No such device\ncudaGetDeviceCount failed no CUDA-capable device is detected" nvidia-driver-not-loaded
want_ids "systemd-modules-load[301]: Failed to insert module 'nvidia': No such device\nRuntimeError: No CUDA GPUs are available" nvidia-driver-not-loaded
want_ids "modprobe: ERROR: could not insert 'vboxdrv': No such device\nRuntimeError: No CUDA GPUs are available" cuda-visible-devices-hides-all
# ---- ecosystem-56 (tuning): wrappings and wordings --------------------
# dlib's CHECK_* macros: "Error while calling CALL in file F:L. code: N,
# reason: ...": N is the status of the library whose call the line names.
want_ids "terminate called after throwing an instance of 'dlib::cublas_error'\n  what():  Error while calling cublasSgemm(context(), transb, transa, dest_nc, dest_nr, k) in file /x/dlib/cuda/cublas_dlibapi.cpp:152. code: 13, reason: A call to cuBLAS failed" cublas-execution-failed
want_ids 'RuntimeError: Error while calling cublasSgemmBatched(context(), CUBLAS_OP_N) in file /x/dlib/cuda/cublas_dlibapi.cpp:258. code: 14, reason: A call to cuBLAS failed' gpu-library-error
want_ids 'Error while calling my_step(x) in file /x/app.cpp:58. code: 13, reason: failed' ""
# OpenCV's cudaSafeCall: GpuApiCallError (-217, "Gpu API call") carries
# cudaGetErrorString()'s text, in 2.4's and 3.x+'s forms.
want_ids 'OpenCV Error: Gpu API call (unknown error) in create, file /x/modules/gpu/src/matrix_operations.cpp, line 255' cuda-unknown-error
want_ids "  what():  /x/modules/gpu/src/matrix_operations.cpp:255: error: (-217) unknown error in function create" cuda-unknown-error
want_ids "cv2.error: OpenCV(4.5.1) /x/cudaimgproc/src/cvtcolor.cpp:120: error: (-217:Gpu API call) an illegal memory access was encountered in function 'cvtColor'" illegal-memory-access
want_ids "cv2.error: OpenCV(4.5.1) /x/imgproc/src/resize.cpp:3929: error: (-215:Assertion failed) unknown error in function 'resize'" ""
# torch-directml's allocation failure, and "not enough video memory" in
# other programs' words; a warning of what may happen is none.
want_ids 'RuntimeError: Could not allocate tensor with 1032884736 bytes. There is not enough GPU video memory available!' cuda-out-of-memory
want_ids 'Error: insufficient video memory to create the texture atlas' cuda-out-of-memory
want_ids 'Note: if there is not enough video memory, lower the resolution' ""
# The oldest architecture a program runs on, in its own words.
want_ids 'WARNING:  All GPUs must be ampere (30 series) or newer. AMD GPUs are not supported.' gpu-too-old-for-kernel-library
want_ids 'RuntimeError: this kernel requires an Ampere or newer GPU' gpu-too-old-for-kernel-library
want_ids 'ValueError: FP8 is only supported on Hopper or later' gpu-too-old-for-kernel-library
want_ids 'INFO: Ampere or newer GPU detected, using flash attention' ""
want_ids 'note: this build does not require Ampere or newer' ""
# A command line that offers no GPU device: the build has no GPU backend.
want_ids "error: invalid value 'cuda' for '--device <DEVICE>'\n  [possible values: cpu]" framework-cpu-only-build
want_ids "error: invalid value 'cuda:7' for '--device <DEVICE>'" ""
want_ids "error: invalid value 'fast' for '--mode <MODE>'" ""
# A data type the GPU has no arithmetic for (holdout-40, stop 48): PyTorch
# autocast's bfloat16 refusal and the scripts that repeat its check; a
# minimum named for fp8 or bfloat16 ("8.9 or higher") is the hardware's,
# one named for nothing in particular a build's list.
want_ids 'RuntimeError: Current CUDA Device does not support bfloat16. Please switch dtype to float16.' gpu-too-old-for-kernel-library
want_ids 'ValueError: Requested bf16 precision, but the current CUDA device does not support bfloat16.' gpu-too-old-for-kernel-library
want_ids 'warning: the CPU device does not support bfloat16 matmul fast paths' ""
want_ids "ERROR: FP8 models require a GPU with Compute Capability 8.9 or higher (e.g., RTX 4090). Your GPU's capability is 8.6. Please select a non-FP8 model." gpu-too-old-for-kernel-library
want_ids "ValueError: FP8 models require a GPU with compute capability 8.9 or higher (e.g., RTX 4090).Your GPU compute capability is 8.6. Please choose a non-FP8 model." gpu-too-old-for-kernel-library
want_ids "ERROR: these models require a GPU with Compute Capability 8.9 or higher. Your GPU's capability is 8.6." gpu-arch-unsupported-by-framework
want_ids "INFO: FP8 models require a GPU with Compute Capability 8.9 or higher; your GPU's capability is 9.0." ""
# NVRTC without its builtins library, NVIDIA's OpenGL driver out of GPU
# memory (its dialog wraps the sentence), JAX's jit given a GPU array and
# a CPU one (holdout-40, -41 at stop 48).
want_ids 'RuntimeError: nvrtc: error: failed to load builtins for compute_75.' cuda-library-missing
want_ids 'Exception: Error compiling program: nvrtc: error: failed to load builtins' cuda-library-missing
want_ids 'An application has requested more GPU memory than is\navailable in the system.\nThe application will now be closed.' cuda-out-of-memory
want_ids 'ValueError: Received incompatible devices for jitted computation. Got ARG_SHARDING with device ids [0] on platform GPU and ARG_SHARDING with device ids [0] on platform CPU' tensors-on-different-devices
want_ids "ValueError: Received incompatible devices for jitted computation. Got argument x of _identity_fn with shape bfloat16[X, Y] and device ids [0..15] on platform TPU and jit's context mesh with device ids [0] on platform CPU" ""
# A message wrapped at a word at no fixed width (soft_candidate): R's cli
# bullet with its two-blank indent (holdout-38), a kubelet event copied
# from a narrow window (ecosystem-57), XLA's line cut after "Out"
# (ecosystem-41). A location's line ("in external/...") and ggml's field
# line ("current device: 0, in function ...") stay lines of their own; a
# line that starts as a new one (a capital, an indent of four) is no wrap.
want_ids '! Model failed: Error in py_call_impl(callable, call_args$unnamed, call_args$named) : AssertionError: Torch\n  not compiled with CUDA enabled Run `reticulate::py_last_error()` for details' framework-cpu-only-build
want_ids 'stderr: nvidia-container-cli --load-kmods configure]: nvidia-container-cli: initialization error: cuda error: no cuda-capable device is \ndetected": unknown' cuda-visible-devices-hides-all
want_ids '2019-06-13 01:17:08.886805: E local_client.cc:672] Execution of replica 0 failed: Resource exhausted: Out \nof memory while trying to allocate 5520758552 bytes.' cuda-out-of-memory
want_ids "RuntimeError: UNKNOWN: device kernel image is invalid\nin external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_asm_compiler.cc(69): 'cuLinkComplete(link_state, &cubin_out, &cubin_size)'" gpu-arch-unsupported-by-framework
want_ids 'Error: llama runner process has terminated: CUDA error: the resource allocation failed\n  current device: 0, in function cublas_handle at ggml/src/ggml-cuda/common.cuh:644\n  cublasCreate_v2(&cublas_handles[device])' cublas-handle-failed
want_ids '! Model failed: Error in py_call_impl(callable, call_args$unnamed, call_args$named) : AssertionError: Torch\n    not compiled with CUDA enabled Run `reticulate::py_last_error()` for details' ""
want_ids 'stderr: nvidia-container-cli --load-kmods configure]: initialization check says no cuda-capable device is\nDetected later: yes' ""
# A logger's prefix before each line, the wrapped one's too: the next
# line goes on after it (a timestamp, torchrun's rank, a quote).
want_ids '[rank0]: Error in py_call_impl(callable, call_args) : AssertionError: Torch\n[rank0]:   not compiled with CUDA enabled' framework-cpu-only-build
want_ids '2024-05-01T10:00:00.123Z nvidia-container-cli: initialization error: cuda error: no cuda-capable device is\n2024-05-01T10:00:00.124Z detected' cuda-visible-devices-hides-all
want_ids '> E local_client.cc:672] Execution of replica 0 failed: Resource exhausted: Out\n> of memory while trying to allocate 5520758552 bytes.' cuda-out-of-memory

# ---- holdout-48 and -49 (retired at stop 49): cluster causes, rows ------
# SageAttention's dispatch names the GPU's own capability ("sm61", from
# torch.cuda.get_device_capability); its kernels start at sm80, so an older
# GPU is too old for the library; a newer one it does not list stays the
# architecture rule's (a library that predates the GPU).
want_ids 'ValueError: Unsupported CUDA architecture: sm61' gpu-too-old-for-kernel-library
want_ids 'The generation of the video has encountered an error. '"'"'Unsupported CUDA architecture: sm75'"'" gpu-too-old-for-kernel-library
want_ids 'ValueError: Unsupported CUDA architecture: sm100' gpu-arch-unsupported-by-framework
# HAMi-core's allocator refuses an allocation over the container's vGPU
# memory limit (allocator.c, oom_check); its other lines are no error.
want_ids '[HAMI-core ERROR (pid:30 thread=140382094939712 allocator.c:53)]: Device 0 OOM 3171158016 / 3145728000\nRuntimeError: CUDA error: unrecognized error code' cuda-out-of-memory
want_ids '[HAMI-core Msg(30:140387636202368:libvgpu.c:855)]: Initialized' ""
want_ids '[HAMI-core Debug(30:140387636202368:allocator.c:60)]: Device 0 current memory 1024 / 3145728000' ""
# MIG mode on with no MIG device: the device plugin's and GPU feature
# discovery's refusals; a node with two MIG profiles is another matter.
want_ids 'panic: At least one device with migEnabled=true was not configured correctly: No MIG devices associated with /dev/nvidia0: GPU-fe14a161-d1f3-7706-c257-3b22fe15c684' mig-enabled-without-instances
want_ids 'E0101 12:00:00.000000 1 main.go:123] error: No MIG devices present on node' mig-enabled-without-instances
want_ids 'panic: More than one MIG device type present on node' ""
# NCCL's NVLS set-up failing with "invalid argument" or "unknown error":
# Fabric Manager restarted without a GPU reset; the status and NCCL's
# "unhandled cuda error" after it are folded into it. Its out of memory is
# memory, and another transport's invalid argument stays the call's.
want_ids "node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'\nnode23:12098:12141 [2] NCCL INFO transport/nvls.cc:394 -> 1" fabric-manager-restarted-without-reset
want_ids "transport/nvls.cc:165 NCCL WARN Cuda failure 'invalid argument'\nNCCL INFO transport/nvls.cc:324 -> 1\ntorch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.5" fabric-manager-restarted-without-reset
want_ids "gpu47:4962:5097 [1] transport/nvls.cc:223 NCCL WARN Cuda failure 999 'unknown error'" fabric-manager-restarted-without-reset
want_ids "node1:1:2 [0] transport/nvls.cc:244 NCCL WARN Cuda failure 2 'out of memory'" cuda-out-of-memory
want_ids "node1:1:2 [0] transport/p2p.cc:275 NCCL WARN Cuda failure 1 'invalid argument'" gpu-invalid-call
want_ids 'node1:1:2 [0] NCCL INFO transport/nvls.cc:394 -> 1\nRuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda error' nccl-error

# ---- holdout-43 and -44 (retired at stop 48): wrappings and names ------
# The driver's PTX JIT log after its 222 code is the driver's, not a ptxas
# on PATH; a ptxas of its own still is.
want_ids "numba.cuda.cudadrv.driver.LinkerError: [222] Call to cuLinkAddData results in CUDA_ERROR_UNSUPPORTED_PTX_VERSION\nptxas application ptx input, line 9; fatal   : Unsupported .version 8.4; current version is '8.2'" ptx-toolchain-too-new
want_ids "ptxas /tmp/tinycuda_03fe.ptx, line 9; fatal   : Unsupported .version 8.5; current version is '7.5'" ptxas-too-old
# Pyrit's copied CUresult name table and its three misspelt names.
want_ids 'SystemError: CUDA_ERROR_INVALID SOURCE' gpu-invalid-call
want_ids 'SystemError: CASE_ERROR_INVALID_HANDLE' gpu-invalid-call
want_ids 'SystemError: CUDA_ERROR_LAUNCH_OUT_OF_RESOUCES' gpu-invalid-call
# MegEngine's cuDNN check; the words alone are none.
want_ids 'extra message: cudnn version mismatch: compiled with 8101; detected 8204 at runtime, may caused by customized environment' cudnn-version-mismatch
want_ids 'note: MegEngine checks for a cudnn version mismatch at start' ""

# ---- holdout-45 to -47 (retired at stop 49): wrappings, families, rows ----
# Theano's device_malloc puts the runtime's string in parentheses after
# "bytes of device memory"; its other words stay silent.
want_ids 'MemoryError: Error allocating 7471104 bytes of device memory (out of memory).' cuda-out-of-memory
want_ids 'Error allocating 100 bytes of device memory (unspecified launch failure).' illegal-memory-access
want_ids 'Reserved 7471104 bytes of device memory (out of 1341718528 total).' ""
# A kernel library's minimum with no GPU named is the hardware's floor;
# a build's minimum (no kernel named) stays the build's.
want_ids 'RuntimeError: FlashInfer requires GPUs with sm75 or higher' gpu-too-old-for-kernel-library
want_ids 'RuntimeError: this build requires GPUs with sm75 or higher' gpu-arch-unsupported-by-framework
# glog's check on a count of CUDA or GPU devices that came back 0; a
# count of anything else in a CUDA file is no GPU cause.
want_ids 'F0101 12:00:00.000000  1234 cuda.cc:41] Check failed: num_cuda_devices > 0 (0 vs. 0)' no-usable-gpu
want_ids 'Check failed: num_gpus > 0 (0 vs. 0)' no-usable-gpu
want_ids '2020-05-01 04:53:19.086148: F ./tensorflow/core/util/cuda_launch_config.h:127] Check failed: work_element_count > 0 (0 vs. 0)' ""
# "compiled (built) without <GPU backend> support"; bitsandbytes keeps
# its own id, a conditional is advice.
want_ids 'W0824 18:37:57.732513 69808 bundle_adjustment_ceres.cc:172] Requested to use GPU for bundle adjustment, but Ceres was compiled without cuDSS support. Falling back to CPU-based sparse solvers.' framework-cpu-only-build
want_ids 'cv2.error: OpenCV(4.8.0) /io/opencv/modules/core/include/opencv2/core/private.cuda.hpp:106: error: (-216:No CUDA support) The library is compiled without CUDA support in function throwNoCuda' framework-cpu-only-build
want_ids 'Check whether Ceres was compiled without CUDA support before asking for the GPU solver.' ""
want_ids 'warning: one possible reason is that llama.cpp was compiled without GPU support' ""
# PyTorch's cpp_extension looking for MSVC's cl.exe on Windows; another
# program's `where` is not it.
want_ids "subprocess.CalledProcessError: Command '['where', 'cl']' returned non-zero exit status 1." nvcc-host-compiler-missing
want_ids "subprocess.CalledProcessError: Command '['where', 'python']' returned non-zero exit status 1." ""
# Dr.Jit's unquoted "cuInit() failed"; a line that names the status is
# read by the status.
want_ids 'jit_cuda_init(): the CUDA backend is not available because cuInit() failed.' cuda-init-failed
want_ids 'cuInit() failed: CUDA_ERROR_NO_DEVICE' cuda-visible-devices-hides-all
# A Docker container's bash prompt ("[root@<12 hex digits> /]#") before
# nvidia-smi's failure: the container was started without the GPU; the
# same on a host's prompt is the host's driver.
want_ids "[root@24c96d985c30 /]# nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running." container-without-gpu
want_ids "[root@gpu-node-7 ~]# nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running." nvidia-driver-not-loaded
# The cuDNN frontend found no engine for the graph.
want_ids 'RuntimeError: /x/transformer_engine/common/fused_attn/fused_attn_f16_arbitrary_seqlen.cu:227 in function operator(): cuDNN Error: [cudnn_frontend] Error: No execution plans built successfully.. For more information, enable cuDNN error logging' cudnn-not-supported
# pynvml's exception classes, one per NVML_ERROR_* code.
want_ids 'pynvml.nvml.NVMLError_Unknown: Unknown Error' nvml-unknown-error
want_ids 'pynvml.nvml.NVMLError_DriverNotLoaded: Driver Not Loaded' nvidia-driver-not-loaded
want_ids 'pynvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch.' driver-library-mismatch
want_ids '    raise NVMLError(ret)' ""
# TH's " at FILE:LINE" after the runtime's string in a THC source file.
want_ids 'invalid device function  at     /x/torch/extra/cutorch/lib/THC/THCGeneral.c:586' gpu-arch-unsupported-by-framework
want_ids 'invalid device function at /x/src/main.c:12' ""
want_ids 'out of memory at /x/torch7/lib/TH/THGeneral.c:270' ""

# ---- ecosystem-58 (tuning): Windows desktop GPU tools -------------------
# torch/__init__.py appends 'Error loading "DLL" or one of its dependencies.'
# to the OSError of whatever load failed; with WinError 1455 the paging
# file is the cause, on the same line or split onto the next.
want_ids 'OSError: [WinError 1455] The paging file is too small for this operation to complete\nError loading "E:\\\\envs\\\\lib\\\\site-packages\\\\torch\\\\lib\\\\cudnn_cnn_train64_8.dll" or one of its dependencies.' windows-paging-file-too-small
want_ids 'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\\\x\\\\torch\\\\lib\\\\fbgemm.dll" or one of its dependencies.' windows-dll-load-failed
# cudarc's panic when no candidate name of a library loads: "Unable to
# dynamically load the \"NAME\" shared library - searched for library
# names: [...]"; the names say which library.
want_ids 'Unable to dynamically load the "cudnn" shared library - searched for library names: ["cudnn.dll", "cudnn64.dll", "cudnn64_9.dll"]. Ensure that `LD_LIBRARY_PATH` has the correct path to the installed library.' cudnn-missing
want_ids "thread 'main' panicked at cudarc-0.19.8/src/lib.rs:200:5:\nUnable to dynamically load the \"nccl\" shared library - searched for library names: [\"libnccl.so\", \"libnccl.so.2\"]." cuda-library-missing
want_ids 'Unable to dynamically load the workflow json file.' ""
# NVRTC opens its builtins library at the first compile: "nvrtc: error:
# failed to open libnvrtc-builtins.so.12.1. Make sure that ... is
# installed correctly." (nvrtc-builtins64_129.dll on Windows).
want_ids 'nvrtc: error: failed to open nvrtc-builtins64_129.dll.\n  Make sure that nvrtc-builtins64_129.dll is installed correctly.' cuda-library-missing
want_ids 'nvrtc: error: failed to open libnvrtc-builtins.so.12.1.\n  Make sure that libnvrtc-builtins.so.12.1 is installed correctly.' cuda-library-missing
want_ids 'failed to open model.so: no such file' ""
# bitsandbytes before 0.42 probes its library for cadam32bit_grad_fp32 and
# prints ctypes' AttributeError when the CPU-only build is loaded
# (Windows: "function 'NAME' not found"; Linux: "undefined symbol: NAME").
want_ids "bin C:\\\\Python39\\\\site-packages\\\\bitsandbytes\\\\libbitsandbytes_cpu.dll\nfunction 'cadam32bit_grad_fp32' not found" bitsandbytes-native-library-missing
want_ids "/x/bitsandbytes/libbitsandbytes_cpu.so: undefined symbol: cadam32bit_grad_fp32" bitsandbytes-native-library-missing
# Windows' TDR message in the log says why CUDA reported an unknown error.
want_ids 'Display driver stopped responding and has recovered\nMessage = CUDA error occured before deserialization (most probably during kernel call): unknown error' gpu-device-removed
want_ids 'Message = CUDA error occured before deserialization (most probably during kernel call): unknown error' cuda-unknown-error
# A loader or a probe that names the library it could not find: "NAME.so
# not found" / "NAME.dll not found" (bitsandbytes' "CUDA SETUP: WARNING!
# libcuda.so not found! Do you have a CUDA driver installed?", a
# launcher's "nvcuda.dll not found"); a library found later is withdrawn.
want_ids 'CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed? If you are on a cluster, make sure you are on a CUDA machine!' cuda-library-missing
want_ids 'Error: nvcuda.dll not found' cuda-library-missing
want_ids 'CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching /usr/local/cuda/lib64...\nCUDA SETUP: CUDA runtime path found: /usr/local/cuda/lib64/libcudart.so' ""
want_ids 'plugin libfoo.so not found, skipping' ""
# ---- ecosystem-60 (tuning): Jetson and embedded GPU users -------------
# The NVIDIA Container Runtime's own requirement check (Jetson CSV mode,
# CDI): "requirements not met: unsatisfied condition: cuda>=12.2
# (cuda=11.4)", as nvidia-container-cli's "requirement error: ...".
want_ids 'docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: failed to create NVIDIA Container Runtime: failed to construct OCI spec modifier: requirements not met: unsatisfied condition: cuda>=12.2 (cuda=11.4): unknown.' container-cuda-requirement-unmet
want_ids 'pip: unsatisfied condition: python>=3.10' ""
# cudaMemPrefetchAsync to a GPU without concurrentManagedAccess (Tegra,
# Windows, WSL) fails with "invalid device ordinal" on a GPU that exists;
# named from the prefetch's line, the ordinal's other reading dropped.
want_ids 'ERROR: CUDA RT call "cudaMemPrefetchAsync(p, n, dev_id, 0)" in line 88 of file map.cuh failed with invalid device ordinal (10).' gpu-operation-not-supported
want_ids '  CUDA error: invalid device ordinal (code 101, ERROR_INVALID_DEVICE)\n  Stacktrace:\n    [3] cuMemPrefetchAsync\n      @ CUDA.Mem ~/CUDA/lib/utils/call.jl:26 [inlined]' ""
want_ids 'C++ exception: cudaMemPrefetchAsync failed: 10 cudaErrorInvalidDevice invalid device ordinal\nCUDA error: 10 cudaErrorInvalidDevice invalid device ordinal' gpu-operation-not-supported
want_ids 'RuntimeError: CUDA error: invalid device ordinal' cuda-visible-devices-invalid
# cuVSLAM's "[CUDA] failure: N, file: ..., line: N" carries a cudaError_t.
want_ids '[component_container-1] [ERROR] 140288154709824 [CUDA] failure: 13, file: /home/x/elbrus/src/modules/cuda_modules/src/lk_tracker.cpp, line: 9' gpu-arch-unsupported-by-framework
want_ids '[component_container-1] [ERROR] 140288154709824 [CUDA] failure: 2, file: /home/x/lk_tracker.cpp, line: 9' cuda-out-of-memory
# ---- ecosystem-61 (tuning): AMD ROCm users -------------------------------
# HIP's short strings are ggml's after "ROCm error:", not after "ROCm"
# anywhere on the line (JAX's build).
want_ids 'ERROR: ROCm version file not found in ['"'"'include/rocm_version.h'"'"']' ""
# LLVM and clang that do not know a GPU processor.
want_ids "'gfx1100' is not a recognized processor for this target (ignoring processor)" compiler-gpu-target-unknown
want_ids "'znver5' is not a recognized processor for this target (ignoring processor)" ""
# rocminfo's failed hsa_init is not GPU memory.
want_ids 'hsa api call failure at: /src/rocminfo/rocminfo.cc:1204\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.' ""
want_ids 'rocblas_invoke: rocBLAS call failed with status 4' gpu-invalid-call
want_ids 'Consult /var/lib/dkms/amdgpu/1.8-192/build/make.log for more information.' amdgpu-not-loaded
# ---- ecosystem-62 (tuning): the trackers issue 31 names, second draw --
# clang's ROCm detection finds no HIP installation (err_drv_no_hip_runtime,
# both wordings) or no device library; its hipstdpar library is no ROCm
# library's absence.
want_ids "clang: error: cannot find HIP runtime; provide its path via '--rocm-path', or pass '-nogpuinc' to build without HIP runtime" rocm-library-missing
want_ids 'clang-12: error: cannot find HIP runtime. Provide its path via --rocm-path, or pass -nogpuinc to build without HIP runtime.' rocm-library-missing
want_ids "clang: error: cannot find ROCm device library for gfx1030; provide its path via '--rocm-path' or '--rocm-device-lib-path', or pass '-nogpulib' to build without ROCm device library" rocm-library-missing
want_ids "clang: error: cannot find HIP Standard Parallelism Acceleration library; provide it via '--hipstdpar-path'" ""
# Every initialization error of nvidia-container-cli is its driver setup;
# the reasons that name another cause keep their ids; a mount error is not
# an initialization error.
want_ids 'nvidia-container-cli: initialization error: cannot open shared object file: no such file or directory: unknown.' container-toolkit-driver-error
want_ids 'nvidia-container-cli: initialization error: open failed: /dev/nvidiactl: permission denied: unknown' container-toolkit-driver-error
want_ids 'nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown' nvidia-driver-not-loaded
want_ids 'nvidia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown.' wsl-no-gpu-adapter
want_ids 'nvidia-container-cli: initialization error: cuda error: unknown error' cuda-unknown-error
want_ids 'nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/x/merged/run/nvidia-persistenced/socket: no such device or address: unknown' ""
# No nvidia module for the running kernel: CUDA's "no device" follows from
# it, not from CUDA_VISIBLE_DEVICES; another module's absence says nothing.
want_ids 'modprobe: FATAL: Module nvidia not found in directory /lib/modules/4.13.0-31-generic\nF0124 08:39:10.926606  1337 hl_cuda_device.cc:453] Check failed: cudaSuccess == cudaStat (0 vs. 38) Cuda Error: no CUDA-capable device is detected' nvidia-driver-not-loaded
want_ids 'modprobe: FATAL: Module vboxdrv not found in directory /lib/modules/5.4.0-42-generic\nF0124 08:39:10.926606  1337 hl_cuda_device.cc:453] Check failed: cudaSuccess == cudaStat (0 vs. 38) Cuda Error: no CUDA-capable device is detected' cuda-visible-devices-hides-all
# A null engine from deserializeCudaEngine (TensorRT-LLM's check, many
# loaders' words); not after an empty plan or an unregistered plugin.
want_ids '[TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:74)' tensorrt-engine-incompatible
want_ids '[E] [TRT] INVALID_ARGUMENT: Cannot deserialize with an empty memory buffer.\nFailed to deserialize CUDA engine' ""
want_ids '[TensorRT] ERROR: getPluginCreator could not find plugin: BatchedNMS_TRT version: 1\nFailed to deserialize CUDA engine' ""
# clang's "'FILE' file not found" is no cudaErrorFileNotFound; a missing
# cuda.h on an Apple-silicon build is no toolkit to install; a quoted call
# name before a runtime string is still read.
want_ids "xformers/csrc/pt_stable_utils.h:12:10: fatal error: 'cuda.h' file not found" cuda-toolkit-not-found
want_ids "arm64-apple-darwin20.0.0-clang++ -c xformers/csrc/pt_stable_utils.cpp\nxformers/csrc/pt_stable_utils.h:12:10: fatal error: 'cuda.h' file not found" ""
want_ids 'RuntimeError: CUDA error: file not found' gpu-invalid-call
want_ids "RuntimeError: CUDA error 'cudaMalloc' out of memory" cuda-out-of-memory
# xFormers built without its CUDA extensions: no operator's capability
# reason is the cause; without that line, the capability reason stands.
want_ids '`fa3F@0.0.0` is not supported because:\n    xFormers wasn'"'"'t build with CUDA support\n    requires device with capability > (9, 0) but your GPU has capability (8, 9) (too old)' framework-cpu-only-build
want_ids '`fa3F@0.0.0` is not supported because:\n    requires device with capability > (9, 0) but your GPU has capability (8, 9) (too old)' gpu-too-old-for-kernel-library

# ---- ecosystem-66 (tuning): the trackers issue 31 names, third draw ----
# cudarc's panic when no candidate name of a CUDA library loads (both
# wordings); cuDNN's is cuDNN's; another crate's loader stays silent.
want_ids 'thread '"'"'main'"'"' panicked at /root/.cargo/registry/src/cudarc-0.11.5/src/driver/sys/mod.rs:61:9:\nUnable to find cuda lib under the names ["cuda", "nvcuda"]. Please open GitHub issue.' cuda-library-missing
want_ids 'Unable to dynamically load the "nccl" shared library - searched for library names: ["nccl"]' cuda-library-missing
want_ids 'Unable to dynamically load the "cudnn" shared library - searched for library names: ["cudnn"]' cudnn-missing
want_ids 'Unable to dynamically load the TBLIS (`tblis`) shared library.' ""
want_ids 'Unable to find openblas lib under the names ["openblas"]. Please open GitHub issue.' ""
# ONNX Runtime's "CUDNN error executing" of a compute call is a cuDNN
# kernel that did not run; a descriptor call stays silent, and CudaCall's
# line with another status keeps that status's id.
want_ids "[ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running Conv node. Name:'c' Status Message: CUDNN error executing cudnnConvolutionForward(s_.handle, &alpha, s_.x_tensor)" cudnn-execution-failed
want_ids "Status Message: CUDNN error executing cudnnSetTensorNdDescriptor(tensor_, dataType, rank)" ""
want_ids "[E:onnxruntime:Default, cuda_call.cc:118 CudaCall] CUDNN failure 3: CUDNN_STATUS_BAD_PARAM ; GPU=0 ; expr=cudnnAddTensor(a);\nStatus Message: CUDNN error executing cudnnAddTensor(Base::CudnnHandle(), &alpha)" gpu-invalid-call
want_ids "CUDNN failure 8: CUDNN_STATUS_EXECUTION_FAILED ; GPU=0 ; expr=cudnnConvolutionForward(x);\nStatus Message: CUDNN error executing cudnnConvolutionForward(x)" cudnn-execution-failed
want_ids "Status Message: CUDNN failure 5003: CUDNN_STATUS_EXECUTION_FAILED_CUDART ; GPU=0 ; expr=cudnnPoolingForward(x);" cudnn-execution-failed

# ---- ecosystem-64 (tuning): neutral symptom queries over all of GitHub ---
# A program's own compute-capability floor refusing the GPU (SIBR's "need at
# least compute capability 7.0+", CudaMiner's "kernel requires N.N
# capability"); a floor described, not refused, stays silent.
want_ids 'Sorry, need at least compute capability 7.0+!' gpu-too-old-for-kernel-library
want_ids "[2020-09-08 11:15:32] GPU #0: FATAL: the 't' kernel requires 5.0 capability!" gpu-too-old-for-kernel-library
want_ids 'This renderer requires compute capability 7.0 or higher.' ""
want_ids 'Error: this model does not require compute capability 8.0' ""
# The runtime's description in Theano's device_malloc wording; host memory
# is no GPU's.
want_ids 'Error allocating 33554432 bytes of device memory (out of memory). Driver report 21364736 bytes free and 11715084288 bytes total' cuda-out-of-memory
want_ids 'Error allocating 100 bytes of host memory (out of memory)' ""

# ---- ecosystem-63 (tuning): Chinese symptom queries ---------------------
# The runtime's string followed by a CUDA source file and line, whatever
# opens the line (gpuAssert's copies: Solana's "ERR: %s %s %d"); not
# without a .cu/.cuh file and a line number.
want_ids 'Feb 05 21:17:58 beast solana-validator[22860]: ERR: invalid configuration argument cuda-ecc-ed25519/verify.cu 197' gpu-invalid-call
want_ids 'ERR: out of memory kernels/reduce.cuh:88' cuda-out-of-memory
want_ids 'ERR: invalid configuration argument config/train.yaml 197' ""
want_ids 'warning: invalid argument in sampler.cu' ""
# glibc's dlerror and loader messages in a zh_CN or zh_TW locale; the
# library named before the translated dlerror is the missing one; a
# library sonames.tsv does not know stays silent.
want_ids 'ImportError: libcudart.so.11.0: \xe6\x97\xa0\xe6\xb3\x95\xe6\x89\x93\xe5\xbc\x80\xe5\x85\xb1\xe4\xba\xab\xe5\xaf\xb9\xe8\xb1\xa1\xe6\x96\x87\xe4\xbb\xb6: \xe6\xb2\xa1\xe6\x9c\x89\xe9\x82\xa3\xe4\xb8\xaa\xe6\x96\x87\xe4\xbb\xb6\xe6\x88\x96\xe7\x9b\xae\xe5\xbd\x95' cuda-library-missing
want_ids 'ImportError: libcublas.so.11: \xe7\x84\xa1\xe6\xb3\x95\xe9\x96\x8b\xe5\x95\x9f\xe5\x85\xb1\xe7\x94\xa8\xe7\x89\xa9\xe4\xbb\xb6' cuda-library-missing
want_ids 'Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: \xe6\x97\xa0\xe6\xb3\x95\xe6\x89\x93\xe5\xbc\x80\xe5\x85\xb1\xe4\xba\xab\xe5\xaf\xb9\xe8\xb1\xa1\xe6\x96\x87\xe4\xbb\xb6' cuda-library-missing
want_ids './miner: \xe8\xbd\xbd\xe5\x85\xa5\xe5\x85\xb1\xe4\xba\xab\xe5\xba\x93\xe6\x97\xb6\xe5\x87\xba\xe9\x94\x99: libcudart.so.9.0' cuda-library-missing
want_ids '/usr/sbin/nordvpnd: \xe5\x8a\xa0\xe8\xbd\xbd\xe5\x85\xb1\xe4\xba\xab\xe5\xba\x93\xe6\x97\xb6\xe5\x87\xba\xe9\x94\x99: libxml2.so.2: \xe6\x97\xa0\xe6\xb3\x95\xe6\x89\x93\xe5\xbc\x80\xe5\x85\xb1\xe4\xba\xab\xe5\xaf\xb9\xe8\xb1\xa1\xe6\x96\x87\xe4\xbb\xb6' ""
# bash's "command not found" in a zh_CN or zh_TW locale, for nvcc only.
want_ids '/bin/bash: \xe8\xa1\x8c 1: nvcc: \xe6\x9c\xaa\xe6\x89\xbe\xe5\x88\xb0\xe5\x91\xbd\xe4\xbb\xa4' cuda-toolkit-not-found
want_ids 'bash: nvcc\xef\xbc\x9a\xe6\x8c\x87\xe4\xbb\xa4\xe6\x89\xbe\xe4\xb8\x8d\xe5\x88\xb0' cuda-toolkit-not-found
want_ids '/bin/bash: \xe8\xa1\x8c 1: conda: \xe6\x9c\xaa\xe6\x89\xbe\xe5\x88\xb0\xe5\x91\xbd\xe4\xbb\xa4' ""
# NVML's Unknown Error in the log: the container lost its GPUs, so
# "No CUDA GPUs are available" is not CUDA_VISIBLE_DEVICES; another NVML
# failure leaves it.
want_ids 'RuntimeError: No CUDA GPUs are available\nFailed to initialize NVML: Unknown Error' nvml-unknown-error
want_ids 'RuntimeError: No CUDA GPUs are available\nFailed to initialize NVML: Driver/library version mismatch' "cuda-visible-devices-hides-all driver-library-mismatch"
# Full-width punctuation (a Chinese input method's or program's) reads as
# ASCII's: a wide colon with its own space, "::" and a PCI address kept.
want_ids 'Failed to initialize NVML\xef\xbc\x9aUnknown Error' nvml-unknown-error
want_ids 'nvidia-modeset\xef\xbc\x9aVersion mismatch\xef\xbc\x9anvidia.ko\xef\xbc\x88378.13\xef\xbc\x89 nvidia-modeset\xef\xbc\x88375.26\xef\xbc\x89' driver-library-mismatch
want_ids "RuntimeError\xef\xbc\x9aCould not run 'torchvision\xef\xbc\x9a\xef\xbc\x9anms' with arguments from the 'CUDA' backend." torchvision-torch-mismatch
want_ids 'Unable to determine the device handle for GPU 0000\xef\xbc\x9a03\xef\xbc\x9a00.0\xef\xbc\x9aUnknown Error' nvml-unknown-error
want_ids '\xe8\xae\xad\xe7\xbb\x83\xe5\xae\x8c\xe6\x88\x90\xef\xbc\x9aloss\xef\xbc\x9d0.12\xef\xbc\x8cGPU 0\xef\xbc\x9aOK\xef\xbc\x81' ""
# cuDNN's own headers missing (gcc, its zh_CN and zh_TW strerror, clang,
# MSVC): cudnn-missing; the separate cudnn_frontend.h is not cuDNN; the
# toolkit's headers in a zh_TW locale.
want_ids 'fatal error: cudnn.h: No such file or directory' cudnn-missing
want_ids '\xe8\x87\xb4\xe5\x91\xbd\xe9\x8c\xaf\xe8\xaa\xa4\xef\xbc\x9acudnn.h\xef\xbc\x9a\xe6\xb2\x92\xe6\x9c\x89\xe6\xad\xa4\xe4\xb8\x80\xe6\xaa\x94\xe6\xa1\x88\xe6\x88\x96\xe7\x9b\xae\xe9\x8c\x84' cudnn-missing
want_ids "src/conv.cpp:3:10: fatal error: 'cudnn_version.h' file not found" cudnn-missing
want_ids "conv.cu(2): fatal error C1083: Cannot open include file: 'cudnn.h': No such file or directory" cudnn-missing
want_ids 'fatal error: cuda_runtime.h\xef\xbc\x9a\xe6\xb2\x92\xe6\x9c\x89\xe6\xad\xa4\xe4\xb8\x80\xe6\xaa\x94\xe6\xa1\x88\xe6\x88\x96\xe7\x9b\xae\xe9\x8c\x84' cuda-toolkit-not-found
want_ids 'fatal error: cudnn_frontend.h: No such file or directory' ""
# CMake's <VAR>-NOTFOUND of a cuDNN variable; another library's stays silent.
want_ids '-- CUDNN_LIBRARY: CUDNN_LIBRARY-NOTFOUND' cudnn-missing
want_ids '-- PNG_LIBRARY: PNG_LIBRARY-NOTFOUND' ""

# ---- ecosystem-65 (tuning): Chinese symptom queries, second draw -------
# cudarc's panic names the library in quotes before "shared library" (its
# Linux candidates are bare stems): libNAME.so when sonames.tsv knows it;
# a name it does not know stays silent.
want_ids 'Unable to dynamically load the "cublas" shared library - searched for library names: ["cublas", "cublas64", "cublas64_12"]. Ensure that `LD_LIBRARY_PATH` has the correct path to the installed library.' cuda-library-missing
want_ids 'Unable to dynamically load the "nvrtc" shared library - searched for library names: ["nvrtc", "nvrtc64_12"].' cuda-library-missing
want_ids 'Unable to dynamically load the "foo" shared library - searched for library names: ["foo", "foo64"].' ""
# Caffe2's cuDNN compiled/runtime check; another library's versions
# mismatch stays silent.
want_ids 'RuntimeError: [enforce fail at common_cudnn.h:108] version_match || backwards_compatible_7 || patch_compatible. cuDNN compiled (7102) and runtime (7005) versions mismatch' cudnn-version-mismatch
want_ids 'protobuf versions mismatch: compiled (3) and runtime (4)' ""
# A GPU device node missing, in glibc's zh_CN and zh_TW strerror(ENOENT);
# a glob names no node.
want_ids "ls: \xe6\x97\xa0\xe6\xb3\x95\xe8\xae\xbf\xe9\x97\xae '/dev/nvidia0': \xe6\xb2\xa1\xe6\x9c\x89\xe9\x82\xa3\xe4\xb8\xaa\xe6\x96\x87\xe4\xbb\xb6\xe6\x88\x96\xe7\x9b\xae\xe5\xbd\x95" device-node-missing
want_ids 'cat: /dev/nvidiactl\xef\xbc\x9a\xe6\xb2\x92\xe6\x9c\x89\xe6\xad\xa4\xe4\xb8\x80\xe6\xaa\x94\xe6\xa1\x88\xe6\x88\x96\xe7\x9b\xae\xe9\x8c\x84' device-node-missing
want_ids "ls: \xe6\x97\xa0\xe6\xb3\x95\xe8\xae\xbf\xe9\x97\xae '/dev/nvidia*': \xe6\xb2\xa1\xe6\x9c\x89\xe9\x82\xa3\xe4\xb8\xaa\xe6\x96\x87\xe4\xbb\xb6\xe6\x88\x96\xe7\x9b\xae\xe5\xbd\x95" ""

# ---- memory: the needle index follows the literals, not an automaton ---
# What explain holds beyond the program itself (its catalogue: the trie of
# every literal, the regexes of the rows a line asked for; the explainer;
# the 1 MiB read buffer) must stay small as the catalogue grows: a table
# per state and byte class (32038 states x 65 classes x 4 bytes,
# 2026-12-07) took 18 MiB more than `gpuwise --version` and made every
# byte's step a cache miss; compiling every row's regexes at start took
# 5 MiB and brought the total to 8 MiB over (stop 46), so regexes are now
# compiled on first use and the bound is 5 MiB (measured: 2.7 MiB over).
# Peak RSS from /usr/bin/time; not under a sanitizer (its shadow memory).
sanitized=$(nm "$G" 2>/dev/null | grep -c __asan_init)
if [ -x /usr/bin/time ] && [ "${sanitized:-0}" = 0 ]; then
	"${PYS[@]}" -c 'import sys
line = "[INFO|trainer.py:2128] step 7 grad_norm=0.113 max memory allocated 5.21 GiB on cuda:0\n"
sys.stdout.write(line * 60000 + "RuntimeError: CUDA error: device-side assert triggered\n")' >"$T/rss.log"
	/usr/bin/time -f %M -o "$T/rss.base" "$G" --version >/dev/null 2>&1
	/usr/bin/time -f %M -o "$T/rss.explain" "$G" explain --json "$T/rss.log" >"$T/rss.json" 2>/dev/null
	base=$(tail -1 "$T/rss.base") used=$(tail -1 "$T/rss.explain")
	[ "$(ids_of "$T/rss.json")" = "device-side-assert " ] || fail "memory test: the log's error not found"
	[ $((used - base)) -lt 5120 ] ||
		fail "explain's peak RSS is $used KiB, $((used - base)) KiB over --version's $base KiB (want < 5 MiB)"
fi

[ "$fails" = 0 ] && echo "test_explain: all passed" || echo "test_explain: $fails failed"
[ "$fails" = 0 ]
