// Notes at the allocation, and HostReadFunctions.
// RUN: %check_cuda_tidy_plugin --check-suffix=NOTES %s cuda-wrong-memory-space %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver --check-suffix=NOTES %s cuda-wrong-memory-space %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_plugin --check-suffix=READS %s cuda-wrong-memory-space %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-wrong-memory-space.HostReadFunctions: 'fwrite;save_image'}}"
// RUN: %check_cuda_tidy_driver --check-suffix=READS %s cuda-wrong-memory-space %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-wrong-memory-space.HostReadFunctions: 'fwrite;save_image'}}"

#include "error_macros.h"
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.f;
}

extern void save_image(const char *path, const float *pixels, int n);

void run(int n, FILE *out) {
  float *h = (float *)malloc(n * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(h, n);
  // CHECK-NOTES-NOTES: :[[@LINE-1]]:35: warning: host memory 'h' is passed to kernel 'scale', which dereferences it on the device [cuda-wrong-memory-space]
  // CHECK-NOTES-NOTES: :[[@LINE-3]]:23: note: host memory allocated here by 'malloc'
  // CHECK-MESSAGES-READS: :[[@LINE-3]]:35: warning: host memory 'h' is passed to kernel 'scale', which dereferences it on the device [cuda-wrong-memory-space]
  float *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  fwrite(d, sizeof(float), n, out);
  // CHECK-MESSAGES-READS: :[[@LINE-1]]:10: warning: device memory 'd' is passed to 'fwrite', which reads or writes it on the host [cuda-wrong-memory-space]
  save_image("out.pgm", d, n);
  // CHECK-MESSAGES-READS: :[[@LINE-1]]:25: warning: device memory 'd' is passed to 'save_image', which reads or writes it on the host [cuda-wrong-memory-space]
}
