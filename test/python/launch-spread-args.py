# Launch arguments spread from a tuple or list that the function binds
# once (docs/python.md, "Launches"): CuPy `k(grid, block, (*common, n))`
# and PyCUDA `f(*args, block=..., grid=...)` get the same argument facts as
# arguments written out; a finding is reported at the element of the
# tuple. A spread of a value the file does not hold is not followed.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import cupy
import numpy
import pycuda.autoinit  # noqa: F401
import pycuda.gpuarray as gpuarray
from pycuda.compiler import SourceModule

_SRC = r'''
extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
'''
_AXPY = cupy.RawKernel(_SRC, 'axpy')
_PC = SourceModule(r'''
__global__ void twice(float *a, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= s;
}
''')
_TWICE = _PC.get_function('twice')


def spread_cupy(n):
    x = cupy.ones(n, dtype=cupy.float32)
    y = cupy.zeros(n, dtype=cupy.float64)
    common = (cupy.float32(2.0), x, y)
    # CHECK: launch-spread-args.py:[[@LINE-1]]:37: warning: float64 array passed to pointer parameter 'y' of type 'float *' of 'axpy'{{.*}} [cuda-kernel-arguments]
    # CHECK: launch-spread-args.py:15:65: note: parameter 'y' of type 'float *' of 'axpy' declared here
    _AXPY(((n + 255) // 256,), (256,), (*common, n))


def spread_pycuda(n):
    a = gpuarray.zeros(n, dtype=numpy.float32)
    args = [a, 2.0, numpy.int32(n)]
    # CHECK: launch-spread-args.py:[[@LINE-1]]:16: warning: Python float passed to parameter 's' of type 'float' of 'twice'{{.*}} [cuda-kernel-arguments]
    # CHECK: launch-spread-args.py:22:39: note: parameter 's' of type 'float' of 'twice' declared here
    _TWICE(*args, block=(256, 1, 1), grid=((n + 255) // 256, 1))


# Negatives: idiomatic correct code, and spreads the reader does not hold.


def spread_right(n):
    x = cupy.ones(n, dtype=cupy.float32)
    y = cupy.zeros(n, dtype=cupy.float32)
    common = (cupy.float32(2.0), x, y)
    _AXPY(((n + 255) // 256,), (256,), (*common, cupy.int32(n)))
    a = gpuarray.zeros(n, dtype=numpy.float32)
    args = (a, numpy.float32(2.0), numpy.int32(n))
    _TWICE(*args, block=(256, 1, 1), grid=((n + 255) // 256, 1))


def spread_unknown(n, extra):
    a = gpuarray.zeros(n, dtype=numpy.float32)
    _TWICE(a, *extra, block=(256, 1, 1), grid=((n + 255) // 256, 1))
    y = cupy.zeros(n, dtype=cupy.float32)
    _AXPY(((n + 255) // 256,), (256,), (*extra, y, n))

# CHECK: exit=1
