# Kernel sources whose text is built from values the file does not hold:
# each unknown value of a format hole (%, .format, an f-string, str()) is
# an opaque name, and what it stands for is read from where it sits: a
# type (a template parameter of each function that names it), an integer
# (an opaque constant), an array size (a template parameter). Every byte
# of the file keeps its position. Each kernel reads a shared element
# another thread wrote, with no barrier: cuda-missing-syncthreads reports
# it at the read. Without --verbose one line counts what was skipped.
# RUN: %cuda-tidy --no-cache --quiet --verbose -checks='-*,cuda-missing-syncthreads' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
# RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.out
# RUN: not %cuda-tidy --no-cache --quiet -checks='-*,cuda-missing-syncthreads' %s 2>&1 | FileCheck %s --check-prefix=QUIET -implicit-check-not='cuda-tidy: note:'
# QUIET: note: '{{.*}}kernel-source-holes.py': 4 kernel sources were not analysed (--verbose says why)
import string

import cupy


def typed(dtype, n):
    # A dtype's C name and a size chosen by the caller.
    ctype = {"float32": "float", "float64": "double"}[dtype]
    src = '''
extern "C" __global__ void swap(%s *p, int m) {
    __shared__ %s t[256];
    t[threadIdx.x] = p[threadIdx.x * %d];
    p[threadIdx.x] = t[255 - threadIdx.x];
}
''' % (ctype, ctype, n + 1)
    return cupy.RawKernel(src, "swap")
# CHECK: kernel-source-holes.py:[[@LINE-4]]:22: warning: read of shared 't'
# NOTE: kernel-source-holes.py:[[@LINE-2]]:12: kernel source analysed with 2 values the file does not hold: `ctype` (kernel-source-holes.py:[[@LINE-8]]:33) as an opaque type, `n + 1` (kernel-source-holes.py:[[@LINE-6]]:38) as an opaque integer


def sized(block):
    # The block size sizes a shared array: a template parameter.
    return cupy.RawKernel(f'''
extern "C" __global__ void rev(float *p) {{
    __shared__ float t[{block}];
    t[threadIdx.x] = p[threadIdx.x];
    p[threadIdx.x] = t[0];
}}
''', "rev")
# CHECK: kernel-source-holes.py:[[@LINE-3]]:22: warning: read of shared 't'
# NOTE: kernel-source-holes.py:[[@LINE-8]]:12: kernel source analysed with 1 value the file does not hold: `block` (kernel-source-holes.py:[[@LINE-6]]:24) as a template parameter


def macro(block, ctype):
    # .format, a #define of a hole, and a type hole in a helper.
    return cupy.RawModule(code="""
#define BLOCK {block}
__device__ {t} get({t} *p, int k) {{ return p[k]; }}
extern "C" __global__ void mrev({t} *p) {{
    __shared__ {t} t[BLOCK];
    t[threadIdx.x] = p[threadIdx.x];
    p[threadIdx.x] = t[0];
    p[0] = get(p, BLOCK - 1);
}}
""".format(block=block, t=ctype))
# CHECK: kernel-source-holes.py:[[@LINE-4]]:22: warning: read of shared 't'
# NOTE: kernel-source-holes.py:[[@LINE-11]]:12: kernel source analysed with 2 values the file does not hold: `block` (kernel-source-holes.py:[[@LINE-10]]:15) as a template parameter, `ctype` (kernel-source-holes.py:[[@LINE-9]]:12) as an opaque type


def elementwise(dtype, scale):
    # A generic parameter type and an integer in the operation.
    return cupy.ElementwiseKernel("{0} x".format(dtype), "{0} y".format(dtype),
                                  "y = x * {0}".format(scale), "scale")
# NOTE: kernel-source-holes.py:[[@LINE-2]]:12: kernel source analysed with 2 values the file does not hold: `dtype` (kernel-source-holes.py:[[@LINE-2]]:36) as an opaque type, `scale` (kernel-source-holes.py:[[@LINE-1]]:44) as an opaque integer


SWAP = '''
extern "C" __global__ void ${name}(${t} *p) {
    __shared__ ${t} t[64];
    t[threadIdx.x] = p[threadIdx.x];
    p[threadIdx.x] = t[63 - threadIdx.x];
}
'''


def templated(ctype):
    # string.Template(...).substitute(...): a known value is written, an
    # unknown one is a hole.
    return cupy.RawKernel(string.Template(SWAP).substitute(name="tswap", t=ctype), "tswap")
# CHECK: kernel-source-holes.py:[[@LINE-9]]:22: warning: read of shared 't'
# NOTE: kernel-source-holes.py:[[@LINE-2]]:12: kernel source analysed with 1 value the file does not hold: `ctype` (kernel-source-holes.py:[[@LINE-13]]:36) as an opaque type


def branches(fast):
    # A name bound in the branches of its function: the first binding that
    # is a string is read (each branch is a kernel the code can build).
    if fast:
        op = "y = x * 2"
    else:
        op = "y = x + x"
    return cupy.ElementwiseKernel("float32 x", "float32 y", op, "twice")
# NOTE: kernel-source-holes.py:[[@LINE-1]]:12: kernel source analysed with the first binding of `op` (kernel-source-holes.py:[[@LINE-4]]:9), which its function binds in branches


FLIP = '''
typedef {value_type} value_t;
extern "C" __global__ void flip(value_t *p) {{
    __shared__ value_t t[64];
    t[threadIdx.x] = p[threadIdx.x];
    p[threadIdx.x] = t[63 - threadIdx.x];
}}
'''


def typedefed(ctype):
    # A top-level typedef of a type hole: its name stands for the hole (a
    # template parameter), and the typedef is blanked.
    return cupy.RawKernel(FLIP.format(value_type=ctype), "flip")
# CHECK: kernel-source-holes.py:[[@LINE-9]]:22: warning: read of shared 't'
# NOTE: kernel-source-holes.py:[[@LINE-2]]:12: kernel source analysed with 1 value the file does not hold: `ctype` (kernel-source-holes.py:[[@LINE-14]]:9) as an opaque type


def with_default(prefix=""):
    # A parameter whose default is '': the kernel a call that omits it
    # builds (the text around the hole is the default's).
    return cupy.ElementwiseKernel("float32 x", "float32 y", f"{prefix} y = x * 2", "dbl")
# NOTE: kernel-source-holes.py:[[@LINE-1]]:12: kernel source analysed with the default '' of `prefix` (kernel-source-holes.py:[[@LINE-1]]:63)


def accumulated(n):
    # A name extended in a loop holds code assembled piece by piece: skipped.
    body = ""
    for k in range(n):
        body += "y += x * %d;" % k
    return cupy.ElementwiseKernel("float32 x", "float32 y", body, "acc")
# NOTE: kernel-source-holes.py:[[@LINE-1]]:12: kernel source skipped: its operation is not known: 'body' is not a constant of the module (bound in a branch, a loop, or not at all)


class Reducer:
    # A class attribute read in the class body.
    CODE = '''
extern "C" __global__ void red(float *p) {
    __shared__ float t[64];
    t[threadIdx.x] = p[threadIdx.x];
    p[threadIdx.x] = t[0];
}
'''
    if True:
        mod = cupy.RawModule(code=string.Template(CODE).substitute())
# CHECK: kernel-source-holes.py:[[@LINE-5]]:22: warning: read of shared 't'


def skipped(body, n, name):
    # Code, a global array's size and a kernel's name are not values:
    # skipped, and each reason names the construct.
    a = cupy.RawKernel('extern "C" __global__ void k(float *p) { %s }' % body, "k")
# NOTE: kernel-source-holes.py:[[@LINE-1]]:9: kernel source skipped: the value of `body` (kernel-source-holes.py:[[@LINE-1]]:66) is written into the kernel where it is not a type or a number (code, a name), which the file does not hold
    b = cupy.RawKernel('__constant__ float c[%d]; extern "C" __global__ void k(float *p) { p[0] = c[0]; }' % n, "k")
# NOTE: kernel-source-holes.py:[[@LINE-1]]:9: kernel source skipped: the value of `n` (kernel-source-holes.py:[[@LINE-1]]:46) is a constant the kernel needs outside its functions (#if, the size of a global array), which the file does not hold
    c = cupy.RawKernel(string.Template('extern "C" __global__ void $n(float *p) {}').substitute(n=name), name)
# NOTE: kernel-source-holes.py:[[@LINE-1]]:9: kernel source skipped: the value of `name` (kernel-source-holes.py:[[@LINE-1]]:68) is written into the kernel where it is not a type or a number (code, a name), which the file does not hold
    return a, b, c
# CHECK: exit=1
