#include <cuda_runtime.h>
#include <unguarded.h>
int main() {
  Pair x{1, 2};
  float *p;
  cudaMalloc(&p, x.first);
}
