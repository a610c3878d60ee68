# An array that the launching function receives from its caller and never
# makes contiguous, passed to a raw kernel that indexes the parameter
# densely: a transposed or sliced array is read in memory order. Reported
# only where the kernel's index has a thread-derived term of stride one
# (analysis/DenseIndexing.h; cuda-tensor-contiguity); idiomatic CuPy code that converts, checks or
# creates its arrays, ElementwiseKernel arguments (strided, raw ones too)
# and kernels that take strides are not reported.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-tensor-contiguity' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import cupy as cp
import numpy as np

_SQUARE = cp.RawKernel(r'''
extern "C" __global__ void square(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
''', 'square')

_MOD = cp.RawModule(code=r'''
extern "C" __global__ void row_sum(const double *m, double *out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    double s = 0;
    for (int c = 0; c < cols; ++c) s += m[r * cols + c];
    out[r] = s;
}
extern "C" __global__ void axpy_strided(const float *x, float *y, int n, int incx, int incy) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i * incy] += x[i * incx];
}
extern "C" __global__ void first(const float *x, float *y) {
    y[0] = x[0];
}
''')


def square(x):
    y = cp.empty_like(x)
    n = x.size
    _SQUARE(((n + 127) // 128,), (128,), (x, y, np.int32(n)))
    # CHECK: contiguity-received.py:[[@LINE-1]]:43: warning: array 'x', which 'square' receives and never makes contiguous, reaches parameter 'x' of kernel 'square', which indexes it densely: a sliced or transposed array from the caller is read in memory order, ignoring its strides; pass cp.ascontiguousarray(x) [cuda-tensor-contiguity]
    # CHECK-NEXT: _SQUARE(
    # CHECK: contiguity-received.py:[[@LINE-6]]:12: note: 'x' is a parameter of 'square'
    # CHECK: contiguity-received.py:16:23: note: 'x' is indexed densely here
    return y


def row_sums(m):
    rows, cols = m.shape
    out = cp.empty(rows, dtype=cp.float64)
    f = _MOD.get_function('row_sum')
    f(((rows + 127) // 128,), (128,), (m.data.ptr, out, np.int32(rows), np.int32(cols)))
    # CHECK: contiguity-received.py:[[@LINE-1]]:40: warning: the pointer of array 'm', which 'row_sums' receives and never makes contiguous, reaches parameter 'm' of kernel 'row_sum'
    # CHECK: contiguity-received.py:[[@LINE-6]]:14: note: 'm' is a parameter of 'row_sums'
    # CHECK: contiguity-received.py:25:41: note: 'm' is indexed densely here
    return out


# Idiomatic correct code: not reported.

def square_contiguous(x):
    x = cp.ascontiguousarray(x)
    y = cp.empty_like(x)
    _SQUARE(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
    return y


def square_checked(x):
    if not x.flags.c_contiguous:
        raise ValueError('x must be C-contiguous')
    y = cp.empty_like(x)
    _SQUARE(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
    return y


def square_asserted(x):
    assert x.flags['C_CONTIGUOUS']
    y = cp.empty_like(x)
    _SQUARE(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
    return y


def _check_input(a):
    if not a.flags.c_contiguous:
        raise ValueError('not contiguous')


def square_validated(x):
    _check_input(x)
    y = cp.empty_like(x)
    _SQUARE(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
    return y


def square_branch(x):
    if not x.flags.c_contiguous:
        x = x.copy()
    y = cp.empty_like(x)
    _SQUARE(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
    return y


def square_copy(x):
    xc = x.copy()
    y = cp.empty_like(xc)
    _SQUARE(((x.size + 127) // 128,), (128,), (xc, y, np.int32(x.size)))
    return y


def axpy(x, y, incx, incy, n):
    # The kernel takes strides of its own: not dense.
    f = _MOD.get_function('axpy_strided')
    f(((n + 127) // 128,), (128,), (x, y, np.int32(n), np.int32(incx), np.int32(incy)))


def first(x, y):
    # Only element 0 is read: no dense index.
    _MOD.get_function('first')((1,), (1,), (x, y))


def _square_private(x):
    # Private, no caller here: its callers are elsewhere in the package.
    y = cp.empty_like(x)
    _SQUARE(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
    return y


def _square_local_callers(x):
    # Its callers in this file pass arrays they make: contiguous.
    y = cp.empty_like(x)
    _SQUARE(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
    return y


def squares(n):
    a = cp.arange(n, dtype=cp.float32)
    return _square_local_callers(a) + _square_local_callers(cp.ones(n, dtype=cp.float32))


def _square_impl(x):
    y = cp.empty_like(x)
    _SQUARE(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
    # CHECK: contiguity-received.py:[[@LINE-1]]:48: warning: array 'v', which 'square_public' receives and never makes contiguous, reaches parameter 'x' of kernel 'square'
    # CHECK: contiguity-received.py:[[@LINE+5]]:19: note: 'v' is a parameter of 'square_public'
    # CHECK: contiguity-received.py:16:23: note: 'x' is indexed densely here
    return y


def square_public(v):
    # Its private helper launches the kernel with the array it is given.
    return _square_impl(v)


def square_rows(m):
    # The kernel is given the row stride the array has: not reported.
    f = _MOD.get_function('axpy_strided')
    f((1,), (128,), (m, m, np.int32(m.shape[0]), np.int32(m.strides[0] // 4), np.int32(1)))


class Squarer:
    def __call__(self, x):
        # A method of a public class that the file never calls: its
        # callers are the package's users (test/python/kernels-on-objects.py).
        y = cp.empty_like(x)
        _SQUARE(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
        # CHECK: contiguity-received.py:[[@LINE-1]]:52: warning: array 'x', which 'Squarer.__call__' receives and never makes contiguous, reaches parameter 'x' of kernel 'square'
        # CHECK: contiguity-received.py:[[@LINE-6]]:24: note: 'x' is a parameter of 'Squarer.__call__'
        # CHECK: contiguity-received.py:16:23: note: 'x' is indexed densely here
        return y


_ADD = cp.ElementwiseKernel('T x, raw T y', 'T z', 'z = x + y[i]', 'add_raw')


def add(x, y):
    # ElementwiseKernel arguments carry their strides (a raw one is a CArray
    # whose y[i] follows them): never reported.
    return _ADD(x, y, size=x.size)
# CHECK: exit=1
