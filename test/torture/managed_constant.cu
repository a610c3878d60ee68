// RUN: %check_no_crash %s
// __managed__ and __constant__ data, __device__ globals, symbols copied
// to and from, their addresses taken, managed memory used on both sides.
#include "common.cuh"

__constant__ float coeffs[16];
__constant__ int config[2];
__device__ float deviceTotal;
// nvcc also accepts __managed__ without __device__; clang 22 does not
// (docs/reliability.md).
__device__ __managed__ int managedCounter;
__device__ __managed__ float managedArray[256];

__global__ void polynomial(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0, p = 1;
  for (int k = 0; k < config[0] && k < 16; ++k) {
    acc += coeffs[k] * p;
    p *= x[i];
  }
  y[i] = acc;
  atomicAdd(&deviceTotal, acc);
  atomicAdd(&managedCounter, 1);
  if (i < 256)
    managedArray[i] = acc;
}

int main() {
  const int n = 256;
  float host[16];
  for (int k = 0; k < 16; ++k)
    host[k] = 1.0f / (k + 1);
  int cfg[2] = {8, 0};
  CHECK(cudaMemcpyToSymbol(coeffs, host, sizeof(host)));
  CHECK(cudaMemcpyToSymbol(config, cfg, sizeof(cfg), 0, cudaMemcpyHostToDevice));
  float zero = 0;
  CHECK(cudaMemcpyToSymbol(deviceTotal, &zero, sizeof(float)));
  managedCounter = 0;

  float *x = nullptr, *y = nullptr;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    x[i] = 0.5f;
  polynomial<<<(n + 127) / 128, 128>>>(x, y, n);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());

  float total = 0;
  CHECK(cudaMemcpyFromSymbol(&total, deviceTotal, sizeof(float)));
  float *coeffAddr = nullptr;
  CHECK(cudaGetSymbolAddress((void **)&coeffAddr, coeffs));
  size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, coeffs));
  std::printf("%f %d %f %zu %p\n", total, managedCounter, managedArray[0], size,
              (void *)coeffAddr);
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return 0;
}
