# CuPy ElementwiseKernel and ReductionKernel: the user's code is analysed
# inside a kernel written as CuPy generates it (docs/python.md), and no
# finding points into that wrapper. Generic types (T) are parsed, not
# analysed.
# RUN: %cuda-tidy --no-cache --quiet %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out -implicit-check-not=warning: -implicit-check-not=error:
# RUN: %cuda-tidy --no-cache --quiet --format=json %s > %t.json 2>/dev/null || true
# RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
import cupy as cp

squared_diff = cp.ElementwiseKernel(
    'float32 x, float32 y',
    'float32 z',
    'z = (x - y) * (x - y)',
    'squared_diff')

generic = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x + y', 'generic_add')

# A raw input indexed by a thread-derived value and no bound: reported in
# the operation's string.
gather = cp.ElementwiseKernel(
    'raw float32 table, int32 k',
    'float32 out',
    '''
    int j = i * 2;
    out = table[j] + k;
    ''',
    'gather')

l2norm = cp.ReductionKernel(
    'float32 x',
    'float32 y',
    'x * x',
    'a + b',
    'y = sqrt(a)',
    '0',
    'l2norm')

shared_sum = cp.RawKernel(r'''
extern "C" __global__ void shared_sum(const float *in, float *out) {
    __shared__ float buf[256];
    buf[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    if (threadIdx.x == 0) {
        float s = 0;
        for (int k = 0; k < 256; ++k) s += buf[k];
        out[blockIdx.x] = s;
    }
}
''', 'shared_sum')
# CHECK: elementwise-reduction.py:[[@LINE-5]]:44: warning: read of shared 'buf' at 'k' {{.*}}[cuda-missing-syncthreads]
# JSON: "check": "cuda-missing-syncthreads"
# JSON-NEXT: "column": 44
# JSON-NEXT: "file": "{{.*}}elementwise-reduction.py"
# JSON: "line": 45
# CHECK: exit=1
