# Every handler of a try is lowered, each a path: `except E`, `except (A, B)`,
# a bare `except`, then `else` (the body ended without raising) and
# `finally`. A raise in the body, or a statement of the body that calls a
# function of the file that may raise (it has a raise, or calls a CUDA
# function that raises on error, or such a function of the file), can skip
# the rest of the body into the handlers. Outside a try with handlers a
# callee's exception is not followed (as a C++ throw is not, by
# cuda-device-memory-leak), so a check(err) helper adds no path.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-device-memory-leak,cuda-invalid-free,cuda-unchecked-api-call' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=note:
import cupy
from cuda.bindings import runtime as cudart


def check(err):
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError("CUDA error %d" % err)


def upload(buf, values, n):
    if not values:
        raise ValueError("nothing to copy")
    check(cudart.cudaMemcpy(buf, values, n, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice)[0])


def zero(buf, n):
    check(cudart.cudaMemset(buf, 0, n)[0])


def validate(values, n):
    if len(values) * 4 != n:
        raise ValueError("%d values for %d bytes" % (len(values), n))


def log(message):
    print(message)


# --- positives ---------------------------------------------------------------

def handler_swallows_callee_raise(n, values):
    err, buf = cudart.cudaMalloc(n)
    # CHECK: host-except-handlers.py:[[@LINE-1]]:23: warning: device memory allocated into 'buf' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-except-handlers.py:[[@LINE+3]]:5: note: 'buf' still holds it when the function returns here
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        validate(values, n)
        check(cudart.cudaMemcpy(buf, values, n, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice)[0])
        check(cudart.cudaFree(buf)[0])
    except ValueError:
        log("skipped a bad batch")


def second_handler_frees_again(n):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        check(cudart.cudaFree(buf)[0])
        zero(buf, n)
    except KeyError:
        log("no such buffer")
    except RuntimeError:
        cudart.cudaFree(buf)
        # CHECK: host-except-handlers.py:[[@LINE-1]]:16: warning: 'buf' is freed twice: it was already freed on every path to this 'cudaFree' [cuda-invalid-free]
        # CHECK: host-except-handlers.py:[[@LINE-7]]:22: note: the memory was freed here
        # CHECK: host-except-handlers.py:[[@LINE-3]]:16: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]


def tuple_handler_swallows(n, values):
    err, buf = cudart.cudaMalloc(n)
    # CHECK: host-except-handlers.py:[[@LINE-1]]:23: warning: device memory allocated into 'buf' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-except-handlers.py:[[@LINE+3]]:5: note: 'buf' still holds it when the function returns here
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        if len(values) > n:
            raise IndexError("too many values")
        zero(buf, n)
        check(cudart.cudaFree(buf)[0])
    except ValueError:
        check(cudart.cudaFree(buf)[0])
    except (IndexError, KeyError):
        log("bad batch")


def bare_handler_swallows(n, values):
    err, buf = cudart.cudaMalloc(n)
    # CHECK: host-except-handlers.py:[[@LINE-1]]:23: warning: device memory allocated into 'buf' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-except-handlers.py:[[@LINE+3]]:5: note: 'buf' still holds it when the function returns here
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        validate(values, n)
        check(cudart.cudaFree(buf)[0])
    except ValueError:
        check(cudart.cudaFree(buf)[0])
    except:
        log("failed")


def cupy_runtime_call_in_try(n, host):
    p = cupy.cuda.runtime.malloc(n)
    # CHECK: host-except-handlers.py:[[@LINE-1]]:27: warning: device memory allocated into 'p' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-except-handlers.py:[[@LINE+1]]:5: note: 'p' still holds it when the function returns here
    try:
        cupy.cuda.runtime.memcpy(p, host, n, cupy.cuda.runtime.memcpyHostToDevice)
        cupy.cuda.runtime.free(p)
    except cupy.cuda.runtime.CUDARuntimeError:
        log("copy failed")


def raise_no_handler_names(n, values):
    err, buf = cudart.cudaMalloc(n)
    # CHECK: host-except-handlers.py:[[@LINE-1]]:23: warning: device memory allocated into 'buf' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-except-handlers.py:[[@LINE+5]]:13: note: 'buf' still holds it when the function returns here
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        if not values:
            raise ValueError("nothing to copy")
        zero(buf, n)
    except KeyError:
        check(cudart.cudaFree(buf)[0])
        return None
    check(cudart.cudaFree(buf)[0])
    return n


class Uploader:
    def __init__(self, n):
        self.n = n

    def validate(self, values):
        if len(values) * 4 != self.n:
            raise ValueError("%d values for %d bytes" % (len(values), self.n))

    def upload(self, values):
        err, buf = cudart.cudaMalloc(self.n)
        # CHECK: host-except-handlers.py:[[@LINE-1]]:27: warning: device memory allocated into 'buf' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
        # CHECK: host-except-handlers.py:[[@LINE+8]]:13: note: 'buf' still holds it when the function returns here
        if err != cudart.cudaError_t.cudaSuccess:
            raise MemoryError("cudaMalloc failed")
        try:
            self.validate(values)
            check(cudart.cudaMemcpy(buf, values, self.n, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice)[0])
            check(cudart.cudaFree(buf)[0])
        except ValueError:
            return False
        return True


# The shape of CuPy acde6378 (csrilu02's info object, here device memory): a
# raising call's failure is re-raised as another error, and the memory is
# released only after the try.
def reraised_as_value_error(n, host):
    p = cupy.cuda.runtime.malloc(n)
    # CHECK: host-except-handlers.py:[[@LINE-1]]:27: warning: device memory allocated into 'p' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    # CHECK: host-except-handlers.py:[[@LINE+4]]:9: note: 'p' still holds it when the function returns here
    try:
        cupy.cuda.runtime.memcpy(p, host, n, cupy.cuda.runtime.memcpyHostToDevice)
    except Exception:
        raise ValueError("upload of %d bytes failed" % n)
    cupy.cuda.runtime.free(p)


# --- negatives: idiomatic correct code ----------------------------------------

def reraised_after_free(n, host):
    # the fix of acde6378: released in the handler and in else
    p = cupy.cuda.runtime.malloc(n)
    try:
        cupy.cuda.runtime.memcpy(p, host, n, cupy.cuda.runtime.memcpyHostToDevice)
    except Exception:
        cupy.cuda.runtime.free(p)
        raise ValueError("upload of %d bytes failed" % n)
    else:
        cupy.cuda.runtime.free(p)


def handler_names_a_base(n, path):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        if not path:
            raise FileNotFoundError(path)
        zero(buf, n)
    except OSError:
        check(cudart.cudaFree(buf)[0])
        return None
    except KeyError:
        return None
    check(cudart.cudaFree(buf)[0])
    return n


def frees_in_finally(n, values):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        upload(buf, values, n)
    except ValueError:
        log("skipped an empty batch")
    finally:
        check(cudart.cudaFree(buf)[0])


def frees_in_handler_and_reraises(n, values):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        upload(buf, values, n)
        zero(buf, n)
    except Exception:
        check(cudart.cudaFree(buf)[0])
        raise
    return buf


def every_handler_frees(n, values):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        upload(buf, values, n)
    except ValueError:
        check(cudart.cudaFree(buf)[0])
    except (RuntimeError, KeyError):
        check(cudart.cudaFree(buf)[0])
    except:
        check(cudart.cudaFree(buf)[0])
    else:
        zero(buf, n)
        check(cudart.cudaFree(buf)[0])


def frees_in_else_or_handler(n, values):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        upload(buf, values, n)
    except ValueError:
        check(cudart.cudaFree(buf)[0])
        return None
    else:
        check(cudart.cudaFree(buf)[0])
    return n


def helper_outside_try(n, values):
    # check(err) and upload raise, but no handler here catches them: as a
    # C++ throw, that path is not followed
    err, buf = cudart.cudaMalloc(n)
    check(err)
    upload(buf, values, n)
    zero(buf, n)
    check(cudart.cudaFree(buf)[0])


def allocation_in_try(n):
    # a failed malloc raises and made nothing: the handler holds nothing
    try:
        p = cupy.cuda.runtime.malloc(n)
    except cupy.cuda.runtime.CUDARuntimeError:
        log("out of memory")
        return None
    try:
        cupy.cuda.runtime.memset(p, 0, n)
    finally:
        cupy.cuda.runtime.free(p)
    return n


def handler_free_of_what_body_kept(n):
    err, buf = cudart.cudaMalloc(n)
    if err != cudart.cudaError_t.cudaSuccess:
        raise MemoryError("cudaMalloc failed")
    try:
        zero(buf, n)
    except RuntimeError:
        check(cudart.cudaFree(buf)[0])
        raise
    except KeyboardInterrupt:
        check(cudart.cudaFree(buf)[0])
        return None
    check(cudart.cudaFree(buf)[0])
    return n


def status_checked_in_try(n, values):
    # check(err) raises only when cudaMalloc failed, and then buf holds
    # nothing; validate's ValueError goes to its own handler, which frees
    try:
        err, buf = cudart.cudaMalloc(n)
        check(err)
        validate(values, n)
    except RuntimeError:
        log("no device memory")
        return None
    except ValueError:
        check(cudart.cudaFree(buf)[0])
        raise
    return buf


class Scratch:
    def __init__(self, n):
        err, self.ptr = cudart.cudaMalloc(n)
        check(err)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        check(cudart.cudaFree(self.ptr)[0])


def with_block(n, values):
    with Scratch(n) as s:
        try:
            upload(s.ptr, values, n)
        except ValueError:
            log("skipped an empty batch")
# CHECK: exit=1
