// cuda-device-memory-leak: what does not count as an escape. A local copy or
// offset view of a file-scope buffer is followed through its uses; a pointer
// passed by reference (forwarding references too) is followed into the
// callee; a pointer handed to a harness that calls its function-pointer
// argument is followed into the function the caller passes.
// RUN: %check_cuda_tidy_plugin %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <utility>

__global__ void touch(float *p) { p[threadIdx.x] = 0.f; }
void registerBuffer(float *p);
using Step = void (*)(float *);
Step pickStep();

// ---------------------------------------------------------------------------
// Positive cases.
// ---------------------------------------------------------------------------

// A file-scope buffer read through a local view and a local copy.
float *g_field = nullptr;

void initField(int n) {
  CUDA_CHECK(cudaMalloc(&g_field, 2 * n * sizeof(float)));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: device memory allocated into file-scope variable 'g_field' by 'cudaMalloc' is never freed [cuda-device-memory-leak]
}
void stepField(int n) {
  float *upper = g_field + n;
  touch<<<1, 32>>>(upper);
  float *base;
  base = g_field;
  touch<<<1, 32>>>(base + 1);
}

// Passed by reference to a helper that only launches with it.
void launchRef(float *&p) { touch<<<1, 32>>>(p); }
void launchConstRef(float *const &p) { touch<<<1, 32>>>(p); }

void byReference() {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 256));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  launchRef(d);
  launchConstRef(d);
}

// Passed through a forwarding reference.
template <typename P> void launchForwarded(P &&p) {
  touch<<<1, 32>>>(std::forward<P>(p));
}

void byForwardingReference() {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 256));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  launchForwarded(d);
}

// A benchmark harness that calls the function it is given.
void runOnce(float *p) { touch<<<1, 32>>>(p); }

float timeIt(void (*fn)(float *), float *arg, int reps) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int i = 0; i < reps; ++i)
    fn(arg);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0.f;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / reps;
}

template <typename F, typename... Args>
void repeat(F f, int reps, Args... args) {
  for (int i = 0; i < reps; ++i)
    f(args...);
}

void benchmark() {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 256));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  printf("%f ms\n", timeIt(runOnce, d, 10));
  repeat(runOnce, 3, d);
}

// ---------------------------------------------------------------------------
// Negative cases.
// ---------------------------------------------------------------------------

// Freed through a local copy.
float *g_lut = nullptr;
void initLut() { CUDA_CHECK(cudaMalloc(&g_lut, 1024)); }
void releaseLut() {
  float *p = g_lut;
  CUDA_CHECK(cudaFree(p));
}

// A view handed to code that may keep it, or stored elsewhere.
float *g_kept = nullptr;
float *g_copied = nullptr;
float *g_elsewhere = nullptr;
void initKept() {
  CUDA_CHECK(cudaMalloc(&g_kept, 1024));
  CUDA_CHECK(cudaMalloc(&g_copied, 1024));
}
void keepView() {
  float *v = g_kept + 4;
  registerBuffer(v);
  float *w = g_copied;
  g_elsewhere = w;
}

// Freed through a reference, the safe-free idiom.
void safeFree(float *&p) {
  if (p)
    cudaFree(p);
  p = nullptr;
}
void freedByReference() {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 256));
  launchRef(d);
  safeFree(d);
}

// A reference parameter that the callee replaces: the caller's pointer
// changes, so the callee may keep the old value.
void swapIn(float *&p, float *other) { p = other; }
void replacedByReference(float *other) {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 256));
  swapIn(d, other);
}

// The harness is given a function that frees, or keeps, or is not known.
void releaseStep(float *p) { cudaFree(p); }
void keepStep(float *p) { registerBuffer(p); }
void harnessFrees() {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 256));
  timeIt(runOnce, d, 10);
  timeIt(releaseStep, d, 1);
}
void harnessKeeps() {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 256));
  timeIt(keepStep, d, 1);
}
void harnessUnknown() {
  float *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 256));
  timeIt(pickStep(), d, 1);
  Step s = pickStep();
  repeat(s, 2, d);
}
