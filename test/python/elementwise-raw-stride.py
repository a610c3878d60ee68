# An ElementwiseKernel's `i` runs over every element of its loop: the
# broadcast shape of its non-raw arrays, or `size=` when all are raw. A
# raw array that a call sizes to that loop (the same array as a non-raw
# argument, one made `*_like` it, or `size=a.size` for the raw array a)
# has one element per iteration, so an index that grows faster than `i`
# runs past its end (docs/checks/cuda-unguarded-thread-index.md).
# RUN: %cuda-tidy --no-cache --quiet --checks='-*,cuda-unguarded-thread-index' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import cupy as cp

# The diagonal of an N x N matrix written over the whole matrix: i reaches
# N * N - 1, and i * (N + 1) is past the end from i = N on.
def eye_wrong(n, dtype):
    e = cp.zeros((n, n), dtype=dtype)
    fill = cp.ElementwiseKernel('', 'raw T e', 'e[i * %d] = 1' % (n + 1), 'fill_diag')
    fill(e, size=e.size)
# CHECK: elementwise-raw-stride.py:[[@LINE-2]]:49: warning: write to 'e' at 'i * _py_n_plus_1' runs past its end: the call at line [[@LINE-1]] gives 'e' one element per iteration of the elementwise loop, and the index grows by '_py_n_plus_1' per iteration [cuda-unguarded-thread-index]
# CHECK: elementwise-raw-stride.py:[[@LINE-3]]:12: note: bound 'i' in the operation, or run the loop over fewer iterations ('size=' in CuPy, 'range=' in PyCUDA)
    return e

# A forward difference whose raw input sizes the loop reads one past it at
# the last i; run over one element fewer, it stays inside.
def forward_diff(x):
    diff = cp.ElementwiseKernel('raw T x', 'T d', 'd = x[i + 1] - x[i]', 'fdiff')
    d = cp.empty_like(x)
    diff(x, d)
# CHECK: elementwise-raw-stride.py:[[@LINE-3]]:56: warning: read of 'x' at 'i + 1' runs past its end: the call at line [[@LINE-1]] gives 'x'{{.*}}and the last iteration goes past it [cuda-unguarded-thread-index]
# CHECK: elementwise-raw-stride.py:[[@LINE-4]]:12: note: bound 'i' in the operation, or run the loop over fewer iterations
    inside = cp.empty(x.size - 1, dtype=x.dtype)
    diff(x, inside)
    return d, inside

# size= the product of the matrix's dimensions, and a raw output made with
# the shape of the input.
def eye_product(n):
    e = cp.zeros((n, n), dtype=cp.float32)
    fill = cp.ElementwiseKernel('', 'raw T e', f'e[i * {n + 1}] = 1', 'fill_d')
    fill(e, size=n * n)
# CHECK: elementwise-raw-stride.py:[[@LINE-2]]:50: warning: write to 'e' at 'i * _py_n_plus_1' runs past its end: the call at line [[@LINE-1]] gives 'e'{{.*}}[cuda-unguarded-thread-index]
# CHECK: elementwise-raw-stride.py:[[@LINE-3]]:12: note: bound 'i' in the operation, or run the loop over fewer iterations
    return e

def spread_shape(x):
    y = cp.empty(x.shape, dtype=x.dtype)
    scatter2(x, y)
    return y

# The same kernel run N times: correct.
def eye_right(n, dtype):
    e = cp.zeros((n, n), dtype=dtype)
    fill = cp.ElementwiseKernel('', 'raw T e', 'e[i * %d] = 1' % (n + 1), 'fill_diag')
    fill(e, size=n)
    return e

# A raw output made like the input, written at twice the index.
scatter2 = cp.ElementwiseKernel('T x', 'raw T y', 'y[2 * i + 1] = x', 'scatter2')

def spread(x):
    y = cp.empty_like(x)
    scatter2(x, y)
# CHECK: elementwise-raw-stride.py:[[@LINE-5]]:52: warning: write to 'y' at '2 * i + 1' runs past its end: the call at line {{[0-9]+}} gives 'y' one element per iteration{{.*}}grows by '2' per iteration [cuda-unguarded-thread-index]
# CHECK: elementwise-raw-stride.py:[[@LINE-6]]:12: note: bound 'i' in the operation, or run the loop over fewer iterations
    return y

def spread_right(x):
    y = cp.empty(2 * x.size, dtype=x.dtype)
    scatter2(x, y)
    return y

# The same array passed raw and non-raw: a read at a stride of a
# constant the file holds.
STRIDE = 3
pick = cp.ElementwiseKernel('T a, raw T b', 'T y',
                            'y = a + b[i * {}]'.format(STRIDE), 'pick')

def pick_self(x):
    return pick(x, x)
# CHECK: elementwise-raw-stride.py:[[@LINE-4]]:38: warning: read of 'b' at 'i * 3' runs past its end: the call at line [[@LINE-1]] gives 'b'{{.*}}grows by '3' per iteration [cuda-unguarded-thread-index]
# CHECK: elementwise-raw-stride.py:[[@LINE-6]]:8: note: bound 'i' in the operation, or run the loop over fewer iterations

# --- Negatives: idiomatic CuPy code ----------------------------------------

def pick_other(x, table):
    # table is its own array: its size is not the loop's.
    return pick(x, table)

# Downsampling: the raw input is twice the output.
halve = cp.ElementwiseKernel('raw T x', 'T y', 'y = (x[2 * i] + x[2 * i + 1]) / 2', 'halve')

def downsample(x):
    y = cp.empty(x.size // 2, dtype=x.dtype)
    return halve(x, y)

# The loop index itself, and an index bounded by a modulo.
copy_raw = cp.ElementwiseKernel('T x', 'raw T y', 'y[i] = x', 'copy_raw')
tile = cp.ElementwiseKernel('T x, int64 n', 'raw T y', 'y[(i % n) * 2] = x', 'tile')

def copies(x):
    y = cp.empty_like(x)
    copy_raw(x, y)
    tile(x, 4, y)
    return y

# A guard on i in the operation.
guarded = cp.ElementwiseKernel('T x, int64 n', 'raw T y',
                               'if (i < n) y[i * 2] = x', 'guarded')
cond = cp.ElementwiseKernel('T x, int64 n', 'raw T y',
                            'y[i < n ? i * 2 : i] = x', 'cond')

def guard(x):
    y = cp.empty_like(x)
    guarded(x, x.size // 2, y)
    cond(x, x.size // 2, y)
    return y

# A stride the file does not hold (it may be 1), and a stride of 1.
strided = cp.ElementwiseKernel('T x, int64 s', 'raw T y', 'y[i * s] = x', 'strided')
unit = cp.ElementwiseKernel('T x', 'raw T y', 'y[i * 1] = x', 'unit')

def unknown_stride(x, s):
    y = cp.empty_like(x)
    strided(x, s, y)
    unit(x, y)
    return y

# size= that is not the raw array's size, and arguments the file cannot
# pair with parameters.
def unpaired(x, args):
    e = cp.zeros((4, 4), dtype=x.dtype)
    fill = cp.ElementwiseKernel('', 'raw T e', 'e[i * 5] = 1', 'fill_diag5')
    fill(e, size=4)
    scatter2(*args)
    return e

# A ReductionKernel's index runs over its input, not a raw output.
rsum = cp.ReductionKernel('T x, raw T w', 'T y', 'x * w[_j * 2]', 'a + b', 'y = a', '0', 'rsum')

def weighted(x):
    return rsum(x, x)

# A raw array's shape, strides and data (CuPy's CArray members).
dims = cp.ElementwiseKernel('raw int32 x', 'int64 y',
                            'y = x.shape()[i] + x.strides()[i] + (x.data() != 0) + x.ndim',
                            'dims')

def shape_of(x):
    return dims(x, size=x.ndim)

# CHECK: exit=1
