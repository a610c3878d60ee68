# Buffer helpers of the package.
import cupy

from ._consts import DTYPE


def make_buffer(n):
    return cupy.empty(n, dtype=cupy.float64)


def make_single(n):
    buf = cupy.zeros(n, dtype=cupy.float32)
    return buf


def make_typed(n, dtype=DTYPE):
    return cupy.zeros(n, dtype=dtype)


def make_either(n, wide):
    # Two returns that disagree: the dtype is not known.
    if wide:
        return cupy.zeros(n, dtype=cupy.float64)
    return cupy.zeros(n, dtype=cupy.float32)


def as_given(x):
    return x
