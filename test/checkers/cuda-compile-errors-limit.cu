// A missing header makes more errors than clang's limit (20 by default).
// Past the limit clang stops with a fatal error, after which it includes
// and instantiates nothing: every later call of cudaMalloc's template
// overload fails and the functions after the 20th error were lost. The
// driver keeps compiling and shows only the first errors, as the limit
// asks; the findings after them are reported.
// RUN: %check_cuda_tidy_driver --compile-errors %s 'cuda-*' %t

#include <cuda_runtime.h>
#include "thirdparty/tensor_view.h"
// CHECK-MESSAGES: :[[@LINE-1]]:10: error: 'thirdparty/tensor_view.h' file not found [clang-diagnostic-error]

void trace_all(int n) {
  tv::trace(0, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(1, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(2, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(3, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(4, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(5, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(6, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(7, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(8, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(9, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(10, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(11, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(12, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(13, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(14, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(15, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(16, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(17, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  tv::trace(18, n);
  tv::trace(19, n);
  tv::trace(20, n);
  tv::trace(21, n);
  tv::trace(22, n);
  tv::trace(23, n);
}

float *grow(int n) {
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  return d;
}
