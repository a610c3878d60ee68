"""A pool of device buffers kept in a module global, with ctypes into
libcudart; main resets the device when it is done. Bug: the pool is freed
by an atexit handler, which runs after main, when the device has been reset: cudaFree fails at interpreter exit (cuda-api-outside-main)."""
import atexit
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


class Pool:
    def __init__(self):
        self.blocks = []

    def take(self, nbytes):
        p = ctypes.c_void_p()
        check(cudart.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(nbytes)), "cudaMalloc")
        self.blocks.append(p)
        return p


POOL = Pool()


def release_pool():
    for p in POOL.blocks:
        err = cudart.cudaFree(p)
        if err != 0:
            print("cudaFree at exit failed with CUDA error %d" % err)
            sys.stdout.flush()
            os._exit(1)
    POOL.blocks = []


atexit.register(release_pool)


def main():
    n = 1 << 20
    host = np.arange(n, dtype=np.float32)
    result = np.zeros(n, dtype=np.float32)
    d = POOL.take(n * 4)
    check(cudart.cudaMemcpy(d, host.ctypes.data, ctypes.c_size_t(n * 4), cudaMemcpyHostToDevice), "upload")
    check(cudart.cudaMemcpy(result.ctypes.data, d, ctypes.c_size_t(n * 4), cudaMemcpyDeviceToHost), "download")
    if not np.array_equal(result, host):
        print("round trip wrong")
        return 1
    check(cudart.cudaDeviceReset(), "cudaDeviceReset")
    print("round trip ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
