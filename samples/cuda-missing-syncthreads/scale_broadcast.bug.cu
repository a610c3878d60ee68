// Normalizes every block-sized segment of an array by its first element:
// thread 0 reads the segment's scale into a shared variable, and every
// thread divides its element by it.
//
// The bug: there is no barrier between thread 0's store of the shared
// scale and the other threads' reads of it, so a thread can divide by the
// scale of the block's previous use of that shared memory (or garbage).
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

constexpr int kThreads = 256;
constexpr int kSegments = 4096;

// n is a whole number of segments: every launch covers it exactly.
__global__ void normalizeSegments(const float *in, float *out, int n) {
  __shared__ float scale;
  int base = blockIdx.x * kThreads;
  if (threadIdx.x == 0)
    scale = in[base];
  out[base + threadIdx.x] = in[base + threadIdx.x] / scale;
}

int main() {
  const int n = kSegments * kThreads;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = float(1 + i % 97) * (i % kThreads == 0 ? 4.0f : 1.0f);
  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float),
                        cudaMemcpyHostToDevice));
  normalizeSegments<<<kSegments, kThreads>>>(d_in, d_out, n);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    float want = h[i] / h[i - i % kThreads];
    if (out[i] != want)
      ++wrong;
  }
  printf("%d segments of %d, %d elements wrong\n", kSegments, kThreads, wrong);
  if (wrong) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
