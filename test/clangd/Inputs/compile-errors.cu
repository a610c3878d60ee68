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

// A call of the missing header's logger: the copy after it is analysed.
int copy_too_much(int n) {
  TV_TRACE("copy");
  float *d;
  double *h = new double[n];
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(double), cudaMemcpyDeviceToHost);
  if (cudaFree(d) != cudaSuccess)
    e = cudaErrorUnknown;
  delete[] h;
  return e != cudaSuccess;
}

// The header's helper may reallocate the buffer: no size can be told.
int copy_after_resize(int n) {
  float *d;
  double *h = new double[n];
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  tv::grow(&d, 2 * n);
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(double), cudaMemcpyDeviceToHost);
  if (cudaFree(d) != cudaSuccess)
    e = cudaErrorUnknown;
  delete[] h;
  return e != cudaSuccess;
}

// A kernel whose parameter has the header's type: read beside its error.
__global__ void shade(const tv::vec3 *pts, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    out[i] = pts[i].x;
}
