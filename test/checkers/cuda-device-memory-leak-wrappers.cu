// cuda-device-memory-leak: allocations and frees through the program's own
// wrappers, and branches that test the same unchanging variable twice.
// RUN: %check_cuda_tidy_plugin %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdio>
#include <cstdlib>

__global__ void consume(const float *d, size_t n) {}

// Wrappers: allocation through an out-parameter, release of a void pointer.
void allocDevice(void **p, size_t bytes) { CUDA_CHECK(cudaMalloc(p, bytes)); }
template <class T> void allocTyped(T **p, size_t n) {
  CUDA_CHECK(cudaMalloc((void **)p, n * sizeof(T)));
}
cudaError_t allocStatus(void **p, size_t bytes) { return cudaMalloc(p, bytes); }
void freeDevice(void *p) { CUDA_CHECK(cudaFree(p)); }

// ---------------------------------------------------------------------------
// Positive cases.
// ---------------------------------------------------------------------------

void wrapperNeverFreed(size_t n) {
  float *d = nullptr;
  allocDevice((void **)&d, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory allocated into 'd' by 'allocDevice' is not freed on every path [cuda-device-memory-leak]
  consume<<<1, 32>>>(d, n);
}

void typedWrapperEarlyReturn(size_t n, bool quick) {
  int *d = nullptr;
  allocTyped(&d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device memory allocated into 'd' by 'allocTyped' is not freed on every path [cuda-device-memory-leak]
  if (quick)
    return;
  freeDevice(d);
}

// Wrappers that return the allocation, their local set to null first by a
// cast ('(void *)0', C's NULL) or by value-initialization ('void *p{}').
void *allocNullCast(size_t bytes) {
  void *p = (void *)0;
  CUDA_CHECK(cudaMalloc(&p, bytes));
  return p;
}
void *allocValueInit(size_t bytes) {
  void *p{};
  if (cudaMalloc(&p, bytes) != cudaSuccess)
    return (void *)0;
  return p;
}

void returnedByCastNullWrapper(size_t n, bool quick) {
  void *d = allocNullCast(n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: device memory allocated into 'd' by 'allocNullCast' is not freed on every path [cuda-device-memory-leak]
  if (quick)
    return;
  freeDevice(d);
}

void returnedByValueInitWrapper(size_t n) {
  void *d = allocValueInit(n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: device memory allocated into 'd' by 'allocValueInit' is not freed on every path [cuda-device-memory-leak]
  consume<<<1, 32>>>((const float *)d, n);
}

// ---------------------------------------------------------------------------
// Negative cases.
// ---------------------------------------------------------------------------

void returnedAndFreed(size_t n) {
  void *d = allocValueInit(n * sizeof(float));
  if (!d)
    return;
  consume<<<1, 32>>>((const float *)d, n);
  freeDevice(d);
}

void wrapperPair(size_t n) {
  float *d = nullptr;
  allocDevice((void **)&d, n * sizeof(float));
  consume<<<1, 32>>>(d, n);
  freeDevice(d);
}

void statusWrapperChecked(size_t n) {
  float *d = nullptr;
  if (allocStatus((void **)&d, n * sizeof(float)) != cudaSuccess)
    return;
  consume<<<1, 32>>>(d, n);
  freeDevice(d);
}

enum class Mode { Plain, Staged, Mapped };

// The allocation and the free sit under two switches on one parameter.
void switchedTwice(Mode mode, size_t n) {
  float *staging = nullptr;
  switch (mode) {
  case Mode::Staged:
    CUDA_CHECK(cudaMalloc(&staging, n * sizeof(float)));
    break;
  case Mode::Plain:
  case Mode::Mapped:
    break;
  }
  consume<<<1, 32>>>(staging, n);
  switch (mode) {
  case Mode::Staged:
    CUDA_CHECK(cudaFree(staging));
    break;
  default:
    break;
  }
}

// Several cases share the allocation; each frees in its own case later.
void sharedCases(Mode mode, size_t n) {
  float *d = nullptr;
  switch (mode) {
  case Mode::Plain:
  case Mode::Staged:
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
    break;
  case Mode::Mapped:
    return;
  }
  consume<<<1, 32>>>(d, n);
  switch (mode) {
  case Mode::Plain:
    CUDA_CHECK(cudaFree(d));
    break;
  case Mode::Staged:
    CUDA_CHECK(cudaFree(d));
    break;
  case Mode::Mapped:
    break;
  }
}

// The same with two plain tests of a flag.
void testedTwice(bool useScratch, size_t n) {
  float *scratch = nullptr;
  if (useScratch)
    CUDA_CHECK(cudaMalloc(&scratch, n * sizeof(float)));
  consume<<<1, 32>>>(scratch, n);
  if (useScratch)
    CUDA_CHECK(cudaFree(scratch));
}

// An integer mode compared with a constant.
void comparedTwice(int level, size_t n) {
  float *d = nullptr;
  if (level == 2)
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  consume<<<1, 32>>>(d, n);
  if (level != 2)
    return;
  CUDA_CHECK(cudaFree(d));
}

// An error macro that throws: the failure paths end the function with an
// exception, not with a leak.
#define CHECK_OR_THROW(call) if ((call) != cudaSuccess) throw "cuda error";
int throwingChecks(size_t n) {
  float *a = nullptr, *b = nullptr;
  CHECK_OR_THROW(cudaMalloc((void **)&a, n));
  CHECK_OR_THROW(cudaMalloc((void **)&b, n));
  consume<<<1, 32>>>(a, n);
  CHECK_OR_THROW(cudaFree(a));
  CHECK_OR_THROW(cudaFree(b));
  return 0;
}

// An error macro that evaluates its argument again for the message, then
// exits: the second allocation is lost only on the way out of the program.
#define CHECK_TWICE(status)                                                    \
  if (status != cudaSuccess) {                                                 \
    fprintf(stderr, "error %s (%d)\n", cudaGetErrorString(status), status);   \
    exit(EXIT_FAILURE);                                                        \
  }
void reEvaluatingMacro(size_t n) {
  float *d = nullptr;
  CHECK_TWICE(cudaMalloc((void **)&d, n));
  consume<<<1, 32>>>(d, n);
  CHECK_TWICE(cudaFree(d));
}

// A helper whose flag picks the memory: device memory for 1, host memory
// for 0. It is no device allocator: what it returns depends on the call.
float *allocOnEither(size_t n, int onDevice) {
  float *p;
  if (onDevice) {
    CUDA_CHECK(cudaMalloc((void **)&p, n * sizeof(float)));
  } else {
    p = (float *)malloc(n * sizeof(float));
  }
  return p;
}

void hostFromEither(size_t n) {
  float *h = allocOnEither(n, 0);
  h[0] = 1.0f;
  free(h);
}

// A helper that always returns device memory stays an allocator.
float *allocOnDevice(size_t n) {
  float *p = nullptr;
  CUDA_CHECK(cudaMalloc((void **)&p, n * sizeof(float)));
  return p;
}

void deviceNeverFreed(size_t n) {
  float *d = allocOnDevice(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'allocOnDevice' is not freed on every path [cuda-device-memory-leak]
  consume<<<1, 32>>>(d, n);
}
