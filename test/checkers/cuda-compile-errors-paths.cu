// Beside a missing header, the checks whose findings are facts about the
// paths to them (host synchronization, exit with work queued, the context
// stack) read a function whose body did not compile in part when what did
// not compile there only wraps calls that compiled (a checking macro of the
// header, `TV_CHECK(cudaFree(p))`). Any other erroneous action may
// synchronize, pop or exit: the function gets none of their findings.
// RUN: %check_cuda_tidy_plugin --compile-errors %s 'cuda-*,-cuda-unchecked-api-call,-cuda-device-memory-leak' %t -- --extra-arg=-ferror-limit=0
// RUN: %check_cuda_tidy_driver --compile-errors %s 'cuda-*,-cuda-unchecked-api-call,-cuda-device-memory-leak' %t -- --extra-arg=-ferror-limit=0

#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include "thirdparty/tensor_view.h"
// CHECK-MESSAGES: :[[@LINE-1]]:10: error: 'thirdparty/tensor_view.h' file not found [clang-diagnostic-error]

// A type of the missing header, used at file scope.
tv::Shape global_shape;
// CHECK-MESSAGES: :[[@LINE-1]]:1: error: use of undeclared identifier 'tv' [clang-diagnostic-error]

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}

// ---- Positive: only the header's checking macro did not compile ----------

void managed_read(int n) {
  float *m;
  TV_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  fill<<<(n + 255) / 256, 256>>>(m, n);
  printf("%f\n", m[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'm' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
  TV_CHECK(cudaFree(m));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
}

void exit_after_launch(float *d, int n) {
  TV_CHECK(cudaMemset(d, 0, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  fill<<<1, 256>>>(d, n);
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

CUresult early_return(CUcontext ctx, CUdeviceptr p, size_t n) {
  TV_CHECK(cuCtxPushCurrent(ctx));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  CUresult r = cuMemsetD8(p, 0, n);
  if (r != CUDA_SUCCESS)
    return r;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the context pushed by 'cuCtxPushCurrent' is still current when 'early_return' returns here; other paths pop it [cuda-context-stack]
  cuCtxPopCurrent(nullptr);
  return CUDA_SUCCESS;
}

// An API that CUDA 13 removed, which typo correction completes as
// cudaDeviceSynchronize: it synchronizes the first launch, not the second.
void exit_after_removed_sync(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  cudaThreadSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'cudaThreadSynchronize'; did you mean 'cudaDeviceSynchronize'? [clang-diagnostic-error]
  fill<<<1, 256>>>(d, n);
  exit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the program exits while kernel 'fill' may still be running; its errors are never reported [cuda-unsynchronized-exit]
}

// ---- Negative: a call of the header may synchronize, exit or pop ---------

void managed_read_after_helper(int n) {
  float *m;
  TV_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  fill<<<(n + 255) / 256, 256>>>(m, n);
  tv::wait_for_device();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  printf("%f\n", m[0]);
}

void managed_read_after_stream_helper(cudaStream_t s, int n) {
  float *m;
  TV_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  fill<<<(n + 255) / 256, 256, 0, s>>>(m, n);
  tv::sync(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  printf("%f\n", m[0]);
}

void exit_after_flush(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  tv::flush(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  exit(0);
}

CUresult early_return_helper(CUcontext ctx, CUdeviceptr p, size_t n) {
  cuCtxPushCurrent(ctx);
  CUresult r = cuMemsetD8(p, 0, n);
  if (r != CUDA_SUCCESS) {
    tv::restore_context(ctx);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
    return r;
  }
  cuCtxPopCurrent(nullptr);
  return CUDA_SUCCESS;
}

// ---- Negative: idiomatic code beside the missing header ------------------

void managed_read_after_removed_sync(int n) {
  float *m;
  TV_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  fill<<<(n + 255) / 256, 256>>>(m, n);
  cudaThreadSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'cudaThreadSynchronize'; did you mean 'cudaDeviceSynchronize'? [clang-diagnostic-error]
  printf("%f\n", m[0]);
}

void managed_read_synced(int n) {
  float *m;
  TV_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  fill<<<(n + 255) / 256, 256>>>(m, n);
  TV_CHECK(cudaDeviceSynchronize());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  printf("%f\n", m[0]);
  TV_CHECK(cudaFree(m));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
}

void exit_after_sync(float *d, int n) {
  fill<<<1, 256>>>(d, n);
  TV_CHECK(cudaDeviceSynchronize());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  exit(0);
}

CUresult balanced(CUcontext ctx, CUdeviceptr p, size_t n) {
  TV_CHECK(cuCtxPushCurrent(ctx));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  CUresult r = cuMemsetD8(p, 0, n);
  TV_CHECK(cuCtxPopCurrent(nullptr));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK' [clang-diagnostic-error]
  return r;
}
