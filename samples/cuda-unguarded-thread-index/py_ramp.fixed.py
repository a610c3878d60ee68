"""Fills a vector with a ramp with a CuPy RawKernel launched over
ceil(n / 256) blocks. Fixed: the kernel writes only where i < n."""
import sys

import cupy as cp
import numpy as np

RAMP = cp.RawKernel(r'''
extern "C" __global__ void ramp(float *v, float start, float step, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = start + i * step;
}
''', "ramp")


def main():
    # Plain cudaMalloc per array, so that compute-sanitizer sees each
    # array's end (CuPy's pool would hide it inside a larger block).
    cp.cuda.set_allocator(None)
    n = 1000
    v = cp.empty(n, dtype=cp.float32)
    RAMP(((n + 255) // 256,), (256,),
         (v, cp.float32(0), cp.float32(0.5), np.int32(n)))
    cp.cuda.runtime.deviceSynchronize()
    if float(v[-1]) != 0.5 * (n - 1):
        print("ramp wrong")
        return 1
    print("ramp ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
