// Numerical integration as a reduction, overlapped with host work.
//
// The GPU integrates 4 / (1 + x^2) over [0, 1] (that is, pi) with the
// midpoint rule on 2^35 intervals: each thread sums its share in registers,
// each block reduces its threads' sums and writes one partial sum into mapped
// (zero-copy) host memory. Meanwhile the host computes a coarser reference a
// slice at a time and polls an event between slices. Once the event has
// fired it adds up the partial sums and compares.
//
// cuda-tidy sample for cuda-unchecked-api-call (bug form): inside the polling
// loop `cudaError_t status = cudaEventQuery(done);` declares a new variable
// that shadows the loop's `status`. The query's answer is stored and dies
// unread, the loop condition sees the outer cudaSuccess, and the host adds up
// the partial sums before the kernel has written them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

constexpr long long kIntervals = 1ll << 35;     // on the GPU
constexpr long long kHostIntervals = 1ll << 26; // for the host reference
constexpr long long kHostSlice = 1ll << 18;     // host work between polls
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__host__ __device__ double integrand(double x) { return 4.0 / (1.0 + x * x); }

__device__ double warp_sum(double v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// One partial sum per block: a grid-stride loop into registers, a shuffle
// reduction inside each warp, then the first warp reduces the warp sums.
__global__ void midpoint_partials(double *partial, long long n) {
  __shared__ double warp_sums[kWarps];
  const double h = 1.0 / double(n);
  const long long stride = (long long)gridDim.x * blockDim.x;
  double v = 0.0;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    v += integrand((double(i) + 0.5) * h);
  v = warp_sum(v);
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (lane == 0)
    warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < kWarps ? warp_sums[lane] : 0.0;
    v = warp_sum(v);
    if (lane == 0)
      partial[blockIdx.x] = v * h;
  }
}

} // namespace

int main() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                                    device));
  const int blocks = 8 * sms;

  double *partial = nullptr, *d_partial = nullptr;
  CUDA_CHECK(cudaHostAlloc(&partial, blocks * sizeof(double),
                           cudaHostAllocMapped));
  std::memset(partial, 0, blocks * sizeof(double));
  CUDA_CHECK(cudaHostGetDevicePointer(&d_partial, partial, 0));

  cudaStream_t stream;
  cudaEvent_t done;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));

  midpoint_partials<<<blocks, kThreads, 0, stream>>>(d_partial, kIntervals);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(done, stream));

  // Build the reference a slice at a time while the GPU works, and poll the
  // event between slices.
  const double host_h = 1.0 / double(kHostIntervals);
  double reference = 0.0;
  long long next = 0;
  cudaError_t status = cudaSuccess;
  do {
    const long long end = std::min(kHostIntervals, next + kHostSlice);
    for (; next < end; ++next)
      reference += integrand((double(next) + 0.5) * host_h);
    cudaError_t status = cudaEventQuery(done);
  } while (status == cudaErrorNotReady);
  CUDA_CHECK(status);

  // The GPU is done: add up its partial sums, then finish the reference.
  double gpu = 0.0;
  for (int b = 0; b < blocks; ++b)
    gpu += partial[b];
  for (; next < kHostIntervals; ++next)
    reference += integrand((double(next) + 0.5) * host_h);
  reference *= host_h;

  const double rel_err = std::fabs(gpu - reference) / reference;
  CUDA_CHECK(cudaEventDestroy(done));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFreeHost(partial));
  if (!(rel_err < 1e-9)) {
    std::fprintf(stderr,
                 "FAILED: GPU integral %.12f, reference %.12f (relative "
                 "error %.3g)\n",
                 gpu, reference, rel_err);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: integral %.12f over %lld intervals (pi to %.3g)\n", gpu,
              kIntervals, std::fabs(gpu - M_PI) / M_PI);
  return EXIT_SUCCESS;
}
