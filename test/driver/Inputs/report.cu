#include <cuda_runtime.h>
__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }
int run(float *p) {
  fill<<<1, 32>>>(p);
  return 0;
}
int main() {
  float *d;
  cudaMalloc(&d, 256);
  return run(d);
}
