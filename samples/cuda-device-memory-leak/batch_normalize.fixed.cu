// Normalizes batches of sensor readings to zero mean and unit variance on
// the GPU. A batch whose readings are all equal cannot be normalized; the
// function reports it and returns early.
//
// The fix: the early return frees the output buffer.
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

constexpr int kBatch = 1 << 16;
constexpr int kBatches = 8;
constexpr int kThreads = 256;

__global__ void normalize(const float *in, float *out, int n, float mean,
                          float inv_std) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = (in[i] - mean) * inv_std;
}

// Returns false when the batch has no spread and cannot be normalized.
bool normalizeBatch(const std::vector<float> &batch, std::vector<float> &out) {
  const int n = static_cast<int>(batch.size());
  double sum = 0.0, sq = 0.0;
  for (float v : batch) {
    sum += v;
    sq += static_cast<double>(v) * v;
  }
  const double mean = sum / n;
  const double var = sq / n - mean * mean;

  // The output buffer doubles as the result of a degenerate batch.
  float *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  if (var < 1e-12) {
    fprintf(stderr, "batch has zero variance, skipped\n");
    CUDA_CHECK(cudaFree(d_out));
    return false;
  }
  float *d_in = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, batch.data(), n * sizeof(float),
                        cudaMemcpyHostToDevice));
  const int blocks = (n + kThreads - 1) / kThreads;
  normalize<<<blocks, kThreads>>>(d_in, d_out, n, static_cast<float>(mean),
                                  static_cast<float>(1.0 / std::sqrt(var)));
  CUDA_CHECK(cudaGetLastError());
  out.resize(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return true;
}

int main() {
  int failures = 0, skipped = 0;
  for (int b = 0; b < kBatches; ++b) {
    std::vector<float> batch(kBatch);
    const bool degenerate = (b % 3 == 2);
    for (int i = 0; i < kBatch; ++i)
      batch[i] = degenerate ? 5.0f : static_cast<float>((i * 37 + b) % 101);
    std::vector<float> out;
    if (!normalizeBatch(batch, out)) {
      ++skipped;
      failures += !degenerate;
      continue;
    }
    double mean = 0.0, var = 0.0;
    for (float v : out)
      mean += v;
    mean /= kBatch;
    for (float v : out)
      var += (v - mean) * (v - mean);
    var /= kBatch;
    if (std::fabs(mean) > 1e-3 || std::fabs(var - 1.0) > 1e-2) {
      fprintf(stderr, "batch %d: mean %f variance %f\n", b, mean, var);
      ++failures;
    }
  }
  printf("%d batches, %d skipped, %d wrong\n", kBatches, skipped, failures);
  if (failures) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
