# CUDA functions called by a bare name: imported from a cuda-python module
# (`from cuda.bindings.driver import cuInit`, under an alias too, or with
# `import *`, as users of a generated binding module write), or bound at
# module level to a function of a ctypes handle (`cuInit = _drv.cuInit`,
# `getattr(_rt, "cudaFree")`). A name that the file defines, or that a
# function binds locally, is not a CUDA function.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-unchecked-api-call,cuda-device-memory-leak' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

from cuda.bindings.driver import cuInit, CUresult
from cuda.bindings.driver import cuCtxSynchronize as ctx_sync
from cuda.bindings.runtime import *

_drv = ctypes.CDLL("libcuda.so.1")
_rt = ctypes.CDLL("libcudart.so")
cuDriverGetVersion = _drv.cuDriverGetVersion
rt_free = getattr(_rt, "cudaFree")


def start_driver():
    cuInit(0)
    # CHECK: host-bare-names.py:[[@LINE-1]]:5: warning: the error code returned by 'cuInit' is not checked [cuda-unchecked-api-call]
    ctx_sync()
    # CHECK: host-bare-names.py:[[@LINE-1]]:5: warning: the error code returned by 'cuCtxSynchronize' is not checked [cuda-unchecked-api-call]


def start_checked():
    err, = cuInit(0)
    if err != CUresult.CUDA_SUCCESS:
        raise RuntimeError("cuInit failed: %s" % err)


def scratch(n):
    err, buf = cudaMalloc(n)
    # CHECK: host-bare-names.py:[[@LINE-1]]:16: warning: device memory allocated into 'buf' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-bare-names.py:[[@LINE+4]]:9: note: 'buf' still holds it when the function returns here
    if err != cudaError_t.cudaSuccess:
        raise RuntimeError("no memory")
    if n > 4096:
        return None
    err, = cudaFree(buf)
    if err != cudaError_t.cudaSuccess:
        raise RuntimeError("free failed")
    return n


def ctypes_aliases(p):
    version = ctypes.c_int()
    cuDriverGetVersion(ctypes.byref(version))
    # CHECK: host-bare-names.py:[[@LINE-1]]:5: warning: the error code returned by 'cuDriverGetVersion' is not checked [cuda-unchecked-api-call]
    if rt_free(p) != 0:
        raise RuntimeError("cudaFree failed")
    return version.value


# Negatives: a function of the file with a CUDA name, and a local that
# shadows one.
def cudaDeviceSynchronize():
    return 0


def own_function():
    cudaDeviceSynchronize()


def shadowed(lib):
    cudaStreamSynchronize = lib.sync
    cudaStreamSynchronize(0)


# libcuda exports the current ABI under versioned names: a ctypes caller
# calls cuMemFree_v2, which is cuMemFree.
def versioned(p):
    _drv.cuMemFree_v2(p)
    # CHECK: host-bare-names.py:[[@LINE-1]]:10: warning: the error code returned by 'cuMemFree_v2' is not checked [cuda-unchecked-api-call]
    if _drv.cuCtxSynchronize() != 0:
        raise RuntimeError("sync failed")
