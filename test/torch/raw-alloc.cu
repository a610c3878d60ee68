// REQUIRES: torch
// RUN: %with_torch %check_cuda_tidy_driver %s cuda-device-memory-leak %t
// The caching allocator's raw_alloc returns device memory (its
// TORCH_CUDA_ALLOCATOR row); raw_delete gives it back. The leak check
// follows it as it follows cudaMalloc.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDACachingAllocator.h>

__global__ void zero_kernel(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 0.f;
}

// Bug: the scratch buffer is never given back on the early return.
void scratch_leak(int n, bool skip) {
  void *scratch = c10::cuda::CUDACachingAllocator::raw_alloc(n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: device memory allocated into 'scratch' by 'raw_alloc' is not freed on every path [cuda-device-memory-leak]
  if (skip)
    return;
  zero_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      static_cast<float *>(scratch), n);
  c10::cuda::CUDACachingAllocator::raw_delete(scratch);
}

// Idiomatic: every path gives it back.
void scratch_freed(int n) {
  void *scratch = c10::cuda::CUDACachingAllocator::raw_alloc(n * sizeof(float));
  zero_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      static_cast<float *>(scratch), n);
  c10::cuda::CUDACachingAllocator::raw_delete(scratch);
}

// Handed to the caller: not a leak here.
void *scratch_returned(int n) {
  return c10::cuda::CUDACachingAllocator::raw_alloc(n * sizeof(float));
}
