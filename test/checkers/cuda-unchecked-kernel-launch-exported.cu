// By default a launcher that other translation units may call (extern "C",
// or any function with external linkage) is reported only through a caller
// in this translation unit that leaves the launch error unexamined; its
// callers elsewhere may check getLastCudaError() (issue #18).
// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-kernel-launch %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-kernel-launch %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

// Negative cases: no caller here; the callers elsewhere may check.
extern "C" void launch_scale(float *x, int n) {
  scale<<<(n + 255) / 256, 256>>>(x, n);
}
void launch_scale_cpp(float *x, int n) {
  scale<<<(n + 255) / 256, 256>>>(x, n);
}

// Positive cases: callers in this translation unit.
void launch_here(float *x, int n) {
  scale<<<(n + 255) / 256, 256>>>(x, n);
}
static void internal_launcher(float *x, int n) {
  scale<<<(n + 255) / 256, 256>>>(x, n);
}
int main() {
  float *x = nullptr;
  scale<<<1, 32>>>(x, 32);
  getLastCudaError("checked");
  launch_here(x, 32); // BUG: exported, but this caller does not check
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'launch_here' launches kernel 'scale' whose error is not checked on every path [cuda-unchecked-kernel-launch]
  internal_launcher(x, 32); // BUG
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'internal_launcher' launches kernel 'scale' whose error is not checked on every path [cuda-unchecked-kernel-launch]
  return 0;
}
