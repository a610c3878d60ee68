# PyCUDA's ReductionKernel (pycuda.reduction): the first-stage kernel PyCUDA
# generates (each thread folds map_expr over i < n with reduce_expr, then
# the block combines) is compiled and analysed, and errors in the user's
# text are reported at their place in the file (docs/python.md, "How the
# kernels are compiled").
# RUN: %cuda-tidy --no-cache --verbose %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not='kernel source skipped'
import numpy
import numpy as np
import pycuda.autoinit  # noqa: F401
import pycuda.gpuarray as gpuarray
from pycuda.reduction import ReductionKernel
from pycuda.tools import dtype_to_ctype
import pycuda.reduction as red

# Idiomatic reductions (PyCUDA's documentation and its own helpers).
dot = ReductionKernel(numpy.float32, neutral="0",
                      reduce_expr="a+b", map_expr="x[i]*y[i]",
                      arguments="float *x, float *y")
x = gpuarray.to_gpu(numpy.ones(1000, dtype=numpy.float32))
print(dot(x, x).get())
total = ReductionKernel(np.float64, "0", "a+b")
largest = red.ReductionKernel(
    dtype_out=np.float32, neutral="-MY_INFINITY", reduce_expr="fmaxf(a, b)",
    arguments="const float *in", preamble="#define MY_INFINITY (1./0)")
norm = ReductionKernel("float64", neutral="0", reduce_expr="a + b",
                       map_expr="sq(v[idx[i]])",
                       arguments="const unsigned int *idx, const double *v",
                       name="subset_norm",
                       preamble="__device__ double sq(double t) { return t * t; }")
count_nonzero = ReductionKernel(np.int32, neutral="0", reduce_expr="a + b",
                                map_expr="flags[i] != 0 ? 1 : 0",
                                arguments="const int *flags")


def dot_kernel(dtype):
    # dtype_out from a parameter: out_type is a type the file does not
    # hold, and the kernel a template over it.
    return ReductionKernel(dtype, neutral="0", reduce_expr="a+b",
                           map_expr="a[i]*b[i]",
                           arguments="const %(tp)s *a, const %(tp)s *b" % {
                               "tp": dtype_to_ctype(dtype)})
# CHECK-DAG: note: pycuda-reduction.py:[[@LINE-4]]:12: kernel source analysed with 2 values the file does not hold: {{.*}}`dtype` (pycuda-reduction.py:[[@LINE-4]]:28) as an opaque type


# A name the arguments do not declare: the compiler's error is at its
# place in map_expr.
weighted = ReductionKernel(numpy.float32, neutral="0", reduce_expr="a+b",
                           map_expr="x[i] * w[i]",
                           arguments="const float *x, const float *weights")
# CHECK-DAG: pycuda-reduction.py:[[@LINE-2]]:45: error: use of undeclared identifier 'w'

# complex64 is pycuda::complex<float>, which needs PyCUDA's header (the
# suite's Python has no pycuda).
csum = ReductionKernel(numpy.complex64, neutral="0", reduce_expr="a+b",
                       arguments="const pycuda::complex<float> *in")
# CHECK-DAG: note: pycuda-reduction.py:[[@LINE-2]]:8: kernel source skipped: it includes <pycuda-complex.hpp>, one of PyCUDA's headers; pass include_dirs or -I
# CHECK: exit=2
