#!/usr/bin/env python3
"""Check the cuda-tidy samples against their manifest, GPU results and lint.

Usage:
  check_samples.py --cuda-tidy PATH --nvcc-build-dir DIR|none --repo ROOT
                   [--no-lint]

(a) Every file the manifest (samples/manifest.json) names exists, and every
    *.bug.cu / *.fixed.cu (and *.bug.py / *.fixed.py, the Python-hosted
    samples) under samples/ is in the manifest.
(b) samples/gpu-results.json agrees with the manifest: it was made from the
    same sources (sha256), every bug form failed under its oracle and printed
    the oracle text, and every fixed form exited 0 plain and under every
    compute-sanitizer tool. A sample without GPU results fails.
(c) Unless --no-lint: `cuda-tidy --checks=-*,<check> <file> --` reports
    exactly one finding of the sample's check in the bug form, at the
    manifest's line (besides those its 'also' entries of the same check list
    by line and column: the same bug at other accesses), and none in the
    fixed form; with all the manifest's
    checks enabled, the bug form has no other finding (but those its 'also'
    entries list, each of which must be there) and the fixed form none.
With --nvcc-build-dir DIR (a build of samples/CMakeLists.txt), every form's
executable must be there and newer than its source; `none` skips that.

Prints one line per assertion and finally `N passed, M failed`; exits 1 when
anything failed. Python 3 standard library only.
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

DIAG = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): "
                  r"warning: (?P<msg>.*) \[(?P<check>[^\]\s]+)\]$")
FIXED_TOOLS = ("plain", "memcheck-leak", "racecheck", "synccheck")
# Python forms run under memcheck without leak checking: CuPy's memory pool
# keeps its blocks until the process ends (scripts/gpu-run-samples).
PYTHON_FIXED_TOOLS = ("plain", "memcheck")
ORACLE_TOOL = {
    "memcheck": "memcheck",
    "memcheck-leak": "memcheck-leak",
    "racecheck": "racecheck",
    "synccheck": "synccheck",
    "initcheck": "initcheck",
    "api-error": "memcheck",
    "wrong-result": "plain",
}
LINT_TIMEOUT = 300


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print(f"PASS: {what}")
        else:
            self.failed += 1
            print(f"FAIL: {what}" + (f": {detail}" if detail else ""))
        return ok


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def check_files(rep, samples_dir, manifest):
    named = set()
    for s in manifest["samples"]:
        for key in ("check", "program", "bug", "fixed", "line", "oracle",
                    "oracle_text"):
            rep.check(key in s, f"manifest entry {s.get('program', '?')} "
                                f"has '{key}'")
        for form in ("bug", "fixed"):
            rel = s.get(form, "")
            named.add(os.path.normpath(rel))
            rep.check(os.path.isfile(os.path.join(samples_dir, rel)),
                      f"{rel} exists")
        rep.check(s.get("oracle") in ORACLE_TOOL,
                  f"{s.get('program')}: oracle '{s.get('oracle')}' is known")
    for s in manifest.get("torch_samples", []):
        for key in ("check", "program", "bug", "fixed", "runner", "line",
                    "oracle", "oracle_text"):
            rep.check(key in s, f"torch sample {s.get('program', '?')} "
                                f"has '{key}'")
        for form in ("bug", "fixed", "runner"):
            rel = s.get(form, "")
            named.add(os.path.normpath(rel))
            rep.check(os.path.isfile(os.path.join(samples_dir, rel)),
                      f"{rel} exists")
        rep.check(s.get("oracle") == "wrong-result",
                  f"{s.get('program')}: a torch sample checks its own result")
    for root, _, files in os.walk(samples_dir):
        for name in sorted(files):
            if name.endswith((".bug.cu", ".fixed.cu", ".bug.py", ".fixed.py")):
                rel = os.path.normpath(os.path.relpath(
                    os.path.join(root, name), samples_dir))
                rep.check(rel in named, f"{rel} is in the manifest")


def check_gpu_results(rep, samples_dir, manifest):
    path = os.path.join(samples_dir, "gpu-results.json")
    if not rep.check(os.path.isfile(path), "samples/gpu-results.json exists"):
        return
    with open(path) as f:
        results = json.load(f)
    env = results.get("environment", {})
    rep.check(bool(env.get("gpu")) and bool(env.get("date")),
              "GPU results name the GPU and the date",
              json.dumps(env))
    by_file = {}
    for entry in results.get("samples", []):
        by_file[os.path.normpath(entry.get("file", ""))] = entry
    for s in manifest["samples"]:
        for form in ("bug", "fixed"):
            rel = os.path.normpath(s[form])
            what = f"GPU results for {rel}"
            entry = by_file.get(rel)
            if not rep.check(entry is not None, f"{what} exist"):
                continue
            src = os.path.join(samples_dir, rel)
            if os.path.isfile(src):
                rep.check(entry.get("sha256") == sha256(src),
                          f"{what} are for the current source",
                          "source changed since the GPU run: rerun "
                          "scripts/gpu-run-samples")
            runs = entry.get("runs", [])
            if form == "bug":
                rep.check(entry.get("oracle") == s["oracle"] and
                          entry.get("oracle_text") == s["oracle_text"],
                          f"{what} used the manifest's oracle",
                          f"{entry.get('oracle')!r} {entry.get('oracle_text')!r}")
                tool = ORACLE_TOOL.get(s["oracle"])
                oracle_runs = [r for r in runs if r.get("tool") == tool]
                rep.check(bool(oracle_runs) and all(
                    r.get("exit") not in (0, None) and not r.get("timed_out")
                    and not r.get("skipped") for r in oracle_runs),
                    f"{what}: bug form fails under {s['oracle']} ({tool})",
                    str([(r.get("exit"), r.get("timed_out")) for r in oracle_runs]))
                rep.check(bool(oracle_runs) and all(
                    r.get("oracle_text_found") for r in oracle_runs),
                    f"{what}: {s['oracle']} printed {s['oracle_text']!r}")
                rep.check(entry.get("verdict") == "bug-shown",
                          f"{what}: verdict bug-shown", entry.get("verdict"))
            else:
                tools = {r.get("tool") for r in runs}
                if "memcheck-leak" in tools:  # memcheck, with leak checking
                    tools.add("memcheck")
                needed = set(PYTHON_FIXED_TOOLS if s["fixed"].endswith(".py")
                             else FIXED_TOOLS)
                if ORACLE_TOOL.get(s["oracle"]) not in ("memcheck", "plain"):
                    needed.add(ORACLE_TOOL[s["oracle"]])
                rep.check(needed <= tools,
                          f"{what}: fixed form ran plain and under "
                          f"{', '.join(sorted(needed - {'plain'}))}",
                          f"missing {sorted(needed - tools)}")
                bad = [(r.get("tool"), r.get("exit")) for r in runs
                       if r.get("exit") != 0 or r.get("timed_out")
                       or r.get("skipped")]
                rep.check(not bad and entry.get("verdict") == "clean",
                          f"{what}: fixed form exits 0 everywhere", str(bad))


def check_torch_gpu_results(rep, samples_dir, manifest):
    """The torch samples' entries (scripts/gpu-run-torch-samples): the bug
    form's own check failed with the oracle text, the fixed form ran plain
    and under memcheck with exit 0, both from the current sources."""
    if not manifest.get("torch_samples"):
        return
    with open(os.path.join(samples_dir, "gpu-results.json")) as f:
        results = json.load(f)
    env = results.get("torch_environment", {})
    rep.check(bool(env.get("gpu")) and bool(env.get("torch_version")),
              "torch GPU results name the GPU and PyTorch", json.dumps(env))
    by_file = {os.path.normpath(e.get("file", "")): e
               for e in results.get("torch_samples", [])}
    for s in manifest["torch_samples"]:
        for form in ("bug", "fixed"):
            rel = os.path.normpath(s[form])
            what = f"GPU results for {rel}"
            entry = by_file.get(rel)
            if not rep.check(entry is not None, f"{what} exist"):
                continue
            rep.check(entry.get("sha256") == sha256(os.path.join(samples_dir, rel)),
                      f"{what} are for the current source",
                      "source changed since the GPU run: rerun "
                      "scripts/gpu-run-torch-samples")
            runs = entry.get("runs", [])
            plain = [r for r in runs if r.get("tool") == "plain"]
            if form == "bug":
                rep.check(bool(plain) and all(
                    r.get("exit") not in (0, None) and r.get("oracle_text_found")
                    for r in plain) and entry.get("verdict") == "bug-shown",
                    f"{what}: bug form printed {s['oracle_text']!r} and failed",
                    str([(r.get("exit"), r.get("output_tail")) for r in plain]))
            else:
                tools = {r.get("tool") for r in runs}
                if "memcheck-leak" in tools:  # memcheck, with leak checking
                    tools.add("memcheck")
                bad = [(r.get("tool"), r.get("exit")) for r in runs
                       if r.get("exit") != 0]
                rep.check({"plain", "memcheck"} <= tools and not bad and
                          entry.get("verdict") == "clean",
                          f"{what}: fixed form exits 0 plain and under memcheck",
                          str(bad or sorted(tools)))


def check_torch_lint(rep, cuda_tidy, samples_dir, manifest, repo, torch_site):
    """Lints the torch samples against PyTorch's real headers, found through
    Python in torch_site."""
    samples = manifest.get("torch_samples", [])
    if not samples:
        return
    if not torch_site or not os.path.exists(
            os.path.join(torch_site, "torch", "include", "torch", "extension.h")):
        print("note: torch samples not linted: no PyTorch headers "
              "(scripts/setup.sh fetches them into build/torch)")
        return
    env = dict(os.environ, PYTHONPATH=torch_site,
               CUDA_TIDY_PYTHON=os.environ.get("CUDA_TIDY_PYTHON", "python3"))
    all_checks = sorted({s["check"] for s in samples})
    for s in samples:
        for form in ("bug", "fixed"):
            path = os.path.join(samples_dir, s[form])
            rel = os.path.relpath(path, repo)
            rc, diags, out = lint(cuda_tidy, all_checks, path, repo, env)
            if not rep.check(rc in (0, 1), f"cuda-tidy ran on {rel}",
                             f"exit {rc}: {out.strip()[-600:]}"):
                continue
            if form == "bug":
                mine = [d for d in diags if d["check"] == s["check"]]
                rep.check(len(mine) == 1 and int(mine[0]["line"]) == s["line"],
                          f"{rel}:{s['line']}: warning [{s['check']}], once",
                          str([(d["check"], d["line"]) for d in mine]))
                others = [d for d in diags if d["check"] != s["check"]]
            else:
                others = diags
            rep.check(not others, f"{rel}: no finding of "
                      f"{'any torch check' if form == 'fixed' else 'other torch checks'}",
                      "; ".join(d.group(0) for d in others))


def lint(cuda_tidy, checks, path, repo, env=None):
    cmd = [cuda_tidy, f"--checks=-*,{','.join(checks)}", path, "--"]
    try:
        proc = subprocess.run(cmd, cwd=repo, capture_output=True, text=True,
                              timeout=LINT_TIMEOUT, env=env)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, [], str(e)
    diags = []
    for line in proc.stdout.splitlines():
        m = DIAG.match(line)
        if m:
            diags.append(m)
    return proc.returncode, diags, proc.stdout[-2000:] + proc.stderr[-2000:]


def same_file(a, b, repo):
    def norm(p):
        return os.path.realpath(os.path.join(repo, p))
    return norm(a) == norm(b)


def check_lint(rep, cuda_tidy, samples_dir, manifest, repo):
    all_checks = sorted({s["check"] for s in manifest["samples"]})
    for s in manifest["samples"]:
        check = s["check"]
        for form in ("bug", "fixed"):
            path = os.path.join(samples_dir, s[form])
            rel = os.path.relpath(path, repo)
            rc, diags, out = lint(cuda_tidy, [check], path, repo)
            if not rep.check(rc in (0, 1), f"cuda-tidy ran on {rel}",
                             f"exit {rc}: {out.strip()[-600:]}"):
                continue
            mine = [d for d in diags if d["check"] == check]
            if form == "bug":
                # The same bug at other accesses: 'also' entries of the
                # sample's own check name their line and column.
                same = [(a["line"], a["col"]) for a in s.get("also", [])
                        if a["check"] == check]
                for a_line, a_col in same:
                    rep.check(any(int(d["line"]) == a_line and
                                  int(d["col"]) == a_col for d in mine),
                              f"{rel}:{a_line}:{a_col}: warning [{check}] "
                              f"(listed in 'also')")
                mine = [d for d in mine
                        if (int(d["line"]), int(d["col"])) not in same]
                where = [f"{d['line']}:{d['col']}" for d in mine]
                at_line = [d for d in mine
                           if int(d["line"]) == s["line"] and
                           same_file(d["file"], path, repo)]
                rep.check(len(at_line) == 1,
                          f"{rel}:{s['line']}: warning [{check}]",
                          f"findings of {check} at {where or 'no line'}")
                rep.check(len(mine) == 1,
                          f"{rel}: exactly one finding of {check}",
                          f"{len(mine)} at {where}")
                rep.check(rc == 1, f"{rel}: cuda-tidy exits 1", f"exit {rc}")
            else:
                rep.check(not mine and rc == 0,
                          f"{rel}: no finding of {check}",
                          "; ".join(d.group(0) for d in mine) or f"exit {rc}")
            if len(all_checks) > 1:
                rc, diags, out = lint(cuda_tidy, all_checks, path, repo)
                also = {(a["check"], a["line"]) for a in s.get("also", [])}
                if form == "bug":
                    for a_check, a_line in sorted(also):
                        rep.check(any(d["check"] == a_check and
                                      int(d["line"]) == a_line
                                      for d in diags),
                                  f"{rel}:{a_line}: warning [{a_check}] "
                                  f"(listed in 'also')")
                others = [d for d in diags
                          if form == "fixed" or
                          (d["check"] != check and
                           (d["check"], int(d["line"])) not in also)]
                rep.check(rc in (0, 1) and not others,
                          f"{rel}: no finding of "
                          f"{'any sample check' if form == 'fixed' else 'other checks'}",
                          "; ".join(d.group(0) for d in others) or f"exit {rc}")


def check_build(rep, build_dir, samples_dir, manifest):
    if not rep.check(os.path.isdir(build_dir),
                     f"samples build directory {build_dir} exists"):
        return
    for s in manifest["samples"]:
        for form in ("bug", "fixed"):
            if s[form].endswith(".py"):
                continue  # run by Python, not built
            src = os.path.join(samples_dir, s[form])
            exe = os.path.join(build_dir, s["check"], f"{s['program']}.{form}")
            ok = os.path.isfile(exe) and os.access(exe, os.X_OK)
            if rep.check(ok, f"built {os.path.relpath(exe, build_dir)}",
                         f"no executable at {exe}") and os.path.isfile(src):
                rep.check(os.path.getmtime(exe) >= os.path.getmtime(src),
                          f"{os.path.relpath(exe, build_dir)} is newer than "
                          f"its source")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuda-tidy", required=True,
                    help="the cuda-tidy driver (unused with --no-lint)")
    ap.add_argument("--nvcc-build-dir", required=True,
                    help="a build of samples/CMakeLists.txt, or 'none'")
    ap.add_argument("--repo", required=True, help="the repository root")
    ap.add_argument("--torch-site", default=None,
                    help="a site-packages folder with PyTorch's headers, for "
                         "linting the torch samples")
    ap.add_argument("--no-lint", action="store_true",
                    help="skip running cuda-tidy on the samples")
    opts = ap.parse_args()

    repo = os.path.abspath(opts.repo)
    samples_dir = os.path.join(repo, "samples")
    rep = Report()
    manifest_path = os.path.join(samples_dir, "manifest.json")
    if rep.check(os.path.isfile(manifest_path), "samples/manifest.json exists"):
        with open(manifest_path) as f:
            manifest = json.load(f)
        rep.check(len(manifest.get("samples", [])) > 0,
                  "the manifest lists samples")
        check_files(rep, samples_dir, manifest)
        check_gpu_results(rep, samples_dir, manifest)
        check_torch_gpu_results(rep, samples_dir, manifest)
        if opts.nvcc_build_dir != "none":
            check_build(rep, os.path.abspath(opts.nvcc_build_dir), samples_dir,
                        manifest)
        if not opts.no_lint:
            check_lint(rep, opts.cuda_tidy, samples_dir, manifest, repo)
            check_torch_lint(rep, opts.cuda_tidy, samples_dir, manifest, repo,
                             opts.torch_site)
    print(f"{rep.passed} passed, {rep.failed} failed")
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())
