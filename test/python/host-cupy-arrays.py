# CuPy arrays as device buffers: a local bound once to cupy.empty/zeros/
# ones/full/arange with a known size and dtype is device memory of that
# byte size (CuPy frees it when the array is collected: never a leak), and
# a.data.ptr is its address in bytes, so copies into and out of it through
# ctypes get the size and direction facts of a .cu file.
# RUN: %cuda-tidy --no-cache --quiet %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

import cupy as cp
import numpy as np

cudart = ctypes.CDLL("libcudart.so")
cudaMemcpyHostToDevice = 1
cudaMemcpyDeviceToHost = 2


def check(err):
    if err != 0:
        raise RuntimeError("CUDA error %d" % err)


def copy_too_much(n):
    dev = cp.empty(n, dtype=cp.float32)
    host = np.zeros(n, dtype=np.float32)
    check(cudart.cudaMemcpy(ctypes.c_void_p(dev.data.ptr), host.ctypes.data, ctypes.c_size_t(n * 8),
                            cudaMemcpyHostToDevice))
    # CHECK: host-cupy-arrays.py:[[@LINE-2]]:18: warning: 'cudaMemcpy' copies 'n * 8' bytes, more than the 'n * sizeof(float)' bytes of 'dev' [cuda-memcpy-size]
    return host


def copy_swapped(n):
    dev = cp.zeros(n, dtype=cp.float32)
    host = np.empty(n, dtype=np.float32)
    check(cudart.cudaMemcpy(host.ctypes.data, ctypes.c_void_p(dev.data.ptr), ctypes.c_size_t(n * 4),
                            cudaMemcpyHostToDevice))
    # CHECK: host-cupy-arrays.py:[[@LINE-2]]:18: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'host' is host memory and the source 'dev' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
    return host


def copy_right(n):
    dev = cp.zeros(n, dtype=cp.float32)
    host = np.empty(n, dtype=np.float32)
    check(cudart.cudaMemcpy(host.ctypes.data, ctypes.c_void_p(dev.data.ptr), ctypes.c_size_t(n * 4),
                            cudaMemcpyDeviceToHost))
    check(cudart.cudaMemcpy(ctypes.c_void_p(dev.data.ptr), host.ctypes.data, ctypes.c_size_t(host.nbytes),
                            cudaMemcpyHostToDevice))
    return host


def copy_second_half(n):
    dev = cp.zeros(2 * n, dtype=cp.float32)
    host = np.empty(n, dtype=np.float32)
    check(cudart.cudaMemcpy(host.ctypes.data, ctypes.c_void_p(dev.data.ptr + n * 4), ctypes.c_size_t(n * 4),
                            cudaMemcpyDeviceToHost))
    return host


def rebound(n, m):
    # bound twice: its size is not known, nothing is claimed
    dev = cp.zeros(n, dtype=cp.float32)
    dev = cp.zeros(m, dtype=cp.float32)
    host = np.empty(2 * n, dtype=np.float32)
    check(cudart.cudaMemcpy(host.ctypes.data, ctypes.c_void_p(dev.data.ptr), ctypes.c_size_t(n * 8),
                            cudaMemcpyDeviceToHost))
    return host


def unknown_dtype(n, dtype):
    dev = cp.empty(n, dtype=dtype)
    host = np.empty(2 * n, dtype=np.float32)
    check(cudart.cudaMemcpy(host.ctypes.data, ctypes.c_void_p(dev.data.ptr), ctypes.c_size_t(n * 8),
                            cudaMemcpyDeviceToHost))
    return host


def from_host(a):
    dev = cp.asarray(a)
    host = np.empty(16, dtype=np.float32)
    check(cudart.cudaMemcpy(host.ctypes.data, ctypes.c_void_p(dev.data.ptr), ctypes.c_size_t(64),
                            cudaMemcpyDeviceToHost))
    return host


def array_operations(n):
    # what CuPy does with its arrays is not host code: no finding
    dev = cp.zeros(2 * n, dtype=cp.float32)
    first = dev[0]
    dev[1] = 2.0
    total = dev.sum()
    doubled = dev * 2
    back = cp.asnumpy(dev)
    ptr = int(dev.data)
    del dev
    return first, total, doubled, back, ptr
# CHECK: exit=1
