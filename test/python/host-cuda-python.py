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
    # CHECK: host-cuda-python.py:[[@LINE-1]]:20: warning: {{.*}}'cudaMalloc'{{.*}} [cuda-unchecked-api-call]
    err, = cudart.cudaFree(ptr)
    check(err)


def never_tested(n):
    err, ptr = cudart.cudaMalloc(n * 4)
    # CHECK: host-cuda-python.py:[[@LINE-1]]:23: warning: {{.*}}'cudaMalloc'{{.*}}'err'{{.*}} [cuda-unchecked-api-call]
    check(cudart.cudaFree(ptr)[0])


def leaked_on_error(n):
    err, ptr = cudart.cudaMalloc(n * 4)
    check(err)
    host = np.zeros(n, dtype=np.float32)
    err, = cudart.cudaMemcpy(host.ctypes.data, ptr, n * 4, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice)
    # CHECK: host-cuda-python.py:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}cudaMemcpyHostToDevice{{.*}} [cuda-memcpy-direction]
    if err != cudart.cudaError_t.cudaSuccess:
        return None
        # CHECK: host-cuda-python.py:[[@LINE-1]]:9: warning: {{.*}}'ptr'{{.*}} [cuda-device-memory-leak]
    check(cudart.cudaFree(ptr)[0])
    return host


def first_result(n):
    ptr = cudart.cudaMalloc(n * 4)[1]
    # CHECK: host-cuda-python.py:[[@LINE-1]]:18: warning: {{.*}}'cudaMalloc'{{.*}} [cuda-unchecked-api-call]
    check(cudart.cudaFree(ptr)[0])


def driver_unchecked():
    driver.cuInit(0)
    # CHECK: host-cuda-python.py:[[@LINE-1]]:12: warning: {{.*}}'cuInit'{{.*}} [cuda-unchecked-api-call]
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
