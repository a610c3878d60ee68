// Sums every block-sized segment of an array: each warp adds its 32 values
// with shuffles, the leader of each warp (lane 0) stores its warp's sum in
// shared memory, and thread 0 adds the warps' sums after a barrier.
//
// The bug: every leader stores into the same shared scalar, 'total', in
// one barrier interval, so thread 0 reads whichever warp's store landed
// last (a write-write race) instead of the sum of the eight warps.
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
constexpr int kSegments = 1024;

__global__ void segmentSums(const float *in, float *out) {
  __shared__ float total;
  float v = in[blockIdx.x * kThreads + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  int lane = threadIdx.x % 32;
  if (lane == 0)
    total = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = total;
}

int main() {
  const int n = kSegments * kThreads;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = float(i % 7);
  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, kSegments * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float),
                        cudaMemcpyHostToDevice));
  segmentSums<<<kSegments, kThreads>>>(d_in, d_out);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> out(kSegments);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, kSegments * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  int wrong = 0;
  for (int b = 0; b < kSegments; ++b) {
    float want = 0.0f;
    for (int t = 0; t < kThreads; ++t)
      want += h[b * kThreads + t];
    if (out[b] != want)
      ++wrong;
  }
  printf("%d segments of %d, %d sums wrong\n", kSegments, kThreads, wrong);
  if (wrong) {
    printf("FAILED\n");
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
