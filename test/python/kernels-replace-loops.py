# Kernel sources whose type names are put in by a loop of `str.replace`
# over values the file holds (pairs, a dict's items, enumerate, zip): the
# loop is read, so the kernel has the types the loop gives it and its
# launches are checked against them (docs/python.md, "The sources").
# RUN: %cuda-tidy --no-cache --verbose --checks='-*,cuda-kernel-arguments,cuda-unguarded-thread-index' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out --implicit-check-not=warning: --implicit-check-not=error:
import cupy as cp

BODY = r'''
extern "C" __global__ void scale({0} *x, {1} n) {
    {1} i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 2;
}
'''


def scale_float():
    src = BODY
    for old, new in (("{0}", "float"), ("{1}", "int")):
        src = src.replace(old, new)
    return cp.RawKernel(src, "scale")


x64 = cp.zeros(256, dtype=cp.float64)
scale_float()((1,), (256,), (x64, cp.int32(256)))
# CHECK-DAG: kernels-replace-loops.py:[[@LINE-1]]:30: warning: float64 array passed to pointer parameter 'x' of type 'float *' of 'scale'{{.*}} [cuda-kernel-arguments]

NAMES = {"{0}": "double", "{1}": "long long"}


def scale_double():
    src = BODY
    for k, v in NAMES.items():
        src = src.replace(k, v)
    return cp.RawKernel(src, "scale")


# The types the dict gives: a float64 array and a long long count.
scale_double()((1,), (256,), (x64, 256))

DTYPES = ("float", "int")


def scale_by_position():
    src = BODY
    for idx, ctype in enumerate(DTYPES):
        src = src.replace("{%d}" % idx, DTYPES[idx])
    return cp.RawKernel(src, "scale")


x32 = cp.ones(256, dtype=cp.float32)
scale_by_position()((1,), (256,), (x32, cp.int32(256)))
scale_by_position()((1,), (256,), (x64, cp.int32(256)))
# CHECK-DAG: kernels-replace-loops.py:[[@LINE-1]]:36: warning: float64 array passed to pointer parameter 'x' of type 'float *' of 'scale'{{.*}} [cuda-kernel-arguments]


def scale_zip():
    src = BODY
    for old, new in zip(("{0}", "{1}"), ("float", "int")):
        src = src.replace(old, new)
    return cp.RawKernel(src, "scale")


scale_zip()((1,), (256,), (x32, cp.int32(256)))

# An unguarded body with the replaced types: its finding is at its place
# in BODY2.
BODY2 = r'''
extern "C" __global__ void fill(T *y, T v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = v;
}
'''
# CHECK-DAG: kernels-replace-loops.py:[[@LINE-3]]:5: warning: write to 'y' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
src2 = BODY2
for name in ("T",):
    src2 = src2.replace(name, "float")
fill = cp.RawKernel(src2, "fill")
y = cp.empty(1000, dtype=cp.float32)
fill(((1000 + 255) // 256,), (256,), (y, cp.float32(0), cp.int32(1000)))


# Replacements the file does not hold (the caller's text and dtypes, as in
# cuml's cuda_kernel_factory): skipped with a note, as before.
def factory(kernel_str, ctypes, name):
    for idx, ctype in enumerate(ctypes):
        kernel_str = kernel_str.replace("{%d}" % idx, ctype)
    return cp.RawKernel(kernel_str, name)
# CHECK-DAG: note: kernels-replace-loops.py:[[@LINE-1]]:12: kernel source skipped: 'kernel_str' is not a constant of the module
# CHECK: exit=1
