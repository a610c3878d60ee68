"""y = a*x + y with a CuPy RawKernel. Fixed: the scalar is a
float32, as the kernel reads it.
"""
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
    AXPY(((n + 255) // 256,), (256,), (x, y, cp.float32(a), np.int32(n)))
    got = float(y[0])
    if not np.isclose(got, 2.0):
        print(f"axpy result wrong: y[0] = {got}, expected 2.0")
        return 1
    print("axpy ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
