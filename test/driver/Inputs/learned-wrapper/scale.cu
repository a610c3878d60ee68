#include "common.h"

__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}

int main() {
  const int n = 1 << 20;
  setup_device();
  int max_shared = 0;
  cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlock, 0);
  float *in = nullptr, *out = nullptr;
  cudaCheck(cudaMalloc(&in, n * sizeof(float)));
  cudaCheck(cudaMalloc(&out, n * sizeof(float)));
  cudaCheck(cudaMemset(in, 0, n * sizeof(float)));
  scale<<<(n + 255) / 256, 256>>>(out, in, n);
  cudaCheck(cudaGetLastError());
  cudaCheck(cudaDeviceSynchronize());
  cudaFree(in);
  cudaCheck(cudaFree(out));
  return 0;
}
