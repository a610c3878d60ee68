#!/usr/bin/env python3
"""Runs one cuda-tidy check on a test file and checks its findings.

The test file carries its expectations next to the code:
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: ... [cuda-check-name]
  // CHECK-NOTES:    warnings and notes, when the notes matter
  // CHECK-FIXES:    lines of the file after the fixes are applied
The expectation comments are blanked out of the copy that is analysed (so
they cannot match themselves), keeping line numbers. Any warning or error
that the file does not expect makes the test fail.

With --expect=FILE the expectations are read from FILE instead (with
absolute line numbers), so that a program kept elsewhere, such as a sample
under samples/, is analysed as it is.

usage: check_cuda_tidy.py --tool=plugin|driver [paths] [--expect=FILE]
                          [--compile-errors]
                          SOURCE CHECK TMP [-- extra tool arguments]
"""
import argparse
import os
import re
import shlex
import subprocess
import sys


def fail(message, output=None):
    sys.stderr.write("check_cuda_tidy.py: " + message + "\n")
    if output is not None:
        sys.stderr.write("------ tool output ------\n" + output + "\n")
    sys.exit(1)


def run_filecheck(prefix, check_file, input_text, extra):
    cmd = ["FileCheck", check_file, "--check-prefixes=" + prefix] + extra
    proc = subprocess.run(cmd, input=input_text, capture_output=True, text=True)
    if proc.returncode != 0:
        fail("FileCheck (%s) failed:\n%s" % (prefix, proc.stderr), input_text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", choices=["plugin", "driver"], required=True)
    parser.add_argument("--clang-tidy", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--cuda-tidy", required=True)
    parser.add_argument("--cuda-flags", required=True)
    parser.add_argument("--check-suffix", default="",
                        help="expectation suffix; a comma-separated list "
                        "checks several ('' is the plain prefix), e.g. ',STRICT'")
    parser.add_argument("--expect", help="file holding the expectations")
    parser.add_argument("--compile-errors", action="store_true",
                        help="the file does not compile: the tools must say "
                        "so (clang-tidy exits 1, cuda-tidy 2), and its errors "
                        "are expectations like its findings")
    parser.add_argument("source")
    parser.add_argument("check")
    parser.add_argument("tmp")
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()

    suffixes = ["-" + s if s else "" for s in args.check_suffix.split(",")]
    messages_prefix = ",".join("CHECK-MESSAGES" + s for s in suffixes)
    notes_prefix = ",".join("CHECK-NOTES" + s for s in suffixes)
    fixes_prefix = ",".join("CHECK-FIXES" + s for s in suffixes)

    with open(args.source) as f:
        text = f.read()
    expectations = args.expect or args.source
    if args.expect:
        with open(args.expect) as f:
            expect_text = f.read()
    else:
        expect_text = text
    def has(prefixes):
        return any(re.search(r"\b%s:" % p, expect_text)
                   for p in prefixes.split(","))
    has_messages = has(messages_prefix)
    has_notes = has(notes_prefix)
    has_fixes = has(fixes_prefix)

    # Blank out every expectation comment, keeping the line structure.
    cleaned = re.sub(r"//\s*CHECK-(MESSAGES|NOTES|FIXES)[A-Za-z0-9-]*:[^\r\n]*",
                     "//", text)
    ext = os.path.splitext(args.source)[1]
    tmp = args.tmp + ext
    os.makedirs(os.path.dirname(os.path.abspath(tmp)), exist_ok=True)
    with open(tmp, "w") as f:
        f.write(cleaned)

    checks = "--checks=-*," + args.check
    fix = ["--fix"] if has_fixes else []
    if args.tool == "plugin":
        cmd = ([args.clang_tidy, "--load=" + args.plugin, checks] + fix +
               args.extra + [tmp, "--"] + shlex.split(args.cuda_flags))
        ok_codes = (1,) if args.compile_errors else (0,)
    else:
        cmd = [args.cuda_tidy, checks] + fix + args.extra + [tmp, "--"]
        ok_codes = (2,) if args.compile_errors else (0, 1)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    output = proc.stdout
    if proc.returncode not in ok_codes:
        fail("%s exited with %d:\n%s" % (" ".join(cmd), proc.returncode,
                                         proc.stderr), output)
    if args.tool == "driver" and not args.compile_errors:
        found = re.search(r": warning: ", output) is not None
        if (proc.returncode == 1) != found:
            fail("driver exit code %d does not match its findings" %
                 proc.returncode, output)

    # clang's own notes about applied fixes and macro expansions are not
    # findings of the check.
    diag_lines = [l for l in output.splitlines()
                  if re.search(r": (warning|error|note): ", l)
                  and "FIX-IT applied suggested code changes" not in l
                  and "note: expanded from macro" not in l]
    if has_notes:
        run_filecheck(notes_prefix, expectations, "\n".join(diag_lines) + "\n",
                      ["-implicit-check-not={{warning|error|note}}:"])
    elif has_messages:
        lines = [l for l in diag_lines if ": note: " not in l]
        run_filecheck(messages_prefix, expectations, "\n".join(lines) + "\n",
                      ["-implicit-check-not={{warning|error}}:"])
    else:
        unexpected = [l for l in diag_lines if ": note: " not in l]
        if unexpected:
            fail("expected no findings, got:", "\n".join(unexpected))

    if has_fixes:
        with open(tmp) as f:
            fixed = f.read()
        run_filecheck(fixes_prefix, expectations, fixed, [])


if __name__ == "__main__":
    main()
