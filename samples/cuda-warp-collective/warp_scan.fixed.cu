// Running totals of a series of daily amounts, one value per thread: each
// warp computes the inclusive prefix sum of its 32 values with shuffles
// (Hillis-Steele), and the host checks every total.
//
// The shuffle is reached through a small wrapper, shflUp, kept from the days
// of __shfl_up(var, delta, width).
//
// The fix: the wrapper passes the full-warp mask first, as __shfl_up_sync
// expects; every lane of the warp calls it.
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

constexpr int kDays = 1 << 20;
constexpr int kThreads = 256;

template <typename T>
__device__ T shflUp(T var, unsigned delta, int width = 32) {
  return __shfl_up_sync(0xffffffffu, var, delta, width);
}

__global__ void warpRunningTotals(const int *amounts, int *totals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int x = i < n ? amounts[i] : 0;
  for (unsigned d = 1; d < 32; d *= 2) {
    int y = shflUp(x, d);
    if (lane >= (int)d)
      x += y;
  }
  if (i < n)
    totals[i] = x;
}

// Small amounts that vary from day to day.
static int amount(int day) { return 1 + (day * 7) % 23; }

int main() {
  std::vector<int> amounts(kDays);
  for (int i = 0; i < kDays; ++i)
    amounts[i] = amount(i);

  int *d_amounts = nullptr;
  int *d_totals = nullptr;
  CUDA_CHECK(cudaMalloc(&d_amounts, kDays * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_totals, kDays * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_amounts, amounts.data(), kDays * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_totals, 0, kDays * sizeof(int)));

  warpRunningTotals<<<(kDays + kThreads - 1) / kThreads, kThreads>>>(
      d_amounts, d_totals, kDays);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<int> totals(kDays);
  CUDA_CHECK(cudaMemcpy(totals.data(), d_totals, kDays * sizeof(int),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_amounts));
  CUDA_CHECK(cudaFree(d_totals));

  int wrong = 0;
  int first = -1;
  int running = 0;
  for (int i = 0; i < kDays; ++i) {
    running = i % 32 == 0 ? amounts[i] : running + amounts[i];
    if (totals[i] != running) {
      if (first < 0)
        first = i;
      ++wrong;
    }
  }
  if (wrong) {
    printf("FAILED: %d of %d running totals wrong (the first at day %d)\n",
           wrong, kDays, first);
    return EXIT_FAILURE;
  }
  printf("PASSED: %d running totals\n", kDays);
  return EXIT_SUCCESS;
}
