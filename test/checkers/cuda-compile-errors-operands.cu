// Beside a missing header, a function whose body did not compile in part
// gets every check, not only the unchecked result, leak and launch checks.
// The memory-space, copy, launch-configuration and callback checks report
// a finding only when nothing that did not compile can change it: the
// statement it is reported on holds no recovery node, and it names no
// variable that an erroneous action (a call of the missing header) may act
// on or assign, and no file-scope variable.
// RUN: %check_cuda_tidy_plugin --compile-errors %s 'cuda-*,-cuda-unchecked-api-call' %t -- --extra-arg=-ferror-limit=0
// RUN: %check_cuda_tidy_driver --compile-errors %s 'cuda-*,-cuda-unchecked-api-call' %t -- --extra-arg=-ferror-limit=0

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include "thirdparty/tensor_view.h"
// CHECK-MESSAGES: :[[@LINE-1]]:10: error: 'thirdparty/tensor_view.h' file not found [clang-diagnostic-error]

// A type of the missing header, used at file scope.
tv::Shape global_shape;
// CHECK-MESSAGES: :[[@LINE-1]]:1: error: use of undeclared identifier 'tv' [clang-diagnostic-error]

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}

// ---- Positive: the bug does not involve what did not compile -------------

int copy_too_much(int n) {
  TV_TRACE("copy");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_TRACE' [clang-diagnostic-error]
  float *d;
  double *h = new double[n];
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(double), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'cudaMemcpy' copies 'n * sizeof(double)' bytes, more than the 'n * sizeof(float)' bytes of 'd' [cuda-memcpy-size]
  cudaFree(d);
  delete[] h;
  return e != cudaSuccess;
}

int copy_wrong_way(int n) {
  TV_TRACE("copy");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_TRACE' [clang-diagnostic-error]
  float *d;
  float *h = (float *)malloc(n * sizeof(float));
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the arguments of 'cudaMemcpy' look swapped: the destination 'h' is host memory and the source 'd' is device memory, but the kind is cudaMemcpyHostToDevice [cuda-memcpy-direction]
  cudaFree(d);
  free(h);
  return e != cudaSuccess;
}

void release_wrong(int n) {
  TV_TRACE("release");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_TRACE' [clang-diagnostic-error]
  float *h = (float *)malloc(n * sizeof(float));
  cudaFree(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is host memory, but it is released with 'cudaFree'; use free or delete [cuda-invalid-free]
}

void host_to_kernel(int n) {
  TV_TRACE("launch");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_TRACE' [clang-diagnostic-error]
  float *h = (float *)malloc(n * sizeof(float));
  fill<<<1, 256>>>(h, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: host memory 'h' is passed to kernel 'fill', which dereferences it on the device [cuda-wrong-memory-space]
  free(h);
}

void deref_device(int n) {
  TV_TRACE("deref");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_TRACE' [clang-diagnostic-error]
  float *d;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return;
  printf("%f\n", d[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: device memory 'd' is dereferenced on the host [cuda-wrong-memory-space]
  cudaFree(d);
}

void too_many_threads(float *d, int n) {
  TV_TRACE("launch");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_TRACE' [clang-diagnostic-error]
  fill<<<1, 2048>>>(d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of 'fill' asks for 2048 threads per block, more than the 1024 the device allows [cuda-launch-configuration]
}

void CUDART_CB free_when_done(void *p) {
  TV_TRACE("callback");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_TRACE' [clang-diagnostic-error]
  cudaFree(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
}

// An API that CUDA 13 removed, which typo correction completes: an action on
// the whole device, which changes no local variable's memory space.
int copy_after_removed_sync(int n) {
  float *d;
  double *h = new double[n];
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaThreadSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'cudaThreadSynchronize'; did you mean 'cudaDeviceSynchronize'? [clang-diagnostic-error]
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(double), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'cudaMemcpy' copies 'n * sizeof(double)' bytes, more than the 'n * sizeof(float)' bytes of 'd' [cuda-memcpy-size]
  cudaFree(d);
  delete[] h;
  return e != cudaSuccess;
}

// A local of a type the missing header declares (a plain declaration, with
// no initializer but a null one): its uses did not compile, the copy did.
int timed_copy(int n) {
  StopWatchInterface *timer = NULL;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: unknown type name 'StopWatchInterface' [clang-diagnostic-error]
  sdkCreateTimer(&timer);
  float *d;
  double *h = new double[n];
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(double), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'cudaMemcpy' copies 'n * sizeof(double)' bytes, more than the 'n * sizeof(float)' bytes of 'd' [cuda-memcpy-size]
  sdkStopTimer(&timer);
  cudaFree(d);
  delete[] h;
  return e != cudaSuccess;
}

// ---- Negative: the operand involves a name of the missing header ---------

// The header's timer is given the buffer.
int timed_copy_tracked(int n) {
  StopWatchInterface *timer = NULL;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: unknown type name 'StopWatchInterface' [clang-diagnostic-error]
  float *d;
  double *h = new double[n];
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  sdkTrackBuffer(timer, d);
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d);
  delete[] h;
  return e != cudaSuccess;
}

// `ns::undeclared(*d);` is read as a declaration of a new 'd': the function
// is not analysed at all.
void parenthesized(float *d, int n) {
  float *h = (float *)malloc(n * sizeof(float));
  legacy::release(*h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'legacy' [clang-diagnostic-error]
  cudaFree(h);
}

// A file-scope buffer, which the header's setup may replace.
float *g_buffer;
int copy_from_global(int n) {
  double *h = new double[n];
  if (cudaMalloc(&g_buffer, n * sizeof(float)) != cudaSuccess)
    return 1;
  tv::setup();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  cudaError_t e = cudaMemcpy(h, g_buffer, n * sizeof(double), cudaMemcpyDeviceToHost);
  delete[] h;
  return e != cudaSuccess;
}


// The size comes from the header.
int copy_header_size(int n) {
  float *d;
  double *h = new double[n];
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  size_t bytes = tv::bytes_of(h, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  cudaError_t e = cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d);
  delete[] h;
  return e != cudaSuccess;
}

// The header's helper may reallocate the buffer.
int copy_after_resize(int n) {
  float *d;
  double *h = new double[n];
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  tv::grow(&d, 2 * n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d);
  delete[] h;
  return e != cudaSuccess;
}

// The size is an expression of the header, in the call itself.
int copy_size_in_call(int n) {
  float *d;
  double *h = new double[n];
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaError_t e = cudaMemcpy(h, d, tv::bytes_for(n, 8), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  cudaFree(d);
  delete[] h;
  return e != cudaSuccess;
}

// The destination is what the header's conversion returns.
int copy_to_converted(int n) {
  float *d;
  float *h = (float *)malloc(n * sizeof(float));
  h = tv::pinned_view(h, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaFree(d);
  return e != cudaSuccess;
}

// The header may hand the buffer to the device allocator.
void release_adopted(int n) {
  float *h = (float *)malloc(n * sizeof(float));
  h = tv::adopt_device(h, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  cudaFree(h);
}

// The kernel gets the header's device alias of the host buffer.
void alias_to_kernel(int n) {
  float *h = (float *)malloc(n * sizeof(float));
  float *p = tv::device_alias(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  fill<<<1, 256>>>(p, n);
  free(h);
}

// The block size comes from the header.
void header_block(float *d, int n) {
  int threads = tv::kThreads * 8;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: error: use of undeclared identifier 'tv' [clang-diagnostic-error]
  fill<<<1, threads>>>(d, n);
}

// The callback only calls the header.
void CUDART_CB log_when_done(void *p) {
  TV_LOG(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_LOG' [clang-diagnostic-error]
}

// ---- Negative: idiomatic code beside the missing header ------------------

int copy_back(int n) {
  TV_TRACE("copy");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_TRACE' [clang-diagnostic-error]
  float *d;
  float *h = (float *)malloc(n * sizeof(float));
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  fill<<<(n + 255) / 256, 256>>>(d, n);
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (e == cudaSuccess)
    printf("%f\n", h[0]);
  cudaFree(d);
  free(h);
  return e != cudaSuccess;
}

void enqueue(cudaStream_t s, float *d) {
  TV_TRACE("enqueue");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'TV_TRACE' [clang-diagnostic-error]
  cudaLaunchHostFunc(s, free_when_done, d);
  cudaLaunchHostFunc(s, log_when_done, d);
}
