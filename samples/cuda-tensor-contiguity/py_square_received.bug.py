"""y = x * x with a CuPy RawKernel, in a library function that takes the
array from its caller (main stands for a caller in another module: it looks
the function up by name). The kernel indexes x densely, and CuPy passes
only the data pointer: for a stepped slice a[::2] it reads a[0], a[1], ...
in memory order, so y[k] is k*k instead of (2k)*(2k)."""
import sys

import cupy as cp
import numpy as np

_SQUARE = cp.RawKernel(r'''
extern "C" __global__ void square(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
''', 'square')


def square(x):
    y = cp.empty(x.shape, dtype=cp.float32)
    n = x.size
    _SQUARE(((n + 127) // 128,), (128,), (x, y, np.int32(n)))
    return y


def main():
    a = cp.arange(2000, dtype=cp.float32)
    fn = getattr(sys.modules[__name__], 'square')
    y = fn(a[::2])
    cp.cuda.runtime.deviceSynchronize()
    want = cp.arange(0, 2000, 2, dtype=cp.float32) ** 2
    if not bool(cp.allclose(y, want)):
        print("square wrong: y[1] = %r, want %r" % (float(y[1]), float(want[1])))
        return 1
    print("square ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
