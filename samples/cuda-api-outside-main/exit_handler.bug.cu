// Computes a running (prefix) sum of 1 Mi integers on the GPU, block by
// block, and checks it on the host. The device buffers live in globals,
// and a cleanup function frees them and reports a failed cudaFree.
//
// cuda-tidy sample for cuda-api-outside-main (bug form): the cleanup is
// registered with atexit before the first CUDA call, so it runs after the
// CUDA runtime's own exit handler has shut the runtime down: cudaFree
// fails with cudaErrorCudartUnloading. main calls it before returning.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <unistd.h>
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

constexpr int kN = 1 << 20;
constexpr int kBlock = 1024;

int *d_values = nullptr;

void release_buffers() {
  cudaError_t err = cudaFree(d_values);
  if (err != cudaSuccess) {
    std::fprintf(stderr, "FAILED: release_buffers: cudaFree: %s\n",
                 cudaGetErrorName(err));
    _exit(1);
  }
  d_values = nullptr;
}

// Inclusive scan of each block's kBlock values (Hillis-Steele).
__global__ void block_scan(int *values) {
  __shared__ int tile[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  tile[threadIdx.x] = values[i];
  __syncthreads();
  for (int offset = 1; offset < kBlock; offset *= 2) {
    int add = threadIdx.x >= offset ? tile[threadIdx.x - offset] : 0;
    __syncthreads();
    tile[threadIdx.x] += add;
    __syncthreads();
  }
  values[i] = tile[threadIdx.x];
}

} // namespace

int main() {
  std::atexit(release_buffers);
  std::vector<int> host(kN);
  for (int i = 0; i < kN; ++i)
    host[i] = i % 5;
  CUDA_CHECK(cudaMalloc(&d_values, kN * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_values, host.data(), kN * sizeof(int),
                        cudaMemcpyHostToDevice));
  block_scan<<<kN / kBlock, kBlock>>>(d_values);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> result(kN);
  CUDA_CHECK(cudaMemcpy(result.data(), d_values, kN * sizeof(int),
                        cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int b = 0; b < kN / kBlock; ++b) {
    int sum = 0;
    for (int t = 0; t < kBlock; ++t) {
      sum += host[b * kBlock + t];
      if (result[b * kBlock + t] != sum)
        ++wrong;
    }
  }
  if (wrong) {
    std::printf("FAILED: %d of %d prefix sums wrong\n", wrong, kN);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
