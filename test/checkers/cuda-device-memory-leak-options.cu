// IgnoreMainExit and CheckedResources.
// RUN: %check_cuda_tidy_plugin --check-suffix=DEFAULT %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver --check-suffix=DEFAULT %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_plugin --check-suffix=CUSTOM %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-device-memory-leak.IgnoreMainExit: true, cuda-device-memory-leak.CheckedResources: 'Graphs;GraphExecs;TextureObjects'}}"
// RUN: %check_cuda_tidy_driver --check-suffix=CUSTOM %s cuda-device-memory-leak %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-device-memory-leak.IgnoreMainExit: true, cuda-device-memory-leak.CheckedResources: 'Graphs;GraphExecs;TextureObjects'}}"

#include "error_macros.h"

void streamAndGraph(cudaStream_t s) {
  cudaStream_t worker;
  CUDA_CHECK(cudaStreamCreateWithFlags(&worker, cudaStreamNonBlocking));
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:14: warning: stream allocated into 'worker' by 'cudaStreamCreateWithFlags' is not destroyed on every path [cuda-device-memory-leak]
  cudaGraph_t graph;
  CUDA_CHECK(cudaGraphCreate(&graph, 0));
  // CHECK-MESSAGES-CUSTOM: :[[@LINE-1]]:14: warning: graph allocated into 'graph' by 'cudaGraphCreate' is not destroyed on every path [cuda-device-memory-leak]
  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CUDA_CHECK(cudaGraphLaunch(exec, s));
  CUDA_CHECK(cudaGraphExecDestroy(exec));
}

void texture(cudaResourceDesc *res, cudaTextureDesc *tex) {
  cudaTextureObject_t obj;
  CUDA_CHECK(cudaCreateTextureObject(&obj, res, tex, nullptr));
  // CHECK-MESSAGES-CUSTOM: :[[@LINE-1]]:14: warning: texture object allocated into 'obj' by 'cudaCreateTextureObject' is not destroyed on every path [cuda-device-memory-leak]
}

int main() {
  float *d;
  CUDA_CHECK(cudaMalloc(&d, 64));
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:14: warning: device memory allocated into 'd' by 'cudaMalloc' is not freed on every path [cuda-device-memory-leak]
  return 0;
}
