#!/usr/bin/env python3
"""Two cuda-tidy builds side by side on the same corpus files: the CPU time
of each (user + system, from wait4), alternating run by run so that both
see the same load, with the result cache off. Prints, per file, the median
CPU time of each and their ratio, then the whole sample's ratio (the sum
of the medians) and the median of the per-file ratios.

usage: bench/compare_drivers.py --old OLD/bin/cuda-tidy --new NEW/bin/cuda-tidy
           --corpus-results RUN.jsonl [--corpus-results ...] [--files N]
           [--reps 3] [--json OUT.json]

RUN.jsonl is what scripts/corpus writes (each line names a file's path and
the include folders it was analysed with); --files N takes N files spread
evenly over them. Each build keeps its own precompiled prefix
(CUDA_TIDY_PREFIX_DIR in a temporary folder), warmed by two runs of each
file before the timed ones, so both are timed as a user's second run is.
Run by hand (not in CI): docs/performance.md records a run.
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile


def cpu_seconds(cmd, env):
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime


def corpus_files(paths):
    files = []
    for path in paths:
        with open(path) as f:
            for line in f:
                row = json.loads(line)
                root = row["path"][: -len(row["rel"])] if row.get("rel") else ""
                flags = ["-I" + (inc if os.path.isabs(inc) else root + inc)
                         for inc in row.get("includes", [])]
                files.append((row["path"], flags))
    return files


def spread(items, n):
    if n <= 0 or n >= len(items):
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--corpus-results", action="append", required=True)
    ap.add_argument("--files", type=int, default=0)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args()
    for binary in (args.old, args.new):
        if not os.access(binary, os.X_OK):
            sys.exit(f"compare_drivers: {binary} is not an executable")
    files = spread(sorted(corpus_files(args.corpus_results)), args.files)
    if not files:
        sys.exit("compare_drivers: the corpus results name no files")
    scratch = tempfile.TemporaryDirectory(prefix="compare-drivers-")
    envs = {}
    for name in ("old", "new"):
        envs[name] = dict(os.environ,
                          CUDA_TIDY_PREFIX_DIR=os.path.join(scratch.name, name))
    rows = []
    print(f"{'file':60} {'old s':>8} {'new s':>8} {'ratio':>6}")
    for path, flags in files:
        old = [args.old, "--no-cache", path, "--"] + flags
        new = [args.new, "--no-cache", path, "--"] + flags
        for _ in range(2):  # the file system cache, then the prefixes
            cpu_seconds(old, envs["old"])
            cpu_seconds(new, envs["new"])
        o, n = [], []
        for _ in range(args.reps):
            o.append(cpu_seconds(old, envs["old"]))
            n.append(cpu_seconds(new, envs["new"]))
        mo, mn = statistics.median(o), statistics.median(n)
        rows.append({"file": path, "old": mo, "new": mn})
        print(f"{path[-60:]:60} {mo:8.3f} {mn:8.3f} {mn / mo:6.3f}")
    total_old = sum(r["old"] for r in rows)
    total_new = sum(r["new"] for r in rows)
    median_ratio = statistics.median(r["new"] / r["old"] for r in rows)
    print(f"\n{len(rows)} files, {args.reps} runs each: old {total_old:.1f} s, "
          f"new {total_new:.1f} s, whole-sample ratio "
          f"{total_new / total_old:.3f}, median per-file ratio "
          f"{median_ratio:.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"old": args.old, "new": args.new, "reps": args.reps,
                       "files": rows, "ratio": total_new / total_old,
                       "median_ratio": median_ratio}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
