# Kernels kept in a cache that the code fills while it runs
# (docs/python.md, "Kernels in caches"): a private dict of the module,
# bound once to `{}`, read only as `_cache[key]` and `key in _cache`, every
# store a kernel of the file. A lookup after the store under the same key
# in the same function is that store's kernel (where every store of the
# file stores that kernel); another lookup is each
# kernel the cache can hold (only the geometry is checked). A RawKernel
# whose name is built at run time and whose source defines one kernel
# launches that kernel, its arguments unchecked.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import cupy

_SRC = r'''
extern "C" __global__ void fill(float *y, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}
'''

_kernels = {}


def fill(n, v):
    key = ('fill', n > 1024)
    if key not in _kernels:
        _kernels[key] = cupy.RawKernel(_SRC, 'fill')
    kernel = _kernels[key]
    y = cupy.empty(n, dtype=cupy.float64)
    kernel(((n + 255) // 256,), (256,), (y, cupy.float32(v), n))
    # CHECK: kernels-in-caches.py:[[@LINE-1]]:42: warning: float64 array passed to pointer parameter 'y' of type 'float *' of 'fill'{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-caches.py:15:40: note: parameter 'y' of type 'float *' of 'fill' declared here


def fill_direct(n):
    # Looked up and launched in one expression.
    if n not in _kernels:
        _kernels[n] = cupy.RawKernel(_SRC, 'fill')
    y = cupy.zeros(n, dtype=cupy.float32)
    _kernels[n](((n + 255) // 256,), (256,), (y, 2, n))
    # CHECK: kernels-in-caches.py:[[@LINE-1]]:50: warning: Python int passed to parameter 'v' of type 'float' of 'fill'{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-caches.py:15:49: note: parameter 'v' of type 'float' of 'fill' declared here


def _get_kernel(key):
    # Another function's lookup: each kernel the cache can hold, so the
    # arguments are not checked, the geometry is.
    return _kernels[key]


def from_getter(n):
    y = cupy.zeros(n, dtype=cupy.float64)
    _get_kernel(n)((n / 256,), (256,), (y, 1.0, n))
    # CHECK: kernels-in-caches.py:[[@LINE-1]]:21: warning: this grid dimension of the launch of 'fill' is a float (true division '/'); CuPy raises TypeError{{.*}} [cuda-kernel-arguments]


def named_at_run_time(n, scale):
    # The name is built at run time; the source defines one kernel.
    fn_name = f'scale_{n}'
    src = 'extern "C" __global__ void ' + fn_name + r'''(float *y, int m) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < m) y[i] *= 2.0f;
    }'''
    k = cupy.RawKernel(src, fn_name)
    y = cupy.ones(n, dtype=cupy.float64)
    k((n / 128,), (128,), (y, n))
    # CHECK: kernels-in-caches.py:[[@LINE-1]]:8: warning: this grid dimension of the launch of 'scale__py_n' is a float (true division '/'); CuPy raises TypeError{{.*}} [cuda-kernel-arguments]


# Negatives: idiomatic correct code, and caches whose entries are not known.


def fill_right(n, v):
    key = ('fill', n > 1024)
    if key not in _kernels:
        _kernels[key] = cupy.RawKernel(_SRC, 'fill')
    kernel = _kernels[key]
    y = cupy.empty(n, dtype=cupy.float32)
    kernel(((n + 255) // 256,), (256,), (y, cupy.float32(v), cupy.int32(n)))
    kernel(((n + 255) // 256,), (256,), (y, numpy_free_scalar(v), n))


def numpy_free_scalar(v):
    return cupy.float32(v)


_escapes = {}


def escapes(n, register):
    # The cache is handed to other code, which may store anything.
    register(_escapes)
    if n not in _escapes:
        _escapes[n] = cupy.RawKernel(_SRC, 'fill')
    y = cupy.zeros(n, dtype=cupy.float64)
    _escapes[n](((n + 255) // 256,), (256,), (y, 1, n))


public_cache = {}


def public(n):
    # A public name: another module may store into it.
    if n not in public_cache:
        public_cache[n] = cupy.RawKernel(_SRC, 'fill')
    y = cupy.zeros(n, dtype=cupy.float64)
    public_cache[n](((n + 255) // 256,), (256,), (y, 1, n))


_mixed = {}


def mixed(n, other):
    # One entry is not a kernel of the file.
    _mixed['a'] = cupy.RawKernel(_SRC, 'fill')
    _mixed['b'] = other
    y = cupy.zeros(n, dtype=cupy.float64)
    _mixed[n](((n + 255) // 256,), (256,), (y, 1, n))


_rekeyed = {}


def rekeyed(n, keys):
    # The key changes between the store and the lookup: the entry may be
    # another one (each is 'fill' here, so only the geometry is read).
    key = keys[0]
    if key not in _rekeyed:
        _rekeyed[key] = cupy.RawKernel(_SRC, 'fill')
    key = keys[1]
    y = cupy.zeros(n, dtype=cupy.float64)
    _rekeyed[key](((n + 255) // 256,), (256,), (y, 1, n))


_SRC64 = r'''
extern "C" __global__ void fill64(double *y, double v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}
'''
_shared = {}


def fill_shared32(n):
    # Two functions fill one key with different kernels: whichever ran
    # first is in the cache, so neither lookup's arguments are checked.
    if n not in _shared:
        _shared[n] = cupy.RawKernel(_SRC, 'fill')
    y = cupy.zeros(n, dtype=cupy.float32)
    _shared[n](((n + 255) // 256,), (256,), (y, cupy.float32(1), n))


def fill_shared64(n):
    if n not in _shared:
        _shared[n] = cupy.RawKernel(_SRC64, 'fill64')
    y = cupy.zeros(n, dtype=cupy.float64)
    _shared[n](((n + 255) // 256,), (256,), (y, 1.0, n))


_named = {}


def fill_named32(n):
    # Keys that cannot meet ('f32_...' and 'f64_...'): each lookup is its
    # own function's kernel.
    key = f'f32_{n}'
    if key not in _named:
        _named[key] = cupy.RawKernel(_SRC, 'fill')
    y = cupy.zeros(n, dtype=cupy.float64)
    _named[key](((n + 255) // 256,), (256,), (y, cupy.float32(1), n))
    # CHECK: kernels-in-caches.py:[[@LINE-1]]:47: warning: float64 array passed to pointer parameter 'y' of type 'float *' of 'fill'{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-caches.py:15:40: note: parameter 'y' of type 'float *' of 'fill' declared here


def fill_named64(n):
    key = f'f64_{n}'
    if key not in _named:
        _named[key] = cupy.RawKernel(_SRC64, 'fill64')
    y = cupy.zeros(n, dtype=cupy.float64)
    _named[key](((n + 255) // 256,), (256,), (y, 1.0, n))

# CHECK: exit=1
