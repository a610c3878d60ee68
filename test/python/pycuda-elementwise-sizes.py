# PyCUDA's ElementwiseKernel runs `i` over n, the size of the first vector
# it is called with (pycuda/elementwise.py, ElementwiseKernel.__call__). A
# vector that a call passes the same array as the first, or one made like
# it, has n elements: an index that grows faster than `i` runs past its
# end (docs/python.md, "How the kernels are compiled").
# RUN: %cuda-tidy --no-cache --quiet --checks='-*,cuda-unguarded-thread-index' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import numpy
import pycuda.autoinit  # noqa: F401
import pycuda.gpuarray as gpuarray
from pycuda.elementwise import ElementwiseKernel

# Pairs of x summed into y, called with y and x of one size: from i = n / 2
# on, 2 * i is past the end of x.
pair_sum = ElementwiseKernel(
    "float *y, float *x",
    "y[i] = x[2 * i] + x[2 * i + 1]",
    "pair_sum")
x = gpuarray.to_gpu(numpy.arange(1024, dtype=numpy.float32))
y = gpuarray.empty_like(x)
pair_sum(y, x)
# CHECK: pycuda-elementwise-sizes.py:[[@LINE-5]]:13: warning: read of 'x' at '2 * i' runs past its end: the call at line [[@LINE-1]] gives 'x' one element per iteration of the elementwise loop, and the index grows by '2' per iteration [cuda-unguarded-thread-index]
# CHECK: pycuda-elementwise-sizes.py:[[@LINE-7]]:23: note: bound 'i' in the operation, or run the loop over fewer iterations ('size=' in CuPy, 'range=' in PyCUDA)
# CHECK: pycuda-elementwise-sizes.py:[[@LINE-7]]:24: warning: read of 'x' at '2 * i + 1' runs past its end: the call at line [[@LINE-3]] gives 'x'{{.*}}grows by '2' per iteration [cuda-unguarded-thread-index]
# CHECK: pycuda-elementwise-sizes.py:[[@LINE-9]]:23: note: bound 'i' in the operation, or run the loop over fewer iterations

# The first vector is the array written at a stride: it sizes the loop.
def spread(src):
    dst = gpuarray.zeros_like(src)
    scatter = ElementwiseKernel("float *dst, float *src, int k",
                                "dst[3 * i] = src[i] * k", "scatter")
    scatter(dst, src, numpy.int32(2))
# CHECK: pycuda-elementwise-sizes.py:[[@LINE-2]]:34: warning: write to 'dst' at '3 * i' runs past its end: the call at line [[@LINE-1]] gives 'dst'{{.*}}grows by '3' per iteration [cuda-unguarded-thread-index]
# CHECK: pycuda-elementwise-sizes.py:[[@LINE-4]]:41: note: bound 'i' in the operation, or run the loop over fewer iterations
    return dst

# A forward difference over all of x reads one past its end at the last i.
forward_diff = ElementwiseKernel(
    "float *d, float *x",
    "d[i] = x[i + 1] - x[i]",
    "forward_diff")
d = gpuarray.empty_like(x)
forward_diff(d, x)
# CHECK: pycuda-elementwise-sizes.py:[[@LINE-4]]:13: warning: read of 'x' at 'i + 1' runs past its end: the call at line [[@LINE-1]] gives 'x' one element per iteration of the elementwise loop, and the last iteration goes past it [cuda-unguarded-thread-index]
# CHECK: pycuda-elementwise-sizes.py:[[@LINE-6]]:23: note: bound 'i' in the operation, or run the loop over fewer iterations

# --- Idiomatic code: nothing to report. ---

# The half-size output first: the loop runs over it, and 2 * i + 1 stays
# inside x.
def halve(x):
    half = gpuarray.empty(x.size // 2, dtype=numpy.float32)
    pair_sum(half, x)
    return half

# The loop runs over src, the first vector; the strided array is other
# data the file does not size.
def widen(src, wide):
    scatter = ElementwiseKernel("float *src, float *dst, int k",
                                "dst[3 * i] = src[i] * k", "scatter_wide")
    scatter(src, wide, 1)

# The differences go into an array one shorter than x: the loop runs n - 1
# times, and x[i + 1] stays inside x.
def differences(x):
    d = gpuarray.empty(x.size - 1, dtype=numpy.float32)
    forward_diff(d, x)
    return d

# range= and slice= run another kernel over the range they give.
def pairs_in_range(x, y):
    pair_sum(y, x, range=slice(0, x.size // 2))
    pair_sum(y, x, slice=slice(0, x.size // 2))

# The operation bounds i itself.
guarded = ElementwiseKernel(
    "float *y, float *x, int n2",
    "if (i < n2) y[i] = x[2 * i] + x[2 * i + 1]",
    "guarded")
guarded(x, y, numpy.int32(x.size // 2))

# Unit strides and the elementwise idioms of PyCUDA's documentation.
lin_comb = ElementwiseKernel(
    "float a, float *x, float b, float *y, float *z",
    "z[i] = my_f(a*x[i], b*y[i])",
    "linear_combination",
    preamble="""
    __device__ float my_f(float x, float y)
    {
      return sin(x*y);
    }
    """)
z = gpuarray.empty_like(x)
lin_comb(5, x, 6, y, z)
copy_back = ElementwiseKernel("float *dst, float *src", "dst[i] = src[i]", "copy_back")
copy_back(x, x.copy())
count = ElementwiseKernel(
    arguments="int *flags, unsigned int *total",
    operation="if (flags[i]) local += 1",
    name="count_flags",
    loop_prep="unsigned int local = 0",
    after_loop="atomicAdd(total, local)")
flags = gpuarray.zeros(1000, dtype=numpy.int32)
count(flags, gpuarray.zeros(1, dtype=numpy.uint32))
# CHECK: exit=1
