// A file whose header is missing (a third-party include, a submodule not
// checked out) is analysed as far as it compiled: every function whose body
// compiled gets every check, and a function that holds code which did not
// compile gets no finding that would depend on it
// (cuda-compile-errors-partial.cu).
// RUN: %check_cuda_tidy_plugin --compile-errors %s 'cuda-*' %t
// RUN: %check_cuda_tidy_driver --compile-errors %s 'cuda-*' %t

#include <cuda_runtime.h>
#include <cstdio>
#include "thirdparty/tensor_view.h"
// CHECK-MESSAGES: :[[@LINE-1]]:10: error: 'thirdparty/tensor_view.h' file not found [clang-diagnostic-error]

__global__ void scale(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * i;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: write to 'out' at thread-derived index 'i' has no upper bound on this path [cuda-unguarded-thread-index]
}

int main() {
  const int n = 1000;
  // A call of the missing header's logger: main did not compile whole, and
  // is still analysed around it.
  TV_TRACE_BEGIN("start");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_TRACE_BEGIN' [clang-diagnostic-error]
  float *d_out;
  cudaMalloc(&d_out, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory allocated into 'd_out' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  scale<<<(n + 255) / 256, 256>>>(d_out, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: {{.*}}[cuda-unchecked-kernel-launch]
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaDeviceSynchronize' is not checked [cuda-unchecked-api-call]
  return 0;
}

// ---------------------------------------------------------------------------
// Negative cases: functions that hold code which did not compile (names the
// missing header declares). Each finding below would depend on it.
// ---------------------------------------------------------------------------

// The buffer goes to a view the header declares: no leak can be told.
int hands_to_view(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  tv::register_buffer(d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  return 0;
}

// The launch is checked by the header's macro.
void checked_by_macro(float *out, int n) {
  scale<<<(n + 255) / 256, 256>>>(out, n);
  TV_CHECK_LAUNCH();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CHECK_LAUNCH' [clang-diagnostic-error]
}

// The result goes to the header's checking macro.
void result_to_macro(float *d, int n) {
  TV_CUDA_CHECK(cudaMemset(d, 0, n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_CUDA_CHECK' [clang-diagnostic-error]
}

// A declaration of a type the header declares, initialized from the buffer.
int wrapped_in_unknown_type(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  tv::DeviceBuffer<float> owner(d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  // CHECK-MESSAGES: :[[@LINE-2]]:25: error: expected '(' for function-style cast or type construction [clang-diagnostic-error]
  // CHECK-MESSAGES: :[[@LINE-3]]:27: error: use of undeclared identifier 'owner' [clang-diagnostic-error]
  return 0;
}

// A syntax error: clang may drop tokens and leave no node for them, so a
// function with a syntax error inside it is not analysed.
int syntax_error(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  int status = (n > 0 ? 0 : 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:30: error: expected ')' [clang-diagnostic-error]
  cudaFree(d);
  return status;
}
