#include <cuda_runtime.h>
int main() {
  float *d
  cudaMalloc(&d, 256);
  return undeclared_name;
}
