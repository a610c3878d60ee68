"""Doubles a vector with a CuPy RawKernel, the grid rounded up with //
(the fixed form of float_grid.bug.py, whose grid n / 256 is a float)."""

import sys

import cupy as cp
import numpy as np

TWICE = cp.RawKernel(r'''
extern "C" __global__ void twice(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
''', "twice")


def main():
    n = 1 << 20
    x = cp.ones(n, dtype=cp.float32)
    try:
        TWICE(((n + 255) // 256,), (256,), (x, np.int32(n)))
    except TypeError as e:
        print(f"launch failed: TypeError: {e}")
        return 1
    got = float(x[n - 1])
    if not np.isclose(got, 2.0):
        print(f"twice result wrong: x[n-1] = {got}, expected 2.0")
        return 1
    print("twice ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
