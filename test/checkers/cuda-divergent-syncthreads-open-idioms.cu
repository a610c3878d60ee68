// Correct code that cuda-divergent-syncthreads still reports: the file
// expects no finding and is marked XFAIL until the check learns the idiom
// (lit then reports XPASS and the XFAIL line goes; docs/precision.md).
// XFAIL: *
// RUN: %check_cuda_tidy_driver %s cuda-divergent-syncthreads %t

#define HELPERS 64

// Matched barriers: the helper threads pass one barrier of their own for
// each barrier the workers pass, then leave. `bar.sync 0` counts arrivals
// from any call site, so every barrier is complete.
__global__ void helpersAndWorkers(int *flags, int *counts, int n) {
  __shared__ int ready;
  if (threadIdx.x < HELPERS) {
    for (int i = threadIdx.x; i < n; i += HELPERS)
      flags[i] = 0;
    __syncthreads();
    return;
  }
  if (threadIdx.x == HELPERS)
    ready = n;
  __syncthreads();
  counts[threadIdx.x - HELPERS] = ready;
}
