// Host code parallelised with OpenMP next to a kernel; nvcc finds omp.h
// through its host compiler.
#include <cuda_runtime.h>
#include <omp.h>

__global__ void touch(float *p) { p[0] = 0.0f; }

int main() {
  int threads = omp_get_max_threads();
#pragma omp parallel for
  for (int i = 0; i < threads; ++i)
    touch<<<1, 1>>>(nullptr);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
