#!/usr/bin/env python3
"""A small GGUF writer for the tests (ggml's docs/gguf.md, version 3):
header, metadata, tensor table; the tensors' data is zeros, aligned to 32.
Usage: gguf_writer.py OUT [ARCH LAYERS EMBD HEADS KV_HEADS FF VOCAB TYPE]"""
import struct
import sys

BLOCK = {0: (1, 4), 1: (1, 2), 2: (32, 18), 8: (32, 34), 12: (256, 144), 14: (256, 210), 30: (1, 2)}


def s(x):
    b = x.encode()
    return struct.pack('<Q', len(b)) + b


def kv_u32(k, v):
    return s(k) + struct.pack('<II', 4, v)


def kv_str(k, v):
    return s(k) + struct.pack('<I', 8) + s(v)


def kv_str_array(k, vals):
    return s(k) + struct.pack('<IIQ', 9, 8, len(vals)) + b''.join(s(v) for v in vals)


def kv_u32_array(k, vals):
    return s(k) + struct.pack('<IIQ', 9, 4, len(vals)) + b''.join(struct.pack('<I', v) for v in vals)


def write(path, arch='llama', layers=2, embd=256, heads=4, kvh=2, ff=512, vocab=1000, qtype=12, tied=False, name=None,
          data=True, extra=None):
    """extra: more metadata, {key: int (u32) or list of ints (a u32 array)}."""
    tensors = [('token_embd.weight', [embd, vocab], qtype)]
    hd = embd // heads
    for i in range(layers):
        p = 'blk.%d.' % i
        tensors += [(p + 'attn_norm.weight', [embd], 0), (p + 'attn_q.weight', [embd, embd], qtype),
                    (p + 'attn_k.weight', [embd, kvh * hd], qtype), (p + 'attn_v.weight', [embd, kvh * hd], qtype),
                    (p + 'attn_output.weight', [embd, embd], qtype), (p + 'ffn_norm.weight', [embd], 0),
                    (p + 'ffn_gate.weight', [embd, ff], qtype), (p + 'ffn_up.weight', [embd, ff], qtype),
                    (p + 'ffn_down.weight', [ff, embd], 14 if qtype == 12 else qtype)]
    tensors += [('output_norm.weight', [embd], 0)]
    if not tied:
        tensors += [('output.weight', [embd, vocab], 14 if qtype == 12 else qtype)]
    meta = [kv_str('general.architecture', arch), kv_str('general.name', name or 'tiny-' + arch),
            kv_u32(arch + '.block_count', layers), kv_u32(arch + '.context_length', 8192),
            kv_u32(arch + '.embedding_length', embd), kv_u32(arch + '.feed_forward_length', ff),
            kv_u32(arch + '.attention.head_count', heads), kv_u32(arch + '.attention.head_count_kv', kvh),
            kv_str_array('tokenizer.ggml.tokens', ['t%d' % i for i in range(vocab)])]
    for k, v in (extra or {}).items():
        meta.append(kv_u32_array(k, v) if isinstance(v, list) else kv_u32(k, v))
    out = b'GGUF' + struct.pack('<IQQ', 3, len(tensors), len(meta)) + b''.join(meta)
    offset, sizes = 0, []
    for name, dims, t in tensors:
        n = 1
        for d in dims:
            n *= d
        blk, size = BLOCK[t]
        nbytes = n // blk * size
        sizes.append(nbytes)
        out += s(name) + struct.pack('<I', len(dims)) + b''.join(struct.pack('<Q', d) for d in dims)
        out += struct.pack('<IQ', t, offset)
        offset += (nbytes + 31) // 32 * 32
    with open(path, 'wb') as f:
        f.write(out)
        if data:
            f.write(b'\0' * ((-len(out)) % 32))
            f.write(b'\0' * offset)
    return sum(sizes), tensors


if __name__ == '__main__':
    a = sys.argv[1:]
    kw = {}
    if len(a) > 1:
        kw = dict(arch=a[1], layers=int(a[2]), embd=int(a[3]), heads=int(a[4]), kvh=int(a[5]), ff=int(a[6]),
                  vocab=int(a[7]), qtype=int(a[8]))
    total, _ = write(a[0], **kw)
    print(total)
