// Rotates every block-sized ring of an array by one place: each thread
// stages its element in shared memory, then takes the element of its right
// neighbour, the last thread wrapping around to the first.
//
// The fix: a barrier between staging and reading.
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
constexpr int kRings = 4096;

// n is a whole number of rings: every launch covers it exactly.
__global__ void rotateRings(const int *in, int *out, int n) {
  __shared__ int ring[kThreads];
  int t = threadIdx.x;
  int base = blockIdx.x * kThreads;
  ring[t] = in[base + t];
  __syncthreads();
  out[base + t] = ring[(t + 1) % kThreads];
}

int main() {
  const int n = kRings * kThreads;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = i * 5 + 1;
  int *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  rotateRings<<<kRings, kThreads>>>(d_in, d_out, kRings * kThreads);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  int wrong = 0;
  for (int r = 0; r < kRings; ++r)
    for (int t = 0; t < kThreads; ++t)
      if (out[r * kThreads + t] != h[r * kThreads + (t + 1) % kThreads])
        ++wrong;
  printf("%d rings of %d, %d elements wrong\n", kRings, kThreads, wrong);
  if (wrong) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
