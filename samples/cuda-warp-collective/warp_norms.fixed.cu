// Euclidean norms of a table of 64-dimensional embedding vectors, one warp
// per vector, for a cosine-similarity search; the host checks every norm
// against its own.
//
// Each lane squares two components (lane and lane + 32) and the warp adds
// the 32 partial sums with shuffles: first the upper half-warp is folded
// onto the lower one, then the lower 16 lanes finish the tree.
//
// The fix: every lane executes the full-mask fold; only the half-warp tree
// runs under 'if (lane < 16)', with the half-warp mask.
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

constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned kLowerHalf = 0x0000ffffu;
constexpr int kDim = 64;            // components per vector
constexpr int kVectors = 8192;      // vectors in the table
constexpr int kWarpsPerBlock = 8;
constexpr int kThreads = kWarpsPerBlock * 32;

__global__ void vectorNorms(const float *table, float *norms, int count) {
  int vec = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (vec >= count)
    return;
  const float *v = table + (size_t)vec * kDim;
  float a = v[lane];
  float b = v[lane + 32];
  float s = a * a + b * b;
  // Fold lanes 16-31 onto lanes 0-15, then reduce the lower half-warp.
  s += __shfl_down_sync(kFullMask, s, 16);
  if (lane < 16) {
    for (int offset = 8; offset > 0; offset >>= 1)
      s += __shfl_down_sync(kLowerHalf, s, offset, 16);
    if (lane == 0)
      norms[vec] = sqrtf(s);
  }
}

// Components that differ from vector to vector and from lane to lane, so
// that every lost partial sum changes a norm.
static float component(int vec, int k) {
  return 0.25f + 0.01f * (float)((vec * 7 + k * 13) % 97);
}

int main() {
  std::vector<float> table((size_t)kVectors * kDim);
  for (int vec = 0; vec < kVectors; ++vec)
    for (int k = 0; k < kDim; ++k)
      table[(size_t)vec * kDim + k] = component(vec, k);

  float *d_table = nullptr;
  float *d_norms = nullptr;
  CUDA_CHECK(cudaMalloc(&d_table, table.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_norms, kVectors * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_table, table.data(), table.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_norms, 0, kVectors * sizeof(float)));

  const int blocks = kVectors / kWarpsPerBlock;
  vectorNorms<<<blocks, kThreads>>>(d_table, d_norms, kVectors);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> norms(kVectors);
  CUDA_CHECK(cudaMemcpy(norms.data(), d_norms, kVectors * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_table));
  CUDA_CHECK(cudaFree(d_norms));

  int wrong = 0;
  double worst = 0.0;
  for (int vec = 0; vec < kVectors; ++vec) {
    double sum = 0.0;
    for (int k = 0; k < kDim; ++k) {
      double c = table[(size_t)vec * kDim + k];
      sum += c * c;
    }
    double want = std::sqrt(sum);
    double err = std::fabs(norms[vec] - want) / want;
    if (err > 1e-5)
      ++wrong;
    if (err > worst)
      worst = err;
  }
  printf("%d vectors of dimension %d, worst relative error %.3g\n", kVectors,
         kDim, worst);
  if (wrong) {
    printf("FAILED: %d of %d norms wrong\n", wrong, kVectors);
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
