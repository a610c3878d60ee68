"""y = a*x + y with a CuPy RawKernel. Bug: the Python float 'a' is sent as
an 8-byte double, and the kernel's 'float a' reads 4 of its bytes: 0.0 for
2.0, so y stays 0 (cuda-kernel-arguments)."""
import sys

import cupy as cp
import numpy as np

AXPY = cp.RawKernel(r'''
extern "C" __global__ void axpy(const float *x, float *y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
''', "axpy")


def main():
    n = 1 << 20
    x = cp.ones(n, dtype=cp.float32)
    y = cp.zeros(n, dtype=cp.float32)
    a = 2.0
    AXPY(((n + 255) // 256,), (256,), (x, y, a, np.int32(n)))
    got = float(y[0])
    if not np.isclose(got, 2.0):
        print(f"axpy result wrong: y[0] = {got}, expected 2.0")
        return 1
    print("axpy ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
