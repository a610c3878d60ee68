# The statuses of the CUDA libraries called through a ctypes CDLL
# (cublasStatus_t, cufftResult, curandStatus_t, cusolverStatus_t: the
# Status convention) are checked as libcudart's are: one dropped, or
# stored and never tested, is cuda-unchecked-api-call's. scikit-cuda's
# wrappers and CuPy's bindings raise on a failed status: never unchecked.
# The legacy cuBLAS API (cublasSgemm, no _v2) returns nothing: not lowered.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-unchecked-api-call' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

import numpy as np
from cupy_backends.cuda.libs import cublas as cupy_cublas
from skcuda import cublas, cufft

_libcublas = ctypes.CDLL("libcublas.so.12")
_libcufft = ctypes.cdll.LoadLibrary("libcufft.so.11")
_libcurand = ctypes.CDLL("libcurand.so.10")
_libcusolver = ctypes.CDLL("libcusolver.so.11")


class CublasError(RuntimeError):
    pass


def check(status):
    if status != 0:
        raise CublasError(status)


def gemm_dropped(handle, a, b, c, m, n, k):
    alpha = ctypes.c_float(1.0)
    beta = ctypes.c_float(0.0)
    _libcublas.cublasSgemm_v2(handle, 0, 0, m, n, k, ctypes.byref(alpha), a, k,
    # CHECK: host-library-status.py:[[@LINE-1]]:16: warning: the error code returned by 'cublasSgemm_v2' is not checked [cuda-unchecked-api-call]
                              b, k, ctypes.byref(beta), c, m)
    return c


def fft_stored(plan, data):
    status = _libcufft.cufftExecC2C(plan, data, data, -1)
    # CHECK: host-library-status.py:[[@LINE-1]]:24: warning: the error code returned by 'cufftExecC2C' is stored in 'status' but never read [cuda-unchecked-api-call]
    return data


def seeded(gen, seed):
    _libcurand.curandSetPseudoRandomGeneratorSeed(gen, seed)
    # CHECK: host-library-status.py:[[@LINE-1]]:16: warning: the error code returned by 'curandSetPseudoRandomGeneratorSeed' is not checked [cuda-unchecked-api-call]
    status = _libcurand.curandGenerateUniform(gen, 0, 16)
    check(status)


def solver_handle():
    handle = ctypes.c_void_p()
    _libcusolver.cusolverDnCreate(ctypes.byref(handle))
    # CHECK: host-library-status.py:[[@LINE-1]]:18: warning: the error code returned by 'cusolverDnCreate' is not checked [cuda-unchecked-api-call]
    status = _libcusolver.cusolverDnDestroy(handle)
    if status != 0:
        raise RuntimeError("cusolverDnDestroy failed")


def blas_handle():
    handle = ctypes.c_void_p()
    _libcublas.cublasCreate_v2(ctypes.byref(handle))
    # CHECK: host-library-status.py:[[@LINE-1]]:16: warning: the error code returned by 'cublasCreate_v2' is not checked [cuda-unchecked-api-call]
    check(_libcublas.cublasDestroy_v2(handle))


# ---- Negatives ---------------------------------------------------------------

def gemm_checked(handle, a, b, c, m, n, k):
    alpha = ctypes.c_float(1.0)
    beta = ctypes.c_float(0.0)
    status = _libcublas.cublasSgemm_v2(handle, 0, 0, m, n, k, ctypes.byref(alpha),
                                       a, m, b, k, ctypes.byref(beta), c, m)
    check(status)
    check(_libcublas.cublasSaxpy_v2(handle, n, ctypes.byref(alpha), a, 1, c, 1))
    return c


def fft_tested(plan, data):
    if _libcufft.cufftExecC2C(plan, data, data, 1) != 0:
        raise RuntimeError("inverse transform failed")
    status = _libcufft.cufftExecZ2Z(plan, data, data, -1)
    if status:
        raise RuntimeError("forward transform failed")


def returned(gen, out, n):
    # the caller gets the status
    return _libcurand.curandGenerateNormal(gen, out, n, ctypes.c_float(0.0), ctypes.c_float(1.0))


def legacy(a, b, c, n):
    # the legacy API returns nothing (cublasGetError reports)
    _libcublas.cublasSgemm(b'N', b'N', n, n, n, 1.0, a, n, b, n, 0.0, c, n)


def skcuda_calls(a_gpu, b_gpu, c_gpu, n):
    # scikit-cuda raises cublasError on a failed status
    handle = cublas.cublasCreate()
    try:
        cublas.cublasSgemm(handle, 'n', 'n', n, n, n, 1.0, a_gpu, n, b_gpu, n, 0.0, c_gpu, n)
        cublas.cublasSaxpy(handle, n, 2.0, a_gpu, 1, b_gpu, 1)
    finally:
        cublas.cublasDestroy(handle)
    plan = cufft.cufftPlan1d(n, cufft.CUFFT_C2C, 1)
    cufft.cufftExecC2C(plan, a_gpu, a_gpu, cufft.CUFFT_FORWARD)
    cufft.cufftDestroy(plan)


def cupy_calls(x_ptr, y_ptr, n):
    # CuPy's bindings raise CUBLASError
    handle = cupy_cublas.create()
    try:
        cupy_cublas.saxpy(handle, n, 2.0, x_ptr, 1, y_ptr, 1)
    finally:
        cupy_cublas.destroy(handle)
# CHECK: exit=1
