#ifndef PREAMBLE_ARCH_H
#define PREAMBLE_ARCH_H
__device__ inline int lanes() {
#ifdef __CUDA_ARCH__
  return 32;
#else
  return 0;
#endif
}
#endif
