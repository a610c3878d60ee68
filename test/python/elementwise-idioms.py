# Idioms of real ElementwiseKernel and ReductionKernel code (cupyx, chainer)
# that CuPy's generated kernel accepts: each compiles in the wrapper and is
# analysed, and a finding in one is at its Python line and column
# (docs/python.md, "How the kernels are compiled").
# CuPy's headers are absent: the suite's Python has no packages
# (CUDA_TIDY_PYTHON, test/lit.cfg.py), whatever python3 has installed.
# RUN: %cuda-tidy --no-cache --quiet --verbose %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not='kernel source skipped'
import cupy as cp

# A placeholder whose values index an array (generic: the kernel is a
# template over S and T); a raw array indexed by an index list.
getitem = cp.ElementwiseKernel(
    'S t, raw T x',
    'T y',
    'int ind[] = {i, t}; y = x[ind];',
    'getitem_fwd')

# loop_prep, after_loop, identity and post_map_expr name scalar arguments,
# which CuPy passes by value to the whole kernel.
gauss = cp.ElementwiseKernel(
    'T x, int32 n',
    'T output',
    'output = exp(-(x * x) * r_signsq);',
    'gauss',
    loop_prep='const double signsq { (n + 1) / 12.0 }; '
              'const double r_signsq { 0.5 / signsq };')

numerical_grad = cp.ReductionKernel(
    'T y1, T y2, U gy, T eps', 'V gxi',
    '(y1 - y2) * gy', 'a + b', 'gxi += a / (eps * 2)', '0',
    'numerical_grad')

# _j, the position of the element in the input; an identity naming a scalar.
first_nonzero = cp.ReductionKernel(
    'T data, int64 len', 'int64 y',
    'data == T(0) ? len : _j', 'min(a, b)', 'y = a', 'len',
    'first_nonzero')

# The indexer's multi-dimensional index and a raw scalar in arithmetic.
triu = cp.ElementwiseKernel(
    'int64 k, raw int32 size', 'S x',
    'x = (_ind.get()[_ind.ndim - 1] - _ind.get()[_ind.ndim - 2] >= k && size - 1 > 0) ? x : 0',
    'triu')

# Addresses kept in an integer array and cast back to pointers.
gather = cp.ElementwiseKernel(
    'raw T ptrs, raw int32 sizes', 'raw float32 dst',
    'float *src = reinterpret_cast<float *>(ptrs[0]); dst[i] = i < sizes[0] ? src[i] : 0;',
    'gather')

# A barrier under a branch on the element's value, in a kernel whose
# loop_prep names a scalar: reported in the operation's string.
clamp_sync = cp.ElementwiseKernel(
    'float32 x, int32 n', 'float32 y',
    'if (x > limit) __syncthreads(); y = x;',
    'clamp_sync',
    loop_prep='const float limit = n * 0.5f;')
# CHECK-DAG: elementwise-idioms.py:[[@LINE-3]]:21: warning: barrier '__syncthreads' is not reached by every thread of the block{{.*}}[cuda-divergent-syncthreads]

# A placeholder used as a complex number: analysed as a template, silent.
phase = cp.ElementwiseKernel(
    'T t', 'Y phase', 'phase = Y(cos(t), sin(t));', 'phase')

# thrust's types: CuPy's headers give them; skipped, with the reason.
morlet = cp.ElementwiseKernel(
    'float64 w', 'complex128 out',
    'thrust::complex<double> z(0, w); out = z;', 'morlet')
# CHECK-DAG: elementwise-idioms.py:[[@LINE-3]]:10: kernel source skipped: thrust:: names come from CuPy's headers, which are not installed for this Python (--cupy-include names them)
# CHECK: exit=1
