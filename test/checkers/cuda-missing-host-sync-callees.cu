// cuda-missing-host-sync: work the caller leaves running when a function
// starts. A function of the translation unit that reads or writes a
// __managed__ variable (itself or through the functions it calls) is an
// access to that variable at each call.
// RUN: %check_cuda_tidy_plugin %s cuda-missing-host-sync %t
// RUN: %check_cuda_tidy_driver %s cuda-missing-host-sync %t

#include <cstdio>

__managed__ float results[256];
__managed__ int status;
__managed__ float weights[256];

__global__ void compute(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    results[i] = weights[i] * 2.f;
  if (i == 0)
    status = 1;
}

void printResults(int n) {
  for (int i = 0; i < n; ++i)
    printf("%f\n", results[i]);
}

int readStatus() { return status; }

void report(int n) {
  printResults(n);
  printf("status %d\n", readStatus());
}

void resetWeights() {
  for (int i = 0; i < 256; ++i)
    weights[i] = 1.f;
}

void waitAndPrint(int n) {
  cudaDeviceSynchronize();
  printResults(n);
}

int unrelated() { return 7; }

void readBeforeSync() {
  compute<<<1, 256>>>(256);
  printResults(256);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'results' is read on the host before the kernel 'compute' that writes it is synchronized [cuda-missing-host-sync]
  // CHECK-NOTES: :24:20: note: 'results' is read in 'printResults' here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: kernel 'compute' queued here on the default stream
  cudaDeviceSynchronize();
}

// Through two calls: report() calls readStatus().
void readThroughTwoCalls() {
  compute<<<1, 256>>>(256);
  report(256);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'results' is read on the host before the kernel 'compute' that writes it is synchronized [cuda-missing-host-sync]
  // CHECK-NOTES: :24:20: note: 'results' is read in 'printResults' here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: kernel 'compute' queued here on the default stream
  cudaDeviceSynchronize();
}

// The kernel reads weights: the host must not rewrite them meanwhile.
void writeWhileRead() {
  compute<<<1, 256>>>(256);
  resetWeights();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'weights' is written on the host while the kernel 'compute' that uses it may still be running [cuda-missing-host-sync]
  // CHECK-NOTES: :36:5: note: 'weights' is written in 'resetWeights' here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: kernel 'compute' queued here on the default stream
  cudaDeviceSynchronize();
}

// Negative: synchronized before the call.
void syncThenRead() {
  compute<<<1, 256>>>(256);
  cudaDeviceSynchronize();
  printResults(256);
  report(256);
}

// Negative: the callee waits before it reads.
void calleeWaitsFirst() {
  compute<<<1, 256>>>(256);
  waitAndPrint(256);
}

// Negative: the callee touches no managed memory.
void calleeUnrelated() {
  compute<<<1, 256>>>(256);
  printf("%d\n", unrelated());
  cudaDeviceSynchronize();
}

// Negative: the host writes weights before the launch, reads after the
// stream's synchronization.
void streamOrdered() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  resetWeights();
  compute<<<1, 256, 0, s>>>(256);
  cudaStreamSynchronize(s);
  printResults(256);
  cudaStreamDestroy(s);
}
