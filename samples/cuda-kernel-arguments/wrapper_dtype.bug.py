"""Adds a scaled vector with a CuPy RawKernel on double through a wrapper
function. Bug: the caller makes x as float32 and the wrapper passes it on
unconverted; the kernel reads pairs of float32 elements as doubles
(cuda-kernel-arguments, through the wrapper's same-file callers)."""
import sys

import cupy as cp
import numpy as np

AXPY = cp.RawKernel(r'''
extern "C" __global__ void axpy(const double *x, double *y, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += a * x[i];
}
''', "axpy")


def _axpy(x, y, a):
    n = y.size
    AXPY(((n + 255) // 256,), (256,), (x, y, a, np.int32(n)))


def main():
    n = 1 << 16
    x = cp.ones(2 * n, dtype=cp.float32)
    y = cp.zeros(n, dtype=cp.float64)
    _axpy(x, y, 2.0)
    got = float(y[n - 1])
    if not np.isclose(got, 2.0):
        print(f"axpy result wrong: y[n-1] = {got}, expected 2.0")
        return 1
    print("axpy ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
