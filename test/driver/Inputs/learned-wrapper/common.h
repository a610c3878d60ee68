// A project's shared header, in the shape of llm.c's dev/cuda/common.h: an
// error-checking macro over a function, and a setup routine with one call
// left unchecked.
#pragma once
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

inline void check_status(cudaError_t error, const char *file, int line) {
  if (error != cudaSuccess) {
    std::printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line,
                cudaGetErrorString(error));
    std::exit(EXIT_FAILURE);
  }
}
#define cudaCheck(err) (check_status(err, __FILE__, __LINE__))

inline int setup_device() {
  int device = 0;
  cudaCheck(cudaSetDevice(device));
  cudaDeviceProp props;
  cudaGetDeviceProperties(&props, device);
  return props.multiProcessorCount;
}
