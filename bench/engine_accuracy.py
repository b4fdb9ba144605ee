#!/usr/bin/env python3
"""Accuracy of `gpuwise advise` against what the serving engines print.

Reads bench/data/engine_logs.tsv (llama.cpp/ollama and vLLM startup figures
pasted in public threads, each with every setting needed to reproduce it;
the file's header gives the procedure), builds the advise input for each row
and compares: a GGUF row becomes a synthetic GGUF header with the printed
shapes (tests/cli/gguf_writer.py; the KV and compute buffers depend only on
shapes, context and types), a vLLM row a catalogue model with the GPU's
memory, --gpu-memory-utilization, --seq max_model_len and
--max-num-batched-tokens. Deterministic figures (KV buffer, weights) must be
within +-5 %, the others (compute buffer, model buffer, KV blocks) +-15 %.
The whole file is tuning data.

  bench/engine_accuracy.py            # one line a row and the summary
  bench/engine_accuracy.py --check    # also exit 1 when a row is out of bounds
  bench/engine_accuracy.py --gpuwise PATH --no-batched-tokens   # an older build
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'cli'))
import gguf_writer  # noqa: E402

TYPES = {'F32': 0, 'F16': 1, 'Q4_0': 2, 'Q8_0': 8, 'Q4_K': 12, 'Q6_K': 14}
UNIT = {'MiB': 1 << 20, 'GiB': 1 << 30, 'blocks': 1, 'tokens': 1}
DETERMINISTIC = {'kv_buf', 'vllm_weights'}


def rows(path):
    with open(path) as f:
        lines = [ln.rstrip('\n') for ln in f if not ln.startswith('#') and ln.strip()]
    head = lines[0].split('\t')
    for ln in lines[1:]:
        r = dict(zip(head, ln.split('\t')))
        r['settings'] = dict(kv.split('=', 1) for kv in r['settings'].split(';'))
        yield r


def advise(gw, args):
    p = subprocess.run([gw, 'advise'] + args + ['--json'], capture_output=True, text=True)
    if p.returncode not in (0, 1) or not p.stdout.strip():
        raise RuntimeError('advise %s: %s' % (' '.join(args), p.stderr.strip()))
    return json.loads(p.stdout)


def predict_gguf(gw, r, tmp):
    s = r['settings']
    path = os.path.join(tmp, r['id'] + '.gguf')
    gguf_writer.write(path, arch=s['arch'], layers=int(s['layers']), embd=int(s['embd']), heads=int(s['heads']),
                      kvh=int(s['kv_heads']), ff=int(s['ff']), vocab=int(s['vocab']), qtype=TYPES[s['type']],
                      data=False)
    args = [path, '--ctx', s['ctx'], '--parallel', s['parallel'], '--cache-type', s['cache'], '--memory', '1TiB']
    if s['ngl'] != 'all':
        args += ['--ngl', s['ngl']]
    if s['flash_attn'] == '1':
        args.append('--flash-attn')
    lc = advise(gw, args)['llama_cpp']
    return {'kv_buf': lc['kv_cache_bytes'], 'compute_buf': lc['compute_bytes'],
            'model_buf': lc['weights_gpu_bytes']}[r['kind']]


def predict_vllm(gw, r, batched):
    s = r['settings']
    args = [s['model'], '--task', 'infer', '--seq', s['max_model_len'], '--precision', s['precision'],
            '--gpu-memory-utilization', s['util'], '--block-size', s['block_size']]
    args += ['--memory', s['memory']] if 'memory' in s else ['--gpu', s['gpu']]
    if batched and s['batched_tokens'] != '-':
        args += ['--max-num-batched-tokens', s['batched_tokens']]
    v = advise(gw, args)['vllm']
    return {'vllm_blocks': v['blocks'], 'vllm_kv_tokens': v['blocks'] * v['block_size'],
            'vllm_kv_mem': v['kv_cache_bytes'], 'vllm_weights': v['weights_bytes']}[r['kind']]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--gpuwise', default=os.path.join(os.environ.get('GPUWISE_BUILD', os.path.join(ROOT, 'build')),
                                                       'gpuwise'))
    ap.add_argument('--data', default=os.path.join(ROOT, 'bench', 'data', 'engine_logs.tsv'))
    ap.add_argument('--no-batched-tokens', action='store_true', help='for a build without --max-num-batched-tokens')
    ap.add_argument('--check', action='store_true', help='exit 1 when a row is outside its bound')
    a = ap.parse_args()
    out, n_in, n_det, n_det_in, n_rest, n_rest_in = [], 0, 0, 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows(a.data):
            pub = float(r['published']) * UNIT[r['unit']]
            if r['engine'] == 'vllm':
                pred = predict_vllm(a.gpuwise, r, not a.no_batched_tokens)
            else:
                pred = predict_gguf(a.gpuwise, r, tmp)
            err = (pred - pub) / pub
            bound = 0.05 if r['kind'] in DETERMINISTIC else 0.15
            ok = abs(err) <= bound
            if r['kind'] in DETERMINISTIC:
                n_det, n_det_in = n_det + 1, n_det_in + ok
            else:
                n_rest, n_rest_in = n_rest + 1, n_rest_in + ok
            n_in += ok
            scale = UNIT[r['unit']]
            out.append('%-20s %-14s %12.2f %12.2f %-6s %+7.1f %%  %s' % (
                r['id'], r['kind'], pred / scale, pub / scale, r['unit'], 100 * err,
                'ok' if ok else 'OUT (+-%d %%)' % round(100 * bound)))
    print('%-20s %-14s %12s %12s %-6s %9s' % ('id', 'kind', 'predicted', 'published', 'unit', 'error'))
    print('\n'.join(out))
    print('deterministic (KV buffer, weights; +-5 %%): %d of %d within' % (n_det_in, n_det))
    print('modelled (compute/model buffer, KV blocks; +-15 %%): %d of %d within' % (n_rest_in, n_rest))
    print('all: %d of %d within their bound' % (n_in, n_det + n_rest))
    return 1 if a.check and n_in < n_det + n_rest else 0


if __name__ == '__main__':
    sys.exit(main())
