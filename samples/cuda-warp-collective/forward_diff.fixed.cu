// Forward differences of a sampled signal (the discrete derivative that a
// trend detector thresholds), one output per thread: each lane takes the
// next sample from the lane beside it with a warp shuffle, and the last
// lane of each warp (31) loads the sample beyond the warp from global
// memory. The host checks every output.
//
// The fix: every lane executes the full-mask shuffle; lane 31 then replaces
// the value it got (its own lane's, past the end) with the sample from memory.
#include <cmath>
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

#define FULL_MASK 0xffffffffu

constexpr int kSamples = 1 << 20;
constexpr int kThreads = 256;

__global__ void forwardDiff(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  float here = i < n ? in[i] : 0.0f;
  float next = __shfl_down_sync(FULL_MASK, here, 1);
  if (lane == 31) {
    // The next sample belongs to the next warp: read it from memory.
    next = i + 1 < n ? in[i + 1] : here;
  }
  if (i + 1 < n)
    out[i] = next - here;
  else if (i < n)
    out[i] = 0.0f;
}

// A slow wave plus a sawtooth, so that neighbouring samples always differ.
static float sample(int i) {
  return std::sin(0.001f * (float)i) + 0.1f * (float)(i % 17);
}

int main() {
  std::vector<float> signal(kSamples);
  for (int i = 0; i < kSamples; ++i)
    signal[i] = sample(i);

  float *d_in = nullptr;
  float *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, kSamples * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, kSamples * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, signal.data(), kSamples * sizeof(float),
                        cudaMemcpyHostToDevice));

  const int blocks = (kSamples + kThreads - 1) / kThreads;
  forwardDiff<<<blocks, kThreads>>>(d_in, d_out, kSamples);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> diffs(kSamples);
  CUDA_CHECK(cudaMemcpy(diffs.data(), d_out, kSamples * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  int wrong = 0;
  int first = -1;
  for (int i = 0; i < kSamples; ++i) {
    float want = i + 1 < kSamples ? signal[i + 1] - signal[i] : 0.0f;
    if (std::fabs(diffs[i] - want) > 1e-5f) {
      if (first < 0)
        first = i;
      ++wrong;
    }
  }
  if (wrong) {
    printf("FAILED: %d of %d differences wrong (the first at sample %d)\n",
           wrong, kSamples, first);
    return EXIT_FAILURE;
  }
  printf("PASSED: %d differences\n", kSamples);
  return EXIT_SUCCESS;
}
