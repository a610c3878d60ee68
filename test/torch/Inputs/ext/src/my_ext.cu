#include <torch/extension.h>
#include "my_ext.h"
#include "extra.h"

#if !defined(WITH_CUDA) || !defined(FROM_NVCC_ARGS) || !EXTRA_FOUND
#error "the flags of setup.py or build.ninja were not applied"
#endif
#ifndef __CUDA_NO_HALF_OPERATORS__
#error "torch's nvcc defines are missing"
#endif

__global__ void tile_kernel(float *x, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)TILE + threadIdx.x;
  if (i < n)
    x[i] = 0.0f;
}

void run(torch::Tensor x) {
  tile_kernel<<<1, TILE>>>(x.data_ptr<float>(), x.numel());
}
