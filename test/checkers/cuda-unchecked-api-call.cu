// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-api-call %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-api-call %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <memory>
#include <vector>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

__constant__ float coeffs[16];

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= coeffs[i % 16];
}

// ---------------------------------------------------------------------------
// Positive cases: the error code is thrown away.
// ---------------------------------------------------------------------------

void bareCalls(float *h, size_t n) {
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMemcpy' is not checked [cuda-unchecked-api-call]
  cudaMemset(d, 0, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMemset' is not checked [cuda-unchecked-api-call]
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaDeviceSynchronize' is not checked [cuda-unchecked-api-call]
  cudaFree(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
}

void streamsAndEvents(float *h, float *d, size_t n) {
  cudaStream_t s;
  cudaEvent_t e;
  cudaStreamCreate(&s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaStreamCreate' is not checked [cuda-unchecked-api-call]
  checkCudaErrors(cudaEventCreate(&e));
  for (int chunk = 0; chunk < 4; ++chunk)
    cudaMemcpyAsync(d + chunk * n, h + chunk * n, n * sizeof(float),
                    cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: the error code returned by 'cudaMemcpyAsync' is not checked [cuda-unchecked-api-call]
  cudaEventRecord(e, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaEventRecord' is not checked [cuda-unchecked-api-call]
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaStreamSynchronize' is not checked [cuda-unchecked-api-call]
  checkCudaErrors(cudaEventDestroy(e));
  checkCudaErrors(cudaStreamDestroy(s));
}

void symbols(const float *h) {
  cudaMemcpyToSymbol(coeffs, h, 16 * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMemcpyToSymbol' is not checked [cuda-unchecked-api-call]
}

// A status variable that nobody reads.
int storedNeverRead(float **d, size_t bytes) {
  cudaError_t err = cudaMalloc(d, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the error code returned by 'cudaMalloc' is stored in 'err' but never read [cuda-unchecked-api-call]
  return 0;
}

// The cuda-samples vectorAdd bug: the status is overwritten before the check.
int overwrittenBeforeRead(float *d, const float *h, size_t bytes) {
  cudaError_t err = cudaSuccess;
  err = cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the error code returned by 'cudaMemcpy' is stored in 'err' but never read [cuda-unchecked-api-call]
  err = cudaDeviceSynchronize();
  if (err != cudaSuccess)
    return 1;
  return 0;
}

void storedInLoop(float **bufs, int count, size_t bytes) {
  for (int i = 0; i < count; ++i) {
    cudaError_t status = cudaMalloc(&bufs[i], bytes);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the error code returned by 'cudaMalloc' is stored in 'status' but never read [cuda-unchecked-api-call]
  }
}

void commaAndBranches(float *d, bool reset) {
  int device = 0;
  cudaSetDevice(device), ++device;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaSetDevice' is not checked [cuda-unchecked-api-call]
  if (reset)
    cudaDeviceReset();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the error code returned by 'cudaDeviceReset' is not checked [cuda-unchecked-api-call]
}

void driverApi() {
  cuInit(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cuInit' is not checked [cuda-unchecked-api-call]
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
}

// Our own functions that return cudaError_t are checked too.
cudaError_t allocateBuffers(float **a, float **b, size_t bytes) {
  cudaError_t err = cudaMalloc(a, bytes);
  if (err != cudaSuccess)
    return err;
  return cudaMalloc(b, bytes);
}

void callsOwnWrapper(size_t bytes) {
  float *a, *b;
  allocateBuffers(&a, &b, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'allocateBuffers' is not checked [cuda-unchecked-api-call]
}

// Reported once, however many instantiations contain the call.
template <typename T> T *allocTyped(size_t n) {
  T *p = nullptr;
  cudaMalloc(&p, n * sizeof(T));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the error code returned by 'cudaMalloc' is not checked [cuda-unchecked-api-call]
  return p;
}
template float *allocTyped<float>(size_t);
template double *allocTyped<double>(size_t);

void inLambda(float *d) {
  auto release = [d]() {
    cudaFree(d);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the error code returned by 'cudaFree' is not checked [cuda-unchecked-api-call]
  };
  release();
}

struct Pipeline {
  cudaStream_t stream;
  float *buffer;
  void flush() {
    cudaStreamSynchronize(stream);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the error code returned by 'cudaStreamSynchronize' is not checked [cuda-unchecked-api-call]
  }
};

// ---------------------------------------------------------------------------
// Negative cases: idiomatic checked code.
// ---------------------------------------------------------------------------

void cudaSamplesStyle(float *h, size_t n) {
  float *d;
  checkCudaErrors(cudaMalloc(&d, n * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
  scale<<<(n + 255) / 256, 256>>>(d, n);
  getLastCudaError("scale kernel failed");
  checkCudaErrors(cudaFree(d));
}

void cudaByExampleStyle(float *h, size_t n) {
  float *d;
  HANDLE_ERROR(cudaMalloc((void **)&d, n * sizeof(float)));
  HANDLE_ERROR(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  HANDLE_ERROR(cudaFree(d));
}

void gpuErrchkStyle(float *d, size_t n) {
  gpuErrchk(cudaMemset(d, 0, n));
  gpuErrchk(cudaPeekAtLastError());
  gpuErrchk(cudaDeviceSynchronize());
}

void statementMacro(float **d, size_t n) {
  CUDA_CHECK(cudaMalloc(d, n));
  CUDA_CHECK(cudaDeviceSynchronize());
}

int comparedDirectly(float **d, size_t n) {
  if (cudaMalloc(d, n) != cudaSuccess)
    return -1;
  while (cudaStreamQuery(0) == cudaErrorNotReady) {
  }
  return 0;
}

int statusVariable(float **d, size_t n) {
  cudaError_t err = cudaMalloc(d, n);
  if (err != cudaSuccess) {
    fprintf(stderr, "cudaMalloc failed: %s\n", cudaGetErrorString(err));
    return 1;
  }
  err = cudaMemset(*d, 0, n);
  return err == cudaSuccess ? 0 : 1;
}

cudaError_t returned(float *d, const float *h, size_t n) {
  return cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
}

int gotoCleanup(size_t n) {
  float *a = nullptr, *b = nullptr;
  int rc = 1;
  cudaError_t err = cudaMalloc(&a, n);
  if (err != cudaSuccess)
    goto cleanup;
  err = cudaMalloc(&b, n);
  if (err != cudaSuccess)
    goto cleanup;
  rc = 0;
cleanup:
  (void)cudaFree(a);
  (void)cudaFree(b);
  return rc;
}

void readOnOnePath(float **d, size_t n, bool verbose) {
  cudaError_t err = cudaMalloc(d, n);
  if (verbose)
    printf("cudaMalloc: %s\n", cudaGetErrorString(err));
}

void accumulated(float **a, float **b, size_t n) {
  int failures = 0;
  failures += cudaMalloc(a, n) != cudaSuccess;
  failures += cudaMalloc(b, n) != cudaSuccess;
  if (failures)
    exit(1);
}

void logStatus(cudaError_t err, const char *what);
void passedOn(float *d, size_t n) {
  logStatus(cudaMemset(d, 0, n), "memset");
  switch (cudaStreamQuery(0)) {
  case cudaSuccess:
    break;
  default:
    break;
  }
}

void clearsStickyError() {
  // Reset the last error on purpose: ignored by default.
  cudaGetLastError();
}

// RAII: destructors and deleters cannot report, and drop the result.
class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t n) { CUDA_CHECK(cudaMalloc(&ptr_, n)); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  float *get() const { return ptr_; }

private:
  float *ptr_ = nullptr;
};

struct CudaDeleter {
  void operator()(void *p) const { cudaFree(p); }
};
using device_unique_ptr = std::unique_ptr<float, CudaDeleter>;

device_unique_ptr makeDeviceArray(size_t n) {
  float *p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(float)));
  return device_unique_ptr(p);
}

void lambdaDeleter(size_t n) {
  float *p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, n));
  std::unique_ptr<float, void (*)(float *)> owner(
      p, [](float *q) { cudaFree(q); });
}

class Status {
public:
  void record(float **d, size_t n) { last_ = cudaMalloc(d, n); }
  bool ok() const { return last_ == cudaSuccess; }

private:
  cudaError_t last_ = cudaSuccess;
};

float thrustSum(const std::vector<float> &h) {
  thrust::device_vector<float> d(h.begin(), h.end());
  scale<<<1, 256>>>(thrust::raw_pointer_cast(d.data()), (int)d.size());
  CUDA_CHECK(cudaGetLastError());
  return thrust::reduce(d.begin(), d.end(), 0.0f);
}

int pollWithStatus(cudaStream_t s) {
  cudaError_t err;
  while ((err = cudaStreamQuery(s)) == cudaErrorNotReady) {
  }
  return err == cudaSuccess;
}

void addressTaken(float **d, size_t n) {
  cudaError_t err = cudaMalloc(d, n);
  cudaError_t *where = &err;
  logStatus(*where, "malloc");
}
