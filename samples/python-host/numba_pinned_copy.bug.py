"""Numba: a kernel fills 256 MiB of device memory on a stream, and the
result is copied back into a pinned host array on the same stream. Bug: the
host reads the last value before the stream is synchronized; the copy
with a stream is asynchronous (copy_to_host(stream=...)), and the host sees
the 0 it wrote before (cuda-missing-host-sync)."""
import sys

import numpy as np; np.row_stack = getattr(np, "row_stack", np.vstack)  # numba-cuda 0.30 names np.row_stack, gone from NumPy 2.5
from numba import cuda


@cuda.jit
def fill(out, value, n):
    i = cuda.grid(1)
    if i == 0:
        cuda.nanosleep(1000000)
    if i < n:
        out[i] = value


def main():
    n = 64 << 20
    s = cuda.stream()
    h = cuda.pinned_array(n, dtype=np.float32)
    d = cuda.device_array(n, dtype=np.float32)
    h[n - 1] = 0.0
    fill[(n + 255) // 256, 256, s](d, 1.5, n)
    d.copy_to_host(h, stream=s)
    last = h[n - 1]
    s.synchronize()
    if last != 1.5:
        print("pinned read wrong: %r, expected 1.5" % last)
        return 1
    print("pinned read ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
