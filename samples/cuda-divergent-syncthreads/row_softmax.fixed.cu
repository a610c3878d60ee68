// Softmax of every row of a matrix, one block per row: the block finds the
// row's maximum, then the sum of exponentials, in shared memory.
//
// The fix: every thread of the block takes part in the sum's reduction loop
// (the threads past the end of the row add zeros), so every thread reaches
// each barrier.
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

constexpr int kRows = 512;
constexpr int kCols = 200;
constexpr int kThreads = 256;

__global__ void rowSoftmax(const float *in, float *out, int cols) {
  __shared__ float scratch[kThreads];
  const float *row = in + blockIdx.x * cols;
  float *dst = out + blockIdx.x * cols;
  int t = threadIdx.x;
  float v = t < cols ? row[t] : -INFINITY;
  scratch[t] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s)
      scratch[t] = fmaxf(scratch[t], scratch[t + s]);
    __syncthreads();
  }
  float rowMax = scratch[0];
  __syncthreads();
  float e = t < cols ? expf(v - rowMax) : 0.0f;
  scratch[t] = e;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s)
      scratch[t] += scratch[t + s];
    __syncthreads();
  }
  __syncthreads();
  float total = scratch[0];
  if (t < cols)
    dst[t] = e / total;
}

int main() {
  std::vector<float> h(kRows * kCols);
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c)
      h[r * kCols + c] = 0.01f * static_cast<float>((r * 7 + c * 13) % 97);
  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, h.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), h.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  rowSoftmax<<<kRows, kThreads>>>(d_in, d_out, kCols);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> out(h.size());
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  int wrong = 0;
  for (int r = 0; r < kRows; ++r) {
    float m = -INFINITY;
    for (int c = 0; c < kCols; ++c)
      m = std::fmax(m, h[r * kCols + c]);
    double sum = 0;
    for (int c = 0; c < kCols; ++c)
      sum += std::exp(h[r * kCols + c] - m);
    for (int c = 0; c < kCols; ++c) {
      double want = std::exp(h[r * kCols + c] - m) / sum;
      if (std::fabs(out[r * kCols + c] - want) > 1e-5)
        ++wrong;
    }
  }
  printf("%d rows of %d, %d values wrong\n", kRows, kCols, wrong);
  if (wrong) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
