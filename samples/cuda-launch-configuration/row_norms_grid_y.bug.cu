// Normalizes every row of a (batch * seq) x hidden matrix to zero mean and
// unit variance, one block of 128 threads per row, as a layer norm does.
//
// The host computes the same normalization and compares the two matrices.
//
// cuda-tidy sample for cuda-launch-configuration (bug form): the launcher
// puts the rows, a product of sizes, on gridDim.y, whose limit is 65535
// blocks (gridDim.x allows 2^31 - 1). With batch 70 and seq 1024 there are
// 71680 rows: the runtime refuses the launch, and the program prints the
// error and exits 1.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CUDA_CHECK(call)                                                     \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n", __FILE__, \
                   __LINE__, #call, cudaGetErrorString(err_));               \
      std::exit(EXIT_FAILURE);                                               \
    }                                                                        \
  } while (0)

namespace {

constexpr int kThreads = 128;

__global__ void normalize_rows(float *x, int rows, int hidden) {
  __shared__ float sums[2][kThreads];
  const int row = blockIdx.y;
  if (row >= rows)
    return;
  float *v = x + (size_t)row * hidden;
  float s = 0.f, s2 = 0.f;
  for (int c = threadIdx.x; c < hidden; c += kThreads) {
    s += v[c];
    s2 += v[c] * v[c];
  }
  sums[0][threadIdx.x] = s;
  sums[1][threadIdx.x] = s2;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      sums[0][threadIdx.x] += sums[0][threadIdx.x + half];
      sums[1][threadIdx.x] += sums[1][threadIdx.x + half];
    }
    __syncthreads();
  }
  const float mean = sums[0][0] / hidden;
  const float var = sums[1][0] / hidden - mean * mean;
  const float inv = rsqrtf(var + 1e-5f);
  for (int c = threadIdx.x; c < hidden; c += kThreads)
    v[c] = (v[c] - mean) * inv;
}

void layer_norm(float *x, int batch, int seq, int hidden) {
  const int rows = batch * seq;
  const dim3 grid(1, rows);
  normalize_rows<<<grid, kThreads>>>(x, rows, hidden);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::fprintf(stderr, "normalize_rows launch rejected: %s\n",
                 cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
  }
}

} // namespace

int main() {
  const int batch = 70, seq = 1024, hidden = 64;
  const size_t n = (size_t)batch * seq * hidden;
  std::vector<float> h(n), want(n);
  for (size_t i = 0; i < n; ++i)
    h[i] = (float)((i * 7919) % 1000) / 100.f;
  for (size_t r = 0; r < (size_t)batch * seq; ++r) {
    double s = 0, s2 = 0;
    for (int c = 0; c < hidden; ++c) {
      s += h[r * hidden + c];
      s2 += (double)h[r * hidden + c] * h[r * hidden + c];
    }
    double mean = s / hidden, inv = 1.0 / std::sqrt(s2 / hidden - mean * mean + 1e-5);
    for (int c = 0; c < hidden; ++c)
      want[r * hidden + c] = (float)((h[r * hidden + c] - mean) * inv);
  }
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  // The batch as the data gives it: n / (seq * hidden) rows of seq.
  layer_norm(d, (int)(h.size() / ((size_t)seq * hidden)), seq, hidden);
  CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d));
  for (size_t i = 0; i < n; ++i)
    if (std::fabs(h[i] - want[i]) > 1e-3f) {
      std::printf("row norms wrong at %zu: %f, expected %f\n", i, h[i], want[i]);
      return 1;
    }
  std::printf("row norms ok\n");
  return 0;
}
