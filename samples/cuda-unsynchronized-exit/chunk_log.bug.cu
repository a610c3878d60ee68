// Integrates 8 chunks of a long simulation on one stream. After each
// chunk's kernel, a host function enqueued with cudaLaunchHostFunc appends
// the chunk to the run's log; a check registered with atexit verifies,
// when the program ends, that the log holds every chunk.
//
// cuda-tidy sample for cuda-unsynchronized-exit (bug form): main returns
// right after queueing the work. The kernels are still running, the log
// entries of the chunks are never written, and nothing reports it.
// Synchronizing the stream before returning waits for all of it.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <unistd.h>

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

constexpr int kChunks = 8;
constexpr int kN = 1 << 16;
constexpr int kStepsPerChunk = 1 << 21; // about 10 ms per chunk

std::atomic<int> logged{0};

void CUDART_CB log_chunk(void *) { logged.fetch_add(1); }

void verify_log() {
  int n = logged.load();
  if (n != kChunks) {
    std::fprintf(stderr, "FAILED: the log holds %d of %d chunks\n", n,
                 kChunks);
    _exit(1);
  }
  std::printf("PASSED: %d chunks logged\n", n);
}

// Relaxes each value towards 1 for kStepsPerChunk steps.
__global__ void relax(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  for (int s = 0; s < kStepsPerChunk; ++s)
    v = v + 0.001f * (1.0f - v * v);
  x[i] = v;
}

} // namespace

int main() {
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  std::atexit(verify_log);
  float *x;
  CUDA_CHECK(cudaMallocAsync(&x, kN * sizeof(float), stream));
  CUDA_CHECK(cudaMemsetAsync(x, 0, kN * sizeof(float), stream));
  for (int c = 0; c < kChunks; ++c) {
    relax<<<kN / 256, 256, 0, stream>>>(x, kN);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaLaunchHostFunc(stream, log_chunk, nullptr));
  }
  CUDA_CHECK(cudaFreeAsync(x, stream));
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("queued %d chunks\n", kChunks);
  return 0;
}
