// With no ErrorCheckMacro, the fix-it uses the error-checking macro that the
// translation unit itself wraps its CUDA calls in, learned from those calls
// (docs/checks/cuda-unchecked-api-call.md, "The learned wrapper"). The note
// names the macro and how many calls it was learned from.
// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-api-call %t
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-api-call %t

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

inline void report_failure(cudaError_t e, const char *file, int line) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: %s\n", file, line, cudaGetErrorString(e));
    std::exit(1);
  }
}
// The project's wrapper: a macro over a function that takes more arguments.
#define gpuCheck(call) (report_failure((call), __FILE__, __LINE__))
// Another macro with two arguments is not a wrapper of one call.
#define CHECK_MSG(call, msg) report_failure((call), msg, 0)

void setup(float **d, size_t n) {
  gpuCheck(cudaMalloc(d, n));
  gpuCheck( cudaMemset(*d, 0, n) );
  gpuCheck(cudaDeviceSynchronize());
  CHECK_MSG(cudaFree(nullptr), "free");
  CHECK_MSG(cudaSetDevice(0), "device");
  // A condition is not a wrapper.
  if (cudaStreamQuery(0) != cudaSuccess)
    return;
}

void teardown(float *d, cudaStream_t s) {
  cudaStreamSynchronize(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaStreamSynchronize' is not checked [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: fix-it wraps the call in 'gpuCheck(...)', the error-checking macro learned from 3 CUDA calls of the main file (set ErrorCheckMacro to choose another)
  // CHECK-FIXES: gpuCheck(cudaStreamSynchronize(s));
  cudaFree(d);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: fix-it wraps the call in 'gpuCheck(...)', the error-checking macro learned from 3 CUDA calls
  // CHECK-FIXES: gpuCheck(cudaFree(d));
  // Not a statement of its own: a wrapper that expands to a statement would
  // not compile here, so there is no fix.
  for (int i = 0; i < 2; cudaStreamSynchronize(s), ++i)
    ;
  // CHECK-NOTES: :[[@LINE-2]]:26: warning: the error code returned by 'cudaStreamSynchronize' is not checked [cuda-unchecked-api-call]
  // CHECK-FIXES: for (int i = 0; i < 2; cudaStreamSynchronize(s), ++i)
}

#undef gpuCheck
// Where the macro is no longer defined, there is no fix.
void after_undef(float *d) {
  cudaFree(d);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
  // CHECK-FIXES: {{^}}  cudaFree(d);
}

#define gpuCheck(call) (report_failure((call), __FILE__, __LINE__))
// Device code: the wrapper was learned from host code and calls a host
// function, so it would not compile here: no fix.
__global__ void release_on_device(float *d) {
  cudaFree(d);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
  // CHECK-FIXES: {{^}}  cudaFree(d);
}
