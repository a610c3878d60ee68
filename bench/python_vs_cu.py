#!/usr/bin/env python3
"""The cost of a .py file with N CuPy kernels against the same kernels in
one .cu file (docs/python.md, "Cost"; target: at most 1.2 times).

Writes both files: N RawKernels of realistic shape (a guarded grid-stride
kernel, a shared-memory reduction, a 2-D stencil, in turn), each launched
once, from Python with a CuPy launch and from C++ with '<<<...>>>'. Times
`cuda-tidy --no-cache` on each, interleaved, --reps times after one warm-up
run of each (which builds the precompiled prefix), and prints the medians
of wall and CPU time (the process and its children: the Python reader is
counted) and their ratios. On a shared machine, CPU time is the steadier. The Python side includes starting Python and the reader.

--python names the interpreter that reads the .py file (the driver's
--python; default: what the driver finds, python3 on PATH). A launcher such
as pyenv's shim costs its own start once per run on top of Python's.

--before PATH times the .py file with a second cuda-tidy too (an install or
a build tree of the version before a change), in the same interleaved
rounds, so that a change is measured under the same load.

usage: bench/python_vs_cu.py [--kernels 20] [--reps 7] [--cuda-tidy PATH]
                             [--python PATH] [--files 1] [--before PATH]
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

KINDS = [
    ('''extern "C" __global__ void {name}(const float *x, float *y, float a, int n) {{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}}''', 'x, y, a, n', '(x, y, cp.float32(2), np.int32(n))'),
    ('''extern "C" __global__ void {name}(const float *in, float *out, int n) {{
    __shared__ float buf[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {{
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }}
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}}''', 'x, y, n', '(x, y, np.int32(n))'),
    ('''extern "C" __global__ void {name}(const float *in, float *out, int w, int h) {{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (c < 1 || r < 1 || c >= w - 1 || r >= h - 1) return;
    out[r * w + c] = 0.25f * (in[(r - 1) * w + c] + in[(r + 1) * w + c] +
                              in[r * w + c - 1] + in[r * w + c + 1]);
}}''', 'x, y, n, n', '(x, y, np.int32(n), np.int32(n))'),
]


def write(dir_, n):
    py = ['import cupy as cp', 'import numpy as np', '']
    cu = ['#include <cuda_runtime.h>', '']
    launches_py, launches_cu = [], []
    for k in range(n):
        src, cargs, pargs = KINDS[k % len(KINDS)]
        name = 'k%d' % k
        text = src.format(name=name)
        py += ['K%d = cp.RawKernel(r\'\'\'' % k, text, "''', '%s')" % name, '']
        cu += [text, '']
        launches_py.append('    K%d(((n + 255) // 256,), (256,), %s)' % (k, pargs))
        launches_cu.append('  %s<<<(n + 255) / 256, 256>>>(%s);' % (name, cargs))
        launches_cu.append('  if (cudaGetLastError() != cudaSuccess) return;')
    py += ['', 'def run(n):', '    x = cp.ones(n, dtype=cp.float32)',
           '    y = cp.zeros(n, dtype=cp.float32)'] + launches_py + ['']
    cu += ['void run(const float *x, float *y, float a, int n) {'] + \
        launches_cu + ['}', '']
    p = os.path.join(dir_, 'kernels.py')
    c = os.path.join(dir_, 'kernels.cu')
    open(p, 'w').write('\n'.join(py))
    open(c, 'w').write('\n'.join(cu).replace('extern "C" ', ''))
    return p, c


def timed(cmd):
    """Wall seconds, CPU seconds (the process and its children, the Python
    reader included), and the result."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kernels', type=int, default=20)
    ap.add_argument('--reps', type=int, default=7)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument('--cuda-tidy', default=os.path.join(here, 'build', 'bin', 'cuda-tidy'))
    ap.add_argument('--python', help="the driver's --python")
    ap.add_argument('--files', type=int, default=1,
                    help='files of each kind in one run (-j1): the reader is started once a run')
    ap.add_argument('--before', help='a second cuda-tidy to time on the .py files')
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        pys, cus = [], []
        for f in range(opts.files):
            sub = os.path.join(d, 'f%d' % f)
            os.mkdir(sub)
            py, cu = write(sub, opts.kernels)
            pys.append(py)
            cus.append(cu)
        base = [opts.cuda_tidy, '--no-cache', '--quiet']
        py_base = base + (['--python=' + opts.python] if opts.python else [])
        runs = [('py', py_base, pys), ('cu', base, cus)]
        if opts.before:
            runs.append(('py before', [opts.before] + py_base[1:], pys))
        times = {key: [] for key, _, _ in runs}
        cpu = {key: [] for key, _, _ in runs}
        findings = {}
        for rep in range(opts.reps + 1):
            for key, cmd, paths in runs:
                t, c, r = timed(cmd + ['-j1'] + paths + (['--'] if key == 'cu' else []))
                if r.returncode not in (0, 1):
                    print(r.stdout)
                    sys.exit('cuda-tidy failed on %s' % paths[0])
                findings[key] = r.stdout.count('warning:')
                if rep:
                    times[key].append(t)
                    cpu[key].append(c)
        med = {k: (statistics.median(times[k]), statistics.median(cpu[k])) for k in times}
        print('%d file(s) of %d kernels, median of %d runs (--no-cache, warm prefix):' % (
            opts.files, opts.kernels, opts.reps))
        for k in times:
            q = sorted(cpu[k])
            print('  .%-10s wall %.3f s  cpu %.3f s (quartiles %.3f..%.3f)  (%d findings)' % (
                k, med[k][0], med[k][1], q[len(q) // 4], q[(3 * len(q)) // 4], findings[k]))
        for k in times:
            if k != 'cu':
                print('  ratio .%s / .cu = %.2f wall, %.2f cpu (target <= 1.2)' % (
                    k, med[k][0] / med['cu'][0], med[k][1] / med['cu'][1]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
