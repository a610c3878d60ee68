# PyCUDA's driver module and CuPy's runtime module raise on error: their
# calls are never unchecked. A DeviceAllocation is freed when Python
# collects it (no leak), but an explicit free() twice, or a use after it,
# is a bug; cupy.cuda.runtime.malloc memory is the caller's to free.
# RUN: %cuda-tidy --no-cache --quiet %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import numpy as np
import pycuda.driver as cuda
import cupy


def freed_twice(n):
    a = cuda.mem_alloc(n * 4)
    host = np.zeros(n, dtype=np.float32)
    cuda.memcpy_htod(a, host)
    cuda.memcpy_dtoh(host, a)
    a.free()
    a.free()
    # CHECK: host-pycuda.py:[[@LINE-1]]:7: warning: 'a' is freed twice: it was already freed on every path to this 'cuMemFree_v2' [cuda-invalid-free]
    # CHECK: host-pycuda.py:[[@LINE-3]]:7: note: the memory was freed here
    return host


def used_after_free(n):
    a = cuda.mem_alloc(n * 4)
    host = np.zeros(n, dtype=np.float32)
    a.free()
    cuda.memcpy_htod(a, host)
    # CHECK: host-pycuda.py:[[@LINE-1]]:5: warning: 'a' is written by a copy after it was freed [cuda-invalid-free]
    # CHECK: host-pycuda.py:[[@LINE-3]]:7: note: the memory was freed here


def read_after_free(n):
    a = cuda.mem_alloc(n * 4)
    host = np.zeros(n, dtype=np.float32)
    cuda.memcpy_htod(a, host)
    a.free()
    cuda.memcpy_dtoh(host, a)
    # CHECK: host-pycuda.py:[[@LINE-1]]:5: warning: 'a' is read by a copy after it was freed [cuda-invalid-free]
    # CHECK: host-pycuda.py:[[@LINE-3]]:7: note: the memory was freed here
    return host


def raw_pointer_leaked(n):
    p = cupy.cuda.runtime.malloc(n * 4)
    # CHECK: host-pycuda.py:[[@LINE-1]]:27: warning: device memory allocated into 'p' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    cupy.cuda.runtime.memset(p, 0, n * 4)
    if n > 1024:
        return None
        # CHECK: host-pycuda.py:[[@LINE-1]]:9: note: 'p' still holds it when the function returns here
    cupy.cuda.runtime.free(p)


# Idiomatic code: nothing to report.
def freed_on_one_path(n, keep):
    # Freed on one path only: cuda-invalid-free reports a use only after a
    # free on every path.
    a = cuda.mem_alloc(n * 4)
    host = np.zeros(n, dtype=np.float32)
    if not keep:
        a.free()
    if keep:
        cuda.memcpy_dtoh(host, a)
    return host


def allocated_again(n):
    a = cuda.mem_alloc(n * 4)
    host = np.zeros(n, dtype=np.float32)
    a.free()
    a = cuda.mem_alloc(n * 4)
    cuda.memcpy_htod(a, host)
    a.free()


def collected(n):
    a = cuda.mem_alloc(n * 4)
    host = np.ones(n, dtype=np.float32)
    cuda.memcpy_htod(a, host)
    return host


def raw_pointer_freed(n):
    p = cupy.cuda.runtime.malloc(n * 4)
    try:
        cupy.cuda.runtime.memset(p, 0, n * 4)
        s = cupy.cuda.runtime.streamCreate()
        cupy.cuda.runtime.streamSynchronize(s)
        cupy.cuda.runtime.streamDestroy(s)
    finally:
        cupy.cuda.runtime.free(p)


def freed_once(n):
    a = cuda.mem_alloc(n * 4)
    a.free()
    b = cuda.mem_alloc(n * 4)
    b.free()
# CHECK: exit=1
