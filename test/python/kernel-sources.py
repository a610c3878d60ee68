# Where kernel sources come from: literals (triple-quoted, raw, implicitly
# concatenated, with escapes), constants, %, .format, f-strings,
# str.replace, open(path).read() beside the script. Unknown holes are
# opaque names (kernel-source-holes.py), and --verbose says so. Each kernel reads a shared element
# another thread wrote, with no barrier: cuda-missing-syncthreads reports
# it at the read, whatever the launches.
# RUN: %cuda-tidy --no-cache --quiet --verbose -checks='-*,cuda-missing-syncthreads' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
# RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.out
# The kernel read from a file is reported in that file (sorted first).
# CHECK: shared_swap.cu:4:10: warning: read of shared 'tile'
import os
import cupy
from cupy import RawKernel as RK

BLOCK = 64
NAME = "k2"

# Implicit concatenation with escapes: lines and columns are still those of
# the file (and no fix-it is offered where the text is not the file's).
k1 = RK("extern \"C\" __global__ void k1(float *p) {\n"
        "  __shared__ float t[64]; t[threadIdx.x] = p[threadIdx.x];\n"
        "  p[threadIdx.x] = t[63 - threadIdx.x];\n"
        "}\n", "k1")
# CHECK: kernel-sources.py:[[@LINE-2]]:29: warning: read of shared 't'

# %-formatting with module constants.
k2 = cupy.RawKernel(r'''
extern "C" __global__ void %s(float *p) {
    __shared__ float t[%d];
    t[threadIdx.x] = p[threadIdx.x];
    p[threadIdx.x] = t[%d - 1 - threadIdx.x];
}
''' % (NAME, BLOCK, BLOCK), NAME)
# CHECK: kernel-sources.py:[[@LINE-3]]:22: warning: read of shared 't'

# .format and f-strings: the text after a hole keeps its column.
k3 = cupy.RawKernel('''
extern "C" __global__ void {name}(float *p) {{
    __shared__ float t[{block}];
    t[threadIdx.x] = p[threadIdx.x];
    p[threadIdx.x] = t[{block} - 1 - threadIdx.x];
}}
'''.format(name="k3", block=BLOCK), "k3")
# CHECK: kernel-sources.py:[[@LINE-3]]:22: warning: read of shared 't'
k4 = cupy.RawKernel(f'''
extern "C" __global__ void k4(float *p) {{
    __shared__ float t[{BLOCK}];
    t[threadIdx.x] = p[threadIdx.x];
    p[threadIdx.x] = t[{BLOCK} - 1 - threadIdx.x];
}}
''', "k4")
# CHECK: kernel-sources.py:[[@LINE-3]]:22: warning: read of shared 't'

# str.replace of a template, and a name bound earlier in the function.
TEMPLATE = r'''
extern "C" __global__ void k5(TYPE *p) {
    __shared__ TYPE t[64];
    t[threadIdx.x] = p[threadIdx.x];
    p[threadIdx.x] = t[63 - threadIdx.x];
}
'''


def make_k5():
    src = TEMPLATE.replace("TYPE", "double")
    return cupy.RawKernel(src, "k5")
# CHECK: kernel-sources.py:[[@LINE-8]]:22: warning: read of shared 't'


def from_file():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "Inputs", "shared_swap.cu")) as f:
        src = f.read()
    return cupy.RawKernel(src, "shared_swap")



def unknown(n, dtype):
    # A hole that is a parameter: an opaque type, never guessed
    # (test/python/kernel-source-holes.py).
    return cupy.RawKernel('extern "C" __global__ void k(%s *p) { p[threadIdx.x] = 0; }'
                          % dtype, "k")
# NOTE: note: kernel-sources.py:[[@LINE-2]]:12: kernel source analysed with 1 value the file does not hold: `dtype` (kernel-sources.py:[[@LINE-2]]:57) as an opaque type
# CHECK: exit=1
