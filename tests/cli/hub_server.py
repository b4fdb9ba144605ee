#!/usr/bin/env python3
"""A stand-in for the Hugging Face Hub, for tests/cli/test_advise_hub.sh.

Serves GET /{org}/{name}/resolve/{revision}/{file} as the Hub does: a 302
to /cdn/{commit}/{org}/{name}/{file} carrying X-Repo-Commit, which serves
the bytes (Range requests answered 206); 404 with X-Error-Code
EntryNotFound for a file the repository lacks; 401 with X-Error-Code
GatedRepo for a gated repository without the right token (403 with a
wrong one); 401 with RepoNotFound for an unknown repository, as the Hub
answers without a token. acme/slow never answers within a second.
Safetensors files are made here from the shapes: the header is real, the
weights are zeros produced on demand (phi-2's 5.6 GB are never built).

    hub_server.py PORTFILE LOGFILE    (port 0: the kernel picks; written to PORTFILE)
Every request line, with its Range and Authorization headers, goes to LOGFILE.
"""
import json
import struct
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMIT = "0123456789abcdef0123456789abcdef01234567"
TOKEN = "hf_good"
DTYPE_BYTES = {"BF16": 2, "F16": 2, "F32": 4}


def llama(v, h, inter, layers, heads, kv, tied=False):
    kvd = h // heads * kv
    t = {"model.embed_tokens.weight": [v, h], "model.norm.weight": [h]}
    for i in range(layers):
        p = f"model.layers.{i}."
        t.update({p + "self_attn.q_proj.weight": [h, h], p + "self_attn.k_proj.weight": [kvd, h],
                  p + "self_attn.v_proj.weight": [kvd, h], p + "self_attn.o_proj.weight": [h, h],
                  p + "mlp.gate_proj.weight": [inter, h], p + "mlp.up_proj.weight": [inter, h],
                  p + "mlp.down_proj.weight": [h, inter], p + "input_layernorm.weight": [h],
                  p + "post_attention_layernorm.weight": [h]})
    if not tied:
        t["lm_head.weight"] = [v, h]
    return t


def phi(v, h, inter, layers):
    t = {"model.embed_tokens.weight": [v, h], "model.final_layernorm.weight": [h],
         "model.final_layernorm.bias": [h], "lm_head.weight": [v, h], "lm_head.bias": [v]}
    for i in range(layers):
        p = f"model.layers.{i}."
        for m in ("q_proj", "k_proj", "v_proj", "dense"):
            t[p + f"self_attn.{m}.weight"] = [h, h]
            t[p + f"self_attn.{m}.bias"] = [h]
        t.update({p + "mlp.fc1.weight": [inter, h], p + "mlp.fc1.bias": [inter],
                  p + "mlp.fc2.weight": [h, inter], p + "mlp.fc2.bias": [h],
                  p + "input_layernorm.weight": [h], p + "input_layernorm.bias": [h]})
    return t


class Virtual:
    """A safetensors file: 8 bytes, the header, then zeros."""

    def __init__(self, tensors, dtype):
        header, off = {"__metadata__": {"format": "pt"}}, 0
        for name, shape in tensors.items():
            n = DTYPE_BYTES[dtype]
            for d in shape:
                n *= d
            header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [off, off + n]}
            off += n
        text = json.dumps(header, separators=(",", ":")).encode()
        text += b" " * (-len(text) % 8)
        self.head = struct.pack("<Q", len(text)) + text
        self.size = len(self.head) + off

    def read(self, a, b):  # bytes a..b-1
        out = self.head[a:b]
        return out + b"\0" * (b - a - len(out))


class Bytes:
    def __init__(self, data):
        self.data = data if isinstance(data, bytes) else data.encode()
        self.size = len(self.data)

    def read(self, a, b):
        return self.data[a:b]


def config(**kw):
    return Bytes(json.dumps(kw))


TINY = dict(model_type="llama", vocab_size=1000, hidden_size=64, intermediate_size=172, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512,
            tie_word_embeddings=False, torch_dtype="bfloat16")
PHI2 = dict(model_type="phi", vocab_size=51200, hidden_size=2560, intermediate_size=10240, num_hidden_layers=32,
            num_attention_heads=32, num_key_value_heads=32, max_position_embeddings=2048,
            partial_rotary_factor=0.4, tie_word_embeddings=False, torch_dtype="float16")


def sharded():
    tensors = llama(1000, 64, 172, 2, 4, 2)
    names = sorted(tensors)
    half = len(names) // 2
    parts = [{n: tensors[n] for n in names[:half]}, {n: tensors[n] for n in names[half:]}]
    files = {"config.json": config(**TINY)}
    weight_map, total = {}, 0
    for i, part in enumerate(parts):
        fname = f"model-{i + 1:05d}-of-00002.safetensors"
        files[fname] = Virtual(part, "BF16")
        total += files[fname].size - len(files[fname].head)
        weight_map.update({n: fname for n in part})
    files["model.safetensors.index.json"] = Bytes(json.dumps({"metadata": {"total_size": total},
                                                              "weight_map": weight_map}))
    return files


REPOS = {
    "acme/tiny-llama": {"config.json": config(**TINY),
                        "model.safetensors": Virtual(llama(1000, 64, 172, 2, 4, 2), "BF16")},
    "acme/sharded-llama": sharded(),
    "acme/no-weights": {"config.json": config(**TINY)},
    "microsoft/phi-2": {"config.json": config(**PHI2), "model.safetensors": Virtual(phi(51200, 2560, 10240, 32), "F16")},
    "gated-org/secret": {"config.json": config(**TINY)},
    "acme/slow": {"config.json": config(**TINY)},
    "acme/bad-header": {"config.json": config(**TINY),
                        "model.safetensors": Bytes(struct.pack("<Q", 1 << 40) + b"{}")},
}
GATED = {"gated-org/secret"}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, code, body=b"", headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        with open(self.server.log, "a") as f:
            f.write(f"{self.command} {self.path} range={self.headers.get('Range')} "
                    f"auth={self.headers.get('Authorization')}\n")
        parts = self.path.split("?")[0].split("/")
        if len(parts) >= 6 and parts[3] == "resolve":
            return self.resolve("/".join(parts[1:3]), parts[4], "/".join(parts[5:]))
        if len(parts) >= 6 and parts[1] == "cdn":
            return self.cdn("/".join(parts[3:5]), "/".join(parts[5:]))
        self.send(404)

    do_HEAD = do_GET

    def resolve(self, repo, revision, name):
        if repo == "acme/slow":
            time.sleep(5)
        files = REPOS.get(repo)
        if files is None:
            return self.send(401, b"Repository not found", [("X-Error-Code", "RepoNotFound")])
        if repo in GATED:
            auth = self.headers.get("Authorization")
            if auth is None:
                return self.send(401, b"Access to model is restricted", [("X-Error-Code", "GatedRepo")])
            if auth != "Bearer " + TOKEN:
                return self.send(403, b"Access to model is restricted", [("X-Error-Code", "GatedRepo")])
        if revision != "main":
            return self.send(404, b"Revision not found", [("X-Error-Code", "RevisionNotFound")])
        commit = [("X-Repo-Commit", COMMIT)]
        if name not in files:
            return self.send(404, b"Entry not found", commit + [("X-Error-Code", "EntryNotFound")])
        self.send(302, b"", commit + [("Location", f"/cdn/{COMMIT}/{repo}/{name}")])

    def cdn(self, repo, name):
        f = REPOS.get(repo, {}).get(name)
        if f is None:
            return self.send(404)
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            a, _, b = rng[6:].partition("-")
            a, b = int(a), min(int(b) + 1 if b else f.size, f.size)
            if a >= f.size:
                return self.send(416, b"", [("Content-Range", f"bytes */{f.size}")])
            return self.send(206, f.read(a, b), [("Content-Range", f"bytes {a}-{b - 1}/{f.size}")])
        if f.size > 64 << 20:
            return self.send(500, b"the test server does not serve whole large files")
        self.send(200, f.read(0, f.size))


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.handle_error = lambda request, address: None  # a client that gave up (the timeout test)
    server.log = sys.argv[2]
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()
