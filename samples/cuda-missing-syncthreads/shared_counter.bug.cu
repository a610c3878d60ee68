// Counts, per block, the rows of a matrix whose sum is positive: every
// thread sums one row and adds one to a shared counter with atomicAdd, and
// thread 0 writes the block's count out.
//
// The bug: there is no barrier between the other threads' atomicAdd and
// thread 0's read of the counter, so thread 0 may write out the count
// before the slower warps of its block have added to it.
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

constexpr int kThreads = 1024; // one row per thread
constexpr int kBlocks = 512;
constexpr int kCols = 64;

// rows is kBlocks * kThreads: every launch covers it exactly.
__global__ void countPositiveRows(const float *m, int *perBlock, int rows) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  int row = blockIdx.x * kThreads + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < kCols; ++k)
    sum += m[(size_t)row * kCols + k];
  if (sum > 0.0f)
    atomicAdd(&count, 1);
  if (threadIdx.x == 0)
    perBlock[blockIdx.x] = count;
}

int main() {
  const int rows = kBlocks * kThreads;
  std::vector<float> h((size_t)rows * kCols);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = float(int(i * 2654435761u % 201) - 90) / 10.0f;
  std::vector<int> want(kBlocks, 0);
  for (int r = 0; r < rows; ++r) {
    float sum = 0.0f;
    for (int k = 0; k < kCols; ++k)
      sum += h[(size_t)r * kCols + k];
    if (sum > 0.0f)
      ++want[r / kThreads];
  }
  float *d_m = nullptr;
  int *d_count = nullptr;
  CUDA_CHECK(cudaMalloc(&d_m, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_count, kBlocks * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_m, h.data(), h.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  countPositiveRows<<<kBlocks, kThreads>>>(d_m, d_count, rows);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> got(kBlocks);
  CUDA_CHECK(cudaMemcpy(got.data(), d_count, kBlocks * sizeof(int),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_m));
  CUDA_CHECK(cudaFree(d_count));

  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b)
    if (got[b] != want[b])
      ++wrong;
  printf("%d blocks, %d counts wrong (block 0: %d, expected %d)\n", kBlocks,
         wrong, got[0], want[0]);
  if (wrong) {
    printf("FAILED: block counts wrong\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
