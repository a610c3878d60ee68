#!/usr/bin/env python3
"""Each cuda-* check's cost in the editor, the way clangd measures its own
checks (TidyFastChecks.inc): the check's addition to cuda-clangd's rebuild of
a file, alone, as a share of the rebuild without checks.

For each file, `cuda-clangd --check=FILE` runs under callgrind once with
`--cuda-checks=false` (the rebuild: clangd's ParsedAST::build, which an edit
repeats) and once per check with only that check enabled, through a user
configuration of clangd's own (`--enable-config`, `XDG_CONFIG_HOME` in a
temporary folder whose `Diagnostics: ClangTidy: Remove:` names every other
cuda-* check: clangd applies a config's Remove after its Add, so `Remove:
'*'` would remove the check too), the file and its compilation database
unchanged. Instructions are
callgrind's, inclusive of ParsedAST::build: deterministic, unlike times on a
loaded machine. A check is fast under 8% of the rebuild and slow over 15%
(clangd's own thresholds).

usage: bench/check_costs.py [--cuda-clangd BIN] [--checks A,B] [--out JSON]
                            [--update docs/performance.md] FILE...
       bench/check_costs.py --clangd-table clangd/CudaCheckCosts.inc
                            --from bench/results/check-costs-A.json ...

--clangd-table writes the table cuda-clangd's FastCheckFilter answer reads
(clangd/ClangdHooks.cpp): each check's share of the rebuild, the largest over
the files measured, from the newest of the --from files (later ones win) that
measured it, each with its own rebuild without checks.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- check-costs:begin -->", "<!-- check-costs:end -->"
FAST, SLOW = 8.0, 15.0


def cuda_checks(cuda_tidy):
    out = subprocess.run([cuda_tidy, "--list-checks", "-checks=-*,cuda-*"],
                         capture_output=True, text=True, check=True).stdout
    return [l.strip() for l in out.splitlines() if l.strip().startswith("cuda-")]


def rebuild_instructions(binary, folder, path, db, check, all_checks):
    """ParsedAST::build's instructions with only `check` (None: no check)."""
    out = os.path.join(folder, "callgrind.out")
    config = os.path.join(folder, "clangd")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "config.yaml"), "w") as f:
        f.write("Diagnostics:\n  ClangTidy:\n    Remove: [%s]\n" % ", ".join(
            c for c in all_checks if c != check))
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
           "--collect-atstart=no", "--toggle-collect=clang::clangd::ParsedAST::build*",
           binary, "--check=" + path, "--check-locations=false", "--enable-config",
           "--compile-commands-dir=" + db]
    env = dict(os.environ, XDG_CONFIG_HOME=folder)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    with open(out) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    sys.exit("check_costs: callgrind wrote no totals for %s" % path)


def database(folder, path, include_dir):
    with open(os.path.join(folder, "compile_commands.json"), "w") as f:
        json.dump([{"directory": include_dir, "file": path,
                    "arguments": ["clang++", "-I" + include_dir, "-c", path]}], f)
    return folder


def measure(binary, path, checks, all_checks, tmp):
    path = os.path.abspath(path)
    db = database(tmp, path, os.path.dirname(path))
    base = rebuild_instructions(binary, os.path.join(tmp, "rebuild"), path, db, None, all_checks)
    costs = {}
    for check in checks:
        n = rebuild_instructions(binary, os.path.join(tmp, check), path, db, check, all_checks)
        costs[check] = n - base
        print("  %-32s %+6.1f%%" % (check, 100.0 * (n - base) / base), flush=True)
    return base, costs


def table(results):
    files = list(results)
    head = "| check | " + " | ".join(os.path.basename(f) for f in files) + " | class |"
    out = [head, "|---" * (len(files) + 2) + "|"]
    checks = sorted({c for f in files for c in results[f]["checks"]})
    for c in checks:
        shares = [100.0 * results[f]["checks"][c] / results[f]["rebuild"] for f in files]
        worst = max(shares)
        cls = "fast" if worst < FAST else ("slow" if worst > SLOW else "medium")
        out.append("| %s | %s | %s |" % (c, " | ".join("%.1f%%" % s for s in shares), cls))
    out.append("| rebuild without checks (instructions) | %s | |" % " | ".join(
        "%.1f M" % (results[f]["rebuild"] / 1e6) for f in files))
    return "\n".join(out) + "\n"


def shares(results):
    """{check: largest share of the rebuild in percent} of one measurement."""
    out = {}
    for f in results.values():
        for c, n in f["checks"].items():
            out[c] = max(out.get(c, 0.0), 100.0 * n / f["rebuild"])
    return out


def clangd_table(paths, dest):
    costs, source = {}, {}
    for p in paths:
        for c, pct in shares(json.load(open(p))).items():
            costs[c], source[c] = pct, os.path.basename(p)
    with open(dest, "w") as fo:
        fo.write("// Generated by bench/check_costs.py --clangd-table from %s:\n"
                 "// each cuda-* check's addition to cuda-clangd's rebuild, in percent of\n"
                 "// the rebuild without checks (the largest over the files measured).\n"
                 "// Fast under %g%%, slow over %g%%, in between neither (clangd's classes).\n"
                 "// Do not edit: measure again and regenerate.\n" % (
                     ", ".join("bench/results/" + os.path.basename(p) for p in paths), FAST, SLOW))
        for c in sorted(costs):
            fo.write("CUDA_CHECK_COST(\"%s\", %.2f) // %s\n" % (c, costs[c], source[c]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cuda-clangd", default=os.path.join(ROOT, "build", "bin", "cuda-clangd"))
    ap.add_argument("--cuda-tidy", default=os.path.join(ROOT, "build", "bin", "cuda-tidy"))
    ap.add_argument("--checks", help="comma-separated (default: every cuda-* check)")
    ap.add_argument("--out", help="write the instruction counts as JSON")
    ap.add_argument("--update", metavar="PAGE", help="write the table into PAGE between %s and %s" % (BEGIN, END))
    ap.add_argument("--clangd-table", metavar="INC", help="write cuda-clangd's cost table (with --from)")
    ap.add_argument("--from", dest="from_", nargs="+", metavar="JSON", help="measurements (--out files) for --clangd-table")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if args.clangd_table:
        if not args.from_:
            sys.exit("check_costs: --clangd-table needs --from JSON...")
        clangd_table(args.from_, args.clangd_table)
        return
    if not args.files:
        sys.exit("check_costs: no file to measure")
    if not shutil.which("valgrind"):
        sys.exit("check_costs: valgrind is not installed (apt-get install valgrind)")
    for f in args.files:
        if not os.path.isfile(f):
            sys.exit("check_costs: no such file: %s" % f)
    all_checks = cuda_checks(args.cuda_tidy)
    checks = args.checks.split(",") if args.checks else all_checks
    results = {}
    for f in args.files:
        print(f, flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            base, costs = measure(args.cuda_clangd, f, checks, all_checks, tmp)
        results[f] = {"rebuild": base, "checks": costs}
    t = table(results)
    sys.stdout.write(t)
    if args.out:
        with open(args.out, "w") as fo:
            json.dump(results, fo, indent=1)
    if args.update:
        text = open(args.update).read()
        if BEGIN not in text:
            sys.exit("check_costs: %s has no %s block" % (args.update, BEGIN))
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        note = ("`bench/check_costs.py %s` (callgrind, instructions inclusive of "
                "`ParsedAST::build`; each check alone against the rebuild without checks; "
                "fast under %g%%, slow over %g%%):\n\n" % (
                    " ".join(os.path.basename(f) for f in args.files), FAST, SLOW))
        with open(args.update, "w") as fo:
            fo.write(head + BEGIN + "\n" + note + t + END + tail)


if __name__ == "__main__":
    main()
