# Python host code through ctypes into libcudart, lowered into C++ that the
# .cu checks read (docs/python-host.md): seven planted bugs, each reported at
# its Python line and column, and a stream leaked on the exception paths
# after its creation (a raise leaves the function).
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
        # CHECK: host-planted-bugs.py:[[@LINE-1]]:16: warning: 'cudaFree' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
        # CHECK: host-planted-bugs.py:[[@LINE+5]]:1: note: 'scratch' is constructed before the first CUDA call, so it is destroyed after the CUDA runtime's teardown
        # CHECK: host-planted-bugs.py:[[@LINE-4]]:5: note: reached through this call
        # CHECK: host-planted-bugs.py:[[@LINE-4]]:16: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]


scratch = DeviceBuffer(1 << 20)


def release_device():
    cudart.cudaDeviceReset()
    # CHECK: host-planted-bugs.py:[[@LINE-1]]:12: warning: 'cudaDeviceReset' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
    # CHECK: host-planted-bugs.py:[[@LINE+4]]:1: note: 'release_device' is registered here to run when the program exits
    # CHECK: host-planted-bugs.py:[[@LINE-3]]:12: warning: the error code returned by 'cudaDeviceReset' is not checked [cuda-unchecked-api-call]


atexit.register(release_device)


def run(n):
    d_in = ctypes.c_void_p()
    cudart.cudaMalloc(ctypes.byref(d_in), n * 4)
    # CHECK: host-planted-bugs.py:[[@LINE-1]]:12: warning: device memory allocated into 'd_in' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-planted-bugs.py:[[@LINE+30]]:5: note: 'd_in' still holds it when the function returns here
    # CHECK: host-planted-bugs.py:[[@LINE-3]]:12: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
    host = np.arange(n, dtype=np.float32)
    err = cudart.cudaMemcpy(d_in, host.ctypes.data, n * 4, cudaMemcpyDeviceToHost)
    # CHECK: host-planted-bugs.py:[[@LINE-1]]:18: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'd_in' is device memory and the source 'host' is host memory, but the kind is cudaMemcpyDeviceToHost [cuda-memcpy-direction]
    # CHECK: host-planted-bugs.py:[[@LINE-7]]:12: note: device memory allocated here by 'cudaMalloc'
    # CHECK: host-planted-bugs.py:[[@LINE-4]]:12: note: host memory allocated here by 'np.arange'
    if err != 0:
        raise RuntimeError("copy in failed")
    result = np.empty(n, dtype=np.float32)
    err = cudart.cudaMemcpy(result.ctypes.data, d_in, n * 8, cudaMemcpyDeviceToHost)
    # CHECK: host-planted-bugs.py:[[@LINE-1]]:18: warning: 'cudaMemcpy' copies 'n * 8' bytes, more than the 'n * sizeof(float)' bytes of 'result' [cuda-memcpy-size]
    # CHECK: host-planted-bugs.py:[[@LINE-3]]:14: note: host memory allocated here by 'np.empty'
    if err != 0:
        raise RuntimeError("copy out failed")
    stream = ctypes.c_void_p()
    if cudart.cudaStreamCreate(ctypes.byref(stream)) != 0:
        # CHECK: host-planted-bugs.py:[[@LINE-1]]:15: warning: stream allocated into 'stream' by 'cudaStreamCreate' is not destroyed on every path [cuda-device-memory-leak]
        # CHECK: host-planted-bugs.py:[[@LINE+9]]:9: note: 'stream' still holds it when the function returns here
        raise RuntimeError("no stream")
    err = cudart.cudaMemcpyAsync(result.ctypes.data, d_in, n * 4, cudaMemcpyDeviceToHost, stream)
    if err != 0:
        raise RuntimeError("async copy failed")
    total = float(result[0])
    # CHECK: host-planted-bugs.py:[[@LINE-1]]:19: warning: 'result' is read on the host before the asynchronous copy into it is known to finish; it works only while 'result' is pageable memory, for which the copy returns when done [cuda-missing-host-sync]
    # CHECK: host-planted-bugs.py:[[@LINE-5]]:18: note: asynchronous copy queued here on stream 'stream'
    if cudart.cudaStreamSynchronize(stream) != 0:
        raise RuntimeError("sync failed")
    if cudart.cudaStreamDestroy(stream) != 0:
        raise RuntimeError("no stream")
    return total


if __name__ == "__main__":
    print(run(1 << 20))


# CHECK: exit=1
