# CUDA calls that Python runs at interpreter exit: __del__ of an object that
# a module global holds (also one bound under `if __name__ == "__main__":`)
# runs after the runtime's teardown; handlers of atexit.register and
# weakref.finalize at module level run in Python's finalization, before the
# C-level exit, and are silent (host-python-exit.py). A reduced form of a
# fix in TensorRT's diffusion demo (a pipeline's __del__ that released its
# stream became an explicit teardown() called from the script).
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-api-outside-main' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import atexit
import weakref

from cuda.bindings import runtime as cudart


class Pipeline:
    def __init__(self):
        err, self.stream = cudart.cudaStreamCreate()
        if err != cudart.cudaError_t.cudaSuccess:
            raise RuntimeError("no stream")

    def __del__(self):
        cudart.cudaStreamDestroy(self.stream)
        # CHECK: host-exit-destructor.py:[[@LINE-1]]:16: warning: 'cudaStreamDestroy' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
        # CHECK: host-exit-destructor.py:[[@LINE+32]]:5: note: 'demo' is constructed before the first CUDA call, so it is destroyed after the CUDA runtime's teardown
        # CHECK: host-exit-destructor.py:[[@LINE-4]]:5: note: reached through this call


class Session:
    def __init__(self):
        err, self.stream = cudart.cudaStreamCreate()
        if err != cudart.cudaError_t.cudaSuccess:
            raise RuntimeError("no stream")

    def teardown(self):
        err, = cudart.cudaStreamDestroy(self.stream)
        if err != cudart.cudaError_t.cudaSuccess:
            raise RuntimeError("cudaStreamDestroy failed")


def release_events(events):
    for e in events:
        cudart.cudaEventDestroy(e)


def synchronize():
    err, = cudart.cudaDeviceSynchronize()
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError("cudaDeviceSynchronize failed")


atexit.register(synchronize)
_token = object()
weakref.finalize(_token, release_events, [])

if __name__ == "__main__":
    demo = Pipeline()
    session = Session()
    session.teardown()
# CHECK: exit=1
