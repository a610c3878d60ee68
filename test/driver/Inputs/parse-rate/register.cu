// Old kernels keep values in 'register' variables; nvcc accepts it in
// C++17, clang makes it an error unless -Wno-register.
#include <cuda_runtime.h>

__global__ void mad(float *p) {
  register float s = p[0];
  register float t = s * s + 1.0f;
  p[0] = t;
}
