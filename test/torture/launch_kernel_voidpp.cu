// RUN: %check_no_crash %s
// Kernels launched through the runtime API with void** argument arrays:
// cudaLaunchKernel, cudaLaunchKernelEx with attributes, function pointers
// to kernels, and kernels whose arguments are structs and pointers to
// pointers.
#include "common.cuh"

struct Params {
  const float *in;
  float *out;
  int n;
};

__global__ void byStruct(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    p.out[i] = p.in[i] + 1.0f;
}

__global__ void byPointers(float **bufs, int count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int b = 1; b < count; ++b)
      bufs[0][i] += bufs[b][i];
}

using Kernel = void (*)(Params);

int main() {
  const int n = 512;
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemset(in, 0, n * sizeof(float)));

  Params p{in, out, n};
  void *args[] = {&p};
  CHECK(cudaLaunchKernel((const void *)byStruct, dim3((n + 127) / 128),
                         dim3(128), args, 0, nullptr));

  float **table = nullptr;
  float *hostTable[2] = {out, in};
  CHECK(cudaMalloc(&table, 2 * sizeof(float *)));
  CHECK(cudaMemcpy(table, hostTable, sizeof(hostTable), cudaMemcpyHostToDevice));
  int count = 2, nn = n;
  void *args2[3];
  args2[0] = &table;
  args2[1] = &count;
  args2[2] = &nn;
  CHECK(cudaLaunchKernel(reinterpret_cast<void *>(&byPointers), dim3(4),
                         dim3(128), args2, 0, cudaStreamPerThread));

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 127) / 128);
  config.blockDim = dim3(128);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 0;
  config.attrs = attr;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, byStruct, p));

  Kernel k = byStruct;
  k<<<1, 128>>>(p);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(table));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}
