"""Scales each row of a matrix by a weight with a CuPy RawKernel. Bug: the
weights are made as float64 (CuPy's default dtype) and passed to a 'const
float *': the kernel reads each 8-byte double as two floats
(cuda-kernel-arguments)."""
import sys

import cupy as cp
import numpy as np

ROW_SCALE = cp.RawKernel(r'''
extern "C" __global__ void row_scale(float *m, const float *w, int rows,
                                     int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y;
    if (c < cols && r < rows)
        m[r * cols + c] *= w[r];
}
''', "row_scale")


def main():
    rows, cols = 64, 1000
    m = cp.ones((rows, cols), dtype=cp.float32)
    w = cp.arange(rows, dtype=cp.float64) + 1
    ROW_SCALE(((cols + 127) // 128, rows), (128,),
              (m, w, np.int32(rows), np.int32(cols)))
    want = cp.arange(rows, dtype=cp.float32)[:, None] + 1
    if not bool(cp.allclose(m, cp.broadcast_to(want, m.shape))):
        print("row_scale result wrong: row 1 is", float(m[1, 0]))
        return 1
    print("row_scale ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
