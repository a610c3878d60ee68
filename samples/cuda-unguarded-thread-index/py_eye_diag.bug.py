"""Writes the diagonal of an N x N identity matrix with a CuPy
ElementwiseKernel whose raw output is indexed at i * (N + 1). Bug: the
call passes size=e.size, so i runs over all N * N elements, and every
i >= N writes past the matrix (cuda-unguarded-thread-index, reported at
the Python line of the write)."""
import sys

import cupy as cp

N = 64
FILL_DIAG = cp.ElementwiseKernel('', 'raw T e', 'e[i * %d] = 1' % (N + 1), 'fill_diag')


def main():
    # Plain cudaMalloc per array, so that compute-sanitizer sees the
    # matrix's end (CuPy's pool would hide it inside a larger block).
    cp.cuda.set_allocator(None)
    e = cp.zeros((N, N), dtype=cp.float32)
    FILL_DIAG(e, size=e.size)
    cp.cuda.runtime.deviceSynchronize()
    if not bool((e == cp.eye(N, dtype=cp.float32)).all()):
        print("eye wrong")
        return 1
    print("eye ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
