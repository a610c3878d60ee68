#include <cuda_runtime.h>
#define CUDA_CHECK(call) (void)(call)
int main() {
  float *d;
  cudaMalloc(&d, 256);
  cudaFree(d);
  return 0;
}
