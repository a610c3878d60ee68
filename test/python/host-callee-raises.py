# A call of a function of the same file that may raise (a raise of its own,
# not only on a failed status) leaves the caller there when it raises: what
# the caller allocated and frees after the call leaks on that path, unless a
# finally or an except frees it. A check(err) helper, whose raise reports a
# failed status, is not such a function (host-raise-paths.py). Also: an
# atexit handler registered by a function of the file, on some paths only,
# is a handler when that function ran.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-device-memory-leak,cuda-api-outside-main' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import atexit

from cuda.bindings import runtime as cudart


def check(err):
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError("CUDA error %d" % err)


def validate(shape):
    if len(shape) != 2:
        raise ValueError("expected a matrix")


def validate_twice(shape):
    validate(shape)
    validate(shape[::-1])


def upload(values, shape):
    err, buf = cudart.cudaMalloc(8 * len(values))
    # CHECK: host-callee-raises.py:[[@LINE-1]]:23: warning: device memory allocated into 'buf' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    check(err)
    validate(shape)
    # CHECK: host-callee-raises.py:[[@LINE-1]]:5: note: 'buf' still holds it when the function returns here
    check(cudart.cudaFree(buf)[0])


def upload_nested(values, shape):
    err, buf = cudart.cudaMalloc(8 * len(values))
    # CHECK: host-callee-raises.py:[[@LINE-1]]:23: warning: device memory allocated into 'buf' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
    check(err)
    validate_twice(shape)
    # CHECK: host-callee-raises.py:[[@LINE-1]]:5: note: 'buf' still holds it when the function returns here
    check(cudart.cudaFree(buf)[0])


def upload_fixed(values, shape):
    err, buf = cudart.cudaMalloc(8 * len(values))
    check(err)
    try:
        validate(shape)
    finally:
        check(cudart.cudaFree(buf)[0])


def upload_validated_first(values, shape):
    validate(shape)
    err, buf = cudart.cudaMalloc(8 * len(values))
    check(err)
    check(cudart.cudaFree(buf)[0])


def upload_checked(values):
    # check() raises on a failed status only
    err, buf = cudart.cudaMalloc(8 * len(values))
    check(err)
    check(cudart.cudaMemset(buf, 0, 8 * len(values))[0])
    check(cudart.cudaFree(buf)[0])


def _reset_device():
    cudart.cudaDeviceReset()
    # CHECK: host-callee-raises.py:[[@LINE-1]]:12: warning: 'cudaDeviceReset' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
    # CHECK: host-callee-raises.py:[[@LINE+7]]:9: note: '_reset_device' is registered here to run when the program exits


def init(reset_at_exit):
    err, = cudart.cudaSetDevice(0)
    check(err)
    if reset_at_exit:
        atexit.register(_reset_device)
# CHECK: exit=1
