// cuda-missing-host-sync: each finding has a note at the queued operation,
// naming its stream.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdio>

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.f;
}

void copy_on_a_stream(int n, float *d, cudaStream_t stream) {
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost,
                             stream));
  float first = h[0], second = h[1];
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  // CHECK-NOTES: :[[@LINE-4]]:14: note: asynchronous copy queued here on stream 'stream'

  printf("%f %f\n", first, second);
}

void kernel_on_the_default_stream(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<1, 256>>>(m, n);
  for (int i = 0; i < n; ++i)
    printf("%f\n", m[i]);
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: 'm' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: kernel 'fill' queued here on the default stream
}

float event_not_waited_for(cudaStream_t s, float *d, int n) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start, s));
  fill<<<1, 256, 0, s>>>(d, n);
  CUDA_CHECK(cudaEventRecord(stop, s));
  float ms;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'cudaEventElapsedTime' reads event 'stop' before it is synchronized [cuda-missing-host-sync]
  // CHECK-NOTES: :[[@LINE-4]]:14: note: 'stop' recorded here on stream 's'; wait for it with cudaEventSynchronize
  return ms;
}
