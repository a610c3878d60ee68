// RUN: %check_cuda_tidy_driver %s cuda-invalid-free %t

// The driver API's device address, CUdeviceptr, is an integer that
// cuMemAlloc writes and cuMemFree releases: a copy from or into it after
// the release is a use after free, as for a pointer.
#include <cuda.h>

int upload_after_free(size_t n, const float *h) {
  CUdeviceptr d;
  if (cuMemAlloc(&d, n) != CUDA_SUCCESS)
    return 1;
  if (cuMemFree(d) != CUDA_SUCCESS)
    return 1;
  if (cuMemcpyHtoD(d, h, n) != CUDA_SUCCESS)
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'd' is written by a copy after it was freed [cuda-invalid-free]
    return 1;
  return 0;
}

int download_after_free(size_t n, float *h) {
  CUdeviceptr d;
  if (cuMemAlloc(&d, n) != CUDA_SUCCESS)
    return 1;
  cuMemFree(d);
  if (cuMemcpyDtoH(h, d, n) != CUDA_SUCCESS)
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'd' is read by a copy after it was freed [cuda-invalid-free]
    return 1;
  return 0;
}

// Negatives: a copy before the release, a release on one path only, a
// second allocation into the same variable.
int copy_then_free(size_t n, const float *h) {
  CUdeviceptr d;
  if (cuMemAlloc(&d, n) != CUDA_SUCCESS)
    return 1;
  CUresult r = cuMemcpyHtoD(d, h, n);
  cuMemFree(d);
  return r != CUDA_SUCCESS;
}

int freed_on_one_path(size_t n, float *h, bool early) {
  CUdeviceptr d;
  if (cuMemAlloc(&d, n) != CUDA_SUCCESS)
    return 1;
  if (early)
    cuMemFree(d);
  else if (cuMemcpyDtoH(h, d, n) != CUDA_SUCCESS)
    return 1;
  return 0;
}

int allocated_again(size_t n, const float *h) {
  CUdeviceptr d;
  if (cuMemAlloc(&d, n) != CUDA_SUCCESS)
    return 1;
  cuMemFree(d);
  if (cuMemAlloc(&d, n) != CUDA_SUCCESS)
    return 1;
  CUresult r = cuMemcpyHtoD(d, h, n);
  cuMemFree(d);
  return r != CUDA_SUCCESS;
}
