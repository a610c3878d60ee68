"""Copies one column of a matrix with a CuPy RawKernel. Bug: the column is
a view with a row stride; CuPy passes its data pointer alone, and the kernel
reads n consecutive elements of row 0 instead (cuda-kernel-arguments)."""
import sys

import cupy as cp
import numpy as np

COPY = cp.RawKernel(r'''
extern "C" __global__ void copy(const float *src, float *dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}
''', "copy")


def main():
    rows, cols = 512, 512
    m = cp.arange(rows * cols, dtype=cp.float32).reshape(rows, cols)
    out = cp.empty(rows, dtype=cp.float32)
    COPY(((rows + 255) // 256,), (256,), (m[:, 1], out, np.int32(rows)))
    if not bool(cp.array_equal(out, m[:, 1])):
        print("column copy wrong: out[1] =", float(out[1]),
              "expected", float(m[1, 1]))
        return 1
    print("column copy ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
