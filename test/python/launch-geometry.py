# Launch geometry from Python that the library rejects: a grid or block
# dimension computed with true division ('/') is a float in Python 3, and
# CuPy (Cython's Py_ssize_t) and PyCUDA (Boost.Python's unsigned) raise
# TypeError at the launch. Reported at the dimension, also through a name
# bound to it; '//', int(), math.ceil() and constants are not reported.
# A block that is a count of blocks (a size divided by the grid's
# constant) is a grid and a block passed in swapped order.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error:
import math

import cupy as cp
import numpy as np
import pycuda.autoinit  # noqa: F401
from pycuda.compiler import SourceModule

SCALE = cp.RawKernel(r'''
extern "C" __global__ void scale(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
''', "scale")


def bad(x):
    n = x.size
    SCALE((n / 256,), (256,), (x, np.int32(n)))
# CHECK: launch-geometry.py:[[@LINE-1]]:12: warning: this grid dimension of the launch of 'scale' is a float (true division '/'); CuPy raises TypeError: divide with '//', or round up with '(n + b - 1) // b' [cuda-kernel-arguments]
    blocks = (n + 255) / 256
    SCALE((blocks,), (256,), (x, np.int32(n)))
# CHECK: launch-geometry.py:[[@LINE-1]]:12: warning: this grid dimension of the launch of 'scale' is a float
    SCALE((4,), (n / 4,), (x, np.int32(n)))
# CHECK: launch-geometry.py:[[@LINE-1]]:18: warning: this block dimension of the launch of 'scale' is a float


def swapped(x):
    # Grid and block passed in swapped order: the block counts blocks.
    n = x.size
    SCALE((256,), ((n + 255) // 256,), (x, np.int32(n)))
# CHECK: launch-geometry.py:[[@LINE-1]]:20: warning: the block of this launch of 'scale' is a count of blocks and the grid a block size: grid and block are passed in swapped order, and the block exceeds 1024 threads once the data does (CuPy takes the grid first) [cuda-kernel-arguments]
    threads = 128
    blocks = math.ceil(n / threads)
    SCALE((threads,), (blocks,), (x, np.int32(n)))
# CHECK: launch-geometry.py:[[@LINE-1]]:24: warning: the block of this launch of 'scale' is a count of blocks
    # A tiling launch whose block is a divided size and whose grid is a
    # different constant is not a swap: not reported.
    SCALE((8,), (n // 64,), (x, np.int32(n)))


def good(x):
    # Idiomatic CuPy: integer division, ceil, int().
    n = x.size
    SCALE(((n + 255) // 256,), (256,), (x, np.int32(n)))
    SCALE((math.ceil(n / 256),), (256,), (x, np.int32(n)))
    SCALE((int(n / 256) + 1,), (256,), (x, np.int32(n)))
    threads = 128
    SCALE((-(-n // threads),), (threads,), (x, np.int32(n)))


MOD = SourceModule('''
__global__ void twice(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
''')
TWICE = MOD.get_function("twice")


def pycuda_launch(x_gpu, n):
    TWICE(x_gpu, np.int32(n), block=(256, 1, 1), grid=(n / 256, 1))
# CHECK: launch-geometry.py:[[@LINE-1]]:56: warning: this grid dimension of the launch of 'twice' is a float (true division '/'); PyCUDA raises TypeError
    TWICE(x_gpu, np.int32(n), block=(256, 1, 1), grid=((n + 255) // 256, 1))
    TWICE(x_gpu, np.int32(n), grid=(256, 1), block=((n + 255) // 256, 1, 1))
# CHECK: launch-geometry.py:[[@LINE-1]]:53: warning: the block of this launch of 'twice' is a count of blocks and the grid a block size: grid and block are passed in swapped order, and the block exceeds 1024 threads once the data does ('block=' is the threads of one block)
# CHECK: exit=1
