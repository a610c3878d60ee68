"""Column means of a matrix through device memory with ctypes into libcudart.
Fixed: only the finally block frees the device buffer."""
import ctypes
import glob
import os
import sys

import numpy as np


def load_cudart():
    """libcudart from the loader path, the CUDA toolkit or a pip wheel."""
    names = ["libcudart.so"]
    names += sorted(glob.glob("/usr/local/cuda/lib64/libcudart.so*"))
    names += sorted(glob.glob(os.path.join(sys.prefix, "lib", "python3*", "site-packages",
                                           "nvidia", "cu*", "lib", "libcudart.so*")))
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    sys.exit("no libcudart found")


cudart = load_cudart()
cudart.cudaMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
cudaMemcpyHostToDevice = 1
cudaMemcpyDeviceToHost = 2


def check(err, what):
    if err != 0:
        raise RuntimeError("%s failed with CUDA error %d" % (what, err))


def column_means(matrix):
    """The column means, or None when the matrix holds a non-finite value."""
    rows, cols = matrix.shape
    nbytes = rows * cols * 4
    staged = np.zeros((rows, cols), dtype=np.float32)
    d = ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(d), ctypes.c_size_t(nbytes)), "cudaMalloc")
    try:
        check(cudart.cudaMemcpy(d, matrix.ctypes.data, ctypes.c_size_t(nbytes), cudaMemcpyHostToDevice), "upload")
        check(cudart.cudaMemcpy(staged.ctypes.data, d, ctypes.c_size_t(nbytes), cudaMemcpyDeviceToHost), "download")
        if not np.all(np.isfinite(staged)):
            return None
    finally:
        check(cudart.cudaFree(d), "cudaFree")
    return staged.mean(axis=0)


def main():
    good = np.arange(64 * 16, dtype=np.float32).reshape(64, 16)
    bad = good.copy()
    bad[3, 5] = np.nan
    try:
        means = column_means(good)
        rejected = column_means(bad)
    except RuntimeError as e:
        print("column means failed: %s" % e)
        return 1
    if rejected is not None or not np.allclose(means, good.mean(axis=0)):
        print("column means wrong")
        return 1
    print("column means ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
