# cuSOLVER's dense handle, its 64-bit API parameters and its Jacobi info
# objects, and cuSPARSE's generic-API descriptors (a CSR matrix, a dense
# vector), made from Python: CuPy's bindings (cupy_backends.cuda.libs.cusolver
# and .cusparse, also as cupy.cuda.*; they raise on error) and a ctypes CDLL
# of libcusolver (its calls return the cusolverStatus_t). A handle or
# descriptor that some path never destroys is cuda-device-memory-leak's; one
# destroyed twice, or used after its destroy, is cuda-invalid-free's.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-device-memory-leak,cuda-invalid-free' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

from cupy.cuda import cusolver
from cupy_backends.cuda.libs import cusparse

_libcusolver = ctypes.CDLL("libcusolver.so.11")


# ---- positives --------------------------------------------------------------

def eig_leaks_info(a, n):
    handle = cusolver.create()
    info = cusolver.createSyevjInfo()
    # CHECK: host-solver-sparse-handles.py:[[@LINE-1]]:21: warning: cuSOLVER info object allocated into 'info' by 'cusolverDnCreateSyevjInfo' is not destroyed on every path [cuda-device-memory-leak]
    try:
        cusolver.xsyevjSetMaxSweeps(info, 100)
    finally:
        cusolver.destroy(handle)
    return a
    # CHECK: host-solver-sparse-handles.py:[[@LINE-1]]:5: note: 'info' still holds it when the function returns here


def spmv_early_return(nnz, rows, cols, indptr, indices, data, x, n):
    mat = cusparse.createCsr(rows, cols, nnz, indptr, indices, data, 2, 2, 0, 0)
    vec = cusparse.createDnVec(n, x, 0)
    # CHECK: host-solver-sparse-handles.py:[[@LINE-1]]:20: warning: cuSPARSE descriptor allocated into 'vec' by 'cusparseCreateDnVec' is not destroyed on every path [cuda-device-memory-leak]
    if n == 0:
        cusparse.destroySpMat(mat)
        return None
    # CHECK: host-solver-sparse-handles.py:[[@LINE-1]]:9: note: 'vec' still holds it when the function returns here
    cusparse.destroyDnVec(vec)
    cusparse.destroySpMat(mat)
    return x


def params_twice():
    params = cusolver.createParams()
    cusolver.destroyParams(params)
    cusolver.destroyParams(params)
    # CHECK: host-solver-sparse-handles.py:[[@LINE-1]]:14: warning: 'params' is destroyed twice: it was already destroyed on every path to this 'cusolverDnDestroyParams' [cuda-invalid-free]


def ctypes_handle_leak(n):
    handle = ctypes.c_void_p()
    status = _libcusolver.cusolverDnCreate(ctypes.byref(handle))
    # CHECK: host-solver-sparse-handles.py:[[@LINE-1]]:27: warning: cuSOLVER handle allocated into 'handle' by 'cusolverDnCreate' is not destroyed on every path [cuda-device-memory-leak]
    if status != 0:
        raise RuntimeError("cusolverDnCreate failed")
    if n == 0:
        return 0
    # CHECK: host-solver-sparse-handles.py:[[@LINE-1]]:9: note: 'handle' still holds it when the function returns here
    _libcusolver.cusolverDnDestroy(handle)
    return n


# ---- negatives --------------------------------------------------------------

def eig_clean(a, n):
    handle = cusolver.create()
    info = cusolver.createSyevjInfo()
    try:
        cusolver.xsyevjSetMaxSweeps(info, 100)
        return a
    finally:
        cusolver.destroySyevjInfo(info)
        cusolver.destroy(handle)


def svd_clean():
    info = cusolver.createGesvdjInfo()
    try:
        cusolver.xgesvdjSetTolerance(info, 1e-7)
    finally:
        cusolver.destroyGesvdjInfo(info)


def spmv_clean(nnz, rows, cols, indptr, indices, data, x, n):
    mat = cusparse.createCsr(rows, cols, nnz, indptr, indices, data, 2, 2, 0, 0)
    vec = cusparse.createDnVec(n, x, 0)
    try:
        if n == 0:
            return None
        return x
    finally:
        cusparse.destroyDnVec(vec)
        cusparse.destroySpMat(mat)


def ctypes_clean():
    handle = ctypes.c_void_p()
    if _libcusolver.cusolverDnCreate(ctypes.byref(handle)) != 0:
        raise RuntimeError("cusolverDnCreate failed")
    params = ctypes.c_void_p()
    if _libcusolver.cusolverDnCreateParams(ctypes.byref(params)) != 0:
        _libcusolver.cusolverDnDestroy(handle)
        raise RuntimeError("cusolverDnCreateParams failed")
    _libcusolver.cusolverDnDestroyParams(params)
    _libcusolver.cusolverDnDestroy(handle)


class Solver:
    def __init__(self):
        # kept by the object: no leak of __init__
        self.handle = cusolver.create()
        self.params = cusolver.createParams()

    def close(self):
        cusolver.destroyParams(self.params)
        cusolver.destroy(self.handle)


def make_descriptor(n, x):
    # the caller owns it
    return cusparse.createDnVec(n, x, 0)
# CHECK: exit=1
