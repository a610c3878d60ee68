// Dot product of two vectors of 8 Mi doubles, reduced in two passes.
//
// Pass one gives every block a tile of kTile = 2048 consecutive products:
// the block sums its tile in shared memory with a tree reduction and writes
// one partial sum. Pass two adds the partial sums on the host, which checks
// the result against a host dot product.
//
// cuda-tidy sample for cuda-launch-configuration (fixed form): a block holds
// at most 1024 threads. Each of the kTile / 2 threads adds two products of
// the tile before the tree reduction, so a 2048-element tile needs 1024
// threads.
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

constexpr int kN = 1 << 23;
constexpr int kTile = 2048;
constexpr int kThreadsPerBlock = kTile / 2;
constexpr int kBlocks = kN / kTile;

__global__ void dot_partial(double *partial, const double *x,
                            const double *y) {
  __shared__ double sums[kThreadsPerBlock];
  const int t = threadIdx.x;
  const int base = blockIdx.x * kTile;
  sums[t] = x[base + t] * y[base + t] +
            x[base + t + kThreadsPerBlock] * y[base + t + kThreadsPerBlock];
  __syncthreads();
  for (int half = kThreadsPerBlock / 2; half > 0; half /= 2) {
    if (t < half)
      sums[t] += sums[t + half];
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.x] = sums[0];
}

} // namespace

int main() {
  static_assert(kN % kTile == 0, "the tiles cover the vectors exactly");
  std::vector<double> x(kN), y(kN), partial(kBlocks);
  for (int i = 0; i < kN; ++i) {
    x[i] = std::sin(0.001 * i);
    y[i] = std::cos(0.002 * i);
  }

  double *d_x = nullptr, *d_y = nullptr, *d_partial = nullptr;
  CUDA_CHECK(cudaMalloc(&d_x, kN * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_y, kN * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_partial, kBlocks * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), kN * sizeof(double),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, y.data(), kN * sizeof(double),
                        cudaMemcpyHostToDevice));

  dot_partial<<<kBlocks, kThreadsPerBlock>>>(d_partial, d_x, d_y);
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess) {
    std::fprintf(stderr, "dot_partial launch rejected: %s\n",
                 cudaGetErrorString(launch));
    std::exit(EXIT_FAILURE);
  }
  CUDA_CHECK(cudaMemcpy(partial.data(), d_partial, kBlocks * sizeof(double),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_partial));

  double gpu = 0.0, host = 0.0;
  for (int b = 0; b < kBlocks; ++b)
    gpu += partial[b];
  for (int i = 0; i < kN; ++i)
    host += x[i] * y[i];
  if (std::fabs(gpu - host) > 1e-6 * (1.0 + std::fabs(host))) {
    std::fprintf(stderr, "FAILED: dot product %.10f, expected %.10f\n", gpu,
                 host);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: dot product of %d elements = %.6f\n", kN, gpu);
  return EXIT_SUCCESS;
}
