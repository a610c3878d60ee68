# A private module whose function the package exports (__init__.py names
# it): its callers are the package's users.
import cupy
import numpy

_FILL = cupy.RawKernel(r'''
extern "C" __global__ void fill(float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 1.0f;
}
''', 'fill')


def fill(y):
    _FILL(((y.size + 127) // 128,), (128,), (y, numpy.int32(y.size)))
