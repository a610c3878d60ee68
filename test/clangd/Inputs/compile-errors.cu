#include <cuda_runtime.h>
#include <cstdio>
#include "thirdparty/tensor_view.h"

__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i];
}

int main() {
  const int n = 1000;
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  if (cudaMalloc(&d_out, n * sizeof(float)) != cudaSuccess)
    return 1;
  scale<<<(n + 255) / 256, 256>>>(d_out, d_in, n);
  if (cudaDeviceSynchronize() != cudaSuccess)
    printf("failed\n");
  if (cudaFree(d_in) != cudaSuccess)
    return 1;
  return 0;
}

// The buffer goes to a function the missing header declares: no leak can
// be told.
int hands_to_view(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  tv::register_buffer(d, n);
  return 0;
}

// An API that CUDA 13 removed: the function is still analysed around it.
int removed_api(int n) {
  cudaThreadSynchronize();
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  return 0;
}

// The removed call may reset the device: no leak can be told.
int reset_after(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaThreadExit();
  return 0;
}
