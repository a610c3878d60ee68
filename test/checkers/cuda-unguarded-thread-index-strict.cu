// StrictMode: kernels whose every launch covers the data exactly are flagged
// too, because they break when the sizes change.
// RUN: %check_cuda_tidy_plugin %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_plugin --check-suffix=STRICT %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unguarded-thread-index.StrictMode: true}}"
// RUN: %check_cuda_tidy_driver --check-suffix=STRICT %s cuda-unguarded-thread-index %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unguarded-thread-index.StrictMode: true}}"

#include <cassert>
#include <cstdio>
#include <cstdlib>

constexpr int kN = 4096;
constexpr int kBlock = 128;

__global__ void scale(float *a, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] *= s;
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void add(float *c, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'c' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:10: warning: read of 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:17: warning: read of 'b' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void blur(float *out, const float *in, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * width + x] = 0.5f * in[y * width + x];
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'y * width + x' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:31: warning: read of 'in' at thread-derived index 'y * width + x' has no upper bound on this path [cuda-unguarded-thread-index]
}

// Flagged in both modes: the exact launch does not cover 'i + 1'.
__global__ void diff(float *d, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  d[i] = x[i + 1] - x[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: read of 'x' at thread-derived index 'i + 1' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:3: warning: write to 'd' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:10: warning: read of 'x' at thread-derived index 'i + 1' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES-STRICT: :[[@LINE-4]]:21: warning: read of 'x' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

__global__ void negate(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = -a[i];
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: write to 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:11: warning: read of 'a' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

// Guarded kernels are silent in both modes.
__global__ void scaleGuarded(float *a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= s;
}

void runChecked(float *a, int n) {
  if (n % kBlock) {
    fprintf(stderr, "n must be a multiple of %d\n", kBlock);
    exit(1);
  }
  negate<<<n / kBlock, kBlock>>>(a, n);
}

void run(float *a, float *b, float *c, int n) {
  scale<<<kN / kBlock, kBlock>>>(a, 2.0f);
  diff<<<kN / kBlock, kBlock>>>(a, b);
  scaleGuarded<<<(n + kBlock - 1) / kBlock, kBlock>>>(a, 2.0f, n);
  dim3 threads(16, 8);
  dim3 blocks(512 / 16, 256 / 8);
  blur<<<blocks, threads>>>(a, b, 512);
  if (n % kBlock != 0)
    return;
  add<<<n / kBlock, kBlock>>>(c, a, b, n);
}
