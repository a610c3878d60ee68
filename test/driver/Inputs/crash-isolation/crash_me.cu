#include <cuda_runtime.h>
int main() {
  float *d;
  cudaMalloc(&d, 256);
  cudaFree(d);
  return 0;
}
