// Inclusive prefix sums of 1M integers, one block-wise scan per 1024
// elements, then a host pass that adds the block totals.
//
// The transfers go through one helper that picks the copy kind at run time
// from the direction it is asked for.
//
// cuda-tidy sample for cuda-memcpy-direction (bug form): the two arms of the
// conditional that chooses the kind are swapped, so the upload asks for
// cudaMemcpyDeviceToHost and cudaMemcpy refuses it with "invalid argument".
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

constexpr int kN = 1 << 20;
constexpr int kBlock = 1024;

__global__ void block_scan(int *data, int n) {
  __shared__ int tile[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  tile[threadIdx.x] = i < n ? data[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < kBlock; offset *= 2) {
    int add = threadIdx.x >= offset ? tile[threadIdx.x - offset] : 0;
    __syncthreads();
    tile[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n)
    data[i] = tile[threadIdx.x];
}

} // namespace

int main() {
  std::vector<int> host(kN);
  for (int i = 0; i < kN; ++i)
    host[i] = i % 3;
  int *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, kN * sizeof(int)));
  for (int pass = 0; pass < 2; ++pass) {
    bool upload = pass == 0;
    cudaMemcpyKind kind =
        upload ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
    if (upload) {
      CUDA_CHECK(cudaMemcpy(d, host.data(), kN * sizeof(int), kind));
      block_scan<<<kN / kBlock, kBlock>>>(d, kN);
      CUDA_CHECK(cudaGetLastError());
    } else {
      CUDA_CHECK(cudaMemcpy(host.data(), d, kN * sizeof(int),
                            cudaMemcpyDeviceToHost));
    }
  }
  CUDA_CHECK(cudaFree(d));
  for (int b = 1; b < kN / kBlock; ++b) {
    int carry = host[b * kBlock - 1];
    for (int i = 0; i < kBlock; ++i)
      host[b * kBlock + i] += carry;
  }
  long long expect = 0;
  int wrong = 0;
  for (int i = 0; i < kN; ++i) {
    expect += i % 3;
    if (host[i] != expect)
      ++wrong;
  }
  if (wrong) {
    std::printf("FAILED: %d of %d prefix sums wrong\n", wrong, kN);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
