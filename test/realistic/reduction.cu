// A shared-memory sum reduction in the style of the CUDA samples
// (checkCudaErrors, getLastCudaError, a launcher function).
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdio>
#include <vector>

template <unsigned BlockSize>
__global__ void reduceSum(const float *in, float *out, unsigned n) {
  __shared__ float sdata[BlockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BlockSize * 2) + threadIdx.x;
  float sum = 0.0f;
  if (i < n)
    sum += in[i];
  if (i + BlockSize < n)
    sum += in[i + BlockSize];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = BlockSize / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// The launcher leaves error checking to its callers, as the samples do.
template <unsigned BlockSize>
void reduce(const float *in, float *out, unsigned n, unsigned blocks) {
  reduceSum<BlockSize><<<blocks, BlockSize>>>(in, out, n);
}

float sumOnDevice(const std::vector<float> &h) {
  const unsigned n = (unsigned)h.size();
  const unsigned threads = 256;
  const unsigned blocks = (n + threads * 2 - 1) / (threads * 2);
  float *dIn = nullptr, *dOut = nullptr;
  checkCudaErrors(cudaMalloc(&dIn, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&dOut, blocks * sizeof(float)));

  cudaError_t err = cudaMemcpy(dIn, h.data(), n * sizeof(float),
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the error code returned by 'cudaMemcpy' is stored in 'err' but never read [cuda-unchecked-api-call]
                               cudaMemcpyHostToDevice);
  err = cudaMemset(dOut, 0, blocks * sizeof(float));
  if (err != cudaSuccess) {
    fprintf(stderr, "memset failed: %s\n", cudaGetErrorString(err));
    exit(EXIT_FAILURE);
  }

  reduce<threads>(dIn, dOut, n, blocks);
  getLastCudaError("reduceSum failed");

  std::vector<float> partial(blocks);
  checkCudaErrors(cudaMemcpy(partial.data(), dOut, blocks * sizeof(float),
                             cudaMemcpyDeviceToHost));
  double total = 0;
  for (float p : partial)
    total += p;
  checkCudaErrors(cudaFree(dIn));
  checkCudaErrors(cudaFree(dOut));
  return (float)total;
}

int main() {
  std::vector<float> h(1 << 22, 0.5f);
  float got = sumOnDevice(h);
  float want = 0.5f * h.size();
  printf("sum = %f (expected %f)\n", got, want);
  return got == want ? 0 : 1;
}
