// The runtime records the failure of every runtime call as the thread's
// last error: a last-error check before any other runtime call checks it.
// A macro that evaluates its CUDA call again when it fails runs it twice
// (issue #18).
// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-api-call %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-api-call %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"

static void checkLastError() {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    exit(1);
}
#define CHECK_LAST() checkLastError()
#define PEEK_CHECK()                                                           \
  if (cudaPeekAtLastError() != cudaSuccess)                                    \
  exit(2)

// ---------------------------------------------------------------------------
// Negative cases: the last error is examined before another runtime call.

void peers(int n) {
  for (int j = 0; j < n; ++j) {
    cudaDeviceEnablePeerAccess(j, 0);
    checkLastError();
  }
  cudaDeviceDisablePeerAccess(0);
  CHECK_LAST();
  cudaSetDevice(1);
  PEEK_CHECK();
  cudaDeviceSynchronize();
  getLastCudaError("sync failed");
}

// ---------------------------------------------------------------------------
// Positive cases.

void hidden_by_another_call() {
  cudaDeviceEnablePeerAccess(1, 0); // BUG: cudaSetDevice runs first
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaDeviceEnablePeerAccess' is not checked [cuda-unchecked-api-call]
  cudaSetDevice(0);
  checkLastError();
}

void checked_on_one_path(bool verbose) {
  cudaDeviceSynchronize(); // BUG: not examined when !verbose
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaDeviceSynchronize' is not checked [cuda-unchecked-api-call]
  if (verbose)
    checkLastError();
}

void cleared_unread() {
  cudaStreamQuery(0); // BUG: the error is cleared unread
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaStreamQuery' is not checked [cuda-unchecked-api-call]
  cudaGetLastError();
}

// A macro that expands its argument twice.
#define CHECK(x)                                                               \
  if ((x) != cudaSuccess) {                                                    \
    fprintf(stderr, "%s\n", cudaGetErrorString(x));                            \
    exit(1);                                                                   \
  }

void twice(float *p) {
  CHECK(cudaFree(p)); // BUG: frees p again when it fails
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: macro 'CHECK' evaluates 'cudaFree(p)' again when it fails [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-7]]:48: note: 'CHECK' is evaluated a second time here
  float *q;
  CHECK(cudaMalloc(&q, 64)); // BUG: allocates again when it fails
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: macro 'CHECK' evaluates 'cudaMalloc(&q, 64)' again when it fails [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-11]]:48: note: 'CHECK' is evaluated a second time here
  CUDA_CHECK(cudaFree(q));
}

// A project helper defined in another file, given only constants, can act
// only on global state: the last error (Rodinia's checkCUDAError("...")).
void checkCUDAError(const char *what);
void logStep(const char *what, int step);
int countErrors(const char *what);
void logBuffer(const char *what, const float *p);

void checkedElsewhere(float **d, size_t n) {
  cudaMalloc(d, n);
  checkCUDAError("cudaMalloc d");
  cudaMemset(*d, 0, n);
  logStep("memset", 2);
}

void notCheckedElsewhere(float **d, size_t n) {
  cudaMalloc(d, n); // BUG: a helper that returns a count is not a check
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: fix-it wraps the call in 'CHECK(...)'
  countErrors("cudaMalloc");
  cudaMemset(*d, 0, n); // BUG: a helper given the buffer is not a check
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMemset' is not checked [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: fix-it wraps the call in 'CHECK(...)'
  logBuffer("memset", *d);
}
