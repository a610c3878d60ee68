// Reverses every block-sized segment of an array through shared memory:
// each thread stages one element, then writes the element its mirror
// thread staged.
//
// The bug: there is no barrier between staging and reading, so a thread can
// read its mirror's slot before the mirror thread has written it.
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
__global__ void reverseSegments(const int *in, int *out, int n) {
  __shared__ int staged[kThreads];
  int t = threadIdx.x;
  int base = blockIdx.x * kThreads;
  staged[t] = in[base + t];
  out[base + t] = staged[kThreads - 1 - t];
}

int main() {
  const int n = kSegments * kThreads;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = i * 7 + 3;
  int *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  reverseSegments<<<kSegments, kThreads>>>(d_in, d_out, kSegments * kThreads);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  int wrong = 0;
  for (int s = 0; s < kSegments; ++s)
    for (int t = 0; t < kThreads; ++t)
      if (out[s * kThreads + t] != h[s * kThreads + kThreads - 1 - t])
        ++wrong;
  printf("%d segments of %d, %d elements wrong\n", kSegments, kThreads, wrong);
  if (wrong) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
