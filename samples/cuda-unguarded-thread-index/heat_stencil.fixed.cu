// Explicit 1-D heat equation on a rod of 1,048,579 points whose ends are held
// at fixed temperatures: 200 time steps of the three-point stencil on the
// GPU, ping-ponging between two buffers, checked against the same steps on
// the host.
//
// One thread per point, on a grid rounded up to whole blocks of 256 threads.
// The threads past the end of the rod return at once; the two end points
// copy their value; every other point reads its left and right neighbours.
//
// cuda-tidy sample for cuda-unguarded-thread-index (fixed form): both end
// points keep their value, so no thread reads past either end of the rod.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <utility>
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

constexpr int kPoints = (1 << 20) + 3;
constexpr int kSteps = 200;
constexpr int kThreads = 256;
constexpr float kAlpha = 0.25f; // diffusion number, stable below 0.5

__global__ void heatStep(float *next, const float *cur, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (i == 0 || i >= n - 1) {
    next[i] = cur[i];
    return;
  }
  next[i] = cur[i] + alpha * (cur[i - 1] - 2.0f * cur[i] + cur[i + 1]);
}

void heatStepHost(std::vector<float> &next, const std::vector<float> &cur,
                  float alpha) {
  const int n = (int)cur.size();
  next[0] = cur[0];
  next[n - 1] = cur[n - 1];
  for (int i = 1; i < n - 1; ++i)
    next[i] = cur[i] + alpha * (cur[i - 1] - 2.0f * cur[i] + cur[i + 1]);
}

} // namespace

int main() {
  // A cold rod with a hot left end and a warm right end, and a hot spot in
  // the middle.
  std::vector<float> rod(kPoints, 0.0f);
  rod[0] = 100.0f;
  rod[kPoints - 1] = 50.0f;
  for (int i = kPoints / 2 - 100; i < kPoints / 2 + 100; ++i)
    rod[i] = 80.0f;

  const size_t bytes = size_t(kPoints) * sizeof(float);
  float *d_a = nullptr, *d_b = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, bytes));
  CUDA_CHECK(cudaMalloc(&d_b, bytes));
  CUDA_CHECK(cudaMemcpy(d_a, rod.data(), bytes, cudaMemcpyHostToDevice));

  const int blocks = (kPoints + kThreads - 1) / kThreads;
  for (int step = 0; step < kSteps; ++step) {
    heatStep<<<blocks, kThreads>>>(d_b, d_a, kAlpha, kPoints);
    CUDA_CHECK(cudaGetLastError());
    std::swap(d_a, d_b);
  }
  std::vector<float> gpu(kPoints);
  CUDA_CHECK(cudaMemcpy(gpu.data(), d_a, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));

  std::vector<float> cur = rod, next(kPoints);
  for (int step = 0; step < kSteps; ++step) {
    heatStepHost(next, cur, kAlpha);
    std::swap(cur, next);
  }

  int wrong = 0, first = -1;
  for (int i = 0; i < kPoints; ++i)
    if (std::fabs(gpu[i] - cur[i]) > 1e-3f * (1.0f + std::fabs(cur[i])) &&
        wrong++ == 0)
      first = i;
  if (wrong != 0) {
    std::fprintf(stderr,
                 "FAILED: %d of %d temperatures wrong (first at %d: got %f, "
                 "expected %f)\n",
                 wrong, kPoints, first, gpu[first], cur[first]);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %d steps on %d points, T(mid) = %f\n", kSteps, kPoints,
              gpu[kPoints / 2]);
  return EXIT_SUCCESS;
}
