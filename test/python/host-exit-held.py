# Objects that Python keeps until its finalization without a module global of
# their own: one stored into a module-level dict or list, a class attribute
# (a singleton), or what a functools.lru_cache'd factory returns. Their
# __del__ runs at exit, as a module global's does, after the CUDA runtime's
# teardown (host-exit-destructor.py). A container the file empties (clear,
# pop, a rebinding) may release them earlier: silent.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-api-outside-main' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import functools

from cuda.bindings import runtime as cudart


class Workspace:
    def __init__(self, n):
        err, self.ptr = cudart.cudaMalloc(n)

    def __del__(self):
        cudart.cudaFree(self.ptr)
        # CHECK: host-exit-held.py:[[@LINE-1]]:16: warning: 'cudaFree' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
        # CHECK: note: '_per_device[device]' is constructed before the first CUDA call
        # CHECK: note: reached through this call


_per_device = {}


def workspace_for(device):
    ws = _per_device.get(device)
    if ws is None:
        ws = Workspace(1 << 20)
        _per_device[device] = ws
    return ws


class Generator:
    def __init__(self):
        err, self.stream = cudart.cudaStreamCreate()

    def __del__(self):
        cudart.cudaStreamDestroy(self.stream)
        # CHECK: host-exit-held.py:[[@LINE-1]]:16: warning: 'cudaStreamDestroy' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
        # CHECK: note: 'cls._instance' is constructed before the first CUDA call
        # CHECK: note: reached through this call

    _instance = None

    @classmethod
    def instance(cls):
        if cls._instance is None:
            cls._instance = Generator()
        return cls._instance


class Timer:
    def __init__(self):
        err, self.event = cudart.cudaEventCreate()

    def __del__(self):
        cudart.cudaEventDestroy(self.event)
        # CHECK: host-exit-held.py:[[@LINE-1]]:16: warning: 'cudaEventDestroy' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
        # CHECK: note: 'Timer()' is constructed before the first CUDA call
        # CHECK: note: reached through this call


@functools.lru_cache(maxsize=None)
def shared_timer():
    return Timer()


# ---- Negatives ---------------------------------------------------------------

class Scratch:
    def __init__(self, n):
        err, self.ptr = cudart.cudaMalloc(n)

    def __del__(self):
        cudart.cudaFree(self.ptr)


_scratch = {}


def scratch_for(key):
    if key not in _scratch:
        _scratch[key] = Scratch(4096)
    return _scratch[key]


def release_scratch():
    # the file empties the container: its objects may go before exit
    _scratch.clear()


def local_scratch():
    # a local object: collected when the function returns
    s = Scratch(4096)
    return s.ptr


class Buffer:
    def __init__(self, n):
        err, self.ptr = cudart.cudaMalloc(n)

    def close(self):
        # no __del__: nothing runs at exit
        cudart.cudaFree(self.ptr)


_buffers = []


def new_buffer(n):
    b = Buffer(n)
    _buffers.append(b)
    return b
# CHECK: exit=1
