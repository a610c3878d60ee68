"""Sum of squares of a vector in eight passes, each staging its slice in a
device scratch buffer, with ctypes into libcudart. Bug: each pass allocates
a new scratch buffer and only the last one is freed; seven leak (cuda-device-memory-leak; compute-sanitizer --leak-check full)."""
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


def main():
    n = 1 << 20
    passes = 8
    chunk = n // passes
    host = np.arange(n, dtype=np.float32)
    back = np.zeros(chunk, dtype=np.float32)
    total = 0.0
    scratch = ctypes.c_void_p()
    for k in range(passes):
        scratch = ctypes.c_void_p()
        check(cudart.cudaMalloc(ctypes.byref(scratch), ctypes.c_size_t(chunk * 4)), "cudaMalloc")
        part = host[k * chunk:(k + 1) * chunk]
        check(cudart.cudaMemcpy(scratch, part.ctypes.data, ctypes.c_size_t(chunk * 4), cudaMemcpyHostToDevice), "upload")
        check(cudart.cudaMemcpy(back.ctypes.data, scratch, ctypes.c_size_t(chunk * 4), cudaMemcpyDeviceToHost), "download")
        total += float(np.dot(back.astype(np.float64), back.astype(np.float64)))
    check(cudart.cudaFree(scratch), "cudaFree")
    expected = float(np.dot(host.astype(np.float64), host.astype(np.float64)))
    if abs(total - expected) > 1e-6 * expected:
        print("sum of squares wrong: %r, expected %r" % (total, expected))
        return 1
    print("sum of squares ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
