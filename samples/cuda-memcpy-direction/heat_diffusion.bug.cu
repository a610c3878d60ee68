// Explicit heat diffusion on a 1-D rod of 1 Mi cells, 500 time steps.
//
// Two device buffers take turns as the current and the next temperature
// field; the ends are held at fixed temperatures. The host runs the same
// scheme and compares the final fields.
//
// cuda-tidy sample for cuda-memcpy-direction (bug form): the copy back of the
// final field names cudaMemcpyHostToDevice, so cudaMemcpy refuses it.
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

constexpr int kCells = 1 << 20;
constexpr int kSteps = 500;
constexpr float kAlpha = 0.25f;

__global__ void diffuse(const float *cur, float *next, int n, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (i == 0 || i == n - 1) {
    next[i] = cur[i];
    return;
  }
  next[i] = cur[i] + alpha * (cur[i - 1] - 2.f * cur[i] + cur[i + 1]);
}

void diffuse_host(std::vector<float> &cur, std::vector<float> &next) {
  const int n = static_cast<int>(cur.size());
  for (int s = 0; s < kSteps; ++s) {
    next[0] = cur[0];
    next[n - 1] = cur[n - 1];
    for (int i = 1; i < n - 1; ++i)
      next[i] = cur[i] + kAlpha * (cur[i - 1] - 2.f * cur[i] + cur[i + 1]);
    cur.swap(next);
  }
}

} // namespace

int main() {
  const size_t bytes = kCells * sizeof(float);
  std::vector<float> initial(kCells, 20.f);
  initial[0] = 100.f;
  initial[kCells - 1] = 0.f;
  for (int i = kCells / 2 - 512; i < kCells / 2 + 512; ++i)
    initial[i] = 80.f;

  float *cur = nullptr;
  float *next = nullptr;
  CUDA_CHECK(cudaMalloc(&cur, bytes));
  CUDA_CHECK(cudaMalloc(&next, bytes));
  CUDA_CHECK(cudaMemcpy(cur, initial.data(), bytes, cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (kCells + threads - 1) / threads;
  for (int s = 0; s < kSteps; ++s) {
    diffuse<<<blocks, threads>>>(cur, next, kCells, kAlpha);
    CUDA_CHECK(cudaGetLastError());
    float *t = cur;
    cur = next;
    next = t;
  }

  std::vector<float> result(kCells);
  CUDA_CHECK(cudaMemcpy(result.data(), cur, bytes, cudaMemcpyHostToDevice));

  std::vector<float> ref = initial, scratch(kCells);
  diffuse_host(ref, scratch);
  int wrong = 0;
  for (int i = 0; i < kCells; ++i)
    if (std::fabs(result[i] - ref[i]) > 1e-3f)
      ++wrong;

  CUDA_CHECK(cudaFree(cur));
  CUDA_CHECK(cudaFree(next));

  if (wrong) {
    std::printf("FAILED: %d of %d cells wrong\n", wrong, kCells);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %d cells after %d steps\n", kCells, kSteps);
  return EXIT_SUCCESS;
}
