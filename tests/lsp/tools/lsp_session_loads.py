#!/usr/bin/env python3
"""`tlens lsp` loads no kernel or CUDA library during a session (#20 item 2).

  python3 lsp_session_loads.py TLENS

Runs `TLENS lsp` over stdio with LD_LIBRARY_PATH pointing at an empty folder and drives a short
session: initialize, didOpen of a program with a matmul shape error, the diagnostics it publishes
(which must carry Diagnostic.data), a hover, shutdown, exit. While the document is open it reads
the server's /proc/PID/maps: no CUDA, cuBLAS, cuDNN or oneDNN library may be mapped, neither by
the dynamic linker at start (the binary links none: cudart is static, cuBLAS and cuDNN load with
dlopen on first use; check_no_cuda_links.py checks `ldd TLENS`) nor by dlopen or CUDA's device
discovery during the session. Exits 1 on a failure.
Standard library only; ctest runs it (tests/CMakeLists.txt)."""

import json
import os
import re
import subprocess
import sys
import tempfile

LIBRARIES = re.compile(r"lib(cuda|cudart|cublas|cublasLt|cudnn[\w]*|dnnl|nvrtc|nvidia[\w-]*)\.so[.\d]*")

PROGRAM = """import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 3])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
"""


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def receive(proc):
    length = None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the server closed its output")
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(proc.stdout.read(length))


def until(proc, match):
    while True:
        m = receive(proc)
        if match(m):
            return m


def mapped(pid):
    with open("/proc/%d/maps" % pid) as f:
        return sorted({m.group(0) for m in LIBRARIES.finditer(f.read())})


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    tlens = argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as empty:
        env = dict(os.environ, LD_LIBRARY_PATH=empty)
        proc = subprocess.Popen([tlens, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        try:
            uri = "file://" + os.path.join(empty, "bug.py")
            send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"processId": None, "rootUri": None, "capabilities": {}}})
            until(proc, lambda m: m.get("id") == 1)
            send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
            send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                        "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": PROGRAM}}})
            published = until(proc, lambda m: m.get("method") == "textDocument/publishDiagnostics")
            diags = published["params"]["diagnostics"]
            if len(diags) != 1 or diags[0].get("data", {}).get("opType") != "MatMul":
                failures.append("expected one MatMul shape error with its data, got %s" % json.dumps(diags))
            send(proc, {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
                        "params": {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 0}}})
            hover = until(proc, lambda m: m.get("id") == 2)
            if "float32" not in json.dumps(hover.get("result")):
                failures.append("the hover on `a` shows no type: %s" % json.dumps(hover))
            loaded = mapped(proc.pid)
            send(proc, {"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None})
            until(proc, lambda m: m.get("id") == 3)
            send(proc, {"jsonrpc": "2.0", "method": "exit", "params": None})
            status = proc.wait(timeout=30)
            if status != 0:
                failures.append("tlens lsp exited with status %d" % status)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for lib in loaded:
        failures.append("the session mapped %s" % lib)
    for f in failures:
        print("tlens lsp: " + f)
    if not failures:
        print("tlens lsp: a session mapped no kernel or CUDA library")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
