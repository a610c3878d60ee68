# cuda-python (cuda.bindings.runtime / driver, and the older cuda.cudart /
# cuda.cuda): a call returns (err, value...); the error is unchecked when
# the status is dropped or never tested (docs/python-host.md).
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-unchecked-api-call,cuda-device-memory-leak,cuda-memcpy-direction,cuda-memcpy-size' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import numpy as np
from cuda.bindings import driver
from cuda.bindings import runtime as cudart
from cuda import cuda


def check(err):
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError(cudart.cudaGetErrorString(err))


def dropped_status(n):
    _, ptr = cudart.cudaMalloc(n * 4)
    # CHECK: host-cuda-python.py:[[@LINE-1]]:21: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
    err, = cudart.cudaFree(ptr)
    check(err)


def never_tested(n):
    err, ptr = cudart.cudaMalloc(n * 4)
    # CHECK: host-cuda-python.py:[[@LINE-1]]:23: warning: the error code returned by 'cudaMalloc' is stored in 'err' but never read [cuda-unchecked-api-call]
    check(cudart.cudaFree(ptr)[0])


def leaked_on_error(n):
    err, ptr = cudart.cudaMalloc(n * 4)
    # CHECK: host-cuda-python.py:[[@LINE-1]]:23: warning: device memory allocated into 'ptr' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-cuda-python.py:[[@LINE+8]]:9: note: 'ptr' still holds it when the function returns here
    check(err)
    host = np.zeros(n, dtype=np.float32)
    err, = cudart.cudaMemcpy(host.ctypes.data, ptr, n * 4, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice)
    # CHECK: host-cuda-python.py:[[@LINE-1]]:19: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'host' is host memory and the source 'ptr' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
    # CHECK: host-cuda-python.py:[[@LINE-3]]:12: note: host memory allocated here by 'np.zeros'
    # CHECK: host-cuda-python.py:[[@LINE-8]]:23: note: device memory allocated here by 'cudaMalloc'
    if err != cudart.cudaError_t.cudaSuccess:
        return None
    check(cudart.cudaFree(ptr)[0])
    return host


def first_result(n):
    ptr = cudart.cudaMalloc(n * 4)[1]
    # CHECK: host-cuda-python.py:[[@LINE-1]]:18: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
    check(cudart.cudaFree(ptr)[0])


def driver_unchecked():
    driver.cuInit(0)
    # CHECK: host-cuda-python.py:[[@LINE-1]]:12: warning: the error code returned by 'cuInit' is not checked [cuda-unchecked-api-call]
    err, dev = driver.cuDeviceGet(0)
    check(err)
    err, count = cuda.cuDeviceGetCount()
    if err != cuda.CUresult.CUDA_SUCCESS:
        raise RuntimeError("no devices")
    return dev, count


# Idiomatic code: nothing to report.
def checked(n):
    err, ptr = cudart.cudaMalloc(n * 4)
    check(err)
    try:
        host = np.empty(n, dtype=np.float32)
        err, = cudart.cudaMemcpy(host.ctypes.data, ptr, n * 4, cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost)
        check(err)
    finally:
        check(cudart.cudaFree(ptr)[0])
    return host


def returned(n):
    err, ptr = cudart.cudaMalloc(n)
    check(err)
    return ptr


def wrapped(n):
    return check_result(cudart.cudaMalloc(n))


def check_result(result):
    if result[0].value:
        raise RuntimeError("CUDA error")
    return result[1]
# CHECK: exit=1
