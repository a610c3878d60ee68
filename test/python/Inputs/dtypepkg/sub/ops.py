# A kernel launched with arrays that other modules of the package make.
import cupy
import numpy

from .._consts import DTYPE, INDEX
from ..util import make_buffer, make_single, make_typed, make_either, as_given
from dtypepkg.util import make_typed as typed_abs

SCALE = cupy.RawKernel(r'''
extern "C" __global__ void scale(const double *x, double *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0 * x[i];
}
''', 'scale')


def _local(n):
    return cupy.arange(n, dtype=INDEX)


def run(n):
    grid = ((n + 127) // 128,)
    y = make_buffer(n)
    # The helper of util.py returns float64: correct.
    SCALE(grid, (128,), (make_buffer(n), y, numpy.int32(n)))
    # float32 from util.py's make_single.
    SCALE(grid, (128,), (make_single(n), y, numpy.int32(n)))
    # The default dtype of make_typed is _consts.DTYPE (float64): correct.
    SCALE(grid, (128,), (make_typed(n), y, numpy.int32(n)))
    # The caller's dtype reaches the helper's parameter.
    SCALE(grid, (128,), (make_typed(n, numpy.float32), y, numpy.int32(n)))
    SCALE(grid, (128,), (typed_abs(n, dtype='float16'), y, numpy.int32(n)))
    # A dtype constant of _consts.py.
    SCALE(grid, (128,), (cupy.zeros(n, dtype=DTYPE), y, numpy.int32(n)))
    SCALE(grid, (128,), (_local(n), y, numpy.int32(n)))
    # Returns that disagree: not known.
    SCALE(grid, (128,), (make_either(n, True), y, numpy.int32(n)))
    # A helper that hands its argument back: the caller's float32.
    SCALE(grid, (128,), (as_given(cupy.zeros(n, dtype=cupy.float32)), y, numpy.int32(n)))
    # Like another array: make_buffer's float64.
    SCALE(grid, (128,), (cupy.zeros(n, dtype=y.dtype), y, numpy.int32(n)))
