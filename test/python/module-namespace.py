# Each module of a file is compiled in a namespace of its own
# (docs/python.md, "How the kernels are compiled"). A source that reopens
# namespace std would there open another namespace and fail to compile,
# where NVRTC compiles it: it is skipped with a note instead, and the other
# modules of the file are analysed.
# RUN: %cuda-tidy --no-cache --verbose -checks='-*,cuda-missing-syncthreads' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
# RUN: FileCheck %s --input-file=%t.out --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not='kernel source skipped'
import cupy

traits = cupy.RawModule(code=r'''
#include <type_traits>
namespace std {
template <class T, class U>
inline constexpr bool same_v = is_same<T, U>::value;
}
template <typename T>
__global__ void fill(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = std::same_v<T, float> ? T(1) : T(0);
}''', name_expressions=["fill<float>"])
# CHECK: note: module-namespace.py:[[@LINE-11]]:10: kernel source skipped: it reopens namespace std, which the module's own namespace here would make another namespace

# A namespace of its own, or a name that only starts with "std": analysed.
ours = cupy.RawKernel(r'''
namespace stdx { __device__ float twice(float v) { return 2 * v; } }
namespace mine { namespace std_like { __device__ float half(float v) { return v / 2; } } }
extern "C" __global__ void swap(float *p) {
  __shared__ float t[32];
  t[threadIdx.x] = stdx::twice(p[threadIdx.x]);
  p[0] = mine::std_like::half(t[31 - threadIdx.x]);
}''', "swap")
# CHECK: module-namespace.py:[[@LINE-2]]:31: warning: read of shared 't'
# CHECK: exit=1
