#include <cuda_runtime.h>
#include <cstdio>

__global__ void touch(float *P) { P[0] = 1; }

static void early(float **D) {
  cudaMalloc(D, 256);
  touch<<<1, 1>>>(*D);
}

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t Err = (call);                                                  \
    if (Err != cudaSuccess)                                                    \
      printf("%s\n", cudaGetErrorString(Err));                                 \
  } while (0)

void defined(float *D) { cudaMemset(D, 0, 256); }

void run(float **D) { early(D); }

#undef CUDA_CHECK

void undefinedAgain(float *D) { cudaFree(D); }
