// Row sums of a 4096 x 1000 matrix: one block of 256 threads per row, each
// thread summing the columns j = threadIdx.x, threadIdx.x + 256, ...; the
// host sums the same rows and compares.
//
// The threads combine their partial sums in shared memory, and thread 0
// stores the row's total.
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

constexpr int kRows = 4096;
constexpr int kCols = 1000;
constexpr int kThreads = 256;

__global__ void rowSums(const float *m, float *sums, int cols) {
  float partial = 0.0f;
  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    partial += m[blockIdx.x * cols + j];
  __shared__ float part[kThreads];
  part[threadIdx.x] = partial;
  __syncthreads();
  for (int k = kThreads / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    sums[blockIdx.x] = part[0];
}

int main() {
  std::vector<float> m((size_t)kRows * kCols);
  for (size_t i = 0; i < m.size(); ++i)
    m[i] = 1.0f + (float)(i % 5);

  float *d_m = nullptr, *d_sums = nullptr;
  CUDA_CHECK(cudaMalloc(&d_m, m.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sums, kRows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_m, m.data(), m.size() * sizeof(float),
                        cudaMemcpyHostToDevice));

  rowSums<<<kRows, kThreads>>>(d_m, d_sums, kCols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> sums(kRows);
  CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, kRows * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_m));
  CUDA_CHECK(cudaFree(d_sums));

  int wrong = 0;
  for (int r = 0; r < kRows; ++r) {
    double want = 0.0;
    for (int j = 0; j < kCols; ++j)
      want += m[(size_t)r * kCols + j];
    if (std::fabs(sums[r] - want) > 1e-3 * want)
      ++wrong;
  }
  if (wrong) {
    printf("FAILED: %d of %d row sums wrong\n", wrong, kRows);
    return EXIT_FAILURE;
  }
  printf("PASSED: %d row sums\n", kRows);
  return EXIT_SUCCESS;
}
