// Shifts a signal of 1,000,000 floats one place to the right, out[i] =
// in[i - 1] (out[0] = 0), staging each block's samples in shared memory
// after a one-element halo, with the block size chosen at run time from
// 128 and 256 (a switch over the size, each case launching the kernel
// specialized for it), and compares the result with the host's.
//
// cuda-tidy sample for cuda-shared-memory-bounds (bug form): the staging
// tile has BLOCK elements but the samples are stored one place in, after
// the halo, by a helper: the block's last thread writes tile[BLOCK], one
// past the array.
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

// Stores in[at] (0 outside the signal) at slot of the staging tile.
__device__ void stage(float *tile, int slot, const float *in, int at, int n) {
  tile[slot] = at >= 0 && at < n ? in[at] : 0.0f;
}

template <int BLOCK>
__global__ void shiftRight(float *out, const float *in, int n) {
  __shared__ float tile[BLOCK];
  int tx = threadIdx.x;
  int i = blockIdx.x * BLOCK + tx;
  stage(tile, tx + 1, in, i, n);
  if (tx == 0)
    stage(tile, 0, in, i - 1, n);
  __syncthreads();
  if (i < n)
    out[i] = tile[tx];
}

void launchShift(float *out, const float *in, int n, int threads) {
  switch (threads) {
  case 128:
    shiftRight<128><<<(n + 127) / 128, threads>>>(out, in, n);
    break;
  case 256:
    shiftRight<256><<<(n + 255) / 256, threads>>>(out, in, n);
    break;
  default:
    std::fprintf(stderr, "unsupported block size %d\n", threads);
    std::exit(EXIT_FAILURE);
  }
  CUDA_CHECK(cudaGetLastError());
}

} // namespace

int main(int argc, char **argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 256;
  std::vector<float> h_in(kSamples), h_out(kSamples, -1.0f),
      expected(kSamples);
  for (int i = 0; i < kSamples; ++i)
    h_in[i] = float((i * 40503) % 997) * 0.125f;
  expected[0] = 0.0f;
  for (int i = 1; i < kSamples; ++i)
    expected[i] = h_in[i - 1];

  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, kSamples * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, kSamples * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), kSamples * sizeof(float),
                        cudaMemcpyHostToDevice));

  launchShift(d_out, d_in, kSamples, threads);
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
    std::printf("FAILED: %d of %d shifted samples wrong (the first at %d)\n",
                wrong, kSamples, first);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %d shifted samples\n", kSamples);
  return EXIT_SUCCESS;
}
