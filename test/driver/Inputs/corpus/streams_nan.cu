// Copy-compute overlap over streams with events; the host validates with
// isnan() and isinf() unqualified, which nvcc's headers make visible.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t err = (x);                                                     \
    if (err != cudaSuccess) {                                                  \
      printf("%s failed: %s\n", #x, cudaGetErrorString(err));                 \
      return err;                                                              \
    }                                                                          \
  } while (0)

cudaError_t overlapped_axpy(float a, const float *hx, float *hy, int n,
                            int chunks) {
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  cudaStream_t s[2];
  for (auto &st : s)
    CHECK(cudaStreamCreate(&st));
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));
  int per = (n + chunks - 1) / chunks;
  for (int c = 0; c < chunks; ++c) {
    int off = c * per;
    int len = min(per, n - off);
    cudaStream_t st = s[c % 2];
    CHECK(cudaMemcpyAsync(dx + off, hx + off, len * sizeof(float),
                          cudaMemcpyHostToDevice, st));
    CHECK(cudaMemcpyAsync(dy + off, hy + off, len * sizeof(float),
                          cudaMemcpyHostToDevice, st));
    axpy<<<(len + 255) / 256, 256, 0, st>>>(a, dx + off, dy + off, len);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(hy + off, dy + off, len * sizeof(float),
                          cudaMemcpyDeviceToHost, st));
  }
  CHECK(cudaEventRecord(done, s[(chunks - 1) % 2]));
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i)
    if (isnan(hy[i]) || isinf(hy[i])) {
      printf("bad value at %d\n", i);
      break;
    }
  CHECK(cudaEventDestroy(done));
  for (auto &st : s)
    CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return cudaSuccess;
}
