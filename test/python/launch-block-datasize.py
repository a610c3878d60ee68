# A block dimension read from the data's size (x.shape[k], len(x), x.size),
# with no cap, passes the limit of 1,024 threads per block once the data
# does, and the launch fails (cudaErrorInvalidValue / CUDA_ERROR_INVALID_VALUE).
# Reported at the dimension, also through names; a min() cap, a comparison
# of the size in the function, a constant extent where the array is made,
# and a size divided into blocks (the grid) are not reported.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error:
import cupy as cp
import numpy as np
import pycuda.autoinit  # noqa: F401
from pycuda.compiler import SourceModule

ROW_SUM = cp.RawKernel(r'''
extern "C" __global__ void row_sum(const float *x, float *out, int cols) {
    int r = blockIdx.x, c = threadIdx.x;
    atomicAdd(&out[r], x[r * cols + c]);
}
''', "row_sum")


def one_thread_per_column(x, out):
    ROW_SUM((x.shape[0],), (x.shape[1],), (x, out, np.int32(x.shape[1])))
# CHECK: launch-block-datasize.py:[[@LINE-1]]:29: warning: the block of this launch of 'row_sum' grows with the data's size and exceeds the limit of 1024 threads per block once the data does (the launch fails); cap it, 'min(n, 256)', and let the grid cover the rest [cuda-kernel-arguments]


def through_names(x, out):
    cols = len(x[0])
    threads = cols
    ROW_SUM((1,), (threads,), (x, out, np.int32(cols)))
# CHECK: launch-block-datasize.py:[[@LINE-1]]:20: warning: the block of this launch of 'row_sum' grows with the data's size
    ROW_SUM((1,), (x.size * 2,), (x, out, np.int32(cols)))
# CHECK: launch-block-datasize.py:[[@LINE-1]]:20: warning: the block of this launch of 'row_sum' grows with the data's size


def capped(x, out):
    # Idiomatic CuPy: a capped block, a grid that covers the rest.
    n = x.size
    threads = min(n, 256)
    ROW_SUM(((n + threads - 1) // threads,), (threads,), (x, out, np.int32(n)))
    ROW_SUM(((n + 255) // 256,), (256,), (x, out, np.int32(n)))
    ROW_SUM((x.shape[1],), (x.shape[0] // 32,), (x, out, np.int32(n)))


def checked(x, out):
    # The size is compared in the function: a check the reader leaves be.
    cols = x.shape[1]
    if cols > 1024:
        raise ValueError('too many columns')
    ROW_SUM((x.shape[0],), (cols,), (x, out, np.int32(cols)))


def made_here(n, out):
    # The dimension is a constant where the array is made.
    x = cp.zeros((n, 3), dtype=cp.float32)
    ROW_SUM((x.shape[0],), (x.shape[1],), (x, out, np.int32(3)))


MOD = SourceModule('''
__global__ void twice(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
''')
TWICE = MOD.get_function("twice")


def pycuda_launch(x_gpu, x):
    TWICE(x_gpu, np.int32(x.size), block=(x.size, 1, 1), grid=(1, 1))
# CHECK: launch-block-datasize.py:[[@LINE-1]]:43: warning: the block of this launch of 'twice' grows with the data's size
    TWICE(x_gpu, np.int32(x.size), block=(256, 1, 1), grid=((x.size + 255) // 256, 1))
# CHECK: exit=1
