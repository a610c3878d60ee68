// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-api-call %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-api-call %t -- --extra-arg=-I%S/../Inputs

// Templates that this file never instantiates: their patterns are analysed.
// Calls whose callee is known whatever the template arguments are checked;
// what depends on the arguments stays silent.

#include "error_macros.h"
#include <cstddef>

// A header's hash table: retrieve_all is never called in this file.
template <typename Key, typename Value> class DeviceMap {
public:
  void retrieve_all(Key *keys, Value *values, size_t n) {
    cudaMemcpy(keys, d_keys, n * sizeof(Key), cudaMemcpyDeviceToHost);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the error code returned by 'cudaMemcpy' is not checked [cuda-unchecked-api-call]
    cudaMemcpy(values, d_values, n * sizeof(Value), cudaMemcpyDeviceToHost);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the error code returned by 'cudaMemcpy' is not checked [cuda-unchecked-api-call]
  }
  void clear() {
    cudaMemset(d_keys, 0, capacity * sizeof(Key));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the error code returned by 'cudaMemset' is not checked [cuda-unchecked-api-call]
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the error code returned by 'cudaDeviceSynchronize' is not checked [cuda-unchecked-api-call]
  }
  void reserve(size_t n) {
    // A dependent out-parameter: the call is resolved only at instantiation,
    // but every candidate is cudaMalloc.
    cudaMalloc(&d_keys, n * sizeof(Key));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
    checkCudaErrors(cudaMalloc(&d_values, n * sizeof(Value)));
    capacity = n;
  }
  // Checked in every idiomatic way: silent.
  bool checkedCopies(Key *keys, size_t n) {
    cudaError_t err = cudaMemcpy(keys, d_keys, n * sizeof(Key),
                                 cudaMemcpyDeviceToHost);
    if (err != cudaSuccess)
      return false;
    HANDLE_ERROR(cudaMemcpy(d_keys, keys, n * sizeof(Key),
                            cudaMemcpyHostToDevice));
    return cudaDeviceSynchronize() == cudaSuccess;
  }
  ~DeviceMap() {
    cudaFree(d_keys); // A release in a destructor (AllowReleaseInDestructors).
    cudaFree(d_values);
  }

private:
  Key *d_keys = nullptr;
  Value *d_values = nullptr;
  size_t capacity = 0;
};

// A function template with no instantiation here.
template <typename T> cudaError_t upload(T *d, const T *h, size_t n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaStreamCreate' is not checked [cuda-unchecked-api-call]
  cudaError_t e = cudaMemcpyAsync(d, h, n * sizeof(T), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the error code returned by 'cudaMemcpyAsync' is stored in 'e' but never read [cuda-unchecked-api-call]
  return cudaStreamDestroy(s);
}

// Calls whose callee depends on the template arguments stay silent: a
// member of a dependent object, a function found by argument-dependent
// lookup, a call through a dependent callable.
template <typename Allocator, typename F> struct Generic {
  Allocator alloc;
  F onDone;
  void run(size_t n) {
    alloc.allocate(n);
    release(alloc);
    onDone();
    (void)cudaGetLastError();
  }
};

// An error code that a dependent helper examines.
template <typename Policy> void reported(float *d) {
  Policy::check(cudaFree(d));
  Policy::report(cudaDeviceSynchronize(), "sync");
}

// Instantiated: analysed once, through its instantiation, reported once.
template <typename T> void instantiated(T *d) {
  cudaFree(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
}
template void instantiated<float>(float *);
template void instantiated<int>(int *);

// Generic lambdas nobody calls.
void lambdas() {
  auto checkedFree = [](auto *p) { return cudaFree(p); };
  auto uncheckedClear = [](auto *p, size_t n) {
    cudaMemset(p, 0, n * sizeof(*p));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the error code returned by 'cudaMemset' is not checked [cuda-unchecked-api-call]
  };
  (void)checkedFree;
  (void)uncheckedClear;
}
