# A ctypes binding module that a project generates from cuda.h (its last
# name cuda, libcuda, cudart...: CUDA_PYTHON_GENERATED_MODULE), imported
# from the project's own package: each cu*/cuda* function returns the
# status as an int, so a dropped status is unchecked, as through a CDLL
# handle. A versioned name (cuMemFree_v2) is the function it versions.
# The shape of a timing helper that dropped the status of the event
# synchronize, which hid a kernel's fault.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-unchecked-api-call,cuda-device-memory-leak' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes

import mypkg.runtime.gen.cuda as cuda
from .gen import cudart as rt


def check(status):
    if status != 0:
        raise RuntimeError("CUDA error %d" % status)


def time_kernel(launch, start, stop):
    check(cuda.cuEventRecord(start, None))
    launch()
    check(cuda.cuEventRecord(stop, None))
    cuda.cuEventSynchronize(stop)
    # CHECK: host-generated-binding.py:[[@LINE-1]]:10: warning: the error code returned by 'cuEventSynchronize' is not checked [cuda-unchecked-api-call]
    ms = ctypes.c_float()
    check(cuda.cuEventElapsedTime(ctypes.byref(ms), start, stop))
    return ms.value


def init_driver():
    cuda.cuInit(0)
    # CHECK: host-generated-binding.py:[[@LINE-1]]:10: warning: the error code returned by 'cuInit' is not checked [cuda-unchecked-api-call]
    dev = ctypes.c_int()
    check(cuda.cuDeviceGet(ctypes.byref(dev), 0))
    return dev.value


def scratch(n):
    ptr = ctypes.c_void_p()
    check(rt.cudaMalloc(ctypes.byref(ptr), n))
    # CHECK: host-generated-binding.py:[[@LINE-1]]:14: warning: device memory allocated into 'ptr' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-generated-binding.py:[[@LINE+2]]:9: note: 'ptr' still holds it when the function returns here
    if n > 1 << 20:
        return None
    check(rt.cudaFree(ptr))
    return n


# Negatives: every status checked; a versioned name.
def release(dptr):
    check(cuda.cuMemFree_v2(dptr))


def init_checked():
    status = cuda.cuInit(0)
    if status != 0:
        raise RuntimeError("no driver")
