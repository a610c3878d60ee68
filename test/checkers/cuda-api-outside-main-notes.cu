// cuda-api-outside-main: a note points at the object or the registration
// that runs the call outside main, and at the call it is reached through.
// RUN: %check_cuda_tidy_plugin %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdlib>

struct StreamHolder {
  cudaStream_t s;
  ~StreamHolder() { release(); }
  void release() { cudaStreamDestroy(s); }
};
StreamHolder holder;
// CHECK-NOTES: :[[@LINE-3]]:20: warning: 'cudaStreamDestroy' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]
// CHECK-NOTES: :[[@LINE-2]]:14: note: 'holder' has static storage duration; its destructor runs after main returns
// CHECK-NOTES: :[[@LINE-6]]:21: note: reached through this call

__attribute__((constructor)) void warm_up() { cudaFree(0); }
// CHECK-NOTES: :[[@LINE-1]]:47: warning: 'cudaFree' is called before main starts, when the CUDA runtime may not be set up [cuda-api-outside-main]
// CHECK-NOTES: :[[@LINE-2]]:35: note: 'warm_up' has the constructor attribute

float *d_buffer;
void release_buffer() { cudaFree(d_buffer); }
// CHECK-NOTES: :[[@LINE-1]]:25: warning: 'cudaFree' is called after main returns, when the CUDA runtime may already be shut down [cuda-api-outside-main]

int main() {
  atexit(release_buffer);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'release_buffer' is registered here to run when the program exits
  CUDA_CHECK(cudaMalloc(&d_buffer, 64));
  return 0;
}
