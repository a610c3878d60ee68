// Sums of the 32-value rows of a sensor table, one warp per row; the host
// checks every sum.
//
// The kernel takes the mask of the lanes that are there with __activemask()
// when it starts, and uses it for the whole reduction: the upper half-warp
// is folded onto the lower one, then the lower 16 lanes finish the tree.
//
// The fix: every lane executes the fold with the mask taken before the
// branch; the half-warp tree takes its own mask inside the branch.
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

constexpr int kRowLength = 32;     // values per row, one per lane
constexpr int kRows = 16384;       // rows in the table
constexpr int kWarpsPerBlock = 8;
constexpr int kThreads = kWarpsPerBlock * 32;

__global__ void rowSums(const float *table, float *sums) {
  unsigned active = __activemask();
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  float s = table[(size_t)row * kRowLength + lane];
  // Fold lanes 16-31 onto lanes 0-15, then reduce the lower half-warp.
  s += __shfl_down_sync(active, s, 16);
  if (lane < 16) {
    unsigned lower = __activemask();
    for (int offset = 8; offset > 0; offset >>= 1)
      s += __shfl_down_sync(lower, s, offset, 16);
    if (lane == 0)
      sums[row] = s;
  }
}

// Values that differ from row to row and from lane to lane, so that every
// lost partial sum changes a total.
static float reading(int row, int k) {
  return 0.5f + 0.25f * (float)((row * 5 + k * 11) % 13);
}

int main() {
  std::vector<float> table((size_t)kRows * kRowLength);
  for (int row = 0; row < kRows; ++row)
    for (int k = 0; k < kRowLength; ++k)
      table[(size_t)row * kRowLength + k] = reading(row, k);

  float *d_table = nullptr;
  float *d_sums = nullptr;
  CUDA_CHECK(cudaMalloc(&d_table, table.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sums, kRows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_table, table.data(), table.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_sums, 0, kRows * sizeof(float)));

  rowSums<<<kRows / kWarpsPerBlock, kThreads>>>(d_table, d_sums);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> sums(kRows);
  CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, kRows * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_table));
  CUDA_CHECK(cudaFree(d_sums));

  int wrong = 0;
  for (int row = 0; row < kRows; ++row) {
    double want = 0.0;
    for (int k = 0; k < kRowLength; ++k)
      want += table[(size_t)row * kRowLength + k];
    if (std::fabs(sums[row] - want) > 1e-3 * want)
      ++wrong;
  }
  if (wrong) {
    printf("FAILED: %d of %d row sums wrong\n", wrong, kRows);
    return EXIT_FAILURE;
  }
  printf("PASSED: %d row sums\n", kRows);
  return EXIT_SUCCESS;
}
