// Scales every row of a matrix by a factor that thread 0 of the row's
// block loads into shared memory; the threads inside the row's width read
// it (one block per row; the last threads of the block are past the width).
//
// The bug: there is no barrier between thread 0's store of the factor and
// the other threads' reads, so a thread in range can read the factor
// before it is stored.
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
constexpr int kRows = 4096;
constexpr int kWidth = 200;

// One block per row; threads at or past the width do nothing.
__global__ void scaleRows(const float *in, const float *factors, float *out,
                          int width) {
  __shared__ float factor;
  int col = threadIdx.x;
  if (threadIdx.x == 0)
    factor = factors[blockIdx.x];
  if (col < width)
    out[blockIdx.x * width + col] = in[blockIdx.x * width + col] * factor;
}

int main() {
  const int n = kRows * kWidth;
  std::vector<float> h(n), f(kRows);
  for (int i = 0; i < n; ++i)
    h[i] = 1.0f + (i % 13);
  for (int r = 0; r < kRows; ++r)
    f[r] = 0.5f + (r % 7);
  float *d_in = nullptr, *d_f = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_f, kRows * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_f, f.data(), kRows * sizeof(float),
                        cudaMemcpyHostToDevice));
  scaleRows<<<kRows, kThreads>>>(d_in, d_f, d_out, kWidth);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_f));
  CUDA_CHECK(cudaFree(d_out));

  int wrong = 0;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kWidth; ++c)
      if (std::fabs(out[r * kWidth + c] - h[r * kWidth + c] * f[r]) > 1e-5f)
        ++wrong;
  printf("%d rows of %d, %d elements wrong\n", kRows, kWidth, wrong);
  if (wrong) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
