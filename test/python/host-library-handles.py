# Handles of the CUDA libraries made from Python: through a ctypes CDLL of
# libcublas/libcufft (Status convention), scikit-cuda's wrappers and CuPy's
# bindings (they raise on error). Each create is the C function it calls, so
# cuda-device-memory-leak follows the handle as in a .cu file
# (CheckedResources' LibraryHandles): a handle, plan or info object not
# destroyed on some path (an early return, a raise) is reported; one
# destroyed in a finally, or returned to the caller, is not.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-device-memory-leak' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

from cupy_backends.cuda.libs import cusparse as _cusparse
from skcuda import cublas, cufft

_libcublas = ctypes.CDLL("libcublas.so.12")
_libcufft = ctypes.cdll.LoadLibrary("libcufft.so.11")


def scale_with_blas(x, n):
    handle = ctypes.c_void_p()
    status = _libcublas.cublasCreate_v2(ctypes.byref(handle))
    # CHECK: host-library-handles.py:[[@LINE-1]]:25: warning: cuBLAS handle allocated into 'handle' by 'cublasCreate_v2' is not destroyed on every path [cuda-device-memory-leak]
    if status != 0:
        raise RuntimeError("cublasCreate failed")
    if n == 0:
        return 0
    # CHECK: host-library-handles.py:[[@LINE-1]]:9: note: 'handle' still holds it when the function returns here
    _libcublas.cublasDestroy_v2(handle)
    return n


def scale_with_blas_fixed(x, n):
    handle = ctypes.c_void_p()
    status = _libcublas.cublasCreate_v2(ctypes.byref(handle))
    if status != 0:
        raise RuntimeError("cublasCreate failed")
    try:
        if n == 0:
            return 0
        return n
    finally:
        _libcublas.cublasDestroy_v2(handle)


def plan_only(n):
    plan = ctypes.c_int()
    status = _libcufft.cufftPlan1d(ctypes.byref(plan), n, 0x29, 1)
    # CHECK: host-library-handles.py:[[@LINE-1]]:24: warning: cuFFT plan allocated into 'plan' by 'cufftPlan1d' is not destroyed on every path [cuda-device-memory-leak]
    if status != 0:
        raise RuntimeError("cufftPlan1d failed")
    return n
    # CHECK: host-library-handles.py:[[@LINE-1]]:5: note: 'plan' still holds it when the function returns here


def make_plan(n):
    # the caller owns the plan: no leak here
    plan = ctypes.c_int()
    status = _libcufft.cufftPlan1d(ctypes.byref(plan), n, 0x29, 1)
    if status != 0:
        raise RuntimeError("cufftPlan1d failed")
    return plan


def factor(a, position):
    # the library's calls with no row of their own read the handles they
    # are given and keep none (cuda_tidy_host::library_use)
    handle = _cusparse.create()
    # CHECK: host-library-handles.py:[[@LINE-1]]:24: warning: cuSPARSE handle allocated into 'handle' by 'cusparseCreate' is not destroyed on every path [cuda-device-memory-leak]
    # CHECK: host-library-handles.py:[[@LINE+6]]:9: note: 'handle' still holds it when the function returns here
    info = _cusparse.createCsrilu02Info()
    # CHECK: host-library-handles.py:[[@LINE-1]]:22: warning: cuSPARSE descriptor allocated into 'info' by 'cusparseCreateCsrilu02Info' is not destroyed on every path [cuda-device-memory-leak]
    try:
        _cusparse.xcsrilu02_zeroPivot(handle, info, position)
    except Exception:
        raise ValueError("zero pivot")
    # CHECK: host-library-handles.py:[[@LINE-1]]:9: note: 'info' still holds it when the function returns here
    _cusparse.destroyCsrilu02Info(info)
    _cusparse.destroy(handle)


def factor_fixed(a, position):
    handle = _cusparse.create()
    info = _cusparse.createCsrilu02Info()
    zero_pivot = getattr(_cusparse, 'xcsrilu02_zeroPivot')
    try:
        zero_pivot(handle, info, position)
    except Exception:
        raise ValueError("zero pivot")
    finally:
        _cusparse.destroyCsrilu02Info(info)
        _cusparse.destroy(handle)


def factor_checked(a, position):
    # destroyed in the handler (then set to 0) and in the else: no leak
    handle = _cusparse.create()
    info = _cusparse.createCsrilu02Info()
    try:
        _cusparse.xcsrilu02_zeroPivot(handle, info, position)
    except Exception:
        if info != 0:
            _cusparse.destroyCsrilu02Info(info)
            info = 0
        _cusparse.destroy(handle)
        raise ValueError("zero pivot")
    else:
        _cusparse.destroyCsrilu02Info(info)
    _cusparse.destroy(handle)


def fft_once(x, n):
    plan = cufft.cufftPlan1d(n, cufft.CUFFT_C2C, 1)
    # CHECK: host-library-handles.py:[[@LINE-1]]:18: warning: cuFFT plan allocated into 'plan' by 'cufftPlan1d' is not destroyed on every path [cuda-device-memory-leak]
    if x is None:
        return None
    # CHECK: host-library-handles.py:[[@LINE-1]]:9: note: 'plan' still holds it when the function returns here
    cufft.cufftDestroy(plan)
    return x


def blas_session(x):
    handle = cublas.cublasCreate()
    try:
        return x
    finally:
        cublas.cublasDestroy(handle)


class Solver:
    def __init__(self):
        # kept by the object: not a leak of __init__
        self.handle = cublas.cublasCreate()

    def close(self):
        cublas.cublasDestroy(self.handle)
# CHECK: exit=1
