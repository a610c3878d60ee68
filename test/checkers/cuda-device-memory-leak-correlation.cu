// cuda-device-memory-leak: branches on a variable that is set before the
// allocations and not after them go the same way at the allocation and at
// the free, whatever the buffers' pointers do in between (a std::swap of
// ping-pong buffers). A store after the allocation ends the correlation.
// RUN: %check_cuda_tidy_plugin %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstring>
#include <utility>

enum Method { Plain, Refine, Approximate };

__global__ void step(float *to, const float *from, int n) {}

// The method is chosen from the command line, then only read: the
// refinement buffers are allocated, swapped each pass and freed under the
// same tests.
int main(int argc, char **argv) {
  const int n = 1 << 20;
  Method method = Plain;
  if (argc > 1 && std::strcmp(argv[1], "-r") == 0)
    method = Refine;
  else if (argc > 1 && std::strcmp(argv[1], "-a") == 0)
    method = Approximate;

  float *cur = nullptr, *next = nullptr, *cost = nullptr;
  if (method != Approximate)
    CUDA_CHECK(cudaMalloc(&cur, n * sizeof(float)));
  if (method == Refine)
    CUDA_CHECK(cudaMalloc(&next, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&cost, n * sizeof(float)));

  for (int pass = 0; pass < 8; ++pass) {
    if (method == Refine) {
      step<<<n / 256, 256>>>(next, cur, n);
      std::swap(cur, next);
    }
  }

  if (method != Approximate)
    CUDA_CHECK(cudaFree(cur));
  if (method == Refine)
    CUDA_CHECK(cudaFree(next));
  CUDA_CHECK(cudaFree(cost));
  return 0;
}

// The flag changes between the allocation and the free: the free may be
// skipped.
void flagChangedAfter(int n, bool keep) {
  float *a = nullptr, *b = nullptr;
  bool owned = !keep;
  if (owned)
    CUDA_CHECK(cudaMalloc(&a, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: device memory allocated into 'a' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  CUDA_CHECK(cudaMalloc(&b, n * sizeof(float)));
  std::swap(a, b);
  owned = n > 4;
  if (owned)
    CUDA_CHECK(cudaFree(b));
  CUDA_CHECK(cudaFree(a));
}

// Swapped and freed under the same test: 'a' is freed on every path,
// 'b' only when the test holds.
void swapThenFreeUnderTest(int n, bool twice) {
  float *a = nullptr, *b = nullptr;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: device memory allocated into 'b' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  if (twice)
    std::swap(a, b);
  CUDA_CHECK(cudaFree(a));
  if (twice)
    CUDA_CHECK(cudaFree(b));
}
