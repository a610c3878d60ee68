# dtypes that cross functions of one file: an array made in one function,
# or received from a caller, reaches a raw kernel through a wrapper. The
# wrapper's parameter has the fact every same-file call gives it (a
# same-file summary); the finding is at the wrapper's launch, with a note
# at the caller's argument. Callers that disagree, a wrapper whose name is
# passed on, and converted arrays are not reported.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import cupy as cp
import numpy as np

AXPY = cp.RawKernel(r'''
extern "C" __global__ void axpy(const double *x, double *y, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
''', "axpy")


def _axpy(x, y, a):
    n = x.size
    AXPY(((n + 255) // 256,), (256,), (x, y, a, np.int32(n)))
# CHECK: dtype-across-functions.py:[[@LINE-1]]:40: warning: float32 array passed to pointer parameter 'x' of type 'const double *' of 'axpy'; the kernel reads the 4-byte float32 elements as 8-byte 'double' values: convert with .astype(cp.float64) [cuda-kernel-arguments]
# CHECK: dtype-across-functions.py:[[@LINE+7]]:11: note: passed as this argument of '_axpy' here
# CHECK: dtype-across-functions.py:13:47: note: parameter 'x' of type 'const double *' of 'axpy' declared here


def step(n):
    x = cp.zeros(n, dtype=cp.float32)
    y = cp.zeros(n, dtype=cp.float64)
    _axpy(x, y, 2.0)
    _axpy(x, y=y, a=0.5)


def _scale(x, y):
    # Called with float64 arrays only: correct.
    n = x.size
    AXPY(((n + 255) // 256,), (256,), (x, y, 1.0, np.int32(n)))


def fine(n):
    x = cp.ones(n, dtype=cp.float32).astype(cp.float64)
    y = cp.zeros(n)
    _scale(x, y)
    _scale(cp.arange(n, dtype=cp.float64), y)


def _mixed(x, y):
    # Callers disagree: not known here.
    n = x.size
    AXPY(((n + 255) // 256,), (256,), (x, y, 1.0, np.int32(n)))


def mixed(n):
    y = cp.zeros(n)
    _mixed(cp.zeros(n, dtype=cp.float32), y)
    _mixed(cp.zeros(n), y)


def _passed_on(x, y):
    # Its name is passed to another function: its callers are not all here.
    n = x.size
    AXPY(((n + 255) // 256,), (256,), (x, y, 1.0, np.int32(n)))


def register(table, n):
    table['axpy'] = _passed_on
    _passed_on(cp.zeros(n, dtype=cp.float32), cp.zeros(n))


def _rows(x, y):
    n = y.size
    AXPY(((n + 255) // 256,), (256,), (x, y, 1.0, np.int32(n)))
# CHECK: dtype-across-functions.py:[[@LINE-1]]:40: warning: a transposed view is passed to pointer parameter 'x' of type 'const double *' of 'axpy'; the kernel is given the base array's memory and ignores the view's strides, so it reads the elements in memory order: pass cp.ascontiguousarray(...) [cuda-kernel-arguments]
# CHECK: dtype-across-functions.py:[[@LINE+6]]:11: note: passed as this argument of '_rows' here
# CHECK: dtype-across-functions.py:13:47: note: parameter 'x' of type 'const double *' of 'axpy' declared here


def transposed(n):
    m = cp.zeros((n, n))
    _rows(m.T, cp.zeros(n * n))
    # Made contiguous by the caller: not reported.
    _rows2(cp.ascontiguousarray(m.T), cp.zeros(n * n))


def _rows2(x, y):
    n = y.size
    AXPY(((n + 255) // 256,), (256,), (x, y, 1.0, np.int32(n)))
# CHECK: exit=1
