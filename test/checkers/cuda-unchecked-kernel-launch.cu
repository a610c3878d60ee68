// RUN: %check_cuda_tidy_plugin %s cuda-unchecked-kernel-launch %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unchecked-kernel-launch.ReportExportedLaunchers: true}}"
// RUN: %check_cuda_tidy_driver %s cuda-unchecked-kernel-launch %t -- --extra-arg=-I%S/../Inputs -config="{CheckOptions: {cuda-unchecked-kernel-launch.ReportExportedLaunchers: true}}"

#include "error_macros.h"
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <vector>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void fill(float *x, int n, float v) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] = v;
}

template <typename T> __global__ void zero(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = T(0);
}

static int blocksFor(int n) { return (n + 255) / 256; }

// ---------------------------------------------------------------------------
// Positive cases.
// ---------------------------------------------------------------------------

void noCheckAtAll(int n, float *x, float *y) {
  saxpy<<<blocksFor(n), 256>>>(n, 2.0f, x, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'saxpy' is not checked for errors on every path [cuda-unchecked-kernel-launch]
}

void uncheckedSyncDoesNotCount(int n, float *x, float *y, float *h) {
  saxpy<<<blocksFor(n), 256>>>(n, 2.0f, x, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'saxpy' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
}

void checkedOnOneBranchOnly(int n, float *x, bool debug) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  if (debug)
    CUDA_CHECK(cudaGetLastError());
}

void lastErrorDiscarded(int n, float *x) {
  fill<<<blocksFor(n), 256>>>(x, n, 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  cudaGetLastError();
  (void)cudaPeekAtLastError();
}

void lastErrorStoredNeverRead(int n, float *x) {
  fill<<<blocksFor(n), 256>>>(x, n, 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  cudaError_t err = cudaGetLastError();
}

void launchesInLoop(int n, float *x, int steps) {
  for (int s = 0; s < steps; ++s)
    fill<<<blocksFor(n), 256>>>(x, n, (float)s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
}

int earlyReturnSkipsCheck(int n, float *x, float *y, bool skipRest) {
  saxpy<<<blocksFor(n), 256>>>(n, 1.0f, x, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'saxpy' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  if (skipRest)
    return 0;
  CUDA_CHECK(cudaGetLastError());
  return 1;
}

void secondLaunchUnchecked(int n, float *x, float *y) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  CUDA_CHECK(cudaGetLastError());
  saxpy<<<blocksFor(n), 256>>>(n, 2.0f, x, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'saxpy' is not checked for errors on every path [cuda-unchecked-kernel-launch]
}

void streamSyncUnchecked(int n, float *x, cudaStream_t s) {
  fill<<<blocksFor(n), 256, 0, s>>>(x, n, 1.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  cudaStreamSynchronize(s);
}

void launchApiDiscarded(int n, float *x) {
  float v = 1.0f;
  void *args[] = {&x, &n, &v};
  cudaLaunchKernel((const void *)fill, dim3(blocksFor(n)), dim3(256), args, 0,
                   nullptr);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
}

template <typename T> void zeroAll(T *x, int n) {
  zero<T><<<blocksFor(n), 256>>>(x, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'zero' is not checked for errors on every path [cuda-unchecked-kernel-launch]
}
template void zeroAll<float>(float *, int);
template void zeroAll<double>(double *, int);

// A launcher whose callers in this file do not check: reported at the call.
static void launchFill(float *x, int n) {
  fill<<<blocksFor(n), 256>>>(x, n, 3.0f);
}

void callerForgets(float *x, int n) {
  launchFill(x, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'launchFill' launches kernel 'fill' whose error is not checked on every path [cuda-unchecked-kernel-launch]
}

// A helper that checks only when asked does not examine every path.
static void maybeCheck(bool on) {
  if (on)
    CUDA_CHECK(cudaGetLastError());
}

void helperChecksSometimes(float *x, int n, bool on) {
  fill<<<blocksFor(n), 256>>>(x, n, 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  maybeCheck(on);
}

struct Solver {
  float *state;
  int n;
  void step() {
    fill<<<blocksFor(n), 256>>>(state, n, 0.5f);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: launch of kernel 'fill' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  }
};

// ---------------------------------------------------------------------------
// Negative cases.
// ---------------------------------------------------------------------------

void checkedWithMacro(int n, float *x, float *y) {
  saxpy<<<blocksFor(n), 256>>>(n, 2.0f, x, y);
  CUDA_CHECK(cudaGetLastError());
}

void cudaSamplesStyle(int n, float *x) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  getLastCudaError("fill kernel failed");
}

void gpuErrchkStyle(int n, float *x, float *y) {
  saxpy<<<blocksFor(n), 256>>>(n, 2.0f, x, y);
  gpuErrchk(cudaPeekAtLastError());
  gpuErrchk(cudaDeviceSynchronize());
}

void checkedSynchronize(int n, float *x) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  checkCudaErrors(cudaDeviceSynchronize());
}

void checkedCopyBack(int n, float *x, float *h) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  HANDLE_ERROR(cudaMemcpy(h, x, n * sizeof(float), cudaMemcpyDeviceToHost));
}

void oneCheckCoversSeveralLaunches(int n, float *x, float *y) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  fill<<<blocksFor(n), 256>>>(y, n, 2.0f);
  saxpy<<<blocksFor(n), 256>>>(n, 2.0f, x, y);
  CUDA_CHECK(cudaGetLastError());
}

void loopThenCheck(int n, float *x, int steps) {
  for (int s = 0; s < steps; ++s)
    fill<<<blocksFor(n), 256>>>(x, n, (float)s);
  CUDA_CHECK(cudaDeviceSynchronize());
}

int comparedLastError(int n, float *x) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  if (cudaGetLastError() != cudaSuccess)
    return 1;
  return 0;
}

int statusVariable(int n, float *x) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}

cudaError_t returnsLastError(int n, float *x) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  return cudaGetLastError();
}

void exitsOnOtherPath(int n, float *x, bool bad) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  if (bad)
    abort();
  CUDA_CHECK(cudaGetLastError());
}

void streamSyncChecked(int n, float *x, cudaStream_t s) {
  fill<<<blocksFor(n), 256, 0, s>>>(x, n, 1.0f);
  CUDA_CHECK(cudaStreamSynchronize(s));
}

void eventSyncChecked(int n, float *x, cudaEvent_t done) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  CUDA_CHECK(cudaEventRecord(done));
  CUDA_CHECK(cudaEventSynchronize(done));
}

void launchApiChecked(int n, float *x) {
  float v = 1.0f;
  void *args[] = {&x, &n, &v};
  CUDA_CHECK(cudaLaunchKernel((const void *)fill, dim3(blocksFor(n)),
                              dim3(256), args, 0, nullptr));
}

// A launcher whose callers check after it: the callers are responsible.
void launchSaxpy(int n, float a, const float *x, float *y) {
  saxpy<<<blocksFor(n), 256>>>(n, a, x, y);
}

void callerChecks(int n, float *x, float *y) {
  launchSaxpy(n, 2.0f, x, y);
  CUDA_CHECK(cudaGetLastError());
}

// A check helper defined in this file that examines on every path.
static void checkLaunch(const char *what) {
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
    exit(1);
  }
}

void helperChecks(int n, float *x) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  checkLaunch("fill");
}

// A function defined elsewhere may check: stay silent.
void reportLaunchErrors(const char *where);
void externalHelper(int n, float *x) {
  fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
  reportLaunchErrors("fill");
}

// Thrust reports CUDA errors by throwing.
float thrustAfterLaunch(thrust::device_vector<float> &v) {
  fill<<<blocksFor((int)v.size()), 256>>>(thrust::raw_pointer_cast(v.data()),
                                         (int)v.size(), 1.0f);
  return thrust::reduce(v.begin(), v.end(), 0.0f);
}

// A callback whose callers cannot be known.
void launchCallback(float *x, int n) { fill<<<1, 256>>>(x, n, 0.0f); }
void (*registeredCallback)(float *, int) = launchCallback;

// Launches from a lambda checked right after.
void lambdaLaunch(int n, float *x) {
  auto run = [&] {
    fill<<<blocksFor(n), 256>>>(x, n, 1.0f);
    CUDA_CHECK(cudaGetLastError());
  };
  run();
}

// A later launch does not examine an earlier launch's error, even of a
// kernel whose body is in another file.
__global__ void warm_up() {}
__global__ void relocated_step(float *data);

void warm_then_step(cudaStream_t *streams, int count, float *data) {
  for (int i = 0; i < count; ++i) {
    warm_up<<<1, 1, 0, streams[i]>>>();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: launch of kernel 'warm_up' is not checked for errors on every path [cuda-unchecked-kernel-launch]
  }
  relocated_step<<<1, 32>>>(data);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch of kernel 'relocated_step' is not checked for errors on every path [cuda-unchecked-kernel-launch]
}

// Negative: the same launches, with the error examined after them.
cudaError_t warm_then_step_checked(cudaStream_t *streams, int count,
                                   float *data) {
  for (int i = 0; i < count; ++i)
    warm_up<<<1, 1, 0, streams[i]>>>();
  relocated_step<<<1, 32>>>(data);
  return cudaGetLastError();
}
