// cuda-wrong-memory-space: branches of a helper that its callers' constant
// arguments rule out.
// RUN: %check_cuda_tidy_plugin %s cuda-wrong-memory-space %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-wrong-memory-space %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"

__global__ void fillOnes(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.f;
}

// Every caller passes onDevice = true: the host branch never runs.
static void initBuffer(float *buf, int n, bool onDevice) {
  if (onDevice) {
    fillOnes<<<(n + 255) / 256, 256>>>(buf, n);
  } else {
    for (int i = 0; i < n; ++i)
      buf[i] = 1.f;
  }
}

// Callers disagree: the host branch is reached with device memory.
static void initEither(float *buf, int n, bool onDevice) {
  if (onDevice) {
    fillOnes<<<(n + 255) / 256, 256>>>(buf, n);
  } else {
    for (int i = 0; i < n; ++i)
      buf[i] = 1.f;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: device memory 'buf' is dereferenced on the host [cuda-wrong-memory-space]
  }
}

enum Where { OnHost, OnDevice };

// A switch on a mode every caller gives as OnDevice.
static void clearBuffer(float *buf, int n, Where where) {
  switch (where) {
  case OnHost:
    for (int i = 0; i < n; ++i)
      buf[i] = 0.f;
    break;
  case OnDevice:
    CUDA_CHECK(cudaMemset(buf, 0, n * sizeof(float)));
    break;
  }
}

// Only integer parameters, and every caller passes mode = 1: the branch
// that allocates host memory never runs, so the buffer is device memory.
static void touchScratch(int n, int mode) {
  float *scratch = nullptr;
  if (mode == 0)
    scratch = (float *)malloc(n * sizeof(float));
  else
    CUDA_CHECK(cudaMalloc(&scratch, n * sizeof(float)));
  scratch[0] = 0.f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory 'scratch' is dereferenced on the host [cuda-wrong-memory-space]
  if (mode == 0)
    free(scratch);
  else
    CUDA_CHECK(cudaFree(scratch));
}

int main() {
  const int n = 1024;
  touchScratch(n, 1);
  touchScratch(2 * n, 1);
  float *a = nullptr, *b = nullptr;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b, n * sizeof(float)));
  initBuffer(a, n, true);
  initBuffer(b, n, true);
  clearBuffer(a, n, OnDevice);
  initEither(a, n, true);
  initEither(b, n, false);
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  return 0;
}
