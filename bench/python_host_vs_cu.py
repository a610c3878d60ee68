#!/usr/bin/env python3
"""The cost of a Python host file (ctypes into libcudart) against the same
host code written as a .cu file (docs/python-host.md, "Cost"; target: at
most 1.2 times).

Writes both files: N functions of realistic host code (allocate a device
buffer and a numpy array, copy in, copy out, an asynchronous copy on a
stream and its synchronization, free in finally, every status checked),
from Python through a ctypes handle and from C++ with the same calls. Times
`cuda-tidy --no-cache -j1` on each, interleaved, --reps times after two
warm-up runs of each (the precompiled prefix is built when its key is seen
the second time; the bench's runs share a prefix cache of their own,
CUDA_TIDY_PREFIX_DIR in its temporary folder), and prints the medians of
wall and CPU time (the process and its children: the Python reader is
counted) and their ratio, side by side. Both files have no finding.

usage: bench/python_host_vs_cu.py [--functions 20[,50...]] [--reps 7] [--cuda-tidy PATH]
                                  [--python PATH] [--before PATH] [--plain]

--functions takes a comma-separated list: each size is timed in turn and
a table of all of them ends the output.

--instructions: instead of timing, count the instructions of one run of
each command and of every process it starts (valgrind --tool=callgrind
--trace-children=yes, summed): the same on an idle and on a loaded
machine, where CPU time under load is not.

--plain: also time a .py file of the same size with no CUDA in it (numpy
code only, no binding named) against an empty .py file: the driver does
not start the Python reader for it, so the difference is what reading it
costs.

--before PATH: also time another cuda-tidy (a copy of an earlier build, with
its share/cuda-tidy/python beside it: cp build/bin/cuda-tidy X/bin/ and
cp -r build/share/cuda-tidy X/share/) on the .py file, in the same
interleaved runs, and print its ratio too. It runs with a prefix cache of
its own (CUDA_TIDY_PREFIX_DIR): sharing the user's, the two builds rebuilt
the unit's prefix at every alternation (2026-12-07).
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_vs_cu import timed  # noqa: E402

PY_HEAD = '''import ctypes

import numpy as np

cudart = ctypes.CDLL("libcudart.so")
cudaMemcpyHostToDevice = 1
cudaMemcpyDeviceToHost = 2


def check(err):
    if err != 0:
        raise RuntimeError("CUDA error %d" % err)
'''

PY_FUNC = '''

def step{k}(n):
    d = ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(d), n * 4))
    try:
        host = np.arange(n, dtype=np.float32)
        out = np.empty(n, dtype=np.float32)
        check(cudart.cudaMemcpy(d, host.ctypes.data, n * 4, cudaMemcpyHostToDevice))
        stream = ctypes.c_void_p()
        check(cudart.cudaStreamCreate(ctypes.byref(stream)))
        check(cudart.cudaMemcpyAsync(out.ctypes.data, d, n * 4, cudaMemcpyDeviceToHost, stream))
        check(cudart.cudaStreamSynchronize(stream))
        check(cudart.cudaStreamDestroy(stream))
        total = 0.0
        for i in range(n):
            total += out[i]
    finally:
        check(cudart.cudaFree(d))
    return total
'''

CU_HEAD = '''#include <cuda_runtime.h>
#include <stdlib.h>

static void check(cudaError_t err) {
  if (err != cudaSuccess)
    abort();
}
'''

CU_FUNC = '''
double step{k}(long long n) {{
  void *d = nullptr;
  check(cudaMalloc(&d, n * 4));
  float *host = (float *)malloc(n * sizeof(float));
  float *out = (float *)malloc(n * sizeof(float));
  check(cudaMemcpy(d, host, n * 4, cudaMemcpyHostToDevice));
  cudaStream_t stream;
  check(cudaStreamCreate(&stream));
  check(cudaMemcpyAsync(out, d, n * 4, cudaMemcpyDeviceToHost, stream));
  check(cudaStreamSynchronize(stream));
  check(cudaStreamDestroy(stream));
  double total = 0.0;
  for (long long i = 0; i < n; ++i)
    total += out[i];
  check(cudaFree(d));
  free(host);
  free(out);
  return total;
}}
'''


def write(dir_, n):
    p = os.path.join(dir_, 'host.py')
    c = os.path.join(dir_, 'host.cu')
    open(p, 'w').write(PY_HEAD + ''.join(PY_FUNC.format(k=k) for k in range(n)))
    open(c, 'w').write(CU_HEAD + ''.join(CU_FUNC.format(k=k) for k in range(n)))
    return p, c


PLAIN_FUNC = '''

def plain{k}(n):
    host = np.arange(n, dtype=np.float32)
    out = np.empty(n, dtype=np.float32)
    total = 0.0
    for i in range(n):
        out[i] = host[i] * 2
        total += out[i]
    return total
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--functions', default='20')
    ap.add_argument('--reps', type=int, default=7)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument('--cuda-tidy', default=os.path.join(here, 'build', 'bin', 'cuda-tidy'))
    ap.add_argument('--python', help="the driver's --python")
    ap.add_argument('--before', help='an earlier cuda-tidy, timed on the .py file too')
    ap.add_argument('--plain', action='store_true', help='also time a .py file with no CUDA')
    ap.add_argument('--instructions', action='store_true',
                    help='count instructions under callgrind instead of timing')
    opts = ap.parse_args()
    table = []
    for n in [int(x) for x in opts.functions.split(',')]:
        table.append(measure(opts, n))
    if len(table) > 1:
        unit = 'instr' if opts.instructions else 'cpu'
        print('functions  %s' % '  '.join('%-16s' % h for h in
                                        (['before/.cu ' + unit] if opts.before else []) +
                                        ['.py/.cu ' + unit, '.py/.cu wall'] +
                                        (['plain-empty ' + unit] if opts.plain else [])))
        for n, row in table:
            print('%9d  %s' % (n, '  '.join('%-16s' % c for c in row)))
    return 0


def instructions(cmd, d):
    """Instructions of cmd and every process it starts (callgrind), and
    its output."""
    import glob
    import subprocess
    out = os.path.join(d, 'cg')
    os.makedirs(out, exist_ok=True)
    for f in glob.glob(os.path.join(out, '*')):
        os.unlink(f)
    r = subprocess.run(['valgrind', '--tool=callgrind', '--trace-children=yes',
                        '--callgrind-out-file=' + os.path.join(out, 'cg.%p')] + cmd,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    total, by = 0, {}
    for f in glob.glob(os.path.join(out, 'cg.*')):
        name, n = '?', 0
        for line in open(f, errors='replace'):
            if line.startswith('cmd:'):
                parts = line.split()
                name = os.path.basename(parts[1]) if len(parts) > 1 else '?'
            elif line.startswith('summary:'):
                n = int(line.split()[1])
        total += n
        by[name] = by.get(name, 0) + n
    return total, by, r


def count(opts, functions, runs, d):
    print('%d host functions, instructions of one run (--no-cache, warm prefix, '
          'every process it starts):' % functions)
    for key, cmd in runs:
        # two runs outside valgrind warm the prefix (built when its key is
        # seen the second time) and the bytecode
        timed(cmd)
        timed(cmd)
    got = {}
    for key, cmd in runs:
        total, by, r = instructions(cmd, d)
        if r.returncode not in (0, 1):
            print(r.stdout)
            sys.exit('cuda-tidy failed on the .%s file' % key)
        got[key] = total
        print('  %-7s %7.1f M  (%s)' % ('.' + key if key != 'before' else 'before', total / 1e6,
                                       ', '.join('%s %.1f M' % (k, v / 1e6) for k, v in
                                                 sorted(by.items(), key=lambda x: -x[1]))))
    row = []
    if opts.before:
        print('  ratio before / .cu = %.2f' % (got['before'] / got['cu']))
        row.append('%.2f' % (got['before'] / got['cu']))
    print('  ratio .py / .cu = %.2f instructions (target <= 1.2)' % (got['py'] / got['cu']))
    row += ['%.2f' % (got['py'] / got['cu']), '-']
    if opts.plain:
        extra = (got['plain'] - got['empty']) / 1e6
        print('  a .py file with no CUDA: %+.1f M instructions beyond an empty one' % extra)
        row.append('%+.1f M' % extra)
    return functions, row


def measure(opts, functions):
    with tempfile.TemporaryDirectory() as d:
        # a prefix cache of the bench's own: in the user's, other runs of
        # the machine (other checkouts, other builds) evict the bench's
        # prefixes between its runs (2026-12-07: a .cu run measured 3,503 M
        # instructions, a prefix rebuild, against 572 M warm)
        os.environ['CUDA_TIDY_PREFIX_DIR'] = os.path.join(d, 'prefix')
        py, cu = write(d, functions)
        base = [opts.cuda_tidy, '--no-cache', '--quiet', '-j1']
        runs = [('py', base + (['--python=' + opts.python] if opts.python else []) + [py]),
                ('cu', base + [cu, '--'])]
        if opts.before:
            # its own prefix cache: two builds sharing the user's would
            # rebuild the unit's prefix at every alternation
            runs.insert(0, ('before', ['env', 'CUDA_TIDY_PREFIX_DIR=' + os.path.join(d, 'prefix-before'),
                                       opts.before] + base[1:] +
                            (['--python=' + opts.python] if opts.python else []) + [py]))
        if opts.plain:
            plain = os.path.join(d, 'plain.py')
            empty = os.path.join(d, 'empty.py')
            open(plain, 'w').write('import numpy as np\n' + ''.join(
                PLAIN_FUNC.format(k=k) for k in range(functions)))
            open(empty, 'w').write('')
            runs += [('plain', base + [plain]), ('empty', base + [empty])]
        if opts.instructions:
            return count(opts, functions, runs, d)
        wall = {k: [] for k, _ in runs}
        cpu = {k: [] for k, _ in runs}
        findings = {}
        # two warm-up runs of each: the prefix is built when its key is
        # seen the second time
        for rep in range(opts.reps + 2):
            for key, cmd in runs:
                t, c, r = timed(cmd)
                if r.returncode not in (0, 1):
                    print(r.stdout)
                    sys.exit('cuda-tidy failed on the .%s file' % key)
                findings[key] = r.stdout.count('warning:')
                if rep >= 2:
                    wall[key].append(t)
                    cpu[key].append(c)
        med = {k: (statistics.median(wall[k]), statistics.median(cpu[k])) for k in wall}
        print('%d host functions, median of %d runs (--no-cache, warm prefix):' % (
            functions, opts.reps))
        for k in [key for key, _ in runs]:
            q = sorted(cpu[k])
            print('  %-7s wall %.3f s  cpu %.3f s (quartiles %.3f..%.3f)  (%d findings)' % (
                ('.' + k if k != 'before' else 'before'), med[k][0], med[k][1], q[len(q) // 4], q[(3 * len(q)) // 4], findings[k]))
        if opts.before:
            print('  ratio before / .cu = %.2f wall, %.2f cpu' % (
                med['before'][0] / med['cu'][0], med['before'][1] / med['cu'][1]))
        print('  ratio .py / .cu = %.2f wall, %.2f cpu (target <= 1.2)' % (
            med['py'][0] / med['cu'][0], med['py'][1] / med['cu'][1]))
        row = []
        if opts.before:
            row.append('%.2f' % (med['before'][1] / med['cu'][1]))
        row += ['%.2f' % (med['py'][1] / med['cu'][1]), '%.2f' % (med['py'][0] / med['cu'][0])]
        if opts.plain:
            extra = (med['plain'][1] - med['empty'][1]) * 1e3
            print('  a .py file with no CUDA costs %.1f ms of CPU more than an empty one' % extra)
            row.append('%+.1f ms' % extra)
        return functions, row


if __name__ == '__main__':
    sys.exit(main())
