# Kernels bound in branches and launched after them (docs/python.md,
# "Kernels chosen at run time"): every binding that can reach the launch
# is followed (an `if` joins its two arms; an arm that returns or raises
# joins nothing), and so are both arms of a conditional expression. Where
# all of them give one kernel, the launch is that kernel's; otherwise it
# is written once for each, with its grid and block read and no
# argument's dtype checked (which kernel runs follows the condition, as
# the arguments' dtypes may). A cache read with `.get` holds what the
# file stores into it.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not=note:
import cupy

_SRC = r'''
extern "C" __global__ void fill32(float *y, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}
extern "C" __global__ void fill64(double *y, double v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}
'''
_MOD = cupy.RawModule(code=_SRC)


def two_kernels(y, n):
    # Either kernel may run: each launch has its geometry checked.
    if y.dtype == cupy.float32:
        k = _MOD.get_function('fill32')
    else:
        k = _MOD.get_function('fill64')
    k((n / 128,), (128,), (y, y.dtype.type(0), n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:8: warning: this grid dimension of the launch of 'fill32' is a float (true division '/'); CuPy raises TypeError{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:[[@LINE-2]]:8: warning: this grid dimension of the launch of 'fill64' is a float (true division '/'); CuPy raises TypeError{{.*}} [cuda-kernel-arguments]


def one_kernel_two_ways(n, big):
    # Both arms bind the same kernel: its parameters are checked.
    if big:
        k = _MOD.get_function('fill32')
    else:
        k = _MOD.get_function('fill32')
    z = cupy.zeros(n, dtype=cupy.float64)
    k(((n + 127) // 128,), (128,), (z, cupy.float32(1), n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:37: warning: float64 array passed to pointer parameter 'y' of type 'float *' of 'fill32'{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:15:42: note: parameter 'y' of type 'float *' of 'fill32' declared here


def default_then_branch(y, n, wide):
    # A binding before the `if` and one in it: both reach.
    k = _MOD.get_function('fill32')
    if wide:
        k = _MOD.get_function('fill64')
    k(((n + 127) // 128,), (n / 2,), (y, 0, n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:29: warning: this block dimension of the launch of 'fill32' is a float (true division '/'); CuPy raises TypeError{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:[[@LINE-2]]:29: warning: this block dimension of the launch of 'fill64' is a float (true division '/'); CuPy raises TypeError{{.*}} [cuda-kernel-arguments]


def arm_returns(n):
    # The arm that returns never reaches the launch: only fill64 does.
    if n == 0:
        k = _MOD.get_function('fill32')
        return k
    else:
        k = _MOD.get_function('fill64')
    z = cupy.zeros(n, dtype=cupy.float32)
    k(((n + 127) // 128,), (128,), (z, 0.0, n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:37: warning: float32 array passed to pointer parameter 'y' of type 'double *' of 'fill64'{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:19:43: note: parameter 'y' of type 'double *' of 'fill64' declared here


def conditional_expression(y, n):
    k = _MOD.get_function('fill32') if y.dtype == cupy.float32 else _MOD.get_function('fill64')
    k((n / 256,), (256,), (y, 0, n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:8: warning: this grid dimension of the launch of 'fill32' is a float (true division '/'){{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:[[@LINE-2]]:8: warning: this grid dimension of the launch of 'fill64' is a float (true division '/'){{.*}} [cuda-kernel-arguments]


_FILL = r'''
extern "C" __global__ void fill(float *y, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}
'''
_kernel_cache = {}


def cached_get(n):
    # The cache is read with .get and filled on a miss: every store of the
    # file stores 'fill', so the launch is that kernel's.
    kern = _kernel_cache.get(n)
    if kern is None:
        kern = cupy.RawKernel(_FILL, 'fill')
        _kernel_cache[n] = kern
    y = cupy.zeros(n, dtype=cupy.float64)
    kern(((n + 255) // 256,), (256,), (y, cupy.float32(1), n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:40: warning: float64 array passed to pointer parameter 'y' of type 'float *' of 'fill'{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:81:40: note: parameter 'y' of type 'float *' of 'fill' declared here


def _get_fill(key):
    kern = _kernel_cache.get(key, None)
    if kern is None:
        kern = cupy.RawKernel(_FILL, 'fill')
        _kernel_cache[key] = kern
    return kern


def from_cached_getter(n):
    y = cupy.zeros(n, dtype=cupy.float32)
    _get_fill(n)(((n + 255) // 256,), (256,), (y, 1, n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:51: warning: Python int passed to parameter 'v' of type 'float' of 'fill'{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:81:49: note: parameter 'v' of type 'float' of 'fill' declared here


# Negatives: idiomatic correct code, and bindings that are not followed
# (a path whose kernel is not known is not written).


def right_dtype(y, n):
    if y.dtype == cupy.float32:
        k = _MOD.get_function('fill32')
    else:
        k = _MOD.get_function('fill64')
    # Each kernel of the choice is given y: its dtype follows the branch.
    k(((n + 127) // 128,), (128,), (y, y.dtype.type(0), cupy.int32(n)))
    k(((n + 127) // 128,), (128,), (y, 0, n))


def right_cached(n):
    kern = _kernel_cache.get(n)
    if kern is None:
        kern = cupy.RawKernel(_FILL, 'fill')
        _kernel_cache[n] = kern
    y = cupy.zeros(n, dtype=cupy.float32)
    kern(((n + 255) // 256,), (256,), (y, cupy.float32(1), cupy.int32(n)))


def in_a_loop(n, names):
    # Bound in a loop: the last iteration's name is not known.
    for name in names:
        k = _MOD.get_function(name)
    k((n / 128,), (128,), (cupy.zeros(n), 0, n))


def in_a_loop_branch(n, flags):
    # Bound before the loop and in it: either kernel, each with a float grid.
    k = _MOD.get_function('fill32')
    for f in flags:
        if f:
            k = _MOD.get_function('fill64')
    k((n / 128,), (128,), (cupy.zeros(n), 0, n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:8: warning: this grid dimension of the launch of 'fill32' is a float (true division '/'); CuPy raises TypeError{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:[[@LINE-2]]:8: warning: this grid dimension of the launch of 'fill64' is a float (true division '/'); CuPy raises TypeError{{.*}} [cuda-kernel-arguments]


def parameter_rebound(n, k=None):
    # A parameter of the name: the caller's value may reach.
    if k is None:
        k = _MOD.get_function('fill32')
    k((n / 128,), (128,), (cupy.zeros(n), 0, n))


def one_arm_unknown(n, other):
    # One path's kernel is known: its launch is written, its arguments
    # unchecked (the other path launches another kernel).
    if n > 10:
        k = _MOD.get_function('fill32')
    else:
        k = other
    k((n / 128,), (128,), (cupy.zeros(n), 0, n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:8: warning: this grid dimension of the launch of 'fill32' is a float (true division '/'){{.*}} [cuda-kernel-arguments]
    k(((n + 127) // 128,), (128,), (cupy.zeros(n), 0, n))


def in_try(n):
    # A handler that goes on: the body's kernel or the handler's.
    try:
        k = _MOD.get_function('fill32')
    except KeyError:
        k = _MOD.get_function('fill64')
    k((n / 128,), (128,), (cupy.zeros(n), 0, n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:8: warning: this grid dimension of the launch of 'fill32' is a float (true division '/'); CuPy raises TypeError{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:[[@LINE-2]]:8: warning: this grid dimension of the launch of 'fill64' is a float (true division '/'); CuPy raises TypeError{{.*}} [cuda-kernel-arguments]


def unpacked(n, pair):
    if n:
        k, m = pair
    else:
        k = _MOD.get_function('fill32')
    k((n / 128,), (128,), (cupy.zeros(n), 0, n))


public_cache = {}


def public_get(n):
    # A public name: another module may store into it.
    kern = public_cache.get(n)
    if kern is None:
        kern = cupy.RawKernel(_FILL, 'fill')
        public_cache[n] = kern
    kern(((n + 255) // 256,), (256,), (cupy.zeros(n), 1, n))


_defaulted = {}


def get_with_default(n, fallback):
    # The default is another value: not followed.
    kern = _defaulted.get(n, fallback)
    if kern is None:
        kern = cupy.RawKernel(_FILL, 'fill')
        _defaulted[n] = kern
    kern(((n + 255) // 256,), (256,), (cupy.zeros(n), 1, n))
    # On the path that misses, the kernel is the one made here: its
    # geometry is read (the arguments are not: the other path's kernel
    # is not known).
    kern((n / 256,), (256,), (cupy.zeros(n), 1, n))
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:11: warning: this grid dimension of the launch of 'fill' is a float (true division '/'){{.*}} [cuda-kernel-arguments]


_holds_other = {}


def holds_other(n, other):
    # One store is not a kernel of the file.
    _holds_other['x'] = other
    kern = _holds_other.get(n)
    if kern is None:
        kern = cupy.RawKernel(_FILL, 'fill')
        _holds_other[n] = kern
    kern(((n + 255) // 256,), (256,), (cupy.zeros(n), 1, n))


def count_in_one_arm(x, n):
    # The kernel and its arguments are bound together in each arm: each
    # path is written apart, so one arm's arguments never meet the other
    # arm's kernel, and the arm that passes too few is reported.
    if x.ndim == 1:
        k = _MOD.get_function('fill32')
        args = (x, cupy.float32(0), cupy.int32(n))
    else:
        k = _MOD.get_function('fill64')
        args = (x, 0.0)
    k(((n + 255) // 256,), (256,), args)
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:5: warning: this launch of 'fill64' passes 2 arguments to its 3 parameters{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:19:28: note: kernel 'fill64' declared here


def geometry_in_branches(x, n):
    # cupyx's idiom: a default, then the kernel, grid, block and
    # arguments of the 2-D case bound together under one `if`.
    k = _MOD.get_function('fill32')
    blocks = ((n + 255) // 256,)
    threads = (256,)
    args = (x, cupy.float32(0), cupy.int32(n))
    if x.ndim > 1:
        k = _MOD.get_function('fill64')
        blocks = ((n + 127) // 128, 1)
        threads = (128, 1)
        args = (x, 0.0, cupy.int32(n))
    k(blocks, threads, args)

_PAIR = cupy.RawModule(code=r'''
extern "C" __global__ void one(float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 1.0f;
}
extern "C" __global__ void two(float *y, const float *z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = z[i];
}''')


def decided_twice(x, n):
    # One decision written twice: both `if`s take the same arm, so 'one'
    # never meets the 3-argument tuple.
    if x.ndim == 1:
        k = _PAIR.get_function('one')
    else:
        k = _PAIR.get_function('two')
    blocks = ((n + 255) // 256,)
    if x.ndim == 1:
        args = (x, cupy.int32(n))
    else:
        args = (x, x, cupy.int32(n))
    k(blocks, (256,), args)


def decided_twice_short(x, n):
    # The same decision, and the 2-D arm passes too few: reported for 'two'.
    if x.ndim == 1:
        k = _PAIR.get_function('one')
    else:
        k = _PAIR.get_function('two')
    if x.ndim == 1:
        args = (x, cupy.int32(n))
    else:
        args = (x, cupy.int32(n))
    k(((n + 255) // 256,), (256,), args)
    # CHECK: kernels-in-branches.py:[[@LINE-1]]:5: warning: this launch of 'two' passes 2 arguments to its 3 parameters{{.*}} [cuda-kernel-arguments]
    # CHECK: kernels-in-branches.py:272:28: note: kernel 'two' declared here


def by_mode(mode, n):
    # The launch's own `if` says which arm bound the kernel (mode == 1
    # rules out mode == 2): only 'one' reaches it, and it is checked.
    if mode == 1:
        k = _PAIR.get_function('one')
    elif mode == 2:
        k = _PAIR.get_function('two')
    y = cupy.zeros(n, dtype=cupy.float64)
    if mode == 1:
        k(((n + 255) // 256,), (256,), (y, cupy.int32(n)))
        # CHECK: kernels-in-branches.py:[[@LINE-1]]:41: warning: float64 array passed to pointer parameter 'y' of type 'float *' of 'one'{{.*}} [cuda-kernel-arguments]
        # CHECK: kernels-in-branches.py:268:39: note: parameter 'y' of type 'float *' of 'one' declared here
    else:
        # mode != 1: only 'two' (or nothing) reaches; its arguments are right.
        z = cupy.zeros(n, dtype=cupy.float32)
        k(((n + 255) // 256,), (256,), (z, z, cupy.int32(n)))


def tied_decisions(x, n):
    # Two conditions that the reader does not compare: a path may pair one
    # arm's kernel with the other's arguments, so their count is not read.
    if x.ndim == 1:
        k = _PAIR.get_function('one')
    else:
        k = _PAIR.get_function('two')
    if x.ndim > 1:
        args = (x, x, cupy.int32(n))
    else:
        args = (x, cupy.int32(n))
    k(((n + 255) // 256,), (256,), args)

# CHECK: exit=1
