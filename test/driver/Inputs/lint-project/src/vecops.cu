#include "vecops.cuh"

#ifndef VECOPS_BLOCK
#error "the target's definitions did not reach the analysis"
#endif

constexpr int blocks_for(int n) { return (n + VECOPS_BLOCK - 1) / VECOPS_BLOCK; }

__global__ void scale(float *d, int n, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= f;
}

cudaError_t vec_scale(float *d, int n, float f, cudaStream_t s) {
  scale<<<blocks_for(n), VECOPS_BLOCK, 0, s>>>(d, n, f);
  return cudaGetLastError();
}
