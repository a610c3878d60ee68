#include <cassert>
#include "ndebug.h"
#include <cuda_runtime.h>
int main() {
  float *p;
  assert(cudaMalloc(&p, 4) == cudaSuccess);
}
