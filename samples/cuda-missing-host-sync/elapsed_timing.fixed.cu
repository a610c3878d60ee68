// Times a kernel with events and reports its bandwidth.
//
// A SAXPY-like kernel runs a few times over 64 MiB between two events on a
// stream; the host reads the elapsed time and prints the bandwidth.
//
// cuda-tidy sample for cuda-missing-host-sync (fixed form): the host waits
// for the stop event with cudaEventSynchronize before it reads the elapsed
// time.
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

constexpr int kN = 1 << 24;
constexpr int kRepeats = 20;

__global__ void axpy(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

} // namespace

int main() {
  float *x = nullptr, *y = nullptr;
  CUDA_CHECK(cudaMalloc(&x, kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&y, kN * sizeof(float)));
  CUDA_CHECK(cudaMemset(x, 0, kN * sizeof(float)));
  CUDA_CHECK(cudaMemset(y, 0, kN * sizeof(float)));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  CUDA_CHECK(cudaEventRecord(start, stream));
  for (int r = 0; r < kRepeats; ++r)
    axpy<<<1024, 256, 0, stream>>>(2.0f, x, y, kN);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventSynchronize(stop));

  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  const double bytes = 3.0 * sizeof(float) * double(kN) * kRepeats;
  std::printf("%d launches in %.3f ms: %.1f GB/s\n", kRepeats, ms,
              bytes / (ms * 1e6));

  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(x));
  CUDA_CHECK(cudaFree(y));
  return EXIT_SUCCESS;
}
