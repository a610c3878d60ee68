#include <cuda_runtime.h>
#include <cstdio>
__global__ void add(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] += a[i];
}
int main() {
  float *a, *b;
  if (cudaMalloc(&a, 64) != cudaSuccess)
    return 1;
  if (cudaMalloc(&b, 64) != cudaSuccess) {
    (void)cudaFree(a);
    return 1;
  }
  add<<<1, 16>>>(a, b, 16);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess)
    err = cudaDeviceSynchronize();
  (void)cudaFree(a);
  (void)cudaFree(b);
  return err == cudaSuccess ? 0 : 1;
}
