// cuda-unsynchronized-exit: the program ends while launched work may still
// be queued, so that its asynchronous errors are never reported.
// RUN: %check_cuda_tidy_plugin %s cuda-unsynchronized-exit %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-unsynchronized-exit %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdio>
#include <cstdlib>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.f;
}

void launch_fill(float *d, int n) { fill<<<(n + 255) / 256, 256>>>(d, n); }
void launch_and_wait(float *d, int n) {
  fill<<<(n + 255) / 256, 256>>>(d, n);
  CUDA_CHECK(cudaDeviceSynchronize());
}

// ---- Positive: exit() with work queued ---------------------------------------

void exit_after_launch(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void exit_success_after_launch(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  std::exit(EXIT_SUCCESS);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void quick_exit_after_launch(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  quick_exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void underscore_exit_after_launch(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  _Exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void exit_after_async_copy(float *d, const float *h, int n, cudaStream_t s) {
  CUDA_CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while an asynchronous copy may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void exit_after_memset(float *d, int n, cudaStream_t s) {
  CUDA_CHECK(cudaMemsetAsync(d, 0, n * sizeof(float), s));
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while an asynchronous memset may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void exit_after_launcher(float *d, int n) {
  launch_fill(d, n);
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while device work may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void exit_after_other_stream_sync(float *d, int n, cudaStream_t a,
                                  cudaStream_t b) {
  fill<<<1, 256, 0, a>>>(d, n);
  CUDA_CHECK(cudaStreamSynchronize(b));
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void exit_on_one_branch(float *d, int n, bool wait) {
  fill<<<1, 256>>>(d, n);
  if (wait)
    CUDA_CHECK(cudaDeviceSynchronize());
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void exit_after_event_record_only(float *d, int n, cudaEvent_t e) {
  fill<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaEventRecord(e));
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void exit_after_stream_destroy(float *d, int n) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  fill<<<1, 256, 0, s>>>(d, n);
  CUDA_CHECK(cudaStreamDestroy(s));
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

void exit_after_legacy_sync_of_non_blocking(float *d, int n) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  fill<<<1, 256, 0, s>>>(d, n);
  CUDA_CHECK(cudaStreamSynchronize(0));
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

// ---- Negative: synchronized before the exit --------------------------------

void exit_after_device_sync(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  exit(0);
}

void exit_after_stream_sync(float *d, int n, cudaStream_t s) {
  fill<<<1, 256, 0, s>>>(d, n);
  CUDA_CHECK(cudaStreamSynchronize(s));
  exit(0);
}

void exit_after_event_sync(float *d, int n, cudaEvent_t e) {
  fill<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaEventRecord(e));
  CUDA_CHECK(cudaEventSynchronize(e));
  exit(0);
}

void exit_after_copy_back(float *d, float *h, int n) {
  fill<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  exit(0);
}

void exit_after_free(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaFree(d));
  exit(0);
}

void exit_after_reset(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  cudaDeviceReset();
  exit(0);
}

void exit_on_failure(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  if (cudaGetLastError() != cudaSuccess)
    exit(EXIT_FAILURE); // a failing exit is already reported
  CUDA_CHECK(cudaDeviceSynchronize());
}

void exit_status_unknown(float *d, int n, cudaError_t status) {
  fill<<<1, 256>>>(d, n);
  if (status != cudaSuccess)
    exit((int)status); // an error macro's exit: the status is the error
}

void abort_after_launch(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  abort();
}

void exit_after_waiting_launcher(float *d, int n) {
  launch_and_wait(d, n);
  exit(0);
}

void exit_after_query_loop(float *d, int n, cudaStream_t s) {
  fill<<<1, 256, 0, s>>>(d, n);
  while (cudaStreamQuery(s) == cudaErrorNotReady) {
  }
  exit(0);
}

void returns_without_exit(float *d, int n) {
  fill<<<1, 256>>>(d, n); // a function that returns leaves it to its caller
}

void exit_without_work() { exit(0); }

void finish_elsewhere();
void exit_after_unknown_call(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  finish_elsewhere();
  exit(0);
}

void exit_after_pinned_sync_copy(float *d, float *h, int n, cudaStream_t s) {
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  exit(0);
}

// ---- main ------------------------------------------------------------------

int main(int argc, char **argv) {
  int n = 1 << 20;
  float *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  fill<<<(n + 255) / 256, 256>>>(d, n);
  if (argc > 3)
    return 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: main returns while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
  if (argc > 2)
    return 1; // a failing status is reported already
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  fill<<<(n + 255) / 256, 256>>>(d, n);
  if (argc > 1) {
    printf("done\n");
    return EXIT_SUCCESS;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: main returns while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
  }
  CUDA_CHECK(cudaFree(d));
  return 0;
}
