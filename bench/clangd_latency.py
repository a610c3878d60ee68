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
diagnostics, clangd's "BuildPreamble" span of that open, the median time from didChange to the diagnostics of that
version, the median of clangd's own "BuildAST" span (the rebuild,
clang-tidy included; from CLANGD_TRACE), and the CPU time the file's AST
worker thread used per edit (from /proc: the rebuild, clang-tidy and the
diagnostics, not counting time spent waiting for a CPU), then the ratios
to stock clangd.
The goal (issue 33): cuda-* adds at most 15% to clangd's own rebuild.

The machine's load changes while it runs: each file gets ROUNDS sessions
per server, the three servers in a rotated order each round, after one
unmeasured open that reads the headers from disk. Figures are the median
over the rounds with their range [min-max]; ratios are taken per round
(the servers of one round ran one after the other) and summarized alike.

usage: bench/clangd_latency.py [--edits N] [--rounds R] [--json OUT]
                               [--cuda-clangd BIN] [--clangd BIN]
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


TICKS = os.sysconf("SC_CLK_TCK")


def worker_cpu(pid, source):
    """CPU seconds (user and system) that clangd's AST worker thread of
    SOURCE has used so far: the thread that rebuilds the file and runs
    clang-tidy. Linux keeps the last 15 bytes of its name,
    "ASTWorker:<file>"."""
    name = ("ASTWorker:" + os.path.basename(source))[-15:]
    total = 0.0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        if comm == name:
            fields = stat[stat.rindex(")") + 2:].split()
            total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


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
    cpu_before = worker_cpu(server.proc.pid, source)
    for version in range(1, 2 * edits + 1):
        body = text + ("\n// edit %d\n" % version if version % 2 else "")
        start = time.monotonic()
        server.send("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": body}]})
        diagnostics_of(version)
        latencies.append(time.monotonic() - start)
    # CPU time does not grow when other processes hold the CPU, as wall
    # time does: on a loaded machine it is the steadier measure.
    cpu = (worker_cpu(server.proc.pid, source) - cpu_before) / (2 * edits) \
        if edits else None
    server.close()
    # The trace's events carry the file's text, which a strict JSON reader
    # may refuse (stray bytes); the spans are read by pattern. "dur" is in
    # microseconds.
    try:
        with open(trace, encoding="utf-8", errors="replace") as f:
            events = f.read()
    except OSError:
        events = ""

    def spans(name):
        return [float(d) / 1e6 for d in re.findall(
            r'"dur":([0-9.eE+-]+),"name":"%s"' % name, events)]
    builds = spans("BuildAST")
    preambles = spans("BuildPreamble")
    # The first BuildAST is the open's; the rest are the edits'.
    checks = sorted({d.get("code") for d in first["params"]["diagnostics"]
                     if str(d.get("code", "")).startswith("cuda-")})
    return {"open": opened,
            "edit": statistics.median(latencies) if latencies else None,
            "build": statistics.median(builds[1:]) if len(builds) > 1 else None,
            "cpu": cpu,
            "preamble": preambles[0] if preambles else None,
            "findings": len(first["params"]["diagnostics"]),
            "cuda_checks": checks}


def spread(values):
    """'median [min-max]' of a list of numbers."""
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    return "%.3f [%.3f-%.3f]" % (statistics.median(values), min(values),
                                 max(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3,
                        help="sessions per server and file, interleaved")
    parser.add_argument("--cuda-clangd", default=os.path.join(ROOT, "build/bin/cuda-clangd"))
    parser.add_argument("--cuda-tidy", default=os.path.join(ROOT, "build/bin/cuda-tidy"))
    parser.add_argument("--clangd", default="/usr/lib/llvm-22/bin/clangd")
    parser.add_argument("--json", help="also write every session's figures here")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    flags = shlex.split(subprocess.run([args.cuda_tidy, "--print-cuda-flags"],
                                       capture_output=True, text=True,
                                       check=True).stdout)
    common = ["--background-index=false", "--log=error"]
    names = ("clangd", "no-cuda-checks", "cuda-clangd")
    summary, raw = [], {}
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
            commands = {
                "clangd": [args.clangd, "--compile-commands-dir=" + tmp + "/stock"],
                "no-cuda-checks": [args.cuda_clangd, "--cuda-checks=false",
                                   "--compile-commands-dir=" + tmp + "/cuda"],
                "cuda-clangd": [args.cuda_clangd, "--compile-commands-dir=" + tmp + "/cuda"],
            }
            # One unmeasured open, so that no server pays for reading the
            # headers from disk.
            session(commands["clangd"] + common, source, 0,
                    os.path.join(tmp, "warmup.trace.json"))
            results = {n: [] for n in names}
            for r in range(args.rounds):
                # Each round runs the three servers in a rotated order, so
                # that a change in the machine's load falls on all of them.
                order = names[r % 3:] + names[:r % 3]
                for name in order:
                    trace = os.path.join(tmp, "%s.%d.trace.json" % (name, r))
                    results[name].append(session(commands[name] + common, source,
                                                 args.edits, trace))
            raw[source] = results
        print("%s (%d rounds, %d edits each)" % (os.path.relpath(path), args.rounds,
                                                 2 * args.edits))
        print("  %-15s %-22s %-22s %-22s %-22s %-22s %s" % (
            "server", "open s", "first preamble s", "edit s", "rebuild s",
            "rebuild cpu s", "findings"))
        for name in names:
            rs = results[name]
            print("  %-15s %-22s %-22s %-22s %-22s %-22s %d" % (
                name, spread([x["open"] for x in rs]),
                spread([x["preamble"] for x in rs]), spread([x["edit"] for x in rs]),
                spread([x["build"] for x in rs]), spread([x["cpu"] for x in rs]),
                rs[0]["findings"]))

        def ratios(key, num, den):
            return [a[key] / b[key] for a, b in zip(results[num], results[den])
                    if a[key] and b[key]]
        row = {k: ratios(k, "cuda-clangd", "clangd")
               for k in ("open", "preamble", "edit", "build", "cpu")}
        row["checks"] = ratios("build", "cuda-clangd", "no-cuda-checks")
        row["checks_cpu"] = ratios("cpu", "cuda-clangd", "no-cuda-checks")
        summary.append(row)
        print("  ratios to stock clangd, per round: open %s, first preamble %s,"
              " edit %s, rebuild %s, rebuild cpu %s" % (
                  spread(row["open"]), spread(row["preamble"]), spread(row["edit"]),
                  spread(row["build"]), spread(row["cpu"])))
        print("  cuda-* alone (to --cuda-checks=false, same binary): rebuild %s,"
              " rebuild cpu %s" % (spread(row["checks"]), spread(row["checks_cpu"])))
        print("  cuda-* checks that reported: %s" % (
            ",".join(results["cuda-clangd"][0]["cuda_checks"]) or "none"))
    if len(summary) > 1:
        print("median over %d files of the per-file median ratios: edit %.2f, "
              "rebuild %.2f, rebuild cpu %.2f" % (
                  len(summary),
                  statistics.median(statistics.median(r["edit"]) for r in summary),
                  statistics.median(statistics.median(r["build"]) for r in summary),
                  statistics.median(statistics.median(r["cpu"]) for r in summary)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(raw, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
