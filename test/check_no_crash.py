#!/usr/bin/env python3
"""Runs every cuda-* check on one file through the driver and the plugin and
fails if either crashes, or if the file does not parse (the torture corpus
is valid CUDA: a compile error means the test input, not the checks, is
broken). Findings are allowed (exit code 1 from the driver) and printed, so
that false positives can be looked at.

usage: check_no_crash.py --clang-tidy=... --plugin=... --cuda-tidy=...
                         --cuda-flags=... SOURCE [--extra-arg=ARG]...
"""
import argparse
import shlex
import subprocess
import sys

CRASH_SIGNS = ("Stack dump", "PLEASE submit a bug report", "Segmentation fault",
               "AddressSanitizer", "UndefinedBehaviorSanitizer",
               "runtime error:", "LeakSanitizer", "Assertion", "terminate called")


def run(name, cmd, ok_codes):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                              timeout=300)
    except subprocess.TimeoutExpired:
        sys.exit("%s: timed out: %s" % (name, " ".join(cmd)))
    out = proc.stdout + proc.stderr
    problems = []
    if proc.returncode not in ok_codes:
        problems.append("exit code %d (expected one of %s)" % (proc.returncode, ok_codes))
    for sign in CRASH_SIGNS:
        if sign in out:
            problems.append("output contains %r" % sign)
    if "error:" in out:
        problems.append("compile errors (the torture input must be valid CUDA)")
    if problems:
        sys.stderr.write("%s: %s\ncommand: %s\n------ output ------\n%s\n" %
                         (name, "; ".join(problems), " ".join(map(shlex.quote, cmd)), out))
        sys.exit(1)
    findings = [l for l in out.splitlines() if "warning:" in l]
    print("%s: exit %d, %d findings" % (name, proc.returncode, len(findings)))
    for f in findings:
        print("  " + f)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--clang-tidy", required=True)
    p.add_argument("--plugin", required=True)
    p.add_argument("--cuda-tidy", required=True)
    p.add_argument("--cuda-flags", required=True)
    p.add_argument("--extra-arg", action="append", default=[])
    p.add_argument("source")
    a = p.parse_args()
    run("driver", [a.cuda_tidy, "--checks=-*,cuda-*", "--quiet"] +
        ["--extra-arg=" + e for e in a.extra_arg] + [a.source], (0, 1))
    run("plugin", [a.clang_tidy, "--load=" + a.plugin, "--checks=-*,cuda-*",
                   "--quiet", a.source, "--"] + shlex.split(a.cuda_flags) + a.extra_arg,
        (0,))


main()
