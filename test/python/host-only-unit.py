# Host code alone is analysed without CUDA's runtime wrapper (-nocudainc,
# docs/python-host.md "Cost"); what it finds must not change. Here a status
# checker that raises sits between an asynchronous copy into pinned memory
# and the host's read of it: the raise is no wait for the device, so the
# read is still reported (it was lost once, when the prelude's raise called
# a builtin first declared outside a system header).
# RUN: %cuda-tidy --no-cache --quiet --checks=-*,cuda-missing-host-sync %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

cudart = ctypes.CDLL("libcudart.so")
cudaMemcpyDeviceToHost = 2


def check(err):
    if err != 0:
        raise RuntimeError("CUDA error %d" % err)


def read_back(n, d, stream):
    h = ctypes.c_void_p()
    check(cudart.cudaMallocHost(ctypes.byref(h), n * 4))
    values = ctypes.cast(h, ctypes.POINTER(ctypes.c_float))
    check(cudart.cudaMemcpyAsync(values, d, n * 4, cudaMemcpyDeviceToHost, stream))
    last = values[n - 1]
    # CHECK: host-only-unit.py:[[@LINE-1]]:12: warning: 'values' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
    check(cudart.cudaStreamSynchronize(stream))
    check(cudart.cudaFreeHost(h))
    return last


def read_back_synchronized(n, d, stream):
    h = ctypes.c_void_p()
    check(cudart.cudaMallocHost(ctypes.byref(h), n * 4))
    values = ctypes.cast(h, ctypes.POINTER(ctypes.c_float))
    check(cudart.cudaMemcpyAsync(values, d, n * 4, cudaMemcpyDeviceToHost, stream))
    check(cudart.cudaStreamSynchronize(stream))
    last = values[n - 1]
    check(cudart.cudaFreeHost(h))
    return last

# CHECK: exit=1
