// Code under #ifdef/#ifndef __CUDA_ARCH__ is seen by only one of clang's
// CUDA compilations. Facts that depend on code the analysed compilation
// skipped are unknown, so both checks stay silent about them.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"

__global__ void touch(int *x) { x[threadIdx.x] = 1; }

// A host/device helper whose host side checks the launch error.
__host__ __device__ inline void checkLaunch(const char *what) {
#ifndef __CUDA_ARCH__
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
    exit(1);
  }
#endif
}

void launchThenHelper(int *x) {
  touch<<<1, 32>>>(x);
  checkLaunch("touch");
}

int statusReadInHostOnlyCode(int **x) {
  cudaError_t err = cudaMalloc(x, 128);
#if !defined(__CUDA_ARCH__)
  if (err != cudaSuccess)
    return 1;
#endif
  return 0;
}

// A discarded result is discarded whatever else the function hides.
void discardedBesideArchCode(int *x) {
  cudaMemset(x, 0, 128);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMemset' is not checked [cuda-unchecked-api-call]
#ifdef __CUDA_ARCH__
  int unused = 0;
  (void)unused;
#endif
}

// A launch in a function that hides code is not followed: its paths are
// unknown.
void launchBesideArchCode(int *x) {
  touch<<<1, 32>>>(x);
#if __CUDA_ARCH__ >= 700
  int unusedArch = 0;
  (void)unusedArch;
#else
  CUDA_CHECK(cudaDeviceSynchronize());
#endif
}

// Code the device compilation skips is not analysed (a known limit, see
// docs/design.md).
void hostOnlyBranch(int *x) {
#ifndef __CUDA_ARCH__
  cudaFree(x);
#endif
}

// Outside any __CUDA_ARCH__ conditional everything is analysed (a static
// launcher: no other translation unit can check its launch).
static void plain(int *x) {
  touch<<<1, 32>>>(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'touch' is not checked for errors on every path [cuda-unchecked-kernel-launch]
}
