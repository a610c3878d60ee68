// Sample program mixed_precision_axpy (bug form), from samples/cuda-memcpy-size/mixed_precision_axpy.bug.cu.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t
// y = a * x + y on 4 Mi elements in single precision on the GPU.
//
// The input comes from the host in double precision (as a simulation would
// produce it) and is narrowed to a float staging vector before the upload.
// The host computes the same update in float and compares.
//
// cuda-tidy sample for cuda-memcpy-size (bug form): the upload copies the
// double vector, n * sizeof(double) bytes, twice what d_x holds.
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

constexpr size_t kN = size_t(1) << 22;

__global__ void axpy(float a, const float *x, float *y, size_t n) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

} // namespace

int main() {
  const size_t n = kN;
  const float a = 0.75f;
  std::vector<double> x64(n);
  std::vector<float> x32(n), y(n), ref(n);
  for (size_t i = 0; i < n; ++i) {
    x64[i] = std::sin(0.001 * static_cast<double>(i));
    x32[i] = static_cast<float>(x64[i]);
    y[i] = static_cast<float>(i % 1000) * 0.001f;
    ref[i] = a * x32[i] + y[i];
  }

  float *d_x = nullptr;
  float *d_y = nullptr;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, x64.data(), n * sizeof(double), cudaMemcpyHostToDevice));
// CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaMemcpy' copies 'n * sizeof(double)' bytes, more than the 'n * sizeof(float)' bytes of 'd_x' [cuda-memcpy-size]
  CUDA_CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const int threads = 256;
  const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
  axpy<<<blocks, threads>>>(a, d_x, d_y, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));

  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    if (std::fabs(y[i] - ref[i]) > 1e-5f)
      ++wrong;

  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));

  if (wrong) {
    std::printf("FAILED: %zu of %zu elements wrong\n", wrong, n);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %zu elements\n", n);
  return EXIT_SUCCESS;
}
