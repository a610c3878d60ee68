// Tabulates a degree-7 polynomial (a truncated Taylor series of sin) at
// 1,000,037 evenly spaced points of [0, pi/2], with Horner's rule on the GPU,
// and compares the table with a host evaluation of the same polynomial.
//
// One thread per point, on a grid rounded up to whole blocks of 256 threads:
// the last block has threads past the end of the table.
//
// cuda-tidy sample for cuda-unguarded-thread-index (bug form): the kernel has
// no bounds guard, so the 155 threads of the last block past the end of the
// table write past the end of the allocation.
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

constexpr int kPoints = 1000037;
constexpr int kDegree = 7;
constexpr int kThreads = 256;

// sin(x) ~ x - x^3/3! + x^5/5! - x^7/7!, lowest power first.
__constant__ float c_coeffs[kDegree + 1];

const float kCoeffs[kDegree + 1] = {0.0f, 1.0f, 0.0f, -1.0f / 6.0f,
                                    0.0f, 1.0f / 120.0f, 0.0f,
                                    -1.0f / 5040.0f};

__host__ __device__ float horner(const float *c, float x) {
  float acc = c[kDegree];
  for (int k = kDegree - 1; k >= 0; --k)
    acc = acc * x + c[k];
  return acc;
}

__global__ void tabulate(float *table, float x0, float step, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = x0 + step * i;
  table[i] = horner(c_coeffs, x);
}

// Owner of a device buffer; releases it on scope exit.
struct DeviceBuffer {
  float *ptr = nullptr;
  explicit DeviceBuffer(size_t n) {
    CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(float)));
  }
  ~DeviceBuffer() { CUDA_CHECK(cudaFree(ptr)); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

} // namespace

int main() {
  const float x0 = 0.0f;
  const float step = 1.57079632679f / (kPoints - 1);
  CUDA_CHECK(cudaMemcpyToSymbol(c_coeffs, kCoeffs, sizeof(kCoeffs)));

  std::vector<float> table(kPoints);
  {
    DeviceBuffer d_table(kPoints);
    const int blocks = (kPoints + kThreads - 1) / kThreads;
    tabulate<<<blocks, kThreads>>>(d_table.ptr, x0, step, kPoints);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(table.data(), d_table.ptr, kPoints * sizeof(float),
                          cudaMemcpyDeviceToHost));
  }

  int wrong = 0;
  double worst = 0.0;
  for (int i = 0; i < kPoints; ++i) {
    const float want = horner(kCoeffs, x0 + step * i);
    const double err = std::fabs(double(table[i]) - double(want));
    if (err > worst)
      worst = err;
    if (err > 1e-5)
      ++wrong;
  }
  if (wrong != 0) {
    std::fprintf(stderr, "FAILED: %d of %d values wrong (worst error %g)\n",
                 wrong, kPoints, worst);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %d values, worst error %g, sin(pi/2) ~ %f\n", kPoints,
              worst, table[kPoints - 1]);
  return EXIT_SUCCESS;
}
