// Code that picks an API by nvcc's version macros.
#include <cuda_runtime.h>

#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__)
#error "no nvcc version"
#endif
#if __CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 != CUDART_VERSION
#error "nvcc version differs from CUDART_VERSION"
#endif

__global__ void noop(int *p) { p[0] = __CUDACC_VER_MAJOR__; }
