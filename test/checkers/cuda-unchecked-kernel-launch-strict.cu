// StrictLaunchErrorCheck: only the last-error query examines a launch,
// because a checked synchronizing call does not report a launch that the
// runtime refused (invalid configuration, too much shared memory).
// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-kernel-launch %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unchecked-kernel-launch.StrictLaunchErrorCheck: true, cuda-unchecked-kernel-launch.ReportExportedLaunchers: true}}"
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-kernel-launch %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unchecked-kernel-launch.StrictLaunchErrorCheck: true, cuda-unchecked-kernel-launch.ReportExportedLaunchers: true}}"

#include "error_macros.h"

__global__ void fill(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 1.0f;
}

void syncOnly(float *x, int n) {
  fill<<<(n + 255) / 256, 256>>>(x, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  CUDA_CHECK(cudaDeviceSynchronize());
}

void copyOnly(float *x, float *h, int n) {
  fill<<<(n + 255) / 256, 256>>>(x, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  CUDA_CHECK(cudaMemcpy(h, x, n * sizeof(float), cudaMemcpyDeviceToHost));
}

void lastError(float *x, int n) {
  fill<<<(n + 255) / 256, 256>>>(x, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

void peek(float *x, int n) {
  fill<<<(n + 255) / 256, 256>>>(x, n);
  gpuErrchk(cudaPeekAtLastError());
}
