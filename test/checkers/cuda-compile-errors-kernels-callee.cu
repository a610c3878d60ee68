// A kernel that calls a device helper of the same file whose body did not
// compile (its local has the missing header's type) is read by the
// kernel-side checks, each such call an unknown action: it may be a barrier
// or a check that traps, so only a finding at an access that no such call
// may precede is kept (gsplat 8502ec76 without its glm submodule:
// radii[idx] written before the 'idx >= num_points' return).
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

// Negatives: each is reported with the helper's header present.

// The helper runs first: it may be the guard.
__global__ void fill_after(const float *m, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = shade(m, 2.0f);
  if (i <= n)
    out[i] = s;
}

// The helper runs in the same loop as the access.
__global__ void fill_rows(const float *m, float *out, int n, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < rows; ++r) {
    if (i <= n)
      out[i] = (float)r;
    out[0] += shade(m, (float)r);
  }
}

// The helper runs before the store in the access's own statement.
__global__ void fill_value(const float *m, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    out[i] = shade(m, 3.0f);
}

// A shared tile read across threads after the helper, which may be the
// barrier.
__global__ void tile_after(const float *m, float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = m[threadIdx.x];
  out[threadIdx.x] = shade(tile, 0.0f) + tile[255 - threadIdx.x];
}

void launch_tile(const float *m, float *out) {
  tile_after<<<1, 256>>>(m, out);
}
