#!/usr/bin/env python3
"""Side-by-side CPU cost of compiling cuda-tidy's sources with and without
the precompiled headers (CUDA_TIDY_PCH), in one run.

usage: bench/pch_compile_cost.py PCH_BUILD_DIR [--files N] [--seed S]

PCH_BUILD_DIR is a build configured with CUDA_TIDY_PCH=ON (the default) and
built. For N sources drawn with the seed from its compile_commands.json,
each is compiled twice, alternating: with the build's own command (which
includes the precompiled header) and with the PCH flags removed. Prints the
user+sys CPU seconds of each and the ratio; the one-off cost of building
the PCH files is printed apart.
"""
import argparse, json, random, resource, shlex, subprocess, sys, os

def cpu(args, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

def without_pch(args):
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a == "-Xclang" and i + 1 < len(args) and args[i + 1] in ("-include-pch", "-include", "-fno-pch-timestamp"):
            skip = 2 if args[i + 1] == "-fno-pch-timestamp" else 4
            i += skip
            continue
        if a.startswith("-fpch-"):
            i += 1
            continue
        out.append(a)
        i += 1
    return out

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--files", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    cc = json.load(open(os.path.join(a.build, "compile_commands.json")))
    units = [e for e in cc if "-include-pch" in e["command"] and not e["file"].endswith((".hxx", ".h"))]
    if not units:
        sys.exit("no source in %s uses a precompiled header (configure with CUDA_TIDY_PCH=ON)" % a.build)
    random.Random(a.seed).shuffle(units)
    total_pch = total_plain = 0.0
    for e in units[: a.files]:
        args = shlex.split(e["command"])
        o = args.index("-o")
        args[o + 1] = "/tmp/pch_cost_probe.o"
        with_pch = cpu(args, e["directory"])
        plain = cpu(without_pch(args), e["directory"])
        total_pch += with_pch
        total_plain += plain
        print("%-60s %6.1f s  %6.1f s  %.2fx" % (os.path.relpath(e["file"]), plain, with_pch, plain / with_pch))
    print("%d files: %.1f s without, %.1f s with the PCH: %.2fx less CPU"
          % (min(a.files, len(units)), total_plain, total_pch, total_plain / total_pch))

if __name__ == "__main__":
    main()
