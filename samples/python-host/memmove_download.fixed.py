"""A vector uploaded to device memory and read back into a float32 array.
Fixed form of memmove_download.bug.py: the read-back is cudaMemcpy with
cudaMemcpyDeviceToHost, not ctypes.memmove from the device address."""
import ctypes
import faulthandler
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


def main():
    faulthandler.enable()  # a segmentation fault prints its name
    n = 1 << 20
    host = np.linspace(0.0, 1.0, n).astype(np.float32)
    result = np.zeros(n, dtype=np.float32)
    d = ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(d), ctypes.c_size_t(n * 4)), "cudaMalloc")
    try:
        check(cudart.cudaMemcpy(d, host.ctypes.data, ctypes.c_size_t(n * 4), cudaMemcpyHostToDevice), "upload")
        check(cudart.cudaMemcpy(result.ctypes.data, d, ctypes.c_size_t(n * 4), cudaMemcpyDeviceToHost), "download")
    finally:
        check(cudart.cudaFree(d), "cudaFree")
    if not np.array_equal(result, host):
        print("download wrong: values differ")
        return 1
    print("download ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
