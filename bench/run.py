#!/usr/bin/env python3
"""cuda-tidy's benchmark: the checks' cost next to clang's parse.

Times, on the same translation units and interleaved in one run (median of
--reps runs after a warm-up):
  floor      clang -fsyntax-only with exactly the flags the driver uses
  all        cuda-tidy with every cuda-* check
  <check>    cuda-tidy with that check alone
  nvcc       nvcc -c for one architecture (when nvcc is present)
and prints, per translation unit and as medians, the ratio of each to the
floor and the peak RSS ratio; how cost grows with the generated files'
size; throughput in TU/s at -j1 and -jN; and, when the driver has a result
cache, cold against warm.

usage: bench/run.py [--reps 5] [--quick] [--files N] [--jobs N]
                    [--cuda-tidy PATH]
       bench/run.py --prefix [--files N] [--reps 3] [--cuda-tidy PATH]
       bench/run.py --torch FILE... [--reps 1]

--prefix measures the precompiled CUDA prefix (docs/driver.md) on a spread of
cuda-samples and HeCBench files (the corpus records in --corpus-results give
each file's include flags): per file, interleaved, the floor (clang's parse
with the driver's flags and the file's), the driver without the prefix, cold
(an empty prefix folder: the run builds it), "implicit" (warm, the implicit
prefix alone: CUDA_TIDY_PREFIX_PREAMBLE=off) and warm (the implicit prefix
and the file's own leading includes, built by earlier runs: a file's own
are built the second time it is seen); all with the result cache off. It
also prints the prefix's build time, size on disk and peak memory, and
whole runs over the same files through one compilation database (-p, -j
all cores): without the prefix, cold (an empty folder) and warm.

--files N measures N files spread evenly over the sorted corpus (and the
generated ones), for machines where the whole corpus takes too long.
Run by hand (not in CI): docs/performance.md records a run.
"""
import argparse
import json
import concurrent.futures as cf
import os
import pathlib
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402


def run_measured(cmd, cwd=None):
    """Runs cmd; returns (wall seconds, peak RSS in KiB, exit code)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def driver_flags(cuda_tidy):
    out = subprocess.run([cuda_tidy, "--print-cuda-flags"], capture_output=True,
                         text=True, check=True).stdout.split()
    return out


def resource_dir(clang):
    return subprocess.run([clang, "-print-resource-dir"], capture_output=True,
                          text=True, check=True).stdout.strip()


def list_checks(cuda_tidy):
    out = subprocess.run([cuda_tidy, "--list-checks", "-checks=-*,cuda-*"],
                         capture_output=True, text=True, check=True).stdout
    return [l.strip() for l in out.splitlines() if l.strip().startswith("cuda-")]


def corpus(gen_dir, quick, count=0):
    files = sorted(p for p in (ROOT / "samples").rglob("*.cu"))
    files += sorted(p for p in (ROOT / "test").rglob("*.cu")
                    if "Output" not in p.parts and "broken" not in p.name)
    generated = [pathlib.Path(p) for p in generate.write(gen_dir)]
    if quick:
        files = files[:4]
    elif 0 < count < len(files):
        step = len(files) / count
        files = [files[int(i * step)] for i in range(count)]
    return files, generated


def corpus_files(results_dir, count):
    """count files spread over the cuda-samples and HeCBench files that
    compile, each with its include flags and the folder to run in."""
    import glob
    import json
    recs = []
    for name in ("cuda-samples", "HeCBench"):
        path = os.path.join(results_dir, name + ".jsonl")
        if not os.path.exists(path):
            continue
        rows = [json.loads(l) for l in open(path)]
        rows = sorted((r for r in rows if not r.get("compile_error")
                       and not r.get("crashed")), key=lambda r: r["path"])
        step = max(1, len(rows) // max(1, count // 2))
        recs += rows[::step][:count // 2]
    return [(r["path"], ["-I" + x for x in r.get("includes", [])],
             "/".join(r["path"].split("/")[:4])) for r in recs]


def prefix_bench(args):
    """The precompiled prefix against clang's parse; see the usage."""
    tidy = args.cuda_tidy
    flags = driver_flags(tidy)
    rdir = resource_dir(args.clang)
    files = corpus_files(args.corpus_results, args.files or 12)
    work = tempfile.mkdtemp(prefix="cuda-tidy-prefix-")
    warm_dir = os.path.join(work, "warm")
    cold_dir = os.path.join(work, "cold")
    env_base = dict(os.environ)

    def tidy_cmd(f, inc, *extra):
        return [tidy, "--quiet", "--no-cache", "-checks=-*,cuda-*", *extra,
                f, "--"] + inc

    def measured(cmd, cwd, prefix_dir, preamble=True):
        os.environ["CUDA_TIDY_PREFIX_DIR"] = prefix_dir
        if not preamble:
            os.environ["CUDA_TIDY_PREFIX_PREAMBLE"] = "off"
        try:
            return run_measured(cmd, cwd)
        finally:
            os.environ.clear()
            os.environ.update(env_base)

    # Warm the warm folder: the first run of a file builds the implicit
    # prefix and notes its leading includes, the second builds those.
    builds = []
    for _ in range(2):
        for f, inc, cwd in files:
            start = time.perf_counter()
            measured(tidy_cmd(f, inc), cwd, warm_dir)
            builds.append(time.perf_counter() - start)
    names = ["floor", "noprefix", "cold", "implicit", "warm"]
    times = {(f, k): [] for f, _, _ in files for k in names}
    rss = {(f, k): [] for f, _, _ in files for k in names}
    reps = max(1, args.reps)
    for rep in range(reps):
        for f, inc, cwd in files:
            for k in names:
                if k == "floor":
                    cmd = [args.clang, "-fsyntax-only", "-resource-dir=" + rdir
                           ] + flags + inc + [f]
                    r = run_measured(cmd, cwd)
                elif k == "noprefix":
                    r = measured(tidy_cmd(f, inc, "--no-prefix-cache"), cwd,
                                 warm_dir)
                elif k == "cold":
                    shutil.rmtree(cold_dir, ignore_errors=True)
                    r = measured(tidy_cmd(f, inc), cwd, cold_dir)
                elif k == "implicit":
                    r = measured(tidy_cmd(f, inc), cwd, warm_dir, False)
                else:
                    r = measured(tidy_cmd(f, inc), cwd, warm_dir)
                times[(f, k)].append(r[0])
                rss[(f, k)].append(r[1])
        print("  rep %d/%d done" % (rep + 1, reps), flush=True)
    med = {key: statistics.median(v) for key, v in times.items()}
    peak = {key: max(v) for key, v in rss.items()}
    print()
    print("Per file: median seconds of the floor (clang -fsyntax-only, same "
          "flags), each configuration's median over the floor's, and peak "
          "RSS (MiB)")
    print("%-52s %7s %9s %7s %8s %7s %9s %9s" % (
        "file", "floor s", "noprefix", "cold", "implicit", "warm",
        "RSS floor", "RSS warm"))
    for f, _, _ in files:
        fl = med[(f, "floor")]
        print("%-52s %7.3f %9.3f %7.3f %8.3f %7.3f %9.0f %9.0f" % (
            f.replace("/work/corpora/", "")[-52:], fl,
            med[(f, "noprefix")] / fl, med[(f, "cold")] / fl,
            med[(f, "implicit")] / fl, med[(f, "warm")] / fl,
            peak[(f, "floor")] / 1024, peak[(f, "warm")] / 1024))
    print()
    print("Median over %d files of the per-file ratio to the floor:" %
          len(files))
    for k in names[1:]:
        rs = [med[(f, k)] / med[(f, "floor")] for f, _, _ in files]
        ms = [peak[(f, k)] / peak[(f, "floor")] for f, _, _ in files]
        print("  %-9s time %.3f (min %.3f, max %.3f)  peak RSS %.3f" % (
            k, statistics.median(rs), min(rs), max(rs), statistics.median(ms)))
    pchs = [os.path.join(warm_dir, p) for p in os.listdir(warm_dir)
            if p.endswith(".pch")]
    sizes = [os.path.getsize(p) for p in pchs]
    print()
    print("precompiled headers in the warm folder: %d for %d files; %.1f MiB "
          "each (median), %.0f MiB in all" % (
              len(pchs), len(files),
              statistics.median(sizes) / 2**20 if sizes else 0,
              sum(sizes) / 2**20))
    cold_extra = [med[(f, "cold")] - med[(f, "implicit")] for f, _, _ in files]
    print("implicit prefix build time (cold - implicit, median): %.2f s" %
          statistics.median(cold_extra))
    whole_runs(args, files, tidy, work)
    shutil.rmtree(work, ignore_errors=True)


def whole_runs(args, files, tidy, work):
    """One driver run over all the files through a compilation database."""
    db_dir = os.path.join(work, "db")
    os.makedirs(db_dir, exist_ok=True)
    entries = [{"directory": cwd, "file": f,
                "arguments": ["clang++", "-x", "cuda"] + inc + ["-c", f]}
               for f, inc, cwd in files]
    with open(os.path.join(db_dir, "compile_commands.json"), "w") as out:
        json.dump(entries, out)
    jobs = str(args.jobs)

    def one(prefix_dir, extra):
        env = dict(os.environ, CUDA_TIDY_PREFIX_DIR=prefix_dir)
        cmd = [tidy, "--quiet", "--no-cache", "-checks=-*,cuda-*", "-j", jobs,
               "-p", db_dir] + extra
        start = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return time.perf_counter() - start

    times = {"noprefix": [], "cold": [], "warm": []}
    for rep in range(max(1, min(args.reps, 3))):
        whole = os.path.join(work, "whole%d" % rep)
        times["noprefix"].append(one(whole, ["--no-prefix-cache"]))
        times["cold"].append(one(whole, []))
        one(whole, [])  # builds the leading includes seen once
        times["warm"].append(one(whole, []))
    base = statistics.median(times["noprefix"])
    print()
    print("Whole runs over the %d files (-p, -j %s), median of %d:" % (
        len(files), jobs, len(times["cold"])))
    for k, v in times.items():
        print("  %-9s %6.2f s  %.3fx" % (k, statistics.median(v),
                                         statistics.median(v) / base))


def cpu_measured(cmd, env=None, cwd=None):
    """Runs cmd; returns (CPU seconds, user and system, of it and its
    children; exit code): on a shared machine CPU time is steadier than
    wall time."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def torch_bench(args):
    """--torch FILE...: PyTorch extension files (torch found as the driver
    finds it: set PYTHONPATH or CUDA_TIDY_PYTHON). Per file, interleaved:
    the floor (clang -fsyntax-only with exactly the command the driver
    prints under --verbose), cold (an empty prefix folder: the implicit
    prefix is built, the file parsed whole), second (the same folder again:
    the file's leading includes, torch's headers, are precompiled in this
    run) and warm (a third run that uses them); result cache off, CPU time
    (user + system) of each process tree."""
    tidy = args.cuda_tidy
    rows = []
    for f in args.torch:
        # The driver prints the command before it parses: read it, then stop.
        proc = subprocess.Popen([tidy, "--verbose", "--no-cache",
                                 "--no-prefix-cache", "--checks=-*,cuda-*", f],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        line = next((l for l in proc.stderr if "' with: " in l), None)
        proc.kill()
        proc.wait()
        if not line:
            print(f"{f}: the driver printed no command")
            continue
        argv = shlex.split(line.split("' with: ", 1)[1])
        floor_cmd = [args.clang, "-fsyntax-only"] + argv[1:]
        for rep in range(args.reps):
            work = tempfile.mkdtemp(prefix="cuda-tidy-torch-bench-")
            env = dict(os.environ, CUDA_TIDY_PREFIX_DIR=work)
            run = [tidy, "--no-cache", "--quiet", "--checks=-*,cuda-*", f]
            floor, rc0 = cpu_measured(floor_cmd)
            cold, rc1 = cpu_measured(run, env)
            second, rc2 = cpu_measured(run, env)
            warm, rc3 = cpu_measured(run, env)
            shutil.rmtree(work, ignore_errors=True)
            rows.append((f, floor, cold, second, warm, (rc0, rc1, rc2, rc3)))
            print(f"{os.path.basename(f)}: floor {floor:.2f} s, cold "
                  f"{cold:.2f} s ({cold / floor:.2f}x), second {second:.2f} s "
                  f"({second / floor:.2f}x), warm {warm:.2f} s "
                  f"({warm / floor:.2f}x); exit codes {rc0} {rc1} {rc2} {rc3}",
                  flush=True)
    if rows:
        med = lambda i: statistics.median(r[i] / r[1] for r in rows)
        print(f"median ratio to the floor: cold {med(2):.2f}x, second "
              f"{med(3):.2f}x, warm {med(4):.2f}x over {len(rows)} runs")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true",
                    help="a few files and 3 reps, to try the harness")
    ap.add_argument("--files", type=int, default=0,
                    help="measure N files spread over the corpus (0: all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--cuda-tidy", default=str(ROOT / "build/bin/cuda-tidy"))
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    ap.add_argument("--prefix", action="store_true",
                    help="measure the precompiled prefix on the corpus")
    ap.add_argument("--corpus-results", default="/work/corpus-results")
    ap.add_argument("--torch", nargs="+", default=[],
                    help="measure these PyTorch extension files (see "
                         "torch_bench)")
    args = ap.parse_args()
    if args.prefix:
        return prefix_bench(args)
    if args.torch:
        return torch_bench(args)
    reps = 3 if args.quick else max(5, args.reps)

    tidy = args.cuda_tidy
    flags = driver_flags(tidy)
    rdir = resource_dir(args.clang)
    include = ["-I" + str(ROOT / "test" / "Inputs")]
    checks = list_checks(tidy)
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                    if os.path.exists("/usr/local/cuda/bin/nvcc")
                                    else None)
    gen_dir = tempfile.mkdtemp(prefix="cuda-tidy-bench-")
    files, generated = corpus(gen_dir, args.quick, args.files)
    all_files = files + generated

    configs = {"floor": lambda f: [args.clang, "-fsyntax-only", "-resource-dir=" + rdir]
               + flags + include + [str(f)]}
    configs["all"] = lambda f: [tidy, "--quiet", "--no-cache", "-checks=-*,cuda-*",
                                str(f), "--"] + include
    for c in checks:
        configs[c] = (lambda c: lambda f: [tidy, "--quiet", "--no-cache",
                                           "-checks=-*," + c, str(f), "--"]
                      + include)(c)
    if nvcc:
        out = os.path.join(gen_dir, "out.o")
        configs["nvcc"] = lambda f: [nvcc, "-c", "-arch=sm_90", "-std=c++17"] + include + [
            str(f), "-o", out]

    times = {(str(f), k): [] for f in all_files for k in configs}
    rss = {(str(f), k): [] for f in all_files for k in configs}
    print("machine: %s, %d cores; %d files (%d generated); %d reps after a "
          "warm-up; configs: %s" % (platform.processor() or platform.machine(),
                                     os.cpu_count(), len(all_files),
                                     len(generated), reps, ", ".join(configs)),
          flush=True)
    for rep in range(reps + 1):
        for f in all_files:
            for k, cmd in configs.items():
                wall, peak, _ = run_measured(cmd(f))
                if rep:
                    times[(str(f), k)].append(wall)
                    rss[(str(f), k)].append(peak)
        print("  rep %d/%d done" % (rep, reps), flush=True)

    med = {key: statistics.median(v) for key, v in times.items()}
    peak = {key: max(v) for key, v in rss.items()}

    def ratio(f, k):
        return med[(str(f), k)] / med[(str(f), "floor")]

    def rss_ratio(f, k):
        return peak[(str(f), k)] / peak[(str(f), "floor")]

    names = [k for k in configs if k != "floor"]
    print()
    print("Per translation unit: median seconds of the floor, and each "
          "configuration's median time over the floor's")
    header = "%-44s %8s " % ("file", "floor s") + " ".join("%10s" % n[5:15] if n.startswith("cuda-") else "%10s" % n for n in names)
    print(header)
    for f in all_files:
        rel = os.path.relpath(f, ROOT) if str(f).startswith(str(ROOT)) else f.name
        print("%-44s %8.3f " % (str(rel)[-44:], med[(str(f), "floor")]) +
              " ".join("%10.3f" % ratio(f, n) for n in names))
    print()
    print("Summary over %d translation units (median of the per-TU ratios):"
          % len(all_files))
    print("%-32s %12s %12s %12s" % ("configuration", "time/floor", "max t/floor",
                                    "RSS/floor"))
    for n in names:
        rs = [ratio(f, n) for f in all_files]
        ms = [rss_ratio(f, n) for f in all_files]
        print("%-32s %12.3f %12.3f %12.3f" % (n, statistics.median(rs), max(rs),
                                              statistics.median(ms)))
    print()
    print("Growth with size (generated files): seconds, and the ratio to the "
          "next smaller size (linear = 4.0 for each 4x step)")
    gens = [g for g in generated if g.name.startswith("gen_")]
    for k in ["floor", "all"]:
        row = [med[(str(g), k)] for g in gens]
        steps = ["%.2f" % (row[i] / row[i - 1]) for i in range(1, len(row))]
        print("  %-6s %s  steps: %s" % (k, "  ".join("%s=%.3fs" % (g.name, t)
                                                     for g, t in zip(gens, row)),
                                       " ".join(steps)))
        if k == "all":
            cost = [med[(str(g), "all")] - med[(str(g), "floor")] for g in gens]
            print("  checks' own cost (all - floor): %s" %
                  "  ".join("%.3fs" % c for c in cost))

    print()
    for jobs in sorted({1, args.jobs}):
        start = time.perf_counter()
        with cf.ThreadPoolExecutor(jobs) as pool:
            list(pool.map(lambda f: run_measured(configs["all"](f)), all_files))
        wall = time.perf_counter() - start
        print("throughput -j%d: %.2f TU/s (%d TUs in %.1fs)" %
              (jobs, len(all_files) / wall, len(all_files), wall))
    # The result cache: every file once into an empty cache, then again.
    cache_dir = os.path.join(gen_dir, "cache")
    cached = lambda: [tidy, "--quiet", "--cache-dir=" + cache_dir,
                      "-checks=-*,cuda-*"] + [str(f) for f in all_files] + ["--"] + include
    cold, _, _ = run_measured(cached())
    warm, _, _ = run_measured(cached())
    print("cache: cold %.2fs, warm %.2fs, warm/cold %.3f (%d files, -j default)"
          % (cold, warm, warm / cold, len(all_files)))
    shutil.rmtree(gen_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
