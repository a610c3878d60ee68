# A Python scalar passed to a kernel parameter whose type is a placeholder
# of the source ('{ctype} a'): CuPy sends a Python float as an 8-byte
# float64 and an int as an int64 (cupy/_core/_scalar.pyx), so the kernel
# reads the value only where the placeholder is 'double' (or 'long long').
# The kernel is a template over the placeholder; its launch names it
# without an error.
# RUN: %cuda-tidy --no-cache --quiet --checks='-*,cuda-kernel-arguments' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import cupy as cp
import numpy as np

_AXPY = r'''
extern "C" __global__ void axpy({ctype} a, const {ctype} *x, {ctype} *y, {itype} n) {{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}}
'''

_TYPES = {np.float32: 'float', np.float64: 'double'}
_INDEX = {np.int32: 'int', np.int64: 'long long'}


def axpy(a, x, y, index=np.int32):
    ctype = _TYPES[x.dtype.type]
    k = cp.RawKernel(_AXPY.format(ctype=ctype, itype=_INDEX[index]), 'axpy')
    k(((x.size + 255) // 256,), (256,), (2.0, x, y, index(x.size)))
# CHECK: hole-typed-scalars.py:[[@LINE-1]]:42: warning: Python float passed to parameter 'a' of 'axpy', whose type is the source's placeholder 'ctype', is sent as an 8-byte float64; the kernel reads the value only where 'ctype' is 'double': pass a scalar of the kernel's dtype (for example x.dtype.type(...)) [cuda-kernel-arguments]
# CHECK: hole-typed-scalars.py:[[@LINE-15]]:41: note: parameter 'a' of 'axpy' declared here


def count(x, y, index=np.int32):
    ctype = _TYPES[x.dtype.type]
    k = cp.RawKernel(_AXPY.format(ctype=ctype, itype=_INDEX[index]), 'axpy')
    k(((x.size + 255) // 256,), (256,), (x.dtype.type(1), x, y, x.size))
# CHECK: hole-typed-scalars.py:[[@LINE-1]]:65: warning: Python int passed to parameter 'n' of 'axpy', whose type is the source's placeholder 'INDEX_index', is sent as an 8-byte int64; the kernel reads the value only where 'INDEX_index' is 'long long'{{.*}}[cuda-kernel-arguments]
# CHECK: hole-typed-scalars.py:[[@LINE-23]]:82: note: parameter 'n' of 'axpy' declared here


def axpy_right(a, x, y, index=np.int32):
    ctype = _TYPES[x.dtype.type]
    k = cp.RawKernel(_AXPY.format(ctype=ctype, itype=_INDEX[index]), 'axpy')
    # Scalars in the kernel's dtypes, and the pointers: correct.
    k(((x.size + 255) // 256,), (256,), (x.dtype.type(a), x, y, index(x.size)))
    k(((x.size + 255) // 256,), (256,), (np.float32(a), x, y, cp.int64(x.size)))

# CHECK: exit=1
