// Sum of 2^20 values in one pass: each block of 256 threads stores one
// part per thread into 'parts', thread 0 takes a ticket from a counter,
// and the block that draws the last ticket adds up every part. The host
// sums the same values and compares.
//
// The bug: thread 0 takes the ticket right after its own store, with no
// __syncthreads() after the other threads' stores. The threads of warps
// 1 to 7 of block 0 first spin through extra work (about 10 ms, as uneven
// work would), while its thread 0 has already drawn its ticket; the other
// 4,095 blocks finish long before, so the block that draws the last ticket
// adds block 0's parts before they are stored: the total comes out short
// by block 0's values in every run. The fix waits at a barrier before the
// ticket.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "FAILED: CUDA error %s at %s:%d\n",                      \
              cudaGetErrorString(err_), __FILE__, __LINE__);                   \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

constexpr int kThreads = 256;
constexpr int kBlocks = 4096;
constexpr int kN = kThreads * kBlocks;

__global__ void sumParts(const float *in, float *parts, unsigned *arrived,
                         float *total, long long spin) {
  __shared__ bool amLast;
  __shared__ float scratch[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  // In block 0, the warps other than the first have more to do before
  // they store.
  if (blockIdx.x == 0 && threadIdx.x >= 32) {
    long long start = clock64();
    while (clock64() - start < spin)
      v = v * 1.0000001f - v * 0.0000001f;
  }
  parts[i] = v;
  __threadfence();
  if (threadIdx.x == 0)
    amLast = atomicAdd(arrived, 1u) == gridDim.x - 1;
  __syncthreads();
  if (amLast) {
    float s = 0.0f;
    for (int k = threadIdx.x; k < kN; k += blockDim.x)
      s += parts[k];
    scratch[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
      if (threadIdx.x < w)
        scratch[threadIdx.x] += scratch[threadIdx.x + w];
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      *total = scratch[0];
      *arrived = 0;
    }
  }
}

int main() {
  std::vector<float> in(kN);
  double want = 0.0;
  for (int k = 0; k < kN; ++k) {
    in[k] = 1.0f + (float)(k % 3);
    want += in[k];
  }
  float *d_in = nullptr, *d_parts = nullptr, *d_total = nullptr;
  unsigned *d_arrived = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_parts, kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_total, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_arrived, sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_arrived, 0, sizeof(unsigned)));

  int wrong = 0;
  const int kRuns = 5;
  for (int r = 0; r < kRuns; ++r) {
    CUDA_CHECK(cudaMemset(d_parts, 0, kN * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_total, 0, sizeof(float)));
    sumParts<<<kBlocks, kThreads>>>(d_in, d_parts, d_arrived, d_total, 20000000);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    float total = 0.0f;
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(float),
                          cudaMemcpyDeviceToHost));
    if (std::fabs(total - want) > 1e-4 * want) {
      printf("run %d: total %.1f, host %.1f\n", r, total, want);
      ++wrong;
    }
  }
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_parts));
  CUDA_CHECK(cudaFree(d_total));
  CUDA_CHECK(cudaFree(d_arrived));
  if (wrong) {
    printf("FAILED: %d of %d totals wrong\n", wrong, kRuns);
    return EXIT_FAILURE;
  }
  printf("PASSED: %d totals\n", kRuns);
  return EXIT_SUCCESS;
}
