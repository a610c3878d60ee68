// RUN: %check_no_crash %s
// CUDA graphs: stream capture, explicit construction with kernel and
// memcpy nodes, instantiation, update, launch, and destruction.
#include "common.cuh"

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 12;
  float *x = nullptr, *y = nullptr, *h = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // Captured.
  cudaGraph_t captured;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemsetAsync(y, 0, n * sizeof(float), stream));
  axpy<<<(n + 255) / 256, 256, 0, stream>>>(2.0f, x, y, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpyAsync(h, y, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamEndCapture(stream, &captured));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, captured, 0));
  for (int it = 0; it < 3; ++it)
    CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));

  // Built by hand.
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  float a = 3.0f;
  int nn = n;
  void *args[] = {&a, &x, &y, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)axpy;
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  cudaGraphNode_t kernelNode, copyNode;
  CHECK(cudaGraphAddKernelNode(&kernelNode, graph, nullptr, 0, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&copyNode, graph, &kernelNode, 1, h, y,
                                 n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaGraphExec_t exec2;
  CHECK(cudaGraphInstantiate(&exec2, graph, 0));
  a = 4.0f;
  CHECK(cudaGraphExecKernelNodeSetParams(exec2, kernelNode, &kp));
  CHECK(cudaGraphLaunch(exec2, stream));
  CHECK(cudaStreamSynchronize(stream));

  CHECK(cudaGraphExecDestroy(exec2));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(captured));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFreeHost(h));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return 0;
}
