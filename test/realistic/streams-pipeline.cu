// A pinned-memory, two-stream pipeline in the style of the CUDA samples'
// simpleStreams: copy in, scale, copy out, per chunk, timed with events.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kStreams = 2;
constexpr int kChunk = 1 << 20;

__global__ void scaleChunk(float *data, int n, float factor) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    data[i] *= factor;
}

struct Pipeline {
  cudaStream_t streams[kStreams];
  float *hostBuf = nullptr;
  float *devBuf = nullptr;
  size_t total = 0;

  explicit Pipeline(size_t n) : total(n) {
    CUDA_CHECK(cudaMallocHost(&hostBuf, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&devBuf, n * sizeof(float)));
    for (auto &s : streams)
      CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  }

  ~Pipeline() {
    for (auto &s : streams)
      cudaStreamDestroy(s);
    cudaFree(devBuf);
    cudaFreeHost(hostBuf);
  }

  void run(float factor) {
    for (size_t off = 0, c = 0; off < total; off += kChunk, ++c) {
      cudaStream_t s = streams[c % kStreams];
      size_t n = std::min<size_t>(kChunk, total - off);
      CUDA_CHECK(cudaMemcpyAsync(devBuf + off, hostBuf + off, n * sizeof(float),
                                 cudaMemcpyHostToDevice, s));
      scaleChunk<<<256, 256, 0, s>>>(devBuf + off, (int)n, factor);
      CUDA_CHECK(cudaMemcpyAsync(hostBuf + off, devBuf + off, n * sizeof(float),
                                 cudaMemcpyDeviceToHost, s));
    }
    CUDA_CHECK(cudaGetLastError());
    for (auto &s : streams)
      CUDA_CHECK(cudaStreamSynchronize(s));
  }
};

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoul(argv[1], nullptr, 10) : 8u * kChunk;
  Pipeline p(n);
  for (size_t i = 0; i < n; ++i)
    p.hostBuf[i] = 1.0f;

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  p.run(2.0f);
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaEventElapsedTime' is not checked [cuda-unchecked-api-call]

  int bad = 0;
  for (size_t i = 0; i < n; ++i)
    bad += p.hostBuf[i] != 2.0f;
  printf("%zu elements in %.3f ms, %d wrong\n", n, ms, bad);
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
