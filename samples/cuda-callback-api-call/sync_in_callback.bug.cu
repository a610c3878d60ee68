// Sums 4 segments of 1 Mi integers on one stream, each segment reduced by
// a kernel into pinned host memory. A host function enqueued behind each
// segment adds the segment's sum to a running total on the host.
//
// cuda-tidy sample for cuda-callback-api-call (bug form): the host function
// calls cudaDeviceSynchronize to make sure the sum has landed. A host
// function enqueued on a stream must not make CUDA calls (and need not
// wait: it runs after the work queued before it): the call returns
// cudaErrorNotPermitted and the segment is dropped from the total.
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

constexpr int kSegments = 4;
constexpr int kN = 1 << 20;

struct Segment {
  unsigned long long *sum; // pinned, written by the kernel
  unsigned long long *total;
};

void CUDART_CB add_segment(void *arg) {
  Segment *s = static_cast<Segment *>(arg);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return;
  *s->total += *s->sum;
}

__global__ void segment_sum(const int *v, int n, unsigned long long *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, (unsigned long long)v[i]);
}

__global__ void fill(int *v, int n, int segment) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = (i + segment) % 10;
}

} // namespace

int main() {
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  int *values;
  unsigned long long *sums;
  CUDA_CHECK(cudaMalloc(&values, kSegments * kN * sizeof(int)));
  CUDA_CHECK(cudaMallocHost(&sums, kSegments * sizeof(unsigned long long)));
  unsigned long long total = 0;
  Segment segments[kSegments];
  for (int s = 0; s < kSegments; ++s)
    sums[s] = 0;
  for (int s = 0; s < kSegments; ++s) {
    segments[s] = {&sums[s], &total};
    int *v = values + s * kN;
    fill<<<kN / 256, 256, 0, stream>>>(v, kN, s);
    segment_sum<<<kN / 256, 256, 0, stream>>>(v, kN, &sums[s]);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaLaunchHostFunc(stream, add_segment, &segments[s]));
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  unsigned long long expected = 0;
  for (int s = 0; s < kSegments; ++s)
    for (int i = 0; i < kN; ++i)
      expected += (i + s) % 10;
  CUDA_CHECK(cudaFree(values));
  CUDA_CHECK(cudaFreeHost(sums));
  CUDA_CHECK(cudaStreamDestroy(stream));
  if (total != expected) {
    std::printf("FAILED: total %llu, expected %llu\n", total, expected);
    return 1;
  }
  std::printf("PASSED: total %llu\n", total);
  return 0;
}
