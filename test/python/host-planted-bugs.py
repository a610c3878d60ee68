# Python host code through ctypes into libcudart, lowered into C++ that the
# .cu checks read (docs/python-host.md): seven planted bugs, each reported at
# its Python line and column.
# RUN: %cuda-tidy --no-cache --quiet %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import atexit
import ctypes

import numpy as np

cudart = ctypes.CDLL("libcudart.so")
cudaMemcpyHostToDevice = 1
cudaMemcpyDeviceToHost = 2


class DeviceBuffer:
    def __init__(self, nbytes):
        self.ptr = ctypes.c_void_p()
        if cudart.cudaMalloc(ctypes.byref(self.ptr), ctypes.c_size_t(nbytes)) != 0:
            raise MemoryError("cudaMalloc failed")

    def __del__(self):
        cudart.cudaFree(self.ptr)


scratch = DeviceBuffer(1 << 20)


def release_device():
    cudart.cudaDeviceReset()


atexit.register(release_device)


def run(n):
    d_in = ctypes.c_void_p()
    cudart.cudaMalloc(ctypes.byref(d_in), n * 4)
    host = np.arange(n, dtype=np.float32)
    err = cudart.cudaMemcpy(d_in, host.ctypes.data, n * 4, cudaMemcpyDeviceToHost)
    if err != 0:
        raise RuntimeError("copy in failed")
    result = np.empty(n, dtype=np.float32)
    err = cudart.cudaMemcpy(result.ctypes.data, d_in, n * 8, cudaMemcpyDeviceToHost)
    if err != 0:
        raise RuntimeError("copy out failed")
    stream = ctypes.c_void_p()
    if cudart.cudaStreamCreate(ctypes.byref(stream)) != 0:
        raise RuntimeError("no stream")
    err = cudart.cudaMemcpyAsync(result.ctypes.data, d_in, n * 4, cudaMemcpyDeviceToHost, stream)
    if err != 0:
        raise RuntimeError("async copy failed")
    total = float(result[0])
    if cudart.cudaStreamSynchronize(stream) != 0:
        raise RuntimeError("sync failed")
    if cudart.cudaStreamDestroy(stream) != 0:
        raise RuntimeError("no stream")
    return total


if __name__ == "__main__":
    print(run(1 << 20))
