# Objects whose class frees CUDA memory or a stream in __del__, held in
# locals: Python collects them while the runtime lives, so no
# cuda-api-outside-main finding and no leak; a stream unpacked into an
# attribute that the lowering does not model as a member goes on (it is
# not dropped), while one unpacked into `_` is dropped (a leak). Memory
# returned to the caller (an allocator's malloc, CuPy's test_memory.py) is
# the caller's.
# RUN: %cuda-tidy --no-cache --quiet %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

import cupy
import numpy as np
from cuda.bindings import runtime as cudart

libcudart = ctypes.CDLL("libcudart.so")


def check(err):
    if err != 0:
        raise RuntimeError("CUDA error %d" % err)


class DeviceBuffer:
    def __init__(self, n):
        self.ptr = ctypes.c_void_p()
        check(libcudart.cudaMalloc(ctypes.byref(self.ptr), n * 4))

    def __del__(self):
        check(libcudart.cudaFree(self.ptr))


class Stream:
    def __init__(self):
        err, self.stream = cudart.cudaStreamCreate()
        if err != cudart.cudaError_t.cudaSuccess:
            raise RuntimeError("no stream")

    def __del__(self):
        err, = cudart.cudaStreamDestroy(self.stream)
        if err != cudart.cudaError_t.cudaSuccess:
            raise RuntimeError("cudaStreamDestroy failed")


class Allocator:
    def __init__(self):
        self.calls = 0

    def malloc(self, size):
        self.calls += 1
        return cupy.cuda.runtime.malloc(size)

    def free(self, ptr):
        cupy.cuda.runtime.free(ptr)


def allocate(n):
    return cupy.cuda.runtime.malloc(n * 4)


def allocate_named(n):
    p = cupy.cuda.runtime.malloc(n * 4)
    cupy.cuda.runtime.memset(p, 0, n * 4)
    return p


def local_buffer(n):
    buf = DeviceBuffer(n)
    host = np.zeros(n, dtype=np.float32)
    check(libcudart.cudaMemcpy(host.ctypes.data, buf.ptr, n * 4, 2))
    return host


def local_stream():
    s = Stream()
    err, = cudart.cudaStreamSynchronize(s.stream)
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError("sync failed")


def stream_into_item(streams):
    err, streams[0] = cudart.cudaStreamCreate()
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError("no stream")


def stream_dropped():
    err, _ = cudart.cudaStreamCreate()
    # CHECK: host-object-lifetime.py:[[@LINE-1]]:21: warning: stream allocated into '__ct_out{{[0-9]+}}' by 'cudaStreamCreate' is not destroyed on every path [cuda-device-memory-leak]
    if err != cudart.cudaError_t.cudaSuccess:
        # CHECK: host-object-lifetime.py:[[@LINE-1]]:5: note: '__ct_out{{[0-9]+}}' still holds it when the function returns here
        raise RuntimeError("no stream")


if __name__ == "__main__":
    local_buffer(256)
    local_stream()
    stream_into_item([None])
    stream_dropped()
    Allocator().free(allocate(4))
    Allocator().free(allocate_named(4))
# CHECK: exit=1
