// Row maxima of a 4096 x 16 integer matrix: blocks of 16 x 16 threads, a
// row of the block per matrix row, one slot of shared memory per row; the
// host computes the same maxima and compares.
//
// The bug: every thread of a row keeps the row's maximum with a plain
// compare-and-store, 'if (v > best[ty]) best[ty] = v'. The threads of a
// row run it together: all of them pass the compare against the initial
// value, and the slot keeps whichever store lands last, not the largest.
// The fix uses atomicMax on the slot.
#include <climits>
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
constexpr int kCols = 16;
constexpr int kTile = 16;

__global__ void rowMax(const int *m, int *out) {
  __shared__ int best[kTile];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.x * kTile + ty;
  if (tx == 0)
    best[ty] = INT_MIN;
  __syncthreads();
  int v = m[row * kCols + tx];
  if (v > best[ty])
    best[ty] = v;
  __syncthreads();
  if (tx == 0)
    out[row] = best[ty];
}

int main() {
  std::vector<int> m(kRows * kCols);
  for (int i = 0; i < kRows * kCols; ++i)
    m[i] = (i * 7919) % 1000;
  int *d_m = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_m, m.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, kRows * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_m, m.data(), m.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  rowMax<<<kRows / kTile, dim3(kTile, kTile)>>>(d_m, d_out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<int> out(kRows);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, kRows * sizeof(int),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_m));
  CUDA_CHECK(cudaFree(d_out));
  int wrong = 0;
  for (int r = 0; r < kRows; ++r) {
    int want = INT_MIN;
    for (int c = 0; c < kCols; ++c)
      want = m[r * kCols + c] > want ? m[r * kCols + c] : want;
    if (out[r] != want)
      ++wrong;
  }
  if (wrong) {
    printf("FAILED: %d of %d row maxima wrong\n", wrong, kRows);
    return EXIT_FAILURE;
  }
  printf("PASSED: %d row maxima\n", kRows);
  return EXIT_SUCCESS;
}
