// The notes of each finding, and the fix-it that ErrorCheckMacro enables.
// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-kernel-launch %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unchecked-kernel-launch.ErrorCheckMacro: CUDA_CHECK, cuda-unchecked-kernel-launch.ReportExportedLaunchers: true}}"
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-kernel-launch %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unchecked-kernel-launch.ErrorCheckMacro: CUDA_CHECK, cuda-unchecked-kernel-launch.ReportExportedLaunchers: true}}"

#include "error_macros.h"

__global__ void increment(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1;
}

#define LAUNCH_INCREMENT(x, n) increment<<<((n) + 127) / 128, 128>>>(x, n)

int run(int *d, int n, bool quick) {
  increment<<<(n + 127) / 128, 128>>>(d, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of kernel 'increment' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  // CHECK-FIXES: {{^}}  increment<<<(n + 127) / 128, 128>>>(d, n);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  CUDA_CHECK(cudaGetLastError());{{$}}
  if (quick)
    return 0;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: the launch error is not examined on the path that leaves here
  CUDA_CHECK(cudaDeviceSynchronize());
  return 1;
}

void nested(int *d, int n) {
  for (int rep = 0; rep < 2; ++rep) {
    increment<<<1, 128>>>(d, n);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: launch of kernel 'increment' is not checked for errors on every path [cuda-unchecked-kernel-launch]
    // CHECK-FIXES: {{^}}    increment<<<1, 128>>>(d, n);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    CUDA_CHECK(cudaGetLastError());{{$}}
  }
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: the launch error is not examined on the path that leaves here

void fromMacro(int *d, int n) {
  LAUNCH_INCREMENT(d, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of kernel 'increment' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  // CHECK-FIXES: {{^}}  LAUNCH_INCREMENT(d, n);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  //{{$}}
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: the launch error is not examined on the path that leaves here

static void launchIncrement(int *d, int n) { increment<<<1, 128>>>(d, n); }

void throughWrapper(int *d, int n) {
  launchIncrement(d, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'launchIncrement' launches kernel 'increment' whose error is not checked on every path [cuda-unchecked-kernel-launch]
  // CHECK-NOTES: :[[@LINE-5]]:46: note: kernel launched here
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: the launch error is not examined on the path that leaves here
