// Computes the backward difference of a signal of 1,000,000 floats,
// out[i] = in[i] - in[i - 1] (out[0] = in[0]), staging each block's 256
// samples in shared memory, and compares it with the host's result.
//
// cuda-tidy sample for cuda-shared-memory-bounds (bug form): the staged
// samples hold no halo, so thread 0 of every block but the first reads its
// left-hand neighbour at s[-1], before the start of the array.
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

constexpr int kSamples = 1000000;
constexpr int kBlock = 256;

__global__ void backwardDiff(float *out, const float *in, int n) {
  __shared__ float s[kBlock];
  int tx = threadIdx.x;
  int i = blockIdx.x * kBlock + tx;
  if (i < n)
    s[tx] = in[i];
  __syncthreads();
  if (i > 0 && i < n)
    out[i] = s[tx] - s[tx - 1];
  else if (i == 0)
    out[0] = s[0];
}

} // namespace

int main() {
  std::vector<float> h_in(kSamples), h_out(kSamples, -1.0f),
      expected(kSamples);
  for (int i = 0; i < kSamples; ++i)
    h_in[i] = float((i * 40503) % 997) * 0.125f;
  expected[0] = h_in[0];
  for (int i = 1; i < kSamples; ++i)
    expected[i] = h_in[i] - h_in[i - 1];

  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, kSamples * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, kSamples * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), kSamples * sizeof(float),
                        cudaMemcpyHostToDevice));

  int blocks = (kSamples + kBlock - 1) / kBlock;
  backwardDiff<<<blocks, kBlock>>>(d_out, d_in, kSamples);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, kSamples * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  int wrong = 0, first = -1;
  for (int i = 0; i < kSamples; ++i)
    if (h_out[i] != expected[i]) {
      if (first < 0)
        first = i;
      ++wrong;
    }
  if (wrong) {
    std::printf("FAILED: %d of %d differences wrong (the first at %d)\n",
                wrong, kSamples, first);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %d differences\n", kSamples);
  return EXIT_SUCCESS;
}
