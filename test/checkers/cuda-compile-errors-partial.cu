// A function whose body did not compile in part (an API that CUDA 13
// removed, a helper the build would declare) still gets the unchecked
// result, leak and launch checks: each statement that did not compile is
// unknown code, which may examine the last error, synchronize, free or keep
// what it is passed, or, with no argument, reset the device. Findings that
// do not depend on it are reported; those that could are not.
// RUN: %check_cuda_tidy_plugin --compile-errors %s 'cuda-*' %t
// RUN: %check_cuda_tidy_driver --compile-errors %s 'cuda-*' %t

#include <cuda_runtime.h>

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}

// The removed call comes first: what follows it is reported.
int main() {
  const int n = 1024;
  cudaThreadSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'cudaThreadSynchronize'; did you mean 'cudaDeviceSynchronize'? [clang-diagnostic-error]
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  fill<<<4, 256>>>(d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  float h[4];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMemcpy' is not checked [cuda-unchecked-api-call]
  return 0;
}

// A wrapper the build would declare receives only the status: the buffer
// is still never freed.
int wrapped(int n) {
  float *d = nullptr;
  SAFE_CALL(cudaMalloc(&d, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'SAFE_CALL' [clang-diagnostic-error]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  return 0;
}

// A texture reference (removed in CUDA 13) beside a buffer that leaks.
texture<float, 1> tex;
// CHECK-MESSAGES: :[[@LINE-1]]:1: error: no template named 'texture' [clang-diagnostic-error]
int bind(float *d, int n) {
  cudaBindTexture(0, tex, d, n);
  float *e = nullptr;
  cudaMalloc(&e, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory allocated into 'e' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  return 0;
}

// ---------------------------------------------------------------------------
// Negative cases: each finding would depend on code that did not compile.
// ---------------------------------------------------------------------------

// cudaThreadExit() reset the device (it is cudaDeviceReset's old name): the
// buffer may be released.
int reset_after(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaThreadExit();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'cudaThreadExit' [clang-diagnostic-error]
  return 0;
}

// An undeclared function is passed the buffer: it may free it.
int unknown_free(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  releaseBuffer(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'releaseBuffer' [clang-diagnostic-error]
  return 0;
}

// The removed synchronization follows the launch and the copy: it may be
// the check of both (their findings would depend on it).
void removed_sync_after(float *d, float *h, int n) {
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  fill<<<4, 256>>>(d, n);
  cudaThreadSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'cudaThreadSynchronize'; did you mean 'cudaDeviceSynchronize'? [clang-diagnostic-error]
}
static void call_removed_sync_after(float *d, float *h) {
  removed_sync_after(d, h, 16);
}

// A launch followed by the old SDK's error macro, undeclared here.
static void checked_by_old_macro(float *d, int n) {
  fill<<<4, 256>>>(d, n);
  CUT_CHECK_ERROR("fill failed");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'CUT_CHECK_ERROR' [clang-diagnostic-error]
}

// The stored status goes to an undeclared reporter.
int reported(int n) {
  float *d = nullptr;
  cudaError_t status = cudaMalloc(&d, n * sizeof(float));
  REPORT(status);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'REPORT' [clang-diagnostic-error]
  if (status != cudaSuccess)
    return 1;
  return cudaFree(d) == cudaSuccess;
}

// A call one argument of which did not compile is no known API call.
int misspelt_kind(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevise);
  // CHECK-MESSAGES: :[[@LINE-1]]:39: error: use of undeclared identifier 'cudaMemcpyHostToDevise'; did you mean 'cudaMemcpyHostToDevice'? [clang-diagnostic-error]
  return 0;
}

// A result read after the removed call is not reported by
// cuda-missing-host-sync: the call may have synchronized.
float read_after_removed_sync(float *d, float *h, int n) {
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaThreadSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'cudaThreadSynchronize'; did you mean 'cudaDeviceSynchronize'? [clang-diagnostic-error]
  return h[0];
}

void use_all(float *d, float *h) {
  checked_by_old_macro(d, 4);
  call_removed_sync_after(d, h);
}

// A launch from a kernel without -fgpu-rdc is an error, and clang drops the
// launch: the rest of the kernel is still read (a launch frees, keeps and
// examines nothing).
__global__ void parent(float *p, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: stream allocated into 's' by 'cudaStreamCreateWithFlags' is not destroyed on every path [cuda-device-memory-leak]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cudaStreamCreateWithFlags' is not checked [cuda-unchecked-api-call]
  fill<<<1, 32, 0, s>>>(p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: error: kernel launch from __device__ or __global__ function requires relocatable device code (i.e. requires -fgpu-rdc) [clang-diagnostic-error]
}
