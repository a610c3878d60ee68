// The learned wrapper can be a function of the project that takes the error
// code as its only written argument (a default argument may follow); the
// fix uses it only after its declaration. A function whose parameter is not
// an error code is not a wrapper.
// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-api-call %t
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-api-call %t

#include <cuda_runtime.h>

void early(float *d) {
  // Before the wrapper is declared: no fix.
  cudaFree(d);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
  // CHECK-FIXES: {{^}}  cudaFree(d);
}

namespace util {
void ensure(cudaError_t e, int code = 1);
int as_int(int v);
}
using util::ensure;

void run(float **d, size_t n, cudaStream_t s) {
  ensure(cudaMalloc(d, n));
  ensure(cudaMemsetAsync(*d, 0, n, s));
  util::as_int(cudaGetLastError());
  util::as_int(cudaPeekAtLastError());
  util::as_int(cudaDeviceSynchronize());
  cudaStreamSynchronize(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaStreamSynchronize' is not checked [cuda-unchecked-api-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: fix-it wraps the call in 'ensure(...)', the error-checking function learned from 2 CUDA calls of the main file (set ErrorCheckMacro to choose another)
  // CHECK-FIXES: ensure(cudaStreamSynchronize(s));
}
