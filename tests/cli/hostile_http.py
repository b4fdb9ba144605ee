"""Servers that misbehave, for `--hosts` tests: each mode on its own port
(127.0.0.1, picked by the kernel), one line "MODE PORT" each on stdout.

  garbage  200 with text that is not JSON
  shape    200 with JSON that is not an exporter's answer
  huge     200 with an endless body (stops after 64 MiB)
  drip     200, then one byte every half second for a minute
  silent   accepts and never answers
"""
import socket
import sys
import threading
import time

HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"


def read_head(c):
    c.settimeout(5)
    data = b""
    try:
        while b"\r\n\r\n" not in data and len(data) < 65536:
            chunk = c.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass


def serve(mode, c):
    try:
        if mode == "silent":
            time.sleep(60)
            return
        read_head(c)
        if mode == "garbage":
            c.sendall(HEAD + b"<html>{{{ not json \xff\xfe")
        elif mode == "shape":
            c.sendall(HEAD + b'{"hello": "world", "devices": 7}')
        elif mode == "huge":
            c.sendall(HEAD + b'{"devices": [')
            block = b"[" * 0 + b'{"index": 0},' * 4096
            for _ in range(64 * 1024 * 1024 // len(block)):
                c.sendall(block)
        elif mode == "drip":
            c.sendall(HEAD)
            for b in b'{"devices": []}' * 10:
                c.sendall(bytes([b]))
                time.sleep(0.5)
    except OSError:
        pass
    finally:
        c.close()


def bind():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    return s


def listen(mode, s):
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(mode, c), daemon=True).start()


# Every socket is bound and its line written from this one thread, before
# any listener starts: print() from several threads interleaves its pieces
# ("garbageshape 47115"), which the test then cannot read.
socks = [(m, bind()) for m in sys.argv[1:]]
sys.stdout.write("".join("%s %d\n" % (m, s.getsockname()[1]) for m, s in socks))
sys.stdout.flush()
for m, s in socks:
    threading.Thread(target=listen, args=(m, s), daemon=True).start()
while True:
    time.sleep(3600)
