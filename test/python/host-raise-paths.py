# A raise leaves the function: through the finally bodies and __exit__ calls
# on its way, into the handler of an enclosing try of the same function when
# there is one, else out of the function (an exception path, on which what
# the function still holds leaks). A raise in a function that allocates
# nothing (a check(err) helper) still ends the path: the exception goes on in
# the caller, which is not followed.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-device-memory-leak,cuda-invalid-free' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
from cuda.bindings import runtime as cudart


def check(err):
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError("CUDA error %d" % err)


def leaks_on_raise(n, values):
    err, buf = cudart.cudaMalloc(n)
    # CHECK: host-raise-paths.py:[[@LINE-1]]:23: warning: device memory allocated into 'buf' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-raise-paths.py:[[@LINE+4]]:9: note: 'buf' still holds it when the function returns here
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    if not values:
        raise ValueError("nothing to copy")
    check(cudart.cudaMemcpy(buf, values, n, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice)[0])
    check(cudart.cudaFree(buf)[0])


def frees_in_finally(n, values):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        if not values:
            raise ValueError("nothing to copy")
        check(cudart.cudaMemcpy(buf, values, n, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice)[0])
    finally:
        check(cudart.cudaFree(buf)[0])


def frees_in_handler(n, values):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        if not values:
            raise ValueError("nothing to copy")
        check(cudart.cudaMemcpy(buf, values, n, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice)[0])
    except Exception:
        cudart.cudaFree(buf)
        raise
    return buf


def handler_frees_twice(n):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        err, = cudart.cudaFree(buf)
        if err != cudart.cudaError_t.cudaSuccess:
            raise RuntimeError("cudaFree failed")
    except RuntimeError:
        cudart.cudaFree(buf)
        # CHECK: host-raise-paths.py:[[@LINE-1]]:16: warning: 'buf' is freed twice: it was already freed on every path to this 'cudaFree' [cuda-invalid-free]
        # CHECK: host-raise-paths.py:[[@LINE-6]]:23: note: the memory was freed here
        raise


class Pool:
    def __init__(self, n):
        err, self.base = cudart.cudaMalloc(n)
        if err != cudart.cudaError_t.cudaSuccess:
            raise MemoryError("cudaMalloc failed")

    def close(self):
        check(cudart.cudaFree(self.base)[0])


def caller_frees(n):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        fill(buf, n)
    finally:
        cudart.cudaFree(buf)


def fill(buf, n):
    if n <= 0:
        raise ValueError("empty")
    check(cudart.cudaMemset(buf, 0, n)[0])
# CHECK: exit=1
