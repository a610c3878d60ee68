#!/usr/bin/env python3
"""Compares cuda-clangd's cuda-* findings with the driver's, file by file.

Each file is analysed twice, with the same nvcc compile database (written to
TMP: nvcc's -gencode, -rdc, -Xcompiler and --expt-* flags, which stock
clangd rejects): by `cuda-tidy -p TMP FILE`, and by
`cuda-clangd --compile-commands-dir=TMP --check=FILE`, which runs clangd's
own pipeline (preamble, main-file AST, clang-tidy) and logs each diagnostic
as "[check] Line N: message". Findings are compared as (line, check,
message). A finding that only one side has must be listed in the ALLOWED
file, as "FILE:LINE: driver-only|clangd-only: CHECK" (docs/editors.md, "What
cuda-clangd does not see"); a listed difference that no longer happens is an
error too, so the list stays true.

usage: compare_with_driver.py --cuda-tidy=BIN --cuda-clangd=BIN
                              --inputs=DIR --tmp=TMP --allowed=FILE FILE...
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

DRIVER_LINE = re.compile(r"^(.*?):(\d+):(\d+): (warning|error): (.*) \[(cuda-[\w-]+)\]$")
CLANGD_LINE = re.compile(r"\[(cuda-[\w-]+)\] Line (\d+): (.*)$")


def nvcc_command(source, inputs):
    return ["/usr/local/cuda/bin/nvcc", "-gencode",
            "arch=compute_90,code=[compute_90,sm_90]", "-rdc=true",
            "--expt-relaxed-constexpr", "--expt-extended-lambda",
            "-Xcompiler", "-Wall,-fPIC", "-std=c++17", "-I" + inputs,
            "-c", source, "-o", os.path.basename(source) + ".o"]


def driver_findings(args, source):
    proc = subprocess.run([args.cuda_tidy, "-p", args.tmp, "--quiet",
                           "--cache-dir=off", source],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        sys.exit("cuda-tidy failed on %s (exit %d):\n%s%s" % (
            source, proc.returncode, proc.stdout, proc.stderr))
    found = set()
    for line in proc.stdout.splitlines():
        m = DRIVER_LINE.match(line)
        if m and os.path.realpath(m.group(1)) == os.path.realpath(source):
            found.add((int(m.group(2)), m.group(6), m.group(5)))
    return found


def clangd_findings(args, source):
    proc = subprocess.run([args.cuda_clangd, "--cuda-check-costs=false",
                           "--compile-commands-dir=" + args.tmp,
                           "--check=" + source, "--check-warnings",
                           "--check-locations=false", "--log=error",
                           "--background-index=false"],
                          capture_output=True, text=True)
    # --check exits 1 when the file has errors: a CUDA file that does not
    # parse in clangd is a failure of this test.
    if proc.returncode != 0:
        sys.exit("cuda-clangd --check failed on %s (exit %d):\n%s" % (
            source, proc.returncode, proc.stderr))
    found = set()
    for line in proc.stderr.splitlines():
        m = CLANGD_LINE.search(line)
        if m:
            found.add((int(m.group(2)), m.group(1), m.group(3)))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuda-tidy", required=True)
    parser.add_argument("--cuda-clangd", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--tmp", required=True)
    parser.add_argument("--allowed", required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    allowed = set()
    with open(args.allowed) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                allowed.add(line)

    shutil.rmtree(args.tmp, ignore_errors=True)
    os.makedirs(args.tmp)
    sources = [os.path.realpath(f) for f in args.files]
    with open(os.path.join(args.tmp, "compile_commands.json"), "w") as f:
        json.dump([{"directory": os.path.dirname(s), "file": s,
                    "arguments": nvcc_command(s, args.inputs)}
                   for s in sources], f, indent=1)

    differences, same = set(), 0
    for source in sources:
        name = os.path.basename(source)
        driver = driver_findings(args, source)
        clangd = clangd_findings(args, source)
        same += len(driver & clangd)
        for side, only in (("driver-only", driver - clangd),
                           ("clangd-only", clangd - driver)):
            for line, check, message in sorted(only):
                key = "%s:%d: %s: %s" % (name, line, side, check)
                differences.add(key)
                if key not in allowed:
                    print("unexpected difference: %s: %s" % (key, message))
    compared = {os.path.basename(s) for s in sources}
    stale = {k for k in allowed - differences if k.split(':', 1)[0] in compared}
    for key in sorted(stale):
        print("listed difference no longer found: " + key)
    print("%d files, %d findings the same, %d differences (all listed: %s)" % (
        len(sources), same, len(differences),
        "yes" if differences <= allowed and not stale else "no"))
    if not same:
        print("no finding compared: neither tool reported anything")
        return 1
    return 0 if differences <= allowed and not stale else 1


if __name__ == "__main__":
    sys.exit(main())
