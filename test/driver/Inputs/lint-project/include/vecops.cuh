#pragma once
#include <cuda_runtime.h>

// Checks a CUDA call, returning its error from the calling function.
#define VEC_TRY(call)                                                          \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess)                                                   \
      return err_;                                                             \
  } while (0)

cudaError_t vec_scale(float *d, int n, float f, cudaStream_t s);
