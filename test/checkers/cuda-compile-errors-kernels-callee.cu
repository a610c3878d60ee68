// A kernel that calls a device helper of the same file whose body did not
// compile is not analysed at all, so the unguarded write before the call
// is missed (gsplat 8502ec76 without its glm submodule: radii[idx] written
// before the 'idx >= num_points' return). The file expects the finding and
// is marked XFAIL until such a call is read as an unknown action that can
// only change what comes after it (lit then reports XPASS and the XFAIL
// line goes; docs/records/kernels-beside-errors-2026-12-08.md).
// XFAIL: *
// RUN: %check_cuda_tidy_driver --compile-errors %s 'cuda-*' %t

#include <cuda_runtime.h>
#include "vecmath/vec.h"
// CHECK-MESSAGES: :[[@LINE-1]]:10: error: 'vecmath/vec.h' file not found [clang-diagnostic-error]

__device__ float shade(const float *m, float x) {
  vm::vec3 v = vm::vec3(m[0], m[1], x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'vm' [clang-diagnostic-error]
  // CHECK-MESSAGES: :[[@LINE-2]]:16: error: use of undeclared identifier 'vm' [clang-diagnostic-error]
  return v.z;
}

__global__ void fill(const float *m, float *out, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  flags[i] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'flags' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  if (i >= n)
    return;
  out[i] = shade(m, 1.0f);
}

void launch(const float *m, float *out, int *flags, int n) {
  fill<<<(n + 255) / 256, 256>>>(m, out, flags, n);
}
