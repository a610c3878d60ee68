// RUN: %check_no_crash %s --extra-arg=-fgpu-rdc
// Dynamic parallelism (needs relocatable device code: nvcc -rdc=true):
// kernels that launch kernels, recursion through launches, device-side
// streams and error queries.
#include "common.cuh"

__global__ void child(float *data, int n, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += depth;
}

__global__ void quickPass(float *data, int lo, int hi, int depth) {
  int n = hi - lo;
  if (n <= 32 || depth >= 4) {
    if (threadIdx.x == 0 && n > 0)
      child<<<(n + 31) / 32, 32>>>(data + lo, n, depth);
    return;
  }
  if (threadIdx.x == 0) {
    int mid = lo + n / 2;
    cudaStream_t s1, s2;
    if (cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) != cudaSuccess)
      return;
    if (cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) != cudaSuccess) {
      (void)cudaStreamDestroy(s1);
      return;
    }
    quickPass<<<1, 32, 0, s1>>>(data, lo, mid, depth + 1);
    quickPass<<<1, 32, 0, s2>>>(data, mid, hi, depth + 1);
    if (cudaGetLastError() != cudaSuccess)
      data[lo] = -1.0f;
    (void)cudaStreamDestroy(s1);
    (void)cudaStreamDestroy(s2);
  }
}

int main() {
  const int n = 1024;
  float *d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemset(d, 0, n * sizeof(float)));
  quickPass<<<1, 32>>>(d, 0, n, 0);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(d));
  return 0;
}
