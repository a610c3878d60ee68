# Where kernel sources come from: literals (triple-quoted, raw, implicitly
# concatenated, with escapes), constants, %, .format, f-strings,
# str.replace, open(path).read() beside the script. Unknown holes are
# skipped, and --verbose says so.
# RUN: %cuda-tidy --no-cache --quiet --verbose %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning:
import os
import cupy
from cupy import RawKernel as RK

BLOCK = 128
NAME = "fill"

# Implicit concatenation with escapes: positions are still exact lines and
# columns (no fix-it where the text is not the file's byte for byte).
k1 = RK("extern \"C\" __global__ void k1(int *p) {\n"
        "  p[blockIdx.x * blockDim.x + threadIdx.x] = 1;\n"
        "}\n", "k1")
# CHECK: kernel-sources.py:[[@LINE-2]]:10: warning: write to 'p' at thread-derived index

# %-formatting with module constants.
k2 = cupy.RawKernel(r'''
extern "C" __global__ void %s(float *out, int n) {
    __shared__ float tile[%d];
    tile[threadIdx.x] = out[threadIdx.x];
}
''' % (NAME, BLOCK), NAME)
# CHECK: kernel-sources.py:[[@LINE-4]]:23: warning: read of 'out' at thread-derived index
# .format and f-strings.
k3 = cupy.RawKernel('''
extern "C" __global__ void {name}(float *v) {{
    v[blockIdx.x * {block} + threadIdx.x] = 0;
}}
'''.format(name="k3", block=BLOCK), "k3")
# CHECK: kernel-sources.py:[[@LINE-3]]:5: warning: write to 'v' at thread-derived index
k4 = cupy.RawKernel(f'''
extern "C" __global__ void k4(float *v) {{
    v[blockIdx.x * {BLOCK} + threadIdx.x] = 0;
}}
''', "k4")
# CHECK: kernel-sources.py:[[@LINE-3]]:5: warning: write to 'v' at thread-derived index

# str.replace of a template.
TEMPLATE = r'''
extern "C" __global__ void k5(TYPE *v) {
    v[threadIdx.x + blockIdx.x * blockDim.x] = 0;
}
'''
k5 = cupy.RawKernel(TEMPLATE.replace("TYPE", "double"), "k5")
# CHECK: kernel-sources.py:[[@LINE-4]]:5: warning: write to 'v' at thread-derived index


def from_file():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "Inputs", "saxpy_kernel.cu")) as f:
        src = f.read()
    return cupy.RawKernel(src, "saxpy")
# CHECK: saxpy_kernel.cu:3:3: warning: write to 'y' at thread-derived index
# CHECK: saxpy_kernel.cu:3:15: warning: read of 'x' at thread-derived index


def unknown(n, dtype):
    # A hole that is a parameter: skipped, never guessed.
    return cupy.RawKernel('extern "C" __global__ void k(%s *p) { p[threadIdx.x] = 0; }'
                          % dtype, "k")
# CHECK: note: kernel-sources.py:[[@LINE-2]]:12: kernel source skipped: '% hole is not a constant'
