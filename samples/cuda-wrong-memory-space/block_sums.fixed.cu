// Sum of 16 Mi integers: per-block partial sums on the GPU, the final sum
// on the host.
//
// Each block reduces 1024 elements in shared memory and thread 0 stores the
// block's sum. The host adds the partial sums and compares with its own
// total.
//
// cuda-tidy sample for cuda-wrong-memory-space (fixed form): the kernel
// writes the partial sums to device memory, then they are copied back.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CUDA_CHECK(call)                                                     \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n", __FILE__, \
                   __LINE__, #call, cudaGetErrorString(err_));               \
      std::exit(EXIT_FAILURE);                                               \
    }                                                                        \
  } while (0)

namespace {

constexpr int kThreads = 1024;

__global__ void block_sum(const int *values, long long *partial, int n) {
  __shared__ long long cache[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cache[threadIdx.x] = i < n ? values[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      cache[threadIdx.x] += cache[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = cache[0];
}

} // namespace

int main() {
  const int n = 1 << 24;
  const int blocks = (n + kThreads - 1) / kThreads;
  std::vector<int> values(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    values[i] = (i * 37) % 1000 - 500;
    expected += values[i];
  }

  long long *h_partial =
      static_cast<long long *>(std::malloc(blocks * sizeof(long long)));
  if (!h_partial) {
    std::fprintf(stderr, "out of host memory\n");
    return EXIT_FAILURE;
  }
  int *d_values = nullptr;
  long long *d_partial = nullptr;
  CUDA_CHECK(cudaMalloc(&d_values, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_partial, blocks * sizeof(long long)));
  CUDA_CHECK(cudaMemset(d_partial, 0, blocks * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(d_values, values.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  block_sum<<<blocks, kThreads>>>(d_values, d_partial, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h_partial, d_partial, blocks * sizeof(long long), cudaMemcpyDeviceToHost));

  long long total = 0;
  for (int b = 0; b < blocks; ++b)
    total += h_partial[b];

  CUDA_CHECK(cudaFree(d_values));
  CUDA_CHECK(cudaFree(d_partial));
  std::free(h_partial);

  if (total != expected) {
    std::printf("FAILED: sum %lld, expected %lld\n", total, expected);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: sum %lld over %d values\n", total, n);
  return EXIT_SUCCESS;
}
