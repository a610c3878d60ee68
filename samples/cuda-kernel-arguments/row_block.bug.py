"""Sums the rows of a matrix with a CuPy RawKernel, one block per row and
one thread per column. Bug: the block is the number of columns,
x.shape[1], with no cap; at 2,048 columns the block has more than 1,024
threads and the launch fails (cuda-kernel-arguments)."""
import sys

import cupy as cp
import numpy as np

ROW_SUM = cp.RawKernel(r'''
extern "C" __global__ void row_sum(const float *x, float *out, int cols) {
    int r = blockIdx.x;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        s += x[(long long)r * cols + c];
    atomicAdd(&out[r], s);
}
''', "row_sum")


def main():
    rows, cols = 64, 2048
    x = cp.ones((rows, cols), dtype=cp.float32)
    out = cp.zeros(rows, dtype=cp.float32)
    try:
        ROW_SUM((x.shape[0],), (x.shape[1],), (x, out, np.int32(cols)))
        cp.cuda.Device().synchronize()
    except cp.cuda.driver.CUDADriverError as e:
        print(f"launch failed: {e}")
        return 1
    got = float(out[rows - 1])
    if not np.isclose(got, float(cols)):
        print(f"row sum wrong: out[rows-1] = {got}, expected {cols}")
        return 1
    print("row sum ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
