#include <cuda_runtime.h>
#include <arch.h>
int main() {
  float *p;
  cudaMalloc(&p, 4);
}
