// RUN: %check_no_crash %s
// Index expressions that once sent the thread-index analysis into endless
// recursion (a shift by a variable, loop bounds made of shifts), and one
// long enough that its walks stop at their depth limits and call it unknown.
#include "common.cuh"

__global__ void shiftByVariable(int *a, int c, int n) {
  a[threadIdx.x] = 0;
  if ((n << c) < 0)
    return;
}

__global__ void shiftedLoopBounds(int *a, int s) {
  for (int i = threadIdx.x + (1 << s); i < (1 << (s + 1)); i += blockDim.x)
    a[i] = i;
}

#define SUM4(x) x + x + x + x
__global__ void longSum(int *a, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = SUM4(SUM4(SUM4(SUM4(SUM4(k << i)))));
}

int main() {
  int *d = nullptr;
  CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
  shiftByVariable<<<1, 256>>>(d, 2, 1024);
  CHECK(cudaGetLastError());
  shiftedLoopBounds<<<1, 256>>>(d, 8);
  CHECK(cudaGetLastError());
  longSum<<<4, 256>>>(d, 3, 1024);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(d));
  return 0;
}
