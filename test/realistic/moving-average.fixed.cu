// Sample program moving_average (fixed form), from samples/cuda-memcpy-size/moving_average.fixed.cu.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t
// Moving average over a window of 64 samples of a 2 Mi-sample signal.
//
// Each thread averages the window that ends at its sample (shorter at the
// start). The host computes the same averages with a running sum and
// compares.
//
// cuda-tidy sample for cuda-memcpy-size (fixed form): the upload copies
// n * sizeof(float) bytes.
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

constexpr int kWindow = 64;

__global__ void moving_average(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int first = i - kWindow + 1 < 0 ? 0 : i - kWindow + 1;
  float sum = 0.f;
  for (int j = first; j <= i; ++j)
    sum += in[j];
  out[i] = sum / static_cast<float>(i - first + 1);
}

} // namespace

int main() {
  const int n = 1 << 21;
  float *signal = static_cast<float *>(std::malloc(n * sizeof(float)));
  float *averages = static_cast<float *>(std::malloc(n * sizeof(float)));
  if (!signal || !averages) {
    std::fprintf(stderr, "out of host memory\n");
    return EXIT_FAILURE;
  }
  for (int i = 0; i < n; ++i)
    signal[i] = 1.0f + 0.5f * std::sin(0.01f * i) + 0.01f * (i % 7);

  float *d_signal = nullptr;
  float *d_avg = nullptr;
  CUDA_CHECK(cudaMalloc(&d_signal, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_avg, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_signal, 0, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_signal, signal, n * sizeof(float), cudaMemcpyHostToDevice));

  const int threads = 256;
  moving_average<<<(n + threads - 1) / threads, threads>>>(d_signal, d_avg, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(averages, d_avg, n * sizeof(float), cudaMemcpyDeviceToHost));

  int wrong = 0;
  double running = 0.0;
  for (int i = 0; i < n; ++i) {
    running += signal[i];
    if (i >= kWindow)
      running -= signal[i - kWindow];
    int count = i + 1 < kWindow ? i + 1 : kWindow;
    double ref = running / count;
    if (std::fabs(averages[i] - ref) > 1e-4 * std::fabs(ref) + 1e-5)
      ++wrong;
  }

  CUDA_CHECK(cudaFree(d_signal));
  CUDA_CHECK(cudaFree(d_avg));
  std::free(signal);
  std::free(averages);

  if (wrong) {
    std::printf("FAILED: %d of %d averages wrong\n", wrong, n);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %d averages\n", n);
  return EXIT_SUCCESS;
}
