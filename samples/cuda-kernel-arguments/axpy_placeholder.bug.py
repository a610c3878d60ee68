"""y += a * x with a CuPy RawKernel whose source names its element type
with a placeholder, '{ctype}', filled from the array's dtype. Bug: the
scale is passed as the Python float 2.0, which CuPy sends as an 8-byte
float64 whatever '{ctype}' becomes; for float32 arrays the kernel reads 4
of its bytes as a float, 0.0, and y stays 1 (cuda-kernel-arguments,
reported at the Python line of the argument)."""
import sys

import cupy as cp
import numpy as np

_SOURCE = r'''
extern "C" __global__ void axpy({ctype} a, const {ctype} *x, {ctype} *y, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}}
'''
_CTYPES = {np.float32: 'float', np.float64: 'double'}


def axpy(a, x, y):
    kernel = cp.RawKernel(_SOURCE.format(ctype=_CTYPES[x.dtype.type]), 'axpy')
    kernel(((x.size + 255) // 256,), (256,), (a, x, y, np.int32(x.size)))


def main():
    n = 1000
    x = cp.ones(n, dtype=cp.float32)
    y = cp.ones(n, dtype=cp.float32)
    axpy(2.0, x, y)
    cp.cuda.runtime.deviceSynchronize()
    if float(y[-1]) != 3.0:
        print("axpy wrong: %r" % float(y[-1]))
        return 1
    print("axpy ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
