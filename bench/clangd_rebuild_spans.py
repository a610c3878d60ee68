#!/usr/bin/env python3
"""What the cuda-* checks add to clangd's rebuild, from clangd's own spans.

For each file, runs `cuda-clangd --check=FILE` PAIRS times with
`--cuda-checks=false` and PAIRS times without it, alternating, one run at a
time, and reads clangd's trace (CLANGD_TRACE) of each run: "BuildAST" (the
AST build, clang-tidy included) and "ClangTidyMatch" (clang-tidy's checks).
A `--check` run builds the file's AST once, as an edit does, so BuildAST is
the rebuild that bench/clangd_latency.py times inside a language server; this
script needs no LSP session, so it can take many more pairs on a loaded
machine. It prints, per file, the medians and minima of both spans and the
ratios of the checked run to the unchecked one: per pair (median [range]),
of the medians and of the minima, and the checks' own share (the median
ClangTidyMatch difference over the median unchecked BuildAST).

Without --compile-commands-dir, each file gets a compilation database of
its own: `clang++ -I<the file's folder> -c FILE`, to which cuda-clangd adds
its CUDA flags (docs/editors.md).

With --before BIN, the same runs of a second cuda-clangd follow, interleaved
pair by pair with the first, so that two builds are compared in one run.

usage: bench/clangd_rebuild_spans.py [--pairs N] [--cuda-clangd BIN]
           [--before BIN] [--compile-commands-dir DIR] FILE...
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def spans(binary, path, db, checks, trace):
    cmd = [binary, "--check=" + path, "--check-locations=false"]
    if db:
        cmd.append("--compile-commands-dir=" + db)
    if not checks:
        cmd.append("--cuda-checks=false")
    env = dict(os.environ, CLANGD_TRACE=trace)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env, check=False)
    with open(trace) as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    found = {}
    for e in events:
        if e.get("name") in ("BuildAST", "ClangTidyMatch") and "dur" in e:
            found[e["name"]] = e["dur"] / 1000.0
    if "BuildAST" not in found:
        sys.exit("clangd_rebuild_spans: no BuildAST span from %s on %s "
                 "(does the file compile with this database?)"
                 % (binary, path))
    found.setdefault("ClangTidyMatch", 0.0)
    return found


def own_database(path, tmp):
    path = os.path.abspath(path)
    db = os.path.join(tmp, "db-" + str(abs(hash(path))))
    os.makedirs(db, exist_ok=True)
    folder = os.path.dirname(path)
    with open(os.path.join(db, "compile_commands.json"), "w") as f:
        json.dump([{"directory": folder, "file": path,
                    "arguments": ["clang++", "-I" + folder, "-c", path]}], f)
    return db


def summary(name, plain, checked):
    med = statistics.median
    build0 = [r["BuildAST"] for r in plain]
    build1 = [r["BuildAST"] for r in checked]
    tidy0 = [r["ClangTidyMatch"] for r in plain]
    tidy1 = [r["ClangTidyMatch"] for r in checked]
    per_pair = [b / a for a, b in zip(build0, build1)]
    print("  %-22s BuildAST ms %.1f -> %.1f (min %.1f -> %.1f), "
          "ClangTidyMatch ms %.1f -> %.1f" %
          (name, med(build0), med(build1), min(build0), min(build1),
           med(tidy0), med(tidy1)))
    print("  %-22s rebuild ratio per pair %.3f [%.3f-%.3f], of medians "
          "%.3f, of minima %.3f; checks' share %.3f" %
          ("", med(per_pair), min(per_pair), max(per_pair),
           med(build1) / med(build0), min(build1) / min(build0),
           (med(tidy1) - med(tidy0)) / med(build0)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=21)
    parser.add_argument("--cuda-clangd",
                        default=os.path.join(ROOT, "build/bin/cuda-clangd"))
    parser.add_argument("--before", help="a second cuda-clangd to compare")
    parser.add_argument("--compile-commands-dir")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    binaries = [("cuda-clangd", args.cuda_clangd)]
    if args.before:
        binaries.append(("before", args.before))
    for b in binaries:
        if not os.access(b[1], os.X_OK):
            sys.exit("clangd_rebuild_spans: %s is not an executable" % b[1])
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace.json")
        for path in args.files:
            if not os.path.isfile(path):
                sys.exit("clangd_rebuild_spans: no such file: %s" % path)
            db = args.compile_commands_dir or own_database(path, tmp)
            runs = {name: ([], []) for name, _ in binaries}
            for _ in range(args.pairs):
                for name, binary in binaries:
                    runs[name][0].append(spans(binary, path, db, False, trace))
                    runs[name][1].append(spans(binary, path, db, True, trace))
            print("%s (%d pairs)" % (os.path.relpath(path), args.pairs))
            for name, _ in binaries:
                summary(name, *runs[name])


if __name__ == "__main__":
    main()
