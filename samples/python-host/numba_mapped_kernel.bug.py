"""Numba: a kernel writes its result into a mapped host array
(cuda.mapped_array), which the host can read directly. Bug: the launch
returns before the kernel runs to its end, and the host reads the array
before cuda.synchronize(), seeing the -1 it wrote before
(cuda-missing-host-sync)."""
import sys

import numpy as np; np.row_stack = getattr(np, "row_stack", np.vstack)  # numba-cuda 0.30 names np.row_stack, gone from NumPy 2.5
from numba import cuda


@cuda.jit
def finish(out, n):
    i = cuda.grid(1)
    for _ in range(20):
        cuda.nanosleep(1000000)
    if i < n:
        out[i] = i


def main():
    n = 1024
    m = cuda.mapped_array(n, dtype=np.int32)
    m[n - 1] = -1
    finish[n // 256, 256](m, n)
    last = m[n - 1]
    cuda.synchronize()
    if last != n - 1:
        print("mapped read wrong: %r, expected %d" % (last, n - 1))
        return 1
    print("mapped read ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
