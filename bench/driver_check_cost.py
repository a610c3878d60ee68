#!/usr/bin/env python3
"""The cost of one check: cuda-tidy with every cuda-* check, and with all
but CHECK, on the same files, alternating run by run (so that both see the
same load), with the result cache off. Prints, per file, the median CPU
time (user + system, from wait4) of each and their ratio.

usage: bench/driver_check_cost.py --check cuda-global-memory-race [--reps 7]
                           [--cuda-tidy PATH] FILE [FILE...] [-- FLAGS...]
FLAGS go after the driver's '--' (include folders); each file also gets
-I<its folder>.
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def cpu_seconds(cmd):
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", required=True)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--cuda-tidy", default=str(ROOT / "build/bin/cuda-tidy"))
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    print(f"{'file':50} {'with':>9} {'without':>9} {'ratio':>6}")
    for f in args.files:
        flags = ["-I" + str(pathlib.Path(f).parent)] + extra
        base = [args.cuda_tidy, "--no-cache"]
        with_cmd = base + ["-checks=-*,cuda-*", f, "--"] + flags
        without_cmd = base + [f"-checks=-*,cuda-*,-{args.check}", f,
                              "--"] + flags
        cpu_seconds(with_cmd)  # warm the file system cache
        w, wo = [], []
        for _ in range(args.reps):
            w.append(cpu_seconds(with_cmd))
            wo.append(cpu_seconds(without_cmd))
        mw, mwo = statistics.median(w), statistics.median(wo)
        print(f"{f[-50:]:50} {mw:9.3f} {mwo:9.3f} {mw / mwo:6.3f}")
        ratios = sorted(a / b for a, b in zip(w, wo))
        print(f"{'':50} pairwise ratios {ratios[0]:.3f}..{ratios[-1]:.3f}")


if __name__ == "__main__":
    main()
