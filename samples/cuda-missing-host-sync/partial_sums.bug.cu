// Sum of a large integer array by block-wise partial sums.
//
// Each block of a kernel reduces its slice of the input in shared memory and
// writes one partial sum (it also spins for about 50 ms, standing in for a
// heavier computation). The partial sums come back with cudaMemcpyAsync on
// a created stream into pinned host memory (cudaMallocHost), and the host
// adds them up and compares the total with the closed form.
//
// cuda-tidy sample for cuda-missing-host-sync (bug form): the host adds the
// partial sums right after queuing the copy, without waiting for the
// stream. With pinned memory the copy is truly asynchronous, so the host
// reads the buffer before the device has written it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

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

constexpr int kThreads = 256;
constexpr int kBlocks = 1024;
constexpr int kN = kThreads * kBlocks;
constexpr long long kSpinCycles = 100000000; // about 50 ms

__global__ void partial_sums(const int *in, long long *partial, int n) {
  __shared__ long long tile[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      tile[threadIdx.x] += tile[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const long long start = clock64();
    while (clock64() - start < kSpinCycles) {
    }
    partial[blockIdx.x] = tile[0];
  }
}

long long expected_total() {
  // in[i] = i % 100: each full run of 100 adds 4950.
  long long runs = kN / 100, rest = kN % 100;
  return runs * 4950 + rest * (rest - 1) / 2;
}

} // namespace

int main() {
  int *host_in = static_cast<int *>(std::malloc(kN * sizeof(int)));
  if (!host_in) {
    std::fprintf(stderr, "out of host memory\n");
    return EXIT_FAILURE;
  }
  for (int i = 0; i < kN; ++i)
    host_in[i] = i % 100;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));

  long long *host_partial = nullptr;
  CUDA_CHECK(cudaMallocHost(&host_partial, kBlocks * sizeof(long long)));
  for (int b = 0; b < kBlocks; ++b)
    host_partial[b] = 0;

  int *dev_in = nullptr;
  long long *dev_partial = nullptr;
  CUDA_CHECK(cudaMalloc(&dev_in, kN * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dev_partial, kBlocks * sizeof(long long)));
  CUDA_CHECK(cudaMemcpyAsync(dev_in, host_in, kN * sizeof(int),
                             cudaMemcpyHostToDevice, stream));

  partial_sums<<<kBlocks, kThreads, 0, stream>>>(dev_in, dev_partial, kN);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(host_partial, dev_partial,
                             kBlocks * sizeof(long long),
                             cudaMemcpyDeviceToHost, stream));

  long long total = 0;
  for (int b = 0; b < kBlocks; ++b)
    total += host_partial[b];

  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaFree(dev_partial));
  CUDA_CHECK(cudaFree(dev_in));
  CUDA_CHECK(cudaFreeHost(host_partial));
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::free(host_in);

  const long long want = expected_total();
  if (total != want) {
    std::printf("wrong result: total %lld, expected %lld\n", total, want);
    return EXIT_FAILURE;
  }
  std::printf("total %lld, as expected\n", total);
  return EXIT_SUCCESS;
}
