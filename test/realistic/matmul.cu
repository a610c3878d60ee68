// A tiled matrix multiply in the style of "CUDA by Example" (HANDLE_ERROR),
// with an early return on bad input after the launch that skips both the
// launch check and the cleanup.
// RUN: %check_cuda_tidy_plugin %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s 'cuda-*' %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (N + TILE - 1) / TILE; ++t) {
    int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < N && ac < N) ? A[row * N + ac] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (br < N && col < N) ? B[br * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < N && col < N)
    C[row * N + col] = acc;
}

static bool verify(const float *C, int N) {
  for (int i = 0; i < N * N; ++i)
    if (fabsf(C[i] - 2.0f * N) > 1e-3f)
      return false;
  return true;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 512;
  size_t bytes = (size_t)N * N * sizeof(float);
  float *A = (float *)malloc(bytes), *B = (float *)malloc(bytes),
        *C = (float *)malloc(bytes);
  for (int i = 0; i < N * N; ++i) {
    A[i] = 1.0f;
    B[i] = 2.0f;
  }
  float *dA, *dB, *dC;
  HANDLE_ERROR(cudaMalloc((void **)&dA, bytes));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: device memory allocated into 'dA' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  HANDLE_ERROR(cudaMalloc((void **)&dB, bytes));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: device memory allocated into 'dB' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  HANDLE_ERROR(cudaMalloc((void **)&dC, bytes));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: device memory allocated into 'dC' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  HANDLE_ERROR(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice));
  HANDLE_ERROR(cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE);
  matmul<<<grid, block>>>(dA, dB, dC, N);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'matmul' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  if (N > 4096) {
    fprintf(stderr, "matrix too large to verify\n");
    return EXIT_FAILURE;
  }
  HANDLE_ERROR(cudaMemcpy(C, dC, bytes, cudaMemcpyDeviceToHost));
  bool ok = verify(C, N);
  printf("%s\n", ok ? "PASSED" : "FAILED");

  HANDLE_ERROR(cudaFree(dA));
  HANDLE_ERROR(cudaFree(dB));
  HANDLE_ERROR(cudaFree(dC));
  free(A);
  free(B);
  free(C);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
