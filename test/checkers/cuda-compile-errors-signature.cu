// A function whose signature names a type from a header that is missing
// (a submodule not checked out: `glm::vec3`) is an invalid declaration, but
// its body compiled: it is read as code with errors. Each use of such a
// parameter is unknown; a launch whose kernel or arguments did not compile
// is still a launch, which examines no error, frees nothing and resets
// nothing. Findings that do not depend on the missing code are reported.
// RUN: %check_cuda_tidy_driver --compile-errors %s 'cuda-*' %t

#include <cuda_runtime.h>
#include "thirdparty/glm/glm.hpp"
// CHECK-MESSAGES: :[[@LINE-1]]:10: error: 'thirdparty/glm/glm.hpp' file not found [clang-diagnostic-error]

__global__ void shade(const glm::vec3 *points, float *out, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:29: error: use of undeclared identifier 'glm' [clang-diagnostic-error]
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = points[i].x;
}

// The body compiled whole; the parameter of unknown type is never used.
void resize(const glm::vec3 *points, float **out, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:19: error: use of undeclared identifier 'glm' [clang-diagnostic-error]
  float *grown = nullptr;
  cudaMalloc(&grown, 2 * n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory allocated into 'grown' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  cudaFree(*out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
}

// The launch passes the unknown parameter: it neither examines the
// cudaMalloc's status nor frees 'scratch'.
void render(const glm::vec3 *points, float *out, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:19: error: use of undeclared identifier 'glm' [clang-diagnostic-error]
  float *scratch;
  cudaMalloc(&scratch, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory allocated into 'scratch' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  shade<<<(n + 255) / 256, 256>>>(points, out, n);
  cudaMemcpy(out, scratch, n * sizeof(float), cudaMemcpyDeviceToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMemcpy' is not checked [cuda-unchecked-api-call]
}

// Negative: the same shapes, written correctly.
cudaError_t render_checked(const glm::vec3 *points, float *out, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:34: error: use of undeclared identifier 'glm' [clang-diagnostic-error]
  float *scratch = nullptr;
  cudaError_t err = cudaMalloc(&scratch, n * sizeof(float));
  if (err != cudaSuccess)
    return err;
  shade<<<(n + 255) / 256, 256>>>(points, out, n);
  err = cudaGetLastError();
  if (err == cudaSuccess)
    err = cudaMemcpy(out, scratch, n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaError_t freed = cudaFree(scratch);
  return err != cudaSuccess ? err : freed;
}

// Negative: the allocation goes to the parameter of unknown type's
// owner, which may keep it.
void attach(glm::vec3 *points, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:13: error: use of undeclared identifier 'glm' [clang-diagnostic-error]
  float *buffer = nullptr;
  if (cudaMalloc(&buffer, n * sizeof(float)) != cudaSuccess)
    return;
  register_buffer(points, buffer);
}

// Negative: an unknown call may examine the last error, and may free what
// it is passed.
void render_with_helper(const glm::vec3 *points, float *out, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:31: error: use of undeclared identifier 'glm' [clang-diagnostic-error]
  float *scratch = nullptr;
  cudaMalloc(&scratch, n * sizeof(float));
  glm_check_and_release(points, scratch);
}

// A local of a type the missing header declares, built from numbers only:
// its initializer holds no call and no pointer. Its constructor is unknown
// code, which may examine the last error: the status of cudaMalloc is not
// reported.
void scaled(float *out, int n, float s) {
  float *scratch = nullptr;
  cudaMalloc(&scratch, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory allocated into 'scratch' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  Vec3f scale(0.5f * s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: unknown type name 'Vec3f' [clang-diagnostic-error]
  cudaMemcpy(out, scratch, n * sizeof(float), cudaMemcpyDeviceToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMemcpy' is not checked [cuda-unchecked-api-call]
}

// Negative: the local of unknown type is built from the buffer and may
// own it.
void owned(float *out, int n) {
  float *scratch = nullptr;
  cudaMalloc(&scratch, n * sizeof(float));
  DeviceVector owner(scratch, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: unknown type name 'DeviceVector' [clang-diagnostic-error]
  cudaMemcpy(out, scratch, n * sizeof(float), cudaMemcpyDeviceToDevice);
}

// A cast to a type of the missing header is a syntax error inside the call
// ('expected expression'): the parser drops that argument and resumes in
// the same call, which becomes an unknown action on anything. What comes
// after it is still reported; the status and the buffer before it are not.
int prepare(int n, const float *a, const glm::vec3 *b, float *c);
// CHECK-MESSAGES: :[[@LINE-1]]:42: error: use of undeclared identifier 'glm' [clang-diagnostic-error]

int forward(int n, const float *scales, float *out) {
  float *scratch;
  cudaMalloc(&scratch, n * sizeof(float));
  prepare(n, out, (glm::vec3 *)scales, scratch);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: error: use of undeclared identifier 'glm' [clang-diagnostic-error]
  // CHECK-MESSAGES: :[[@LINE-2]]:31: error: expected expression [clang-diagnostic-error]
  cudaMemcpy(out, scratch, n * sizeof(float), cudaMemcpyDeviceToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMemcpy' is not checked [cuda-unchecked-api-call]
  return 0;
}

// Negative: a syntax error the parser did not recover from inside one
// expression leaves the function unread.
void unbalanced(float *out, int n) {
  float *scratch;
  cudaMalloc(&scratch, n * sizeof(float));
  int k = (glm::vec3 *);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: error: use of undeclared identifier 'glm' [clang-diagnostic-error]
  // CHECK-MESSAGES: :[[@LINE-2]]:23: error: expected expression [clang-diagnostic-error]
  cudaMemcpy(out, scratch, n * sizeof(float), cudaMemcpyDeviceToDevice);
}
