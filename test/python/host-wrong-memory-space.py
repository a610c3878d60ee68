# ctypes.memmove and ctypes.memset are C's memmove and memset: they read and
# write their addresses on the host, so given device memory (cudaMalloc
# through ctypes, a CuPy array's a.data.ptr) they fault or copy garbage.
# The lowering writes them as the C calls, and cuda-wrong-memory-space
# reports them as it does in a .cu file; pinned and managed memory, which
# the host can access, and host buffers are fine.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-wrong-memory-space' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=note:
import ctypes

import cupy as cp
import numpy as np

cudart = ctypes.CDLL("libcudart.so")
cudaMemcpyDeviceToHost = 2


def check(err):
    if err != 0:
        raise RuntimeError("CUDA error %d" % err)


def download_with_memmove(n):
    d = ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(d), n * 4))
    out = np.empty(n, dtype=np.float32)
    ctypes.memmove(out.ctypes.data, d, n * 4)
    # CHECK: host-wrong-memory-space.py:[[@LINE-1]]:37: warning: device memory 'd' is passed to 'memmove', which reads or writes it on the host [cuda-wrong-memory-space]
    # CHECK: host-wrong-memory-space.py:[[@LINE-4]]:18: note: device memory allocated here by 'cudaMalloc'
    check(cudart.cudaFree(d))
    return out


def upload_with_memmove(n):
    host = np.arange(n, dtype=np.float32)
    d = ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(d), n * 4))
    ctypes.memmove(d, host.ctypes.data, n * 4)
    # CHECK: host-wrong-memory-space.py:[[@LINE-1]]:20: warning: device memory 'd' is passed to 'memmove', which reads or writes it on the host [cuda-wrong-memory-space]
    # CHECK: host-wrong-memory-space.py:[[@LINE-3]]:18: note: device memory allocated here by 'cudaMalloc'
    check(cudart.cudaFree(d))


def clear_with_memset(n):
    d = ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(d), n * 4))
    ctypes.memset(d, 0, n * 4)
    # CHECK: host-wrong-memory-space.py:[[@LINE-1]]:19: warning: device memory 'd' is passed to 'memset', which reads or writes it on the host [cuda-wrong-memory-space]
    # CHECK: host-wrong-memory-space.py:[[@LINE-3]]:18: note: device memory allocated here by 'cudaMalloc'
    check(cudart.cudaFree(d))


def cupy_array_with_memmove(n):
    dev = cp.zeros(n, dtype=cp.float32)
    host = np.empty(n, dtype=np.float32)
    ctypes.memmove(host.ctypes.data, dev.data.ptr, n * 4)
    # CHECK: host-wrong-memory-space.py:[[@LINE-1]]:38: warning: device memory 'dev' is passed to 'memmove', which reads or writes it on the host [cuda-wrong-memory-space]
    # CHECK: host-wrong-memory-space.py:[[@LINE-4]]:5: note: device memory allocated here by 'cudaMalloc'
    return host


# --- correct code: silent ---------------------------------------------------------


def download_with_cuda_memcpy(n):
    d = ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(d), n * 4))
    out = np.empty(n, dtype=np.float32)
    check(cudart.cudaMemcpy(out.ctypes.data, d, n * 4, cudaMemcpyDeviceToHost))
    check(cudart.cudaFree(d))
    return out


def between_host_arrays(n):
    a = np.zeros(n, dtype=np.float32)
    b = np.empty(n, dtype=np.float32)
    ctypes.memmove(b.ctypes.data, a.ctypes.data, n * 4)
    ctypes.memset(a.ctypes.data, 0, n * 4)
    return b


def pinned_memory(n):
    a = np.zeros(n, dtype=np.float32)
    p = ctypes.c_void_p()
    check(cudart.cudaMallocHost(ctypes.byref(p), n * 4))
    ctypes.memmove(p, a.ctypes.data, n * 4)
    ctypes.memset(p, 0, n * 4)
    ctypes.memmove(a.ctypes.data, p, n * 4)
    check(cudart.cudaFreeHost(p))
    return a


def managed_memory(n):
    b = np.empty(n, dtype=np.float32)
    m = ctypes.c_void_p()
    check(cudart.cudaMallocManaged(ctypes.byref(m), n * 4, 1))
    check(cudart.cudaDeviceSynchronize())
    ctypes.memset(m, 0, n * 4)
    ctypes.memmove(b.ctypes.data, m, n * 4)
    check(cudart.cudaFree(m))
    return b


def unknown_addresses(dst, src, n):
    ctypes.memmove(dst, src, n)
    ctypes.memset(dst, 0, n)


def buffers_of_ctypes(n):
    src = (ctypes.c_char * 16)()
    dst = ctypes.create_string_buffer(16)
    ctypes.memmove(dst, src, 16)


# CHECK: exit=1
