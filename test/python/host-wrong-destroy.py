# A handle given to the destroy of another kind of object, from Python: a
# ctypes c_void_p holds any handle, so nothing stops an event reaching
# cudaStreamDestroy or a syevj info object reaching
# cusolverDnDestroyGesvdjInfo. The reader types each handle variable by the
# create that fills it, and cuda-invalid-free compares it with what the
# destroy takes. A variable that creates of both kinds fill (one c_void_p
# reused for an event and then a stream) is silent. CuPy's bindings
# imported as `from cupy.cuda import cusolver` are read as host code too.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-invalid-free' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

from cuda.bindings import runtime
from cupy.cuda import cusolver

_cudart = ctypes.CDLL("libcudart.so")
_libcusolver = ctypes.CDLL("libcusolver.so.11")
_libcusparse = ctypes.CDLL("libcusparse.so.12")


# ---- positives --------------------------------------------------------------

def event_as_stream():
    ev = ctypes.c_void_p()
    if _cudart.cudaEventCreate(ctypes.byref(ev)) != 0:
        return
    if _cudart.cudaStreamDestroy(ev) != 0:
        # CHECK: host-wrong-destroy.py:[[@LINE-1]]:34: warning: 'ev' is a 'cudaEvent_t', but it is destroyed with 'cudaStreamDestroy', which takes a 'cudaStream_t' [cuda-invalid-free]
        raise RuntimeError("cudaStreamDestroy failed")


def syevj_as_gesvdj():
    info = ctypes.c_void_p()
    if _libcusolver.cusolverDnCreateSyevjInfo(ctypes.byref(info)) != 0:
        return
    _libcusolver.cusolverDnDestroyGesvdjInfo(info)
    # CHECK: host-wrong-destroy.py:[[@LINE-1]]:46: warning: 'info' is a 'syevjInfo_t', but it is destroyed with 'cusolverDnDestroyGesvdjInfo', which takes a 'gesvdjInfo_t' [cuda-invalid-free]


def info_as_handle():
    info = ctypes.c_void_p()
    if _libcusolver.cusolverDnCreateGesvdjInfo(ctypes.byref(info)) != 0:
        return
    _libcusolver.cusolverDnDestroy(info)
    # CHECK: host-wrong-destroy.py:[[@LINE-1]]:36: warning: 'info' is a 'gesvdjInfo_t', but it is destroyed with 'cusolverDnDestroy', which takes a 'cusolverDnHandle_t' [cuda-invalid-free]


def python_event_as_stream():
    err, ev = runtime.cudaEventCreate()
    if err != runtime.cudaError_t.cudaSuccess:
        return
    err, = runtime.cudaStreamDestroy(ev)
    # CHECK: host-wrong-destroy.py:[[@LINE-1]]:38: warning: 'ev' is a 'cudaEvent_t', but it is destroyed with 'cudaStreamDestroy', which takes a 'cudaStream_t' [cuda-invalid-free]
    if err != runtime.cudaError_t.cudaSuccess:
        raise RuntimeError("cudaStreamDestroy failed")


def cupy_eig_params(handle, n):
    # Jacobi parameters of syevj released by the gesvdj destroy
    params = cusolver.createSyevjInfo()
    cusolver.xsyevjSetMaxSweeps(params, 100)
    cusolver.destroyGesvdjInfo(params)
    # CHECK: host-wrong-destroy.py:[[@LINE-1]]:32: warning: 'params' is a 'syevjInfo_t', but it is destroyed with 'cusolverDnDestroyGesvdjInfo', which takes a 'gesvdjInfo_t' [cuda-invalid-free]


class Timer:
    def __init__(self):
        self.start = ctypes.c_void_p()
        if _cudart.cudaEventCreate(ctypes.byref(self.start)) != 0:
            raise RuntimeError("cudaEventCreate failed")

    def close(self):
        if _cudart.cudaStreamDestroy(self.start) != 0:
            # CHECK: host-wrong-destroy.py:[[@LINE-1]]:38: warning: 'start' is a 'cudaEvent_t', but it is destroyed with 'cudaStreamDestroy', which takes a 'cudaStream_t' [cuda-invalid-free]
            raise RuntimeError("cudaStreamDestroy failed")


# ---- negatives --------------------------------------------------------------

def each_its_own():
    ev = ctypes.c_void_p()
    stream = ctypes.c_void_p()
    if _cudart.cudaEventCreate(ctypes.byref(ev)) != 0:
        return
    if _cudart.cudaStreamCreate(ctypes.byref(stream)) != 0:
        _cudart.cudaEventDestroy(ev)
        return
    _cudart.cudaStreamDestroy(stream)
    _cudart.cudaEventDestroy(ev)


def one_variable_two_objects():
    # a c_void_p reused: an event first, then a stream
    h = ctypes.c_void_p()
    if _cudart.cudaEventCreate(ctypes.byref(h)) != 0:
        return
    _cudart.cudaEventDestroy(h)
    if _cudart.cudaStreamCreate(ctypes.byref(h)) != 0:
        return
    _cudart.cudaStreamDestroy(h)


def solver_objects():
    handle = ctypes.c_void_p()
    syevj = ctypes.c_void_p()
    gesvdj = ctypes.c_void_p()
    if _libcusolver.cusolverDnCreate(ctypes.byref(handle)) != 0:
        return
    try:
        if _libcusolver.cusolverDnCreateSyevjInfo(ctypes.byref(syevj)) == 0:
            _libcusolver.cusolverDnDestroySyevjInfo(syevj)
        if _libcusolver.cusolverDnCreateGesvdjInfo(ctypes.byref(gesvdj)) == 0:
            _libcusolver.cusolverDnDestroyGesvdjInfo(gesvdj)
    finally:
        _libcusolver.cusolverDnDestroy(handle)


def python_streams():
    err, stream = runtime.cudaStreamCreate()
    if err != runtime.cudaError_t.cudaSuccess:
        return
    err, ev = runtime.cudaEventCreate()
    if err == runtime.cudaError_t.cudaSuccess:
        err, = runtime.cudaEventDestroy(ev)
    err, = runtime.cudaStreamDestroy(stream)


def cupy_params_clean(n):
    syevj = cusolver.createSyevjInfo()
    try:
        cusolver.xsyevjSetMaxSweeps(syevj, 100)
    finally:
        cusolver.destroySyevjInfo(syevj)
    gesvdj = cusolver.createGesvdjInfo()
    cusolver.destroyGesvdjInfo(gesvdj)


def given(handle, ev):
    # handles from the caller: their kind is unknown
    _cudart.cudaStreamDestroy(handle)
    _libcusolver.cusolverDnDestroy(ev)


class Streams:
    def __init__(self):
        self.stream = ctypes.c_void_p()
        if _cudart.cudaStreamCreate(ctypes.byref(self.stream)) != 0:
            raise RuntimeError("cudaStreamCreate failed")

    def close(self):
        if _cudart.cudaStreamDestroy(self.stream) != 0:
            raise RuntimeError("cudaStreamDestroy failed")

# CHECK: exit=1
