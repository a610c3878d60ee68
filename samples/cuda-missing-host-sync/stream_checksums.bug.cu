// Block checksums computed on a non-blocking stream and copied back into
// pinned memory.
//
// A kernel on a stream created with cudaStreamNonBlocking hashes each block
// of a buffer (it also spins for 50 ms, standing in for real work); an
// asynchronous copy on the same stream brings the checksums into pinned
// host memory. The host then uploads the next round's setting with a plain
// cudaMemcpy and compares the checksums with its own.
//
// cuda-tidy sample for cuda-missing-host-sync (bug form): the host relies on
// the synchronous cudaMemcpy to wait for the device. It waits for the legacy
// default stream and the blocking streams only, not for a non-blocking
// stream, so the host reads the checksums before the copy has written them.
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

constexpr int kBlocks = 4096;
constexpr int kRounds = 1000;
constexpr long long kSpinCycles = 100000000; // about 50 ms

__host__ __device__ unsigned checksum_of(int block) {
  unsigned x = 2166136261u ^ unsigned(block + 1);
  for (int r = 0; r < kRounds; ++r) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  return x;
}

__global__ void block_checksums(unsigned *sums, int n) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  const long long start = clock64();
  while (clock64() - start < kSpinCycles) {
  }
  if (b < n)
    sums[b] = checksum_of(b);
}

} // namespace

int main() {
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  unsigned *host_sums = nullptr, *dev_sums = nullptr;
  int *dev_setting = nullptr;
  CUDA_CHECK(cudaMallocHost(&host_sums, kBlocks * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dev_sums, kBlocks * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dev_setting, sizeof(int)));
  const int blocks = kBlocks;
  CUDA_CHECK(cudaMemcpy(dev_setting, &blocks, sizeof(int), cudaMemcpyHostToDevice));
  for (int b = 0; b < kBlocks; ++b)
    host_sums[b] = 0;

  block_checksums<<<(kBlocks + 127) / 128, 128, 0, stream>>>(dev_sums,
                                                             kBlocks);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(host_sums, dev_sums, kBlocks * sizeof(unsigned),
                             cudaMemcpyDeviceToHost, stream));
  const int next_round = 2;
  CUDA_CHECK(cudaMemcpy(dev_setting, &next_round, sizeof(int),
                        cudaMemcpyHostToDevice));

  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b)
    wrong += host_sums[b] != checksum_of(b);

  CUDA_CHECK(cudaStreamSynchronize(stream));

  CUDA_CHECK(cudaFree(dev_setting));
  CUDA_CHECK(cudaFree(dev_sums));
  CUDA_CHECK(cudaFreeHost(host_sums));
  CUDA_CHECK(cudaStreamDestroy(stream));
  if (wrong != 0) {
    std::printf("wrong result: %d of %d checksums differ from the host's\n",
                wrong, kBlocks);
    return EXIT_FAILURE;
  }
  std::printf("%d checksums, all right\n", kBlocks);
  return EXIT_SUCCESS;
}
