// A file whose CUDA code is compiled only when the build defines USE_CUDA.
#include <cstdio>
#include <cstdlib>

#ifdef USE_CUDA
#include <cuda_runtime.h>

__global__ void fill(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = 1.0f;
}

static float *device_buffer(int n) {
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(d, n);
  return d;
}
#else
static float *device_buffer(int n) {
  return static_cast<float *>(calloc(n, sizeof(float)));
}
#endif

int main() {
  float *x = device_buffer(1000);
  printf("%p\n", static_cast<void *>(x));
  return 0;
}
