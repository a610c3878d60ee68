// Notes at the allocation that decided a finding, and CheckElementCounts.
// RUN: %check_cuda_tidy_plugin --check-suffix=NOTES %s cuda-memcpy-size %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver --check-suffix=NOTES %s cuda-memcpy-size %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_plugin --check-suffix=NOCOUNT %s cuda-memcpy-size %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-memcpy-size.CheckElementCounts: false}}"
// RUN: %check_cuda_tidy_driver --check-suffix=NOCOUNT %s cuda-memcpy-size %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-memcpy-size.CheckElementCounts: false}}"

#include "error_macros.h"
#include <cstdlib>

static float *alloc_device(size_t n) {
  float *p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(float)));
  return p;
}

void sizes(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d = alloc_device(n);
  // The note is at the allocation inside the wrapper.
  CUDA_CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  // CHECK-NOTES-NOTES: :[[@LINE-1]]:14: warning: the byte count 'n' of 'cudaMemcpy' counts elements, not bytes: 'd' holds 'n * sizeof(float)' bytes [cuda-memcpy-size]
  // CHECK-NOTES-NOTES: :[[@LINE-10]]:14: note: device memory allocated here by 'cudaMalloc'
  CUDA_CHECK(cudaMemcpy(h, d, (n + 8) * sizeof(float), cudaMemcpyDeviceToHost));
  // CHECK-NOTES-NOTES: :[[@LINE-1]]:14: warning: 'cudaMemcpy' copies '(n + 8) * sizeof(float)' bytes, more than the 'n * sizeof(float)' bytes of 'h' [cuda-memcpy-size]
  // CHECK-NOTES-NOTES: :[[@LINE-8]]:23: note: host memory allocated here by 'malloc'
  // CHECK-MESSAGES-NOCOUNT: :[[@LINE-3]]:14: warning: 'cudaMemcpy' copies '(n + 8) * sizeof(float)' bytes, more than the 'n * sizeof(float)' bytes of 'h' [cuda-memcpy-size]
  float *p;
  size_t pitch;
  CUDA_CHECK(cudaMallocPitch(&p, &pitch, 32 * sizeof(float), n));
  CUDA_CHECK(cudaMemcpy2D(p, 32 * sizeof(float), h, 32 * sizeof(float),
  // CHECK-NOTES-NOTES: :[[@LINE-1]]:14: warning: the destination pitch '32 * sizeof(float)' of 'cudaMemcpy2D' is not the pitch that 'cudaMallocPitch' returned for 'p' [cuda-memcpy-size]
  // CHECK-NOTES-NOTES: :[[@LINE-3]]:14: note: device memory allocated here by 'cudaMallocPitch'
  // CHECK-MESSAGES-NOCOUNT: :[[@LINE-3]]:14: warning: the destination pitch '32 * sizeof(float)' of 'cudaMemcpy2D' is not the pitch that 'cudaMallocPitch' returned for 'p' [cuda-memcpy-size]
                          32 * sizeof(float), n, cudaMemcpyHostToDevice));
}
