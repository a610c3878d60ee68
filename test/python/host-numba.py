# Numba's numba.cuda host code (docs/python-host.md, CUDA_PYTHON_ARRAY,
# CUDA_PYTHON_ARRAY_COPY and CUDA_PYTHON_KERNEL rows): every call raises on
# error, arrays are freed when collected, a copy with a stream and a kernel
# launch are asynchronous. The host reads of pinned, mapped and managed
# memory before the work that writes it is synchronized are found; pageable
# host arrays are written before Numba's calls return.
# RUN: %cuda-tidy --no-cache --quiet %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=note:
import numpy as np
from numba import cuda


@cuda.jit(device=True)
def twice(v):
    return v * 2


@cuda.jit
def scale(out, x, n):
    i = cuda.grid(1)
    if i < n:
        out[i] = twice(x[i])


@cuda.jit("void(float32[:], int64)")
def fill(out, n):
    i = cuda.grid(1)
    if i < n:
        out[i] = i


def pinned_copy_read(n):
    s = cuda.stream()
    h = cuda.pinned_array(n, dtype=np.float32)
    d = cuda.device_array(n, dtype=np.float32)
    fill[(n + 255) // 256, 256, s](d, n)
    d.copy_to_host(h, stream=s)
    first = h[0]
    # CHECK: host-numba.py:[[@LINE-1]]:13: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
    # CHECK: host-numba.py:[[@LINE-3]]:7: note: asynchronous copy queued here on stream 's'
    s.synchronize()
    return first


def mapped_kernel_read(n):
    m = cuda.mapped_array(n, dtype=np.float32)
    fill[1, 256](m, n)
    total = m[0]
    # CHECK: host-numba.py:[[@LINE-1]]:13: warning: 'm' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
    # CHECK: host-numba.py:[[@LINE-3]]:5: note: kernel 'fill' queued here on the default stream
    cuda.synchronize()
    return total


def managed_kernel_read(n):
    a = cuda.managed_array(n, dtype=np.float64)
    x = cuda.device_array(n)
    scale[1, 256](a, x, n)
    if a[1] > 0:
    # CHECK: host-numba.py:[[@LINE-1]]:8: warning: 'a' is read on the host before the kernel 'scale' that writes it is synchronized [cuda-missing-host-sync]
    # CHECK: host-numba.py:[[@LINE-3]]:5: note: kernel 'scale' queued here on the default stream
        cuda.synchronize()
    return a


def pinned_kernel_argument(n):
    # A host array given to a kernel launched on a stream is copied back on
    # that stream: a pinned one is written after the launch returns.
    s = cuda.stream()
    h = cuda.pinned_array(n, dtype=np.float32)
    fill[1, 256, s](h, n)
    last = h[n - 1]
    # CHECK: host-numba.py:[[@LINE-1]]:12: warning: 'h' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
    # CHECK: host-numba.py:[[@LINE-3]]:5: note: kernel 'fill' queued here on stream 's'
    s.synchronize()
    return last


def pinned_upload_overwritten(n):
    s = cuda.stream()
    h = cuda.pinned_array(n, dtype=np.float32)
    d = cuda.to_device(h, stream=s)
    h[0] = 1.0
    # CHECK: host-numba.py:[[@LINE-1]]:5: warning: 'h' is written on the host while the asynchronous copy that uses it may still be running [cuda-missing-host-sync]
    # CHECK: host-numba.py:[[@LINE-3]]:9: note: asynchronous copy queued here on stream 's'
    s.synchronize()
    return d


def pageable_async_copy(n):
    # A copy with a stream into pageable memory returns once it is done
    # today (CUDA's rule for pageable memory), but Numba documents it as
    # asynchronous: the check's message says so.
    s = cuda.stream()
    h = np.empty(n, dtype=np.float32)
    d = cuda.device_array(n, dtype=np.float32)
    fill[1, 256, s](d, n)
    d.copy_to_host(h, stream=s)
    fresh = d.copy_to_host(stream=s)
    return h[0] + fresh[0]
    # CHECK: host-numba.py:[[@LINE-1]]:12: warning: 'h' is read on the host before the asynchronous copy into it is known to finish; it works only while 'h' is pageable memory, for which the copy returns when done [cuda-missing-host-sync]
    # CHECK: host-numba.py:[[@LINE-4]]:7: note: asynchronous copy queued here on stream 's'
    # CHECK: host-numba.py:[[@LINE-3]]:19: warning: 'fresh' is read on the host before the asynchronous copy into it is known to finish; it works only while 'fresh' is pageable memory, for which the copy returns when done [cuda-missing-host-sync]
    # CHECK: host-numba.py:[[@LINE-5]]:15: note: asynchronous copy queued here on stream 's'


def registered_read(n):
    # with cuda.pinned(h): h is page-locked for the block, so the copy with
    # a stream into it is asynchronous.
    s = cuda.stream()
    h = np.zeros(n, dtype=np.float32)
    d = cuda.device_array(n, dtype=np.float32)
    with cuda.pinned(h):
        d.copy_to_host(h, stream=s)
        peek = h[0]
        # CHECK: host-numba.py:[[@LINE-1]]:16: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
        # CHECK: host-numba.py:[[@LINE-3]]:11: note: asynchronous copy queued here on stream 's'
        s.synchronize()
    return peek


# Idiomatic Numba: nothing to report.
def registered_synchronized(n):
    s = cuda.stream()
    h = np.zeros(n, dtype=np.float32)
    d = cuda.to_device(h, stream=s)
    with cuda.pinned(h):
        d.copy_to_host(h, stream=s)
        s.synchronize()
    return h[0]


def synchronous_round_trip(n):
    x = np.arange(n, dtype=np.float32)
    d_x = cuda.to_device(x)
    d_out = cuda.device_array_like(x)
    scale[(n + 255) // 256, 256](d_out, d_x, n)
    out = d_out.copy_to_host()
    return out[0] + d_out[1]


def stream_synchronized(n):
    s = cuda.stream()
    h = cuda.pinned_array(n, dtype=np.float32)
    d = cuda.device_array(n, dtype=np.float32)
    fill[1, 256, s](d, n)
    d.copy_to_host(h, stream=s)
    s.synchronize()
    return h[0]


def device_synchronized(n):
    m = cuda.mapped_array(n, dtype=np.float32)
    fill[1, 256](m, n)
    cuda.synchronize()
    return m[0]


def context_synchronized(n):
    m = cuda.mapped_array(n, dtype=np.float32)
    fill[1, 256](m, n)
    cuda.current_context().synchronize()
    return m[0]


def pageable_kernel_arguments(n):
    # Numba copies host arrays in and out around the launch.
    s = cuda.stream()
    x = np.ones(n, dtype=np.float32)
    out = np.zeros(n, dtype=np.float32)
    scale[1, 256, s](out, x, n)
    p = cuda.pinned_array(n, dtype=np.float32)
    fill[1, 256](p, n)
    return out[0] + p[0] + x[0]


def device_arrays_are_collected(n):
    d = cuda.device_array((n, 4), dtype=np.int32)
    e = cuda.device_array(n)
    s = cuda.stream()
    return d.shape[0] + e.size


def upload_then_synchronize(n):
    s = cuda.stream()
    h = cuda.pinned_array(n, dtype=np.float32)
    d = cuda.to_device(h, stream=s)
    s.synchronize()
    h[0] = 1.0
    return d
# CHECK: exit=1
