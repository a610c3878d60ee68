// nvcc accepts a PTX special register written with one '%' in an asm
// template that has operands; clang rejects it ("invalid % escape").
#include <cuda_runtime.h>

__device__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__device__ unsigned lane() {
  unsigned l;
  asm("mov.u32 %0,%laneid;" : "=r"(l));
  return l;
}

__device__ unsigned lanes_below() {
  unsigned m;
  asm("mov.u32 %0, "
      "%lanemask_lt;" : "=r"(m));
  return m;
}

__device__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// asm("mov.u32 %0, %laneid;" : "=r"(x)) in a comment is left alone.
__global__ void stamp(unsigned long long *out, unsigned *where, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long t = now(); if (i <= n) out[i] = t + lane();
  if (i <= n)
    where[i] = sm_id() + lanes_below();
}
