// Histogram of 16 Mi keys into 16384 bins, privatized in shared memory.
//
// Each block counts into its own copy of the histogram in dynamic shared
// memory (16384 counters, 64 KiB) and adds it to the global histogram at the
// end. The host counts a reference histogram while the GPU works, then polls
// an event and compares the two.
//
// cuda-tidy sample for cuda-unchecked-kernel-launch (fixed form): the launch
// error is examined right after the launch. Examining it alone would turn the
// silent wrong answer into a loud failure; to run clean the launch must also
// stop failing, so the fixed form opts in to 64 KiB of dynamic shared memory.
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

constexpr size_t kN = size_t(1) << 24; // keys
constexpr int kBins = 16384;
constexpr int kThreads = 512;

// Owners of device and pinned host memory; they release it on scope exit.
template <typename T> struct DeviceArray {
  T *ptr = nullptr;
  explicit DeviceArray(size_t n) {
    CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(T)));
  }
  ~DeviceArray() { cudaFree(ptr); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
};

template <typename T> struct PinnedArray {
  T *ptr = nullptr;
  explicit PinnedArray(size_t n) {
    CUDA_CHECK(cudaMallocHost(&ptr, n * sizeof(T)));
  }
  ~PinnedArray() { cudaFreeHost(ptr); }
  PinnedArray(const PinnedArray &) = delete;
  PinnedArray &operator=(const PinnedArray &) = delete;
};

__global__ void histogram_shared(unsigned *hist, const unsigned *keys,
                                 size_t n, int bins) {
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    atomicAdd(&local[keys[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    if (local[b] != 0)
      atomicAdd(&hist[b], local[b]);
}

// Skewed keys: low bins are hit more often than high ones.
unsigned make_key(size_t i) {
  const unsigned h = unsigned(i) * 2654435761u;
  return (h >> 8) % ((h & 1u) ? unsigned(kBins) : unsigned(kBins / 16));
}

} // namespace

int main() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                                    device));

  PinnedArray<unsigned> h_keys(kN), h_hist(kBins);
  for (size_t i = 0; i < kN; ++i)
    h_keys.ptr[i] = make_key(i);
  std::memset(h_hist.ptr, 0, kBins * sizeof(unsigned));
  DeviceArray<unsigned> d_keys(kN), d_hist(kBins);

  cudaStream_t stream;
  cudaEvent_t done;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));

  const size_t shared_bytes = kBins * sizeof(unsigned);
  CUDA_CHECK(cudaFuncSetAttribute(histogram_shared,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  int(shared_bytes)));
  CUDA_CHECK(cudaMemcpyAsync(d_keys.ptr, h_keys.ptr, kN * sizeof(unsigned),
                             cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemsetAsync(d_hist.ptr, 0, kBins * sizeof(unsigned), stream));
  histogram_shared<<<2 * sms, kThreads, shared_bytes, stream>>>(
      d_hist.ptr, d_keys.ptr, kN, kBins);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(h_hist.ptr, d_hist.ptr, kBins * sizeof(unsigned),
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaEventRecord(done, stream));

  // Count the reference on the host while the GPU works.
  std::vector<unsigned> reference(kBins, 0);
  for (size_t i = 0; i < kN; ++i)
    ++reference[h_keys.ptr[i]];

  cudaError_t status;
  while ((status = cudaEventQuery(done)) == cudaErrorNotReady) {
  }
  CUDA_CHECK(status);

  int wrong = 0, first_wrong = -1;
  for (int b = 0; b < kBins; ++b) {
    if (h_hist.ptr[b] != reference[b] && wrong++ == 0)
      first_wrong = b;
  }
  CUDA_CHECK(cudaEventDestroy(done));
  CUDA_CHECK(cudaStreamDestroy(stream));
  if (wrong != 0) {
    std::fprintf(stderr,
                 "FAILED: %d of %d bins wrong (first: bin %d counted %u, "
                 "expected %u)\n",
                 wrong, kBins, first_wrong, h_hist.ptr[first_wrong],
                 reference[first_wrong]);
    return EXIT_FAILURE;
  }
  std::printf("PASSED: %zu keys into %d bins\n", kN, kBins);
  return EXIT_SUCCESS;
}
