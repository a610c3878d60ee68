// cuda-device-memory-leak: buffers that CUDA libraries read (cuBLAS), which
// never take ownership of them.
// RUN: %check_cuda_tidy_plugin %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cublas_v2.h>
#include <cstdlib>

// ---- Positive: a file-scope scratch buffer that no function frees ---------

static float *scratch;

void rowSums(cublasHandle_t handle, const float *d_A, float *d_y, int n) {
  const float one = 1.f, zero = 0.f;
  cublasSgemv(handle, CUBLAS_OP_T, n, n, &one, d_A, n, scratch, 1, &zero, d_y,
              1);
}

// ---- Negative: a file-scope buffer that a cleanup function frees ----------

static float *workspace;
void releaseWorkspace() { CUDA_CHECK(cudaFree(workspace)); }

int main() {
  const int n = 256;
  cublasHandle_t handle;
  cublasCreate(&handle);
  CUDA_CHECK(cudaMalloc(&scratch, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: device memory allocated into file-scope variable 'scratch' by 'cudaMalloc' is never freed [cuda-device-memory-leak]
  CUDA_CHECK(cudaMalloc(&workspace, n * sizeof(float)));
  cublasSetWorkspace(handle, workspace, n * sizeof(float));

  // ---- Positive: the device copy of a constant operand, host copy freed ---
  float *h_ones = static_cast<float *>(malloc(n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    h_ones[i] = 1.f;
  float *d_ones = nullptr;
  CUDA_CHECK(cudaMalloc(&d_ones, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: device memory allocated into 'd_ones' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  CUDA_CHECK(cudaMemcpy(d_ones, h_ones, n * sizeof(float),
                        cudaMemcpyHostToDevice));
  float *d_A = nullptr, *d_y = nullptr;
  CUDA_CHECK(cudaMalloc(&d_A, n * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  const float one = 1.f, zero = 0.f;
  cublasSgemv(handle, CUBLAS_OP_N, n, n, &one, d_A, n, d_ones, 1, &zero, d_y,
              1);
  rowSums(handle, d_A, d_y, n);
  free(h_ones);
  CUDA_CHECK(cudaFree(d_A));
  CUDA_CHECK(cudaFree(d_y));
  releaseWorkspace();
  cublasDestroy(handle);
  return 0;
}
