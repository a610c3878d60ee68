# Kernels that real CuPy code reaches indirectly (docs/python.md, "Kernels
# chosen at run time"): a kernel name built by a helper from the arrays'
# dtypes (`_get_module_func(module, 'f', x)`, cupyx's idiom: the name is
# `f<typename(x.dtype)>`, or just `f` with no arrays; where x's dtype is
# not known, an instantiation that name_expressions lists, with the
# parameters that name T unchecked), a name built from a
# suffix (`get_function(f'k_{x.dtype.name}')`, `'k_' + s`: each kernel of
# the module it can name), a kernel a helper receives as a parameter
# (`_launch(kern, x)`: launched once per call of the helper, with that
# call's arguments), and kernels kept in a dict or list of the module
# (`_fill[dtype]`). Their launches get the same argument facts as direct
# ones; where the file does not say which kernel, or the table changes,
# nothing is reported (a cache the file fills: kernels-in-caches.py).
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments,cuda-tensor-contiguity' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import cupy
from cupy._core._scalar import get_typename

_SRC = r'''
template <typename T>
__global__ void scale(const T *x, T *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * 2;
}
extern "C" __global__ void count(const double *x, long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] > 0;
}
extern "C" __global__ void fill_float32(float *y, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}
extern "C" __global__ void fill_float64(double *y, double v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}
'''
_MOD = cupy.RawModule(code=_SRC, name_expressions=['scale<float>', 'scale<double>'])


def _get_typename(dtype):
    typename = get_typename(dtype)
    if typename == 'float16':
        typename = 'half'
    return typename


def _get_module_func(module, func_name, *template_args):
    args_dtypes = [_get_typename(arg.dtype) for arg in template_args]
    template = ', '.join(args_dtypes)
    kernel_name = f'{func_name}<{template}>' if template_args else func_name
    kernel = module.get_function(kernel_name)
    return kernel


def helper_template(n):
    x = cupy.ones(n, dtype=cupy.float64)
    y = cupy.empty(n, dtype=cupy.float32)
    k = _get_module_func(_MOD, 'scale', x)
    k(((n + 255) // 256,), (256,), (x, y, n))
    # CHECK: :[[@LINE-1]]:40: warning: float32 array passed to pointer parameter 'y' of type 'double *' of 'scale'{{.*}} [cuda-kernel-arguments]
    # CHECK: :21:38: note: parameter 'y' of type 'double *' of 'scale' declared here


def helper_no_template(n):
    x = cupy.ones(n, dtype=cupy.float64)
    out = cupy.empty(n, dtype=cupy.int32)
    c = _get_module_func(_MOD, 'count')
    c(((n + 255) // 256,), (256,), (x, out, n))
    # CHECK: :[[@LINE-1]]:40: warning: int32 array passed to pointer parameter 'out' of type 'long long *' of 'count'{{.*}} [cuda-kernel-arguments]
    # CHECK: :25:62: note: parameter 'out' of type 'long long *' of 'count' declared here


def by_suffix(n):
    y = cupy.empty(n, dtype=cupy.float32)
    suffix = 'float32' if n > 10 else 'float64'
    k = _MOD.get_function(f'fill_{y.dtype.name}')
    # y is float32, so the name is fill_float32.
    k(((n + 127) // 128,), (128,), (y, 1, n))
    # CHECK: :[[@LINE-1]]:40: warning: Python int passed to parameter 'v' of type 'float' of 'fill_float32'{{.*}} [cuda-kernel-arguments]
    # CHECK: :29:57: note: parameter 'v' of type 'float' of 'fill_float32' declared here
    # The suffix is not known: fill_float32 or fill_float64, each launched,
    # and neither checked against y's dtype (the choice may follow it).
    k2 = _MOD.get_function('fill_' + suffix)
    k2(((n + 127) // 128,), (128,), (y, 1.0, n))


def _launch(kern, x, out):
    n = x.size
    kern(((n + 127) // 128,), (128,), (x, out, n))
    # CHECK: :[[@LINE-1]]:43: warning: int32 array passed to pointer parameter 'out' of type 'long long *' of 'count'{{.*}} [cuda-kernel-arguments]
    # CHECK: :[[@LINE+6]]:44: note: passed as this argument of '_launch' here
    # CHECK: :25:62: note: parameter 'out' of type 'long long *' of 'count' declared here


def passes_kernel(n):
    x = cupy.ones(n, dtype=cupy.float64)
    _launch(_MOD.get_function('count'), x, cupy.empty(n, dtype=cupy.int32))
    _launch(_MOD.get_function('count'), x, cupy.empty(n, dtype=cupy.int64))


_FILL = {cupy.float32: _MOD.get_function('fill_float32'),
         cupy.float64: _MOD.get_function('fill_float64')}
_FILL_LIST = [_MOD.get_function('fill_float32'), _MOD.get_function('fill_float64')]


def from_table(n):
    y = cupy.zeros(n, dtype=cupy.float64)
    _FILL_LIST[1](((n + 127) // 128,), (128,), (y, 2.0, n))
    # A key the reader does not evaluate: either entry, not checked.
    _FILL[cupy.float64](((n + 127) // 128,), (128,), (y, 2.0, n))
    z = cupy.zeros(n, dtype=cupy.float32)
    _FILL_LIST[0](((n + 127) // 128,), (128,), (y, 2.0, n))
    # CHECK: :[[@LINE-1]]:49: warning: float64 array passed to pointer parameter 'y' of type 'float *' of 'fill_float32'{{.*}} [cuda-kernel-arguments]
    # CHECK: :29:48: note: parameter 'y' of type 'float *' of 'fill_float32' declared here
    # CHECK: :[[@LINE-3]]:52: warning: Python float passed to parameter 'v' of type 'float' of 'fill_float32'{{.*}} [cuda-kernel-arguments]
    # CHECK: :29:57: note: parameter 'v' of type 'float' of 'fill_float32' declared here
    _FILL_LIST[0](((n + 127) // 128,), (128,), (z, cupy.float32(2.0), n))


def dtype_unknown(x):
    # The instantiation follows x's dtype, which the file does not say: one
    # that name_expressions lists is launched, the parameters that name T
    # are not checked, the others are.
    x = cupy.ascontiguousarray(x)
    y = cupy.empty_like(x)
    k = _get_module_func(_MOD, 'scale', x)
    k(((x.size + 255) // 256,), (256,), (x, y, x.size))
    k(((x.size + 255) // 256,), (256,), (x, y.astype(cupy.float32), 1.5))
    # CHECK: :[[@LINE-1]]:69: warning: Python float passed to parameter 'n' of type 'int' of 'scale'{{.*}} [cuda-kernel-arguments]
    # CHECK: :21:45: note: parameter 'n' of type 'int' of 'scale' declared here


def in_branches(y, n):
    # Bound and launched in the same branch: that branch's kernel.
    z = cupy.zeros(n, dtype=cupy.float64)
    if y.ndim == 1:
        k = _MOD.get_function('fill_float32')
        k(((n + 127) // 128,), (128,), (z, 0, n))
        # CHECK: :[[@LINE-1]]:41: warning: float64 array passed to pointer parameter 'y' of type 'float *' of 'fill_float32'{{.*}} [cuda-kernel-arguments]
        # CHECK: :29:48: note: parameter 'y' of type 'float *' of 'fill_float32' declared here
        # CHECK: :[[@LINE-3]]:44: warning: Python int passed to parameter 'v' of type 'float' of 'fill_float32'{{.*}} [cuda-kernel-arguments]
        # CHECK: :29:57: note: parameter 'v' of type 'float' of 'fill_float32' declared here
    else:
        k = _MOD.get_function('fill_float64')
        k(((n + 127) // 128,), (128,), (z, 0.0, n))
    # After the branches either kernel may run: each is launched, its
    # arguments unchecked (test/python/kernels-in-branches.py).
    k(((n + 127) // 128,), (128,), (z, 0, n))


# Negatives: idiomatic code where the kernel is not known.


# Caches that the file fills while it runs: kernels-in-caches.py.


def _apply(kern, y):
    kern(((y.size + 127) // 128,), (128,), (y, 1, y.size))


def passes_other(n, kern):
    # One call passes a kernel the file does not make.
    _apply(_FILL_LIST[0], cupy.zeros(n, dtype=cupy.float64))
    _apply(kern, cupy.zeros(n, dtype=cupy.float64))


def unknown_suffix(n, which):
    # No kernel of the module matches 'scale_*'.
    y = cupy.zeros(n, dtype=cupy.float64)
    _MOD.get_function('scale_' + which)(((n + 127) // 128,), (128,), (y, 1, n))

# CHECK: exit=1
