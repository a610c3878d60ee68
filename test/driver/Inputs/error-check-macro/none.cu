#include <cuda_runtime.h>

__global__ void touch(float *P) { P[0] = 1; }

int main() {
  float *D;
  cudaMalloc(&D, 256);
  touch<<<1, 1>>>(D);
  cudaFree(D);
  return 0;
}
