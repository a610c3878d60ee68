# Python's exit handlers (atexit.register, weakref.finalize at module level)
# run inside the interpreter's finalization, after the main module's code and
# before the C-level exit that tears down libcudart/libcuda: a CUDA call there
# works (PyCUDA's autoinit pops its context so): silent. A handler that resets
# the device, or any handler of a file that resets the device somewhere (it
# may run after that reset), stays a std::atexit handler and is reported
# (host-planted-bugs.py, samples/python-host/exit_free).
# RUN: %cuda-tidy --no-cache --quiet %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import atexit
import weakref

import pycuda.driver as drv
from cupy.cuda import runtime
from cuda.bindings import runtime as cudart

drv.init()
context = drv.Device(0).make_context()


def _pop_context():
    global context
    context.pop()
    context = None


atexit.register(_pop_context)

workspace = runtime.malloc(1 << 20)


def _free_workspace(ptr):
    runtime.free(ptr)


atexit.register(_free_workspace, workspace)


def _sync_and_destroy(events):
    err, = cudart.cudaDeviceSynchronize()
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError("cudaDeviceSynchronize failed")
    for e in events:
        err, = cudart.cudaEventDestroy(e)
        if err != cudart.cudaError_t.cudaSuccess:
            raise RuntimeError("cudaEventDestroy failed")


_token = object()
weakref.finalize(_token, _sync_and_destroy, [])


# CHECK: exit=0
