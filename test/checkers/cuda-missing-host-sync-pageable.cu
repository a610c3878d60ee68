// cuda-missing-host-sync: host reads of pageable memory that an
// asynchronous device-to-host copy writes, and the option that silences them.
// RUN: %check_cuda_tidy_plugin --check-suffix=DEFAULT %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver --check-suffix=DEFAULT %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_plugin --check-suffix=OFF %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-missing-host-sync.ReportPageableAsyncCopies: false}}"
// RUN: %check_cuda_tidy_driver --check-suffix=OFF %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-missing-host-sync.ReportPageableAsyncCopies: false}}"

#include "error_macros.h"
#include <cstdio>
#include <cstdlib>

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.f;
}

// Pageable destination: works today, breaks once the buffer is pinned.
float pageableRead(const float *d, int n, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  float first = h[0];
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:17: warning: 'h' is read on the host before the asynchronous copy into it is known to finish; it works only while 'h' is pageable memory, for which the copy returns when done [cuda-missing-host-sync]
  free(h);
  return first;
}

// Pinned destination: the plain finding, with or without the option.
float pinnedRead(const float *d, int n, cudaStream_t s) {
  float *h = nullptr;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  float first = h[0];
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:17: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  // CHECK-MESSAGES-OFF: :[[@LINE-2]]:17: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFreeHost(h));
  return first;
}

// A stack array, synchronized on one path only.
float stackArray(const float *d, cudaStream_t s, bool wait) {
  float h[4];
  CUDA_CHECK(cudaMemcpyAsync(h, d, sizeof(h), cudaMemcpyDeviceToHost, s));
  if (wait)
    CUDA_CHECK(cudaStreamSynchronize(s));
  return h[0] + h[3];
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:10: warning: 'h' is read on the host before the asynchronous copy into it is known to finish; it works only while 'h' is pageable memory, for which the copy returns when done [cuda-missing-host-sync]
}

// ---------------------------------------------------------------------------
// Negative cases.
// ---------------------------------------------------------------------------

float pageableSynchronized(const float *d, int n, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  float first = h[0];
  free(h);
  return first;
}

// A host-to-device copy from pageable memory: the host only reads it.
void pageableSource(float *d, int n, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = 1.f;
  CUDA_CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
  printf("%f\n", h[0]);
  CUDA_CHECK(cudaStreamSynchronize(s));
  free(h);
}

// Memory of unknown origin: no fact, no finding.
float unknownDestination(float *h, const float *d, int n, cudaStream_t s) {
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  return h[0];
}

// Writing the destination of a finished pageable copy is not reported.
void pageableOverwritten(const float *d, int n, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  h[0] = 0.f;
  CUDA_CHECK(cudaStreamSynchronize(s));
  free(h);
}
