// cuda-api-outside-main: namespace-scope objects of one translation unit are
// constructed in the order of their definitions. The first whose
// constructor uses CUDA sets the runtime up: it and those defined after it
// are destroyed before the runtime's teardown; those defined before it,
// after.
// RUN: %check_cuda_tidy_plugin %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-api-outside-main %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"

struct Events {
  cudaEvent_t e = nullptr;
  ~Events() { cudaEventDestroy(e); }
};
Events early_events;
// CHECK-NOTES: :[[@LINE-3]]:15: warning: 'cudaEventDestroy' is called after main returns, when the CUDA runtime is already shut down [cuda-api-outside-main]
// CHECK-NOTES: :[[@LINE-2]]:8: note: 'early_events' is constructed before the first CUDA call, so it is destroyed after the CUDA runtime's teardown

struct Workspace {
  float *d = nullptr;
  Workspace() { CUDA_CHECK(cudaMalloc(&d, 256)); }
  ~Workspace() { cudaFree(d); }
};
Workspace workspace;
// CHECK-NOTES: :[[@LINE-4]]:28: warning: 'cudaMalloc' is called before main starts, when the CUDA runtime may not be set up [cuda-api-outside-main]
// CHECK-NOTES: :[[@LINE-2]]:11: note: 'workspace' has static storage duration; its initializer runs before main
// CHECK-NOTES: :[[@LINE-5]]:18: warning: 'cudaFree' is called after main returns; it works only because 'workspace' is constructed after the CUDA runtime is set up, and so destroyed before the runtime's teardown [cuda-api-outside-main]
// CHECK-NOTES: :[[@LINE-4]]:11: note: 'workspace' has static storage duration; its destructor runs after main returns
// CHECK-NOTES: :[[@LINE-8]]:28: note: the CUDA runtime is first used here, before 'workspace' is constructed

struct Scratch {
  float *d = nullptr;
  ~Scratch() { cudaFree(d); }
};
Scratch scratch;
// CHECK-NOTES: :[[@LINE-3]]:16: warning: 'cudaFree' is called after main returns; it works only because 'scratch' is constructed after the CUDA runtime is set up, and so destroyed before the runtime's teardown [cuda-api-outside-main]
// CHECK-NOTES: :[[@LINE-2]]:9: note: 'scratch' has static storage duration; its destructor runs after main returns
// CHECK-NOTES: :[[@LINE-17]]:28: note: the CUDA runtime is first used here, before 'scratch' is constructed

// A Meyers singleton: constructed in main, after 'workspace' set the
// runtime up before main.
struct Registry {
  cudaStream_t s = nullptr;
  ~Registry() { cudaStreamDestroy(s); }
};
Registry &registry() {
  static Registry r;
// CHECK-NOTES: :[[@LINE-4]]:17: warning: 'cudaStreamDestroy' is called after main returns; it works only because 'r' is constructed after the CUDA runtime is set up, and so destroyed before the runtime's teardown [cuda-api-outside-main]
// CHECK-NOTES: :[[@LINE-2]]:19: note: 'r' has static storage duration; its destructor runs after main returns
// CHECK-NOTES: :[[@LINE-29]]:28: note: the CUDA runtime is first used here, before 'r' is constructed
  return r;
}

int main() {
  Registry &r = registry();
  CUDA_CHECK(cudaStreamCreate(&r.s));
  CUDA_CHECK(cudaEventCreate(&early_events.e));
  return 0;
}
