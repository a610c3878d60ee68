// Scales batches of samples on a worker context of its own, created with the
// driver API beside the runtime's primary context that main works in. Each
// batch is scaled by scale_batch(), which makes the worker context current
// for its work and pops it when it is done.
//
// Fixed: an empty batch pops the worker context before it returns, so main
// finds its own context current after the batches.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult err_ = (call);                                                    \
    if (err_ != CUDA_SUCCESS) {                                                \
      const char *msg_ = nullptr;                                              \
      if (cuGetErrorString(err_, &msg_) != CUDA_SUCCESS)                       \
        msg_ = nullptr;                                                        \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,     \
              msg_ ? msg_ : "unknown error");                                  \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#define RT_CHECK(call)                                                         \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,     \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__global__ void scale(float *x, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= factor;
}

// Scales one batch in the worker context. Returns 0 on success.
static int scale_batch(CUcontext worker, std::vector<float> &batch,
                       float factor) {
  if (cuCtxPushCurrent(worker) != CUDA_SUCCESS)
    return 1;
  int n = static_cast<int>(batch.size());
  if (n == 0) {
    CU_CHECK(cuCtxPopCurrent(nullptr));
    return 0; // nothing to scale
  }
  size_t bytes = n * sizeof(float);
  float *d = nullptr;
  if (cudaMalloc(&d, bytes) != cudaSuccess) {
    CU_CHECK(cuCtxPopCurrent(nullptr));
    return 1;
  }
  int status = 0;
  if (cudaMemcpy(d, batch.data(), bytes, cudaMemcpyHostToDevice) !=
      cudaSuccess)
    status = 1;
  if (status == 0) {
    scale<<<(n + 255) / 256, 256>>>(d, n, factor);
    if (cudaGetLastError() != cudaSuccess ||
        cudaMemcpy(batch.data(), d, bytes, cudaMemcpyDeviceToHost) !=
            cudaSuccess)
      status = 1;
  }
  RT_CHECK(cudaFree(d));
  CU_CHECK(cuCtxPopCurrent(nullptr));
  return status;
}

int main() {
  // main works in the runtime's primary context.
  RT_CHECK(cudaSetDevice(0));
  RT_CHECK(cudaFree(nullptr));
  CUcontext primary = nullptr;
  CU_CHECK(cuCtxGetCurrent(&primary));

  // The worker context: created (and so pushed), then popped until used.
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
  CUcontext worker = nullptr;
  CU_CHECK(cuCtxCreate(&worker, nullptr, 0, dev));
  CU_CHECK(cuCtxPopCurrent(nullptr));

  const int sizes[] = {1000, 0, 4096};
  std::vector<std::vector<float>> batches;
  for (int n : sizes) {
    std::vector<float> b(n);
    for (int i = 0; i < n; ++i)
      b[i] = static_cast<float>(i % 97);
    batches.push_back(b);
  }
  for (std::vector<float> &b : batches)
    if (scale_batch(worker, b, 0.5f) != 0) {
      fprintf(stderr, "FAILED: a batch could not be scaled\n");
      return 1;
    }

  CUcontext current = nullptr;
  CU_CHECK(cuCtxGetCurrent(&current));
  if (current != primary) {
    fprintf(stderr, "FAILED: after the batches the current context is %s, "
                    "not main's primary context\n",
            current == worker ? "the worker context" : "another context");
    return 1;
  }
  int wrong = 0;
  for (const std::vector<float> &b : batches)
    for (size_t i = 0; i < b.size(); ++i)
      if (b[i] != 0.5f * static_cast<float>(i % 97))
        ++wrong;
  if (wrong) {
    fprintf(stderr, "FAILED: %d values wrong\n", wrong);
    return 1;
  }
  CU_CHECK(cuCtxDestroy(worker));
  printf("PASSED: %zu batches scaled in the worker context\n",
         batches.size());
  return 0;
}
