#include "ops_common.h"

#if __cplusplus < 202002L || !defined(OPS_FROM_LOAD) || defined(OPS_DEBUG)
#error "load()'s extra_cuda_cflags were not read"
#endif

__global__ void scale_kernel(float *x) { x[threadIdx.x] *= 2.f; }

void scale(float *x) { scale_kernel<<<1, 32>>>(x); }
