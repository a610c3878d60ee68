# Kernels that CuPy code keeps on objects and in cached factories, and
# arrays that methods receive: a kernel stored on self or in a class
# attribute (`self._kernel(...)`), one instantiation of a template kernel
# (`get_function('scale<float>')`), factories cached with lru_cache or
# cupy.memoize, methods and nested functions that return arrays. The
# dtype rule (cuda-kernel-arguments) and the received-array rule
# (cuda-tensor-contiguity) hold there as they do for module-level code;
# where the file does not say which kernel or which caller, nothing is
# reported.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments,cuda-tensor-contiguity' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import functools

import cupy as cp
import numpy as np

_SRC = r'''
extern "C" __global__ void square(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
template <typename T>
__global__ void scale(const T *x, T *y, T a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
struct pair2 { float a, b; };
'''


class Squarer:
    _kernel = cp.RawKernel(_SRC, 'square')

    def __call__(self, x):
        y = cp.empty_like(x)
        self._kernel(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
        # CHECK: kernels-on-objects.py:[[@LINE-1]]:57: warning: array 'x', which 'Squarer.__call__' receives and never makes contiguous, reaches parameter 'x' of kernel 'square', which indexes it densely: a sliced or transposed array from the caller is read in memory order, ignoring its strides; pass cp.ascontiguousarray(x) [cuda-tensor-contiguity]
        # CHECK: kernels-on-objects.py:[[@LINE-4]]:24: note: 'x' is a parameter of 'Squarer.__call__'
        # CHECK: kernels-on-objects.py:20:23: note: 'x' is indexed densely here
        return y

    def halves(self, n):
        x = cp.ones(n, dtype=cp.float64)
        y = cp.empty(n, dtype=cp.float32)
        self._kernel(((n + 127) // 128,), (128,), (x, y, np.int32(n)))
        # CHECK: kernels-on-objects.py:[[@LINE-1]]:52: warning: float64 array passed to pointer parameter 'x' of type 'const float *' of 'square'; the kernel reads the 8-byte float64 elements as 4-byte 'float' values: convert with .astype(cp.float32) [cuda-kernel-arguments]
        # CHECK: kernels-on-objects.py:18:48: note: parameter 'x' of type 'const float *' of 'square' declared here
        return y


class Scaler:
    def __init__(self):
        self.module = cp.RawModule(code=_SRC, name_expressions=['scale<float>', 'scale<double>'])
        self.scale_f = self.module.get_function('scale<float>')

    def run(self, n):
        x = cp.arange(n, dtype=cp.float64)
        y = cp.empty_like(x)
        self.scale_f(((n + 127) // 128,), (128,), (x, y, np.float32(2), np.int32(n)))
        # CHECK: kernels-on-objects.py:[[@LINE-1]]:52: warning: float64 array passed to pointer parameter 'x' of type 'const float *' of 'scale'; the kernel reads the 8-byte float64 elements as 4-byte 'float' values: convert with .astype(cp.float32) [cuda-kernel-arguments]
        # CHECK: kernels-on-objects.py:23:32: note: parameter 'x' of type 'const float *' of 'scale' declared here
        # CHECK: kernels-on-objects.py:[[@LINE-3]]:55: warning: float64 array passed to pointer parameter 'y' of type 'float *' of 'scale'
        # CHECK: kernels-on-objects.py:23:38: note: parameter 'y' of type 'float *' of 'scale' declared here
        return y

    def run_double(self, n):
        # The double instantiation with float64 arrays: correct.
        x = cp.arange(n, dtype=cp.float64)
        y = cp.empty_like(x)
        f = self.module.get_function('scale<double>')
        f(((n + 127) // 128,), (128,), (x, y, np.float64(2), np.int32(n)))
        return y


@functools.lru_cache(maxsize=None)
def _square_kernel():
    return cp.RawKernel(_SRC, 'square')


_MODULE = cp.RawModule(code=_SRC, name_expressions=['scale<float>'])


@cp.memoize(for_each_device=True)
def _function(name):
    return _MODULE.get_function(name)


def cached(n):
    x = cp.zeros(n, dtype=cp.int32)
    y = cp.zeros(n, dtype=cp.float32)
    _square_kernel()(((n + 127) // 128,), (128,), (x, y, np.int32(n)))
    # CHECK: kernels-on-objects.py:[[@LINE-1]]:52: warning: int32 array passed to pointer parameter 'x' of type 'const float *' of 'square'; the kernel reads the 4-byte int32 elements as 4-byte 'float' values: convert with .astype(cp.float32) [cuda-kernel-arguments]
    # CHECK: kernels-on-objects.py:18:48: note: parameter 'x' of type 'const float *' of 'square' declared here
    _function('scale<float>')(((n + 127) // 128,), (128,), (y, y, 2.0, np.int32(n)))
    # CHECK: kernels-on-objects.py:[[@LINE-1]]:67: warning: Python float passed to parameter 'a' of type 'float' of 'scale' is sent as an 8-byte float64; the kernel reads 4 of its bytes as a 'float', not the value: pass cp.float32(...) [cuda-kernel-arguments]
    # CHECK: kernels-on-objects.py:23:43: note: parameter 'a' of type 'float' of 'scale' declared here


def nested(n):
    def make():
        return cp.zeros(n, dtype=cp.float64)
    x = make()
    y = cp.zeros(n, dtype=cp.float32)
    _square_kernel()(((n + 127) // 128,), (128,), (x, y, np.int32(n)))
    # CHECK: kernels-on-objects.py:[[@LINE-1]]:52: warning: float64 array passed to pointer parameter 'x' of type 'const float *' of 'square'
    # CHECK: kernels-on-objects.py:18:48: note: parameter 'x' of type 'const float *' of 'square' declared here


class Buffers:
    _k = None

    def _buffer(self, n):
        return cp.empty(n, dtype=cp.float16)

    def kernel(self):
        if self._k is None:
            self._k = cp.RawKernel(_SRC, 'square')
        return self._k

    def fill(self, n):
        x = self._buffer(n)
        y = cp.empty(n, dtype=cp.float32)
        self._k(((n + 127) // 128,), (128,), (x, y, np.int32(n)))
        # CHECK: kernels-on-objects.py:[[@LINE-1]]:47: warning: float16 array passed to pointer parameter 'x' of type 'const float *' of 'square'
        # CHECK: kernels-on-objects.py:18:48: note: parameter 'x' of type 'const float *' of 'square' declared here
        return y


# Idiomatic correct code, and what the file does not say: not reported.

class _Private:
    _kernel = cp.RawKernel(_SRC, 'square')

    def __call__(self, x):
        # A private class: its callers are elsewhere in the package.
        y = cp.empty_like(x)
        self._kernel(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
        return y


class Contiguous:
    def __init__(self):
        self.k = cp.RawKernel(_SRC, 'square')

    def __call__(self, x):
        x = cp.ascontiguousarray(x, dtype=cp.float32)
        y = cp.empty_like(x)
        self.k(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
        return y

    def checked(self, x):
        if not x.flags.c_contiguous:
            raise ValueError('x must be C-contiguous')
        y = cp.empty_like(x)
        self.k(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
        return y

    def _launch(self, x):
        y = cp.empty_like(x)
        self.k(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
        return y

    def squares(self, n):
        # Its helper method is given arrays made here: contiguous.
        return self._launch(cp.arange(n, dtype=cp.float32))


class UsedHere:
    _kernel = cp.RawKernel(_SRC, 'square')

    def __call__(self, x):
        # Instances are called in this file: the callers are not all known.
        y = cp.empty_like(x)
        self._kernel(((x.size + 127) // 128,), (128,), (x, y, np.int32(x.size)))
        return y


def use(n):
    return UsedHere()(cp.ones(n, dtype=cp.float32))


class ByDtype:
    def __init__(self, dtype):
        # Two kernels for one attribute: which one a launch runs is not known.
        if dtype == cp.float32:
            self.k = cp.RawKernel(_SRC, 'square')
        else:
            self.k = cp.RawKernel(_SRC.replace('float', 'double'), 'square')

    def run(self, n):
        x = cp.zeros(n, dtype=cp.float64)
        self.k(((n + 127) // 128,), (128,), (x, x, np.int32(n)))


def _timed(f):
    return f


@_timed
def _wrapped_kernel():
    return cp.RawKernel(_SRC, 'square')


def not_a_cache(n):
    # A decorator that may return anything: not followed.
    x = cp.zeros(n, dtype=cp.float64)
    _wrapped_kernel()(((n + 127) // 128,), (128,), (x, x, np.int32(n)))


def user_type(n):
    # An instantiation over a type of the source: not written here.
    m = cp.RawModule(code=_SRC, name_expressions=['scale<pair2>'])
    x = cp.zeros(n, dtype=cp.float64)
    m.get_function('scale<pair2>')((1,), (1,), (x, x, x, np.int32(n)))
# CHECK: exit=1
