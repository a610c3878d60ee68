# Generic ElementwiseKernel and ReductionKernel code (`T x`): CuPy compiles
# one kernel per dtype it is called with, so the kernel is written as a
# template over its placeholders and never given a type the file does not
# prove. A fact that does not depend on the placeholder is reported at its
# Python line and column; code whose meaning depends on it (integer-only
# operators, complex constructors, calls CuPy's dtype resolves) stays
# silent (docs/python.md, "How the kernels are compiled").
# CuPy's headers are absent: the suite's Python has no packages
# (CUDA_TIDY_PYTHON, test/lit.cfg.py), whatever python3 has installed.
# RUN: %cuda-tidy --no-cache --quiet --verbose %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not='kernel source skipped'
import cupy as cp

# Integer-only operators on the placeholder: an integer kernel, whatever
# integer dtype the caller passes. A barrier under a branch on the element
# index is divergent for every T.
xor_sync = cp.ElementwiseKernel(
    'T x, T mask', 'T y',
    'y = x ^ mask; if (i < 32) __syncthreads();',
    'xor_sync')
# CHECK-DAG: elementwise-generic.py:[[@LINE-2]]:32: warning: barrier '__syncthreads' is not reached by every thread of the block{{.*}}[cuda-divergent-syncthreads]

# A placeholder built from two values (a complex dtype), in a reduction
# over a raw array with shared memory written and read by other threads
# without a barrier: the race does not depend on T.
phase_sum = cp.ReductionKernel(
    'T t, raw T table', 'Y out',
    'Y(cos(t), sin(t))', 'a + b', 'out = a', 'Y(0, 0)',
    'phase_sum',
    preamble='__device__ float scratch_sum(const float *v) { return v[0]; }',
    loop_prep='__shared__ float tile[257]; tile[threadIdx.x] = 1.0f; '
              'float first = tile[threadIdx.x + 1]; (void)first;')
# CHECK-DAG: elementwise-generic.py:[[@LINE-1]]:30: warning: read of shared 'tile' at 'threadIdx.x + 1' may see the write of another thread{{.*}}[cuda-missing-syncthreads]

# Idiomatic generic kernels of cupy and chainer: nothing to report.
bit_and = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x & y', 'bit_and')
shift = cp.ElementwiseKernel('T x, int32 s', 'T z', 'z = (x << s) | (x >> (32 - s))', 'shift')
fmod = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x % y', 'fmod_generic')
cplx = cp.ElementwiseKernel('T re, T im', 'C z', 'z = C(re, im)', 'make_complex')
conj = cp.ElementwiseKernel('T z', 'T w', 'w = conj(z); T r = real(w); (void)r;', 'conj_generic')
take = cp.ElementwiseKernel(
    'raw T table, S idx', 'T out', 'out = table[idx]', 'take_generic')
argmax = cp.ReductionKernel(
    'T x', 'int64 y', 'x', 'max(a, b)', 'y = a', 'T(-1)', 'argmax_generic',
    reduce_type='T')

# A preamble that names the placeholder: CuPy writes it after the typedef
# of T, which a call gives. A function that takes T becomes a template
# over it (analysed); one that names T only in its result cannot be
# called without it: skipped, with the reason. A local variable named like
# a placeholder is not a use of it.
with_helper = cp.ElementwiseKernel(
    'T x', 'T y', 'y = twice(x) + count(3)', 'with_helper',
    preamble='''
__device__ T twice(T v) { return v + v; }
__device__ int count(int n) { int T = n; return T + 1; }
''')
result_only = cp.ElementwiseKernel(
    'T x', 'T y', 'y = x + zero()', 'result_only',
    preamble='__device__ T zero() { return T(0); }')
# CHECK-DAG: elementwise-generic.py:[[@LINE-3]]:15: kernel source skipped: a function of the preamble uses generic type 'T' only in its result or body, which CuPy chooses at each call

# A narrowing conversion in braces, which NVRTC only warns about
# (cusignal's minimum-phase window): analysed, no error.
min_phase = cp.ElementwiseKernel(
    'T ceps', 'T window', 'window = odd ? ceps : ceps * 2', 'min_phase',
    loop_prep='const bool odd { _ind.size() & 1 };')

# CuPy's own type traits, which its headers give every generated kernel:
# skipped, as thrust:: is.
connect = cp.ElementwiseKernel(
    'raw int32 dirs', 'raw Y y',
    'using atomic_t = typename cupy::type_traits::make_unsigned<Y>::type; '
    'atomicCAS((atomic_t *)&y[i], (atomic_t)0, (atomic_t)dirs[0]);',
    'connect')
# CHECK-DAG: elementwise-generic.py:[[@LINE-5]]:11: kernel source skipped: cupy:: names come from CuPy's headers, which are not installed for this Python (--cupy-include names them)
# CHECK: exit=1
