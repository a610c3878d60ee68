// ErrorCheckMacro adds a fix-it; AllowCastToVoid, IgnoredFunctions and
// AllowReleaseInDestructors can be turned the other way; CheckedReturnTypes
// set to the runtime's, driver's and cuBLAS's types leaves the other
// libraries' out.
// RUN: %check_cuda_tidy_plugin --check-suffix=FIX %s cuda-unchecked-api-call %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unchecked-api-call.ErrorCheckMacro: CUDA_CHECK}}"
// RUN: %check_cuda_tidy_driver --check-suffix=FIX %s cuda-unchecked-api-call %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unchecked-api-call.ErrorCheckMacro: CUDA_CHECK}}"
// RUN: %check_cuda_tidy_plugin --check-suffix=STRICT %s cuda-unchecked-api-call %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unchecked-api-call.AllowCastToVoid: false, cuda-unchecked-api-call.IgnoredFunctions: '', cuda-unchecked-api-call.AllowReleaseInDestructors: false, cuda-unchecked-api-call.CheckedReturnTypes: 'cudaError_t;CUresult;cublasStatus_t'}}"
// RUN: %check_cuda_tidy_driver --check-suffix=STRICT %s cuda-unchecked-api-call %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unchecked-api-call.AllowCastToVoid: false, cuda-unchecked-api-call.IgnoredFunctions: '', cuda-unchecked-api-call.AllowReleaseInDestructors: false, cuda-unchecked-api-call.CheckedReturnTypes: 'cudaError_t;CUresult;cublasStatus_t'}}"

#include "error_macros.h"
#include <cublas_v2.h>

#define FREE_ALL(a, b) cudaFree(a); cudaFree(b)

void fixes(float *h, size_t n) {
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  // CHECK-MESSAGES-FIX: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  // CHECK-FIXES-FIX: CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  cudaMemcpy(d, h, n * sizeof(float),
             cudaMemcpyHostToDevice);
  // CHECK-MESSAGES-FIX: :[[@LINE-2]]:3: warning: the error code returned by 'cudaMemcpy' is not checked [cuda-unchecked-api-call]
  // CHECK-FIXES-FIX: CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float),
  // CHECK-FIXES-FIX-NEXT: cudaMemcpyHostToDevice));
  // CHECK-MESSAGES-STRICT: :[[@LINE-5]]:3: warning: the error code returned by 'cudaMemcpy' is not checked [cuda-unchecked-api-call]
  float *e = nullptr;
  // No fix inside a macro expansion. Both calls in it are reported at the
  // macro's use, as one finding.
  FREE_ALL(d, e);
  // CHECK-MESSAGES-FIX: :[[@LINE-1]]:3: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
  // CHECK-FIXES-FIX: FREE_ALL(d, e);
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:3: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
}

void voidCast(float *d) {
  (void)cudaFree(d);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:9: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
  static_cast<void>(cudaDeviceSynchronize());
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:21: warning: the error code returned by 'cudaDeviceSynchronize' is not checked [cuda-unchecked-api-call]
}

void lastError() {
  cudaGetLastError();
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: the error code returned by 'cudaGetLastError' is not checked [cuda-unchecked-api-call]
}

struct Holder {
  float *p = nullptr;
  ~Holder() { cudaFree(p); }
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:15: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
};

void blas() {
  cublasHandle_t handle;
  cublasCreate(&handle);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: the error code returned by 'cublasCreate_v2' is not checked [cuda-unchecked-api-call]
  // The default checks the library's status too; CUDA_CHECK, the
  // configured macro, takes no cublasStatus_t: no fix-it, and no note.
  // CHECK-MESSAGES-FIX: :[[@LINE-4]]:3: warning: the error code returned by 'cublasCreate_v2' is not checked [cuda-unchecked-api-call]
  // CHECK-FIXES-FIX: {{^}}  cublasCreate(&handle);{{$}}
  if (cublasDestroy(handle) != CUBLAS_STATUS_SUCCESS)
    exit(1);
}
