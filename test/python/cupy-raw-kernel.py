# CuPy RawKernel: kernel findings at the Python line and column inside the
# string, launches as launch facts, and cuda-kernel-arguments.
# RUN: %cuda-tidy --no-cache --quiet -checks='-cuda-tensor-contiguity' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import math
import cupy as cp
import numpy as np

code = r'''
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];
}
extern "C" __global__ void scale(float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= a;
}
'''
# CHECK: cupy-raw-kernel.py:[[@LINE-7]]:5: warning: write to 'y' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
# CHECK: cupy-raw-kernel.py:[[@LINE-8]]:16: warning: read of 'x' at thread-derived index 'i'
# CHECK: cupy-raw-kernel.py:[[@LINE-9]]:23: warning: read of 'y' at thread-derived index 'i'
mod = cp.RawModule(code=code)
axpy = mod.get_function("axpy")
scale = mod.get_function("scale")


def run(n):
    x = cp.ones(n, dtype=cp.float32)
    y = cp.zeros(n, dtype=cp.float32)
    y64 = cp.zeros(n, dtype=cp.float64)
    a = 2.0
    # A rounded-up grid runs past n: the unguarded kernel above is reported.
    axpy(((n + 255) // 256,), (256,), (x, y, cp.float32(a), np.int32(n)))
    axpy((math.ceil(n / 256),), (256,), (x, y, a, np.int32(n)))
    # CHECK: cupy-raw-kernel.py:[[@LINE-1]]:48: warning: Python float passed to parameter 'a' of type 'float' of 'axpy' is sent as an 8-byte float64; the kernel reads 4 of its bytes as a 'float', not the value: pass cp.float32(...) [cuda-kernel-arguments]
    axpy((n // 256,), (256,), (x, y64, cp.float32(a), np.int32(n)))
    # CHECK: cupy-raw-kernel.py:[[@LINE-1]]:35: warning: float64 array passed to pointer parameter 'y' of type 'float *' of 'axpy'; the kernel reads the 8-byte float64 elements as 4-byte 'float' values: convert with .astype(cp.float32) [cuda-kernel-arguments]
    m = cp.ones((n, n), dtype=cp.float32)
    axpy((n // 256,), (256,), (m.T, y, cp.float32(a), np.int32(n)))
    # CHECK: cupy-raw-kernel.py:[[@LINE-1]]:32: warning: a transposed view is passed to pointer parameter 'x' of type 'const float *' of 'axpy'; {{.*}} pass cp.ascontiguousarray(...) [cuda-kernel-arguments]
    axpy((n // 256,), (256,), (m[:, 0], y, cp.float32(a), np.int32(n)))
    # CHECK: cupy-raw-kernel.py:[[@LINE-1]]:32: warning: a column of a 2-D array is passed to pointer parameter 'x'
    axpy((n // 256,), (256,), (x[::2], y, cp.float32(a), np.int32(n)))
    # CHECK: cupy-raw-kernel.py:[[@LINE-1]]:32: warning: a strided slice is passed to pointer parameter 'x'
    h = np.ones(n, dtype=np.float32)
    axpy((n // 256,), (256,), (h, y, cp.float32(a), np.int32(n)))
    # CHECK: cupy-raw-kernel.py:[[@LINE-1]]:32: warning: host numpy array passed to pointer parameter 'x' of type 'const float *' of 'axpy'; CuPy raises TypeError: copy it to the device first, 'cp.asarray(...)' [cuda-kernel-arguments]
    axpy((n // 256,), (256,), (x, y, cp.float64(a), np.int32(n)))
    # CHECK: cupy-raw-kernel.py:[[@LINE-1]]:38: warning: float64 scalar passed to parameter 'a' of type 'float' of 'axpy'; the kernel reads 4 bytes of the 8-byte float64 as a 'float', not the value: pass cp.float32(...) [cuda-kernel-arguments]
    axpy((n // 256,), (256,), (x, y, cp.float32(a), 1.5))
    # CHECK: cupy-raw-kernel.py:[[@LINE-1]]:53: warning: Python float passed to parameter 'n' of type 'int' of 'axpy' is sent as an 8-byte float64; the kernel reads 4 of its bytes as a 'int', not the value: pass cp.int32(...) [cuda-kernel-arguments]
    axpy((n // 256,), (256,), (x, y, cp.float32(a)))
    # CHECK: cupy-raw-kernel.py:[[@LINE-1]]:5: warning: this launch of 'axpy' passes 3 arguments to its 4 parameters; CuPy does not check the count, and the kernel reads parameters that were never passed [cuda-kernel-arguments]
    axpy(n // 256, (256,), (x, y, cp.float32(a), np.int32(n)))
    # CHECK: cupy-raw-kernel.py:[[@LINE-1]]:10: warning: the grid of this launch of 'axpy' is not a tuple; CuPy raises TypeError: write it as a tuple, '(blocks,)' [cuda-kernel-arguments]

    # Idiomatic launches: nothing to report.
    scale(((n + 255) // 256,), (256,), (y, cp.float32(a), np.int32(n)))
    scale((-(-n // 256),), (256,), (y, np.float32(3), n))
    scale((1,), (256,), (y.astype(cp.float32), cp.float32(a), n))
    z = cp.ascontiguousarray(m.T)
    axpy((n // 256,), (256,), (z, y, cp.float32(a), np.int32(n)))
    axpy((n // 256,), (256,), (m[0], y, cp.float32(a), np.int32(n)))
    axpy((n // 256,), (256,), (x.data.ptr, y, cp.float32(a), n))
    blocks = (n + 255) // 256
    grid = (blocks,)
    axpy(grid, (256,), (x, y, cp.float32(a), np.int32(n)))
    axpy((n // 256,), (256,), (x, y, 2.0, n))  # NOLINT(cuda-kernel-arguments)
    # NOLINTNEXTLINE(cuda-*)
    axpy((n // 256,), (256,), (x, y, 2.0, n))


def unknown(x, y, a, n, grid):
    # Arguments whose types the file does not say: silent (the arrays it
    # receives are cuda-tensor-contiguity's: test/python/contiguity-received.py).
    axpy(grid, (256,), (x, y, a, n))
    scale(grid, (128,), (y, a, n))

# CHECK: exit=1
