// cuda-missing-host-sync with --default-stream per-thread (nvcc defines
// CUDA_API_PER_THREAD_DEFAULT_STREAM): stream 0 is the calling thread's
// default stream, which does not wait for other blocking streams, so a
// synchronous cudaMemcpy no longer orders work queued on a created stream.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs --extra-arg=-DCUDA_API_PER_THREAD_DEFAULT_STREAM
// RUN: %check_cuda_tidy_driver %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs --extra-arg=-DCUDA_API_PER_THREAD_DEFAULT_STREAM
// RUN: %check_cuda_tidy_driver --check-suffix=LEGACY %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdio>

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.f;
}

void blocking_stream_not_ordered_by_sync_copy(int n, float *result) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  float *h, *d, *d2;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d2, sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaMemcpy(result, d2, sizeof(float), cudaMemcpyDeviceToHost));
  *result += h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
}

void default_stream_work_is_ordered(int n, float *out) {
  float *m, *d;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  fill<<<1, 256>>>(m, n); // The per-thread default stream.
  CUDA_CHECK(cudaMemcpy(out, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("%f\n", m[0]);
}

void legacy_stream_named_explicitly(int n, float *out) {
  float *m, *d;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  fill<<<1, 256, 0, cudaStreamLegacy>>>(m, n);
  // The per-thread default stream waits for the legacy stream.
  CUDA_CHECK(cudaMemcpy(out, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("%f\n", m[0]);
}

void per_thread_stream_synchronized(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<1, 256, 0, cudaStreamPerThread>>>(m, n);
  CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  printf("%f\n", m[0]);
}

void legacy_sync_waits_for_per_thread_work(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  // The per-thread default stream is a blocking stream.
  fill<<<1, 256, 0, cudaStreamPerThread>>>(m, n);
  CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  printf("%f\n", m[0]);
}

void named_stream_synchronized_through_the_default_stream(int n) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<1, 256, 0, s>>>(m, n);
  CUDA_CHECK(cudaStreamSynchronize(0));
  printf("%f\n", m[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'm' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
}
