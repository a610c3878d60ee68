// Smooths an array several times with a three-point average, one tile of
// the array per block in shared memory. A thread past the end of the array
// sets no 'active' flag and keeps a zero in its slot.
//
// The fix: every thread waits at the barrier after the tile store; only
// the averaging is under 'if (active)'.
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
constexpr int kPasses = 4;
constexpr int kN = 1000 * kThreads + 100; // the last block is partial

__global__ void smooth(const float *in, float *out, int n) {
  __shared__ float tile[kThreads];
  int t = threadIdx.x;
  int i = blockIdx.x * kThreads + t;
  bool active = false;
  if (i < n)
    active = true;
  float v = active ? in[i] : 0.0f;
  for (int pass = 0; pass < kPasses; ++pass) {
    tile[t] = v;
    __syncthreads();
    if (active) {
      float left = t > 0 ? tile[t - 1] : tile[t];
      float right = t < kThreads - 1 ? tile[t + 1] : tile[t];
      v = (left + tile[t] + right) / 3.0f;
    }
    __syncthreads();
  }
  if (active)
    out[i] = v;
}

int main() {
  std::vector<float> h(kN);
  for (int i = 0; i < kN; ++i)
    h[i] = float(i % 11);
  const int blocks = (kN + kThreads - 1) / kThreads;
  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, kN * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), kN * sizeof(float),
                        cudaMemcpyHostToDevice));
  smooth<<<blocks, kThreads>>>(d_in, d_out, kN);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> out(kN);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, kN * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  // The same passes on the host, tile by tile.
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    std::vector<float> v(kThreads, 0.0f), next(kThreads);
    for (int t = 0; t < kThreads; ++t)
      if (b * kThreads + t < kN)
        v[t] = h[b * kThreads + t];
    for (int pass = 0; pass < kPasses; ++pass) {
      for (int t = 0; t < kThreads; ++t) {
        bool active = b * kThreads + t < kN;
        float left = t > 0 ? v[t - 1] : v[t];
        float right = t < kThreads - 1 ? v[t + 1] : v[t];
        next[t] = active ? (left + v[t] + right) / 3.0f : v[t];
      }
      v = next;
    }
    for (int t = 0; t < kThreads && b * kThreads + t < kN; ++t)
      if (out[b * kThreads + t] != v[t])
        ++wrong;
  }
  printf("%d values, %d wrong\n", kN, wrong);
  if (wrong) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
