// Relaxes a 1-D heat equation with a Jacobi stencil, sweep after sweep, and
// reports the residual (the largest change of a sweep), reduced per block.
//
// The bug: the per-block residual buffer is allocated inside the sweep
// loop, and only the last one is freed after it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
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

constexpr int kCells = 1 << 18;
constexpr int kSweeps = 16;
constexpr int kThreads = 256;
constexpr int kBlocks = (kCells + kThreads - 1) / kThreads;

// Fixed-temperature ends; every inner cell becomes the mean of its
// neighbours. Each block writes the largest change it made.
__global__ void jacobiSweep(const float *cur, float *next, float *blockMax,
                            int n) {
  __shared__ float change[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float delta = 0.0f;
  if (i < n) {
    float v = (i == 0 || i == n - 1) ? cur[i]
                                     : 0.5f * (cur[i - 1] + cur[i + 1]);
    delta = fabsf(v - cur[i]);
    next[i] = v;
  }
  change[threadIdx.x] = delta;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      change[threadIdx.x] = fmaxf(change[threadIdx.x], change[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    blockMax[blockIdx.x] = change[0];
}

static float sweepOnHost(std::vector<float> &grid) {
  const size_t n = grid.size();
  std::vector<float> next(n);
  float largest = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    next[i] = (i == 0 || i == n - 1) ? grid[i]
                                     : 0.5f * (grid[i - 1] + grid[i + 1]);
    largest = std::max(largest, std::fabs(next[i] - grid[i]));
  }
  grid.swap(next);
  return largest;
}

int main() {
  std::vector<float> grid(kCells, 0.0f);
  grid.front() = 100.0f;
  grid.back() = 50.0f;
  for (int i = 1; i < kCells - 1; i += 97)
    grid[i] = static_cast<float>(i % 13);

  float *d_cur = nullptr, *d_next = nullptr, *d_blockMax = nullptr;
  CUDA_CHECK(cudaMalloc(&d_cur, kCells * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_next, kCells * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_cur, grid.data(), kCells * sizeof(float),
                        cudaMemcpyHostToDevice));
  std::vector<float> blockMax(kBlocks), residuals;
  for (int s = 0; s < kSweeps; ++s) {
    CUDA_CHECK(cudaMalloc(&d_blockMax, kBlocks * sizeof(float)));
    jacobiSweep<<<kBlocks, kThreads>>>(d_cur, d_next, d_blockMax, kCells);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(blockMax.data(), d_blockMax, kBlocks * sizeof(float),
                          cudaMemcpyDeviceToHost));
    residuals.push_back(*std::max_element(blockMax.begin(), blockMax.end()));
    std::swap(d_cur, d_next);
  }
  std::vector<float> result(kCells);
  CUDA_CHECK(cudaMemcpy(result.data(), d_cur, kCells * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_blockMax));
  CUDA_CHECK(cudaFree(d_cur));
  CUDA_CHECK(cudaFree(d_next));

  int wrong = 0;
  for (int s = 0; s < kSweeps; ++s) {
    float expected = sweepOnHost(grid);
    if (std::fabs(residuals[s] - expected) > 1e-4f * (1.0f + expected))
      ++wrong;
  }
  for (int i = 0; i < kCells; ++i)
    if (std::fabs(result[i] - grid[i]) > 1e-4f * (1.0f + std::fabs(grid[i])))
      ++wrong;
  printf("%d sweeps over %d cells, final residual %g, %d values wrong\n",
         kSweeps, kCells, residuals.back(), wrong);
  if (wrong) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
