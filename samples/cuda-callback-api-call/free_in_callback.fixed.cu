// Squares 6 batches of 256 Ki floats on one stream. Each batch has its own
// device buffer; a host function enqueued behind the batch's copy back
// records that the batch is done and gives its buffer back.
//
// cuda-tidy sample for cuda-callback-api-call (fixed form): the host
// function only records the batch; main frees the buffers after the stream
// is synchronized. A host function enqueued on a stream must not make CUDA
// calls: a cudaFree there returns cudaErrorNotPermitted and the buffer
// leaks.
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

constexpr int kBatches = 6;
constexpr int kN = 1 << 18;

struct Batch {
  float *device = nullptr;
  bool done = false;
  cudaError_t release = cudaSuccess;
};

void CUDART_CB batch_done(void *arg) {
  Batch *b = static_cast<Batch *>(arg);
  b->done = true;
}

__global__ void square(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = v[i] * v[i];
}

} // namespace

int main() {
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  float *host;
  CUDA_CHECK(cudaMallocHost(&host, kBatches * kN * sizeof(float)));
  for (int i = 0; i < kBatches * kN; ++i)
    host[i] = float(i % 100);
  std::vector<Batch> batches(kBatches);
  for (int b = 0; b < kBatches; ++b) {
    float *slice = host + b * kN;
    CUDA_CHECK(cudaMalloc(&batches[b].device, kN * sizeof(float)));
    CUDA_CHECK(cudaMemcpyAsync(batches[b].device, slice, kN * sizeof(float),
                               cudaMemcpyHostToDevice, stream));
    square<<<kN / 256, 256, 0, stream>>>(batches[b].device, kN);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(slice, batches[b].device, kN * sizeof(float),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaLaunchHostFunc(stream, batch_done, &batches[b]));
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  for (Batch &b : batches)
    b.release = cudaFree(b.device);
  int failed = 0, wrong = 0;
  for (const Batch &b : batches) {
    if (!b.done || b.release != cudaSuccess)
      ++failed;
    if (b.release != cudaSuccess)
      std::fprintf(stderr, "cudaFree in the host function: %s\n",
                   cudaGetErrorName(b.release));
  }
  for (int i = 0; i < kBatches * kN; ++i)
    if (host[i] != float(i % 100) * float(i % 100))
      ++wrong;
  CUDA_CHECK(cudaFreeHost(host));
  CUDA_CHECK(cudaStreamDestroy(stream));
  if (failed || wrong) {
    std::printf("FAILED: %d batches not released, %d values wrong\n", failed,
                wrong);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
