// Some CUDA is under an optional macro, most is not: no note.
#include <cuda_runtime.h>

__global__ void add(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += b[i];
}

__global__ void sub(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] -= b[i];
}

#ifdef WITH_PROFILING
void mark() { cudaProfilerStart(); }
#endif

int main() { return 0; }
