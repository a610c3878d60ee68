# PyCUDA's own ElementwiseKernel (pycuda.elementwise): the kernel PyCUDA
# generates around the operation (a grid-stride loop over i < n, n added to
# the C arguments) is analysed, and findings in the user's text are reported
# at its place in the file (docs/python.md, "How the kernels are compiled").
# Without PyCUDA first: the suite's Python has no packages (test/lit.cfg.py).
# RUN: %cuda-tidy --no-cache --verbose %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --check-prefixes=CHECK,NOPKG --input-file=%t.out --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not='kernel source skipped'
# PyCUDA's headers come from the pycuda package the reader's Python would
# import (its cuda/ folder, which SourceModule always adds; located, never
# imported).
# RUN: env PYTHONPATH=%S/Inputs/fakepycuda %cuda-tidy --no-cache --verbose %s > %t.pkg 2>&1; echo "exit=$?" >> %t.pkg
# RUN: FileCheck %s --input-file=%t.pkg --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not='kernel source skipped'
import numpy
import pycuda.autoinit  # noqa: F401
import pycuda.gpuarray as gpuarray
from pycuda.elementwise import ElementwiseKernel
import pycuda.elementwise as el

# Idiomatic kernels: nothing to report.
axpy = ElementwiseKernel(
    "float a, float *x, float *y, float *z",
    "z[i] = a * x[i] + y[i]",
    "axpy")
clip = el.ElementwiseKernel(
    "double *x, double lo, double hi",
    "x[i] = clamp(x[i], lo, hi)",
    "clip",
    preamble="__device__ double clamp(double v, double a, double b) "
             "{ return v < a ? a : (v > b ? b : v); }")
# Keywords, loop_prep and after_loop around the loop.
count = ElementwiseKernel(
    arguments="int *flags, unsigned int *total",
    operation="if (flags[i]) local += 1",
    name="count",
    loop_prep="unsigned int local = 0",
    after_loop="atomicAdd(total, local)")

x = gpuarray.to_gpu(numpy.ones(1000, dtype=numpy.float32))
axpy(numpy.float32(2), x, x, x)

# A barrier in the operation is inside the loop over i < n: the threads past
# the end of the data leave before it.
smooth = ElementwiseKernel(
    "float *x",
    "__syncthreads(); x[i] = 0.5f * x[i]",
    "smooth")
# CHECK-DAG: pycuda-elementwise.py:[[@LINE-2]]:6: warning: barrier '__syncthreads' is not reached by every thread of the block

# pycuda:: names need PyCUDA's header: skipped where no pycuda is found.
magnitude = ElementwiseKernel(
    "pycuda::complex<float> *z, float *y",
    "y[i] = abs(z[i])",
    "magnitude")
# NOPKG-DAG: note: pycuda-elementwise.py:[[@LINE-4]]:13: kernel source skipped: it includes <pycuda-complex.hpp>, one of PyCUDA's headers; pass include_dirs or -I


def scale(ctype):
    # Arguments built from a parameter: the type is a hole, and the kernel
    # a template over it (no type is guessed).
    return ElementwiseKernel("%s *x" % ctype, "x[i] *= 2", "scale")
# CHECK-DAG: note: pycuda-elementwise.py:[[@LINE-1]]:12: kernel source analysed with 1 value the file does not hold: `ctype` (pycuda-elementwise.py:[[@LINE-1]]:31) as an opaque type
# CHECK: exit=1
