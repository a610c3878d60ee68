# Names a launch reads bound in loops and try blocks (docs/python.md,
# "Names bound in branches"): a binding in a loop body reaches a launch
# later in the body and after the loop (joined with the one before the
# loop: the body may not run); a try body's binding reaches past a handler
# that raises. A loop with a break is not followed.
# RUN: %cuda-tidy --no-cache --quiet -checks='-*,cuda-kernel-arguments' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error:
import cupy

_SRC = r'''
extern "C" __global__ void scale(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
extern "C" __global__ void scale_d(const double* x, double* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0 * x[i];
}
'''
_mod = cupy.RawModule(code=_SRC)


def in_try(n):
    x = cupy.zeros(n, dtype=cupy.float64)
    y = cupy.empty(n, dtype=cupy.float32)
    try:
        kern = _mod.get_function('scale')
    except cupy.cuda.compiler.CompileException:
        raise RuntimeError('no kernel')
    kern(((n + 127) // 128,), (128,), (x, y, n))
    # CHECK: kernels-in-loops.py:[[@LINE-1]]:40: warning: float64 array passed to pointer parameter 'x' of type 'const float *' of 'scale'


def in_loop_body(xs, n):
    for x in xs:
        y = cupy.empty(n, dtype=cupy.float32)
        block = (128,)
        kern = _mod.get_function('scale')
        x64 = cupy.zeros(n, dtype=cupy.float64)
        kern(((n + 127) // 128,), block, (x64, y, n))
        # CHECK: kernels-in-loops.py:[[@LINE-1]]:43: warning: float64 array passed to pointer parameter 'x' of type 'const float *' of 'scale'


def after_loop(parts, n):
    for p in parts:
        kern = _mod.get_function('scale')
        args = (cupy.zeros(n, dtype=cupy.float64), cupy.empty(n, dtype=cupy.float32), n)
        # CHECK: kernels-in-loops.py:[[@LINE-1]]:17: warning: float64 array passed to pointer parameter 'x' of type 'const float *' of 'scale'
    kern(((n + 127) // 128,), (128,), args)


# Either kernel: the arguments are not checked.
def before_and_loop(parts, n):
    kern = _mod.get_function('scale')
    x = cupy.zeros(n, dtype=cupy.float64)
    y = cupy.empty(n, dtype=cupy.float32)
    for p in parts:
        if p:
            kern = _mod.get_function('scale_d')
    kern(((n + 127) // 128,), (128,), (x, y, n))


def grid_in_while(n):
    x = cupy.zeros(n, dtype=cupy.float64)
    y = cupy.empty(n, dtype=cupy.float32)
    k = _mod.get_function('scale')
    while n > 0:
        grid = ((n + 127) // 128,)
        k(grid, (128,), (x, y, n))
        # CHECK: kernels-in-loops.py:[[@LINE-1]]:26: warning: float64 array passed to pointer parameter 'x' of type 'const float *' of 'scale'
        n //= 2


# Not followed: a break may leave the loop before or after the binding.
def break_loop(parts, n):
    x = cupy.zeros(n, dtype=cupy.float64)
    y = cupy.empty(n, dtype=cupy.float32)
    for p in parts:
        kern = _mod.get_function('scale')
        if p:
            break
    kern(((n + 127) // 128,), (128,), (x, y, n))


# Correct code: the idioms above with the kernel's own dtypes.
def idioms_ok(parts, n):
    x = cupy.zeros(n, dtype=cupy.float32)
    y = cupy.empty(n, dtype=cupy.float32)
    try:
        kern = _mod.get_function('scale')
    except KeyError:
        raise
    kern(((n + 127) // 128,), (128,), (x, y, n))
    for p in parts:
        kd = _mod.get_function('scale_d')
        xd = cupy.zeros(n, dtype=cupy.float64)
        yd = cupy.empty(n, dtype=cupy.float64)
        kd(((n + 127) // 128,), (128,), (xd, yd, n))
    kd(((n + 127) // 128,), (128,), (xd, yd, n))
    for dt in (cupy.float32, cupy.float64):
        z = cupy.zeros(n, dtype=dt)
    kern(((n + 127) // 128,), (128,), (x, y, n))


def loop_variable_array(arrays, n):
    # The loop's own variable: its dtype is not known.
    y = cupy.empty(n, dtype=cupy.float32)
    kern = _mod.get_function('scale')
    for a in arrays:
        kern(((n + 127) // 128,), (128,), (a, y, n))

# CHECK: exit=1
