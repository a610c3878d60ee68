# NVRTC from Python: cuda-python's nvrtc module (`from cuda.bindings import
# nvrtc`, the older `from cuda import nvrtc`) returns (err, value...) as its
# runtime and driver modules do, and a ctypes CDLL of libnvrtc returns the
# nvrtcResult as an int (CUDA_PYTHON_BINDING rows). The status dropped or
# never tested is cuda-unchecked-api-call's; a program that some path never
# destroys is cuda-device-memory-leak's (an NVRTC program: CUDA_RESOURCE).
# cuda-python's nvrtcDestroyProgram(prog) is the C nvrtcDestroyProgram(&prog)
# (CUDA_RESOURCE_BY_ADDRESS): it nulls the program, so an NVRTC call given
# the program after it fails (NVRTC_ERROR_INVALID_PROGRAM), which is
# cuda-invalid-free's use after destroy; a second destroy is a harmless
# error status (silent).
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-unchecked-api-call,cuda-device-memory-leak,cuda-invalid-free' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

from cuda.bindings import nvrtc

_libnvrtc = ctypes.CDLL("libnvrtc.so.12")

SAXPY = "extern \"C\" __global__ void saxpy(float a, float *x) { x[threadIdx.x] *= a; }"


def check(err):
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError("nvrtc: %s" % err)


# ---- positives --------------------------------------------------------------

def create_unchecked():
    err, prog = nvrtc.nvrtcCreateProgram(str.encode(SAXPY), b"saxpy.cu", 0, [], [])
    # CHECK: host-nvrtc.py:[[@LINE-1]]:23: warning: the error code returned by 'nvrtcCreateProgram' is stored in 'err' but never read [cuda-unchecked-api-call]
    check(nvrtc.nvrtcCompileProgram(prog, 0, [])[0])
    check(nvrtc.nvrtcDestroyProgram(prog)[0])


def compile_dropped(opts):
    err, prog = nvrtc.nvrtcCreateProgram(str.encode(SAXPY), b"saxpy.cu", 0, [], [])
    check(err)
    nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    # CHECK: host-nvrtc.py:[[@LINE-1]]:11: warning: the error code returned by 'nvrtcCompileProgram' is not checked [cuda-unchecked-api-call]
    check(nvrtc.nvrtcDestroyProgram(prog)[0])


def never_destroyed(opts):
    err, prog = nvrtc.nvrtcCreateProgram(str.encode(SAXPY), b"saxpy.cu", 0, [], [])
    # CHECK: host-nvrtc.py:[[@LINE-1]]:23: warning: NVRTC program allocated into 'prog' by 'nvrtcCreateProgram' is not destroyed on every path [cuda-device-memory-leak]
    check(err)
    err, = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    check(err)
    err, size = nvrtc.nvrtcGetPTXSize(prog)
    check(err)
    ptx = b" " * size
    err, = nvrtc.nvrtcGetPTX(prog, ptx)
    check(err)
    return ptx


def lowered_name_leak(src, name):
    # the kernel_tuner shape: the program is asked for a lowered name and
    # never destroyed; its name-expression calls read it and keep nothing
    err, prog = nvrtc.nvrtcCreateProgram(src, b"k.cu", 0, [], [])
    # CHECK: host-nvrtc.py:[[@LINE-1]]:23: warning: NVRTC program allocated into 'prog' by 'nvrtcCreateProgram' is not destroyed on every path [cuda-device-memory-leak]
    check(err)
    err, = nvrtc.nvrtcAddNameExpression(prog, name)
    check(err)
    err, = nvrtc.nvrtcCompileProgram(prog, 0, [])
    check(err)
    err, lowered = nvrtc.nvrtcGetLoweredName(prog, name)
    check(err)
    return lowered


def ctypes_leak(src):
    prog = ctypes.c_void_p()
    status = _libnvrtc.nvrtcCreateProgram(ctypes.byref(prog), src, b"k.cu", 0, None, None)
    # CHECK: host-nvrtc.py:[[@LINE-1]]:24: warning: NVRTC program allocated into 'prog' by 'nvrtcCreateProgram' is not destroyed on every path [cuda-device-memory-leak]
    if status != 0:
        return None
    if _libnvrtc.nvrtcCompileProgram(prog, 0, None) != 0:
        return None
    _libnvrtc.nvrtcDestroyProgram(ctypes.byref(prog))
    # CHECK: host-nvrtc.py:[[@LINE-1]]:15: warning: the error code returned by 'nvrtcDestroyProgram' is not checked [cuda-unchecked-api-call]
    return prog


def walrus_leak(src):
    # the program bound by a walrus inside ctypes.byref (tinygrad's style)
    if _libnvrtc.nvrtcCreateProgram(ctypes.byref(prog := ctypes.c_void_p()), src, b"k.cu", 0, None, None) != 0:
        # CHECK: host-nvrtc.py:[[@LINE-1]]:18: warning: NVRTC program allocated into 'prog' by 'nvrtcCreateProgram' is not destroyed on every path [cuda-device-memory-leak]
        return None
    return _libnvrtc.nvrtcCompileProgram(prog, 0, None)
    # CHECK: host-nvrtc.py:[[@LINE-1]]:5: note: 'prog' still holds it when the function returns here


def ptx_after_destroy(src):
    # the cleanup moved above the read of the PTX
    err, prog = nvrtc.nvrtcCreateProgram(src, b"k.cu", 0, [], [])
    check(err)
    err, = nvrtc.nvrtcCompileProgram(prog, 0, [])
    check(err)
    err, = nvrtc.nvrtcDestroyProgram(prog)
    check(err)
    err, size = nvrtc.nvrtcGetPTXSize(prog)
    # CHECK: host-nvrtc.py:[[@LINE-1]]:39: warning: 'prog' is passed to 'nvrtcGetPTXSize' after it was destroyed [cuda-invalid-free]
    check(err)
    ptx = b" " * size
    err, = nvrtc.nvrtcGetPTX(prog, ptx)
    # CHECK: host-nvrtc.py:[[@LINE-1]]:30: warning: 'prog' is passed to 'nvrtcGetPTX' after it was destroyed [cuda-invalid-free]
    check(err)
    return ptx


def log_after_destroy(src):
    err, prog = nvrtc.nvrtcCreateProgram(src, b"k.cu", 0, [], [])
    check(err)
    compiled, = nvrtc.nvrtcCompileProgram(prog, 0, [])
    check(nvrtc.nvrtcDestroyProgram(prog)[0])
    if compiled != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        err, size = nvrtc.nvrtcGetProgramLogSize(prog)
        # CHECK: host-nvrtc.py:[[@LINE-1]]:50: warning: 'prog' is passed to 'nvrtcGetProgramLogSize' after it was destroyed [cuda-invalid-free]
        check(err)
        raise RuntimeError("compile failed")


def ctypes_after_destroy(src):
    prog = ctypes.c_void_p()
    if _libnvrtc.nvrtcCreateProgram(ctypes.byref(prog), src, b"k.cu", 0, None, None) != 0:
        return None
    try:
        if _libnvrtc.nvrtcCompileProgram(prog, 0, None) != 0:
            return None
    finally:
        if _libnvrtc.nvrtcDestroyProgram(ctypes.byref(prog)) != 0:
            raise RuntimeError("nvrtcDestroyProgram failed")
    size = ctypes.c_size_t()
    if _libnvrtc.nvrtcGetPTXSize(prog, ctypes.byref(size)) != 0:
        # CHECK: host-nvrtc.py:[[@LINE-1]]:34: warning: 'prog' is passed to 'nvrtcGetPTXSize' after it was destroyed [cuda-invalid-free]
        return None
    return size.value


# ---- negatives --------------------------------------------------------------

def compile_clean(opts):
    err, prog = nvrtc.nvrtcCreateProgram(str.encode(SAXPY), b"saxpy.cu", 0, [], [])
    check(err)
    try:
        err, = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
        check(err)
        err, size = nvrtc.nvrtcGetPTXSize(prog)
        check(err)
        ptx = b" " * size
        err, = nvrtc.nvrtcGetPTX(prog, ptx)
        check(err)
        return ptx
    finally:
        err, = nvrtc.nvrtcDestroyProgram(prog)
        check(err)


def compile_log(opts):
    err, prog = nvrtc.nvrtcCreateProgram(str.encode(SAXPY), b"saxpy.cu", 0, [], [])
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        return None
    err, = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        _, size = nvrtc.nvrtcGetProgramLogSize(prog)
        # CHECK: host-nvrtc.py:[[@LINE-1]]:25: warning: the error code returned by 'nvrtcGetProgramLogSize' is not checked [cuda-unchecked-api-call]
        nvrtc.nvrtcDestroyProgram(prog)
        # CHECK: host-nvrtc.py:[[@LINE-1]]:15: warning: the error code returned by 'nvrtcDestroyProgram' is not checked [cuda-unchecked-api-call]
        return None
    check(nvrtc.nvrtcDestroyProgram(prog)[0])
    return True


def ctypes_clean(src):
    prog = ctypes.c_void_p()
    if _libnvrtc.nvrtcCreateProgram(ctypes.byref(prog), src, b"k.cu", 0, None, None) != 0:
        return False
    try:
        return _libnvrtc.nvrtcCompileProgram(prog, 0, None) == 0
    finally:
        if _libnvrtc.nvrtcDestroyProgram(ctypes.byref(prog)) != 0:
            raise RuntimeError("nvrtcDestroyProgram failed")


def walrus_clean(src):
    if _libnvrtc.nvrtcCreateProgram(ctypes.byref(prog := ctypes.c_void_p()), src, b"k.cu", 0, None, None) != 0:
        return False
    try:
        return _libnvrtc.nvrtcCompileProgram(prog, 0, None) == 0
    finally:
        if _libnvrtc.nvrtcDestroyProgram(ctypes.byref(prog)) != 0:
            raise RuntimeError("nvrtcDestroyProgram failed")


def log_before_destroy(src):
    err, prog = nvrtc.nvrtcCreateProgram(src, b"k.cu", 0, [], [])
    check(err)
    compiled, = nvrtc.nvrtcCompileProgram(prog, 0, [])
    if compiled != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        err, size = nvrtc.nvrtcGetProgramLogSize(prog)
        check(err)
        log = b" " * size
        err, = nvrtc.nvrtcGetProgramLog(prog, log)
        check(err)
        check(nvrtc.nvrtcDestroyProgram(prog)[0])
        raise RuntimeError(log.decode())
    check(nvrtc.nvrtcDestroyProgram(prog)[0])


def recompiled(a, b):
    err, prog = nvrtc.nvrtcCreateProgram(a, b"a.cu", 0, [], [])
    check(err)
    check(nvrtc.nvrtcCompileProgram(prog, 0, [])[0])
    check(nvrtc.nvrtcDestroyProgram(prog)[0])
    err, prog = nvrtc.nvrtcCreateProgram(b, b"b.cu", 0, [], [])
    check(err)
    try:
        check(nvrtc.nvrtcCompileProgram(prog, 0, [])[0])
        err, size = nvrtc.nvrtcGetPTXSize(prog)
        check(err)
        return size
    finally:
        check(nvrtc.nvrtcDestroyProgram(prog)[0])


def destroyed_twice(src):
    # the second destroy is given a null program: an error status, no harm
    err, prog = nvrtc.nvrtcCreateProgram(src, b"k.cu", 0, [], [])
    check(err)
    nvrtc.nvrtcDestroyProgram(prog)
    # CHECK: host-nvrtc.py:[[@LINE-1]]:11: warning: the error code returned by 'nvrtcDestroyProgram' is not checked [cuda-unchecked-api-call]
    check(nvrtc.nvrtcDestroyProgram(prog)[0])


def make_program(src):
    # the caller owns the program
    err, prog = nvrtc.nvrtcCreateProgram(src, b"k.cu", 0, [], [])
    check(err)
    return prog

# CHECK: exit=1
