// One-pass sum of an array, launched once per round: every block sums its
// slice in shared memory, thread 0 stores the block's partial, fences, and
// takes a ticket from a global counter; the block that draws the last
// ticket adds the partials and writes the total.
//
// The fix: the last block resets the counter to 0 for the next launch.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_),    \
              __FILE__, __LINE__);                                             \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

constexpr int kThreads = 256;
constexpr int kBlocks = 512;
constexpr int kRounds = 4;

__device__ unsigned int blocksDone = 0;

// n is kBlocks * kThreads: every launch covers it exactly.
__global__ void sumOnePass(const float *in, float *partial, float *total) {
  __shared__ float part[kThreads];
  __shared__ bool amLast;
  int t = threadIdx.x;
  part[t] = in[blockIdx.x * kThreads + t];
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s)
      part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = part[0];
    __threadfence();
    unsigned ticket = atomicAdd(&blocksDone, 1u);
    amLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast && t == 0) {
    float sum = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *total = sum;
    blocksDone = 0;
  }
}

int main() {
  const int n = kBlocks * kThreads;
  std::vector<float> h(n);
  double expected = 0.0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i % 17) * 0.25f;
    expected += h[i];
  }
  float *d_in = nullptr, *d_partial = nullptr, *d_total = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_partial, kBlocks * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_total, sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float),
                        cudaMemcpyHostToDevice));
  int wrong = 0;
  for (int round = 0; round < kRounds; ++round) {
    float sentinel = -1.0f;
    CUDA_CHECK(cudaMemcpy(d_total, &sentinel, sizeof(float),
                          cudaMemcpyHostToDevice));
    sumOnePass<<<kBlocks, kThreads>>>(d_in, d_partial, d_total);
    CUDA_CHECK(cudaGetLastError());
    float got = 0.0f;
    CUDA_CHECK(cudaMemcpy(&got, d_total, sizeof(float),
                          cudaMemcpyDeviceToHost));
    bool ok = std::fabs(got - expected) <= 1e-4 * expected;
    printf("round %d: total %.1f, expected %.1f%s\n", round, got, expected,
           ok ? "" : " (wrong)");
    if (!ok)
      ++wrong;
  }
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_partial));
  CUDA_CHECK(cudaFree(d_total));
  if (wrong) {
    printf("FAILED: %d of %d rounds wrong\n", wrong, kRounds);
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
