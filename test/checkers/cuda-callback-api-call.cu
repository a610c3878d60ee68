// cuda-callback-api-call: CUDA calls, launches and __managed__ accesses in
// host functions enqueued on a stream.
// RUN: %check_cuda_tidy_plugin %s cuda-callback-api-call %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-callback-api-call %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <atomic>
#include <cstdio>
#include <cstring>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.f;
}

__managed__ int managed_flag;

struct Job {
  float *d;
  float *h;
  int n;
  cudaStream_t s;
};

// ---- Positive ----------------------------------------------------------------

void CUDART_CB free_when_done(void *p) { cudaFree(p); }
// CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'cudaFree' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]

void CUDART_CB sync_in_callback(void *) { cudaDeviceSynchronize(); }
// CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'cudaDeviceSynchronize' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]

void CUDART_CB copy_back(void *arg) {
  Job *j = static_cast<Job *>(arg);
  cudaMemcpy(j->h, j->d, j->n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
}

void CUDART_CB relaunch(void *arg) {
  Job *j = static_cast<Job *>(arg);
  fill<<<1, 256, 0, j->s>>>(j->d, j->n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel 'fill' is launched in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
}

void CUDART_CB record_in_callback(void *arg) {
  cudaEvent_t e;
  cudaEventCreate(&e);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaEventCreate' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
  cudaEventRecord(e, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaEventRecord' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
}

void check_error() {
  cudaError_t e = cudaGetLastError();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'cudaGetLastError' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
  if (e != cudaSuccess)
    fprintf(stderr, "error\n");
}
void CUDART_CB report(void *) { check_error(); }

void CUDART_CB legacy_callback(cudaStream_t stream, cudaError_t status,
                               void *arg) {
  cudaStreamQuery(stream);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamQuery' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
}

void CUDA_CB driver_callback(void *arg) {
  cuCtxSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuCtxSynchronize' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
}

void CUDART_CB read_managed(void *) {
  printf("%d\n", managed_flag);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: __managed__ variable 'managed_flag' is accessed in a stream callback, while kernels on other streams may use it [cuda-callback-api-call]
}

void CUDART_CB set_device(void *) {
  cudaSetDevice(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaSetDevice' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
}

struct Releaser {
  float *p;
  ~Releaser() { cudaFreeHost(p); }
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'cudaFreeHost' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
};
void CUDART_CB delete_releaser(void *arg) { delete static_cast<Releaser *>(arg); }

void CUDART_CB alloc_in_callback(void *arg) {
  float *p;
  cudaMallocHost(&p, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMallocHost' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
}

void CUDART_CB memset_in_callback(void *arg) {
  cudaMemsetAsync(arg, 0, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
}

struct Simulation {
  float *d;
  static void CUDART_CB on_step(void *arg) {
    cudaFree(static_cast<Simulation *>(arg)->d);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
  }
  void enqueue(cudaStream_t s) {
    CUDA_CHECK(cudaLaunchHostFunc(s, this->on_step, this));
  }
};

void enqueue_all(cudaStream_t s, CUstream cs, Job *job, Releaser *r) {
  CUDA_CHECK(cudaLaunchHostFunc(s, free_when_done, job->d));
  CUDA_CHECK(cudaLaunchHostFunc(s, &sync_in_callback, nullptr));
  CUDA_CHECK(cudaLaunchHostFunc(s, copy_back, job));
  CUDA_CHECK(cudaLaunchHostFunc(s, relaunch, job));
  CUDA_CHECK(cudaLaunchHostFunc(s, record_in_callback, nullptr));
  CUDA_CHECK(cudaLaunchHostFunc(s, report, nullptr));
  CUDA_CHECK(cudaStreamAddCallback(s, legacy_callback, job, 0));
  cuLaunchHostFunc(cs, driver_callback, nullptr);
  CUDA_CHECK(cudaLaunchHostFunc(s, read_managed, nullptr));
  CUDA_CHECK(cudaLaunchHostFunc(s, set_device, nullptr));
  CUDA_CHECK(cudaLaunchHostFunc(s, delete_releaser, r));
  CUDA_CHECK(cudaLaunchHostFunc(s, alloc_in_callback, nullptr));
  CUDA_CHECK(cudaLaunchHostFunc(s, memset_in_callback, job->d));
  CUDA_CHECK(cudaLaunchHostFunc(
      s, [](void *) { cudaDeviceSynchronize(); }, nullptr));
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'cudaDeviceSynchronize' is called in a stream callback, which must not make CUDA calls [cuda-callback-api-call]
}

// ---- Negative: callbacks that only do host work ----------------------------

void CUDART_CB print_done(void *arg) { printf("%s done\n", (const char *)arg); }

void CUDART_CB count_done(void *arg) {
  static_cast<std::atomic<int> *>(arg)->fetch_add(1);
}

void CUDART_CB copy_host(void *arg) {
  Job *j = static_cast<Job *>(arg);
  memcpy(j->h, j->h + j->n, j->n * sizeof(float));
}

void CUDART_CB legacy_status(cudaStream_t, cudaError_t status, void *arg) {
  if (status != cudaSuccess)
    fprintf(stderr, "stream failed: %s\n", cudaGetErrorString(status));
}

struct Tracker {
  int done = 0;
  void mark() { ++done; }
};
void CUDART_CB mark_done(void *arg) { static_cast<Tracker *>(arg)->mark(); }

void not_a_callback() { CUDA_CHECK(cudaDeviceSynchronize()); }

void CUDART_CB sum_host(void *arg) {
  Job *j = static_cast<Job *>(arg);
  float s = 0;
  for (int i = 0; i < j->n; ++i)
    s += j->h[i];
  printf("%f\n", s);
}

void CUDART_CB signal_flag(void *arg) {
  *static_cast<volatile int *>(arg) = 1;
}

void CUDART_CB lambda_unused(void *) {
  auto later = [] { cudaDeviceSynchronize(); }; // not called here
  (void)later;
}

void CUDART_CB free_host(void *arg) { free(arg); }

// The callback hands the CUDA work to a host thread (cuda-samples'
// simpleCallback): the function is passed, not called.
void postprocess(void *arg) { CUDA_CHECK(cudaFree(arg)); }
void start_thread(void (*fn)(void *), void *arg);
void CUDART_CB hand_off(cudaStream_t, cudaError_t status, void *arg) {
  start_thread(postprocess, arg);
}

void CUDART_CB log_time(void *) { fprintf(stderr, "tick\n"); }

void CUDART_CB store_result(void *arg) {
  static_cast<Job *>(arg)->n = 0;
}

void enqueue_fine(cudaStream_t s, Job *job, Tracker *t, std::atomic<int> *c,
                  int *flag, float *host) {
  CUDA_CHECK(cudaLaunchHostFunc(s, print_done, (void *)"stage"));
  CUDA_CHECK(cudaLaunchHostFunc(s, count_done, c));
  CUDA_CHECK(cudaLaunchHostFunc(s, copy_host, job));
  CUDA_CHECK(cudaStreamAddCallback(s, legacy_status, nullptr, 0));
  CUDA_CHECK(cudaLaunchHostFunc(s, mark_done, t));
  CUDA_CHECK(cudaLaunchHostFunc(s, sum_host, job));
  CUDA_CHECK(cudaLaunchHostFunc(s, signal_flag, flag));
  CUDA_CHECK(cudaLaunchHostFunc(s, lambda_unused, nullptr));
  CUDA_CHECK(cudaLaunchHostFunc(s, free_host, host));
  CUDA_CHECK(cudaStreamAddCallback(s, hand_off, host, 0));
  CUDA_CHECK(cudaLaunchHostFunc(s, log_time, nullptr));
  CUDA_CHECK(cudaLaunchHostFunc(s, store_result, job));
  CUDA_CHECK(cudaLaunchHostFunc(s, [](void *) { puts("lambda"); }, nullptr));
  not_a_callback();
  fill<<<1, 256, 0, s>>>(job->d, job->n);
}
