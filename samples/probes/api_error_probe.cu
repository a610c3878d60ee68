// Probe: how compute-sanitizer treats CUDA API errors that a program handles.
//
// Not a sample. scripts/gpu-run-samples runs each mode plain and under
// compute-sanitizer (--error-exitcode 1) and records the exit codes, so that
// docs/samples.md can state what the tools count as an error. Every mode
// handles whatever the API returns and exits 0 when the program itself did
// what it meant to.
//
//   notready-stream  poll cudaStreamQuery while a kernel runs (~200 ms)
//   notready-event   poll cudaEventQuery while a kernel runs (~200 ms)
//   launch-fail-handled
//                    a launch refused for its grid (gridDim.y = 65536) whose
//                    error is read with cudaGetLastError, then a valid launch
//   sync-after-failed-launch
//                    the same refused launch; prints what cudaMemcpy,
//                    cudaStreamSynchronize and cudaDeviceSynchronize return
//                    after it, then what cudaGetLastError returns
//   async-copy       how long cudaMemcpyAsync of 256 MiB between pinned host
//                    memory and the device takes to return, and to finish
#include <cstdio>
#include <cstdlib>
#include <chrono>
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

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin(int *out, unsigned long long ns) {
  const unsigned long long start = global_ns();
  while (global_ns() - start < ns) {
  }
  out[0] = 42;
}

__global__ void fill(int *out, int value) {
  if (threadIdx.x == 0 && blockIdx.x == 0 && blockIdx.y == 0)
    out[0] = value;
}

static int poll(bool event) {
  int *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, sizeof(int)));
  cudaStream_t s;
  cudaEvent_t e;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  spin<<<1, 1, 0, s>>>(d, 200ull * 1000 * 1000);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(e, s));
  long not_ready = 0;
  cudaError_t st;
  while ((st = event ? cudaEventQuery(e) : cudaStreamQuery(s)) ==
         cudaErrorNotReady)
    ++not_ready;
  CUDA_CHECK(st);
  int h = 0;
  CUDA_CHECK(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("probe: %s answered cudaErrorNotReady %ld times; value %d\n",
              event ? "cudaEventQuery" : "cudaStreamQuery", not_ready, h);
  CUDA_CHECK(cudaEventDestroy(e));
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(d));
  return h == 42 ? 0 : 1;
}

static int failed_launch(bool report_syncs) {
  int *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, sizeof(int)));
  CUDA_CHECK(cudaMemset(d, 0, sizeof(int)));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  fill<<<dim3(1, 65536), 32, 0, s>>>(d, 7);
  int ok = 0;
  if (report_syncs) {
    int h = 0;
    cudaError_t copy = cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    cudaError_t ssync = cudaStreamSynchronize(s);
    cudaError_t dsync = cudaDeviceSynchronize();
    cudaError_t last = cudaGetLastError();
    std::printf("probe: after the refused launch cudaMemcpy=%s "
                "cudaStreamSynchronize=%s cudaDeviceSynchronize=%s "
                "then cudaGetLastError=%s; value %d\n",
                cudaGetErrorName(copy), cudaGetErrorName(ssync),
                cudaGetErrorName(dsync), cudaGetErrorName(last), h);
    ok = h == 0;
  } else {
    cudaError_t last = cudaGetLastError();
    std::printf("probe: the refused launch left %s\n", cudaGetErrorName(last));
    fill<<<dim3(1, 1), 32, 0, s>>>(d, 7);
    CUDA_CHECK(cudaGetLastError());
    int h = 0;
    CUDA_CHECK(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("probe: recovered, value %d\n", h);
    ok = last != cudaSuccess && h == 7;
  }
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(d));
  return ok ? 0 : 1;
}

static double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

static int async_copy() {
  const size_t bytes = size_t(256) << 20;
  char *h = nullptr, *d = nullptr;
  CUDA_CHECK(cudaMallocHost(&h, bytes));
  CUDA_CHECK(cudaMalloc(&d, bytes));
  std::memset(h, 1, bytes);
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUDA_CHECK(cudaMemcpyAsync(d, h, 1, cudaMemcpyHostToDevice, s)); // warm up
  CUDA_CHECK(cudaStreamSynchronize(s));
  const cudaMemcpyKind kinds[2] = {cudaMemcpyHostToDevice,
                                   cudaMemcpyDeviceToHost};
  for (cudaMemcpyKind kind : kinds) {
    auto t0 = std::chrono::steady_clock::now();
    if (kind == cudaMemcpyHostToDevice)
      CUDA_CHECK(cudaMemcpyAsync(d, h, bytes, kind, s));
    else
      CUDA_CHECK(cudaMemcpyAsync(h, d, bytes, kind, s));
    const double returned = ms_since(t0);
    CUDA_CHECK(cudaStreamSynchronize(s));
    std::printf("probe: cudaMemcpyAsync %s of 256 MiB (pinned) returned after "
                "%.3f ms, finished after %.3f ms\n",
                kind == cudaMemcpyHostToDevice ? "H2D" : "D2H", returned,
                ms_since(t0));
  }
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFreeHost(h));
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!std::strcmp(mode, "notready-stream"))
    return poll(false);
  if (!std::strcmp(mode, "notready-event"))
    return poll(true);
  if (!std::strcmp(mode, "launch-fail-handled"))
    return failed_launch(false);
  if (!std::strcmp(mode, "sync-after-failed-launch"))
    return failed_launch(true);
  if (!std::strcmp(mode, "async-copy"))
    return async_copy();
  std::fprintf(stderr, "usage: %s notready-stream|notready-event|"
                       "launch-fail-handled|sync-after-failed-launch|"
                       "async-copy\n",
               argv[0]);
  return 2;
}
