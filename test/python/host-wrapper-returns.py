# A class or function of the file that allocates through a binding and
# returns the pointer (the shape of vLLM's CudaRTLibrary.cudaMalloc): its
# caller holds the memory, so a path of the caller that drops it is a leak,
# reported at the call of the wrapper; a caller that frees it on every path,
# stores it, or returns it is silent.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-device-memory-leak,cuda-unchecked-api-call' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

from cuda.bindings import runtime as cudart


class DeviceRuntime:
    def __init__(self):
        self.lib = ctypes.CDLL("libcudart.so")

    def check(self, status):
        if status != 0:
            raise RuntimeError("CUDA error %d" % status)

    def alloc(self, nbytes):
        ptr = ctypes.c_void_p()
        self.check(self.lib.cudaMalloc(ctypes.byref(ptr), nbytes))
        return ptr

    def release(self, ptr):
        self.check(self.lib.cudaFree(ptr))


runtime = DeviceRuntime()


def device_buffer(n):
    err, ptr = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        return None
    return ptr


def early_exit(n, ready):
    staging = runtime.alloc(n)
    # CHECK: host-wrapper-returns.py:[[@LINE-1]]:15: warning: device memory allocated into 'staging' by 'alloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-wrapper-returns.py:[[@LINE+2]]:9: note: 'staging' still holds it when the function returns here
    if not ready:
        return False
    runtime.release(staging)
    return True


def function_wrapper(n):
    tmp = device_buffer(n)
    # CHECK: host-wrapper-returns.py:[[@LINE-1]]:11: warning: device memory allocated into 'tmp' by 'device_buffer' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-wrapper-returns.py:[[@LINE+1]]:5: note: 'tmp' still holds it when the function returns here
    return n


# Negatives: freed on every path, in finally, kept, or handed on.
def released(n):
    staging = runtime.alloc(n)
    try:
        return n * 2
    finally:
        runtime.release(staging)


def released_by_binding(n):
    tmp = device_buffer(n)
    if tmp is None:
        return 0
    err, = cudart.cudaFree(tmp)
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError("free failed")
    return n


class Holder:
    def __init__(self, n):
        self.buf = runtime.alloc(n)

    def close(self):
        runtime.release(self.buf)


def handed_on(n):
    buf = runtime.alloc(n)
    return buf


# A status handed to the caller, stored first or returned as it is: the
# caller examines it.
_rt = ctypes.CDLL("libcudart.so")


def device_sync():
    status = _rt.cudaDeviceSynchronize()
    return status


def device_sync_direct():
    return _rt.cudaDeviceSynchronize()


# A pool that keeps what it hands out: the caller does not own the block
# alone (the pool frees its blocks), so dropping it is no leak.
class BlockPool:
    def __init__(self):
        self.lib = ctypes.CDLL("libcudart.so")
        self.blocks = []
        self.last = None

    def take(self, nbytes):
        ptr = ctypes.c_void_p()
        if self.lib.cudaMalloc(ctypes.byref(ptr), nbytes) != 0:
            raise MemoryError(nbytes)
        self.blocks.append(ptr)
        return ptr

    def take_one(self, nbytes):
        ptr = ctypes.c_void_p()
        if self.lib.cudaMalloc(ctypes.byref(ptr), nbytes) != 0:
            raise MemoryError(nbytes)
        self.last = ptr
        return ptr


pool = BlockPool()


def uses_pooled_blocks(n):
    a = pool.take(n)
    b = pool.take_one(n)
    return n
