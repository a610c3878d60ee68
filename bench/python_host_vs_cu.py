#!/usr/bin/env python3
"""The cost of a Python host file (ctypes into libcudart) against the same
host code written as a .cu file (docs/python-host.md, "Cost"; target: at
most 1.2 times).

Writes both files: N functions of realistic host code (allocate a device
buffer and a numpy array, copy in, copy out, an asynchronous copy on a
stream and its synchronization, free in finally, every status checked),
from Python through a ctypes handle and from C++ with the same calls. Times
`cuda-tidy --no-cache -j1` on each, interleaved, --reps times after a
warm-up run of each, and prints the medians of wall and CPU time (the
process and its children: the Python reader is counted) and their ratio,
side by side. Both files have no finding.

usage: bench/python_host_vs_cu.py [--functions 20] [--reps 7] [--cuda-tidy PATH]
                                  [--python PATH] [--before PATH]

--before PATH: also time another cuda-tidy (a copy of an earlier build, with
its share/cuda-tidy/python beside it: cp build/bin/cuda-tidy X/bin/ and
cp -r build/share/cuda-tidy X/share/) on the .py file, in the same
interleaved runs, and print its ratio too.
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--functions', type=int, default=20)
    ap.add_argument('--reps', type=int, default=7)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument('--cuda-tidy', default=os.path.join(here, 'build', 'bin', 'cuda-tidy'))
    ap.add_argument('--python', help="the driver's --python")
    ap.add_argument('--before', help='an earlier cuda-tidy, timed on the .py file too')
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        py, cu = write(d, opts.functions)
        base = [opts.cuda_tidy, '--no-cache', '--quiet', '-j1']
        runs = [('py', base + (['--python=' + opts.python] if opts.python else []) + [py]),
                ('cu', base + [cu, '--'])]
        if opts.before:
            runs.insert(0, ('before', [opts.before] + base[1:] +
                            (['--python=' + opts.python] if opts.python else []) + [py]))
        wall = {k: [] for k, _ in runs}
        cpu = {k: [] for k, _ in runs}
        findings = {}
        for rep in range(opts.reps + 1):
            for key, cmd in runs:
                t, c, r = timed(cmd)
                if r.returncode not in (0, 1):
                    print(r.stdout)
                    sys.exit('cuda-tidy failed on the .%s file' % key)
                findings[key] = r.stdout.count('warning:')
                if rep:
                    wall[key].append(t)
                    cpu[key].append(c)
        med = {k: (statistics.median(wall[k]), statistics.median(cpu[k])) for k in wall}
        print('%d host functions, median of %d runs (--no-cache, warm prefix):' % (
            opts.functions, opts.reps))
        for k in [key for key, _ in runs]:
            q = sorted(cpu[k])
            print('  %-7s wall %.3f s  cpu %.3f s (quartiles %.3f..%.3f)  (%d findings)' % (
                ('.' + k if k != 'before' else 'before'), med[k][0], med[k][1], q[len(q) // 4], q[(3 * len(q)) // 4], findings[k]))
        if opts.before:
            print('  ratio before / .cu = %.2f wall, %.2f cpu' % (
                med['before'][0] / med['cu'][0], med['before'][1] / med['cu'][1]))
        print('  ratio .py / .cu = %.2f wall, %.2f cpu (target <= 1.2)' % (
            med['py'][0] / med['cu'][0], med['py'][1] / med['cu'][1]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
