// Fix-its (only where the kind alone is wrong and not in a macro), notes at
// the allocations, and IgnoreSingleSide.
// RUN: %check_cuda_tidy_plugin --check-suffix=FIX %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver --check-suffix=FIX %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_plugin --check-suffix=NOTES %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_plugin --check-suffix=BOTH %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-memcpy-direction.IgnoreSingleSide: true}}"
// RUN: %check_cuda_tidy_driver --check-suffix=BOTH %s cuda-memcpy-direction %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-memcpy-direction.IgnoreSingleSide: true}}"

#include "error_macros.h"
#include <cstdlib>

extern float *unknown_source(size_t n);
__constant__ float c_filter[64];

void fixes(size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyDeviceToDevice);
  // CHECK-MESSAGES-FIX: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies from host memory 'h' to device memory 'd', but the kind is cudaMemcpyDeviceToDevice; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-2]]:3: warning: 'cudaMemcpy' copies from host memory 'h' to device memory 'd', but the kind is cudaMemcpyDeviceToDevice; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-4]]:3: note: device memory allocated here by 'cudaMalloc'
  // CHECK-NOTES-NOTES: :[[@LINE-7]]:23: note: host memory allocated here by 'malloc'
  // CHECK-MESSAGES-BOTH: :[[@LINE-5]]:3: warning: 'cudaMemcpy' copies from host memory 'h' to device memory 'd', but the kind is cudaMemcpyDeviceToDevice; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-FIXES-FIX: cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  float *d2;
  cudaMalloc(&d2, n * sizeof(float));
  cudaMemcpyAsync(d2,
  // CHECK-MESSAGES-FIX: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' copies from device memory 'd' to device memory 'd2', but the kind is cudaMemcpyHostToHost; it should be cudaMemcpyDeviceToDevice [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-2]]:3: warning: 'cudaMemcpyAsync' copies from device memory 'd' to device memory 'd2', but the kind is cudaMemcpyHostToHost; it should be cudaMemcpyDeviceToDevice [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-4]]:3: note: device memory allocated here by 'cudaMalloc'
  // CHECK-NOTES-NOTES: :[[@LINE-14]]:3: note: device memory allocated here by 'cudaMalloc'
  // CHECK-MESSAGES-BOTH: :[[@LINE-5]]:3: warning: 'cudaMemcpyAsync' copies from device memory 'd' to device memory 'd2', but the kind is cudaMemcpyHostToHost; it should be cudaMemcpyDeviceToDevice [cuda-memcpy-direction]
                  d, n * sizeof(float), cudaMemcpyHostToHost, 0);
  // CHECK-FIXES-FIX: d, n * sizeof(float), cudaMemcpyDeviceToDevice, 0);

  // No fix-it inside a macro: the kind may be spelled by the macro's user
  // for other calls too.
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToHost));
  // CHECK-MESSAGES-FIX: :[[@LINE-1]]:14: warning: 'cudaMemcpy' copies from host memory 'h' to device memory 'd', but the kind is cudaMemcpyHostToHost; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-2]]:14: warning: 'cudaMemcpy' copies from host memory 'h' to device memory 'd', but the kind is cudaMemcpyHostToHost; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-24]]:3: note: device memory allocated here by 'cudaMalloc'
  // CHECK-NOTES-NOTES: :[[@LINE-27]]:23: note: host memory allocated here by 'malloc'
  // CHECK-MESSAGES-BOTH: :[[@LINE-5]]:14: warning: 'cudaMemcpy' copies from host memory 'h' to device memory 'd', but the kind is cudaMemcpyHostToHost; it should be cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-FIXES-FIX: CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToHost));

  // Swapped arguments: no fix-it, either change would do.
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK-MESSAGES-FIX: :[[@LINE-1]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-2]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-35]]:23: note: host memory allocated here by 'malloc'
  // CHECK-NOTES-NOTES: :[[@LINE-34]]:3: note: device memory allocated here by 'cudaMalloc'
  // CHECK-MESSAGES-BOTH: :[[@LINE-5]]:3: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  // CHECK-FIXES-FIX: cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyHostToDevice);

  // The kind left to its default argument: no fix-it (it would have to add
  // the offset and the kind).
  cudaMemcpyToSymbol(c_filter, d, sizeof(c_filter));
  // CHECK-MESSAGES-FIX: :[[@LINE-1]]:3: warning: 'cudaMemcpyToSymbol' copies from device memory 'd' to the symbol 'c_filter', but the kind is cudaMemcpyHostToDevice; it should be cudaMemcpyDeviceToDevice [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-2]]:3: warning: 'cudaMemcpyToSymbol' copies from device memory 'd' to the symbol 'c_filter', but the kind is cudaMemcpyHostToDevice; it should be cudaMemcpyDeviceToDevice [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-43]]:3: note: device memory allocated here by 'cudaMalloc'
  // CHECK-MESSAGES-BOTH: :[[@LINE-4]]:3: warning: 'cudaMemcpyToSymbol' copies from device memory 'd' to the symbol 'c_filter', but the kind is cudaMemcpyHostToDevice; it should be cudaMemcpyDeviceToDevice [cuda-memcpy-direction]
  // CHECK-FIXES-FIX: cudaMemcpyToSymbol(c_filter, d, sizeof(c_filter));

  // One side unknown: reported unless IgnoreSingleSide.
  float *u = unknown_source(n);
  cudaMemcpy(u, d, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK-MESSAGES-FIX: :[[@LINE-1]]:3: warning: 'cudaMemcpy' with kind cudaMemcpyHostToDevice expects host memory as its source, but 'd' is device memory [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-2]]:3: warning: 'cudaMemcpy' with kind cudaMemcpyHostToDevice expects host memory as its source, but 'd' is device memory [cuda-memcpy-direction]
  // CHECK-NOTES-NOTES: :[[@LINE-52]]:3: note: device memory allocated here by 'cudaMalloc'
}
