#!/usr/bin/env python3
"""Edit-to-diagnostics latency of cuda-clangd against stock clangd.

For each CUDA file, three servers open the file and receive the same edits
(a comment appended, then removed, EDITS times), one after the other, on
the same compile command:
  clangd         stock clangd 22 (/usr/lib/llvm-22/bin/clangd), given the
                 CUDA flags cuda-tidy adds (cuda-tidy --print-cuda-flags)
                 in its compile_commands.json, since it adds none itself;
  no-cuda-checks cuda-clangd --cuda-checks=false: the same binary without
                 the cuda-* checks;
  cuda-clangd    cuda-clangd as installed: its own CUDA flags, and the
                 cuda-* checks beside clangd's default checks.
It prints, per file and server, the time from didOpen to the first
diagnostics, the median time from didChange to the diagnostics of that
version, and the median of clangd's own "BuildAST" span (the rebuild,
clang-tidy included; from CLANGD_TRACE), then the ratios to stock clangd.
The goal (issue 33): cuda-* adds at most 15% to clangd's own rebuild.

usage: bench/clangd_latency.py [--edits N] [--cuda-clangd BIN] [--clangd BIN]
                               [--cuda-tidy BIN] FILE...
"""
import argparse
import json
import os
import queue
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Server:
    """A language server on stdio, spoken to in JSON-RPC."""

    def __init__(self, cmd, env):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(out.read(length)))

    def send(self, method, params, request=False):
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return message.get("id")

    def wait(self, accept, timeout=600):
        deadline = time.monotonic() + timeout
        while True:
            m = self.messages.get(timeout=max(0.1, deadline - time.monotonic()))
            if "id" in m and "method" in m:  # a request from the server
                body = json.dumps({"jsonrpc": "2.0", "id": m["id"],
                                   "result": None}).encode()
                self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                self.proc.stdin.flush()
            if accept(m):
                return m

    def close(self):
        try:
            rid = self.send("shutdown", None, True)
            self.wait(lambda m: m.get("id") == rid, 60)
            self.send("exit", None)
            self.proc.wait(60)
        except Exception:
            self.proc.kill()


def session(cmd, source, edits, trace):
    env = dict(os.environ, CLANGD_TRACE=trace)
    server = Server(cmd, env)
    uri = "file://" + source
    rid = server.send("initialize", {"processId": os.getpid(), "rootUri": None,
                                     "capabilities": {}}, True)
    server.wait(lambda m: m.get("id") == rid)
    server.send("initialized", {})
    text = open(source, encoding="utf-8", errors="replace").read()

    def diagnostics_of(version):
        return server.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                           and m["params"].get("version") == version)

    start = time.monotonic()
    server.send("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "cuda", "version": 0, "text": text}})
    first = diagnostics_of(0)
    opened = time.monotonic() - start
    latencies = []
    for version in range(1, 2 * edits + 1):
        body = text + ("\n// edit %d\n" % version if version % 2 else "")
        start = time.monotonic()
        server.send("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": body}]})
        diagnostics_of(version)
        latencies.append(time.monotonic() - start)
    server.close()
    # The trace's events carry the file's text, which a strict JSON reader
    # may refuse (stray bytes); the spans are read by pattern. "dur" is in
    # microseconds.
    builds = []
    try:
        with open(trace, encoding="utf-8", errors="replace") as f:
            builds = [float(d) / 1e6 for d in re.findall(
                r'"dur":([0-9.eE+-]+),"name":"BuildAST"', f.read())]
    except OSError:
        pass
    # The first BuildAST is the open's; the rest are the edits'.
    checks = sorted({d.get("code") for d in first["params"]["diagnostics"]
                     if str(d.get("code", "")).startswith("cuda-")})
    return {"open": opened, "edit": statistics.median(latencies),
            "build": statistics.median(builds[1:]) if len(builds) > 1 else None,
            "findings": len(first["params"]["diagnostics"]),
            "cuda_checks": checks}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--cuda-clangd", default=os.path.join(ROOT, "build/bin/cuda-clangd"))
    parser.add_argument("--cuda-tidy", default=os.path.join(ROOT, "build/bin/cuda-tidy"))
    parser.add_argument("--clangd", default="/usr/lib/llvm-22/bin/clangd")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    flags = shlex.split(subprocess.run([args.cuda_tidy, "--print-cuda-flags"],
                                       capture_output=True, text=True,
                                       check=True).stdout)
    common = ["--background-index=false", "--log=error"]
    print("%-34s %-15s %9s %9s %9s %9s" % ("file", "server", "open s", "edit s",
                                         "build s", "findings"))
    ratios = []
    for path in args.files:
        source = os.path.realpath(path)
        folder = os.path.dirname(source)
        with tempfile.TemporaryDirectory() as tmp:
            for name, extra in (("stock", flags), ("cuda", [])):
                os.makedirs(os.path.join(tmp, name))
                with open(os.path.join(tmp, name, "compile_commands.json"), "w") as f:
                    json.dump([{"directory": folder, "file": source,
                                "arguments": ["clang++"] + extra +
                                ["-I" + folder, "-c", source]}], f)
            runs = [
                ("clangd", [args.clangd, "--compile-commands-dir=" + tmp + "/stock"]),
                ("no-cuda-checks", [args.cuda_clangd, "--cuda-checks=false",
                                    "--compile-commands-dir=" + tmp + "/cuda"]),
                ("cuda-clangd", [args.cuda_clangd, "--compile-commands-dir=" + tmp + "/cuda"]),
            ]
            results = {}
            for name, cmd in runs:
                r = session(cmd + common, source, args.edits,
                            os.path.join(tmp, name + ".trace.json"))
                results[name] = r
                print("%-34s %-15s %9.2f %9.3f %9s %9d" % (
                    os.path.relpath(path)[-34:], name, r["open"], r["edit"],
                    "%.3f" % r["build"] if r["build"] else "-", r["findings"]))
            base, ours = results["clangd"], results["cuda-clangd"]
            off = results["no-cuda-checks"]
            ratio = ours["edit"] / base["edit"]
            build_ratio = (ours["build"] / base["build"]
                           if ours["build"] and base["build"] else None)
            ratios.append((ratio, build_ratio))
            print("%-34s ratios to stock clangd: edit %.2f, build %s, open %.2f; "
                  "cuda-* alone (build, to --cuda-checks=false): %s; cuda-* checks: %s" % (
                      "", ratio, "%.2f" % build_ratio if build_ratio else "-",
                      ours["open"] / base["open"],
                      "%.2f" % (ours["build"] / off["build"])
                      if ours["build"] and off["build"] else "-",
                      ",".join(ours["cuda_checks"]) or "none"))
    edit = statistics.median(r[0] for r in ratios)
    builds = [r[1] for r in ratios if r[1]]
    print("median ratio to stock clangd over %d files: edit %.2f, build %s" % (
        len(ratios), edit, "%.2f" % statistics.median(builds) if builds else "-"))


if __name__ == "__main__":
    sys.exit(main())
