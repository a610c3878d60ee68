// cuda-unsynchronized-exit: the note at the queued work; main ending at its
// closing brace; RequireCheckedSync makes a synchronization whose error code
// is dropped not count.
// RUN: %check_cuda_tidy_plugin %s cuda-unsynchronized-exit %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-unsynchronized-exit %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver --check-suffix=STRICT %s cuda-unsynchronized-exit %t.strict -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unsynchronized-exit.RequireCheckedSync: true}}"

#include "error_macros.h"
#include <cstdio>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.f;
}

void launch_fill(float *d, int n) { fill<<<(n + 255) / 256, 256>>>(d, n); }

void wait_unchecked(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  cudaDeviceSynchronize();
  exit(0);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:3: note: kernel 'fill' queued here
}

void wait_checked(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  exit(0);
}

int main() {
  int n = 1024;
  float *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  launch_fill(d, n);
  printf("done\n");
}
// CHECK-NOTES: :[[@LINE-1]]:1: warning: main returns while device work may still be running; its errors are never reported [cuda-unsynchronized-exit]
// CHECK-NOTES: :[[@LINE-4]]:3: note: device work queued by this call to 'launch_fill', which returns before it completes
// CHECK-NOTES-STRICT: :[[@LINE-3]]:1: warning: main returns while device work may still be running; its errors are never reported [cuda-unsynchronized-exit]
// CHECK-NOTES-STRICT: :[[@LINE-6]]:3: note: device work queued by this call to 'launch_fill', which returns before it completes
