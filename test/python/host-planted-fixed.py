# The fixed form of host-planted-bugs.py: every result is checked, device
# memory and the stream are freed in finally and __exit__ (also on the
# exception paths: a raise leaves the function), the stream is synchronized before
# the host reads, and nothing runs CUDA at interpreter exit. Silent.
# RUN: %cuda-tidy --no-cache --quiet %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
# CHECK: exit=0
import ctypes

import numpy as np

cudart = ctypes.CDLL("libcudart.so")
cudaMemcpyHostToDevice = 1
cudaMemcpyDeviceToHost = 2


def check(err, what):
    if err != 0:
        raise RuntimeError("%s failed with CUDA error %d" % (what, err))


class DeviceBuffer:
    def __init__(self, nbytes):
        self.ptr = ctypes.c_void_p()
        check(cudart.cudaMalloc(ctypes.byref(self.ptr), ctypes.c_size_t(nbytes)), "cudaMalloc")

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        check(cudart.cudaFree(self.ptr), "cudaFree")


def run(n):
    d_in = ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(d_in), n * 4), "cudaMalloc")
    try:
        host = np.arange(n, dtype=np.float32)
        err = cudart.cudaMemcpy(d_in, host.ctypes.data, n * 4, cudaMemcpyHostToDevice)
        if err != 0:
            raise RuntimeError("copy in failed")
        result = np.empty(n, dtype=np.float32)
        err = cudart.cudaMemcpy(result.ctypes.data, d_in, n * 4, cudaMemcpyDeviceToHost)
        if err != 0:
            raise RuntimeError("copy out failed")
        stream = ctypes.c_void_p()
        if cudart.cudaStreamCreate(ctypes.byref(stream)) != 0:
            raise RuntimeError("no stream")
        try:
            err = cudart.cudaMemcpyAsync(result.ctypes.data, d_in, n * 4, cudaMemcpyDeviceToHost, stream)
            if err != 0:
                raise RuntimeError("async copy failed")
            if cudart.cudaStreamSynchronize(stream) != 0:
                raise RuntimeError("sync failed")
            total = float(result[0])
        finally:
            if cudart.cudaStreamDestroy(stream) != 0:
                raise RuntimeError("no stream")
    finally:
        check(cudart.cudaFree(d_in), "cudaFree")
    with DeviceBuffer(n * 4) as scratch:
        check(cudart.cudaMemset(scratch.ptr, 0, n * 4), "cudaMemset")
    return total


if __name__ == "__main__":
    print(run(1 << 20))
