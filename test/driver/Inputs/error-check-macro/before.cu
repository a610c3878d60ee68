#include <cuda_runtime.h>
#include <cstdio>
#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t Err = (call);                                                  \
    if (Err != cudaSuccess)                                                    \
      printf("%s\n", cudaGetErrorString(Err));                                 \
  } while (0)

__global__ void touch(float *P) { P[0] = 1; }

int main() {
  float *D;
  cudaMalloc(&D, 256);
  touch<<<1, 1>>>(D);
  cudaFree(D);
  return 0;
}
