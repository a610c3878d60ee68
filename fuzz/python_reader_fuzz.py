#!/usr/bin/env python3
"""Mutation fuzzer of the Python reader (driver/python/cuda_tidy_python.py),
the Python side of what the libFuzzer targets do for the driver
(docs/reliability.md, "Fuzzing").

usage: fuzz/python_reader_fuzz.py [--seconds 60] [--iterations N] [--seed S]
                                  [--crashes DIR] [SEED_FILE...]

Starts from the Python lit inputs, test/python/*.py (and the files given), mutates them
(bytes flipped, inserted and deleted; lines duplicated, dropped and swapped;
quotes, braces, '%', '{', escapes, non-UTF-8 bytes, deep nesting, huge
literals spliced in) and runs the reader's analyse() in this process on
each. Every input must give an answer, never an exception, and the answer
must be coherent: errors or a unit; every map run inside the unit and the
file it names; runs in order, covering the whole unit. A failing input is
written to --crashes (default build-fuzz/artifacts/python-reader/) and the
fuzzer exits 1. Prints executions, inputs with kernels and distinct outcomes.
"""
import argparse
import glob
import os
import random
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "driver", "python"))
import cuda_tidy_python as reader  # noqa: E402

TOKENS = [b"'", b'"', b"'''", b'"""', b"{", b"}", b"{{", b"%", b"%s", b"%(x)d",
          b"\\", b"\\n", b"\\x", b"\\u12", b"f'", b"rb'", b"r'", b"(", b")", b",",
          b"\xff", b"\xc3", b"\t", b"\r\n", b"extern \"C\"", b"__global__",
          b"cp.RawKernel(", b"SourceModule(", b".format(", b".replace(",
          b"open(", b"(n + 255) // 256", b"-(-n // 256)", b"# NOLINT", b"*args",
          b"**kw", b"lambda: ", b"[" * 50, b"(" * 200]


def mutate(data, rnd):
    data = bytearray(data)
    for _ in range(rnd.randint(1, 6)):
        op = rnd.randrange(8)
        pos = rnd.randrange(len(data) + 1)
        if op == 0 and data:
            data[min(pos, len(data) - 1)] ^= 1 << rnd.randrange(8)
        elif op == 1:
            data[pos:pos] = rnd.choice(TOKENS)
        elif op == 2 and data:
            del data[pos:pos + rnd.randint(1, 40)]
        else:
            lines = bytes(data).split(b"\n")
            i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
            if op == 3:
                lines.insert(j, lines[i])
            elif op == 4:
                del lines[i]
            elif op == 5:
                lines[i], lines[j] = lines[j], lines[i]
            elif op == 6:
                lines.insert(j, b"x = '" + b"a" * rnd.choice([10, 10000, 200000]) + b"'")
            else:
                lines.insert(j, b" " * rnd.randrange(12) + rnd.choice(TOKENS))
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def coherent(result):
    tu = result["tu"].encode("utf-8")
    files = result["files"]
    if result["errors"]:
        return not tu
    end = 0
    for start, length, fid, fstart, exact in result["map"]:
        if start != end or length <= 0 or not 0 <= fid < len(files):
            return False
        end = start + length
    return end == len(tu)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--iterations", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--crashes", default=os.path.join(ROOT, "build-fuzz", "artifacts", "python-reader"))
    ap.add_argument("seeds", nargs="*")
    opts = ap.parse_args()
    rnd = random.Random(opts.seed)
    seeds = [open(p, "rb").read() for p in
             sorted(glob.glob(os.path.join(ROOT, "test", "python", "*.py"))) + opts.seeds]
    pool = list(seeds)
    deadline = time.monotonic() + opts.seconds
    runs = with_kernels = 0
    outcomes = set()
    path = os.path.join(ROOT, "test", "python", "input.py")
    while (opts.iterations and runs < opts.iterations) or (
            not opts.iterations and time.monotonic() < deadline):
        data = mutate(rnd.choice(pool), rnd)
        try:
            result = reader.analyse(path, data)
            ok = coherent(result)
        except Exception:  # noqa: BLE001 - any exception is a finding
            ok, result = False, None
            trace = traceback.format_exc()
        runs += 1
        if not ok:
            os.makedirs(opts.crashes, exist_ok=True)
            out = os.path.join(opts.crashes, "crash-%d.py" % runs)
            open(out, "wb").write(data)
            print("FAILED on input %d, written to %s" % (runs, out))
            print(trace if result is None else "incoherent answer")
            return 1
        key = (bool(result["errors"]), result["stats"]["analysed"], len(result["notes"]))
        if key not in outcomes:
            outcomes.add(key)
            if len(pool) < 200:
                pool.append(data)
        with_kernels += bool(result["stats"]["analysed"])
    print("%d inputs, %d with kernels analysed, %d distinct outcomes, no failure"
          % (runs, with_kernels, len(outcomes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
