// Scores in managed memory, read by the host after the kernel that writes
// them.
//
// Each thread scores one item by iterating an integer hash (enough work that
// the kernel runs for a few milliseconds, and the same result on the host) and writes the score into a
// managed array. The host then counts the items whose score passes a
// threshold and compares the count with a host computation.
//
// cuda-tidy sample for cuda-missing-host-sync (bug form): the host reads the
// managed array right after the launch. Nothing waits for the kernel, so
// the host sees the scores as they were before it ran (zero), and the count
// is wrong.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

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

constexpr int kItems = 1 << 16;
constexpr int kSteps = 20000;

__host__ __device__ float score_of(int item) {
  unsigned x = 2654435761u * unsigned(item % 997 + 1);
  for (int s = 0; s < kSteps; ++s) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  return float(x >> 8) / float(1u << 24);
}

__global__ void score_items(float *scores, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    scores[i] = score_of(i);
}

} // namespace

int main() {
  float *scores = nullptr;
  CUDA_CHECK(cudaMallocManaged(&scores, kItems * sizeof(float)));
  for (int i = 0; i < kItems; ++i)
    scores[i] = 0.0f;

  score_items<<<(kItems + 255) / 256, 256>>>(scores, kItems);
  CUDA_CHECK(cudaGetLastError());

  int passing = 0;
  for (int i = 0; i < kItems; ++i)
    passing += scores[i] > 0.5f;

  int expected = 0;
  for (int i = 0; i < 997; ++i)
    expected += (score_of(i) > 0.5f) * (kItems / 997 + (i < kItems % 997));

  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(scores));
  if (std::abs(passing - expected) > kItems / 100) {
    std::printf("wrong result: %d of %d items pass, expected %d\n", passing,
                kItems, expected);
    return EXIT_FAILURE;
  }
  std::printf("%d of %d items pass (expected %d)\n", passing, kItems, expected);
  return EXIT_SUCCESS;
}
