// cuda-callback-api-call: a note at the call that enqueues the callback, and
// at the call through which the CUDA call is reached; CheckManagedAccess.
// RUN: %check_cuda_tidy_plugin %s cuda-callback-api-call %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-callback-api-call %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver --check-suffix=NOMANAGED %s cuda-callback-api-call %t.nm -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-callback-api-call.CheckManagedAccess: false}}"

#include "error_macros.h"

__managed__ int managed_flag;

void release(void *p) { cudaFree(p); }
void CUDART_CB on_done(void *p) { release(p); }
// CHECK-NOTES: :[[@LINE-2]]:25: warning: 'cudaFree' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
// CHECK-NOTES-NOMANAGED: :[[@LINE-3]]:25: warning: 'cudaFree' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]

void enqueue(cudaStream_t s, void *p) {
  CUDA_CHECK(cudaLaunchHostFunc(s, on_done, p));
  // CHECK-NOTES: :[[@LINE-1]]:14: note: 'on_done' is enqueued here with 'cudaLaunchHostFunc'
  // CHECK-NOTES: :[[@LINE-7]]:35: note: reached through this call
  // CHECK-NOTES-NOMANAGED: :[[@LINE-3]]:14: note: 'on_done' is enqueued here with 'cudaLaunchHostFunc'
  // CHECK-NOTES-NOMANAGED: :[[@LINE-9]]:35: note: reached through this call
}

void CUDART_CB read_flag(void *) { managed_flag = 1; }
// CHECK-NOTES: :[[@LINE-1]]:36: warning: __managed__ variable 'managed_flag' is accessed in a stream callback, while kernels on other streams may use it [cuda-callback-api-call]

void enqueue_flag(cudaStream_t s) {
  CUDA_CHECK(cudaLaunchHostFunc(s, read_flag, nullptr));
  // CHECK-NOTES: :[[@LINE-1]]:14: note: 'read_flag' is enqueued here with 'cudaLaunchHostFunc'
}
