# A wrapper that loads libcudart at a path chosen at run time and keeps its
# functions in a table by name (the pattern of vLLM's cuda_wrapper.py): each
# table call is the CUDA function it names.
# RUN: %cuda-tidy --no-cache --quiet %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import ctypes
import os

NAMES = ["cudaSetDevice", "cudaMalloc", "cudaFree", "cudaMemset", "cudaDeviceReset"]


class Runtime:
    def __init__(self, path=None):
        path = path or os.environ.get("RUNTIME_PATH", "libcudart.so")
        self.lib = ctypes.CDLL(path)
        self.funcs = {name: getattr(self.lib, name) for name in NAMES}

    def check(self, status):
        if status != 0:
            raise RuntimeError("CUDA error %d" % status)

    def malloc(self, size):
        ptr = ctypes.c_void_p()
        self.check(self.funcs["cudaMalloc"](ctypes.byref(ptr), size))
        return ptr

    def free(self, ptr):
        self.check(self.funcs["cudaFree"](ptr))

    def zero(self, ptr, count):
        self.funcs["cudaMemset"](ptr, 0, count)
        # CHECK: host-function-table.py:[[@LINE-1]]:9: warning: the error code returned by 'cudaMemset' is not checked [cuda-unchecked-api-call]

    def scratch(self, count):
        ptr = ctypes.c_void_p()
        self.check(self.funcs["cudaMalloc"](ctypes.byref(ptr), count))
        # CHECK: host-function-table.py:[[@LINE-1]]:20: warning: device memory allocated into 'ptr' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
        self.check(self.funcs["cudaMemset"](ptr, 0, count))
        return count
        # CHECK: host-function-table.py:[[@LINE-1]]:9: note: 'ptr' still holds it when the function returns here
# CHECK: exit=1
