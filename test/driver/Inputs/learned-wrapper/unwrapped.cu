#include <cuda_runtime.h>

// No call of this file is wrapped: there is no wrapper to learn.
int main() {
  float *d = nullptr;
  cudaMalloc(&d, 256);
  cudaMemset(d, 0, 256);
  cudaFree(d);
  return 0;
}
