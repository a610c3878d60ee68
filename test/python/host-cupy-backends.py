# CuPy's own code calls its runtime bindings as cupy_backends.cuda.api.runtime,
# the same functions as cupy.cuda.runtime (CUDA_PYTHON_MODULE_ALIAS rows).
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-device-memory-leak,cuda-api-outside-main' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import atexit

from cupy_backends.cuda.api import runtime


def scratch(n, fail):
    ptr = runtime.malloc(n)
    # CHECK: host-cupy-backends.py:[[@LINE-1]]:19: warning: device memory allocated into 'ptr' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-cupy-backends.py:[[@LINE+2]]:9: note: 'ptr' still holds it when the function returns here
    if fail:
        raise ValueError("bad size")
    runtime.memset(ptr, 0, n)
    runtime.free(ptr)


def scratch_freed(n, fail):
    ptr = runtime.malloc(n)
    try:
        if fail:
            raise ValueError("bad size")
        runtime.memset(ptr, 0, n)
    finally:
        runtime.free(ptr)


class IpcView:
    def __init__(self, ptr):
        self.ptr = ptr

    def __del__(self):
        runtime.ipcCloseMemHandle(self.ptr)
        # CHECK: host-cupy-backends.py:[[@LINE-1]]:17: warning: 'cudaIpcCloseMemHandle' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
        # CHECK: host-cupy-backends.py:[[@LINE+4]]:1: note: 'view' is constructed before the first CUDA call, so it is destroyed after the CUDA runtime's teardown
        # CHECK: host-cupy-backends.py:[[@LINE-4]]:5: note: reached through this call


view = IpcView(0)
atexit.register(runtime.deviceSynchronize)
# CHECK: exit=1
