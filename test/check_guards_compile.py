#!/usr/bin/env python3
"""Checks that every guard cuda-unguarded-thread-index suggests compiles.

Runs the check through the driver on SOURCE, reads each note "guard the
access, for example with '...'", and for each one analyses a copy of
SOURCE with the guard pasted before the line the note points at (a line
that is one statement is wrapped in braces with it). A copy that no longer compiles fails the test, and so does a
SOURCE that draws no suggested guard at all.

usage: check_guards_compile.py --cuda-tidy=PATH [--config=YAML] SOURCE TMP
                              [-- compiler args]
"""
import argparse
import os
import re
import subprocess
import sys

CHECK = "--checks=-*,cuda-unguarded-thread-index"
GUARD_NOTE = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+):\d+: note: guard the access, for "
    r"example with '(?P<guard>.*)'$")


def run(args, path):
    config = ["--config=" + args.config] if args.config else []
    return subprocess.run([args.cuda_tidy, CHECK, "--no-cache"] + config +
                          [path, "--"] + args.extra,
                          capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuda-tidy", required=True)
    parser.add_argument("--config", help="the driver's --config")
    parser.add_argument("source")
    parser.add_argument("tmp")
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()

    with open(args.source) as f:
        lines = f.read().split("\n")
    first = run(args, args.source)
    guards = []
    for out_line in first.stdout.splitlines():
        m = GUARD_NOTE.match(out_line)
        if m and os.path.realpath(m.group("file")) == os.path.realpath(args.source):
            guards.append((int(m.group("line")), m.group("guard")))
    if not guards:
        sys.exit("check_guards_compile.py: no suggested guard in %s\n%s" %
                 (args.source, first.stdout))

    failures = []
    for number, (line, guard) in enumerate(guards):
        # A whole statement on the line is wrapped with the guard, so that
        # the body of an 'if' or a loop without braces stays one statement.
        code = lines[line - 1].split("//")[0].rstrip()
        declaration = re.match(
            r"\s*(const\s+|unsigned\s+)*[A-Za-z_][\w:<>]*\s+\**[A-Za-z_]\w*\s*[=;\[]",
            code) and not code.lstrip().startswith("return")
        if (code.endswith(";") and not declaration and
                not code.lstrip().startswith(("for", "if", "while"))):
            patched = (lines[:line - 1] + ["{ " + guard + " " + code + " }"] +
                       lines[line:])
        else:
            patched = lines[:line - 1] + [guard] + lines[line - 1:]
        path = "%s.%d.cu" % (args.tmp, number)
        with open(path, "w") as f:
            f.write("\n".join(patched))
        result = run(args, path)
        errors = [l for l in result.stdout.splitlines() + result.stderr.splitlines()
                  if ": error: " in l]
        if errors or result.returncode not in (0, 1):
            failures.append("line %d: '%s' (exit %d)\n  %s" %
                            (line, guard, result.returncode,
                             "\n  ".join(errors)))
    if failures:
        sys.exit("check_guards_compile.py: guards that do not compile:\n" +
                 "\n".join(failures))
    print("%d suggested guards compile" % len(guards))


if __name__ == "__main__":
    main()
