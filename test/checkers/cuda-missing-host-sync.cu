// cuda-missing-host-sync: host code that touches memory that queued device
// work may still be writing or reading.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs
// RUN: %check_cuda_tidy_driver %s cuda-missing-host-sync %t -- --extra-arg=-I%S/../Inputs

#include "error_macros.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.f;
}
__global__ void scale(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = 2.f * in[i];
}
__device__ __managed__ int counter;
__global__ void bump() { atomicAdd(&counter, 1); }
__device__ void store(float *p, int i, float v) { p[i] = v; }
__global__ void viaHelper(float *p, int n) {
  int i = threadIdx.x;
  if (i < n)
    store(p, i, 3.f);
}
__global__ void spinUntilReleased(volatile unsigned *latch) {
  while (*latch == 0) {
  }
}
__global__ void countSystemWide(int *counter) {
  atomicAdd_system(counter, 1);
}
__global__ void sumInto(const float *in, float *sum, int n) {
  if (threadIdx.x < n)
    atomicAdd(sum, in[threadIdx.x]);
}

static float checksum(const float *p, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s;
}
static void waitForGpu() { CUDA_CHECK(cudaDeviceSynchronize()); }
// Launchers: they queue work and return while it runs.
static void launchFill(float *p, int n, cudaStream_t s = 0) {
  fill<<<(n + 255) / 256, 256, 0, s>>>(p, n);
  CUDA_CHECK(cudaGetLastError());
}
template <typename T>
void copyToHost(T *dst, const T *src, int n, cudaStream_t s) {
  CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost, s));
}
static void launchFillAndWait(float *p, int n) {
  launchFill(p, n);
  waitForGpu();
}
void externalBarrier(); // Defined elsewhere: it may synchronize.

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

void managed_after_launch(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<(n + 255) / 256, 256>>>(m, n);
  printf("%f\n", m[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'm' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFree(m));
}

void managed_copied_out_by_memcpy(int n, float *out) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<1, 256>>>(m, n);
  memcpy(out, m, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'm' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFree(m));
}

void pinned_copy_read_before_sync(int n, cudaStream_t s) {
  float *h, *d;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  fill<<<1, 256, 0, s>>>(d, n);
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  float first = h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaStreamSynchronize(s));
  printf("%f %f\n", first, h[1]);
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFreeHost(h));
}

void synchronizes_the_wrong_stream(int n) {
  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreate(&s1));
  CUDA_CHECK(cudaStreamCreate(&s2));
  float *h, *d;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s1));
  CUDA_CHECK(cudaStreamSynchronize(s2));
  printf("%f\n", h[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFreeHost(h));
  CUDA_CHECK(cudaFree(d));
}

void nonblocking_stream_skips_the_legacy_sync(int n, float *result) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float *h, *d, *d2;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d2, sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  // A synchronous copy waits for the legacy default stream and the blocking
  // streams only.
  CUDA_CHECK(cudaMemcpy(result, d2, sizeof(float), cudaMemcpyDeviceToHost));
  *result += h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaStreamSynchronize(s));
}

int managed_variable_after_launch() {
  counter = 0;
  bump<<<4, 64>>>();
  CUDA_CHECK(cudaGetLastError());
  return counter;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'counter' is read on the host before the kernel 'bump' that writes it is synchronized [cuda-missing-host-sync]
}

float elapsed_without_event_sync(int n, float *d) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  fill<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaEventRecord(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaEventElapsedTime' reads event 'stop' before it is synchronized [cuda-missing-host-sync]
  return ms;
}

float elapsed_after_syncing_the_start_event(int n, float *d, cudaStream_t s) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start, s));
  fill<<<1, 256, 0, s>>>(d, n);
  CUDA_CHECK(cudaEventRecord(stop, s));
  CUDA_CHECK(cudaEventSynchronize(start));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaEventElapsedTime' reads event 'stop' before it is synchronized [cuda-missing-host-sync]
  return ms;
}

void source_refilled_while_copy_reads_it(int n, float *d, cudaStream_t s) {
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    h[i] = 1.f;
  CUDA_CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
  h[0] = 2.f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written on the host while the asynchronous copy that uses it may still be running [cuda-missing-host-sync]
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaFreeHost(h));
}

void managed_input_overwritten_during_kernel(int n) {
  float *in, *out;
  CUDA_CHECK(cudaMallocManaged(&in, n * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&out, n * sizeof(float)));
  scale<<<1, 256>>>(in, out, n);
  for (int i = 0; i < n; ++i)
    in[i] = 0.f;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'in' is written on the host while the kernel 'scale' that uses it may still be running [cuda-missing-host-sync]
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
}

void registered_source_freed(int n, float *d, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  CUDA_CHECK(cudaHostRegister(h, n * sizeof(float), cudaHostRegisterDefault));
  CUDA_CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
  CUDA_CHECK(cudaHostUnregister(h));
  free(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is freed while the asynchronous copy that uses it may still be running [cuda-missing-host-sync]
  CUDA_CHECK(cudaStreamSynchronize(s));
}

void freed_in_order_on_another_stream(int n) {
  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  float *d;
  CUDA_CHECK(cudaMallocAsync(&d, n * sizeof(float), s1));
  fill<<<1, 256, 0, s1>>>(d, n);
  CUDA_CHECK(cudaFreeAsync(d, s2));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'd' is freed on a stream that is not ordered after the kernel 'fill' that uses it [cuda-missing-host-sync]
  CUDA_CHECK(cudaStreamSynchronize(s2));
}

float read_inside_the_launch_loop(int n, int steps) {
  float *m, total = 0;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  for (int t = 0; t < steps; ++t) {
    fill<<<1, 256>>>(m, n);
    total += m[0];
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'm' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
  }
  CUDA_CHECK(cudaFree(m));
  return total;
}

float synchronized_on_one_path_only(int n, bool verbose) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<1, 256>>>(m, n);
  if (verbose)
    CUDA_CHECK(cudaDeviceSynchronize());
  float v = m[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'm' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFree(m));
  return v;
}

void query_result_ignored(int n, float *d, cudaStream_t s) {
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  cudaStreamQuery(s);
  printf("%f\n", h[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFreeHost(h));
}

float helper_reads_before_sync(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  viaHelper<<<1, 256>>>(m, n);
  float s = checksum(m, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'm' is read on the host before the kernel 'viaHelper' that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFree(m));
  return s;
}

void event_recorded_before_the_copy(int n, float *d, cudaStream_t s) {
  float *h;
  cudaEvent_t ready;
  CUDA_CHECK(cudaEventCreate(&ready));
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  fill<<<1, 256, 0, s>>>(d, n);
  CUDA_CHECK(cudaEventRecord(ready, s));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaEventSynchronize(ready));
  printf("%f\n", h[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFreeHost(h));
}

void two_streams_one_synchronized(int n) {
  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreate(&s1));
  CUDA_CHECK(cudaStreamCreate(&s2));
  float *h, *d;
  CUDA_CHECK(cudaMallocHost(&h, 2 * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, 2 * n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s1));
  CUDA_CHECK(cudaMemcpyAsync(h + n, d + n, n * sizeof(float),
                             cudaMemcpyDeviceToHost, s2));
  CUDA_CHECK(cudaStreamSynchronize(s1));
  printf("%f\n", h[n]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaStreamSynchronize(s2));
}

void memset_then_read(int n, cudaStream_t s) {
  int *flags;
  CUDA_CHECK(cudaMallocManaged(&flags, n * sizeof(int)));
  CUDA_CHECK(cudaMemsetAsync(flags, 0, n * sizeof(int), s));
  if (flags[0] != 0)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'flags' is read on the host before the asynchronous memset that writes it is synchronized [cuda-missing-host-sync]
    puts("not cleared");
  CUDA_CHECK(cudaFree(flags));
}

void mapped_memory_written_by_kernel(int n) {
  float *h, *d;
  CUDA_CHECK(cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocMapped));
  CUDA_CHECK(cudaHostGetDevicePointer(&d, h, 0));
  fill<<<1, 256>>>(d, n);
  printf("%f\n", h[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'h' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaFreeHost(h));
}

struct Staging {
  float *host;
  float *dev;
};

void buffer_in_a_struct(Staging &st, int n, cudaStream_t s) {
  CUDA_CHECK(cudaMallocHost(&st.host, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&st.dev, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(st.host, st.dev, n * sizeof(float),
                             cudaMemcpyDeviceToHost, s));
  float v = st.host[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'st.host' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  (void)v;
}

void device_to_device_copy_does_not_wait(int n) {
  float *m, *d, *d2;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d2, n * sizeof(float)));
  fill<<<1, 256>>>(m, n);
  CUDA_CHECK(cudaMemcpy(d2, d, n * sizeof(float), cudaMemcpyDeviceToDevice));
  printf("%f\n", m[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'm' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
}

void stream_destroy_does_not_wait(int n, float *d) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamDestroy(s));
  float total = std::accumulate(h, h + n, 0.f);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  printf("%f\n", total);
}

void host_overwrites_copy_destination(int n, float *d, cudaStream_t s) {
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  memset(h, 0, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h' is written on the host while the asynchronous copy that uses it may still be running [cuda-missing-host-sync]
  CUDA_CHECK(cudaStreamSynchronize(s));
}

float atomic_result_read_early(int n) {
  float *in, *sum;
  CUDA_CHECK(cudaMallocManaged(&in, n * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&sum, sizeof(float)));
  *sum = 0;
  sumInto<<<1, 256>>>(in, sum, n);
  float r = *sum;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'sum' is read on the host before the kernel 'sumInto' that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaDeviceSynchronize());
  return r;
}

float launcher_returns_before_the_kernel_ends(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  launchFill(m, n);
  return m[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'm' is read on the host before the kernel 'fill' that writes it is synchronized [cuda-missing-host-sync]
}

void template_copy_helper(int n, float *d, cudaStream_t s) {
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  copyToHost(h, d, n, s);
  printf("%f\n", h[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'h' is read on the host before the asynchronous copy that writes it is synchronized [cuda-missing-host-sync]
  CUDA_CHECK(cudaStreamSynchronize(s));
}

//===----------------------------------------------------------------------===//
// Negative cases
//===----------------------------------------------------------------------===//

void managed_with_device_sync(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    m[i] = 0.f; // Before the launch.
  fill<<<(n + 255) / 256, 256>>>(m, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  printf("%f\n", m[0]);
  CUDA_CHECK(cudaFree(m));
}

void pinned_with_stream_sync(int n, cudaStream_t s) {
  float *h, *d;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  fill<<<1, 256, 0, s>>>(d, n);
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  printf("%f\n", h[0]);
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFreeHost(h));
}

void pinned_pipeline_with_events(int n, int chunks) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float *h, *d;
  CUDA_CHECK(cudaMallocHost(&h, chunks * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, chunks * n * sizeof(float)));
  cudaEvent_t done;
  CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  for (int c = 0; c < chunks; ++c) {
    CUDA_CHECK(cudaMemcpyAsync(d + c * n, h + c * n, n * sizeof(float),
                               cudaMemcpyHostToDevice, s));
    scale<<<64, 256, 0, s>>>(d + c * n, d + c * n, n);
    CUDA_CHECK(cudaMemcpyAsync(h + c * n, d + c * n, n * sizeof(float),
                               cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaEventRecord(done, s));
    CUDA_CHECK(cudaEventSynchronize(done));
    printf("%f\n", h[c * n]);
  }
  CUDA_CHECK(cudaEventDestroy(done));
  CUDA_CHECK(cudaStreamDestroy(s));
}

void blocking_stream_ordered_by_sync_copy(int n, float *result) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  float *h, *d, *d2;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d2, sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  // The legacy default stream waits for every blocking stream.
  CUDA_CHECK(cudaMemcpy(result, d2, sizeof(float), cudaMemcpyDeviceToHost));
  *result += h[0];
}

void default_stream_copy_back(int n, float *out) {
  float *m, *d;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  fill<<<1, 256>>>(m, n);
  fill<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaMemcpy(out, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("%f %f\n", m[0], out[0]);
}

void stream_query_loop(int n, float *d, cudaStream_t s) {
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  while (cudaStreamQuery(s) == cudaErrorNotReady) {
    // Overlap host work.
  }
  printf("%f\n", h[0]);
  CUDA_CHECK(cudaFreeHost(h));
}

void event_query_loop(int n, float *d, cudaStream_t s) {
  float *h;
  cudaEvent_t ev;
  CUDA_CHECK(cudaEventCreate(&ev));
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaEventRecord(ev, s));
  cudaError_t st;
  do {
    st = cudaEventQuery(ev);
  } while (st == cudaErrorNotReady);
  printf("%f\n", h[0]);
}

void free_synchronizes(int n) {
  float *m, *tmp;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&tmp, n * sizeof(float)));
  fill<<<1, 256>>>(m, n);
  CUDA_CHECK(cudaFree(tmp)); // cudaFree waits for the device.
  printf("%f\n", m[0]);
}

void multi_stream_overlap(int n) {
  constexpr int kStreams = 4;
  cudaStream_t streams[kStreams];
  for (auto &s : streams)
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float *h, *d;
  CUDA_CHECK(cudaMallocHost(&h, kStreams * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, kStreams * n * sizeof(float)));
  for (int i = 0; i < kStreams; ++i) {
    CUDA_CHECK(cudaMemcpyAsync(d + i * n, h + i * n, n * sizeof(float),
                               cudaMemcpyHostToDevice, streams[i]));
    scale<<<64, 256, 0, streams[i]>>>(d + i * n, d + i * n, n);
    CUDA_CHECK(cudaMemcpyAsync(h + i * n, d + i * n, n * sizeof(float),
                               cudaMemcpyDeviceToHost, streams[i]));
  }
  for (auto &s : streams)
    CUDA_CHECK(cudaStreamSynchronize(s));
  printf("%f\n", h[0]);
  for (int i = 0; i < kStreams; ++i)
    CUDA_CHECK(cudaStreamDestroy(streams[i]));
}

void multi_stream_indexed_sync(int n) {
  cudaStream_t streams[2];
  for (int i = 0; i < 2; ++i)
    CUDA_CHECK(cudaStreamCreate(&streams[i]));
  float *h, *d;
  CUDA_CHECK(cudaMallocHost(&h, 2 * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d, 2 * n * sizeof(float)));
  for (int i = 0; i < 2; ++i)
    CUDA_CHECK(cudaMemcpyAsync(h + i * n, d + i * n, n * sizeof(float),
                               cudaMemcpyDeviceToHost, streams[i]));
  for (int i = 0; i < 2; ++i)
    CUDA_CHECK(cudaStreamSynchronize(streams[i]));
  printf("%f\n", h[n]);
}

// The copies into pageable memory return when done; reading 'raw' and the
// vector's elements works today but is reported (ReportPageableAsyncCopies).
void pageable_destination_is_synchronous(int n, float *d, cudaStream_t s) {
  std::vector<float> host(n);
  float *raw = (float *)malloc(n * sizeof(float));
  CUDA_CHECK(cudaMemcpyAsync(host.data(), d, n * sizeof(float),
                             cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaMemcpyAsync(raw, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  printf("%f %f\n", host[0], raw[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'host' is read on the host before the asynchronous copy into it is known to finish; it works only while 'host' is pageable memory, for which the copy returns when done [cuda-missing-host-sync]
  // CHECK-MESSAGES: :[[@LINE-2]]:30: warning: 'raw' is read on the host before the asynchronous copy into it is known to finish; it works only while 'raw' is pageable memory, for which the copy returns when done [cuda-missing-host-sync]
  free(raw);
}

void helper_that_synchronizes(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<1, 256>>>(m, n);
  waitForGpu();
  printf("%f\n", checksum(m, n));
}

void unknown_callee_may_synchronize(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<1, 256>>>(m, n);
  externalBarrier();
  printf("%f\n", m[0]);
}

class StreamGuard {
public:
  StreamGuard() { CUDA_CHECK(cudaStreamCreate(&s_)); }
  ~StreamGuard() { cudaStreamDestroy(s_); }
  cudaStream_t get() const { return s_; }
  void sync() { CUDA_CHECK(cudaStreamSynchronize(s_)); }

private:
  cudaStream_t s_;
};

void raii_stream_wrapper(int n, float *d) {
  StreamGuard g;
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost,
                             g.get()));
  g.sync();
  printf("%f\n", h[0]);
}

float thrust_reduction_waits(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  thrust::device_vector<float> v(n, 1.f);
  fill<<<1, 256>>>(m, n);
  float s = thrust::reduce(v.begin(), v.end());
  return s + m[0];
}

void free_async_after_event_wait(int n) {
  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t done;
  CUDA_CHECK(cudaEventCreate(&done));
  float *d;
  CUDA_CHECK(cudaMallocAsync(&d, n * sizeof(float), s1));
  fill<<<1, 256, 0, s1>>>(d, n);
  CUDA_CHECK(cudaEventRecord(done, s1));
  CUDA_CHECK(cudaStreamWaitEvent(s2, done, 0));
  CUDA_CHECK(cudaFreeAsync(d, s2));
}

void free_async_same_stream(int n, cudaStream_t s) {
  float *d;
  CUDA_CHECK(cudaMallocAsync(&d, n * sizeof(float), s));
  fill<<<1, 256, 0, s>>>(d, n);
  CUDA_CHECK(cudaFreeAsync(d, s));
}

float timing_done_right(int n, float *d) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start, 0));
  fill<<<1, 256>>>(d, n);
  CUDA_CHECK(cudaEventRecord(stop, 0));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

float timing_after_device_sync(int n, float *d) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  fill<<<1, 256>>>(d, n);
  cudaEventRecord(stop);
  cudaDeviceSynchronize();
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

void kernel_only_reads_managed_input(int n, float *out) {
  float *in;
  CUDA_CHECK(cudaMallocManaged(&in, n * sizeof(float)));
  scale<<<1, 256>>>(in, out, n);
  printf("%f\n", in[0]); // Reading what the kernel also reads is fine.
  CUDA_CHECK(cudaDeviceSynchronize());
}

void untouched_pinned_buffer(int n, float *d) {
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    h[i] = 0;
  fill<<<1, 256>>>(d, n); // d is device memory; h is not used.
  printf("%f\n", h[0]);
  CUDA_CHECK(cudaDeviceSynchronize());
}

void sync_in_each_iteration(int n, int steps) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  for (int t = 0; t < steps; ++t) {
    fill<<<1, 256>>>(m, n);
    CUDA_CHECK(cudaDeviceSynchronize());
    m[0] += 1.f;
  }
}

void nonblocking_stream_synchronized(int n, float *d) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  printf("%f\n", h[0]);
}

void source_refilled_after_sync(int n, float *d, cudaStream_t s) {
  float *h;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < n; ++i)
      h[i] = (float)round;
    CUDA_CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
  }
}

void legacy_stream_sync(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<1, 256>>>(m, n);
  CUDA_CHECK(cudaStreamSynchronize(0));
  printf("%f\n", m[0]);
}

void launcher_then_stream_sync(int n, float *d, cudaStream_t s) {
  float *m, *h;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  launchFill(m, n, s);
  copyToHost(h, d, n, s);
  CUDA_CHECK(cudaStreamSynchronize(s));
  printf("%f %f\n", m[0], h[0]);
}

void launcher_that_waits(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  launchFillAndWait(m, n);
  printf("%f\n", m[0]);
}

void synchronized_under_the_same_condition(int n, int steps, bool async,
                                           cudaStream_t s) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  for (int t = 0; t < steps; ++t) {
    m[0] = (float)t;
    if (async)
      fill<<<1, 256, 0, s>>>(m, n);
    else
      fill<<<1, 256>>>(m, n);
    if (async)
      CUDA_CHECK(cudaStreamSynchronize(s));
    else
      CUDA_CHECK(cudaDeviceSynchronize());
  }
}

void launched_and_synchronized_only_when_async(int n, int steps, bool async,
                                               cudaStream_t s) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  for (int t = 0; t < steps; ++t) {
    if (async && n > 0) {
      m[0] = 0.f;
      fill<<<1, 256, 0, s>>>(m, n);
    }
    if (async)
      CUDA_CHECK(cudaStreamSynchronize(s));
  }
}

void host_releases_a_polling_kernel(cudaStream_t s) {
  unsigned *latch;
  CUDA_CHECK(cudaMallocManaged(&latch, sizeof(unsigned)));
  *latch = 0;
  spinUntilReleased<<<1, 1, 0, s>>>(latch);
  *latch = 1; // The kernel waits for this write.
  CUDA_CHECK(cudaStreamSynchronize(s));
}

void system_scope_atomics_are_shared_on_purpose() {
  int *counter;
  CUDA_CHECK(cudaMallocManaged(&counter, sizeof(int)));
  *counter = 0;
  countSystemWide<<<8, 128>>>(counter);
  __atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST);
  CUDA_CHECK(cudaDeviceSynchronize());
}

void read_of_pointer_value_is_not_a_read_of_memory(int n) {
  float *m;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<1, 256>>>(m, n);
  printf("%p\n", (void *)m);
  float *alias = m + 1;
  (void)alias;
  CUDA_CHECK(cudaDeviceSynchronize());
}
