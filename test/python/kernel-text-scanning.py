# How the reader reads the text of a kernel source without a regular
# expression engine (docs/python.md, "Cost"): directives with blanks, a
# // inside a string literal, comments that hide a __global__, extern "C"
# with blanks, and macros each module defines. Each kernel is found with
# its parameter count, so that the launch below it is checked.
# RUN: %cuda-tidy --no-cache --quiet --verbose -checks='-cuda-tensor-contiguity' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error: -implicit-check-not='kernel source skipped'
import cupy as cp

first = cp.RawModule(code=r'''
  #  include   <cuda_fp16.h>
#define WIDTH 256
// __global__ void commented_out(int a, int b, int c);
/* __global__ void also_commented_out(int a); */
__device__ const char *where = "http://example.org/* not a comment";
extern   "C" __global__ void scale(__half *x, int n) {
    int i = blockIdx.x * WIDTH + threadIdx.x;
    if (i < n) x[i] = __hmul(x[i], __float2half(2.0f));
}
''')

# The same macro in a second module: each module's #define is undone after
# it, so this one is not a redefinition.
second = cp.RawModule(code=r'''
#define WIDTH 128
extern "C" {
__global__ void fill(float *y, int n) {
    int i = blockIdx.x * WIDTH + threadIdx.x;
    if (i < n) y[i] = 1.0f;
}
}
''')


def run(x, y, n):
    scale = first.get_function('scale')
    fill = second.get_function('fill')
    scale(((n + 255) // 256,), (256,), (x, cp.int32(n)))
    scale(((n + 255) // 256,), (256,), (x,))
    # CHECK-DAG: kernel-text-scanning.py:[[@LINE-1]]:5: warning: this launch of 'scale' passes 1 argument to its 2 parameters{{.*}}[cuda-kernel-arguments]
    fill(((n + 127) // 128,), (128,), (y, cp.int32(n)))
    fill(((n + 127) // 128,), (128,), (y, cp.int32(n), cp.int32(n)))
    # CHECK-DAG: kernel-text-scanning.py:[[@LINE-1]]:5: warning: this launch of 'fill' passes 3 arguments to its 2 parameters{{.*}}[cuda-kernel-arguments]
# CHECK: exit=1
