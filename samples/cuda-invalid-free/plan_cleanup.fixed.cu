// A low-pass filter over 64 signals of 4096 samples each, with cuFFT.
//
// Each signal is transformed forward, its high frequencies are cleared,
// and it is transformed back and scaled by 1/n. The host checks that the
// filtered signals keep their low-frequency tone and lose the high one.
//
// cuda-tidy sample for cuda-invalid-free (fixed form): the plan is
// destroyed once, at the end.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cufft.h>
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

#define CUFFT_CHECK(call)                                                    \
  do {                                                                       \
    cufftResult r_ = (call);                                                 \
    if (r_ != CUFFT_SUCCESS) {                                               \
      std::fprintf(stderr, "FAILED: cuFFT error at %s:%d: %s returned %d\n", \
                   __FILE__, __LINE__, #call, static_cast<int>(r_));         \
      std::exit(EXIT_FAILURE);                                               \
    }                                                                        \
  } while (0)

namespace {

constexpr int kSamples = 4096;
constexpr int kSignals = 64;
constexpr int kKeep = 64; // frequencies kept on each side of zero
constexpr double kPi = 3.14159265358979323846;

} // namespace

// Clears the frequencies above kKeep and scales the rest by 1/n.
__global__ void low_pass(cufftComplex *spec, int n, int signals, int keep) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * signals)
    return;
  int f = i % n;
  bool kept = f <= keep || f >= n - keep;
  float scale = kept ? 1.f / n : 0.f;
  spec[i].x *= scale;
  spec[i].y *= scale;
}

int main() {
  const size_t elems = static_cast<size_t>(kSamples) * kSignals;
  std::vector<cufftComplex> h(elems);
  for (int s = 0; s < kSignals; ++s)
    for (int t = 0; t < kSamples; ++t) {
      double low = std::sin(2 * kPi * 5 * t / kSamples);
      double high = 0.5 * std::sin(2 * kPi * 1000 * t / kSamples);
      h[static_cast<size_t>(s) * kSamples + t].x =
          static_cast<float>((1 + s % 3) * low + high);
      h[static_cast<size_t>(s) * kSamples + t].y = 0.f;
    }

  cufftComplex *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, elems * sizeof(cufftComplex)));
  CUDA_CHECK(cudaMemcpy(d, h.data(), elems * sizeof(cufftComplex),
                        cudaMemcpyHostToDevice));

  cufftHandle plan;
  CUFFT_CHECK(cufftPlan1d(&plan, kSamples, CUFFT_C2C, kSignals));
  CUFFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
  const int threads = 256;
  const int blocks = static_cast<int>((elems + threads - 1) / threads);
  low_pass<<<blocks, threads>>>(d, kSamples, kSignals, kKeep);
  CUDA_CHECK(cudaGetLastError());
  CUFFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_INVERSE));
  CUDA_CHECK(cudaMemcpy(h.data(), d, elems * sizeof(cufftComplex),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d));

  int wrong = 0;
  for (int s = 0; s < kSignals; ++s)
    for (int t = 0; t < kSamples; ++t) {
      double want = (1 + s % 3) * std::sin(2 * kPi * 5 * t / kSamples);
      double got = h[static_cast<size_t>(s) * kSamples + t].x;
      if (std::fabs(got - want) > 1e-3)
        ++wrong;
    }

  CUFFT_CHECK(cufftDestroy(plan));
  if (wrong) {
    std::printf("FAILED: %d of %zu filtered samples wrong\n", wrong, elems);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %d signals filtered\n", kSignals);
  return EXIT_SUCCESS;
}
