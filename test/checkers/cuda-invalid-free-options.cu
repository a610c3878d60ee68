// Notes at the allocation and at the first release, and CheckUseAfterFree.
// RUN: %check_cuda_tidy_plugin --check-suffix=NOTES %s cuda-invalid-free %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver --check-suffix=NOTES %s cuda-invalid-free %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_plugin --check-suffix=NOUAF %s cuda-invalid-free %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-invalid-free.CheckUseAfterFree: false}}"
// RUN: %check_cuda_tidy_driver --check-suffix=NOUAF %s cuda-invalid-free %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-invalid-free.CheckUseAfterFree: false}}"

#include "error_macros.h"
#include <cstdlib>

__global__ void clear(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 0.f;
}

struct Workspace {
  float *scratch;
  float *staging;
};

static void release(Workspace &w) {
  CUDA_CHECK(cudaFree(w.scratch));
  CUDA_CHECK(cudaFreeHost(w.staging));
}

void run(int n) {
  Workspace w;
  CUDA_CHECK(cudaMalloc(&w.scratch, n * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&w.staging, n * sizeof(float)));
  release(w);
  clear<<<(n + 255) / 256, 256>>>(w.scratch, n);
  // CHECK-NOTES-NOTES: :[[@LINE-1]]:35: warning: 'w.scratch' is passed to a kernel after it was freed [cuda-invalid-free]
  // CHECK-NOTES-NOTES: :[[@LINE-11]]:14: note: the memory was freed here
  free(w.staging);
  // CHECK-NOTES-NOTES: :[[@LINE-1]]:3: warning: 'w.staging' is freed twice: it was already freed on every path to this 'free' [cuda-invalid-free]
  // CHECK-NOTES-NOTES: :[[@LINE-13]]:14: note: the memory was freed here
  // CHECK-MESSAGES-NOUAF: :[[@LINE-3]]:3: warning: 'w.staging' is freed twice: it was already freed on every path to this 'free' [cuda-invalid-free]
}
