// The same with '#if HAVE_GPU' and a condition of two macros.
#include <cstdio>

#if HAVE_GPU && !defined(NO_KERNELS)
__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= f;
}

void run(float *d, int n) {
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  cudaDeviceSynchronize();
}
#endif

int main() {
  printf("done\n");
  return 0;
}
